//! `tahur durak compare`: two variants of a table (rules and/or strategies) played game by game
//! on common random numbers.
//!
//! Game *i* of variant A and game *i* of variant B draw the same two seeds (deal, decisions), so
//! with the same deck they start from the same deal, and the outcomes are paired. Every
//! comparison is a paired difference of per-game values: its interval and z test use the
//! variance of the per-game differences, which common random numbers can only make smaller,
//! and stay valid whatever the correlation. The tallies are integer counts of the paired
//! outcomes, so shards merge exactly.

use serde::{Deserialize, Serialize};

use super::engine::Outcome;
use super::rules::MAX_PLAYERS;
use super::sim::{
    chunk_for, first_attacker_edge, game_streams, sides, DurakSimulation, GameTally, Played,
    TableSetup,
};
use crate::error::{Error, Result};
use crate::games::dudo::compare::{paired, paired_proportions, PairedCounts, PairedDifference};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::MeanEstimate;

/// Two variants of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSetup {
    /// Variant A.
    pub a: TableSetup,
    /// Variant B.
    pub b: TableSetup,
    /// Human names of the variants.
    pub names: [String; 2],
    /// A difference to size the games for: percentage points for rates, bouts for length.
    pub detect: Option<f64>,
}

impl CompareSetup {
    /// Checks that the variants can be paired (same number of players) and differ.
    pub fn new(
        a: TableSetup,
        b: TableSetup,
        names: [String; 2],
        detect: Option<f64>,
    ) -> Result<Self> {
        if a.series != b.series {
            return Err(Error::usage(format!(
                "variant A plays series of {} games and B of {}: compare with the same --series",
                a.series, b.series
            )));
        }
        if a.rules.players != b.rules.players {
            return Err(Error::usage(format!(
                "variant A has {} players and B {}: compare tables of the same size",
                a.rules.players, b.rules.players
            )));
        }
        if a.rules == b.rules && a.strategies == b.strategies {
            return Err(Error::usage(format!(
                "A ({}) and B ({}) are the same table: change a rule with --a/--b or the strategies with --a-strategies/--b-strategies",
                names[0], names[1]
            )));
        }
        Ok(Self {
            a,
            b,
            names,
            detect,
        })
    }

    /// Games per chunk: small when either side searches.
    pub fn chunk_size(&self) -> u64 {
        let all: Vec<_> = self
            .a
            .strategies
            .iter()
            .chain(&self.b.strategies)
            .copied()
            .collect();
        super::sim::whole_series(chunk_for(&all), self.a.series)
    }

