//! `tahur dudo compare`: the same strategies under two rule or flag sets, game by game on common
//! random numbers.
//!
//! Game *i* of variant A and game *i* of variant B start from the same two streams (dice and
//! decisions), so the outcomes are paired. Every comparison is a paired difference of per-game
//! values: its interval and z test use the variance of the per-game differences, which common
//! random numbers can only make smaller, and stay valid whatever the correlation.
//!
//! `--until-decided` looks at the primary comparison after `batch`, 2·`batch`, 4·`batch`, …
//! games (the games double between looks): look *k* tests at level α/2^k. The levels add up to at most α, so the chance of ever declaring a difference that is
//! not there stays below α however many looks are taken (a Bonferroni bound over the looks: a
//! valid, conservative sequential method).

use serde::{Deserialize, Serialize};

use super::bots::Strategy;
use super::sim::{GameSimulation, GameTally, TableSetup, GAMES_CHUNK};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{z_for_confidence, Interval, MeanEstimate};

/// Two variants of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSetup {
    /// Variant A.
    pub a: TableSetup,
    /// Variant B.
    pub b: TableSetup,
    /// Human names of the variants (their specs).
    pub names: [String; 2],
    /// A difference to size the games for: percentage points for win rates, rounds for length.
    pub detect: Option<f64>,
}

impl CompareSetup {
    /// Checks that the variants can be paired: same players and strategies by seat.
    pub fn new(
        a: TableSetup,
        b: TableSetup,
        names: [String; 2],
        detect: Option<f64>,
    ) -> Result<Self> {
        if a.game.players != b.game.players || a.strategies != b.strategies {
            return Err(Error::usage(
                "the two variants must seat the same players with the same strategies",
            ));
        }
        Ok(Self {
            a,
            b,
            names,
            detect,
        })
    }

    fn strategies(&self) -> Vec<Strategy> {
        self.a.distinct()
    }
}

/// Paired per-game outcomes of a binary event: A only, B only, both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedCounts {
    /// Games where the event happened in A only.
    pub a_only: u64,
    /// In B only.
    pub b_only: u64,
    /// In both.
    pub both: u64,
}

impl PairedCounts {
    /// Counts one paired game: whether the event happened in A and in B.
    pub fn add(&mut self, a: bool, b: bool) {
        match (a, b) {
            (true, true) => self.both += 1,
            (true, false) => self.a_only += 1,
            (false, true) => self.b_only += 1,
            _ => {}
        }
    }
    /// Adds another tally's counts.
    pub fn absorb(&mut self, o: &Self) {
        self.a_only += o.a_only;
        self.b_only += o.b_only;
        self.both += o.both;
    }
}

/// Counts of a comparison run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareTally {
    /// Variant A's games.
    pub a: GameTally,
    /// Variant B's games.
    pub b: GameTally,
    /// Games counted in both (pairs).
    pub pairs: u64,
    /// Per distinct strategy: "a seat with this strategy won", paired.
    pub strategy_wins: Vec<PairedCounts>,
    /// "The first opener won", paired.
    pub opener_wins: PairedCounts,
    /// Σ (rounds A − rounds B) and Σ of its square.
    pub rounds_diff_sum: i64,
    /// Σ (rounds A − rounds B)².
    pub rounds_diff_sq: u64,
}

impl Tally for CompareTally {
    fn absorb(&mut self, o: &Self) {
        self.a.absorb(&o.a);
        self.b.absorb(&o.b);
        self.pairs += o.pairs;
        if self.strategy_wins.len() < o.strategy_wins.len() {
            self.strategy_wins
                .resize(o.strategy_wins.len(), PairedCounts::default());
        }
        for (x, y) in self.strategy_wins.iter_mut().zip(&o.strategy_wins) {
            x.absorb(y);
        }
        self.opener_wins.absorb(&o.opener_wins);
        self.rounds_diff_sum += o.rounds_diff_sum;
        self.rounds_diff_sq += o.rounds_diff_sq;
    }
}

/// The paired simulation.
pub struct CompareSimulation {
    a: GameSimulation,
    b: GameSimulation,
    strategy_of_seat: Vec<usize>,
    strategies: usize,
}

impl CompareSimulation {
    /// The simulation of a comparison.
    pub fn new(setup: &CompareSetup) -> Self {
        let distinct = setup.strategies();
        Self {
            a: GameSimulation::new(&setup.a),
            b: GameSimulation::new(&setup.b),
            strategy_of_seat: setup
                .a
                .strategies
                .iter()
                .map(|s| distinct.iter().position(|d| d == s).expect("listed"))
                .collect(),
            strategies: distinct.len(),
        }
    }
}

