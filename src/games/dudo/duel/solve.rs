//! Solving a duel end to end: iterations with checkpoints for the convergence chart, the
//! value, and every exploitability the chosen memory allows to measure.

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use super::full::{FullRecall, Judge, MAX_FULL_BIDS};
use super::game::{DuelGame, DuelRules, MAX_DICE_EACH};
use super::last_bid::{LastBid, Move, Recall};
use crate::error::{Error, Result};
use crate::rng::{ChunkStreams, Rng};

/// What a player remembers of the round's bids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Every bid (the exact game; one or two dice a side, without paso).
    Full,
    /// The standing bid and, with 2, the one before it (an abstraction).
    Bids(u8),
    /// The standing bid and the face of the one before it (an abstraction).
    Face,
}

impl Memory {
    /// The memory solved by default: full recall for one die a side, the last two bids for two
    /// and three dice, the standing bid and the face before it for four and five (the spots'
    /// matrices grow with the square of the hands).
    pub fn default_for(dice_each: u32) -> Memory {
        match dice_each {
            1 => Memory::Full,
            2 | 3 => Memory::Bids(2),
            _ => Memory::Face,
        }
    }

    /// The CFR+ iterations solved by default: 1 000, and for five dice a side what fits in
    /// about 20 minutes on 2 cores — 300, but 60 for Caleuchano's five remembering more than
    /// the standing bid (paso makes its spots six times as many: 4 224 with the face, 16 s an
    /// iteration).
    pub fn default_iterations(self, rules: DuelRules, dice_each: u32) -> u64 {
        match (dice_each, rules, self) {
            (MAX_DICE_EACH, DuelRules::Caleuchano, Memory::Face | Memory::Bids(2)) => 60,
            (MAX_DICE_EACH, _, _) => 300,
            _ => 1000,
        }
    }

    /// Parses `full`, `1` or `2` (bids remembered), or `face`.
    pub fn parse(text: &str) -> Option<Memory> {
        match text.trim() {
            "full" => Some(Memory::Full),
            "1" => Some(Memory::Bids(1)),
            "2" => Some(Memory::Bids(2)),
            "face" => Some(Memory::Face),
            _ => None,
        }
    }

    /// What [`Memory::parse`] accepts.
    pub const ACCEPTS: &'static str =
        "use full (every bid: one or two dice a side), 1 (the standing bid), 2 (and the one before) or face (the standing bid and the face of the one before)";

    /// The command-line name.
    pub fn key(self) -> String {
        match self {
            Memory::Full => "full".into(),
            Memory::Bids(n) => n.to_string(),
            Memory::Face => "face".into(),
        }
    }

    /// The abstraction's recall (`None` for full recall).
    pub fn recall(self) -> Option<Recall> {
        match self {
            Memory::Full => None,
            Memory::Bids(1) => Some(Recall::StandingBid),
            Memory::Bids(_) => Some(Recall::TwoBids),
            Memory::Face => Some(Recall::BidAndFace),
        }
    }

    /// In words, for the report.
    pub fn describe(self) -> &'static str {
        match self {
            Memory::Full => "full recall: every bid of the round (the exact game)",
            Memory::Bids(1) => {
                "abstraction: a player remembers the standing bid only (and passes spent)"
            }
            Memory::Face => "abstraction: a player remembers the standing bid and the face of the bid before it (and passes spent)",
            Memory::Bids(_) => "abstraction: a player remembers the standing bid and the one before it (and passes spent)",
        }
    }
}

/// What to solve and how long.
#[derive(Clone, Debug)]
pub struct DuelSpec {
    /// The rule set.
    pub rules: DuelRules,
    /// Dice a side, 1 to 5.
    pub dice_each: u32,
    /// CFR+ iterations.
    pub iterations: u64,
    /// What a player remembers.
    pub memory: Memory,
    /// Deals played by the sampled full-history responder on each seat (0: none).
    pub responder_deals: u64,
    /// Seed of the sampled responder's deals.
    pub seed: u64,
    /// Points of the convergence chart (exploitability measured this many times).
    pub checkpoints: u64,
    /// Full recall only: a file to resume the tables from (if it exists) and to save them to
    /// after the iterations (also when stopped early), so a long solve runs in parts.
    pub state: Option<PathBuf>,
}

