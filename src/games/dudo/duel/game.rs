//! The two-player round of Dudo as a finite game: the hands with their chance, the bids in an
//! order every raise climbs, which raises are legal, and how a doubt ends.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::games::dudo::engine::{PassHand, CUP};
use crate::games::dudo::{Bid, Bidding, Face, RuleSet};
use crate::text::normalize;

/// The rule set of a solved duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DuelRules {
    /// The textbook order of the CFR literature: 1s wild, at each quantity the faces 2..6 and
    /// then 1s; no conversions, no paso.
    Plain,
    /// Chimbo 9: aces by "la mitad más uno", back by "el doble más uno".
    Chimbo9,
    /// Caleuchano: aces by half or more, the millas bonus, paso (five dice a side only).
    Caleuchano,
}

impl DuelRules {
    /// What [`DuelRules::parse`] accepts, said to whoever gave something else.
    pub const ACCEPTS: &'static str = "use plain, chimbo9 or caleuchano";

    /// The command-line name.
    pub fn key(self) -> &'static str {
        match self {
            DuelRules::Plain => "plain",
            DuelRules::Chimbo9 => "chimbo9",
            DuelRules::Caleuchano => "caleuchano",
        }
    }

    /// Parses `plain`, or a rule set as [`RuleSet::parse`] reads it.
    pub fn parse(text: &str) -> Option<DuelRules> {
        if normalize(text).trim() == "plain" {
            return Some(DuelRules::Plain);
        }
        RuleSet::parse(text).map(|s| match s {
            RuleSet::Chimbo9 => DuelRules::Chimbo9,
            RuleSet::Caleuchano => DuelRules::Caleuchano,
        })
    }

    /// The engine's rule set whose bidding this duel uses (`None` for the textbook order).
    pub fn rule_set(self) -> Option<RuleSet> {
        match self {
            DuelRules::Plain => None,
            DuelRules::Chimbo9 => Some(RuleSet::Chimbo9),
            DuelRules::Caleuchano => Some(RuleSet::Caleuchano),
        }
    }

    /// The rule set whose face names a sheet uses (plain speaks as Chimbo 9).
    pub fn names(self) -> RuleSet {
        self.rule_set().unwrap_or(RuleSet::Chimbo9)
    }
}

impl fmt::Display for DuelRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The most dice a side may have in a solved duel.
pub const MAX_DICE_EACH: u32 = CUP as u32;

/// Face counts of one hand, aces first (`counts[0]` aces, …, `counts[5]` sixes).
pub type Hand = [u8; 6];

/// The two-player round with `dice_each` dice a side under a rule set, as tables.
#[derive(Clone, Debug)]
pub struct DuelGame {
    /// The rule set.
    pub rules: DuelRules,
    /// Dice in each cup.
    pub dice_each: u32,
    /// Every hand (a multiset of the cup's dice).
    pub hands: Vec<Hand>,
    /// The chance of each hand (multinomial; they add up to 1).
    pub weight: Vec<f64>,
    /// Every bid a round can hold, in an order every legal raise climbs.
    pub bids: Vec<Bid>,
    /// `raises[b]`: the legal raises over bid `b`, lowest first; `raises[bids.len()]` the openings.
    pub raises: Vec<Vec<u16>>,
    /// `counted[b][h]`: dice of hand `h` that count for bid `b`.
    pub counted: Vec<Vec<u8>>,
    /// `need[b]`: the bid is true when both hands together count at least this (the bid's
    /// quantity less the millas bonus).
    pub need: Vec<u32>,
    /// Paso is played (Caleuchano with five dice a side: the pass hands are five-dice hands).
    pub paso: bool,
    /// `pass_stands[h]`: a doubted pass by hand `h` stands (poker, full or pichanga).
    pub pass_stands: Vec<bool>,
    /// `count_masks[b][c·hands + o]`: 1 when hand `o` counts at least `c` dice for bid `b`
    /// (c = 0 to `dice_each`), else 0: a doubt's sums as dot products, without branches.
    count_masks: Vec<Vec<f64>>,
    /// `short[b][h]`: dice the other hand must count for bid `b` to be true when one holds
    /// `h`, at most `dice_each + 1` (never).
    short: Vec<Vec<u8>>,
}

