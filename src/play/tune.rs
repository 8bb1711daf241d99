//! The grid search behind `tune`, written once: every candidate of a two-parameter grid plays
//! one seat against a field (each strategy of the field in turn takes every other seat), at
//! each table size, and the candidate that wins most is kept, next to a reference strategy
//! played the same way. Every candidate plays the same games (the same seed: common random
//! numbers), so the comparison between candidates is paired.

use super::sim::GameSimulation;
use super::{Game, GameRules, TableSetup};
use crate::error::Result;
use crate::runner::{run, RunControl, RunSpec};
use crate::stats::Proportion;

/// What to search. `F` makes a candidate from a pair of values (a plain function unless the
/// candidates depend on something found before, as in a search in stages).
#[derive(Clone, Debug)]
pub struct Grid<G: Game, F = fn(f64, f64) -> <G as Game>::Strategy> {
    /// The tables, one per table size.
    pub tables: Vec<G::Rules>,
    /// The strategies the other seats play, one after the other.
    pub field: Vec<G::Strategy>,
    /// Games per candidate, table and field strategy.
    pub games: u64,
    /// Seed shared by every candidate.
    pub seed: u64,
    /// Values of the first parameter.
    pub first: Vec<f64>,
    /// Values of the second parameter.
    pub second: Vec<f64>,
    /// The candidate for a pair of values.
    pub candidate: F,
    /// The strategy the best candidate is compared with.
    pub reference: G::Strategy,
}

/// The best candidate at one table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Best {
    /// Players at the table.
    pub players: usize,
    /// The first parameter's value.
    pub first: f64,
    /// The second parameter's value.
    pub second: f64,
    /// Its games won out of games played.
    pub wins: Proportion,
    /// The reference strategy's games won in the same seat.
    pub reference: Proportion,
}

impl<G: Game, F: Fn(f64, f64) -> G::Strategy> Grid<G, F> {
    /// Games the whole search plays: every candidate and the reference, at every table,
    /// against every strategy of the field.
    pub fn total_games(&self) -> u64 {
        let runs =
            self.tables.len() * (self.first.len() * self.second.len() + 1) * self.field.len();
        (runs as u64).saturating_mul(self.games)
    }

    /// Runs the search, counting the games played in `control.progress`. Stopped by a signal
    /// ([`crate::signals::INTERRUPTED`]), it returns the tables searched in full only: a
    /// candidate stopped part-way has not played the same games as the others.
    pub fn search(&self, control: &RunControl) -> Result<Vec<Best>> {
        let mut out = Vec::new();
        for rules in &self.tables {
            let players = rules.players();
            control
                .progress
                .set_message(format!("tuning {players} players"));
            // `None`: stopped by a signal.
            let play = |candidate: &G::Strategy| -> Result<Option<Proportion>> {
                let mut total = Proportion::new(0, 0);
                for field in &self.field {
                    let mut strategies = vec![field.clone(); players];
                    strategies[0] = candidate.clone();
                    let setup = TableSetup::<G>::new(rules.clone(), &strategies, false)?;
                    let spec = RunSpec {
                        samples: self.games,
                        seed: self.seed,
                        chunk_size: setup.chunk_size(),
                    };
                    let r = run(&GameSimulation::new(&setup), &spec, None, control)?;
                    if r.interrupted {
                        return Ok(None);
                    }
                    total = Proportion::new(
                        total.successes + r.tally.seat_count(0),
                        total.trials + r.tally.games,
                    );
                }
                Ok(Some(total))
            };
            let mut best: Option<(f64, f64, Proportion)> = None;
            for &a in &self.first {
                for &b in &self.second {
                    let Some(p) = play(&(self.candidate)(a, b))? else {
                        return Ok(out);
                    };
                    // The first of equal scores stays.
                    if best.is_none_or(|(_, _, x)| p.successes > x.successes) {
                        best = Some((a, b, p));
                    }
                }
            }
            let (first, second, wins) = best.expect("a non-empty grid");
            let Some(reference) = play(&self.reference)? else {
                return Ok(out);
            };
            out.push(Best {
                players,
                first,
                second,
                wins,
                reference,
            });
        }
        Ok(out)
    }
}
