//! The rules of a domino game as parameters: every variant of RULES.md §6.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::tiles::{set_size, MAX_TILES};
use crate::error::{Error, Result};
use crate::play::{GameRules, RuleChange, Seat};
use crate::text::{key_values, normalize, on_off, parse_count};

/// Most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// Highest match target (`--to`).
pub const MAX_TO: u32 = 10_000;
/// Most games in one match before it is stopped unfinished (counted as capped).
pub const MAX_MATCH_GAMES: u32 = 100_000;

/// How a game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Score {
    /// One point a game to the winners.
    Game,
    /// The winners take the losers' remaining pips.
    Pips,
    /// All fives: open-end totals that are multiples of 5 score as played; the winners take the
    /// losers' pips less their own, rounded to 5.
    AllFives,
    /// Fives and threes: as all fives, totals that are multiples of 3 or of 5 score.
    FivesAndThrees,
}

impl Score {
    /// Parses a scoring name as players say it.
    pub fn parse(text: &str) -> Result<Score> {
        match normalize(text).replace(['_', ' '], "-").as_str() {
            "game" | "games" | "point" | "one" | "1" | "partida" | "punto" => Ok(Score::Game),
            "pips" | "points" | "tantos" | "puntos" | "fichas" => Ok(Score::Pips),
            "all-fives" | "allfives" | "fives" | "muggins" | "todos-los-cincos" | "cincos" => {
                Ok(Score::AllFives)
            }
            "fives-and-threes" | "fives-threes" | "5s-and-3s" | "cincos-y-treses"
            | "todos-los-cincos-y-los-treses" | "treses" => Ok(Score::FivesAndThrees),
            _ => Err(Error::usage(format!(
                "unknown score rule '{}': use game (one point a game), pips (the winners take the losers' pips), all-fives or fives-and-threes",
                text.trim()
            ))),
        }
    }

    /// Whether the open ends score during play.
    #[inline]
    pub fn by_ends(self) -> bool {
        matches!(self, Score::AllFives | Score::FivesAndThrees)
    }

    /// Points an open-end total scores (0 when it does not).
    #[inline]
    pub fn end_points(self, total: u32) -> u32 {
        match self {
            _ if total == 0 => 0,
            Score::AllFives if total.is_multiple_of(5) => total,
            Score::FivesAndThrees if total.is_multiple_of(5) || total.is_multiple_of(3) => total,
            _ => 0,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::Game => "game",
            Score::Pips => "pips",
            Score::AllFives => "all-fives",
            Score::FivesAndThrees => "fives-and-threes",
        })
    }
}

/// What the winners of a blocked game take (the text: the difference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Blocked {
    /// The losers' pips less the winners' (the text's rule for a blocked game).
    Difference,
    /// The losers' pips, as when a player dominoes.
    Losers,
}

impl Blocked {
    /// Parses `difference` or `losers`.
    pub fn parse(text: &str) -> Result<Blocked> {
        match normalize(text).as_str() {
            "difference" | "diferencia" | "diff" => Ok(Blocked::Difference),
            "losers" | "perdedores" | "all" => Ok(Blocked::Losers),
            _ => Err(Error::usage(format!(
                "invalid blocked={}: use difference (the losers' pips less the winners', the text's rule) or losers (the losers' pips)",
                text.trim()
            ))),
        }
    }
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Blocked::Difference => "difference",
            Blocked::Losers => "losers",
        })
    }
}

/// The rules of one game (or match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–4.
    pub players: u8,
    /// The set: 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles).
    pub set: u8,
    /// Tiles dealt to each player; the rest sleep.
    pub hand: u8,
    /// Four players in two pairs, partners opposite (seats 1+3 against 2+4).
    pub pairs: bool,
    /// A player who cannot play draws from the sleeping tiles until able to, then passes.
    pub draw: bool,
    /// The opening double must be covered on all four sides before play goes on (drawing if
    /// needed); then four ends.
    pub cross: bool,
    /// Every double played lies across and opens two new lines (the opening one four).
    pub tree: bool,
    /// A pair wins by domino only when both partners are out.
    pub both_partners: bool,
    /// Scoring.
    pub score: Score,
    /// Play matches to this many points; 0: single games.
    pub to: u32,
    /// All fives: points a player fails to claim go to the next player who calls "muggins".
    pub muggins: bool,
    /// What the winners of a blocked game take.
    pub blocked: Blocked,
}

