//! The duel abstracted to the standing bid: a player decides on their hand, the bid standing
//! (or the pass just made) and which passes are spent — not on the bids before it.
//!
//! These spots form a small graph that only climbs, so CFR+ runs over it directly: a forward
//! pass carries each side's reach into every spot (summed over the histories that lead there),
//! a backward pass the value of every pair of hands at every spot (an H × H matrix). The
//! counterfactual value of an action is then the other side's reach times the child's matrix,
//! which is exactly the sum over the histories merged into the spot, because both sides'
//! continuations depend on the spot only.

use std::collections::HashMap;

use rayon::prelude::*;

use super::full::NodePolicy;
use super::game::DuelGame;

/// From this many hands on, a spot's matrices are split between threads (below it the
/// threads' start costs more than the work).
const PARALLEL_HANDS: usize = 40;

/// What a player remembers of the bids besides the standing one (and the passes spent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Recall {
    /// Nothing: the standing bid only.
    StandingBid,
    /// The bid before the standing one, whole.
    TwoBids,
    /// The face of the bid before the standing one: whether the other kept the face you bid
    /// or moved to another, and from which. Six times the spots of the standing bid alone, and
    /// most of what remembering the whole bid gives (three dice a side, plain, 300 iterations: a
    /// full-history responder gains 0.16–0.20 against it, 0.15–0.19 against two bids,
    /// 0.57–0.61 against the standing bid alone).
    BidAndFace,
}

impl Recall {
    /// What a spot keeps of the bid before its standing one (`before`, an index into the
    /// game's bids): the bid itself ([`Spot::prev`]) or its face ([`Spot::prev_face`]).
    fn keeps(self, game: &DuelGame, before: Option<u16>) -> (Option<u16>, Option<u8>) {
        match self {
            Recall::StandingBid => (None, None),
            Recall::TwoBids => (before, None),
            Recall::BidAndFace => (
                None,
                before.map(|b| game.bids[usize::from(b)].face.index() as u8),
            ),
        }
    }
}

/// A decision point of the abstraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spot {
    /// The bid before the standing one, when the abstraction remembers two bids.
    pub prev: Option<u16>,
    /// The face index (0 aces … 5 sixes) of the bid before the standing one, when the
    /// abstraction remembers it ([`Recall::BidAndFace`]).
    pub prev_face: Option<u8>,
    /// The standing bid (`None` at the opening).
    pub bid: Option<u16>,
    /// Who is to act: 0 the round's opener, 1 the other.
    pub mover: u8,
    /// Passes spent this round, one bit per player.
    pub used: u8,
    /// The other player has just passed (a «dudo» here doubts the pass).
    pub after_pass: bool,
}

/// An action at a spot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// «Dudo»: doubt the standing bid, or the pass just made.
    Doubt,
    /// Raise to the bid of this index (at the opening: open with it).
    Raise(u16),
    /// Paso.
    Pass,
}

/// Where an action leads.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// The spot of this index.
    Spot(usize),
    /// The bid is doubted by the player.
    DoubtBid { bid: usize, doubter: usize },
    /// The pass of the player is doubted by the other.
    DoubtPass { passer: usize },
}

/// One spot with its actions.
#[derive(Clone, Debug)]
struct Node {
    spot: Spot,
    moves: Vec<Move>,
    next: Vec<Next>,
}

/// What a backward pass does at one player's spots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// CFR+ update of this player's regrets and average (alternating updates: the other side
    /// keeps the strategy it had, the next pass updates it against this player's new one).
    Cfr(usize),
    /// This player best-responds, spot by spot.
    Best(usize),
    /// Nobody deviates: the profile's value.
    Evaluate,
}

