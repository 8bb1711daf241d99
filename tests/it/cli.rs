//! The command line as a user meets it.

use crate::common;
use common::*;

#[test]
fn the_fifteen_cuadras_question() {
    let text = stdout(&["dudo", "prob", "15", "cuadras", "--dice", "30"]);
    assert!(
        text.contains("4.35 %") && text.contains("about 1 in 23"),
        "{text}"
    );
    let with_hand = stdout(&[
        "dudo",
        "prob",
        "15",
        "cuadras",
        "--dice",
        "30",
        "--hand",
        "1,4,4,2,6",
    ]);
    // 3 of your dice count; 12 more needed among 25 unknown: P(Bin(25, 1/3) ≥ 12) = 9.18 %
    assert!(with_hand.contains("9.18 %"), "{with_hand}");
}

#[test]
fn spoken_forms_give_the_same_answer() {
    let reference = json(&[
        "dudo", "prob", "15", "cuadras", "--dice", "30", "--format", "json",
    ])["exact"]
        .clone();
    for bid in [
        &["15x4"][..],
        &["15", "4"],
        &["quince", "cuadras"],
        &["15", "Cuarterolas"],
        &["15", "cuadra"],
    ] {
        let mut args = vec!["dudo", "prob"];
        args.extend_from_slice(bid);
        args.extend_from_slice(&["--players", "6", "--format", "json"]);
        assert_eq!(json(&args)["exact"], reference, "{bid:?}");
    }
}

#[test]
fn json_has_the_documented_numbers() {
    let v = json(&[
        "dudo",
        "prob",
        "15",
        "cuadras",
        "--dice",
        "30",
        "--samples",
        "200000",
        "--seed",
        "9",
        "--format",
        "json",
    ]);
    let exact = v["exact"].as_f64().unwrap();
    let est = v["estimate"].as_f64().unwrap();
    let ci = v["ci95"].as_array().unwrap();
    assert_eq!(v["samples"], 200000);
    assert_eq!(v["seed"], 9);
    assert!(ci[0].as_f64().unwrap() <= est && est <= ci[1].as_f64().unwrap());
    let se = v["standard_error"].as_f64().unwrap();
    assert!((est - exact).abs() < 4.5 * se, "{est} vs {exact}");
}

#[test]
fn same_seed_same_numbers_whatever_the_threads() {
    let base = [
        "dudo",
        "prob",
        "9",
        "trenes",
        "--dice",
        "20",
        "--hand",
        "3,3,1,5,6",
        "--samples",
        "300000",
        "--seed",
        "77",
    ];
    let one = stdout(&[&base[..], &["--threads", "1"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2"]].concat());
    let three = stdout(&[&base[..], &["--threads", "3"]].concat());
    assert_eq!(one, two);
    assert_eq!(one, three);
    let other: Vec<&str> = base
        .iter()
        .map(|&a| if a == "77" { "78" } else { a })
        .collect();
    let other_seed = stdout(&other);
    assert_ne!(one, other_seed, "the seed matters");
}

const SHARDED: &[&str] = &[
    "dudo",
    "prob",
    "12",
    "quinas",
    "--dice",
    "25",
    "--rules",
    "caleuchano",
    "--samples",
    "500000",
    "--seed",
    "3",
];

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "json", "csv", "markdown"] {
        let whole = stdout(&[SHARDED, &["--format", format]].concat());
        for n in [2u32, 3] {
            let files = shard_files(dir.path(), SHARDED, n);
            let mut args = vec!["merge"];
            // any order of the files
            args.extend(files.iter().rev().map(String::as_str));
            args.extend_from_slice(&["--format", format]);
            assert_eq!(stdout(&args), whole, "{format}, {n} shards");
        }
    }
}

#[test]
fn merge_refuses_what_does_not_belong_together() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), SHARDED, 3);
    let e = fails(&["merge", &files[0], &files[0], &files[1], &files[2]]);
    assert!(e.contains("shard 1/3 appears twice"), "{e}");
    let e = fails(&["merge", &files[0], &files[2]]);
    assert!(
        e.contains("shard 2/3 missing") && e.contains("--partial"),
        "{e}"
    );
    // --partial merges and says what is missing.
    let out = stdout(&["merge", &files[0], &files[2], "--partial"]);
    assert!(out.contains("Partial merge: shard 2/3 missing"), "{out}");
    let v = json(&[
        "merge",
        &files[0],
        &files[2],
        "--partial",
        "--format",
        "json",
    ]);
    let done = v["samples"].as_u64().unwrap();
    assert!(
        done < 500_000 && done > 0 && v["samples_requested"] == 500_000,
        "{v}"
    );

    let other_seed: Vec<&str> = SHARDED
        .iter()
        .map(|&a| if a == "3" { "4" } else { a })
        .collect();
    let sub = tempfile::tempdir().unwrap();
    let other = shard_files(sub.path(), &other_seed, 3);
    let e = fails(&["merge", &files[0], &other[1], &files[2]]);
    assert!(e.contains("different runs") && e.contains("seed"), "{e}");

    let other_q: Vec<&str> = SHARDED
        .iter()
        .map(|&a| if a == "quinas" { "senas" } else { a })
        .collect();
    let sub2 = tempfile::tempdir().unwrap();
    let other = shard_files(sub2.path(), &other_q, 3);
    let e = fails(&["merge", &files[0], &other[1], &files[2]]);
    assert!(e.contains("different questions"), "{e}");

    let split4 = tempfile::tempdir().unwrap();
    let four = shard_files(split4.path(), SHARDED, 4);
    let e = fails(&["merge", &files[0], &four[1]]);
    assert!(e.contains("split the run the same way"), "{e}");

    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}").unwrap();
    let e = fails(&["merge", junk.to_str().unwrap()]);
    assert!(
        e.contains("not a tahur shard file") && e.contains("junk.json"),
        "{e}"
    );
    let e = fails(&["merge", "/nonexistent/part.json"]);
    assert!(e.contains("cannot read '/nonexistent/part.json'"), "{e}");
}

