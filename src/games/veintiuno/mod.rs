//! 21 ecuatoriano (`docs/rules.md` §2): a rotating bank, a 40-card shoe dealt through
//! without reshuffling, and the specials (12 counts 20, suited 12 counts 21, moñona, 13 to
//! withdraw, relancina, trillona, 21 in two cards that steals the bank), splitting by doubling
//! the bet, tapo y quedo, mandar al puje. `compare`, `flags` and `tournament` come from the
//! shared [`crate::play`] layer, which plays 21 in sittings ([`VeintiunoState`]), with the
//! policies and a search bot ([`bots`]).

pub mod advise;
pub mod bankroll;
pub mod bots;
pub mod cards;
pub mod engine;
pub mod exact;
pub mod rules;
pub mod sim;
pub mod sitting;
pub mod solve;
pub mod strategy;

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::play::{ActionOf, Compared, Game, GameInfo, Scoring, State, Words, MAX_SEATS};
use crate::rng::Stream;

pub use sitting::VeintiunoState;

crate::counters! {
    /// 21's own counters of a sitting.
    pub enum Counter {
        /// The bank's net over the sitting, whoever held it.
        BankNet = "bank_net",
        /// Times the bank changed hands (a 21 in two cards stole it).
        Steals = "steals",
    }
}

/// 21 ecuatoriano, for the whole-game layer (played in sittings: [`VeintiunoState`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Veintiuno;

/// The policy a search plays its hands out with.
static PLAYOUT: LazyLock<engine::PlayerPolicy> = LazyLock::new(engine::PlayerPolicy::basic);

/// The net of one hand, in the bank's maximum bets, at which a search's reward reaches 0 or 1 (a
/// loss or a win of this many; beyond, the reward stays there): the bets of a hand split twice.
pub const REWARD_UNITS: f64 = 5.0;

impl Game for Veintiuno {
    type Rules = sitting::TableRules;
    type State = VeintiunoState;
    type Strategy = bots::Strategy;
    const INFO: GameInfo = GameInfo {
        key: "veintiuno",
        title: "21 ecuatoriano",
        scoring: Scoring::Points,
        words: Words {
            first_player: "first bank",
            positions: &["first bank", "pie de banco"],
            event: "net",
            rate: "EV per hand",
            phrase: "as player",
            team_phrase: "",
            length_unit: "hands",
            chart_axis: "net per hand",
        },
        draws: false,
        move_cap: false,
        series: None,
        sitting: true,
        sample_unit: "hands",
        players: (2, engine::MAX_SEATS, None),
        default_strategies: "basic",
        default_tournament: "basic,sheet,mimic:17",
        counters: Counter::NAMES,
        compared: &[
            Compared {
                counter: Counter::BankNet as usize,
                label: "bank's result",
            },
            Compared {
                counter: Counter::Steals as usize,
                label: "bank changes hands",
            },
        ],
        chunk: sim::HANDS_CHUNK,
        slow_chunk: sim::HANDS_CHUNK,
        tournament_chunk: (sim::HANDS_CHUNK, sim::HANDS_CHUNK),
    };

    /// Search bots play their hands out with `basic`.
    fn playout_action(
        state: &VeintiunoState,
        _scratch: &mut Vec<ActionOf<Self>>,
        _rng: &mut Stream,
    ) -> ActionOf<Self> {
        PLAYOUT.decide(state.view(state.to_act()).decision())
    }

    /// A search of one decision ends with the hand: once the hand that was in progress at the
    /// root is settled.
    fn search_ends(root: &VeintiunoState, now: &VeintiunoState) -> bool {
        now.played() != root.played()
    }

    /// Each seat's net in that hand (the bank's seat: the bank's), from a loss of
    /// [`REWARD_UNITS`] times the bank's maximum bet or more (0) to a win of as much (1).
    fn search_rewards(root: &VeintiunoState, end: &VeintiunoState) -> [f64; MAX_SEATS] {
        let net = end.net_since(root);
        // In units of the most a player may bet (a raise must not saturate the reward).
        let units = REWARD_UNITS * crate::play::State::rules(root).options.bet_max as f64;
        let mut r = [0.5; MAX_SEATS];
        for (v, &n) in r.iter_mut().zip(&net) {
            *v = (0.5 + n as f64 / (2.0 * units)).clamp(0.0, 1.0);
        }
        r
    }
}
