//! Random streams and unbiased dice.
//!
//! Every simulation in tahur draws from xoshiro256++ streams derived from one user seed: the
//! generator is seeded with `seed_from_u64(seed)` and chunk `i` of a run uses that state after
//! `i` calls to [`Xoshiro256PlusPlus::jump`] (2^128 draws apart, so streams never overlap).
//! [`ChunkStreams`] walks those states in order.
//!
//! Dice come from [`DiceRoller`] as *exactly* uniform and independent six-dice digits: each
//! 64-bit word is cut into four 16-bit candidates and a candidate is kept when it is below 6^6
//! (then it is uniform on the 6^6 outcomes of six dice). [`DiceRoller::roll_lanes`] adds up the faces of many dice
//! with one table lookup per six dice (each table entry holds the face counts of its six dice in
//! six byte lanes). Every die is a real draw; only the bookkeeping is batched.

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

/// Outcomes of six dice: a "digit" in `0..SIX_POW_6` is six dice.
pub const SIX_POW_6: usize = 46_656;
const _: () = assert!(
    SIX_POW_6 <= 1 << 16,
    "a 16-bit candidate must cover six dice"
);

/// Number of face counts packed into one lane word: one byte per face, faces 1..=6.
pub const LANES: usize = 6;

/// Lookup tables from six-dice digits to packed face counts and to individual dice.
struct Tables {
    /// `counts6[d]`: face counts of the six dice of digit `d`, one byte lane per face.
    counts6: Vec<u64>,
    /// `counts_first[r][d % 6^r]`: face counts of the first `r` dice (r = 0..=5).
    counts_first: [Vec<u64>; 6],
    /// `dice6[d]`: the six dice of digit `d` as bytes 1..=6 (two spare bytes).
    dice6: Vec<[u8; 8]>,
}

/// The six dice of a digit: die `i` (0..6) of digit `d` is `d / 6^i % 6 + 1`.
pub fn digit_dice(d: usize) -> [u8; 6] {
    let mut out = [0u8; 6];
    let mut x = d;
    for die in out.iter_mut() {
        *die = (x % 6) as u8 + 1;
        x /= 6;
    }
    out
}

fn pack(dice: &[u8]) -> u64 {
    dice.iter().map(|&f| 1u64 << (8 * (f - 1))).sum()
}

static TABLES: std::sync::LazyLock<Tables> = std::sync::LazyLock::new(|| {
    let counts6 = (0..SIX_POW_6).map(|d| pack(&digit_dice(d))).collect();
    let counts_first = std::array::from_fn(|r| {
        (0..6usize.pow(r as u32))
            .map(|d| pack(&digit_dice(d)[..r]))
            .collect()
    });
    let dice6 = (0..SIX_POW_6)
        .map(|d| {
            let mut b = [0u8; 8];
            b[..6].copy_from_slice(&digit_dice(d));
            b
        })
        .collect();
    Tables {
        counts6,
        counts_first,
        dice6,
    }
});

/// Six exactly uniform dice (faces 1..=6) from one or a few 64-bit draws: the first of the
/// word's four 16-bit candidates below 6^6 is used. For games, which roll a cup at a time.
#[inline]
pub fn six_dice(rng: &mut impl Rng) -> [u8; 6] {
    let dice6 = &TABLES.dice6;
    loop {
        let x = rng.next_u64();
        for k in 0..4 {
            let c = (x >> (16 * k)) as u16;
            if (c as usize) < SIX_POW_6 {
                let d = &dice6[c as usize];
                return [d[0], d[1], d[2], d[3], d[4], d[5]];
            }
        }
    }
}

/// An exactly uniform integer in `0..n` (Lemire's multiply with rejection).
#[inline]
pub fn uniform_below(rng: &mut impl Rng, n: usize) -> usize {
    let n64 = n as u64;
    let mut m = (rng.next_u64() as u128) * n64 as u128;
    // The rejection threshold `2^64 mod n` is below n, so the division that computes it is
    // needed only when the low word is below n (rarely): same draws, same results.
    if (m as u64) < n64 {
        let threshold = n64.wrapping_neg() % n64;
        while (m as u64) < threshold {
            m = (rng.next_u64() as u128) * n64 as u128;
        }
    }
    (m >> 64) as usize
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

/// Six-dice digits made per refill of the buffer.
const DIGITS_PER_REFILL: usize = 1024;

/// Exactly unbiased dice from a random stream.
///
/// Internally the dice come as six-dice digits (uniform in `0..6^6`), buffered
/// `DIGITS_PER_REFILL` at a time by a branch-free rejection loop.
#[derive(Clone)]
pub struct DiceRoller<R: Rng = Stream> {
    rng: R,
    tables: &'static Tables,
    digits: [u16; DIGITS_PER_REFILL + 4],
    pos: usize,
    len: usize,
}

impl<R: Rng + std::fmt::Debug> std::fmt::Debug for DiceRoller<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiceRoller")
            .field("rng", &self.rng)
            .field("buffered_digits", &(self.len - self.pos))
            .finish()
    }
}

impl<R: Rng> DiceRoller<R> {
    /// Dice drawn from `rng`.
    pub fn new(rng: R) -> Self {
        Self {
            rng,
            tables: &TABLES,
            digits: [0; DIGITS_PER_REFILL + 4],
            pos: 0,
            len: 0,
        }
    }

