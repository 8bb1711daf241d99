//! Ocho loco under the «Montañita» rules (`docs/rules.md` §5): every special card (A plays
//! again, 2 skips, 3 and joker stack draw-three, 8 names a suit, J and K reverse), «voy por
//! una», one or two decks, 2–10 players, every open point a house rule; bots from random to
//! ISMCTS. Whole games, comparisons, tournaments and house rules come from the shared
//! [`crate::play`] layer; [`value`] prices each special card and [`deal`] gives the exact odds
//! of the deal.
//!
//! The game's event is **going out first** (the text: «gana quien lo hace primero»); play goes
//! on until one player holds cards, and the whole finishing order, the last place included, is
//! reported next to it. A game stopped at the action cap after somebody went out still has its
//! winner; only its finishing order (and so its last place) is unknown.

pub mod bots;
pub mod cards;
pub mod deal;
pub mod engine;
pub mod position;
pub mod rules;
pub mod sheet;
pub mod value;

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::{share_p_value, SimTally};
use crate::play::{ActionOf, Game, GameInfo, Scoring, State, Words, MAX_SEATS};
use crate::report::{Report, Value};
use crate::rng::Stream;
use crate::stats::wilson95;

pub use engine::OchoState;

/// Ocho loco, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ocho;

crate::counters! {
    /// Ocho loco's own counters of a finished game.
    pub enum Counter {
        /// Cards drawn from the stock.
        CardsDrawn = "cards_drawn",
        /// Cards taken for draw-three stacks.
        StackCards = "stack_cards",
        /// Penalty cards (a forgotten «voy por una»).
        PenaltyCards = "penalty_cards",
        /// Times «voy por una» was forgotten.
        Forgotten = "forgotten",
        /// Reshuffles of the played cards into a new stock.
        Reshuffles = "reshuffles",
        /// The starter was left last.
        StarterLast = "starter_last",
        /// The dealer was left last.
        DealerLast = "dealer_last",
        /// Actions played.
        Actions = "actions",
        /// The longest draw-three stack (cards).
        LongestStack = "longest_stack",
        /// Stopped at the action cap after somebody went out.
        CappedAfterFirst = "capped_after_first",
    }
}

impl Game for Ocho {
    type Rules = rules::Rules;
    type State = OchoState;
    type Strategy = bots::Strategy;

    fn start_from(
        rules: &Self::Rules,
        text: &str,
    ) -> crate::error::Result<crate::play::position::StartFrom<Self>> {
        crate::play::position::start_from::<Self>(rules, text)
    }
    const INFO: GameInfo = GameInfo {
        key: "ocho",
        title: "Ocho loco",
        scoring: Scoring::Event { good: true },
        words: Words {
            first_player: "starter",
            positions: &["starter (dealer's right)"],
            event: "first out",
            rate: "first-out rate",
            phrase: "goes out first",
            team_phrase: "wins",
            length_unit: "turns",
            chart_axis: "games out first",
        },
        draws: false,
        move_cap: true,
        series: None,
        sitting: false,
        sample_unit: "games",
        players: (2, rules::MAX_PLAYERS, None),
        default_strategies: "greedy",
        default_tournament: "random,greedy,expert",
        counters: Counter::NAMES,
        compared: &[],
        chunk: 1024,
        slow_chunk: 4,
        tournament_chunk: (128, 1),
    };
    /// Search bots play out with the greedy bot.
    fn playout_action(
        state: &OchoState,
        _scratch: &mut Vec<ActionOf<Self>>,
        _rng: &mut Stream,
    ) -> ActionOf<Self> {
        bots::greedy_action(&state.view(state.to_act()))
    }

    /// Each seat is credited with its finishing place: 1 for going out first down to 0 for
    /// being left with cards, evenly between; in a game stopped at the action cap the seats
    /// still holding cards share the places left (their mean reward).
    fn search_rewards(_root: &OchoState, end: &OchoState) -> [f64; MAX_SEATS] {
        let n = end.rules().players as usize;
        let last = (n - 1) as f64;
        let out = end.out_so_far();
        let k = out.len();
        // The mean of the rewards of places k..n.
        let rest = (k..n).map(|p| 1.0 - p as f64 / last).sum::<f64>() / (n - k).max(1) as f64;
        let mut r = [rest; MAX_SEATS];
        for (place, s) in out.enumerate() {
            r[s % MAX_SEATS] = 1.0 - place as f64 / last;
        }
        if let Some(s) = end.last_place() {
            r[s % MAX_SEATS] = 0.0;
        }
        r
    }

