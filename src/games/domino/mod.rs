//! Dominó (`docs/rules.md` §6): the block game for 2–4 players (pairs by default with
//! four), double-six or double-nine, any hand size with the rest sleeping, the draw game, the
//! cross, spinner trees, both partners out, and scoring by games, pips, all fives (with
//! muggins) or fives and threes, single games or matches to N points. Whole games,
//! comparisons, tournaments and house rules come from the shared [`crate::play`] layer; the
//! exact deal facts from [`deal`].

pub mod bots;
pub mod deal;
pub mod engine;
mod hidden;
pub mod position;
pub mod rules;
pub mod search;
pub mod sheet;
pub mod tiles;

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::SimTally;
use crate::play::{ActionOf, Compared, Game, GameInfo, Scoring, Words, MAX_SEATS};
use crate::report::{Report, Value};
use crate::rng::Stream;
use crate::stats::{wilson95, Proportion};

pub use engine::DominoState;

crate::counters! {
    /// Dominó's own counters of a sample (a game, or a match).
    pub enum Counter {
        /// Games played (1 for a single game; the games of a match).
        Games = "games",
        /// Blocked games.
        Blocked = "blocked",
        /// Blocked games won by the side that opened them.
        BlockedOpenerWon = "blocked_opener_won",
        /// Blocked games with the lowest pip total shared (nobody wins).
        BlockedTies = "blocked_ties",
        /// Games won by the side that opened them.
        OpenerWon = "opener_won",
        /// Points scored in games by the side that opened them.
        OpenerPoints = "opener_points",
        /// Knocks (a player unable to play while someone can).
        Knocks = "knocks",
        /// Tiles drawn from the boneyard.
        Drawn = "drawn",
        /// Points claimed by muggins.
        Muggins = "muggins",
        /// Points a player failed to announce (claimed by muggins or lost).
        Missed = "missed",
        /// Games opened with the set's highest double.
        TopOpens = "top_opens",
        /// Of those, games the opening side won.
        TopWon = "top_won",
        /// Points of side 1 in the sample (the first of [`SIDE_POINTS`]).
        Side1Points = "side_1_points",
        /// Points of side 2.
        Side2Points = "side_2_points",
        /// Points of side 3.
        Side3Points = "side_3_points",
        /// Points of side 4.
        Side4Points = "side_4_points",
    }
}

/// The counter of side 1's points; side `k` (0-based) is at `SIDE_POINTS + k`.
pub const SIDE_POINTS: usize = Counter::Side1Points as usize;

/// Dominó, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Domino;

impl Game for Domino {
    type Rules = rules::Rules;
    type State = DominoState;
    type Strategy = bots::Strategy;

    fn start_from(
        rules: &Self::Rules,
        text: &str,
    ) -> crate::error::Result<crate::play::position::StartFrom<Self>> {
        crate::play::position::start_from::<Self>(rules, text)
    }
    const INFO: GameInfo = GameInfo {
        key: "domino",
        title: "Dominó",
        scoring: Scoring::Event { good: true },
        words: Words {
            first_player: "opener",
            positions: &["opener", "player after the opener"],
            event: "wins",
            rate: "win rate",
            phrase: "wins",
            team_phrase: "wins",
            length_unit: "tiles",
            chart_axis: "games won",
        },
        draws: true,
        move_cap: false,
        series: None,
        sitting: false,
        sample_unit: "games",
        players: (2, rules::MAX_PLAYERS, None),
        default_strategies: "company",
        default_tournament: "random,heaviest,company,scorer",
        counters: Counter::NAMES,
        compared: &[
            Compared {
                counter: Counter::Blocked as usize,
                label: "blocked games",
            },
            Compared {
                counter: Counter::Games as usize,
                label: "games per match",
            },
            Compared {
                counter: Counter::OpenerPoints as usize,
                label: "opener's side's points",
            },
        ],
        chunk: 4096,
        slow_chunk: 4,
        tournament_chunk: (1024, 1),
    };

    fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
        sim_fields(rules, t, r)
    }

    fn compared_applies(rules: &rules::Rules, k: usize) -> bool {
        // Games per match is 1 when a single game is played.
        Self::INFO.compared[k].counter != Counter::Games as usize || rules.is_match()
    }

    /// Search bots (`ismcts`) play out with `company`, as `search` does.
    fn playout_action(
        state: &DominoState,
        _scratch: &mut Vec<ActionOf<Self>>,
        _rng: &mut Stream,
    ) -> ActionOf<Self> {
        search::playout_action(state)
    }

    /// An iteration ends with the current game (in a match, when the next one is dealt).
    fn search_ends(root: &DominoState, now: &DominoState) -> bool {
        search::ends(root, now)
    }

    /// The outcome when the sample ends with the game; in a match that goes on, the game's
    /// points as a share of the target ([`search::rewards`]).
    fn search_rewards(root: &DominoState, end: &DominoState) -> [f64; MAX_SEATS] {
        search::rewards(root, end)
    }
}

/// A count of games as a proportion of `of` (clamped so bad input cannot panic).
fn share(count: i64, of: i64) -> Proportion {
    let of = of.max(0) as u64;
    Proportion::new((count.max(0) as u64).min(of), of)
}

