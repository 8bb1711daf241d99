//! Positions a person can type and read: everything one player sees at one decision, in the
//! game's own words, written once per game ([`Positions`]) and used by every game's `position`
//! and `advise`.
//!
//! A position read back is a whole game whose player to act sees exactly what the text says; what
//! that player cannot see is filled in at random, and advice deals it again for every rollout
//! ([`super::State::deal_for_view`]), so the filling never matters.

use super::{game_streams, ActionOf, Bot, Game, Start, State, Strategy, ViewOf};
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
