//! `tahur ocho deal`: exact odds of the deal by counting, and the same figures from simulated
//! deals of the engine with their distance in standard errors.
//!
//! A hand is a uniformly random set of `h` of the `N = 54·d` cards (d decks), so the chance it
//! holds `k` cards of a kind of `K` copies is hypergeometric: C(K, k)·C(N − K, h − k)/C(N, h).
//!
//! The starter's chance of a card that plays on the turned card. The turned card is the first
//! non-joker of the stock (a joker turned goes back into it), so given the starter's hand H it is
//! uniform over the non-jokers not in H. Conditioning on the `j` jokers of H, H's other `h − j`
//! cards are a uniform subset of the 52d − 1 non-jokers other than the turned card c, and c is
//! uniform over the 52d non-jokers. The cards that play on c (its suit, its value, the 8s) number
//! 19d − 1 besides c, or 16d − 1 when c is an 8; a joker plays when jokers go on any card, or on
//! a 3. So the chance of no play is
//! Σ_j P(j) · Σ_c P(c) · [no joker plays or j = 0] · C(52d − 1 − L(c), h − j) / C(52d − 1, h − j).
//! Every count is an exact integer (`u128`); each probability is one division.

use serde::{Deserialize, Serialize};

use super::cards::{
    count, rank_mask, suit_mask, CardSet, ACE, EIGHT, EIGHTS, JACK, JOKER, JOKERS, KING, SPECIALS,
    THREE, TWO,
};
use super::engine::OchoState;
use super::rules::{JokerRule, Rules};
use crate::humanize;
use crate::play::{GameRules, State};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::Proportion;

/// C(n, k) exactly (0 when k > n).
pub fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) / (i + 1) stays an integer at every step.
        c = c * (n - i) as u128 / (i + 1) as u128;
    }
    c
}

/// P(k of the K cards of a kind are in a hand of h from N), exactly, as a double.
pub fn hypergeometric(total: u32, kind: u32, hand: u32, k: u32) -> f64 {
    if k > kind || k > hand || hand - k > total - kind {
        return 0.0;
    }
    (binomial(kind, k) * binomial(total - kind, hand - k)) as f64 / binomial(total, hand) as f64
}

/// The kinds of card whose chance in a hand is reported: identifier, name, cards of one deck.
pub const KINDS: [(&str, &str, u8); 7] = [
    ("ace", "A", ACE),
    ("two", "2", TWO),
    ("three", "3", THREE),
    ("joker", "joker", JOKER),
    ("eight", "8", EIGHT),
    ("jack", "J", JACK),
    ("king", "K", KING),
];

/// The classes of the turned card that decide what plays on it: an 8, a 3, any other.
pub const TURNED: [(&str, &str); 3] = [
    ("eight", "an 8"),
    ("three", "a 3"),
    ("other", "any other card"),
];

/// The exact deal facts of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct DealFacts {
    /// The rules.
    pub rules: Rules,
    /// P(a hand holds at least one card of each kind of [`KINDS`]).
    pub holds: [f64; 7],
    /// P(a hand holds `k` specials), k = 0..=h.
    pub specials: Vec<f64>,
    /// The turned card's class ([`TURNED`]): its chance.
    pub turned: [f64; 3],
    /// P(the starter holds a card that plays on the turned card), by the turned card's class.
    pub legal_by_turned: [f64; 3],
    /// P(the starter holds a card that plays on the turned card).
    pub legal: f64,
}

/// Copies of a kind in play.
pub fn copies(rules: &Rules, rank: u8) -> u32 {
    if rank == JOKER {
        2 * rules.decks as u32
    } else {
        4 * rules.decks as u32
    }
}

