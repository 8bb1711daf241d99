//! The search bot: flat Monte Carlo over determinised deals.
//!
//! For each decision it deals the tiles it cannot see at random into the other hands and the
//! boneyard, consistently with what it has seen ([`View::determinize`]: hand sizes, and no
//! player holding a number it knocked or drew on), `budget` times. On each deal it tries every
//! legal play and plays the game out with `company` players, all plays on the same deal and the
//! same draws (common random numbers), and scores the end for its side: 1 for a win, ½ for a
//! blocked tie, 0 for a loss; when points are scored, its side's points in the game less the
//! best other side's. It plays the best average. What it knows of its partner comes only from
//! the partner's plays and knocks, as for every player.

use super::bots::company_action;
use super::engine::{Action, Game, View};
use super::rules::Score;
use crate::play::Outcome;
use crate::rng::{Rng, SeedableRng, Stream};

/// A reusable search with a fixed budget of sampled deals per decision.
pub struct Search {
    budget: u32,
    actions: Vec<Action>,
    totals: Vec<f64>,
}

/// Plays `game` to its end with `company` players; draws come from `rng`.
pub fn play_out(game: &mut Game, rng: &mut Stream) {
    while !game.is_over() {
        let a = company_action(&game.view(game.to_act()));
        game.apply(a, rng).expect("company plays a legal action");
    }
}

/// `seat`'s reward in a finished single game.
pub fn reward(game: &Game, seat: u8) -> f64 {
    let rules = game.rules();
    if rules.score == Score::Game {
        return match game.outcome() {
            Some(Outcome::Event(mask)) if mask >> seat & 1 == 1 => 1.0,
            Some(Outcome::Event(_)) => 0.0,
            _ => 0.5,
        };
    }
    let own = rules.side_of(seat as usize);
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
            let world = view.determinize(rng);
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
