//! Cards and card sets. A card is `rank * 4 + suit` with rank 0 = 2 … 12 = ace, so a set of
//! cards is one `u64` (bits 0..52): the 36-card deck is bits 16..52, every rank is a nibble and
//! "higher cards of the same suit" is the suit's mask above the card's bit.

use std::fmt;

use crate::error::{Error, Result};
use crate::text::normalize;

/// A set of cards as a bitmask (bit `rank * 4 + suit`).
pub type CardSet = u64;

/// Rank names, index 0 = 2 … 12 = ace.
pub const RANK_NAMES: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];
/// Suit symbols: spades, hearts, diamonds, clubs.
pub const SUIT_SYMBOLS: [&str; 4] = ["♠", "♥", "♦", "♣"];
/// Rank index of the six (the lowest card of the 36-card deck).
pub const SIX: u8 = 4;
/// All 52 cards.
pub const FULL_52: CardSet = (1u64 << 52) - 1;
/// The 36-card deck: 6 to ace.
pub const FULL_36: CardSet = FULL_52 & !((1u64 << 16) - 1);
/// The red suits (hearts, diamonds).
pub const RED: CardSet = suit_mask(1) | suit_mask(2);
/// The black suits (spades, clubs).
pub const BLACK: CardSet = suit_mask(0) | suit_mask(3);

/// A card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

impl Card {
    /// The card of `rank` (0 = 2 … 12 = ace) and `suit` (0..4).
    pub const fn new(rank: u8, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }
    /// Rank index, 0 = 2 … 12 = ace.
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }
    /// Suit index: 0 ♠, 1 ♥, 2 ♦, 3 ♣.
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
    /// The card's bit.
    pub const fn bit(self) -> CardSet {
        1u64 << self.0
    }

    /// Parses `6S`, `10♥`, `TH`, `AD`, `seis de picas`, `as de corazones`, `sota de tréboles`…
    pub fn parse(text: &str) -> Result<Card> {
        let t = normalize(text);
        let hint = "cards are a rank (2–10, J, Q, K, A or dos…diez, jota/sota, reina/dama, rey, as) and a suit (S/♠ picas, H/♥ corazones, D/♦ diamantes, C/♣ treboles), e.g. 6S, 10♥, as de picas";
        let bad = || Error::usage(format!("invalid card '{text}': {hint}"));
        let (rank_part, suit_part) = if let Some((r, s)) = t.split_once(" de ") {
            (r.trim().to_string(), s.trim().to_string())
        } else {
            let mut chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
            let s = chars.pop().ok_or_else(bad)?;
            (chars.into_iter().collect(), s.to_string())
        };
        let rank = match rank_part.as_str() {
            "a" | "as" | "ace" => 12,
            "k" | "rey" | "king" => 11,
            "q" | "reina" | "dama" | "queen" => 10,
            "j" | "jota" | "sota" | "jack" | "valet" => 9,
            "t" | "10" | "diez" => 8,
            "9" | "nueve" => 7,
            "8" | "ocho" => 6,
            "7" | "siete" => 5,
            "6" | "seis" => 4,
            "5" | "cinco" => 3,
            "4" | "cuatro" => 2,
            "3" | "tres" => 1,
            "2" | "dos" => 0,
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
        write!(
            f,
            "{}{}",
            RANK_NAMES[self.rank() as usize],
            SUIT_SYMBOLS[self.suit() as usize]
        )
    }
}

/// Every card of `suit`.
pub const fn suit_mask(suit: u8) -> CardSet {
    0x0001_1111_1111_1111u64 << suit
}

/// Every card of `rank`.
pub const fn rank_mask(rank: u8) -> CardSet {
    0xFu64 << (4 * rank)
}

/// The ranks present in a set, as a set of all four cards of each of those ranks.
#[inline]
pub fn ranks_of(set: CardSet) -> CardSet {
    // Fold every nibble onto its low bit, then spread it back over the nibble.
    let any = (set | (set >> 1) | (set >> 2) | (set >> 3)) & suit_mask(0);
    any * 0xF
}

/// The cards of `hand` that beat `attack` when `trump` is trumps: a higher card of its suit, or
/// any trump if it is not a trump itself.
#[inline]
pub fn beaters(attack: Card, trump: u8) -> CardSet {
    let above = !((2u64 << attack.0) - 1);
    let mut m = suit_mask(attack.suit()) & above;
    if attack.suit() != trump {
        m |= suit_mask(trump);
    }
    m
}

/// Whether `defence` beats `attack`.
pub fn beats(defence: Card, attack: Card, trump: u8) -> bool {
    beaters(attack, trump) & defence.bit() != 0
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

/// Number of cards in a set.
#[inline]
pub fn count(set: CardSet) -> u32 {
    set.count_ones()
}

/// The `k`-th card (lowest first) of a set with more than `k` cards ([`crate::bits::select`]).
#[inline]
pub fn nth(set: CardSet, k: u32) -> Card {
    Card(crate::bits::select(set, k) as u8)
}

/// [`nth`] with BMI2's parallel bit deposit ([`crate::bits::select_bmi2`]).
///
/// # Safety
/// The CPU must have BMI2 (as it has wherever [`crate::bits::fast_select`] says yes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub fn nth_bmi2(set: CardSet, k: u32) -> Card {
    Card(crate::bits::select_bmi2(set, k) as u8)
}

/// A set written as cards, e.g. `6♠ 7♠ A♥`.
pub fn show(set: CardSet) -> String {
    Cards(set)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a comma-separated list of cards into a set (duplicates and empty items refused).
pub fn parse_set(text: &str) -> Result<CardSet> {
    let mut set = 0;
    for item in crate::text::list_items(text, "card list")? {
        let c = Card::parse(item)?;
        if set & c.bit() != 0 {
            return Err(Error::usage(format!(
                "card '{item}' is listed twice: each card is once in the deck"
            )));
        }
        set |= c.bit();
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_beating() {
        assert_eq!(count(FULL_36), 36);
        assert_eq!(count(FULL_52), 52);
        assert_eq!(count(RED), 26);
        for s in 0..4 {
            assert_eq!(count(suit_mask(s) & FULL_36), 9);
        }
        // Independent check of the beating rule over every pair of cards and every trump.
        for trump in 0..4u8 {
            for a in 0..52u8 {
                for d in 0..52u8 {
                    let (a, d) = (Card(a), Card(d));
                    let expected = (d.suit() == a.suit() && d.rank() > a.rank())
                        || (d.suit() == trump && a.suit() != trump);
                    assert_eq!(beats(d, a, trump), expected, "{d} on {a}, trump {trump}");
                }
            }
        }
        assert_eq!(
            ranks_of(Card::new(4, 2).bit() | Card::new(12, 0).bit()),
            rank_mask(4) | rank_mask(12)
        );
        assert_eq!(nth(0b1011_0000, 2), Card(7));
        assert_eq!(nth(FULL_36, 0), Card::new(4, 0));
    }

    #[test]
    fn parsing() {
        assert_eq!(Card::parse("6S").unwrap(), Card::new(4, 0));
        assert_eq!(Card::parse("10♥").unwrap(), Card::new(8, 1));
        assert_eq!(Card::parse("as de corazones").unwrap(), Card::new(12, 1));
        assert_eq!(Card::parse("Sota de Tréboles").unwrap(), Card::new(9, 3));
        assert_eq!(Card::new(8, 1).to_string(), "10♥");
        assert!(Card::parse("1X").is_err());
        assert!(parse_set("6S, 6S").is_err());
        assert_eq!(count(parse_set("6S,7S, AH").unwrap()), 3);
    }
}
