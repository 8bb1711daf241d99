//! The exact bid odds against independent computations: brute-force enumeration of every roll
//! for small tables, and big-integer rational arithmetic for tables up to 1000 dice.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use tahur::games::dudo::{Bidding, Face, RuleSet, Situation};

/// The count for a bid, read die by die from docs/rules.md §1 (written independently of the library).
fn rule_count(table: &[u8], face: u8, set: RuleSet, obligado: bool, need_natural: bool) -> usize {
    let naturals = table.iter().filter(|&&d| d == face).count();
    let aces = table.iter().filter(|&&d| d == 1).count();
    let wild = face != 1 && !obligado && (!need_natural || naturals > 0);
    let bonus = usize::from(set == RuleSet::Caleuchano && face == 2 && !obligado);
    naturals + if wild { aces } else { 0 } + bonus
}

fn faces(v: &[u8]) -> Vec<Face> {
    v.iter().map(|&d| Face::new(d).unwrap()).collect()
}

/// Every roll of the unknown dice, counted: the distribution as integer weights over 6^U.
fn enumerate(
    known: &[u8],
    unknown: u32,
    face: u8,
    set: RuleSet,
    obligado: bool,
    need_natural: bool,
) -> Vec<u64> {
    let total = 6u64.pow(unknown);
    let mut weights = vec![0u64; known.len() + unknown as usize + 2];
    let mut table: Vec<u8> = known.to_vec();
    table.resize(known.len() + unknown as usize, 1);
    for code in 0..total {
        let mut c = code;
        for i in 0..unknown as usize {
            table[known.len() + i] = (c % 6) as u8 + 1;
            c /= 6;
        }
        weights[rule_count(&table, face, set, obligado, need_natural)] += 1;
    }
    weights
}