impl Rules {
    /// The standard game for `players`: double-six, 6 tiles each, pairs with four players,
    /// block game, one point a game, single games.
    pub fn standard(players: u8) -> Rules {
        Rules {
            players,
            set: 6,
            hand: 6,
            pairs: players == 4,
            draw: false,
            cross: false,
            tree: false,
            both_partners: false,
            score: Score::Game,
            to: 0,
            muggins: true,
            blocked: Blocked::Difference,
        }
    }

    /// Tiles in the set.
    #[inline]
    pub fn tiles(&self) -> usize {
        set_size(self.set)
    }

    /// The name of the set: "double-six".
    pub fn set_name(&self) -> &'static str {
        if self.set == 9 {
            "double-nine"
        } else {
            "double-six"
        }
    }

    /// Whether games are played in matches.
    #[inline]
    pub fn is_match(&self) -> bool {
        self.to > 0
    }

    /// The side of a seat: its pair, or itself.
    #[inline]
    pub fn side_of(&self, seat: usize) -> usize {
        if self.pairs {
            seat % 2
        } else {
            seat
        }
    }

    /// Sides that can win.
    #[inline]
    pub fn side_count(&self) -> usize {
        if self.pairs {
            2
        } else {
            self.players as usize
        }
    }

    /// Refuses rules that cannot be played, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid --players {}: dominó is for 2 to 4 players",
                self.players
            )));
        }
        if self.set != 6 && self.set != 9 {
            return Err(Error::usage(format!(
                "invalid --set {}: use 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles)",
                self.set
            )));
        }
        let most = self.tiles() / self.players as usize;
        if self.hand == 0 || self.hand as usize > most {
            return Err(Error::usage(format!(
                "invalid --hand {}: {} players × {} tiles is more than the {} tiles of {}; give 1 to {most} tiles each",
                self.hand,
                self.players,
                self.hand,
                self.tiles(),
                self.set_name()
            )));
        }
        if self.pairs && self.players != 4 {
            return Err(Error::usage(format!(
                "pairs need 4 players, not {}: add --no-pairs or use --players 4",
                self.players
            )));
        }
        if self.both_partners && !self.pairs {
            return Err(Error::usage(
                "--both-partners needs pairs (4 players, without --no-pairs)",
            ));
        }
        if self.to > MAX_TO {
            return Err(Error::usage(format!(
                "invalid --to {}: matches go to 1 to {MAX_TO} points",
                self.to
            )));
        }
        debug_assert!(self.tiles() <= MAX_TILES);
        Ok(())
    }

    /// A short description: the non-default rules.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!(
            "{} players{}",
            self.players,
            if self.pairs { " in pairs" } else { "" }
        )];
        parts.push(format!("{}, {} each", self.set_name(), self.hand));
        if self.draw {
            parts.push("draw".into());
        }
        if self.cross {
            parts.push("cross".into());
        }
        if self.tree {
            parts.push("spinner trees".into());
        }
        if self.both_partners {
            parts.push("both partners out".into());
        }
        if self.score != Score::Game {
            parts.push(match self.score {
                Score::Pips => "pips".to_string(),
                s => format!("{s}{}", if self.muggins { "" } else { " without muggins" }),
            });
        }
        if self.blocked != Blocked::Difference && self.score != Score::Game {
            parts.push(format!("blocked: {}", self.blocked));
        }
        if self.is_match() {
            parts.push(format!("matches to {}", self.to));
        }
        parts.join(" · ")
    }
}

/// Every key of [`Rules::with_changes`], for help and messages.
pub const CHANGE_KEYS: &str =
    "set, hand, pairs, draw, cross, tree, both-partners, score, to, muggins, blocked";