    /// Among root actions visited equally often the one added last is taken (the rule Ocho's
    /// published search results were made with).
    const SEARCH_TIES_TO_NEWEST: bool = true;

    const PLACES_BY_STRATEGY: bool = true;

    /// The dealer's first-out rate against the fair share; the starter's and the dealer's
    /// last-place rates; cards drawn, draw-three stacks, «voy por una» forgotten and what it
    /// cost, reshuffles, actions.
    fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
        let n = rules.players as usize;
        let decided = t.decided();
        let fair = if t.games == 0 {
            0.0
        } else {
            decided as f64 / t.games as f64 / n as f64
        };
        let dealer = t.positions.get(n - 1).map_or(0, |p| p.sum.max(0) as u64);
        edge_fields(
            r,
            ("dealer", "dealer goes out first"),
            dealer,
            t,
            (fair, n),
            true,
        );
        edge_fields(
            r,
            ("starter_last", "starter is left with cards (last)"),
            t.counter(Counter::StarterLast).max(0) as u64,
            t,
            (fair, n),
            false,
        );
        edge_fields(
            r,
            ("dealer_last", "dealer is left with cards (last)"),
            t.counter(Counter::DealerLast).max(0) as u64,
            t,
            (fair, n),
            false,
        );
        let per_game = |r: &mut Report, key: &str, label: &str, k: Counter, decimals: usize| {
            let m = t
                .counters
                .get(k as usize)
                .copied()
                .unwrap_or_default()
                .estimate(t.games);
            let ci = m.interval(0.95);
            r.field(key, label, Value::Num(m.mean, decimals));
            r.field(
                &format!("{key}_ci95"),
                "95 % interval",
                Value::NumInterval(ci.low, ci.high, decimals),
            );
        };
        per_game(
            r,
            "cards_drawn",
            "cards drawn per game",
            Counter::CardsDrawn,
            2,
        );
        per_game(
            r,
            "stack_cards",
            "of them taking draw-threes",
            Counter::StackCards,
            2,
        );
        per_game(
            r,
            "longest_stack",
            "longest draw-three per game (cards)",
            Counter::LongestStack,
            2,
        );
        per_game(
            r,
            "forgotten",
            "«voy por una» forgotten per game",
            Counter::Forgotten,
            4,
        );
        per_game(
            r,
            "penalty_cards",
            "cards drawn for it («tres, por cojudo»)",
            Counter::PenaltyCards,
            4,
        );
        per_game(
            r,
            "reshuffles",
            "reshuffles per game",
            Counter::Reshuffles,
            3,
        );
        per_game(r, "actions", "actions per game", Counter::Actions, 1);
        r.field(
            "capped_after_first",
            "games stopped at the cap after the first went out",
            Value::Int(t.counter(Counter::CappedAfterFirst)),
        );
    }
}

/// A seat's rate of an event (going out first, or being left last) against the fair share
/// (the finished games split evenly between the players), with its test and edge in points
/// (positive: an advantage).
fn edge_fields(
    r: &mut Report,
    (key, label): (&str, &str),
    hits: u64,
    t: &SimTally,
    (fair, players): (f64, usize),
    good: bool,
) {
    let (rate, ci) = wilson95(hits, t.games);
    let p = share_p_value(hits, t.decided(), players);
    let who = if key.starts_with("dealer") {
        "the dealer"
    } else {
        "the starter"
    };
    r.field_plain(
        &format!("{key}_rate"),
        label,
        Value::Prob(rate.estimate()),
        humanize::edge_reading(rate.estimate(), fair, p, who, good),
    );
    r.field(
        &format!("{key}_ci95"),
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    r.field(
        &format!("{key}_p_value"),
        "p-value against the fair share",
        Value::PValue(p),
    );
    let edge = if good {
        rate.estimate() - fair
    } else {
        fair - rate.estimate()
    };
    r.field(
        &format!("{key}_edge"),
        &format!(
            "{who}'s edge {} (points better than fair)",
            if good {
                "in going out first"
            } else {
                "in not being left last"
            }
        ),
        Value::RateDiff(edge),
    );
}
