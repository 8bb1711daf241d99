//! Shell completions and manual pages come from the same clap definitions as the commands.

use crate::common;

use common::stdout;

#[test]
fn completion_scripts_know_every_game_and_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        // Fish names long flags as `-l players`, the others as `--players`.
        for word in [
            "dudo",
            "durak",
            "veintiuno",
            "merge",
            "tournament",
            "flags",
            "players",
        ] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
        let players_flag = if shell == "fish" {
            "-l players"
        } else {
            "--players"
        };
        assert!(
            script.contains(players_flag),
            "{shell} completion lacks {players_flag}"
        );
    }
    // A whole-game command built by the shared layer is there with its game's own flags.
    let bash = stdout(&["completions", "bash"]);
    assert!(bash.contains("--variant") && bash.contains("--until-decided"));
    let e = common::fails(&["completions", "tcsh"]);
    assert!(e.contains("tcsh") && e.contains("bash"), "{e}");
}

#[test]
fn manual_pages_for_the_tool_and_every_command() {
    let page = stdout(&["man"]);
    assert!(
        page.contains(".TH tahur 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    assert!(page.contains("durak") && page.contains("merge"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man");
    stdout(&["man", "--out-dir", out.to_str().unwrap()]);
    let sim = std::fs::read_to_string(out.join("tahur-durak-sim.1")).unwrap();
    assert!(
        sim.contains(".TH tahur\\-durak\\-sim 1") || sim.contains(".TH tahur-durak-sim 1"),
        "{sim}"
    );
    assert!(sim.contains("players") && sim.contains("variant"));
    for page in [
        "tahur.1",
        "tahur-dudo-prob.1",
        "tahur-veintiuno-bank.1",
        "tahur-merge.1",
    ] {
        assert!(out.join(page).is_file(), "{page}");
    }
}

/// The bash script's options and what each completes to: `(option, words)` for fixed words,
/// `(option, "FILES")` for file names.
fn bash_completions(script: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut option = String::new();
    for line in script.lines() {
        let t = line.trim();
        if t.starts_with('-') && t.ends_with(')') && !t.contains(' ') {
            option = t.trim_end_matches(')').to_string();
        } else if let Some(rest) = t.strip_prefix("COMPREPLY=($(compgen -W \"") {
            if let Some((words, _)) = rest.split_once('"') {
                out.push((option.clone(), words.to_string()));
            }
        } else if t.contains("compgen -f") {
            out.push((option.clone(), "FILES".to_string()));
        }
    }
    out
}

#[test]
fn completions_offer_every_fixed_value_and_file_names_only_for_files() {
    let bash = stdout(&["completions", "bash"]);
    let found = bash_completions(&bash);
    // File names only after a flag that names a file to write (`--state` is also read back)
    // or a table to read (`--judge`).
    for (option, words) in &found {
        if words == "FILES" {
            assert!(
                [
                    "--output",
                    "-o",
                    "--chart",
                    "--strategy-chart",
                    "--length-chart",
                    "--write",
                    "--state",
                    "--judge"
                ]
                .contains(&option.as_str()),
                "{option} completes file names"
            );
        }
    }
    let offers = |option: &str, word: &str| {
        found
            .iter()
            .any(|(o, w)| o == option && w.split(' ').any(|x| x == word))
    };
    for (option, words) in [
        ("--variant", &["podkidnoy", "perevodnoy", "platkowy"][..]),
        ("--teams", &["2x2", "3x3", "2x2x2"]),
        (
            "--score",
            &["game", "pips", "all-fives", "fives-and-threes"],
        ),
        ("--joker", &["any", "three"]),
        ("--first-card", &["plain", "acts"]),
        ("--deck", &["36", "52"]),
        ("--set", &["6", "9"]),
        ("--rules", &["chimbo9", "caleuchano", "plain"]),
        ("--ace-round", &["floor", "ceil"]),
        ("--format", &["text", "json", "csv", "markdown"]),
        (
            "--strategies",
            &[
                "random",
                "greedy",
                "expert",
                "sheet",
                "ismcts",
                "honest",
                "threshold",
                "tuned",
                "heaviest",
                "company",
                "scorer",
                "basic",
                "mimic",
            ],
        ),
        ("--field", &["honest", "threshold", "random"]),
    ] {
        for w in words {
            assert!(offers(option, w), "{option} does not offer {w}");
        }
    }
    // A range or a free value offers no words (and no files).
    for option in ["--hand", "--players", "--seed", "--games", "--house"] {
        assert!(
            found.iter().all(|(o, _)| o != option),
            "{option} completes to something: {:?}",
            found
                .iter()
                .filter(|(o, _)| o == option)
                .collect::<Vec<_>>()
        );
    }
    // Fish: the same words, and no file names after --variant.
    let fish = stdout(&["completions", "fish"]);
    let variant: Vec<&str> = fish.lines().filter(|l| l.contains("-l variant ")).collect();
    assert!(!variant.is_empty());
    for l in variant {
        assert!(l.contains(" -f ") && l.contains("perevodnoy"), "{l}");
    }
}

#[test]
fn manual_examples_are_set_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man");
    stdout(&["man", "--out-dir", out.to_str().unwrap()]);
    let mut examples = 0;
    for entry in std::fs::read_dir(&out).unwrap() {
        let page = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            page.contains("\n.nh\n.ad l\n"),
            "hyphenation or justification on"
        );
        let mut verbatim = false;
        for line in page.lines() {
            match line {
                ".nf" => verbatim = true,
                ".fi" => verbatim = false,
                _ if line.starts_with("  tahur ") || line.starts_with("  cargo ") => {
                    assert!(verbatim, "an example set as prose: {line}");
                    examples += 1;
                }
                _ => {}
            }
        }
        assert!(!verbatim, "a verbatim block left open");
    }
    assert!(examples > 100, "{examples} examples");
    // As man renders it: the long example stays whole, unhyphenated, on its own line.
    let page = std::fs::read_to_string(out.join("tahur-durak-compare.1")).unwrap();
    assert!(page.contains("\n.nf\n  tahur durak compare "), "{page}");
    assert!(page.contains("\\-\\-until\\-decided \\\\\n"), "{page}");
}
