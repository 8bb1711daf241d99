//! A table: the rules and the strategy in each seat, and how its games follow each other.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Game, GameRules, Seat, Start, Strategy};
use crate::error::{Error, Result};

/// Most games in a series (`--series`).
pub const MAX_SERIES: u32 = 100_000;

/// A table: rules, a strategy per seat, whether to check invariants, and series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct TableSetup<G: Game, S = <G as Game>::Strategy> {
    /// The rules.
    pub rules: G::Rules,
    /// Strategy per seat (the given list repeated to fill the seats).
    pub strategies: Vec<S>,
    /// Check the engine's invariants after every action (slower); violations are counted.
    pub check: bool,
    /// Games per series: the first game of a series starts as the rules say for a first game;
    /// each later one starts from the seat the game before singled out (docs/rules.md: "later games:
    /// the previous durak deals"). 1: every game is a first game.
    #[serde(default = "one")]
    pub series: u32,
    /// Where every game starts (`sim --from`): a match state or a position, as written; `None`:
    /// a new game, as the rules say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

fn one() -> u32 {
    1
}

/// The smallest multiple of `series` that is at least `games`: chunks of whole series.
pub fn whole_series(games: u64, series: u32) -> u64 {
    games.div_ceil(series as u64) * series as u64
}

impl<G: Game, S: Strategy<G>> TableSetup<G, S> {
    /// What the report should say about the line-up at this table (each note once).
    pub fn strategy_notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        for n in self.strategies.iter().filter_map(|s| s.note(&self.rules)) {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        notes
    }

    /// Checks the rules; seats get the listed strategies in order, repeating the list when it is
    /// shorter than the table.
    pub fn new(rules: G::Rules, list: &[S], check: bool) -> Result<Self> {
        rules.validate()?;
        let players = rules.players();
        if list.is_empty() {
            return Err(Error::usage(format!(
                "--strategies is empty: name at least one, e.g. {}",
                G::INFO.default_strategies
            )));
        }
        if list.len() > players {
            return Err(Error::usage(format!(
                "{} strategies for {players} players: give at most one per seat",
                list.len()
            )));
        }
        Ok(Self {
            strategies: (0..players).map(|i| list[i % list.len()].clone()).collect(),
            rules,
            check,
            series: 1,
            from: None,
        })
    }

    /// The same table with every game started from `text` (a match state or a position, see
    /// [`super::position::start_from`]); refused with series, whose later games start from
    /// the game before.
    pub fn starting_from(mut self, text: &str) -> Result<Self> {
        if self.series > 1 {
            return Err(Error::usage(format!(
                "--from with --series {}: every game starts from the position; drop --series",
                self.series
            )));
        }
        G::start_from(&self.rules, text)?;
        self.from = Some(text.trim().to_string());
        Ok(self)
    }

    /// The same table with games played in series of `games`.
    pub fn with_series(mut self, games: u32) -> Result<Self> {
        if games > 1 && G::INFO.series.is_none() {
            return Err(Error::usage(format!(
                "invalid --series {games}: {} has no rule for later games; drop --series",
                G::INFO.title
            )));
        }
        if !(1..=MAX_SERIES).contains(&games) {
            return Err(Error::usage(format!(
                "invalid --series {games}: give 1 (independent games) to {MAX_SERIES} games per series"
            )));
        }
        self.series = games;
        Ok(self)
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.rules.players()
    }

    /// The distinct strategies, in order of first seat.
    pub fn distinct(&self) -> Vec<S> {
        let mut v: Vec<S> = Vec::new();
        for s in &self.strategies {
            if !v.contains(s) {
                v.push(s.clone());
            }
        }
        v
    }

    /// The index in [`Self::distinct`] of each seat's strategy.
    pub fn strategy_of_seat(&self) -> Vec<usize> {
        let distinct = self.distinct();
        self.strategies
            .iter()
            .map(|s| distinct.iter().position(|d| d == s).unwrap_or(0))
            .collect()
    }

    /// How many seats play each distinct strategy.
    pub fn seats_of(&self, s: &S) -> usize {
        self.strategies.iter().filter(|x| *x == s).count()
    }

    /// Whether some seat plays a slow (search) strategy.
    pub fn is_slow(&self) -> bool {
        self.strategies.iter().any(Strategy::is_slow)
    }

    /// Samples per chunk: the game's (small when a seat searches), in whole series.
    pub fn chunk_size(&self) -> u64 {
        chunk_for::<G>(self.is_slow(), self.series)
    }

    /// One bot per seat.
    pub fn bots(&self) -> Vec<S::Bot> {
        self.strategies.iter().map(|s| s.bot(&self.rules)).collect()
    }

    /// How game `index` of a chunk starts, given the seat the game before singled out (chunks
    /// hold whole series, so this depends on the run's definition only).
    pub fn start_of(&self, index: u64, previous: Option<Seat>) -> Start {
        match previous {
            Some(seat) if !index.is_multiple_of(self.series as u64) => self.rules_start_after(seat),
            _ => Start::default(),
        }
    }

    fn rules_start_after(&self, seat: Seat) -> Start {
        // docs/rules.md's rule for later games: the singled-out player deals and the player on
        // their left plays first.
        Start {
            dealer: Some(seat),
            first: Some((seat + 1) % self.players()),
            length: 0,
        }
    }

    /// The strategies by seat, as written.
    pub fn names(&self) -> Vec<String> {
        self.strategies.iter().map(|s| s.to_string()).collect()
    }

    /// The table in a few words: rules, series and strategies.
    pub fn describe(&self) -> String {
        let series = if self.series > 1 {
            format!(" · series of {}", self.series)
        } else {
            String::new()
        };
        format!(
            "{}{series} · {}",
            self.rules.describe(),
            self.names().join(", ")
        )
    }
}

/// Samples per chunk for a game: its chunk, or its slow chunk when a seat searches, in whole
/// series. A function of the job only, never of the machine.
pub fn chunk_for<G: Game>(slow: bool, series: u32) -> u64 {
    let base = if slow && !G::INFO.sitting {
        G::INFO.slow_chunk
    } else {
        G::INFO.chunk
    };
    whole_series(base, series)
}
