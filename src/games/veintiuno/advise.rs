//! `tahur veintiuno advise`: one decision at once — every legal move's EV against the bank's up
//! card and its margin to the best — from the built-in exact sheet for a fresh shoe, or from the
//! sheet computed exactly for what is left of the shoe.

use super::cards::{parse_rank, Card, Composition, RANKS};
use super::engine::Move;
use super::rules::{two_card, Options, Points, TwoCard};
use super::strategy::{best_of, ExactRow, Sheet, UP_CLASSES};
use crate::error::{Error, Result};
use crate::report::{Report, Table, Value};

/// The exact fresh-shoe sheet shipped in `data/veintiuno/strategy.json`.
pub static SHIPPED: &str = include_str!("../../../data/veintiuno/strategy.json");

/// A card as a player names it: a card with its suit (`AH`, `7♦`, `rey de picas`), or a rank
/// alone (`7`, `K`, `siete`; `10` for any figure), given the suit of `fallback` then.
pub fn parse_card(text: &str, fallback: usize) -> Result<Card> {
    if let Ok(c) = Card::parse(text) {
        return Ok(c);
    }
    let t = text.trim();
    let rank = if t == "10" || t.eq_ignore_ascii_case("figura") || t.eq_ignore_ascii_case("f") {
        Some(9)
    } else {
        parse_rank(t)
    };
    rank.map(|r| Card::new(r, fallback % 4)).ok_or_else(|| {
        Error::usage(format!(
            "invalid card '{text}': a rank (A, 2–7, J, Q, K, 10 for a figure, or as, dos…siete, sota, reina, rey), with a suit if it matters (AH, 7♦, rey de picas)"
        ))
    })
}

/// What the advice is about: the sheet row, or why there is nothing to decide.
pub enum Situation {
    /// A decision, answered by this row of the sheet.
    Row(String),
    /// Nothing to decide, and why.
    Nothing(String),
}

/// The row of the sheet that decides a hand (its cards in the order dealt), as the sheet plays:
/// 13 in two cards, a pair, two cards (with tapo y quedo), otherwise hard or soft total.
pub fn situation(hand: &[Card], opts: &Options) -> Situation {
    let pts = hand.iter().fold(Points::default(), |p, &c| p.add(c));
    if pts.hard > 21 {
        return Situation::Nothing(format!(
            "the hand counts {}: it has passed 21 and lost",
            pts.hard
        ));
    }
    if hand.len() == 2 {
        let (a, b) = (hand[0], hand[1]);
        match two_card(a, b, opts) {
            TwoCard::Natural => {
                return Situation::Nothing(
                    "21 in two cards: paid at once (and it takes the bank)".into(),
                )
            }
            TwoCard::Monona => return Situation::Nothing("moñona: paid at once".into()),
            TwoCard::TwelveSuited => {
                return Situation::Nothing("12 of one suit counts 21: it stands".into())
            }
            TwoCard::Twelve => return Situation::Row("hard 20".into()),
            TwoCard::Thirteen if opts.withdraw_13 => {
                return Situation::Row("13 in two cards".into())
            }
            _ => {}
        }
        if a.rank() == b.rank() && two_card(a, b, opts) == TwoCard::Plain && a.rank() > 0 {
            return Situation::Row(format!("pair {}{}", RANKS[a.rank()], RANKS[a.rank()]));
        }
        if opts.tapo && !pts.is_soft() {
            return Situation::Row(format!("two cards {}", pts.total()));
        }
    }
    let t = pts.total();
    if t >= 21 {
        return Situation::Nothing("the hand counts 21: it stands".into());
    }
    Situation::Row(format!(
        "{} {t}",
        if pts.is_soft() { "soft" } else { "hard" }
    ))
}

