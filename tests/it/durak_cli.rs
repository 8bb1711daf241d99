//! `tahur durak sim | compare | tournament` as a user meets them.

use crate::common;
use common::*;

fn rate(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn sim_json_has_the_documented_numbers_and_they_add_up() {
    let base = [
        "durak",
        "sim",
        "--players",
        "3",
        "--strategies",
        "greedy,random",
        "--games",
        "5000",
        "--seed",
        "4",
        "--check",
        "--format",
        "json",
    ];
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(v["games"], 5000);
    assert_eq!(v["seed"], 4);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["illegal_actions"], 0);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    let names: Vec<&str> = seats
        .iter()
        .map(|s| s["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greedy", "random", "greedy"]);
    let durak: u64 = seats.iter().map(|s| s["count"].as_u64().unwrap()).sum();
    let draws = v["draws"].as_u64().unwrap();
    let capped = v["capped"].as_u64().unwrap();
    assert_eq!(durak + draws + capped, 5000);
    for s in seats {
        let r = rate(&s["rate"]);
        assert!((r - s["count"].as_u64().unwrap() as f64 / 5000.0).abs() < 1e-12);
        let ci = s["ci95"].as_array().unwrap();
        assert!(rate(&ci[0]) <= r && r <= rate(&ci[1]));
    }
    // The strategy table adds the seats of each strategy up.
    let strategies = v["strategies"].as_array().unwrap();
    assert_eq!(strategies[0]["strategy"], "greedy");
    assert_eq!(
        strategies[0]["count"].as_u64().unwrap(),
        seats[0]["count"].as_u64().unwrap() + seats[2]["count"].as_u64().unwrap()
    );
    let positions = v["tables"]["positions"].as_array().unwrap();
    let by_position: u64 = positions.iter().map(|p| p["count"].as_u64().unwrap()).sum();
    assert_eq!(by_position, durak);
    let lengths: u64 = v["tables"]["length"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["games"].as_u64().unwrap())
        .sum();
    assert_eq!(lengths, 5000);
    let ep = rate(&v["epaulettes_rate"]);
    assert!(ep > 0.0 && ep < 0.2, "{ep}");
    assert!(rate(&v["mean_length"]) > 5.0);
    // The text names the first attacker's rate against the fair share in plain words.
    let text = stdout(&base[..base.len() - 2]);
    assert!(
        text.contains("points") && text.contains("from the fair share")
            || text.contains("below the fair share")
            || text.contains("above the fair share"),
        "{text}"
    );
}

#[test]
fn series_are_reproducible_and_counted() {
    // 3000 games in series of 7: chunks of 1029 games (whole series), the last one cut short.
    let base = [
        "durak",
        "sim",
        "--players",
        "4",
        "--strategies",
        "greedy",
        "--games",
        "3000",
        "--series",
        "7",
        "--seed",
        "9",
        "--format",
        "json",
    ];
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(v["games"], 3000);
    assert_eq!(v["series"], 7);
    let later = v["later_games"].as_u64().unwrap();
    // At most 6 of every 7 games are later games (fewer after draws).
    assert!(
        later <= 3000 * 6 / 7 + 6 && later > 3000 * 6 / 7 * 8 / 10,
        "{later}"
    );
    let again = rate(&v["repeat_rate"]);
    assert!(again > 0.0 && again < 0.5, "{again}");
    // Independent games have no later games and no series fields.
    let plain = json(&[
        "durak",
        "sim",
        "--players",
        "4",
        "--games",
        "300",
        "--format",
        "json",
    ]);
    assert!(plain.get("later_games").is_none() && plain.get("series").is_none());
    let err = fails(&["durak", "sim", "--players", "2", "--series", "0"]);
    assert!(err.contains("'0' for '--series"), "{err}");
    // Compare pairs series game by game too.
    let cmp = [
        "durak",
        "compare",
        "--players",
        "3",
        "--strategies",
        "greedy",
        "--b",
        "variant=perevodnoy",
        "--series",
        "5",
        "--games",
        "2000",
        "--format",
        "json",
    ];
    reproducible(&cmp);
}

