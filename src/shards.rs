//! Partial results of sharded runs (`--shard K/N`) and their merge (`tahur merge`).
//!
//! A shard file is JSON: the job, the run definition (samples, seed, chunk size), which shard it
//! is, which chunks ran, their tally and a checksum of all of it. Reading one checks the checksum
//! and then every field before any arithmetic ([`Partial::check`]): a damaged or hand-edited
//! file is refused with its name and the field, never merged into a wrong report. Merging checks
//! that every file belongs to the same run, that no shard appears twice and that none is missing
//! (unless `--partial`), that no total overflows, then adds the tallies: the result is exactly
//! the unsharded run's.
//!
//! Files written before checksums (same format, no `checksum` field) are still read, with a
//! warning: their fields are checked one by one, but an edit within the limits cannot be seen.

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

    /// The file's JSON, with the checksum of its content last ([`checksum_of`]).
    pub fn to_json(&self) -> Result<String> {
        let internal = |e: serde_json::Error| Error::Internal(e.to_string());
        let mut v = serde_json::to_value(self).map_err(internal)?;
        let sum = checksum_of(&v);
        if let Some(o) = v.as_object_mut() {
            o.insert(CHECKSUM.into(), sum.into());
        }
        let mut s = serde_json::to_string(&v).map_err(internal)?;
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
        let mut value = value;
        let stored = value.as_object_mut().and_then(|o| o.shift_remove(CHECKSUM));
        match &stored {
            Some(serde_json::Value::String(sum)) if *sum == checksum_of(&value) => {}
            Some(sum) => {
                return Err(Error::usage(format!(
                    "'{shown}' is damaged: field {CHECKSUM} {} does not match its content (edited or cut short); give the file as tahur wrote it, or run that shard again",
                    short(sum)
                )))
            }
            None => {}
        }
        let p: Partial = serde_json::from_value(value).map_err(not_a_shard)?;
        p.check(&shown.to_string())?;
        if stored.is_none() {
            crate::progress::say(&format!(
                "tahur: '{shown}' has no {CHECKSUM} (written before checksums): its fields are checked one by one, but an edit within their limits cannot be seen"
            ));
        }
        Ok(p)
    }

    /// Checks every field before any arithmetic is done with it: the job as the command line
    /// would (players within the game's limits, …), the shard (1 ≤ index ≤ count), the run
    /// (1 to [`crate::text::MAX_SAMPLES`] samples, the job's own chunk size), the chunks (within
    /// the shard, in order, all of them unless interrupted), the samples they hold, and the
    /// tally ([`check_tally`]). Each refusal names the file (`name`) and the field.
    pub fn check(&self, name: &str) -> Result<()> {
        let bad = |field: &str, what: String| {
            Error::usage(format!(
                "'{name}' is damaged: field {field} {what}; give the file as tahur wrote it, or run that shard again"
            ))
        };
        self.job
            .check()
            .map_err(|e| bad("job", format!("is not a job tahur runs ({e})")))?;
        let Shard { index, count } = self.shard;
        if count == 0 {
            return Err(bad("shard.count", "is 0 (accepted: 1 or more)".into()));
        }
        if index == 0 || index > count {
            return Err(bad(
                "shard.index",
                format!("is {index} (accepted: 1 to shard.count, {count})"),
            ));
        }
        let RunSpec {
            samples,
            chunk_size,
            ..
        } = self.run;
        if samples == 0 || samples > crate::text::MAX_SAMPLES {
            return Err(bad(
                "run.samples",
                format!(
                    "is {samples} (accepted: 1 to {})",
                    thousands(crate::text::MAX_SAMPLES)
                ),
            ));
        }
        let own = self.job.chunk_size();
        if chunk_size != own {
            return Err(bad(
                "run.chunk_size",
                format!("is {chunk_size} (this job runs chunks of {own})"),
            ));
        }
        let total = self.run.total_chunks();
        let mine = self.shard.chunks(total);
        let mut after = mine.start;
        for r in &self.chunks.ranges {
            if r.start < after || r.end <= r.start || r.end > mine.end {
                return Err(bad(
                    "chunks",
                    format!(
                        "holds {}..{} (accepted: ranges in order within shard {}'s chunks {}..{})",
                        r.start, r.end, self.shard, mine.start, mine.end
                    ),
                ));
            }
            after = r.end + 1;
        }
        if !self.interrupted && self.chunks.len() != mine.end - mine.start {
            return Err(bad(
                "chunks",
                format!(
                    "holds {} of shard {}'s {} chunks, though field interrupted is false",
                    self.chunks.len(),
                    self.shard,
                    mine.end - mine.start
                ),
            ));
        }
        let held = self.run.samples_in(&self.chunks);
        if self.samples_done != held {
            return Err(bad(
                "samples_done",
                format!(
                    "is {} but its chunks hold {held} samples",
                    self.samples_done
                ),
            ));
        }
        let empty = self
            .job
            .empty_tally()
            .map_err(|e| bad("job", format!("cannot be run ({e})")))?;
        check_tally(&self.tally, empty.as_ref(), self.samples_done, "tally")
            .and_then(|_| self.job.check_tally(&self.tally, self.samples_done))
            .map_err(|(field, what)| bad(&field, what))
    }
}

