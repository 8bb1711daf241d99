//! `tournament`: every strategy against every other, with the seats rotated.
//!
//! A pair of strategies A and B fills the table alternately (A, B, A, B, … from seat 1) and is
//! played at every distinct rotation of that seating: two for an even table (A in the odd
//! seats, then in the even ones), one per seat for an odd table. The run's sample is one
//! *deal*: two seeds (deal, decisions) drawn from the chunk's stream, played by every pair at
//! every rotation (a sitting game's deal is a whole sitting). Every pair and seating meets the
//! same deals with the same decision stream, so seat advantage and deal luck cancel within each
//! deal, and the per-deal differences between the two sides are what the intervals and tests are
//! built from. Tallies are integer sums over deals, so any number of threads or shards gives the
//! same numbers.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::sim::{for_each_game, good};
use super::{
    game_streams, play, scored, Fault, Game, GameRules, Outcome, Start, Strategy, MAX_SEATS,
};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{Interval, Sums};

/// Most strategies in one tournament.
pub const MAX_STRATEGIES: usize = 16;

/// A tournament: the rules and the strategies that meet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct TournamentSetup<G: Game, S = <G as Game>::Strategy> {
    /// The rules (players included).
    pub rules: G::Rules,
    /// The strategies, two to [`MAX_STRATEGIES`], each once.
    pub strategies: Vec<S>,
    /// Check the engine's invariants after every action.
    pub check: bool,
}

impl<G: Game, S: Strategy<G>> TournamentSetup<G, S> {
    /// Checks the rules and the list (two to [`MAX_STRATEGIES`] strategies, none twice).
    pub fn new(rules: G::Rules, strategies: &[S], check: bool) -> Result<Self> {
        rules.validate()?;
        if strategies.len() < 2 {
            return Err(Error::usage(format!(
                "a tournament needs two or more strategies, e.g. --strategies {}",
                G::INFO.default_tournament
            )));
        }
        if strategies.len() > MAX_STRATEGIES {
            return Err(Error::usage(format!(
                "{} strategies in --strategies: a tournament takes at most {MAX_STRATEGIES}",
                strategies.len()
            )));
        }
        for (i, s) in strategies.iter().enumerate() {
            if strategies[..i].contains(s) {
                return Err(Error::usage(format!(
                    "strategy '{s}' is listed twice in --strategies: name each once"
                )));
            }
        }
        Ok(Self {
            rules,
            strategies: strategies.to_vec(),
            check,
        })
    }

    /// Every pair `(i, j)` of strategy indices with `i < j`, in order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let m = self.strategies.len();
        (0..m)
            .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
            .collect()
    }

    /// Distinct rotations of the alternating seating: 2 for an even table, one per seat for an
    /// odd one.
    pub fn rotations(&self) -> usize {
        let p = self.rules.players();
        if p.is_multiple_of(2) {
            2
        } else {
            p
        }
    }

    /// Seats of side A (first of the pair) and of side B in every seating.
    pub fn side_seats(&self) -> (usize, usize) {
        let p = self.rules.players();
        (p.div_ceil(2), p / 2)
    }

    /// Whether `seat` is played by side A in rotation `r`.
    pub fn is_a(&self, seat: usize, r: usize) -> bool {
        ((seat + r) % self.rules.players()).is_multiple_of(2)
    }

    /// Deals per chunk (a sitting game's deal is a chunk of steps).
    pub fn chunk_size(&self) -> u64 {
        let (fast, slow) = G::INFO.tournament_chunk;
        if G::INFO.sitting {
            G::INFO.chunk
        } else if self.strategies.iter().any(Strategy::is_slow) {
            slow
        } else {
            fast
        }
    }

    /// Samples needed for at least `games` games per pair (sittings: steps, as given).
    pub fn deals_for(&self, games: u64) -> u64 {
        if G::INFO.sitting {
            games
        } else {
            games.div_ceil(self.rotations() as u64)
        }
    }
}

