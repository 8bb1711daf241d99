//! Match equity: each side's chance to win the match from a match state (lives, points, the
//! score of each pair), by whole games simulated from it (`sim --from`), for a table of states.
//!
//! Every state is played on the same seed, so the states meet the same random streams (common
//! random numbers): a difference between two rows is less noisy than either row.

use super::position::Matches;
use super::sim::{GameSimulation, SimTally};
use super::table::TableSetup;
use super::{Game, GameRules, Scoring};
use crate::error::{Error, Result};
use crate::runner::{run, RunControl, RunSpec};
use crate::stats::{wilson95, Proportion};

/// A table of match states to play from.
#[derive(Clone, Debug)]
pub struct EquitySetup<G: Matches> {
    /// The rules.
    pub rules: G::Rules,
    /// Who plays every seat (repeated to fill the table).
    pub strategies: Vec<G::Strategy>,
    /// The match states, in the order of the table.
    pub states: Vec<G::Match>,
}

/// One row: a match state and what the games from it gave.
#[derive(Clone, Debug, PartialEq)]
pub struct EquityRow {
    /// The match state as written.
    pub state: String,
    /// Games played from it (the true count, also after a signal).
    pub games: u64,
    /// Games each side won (a side is a seat, or a pair in a game of pairs).
    pub wins: Vec<u64>,
    /// Games nobody won (draws, games stopped at the move cap).
    pub undecided: u64,
}

impl EquityRow {
    /// Side `s`'s chance to win the match, as a proportion of the games played.
    pub fn chance(&self, s: usize) -> Proportion {
        Proportion::new(self.wins[s], self.games)
    }

    /// Side `s`'s fair share of a pot of `pot`: its chance, with the undecided games split
    /// evenly (what each side could take if the match stopped here).
    pub fn fair_share(&self, s: usize, pot: f64) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let sides = self.wins.len() as f64;
        (self.wins[s] as f64 + self.undecided as f64 / sides) / self.games as f64 * pot
    }

    /// Side `s`'s chance and its 95 % Wilson interval.
    pub fn chance95(&self, s: usize) -> (f64, (f64, f64)) {
        let (p, ci) = wilson95(self.wins[s], self.games);
        (p.estimate(), (ci.low, ci.high))
    }
}

/// The whole table: its rows and whether a signal stopped it (rows not reached are left out).
#[derive(Clone, Debug)]
pub struct Equity {
    /// One row per state played, in order.
    pub rows: Vec<EquityRow>,
    /// Whether a signal stopped the run.
    pub interrupted: bool,
}

impl<G: Matches> EquitySetup<G> {
    /// Checks the table: a game whose event is a win (equity means a chance to win), at least
    /// one state, strategies for the table.
    pub fn new(rules: G::Rules, strategies: &[G::Strategy], states: Vec<G::Match>) -> Result<Self> {
        if !matches!(G::INFO.scoring, Scoring::Event { good: true }) {
            return Err(Error::usage(format!(
                "{} has no match to win: equity needs a game with a winner",
                G::INFO.title
            )));
        }
        if states.is_empty() {
            return Err(Error::usage(
                "equity: no match state to play from: give one, or leave the flag out for the whole table",
            ));
        }
        // Checks the rules and the strategies as a sim would.
        TableSetup::<G>::new(rules.clone(), strategies, false)?;
        Ok(Self {
            rules,
            strategies: strategies.to_vec(),
            states,
        })
    }

    /// The sides of the table: seats, or pairs.
    pub fn sides(&self) -> usize {
        self.rules.sides()
    }
}

/// Plays `games` games from every state of `setup` on seed `seed` (the same for every state),
/// counting the games done on `control`'s progress.
pub fn run_equity<G: Matches>(
    setup: &EquitySetup<G>,
    games: u64,
    seed: u64,
    control: &RunControl,
) -> Result<Equity> {
    let mut rows = Vec::with_capacity(setup.states.len());
    for state in &setup.states {
        let text = G::write_match(&setup.rules, state);
        let table = TableSetup::<G>::new(setup.rules.clone(), &setup.strategies, false)?
            .starting_from(&text)?;
        let sim = GameSimulation::new(&table);
        let spec = RunSpec {
            samples: games,
            seed,
            chunk_size: table.chunk_size(),
        };
        let r = run(&sim, &spec, None, control)?;
        rows.push(row::<G>(&setup.rules, text, &r.tally));
        if r.interrupted {
            return Ok(Equity {
                rows,
                interrupted: true,
            });
        }
    }
    Ok(Equity {
        rows,
        interrupted: false,
    })
}

/// A row from a state's tally: each side's wins (a side's seats all hold the event together).
fn row<G: Game>(rules: &G::Rules, state: String, t: &SimTally) -> EquityRow {
    let n = rules.players();
    let mut wins = vec![0u64; rules.sides()];
    let mut counted = vec![false; rules.sides()];
    for s in 0..n {
        let side = rules.side(s);
        if !counted[side] {
            counted[side] = true;
            wins[side] = t.seats[s].sum.max(0) as u64;
        }
    }
    let decided: u64 = wins.iter().sum();
    EquityRow {
        state,
        games: t.games,
        wins,
        undecided: t.games.saturating_sub(decided),
    }
}
