//! Advice at a position, written once for every game: each legal action of the player to act,
//! with that player's chance of the game's event from here, by rollouts — the way GNU
//! Backgammon analyses a move.
//!
//! Every rollout deals what the player cannot see at random, uniformly over what is consistent
//! with the position ([`State::deal_for_view`]: hidden hands are not weighted by what bids or
//! claims suggest), then plays each legal action on that same deal with the same random streams
//! (common random numbers) and lets the chosen bots play every seat, the adviced one included, to
//! the end of the game. The actions' differences are therefore paired: a difference between two
//! actions is measured far more precisely than either chance.
//!
//! A rollout's value for the player is the game's event in half points, so that tallies stay
//! exact integers: 2 for a win (for not being the durak), 1 for a draw or a game stopped at the
//! move cap, 0 for a loss; a scored game's points are counted as they are ([`rollout_value`]).
//!
//! Rollouts run in fixed chunks with their own streams on the shared runner: the same seed gives
//! the same advice at any thread count and shard split. With `--until-decided` the rollouts grow
//! by doubling looks until the best action is separated from every other one at the look's level
//! α/2^k (over the looks, the error is at most α), Bonferroni-corrected over the other actions.

use serde::{Deserialize, Serialize};

use super::{
    game_streams, ActionOf, Bot, Game, GameRules, Outcome, Scoring, Seat, State, Strategy,
};
use crate::error::{Error, Result};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunControl, RunSpec, RunSummary, Simulation, Tally};
use crate::stats::{paired, paired_means, MeanEstimate, PairedDifference, Sums};

/// Rollouts per chunk (part of a run's definition).
pub const CHUNK: u64 = 64;
/// Most actions advice rolls out fully at once (every pair of them is tallied).
pub const MAX_ACTIONS: usize = 512;
/// Most actions a screening round compares (beyond [`MAX_ACTIONS`] without pair tallies).
pub const MAX_SCREENED: usize = 8192;
/// Most actions one rollout may take before it is counted a fault (a bot that never ends the
/// game).
const MAX_ROLLOUT_ACTIONS: u32 = 1_000_000;

/// What to advise on: a game at a decision (only what the player to act sees is used), and the
/// strategies that play every seat after the action.
#[derive(Clone, Debug)]
pub struct AdviceSetup<G: Game, S: Strategy<G>> {
    /// A game whose player to act is the one advised: only that player's view is read.
    pub position: G::State,
    /// The strategies of the rest of the game by seat (repeated when shorter than the table).
    pub bots: Vec<S>,
}

/// The legal actions at a position that differ in effect ([`State::distinct_actions`]), in the
/// engine's order.
pub fn legal_actions<G: Game>(position: &G::State) -> Vec<ActionOf<G>> {
    let mut out = Vec::new();
    position.distinct_actions(&mut out);
    out
}

/// The value of a finished game for `seat`, in half points: 2 for the good side of the game's
/// event (a win, not being the durak), 1 for a draw or a capped game, 0 for the bad side; a
/// scored game's points twice (so that a half never appears).
#[inline]
pub fn rollout_value<G: Game>(end: &G::State, seat: Seat) -> i64 {
    match (end.outcome(), G::INFO.scoring) {
        (Some(Outcome::Event(mask)), Scoring::Event { good }) => {
            if (mask >> seat & 1 == 1) == good {
                2
            } else {
                0
            }
        }
        (Some(Outcome::Draw), Scoring::Event { good: false }) => 2,
        (Some(Outcome::Scored), _) | (_, Scoring::Points) => 2 * end.points(seat),
        _ => 1,
    }
}

/// The exact sums of the rollouts: each action's values and every pair's differences.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdviceTally {
    /// Deals rolled out (each with every action).
    pub deals: u64,
    /// Deals dropped because a rollout broke (an illegal bot action, a game that never ended).
    pub faults: u64,
    /// Each action's values (half points).
    pub values: Vec<Sums>,
    /// For actions i < j, the differences value(i) − value(j), in the order (0,1), (0,2), …,
    /// (1,2), …
    pub differences: Vec<Sums>,
}

