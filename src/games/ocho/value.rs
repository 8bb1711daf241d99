//! `tahur ocho value`: what each special card is worth. Each deal is played as dealt, and again
//! with one plain card (4, 5, 6, 7, 9, 10 or Q) of one seat's hand swapped with a card of one
//! special kind (A, 2, 3, joker, 8, J, K) from the stock; the special's value is the change in
//! that seat's chance of going out first, and of being left last. One more variant prices
//! «voy por una»: the same seat forgetting it at a given rate.
//!
//! Common random numbers: every variant of a deal starts from the same cards (but the one swap),
//! replays the same reshuffles and asks the bots with the same decision stream, so most of the
//! luck cancels and each change is a paired difference with its 95 % interval
//! ([`crate::stats::paired_proportions`]). The seat is drawn at random per deal (every position
//! after the dealer alike), and so are its plain card and the stock's copy of each special; a
//! deal where the stock holds no copy of a kind gives no pair for that kind, and a deal where the
//! seat holds no plain card gives none at all (both are counted).

use serde::{Deserialize, Serialize};

use super::bots::{Bot, Strategy};
use super::cards::{
    count, nth, rank_mask, CardSet, ACE, EIGHTS, JACK, JOKERS, KING, PLAIN, THREE, TWO,
};
use super::engine::OchoState;
use super::Ocho;
use crate::humanize;
use crate::play::{game_streams, Seat, State, TableSetup};
use crate::report::{Report, Table, Value};
use crate::rng::{uniform_below, Stream};
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{paired_proportions, PairedCounts};

/// The special kinds priced, in the order of the report: identifier, name, cards.
pub const KINDS: [(&str, &str, CardSet); 7] = [
    ("ace", "A (plays again)", rank_mask(ACE)),
    ("two", "2 (next player skips)", rank_mask(TWO)),
    ("three", "3 (draw three)", rank_mask(THREE)),
    ("joker", "joker (draw three, keeps the suit)", JOKERS),
    ("eight", "8 (names a suit)", EIGHTS),
    ("jack", "J (reverses)", rank_mask(JACK)),
    ("king", "K (reverses)", rank_mask(KING)),
];

/// Deals per chunk (each deal is played 9 times), and with a searching bot.
pub const CHUNK: u64 = 64;
/// Deals per chunk when a seat searches.
pub const SLOW_CHUNK: u64 = 1;

/// The question: a table, and the forgetting rate of the «voy por una» variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueSetup {
    /// The table (rules and strategies by seat).
    pub table: TableSetup<Ocho>,
    /// The measured seat's chance of forgetting «voy por una» in the last variant.
    pub forget: f64,
}

/// One variant against the deal as dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowTally {
    /// Pairs played (deals where the variant exists).
    pub pairs: u64,
    /// The measured seat went out first: in the variant (A) and as dealt (B).
    pub first: PairedCounts,
    /// The measured seat was left last: in the variant (A) and as dealt (B).
    pub last: PairedCounts,
    /// Pairs where either game reached the action cap (they count as neither first nor last).
    pub capped: u64,
    /// «Voy por una» forgotten by the measured seat in the variant, summed.
    pub forgotten: u64,
}

impl RowTally {
    fn absorb(&mut self, o: &RowTally) {
        self.pairs += o.pairs;
        self.first.absorb(&o.first);
        self.last.absorb(&o.last);
        self.capped += o.capped;
        self.forgotten += o.forgotten;
    }
}

/// Counts from many deals (integers only, so chunks add up exactly).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueTally {
    /// Deals looked at.
    pub deals: u64,
    /// Deals where the measured seat held no plain card (no pair).
    pub no_plain: u64,
    /// One row per special kind ([`KINDS`]), then the forgetting variant.
    pub rows: Vec<RowTally>,
    /// Actions a bot chose that the engine refused (0 unless a bot is broken).
    pub illegal_actions: u64,
}

