//! `tahur ocho sim | compare | tournament | flags | value | deal` as a user meets them: the
//! documented JSON, threads and shard merges byte for byte, and mistakes answered in one line.

use crate::common;
use common::*;

fn rate(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn sim_json_has_the_documented_numbers_and_they_add_up() {
    let base = [
        "ocho",
        "sim",
        "--players",
        "4",
        "--strategies",
        "expert,greedy:forget=0.2",
        "--games",
        "3000",
        "--seed",
        "4",
        "--format",
        "json",
    ];
    // Threads 1 and 2 and a merge of three shards print the same bytes.
    let v: serde_json::Value = serde_json::from_str(&reproducible(&base)).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["seed"].as_u64()),
        (Some(3000), Some(4))
    );
    assert_eq!(v["event"], "wins");
    let seats = v["seats"].as_array().unwrap();
    let first: u64 = seats.iter().map(|s| s["count"].as_u64().unwrap()).sum();
    let capped = v["capped"].as_u64().unwrap();
    assert_eq!(
        first + capped,
        3000,
        "every finished game has one first out"
    );
    // Games stopped at the cap after the first went out have a winner but no finishing order.
    let unfinished = v["capped_after_first"].as_u64().unwrap();
    let finished = (3000 - capped - unfinished) as f64;
    let places = v["tables"]["places"].as_array().unwrap();
    for (s, row) in places.iter().enumerate() {
        let shares: f64 = (1..=4).map(|k| rate(&row[format!("place_{k}")])).sum();
        assert!((shares - 1.0).abs() < 1e-9, "seat {s}");
        let firsts = rate(&row["place_1"]) * finished;
        let count = seats[s]["count"].as_u64().unwrap() as f64;
        assert!(firsts <= count + 1e-6 && count <= firsts + unfinished as f64 + 1e-6);
    }
    // The finishing order by strategy adds its seats up.
    let by_strategy = v["tables"]["strategy_places"].as_array().unwrap();
    assert_eq!(by_strategy.len(), 2);
    assert_eq!(by_strategy[0]["strategy"], "expert");
    assert_eq!(by_strategy[1]["strategy"], "greedy:forget=0.2");
    let expert_first = (rate(&places[0]["place_1"]) + rate(&places[2]["place_1"])) / 2.0;
    assert!((rate(&by_strategy[0]["place_1"]) - expert_first).abs() < 1e-12);
    // The game's own figures.
    for key in [
        "dealer_rate",
        "dealer_edge",
        "starter_last_rate",
        "dealer_last_rate",
        "cards_drawn",
        "stack_cards",
        "forgotten",
        "penalty_cards",
        "reshuffles",
        "mean_length",
        "first_player_edge",
    ] {
        assert!(v[key].is_number(), "{key}: {}", v[key]);
    }
    assert!(rate(&v["forgotten"]) > 0.0);
    assert!((rate(&v["penalty_cards"]) - 3.0 * rate(&v["forgotten"])).abs() < 0.01);
    assert!(rate(&v["stack_cards"]) <= rate(&v["cards_drawn"]));
    // The forgetful greedy seats pay for it: the expert goes out first more often.
    assert!(rate(&by_strategy[0]["place_1"]) > rate(&by_strategy[1]["place_1"]));
}

#[test]
fn compare_tournament_and_flags_run_and_pair() {
    let v = run_json(
        "ocho compare --players 3 --a-strategies greedy --b-strategies greedy:forget=0.5,greedy --games 600 --seed 2",
    );
    let rows = v["comparisons"].as_array().unwrap();
    let seat = |k: &str| rows.iter().find(|r| r["metric"] == k).unwrap();
    // Forgetting «voy por una» half the time costs seat 1 (and 3) first places, which go to seat
    // 2 (differences of rates, as fractions).
    assert!(
        rate(&seat("seat_1")["difference"]) > 0.03,
        "{}",
        seat("seat_1")
    );
    assert!(
        rate(&seat("seat_2")["difference"]) < -0.03,
        "{}",
        seat("seat_2")
    );
    assert!(seat("seat_1")["p_value"].as_f64().unwrap() < 0.01);
    let v = run_json("ocho tournament --players 2 --strategies random,expert --games 300 --seed 3");
    assert_eq!(v["ranking"][0]["strategy"], "expert");
    let v = run_json("ocho flags --players 4 --games 300 --seed 5");
    let changes: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["change"].as_str().unwrap())
        .collect();
    for c in [
        "joker=three",
        "eight-answers=on",
        "first-card=acts",
        "keep-drawn=on",
        "decks=2",
    ] {
        assert!(changes.contains(&c), "{c}: {changes:?}");
    }
}

