//! The one simulation runner every game uses.
//!
//! A run is defined by its seed and its sample count. The samples are cut into chunks of a fixed
//! size (a constant of each simulation, not of the machine); chunk `i` draws from its own
//! xoshiro256++ stream (the seed's stream jumped `i` times, see [`crate::rng::ChunkStreams`]) and
//! fills its own integer tally. Chunks run in parallel on rayon in batches and their tallies are
//! added up in chunk order, so the result is the same whatever the number of threads, and a run
//! split into shards (`--shard K/N`, each a contiguous block of chunks) adds up to exactly the
//! unsharded result.
//!
//! Ctrl-C, SIGTERM or SIGHUP (see [`install_interrupt_handler`]) stops the run between chunks,
//! and search bots inside a chunk ([`crate::signals::stop_inside`]; such a chunk's group is
//! dropped); the result then covers only the chunks that finished whole, and says how many
//! samples that is.

use std::ops::Range;
use std::sync::atomic::Ordering;

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::rng::{ChunkStreams, Stream};

pub use crate::signals::{interrupted, INTERRUPTED};

/// Installs the handler of Ctrl-C (SIGINT), SIGTERM (what Slurm and Kubernetes send at a time
/// limit) and SIGHUP: the first signal asks running work to stop (between chunks, and inside
/// long games at the search bots' next check) and report what it has, then exit with 128 + the
/// signal's number ([`crate::signals::exit_code`]); a second one exits at once the same way.
/// Only commands that check [`INTERRUPTED`] install it, so a quick command still stops at the
/// first Ctrl-C.
pub fn install_interrupt_handler() {
    // Installing twice fails harmlessly (e.g. in tests calling the CLI in-process).
    let installed = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            say!("tahur: second signal: quitting at once, nothing more is printed or written");
            std::process::exit(crate::signals::exit_code_now());
        }
        crate::progress::say(
            "tahur: stopping: finishing the work under way, then printing what was computed (a second Ctrl-C or SIGTERM quits at once)",
        );
    });
    if installed.is_ok() {
        crate::signals::record_which();
    }
}

/// A tally of simulation results. Tallies hold integers so that adding them is exact.
pub trait Tally: Clone + Send + Serialize + DeserializeOwned {
    /// Adds another tally of the same simulation into this one.
    fn absorb(&mut self, other: &Self);
}

/// Something the runner can simulate: a chunk of samples from one stream into one tally.
pub trait Simulation: Sync {
    /// The tally this simulation fills.
    type Tally: Tally;
    /// Samples per chunk: part of the definition of a run, so never derived from the machine.
    fn chunk_size(&self) -> u64;
    /// An empty tally.
    fn empty_tally(&self) -> Self::Tally;
    /// Simulates `samples` samples drawing from `stream` into `tally`.
    fn run_chunk(&self, stream: &mut Stream, samples: u64, tally: &mut Self::Tally);
}

