//! Dominó deal facts: the exact figures of `tahur domino deal` against independent
//! computations — brute-force enumeration of every deal of small sets and of double-six, and
//! big-integer binomials for double-nine — and the engine's own deals against the exact
//! figures within 4.5 standard errors.

#![allow(clippy::needless_range_loop)]

use crate::common;

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use tahur::games::domino::deal::{facts, DealSimulation, Question};
use tahur::games::domino::rules::Rules;
use tahur::games::domino::tiles::{full_set, set_size, Tile, TileSet};
use tahur::games::domino::DominoState;
use tahur::play::{GameRules, Start, State};
use tahur::rng::{base_stream, SeedableRng, Stream};
use tahur::runner::Simulation;

/// Calls `f` with every `k`-tile subset of `from`.
fn subsets(from: TileSet, k: u32, f: &mut impl FnMut(TileSet)) {
    fn go(rest: TileSet, k: u32, acc: TileSet, f: &mut impl FnMut(TileSet)) {
        if k == 0 {
            f(acc);
            return;
        }
        if rest.count_ones() < k {
            return;
        }
        let t = rest & rest.wrapping_neg();
        go(rest & !t, k - 1, acc | t, f);
        go(rest & !t, k, acc, f);
    }
    go(from, k, 0, f);
}

fn doubles(top: u8) -> TileSet {
    (0..=top).fold(0, |m, k| m | Tile::new(k, k).bit())
}

/// The opening tile as the rules say it, written here: the highest double, else the tile with
/// the most pips (then the higher half).
fn opener_of(dealt: TileSet, top: u8) -> (u8, bool) {
    for k in (0..=top).rev() {
        if dealt & Tile::new(k, k).bit() != 0 {
            return (k, true);
        }
    }
    (0, false)
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-12 * b.abs().max(1e-300) + 1e-15,
        "{what}: {a} against {b}"
    );
}

/// Every fact of small sets, by enumerating every deal: the dealt tiles, one hand, and every
/// assignment of hands.
#[test]
fn exact_facts_equal_brute_force_enumeration() {
    for (top, players, hand) in [
        (2u8, 2u8, 1u8),
        (2, 2, 2),
        (2, 3, 2),
        (3, 2, 3),
        (3, 3, 2),
        (3, 4, 2),
        (3, 2, 5),
        (4, 3, 3),
    ] {
        let q = Question {
            top,
            hand,
            players,
            holding: None,
        };
        let f = facts(&q).unwrap();
        let all = full_set(top);
        let dbl = doubles(top);
        let t = set_size(top) as u32;
        let dealt_n = players as u32 * hand as u32;
        // Who opens depends on the tiles dealt only.
        let mut n = 0u64;
        let mut opens = vec![0u64; top as usize + 1];
        let mut none = 0u64;
        subsets(all, dealt_n, &mut |dealt| {
            n += 1;
            match opener_of(dealt, top) {
                (k, true) => opens[k as usize] += 1,
                _ => none += 1,
            }
        });
        for k in 0..=top as usize {
            close(
                f.opens[k],
                opens[k] as f64 / n as f64,
                &format!("top {top}: {k}-{k} opens"),
            );
        }
        close(f.no_double, none as f64 / n as f64, "no double");
        // One hand.
        let mut m = 0u64;
        let mut by_count = vec![0u64; hand as usize + 1];
        subsets(all, hand as u32, &mut |h| {
            m += 1;
            by_count[(h & dbl).count_ones() as usize] += 1;
        });
        for (j, &c) in by_count.iter().enumerate() {
            let exact = f.doubles_in_hand.get(j).copied().unwrap_or(0.0);
            close(
                exact,
                c as f64 / m as f64,
                &format!("{j} doubles in a hand"),
            );
        }
        // Every assignment of hands, for "some hand holds no double".
        let mut deals = 0u64;
        let mut some = 0u64;
        fn assign(
            left: TileSet,
            seats: u8,
            hand: u32,
            dbl: TileSet,
            none: bool,
            f: &mut impl FnMut(bool),
        ) {
            if seats == 0 {
                f(none);
                return;
            }
            subsets(left, hand, &mut |h| {
                assign(left & !h, seats - 1, hand, dbl, none || h & dbl == 0, f)
            });
        }
        assign(all, players, hand as u32, dbl, false, &mut |without| {
            deals += 1;
            some += without as u64;
        });
        close(
            f.some_hand_without,
            some as f64 / deals as f64,
            "some hand without a double",
        );
        close(f.sleeps, (t - dealt_n) as f64 / t as f64, "a tile sleeps");
        // Sleeping doubles.
        let mut sleeping = vec![0u64; f.doubles_sleeping.len()];
        subsets(all, t - dealt_n, &mut |s| {
            sleeping[(s & dbl).count_ones() as usize] += 1
        });
        for (j, &c) in sleeping.iter().enumerate() {
            close(
                f.doubles_sleeping[j],
                c as f64 / n as f64,
                "doubles sleeping",
            );
        }
    }
}

