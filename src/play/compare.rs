//! `compare`: two variants of a table (rules and/or line-ups) played game by game on common
//! random numbers.
//!
//! Game *i* of variant A and game *i* of variant B draw the same two seeds (deal, decisions), so
//! with the same deck they start from the same deal, and the outcomes are paired. Every
//! comparison is a paired difference of per-game values: its interval and z test use the
//! variance of the per-game differences, which common random numbers can only make smaller,
//! and stay valid whatever the correlation. The tallies are integer counts and sums of the
//! paired outcomes, so shards merge exactly. Sitting games (21) pair whole sittings.
//!
//! `--until-decided` looks at the primary comparison after `batch`, 2·`batch`, 4·`batch`, …
//! games (the games double between looks): look *k* tests at level α/2^k. The levels add up to
//! at most α, so the chance of ever declaring a difference that is not there stays below α
//! however many looks are taken (a Bonferroni bound over the looks: valid and conservative).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::sim::{first_player_edge, for_each_game, sample_count, GameSimulation, SimTally};
use super::table::{chunk_for, TableSetup};
use super::{game_streams, scored, Game, GameRules, Outcome, Played, Scoring, Strategy, MAX_SEATS};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunControl, RunSpec, RunSummary, Simulation, Tally};
use crate::stats::{
    paired, paired_means, paired_proportions, samples_needed, MeanEstimate, PairedCounts,
    PairedDifference, Sums,
};

/// Two variants of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct CompareSetup<G: Game, S = <G as Game>::Strategy> {
    /// Variant A.
    pub a: TableSetup<G, S>,
    /// Variant B.
    pub b: TableSetup<G, S>,
    /// Human names of the variants.
    pub names: [String; 2],
    /// A difference to size the games for: percentage points for rates, the unit of the row
    /// for means.
    pub detect: Option<f64>,
}