#[test]
fn every_user_mistake_gets_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["dudo", "prob", "0", "cuadras", "--dice", "30"],
            "at least 1",
        ),
        (
            &["dudo", "prob", "15", "cuadrillas", "--dice", "30"],
            "cuadrillas",
        ),
        (&["dudo", "prob", "15x7", "--dice", "30"], "face '7'"),
        (&["dudo", "prob", "15", "7", "--dice", "30"], "face '7'"),
        (&["dudo", "prob", "-3", "cuadras", "--dice", "30"], "-3"),
        (
            &["dudo", "prob", "cuadras", "--dice", "30"],
            "expected a quantity",
        ),
        (&["dudo", "prob", "15", "cuadras", "--dice", "0"], "'0'"),
        (&["dudo", "prob", "15", "cuadras", "--dice", "-5"], "-5"),
        (
            &["dudo", "prob", "15", "cuadras", "--dice", "1000000"],
            "1000000",
        ),
        (
            &["dudo", "prob", "15", "cuadras", "--dice", "thirty"],
            "thirty",
        ),
        (&["dudo", "prob", "15", "cuadras"], "--dice"),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--players",
                "6",
            ],
            "--players",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "4",
                "--hand",
                "1,4,4,2,6",
            ],
            "--dice 4",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "8",
                "--hand",
                "1,2",
                "--shown",
                "3,3,3,3,3,3,3",
            ],
            "9 known dice",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--hand", "1,4,9",
            ],
            "'9'",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--hand",
                "1,4,4,2,6,6",
            ],
            "at most 5",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--shown", "0",
            ],
            "'0'",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--rules", "perudo",
            ],
            "perudo",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                "0",
            ],
            "at least 1 sample",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                "lots",
            ],
            "lots",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                "1e30",
            ],
            "1e30",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--threads",
                "0",
            ],
            "'0'",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--seed", "-1",
            ],
            "-1",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                "100",
                "--shard",
                "4/3",
            ],
            "4/3",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                "100",
                "--shard",
                "x",
            ],
            "'x'",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--shard", "1/2",
            ],
            "--samples",
        ),
        (
            &[
                "dudo", "prob", "15", "cuadras", "--dice", "30", "--format", "xml",
            ],
            "xml",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--output",
                "/nonexistent/dir/out.txt",
            ],
            "/nonexistent/dir/out.txt",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--obligado",
            ],
            "caleuchano",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--rules",
                "caleuchano",
                "--ace-round",
                "ceil",
            ],
            "--ace-round",
        ),
        (
            &[
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--ace-round",
                "up",
            ],
            "'up'",
        ),
        (&["dudo", "table", "--dice", "30", "--levels", "1.5"], "1.5"),
        (&["dudo", "table", "--dice", "30", "--levels", "abc"], "abc"),
        (
            &[
                "dudo",
                "table",
                "--dice",
                "30",
                "--chart",
                "/nonexistent/c.svg",
            ],
            "/nonexistent/c.svg",
        ),
        (
            &[
                "dudo",
                "advise",
                "99",
                "senas",
                "--dice",
                "30",
                "--hand",
                "1,2,3,4,5",
                "--top",
                "-1",
            ],
            "-1",
        ),
        (&["dudo", "holding", "--dice", "3"], "--dice 3"),
        (&["dudo", "frobnicate"], "frobnicate"),
        (&["merge"], "FILES"),
    ];
    for (args, needle) in cases {
        let e = fails(args);
        assert!(
            e.contains(needle),
            "{args:?}: message should name {needle}: {e}"
        );
    }
}

