//! The duel with full recall: every information set is a hand and the whole bid history.
//!
//! Bids only climb, so a history is the set of its bids: a bitmask, its top bit the standing
//! bid. Vector-form CFR+ walks the history tree once per player and iteration with the other
//! side's reach over all its hands; the same walk computes best responses (exact exploitability)
//! and a profile's value, for this solver's strategy or any other given per node.
//!
//! The tables are kept per opening bid (the histories whose lowest bid it is), so the subtrees
//! under the openings are walked in parallel, each writing only its own tables.

use std::io::{self, Read, Write};

use super::game::DuelGame;
use rayon::prelude::*;

/// The most bids whose every history is stored (2^bids histories).
pub const MAX_FULL_BIDS: usize = 24;

/// The most hands a side (two dice: 21), for scratch kept on the stack.
const MAX_FULL_HANDS: usize = 64;

/// The most entries of one node (`[action][hand]`).
const MAX_NODE_ENTRIES: usize = (MAX_FULL_BIDS + 1) * MAX_FULL_HANDS;

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
/// [`DuelGame::raises`] order. Read from several threads at once.
pub trait NodePolicy: Sync {
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
    /// Per hand: the positive regrets' sum (regret matching).
    total: Vec<f64>,
}

impl Level {
    /// Scratch for a node of up to `n + 1` actions over `h` hands.
    fn new(n: usize, h: usize) -> Level {
        Level {
            sigma: vec![0.0; (n + 1) * h],
            values: vec![0.0; (n + 1) * h],
            reach: vec![0.0; h],
            total: vec![0.0; h],
        }
    }
}

/// Where each history's node sits in its opening's tables: depth first, a node's
/// `[action][hand]` entries and then the subtrees of the bids above its top, lowest first —
/// the order a walk visits them, so a walk reads and writes its tables front to back (what the
/// memory prefetcher follows best) instead of jumping between far-apart nodes. Every bid above
/// the top gets its place, a legal raise or not, so a node's place is a sum over its bids.
/// A bid nothing raises leaves «dudo» as the only action: such a node has no place (no regret,
/// no choice), and a walk values it where it meets it.
#[derive(Clone, Debug)]
struct Layout {
    /// Hands a side.
    h: usize,
    /// Actions at a node whose top bid is `j`.
    actions: Vec<usize>,
    /// Actions kept in the tables for such a node: its actions, or 0 where «dudo» is the only one.
    kept: Vec<usize>,
    /// `prefix[k]`: entries of the subtrees under tops `0..k` together.
    prefix: Vec<usize>,
}

impl Layout {
    /// The layout of `game`'s tables.
    fn new(game: &DuelGame) -> Layout {
        let n = game.bid_count();
        let h = game.hand_count();
        let actions: Vec<usize> = (0..n).map(|j| actions_at(game, Some(j))).collect();
        let kept: Vec<usize> = actions.iter().map(|&a| if a > 1 { a } else { 0 }).collect();
        // size[j]: the node with top j and every history above it.
        let mut size = vec![0usize; n];
        let mut above = 0;
        for j in (0..n).rev() {
            size[j] = kept[j] * h + above;
            above += size[j];
        }
        let mut prefix = vec![0usize; n + 1];
        for j in 0..n {
            prefix[j + 1] = prefix[j] + size[j];
        }
        Layout {
            h,
            actions,
            kept,
            prefix,
        }
    }

    /// Entries of the subtree of a node whose top bid is `j`.
    fn size(&self, j: usize) -> usize {
        self.prefix[j + 1] - self.prefix[j]
    }

    /// Where the child raising to `b` starts, under the node at `start` with top `t`.
    #[inline]
    fn child(&self, start: usize, t: usize, b: usize) -> usize {
        start + self.kept[t] * self.h + self.prefix[b] - self.prefix[t + 1]
    }

