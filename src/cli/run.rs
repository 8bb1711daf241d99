//! The one run path: the options of every command that simulates, each parsed by one parser,
//! and the one function that runs a job (or one shard of it) and prints what it gives.
//!
//! A command that simulates flattens [`SeedArgs`] (`--seed`, `--threads`), or [`RunArgs`]
//! (those and `--shard`) if its simulation is a [`Job`], takes its count in its own unit
//! (`--games`, `--hands`, `--deals`, `--samples`) through [`samples`], and its output through
//! [`OutputArgs`]; `--progress` is global. A job then goes through [`run_job`] (or
//! [`exact_or_run`] when the simulation is optional); the other long computations (tuning,
//! `--until-decided`, the 21 strategy sheet) show their progress with [`with_progress`] and end
//! with [`exit_code`].

use std::sync::OnceLock;
use std::time::Duration;

use clap::Args;

use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::jobs::Job;
use tahur::progress::{Display, Progress};
use tahur::report::{self, Format, Report};
use tahur::runner::{ChunkSet, RunControl, RunSummary, Shard};
use tahur::shards::Partial;

/// `--progress[=SECONDS]` of the command line this process runs.
static PROGRESS_EVERY: OnceLock<Option<Duration>> = OnceLock::new();

/// The progress display of a long command: `total` units of work in `unit` (plural). Installs
/// the signal handler first, so that from the first progress line on, Ctrl-C and SIGTERM stop
/// the command cleanly.
pub(crate) fn progress(total: u64, unit: &str) -> Progress {
    tahur::runner::install_interrupt_handler();
    Progress::new(progress_display(), total, unit)
}

/// [`progress`] of work that may stop well before `total` (`--until-decided`).
pub(crate) fn progress_up_to(total: u64, unit: &str) -> Progress {
    tahur::runner::install_interrupt_handler();
    Progress::up_to(progress_display(), total, unit)
}

/// Sets `--progress[=SECONDS]` of the command line this process runs (once).
pub(crate) fn set_progress_every(every: Option<Duration>) {
    let _ = PROGRESS_EVERY.set(every);
}

fn progress_display() -> Display {
    Display::for_stderr(PROGRESS_EVERY.get().copied().flatten())
}

/// `--seed` and `--threads`: every command that simulates.
#[derive(Args, Debug, Clone)]
pub struct SeedArgs {
    /// Seed of the random streams: the same seed and count give the same numbers.
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: every core); never changes the result.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// `--seed`, `--threads` and `--shard`: every command whose simulation is a job.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub seeds: SeedArgs,
    /// Run only shard K of N and write a partial result for `tahur merge`; `auto` (or
    /// `auto/N`) takes K and N from a Slurm job array or a Kubernetes Indexed Job.
    #[arg(long, value_name = "K/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

/// `--seed`: any whole number a u64 holds, in every count form (`7`, `1e9`).
pub(crate) fn parse_seed(s: &str) -> std::result::Result<u64, String> {
    tahur::text::parse_whole(
        s,
        0,
        u64::MAX,
        &format!("a seed is a whole number from 0 to {}", u64::MAX),
    )
}

/// `--threads`: 1 to 1024, in every count form.
pub(crate) fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    tahur::text::parse_whole(s, 1, 1024, "give 1 to 1024 threads").map(|n| n as usize)
}

/// `--threads n`, at most the processors this process may use: more threads only take turns
/// on them (1000 threads on 2 cores ran 17 times slower than 1). Says so once on stderr.
fn capped_threads(n: usize) -> usize {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let Ok(cores) = std::thread::available_parallelism() else {
        return n;
    };
    let cores = cores.get();
    if n <= cores {
        return n;
    }
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        say!(
            "tahur: --threads {n}: this machine runs {cores} at once, so {cores} are used (the numbers are the same)"
        );
    }
    cores
}

/// The parser of a count of `unit` (`--games`, `--hands`, `--deals`, `--samples`): 1 to
/// [`tahur::text::MAX_SAMPLES`], written `10000`, `1_000_000` or `1e6`.
pub(crate) fn samples(
    unit: &'static str,
) -> impl Fn(&str) -> std::result::Result<u64, String> + Clone + Send + Sync + 'static {
    move |s: &str| tahur::text::parse_samples(s, unit)
}

/// Runs `work` with the runner's control (`threads`, and `progress` counting the work done),
/// and closes the progress display whatever the outcome.
pub(crate) fn with_progress<T>(
    threads: Option<usize>,
    progress: Progress,
    work: impl FnOnce(&RunControl) -> T,
) -> T {
    let control = RunControl {
        threads: threads.map(capped_threads),
        progress,
    };
    let out = work(&control);
    control.progress.finish();
    out
}

