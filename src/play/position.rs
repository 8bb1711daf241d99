//! Positions a person can type and read: everything one player sees at one decision, in the
//! game's own words, written once per game ([`Positions`]) and used by every game's `position`
//! and `advise`.
//!
//! A position read back is a whole game whose player to act sees exactly what the text says; what
//! that player cannot see is filled in at random, and advice deals it again for every rollout
//! ([`super::State::deal_for_view`]), so the filling never matters.

use std::fmt;
use std::sync::Arc;

use super::{game_streams, ActionOf, Bot, Game, GameRules, Seat, Start, State, Strategy, ViewOf};
use crate::error::{Error, Result};
use crate::rng::{base_stream, Stream};

/// A game whose positions can be written and read.
pub trait Positions: Game {
    /// A position as players write it, for help and for messages.
    const POSITION_EXAMPLE: &'static str;
    /// The strategies that play the rest of the game in advice's rollouts unless the user
    /// names others: the strongest bots that answer in seconds.
    const ROLLOUT_BOTS: &'static str;
    /// What a rollout's value means for the player advised: "chance of winning the game".
    const ADVICE_VALUE: &'static str;

    /// Writes what `view` shows, in the game's words, so that [`Positions::read_position`]
    /// reads it back to the same view.
    fn write_position(view: &ViewOf<'_, Self>) -> String;

    /// Reads a position at `rules`: a game whose player to act sees exactly what `text` says,
    /// with what that player cannot see dealt from `rng`; or one line naming what is
    /// inconsistent (a card seen twice, a bid below the last, more dice than players have).
    fn read_position(rules: &Self::Rules, text: &str, rng: &mut Stream) -> Result<Self::State>;

    /// An action as players say it (its `Display` by default).
    fn action_name(action: ActionOf<Self>) -> String {
        action.to_string()
    }

    /// What exact mathematics says at this position, next to the rollouts (Dudo: the exact
    /// chance that a doubt wins the round; Póker: the exact re-roll plan), one plain sentence
    /// each. None by default.
    fn exact_notes(_game: &Self::State) -> Vec<String> {
        Vec::new()
    }
}

/// A game whose match states can be written and read: where `sim --from` and `equity` start.
pub trait Matches: Positions {
    /// A match state: what a new game can start from besides the rules (lives, points, the
    /// score of each pair, who deals) — every hand still dealt as in a new game.
    type Match: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// A match state as players write it, for help and messages (`lives: 3 2 1`).
    const MATCH_EXAMPLE: &'static str;
    /// The flag `equity` takes one match state with (`lives` for `--lives 3,2,1`): its value is
    /// read as `KEY: VALUE`. `None`: every game starts alike, so the game has no `equity`.
    const MATCH_FLAG: Option<&'static str>;

    /// Reads a match state at `rules` (its keys are the position's, without `seat`), or one
    /// line naming what is wrong and what would be accepted. [`Matches::write_match`] reads
    /// back to the same state.
    fn read_match(rules: &Self::Rules, text: &str) -> Result<Self::Match>;

    /// Writes a match state so that [`Matches::read_match`] reads it back.
    fn write_match(rules: &Self::Rules, m: &Self::Match) -> String;

    /// A new game from match state `m`, dealt from `rng`. At the match's start it must deal
    /// exactly as [`State::deal`] does, drawing the same numbers, so that `sim --from` the
    /// start is a plain `sim` figure for figure.
    fn deal_from_match(
        rules: &Self::Rules,
        m: &Self::Match,
        start: &Start,
        rng: &mut Stream,
    ) -> Self::State;

    /// The match states of `equity`'s table at these rules (every score the table covers).
    fn equity_grid(rules: &Self::Rules) -> Vec<Self::Match>;

    /// How many players a match state written as `--MATCH_FLAG VALUE` seats, when it says (one
    /// number per seat): the table's size unless `--players` is given.
    fn players_of_match(_value: &str) -> Option<usize> {
        None
    }

