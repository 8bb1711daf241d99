//! The search bot's game: Ocho loco for the shared information-set Monte Carlo tree search
//! ([`crate::play::ismcts`]). Unseen cards (the other hands and the stock) are dealt by
//! [`View::determinize`], the play-out is the greedy bot's, and a player who chose a node is
//! credited with their finishing place (1 for going out first, 0 for being left with cards,
//! evenly between; in a game stopped at the action cap the players still holding cards share
//! the places left). Among root actions visited equally often the one added last is taken (the
//! rule Ocho's published search results were made with).

use super::bots::greedy_action;
use super::engine::{Action, Game, View};
use crate::play::ismcts::{SearchGame, MAX_SEATS};
use crate::rng::Stream;

/// A reusable Ocho search with a fixed budget of iterations per decision.
pub type Search = crate::play::ismcts::Search<Game>;

/// Each seat's reward: 1 for first out down to 0 for the last; in a game stopped at the cap the
/// seats still holding cards share the places left (their mean reward).
pub fn rewards(game: &Game) -> [f64; MAX_SEATS] {
    let n = game.rules().players as usize;
    let last = (n - 1) as f64;
    let out = game.out_so_far();
    let k = out.len();
    // The mean of the rewards of places k..n.
    let rest = (k..n).map(|p| 1.0 - p as f64 / last).sum::<f64>() / (n - k).max(1) as f64;
    let mut r = [rest; MAX_SEATS];
    for (place, &s) in out.iter().enumerate() {
        r[s as usize % MAX_SEATS] = 1.0 - place as f64 / last;
    }
    if let Some(order) = game.finishing_order() {
        r[order[n - 1] as usize % MAX_SEATS] = 0.0;
    }
    r
}

impl SearchGame for Game {
    type Action = Action;
    type View<'a> = View<'a>;
    const NO_ACTION: Action = Action::Pass;
    const TIES_TO_NEWEST: bool = true;
    fn seat(view: &View<'_>) -> u8 {
        view.seat()
    }
    fn determinize(view: &View<'_>, rng: &mut Stream) -> Game {
        view.determinize(rng)
    }
    fn is_over(&self) -> bool {
        Game::is_over(self)
    }
    fn turn(&self) -> u8 {
        Game::turn(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        Game::legal_actions(self, out)
    }
    fn apply_legal(&mut self, action: Action, rng: &mut Stream) {
        self.apply(action, rng)
            .expect("the search plays legal actions");
    }
    fn playout_action(&self) -> Action {
        greedy_action(&self.view(Game::turn(self)))
    }
    fn rewards(&self) -> [f64; MAX_SEATS] {
        rewards(self)
    }
}
