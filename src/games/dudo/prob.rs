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

/// A list of dice as a report value: empty (null in JSON) when there are none.
pub(crate) fn dice_value(dice: &[Face]) -> Value {
    Value::dice(dice.iter().map(|f| f.value()))
}

/// Why `bid` cannot be true in `situation`, in a sentence without a final stop, or `None` when
/// it can: more of its face than there are dice in play (the millas bonus included), or more
/// than can count once the dice one sees are taken into account.
pub fn impossible_reason(situation: &Situation, bid: Bid) -> Option<String> {
    if situation.possible(bid) {
        return None;
    }
    let set = situation.rules.set;
    let spoken = bid.spoken(set);
    let name = bid.face.name(set, true);
    let dice = situation.dice;
    let bonus = situation.counting(bid.face).bonus;
    let max = situation.max_count(bid.face);
    if bid.quantity > dice + bonus {
        return Some(if bonus > 0 {
            format!(
                "{spoken} is impossible: with {dice} dice in play at most {} {name} can be counted, the millas bonus included",
                dice + bonus
            )
        } else {
            format!(
                "{spoken} is impossible: only {dice} {} in play",
                if dice == 1 { "die is" } else { "dice are" }
            )
        });
    }
    let seen = (situation.hand.len() + situation.shown.len()) as u32;
    let whose = match (situation.hand.is_empty(), situation.shown.is_empty()) {
        (false, true) => "your dice",
        (true, false) => "the dice shown",
        _ => "your dice and the dice shown",
    };
    let not_counting = seen - (max - situation.unknown() - bonus);
    Some(format!(
        "{spoken} is impossible given {whose}: {not_counting} of the {seen} dice you see cannot count for {name}, so at most {max} can be counted{} with {dice} dice in play",
        if bonus > 0 { ", the millas bonus included," } else { "" }
    ))
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
    r.field("bid", "bid", bid.value(format!("{spoken} ({bid})")));
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
        humanize::exact_reading(odds.at_least, !s.possible(bid), s.certain(bid)),
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
    if let Some(why) = impossible_reason(s, bid) {
        r.note(format!("{why}. Doubting it wins for certain."));
    }
    for n in counting_notes(s, bid.face) {
        r.note(n);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dudo::{Bidding, RuleSet};

    #[test]
    fn impossible_and_certain_only_when_the_dice_decide() {
        assert_eq!(humanize::exact_reading(0.0, true, false), "impossible");
        assert_eq!(humanize::exact_reading(1.0, false, true), "certain");
        // Rounded to 0 or 1 but decided by nothing: not called impossible or certain.
        let tiny = humanize::exact_reading(0.0, false, false);
        assert!(
            tiny.starts_with("possible") && !tiny.contains("impossible"),
            "{tiny}"
        );
        let near = humanize::exact_reading(1.0, false, false);
        assert!(near.starts_with("almost certain"), "{near}");
        assert_eq!(
            humanize::exact_reading(0.25, false, false),
            humanize::odds(0.25)
        );
    }

    #[test]
    fn the_reason_names_the_limit() {
        let f = |v| Face::new(v).unwrap();
        let rules = Bidding::new(RuleSet::Caleuchano);
        // 10 dice, holding 3,3,4,5,6 and shown 1: millas can count 4 unknown dice + the shown
        // ace + the bonus = 6 (the hand holds no 2 and no ace).
        let hand = [3, 3, 4, 5, 6].map(f).to_vec();
        let s = Situation::new(10, hand, vec![f(1)], rules, false).unwrap();
        assert_eq!(s.max_count(Face::TWO), 6);
        assert_eq!(s.min_count(Face::TWO), 2, "the shown ace and the bonus");
        let two = |q| Bid {
            quantity: q,
            face: Face::TWO,
        };
        assert_eq!(impossible_reason(&s, two(6)), None);
        assert_eq!(
            impossible_reason(&s, two(7)).unwrap(),
            "7 millas is impossible given your dice and the dice shown: 5 of the 6 dice you see \
             cannot count for millas, so at most 6 can be counted, the millas bonus included, \
             with 10 dice in play"
        );
        assert_eq!(
            impossible_reason(&s, two(12)).unwrap(),
            "12 millas is impossible: with 10 dice in play at most 11 millas can be counted, the \
             millas bonus included"
        );
        assert!(s.certain(two(2)) && !s.certain(two(3)));
        // --aces-need-natural with every die known and no natural: the aces do not count.
        let natural = Bidding {
            aces_need_natural: true,
            ..Bidding::new(RuleSet::Chimbo9)
        };
        let s = Situation::new(2, vec![f(1), f(1)], vec![], natural, false).unwrap();
        assert_eq!(s.max_count(f(4)), 0);
        let one = Situation::new(3, vec![f(1), f(1)], vec![], natural, false).unwrap();
        assert_eq!(one.max_count(f(4)), 3, "the unknown die may be the natural");
        assert_eq!(one.min_count(f(4)), 0);
    }
}
