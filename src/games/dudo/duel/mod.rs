//! `tahur dudo duel`: the two-player round of Dudo solved by counterfactual regret
//! minimization (issue 25).
//!
//! Each round of a duel is a zero-sum game whose stake is one life, so one round's equilibrium
//! is the duel's. [`game`] lays the round out as tables (hands with their chance, bids in an
//! order every raise climbs, doubts); [`full`] solves it with full recall of the bid history
//! (one or two dice a side) and measures any strategy's exploitability exactly there;
//! [`last_bid`] solves the abstraction where a player remembers only the standing bid, for any
//! number of dice; [`bot`] plays a solved sheet (the `duel` strategy).

pub mod bot;
pub mod equity;
pub mod full;
pub mod game;
pub mod last_bid;
pub mod recall;
pub mod sheet;
pub mod solve;

pub use game::{DuelGame, DuelRules};
pub use solve::{solve, DuelResult, DuelSpec, Memory};

#[cfg(test)]
mod tests;
