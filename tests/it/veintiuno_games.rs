//! 21 ecuatoriano hands: money conservation, every card once per shoe, dealt specials against
//! the exact odds.

use tahur::games::veintiuno::cards::Composition;
use tahur::games::veintiuno::engine::{BankPolicy, Move, PlayerPolicy, Table};
use tahur::games::veintiuno::exact::special_odds;
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::sim::{HandSimSetup, HandSimulation};
use tahur::rng::{SeedableRng, Stream};
use tahur::runner::{run, RunControl, RunSpec};
use tahur::stats::Proportion;

/// A policy that uses every move: tapo on hard 12–14, splits everything splittable, withdraws.
pub(crate) fn busy_policy() -> PlayerPolicy {
    let mut p = PlayerPolicy::basic();
    p.name = "busy".into();
    for t in 12..=14 {
        p.tapo[t] = [true; 10];
    }
    p.split = vec![[true; 10]; 10];
    p.withdraw = [true; 10];
    p.hard[15] = [Move::Hit; 10];
    p.void_as_pie = true;
    p
}

#[test]
fn money_is_conserved_and_no_card_is_dealt_twice() {
    let option_sets = [
        Options::default(),
        Options::default()
            .with_house_rules("decks=2,puje=off")
            .unwrap(),
        Options::default()
            .with_house_rules(
                "twelve=off,suited12=off,trillona=off,steal=off,tapo=off,withdraw13=off",
            )
            .unwrap(),
        Options::default()
            .with_house_rules("monona=2,natural=3")
            .unwrap(),
    ];
    for (k, opts) in option_sets.iter().enumerate() {
        for players in [2usize, 4, 8] {
            let list = [
                busy_policy(),
                PlayerPolicy::basic(),
                PlayerPolicy::mimic(15),
            ];
            let setup = HandSimSetup::new(
                *opts,
                players,
                &list[..list.len().min(players)],
                BankPolicy::default(),
                true,
            )
            .unwrap();
            let spec = RunSpec {
                samples: 20_000,
                seed: 7 + k as u64,
                chunk_size: 4096,
            };
            let r = run(
                &HandSimulation::new(&setup),
                &spec,
                None,
                &RunControl::default(),
            )
            .unwrap();
            let t = &r.tally;
            assert_eq!(t.violations, 0);
            assert_eq!(t.hands, 20_000);
            assert_eq!(
                t.bank_net + t.player_net.iter().sum::<i64>(),
                0,
                "money conserved"
            );
            assert_eq!(t.bank_net, t.bank_net_by_seat.iter().sum::<i64>());
            assert_eq!(
                t.player_hands.iter().sum::<u64>(),
                20_000 * (players as u64 - 1)
            );
            if opts.tapo && opts.withdraw_13 {
                assert!(
                    t.tapos > 0 && t.splits > 0 && t.withdrawals > 0 && t.voided > 0,
                    "every move was exercised"
                );
            } else {
                assert_eq!(t.tapos, 0);
                assert_eq!(t.withdrawals, 0);
            }
            if !opts.bank_steal {
                assert_eq!(t.steals, 0);
            }
        }
    }
}

#[test]
fn first_hands_deal_specials_at_the_exact_odds() {
    // The first hand of a fresh table deals uniformly random pairs from a full deck: the
    // frequency of each special must match the exact odds (4.5 standard errors).
    let opts = Options::default();
    let exact = special_odds(&Composition::full(1), &opts);
    let mut counts = [0u64; 6];
    let mut hands = 0u64;
    for seed in 0..100_000u64 {
        let mut table = Table::new(
            opts,
            vec![PlayerPolicy::mimic(17); 3],
            BankPolicy::default(),
            Stream::seed_from_u64(seed),
            false,
        );
        let r = table.play_hand();
        hands += 2;
        for (c, &n) in counts.iter_mut().zip(&r.specials) {
            *c += n as u64;
        }
    }
    let want = [
        exact.natural21,
        exact.monona,
        exact.twelve,
        exact.twelve_suited,
        exact.thirteen,
        exact.relancina,
    ];
    for k in 0..6 {
        let z = Proportion::new(counts[k], hands).z_score_against(want[k]);
        assert!(
            z.abs() < 4.5,
            "special {k}: {} of {hands} against {}: z = {z}",
            counts[k],
            want[k]
        );
    }
}

