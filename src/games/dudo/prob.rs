//! `tahur dudo prob`: how likely a bid is, exactly and by simulation.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::exact::Situation;
use super::face::Face;
use super::montecarlo::CountHistogram;
use crate::humanize;
use crate::report::{Report, Value};
use crate::runner::RunSummary;

/// One probability question: a bid in a situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbQuery {
    /// What the asker knows.
    pub situation: Situation,
    /// The bid asked about.
    pub bid: Bid,
}

pub(crate) fn dice_list(dice: &[Face]) -> String {
    if dice.is_empty() {
        "—".into()
    } else {
        dice.iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A list of dice as a report value: empty (null in JSON) when there are none.
pub(crate) fn dice_value(dice: &[Face]) -> Value {
    if dice.is_empty() {
        Value::Empty
    } else {
        Value::Text(dice_list(dice))
    }
}

/// Plain-language lines on how the bid is counted.
pub fn counting_notes(situation: &Situation, face: Face) -> Vec<String> {
    let set = situation.rules.set;
    let c = situation.counting(face);
    let name = face.name(set, true);
    let mut notes = Vec::new();
    let u = situation.unknown();
    if situation.obligado {
        notes.push(format!(
            "Obligado round: aces are not wild and there is no millas bonus; each of the {u} unknown dice counts only if it shows a {} (1 in 6).",
            face.value()
        ));
    } else if face.is_ace() {
        notes.push(format!(
            "A bid on aces counts aces only: each of the {u} unknown dice counts with probability 1 in 6."
        ));
    } else {
        notes.push(format!(
            "Aces are wild: each of the {u} unknown dice counts if it shows a {} or an ace (1 in 3).",
            face.value()
        ));
        if c.need_natural {
            notes.push(format!(
                "Aces count only if at least one natural {} is on the table (--aces-need-natural).",
                face.name(set, false)
            ));
        }
    }
    if c.bonus > 0 {
        notes.push(format!(
            "Caleuchano millas bonus: {} extra {} added at the count.",
            c.bonus, name
        ));
    }
    notes
}

/// The report for a probability question, with the simulation's tally if one ran.
pub fn report(query: &ProbQuery, sampled: Option<(&CountHistogram, &RunSummary)>) -> Report {
    let s = &query.situation;
    let bid = query.bid;
    let set = s.rules.set;
    let spoken = bid.spoken(set);
    let odds = s.odds(bid);
    let (naturals, aces) = s.known_for(bid.face);
    let counting = s.counting(bid.face);
    let already = counting.count(naturals, aces) - counting.bonus;

    let mut r = Report::new(format!(
        "Dudo · {spoken} with {} · {}{}",
        crate::text::count_of(s.dice as u64, "dice"),
        set.title(),
        if s.obligado { " · obligado" } else { "" }
    ));
    r.field("bid", "bid", Value::Text(format!("{spoken} ({bid})")));
    r.field("dice", "dice on the table", Value::Int(s.dice as i64));
    r.field("hand", "your dice", dice_value(&s.hand));
    r.field("shown", "dice shown", dice_value(&s.shown));
    r.field("unknown", "unknown dice", Value::Int(s.unknown() as i64));
    r.field(
        "known_count",
        "already counting",
        Value::Int(already as i64),
    );
    r.field_plain(
        "exact",
        &format!("P(at least {})", bid.quantity),
        Value::Prob(odds.at_least),
        humanize::odds(odds.at_least),
    );
    r.field(
        "exactly",
        &format!("P(exactly {})", bid.quantity),
        Value::Prob(odds.exactly),
    );
    r.field("expected", "expected count", Value::Num(odds.expected, 2));

    if let Some((hist, run)) = sampled {
        let est = hist.at_least(bid.quantity);
        let wilson = est.wilson(0.95);
        let cp = est.clopper_pearson(0.95);
        r.field_plain(
            "estimate",
            "Monte Carlo P(true)",
            Value::Prob(est.estimate()),
            humanize::plain_rate_of(&est, "samples"),
        );
        r.field(
            "ci95",
            "95 % interval (Wilson)",
            Value::ProbInterval(wilson.low, wilson.high),
        );
        r.field(
            "ci95_clopper_pearson",
            "95 % interval (Clopper–Pearson)",
            Value::ProbInterval(cp.low, cp.high),
        );
        r.field(
            "standard_error",
            "standard error",
            Value::Num(est.standard_error(), 6),
        );
        let z = est.z_score_against(odds.at_least);
        r.field("deviation_se", "distance from exact (SE)", Value::Num(z, 2));
        r.run_size("samples", "samples", run.samples_done, run);
        for n in run.notes() {
            r.note(n);
        }
    }
    for n in counting_notes(s, bid.face) {
        r.note(n);
    }
    r
}