impl<G: Game, S: Strategy<G>> CompareSetup<G, S> {
    /// Checks that the variants can be paired (same number of players, same series) and differ.
    pub fn new(
        a: TableSetup<G, S>,
        b: TableSetup<G, S>,
        names: [String; 2],
        detect: Option<f64>,
    ) -> Result<Self> {
        if a.series != b.series {
            return Err(Error::usage(format!(
                "variant A plays series of {} games and B of {}: compare with the same --series",
                a.series, b.series
            )));
        }
        if a.players() != b.players() {
            return Err(Error::usage(format!(
                "variant A has {} players and B {}: compare tables of the same size",
                a.players(),
                b.players()
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

    /// Samples per chunk: small when either side searches, whole series.
    pub fn chunk_size(&self) -> u64 {
        chunk_for::<G>(self.a.is_slow() || self.b.is_slow(), self.a.series)
    }

    /// Whether both variants seat the same strategies (then per-strategy results are paired).
    pub fn same_strategies(&self) -> bool {
        self.a.strategies == self.b.strategies
    }
}

/// Counts of a comparison run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareTally {
    /// Variant A's games.
    pub a: SimTally,
    /// Variant B's games.
    pub b: SimTally,
    /// Games counted in both (pairs).
    pub pairs: u64,
    /// Per seat: "this seat holds the event", paired (games with an event).
    pub seats: Vec<PairedCounts>,
    /// Per distinct strategy (when both variants seat the same ones): "a seat with this strategy
    /// holds the event", paired.
    pub strategies: Vec<PairedCounts>,
    /// "The first player holds the event", paired.
    pub first: PairedCounts,
    /// "The game is a draw", paired.
    pub draws: PairedCounts,
    /// "The game hit the move cap", paired.
    pub capped: PairedCounts,
    /// Length A − length B.
    pub length: Sums,
    /// Edge A − edge B, scaled by sides A × sides B so that both are integers: a game's edge is
    /// (for a loss) 1/sides when it is decided, less 1 when the first player holds the event;
    /// its mean is the first player's edge.
    pub edge: Sums,
    /// Per seat, points A − points B (scored games).
    pub points: Vec<Sums>,
    /// Per compared counter ([`super::GameInfo::compared`]): A − B.
    pub counters: Vec<Sums>,
}

impl Tally for CompareTally {
    fn absorb(&mut self, o: &Self) {
        use super::sim::absorb_all as add;
        self.a.absorb(&o.a);
        self.b.absorb(&o.b);
        self.pairs += o.pairs;
        add(&mut self.seats, &o.seats, PairedCounts::absorb);
        add(&mut self.strategies, &o.strategies, PairedCounts::absorb);
        self.first.absorb(&o.first);
        self.draws.absorb(&o.draws);
        self.capped.absorb(&o.capped);
        self.length.absorb(&o.length);
        self.edge.absorb(&o.edge);
        add(&mut self.points, &o.points, Sums::absorb);
        add(&mut self.counters, &o.counters, Sums::absorb);
    }
}

/// The paired simulation.
pub struct CompareSimulation<G: Game, S: Strategy<G> = <G as Game>::Strategy> {
    a: GameSimulation<G, S>,
    b: GameSimulation<G, S>,
    players: usize,
    chunk: u64,
    /// With the same strategies in both: the strategy index of each seat.
    strategy_of_seat: Option<[usize; MAX_SEATS]>,
    strategies: usize,
    sides: [i64; 2],
}

impl<G: Game, S: Strategy<G>> CompareSimulation<G, S> {
    /// The simulation of a comparison.
    pub fn new(setup: &CompareSetup<G, S>) -> Self {
        let strategy_of_seat = setup.same_strategies().then(|| {
            let mut v = [0; MAX_SEATS];
            for (i, k) in setup.a.strategy_of_seat().into_iter().enumerate() {
                v[i] = k;
            }
            v
        });
        Self {
            a: GameSimulation::new(&setup.a),
            b: GameSimulation::new(&setup.b),
            players: setup.a.players(),
            chunk: setup.chunk_size(),
            strategies: if strategy_of_seat.is_some() {
                setup.a.distinct().len()
            } else {
                0
            },
            strategy_of_seat,
            sides: [setup.a.rules.sides() as i64, setup.b.rules.sides() as i64],
        }
    }

    /// Variant B's simulation.
    pub fn b(&self) -> &GameSimulation<G, S> {
        &self.b
    }

    /// Counts one pair of games (A's and B's from the same seeds) in the paired tallies; the
    /// games themselves are recorded in `t.a` and `t.b` by the caller.
    pub fn record_pair(&self, ra: &Played, rb: &Played, t: &mut CompareTally) {
        t.pairs += 1;
        let scored = scored::<G>();
        let (ma, mb) = (ra.marked(), rb.marked());
        if scored {
            for s in 0..self.players {
                t.points[s].add(ra.points[s] - rb.points[s]);
            }
        } else {
            for s in 0..self.players {
                t.seats[s].add(ma >> s & 1 == 1, mb >> s & 1 == 1);
            }
        }
        if let Some(of) = &self.strategy_of_seat {
            for k in 0..self.strategies {
                let any = |m: u32| (0..self.players).any(|s| m >> s & 1 == 1 && of[s] == k);
                t.strategies[k].add(any(ma), any(mb));
            }
        }
        let (fa, fb) = (ma >> ra.first & 1 == 1, mb >> rb.first & 1 == 1);
        t.first.add(fa, fb);
        t.draws
            .add(ra.outcome == Outcome::Draw, rb.outcome == Outcome::Draw);
        t.capped
            .add(ra.outcome == Outcome::Capped, rb.outcome == Outcome::Capped);
        t.length.add(ra.length as i64 - rb.length as i64);
        // Edges scaled by sides A × sides B, so that both are integers.
        let [sa, sb] = self.sides;
        let decided = |p: &Played| matches!(p.outcome, Outcome::Event(_)) as i64;
        let edge_a = decided(ra) * sb - sa * sb * fa as i64;
        let edge_b = decided(rb) * sa - sa * sb * fb as i64;
        let sign = if matches!(G::INFO.scoring, Scoring::Event { good: true }) {
            -1
        } else {
            1
        };
        t.edge.add(sign * (edge_a - edge_b));
        for (k, c) in G::INFO.compared.iter().enumerate() {
            t.counters[k].add(ra.counters[c.counter] - rb.counters[c.counter]);
        }
    }
}

impl<G: Game, S: Strategy<G>> Simulation for CompareSimulation<G, S> {
    type Tally = CompareTally;
    fn chunk_size(&self) -> u64 {
        self.chunk
    }
    fn empty_tally(&self) -> CompareTally {
        let scored = scored::<G>();
        CompareTally {
            a: self.a.empty(),
            b: self.b.empty(),
            seats: vec![PairedCounts::default(); if scored { 0 } else { self.players }],
            points: vec![Sums::default(); if scored { self.players } else { 0 }],
            strategies: vec![PairedCounts::default(); self.strategies],
            counters: vec![Sums::default(); G::INFO.compared.len()],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut CompareTally) {
        let mut bots_a = self.a.bots();
        let mut bots_b = self.b.bots();
        // In series, each variant's next game starts from its own previous game.
        let (mut previous_a, mut previous_b) = (None, None);
        for_each_game::<G>(samples, |j, base| {
            let (deal, decisions) = game_streams(stream);
            let (start_a, start_b) = if G::INFO.sitting {
                (base, base)
            } else {
                (
                    self.a.setup().start_of(j, previous_a),
                    self.b.setup().start_of(j, previous_b),
                )
            };
            let ra = self.a.play(
                &mut bots_a,
                &start_a,
                &mut deal.clone(),
                &mut decisions.clone(),
                &mut t.a,
            );
            let rb = self.b.play(
                &mut bots_b,
                &start_b,
                &mut deal.clone(),
                &mut decisions.clone(),
                &mut t.b,
            );
            previous_a = ra.and_then(|p| p.series_seat);
            previous_b = rb.and_then(|p| p.series_seat);
            if let (Some(ra), Some(rb)) = (ra, rb) {
                self.record_pair(&ra, &rb, t);
            }
        });
    }
}

/// How a row's values are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A rate (differences in percentage points).
    Rate,
    /// A mean in the row's own unit.
    Mean,
    /// The first player's edge: a difference of rates, computed in percentage points (the
    /// row's unit for `--detect`), reported to machines as a fraction.
    Edge,
}

/// One row of a comparison: its name, how it is shown, the paired difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its identifier for machines: `seat_1`, `strategy:<spec>`, `first_player`,
    /// `first_player_edge`, `draws`, `capped`, `length`, or a game's counter (`blocked_games`).
    pub id: String,
    /// What is compared, for people.
    pub name: String,
    /// Rate or mean.
    pub kind: RowKind,
    /// The paired difference.
    pub diff: PairedDifference,
}

fn row(id: String, name: String, kind: RowKind, diff: PairedDifference) -> Row {
    Row {
        id,
        name,
        kind,
        diff,
    }
}

/// A name as an identifier: lower case, apostrophes dropped, every other run of characters
/// that are not letters or digits one `_` ("bank's result" is `banks_result`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().filter(|&c| c != '\'') {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// Steps per pair of a sitting game (hands per sitting), 1 otherwise: sitting figures are per
/// step.
fn steps_per_pair<G: Game>(t: &CompareTally) -> f64 {
    if G::INFO.sitting {
        t.a.length.sum.max(1) as f64 / t.pairs.max(1) as f64
    } else {
        1.0
    }
}

/// The paired comparison of the first player's edge, in percentage points (positive: the first
/// player does better than a fair share).
pub fn paired_edge<G: Game, S: Strategy<G>>(
    setup: &CompareSetup<G, S>,
    t: &CompareTally,
) -> PairedDifference {
    let edge = |g: &SimTally, rules| 100.0 * first_player_edge::<G>(rules, g);
    let scale = (setup.a.rules.sides() * setup.b.rules.sides()) as f64;
    let d = t.edge.estimate(t.pairs);
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

/// The paired comparison of game length.
pub fn paired_length(t: &CompareTally) -> PairedDifference {
    paired_means(
        t.a.length_estimate().mean,
        t.b.length_estimate().mean,
        &t.length,
        t.pairs,
        1.0,
    )
}

/// The paired comparison of compared counter `k`, per game (per step for sittings).
pub fn paired_counter<G: Game>(t: &CompareTally, k: usize) -> PairedDifference {
    let c = G::INFO.compared[k].counter;
    let per = |s: &SimTally| {
        let n = if G::INFO.sitting {
            s.length.sum
        } else {
            s.games as i64
        };
        s.counter(c) as f64 / n.max(1) as f64
    };
    paired_means(
        per(&t.a),
        per(&t.b),
        &t.counters[k],
        t.pairs,
        steps_per_pair::<G>(t),
    )
}

/// The paired comparison of seat `s`'s points, per game (per step for sittings).
pub fn paired_points<G: Game>(t: &CompareTally, s: usize) -> PairedDifference {
    let per = |x: &SimTally| {
        let n = if G::INFO.sitting {
            x.length.sum
        } else {
            x.games as i64
        };
        x.seats[s].sum as f64 / n.max(1) as f64
    };
    paired_means(
        per(&t.a),
        per(&t.b),
        &t.points[s],
        t.pairs,
        steps_per_pair::<G>(t),
    )
}

/// Every comparison: the game's compared counters, each seat's result, each strategy's (when both
/// variants seat the same strategies, two or more, one in several seats), the first player's
/// rate and edge, draws (when the game has them), capped games (when any), the game's length.
pub fn comparisons<G: Game, S: Strategy<G>>(
    setup: &CompareSetup<G, S>,
    t: &CompareTally,
) -> Vec<Row> {
    let w = &G::INFO.words;
    let mut v = Vec::new();
    for k in 0..G::INFO.compared.len() {
        if !G::compared_applies(&setup.a.rules, k) && !G::compared_applies(&setup.b.rules, k) {
            continue;
        }
        v.push(row(
            slug(G::INFO.compared[k].label),
            G::INFO.compared[k].label.to_string(),
            RowKind::Mean,
            paired_counter::<G>(t, k),
        ));
    }
    let who = |s: usize| {
        let (sa, sb) = (&setup.a.strategies[s], &setup.b.strategies[s]);
        if sa == sb {
            format!("seat {} ({sa})", s + 1)
        } else {
            format!("seat {} ({sa} / {sb})", s + 1)
        }
    };
    if scored::<G>() {
        for s in 0..t.points.len() {
            v.push(row(
                format!("seat_{}", s + 1),
                format!("{} {}", who(s), w.phrase),
                RowKind::Mean,
                paired_points::<G>(t, s),
            ));
        }
        return v;
    }
    for (s, c) in t.seats.iter().enumerate() {
        v.push(row(
            format!("seat_{}", s + 1),
            format!("{} {}", who(s), w.phrase),
            RowKind::Rate,
            paired_proportions(c, t.pairs),
        ));
    }
    // Per strategy only when it adds something: two or more strategies, one of them in several
    // seats (else the rows repeat the seats').
    let distinct = setup.a.distinct();
    if setup.same_strategies() && distinct.len() > 1 && distinct.len() < setup.a.players() {
        for (s, c) in distinct.iter().zip(&t.strategies) {
            v.push(row(
                format!("strategy:{s}"),
                format!("a seat playing {s} {}", w.phrase),
                RowKind::Rate,
                paired_proportions(c, t.pairs),
            ));
        }
    }
    v.push(row(
        "first_player".into(),
        format!("the {} {}", w.first_player, w.phrase),
        RowKind::Rate,
        paired_proportions(&t.first, t.pairs),
    ));
    v.push(row(
        "first_player_edge".into(),
        format!("the {}'s edge (points better than fair)", w.first_player),
        RowKind::Edge,
        paired_edge(setup, t),
    ));
    if G::INFO.draws {
        v.push(row(
            "draws".into(),
            "draw".into(),
            RowKind::Rate,
            paired_proportions(&t.draws, t.pairs),
        ));
    }
    if t.a.capped + t.b.capped > 0 {
        v.push(row(
            "capped".into(),
            "stopped at the move cap".into(),
            RowKind::Rate,
            paired_proportions(&t.capped, t.pairs),
        ));
    }
    if !G::INFO.sitting {
        v.push(row(
            "length".into(),
            format!("{} per game", w.length_unit),
            RowKind::Mean,
            paired_length(t),
        ));
    }
    v
}

/// The chart of a comparison: a dot plot of A − B with its 95 % interval for every figure in
/// one unit — each rate and the first player's edge (percentage points), or for a scored game
/// each seat's points per game — and a dashed line at zero (no difference).
pub fn chart<G: Game, S: Strategy<G>>(
    setup: &CompareSetup<G, S>,
    t: &CompareTally,
) -> crate::report::chart::Chart {
    use crate::report::chart::{Chart, Dot, DotChart, RefLine, Unit};
    let scored_table = scored::<G>();
    let dots = comparisons(setup, t)
        .into_iter()
        .filter(|r| {
            if scored_table {
                r.id.starts_with("seat_")
            } else {
                matches!(r.kind, RowKind::Rate | RowKind::Edge)
            }
        })
        .map(|r| {
            // Rates' differences in points, as the edge row already is.
            let k = if r.kind == RowKind::Rate { 100.0 } else { 1.0 };
            Dot {
                label: r.name,
                value: r.diff.difference * k,
                low: r.diff.interval.low * k,
                high: r.diff.interval.high * k,
            }
        })
        .collect();
    Chart::Dot(DotChart {
        title: format!(
            "{} compare · A: {} · B: {}",
            G::INFO.title,
            setup.names[0],
            setup.names[1]
        ),
        x_label: if scored_table {
            format!(
                "A − B, points per {}",
                crate::text::singular(G::INFO.sample_unit)
            )
        } else {
            "A − B (percentage points)".into()
        },
        x_unit: Unit::Number,
        dots,
        dot_legend: "A − B, paired, 95 % interval".into(),
        marks: vec![RefLine::new(0.0, "no difference")],
    })
}

/// The primary comparison of `--until-decided`: the first compared counter of a scored game
/// that has them (21: the bank's result); else the first strategy's result when both variants
/// seat the same two or more strategies; else the first player's rate.
pub fn primary<G: Game, S: Strategy<G>>(setup: &CompareSetup<G, S>, t: &CompareTally) -> Row {
    let w = &G::INFO.words;
    if scored::<G>() && !G::INFO.compared.is_empty() {
        return row(
            slug(G::INFO.compared[0].label),
            G::INFO.compared[0].label.to_string(),
            RowKind::Mean,
            paired_counter::<G>(t, 0),
        );
    }
    if scored::<G>() {
        return row(
            "seat_1".into(),
            format!("seat 1 ({}) {}", setup.a.strategies[0], w.phrase),
            RowKind::Mean,
            paired_points::<G>(t, 0),
        );
    }
    let distinct = setup.a.distinct();
    if setup.same_strategies() && distinct.len() > 1 {
        return row(
            format!("strategy:{}", distinct[0]),
            format!("a seat playing {} {}", distinct[0], w.phrase),
            RowKind::Rate,
            paired_proportions(&t.strategies[0], t.pairs),
        );
    }
    row(
        "first_player".into(),
        format!("the {} {}", w.first_player, w.phrase),
        RowKind::Rate,
        paired_proportions(&t.first, t.pairs),
    )
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
    /// The primary comparison's name.
    pub primary: String,
}

/// The report of a comparison.
pub fn report<G: Game, S: Strategy<G>>(
    setup: &CompareSetup<G, S>,
    t: &CompareTally,
    run: &RunSummary,
    seq: Option<&Sequential>,
) -> Report {
    let info = &G::INFO;
    let mut r = Report::new(format!(
        "{} compare · A: {} · B: {}",
        info.title, setup.names[0], setup.names[1]
    ));
    let done = if info.sitting {
        sample_count::<G>(&t.a)
    } else {
        t.pairs
    };
    r.run_size(
        info.sample_unit,
        &format!("paired {}", info.sample_unit),
        done,
        run,
    );
    if info.sitting {
        r.field("sittings", "paired sittings", Value::Int(t.pairs as i64));
    }
    r.field("a", "A", Value::Text(setup.a.describe()));
    r.field("b", "B", Value::Text(setup.b.describe()));
    let unit = info.sample_unit;
    let needed_label = format!("{unit} to detect");
    let given_label = format!("{unit} to detect the given difference");
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
            ("needed", &needed_label),
            ("needed_given", &given_label),
        ],
    );
    table.top_level = true;
    // Sittings pair whole sittings: what is needed is counted in their steps (hands).
    let per_pair = steps_per_pair::<G>(t);
    let needed = |d: &PairedDifference, diff: f64| {
        let n = samples_needed(diff, d.variance, per_pair);
        if n.is_finite() {
            Value::Int(n as i64)
        } else {
            Value::Empty
        }
    };
    let (decimals, effect_decimals) = if info.sitting { (5, 3) } else { (3, 4) };
    for Row {
        id,
        name,
        kind,
        diff: d,
    } in comparisons(setup, t)
    {
        let rate = kind == RowKind::Rate;
        let scale = if rate { 100.0 } else { 1.0 };
        let fmt = |x: f64| match kind {
            RowKind::Rate => Value::Prob(x),
            RowKind::Edge => Value::RateDiff(x / 100.0),
            RowKind::Mean => Value::Num(x, decimals),
        };
        let (difference, interval) = match kind {
            RowKind::Rate => (
                Value::RateDiff(d.difference),
                Value::RateDiffInterval(d.interval.low, d.interval.high),
            ),
            RowKind::Edge => (
                Value::RateDiff(d.difference / 100.0),
                Value::RateDiffInterval(d.interval.low / 100.0, d.interval.high / 100.0),
            ),
            RowKind::Mean => (
                Value::Num(d.difference, decimals),
                Value::NumInterval(d.interval.low, d.interval.high, decimals),
            ),
        };
        table.push(vec![
            Value::Label(name, id),
            fmt(d.a),
            fmt(d.b),
            difference,
            interval,
            Value::PValue(d.p_value),
            Value::Num(d.effect_size, effect_decimals),
            needed(&d, d.difference),
            match setup.detect {
                Some(x) => needed(&d, x / scale),
                None => Value::Empty,
            },
        ]);
    }
    r.tables.push(table);
    r.note(format!(
        "Differences of rates are in percentage points. Effect sizes: Cohen's h for rates, d_z for means. \"{needed_label}\": paired {unit} for 80 % power at α = 0.05 if the difference is what was seen; with --detect D, for a difference of D (percentage points for rates, the row's unit for means)."
    ));
    if let Some(s) = seq {
        r.field("looks", "sequential looks", Value::Int(s.looks as i64));
        r.field(
            "decided",
            "primary comparison decided",
            Value::Text(if s.decided { "yes" } else { "no" }.into()),
        );
        r.field(
            "primary",
            "primary comparison",
            Value::Text(s.primary.clone()),
        );
        r.note(format!(
            "Sequential (--until-decided): look k tests the primary comparison ({}) at α/2^k; {} after {} look(s) (last level {}).",
            s.primary,
            if s.decided { "decided" } else { "not decided within the requested count" },
            s.looks,
            humanize::significant(s.last_level, 2)
        ));
    }
    if info.sitting && t.pairs < 30 {
        r.note(format!(
            "Only {} paired sittings: with fewer than 30 the normal approximation behind the intervals is rough; play more {unit}.",
            t.pairs
        ));
    }
    let dropped = t.a.violations + t.a.illegal_actions + t.b.violations + t.b.illegal_actions;
    let mut notes = setup.a.strategy_notes();
    notes.extend(
        setup
            .b
            .strategy_notes()
            .into_iter()
            .filter(|n| !notes.contains(n))
            .collect::<Vec<_>>(),
    );
    for n in notes {
        r.note(n);
    }
    super::sim::closing_notes(&mut r, dropped, true, run);
    r
}

/// Runs a comparison in growing steps (`batch`, then doubling the samples at each look) until
/// the primary comparison is decided at the look's level α/2^k, or `spec.samples` are played.
pub fn run_sequential<G: Game, S: Strategy<G>>(
    setup: &CompareSetup<G, S>,
    spec: &RunSpec,
    batch: u64,
    alpha: f64,
    control: &RunControl,
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
        control.progress.set_message(format!(
            "look {} at {}",
            looks + 1,
            crate::progress::count(spec.samples_in(&crate::runner::ChunkSet::from_range(0..end)))
        ));
        let part = crate::runner::run_range(&sim, spec, done..end, control)?;
        tally.absorb(&part.tally);
        samples_done += part.samples_done;
        interrupted = part.interrupted;
        done = end;
        looks += 1;
        level = alpha / 2f64.powi(looks as i32);
        decided = primary(setup, &tally).diff.p_value < level;
    }
    let summary = RunSummary {
        spec: *spec,
        samples_done,
        interrupted,
        missing: None,
    };
    let primary = primary(setup, &tally).name;
    Ok((
        tally,
        summary,
        Sequential {
            looks,
            last_level: level,
            decided,
            primary,
        },
    ))
}
