//! Durak (`docs/rules.md` §3): podkidnoy, perevodnoy and platkowy for 2–6 players (7 and
//! 8 with 52 cards), teams and every house rule as a parameter; bots from random to ISMCTS.
//! Whole games, comparisons, tournaments and house rules come from the shared [`crate::play`] layer.

pub mod bots;
pub mod cards;
pub mod engine;
pub mod position;
pub mod redeal;
pub mod rules;
pub mod sheet;

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::SimTally;
use crate::play::{ActionOf, Game, GameInfo, Scoring, SeriesInfo, State, Words};
use crate::report::{Report, Value};
use crate::rng::Stream;
use crate::stats::{wilson95, Proportion};

pub use engine::DurakState;

crate::counters! {
    /// Durak's own counters of a finished game.
    pub enum Counter {
        /// The durak got epaulettes: took in the last bout, whose last attack card was a six.
        Epaulettes = "epaulettes",
        /// Epaulettes on both shoulders: two or more sixes in that attack.
        BothShoulders = "both_shoulders",
        /// Deals thrown back under the re-deal rule before the game's deal.
        Redeals = "redeals",
    }
}

/// Durak, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Durak;

impl Game for Durak {
    type Rules = rules::Rules;
    type State = DurakState;
    type Strategy = bots::Strategy;

    fn start_from(
        rules: &Self::Rules,
        text: &str,
    ) -> crate::error::Result<crate::play::position::StartFrom<Self>> {
        crate::play::position::start_from::<Self>(rules, text)
    }
    const INFO: GameInfo = GameInfo {
        key: "durak",
        title: "Durak",
        scoring: Scoring::Event { good: false },
        words: Words {
            first_player: "first attacker",
            positions: &["first attacker", "first defender"],
            event: "durak",
            rate: "durak rate",
            phrase: "is the durak",
            team_phrase: "loses",
            length_unit: "bouts",
            chart_axis: "games lost (durak)",
        },
        draws: true,
        move_cap: true,
        series: Some(SeriesInfo {
            repeat: "the dealer (previous durak) loses again",
            who: "the dealer",
        }),
        sitting: false,
        sample_unit: "games",
        players: (2, rules::MAX_PLAYERS, None),
        default_strategies: "greedy",
        default_tournament: "random,greedy,expert",
        counters: Counter::NAMES,
        compared: &[],
        chunk: 1024,
        slow_chunk: 8,
        tournament_chunk: (128, 1),
    };

    /// Durak with epaulettes: the durak took in the last bout and its last attack card was a six
    /// (both shoulders: two or more sixes in that attack); re-deals: the share of deals thrown
    /// back with its interval, next to the exact chance for these rules, and deals per game.
    fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
        let (ep, ci) = wilson95(t.counter(Counter::Epaulettes).max(0) as u64, t.games);
        r.field_plain(
            "epaulettes_rate",
            "durak with epaulettes",
            Value::Prob(ep.estimate()),
            humanize::plain_rate(&ep),
        );
        r.field(
            "epaulettes_ci95",
            "95 % interval",
            Value::ProbInterval(ci.low, ci.high),
        );
        r.field(
            "epaulettes",
            "games with epaulettes",
            Value::Int(t.counter(Counter::Epaulettes)),
        );
        let both = Proportion::new(
            (t.counter(Counter::BothShoulders).max(0) as u64).min(t.games),
            t.games,
        );
        r.field_plain(
            "both_shoulders_rate",
            "epaulettes on both shoulders",
            Value::Prob(both.estimate()),
            humanize::plain_rate(&both),
        );
        redeal_fields(rules, t, r);
    }

    /// Search bots play out with the greedy bot (a draw or a capped game counts ½, as the
    /// default rewards say; among root actions visited equally often the one added first wins,
    /// the rule Durak's published search results were made with).
    fn playout_action(
        state: &DurakState,
        _scratch: &mut Vec<ActionOf<Self>>,
        _rng: &mut Stream,
    ) -> ActionOf<Self> {
        bots::greedy_action(&state.view(state.to_act()))
    }

    fn tournament_note(rules: &rules::Rules) -> Option<String> {
        (rules.teams == rules::Teams::TwoByTwoByTwo).then(|| {
            "With 2x2x2 teams every team holds one seat of each side, so both sides lose equally often by construction.".to_string()
        })
    }
}

/// The re-deal figures of a `sim` report. Each deal is thrown back independently with the same
/// chance p, so of the games' `redeals + games` deals, `redeals` were thrown back: the rate is
/// p̂ = redeals / (redeals + games) with its Wilson interval over the deals (a game's deals stop
/// at its first good one, but the likelihood, and so p̂'s standard error √(p(1 − p)/deals), is
/// that of a fixed number of deals to first order). Next to it the exact p
/// ([`redeal::for_rules`]), the distance in standard errors, and deals per game (exact
/// 1 / (1 − p)).
fn redeal_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
    let redeals = t.counter(Counter::Redeals).max(0) as u64;
    let Some(exact) = redeal::for_rules(rules) else {
        let why = if rules.redeal {
            "cannot happen: only hands of 5 cards or more are re-dealt"
        } else {
            "off: every deal is played as dealt"
        };
        r.field_plain(
            "redeal_rate",
            "re-deals per deal",
            Value::Empty,
            why.to_string(),
        );
        return;
    };
    let deals = redeals + t.games;
    let (rate, ci) = wilson95(redeals, deals);
    r.field_plain(
        "redeal_rate",
        "re-deals per deal",
        Value::Prob(rate.estimate()),
        if redeals == 0 || redeals == deals {
            humanize::plain_rate_of(&rate, "deals")
        } else {
            format!("{} deals thrown back", humanize::odds(rate.estimate()))
        },
    );
    r.field(
        "redeal_ci95",
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    r.field_plain(
        "redeal_exact",
        "re-deals per deal, exact",
        Value::Prob(exact),
        format!(
            "{}; {} players, {} cards each from {}",
            humanize::odds(exact),
            rules.players,
            rules.hand,
            rules.deck
        ),
    );
    if t.games > 0 {
        r.field(
            "redeal_deviation_se",
            "distance from exact (SE)",
            Value::Num(rate.z_score_against(exact), 2),
        );
    }
    r.field("redeals", "deals thrown back", Value::Int(redeals as i64));
    let per_game = if t.games == 0 {
        0.0
    } else {
        deals as f64 / t.games as f64
    };
    r.field_plain(
        "deals_per_game",
        "deals per game",
        Value::Num(per_game, 4),
        format!("exact {:.4}", 1.0 / (1.0 - exact)),
    );
}
