//! Whole Dudo games: rule invariants over many seeds, legality against an independent reading
//! of the rules, bots' odds against the exact engine, pass odds against closed forms.

use tahur::games::dudo::bots::{knowledge, OddsTables, Strategy};
use tahur::games::dudo::engine::{Action, CUP};
use tahur::games::dudo::paso;
use tahur::games::dudo::{AceRound, Bid, Bidding, Face, RuleSet, Rules, Situation};
use tahur::games::dudo::{Dudo, DudoState};
use tahur::play::sim::GameSimulation;
use tahur::play::{GameRules, Start, State, TableSetup};
use tahur::rng::{base_stream, SeedableRng, Stream};
use tahur::runner::{run, RunControl, RunSpec};

fn configs() -> Vec<Rules> {
    let mut v = Vec::new();
    for players in [2u8, 3, 5, 8] {
        v.push(Rules::standard(RuleSet::Chimbo9, players));
        v.push(Rules::standard(RuleSet::Caleuchano, players));
        v.push(
            Rules::standard(RuleSet::Caleuchano, players)
                .with_changes("lives=3,aces-need-natural=on")
                .unwrap(),
        );
        v.push(
            Rules::standard(RuleSet::Chimbo9, players)
                .with_changes("ace-round=ceil,paso=on,reforzada=on")
                .unwrap(),
        );
        v.push(
            Rules::standard(RuleSet::Chimbo9, players)
                .with_changes("aces-or-more=on")
                .unwrap(),
        );
    }
    v
}

/// Plays a game with the given strategies, checking every rule invariant after every action.
fn checked_game(cfg: Rules, strategies: &[Strategy], seed: u64) -> (u64, usize) {
    let odds = OddsTables::new(cfg.players as u32 * 5);
    let mut dice = Stream::seed_from_u64(seed);
    let mut decisions = Stream::seed_from_u64(seed ^ 0xABCD);
    let mut g = DudoState::deal(&cfg, &Start::default(), &mut dice);
    let n = cfg.players as usize;
    let mut passes_this_round = vec![0u32; n];
    let mut obligado_face: Option<Face> = None;
    let mut actions = 0u32;
    let mut legal = Vec::new();
    loop {
        g.check_invariants().unwrap();
        let p = g.to_act();
        let view = g.view(p);
        let a = strategies[p % strategies.len()].act(&view, &odds, &mut decisions);
        assert!(view.is_legal(a), "bot chose an illegal action {a:?}");
        // The legal list and the check agree.
        g.legal_actions(&mut legal);
        assert!(legal.contains(&a), "{a:?} not in the legal list");
        // In a normal round the engine's raises are exactly the independent reading's, every
        // face and quantity up to what the table holds (the millas bonus included).
        if let (Some(prev), None) = (view.bid(), view.obligado()) {
            let ceil = cfg.bidding.ace_round == AceRound::Ceil;
            for face in Face::ALL {
                for quantity in 1..=g.max_quantity(face) {
                    let next = Bid { quantity, face };
                    let listed = legal.contains(&Action::Raise {
                        bid: next,
                        reinforce: false,
                    });
                    assert_eq!(
                        listed,
                        reference_raise(
                            cfg.bidding.set,
                            ceil,
                            cfg.bidding.aces_or_more,
                            prev,
                            next
                        ),
                        "{:?}: {prev} -> {next}",
                        cfg.bidding
                    );
                }
            }
        }
        if let Action::Open {
            obligado: true,
            bid,
            ..
        } = a
        {
            obligado_face = Some(bid.face);
        }
        if let (Some(face), Action::Raise { bid, .. }) = (obligado_face, a) {
            if bid.face != face {
                assert!(
                    view.may_change_face(),
                    "face changed in obligado by a player who may not"
                );
                obligado_face = Some(bid.face);
            }
        }
        if a == Action::Pass {
            passes_this_round[p] += 1;
            assert_eq!(passes_this_round[p], 1, "paso twice in one round");
            assert!(cfg.paso);
        }
        let round_was_obligado = view.obligado().is_some();
        let lives_before: u32 = (0..n).map(|q| g.lives(q) as u32).sum();
        let dice_before = g.dice_on_table();
        let rounds_before = g.length();
        g.apply(a, &mut dice).unwrap();
        actions += 1;
        assert!(actions < 100_000, "a game must end");
        let lives_after: u32 = (0..n).map(|q| g.lives(q) as u32).sum();
        if let Some(winner) = g.winner() {
            assert!(g.is_over());
            assert_eq!(a, Action::Doubt, "only a doubt ends a game");
            assert_eq!(lives_after + 1, lives_before);
            assert_eq!(g.players_in(), 1);
            assert!(g.lives(winner) > 0);
            assert!(g.length() <= cfg.players as u64 * cfg.lives as u64);
            return (g.length(), winner);
        } else if g.length() == rounds_before {
            assert_eq!(lives_after, lives_before);
            assert_eq!(
                g.dice_on_table(),
                dice_before,
                "dice never change within a round"
            );
        } else {
            assert_eq!(g.length(), rounds_before + 1);
            assert_eq!(a, Action::Doubt, "only a doubt ends a round");
            assert_eq!(
                lives_after + 1,
                lives_before,
                "a challenge costs exactly one life"
            );
            assert_eq!(g.dice_on_table(), CUP as u32 * g.players_in() as u32);
            passes_this_round.iter_mut().for_each(|x| *x = 0);
            obligado_face = None;
            if round_was_obligado {
                assert!(cfg.obligado);
            }
        }
    }
}