#[test]
fn greedy_is_the_durak_far_less_often_than_random() {
    // 100,000 games (seed 1) give greedy 1.59 % and random 97.96 %; at 4,000 games the
    // standard error of greedy's rate is about 0.2 points, so 4 % is > 10 SE away.
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "2",
        "--strategies",
        "greedy,random",
        "--games",
        "4000",
        "--format",
        "json",
    ]);
    let seats = v["seats"].as_array().unwrap();
    let greedy = rate(&seats[0]["rate"]);
    let random = rate(&seats[1]["rate"]);
    assert!(greedy < 0.04, "greedy durak rate {greedy}");
    assert!(random > 0.93, "random durak rate {random}");
    let strategies = v["strategies"].as_array().unwrap();
    assert_eq!(strategies[0]["strategy"], "greedy");
    assert_eq!(strategies[0]["rate"], seats[0]["rate"]);
}

#[test]
fn random_play_gives_the_first_attacker_almost_no_edge() {
    // 10^7 random games (seed 1): the first attacker is the durak in 49.76 % of games
    // (interval [49.73 %, 49.79 %]), draws 0.216 %. At 20,000 games one standard error is
    // 0.35 points: the bounds below are about 4 SE either side.
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "2",
        "--strategies",
        "random",
        "--games",
        "20000",
        "--seed",
        "11",
        "--format",
        "json",
    ]);
    let fa = rate(&v["first_player_rate"]);
    assert!((0.483..=0.512).contains(&fa), "first attacker {fa}");
    let draws = rate(&v["draw_rate"]);
    assert!(draws < 0.01, "draws {draws}");
    let fair = rate(&v["fair_share"]);
    assert!((fair - (1.0 - draws) / 2.0).abs() < 1e-12, "{fair}");
    let bouts = rate(&v["mean_length"]);
    assert!((29.0..31.0).contains(&bouts), "mean bouts {bouts}");
}

#[test]
fn teams_lose_together() {
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "4",
        "--teams",
        "2x2",
        "--strategies",
        "greedy,random",
        "--games",
        "2000",
        "--format",
        "json",
    ]);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats[0]["count"], seats[2]["count"]);
    assert_eq!(seats[1]["count"], seats[3]["count"]);
    let teams = v["tables"]["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 2);
    let lost: u64 = teams.iter().map(|t| t["count"].as_u64().unwrap()).sum();
    assert_eq!(
        lost + v["draws"].as_u64().unwrap() + v["capped"].as_u64().unwrap(),
        2000
    );
    // The greedy team (seats 1 and 3) loses far less often.
    assert!(rate(&teams[0]["rate"]) < 0.1);
}

#[test]
fn every_variant_and_flag_plays() {
    for flags in [
        &["--variant", "perevodnoy"][..],
        &["--variant", "perevodnoy", "--show-trump-transfer"],
        &["--variant", "platkowy"],
        &["--deck", "52", "--hand", "7"],
        &[
            "--dealer-trump",
            "--five-before-discard",
            "--no-redeal",
            "--last-cards",
            "defender",
        ],
    ] {
        let mut args = vec![
            "durak",
            "sim",
            "--players",
            "3",
            "--strategies",
            "random,greedy,expert",
            "--games",
            "300",
            "--check",
            "--format",
            "json",
        ];
        args.extend_from_slice(flags);
        let v = json(&args);
        assert_eq!(v["games"], 300, "{flags:?}");
        assert_eq!(v["violations"], 0, "{flags:?}");
        assert_eq!(v["illegal_actions"], 0, "{flags:?}");
        if flags.contains(&"defender") {
            assert_eq!(v["draws"], 0, "{flags:?}");
        }
    }
    // A tiny move cap stops games: counted as capped, never as durak or draw.
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "2",
        "--strategies",
        "random",
        "--games",
        "200",
        "--max-moves",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(v["capped"], 200);
    assert_eq!(v["draws"], 0);
    assert!(v["notes"][1].as_str().unwrap().contains("move cap"));
}

