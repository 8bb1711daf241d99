//! Durak re-deals (docs/rules.md §3: a hand all red, all black or with five cards of one suit is
//! thrown back): the exact chance that a deal is thrown back against an independent exact
//! computation, the engine's count of re-deals deal by deal, and the rate `durak sim` reports
//! against the exact value.

use crate::common;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use rand_core::SeedableRng;
use tahur::games::durak::cards::{Card, Cards};
use tahur::games::durak::engine::{needs_redeal, shuffle, DurakState};
use tahur::games::durak::redeal::{for_rules, redeal_probability};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::play::{Start, State};
use tahur::rng::{uniform_below, Stream};

/// num / den as the nearest double (num ≤ den).
fn ratio_f64(num: &BigUint, den: &BigUint) -> f64 {
    if num.is_zero() {
        return 0.0;
    }
    let shift = den.bits() - num.bits() + 80;
    let q = (num << shift) / den;
    q.to_f64().unwrap() * 2f64.powi(-(shift as i32))
}

fn factorial(n: usize) -> BigUint {
    (1..=n as u64).fold(BigUint::one(), |f, k| f * k)
}

/// The same probability by a different method: inclusion–exclusion over which hands are bad,
/// in exact integers. The hands are exchangeable, so
/// P(some hand bad) = Σ_k (−1)^(k+1) C(n, k) · P(hands 1..k all bad), and
/// P(hands 1..k all bad) = N_k / T_k with T_k = D! / (h!^k (D − kh)!) ordered deals of k hands
/// and N_k = Σ over the k-tuples of bad suit-count vectors of Π_suits S! / (Π_j c_js! (S − col_s)!)
/// (the ways to pick each hand's cards of each suit). The k-tuples are enumerated as multisets,
/// each weighted by its k! / Π m! orderings.
fn by_inclusion_exclusion(players: usize, deck: usize, hand: usize) -> f64 {
    let per_suit = deck / 4;
    // A hand by its counts of ♠, ♥, ♦, ♣ (hearts and diamonds red): no black card, no red card,
    // or five of a suit.
    let bad_hand = |c: &[usize; 4]| {
        c[0] + c[3] == 0 || c[1] + c[2] == 0 || c.iter().copied().max().unwrap() >= 5
    };
    let bad: Vec<[usize; 4]> = (0..(hand + 1).pow(4))
        .map(|i| {
            [
                i % (hand + 1),
                i / (hand + 1) % (hand + 1),
                i / (hand + 1).pow(2) % (hand + 1),
                i / (hand + 1).pow(3),
            ]
        })
        .filter(|c| c.iter().sum::<usize>() == hand && c.iter().all(|&x| x <= per_suit))
        .filter(bad_hand)
        .collect();
    let fact: Vec<BigUint> = (0..=deck).map(factorial).collect();
    let counting = Counting {
        // S! / (S − col)! for each column sum.
        falling: (0..=per_suit)
            .map(|col| &fact[per_suit] / &fact[per_suit - col])
            .collect(),
        // Π_s c_s! of each bad hand.
        hand_fact: bad
            .iter()
            .map(|c| c.iter().fold(BigUint::one(), |p, &x| p * &fact[x]))
            .collect(),
        bad,
        per_suit,
        fact: fact.clone(),
    };
    let mut plus = BigUint::zero();
    let mut minus = BigUint::zero();
    // Over the common denominator T_n: P_k = N_k / T_k = N_k · (T_n / T_k) / T_n.
    let t = |k: usize| &fact[deck] / (fact[hand].pow(k as u32) * &fact[deck - k * hand]);
    let t_n = t(players);
    for k in 1..=players {
        let mut n_k = BigUint::zero();
        let mut counts = vec![0; counting.bad.len()];
        counting.multisets(k, 0, [0; 4], BigUint::one(), &mut counts, &mut n_k);
        let choose_nk = &fact[players] / (&fact[k] * &fact[players - k]);
        let term = choose_nk * n_k * (&t_n / t(k));
        if k % 2 == 1 {
            plus += term;
        } else {
            minus += term;
        }
    }
    ratio_f64(&(plus - minus), &t_n)
}

/// What the multiset enumeration of [`by_inclusion_exclusion`] needs.
struct Counting {
    /// The bad hands by suit counts.
    bad: Vec<[usize; 4]>,
    /// S! / (S − col)! by column sum.
    falling: Vec<BigUint>,
    /// Π_s c_s! of each bad hand.
    hand_fact: Vec<BigUint>,
    per_suit: usize,
    fact: Vec<BigUint>,
}