/// CFR+ over the standing-bid abstraction.
pub struct LastBid<'g> {
    game: &'g DuelGame,
    nodes: Vec<Node>,
    index: HashMap<Spot, usize>,
    /// Cumulative positive regrets, per spot `[action][hand]`.
    regret: Vec<Vec<f64>>,
    /// Average-strategy weights, per spot `[action][hand]`.
    average: Vec<Vec<f64>>,
    /// The strategy a pass uses, per spot `[action][hand]`.
    sigma: Vec<Vec<f64>>,
    /// Counterfactual values of the updating player, per spot `[action][hand]`.
    cfv: Vec<Vec<f64>>,
    /// Each player's own reach into each spot, `[player][spot][hand]`.
    reach: [Vec<Vec<f64>>; 2],
    /// The opener's payoff at each spot for each pair of hands, `[h0 * H + h1]`.
    values: Vec<Vec<f64>>,
    /// Scratch: the other side's reach with chance at one spot.
    other: Vec<f64>,
    /// What a player remembers.
    recall: Recall,
    iterations: u64,
}

impl<'g> LastBid<'g> {
    /// The abstraction of `game`, every regret at zero.
    pub fn new(game: &'g DuelGame, recall: Recall) -> LastBid<'g> {
        let (nodes, index) = spots(game, recall);
        let h = game.hand_count();
        let per_node = |f: &dyn Fn(&Node) -> usize| -> Vec<Vec<f64>> {
            nodes.iter().map(|n| vec![0.0; f(n)]).collect()
        };
        let by_moves = |n: &Node| n.moves.len() * h;
        LastBid {
            regret: per_node(&by_moves),
            average: per_node(&by_moves),
            sigma: per_node(&by_moves),
            cfv: per_node(&by_moves),
            reach: [per_node(&|_| h), per_node(&|_| h)],
            values: per_node(&|_| h * h),
            other: vec![0.0; h],
            recall,
            game,
            nodes,
            index,
            iterations: 0,
        }
    }

    /// The game solved.
    pub fn game(&self) -> &DuelGame {
        self.game
    }

    /// Iterations run.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Number of spots (decision points per hand).
    pub fn spot_count(&self) -> usize {
        self.nodes.len()
    }

    /// One CFR+ iteration with alternating updates (the opener's regrets, then the other's
    /// against the opener's new strategy), the average weighted by the iteration.
    ///
    /// Alternating rather than simultaneous: it costs two passes instead of one, but in this
    /// imperfect-recall abstraction it reaches a lower spot-by-spot exploitability in the same
    /// time (three dice a side, plain: 0.057 after 300 iterations against 0.080 after 600
    /// simultaneous ones) and a sheet that plays better (Caleuchano: from losing to `honest`
    /// to beating it).
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for player in 0..2 {
            self.current_strategy();
            self.run(Pass::Cfr(player));
        }
    }

    /// The opener's expected payoff in [−1, 1] when both sides play the average strategy.
    pub fn value(&mut self) -> f64 {
        self.average_strategy();
        self.run(Pass::Evaluate)
    }

    /// What the best response that also remembers only the standing bid, chosen spot by spot
    /// from the back (each spot's choice against the other side's reach into it), earns as
    /// `player` against the average strategy: an exact value of one such responder, so a lower
    /// bound on what the best of them earns.
    pub fn spot_response(&mut self, player: usize) -> f64 {
        self.average_strategy();
        let v = self.run(Pass::Best(player));
        if player == 0 {
            v
        } else {
            -v
        }
    }

    /// What spot-by-spot responses gain against the average strategy on both seats together.
    pub fn spot_exploitability(&mut self) -> f64 {
        self.spot_response(0) + self.spot_response(1)
    }

    /// Fills `sigma` with regret matching.
    fn current_strategy(&mut self) {
        let h = self.game.hand_count();
        for (s, r) in self.sigma.iter_mut().zip(&self.regret) {
            normalise(r, h, s);
        }
    }

    /// Fills `sigma` with the average strategy.
    fn average_strategy(&mut self) {
        let h = self.game.hand_count();
        for (s, r) in self.sigma.iter_mut().zip(&self.average) {
            normalise(r, h, s);
        }
    }

