//! The rules of a game of Póker mentiroso as a value (`../shared/RULES.md` §4), with the house
//! rules where players differ.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::play::{GameRules, RuleChange};
use crate::text::{key_values, on_off};

/// Most players at a table.
pub const MAX_PLAYERS: usize = 8;
/// Most points a game may be played to.
pub const MAX_POINTS: u8 = 20;

/// Every key [`Rules::with_changes`] takes.
pub const CHANGE_KEYS: &str = "points, kickers, loser-starts";

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–8.
    pub players: u8,
    /// A player with this many points is out (RULES.md: "the agreed points"; default 3).
    pub points: u8,
    /// Claims may name kickers (`trío de reyes con as`), so every one of the 252 hands is a
    /// claim; off: a claim names the hand's groups only (75 claims, the kickers the lowest).
    pub kickers: bool,
    /// The loser of a hand starts the next one (off: the player after the loser, as the text).
    pub loser_starts: bool,
}

impl Rules {
    /// The standard game for `players`: to 3 points, kickers may be named, the player after
    /// the loser starts.
    pub fn standard(players: u8) -> Rules {
        Rules {
            players,
            points: 3,
            kickers: true,
            loser_starts: false,
        }
    }

    /// Refuses rules that cannot be played, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid --players {}: Póker mentiroso is for 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=MAX_POINTS).contains(&self.points) {
            return Err(Error::usage(format!(
                "invalid --points {}: give 1 to {MAX_POINTS} points",
                self.points
            )));
        }
        Ok(())
    }

    /// These rules changed by `points=N,kickers=on|off,loser-starts=on|off`.
    pub fn with_changes(mut self, spec: &str) -> Result<Rules> {
        for (k, v) in key_values(spec, "house rule", "points=5,kickers=off")? {
            match k {
                "points" => {
                    self.points = v
                        .trim()
                        .parse::<u8>()
                        .ok()
                        .filter(|p| (1..=MAX_POINTS).contains(p))
                        .ok_or_else(|| {
                            Error::usage(format!(
                                "invalid points={v}: give a whole number of points from 1 to {MAX_POINTS}"
                            ))
                        })?
                }
                "kickers" => self.kickers = on_off(k, v)?,
                "loser-starts" => self.loser_starts = on_off(k, v)?,
                _ => {
                    return Err(Error::usage(format!(
                        "unknown house rule '{k}': Póker mentiroso's are {CHANGE_KEYS}"
                    )))
                }
            }
        }
        Ok(self)
    }

    /// Every change of one rule: to 1 point and to 5 (from 3; otherwise to 3), kickers and the
    /// starter switched.
    pub fn one_rule_changes(&self) -> Vec<RuleChange<Rules>> {
        let mut v = Vec::new();
        let points: &[u8] = if self.points == 3 { &[1, 5] } else { &[3] };
        for &p in points {
            v.push(RuleChange::new(
                format!("points={p}"),
                format!("to {p} point{}", if p == 1 { "" } else { "s" }),
                Rules { points: p, ..*self },
            ));
        }
        let flip = |on: bool| if on { "off" } else { "on" };
        v.push(RuleChange::new(
            format!("kickers={}", flip(self.kickers)),
            if self.kickers {
                "no kickers"
            } else {
                "kickers named"
            },
            Rules {
                kickers: !self.kickers,
                ..*self
            },
        ));
        v.push(RuleChange::new(
            format!("loser-starts={}", flip(self.loser_starts)),
            if self.loser_starts {
                "next starts"
            } else {
                "loser starts"
            },
            Rules {
                loser_starts: !self.loser_starts,
                ..*self
            },
        ));
        v
    }

    /// The rules in a few words.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} players · to {} point{}",
            self.players,
            self.points,
            if self.points == 1 { "" } else { "s" }
        );
        if !self.kickers {
            s += " · no kickers in claims";
        }
        if self.loser_starts {
            s += " · the loser starts";
        }
        s
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
    fn changes_as_written_and_refused_by_name() {
        let r = Rules::standard(4)
            .with_changes("points=5, kickers=off,loser-starts=on")
            .unwrap();
        assert_eq!((r.points, r.kickers, r.loser_starts), (5, false, true));
        for c in Rules::standard(4).one_rule_changes() {
            assert_eq!(Rules::standard(4).with_changes(&c.name).unwrap(), c.rules);
            assert_ne!(c.rules, Rules::standard(4));
        }
        for bad in [
            "points=0",
            "points=21",
            "points=x",
            "kickers=maybe",
            "colour=red",
            "points",
        ] {
            let e = Rules::standard(4)
                .with_changes(bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains(bad.split('=').next().unwrap()), "{bad}: {e}");
        }
        let e = Rules {
            points: 0,
            ..Rules::standard(3)
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("--points 0"), "{e}");
    }
}
