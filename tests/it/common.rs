//! Helpers the command-line tests share: run `tahur` as a user would and check what it says.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `tahur` binary cargo built for these tests.
pub const TAHUR: &str = env!("CARGO_BIN_EXE_tahur");

/// A command running the `tahur` binary, 400 columns wide: tests of what a report says find
/// its sentences whole (tests/it/report_width.rs checks the fitted layout at 80 and 100).
pub fn tahur() -> Command {
    let mut c = Command::new(TAHUR);
    c.env("COLUMNS", "400");
    c
}

/// Runs `command` to its end as `Command::output` does, but kills it after `limit` (the output
/// then shows a signal): a regression that starts long work fails instead of hanging the test.
pub fn output_within(command: &mut Command, limit: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on their own threads, so a child that fills one cannot block.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let read_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).map(|_| v)
    });
    let read_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).map(|_| v)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: read_out.join().unwrap().unwrap(),
        stderr: read_err.join().unwrap().unwrap(),
    }
}

/// Runs `tahur ARGS`, which must succeed, and returns what it printed.
pub fn stdout(args: &[&str]) -> String {
    let out = tahur().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `tahur ARGS` (which ask for JSON) and parses what it printed.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

/// Runs `tahur ARGS`, which must fail as a user mistake does: exit code 2, one line on stderr
/// without a panic or a backtrace, nothing on stdout. Returns the line.
pub fn fails(args: &[&str]) -> String {
    let out = tahur().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} should fail with 2; stderr: {err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected, got {err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("backtrace") && !err.contains("internal error"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    err
}

/// Runs `tahur BASE --shard K/N --output FILE` for every K and returns the files. A
/// `--format` in BASE is left out: shards write JSON, and refuse another format.
pub fn shard_files(dir: &Path, base: &[&str], n: u32) -> Vec<String> {
    let mut without_format = base.to_vec();
    if let Some(i) = without_format.iter().position(|a| *a == "--format") {
        without_format.drain(i..(i + 2).min(without_format.len()));
    }
    let base = &without_format;
    (1..=n)
        .map(|k| {
            let path = dir.join(format!("part{k}.json")).display().to_string();
            let shard = format!("{k}/{n}");
            let mut args = base.to_vec();
            args.extend_from_slice(&["--shard", &shard, "--output", &path]);
            stdout(&args);
            path
        })
        .collect()
}

/// The same output for 1 and 2 threads, and a 3-shard merge (files given in reverse order)
/// prints exactly the whole run. Returns the output.
pub fn reproducible(base: &[&str]) -> String {
    let one = stdout(&[base, &["--threads", "1"]].concat());
    let two = stdout(&[base, &["--threads", "2"]].concat());
    assert_eq!(one, two, "{base:?}: threads changed the output");
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), base, 3);
    let mut args = vec!["merge"];
    if let Some(i) = base.iter().position(|a| *a == "--format") {
        args.extend_from_slice(&["--format", base[i + 1]]);
    }
    args.extend(files.iter().rev().map(String::as_str));
    assert_eq!(stdout(&args), one, "{base:?}: the merge differs");
    one
}

/// Runs one command line (`"durak sim --players 3 …"`, split at spaces), which must succeed,
/// and returns its JSON.
pub fn run_json(line: &str) -> serde_json::Value {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["--format", "json"]);
    json(&args)
}

/// `tahur BASE` (which asks for JSON) split into 2 shards and merged prints exactly the whole
/// run, figure for figure, and each shard holds some of it; 2 threads print the same too.
/// Returns the whole run.
pub fn two_shards_merge_to_the_whole(base: &[&str]) -> serde_json::Value {
    let whole = stdout(base);
    let two = stdout(&[base, &["--threads", "2"]].concat());
    assert_eq!(whole, two, "{base:?}: threads changed the output");
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), base, 2);
    for f in &files {
        let part: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert!(
            part["samples_done"].as_u64().unwrap() > 0,
            "{base:?}: {f} is empty"
        );
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let merged = stdout(&args);
    let (whole, merged): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&whole).unwrap(),
        serde_json::from_str(&merged).unwrap(),
    );
    assert_eq!(merged, whole, "{base:?}: the merge differs");
    whole
}
