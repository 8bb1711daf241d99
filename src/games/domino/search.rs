//! The search bots' knowledge of the game.
//!
//! `search[:N]`: flat Monte Carlo over determinised deals. For each decision it deals the tiles
//! it cannot see at random into the other hands and the boneyard, consistently with what it has
//! seen ([`View::determinize`]: hand sizes, and no player holding a number it knocked or drew
//! on), `budget` times. On each deal it tries every legal play and plays the game out with
//! `company` players, all plays on the same deal and the same draws (common random numbers),
//! and scores the end for its side: 1 for a win, ½ for a blocked tie, 0 for a loss; when points
//! are scored, its side's points in the game less the best other side's. It plays the best
//! average. What it knows of its partner comes only from the partner's plays and knocks, as for
//! every player.
//!
//! `ismcts[:N]`: the shared information-set tree search ([`crate::play::ismcts`]) on the same
//! deals ([`State::deal_for_view`] is [`View::determinize`]), with this game's hooks: it plays
//! out with `company` ([`playout_action`]), an iteration ends with the game it started in
//! ([`ends`]) and is credited by [`rewards`].

use super::bots::company_action;
use super::engine::{Action, DominoState, View};
use super::rules::Score;
use crate::play::{Outcome, PlayerView, Seat, State, MAX_SEATS};
use crate::rng::{Rng, SeedableRng, Stream};

/// A reusable search with a fixed budget of sampled deals per decision.
pub struct Search {
    budget: u32,
    actions: Vec<Action>,
    totals: Vec<f64>,
}

/// Plays `game` to its end with `company` players; draws come from `rng`.
pub fn play_out(game: &mut DominoState, rng: &mut Stream) {
    while !game.is_over() {
        let a = company_action(&game.view(game.to_act()));
        game.apply(a, rng).expect("company plays a legal action");
    }
}

/// `seat`'s reward in a finished single game.
pub fn reward(game: &DominoState, seat: Seat) -> f64 {
    let rules = game.rules();
    if rules.score == Score::Game {
        return match game.outcome() {
            Some(Outcome::Event(mask)) if mask >> seat & 1 == 1 => 1.0,
            Some(Outcome::Event(_)) => 0.0,
            _ => 0.5,
        };
    }
    let own = rules.side_of(seat);
    let best_other = (0..rules.side_count())
        .filter(|&k| k != own)
        .map(|k| game.game_points(k))
        .max()
        .unwrap_or(0);
    (game.game_points(own) - best_other) as f64
}

impl Search {
    /// A search of `budget` sampled deals per decision.
    pub fn new(budget: u32) -> Search {
        Search {
            budget,
            actions: Vec::with_capacity(32),
            totals: Vec::with_capacity(32),
        }
    }

    /// The play with the best average result over the sampled deals.
    pub fn choose(&mut self, view: &View, rng: &mut Stream) -> Action {
        view.legal_actions(&mut self.actions);
        if self.actions.len() == 1 {
            return self.actions[0];
        }
        self.totals.clear();
        self.totals.resize(self.actions.len(), 0.0);
        let me = view.seat();
        for _ in 0..self.budget {
            // The deal evaluates one game, even in a match.
            let mut world = view.determinize(rng);
            world.stop_after_this_game();
            let draws = rng.next_u64();
            for (i, &a) in self.actions.iter().enumerate() {
                let mut g = world.clone();
                let mut r = Stream::seed_from_u64(draws);
                g.apply(a, &mut r).expect("a legal action");
                play_out(&mut g, &mut r);
                self.totals[i] += reward(&g, me);
            }
        }
        let mut best = 0;
        for i in 1..self.actions.len() {
            if self.totals[i] > self.totals[best] {
                best = i;
            }
        }
        self.actions[best]
    }
}

/// The play-out policy of `ismcts`: `company`, the strategy `search` plays out with too.
#[inline]
pub fn playout_action(state: &DominoState) -> Action {
    company_action(&state.view(state.to_act()))
}

/// Whether an `ismcts` iteration from `root` ends at `now`: with the game it started in, when
/// the sample is over or, in a match, when the next game has been dealt (one game's play-out
/// per iteration, as `search` plays).
#[inline]
pub fn ends(root: &DominoState, now: &DominoState) -> bool {
    now.is_over() || now.games() != root.games()
}

