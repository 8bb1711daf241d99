//! The duel with full recall: every information set is a hand and the whole bid history.
//!
//! Bids only climb, so a history is the set of its bids: a bitmask, its top bit the standing
//! bid. Vector-form CFR+ walks the history tree once per player and iteration with the other
//! side's reach over all its hands; the same walk computes best responses (exact exploitability)
//! and a profile's value, for this solver's strategy or any other given per node.

use super::game::DuelGame;

/// The most bids whose every history is stored (2^bids histories).
pub const MAX_FULL_BIDS: usize = 24;

/// What a walk of the history tree does at the updating player's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// CFR+: regrets of the player, average strategy of the other side.
    Cfr,
    /// Best response: the best action for each hand.
    Best,
    /// The profile's own value: the player's given strategy.
    Evaluate,
}

/// A strategy read per node: fills `out[a * hands + h]` with the probability that the mover
/// holding `h` takes action `a` at the node of history `mask` (standing bid `top`, `None` at the
/// opening). Action 0 is «dudo» wherever a bid stands; the raises follow in
/// [`DuelGame::raises`] order.
pub trait NodePolicy {
    /// The mover's strategy at the node, for every hand.
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, mover: usize, out: &mut [f64]);
}

/// The bid the standing one raised in the history `mask` (standing bid `top`): the highest
/// bid below it, since bids only climb (`None` at the opening bid or before it).
pub fn bid_before(mask: u32, top: Option<usize>) -> Option<usize> {
    let below = top.map_or(0, |t| mask & !(1u32 << t));
    (below != 0).then(|| (31 - below.leading_zeros()) as usize)
}

/// Scratch of one depth of the walk (allocated once: the walk allocates nothing).
#[derive(Clone, Debug)]
struct Level {
    /// Strategy at the node, `[action][hand]`.
    sigma: Vec<f64>,
    /// Children's values, `[action][hand]`.
    values: Vec<f64>,
    /// The other side's reach into a child.
    reach: Vec<f64>,
}

impl Level {
    /// Scratch for a node of up to `n + 1` actions over `h` hands.
    fn new(n: usize, h: usize) -> Level {
        Level {
            sigma: vec![0.0; (n + 1) * h],
            values: vec![0.0; (n + 1) * h],
            reach: vec![0.0; h],
        }
    }
}

/// Full-recall CFR+ over every history of the round.
pub struct FullRecall<'g> {
    game: &'g DuelGame,
    /// Start of the slots of the histories whose top bid is `j`.
    base: Vec<usize>,
    /// Cumulative positive regrets (CFR+), `[node][action][hand]`.
    regret: Vec<f32>,
    /// Average-strategy weights, same layout.
    average: Vec<f32>,
    levels: Vec<Level>,
    iterations: u64,
}

impl<'g> FullRecall<'g> {
    /// Bytes the tables of `game` would take, or `None` if it has too many bids.
    pub fn memory_needed(game: &DuelGame) -> Option<u64> {
        let n = game.bid_count();
        (n <= MAX_FULL_BIDS).then(|| 2 * 4 * slots(game).1 as u64)
    }

    /// A solver for `game` (at most [`MAX_FULL_BIDS`] bids), every regret at zero.
    pub fn new(game: &'g DuelGame) -> FullRecall<'g> {
        assert!(
            game.bid_count() <= MAX_FULL_BIDS,
            "too many bids for full recall"
        );
        assert!(!game.paso, "full recall covers rounds without paso");
        let (base, total) = slots(game);
        let h = game.hand_count();
        let n = game.bid_count();
        let level = Level::new(n, h);
        FullRecall {
            game,
            base,
            regret: vec![0.0; total],
            average: vec![0.0; total],
            levels: vec![level; n + 2],
            iterations: 0,
        }
    }

    /// Iterations run.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// One CFR+ iteration: the opener's regrets, then the other player's (alternating updates),
    /// the average weighted by the iteration number.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for player in 0..2 {
            self.walk_root(Walk::Cfr, player, &Regrets);
        }
    }

    /// The average strategy as a policy.
    pub fn average(&self) -> AveragePolicy<'_> {
        AveragePolicy {
            base: &self.base,
            average: &self.average,
        }
    }

    /// The value for `player` of the root walk, chance included.
    fn walk_root(&mut self, mode: Walk, player: usize, policy: &dyn NodePolicy) -> f64 {
        let game = self.game;
        let h = game.hand_count();
        let mut levels = std::mem::take(&mut self.levels);
        let (root, rest) = levels.split_first_mut().expect("levels");
        root.reach.copy_from_slice(&game.weight);
        let reach = std::mem::take(&mut root.reach);
        let mut out = vec![0.0; h];
        let mut tables = Tables {
            game,
            base: &self.base,
            regret: &mut self.regret,
            average: &mut self.average,
            weight: self.iterations as f32,
        };
        tables.walk(mode, player, policy, 0, None, 0, &reach, &mut out, rest);
        levels[0].reach = reach;
        self.levels = levels;
        out.iter().zip(&game.weight).map(|(v, w)| v * w).sum()
    }
}