#[test]
fn rules_hold_over_many_seeded_games() {
    let mixes: Vec<Vec<Strategy>> = vec![
        vec![Strategy::Random],
        vec![Strategy::threshold(0.4, 0.2), Strategy::Random],
        vec![
            Strategy::Honest,
            Strategy::threshold(0.3, 0.0),
            Strategy::Random,
        ],
        vec![Strategy::Tuned],
        vec![Strategy::Duel, Strategy::Random],
    ];
    let mut games = 0;
    for (c, cfg) in configs().into_iter().enumerate() {
        for (m, mix) in mixes.iter().enumerate() {
            for seed in 0..12u64 {
                checked_game(cfg, mix, seed * 1000 + c as u64 * 10 + m as u64);
                games += 1;
            }
        }
    }
    assert_eq!(games, 20 * 5 * 12);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Random seeds, tables and strategy mixes: every rule invariant holds after every action.
    #[test]
    fn rules_hold_for_random_seeds(seed in proptest::prelude::any::<u64>(), c in 0usize..20, picks in proptest::collection::vec(0usize..4, 1..4)) {
        let all = [Strategy::Random, Strategy::Honest, Strategy::threshold(0.35, 0.15), Strategy::Tuned];
        let cfg = configs()[c];
        let mix: Vec<Strategy> = picks.iter().map(|&i| all[i].clone()).collect();
        checked_game(cfg, &mix, seed);
    }
}

#[test]
fn simulated_games_report_no_violations() {
    for cfg in configs() {
        let mix = [
            Strategy::threshold(0.4, 0.1),
            Strategy::Random,
            Strategy::Honest,
        ];
        let setup = TableSetup::<Dudo>::new(cfg, &mix[..mix.len().min(cfg.players as usize)], true)
            .unwrap();
        let spec = RunSpec {
            samples: 1500,
            seed: 3,
            chunk_size: 256,
        };
        let r = run(
            &GameSimulation::new(&setup),
            &spec,
            None,
            &RunControl::default(),
        )
        .unwrap();
        assert_eq!(r.tally.violations, 0, "{cfg:?}");
        assert_eq!(r.tally.games, 1500);
        let wins: u64 = (0..cfg.players as usize)
            .map(|s| r.tally.seat_count(s))
            .sum();
        assert_eq!(wins, 1500);
    }
}

/// docs/rules.md §1 read independently: is `next` a legal raise over `prev`?
fn reference_raise(set: RuleSet, ceil: bool, or_more: bool, prev: Bid, next: Bid) -> bool {
    let (q, a) = (prev.quantity, next.quantity);
    match (prev.face.is_ace(), next.face.is_ace()) {
        (false, false) => a > q || (a == q && next.face > prev.face),
        (true, true) => a > q,
        (true, false) => a > 2 * q, // at least 2A + 1
        (false, true) => match set {
            RuleSet::Caleuchano => 2 * a >= q,
            RuleSet::Chimbo9 => {
                // At least "la mitad más uno" (more allowed), but never the same quantity: Q
                // aces after Q of another face lower the face without raising the quantity
                // ("dos ases" after "dos tontos" is illegal; so are 3 aces after 3 quinas).
                // The house rule `aces-or-more` (docs/rules.md's reading) drops that exception.
                let half = if ceil { q.div_ceil(2) } else { q / 2 };
                a > half && (or_more || a != q)
            }
        },
    }
}

