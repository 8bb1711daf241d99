//! Real signals sent to the `tahur` binary: Ctrl-C (SIGINT), SIGTERM and SIGHUP stop every long
//! command between units of work (a search bot's game inside its search), print (and write) what
//! was computed with its true count and exit with 128 + the signal's number (130, 143, 129); a
//! second signal exits at once.
//!
//! Written for a loaded machine: every test waits for the command's own "started" sign (the
//! first `--progress` line, printed once the signal handler is in place) and gives it work that
//! takes far longer than the test needs to send a signal; nothing asserts a timing.
#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread::JoinHandle;
use std::time::Duration;

/// A `tahur` process whose stderr is read line by line as it comes.
struct Running {
    child: Child,
    lines: Receiver<String>,
    reader: JoinHandle<()>,
    seen: Vec<String>,
}

impl Running {
    /// Starts `tahur ARGS --progress=1` with stdout and stderr piped.
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(crate::common::TAHUR)
            .args(args)
            .arg("--progress=1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            lines,
            reader,
            seen: Vec::new(),
        }
    }

    /// Waits for a stderr line containing `text` (generously: the machine may be loaded).
    fn wait_for(&mut self, text: &str) -> String {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(900)) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(e) => panic!(
                    "no line with {text:?} ({e}); stderr so far: {:?}",
                    self.seen
                ),
            }
        }
    }

    /// Waits until the command has started its work (its first progress line, printed once
    /// the signal handler is in place). A signal right after it may land before the first unit
    /// of work is done: the command must then report its zero just as honestly.
    fn wait_started(&mut self) {
        self.wait_for("tahur: 0 of ");
    }

    /// Sends `signal` (INT, TERM) with kill(1).
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} failed");
    }

    /// Waits for the end: exit status, stdout and all of stderr.
    fn finish(mut self) -> (ExitStatus, String, String) {
        let out = self.child.wait_with_output().unwrap();
        self.reader.join().unwrap();
        self.seen.extend(self.lines.try_iter());
        (
            out.status,
            String::from_utf8(out.stdout).unwrap(),
            self.seen.join("\n"),
        )
    }
}

/// The number in `tahur: interrupted: 1,234 of 5,678 games ran`.
fn interrupted_count(stderr: &str) -> (u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("tahur: interrupted: "))
        .unwrap_or_else(|| panic!("no interrupted line in {stderr}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let num = |w: &str| w.replace(',', "").parse::<u64>().unwrap();
    (num(words[2]), num(words[4]))
}

#[test]
fn sigterm_stops_a_long_simulation_with_its_true_count() {
    let mut run = Running::start(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--games",
        "1e12",
        "--format",
        "json",
    ]);
    run.wait_started();
    run.signal("TERM");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(143), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let games = v["games"].as_u64().unwrap();
    assert_eq!(v["games_requested"], 1_000_000_000_000u64);
    assert!(games < 1_000_000_000_000);
    assert_eq!(games % 256, 0, "whole chunks only: {games}");
    // The count on stderr, the report's and the wins by seat agree.
    assert_eq!(interrupted_count(&stderr), (games, 1_000_000_000_000));
    assert!(stderr.contains("tahur: stopping"), "{stderr}");
    assert!(
        stderr.contains("games (") && !stderr.contains("samples/s"),
        "progress counts games: {stderr}"
    );
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("Interrupted")),
        "{notes:?}"
    );
}

#[test]
fn ctrl_c_stops_a_hand_simulation_the_same_way() {
    let mut run = Running::start(&[
        "veintiuno",
        "sim",
        "--players",
        "4",
        "--hands",
        "1e13",
        "--format",
        "json",
    ]);
    run.wait_started();
    run.signal("INT");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(130), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let hands = v["hands"].as_u64().unwrap();
    assert_eq!(v["hands_requested"], 10_000_000_000_000u64);
    assert_eq!(interrupted_count(&stderr), (hands, 10_000_000_000_000));
    assert!(
        stderr.contains(" hands ("),
        "progress counts hands: {stderr}"
    );
}

