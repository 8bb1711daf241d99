//! Exact figures: the two-card specials from any composition (enumeration of every pair of
//! cards) and the bank's final total by up card, for an infinite deck and for a given
//! composition (recursion over the cards left, memoised by the ranks left; the up card a random
//! remaining card of its rank, each suit weighed by its copies left, or a named card).

use std::collections::HashMap;

use serde::Serialize;

use super::cards::{rank_points, Card, Composition, DECK, RANK_COUNT};
use super::rules::{two_card, Options, Points, TwoCard};
use crate::error::{Error, Result};

/// Probabilities of the two-card hands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpecialOdds {
    /// Ace and figure.
    pub natural21: f64,
    /// Two aces.
    pub monona: f64,
    /// 12 in two cards, not of one suit (counts 20).
    pub twelve: f64,
    /// 12 in two cards of one suit (counts 21).
    pub twelve_suited: f64,
    /// 13 in two cards.
    pub thirteen: f64,
    /// Two different figures.
    pub relancina: f64,
    /// Two cards of the same rank (may be split).
    pub pair: f64,
    /// Pairs of cards counted (the denominator).
    pub pairs_counted: u64,
}

/// The exact probability of each two-card hand dealt from `comp`.
pub fn special_odds(comp: &Composition, opts: &Options) -> SpecialOdds {
    // Classify with the 12 rules as written, so both 12 figures are reported whatever the flags.
    let classify = Options {
        twelve_counts_20: true,
        suited_twelve_21: true,
        ..*opts
    };
    let mut n = [0u64; 7];
    let mut pair = 0u64;
    let mut total = 0u64;
    for i in 0..DECK {
        for j in i..DECK {
            let (ci, cj) = (comp.counts[i] as u64, comp.counts[j] as u64);
            let ways = if i == j {
                ci * ci.saturating_sub(1) / 2
            } else {
                ci * cj
            };
            if ways == 0 {
                continue;
            }
            total += ways;
            let (a, b) = (Card::from_index(i), Card::from_index(j));
            if a.rank() == b.rank() {
                pair += ways;
            }
            let k = match two_card(a, b, &classify) {
                TwoCard::Natural => 0,
                TwoCard::Monona => 1,
                TwoCard::Twelve => 2,
                TwoCard::TwelveSuited => 3,
                TwoCard::Thirteen => 4,
                TwoCard::Relancina => 5,
                TwoCard::Plain => 6,
            };
            n[k] += ways;
        }
    }
    let p = |x: u64| {
        if total == 0 {
            0.0
        } else {
            x as f64 / total as f64
        }
    };
    SpecialOdds {
        natural21: p(n[0]),
        monona: p(n[1]),
        twelve: p(n[2]),
        twelve_suited: p(n[3]),
        thirteen: p(n[4]),
        relancina: p(n[5]),
        pair: p(pair),
        pairs_counted: total,
    }
}

/// The bank's final total: `dist[t]` for t = 0..=21, `dist[22]` = bust.
pub type BankDistribution = [f64; 23];

/// Index of "bust" in a [`BankDistribution`].
pub const BUST: usize = 22;

fn bank_two_card_total(up: Card, hole: Card, opts: &Options) -> u8 {
    super::rules::two_card_total(up, hole, opts)
}

/// The bank's final total with an infinite deck (every rank 1/10, suits independent), given its
/// up card's rank; the bank stands at `stand` or more.
pub fn bank_infinite(up_rank: usize, stand: u8, opts: &Options) -> BankDistribution {
    let mut dist = [0.0; 23];
    // The hole card: rank uniform, suit equal to the up card's with probability 1/4.
    for hole_rank in 0..RANK_COUNT {
        for same_suit in [true, false] {
            let w = 0.1 * if same_suit { 0.25 } else { 0.75 };
            let up = Card::new(up_rank, 0);
            let hole = Card::new(hole_rank, if same_suit { 0 } else { 1 });
            let two = bank_two_card_total(up, hole, opts);
            let pts = Points::default().add(up).add(hole);
            if two >= stand || two != pts.total() {
                // A special total (21, 20) or already standing: no drawing.
                dist[two as usize] += w;
            } else {
                draw_infinite(pts, stand, w, &mut dist);
            }
        }
    }
    dist
}

fn draw_infinite(pts: Points, stand: u8, w: f64, dist: &mut BankDistribution) {
    for rank in 0..RANK_COUNT {
        let next = pts.add(Card::new(rank, 0));
        let p = w * 0.1;
        if next.hard > 21 {
            dist[BUST] += p;
        } else if next.total() >= stand {
            dist[next.total() as usize] += p;
        } else {
            draw_infinite(next, stand, p, dist);
        }
    }
}