impl Simulation for CompareSimulation {
    type Tally = CompareTally;
    fn chunk_size(&self) -> u64 {
        GAMES_CHUNK
    }
    fn empty_tally(&self) -> CompareTally {
        CompareTally {
            a: self.a.empty_tally(),
            b: self.b.empty_tally(),
            strategy_wins: vec![PairedCounts::default(); self.strategies],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, games: u64, t: &mut CompareTally) {
        for _ in 0..games {
            let (dice, decisions) = GameSimulation::game_streams(stream);
            let ra = self
                .a
                .play(&mut dice.clone(), &mut decisions.clone(), &mut t.a);
            let rb = self
                .b
                .play(&mut dice.clone(), &mut decisions.clone(), &mut t.b);
            let (Some(ra), Some(rb)) = (ra, rb) else {
                continue;
            };
            t.pairs += 1;
            for s in 0..self.strategies {
                t.strategy_wins[s].add(
                    self.strategy_of_seat[ra.winner] == s,
                    self.strategy_of_seat[rb.winner] == s,
                );
            }
            // Paired per game even where the variants choose the first opener differently
            // (Chimbo 9 rolls for it, Caleuchano draws it uniformly).
            t.opener_wins
                .add(ra.winner == ra.first_opener, rb.winner == rb.first_opener);
            let d = ra.rounds as i64 - rb.rounds as i64;
            t.rounds_diff_sum += d;
            t.rounds_diff_sq += (d * d) as u64;
        }
    }
}

/// One paired comparison.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedDifference {
    /// Mean in A.
    pub a: f64,
    /// Mean in B.
    pub b: f64,
    /// A − B.
    pub difference: f64,
    /// 95 % interval of the difference.
    pub interval: Interval,
    /// Two-sided p-value of the paired z test.
    pub p_value: f64,
    /// Effect size: Cohen's h for proportions, d_z (mean difference over its SD) for counts.
    pub effect_size: f64,
    /// Paired games needed to detect this difference at α = 0.05 with 80 % power.
    pub games_needed: f64,
    /// Variance of the per-game difference (for the games needed to detect other differences).
    pub variance: f64,
}

impl PairedDifference {
    /// Paired games needed to detect a difference of `d` at α = 0.05 with 80 % power, with
    /// the per-game variance seen here.
    pub fn games_to_detect(&self, d: f64) -> f64 {
        games_needed(d, self.variance)
    }
}

fn games_needed(diff: f64, var: f64) -> f64 {
    if diff == 0.0 || var == 0.0 {
        return f64::INFINITY;
    }
    let z = z_for_confidence(0.95)
        + statrs::distribution::ContinuousCDF::inverse_cdf(
            &statrs::distribution::Normal::standard(),
            0.8,
        );
    (z * z * var / (diff * diff)).ceil()
}

/// A paired difference from the means of A and B, the per-game differences' estimate and an
/// effect size.
pub fn paired(a: f64, b: f64, d: MeanEstimate, effect_size: f64) -> PairedDifference {
    let var = d.sd * d.sd;
    PairedDifference {
        a,
        b,
        difference: d.mean,
        interval: d.interval(0.95),
        p_value: d.p_value_against_zero(),
        effect_size,
        games_needed: games_needed(d.mean, var),
        variance: var,
    }
}

/// The paired comparison of a binary event: per game the difference is 1 (A only), −1 (B
/// only) or 0, so its sum is `a_only − b_only` and its sum of squares `a_only + b_only`.
pub fn paired_proportions(c: &PairedCounts, n: u64) -> PairedDifference {
    let nf = n.max(1) as f64;
    let (a, b) = (
        (c.a_only + c.both) as f64 / nf,
        (c.b_only + c.both) as f64 / nf,
    );
    let d = MeanEstimate::from_sums(
        n,
        c.a_only as i128 - c.b_only as i128,
        (c.a_only + c.b_only) as u128,
    );
    paired(a, b, d, 2.0 * a.sqrt().asin() - 2.0 * b.sqrt().asin())
}

/// The paired comparison of game length.
pub fn paired_rounds(t: &CompareTally) -> PairedDifference {
    let mean = |g: &GameTally| super::sim::length_estimate(g).mean;
    let d = MeanEstimate::from_sums(t.pairs, t.rounds_diff_sum as i128, t.rounds_diff_sq as u128);
    let dz = if d.sd > 0.0 { d.mean / d.sd } else { 0.0 };
    paired(mean(&t.a), mean(&t.b), d, dz)
}

/// Every comparison, primary first: each strategy's share of games won (when there are two or
/// more strategies), the first opener's win rate, the mean game length.
pub fn comparisons(
    setup: &CompareSetup,
    t: &CompareTally,
) -> Vec<(String, bool, PairedDifference)> {
    let mut v = Vec::new();
    let strategies = setup.strategies();
    if strategies.len() > 1 {
        for (s, c) in strategies.iter().zip(&t.strategy_wins) {
            v.push((
                format!("games won by {s}"),
                true,
                paired_proportions(c, t.pairs),
            ));
        }
    }
    v.push((
        "games won by the first opener".into(),
        true,
        paired_proportions(&t.opener_wins, t.pairs),
    ));
    v.push(("rounds per game".into(), false, paired_rounds(t)));
    v
}