impl Counting {
    /// Adds to `out` the ways to deal `k` more bad hands (chosen from `bad[from..]`, so that each
    /// multiset comes once) on top of those in `counts`, whose suit totals are `cols` and whose
    /// Π c! is `denom`.
    fn multisets(
        &self,
        k: usize,
        from: usize,
        cols: [usize; 4],
        denom: BigUint,
        counts: &mut Vec<usize>,
        out: &mut BigUint,
    ) {
        if k == 0 {
            // Orderings of the multiset: (Σm)! / Π m!.
            let total: usize = counts.iter().sum();
            let orderings = counts
                .iter()
                .fold(self.fact[total].clone(), |o, &m| o / &self.fact[m]);
            let ways = cols
                .iter()
                .fold(BigUint::one(), |w, &c| w * &self.falling[c]);
            *out += orderings * ways / denom;
            return;
        }
        for (i, c) in self.bad.iter().enumerate().skip(from) {
            let next = [
                cols[0] + c[0],
                cols[1] + c[1],
                cols[2] + c[2],
                cols[3] + c[3],
            ];
            if next.iter().any(|&x| x > self.per_suit) {
                continue;
            }
            counts[i] += 1;
            self.multisets(k - 1, i, next, &denom * &self.hand_fact[i], counts, out);
            counts[i] -= 1;
        }
    }
}

#[test]
fn the_exact_chance_matches_inclusion_exclusion() {
    // One hand, by hand: 2·C(18,6) one colour + 4·(C(9,5)·27 + C(9,6)) five of a suit
    // − 4·(C(9,5)·9 + C(9,6)) both = 46 200 of C(36,6) = 1 947 792 hands: 2.3719 %.
    assert!((redeal_probability(1, 36, 6) - 46_200.0 / 1_947_792.0).abs() < 1e-15);
    assert!((by_inclusion_exclusion(1, 36, 6) - 46_200.0 / 1_947_792.0).abs() < 1e-15);
    // The standard game, 36 cards, 6 each: a deal is thrown back with chance
    //   2 players 0.046556282601562 (4.66 %, 1 in 21.5)
    //   3 players 0.068536212849388 (6.85 %)
    //   4 players 0.089682621543750 (8.97 %)
    //   5 players 0.110018001232189 (11.0 %)
    //   6 players 0.129563689678929 (13.0 %, 1.149 deals per game)
    let standard = [
        0.046556282601562,
        0.068536212849388,
        0.089682621543750,
        0.110018001232189,
        0.129563689678929,
    ];
    for (players, want) in (2..=6).zip(standard) {
        let lib = redeal_probability(players as u8, 36, 6);
        let other = by_inclusion_exclusion(players, 36, 6);
        assert!((lib - other).abs() < 1e-12, "{players}: {lib} vs {other}");
        assert!((lib - want).abs() < 1e-12, "{players}: {lib} vs {want}");
        eprintln!("{players} players: {lib:.17} (inclusion–exclusion {other:.17})");
    }
    // Platkowy (52 cards, 5 each: bad exactly when one colour), and 52 cards with 7 each.
    for players in 2..=6 {
        let (lib, other) = (
            redeal_probability(players as u8, 52, 5),
            by_inclusion_exclusion(players, 52, 5),
        );
        assert!(
            (lib - other).abs() < 1e-12,
            "52/5 {players}: {lib} vs {other}"
        );
    }
    for players in 2..=4 {
        let (lib, other) = (
            redeal_probability(players as u8, 52, 7),
            by_inclusion_exclusion(players, 52, 7),
        );
        assert!(
            (lib - other).abs() < 1e-12,
            "52/7 {players}: {lib} vs {other}"
        );
    }
    // Five-card hands of the small deck, and hands so big that most deals are thrown back.
    for (players, deck, hand) in [(4, 36, 5), (2, 36, 12), (2, 52, 12)] {
        let (lib, other) = (
            redeal_probability(players as u8, deck as u8, hand as u8),
            by_inclusion_exclusion(players, deck, hand),
        );
        assert!(
            (lib - other).abs() < 1e-12,
            "{deck}/{hand} {players}: {lib} vs {other}"
        );
    }
}