/// A sampled estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Half-width of the 95 % interval.
    pub half_width: f64,
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct DuelResult {
    /// The opener's expected payoff in [−1, 1] under the strategy.
    pub value: f64,
    /// Exploitability against a best response with full recall, exact (where the game is small
    /// enough to walk every history).
    pub full_exploitability: Option<f64>,
    /// Full recall: the bounds the best responses put on the game's value (the opener's
    /// strategy earns at least the first against any reply; the other's concedes at most the
    /// second).
    pub value_bounds: Option<(f64, f64)>,
    /// Against the spot-by-spot responder of the abstraction (exact value; a lower bound of the
    /// abstract game's exploitability).
    pub spot_exploitability: Option<f64>,
    /// Against the sampled full-history responder (a lower bound of the true exploitability).
    pub sampled_exploitability: Option<Estimate>,
    /// Iterations run, in all (with those of a resumed state).
    pub iterations: u64,
    /// Iterations a resumed state had run before this solve (0: started afresh).
    pub resumed_at: u64,
    /// Whether a signal stopped the iterations early.
    pub interrupted: bool,
    /// Seconds spent.
    pub seconds: f64,
    /// The convergence curve: (iterations, exploitability measured then).
    pub curve: Vec<(u64, f64)>,
    /// What the curve measures.
    pub curve_label: &'static str,
    /// Decision points per hand in the game solved.
    pub spots: usize,
}

/// The solver behind a result: the full-recall tables or the abstraction's.
pub enum Solved<'g> {
    /// Full recall.
    Full(Box<FullRecall<'g>>),
    /// The bid-memory abstraction.
    Bids(Box<LastBid<'g>>),
}

/// Solves `game` as `spec` says; `stop` is asked between iterations. Returns the solver (for
/// the sheet and the bot) and the figures; errors only from reading or writing `spec.state`.
pub fn solve<'g>(
    game: &'g DuelGame,
    spec: &DuelSpec,
    stop: &dyn Fn() -> bool,
    mut tick: impl FnMut(u64),
) -> Result<(Solved<'g>, DuelResult)> {
    let start = Instant::now();
    let every = (spec.iterations / spec.checkpoints.max(1)).max(1);
    Ok(match spec.memory {
        Memory::Full => {
            let mut s = Box::new(match &spec.state {
                Some(path) if path.exists() => load_state(game, path)?,
                _ => FullRecall::new(game),
            });
            let resumed_at = s.iterations();
            let (mut curve, interrupted) =
                iterate(spec.iterations, every, stop, &mut tick, |measure| {
                    s.iterate();
                    measure.then(|| s.exploitability())
                });
            for point in &mut curve {
                point.0 += resumed_at;
            }
            if let Some(path) = &spec.state {
                crate::report::write_atomic_with(path, &mut |w| s.save(w))?;
            }
            let (value, (low, high)) = s.judge_bounds();
            let result = DuelResult {
                value,
                full_exploitability: Some(high - low),
                value_bounds: Some((low, high)),
                spot_exploitability: None,
                sampled_exploitability: None,
                iterations: s.iterations(),
                resumed_at,
                interrupted,
                seconds: start.elapsed().as_secs_f64(),
                curve,
                curve_label: "full-recall best response (exact)",
                spots: 0,
            };
            (Solved::Full(s), result)
        }
        Memory::Bids(_) | Memory::Face => {
            let recall = spec.memory.recall().expect("an abstraction");
            let mut s = Box::new(LastBid::new(game, recall));
            let (curve, interrupted) =
                iterate(spec.iterations, every, stop, &mut tick, |measure| {
                    s.iterate();
                    measure.then(|| s.spot_exploitability())
                });
            let spot = s.spot_exploitability();
            let full = (game.bid_count() <= MAX_FULL_BIDS && !game.paso && game.dice_each <= 2)
                .then(|| Judge::new(game).exploitability(&s.policy()));
            // Last: leaves the spot matrices at the average profile for the responder.
            let value = s.value();
            let sampled = (spec.responder_deals > 0)
                .then(|| sampled_exploitability(&s, value, spec.responder_deals, spec.seed));
            let result = DuelResult {
                value,
                full_exploitability: full,
                value_bounds: None,
                spot_exploitability: Some(spot),
                sampled_exploitability: sampled,
                iterations: s.iterations(),
                resumed_at: 0,
                interrupted,
                seconds: start.elapsed().as_secs_f64(),
                curve,
                curve_label: "spot-by-spot responder (exact value, lower bound)",
                spots: s.spot_count(),
            };
            (Solved::Bids(s), result)
        }
    })
}