#[test]
fn exact_odds_equal_brute_force_enumeration() {
    let configs: &[(&[u8], &[u8], u32)] = &[
        (&[], &[], 5),
        (&[1, 4, 4, 2, 6], &[], 10),
        (&[3, 3, 5, 6, 6], &[2, 2], 12),
        (&[1, 1, 1, 1, 1], &[], 9),
        (&[2, 2, 5, 5, 6], &[3], 11),
        (&[4], &[], 7),
    ];
    let mut checked = 0;
    for &(hand, shown, dice) in configs {
        let known: Vec<u8> = hand.iter().chain(shown).copied().collect();
        let unknown = dice - known.len() as u32;
        for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
            for obligado in [false, true] {
                if obligado && set == RuleSet::Chimbo9 {
                    continue;
                }
                for need_natural in [false, true] {
                    let rules = Bidding {
                        aces_need_natural: need_natural,
                        ..Bidding::new(set)
                    };
                    let s =
                        Situation::new(dice, faces(hand), faces(shown), rules, obligado).unwrap();
                    for face in 1..=6u8 {
                        let w = enumerate(&known, unknown, face, set, obligado, need_natural);
                        let total = 6f64.powi(unknown as i32);
                        let d = s.distribution(Face::new(face).unwrap());
                        for q in 0..w.len() as u32 + 1 {
                            let exactly = w.get(q as usize).copied().unwrap_or(0) as f64 / total;
                            let at_least = w.iter().skip(q as usize).sum::<u64>() as f64 / total;
                            assert!((d.exactly(q) - exactly).abs() <= 1e-13 * exactly.max(1e-300) + 1e-300,
                                "exactly {q}: {} vs {exactly} ({hand:?} {shown:?} {dice} {set:?} obl={obligado} nat={need_natural} face {face})", d.exactly(q));
                            assert!((d.at_least(q) - at_least).abs() <= 1e-13 * at_least + 1e-300,
                                "at least {q}: {} vs {at_least} ({hand:?} {shown:?} {dice} {set:?} obl={obligado} nat={need_natural} face {face})", d.at_least(q));
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// num / den as the nearest double (for values well inside the double range).
fn ratio_f64(num: &BigUint, den: &BigUint) -> f64 {
    if num.is_zero() {
        return 0.0;
    }
    let shift = den.bits() as i64 - num.bits() as i64 + 80;
    let q = if shift >= 0 {
        (num << shift as usize) / den
    } else {
        num / (den << (-shift) as usize)
    };
    let mut x = q.to_f64().unwrap();
    // scale by 2^-shift in steps that cannot overflow or underflow prematurely
    let mut s = shift;
    while s > 0 {
        let step = s.min(1000);
        x *= 2f64.powi(-(step as i32));
        s -= step;
    }
    while s < 0 {
        let step = (-s).min(1000);
        x *= 2f64.powi(step as i32);
        s += step;
    }
    x
}

fn binomial_coefficients(n: u32) -> Vec<BigUint> {
    let mut c = vec![BigUint::one()];
    for k in 1..=n as u64 {
        let prev = c.last().unwrap().clone();
        c.push(prev * (n as u64 - k + 1) / k);
    }
    c
}

fn assert_close(got: f64, want: f64, what: &str) {
    if want > 1e-290 {
        let rel = (got - want).abs() / want;
        assert!(
            rel <= 1e-11,
            "{what}: {got} vs {want} (relative error {rel:e})"
        );
    } else {
        assert!(got <= 1e-280, "{what}: {got} vs {want}");
    }
}

#[test]
fn exact_odds_equal_rational_arithmetic_up_to_1000_dice() {
    // Ordinary counting: outcomes with x counting dice number C(U, x)·w^x·(6−w)^(U−x) over 6^U.
    for &(dice, hand, face, set) in &[
        (1000u32, &[1u8, 4, 4, 2, 6][..], 4u8, RuleSet::Chimbo9),
        (1000, &[1, 1, 3, 5, 6][..], 1, RuleSet::Chimbo9),
        (1000, &[][..], 2, RuleSet::Caleuchano),
        (600, &[6, 6][..], 6, RuleSet::Caleuchano),
        (30, &[1, 4, 4, 2, 6][..], 4, RuleSet::Chimbo9),
    ] {
        let s = Situation::new(dice, faces(hand), vec![], Bidding::new(set), false).unwrap();
        let f = Face::new(face).unwrap();
        let c = s.counting(f);
        let known = c.count(s.known_for(f).0, s.known_for(f).1) as usize;
        let u = s.unknown();
        let w: u64 = if c.wild_aces { 2 } else { 1 };
        let coef = binomial_coefficients(u);
        let den = BigUint::from(6u32).pow(u);
        // weights[x] for x counting unknown dice
        let weights: Vec<BigUint> = (0..=u)
            .map(|x| &coef[x as usize] * BigUint::from(w).pow(x) * BigUint::from(6 - w).pow(u - x))
            .collect();
        let d = s.distribution(f);
        let mut tail = BigUint::zero();
        for x in (0..=u as usize).rev() {
            tail += &weights[x];
            let q = (known + x) as u32;
            assert_close(
                d.at_least(q),
                ratio_f64(&tail, &den),
                &format!("{dice} dice P(≥{q}) face {face}"),
            );
            assert_close(
                d.exactly(q),
                ratio_f64(&weights[x], &den),
                &format!("{dice} dice P(={q}) face {face}"),
            );
        }
        assert_eq!(d.at_least(known as u32 + u + 1), 0.0);
        assert!((d.at_least(0) - 1.0).abs() < 1e-12);
    }
}

#[test]
fn aces_need_natural_equals_rational_arithmetic() {
    // Count outcome classes (naturals x, aces a): C(U,x)·C(U−x,a)·4^(U−x−a) each.
    for &(dice, hand, face) in &[
        (150u32, &[1u8, 1, 3, 5, 6][..], 4u8),
        (150, &[4, 2, 2, 5, 6][..], 4),
        (60, &[][..], 2),
    ] {
        let rules = Bidding {
            aces_need_natural: true,
            ..Bidding::new(RuleSet::Caleuchano)
        };
        let s = Situation::new(dice, faces(hand), vec![], rules, false).unwrap();
        let u = s.unknown();
        let kf = hand.iter().filter(|&&d| d == face).count();
        let ka = hand.iter().filter(|&&d| d == 1).count();
        let bonus = usize::from(face == 2);
        let coef: Vec<Vec<BigUint>> = (0..=u).map(binomial_coefficients).collect();
        let mut weights = vec![BigUint::zero(); dice as usize + 2];
        for x in 0..=u {
            for a in 0..=u - x {
                let wgt = &coef[u as usize][x as usize]
                    * &coef[(u - x) as usize][a as usize]
                    * BigUint::from(4u32).pow(u - x - a);
                let naturals = kf + x as usize;
                let count = naturals + if naturals > 0 { ka + a as usize } else { 0 } + bonus;
                weights[count] += wgt;
            }
        }
        let den = BigUint::from(6u32).pow(u);
        let d = s.distribution(Face::new(face).unwrap());
        let mut tail = BigUint::zero();
        for q in (0..weights.len()).rev() {
            tail += &weights[q];
            assert_close(
                d.at_least(q as u32),
                ratio_f64(&tail, &den),
                &format!("need-natural {dice} P(≥{q})"),
            );
            assert_close(
                d.exactly(q as u32),
                ratio_f64(&weights[q], &den),
                &format!("need-natural {dice} P(={q})"),
            );
        }
    }
}

#[test]
fn the_brief_example() {
    // 15 cuadras with 30 unknown dice: P(Binomial(30, 1/3) ≥ 15) = 4.348 %, "about 1 in 23".
    let s = Situation::new(30, vec![], vec![], Bidding::new(RuleSet::Chimbo9), false).unwrap();
    let p = s
        .odds(tahur::games::dudo::Bid::parse("15 cuadras").unwrap())
        .at_least;
    assert!((p - 0.043482275727919).abs() < 1e-14, "{p}");
    assert_eq!(tahur::humanize::chance(p), "4.35 %, about 1 in 23");
}
