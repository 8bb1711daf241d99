//! The rules of a domino game as parameters: every variant of docs/rules.md §6.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::tiles::{set_size, MAX_TILES};
use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::{GameRules, Seat};
use crate::text::normalize;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// Highest match target (`--to`).
pub const MAX_TO: u32 = 10_000;
/// The match target all fives (and fives and threes) bring with them: "se suele jugar al 100".
pub const ALL_FIVES_TO: u32 = 100;
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
    pub fn parse(text: &str) -> Option<Score> {
        match normalize(text).replace(['_', ' '], "-").as_str() {
            "game" | "games" | "point" | "one" | "1" | "partida" | "punto" => Some(Score::Game),
            "pips" | "points" | "tantos" | "puntos" | "fichas" => Some(Score::Pips),
            "all-fives" | "allfives" | "fives" | "muggins" | "todos-los-cincos" | "cincos" => {
                Some(Score::AllFives)
            }
            "fives-and-threes"
            | "fives-threes"
            | "5s-and-3s"
            | "cincos-y-treses"
            | "todos-los-cincos-y-los-treses"
            | "treses" => Some(Score::FivesAndThrees),
            _ => None,
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
    pub fn parse(text: &str) -> Option<Blocked> {
        match normalize(text).as_str() {
            "difference" | "diferencia" | "diff" => Some(Blocked::Difference),
            "losers" | "perdedores" | "all" => Some(Blocked::Losers),
            _ => None,
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
    /// A player who cannot play draws from the sleeping tiles until one fits and plays it; with
    /// none left, knocks.
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

    /// Refuses rules that cannot be played, naming the bad value (as `key=value`).
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: dominó is for 2 to 4 players",
                self.players
            )));
        }
        if self.set != 6 && self.set != 9 {
            return Err(Error::usage(format!(
                "invalid set={}: {SET_ACCEPTS}",
                self.set
            )));
        }
        let most = self.tiles() / self.players as usize;
        if self.hand == 0 || self.hand as usize > most {
            return Err(Error::usage(format!(
                "invalid hand={}: {} players × {} tiles is more than the {} tiles of {}; give 1 to {most} tiles each",
                self.hand,
                self.players,
                self.hand,
                self.tiles(),
                self.set_name()
            )));
        }
        if self.pairs && self.players != 4 {
            return Err(Error::usage(format!(
                "pairs=on needs 4 players, not {}: use pairs=off or 4 players",
                self.players
            )));
        }
        if self.both_partners && !self.pairs {
            return Err(Error::usage(
                "both-partners=on needs pairs (4 players, pairs=on)",
            ));
        }
        if self.to > MAX_TO {
            return Err(Error::usage(format!(
                "invalid to={}: matches go to 1 to {MAX_TO} points",
                self.to
            )));
        }
        debug_assert!(self.tiles() <= MAX_TILES);
        Ok(())
    }
}

/// What `set=` accepts.
const SET_ACCEPTS: &str = "use 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles)";

/// The other scoring rules, for `flags` in matches.
const SCORES: [Score; 4] = [
    Score::Game,
    Score::Pips,
    Score::AllFives,
    Score::FivesAndThrees,
];