#[test]
fn the_engine_counts_every_deal_thrown_back_and_not_the_last() {
    // The deal replayed from the same stream: the dealer, then shuffles until no hand is bad.
    for players in [2u8, 6] {
        let rules = Rules::standard(Variant::Podkidnoy, players);
        let mut seen_redeal = false;
        for seed in 0..300 {
            let g = DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(seed));
            let mut rng = Stream::seed_from_u64(seed);
            let _dealer = uniform_below(&mut rng, players as usize);
            let mut deck: Vec<Card> = Cards(rules.deck_cards()).collect();
            let mut thrown = 0;
            loop {
                shuffle(&mut deck, &mut rng);
                let bad = deck
                    .chunks(6)
                    .take(players as usize)
                    .any(|h| needs_redeal(h.iter().fold(0, |s, c| s | c.bit())));
                if !bad {
                    break;
                }
                thrown += 1;
            }
            assert_eq!(g.redeals(), thrown, "{players} players, seed {seed}");
            seen_redeal |= thrown > 0;
        }
        assert!(seen_redeal);
    }
    // Without the rule, or with hands too small for it, nothing is thrown back.
    let mut off = Rules::standard(Variant::Podkidnoy, 6);
    off.redeal = false;
    let mut small = Rules::standard(Variant::Podkidnoy, 6);
    small.hand = 4;
    for seed in 0..300 {
        assert_eq!(
            DurakState::deal(&off, &Start::default(), &mut Stream::seed_from_u64(seed)).redeals(),
            0
        );
        assert_eq!(
            DurakState::deal(&small, &Start::default(), &mut Stream::seed_from_u64(seed)).redeals(),
            0
        );
    }
    assert_eq!(for_rules(&off), None);
    assert_eq!(for_rules(&small), None);

    // Many deals: the share thrown back is the exact chance. With 200 000 games at 3 players
    // (p = 6.85 %, about 214 700 deals, SE 0.055 points) counting one re-deal per game at most
    // would give p / (1 + p) = 6.41 %, 8 SE off; counting the good deal too, 51.8 %.
    let rules = Rules::standard(Variant::Podkidnoy, 3);
    let p = for_rules(&rules).unwrap();
    let mut rng = Stream::seed_from_u64(2026);
    let games = 200_000u64;
    let redeals: u64 = (0..games)
        .map(|_| u64::from(DurakState::deal(&rules, &Start::default(), &mut rng).redeals()))
        .sum();
    let deals = redeals + games;
    let rate = redeals as f64 / deals as f64;
    let se = (p * (1.0 - p) / deals as f64).sqrt();
    assert!((rate - p).abs() < 4.0 * se, "{rate} vs {p} (SE {se})");
    eprintln!("3 players, engine: {redeals} re-deals in {games} games: {rate:.5} vs {p:.5}");
    assert!((p / (1.0 + p) - p).abs() > 6.0 * se);
}

#[test]
fn durak_sim_reports_the_redeal_rate_next_to_the_exact_value() {
    // 40 000 random games each. The band of 4 standard errors (SE at the exact p over the
    // deals) must hold the simulated rate; it excludes by far the rate that counting the final
    // good deal too would give (1 / (2 − p) ≈ 51 %), and at 4 and 6 players also the rate of
    // counting at most one re-deal per game (p / (1 + p)).
    for (players, seed, strict) in [(2u8, 11u64, false), (4, 12, true), (6, 13, true)] {
        let j = common::run_json(&format!(
            "durak sim --players {players} --strategies random --games 40000 --seed {seed}"
        ));
        let games = j["games"].as_u64().unwrap();
        let redeals = j["redeals"].as_u64().unwrap();
        let p = redeal_probability(players, 36, 6);
        assert_eq!(j["redeal_exact"].as_f64().unwrap(), p);
        let deals = redeals + games;
        let rate = redeals as f64 / deals as f64;
        assert_eq!(j["redeal_rate"].as_f64().unwrap(), rate);
        let ci = j["redeal_ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() < rate && rate < ci[1].as_f64().unwrap());
        assert_eq!(
            j["deals_per_game"].as_f64().unwrap(),
            deals as f64 / games as f64
        );
        let se = (p * (1.0 - p) / deals as f64).sqrt();
        let z = (rate - p) / se;
        assert!(
            (j["redeal_deviation_se"].as_f64().unwrap() - z).abs() < 1e-9,
            "{j}"
        );
        assert!(
            z.abs() < 4.0,
            "{players} players: {redeals} re-deals in {games} games, rate {rate} vs exact {p} ({z:.2} SE)"
        );
        let final_counted = 1.0 / (2.0 - p);
        assert!((final_counted - p).abs() > 40.0 * se);
        if strict {
            assert!((p / (1.0 + p) - p).abs() > 4.0 * se, "{players}");
        }
        eprintln!("{players} players: {redeals} re-deals in {games} games: {rate:.5} vs {p:.5} ({z:+.2} SE)");
    }
    // Rule off, or hands too small: no rate, and no exact value.
    for extra in ["--no-redeal", "--hand 4"] {
        let j = common::run_json(&format!("durak sim --players 4 --games 200 {extra}"));
        assert!(j["redeal_rate"].is_null(), "{extra}: {j}");
        assert!(j.get("redeal_exact").is_none(), "{extra}");
    }
}