/// One shard of a run: `index` (1-based) of `count` contiguous blocks of chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, 1..=count.
    pub index: u32,
    /// How many shards the run is split into.
    pub count: u32,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N, or `auto` / `auto/N`: the shard a batch scheduler gives
    /// this task in its environment (see [`Shard::from_scheduler`]).
    pub fn parse(s: &str) -> Result<Self> {
        Self::parse_with_env(s, |name| std::env::var(name).ok())
    }

    /// [`Shard::parse`] reading the environment through `env` (so tests need not set variables).
    pub fn parse_with_env(s: &str, env: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let t = s.trim();
        if let Some(rest) = t.strip_prefix("auto") {
            let count = match rest {
                "" => None,
                _ => match rest.strip_prefix('/').map(|n| n.trim().parse::<u32>()) {
                    Some(Ok(n)) if n > 0 => Some(n),
                    _ => {
                        return Err(Error::usage(format!(
                            "invalid --shard '{s}': expected auto, auto/N with N ≥ 1, or K/N"
                        )))
                    }
                },
            };
            return Self::from_scheduler(count, env);
        }
        let bad = || {
            Error::usage(format!(
                "invalid --shard '{s}': expected K/N with 1 ≤ K ≤ N (e.g. 3/8), or auto in a Slurm job array or Kubernetes Indexed Job"
            ))
        };
        let (k, n) = t.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard of this task of a batch scheduler's array, from its environment:
    ///
    /// - a Slurm job array (`sbatch --array=0-7`, `1-8` or `0-15:2`): the task's place in the
    ///   array, from `SLURM_ARRAY_TASK_ID`, `_MIN`, `_STEP` and `_COUNT`;
    /// - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) + 1 of `count`, which must
    ///   be given (`--shard auto/N`, N = the Job's `completions`): Kubernetes does not say it.
    ///
    /// A `count` given with Slurm must agree with the array's size.
    pub fn from_scheduler(
        count: Option<u32>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self> {
        let number = |name: &str| -> Result<Option<u64>> {
            match env(name) {
                None => Ok(None),
                Some(v) => v.trim().parse::<u64>().map(Some).map_err(|_| {
                    Error::usage(format!(
                        "--shard auto: {name}='{v}' is not a whole number; it is set by the scheduler, or give --shard K/N"
                    ))
                }),
            }
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let tasks = number("SLURM_ARRAY_TASK_COUNT")?.ok_or_else(|| {
                Error::usage(
                    "--shard auto: SLURM_ARRAY_TASK_COUNT is not set (Slurm sets it in job arrays since 17.02); give --shard K/N",
                )
            })?;
            let place = id
                .checked_sub(min)
                .filter(|d| d % step == 0)
                .map(|d| d / step + 1);
            let index = match place {
                Some(i) if i <= tasks && tasks <= u32::MAX as u64 => i as u32,
                _ => {
                    return Err(Error::usage(format!(
                        "--shard auto: array task {id} is not one of {tasks} tasks from {min} in steps of {step}; use a range array (--array=0-{}) or --shard K/N",
                        tasks.saturating_sub(1)
                    )))
                }
            };
            let tasks = tasks as u32;
            if let Some(n) = count.filter(|&n| n != tasks) {
                return Err(Error::usage(format!(
                    "--shard auto/{n}: the Slurm array has {tasks} tasks; give --shard auto or auto/{tasks}"
                )));
            }
            return Ok(Shard {
                index,
                count: tasks,
            });
        }
        if let Some(i) = number("JOB_COMPLETION_INDEX")? {
            let Some(n) = count else {
                return Err(Error::usage(format!(
                    "--shard auto: a Kubernetes Indexed Job (JOB_COMPLETION_INDEX={i}) does not say how many completions it has; give --shard auto/N with N = the Job's completions"
                )));
            };
            if i >= n as u64 {
                return Err(Error::usage(format!(
                    "--shard auto/{n}: JOB_COMPLETION_INDEX={i} is not below {n}; N must be the Job's completions"
                )));
            }
            return Ok(Shard {
                index: i as u32 + 1,
                count: n,
            });
        }
        Err(Error::usage(
            "--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; run it as a Slurm array task or a Kubernetes Indexed Job, or give --shard K/N",
        ))
    }

    /// The chunks this shard runs out of `total` chunks.
    pub fn chunks(&self, total: u64) -> Range<u64> {
        let k = (self.index - 1) as u128;
        let n = self.count as u128;
        let t = total as u128;
        ((k * t / n) as u64)..(((k + 1) * t / n) as u64)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What defines a run's random numbers: sample count, seed and chunk size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Samples in the whole run (all shards).
    pub samples: u64,
    /// The user's seed.
    pub seed: u64,
    /// Samples per chunk.
    pub chunk_size: u64,
}

impl RunSpec {
    /// Number of chunks of the whole run.
    pub fn total_chunks(&self) -> u64 {
        self.samples.div_ceil(self.chunk_size)
    }

    /// Samples in chunk `i` (the last chunk may be short).
    pub fn chunk_samples(&self, i: u64) -> u64 {
        let start = i * self.chunk_size;
        self.chunk_size.min(self.samples - start)
    }

    /// Samples in a set of chunks.
    pub fn samples_in(&self, chunks: &ChunkSet) -> u64 {
        chunks
            .ranges
            .iter()
            .map(|r| {
                if r.is_empty() {
                    0
                } else {
                    let full = (r.end - r.start - 1) * self.chunk_size;
                    full + self.chunk_samples(r.end - 1)
                }
            })
            .sum()
    }
}

/// A set of chunk indices kept as sorted, disjoint, non-adjacent half-open ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkSet {
    /// The ranges `[start, end)`.
    pub ranges: Vec<Range<u64>>,
}

impl ChunkSet {
    /// The set `range`.
    pub fn from_range(range: Range<u64>) -> Self {
        let mut s = Self::default();
        s.insert(range);
        s
    }

    /// Adds a range of chunks.
    pub fn insert(&mut self, range: Range<u64>) {
        if range.is_empty() {
            return;
        }
        // Fast path: chunks usually arrive in order.
        if let Some(last) = self.ranges.last_mut() {
            if last.end == range.start {
                last.end = range.end;
                return;
            }
        }
        self.ranges.push(range);
        self.ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(self.ranges.len());
        for r in self.ranges.drain(..) {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        self.ranges = merged;
    }

    /// Adds every range of another set.
    pub fn insert_all(&mut self, other: &ChunkSet) {
        for r in &other.ranges {
            self.insert(r.clone());
        }
    }

    /// Whether every chunk of the set lies in `range`.
    pub fn is_within(&self, range: Range<u64>) -> bool {
        self.ranges
            .iter()
            .all(|r| r.start >= range.start && r.end <= range.end)
    }

    /// Number of chunks in the set.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether any chunk is in both sets.
    pub fn overlaps(&self, other: &ChunkSet) -> bool {
        self.ranges.iter().any(|a| {
            other
                .ranges
                .iter()
                .any(|b| a.start < b.end && b.start < a.end)
        })
    }

    /// The chunks of `within` that are not in this set.
    pub fn missing_from(&self, within: Range<u64>) -> ChunkSet {
        let mut out = ChunkSet::default();
        let mut cursor = within.start;
        for r in &self.ranges {
            if r.start > cursor {
                out.insert(cursor..r.start.min(within.end));
            }
            cursor = cursor.max(r.end);
            if cursor >= within.end {
                break;
            }
        }
        if cursor < within.end {
            out.insert(cursor..within.end);
        }
        out
    }
}

/// How to run: threads and progress display. None of it changes the result.
#[derive(Clone, Debug, Default)]
pub struct RunControl {
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Where the samples done are counted (hidden by default). The runner only adds to it: the
    /// caller sets its total and unit and finishes it, so that several runs of one command
    /// share one bar.
    pub progress: Progress,
}

/// The outcome of a run (or of one shard of it).
#[derive(Clone, Debug)]
pub struct RunResult<T> {
    /// The tally of every chunk that ran.
    pub tally: T,
    /// The chunks that ran.
    pub chunks: ChunkSet,
    /// Samples that ran (the true sample count, also after a signal).
    pub samples_done: u64,
    /// Whether a signal (Ctrl-C, SIGTERM) stopped the run early.
    pub interrupted: bool,
}

/// What a report needs to know about a run besides its tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The run's definition.
    pub spec: RunSpec,
    /// Samples that ran.
    pub samples_done: u64,
    /// Whether a signal (Ctrl-C, SIGTERM) stopped it.
    pub interrupted: bool,
    /// For a merge of some shards only (`--partial`): what is missing.
    pub missing: Option<String>,
}

impl crate::report::RunFacts for RunSummary {
    fn requested(&self) -> u64 {
        self.spec.samples
    }
    fn seed(&self) -> u64 {
        self.spec.seed
    }
    fn is_complete(&self) -> bool {
        RunSummary::is_complete(self)
    }
}

impl RunSummary {
    /// The summary of a finished (or interrupted) run.
    pub fn of<T>(spec: RunSpec, result: &RunResult<T>) -> Self {
        Self {
            spec,
            samples_done: result.samples_done,
            interrupted: result.interrupted,
            missing: None,
        }
    }

    /// Whether every requested sample ran.
    pub fn is_complete(&self) -> bool {
        self.samples_done == self.spec.samples
    }

    /// Plain-language remarks on an incomplete run, for the report's notes.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.interrupted {
            notes.push(format!(
                "Interrupted (Ctrl-C or SIGTERM): only {} of the {} requested samples ran; the figures above use exactly those.",
                crate::humanize::thousands(self.samples_done),
                crate::humanize::thousands(self.spec.samples)
            ));
        }
        if let Some(m) = &self.missing {
            notes.push(format!(
                "Partial merge: {m}; the figures above use the {} samples present.",
                crate::humanize::thousands(self.samples_done)
            ));
        }
        notes
    }
}