    /// Where the node of history `mask` starts in its opening's tables.
    fn node_start(&self, mask: u32) -> usize {
        let mut top = mask.trailing_zeros() as usize;
        let mut rest = mask & !(1u32 << top);
        let mut start = 0;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            start = self.child(start, top, b);
            top = b;
            rest &= rest - 1;
        }
        start
    }

    /// The nodes under `opening` as (start, entries kept, entries), in the order a state file
    /// keeps them: by top bid, then by the bids below it read as a binary number.
    fn state_order(&self, opening: usize) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let n = self.actions.len();
        (opening..n).flat_map(move |j| {
            let count = if j == opening {
                1u32
            } else {
                1u32 << (j - opening - 1)
            };
            (0..count).map(move |below| {
                let mask = (1u32 << opening) | (1u32 << j) | (below << (opening + 1));
                (
                    self.node_start(mask),
                    self.kept[j] * self.h,
                    self.actions[j] * self.h,
                )
            })
        })
    }
}

/// The histories under one opening bid: their tables and a walk's scratch.
#[derive(Clone, Debug)]
struct Subtree {
    /// The opening bid: the lowest bit of every history here.
    opening: usize,
    /// Cumulative positive regrets (CFR+), laid out as [`Layout`] says (empty in a [`Judge`]).
    regret: Vec<f32>,
    /// Average-strategy weights, same layout.
    average: Vec<f32>,
    /// Scratch per depth.
    levels: Vec<Level>,
    /// The other side's reach into the opening (scratch).
    reach: Vec<f64>,
    /// The walk's values per own hand (scratch).
    value: Vec<f64>,
}

impl Subtree {
    /// The subtree of `opening`, with tables or (for a judge) without.
    fn new(game: &DuelGame, layout: &Layout, opening: usize, tables: bool) -> Subtree {
        let h = game.hand_count();
        let n = game.bid_count();
        let total = if tables { layout.size(opening) } else { 0 };
        Subtree {
            opening,
            regret: vec![0.0; total],
            average: vec![0.0; total],
            levels: vec![Level::new(n, h); n + 1 - opening],
            reach: vec![0.0; h],
            value: vec![0.0; h],
        }
    }
}

/// Full-recall CFR+ over every history of the round.
pub struct FullRecall<'g> {
    game: &'g DuelGame,
    /// The root's regrets and average weights, `[opening][hand]`.
    root_regret: Vec<f32>,
    root_average: Vec<f32>,
    /// One per opening, in [`DuelGame::raises`] order.
    subtrees: Vec<Subtree>,
    /// Where each node sits in its opening's tables.
    layout: Layout,
    /// Scratch of the root.
    root_level: Level,
    iterations: u64,
    /// How the iterations are weighted in the average strategy.
    averaging: Averaging,
}

/// How a [`FullRecall`] solver weighs its iterations in the average strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Averaging {
    /// Iteration t weighs t (CFR+ as first published; states written before quadratic came).
    Linear,
    /// Iteration t weighs t²: on the textbook game with two dice a side, 22 % less
    /// exploitable after 100 iterations and 25 % after 200 than linear weights.
    Quadratic,
}

impl Averaging {
    /// The weight of iteration `t`.
    fn weight(self, t: u64) -> f32 {
        match self {
            Averaging::Linear => t as f32,
            Averaging::Quadratic => (t as f32) * (t as f32),
        }
    }

    /// The name a state file gives it.
    fn key(self) -> &'static str {
        match self {
            Averaging::Linear => "linear",
            Averaging::Quadratic => "quadratic",
        }
    }
}

impl<'g> FullRecall<'g> {
    /// Bytes the tables of `game` would take, or `None` if it has too many bids.
    pub fn memory_needed(game: &DuelGame) -> Option<u64> {
        let n = game.bid_count();
        (n <= MAX_FULL_BIDS).then(|| {
            let layout = Layout::new(game);
            let slots: usize = openings(game).map(|o| layout.size(o)).sum::<usize>()
                + actions_at(game, None) * game.hand_count();
            2 * 4 * slots as u64
        })
    }