impl DuelGame {
    /// The game under `rules` with `dice_each` dice a side (1 to 5).
    pub fn new(rules: DuelRules, dice_each: u32) -> DuelGame {
        assert!(
            (1..=MAX_DICE_EACH).contains(&dice_each),
            "1 to {MAX_DICE_EACH} dice a side"
        );
        let hands = all_hands(dice_each);
        let weight = hands.iter().map(hand_chance).collect();
        let bidding = rules.rule_set().map(Bidding::new);
        let bonus = |face: Face| bidding.map_or(0, |b| b.counting(face, false).bonus);
        let dice = 2 * dice_each;
        // Plain: at each quantity the faces 2..6, then 1s. Rule sets: every bid up to the table's
        // dice (plus the millas bonus), put in an order their raises climb below.
        let mut bids = Vec::new();
        for q in 1..=dice + 1 {
            for v in [2, 3, 4, 5, 6, 1] {
                let face = Face::new(v).expect("a face");
                if q <= dice + bonus(face) {
                    bids.push(Bid { quantity: q, face });
                }
            }
        }
        let is_raise = |prev: Bid, next: Bid| match bidding {
            Some(b) => b.is_raise(prev, next),
            None => position_of(prev) < position_of(next),
        };
        let bids = climbing_order(bids, is_raise);
        let n = bids.len();
        let mut raises: Vec<Vec<u16>> = (0..n)
            .map(|i| {
                (i + 1..n)
                    .filter(|&j| is_raise(bids[i], bids[j]))
                    .map(|j| j as u16)
                    .collect()
            })
            .collect();
        raises.push((0..n as u16).collect());
        let counted: Vec<Vec<u8>> = bids
            .iter()
            .map(|b| {
                hands
                    .iter()
                    .map(|h| {
                        let aces = if b.face.is_ace() { 0 } else { h[0] };
                        h[b.face.index()] + aces
                    })
                    .collect()
            })
            .collect();
        let need: Vec<u32> = bids
            .iter()
            .map(|b| b.quantity.saturating_sub(bonus(b.face)))
            .collect();
        let count_masks = counted
            .iter()
            .map(|row| {
                (0..=dice_each)
                    .flat_map(|c| {
                        row.iter()
                            .map(move |&n| f64::from(u8::from(u32::from(n) >= c)))
                    })
                    .collect()
            })
            .collect();
        let short = counted
            .iter()
            .zip(&need)
            .map(|(row, &need)| {
                row.iter()
                    .map(|&n| need.saturating_sub(u32::from(n)).min(dice_each + 1) as u8)
                    .collect()
            })
            .collect();
        let paso = rules == DuelRules::Caleuchano && dice_each == MAX_DICE_EACH;
        let pass_stands = hands
            .iter()
            .map(|h| PassHand::of(&dice_values(h)).holds())
            .collect();
        DuelGame {
            rules,
            dice_each,
            hands,
            weight,
            bids,
            raises,
            counted,
            need,
            paso,
            pass_stands,
            count_masks,
            short,
        }
    }

    /// Number of hands.
    pub fn hand_count(&self) -> usize {
        self.hands.len()
    }

    /// Number of bids.
    pub fn bid_count(&self) -> usize {
        self.bids.len()
    }

    /// Whether bid `b` is true when the hands are `h0` and `h1`.
    #[inline]
    pub fn is_true(&self, b: usize, h0: usize, h1: usize) -> bool {
        u32::from(self.counted[b][h0]) + u32::from(self.counted[b][h1]) >= self.need[b]
    }

    /// The index of a hand given as its dice (any order), if it has `dice_each` dice.
    pub fn hand_index(&self, dice: &[Face]) -> Option<usize> {
        let mut h: Hand = [0; 6];
        for d in dice {
            h[d.index()] += 1;
        }
        self.hands.iter().position(|x| *x == h)
    }

    /// The index of a bid, if the game holds it.
    pub fn bid_index(&self, bid: Bid) -> Option<usize> {
        self.bids.iter().position(|b| *b == bid)
    }

    /// A hand as its dice, lowest first: `1,4,4`.
    pub fn hand_text(&self, h: usize) -> String {
        dice_of(&self.hands[h])
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("")
    }

