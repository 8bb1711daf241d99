//! Póker mentiroso (`docs/rules.md` §4): five poker dice passed under a cup with a claim
//! that must beat the one accepted; the receiver calls or accepts and re-rolls, each die at most
//! once per turn.
//!
//! - [`hand`]: faces, hands, the ladder of 252 claims, claims as players say them.
//! - [`exact`]: roll distributions, the optimal die-by-die re-roll plan and the best single
//!   keep, for one question.
//! - [`tables`]: the same, tabulated once per process for every goal (bots, sheets).
//! - [`reports`]: `tahur poker odds | reroll | chances | sheet`.
//! - [`position`]: positions as players write them, for `tahur poker position | advise`.
//! - [`rules`], [`engine`], [`bots`], [`tune`]: whole games (every house rule a flag), the
//!   strategies and their tuning; sim, compare, tournament and flags come from [`crate::play`].

pub mod bots;
pub mod engine;
pub mod exact;
pub mod hand;
pub mod position;
pub mod reports;
pub mod rules;
pub mod tables;
pub mod tune;

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::SimTally;
use crate::play::{ActionOf, GameInfo, Scoring, State, Words, MAX_COUNTERS, MAX_SEATS};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::stats::{wilson95, Proportion};

pub use engine::PokerState;

crate::counters! {
    /// Póker mentiroso's own counters of a finished game. The last three groups are arrays of
    /// [`rules::MAX_PLAYERS`] by position or seat: index them from [`LOST_AT`], [`SEAT_HANDS`]
    /// and [`SEAT_LOST`].
    pub enum Counter {
        /// Claims made.
        Claims = "claims",
        /// Claims made above the claimant's dice (lies).
        Lies = "lies",
        /// Claims called.
        Calls = "calls",
        /// Calls that found a lie (the claimant took the point).
        CallsWon = "calls_won",
        /// Repóker de ases accepted (the receiver took the point).
        TopReceived = "top_received",
        /// Hands lost by the hand's first roller.
        FirstLost = "first_lost",
        /// Σ over hands of [`scale`] · (first roller lost) − [`scale`] / players in the hand:
        /// the first roller's losses beyond the fair share, in [`scale`]ths of a hand.
        FirstExcessScaled = "first_excess_scaled",
        /// Hands played with every player still in.
        FullHands = "full_hands",
        /// Of those, hands lost by the hand's first roller ([`LOST_AT`] + 0) …
        LostAt0 = "lost_at_0",
        /// … 1 seats after it …
        LostAt1 = "lost_at_1",
        /// … 2 seats after it …
        LostAt2 = "lost_at_2",
        /// … 3 seats after it …
        LostAt3 = "lost_at_3",
        /// … 4 seats after it …
        LostAt4 = "lost_at_4",
        /// … 5 seats after it …
        LostAt5 = "lost_at_5",
        /// … 6 seats after it …
        LostAt6 = "lost_at_6",
        /// … 7 seats after it …
        LostAt7 = "lost_at_7",
        /// … 8 seats after it …
        LostAt8 = "lost_at_8",
        /// … 9 seats after it …
        LostAt9 = "lost_at_9",
        /// … 10 seats after it …
        LostAt10 = "lost_at_10",
        /// … 11 seats after it …
        LostAt11 = "lost_at_11",
        /// … 12 seats after it …
        LostAt12 = "lost_at_12",
        /// … 13 seats after it …
        LostAt13 = "lost_at_13",
        /// … 14 seats after it …
        LostAt14 = "lost_at_14",
        /// … 15 seats after.
        LostAt15 = "lost_at_15",
        /// Hands seat 0 took part in ([`SEAT_HANDS`] + seat) …
        SeatHands0 = "seat_hands_0",
        /// … seat 1 …
        SeatHands1 = "seat_hands_1",
        /// … seat 2 …
        SeatHands2 = "seat_hands_2",
        /// … seat 3 …
        SeatHands3 = "seat_hands_3",
        /// … seat 4 …
        SeatHands4 = "seat_hands_4",
        /// … seat 5 …
        SeatHands5 = "seat_hands_5",
        /// … seat 6 …
        SeatHands6 = "seat_hands_6",
        /// … seat 7 …
        SeatHands7 = "seat_hands_7",
        /// … seat 8 …
        SeatHands8 = "seat_hands_8",
        /// … seat 9 …
        SeatHands9 = "seat_hands_9",
        /// … seat 10 …
        SeatHands10 = "seat_hands_10",
        /// … seat 11 …
        SeatHands11 = "seat_hands_11",
        /// … seat 12 …
        SeatHands12 = "seat_hands_12",
        /// … seat 13 …
        SeatHands13 = "seat_hands_13",
        /// … seat 14 …
        SeatHands14 = "seat_hands_14",
        /// … seat 15.
        SeatHands15 = "seat_hands_15",
        /// Hands seat 0 lost ([`SEAT_LOST`] + seat) …
        SeatLost0 = "seat_lost_0",
        /// … seat 1 …
        SeatLost1 = "seat_lost_1",
        /// … seat 2 …
        SeatLost2 = "seat_lost_2",
        /// … seat 3 …
        SeatLost3 = "seat_lost_3",
        /// … seat 4 …
        SeatLost4 = "seat_lost_4",
        /// … seat 5 …
        SeatLost5 = "seat_lost_5",
        /// … seat 6 …
        SeatLost6 = "seat_lost_6",
        /// … seat 7 …
        SeatLost7 = "seat_lost_7",
        /// … seat 8 …
        SeatLost8 = "seat_lost_8",
        /// … seat 9 …
        SeatLost9 = "seat_lost_9",
        /// … seat 10 …
        SeatLost10 = "seat_lost_10",
        /// … seat 11 …
        SeatLost11 = "seat_lost_11",
        /// … seat 12 …
        SeatLost12 = "seat_lost_12",
        /// … seat 13 …
        SeatLost13 = "seat_lost_13",
        /// … seat 14 …
        SeatLost14 = "seat_lost_14",
        /// … seat 15.
        SeatLost15 = "seat_lost_15",
    }
}