    /// Each side's chance to win the match from `m` when every game is played by a solved
    /// strategy, computed exactly, with a note saying what it rests on; `None` where the game
    /// has no solved play at these rules (the default).
    fn solved_equity(_rules: &Self::Rules, _m: &Self::Match) -> Option<(Vec<f64>, String)> {
        None
    }
}

/// Whether `text` is a whole position (it names the seat to act: `seat: 2`) rather than a match
/// state.
pub fn names_a_seat(text: &str) -> bool {
    text.split(';')
        .filter_map(|item| item.split_once(':'))
        .any(|(key, _)| key.trim().eq_ignore_ascii_case("seat"))
}

/// Deals the first state of a game from its start and the game's deal stream.
type DealFn<G> = dyn Fn(&Start, &mut Stream) -> <G as Game>::State + Send + Sync;

/// Where the games of `sim --from` start: a match state (every hand dealt as in a new game) or a
/// position (what its player cannot see dealt afresh for every game, uniformly over what fits).
#[derive(Clone)]
pub struct StartFrom<G: Game> {
    deal: Arc<DealFn<G>>,
    /// The position's seat to act; `None` for a match state.
    pub seat: Option<Seat>,
}

impl<G: Game> StartFrom<G> {
    /// The first state of a game, dealt from `rng`.
    #[inline]
    pub fn deal(&self, start: &Start, rng: &mut Stream) -> G::State {
        (self.deal)(start, rng)
    }
}

impl<G: Game> fmt::Debug for StartFrom<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StartFrom")
            .field("seat", &self.seat)
            .finish()
    }
}

/// Reads where `sim --from TEXT` starts at `rules`: a position when the text names a seat, a
/// match state otherwise.
pub fn start_from<G: Matches>(rules: &G::Rules, text: &str) -> Result<StartFrom<G>> {
    if names_a_seat(text) {
        // The hidden part this deals is thrown away: every game deals it afresh.
        let game = G::read_position(rules, text, &mut base_stream(0))?;
        if game.is_over() {
            return Err(Error::usage(
                "--from: the game of this position is over: give a position with a move to make",
            ));
        }
        let seat = game.to_act();
        Ok(StartFrom {
            deal: Arc::new(move |_start, rng| G::State::deal_for_view(&game.view(seat), rng)),
            seat: Some(seat),
        })
    } else {
        let m = G::read_match(rules, text)?;
        let rules = rules.clone();
        Ok(StartFrom {
            deal: Arc::new(move |start, rng| G::deal_from_match(&rules, &m, start, rng)),
            seat: None,
        })
    }
}

/// The game of `seed` (its first game, as `sim --seed` deals it at these rules) after `after`
/// actions played by `strategies` (by seat, repeated), for `position --seed S --after N`.
pub fn example<G: Game, S: Strategy<G>>(
    rules: &G::Rules,
    strategies: &[S],
    seed: u64,
    after: u64,
) -> Result<G::State> {
    if strategies.is_empty() {
        return Err(Error::usage("--strategies is empty: name at least one"));
    }
    let mut chunk = base_stream(seed);
    let (mut deal, mut decisions) = game_streams(&mut chunk);
    let mut game = G::State::deal(rules, &Start::default(), &mut deal);
    let players = super::GameRules::players(rules);
    let mut bots: Vec<S::Bot> = (0..players)
        .map(|s| strategies[s % strategies.len()].bot(rules))
        .collect();
    for done in 0..after {
        if game.is_over() {
            return Err(Error::usage(format!(
                "--after {after}: the game of seed {seed} ends after {done} actions; give at most {}",
                done.saturating_sub(1)
            )));
        }
        let seat = game.to_act();
        let action = bots[seat].act(&game.view(seat), &mut decisions);
        game.apply(action, &mut deal)
            .map_err(|e| Error::usage(format!("a bot's action was refused ({e}): a bug")))?;
    }
    if game.is_over() {
        return Err(Error::usage(format!(
            "--after {after}: the game of seed {seed} is over by then; give fewer actions"
        )));
    }
    Ok(game)
}

/// The position of the player to act in `game`.
pub fn position_of<G: Positions>(game: &G::State) -> String {
    G::write_position(&game.view(game.to_act()))
}

