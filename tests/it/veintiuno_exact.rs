//! 21 ecuatoriano exact figures against independent computations.

use std::collections::HashMap;

use tahur::games::veintiuno::cards::{Card, Composition, DECK};
use tahur::games::veintiuno::exact::{bank_from, bank_infinite, special_odds, BUST};
use tahur::games::veintiuno::rules::{two_card_total, Options, Points};

#[test]
fn full_deck_specials_equal_closed_forms() {
    // One 40-card deck: C(40, 2) = 780 pairs.
    let o = special_odds(&Composition::full(1), &Options::default());
    assert_eq!(o.pairs_counted, 780);
    let eq = |p: f64, n: f64| assert!((p - n / 780.0).abs() < 1e-15, "{p} vs {n}/780");
    eq(o.natural21, 48.0); // 4 aces × 12 figures
    eq(o.monona, 6.0); // C(4, 2)
    eq(o.twelve_suited, 16.0); // 5+7 of a suit: 4; 2+figure of a suit: 4 × 3
    eq(o.twelve, 54.0); // 5+7: 16, 6+6: 6, 2+figure: 48, less the 16 suited
    eq(o.thirteen, 80.0); // 6+7: 16, 3+figure: 48, A+2: 16
    eq(o.relancina, 48.0); // C(12, 2) − 3 · C(4, 2)
    eq(o.pair, 60.0); // 10 ranks × C(4, 2)
}

#[test]
fn depleted_specials_equal_enumeration_of_physical_cards() {
    let comp = Composition::from_removed(2, "AH,AS,KD,KD,5C,7C,7H,2S,QH,JS,6D,6D,6S").unwrap();
    let mut cards = Vec::new();
    for (i, &n) in comp.counts.iter().enumerate() {
        for _ in 0..n {
            cards.push(Card::from_index(i));
        }
    }
    let o = special_odds(&comp, &Options::default());
    let (mut nat, mut mon, mut tw, mut tws, mut th, mut rel, mut all) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            let (a, b) = (cards[i], cards[j]);
            all += 1;
            let hard = a.points() + b.points();
            if a.is_ace() && b.is_ace() {
                mon += 1;
            } else if (a.is_ace() && b.is_figure()) || (b.is_ace() && a.is_figure()) {
                nat += 1;
            } else if hard == 12 && a.suit() == b.suit() {
                tws += 1;
            } else if hard == 12 {
                tw += 1;
            } else if hard == 13 || (hard == 3 && (a.is_ace() || b.is_ace())) {
                th += 1;
            } else if a.is_figure() && b.is_figure() && a.rank() != b.rank() {
                rel += 1;
            }
        }
    }
    assert_eq!(o.pairs_counted, all);
    let f = |n: u64| n as f64 / all as f64;
    for (got, want) in [
        (o.natural21, f(nat)),
        (o.monona, f(mon)),
        (o.twelve, f(tw)),
        (o.twelve_suited, f(tws)),
        (o.thirteen, f(th)),
        (o.relancina, f(rel)),
    ] {
        assert!((got - want).abs() < 1e-15, "{got} vs {want}");
    }
}

/// Forward dynamic programming over (hard points, holds an ace) with each rank 1/10: a
/// different algorithm from the library's recursion.
fn bank_forward(up_rank: usize, stand: u8, opts: &Options) -> [f64; 23] {
    let mut out = [0.0; 23];
    let mut live: HashMap<(u8, bool), f64> = HashMap::new();
    for hole in 0..10 {
        for same in [true, false] {
            let w = 0.1 * if same { 0.25 } else { 0.75 };
            let (u, h) = (
                Card::new(up_rank, 0),
                Card::new(hole, if same { 0 } else { 2 }),
            );
            let two = two_card_total(u, h, opts);
            let p = Points::default().add(u).add(h);
            if two >= stand || two != p.total() {
                out[two as usize] += w;
            } else {
                *live.entry((p.hard, p.ace)).or_default() += w;
            }
        }
    }
    while !live.is_empty() {
        let mut next: HashMap<(u8, bool), f64> = HashMap::new();
        for ((hard, ace), w) in live {
            for r in 0..10 {
                let p = Points { hard, ace }.add(Card::new(r, 0));
                if p.hard > 21 {
                    out[BUST] += w * 0.1;
                } else if p.total() >= stand {
                    out[p.total() as usize] += w * 0.1;
                } else {
                    *next.entry((p.hard, p.ace)).or_default() += w * 0.1;
                }
            }
        }
        live = next;
    }
    out
}