/// The exit code of a command that prints what it computed: after a signal stopped the work,
/// `message` (the line after "tahur: ") on stderr and 128 + the signal's number (130 Ctrl-C,
/// 143 SIGTERM, 129 SIGHUP: [`tahur::signals::exit_code`]); else 0.
pub(crate) fn exit_code(interrupted: bool, message: impl FnOnce() -> String) -> i32 {
    if interrupted {
        say!("tahur: {}", message());
        tahur::signals::exit_code()
    } else {
        0
    }
}

/// Refuses charts asked of one shard: a chart is drawn from a whole run (`tahur merge --chart`
/// draws it from the shards).
pub(crate) fn refuse_charts_with_shard(
    files: &tahur::play::job::ChartFiles,
    run: &RunArgs,
) -> Result<()> {
    if run.shard.is_some() && files.any() {
        return Err(Error::usage(
            "charts are drawn from whole runs: drop --chart with --shard (tahur merge --chart draws it)",
        ));
    }
    Ok(())
}

/// Runs a job that draws one chart (`--chart FILE`, if given) from the whole run: refused with
/// `--shard` (a chart is drawn from a whole run; `tahur merge --chart` draws it).
pub(crate) fn run_job_charted(
    job: Job,
    samples: u64,
    run: &RunArgs,
    out: &OutputArgs,
    chart: Option<std::path::PathBuf>,
) -> Result<i32> {
    let files = tahur::play::job::ChartFiles {
        main: chart,
        ..Default::default()
    };
    refuse_charts_with_shard(&files, run)?;
    let charts = job.clone();
    run_job(job, samples, run, out, move |t, summary| {
        charts.charts(t, summary, &files)
    })
}

/// Runs a job of `samples` samples: the whole run (charts drawn by `charts`, then the report
/// printed), or one shard (its partial result written for `tahur merge`). Returns the exit code.
pub(crate) fn run_job(
    job: Job,
    samples: u64,
    run: &RunArgs,
    out: &OutputArgs,
    charts: impl FnOnce(&serde_json::Value, &RunSummary) -> Result<()>,
) -> Result<i32> {
    let spec = job.spec(samples, run.seeds.seed);
    let asked = run.shard.as_deref();
    if let (Some(_), Format::Csv | Format::Markdown) = (asked, out.format) {
        return Err(Error::usage(format!(
            "--format {} with --shard: a shard writes its partial result as JSON for `tahur merge`; give --format to merge, or leave it out",
            out.format.name()
        )));
    }
    let shard = asked.map(Shard::parse).transpose()?;
    let planned = match shard {
        Some(s) => spec.samples_in(&ChunkSet::from_range(s.chunks(spec.total_chunks()))),
        None => spec.samples,
    };
    let unit = job.sample_unit();
    if let (Some(s), Some(asked)) = (shard, asked) {
        if asked.trim().starts_with("auto") {
            // The scheduler's log should say which block of the run this task holds.
            say!("tahur: --shard {asked} is shard {s} here");
        }
    }
    let result = with_progress(run.seeds.threads, progress(planned, unit), |control| {
        job.run(&spec, shard, control)
    })?;
    let code = exit_code(result.interrupted, || {
        format!(
            "interrupted: {} of {} {unit} ran; {} what they give",
            tahur::humanize::thousands(result.samples_done),
            tahur::humanize::thousands(planned),
            match (shard, &out.output) {
                (Some(_), Some(p)) if p.as_os_str() != "-" => format!("'{}' holds", p.display()),
                (Some(_), _) => "the shard file holds".to_string(),
                (None, _) => "the report shows".to_string(),
            }
        )
    });
    match shard {
        Some(s) => {
            let partial = Partial::new(job, spec, s, result);
            report::write_output(out.output.as_deref(), &partial.to_json()?)?;
        }
        None => {
            let summary = RunSummary {
                spec,
                samples_done: result.samples_done,
                interrupted: result.interrupted,
                missing: None,
            };
            charts(&result.tally, &summary)?;
            emit(&job.render(&result.tally, &summary)?, out)?;
        }
    }
    Ok(code)
}

/// A command with exact figures and an optional simulation (`--samples N`): the exact report
/// alone without a count (`--shard` then has nothing to split), else the job run as every job.
pub(crate) fn exact_or_run(
    samples: Option<u64>,
    run: &RunArgs,
    out: &OutputArgs,
    exact: impl FnOnce() -> Result<Report>,
    job: impl FnOnce() -> Job,
) -> Result<i32> {
    match samples {
        Some(n) => run_job(job(), n, run, out, |_, _| Ok(())),
        None if run.shard.is_some() => {
            Err(Error::usage("--shard splits a simulation: add --samples N"))
        }
        None => {
            emit(&exact()?, out)?;
            Ok(0)
        }
    }
}