/// What issue 12 found silently accepted or answered with a misleading message: each is now
/// refused in one line that names the value and says why.
#[test]
fn slips_are_refused_with_the_reason() {
    let dudo_prob = ["dudo", "prob", "3", "cuadras", "--dice", "10"];
    let sim = ["dudo", "sim", "--players", "3", "--games", "10"];
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (
            [&dudo_prob[..], &["--hand", "1,,4"]].concat(),
            &["'1,,4'", "empty item between two commas"],
        ),
        (
            [&dudo_prob[..], &["--hand", ",,,,,,,,"]].concat(),
            &["',,,,,,,,'", "empty item"],
        ),
        (
            [&dudo_prob[..], &["--hand", "1,4,"]].concat(),
            &["after the last comma"],
        ),
        (
            [&sim[..], &["--strategies", "threshold,,random"]].concat(),
            &["--strategies 'threshold,,random'"],
        ),
        (
            vec!["veintiuno", "odds", "--removed", "AH,,AS"],
            &["--removed 'AH,,AS'"],
        ),
        (
            [&sim[..], &["--house", "lives=3,lives=5"]].concat(),
            &["'lives' is given twice"],
        ),
        (
            [&sim[..], &["--strategies", "threshold:t=0.3,t=0.2"]].concat(),
            &["'t' is given twice"],
        ),
        (
            [&sim[..], &["--strategies", "threshold:t="]].concat(),
            &["no value after '='"],
        ),
        (
            [&sim[..], &["--strategies", "sheet:"]].concat(),
            &["'sheet:'"],
        ),
        (
            vec!["veintiuno", "sim", "--players", "3", "--policies", "mimic:"],
            &["'mimic:'"],
        ),
        (
            [&sim[..], &["--strategies", "threshold:"]].concat(),
            &["'threshold:'"],
        ),
        (
            [&sim[..], &["--house", "obligado=on"]].concat(),
            &["obligado=on is a Caleuchano rule"],
        ),
        (
            [&sim[..], &["--house", "rules=caleuchano,ace-round=ceil"]].concat(),
            &["ace-round=ceil is a Chimbo 9 rule"],
        ),
        (
            vec!["veintiuno", "odds", "--house", "twelve=off"],
            &["--house twelve=off does not change"],
        ),
        (
            vec!["veintiuno", "bank", "--house", "puje=off"],
            &["--house puje=off", "decks, twelve and suited12"],
        ),
        (
            vec!["dudo", "table", "--dice", "10", "--levels", "-0.5"],
            &["'-0.5'", "(0, 1]"],
        ),
        (
            vec!["dudo", "table", "--dice", "1e5"],
            &["'1e5'", "out of range", "1 to 10000 dice"],
        ),
        (
            vec![
                "dudo", "advise", "3", "cuadras", "--dice", "10", "--top", "-1",
            ],
            &["'-1'", "negative"],
        ),
        (
            vec![
                "dudo", "advise", "3", "cuadras", "--dice", "10", "--top", "2.5",
            ],
            &["'2.5'", "not a whole number"],
        ),
        (
            vec!["durak", "sim", "--players", "-2"],
            &["'-2'", "negative", "2 to 8 players"],
        ),
        (
            vec![
                "durak",
                "sim",
                "--players",
                "3",
                "--variant",
                "perevodnoy",
                "--house",
                "variant=podkidnoy",
            ],
            &["sets what --variant already sets"],
        ),
        (
            vec!["durak", "sim", "--players", "3", "--house", "teams="],
            &["'teams='", "no value"],
        ),
        (
            vec!["veintiuno", "sim", "--players", "3", "--hands", "-5"],
            &["'-5'", "negative"],
        ),
        (
            vec!["veintiuno", "bank", "--bank-stand", "3e1"],
            &["'3e1'", "out of range", "12 to 21"],
        ),
    ];
    for (args, needles) in cases {
        let e = fails(&args);
        for needle in needles {
            assert!(
                e.contains(needle),
                "{args:?}: message should say {needle}: {e}"
            );
        }
    }
    // And the forms every count takes.
    let text = stdout(&[
        "dudo", "table", "--dice", "3e1", "--levels", "0.5", "--format", "csv",
    ]);
    assert_eq!(
        text,
        stdout(&["dudo", "table", "--dice", "30", "--format", "csv"])
    );
}

/// Shards that cannot be merged: the message names the field in which they differ.
#[test]
fn merge_names_the_field_that_differs() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).display().to_string();
    let base = ["durak", "sim", "--players", "3", "--games", "600"];
    let write = |extra: &[&str], shard: &str, name: &str| {
        stdout(&[&base[..], extra, &["--shard", shard, "--output", &d(name)]].concat());
    };
    write(&[], "1/2", "a.json");
    write(&["--variant", "perevodnoy"], "2/2", "b.json");
    write(&["--seed", "5"], "2/2", "c.json");
    let e = fails(&["merge", &d("a.json"), &d("b.json")]);
    assert!(
        e.contains("rules.variant") && e.contains("\"perevodnoy\"") && e.contains("\"podkidnoy\""),
        "{e}"
    );
    let e = fails(&["merge", &d("a.json"), &d("c.json")]);
    assert!(e.contains("seed 5 in") && e.contains("1 in"), "{e}");
}

#[test]
fn output_is_written_atomically_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odds.csv");
    let p = path.to_str().unwrap();
    let printed = stdout(&[
        "dudo", "prob", "15", "cuadras", "--dice", "30", "--format", "csv", "--output", p,
    ]);
    assert!(printed.is_empty());
    let csv = std::fs::read_to_string(&path).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("table,row,figure,value"));
    assert!(
        csv.contains("\nfigures,1,bid_quantity,15\nfigures,1,bid_face,4\n"),
        "{csv}"
    );
    assert!(csv.contains("\nfigures,1,exact,0.0434822757279"), "{csv}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary files left behind"
    );
}

