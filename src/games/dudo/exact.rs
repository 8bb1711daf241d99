//! Exact probability that a bid is true, for any table size.
//!
//! The dice one sees (own hand, dice others have shown) are fixed; every other die on the table
//! is unknown and uniform. A bid on face F counts the dice showing F, plus the aces when they are
//! wild (not on ace bids, not in obligado), plus the Caleuchano millas bonus. With wild aces each
//! unknown die counts with probability 1/3, otherwise 1/6, so the count is the known part plus a
//! binomial. Under `--aces-need-natural` with no natural F among the known dice, the outcomes in
//! which no unknown die shows F either have their aces removed from the count: their probability
//! is (5/6)^U · P(Binomial(U, 1/5) = a), which is moved to the bonus-only count.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::face::Face;
use super::rules::{Bidding, Counting, RuleSet};
use crate::error::{Error, Result};
use crate::math::{binomial_pmf, upper_tails};

/// The most dice a table may hold (2000 players): far above any real game, small enough that
/// every exact query stays instant.
pub const MAX_DICE: u32 = 10_000;

/// Dice per player.
pub const DICE_PER_PLAYER: u32 = 5;

/// What one player knows at the table: the number of dice, their own dice and the dice shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    /// Dice on the whole table.
    pub dice: u32,
    /// The asker's own dice.
    pub hand: Vec<Face>,
    /// Dice others have shown (mandada reforzada).
    pub shown: Vec<Face>,
    /// Rule set and flags.
    pub rules: Bidding,
    /// An obligado round (fixed face, no wild aces, no millas bonus).
    pub obligado: bool,
}

impl Situation {
    /// Checks and builds a situation.
    pub fn new(
        dice: u32,
        hand: Vec<Face>,
        shown: Vec<Face>,
        rules: Bidding,
        obligado: bool,
    ) -> Result<Self> {
        if dice == 0 || dice > MAX_DICE {
            return Err(Error::usage(format!(
                "invalid --dice {dice}: the table must hold 1 to {MAX_DICE} dice (5 per player)"
            )));
        }
        if hand.len() > DICE_PER_PLAYER as usize {
            return Err(Error::usage(format!(
                "invalid --hand: {} dice given, but a player holds at most {DICE_PER_PLAYER}",
                hand.len()
            )));
        }
        let known = hand.len() + shown.len();
        if known > dice as usize {
            return Err(Error::usage(format!(
                "{known} known dice (--hand {} + --shown {}) but --dice {dice}: the table must hold at least the dice you know",
                hand.len(),
                shown.len()
            )));
        }
        if obligado && rules.set != RuleSet::Caleuchano {
            return Err(Error::usage(
                "--obligado is a Caleuchano rule: add --rules caleuchano",
            ));
        }
        Ok(Self {
            dice,
            hand,
            shown,
            rules,
            obligado,
        })
    }

    /// Dice nobody at the table has seen from the asker's seat.
    pub fn unknown(&self) -> u32 {
        self.dice - (self.hand.len() + self.shown.len()) as u32
    }

    /// Known dice per face (index 0 = aces).
    pub fn known_counts(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for f in self.hand.iter().chain(&self.shown) {
            c[f.index()] += 1;
        }
        c
    }

    /// How a bid on `face` is counted here.
    pub fn counting(&self, face: Face) -> Counting {
        self.rules.counting(face, self.obligado)
    }

    /// The known naturals and known aces that matter for a bid on `face`.
    pub fn known_for(&self, face: Face) -> (u32, u32) {
        let c = self.known_counts();
        let aces = if face.is_ace() { 0 } else { c[0] };
        (c[face.index()], aces)
    }

    /// The fewest dice that will count for a bid on `face` whatever the unknown dice show: the
    /// known dice that count, plus the bonus.
    pub fn min_count(&self, face: Face) -> u32 {
        let (naturals, aces) = self.known_for(face);
        self.counting(face).count(naturals, aces)
    }

    /// The most dice that can count for a bid on `face`: every unknown die counting, plus the
    /// known dice that count, plus the bonus. A bid above it is impossible; this is decided
    /// from the dice, not from a probability that may have underflowed to 0.
    pub fn max_count(&self, face: Face) -> u32 {
        let counting = self.counting(face);
        let (naturals, aces) = self.known_for(face);
        let u = self.unknown();
        // Every unknown die shows the face itself: a natural, which also lets the aces count
        // under --aces-need-natural (when there is at least one unknown die).
        let naturals_at_most = naturals + u;
        let aces_count = counting.wild_aces && (!counting.need_natural || naturals_at_most > 0);
        naturals_at_most + if aces_count { aces } else { 0 } + counting.bonus
    }

