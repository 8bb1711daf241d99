//! Durak (`../shared/RULES.md` §3): podkidnoy, perevodnoy and platkowy for 2–6 players, teams
//! and every house rule as a parameter; bots from random to ISMCTS; whole-game statistics.

pub mod bots;
pub mod cards;
pub mod compare;
pub mod engine;
pub mod flags;
pub mod ismcts;
pub mod rules;
pub mod sim;
pub mod tournament;
