//! Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).
//!
//! Every iteration deals the cards the searching player cannot see at random
//! ([`View::determinize`]), walks the tree choosing among the actions legal in that deal by UCB1
//! with availability counts, adds one node, plays the game out with the greedy bot and credits
//! each node with the result of the player who chose it (1 for not being the durak, ½ for a
//! draw or a capped game). The decision is the root action visited most. The node arena is
//! reused from decision to decision.

use super::bots::greedy_action;
use super::engine::{Action, Game, Outcome, View};
use crate::rng::{uniform_below, Stream};

const NONE: u32 = u32::MAX;
/// UCB1 exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;

#[derive(Clone, Copy, Debug)]
struct Node {
    action: Action,
    /// The player who chose `action`.
    player: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

/// A reusable search with a fixed budget of iterations per decision.
pub struct Search {
    budget: u32,
    nodes: Vec<Node>,
    actions: Vec<Action>,
    untried: Vec<Action>,
    path: Vec<u32>,
}

/// Each seat's reward for a finished (or capped) game.
pub fn rewards(outcome: Option<Outcome>) -> [f64; 6] {
    match outcome {
        Some(Outcome::Lost { losers }) => {
            let mut r = [1.0; 6];
            for (s, v) in r.iter_mut().enumerate() {
                if losers >> s & 1 == 1 {
                    *v = 0.0;
                }
            }
            r
        }
        _ => [0.5; 6],
    }
}

impl Search {
    /// A search of `budget` iterations per decision.
    pub fn new(budget: u32) -> Search {
        Search {
            budget,
            nodes: Vec::with_capacity(budget as usize + 1),
            actions: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            path: Vec::with_capacity(128),
        }
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            if c == NONE {
                None
            } else {
                let cur = c;
                c = self.nodes[c as usize].next_sibling;
                Some(cur)
            }
        })
    }

    fn add_child(&mut self, parent: u32, action: Action, player: u8) -> u32 {
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

    /// The action to take where `view` stands.
    pub fn choose(&mut self, view: &View, rng: &mut Stream) -> Action {
        self.nodes.clear();
        self.nodes.push(Node {
            action: Action::Pass,
            player: view.seat(),
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        for _ in 0..self.budget {
            let mut game = view.determinize(rng);
            self.iterate(&mut game, rng);
        }
        let best = self
            .children(0)
            .max_by_key(|&c| (self.nodes[c as usize].visits, std::cmp::Reverse(c)))
            .expect("the root has a child after one iteration");
        self.nodes[best as usize].action
    }

    fn iterate(&mut self, game: &mut Game, rng: &mut Stream) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while game.outcome().is_none() {
            game.legal_actions(&mut self.actions);
            self.untried.clear();
            let mut tried_here = 0u64;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &mut self.nodes[c as usize];
                if let Some(pos) = self.actions.iter().position(|a| *a == n.action) {
                    n.available += 1;
                    if pos < 64 {
                        tried_here |= 1 << pos;
                    }
                }
                c = n.next_sibling;
            }
            for (i, a) in self.actions.iter().enumerate() {
                let tried = if i < 64 {
                    tried_here >> i & 1 == 1
                } else {
                    self.children(node)
                        .any(|ch| self.nodes[ch as usize].action == *a)
                };
                if !tried {
                    self.untried.push(*a);
                }
            }
            let player = game.turn();
            if !self.untried.is_empty() {
                let a = self.untried[uniform_below(rng, self.untried.len())];
                let child = self.add_child(node, a, player);
                game.apply(a).expect("expanded actions are legal");
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
            game.apply(a).expect("selected actions are legal");
            node = best;
            self.path.push(node);
        }
        // Play-out.
        while game.outcome().is_none() {
            let a = greedy_action(&game.view(game.turn()));
            game.apply(a).expect("greedy plays legal actions");
        }
        let r = rewards(game.outcome());
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += r[node.player as usize];
        }
    }
}