    /// Vector-form value of a doubt of bid `b` for player `me`, against the other side's reach
    /// `reach` (chance included): `out[h]` is Σₒ `reach[o]`·(±1) for `me` holding `h`.
    /// `doubter` is who said «dudo». Sums the other side's reach by how many of their dice
    /// count, so it costs O(hands) instead of O(hands²); the sums are dot products with 0/1
    /// masks (no branch, no store feeding the next load: this is the hottest loop of the
    /// full-recall walk).
    pub fn doubt_values(
        &self,
        b: usize,
        doubter: usize,
        me: usize,
        reach: &[f64],
        out: &mut [f64],
    ) {
        let n = reach.len();
        // at_least[c]: the other side's reach with at least c dice counting (0 past dice_each).
        let mut at_least = [0.0f64; MAX_DICE_EACH as usize + 2];
        for (c, mask) in self.count_masks[b].chunks_exact(n).enumerate() {
            at_least[c] = dot(reach, mask);
        }
        let total = at_least[0];
        let sign = if doubter == me { -1.0 } else { 1.0 };
        for (v, &short) in out.iter_mut().zip(&self.short[b]) {
            // A true bid costs the doubter the round, a false one the bidder.
            *v = sign * (2.0 * at_least[usize::from(short)] - total);
        }
    }
}

/// `Σ a[i]·b[i]` over `a`'s length, in four lanes (term i into lane i mod 4, so an add need
/// not wait for the one before), the lanes added in a fixed order: the same bits every run.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let b = &b[..a.len()];
    let mut lanes = [0.0f64; 4];
    let mut a4 = a.chunks_exact(4);
    let mut b4 = b.chunks_exact(4);
    for (x, y) in (&mut a4).zip(&mut b4) {
        for i in 0..4 {
            lanes[i] += x[i] * y[i];
        }
    }
    for (i, (x, y)) in a4.remainder().iter().zip(b4.remainder()).enumerate() {
        lanes[i] += x * y;
    }
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
}

/// The place of a bid in the textbook order: quantity, then faces 2..6, then 1s.
fn position_of(b: Bid) -> u32 {
    let rank = if b.face.is_ace() {
        6
    } else {
        u32::from(b.face.value()) - 1
    };
    b.quantity * 8 + rank
}

/// The bids sorted so that every raise goes to a later bid (a topological order of the raise
/// relation, which no cycle can break: every conversion back and forth raises the quantity).
/// Among bids free to go first, the textbook order decides, so the order is the same every run.
fn climbing_order(mut bids: Vec<Bid>, is_raise: impl Fn(Bid, Bid) -> bool) -> Vec<Bid> {
    bids.sort_by_key(|b| position_of(*b));
    let mut out = Vec::with_capacity(bids.len());
    while !bids.is_empty() {
        let free = (0..bids.len())
            .find(|&i| !bids.iter().any(|&p| is_raise(p, bids[i])))
            .expect("the raise relation has no cycle");
        out.push(bids.remove(free));
    }
    out
}

/// Every multiset of `k` dice, as face counts, in a fixed order.
fn all_hands(k: u32) -> Vec<Hand> {
    fn rec(face: usize, left: u8, cur: &mut Hand, out: &mut Vec<Hand>) {
        if face == 5 {
            cur[5] = left;
            out.push(*cur);
            return;
        }
        for c in (0..=left).rev() {
            cur[face] = c;
            rec(face + 1, left - c, cur, out);
        }
        cur[face] = 0;
    }
    let mut out = Vec::new();
    rec(0, k as u8, &mut [0; 6], &mut out);
    out
}

/// The chance of rolling exactly this multiset: k! / Π cᵢ! / 6ᵏ.
fn hand_chance(h: &Hand) -> f64 {
    let fact = |n: u8| (1..=u64::from(n)).product::<u64>() as f64;
    let k: u8 = h.iter().sum();
    let arrangements = fact(k) / h.iter().map(|&c| fact(c)).product::<f64>();
    arrangements / 6f64.powi(i32::from(k))
}

/// A hand's dice, lowest first.
fn dice_of(h: &Hand) -> Vec<Face> {
    let mut out = Vec::new();
    for (i, &c) in h.iter().enumerate() {
        for _ in 0..c {
            out.push(Face::ALL[i]);
        }
    }
    out
}

