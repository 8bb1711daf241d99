//! Checks of the duel solvers against computations written apart from them.

use super::full::{FullRecall, Judge, NodePolicy};
use super::*;

/// The value of one-die-a-side liar's dice with 1s wild in the textbook order (Neller and
/// Lanctot's Dudo), −7/258 for the opener.
const ONE_DIE_VALUE: f64 = -7.0 / 258.0;

/// Plain bids for `k` dice a side in the textbook order, as (quantity, face), written here
/// again rather than read from the game tables.
fn plain_bids(k: u32) -> Vec<(u32, u8)> {
    let mut out = Vec::new();
    for q in 1..=2 * k {
        for f in [2, 3, 4, 5, 6, 1] {
            out.push((q, f));
        }
    }
    out
}

/// Whether a plain bid is true for two cups of dice (values 1..=6), counted die by die.
fn plain_true(bid: (u32, u8), a: &[u8], b: &[u8]) -> bool {
    let n = a
        .iter()
        .chain(b)
        .filter(|&&d| d == bid.1 || (d == 1 && bid.1 != 1))
        .count() as u32;
    n >= bid.0
}

/// An independent judge of a one-die strategy: every ordered deal of two dice, every history as
/// a list of bids; a best response maximises per own die and history over the other's dice.
struct Independent<'a> {
    game: &'a DuelGame,
    policy: &'a dyn NodePolicy,
    bids: Vec<(u32, u8)>,
}

impl Independent<'_> {
    /// `player`'s payoff for die `mine` at `history`, against the other's dice weighted by
    /// `other[o]` (their reach, unnormalised); `best` takes the best action at own nodes,
    /// otherwise the policy's.
    fn walk(
        &self,
        history: &[usize],
        mover: usize,
        player: usize,
        mine: u8,
        other: [f64; 6],
        best: bool,
    ) -> f64 {
        let top = history.last().copied();
        let n = self.bids.len();
        let mut actions: Vec<Option<usize>> = Vec::new();
        if top.is_some() {
            actions.push(None);
        }
        actions.extend((top.map_or(0, |t| t + 1)..n).map(Some));
        let mask = history.iter().fold(0u32, |m, &b| m | 1 << b);
        let h = self.game.hand_count();
        let mut sigma = vec![0.0; actions.len() * h];
        self.policy.fill(self.game, mask, top, mover, &mut sigma);
        let die_hand = |d: u8| {
            self.game
                .hand_index(&[crate::games::dudo::Face::new(d).unwrap()])
                .unwrap()
        };
        let value_of = |a: usize, reach: [f64; 6]| -> f64 {
            match actions[a] {
                None => {
                    let bid = self.bids[top.unwrap()];
                    (1..=6u8)
                        .map(|o| {
                            let t = plain_true(bid, &[mine], &[o]);
                            // The doubter (the mover) loses when the bid is true.
                            let me_wins = (mover == player) != t;
                            reach[o as usize - 1] * if me_wins { 1.0 } else { -1.0 }
                        })
                        .sum()
                }
                Some(b) => {
                    let mut next = history.to_vec();
                    next.push(b);
                    self.walk(&next, 1 - mover, player, mine, reach, best)
                }
            }
        };
        if mover == player {
            let mine_h = die_hand(mine);
            let vals: Vec<f64> = (0..actions.len()).map(|a| value_of(a, other)).collect();
            if best {
                vals.into_iter().fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.iter()
                    .enumerate()
                    .map(|(a, v)| sigma[a * h + mine_h] * v)
                    .sum()
            }
        } else {
            (0..actions.len())
                .map(|a| {
                    let mut reach = other;
                    for o in 1..=6u8 {
                        reach[o as usize - 1] *= sigma[a * h + die_hand(o)];
                    }
                    if reach.iter().all(|&r| r == 0.0) {
                        0.0
                    } else {
                        value_of(a, reach)
                    }
                })
                .sum()
        }
    }

    /// `player`'s expected payoff, best-responding or playing the policy.
    fn payoff(&self, player: usize, best: bool) -> f64 {
        (1..=6u8)
            .map(|d| self.walk(&[], 0, player, d, [1.0 / 36.0; 6], best))
            .sum()
    }
}