/// A full-recall solver resumed from the state file at `path`.
fn load_state<'g>(game: &'g DuelGame, path: &std::path::Path) -> Result<FullRecall<'g>> {
    let shown = path.display();
    let file = std::fs::File::open(path)
        .map_err(|e| Error::usage(format!("cannot read --state '{shown}': {e}")))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    FullRecall::load(game, &mut reader).map_err(|why| {
        Error::usage(format!(
            "cannot resume from --state '{shown}': {why}; give the file an earlier run of the same game wrote, or a new path to start afresh"
        ))
    })
}

/// Runs up to `iterations` steps, asking `stop` before each; `step(measure)` does one iteration
/// and, when `measure` (every `every` iterations and at the last), returns the exploitability
/// for the convergence curve. Returns the curve and whether a stop came first.
fn iterate(
    iterations: u64,
    every: u64,
    stop: &dyn Fn() -> bool,
    tick: &mut impl FnMut(u64),
    mut step: impl FnMut(bool) -> Option<f64>,
) -> (Vec<(u64, f64)>, bool) {
    let mut curve = Vec::new();
    for i in 1..=iterations {
        if stop() {
            return (curve, true);
        }
        let measured = step(i % every == 0 || i == iterations);
        tick(1);
        if let Some(x) = measured {
            curve.push((i, x));
        }
    }
    (curve, false)
}

/// Deals per block of the sampled responder (one stream each, so any thread count gives the
/// same sum).
const BLOCK: u64 = 4096;

/// What a responder who remembers every bid gains against the abstraction's average strategy
/// on both seats together, sampled over `deals` deals a seat. The responder keeps the exact
/// posterior over the other's hand from every bid seen, and at each turn takes the action best
/// against it assuming both sides play the strategy afterwards (the spot matrices of the last
/// [`LastBid::value`] pass). It is one full-history strategy, so its gain is a lower bound of
/// what the best one gains.
pub fn sampled_exploitability(s: &LastBid<'_>, value: f64, deals: u64, seed: u64) -> Estimate {
    let mut mean = 0.0;
    let mut var = 0.0;
    for seat in 0..2 {
        let blocks = deals.div_ceil(BLOCK);
        let streams: Vec<_> = ChunkStreams::new(seed ^ ((seat as u64) << 32))
            .take(blocks as usize)
            .collect();
        let sums: Vec<(f64, f64, u64)> = streams
            .into_par_iter()
            .enumerate()
            .map(|(b, mut rng)| {
                let n = BLOCK.min(deals - b as u64 * BLOCK);
                let mut post = vec![0.0; s.game().hand_count()];
                let (mut sum, mut sq) = (0.0, 0.0);
                for _ in 0..n {
                    let x = respond(s, seat, &mut rng, &mut post);
                    sum += x;
                    sq += x * x;
                }
                (sum, sq, n)
            })
            .collect();
        let (sum, sq, n) = sums
            .iter()
            .fold((0.0, 0.0, 0u64), |a, x| (a.0 + x.0, a.1 + x.1, a.2 + x.2));
        let m = sum / n as f64;
        let own_value = if seat == 0 { value } else { -value };
        mean += m - own_value;
        var += (sq / n as f64 - m * m) / n as f64;
    }
    Estimate {
        mean,
        half_width: 1.96 * var.sqrt(),
    }
}

