//! Exact deal facts by combinatorics: who opens, what sleeps, doubles per hand, hands without a
//! double, for any set, hand size and table; given your own tiles too. With `--samples`, the
//! same figures from the engine's own deals, each with its distance from the exact value in
//! standard errors.
//!
//! `players × hand` of the set's `T` tiles are dealt, every set of tiles equally likely; `d =
//! top + 1` of them are doubles. The double `k-k` opens when it is dealt and no higher double
//! is: `C(T − 1 − (top − k), D − 1) / C(T, D)` for `D` tiles dealt; no double is dealt with
//! chance `C(T − d, D) / C(T, D)` (then the heaviest tile dealt opens). A hand holds `j`
//! doubles with the hypergeometric chance `C(d, j) C(T − d, h − j) / C(T, h)`, and some hand
//! holds none with the inclusion–exclusion sum over the hands of `(−1)^(k+1) C(p, k)
//! C(T − d, kh) / C(T, kh)`.

use serde::{Deserialize, Serialize};

use super::engine::{deal, DominoState};
use super::rules::Rules;
use super::tiles::{full_set, set_size, Tile, TileSet, DOUBLES};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{wilson95, Proportion};

/// The binomial coefficient C(n, k) in floating point (0 when k > n), by the multiplicative
/// formula (every partial product is itself a binomial coefficient, so the value is exact
/// while it fits in 53 bits).
pub fn choose(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut c = 1.0f64;
    for i in 0..k {
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    c.round()
}

/// A deal to describe (serialisable: a simulation of it is a job a shard file carries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The highest number of the set (6: double-six); the library takes 0–9, the command line
    /// 6 and 9.
    pub top: u8,
    /// Tiles per hand.
    pub hand: u8,
    /// Players.
    pub players: u8,
    /// Your own tiles (the whole hand), if given.
    pub holding: Option<TileSet>,
}

impl Question {
    /// Tiles in the set.
    pub fn tiles(&self) -> usize {
        set_size(self.top)
    }
    /// Tiles dealt.
    pub fn dealt(&self) -> usize {
        self.players as usize * self.hand as usize
    }
    /// Refuses a deal that cannot be made, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if self.top > 9 {
            return Err(Error::usage(format!(
                "invalid set {}: sets go up to double-nine",
                self.top
            )));
        }
        if !(2..=4).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: dominó is for 2 to 4 players",
                self.players
            )));
        }
        if self.hand == 0 || self.dealt() > self.tiles() {
            return Err(Error::usage(format!(
                "invalid hand={}: {} players × {} tiles is more than the {} tiles of the set; give 1 to {} tiles each",
                self.hand,
                self.players,
                self.hand,
                self.tiles(),
                self.tiles() / self.players as usize
            )));
        }
        if let Some(h) = self.holding {
            if h & !full_set(self.top) != 0 {
                return Err(Error::usage("the holding names a tile outside the set"));
            }
            if h.count_ones() != self.hand as u32 {
                return Err(Error::usage(format!(
                    "the holding names {} tiles: give your whole hand of {}",
                    h.count_ones(),
                    self.hand
                )));
            }
        }
        Ok(())
    }
}

/// Facts given your own tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    /// P(double k-k opens), k = 0..=top.
    pub opens: Vec<f64>,
    /// P(no double is dealt).
    pub no_double: f64,
    /// P(you open).
    pub you_open: f64,
    /// P(a tile you do not hold sleeps).
    pub sleeps: f64,
    /// P(a tile you do not hold is in a given other hand).
    pub in_other_hand: f64,
}

/// The exact facts of a deal.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// P(double k-k opens), k = 0..=top.
    pub opens: Vec<f64>,
    /// P(no double is dealt).
    pub no_double: f64,
    /// P(a given tile sleeps).
    pub sleeps: f64,
    /// P(a hand holds j doubles), j = 0..=min(hand, top + 1).
    pub doubles_in_hand: Vec<f64>,
    /// P(j doubles sleep), j = 0..=min(sleeping, top + 1).
    pub doubles_sleeping: Vec<f64>,
    /// P(some hand holds no double).
    pub some_hand_without: f64,
    /// Given your own tiles.
    pub given: Option<Given>,
}

impl Facts {
    /// Mean doubles per hand.
    pub fn mean_doubles(&self) -> f64 {
        self.doubles_in_hand
            .iter()
            .enumerate()
            .map(|(j, p)| j as f64 * p)
            .sum()
    }
}