#[test]
fn one_die_full_recall_solves_the_textbook_game() {
    let game = DuelGame::new(DuelRules::Plain, 1);
    assert_eq!(
        game.bids
            .iter()
            .map(|b| (b.quantity, b.face.value()))
            .collect::<Vec<_>>(),
        plain_bids(1)
    );
    let mut solver = FullRecall::new(&game);
    for _ in 0..600 {
        solver.iterate();
    }
    let (value, exploitability) = solver.judge();
    let avg = solver.average();
    let check = Independent {
        game: &game,
        policy: &avg,
        bids: plain_bids(1),
    };
    let independent_value = check.payoff(0, false);
    let gain0 = check.payoff(0, true) - independent_value;
    let gain1 = check.payoff(1, true) + independent_value;
    assert!(
        (value - independent_value).abs() < 1e-12,
        "{value} vs {independent_value}"
    );
    assert!(
        (exploitability - (gain0 + gain1)).abs() < 1e-9,
        "{exploitability} vs {}",
        gain0 + gain1
    );
    assert!(exploitability < 1e-3, "exploitability {exploitability}");
    assert!((value - ONE_DIE_VALUE).abs() < 1e-4, "value {value}");
}

#[test]
fn standing_bid_abstraction_is_judged_in_the_full_game() {
    // The abstraction's own evaluation of its profile and the full-recall walk agree, and a
    // best response with full recall gains more than the spot-by-spot one.
    let game = DuelGame::new(DuelRules::Plain, 1);
    for memory in [1, 2] {
        let mut solver = last_bid::LastBid::new(&game, memory);
        for _ in 0..50 {
            solver.iterate();
        }
        let value = solver.value();
        let spot = solver.spot_exploitability();
        let mut judge = Judge::new(&game);
        let policy = solver.policy();
        assert!((judge.value(&policy) - value).abs() < 1e-12);
        let full = judge.exploitability(&policy);
        assert!(full >= spot - 1e-12 && spot >= -1e-12, "{full} {spot}");
        let check = Independent {
            game: &game,
            policy: &policy,
            bids: plain_bids(1),
        };
        let gains = check.payoff(0, true) + check.payoff(1, true);
        assert!((gains - full).abs() < 1e-9, "{gains} vs {full}");
    }
}

#[test]
#[ignore]
fn probe_speed() {
    let k: u32 = std::env::var("PK").unwrap().parse().unwrap();
    let mode = std::env::var("PM").unwrap();
    let its: u64 = std::env::var("PI").unwrap().parse().unwrap();
    let game = DuelGame::new(DuelRules::Plain, k);
    let t = std::time::Instant::now();
    if mode == "full" {
        let mut s = FullRecall::new(&game);
        eprintln!("alloc {:?}", t.elapsed());
        for i in 1..=its {
            s.iterate();
            if i % 10 == 0 || i == its {
                eprintln!("it {i} {:?}", t.elapsed());
            }
        }
        let (v, e) = s.judge();
        eprintln!("v={v} e={e} {:?}", t.elapsed());
    } else {
        let mem: usize = mode.parse().unwrap();
        let mut s = last_bid::LastBid::new(&game, mem);
        eprintln!("spots {} {:?}", s.spot_count(), t.elapsed());
        for i in 1..=its {
            s.iterate();
            if i % 10 == 0 || i == its {
                let v = s.value();
                let se = s.spot_exploitability();
                eprintln!("it {i} v={v:.5} spot-e={se:.4} {:?}", t.elapsed());
            }
        }
        if k <= 2 {
            let mut judge = Judge::new(&game);
            let e = judge.exploitability(&s.policy());
            eprintln!("full-e={e} {:?}", t.elapsed());
        }
    }
}
