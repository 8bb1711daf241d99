//! The `tuned` strategy: the shipped tables (built in), a `dudo tune` output read at run time
//! (`tuned:FILE.csv`), and the nearest table size said when a table lacks the one played.

use crate::common;

use tahur::games::dudo::bots::{parse_tuned, shipped_tuned, Strategy};
use tahur::games::dudo::rules::RuleSet;

fn data(name: &str) -> String {
    format!("{}/data/dudo/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn shipped_tables_cover_two_to_eight_players_as_the_data_files_say() {
    for (set, file) in [
        (RuleSet::Chimbo9, "tuned-chimbo9.csv"),
        (RuleSet::Caleuchano, "tuned-caleuchano.csv"),
    ] {
        let rows = shipped_tuned(set);
        let sizes: Vec<u8> = rows.iter().map(|r| r.players).collect();
        assert_eq!(sizes, (2..=8).collect::<Vec<u8>>(), "{file}");
        let from_disk = parse_tuned(&std::fs::read_to_string(data(file)).unwrap(), file).unwrap();
        assert_eq!(
            rows,
            from_disk.as_slice(),
            "{file}: the built-in table is stale; rebuild"
        );
    }
}

#[test]
fn a_tuned_file_is_read_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = data("tuned-chimbo9.csv");
    let line = |s: &str| format!("dudo sim --players 4 --strategies {s} --games 3000 --seed 9");
    // The shipped file given by name plays exactly the built-in table.
    let built_in = common::run_json(&line("tuned")).to_string();
    let from_file = common::run_json(&line(&format!("tuned:{shipped}"))).to_string();
    assert_eq!(
        from_file.replace(&format!("tuned:{shipped}"), "tuned"),
        built_in
    );
    // An edited file changes the play: t = 0.9 doubts far more.
    let edited = dir.path().join("edited.csv");
    std::fs::write(&edited, "players,t,bluff\n4,0.9,0\n").unwrap();
    let e = common::run_json(&line(&format!("tuned:{}", edited.display())));
    let t = common::run_json(&line("threshold:t=0.9"));
    let strip = |v: &serde_json::Value, label: &str| v.to_string().replace(label, "X");
    assert_eq!(
        strip(&e, &format!("tuned:{}", edited.display())),
        strip(&t, "threshold:t=0.9"),
        "a one-row file plays its own parameters"
    );
    assert_ne!(
        strip(&e, &format!("tuned:{}", edited.display())),
        built_in.replace("tuned", "X")
    );
    // Its rows travel in shard files: a sharded run merges to the whole run.
    let spec = format!("tuned:{}", edited.display());
    common::reproducible(&[
        "dudo",
        "sim",
        "--players",
        "4",
        "--strategies",
        &spec,
        "--games",
        "2000",
        "--format",
        "json",
    ]);
}

#[test]
fn a_missing_table_size_plays_the_nearest_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.csv");
    std::fs::write(
        &file,
        "players,t,bluff,win_rate\n3,0.2,0.05,0.3\n6,0.3,0,0.2\n",
    )
    .unwrap();
    let spec = format!("tuned:{}", file.display());
    let s = Strategy::parse(&spec).unwrap();
    // 4 is nearer 3, 5 nearer 6; sizes in the table need no note.
    let note = s.note(RuleSet::Chimbo9, 4).unwrap();
    assert!(
        note.contains("no row for 4 players") && note.contains("3 players (t = 0.2, bluff = 0.05)"),
        "{note}"
    );
    assert!(s
        .note(RuleSet::Chimbo9, 5)
        .unwrap()
        .contains("6 players (t = 0.3"));
    assert!(s.note(RuleSet::Chimbo9, 3).is_none());
    assert_eq!(
        s.resolve(RuleSet::Chimbo9, 5),
        Strategy::Threshold { t: 0.3, bluff: 0.0 }
    );
    // The shipped tables stop at 8: a table of 10 says it plays 8's.
    let j = common::run_json("dudo sim --players 10 --strategies tuned,honest --games 40");
    let notes = j["notes"].to_string();
    assert!(
        notes.contains("no row for 10 players") && notes.contains("8 players"),
        "{notes}"
    );
    let j = common::run_json("dudo sim --players 8 --strategies tuned,honest --games 40");
    assert!(!j["notes"].to_string().contains("no row"), "{}", j["notes"]);
}

#[test]
fn bad_tuned_files_are_named_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("", "is empty"),
        ("players,t\n3,0.2\n", "no 'bluff' column"),
        ("players,t,bluff\n", "no rows"),
        (
            "players,t,bluff\n3,1.5,0\n",
            "line 2: t is not a number from 0 to 1",
        ),
        (
            "players,t,bluff\n1,0.5,0\n",
            "line 2: players is not 2 to 16",
        ),
        ("players,t,bluff\n3,0.5\n", "line 2: a missing column"),
        (
            "players,t,bluff\n3,0.5,0\n3,0.4,0\n",
            "line 3: a second row for 3 players",
        ),
    ];
    for (i, (text, says)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("bad{i}.csv"));
        std::fs::write(&f, text).unwrap();
        let spec = format!("tuned:{}", f.display());
        let e = common::fails(&["dudo", "sim", "--players", "3", "--strategies", &spec]);
        assert!(
            e.contains(&f.display().to_string()) && e.contains(says),
            "{text:?}: {e}"
        );
    }
    let e = common::fails(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--strategies",
        "tuned:/no/such.csv",
    ]);
    assert!(e.contains("/no/such.csv") && e.contains("dudo tune"), "{e}");
}
