//! The rules of an Ocho loco game (docs/rules.md §5, reglas «Montañita») as parameters, with every
//! point the text leaves open as a house rule.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{deck, CardSet};
use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::GameRules;
use crate::text::normalize;

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
    pub fn parse(text: &str) -> Option<JokerRule> {
        match normalize(text).as_str() {
            "any" | "anywhere" | "cualquiera" | "todo" | "wild" => Some(JokerRule::Any),
            "three" | "3" | "tres" | "like-three" | "como-tres" => Some(JokerRule::Three),
            _ => None,
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
    pub fn parse(text: &str) -> Option<FirstCard> {
        match normalize(text).as_str() {
            "plain" | "none" | "simple" | "palo" => Some(FirstCard::Plain),
            "acts" | "act" | "applies" | "effect" | "efecto" | "vale" => Some(FirstCard::Acts),
            _ => None,
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

/// Playing again after an A (and after a J or a K with two players left): a right, as the text
/// has it («da el derecho a descartar otra vez»), or an obligation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayAgain {
    /// A right (the default): the player may play a card that plays, or pass; nothing is drawn.
    May,
    /// An obligation: the player plays again as on any turn, drawing until a card plays.
    Must,
}

impl PlayAgain {
    /// Parses `may` (puede) or `must` (debe).
    pub fn parse(text: &str) -> Option<PlayAgain> {
        match normalize(text).as_str() {
            "may" | "right" | "optional" | "puede" | "derecho" | "opcional" => Some(PlayAgain::May),
            "must" | "obligation" | "forced" | "debe" | "obligado" | "obligatorio" => {
                Some(PlayAgain::Must)
            }
            _ => None,
        }
    }
}

impl fmt::Display for PlayAgain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayAgain::May => "may",
            PlayAgain::Must => "must",
        })
    }
}

/// Rules written before playing again could be declined read as the text: a right.
fn play_again_by_default() -> PlayAgain {
    PlayAgain::May
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
    /// Playing again after an A (and a J or K with two players left): a right or an obligation.
    #[serde(default = "play_again_by_default")]
    pub play_again: PlayAgain,
    /// A game stops unfinished (capped) after this many actions.
    pub max_actions: u32,
}

impl Rules {
    /// The standard game for `players`: 8 cards each, one deck (two from six players), jokers on
    /// any card, no 8 against a draw-three, the turned card only sets the suit, a drawn playable
    /// card is played, playing again after an A is a right, at most 5 000 actions.
    pub fn standard(players: u8) -> Rules {
        Rules {
            players,
            decks: if players >= SECOND_DECK_FROM { 2 } else { 1 },
            hand: HAND,
            joker: JokerRule::Any,
            eight_answers: false,
            first_card: FirstCard::Plain,
            keep_drawn: false,
            play_again: PlayAgain::May,
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
                "invalid players={}: Ocho loco is for 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=2).contains(&self.decks) {
            return Err(Error::usage(format!(
                "invalid decks={}: use 1 or 2 (decks of 52 cards and 2 jokers)",
                self.decks
            )));
        }
        if !(1..=12).contains(&self.hand) {
            return Err(Error::usage(format!(
                "invalid hand={}: give 1 to 12 cards",
                self.hand
            )));
        }
        if self.players as u32 * self.hand as u32 + LEFT_AFTER_DEALING > self.cards() {
            return Err(Error::usage(format!(
                "{} players × {} cards leave fewer than {LEFT_AFTER_DEALING} of the {} cards to turn and draw: use decks=2 or a smaller hand",
                self.players,
                self.hand,
                self.cards()
            )));
        }
        if self.max_actions < 10 {
            return Err(Error::usage(format!(
                "invalid max-actions={}: give at least 10",
                self.max_actions
            )));
        }
        Ok(())
    }
}

