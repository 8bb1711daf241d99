//! `tahur dudo paso`: the exact odds that a doubted pass stands (Caleuchano).
//!
//! A doubted pass stands if the passer's five dice, aces as their own face, form a poker (four
//! equal; five equal counts as poker), a full (three and two) or a pichanga (five different).
//! The odds are exact: every roll of the passer's dice that others have not seen is enumerated.

use super::engine::{PassHand, CUP};
use super::face::Face;
use crate::error::{Error, Result};
use crate::report::{Report, Value};

/// The outcome counts of a pass's unseen dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassOdds {
    /// Rolls giving a poker.
    pub poker: u64,
    /// Rolls giving a full.
    pub full: u64,
    /// Rolls giving a pichanga.
    pub pichanga: u64,
    /// All rolls of the unseen dice (6^unseen).
    pub total: u64,
}

impl PassOdds {
    /// Rolls where the pass stands.
    pub fn holds(&self) -> u64 {
        self.poker + self.full + self.pichanga
    }
}

/// The odds for a passer whose `shown` dice are known and whose other dice are unseen.
pub fn odds(shown: &[Face]) -> Result<PassOdds> {
    if shown.len() > CUP {
        return Err(Error::usage(format!(
            "invalid --shown: {} dice given, but a cup holds {CUP}",
            shown.len()
        )));
    }
    let unseen = CUP - shown.len();
    let total = 6u64.pow(unseen as u32);
    let mut hand = [0u8; CUP];
    for (h, f) in hand.iter_mut().zip(shown) {
        *h = f.value();
    }
    let mut o = PassOdds {
        poker: 0,
        full: 0,
        pichanga: 0,
        total,
    };
    for code in 0..total {
        let mut c = code;
        for h in hand.iter_mut().skip(shown.len()) {
            *h = (c % 6) as u8 + 1;
            c /= 6;
        }
        match PassHand::of(&hand) {
            PassHand::Poker => o.poker += 1,
            PassHand::Full => o.full += 1,
            PassHand::Pichanga => o.pichanga += 1,
            PassHand::Nothing => {}
        }
    }
    Ok(o)
}

/// The report of `tahur dudo paso`.
pub fn report(shown: &[Face]) -> Result<Report> {
    let o = odds(shown)?;
    let p = |n: u64| n as f64 / o.total as f64;
    let list = if shown.is_empty() {
        "none".to_string()
    } else {
        shown
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut r = Report::new(format!("Dudo paso · passer's shown dice: {list}"));
    r.field(
        "shown",
        "passer's shown dice",
        Value::dice(shown.iter().map(|f| f.value())),
    );
    r.field(
        "unseen",
        "unseen dice",
        Value::Int((CUP - shown.len()) as i64),
    );
    r.field_plain(
        "holds",
        "P(pass stands)",
        Value::Prob(p(o.holds())),
        format!(
            "{}; {} of {} rolls",
            // Every roll is enumerated: 0 or all of them is exact.
            crate::humanize::exact_reading(p(o.holds()), o.holds() == 0, o.holds() == o.total),
            o.holds(),
            o.total
        ),
    );
    r.field("poker", "poker (4 or 5 equal)", Value::Prob(p(o.poker)));
    r.field("full", "full (3 + 2)", Value::Prob(p(o.full)));
    r.field(
        "pichanga",
        "pichanga (all different)",
        Value::Prob(p(o.pichanga)),
    );
    r.field("fails", "P(pass fails)", Value::Prob(1.0 - p(o.holds())));
    r.field("rolls", "rolls enumerated", Value::Int(o.total as i64));
    if o.holds() == 0 {
        let why = match CUP - shown.len() {
            0 => "The passer's five dice are all shown and form no poker, full or pichanga".into(),
            1 => "No roll of the unseen die makes a poker, a full or a pichanga with these shown dice".into(),
            n => format!("No roll of the {n} unseen dice makes a poker, a full or a pichanga with these shown dice"),
        };
        r.note(format!(
            "{why}: the pass cannot stand, so doubting it wins for certain."
        ));
    }
    r.note("A doubted pass stands if the passer's five dice, aces as their own face (no wilds), form a poker, a full or a pichanga; the loser of the doubt takes the palo.");
    Ok(r)
}