/// The advice: the report for a hand against an up card from `sheet` (an exact sheet), saying
/// where the figures come from (`source`).
pub fn report(
    hand: &[Card],
    up: Card,
    sheet: &Sheet,
    opts: &Options,
    source: &str,
) -> Result<Report> {
    let names: Vec<String> = hand.iter().map(|c| RANKS[c.rank()].to_string()).collect();
    let class = up.rank().min(7);
    let mut r = Report::new(format!(
        "21 ecuatoriano · {} against the bank's {} · {source}",
        names.join(" "),
        RANKS[up.rank()]
    ));
    let row = match situation(hand, opts) {
        Situation::Nothing(why) => {
            r.field_plain(
                "decision",
                "decision",
                Value::Text("none".into()),
                format!("nothing to decide: {why}"),
            );
            return Ok(r);
        }
        Situation::Row(row) => row,
    };
    let found: &ExactRow = sheet
        .exact
        .iter()
        .find(|x| x.row == row)
        .ok_or_else(|| Error::usage(format!("the sheet has no row '{row}'")))?;
    let cell = &found.cells[class];
    let Some((best, best_ev, margin)) = best_of(cell) else {
        return Err(Error::usage(format!(
            "no hand of the row '{row}' can be dealt against a {} from this shoe",
            RANKS[up.rank()]
        )));
    };
    let name = |code: char| Move::from_code(code).map_or(code.to_string(), |m| m.to_string());
    let runner_up = cell
        .iter()
        .filter(|x| x.0 != best)
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map(|x| name(x.0))
        .unwrap_or_default();
    r.field(
        "row",
        "sheet row",
        Value::Text(format!("{row} against {}", UP_CLASSES[class])),
    );
    r.field_plain(
        "best",
        "best move",
        Value::Text(name(best)),
        format!(
            "{}: EV {best_ev:+.4} per unit bet, {margin:.4} better than {runner_up}",
            capitalised(&name(best))
        ),
    );
    r.field(
        "margin",
        "margin over the next best move",
        Value::Num(margin, 4),
    );
    let mut t = Table::new(
        "moves",
        "Every legal move: its EV per unit bet, and how far below the best",
        &[
            ("move", "move"),
            ("ev", "EV"),
            ("behind", "behind the best"),
            ("best", "best"),
        ],
    );
    t.top_level = true;
    for &(code, ev) in cell {
        t.push(vec![
            Value::Text(name(code)),
            Value::Num(ev, 4),
            Value::Num(best_ev - ev, 4),
            Value::Bool(code == best),
        ]);
    }
    r.tables.push(t);
    r.note(format!("A sheet cell averages every hand of its row ('{row}', two cards, or three for hard and soft totals) by its chance of being dealt; later decisions play the sheet. F is J, Q and K."));
    Ok(r)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The sheet to answer from: the shipped one for a fresh shoe under the default rules and the
/// bank that draws to 17 ([`super::engine::BankPolicy::fixed`], the bank every exact sheet is
/// solved against), otherwise computed exactly for `comp` against `bank`'s fixed total. Returns
/// it and where it comes from.
pub fn sheet_for(
    comp: &Composition,
    opts: &Options,
    bank: super::engine::BankPolicy,
    fresh: bool,
) -> Result<(Sheet, String)> {
    // The bank's bet limits change no move's EV per unit bet.
    let play_rules = Options {
        bet_min: 1,
        bet_max: 1,
        ..*opts
    };
    if fresh && play_rules == Options::default() && bank == super::engine::BankPolicy::fixed(17) {
        let sheet: Sheet = serde_json::from_str(SHIPPED)
            .map_err(|e| Error::Internal(format!("the built-in sheet: {e}")))?;
        return Ok((sheet, "fresh shoe (the built-in exact sheet)".into()));
    }
    let q = super::strategy::StrategyQuery {
        options: *opts,
        composition: comp.clone(),
        bank,
        infinite: false,
        samples: 0,
        seed: 0,
    };
    Ok((
        super::strategy::derive_exact(&q),
        format!("{} cards left (computed exactly)", comp.total()),
    ))
}
