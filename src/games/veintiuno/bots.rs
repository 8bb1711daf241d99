//! 21's strategies for the whole-game layer: a player policy (`basic`, `pie`, `mimic[:S]`,
//! `sheet`, `sheet:FILE.json`; see [`super::sim::parse_policy`]) or the search bot
//! `ismcts[:N]` (Spanish `busqueda[:N]`): information-set Monte Carlo tree search
//! ([`crate::play::ismcts`]) over N deals of what the player cannot see per decision (default
//! 300), each played out with `basic` to the end of the hand and rewarded with that hand's net
//! ([`super::Veintiuno`]'s search hooks).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::{Move, PlayerPolicy};
use super::sitting::{SittingView, TableRules, VeintiunoState};
use crate::error::Result;
use crate::rng::Stream;
use crate::text::Spec;

/// The search of `ismcts` bots.
type Search = crate::play::ismcts::Search<super::Veintiuno>;

/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 300;

/// The strategies, for help and messages.
pub const STRATEGIES: &str = "strategies are basic, pie (basic, ending the hand on 13 as pie de banco), mimic[:S] (hit below S), sheet, sheet:FILE.json (betting the maximum on an ace or a figure face down), flat (the sheet, minimum bets), and ismcts[:N] (search, N iterations per decision), or in Spanish básica, banca[:S], hoja, hoja:FILE.json, busqueda[:N]";

/// A strategy of the whole-game commands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strategy {
    /// A player policy: a table of moves by hand and the bank's up card.
    Policy(PlayerPolicy),
    /// Information-set MCTS.
    Ismcts {
        /// Iterations per decision.
        budget: u32,
    },
}

impl Strategy {
    /// Parses a policy ([`super::sim::parse_policy`]), `ismcts`, `ismcts:N` or
    /// `ismcts:budget=N` (Spanish `busqueda`).
    pub fn parse(text: &str) -> Result<Strategy> {
        let spec = Spec::parse(text, "strategy")?;
        match spec.name.as_str() {
            "ismcts" | "mcts" | "busqueda" => {
                let budget = spec.params(&["budget"])?.count(
                    "budget",
                    1,
                    1_000_000,
                    DEFAULT_ISMCTS_BUDGET as u64,
                )? as u32;
                Ok(Strategy::Ismcts { budget })
            }
            "basic" | "basica" | "pie" | "mimic" | "banca" | "sheet" | "hoja" | "flat"
            | "plana" => super::sim::parse_policy(text).map(Strategy::Policy),
            _ => Err(spec.unknown(STRATEGIES)),
        }
    }
}

impl From<PlayerPolicy> for Strategy {
    fn from(p: PlayerPolicy) -> Strategy {
        Strategy::Policy(p)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Policy(p) => f.write_str(&p.name),
            Strategy::Ismcts { budget } => write!(f, "ismcts:{budget}"),
        }
    }
}

impl crate::play::Strategy<super::Veintiuno> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, _rules: &TableRules) -> Bot {
        match self {
            Strategy::Policy(p) => Bot {
                policy: p.clone(),
                search: None,
            },
            Strategy::Ismcts { budget } => Bot {
                policy: PlayerPolicy::basic(),
                search: Some(Box::new(Search::new(*budget))),
            },
        }
    }
    fn is_slow(&self) -> bool {
        matches!(self, Strategy::Ismcts { .. })
    }
}

/// A player: a policy, or a search (with its node arena, reused from decision to decision).
pub struct Bot {
    /// The policy (a search bot keeps `basic` here, unused).
    policy: PlayerPolicy,
    search: Option<Box<Search>>,
}

impl crate::play::Bot<super::Veintiuno> for Bot {
    /// The policy's move, or the search's. (Standing and hitting are always legal, so a search
    /// never meets a single legal move.)
    #[inline]
    fn act(&mut self, view: &SittingView<'_>, rng: &mut Stream) -> Move {
        match self.search.as_mut() {
            None => self.policy.decide(view.decision()),
            Some(search) => search.choose(view, rng),
        }
    }

    /// Every seat plays a policy: the sitting plays its decisions in one loop.
    #[inline]
    fn play_out(
        game: &mut VeintiunoState,
        bots: &mut [Bot],
        seat_bot: &[usize],
        _deal: &mut Stream,
        _decisions: &mut Stream,
    ) -> bool {
        let n = crate::play::State::rules(game).players as usize;
        if seat_bot[..n].iter().any(|&b| bots[b].search.is_some()) {
            return false;
        }
        game.play_out(|seat, d| bots[seat_bot[seat]].policy.decide(d));
        true
    }
}