impl Tally for AdviceTally {
    fn absorb(&mut self, o: &Self) {
        self.deals += o.deals;
        self.faults += o.faults;
        if self.values.is_empty() {
            self.values = o.values.clone();
            self.differences = o.differences.clone();
            return;
        }
        for (a, b) in self.values.iter_mut().zip(&o.values) {
            a.absorb(b);
        }
        for (a, b) in self.differences.iter_mut().zip(&o.differences) {
            a.absorb(b);
        }
    }
}

impl AdviceTally {
    /// An empty tally for `actions` actions: every pair tallied up to [`MAX_ACTIONS`] actions,
    /// none beyond (a screening round of that many compares them unpaired).
    pub fn new(actions: usize) -> Self {
        let pairs = if actions <= MAX_ACTIONS {
            actions * actions.saturating_sub(1) / 2
        } else {
            0
        };
        AdviceTally {
            deals: 0,
            faults: 0,
            values: vec![Sums::default(); actions],
            differences: vec![Sums::default(); pairs],
        }
    }

    /// Whether the differences of every pair are tallied.
    pub fn is_paired(&self) -> bool {
        self.values.len() < 2 || !self.differences.is_empty()
    }

    /// Where the pair (i, j), i < j, sits in [`Self::differences`].
    fn pair(&self, i: usize, j: usize) -> usize {
        let k = self.values.len();
        debug_assert!(i < j && j < k);
        i * (2 * k - i - 1) / 2 + (j - i - 1)
    }

    /// Action `i`'s chance (values over 2).
    pub fn chance(&self, i: usize) -> MeanEstimate {
        let e = self.values[i].estimate(self.deals);
        MeanEstimate {
            n: e.n,
            mean: e.mean / 2.0,
            sd: e.sd / 2.0,
        }
    }

    /// Action `i` against action `j`, paired (in chances).
    pub fn versus(&self, i: usize, j: usize) -> PairedDifference {
        let (a, b) = (self.chance(i).mean, self.chance(j).mean);
        if i == j {
            return paired_means(a, b, &Sums::default(), self.deals, 2.0);
        }
        if !self.is_paired() {
            // Unpaired: the two means as if independent (wider than the paired interval,
            // since common deals correlate them positively).
            let (ci, cj) = (self.chance(i), self.chance(j));
            let d = MeanEstimate {
                n: ci.n,
                mean: a - b,
                sd: (ci.sd * ci.sd + cj.sd * cj.sd).sqrt(),
            };
            let dz = if d.sd > 0.0 { d.mean / d.sd } else { 0.0 };
            return paired(a, b, d, dz);
        }
        let (lo, hi) = (i.min(j), i.max(j));
        let mut d = self.differences[self.pair(lo, hi)];
        if i > j {
            d.sum = -d.sum;
        }
        paired_means(a, b, &d, self.deals, 2.0)
    }

    /// The action with the highest mean (the first of equals).
    pub fn best(&self) -> usize {
        let mut best = 0;
        for i in 1..self.values.len() {
            if self.values[i].sum > self.values[best].sum {
                best = i;
            }
        }
        best
    }

    /// Whether the best action is separated from every other at level `alpha` (two-sided paired
    /// z tests, Bonferroni over the others).
    pub fn separated(&self, alpha: f64) -> bool {
        let k = self.values.len();
        if k < 2 {
            return true;
        }
        if self.deals < 2 {
            return false;
        }
        let best = self.best();
        let level = alpha / (k - 1) as f64;
        (0..k)
            .filter(|&j| j != best)
            .all(|j| self.versus(best, j).p_value < level)
    }
}

/// The rollouts of an [`AdviceSetup`] as a simulation of the shared runner (a sample is one deal
/// rolled out with every action).
pub struct AdviceSimulation<'a, G: Game, S: Strategy<G>> {
    setup: &'a AdviceSetup<G, S>,
    actions: Vec<ActionOf<G>>,
}

impl<'a, G: Game, S: Strategy<G>> AdviceSimulation<'a, G, S> {
    /// The rollouts of `setup`, refusing a finished game, no legal action or too many.
    pub fn new(setup: &'a AdviceSetup<G, S>) -> Result<Self> {
        if setup.position.is_over() {
            return Err(Error::usage(
                "the position's game is over: there is nothing to decide",
            ));
        }
        if setup.bots.is_empty() {
            return Err(Error::usage(
                "no strategy for the rollouts: name at least one",
            ));
        }
        let actions = legal_actions::<G>(&setup.position);
        if actions.is_empty() || actions.len() > MAX_SCREENED {
            return Err(Error::usage(format!(
                "the position has {} legal actions: advice compares 1 to {MAX_SCREENED}",
                actions.len()
            )));
        }
        Ok(AdviceSimulation { setup, actions })
    }

