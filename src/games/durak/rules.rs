//! The rules of a Durak game as parameters: variant, deck, hand size, teams and every house rule
//! of docs/rules.md §3.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{CardSet, FULL_36, FULL_52};
use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::{GameRules, Seat};
use crate::text::normalize;

/// Most players at a table: 8 with the 52-card deck (8 × 6 = 48 cards). The 36-card deck
/// "limita el número de jugadores a seis"; two decks, which the text also allows, are not
/// played: a card set has one bit per card and cannot tell the two copies apart.
pub const MAX_PLAYERS: usize = 8;
/// Most players with the 36-card deck.
pub const MAX_PLAYERS_36: usize = 6;
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
    /// Durek platkowy: 5 cards, full deck, openings and throw-ins of several cards in pairs.
    Platkowy,
}

impl Variant {
    /// Parses a variant name as players say it.
    pub fn parse(text: &str) -> Option<Variant> {
        match normalize(text).as_str() {
            "podkidnoy" | "podkidnoi" | "podkidnoj" | "подкидной" | "chasquido" | "classic"
            | "clasico" => Some(Variant::Podkidnoy),
            "perevodnoy"
            | "perevodnoi"
            | "perevodnoj"
            | "переводной"
            | "transferible"
            | "transfer" => Some(Variant::Perevodnoy),
            "platkowy" | "piatkowy" | "polaco" | "polish" => Some(Variant::Platkowy),
            _ => None,
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
    pub fn parse(text: &str) -> Option<Teams> {
        match text.trim().to_ascii_lowercase().replace('×', "x").as_str() {
            "none" | "no" | "off" => Some(Teams::None),
            "2x2" => Some(Teams::TwoByTwo),
            "3x3" => Some(Teams::ThreeByThree),
            "2x2x2" => Some(Teams::TwoByTwoByTwo),
            _ => None,
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
    /// The game is a draw (docs/rules.md default).
    Draw,
    /// The defender of the last bout is the durak.
    Defender,
}

impl LastCards {
    /// Parses `draw` or `defender`.
    pub fn parse(text: &str) -> Option<LastCards> {
        match normalize(text).as_str() {
            "draw" | "empate" | "tablas" => Some(LastCards::Draw),
            "defender" | "defensor" => Some(LastCards::Defender),
            _ => None,
        }
    }
}

impl fmt::Display for LastCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LastCards::Draw => "draw",
            LastCards::Defender => "defender",
        })
    }
}

