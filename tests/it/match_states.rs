//! `sim --from` (whole games from a match state or a position) and `equity` (each side's chance
//! to win the match from a match state).

use crate::common::{fails, json, reproducible, stdout};
use tahur::games::dudo::rules::Rules as DudoRules;
use tahur::games::dudo::Dudo;
use tahur::play::equity::{run_equity, EquitySetup};
use tahur::play::position::{start_from, Matches};
use tahur::play::sim::GameSimulation;
use tahur::play::{Game, Strategy as _, TableSetup};
use tahur::runner::{run, RunControl, RunSpec};

/// A sim's JSON without what `--from` adds (the field and its note).
fn without_from(mut v: serde_json::Value) -> serde_json::Value {
    let o = v.as_object_mut().unwrap();
    o.remove("from");
    if let Some(notes) = o.get_mut("notes").and_then(|n| n.as_array_mut()) {
        notes.retain(|n| {
            !n.as_str()
                .unwrap_or("")
                .starts_with("Every game starts from")
        });
    }
    v
}

#[test]
fn sim_from_the_start_of_the_match_is_a_plain_sim_figure_for_figure() {
    for (base, from) in [
        (
            &[
                "poker",
                "sim",
                "--players",
                "3",
                "--games",
                "800",
                "--seed",
                "2",
            ][..],
            "score: 0 0 0",
        ),
        (
            &[
                "domino",
                "sim",
                "--players",
                "4",
                "--to",
                "100",
                "--games",
                "40",
            ][..],
            "match: 0 0",
        ),
        (
            &[
                "ocho",
                "sim",
                "--players",
                "4",
                "--games",
                "600",
                "--seed",
                "4",
            ][..],
            "",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "4",
                "--games",
                "1500",
                "--seed",
                "3",
            ][..],
            "lives: 3 3 3 3",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "3",
                "--rules",
                "caleuchano",
                "--games",
                "800",
            ][..],
            "rules: Caleuchano; palos: 0 0 0",
        ),
        (
            &[
                "durak",
                "sim",
                "--players",
                "3",
                "--games",
                "1500",
                "--seed",
                "5",
            ][..],
            "",
        ),
    ] {
        let plain = json(&[base, &["--format", "json"]].concat());
        let started = json(&[base, &["--from", from, "--format", "json"]].concat());
        assert_eq!(started["from"], from, "{base:?}");
        assert_eq!(without_from(started), plain, "{base:?} --from {from:?}");
    }
}

#[test]
fn a_match_state_changes_the_games_and_a_dealer_starts_as_a_later_game() {
    // Unequal lives: seat 1 with 3 against three players on their last life wins far more.
    let v = json(&[
        "dudo",
        "sim",
        "--players",
        "4",
        "--games",
        "2000",
        "--from",
        "lives: 3 1 1 1",
        "--format",
        "json",
    ]);
    let seats = v["seats"].as_array().unwrap();
    let rate = |s: usize| seats[s]["rate"].as_f64().unwrap();
    assert!(rate(0) > 0.5, "seat 1 with 3 lives: {}", rate(0));
    for s in 1..4 {
        assert!(rate(s) < 0.25, "seat {} with 1 life: {}", s + 1, rate(s));
    }
    // Durak: seat 2 deals, so seat 3 (the dealer's left) attacks first in every game: the
    // first attacker's count is seat 3's, game for game.
    let v = json(&[
        "durak",
        "sim",
        "--players",
        "3",
        "--games",
        "300",
        "--from",
        "dealer: 2",
        "--format",
        "json",
    ]);
    let first = &v["tables"]["positions"][0];
    assert_eq!(first["position"], "first attacker");
    assert_eq!(first["count"], v["seats"][2]["count"], "{v}");
    let plain = json(&[
        "durak",
        "sim",
        "--players",
        "3",
        "--games",
        "300",
        "--format",
        "json",
    ]);
    assert_ne!(
        plain["tables"]["positions"][0]["count"],
        plain["seats"][2]["count"]
    );
    assert_eq!(v["from"], "dealer: 2");
}

#[test]
fn sim_from_a_position_is_the_same_at_any_thread_count_and_shard_split() {
    let position = <Dudo as tahur::play::position::Positions>::POSITION_EXAMPLE;
    let out = reproducible(&[
        "dudo",
        "sim",
        "--players",
        "4",
        "--games",
        "700",
        "--from",
        position,
    ]);
    assert!(out.contains("every game from"), "{out}");
    assert!(out.contains("dealt afresh for each game"), "{out}");
}