impl DealFacts {
    /// Counts them.
    pub fn of(rules: &Rules) -> DealFacts {
        let d = rules.decks as u32;
        let n = rules.cards();
        let h = rules.hand as u32;
        let mut holds = [0.0; 7];
        for (p, (_, _, rank)) in holds.iter_mut().zip(KINDS) {
            *p = 1.0 - hypergeometric(n, copies(rules, rank), h, 0);
        }
        let specials = (0..=h).map(|k| hypergeometric(n, 26 * d, h, k)).collect();
        let jokers = 2 * d;
        let suited = 52 * d;
        // Class: (chance, cards besides it that play on it, whether a joker plays on it).
        let any = rules.joker == JokerRule::Any;
        let classes = [
            (1.0 / 13.0, 16 * d - 1, any),
            (1.0 / 13.0, 19 * d - 1, true),
            (11.0 / 13.0, 19 * d - 1, any),
        ];
        let mut legal_by_turned = [0.0; 3];
        for (out, &(_, plays, joker_plays)) in legal_by_turned.iter_mut().zip(&classes) {
            let mut none = 0.0;
            for j in 0..=jokers.min(h) {
                if j > 0 && joker_plays {
                    continue;
                }
                let pj = hypergeometric(n, jokers, h, j);
                let rest = h - j;
                let avoid =
                    binomial(suited - 1 - plays, rest) as f64 / binomial(suited - 1, rest) as f64;
                none += pj * avoid;
            }
            *out = 1.0 - none;
        }
        let turned = [classes[0].0, classes[1].0, classes[2].0];
        let legal = turned
            .iter()
            .zip(&legal_by_turned)
            .map(|(w, p)| w * p)
            .sum();
        DealFacts {
            rules: *rules,
            holds,
            specials,
            turned,
            legal_by_turned,
            legal,
        }
    }

    /// The mean number of specials in a hand (h · 26d / N).
    pub fn mean_specials(&self) -> f64 {
        self.specials
            .iter()
            .enumerate()
            .map(|(k, p)| k as f64 * p)
            .sum()
    }
}

/// The class of a turned card (index into [`TURNED`]).
pub fn turned_class(rank: u8) -> usize {
    match rank {
        EIGHT => 0,
        THREE => 1,
        _ => 2,
    }
}

/// The cards that play on `top` as the first turned card (its suit and value, the 8s, and the
/// jokers where they go).
pub fn plays_on(rules: &Rules, top: super::cards::Card) -> CardSet {
    let mut m = suit_mask(top.suit()) | rank_mask(top.rank()) | EIGHTS;
    if rules.joker == JokerRule::Any || top.rank() == THREE {
        m |= JOKERS;
    }
    m
}

/// Counts of simulated deals (the starter's hand and the turned card).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealTally {
    /// Deals.
    pub deals: u64,
    /// Deals whose starter held each kind of [`KINDS`].
    pub holds: Vec<u64>,
    /// Deals by the starter's number of specials.
    pub specials: Vec<u64>,
    /// Deals by the turned card's class ([`TURNED`]).
    pub turned: Vec<u64>,
    /// Of those, deals where the starter held a card that plays on it.
    pub legal_by_turned: Vec<u64>,
}

impl Tally for DealTally {
    fn absorb(&mut self, o: &Self) {
        use crate::play::sim::absorb_all;
        self.deals += o.deals;
        absorb_all(&mut self.holds, &o.holds, |a, b| *a += b);
        absorb_all(&mut self.specials, &o.specials, |a, b| *a += b);
        absorb_all(&mut self.turned, &o.turned, |a, b| *a += b);
        absorb_all(&mut self.legal_by_turned, &o.legal_by_turned, |a, b| {
            *a += b
        });
    }
}

/// Deals of the engine, counted.
pub struct DealSimulation {
    rules: Rules,
}

/// Deals per chunk.
pub const CHUNK: u64 = 4096;

impl DealSimulation {
    /// The simulation of a table's deals.
    pub fn new(rules: &Rules) -> Self {
        Self { rules: *rules }
    }
}

