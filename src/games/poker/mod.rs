//! Póker mentiroso (`../shared/RULES.md` §4): five poker dice passed under a cup with a claim
//! that must beat the one accepted; the receiver calls or accepts and re-rolls, each die at most
//! once per turn.

pub mod exact;
pub mod hand;
