//! `tahur dudo tune`: the `threshold` parameters that win most against a chosen field, for each
//! table size. One seat plays the candidate, the others the field; every candidate plays the
//! same games (same seed: common random numbers), so the comparison between candidates is
//! paired. The winners are written to `data/dudo/tuned-<rules>.csv`, which the `tuned` strategy
//! reads, and as a "doubt below x %" sheet in Markdown.

use super::bots::{Strategy, DEFAULT_T};
use super::rules::RuleSet;
use super::rules::Rules;
use super::Dudo;
use crate::error::Result;
use crate::play::tune::Grid;
use crate::report::{Report, Table, Value};
use crate::runner::RunControl;
use crate::stats::Proportion;

/// What to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    /// Rule set (standard flags).
    pub set: RuleSet,
    /// Table sizes.
    pub players: Vec<u8>,
    /// The strategy of every other seat.
    pub field: Strategy,
    /// Games per candidate and table size.
    pub games: u64,
    /// Seed shared by every candidate.
    pub seed: u64,
    /// Doubt thresholds tried.
    pub thresholds: Vec<f64>,
    /// Bluff rates tried.
    pub bluffs: Vec<f64>,
}

impl TuneSpec {
    /// The default grid: t = 0.05, 0.10, …, 0.65 and bluff = 0, 0.05, 0.10.
    pub fn grid(set: RuleSet, players: Vec<u8>, field: Strategy, games: u64, seed: u64) -> Self {
        Self {
            set,
            players,
            field,
            games,
            seed,
            thresholds: (1..=13).map(|i| i as f64 * 0.05).collect(),
            bluffs: vec![0.0, 0.05, 0.1],
        }
    }

    /// The search in the terms of the shared grid search: `threshold:t=…,bluff=…` candidates
    /// against a field of one strategy, next to the default `threshold` (t = 0.4, no bluff).
    pub fn search_grid(&self) -> Grid<Dudo> {
        Grid {
            tables: self
                .players
                .iter()
                .map(|&players| Rules::standard(self.set, players))
                .collect(),
            field: vec![self.field.clone()],
            games: self.games,
            seed: self.seed,
            first: self.thresholds.clone(),
            second: self.bluffs.clone(),
            candidate: |t, bluff| Strategy::Threshold { t, bluff },
            reference: Strategy::Threshold {
                t: DEFAULT_T,
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
    /// Best doubt threshold.
    pub t: f64,
    /// Best bluff rate.
    pub bluff: f64,
    /// Its games won out of games played.
    pub wins: Proportion,
    /// Win rate of the field's default threshold in the same seat, for reference.
    pub baseline: Proportion,
}

/// Runs the search ([`Grid::search`]), counting the games played in `control.progress`.
///
/// Stopped by a signal ([`crate::signals::INTERRUPTED`]), it returns the table sizes tuned in
/// full only (fewer than asked): a candidate stopped part-way has not played the same games as
/// the others, so it cannot be compared with them.
pub fn tune(spec: &TuneSpec, control: &RunControl) -> Result<Vec<TuneResult>> {
    let best = spec.search_grid().search(control)?;
    // The grid's tables are the spec's table sizes, in order.
    Ok(spec
        .players
        .iter()
        .zip(best)
        .map(|(&players, b)| TuneResult {
            players,
            t: b.first,
            bluff: b.second,
            wins: b.wins,
            baseline: b.reference,
        })
        .collect())
}

/// The report (and the content of the sheet files).
pub fn report(spec: &TuneSpec, results: &[TuneResult]) -> Report {
    let mut r = Report::new(format!(
        "Dudo tuned thresholds · {} · against {} · {} games per candidate",
        spec.set.title(),
        spec.field,
        crate::humanize::thousands(spec.games)
    ));
    r.field("rules", "rules", Value::Text(spec.set.key().into()));
    r.field("field", "field", Value::Text(spec.field.to_string()));
    r.field(
        "games",
        "games per candidate",
        Value::Int(spec.games as i64),
    );
    r.field("seed", "seed", Value::Int(spec.seed as i64));
    r.field(
        "candidates",
        "candidates per table",
        Value::Int((spec.thresholds.len() * spec.bluffs.len()) as i64),
    );
    let mut t = Table::new(
        "tuned",
        "Doubt when the bid is true with probability below t",
        &[
            ("players", "players"),
            ("t", "doubt below"),
            ("bluff", "bluff rate"),
            ("win_rate", "win rate"),
            ("ci95", "95 % interval"),
            ("fair_share", "fair share"),
            ("default_win_rate", "threshold:t=0.4"),
        ],
    );
    t.top_level = true;
    for x in results {
        let ci = x.wins.wilson(0.95);
        t.push(vec![
            Value::Int(x.players as i64),
            Value::Prob(x.t),
            Value::Prob(x.bluff),
            Value::Prob(x.wins.estimate()),
            Value::ProbInterval(ci.low, ci.high),
            Value::Prob(1.0 / x.players as f64),
            Value::Prob(x.baseline.estimate()),
        ]);
    }
    r.tables.push(t);
    r.note("The best of the grid is picked on the same games as it is reported on, so its win rate is slightly optimistic; the grid's neighbours differ by little.");
    r
}

/// The CSV the `tuned` strategy reads.
pub fn csv(results: &[TuneResult], games: u64) -> String {
    let mut s = String::from("players,t,bluff,win_rate,ci95_low,ci95_high,games\n");
    for x in results {
        let ci = x.wins.wilson(0.95);
        s.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.6},{}\n",
            x.players,
            (x.t * 100.0).round() / 100.0,
            (x.bluff * 100.0).round() / 100.0,
            x.wins.estimate(),
            ci.low,
            ci.high,
            games
        ));
    }
    s
}
