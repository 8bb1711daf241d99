//! Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012),
//! written once on the engine API: it runs on every game.
//!
//! Every iteration deals what the searching player cannot see at random
//! ([`State::deal_for_view`]), walks the tree choosing among the actions legal in that deal by
//! UCB1 with availability counts, adds one node, plays the game out with the game's quick policy
//! ([`Game::playout_action`]) until the iteration ends ([`Game::search_ends`]) and credits each
//! node with the reward of the player who chose it ([`Game::search_rewards`], in [0, 1]). The
//! decision is the root action visited most (ties as [`Game::SEARCH_TIES_TO_NEWEST`] says). The
//! node arena is reused from decision to decision.

use super::{ActionOf, Game, PlayerView, Seat, State, ViewOf};
use crate::rng::{uniform_below, Stream};

const NONE: u32 = u32::MAX;
/// UCB1 exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;

#[derive(Clone, Copy, Debug)]
struct Node<A> {
    /// The action that leads here (`None` at the root).
    action: Option<A>,
    /// The player who chose `action`.
    player: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

/// A reusable search with a fixed budget of iterations per decision.
pub struct Search<G: Game> {
    budget: u32,
    nodes: Vec<Node<ActionOf<G>>>,
    actions: Vec<ActionOf<G>>,
    untried: Vec<ActionOf<G>>,
    scratch: Vec<ActionOf<G>>,
    path: Vec<u32>,
}

impl<G: Game> Clone for Search<G> {
    /// A search with the same budget (the arena is scratch space, not state).
    fn clone(&self) -> Self {
        Search::new(self.budget)
    }
}

impl<G: Game> std::fmt::Debug for Search<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Search {{ budget: {} }}", self.budget)
    }
}

impl<G: Game> Search<G> {
    /// A search of `budget` iterations per decision.
    pub fn new(budget: u32) -> Search<G> {
        Search {
            budget,
            nodes: Vec::with_capacity(budget as usize + 1),
            actions: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            scratch: Vec::with_capacity(64),
            path: Vec::with_capacity(256),
        }
    }