/// Every rule of Dominó, once (docs/rules.md §6). `set` comes first; it keeps the hand size (`set=9`
/// alone plays double-nine with 6 tiles each). `to` comes last so that a description reads
/// "… · all-fives · blocked: losers · matches to 100".
const TABLE: &[Rule<Rules>] = &[
    Rule {
        key: "set",
        aliases: &[],
        flag: Flag::Value { long: "set", value_name: "N" },
        help: "The set: 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles) [default: 6]",
        accepts: SET_ACCEPTS,
        set: |r, v| {
            r.set = match v.trim() {
                "6" | "double-six" | "doble-seis" => 6,
                "9" | "double-nine" | "doble-nueve" => 9,
                _ => return false,
            };
            true
        },
        get: |r| r.set.to_string(),
        // The set and the hand size, always said.
        describe: |r| Some(format!("{}, {} each", r.set_name(), r.hand)),
        changes: |r| {
            let set = if r.set == 6 { 9 } else { 6 };
            vec![(
                format!("set={set}"),
                format!("double-{}", if set == 9 { "nine" } else { "six" }),
            )]
        },
    },
    Rule {
        key: "hand",
        aliases: &["mano", "hand-size"],
        flag: Flag::Value { long: "hand-size", value_name: "N" },
        help: "Tiles dealt to each player; the rest sleep (are out of the game) [default: 6]",
        accepts: "give 1 to 27 tiles each",
        set: |r, v| whole(v, 1, 27).map(|n| r.hand = n as u8).is_some(),
        get: |r| r.hand.to_string(),
        // Said with the set.
        describe: |_| None,
        changes: |r| {
            let hand = if r.hand == 7 { 6 } else { 7 };
            vec![(format!("hand={hand}"), format!("{hand} tiles"))]
        },
    },
    Rule {
        key: "pairs",
        aliases: &["parejas"],
        flag: Flag::Switch { long: "no-pairs", sets: "off" },
        help: "Four players each for themselves (default with four: two pairs, partners opposite)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.pairs = b).is_some(),
        get: |r| on_off(r.pairs),
        // Said with the players.
        describe: |_| None,
        changes: |r| {
            if r.players == 4 {
                vec![flip("pairs", r.pairs, "pairs", "no pairs")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "draw",
        aliases: &[],
        flag: Flag::Switch { long: "draw", sets: "on" },
        help: "The draw game: a player who cannot play draws from the sleeping tiles until one fits and plays it; with none left, knocks",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.draw = b).is_some(),
        get: |r| on_off(r.draw),
        describe: |r| r.draw.then(|| "draw".into()),
        changes: |r| vec![flip("draw", r.draw, "draw", "no draw")],
    },
    Rule {
        key: "cross",
        aliases: &["cruz"],
        flag: Flag::Switch { long: "cross", sets: "on" },
        help: "Cross: the opening double must be covered on all four sides before play goes on (drawing if needed); then four ends",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.cross = b).is_some(),
        get: |r| on_off(r.cross),
        describe: |r| r.cross.then(|| "cross".into()),
        changes: |r| vec![flip("cross", r.cross, "cross", "no cross")],
    },
    Rule {
        key: "tree",
        aliases: &[],
        flag: Flag::Switch { long: "tree", sets: "on" },
        help: "Spinner trees: every double played lies across and opens two new lines (with --set 9 --cross: double-nine cross)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.tree = b).is_some(),
        get: |r| on_off(r.tree),
        describe: |r| r.tree.then(|| "spinner trees".into()),
        changes: |r| vec![flip("tree", r.tree, "trees", "no trees")],
    },
    Rule {
        key: "both-partners",
        aliases: &[],
        flag: Flag::Switch { long: "both-partners", sets: "on" },
        help: "A pair wins by domino only when both partners are out (the stricter ending)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.both_partners = b).is_some(),
        get: |r| on_off(r.both_partners),
        describe: |r| r.both_partners.then(|| "both partners out".into()),
        changes: |r| {
            if r.pairs {
                vec![flip("both-partners", r.both_partners, "both out", "one out")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "score",
        aliases: &[],
        flag: Flag::Value { long: "score", value_name: "RULE" },
        help: "Scoring: game (one point a game), pips (the winners take the losers' pips), all-fives or fives-and-threes (these two play matches to 100 unless --to says otherwise) [default: game]",
        accepts: "use game (one point a game), pips (the winners take the losers' pips), all-fives or fives-and-threes",
        set: |r, v| {
            let Some(s) = Score::parse(v) else {
                return false;
            };
            // "Este juego se suele jugar al 100", and fives and threes "juega de la misma
            // manera": scoring by the ends brings matches to 100 with it (`to` comes after it
            // in the table, so a `to` given with it has the last word).
            if s.by_ends() && !r.score.by_ends() && !r.is_match() {
                r.to = ALL_FIVES_TO;
            }
            r.score = s;
            true
        },
        get: |r| r.score.to_string(),
        describe: |r| match r.score {
            Score::Game => None,
            Score::Pips => Some("pips".into()),
            s => Some(format!(
                "{s}{}",
                if r.muggins { "" } else { " without muggins" }
            )),
        },
        // The other scoring rules change nothing in single games.
        changes: |r| {
            if r.is_match() {
                SCORES
                    .iter()
                    .map(|s| (format!("score={s}"), s.to_string()))
                    .collect()
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "muggins",
        aliases: &[],
        flag: Flag::Switch { long: "no-muggins", sets: "off" },
        help: "All fives: a score a player fails to announce is lost (default: the next player may call muggins and take it)",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.muggins = b).is_some(),
        get: |r| on_off(r.muggins),
        // Said with the scoring.
        describe: |_| None,
        changes: |r| {
            if r.is_match() && r.score.by_ends() {
                vec![flip("muggins", r.muggins, "muggins", "no muggins")]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "blocked",
        aliases: &[],
        flag: Flag::Value { long: "blocked", value_name: "RULE" },
        help: "What the winners of a blocked game take: difference (the losers' pips less theirs, the text's rule) or losers [default: difference]",
        accepts: "use difference (the losers' pips less the winners', the text's rule) or losers (the losers' pips)",
        set: |r, v| Blocked::parse(v).map(|b| r.blocked = b).is_some(),
        get: |r| r.blocked.to_string(),
        describe: |r| {
            (r.blocked != Blocked::Difference && r.score != Score::Game)
                .then(|| format!("blocked: {}", r.blocked))
        },
        changes: |r| {
            if r.is_match() && r.score != Score::Game {
                let b = match r.blocked {
                    Blocked::Difference => Blocked::Losers,
                    Blocked::Losers => Blocked::Difference,
                };
                vec![(format!("blocked={b}"), format!("blocked: {b}"))]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "to",
        aliases: &["hasta"],
        flag: Flag::Value { long: "to", value_name: "N" },
        help: "Play matches to N points (100 or 121 are usual): every sample is then a whole match [default: single games]",
        accepts: "a match goes to 1 to 10000 points (100 or 121 are usual); leave it out (or none) for single games",
        set: |r, v| {
            r.to = match normalize(v).as_str() {
                "none" | "off" | "game" | "single" => 0,
                _ => match whole(v, 1, MAX_TO as u64) {
                    Some(n) => n as u32,
                    None => return false,
                },
            };
            true
        },
        get: |r| {
            if r.is_match() {
                r.to.to_string()
            } else {
                "none".into()
            }
        },
        describe: |r| r.is_match().then(|| format!("matches to {}", r.to)),
        changes: |r| {
            if r.is_match() {
                let to = if r.to == 121 { 100 } else { 121 };
                vec![(format!("to={to}"), format!("to {to}"))]
            } else {
                vec![]
            }
        },
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
    /// "4 players in pairs".
    fn describe_players(&self) -> String {
        format!(
            "{} players{}",
            self.players,
            if self.pairs { " in pairs" } else { "" }
        )
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
        assert!(e.contains("hand=8") && e.contains("28"), "{e}");
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
            .contains("score=x"));
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
    fn the_table_reads_back_what_it_writes() {
        for players in 2..=4 {
            for changes in [
                "",
                "set=9,hand=7",
                "score=all-fives,to=100,muggins=off",
                "to=121",
            ] {
                let r = Rules::standard(players).with_changes(changes).unwrap();
                crate::play::rules::check_table(&r).unwrap();
            }
        }
        // The flags' changes keep their names.
        let names = |r: Rules| -> Vec<String> {
            r.one_rule_changes().into_iter().map(|c| c.name).collect()
        };
        assert_eq!(
            names(Rules::standard(4)),
            [
                "set=9",
                "hand=7",
                "pairs=off",
                "draw=on",
                "cross=on",
                "tree=on",
                "both-partners=on"
            ]
        );
        assert_eq!(
            names(
                Rules::standard(4)
                    .with_changes("score=all-fives,to=100")
                    .unwrap()
            ),
            [
                "set=9",
                "hand=7",
                "pairs=off",
                "draw=on",
                "cross=on",
                "tree=on",
                "both-partners=on",
                "score=game",
                "score=pips",
                "score=fives-and-threes",
                "muggins=off",
                "blocked=losers",
                "to=121"
            ]
        );
        // Two players: no pairs to take away (pairs=off changes nothing, as before).
        assert_eq!(
            names(Rules::standard(2)),
            ["set=9", "hand=7", "draw=on", "cross=on", "tree=on"]
        );
        assert_eq!(
            Rules::standard(2).with_changes("pairs=off").unwrap(),
            Rules::standard(2)
        );
        // What a description says, in the order it always said it.
        assert_eq!(
            Rules::standard(4)
                .with_changes("to=100,score=all-fives,muggins=off,blocked=losers,draw=on")
                .unwrap()
                .describe(),
            "4 players in pairs · double-six, 6 each · draw · all-fives without muggins · blocked: losers · matches to 100"
        );
        assert_eq!(
            Rules::standard(4)
                .with_changes("set=7")
                .unwrap_err()
                .to_string(),
            format!("invalid set=7: {SET_ACCEPTS}")
        );
        let to = Rules::standard(4)
            .with_changes("to=0")
            .unwrap_err()
            .to_string();
        assert!(to.contains(&MAX_TO.to_string()), "{to}");
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