#[test]
fn ismcts_plays_with_a_tiny_budget() {
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "2",
        "--strategies",
        "ismcts:20,random",
        "--games",
        "20",
        "--check",
        "--format",
        "json",
    ]);
    assert_eq!(v["games"], 20);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["seats"][0]["strategy"], "ismcts:20");
}

#[test]
fn compare_pairs_variants_on_the_same_deals() {
    let base = [
        "durak",
        "compare",
        "--players",
        "2",
        "--strategies",
        "greedy,random",
        "--a",
        "variant=podkidnoy",
        "--b",
        "variant=perevodnoy",
        "--games",
        "3000",
        "--format",
        "json",
    ];
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(v["games"], 3000);
    let rows = v["comparisons"].as_array().unwrap();
    assert_eq!(rows[0]["metric"], "seat_1");
    assert!(rows.iter().any(|r| r["metric"] == "first_player"));
    let bouts = rows.iter().find(|r| r["metric"] == "length").unwrap();
    // Transfers shorten games: a clear paired difference.
    assert!(rate(&bouts["difference"]) > 0.0);
    assert!(rate(&bouts["p_value"]) < 0.01);
    for r in rows {
        let ci = r["ci95"].as_array().unwrap();
        let d = rate(&r["difference"]);
        assert!(rate(&ci[0]) <= d && d <= rate(&ci[1]), "{r}");
    }

    // Strategies as the variant: the same rules, greedy against expert in seat 1.
    let v = json(&[
        "durak",
        "compare",
        "--players",
        "2",
        "--a-strategies",
        "random,random",
        "--b-strategies",
        "greedy,random",
        "--games",
        "2000",
        "--detect",
        "5",
        "--format",
        "json",
    ]);
    let rows = v["comparisons"].as_array().unwrap();
    assert_eq!(rows[0]["metric"], "seat_1");
    assert!(rate(&rows[0]["difference"]) > 0.30, "{}", rows[0]);
    assert!(rows[0]["needed_given"].as_u64().is_some());
}

#[test]
fn tournament_ranks_and_rotates_seats() {
    let base = [
        "durak",
        "tournament",
        "--players",
        "2",
        "--strategies",
        "random,greedy",
        "--games",
        "1200",
        "--format",
        "json",
    ];
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(v["games_per_pair"], 1200);
    assert_eq!(v["deals"], 600);
    let ranking = v["ranking"].as_array().unwrap();
    assert_eq!(ranking[0]["strategy"], "greedy");
    assert_eq!(ranking[1]["strategy"], "random");
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0]["a"], "random");
    assert!(rate(&pairs[0]["difference"]) > 0.80);
    assert!(rate(&pairs[0]["p_value"]) < 1e-6);
    // Two players, every deal at both seatings: each side is the durak or not in each game.
    let total =
        rate(&pairs[0]["a_rate"]) + rate(&pairs[0]["b_rate"]) + rate(&pairs[0]["draw_rate"]);
    assert!((total - 1.0).abs() < 1e-9, "{total}");

    // Three strategies at an odd table: 3 pairs, 3 seatings, games rounded up to whole deals.
    let v = json(&[
        "durak",
        "tournament",
        "--players",
        "3",
        "--strategies",
        "random,greedy,expert",
        "--games",
        "100",
        "--check",
        "--format",
        "json",
    ]);
    assert_eq!(v["games_per_pair"], 102);
    assert_eq!(v["pairs"].as_array().unwrap().len(), 3);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["ranking"].as_array().unwrap().len(), 3);
}