    /// A solver for `game` (at most [`MAX_FULL_BIDS`] bids), every regret at zero.
    pub fn new(game: &'g DuelGame) -> FullRecall<'g> {
        FullRecall::build(game, true)
    }

    /// The solver's layout with tables, or without them for a [`Judge`].
    fn build(game: &'g DuelGame, tables: bool) -> FullRecall<'g> {
        assert!(
            game.bid_count() <= MAX_FULL_BIDS,
            "too many bids for full recall"
        );
        assert!(!game.paso, "full recall covers rounds without paso");
        let h = game.hand_count();
        assert!(h <= MAX_FULL_HANDS, "too many hands for full recall");
        let root = if tables {
            actions_at(game, None) * h
        } else {
            0
        };
        let layout = Layout::new(game);
        FullRecall {
            game,
            root_regret: vec![0.0; root],
            root_average: vec![0.0; root],
            subtrees: openings(game)
                .map(|o| Subtree::new(game, &layout, o, tables))
                .collect(),
            layout,
            root_level: Level::new(game.bid_count(), h),
            iterations: 0,
            averaging: Averaging::Quadratic,
        }
    }

    /// Iterations run.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// How the iterations are weighted in the average (quadratic, unless resumed from a state
    /// written with linear weights).
    pub fn averaging(&self) -> Averaging {
        self.averaging
    }

    /// One CFR+ iteration: the opener's regrets, then the other player's (alternating updates),
    /// the average weighted as [`FullRecall::averaging`] says.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for player in 0..2 {
            self.walk_root(Walk::Cfr, player, &Regrets);
        }
    }

    /// The average strategy as a policy.
    pub fn average(&self) -> AveragePolicy<'_> {
        AveragePolicy {
            root: &self.root_average,
            subtrees: &self.subtrees,
            layout: &self.layout,
        }
    }

    /// The value for `player` of the root walk, chance included. The root is the opener's
    /// node; each opening's subtree is walked on its own thread.
    fn walk_root(&mut self, mode: Walk, player: usize, policy: &dyn NodePolicy) -> f64 {
        let game = self.game;
        let h = game.hand_count();
        let actions = actions_at(game, None);
        let own = player == 0;
        let weight = self.averaging.weight(self.iterations);
        let cur = &mut self.root_level;
        match (mode, own) {
            (Walk::Best, true) => {}
            (Walk::Cfr, _) => regret_matching(
                &self.root_regret,
                actions,
                h,
                &mut cur.total,
                &mut cur.sigma,
            ),
            _ => policy.fill(game, 0, None, 0, &mut cur.sigma[..actions * h]),
        }
        let sigma = &cur.sigma;
        let layout = &self.layout;
        // One opening a task: the first holds half the histories, so splitting by halves of
        // the list would leave one thread with nearly all the work.
        self.subtrees
            .par_iter_mut()
            .with_max_len(1)
            .enumerate()
            .for_each(|(a, sub)| {
                if own {
                    sub.reach.copy_from_slice(&game.weight);
                } else {
                    for ((c, w), s) in sub.reach.iter_mut().zip(&game.weight).zip(&sigma[a * h..]) {
                        *c = w * s;
                    }
                }
                let mut levels = std::mem::take(&mut sub.levels);
                let reach = std::mem::take(&mut sub.reach);
                let mut value = std::mem::take(&mut sub.value);
                let mut tables = Tables {
                    game,
                    layout,
                    sub: &mut *sub,
                    weight,
                };
                let o = tables.sub.opening;
                tables.walk(
                    mode,
                    player,
                    policy,
                    1 << o,
                    o,
                    0,
                    1,
                    &reach,
                    &mut value,
                    &mut levels,
                );
                sub.levels = levels;
                sub.reach = reach;
                sub.value = value;
            });
        for (a, sub) in self.subtrees.iter().enumerate() {
            cur.values[a * h..(a + 1) * h].copy_from_slice(&sub.value);
        }
        let mut out = vec![0.0; h];
        let reach = &game.weight;
        let (regret, average) = if mode == Walk::Cfr {
            (&mut self.root_regret[..], &mut self.root_average[..])
        } else {
            (&mut [][..], &mut [][..])
        };
        finish_node(
            mode, own, actions, h, cur, reach, &mut out, regret, average, weight,
        );
        out.iter().zip(&game.weight).map(|(v, w)| v * w).sum()
    }
}

/// The first line of a saved state.
const STATE_MAGIC: &str = "tahur dudo duel full-recall state v2";

/// The first line of a state written before the nodes where «dudo» is the only action lost
/// their place and before quadratic averaging: such a state keeps those nodes' (unused)
/// entries, read and dropped, and its average is weighted linearly, as it goes on.
const STATE_MAGIC_V1: &str = "tahur dudo duel full-recall state v1";

