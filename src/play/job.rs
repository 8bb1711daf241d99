//! The serialisable question a whole-game run (or one shard of it) answers: which analysis of
//! which table. The unsharded run and `tahur merge` both render through [`Job::render`], which
//! is why a merge of all shards prints exactly what the unsharded run prints.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::charts::{length_chart, ranking_chart, seat_chart, strategy_chart};
use super::compare::{self, CompareSetup, CompareSimulation, CompareTally};
use super::flags::{self, FlagsSetup, FlagsSimulation, FlagsTally};
use super::sim::{self, GameSimulation, SimTally};
use super::table::TableSetup;
use super::tournament::{self, TournamentSetup, TournamentSimulation, TournamentTally};
use super::{Game, GameRules as _};
use crate::error::{Error, Result};
use crate::report::chart::SvgChart;
use crate::report::Report;
use crate::runner::{
    merge_erased, run_erased, typed_tally, JobRun, RunControl, RunSpec, RunSummary, Shard,
};

/// One analysis of one game's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "analysis", rename_all = "kebab-case", bound = "")]
pub enum Job<G: Game> {
    /// Whole games of one table.
    Sim(TableSetup<G>),
    /// Two tables on the same deals.
    Compare(CompareSetup<G>),
    /// Every strategy against every other (a sample is one deal played by every pair at every
    /// seating).
    Tournament(TournamentSetup<G>),
    /// The table against each one-rule change (a sample is one deal played by every table).
    Flags(FlagsSetup<G>),
}

/// A table's settings for a report, each key after `prefix`: `players`, `rules` (every rule
/// as `key=value`), `strategies` by seat.
pub fn table_settings<G: Game>(
    t: &TableSetup<G>,
    prefix: &str,
    out: &mut Vec<(String, crate::report::Value)>,
) {
    use crate::report::Value;
    out.push((
        format!("{prefix}players"),
        Value::Int(t.rules.players() as i64),
    ));
    out.push((format!("{prefix}rules"), super::rules::settings(&t.rules)));
    out.push((
        format!("{prefix}strategies"),
        Value::List(
            t.strategies
                .iter()
                .map(|s| Value::Text(s.to_string()))
                .collect(),
        ),
    ));
}

/// Where to draw a run's charts (each optional).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChartFiles {
    /// `sim`: the rate by seat; `tournament`: the ranking; `flags`: every table's figure.
    pub main: Option<PathBuf>,
    /// `sim`: the rate per seat of each strategy.
    pub strategies: Option<PathBuf>,
    /// `sim`: the length distribution.
    pub length: Option<PathBuf>,
    /// What the charts' figures rest on, written under each plot ([`crate::report::chart::run_note`]).
    pub note: String,
}

impl ChartFiles {
    /// Whether any chart is asked for.
    pub fn any(&self) -> bool {
        self.main.is_some() || self.strategies.is_some() || self.length.is_some()
    }
}

impl<G: Game> Job<G> {
    /// Samples per chunk.
    pub fn chunk_size(&self) -> u64 {
        match self {
            Job::Sim(t) => t.chunk_size(),
            Job::Compare(c) => c.chunk_size(),
            Job::Tournament(t) => t.chunk_size(),
            Job::Flags(f) => f.chunk_size(),
        }
    }

