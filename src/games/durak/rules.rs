//! The rules of a Durak game as parameters: variant, deck, hand size, teams and every house rule
//! of RULES.md §3.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{CardSet, FULL_36, FULL_52};
use crate::error::{Error, Result};
use crate::play::{GameRules, RuleChange, Seat};
use crate::text::{key_values, normalize, on_off, parse_count};

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

/// Every key of [`Rules::with_changes`], for help and messages.
pub const CHANGE_KEYS: &str = "variant, deck, hand, teams, show-trump-transfer, dealer-trump, last-cards, five-before-discard, redeal, max-moves";

impl Rules {
    /// These rules changed by `key=value,…` pairs such as `variant=perevodnoy,teams=2x2`.
    /// `variant=` comes first and also moves deck and hand to the new variant's standard when
    /// they were at the old one's. Keys: [`CHANGE_KEYS`].
    pub fn with_changes(mut self, spec: &str) -> Result<Rules> {
        let pairs = key_values(spec, "rule change", "variant=perevodnoy,teams=2x2")?;
        for &(_, v) in pairs.iter().filter(|(k, _)| *k == "variant") {
            let variant = Variant::parse(v)?;
            let old = Rules::standard(self.variant, self.players);
            let new = Rules::standard(variant, self.players);
            if (self.deck, self.hand) == (old.deck, old.hand) {
                self.deck = new.deck;
                self.hand = new.hand;
            }
            self.variant = variant;
        }
        let number = |k: &str, v: &str, lo: u64, hi: u64, hint: &str| {
            parse_count(v)
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| Error::usage(format!("invalid {k}={v}: {hint}")))
        };
        for &(k, v) in pairs.iter().filter(|(k, _)| *k != "variant") {
            match k {
                "deck" => {
                    self.deck = match v.trim() {
                        "36" => 36,
                        "52" => 52,
                        _ => {
                            return Err(Error::usage(format!(
                                "invalid deck={v}: use 36 (6 to ace) or 52"
                            )))
                        }
                    }
                }
                "hand" => self.hand = number(k, v, 1, 12, "give 1 to 12 cards")? as u8,
                "max-moves" => {
                    self.max_moves = number(
                        k,
                        v,
                        10,
                        u32::MAX as u64,
                        &format!("give 10 to {} actions", u32::MAX),
                    )? as u32
                }
                "teams" => self.teams = Teams::parse(v)?,
                "last-cards" => self.last_cards = LastCards::parse(v)?,
                "show-trump-transfer" => self.show_trump_transfer = on_off(k, v)?,
                "dealer-trump" => self.dealer_trump = on_off(k, v)?,
                "five-before-discard" => self.five_before_discard = on_off(k, v)?,
                "redeal" => self.redeal = on_off(k, v)?,
                _ => {
                    return Err(Error::usage(format!(
                        "unknown rule '{k}' in '{spec}': keys are {CHANGE_KEYS}"
                    )))
                }
            }
        }
        Ok(self)
    }

    /// Every one-rule change that means something for these rules: its name as `tahur durak
    /// compare --b` writes it, a short label, and the changed rules. Changes that would not
    /// change the game are left out (show-trump transfers outside perevodnoy, re-deals of hands
    /// under five cards, a dealer's trump when the hands take the whole deck anyway) and so are
    /// tables the rules refuse.
    pub fn one_rule_changes(&self) -> Vec<RuleChange<Rules>> {
        let rules = self;
        let mut v: Vec<RuleChange<Rules>> = Vec::new();
        // The switch's new value, and the label for it being on or off.
        let flip = |now: bool, on: &str, off: &str| {
            if now {
                ("off", off.to_string())
            } else {
                ("on", on.to_string())
            }
        };
        for variant in [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy] {
            if variant != rules.variant {
                let mut r = *rules;
                let (old, new) = (
                    Rules::standard(rules.variant, rules.players),
                    Rules::standard(variant, rules.players),
                );
                if (r.deck, r.hand) == (old.deck, old.hand) {
                    (r.deck, r.hand) = (new.deck, new.hand);
                }
                r.variant = variant;
                r.show_trump_transfer = false;
                v.push(RuleChange::new(
                    format!("variant={variant}"),
                    variant.to_string(),
                    r,
                ));
            }
        }
        if rules.variant == Variant::Perevodnoy {
            let mut r = *rules;
            r.show_trump_transfer = !r.show_trump_transfer;
            let (value, label) = flip(rules.show_trump_transfer, "show trump", "no show trump");
            v.push(RuleChange::new(
                format!("show-trump-transfer={value}"),
                label,
                r,
            ));
        }
        let teams: &[Teams] = match (rules.players, rules.teams) {
            (_, t) if t != Teams::None => &[Teams::None],
            (4, _) => &[Teams::TwoByTwo],
            (6, _) => &[Teams::ThreeByThree, Teams::TwoByTwoByTwo],
            _ => &[],
        };
        for &t in teams {
            let mut r = *rules;
            r.teams = t;
            let label = if t == Teams::None {
                "no teams".to_string()
            } else {
                format!("teams {t}")
            };
            v.push(RuleChange::new(format!("teams={t}"), label, r));
        }
        if rules.players as u32 * rules.hand as u32 != rules.deck as u32 {
            let mut r = *rules;
            r.dealer_trump = !r.dealer_trump;
            let (value, label) = flip(rules.dealer_trump, "dealer's trump", "turned trump");
            v.push(RuleChange::new(format!("dealer-trump={value}"), label, r));
        }
        let mut r = *rules;
        r.last_cards = match rules.last_cards {
            LastCards::Draw => LastCards::Defender,
            LastCards::Defender => LastCards::Draw,
        };
        let name = match r.last_cards {
            LastCards::Draw => "draw",
            LastCards::Defender => "defender",
        };
        v.push(RuleChange::new(
            format!("last-cards={name}"),
            format!("last: {name}"),
            r,
        ));
        let mut r = *rules;
        r.five_before_discard = !r.five_before_discard;
        let (value, label) = flip(
            rules.five_before_discard,
            "5 until discard",
            "6 from the start",
        );
        v.push(RuleChange::new(
            format!("five-before-discard={value}"),
            label,
            r,
        ));
        if rules.hand >= 5 {
            let mut r = *rules;
            r.redeal = !r.redeal;
            let (value, label) = flip(rules.redeal, "re-deal", "no re-deal");
            v.push(RuleChange::new(format!("redeal={value}"), label, r));
        }
        let (deck, hand) = if rules.deck == 36 { (52, 7) } else { (36, 6) };
        if (rules.deck, rules.hand) == (36, 6) || rules.deck == 52 {
            let mut r = *rules;
            (r.deck, r.hand) = (deck, hand);
            v.push(RuleChange::new(
                format!("deck={deck},hand={hand}"),
                format!("{deck} cards, {hand} each"),
                r,
            ));
        }
        v.retain(|c| c.rules.validate().is_ok());
        v
    }
}