#[test]
fn flags_pair_every_house_rule_with_the_table() {
    let base = [
        "durak",
        "flags",
        "--players",
        "4",
        "--strategies",
        "greedy",
        "--games",
        "3000",
        "--seed",
        "6",
        "--format",
        "json",
    ];
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(v["games"], 3000);
    let rows = v["changes"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["change"].as_str().unwrap()).collect();
    assert_eq!(names[0], "(the table as given)");
    for flag in [
        "variant=perevodnoy",
        "teams=2x2",
        "five-before-discard=on",
        "deck=52,hand=7",
    ] {
        assert!(names.contains(&flag), "{flag} missing from {names:?}");
    }
    // Each row's edge is its fair share less its first attacker's rate (a fraction), and each
    // change's paired edge change is the difference of the two edges.
    let edge = |r: &serde_json::Value| rate(&r["edge"]);
    for r in rows {
        let e = rate(&r["fair_share"]) - rate(&r["first_player_rate"]);
        assert!((edge(r) - e).abs() < 1e-9, "{r}");
    }
    for r in &rows[1..] {
        let change = rate(&r["edge_change"]);
        assert!((change - (edge(r) - edge(&rows[0]))).abs() < 1e-9, "{r}");
        let ci = r["edge_ci95"].as_array().unwrap();
        assert!(rate(&ci[0]) <= change && change <= rate(&ci[1]), "{r}");
    }
    // Last cards to the defender leave no draws.
    let defender = rows
        .iter()
        .find(|r| r["change"] == "last-cards=defender")
        .unwrap();
    assert_eq!(rate(&defender["draw_rate"]), 0.0);
    assert!(v["fairest"].is_string());
    // Series are not for flags (compare takes them).
    let e = fails(&["durak", "flags", "--players", "2", "--series", "3"]);
    assert!(e.contains("--series"), "{e}");
}

#[test]
fn charts_are_svg_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let (seats, strategies, length, ranking) = (
        path("seats.svg"),
        path("strategies.svg"),
        path("length.svg"),
        path("ranking.svg"),
    );
    stdout(&[
        "durak",
        "sim",
        "--players",
        "3",
        "--strategies",
        "greedy,random",
        "--games",
        "500",
        "--chart",
        &seats,
        "--strategy-chart",
        &strategies,
        "--length-chart",
        &length,
    ]);
    for f in [&seats, &strategies, &length] {
        let svg = std::fs::read_to_string(f).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{f}");
    }
    let svg = std::fs::read_to_string(&seats).unwrap();
    assert!(svg.contains("1 greedy") && svg.contains("2 random"));
    stdout(&[
        "durak",
        "tournament",
        "--players",
        "2",
        "--strategies",
        "random,greedy",
        "--games",
        "200",
        "--chart",
        &ranking,
    ]);
    assert!(std::fs::read_to_string(&ranking)
        .unwrap()
        .starts_with("<svg"));
    let fair = path("fair.svg");
    stdout(&[
        "durak",
        "flags",
        "--players",
        "3",
        "--games",
        "300",
        "--chart",
        &fair,
    ]);
    let svg = std::fs::read_to_string(&fair).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("perevodnoy") && svg.contains("as given"));
}