impl Tally for ValueTally {
    fn absorb(&mut self, o: &Self) {
        self.deals += o.deals;
        self.no_plain += o.no_plain;
        if self.rows.len() < o.rows.len() {
            self.rows.resize(o.rows.len(), RowTally::default());
        }
        for (a, b) in self.rows.iter_mut().zip(&o.rows) {
            a.absorb(b);
        }
        self.illegal_actions += o.illegal_actions;
    }
}

/// How one game went for the measured seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Result1 {
    first: bool,
    last: bool,
    capped: bool,
    forgotten: u64,
}

/// Plays `game` to its end: seat `s` by `bots[s]`, or by `other` when `s == swap_seat`.
fn play_out(
    mut game: OchoState,
    bots: &mut [Bot],
    other: Option<(Seat, &mut Bot)>,
    seat: Seat,
    deal: &mut Stream,
    decisions: &mut Stream,
    illegal: &mut u64,
) -> Result1 {
    let mut other = other;
    let mut forgotten = 0u64;
    while !game.is_over() {
        let s = game.to_act();
        let before = game.forgotten();
        let view = game.view(s);
        let action = match &mut other {
            Some((o, bot)) if *o == s => bot.act(&view, decisions),
            _ => bots[s].act(&view, decisions),
        };
        if game.apply(action, deal).is_err() {
            *illegal += 1;
            return Result1 {
                first: false,
                last: false,
                capped: true,
                forgotten,
            };
        }
        if s == seat {
            forgotten += (game.forgotten() - before) as u64;
        }
    }
    // A game stopped at the cap after somebody went out still has its first out.
    Result1 {
        first: game.first_out() == Some(seat),
        last: game.last_place() == Some(seat),
        capped: game.is_capped(),
        forgotten,
    }
}

/// The `value` simulation.
pub struct ValueSimulation {
    setup: ValueSetup,
}

impl ValueSimulation {
    /// The simulation of a question.
    pub fn new(setup: &ValueSetup) -> Self {
        Self {
            setup: setup.clone(),
        }
    }

    fn forgetful(&self) -> Vec<Bot> {
        self.setup
            .table
            .strategies
            .iter()
            .map(|s| {
                Bot::new(Strategy {
                    forget: self.setup.forget,
                    ..*s
                })
            })
            .collect()
    }

    /// Plays one deal and its variants into `t`.
    fn deal(
        &self,
        stream: &mut Stream,
        bots: &mut [Bot],
        forgetful: &mut [Bot],
        t: &mut ValueTally,
    ) {
        let rules = &self.setup.table.rules;
        let (mut deal, decisions) = game_streams(stream);
        let base = OchoState::deal(rules, &crate::play::Start::default(), &mut deal);
        t.deals += 1;
        let seat: Seat = uniform_below(&mut deal, rules.players as usize);
        let plain = base.hand(seat) & PLAIN;
        if plain == 0 {
            t.no_plain += 1;
            return;
        }
        let card = nth(
            plain,
            uniform_below(&mut deal, count(plain) as usize) as u32,
        );
        let stock = base.stock_set();
        let mut picks = [None; KINDS.len()];
        for (pick, (_, _, mask)) in picks.iter_mut().zip(KINDS) {
            let copies = stock & mask;
            if copies != 0 {
                *pick = Some(nth(
                    copies,
                    uniform_below(&mut deal, count(copies) as usize) as u32,
                ));
            }
        }
        let play = |game: OchoState,
                    bots: &mut [Bot],
                    other: Option<(Seat, &mut Bot)>,
                    illegal: &mut u64| {
            play_out(
                game,
                bots,
                other,
                seat,
                &mut deal.clone(),
                &mut decisions.clone(),
                illegal,
            )
        };
        let dealt = play(base.clone(), bots, None, &mut t.illegal_actions);
        let record = |row: &mut RowTally, v: Result1| {
            row.pairs += 1;
            row.first.add(v.first, dealt.first);
            row.last.add(v.last, dealt.last);
            row.capped += (v.capped || dealt.capped) as u64;
            row.forgotten += v.forgotten;
        };
        for (k, pick) in picks.iter().enumerate() {
            if let Some(special) = *pick {
                let mut g = base.clone();
                g.swap_with_stock(seat, card, special)
                    .expect("the plain card is in the hand and the special in the stock");
                let v = play(g, bots, None, &mut t.illegal_actions);
                record(&mut t.rows[k], v);
            }
        }
        let v = play(
            base,
            bots,
            Some((seat, &mut forgetful[seat])),
            &mut t.illegal_actions,
        );
        record(&mut t.rows[KINDS.len()], v);
    }
}

