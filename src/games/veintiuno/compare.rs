//! `tahur veintiuno compare`: two house-rule sets side by side on common random numbers.
//!
//! Chunk *i* of both variants starts its table from the same stream (same first shuffle, same
//! first bank); the variants drift apart as the rules change play, so the comparison is paired
//! chunk by chunk (4096 hands each): every difference is the mean of per-chunk differences, its
//! interval and z test come from their spread, which is valid whatever the correlation. All
//! sums are integers, so merges of shards are exact.

use serde::{Deserialize, Serialize};

use super::sim::{HandSimulation, HandTally, TableSetup, HANDS_CHUNK};
use crate::error::{Error, Result};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{z_for_confidence, MeanEstimate};

/// Two variants of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSetup {
    /// Variant A.
    pub a: TableSetup,
    /// Variant B.
    pub b: TableSetup,
    /// The variants' specs, for the report.
    pub names: [String; 2],
}

impl CompareSetup {
    /// Checks the variants seat the same players.
    pub fn new(a: TableSetup, b: TableSetup, names: [String; 2]) -> Result<Self> {
        if a.policies != b.policies {
            return Err(Error::usage(
                "the two variants must seat the same players with the same policies",
            ));
        }
        if a == b {
            return Err(Error::usage(format!(
                "--a '{}' and --b '{}' give the same rules: change at least one house rule",
                names[0], names[1]
            )));
        }
        Ok(Self { a, b, names })
    }
}

/// Integer sums of per-chunk differences for one metric.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSums {
    /// Σ (A − B) over chunks.
    pub sum: i64,
    /// Σ (A − B)².
    pub sum_sq: u128,
}

impl PairedSums {
    fn add(&mut self, d: i64) {
        self.sum += d;
        self.sum_sq += (d as i128 * d as i128) as u128;
    }
    fn absorb(&mut self, o: &Self) {
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
}

/// The comparison's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareTally {
    /// Variant A.
    pub a: HandTally,
    /// Variant B.
    pub b: HandTally,
    /// Chunks compared.
    pub chunks: u64,
    /// The bank's net, per chunk.
    pub bank: PairedSums,
    /// Each seat's net as a player, per chunk.
    pub seats: Vec<PairedSums>,
    /// Bank steals, per chunk.
    pub steals: PairedSums,
}

impl Tally for CompareTally {
    fn absorb(&mut self, o: &Self) {
        self.a.absorb(&o.a);
        self.b.absorb(&o.b);
        self.chunks += o.chunks;
        self.bank.absorb(&o.bank);
        if self.seats.len() < o.seats.len() {
            self.seats.resize(o.seats.len(), PairedSums::default());
        }
        for (x, y) in self.seats.iter_mut().zip(&o.seats) {
            x.absorb(y);
        }
        self.steals.absorb(&o.steals);
    }
}

/// The paired simulation.
pub struct CompareSimulation {
    a: HandSimulation,
    b: HandSimulation,
    seats: usize,
}

impl CompareSimulation {
    /// The simulation of a comparison.
    pub fn new(setup: &CompareSetup) -> Self {
        Self {
            a: HandSimulation::new(&setup.a),
            b: HandSimulation::new(&setup.b),
            seats: setup.a.policies.len(),
        }
    }
}