#[test]
fn value_prices_every_special_on_the_same_deals() {
    let base = [
        "ocho",
        "value",
        "--players",
        "3",
        "--deals",
        "600",
        "--seed",
        "6",
        "--format",
        "json",
    ];
    let one = stdout(&[&base[..], &["--threads", "1"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two, "threads changed the output");
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    let rows = v["specials"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["special"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["ace", "two", "three", "joker", "eight", "jack", "king", "forget"]
    );
    for r in rows {
        let d = rate(&r["first_change"]);
        let ci = r["first_ci95"].as_array().unwrap();
        assert!(rate(&ci[0]) <= d && d <= rate(&ci[1]), "{r}");
        let change = rate(&r["first_special"]) - rate(&r["first_plain"]);
        assert!((change - d).abs() < 1e-11, "{r}");
    }
    // Forgetting «voy por una» a quarter of the time costs chances of going out first.
    let forget = &rows[7];
    assert!(rate(&forget["first_change"]) < 0.0, "{forget}");
    assert!(rate(&v["forgotten_per_game"]) > 0.0);
}

#[test]
fn deal_odds_are_exact_and_simulated_deals_agree() {
    let v = run_json("ocho deal --players 4");
    // 1 − C(50, 8)/C(54, 8)
    assert!((rate(&v["eight"]) - 0.484_001_631_615_394).abs() < 1e-12);
    let v = run_json("ocho deal --players 6 --samples 20000 --seed 3");
    for table in ["holds", "specials", "turned"] {
        for row in v["tables"][table]
            .as_array()
            .unwrap_or_else(|| v[table].as_array().unwrap())
        {
            if let Some(z) = row["deviation_se"].as_f64() {
                assert!(z.abs() < 4.5, "{table}: {row}");
            }
        }
    }
    let text = stdout(&["ocho", "deal", "--players", "5", "--joker", "three"]);
    assert!(
        text.contains("the starter can play on the turned card"),
        "{text}"
    );
}

#[test]
fn value_and_simulated_deals_shard_and_merge_figure_for_figure() {
    let v = two_shards_merge_to_the_whole(&[
        "ocho",
        "value",
        "--players",
        "4",
        "--deals",
        "300",
        "--seed",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(v["deals"], 300);
    let v = two_shards_merge_to_the_whole(&[
        "ocho",
        "deal",
        "--players",
        "5",
        "--samples",
        "1e4",
        "--seed",
        "1e9",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["deals"].as_u64(), v["seed"].as_u64()),
        (Some(10_000), Some(1_000_000_000))
    );
    // Without a count there is no simulation to split.
    let e = fails(&["ocho", "deal", "--players", "4", "--shard", "1/2"]);
    assert!(e.contains("--samples"), "{e}");
}

#[test]
fn mistakes_get_one_line_and_exit_2() {
    let sim = |extra: &[&str]| -> String {
        let mut args = vec!["ocho", "sim", "--games", "10"];
        args.extend_from_slice(extra);
        fails(&args)
    };
    let e = sim(&["--players", "1"]);
    assert!(e.contains("'1'") && e.contains("2 to 10"), "{e}");
    let e = sim(&["--players", "11"]);
    assert!(e.contains("'11'"), "{e}");
    let e = sim(&["--players", "4", "--decks", "0"]);
    assert!(e.contains("--decks 0") && e.contains("1 or 2"), "{e}");
    let e = sim(&["--players", "7", "--decks", "1"]);
    assert!(e.contains("7 players") && e.contains("decks=2"), "{e}");
    let e = sim(&["--players", "4", "--joker", "sometimes"]);
    assert!(
        e.contains("--joker sometimes") && e.contains("three"),
        "{e}"
    );
    let e = sim(&["--players", "4", "--first-card", "twice"]);
    assert!(
        e.contains("--first-card twice") && e.contains("acts"),
        "{e}"
    );
    let e = sim(&["--players", "4", "--house", "colour=red"]);
    assert!(e.contains("'colour'") && e.contains("joker"), "{e}");
    let e = sim(&["--players", "4", "--strategies", "smart"]);
    assert!(e.contains("'smart'") && e.contains("greedy"), "{e}");
    let e = sim(&["--players", "4", "--strategies", "greedy:forget=1.5"]);
    assert!(e.contains("'1.5'") && e.contains("0 to 1"), "{e}");
    let e = sim(&["--players", "4", "--strategies", "random:olvido=-1"]);
    assert!(e.contains("'-1'"), "{e}");
    let e = sim(&["--players", "4", "--max-actions", "3"]);
    assert!(e.contains("--max-actions 3"), "{e}");
    let e = fails(&["ocho", "value", "--players", "4", "--forget", "2"]);
    assert!(e.contains("'2'") && e.contains("0 to 1"), "{e}");
    let e = fails(&["ocho", "value", "--players", "1"]);
    assert!(e.contains("'1'"), "{e}");
    let e = fails(&["ocho", "value", "--players", "4", "--strategies", "nobody"]);
    assert!(e.contains("'nobody'"), "{e}");
    let e = fails(&["ocho", "deal", "--players", "4", "--decks", "3"]);
    assert!(e.contains("--decks 3"), "{e}");
    let e = fails(&["ocho", "deal", "--players", "4", "--samples", "0"]);
    assert!(e.contains("'0'"), "{e}");
}

#[test]
fn help_lists_ocho_with_examples() {
    let top = stdout(&["ocho", "--help"]);
    for cmd in ["sim", "compare", "tournament", "flags", "value", "deal"] {
        assert!(top.contains(cmd), "{cmd}: {top}");
        let help = stdout(&["ocho", cmd, "--help"]);
        assert!(
            help.contains("Examples:") && help.contains(&format!("tahur ocho {cmd}")),
            "{help}"
        );
        for flag in [
            "--players",
            "--decks",
            "--joker",
            "--first-card",
            "--max-actions",
        ] {
            assert!(help.contains(flag), "{cmd}: {flag}");
        }
    }
}