    /// Whether both variants seat the same strategies (then per-strategy rates are compared).
    fn same_strategies(&self) -> bool {
        self.a.strategies == self.b.strategies
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
    /// Per seat: "this seat is the durak (or on the losing team)", paired.
    pub seats: Vec<PairedCounts>,
    /// Per distinct strategy (when both variants seat the same ones): "a seat with this
    /// strategy is the durak", paired.
    pub strategies: Vec<PairedCounts>,
    /// "The first attacker is the durak", paired.
    pub first_attacker: PairedCounts,
    /// "The game is a draw", paired.
    pub draws: PairedCounts,
    /// "The game hit the move cap", paired.
    pub capped: PairedCounts,
    /// Σ (bouts A − bouts B).
    pub bouts_diff_sum: i64,
    /// Σ (bouts A − bouts B)².
    pub bouts_diff_sq: u128,
    /// Σ (edge A − edge B) × sides A × sides B, where a game's first-attacker edge is
    /// 1/sides when it has a durak, less 1 when the first attacker (or their team) lost: its
    /// mean is the fair share less the first attacker's durak rate. Scaled to integers.
    #[serde(default)]
    pub edge_diff_sum: i64,
    /// Σ of the squares of those scaled differences.
    #[serde(default)]
    pub edge_diff_sq: u128,
}

impl Tally for CompareTally {
    fn absorb(&mut self, o: &Self) {
        fn add(a: &mut Vec<PairedCounts>, b: &[PairedCounts]) {
            if a.len() < b.len() {
                a.resize(b.len(), PairedCounts::default());
            }
            for (x, y) in a.iter_mut().zip(b) {
                x.absorb(y);
            }
        }
        self.a.absorb(&o.a);
        self.b.absorb(&o.b);
        self.pairs += o.pairs;
        add(&mut self.seats, &o.seats);
        add(&mut self.strategies, &o.strategies);
        self.first_attacker.absorb(&o.first_attacker);
        self.draws.absorb(&o.draws);
        self.capped.absorb(&o.capped);
        self.bouts_diff_sum += o.bouts_diff_sum;
        self.bouts_diff_sq += o.bouts_diff_sq;
        self.edge_diff_sum += o.edge_diff_sum;
        self.edge_diff_sq += o.edge_diff_sq;
    }
}

/// The paired simulation.
pub struct CompareSimulation {
    a: DurakSimulation,
    b: DurakSimulation,
    players: usize,
    chunk: u64,
    /// With the same strategies in both: the strategy index of each seat.
    strategy_of_seat: Option<[usize; MAX_PLAYERS]>,
    strategies: usize,
    sides: [i64; 2],
}

impl CompareSimulation {
    /// The simulation of a comparison.
    pub fn new(setup: &CompareSetup) -> Self {
        let distinct = setup.a.distinct();
        let strategy_of_seat = setup.same_strategies().then(|| {
            let mut v = [0; MAX_PLAYERS];
            for (i, s) in setup.a.strategies.iter().enumerate() {
                v[i] = distinct.iter().position(|d| d == s).unwrap_or(0);
            }
            v
        });
        Self {
            a: DurakSimulation::new(&setup.a),
            b: DurakSimulation::new(&setup.b),
            players: setup.a.rules.players as usize,
            chunk: setup.chunk_size(),
            strategies: if strategy_of_seat.is_some() {
                distinct.len()
            } else {
                0
            },
            strategy_of_seat,
            sides: [sides(&setup.a.rules) as i64, sides(&setup.b.rules) as i64],
        }
    }

    /// Variant A's simulation.
    pub fn a(&self) -> &DurakSimulation {
        &self.a
    }

    /// Variant B's simulation.
    pub fn b(&self) -> &DurakSimulation {
        &self.b
    }