/// The counter of hands (with every player in) lost `k` seats after the hand's first roller is
/// `LOST_AT + k`, k = 0 … 15.
pub const LOST_AT: usize = Counter::LostAt0 as usize;
/// The counter of hands seat `s` took part in is `SEAT_HANDS + s`.
pub const SEAT_HANDS: usize = Counter::SeatHands0 as usize;
/// The counter of hands seat `s` lost is `SEAT_LOST + s`.
pub const SEAT_LOST: usize = Counter::SeatLost0 as usize;
/// The scale of [`Counter::FirstExcessScaled`] at a table of `players`: the least common
/// multiple of 1 to `players` (at least of 1 to 8: 840, the scale of every table up to 8), so
/// that each hand's fair share, 1 / players in, is a whole number of it.
pub fn scale(players: u8) -> i64 {
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    (1..=i64::from(players.max(8))).fold(1, |l, k| l / gcd(l, k) * k)
}

const _: () = assert!(
    Counter::NAMES.len() <= MAX_COUNTERS
        && LOST_AT + rules::MAX_PLAYERS == SEAT_HANDS
        && SEAT_HANDS + rules::MAX_PLAYERS == SEAT_LOST
        && SEAT_LOST + rules::MAX_PLAYERS == Counter::NAMES.len()
);

/// Póker mentiroso, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poker;

impl crate::play::Game for Poker {
    type Rules = rules::Rules;
    type State = PokerState;
    type Strategy = bots::Strategy;

