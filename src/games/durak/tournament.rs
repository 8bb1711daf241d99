//! `tahur durak tournament`: every strategy against every other, with the seats rotated.
//!
//! A pair of strategies A and B fills the table alternately (A, B, A, B, … from seat 1) and is
//! played at every distinct rotation of that seating: two for an even table (A in the odd
//! seats, then in the even ones), one per seat for an odd table. The run's sample is one
//! *deal*: two seeds (deal, decisions) drawn from the chunk's stream, played by every pair at
//! every rotation. Every pair and seating thus meets the same deals with the same decision
//! stream, so seat advantage and deal luck cancel within each deal, and the per-deal
//! differences between the two sides are what the intervals and tests are built from. Tallies
//! are integer sums over deals, so any number of threads or shards gives the same numbers.

use serde::{Deserialize, Serialize};

use super::bots::{Bot, Strategy};
use super::engine::Start;
use super::rules::{Rules, MAX_PLAYERS};
use super::sim::{game_streams, play_game, Fault, Played};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::chart::{Bar, BarChart};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{Interval, MeanEstimate};

/// Deals per chunk (part of a run's definition) when no strategy searches.
pub const DEALS_CHUNK: u64 = 128;
/// Deals per chunk when a strategy is `ismcts`.
pub const SEARCH_DEALS_CHUNK: u64 = 1;
/// Most strategies in one tournament.
pub const MAX_STRATEGIES: usize = 16;

/// A tournament: the rules and the strategies that meet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSetup {
    /// The rules (players included).
    pub rules: Rules,
    /// The strategies, two to [`MAX_STRATEGIES`], each once.
    pub strategies: Vec<Strategy>,
    /// Check the engine's invariants after every action.
    pub check: bool,
}

impl TournamentSetup {
    /// Checks the rules and the list (two to [`MAX_STRATEGIES`] strategies, none twice).
    pub fn new(rules: Rules, strategies: &[Strategy], check: bool) -> Result<Self> {
        rules.validate()?;
        if strategies.len() < 2 {
            return Err(Error::usage(
                "a tournament needs two or more strategies, e.g. --strategies random,greedy,expert",
            ));
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
        let p = self.rules.players as usize;
        if p % 2 == 0 {
            2
        } else {
            p
        }
    }

    /// Seats of side A (first of the pair) and of side B in every seating.
    pub fn side_seats(&self) -> (usize, usize) {
        let p = self.rules.players as usize;
        (p.div_ceil(2), p / 2)
    }

    /// Whether `seat` is played by side A in rotation `r`.
    pub fn is_a(&self, seat: usize, r: usize) -> bool {
        (seat + r) % self.rules.players as usize % 2 == 0
    }

    /// Deals per chunk.
    pub fn chunk_size(&self) -> u64 {
        if self
            .strategies
            .iter()
            .any(|s| matches!(s, Strategy::Ismcts { .. }))
        {
            SEARCH_DEALS_CHUNK
        } else {
            DEALS_CHUNK
        }
    }

    /// Deals needed for at least `games` games per pair.
    pub fn deals_for(&self, games: u64) -> u64 {
        games.div_ceil(self.rotations() as u64)
    }
}

/// Integer sums of a per-deal count: Σx and Σx².
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    /// Σ x over deals.
    pub sum: i64,
    /// Σ x² over deals.
    pub sum_sq: u128,
}