/// Every rule of Ocho loco, once (docs/rules.md §5). No rule moves another, so the order is the
/// order of the flags and of a table's description.
const TABLE: &[Rule<Rules>] = &[
    Rule {
        key: "decks",
        aliases: &["deck", "barajas"],
        flag: Flag::Value { long: "decks", value_name: "N" },
        help: "Decks of 52 cards and 2 jokers: 1 or 2 [default: 1 up to 5 players, 2 from 6]",
        accepts: "use 1 or 2 (decks of 52 cards and 2 jokers)",
        set: |r, v| whole(v, 1, 2).map(|n| r.decks = n as u8).is_some(),
        get: |r| r.decks.to_string(),
        describe: |r| {
            Some(if r.decks == 1 {
                "1 deck".to_string()
            } else {
                format!("{} decks", r.decks)
            })
        },
        changes: |r| {
            let decks = 3 - r.decks.clamp(1, 2);
            let plural = if decks == 1 { "" } else { "s" };
            vec![(format!("decks={decks}"), format!("{decks} deck{plural}"))]
        },
    },
    Rule {
        key: "hand",
        aliases: &["mano", "hand-size"],
        flag: Flag::Value { long: "hand-size", value_name: "N" },
        help: "Cards dealt to each player, 1–12 [default: 8]",
        accepts: "give 1 to 12 cards",
        set: |r, v| whole(v, 1, 12).map(|n| r.hand = n as u8).is_some(),
        get: |r| r.hand.to_string(),
        describe: |r| (r.hand != HAND).then(|| format!("{} cards each", r.hand)),
        changes: |_| vec![],
    },
    Rule {
        key: "joker",
        aliases: &["comodin"],
        flag: Flag::Value { long: "joker", value_name: "RULE" },
        help: "Where a joker may be played: any (on any card; it keeps the suit in force) or three (only where a 3 may go: on a 3 or a joker) [default: any]",
        accepts: "use any (on any card) or three (only on a 3 or a joker)",
        set: |r, v| JokerRule::parse(v).map(|j| r.joker = j).is_some(),
        get: |r| r.joker.to_string(),
        describe: |r| (r.joker == JokerRule::Three).then(|| "joker only on a 3".into()),
        changes: |r| {
            vec![match r.joker {
                JokerRule::Any => ("joker=three".into(), "joker only on a 3".into()),
                JokerRule::Three => ("joker=any".into(), "joker on any card".into()),
            }]
        },
    },
    Rule {
        key: "eight-answers",
        aliases: &[],
        flag: Flag::Switch { long: "eight-answers", sets: "on" },
        help: "An 8 may answer a pending draw-three: it cancels it and names a suit",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.eight_answers = b).is_some(),
        get: |r| on_off(r.eight_answers),
        describe: |r| r.eight_answers.then(|| "8 answers a draw-three".into()),
        changes: |r| {
            vec![flip(
                "eight-answers",
                r.eight_answers,
                "8 answers a draw-three",
                "no 8 against a draw-three",
            )]
        },
    },
    Rule {
        key: "first-card",
        aliases: &[],
        flag: Flag::Value { long: "first-card", value_name: "RULE" },
        help: "A special turned as the first card: plain (it only sets the suit) or acts (as if the dealer played it) [default: plain]",
        accepts: "use plain (it only sets the suit) or acts (its effect applies)",
        set: |r, v| FirstCard::parse(v).map(|f| r.first_card = f).is_some(),
        get: |r| r.first_card.to_string(),
        describe: |r| (r.first_card == FirstCard::Acts).then(|| "first card acts".into()),
        changes: |r| {
            vec![match r.first_card {
                FirstCard::Plain => ("first-card=acts".into(), "first card acts".into()),
                FirstCard::Acts => ("first-card=plain".into(), "first card plain".into()),
            }]
        },
    },
    Rule {
        key: "keep-drawn",
        aliases: &[],
        flag: Flag::Switch { long: "keep-drawn", sets: "on" },
        help: "A player who drew a playable card may keep it and end the turn (default: it is played)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.keep_drawn = b).is_some(),
        get: |r| on_off(r.keep_drawn),
        describe: |r| r.keep_drawn.then(|| "may keep a drawn card".into()),
        changes: |r| {
            vec![flip(
                "keep-drawn",
                r.keep_drawn,
                "may keep a drawn card",
                "must play a drawn card",
            )]
        },
    },
    Rule {
        key: "play-again",
        aliases: &["otra-vez", "descartar-otra-vez"],
        flag: Flag::Value { long: "play-again", value_name: "RULE" },
        help: "After an A (and a J or K with two players left): may (a right: play a card that plays, or pass, drawing nothing) or must (play again as on any turn, drawing until a card plays) [default: may]",
        accepts: "use may (a right to play again) or must (an obligation)",
        set: |r, v| PlayAgain::parse(v).map(|p| r.play_again = p).is_some(),
        get: |r| r.play_again.to_string(),
        describe: |r| (r.play_again == PlayAgain::Must).then(|| "must play again".into()),
        changes: |r| {
            vec![match r.play_again {
                PlayAgain::May => ("play-again=must".into(), "must play again".into()),
                PlayAgain::Must => ("play-again=may".into(), "may play again".into()),
            }]
        },
    },
    Rule {
        key: "max-actions",
        aliases: &[],
        flag: Flag::Value { long: "max-actions", value_name: "N" },
        help: "Stop a game unfinished after this many actions (a player already out first stays the winner; otherwise it counts as capped) [default: 5000]",
        accepts: "give 10 to 4294967295 actions",
        set: |r, v| whole(v, 10, u32::MAX as u64).map(|n| r.max_actions = n as u32).is_some(),
        get: |r| r.max_actions.to_string(),
        describe: |_| None,
        changes: |_| vec![],
    },
];