    /// The index of a spot that can occur.
    pub fn node_of(&self, spot: &Spot) -> Option<usize> {
        self.index.get(spot).copied()
    }

    /// Actions at the spot of index `n`.
    pub fn moves_at(&self, n: usize) -> &[Move] {
        &self.nodes[n].moves
    }

    /// Who acts at the spot of index `n` (0 the opener).
    pub fn mover_at(&self, n: usize) -> usize {
        usize::from(self.nodes[n].spot.mover)
    }

    /// The average strategy's probability of `action` at the spot of index `n` for `hand`.
    pub fn probability(&self, n: usize, hand: usize, action: usize) -> f64 {
        let h = self.game.hand_count();
        let w = &self.average[n];
        let a_count = self.nodes[n].moves.len();
        let total: f64 = (0..a_count).map(|a| w[a * h + hand].max(0.0)).sum();
        if total > 0.0 {
            w[action * h + hand].max(0.0) / total
        } else {
            1.0 / a_count as f64
        }
    }

    /// The spot index after `action` at spot `n` (`None`: a doubt ends the round).
    pub fn next_at(&self, n: usize, action: usize) -> Option<usize> {
        match self.nodes[n].next[action] {
            Next::Spot(c) => Some(c),
            _ => None,
        }
    }

    /// The opener's payoff after `action` at the spot of index `n` when the opener holds `h0`
    /// and the other `h1`, both sides then playing the strategy of the last pass (the average
    /// after [`LastBid::value`]).
    pub fn continuation_at(&self, n: usize, action: usize, h0: usize, h1: usize) -> f64 {
        payoff(self.game, &self.values, self.nodes[n].next[action], h0, h1)
    }

    /// The actions at a spot, if the spot can occur.
    pub fn moves(&self, spot: &Spot) -> Option<&[Move]> {
        self.index.get(spot).map(|&n| &self.nodes[n].moves[..])
    }

    /// Every spot, in the order play reaches them.
    pub fn spots(&self) -> impl Iterator<Item = &Spot> {
        self.nodes.iter().map(|n| &n.spot)
    }

    /// The chance that `player`'s hand `hand` ever reaches `spot` playing the average strategy
    /// (its own actions only), as left by the last pass over the average strategy.
    pub fn reach_of(&self, player: usize, spot: &Spot, hand: usize) -> f64 {
        self.index
            .get(spot)
            .map_or(0.0, |&n| self.reach[player][n][hand])
    }

