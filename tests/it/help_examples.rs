//! Every example in every command's `--help` runs: each on its own, in an empty folder (so no
//! example leans on a file another wrote), through `sh` as a user pastes it, with `tahur` on
//! the `PATH`. Counts are made small so the whole set takes seconds, not hours: a count given
//! (`--games 1e6`) is lowered, and a count the command would default is given small.

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// The count flags and the value an example runs with (smaller values given are kept).
const SMALL: [(&str, u64); 6] = [
    ("--games", 10),
    ("--hands", 400),
    ("--samples", 2000),
    ("--deals", 40),
    ("--rollouts", 16),
    ("--iterations", 10),
];

/// Help texts by command path, fetched once.
struct Helps(HashMap<Vec<String>, String>);

impl Helps {
    fn get(&mut self, path: &[String]) -> &str {
        self.0.entry(path.to_vec()).or_insert_with(|| {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("--help");
            common::stdout(&args)
        })
    }

    /// The subcommands `path` lists under "Commands:" (`help` left out).
    fn subcommands(&mut self, path: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        let mut inside = false;
        for line in self.get(path).lines() {
            if line.starts_with("Commands:") {
                inside = true;
            } else if inside {
                match line.strip_prefix("  ") {
                    Some(rest) if !rest.starts_with(' ') => {
                        let name = rest.split_whitespace().next().unwrap_or("");
                        if !name.is_empty() && name != "help" {
                            out.push(name.to_string());
                        }
                    }
                    Some(_) => {}
                    None => inside = false,
                }
            }
        }
        out
    }
}

/// The examples of a help text: the lines after "Examples:" that start a command, each joined
/// with its continuation lines (after a trailing `\`, `&&` or `|`).
fn examples(help: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut inside = false;
    let mut open = false;
    for line in help.lines() {
        if line.starts_with("Examples:") || line.starts_with("Example:") {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        let t = line.trim();
        if open && line.starts_with("      ") {
            let last = out.last_mut().unwrap();
            *last = format!("{} {t}", last.trim_end_matches('\\').trim_end());
        } else if line.starts_with("  ") && !line.starts_with("   ") {
            out.push(t.to_string());
        } else {
            inside = !t.is_empty() && line.starts_with(' ');
            open = false;
            continue;
        }
        let last = out.last().unwrap();
        let command = last.split(" #").next().unwrap().trim_end();
        open = command.ends_with('\\') || command.ends_with("&&") || command.ends_with('|');
    }
    out
}

/// `example` with its counts made small: each `tahur` command in it (between `&&` and `|`)
/// gets its count flags lowered or, where its command takes one it was not given, added.
fn small(example: &str, helps: &mut Helps) -> String {
    let mut words: Vec<String> = example.split(' ').map(String::from).collect();
    let mut i = 0;
    while i < words.len() {
        if words[i] != "tahur" && words[i] != "\"$(tahur" {
            i += 1;
            continue;
        }
        // The command's path: its words while they name subcommands.
        let mut path: Vec<String> = Vec::new();
        let mut j = i + 1;
        while j < words.len() && helps.subcommands(&path).contains(&words[j]) {
            path.push(words[j].clone());
            j += 1;
        }
        let end = (j..words.len())
            .find(|&k| ["&&", "|", ">"].contains(&words[k].as_str()) || words[k].starts_with('#'))
            .unwrap_or(words.len());
        let help = helps.get(&path).to_string();
        let mut added = Vec::new();
        for (flag, n) in SMALL {
            if !help.contains(&format!("{flag} <")) {
                continue;
            }
            match (j..end).find(|&k| words[k] == flag) {
                Some(k) if k + 1 < end => {
                    let given: f64 = words[k + 1].parse().unwrap_or(f64::INFINITY);
                    if given > n as f64 {
                        words[k + 1] = n.to_string();
                    }
                }
                // 21's `strategy` is exact without `--samples` (and `--infinite` is exact
                // only): the flag changes the method, so it is never added there.
                _ if flag == "--samples" && path == ["veintiuno", "strategy"] => {}
                _ => added.extend([flag.to_string(), n.to_string()]),
            }
        }
        let count = added.len();
        words.splice(j..j, added);
        i = end + count;
    }
    words.join(" ")
}

/// How long an example runs before it is stopped: exact analyses (21's strategy sheet, the
/// Dudo duel's CFR with two or five dice) take minutes in a test build whatever the counts. One
/// still running then has passed every check a mistake fails (arguments, values, output
/// paths: all before the work), and is stopped.
const LIMIT: Duration = Duration::from_secs(6);

/// Runs `line` through `sh` in the empty folder `dir`, `tahur` first on the `PATH`: its exit
/// code, or `None` when it was still running at [`LIMIT`] and was stopped. A single command is
/// `exec`ed, so the process stopped is the `tahur` that runs long.
fn run(line: &str, dir: &Path) -> (Option<i32>, String) {
    let (code, err, _) = run_at(line, dir, None);
    (code, err)
}

/// [`run`] with `COLUMNS` set to `columns` (unset when `None`); also returns what the command
/// printed on stdout.
fn run_at(line: &str, dir: &Path, columns: Option<usize>) -> (Option<i32>, String, String) {
    let bin = Path::new(common::TAHUR).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let single = !line.contains("&&") && !line.contains('|');
    let line = if single {
        format!("exec {line}")
    } else {
        line.to_string()
    };
    let err = dir.join(".stderr");
    let out = dir.join(".stdout");
    let mut command = std::process::Command::new("sh");
    match columns {
        Some(c) => command.env("COLUMNS", c.to_string()),
        None => command.env_remove("COLUMNS"),
    };
    let mut child = command
        .args(["-c", &line])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.code().unwrap_or(-1));
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        code,
        std::fs::read_to_string(&err).unwrap_or_default(),
        std::fs::read_to_string(&out).unwrap_or_default(),
    )
}