    /// The rollouts of `setup` for these of its legal actions only (in this order).
    pub fn with_actions(setup: &'a AdviceSetup<G, S>, actions: Vec<ActionOf<G>>) -> Result<Self> {
        let mut sim = Self::new(setup)?;
        if actions.is_empty() || actions.iter().any(|a| !sim.actions.contains(a)) {
            return Err(Error::Internal(
                "advice asked for an action that is not legal at the position".into(),
            ));
        }
        sim.actions = actions;
        Ok(sim)
    }

    /// The actions compared, in the engine's order.
    pub fn actions(&self) -> &[ActionOf<G>] {
        &self.actions
    }

    /// Plays `game` to its end with `bots` (seat `s` by `bots[s % len]`); `None` when a bot's
    /// action is refused or the game never ends.
    fn finish(
        game: &mut G::State,
        bots: &mut [S::Bot],
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> Option<()> {
        let mut steps = 0u32;
        while !game.is_over() {
            let seat = game.to_act();
            let n = bots.len();
            let action = bots[seat % n].act(&game.view(seat), decisions);
            game.apply(action, deal).ok()?;
            steps += 1;
            if steps > MAX_ROLLOUT_ACTIONS {
                return None;
            }
        }
        Some(())
    }
}

impl<G: Game, S: Strategy<G>> Simulation for AdviceSimulation<'_, G, S> {
    type Tally = AdviceTally;

    fn chunk_size(&self) -> u64 {
        CHUNK
    }

    fn empty_tally(&self) -> AdviceTally {
        AdviceTally::new(self.actions.len())
    }

    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut AdviceTally) {
        let rules = self.setup.position.rules();
        let players = rules.players();
        let mut bots: Vec<S::Bot> = (0..players)
            .map(|s| self.setup.bots[s % self.setup.bots.len()].bot(rules))
            .collect();
        let seat = self.setup.position.to_act();
        let view = self.setup.position.view(seat);
        let k = self.actions.len();
        let mut values = vec![0i64; k];
        for _ in 0..samples {
            let (mut deal, decisions) = game_streams(stream);
            let dealt = G::State::deal_for_view(&view, &mut deal);
            let mut ok = true;
            for (i, &action) in self.actions.iter().enumerate() {
                // The same deal and the same streams for every action.
                let mut game = dealt.clone();
                let (mut d, mut c) = (deal.clone(), decisions.clone());
                if game.apply(action, &mut d).is_err()
                    || Self::finish(&mut game, &mut bots, &mut d, &mut c).is_none()
                {
                    ok = false;
                    break;
                }
                values[i] = rollout_value::<G>(&game, seat);
            }
            if !ok {
                t.faults += 1;
                continue;
            }
            t.deals += 1;
            let paired = !t.differences.is_empty();
            let mut p = 0;
            for i in 0..k {
                t.values[i].add(values[i]);
                if paired {
                    for j in i + 1..k {
                        t.differences[p].add(values[i] - values[j]);
                        p += 1;
                    }
                }
            }
        }
    }
}

/// How a run of advice ended, when it ran until decided.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sequential {
    /// Looks taken.
    pub looks: u32,
    /// The level of the last look, α/2^looks.
    pub last_level: f64,
    /// Whether the best action was separated before the rollouts ran out.
    pub decided: bool,
}

/// The rollouts' result: the actions compared, their tally, the run and how a sequential run
/// ended.
#[derive(Clone, Debug)]
pub struct Advice<A> {
    /// The legal actions, in the engine's order.
    pub actions: Vec<A>,
    /// The rollouts' sums.
    pub tally: AdviceTally,
    /// The run (its samples are deals).
    pub run: RunSummary,
    /// With `--until-decided`: the looks taken and whether the best was separated.
    pub sequential: Option<Sequential>,
    /// When there were too many actions to roll out each fully: the quick first round over
    /// every action, whose best went on to the full rollouts ([`run_screened`]).
    pub screened: Option<Screened<A>>,
}