impl Simulation for CompareSimulation {
    type Tally = CompareTally;
    fn chunk_size(&self) -> u64 {
        HANDS_CHUNK
    }
    fn empty_tally(&self) -> CompareTally {
        CompareTally {
            a: self.a.empty_tally(),
            b: self.b.empty_tally(),
            seats: vec![PairedSums::default(); self.seats],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, hands: u64, t: &mut CompareTally) {
        let (mut ta, mut tb) = (self.a.empty_tally(), self.b.empty_tally());
        let start = stream.clone();
        self.a.run_chunk(&mut start.clone(), hands, &mut ta);
        self.b.run_chunk(stream, hands, &mut tb);
        t.chunks += 1;
        t.bank.add(ta.bank_net - tb.bank_net);
        for s in 0..self.seats {
            t.seats[s].add(ta.player_net[s] - tb.player_net[s]);
        }
        t.steals.add(ta.steals as i64 - tb.steals as i64);
        t.a.absorb(&ta);
        t.b.absorb(&tb);
    }
}

/// Per-hand means of A and B, and the per-chunk differences' estimate scaled to one hand.
fn paired(
    sums: &PairedSums,
    chunks: u64,
    hands: u64,
    a_total: i64,
    b_total: i64,
) -> (f64, f64, MeanEstimate, f64) {
    let per_hand = |x: i64| x as f64 / hands.max(1) as f64;
    let chunk = MeanEstimate::from_sums(chunks, sums.sum as i128, sums.sum_sq);
    let per = hands.max(1) as f64 / chunks.max(1) as f64; // hands per chunk
    let d = MeanEstimate {
        n: chunk.n,
        mean: chunk.mean / per,
        sd: chunk.sd / per,
    };
    let dz = if chunk.sd > 0.0 {
        chunk.mean / chunk.sd
    } else {
        0.0
    };
    (per_hand(a_total), per_hand(b_total), d, dz)
}

/// The report.
pub fn report(setup: &CompareSetup, t: &CompareTally, run: &RunSummary) -> Report {
    let mut r = Report::new(format!(
        "21 ecuatoriano compare · A: {} · B: {}",
        setup.names[0], setup.names[1]
    ));
    r.field("hands", "hands per variant", Value::Int(t.a.hands as i64));
    r.field("chunks", "paired chunks", Value::Int(t.chunks as i64));
    r.field("seed", "seed", Value::Int(run.spec.seed as i64));
    let z = z_for_confidence(0.95);
    let mut table = Table::new(
        "comparisons",
        "A against B, per hand (paired by chunks of 4096 hands)",
        &[
            ("metric", "metric"),
            ("a", "A"),
            ("b", "B"),
            ("difference", "A − B"),
            ("ci95", "95 % interval"),
            ("p_value", "p-value"),
            ("effect_size", "effect size (d_z per chunk)"),
            ("hands_to_detect", "hands to detect"),
        ],
    );
    table.top_level = true;
    let mut push = |name: String, sums: &PairedSums, a: i64, b: i64| {
        let (va, vb, est, dz) = paired(sums, t.chunks, t.a.hands, a, b);
        let (d, se, p) = (est.mean, est.standard_error(), est.p_value_against_zero());
        let needed = if d != 0.0 && se > 0.0 {
            // hands for 80 % power at α = 0.05: (z_α/2 + z_β)² · (SE · √hands)² / d²
            let sd_hand = se * (t.a.hands as f64).sqrt();
            Value::Int(((z + 0.8416) * sd_hand / d).powi(2).ceil() as i64)
        } else {
            Value::Empty
        };
        table.push(vec![
            Value::Text(name),
            Value::Num(va, 5),
            Value::Num(vb, 5),
            Value::Num(d, 5),
            Value::NumInterval(d - z * se, d + z * se, 5),
            Value::PValue(p),
            Value::Num(dz, 3),
            needed,
        ]);
    };
    push("bank's result".into(), &t.bank, t.a.bank_net, t.b.bank_net);
    for s in 0..t.seats.len() {
        push(
            format!("seat {} as player ({})", s + 1, setup.a.policies[s].name),
            &t.seats[s],
            t.a.player_net[s],
            t.b.player_net[s],
        );
    }
    push(
        "bank changes hands".into(),
        &t.steals,
        t.a.steals as i64,
        t.b.steals as i64,
    );
    r.tables.push(table);
    if t.chunks < 30 {
        r.note(format!("Only {} paired chunks: with fewer than 30 the normal approximation behind the intervals is rough; play more hands.", t.chunks));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}