    /// One pass: reach forward under `sigma`, values backward, and the pass's own work at
    /// the updating player's spots. Returns the opener's value at the root, chance included.
    fn run(&mut self, pass: Pass) -> f64 {
        let game = self.game;
        let h = game.hand_count();
        for p in 0..2 {
            for r in self.reach[p].iter_mut() {
                r.fill(0.0);
            }
            self.reach[p][0].fill(1.0);
        }
        for n in 0..self.nodes.len() {
            let mover = usize::from(self.nodes[n].spot.mover);
            for (a, next) in self.nodes[n].next.iter().enumerate() {
                if let Next::Spot(c) = *next {
                    for hand in 0..h {
                        let own = self.reach[mover][n][hand] * self.sigma[n][a * h + hand];
                        let other = self.reach[1 - mover][n][hand];
                        self.reach[mover][c][hand] += own;
                        self.reach[1 - mover][c][hand] += other;
                    }
                }
            }
        }
        let weight = self.iterations as f64;
        for n in (0..self.nodes.len()).rev() {
            let mover = usize::from(self.nodes[n].spot.mover);
            let deciding = match pass {
                Pass::Best(p) => p == mover,
                Pass::Cfr(p) => p == mover,
                Pass::Evaluate => false,
            };
            if deciding {
                self.counterfactual(n, mover);
                let node = &self.nodes[n];
                let a_count = node.moves.len();
                let cfv = &self.cfv[n];
                let sigma = &mut self.sigma[n];
                match pass {
                    Pass::Cfr(_) => {
                        let (regret, average) = (&mut self.regret[n], &mut self.average[n]);
                        let own = &self.reach[mover][n];
                        for hand in 0..h {
                            let v: f64 = (0..a_count)
                                .map(|a| sigma[a * h + hand] * cfv[a * h + hand])
                                .sum();
                            for a in 0..a_count {
                                let i = a * h + hand;
                                regret[i] = (regret[i] + cfv[i] - v).max(0.0);
                                average[i] += weight * own[hand] * sigma[i];
                            }
                        }
                    }
                    Pass::Best(_) => {
                        for hand in 0..h {
                            let best = (0..a_count)
                                .max_by(|&x, &y| cfv[x * h + hand].total_cmp(&cfv[y * h + hand]))
                                .expect("an action");
                            for a in 0..a_count {
                                sigma[a * h + hand] = f64::from(u8::from(a == best));
                            }
                        }
                    }
                    Pass::Evaluate => {}
                }
            }
            self.spot_values(n);
        }
        let root = &self.values[0];
        let mut total = 0.0;
        for (h0, w0) in game.weight.iter().enumerate() {
            for (h1, w1) in game.weight.iter().enumerate() {
                total += w0 * w1 * root[h0 * h + h1];
            }
        }
        total
    }

    /// The counterfactual value of every action at spot `n` for `player` (the mover): the
    /// other side's reach, with chance, times the payoffs after the action.
    fn counterfactual(&mut self, n: usize, player: usize) {
        let game = self.game;
        let h = game.hand_count();
        for ((q, r), w) in self
            .other
            .iter_mut()
            .zip(&self.reach[1 - player][n])
            .zip(&game.weight)
        {
            *q = r * w;
        }
        let other = &self.other;
        let node = &self.nodes[n];
        let values = &self.values;
        let work = |(out, &next): (&mut [f64], &Next)| {
            // Rows are the opener's hands.
            if player == 0 {
                for (h0, v) in out.iter_mut().enumerate() {
                    *v = dot_row(game, values, next, h0, other);
                }
            } else {
                out.fill(0.0);
                for (h0, &q) in other.iter().enumerate() {
                    if q != 0.0 {
                        add_row(game, values, next, h0, -q, None, out);
                    }
                }
            }
        };
        if h >= PARALLEL_HANDS {
            self.cfv[n]
                .par_chunks_mut(h)
                .zip(node.next.par_iter())
                .for_each(work);
        } else {
            self.cfv[n]
                .chunks_mut(h)
                .zip(node.next.iter())
                .for_each(work);
        }
    }

    /// The opener's payoff matrix at spot `n` under `sigma`.
    fn spot_values(&mut self, n: usize) {
        let game = self.game;
        let h = game.hand_count();
        let mut out = std::mem::take(&mut self.values[n]);
        let node = &self.nodes[n];
        let mover = usize::from(node.spot.mover);
        let sigma = &self.sigma[n];
        let values = &self.values;
        let work = |(h0, row): (usize, &mut [f64])| {
            row.fill(0.0);
            for (a, &next) in node.next.iter().enumerate() {
                let p = &sigma[a * h..(a + 1) * h];
                if mover == 0 {
                    if p[h0] != 0.0 {
                        add_row(game, values, next, h0, p[h0], None, row);
                    }
                } else if node_plays(p) {
                    add_row(game, values, next, h0, 1.0, Some(p), row);
                }
            }
        };
        if h >= PARALLEL_HANDS {
            out.par_chunks_mut(h).enumerate().for_each(work);
        } else {
            out.chunks_mut(h).enumerate().for_each(work);
        }
        self.values[n] = out;
    }
}