/// How a sequential run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequential {
    /// Looks taken.
    pub looks: u32,
    /// Significance level of the last look (α/2^k).
    pub last_level: f64,
    /// Whether the primary comparison was decided.
    pub decided: bool,
}

/// The report of a comparison.
pub fn report(
    setup: &CompareSetup,
    t: &CompareTally,
    run: &RunSummary,
    seq: Option<&Sequential>,
) -> Report {
    let mut r = Report::new(format!(
        "Dudo compare · A: {} · B: {} · {} players",
        setup.names[0], setup.names[1], setup.a.game.players
    ));
    r.field("games", "paired games", Value::Int(t.pairs as i64));
    if !run.is_complete() && seq.is_none() {
        r.field(
            "games_requested",
            "games requested",
            Value::Int(run.spec.samples as i64),
        );
    }
    r.field("seed", "seed", Value::Int(run.spec.seed as i64));
    let strategies: Vec<String> = setup.a.strategies.iter().map(|s| s.to_string()).collect();
    r.field(
        "strategies",
        "strategies by seat",
        Value::Text(strategies.join(", ")),
    );
    let mut table = Table::new(
        "comparisons",
        "A against B (paired, common random numbers)",
        &[
            ("metric", "metric"),
            ("a", "A"),
            ("b", "B"),
            ("difference", "A − B"),
            ("ci95", "95 % interval"),
            ("p_value", "p-value"),
            ("effect_size", "effect size"),
            ("games_needed", "games to detect"),
            (
                "games_to_detect_given",
                "games to detect the given difference",
            ),
        ],
    );
    table.top_level = true;
    for (name, prob, d) in comparisons(setup, t) {
        let fmt = |x: f64| {
            if prob {
                Value::Prob(x)
            } else {
                Value::Num(x, 3)
            }
        };
        table.push(vec![
            Value::Text(name),
            fmt(d.a),
            fmt(d.b),
            if prob {
                Value::Num(d.difference * 100.0, 3)
            } else {
                Value::Num(d.difference, 3)
            },
            if prob {
                Value::NumInterval(d.interval.low * 100.0, d.interval.high * 100.0, 3)
            } else {
                Value::NumInterval(d.interval.low, d.interval.high, 3)
            },
            Value::PValue(d.p_value),
            Value::Num(d.effect_size, 4),
            if d.games_needed.is_finite() {
                Value::Int(d.games_needed as i64)
            } else {
                Value::Empty
            },
            // --detect is in percentage points for win rates, in rounds for game length.
            match setup
                .detect
                .map(|x| d.games_to_detect(if prob { x / 100.0 } else { x }))
            {
                Some(n) if n.is_finite() => Value::Int(n as i64),
                _ => Value::Empty,
            },
        ]);
    }
    r.tables.push(table);
    r.note("Differences of win rates are in percentage points. Effect sizes: Cohen's h for win rates, d_z for rounds. \"Games to detect\": paired games for 80 % power at α = 0.05 if the difference is what was seen; with --detect D, for a difference of D (percentage points, or rounds).");
    if let Some(s) = seq {
        r.field("looks", "sequential looks", Value::Int(s.looks as i64));
        r.field(
            "decided",
            "primary comparison decided",
            Value::Text(if s.decided { "yes" } else { "no" }.into()),
        );
        r.note(format!(
            "Sequential (--until-decided): look k tests the primary comparison at α/2^k; {} after {} look(s) (last level {}).",
            if s.decided { "decided" } else { "not decided within --games" },
            s.looks,
            humanize::significant(s.last_level, 2)
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}

/// Runs a comparison in growing steps (`batch`, then doubling the games at each look) until the
/// primary comparison is decided at the look's level α/2^k, or `spec.samples` games are played.
pub fn run_sequential(
    setup: &CompareSetup,
    spec: &crate::runner::RunSpec,
    batch: u64,
    alpha: f64,
    control: &crate::runner::RunControl,
) -> Result<(CompareTally, RunSummary, Sequential)> {
    let sim = CompareSimulation::new(setup);
    let chunks_per_look = batch.div_ceil(spec.chunk_size).max(1);
    let total = spec.total_chunks();
    let mut tally = sim.empty_tally();
    let mut done = 0u64;
    let mut samples_done = 0u64;
    let mut looks = 0u32;
    let mut level = alpha;
    let mut decided = false;
    let mut interrupted = false;
    while done < total && !decided && !interrupted {
        let end = (chunks_per_look << looks.min(40)).min(total);
        let part = crate::runner::run_range(&sim, spec, done..end, control)?;
        tally.absorb(&part.tally);
        samples_done += part.samples_done;
        interrupted = part.interrupted;
        done = end;
        looks += 1;
        level = alpha / 2f64.powi(looks as i32);
        let primary = comparisons(setup, &tally)[0].2;
        decided = primary.p_value < level;
    }
    let summary = RunSummary {
        spec: *spec,
        samples_done,
        interrupted,
        missing: None,
    };
    Ok((
        tally,
        summary,
        Sequential {
            looks,
            last_level: level,
            decided,
        },
    ))
}