    /// What one sample is, for progress: the game's unit ("games", "hands"), or "deals" for
    /// a tournament of a game of separate games (a deal is played by every pair and seating).
    pub fn sample_unit(&self) -> &'static str {
        match self {
            Job::Tournament(_) if !G::INFO.sitting => "deals",
            _ => G::INFO.sample_unit,
        }
    }

    /// Runs the job's simulation (only `shard`'s chunks if given).
    pub fn run(
        &self,
        spec: &RunSpec,
        shard: Option<Shard>,
        control: &RunControl,
    ) -> Result<JobRun> {
        match self {
            Job::Sim(t) => {
                if let Some(text) = &t.from {
                    G::start_from(&t.rules, text)?;
                }
                run_erased(&GameSimulation::new(t), spec, shard, control)
            }
            Job::Compare(c) => run_erased(&CompareSimulation::new(c), spec, shard, control),
            Job::Tournament(t) => run_erased(&TournamentSimulation::new(t), spec, shard, control),
            Job::Flags(f) => run_erased(&FlagsSimulation::new(f), spec, shard, control),
        }
    }

    /// Adds up tallies of this job (from shard files), in the order given.
    pub fn merge_tallies(&self, tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
        match self {
            Job::Sim(_) => merge_erased::<SimTally>(tallies),
            Job::Compare(_) => merge_erased::<CompareTally>(tallies),
            Job::Tournament(_) => merge_erased::<TournamentTally>(tallies),
            Job::Flags(_) => merge_erased::<FlagsTally>(tallies),
        }
    }

    /// The report for a tally.
    pub fn render(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report> {
        Ok(match self {
            Job::Sim(t) => sim::report(t, &typed_tally(tally)?, summary),
            Job::Compare(c) => compare::report(c, &typed_tally(tally)?, summary, None),
            Job::Tournament(t) => tournament::report(t, &typed_tally(tally)?, summary),
            Job::Flags(f) => flags::report(f, &typed_tally(tally)?, summary),
        })
    }

    /// What the job was asked, for a report's settings: players, rules (every rule as
    /// `key=value`), strategies by seat; both tables of a comparison (`a_…`, `b_…`); the
    /// strategies of a tournament; the changes a flags run tries from the rules given.
    pub fn settings(&self) -> Vec<(String, crate::report::Value)> {
        use crate::report::Value;
        let mut out = Vec::new();
        match self {
            Job::Sim(t) => table_settings(t, "", &mut out),
            Job::Compare(c) => {
                table_settings(&c.a, "a_", &mut out);
                table_settings(&c.b, "b_", &mut out);
            }
            Job::Tournament(t) => {
                out.push(("players".into(), Value::Int(t.rules.players() as i64)));
                out.push(("rules".into(), super::rules::settings(&t.rules)));
                out.push((
                    "strategies".into(),
                    Value::List(
                        t.strategies
                            .iter()
                            .map(|s| Value::Text(s.to_string()))
                            .collect(),
                    ),
                ));
            }
            Job::Flags(f) => table_settings(&f.base, "", &mut out),
        }
        out
    }

    /// Checks a job read from a shard file as the command line would have: every table's rules
    /// (players within the game's limits, …), a strategy per seat, series of at least one game,
    /// a tournament's two to [`tournament::MAX_STRATEGIES`] strategies. `Err` names the value.
    pub fn check(&self) -> std::result::Result<(), String> {
        fn table<G: Game>(t: &TableSetup<G>) -> std::result::Result<(), String> {
            t.rules.validate().map_err(|e| e.to_string())?;
            let players = t.rules.players();
            if t.strategies.len() != players {
                return Err(format!(
                    "{} strategies for {players} players (one per seat)",
                    t.strategies.len()
                ));
            }
            if t.series == 0 {
                return Err("series 0 (at least 1 game a series)".into());
            }
            Ok(())
        }
        match self {
            Job::Sim(t) => table(t),
            Job::Compare(c) => table(&c.a).and_then(|_| table(&c.b)),
            Job::Tournament(t) => {
                t.rules.validate().map_err(|e| e.to_string())?;
                let n = t.strategies.len();
                if !(2..=tournament::MAX_STRATEGIES).contains(&n) {
                    return Err(format!(
                        "{n} strategies (a tournament has 2 to {})",
                        tournament::MAX_STRATEGIES
                    ));
                }
                Ok(())
            }
            Job::Flags(f) => {
                table(&f.base)?;
                f.changes.iter().try_for_each(|c| table(&c.table))
            }
        }
    }

    /// The tally of no samples, as JSON: the shape every tally of the job has (lists of one
    /// entry per seat, per strategy, per change). Call it on a [`Job::check`]ed job only.
    pub fn empty_tally(&self) -> Result<serde_json::Value> {
        use crate::runner::Simulation as _;
        let v = match self {
            Job::Sim(t) => serde_json::to_value(GameSimulation::new(t).empty_tally()),
            Job::Compare(c) => serde_json::to_value(CompareSimulation::new(c).empty_tally()),
            Job::Tournament(t) => serde_json::to_value(TournamentSimulation::new(t).empty_tally()),
            Job::Flags(f) => serde_json::to_value(FlagsSimulation::new(f).empty_tally()),
        };
        v.map_err(|e| Error::Internal(e.to_string()))
    }

    /// The command (`durak tournament`) and the chart flags it draws (`chart`, …), for `merge`.
    pub fn command_and_charts(&self) -> (String, &'static [&'static str]) {
        let (name, charts): (&str, &'static [&'static str]) = match self {
            Job::Sim(_) => ("sim", &["chart", "strategy-chart", "length-chart"]),
            Job::Compare(_) => ("compare", &["chart"]),
            Job::Tournament(_) => ("tournament", &["chart"]),
            Job::Flags(_) => ("flags", &["chart"]),
        };
        (format!("{} {name}", G::INFO.key), charts)
    }

    /// Draws the asked-for charts of a whole run's tally.
    pub fn charts(&self, tally: &serde_json::Value, files: &ChartFiles) -> Result<()> {
        if !files.any() {
            return Ok(());
        }
        let internal = |e: Error| Error::Internal(e.to_string());
        match self {
            Job::Sim(setup) => {
                let t: SimTally = typed_tally(tally).map_err(internal)?;
                if let Some(p) = &files.main {
                    seat_chart(setup, &t).write_noted(p, &files.note)?;
                }
                if let Some(p) = &files.strategies {
                    strategy_chart(setup, &t).write_noted(p, &files.note)?;
                }
                if let Some(p) = &files.length {
                    length_chart(setup, &t).write_noted(p, &files.note)?;
                }
            }
            Job::Compare(setup) => {
                if let Some(p) = &files.main {
                    let t: CompareTally = typed_tally(tally).map_err(internal)?;
                    compare::chart(setup, &t).write_noted(p, &files.note)?;
                }
            }
            Job::Tournament(setup) => {
                if let Some(p) = &files.main {
                    let t: TournamentTally = typed_tally(tally).map_err(internal)?;
                    ranking_chart(setup, &t).write_noted(p, &files.note)?;
                }
            }
            Job::Flags(setup) => {
                if let Some(p) = &files.main {
                    let t: FlagsTally = typed_tally(tally).map_err(internal)?;
                    flags::chart(setup, &t).write_noted(p, &files.note)?;
                }
            }
        }
        Ok(())
    }
}

