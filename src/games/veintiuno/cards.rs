//! The 40-card deck: A, 2–7, J, Q, K in four suits (a 52-card deck without 8, 9 and 10).

use std::fmt;

use crate::error::{Error, Result};
use crate::text::normalize;

/// Ranks in deck order; index 0 = ace … 9 = king.
pub const RANKS: [&str; 10] = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
/// Suits: hearts, diamonds, clubs, spades.
pub const SUITS: [&str; 4] = ["H", "D", "C", "S"];
/// The suits' symbols, in the order of [`SUITS`].
pub const SUIT_SYMBOLS: [&str; 4] = ["♥", "♦", "♣", "♠"];
/// Ranks per suit.
pub const RANK_COUNT: usize = 10;
/// Cards in one deck.
pub const DECK: usize = 40;

/// A card: rank index (0 = ace … 9 = king) and suit index (0..4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of rank index `rank` (0..10) and suit index `suit` (0..4).
    pub fn new(rank: usize, suit: usize) -> Card {
        debug_assert!(rank < RANK_COUNT && suit < 4);
        Card((rank * 4 + suit) as u8)
    }
    /// The card with index 0..40 (rank-major).
    pub fn from_index(i: usize) -> Card {
        Card(i as u8)
    }
    /// Index 0..40.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// Rank index 0 (ace) … 9 (king).
    pub fn rank(self) -> usize {
        (self.0 / 4) as usize
    }
    /// Suit index 0..4.
    pub fn suit(self) -> usize {
        (self.0 % 4) as usize
    }
    /// Points: ace 1 (11 when it helps, see the hand), 2–7 face value, figures 10.
    pub fn points(self) -> u8 {
        rank_points(self.rank())
    }
    /// J, Q or K.
    pub fn is_figure(self) -> bool {
        self.rank() >= 7
    }
    /// The ace.
    pub fn is_ace(self) -> bool {
        self.rank() == 0
    }

    /// The card with its suit's symbol and letter, as reports name it: `7♥/7H`.
    pub fn symbol_and_code(self) -> String {
        let rank = RANKS[self.rank()];
        format!("{rank}{}/{self}", SUIT_SYMBOLS[self.suit()])
    }

    /// Parses a card: `AH`, `A♥`, `7d`, `K♠`, `as de corazones`, `rey de picas`, `sota de oros`…
    pub fn parse(text: &str) -> Result<Card> {
        let t = normalize(text);
        let hint = "cards are a rank (A, 2–7, J, Q, K or as, dos…siete, jota/sota, reina/dama, rey) and a suit (H/♥ corazones, D/♦ diamantes, C/♣ treboles, S/♠ picas), e.g. AH, 7♦, rey de picas";
        let bad = || Error::usage(format!("invalid card '{text}': {hint}"));
        let (rank_part, suit_part) = if let Some((r, s)) = t.split_once(" de ") {
            (r.trim().to_string(), s.trim().to_string())
        } else {
            let mut chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
            let s = chars.pop().ok_or_else(bad)?;
            (chars.into_iter().collect(), s.to_string())
        };
        let rank = parse_rank(&rank_part).ok_or_else(bad)?;
        let suit = match suit_part.as_str() {
            "h" | "♥" | "♡" | "corazones" | "corazon" | "copas" => 0,
            "d" | "♦" | "♢" | "diamantes" | "diamante" | "oros" => 1,
            "c" | "♣" | "♧" | "treboles" | "trebol" | "bastos" => 2,
            "s" | "♠" | "♤" | "picas" | "pica" | "espadas" => 3,
            _ => return Err(bad()),
        };
        Ok(Card::new(rank, suit))
    }
}

/// Points of a rank index.
pub fn rank_points(rank: usize) -> u8 {
    match rank {
        0 => 1,
        1..=6 => rank as u8 + 1,
        _ => 10,
    }
}

/// A rank as players write or say it.
pub fn parse_rank(word: &str) -> Option<usize> {
    Some(match normalize(word).as_str() {
        "a" | "as" | "1" => 0,
        "2" | "dos" => 1,
        "3" | "tres" => 2,
        "4" | "cuatro" => 3,
        "5" | "cinco" => 4,
        "6" | "seis" => 5,
        "7" | "siete" => 6,
        "j" | "jota" | "sota" | "jack" => 7,
        "q" | "reina" | "dama" | "queen" => 8,
        "k" | "rey" | "king" => 9,
        _ => return None,
    })
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", RANKS[self.rank()], SUITS[self.suit()])
    }
}

/// How many of each card remain: `counts[card index]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Composition {
    /// Remaining copies of each of the 40 cards.
    pub counts: [u8; DECK],
}

impl Composition {
    /// `decks` full decks.
    pub fn full(decks: u8) -> Self {
        Self {
            counts: [decks; DECK],
        }
    }
    /// Cards left.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }
    /// Cards left of a rank.
    pub fn of_rank(&self, rank: usize) -> u32 {
        self.counts[rank * 4..rank * 4 + 4]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }
    /// Removes one card; an error names it when none is left.
    pub fn remove(&mut self, card: Card) -> Result<()> {
        let c = &mut self.counts[card.index()];
        if *c == 0 {
            return Err(Error::usage(format!(
                "card {card} was removed more often than the shoe holds it"
            )));
        }
        *c -= 1;
        Ok(())
    }
    /// A full shoe of `decks` decks minus the listed cards (`AH,7D,…`).
    pub fn from_removed(decks: u8, removed: &str) -> Result<Self> {
        let mut c = Self::full(decks);
        for word in crate::text::list_items(removed, "--removed")? {
            let card = Card::parse(word)?;
            c.remove(card).map_err(|_| {
                Error::usage(format!(
                    "--removed '{}': '{word}' ({card}) is removed more often than {decks} deck{} hold{} it",
                    removed.trim(),
                    if decks == 1 { "" } else { "s" },
                    if decks == 1 { "s" } else { "" },
                ))
            })?;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_as_players_write_them() {
        let c = |s: &str| Card::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(c("AH"), Card::new(0, 0));
        assert_eq!(c("a♥"), Card::new(0, 0));
        assert_eq!(c("7d"), Card::new(6, 1));
        assert_eq!(c("K♠"), Card::new(9, 3));
        assert_eq!(c("as de corazones"), Card::new(0, 0));
        assert_eq!(c("Rey de Picas"), Card::new(9, 3));
        assert_eq!(c("sota de tréboles"), Card::new(7, 2));
        assert_eq!(c("dama de diamantes"), Card::new(8, 1));
        for bad in ["8H", "10S", "AX", "", "zz", "as de nada"] {
            assert!(
                Card::parse(bad).unwrap_err().to_string().contains(bad),
                "{bad}"
            );
        }
        assert_eq!(c("QS").to_string(), "QS");
        assert_eq!(c("siete de corazones").symbol_and_code(), "7♥/7H");
        assert_eq!(c("QS").points(), 10);
        assert_eq!(c("AS").points(), 1);
    }

    #[test]
    fn compositions() {
        let c = Composition::from_removed(1, "AH, AD, KS").unwrap();
        assert_eq!(c.total(), 37);
        assert_eq!(c.of_rank(0), 2);
        let e = Composition::from_removed(1, "AH,AH")
            .unwrap_err()
            .to_string();
        assert!(e.contains("AH"), "{e}");
    }
}