impl<'g> FullRecall<'g> {
    /// The line naming the game a state belongs to.
    fn state_game_line(&self) -> String {
        format!(
            "rules={} dice_each={} bids={} hands={}",
            self.game.rules.key(),
            self.game.dice_each,
            self.game.bid_count(),
            self.game.hand_count()
        )
    }

    /// Writes the solver's state (four text lines, then every regret and average weight as
    /// little-endian `f32`), so a later run resumes where this one stopped. A node where «dudo»
    /// is the only action has none to write.
    pub fn save(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{STATE_MAGIC}")?;
        writeln!(w, "{}", self.state_game_line())?;
        writeln!(w, "iterations={}", self.iterations)?;
        writeln!(w, "averaging={}", self.averaging.key())?;
        let mut buf = Vec::with_capacity(4 * MAX_NODE_ENTRIES);
        let mut put = |entries: &[f32]| {
            buf.clear();
            buf.extend(entries.iter().flat_map(|x| x.to_le_bytes()));
            w.write_all(&buf)
        };
        put(&self.root_regret)?;
        put(&self.root_average)?;
        for sub in &self.subtrees {
            for table in [&sub.regret, &sub.average] {
                for (start, len, _) in self.layout.state_order(sub.opening) {
                    put(&table[start..start + len])?;
                }
            }
        }
        Ok(())
    }

    /// A solver for `game` resumed from a state [`FullRecall::save`] wrote; `Err` says in
    /// words what is wrong with the input (another game, cut short, not a state).
    pub fn load(game: &'g DuelGame, r: &mut dyn Read) -> Result<FullRecall<'g>, String> {
        let mut s = FullRecall::new(game);
        let mut line = |what: &str| -> Result<String, String> {
            let mut out = Vec::new();
            let mut byte = [0u8; 1];
            loop {
                match r.read(&mut byte) {
                    Ok(1) if byte[0] == b'\n' => break,
                    Ok(1) if out.len() < 200 => out.push(byte[0]),
                    Ok(_) => return Err(format!("not a full-recall state (no {what} line)")),
                    Err(e) => return Err(e.to_string()),
                }
            }
            String::from_utf8(out).map_err(|_| format!("not a full-recall state ({what})"))
        };
        let first = line("first")?;
        let v1 = first == STATE_MAGIC_V1;
        if first != STATE_MAGIC && !v1 {
            return Err(format!(
                "not a full-recall state (it should start with '{STATE_MAGIC}')"
            ));
        }
        let found = line("game")?;
        let expected = s.state_game_line();
        if found != expected {
            return Err(format!(
                "the state is of another game ({found}); this run solves {expected}"
            ));
        }
        let iterations = line("iterations")?;
        s.iterations = iterations
            .strip_prefix("iterations=")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("not a full-recall state (bad line '{iterations}')"))?;
        s.averaging = if v1 {
            Averaging::Linear
        } else {
            let averaging = line("averaging")?;
            [Averaging::Linear, Averaging::Quadratic]
                .into_iter()
                .find(|a| averaging == format!("averaging={}", a.key()))
                .ok_or_else(|| format!("not a full-recall state (bad line '{averaging}')"))?
        };
        let mut buf = vec![0u8; 4 * MAX_NODE_ENTRIES];
        // Reads `written` entries, the first of them into `entries` (the rest are dropped).
        let mut get = |entries: &mut [f32], written: usize| -> Result<(), String> {
            let bytes = &mut buf[..written * 4];
            r.read_exact(bytes)
                .map_err(|e| format!("the state is cut short ({e})"))?;
            for (x, b) in entries.iter_mut().zip(bytes.chunks_exact(4)) {
                *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            Ok(())
        };
        let root = s.root_regret.len();
        get(&mut s.root_regret, root)?;
        get(&mut s.root_average, root)?;
        let layout = s.layout.clone();
        for sub in &mut s.subtrees {
            for table in [&mut sub.regret, &mut sub.average] {
                for (start, len, all) in layout.state_order(sub.opening) {
                    get(&mut table[start..start + len], if v1 { all } else { len })?;
                }
            }
        }
        let mut extra = [0u8; 1];
        if r.read(&mut extra).map_err(|e| e.to_string())? != 0 {
            return Err("the state runs on past its tables (not written by this game)".into());
        }
        Ok(s)
    }
}

/// The openings, as bid indices in [`DuelGame::raises`] order.
fn openings(game: &DuelGame) -> impl Iterator<Item = usize> + '_ {
    game.raises[game.bid_count()]
        .iter()
        .map(|&o| usize::from(o))
}

