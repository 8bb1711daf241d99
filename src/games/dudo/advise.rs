//! `tahur dudo advise`: doubt or raise, and which raise.
//!
//! Decision rule: doubting wins exactly when the incoming bid is false; raising survives the
//! next player's doubt when the raise is true. The advisor compares P(incoming false) with the
//! best raise's P(true) and recommends the larger. (The next player may also raise instead of
//! doubting; whole-game strategy is the subject of `tahur dudo sim`.) An incoming bid that
//! cannot be true is always doubted: that wins the round for certain.

use super::bid::Bid;
use super::exact::Situation;
use super::face::Face;
use super::prob::impossible_reason;
use super::table::distributions;
use crate::humanize::exact_reading;
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
    /// Whether the incoming bid can be true at all given the dice in play and the dice one
    /// sees ([`Situation::possible`]); when it cannot, the advice is to doubt.
    pub incoming_possible: bool,
    /// Every legal raise up to [`Advice::max_quantity`] with its P(true), most likely first
    /// (ties: lowest bid first).
    pub raises: Vec<(Bid, f64)>,
    /// The largest quantity listed: the most that any face can count here
    /// ([`Situation::max_count`]). Every quantity above it is a legal raise too, and impossible.
    pub max_quantity: u32,
    /// The recommendation.
    pub recommendation: Recommendation,
}

/// The largest count any face can reach in `situation`: raises above it are impossible.
pub fn max_quantity(situation: &Situation) -> u32 {
    Face::ALL
        .iter()
        .map(|&f| situation.max_count(f))
        .max()
        .unwrap_or(0)
}

/// Works out the advice for `incoming` in `situation`.
pub fn advise(situation: &Situation, incoming: Bid) -> Advice {
    let dists = distributions(situation);
    let p_true = |b: Bid| dists[b.face.index()].at_least(b.quantity);
    let max_q = max_quantity(situation);
    let mut raises: Vec<(Bid, f64)> = situation
        .rules
        .raises(incoming, situation.obligado, max_q)
        .into_iter()
        .map(|b| (b, p_true(b)))
        .collect();
    // Stable sort keeps the generation order (lowest quantity, then face) among ties.
    raises.sort_by(|a, b| b.1.total_cmp(&a.1));
    let incoming_true = p_true(incoming);
    let incoming_possible = situation.possible(incoming);
    let recommendation = match raises.first() {
        Some(&(best, p)) if incoming_possible && p >= 1.0 - incoming_true => {
            Recommendation::Raise(best)
        }
        _ => Recommendation::Doubt,
    };
    Advice {
        incoming_true,
        incoming_possible,
        raises,
        max_quantity: max_q,
        recommendation,
    }
}

/// Why the raise list stops at `max_q`, as a note.
fn cut_note(situation: &Situation, max_q: u32) -> String {
    let dice = situation.dice;
    let table_max = Face::ALL
        .iter()
        .map(|&f| dice + situation.counting(f).bonus)
        .max()
        .unwrap_or(dice);
    let why = if max_q == table_max && table_max > dice {
        format!(
            "no face can count more than {max_q} with {dice} dice in play (millas: every die and the bonus)"
        )
    } else if max_q == table_max {
        format!("no face can count more than {max_q} with {dice} dice in play")
    } else {
        format!(
            "given the dice you see, no face can count more than {max_q} (with {dice} dice in play)"
        )
    };
    format!(
        "Raises above {max_q} are left out: every higher quantity is a legal raise too, but {why}, so none of them can be true."
    )
}

/// The advisor's report, listing the `top` most likely raises.
pub fn report(situation: &Situation, incoming: Bid, top: usize) -> Report {
    let set = situation.rules.set;
    let a = advise(situation, incoming);
    let incoming_certain = situation.certain(incoming);
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
        incoming.value(format!("{} ({incoming})", incoming.spoken(set))),
    );
    r.field(
        "incoming_possible",
        "incoming bid possible",
        Value::Bool(a.incoming_possible),
    );
    r.field_plain(
        "incoming_true",
        "P(incoming is true)",
        Value::Prob(a.incoming_true),
        exact_reading(a.incoming_true, !a.incoming_possible, incoming_certain),
    );
    r.field_plain(
        "doubt_wins",
        "P(«dudo» wins)",
        Value::Prob(1.0 - a.incoming_true),
        exact_reading(
            1.0 - a.incoming_true,
            incoming_certain,
            !a.incoming_possible,
        ),
    );
    match a.raises.first() {
        Some(&(b, p)) => {
            r.field("best_raise", "best raise", b.value(b.spoken(set)));
            r.field_plain(
                "best_raise_true",
                "P(best raise is true)",
                Value::Prob(p),
                exact_reading(p, !situation.possible(b), situation.certain(b)),
            );
        }
        None => {
            r.field("best_raise", "best raise", Value::Empty);
            r.field("best_raise_true", "P(best raise is true)", Value::Empty);
        }
    }
    let rec = match a.recommendation {
        Recommendation::Doubt => Value::Label("doubt («dudo»)".into(), "doubt".into()),
        Recommendation::Raise(b) => {
            Value::Label(format!("raise to {}", b.spoken(set)), "raise".into())
        }
    };
    r.field("recommendation", "recommendation", rec);
    let total = a.raises.len();
    let shown = total.min(top);
    r.field(
        "legal_raises",
        &format!("legal raises up to {}", a.max_quantity),
        Value::Int(total as i64),
    );
    r.field("raises_shown", "raises listed", Value::Int(shown as i64));

    let title = if shown < total {
        format!("Legal raises, most likely first: {shown} of {total} (--top {top})")
    } else {
        format!("Legal raises, most likely first: all {total}")
    };
    let mut t = Table::new(
        "raises",
        &title,
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
    if let Some(why) = impossible_reason(situation, incoming) {
        r.note(format!(
            "{why}. The incoming bid cannot be true: «dudo» wins for certain, so doubt."
        ));
    }
    r.note(
        "«Dudo» wins when the incoming bid is false; a raise survives a doubt when it is true. \
         The recommendation takes whichever is more likely.",
    );
    let impossible: Vec<Bid> = a
        .raises
        .iter()
        .take(top)
        .map(|&(b, _)| b)
        .filter(|&b| !situation.possible(b))
        .collect();
    if let Some(&first) = impossible.first() {
        let why = impossible_reason(situation, first).expect("an impossible raise");
        r.note(format!(
            "{} of the raises listed cannot be true (more of their face than can be counted); for example, {why}.",
            impossible.len()
        ));
    }
    r.note(cut_note(situation, a.max_quantity));
    if situation.obligado {
        r.note(format!(
            "Obligado round: only raises on the fixed face ({}) are listed; the obliger and players on 4 palos may also change the face.",
            incoming.face.name(set, true)
        ));
    }
    if situation.hand.is_empty() {
        r.note("No --hand given: advice from a spectator's view, with every die unknown.");
    }
    r
}
