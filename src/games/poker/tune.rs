//! `tahur poker tune`: the `threshold` parameters (call threshold, bluff level) that win most
//! against a chosen field, for each table size. One seat plays the candidate and the others one
//! strategy of the field, then the next strategy of the field, and so on: a candidate's score
//! is its wins against all of them, so the winner does well against callers, believers and
//! bluffers alike rather than exploiting one. Every candidate plays the same games (same seed:
//! common random numbers), so the comparison between candidates is paired. The winners are written to `data/poker/tuned.csv`,
//! which the `tuned` strategy reads, and as a Markdown sheet.

use super::bots::{Strategy, DEFAULT_CALL};
use super::rules::Rules;
use super::Poker;
use crate::error::Result;
use crate::play::tune::Grid;
use crate::report::{Report, Table, Value};
use crate::runner::RunControl;
use crate::stats::Proportion;

/// What to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    /// Table sizes.
    pub players: Vec<u8>,
    /// Points a game is played to.
    pub points: u8,
    /// The strategies the other seats play, one after the other.
    pub field: Vec<Strategy>,
    /// Games per candidate, table size and field strategy.
    pub games: u64,
    /// Seed shared by every candidate.
    pub seed: u64,
    /// Call thresholds tried.
    pub calls: Vec<f64>,
    /// Bluff levels tried.
    pub bluffs: Vec<f64>,
}

impl TuneSpec {
    /// The default grid: call = 0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4 and
    /// bluff = 0, 0.2, 0.4, 0.6, 0.8, 0.9.
    pub fn grid(players: Vec<u8>, field: Vec<Strategy>, games: u64, seed: u64) -> Self {
        Self {
            players,
            points: 3,
            field,
            games,
            seed,
            calls: vec![0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4],
            bluffs: vec![0.0, 0.2, 0.4, 0.6, 0.8, 0.9],
        }
    }

    /// The search in the terms of the shared grid search: `threshold:call=…,bluff=…`
    /// candidates against each strategy of the field, next to the untuned `threshold`
    /// (call = 0.1, no bluff).
    pub fn search_grid(&self) -> Grid<Poker> {
        Grid {
            tables: self
                .players
                .iter()
                .map(|&players| Rules {
                    points: self.points,
                    ..Rules::standard(players)
                })
                .collect(),
            field: self.field.clone(),
            games: self.games,
            seed: self.seed,
            first: self.calls.clone(),
            second: self.bluffs.clone(),
            candidate: |call, bluff| Strategy::Threshold { call, bluff },
            reference: Strategy::Threshold {
                call: DEFAULT_CALL,
                bluff: 0.0,
            },
        }
    }

    /// Games the whole search plays: every candidate and the reference, at every table size.
    pub fn total_games(&self) -> u64 {
        self.search_grid().total_games()
    }
}

/// The best candidate for one table size.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// Table size.
    pub players: u8,
    /// Best call threshold.
    pub call: f64,
    /// Best bluff level.
    pub bluff: f64,
    /// Its games won out of games played.
    pub wins: Proportion,
    /// Win rate of the untuned `threshold` in the same seat, for reference.
    pub baseline: Proportion,
}

/// Runs the search ([`Grid::search`]), counting the games played in `control.progress`.
/// Stopped by a signal, it returns the table sizes tuned in full only.
pub fn tune(spec: &TuneSpec, control: &RunControl) -> Result<Vec<TuneResult>> {
    let best = spec.search_grid().search(control)?;
    // The grid's tables are the spec's table sizes, in order.
    Ok(spec
        .players
        .iter()
        .zip(best)
        .map(|(&players, b)| TuneResult {
            players,
            call: b.first,
            bluff: b.second,
            wins: b.wins,
            baseline: b.reference,
        })
        .collect())
}

/// The report (and the content of the Markdown sheet).
pub fn report(spec: &TuneSpec, results: &[TuneResult]) -> Report {
    let mut r = Report::new(format!(
        "Póker mentiroso tuned thresholds · against {} · {} games per candidate and field strategy",
        field_names(&spec.field),
        crate::humanize::thousands(spec.games)
    ));
    r.field("field", "field", Value::Text(field_names(&spec.field)));
    r.field("points", "points", Value::Int(spec.points as i64));
    r.field(
        "games",
        "games per candidate and field strategy",
        Value::Int(spec.games as i64),
    );
    r.field("seed", "seed", Value::Int(spec.seed as i64));
    r.field(
        "candidates",
        "candidates per table",
        Value::Int((spec.calls.len() * spec.bluffs.len()) as i64),
    );
    let mut t = Table::new(
        "tuned",
        "Call when the claim is true with probability below `call`",
        &[
            ("players", "players"),
            ("call", "call below"),
            ("bluff", "bluff level"),
            ("win_rate", "win rate"),
            ("ci95", "95 % interval"),
            ("fair_share", "fair share"),
            ("default_win_rate", "threshold:call=0.1"),
        ],
    );
    t.top_level = true;
    for x in results {
        let ci = x.wins.wilson(0.95);
        t.push(vec![
            Value::Int(x.players as i64),
            Value::Prob(x.call),
            Value::Prob(x.bluff),
            Value::Prob(x.wins.estimate()),
            Value::ProbInterval(ci.low, ci.high),
            Value::Prob(1.0 / x.players as f64),
            Value::Prob(x.baseline.estimate()),
        ]);
    }
    r.tables.push(t);
    r.note("One seat plays each candidate, the other seats each strategy of the field in turn, on the same games for every candidate; win rates are over all of them, and the fair share is 1 / players. The best of the grid is picked on the same games as it is reported on, so its win rate is slightly optimistic.");
    r.note("Regenerate with `cargo run --release -- poker tune` (writes data/poker/tuned.csv and tuned.md), then rebuild: the `tuned` strategy is compiled in.");
    r
}

/// The field as written: `honest, threshold:call=0.1`.
fn field_names(field: &[Strategy]) -> String {
    field
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The CSV the `tuned` strategy reads.
pub fn csv(results: &[TuneResult], games: u64) -> String {
    let mut s = String::from("players,call,bluff,win_rate,ci95_low,ci95_high,games\n");
    for x in results {
        let ci = x.wins.wilson(0.95);
        s.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.6},{}\n",
            x.players,
            (x.call * 100.0).round() / 100.0,
            (x.bluff * 100.0).round() / 100.0,
            x.wins.estimate(),
            ci.low,
            ci.high,
            games
        ));
    }
    s
}