/// Actions at a node: the openings, or «dudo» and the raises.
#[inline]
fn actions_at(game: &DuelGame, top: Option<usize>) -> usize {
    match top {
        None => game.raises[game.bid_count()].len(),
        Some(j) => 1 + game.raises[j].len(),
    }
}

/// Regret matching on `values` (`[action][hand]`), into `out`; `total` is scratch per hand.
fn regret_matching(values: &[f32], actions: usize, h: usize, total: &mut [f64], out: &mut [f64]) {
    let n = actions * h;
    let out = &mut out[..n];
    for (x, &v) in out.iter_mut().zip(&values[..n]) {
        *x = f64::from(v.max(0.0));
    }
    total.fill(0.0);
    for row in out.chunks_exact(h) {
        for (t, &x) in total.iter_mut().zip(row) {
            *t += x;
        }
    }
    // A hand with no positive regret plays uniformly: its entries are all zero, so each
    // becomes 0·0 + 1/actions, and the others x·(1/total) + 0 (no branch in the last loop).
    let mut uniform = [0.0f64; MAX_FULL_HANDS];
    let uniform = &mut uniform[..h];
    for (t, u) in total.iter_mut().zip(uniform.iter_mut()) {
        (*t, *u) = if *t > 0.0 {
            (1.0 / *t, 0.0)
        } else {
            (0.0, 1.0 / actions as f64)
        };
    }
    for row in out.chunks_exact_mut(h) {
        for ((x, &t), &u) in row.iter_mut().zip(total.iter()).zip(uniform.iter()) {
            *x = *x * t + u;
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
    root: &'a [f32],
    subtrees: &'a [Subtree],
    layout: &'a Layout,
}

impl NodePolicy for AveragePolicy<'_> {
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, _: usize, out: &mut [f64]) {
        let a = actions_at(game, top);
        let h = game.hand_count();
        let mut scratch = [0.0; MAX_FULL_HANDS];
        let total = &mut scratch[..h];
        if top.is_none() {
            regret_matching(self.root, a, h, total, out);
            return;
        }
        if a == 1 {
            // Only «dudo» is left (such nodes keep no table).
            out[..h].fill(1.0);
            return;
        }
        // The subtrees follow the openings, lowest first.
        let opening = mask.trailing_zeros() as usize;
        let sub = self
            .subtrees
            .binary_search_by_key(&opening, |s| s.opening)
            .map(|i| &self.subtrees[i])
            .expect("a history starts with an opening");
        let start = self.layout.node_start(mask);
        regret_matching(&sub.average[start..start + a * h], a, h, total, out);
    }
}

/// The tables of one subtree a walk reads and writes.
struct Tables<'a> {
    game: &'a DuelGame,
    layout: &'a Layout,
    sub: &'a mut Subtree,
    /// The weight of this iteration in the average (linear averaging).
    weight: f32,
}

