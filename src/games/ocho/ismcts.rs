//! Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).
//!
//! Every iteration deals the cards the searching player cannot see at random
//! ([`View::determinize`]: the other hands and the stock), walks the tree choosing among the
//! actions legal in that deal by UCB1 with availability counts, adds one node, plays the game out
//! with the greedy bot and credits each node with the finishing place of the player who chose it
//! (1 for going out first, 0 for being left with cards, evenly between; in a game stopped at the
//! action cap the players still holding cards share the places left). The
//! decision is the root action visited most. The node arena is reused from decision to decision.

use super::bots::greedy_action;
use super::engine::{Action, Game, View};
use super::rules::MAX_PLAYERS;
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

/// Each seat's reward: 1 for first out down to 0 for the last; in a game stopped at the cap the
/// seats still holding cards share the places left (their mean reward).
pub fn rewards(game: &Game) -> [f64; MAX_PLAYERS] {
    let n = game.rules().players as usize;
    let last = (n - 1) as f64;
    let out = game.out_so_far();
    let k = out.len();
    // The mean of the rewards of places k..n.
    let rest = (k..n).map(|p| 1.0 - p as f64 / last).sum::<f64>() / (n - k).max(1) as f64;
    let mut r = [rest; MAX_PLAYERS];
    for (place, &s) in out.iter().enumerate() {
        r[s as usize] = 1.0 - place as f64 / last;
    }
    if let Some(order) = game.finishing_order() {
        r[order[n - 1] as usize] = 0.0;
    }
    r
}

impl Search {
    /// A search of `budget` iterations per decision.
    pub fn new(budget: u32) -> Search {
        Search {
            budget,
            nodes: Vec::with_capacity(budget as usize + 1),
            actions: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            path: Vec::with_capacity(256),
        }
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
        let mut best = NONE;
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            if best == NONE || self.nodes[c as usize].visits > self.nodes[best as usize].visits {
                best = c;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        self.nodes[best as usize].action
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

    fn iterate(&mut self, game: &mut Game, rng: &mut Stream) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while !game.is_over() {
            game.legal_actions(&mut self.actions);
            self.untried.clear();
            let mut tried = 0u64;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &mut self.nodes[c as usize];
                if let Some(pos) = self.actions.iter().position(|a| *a == n.action) {
                    n.available += 1;
                    tried |= 1 << pos.min(63);
                }
                c = n.next_sibling;
            }
            for (i, a) in self.actions.iter().enumerate() {
                // Hands of more than 63 actions are too rare to track exactly: treat the rest
                // as untried until a node exists (checked by a walk).
                let is_tried = if i < 63 {
                    tried >> i & 1 == 1
                } else {
                    let mut c = self.nodes[node as usize].first_child;
                    let mut found = false;
                    while c != NONE {
                        found |= self.nodes[c as usize].action == *a;
                        c = self.nodes[c as usize].next_sibling;
                    }
                    found
                };
                if !is_tried {
                    self.untried.push(*a);
                }
            }
            let player = game.turn();
            if !self.untried.is_empty() {
                let a = self.untried[uniform_below(rng, self.untried.len())];
                let child = self.add_child(node, a, player);
                game.apply(a, rng).expect("expanded actions are legal");
                self.path.push(child);
                break;
            }
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
            game.apply(a, rng).expect("selected actions are legal");
            node = best;
            self.path.push(node);
        }
        // Play-out.
        while !game.is_over() {
            let a = greedy_action(&game.view(game.turn()));
            game.apply(a, rng).expect("greedy plays legal actions");
        }
        let r = rewards(game);
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += r[node.player as usize];
        }
    }
}