/// The game's own figures: games per match, blocked games and who wins them, the opener's side
/// game by game, the set's highest double, points, knocks, draws, muggins.
fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
    let games = t.counter(Counter::Games);
    if t.games == 0 || games == 0 {
        return;
    }
    let per_game = |x: i64| x as f64 / games as f64;
    let sides = rules.side_count();
    if rules.is_match() {
        let m = t.counters[Counter::Games as usize].estimate(t.games);
        let ci = m.interval(0.95);
        r.field(
            "games_per_match",
            &format!("games per match (to {})", rules.to),
            Value::Num(m.mean, 2),
        );
        r.field(
            "games_per_match_ci95",
            "95 % interval",
            Value::NumInterval(ci.low, ci.high, 2),
        );
        r.field(
            "tiles_per_game",
            "tiles per game",
            Value::Num(t.length.sum as f64 / games as f64, 2),
        );
    }
    let blocked = share(t.counter(Counter::Blocked), games);
    let (_, ci) = wilson95(blocked.successes, blocked.trials);
    r.field_plain(
        "blocked_rate",
        "blocked games",
        Value::Prob(blocked.estimate()),
        humanize::plain_rate_of(&blocked, "games"),
    );
    r.field(
        "blocked_ci95",
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    let ties = t.counter(Counter::BlockedTies);
    let decided_blocks = t.counter(Counter::Blocked) - ties;
    if t.counter(Counter::Blocked) > 0 {
        let won = share(t.counter(Counter::BlockedOpenerWon), decided_blocks);
        let (_, ci) = wilson95(won.successes, won.trials);
        let fair = 1.0 / sides as f64;
        r.field_plain(
            "blocked_opener_rate",
            "blocked games won by the opener's side",
            Value::Prob(won.estimate()),
            format!(
                "of the blocked games someone won; a fair share is {}",
                humanize::percent(fair)
            ),
        );
        r.field(
            "blocked_opener_ci95",
            "95 % interval",
            Value::ProbInterval(ci.low, ci.high),
        );
        r.field_plain(
            "blocked_tie_rate",
            "blocked games tied (nobody wins)",
            Value::Prob(share(ties, t.counter(Counter::Blocked)).estimate()),
            "the lowest pip total shared".to_string(),
        );
    }
    if rules.is_match() {
        // Game by game inside the matches: each game's opener's side.
        let decided = games - t.counter(Counter::BlockedTies);
        let won = share(t.counter(Counter::OpenerWon), games);
        let (_, ci) = wilson95(won.successes, won.trials);
        let fair = decided as f64 / games as f64 / sides as f64;
        r.field_plain(
            "game_opener_rate",
            "a game's opener's side wins it",
            Value::Prob(won.estimate()),
            format!("fair share {}", humanize::percent(fair)),
        );
        r.field(
            "game_opener_ci95",
            "95 % interval",
            Value::ProbInterval(ci.low, ci.high),
        );
        r.field(
            "game_opener_edge",
            "a game's opener's edge (points better than fair)",
            Value::RateDiff(won.estimate() - fair),
        );
    }
    let top = share(t.counter(Counter::TopOpens), games);
    if top.successes > 0 {
        let won = share(t.counter(Counter::TopWon), t.counter(Counter::TopOpens));
        let (_, ci) = wilson95(won.successes, won.trials);
        let name = format!("double-{}", if rules.set == 9 { "nine" } else { "six" });
        r.field_plain(
            "top_double_opens",
            &format!("games opened with the {name}"),
            Value::Prob(top.estimate()),
            humanize::plain_rate_of(&top, "games"),
        );
        r.field(
            "top_double_win_rate",
            &format!("the side opening with the {name} wins"),
            Value::Prob(won.estimate()),
        );
        r.field(
            "top_double_win_ci95",
            "95 % interval",
            Value::ProbInterval(ci.low, ci.high),
        );
    }
    let total: i64 = (0..sides.min(4)).map(|k| t.counter(SIDE_POINTS + k)).sum();
    r.field(
        "points_per_game",
        "points per game (all sides)",
        Value::Num(per_game(total), 3),
    );
    r.field(
        "opener_points_per_game",
        "points per game to the opener's side",
        Value::Num(per_game(t.counter(Counter::OpenerPoints)), 3),
    );
    if rules.is_match() {
        r.field(
            "points_per_match",
            "points per match (all sides)",
            Value::Num(total as f64 / t.games as f64, 2),
        );
    }
    for k in 0..sides.min(4) {
        r.field(
            &format!("side_{}_points_per_game", k + 1),
            &format!(
                "points per game, {}",
                if rules.pairs {
                    format!("pair {} (seats {} and {})", k + 1, k + 1, k + 3)
                } else {
                    format!("seat {}", k + 1)
                }
            ),
            Value::Num(per_game(t.counter(SIDE_POINTS + k)), 3),
        );
    }
    r.field(
        "knocks_per_game",
        "knocks per game",
        Value::Num(per_game(t.counter(Counter::Knocks)), 3),
    );
    if rules.draw || rules.cross {
        r.field(
            "drawn_per_game",
            "tiles drawn per game",
            Value::Num(per_game(t.counter(Counter::Drawn)), 3),
        );
    }
    if rules.score.by_ends() {
        r.field(
            "missed_per_game",
            "points missed per game",
            Value::Num(per_game(t.counter(Counter::Missed)), 3),
        );
        r.field(
            "muggins_per_game",
            "points taken by muggins per game",
            Value::Num(per_game(t.counter(Counter::Muggins)), 3),
        );
    }
    if rules.is_match() {
        r.note(format!(
            "Each of the {} is a whole match to {} points: seat, strategy, team and opener figures are per match (the opener is the first game's); the game-by-game figures count the {} games played.",
            crate::text::count_of(t.games, "games"),
            rules.to,
            humanize::thousands(games as u64)
        ));
    }
}