#[test]
fn the_shipped_sheet_beats_the_hand_written_default() {
    // The derived fresh-deck sheet (data/veintiuno/strategy.json) against `basic` at the same
    // table: its EV per hand as a player must be higher, by more than 4.5 standard errors.
    let sheet = tahur::games::veintiuno::sim::parse_policy("sheet").unwrap();
    let setup = HandSimSetup::new(
        Options::default(),
        2,
        &[sheet, PlayerPolicy::basic()],
        BankPolicy::default(),
        false,
    )
    .unwrap();
    let spec = RunSpec {
        samples: 400_000,
        seed: 5,
        chunk_size: 4096,
    };
    let t = run(
        &HandSimulation::new(&setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap()
    .tally;
    let ev = |s: usize| {
        let m = tahur::stats::MeanEstimate::from_sums(
            t.player_hands[s],
            t.player_net[s] as i128,
            t.player_net_sq[s] as u128,
        );
        (m.mean, m.standard_error())
    };
    let ((a, sa), (b, sb)) = (ev(0), ev(1));
    assert!(
        a - b > 4.5 * (sa * sa + sb * sb).sqrt(),
        "sheet {a} ± {sa}, basic {b} ± {sb}"
    );
}

#[test]
fn the_step_by_step_api_plays_the_same_hands() {
    // Driving the table through start_hand / pending / legal_moves / apply / finish_hand with
    // the policies' own choices gives exactly what play_hand gives; illegal moves are refused.
    let opts = Options::default();
    let policies = vec![
        busy_policy(),
        PlayerPolicy::basic(),
        PlayerPolicy::mimic(16),
    ];
    let mut fast = Table::new(
        opts,
        policies.clone(),
        BankPolicy::default(),
        Stream::seed_from_u64(9),
        true,
    );
    let mut steps = Table::new(
        opts,
        policies.clone(),
        BankPolicy::default(),
        Stream::seed_from_u64(9),
        true,
    );
    let mut refused = 0;
    for _ in 0..20_000 {
        let a = fast.play_hand();
        steps.start_hand();
        while let Some((seat, d)) = steps.pending() {
            let legal = steps.legal_moves();
            assert!(legal.contains(&Move::Stand) && legal.contains(&Move::Hit));
            for m in [Move::Split, Move::Tapo, Move::Withdraw, Move::EndHand] {
                if !legal.contains(&m) {
                    assert!(steps.clone().apply(m).is_err(), "{m:?} must be refused");
                    refused += 1;
                }
            }
            let m = policies[seat].decide(&d);
            assert!(legal.contains(&m), "policy move {m:?} not in {legal:?}");
            steps.apply(m).unwrap();
        }
        assert!(
            steps.apply(Move::Hit).is_err(),
            "nothing is pending after the players"
        );
        let b = steps.finish_hand();
        assert_eq!(a, b);
    }
    assert!(refused > 10_000);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Random seeds, house rules and table sizes: money is conserved in every hand and no card
    /// is dealt twice from one shoe (checks on; a duplicate would panic).
    #[test]
    fn hands_keep_the_rules_for_random_seeds(seed in proptest::prelude::any::<u64>(), players in 2usize..=8, decks in 1u8..=3, flags in proptest::prelude::any::<u16>()) {
        let on = |b: u16| if flags & (1 << b) != 0 { "on" } else { "off" };
        let spec = format!("decks={decks},twelve={},suited12={},trillona={},puje={},tapo={},withdraw13={},steal={}", on(0), on(1), on(2), on(3), on(4), on(5), on(6));
        let opts = Options::default().with_house_rules(&spec).unwrap();
        let list = [busy_policy(), PlayerPolicy::basic(), PlayerPolicy::mimic(15)];
        let setup = HandSimSetup::new(opts, players, &list[..list.len().min(players)], BankPolicy::default(), true).unwrap();
        let spec = RunSpec { samples: 3000, seed, chunk_size: 4096 };
        let t = run(&HandSimulation::new(&setup), &spec, None, &RunControl { threads: Some(1), progress: tahur::progress::Progress::hidden() }).unwrap().tally;
        proptest::prop_assert_eq!(t.violations, 0);
        proptest::prop_assert_eq!(t.bank_net + t.player_net.iter().sum::<i64>(), 0);
    }
}

/// The whole-game strategies: the policies by their names, and the search bot `ismcts[:N]`
/// (Spanish `busqueda`), each back from its name; anything else is refused naming both kinds.
#[test]
fn strategies_parse_with_the_policies_and_the_search() {
    use tahur::games::veintiuno::bots::{Strategy, DEFAULT_ISMCTS_BUDGET};
    for name in ["basic", "pie", "mimic:16", "sheet", "ismcts:40"] {
        let s = Strategy::parse(name).unwrap();
        assert_eq!(s.to_string(), name);
        assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s);
    }
    assert_eq!(
        Strategy::parse("búsqueda").unwrap(),
        Strategy::Ismcts {
            budget: DEFAULT_ISMCTS_BUDGET
        }
    );
    assert_eq!(
        Strategy::parse("ismcts:budget=7").unwrap(),
        Strategy::Ismcts { budget: 7 }
    );
    assert!(matches!(Strategy::parse("básica").unwrap(), Strategy::Policy(p) if p.name == "basic"));
    let e = Strategy::parse("cautious").unwrap_err().to_string();
    assert!(
        e.contains("cautious") && e.contains("mimic") && e.contains("ismcts"),
        "{e}"
    );
    let e = Strategy::parse("ismcts:0").unwrap_err().to_string();
    assert!(e.contains("ismcts:0"), "{e}");
}

/// A search bot plays whole sittings through the engine API with every check on: its moves
/// are legal, money is conserved, and the tallies do not depend on the threads.
#[test]
fn the_search_bot_plays_legal_moves_at_a_checked_table() {
    use tahur::games::veintiuno::bots::Strategy;
    use tahur::games::veintiuno::sitting::TableRules;
    use tahur::games::veintiuno::Veintiuno;
    use tahur::play::sim::GameSimulation;
    use tahur::play::{GameRules, TableSetup};
    let rules = TableRules::standard(3).with_changes("decks=2").unwrap();
    let list = [
        Strategy::parse("ismcts:25").unwrap(),
        Strategy::parse("basic").unwrap(),
    ];
    let setup = TableSetup::<Veintiuno>::new(rules, &list, true).unwrap();
    let sim = GameSimulation::new(&setup);
    let spec = RunSpec {
        samples: 300,
        seed: 4,
        chunk_size: 4096,
    };
    let control = |threads| RunControl {
        threads: Some(threads),
        progress: tahur::progress::Progress::hidden(),
    };
    let one = run(&sim, &spec, None, &control(1)).unwrap().tally;
    assert_eq!(one.length.sum as u64, 300);
    assert_eq!(one.violations + one.illegal_actions, 0);
    let players: i64 = one.seats.iter().map(|s| s.sum).sum();
    assert_eq!(
        players + one.counter(tahur::games::veintiuno::Counter::BankNet),
        0
    );
    assert_eq!(run(&sim, &spec, None, &control(2)).unwrap().tally, one);
}