#[test]
fn bad_starts_are_refused_in_one_line() {
    for (args, words) in [
        (
            &["dudo", "sim", "--players", "4", "--from", "lives: 3 3 3"][..],
            "3 values but the table has 4 players",
        ),
        (
            &["dudo", "sim", "--players", "3", "--from", "lives: 3 0 2"][..],
            "seat 2 has 0 lives",
        ),
        (
            &["dudo", "sim", "--players", "2", "--from", "lives: 4 2"][..],
            "give 1 to 3 per seat",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "2",
                "--from",
                "lives: 3 2; bids: 3 tontos",
            ][..],
            "belongs to a position",
        ),
        (
            &["durak", "sim", "--players", "3", "--from", "dealer: 4"][..],
            "dealer: '4' is not a seat: give 1 to 3",
        ),
        (
            &["durak", "sim", "--players", "2", "--from", "trump: 7S"][..],
            "belongs to a position",
        ),
        (
            &["ocho", "sim", "--players", "3", "--from", "dealer: seat 4"][..],
            "dealer: 'seat 4' is not a seat: give 1 to 3",
        ),
        (
            &[
                "poker",
                "sim",
                "--players",
                "3",
                "--from",
                "score: 1 0 0; rules: points=5",
            ][..],
            "the match state's rules (points=5) are not the table's (standard)",
        ),
        (
            &[
                "domino",
                "sim",
                "--players",
                "4",
                "--to",
                "100",
                "--from",
                "match: 10 20; rules: draw=on",
            ][..],
            "the match state's rules (draw=on) are not the table's (to=100)",
        ),
        (
            &[
                "durak",
                "sim",
                "--players",
                "2",
                "--series",
                "3",
                "--from",
                "dealer: 1",
            ][..],
            "drop --series",
        ),
        (
            &[
                "dudo",
                "sim",
                "--players",
                "4",
                "--from",
                "seat: 9; lives: 3 3 3 3",
            ][..],
            "seat",
        ),
        (
            &["dudo", "equity", "--lives", "3,x"][..],
            "'x' is not a whole number",
        ),
        (&["poker", "equity", "--score", "3,1"][..], "is out at 3"),
        (
            &["domino", "equity", "--players", "4", "--match", "85-60"][..],
            "needs a match: give its target",
        ),
        (
            &[
                "domino",
                "equity",
                "--players",
                "4",
                "--to",
                "100",
                "--match",
                "85-100",
            ][..],
            "give 0 to 99",
        ),
        (
            &["domino", "equity", "--players", "3", "--to", "100"][..],
            "no match state to play from",
        ),
        (
            &["ocho", "sim", "--players", "4", "--from", "dealer: 0"][..],
            "give 1 to 4",
        ),
        (
            &["dudo", "equity", "--lives", "3,0,1"][..],
            "seat 2 has 0 lives",
        ),
        (&["dudo", "equity", "--games", "10"][..], "give --players"),
        (
            &["dudo", "equity", "--lives", "3,2", "--pot", "-5"][..],
            "positive amount",
        ),
    ] {
        let err = fails(args);
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

fn control(threads: usize) -> RunControl {
    RunControl {
        threads: Some(threads),
        ..RunControl::default()
    }
}

fn tuned() -> Vec<<Dudo as Game>::Strategy> {
    <Dudo as Game>::Strategy::parse_list("tuned").unwrap()
}

#[test]
fn an_equity_row_is_the_sim_from_its_state() {
    let rules = <DudoRules as tahur::play::GameRules>::standard(3);
    let state = Dudo::read_match(&rules, "lives: 3 2 1").unwrap();
    let setup = EquitySetup::<Dudo>::new(rules, &tuned(), vec![state.clone()]).unwrap();
    let equity = run_equity(&setup, 1500, 11, &control(2)).unwrap();
    let row = &equity.rows[0];
    assert_eq!(row.games, 1500);
    let text = Dudo::write_match(&rules, &state);
    assert_eq!(row.state, text);
    let table = TableSetup::<Dudo>::new(rules, &tuned(), false)
        .unwrap()
        .starting_from(&text)
        .unwrap();
    let spec = RunSpec {
        samples: 1500,
        seed: 11,
        chunk_size: table.chunk_size(),
    };
    let t = run(&GameSimulation::new(&table), &spec, None, &control(1))
        .unwrap()
        .tally;
    for s in 0..3 {
        assert_eq!(row.wins[s] as i64, t.seats[s].sum, "seat {}", s + 1);
    }
    assert_eq!(row.wins.iter().sum::<u64>() + row.undecided, 1500);
    // Fair shares add up to the pot.
    let total: f64 = (0..3).map(|s| row.fair_share(s, 100.0)).sum();
    assert!((total - 100.0).abs() < 1e-9, "{total}");
}

#[test]
fn equity_grows_with_lives_and_even_lives_are_even() {
    let rules = <DudoRules as tahur::play::GameRules>::standard(2);
    let grid = Dudo::equity_grid(&rules);
    let written: Vec<String> = grid.iter().map(|m| Dudo::write_match(&rules, m)).collect();
    assert_eq!(
        written,
        [
            "rules: Chimbo 9; lives: 3 3",
            "rules: Chimbo 9; lives: 3 2",
            "rules: Chimbo 9; lives: 3 1",
            "rules: Chimbo 9; lives: 2 2",
            "rules: Chimbo 9; lives: 2 1",
            "rules: Chimbo 9; lives: 1 1",
        ]
    );
    let setup = EquitySetup::<Dudo>::new(rules, &tuned(), grid).unwrap();
    let equity = run_equity(&setup, 3000, 5, &control(2)).unwrap();
    let p: Vec<f64> = equity.rows.iter().map(|r| r.chance95(0).0).collect();
    // Even lives: both seats are alike (the opener is drawn by a roll-off), so seat 1 wins ½
    // within 4 standard errors of 3 000 games (±3.7 points; a false alarm has chance 2 · 10⁻⁴
    // over the three states, where 95 % intervals gave one under 15 %: with issue 26's `tuned`
    // table, lives 1 1's interval came out [50.01 %, 53.58 %]; 100 000 games give 49.81 %).
    for k in [0, 3, 5] {
        let se = (0.25f64 / 3000.0).sqrt();
        assert!(
            (p[k] - 0.5).abs() < 4.0 * se,
            "{}: {}",
            written_of(&equity, k),
            p[k]
        );
    }
    // More lives against the same opponent win more, each step by far more than the noise.
    assert!(p[1] > p[0] + 0.05 && p[2] > p[1] + 0.05, "{p:?}");
    assert!(p[4] > p[3] + 0.05 && p[4] < p[2], "{p:?}");
}

fn written_of(e: &tahur::play::equity::Equity, k: usize) -> &str {
    &e.rows[k].state
}

#[test]
fn equity_answers_for_one_state_with_the_fair_split() {
    let v = json(&[
        "dudo", "equity", "--lives", "3,2,1", "--games", "600", "--format", "json",
    ]);
    let rows = v["tables"]["equity"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["state"], "rules: Chimbo 9; lives: 3 2 1");
    let shares: f64 = (1..=3)
        .map(|s| rows[0][format!("seat_{s}_share")].as_f64().unwrap())
        .sum();
    assert!((shares - 100.0).abs() < 1e-9, "{shares}");
    let chance = |s: usize| rows[0][format!("seat_{s}_chance")].as_f64().unwrap();
    assert!(chance(1) > chance(2) && chance(2) > chance(3), "{rows:?}");
    // The same answer at any thread count.
    let text = stdout(&[
        "dudo",
        "equity",
        "--lives",
        "2,1",
        "--games",
        "300",
        "--threads",
        "1",
    ]);
    assert_eq!(
        text,
        stdout(&[
            "dudo",
            "equity",
            "--lives",
            "2,1",
            "--games",
            "300",
            "--threads",
            "2"
        ])
    );
    assert!(text.contains("A fair split of a pot of 100"), "{text}");
    // The whole table for a table size, every row of it.
    let v = json(&[
        "dudo",
        "equity",
        "--players",
        "3",
        "--games",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(v["tables"]["equity"].as_array().unwrap().len(), 10);
}

#[test]
fn a_start_is_read_as_a_position_when_it_names_a_seat() {
    let rules = <DudoRules as tahur::play::GameRules>::standard(4);
    let position = <Dudo as tahur::play::position::Positions>::POSITION_EXAMPLE;
    assert_eq!(start_from::<Dudo>(&rules, position).unwrap().seat, Some(2));
    assert_eq!(
        start_from::<Dudo>(&rules, "lives: 1 2 3 3").unwrap().seat,
        None
    );
}

#[test]
fn poker_and_domino_equity_favour_the_leader() {
    // Póker: penalty points, fewer is better; three players at 3 points to go out.
    let v = json(&[
        "poker", "equity", "--score", "2,1,0", "--games", "1500", "--format", "json",
    ]);
    let row = &v["tables"]["equity"][0];
    let c = |s: usize| row[format!("seat_{s}_chance")].as_f64().unwrap();
    assert!(c(3) > c(2) && c(2) > c(1), "{row}");
    // Dominó to 100, pips scoring: the pair that leads 85-60 is the favourite but not certain;
    // level scores are even within the interval.
    let v = json(&[
        "domino",
        "equity",
        "--players",
        "4",
        "--to",
        "100",
        "--score",
        "pips",
        "--match",
        "85-60",
        "--games",
        "600",
        "--format",
        "json",
    ]);
    let row = &v["tables"]["equity"][0];
    let lead = row["seats_1_3_chance"].as_f64().unwrap();
    assert!(lead > 0.6 && lead < 0.98, "{row}");
    let v = json(&[
        "domino",
        "equity",
        "--players",
        "2",
        "--to",
        "100",
        "--match",
        "40-40",
        "--games",
        "600",
        "--format",
        "json",
    ]);
    let ci = v["tables"]["equity"][0]["seat_1_ci95"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        ci[0].as_f64().unwrap() < 0.5 && 0.5 < ci[1].as_f64().unwrap(),
        "{ci:?}"
    );
}