/// Memo of [`draw_from`]: the ranks left and the hand's points → the final-total distribution.
/// Valid for one standing total.
type DrawMemo = HashMap<([u8; RANK_COUNT], u8, bool), BankDistribution>;

/// The bank's final total dealt from `comp` (which no longer holds the up card); the bank
/// stands at `stand` or more. A shoe that runs dry leaves the bank standing on what it holds.
pub fn bank_from(comp: &Composition, up: Card, stand: u8, opts: &Options) -> BankDistribution {
    bank_from_memo(comp, up, stand, opts, &mut HashMap::new())
}

/// The bank's final total when its up card is a random card of rank `up_rank` (0 = ace …
/// 9 = king) dealt from `comp`, which still holds it: every remaining card of that rank is
/// equally likely, so each suit weighs by the copies of it left. The suit matters through the
/// 12 of one suit (counting 21). `None` when no card of that rank is left.
pub fn bank_random_up(
    comp: &Composition,
    up_rank: usize,
    stand: u8,
    opts: &Options,
) -> Option<BankDistribution> {
    random_up_memo(comp, up_rank, stand, opts, &mut HashMap::new())
}

/// The bank's final total when its up card is `up`, dealt from `comp`, which still holds it.
/// A usage error naming the card, and the cards of its rank still in the shoe, when `comp`
/// holds no copy of it.
pub fn bank_named_up(
    comp: &Composition,
    up: Card,
    stand: u8,
    opts: &Options,
) -> Result<BankDistribution> {
    named_up_memo(comp, up, stand, opts, &mut HashMap::new())
}

fn named_up_memo(
    comp: &Composition,
    up: Card,
    stand: u8,
    opts: &Options,
    memo: &mut DrawMemo,
) -> Result<BankDistribution> {
    if comp.counts[up.index()] == 0 {
        let left: Vec<String> = (0..4)
            .map(|s| Card::new(up.rank(), s))
            .filter(|c| comp.counts[c.index()] > 0)
            .map(|c| c.to_string())
            .collect();
        let rank = super::cards::RANKS[up.rank()];
        return Err(Error::usage(match left.as_slice() {
            [] => format!(
                "up card {up} is not in the shoe (no {rank} is left): name a card still in the shoe, of another rank"
            ),
            [one] => format!("up card {up} is not in the shoe (already dealt): name a card still in it, e.g. {one}"),
            [init @ .., last] => format!(
                "up card {up} is not in the shoe (already dealt): name a card still in it, e.g. {} or {last}",
                init.join(", ")
            ),
        }));
    }
    let mut rest = comp.clone();
    rest.counts[up.index()] -= 1;
    Ok(bank_from_memo(&rest, up, stand, opts, memo))
}

fn random_up_memo(
    comp: &Composition,
    up_rank: usize,
    stand: u8,
    opts: &Options,
    memo: &mut DrawMemo,
) -> Option<BankDistribution> {
    let of_rank = comp.of_rank(up_rank);
    if of_rank == 0 {
        return None;
    }
    let mut dist = [0.0; 23];
    for suit in 0..4 {
        let up = Card::new(up_rank, suit);
        let n = comp.counts[up.index()];
        if n == 0 {
            continue;
        }
        let w = n as f64 / of_rank as f64;
        let d = named_up_memo(comp, up, stand, opts, memo).expect("the card is in the shoe");
        for (x, y) in dist.iter_mut().zip(d) {
            *x += w * y;
        }
    }
    Some(dist)
}

/// [`bank_from`] with a memo shared between calls (the draws after the first two cards depend
/// only on the ranks left, whatever the up card's suit).
fn bank_from_memo(
    comp: &Composition,
    up: Card,
    stand: u8,
    opts: &Options,
    memo: &mut DrawMemo,
) -> BankDistribution {
    let mut dist = [0.0; 23];
    let total = comp.total() as f64;
    for i in 0..DECK {
        let n = comp.counts[i];
        if n == 0 {
            continue;
        }
        let hole = Card::from_index(i);
        let w = n as f64 / total;
        let two = bank_two_card_total(up, hole, opts);
        let pts = Points::default().add(up).add(hole);
        if two >= stand || two != pts.total() {
            dist[two as usize] += w;
        } else {
            let mut ranks = [0u8; RANK_COUNT];
            for (r, slot) in ranks.iter_mut().enumerate() {
                *slot = comp.of_rank(r) as u8;
            }
            ranks[hole.rank()] -= 1;
            let sub = draw_from(ranks, pts, stand, memo);
            for (d, s) in dist.iter_mut().zip(sub) {
                *d += w * s;
            }
        }
    }
    dist
}

