//! The rules of a Durak game as parameters: variant, deck, hand size, teams and every house rule
//! of RULES.md §3.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{CardSet, FULL_36, FULL_52};
use crate::error::{Error, Result};
use crate::games::dudo::face::normalize;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 6;
/// Most attack cards in one bout.
pub const MAX_ATTACK: usize = 6;

/// The variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Podkidnoy (подкидной): others throw in; the usual game.
    Podkidnoy,
    /// Perevodnoy (переводной): the defender may pass the attack on with a card of its rank.
    Perevodnoy,
    /// Durek platkowy: 5 cards, full deck, openings of several cards in pairs.
    Platkowy,
}

impl Variant {
    /// Parses a variant name as players say it.
    pub fn parse(text: &str) -> Result<Variant> {
        match normalize(text).as_str() {
            "podkidnoy" | "podkidnoi" | "podkidnoj" | "подкидной" | "chasquido" | "classic"
            | "clasico" => Ok(Variant::Podkidnoy),
            "perevodnoy"
            | "perevodnoi"
            | "perevodnoj"
            | "переводной"
            | "transferible"
            | "transfer" => Ok(Variant::Perevodnoy),
            "platkowy" | "piatkowy" | "polaco" | "polish" => Ok(Variant::Platkowy),
            _ => Err(Error::usage(format!(
                "invalid variant '{text}': use podkidnoy, perevodnoy or platkowy"
            ))),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Podkidnoy => "podkidnoy",
            Variant::Perevodnoy => "perevodnoy",
            Variant::Platkowy => "platkowy",
        })
    }
}

/// Partnerships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Teams {
    /// Everyone for themselves.
    None,
    /// Four players, partners sit opposite (seats 1+3, 2+4).
    TwoByTwo,
    /// Six players, three against three, alternating (1+3+5, 2+4+6).
    ThreeByThree,
    /// Six players, three pairs, partners opposite (1+4, 2+5, 3+6).
    TwoByTwoByTwo,
}

impl Teams {
    /// Parses `2x2`, `3x3`, `2x2x2` or `none`.
    pub fn parse(text: &str) -> Result<Teams> {
        match text.trim().to_ascii_lowercase().replace('×', "x").as_str() {
            "none" | "no" | "off" => Ok(Teams::None),
            "2x2" => Ok(Teams::TwoByTwo),
            "3x3" => Ok(Teams::ThreeByThree),
            "2x2x2" => Ok(Teams::TwoByTwoByTwo),
            _ => Err(Error::usage(format!(
                "invalid --teams '{text}': use 2x2 (4 players), 3x3 or 2x2x2 (6 players)"
            ))),
        }
    }

    /// The team of a seat (seat itself when there are no teams).
    pub fn team(self, seat: usize) -> usize {
        match self {
            Teams::None => seat,
            Teams::TwoByTwo | Teams::ThreeByThree => seat % 2,
            Teams::TwoByTwoByTwo => seat % 3,
        }
    }

    /// Players the partnership needs.
    pub fn players(self) -> Option<u8> {
        match self {
            Teams::None => None,
            Teams::TwoByTwo => Some(4),
            Teams::ThreeByThree | Teams::TwoByTwoByTwo => Some(6),
        }
    }
}

impl fmt::Display for Teams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Teams::None => "none",
            Teams::TwoByTwo => "2x2",
            Teams::ThreeByThree => "3x3",
            Teams::TwoByTwoByTwo => "2x2x2",
        })
    }
}

/// What happens when the last cards go out together (nobody is left holding cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastCards {
    /// The game is a draw (RULES.md default).
    Draw,
    /// The defender of the last bout is the durak.
    Defender,
}