/// A uniform draw in [0, 1).
fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A hand drawn by its chance.
fn draw_hand(game: &DuelGame, rng: &mut impl Rng) -> usize {
    let mut x = unit(rng);
    for (h, w) in game.weight.iter().enumerate() {
        if x < *w {
            return h;
        }
        x -= w;
    }
    game.hand_count() - 1
}

/// One deal of the full-history responder on `seat`: its payoff.
fn respond(s: &LastBid<'_>, seat: usize, rng: &mut impl Rng, post: &mut [f64]) -> f64 {
    let game = s.game();
    let hands = [draw_hand(game, rng), draw_hand(game, rng)];
    post.copy_from_slice(&game.weight);
    let mut n = 0; // the opening spot
    let sign = if seat == 0 { 1.0 } else { -1.0 };
    loop {
        let actions = s.moves_at(n).len();
        let mover = s.mover_at(n);
        let a = if mover == seat {
            let mine = hands[seat];
            let q = |a: usize| -> f64 {
                post.iter()
                    .enumerate()
                    .filter(|(_, &p)| p != 0.0)
                    .map(|(o, &p)| {
                        let (h0, h1) = if seat == 0 { (mine, o) } else { (o, mine) };
                        p * sign * s.continuation_at(n, a, h0, h1)
                    })
                    .sum()
            };
            let mut best = (0, f64::NEG_INFINITY);
            for a in 0..actions {
                let v = q(a);
                if v > best.1 {
                    best = (a, v);
                }
            }
            best.0
        } else {
            let mut x = unit(rng);
            let mut pick = actions - 1;
            for a in 0..actions {
                let p = s.probability(n, hands[mover], a);
                if x < p {
                    pick = a;
                    break;
                }
                x -= p;
            }
            // The responder's posterior: the other's hands weighted by how likely each makes
            // the action seen.
            for (o, p) in post.iter_mut().enumerate() {
                if *p != 0.0 {
                    *p *= s.probability(n, o, pick);
                }
            }
            pick
        };
        match s.next_at(n, a) {
            Some(next) => n = next,
            None => return sign * s.continuation_at(n, a, hands[0], hands[1]),
        }
    }
}

/// The spot's move in words for the sheet: «dudo», a raise, «paso».
pub fn move_text(game: &DuelGame, m: Move) -> String {
    match m {
        Move::Doubt => "dudo".into(),
        Move::Pass => "paso".into(),
        Move::Raise(b) => game.bids[usize::from(b)].spoken(game.rules.names()),
    }
}

