//! `tahur dudo advise`: doubt or raise, and which raise.
//!
//! Decision rule: doubting wins exactly when the incoming bid is false; raising survives the
//! next player's doubt when the raise is true. The advisor compares P(incoming false) with the
//! best raise's P(true) and recommends the larger. (The next player may also raise instead of
//! doubting; whole-game strategy is the subject of `tahur dudo sim`.)

use super::bid::Bid;
use super::exact::Situation;
use super::table::distributions;
use crate::humanize;
use crate::report::{Report, Table, Value};

/// What to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recommendation {
    /// Say «dudo».
    Doubt,
    /// Raise to this bid.
    Raise(Bid),
}

/// The advisor's full answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// P(incoming bid is true).
    pub incoming_true: f64,
    /// Every legal raise with its P(true), most likely first (ties: lowest bid first).
    pub raises: Vec<(Bid, f64)>,
    /// The recommendation.
    pub recommendation: Recommendation,
}

/// Works out the advice for `incoming` in `situation`.
pub fn advise(situation: &Situation, incoming: Bid) -> Advice {
    let dists = distributions(situation);
    let p_true = |b: Bid| dists[b.face.index()].at_least(b.quantity);
    let max_q = dists.iter().map(|d| d.max_count()).max().unwrap_or(0);
    let mut raises: Vec<(Bid, f64)> = situation
        .rules
        .raises(incoming, situation.obligado, max_q)
        .into_iter()
        .map(|b| (b, p_true(b)))
        .collect();
    // Stable sort keeps the generation order (lowest quantity, then face) among ties.
    raises.sort_by(|a, b| b.1.total_cmp(&a.1));
    let incoming_true = p_true(incoming);
    let recommendation = match raises.first() {
        Some(&(best, p)) if p >= 1.0 - incoming_true => Recommendation::Raise(best),
        _ => Recommendation::Doubt,
    };
    Advice {
        incoming_true,
        raises,
        recommendation,
    }
}

/// The advisor's report, listing the `top` most likely raises.
pub fn report(situation: &Situation, incoming: Bid, top: usize) -> Report {
    let set = situation.rules.set;
    let a = advise(situation, incoming);
    let mut r = Report::new(format!(
        "Dudo advice · incoming {} · {} dice · {}{}",
        incoming.spoken(set),
        situation.dice,
        set.title(),
        if situation.obligado {
            " · obligado"
        } else {
            ""
        }
    ));
    r.field(
        "incoming",
        "incoming bid",
        Value::Text(format!("{} ({incoming})", incoming.spoken(set))),
    );
    r.field_plain(
        "incoming_true",
        "P(incoming is true)",
        Value::Prob(a.incoming_true),
        humanize::odds(a.incoming_true),
    );
    r.field_plain(
        "doubt_wins",
        "P(«dudo» wins)",
        Value::Prob(1.0 - a.incoming_true),
        humanize::odds(1.0 - a.incoming_true),
    );
    match a.raises.first() {
        Some(&(b, p)) => {
            r.field("best_raise", "best raise", Value::Text(b.spoken(set)));
            r.field_plain(
                "best_raise_true",
                "P(best raise is true)",
                Value::Prob(p),
                humanize::odds(p),
            );
        }
        None => {
            r.field("best_raise", "best raise", Value::Empty);
            r.field("best_raise_true", "P(best raise is true)", Value::Empty);
        }
    }
    let rec = match a.recommendation {
        Recommendation::Doubt => "doubt («dudo»)".to_string(),
        Recommendation::Raise(b) => format!("raise to {}", b.spoken(set)),
    };
    r.field("recommendation", "recommendation", Value::Text(rec));
    r.field(
        "legal_raises",
        "legal raises",
        Value::Int(a.raises.len() as i64),
    );

    let mut t = Table::new(
        "raises",
        "Legal raises, most likely first",
        &[
            ("bid", "bid"),
            ("quantity", "quantity"),
            ("face", "face"),
            ("p_true", "P(true)"),
        ],
    );
    for &(b, p) in a.raises.iter().take(top) {
        t.push(vec![
            Value::Text(b.spoken(set)),
            Value::Int(b.quantity as i64),
            Value::Int(b.face.value() as i64),
            Value::Prob(p),
        ]);
    }
    r.tables.push(t);
    r.note(
        "«Dudo» wins when the incoming bid is false; a raise survives a doubt when it is true. \
         The recommendation takes whichever is more likely.",
    );
    if situation.hand.is_empty() {
        r.note("No --hand given: advice from a spectator's view, with every die unknown.");
    }
    r
}