/// A hand's dice as the engine holds them (values 1..=6).
fn dice_values(h: &Hand) -> Vec<u8> {
    dice_of(h).iter().map(|f| f.value()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_and_their_chances() {
        for (k, n) in [(1, 6), (2, 21), (3, 56), (5, 252)] {
            let g = DuelGame::new(DuelRules::Plain, k);
            assert_eq!(g.hand_count(), n);
            let total: f64 = g.weight.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "k={k}: {total}");
        }
        // Two dice: a pair 1/36, two different faces 2/36.
        let g = DuelGame::new(DuelRules::Plain, 2);
        let pair = g.hand_index(&[Face::ACE, Face::ACE]).unwrap();
        let mixed = g.hand_index(&[Face::ACE, Face::TWO]).unwrap();
        assert!((g.weight[pair] - 1.0 / 36.0).abs() < 1e-15);
        assert!((g.weight[mixed] - 2.0 / 36.0).abs() < 1e-15);
    }

    #[test]
    fn plain_order_is_the_textbook_one() {
        let g = DuelGame::new(DuelRules::Plain, 1);
        let names: Vec<String> = g.bids.iter().map(|b| b.to_string()).collect();
        assert_eq!(
            names.join(" "),
            "1x2 1x3 1x4 1x5 1x6 1x1 2x2 2x3 2x4 2x5 2x6 2x1"
        );
        assert_eq!(g.raises[0].len(), 11);
        assert_eq!(g.raises[12].len(), 12);
        assert!(g.raises[11].is_empty());
        // 2x3 is true with a 3 and an ace, false with a 3 and a 2.
        let b = g.bid_index(Bid::parse("2x3").unwrap()).unwrap();
        let three = g.hand_index(&[Face::new(3).unwrap()]).unwrap();
        let ace = g.hand_index(&[Face::ACE]).unwrap();
        let two = g.hand_index(&[Face::TWO]).unwrap();
        assert!(g.is_true(b, three, ace) && !g.is_true(b, three, two));
    }

    #[test]
    fn rule_set_orders_follow_the_engine() {
        for rules in [DuelRules::Chimbo9, DuelRules::Caleuchano] {
            let g = DuelGame::new(rules, 2);
            let bidding = Bidding::new(rules.rule_set().unwrap());
            for (i, r) in g.raises[..g.bid_count()].iter().enumerate() {
                for j in 0..g.bid_count() {
                    let legal = bidding.is_raise(g.bids[i], g.bids[j]);
                    assert_eq!(
                        legal,
                        r.contains(&(j as u16)),
                        "{} → {}",
                        g.bids[i],
                        g.bids[j]
                    );
                }
            }
        }
        // Caleuchano's millas bonus: 5 millas with four dice on the table.
        let g = DuelGame::new(DuelRules::Caleuchano, 2);
        let b = g.bid_index(Bid::parse("5x2").unwrap()).unwrap();
        let twos = g.hand_index(&[Face::TWO, Face::ACE]).unwrap();
        assert!(g.is_true(b, twos, twos));
        assert!(!g.paso && DuelGame::new(DuelRules::Caleuchano, 5).paso);
    }

    #[test]
    fn vector_doubt_values_match_the_pairs() {
        let g = DuelGame::new(DuelRules::Caleuchano, 2);
        let reach: Vec<f64> = (0..g.hand_count()).map(|o| 0.01 * (o % 7) as f64).collect();
        let mut out = vec![0.0; g.hand_count()];
        for b in 0..g.bid_count() {
            for (doubter, me) in [(0, 0), (0, 1), (1, 0)] {
                g.doubt_values(b, doubter, me, &reach, &mut out);
                for (h, &v) in out.iter().enumerate() {
                    let direct: f64 = (0..g.hand_count())
                        .map(|o| {
                            let bid_true = g.is_true(b, h, o);
                            let doubter_loses = bid_true;
                            let me_wins = (doubter == me) != doubter_loses;
                            reach[o] * if me_wins { 1.0 } else { -1.0 }
                        })
                        .sum();
                    assert!((v - direct).abs() < 1e-12, "bid {b} hand {h}");
                }
            }
        }
    }
}