#[test]
fn mistakes_get_one_line_and_exit_2() {
    let sim = |extra: &[&str]| -> String {
        let mut args = vec!["durak", "sim", "--games", "10"];
        args.extend_from_slice(extra);
        fails(&args)
    };
    let e = sim(&["--players", "2", "--strategies", "smart"]);
    assert!(e.contains("'smart'") && e.contains("greedy"), "{e}");
    // The 36-card deck stops at six players; 52 cards seat 7 and 8; more would need two decks.
    let e = sim(&["--players", "7"]);
    assert!(
        e.contains("players=7") && e.contains("six players") && e.contains("deck=52"),
        "{e}"
    );
    let e = sim(&["--players", "9", "--deck", "52"]);
    assert!(e.contains("'9'") && e.contains("2 to 8"), "{e}");
    let e = sim(&["--players", "3", "--teams", "2x2"]);
    assert!(e.contains("2x2") && e.contains("4 players"), "{e}");
    let e = sim(&["--players", "4", "--teams", "4x4"]);
    assert!(e.contains("--teams 4x4") && e.contains("3x3"), "{e}");
    let e = sim(&["--players", "2", "--deck", "40"]);
    assert!(
        e.contains("--deck 40") && e.contains("36") && e.contains("52"),
        "{e}"
    );
    let e = sim(&["--players", "2", "--hand-size", "0"]);
    assert!(e.contains("--hand-size 0") && e.contains("1 to 12"), "{e}");
    // The old spelling still works for a release, and the message names the new one.
    let e = sim(&["--players", "2", "--hand", "0"]);
    assert!(e.contains("--hand-size 0") && e.contains("1 to 12"), "{e}");
    let e = sim(&["--players", "6", "--hand", "7"]);
    assert!(e.contains("6 players × 7 cards") && e.contains("36"), "{e}");
    let e = sim(&["--players", "2", "--show-trump-transfer"]);
    assert!(e.contains("perevodnoy"), "{e}");
    let e = sim(&["--players", "2", "--variant", "bridge"]);
    assert!(
        e.contains("--variant bridge") && e.contains("podkidnoy"),
        "{e}"
    );
    let e = sim(&["--players", "2", "--last-cards", "nobody"]);
    assert!(
        e.contains("--last-cards nobody") && e.contains("defender"),
        "{e}"
    );
    let e = sim(&["--players", "2", "--max-moves", "3"]);
    assert!(e.contains("--max-moves 3") && e.contains("10"), "{e}");
    let e = sim(&["--players", "2", "--strategies", "greedy,random,expert"]);
    assert!(e.contains("3 strategies for 2 players"), "{e}");
    let e = sim(&["--players", "2", "--strategies", "ismcts:0"]);
    assert!(e.contains("'0'"), "{e}");
    for bad in ["0/3", "4/3", "x"] {
        let e = sim(&["--players", "2", "--shard", bad]);
        assert!(e.contains(bad) && e.contains("K/N"), "{e}");
    }
    let e = sim(&["--players", "2", "--shard", "1/2", "--chart", "x.svg"]);
    assert!(e.contains("--shard"), "{e}");
    let e = fails(&["durak", "sim", "--games", "10"]);
    assert!(e.contains("--players"), "{e}");

    let e = fails(&["durak", "compare", "--players", "2"]);
    assert!(e.contains("same table"), "{e}");
    let e = fails(&["durak", "compare", "--players", "2", "--a", "colour=red"]);
    assert!(e.contains("'colour'") && e.contains("variant"), "{e}");
    let e = fails(&["durak", "compare", "--players", "2", "--a", "deck=40"]);
    assert!(e.contains("deck=40") && e.contains("52"), "{e}");
    let e = fails(&["durak", "compare", "--players", "2", "--b", "teams=2x2"]);
    assert!(e.contains("4 players"), "{e}");

    let e = fails(&[
        "durak",
        "tournament",
        "--players",
        "2",
        "--strategies",
        "greedy",
    ]);
    assert!(e.contains("two or more"), "{e}");
    let e = fails(&[
        "durak",
        "tournament",
        "--players",
        "2",
        "--strategies",
        "greedy,greedy",
    ]);
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn help_lists_durak_with_examples() {
    let top = stdout(&["--help"]);
    assert!(top.contains("durak"), "{top}");
    for cmd in ["sim", "compare", "tournament", "flags"] {
        let help = stdout(&["durak", cmd, "--help"]);
        assert!(
            help.contains("Examples:") && help.contains(&format!("tahur durak {cmd}")),
            "{help}"
        );
        for flag in [
            "--variant",
            "--teams",
            "--deck",
            "--last-cards",
            "--max-moves",
        ] {
            assert!(help.contains(flag), "{cmd}: {flag}");
        }
    }
}
