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