#[test]
fn infinite_deck_bank_equals_forward_dp() {
    for opts in [
        Options::default(),
        Options {
            twelve_counts_20: false,
            suited_twelve_21: false,
            ..Options::default()
        },
    ] {
        for up in 0..10 {
            for stand in [15u8, 17, 19] {
                let a = bank_infinite(up, stand, &opts);
                let b = bank_forward(up, stand, &opts);
                for t in 0..23 {
                    assert!(
                        (a[t] - b[t]).abs() < 1e-12,
                        "up {up} stand {stand} total {t}: {} vs {}",
                        a[t],
                        b[t]
                    );
                }
            }
        }
    }
}

/// Every ordering of physical cards, depth first, no memo.
fn bank_brute(cards: &mut Vec<Card>, pts: Points, stand: u8, w: f64, out: &mut [f64; 23]) {
    let n = cards.len();
    for i in 0..n {
        let c = cards.swap_remove(i);
        let p = pts.add(c);
        let wi = w / n as f64;
        if p.hard > 21 {
            out[BUST] += wi;
        } else if p.total() >= stand {
            out[p.total() as usize] += wi;
        } else {
            bank_brute(cards, p, stand, wi, out);
        }
        cards.push(c);
        let last = cards.len() - 1;
        cards.swap(i, last);
    }
}

#[test]
fn composition_bank_equals_brute_force_over_physical_cards() {
    let opts = Options::default();
    let comp = Composition::from_removed(
        1,
        "KH,KD,KC,QS,QH,JD,JC,7S,7D,6H,5C,5S,4D,3H,2C,2D,AS,6S,7H,JS",
    )
    .unwrap();
    for up in ["2H", "6C", "AH", "KS"] {
        let upc = Card::parse(up).unwrap();
        let mut rest = comp.clone();
        rest.remove(upc).unwrap();
        let lib = bank_from(&rest, upc, 17, &opts);
        let mut cards: Vec<Card> = (0..DECK)
            .flat_map(|i| std::iter::repeat_n(Card::from_index(i), rest.counts[i] as usize))
            .collect();
        let mut out = [0.0; 23];
        let total = cards.len() as f64;
        for i in 0..cards.len() {
            let hole = cards.swap_remove(i);
            let two = two_card_total(upc, hole, &opts);
            let p = Points::default().add(upc).add(hole);
            if two >= 17 || two != p.total() {
                out[two as usize] += 1.0 / total;
            } else {
                bank_brute(&mut cards, p, 17, 1.0 / total, &mut out);
            }
            cards.push(hole);
            let last = cards.len() - 1;
            cards.swap(i, last);
        }
        for t in 0..23 {
            assert!(
                (lib[t] - out[t]).abs() < 1e-13,
                "up {up} total {t}: {} vs {}",
                lib[t],
                out[t]
            );
        }
    }
}