/// Chunks handed to the thread pool at once. Large, so that the pool rarely waits for its
/// slowest thread at a batch's end; tallies are folded in groups so memory stays small.
const BATCH_CHUNKS: usize = 1024;
/// At most this many consecutive chunks are folded into one tally inside a batch (in chunk
/// order); fewer when the batch is small, so that every thread gets many groups to balance.
const MAX_GROUP_CHUNKS: usize = 16;

/// Runs `sim` for `spec` (only `shard`'s chunks if given).
pub fn run<S: Simulation>(
    sim: &S,
    spec: &RunSpec,
    shard: Option<Shard>,
    control: &RunControl,
) -> Result<RunResult<S::Tally>> {
    let total = spec.total_chunks();
    run_range(
        sim,
        spec,
        shard.map_or(0..total, |s| s.chunks(total)),
        control,
    )
}

/// Runs the chunks `range` of `spec` (a sequential method extends a run this way: running
/// 0..a then a..b adds up to exactly the run of 0..b).
pub fn run_range<S: Simulation>(
    sim: &S,
    spec: &RunSpec,
    range: Range<u64>,
    control: &RunControl,
) -> Result<RunResult<S::Tally>> {
    debug_assert_eq!(spec.chunk_size, sim.chunk_size());
    let range = range.start.min(spec.total_chunks())..range.end.min(spec.total_chunks());
    let progress = &control.progress;
    in_threads(control.threads, || {
        run_chunks(sim, spec, range.clone(), progress)
    })
}