#[test]
fn table_advise_and_holding() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("odds.svg");
    let v = json(&[
        "dudo",
        "table",
        "--players",
        "6",
        "--levels",
        "0.5,0.25",
        "--format",
        "json",
        "--chart",
        chart.to_str().unwrap(),
    ]);
    let rows = v["tables"]["probabilities"].as_array().unwrap();
    assert_eq!(rows[14]["quantity"], 15);
    assert!((rows[14]["face_4"].as_f64().unwrap() - 0.043482275727919).abs() < 1e-14);
    // highest cuadras bid still at least 50 % likely with 30 unknown dice: P(Bin(30,1/3) ≥ 10) = 58.4 %, ≥ 11: 41.6 %
    let th = v["tables"]["thresholds"].as_array().unwrap();
    assert_eq!(
        th[3]["at_50"],
        serde_json::json!({"quantity": 10, "face": 4})
    );
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.contains("<svg") && svg.contains("cuadras"));

    let a = json(&[
        "dudo",
        "advise",
        "15",
        "cuadras",
        "--dice",
        "30",
        "--hand",
        "1,4,4,2,6",
        "--format",
        "json",
    ]);
    assert!(
        (a["incoming_true"].as_f64().unwrap() - 0.0918).abs() < 0.0005,
        "{a}"
    );
    assert_eq!(a["recommendation"], "doubt");
    assert_eq!(
        a["incoming"],
        serde_json::json!({"quantity": 15, "face": 4})
    );
    assert_eq!(a["incoming_possible"], true);
    let raises = a["tables"]["raises"].as_array().unwrap();
    assert_eq!(raises.len(), 10);
    let ps: Vec<f64> = raises
        .iter()
        .map(|r| r["p_true"].as_f64().unwrap())
        .collect();
    assert!(ps.windows(2).all(|w| w[0] >= w[1]), "ranked by probability");

    let low = json(&[
        "dudo",
        "advise",
        "3",
        "cuadras",
        "--dice",
        "30",
        "--hand",
        "1,4,4,2,6",
        "--format",
        "json",
    ]);
    // 3 cenas and 4 cuadras both need one more counting die among 25: equally likely, and the
    // lower bid is listed first.
    assert_eq!(low["recommendation"], "raise", "{low}");
    assert_eq!(
        low["best_raise"],
        serde_json::json!({"quantity": 3, "face": 6}),
        "{low}"
    );
    assert_eq!(low["tables"]["raises"][1]["bid"], "4 cuadras");

    let h = stdout(&["dudo", "holding", "--players", "6", "--format", "csv"]);
    assert!(
        h.contains("\nholding,1,quantity,1\nholding,1,face_hold_0,"),
        "{h}"
    );
}

