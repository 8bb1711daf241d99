//! `tahur GAME sim | compare | tournament | flags` for every game, as a user meets them: the
//! shared JSON names, reproducibility across threads and shards for the commands the shared
//! layer added (dudo tournament and flags, veintiuno tournament and flags, durak compare
//! --until-decided), their mistakes and their help.

use crate::common;
use common::*;

/// The JSON of `tahur ARGS --format json`.
fn json_out(args: &[&str]) -> serde_json::Value {
    json(&[args, &["--format", "json"]].concat())
}

fn has(v: &serde_json::Value, keys: &[&str], what: &str) {
    for k in keys {
        assert!(!v[k].is_null(), "{what}: no '{k}' in {v}");
    }
}

#[test]
fn every_game_reports_under_the_same_names() {
    for args in [
        &[
            "dudo",
            "sim",
            "--players",
            "4",
            "--strategies",
            "tuned,honest",
            "--games",
            "400",
        ][..],
        &[
            "durak",
            "sim",
            "--players",
            "3",
            "--strategies",
            "greedy,random",
            "--games",
            "400",
        ],
    ] {
        let v = json_out(args);
        has(
            &v,
            &[
                "games",
                "seed",
                "event",
                "mean_length",
                "mean_length_ci95",
                "median_length",
                "first_player_rate",
                "first_player_ci95",
                "fair_share",
                "first_player_p_value",
                "first_player_edge",
                "seat_p_value",
                "seats",
                "strategies",
            ],
            args[0],
        );
        for row in v["seats"].as_array().unwrap() {
            has(row, &["seat", "strategy", "count", "rate", "ci95"], "seats");
        }
        for row in v["strategies"].as_array().unwrap() {
            has(
                row,
                &["strategy", "seats", "count", "rate", "ci95"],
                "strategies",
            );
        }
        for row in v["tables"]["positions"].as_array().unwrap() {
            has(row, &["position", "count", "rate", "ci95"], "positions");
        }
        for row in v["tables"]["length"].as_array().unwrap() {
            has(row, &["length", "games", "share"], "length");
        }
        // The first player's edge is the rate against the fair share, signed as an advantage.
        let rate = v["first_player_rate"].as_f64().unwrap();
        let fair = v["fair_share"].as_f64().unwrap();
        let edge = v["first_player_edge"].as_f64().unwrap();
        let expected = if v["event"] == "wins" {
            rate - fair
        } else {
            fair - rate
        };
        assert!((edge - 100.0 * expected).abs() < 1e-9, "{args:?}");
    }
    for args in [
        &[
            "dudo",
            "compare",
            "--players",
            "3",
            "--b",
            "lives=5",
            "--games",
            "300",
        ][..],
        &[
            "durak",
            "compare",
            "--players",
            "2",
            "--b",
            "variant=perevodnoy",
            "--games",
            "300",
        ],
        &[
            "veintiuno",
            "compare",
            "--players",
            "4",
            "--b",
            "puje=off",
            "--hands",
            "20000",
            "--detect",
            "0.01",
        ],
    ] {
        let v = json_out(args);
        has(&v, &["seed", "a", "b", "comparisons"], args[0]);
        for row in v["comparisons"].as_array().unwrap() {
            has(
                row,
                &[
                    "metric",
                    "a",
                    "b",
                    "difference",
                    "ci95",
                    "p_value",
                    "effect_size",
                ],
                "comparisons",
            );
            assert!(row.get("needed").is_some() && row.get("needed_given").is_some());
        }
    }
    for args in [
        &[
            "dudo",
            "tournament",
            "--players",
            "3",
            "--strategies",
            "honest,tuned",
            "--games",
            "200",
        ][..],
        &[
            "durak",
            "tournament",
            "--players",
            "2",
            "--strategies",
            "random,greedy",
            "--games",
            "200",
        ],
        &[
            "veintiuno",
            "tournament",
            "--players",
            "2",
            "--strategies",
            "basic,sheet",
            "--hands",
            "20000",
        ],
    ] {
        let v = json_out(args);
        for row in v["ranking"].as_array().unwrap() {
            has(
                row,
                &["rank", "strategy", "rate", "ci95", "beats", "significant"],
                "ranking",
            );
        }
        for row in v["pairs"].as_array().unwrap() {
            has(
                row,
                &[
                    "a",
                    "b",
                    "games",
                    "a_rate",
                    "a_ci95",
                    "b_rate",
                    "b_ci95",
                    "difference",
                    "ci95",
                    "p_value",
                ],
                "pairs",
            );
        }
    }
    for args in [
        &["dudo", "flags", "--players", "3", "--games", "200"][..],
        &["durak", "flags", "--players", "2", "--games", "200"],
        &["veintiuno", "flags", "--players", "3", "--hands", "8192"],
    ] {
        let v = json_out(args);
        has(&v, &["table", "fairest", "changes"], args[0]);
        let rows = v["changes"].as_array().unwrap();
        assert_eq!(rows[0]["change"], "(the table as given)");
        assert!(rows.len() > 3, "{args:?}");
    }
}