/// One pair's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    /// Games played (deals × rotations).
    pub games: u64,
    /// Draws.
    pub draws: u64,
    /// Games stopped at the move cap.
    pub capped: u64,
    /// Σ game length.
    pub length: u64,
    /// Per deal: side A's seats holding the event (or side A's points), over the rotations.
    pub a: Sums,
    /// Per deal: side B's.
    pub b: Sums,
    /// Per deal: seats_B · a − seats_A · b (the per-seat difference, scaled to integers).
    pub diff: Sums,
}

impl PairTally {
    fn absorb(&mut self, o: &Self) {
        self.games += o.games;
        self.draws += o.draws;
        self.capped += o.capped;
        self.length += o.length;
        self.a.absorb(&o.a);
        self.b.absorb(&o.b);
        self.diff.absorb(&o.diff);
    }
}

/// Counts of a tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentTally {
    /// Deals played by every pair at every rotation.
    pub deals: u64,
    /// Σ steps per deal (sittings: hands), for per-step figures.
    #[serde(default)]
    pub steps: u64,
    /// Deals dropped because a game broke a rule (0 unless something is broken).
    pub dropped_deals: u64,
    /// Invariant violations found with `--check`.
    pub violations: u64,
    /// Actions a bot chose that the engine refused.
    pub illegal_actions: u64,
    /// Per pair, in [`TournamentSetup::pairs`] order.
    pub pairs: Vec<PairTally>,
    /// Per strategy: per deal, its seats holding the event (or its points) over all its games.
    pub strategies: Vec<Sums>,
}

impl Tally for TournamentTally {
    fn absorb(&mut self, o: &Self) {
        self.deals += o.deals;
        self.steps += o.steps;
        self.dropped_deals += o.dropped_deals;
        self.violations += o.violations;
        self.illegal_actions += o.illegal_actions;
        super::sim::absorb_all(&mut self.pairs, &o.pairs, PairTally::absorb);
        super::sim::absorb_all(&mut self.strategies, &o.strategies, Sums::absorb);
    }
}

/// One deal's counts for one pair, before the deal is known to be clean.
#[derive(Clone, Copy, Debug, Default)]
struct DealCounts {
    a: i64,
    b: i64,
    draws: u64,
    capped: u64,
    length: u64,
}

/// The tournament simulation.
pub struct TournamentSimulation<G: Game, S: Strategy<G> = <G as Game>::Strategy> {
    setup: TournamentSetup<G, S>,
    pairs: Vec<(usize, usize)>,
    /// Per pair and rotation: which bot plays each seat.
    seatings: Vec<[usize; MAX_SEATS]>,
    rotations: usize,
}

impl<G: Game, S: Strategy<G>> TournamentSimulation<G, S> {
    /// The simulation of a tournament.
    pub fn new(setup: &TournamentSetup<G, S>) -> Self {
        let p = setup.rules.players();
        let pairs = setup.pairs();
        let rotations = setup.rotations();
        let mut seatings = Vec::with_capacity(pairs.len() * rotations);
        for &(i, j) in &pairs {
            for r in 0..rotations {
                let mut seats = [0; MAX_SEATS];
                for (s, bot) in seats.iter_mut().enumerate().take(p) {
                    // Bot k·P + s plays seat s for strategy k: every seat has its own bot.
                    *bot = if setup.is_a(s, r) { i } else { j } * p + s;
                }
                seatings.push(seats);
            }
        }
        Self {
            setup: setup.clone(),
            pairs,
            seatings,
            rotations,
        }
    }