fn draw_from(
    ranks: [u8; RANK_COUNT],
    pts: Points,
    stand: u8,
    memo: &mut DrawMemo,
) -> BankDistribution {
    if let Some(d) = memo.get(&(ranks, pts.hard, pts.ace)) {
        return *d;
    }
    let mut dist = [0.0; 23];
    let left: u32 = ranks.iter().map(|&c| c as u32).sum();
    if left == 0 {
        // The shoe ran dry: in play the discards are reshuffled; here the bank stands.
        dist[pts.total() as usize] = 1.0;
        return dist;
    }
    for r in 0..RANK_COUNT {
        if ranks[r] == 0 {
            continue;
        }
        let p = ranks[r] as f64 / left as f64;
        let next = Points {
            hard: pts.hard + rank_points(r),
            ace: pts.ace || r == 0,
        };
        if next.hard > 21 {
            dist[BUST] += p;
        } else if next.total() >= stand {
            dist[next.total() as usize] += p;
        } else {
            let mut rest = ranks;
            rest[r] -= 1;
            for (d, s) in dist.iter_mut().zip(draw_from(rest, next, stand, memo)) {
                *d += p * s;
            }
        }
    }
    memo.insert((ranks, pts.hard, pts.ace), dist);
    dist
}

/// The report of `tahur veintiuno odds`.
pub fn odds_report(comp: &Composition, opts: &Options, removed: &str) -> crate::report::Report {
    use crate::humanize::odds;
    use crate::report::{Report, Value};
    let o = special_odds(comp, opts);
    let mut r = Report::new(format!(
        "21 ecuatoriano · two-card hands from {} cards ({} deck{}{})",
        comp.total(),
        opts.decks,
        if opts.decks > 1 { "s" } else { "" },
        if removed.trim().is_empty() {
            String::new()
        } else {
            format!(", without {removed}")
        }
    ));
    r.field("cards", "cards left", Value::Int(comp.total() as i64));
    for (key, label, p) in [
        ("natural21", "21 in two cards (ace + figure)", o.natural21),
        ("monona", "moñona (two aces)", o.monona),
        ("twelve", "12 counting 20", o.twelve),
        (
            "twelve_suited",
            "12 of one suit counting 21",
            o.twelve_suited,
        ),
        ("thirteen", "13 (may withdraw)", o.thirteen),
        (
            "relancina",
            "relancina (two different figures)",
            o.relancina,
        ),
        ("pair", "a pair (may split)", o.pair),
    ] {
        r.field_plain(key, label, Value::Prob(p), odds(p));
    }
    r.field(
        "pairs_counted",
        "two-card hands enumerated",
        Value::Int(o.pairs_counted as i64),
    );
    r
}

