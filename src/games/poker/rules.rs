//! The rules of a game of Póker mentiroso as a value (`docs/rules.md` §4), with the house
//! rules where players differ.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::GameRules;

/// Most players at a table: "pueden participar tantas personas como lo deseen", and one set of
/// five dice serves any number; 16 is the most seats the whole-game layer keeps figures for
/// ([`crate::play::MAX_SEATS`]).
pub const MAX_PLAYERS: usize = crate::play::MAX_SEATS;
/// Most points a game may be played to.
pub const MAX_POINTS: u8 = 20;

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Players, 2–16.
    pub players: u8,
    /// A player with this many points is out (docs/rules.md: "the agreed points"; default 3).
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
}

/// "to 3 points", "to 1 point".
fn to_points(p: u8) -> String {
    format!("to {p} point{}", if p == 1 { "" } else { "s" })
}

/// Every rule of Póker mentiroso, once (docs/rules.md §4, with the house rules where players
/// differ).
const TABLE: &[Rule<Rules>] = &[
    Rule {
        key: "points",
        aliases: &["puntos"],
        flag: Flag::Value { long: "points", value_name: "N" },
        help: "A player with N points is out (1–20) [default: 3]",
        accepts: "give 1 to 20 points",
        set: |r, v| whole(v, 1, MAX_POINTS as u64).map(|p| r.points = p as u8).is_some(),
        get: |r| r.points.to_string(),
        describe: |r| Some(to_points(r.points)),
        changes: |r| {
            let points: &[u8] = if r.points == 3 { &[1, 5] } else { &[3] };
            points.iter().map(|&p| (format!("points={p}"), to_points(p))).collect()
        },
    },
    Rule {
        key: "kickers",
        aliases: &[],
        flag: Flag::Switch { long: "no-kickers", sets: "off" },
        help: "Claims name a hand's groups only (trío de reyes, never trío de reyes con as): 75 claims instead of 252",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.kickers = b).is_some(),
        get: |r| on_off(r.kickers),
        describe: |r| (!r.kickers).then(|| "no kickers in claims".into()),
        changes: |r| vec![flip("kickers", r.kickers, "kickers named", "no kickers")],
    },
    Rule {
        key: "loser-starts",
        aliases: &[],
        flag: Flag::Switch { long: "loser-starts", sets: "on" },
        help: "The loser of a hand starts the next one (the text: the player after the loser)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.loser_starts = b).is_some(),
        get: |r| on_off(r.loser_starts),
        describe: |r| r.loser_starts.then(|| "the loser starts".into()),
        changes: |r| vec![flip("loser-starts", r.loser_starts, "loser starts", "next starts")],
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
    /// Refuses rules that cannot be played, naming the bad value.
    fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: Póker mentiroso is for 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=MAX_POINTS).contains(&self.points) {
            return Err(Error::usage(format!(
                "invalid points={}: give 1 to {MAX_POINTS} points",
                self.points
            )));
        }
        Ok(())
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
        assert!(e.to_string().contains("points=0"), "{e}");
    }

    #[test]
    fn the_table_reads_back_what_it_writes_and_offers_the_same_changes() {
        for players in 2..=MAX_PLAYERS as u8 {
            crate::play::rules::check_table(&Rules::standard(players)).unwrap();
        }
        let names = |r: Rules| -> Vec<(String, String)> {
            r.one_rule_changes()
                .into_iter()
                .map(|c| (c.name, c.label))
                .collect()
        };
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            names(Rules::standard(4)),
            [
                pair("points=1", "to 1 point"),
                pair("points=5", "to 5 points"),
                pair("kickers=off", "no kickers"),
                pair("loser-starts=on", "loser starts"),
            ]
        );
        let other = Rules::standard(3)
            .with_changes("puntos=5,kickers=off,loser-starts=on")
            .unwrap();
        crate::play::rules::check_table(&other).unwrap();
        assert_eq!(
            names(other),
            [
                pair("points=3", "to 3 points"),
                pair("kickers=on", "kickers named"),
                pair("loser-starts=off", "next starts"),
            ]
        );
        assert_eq!(
            other.describe(),
            "3 players · to 5 points · no kickers in claims · the loser starts"
        );
        assert_eq!(Rules::standard(2).describe(), "2 players · to 3 points");
        assert_eq!(
            Rules::standard(4)
                .with_changes("points=21")
                .unwrap_err()
                .to_string(),
            "invalid points=21: give 1 to 20 points"
        );
    }
}