#[test]
fn a_shard_stopped_by_sigterm_merges_with_partial() {
    let dir = tempfile::tempdir().unwrap();
    let part = |k: u32| dir.path().join(format!("part{k}.json"));
    let (p1, p2) = (part(1), part(2));
    let base = [
        "dudo",
        "prob",
        "15",
        "cuadras",
        "--dice",
        "30",
        "--samples",
        "2e8",
        "--shard",
    ];
    let with = |shard: &str, file: &Path| -> Vec<String> {
        let mut a: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        a.extend([shard.into(), "--output".into(), file.display().to_string()]);
        a
    };
    // One thread (which never changes a result): the shard takes seconds on any machine, so
    // the signal lands while it runs.
    let mut args1 = with("1/2", &p1);
    args1.extend(["--threads".into(), "1".into()]);
    let mut run = Running::start(&args1.iter().map(String::as_str).collect::<Vec<_>>());
    run.wait_started();
    run.signal("TERM");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stdout.is_empty());
    let shard1: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p1).unwrap()).unwrap();
    assert_eq!(shard1["interrupted"], true);
    let done1 = shard1["samples_done"].as_u64().unwrap();
    let (said, planned) = interrupted_count(&stderr);
    assert_eq!(said, done1);
    assert!(done1 < planned, "{done1} of {planned}");

    // The other shard runs to the end.
    let args2 = with("2/2", &p2);
    common::stdout(&args2.iter().map(String::as_str).collect::<Vec<_>>());
    let (f1, f2) = (p1.display().to_string(), p2.display().to_string());
    let e = common::fails(&["merge", &f1, &f2]);
    assert!(e.contains("interrupted shard 1/2"), "{e}");
    let v = common::json(&["merge", &f1, &f2, "--partial", "--format", "json"]);
    let shard2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p2).unwrap()).unwrap();
    let done2 = shard2["samples_done"].as_u64().unwrap();
    assert_eq!(shard2["interrupted"], false);
    assert_eq!(v["samples"].as_u64().unwrap(), done1 + done2);
    assert_eq!(v["samples_requested"], 200_000_000u64);
    let missing = 200_000_000 - done1 - done2;
    let note = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("Partial merge"))
        .unwrap()
        .to_string();
    let thousands = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        note.contains(&format!(
            "{} samples of interrupted shard 1/2 missing",
            thousands(missing)
        )),
        "{note}"
    );
}

#[test]
fn veintiuno_strategy_prints_a_partial_sheet_and_keeps_write_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("strategy.json");
    std::fs::write(&sheet, "the shipped sheet\n").unwrap();
    let sheet_arg = sheet.display().to_string();
    let mut run = Running::start(&[
        "veintiuno",
        "strategy",
        "--samples",
        "1e7",
        "--write",
        &sheet_arg,
        "--format",
        "json",
    ]);
    run.wait_for("tahur: 0 of 424 decision points");
    run.signal("TERM");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&sheet).unwrap(),
        "the shipped sheet\n"
    );
    assert!(stderr.contains("--write"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let done = v["decision_points"].as_u64().unwrap();
    assert_eq!(v["decision_points_requested"], 424);
    assert!(done < 424);
    let moves = v["moves"].as_array().unwrap();
    let marked = moves
        .iter()
        .flat_map(|row| row.as_object().unwrap().values())
        .filter(|c| *c == "not_computed")
        .count();
    // Hard and soft totals: 26 rows of 8 up cards, of which `done` at most were computed.
    assert!(marked >= 26 * 8 - done as usize && marked > 0, "{marked}");
    assert!(stderr.contains("decision points computed"), "{stderr}");
}

#[test]
fn dudo_tune_exits_143_and_leaves_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("tuned-chimbo9.csv");
    let md = dir.path().join("tuned-chimbo9.md");
    std::fs::write(&csv, "players,t\n").unwrap();
    std::fs::write(&md, "# kept\n").unwrap();
    let out = dir.path().display().to_string();
    let mut run = Running::start(&[
        "dudo",
        "tune",
        "--players",
        "2,3",
        "--games",
        "1e9",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    run.wait_started();
    run.signal("TERM");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "players,t\n");
    assert_eq!(std::fs::read_to_string(&md).unwrap(), "# kept\n");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["table_sizes_requested"], 2);
    assert!(v["tuned"].as_array().unwrap().is_empty());
    assert!(stderr.contains("left as they were"), "{stderr}");
}

