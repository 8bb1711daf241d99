//! Cards and card sets of Ocho loco: one or two French decks of 52 cards and 2 jokers each, a set
//! as one `u128`. Card `k` of copy `c` (c = 0 for the first deck, 1 for the second) is bit
//! `64·c + k`, with `k = rank·4 + suit` for the 52 suited cards (rank 0 = A … 12 = K) and
//! `k = 52, 53` for the jokers. So one deck lives in the low 64 bits, a suit is every fourth bit,
//! a rank is a nibble, and the two copies of a card are the same bit in each half.

use std::fmt;

use crate::error::{Error, Result};
use crate::text::normalize;

/// A set of cards as a bitmask (see the module's layout).
pub type CardSet = u128;

/// Rank of the ace (plays again).
pub const ACE: u8 = 0;
/// Rank of the 2 (the next player skips).
pub const TWO: u8 = 1;
/// Rank of the 3 (draw three).
pub const THREE: u8 = 2;
/// Rank of the 8 (any suit).
pub const EIGHT: u8 = 7;
/// Rank of the jack (reverse).
pub const JACK: u8 = 10;
/// Rank of the king (reverse).
pub const KING: u8 = 12;
/// The rank a joker reports (it has no rank or suit of its own).
pub const JOKER: u8 = 13;

/// Rank names, index 0 = A … 12 = K, 13 = joker.
pub const RANK_NAMES: [&str; 14] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker",
];
/// Suit symbols: spades, hearts, diamonds, clubs.
pub const SUIT_SYMBOLS: [&str; 4] = ["♠", "♥", "♦", "♣"];
/// Suit names in Spanish, as players say them.
pub const SUIT_NAMES: [&str; 4] = ["picas", "corazones", "diamantes", "tréboles"];

/// One deck's suited cards of one suit, in the low half.
const HALF_SUIT: u64 = 0x0001_1111_1111_1111;

/// Both halves of a 64-bit pattern.
const fn both(half: u64) -> CardSet {
    half as u128 | (half as u128) << 64
}

/// Every card of `suit` (both decks).
#[inline]
pub const fn suit_mask(suit: u8) -> CardSet {
    both(HALF_SUIT << suit)
}

/// Every card of `rank` (both decks; [`JOKER`] gives the jokers).
#[inline]
pub const fn rank_mask(rank: u8) -> CardSet {
    if rank == JOKER {
        JOKERS
    } else {
        both(0xFu64 << (4 * rank as u32))
    }
}

/// The jokers of both decks.
pub const JOKERS: CardSet = both(3 << 52);
/// The eights.
pub const EIGHTS: CardSet = rank_mask(EIGHT);
/// The threes and jokers: the cards that answer a draw-three.
pub const DRAW_THREE: CardSet = rank_mask(THREE) | JOKERS;
/// The specials: A, 2, 3, 8, J, K and the jokers.
pub const SPECIALS: CardSet = rank_mask(ACE)
    | rank_mask(TWO)
    | rank_mask(THREE)
    | EIGHTS
    | rank_mask(JACK)
    | rank_mask(KING)
    | JOKERS;
/// One deck: 52 cards and 2 jokers.
pub const ONE_DECK: CardSet = (1u128 << 54) - 1;
/// Two decks.
pub const TWO_DECKS: CardSet = ONE_DECK | ONE_DECK << 64;
/// Plain cards (4, 5, 6, 7, 9, 10, Q): no effect when played.
pub const PLAIN: CardSet = TWO_DECKS & !SPECIALS;

/// The cards of `decks` decks (1 or 2).
#[inline]
pub const fn deck(decks: u8) -> CardSet {
    if decks >= 2 {
        TWO_DECKS
    } else {
        ONE_DECK
    }
}

/// A card: its bit index in a [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

impl Card {
    /// The first deck's card of `rank` (0 = A … 12 = K) and `suit` (0..4).
    pub const fn new(rank: u8, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }
    /// The first deck's first joker.
    pub const JOKER: Card = Card(52);
    /// Rank index, 0 = A … 12 = K, [`JOKER`] for a joker.
    #[inline]
    pub const fn rank(self) -> u8 {
        RANK_OF[self.0 as usize & 127]
    }
    /// Suit index 0 ♠, 1 ♥, 2 ♦, 3 ♣ (meaningless for a joker).
    #[inline]
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
    /// Whether it is a joker.
    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 & 63 >= 52
    }
    /// The card's bit.
    #[inline]
    pub const fn bit(self) -> CardSet {
        // A table: a 128-bit shift by a variable amount takes several instructions.
        BIT_OF[self.0 as usize & 127]
    }
    /// The deck it comes from: 0 or 1.
    pub const fn copy(self) -> u8 {
        self.0 >> 6
    }
    /// Whether its index is a card of two decks.
    pub const fn is_valid(self) -> bool {
        self.0 < 128 && (self.0 & 63) < 54
    }

    /// Parses `8S`, `10♥`, `AD`, `joker`, `comodín`, `ocho de picas`, `as de corazones`,
    /// `sota de tréboles` (the first deck's card).
    pub fn parse(text: &str) -> Result<Card> {
        let t = normalize(text);
        let hint = "cards are a rank (A, 2–10, J, Q, K or as, dos…diez, jota/sota, reina/dama, rey) and a suit (S/♠ picas, H/♥ corazones, D/♦ diamantes, C/♣ tréboles), e.g. 8S, 10♥, as de picas, or joker/comodín";
        let bad = || Error::usage(format!("invalid card '{text}': {hint}"));
        if matches!(t.as_str(), "joker" | "comodin" | "jk" | "guason") {
            return Ok(Card::JOKER);
        }
        let (rank_part, suit_part) = if let Some((r, s)) = t.split_once(" de ") {
            (r.trim().to_string(), s.trim().to_string())
        } else {
            let mut chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
            let s = chars.pop().ok_or_else(bad)?;
            (chars.into_iter().collect(), s.to_string())
        };
        let rank = match rank_part.as_str() {
            "a" | "as" | "ace" | "1" => ACE,
            "2" | "dos" => TWO,
            "3" | "tres" => THREE,
            "4" | "cuatro" => 3,
            "5" | "cinco" => 4,
            "6" | "seis" => 5,
            "7" | "siete" => 6,
            "8" | "ocho" => EIGHT,
            "9" | "nueve" => 8,
            "10" | "t" | "diez" => 9,
            "j" | "jota" | "sota" | "jack" => JACK,
            "q" | "reina" | "dama" | "queen" => 11,
            "k" | "rey" | "king" => KING,
            _ => return Err(bad()),
        };
        let suit = match suit_part.as_str() {
            "s" | "♠" | "♤" | "picas" | "pica" | "espadas" => 0,
            "h" | "♥" | "♡" | "corazones" | "corazon" | "copas" => 1,
            "d" | "♦" | "♢" | "diamantes" | "diamante" | "oros" => 2,
            "c" | "♣" | "♧" | "treboles" | "trebol" | "bastos" => 3,
            _ => return Err(bad()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            f.write_str("joker")
        } else {
            write!(
                f,
                "{}{}",
                RANK_NAMES[self.rank() as usize],
                SUIT_SYMBOLS[self.suit() as usize]
            )
        }
    }
}

