//! Random streams and unbiased dice.
//!
//! Every simulation in tahur draws from xoshiro256++ streams derived from one user seed: the
//! generator is seeded with `seed_from_u64(seed)` and chunk `i` of a run uses that state after
//! `i` calls to [`Xoshiro256PlusPlus::jump`] (2^128 draws apart, so streams never overlap).
//! [`ChunkStreams`] walks those states in order.
//!
//! Dice come from [`DiceRoller`]: each accepted 64-bit word is turned into 24 *exactly* uniform
//! and independent dice (the word is rejected unless it falls below 3·6^24, then read as 24
//! base-6 digits). Dice are handed out three at a time as a base-216 digit, and
//! [`DiceRoller::roll_faces`] adds up the faces of many dice with one table lookup per three dice
//! (each table entry holds the face counts of its three dice in six byte lanes). Every die is a
//! real draw; only the bookkeeping is batched.

pub use rand_core::{Rng, SeedableRng};
pub use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator behind every stream.
pub type Stream = Xoshiro256PlusPlus;

/// The stream of chunk 0 for a seed.
pub fn base_stream(seed: u64) -> Stream {
    Stream::seed_from_u64(seed)
}

/// Iterator over the per-chunk streams of a seed: item `i` is the base stream jumped `i` times.
#[derive(Clone, Debug)]
pub struct ChunkStreams {
    next: Stream,
}

impl ChunkStreams {
    /// Streams for `seed`, starting at chunk 0.
    pub fn new(seed: u64) -> Self {
        Self {
            next: base_stream(seed),
        }
    }
}

impl Iterator for ChunkStreams {
    type Item = Stream;
    fn next(&mut self) -> Option<Stream> {
        let current = self.next.clone();
        self.next.jump();
        Some(current)
    }
}

/// 6^24, the number of outcomes of 24 dice.
const SIX_POW_24: u64 = 4_738_381_338_321_616_896;
/// Words at or above this are rejected so that the accepted ones are uniform modulo 6^24.
const ACCEPT_BELOW: u64 = 3 * SIX_POW_24;
const SIX_POW_12: u64 = 2_176_782_336;
const SIX_POW_6: u32 = 46_656;

/// Number of face counts packed into one lane word: one byte per face, faces 1..=6.
pub const LANES: usize = 6;

/// Face counts of the first `r` dice (r = 0..=3) of every base-216 digit, packed one byte per
/// face (lane `f - 1` holds the count of face `f`). Digit `d` is the three dice
/// `d % 6 + 1`, `d / 6 % 6 + 1`, `d / 36 + 1`.
static TRIPLE_COUNTS: [[u64; 216]; 4] = build_triple_counts();

const fn build_triple_counts() -> [[u64; 216]; 4] {
    let mut table = [[0u64; 216]; 4];
    let mut r = 0;
    while r <= 3 {
        let mut d = 0;
        while d < 216 {
            let dice = [d % 6, d / 6 % 6, d / 36];
            let mut packed = 0u64;
            let mut i = 0;
            while i < r {
                packed += 1u64 << (8 * dice[i]);
                i += 1;
            }
            table[r][d] = packed;
            d += 1;
        }
        r += 1;
    }
    table
}

/// Unpacks one lane word into counts per face (index 0 = aces … 5 = sixes).
#[inline]
pub fn unpack_lanes(word: u64) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = ((word >> (8 * i)) & 0xFF) as u32;
    }
    out
}

/// Exactly unbiased dice from a random stream.
#[derive(Clone, Debug)]
pub struct DiceRoller<R: Rng = Stream> {
    rng: R,
    /// Base-216 digits (three dice each) not yet handed out; `digits[pos..]` are fresh.
    digits: [u8; 8],
    pos: usize,
}

impl<R: Rng> DiceRoller<R> {
    /// Dice drawn from `rng`.
    pub fn new(rng: R) -> Self {
        Self {
            rng,
            digits: [0; 8],
            pos: 8,
        }
    }

    /// Gives back the underlying stream.
    pub fn into_inner(self) -> R {
        self.rng
    }