impl Tables<'_> {
    /// Walks the subtree of history `mask` (standing bid `top`, its node at `start` in the
    /// tables): `out[h]` is `player`'s value holding `h`, summed over the other side's hands
    /// weighted by `reach` (their reach with chance).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        mode: Walk,
        player: usize,
        policy: &dyn NodePolicy,
        mask: u32,
        top: usize,
        start: usize,
        mover: usize,
        reach: &[f64],
        out: &mut [f64],
        levels: &mut [Level],
    ) {
        // Nothing reaches here from the other side: no value, no regret, no average weight.
        if reach.iter().all(|&r| r == 0.0) {
            out.fill(0.0);
            return;
        }
        let game = self.game;
        let actions = actions_at(game, Some(top));
        if actions == 1 {
            // Only «dudo» is left: nothing to choose, nothing kept (an opening nothing raises).
            game.doubt_values(top, mover, player, reach, out);
            return;
        }
        let h = game.hand_count();
        let (cur, deeper) = levels.split_first_mut().expect("deep enough");
        let own = mover == player;
        // The mover's strategy at this node.
        match (mode, own) {
            (Walk::Best, true) => {}
            (Walk::Cfr, _) => regret_matching(
                &self.sub.regret[start..start + actions * h],
                actions,
                h,
                &mut cur.total,
                &mut cur.sigma,
            ),
            _ => policy.fill(game, mask, Some(top), mover, &mut cur.sigma[..actions * h]),
        }
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
            let b = (a > 0).then(|| usize::from(game.raises[top][a - 1]));
            match b {
                None => game.doubt_values(top, mover, player, child_reach, val),
                // A raise nothing can top: the other side doubts it (the walk's own step,
                // taken here to save a call at the most numerous nodes of the tree).
                Some(b) if game.raises[b].is_empty() => {
                    game.doubt_values(b, 1 - mover, player, child_reach, val)
                }
                Some(b) => self.walk(
                    mode,
                    player,
                    policy,
                    mask | (1 << b),
                    b,
                    self.layout.child(start, top, b),
                    1 - mover,
                    child_reach,
                    val,
                    deeper,
                ),
            }
        }
        let (regret, average) = if mode == Walk::Cfr {
            let end = start + actions * h;
            (
                &mut self.sub.regret[start..end],
                &mut self.sub.average[start..end],
            )
        } else {
            (&mut [][..], &mut [][..])
        };
        finish_node(
            mode,
            own,
            actions,
            h,
            cur,
            reach,
            out,
            regret,
            average,
            self.weight,
        );
    }
}