#[test]
fn help_has_examples() {
    for args in [
        &["--help"][..],
        &["dudo", "prob", "--help"],
        &["dudo", "table", "--help"],
        &["merge", "--help"],
    ] {
        let out = tahur().args(args).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Examples") || text.contains("Example:"),
            "{args:?}: {text}"
        );
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_prints_what_was_computed_with_its_true_sample_count() {
    use std::process::{Command as Std, Stdio};
    use std::time::Duration;
    let bin = crate::common::TAHUR;
    let child = Std::new(bin)
        .args([
            "dudo",
            "prob",
            "15",
            "cuadras",
            "--dice",
            "30",
            "--samples",
            "1e13",
            "--format",
            "json",
            "--threads",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let status = Std::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let done = v["samples"].as_u64().unwrap();
    assert!(done > 0 && done < 10_000_000_000_000, "{done}");
    assert_eq!(done % (1 << 16), 0, "whole chunks only");
    assert_eq!(v["samples_requested"], 10_000_000_000_000u64);
    let exact = v["exact"].as_f64().unwrap();
    let est = v["estimate"].as_f64().unwrap();
    assert!((est - exact).abs() < 4.5 * v["standard_error"].as_f64().unwrap());
    assert!(v["notes"][0].as_str().unwrap().starts_with("Interrupted"));
}

#[test]
fn game_simulations_are_reproducible_across_threads_and_shards() {
    let base = [
        "dudo",
        "sim",
        "--rules",
        "caleuchano",
        "--players",
        "4",
        "--strategies",
        "threshold:t=0.3,bluff=0.1,honest,random",
        "--games",
        "3000",
        "--seed",
        "5",
    ];
    let one = stdout(&[&base[..], &["--threads", "1", "--format", "json"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2", "--format", "json"]].concat());
    assert_eq!(one, two);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["games"], 3000);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    assert_eq!(seats[0]["strategy"], "threshold:t=0.3,bluff=0.1");
    let wins: u64 = seats.iter().map(|s| s["count"].as_u64().unwrap()).sum();
    assert_eq!(wins, 3000);
    for s in seats {
        let ci = s["ci95"].as_array().unwrap();
        let rate = s["rate"].as_f64().unwrap();
        assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    }
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), &[&base[..], &["--format", "json"]].concat(), 3);
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(stdout(&args), one);
}

#[test]
fn compare_paso_tune_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    let seats = dir.path().join("seats.svg");
    let length = dir.path().join("length.svg");
    stdout(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--games",
        "500",
        "--chart",
        seats.to_str().unwrap(),
        "--length-chart",
        length.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&seats).unwrap().contains("<rect"));
    assert!(std::fs::read_to_string(&length)
        .unwrap()
        .contains("<polyline"));

    let v = json(&[
        "dudo",
        "compare",
        "--players",
        "4",
        "--strategies",
        "threshold,honest",
        "--a",
        "rules=chimbo9",
        "--b",
        "rules=caleuchano",
        "--games",
        "4000",
        "--format",
        "json",
    ]);
    let rows = v["comparisons"].as_array().unwrap();
    // Every seat, then each strategy (both sit in two seats), the first opener, the edge, length.
    assert_eq!(rows[0]["metric"], "seat_1");
    assert!(rows
        .iter()
        .any(|r| r["metric"] == "strategy:threshold:t=0.4"));
    assert_eq!(rows.last().unwrap()["metric"], "length");
    for r in rows {
        let ci = r["ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
        assert!((0.0..=1.0).contains(&r["p_value"].as_f64().unwrap()));
    }
    let seq = stdout(&[
        "dudo",
        "compare",
        "--players",
        "3",
        "--strategies",
        "threshold,honest",
        "--a",
        "lives=3",
        "--b",
        "lives=5",
        "--until-decided",
        "--batch",
        "1000",
        "--games",
        "1e6",
    ]);
    assert!(seq.contains("sequential looks"), "{seq}");

    let p = json(&["dudo", "paso", "--format", "json"]);
    assert!((p["holds"].as_f64().unwrap() - 1176.0 / 7776.0).abs() < 1e-15);
    let p = json(&["dudo", "paso", "--shown", "4,4,4,4", "--format", "json"]);
    assert_eq!(p["holds"], 1.0);

    let out = dir.path().join("tuned");
    let t = json(&[
        "dudo",
        "tune",
        "--players",
        "3",
        "--games",
        "300",
        "--out-dir",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(t["tuned"][0]["players"], 3);
    let csv = std::fs::read_to_string(out.join("tuned-chimbo9.csv")).unwrap();
    assert!(
        csv.starts_with("players,t,bluff,") && csv.lines().count() == 2,
        "{csv}"
    );
}

/// `domino deal --samples` is a job as every simulation is: two shards merge into exactly the
/// whole run, its run options take every count form, and their mistakes are the user's (exit 2,
/// one line), never internal errors.
#[test]
fn domino_deal_samples_shard_and_merge_figure_for_figure() {
    // Two chunks of 65 536 deals and a part of a third: both shards deal.
    let v = two_shards_merge_to_the_whole(&[
        "domino",
        "deal",
        "--players",
        "4",
        "--samples",
        "140000",
        "--seed",
        "2e3",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["deals"].as_u64(), v["seed"].as_u64()),
        (Some(140_000), Some(2000))
    );
    let deal = ["domino", "deal", "--players", "4", "--samples", "1000"];
    for (extra, named) in [
        (&["--shard", "3/2"][..], "3/2"),
        (&["--threads", "0"], "'0'"),
        (&["--seed", "-1"], "-1"),
    ] {
        let e = fails(&[&deal[..], extra].concat());
        assert!(e.contains(named), "{extra:?}: {e}");
    }
    let e = fails(&["domino", "deal", "--players", "4", "--shard", "1/2"]);
    assert!(e.contains("--samples"), "{e}");
}

#[test]
fn game_command_mistakes_get_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["dudo", "sim", "--players", "1"], "'1'"),
        (&["dudo", "sim", "--players", "17"], "'17'"),
        (&["dudo", "sim"], "--players"),
        (
            &["dudo", "sim", "--players", "3", "--strategies", "smart"],
            "smart",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--strategies",
                "threshold:t=1.5",
            ],
            "1.5",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--strategies",
                "threshold:q=0.1",
            ],
            "'q'",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "2",
                "--strategies",
                "random,random,random",
            ],
            "3 strategies for 2 players",
        ),
        (
            &["dudo", "sim", "--players", "3", "--house", "paso=maybe"],
            "paso=maybe",
        ),
        (
            &["dudo", "sim", "--players", "3", "--house", "colour=red"],
            "colour",
        ),
        (
            &["dudo", "sim", "--players", "3", "--house", "lives=0"],
            "lives=0",
        ),
        (
            &["dudo", "sim", "--players", "3", "--house", "rules=perudo"],
            "perudo",
        ),
        (&["dudo", "sim", "--players", "3", "--games", "0"], "'0'"),
        (&["dudo", "sim", "--players", "3", "--shard", "2/1"], "2/1"),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--shard",
                "1/2",
                "--chart",
                "x.svg",
            ],
            "--chart",
        ),
        (
            &[
                "dudo",
                "compare",
                "--players",
                "3",
                "--a",
                "paso=off",
                "--b",
                "paso=off",
            ],
            "same table",
        ),
        (
            &[
                "dudo",
                "compare",
                "--players",
                "3",
                "--a",
                "paso=on",
                "--until-decided",
                "--shard",
                "1/2",
            ],
            "--shard",
        ),
        (
            &[
                "dudo",
                "compare",
                "--players",
                "3",
                "--a",
                "paso=on",
                "--alpha",
                "2",
            ],
            "'2'",
        ),
        (&["dudo", "paso", "--shown", "1,2,3,4,5,6"], "a cup holds 5"),
        (&["dudo", "paso", "--shown", "7"], "'7'"),
        (
            &["dudo", "tune", "--field", "tuned", "--out-dir", "unused"],
            "tuned",
        ),
        (&["dudo", "tune", "--players", "1"], "'1'"),
    ];
    for (args, needle) in cases {
        let e = fails(args);
        assert!(
            e.contains(needle),
            "{args:?}: message should name {needle}: {e}"
        );
    }
}