    /// Whether `bid` can be true at all here (see [`Situation::max_count`]).
    pub fn possible(&self, bid: Bid) -> bool {
        bid.quantity <= self.max_count(bid.face)
    }

    /// Whether `bid` is true whatever the unknown dice show (see [`Situation::min_count`]).
    pub fn certain(&self, bid: Bid) -> bool {
        bid.quantity <= self.min_count(bid.face)
    }

    /// The exact distribution of the count for a bid on `face`.
    pub fn distribution(&self, face: Face) -> CountDistribution {
        let counting = self.counting(face);
        let (naturals, aces) = self.known_for(face);
        let u = self.unknown();
        let offset = counting.bonus as usize;
        let max = (naturals + if counting.wild_aces { aces } else { 0 } + u) as usize + offset;
        let mut pmf = vec![0.0; max + 1];
        if !counting.wild_aces {
            // Each unknown die counts with probability 1/6.
            for (k, p) in binomial_pmf(u, 1.0 / 6.0).into_iter().enumerate() {
                pmf[naturals as usize + k + offset] += p;
            }
        } else {
            let base = (naturals + aces) as usize + offset;
            let wild = binomial_pmf(u, 1.0 / 3.0);
            if counting.need_natural && naturals == 0 {
                // No natural die of the face is known. The outcomes where no unknown die shows it
                // either (probability (5/6)^U) count only the bonus. Among outcomes with k ≥ 1
                // counting unknown dice, those with no natural have probability
                // (5/6)^U · P(Binomial(U, 1/5) = k), at most half of the total: subtracting them
                // loses no accuracy. k = 0 is handled exactly by the line after the loop.
                let none = (u as f64 * (5.0f64 / 6.0).ln()).exp();
                let fifths = binomial_pmf(u, 1.0 / 5.0);
                for k in 1..wild.len() {
                    pmf[base + k] += (wild[k] - none * fifths[k]).max(0.0);
                }
                pmf[offset] += none;
            } else {
                for (k, p) in wild.into_iter().enumerate() {
                    pmf[base + k] += p;
                }
            }
        }
        CountDistribution::new(pmf)
    }

    /// The exact odds of a bid.
    pub fn odds(&self, bid: Bid) -> BidOdds {
        let d = self.distribution(bid.face);
        BidOdds {
            at_least: d.at_least(bid.quantity),
            exactly: d.exactly(bid.quantity),
            expected: d.mean(),
        }
    }

    /// Probability that an unknown die counts for a bid on `face` (ignoring the
    /// `--aces-need-natural` condition, which depends on the whole table).
    pub fn per_die_probability(&self, face: Face) -> f64 {
        if self.counting(face).wild_aces {
            1.0 / 3.0
        } else {
            1.0 / 6.0
        }
    }
}

/// The exact odds of one bid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BidOdds {
    /// P(count ≥ quantity): the bid is true.
    pub at_least: f64,
    /// P(count = quantity).
    pub exactly: f64,
    /// Expected count.
    pub expected: f64,
}

/// The distribution of the count for one face.
#[derive(Clone, Debug, PartialEq)]
pub struct CountDistribution {
    pmf: Vec<f64>,
    tail: Vec<f64>,
}

impl CountDistribution {
    fn new(pmf: Vec<f64>) -> Self {
        let tail = upper_tails(&pmf);
        Self { pmf, tail }
    }

    /// P(count = q).
    pub fn exactly(&self, q: u32) -> f64 {
        self.pmf.get(q as usize).copied().unwrap_or(0.0)
    }

    /// P(count ≥ q).
    pub fn at_least(&self, q: u32) -> f64 {
        self.tail.get(q as usize).copied().unwrap_or(0.0).min(1.0)
    }

    /// The largest possible count.
    pub fn max_count(&self) -> u32 {
        (self.pmf.len() - 1) as u32
    }

    /// The expected count.
    pub fn mean(&self) -> f64 {
        self.pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
    }

    /// P(count = k) for k = 0..=max.
    pub fn pmf(&self) -> &[f64] {
        &self.pmf
    }
}