    fn start_from(
        rules: &Self::Rules,
        text: &str,
    ) -> crate::error::Result<crate::play::position::StartFrom<Self>> {
        crate::play::position::start_from::<Self>(rules, text)
    }
    const INFO: GameInfo = GameInfo {
        key: "poker",
        title: "Póker mentiroso",
        scoring: Scoring::Event { good: true },
        words: Words {
            first_player: "first roller",
            positions: &["first roller"],
            event: "wins",
            rate: "win rate",
            phrase: "wins",
            team_phrase: "wins",
            length_unit: "hands",
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
        chunk: 512,
        slow_chunk: 8,
        tournament_chunk: (64, 2),
    };

    /// Search bots play out with `tuned` players.
    fn playout_action(
        state: &PokerState,
        _scratch: &mut Vec<ActionOf<Self>>,
        _rng: &mut Stream,
    ) -> ActionOf<Self> {
        bots::playout_action(state)
    }

    /// A search iteration ends with the hand (or the game): the point is what a hand is
    /// played for.
    fn search_ends(root: &PokerState, now: &PokerState) -> bool {
        now.hands() != root.hands() || now.is_over()
    }

    /// The hand's loser (the seat that took the point) 0, everybody else 1.
    fn search_rewards(root: &PokerState, end: &PokerState) -> [f64; MAX_SEATS] {
        let mut r = [1.0; MAX_SEATS];
        for (s, v) in r.iter_mut().enumerate().take(root.rules().players as usize) {
            if end.points(s) > root.points(s) {
                *v = 0.0;
            }
        }
        r
    }

    /// Claims per hand, how often claims are lies and calls succeed, repóker de ases accepted,
    /// the hand's first roller's loss rate against the fair share (with a test over games), and
    /// the loss rate by position after the first roller in hands with every player in.
    fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
        let c = |k: usize| t.counter(k).max(0) as u64;
        let hands = t.length.sum.max(0) as u64;
        let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        r.field(
            "claims_per_hand",
            "claims per hand",
            Value::Num(per(c(Counter::Claims as usize), hands), 2),
        );
        let lies = Proportion::new(c(Counter::Lies as usize), c(Counter::Claims as usize));
        r.field_plain(
            "lie_rate",
            "claims that were lies",
            Value::Prob(lies.estimate()),
            humanize::plain_rate_of(&lies, "claims"),
        );
        let calls = Proportion::new(c(Counter::CallsWon as usize), c(Counter::Calls as usize));
        r.field_plain(
            "call_success",
            "calls that found a lie",
            Value::Prob(calls.estimate()),
            humanize::plain_rate_of(&calls, "calls"),
        );
        r.field(
            "calls_per_hand",
            "hands ended by a call",
            Value::Prob(per(c(Counter::Calls as usize), hands)),
        );
        r.field(
            "top_accepted_per_hand",
            "hands ended by accepting repóker de ases",
            Value::Prob(per(c(Counter::TopReceived as usize), hands)),
        );
        // The hand's first roller: losses against the fair share of each hand (1 / players in).
        let scale = scale(rules.players);
        let first = Proportion::new(c(Counter::FirstLost as usize), hands);
        let excess = t
            .counters
            .get(Counter::FirstExcessScaled as usize)
            .copied()
            .unwrap_or_default();
        let fair = if hands == 0 {
            0.0
        } else {
            (scale as f64 * c(Counter::FirstLost as usize) as f64 - excess.sum as f64)
                / scale as f64
                / hands as f64
        };
        let per_game = excess.estimate(t.games);
        let p = per_game.p_value_against_zero();
        let (_, ci) = wilson95(first.successes, first.trials);
        r.field_plain(
            "hand_first_loss_rate",
            "hands lost by the hand's first roller",
            Value::Prob(first.estimate()),
            humanize::edge_reading(first.estimate(), fair, p, "the hand's first roller", false),
        );
        r.field(
            "hand_first_loss_ci95",
            "95 % interval (hands as trials)",
            Value::ProbInterval(ci.low, ci.high),
        );
        r.field(
            "hand_first_fair_share",
            "fair share (1 / players in, over the hands)",
            Value::Prob(fair),
        );
        r.field(
            "hand_first_p_value",
            "p-value against the fair share (over games)",
            Value::PValue(p),
        );
        // By position, hands with every player in.
        let full = c(Counter::FullHands as usize);
        let n = rules.players as usize;
        let mut table = Table::new(
            "hand_positions",
            "Hands lost by position after the hand's first roller (every player in)",
            &[
                ("position", "position"),
                ("hands", "hands"),
                ("lost", "lost"),
                ("rate", "loss rate"),
                ("ci95", "95 % interval"),
                ("fair_share", "fair share"),
            ],
        );
        for k in 0..n {
            let lost = c(LOST_AT + k);
            let (rate, ci) = wilson95(lost, full);
            let name = match k {
                0 => "first roller".to_string(),
                1 => "first receiver".to_string(),
                k => format!("{k} seats after the first roller"),
            };
            table.push(vec![
                Value::Label(name, format!("position_{k}")),
                Value::Int(full as i64),
                Value::Int(lost as i64),
                Value::Prob(rate.estimate()),
                Value::ProbInterval(ci.low, ci.high),
                Value::Prob(1.0 / n as f64),
            ]);
        }
        if full > 0 {
            let counts: Vec<u64> = (0..n).map(|k| c(LOST_AT + k)).collect();
            let (_, p) = crate::stats::chi_square(&counts, &vec![1.0 / n as f64; n]);
            r.field(
                "hand_position_p_value",
                "p-value that every position loses equally often (χ², hands as trials)",
                Value::PValue(p),
            );
        }
        r.tables.push(table);
        // By seat, every hand the seat took part in: the seats meet the same mix of table
        // sizes, so their rates compare with each other and with the table's average.
        let (played, lost): (Vec<u64>, Vec<u64>) = (0..n)
            .map(|s| (c(SEAT_HANDS + s), c(SEAT_LOST + s)))
            .unzip();
        let average = per(lost.iter().sum(), played.iter().sum());
        let mut seats = Table::new(
            "hand_seats",
            "Hands lost by seat (of the hands each seat took part in)",
            &[
                ("seat", "seat"),
                ("hands", "hands"),
                ("lost", "lost"),
                ("rate", "loss rate"),
                ("ci95", "95 % interval"),
                ("table_average", "table average"),
            ],
        );
        for s in 0..n {
            let (rate, ci) = wilson95(lost[s], played[s]);
            seats.push(vec![
                Value::Int(s as i64 + 1),
                Value::Int(played[s] as i64),
                Value::Int(lost[s] as i64),
                Value::Prob(rate.estimate()),
                Value::ProbInterval(ci.low, ci.high),
                Value::Prob(average),
            ]);
        }
        r.tables.push(seats);
    }
}
