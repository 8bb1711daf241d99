//! The house rules of 21 ecuatoriano (`docs/rules.md` §2) as parameters, and the value of a
//! hand with every special.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use crate::error::{Error, Result};

/// Every house-rule switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Decks in the shoe.
    pub decks: u8,
    /// 12 in two cards counts 20.
    pub twelve_counts_20: bool,
    /// 12 in two cards of one suit counts 21.
    pub suited_twelve_21: bool,
    /// Moñona (two aces) pays this many times the bet.
    pub monona_pays: u8,
    /// 21 in two cards (ace and figure) pays this many times the bet.
    pub natural_pays: u8,
    /// Trillona (21 in seven cards) pays 7×.
    pub trillona: bool,
    /// A bank holding 20 in two cards may send the players "al puje".
    pub puje: bool,
    /// Tapo y quedo allowed.
    pub tapo: bool,
    /// 13 in two cards lets a player withdraw the bet.
    pub withdraw_13: bool,
    /// 21 in two cards steals the bank.
    pub bank_steal: bool,
    /// The bank's minimum bet, in units (every player bets at least this much).
    #[serde(default = "one")]
    pub bet_min: u16,
    /// The bank's maximum bet, in units. With the minimum at 1 and the maximum at 1 (the
    /// default) every bet is one unit, whatever the players' betting.
    #[serde(default = "one")]
    pub bet_max: u16,
}

/// The default of the bet limits (for files written before they existed).
fn one() -> u16 {
    1
}

impl Default for Options {
    fn default() -> Self {
        Self {
            decks: 1,
            twelve_counts_20: true,
            suited_twelve_21: true,
            monona_pays: 3,
            natural_pays: 2,
            trillona: true,
            puje: true,
            tapo: true,
            withdraw_13: true,
            bank_steal: true,
            bet_min: 1,
            bet_max: 1,
        }
    }
}

impl Options {
    /// Applies a house-rule spec such as `decks=2,puje=off,monona=2`, through the rule table
    /// ([`super::sitting::TableRules`]'s house rules): decks, twelve, suited12, trillona, puje,
    /// tapo, withdraw13, steal, monona, natural.
    pub fn with_house_rules(self, spec: &str) -> Result<Self> {
        use super::sitting::{house_keys, is_house_rule, TableRules};
        use crate::play::GameRules as _;
        for (k, _) in crate::text::key_values(spec, "house rule", "puje=off,decks=2")? {
            let rule = crate::play::rules::rule::<TableRules>(k);
            if !rule.is_some_and(is_house_rule) {
                // A bank's rule (bank-stand, bank-puje, bank-draw) is a flag of its own here.
                let bank = if rule.is_some() {
                    " (the bank's choices are options of their own here: --bank-stand N, \
                     --bank-puje on|off, --bank-draw fixed|sees)"
                } else {
                    ""
                };
                return Err(Error::UnknownRule {
                    key: k.to_string(),
                    spec: spec.trim().to_string(),
                    keys: format!("{}{bank}", house_keys()),
                });
            }
        }
        let table = TableRules {
            options: self,
            ..TableRules::standard(2)
        };
        let table = table.with_changes(spec)?;
        table.validate()?;
        Ok(table.options)
    }
}

/// What a two-card hand is, special or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TwoCard {
    /// Ace and figure: 21, paid double, steals the bank.
    Natural,
    /// Two aces: 21, paid triple.
    Monona,
    /// 12 of one suit: counts 21.
    TwelveSuited,
    /// 12: counts 20.
    Twelve,
    /// 13: the player may withdraw.
    Thirteen,
    /// Two different figures: 20, may not be split.
    Relancina,
    /// Nothing special.
    Plain,
}