/// The report of `tahur veintiuno bank`: the bank's final total by up card, from what is left
/// of the shoe (`comp`) or from an infinite deck (`None`).
///
/// Without `up`, one row per rank: the up card is a random remaining card of that rank (see
/// [`bank_random_up`]); a rank with no card left has no row. With `up`, the one row of that
/// card ([`bank_named_up`]: a usage error when the shoe no longer holds it). With an infinite
/// deck every card is in the shoe and a card's row is its rank's. The title and the notes say
/// which up card the rows are for.
pub fn bank_report(
    comp: Option<&Composition>,
    up: Option<Card>,
    stand: u8,
    opts: &Options,
) -> Result<crate::report::Report> {
    use super::cards::RANKS;
    use crate::report::{Report, Table, Value};
    let model = match up {
        Some(c) => format!("up card: {}", c.symbol_and_code()),
        None if comp.is_some() => "up card: a random remaining card of its rank".into(),
        None => "up card: any card of its rank".into(),
    };
    let mut r = Report::new(format!(
        "21 ecuatoriano · bank's final total {}· stands at {stand} · {} · {model}",
        if up.is_some() { "" } else { "by up card " },
        match comp {
            Some(c) => format!("{} cards left", c.total()),
            None => "infinite deck".into(),
        }
    ));
    r.field("stand", "bank stands at", Value::Int(stand as i64));
    let cols: Vec<(String, String)> = (stand.min(20)..=21)
        .map(|t| (format!("t{t}"), t.to_string()))
        .chain([("bust".to_string(), "bust".to_string())])
        .collect();
    let mut c: Vec<(&str, &str)> = vec![("up", "up card")];
    c.extend(cols.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    let mut t = Table::new("bank", "P(bank ends on …)", &c);
    t.top_level = true;
    let mut memo = HashMap::new();
    let mut missing = Vec::new();
    let rows: Vec<(String, BankDistribution)> = match up {
        Some(card) => {
            let d = match comp {
                Some(comp) => named_up_memo(comp, card, stand, opts, &mut memo)?,
                None => bank_infinite(card.rank(), stand, opts),
            };
            vec![(card.to_string(), d)]
        }
        None => (0..RANK_COUNT)
            .filter_map(|rank| {
                let d = match comp {
                    Some(comp) => random_up_memo(comp, rank, stand, opts, &mut memo),
                    None => Some(bank_infinite(rank, stand, opts)),
                };
                if d.is_none() {
                    missing.push(RANKS[rank]);
                }
                d.map(|d| (RANKS[rank].to_string(), d))
            })
            .collect(),
    };
    for (name, d) in rows {
        let mut row = vec![Value::Text(name)];
        // Totals below the standing total only occur through specials such as 12 → 20.
        for tot in stand.min(20)..=21 {
            row.push(Value::Prob(d[tot as usize]));
        }
        row.push(Value::Prob(d[BUST]));
        t.push(row);
    }
    r.tables.push(t);
    r.note(match (up, comp) {
        (Some(c), Some(comp)) => format!(
            "Up card: {} itself, taken out of the shoe; the hole card and the draws come from the {} cards left after it.",
            c.symbol_and_code(),
            comp.total() - 1
        ),
        (Some(c), None) => format!(
            "Up card: {}; with an infinite deck its row is that of any {} (the hole card shares its suit 1 time in 4).",
            c.symbol_and_code(),
            RANKS[c.rank()]
        ),
        (None, Some(_)) => "Up card: a random remaining card of its rank, every card left equally likely, so each suit weighs by the copies of it left (the suit matters through the 12 of one suit). Name one card with --up, e.g. --up 7H.".into(),
        (None, None) => "Up card: any card of its rank; the hole card shares its suit 1 time in 4.".into(),
    });
    if !missing.is_empty() {
        r.note(format!(
            "No card of rank {} is left in the shoe: no row.",
            missing.join(", ")
        ));
    }
    r.note("The bank's two-card specials count: 21 in two cards and moñona are 21, a 12 counts 20 (21 of one suit).");
    r.note(fixed_bank_note(stand));
    Ok(r)
}

/// The one line every exact figure of 21 carries (`veintiuno bank`, `strategy`, `advise`): it
/// is solved against the bank that draws to a fixed total, not the default bank that sees.
pub fn fixed_bank_note(stand: u8) -> String {
    format!("Against a bank that draws to {stand} (bank-draw=fixed); the default bank, which draws by what it sees, is not solved exactly.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_add_up() {
        let o = Options::default();
        for up in 0..RANK_COUNT {
            let d = bank_infinite(up, 17, &o);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(d[..17].iter().all(|&x| x == 0.0));
            let mut comp = Composition::full(1);
            let upc = Card::new(up, 0);
            comp.remove(upc).unwrap();
            let d = bank_from(&comp, upc, 17, &o);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn random_up_card_weighs_suits_by_copies_left() {
        let o = Options::default();
        // Two decks without 5H, 7H and 7D twice: 7C and 7S, 2 copies each, are the 7s left.
        let comp = Composition::from_removed(2, "5H,7H,7H,7D,7D").unwrap();
        let random = bank_random_up(&comp, 6, 17, &o).unwrap();
        let c = bank_named_up(&comp, Card::new(6, 2), 17, &o).unwrap();
        let s = bank_named_up(&comp, Card::new(6, 3), 17, &o).unwrap();
        for t in 0..23 {
            assert!((random[t] - (c[t] + s[t]) / 2.0).abs() < 1e-15, "total {t}");
        }
        let e = bank_named_up(&comp, Card::new(6, 0), 17, &o)
            .unwrap_err()
            .to_string();
        assert!(e.contains("7H") && e.contains("7C or 7S"), "{e}");
        let none = Composition::from_removed(1, "KH,KD,KC,KS").unwrap();
        assert!(bank_random_up(&none, 9, 17, &o).is_none());
        // A full shoe: every suit alike, so the random card is any named one.
        let full = Composition::full(1);
        let random = bank_random_up(&full, 6, 17, &o).unwrap();
        let h = bank_named_up(&full, Card::new(6, 0), 17, &o).unwrap();
        assert!(random.iter().zip(h).all(|(a, b)| (a - b).abs() < 1e-15));
    }
}