/// The first round of a screened run: every legal action on a few deals.
#[derive(Clone, Debug)]
pub struct Screened<A> {
    /// Every legal action, in the engine's order.
    pub actions: Vec<A>,
    /// Their sums over the screening deals.
    pub tally: AdviceTally,
    /// The actions kept for the full rollouts (indices into `actions`).
    pub kept: Vec<usize>,
}

/// How to screen a position with many legal actions, the way GNU Backgammon's move filters do:
/// every action is rolled out on `deals` deals first, and only the best `keep` (and any other
/// action within noise of the best then) go on to the full rollouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    /// Screen only when there are more legal actions than this.
    pub above: usize,
    /// Actions kept at least (the best by the screening).
    pub keep: usize,
    /// Most actions kept (also counting those within noise of the best).
    pub most: usize,
    /// Deals of the screening round.
    pub deals: u64,
}

impl Screen {
    /// Screens positions with more than 16 actions on 512 deals, keeping the best 8 and any
    /// within noise of the best, up to 16.
    pub const DEFAULT: Screen = Screen {
        above: 16,
        keep: 8,
        most: 16,
        deals: 512,
    };
}

/// [`run`] with screening: at a position with more legal actions than `screen.above`, every
/// action is first rolled out on `screen.deals` deals, and the full rollouts (`spec`, and
/// `until_decided`) compare only the actions kept. The full rollouts use a seed derived from
/// `spec.seed`, so that the deals an action was kept on are not counted again in its figures
/// (which would flatter the kept ones). `None`: every action is rolled out fully.
pub fn run_screened<G: Game, S: Strategy<G>>(
    setup: &AdviceSetup<G, S>,
    spec: &RunSpec,
    until_decided: Option<(u64, f64)>,
    screen: Option<Screen>,
    control: &RunControl,
) -> Result<Advice<ActionOf<G>>> {
    let all = AdviceSimulation::new(setup)?.actions().to_vec();
    let Some(screen) = screen.filter(|sc| all.len() > sc.above && sc.keep >= 1) else {
        return run(setup, spec, until_decided, control);
    };
    let first = RunSpec {
        samples: screen.deals.max(CHUNK),
        seed: spec.seed,
        chunk_size: CHUNK,
    };
    let sim = AdviceSimulation::new(setup)?;
    let r = crate::runner::run(&sim, &first, None, control)?;
    let summary = RunSummary::of(first, &r);
    let t = r.tally;
    if summary.interrupted {
        // Stopped while screening: what the screening saw, every action in it.
        return Ok(Advice {
            actions: all,
            tally: t,
            run: summary,
            sequential: None,
            screened: None,
        });
    }
    let kept = kept_by_screen(&t, screen);
    let actions: Vec<ActionOf<G>> = kept.iter().map(|&i| all[i]).collect();
    let full = RunSpec {
        seed: spec.seed ^ SCREENED_SEED,
        ..*spec
    };
    let mut advice = run_actions(setup, actions, &full, until_decided, control)?;
    advice.run.spec.seed = spec.seed;
    advice.screened = Some(Screened {
        actions: all,
        tally: t,
        kept,
    });
    Ok(advice)
}

/// What the full rollouts of a screened run xor their seed with.
pub const SCREENED_SEED: u64 = 0x5C3E_E7ED_0F1E_1D5A;

/// The actions a screening keeps: the best `keep` by mean, then any other whose paired
/// difference from the best includes 0, best first, at most `most`; in the engine's order.
pub fn kept_by_screen(t: &AdviceTally, screen: Screen) -> Vec<usize> {
    let k = t.values.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| t.values[b].sum.cmp(&t.values[a].sum).then(a.cmp(&b)));
    let best = order[0];
    let mut kept: Vec<usize> = Vec::new();
    for (rank, &i) in order.iter().enumerate() {
        if kept.len() >= screen.most.max(screen.keep) {
            break;
        }
        if rank < screen.keep || t.versus(i, best).interval.high >= 0.0 {
            kept.push(i);
        }
    }
    kept.sort_unstable();
    kept
}

