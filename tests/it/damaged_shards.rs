//! `tahur merge` of damaged or hand-edited shard files: every field is checked before any
//! arithmetic, the checksum finds edits, and no file makes merge crash (exit 101) or report a
//! wrong total. Each refusal is one line naming the file and the field, exit 2.

use crate::common::*;

use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A small run split in two shards: its files and what the unsharded run prints.
struct Run {
    dir: tempfile::TempDir,
    parts: [PathBuf; 2],
    whole: String,
}

fn make(base: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let parts = [dir.path().join("p1.json"), dir.path().join("p2.json")];
    for (k, p) in parts.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--output", p.to_str().unwrap()]);
        stdout(&args);
    }
    let whole = stdout(&[base, &["--format", "json"]].concat());
    Run { dir, parts, whole }
}

/// `dudo sim` (one table), `durak flags` (a table and its changes, Durak's re-deals), and a job
/// of every other kind: `dudo prob`, `veintiuno sim`, `ocho value`, `domino deal`, and a
/// tournament (its pairs play each deal at every seating).
fn runs() -> &'static [Run; 7] {
    static RUNS: OnceLock<[Run; 7]> = OnceLock::new();
    RUNS.get_or_init(|| {
        [
            make(&["dudo", "sim", "--players", "3", "--games", "700"]),
            make(&["durak", "flags", "--players", "3", "--games", "300"]),
            make(&[
                "dudo",
                "prob",
                "5",
                "cuadras",
                "--dice",
                "10",
                "--samples",
                "20000",
            ]),
            make(&["veintiuno", "sim", "--players", "3", "--hands", "2000"]),
            make(&["ocho", "value", "--players", "3", "--deals", "300"]),
            make(&["domino", "deal", "--players", "4", "--samples", "3000"]),
            make(&[
                "durak",
                "tournament",
                "--players",
                "2",
                "--strategies",
                "random,greedy",
                "--games",
                "300",
            ]),
        ]
    })
}

/// FNV-1a (64 bits) of the compact JSON without the checksum, as the shard format defines it.
fn checksum(v: &Value) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in v.to_string().bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("fnv1a64:{h:016x}")
}

fn read(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// `v` with a checksum that matches it (a careful hand edit, which only field checks can find).
fn resealed(mut v: Value) -> String {
    v.as_object_mut().unwrap().shift_remove("checksum");
    let sum = checksum(&v);
    v.as_object_mut()
        .unwrap()
        .insert("checksum".into(), sum.into());
    v.to_string()
}

/// Merges `first` (written to a file in `run`'s folder) with the run's second shard: exit code,
/// stdout, stderr.
fn merge_with(run: &Run, first: &[u8], tag: &str) -> (i32, String, String) {
    let f = run.dir.path().join(format!("edited-{tag}.json"));
    std::fs::write(&f, first).unwrap();
    // A merge that runs for long on a damaged file is a failure too (exit -1 after a kill).
    let out = output_within(
        tahur()
            .args(["merge", f.to_str().unwrap(), run.parts[1].to_str().unwrap()])
            .args(["--format", "json"]),
        std::time::Duration::from_secs(60),
    );
    let _ = std::fs::remove_file(&f);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Refused with exit 2 in one line naming the file and `field`.
fn refused(run: &Run, first: &str, field: &str) -> String {
    let (code, out, err) = merge_with(run, first.as_bytes(), "refused");
    assert_eq!(code, 2, "{field}: {err}");
    assert!(out.is_empty());
    let line = err.trim_end();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.contains("edited-refused.json") && line.contains(&format!("field {field}")),
        "{field}: {line}"
    );
    line.to_string()
}

#[test]
fn the_files_as_written_merge_to_the_whole_run() {
    for run in runs() {
        let first = std::fs::read(&run.parts[0]).unwrap();
        let (code, out, err) = merge_with(run, &first, "as-written");
        assert_eq!((code, out.as_str()), (0, run.whole.as_str()), "{err}");
        assert!(err.is_empty(), "{err}");
        assert!(read(&run.parts[0])["checksum"]
            .as_str()
            .unwrap()
            .starts_with("fnv1a64:"));
    }
}

#[test]
fn the_damaged_files_of_the_issue_are_refused_by_name_and_field() {
    let [dudo, durak, ..] = runs();
    let p1 = read(&dudo.parts[0]);
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut v = p1.clone();
        f(&mut v);
        resealed(v)
    };
    // Each crafted file once made merge crash (exit 101) or exit 1.
    let e = refused(
        dudo,
        &edit(&|v| v["shard"] = serde_json::json!({"index": 4, "count": 3})),
        "shard.index",
    );
    assert!(e.contains("is 4") && e.contains("1 to shard.count"), "{e}");
    refused(
        dudo,
        &edit(&|v| v["shard"]["count"] = 0.into()),
        "shard.count",
    );
    let e = refused(
        dudo,
        &edit(&|v| v["run"]["chunk_size"] = 0.into()),
        "run.chunk_size",
    );
    assert!(e.contains("chunks of 256"), "{e}");
    refused(
        dudo,
        &edit(&|v| v["run"]["samples"] = 0.into()),
        "run.samples",
    );
    let d1 = read(&durak.parts[0]);
    let mut many = d1.clone();
    many["job"]["job"]["base"]["rules"]["players"] = 99.into();
    let e = refused(durak, &resealed(many), "job");
    assert!(e.contains("players=99"), "{e}");
    // 2^64: beyond a count.
    let big = p1
        .to_string()
        .replacen("\"games\":", "\"games\":18446744073709551616,\"x\":", 1);
    let (code, _, err) = merge_with(dudo, big.as_bytes(), "big");
    assert_eq!(code, 2, "{err}");
    // Hand-edited tallies, resealed so that only the field checks can see them.
    let e = refused(
        dudo,
        &edit(&|v| v["tally"]["draws"] = 5000.into()),
        "tally.draws",
    );
    assert!(e.contains("more than games"), "{e}");
    let e = refused(
        dudo,
        &edit(&|v| {
            v["tally"]["seats"].as_array_mut().unwrap().pop();
        }),
        "tally.seats",
    );
    assert!(e.contains("lists 2 entries (this job keeps 3)"), "{e}");
    refused(
        dudo,
        &edit(&|v| v["tally"]["games"] = 5000.into()),
        "tally.games",
    );
    // 2^63 in both files: each fits, their sum does not.
    let huge = |v: &Value| {
        let mut v = v.clone();
        v["tally"]["violations"] = (1u64 << 63).into();
        resealed(v)
    };
    let second = dudo.dir.path().join("huge2.json");
    std::fs::write(&second, huge(&read(&dudo.parts[1]))).unwrap();
    let first = dudo.dir.path().join("huge1.json");
    std::fs::write(&first, huge(&p1)).unwrap();
    let e = fails(&["merge", first.to_str().unwrap(), second.to_str().unwrap()]);
    assert!(
        e.contains("huge2.json") && e.contains("field tally.violations"),
        "{e}"
    );
    // Not resealed: the checksum finds the edit ("games 7").
    let mut seven = p1.clone();
    seven["tally"]["games"] = 7.into();
    let e = refused(dudo, &seven.to_string(), "checksum");
    assert!(e.contains("does not match"), "{e}");
}

