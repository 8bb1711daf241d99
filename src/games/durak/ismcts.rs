//! The search bot's game: Durak for the shared information-set Monte Carlo tree search
//! ([`crate::play::ismcts`]). Unseen cards are dealt by [`View::determinize`], the play-out is
//! the greedy bot's, and a player who chose a node is credited 1 for not being the durak, ½ for
//! a draw or a capped game. Among root actions visited equally often the one added first is
//! taken (the rule Durak's published search results were made with).

use super::bots::greedy_action;
use super::engine::{Action, Game, Outcome, View};
use crate::play::ismcts::{SearchGame, MAX_SEATS};
use crate::rng::Stream;

/// A reusable Durak search with a fixed budget of iterations per decision.
pub type Search = crate::play::ismcts::Search<Game>;

/// Each seat's reward for a finished (or capped) game.
pub fn rewards(outcome: Option<Outcome>) -> [f64; MAX_SEATS] {
    match outcome {
        Some(Outcome::Lost { losers }) => {
            let mut r = [1.0; MAX_SEATS];
            for (s, v) in r.iter_mut().enumerate() {
                if u32::from(losers) >> s & 1 == 1 {
                    *v = 0.0;
                }
            }
            r
        }
        _ => [0.5; MAX_SEATS],
    }
}

impl SearchGame for Game {
    type Action = Action;
    type View<'a> = View<'a>;
    const NO_ACTION: Action = Action::Pass;
    const TIES_TO_NEWEST: bool = false;
    fn seat(view: &View<'_>) -> u8 {
        view.seat()
    }
    fn determinize(view: &View<'_>, rng: &mut Stream) -> Game {
        view.determinize(rng)
    }
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
    fn turn(&self) -> u8 {
        Game::turn(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        Game::legal_actions(self, out)
    }
    fn apply_legal(&mut self, action: Action, _rng: &mut Stream) {
        self.apply(action).expect("the search plays legal actions");
    }
    fn playout_action(&self) -> Action {
        greedy_action(&self.view(Game::turn(self)))
    }
    fn rewards(&self) -> [f64; MAX_SEATS] {
        rewards(self.outcome())
    }
}