/// `C(k, j) C(n − k, m − j) / C(n, m)`: j marked among m drawn from n holding k marked.
fn hyper(n: usize, k: usize, m: usize, j: usize) -> f64 {
    if j > k || j > m || m - j > n - k {
        return 0.0;
    }
    choose(k, j) * choose(n - k, m - j) / choose(n, m)
}

/// The exact facts for `q` (checked first).
pub fn facts(q: &Question) -> Result<Facts> {
    q.validate()?;
    let t = q.tiles();
    let d = q.top as usize + 1;
    let dealt = q.dealt();
    let h = q.hand as usize;
    let p = q.players as usize;
    let all = choose(t, dealt);
    let opens = (0..d)
        .map(|k| choose(t - 1 - (q.top as usize - k), dealt - 1) / all)
        .collect();
    let mut some = 0.0;
    for k in 1..=p {
        let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
        some += sign * choose(p, k) * choose(t - d, k * h) / choose(t, k * h);
    }
    let given = q.holding.map(|mine| given(q, mine));
    Ok(Facts {
        opens,
        no_double: choose(t - d, dealt) / all,
        sleeps: (t - dealt) as f64 / t as f64,
        doubles_in_hand: (0..=h.min(d)).map(|j| hyper(t, d, h, j)).collect(),
        doubles_sleeping: (0..=(t - dealt).min(d))
            .map(|j| hyper(t, d, t - dealt, j))
            .collect(),
        some_hand_without: some.clamp(0.0, 1.0),
        given,
    })
}

/// The facts given your hand `mine`: the other `D − h` tiles dealt are a uniform choice from
/// the `T − h` you cannot see.
fn given(q: &Question, mine: TileSet) -> Given {
    let t = q.tiles();
    let h = q.hand as usize;
    let unseen = t - h;
    let others = q.dealt() - h;
    let all = choose(unseen, others);
    let doubles = DOUBLES & full_set(q.top);
    let my_doubles = mine & doubles;
    // Doubles above k that you do not hold (they must not be dealt).
    let above = |k: u8| {
        ((k + 1)..=q.top)
            .filter(|&j| mine & Tile::new(j, j).bit() == 0)
            .count()
    };
    let mut opens = vec![0.0; q.top as usize + 1];
    for k in 0..=q.top {
        let dk = Tile::new(k, k).bit();
        let higher_mine = ((k + 1)..=q.top).any(|j| mine & Tile::new(j, j).bit() != 0);
        opens[k as usize] = if higher_mine {
            0.0
        } else if mine & dk != 0 {
            choose(unseen - above(k), others) / all
        } else if others == 0 {
            0.0
        } else {
            choose(unseen - 1 - above(k), others - 1) / all
        };
    }
    let not_mine_doubles = (doubles & !mine).count_ones() as usize;
    let no_double = if my_doubles != 0 {
        0.0
    } else {
        choose(unseen - not_mine_doubles, others) / all
    };
    let you_open = if my_doubles != 0 {
        let k = Tile(63 - my_doubles.leading_zeros() as u8).high();
        choose(unseen - above(k), others) / all
    } else {
        // No double dealt to anyone, and no tile heavier than your heaviest.
        let heaviest = DominoState::opening_tile(mine);
        let heavier = super::tiles::tiles(full_set(q.top) & !mine)
            .filter(|x| x.is_double() || x.weight() > heaviest.weight())
            .count();
        choose(unseen - heavier, others) / all
    };
    Given {
        opens,
        no_double,
        you_open,
        sleeps: (t - q.dealt()) as f64 / unseen as f64,
        in_other_hand: h as f64 / unseen as f64,
    }
}

/// Counts of simulated deals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealTally {
    /// Deals.
    pub deals: u64,
    /// Deals opened by each double (index k: k-k).
    pub opens: Vec<u64>,
    /// Deals without a double.
    pub no_double: u64,
    /// Deals where the set's highest double sleeps.
    pub top_sleeps: u64,
    /// First hand holding j doubles.
    pub doubles_in_hand: Vec<u64>,
    /// Deals where some hand holds no double.
    pub some_hand_without: u64,
}

impl Tally for DealTally {
    fn absorb(&mut self, o: &Self) {
        self.deals += o.deals;
        crate::play::sim::absorb_all(&mut self.opens, &o.opens, |a, b| *a += b);
        self.no_double += o.no_double;
        self.top_sleeps += o.top_sleeps;
        crate::play::sim::absorb_all(&mut self.doubles_in_hand, &o.doubles_in_hand, |a, b| {
            *a += b
        });
        self.some_hand_without += o.some_hand_without;
    }
}