/// The facts given your hand, by enumerating the other players' tiles.
#[test]
fn facts_given_a_hand_equal_enumeration() {
    for (top, players, hand) in [(3u8, 2u8, 2u8), (3, 3, 3), (4, 2, 4), (4, 3, 2)] {
        let all = full_set(top);
        let mut hands = Vec::new();
        subsets(all, hand as u32, &mut |h| hands.push(h));
        for &mine in hands.iter().step_by(7) {
            let q = Question {
                top,
                hand,
                players,
                holding: Some(mine),
            };
            let g = facts(&q).unwrap().given.unwrap();
            let others = (players as u32 - 1) * hand as u32;
            let (mut n, mut you, mut none) = (0u64, 0u64, 0u64);
            let mut opens = vec![0u64; top as usize + 1];
            subsets(all & !mine, others, &mut |rest| {
                n += 1;
                let dealt = rest | mine;
                match opener_of(dealt, top) {
                    (k, true) => {
                        opens[k as usize] += 1;
                        you += (mine & Tile::new(k, k).bit() != 0) as u64;
                    }
                    _ => {
                        none += 1;
                        // The heaviest tile dealt, by pips then the higher half.
                        let best = (0..64)
                            .filter(|t| dealt >> t & 1 == 1)
                            .max_by_key(|&t| {
                                let x = Tile(t);
                                (x.pips(), x.high())
                            })
                            .unwrap();
                        you += mine >> best & 1;
                    }
                }
            });
            let what = format!("top {top}, {players}×{hand}, holding {mine:b}");
            close(
                g.you_open,
                you as f64 / n as f64,
                &format!("{what}: you open"),
            );
            close(g.no_double, none as f64 / n as f64, &what);
            for k in 0..=top as usize {
                close(
                    g.opens[k],
                    opens[k] as f64 / n as f64,
                    &format!("{what}: {k}-{k}"),
                );
            }
            let t = set_size(top) as f64;
            close(
                g.sleeps,
                (t - (players * hand) as f64) / (t - hand as f64),
                &what,
            );
        }
    }
}

/// Double-six at the usual table: who opens by enumerating the 20 475 sets of sleeping tiles,
/// doubles per hand by the 376 740 hands.
#[test]
fn double_six_at_four_by_enumeration() {
    let q = Question {
        top: 6,
        hand: 6,
        players: 4,
        holding: None,
    };
    let f = facts(&q).unwrap();
    let all = full_set(6);
    let mut n = 0u64;
    let mut opens = [0u64; 7];
    subsets(all, 4, &mut |sleeping| {
        n += 1;
        opens[opener_of(all & !sleeping, 6).0 as usize] += 1;
    });
    assert_eq!(n, 20_475);
    for k in 0..7 {
        close(f.opens[k], opens[k] as f64 / n as f64, &format!("{k}-{k}"));
    }
    // 6-6 opens unless it sleeps: 24/28.
    close(f.opens[6], 24.0 / 28.0, "6-6");
    assert_eq!(f.no_double, 0.0);
    let mut m = 0u64;
    let mut by = [0u64; 7];
    subsets(all, 6, &mut |h| {
        m += 1;
        by[(h & doubles(6)).count_ones() as usize] += 1;
    });
    assert_eq!(m, 376_740);
    for j in 0..7 {
        close(
            f.doubles_in_hand[j],
            by[j] as f64 / m as f64,
            &format!("{j} doubles"),
        );
    }
    close(f.mean_doubles(), 6.0 * 7.0 / 28.0, "mean");
}

fn big_choose(n: u64, k: u64) -> BigUint {
    // Pascal's rule row by row: independent of the multiplicative formula.
    let mut row: Vec<BigUint> = vec![BigUint::one()];
    for i in 1..=n {
        let mut next = vec![BigUint::one(); i as usize + 1];
        for j in 1..i as usize {
            next[j] = &row[j - 1] + &row[j];
        }
        row = next;
    }
    if k > n {
        BigUint::zero()
    } else {
        row[k as usize].clone()
    }
}

fn ratio(a: BigUint, b: BigUint) -> f64 {
    BigRational::new(a.into(), b.into()).to_f64().unwrap()
}

/// Double-nine (55 tiles) at several tables, against exact big-integer arithmetic.
#[test]
fn double_nine_against_big_integers() {
    for (players, hand) in [(4u8, 7u8), (4, 6), (2, 7), (3, 9), (2, 27)] {
        let q = Question {
            top: 9,
            hand,
            players,
            holding: None,
        };
        let f = facts(&q).unwrap();
        let (t, d, dealt, h) = (55u64, 10u64, players as u64 * hand as u64, hand as u64);
        let all = big_choose(t, dealt);
        for k in 0..10u64 {
            let exact = ratio(big_choose(t - 1 - (9 - k), dealt - 1), all.clone());
            close(
                f.opens[k as usize],
                exact,
                &format!("{players}×{hand}: {k}-{k}"),
            );
        }
        close(
            f.no_double,
            ratio(big_choose(t - d, dealt), all.clone()),
            "no double",
        );
        for j in 0..=h.min(d) {
            let exact = ratio(
                big_choose(d, j) * big_choose(t - d, h - j),
                big_choose(t, h),
            );
            close(f.doubles_in_hand[j as usize], exact, "doubles in hand");
        }
        // Inclusion–exclusion over the hands, as one exact fraction.
        let mut some = BigRational::zero();
        for k in 1..=players as u64 {
            let term = BigRational::new(
                (big_choose(players as u64, k) * big_choose(t - d, k * h)).into(),
                big_choose(t, k * h).into(),
            );
            if k % 2 == 1 {
                some += term;
            } else {
                some -= term;
            }
        }
        close(
            f.some_hand_without,
            some.to_f64().unwrap(),
            "some hand without",
        );
    }
}