/// The slot starts per top bid and the slots in all, in entries (`[action][hand]` per node).
fn slots(game: &DuelGame) -> (Vec<usize>, usize) {
    let h = game.hand_count();
    let n = game.bid_count();
    let mut base = Vec::with_capacity(n);
    let mut at = n * h; // the root: one action per opening
    for j in 0..n {
        base.push(at);
        at += (1usize << j) * actions_at(game, Some(j)) * h;
    }
    (base, at)
}

/// Actions at a node: the openings, or «dudo» and the raises.
#[inline]
fn actions_at(game: &DuelGame, top: Option<usize>) -> usize {
    match top {
        None => game.raises[game.bid_count()].len(),
        Some(j) => 1 + game.raises[j].len(),
    }
}

/// Where the node of history `mask` starts in the tables.
#[inline]
fn node_start(game: &DuelGame, base: &[usize], mask: u32, top: Option<usize>) -> usize {
    match top {
        None => 0,
        Some(j) => {
            let below = (mask & ((1u32 << j) - 1)) as usize;
            base[j] + below * actions_at(game, top) * game.hand_count()
        }
    }
}

/// Regret matching on `values` (`[action][hand]`), into `out`.
fn regret_matching(values: &[f32], actions: usize, h: usize, out: &mut [f64]) {
    for hand in 0..h {
        let total: f64 = (0..actions)
            .map(|a| f64::from(values[a * h + hand]).max(0.0))
            .sum();
        for a in 0..actions {
            out[a * h + hand] = if total > 0.0 {
                f64::from(values[a * h + hand]).max(0.0) / total
            } else {
                1.0 / actions as f64
            };
        }
    }
}

/// The current strategy of regret matching, as a policy (read from the tables during a walk).
struct Regrets;

impl NodePolicy for Regrets {
    fn fill(&self, _: &DuelGame, _: u32, _: Option<usize>, _: usize, _: &mut [f64]) {
        unreachable!("the CFR walk reads regrets from its own tables");
    }
}

/// The average strategy of a [`FullRecall`] solver.
pub struct AveragePolicy<'a> {
    base: &'a [usize],
    average: &'a [f32],
}

impl NodePolicy for AveragePolicy<'_> {
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, _: usize, out: &mut [f64]) {
        let start = node_start(game, self.base, mask, top);
        let a = actions_at(game, top);
        let h = game.hand_count();
        regret_matching(&self.average[start..start + a * h], a, h, out);
    }
}

/// The tables a walk reads and writes.
struct Tables<'a> {
    game: &'a DuelGame,
    base: &'a [usize],
    regret: &'a mut [f32],
    average: &'a mut [f32],
    /// The weight of this iteration in the average (linear averaging).
    weight: f32,
}