/// The rank of each card index (see [`Card::rank`]).
static RANK_OF: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let k = i & 63;
        t[i] = if k >= 52 { JOKER } else { (k >> 2) as u8 };
        i += 1;
    }
    t
};

/// The bit of each card index.
static BIT_OF: [CardSet; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// Number of cards in a set.
#[inline]
pub fn count(set: CardSet) -> u32 {
    set.count_ones()
}

/// The `k`-th card (lowest first) of a set with more than `k` cards.
#[inline]
pub fn nth(set: CardSet, k: u32) -> Card {
    Card(crate::bits::select128(set, k) as u8)
}

/// The lowest card of a non-empty set.
#[inline]
pub fn lowest(set: CardSet) -> Card {
    Card(set.trailing_zeros() as u8)
}

/// The cards of a set, lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct Cards(pub CardSet);

impl Iterator for Cards {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// A set written as cards, e.g. `8♠ 10♥ joker`.
pub fn show(set: CardSet) -> String {
    Cards(set)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A set written as cards in the order of one deck, the two copies of a card side by side
/// (`7♥ 7♥ 9♥ joker`): what a player sees of it, whichever deck each card comes from.
pub fn show_by_rank(set: CardSet) -> String {
    let mut words = Vec::with_capacity(count(set) as usize);
    for k in 0..54 {
        for copy in 0..2 {
            let c = Card(k + 64 * copy);
            if set & c.bit() != 0 {
                words.push(c.to_string());
            }
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_hold_what_they_say() {
        assert_eq!(count(ONE_DECK), 54);
        assert_eq!(count(TWO_DECKS), 108);
        assert_eq!(count(JOKERS), 4);
        assert_eq!(count(SPECIALS & ONE_DECK), 26);
        assert_eq!(count(PLAIN & ONE_DECK), 28);
        for s in 0..4 {
            assert_eq!(count(suit_mask(s)), 26);
            assert_eq!(suit_mask(s) & JOKERS, 0);
        }
        for r in 0..13 {
            assert_eq!(count(rank_mask(r)), 8);
        }
        // Every card of two decks against its rank and suit, computed the obvious way.
        for c in Cards(TWO_DECKS) {
            let k = c.0 % 64;
            assert!(c.is_valid());
            if k >= 52 {
                assert_eq!(c.rank(), JOKER);
                assert!(c.is_joker() && JOKERS & c.bit() != 0);
            } else {
                assert_eq!((c.rank(), c.suit()), (k / 4, k % 4));
                assert_ne!(suit_mask(c.suit()) & c.bit(), 0);
                assert_ne!(rank_mask(c.rank()) & c.bit(), 0);
                let special = matches!(k / 4, 0 | 1 | 2 | 7 | 10 | 12);
                assert_eq!(SPECIALS & c.bit() != 0, special, "{c}");
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = TWO_DECKS & ((x as u128) << 64 | x.rotate_left(21) as u128);
            for (k, c) in Cards(set).enumerate() {
                assert_eq!(nth(set, k as u32), c);
            }
        }
    }

    #[test]
    fn cards_read_as_players_write_them() {
        assert_eq!(Card::parse("8S").unwrap(), Card::new(EIGHT, 0));
        assert_eq!(Card::parse("10♥").unwrap(), Card::new(9, 1));
        assert_eq!(Card::parse("as de corazones").unwrap(), Card::new(ACE, 1));
        assert_eq!(Card::parse("Sota de Tréboles").unwrap(), Card::new(JACK, 3));
        assert_eq!(Card::parse("Comodín").unwrap(), Card::JOKER);
        assert_eq!(Card::new(9, 1).to_string(), "10♥");
        assert_eq!(Card(116).to_string(), "joker");
        assert_eq!(Card(64 + 29).to_string(), "8♥");
        // Two decks: the copies side by side, as a player sees them.
        let two_sevens = Card(25).bit() | Card(64 + 25).bit() | Card(33).bit() | Card(117).bit();
        assert_eq!(show(two_sevens), "7♥ 9♥ 7♥ joker");
        assert_eq!(show_by_rank(two_sevens), "7♥ 7♥ 9♥ joker");
        for bad in ["", "1X", "11S", "ocho", "de de"] {
            let e = Card::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }
}