/// Whether some hand takes the action.
fn node_plays(p: &[f64]) -> bool {
    p.iter().any(|&x| x != 0.0)
}

/// The opener's payoff after `next` when the opener holds `h0` and the other `h1`.
#[inline]
fn payoff(game: &DuelGame, values: &[Vec<f64>], next: Next, h0: usize, h1: usize) -> f64 {
    match next {
        Next::Spot(c) => values[c][h0 * game.hand_count() + h1],
        terminal => terminal_value(game, terminal, h0, h1),
    }
}

/// Σ over the other's hands `h1` of `q[h1]` times the opener's payoff after `next` (opener
/// holding `h0`).
fn dot_row(game: &DuelGame, values: &[Vec<f64>], next: Next, h0: usize, q: &[f64]) -> f64 {
    let h = game.hand_count();
    match next {
        Next::Spot(c) => values[c][h0 * h..(h0 + 1) * h]
            .iter()
            .zip(q)
            .map(|(v, q)| v * q)
            .sum(),
        terminal => q
            .iter()
            .enumerate()
            .map(|(h1, &q)| q * terminal_value(game, terminal, h0, h1))
            .sum(),
    }
}

/// Adds `scale` (times `per[h1]` if given) times the opener's payoffs after `next` for the
/// opener's hand `h0` to `row` (one entry per hand `h1` of the other).
fn add_row(
    game: &DuelGame,
    values: &[Vec<f64>],
    next: Next,
    h0: usize,
    scale: f64,
    per: Option<&[f64]>,
    row: &mut [f64],
) {
    let h = game.hand_count();
    match (next, per) {
        (Next::Spot(c), None) => {
            for (r, v) in row.iter_mut().zip(&values[c][h0 * h..(h0 + 1) * h]) {
                *r += scale * v;
            }
        }
        (Next::Spot(c), Some(p)) => {
            for ((r, v), p) in row.iter_mut().zip(&values[c][h0 * h..(h0 + 1) * h]).zip(p) {
                *r += scale * p * v;
            }
        }
        (terminal, per) => {
            for (h1, r) in row.iter_mut().enumerate() {
                let p = per.map_or(1.0, |p| p[h1]);
                if p != 0.0 {
                    *r += scale * p * terminal_value(game, terminal, h0, h1);
                }
            }
        }
    }
}

/// The opener's payoff of a doubt.
#[inline]
fn terminal_value(game: &DuelGame, next: Next, h0: usize, h1: usize) -> f64 {
    // Whoever the doubt goes against: the doubter loses when the bid is true or the pass stands.
    let (doubter, doubter_loses) = match next {
        Next::DoubtBid { bid, doubter } => (doubter, game.is_true(bid, h0, h1)),
        Next::DoubtPass { passer } => (
            1 - passer,
            game.pass_stands[if passer == 0 { h0 } else { h1 }],
        ),
        Next::Spot(_) => unreachable!("not a doubt"),
    };
    let opener_loses = (doubter == 0) == doubter_loses;
    if opener_loses {
        -1.0
    } else {
        1.0
    }
}

/// Normalises weights `[action][hand]` per hand into `out` (uniform where all are zero).
fn normalise(weights: &[f64], h: usize, out: &mut [f64]) {
    let actions = weights.len() / h;
    for hand in 0..h {
        let total: f64 = (0..actions).map(|a| weights[a * h + hand].max(0.0)).sum();
        for a in 0..actions {
            out[a * h + hand] = if total > 0.0 {
                weights[a * h + hand].max(0.0) / total
            } else {
                1.0 / actions as f64
            };
        }
    }
}

