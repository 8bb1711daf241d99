//! 21 ecuatoriano (`../shared/RULES.md` §2): a rotating bank, a 40-card shoe dealt through
//! without reshuffling, and the specials (12 counts 20, suited 12 counts 21, moñona, 13 to
//! withdraw, relancina, trillona, 21 in two cards that steals the bank), splitting by doubling
//! the bet, tapo y quedo, mandar al puje.

pub mod cards;
pub mod compare;
pub mod engine;
pub mod exact;
pub mod rules;
pub mod sim;
pub mod strategy;
