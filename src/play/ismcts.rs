//! Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012),
//! for any game that says how to deal what a player cannot see, list the legal actions, play one,
//! finish a game quickly and score it ([`SearchGame`]).
//!
//! Every iteration deals the cards the searching player cannot see at random
//! ([`SearchGame::determinize`]), walks the tree choosing among the actions legal in that deal
//! by UCB1 with availability counts, adds one node, plays the game out with the game's quick
//! policy ([`SearchGame::playout_action`]) and credits each node with the reward of the player
//! who chose it ([`SearchGame::rewards`], in [0, 1]). The decision is the root action visited
//! most. The node arena is reused from decision to decision.

use crate::rng::{uniform_below, Stream};

/// Seats a reward array covers.
pub const MAX_SEATS: usize = 16;

/// What the search needs of a game: its state is `Self`, a player's view of it `View`.
pub trait SearchGame: Sized {
    /// A move.
    type Action: Copy + PartialEq;
    /// What one player sees (borrowing the game).
    type View<'a>;
    /// An action never legal, for the root node.
    const NO_ACTION: Self::Action;
    /// Among root actions visited equally often, whether the one added last wins (else the one
    /// added first). A game keeps the rule its published search results were made with.
    const TIES_TO_NEWEST: bool;
    /// The seat whose view it is.
    fn seat(view: &Self::View<'_>) -> u8;
    /// A whole game consistent with the view: what the player cannot see dealt at random.
    fn determinize(view: &Self::View<'_>, rng: &mut Stream) -> Self;
    /// Whether the game is over (finished or stopped at a cap).
    fn is_over(&self) -> bool;
    /// The seat to act.
    fn turn(&self) -> u8;
    /// The legal actions, into `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Plays a legal action; chance events (draws) come from `rng`.
    fn apply_legal(&mut self, action: Self::Action, rng: &mut Stream);
    /// The quick policy's action for the play-out.
    fn playout_action(&self) -> Self::Action;
    /// Each seat's reward for a game that is over, in [0, 1].
    fn rewards(&self) -> [f64; MAX_SEATS];
}

const NONE: u32 = u32::MAX;
/// UCB1 exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;

#[derive(Clone, Copy, Debug)]
struct Node<A> {
    action: A,
    /// The player who chose `action`.
    player: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

/// A reusable search with a fixed budget of iterations per decision.
pub struct Search<G: SearchGame> {
    budget: u32,
    nodes: Vec<Node<G::Action>>,
    actions: Vec<G::Action>,
    untried: Vec<G::Action>,
    path: Vec<u32>,
}

impl<G: SearchGame> Search<G> {
    /// A search of `budget` iterations per decision.
    pub fn new(budget: u32) -> Search<G> {
        Search {
            budget,
            nodes: Vec::with_capacity(budget as usize + 1),
            actions: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            path: Vec::with_capacity(256),
        }
    }

    /// The action to take where `view` stands (a budget of at least 1).
    pub fn choose(&mut self, view: &G::View<'_>, rng: &mut Stream) -> G::Action {
        self.nodes.clear();
        self.nodes.push(Node {
            action: G::NO_ACTION,
            player: G::seat(view),
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        for _ in 0..self.budget {
            let mut game = G::determinize(view, rng);
            self.iterate(&mut game, rng);
        }
        // Children are listed newest first.
        let mut best = NONE;
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let visits = self.nodes[c as usize].visits;
            if best == NONE
                || visits > self.nodes[best as usize].visits
                || (!G::TIES_TO_NEWEST && visits == self.nodes[best as usize].visits)
            {
                best = c;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        self.nodes[best as usize].action
    }

    fn add_child(&mut self, parent: u32, action: G::Action, player: u8) -> u32 {
        let id = self.nodes.len() as u32;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            player,
            first_child: NONE,
            next_sibling: first,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// Whether `node` has a child for `action`.
    fn has_child(&self, node: u32, action: G::Action) -> bool {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            if self.nodes[c as usize].action == action {
                return true;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        false
    }

    fn iterate(&mut self, game: &mut G, rng: &mut Stream) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while !game.is_over() {
            game.legal_actions(&mut self.actions);
            self.untried.clear();
            // The legal actions that have a node, by position (the first 64).
            let mut tried = 0u64;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &mut self.nodes[c as usize];
                if let Some(pos) = self.actions.iter().position(|a| *a == n.action) {
                    n.available += 1;
                    if pos < 64 {
                        tried |= 1 << pos;
                    }
                }
                c = n.next_sibling;
            }
            for (i, &a) in self.actions.iter().enumerate() {
                // Past 64 actions (rare), a walk over the children.
                let is_tried = if i < 64 {
                    tried >> i & 1 == 1
                } else {
                    self.has_child(node, a)
                };
                if !is_tried {
                    self.untried.push(a);
                }
            }
            let player = game.turn();
            if !self.untried.is_empty() {
                let a = self.untried[uniform_below(rng, self.untried.len())];
                let child = self.add_child(node, a, player);
                game.apply_legal(a, rng);
                self.path.push(child);
                break;
            }
            // Every legal action has a node: UCB1 over the available ones.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &self.nodes[c as usize];
                if self.actions.contains(&n.action) {
                    let v = n.visits.max(1) as f64;
                    let score =
                        n.reward / v + EXPLORATION * ((n.available.max(1) as f64).ln() / v).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = n.next_sibling;
            }
            let a = self.nodes[best as usize].action;
            game.apply_legal(a, rng);
            node = best;
            self.path.push(node);
        }
        // Play-out.
        while !game.is_over() {
            let a = game.playout_action();
            game.apply_legal(a, rng);
        }
        let r = game.rewards();
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += r[node.player as usize % MAX_SEATS];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_stream;

    /// One decision among `N` actions by seat 0, then the game is over: seat 0's reward is
    /// `PAYS[a]` for action `a` (seat 1 gets the rest). Root ties go to the newest when `NEWEST`.
    #[derive(Clone)]
    struct Toy<const NEWEST: bool> {
        chosen: Option<u8>,
    }

    const PAYS: [f64; 4] = [0.2, 0.9, 0.5, 0.2];

    impl<const NEWEST: bool> SearchGame for Toy<NEWEST> {
        type Action = u8;
        type View<'a> = ();
        const NO_ACTION: u8 = u8::MAX;
        const TIES_TO_NEWEST: bool = NEWEST;
        fn seat(_: &()) -> u8 {
            0
        }
        fn determinize(_: &(), _: &mut Stream) -> Self {
            Toy { chosen: None }
        }
        fn is_over(&self) -> bool {
            self.chosen.is_some()
        }
        fn turn(&self) -> u8 {
            0
        }
        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..PAYS.len() as u8);
        }
        fn apply_legal(&mut self, action: u8, _: &mut Stream) {
            self.chosen = Some(action);
        }
        fn playout_action(&self) -> u8 {
            unreachable!("the game is over after one action")
        }
        fn rewards(&self) -> [f64; MAX_SEATS] {
            let mut r = [0.0; MAX_SEATS];
            r[0] = PAYS[self.chosen.unwrap() as usize];
            r[1] = 1.0 - r[0];
            r
        }
    }

    /// With enough iterations the search takes the action that pays its player most.
    #[test]
    fn finds_the_best_action() {
        for seed in 0..10 {
            let mut s = Search::<Toy<true>>::new(200);
            assert_eq!(s.choose(&(), &mut base_stream(seed)), 1, "seed {seed}");
        }
    }

    /// With one iteration per action every root child is visited once: the tie goes to the
    /// action added last or first, as the game says. The order of adding is the search's draws
    /// among the untried actions, replayed here.
    #[test]
    fn root_ties_follow_the_game_rule() {
        for seed in 0..20 {
            let mut untried: Vec<u8> = (0..PAYS.len() as u8).collect();
            let mut rng = base_stream(seed);
            let mut added = Vec::new();
            while !untried.is_empty() {
                added.push(untried.remove(uniform_below(&mut rng, untried.len())));
            }
            let n = PAYS.len() as u32;
            let newest = Search::<Toy<true>>::new(n).choose(&(), &mut base_stream(seed));
            let oldest = Search::<Toy<false>>::new(n).choose(&(), &mut base_stream(seed));
            assert_eq!(
                (newest, oldest),
                (added[added.len() - 1], added[0]),
                "seed {seed}"
            );
        }
    }
}