/// Every move's exact EV for chosen hands (fresh and depleted shoes) against the engine itself
/// dealing the rest of the shoe at random: 100 000 deals per hand, each move played from the
/// same deal (a clone of the table), later decisions by `basic`; each mean within 4 standard
/// errors of the exact value. Splits included: a pair of 7s against a 4, which `basic` splits
/// (and splits again when a 7 comes), from one deck and from two (six 7s left: one pair can
/// become seven hands), fresh and with most other cards of the second deck gone (7s come more
/// often).
#[test]
fn exact_moves_match_the_engine_dealing_at_random() {
    use tahur::games::veintiuno::engine::{BankPolicy, Move, PlayerPolicy, Table};
    use tahur::games::veintiuno::solve::hand_evs;
    use tahur::rng::{Rng, SeedableRng, Stream};
    let c = |s: &str| Card::parse(s).unwrap();
    let policy = PlayerPolicy::basic();
    // (hand, up card, cards already dealt, decks)
    let cases = [
        ("JH,6S", "7C", "", 1),
        ("AD,5C", "4S", "", 1),
        ("6H,7D", "KS", "", 1),
        ("QH,5S", "2C", "AH,AS,KD,KS,QD,7C,7H,2D,3C", 1),
        ("4D,3H", "5S", "JH,JD,QS,KC,6C,6D,2S", 1),
        ("7H,7D", "4S", "", 1),
        ("7H,7D", "4S", "", 2),
        (
            "7S,7C",
            "5D",
            "AH,AS,AD,AC,2H,2S,2D,2C,3H,3S,3D,3C,4H,4S,4D,4C,6H,6S,6D,6C,JH,JS,QH,QS,KH,KS",
            2,
        ),
    ];
    const DEALS: u64 = 100_000;
    let mut rng = Stream::seed_from_u64(21);
    for (hand, up, removed, decks) in cases {
        let opts = Options {
            decks,
            ..Options::default()
        };
        let hand: Vec<Card> = hand.split(',').map(c).collect();
        let up = c(up);
        let removed: Vec<Card> = removed
            .split(',')
            .filter(|s| !s.is_empty())
            .map(c)
            .collect();
        let comp = Composition::from_removed(
            decks,
            &removed
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(","),
        )
        .unwrap();
        // The bank the exact values are solved against: it draws to 17 (not the default bank,
        // which draws by what it sees) and never sends al puje (so the hole card may make 20
        // at a decision).
        let bank = BankPolicy::fixed(17);
        assert!(!bank.puje && !bank.sees);
        let exact = hand_evs(&opts, &comp.counts, 17, bank.puje, &policy, &hand, up).unwrap();
        let moves: Vec<Move> = exact.iter().map(|x| x.0).collect();
        let mut sum = vec![0.0; moves.len()];
        let mut sq = vec![0.0; moves.len()];
        let mut n = 0u64;
        let mut table = Table::seated(opts, 2, bank, Stream::seed_from_u64(0), false);
        while n < DEALS {
            table.restart(Stream::seed_from_u64(rng.next_u64()));
            // The cards dealt before lie at the bottom of the shoe, out of this hand's reach.
            let cards = 40 * decks as usize;
            let mut next = vec![None; cards];
            next[0] = Some(hand[0]);
            next[2] = Some(hand[1]);
            next[3] = Some(up);
            for (k, &r) in removed.iter().enumerate() {
                next[cards - 1 - k] = Some(r);
            }
            table.put_next(&next).unwrap();
            table.start_hand();
            let Some((seat, _)) = table.pending() else {
                table.finish_hand();
                continue; // al puje: nobody decides
            };
            for (k, &m) in moves.iter().enumerate() {
                let mut t = table.clone();
                t.apply(m).unwrap();
                while let Some((_, d)) = t.pending() {
                    t.apply(policy.decide(&d)).unwrap();
                }
                let net = t.finish_hand().player_net[seat] as f64;
                sum[k] += net;
                sq[k] += net * net;
            }
            n += 1;
        }
        for (k, &m) in moves.iter().enumerate() {
            let mean = sum[k] / n as f64;
            let se = ((sq[k] / n as f64 - mean * mean) / (n as f64 - 1.0)).sqrt();
            let want = exact.iter().find(|x| x.0 == m).unwrap().1;
            assert!(
                (mean - want).abs() <= 4.0 * se,
                "{hand:?} against {up}, {m}: engine {mean:.5} ± {se:.5}, exact {want:.5}"
            );
        }
    }
}

