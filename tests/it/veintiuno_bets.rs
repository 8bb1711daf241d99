//! 21 ecuatoriano's money as the text has it: bets on the face-down card between the bank's
//! limits, bankrolls and a bank that can be broken, the bank's choices (puje, drawing).

use std::collections::BTreeMap;

use crate::common;
use tahur::games::veintiuno::bankroll::{ruin_before_change, BankrollSetup, BankrollSimulation};
use tahur::games::veintiuno::engine::{BankPolicy, Move, PlayerPolicy};
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::sim::{parse_policy, HandSimSetup, HandSimulation, HandTally};
use tahur::games::veintiuno::strategy::SHEET_RAISES;
use tahur::runner::{run, RunControl, RunSpec};

fn hands(setup: &HandSimSetup, n: u64, seed: u64) -> HandTally {
    let spec = RunSpec {
        samples: n,
        seed,
        chunk_size: 4096,
    };
    run(
        &HandSimulation::new(setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap()
    .tally
}

/// A policy that splits every pair, takes tapo, withdraws and ends hands as pie de banco
/// (every kind of stake), betting the maximum on `raise`.
fn busy(raise: [bool; 10]) -> PlayerPolicy {
    let mut p = crate::veintiuno_games::busy_policy();
    p.raise = raise;
    p
}

#[test]
fn a_bet_that_ignores_the_face_down_card_scales_every_result_exactly() {
    // Bets of 5 on every hand (min = max = 5) deal the same cards and make the same moves as
    // bets of 1: every net is 5 times as large, so the EV per unit bet is today's exactly.
    let opts = |spec: &str| Options::default().with_house_rules(spec).unwrap();
    let list = [busy([false; 10]), PlayerPolicy::basic()];
    let one = HandSimSetup::new(opts(""), 4, &list, BankPolicy::default(), true).unwrap();
    let five = HandSimSetup::new(
        opts("min-bet=5,max-bet=5"),
        4,
        &list,
        BankPolicy::default(),
        true,
    )
    .unwrap();
    let (a, b) = (hands(&one, 30_000, 3), hands(&five, 30_000, 3));
    assert!(
        a.splits > 500 && a.tapos > 500,
        "the policy stakes every way"
    );
    assert_eq!(b.bank_net, 5 * a.bank_net);
    for s in 0..4 {
        assert_eq!(b.player_net[s], 5 * a.player_net[s]);
    }
    assert_eq!(b.first_bets.iter().sum::<i64>(), 5 * 3 * 30_000);
    assert_eq!(b.violations, 0);
    // A policy raising on no card at limits 1–10 bets 1 throughout: the same figures.
    let wide =
        HandSimSetup::new(opts("max-bet=10"), 4, &list, BankPolicy::default(), true).unwrap();
    assert_eq!(hands(&wide, 30_000, 3), a);
}

#[test]
fn raising_on_the_face_down_card_bets_the_maximum_on_exactly_those_cards() {
    let opts = Options::default()
        .with_house_rules("min-bet=2,max-bet=7")
        .unwrap();
    let mut raise = [false; 10];
    raise[0] = true;
    raise[4] = true;
    let setup = HandSimSetup::new(opts, 3, &[busy(raise)], BankPolicy::default(), true).unwrap();
    let t = hands(&setup, 20_000, 5);
    assert_eq!(t.violations, 0, "money conserved with every size of bet");
    for (rank, &raised) in raise.iter().enumerate() {
        let per_hand = if raised { 7 } else { 2 };
        assert_eq!(t.first_bets[rank], per_hand * t.first_hands[rank] as i64);
    }
}

#[test]
fn the_sheet_raises_exactly_on_the_winning_face_down_cards() {
    // SHEET_RAISES says which face-down cards win on the sheet's play; measured again (flat
    // bets, 4 players, 4·10⁵ hands: every rank's interval is about ±0.005, the smallest
    // |EV| 0.07).
    let sheet = parse_policy("flat").unwrap();
    let setup = HandSimSetup::new(
        Options::default(),
        4,
        &[sheet],
        BankPolicy::default(),
        false,
    )
    .unwrap();
    let t = hands(&setup, 400_000, 11);
    for (rank, &raised) in SHEET_RAISES.iter().enumerate() {
        let m = t.first_card_ev(rank).unwrap();
        let ci = m.interval(0.9999);
        assert!(
            if raised { ci.low > 0.0 } else { ci.high < 0.0 },
            "rank {rank}: {} [{}, {}]",
            m.mean,
            ci.low,
            ci.high
        );
    }
    assert!(parse_policy("sheet").unwrap().raise == SHEET_RAISES);
    assert!(parse_policy("flat").unwrap().raise == [false; 10]);
}

#[test]
fn the_gambler_s_ruin_matches_its_closed_form() {
    // Each hand: −1 with chance 0.3, +1 with 0.5, and 0.2 the bank changes hands (net 0).
    // From c chips, ruin before the change is λ^c, λ the smaller root of
    // λ = 0.3 + 0.5 λ² (then the chance of a change is what is left).
    let mut nets = BTreeMap::new();
    nets.insert(-1, [3u64, 0]);
    nets.insert(1, [5, 0]);
    nets.insert(0, [0, 2]);
    let lambda = (1.0 - (1.0f64 - 4.0 * 0.5 * 0.3).sqrt()) / (2.0 * 0.5);
    for c in [1u32, 2, 5, 10] {
        let r = ruin_before_change(&nets, c).unwrap();
        assert!(
            (r - lambda.powi(c as i32)).abs() < 1e-12,
            "{c}: {r} vs {}",
            lambda.powi(c as i32)
        );
    }
    // A loss of 3 from 2 chips breaks at once; a hand that changes the bank still breaks it if
    // it takes the last chip.
    let mut nets = BTreeMap::new();
    nets.insert(-3, [0u64, 1]);
    nets.insert(2, [0, 1]);
    assert!((ruin_before_change(&nets, 2).unwrap() - 0.5).abs() < 1e-15);
    assert!(ruin_before_change(&BTreeMap::new(), 5).is_none());
    // A bank that never changes hands (steal=off), and bets too large to solve, get no figure
    // rather than a wrong one or a long wait.
    let mut nets = BTreeMap::new();
    nets.insert(-1, [5u64, 0]);
    nets.insert(1, [6, 0]);
    assert!(ruin_before_change(&nets, 3).is_none());
    let mut nets = BTreeMap::new();
    nets.insert(-1, [1u64, 0]);
    nets.insert(1_000_000, [1, 1]);
    assert!(ruin_before_change(&nets, 3).is_none());
}

fn sittings(
    setup: &BankrollSetup,
    n: u64,
    seed: u64,
) -> tahur::games::veintiuno::bankroll::BankrollTally {
    let spec = RunSpec {
        samples: n,
        seed,
        chunk_size: 16,
    };
    run(
        &BankrollSimulation::new(setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap()
    .tally
}

#[test]
fn chips_are_conserved_and_every_finished_sitting_has_one_winner() {
    let opts = Options::default()
        .with_house_rules("min-bet=2,max-bet=9")
        .unwrap();
    let list = [
        busy(SHEET_RAISES),
        parse_policy("sheet").unwrap(),
        PlayerPolicy::basic(),
    ];
    let setup =
        BankrollSetup::new(opts, 4, &list, BankPolicy::default(), 30, None, 20_000).unwrap();
    let t = sittings(&setup, 400, 2);
    assert_eq!(t.violations, 0, "chips conserved in every hand");
    assert_eq!(t.sittings, 400);
    assert_eq!(t.finished, 400, "sittings of 30 chips end");
    assert_eq!(t.winner.iter().sum::<u64>(), t.finished);
    assert_eq!(
        t.first_broken.iter().sum::<u64>(),
        400,
        "someone is broken first"
    );
    assert!(t.tenures_broken > 0, "banks are broken");
    // The same run at 1 and 2 threads, and split in shards, is the same (the runner's rule).
    let spec = RunSpec {
        samples: 64,
        seed: 9,
        chunk_size: 16,
    };
    let sim = BankrollSimulation::new(&setup);
    let one = run(
        &sim,
        &spec,
        None,
        &RunControl {
            threads: Some(1),
            ..Default::default()
        },
    )
    .unwrap();
    let two = run(
        &sim,
        &spec,
        None,
        &RunControl {
            threads: Some(2),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(one.tally, two.tally);
}

#[test]
fn the_first_bank_s_ruin_agrees_with_the_exact_gambler_s_ruin() {
    // A small bank (4 chips) against deep players (10⁶ chips: never broken), 8 decks so that
    // hands are nearly independent: the simulated chance that the first bank is broken before
    // the bank changes hands, and the gambler's ruin computed exactly on the distribution of the
    // bank's result per hand in the same hands, agree within 4 standard errors.
    let opts = Options::default().with_house_rules("decks=8").unwrap();
    let list = [PlayerPolicy::basic()];
    let setup = BankrollSetup::new(
        opts,
        4,
        &list,
        BankPolicy::default(),
        1_000_000,
        Some(4),
        60,
    )
    .unwrap();
    let t = sittings(&setup, 40_000, 4);
    assert!(t.first_ended > 39_000);
    let sim = t.first_broken_bank as f64 / t.first_ended as f64;
    let exact = ruin_before_change(&t.first_hand_nets, 4).unwrap();
    let se = (exact * (1.0 - exact) / t.first_ended as f64).sqrt();
    assert!(
        (sim - exact).abs() < 4.0 * se,
        "simulated {sim}, exact {exact}, SE {se}"
    );
    assert!(exact > 0.05 && exact < 0.5, "a real risk: {exact}");
}

#[test]
fn the_default_bank_gives_nothing_away_and_the_seeing_bank_wins_more() {
    // Paired on the same sittings (4 players, 2·10⁵ hands, 49 sittings): the default bank (never al puje)
    // does better than one that sends al puje, and one that draws by what it sees better than
    // the fixed 17, each at p < 0.05 (both are far beyond it).
    let out = common::json(&[
        "veintiuno",
        "compare",
        "--players",
        "4",
        "--a",
        "bank-puje=off",
        "--b",
        "bank-puje=on",
        "--hands",
        "200000",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let bank = |v: &serde_json::Value| {
        v["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["metric"] == "banks_result")
            .cloned()
            .unwrap_or_else(|| panic!("no bank row in {v}"))
    };
    let row = bank(&out);
    assert!(row["difference"].as_f64().unwrap() > 0.0, "{row}");
    assert!(row["p_value"].as_f64().unwrap() < 0.05, "{row}");
    let out = common::json(&[
        "veintiuno",
        "compare",
        "--players",
        "4",
        "--a",
        "bank-draw=sees",
        "--b",
        "bank-draw=fixed",
        "--hands",
        "200000",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let row = bank(&out);
    assert!(row["difference"].as_f64().unwrap() > 0.0, "{row}");
    assert!(row["p_value"].as_f64().unwrap() < 0.05, "{row}");
}

#[test]
fn flags_tries_the_bank_s_choices_and_bad_bets_are_refused() {
    let out = common::stdout(&[
        "veintiuno",
        "flags",
        "--players",
        "3",
        "--hands",
        "4096",
        "--seed",
        "1",
    ]);
    assert!(out.contains("bank sends al puje"), "{out}");
    assert!(out.contains("bank draws by what it sees"), "{out}");
    let e = common::fails(&[
        "veintiuno",
        "sim",
        "--players",
        "3",
        "--house",
        "min-bet=5,max-bet=2",
    ]);
    assert!(e.contains("min-bet=5") && e.contains("max-bet=2"), "{e}");
    let e = common::fails(&["veintiuno", "sim", "--players", "3", "--house", "max-bet=0"]);
    assert!(e.contains("max-bet") && e.contains("1 to 1000"), "{e}");
    let e = common::fails(&[
        "veintiuno",
        "bankroll",
        "--players",
        "3",
        "--chips",
        "3",
        "--house",
        "min-bet=5,max-bet=9",
    ]);
    assert!(e.contains("--chips 3") && e.contains("at least 5"), "{e}");
    let e = common::fails(&["veintiuno", "bankroll", "--players", "3", "--chips", "0"]);
    assert!(e.contains("chips") && e.contains('0'), "{e}");
}

#[test]
fn a_hand_the_pie_de_banco_ends_keeps_the_bank_where_it_was() {
    // Three seats: the pie de banco holds 6 + 7 (13) and ends the hand; the next player's 21 in
    // two cards (A + K) is paid at once (2 units) but, the same bank dealing again, does not
    // take the bank.
    use tahur::games::veintiuno::cards::Card;
    use tahur::games::veintiuno::engine::Table;
    use tahur::rng::{SeedableRng, Stream};
    let c = |s: &str| Some(Card::parse(s).unwrap());
    let mut table = Table::seated(
        Options::default(),
        3,
        BankPolicy::default(),
        Stream::seed_from_u64(1),
        true,
    );
    let bank = table.bank();
    // Firsts in playing order, the hole card, seconds, the up card.
    table
        .put_next(&[c("6H"), c("AS"), c("4C"), c("7D"), c("KS"), c("5C")])
        .unwrap();
    table.start_hand();
    let (seat, d) = table.pending().unwrap();
    assert_eq!(seat, (bank + 1) % 3, "the pie de banco decides first");
    assert!(d.can_end_hand);
    table.apply(Move::EndHand).unwrap();
    let r = table.finish_hand();
    assert!(r.voided);
    assert_eq!(
        r.player_net[(bank + 2) % 3],
        2,
        "the 21 in two cards was paid at once"
    );
    assert!(!r.stolen, "the same bank deals again");
    assert_eq!(table.bank(), bank);
}
