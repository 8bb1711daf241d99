//! Partial results of sharded runs (`--shard K/N`) and their merge (`tahur merge`).
//!
//! A shard file is JSON: the job, the run definition (samples, seed, chunk size), which shard it
//! is, which chunks ran and their tally. Merging checks that every file belongs to the same run,
//! that no shard appears twice and that none is missing (unless `--partial`), then adds the
//! tallies: the result is exactly the unsharded run's.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::humanize::thousands;
use crate::jobs::{Job, JobRun};
use crate::runner::{ChunkSet, RunSpec, RunSummary, Shard};

/// The shard file format version (2: whole-game jobs of every game in one layout; 3: Durak
/// tallies count re-deals, which a format-2 file would silently leave out of a merge).
pub const FORMAT: u32 = 3;

/// One shard's partial result, as written to its file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Partial {
    /// File format version (see [`FORMAT`]).
    pub tahur_partial: u32,
    /// The tahur version that wrote it (simulations may change between versions).
    pub tahur_version: String,
    /// The question.
    pub job: Job,
    /// The run definition.
    pub run: RunSpec,
    /// Which shard this is.
    pub shard: Shard,
    /// Chunks that ran.
    pub chunks: ChunkSet,
    /// Samples that ran.
    pub samples_done: u64,
    /// Whether a signal (Ctrl-C, SIGTERM) stopped the shard (its `chunks` say which ran).
    pub interrupted: bool,
    /// The tally.
    pub tally: serde_json::Value,
}

impl Partial {
    /// Wraps a shard's run.
    pub fn new(job: Job, run: RunSpec, shard: Shard, result: JobRun) -> Self {
        Self {
            tahur_partial: FORMAT,
            tahur_version: env!("CARGO_PKG_VERSION").into(),
            job,
            run,
            shard,
            chunks: result.chunks,
            samples_done: result.samples_done,
            interrupted: result.interrupted,
            tally: result.tally,
        }
    }

    /// The file's JSON.
    pub fn to_json(&self) -> Result<String> {
        let mut s = serde_json::to_string(self).map_err(|e| Error::Internal(e.to_string()))?;
        s.push('\n');
        Ok(s)
    }

    /// Reads a shard file.
    pub fn read(path: &Path) -> Result<Self> {
        let shown = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::usage(format!("cannot read '{shown}': {e}")))?;
        let not_a_shard = |e: serde_json::Error| {
            Error::usage(format!(
                "'{shown}' is not a tahur shard file ({e}); give files written with --shard K/N"
            ))
        };
        // The version first: a file of another format may not parse as this one.
        let value: serde_json::Value = serde_json::from_str(&text).map_err(not_a_shard)?;
        if let Some(format) = value.get("tahur_partial").and_then(|f| f.as_u64()) {
            if format != FORMAT as u64 {
                return Err(Error::usage(format!(
                    "'{shown}' has shard format {format} but this tahur reads format {FORMAT}: merge shards written by this version"
                )));
            }
        }
        let p: Partial = serde_json::from_value(value).map_err(not_a_shard)?;
        Ok(p)
    }
}

/// The first place where two JSON values differ: its path (`table.rules.variant`) and the two
/// values there, shortened.
fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: &str,
) -> Option<(String, String, String)> {
    use serde_json::Value;
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_difference(v, w, &join(k)) {
                            return Some(d);
                        }
                    }
                    None => return Some((join(k), short(v), "nothing".into())),
                }
            }
            y.iter()
                .find(|(k, _)| !x.contains_key(*k))
                .map(|(k, w)| (join(k), "nothing".into(), short(w)))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, &join(&i.to_string()))),
        _ if a == b => None,
        _ => Some((
            if path.is_empty() {
                "the job".into()
            } else {
                path.into()
            },
            short(a),
            short(b),
        )),
    }
}

/// A JSON value in at most 60 characters.
fn short(v: &serde_json::Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= 60 {
        s
    } else {
        format!("{}…", s.chars().take(59).collect::<String>())
    }
}

/// The merge of shard files: the job, the added tally and the run summary.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The question.
    pub job: Job,
    /// The added tally.
    pub tally: serde_json::Value,
    /// The run, with what is missing if `--partial` allowed gaps.
    pub summary: RunSummary,
}