#[test]
fn a_second_signal_exits_at_once() {
    // After the first signal the run stops at once (searches too) and writes its report to a
    // FIFO no one reads: opening it waits for a reader, and the second signal must not wait.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let fifo_arg = fifo.display().to_string();
    let mut run = Running::start(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--games",
        "1e12",
        "--output",
        &fifo_arg,
    ]);
    run.wait_started();
    run.signal("TERM");
    run.wait_for("tahur: interrupted");
    run.signal("INT");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("second signal"), "{stderr}");
    assert!(
        stdout.is_empty(),
        "nothing printed after the second signal: {stdout}"
    );
}

/// `tahur … 2>&1 | head` and then Ctrl-C: the reader is gone before tahur says it is stopping.
/// Messages to a closed stderr are dropped; the run still ends with 130 (it aborted before).
#[test]
fn a_signal_with_stdout_and_stderr_closed_still_exits_130() {
    let mut run = Running::start(&["durak", "sim", "--players", "4", "--games", "1e12"]);
    run.wait_started();
    // Close both reading ends: stdout's now, stderr's when its reader thread ends.
    drop(run.child.stdout.take());
    let Running {
        mut child,
        lines,
        reader,
        ..
    } = run;
    drop(lines);
    let status = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    // The reader thread stops at its next line (the send fails), closing stderr's pipe.
    reader.join().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
}

#[test]
fn sighup_exits_129() {
    let mut run = Running::start(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--games",
        "1e12",
        "--format",
        "json",
    ]);
    run.wait_started();
    run.signal("HUP");
    let (status, stdout, stderr) = run.finish();
    assert_eq!(status.code(), Some(129), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(interrupted_count(&stderr).0, v["games"].as_u64().unwrap());
}

#[test]
fn ctrl_c_stops_inside_a_long_search_game() {
    // One chunk of ISMCTS games with 20 000 iterations a decision takes many seconds (23 s on
    // a fast core): the signal must stop the searches under way, not wait for the chunk.
    let mut run = Running::start(&[
        "durak",
        "sim",
        "--players",
        "2",
        "--strategies",
        "ismcts:20000",
        "--games",
        "1e6",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    run.wait_started();
    std::thread::sleep(Duration::from_millis(300));
    let sent = std::time::Instant::now();
    run.signal("INT");
    let (status, stdout, stderr) = run.finish();
    let took = sent.elapsed();
    assert_eq!(status.code(), Some(130), "{stderr}");
    // Reported, not asserted (timings belong in benches): a chunk would take tens of seconds.
    eprintln!("stopped {took:?} after Ctrl-C");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // The chunk cut short is dropped: no game of it counts, so none ran in full.
    assert_eq!(v["games"], 0, "{stderr}");
    assert_eq!(interrupted_count(&stderr), (0, 1_000_000));
    assert!(
        took < Duration::from_secs(20),
        "the search did not see the signal: {took:?}"
    );
}

#[test]
fn threads_beyond_the_processors_are_capped_with_a_note() {
    let args = [
        "dudo",
        "sim",
        "--players",
        "3",
        "--games",
        "2000",
        "--format",
        "json",
        "--threads",
    ];
    let run = |t: &str| {
        Command::new(crate::common::TAHUR)
            .args(args)
            .arg(t)
            .output()
            .unwrap()
    };
    let (many, one) = (run("1000"), run("1"));
    assert!(many.status.success() && one.status.success());
    assert_eq!(many.stdout, one.stdout, "threads never change the numbers");
    let cores = std::thread::available_parallelism().unwrap().get();
    let note = String::from_utf8(many.stderr).unwrap();
    if cores < 1000 {
        assert_eq!(
            note.trim_end(),
            format!(
                "tahur: --threads 1000: this machine runs {cores} at once, so {cores} are used (the numbers are the same)"
            )
        );
    }
    assert!(one.stderr.is_empty());
}