/// Each seat's reward, in [0, 1], where an `ismcts` iteration from `root` ended (`end`).
///
/// - The sample is over (a single game, or the game that decides a match): from the outcome,
///   the default — 1 for the winning side, 0 for the others, ½ for all in a blocked tie (or a
///   match stopped unfinished). A single game is won or lost whatever its scoring: that is
///   what every figure of the game counts, so points scored on the way count only as far as
///   they win it.
/// - A match goes on: the game's points as a share of what the match is played to: ½ + ½ ×
///   (the side's points in the game less the best other side's) ÷ the target, clamped to
///   [0, 1]. A game won by 30 in a match to 100 is worth 0.65 and lost by 30 0.35; winning the
///   match is worth 1. With one point a game the unit is the game itself: 1 for the game's
///   winners, 0 for the others, ½ for a tie.
pub fn rewards(root: &DominoState, end: &DominoState) -> [f64; MAX_SEATS] {
    let rules = end.rules();
    let players = rules.players as usize;
    let mut r = [0.5; MAX_SEATS];
    match end.outcome() {
        Some(Outcome::Event(mask)) => {
            for (s, v) in r.iter_mut().enumerate().take(players) {
                *v = if mask >> s & 1 == 1 { 1.0 } else { 0.0 };
            }
        }
        Some(_) => {}
        None => {
            let sides = rules.side_count().min(4);
            let mut gained = [0i64; 4];
            for (k, g) in gained.iter_mut().enumerate().take(sides) {
                *g = end.side_points(k) - root.side_points(k);
            }
            let unit = if rules.score == Score::Game {
                1.0
            } else {
                f64::from(rules.to.max(1))
            };
            for (s, v) in r.iter_mut().enumerate().take(players) {
                let own = rules.side_of(s);
                let best_other = (0..sides)
                    .filter(|&k| k != own)
                    .map(|k| gained[k])
                    .max()
                    .unwrap_or(0);
                let margin = (gained[own] - best_other) as f64 / unit;
                *v = 0.5 + 0.5 * margin.clamp(-1.0, 1.0);
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{GameRules, Start};
    use crate::rng::base_stream;

    /// Plays from a fresh deal with `company` until an iteration from there would end.
    fn one_game(rules: &str, seed: u64) -> (DominoState, DominoState) {
        let rules = super::super::rules::Rules::standard(4)
            .with_changes(rules)
            .unwrap();
        let mut rng = base_stream(seed);
        let root = DominoState::deal(&rules, &Start::default(), &mut rng);
        let mut end = root.clone();
        while !ends(&root, &end) {
            end.apply(playout_action(&end), &mut rng).unwrap();
        }
        (root, end)
    }

    #[test]
    fn rewards_are_the_outcome_or_the_game_in_the_match() {
        let mut seen = [false; 3];
        for seed in 0..40 {
            // A single game: the outcome, the default of every game.
            let (root, end) = one_game("score=pips", seed);
            let r = rewards(&root, &end);
            match end.outcome() {
                Some(Outcome::Event(m)) => {
                    for (s, &reward) in r.iter().enumerate().take(4) {
                        assert_eq!(reward, f64::from(m >> s & 1));
                    }
                }
                o => assert_eq!(o, Some(Outcome::Draw)),
            }
            // One point a game in a match: the game's winners 1, a tie ½.
            let (root, end) = one_game("to=3", seed);
            assert!(!end.is_over() && end.games() == 2);
            let r = rewards(&root, &end);
            assert_eq!((r[0], r[2]), (r[0], r[0]));
            assert_eq!(r[0] + r[1], 1.0);
            // Pips in a match to 100: the margin over 100, around ½.
            let (root, end) = one_game("score=pips,to=100", seed);
            let r = rewards(&root, &end);
            let margin = end.side_points(0) - end.side_points(1);
            assert!(
                (r[0] - (0.5 + margin as f64 / 200.0)).abs() < 1e-12,
                "{r:?}"
            );
            assert_eq!(r[0] + r[1], 1.0);
            seen[(margin.signum() + 1) as usize] = true;
        }
        assert_eq!(seen, [true, true, true], "wins, losses and ties");
    }
}