/// Whether `line` is one `tahur` command printing a text report on stdout.
fn prints_text(line: &str) -> bool {
    !line.contains("&&")
        && !line.contains('|')
        && !line.contains('>')
        && !line.contains("--format")
        && !line.contains("--output")
        && !line.contains(" -o ")
        && !line.contains("--help")
        && !line.contains("completions")
        && !line.contains(" man")
}

/// The lines of `text` wider than `columns`.
fn too_wide(text: &str, columns: usize) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > columns)
        .map(String::from)
        .collect()
}

/// What a machine-readable report must hold: its settings (game, command, tool version; seed
/// and samples asked and run when the run draws), no percentage points, no yes/no as text.
fn machine_report_problems(json: &serde_json::Value) -> Vec<String> {
    let mut problems = Vec::new();
    let settings = &json["settings"];
    for key in ["game", "command", "version"] {
        if !settings[key].is_string() {
            problems.push(format!("settings.{key} missing"));
        }
    }
    if settings["samples_requested"].is_u64() != settings["samples_run"].is_u64() {
        problems.push("samples asked without samples run, or the other way".into());
    }
    fn walk(v: &serde_json::Value, path: &str, problems: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    if k.ends_with("_pp") || k.contains("per_100") {
                        problems.push(format!("{path}/{k}: a figure in points"));
                    }
                    // Rates are fractions, and so are differences of rates. (`rate`, `a_rate`
                    // and `b_rate` are per game: a fraction of games, or a scored game's points
                    // per game; an equity's `seat_N_share` is money.)
                    let per_game = ["rate", "a_rate", "b_rate"].contains(&k.as_str());
                    let bound = if (k.ends_with("_rate") && !per_game) || k == "fair_share" {
                        Some((0.0, 1.0))
                    } else if k.ends_with("edge") || k.ends_with("_change") && !k.contains("length")
                    {
                        Some((-1.0, 1.0))
                    } else {
                        None
                    };
                    if let (Some((lo, hi)), Some(x)) = (bound, x.as_f64()) {
                        if !(lo..=hi).contains(&x) {
                            problems.push(format!("{path}/{k}: {x} is not a fraction"));
                        }
                    }
                    if k != "notes" && k != "title" {
                        walk(x, &format!("{path}/{k}"), problems);
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for x in items {
                    walk(x, path, problems);
                }
            }
            serde_json::Value::String(s) if s == "yes" || s == "no" => {
                problems.push(format!("{path}: {s:?} is a boolean written as text"));
            }
            _ => {}
        }
    }
    walk(json, "", &mut problems);
    problems
}