    fn play_deal(
        &self,
        bots: &mut [S::Bot],
        scratch: &mut [DealCounts],
        start: &Start,
        deal: &Stream,
        decisions: &Stream,
        t: &mut TournamentTally,
    ) {
        let p = self.setup.rules.players();
        let scored = scored::<G>();
        let mut fault = None;
        for (k, counts) in scratch.iter_mut().enumerate() {
            *counts = DealCounts::default();
            for r in 0..self.rotations {
                let seats = &self.seatings[k * self.rotations + r];
                let played = match play::<G, S::Bot>(
                    &self.setup.rules,
                    start,
                    bots,
                    seats,
                    &mut deal.clone(),
                    &mut decisions.clone(),
                    self.setup.check,
                ) {
                    Ok(x) => x,
                    Err(f) => {
                        fault = Some(f);
                        continue;
                    }
                };
                counts.length += played.length;
                match played.outcome {
                    Outcome::Draw => counts.draws += 1,
                    Outcome::Capped => counts.capped += 1,
                    _ => {
                        for s in 0..p {
                            let v = played.value(s, scored);
                            if self.setup.is_a(s, r) {
                                counts.a += v;
                            } else {
                                counts.b += v;
                            }
                        }
                    }
                }
            }
        }
        if let Some(f) = fault {
            t.dropped_deals += 1;
            match f {
                Fault::Illegal => t.illegal_actions += 1,
                Fault::Violation => t.violations += 1,
            }
            return;
        }
        t.deals += 1;
        t.steps += start.length;
        let (na, nb) = self.setup.side_seats();
        let mut per_strategy = [0i64; MAX_STRATEGIES];
        for (k, c) in scratch.iter().enumerate() {
            let pt = &mut t.pairs[k];
            pt.games += self.rotations as u64;
            pt.draws += c.draws;
            pt.capped += c.capped;
            pt.length += c.length;
            pt.a.add(c.a);
            pt.b.add(c.b);
            pt.diff.add(nb as i64 * c.a - na as i64 * c.b);
            let (i, j) = self.pairs[k];
            per_strategy[i] += c.a;
            per_strategy[j] += c.b;
        }
        for (m, &x) in t.strategies.iter_mut().zip(&per_strategy) {
            m.add(x);
        }
    }
}

impl<G: Game, S: Strategy<G>> Simulation for TournamentSimulation<G, S> {
    type Tally = TournamentTally;
    fn chunk_size(&self) -> u64 {
        self.setup.chunk_size()
    }
    fn empty_tally(&self) -> TournamentTally {
        TournamentTally {
            pairs: vec![PairTally::default(); self.pairs.len()],
            strategies: vec![Sums::default(); self.setup.strategies.len()],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, deals: u64, t: &mut TournamentTally) {
        let p = self.setup.rules.players();
        let mut bots: Vec<S::Bot> = self
            .setup
            .strategies
            .iter()
            .flat_map(|s| (0..p).map(move |_| s.bot(&self.setup.rules)))
            .collect();
        let mut scratch = vec![DealCounts::default(); self.pairs.len()];
        for_each_game::<G>(deals, |_, start| {
            let (deal, decisions) = game_streams(stream);
            self.play_deal(&mut bots, &mut scratch, &start, &deal, &decisions, t);
        });
    }
}

/// A rate per seat-game (or, for sittings, per seat and step) from per-deal sums over
/// `per_deal` seat-games, with its 95 % interval from the spread between deals. When every deal
/// gave the same count (no spread: a strategy that never wins, or always does), the Wilson
/// interval of the events over the seat-games.
fn seat_rate<G: Game>(m: &Sums, t: &TournamentTally, per_deal: usize) -> (f64, Interval) {
    let e = m.estimate(t.deals);
    let k = per_deal.max(1) as f64 * steps_per_deal::<G>(t);
    let clamp = !scored::<G>();
    if t.deals == 0 {
        return (
            0.0,
            Interval {
                low: 0.0,
                high: 1.0,
            },
        );
    }
    if clamp && e.sd == 0.0 {
        let trials = t.deals * per_deal.max(1) as u64;
        let (p, ci) = crate::stats::wilson95((m.sum.max(0) as u64).min(trials), trials);
        return (p.estimate(), ci);
    }
    let ci = if t.deals > 1 {
        e.interval(0.95)
    } else {
        Interval {
            low: if clamp { 0.0 } else { f64::NEG_INFINITY },
            high: if clamp { k } else { f64::INFINITY },
        }
    };
    let (low, high) = if clamp {
        ((ci.low / k).max(0.0), (ci.high / k).min(1.0))
    } else {
        (ci.low / k, ci.high / k)
    };
    (e.mean / k, Interval { low, high })
}

fn steps_per_deal<G: Game>(t: &TournamentTally) -> f64 {
    if G::INFO.sitting {
        t.steps.max(1) as f64 / t.deals.max(1) as f64
    } else {
        1.0
    }
}

/// One pair's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairResult {
    /// Side A's strategy index.
    pub a: usize,
    /// Side B's strategy index.
    pub b: usize,
    /// A's rate per seat-game (points per seat and step in a scored game).
    pub a_rate: f64,
    /// Its 95 % interval.
    pub a_ci: Interval,
    /// B's.
    pub b_rate: f64,
    /// Its 95 % interval.
    pub b_ci: Interval,
    /// A − B.
    pub difference: f64,
    /// 95 % interval of the difference (paired by deal).
    pub diff_ci: Interval,
    /// Two-sided p-value of the paired z test.
    pub p_value: f64,
}