/// Runs `work`, whose parallel parts use rayon, on `threads` worker threads (every core when
/// `None`): how a run honours `--threads`, and how other parallel work can.
pub fn in_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(n) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::Internal(format!("cannot start {n} threads: {e}")))?
            .install(work)),
    }
}

fn run_chunks<S: Simulation>(
    sim: &S,
    spec: &RunSpec,
    range: Range<u64>,
    progress: &Progress,
) -> RunResult<S::Tally> {
    let mut streams = ChunkStreams::new(spec.seed);
    // Walk the streams of the chunks before this shard's first one.
    for _ in 0..range.start {
        streams.next();
    }
    let mut tally = sim.empty_tally();
    let mut chunks = ChunkSet::default();
    let mut interrupted = false;
    let mut next = range.start;
    let mut batch: Vec<(u64, Stream)> = Vec::with_capacity(BATCH_CHUNKS);
    while next < range.end && !interrupted {
        batch.clear();
        while batch.len() < BATCH_CHUNKS && next < range.end {
            batch.push((next, streams.next().expect("streams never end")));
            next += 1;
        }
        // Each group of consecutive chunks folds into one tally, in chunk order; the groups are
        // then added in order, so the result never depends on which thread finished first.
        let group = (batch.len() / (rayon::current_num_threads() * 32)).clamp(1, MAX_GROUP_CHUNKS);
        let groups: Vec<(S::Tally, Vec<u64>, bool)> = batch
            .par_chunks_mut(group)
            .map(|group| {
                let mut t = sim.empty_tally();
                let mut done = Vec::with_capacity(group.len());
                let mut stopped = false;
                crate::signals::take_cut_short();
                for (i, stream) in group.iter_mut() {
                    if INTERRUPTED.load(Ordering::Relaxed) {
                        stopped = true;
                        break;
                    }
                    let samples = spec.chunk_samples(*i);
                    sim.run_chunk(stream, samples, &mut t);
                    if crate::signals::take_cut_short() {
                        // A search inside the chunk stopped part-way at the signal: the group's
                        // tally no longer holds whole chunks, so none of it counts.
                        return (sim.empty_tally(), Vec::new(), true);
                    }
                    progress.inc(samples);
                    done.push(*i);
                }
                (t, done, stopped)
            })
            .collect();
        for (t, done, stopped) in &groups {
            tally.absorb(t);
            for &i in done {
                chunks.insert(i..i + 1);
            }
            interrupted |= *stopped;
        }
        interrupted |= INTERRUPTED.load(Ordering::Relaxed) && next < range.end;
    }
    let samples_done = spec.samples_in(&chunks);
    RunResult {
        tally,
        chunks,
        samples_done,
        interrupted,
    }
}