impl Moments {
    fn add(&mut self, x: i64) {
        self.sum += x;
        self.sum_sq += (x as i128 * x as i128) as u128;
    }
    fn absorb(&mut self, o: &Self) {
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
    /// The mean per deal with its spread.
    pub fn estimate(&self, deals: u64) -> MeanEstimate {
        MeanEstimate::from_sums(deals, self.sum as i128, self.sum_sq)
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
    /// Bouts played.
    pub bouts: u64,
    /// Per deal: seats of side A among the losers, summed over the rotations.
    pub a: Moments,
    /// Per deal: seats of side B among the losers.
    pub b: Moments,
    /// Per deal: seats_B · a − seats_A · b (the per-seat rate difference, scaled to integers).
    pub diff: Moments,
}

impl PairTally {
    fn absorb(&mut self, o: &Self) {
        self.games += o.games;
        self.draws += o.draws;
        self.capped += o.capped;
        self.bouts += o.bouts;
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
    /// Deals dropped because a game broke a rule (0 unless something is broken).
    pub dropped_deals: u64,
    /// Invariant violations found with `--check`.
    pub violations: u64,
    /// Actions a bot chose that the engine refused.
    pub illegal_actions: u64,
    /// Per pair, in [`TournamentSetup::pairs`] order.
    pub pairs: Vec<PairTally>,
    /// Per strategy: per deal, its seats among the losers over all its games.
    pub strategies: Vec<Moments>,
}

impl Tally for TournamentTally {
    fn absorb(&mut self, o: &Self) {
        self.deals += o.deals;
        self.dropped_deals += o.dropped_deals;
        self.violations += o.violations;
        self.illegal_actions += o.illegal_actions;
        if self.pairs.len() < o.pairs.len() {
            self.pairs.resize(o.pairs.len(), PairTally::default());
        }
        for (x, y) in self.pairs.iter_mut().zip(&o.pairs) {
            x.absorb(y);
        }
        if self.strategies.len() < o.strategies.len() {
            self.strategies
                .resize(o.strategies.len(), Moments::default());
        }
        for (x, y) in self.strategies.iter_mut().zip(&o.strategies) {
            x.absorb(y);
        }
    }
}

/// One deal's counts for one pair, before the deal is known to be clean.
#[derive(Clone, Copy, Debug, Default)]
struct DealCounts {
    a: i64,
    b: i64,
    draws: u64,
    capped: u64,
    bouts: u64,
}

/// The tournament simulation.
pub struct TournamentSimulation {
    setup: TournamentSetup,
    pairs: Vec<(usize, usize)>,
    /// Per pair and rotation: which bot plays each seat.
    seatings: Vec<[usize; MAX_PLAYERS]>,
    rotations: usize,
}

impl TournamentSimulation {
    /// The simulation of a tournament.
    pub fn new(setup: &TournamentSetup) -> Self {
        let p = setup.rules.players as usize;
        let pairs = setup.pairs();
        let rotations = setup.rotations();
        let mut seatings = Vec::with_capacity(pairs.len() * rotations);
        for &(i, j) in &pairs {
            for r in 0..rotations {
                let mut seats = [0; MAX_PLAYERS];
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
        bots: &mut [Bot],
        scratch: &mut [DealCounts],
        deal: &Stream,
        decisions: &Stream,
        t: &mut TournamentTally,
    ) {
        let p = self.setup.rules.players as usize;
        let mut fault = None;
        for (k, counts) in scratch.iter_mut().enumerate() {
            *counts = DealCounts::default();
            for r in 0..self.rotations {
                let seats = &self.seatings[k * self.rotations + r];
                let played = play_game(
                    &self.setup.rules,
                    bots,
                    seats,
                    Start::default(),
                    &mut deal.clone(),
                    &mut decisions.clone(),
                    self.setup.check,
                );
                let played: Played = match played {
                    Ok(x) => x,
                    Err(f) => {
                        fault = Some(f);
                        continue;
                    }
                };
                counts.bouts += played.bouts as u64;
                match played.outcome {
                    super::engine::Outcome::Draw => counts.draws += 1,
                    super::engine::Outcome::Capped => counts.capped += 1,
                    super::engine::Outcome::Lost { losers } => {
                        for s in 0..p {
                            if losers >> s & 1 == 1 {
                                if self.setup.is_a(s, r) {
                                    counts.a += 1;
                                } else {
                                    counts.b += 1;
                                }
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
        let (na, nb) = self.setup.side_seats();
        let mut per_strategy = [0i64; MAX_STRATEGIES];
        for (k, c) in scratch.iter().enumerate() {
            let pt = &mut t.pairs[k];
            pt.games += self.rotations as u64;
            pt.draws += c.draws;
            pt.capped += c.capped;
            pt.bouts += c.bouts;
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

impl Simulation for TournamentSimulation {
    type Tally = TournamentTally;
    fn chunk_size(&self) -> u64 {
        self.setup.chunk_size()
    }
    fn empty_tally(&self) -> TournamentTally {
        TournamentTally {
            pairs: vec![PairTally::default(); self.pairs.len()],
            strategies: vec![Moments::default(); self.setup.strategies.len()],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, deals: u64, t: &mut TournamentTally) {
        let p = self.setup.rules.players as usize;
        let mut bots: Vec<Bot> = self
            .setup
            .strategies
            .iter()
            .flat_map(|&s| (0..p).map(move |_| Bot::new(s)))
            .collect();
        let mut scratch = vec![DealCounts::default(); self.pairs.len()];
        for _ in 0..deals {
            let (deal, decisions) = game_streams(stream);
            self.play_deal(&mut bots, &mut scratch, &deal, &decisions, t);
        }
    }
}

/// A per-seat rate from per-deal counts over `per_deal` seat-games, with its 95 % interval.
fn seat_rate(m: &Moments, deals: u64, per_deal: usize) -> (f64, Interval) {
    let e = m.estimate(deals);
    let k = per_deal.max(1) as f64;
    if deals == 0 {
        return (
            0.0,
            Interval {
                low: 0.0,
                high: 1.0,
            },
        );
    }
    let ci = if deals > 1 {
        e.interval(0.95)
    } else {
        Interval { low: 0.0, high: k }
    };
    (
        e.mean / k,
        Interval {
            low: (ci.low / k).max(0.0),
            high: (ci.high / k).min(1.0),
        },
    )
}

/// One pair's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairResult {
    /// Side A's strategy index.
    pub a: usize,
    /// Side B's strategy index.
    pub b: usize,
    /// A's durak rate per seat-game.
    pub a_rate: f64,
    /// Its 95 % interval.
    pub a_ci: Interval,
    /// B's durak rate per seat-game.
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
pub fn pair_results(setup: &TournamentSetup, t: &TournamentTally) -> Vec<PairResult> {
    let (na, nb) = setup.side_seats();
    let r = setup.rotations();
    setup
        .pairs()
        .iter()
        .zip(&t.pairs)
        .map(|(&(a, b), pt)| {
            let (a_rate, a_ci) = seat_rate(&pt.a, t.deals, na * r);
            let (b_rate, b_ci) = seat_rate(&pt.b, t.deals, nb * r);
            let d = pt.diff.estimate(t.deals);
            let scale = (na * nb * r) as f64;
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
                } else {
                    Interval {
                        low: -1.0,
                        high: 1.0,
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
    /// Durak rate per seat-game over all its pairs.
    pub rate: f64,
    /// Its 95 % interval.
    pub ci: Interval,
    /// Opponents it is the durak less often than.
    pub lower: usize,
    /// Of those, opponents where the difference is significant at 5 %.
    pub significant: usize,
}

/// The ranking: lowest durak rate first (ties by listing order).
pub fn standings(setup: &TournamentSetup, t: &TournamentTally) -> Vec<Standing> {
    let (na, nb) = setup.side_seats();
    let r = setup.rotations();
    let m = setup.strategies.len();
    let results = pair_results(setup, t);
    let mut v: Vec<Standing> = (0..m)
        .map(|k| {
            // Seat-games per deal: as A against later strategies, as B against earlier ones.
            let per_deal = (k * nb + (m - 1 - k) * na) * r;
            let (rate, ci) = seat_rate(&t.strategies[k], t.deals, per_deal);
            let mut lower = 0;
            let mut significant = 0;
            for pr in &results {
                let mine = if pr.a == k {
                    -pr.difference
                } else if pr.b == k {
                    pr.difference
                } else {
                    continue;
                };
                if mine > 0.0 {
                    lower += 1;
                    significant += (pr.p_value < 0.05) as usize;
                }
            }
            Standing {
                strategy: k,
                rate,
                ci,
                lower,
                significant,
            }
        })
        .collect();
    v.sort_by(|x, y| x.rate.total_cmp(&y.rate).then(x.strategy.cmp(&y.strategy)));
    v
}

/// The report of a tournament.
pub fn report(setup: &TournamentSetup, t: &TournamentTally, run: &RunSummary) -> Report {
    let names: Vec<String> = setup.strategies.iter().map(|s| s.to_string()).collect();
    let r = setup.rotations();
    let mut rep = Report::new(format!(
        "Durak tournament · {} · {}",
        setup.rules.describe(),
        names.join(", ")
    ));
    let per_pair = t.deals * r as u64;
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
    rep.field("seatings", "seatings per deal", Value::Int(r as i64));
    rep.field("seed", "seed", Value::Int(run.spec.seed as i64));
    if setup.check {
        rep.field(
            "violations",
            "rule violations found",
            Value::Int(t.violations as i64),
        );
    }

    let mut ranking = Table::new(
        "ranking",
        "Ranking (lowest durak rate first)",
        &[
            ("rank", "rank"),
            ("strategy", "strategy"),
            ("durak_rate", "durak rate per seat"),
            ("ci95", "95 % interval"),
            ("lower_than", "opponents it beats"),
            ("significant", "of them at p < 0.05"),
        ],
    );
    ranking.top_level = true;
    for (i, s) in standings(setup, t).iter().enumerate() {
        ranking.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(names[s.strategy].clone()),
            Value::Prob(s.rate),
            Value::ProbInterval(s.ci.low, s.ci.high),
            Value::Int(s.lower as i64),
            Value::Int(s.significant as i64),
        ]);
    }
    rep.tables.push(ranking);

    let mut pairs = Table::new(
        "pairs",
        "Pairs (A, B, A, B, … by seat, every rotation on the same deals)",
        &[
            ("a", "A"),
            ("b", "B"),
            ("games", "games"),
            ("a_durak_rate", "A durak rate per seat"),
            ("a_ci95", "95 % interval"),
            ("b_durak_rate", "B durak rate per seat"),
            ("b_ci95", "95 % interval"),
            ("difference", "A − B (points)"),
            ("ci95", "95 % interval"),
            ("p_value", "p-value"),
            ("draw_rate", "draws"),
            ("mean_bouts", "mean bouts"),
        ],
    );
    pairs.top_level = true;
    let results = pair_results(setup, t);
    for (pr, pt) in results.iter().zip(&t.pairs) {
        pairs.push(vec![
            Value::Text(names[pr.a].clone()),
            Value::Text(names[pr.b].clone()),
            Value::Int(pt.games as i64),
            Value::Prob(pr.a_rate),
            Value::ProbInterval(pr.a_ci.low, pr.a_ci.high),
            Value::Prob(pr.b_rate),
            Value::ProbInterval(pr.b_ci.low, pr.b_ci.high),
            Value::Num(pr.difference * 100.0, 3),
            Value::NumInterval(pr.diff_ci.low * 100.0, pr.diff_ci.high * 100.0, 3),
            Value::PValue(pr.p_value),
            Value::Prob(if pt.games == 0 {
                0.0
            } else {
                pt.draws as f64 / pt.games as f64
            }),
            Value::Num(
                if pt.games == 0 {
                    0.0
                } else {
                    pt.bouts as f64 / pt.games as f64
                },
                2,
            ),
        ]);
    }
    rep.tables.push(pairs);

    if results.len() <= 6 {
        for pr in &results {
            if pr.difference == 0.0 {
                rep.note(format!(
                    "{} and {}: each is the durak exactly as often per seat.",
                    names[pr.a], names[pr.b]
                ));
                continue;
            }
            let (better, worse, gap) = if pr.difference < 0.0 {
                (&names[pr.a], &names[pr.b], -pr.difference)
            } else {
                (&names[pr.b], &names[pr.a], pr.difference)
            };
            let verdict = if pr.p_value < 0.05 {
                "a real difference"
            } else {
                "not distinguishable from chance at this size"
            };
            rep.note(format!(
                "{better} against {worse}: {better} is the durak {} percentage points less often per seat ({verdict}, p {}).",
                humanize::significant(gap * 100.0, 3),
                Value::PValue(pr.p_value).display()
            ));
        }
    }
    let (na, nb) = setup.side_seats();
    let seats = |n: usize| format!("{n} seat{}", if n == 1 { "" } else { "s" });
    rep.note(format!(
        "Each pair plays every deal at {r} seatings (A in {}, B in {}); durak rates are per seat-game, differences are paired by deal.",
        seats(na),
        seats(nb)
    ));
    if setup.rules.teams == super::rules::Teams::TwoByTwoByTwo {
        rep.note("With 2x2x2 teams every team holds one seat of each side, so both sides lose equally often by construction.");
    }
    let capped: u64 = t.pairs.iter().map(|p| p.capped).sum();
    if capped > 0 {
        rep.note(format!(
            "{} games reached the move cap unfinished (no durak).",
            humanize::thousands(capped)
        ));
    }
    if t.dropped_deals > 0 {
        rep.note(format!(
            "{} deals had a game that broke a rule and were dropped: this is a bug, please report it.",
            humanize::thousands(t.dropped_deals)
        ));
    }
    for n in run.notes() {
        rep.note(n);
    }
    if !run.is_complete() {
        rep.note("(A sample is one deal, played by every pair at every seating.)");
    }
    rep
}

/// Durak rate per seat of each strategy over the whole tournament, ranked, with 95 % intervals.
pub fn chart(setup: &TournamentSetup, t: &TournamentTally) -> BarChart {
    BarChart {
        title: format!("Durak tournament · {}", setup.rules.describe()),
        y_label: "games lost per seat (durak)".into(),
        y_percent: true,
        bars: standings(setup, t)
            .iter()
            .map(|s| Bar {
                label: setup.strategies[s.strategy].to_string(),
                value: s.rate,
                low: s.ci.low,
                high: s.ci.high,
            })
            .collect(),
        reference: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::durak::rules::Variant;

    #[test]
    fn seatings_rotate_and_balance() {
        for players in 2..=6u8 {
            let s = TournamentSetup::new(
                Rules::standard(Variant::Podkidnoy, players),
                &[Strategy::Random, Strategy::Greedy],
                false,
            )
            .unwrap();
            let (na, nb) = s.side_seats();
            for r in 0..s.rotations() {
                let a = (0..players as usize).filter(|&x| s.is_a(x, r)).count();
                assert_eq!((a, players as usize - a), (na, nb));
            }
            // Every seat is played by A in na of every `players` seatings' worth of rotations.
            for seat in 0..players as usize {
                let a = (0..s.rotations()).filter(|&r| s.is_a(seat, r)).count();
                assert_eq!(a * players as usize, na * s.rotations());
            }
        }
        assert!(TournamentSetup::new(
            Rules::standard(Variant::Podkidnoy, 2),
            &[Strategy::Random, Strategy::Random],
            false
        )
        .is_err());
    }

    #[test]
    fn greedy_beats_random() {
        let s = TournamentSetup::new(
            Rules::standard(Variant::Podkidnoy, 2),
            &[Strategy::Random, Strategy::Greedy],
            true,
        )
        .unwrap();
        let sim = TournamentSimulation::new(&s);
        let mut t = sim.empty_tally();
        sim.run_chunk(&mut crate::rng::base_stream(2), 300, &mut t);
        assert_eq!((t.deals, t.dropped_deals), (300, 0));
        let pr = &pair_results(&s, &t)[0];
        assert!(pr.difference > 0.3 && pr.p_value < 1e-6, "{pr:?}");
        let st = standings(&s, &t);
        assert_eq!(st[0].strategy, 1);
        // Two players: the ranking rate is the pair's rate.
        assert!((st[0].rate - pr.b_rate).abs() < 1e-12);
    }
}