/// Every pair's result, in [`TournamentSetup::pairs`] order.
pub fn pair_results<G: Game, S: Strategy<G>>(
    setup: &TournamentSetup<G, S>,
    t: &TournamentTally,
) -> Vec<PairResult> {
    let (na, nb) = setup.side_seats();
    let r = setup.rotations();
    let clamp = !scored::<G>();
    setup
        .pairs()
        .iter()
        .zip(&t.pairs)
        .map(|(&(a, b), pt)| {
            let (a_rate, a_ci) = seat_rate::<G>(&pt.a, t, na * r);
            let (b_rate, b_ci) = seat_rate::<G>(&pt.b, t, nb * r);
            let d = pt.diff.estimate(t.deals);
            let scale = (na * nb * r) as f64 * steps_per_deal::<G>(t);
            let ci = d.interval(0.95);
            PairResult {
                a,
                b,
                a_rate,
                a_ci,
                b_rate,
                b_ci,
                difference: if t.deals == 0 { 0.0 } else { d.mean / scale },
                diff_ci: if t.deals > 1 {
                    Interval {
                        low: ci.low / scale,
                        high: ci.high / scale,
                    }
                } else if clamp {
                    Interval {
                        low: -1.0,
                        high: 1.0,
                    }
                } else {
                    Interval {
                        low: f64::NEG_INFINITY,
                        high: f64::INFINITY,
                    }
                },
                p_value: if t.deals > 1 {
                    d.p_value_against_zero()
                } else {
                    1.0
                },
            }
        })
        .collect()
}

/// One strategy's standing over all its games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// Strategy index.
    pub strategy: usize,
    /// Its rate per seat-game over all its pairs (points per seat and step when scored).
    pub rate: f64,
    /// Its 95 % interval.
    pub ci: Interval,
    /// Opponents it does better than.
    pub beats: usize,
    /// Of those, opponents where the difference is significant at 5 %.
    pub significant: usize,
}

/// The ranking: best first (the lowest rate of a bad event, the highest of a good one or of
/// points; ties by listing order).
pub fn standings<G: Game, S: Strategy<G>>(
    setup: &TournamentSetup<G, S>,
    t: &TournamentTally,
) -> Vec<Standing> {
    let (na, nb) = setup.side_seats();
    let r = setup.rotations();
    let m = setup.strategies.len();
    let results = pair_results(setup, t);
    let higher_is_better = good::<G>();
    let mut v: Vec<Standing> = (0..m)
        .map(|k| {
            // Seat-games per deal: as A against later strategies, as B against earlier ones.
            let per_deal = (k * nb + (m - 1 - k) * na) * r;
            let (rate, ci) = seat_rate::<G>(&t.strategies[k], t, per_deal);
            let mut beats = 0;
            let mut significant = 0;
            for pr in &results {
                // How much better than its opponent (A − B is the first side's excess).
                let excess = if pr.a == k {
                    pr.difference
                } else if pr.b == k {
                    -pr.difference
                } else {
                    continue;
                };
                let better = if higher_is_better { excess } else { -excess };
                if better > 0.0 {
                    beats += 1;
                    significant += (pr.p_value < 0.05) as usize;
                }
            }
            Standing {
                strategy: k,
                rate,
                ci,
                beats,
                significant,
            }
        })
        .collect();
    v.sort_by(|x, y| {
        let order = if higher_is_better {
            y.rate.total_cmp(&x.rate)
        } else {
            x.rate.total_cmp(&y.rate)
        };
        order.then(x.strategy.cmp(&y.strategy))
    });
    v
}