/// Classifies two cards (specials switched off by `opts` fall back to their plain value).
pub fn two_card(a: Card, b: Card, opts: &Options) -> TwoCard {
    let hard = a.points() + b.points();
    if a.is_ace() && b.is_ace() {
        return TwoCard::Monona;
    }
    if (a.is_ace() && b.is_figure()) || (b.is_ace() && a.is_figure()) {
        return TwoCard::Natural;
    }
    if hard == 12 && opts.twelve_counts_20 {
        return if opts.suited_twelve_21 && a.suit() == b.suit() {
            TwoCard::TwelveSuited
        } else {
            TwoCard::Twelve
        };
    }
    if hard == 12 && opts.suited_twelve_21 && a.suit() == b.suit() {
        return TwoCard::TwelveSuited;
    }
    // 13 counts the ace as 11 (A + 2) as well as 6 + 7 and 3 + figure.
    let soft = if (a.is_ace() || b.is_ace()) && hard + 10 <= 21 {
        hard + 10
    } else {
        hard
    };
    if soft == 13 {
        return TwoCard::Thirteen;
    }
    if a.is_figure() && b.is_figure() && a.rank() != b.rank() {
        return TwoCard::Relancina;
    }
    TwoCard::Plain
}

/// A hand's running value: hard points (aces as 1) and whether it holds an ace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points {
    /// Sum with aces as 1.
    pub hard: u8,
    /// Holds at least one ace.
    pub ace: bool,
}

impl Points {
    /// Adds a card.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, c: Card) -> Points {
        Points {
            hard: self.hard + c.points(),
            ace: self.ace || c.is_ace(),
        }
    }
    /// Adds a card by its points (1 for an ace).
    #[inline]
    pub fn add_points(self, points: u8) -> Points {
        Points {
            hard: self.hard + points,
            ace: self.ace || points == 1,
        }
    }
    /// Best total: one ace counts 11 when that does not pass 21.
    #[inline]
    pub fn total(self) -> u8 {
        if self.ace && self.hard + 10 <= 21 {
            self.hard + 10
        } else {
            self.hard
        }
    }
    /// Whether an ace counts 11 in the total.
    #[inline]
    pub fn is_soft(self) -> bool {
        self.ace && self.hard + 10 <= 21
    }
}

/// The total a two-card hand counts, with the specials.
pub fn two_card_total(a: Card, b: Card, opts: &Options) -> u8 {
    match two_card(a, b, opts) {
        TwoCard::Natural | TwoCard::Monona | TwoCard::TwelveSuited => 21,
        TwoCard::Twelve => 20,
        _ => Points::default().add(a).add(b).total(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }

    #[test]
    fn specials() {
        let o = Options::default();
        assert_eq!(two_card(c("AH"), c("KS"), &o), TwoCard::Natural);
        assert_eq!(two_card(c("AH"), c("AS"), &o), TwoCard::Monona);
        assert_eq!(two_card(c("5H"), c("7H"), &o), TwoCard::TwelveSuited);
        assert_eq!(two_card(c("5H"), c("7S"), &o), TwoCard::Twelve);
        assert_eq!(two_card(c("2H"), c("QS"), &o), TwoCard::Twelve);
        assert_eq!(two_card(c("6H"), c("7S"), &o), TwoCard::Thirteen);
        assert_eq!(two_card(c("AH"), c("2S"), &o), TwoCard::Thirteen);
        assert_eq!(two_card(c("JH"), c("QS"), &o), TwoCard::Relancina);
        assert_eq!(two_card(c("KH"), c("KS"), &o), TwoCard::Plain);
        assert_eq!(two_card_total(c("5H"), c("7S"), &o), 20);
        assert_eq!(two_card_total(c("5H"), c("7H"), &o), 21);
        assert_eq!(two_card_total(c("AH"), c("5H"), &o), 16);
        let plain = Options {
            twelve_counts_20: false,
            suited_twelve_21: false,
            ..o
        };
        assert_eq!(two_card_total(c("5H"), c("7H"), &plain), 12);
        assert_eq!(
            Options::default()
                .with_house_rules("decks=2, puje=off")
                .unwrap()
                .decks,
            2
        );
        for bad in ["decks=0", "puje=maybe", "color=red", "decks"] {
            assert!(Options::default()
                .with_house_rules(bad)
                .unwrap_err()
                .to_string()
                .contains(bad.split('=').next().unwrap()));
        }
    }
}