/// A whole-game job of any game, for the job list and shard files ([`crate::jobs::PlayJob`]).
pub trait AnyJob {
    /// Samples per chunk.
    fn chunk_size(&self) -> u64;
    /// What one sample is ("games", "hands", "deals"), for progress.
    fn sample_unit(&self) -> &'static str {
        "samples"
    }
    /// Runs (one shard of) the job.
    fn run(&self, spec: &RunSpec, shard: Option<Shard>, control: &RunControl) -> Result<JobRun>;
    /// Adds up serialised tallies of this job.
    fn merge_tallies(&self, tallies: &[serde_json::Value]) -> Result<serde_json::Value>;
    /// The report for a serialised tally.
    fn render(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report>;
    /// Draws the charts asked for.
    fn charts(&self, tally: &serde_json::Value, files: &ChartFiles) -> Result<()>;
    /// The command and the chart flags it draws.
    fn command_and_charts(&self) -> (String, &'static [&'static str]);
    /// Checks a job read from a shard file ([`Job::check`]).
    fn check(&self) -> std::result::Result<(), String>;
    /// What the job was asked ([`Job::settings`]).
    fn settings(&self) -> Vec<(String, crate::report::Value)>;
    /// The tally of no samples ([`Job::empty_tally`]).
    fn empty_tally(&self) -> Result<serde_json::Value>;
}

impl<G: Game> AnyJob for Job<G> {
    fn chunk_size(&self) -> u64 {
        Job::chunk_size(self)
    }
    fn sample_unit(&self) -> &'static str {
        Job::sample_unit(self)
    }
    fn run(&self, spec: &RunSpec, shard: Option<Shard>, control: &RunControl) -> Result<JobRun> {
        Job::run(self, spec, shard, control)
    }
    fn merge_tallies(&self, tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
        Job::merge_tallies(self, tallies)
    }
    fn render(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report> {
        Job::render(self, tally, summary)
    }
    fn charts(&self, tally: &serde_json::Value, files: &ChartFiles) -> Result<()> {
        Job::charts(self, tally, files)
    }
    fn settings(&self) -> Vec<(String, crate::report::Value)> {
        Job::settings(self)
    }
    fn command_and_charts(&self) -> (String, &'static [&'static str]) {
        Job::command_and_charts(self)
    }
    fn check(&self) -> std::result::Result<(), String> {
        Job::check(self)
    }
    fn empty_tally(&self) -> Result<serde_json::Value> {
        Job::empty_tally(self)
    }
}