#[test]
fn the_new_commands_are_reproducible_and_shard() {
    let v: serde_json::Value = serde_json::from_str(&reproducible(&[
        "dudo",
        "tournament",
        "--players",
        "4",
        "--strategies",
        "random,threshold,tuned",
        "--games",
        "300",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["ranking"][2]["strategy"], "random");
    let v: serde_json::Value = serde_json::from_str(&reproducible(&[
        "dudo",
        "flags",
        "--rules",
        "caleuchano",
        "--players",
        "3",
        "--strategies",
        "tuned",
        "--games",
        "600",
        "--format",
        "json",
    ]))
    .unwrap();
    let names: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["change"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"rules=chimbo9")
            && names.contains(&"paso=off")
            && names.contains(&"lives=3"),
        "{names:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&reproducible(&[
        "veintiuno",
        "tournament",
        "--players",
        "2",
        "--strategies",
        "basic,sheet",
        "--hands",
        "10000",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["hands"], 10000);
    let v: serde_json::Value = serde_json::from_str(&reproducible(&[
        "veintiuno",
        "flags",
        "--players",
        "3",
        "--hands",
        "12000",
        "--format",
        "json",
    ]))
    .unwrap();
    // 21 in two cards paid even money instead of double helps the bank.
    let natural = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["change"] == "natural=1")
        .unwrap();
    assert!(
        natural["bank_s_result_change"].as_f64().unwrap() > 0.05,
        "{natural}"
    );
    reproducible(&[
        "veintiuno",
        "compare",
        "--players",
        "4",
        "--b",
        "decks=2",
        "--hands",
        "12000",
        "--format",
        "json",
    ]);
    // Sequential comparisons decide as they go: the same on any threads, never sharded.
    let base = [
        "durak",
        "compare",
        "--players",
        "4",
        "--b",
        "teams=2x2",
        "--until-decided",
        "--batch",
        "2000",
        "--games",
        "64000",
    ];
    let one = stdout(&[&base[..], &["--threads", "1", "--format", "json"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2", "--format", "json"]].concat());
    assert_eq!(one, two);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["decided"], "yes", "teams of two change who loses: {v}");
    assert_eq!(v["primary"], "the first attacker is the durak");
    assert!(v["looks"].as_u64().unwrap() >= 1);
}

#[test]
fn charts_of_the_new_commands() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            &[
                "dudo",
                "tournament",
                "--players",
                "3",
                "--strategies",
                "honest,tuned",
                "--games",
                "100",
            ][..],
            "tuned",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--strategies",
                "honest,tuned",
                "--games",
                "100",
            ][..],
            "honest",
        ),
        (
            &["veintiuno", "flags", "--players", "2", "--hands", "4096"][..],
            "as given",
        ),
        (
            &[
                "veintiuno",
                "tournament",
                "--players",
                "2",
                "--strategies",
                "basic,sheet",
                "--hands",
                "4096",
            ][..],
            "sheet",
        ),
    ] {
        let path = dir.path().join(format!("{}-{}.svg", args[0], args[1]));
        let mut a = args.to_vec();
        a.extend(["--chart", path.to_str().unwrap()]);
        stdout(&a);
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains(needle), "{args:?}");
    }
    let strategies = dir.path().join("strategies.svg");
    stdout(&[
        "dudo",
        "sim",
        "--players",
        "4",
        "--strategies",
        "honest,tuned",
        "--games",
        "100",
        "--strategy-chart",
        strategies.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&strategies)
        .unwrap()
        .contains("tuned"));
}