/// The key of a shard file's checksum.
const CHECKSUM: &str = "checksum";

/// The checksum of a shard file's JSON (without its checksum): FNV-1a (64 bits) of its compact
/// text, which serde writes the same way every time (fields in order, shortest round-trip
/// numbers). It finds damage and hand edits, not forgery.
pub fn checksum_of(value: &serde_json::Value) -> String {
    let text = value.to_string();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// Checks a tally read from a file, before any arithmetic: every number a whole number; the
/// shape of `empty` (the job's tally of no samples) where it has one: the same fields, and
/// lists that are not empty there (one entry per seat, per strategy) of the same length; and
/// what every game tally must satisfy: draws and capped games within the games, the games
/// within `samples`, later-game counts within later games, paired counts within their pairs
/// and the pairs within `samples`, and |Σx| ≤ Σx² for sums of whole numbers. `Err` is the field (`tally.a.seats.2`) and what is wrong with it.
pub fn check_tally(
    value: &serde_json::Value,
    empty: Option<&serde_json::Value>,
    samples: u64,
    path: &str,
) -> std::result::Result<(), (String, String)> {
    use serde_json::Value;
    let at = |k: &str| format!("{path}.{k}");
    match value {
        Value::Number(n) => {
            if n.as_u64().is_none() && n.as_i64().is_none() {
                return Err((path.into(), format!("is {n} (accepted: whole numbers)")));
            }
        }
        Value::Array(items) => {
            if let Some(Value::Array(shape)) = empty {
                // Lists of counts (histograms) may grow; lists of records (one per seat, per
                // strategy, per change) keep their length.
                let grows = shape.iter().all(Value::is_number);
                if items.len() < shape.len() || (!grows && items.len() != shape.len()) {
                    return Err((
                        path.into(),
                        format!(
                            "lists {} entries (this job keeps {}{})",
                            items.len(),
                            if grows { "at least " } else { "" },
                            shape.len()
                        ),
                    ));
                }
            }
            for (i, item) in items.iter().enumerate() {
                let shape = match empty {
                    Some(Value::Array(shape)) => shape.get(i).or(shape.first()),
                    _ => None,
                };
                check_tally(item, shape, samples, &at(&i.to_string()))?;
            }
        }
        Value::Object(fields) => {
            if let Some(Value::Object(shape)) = empty {
                if let Some(k) = shape.keys().find(|k| !fields.contains_key(*k)) {
                    return Err((at(k), "is missing".into()));
                }
                if let Some(k) = fields.keys().find(|k| !shape.contains_key(*k)) {
                    return Err((at(k), "is not a field of this job's tally".into()));
                }
            }
            for (k, v) in fields {
                let shape = match empty {
                    Some(Value::Object(shape)) => shape.get(k),
                    _ => None,
                };
                check_tally(v, shape, samples, &at(k))?;
            }
            let count = |k: &str| fields.get(k).and_then(Value::as_u64);
            let within = |part: &str, whole: &str| -> std::result::Result<(), (String, String)> {
                match (count(part), count(whole)) {
                    (Some(p), Some(w)) if p > w => {
                        Err((at(part), format!("is {p}, more than {whole} ({w})")))
                    }
                    _ => Ok(()),
                }
            };
            // Deals and hands are samples (bugs may drop some, never add any).
            for unit in ["deals", "hands"] {
                if let Some(n) = count(unit).filter(|&n| n > samples) {
                    return Err((
                        at(unit),
                        format!("is {n}, more than the samples the file holds ({samples})"),
                    ));
                }
            }
            if let Some(games) = count("games") {
                // A tournament's pairs play every deal at several seatings: only their own
                // counts bound their games.
                if games > samples && !path.contains(".pairs") {
                    return Err((
                        at("games"),
                        format!("is {games}, more than the samples the file holds ({samples})"),
                    ));
                }
                if let (Some(d), Some(c)) = (count("draws"), count("capped")) {
                    if d.checked_add(c).is_none_or(|dc| dc > games) {
                        return Err((
                            at("draws"),
                            format!("({d}) and capped ({c}) add up to more than games ({games})"),
                        ));
                    }
                }
                within("later_games", "games")?;
                if let Some(Value::Array(hist)) = fields.get("length_hist") {
                    let counted = hist
                        .iter()
                        .try_fold(0u64, |t, x| x.as_u64().and_then(|x| t.checked_add(x)));
                    if counted.is_none_or(|c| c > games) {
                        return Err((
                            at("length_hist"),
                            format!("counts more games than games ({games})"),
                        ));
                    }
                }
            }
            // Paired counts (event in A only, in B only, in both) count pairs, each once.
            if let Some(pairs) = count("pairs") {
                if pairs > samples {
                    return Err((
                        at("pairs"),
                        format!("is {pairs}, more than the samples the file holds ({samples})"),
                    ));
                }
                let paired = |v: &Value| -> Option<u64> {
                    let o = v.as_object()?;
                    if o.len() != 3 {
                        return None;
                    }
                    let get = |k: &str| o.get(k).and_then(Value::as_u64);
                    Some(
                        get("a_only")?
                            .saturating_add(get("b_only")?)
                            .saturating_add(get("both")?),
                    )
                };
                for (k, v) in fields {
                    let items = match v {
                        Value::Array(items) => items.iter().collect::<Vec<_>>(),
                        other => vec![other],
                    };
                    for (i, item) in items.into_iter().enumerate() {
                        if paired(item).is_some_and(|n| n > pairs) {
                            let field = if v.is_array() {
                                format!("{k}.{i}")
                            } else {
                                k.clone()
                            };
                            return Err((
                                at(&field),
                                format!("counts more than the {pairs} pairs"),
                            ));
                        }
                    }
                }
            }
            within("later_decided", "later_games")?;
            within("repeat", "later_games")?;
            if let (Some(sum), Some(sq), 2) = (
                fields.get("sum").and_then(Value::as_i64),
                fields.get("sum_sq").and_then(Value::as_u64),
                fields.len(),
            ) {
                if sum.unsigned_abs() > sq {
                    return Err((
                        at("sum"),
                        format!("is {sum}, larger than sum_sq ({sq}) allows for whole numbers"),
                    ));
                }
            }
        }
        Value::Bool(_) | Value::String(_) | Value::Null => {
            if let Some(shape) = empty {
                if std::mem::discriminant(shape) != std::mem::discriminant(value) {
                    return Err((path.into(), format!("is {}", short(value))));
                }
            }
        }
    }
    if let Some(shape) = empty {
        let kind = |v: &Value| match v {
            Value::Number(_) => "a number",
            Value::Array(_) => "a list",
            Value::Object(_) => "an object",
            _ => "a value",
        };
        if kind(shape) != kind(value) {
            return Err((
                path.into(),
                format!("is {} where this job keeps {}", kind(value), kind(shape)),
            ));
        }
    }
    Ok(())
}

/// Checks that adding `tallies` (file name, tally) field by field overflows nothing: every total
/// must fit the field's type (a count: 0 to 2^64 - 1; a signed sum `sum`, or any field with a
/// negative value: a 64-bit signed number). `Err` names the file whose value goes over.
fn check_totals(tallies: &[(&str, &serde_json::Value)]) -> Result<()> {
    use std::collections::BTreeMap;
    fn leaves(v: &serde_json::Value, path: String, out: &mut Vec<(String, i128)>) {
        match v {
            serde_json::Value::Number(n) => {
                if let Some(x) = n.as_u64() {
                    out.push((path, i128::from(x)));
                } else if let Some(x) = n.as_i64() {
                    out.push((path, i128::from(x)));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    leaves(item, format!("{path}.{i}"), out);
                }
            }
            serde_json::Value::Object(fields) => {
                for (k, item) in fields {
                    leaves(item, format!("{path}.{k}"), out);
                }
            }
            _ => {}
        }
    }
    let mut totals: BTreeMap<String, (i128, bool)> = BTreeMap::new();
    for (name, tally) in tallies {
        let mut found = Vec::new();
        leaves(tally, "tally".into(), &mut found);
        for (path, x) in found {
            let (total, signed) = totals.entry(path.clone()).or_insert((0, false));
            *total += x;
            *signed |= x < 0 || path.ends_with(".sum");
            let (low, high) = if *signed {
                (i128::from(i64::MIN), i128::from(i64::MAX))
            } else {
                (0, i128::from(u64::MAX))
            };
            if *total < low || *total > high {
                return Err(Error::usage(format!(
                    "'{name}' is damaged: field {path} brings the merged total to {total}, beyond what the field holds ({low} to {high}); give the files as tahur wrote them"
                )));
            }
        }
    }
    Ok(())
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
    let mut named: Vec<(&str, &Partial)> = files.iter().map(|(n, p)| (n.as_str(), p)).collect();
    named.sort_by_key(|(_, p)| p.shard.index);
    check_totals(
        &named
            .iter()
            .map(|(n, p)| (*n, &p.tally))
            .collect::<Vec<_>>(),
    )?;
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