/// Runs the rollouts of `setup` for `spec` (its samples are deals; each deal is rolled out once
/// per action), or with `until_decided = Some((batch, alpha))` in doubling looks from `batch`
/// deals until the best action is separated at the look's level.
pub fn run<G: Game, S: Strategy<G>>(
    setup: &AdviceSetup<G, S>,
    spec: &RunSpec,
    until_decided: Option<(u64, f64)>,
    control: &RunControl,
) -> Result<Advice<ActionOf<G>>> {
    let all = AdviceSimulation::new(setup)?.actions().to_vec();
    run_actions(setup, all, spec, until_decided, control)
}

/// [`run`] over `actions` (legal actions of the position) only.
fn run_actions<G: Game, S: Strategy<G>>(
    setup: &AdviceSetup<G, S>,
    actions: Vec<ActionOf<G>>,
    spec: &RunSpec,
    until_decided: Option<(u64, f64)>,
    control: &RunControl,
) -> Result<Advice<ActionOf<G>>> {
    if actions.len() > MAX_ACTIONS {
        return Err(Error::usage(format!(
            "the position has {} legal actions: advice rolls out 1 to {MAX_ACTIONS} fully; \
             screen them first (--keep 8)",
            actions.len()
        )));
    }
    let sim = AdviceSimulation::with_actions(setup, actions)?;
    let actions = sim.actions().to_vec();
    if actions.len() == 1 {
        // One legal action: nothing to roll out.
        let summary = RunSummary {
            spec: *spec,
            samples_done: 0,
            interrupted: false,
            missing: None,
        };
        return Ok(Advice {
            actions,
            tally: AdviceTally::new(1),
            run: summary,
            sequential: None,
            screened: None,
        });
    }
    let Some((batch, alpha)) = until_decided else {
        let r = crate::runner::run(&sim, spec, None, control)?;
        let summary = RunSummary::of(*spec, &r);
        return Ok(Advice {
            actions,
            tally: r.tally,
            run: summary,
            sequential: None,
            screened: None,
        });
    };
    let chunks_per_look = batch.div_ceil(spec.chunk_size).max(1);
    let total = spec.total_chunks();
    let mut tally = sim.empty_tally();
    let (mut done, mut samples_done, mut looks) = (0u64, 0u64, 0u32);
    let (mut level, mut decided, mut interrupted) = (alpha, false, false);
    while done < total && !decided && !interrupted {
        let end = (chunks_per_look << looks.min(40)).min(total);
        let part = crate::runner::run_range(&sim, spec, done..end, control)?;
        tally.absorb(&part.tally);
        samples_done += part.samples_done;
        interrupted = part.interrupted;
        done = end;
        looks += 1;
        level = alpha / 2f64.powi(looks as i32);
        decided = tally.separated(level);
    }
    let summary = RunSummary {
        spec: *spec,
        samples_done,
        interrupted,
        missing: None,
    };
    let seq = Sequential {
        looks,
        last_level: level,
        decided,
    };
    Ok(Advice {
        actions,
        tally,
        run: summary,
        sequential: Some(seq),
        screened: None,
    })
}

/// What the advice says of the best action.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The only legal action.
    Only,
    /// Better than every other action: each paired difference's 95 % interval lies below 0.
    ClearlyBest,
    /// Not separated from these actions (indices): their differences from the best include 0.
    WithinNoiseOf(Vec<usize>),
}

/// The verdict on the best action of a tally.
pub fn verdict(t: &AdviceTally) -> Verdict {
    let k = t.values.len();
    if k == 1 {
        return Verdict::Only;
    }
    let best = t.best();
    let close: Vec<usize> = (0..k)
        .filter(|&j| j != best && t.versus(j, best).interval.high >= 0.0)
        .collect();
    if close.is_empty() {
        Verdict::ClearlyBest
    } else {
        Verdict::WithinNoiseOf(close)
    }
}