impl Simulation for ValueSimulation {
    type Tally = ValueTally;
    fn chunk_size(&self) -> u64 {
        if self.setup.table.is_slow() {
            SLOW_CHUNK
        } else {
            CHUNK
        }
    }
    fn empty_tally(&self) -> ValueTally {
        ValueTally {
            rows: vec![RowTally::default(); KINDS.len() + 1],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut ValueTally) {
        let mut bots = self.setup.table.bots();
        let mut forgetful = self.forgetful();
        for _ in 0..samples {
            self.deal(stream, &mut bots, &mut forgetful, t);
        }
    }
}

/// A difference in percentage points, signed: "+4.10", "−0.35".
fn points(x: f64) -> String {
    let s = format!("{:.2}", 100.0 * x.abs());
    if x < 0.0 && s != "0.00" {
        format!("−{s}")
    } else {
        format!("+{s}")
    }
}

/// The chart of `ocho value`: what each special (and forgetting «voy por una») changes in the
/// chance of going out first, paired on the same deals, a dot with its 95 % interval in
/// percentage points, and a dashed line at zero (a plain card).
pub fn chart(setup: &ValueSetup, t: &ValueTally) -> crate::report::chart::Chart {
    use crate::report::chart::{Chart, Dot, DotChart, RefLine, Unit};
    let names = KINDS
        .iter()
        .map(|(_, name, _)| name.to_string())
        .chain([format!(
            "forgetting «voy por una» {} of the time",
            humanize::percent(setup.forget)
        )]);
    let dots = names
        .zip(&t.rows)
        .map(|(name, row)| {
            let d = paired_proportions(&row.first, row.pairs);
            Dot {
                label: name,
                value: 100.0 * d.difference,
                low: 100.0 * d.interval.low,
                high: 100.0 * d.interval.high,
            }
        })
        .collect();
    Chart::Dot(DotChart {
        title: format!(
            "Ocho loco · what each special card is worth · {}",
            setup.table.describe()
        ),
        x_label: "change in the chance of going out first (percentage points)".into(),
        x_unit: Unit::Number,
        dots,
        dot_legend: "in place of a plain card, paired, 95 % interval".into(),
        marks: vec![RefLine::new(0.0, "a plain card")],
    })
}

/// The report.
pub fn report(setup: &ValueSetup, t: &ValueTally, run: &RunSummary) -> Report {
    let table = &setup.table;
    let mut r = Report::new(format!(
        "Ocho loco · what each special card is worth · {}",
        table.describe()
    ));
    r.run_size("deals", "deals", t.deals, run);
    r.field(
        "no_plain",
        "deals skipped: the seat held no plain card",
        Value::Int(t.no_plain as i64),
    );
    let mut rows = Table::new(
        "specials",
        "One plain card of a random seat's hand replaced by a special (paired, same deals)",
        &[
            ("special", "in place of a plain card"),
            ("pairs", "pairs"),
            ("first_plain", "first out, plain"),
            ("first_special", "with it"),
            ("first_change", "change (points)"),
            ("first_ci95", "95 % interval"),
            ("first_p_value", "p-value"),
            ("last_plain", "last, plain"),
            ("last_special", "with it"),
            ("last_change", "change (points)"),
            ("last_ci95", "95 % interval"),
            ("last_p_value", "p-value"),
        ],
    );
    rows.top_level = true;
    let forget_name = format!(
        "forgetting «voy por una» {} of the time",
        humanize::percent(setup.forget)
    );
    let names = KINDS
        .iter()
        .map(|(id, name, _)| (id.to_string(), name.to_string()))
        .chain([("forget".to_string(), forget_name.clone())]);
    let mut best: Option<(f64, String)> = None;
    for ((id, name), row) in names.zip(&t.rows) {
        let first = paired_proportions(&row.first, row.pairs);
        let last = paired_proportions(&row.last, row.pairs);
        if id != "forget"
            && row.pairs > 0
            && best.as_ref().is_none_or(|(d, _)| first.difference > *d)
        {
            best = Some((first.difference, name.clone()));
        }
        let change = |d: &crate::stats::PairedDifference| -> [Value; 3] {
            [
                Value::RateDiff(d.difference),
                Value::RateDiffInterval(d.interval.low, d.interval.high),
                Value::PValue(d.p_value),
            ]
        };
        let mut cells = vec![
            Value::Label(name, id),
            Value::Int(row.pairs as i64),
            Value::Prob(first.b),
            Value::Prob(first.a),
        ];
        cells.extend(change(&first));
        cells.extend([Value::Prob(last.b), Value::Prob(last.a)]);
        cells.extend(change(&last));
        rows.push(cells);
    }
    if let Some((d, name)) = best {
        r.field_plain(
            "most_valuable",
            "worth most (first out)",
            Value::Text(name.split(" (").next().unwrap_or(&name).to_string()),
            format!("{} points of going out first", points(d)),
        );
    }
    if let Some(row) = t.rows.get(KINDS.len()) {
        let first = paired_proportions(&row.first, row.pairs);
        let last = paired_proportions(&row.last, row.pairs);
        let per_game = if row.pairs == 0 {
            0.0
        } else {
            row.forgotten as f64 / row.pairs as f64
        };
        r.field(
            "forget_rate",
            "forgetting rate priced",
            Value::Prob(setup.forget),
        );
        r.field_plain(
            "forgotten_per_game",
            "«voy por una» forgotten per game at that rate",
            Value::Num(per_game, 3),
            format!("{:.2} cards drawn for it per game", 3.0 * per_game),
        );
        r.field_plain(
            "forget_first_change",
            "its cost: change in going out first (points)",
            Value::RateDiff(first.difference),
            format!(
                "{} points, p {}",
                points(first.difference),
                Value::PValue(first.p_value).display()
            ),
        );
        r.field_plain(
            "forget_last_change",
            "its cost: change in being left last (points)",
            Value::RateDiff(last.difference),
            format!(
                "{} points, p {}",
                points(last.difference),
                Value::PValue(last.p_value).display()
            ),
        );
    }
    r.tables.push(rows);
    let capped: u64 = t.rows.iter().map(|x| x.capped).sum();
    r.note("Each row plays the same deals twice: as dealt, and with one plain card (4, 5, 6, 7, 9, 10 or Q) of a random seat's hand swapped with a copy of that special from the stock; the change is that seat's chance with the special minus without, paired deal by deal (the same reshuffles and decision draws), so the interval is that of the per-deal differences. A deal whose stock holds no copy of a kind gives no pair for it.");
    r.note("First out is the game's winner («gana quien lo hace primero»); last is the player left holding cards. A positive change in first out and a negative one in last mean the card helps.");
    if capped > 0 {
        r.note(format!(
            "{} reached the action cap unfinished: a seat that had gone out first counts as first, none counts as last.",
            crate::text::count_of(capped, "pairs")
        ));
    }
    if t.illegal_actions > 0 {
        r.note(format!(
            "{} broke a rule and were stopped: this is a bug, please report it.",
            crate::text::count_of(t.illegal_actions, "games")
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}