impl Simulation for DealSimulation {
    type Tally = DealTally;
    fn chunk_size(&self) -> u64 {
        CHUNK
    }
    fn empty_tally(&self) -> DealTally {
        DealTally {
            holds: vec![0; KINDS.len()],
            specials: vec![0; self.rules.hand as usize + 1],
            turned: vec![0; 3],
            legal_by_turned: vec![0; 3],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut DealTally) {
        for _ in 0..samples {
            let g = OchoState::deal(&self.rules, &crate::play::Start::default(), stream);
            let hand = g.hand(g.starter());
            t.deals += 1;
            for (k, (_, _, rank)) in KINDS.iter().enumerate() {
                t.holds[k] += (hand & rank_mask(*rank) != 0) as u64;
            }
            t.specials[count(hand & SPECIALS) as usize] += 1;
            let class = turned_class(g.top().rank());
            t.turned[class] += 1;
            t.legal_by_turned[class] += (hand & plays_on(&self.rules, g.top()) != 0) as u64;
        }
    }
}

/// The simulated rate's distance from the exact value in standard errors.
fn deviation(hits: u64, trials: u64, exact: f64) -> f64 {
    Proportion::new(hits, trials).z_score_against(exact)
}

/// The report: exact figures, and the simulated ones next to them when `sim` holds a run.
pub fn report(rules: &Rules, sim: Option<(&DealTally, &RunSummary)>) -> Report {
    let f = DealFacts::of(rules);
    let mut r = Report::new(format!(
        "Ocho loco · the deal · {} · {} cards each from {}",
        rules.describe(),
        rules.hand,
        rules.cards()
    ));
    if let Some((t, run)) = sim {
        r.run_size("deals", "simulated deals", t.deals, run);
    }
    let eight = f.holds[4];
    r.field_plain(
        "eight",
        "a hand holds an 8",
        Value::Prob(eight),
        humanize::odds(eight),
    );
    r.field(
        "mean_specials",
        "specials in a hand, on average (A, 2, 3, 8, J, K, joker)",
        Value::Num(f.mean_specials(), 4),
    );
    r.field_plain(
        "legal",
        "the starter can play on the turned card",
        Value::Prob(f.legal),
        format!("must draw {}", humanize::odds(1.0 - f.legal)),
    );
    let sim_columns = |mut cols: Vec<(&'static str, &'static str)>| {
        if sim.is_some() {
            cols.extend([
                ("simulated", "simulated"),
                ("deviation_se", "distance (SE)"),
            ]);
        }
        cols
    };
    let with_sim = |cells: &mut Vec<Value>, hits: u64, trials: u64, exact: f64| {
        if sim.is_some() {
            cells.push(Value::Prob(if trials == 0 {
                0.0
            } else {
                hits as f64 / trials as f64
            }));
            cells.push(if trials == 0 {
                Value::Empty
            } else {
                Value::Num(deviation(hits, trials, exact), 2)
            });
        }
    };
    let mut holds = Table::new(
        "holds",
        "A hand holds at least one",
        &sim_columns(vec![
            ("card", "card"),
            ("copies", "copies"),
            ("exact", "exact"),
        ]),
    );
    for (k, (id, name, rank)) in KINDS.iter().enumerate() {
        let mut cells = vec![
            Value::Label(name.to_string(), id.to_string()),
            Value::Int(copies(rules, *rank) as i64),
            Value::Prob(f.holds[k]),
        ];
        if let Some((t, _)) = sim {
            with_sim(&mut cells, t.holds[k], t.deals, f.holds[k]);
        }
        holds.push(cells);
    }
    r.tables.push(holds);
    let mut specials = Table::new(
        "specials",
        "Specials in a hand (A, 2, 3, 8, J, K, joker)",
        &sim_columns(vec![("specials", "specials"), ("exact", "exact")]),
    );
    for (k, &p) in f.specials.iter().enumerate() {
        let mut cells = vec![Value::Int(k as i64), Value::Prob(p)];
        if let Some((t, _)) = sim {
            with_sim(&mut cells, t.specials[k], t.deals, p);
        }
        specials.push(cells);
    }
    r.tables.push(specials);
    let mut legal = Table::new(
        "turned",
        "The starter holds a card that plays on the turned card",
        &sim_columns(vec![
            ("turned", "turned card"),
            ("chance", "its chance"),
            ("exact", "exact"),
        ]),
    );
    for (k, (id, name)) in TURNED.iter().enumerate() {
        let mut cells = vec![
            Value::Label(name.to_string(), id.to_string()),
            Value::Prob(f.turned[k]),
            Value::Prob(f.legal_by_turned[k]),
        ];
        if let Some((t, _)) = sim {
            with_sim(
                &mut cells,
                t.legal_by_turned[k],
                t.turned[k],
                f.legal_by_turned[k],
            );
        }
        legal.push(cells);
    }
    let mut cells = vec![
        Value::Label("every turned card".into(), "all".into()),
        Value::Prob(1.0),
        Value::Prob(f.legal),
    ];
    if let Some((t, _)) = sim {
        let hits: u64 = t.legal_by_turned.iter().sum();
        with_sim(&mut cells, hits, t.deals, f.legal);
    }
    legal.push(cells);
    r.tables.push(legal);
    r.note("Exact figures count hands: a hand is a uniformly random set of the cards, and the turned card is the first card of the stock that is not a joker (a joker turned goes back into the stock), so it is uniform over the cards not in the starter's hand that are not jokers. A card plays on the turned card by its suit or value, or being an 8, or a joker where jokers go (anywhere by default; with --joker three only on a 3).");
    if let Some((t, run)) = sim {
        r.note(format!(
            "Simulated: {} deals of the engine; the distance is (simulated − exact) in standard errors of the simulated rate, so most lie within ±2 and almost all within ±4.5.",
            humanize::thousands(t.deals)
        ));
        for n in run.notes() {
            r.note(n);
        }
    }
    r
}
