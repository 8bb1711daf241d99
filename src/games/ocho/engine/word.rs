//! The word a [`Table`](super::table::Table) holds its card sets in: `u64` for one deck (its 54
//! cards are the low 54 bits of a [`CardSet`]) and `u128` for two. The rules are written once
//! over [`CardWord`]; the one-deck random play-out is the same code at `u64`, where a card's bit
//! is one shift, a hand one register and a reshuffle lists one word.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::table::follows;
use crate::games::ocho::cards::{Card, CardSet, ONE_DECK};

/// A set of cards as one machine word, and the few operations on it the engine needs.
pub(crate) trait CardWord:
    Copy
    + Eq
    + Debug
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + Not<Output = Self>
{
    /// No cards.
    const EMPTY: Self;
    /// Places in the stock: a power of two above the cards the word holds by at least eight (a
    /// reshuffle writes eight places at a time).
    const PLACES: usize;
    /// The stock's places.
    type Stock: Copy + Debug + AsRef<[Card]> + AsMut<[Card]>;
    /// A stock of no cards.
    const NO_STOCK: Self::Stock;

    /// Masks a card index to its place in its deck (at one deck the index is that already).
    const IN_DECK: usize;

    /// The set of `card`'s index.
    fn bit(card: u8) -> Self;
    /// The rank of a card index (see [`Card::rank`]): its place in its deck / 4, which is
    /// [`crate::games::ocho::cards::JOKER`] (13) for the jokers 52 and 53.
    #[inline(always)]
    fn rank(card: u8) -> usize {
        (card as usize & Self::IN_DECK) >> 2
    }
    /// Cards in the set.
    fn count(self) -> u32;
    /// The `k`-th card (lowest first) of a set with more than `k` cards, selecting in 64-bit
    /// halves with `select` (one of [`crate::bits`]' selects).
    fn select_with(self, k: u32, select: impl Fn(u64, u32) -> u32) -> u8;
    /// The cards of `set` that the word holds: all of them at `u128`, the first deck's at
    /// `u64`.
    fn narrow(set: CardSet) -> Self;
    /// The set as a [`CardSet`].
    fn widen(self) -> CardSet;
    /// What follows in a normal turn the suit in force and the value at `shown` =
    /// `suit · 16 + value` (jokers that go anywhere not included): [`follows`], looked up.
    fn follow(shown: usize) -> Self;
    /// Writes the cards of the set into `stock`, lowest first, leaving the places past them as
    /// they were; returns how many.
    fn list(self, stock: &mut Self::Stock) -> u32;
}

/// [`follows`] for every `suit · 16 + value`, as a `CardWord` of either width.
const fn follow_table() -> [CardSet; 64] {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = follows((i / 16) as u8, (i % 16) as u8);
        i += 1;
    }
    t
}

static FOLLOW: [CardSet; 64] = follow_table();

static FOLLOW_ONE_DECK: [u64; 64] = {
    let wide = follow_table();
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = wide[i] as u64;
        i += 1;
    }
    t
};

impl CardWord for u64 {
    const EMPTY: u64 = 0;
    const PLACES: usize = 64;
    const IN_DECK: usize = 0xFF;
    type Stock = [Card; 64];
    const NO_STOCK: [Card; 64] = [Card(0); 64];

    #[inline(always)]
    fn bit(card: u8) -> u64 {
        1 << (card & 63)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn select_with(self, k: u32, select: impl Fn(u64, u32) -> u32) -> u8 {
        select(self, k) as u8
    }
    #[inline(always)]
    fn narrow(set: CardSet) -> u64 {
        set as u64
    }
    #[inline(always)]
    fn widen(self) -> CardSet {
        self.into()
    }
    #[inline(always)]
    fn follow(shown: usize) -> u64 {
        FOLLOW_ONE_DECK[shown & 63]
    }
    #[inline(always)]
    fn list(self, stock: &mut [Card; 64]) -> u32 {
        list_one_deck(self, stock)
    }
}

impl CardWord for u128 {
    const EMPTY: u128 = 0;
    const PLACES: usize = 128;
    const IN_DECK: usize = 63;
    type Stock = [Card; 128];
    const NO_STOCK: [Card; 128] = [Card(0); 128];