/// The report of `tahur dudo duel`.
pub fn report(game: &DuelGame, spec: &DuelSpec, r: &DuelResult) -> crate::report::Report {
    use crate::report::{Report, Value};
    let mut rep = Report::new(format!(
        "Dudo duel solved · {} · {} a side",
        spec.rules.key(),
        crate::humanize::count_of(u64::from(spec.dice_each), "dice")
    ));
    rep.field("rules", "rules", Value::Text(spec.rules.key().into()));
    rep.field(
        "dice_each",
        "dice a side",
        Value::Int(i64::from(spec.dice_each)),
    );
    rep.field(
        "memory",
        "memory",
        Value::Text(spec.memory.describe().into()),
    );
    rep.field(
        "opener_wins",
        "opener wins the round",
        Value::Prob((1.0 + r.value) / 2.0),
    );
    rep.field("value", "opener's expected payoff", Value::Num(r.value, 6));
    if let Some(e) = r.full_exploitability {
        rep.field(
            "exploitability",
            "exploitability (full-recall best responses, exact)",
            Value::Num(e, 6),
        );
    }
    if let Some((low, high)) = r.value_bounds {
        rep.field(
            "game_value",
            "the game's value lies in (best responses)",
            Value::NumInterval(low, high, 6),
        );
    }
    if let Some(e) = r.spot_exploitability {
        rep.field(
            "spot_exploitability",
            "gain of spot-by-spot responders in the abstraction (exact, lower bound)",
            Value::Num(e, 6),
        );
    }
    if let Some(e) = r.sampled_exploitability {
        rep.field(
            "sampled_exploitability",
            "gain of a full-history responder (sampled, lower bound)",
            Value::NumInterval(e.mean - e.half_width, e.mean + e.half_width, 4),
        );
        rep.field(
            "responder_deals",
            "responder deals per seat",
            Value::Int(spec.responder_deals as i64),
        );
    }
    rep.field(
        "iterations",
        "CFR+ iterations",
        Value::Int(r.iterations as i64),
    );
    if r.resumed_at > 0 {
        rep.field(
            "resumed_at",
            "iterations of the resumed state",
            Value::Int(r.resumed_at as i64),
        );
    }
    rep.field("seconds", "seconds", Value::Num(r.seconds, 1));
    rep.field(
        "hands",
        "hands a side",
        Value::Int(game.hand_count() as i64),
    );
    rep.field("bids", "bids", Value::Int(game.bid_count() as i64));
    if r.spots > 0 {
        rep.field("spots", "decision spots", Value::Int(r.spots as i64));
    }
    rep.note(
        "Exploitability is what best responses gain against the strategy on both seats together \
         (best response as opener + best response as the other, in payoff units of ±1 a round); \
         0 at an equilibrium.",
    );
    if spec.memory != Memory::Full {
        rep.note(format!(
            "Solved in an {}: the spot-by-spot responder shares that memory and picks each spot's \
             best action from the back, a lower bound of the abstraction's exploitability (an \
             exact best response of a responder that forgets is intractable in general).",
            spec.memory.describe()
        ));
    }
    match spec.rules {
        DuelRules::Caleuchano if game.paso => rep.note(
            "Caleuchano: both ace conversions, millas bonus and paso are in the solved game; \
             mandada reforzada and obligado are left out.",
        ),
        DuelRules::Caleuchano => rep.note(
            "Caleuchano: both ace conversions and the millas bonus are in the solved game; paso \
             needs five dice a side (poker, full, pichanga) and is left out, as are mandada \
             reforzada and obligado.",
        ),
        _ => &mut rep,
    };
    if let Some(path) = &spec.state {
        rep.note(format!(
            "The tables after {} iterations are saved in '{}' ({} MB): the same command with \
             --state '{}' goes on from there.",
            r.iterations,
            path.display(),
            crate::humanize::significant(
                FullRecall::memory_needed(game).unwrap_or(0) as f64 / 1e6,
                3
            ),
            path.display()
        ));
    }
    if r.interrupted {
        rep.note(format!(
            "Stopped early (Ctrl-C or SIGTERM) after {} of {} iterations.",
            r.iterations - r.resumed_at,
            spec.iterations
        ));
    }
    rep
}

/// The convergence chart: exploitability against iterations.
pub fn chart(spec: &DuelSpec, r: &DuelResult) -> crate::report::chart::LineChart {
    use crate::report::chart::{LineChart, Series, Unit};
    LineChart {
        title: format!(
            "Dudo duel · {} · {} a side: convergence",
            spec.rules.key(),
            crate::humanize::count_of(u64::from(spec.dice_each), "dice")
        ),
        x_label: "CFR+ iterations".into(),
        x_unit: Unit::Count,
        y_label: "exploitability (log scale)".into(),
        y_unit: Unit::Log,
        series: vec![Series {
            label: r.curve_label.into(),
            points: r.curve.iter().map(|&(i, e)| (i as f64, e)).collect(),
        }],
        marks: Vec::new(),
    }
}