#[test]
fn veintiuno_commands() {
    let v = json(&["veintiuno", "odds", "--format", "json"]);
    for key in [
        "natural21",
        "monona",
        "twelve",
        "twelve_suited",
        "thirteen",
        "relancina",
    ] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}");
    }
    assert!((v["natural21"].as_f64().unwrap() - 48.0 / 780.0).abs() < 1e-15);
    let b = json(&["veintiuno", "bank", "--format", "json"]);
    assert_eq!(b["bank"].as_array().unwrap().len(), 10);
    let base = [
        "veintiuno",
        "sim",
        "--players",
        "4",
        "--hands",
        "20000",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let one = stdout(&[&base[..], &["--threads", "1"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["hands"], 20000);
    let seats_net: i64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["net"].as_i64().unwrap())
        .sum();
    assert_eq!(
        seats_net + v["bank_net"].as_i64().unwrap(),
        0,
        "money conserved"
    );
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), &base, 3);
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(stdout(&args), one);
    for (args, needle) in [
        (&["veintiuno", "odds", "--removed", "8H"][..], "8H"),
        (&["veintiuno", "odds", "--removed", "AH,AH"], "AH"),
        (&["veintiuno", "odds", "--house", "decks=9"], "decks=9"),
        (&["veintiuno", "sim", "--players", "9"], "'9'"),
        (
            &[
                "veintiuno",
                "sim",
                "--players",
                "4",
                "--policies",
                "cautious",
            ],
            "cautious",
        ),
        (
            &[
                "veintiuno",
                "sim",
                "--players",
                "4",
                "--policies",
                "mimic:30",
            ],
            "mimic:30",
        ),
        (
            &["veintiuno", "sim", "--players", "4", "--hands", "0"],
            "'0'",
        ),
        (&["veintiuno", "bank", "--bank-stand", "25"], "25"),
        (
            &[
                "veintiuno",
                "sim",
                "--players",
                "4",
                "--house",
                "puje=sometimes",
            ],
            "puje=sometimes",
        ),
    ] {
        let e = fails(args);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}

#[test]
fn veintiuno_strategy_and_compare() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("strategy.json");
    let svg = dir.path().join("ev.svg");
    let v = json(&[
        "veintiuno",
        "strategy",
        "--samples",
        "400",
        "--format",
        "json",
        "--write",
        sheet.to_str().unwrap(),
        "--chart",
        svg.to_str().unwrap(),
    ]);
    // Its seed and threads are the run options of every command: threads change nothing.
    let one = json(&[
        "veintiuno",
        "strategy",
        "--samples",
        "400",
        "--format",
        "json",
        "--threads",
        "1",
        "--seed",
        "1e0",
    ]);
    assert_eq!(one, v);
    let moves = v["moves"].as_array().unwrap();
    // hard 20 stands against every up card; hard 4 hits against every up card
    let row = |name: &str| moves.iter().find(|r| r["hand"] == name).unwrap().clone();
    for up in ["A", "2", "3", "4", "5", "6", "7", "F"] {
        assert_eq!(row("hard 20")[up], "S", "hard 20 vs {up}");
        assert_eq!(row("hard 4")[up], "H", "hard 4 vs {up}");
    }
    // The written sheet plays as a policy.
    let policy = format!("sheet:{}", sheet.display());
    let sim = json(&[
        "veintiuno",
        "sim",
        "--players",
        "2",
        "--policies",
        &policy,
        "--hands",
        "5000",
        "--format",
        "json",
    ]);
    assert_eq!(sim["seats"][0]["policy"], policy);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));

    let c = json(&[
        "veintiuno",
        "compare",
        "--players",
        "4",
        "--a",
        "puje=on",
        "--b",
        "puje=off",
        "--hands",
        "200000",
        "--format",
        "json",
    ]);
    let rows = c["comparisons"].as_array().unwrap();
    assert_eq!(rows[0]["metric"], "banks_result");
    let ci = rows[0]["ci95"].as_array().unwrap();
    let d = rows[0]["difference"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= d && d <= ci[1].as_f64().unwrap());
    for (args, needle) in [
        (&["veintiuno", "compare", "--players", "4", "--a", "puje=off", "--b", "puje=off"][..], "same table"),
        (&["veintiuno", "compare", "--players", "4", "--a", "decks=0"], "decks=0"),
        (&["veintiuno", "strategy", "--samples", "5"], "'5'"),
        (&["veintiuno", "strategy", "--removed", "AH,AS,AD,AC,2H,2S,2D,2C,3H,3S,3D,3C,4H,4S,4D,4C,5H,5S,5D,5C,6H,6S,6D,6C,7H,7S,7D,7C,JH,JS"], "fewer than 12"),
    ] {
        let e = fails(args);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}

