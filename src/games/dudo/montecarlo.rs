//! Monte Carlo of one bid: roll every unknown die, count by the rules, tally the count.
//!
//! This deliberately shares nothing with [`super::exact`] but the counting rule itself
//! ([`Counting::count`]): dice are real unbiased draws ([`DiceRoller`]), so agreement with the
//! exact figures checks the exact path.

use serde::{Deserialize, Serialize};

use super::exact::Situation;
use super::face::Face;
use super::rules::Counting;
use crate::rng::{digit_dice, DiceRoller, Stream, SIX_POW_6};
use crate::runner::{Simulation, Tally};
use crate::stats::Proportion;

/// Samples per chunk of a bid simulation (part of a run's definition: changing it changes results).
pub const BID_CHUNK: u64 = 1 << 16;

/// Simulates the count of one face on a table where some dice are known.
#[derive(Clone, Debug)]
pub struct BidSimulation {
    counting: Counting,
    known_naturals: u32,
    known_aces: u32,
    unknown: u32,
    max_count: u32,
    /// For every six-dice digit: how many of its dice show the face bid (low byte) and how
    /// many show an ace (high byte). 91 KiB, so lookups stay in the fast caches.
    six: Vec<u16>,
    /// The same for the first `unknown % 6` dice of a digit, indexed by `digit % 6^r`.
    rest: Vec<u16>,
}

/// Face-bid and ace counts of some dice, packed as (face) | (aces << 8).
fn pack_bid(dice: &[u8], face: u8) -> u16 {
    let naturals = dice.iter().filter(|&&d| d == face).count() as u16;
    let aces = dice.iter().filter(|&&d| d == 1).count() as u16;
    naturals | aces << 8
}

impl BidSimulation {
    /// The simulation of the count for a bid on `face` in `situation`.
    pub fn new(situation: &Situation, face: Face) -> Self {
        let counting = situation.counting(face);
        let (known_naturals, known_aces) = situation.known_for(face);
        let unknown = situation.unknown();
        let f = face.value();
        let six = (0..SIX_POW_6)
            .map(|d| pack_bid(&digit_dice(d), f))
            .collect();
        let r = (unknown % 6) as usize;
        let rest = (0..6usize.pow(r as u32))
            .map(|d| pack_bid(&digit_dice(d)[..r], f))
            .collect();
        Self {
            counting,
            known_naturals,
            known_aces,
            unknown,
            max_count: known_naturals + known_aces + unknown + counting.bonus,
            six,
            rest,
        }
    }
}

/// How often each count came up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountHistogram {
    /// `counts[k]`: samples whose count was k.
    pub counts: Vec<u64>,
}

impl CountHistogram {
    /// Total samples.
    pub fn samples(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Samples whose count was at least `q`: the bid was true.
    pub fn at_least(&self, q: u32) -> Proportion {
        let hits = self.counts.iter().skip(q as usize).sum();
        Proportion::new(hits, self.samples())
    }

    /// Samples whose count was exactly `q`.
    pub fn exactly(&self, q: u32) -> Proportion {
        Proportion::new(
            self.counts.get(q as usize).copied().unwrap_or(0),
            self.samples(),
        )
    }

    /// Sum of the counts and of their squares (for the mean count).
    pub fn sums(&self) -> (i128, u128) {
        self.counts
            .iter()
            .enumerate()
            .fold((0, 0), |(s, q), (k, &n)| {
                (s + k as i128 * n as i128, q + (k * k) as u128 * n as u128)
            })
    }
}

impl Tally for CountHistogram {
    fn absorb(&mut self, other: &Self) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }
}

/// `digit % 6^r`: the index of the first `r` dice of a digit (constant divisors, no division
/// instruction).
#[inline]
fn first_dice_index(digit: usize, r: u32) -> usize {
    match r {
        1 => digit % 6,
        2 => digit % 36,
        3 => digit % 216,
        4 => digit % 1296,
        _ => digit % 7776,
    }
}

impl Simulation for BidSimulation {
    type Tally = CountHistogram;

    fn chunk_size(&self) -> u64 {
        BID_CHUNK
    }

    fn empty_tally(&self) -> CountHistogram {
        CountHistogram {
            counts: vec![0; self.max_count as usize + 1],
        }
    }

    fn run_chunk(&self, stream: &mut Stream, samples: u64, tally: &mut CountHistogram) {
        let mut dice = DiceRoller::new(stream.clone());
        let counts = &mut tally.counts[..];
        if self.unknown <= 255 {
            // The common case: one lookup per six dice; the byte lanes cannot overflow.
            let (six, rest) = (&self.six[..], &self.rest[..]);
            let full = (self.unknown / 6) as usize;
            let r = self.unknown % 6;
            let need = full + usize::from(r > 0);
            for _ in 0..samples {
                let digits = dice.take_digits(need);
                let mut acc = 0u32;
                for &d in &digits[..full] {
                    acc += six[d as usize] as u32;
                }
                if r > 0 {
                    acc += rest[first_dice_index(digits[full] as usize, r)] as u32;
                }
                let naturals = (acc & 0xFF) + self.known_naturals;
                let aces = (acc >> 8) + self.known_aces;
                counts[self.counting.count(naturals, aces) as usize] += 1;
            }
        } else {
            let face = self.counting.face.index();
            for _ in 0..samples {
                let faces = dice.roll_faces(self.unknown);
                let naturals = faces[face] + self.known_naturals;
                let aces = faces[0] + self.known_aces;
                counts[self.counting.count(naturals, aces) as usize] += 1;
            }
        }
        *stream = dice.into_inner();
    }
}
