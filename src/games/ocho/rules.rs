//! The rules of an Ocho loco game (RULES.md §5, reglas «Montañita») as parameters, with every
//! point the text leaves open as a house rule.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{deck, CardSet};
use crate::error::{Error, Result};
use crate::play::{GameRules, RuleChange};
use crate::text::{key_values, normalize, on_off, parse_count};

/// Most players at a table.
pub const MAX_PLAYERS: usize = 10;
/// Most cards in play (two decks).
pub const MAX_CARDS: usize = 108;
/// Cards each player gets.
pub const HAND: u8 = 8;
/// Players from which a second deck is used.
pub const SECOND_DECK_FROM: u8 = 6;
/// Cards that must be left after dealing: the turned card and enough for a non-joker to turn.
pub const LEFT_AFTER_DEALING: u32 = 5;

/// Where a joker may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JokerRule {
    /// On any card (the default): it keeps the suit in force.
    Any,
    /// Only where a 3 may go by value: on a 3 or on a joker (a joker has no suit to match).
    Three,
}

impl JokerRule {
    /// Parses `any` (cualquiera) or `three` (tres).
    pub fn parse(text: &str) -> Result<JokerRule> {
        match normalize(text).as_str() {
            "any" | "anywhere" | "cualquiera" | "todo" | "wild" => Ok(JokerRule::Any),
            "three" | "3" | "tres" | "like-three" | "como-tres" => Ok(JokerRule::Three),
            _ => Err(Error::usage(format!(
                "invalid --joker '{text}': use any (on any card) or three (only on a 3 or a joker)"
            ))),
        }
    }
}

impl fmt::Display for JokerRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JokerRule::Any => "any",
            JokerRule::Three => "three",
        })
    }
}

/// What the first turned card does when it is a special (a joker turned is always put back
/// into the stock and another card turned: it has no suit to set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstCard {
    /// It only sets the suit and the value to match (the default: «esta dicta el palo»).
    Plain,
    /// It acts as if the dealer had played it: A — the dealer plays first; 2 — the starter
    /// skips; 3 — the starter draws three unless they answer; J/K — play starts to the dealer's
    /// left (two players: the dealer plays first); an 8 keeps its own suit.
    Acts,
}

impl FirstCard {
    /// Parses `plain` or `acts`.
    pub fn parse(text: &str) -> Result<FirstCard> {
        match normalize(text).as_str() {
            "plain" | "none" | "simple" | "palo" => Ok(FirstCard::Plain),
            "acts" | "act" | "applies" | "effect" | "efecto" | "vale" => Ok(FirstCard::Acts),
            _ => Err(Error::usage(format!(
                "invalid --first-card '{text}': use plain (it only sets the suit) or acts (its effect applies)"
            ))),
        }
    }
}

impl fmt::Display for FirstCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FirstCard::Plain => "plain",
            FirstCard::Acts => "acts",
        })
    }
}

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–10.
    pub players: u8,
    /// Decks of 52 cards and 2 jokers: 1, or 2 (the default from six players).
    pub decks: u8,
    /// Cards each player is dealt.
    pub hand: u8,
    /// Where a joker may be played.
    pub joker: JokerRule,
    /// An 8 may answer a pending draw-three: it cancels it and names a suit.
    pub eight_answers: bool,
    /// What the first turned card does when it is a special.
    pub first_card: FirstCard,
    /// A player who drew a playable card may keep it (and end the turn) instead of playing it.
    pub keep_drawn: bool,
    /// A game stops unfinished (capped) after this many actions.
    pub max_actions: u32,
}

impl Rules {
    /// The standard game for `players`: 8 cards each, one deck (two from six players), jokers on
    /// any card, no 8 against a draw-three, the turned card only sets the suit, a drawn playable
    /// card is played, at most 5 000 actions.
    pub fn standard(players: u8) -> Rules {
        Rules {
            players,
            decks: if players >= SECOND_DECK_FROM { 2 } else { 1 },
            hand: HAND,
            joker: JokerRule::Any,
            eight_answers: false,
            first_card: FirstCard::Plain,
            keep_drawn: false,
            max_actions: 5_000,
        }
    }