/// The raw outcome of running a job (or one shard of it) whose tally type is known only to the
/// job: the tally as JSON, for shard files and merges.
#[derive(Clone, Debug)]
pub struct JobRun {
    /// The tally, serialised.
    pub tally: serde_json::Value,
    /// Chunks that ran.
    pub chunks: ChunkSet,
    /// Samples that ran.
    pub samples_done: u64,
    /// Whether a signal (Ctrl-C, SIGTERM) stopped the run.
    pub interrupted: bool,
}

/// Runs `sim` (only `shard`'s chunks if given) and serialises its tally.
pub fn run_erased<S: Simulation>(
    sim: &S,
    spec: &RunSpec,
    shard: Option<Shard>,
    control: &RunControl,
) -> Result<JobRun> {
    let r = run(sim, spec, shard, control)?;
    Ok(JobRun {
        tally: serde_json::to_value(&r.tally).map_err(|e| Error::Internal(e.to_string()))?,
        chunks: r.chunks,
        samples_done: r.samples_done,
        interrupted: r.interrupted,
    })
}

/// A serialised tally back in its own type; a damaged shard file is the user's to fix.
pub fn typed_tally<T: DeserializeOwned>(v: &serde_json::Value) -> Result<T> {
    serde_json::from_value(v.clone())
        .map_err(|e| Error::usage(format!("the tally in the shard file is damaged: {e}")))
}