/// Every spot reachable from the opening, in an order every action climbs, with its index.
fn spots(game: &DuelGame, recall: Recall) -> (Vec<Node>, HashMap<Spot, usize>) {
    let root = Spot {
        prev: None,
        prev_face: None,
        bid: None,
        mover: 0,
        used: 0,
        after_pass: false,
    };
    // Discover, then sort by (bid position, passes spent): every action raises one of them.
    let mut seen = vec![root];
    let mut found: HashMap<Spot, ()> = HashMap::from([(root, ())]);
    let mut i = 0;
    while i < seen.len() {
        for (_, next) in actions_of(game, &seen[i], recall) {
            if let Some(s) = next {
                if found.insert(s, ()).is_none() {
                    seen.push(s);
                }
            }
        }
        i += 1;
    }
    seen.sort_by_key(|s| {
        (
            s.bid.map_or(0, |b| b + 1),
            s.used.count_ones(),
            s.mover,
            s.used,
            s.prev.map_or(0, |b| b + 1),
            s.prev_face.map_or(0, |f| f + 1),
        )
    });
    let index: HashMap<Spot, usize> = seen.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let nodes = seen
        .iter()
        .map(|s| {
            let acts = actions_of(game, s, recall);
            let mover = usize::from(s.mover);
            let next = acts
                .iter()
                .map(|(m, child)| match (m, child) {
                    (_, Some(c)) => Next::Spot(index[c]),
                    (Move::Doubt, None) if s.after_pass => Next::DoubtPass { passer: 1 - mover },
                    (Move::Doubt, None) => Next::DoubtBid {
                        bid: usize::from(s.bid.expect("a bid stands")),
                        doubter: mover,
                    },
                    _ => unreachable!("only a doubt ends the round"),
                })
                .collect();
            Node {
                spot: *s,
                moves: acts.iter().map(|(m, _)| *m).collect(),
                next,
            }
        })
        .collect();
    (nodes, index)
}

/// The actions at a spot and the spot each leads to (`None`: the round ends).
fn actions_of(game: &DuelGame, s: &Spot, recall: Recall) -> Vec<(Move, Option<Spot>)> {
    let mut out = Vec::new();
    let other = 1 - s.mover;
    let raises = match s.bid {
        None => &game.raises[game.bid_count()],
        Some(b) => {
            out.push((Move::Doubt, None));
            &game.raises[usize::from(b)]
        }
    };
    // What the next spot keeps of the bid a raise raises: this spot's standing bid.
    let (prev, prev_face) = recall.keeps(game, s.bid);
    for &r in raises {
        out.push((
            Move::Raise(r),
            Some(Spot {
                prev,
                prev_face,
                bid: Some(r),
                mover: other,
                used: s.used,
                after_pass: false,
            }),
        ));
    }
    if game.paso && s.bid.is_some() && s.used & (1 << s.mover) == 0 {
        out.push((
            Move::Pass,
            Some(Spot {
                prev: s.prev,
                prev_face: s.prev_face,
                bid: s.bid,
                mover: other,
                used: s.used | (1 << s.mover),
                after_pass: true,
            }),
        ));
    }
    out
}

/// The average strategy of a [`LastBid`] solver read at full-recall nodes (rounds without paso):
/// the node's standing bid and mover pick the spot.
pub struct LastBidPolicy<'a, 'g> {
    solver: &'a LastBid<'g>,
}

impl<'g> LastBid<'g> {
    /// The average strategy as a policy over full-recall histories (rounds without paso).
    pub fn policy(&self) -> LastBidPolicy<'_, 'g> {
        LastBidPolicy { solver: self }
    }
}

impl NodePolicy for LastBidPolicy<'_, '_> {
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, mover: usize, out: &mut [f64]) {
        let before = super::full::bid_before(mask, top).map(|b| b as u16);
        let (prev, prev_face) = self.solver.recall.keeps(game, before);
        let spot = Spot {
            prev,
            prev_face,
            bid: top.map(|b| b as u16),
            mover: mover as u8,
            used: 0,
            after_pass: false,
        };
        let n = self.solver.index[&spot];
        normalise(&self.solver.average[n], game.hand_count(), out);
    }
}
