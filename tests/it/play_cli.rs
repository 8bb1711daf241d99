//! `tahur GAME sim | compare | tournament | flags` for every game, as a user meets them: the
//! shared JSON names, the same output on any threads and from merged shards, mistakes answered
//! in one line with exit code 2, and help with examples — for every game of the one list of
//! games (`with_games!`) — and, game by game, figures and mistakes of their own.

use crate::common;
use common::*;
use tahur::play::{Game, GameRules, Scoring};

fn has(v: &serde_json::Value, keys: &[&str], what: &str) {
    for k in keys {
        assert!(!v[k].is_null(), "{what}: no '{k}' in {v}");
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
fn mistakes_of_each_game_get_one_line_and_exit_2() {
    for (args, needle) in [
        (
            &["dudo", "sim", "--players", "3", "--series", "3"][..],
            "--series",
        ),
        (
            &["dudo", "compare", "--players", "3", "--b", "rules=poker"],
            "rules=poker",
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
        (
            "poker",
            "--games",
            "random,honest,threshold,tuned",
            "azar,honesto,umbral,afinado",
        ),
        (
            "ocho",
            "--games",
            "random,greedy,expert",
            "azar,codicioso,experto",
        ),
        (
            "domino",
            "--games",
            "random,heaviest,company,scorer",
            "azar,bota-gorda,compañía,anotador",
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

// ---------------------------------------------------------------------------------------------
// The command-line contract of every game, driven by the one list of games (`with_games!`): a
// new game is held to it by being listed.

/// Players at the contract's tables: 4, or the nearest count the game takes.
fn table_players<G: Game>() -> usize {
    let (lo, hi, _) = G::INFO.players;
    4usize.clamp(lo, hi)
}

/// [`table_players`] as `--players` takes it.
fn players<G: Game>() -> String {
    table_players::<G>().to_string()
}

/// `GAME CMD --players P` and `--games N` (or `--hands N`): a small run, a few chunks of a
/// sitting game's hands.
fn line<G: Game>(cmd: &str, rest: &[&str]) -> Vec<String> {
    let samples = if G::INFO.sitting { 2 * 4096 + 7 } else { 300 };
    let mut v: Vec<String> = [G::INFO.key, cmd, "--players", &players::<G>()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.push(format!("--{}", G::INFO.sample_unit));
    v.push(samples.to_string());
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

/// The first change `flags` tries at the contract's table, as `--b` takes it.
fn first_change<G: Game>() -> String {
    G::Rules::standard(table_players::<G>())
        .one_rule_changes()
        .remove(0)
        .name
}

/// The first two strategies of the game's tournament line-up.
fn two_strategies<G: Game>() -> String {
    let list: Vec<&str> = G::INFO.default_tournament.split(',').collect();
    list[..2].join(",")
}

/// The JSON of a run that gives the same output on 1 and 2 threads and merged from 3 shards.
fn reproducible_json(args: &[String]) -> serde_json::Value {
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.extend(["--format", "json"]);
    serde_json::from_str(&reproducible(&args)).unwrap()
}

/// Whether the game's `sim` is its own (21's hand-by-hand analysis) rather than the shared
/// layer's: the CLI says so in the command's help, which names whole games only for the layer's.
fn own_sim<G: Game>() -> bool {
    let help = stdout(&[G::INFO.key, "sim", "--help"]);
    !help.starts_with("Whole games between strategies")
}

fn sim_names<G: Game>() {
    if own_sim::<G>() {
        // Its own sim reports its own figures (hand by hand); the shared layer's are below.
        return;
    }
    let v = reproducible_json(&line::<G>(
        "sim",
        &["--strategies", G::INFO.default_tournament],
    ));
    let key = G::INFO.key;
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
            "seats",
            "strategies",
        ],
        key,
    );
    assert_eq!(v["games"], 300, "{key}");
    // Seats in teams win together: a table per team instead of a test across seats.
    if G::Rules::standard(table_players::<G>()).has_teams() {
        for row in v["tables"]["teams"].as_array().unwrap() {
            has(row, &["team", "seats", "count", "rate", "ci95"], "teams");
        }
    } else {
        has(&v, &["seat_p_value"], key);
    }
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
    let expected = match G::INFO.scoring {
        Scoring::Event { good: false } => fair - rate,
        _ => rate - fair,
    };
    assert!((edge - expected).abs() < 1e-11, "{key}: {v}");
}

fn compare_names<G: Game>() {
    let change = first_change::<G>();
    let v = reproducible_json(&line::<G>("compare", &["--b", &change, "--detect", "0.05"]));
    has(&v, &["seed", "a", "b", "comparisons"], G::INFO.key);
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

fn tournament_names<G: Game>() {
    let v = reproducible_json(&line::<G>(
        "tournament",
        &["--strategies", &two_strategies::<G>()],
    ));
    let ranking = v["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 2, "{}", G::INFO.key);
    for row in ranking {
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

fn flags_names<G: Game>() {
    let v = reproducible_json(&line::<G>("flags", &[]));
    has(&v, &["table", "fairest", "changes"], G::INFO.key);
    let rows = v["changes"].as_array().unwrap();
    assert_eq!(rows[0]["change"], "(the table as given)");
    assert_eq!(rows[1]["change"], first_change::<G>(), "{}", G::INFO.key);
    assert!(rows.len() > 2, "{}: {v}", G::INFO.key);
}

/// Mistakes every game answers alike: one line naming the bad value, exit code 2.
fn mistakes<G: Game>() {
    let key = G::INFO.key;
    let unit = format!("--{}", G::INFO.sample_unit);
    let first = G::INFO.default_tournament.split(',').next().unwrap();
    let twice = format!("{first},{first}");
    let change = first_change::<G>();
    let p = players::<G>();
    let cases: &[(&[&str], &str)] = &[
        (&["flags", "--players", "1"], "'1'"),
        (&["flags", "--players", "99"], "'99'"),
        (
            &["sim", "--players", &p, "--strategies", "clever"],
            "'clever'",
        ),
        (
            &["tournament", "--players", &p, "--strategies", first],
            "two or more",
        ),
        (
            &["tournament", "--players", &p, "--strategies", &twice],
            "twice",
        ),
        (&["compare", "--players", &p, "--b", "nosuch=1"], "'nosuch'"),
        (&["compare", "--players", &p, "--b", "lives"], "'lives'"),
        (&["compare", "--players", &p], "same table"),
        (
            &[
                "compare",
                "--players",
                &p,
                "--b",
                &change,
                "--until-decided",
                "--shard",
                "1/2",
            ],
            "--shard",
        ),
        (&["flags", "--players", &p, &unit, "0"], "'0'"),
        (&["flags", "--players", &p, &unit, "-5"], "'-5'"),
        (&["flags", "--players", &p, "--shard", "3/2"], "'3/2'"),
        (&["flags", "--players", &p, "--threads", "0"], "'0'"),
        (&["flags", "--players", &p, "--seed", "abc"], "'abc'"),
        (&["flags", "--players", &p, "--format", "yaml"], "'yaml'"),
    ];
    for &(args, needle) in cases {
        let args = [&[key][..], args].concat();
        let e = fails(&args);
        assert!(
            e.contains(needle),
            "{args:?}: the message should name {needle}: {e}"
        );
    }
}

/// Every shared command's help has examples and the shared flags.
fn help<G: Game>() {
    let key = G::INFO.key;
    for cmd in ["sim", "compare", "tournament", "flags"] {
        let help = stdout(&[key, cmd, "--help"]);
        assert!(
            help.contains("Examples:") && help.contains(&format!("tahur {key} {cmd}")),
            "{key} {cmd}: {help}"
        );
        let flags: &[&str] = if own_sim::<G>() && cmd == "sim" {
            &[
                "--players",
                "--strategies",
                "--seed",
                "--threads",
                "--shard",
            ]
        } else {
            &[
                "--players",
                "--strategies",
                "--seed",
                "--threads",
                "--shard",
                "--format",
                "--house",
                "--output",
            ]
        };
        for flag in flags {
            assert!(help.contains(flag), "{key} {cmd}: {flag}");
        }
    }
}

macro_rules! cli_contract_tests {
    ($($name:ident => $game:ty),* $(,)?) => {
        $(
            #[allow(non_snake_case)]
            mod $name {
                #[test]
                fn sim_reports_the_shared_names_on_any_threads_and_shards() {
                    super::sim_names::<$game>();
                }
                #[test]
                fn compare_reports_the_shared_names_on_any_threads_and_shards() {
                    super::compare_names::<$game>();
                }
                #[test]
                fn tournament_reports_the_shared_names_on_any_threads_and_shards() {
                    super::tournament_names::<$game>();
                }
                #[test]
                fn flags_reports_the_shared_names_on_any_threads_and_shards() {
                    super::flags_names::<$game>();
                }
                #[test]
                fn mistakes_get_one_line_and_exit_2() {
                    super::mistakes::<$game>();
                }
                #[test]
                fn shared_commands_have_help_with_examples() {
                    super::help::<$game>();
                }
            }
        )*
    };
}
tahur::with_games!(cli_contract_tests);
