//! Dudo, the Chilean liar's dice, under the Chimbo 9 and Caleuchano rule sets
//! (`../shared/RULES.md` §1).
//!
//! - [`face`], [`bid`]: faces and bids as players say them.
//! - [`rules`]: both rule sets as parameters: counting and legal raises.
//! - [`exact`]: the exact probability that a bid is true, for any table size.
//! - [`montecarlo`]: the same question by rolling real dice on the shared runner.
//! - [`prob`], [`table`], [`advise`]: the reports behind `tahur dudo prob|table|advise`.

pub mod advise;
pub mod bid;
pub mod bots;
pub mod compare;
pub mod engine;
pub mod exact;
pub mod face;
pub mod montecarlo;
pub mod paso;
pub mod prob;
pub mod rules;
pub mod sheets;
pub mod sim;
pub mod table;
pub mod tune;

pub use bid::Bid;
pub use exact::{BidOdds, CountDistribution, Situation};
pub use face::Face;
pub use rules::{AceRound, Counting, RuleSet, Rules};