    /// Gives back the underlying stream (buffered dice are dropped).
    pub fn into_inner(self) -> R {
        self.rng
    }

    /// Refills the digit buffer. Each 64-bit word gives four 16-bit candidates; a candidate
    /// below 6^6 is a uniform six-dice digit, the others are dropped. The write position only
    /// advances past accepted candidates, so rejection costs no branch.
    #[inline(never)]
    fn refill(&mut self) {
        let mut len = 0;
        while len < DIGITS_PER_REFILL {
            let x = self.rng.next_u64();
            for k in 0..4 {
                let c = (x >> (16 * k)) as u16;
                self.digits[len] = c;
                len += (c < SIX_POW_6 as u16) as usize;
            }
        }
        self.len = len;
        self.pos = 0;
    }

    /// Six fresh dice as a digit in `0..6^6` (die `i` is `digit / 6^i % 6 + 1`, see
    /// [`digit_dice`]).
    #[inline]
    pub fn next_digit(&mut self) -> usize {
        if self.pos == self.len {
            self.refill();
        }
        let d = self.digits[self.pos];
        self.pos += 1;
        d as usize
    }

    /// The next `n` six-dice digits (`n` at most 1024), as a slice of the buffer. Digits left
    /// over when the buffer runs short are dropped, which keeps the draw exact: what is dropped
    /// never depends on the values.
    #[inline]
    pub fn take_digits(&mut self, n: usize) -> &[u16] {
        debug_assert!(n <= DIGITS_PER_REFILL);
        if self.len - self.pos < n {
            self.refill();
        }
        let start = self.pos;
        self.pos += n;
        &self.digits[start..start + n]
    }

    /// One die, 1..=6.
    #[inline]
    pub fn roll(&mut self) -> u8 {
        (self.next_digit() % 6) as u8 + 1
    }

    /// Rolls `n ≤ 255` dice and returns their face counts packed one byte per face
    /// (see [`unpack_lanes`]).
    #[inline]
    pub fn roll_lanes(&mut self, n: u32) -> u64 {
        debug_assert!(n <= 255, "a lane holds at most 255 dice");
        let t = self.tables;
        let mut acc = 0u64;
        for _ in 0..n / 6 {
            acc += t.counts6[self.next_digit()];
        }
        acc + self.roll_few(n % 6)
    }

    /// Face counts of `r < 6` dice, from the first dice of one digit.
    #[inline]
    fn roll_few(&mut self, r: u32) -> u64 {
        let t = &self.tables.counts_first;
        // Constant moduli per arm: no division instruction.
        match r {
            0 => 0,
            1 => t[1][self.next_digit() % 6],
            2 => t[2][self.next_digit() % 36],
            3 => t[3][self.next_digit() % 216],
            4 => t[4][self.next_digit() % 1296],
            _ => t[5][self.next_digit() % 7776],
        }
    }

    /// Rolls `n` dice (any number) and returns how many show each face (index 0 = aces).
    pub fn roll_faces(&mut self, mut n: u32) -> [u32; LANES] {
        let mut counts = [0u32; LANES];
        while n > 0 {
            let take = n.min(252);
            let lanes = unpack_lanes(self.roll_lanes(take));
            for (c, l) in counts.iter_mut().zip(lanes) {
                *c += l;
            }
            n -= take;
        }
        counts
    }

    /// Fills `out` with individual dice (1..=6).
    pub fn fill(&mut self, out: &mut [u8]) {
        let dice6 = &self.tables.dice6;
        let mut blocks = out.chunks_exact_mut(6);
        for block in &mut blocks {
            block.copy_from_slice(&dice6[self.next_digit()][..6]);
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
    fn six_dice_fit_a_16_bit_candidate() {
        assert_eq!(SIX_POW_6, 6usize.pow(6));
    }

    #[test]
    fn tables_count_every_outcome_once() {
        let t = &*TABLES;
        let mut totals = [0u32; LANES];
        for d in 0..SIX_POW_6 {
            let lanes = unpack_lanes(t.counts6[d]);
            assert_eq!(lanes.iter().sum::<u32>(), 6);
            for (tot, l) in totals.iter_mut().zip(lanes) {
                *tot += l;
            }
            assert_eq!(pack(&t.dice6[d][..6]), t.counts6[d]);
        }
        // Each of the six positions shows each face 6^5 times.
        assert_eq!(totals, [6 * 7776; LANES]);
        for r in 0..6 {
            let mut totals = [0u32; LANES];
            for &w in &t.counts_first[r] {
                for (tot, l) in totals.iter_mut().zip(unpack_lanes(w)) {
                    *tot += l;
                }
            }
            let per_face = (r * 6usize.pow(r as u32) / 6) as u32;
            assert_eq!(totals, [per_face; LANES], "first {r} dice");
        }
    }

    #[test]
    fn refill_keeps_only_valid_digits() {
        let mut roller = DiceRoller::new(base_stream(3));
        roller.refill();
        assert!(roller.len >= DIGITS_PER_REFILL && roller.len <= DIGITS_PER_REFILL + 3);
        assert!(roller.digits[..roller.len]
            .iter()
            .all(|&d| (d as usize) < SIX_POW_6));
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