impl GameRules for Rules {
    const TABLE: &'static [Rule<Rules>] = TABLE;
    fn standard(players: usize) -> Rules {
        Rules::standard(players.min(u8::MAX as usize) as u8)
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        Rules::validate(self)
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
                "decks=2",
                "joker=three",
                "eight-answers=on",
                "first-card=acts",
                "keep-drawn=on",
                "play-again=must",
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
            "play-again=sometimes",
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
            e.contains("7 players × 8 cards") && e.contains("decks=2"),
            "{e}"
        );
        assert_eq!(
            Rules::standard(4)
                .with_changes("joker=sometimes")
                .unwrap_err()
                .to_string(),
            "invalid joker=sometimes: use any (on any card) or three (only on a 3 or a joker)"
        );
    }

    #[test]
    fn the_table_reads_back_what_it_writes() {
        for players in 2..=10 {
            let std = Rules::standard(players);
            crate::play::rules::check_table(&std).unwrap();
            let changed = std
                .with_changes(
                    "hand=5,joker=three,eight-answers=on,first-card=acts,keep-drawn=on,play-again=must",
                )
                .unwrap();
            crate::play::rules::check_table(&changed).unwrap();
        }
        // The description: players, decks, then what differs from the standard.
        let r = Rules::standard(6)
            .with_changes(
                "mano=6,comodin=tres,first-card=acts,keep-drawn=on,otra-vez=debe,max-actions=100",
            )
            .unwrap();
        assert_eq!(
            r.describe(),
            "6 players · 2 decks · 6 cards each · joker only on a 3 · first card acts · may keep a drawn card · must play again"
        );
        assert_eq!(Rules::standard(4).describe(), "4 players · 1 deck");
        // Every change goes back the other way.
        let labels: Vec<(String, String)> = r
            .one_rule_changes()
            .into_iter()
            .map(|c| (c.name, c.label))
            .collect();
        assert_eq!(
            labels,
            [
                ("decks=1", "1 deck"),
                ("joker=any", "joker on any card"),
                ("eight-answers=on", "8 answers a draw-three"),
                ("first-card=plain", "first card plain"),
                ("keep-drawn=off", "must play a drawn card"),
                ("play-again=may", "may play again"),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
    }
}