/// The advice as a report: every action with the chance, its interval, its difference from the
/// best with that difference's interval, best first. `name` writes an action as players say it;
/// `what` names the chance ("chance of winning the game").
pub fn report<A: Copy>(
    title: &str,
    position: &str,
    what: &str,
    advice: &Advice<A>,
    name: impl Fn(A) -> String,
) -> Report {
    let (actions, t, run) = (&advice.actions, &advice.tally, &advice.run);
    let seq = advice.sequential.as_ref();
    let mut r = Report::new(title);
    r.field("position", "position", Value::Text(position.to_string()));
    let k = actions.len();
    let best = t.best();
    let verdict = verdict(t);
    let name_of = |i: usize| name(actions[i]);
    match &verdict {
        Verdict::Only => {
            r.field_plain(
                "best",
                "best",
                Value::Text(name_of(0)),
                "the only legal action".into(),
            );
        }
        Verdict::ClearlyBest => {
            r.field_plain(
                "best",
                "best",
                Value::Text(name_of(best)),
                "clearly best: every other action is worse beyond the 95 % interval".into(),
            );
        }
        Verdict::WithinNoiseOf(close) => {
            // The closest few by name (best first), the rest counted.
            let mut by_value = close.clone();
            by_value.sort_by(|&a, &b| t.values[b].sum.cmp(&t.values[a].sum).then(a.cmp(&b)));
            let mut names: Vec<String> = by_value.iter().take(5).map(|&i| name_of(i)).collect();
            if close.len() > 5 {
                names.push(format!("{} more", close.len() - 5));
            }
            r.field_plain(
                "best",
                "best",
                Value::Text(name_of(best)),
                format!(
                    "best by the rollouts, within noise of {}: roll out more to tell them apart",
                    names.join(", ")
                ),
            );
        }
    }
    r.field("chance_of", "chance", Value::Text(what.to_string()));
    if k > 1 {
        r.run_size(
            "deals",
            "deals rolled out (each with every action)",
            run.samples_done,
            run,
        );
        if let Some(s) = seq {
            r.field("looks", "sequential looks", Value::Int(s.looks as i64));
            r.field(
                "decided",
                "decided",
                Value::Text(if s.decided { "yes" } else { "no" }.into()),
            );
        }
    }
    let mut table = Table::new(
        "actions",
        "actions, best first",
        &[
            ("action", "action"),
            ("chance", "chance"),
            ("interval", "95 % interval"),
            ("versus_best", "against the best (points)"),
            ("versus_best_interval", "95 % interval (points)"),
            ("verdict", ""),
        ],
    );
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| t.values[b].sum.cmp(&t.values[a].sum).then(a.cmp(&b)));
    for i in order {
        if k == 1 {
            table.push(vec![
                Value::Text(name_of(i)),
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Text("only".into()),
            ]);
            continue;
        }
        let c = t.chance(i);
        let ci = c.interval(0.95);
        let (diff, diff_ci, mark) = if i == best {
            (
                Value::Empty,
                Value::Empty,
                match verdict {
                    Verdict::ClearlyBest => "best, clearly",
                    _ => "best",
                },
            )
        } else {
            let d = t.versus(i, best);
            let mark = if d.interval.high < 0.0 {
                "worse"
            } else {
                "within noise"
            };
            // In percentage points, as the chances are shown.
            (
                Value::RateDiff(d.difference),
                Value::RateDiffInterval(d.interval.low, d.interval.high),
                mark,
            )
        };
        table.push(vec![
            Value::Text(name_of(i)),
            Value::Prob(c.mean),
            Value::ProbInterval(ci.low.max(0.0), ci.high.min(1.0)),
            diff,
            diff_ci,
            Value::Text(mark.into()),
        ]);
    }
    if let Some(sc) = &advice.screened {
        let st = &sc.tally;
        let mut out: Vec<usize> = (0..sc.actions.len())
            .filter(|i| !sc.kept.contains(i))
            .collect();
        out.sort_by(|&a, &b| st.values[b].sum.cmp(&st.values[a].sum).then(a.cmp(&b)));
        let sbest = st.best();
        for i in out {
            // Only its difference from the screening's best: its chance there is from other,
            // fewer deals than the rows above and would not compare with them.
            let d = st.versus(i, sbest);
            table.push(vec![
                Value::Text(name(sc.actions[i])),
                Value::Empty,
                Value::Empty,
                Value::RateDiff(d.difference),
                Value::RateDiffInterval(d.interval.low, d.interval.high),
                Value::Text("screened out".into()),
            ]);
        }
        r.field(
            "screened",
            "screened",
            Value::Text(format!(
                "all {} legal actions on {} deals first; the {} best went on to the full rollouts",
                sc.actions.len(),
                st.deals,
                sc.kept.len()
            )),
        );
        r.note(format!(
            "Too many actions to roll out each fully: every one was first rolled out on {} deals, \
             and the {} kept (the best there, with any within noise of the best) were rolled out \
             on fresh deals. A screened-out action shows only its difference from the best of \
             those first deals{}.",
            st.deals,
            sc.kept.len(),
            if st.is_paired() {
                " (paired)"
            } else {
                " (unpaired: too many actions to tally every pair)"
            }
        ));
    }
    r.tables.push(table);
    r.note(
        "What the player cannot see is dealt uniformly over what is consistent with the position \
         (hidden hands are not weighted by what the bids, claims or plays so far suggest); every action meets \
         the same deals and the same random streams, so the differences are paired.",
    );
    if t.faults > 0 {
        r.note(format!(
            "{} deals were dropped: a bot's action was refused or a game did not end (a bug; \
             please report it).",
            t.faults
        ));
    }
    if !run.is_complete() && k > 1 {
        r.note(format!(
            "Stopped early: these figures are from {} deals.",
            run.samples_done
        ));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_indexed_in_order() {
        let t = AdviceTally::new(5);
        let mut p = 0;
        for i in 0..5 {
            for j in i + 1..5 {
                assert_eq!(t.pair(i, j), p);
                p += 1;
            }
        }
        assert_eq!(p, t.differences.len());
    }

    #[test]
    fn versus_is_antisymmetric_and_matches_the_means() {
        let mut t = AdviceTally::new(3);
        // Deals: (2,0,1), (2,2,0), (0,0,2), (2,0,0).
        for v in [[2, 0, 1], [2, 2, 0], [0, 0, 2], [2, 0, 0]] {
            t.deals += 1;
            let mut p = 0;
            for i in 0..3 {
                t.values[i].add(v[i]);
                for j in i + 1..3 {
                    t.differences[p].add(v[i] - v[j]);
                    p += 1;
                }
            }
        }
        assert_eq!(t.best(), 0);
        assert_eq!(t.chance(0).mean, 0.75);
        let d = t.versus(0, 1);
        assert_eq!((d.a, d.b, d.difference), (0.75, 0.25, 0.5));
        let e = t.versus(1, 0);
        assert_eq!(e.difference, -0.5);
        assert_eq!(d.interval.high, -e.interval.low);
        // Action 0 − action 2 in chances, deal by deal, against a direct computation.
        let diffs = [0.5, 1.0, -1.0, 1.0];
        let mean: f64 = diffs.iter().sum::<f64>() / 4.0;
        let var = diffs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 3.0;
        let v = t.versus(0, 2);
        assert!((v.difference - mean).abs() < 1e-12);
        assert!(
            (v.interval.high - v.interval.low - 2.0 * 1.959964 * (var / 4.0).sqrt()).abs() < 1e-5
        );
    }

    #[test]
    fn beyond_the_paired_limit_actions_compare_unpaired_and_screening_keeps_the_best() {
        let k = MAX_ACTIONS + 3;
        let mut t = AdviceTally::new(k);
        assert!(t.differences.is_empty() && !t.is_paired());
        // Action i wins on deal d when (d + i) % 4 == 0 (a quarter each), except action 7,
        // which wins on every even deal (a half).
        for d in 0..400i64 {
            t.deals += 1;
            for i in 0..k {
                let win = if i == 7 {
                    d % 2 == 0
                } else {
                    (d + i as i64) % 4 == 0
                };
                t.values[i].add(if win { 2 } else { 0 });
            }
        }
        assert_eq!(t.best(), 7);
        // Unpaired: the difference's interval from the two variances, as if independent.
        let v = t.versus(7, 0);
        let (a, b) = (t.chance(7), t.chance(0));
        assert!((v.difference - (a.mean - b.mean)).abs() < 1e-12);
        let half = 1.959964 * (a.sd * a.sd / 400.0 + b.sd * b.sd / 400.0).sqrt();
        assert!(
            (v.interval.high - v.interval.low - 2.0 * half).abs() < 1e-4,
            "{v:?}"
        );
        assert!(v.interval.low > 0.0);
        // Every other action is a quarter, far below the half: only the 8 best by rank stay,
        // the clear best among them, in the engine's order.
        let kept = kept_by_screen(&t, Screen::DEFAULT);
        assert_eq!(kept.len(), 8);
        assert!(kept.contains(&7));
        assert!(kept.windows(2).all(|w| w[0] < w[1]));
    }
}