/// The report of a tournament.
pub fn report<G: Game, S: Strategy<G>>(
    setup: &TournamentSetup<G, S>,
    t: &TournamentTally,
    run: &RunSummary,
) -> Report {
    let info = &G::INFO;
    let w = &info.words;
    let scored = scored::<G>();
    let names: Vec<String> = setup.strategies.iter().map(|s| s.to_string()).collect();
    let r = setup.rotations();
    let mut rep = Report::new(format!(
        "{} tournament · {} · {}",
        info.title,
        setup.rules.describe(),
        names.join(", ")
    ));
    let per_pair = t.deals * r as u64;
    if info.sitting {
        rep.field(
            info.sample_unit,
            &format!("{} per pair and seating", info.sample_unit),
            Value::Int(t.steps as i64),
        );
        rep.field("sittings", "sittings per pair", Value::Int(per_pair as i64));
    } else {
        rep.field(
            "games_per_pair",
            "games per pair",
            Value::Int(per_pair as i64),
        );
        rep.field(
            "games",
            "games",
            Value::Int((per_pair * setup.pairs().len() as u64) as i64),
        );
        rep.field("deals", "deals", Value::Int(t.deals as i64));
    }
    rep.field("seatings", "seatings per deal", Value::Int(r as i64));
    rep.field("seed", "seed", Value::Int(run.spec.seed as i64));
    if setup.check {
        rep.field(
            "violations",
            "rule violations found",
            Value::Int(t.violations as i64),
        );
    }
    let unit = if scored {
        format!(
            "points per seat and {}",
            crate::text::singular(w.length_unit)
        )
    } else {
        format!("{} per seat", w.rate)
    };
    let fmt = |x: f64| {
        if scored {
            Value::Num(x, 5)
        } else {
            Value::Prob(x)
        }
    };
    // An interval that one deal cannot estimate (points have no bounds) is left empty.
    let fmt_ci = |c: Interval| {
        if !(c.low.is_finite() && c.high.is_finite()) {
            Value::Empty
        } else if scored {
            Value::NumInterval(c.low, c.high, 5)
        } else {
            Value::ProbInterval(c.low, c.high)
        }
    };
    let order = if good::<G>() { "highest" } else { "lowest" };
    let mut ranking = Table::new(
        "ranking",
        &format!(
            "Ranking ({order} {} first)",
            if scored { "points" } else { w.rate }
        ),
        &[
            ("rank", "rank"),
            ("strategy", "strategy"),
            ("rate", &unit),
            ("ci95", "95 % interval"),
            ("beats", "opponents it beats"),
            ("significant", "of them at p < 0.05"),
        ],
    );
    ranking.top_level = true;
    for (i, s) in standings(setup, t).iter().enumerate() {
        ranking.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(names[s.strategy].clone()),
            fmt(s.rate),
            fmt_ci(s.ci),
            Value::Int(s.beats as i64),
            Value::Int(s.significant as i64),
        ]);
    }
    rep.tables.push(ranking);

    let a_label = format!("A {unit}");
    let b_label = format!("B {unit}");
    let diff_label = if scored {
        "A − B"
    } else {
        "A − B (points)"
    };
    let length_label = format!("mean {}", w.length_unit);
    let mut columns: Vec<(&str, &str)> = vec![
        ("a", "A"),
        ("b", "B"),
        ("games", if info.sitting { "sittings" } else { "games" }),
        ("a_rate", &a_label),
        ("a_ci95", "95 % interval"),
        ("b_rate", &b_label),
        ("b_ci95", "95 % interval"),
        ("difference", diff_label),
        ("ci95", "95 % interval"),
        ("p_value", "p-value"),
    ];
    if info.draws {
        columns.push(("draw_rate", "draws"));
    }
    if !info.sitting {
        columns.push(("mean_length", &length_label));
    }
    let mut pairs = Table::new(
        "pairs",
        "Pairs (A, B, A, B, … by seat, every rotation on the same deals)",
        &columns,
    );
    pairs.top_level = true;
    let results = pair_results(setup, t);
    let d = if scored { 5 } else { 3 };
    for (pr, pt) in results.iter().zip(&t.pairs) {
        let per_game = |x: u64| {
            if pt.games == 0 {
                0.0
            } else {
                x as f64 / pt.games as f64
            }
        };
        let mut row = vec![
            Value::Text(names[pr.a].clone()),
            Value::Text(names[pr.b].clone()),
            Value::Int(pt.games as i64),
            fmt(pr.a_rate),
            fmt_ci(pr.a_ci),
            fmt(pr.b_rate),
            fmt_ci(pr.b_ci),
            if scored {
                Value::Num(pr.difference, d)
            } else {
                Value::RateDiff(pr.difference)
            },
            if !(pr.diff_ci.low.is_finite() && pr.diff_ci.high.is_finite()) {
                Value::Empty
            } else if scored {
                Value::NumInterval(pr.diff_ci.low, pr.diff_ci.high, d)
            } else {
                Value::RateDiffInterval(pr.diff_ci.low, pr.diff_ci.high)
            },
            Value::PValue(pr.p_value),
        ];
        if info.draws {
            row.push(Value::Prob(per_game(pt.draws)));
        }
        if !info.sitting {
            row.push(Value::Num(per_game(pt.length), 2));
        }
        pairs.push(row);
    }
    rep.tables.push(pairs);

    if results.len() <= 6 {
        for pr in &results {
            if pr.difference == 0.0 {
                rep.note(format!(
                    "{} and {}: each does exactly as well per seat.",
                    names[pr.a], names[pr.b]
                ));
                continue;
            }
            // Which side does better: fewer losses, more wins or points.
            let a_better = (pr.difference > 0.0) == good::<G>();
            let (better, worse) = if a_better {
                (&names[pr.a], &names[pr.b])
            } else {
                (&names[pr.b], &names[pr.a])
            };
            let gap = pr.difference.abs();
            let verdict = if pr.p_value < 0.05 {
                "a real difference"
            } else {
                "not distinguishable from chance at this size"
            };
            let how = if scored {
                format!(
                    "{better} makes {} points more per seat and {}",
                    humanize::significant(gap, 3),
                    crate::text::singular(w.length_unit)
                )
            } else if good::<G>() {
                format!(
                    "{better} {} {} percentage points more often per seat",
                    w.phrase,
                    humanize::significant(gap * 100.0, 3)
                )
            } else {
                format!(
                    "{better} {} {} percentage points less often per seat",
                    w.phrase,
                    humanize::significant(gap * 100.0, 3)
                )
            };
            rep.note(format!(
                "{better} against {worse}: {how} ({verdict}, p {}).",
                Value::PValue(pr.p_value).display()
            ));
        }
    }
    let (na, nb) = setup.side_seats();
    let seats = |n: usize| format!("{n} seat{}", if n == 1 { "" } else { "s" });
    rep.note(format!(
        "Each pair plays every deal at {r} seatings (A in {}, B in {}); {}, differences are paired by deal.",
        seats(na),
        seats(nb),
        if info.sitting {
            "a deal is a sitting; points are per seat and hand"
        } else if scored {
            "points are per seat-game"
        } else {
            "rates are per seat-game"
        }
    ));
    if let Some(n) = G::tournament_note(&setup.rules) {
        rep.note(n);
    }
    if info.sitting && t.deals < 30 {
        rep.note(format!(
            "Only {} sittings per pair and seating: with fewer than 30 the intervals are rough (none with one); play more {}.",
            t.deals, info.sample_unit
        ));
    }
    let capped: u64 = t.pairs.iter().map(|p| p.capped).sum();
    if capped > 0 {
        rep.note(format!(
            "{} reached the move cap unfinished (no {}).",
            crate::text::count_of(capped, "games"),
            w.event
        ));
    }
    if t.dropped_deals > 0 {
        rep.note(format!(
            "{} had a game that broke a rule and were dropped: this is a bug, please report it.",
            crate::text::count_of(t.dropped_deals, "deals")
        ));
    }
    let mut notes: Vec<String> = Vec::new();
    for n in setup.strategies.iter().filter_map(|s| s.note(&setup.rules)) {
        if !notes.contains(&n) {
            notes.push(n);
        }
    }
    for n in notes.into_iter().chain(run.notes()) {
        rep.note(n);
    }
    if !run.is_complete() {
        rep.note("(A sample is one deal, played by every pair at every seating.)");
    }
    rep
}