#[test]
fn examples_are_read_whole_and_made_small() {
    let help = "Examples:\n  tahur a b --x 1 \\\n      --y 2 &&\n      tahur c\n  tahur d  # note\n\nMore text\n  tahur e\n";
    assert_eq!(
        examples(help),
        ["tahur a b --x 1 --y 2 && tahur c", "tahur d  # note"]
    );
    let mut helps = Helps(HashMap::new());
    assert_eq!(
        small(
            "tahur durak sim --players 4 --games 1e6 && tahur durak sim",
            &mut helps
        ),
        "tahur durak sim --players 4 --games 10 && tahur durak sim --games 10"
    );
    assert_eq!(
        small("tahur dudo prob 3 ases --dice 10 # exact", &mut helps),
        "tahur dudo prob --samples 2000 3 ases --dice 10 # exact"
    );
}

#[test]
fn every_help_example_runs_on_its_own() {
    let mut helps = Helps(HashMap::new());
    let mut all: Vec<(String, String)> = Vec::new();
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = stack.pop() {
        for e in examples(helps.get(&path)) {
            all.push((path.join(" "), e));
        }
        for s in helps.subcommands(&path) {
            let mut p = path.clone();
            p.push(s);
            stack.push(p);
        }
    }
    assert!(all.len() > 150, "only {} examples found", all.len());
    let scratch = tempfile::tempdir().unwrap();
    let has_man = run("command -v man", scratch.path()).0 == Some(0);
    let lines: Vec<(String, String, String)> = all
        .into_iter()
        .filter(|(_, e)| has_man || !e.contains("man -l"))
        .map(|(p, e)| {
            let s = small(&e, &mut helps);
            (p, e, s)
        })
        .collect();
    // Two at a time: the host has two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((path, example, line)) = lines.get(i) else {
                    break;
                };
                let dir = tempfile::tempdir().unwrap();
                let text = prints_text(line);
                // A text report is fitted to 80 columns here and to 100 below.
                let (code, err, out) = run_at(line, dir.path(), text.then_some(80));
                let fail = |what: String| {
                    failures.lock().unwrap().push(format!(
                        "tahur {path} --help: `{example}` (run as `{line}`) {what}"
                    ))
                };
                if code.is_some_and(|c| c != 0) {
                    fail(format!("exited {code:?}: {}", err.trim()));
                    continue;
                }
                if !text || code.is_none() {
                    continue;
                }
                let wide = too_wide(&out, 80);
                if !wide.is_empty() {
                    fail(format!(
                        "printed lines over 80 columns:\n{}",
                        wide.join("\n")
                    ));
                }
                let dir = tempfile::tempdir().unwrap();
                if let (Some(0), _, out) = run_at(line, dir.path(), Some(100)) {
                    let wide = too_wide(&out, 100);
                    if !wide.is_empty() {
                        fail(format!(
                            "printed lines over 100 columns:\n{}",
                            wide.join("\n")
                        ));
                    }
                }
                // The first text example of each command, once more for machines.
                let first = lines
                    .iter()
                    .position(|(p, _, l)| p == path && prints_text(l))
                    == Some(i);
                if !first {
                    continue;
                }
                let dir = tempfile::tempdir().unwrap();
                let as_json = format!("{} --format json", line.split(" #").next().unwrap_or(line));
                if let (Some(0), _, out) = run_at(&as_json, dir.path(), None) {
                    match serde_json::from_str::<serde_json::Value>(&out) {
                        Ok(v) => {
                            let problems = machine_report_problems(&v);
                            if !problems.is_empty() {
                                fail(format!("as JSON: {}", problems.join("; ")));
                            }
                        }
                        Err(e) => fail(format!("as JSON does not parse ({e})")),
                    }
                }
                let as_csv = format!("{} --format csv", line.split(" #").next().unwrap_or(line));
                if let (Some(0), _, out) = run_at(&as_csv, dir.path(), None) {
                    let header = out.lines().next().unwrap_or("");
                    let settings = out.lines().any(|l| l.starts_with("settings,1,version,"));
                    if header != "table,row,figure,value" || !settings {
                        fail(format!("as CSV starts {header:?} (settings: {settings})"));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