#[test]
fn raise_legality_matches_an_independent_reading() {
    for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
        for (ceil, or_more) in [(false, false), (true, false), (false, true), (true, true)] {
            if (ceil || or_more) && set == RuleSet::Caleuchano {
                continue;
            }
            let rules = Bidding {
                set,
                ace_round: if ceil {
                    AceRound::Ceil
                } else {
                    AceRound::Floor
                },
                aces_need_natural: false,
                aces_or_more: or_more,
            };
            for q in 1..=30u32 {
                for f in 1..=6u8 {
                    for q2 in 1..=30u32 {
                        for f2 in 1..=6u8 {
                            let prev = Bid {
                                quantity: q,
                                face: Face::new(f).unwrap(),
                            };
                            let next = Bid {
                                quantity: q2,
                                face: Face::new(f2).unwrap(),
                            };
                            assert_eq!(
                                rules.is_raise(prev, next),
                                reference_raise(set, ceil, or_more, prev, next),
                                "{set:?} ceil={ceil} or_more={or_more}: {prev} -> {next}"
                            );
                        }
                    }
                }
            }
        }
    }
    // Under the house rule, "dos ases" after "dos tontos" and 3 aces after 3 quinas are legal,
    // and legality is monotone in the quantity of aces.
    let or_more = Rules::standard(RuleSet::Chimbo9, 4)
        .with_changes("aces-or-more=on")
        .unwrap()
        .bidding;
    let bid = |q, f| Bid {
        quantity: q,
        face: Face::new(f).unwrap(),
    };
    assert!(or_more.is_raise(bid(2, 2), bid(2, 1)));
    assert!(or_more.is_raise(bid(3, 5), bid(3, 1)));
    assert!(!Bidding::new(RuleSet::Chimbo9).is_raise(bid(3, 5), bid(3, 1)));
    assert!(Rules::standard(RuleSet::Caleuchano, 4)
        .with_changes("aces-or-more=on")
        .unwrap()
        .validate()
        .is_err());
}

