//! A duel from any lives when both players play the solved round: each round is the solved
//! game, whose opener wins with the chance the shipped sheet states, and the loser of a round
//! opens the next, so the match is a small Markov chain over (lives, lives, opener) solved
//! exactly here.

use crate::games::dudo::{RuleSet, Rules};

/// The shipped sheet of a rule set (`data/dudo/duel-<rules>.md`, built into tahur).
fn shipped_markdown(set: RuleSet) -> &'static str {
    match set {
        RuleSet::Chimbo9 => include_str!("../../../../data/dudo/duel-chimbo9.md"),
        RuleSet::Caleuchano => include_str!("../../../../data/dudo/duel-caleuchano.md"),
    }
}

/// The opener's expected payoff in one round of the solved five-dice duel, as the shipped sheet
/// states it ("expected payoff +0.0066"): the opener wins the round with `(1 + v) / 2`.
pub fn shipped_round_value(set: RuleSet) -> Option<f64> {
    let md = shipped_markdown(set);
    let at = md.find("expected payoff ")? + "expected payoff ".len();
    let end = md[at..].find(')')? + at;
    md[at..end].trim().trim_start_matches('+').parse().ok()
}

/// Whether a two-player game at `rules` plays every round as the solved duel: the rule set's
/// own bidding and paso with no obligado round, no reforzada and no revivir (the solved game
/// has none of them).
pub fn rounds_are_the_solved_duel(rules: &Rules) -> bool {
    let mut solved = Rules::standard(rules.set(), 2);
    solved.lives = rules.lives;
    solved.reforzada = false;
    solved.obligado = false;
    solved.choose_direction = rules.choose_direction;
    *rules == solved
}

/// Seat 0's chance to win the match holding `lives[0]` lives against `lives[1]`, when the
/// round's opener wins it with chance `p` and the loser of a round opens the next. `opener`:
/// who opens the first round (`None`: either, evenly — both rule sets draw it by a fair roll).
pub fn match_chance(p: f64, lives: [u8; 2], opener: Option<usize>) -> f64 {
    let (a, b) = (usize::from(lives[0]), usize::from(lives[1]));
    // w[i][j][o]: seat 0's chance with i and j lives, seat o to open; filled by lives left.
    let mut w = vec![[[0.0f64; 2]; 256]; a + 1];
    for i in 0..=a {
        for j in 0..=b {
            for o in 0..2 {
                w[i][j][o] = if j == 0 {
                    1.0
                } else if i == 0 {
                    0.0
                } else if o == 0 {
                    // Seat 0 opens: wins the round (seat 1 loses a life and opens next) or
                    // loses it (and opens next).
                    p * w[i][j - 1][1] + (1.0 - p) * w[i - 1][j][0]
                } else {
                    p * w[i - 1][j][0] + (1.0 - p) * w[i][j - 1][1]
                };
            }
        }
    }
    match opener {
        Some(o) => w[a][b][o.min(1)],
        None => 0.5 * (w[a][b][0] + w[a][b][1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of round results, walked one by one (a different computation from the
    /// table of `match_chance`).
    fn by_paths(p: f64, a: u8, b: u8, opener: usize) -> f64 {
        if b == 0 {
            return 1.0;
        }
        if a == 0 {
            return 0.0;
        }
        let (win, lose) = if opener == 0 {
            (p, 1.0 - p)
        } else {
            (1.0 - p, p)
        };
        // Seat 0 wins the round: seat 1 loses a life and opens; else seat 0 does.
        win * by_paths(p, a, b - 1, 1) + lose * by_paths(p, a - 1, b, 0)
    }

    #[test]
    fn match_chances_agree_with_every_path() {
        for p in [0.5, 0.5033, 0.42, 0.61] {
            for a in 1..=5u8 {
                for b in 1..=5u8 {
                    for o in 0..2 {
                        let x = match_chance(p, [a, b], Some(o));
                        let y = by_paths(p, a, b, o);
                        assert!((x - y).abs() < 1e-12, "{p} {a} {b} {o}: {x} {y}");
                    }
                }
            }
        }
        // Even rounds: lives decide alone, as a fair coin race: with 1 against 2, 1/4.
        assert!((match_chance(0.5, [1, 2], None) - 0.25).abs() < 1e-15);
        // One life each: the opener's round is the match.
        assert!((match_chance(0.6, [1, 1], Some(0)) - 0.6).abs() < 1e-15);
        assert!((match_chance(0.6, [1, 1], Some(1)) - 0.4).abs() < 1e-15);
    }

    #[test]
    fn shipped_values_read_and_the_rules_that_play_them() {
        for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
            let v = shipped_round_value(set).unwrap();
            assert!(v.abs() < 0.2, "{set:?}: {v}");
        }
        assert!(rounds_are_the_solved_duel(&Rules::standard(
            RuleSet::Chimbo9,
            2
        )));
        let mut r = Rules::standard(RuleSet::Caleuchano, 2);
        assert!(!rounds_are_the_solved_duel(&r), "obligado is on by default");
        r.obligado = false;
        r.reforzada = false;
        assert!(rounds_are_the_solved_duel(&r));
        assert!(!rounds_are_the_solved_duel(&Rules::standard(
            RuleSet::Chimbo9,
            3
        )));
    }
}