/// The keys a game's positions accept: each key with the other words players use for it.
pub type PositionKeys = [(&'static str, &'static [&'static str])];

/// The items of a typed position (`key: value; key: value`) by key, each key given at most
/// once; a key is matched to its canonical name or an alias after [`crate::text::normalize`]
/// (accents, case, spaces).
pub struct Fields<'a> {
    values: Vec<(&'static str, &'a str)>,
    example: &'static str,
}

impl<'a> Fields<'a> {
    /// Splits `text` at `;` into items of `keys`. `item_example` shows one item in messages
    /// (`hand: 7H 9H QS`); `example` is a whole position, quoted when a needed key is missing.
    pub fn split(
        text: &'a str,
        keys: &PositionKeys,
        item_example: &str,
        example: &'static str,
    ) -> Result<Self> {
        let mut values: Vec<(&'static str, &'a str)> = Vec::new();
        for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once(':') else {
                return Err(Error::usage(format!(
                    "'{item}' in the position is not key: value (e.g. {item_example}); items are separated by ;"
                )));
            };
            let typed = crate::text::normalize(key);
            let typed = typed.split_whitespace().collect::<Vec<_>>().join(" ");
            let Some(&(name, _)) = keys
                .iter()
                .find(|(k, aliases)| *k == typed || aliases.contains(&typed.as_str()))
            else {
                let all: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
                return Err(Error::usage(format!(
                    "unknown key '{}' in the position: use {}",
                    key.trim(),
                    all.join(", ")
                )));
            };
            if values.iter().any(|(k, _)| *k == name) {
                return Err(Error::usage(format!(
                    "'{name}' is given twice in the position: give it once"
                )));
            }
            values.push((name, value.trim()));
        }
        Ok(Fields { values, example })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The value of `key`, which the position must give.
    pub fn need(&self, key: &str) -> Result<&'a str> {
        self.get(key).ok_or_else(|| {
            Error::usage(format!(
                "the position has no '{key}': give it, as in {}",
                self.example
            ))
        })
    }

    /// A yes/no value (no when absent).
    pub fn flag(&self, key: &str) -> Result<bool> {
        match self.get(key) {
            None => Ok(false),
            Some(v) => super::rules::switch(v)
                .ok_or_else(|| Error::usage(format!("{key}: '{v}': use yes or no"))),
        }
    }

    /// A whole number from `lo` to `hi` (`default` when the key is absent).
    pub fn number(&self, key: &str, lo: u32, hi: u32, default: u32) -> Result<u32> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| {
                    if hi == u32::MAX {
                        Error::usage(format!("{key}: '{v}': give a whole number, {lo} or more"))
                    } else {
                        Error::usage(format!(
                            "{key}: '{v}': give a whole number from {lo} to {hi}"
                        ))
                    }
                }),
        }
    }
}

/// A seat as written (`seat 3`, `asiento 3`, `3`), 0-based, among `n`; `numbering` says how
/// the game numbers its seats in the message (`clockwise`, `in turn order`).
pub fn parse_seat(key: &str, text: &str, n: usize, numbering: &str) -> Result<Seat> {
    let t = crate::text::normalize(text);
    let t = t
        .strip_prefix("seat")
        .or_else(|| t.strip_prefix("asiento"))
        .unwrap_or(&t)
        .trim();
    match t.parse::<usize>() {
        Ok(s) if (1..=n).contains(&s) => Ok(s - 1),
        _ => Err(Error::usage(format!(
            "{key}: '{}' is not a seat: give 1 to {n} (seats are numbered from 1 {numbering})",
            text.trim()
        ))),
    }
}

/// A match state that is only who deals (`dealer: N`, any of `keys` as the key), or nothing for
/// a first game; `game` names the game in the message for anything else.
pub fn read_dealer(text: &str, n: usize, game: &str, keys: &[&str]) -> Result<Option<Seat>> {
    let mut dealer = None;
    for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        let (key, value) = item.split_once(':').unwrap_or((item, ""));
        if !keys.contains(&crate::text::normalize(key).trim()) {
            return Err(Error::usage(format!(
                "{game} match state is who deals (dealer: N) or nothing (a first game): '{item}' belongs to a position, which also names its seat (seat: N)"
            )));
        }
        dealer = Some(parse_seat("dealer", value, n, "in turn order")?);
    }
    Ok(dealer)
}

/// The rules of `rules` that differ from `standard`, as `key=value, …` (empty when none do);
/// the keys in `skip` are left out (a position says them in an item of their own).
pub fn rule_changes<R: GameRules>(rules: &R, standard: &R, skip: &[&str]) -> String {
    R::TABLE
        .iter()
        .filter(|r| !skip.contains(&r.key) && (r.get)(rules) != (r.get)(standard))
        .map(|r| format!("{}={}", r.key, (r.get)(rules)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Refuses a `rules:` item of a position or match state (`what`) whose rules, read as changes of
/// `standard`, are not the table's `rules`, naming both.
pub fn same_rules<R: GameRules>(
    rules: &R,
    standard: &R,
    said: &str,
    what: &str,
    skip: &[&str],
) -> Result<()> {
    let theirs = standard
        .with_changes(said)
        .map_err(|e| Error::usage(format!("rules: {e}")))?;
    if theirs == *rules {
        return Ok(());
    }
    let name = |r: &R| {
        let changes = rule_changes(r, standard, skip);
        if changes.is_empty() {
            "standard".to_string()
        } else {
            changes
        }
    };
    Err(Error::usage(format!(
        "rules: the {what}'s rules ({}) are not the table's ({}): give the same rules to both",
        name(&theirs),
        name(rules)
    )))
}