    /// Counts one pair of games (A's and B's from the same seeds) in the paired tallies; the
    /// games themselves are recorded in `t.a` and `t.b` by the caller.
    pub fn record_pair(&self, ra: &Played, rb: &Played, t: &mut CompareTally) {
        t.pairs += 1;
        let (la, lb) = (ra.losers(), rb.losers());
        for s in 0..self.players {
            t.seats[s].add(la >> s & 1 == 1, lb >> s & 1 == 1);
        }
        if let Some(of) = &self.strategy_of_seat {
            for k in 0..self.strategies {
                let any =
                    |losers: u8| (0..self.players).any(|s| losers >> s & 1 == 1 && of[s] == k);
                t.strategies[k].add(any(la), any(lb));
            }
        }
        let (fa, fb) = (
            la >> ra.first_attacker & 1 == 1,
            lb >> rb.first_attacker & 1 == 1,
        );
        t.first_attacker.add(fa, fb);
        t.draws
            .add(ra.outcome == Outcome::Draw, rb.outcome == Outcome::Draw);
        t.capped
            .add(ra.outcome == Outcome::Capped, rb.outcome == Outcome::Capped);
        let d = ra.bouts as i64 - rb.bouts as i64;
        t.bouts_diff_sum += d;
        t.bouts_diff_sq += (d as i128 * d as i128) as u128;
        // Edges scaled by sides A × sides B, so that both are integers.
        let [sa, sb] = self.sides;
        let decided = |p: &Played| matches!(p.outcome, Outcome::Lost { .. }) as i64;
        let edge_a = decided(ra) * sb - sa * sb * fa as i64;
        let edge_b = decided(rb) * sa - sa * sb * fb as i64;
        let e = edge_a - edge_b;
        t.edge_diff_sum += e;
        t.edge_diff_sq += (e as i128 * e as i128) as u128;
    }
}

impl Simulation for CompareSimulation {
    type Tally = CompareTally;
    fn chunk_size(&self) -> u64 {
        self.chunk
    }
    fn empty_tally(&self) -> CompareTally {
        CompareTally {
            a: self.a.empty_tally(),
            b: self.b.empty_tally(),
            seats: vec![PairedCounts::default(); self.players],
            strategies: vec![PairedCounts::default(); self.strategies],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, games: u64, t: &mut CompareTally) {
        let mut bots_a = self.a.bots();
        let mut bots_b = self.b.bots();
        // In series, each variant's next game is dealt by its own previous durak.
        let (mut previous_a, mut previous_b) = (None, None);
        for j in 0..games {
            let (deal, decisions) = game_streams(stream);
            let ra = self.a.play(
                &mut bots_a,
                self.a.setup().start_of(j, previous_a),
                &mut deal.clone(),
                &mut decisions.clone(),
                &mut t.a,
            );
            let rb = self.b.play(
                &mut bots_b,
                self.b.setup().start_of(j, previous_b),
                &mut deal.clone(),
                &mut decisions.clone(),
                &mut t.b,
            );
            previous_a = ra.and_then(|p| p.durak);
            previous_b = rb.and_then(|p| p.durak);
            if let (Some(ra), Some(rb)) = (ra, rb) {
                self.record_pair(&ra, &rb, t);
            }
        }
    }
}

/// The paired comparison of the first attacker's edge, in percentage points: the fair share
/// (games with a durak over the sides that can lose) less the first attacker's durak rate.
/// Positive: the first attacker loses less often than a fair share.
pub fn paired_edge(setup: &CompareSetup, t: &CompareTally) -> PairedDifference {
    let edge = |g: &GameTally, rules| 100.0 * first_attacker_edge(rules, g);
    let scale = (sides(&setup.a.rules) * sides(&setup.b.rules)) as f64;
    let d = MeanEstimate::from_sums(t.pairs, t.edge_diff_sum as i128, t.edge_diff_sq);
    let d = MeanEstimate {
        n: d.n,
        mean: d.mean / scale * 100.0,
        sd: d.sd / scale * 100.0,
    };
    let dz = if d.sd > 0.0 { d.mean / d.sd } else { 0.0 };
    paired(
        edge(&t.a, &setup.a.rules),
        edge(&t.b, &setup.b.rules),
        d,
        dz,
    )
}

/// The paired comparison of game length in bouts.
pub fn paired_bouts(t: &CompareTally) -> PairedDifference {
    let mean = |g: &GameTally| super::sim::length_estimate(g).mean;
    let d = MeanEstimate::from_sums(t.pairs, t.bouts_diff_sum as i128, t.bouts_diff_sq);
    let dz = if d.sd > 0.0 { d.mean / d.sd } else { 0.0 };
    paired(mean(&t.a), mean(&t.b), d, dz)
}

/// Every comparison, primary first: each seat's durak rate, each strategy's (when both
/// variants seat the same strategies, two or more, one in several seats), the first attacker's, the
/// draw rate, the capped rate (when any game hit the cap) and the mean game length.
/// Each item: name, whether it is a rate, the paired difference.
pub fn comparisons(
    setup: &CompareSetup,
    t: &CompareTally,
) -> Vec<(String, bool, PairedDifference)> {
    let mut v = Vec::new();
    for (s, c) in t.seats.iter().enumerate() {
        let (sa, sb) = (setup.a.strategies[s], setup.b.strategies[s]);
        let who = if sa == sb {
            format!("seat {} ({sa})", s + 1)
        } else {
            format!("seat {} ({sa} / {sb})", s + 1)
        };
        v.push((
            format!("{who} is the durak"),
            true,
            paired_proportions(c, t.pairs),
        ));
    }
    // Per strategy only when it adds something: two or more strategies, one of them in
    // several seats (else the rows repeat the seats').
    let distinct = setup.a.distinct();
    if distinct.len() > 1 && distinct.len() < setup.a.strategies.len() {
        for (s, c) in distinct.iter().zip(&t.strategies) {
            v.push((
                format!("a {s} seat is the durak"),
                true,
                paired_proportions(c, t.pairs),
            ));
        }
    }
    v.push((
        "the first attacker is the durak".into(),
        true,
        paired_proportions(&t.first_attacker, t.pairs),
    ));
    v.push((
        "the first attacker's edge (points under the fair share)".into(),
        false,
        paired_edge(setup, t),
    ));
    v.push(("draw".into(), true, paired_proportions(&t.draws, t.pairs)));
    if t.a.capped + t.b.capped > 0 {
        v.push((
            "stopped at the move cap".into(),
            true,
            paired_proportions(&t.capped, t.pairs),
        ));
    }
    v.push(("bouts per game".into(), false, paired_bouts(t)));
    v
}

/// The report of a comparison.
pub fn report(setup: &CompareSetup, t: &CompareTally, run: &RunSummary) -> Report {
    let mut r = Report::new(format!(
        "Durak compare · A: {} · B: {}",
        setup.names[0], setup.names[1]
    ));
    r.run_size("games", "paired games", t.pairs, run);
    r.field("a", "A", Value::Text(setup.a.describe()));
    r.field("b", "B", Value::Text(setup.b.describe()));
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
        let scale = if prob { 100.0 } else { 1.0 };
        table.push(vec![
            Value::Text(name),
            fmt(d.a),
            fmt(d.b),
            Value::Num(d.difference * scale, 3),
            Value::NumInterval(d.interval.low * scale, d.interval.high * scale, 3),
            Value::PValue(d.p_value),
            Value::Num(d.effect_size, 4),
            if d.games_needed.is_finite() {
                Value::Int(d.games_needed as i64)
            } else {
                Value::Empty
            },
            match setup.detect.map(|x| d.games_to_detect(x / scale)) {
                Some(n) if n.is_finite() => Value::Int(n as i64),
                _ => Value::Empty,
            },
        ]);
    }
    r.tables.push(table);
    r.note("Differences of rates are in percentage points. Effect sizes: Cohen's h for rates, d_z for the edge and bouts. \"Games to detect\": paired games for 80 % power at α = 0.05 if the difference is what was seen; with --detect D, for a difference of D (percentage points for rates and the edge, or bouts).");
    let dropped = t.a.violations + t.a.illegal_actions + t.b.violations + t.b.illegal_actions;
    if dropped > 0 {
        r.note(format!(
            "{dropped} games broke a rule and were dropped with their pair: this is a bug, please report it."
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::durak::bots::Strategy;
    use crate::games::durak::rules::{Rules, Variant};

    #[test]
    fn identical_tables_are_refused_and_same_deals_pair_exactly() {
        let rules = Rules::standard(Variant::Podkidnoy, 2);
        let t = TableSetup::new(rules, &[Strategy::Greedy, Strategy::Random], false).unwrap();
        assert!(CompareSetup::new(t.clone(), t.clone(), ["x".into(), "x".into()], None).is_err());
        // The same rules with the strategies swapped: seat 1 of A is seat 2 of B's player.
        let u = TableSetup::new(rules, &[Strategy::Random, Strategy::Greedy], false).unwrap();
        let c = CompareSetup::new(t, u, ["a".into(), "b".into()], None).unwrap();
        let sim = CompareSimulation::new(&c);
        let mut tally = sim.empty_tally();
        let mut stream = crate::rng::base_stream(1);
        sim.run_chunk(&mut stream, 400, &mut tally);
        assert_eq!(tally.pairs, 400);
        assert!(tally.strategies.is_empty());
        // Greedy in seat 1 is the durak less often than random in seat 1.
        let d = paired_proportions(&tally.seats[0], tally.pairs);
        assert!(d.difference < 0.0, "{d:?}");
    }
}