#[test]
fn files_without_a_checksum_are_checked_field_by_field_with_a_warning() {
    let [dudo, ..] = runs();
    let mut v = read(&dudo.parts[0]);
    v.as_object_mut().unwrap().shift_remove("checksum");
    let (code, out, err) = merge_with(dudo, v.to_string().as_bytes(), "old");
    assert_eq!((code, out.as_str()), (0, dudo.whole.as_str()), "{err}");
    assert!(err.contains("has no checksum"), "{err}");
    v["tally"]["draws"] = 9999.into();
    let (code, _, err) = merge_with(dudo, v.to_string().as_bytes(), "old-draws");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("field tally.draws"), "{err}");
}

/// Every number in `v` with its path (JSON pointer).
fn numbers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                numbers(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(fields) => {
            for (k, x) in fields {
                numbers(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// A damaged number: edges, neighbours, and anything a u64 or i64 holds.
fn new_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(0)),
        Just(Value::from(1)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(1u64 << 63)),
        Just(Value::from(i64::MIN)),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..5000).prop_map(Value::from),
        Just(serde_json::json!(0.5)),
        Just(serde_json::json!(1e30)),
    ]
}

proptest! {
    // Each case runs the binary once: a few dozen cases keep the test to seconds.
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A number changed and the file resealed: refused (2) or merged (0), never a crash. (Most
    /// refusals name the field; values of a game's own tally that each pass and only clash in
    /// its report are refused naming the files.)
    #[test]
    fn a_changed_number_never_crashes_merge(
        which in 0usize..7,
        pick in any::<prop::sample::Index>(),
        number in new_number(),
    ) {
        let run = &runs()[which];
        let mut v = read(&run.parts[0]);
        let mut paths = Vec::new();
        numbers(&v, String::new(), &mut paths);
        let path = pick.get(&paths).clone();
        *v.pointer_mut(&path).unwrap() = number;
        let (code, _, err) = merge_with(run, resealed(v).as_bytes(), "number");
        prop_assert!(code == 0 || code == 2, "{path}: exit {code}: {err}");
    }

    /// Bytes changed or the file cut short, not resealed: refused (2), or, when the change
    /// changed nothing that counts, the whole run's report exactly.
    #[test]
    fn damaged_bytes_are_refused_or_change_nothing(
        which in 0usize..7,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<bool>(),
    ) {
        let run = &runs()[which];
        let mut bytes = std::fs::read(&run.parts[0]).unwrap();
        let i = at.index(bytes.len());
        if cut {
            bytes.truncate(i);
        } else {
            bytes[i] = byte;
        }
        let (code, out, err) = merge_with(run, &bytes, "bytes");
        prop_assert!(code == 0 || code == 2, "exit {code}: {err}");
        if code == 0 {
            prop_assert_eq!(out, run.whole.clone());
        }
    }
}