/// Adds up serialised tallies of one type, in the order given.
pub fn merge_erased<T: Tally>(tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
    let mut iter = tallies.iter();
    let mut total: T = typed_tally(
        iter.next()
            .ok_or_else(|| Error::Internal("no tallies".into()))?,
    )?;
    for t in iter {
        total.absorb(&typed_tally::<T>(t)?);
    }
    serde_json::to_value(&total).map_err(|e| Error::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn shards_partition_the_chunks() {
        for total in [0u64, 1, 7, 64, 1000] {
            for n in 1..=9u32 {
                let mut covered = ChunkSet::default();
                let mut sum = 0;
                for k in 1..=n {
                    let r = Shard { index: k, count: n }.chunks(total);
                    assert!(!covered.overlaps(&ChunkSet::from_range(r.clone())));
                    sum += r.end - r.start;
                    covered.insert(r);
                }
                assert_eq!(sum, total);
                assert!(covered.missing_from(0..total).is_empty());
            }
        }
    }

    #[test]
    fn shard_from_the_scheduler() {
        fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
            move |n| {
                vars.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            }
        }
        let sh = |index, count| Shard { index, count };
        let slurm = |id: &str, min: &str, step: &str, n: &str| {
            vec![
                ("SLURM_ARRAY_TASK_ID", id.to_string()),
                ("SLURM_ARRAY_TASK_MIN", min.to_string()),
                ("SLURM_ARRAY_TASK_STEP", step.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", n.to_string()),
            ]
        };
        let parse = |s: &str, vars: &[(&str, String)]| {
            let v: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
            Shard::parse_with_env(s, with(&v))
        };
        // --array=0-7, 1-8 and 0-15:2 all make 8 shards, numbered from 1.
        assert_eq!(parse("auto", &slurm("0", "0", "1", "8")).unwrap(), sh(1, 8));
        assert_eq!(parse("auto", &slurm("7", "0", "1", "8")).unwrap(), sh(8, 8));
        assert_eq!(parse("auto", &slurm("1", "1", "1", "8")).unwrap(), sh(1, 8));
        assert_eq!(
            parse("auto", &slurm("14", "0", "2", "8")).unwrap(),
            sh(8, 8)
        );
        assert_eq!(
            parse("auto/8", &slurm("3", "0", "1", "8")).unwrap(),
            sh(4, 8)
        );
        let e = parse("auto/4", &slurm("3", "0", "1", "8"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("auto/4") && e.contains("8 tasks"), "{e}");
        let e = parse("auto", &slurm("3", "0", "2", "8"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("task 3"), "{e}");
        let e = parse("auto", &slurm("9", "1", "1", "8"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("task 9"), "{e}");
        let e = parse("auto", &slurm("x", "1", "1", "8"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("SLURM_ARRAY_TASK_ID='x'"), "{e}");
        // Kubernetes: 0-based index, the count given.
        let k8s = vec![("JOB_COMPLETION_INDEX", "0".to_string())];
        assert_eq!(parse("auto/4", &k8s).unwrap(), sh(1, 4));
        let k8s3 = vec![("JOB_COMPLETION_INDEX", "3".to_string())];
        assert_eq!(parse("auto/4", &k8s3).unwrap(), sh(4, 4));
        assert!(parse("auto/3", &k8s3)
            .unwrap_err()
            .to_string()
            .contains("not below 3"));
        assert!(parse("auto", &k8s)
            .unwrap_err()
            .to_string()
            .contains("auto/N"));
        // Nothing set, or a bad count.
        let e = parse("auto", &[]).unwrap_err().to_string();
        assert!(
            e.contains("SLURM_ARRAY_TASK_ID") && e.contains("K/N"),
            "{e}"
        );
        for bad in ["auto/0", "auto/x", "auto8", "automatic"] {
            let e = parse(bad, &k8s).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("3/8").unwrap(), Shard { index: 3, count: 8 });
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "", "-1/2"] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn chunk_set_bookkeeping() {
        let mut s = ChunkSet::default();
        s.insert(5..6);
        s.insert(0..2);
        s.insert(2..3);
        assert_eq!(s.ranges, vec![0..3, 5..6]);
        assert_eq!(s.missing_from(0..8).ranges, vec![3..5, 6..8]);
        let spec = RunSpec {
            samples: 25,
            seed: 0,
            chunk_size: 4,
        };
        // chunks 0..3 are full, chunk 6 is the short last one (1 sample)
        assert_eq!(spec.samples_in(&ChunkSet::from_range(0..7)), 25);
        assert_eq!(spec.samples_in(&s), 16);
    }

    /// Sums raw 64-bit draws: any change in stream assignment changes the result.
    struct SumDraws;
    #[derive(Clone, Serialize, Deserialize, PartialEq, Debug)]
    struct Sum(u128, u64);
    impl Tally for Sum {
        fn absorb(&mut self, o: &Self) {
            self.0 += o.0;
            self.1 += o.1;
        }
    }
    impl Simulation for SumDraws {
        type Tally = Sum;
        fn chunk_size(&self) -> u64 {
            10
        }
        fn empty_tally(&self) -> Sum {
            Sum(0, 0)
        }
        fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut Sum) {
            for _ in 0..samples {
                t.0 += stream.next_u64() as u128;
                t.1 += 1;
            }
        }
    }

    #[test]
    fn same_result_for_any_threads_and_shards() {
        let spec = RunSpec {
            samples: 1234,
            seed: 99,
            chunk_size: 10,
        };
        let one = run(
            &SumDraws,
            &spec,
            None,
            &RunControl {
                threads: Some(1),
                progress: Progress::hidden(),
            },
        )
        .unwrap();
        let two = run(
            &SumDraws,
            &spec,
            None,
            &RunControl {
                threads: Some(2),
                progress: Progress::hidden(),
            },
        )
        .unwrap();
        assert_eq!(one.tally, two.tally);
        assert_eq!(one.samples_done, 1234);
        assert_eq!(one.tally.1, 1234);
        let mut merged = Sum(0, 0);
        for k in 1..=5 {
            let part = run(
                &SumDraws,
                &spec,
                Some(Shard { index: k, count: 5 }),
                &RunControl::default(),
            )
            .unwrap();
            merged.absorb(&part.tally);
        }
        assert_eq!(merged, one.tally);
        // A different seed gives a different sum.
        let other = run(
            &SumDraws,
            &RunSpec { seed: 100, ..spec },
            None,
            &RunControl::default(),
        )
        .unwrap();
        assert_ne!(other.tally, one.tally);
    }
}