impl LastCards {
    /// Parses `draw` or `defender`.
    pub fn parse(text: &str) -> Result<LastCards> {
        match normalize(text).as_str() {
            "draw" | "empate" | "tablas" => Ok(LastCards::Draw),
            "defender" | "defensor" => Ok(LastCards::Defender),
            _ => Err(Error::usage(format!(
                "invalid --last-cards '{text}': use draw or defender"
            ))),
        }
    }
}

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–6.
    pub players: u8,
    /// Variant.
    pub variant: Variant,
    /// Cards in the deck: 36 (6–A) or 52.
    pub deck: u8,
    /// Cards per hand.
    pub hand: u8,
    /// Perevodnoy: the defender may pass the attack on once per bout by showing the trump of the
    /// attack rank instead of adding a card.
    pub show_trump_transfer: bool,
    /// Partnerships.
    pub teams: Teams,
    /// Trump is the suit of the dealer's last card; no card is turned under the stock.
    pub dealer_trump: bool,
    /// Last cards out together: draw or the defender loses.
    pub last_cards: LastCards,
    /// At most 5 attack cards until the first bout is discarded.
    pub five_before_discard: bool,
    /// Re-deal when a hand is all red, all black or has five cards of one suit.
    pub redeal: bool,
    /// A game stops unfinished (capped) after this many actions.
    pub max_moves: u32,
}

impl Rules {
    /// The standard game of a variant for `players` (36 cards and 6 each; platkowy 52 and 5).
    pub fn standard(variant: Variant, players: u8) -> Rules {
        let (deck, hand) = match variant {
            Variant::Platkowy => (52, 5),
            _ => (36, 6),
        };
        Rules {
            players,
            variant,
            deck,
            hand,
            show_trump_transfer: false,
            teams: Teams::None,
            dealer_trump: false,
            last_cards: LastCards::Draw,
            five_before_discard: false,
            redeal: true,
            max_moves: 10_000,
        }
    }

    /// Refuses rule combinations that cannot be played, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid --players {}: Durak is for 2 to 6 players",
                self.players
            )));
        }
        if self.deck != 36 && self.deck != 52 {
            return Err(Error::usage(format!(
                "invalid --deck {}: use 36 (6 to ace) or 52",
                self.deck
            )));
        }
        if self.hand == 0 || self.hand > 12 {
            return Err(Error::usage(format!(
                "invalid --hand {}: give 1 to 12 cards",
                self.hand
            )));
        }
        if self.players as u32 * self.hand as u32 > self.deck as u32 {
            return Err(Error::usage(format!(
                "{} players × {} cards is more than the {}-card deck: use fewer cards or --deck 52",
                self.players, self.hand, self.deck
            )));
        }
        if let Some(p) = self.teams.players() {
            if p != self.players {
                return Err(Error::usage(format!(
                    "--teams {} needs {p} players, not {}",
                    self.teams, self.players
                )));
            }
        }
        if self.show_trump_transfer && self.variant != Variant::Perevodnoy {
            return Err(Error::usage(
                "--show-trump-transfer needs --variant perevodnoy (transfers exist only there)",
            ));
        }
        if self.max_moves < 10 {
            return Err(Error::usage(format!(
                "invalid --max-moves {}: give at least 10",
                self.max_moves
            )));
        }
        Ok(())
    }

    /// The deck's cards.
    pub fn deck_cards(&self) -> CardSet {
        if self.deck == 52 {
            FULL_52
        } else {
            FULL_36
        }
    }

    /// The lowest rank in the deck (6 in 36 cards, 2 in 52).
    pub fn lowest_rank(&self) -> u8 {
        if self.deck == 52 {
            0
        } else {
            4
        }
    }

    /// Whether the trump comes from the dealer's last card: by the flag, or because the hands
    /// take the whole deck (6 players × 6 cards) and no card is left to turn.
    pub fn trump_from_dealer(&self) -> bool {
        self.dealer_trump || self.players as u32 * self.hand as u32 == self.deck as u32
    }

    /// A short description: the non-default rules.
    pub fn describe(&self) -> String {
        let std = Rules::standard(self.variant, self.players);
        let mut parts = vec![
            format!("{} players", self.players),
            self.variant.to_string(),
        ];
        if self.deck != std.deck || self.hand != std.hand {
            parts.push(format!("{} cards, {} each", self.deck, self.hand));
        }
        if self.teams != Teams::None {
            parts.push(format!("teams {}", self.teams));
        }
        if self.show_trump_transfer {
            parts.push("show-trump transfer".into());
        }
        if self.dealer_trump {
            parts.push("dealer's trump".into());
        }
        if self.last_cards == LastCards::Defender {
            parts.push("last cards: defender loses".into());
        }
        if self.five_before_discard {
            parts.push("5 before first discard".into());
        }
        if !self.redeal {
            parts.push("no re-deal".into());
        }
        parts.join(" · ")
    }
}