/// Deals by the engine's own dealing ([`deal`]), counted.
pub struct DealSimulation {
    rules: Rules,
}

/// Deals per chunk (part of a run's definition).
pub const DEAL_CHUNK: u64 = 65_536;

impl DealSimulation {
    /// The simulation of the deal of `q` (as the engine deals it).
    pub fn new(q: &Question) -> DealSimulation {
        let mut rules = Rules::standard(q.players);
        rules.set = q.top;
        rules.hand = q.hand;
        rules.pairs = false;
        DealSimulation { rules }
    }
}

impl Simulation for DealSimulation {
    type Tally = DealTally;
    fn chunk_size(&self) -> u64 {
        DEAL_CHUNK
    }
    fn empty_tally(&self) -> DealTally {
        DealTally {
            opens: vec![0; self.rules.set as usize + 1],
            doubles_in_hand: vec![0; self.rules.hand.min(self.rules.set + 1) as usize + 1],
            ..DealTally::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut DealTally) {
        let top = self.rules.set;
        let doubles = DOUBLES & full_set(top);
        let top_double = Tile::new(top, top).bit();
        for _ in 0..samples {
            let (hands, stock) = deal(&self.rules, stream);
            t.deals += 1;
            let dealt = full_set(top) & !stock;
            if dealt & doubles == 0 {
                t.no_double += 1;
            } else {
                t.opens[DominoState::opening_tile(dealt).high() as usize] += 1;
            }
            t.top_sleeps += (stock & top_double != 0) as u64;
            t.doubles_in_hand[(hands[0] & doubles).count_ones() as usize] += 1;
            t.some_hand_without += hands[..self.rules.players as usize]
                .iter()
                .any(|&h| h & doubles == 0) as u64;
        }
    }
}

/// A simulated count next to its exact chance: the rate, and its distance in standard errors.
fn simulated(row: &mut Vec<Value>, hits: u64, n: u64, exact: f64) {
    let p = Proportion::new(hits, n);
    row.push(Value::Prob(p.estimate()));
    row.push(if n > 0 && exact > 0.0 && exact < 1.0 {
        Value::Num(p.z_score_against(exact), 2)
    } else {
        Value::Empty
    });
}

/// The report of the deal facts, with the simulated ones when a run is given.
pub fn report(q: &Question, f: &Facts, sim: Option<(&DealTally, &RunSummary)>) -> Report {
    let t = q.tiles();
    let name = match q.top {
        6 => "double-six".to_string(),
        9 => "double-nine".to_string(),
        n => format!("double-{n}"),
    };
    let mut r = Report::new(format!(
        "Dominó deal · {name}, {} players × {} tiles, {} sleeping",
        q.players,
        q.hand,
        t - q.dealt()
    ));
    if let Some((tally, run)) = sim {
        r.run_size("deals", "simulated deals", tally.deals, run);
    }
    r.field("tiles", "tiles in the set", Value::Int(t as i64));
    r.field("dealt", "tiles dealt", Value::Int(q.dealt() as i64));
    r.field(
        "sleeping",
        "tiles sleeping",
        Value::Int((t - q.dealt()) as i64),
    );
    let sim_field = |r: &mut Report, key: &str, hits: u64, exact: f64| {
        if let Some((tally, _)) = sim {
            let (p, ci) = wilson95(hits, tally.deals);
            r.field(
                &format!("{key}_simulated"),
                "simulated",
                Value::Prob(p.estimate()),
            );
            r.field(
                &format!("{key}_ci95"),
                "95 % interval",
                Value::ProbInterval(ci.low, ci.high),
            );
            if exact > 0.0 && exact < 1.0 {
                r.field(
                    &format!("{key}_deviation_se"),
                    "distance from exact (SE)",
                    Value::Num(p.z_score_against(exact), 2),
                );
            }
        }
    };
    r.field_plain(
        "tile_sleeps",
        "a given tile sleeps",
        Value::Prob(f.sleeps),
        humanize::odds(f.sleeps),
    );
    sim_field(
        &mut r,
        "top_double_sleeps",
        sim.map_or(0, |s| s.0.top_sleeps),
        f.sleeps,
    );
    r.field_plain(
        "no_double_dealt",
        "no double is dealt (the heaviest tile dealt opens)",
        Value::Prob(f.no_double),
        humanize::odds(f.no_double),
    );
    sim_field(
        &mut r,
        "no_double_dealt",
        sim.map_or(0, |s| s.0.no_double),
        f.no_double,
    );
    r.field(
        "mean_doubles_per_hand",
        "doubles per hand, on average",
        Value::Num(f.mean_doubles(), 4),
    );
    let none = f.doubles_in_hand[0];
    r.field_plain(
        "hand_without_double",
        "a player holds no double",
        Value::Prob(none),
        humanize::odds(none),
    );
    r.field_plain(
        "some_hand_without_double",
        "some player holds no double",
        Value::Prob(f.some_hand_without),
        humanize::odds(f.some_hand_without),
    );
    sim_field(
        &mut r,
        "some_hand_without_double",
        sim.map_or(0, |s| s.0.some_hand_without),
        f.some_hand_without,
    );
    if let Some(g) = &f.given {
        r.field_plain(
            "you_open",
            "you open, given your tiles",
            Value::Prob(g.you_open),
            humanize::odds(g.you_open),
        );
        r.field_plain(
            "unseen_tile_sleeps",
            "a tile you do not hold sleeps",
            Value::Prob(g.sleeps),
            humanize::odds(g.sleeps),
        );
        r.field_plain(
            "unseen_tile_in_a_hand",
            "a tile you do not hold is in a given other hand",
            Value::Prob(g.in_other_hand),
            humanize::odds(g.in_other_hand),
        );
    }
    // Who opens.
    let mut cols: Vec<(&str, &str)> = vec![
        ("opening", "opens"),
        ("exact", "chance"),
        ("reading", "in words"),
    ];
    if f.given.is_some() {
        cols.push(("given_hand", "given your tiles"));
    }
    if sim.is_some() {
        cols.extend([
            ("simulated", "simulated"),
            ("deviation_se", "distance (SE)"),
        ]);
    }
    let mut opens = Table::new("opener", "The tile that opens", &cols);
    opens.top_level = true;
    let mut rows: Vec<(Value, f64, Option<f64>, u64)> = (0..=q.top)
        .rev()
        .map(|k| {
            (
                Value::Label(format!("double {k}-{k}"), format!("{k}-{k}")),
                f.opens[k as usize],
                f.given.as_ref().map(|g| g.opens[k as usize]),
                sim.map_or(0, |s| s.0.opens[k as usize]),
            )
        })
        .collect();
    rows.push((
        Value::Label("no double dealt: the heaviest tile".into(), "none".into()),
        f.no_double,
        f.given.as_ref().map(|g| g.no_double),
        sim.map_or(0, |s| s.0.no_double),
    ));
    for (label, exact, given, hits) in rows {
        let mut row = vec![
            label,
            Value::Prob(exact),
            Value::Text(humanize::odds(exact)),
        ];
        if let Some(g) = given {
            row.push(Value::Prob(g));
        }
        if let Some((tally, _)) = sim {
            simulated(&mut row, hits, tally.deals, exact);
        }
        opens.push(row);
    }
    r.tables.push(opens);
    let mut cols: Vec<(&str, &str)> = vec![("doubles", "doubles"), ("exact", "chance")];
    if sim.is_some() {
        cols.extend([
            ("simulated", "simulated (first hand)"),
            ("deviation_se", "distance (SE)"),
        ]);
    }
    let mut per_hand = Table::new("doubles_per_hand", "Doubles in one hand", &cols);
    for (j, &p) in f.doubles_in_hand.iter().enumerate() {
        let mut row = vec![Value::Int(j as i64), Value::Prob(p)];
        if let Some((tally, _)) = sim {
            simulated(&mut row, tally.doubles_in_hand[j], tally.deals, p);
        }
        per_hand.push(row);
    }
    r.tables.push(per_hand);
    let mut sleeping = Table::new(
        "doubles_sleeping",
        "Doubles among the sleeping tiles",
        &[("doubles", "doubles"), ("exact", "chance")],
    );
    for (j, &p) in f.doubles_sleeping.iter().enumerate() {
        sleeping.push(vec![Value::Int(j as i64), Value::Prob(p)]);
    }
    r.tables.push(sleeping);
    r.note("Every set of tiles is equally likely to be dealt. The highest double dealt opens; when no double is dealt, the heaviest tile dealt (most pips, then the higher half).");
    if sim.is_some() {
        r.note("Simulated figures come from the engine's own deals (the ones games are played from), unconditional on your tiles; the distance is (simulated − exact) / SE at the exact value, and within ±4.5 for a correct deal.");
    }
    if let Some((_, run)) = sim {
        for n in run.notes() {
            r.note(n);
        }
    }
    r
}