/// Inputs once run as if absent, ignored, or answered with a misleading message: each is now
/// one line naming the value and what is accepted, exit 2.
#[test]
fn empty_lists_ignored_flags_and_misleading_messages_are_answered() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["dudo", "prob", "3", "cuadras", "--dice", "10", "--hand", ""],
            &["--hand '' is empty", "1,4,4,2,6"],
        ),
        (
            &[
                "dudo", "prob", "3", "cuadras", "--dice", "10", "--shown", "",
            ],
            &["--shown '' is empty"],
        ),
        (&["dudo", "paso", "--shown", " "], &["--shown ' ' is empty"]),
        (
            &["veintiuno", "odds", "--removed", ""],
            &["--removed '' is empty", "AH,AS,KD"],
        ),
        (
            &["domino", "deal", "--players", "4", "--hand", "6-6,,5-5"],
            &["--hand '6-6,,5-5'", "empty item between two commas"],
        ),
        (
            &[
                "domino",
                "sim",
                "--players",
                "2",
                "--no-pairs",
                "--games",
                "10",
            ],
            &[
                "--no-pairs changes nothing",
                "2 players",
                "pairs is off already",
            ],
        ),
        (
            &[
                "domino",
                "sim",
                "--players",
                "3",
                "--house",
                "pairs=off",
                "--games",
                "10",
            ],
            &["--house pairs=off changes nothing", "3 players"],
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--games",
                "100",
                "--shard",
                "1/2",
                "--format",
                "markdown",
            ],
            &["--format markdown with --shard", "JSON"],
        ),
        (
            &[
                "durak",
                "compare",
                "--players",
                "3",
                "--b",
                "variant=perevodnoy",
                "--batch",
                "1000",
            ],
            &["--batch 1000 is read only by --until-decided"],
        ),
        (
            &[
                "ocho",
                "compare",
                "--players",
                "3",
                "--b",
                "joker=three",
                "--alpha",
                "0.01",
            ],
            &["--alpha 0.01 is read only by --until-decided"],
        ),
        (
            &["dudo", "sim", "--players", "3", "--games", "1e30"],
            &["'1e30'", "at most 1000000000000000 (1e15) games"],
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--games",
                "100",
                "--shard",
                "-1/3",
            ],
            &["invalid --shard '-1/3'", "1 ≤ K ≤ N"],
        ),
        (
            &["poker", "reroll", "--dice", "AAKQJ"],
            &["--beat", "--reach"],
        ),
        (
            &[],
            &["tahur needs a command", "dudo", "veintiuno", "tahur --help"],
        ),
        (
            &["dudo"],
            &["tahur dudo needs a command", "prob", "tahur dudo --help"],
        ),
    ];
    for (args, says) in cases {
        let err = fails(args);
        for s in *says {
            assert!(err.contains(s), "{args:?}: {s:?} not in {err}");
        }
    }
    // The same switches where they mean something still run.
    stdout(&[
        "domino",
        "sim",
        "--players",
        "4",
        "--no-pairs",
        "--games",
        "10",
    ]);
}

/// A mistyped command, flag or value is answered with the close one, on the one error line.
#[test]
fn did_you_mean_for_commands_flags_and_values() {
    for (args, suggestion) in [
        (&["dudu"][..], "did you mean 'dudo'?"),
        (
            &["durak", "sim", "--player", "4"],
            "did you mean '--players'?",
        ),
        (&["dudo", "porb", "3", "ases"], "did you mean 'prob'?"),
        (
            &["veintiuno", "sim", "--hnads", "100"],
            "did you mean '--hands'?",
        ),
        (&["completions", "bsh"], "did you mean 'bash'?"),
    ] {
        let e = common::fails(args);
        assert!(e.contains(suggestion), "{args:?}: {e}");
        assert!(e.contains("(see --help)"), "{args:?}: {e}");
    }
    // Nothing close: no suggestion.
    let e = common::fails(&["durak", "sim", "--zzzzzz", "4"]);
    assert!(!e.contains("did you mean"), "{e}");
}