impl Tables<'_> {
    /// Walks the subtree of history `mask`: `out[h]` is `player`'s value holding `h`, summed over
    /// the other side's hands weighted by `reach` (their reach with chance).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        mode: Walk,
        player: usize,
        policy: &dyn NodePolicy,
        mask: u32,
        top: Option<usize>,
        mover: usize,
        reach: &[f64],
        out: &mut [f64],
        levels: &mut [Level],
    ) {
        if reach.iter().all(|&r| r == 0.0) {
            out.fill(0.0);
            return;
        }
        let game = self.game;
        let h = game.hand_count();
        let (cur, deeper) = levels.split_first_mut().expect("deep enough");
        let actions = actions_at(game, top);
        let start = node_start(game, self.base, mask, top);
        let own = mover == player;
        // The mover's strategy at this node.
        match (mode, own) {
            (Walk::Best, true) => {}
            (Walk::Cfr, _) => regret_matching(
                &self.regret[start..start + actions * h],
                actions,
                h,
                &mut cur.sigma,
            ),
            _ => policy.fill(game, mask, top, mover, &mut cur.sigma[..actions * h]),
        }
        let raises = &game.raises[top.unwrap_or(game.bid_count())];
        let first_raise = usize::from(top.is_some());
        for a in 0..actions {
            let val = &mut cur.values[a * h..(a + 1) * h];
            let child_reach: &[f64] = if own {
                reach
            } else {
                let sigma = &cur.sigma[a * h..(a + 1) * h];
                for ((c, r), s) in cur.reach.iter_mut().zip(reach).zip(sigma) {
                    *c = r * s;
                }
                &cur.reach
            };
            if a < first_raise {
                let b = top.expect("a bid stands");
                game.doubt_values(b, mover, player, child_reach, val);
            } else {
                let b = raises[a - first_raise] as usize;
                self.walk(
                    mode,
                    player,
                    policy,
                    mask | (1 << b),
                    Some(b),
                    1 - mover,
                    child_reach,
                    val,
                    deeper,
                );
            }
        }
        if !own {
            for (o, v) in out.iter_mut().enumerate() {
                *v = (0..actions).map(|a| cur.values[a * h + o]).sum();
            }
            if mode == Walk::Cfr {
                // The other side's average, weighted by its reach (chance included: the same
                // factor for every node of a hand, so it cancels in the normalisation).
                let node = &mut self.average[start..start + actions * h];
                for (i, x) in node.iter_mut().enumerate() {
                    *x += self.weight * (reach[i % h] * cur.sigma[i]) as f32;
                }
            }
            return;
        }
        for (hand, v) in out.iter_mut().enumerate() {
            *v = match mode {
                Walk::Best => (0..actions)
                    .map(|a| cur.values[a * h + hand])
                    .fold(f64::NEG_INFINITY, f64::max),
                _ => (0..actions)
                    .map(|a| cur.sigma[a * h + hand] * cur.values[a * h + hand])
                    .sum(),
            };
        }
        if mode == Walk::Cfr {
            let node = &mut self.regret[start..start + actions * h];
            for (i, r) in node.iter_mut().enumerate() {
                *r = (f64::from(*r) + cur.values[i] - out[i % h]).max(0.0) as f32;
            }
        }
    }
}

/// Exact values of a strategy profile given per full-recall node.
pub struct Judge<'g> {
    solver: FullRecall<'g>,
}

impl<'g> Judge<'g> {
    /// A judge for `game` (at most [`MAX_FULL_BIDS`] bids; it walks every history but stores
    /// no tables).
    pub fn new(game: &'g DuelGame) -> Judge<'g> {
        assert!(
            game.bid_count() <= MAX_FULL_BIDS,
            "too many bids for full recall"
        );
        let h = game.hand_count();
        let n = game.bid_count();
        let level = Level::new(n, h);
        Judge {
            solver: FullRecall {
                game,
                base: vec![0; n],
                regret: Vec::new(),
                average: Vec::new(),
                levels: vec![level; n + 2],
                iterations: 0,
            },
        }
    }

    /// The opener's expected payoff when both sides play `policy`.
    pub fn value(&mut self, policy: &dyn NodePolicy) -> f64 {
        self.solver.walk_root(Walk::Evaluate, 0, policy)
    }

    /// What a best response with full recall earns as `player` against `policy` (the payoff
    /// to `player`, in [−1, 1]).
    pub fn best_response(&mut self, player: usize, policy: &dyn NodePolicy) -> f64 {
        self.solver.walk_root(Walk::Best, player, policy)
    }

    /// Exploitability of `policy`: what best responses gain against it on both seats together,
    /// best(opener) + best(other) (≥ 0; zero at an equilibrium).
    pub fn exploitability(&mut self, policy: &dyn NodePolicy) -> f64 {
        self.best_response(0, policy) + self.best_response(1, policy)
    }
}

impl FullRecall<'_> {
    /// The opener's value and the exploitability of the average strategy.
    pub fn judge(&mut self) -> (f64, f64) {
        let mut judge = Judge::new(self.game);
        let avg = self.average();
        (judge.value(&avg), judge.exploitability(&avg))
    }
}