    /// Cards in play.
    pub fn cards(&self) -> u32 {
        54 * self.decks as u32
    }

    /// The cards in play as a set.
    pub fn deck_cards(&self) -> CardSet {
        deck(self.decks)
    }

    /// Refuses rules that cannot be played, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid --players {}: Ocho loco is for 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=2).contains(&self.decks) {
            return Err(Error::usage(format!(
                "invalid --decks {}: use 1 or 2 (decks of 52 cards and 2 jokers)",
                self.decks
            )));
        }
        if !(1..=12).contains(&self.hand) {
            return Err(Error::usage(format!(
                "invalid --hand {}: give 1 to 12 cards",
                self.hand
            )));
        }
        if self.players as u32 * self.hand as u32 + LEFT_AFTER_DEALING > self.cards() {
            return Err(Error::usage(format!(
                "{} players × {} cards leave fewer than {LEFT_AFTER_DEALING} of the {} cards to turn and draw: use --decks 2 or a smaller --hand",
                self.players,
                self.hand,
                self.cards()
            )));
        }
        if self.max_actions < 10 {
            return Err(Error::usage(format!(
                "invalid --max-actions {}: give at least 10",
                self.max_actions
            )));
        }
        Ok(())
    }

    /// The rules in a few words: players, decks, and what differs from the standard.
    pub fn describe(&self) -> String {
        let std = Rules::standard(self.players);
        let mut parts = vec![
            format!("{} players", self.players),
            if self.decks == 1 {
                "1 deck".to_string()
            } else {
                format!("{} decks", self.decks)
            },
        ];
        if self.hand != std.hand {
            parts.push(format!("{} cards each", self.hand));
        }
        if self.joker == JokerRule::Three {
            parts.push("joker only on a 3".into());
        }
        if self.eight_answers {
            parts.push("8 answers a draw-three".into());
        }
        if self.first_card == FirstCard::Acts {
            parts.push("first card acts".into());
        }
        if self.keep_drawn {
            parts.push("may keep a drawn card".into());
        }
        parts.join(" · ")
    }
}

/// Every key of [`Rules::with_changes`], for help and messages.
pub const CHANGE_KEYS: &str =
    "decks, hand, joker, eight-answers, first-card, keep-drawn, max-actions";

