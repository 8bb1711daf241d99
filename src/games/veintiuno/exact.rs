//! Exact figures: the two-card specials from any composition (enumeration of every pair of
//! cards) and the bank's final total by up card, for an infinite deck and for a given
//! composition (recursion over the cards left, memoised by the ranks left).

use std::collections::HashMap;

use serde::Serialize;

use super::cards::{rank_points, Card, Composition, DECK, RANK_COUNT};
use super::rules::{two_card, Options, Points, TwoCard};

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

/// The bank's final total dealt from `comp` (which no longer holds the up card); the bank
/// stands at `stand` or more.
pub fn bank_from(comp: &Composition, up: Card, stand: u8, opts: &Options) -> BankDistribution {
    let mut dist = [0.0; 23];
    let total = comp.total() as f64;
    let mut memo: HashMap<([u8; RANK_COUNT], u8, bool), BankDistribution> = HashMap::new();
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
            let sub = draw_from(ranks, pts, stand, &mut memo);
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
    memo: &mut HashMap<([u8; RANK_COUNT], u8, bool), BankDistribution>,
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

/// The report of `tahur veintiuno bank`: the bank's final total by up card.
pub fn bank_report(comp: Option<&Composition>, stand: u8, opts: &Options) -> crate::report::Report {
    use crate::report::{Report, Table, Value};
    let mut r = Report::new(format!(
        "21 ecuatoriano · bank's final total by up card · stands at {stand} · {}",
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
    for up in 0..RANK_COUNT {
        let d = match comp {
            Some(comp) => {
                // The up card comes out of the composition (any suit held).
                match (0..4)
                    .map(|s| Card::new(up, s))
                    .find(|c| comp.counts[c.index()] > 0)
                {
                    Some(upc) => {
                        let mut rest = comp.clone();
                        rest.counts[upc.index()] -= 1;
                        bank_from(&rest, upc, stand, opts)
                    }
                    None => continue,
                }
            }
            None => bank_infinite(up, stand, opts),
        };
        let mut row = vec![Value::Text(super::cards::RANKS[up].into())];
        // Totals below the standing total only occur through specials such as 12 → 20.
        for tot in stand.min(20)..=21 {
            row.push(Value::Prob(d[tot as usize]));
        }
        row.push(Value::Prob(d[BUST]));
        t.push(row);
    }
    r.tables.push(t);
    r.note("The bank's two-card specials count: 21 in two cards and moñona are 21, a 12 counts 20 (21 of one suit).");
    r
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
}