#[test]
fn bots_odds_equal_the_exact_engine() {
    // At random moments of real games, the bots' table lookup equals the exact distribution
    // computed from the same knowledge.
    let mut checked = 0;
    for cfg in configs() {
        let odds = OddsTables::new(cfg.players as u32 * 5);
        let mut dice = base_stream(cfg.players as u64);
        let mut decisions = Stream::seed_from_u64(9);
        let mut g = DudoState::deal(&cfg, &Start::default(), &mut dice);
        for _ in 0..60 {
            let p = g.to_act();
            let view = g.view(p);
            let (known, unknown) = knowledge(&view);
            let mut visible = Vec::new();
            for (f, &c) in known.iter().enumerate() {
                visible.extend(std::iter::repeat_n(
                    Face::new(f as u8 + 1).unwrap(),
                    c as usize,
                ));
            }
            let obligado = view.obligado().is_some();
            let s =
                Situation::new(view.dice_on_table(), vec![], visible, cfg.bidding, false).unwrap();
            let s = Situation { obligado, ..s };
            assert_eq!(s.unknown(), unknown);
            for face in Face::ALL {
                let d = s.distribution(face);
                for q in 1..=view.dice_on_table() + 1 {
                    let bid = Bid { quantity: q, face };
                    let fast = odds.bid_true(&view, bid, &known, unknown);
                    assert!(
                        (fast - d.at_least(q)).abs() < 1e-12,
                        "{cfg:?} {bid}: {fast} vs {}",
                        d.at_least(q)
                    );
                    checked += 1;
                }
            }
            let a = Strategy::threshold(0.4, 0.1).act(&view, &odds, &mut decisions);
            g.apply(a, &mut dice).unwrap();
            if g.is_over() {
                break;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn pass_odds_equal_closed_forms_and_multiset_counting() {
    // Five unseen dice: poker 6·5·5 + 6 = 156, full 6·5·10 = 300, pichanga 6·5·4·3·2 = 720.
    let o = paso::odds(&[]).unwrap();
    assert_eq!(
        (o.poker, o.full, o.pichanga, o.total),
        (156, 300, 720, 7776)
    );
    // With shown dice: count multisets of the unseen dice with multinomial weights instead of
    // ordered rolls.
    for shown in [
        vec![4u8],
        vec![4, 4],
        vec![2, 5],
        vec![1, 1, 1],
        vec![3, 3, 3, 3],
        vec![1, 2, 3, 4, 5],
    ] {
        let faces: Vec<Face> = shown.iter().map(|&d| Face::new(d).unwrap()).collect();
        let o = paso::odds(&faces).unwrap();
        let unseen = 5 - shown.len();
        let mut holds = 0u64;
        let mut counts = [0usize; 6];
        fn rec(
            face: usize,
            left: usize,
            counts: &mut [usize; 6],
            shown: &[u8],
            holds: &mut u64,
            unseen: usize,
        ) {
            if face == 5 {
                counts[5] = left;
                let mut all = *counts;
                for &s in shown {
                    all[(s - 1) as usize] += 1;
                }
                let max = *all.iter().max().unwrap();
                let pairs = all.iter().filter(|&&c| c == 2).count();
                let ok = max >= 4 || (max == 3 && pairs == 1) || max == 1;
                if ok {
                    // multinomial: unseen! / Π counts!
                    let fact = |n: usize| (1..=n as u64).product::<u64>().max(1);
                    *holds += fact(unseen) / counts.iter().map(|&c| fact(c)).product::<u64>();
                }
                return;
            }
            for c in 0..=left {
                counts[face] = c;
                rec(face + 1, left - c, counts, shown, holds, unseen);
            }
        }
        rec(0, unseen, &mut counts, &shown, &mut holds, unseen);
        assert_eq!(o.holds(), holds, "shown {shown:?}");
    }
}

#[test]
fn threshold_beats_random_at_three_players() {
    let setup = TableSetup::<Dudo>::new(
        Rules::standard(RuleSet::Chimbo9, 3),
        &[
            Strategy::threshold(0.4, 0.0),
            Strategy::Random,
            Strategy::Random,
        ],
        false,
    )
    .unwrap();
    let spec = RunSpec {
        samples: 10_000,
        seed: 11,
        chunk_size: 256,
    };
    let r = run(
        &GameSimulation::new(&setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap();
    let wins = |s: usize| r.tally.seat_count(s) as f64;
    let threshold = wins(0) / 10_000.0;
    let random = (wins(1) + wins(2)) / 20_000.0;
    assert!(
        threshold > 0.9 && random < 0.05,
        "threshold {threshold}, random {random}"
    );
    // Among equal bots the seats share the wins: every seat within 4.5 SE of a third.
    let setup = TableSetup::<Dudo>::new(
        Rules::standard(RuleSet::Chimbo9, 3),
        &[Strategy::threshold(0.4, 0.0)],
        false,
    )
    .unwrap();
    let r = run(
        &GameSimulation::new(&setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap();
    let se = (1.0 / 3.0 * 2.0 / 3.0 / 10_000.0f64).sqrt();
    for s in 0..3 {
        let w = r.tally.seat_count(s) as f64;
        assert!(
            (w / 10_000.0 - 1.0 / 3.0).abs() < 4.5 * se,
            "{:?}",
            r.tally.seats
        );
    }
}

/// The search bot plays legal actions, passes a single legal action on without searching and,
/// once warm, allocates nothing more for more games (its arena and its play-outs reuse their
/// room).
#[test]
fn the_search_bot_plays_and_allocates_nothing_once_warm() {
    use tahur::play::Strategy as _;
    let list = Strategy::parse_list("ismcts:30,threshold").unwrap();
    assert_eq!(list[0], Strategy::Ismcts { budget: 30 });
    let setup = TableSetup::<Dudo>::new(Rules::standard(RuleSet::Chimbo9, 3), &list, true).unwrap();
    assert!(list[0].is_slow() && !list[1].is_slow());
    let spec = RunSpec {
        samples: 40,
        seed: 5,
        chunk_size: setup.chunk_size(),
    };
    let r = run(
        &GameSimulation::new(&setup),
        &spec,
        None,
        &RunControl::default(),
    )
    .unwrap();
    assert_eq!(r.tally.violations + r.tally.illegal_actions, 0);
    assert_eq!(r.tally.games, 40);
    crate::allocations::flat(&GameSimulation::new(&setup), 3, 12, "Dudo search");
}
