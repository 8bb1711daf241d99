//! Dudo, the Chilean liar's dice, under the Chimbo 9 and Caleuchano rule sets
//! (`docs/rules.md` §1).
//!
//! - [`face`], [`bid`]: faces and bids as players say them.
//! - [`rules`]: both rule sets as parameters: counting and legal raises ([`Bidding`]), and a
//!   whole game's rules with its one rule table ([`Rules`]).
//! - [`exact`]: the exact probability that a bid is true, for any table size.
//! - [`montecarlo`]: the same question by rolling real dice on the shared runner.
//! - [`prob`], [`table`], [`advise`]: the reports behind `tahur dudo prob|table|advise`.
//! - [`engine`], [`bots`]: whole games ([`DudoState`]: both rule sets, every flag) and the
//!   strategies, a search bot among them; whole games, comparisons, tournaments and house rules
//!   come from the shared [`crate::play`] layer.
//! - [`tune`], [`paso`]: the tuned thresholds and the odds of a doubted pass.
//! - [`position`]: positions as players write them, for `position` and `advise --position`.
//! - [`duel`]: the two-player round solved by CFR+ (`tahur dudo duel`), with its cheat sheet.

pub mod advise;
pub mod bid;
pub mod bots;
pub mod duel;
pub mod engine;
pub mod exact;
pub mod face;
pub mod montecarlo;
pub mod paso;
pub mod position;
pub mod prob;
pub mod rules;
pub mod sheets;
pub mod table;
pub mod tune;

pub use bid::Bid;
pub use engine::DudoState;
pub use exact::{BidOdds, CountDistribution, Situation};
pub use face::Face;
pub use rules::{AceRound, Bidding, Counting, RuleSet, Rules};

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::SimTally;
use crate::play::{ActionOf, Game, GameInfo, Scoring, State, Words, MAX_SEATS};
use crate::report::{Report, Value};
use crate::rng::{SeedableRng, Stream};

crate::counters! {
    /// Dudo's own counters of a finished game.
    pub enum Counter {
        /// Bids made (openings and raises).
        Bids = "bids",
        /// Bids doubted (not passes).
        Doubts = "doubts",
        /// Doubts that won (the bid was false).
        DoubtsWon = "doubts_won",
        /// Passes made.
        Passes = "passes",
        /// Passes doubted.
        PassDoubts = "pass_doubts",
        /// Doubted passes that failed (the doubter won).
        PassDoubtsWon = "pass_doubts_won",
        /// Bids reinforced (mandada reforzada).
        Reinforcements = "reinforcements",
        /// Obligado rounds.
        ObligadoRounds = "obligado_rounds",
        /// Rounds whose opener lost the challenge.
        OpenerLost = "opener_lost",
        /// Lives given back by revivir.
        Revived = "revived",
    }
}

/// Dudo, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dudo;

impl Game for Dudo {
    type Rules = Rules;
    type State = DudoState;
    type Strategy = bots::Strategy;

    fn start_from(
        rules: &Self::Rules,
        text: &str,
    ) -> crate::error::Result<crate::play::position::StartFrom<Self>> {
        crate::play::position::start_from::<Self>(rules, text)
    }
    const INFO: GameInfo = GameInfo {
        key: "dudo",
        title: "Dudo",
        scoring: Scoring::Event { good: true },
        words: Words {
            first_player: "first opener",
            positions: &["first opener"],
            event: "wins",
            rate: "win rate",
            phrase: "wins",
            team_phrase: "wins",
            length_unit: "rounds",
            chart_axis: "games won",
        },
        draws: false,
        move_cap: false,
        series: None,
        sitting: false,
        sample_unit: "games",
        players: (2, rules::MAX_PLAYERS, None),
        default_strategies: "threshold",
        default_tournament: "random,honest,threshold,tuned",
        counters: Counter::NAMES,
        compared: &[],
        chunk: 256,
        slow_chunk: 8,
        tournament_chunk: (32, 1),
    };

    /// Bids per round, how often doubts win, passes, reinforcements, obligado rounds and how
    /// often a round's opener loses it.
    fn sim_fields(rules: &Rules, t: &SimTally, r: &mut Report) {
        let c = |k: Counter| t.counter(k).max(0) as u64;
        let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        let rounds = t.length.sum.max(0) as u64;
        r.field(
            "bids_per_round",
            "bids per round",
            Value::Num(per(c(Counter::Bids), rounds), 2),
        );
        let doubt = per(c(Counter::DoubtsWon), c(Counter::Doubts));
        r.field_plain(
            "doubt_success",
            "doubts that won",
            Value::Prob(doubt),
            humanize::odds(doubt),
        );
        if rules.paso {
            r.field(
                "passes_per_game",
                "passes per game",
                Value::Num(per(c(Counter::Passes), t.games), 2),
            );
            r.field(
                "pass_doubt_success",
                "doubted passes that failed",
                Value::Prob(per(c(Counter::PassDoubtsWon), c(Counter::PassDoubts))),
            );
        }
        if rules.reforzada {
            r.field(
                "reinforcements_per_game",
                "reinforced bids per game",
                Value::Num(per(c(Counter::Reinforcements), t.games), 2),
            );
        }
        if rules.obligado {
            r.field(
                "obligado_rounds",
                "obligado rounds",
                Value::Prob(per(c(Counter::ObligadoRounds), rounds)),
            );
        }
        r.field(
            "round_opener_lost",
            "rounds lost by their opener",
            Value::Prob(per(c(Counter::OpenerLost), rounds)),
        );
        if rules.revivir {
            r.field(
                "revived_per_game",
                "lives given back by revivir per game",
                Value::Num(per(c(Counter::Revived), t.games), 3),
            );
        }
    }

    /// The quick policy of search bots: the default `threshold` decision for every seat
    /// ([`bots::playout_action`]: it reads the shared odds tables, so a play-out allocates
    /// nothing).
    #[inline]
    fn playout_action(
        state: &DudoState,
        _scratch: &mut Vec<ActionOf<Self>>,
        rng: &mut Stream,
    ) -> ActionOf<Self> {
        bots::playout_action(&state.view(state.to_act()), rng)
    }

    /// A search iteration ends as soon as the searching player has acted: the tree holds its
    /// own choices only. A Dudo turn offers up to hundreds of bids, so replies expanded at
    /// random below each choice would judge it by absurd bids; the round's play-out in
    /// [`Game::search_rewards`] judges it instead.
    fn search_ends(root: &DudoState, now: &DudoState) -> bool {
        now.is_over() || now.actions_taken() != root.actions_taken()
    }

    /// Plays the round out from the searching player's choice with the play-out policy
    /// ([`Game::playout_action`]) and gives each seat 1 unless it lost a life in the round, 0 if
    /// it did. The play-out draws from a stream seeded by the dice dealt for the iteration
    /// (rewards take no stream of their own), so it is as random as the deal and the same for
    /// the same game.
    fn search_rewards(root: &DudoState, end: &DudoState) -> [f64; MAX_SEATS] {
        let mut game = end.clone();
        let mut rng = Stream::seed_from_u64(game.dice_seed());
        let mut scratch = Vec::new();
        while !game.is_over() && game.length() == root.length() {
            let a = Self::playout_action(&game, &mut scratch, &mut rng);
            if game.apply(a, &mut rng).is_err() {
                unreachable!("the play-out policy plays legal actions");
            }
        }
        let mut r = [0.5; MAX_SEATS];
        for (s, x) in r.iter_mut().enumerate().take(root.rules().players as usize) {
            *x = if game.lives(s) < root.lives(s) {
                0.0
            } else {
                1.0
            };
        }
        r
    }
}