/// The engine's own deals (the ones games are played from) agree with the exact figures within
/// 4.5 standard errors, figure by figure.
#[test]
fn simulated_deals_agree_within_four_and_a_half_standard_errors() {
    for (top, players, hand, seed) in [
        (6u8, 4u8, 6u8, 1u64),
        (6, 2, 7, 2),
        (9, 4, 7, 3),
        (9, 3, 5, 4),
    ] {
        let q = Question {
            top,
            hand,
            players,
            holding: None,
        };
        let f = facts(&q).unwrap();
        let sim = DealSimulation::new(&q);
        let mut t = sim.empty_tally();
        let n = 150_000;
        sim.run_chunk(&mut base_stream(seed), n, &mut t);
        let z = |hits: u64, p: f64| {
            if p == 0.0 {
                assert_eq!(hits, 0);
                return 0.0;
            }
            (hits as f64 / n as f64 - p) / (p * (1.0 - p) / n as f64).sqrt()
        };
        let mut checks = vec![
            ("no double", z(t.no_double, f.no_double)),
            ("top double sleeps", z(t.top_sleeps, f.sleeps)),
            (
                "some hand without",
                z(t.some_hand_without, f.some_hand_without),
            ),
        ];
        for k in 0..=top as usize {
            checks.push(("opens", z(t.opens[k], f.opens[k])));
        }
        for (j, &c) in t.doubles_in_hand.iter().enumerate() {
            checks.push(("doubles in a hand", z(c, f.doubles_in_hand[j])));
        }
        for (what, x) in checks {
            assert!(
                x.abs() < 4.5,
                "{top}/{players}×{hand}: {what} off by {x:.2} SE"
            );
        }
    }
}

/// Whole games open as the deal facts say: the opening double of 20 000 games.
#[test]
fn games_open_with_the_highest_double_as_often_as_exact() {
    let rules = Rules::standard(2).with_changes("hand=5").unwrap();
    let q = Question {
        top: 6,
        hand: 5,
        players: 2,
        holding: None,
    };
    let f = facts(&q).unwrap();
    let mut counts = [0u64; 8];
    let n = 20_000u64;
    let mut rng = Stream::seed_from_u64(8);
    for _ in 0..n {
        let g = DominoState::deal(&rules, &Start::default(), &mut rng);
        // The game stops at the first decision: the board holds the opening tile alone.
        assert_eq!(g.played().count_ones(), 1);
        let opening = Tile(g.played().trailing_zeros() as u8);
        let dealt = full_set(6) & !g.stock();
        match opener_of(dealt, 6) {
            (k, true) => {
                assert_eq!(opening, Tile::new(k, k));
                counts[k as usize] += 1;
            }
            _ => {
                assert!(!opening.is_double());
                counts[7] += 1;
            }
        }
    }
    for k in 0..7 {
        let p = f.opens[k];
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        if p > 0.0 {
            let z = (counts[k] as f64 / n as f64 - p) / sd;
            assert!(z.abs() < 4.5, "{k}-{k}: {z:.2} SE");
        }
    }
    let z = (counts[7] as f64 / n as f64 - f.no_double)
        / (f.no_double * (1.0 - f.no_double) / n as f64).sqrt();
    assert!(z.abs() < 4.5, "no double: {z:.2} SE");
}

/// The command: exact figures in JSON, and with --samples the same on one thread or two.
#[test]
fn the_deal_command() {
    let v = common::run_json("domino deal --players 4");
    let opens = v["opener"].as_array().unwrap();
    assert_eq!(opens[0]["opening"], "6-6");
    close(opens[0]["exact"].as_f64().unwrap(), 24.0 / 28.0, "json 6-6");
    close(
        v["tile_sleeps"].as_f64().unwrap(),
        4.0 / 28.0,
        "json sleeps",
    );
    let line = "domino deal --players 3 --set 9 --hand 7 --samples 200000";
    let one = common::run_json(&format!("{line} --threads 1"));
    let two = common::run_json(&format!("{line} --threads 2"));
    assert_eq!(one, two);
    for row in one["opener"].as_array().unwrap() {
        if let Some(z) = row["deviation_se"].as_f64() {
            assert!(z.abs() < 4.5, "{row}");
        }
    }
    let given = common::run_json("domino deal --players 4 --holding 6-6,6-1,5-4,3-3,2-0,1-1");
    assert_eq!(given["you_open"].as_f64().unwrap(), 1.0);
}