impl GameRules for Rules {
    fn standard(players: usize) -> Rules {
        Rules::standard(Variant::Podkidnoy, players.min(u8::MAX as usize) as u8)
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
    fn side(&self, seat: Seat) -> usize {
        self.teams.team(seat)
    }
    fn sides(&self) -> usize {
        match self.teams {
            Teams::None => self.players as usize,
            Teams::TwoByTwo | Teams::ThreeByThree => 2,
            Teams::TwoByTwoByTwo => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_the_meaningful_ones() {
        let names = |rules: Rules| -> Vec<String> {
            rules
                .one_rule_changes()
                .into_iter()
                .map(|c| c.name)
                .collect()
        };
        assert_eq!(
            names(Rules::standard(Variant::Podkidnoy, 4)),
            [
                "variant=perevodnoy",
                "variant=platkowy",
                "teams=2x2",
                "dealer-trump=on",
                "last-cards=defender",
                "five-before-discard=on",
                "redeal=off",
                "deck=52,hand=7",
            ]
        );
        // Six players hold the whole 36-card deck: the dealer's card shows the trump anyway,
        // and 6 × 7 cards do not fit 36; both team splits apply.
        let six = names(Rules::standard(Variant::Perevodnoy, 6));
        assert!(six.contains(&"show-trump-transfer=on".to_string()));
        assert!(six.contains(&"teams=3x3".to_string()) && six.contains(&"teams=2x2x2".to_string()));
        assert!(!six.iter().any(|n| n.starts_with("dealer-trump")));
        assert!(six.contains(&"deck=52,hand=7".to_string()));
        // Platkowy's 5 cards from 52: podkidnoy and perevodnoy go back to 36 and 6.
        let p = Rules::standard(Variant::Platkowy, 3).one_rule_changes();
        let to_pod = p.iter().find(|c| c.name == "variant=podkidnoy").unwrap();
        assert_eq!((to_pod.rules.deck, to_pod.rules.hand), (36, 6));
        for c in &p {
            assert_ne!(
                c.rules,
                Rules::standard(Variant::Platkowy, 3),
                "{} changes nothing",
                c.name
            );
            // Each change is what `--b NAME` gives.
            assert_eq!(
                Rules::standard(Variant::Platkowy, 3)
                    .with_changes(&c.name)
                    .unwrap(),
                c.rules,
                "{}",
                c.name
            );
        }
    }

    #[test]
    fn changes_as_written() {
        let r = Rules::standard(Variant::Podkidnoy, 4)
            .with_changes("teams=2x2, variant=platkowy,redeal=off,max-moves=1e3")
            .unwrap();
        assert_eq!((r.variant, r.deck, r.hand), (Variant::Platkowy, 52, 5));
        assert_eq!(
            (r.teams, r.redeal, r.max_moves),
            (Teams::TwoByTwo, false, 1000)
        );
        for bad in [
            "deck=40",
            "hand=13",
            "max-moves=5",
            "colour=red",
            "redeal=maybe",
            "teams",
        ] {
            let e = Rules::standard(Variant::Podkidnoy, 4)
                .with_changes(bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains(bad.split('=').next().unwrap()), "{bad}: {e}");
        }
    }
}