/// A node's value from its children's (in `cur.values`), and in a CFR walk its update: the
/// updating player's regrets at own nodes, the other side's average weights at theirs.
#[allow(clippy::too_many_arguments)]
fn finish_node(
    mode: Walk,
    own: bool,
    actions: usize,
    h: usize,
    cur: &Level,
    reach: &[f64],
    out: &mut [f64],
    regret: &mut [f32],
    average: &mut [f32],
    weight: f32,
) {
    let values = &cur.values[..actions * h];
    let sigma = &cur.sigma[..actions * h];
    if !own {
        out.fill(0.0);
        for row in values.chunks_exact(h) {
            for (o, v) in out.iter_mut().zip(row) {
                *o += v;
            }
        }
        if mode == Walk::Cfr {
            // The other side's average, weighted by its reach (chance included: the same
            // factor for every node of a hand, so it cancels in the normalisation).
            let w = f64::from(weight);
            for (node, s) in average.chunks_exact_mut(h).zip(sigma.chunks_exact(h)) {
                for ((x, r), s) in node.iter_mut().zip(reach).zip(s) {
                    *x += (w * r * s) as f32;
                }
            }
        }
        return;
    }
    if mode == Walk::Best {
        out.fill(f64::NEG_INFINITY);
        for row in values.chunks_exact(h) {
            for (o, &v) in out.iter_mut().zip(row) {
                *o = o.max(v);
            }
        }
        return;
    }
    out.fill(0.0);
    for (row, s) in values.chunks_exact(h).zip(sigma.chunks_exact(h)) {
        for ((o, v), s) in out.iter_mut().zip(row).zip(s) {
            *o += s * v;
        }
    }
    if mode == Walk::Cfr {
        for (node, row) in regret.chunks_exact_mut(h).zip(values.chunks_exact(h)) {
            for ((r, v), o) in node.iter_mut().zip(row).zip(out.iter()) {
                *r = (f64::from(*r) + v - o).max(0.0) as f32;
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
        Judge {
            solver: FullRecall::build(game, false),
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

    /// The opener's value when both sides play `policy`, and the bounds best responses put
    /// on the game's value: `policy`'s opener earns at least `low` against any reply, its
    /// other side concedes at most `high` (`high − low` is the exploitability).
    pub fn bounds(&mut self, policy: &dyn NodePolicy) -> (f64, (f64, f64)) {
        let value = self.value(policy);
        let high = self.best_response(0, policy);
        let low = -self.best_response(1, policy);
        (value, (low, high))
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
        let (value, (low, high)) = self.judge_bounds();
        (value, high - low)
    }

    /// The exploitability of the average strategy alone (two walks: no value walk).
    pub fn exploitability(&mut self) -> f64 {
        Judge::new(self.game).exploitability(&self.average())
    }

    /// The opener's value under the average strategy, and the bounds the best responses put
    /// on the game's value: the opener's strategy earns at least `low` against any reply,
    /// the other's concedes at most `high` (`high − low` is the exploitability).
    pub fn judge_bounds(&mut self) -> (f64, (f64, f64)) {
        Judge::new(self.game).bounds(&self.average())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dudo::duel::DuelRules;

    #[test]
    fn a_state_written_before_goes_on_with_linear_weights() {
        // A first-version state kept an entry for every node, «dudo» alone included, and
        // weighted its average linearly: read back, it has the same tables and weights.
        let game = DuelGame::new(DuelRules::Caleuchano, 1);
        let mut s = FullRecall::new(&game);
        for _ in 0..30 {
            s.iterate();
        }
        let mut v1 = Vec::new();
        writeln!(
            v1,
            "{STATE_MAGIC_V1}\n{}\niterations=30",
            s.state_game_line()
        )
        .unwrap();
        let mut put = |entries: &[f32]| v1.extend(entries.iter().flat_map(|x| x.to_le_bytes()));
        put(&s.root_regret);
        put(&s.root_average);
        let mut dropped = 0;
        for sub in &s.subtrees {
            for table in [&sub.regret, &sub.average] {
                for (start, len, all) in s.layout.state_order(sub.opening) {
                    if len == 0 {
                        put(&vec![7.0; all]);
                        dropped += 1;
                    } else {
                        put(&table[start..start + len]);
                    }
                }
            }
        }
        assert!(dropped > 0);
        let back = FullRecall::load(&game, &mut v1.as_slice()).unwrap();
        assert_eq!(back.averaging(), Averaging::Linear);
        assert_eq!(s.averaging(), Averaging::Quadratic);
        assert_eq!(back.iterations(), 30);
        assert_eq!(back.root_average, s.root_average);
        for (a, b) in back.subtrees.iter().zip(&s.subtrees) {
            assert!(a.regret == b.regret && a.average == b.average);
        }
        // Saved again, it says its weights are linear.
        let mut v2 = Vec::new();
        back.save(&mut v2).unwrap();
        let head = String::from_utf8_lossy(&v2[..200]).into_owned();
        assert!(head.contains("\naveraging=linear\n"), "{head}");
        assert!(v2.len() < v1.len());
    }

    #[test]
    fn layout_gives_every_history_its_own_slots_in_walk_order() {
        for (rules, dice) in [(DuelRules::Plain, 1), (DuelRules::Caleuchano, 1)] {
            let game = DuelGame::new(rules, dice);
            let layout = Layout::new(&game);
            let n = game.bid_count();
            for opening in 0..n {
                // Every history under the opening, as the state file orders them: their slots
                // tile the table exactly, with no gap and no overlap.
                let mut slots: Vec<(usize, usize, usize)> = layout.state_order(opening).collect();
                assert_eq!(slots.len(), 1 << (n - 1 - opening));
                slots.sort_unstable();
                let mut at = 0;
                for (start, len, all) in slots {
                    assert_eq!(start, at, "{rules} opening {opening}");
                    // Only a node with «dudo» alone keeps nothing.
                    assert!(len == all || (len == 0 && all == layout.h));
                    at += len;
                }
                assert_eq!(at, layout.size(opening));
            }
            // Depth first: a node's first child follows its own entries at once, and a child
            // found by the walk's step is the one its history names.
            let mask = 0b1010_0101u32 & ((1 << n) - 1);
            let top = 31 - mask.leading_zeros() as usize;
            let start = layout.node_start(mask);
            for b in top + 1..n {
                let child = layout.child(start, top, b);
                assert_eq!(child, layout.node_start(mask | 1 << b));
                if b == top + 1 {
                    assert_eq!(child, start + layout.kept[top] * layout.h);
                }
            }
        }
    }
}