impl Rules {
    /// These rules changed by `key=value,…` pairs such as `set=9,hand=7,draw=on`. `set=9`
    /// keeps the hand size. Keys: [`CHANGE_KEYS`].
    pub fn with_changes(mut self, spec: &str) -> Result<Rules> {
        let pairs = key_values(spec, "rule change", "hand=7,draw=on")?;
        let number = |k: &str, v: &str, lo: u64, hi: u64, hint: &str| {
            parse_count(v)
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| Error::usage(format!("invalid {k}={v}: {hint}")))
        };
        for (k, v) in pairs {
            match k {
                "set" => {
                    self.set = match v.trim() {
                        "6" | "double-six" | "doble-seis" => 6,
                        "9" | "double-nine" | "doble-nueve" => 9,
                        _ => {
                            return Err(Error::usage(format!(
                                "invalid set={v}: use 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles)"
                            )))
                        }
                    }
                }
                "hand" => {
                    self.hand = number(k, v, 1, 27, "give 1 to 27 tiles each")?
                        as u8
                }
                "to" => {
                    self.to = match normalize(v).as_str() {
                        "none" | "off" | "game" | "single" => 0,
                        _ => number(
                            k,
                            v,
                            1,
                            MAX_TO as u64,
                            &format!(
                                "a match goes to 1 to {MAX_TO} points (100 or 121 are usual); leave it out for single games"
                            ),
                        )? as u32,
                    }
                }
                "score" => self.score = Score::parse(v)?,
                "blocked" => self.blocked = Blocked::parse(v)?,
                "pairs" => self.pairs = on_off(k, v)?,
                "draw" => self.draw = on_off(k, v)?,
                "cross" => self.cross = on_off(k, v)?,
                "tree" => self.tree = on_off(k, v)?,
                "both-partners" => self.both_partners = on_off(k, v)?,
                "muggins" => self.muggins = on_off(k, v)?,
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
    /// set, 7 tiles (or 6), draw, cross, spinner trees, pairs, both partners; for matches the
    /// other scoring rules and target; muggins and the blocked-game rule where points are
    /// scored.
    pub fn one_rule_changes(&self) -> Vec<RuleChange<Rules>> {
        let mut v = Vec::new();
        let mut push = |name: String, label: String, r: Rules| {
            if r != *self && r.validate().is_ok() {
                v.push(RuleChange::new(name, label, r));
            }
        };
        let set = if self.set == 6 { 9 } else { 6 };
        push(
            format!("set={set}"),
            format!("double-{}", if set == 9 { "nine" } else { "six" }),
            Rules { set, ..*self },
        );
        let hand = if self.hand == 7 { 6 } else { 7 };
        push(
            format!("hand={hand}"),
            format!("{hand} tiles"),
            Rules { hand, ..*self },
        );
        let flip = |now: bool| if now { "off" } else { "on" };
        for (key, now, label, f) in [
            (
                "draw",
                self.draw,
                "draw",
                (|r: &mut Rules, b| r.draw = b) as fn(&mut Rules, bool),
            ),
            ("cross", self.cross, "cross", |r, b| r.cross = b),
            ("tree", self.tree, "trees", |r, b| r.tree = b),
        ] {
            let mut r = *self;
            f(&mut r, !now);
            push(
                format!("{key}={}", flip(now)),
                format!("{}{label}", if now { "no " } else { "" }),
                r,
            );
        }
        if self.players == 4 {
            let r = Rules {
                pairs: !self.pairs,
                ..*self
            };
            push(
                format!("pairs={}", flip(self.pairs)),
                if self.pairs { "no pairs" } else { "pairs" }.into(),
                r,
            );
        }
        if self.pairs {
            push(
                format!("both-partners={}", flip(self.both_partners)),
                if self.both_partners {
                    "one out"
                } else {
                    "both out"
                }
                .into(),
                Rules {
                    both_partners: !self.both_partners,
                    ..*self
                },
            );
        }
        if self.is_match() {
            for s in [
                Score::Game,
                Score::Pips,
                Score::AllFives,
                Score::FivesAndThrees,
            ] {
                push(
                    format!("score={s}"),
                    s.to_string(),
                    Rules { score: s, ..*self },
                );
            }
            let to = if self.to == 121 { 100 } else { 121 };
            push(
                format!("to={to}"),
                format!("to {to}"),
                Rules { to, ..*self },
            );
            if self.score.by_ends() {
                push(
                    format!("muggins={}", flip(self.muggins)),
                    if self.muggins {
                        "no muggins"
                    } else {
                        "muggins"
                    }
                    .into(),
                    Rules {
                        muggins: !self.muggins,
                        ..*self
                    },
                );
            }
            if self.score != Score::Game {
                let b = match self.blocked {
                    Blocked::Difference => Blocked::Losers,
                    Blocked::Losers => Blocked::Difference,
                };
                push(
                    format!("blocked={b}"),
                    format!("blocked: {b}"),
                    Rules {
                        blocked: b,
                        ..*self
                    },
                );
            }
        }
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
    fn side(&self, seat: Seat) -> usize {
        self.side_of(seat)
    }
    fn sides(&self) -> usize {
        self.side_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_and_changes() {
        let r = Rules::standard(4);
        assert!(r.pairs && r.hand == 6 && r.set == 6 && !r.is_match());
        r.validate().unwrap();
        let c = r
            .with_changes("set=9, hand=7, draw=on, to=121, score=all-fives")
            .unwrap();
        assert_eq!(
            (c.set, c.hand, c.draw, c.to, c.score),
            (9, 7, true, 121, Score::AllFives)
        );
        c.validate().unwrap();
        assert!(Rules::standard(3)
            .with_changes("pairs=on")
            .unwrap()
            .validate()
            .is_err());
        let e = r
            .with_changes("hand=8")
            .unwrap()
            .validate()
            .unwrap_err()
            .to_string();
        assert!(e.contains("--hand 8") && e.contains("28"), "{e}");
        assert!(r
            .with_changes("set=7")
            .unwrap_err()
            .to_string()
            .contains("set=7"));
        assert!(r
            .with_changes("to=0")
            .unwrap_err()
            .to_string()
            .contains("to=0"));
        assert!(r
            .with_changes("score=x")
            .unwrap_err()
            .to_string()
            .contains("'x'"));
        assert!(r
            .with_changes("nope=1")
            .unwrap_err()
            .to_string()
            .contains("nope"));
        assert_eq!(r.with_changes("to=none").unwrap().to, 0);
        assert!(Rules::standard(2)
            .with_changes("hand=14")
            .unwrap()
            .validate()
            .is_ok());
        assert!(Rules::standard(2)
            .with_changes("hand=15")
            .unwrap()
            .validate()
            .is_err());
    }

    #[test]
    fn one_rule_changes_are_playable_and_distinct() {
        for r in [
            Rules::standard(4),
            Rules::standard(2),
            Rules::standard(4)
                .with_changes("to=100,score=all-fives")
                .unwrap(),
            Rules::standard(3).with_changes("set=9,hand=7").unwrap(),
        ] {
            let changes = r.one_rule_changes();
            assert!(!changes.is_empty());
            for c in &changes {
                c.rules.validate().unwrap();
                assert_ne!(c.rules, r);
                assert_eq!(r.with_changes(&c.name).unwrap(), c.rules, "{}", c.name);
            }
        }
        // The other scoring rules change nothing in single games.
        assert!(!Rules::standard(4)
            .one_rule_changes()
            .iter()
            .any(|c| c.name.starts_with("score")));
    }

    #[test]
    fn end_points() {
        assert_eq!(Score::AllFives.end_points(15), 15);
        assert_eq!(Score::AllFives.end_points(12), 0);
        assert_eq!(Score::AllFives.end_points(0), 0);
        assert_eq!(Score::FivesAndThrees.end_points(12), 12);
        assert_eq!(Score::FivesAndThrees.end_points(15), 15);
        assert_eq!(Score::FivesAndThrees.end_points(7), 0);
        assert_eq!(Score::Game.end_points(10), 0);
    }
}