    /// One accepted word as 24 base-6 digits: `(hi, lo)`, each below 6^12.
    #[inline]
    fn next_word(&mut self) -> (u32, u32) {
        let x = loop {
            let x = self.rng.next_u64();
            if x < ACCEPT_BELOW {
                break x;
            }
        };
        let y = x % SIX_POW_24;
        ((y / SIX_POW_12) as u32, (y % SIX_POW_12) as u32)
    }

    #[inline]
    fn refill(&mut self) {
        let (hi, lo) = self.next_word();
        let parts = [hi / SIX_POW_6, hi % SIX_POW_6, lo / SIX_POW_6, lo % SIX_POW_6];
        for (k, p) in parts.iter().enumerate() {
            self.digits[2 * k] = (p / 216) as u8;
            self.digits[2 * k + 1] = (p % 216) as u8;
        }
        self.pos = 0;
    }

    /// Three fresh dice as a base-216 digit.
    #[inline]
    fn next_triple(&mut self) -> usize {
        if self.pos == 8 {
            self.refill();
        }
        let d = self.digits[self.pos];
        self.pos += 1;
        d as usize
    }

    /// One die, 1..=6.
    #[inline]
    pub fn roll(&mut self) -> u8 {
        (self.next_triple() % 6) as u8 + 1
    }

    /// Rolls `n ≤ 255` dice and returns their face counts packed one byte per face
    /// (see [`unpack_lanes`]).
    #[inline]
    pub fn roll_lanes(&mut self, n: u32) -> u64 {
        debug_assert!(n <= 255, "a lane holds at most 255 dice");
        let mut acc = 0u64;
        for _ in 0..n / 3 {
            acc += TRIPLE_COUNTS[3][self.next_triple()];
        }
        let rest = (n % 3) as usize;
        if rest > 0 {
            acc += TRIPLE_COUNTS[rest][self.next_triple()];
        }
        acc
    }

    /// Rolls `n` dice (any number) and returns how many show each face (index 0 = aces).
    pub fn roll_faces(&mut self, mut n: u32) -> [u32; LANES] {
        let mut counts = [0u32; LANES];
        while n > 0 {
            let take = n.min(255);
            let lanes = unpack_lanes(self.roll_lanes(take));
            for (c, l) in counts.iter_mut().zip(lanes) {
                *c += l;
            }
            n -= take;
        }
        counts
    }

    /// Fills `out` with individual dice (1..=6), 24 per accepted word.
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut blocks = out.chunks_exact_mut(24);
        for block in &mut blocks {
            let (mut hi, mut lo) = self.next_word();
            for k in 0..12 {
                block[k] = (hi % 6) as u8 + 1;
                hi /= 6;
                block[12 + k] = (lo % 6) as u8 + 1;
                lo /= 6;
            }
        }
        for die in blocks.into_remainder() {
            *die = self.roll();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_powers_of_six() {
        assert_eq!(SIX_POW_24, 6u64.pow(24));
        assert_eq!(SIX_POW_12, 6u64.pow(12));
        assert_eq!(SIX_POW_6, 6u32.pow(6));
        assert!(ACCEPT_BELOW > SIX_POW_24 * 2 && ACCEPT_BELOW.checked_add(SIX_POW_24).is_none());
    }

    #[test]
    fn triple_table_counts_every_outcome_once() {
        // Over all 216 digits each die position shows every face exactly 36 times.
        for r in 0..=3usize {
            let mut totals = [0u32; LANES];
            for d in 0..216 {
                let lanes = unpack_lanes(TRIPLE_COUNTS[r][d]);
                assert_eq!(lanes.iter().sum::<u32>(), r as u32);
                for (t, l) in totals.iter_mut().zip(lanes) {
                    *t += l;
                }
            }
            assert_eq!(totals, [36 * r as u32; LANES]);
        }
    }

    #[test]
    fn chunk_streams_are_jumps_of_the_base_stream() {
        let mut streams = ChunkStreams::new(7);
        let first = streams.next().unwrap();
        let second = streams.next().unwrap();
        let mut expected = base_stream(7);
        assert_eq!(first, expected);
        expected.jump();
        assert_eq!(second, expected);
    }
}