/// The shipped sheet is the exact sheet of a fresh shoe (it is stale otherwise: regenerate it
/// with `cargo run --release -- veintiuno strategy --write data/veintiuno/strategy.json
/// --format markdown --output data/veintiuno/strategy.md --chart data/veintiuno/strategy.svg`).
#[test]
fn the_shipped_sheet_is_the_exact_fresh_shoe_sheet() {
    use tahur::games::veintiuno::advise::SHIPPED;
    use tahur::games::veintiuno::engine::BankPolicy;
    use tahur::games::veintiuno::strategy::{derive_exact, Sheet, StrategyQuery};
    let shipped: Sheet = serde_json::from_str(SHIPPED).unwrap();
    let q = StrategyQuery {
        options: Options::default(),
        composition: Composition::full(1),
        // Solved against the bank that draws to 17, whatever the default bank is.
        bank: BankPolicy::fixed(17),
        infinite: false,
        samples: 0,
        seed: 0,
    };
    let now = derive_exact(&q);
    assert_eq!(
        now.exact.len(),
        shipped.exact.len(),
        "data/veintiuno/strategy.json is stale"
    );
    for (a, b) in now.exact.iter().zip(&shipped.exact) {
        assert_eq!(a.row, b.row, "data/veintiuno/strategy.json is stale");
        for (x, y) in a.cells.iter().zip(&b.cells) {
            assert_eq!(x.len(), y.len(), "{}: stale", a.row);
            for (m, n) in x.iter().zip(y) {
                assert!(
                    m.0 == n.0 && (m.1 - n.1).abs() < 1e-12,
                    "data/veintiuno/strategy.json is stale at {}: {m:?} now, {n:?} shipped",
                    a.row
                );
            }
        }
    }
    assert_eq!(now.hard, shipped.hard);
}