/// Merges shard files (each given with the name to use in messages).
pub fn merge(files: &[(String, Partial)], allow_partial: bool) -> Result<Merged> {
    let (first_name, first) = files
        .first()
        .ok_or_else(|| Error::usage("merge needs at least one shard file"))?;
    let mut seen: Vec<Option<&str>> = vec![None; first.shard.count as usize];
    let mut covered = ChunkSet::default();
    let total = first.run.total_chunks();
    for (name, p) in files {
        if p.tahur_version != first.tahur_version {
            return Err(Error::usage(format!(
                "'{name}' was written by tahur {} but '{first_name}' by tahur {}: shards must come from the same version",
                p.tahur_version, first.tahur_version
            )));
        }
        if p.job != first.job {
            let what = match (
                serde_json::to_value(&p.job),
                serde_json::to_value(&first.job),
            ) {
                (Ok(a), Ok(b)) => first_difference(&a, &b, "")
                    .map(|(at, x, y)| format!(" ({at}: {x} in '{name}', {y} in '{first_name}')")),
                _ => None,
            };
            return Err(Error::usage(format!(
                "'{name}' and '{first_name}' answer different questions{}: merge only shards of the same command",
                what.unwrap_or_default()
            )));
        }
        if p.run != first.run {
            let (a, b) = (&p.run, &first.run);
            let field = if a.seed != b.seed {
                format!("seed {} in '{name}', {} in '{first_name}'", a.seed, b.seed)
            } else if a.samples != b.samples {
                format!(
                    "{} samples in '{name}', {} in '{first_name}'",
                    a.samples, b.samples
                )
            } else {
                format!(
                    "chunks of {} samples in '{name}', of {} in '{first_name}' (another version or strategy speed)",
                    a.chunk_size, b.chunk_size
                )
            };
            return Err(Error::usage(format!(
                "'{name}' and '{first_name}' are different runs ({field}): shards must share --seed and the sample count"
            )));
        }
        if p.shard.count != first.shard.count {
            return Err(Error::usage(format!(
                "'{name}' is shard {} but '{first_name}' is shard {}: all shards must split the run the same way",
                p.shard, first.shard
            )));
        }
        let slot = &mut seen[(p.shard.index - 1) as usize];
        if let Some(other) = slot {
            return Err(Error::usage(format!(
                "shard {} appears twice: '{other}' and '{name}'; give each shard once",
                p.shard
            )));
        }
        *slot = Some(name);
        if !p.chunks.is_within(p.shard.chunks(total))
            || p.samples_done != p.run.samples_in(&p.chunks)
        {
            return Err(Error::usage(format!(
                "'{name}' is damaged: it holds chunks outside shard {}",
                p.shard
            )));
        }
        covered.insert_all(&p.chunks);
    }
    let missing_chunks = covered.missing_from(0..total);
    let missing = if missing_chunks.is_empty() {
        None
    } else {
        // Shards not given at all, and shards given but stopped by a signal part-way: each
        // with the samples it lacks.
        let plural = |n: usize| if n > 1 { "s" } else { "" };
        let mut absent = Vec::new();
        let mut absent_samples = 0;
        for (k, s) in seen.iter().enumerate() {
            if s.is_none() {
                let shard = Shard {
                    index: k as u32 + 1,
                    count: first.shard.count,
                };
                absent.push(shard.to_string());
                absent_samples += first
                    .run
                    .samples_in(&ChunkSet::from_range(shard.chunks(total)));
            }
        }
        let mut cut = Vec::new();
        let mut cut_samples = 0;
        for (_, p) in files {
            let lacking = p.chunks.missing_from(p.shard.chunks(total));
            if !lacking.is_empty() {
                cut.push(p.shard.to_string());
                cut_samples += first.run.samples_in(&lacking);
            }
        }
        let mut parts = Vec::new();
        if !absent.is_empty() {
            parts.push(format!(
                "shard{} {} missing ({} samples)",
                plural(absent.len()),
                absent.join(", "),
                thousands(absent_samples)
            ));
        }
        if !cut.is_empty() {
            parts.push(format!(
                "{} samples of interrupted shard{} {} missing",
                thousands(cut_samples),
                plural(cut.len()),
                cut.join(", ")
            ));
        }
        let what = parts.join(" and ");
        if !allow_partial {
            return Err(Error::usage(format!(
                "{what}: give every shard, or --partial to merge what is here"
            )));
        }
        Some(what)
    };
    // Add tallies in shard order so that the merge never depends on the order of the files.
    let mut ordered: Vec<&Partial> = files.iter().map(|(_, p)| p).collect();
    ordered.sort_by_key(|p| p.shard.index);
    let tallies: Vec<serde_json::Value> = ordered.iter().map(|p| p.tally.clone()).collect();
    let tally = first.job.merge_tallies(&tallies)?;
    let samples_done = ordered.iter().map(|p| p.samples_done).sum();
    Ok(Merged {
        job: first.job.clone(),
        tally,
        summary: RunSummary {
            spec: first.run,
            samples_done,
            interrupted: false,
            missing,
        },
    })
}
