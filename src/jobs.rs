//! Simulation jobs: everything a run or a shard file needs to know to simulate and to report.
//!
//! A [`Job`] is the question (serialisable, so a shard file can carry it); the runner answers it
//! with a tally; [`Job::render`] turns tally and run summary into the report. The unsharded run
//! and `tahur merge` both go through `render`, which is why a merge of all shards prints exactly
//! what the unsharded run prints.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::games::dudo::compare::{self, CompareSetup, CompareSimulation, CompareTally};
use crate::games::dudo::montecarlo::{BidSimulation, CountHistogram};
use crate::games::dudo::prob::{self, ProbQuery};
use crate::games::dudo::sim::{self, GameSimulation, GameTally, TableSetup};
use crate::games::durak;
use crate::report::Report;
use crate::runner::{self, ChunkSet, RunControl, RunSpec, RunSummary, Shard, Simulation, Tally};

/// A simulation job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Job {
    /// `tahur dudo prob … --samples N`.
    DudoProb(ProbQuery),
    /// `tahur dudo sim`.
    DudoSim(TableSetup),
    /// `tahur dudo compare`.
    DudoCompare(CompareSetup),
    /// `tahur veintiuno sim`.
    VeintiunoSim(crate::games::veintiuno::sim::TableSetup),
    /// `tahur veintiuno compare`.
    VeintiunoCompare(crate::games::veintiuno::compare::CompareSetup),
    /// `tahur durak sim`.
    DurakSim(durak::sim::TableSetup),
    /// `tahur durak compare`.
    DurakCompare(durak::compare::CompareSetup),
    /// `tahur durak tournament` (a sample is one deal played by every pair at every seating).
    DurakTournament(durak::tournament::TournamentSetup),
    /// `tahur durak flags` (a sample is one deal played by the table and by every change).
    DurakFlags(durak::flags::FlagsSetup),
}

/// The raw outcome of running a job (or one shard of it).
#[derive(Clone, Debug)]
pub struct JobRun {
    /// The tally, serialised.
    pub tally: serde_json::Value,
    /// Chunks that ran.
    pub chunks: ChunkSet,
    /// Samples that ran.
    pub samples_done: u64,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
}

fn run_typed<S: Simulation>(
    sim: &S,
    spec: &RunSpec,
    shard: Option<Shard>,
    control: &RunControl,
) -> Result<JobRun> {
    let r = runner::run(sim, spec, shard, control)?;
    Ok(JobRun {
        tally: serde_json::to_value(&r.tally).map_err(|e| Error::Internal(e.to_string()))?,
        chunks: r.chunks,
        samples_done: r.samples_done,
        interrupted: r.interrupted,
    })
}

fn typed<T: DeserializeOwned>(v: &serde_json::Value) -> Result<T> {
    serde_json::from_value(v.clone())
        .map_err(|e| Error::usage(format!("the tally in the shard file is damaged: {e}")))
}

fn merge_typed<T: Tally>(tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
    let mut iter = tallies.iter();
    let mut total: T = typed(
        iter.next()
            .ok_or_else(|| Error::Internal("no tallies".into()))?,
    )?;
    for t in iter {
        total.absorb(&typed::<T>(t)?);
    }
    serde_json::to_value(&total).map_err(|e| Error::Internal(e.to_string()))
}

impl Job {
    /// Samples per chunk for this job.
    pub fn chunk_size(&self) -> u64 {
        match self {
            Job::DudoProb(_) => crate::games::dudo::montecarlo::BID_CHUNK,
            Job::DudoSim(_) | Job::DudoCompare(_) => sim::GAMES_CHUNK,
            Job::VeintiunoSim(_) | Job::VeintiunoCompare(_) => {
                crate::games::veintiuno::sim::HANDS_CHUNK
            }
            Job::DurakSim(t) => t.chunk_size(),
            Job::DurakCompare(c) => c.chunk_size(),
            Job::DurakTournament(t) => t.chunk_size(),
            Job::DurakFlags(f) => f.chunk_size(),
        }
    }