/// A CSV report has the same four columns whatever the flags: `dudo prob` without and with
/// `--samples` (which adds the simulated figures as rows, not columns).
#[test]
fn csv_has_the_same_columns_with_and_without_optional_flags() {
    let exact = stdout(&[
        "dudo", "prob", "15", "cuadras", "--dice", "30", "--format", "csv",
    ]);
    let sampled = stdout(&[
        "dudo",
        "prob",
        "15",
        "cuadras",
        "--dice",
        "30",
        "--samples",
        "2000",
        "--format",
        "csv",
    ]);
    let header = |csv: &str| csv.lines().next().unwrap_or("").to_string();
    assert_eq!(header(&exact), "table,row,figure,value");
    assert_eq!(header(&sampled), header(&exact));
    let figures = |csv: &str| {
        csv.lines()
            .filter(|l| l.starts_with("figures,1,"))
            .map(|l| l.split(',').nth(2).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let (a, b) = (figures(&exact), figures(&sampled));
    assert!(a.iter().all(|f| b.contains(f)), "{a:?} {b:?}");
    for f in ["estimate", "ci95_low", "ci95_high", "standard_error"] {
        assert!(
            b.contains(&f.to_string()) && !a.contains(&f.to_string()),
            "{f}"
        );
    }
    // Every line has four cells, quoted where a value holds a comma.
    for line in csv::Reader::from_reader(sampled.as_bytes()).records() {
        assert_eq!(line.unwrap().len(), 4);
    }
}

/// One meaning per flag: the renamed flags' old spellings still work for a release, give the
/// same report as the new ones (JSON byte for byte: settings name the arguments by their new
/// ids) and say the new name on stderr; a bare number given to Dominó deal's `--hand` is still
/// the hand size.
#[test]
fn old_flag_spellings_work_and_name_the_new_ones() {
    let cases: [(&[&str], &[&str], &str); 5] = [
        (
            &[
                "durak",
                "sim",
                "--players",
                "3",
                "--deck",
                "52",
                "--hand",
                "7",
                "--games",
                "50",
            ],
            &[
                "durak",
                "sim",
                "--players",
                "3",
                "--deck",
                "52",
                "--hand-size",
                "7",
                "--games",
                "50",
            ],
            "--hand is now --hand-size",
        ),
        (
            &[
                "poker",
                "reroll",
                "--dice",
                "AAKQJ",
                "--beat",
                "trío de reyes",
            ],
            &[
                "poker",
                "reroll",
                "--hand",
                "AAKQJ",
                "--beat",
                "trío de reyes",
            ],
            "--dice is now --hand",
        ),
        (
            &[
                "domino",
                "deal",
                "--players",
                "4",
                "--holding",
                "6-6,6-1,5-4,3-3,2-0,1-1",
            ],
            &[
                "domino",
                "deal",
                "--players",
                "4",
                "--hand",
                "6-6,6-1,5-4,3-3,2-0,1-1",
            ],
            "--holding is now --hand",
        ),
        (
            &["domino", "deal", "--players", "2", "--hand", "7"],
            &["domino", "deal", "--players", "2", "--hand-size", "7"],
            "--hand 7 is read as --hand-size 7",
        ),
        (
            &["poker", "equity", "--score", "2,1,0", "--games", "30"],
            &["poker", "equity", "--match", "2,1,0", "--games", "30"],
            "--score is now --match",
        ),
    ];
    for (old, new, note) in cases {
        let run = |args: &[&str]| {
            let out = common::tahur()
                .args(args)
                .args(["--format", "json"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            (
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap(),
            )
        };
        let (old_out, old_err) = run(old);
        let (new_out, new_err) = run(new);
        let strip = |s: &str| {
            let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
            // The command line's own arguments differ in spelling only where a bare number
            // went to the old flag.
            v["settings"].as_object_mut().unwrap().remove("hand");
            v["settings"].as_object_mut().unwrap().remove("hand_size");
            v
        };
        assert_eq!(strip(&old_out), strip(&new_out), "{old:?}");
        assert!(old_err.contains(note), "{old:?}: {old_err}");
        assert!(!new_err.contains("note"), "{new:?}: {new_err}");
    }
    // Hidden: no help, completion or man page shows the old names.
    let help = stdout(&["poker", "reroll", "--help"]);
    assert!(
        help.contains("--hand <DICE>") && !help.contains("--dice"),
        "{help}"
    );
    let help = stdout(&["durak", "sim", "--help"]);
    assert!(
        help.contains("--hand-size <N>") && !help.contains("--hand <"),
        "{help}"
    );
}

/// `--chart FILE.png` writes a PNG for every command that draws, the new charts of compare,
/// ocho value and veintiuno sim among them; `.svg` an SVG that says the run's size.
#[test]
fn charts_are_png_or_svg_as_named_for_every_command_that_draws() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 5] = [
        &["durak", "sim", "--players", "3", "--games", "200"],
        &[
            "durak",
            "compare",
            "--players",
            "3",
            "--b",
            "variant=perevodnoy",
            "--games",
            "200",
        ],
        &["durak", "flags", "--players", "3", "--games", "100"],
        &["ocho", "value", "--players", "3", "--deals", "60"],
        &["veintiuno", "sim", "--players", "3", "--hands", "2000"],
    ];
    for (i, args) in runs.iter().enumerate() {
        let png = dir.path().join(format!("c{i}.png"));
        let svg = dir.path().join(format!("c{i}.svg"));
        for (file, png_file) in [(&png, true), (&svg, false)] {
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["--chart", file.to_str().unwrap()]);
            stdout(&a);
            let bytes = std::fs::read(file).unwrap();
            assert_eq!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), png_file, "{a:?}");
            if !png_file {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.contains("· seed 1"), "{a:?}: no run note");
            }
        }
    }
    // A chart of one shard is refused: merge draws it from the whole run.
    let e = common::fails(&[
        "ocho",
        "value",
        "--players",
        "3",
        "--deals",
        "60",
        "--shard",
        "1/2",
        "--chart",
        dir.path().join("x.svg").to_str().unwrap(),
    ]);
    assert!(e.contains("--chart") && e.contains("--shard"), "{e}");
}