impl Rules {
    /// These rules changed by `key=value,…` pairs such as `joker=three,eight-answers=on`.
    /// Keys: [`CHANGE_KEYS`].
    pub fn with_changes(mut self, spec: &str) -> Result<Rules> {
        let pairs = key_values(spec, "rule change", "joker=three,first-card=acts")?;
        let number = |k: &str, v: &str, lo: u64, hi: u64, hint: &str| {
            parse_count(v)
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| Error::usage(format!("invalid {k}={v}: {hint}")))
        };
        for (k, v) in pairs {
            match normalize(k).as_str() {
                "decks" | "deck" | "barajas" => {
                    self.decks =
                        number(k, v, 1, 2, "use 1 or 2 (decks of 52 cards and 2 jokers)")? as u8
                }
                "hand" | "mano" => self.hand = number(k, v, 1, 12, "give 1 to 12 cards")? as u8,
                "joker" | "comodin" => self.joker = JokerRule::parse(v)?,
                "eight-answers" => self.eight_answers = on_off(k, v)?,
                "first-card" => self.first_card = FirstCard::parse(v)?,
                "keep-drawn" => self.keep_drawn = on_off(k, v)?,
                "max-actions" => {
                    self.max_actions = number(
                        k,
                        v,
                        10,
                        u32::MAX as u64,
                        &format!("give 10 to {} actions", u32::MAX),
                    )? as u32
                }
                _ => {
                    return Err(Error::usage(format!(
                        "unknown rule '{k}' in '{spec}': keys are {CHANGE_KEYS}"
                    )))
                }
            }
        }
        Ok(self)
    }

    /// Every one-rule change that means something for these rules and can be played: the other
    /// joker rule, the 8 against a draw-three, the first card acting, keeping a drawn card, and
    /// the other number of decks where it fits.
    pub fn one_rule_changes(&self) -> Vec<RuleChange<Rules>> {
        let mut v = Vec::new();
        let flip = |now: bool| if now { "off" } else { "on" };
        let mut r = *self;
        r.joker = match self.joker {
            JokerRule::Any => JokerRule::Three,
            JokerRule::Three => JokerRule::Any,
        };
        v.push(RuleChange::new(
            format!("joker={}", r.joker),
            match r.joker {
                JokerRule::Any => "joker on any card",
                JokerRule::Three => "joker only on a 3",
            },
            r,
        ));
        let mut r = *self;
        r.eight_answers = !r.eight_answers;
        v.push(RuleChange::new(
            format!("eight-answers={}", flip(self.eight_answers)),
            if r.eight_answers {
                "8 answers a draw-three"
            } else {
                "no 8 against a draw-three"
            },
            r,
        ));
        let mut r = *self;
        r.first_card = match self.first_card {
            FirstCard::Plain => FirstCard::Acts,
            FirstCard::Acts => FirstCard::Plain,
        };
        v.push(RuleChange::new(
            format!("first-card={}", r.first_card),
            match r.first_card {
                FirstCard::Plain => "first card plain",
                FirstCard::Acts => "first card acts",
            },
            r,
        ));
        let mut r = *self;
        r.keep_drawn = !r.keep_drawn;
        v.push(RuleChange::new(
            format!("keep-drawn={}", flip(self.keep_drawn)),
            if r.keep_drawn {
                "may keep a drawn card"
            } else {
                "must play a drawn card"
            },
            r,
        ));
        let mut r = *self;
        r.decks = 3 - self.decks;
        v.push(RuleChange::new(
            format!("decks={}", r.decks),
            format!("{} deck{}", r.decks, if r.decks == 1 { "" } else { "s" }),
            r,
        ));
        v.retain(|c| c.rules.validate().is_ok());
        v
    }
}

impl GameRules for Rules {
    fn standard(players: usize) -> Rules {
        Rules::standard(players.min(u8::MAX as usize) as u8)
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        Rules::validate(self)
    }
    fn with_changes(&self, spec: &str) -> Result<Rules> {
        Rules::with_changes(*self, spec)
    }
    fn one_rule_changes(&self) -> Vec<RuleChange<Rules>> {
        Rules::one_rule_changes(self)
    }
    fn describe(&self) -> String {
        Rules::describe(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_tables_and_their_changes() {
        assert_eq!(Rules::standard(5).decks, 1);
        assert_eq!(Rules::standard(6).decks, 2);
        for p in 2..=10 {
            assert!(Rules::standard(p).validate().is_ok(), "{p}");
        }
        let names: Vec<String> = Rules::standard(4)
            .one_rule_changes()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(
            names,
            [
                "joker=three",
                "eight-answers=on",
                "first-card=acts",
                "keep-drawn=on",
                "decks=2"
            ]
        );
        // Seven players do not fit one deck: no decks=1 change.
        assert!(!Rules::standard(7)
            .one_rule_changes()
            .iter()
            .any(|c| c.name.starts_with("decks")));
        for c in Rules::standard(6).one_rule_changes() {
            assert_ne!(c.rules, Rules::standard(6), "{}", c.name);
            assert_eq!(
                Rules::standard(6).with_changes(&c.name).unwrap(),
                c.rules,
                "{}",
                c.name
            );
        }
    }

    #[test]
    fn bad_changes_name_the_value() {
        for bad in [
            "decks=0",
            "decks=3",
            "hand=13",
            "joker=sometimes",
            "first-card=twice",
            "keep-drawn=maybe",
            "max-actions=5",
            "colour=red",
            "decks",
        ] {
            let e = Rules::standard(4)
                .with_changes(bad)
                .unwrap_err()
                .to_string();
            let key = bad.split('=').next().unwrap();
            assert!(e.contains(key), "{bad}: {e}");
        }
        let e = Rules::standard(7)
            .with_changes("decks=1")
            .unwrap()
            .validate()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("7 players × 8 cards") && e.contains("--decks 2"),
            "{e}"
        );
    }
}
