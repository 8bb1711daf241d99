//! A big run split into shards and merged, as a batch scheduler runs it: each shard is one
//! task (a Slurm array index, a GNU parallel job) that writes a partial result file; when all
//! are done, the merge prints exactly what the unsharded run prints.
//!
//! The same on the command line:
//!
//! ```sh
//! #SBATCH --array=1-16
//! tahur durak flags --players 4 --games 1e7 --seed 2026 \
//!       --shard "${SLURM_ARRAY_TASK_ID}/16" --output "part-${SLURM_ARRAY_TASK_ID}.json"
//! # then: tahur merge part-*.json
//! ```
//!
//! ```sh
//! cargo run --release --example sharded_run              # 200 000 games in 8 shards
//! cargo run --release --example sharded_run -- 2e6 16
//! ```

use std::path::PathBuf;

use tahur::games::durak::bots::Strategy;
use tahur::games::durak::rules::{Rules, Variant};
use tahur::jobs::{Job, PlayJob};
use tahur::play::flags::FlagsSetup;
use tahur::play::TableSetup;
use tahur::report::{render, Format};
use tahur::runner::{RunControl, RunSummary, Shard};
use tahur::shards::{merge, Partial};

/// Runs `shards` shards of a `tahur durak flags` job into files in `dir`, merges them, and
/// returns the merged report and the unsharded one (as text).
fn sharded(games: u64, shards: u32, dir: &std::path::Path) -> tahur::Result<(String, String)> {
    // The question: which house rule makes four greedy players' game fairer?
    let table = TableSetup::new(
        Rules::standard(Variant::Podkidnoy, 4),
        &[Strategy::Greedy],
        false,
    )?;
    let job = Job::Play(PlayJob::Durak(tahur::play::job::Job::Flags(
        FlagsSetup::new(table)?,
    )));
    let spec = job.spec(games, 2026);
    let control = RunControl::default();

    // Each task runs its own block of chunks and writes a partial result.
    let mut files = Vec::new();
    for index in 1..=shards {
        let shard = Shard {
            index,
            count: shards,
        };
        let result = job.run(&spec, Some(shard), &control)?;
        let path: PathBuf = dir.join(format!("part-{index}.json"));
        let partial = Partial::new(job.clone(), spec, shard, result);
        tahur::report::write_atomic(&path, partial.to_json()?.as_bytes())?;
        files.push(path);
    }

    // The merge checks that the files belong together, then adds the tallies in shard order.
    let read: Vec<(String, Partial)> = files
        .iter()
        .map(|p| Ok((p.display().to_string(), Partial::read(p)?)))
        .collect::<tahur::Result<_>>()?;
    let merged = merge(&read, false)?;
    let from_shards = render(
        &merged.job.render(&merged.tally, &merged.summary)?,
        Format::Text,
    )?;

    // The unsharded run, for comparison: the same numbers to the last digit.
    let whole = job.run(&spec, None, &control)?;
    let summary = RunSummary {
        spec,
        samples_done: whole.samples_done,
        interrupted: false,
        missing: None,
    };
    let unsharded = render(&job.render(&whole.tally, &summary)?, Format::Text)?;
    Ok((from_shards, unsharded))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args
        .next()
        .and_then(|s| tahur::text::parse_count(&s))
        .unwrap_or(200_000);
    let shards = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let dir = std::env::temp_dir().join(format!("tahur-shards-{}", std::process::id()));
    let run = std::fs::create_dir_all(&dir)
        .map_err(|e| tahur::Error::usage(format!("cannot create '{}': {e}", dir.display())))
        .and_then(|_| sharded(games, shards, &dir));
    let _ = std::fs::remove_dir_all(&dir);
    match run {
        Ok((merged, whole)) => {
            print!("{merged}");
            println!(
                "\nMerged from {shards} shard files: {} the unsharded run.",
                if merged == whole {
                    "identical to"
                } else {
                    "DIFFERENT from"
                }
            );
        }
        Err(e) => {
            eprintln!("sharded_run: {e}");
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shards_merge_to_the_unsharded_run() {
        let dir = tempfile::tempdir().unwrap();
        let (merged, whole) = super::sharded(3000, 3, dir.path()).unwrap();
        assert_eq!(merged, whole);
        assert!(merged.contains("fairest to the first attacker"), "{merged}");
    }
}