/// The trump swap is on in rules written before it could be turned off.
fn swap_by_default() -> bool {
    true
}

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–6 (7 and 8 with the 52-card deck).
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
    /// The holder of the lowest trump may swap it for the turned trump (off: a house rule that
    /// measures what the swap is worth).
    #[serde(default = "swap_by_default")]
    pub trump_swap: bool,
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
            trump_swap: true,
            max_moves: 10_000,
        }
    }

    /// Refuses rule combinations that cannot be played, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: Durak is for 2 to {MAX_PLAYERS} players (7 and 8 with deck=52; more would need two decks, which the engine does not play: its card sets hold one copy of each card)",
                self.players
            )));
        }
        if self.players as usize > MAX_PLAYERS_36 && self.deck != 52 {
            return Err(Error::usage(format!(
                "invalid players={} with deck={}: the 36-card deck limits Durak to six players; add deck=52 (--deck 52) for 7 or 8",
                self.players, self.deck
            )));
        }
        if self.deck != 36 && self.deck != 52 {
            return Err(Error::usage(format!(
                "invalid deck={}: use 36 (6 to ace) or 52",
                self.deck
            )));
        }
        if self.hand == 0 || self.hand > 12 {
            return Err(Error::usage(format!(
                "invalid hand={}: give 1 to 12 cards",
                self.hand
            )));
        }
        if self.players as u32 * self.hand as u32 > self.deck as u32 {
            return Err(Error::usage(format!(
                "{} players × {} cards is more than the {}-card deck: use fewer cards or deck=52",
                self.players, self.hand, self.deck
            )));
        }
        if let Some(p) = self.teams.players() {
            if p != self.players {
                return Err(Error::usage(format!(
                    "teams={} needs {p} players, not {}",
                    self.teams, self.players
                )));
            }
        }
        if self.show_trump_transfer && self.variant != Variant::Perevodnoy {
            return Err(Error::usage(
                "show-trump-transfer=on needs variant=perevodnoy (transfers exist only there)",
            ));
        }
        if self.max_moves < 10 {
            return Err(Error::usage(format!(
                "invalid max-moves={}: give at least 10",
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
}

/// The variant's standard deck and hand, and whether `r`'s are those.
fn at_variant_standard(r: &Rules) -> bool {
    let std = Rules::standard(r.variant, r.players);
    (r.deck, r.hand) == (std.deck, std.hand)
}

/// Every rule of Durak, once (docs/rules.md §3). `variant` comes first: it moves the deck and hand
/// to the new variant's standard when they were at the old one's, and the changes given with it
/// have the last word.
const TABLE: &[Rule<Rules>] = &[
    Rule {
        key: "variant",
        aliases: &["variante"],
        flag: Flag::Value { long: "variant", value_name: "NAME" },
        help: "Variant: podkidnoy (others throw in: the usual game), perevodnoy (the defender may pass the attack on) or platkowy (5 cards from 52, several cards at once in pairs) [default: podkidnoy]",
        accepts: "use podkidnoy, perevodnoy or platkowy",
        set: |r, v| {
            let Some(variant) = Variant::parse(v) else {
                return false;
            };
            if at_variant_standard(r) {
                let new = Rules::standard(variant, r.players);
                (r.deck, r.hand) = (new.deck, new.hand);
            }
            r.variant = variant;
            true
        },
        get: |r| r.variant.to_string(),
        describe: |r| Some(r.variant.to_string()),
        changes: |r| {
            [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy]
                .into_iter()
                .filter(|&v| v != r.variant)
                .map(|v| {
                    // Leaving perevodnoy leaves its show-trump transfers behind.
                    let also = if r.show_trump_transfer {
                        ",show-trump-transfer=off"
                    } else {
                        ""
                    };
                    (format!("variant={v}{also}"), v.to_string())
                })
                .collect()
        },
    },
    Rule {
        key: "deck",
        aliases: &["baraja"],
        flag: Flag::Value { long: "deck", value_name: "CARDS" },
        help: "Cards in the deck: 36 (6 to ace) or 52 [default: 36; platkowy 52]",
        accepts: "use 36 (6 to ace) or 52",
        set: |r, v| match v.trim() {
            "36" | "52" => {
                r.deck = v.trim().parse().unwrap_or(36);
                true
            }
            _ => false,
        },
        get: |r| r.deck.to_string(),
        describe: |r| (!at_variant_standard(r)).then(|| format!("{} cards, {} each", r.deck, r.hand)),
        changes: |r| {
            let (deck, hand) = if r.deck == 36 { (52, 7) } else { (36, 6) };
            if (r.deck, r.hand) == (36, 6) || r.deck == 52 {
                vec![(format!("deck={deck},hand={hand}"), format!("{deck} cards, {hand} each"))]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "hand",
        aliases: &["mano", "hand-size"],
        flag: Flag::Value { long: "hand-size", value_name: "N" },
        help: "Cards per hand, 1–12 [default: 6; platkowy 5]",
        accepts: "give 1 to 12 cards",
        set: |r, v| whole(v, 1, 12).map(|n| r.hand = n as u8).is_some(),
        get: |r| r.hand.to_string(),
        // Said with the deck.
        describe: |_| None,
        changes: |_| vec![],
    },
    Rule {
        key: "teams",
        aliases: &["equipos"],
        flag: Flag::Value { long: "teams", value_name: "TEAMS" },
        help: "Partnerships: 2x2 (4 players, partners opposite), 3x3 or 2x2x2 (6 players)",
        accepts: "use none, 2x2 (4 players), 3x3 or 2x2x2 (6 players)",
        set: |r, v| Teams::parse(v).map(|t| r.teams = t).is_some(),
        get: |r| r.teams.to_string(),
        describe: |r| (r.teams != Teams::None).then(|| format!("teams {}", r.teams)),
        changes: |r| {
            let teams: &[Teams] = match (r.players, r.teams) {
                (_, t) if t != Teams::None => &[Teams::None],
                (4, _) => &[Teams::TwoByTwo],
                (6, _) => &[Teams::ThreeByThree, Teams::TwoByTwoByTwo],
                _ => &[],
            };
            teams
                .iter()
                .map(|&t| {
                    let label = if t == Teams::None {
                        "no teams".to_string()
                    } else {
                        format!("teams {t}")
                    };
                    (format!("teams={t}"), label)
                })
                .collect()
        },
    },
    Rule {
        key: "show-trump-transfer",
        aliases: &[],
        flag: Flag::Switch { long: "show-trump-transfer", sets: "on" },
        help: "Perevodnoy: the defender may also transfer once per bout by showing the trump of the attack rank",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.show_trump_transfer = b).is_some(),
        get: |r| on_off(r.show_trump_transfer),
        describe: |r| r.show_trump_transfer.then(|| "show-trump transfer".into()),
        changes: |r| {
            if r.variant == Variant::Perevodnoy {
                vec![flip("show-trump-transfer", r.show_trump_transfer, "show trump", "no show trump")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "dealer-trump",
        aliases: &[],
        flag: Flag::Switch { long: "dealer-trump", sets: "on" },
        help: "Trump is the suit of the dealer's last card; no card is turned under the stock",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.dealer_trump = b).is_some(),
        get: |r| on_off(r.dealer_trump),
        describe: |r| r.dealer_trump.then(|| "dealer's trump".into()),
        changes: |r| {
            // When the hands take the whole deck the dealer's card shows the trump anyway.
            if r.players as u32 * r.hand as u32 != r.deck as u32 {
                vec![flip("dealer-trump", r.dealer_trump, "dealer's trump", "turned trump")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "last-cards",
        aliases: &[],
        flag: Flag::Value { long: "last-cards", value_name: "RULE" },
        help: "When the last cards go out together: draw, or defender (the last defender is the durak) [default: draw]",
        accepts: "use draw or defender",
        set: |r, v| LastCards::parse(v).map(|l| r.last_cards = l).is_some(),
        get: |r| r.last_cards.to_string(),
        describe: |r| {
            (r.last_cards == LastCards::Defender).then(|| "last cards: defender loses".into())
        },
        changes: |r| {
            let other = match r.last_cards {
                LastCards::Draw => LastCards::Defender,
                LastCards::Defender => LastCards::Draw,
            };
            vec![(format!("last-cards={other}"), format!("last: {other}"))]
        },
    },
    Rule {
        key: "five-before-discard",
        aliases: &[],
        flag: Flag::Switch { long: "five-before-discard", sets: "on" },
        help: "At most 5 attack cards until the first bout is discarded",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.five_before_discard = b).is_some(),
        get: |r| on_off(r.five_before_discard),
        describe: |r| r.five_before_discard.then(|| "5 before first discard".into()),
        changes: |r| {
            vec![flip(
                "five-before-discard",
                r.five_before_discard,
                "5 until discard",
                "6 from the start",
            )]
        },
    },
    Rule {
        key: "redeal",
        aliases: &[],
        flag: Flag::Switch { long: "no-redeal", sets: "off" },
        help: "Play hands that are all red, all black or hold five cards of a suit (no re-deal)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.redeal = b).is_some(),
        get: |r| on_off(r.redeal),
        describe: |r| (!r.redeal).then(|| "no re-deal".into()),
        changes: |r| {
            // Only hands of five cards or more are ever re-dealt.
            if r.hand >= 5 {
                vec![flip("redeal", r.redeal, "re-deal", "no re-deal")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "trump-swap",
        aliases: &["cambio-de-triunfo"],
        flag: Flag::Switch { long: "no-trump-swap", sets: "off" },
        help: "Play without the swap of the lowest trump for the turned trump (default: its holder may swap them while the stock lasts and, when another player drew the turned trump last, until the next bout starts)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.trump_swap = b).is_some(),
        get: |r| on_off(r.trump_swap),
        describe: |r| (!r.trump_swap).then(|| "no trump swap".into()),
        changes: |r| {
            // Without a turned trump there is nothing to swap for.
            if !r.trump_from_dealer() {
                vec![flip("trump-swap", r.trump_swap, "trump swap", "no trump swap")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "max-moves",
        aliases: &[],
        flag: Flag::Value { long: "max-moves", value_name: "N" },
        help: "Stop a game unfinished (counted as capped) after this many actions [default: 10000]",
        accepts: "give 10 to 4294967295 actions",
        set: |r, v| whole(v, 10, u32::MAX as u64).map(|n| r.max_moves = n as u32).is_some(),
        get: |r| r.max_moves.to_string(),
        describe: |_| None,
        changes: |_| vec![],
    },
];

impl GameRules for Rules {
    const TABLE: &'static [Rule<Rules>] = TABLE;
    fn standard(players: usize) -> Rules {
        Rules::standard(Variant::Podkidnoy, players.min(u8::MAX as usize) as u8)
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        Rules::validate(self)
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
                "deck=52,hand=7",
                "teams=2x2",
                "dealer-trump=on",
                "last-cards=defender",
                "five-before-discard=on",
                "redeal=off",
                "trump-swap=off",
            ]
        );
        // Six players hold the whole 36-card deck: the dealer's card shows the trump anyway
        // (no turned trump to swap for), and 6 × 7 cards do not fit 36; both team splits apply.
        let six = names(Rules::standard(Variant::Perevodnoy, 6));
        assert!(!six.iter().any(|n| n.starts_with("trump-swap")));
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
    fn the_table_reads_back_what_it_writes() {
        for players in 2..=6 {
            for variant in [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy] {
                crate::play::rules::check_table(&Rules::standard(variant, players)).unwrap();
            }
        }
        // Leaving perevodnoy with show-trump transfers on leaves them behind.
        let r = Rules::standard(Variant::Perevodnoy, 3)
            .with_changes("show-trump-transfer=on")
            .unwrap();
        let names: Vec<String> = r.one_rule_changes().into_iter().map(|c| c.name).collect();
        assert!(names.contains(&"variant=podkidnoy,show-trump-transfer=off".to_string()));
        assert_eq!(
            Rules::standard(Variant::Podkidnoy, 4)
                .with_changes("deck=40")
                .unwrap_err()
                .to_string(),
            "invalid deck=40: use 36 (6 to ace) or 52"
        );
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