/// `veintiuno advise` answers every cell of the shipped sheet as the sheet has it: for each row
/// and up card, a hand of that row gets the cell's moves, EVs and best move.
#[test]
fn advise_agrees_with_the_sheet_cell_for_cell() {
    use tahur::games::veintiuno::advise::{report, situation, Situation, SHIPPED};
    use tahur::games::veintiuno::strategy::{best_of, Sheet};
    use tahur::report::{render, Format};
    let opts = Options::default();
    let sheet: Sheet = serde_json::from_str(SHIPPED).unwrap();
    // Hands of two and three cards by rank, in different suits.
    let mut hands: Vec<Vec<Card>> = Vec::new();
    for a in 0..10 {
        for b in 0..10 {
            hands.push(vec![Card::new(a, 0), Card::new(b, 1)]);
            for c in 0..10 {
                hands.push(vec![Card::new(a, 0), Card::new(b, 1), Card::new(c, 2)]);
            }
        }
    }
    let mut checked = 0;
    for row in &sheet.exact {
        let Some(hand) = hands
            .iter()
            .find(|h| matches!(situation(h, &opts), Situation::Row(r) if r == row.row))
        else {
            // Hard 4 and 5 are two-card hands only, which the two-card rows answer, and two
            // cards of 4 are 2 and 2, which the pair row answers.
            assert!(
                row.cells.iter().all(|c| c.is_empty())
                    || ["hard 4", "hard 5", "two cards 4"].contains(&row.row.as_str()),
                "no hand for {}",
                row.row
            );
            continue;
        };
        for up_rank in 0..10 {
            let cell = &row.cells[up_rank.min(7)];
            let up = Card::new(up_rank, 3);
            if cell.is_empty() {
                continue;
            }
            let rep = report(hand, up, &sheet, &opts, "test").unwrap();
            let v: serde_json::Value =
                serde_json::from_str(&render(&rep, Format::Json).unwrap()).unwrap();
            let moves = v["moves"].as_array().unwrap();
            assert_eq!(moves.len(), cell.len(), "{} against {up}", row.row);
            let (best, _, margin) = best_of(cell).unwrap();
            for (m, (code, ev)) in moves.iter().zip(cell) {
                let name = tahur::games::veintiuno::engine::Move::from_code(*code)
                    .unwrap()
                    .to_string();
                assert_eq!(m["move"], name.as_str());
                assert!((m["ev"].as_f64().unwrap() - ev).abs() < 1e-12);
                assert_eq!(m["best"] == true, *code == best, "{} against {up}", row.row);
            }
            assert!((v["margin"].as_f64().unwrap() - margin).abs() < 1e-12);
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked} cells");
}

#[test]
fn advise_refuses_bad_input_with_one_line() {
    for (args, needle) in [
        (
            &["veintiuno", "advise", "--hand", "10,x", "--up", "7"][..],
            "'x'",
        ),
        (
            &["veintiuno", "advise", "--hand", "10", "--up", "7"][..],
            "two cards",
        ),
        (
            &["veintiuno", "advise", "--hand", "10,6", "--up", "8"][..],
            "'8'",
        ),
        (
            &[
                "veintiuno",
                "advise",
                "--hand",
                "10,6",
                "--up",
                "7",
                "--removed",
                "AH,AH",
            ][..],
            "AH",
        ),
        (
            &[
                "veintiuno",
                "advise",
                "--hand",
                "10,6",
                "--up",
                "7",
                "--house",
                "decks=0",
            ][..],
            "decks",
        ),
    ] {
        let e = crate::common::fails(args);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
    let v = crate::common::json(&[
        "veintiuno",
        "advise",
        "--hand",
        "rey,seis",
        "--up",
        "siete",
        "--format",
        "json",
    ]);
    assert_eq!(v["best"], "tapo y quedo");
}

/// Against a bank that stands only on 21, an ace up ends on 21 or past it, so a hand that
/// cannot pass 21 with one card wins exactly when the bank passes 21, hit or stand: and since
/// the cards it draws are to the bank cards dealt unseen (the burn-card argument), hitting hard
/// 4 to 11 and standing have one EV. The sums differ in the last bits; the sheet calls each a
/// tie (stand, margin under 10⁻¹²) rather than letting rounding choose — and a hand that can
/// pass 21 stands (hitting only adds a way to lose).
#[test]
fn a_bank_that_stands_only_on_21_against_an_ace_makes_hit_and_stand_a_tie() {
    use tahur::games::veintiuno::engine::BankPolicy;
    use tahur::games::veintiuno::strategy::{derive_exact, StrategyQuery};
    let q = StrategyQuery {
        options: Options::default(),
        composition: Composition::full(1),
        bank: BankPolicy::fixed(21),
        infinite: false,
        samples: 0,
        seed: 0,
    };
    let sheet = derive_exact(&q);
    for t in 4..=20 {
        let row = sheet
            .exact
            .iter()
            .find(|r| r.row == format!("hard {t}"))
            .unwrap_or_else(|| panic!("hard {t}"));
        let (best, _, margin) = row
            .best(0)
            .expect("a hand of every hard total meets an ace");
        let ev = |m: char| row.cells[0].iter().find(|x| x.0 == m).unwrap().1;
        assert_eq!(best, 'S', "hard {t} against an ace");
        if t <= 11 {
            assert!(
                margin < 1e-12 && (ev('H') - ev('S')).abs() < 1e-12,
                "hard {t}: hit {} stand {}",
                ev('H'),
                ev('S')
            );
        } else {
            assert!(margin > 1e-3, "hard {t}: margin {margin}");
        }
    }
}

/// The exact sheet is the same to the last bit every time it is computed: its sums run in a
/// fixed order, not the hash maps' (which differ from one map to the next). The infinite shoe,
/// where every hand meets the same shoe, drew its order from a hash map before and changed in
/// the last digits from run to run.
#[test]
fn the_exact_sheet_is_the_same_bits_every_time() {
    use tahur::games::veintiuno::engine::BankPolicy;
    use tahur::games::veintiuno::strategy::{derive_exact, StrategyQuery};
    for infinite in [true, false] {
        let q = StrategyQuery {
            options: Options::default(),
            composition: Composition::from_removed(1, "AH,KD,5C,7C").unwrap(),
            bank: BankPolicy::fixed(17),
            infinite,
            samples: 0,
            seed: 0,
        };
        let bits = |s: &tahur::games::veintiuno::strategy::Sheet| -> Vec<u64> {
            s.exact
                .iter()
                .flat_map(|r| r.cells.iter().flatten().map(|x| x.1.to_bits()))
                .collect()
        };
        let first = bits(&derive_exact(&q));
        assert!(!first.is_empty());
        for _ in 0..3 {
            assert!(bits(&derive_exact(&q)) == first, "infinite {infinite}");
        }
    }
}