    /// The iterations per decision.
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// The action to take where `view` stands (a budget of at least 1).
    pub fn choose(&mut self, view: &ViewOf<'_, G>, rng: &mut Stream) -> ActionOf<G> {
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            player: view.seat(),
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        for i in 0..self.budget {
            // After the first iteration (the root then has a child) and every 64 after it: a
            // signal stops a search of thousands of iterations within moments, and every later
            // search of the chunk after one iteration (the runner drops the chunk).
            if i & 63 == 1 && crate::signals::stop_inside() {
                break;
            }
            let root = G::State::deal_for_view(view, rng);
            let mut game = root.clone();
            self.iterate(&root, &mut game, rng);
        }
        // Children are listed newest first.
        let mut best = NONE;
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let visits = self.nodes[c as usize].visits;
            if best == NONE
                || visits > self.nodes[best as usize].visits
                || (!G::SEARCH_TIES_TO_NEWEST && visits == self.nodes[best as usize].visits)
            {
                best = c;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        self.nodes[best as usize]
            .action
            .expect("a budget of at least 1 adds a root child")
    }

    fn add_child(&mut self, parent: u32, action: ActionOf<G>, player: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action: Some(action),
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
    fn has_child(&self, node: u32, action: ActionOf<G>) -> bool {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            if self.nodes[c as usize].action == Some(action) {
                return true;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        false
    }

    /// Plays `action`, which the search took from the legal list.
    fn play(game: &mut G::State, action: ActionOf<G>, rng: &mut Stream) {
        if let Err(e) = game.apply(action, rng) {
            unreachable!("the search plays legal actions: {e}");
        }
    }

    fn iterate(&mut self, root: &G::State, game: &mut G::State, rng: &mut Stream) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while !G::search_ends(root, game) {
            game.legal_actions(&mut self.actions);
            self.untried.clear();
            // The legal actions that have a node, by position (the first 64).
            let mut tried = 0u64;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &mut self.nodes[c as usize];
                if let Some(pos) = self.actions.iter().position(|a| Some(*a) == n.action) {
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
            let player = game.to_act();
            if !self.untried.is_empty() {
                let a = self.untried[uniform_below(rng, self.untried.len())];
                let child = self.add_child(node, a, player);
                Self::play(game, a, rng);
                self.path.push(child);
                break;
            }
            // Every legal action has a node: UCB1 over the available ones.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &self.nodes[c as usize];
                if n.action.is_some_and(|a| self.actions.contains(&a)) {
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
            let a = self.nodes[best as usize]
                .action
                .expect("a child has an action");
            Self::play(game, a, rng);
            node = best;
            self.path.push(node);
        }
        // Play-out.
        while !G::search_ends(root, game) {
            let a = G::playout_action(game, &mut self.scratch, rng);
            Self::play(game, a, rng);
        }
        let r = G::search_rewards(root, game);
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += r[node.player % super::MAX_SEATS];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Result;
    use crate::play::{GameInfo, GameRules, Illegal, Outcome, Scoring, Start, Words, MAX_SEATS};
    use crate::rng::{base_stream, Rng};
    use serde::{Deserialize, Serialize};

    /// A toy game: one decision among four actions by seat 0, then it is over; seat 0 wins
    /// with the chance `PAYS[a]` of the action taken (drawn when the action is applied), seat 1
    /// otherwise. Root ties go to the newest when `NEWEST`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    struct Toy<const NEWEST: bool>;

    const PAYS: [f64; 4] = [0.2, 0.9, 0.5, 0.2];

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct ToyRules;

    impl GameRules for ToyRules {
        const TABLE: &'static [crate::play::rules::Rule<Self>] = &[];
        fn standard(_players: usize) -> ToyRules {
            ToyRules
        }
        fn players(&self) -> usize {
            2
        }
        fn validate(&self) -> Result<()> {
            Ok(())
        }
    }

    #[derive(Clone, Debug)]
    struct ToyState {
        rules: ToyRules,
        winner: Option<usize>,
    }

    #[derive(Debug)]
    struct ToyView;

    impl PlayerView for ToyView {
        fn seat(&self) -> Seat {
            0
        }
    }

    impl State for ToyState {
        type Rules = ToyRules;
        type Action = u8;
        type View<'a> = ToyView;
        fn deal(_: &ToyRules, _: &Start, _: &mut Stream) -> ToyState {
            ToyState {
                rules: ToyRules,
                winner: None,
            }
        }
        fn deal_for_view(_: &ToyView, rng: &mut Stream) -> ToyState {
            ToyState::deal(&ToyRules, &Start::default(), rng)
        }
        fn rules(&self) -> &ToyRules {
            &self.rules
        }
        fn to_act(&self) -> Seat {
            0
        }
        fn view(&self, _: Seat) -> ToyView {
            ToyView
        }
        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..PAYS.len() as u8);
        }
        fn apply(&mut self, a: u8, rng: &mut Stream) -> std::result::Result<(), Illegal> {
            let win = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= PAYS[a as usize];
            self.winner = Some(if win { 0 } else { 1 });
            Ok(())
        }
        fn outcome(&self) -> Option<Outcome> {
            self.winner.map(|w| Outcome::Event(1 << w))
        }
        fn first_player(&self) -> Seat {
            0
        }
        fn length(&self) -> u64 {
            1
        }
    }

    /// The toy needs no bots: a strategy that is never played.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct NoBot;

    impl std::fmt::Display for NoBot {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("none")
        }
    }

    impl<const NEWEST: bool> crate::play::Strategy<Toy<NEWEST>> for NoBot {
        type Bot = NoBot;
        fn parse(_: &str) -> Result<NoBot> {
            Ok(NoBot)
        }
        fn bot(&self, _: &ToyRules) -> NoBot {
            NoBot
        }
    }

    impl<const NEWEST: bool> crate::play::Bot<Toy<NEWEST>> for NoBot {
        fn act(&mut self, _: &ToyView, _: &mut Stream) -> u8 {
            0
        }
    }

    impl<const NEWEST: bool> Game for Toy<NEWEST> {
        type Rules = ToyRules;
        type State = ToyState;
        type Strategy = NoBot;
        const INFO: GameInfo = GameInfo {
            key: "toy",
            title: "Toy",
            scoring: Scoring::Event { good: true },
            words: Words {
                first_player: "",
                positions: &[],
                event: "",
                rate: "",
                phrase: "",
                team_phrase: "",
                length_unit: "",
                chart_axis: "",
            },
            draws: false,
            move_cap: false,
            series: None,
            sitting: false,
            sample_unit: "games",
            players: (2, 2, Some(2)),
            default_strategies: "",
            default_tournament: "",
            counters: &[],
            compared: &[],
            chunk: 1,
            slow_chunk: 1,
            tournament_chunk: (1, 1),
        };
        const SEARCH_TIES_TO_NEWEST: bool = NEWEST;
    }

    /// With enough iterations the search takes the action that pays its player most.
    #[test]
    fn finds_the_best_action() {
        for seed in 0..10 {
            let mut s = Search::<Toy<true>>::new(400);
            assert_eq!(s.choose(&ToyView, &mut base_stream(seed)), 1, "seed {seed}");
        }
    }

    /// With one iteration per action every root child is visited once: the tie goes to the
    /// action added last or first, as the game says. The order of adding is the search's draws
    /// among the untried actions, replayed here (each iteration draws one action, then the
    /// toy's one chance draw).
    #[test]
    fn root_ties_follow_the_game_rule() {
        for seed in 0..20 {
            let mut untried: Vec<u8> = (0..PAYS.len() as u8).collect();
            let mut rng = base_stream(seed);
            let mut added = Vec::new();
            while !untried.is_empty() {
                added.push(untried.remove(uniform_below(&mut rng, untried.len())));
                rng.next_u64();
            }
            let n = PAYS.len() as u32;
            let newest = Search::<Toy<true>>::new(n).choose(&ToyView, &mut base_stream(seed));
            let oldest = Search::<Toy<false>>::new(n).choose(&ToyView, &mut base_stream(seed));
            assert_eq!(
                (newest, oldest),
                (added[added.len() - 1], added[0]),
                "seed {seed}"
            );
        }
    }

    /// The default rewards: a good event pays its holders 1 and the others 0.
    #[test]
    fn default_rewards_follow_the_outcome() {
        let mut end = ToyState::deal(&ToyRules, &Start::default(), &mut base_stream(1));
        end.winner = Some(1);
        let r = Toy::<true>::search_rewards(&end.clone(), &end);
        assert_eq!((r[0], r[1]), (0.0, 1.0));
        assert_eq!(r.len(), MAX_SEATS);
    }
}