    #[inline(always)]
    fn bit(card: u8) -> u128 {
        // A table ([`Card::bit`]): a 128-bit shift by a variable amount takes several
        // instructions.
        Card(card).bit()
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn select_with(self, k: u32, select: impl Fn(u64, u32) -> u32) -> u8 {
        let low = self as u64;
        let n = low.count_ones();
        if k < n {
            select(low, k) as u8
        } else {
            64 + select((self >> 64) as u64, k - n) as u8
        }
    }
    #[inline(always)]
    fn narrow(set: CardSet) -> u128 {
        set
    }
    #[inline(always)]
    fn widen(self) -> CardSet {
        self
    }
    #[inline(always)]
    fn follow(shown: usize) -> u128 {
        FOLLOW[shown & 63]
    }
    #[inline(always)]
    fn list(self, stock: &mut [Card; 128]) -> u32 {
        list_two_decks(self, stock)
    }
}

/// `POSITIONS[b]`, byte `i`: the place of the `i`-th set bit of `b` (the rest 0).
static POSITIONS: [u64; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] |= (k as u64) << (8 * i);
                i += 1;
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Writes the cards of one deck's half `set` (bit `k` is card `base + k`, `k` below 56) into
/// `stock` from place `from`, lowest first; returns the place after the last. A byte of the set
/// at a time, eight places written at once from a table: seven steps whatever the set, where a
/// bit at a time ends on a branch no predictor could learn. Up to eight places past the last
/// are overwritten.
#[inline(always)]
fn list_half(set: u64, base: u8, stock: &mut [Card], from: usize, last_at: usize) -> usize {
    debug_assert!(set >> 56 == 0);
    let mut m = from;
    for byte in 0..7 {
        let b = (set >> (8 * byte)) as u8;
        // The places of this byte's cards plus its first card's (no carry: each place is
        // below 8 and base + 8 · byte at most 112).
        let places = POSITIONS[b as usize] + 0x0101_0101_0101_0101 * (u64::from(base) + 8 * byte);
        let at = m.min(last_at);
        for (place, card) in stock[at..at + 8].iter_mut().zip(places.to_le_bytes()) {
            *place = Card(card);
        }
        m += b.count_ones() as usize;
    }
    m
}

/// [`CardWord::list`] for one deck. Apart, and given only the stock, so that the rest of the
/// table can stay in registers.
#[cold]
#[inline(never)]
fn list_one_deck(set: u64, stock: &mut [Card; 64]) -> u32 {
    debug_assert!(set >> 54 == 0);
    let count = set.count_ones() as usize & 63;
    // Each step writes eight places from its first; those past the byte's cards are written
    // again by the next step, and the last step's lie among the eight past the count, kept
    // here and put back.
    let after: [Card; 8] = stock[count.min(56)..count.min(56) + 8].try_into().unwrap();
    list_half(set, 0, stock, 0, 56);
    stock[count.min(56)..count.min(56) + 8].copy_from_slice(&after);
    count as u32
}

/// [`CardWord::list`] for two decks: the first deck's half, then the second's.
#[cold]
#[inline(never)]
fn list_two_decks(set: u128, stock: &mut [Card; 128]) -> u32 {
    let count = set.count_ones() as usize & 127;
    let after: [Card; 8] = stock[count.min(120)..count.min(120) + 8]
        .try_into()
        .unwrap();
    let m = list_half(set as u64 & ONE_DECK as u64, 0, stock, 0, 120);
    list_half((set >> 64) as u64 & ONE_DECK as u64, 64, stock, m, 120);
    stock[count.min(120)..count.min(120) + 8].copy_from_slice(&after);
    count as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{base_stream, Rng};

    /// `list` writes the cards lowest first, a bit at a time's answer, and leaves every place
    /// past them as it was: for sets of every size, over stocks of known cards, at both widths.
    #[test]
    fn list_is_the_set_bit_by_bit() {
        let mut rng = base_stream(5);
        for size in 0..=108u32 {
            for _ in 0..40 {
                let mut set: u128 = 0;
                while set.count_ones() < size {
                    let k = rng.next_u64() % 108;
                    set |= 1 << if k < 54 { k } else { k + 10 };
                }
                let cards: Vec<Card> = (0..128u8)
                    .filter(|&k| set >> k & 1 == 1)
                    .map(Card)
                    .collect();
                let before: [Card; 128] = std::array::from_fn(|i| Card(200 + (i as u8 % 50)));
                let mut stock = before;
                assert_eq!(set.list(&mut stock), size);
                assert_eq!(&stock[..size as usize], &cards[..]);
                assert_eq!(&stock[size as usize..], &before[size as usize..]);
                if size <= 54 {
                    let one = set as u64 | (set >> 64) as u64;
                    let cards: Vec<Card> =
                        (0..64u8).filter(|&k| one >> k & 1 == 1).map(Card).collect();
                    let before: [Card; 64] = std::array::from_fn(|i| before[i]);
                    let mut stock = before;
                    if one.count_ones() == size {
                        assert_eq!(one.list(&mut stock), size);
                        assert_eq!(&stock[..size as usize], &cards[..]);
                        assert_eq!(&stock[size as usize..], &before[size as usize..]);
                    }
                }
            }
        }
    }

    /// Selecting in halves gives the `k`-th card at both widths, and narrowing and widening a
    /// one-deck set round-trip.
    #[test]
    fn words_select_and_convert() {
        let mut rng = base_stream(9);
        for _ in 0..2000 {
            let x = rng.next_u64();
            let wide = (u128::from(x) << 64 | u128::from(x.rotate_left(21)))
                & crate::games::ocho::cards::TWO_DECKS;
            let mut rest = wide;
            for k in 0..wide.count() {
                assert_eq!(
                    wide.select_with(k, crate::bits::select),
                    rest.trailing_zeros() as u8
                );
                rest &= rest - 1;
            }
            let one = wide & ONE_DECK;
            assert_eq!(u64::narrow(one).widen(), one);
            for k in 0..one.count() {
                assert_eq!(
                    u64::narrow(one).select_with(k, crate::bits::select),
                    one.select_with(k, crate::bits::select)
                );
            }
        }
    }
}