#[test]
fn mistakes_in_the_new_commands_get_one_line_and_exit_2() {
    for (args, needle) in [
        (
            &["dudo", "sim", "--players", "3", "--series", "3"][..],
            "--series",
        ),
        (
            &[
                "dudo",
                "tournament",
                "--players",
                "3",
                "--strategies",
                "honest",
            ],
            "two or more",
        ),
        (
            &["dudo", "tournament", "--players", "17"],
            "2 to 16 players",
        ),
        (
            &["dudo", "flags", "--players", "3", "--strategies", "clever"],
            "'clever'",
        ),
        (
            &["dudo", "compare", "--players", "3", "--b", "rules=poker"],
            "rules=poker",
        ),
        (
            &[
                "dudo",
                "compare",
                "--players",
                "3",
                "--b",
                "lives=2",
                "--until-decided",
                "--shard",
                "1/2",
            ],
            "--shard",
        ),
        (
            &[
                "veintiuno",
                "tournament",
                "--players",
                "4",
                "--strategies",
                "basic",
            ],
            "two or more",
        ),
        (
            &[
                "veintiuno",
                "tournament",
                "--players",
                "4",
                "--strategies",
                "basic,basic",
            ],
            "twice",
        ),
        (
            &["veintiuno", "flags", "--players", "4", "--house", "decks=9"],
            "decks=9",
        ),
        (
            &["veintiuno", "flags", "--players", "4", "--bank-stand", "30"],
            "--bank-stand 30",
        ),
        (
            &[
                "veintiuno",
                "compare",
                "--players",
                "4",
                "--b",
                "puje=off",
                "--hands",
                "0",
            ],
            "at least 1 hand",
        ),
        (
            &[
                "veintiuno",
                "compare",
                "--players",
                "4",
                "--b",
                "puje=off",
                "--strategies",
                "mimic:30",
            ],
            "'30'",
        ),
        (
            &[
                "veintiuno",
                "flags",
                "--players",
                "4",
                "--strategies",
                "sheet:/nonexistent/x.json",
            ],
            "/nonexistent/x.json",
        ),
        (
            &[
                "durak",
                "compare",
                "--players",
                "2",
                "--b",
                "redeal=off",
                "--until-decided",
                "--alpha",
                "2",
            ],
            "'2'",
        ),
        (
            &["durak", "flags", "--players", "3", "--series", "4"],
            "--series",
        ),
        (
            &[
                "durak",
                "tournament",
                "--players",
                "2",
                "--strategies",
                "greedy,ismcts:0",
            ],
            "'0'",
        ),
    ] {
        let e = fails(args);
        assert!(
            e.contains(needle),
            "{args:?}: message should name {needle}: {e}"
        );
    }
}

#[test]
fn every_shared_command_has_help_with_examples() {
    for (game, commands) in [
        ("dudo", &["sim", "compare", "tournament", "flags"][..]),
        ("durak", &["sim", "compare", "tournament", "flags"]),
        ("veintiuno", &["compare", "tournament", "flags"]),
    ] {
        for cmd in commands {
            let help = stdout(&[game, cmd, "--help"]);
            assert!(
                help.contains("Examples:") && help.contains(&format!("tahur {game} {cmd}")),
                "{game} {cmd}: {help}"
            );
            for flag in [
                "--players",
                "--strategies",
                "--seed",
                "--threads",
                "--shard",
                "--format",
                "--house",
            ] {
                assert!(help.contains(flag), "{game} {cmd}: {flag}");
            }
        }
    }
    // 21's own sim stays: hand by hand, with the bank's edge by shoe depth.
    assert!(stdout(&["veintiuno", "sim", "--help"]).contains("shoe depth"));
}

#[test]
fn shard_files_of_another_format_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(
        dir.path(),
        &[
            "durak",
            "sim",
            "--players",
            "2",
            "--games",
            "300",
            "--format",
            "json",
        ],
        2,
    );
    // A file from before the shared layer: format 1, its job in the old layout.
    let old = std::fs::read_to_string(&files[0])
        .unwrap()
        .replace("\"tahur_partial\":3", "\"tahur_partial\":1")
        .replace("\"kind\":\"play\"", "\"kind\":\"durak-sim\"");
    std::fs::write(&files[0], old).unwrap();
    let e = fails(&["merge", &files[0], &files[1]]);
    assert!(
        e.contains("format 1") && e.contains("format 3") && e.contains("part1.json"),
        "{e}"
    );
}

/// Every game takes its strategies in Spanish and English, says so in its help, and a line-up
/// named in Spanish plays exactly the English one.
#[test]
fn strategy_names_in_spanish_and_english_in_every_game() {
    for (game, unit, english, spanish) in [
        (
            "dudo",
            "--games",
            "random,honest,tuned,threshold:t=0.3",
            "azar,honesto,afinado,umbral:t=0.3",
        ),
        (
            "durak",
            "--games",
            "random,greedy,expert",
            "azar,codicioso,experto",
        ),
        (
            "veintiuno",
            "--hands",
            "basic,mimic:16,sheet",
            "básica,banca:16,hoja",
        ),
    ] {
        let help = common::stdout(&[game, "tournament", "--help"]);
        assert!(
            help.contains("Spanish"),
            "{game} help names no Spanish strategies"
        );
        let line =
            |list: &str| format!("{game} tournament --players 2 --strategies {list} {unit} 400");
        assert_eq!(
            common::run_json(&line(spanish)),
            common::run_json(&line(english)),
            "{game}"
        );
    }
    // 21's own sim too.
    let line = |list: &str| format!("veintiuno sim --players 3 --strategies {list} --hands 3000");
    assert_eq!(
        common::run_json(&line("básica,banca:16,hoja")),
        common::run_json(&line("basic,mimic:16,sheet"))
    );
}