    /// The run definition for `samples` samples from `seed`.
    pub fn spec(&self, samples: u64, seed: u64) -> RunSpec {
        RunSpec {
            samples,
            seed,
            chunk_size: self.chunk_size(),
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
            Job::DudoProb(q) => run_typed(
                &BidSimulation::new(&q.situation, q.bid.face),
                spec,
                shard,
                control,
            ),
            Job::DudoSim(t) => run_typed(&GameSimulation::new(t), spec, shard, control),
            Job::DudoCompare(c) => run_typed(&CompareSimulation::new(c), spec, shard, control),
            Job::VeintiunoSim(t) => run_typed(
                &crate::games::veintiuno::sim::HandSimulation::new(t),
                spec,
                shard,
                control,
            ),
            Job::VeintiunoCompare(c) => run_typed(
                &crate::games::veintiuno::compare::CompareSimulation::new(c),
                spec,
                shard,
                control,
            ),
            Job::DurakSim(t) => {
                run_typed(&durak::sim::DurakSimulation::new(t), spec, shard, control)
            }
            Job::DurakCompare(c) => run_typed(
                &durak::compare::CompareSimulation::new(c),
                spec,
                shard,
                control,
            ),
            Job::DurakTournament(t) => run_typed(
                &durak::tournament::TournamentSimulation::new(t),
                spec,
                shard,
                control,
            ),
            Job::DurakFlags(f) => {
                run_typed(&durak::flags::FlagsSimulation::new(f), spec, shard, control)
            }
        }
    }

    /// Adds up tallies of this job (from shard files), in the order given.
    pub fn merge_tallies(&self, tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
        match self {
            Job::DudoProb(_) => merge_typed::<CountHistogram>(tallies),
            Job::DudoSim(_) => merge_typed::<GameTally>(tallies),
            Job::DudoCompare(_) => merge_typed::<CompareTally>(tallies),
            Job::VeintiunoSim(_) => merge_typed::<crate::games::veintiuno::sim::HandTally>(tallies),
            Job::VeintiunoCompare(_) => {
                merge_typed::<crate::games::veintiuno::compare::CompareTally>(tallies)
            }
            Job::DurakSim(_) => merge_typed::<durak::sim::GameTally>(tallies),
            Job::DurakCompare(_) => merge_typed::<durak::compare::CompareTally>(tallies),
            Job::DurakTournament(_) => merge_typed::<durak::tournament::TournamentTally>(tallies),
            Job::DurakFlags(_) => merge_typed::<durak::flags::FlagsTally>(tallies),
        }
    }

    /// The report for a tally.
    pub fn render(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report> {
        match self {
            Job::DudoProb(q) => {
                let hist: CountHistogram = typed(tally)?;
                Ok(prob::report(q, Some((&hist, summary))))
            }
            Job::DudoSim(t) => Ok(sim::report(t, &typed::<GameTally>(tally)?, summary)),
            Job::DudoCompare(c) => Ok(compare::report(
                c,
                &typed::<CompareTally>(tally)?,
                summary,
                None,
            )),
            Job::VeintiunoSim(t) => Ok(crate::games::veintiuno::sim::report(
                t,
                &typed::<crate::games::veintiuno::sim::HandTally>(tally)?,
                summary,
            )),
            Job::VeintiunoCompare(c) => Ok(crate::games::veintiuno::compare::report(
                c,
                &typed::<crate::games::veintiuno::compare::CompareTally>(tally)?,
                summary,
            )),
            Job::DurakSim(t) => Ok(durak::sim::report(t, &typed(tally)?, summary)),
            Job::DurakCompare(c) => Ok(durak::compare::report(c, &typed(tally)?, summary)),
            Job::DurakTournament(t) => Ok(durak::tournament::report(t, &typed(tally)?, summary)),
            Job::DurakFlags(f) => Ok(durak::flags::report(f, &typed(tally)?, summary)),
        }
    }
}
