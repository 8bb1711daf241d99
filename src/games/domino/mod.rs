//! Dominó (`../shared/RULES.md` §6): the block game for 2–4 players (pairs by default with
//! four), double-six or double-nine, any hand size with the rest sleeping, the draw game, the
//! cross, spinner trees, both partners out, and scoring by games, pips, all fives (with
//! muggins) or fives and threes, single games or matches to N points. Whole games,
//! comparisons, tournaments and house rules come from the shared [`crate::play`] layer; the
//! exact deal facts from [`deal`].

pub mod bots;
pub mod deal;
pub mod engine;
pub mod rules;
pub mod search;
pub mod tiles;

use serde::{Deserialize, Serialize};

use crate::humanize;
use crate::play::sim::SimTally;
use crate::play::{Compared, Game, GameInfo, RuleFlag, Scoring, Words};
use crate::report::{Report, Value};
use crate::stats::{wilson95, Proportion};
use engine::counter;

/// Dominó, for the whole-game layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Domino;

const FLAGS: &[RuleFlag] = &[
    RuleFlag {
        long: "set",
        key: "set",
        value_name: Some("N"),
        switch_sets: "",
        help: "The set: 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles) [default: 6]",
    },
    RuleFlag {
        long: "hand",
        key: "hand",
        value_name: Some("N"),
        switch_sets: "",
        help: "Tiles dealt to each player; the rest sleep (are out of the game) [default: 6]",
    },
    RuleFlag {
        long: "no-pairs",
        key: "pairs",
        value_name: None,
        switch_sets: "off",
        help: "Four players each for themselves (default with four: two pairs, partners opposite)",
    },
    RuleFlag {
        long: "draw",
        key: "draw",
        value_name: None,
        switch_sets: "on",
        help: "The draw game: a player who cannot play draws from the sleeping tiles until able to, then passes",
    },
    RuleFlag {
        long: "cross",
        key: "cross",
        value_name: None,
        switch_sets: "on",
        help: "Cross: the opening double must be covered on all four sides before play goes on (drawing if needed); then four ends",
    },
    RuleFlag {
        long: "tree",
        key: "tree",
        value_name: None,
        switch_sets: "on",
        help: "Spinner trees: every double played lies across and opens two new lines (with --set 9 --cross: double-nine cross)",
    },
    RuleFlag {
        long: "both-partners",
        key: "both-partners",
        value_name: None,
        switch_sets: "on",
        help: "A pair wins by domino only when both partners are out (the stricter ending)",
    },
    RuleFlag {
        long: "score",
        key: "score",
        value_name: Some("RULE"),
        switch_sets: "",
        help: "Scoring: game (one point a game), pips (the winners take the losers' pips), all-fives or fives-and-threes [default: game]",
    },
    RuleFlag {
        long: "to",
        key: "to",
        value_name: Some("N"),
        switch_sets: "",
        help: "Play matches to N points (100 or 121 are usual): every sample is then a whole match [default: single games]",
    },
    RuleFlag {
        long: "no-muggins",
        key: "muggins",
        value_name: None,
        switch_sets: "off",
        help: "All fives: a score a player fails to announce is lost (default: the next player may call muggins and take it)",
    },
    RuleFlag {
        long: "blocked",
        key: "blocked",
        value_name: Some("RULE"),
        switch_sets: "",
        help: "What the winners of a blocked game take: difference (the losers' pips less theirs, the text's rule) or losers [default: difference]",
    },
];

/// Names of the game's own counters (see [`engine::counter`]).
const COUNTERS: &[&str] = &[
    "games",
    "blocked",
    "blocked_opener_won",
    "blocked_ties",
    "opener_won",
    "opener_points",
    "knocks",
    "drawn",
    "muggins",
    "missed",
    "top_opens",
    "top_won",
    "side_1_points",
    "side_2_points",
    "side_3_points",
    "side_4_points",
];

impl Game for Domino {
    type Rules = rules::Rules;
    type State = engine::Game;
    type Strategy = bots::Strategy;
    const INFO: GameInfo = GameInfo {
        key: "domino",
        title: "Dominó",
        about: "Dominó (block, draw, cross, double-nine trees; pairs; all fives; matches): exact deal facts, whole games between bots, the opener's edge, blocked games, points, house rules",
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
        own_sim: false,
        players: (2, rules::MAX_PLAYERS, None),
        flags: FLAGS,
        change_keys: rules::CHANGE_KEYS,
        strategies_help: "random, heaviest (bota gorda), company, scorer (all fives), search[:N] (N sampled deals per move, default 64); each takes miss=P, the chance of missing a score; Spanish azar, bota-gorda, compañía, anotador, búsqueda",
        default_strategies: "company",
        default_tournament: "random,heaviest,company,scorer",
        counters: COUNTERS,
        compared: &[
            Compared {
                counter: counter::BLOCKED,
                label: "blocked games",
            },
            Compared {
                counter: counter::GAMES,
                label: "games per match",
            },
            Compared {
                counter: counter::OPENER_POINTS,
                label: "opener's side's points",
            },
        ],
        chunk: 4096,
        slow_chunk: 4,
        tournament_chunk: (1024, 1),
        examples: [
            "  tahur domino sim --players 4 --games 1e6
  tahur domino sim --players 4 --strategies heaviest,company --games 1e6
  tahur domino sim --players 2 --hand 7 --draw --strategies company,random
  tahur domino sim --players 4 --set 9 --cross --tree --hand 7 \\
      --length-chart length.svg
  tahur domino sim --players 4 --score all-fives --to 100 \\
      --strategies scorer:miss=0.1,scorer --games 1e5
  tahur domino sim --players 4 --strategies search:32,company --games 200",
            "  tahur domino compare --players 4 --b draw=on --games 1e6
  tahur domino compare --players 4 --a-strategies company \\
      --b-strategies heaviest --games 1e6
  tahur domino compare --players 4 --score pips --to 100 --b to=121 \\
      --until-decided --games 1e6",
            "  tahur domino tournament --players 4 \\
      --strategies random,heaviest,company,scorer --games 1e5
  tahur domino tournament --players 4 --score all-fives --to 100 \\
      --strategies scorer,company --chart ranking.svg
  tahur domino tournament --players 2 --strategies company,search:16 --games 500",
            "  tahur domino flags --players 4 --games 1e6
  tahur domino flags --players 2 --strategies company --chart fair.svg
  tahur domino flags --players 4 --score all-fives --to 100 --games 1e5 \\
      --format markdown",
        ],
    };

    fn sim_fields(rules: &rules::Rules, t: &SimTally, r: &mut Report) {
        sim_fields(rules, t, r)
    }

    fn compared_applies(rules: &rules::Rules, k: usize) -> bool {
        // Games per match is 1 when a single game is played.
        Self::INFO.compared[k].counter != counter::GAMES || rules.is_match()
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
    let games = t.counter(counter::GAMES);
    if t.games == 0 || games == 0 {
        return;
    }
    let per_game = |x: i64| x as f64 / games as f64;
    let sides = rules.side_count();
    if rules.is_match() {
        let m = t.counters[counter::GAMES].estimate(t.games);
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
    let blocked = share(t.counter(counter::BLOCKED), games);
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
    let ties = t.counter(counter::BLOCKED_TIES);
    let decided_blocks = t.counter(counter::BLOCKED) - ties;
    if t.counter(counter::BLOCKED) > 0 {
        let won = share(t.counter(counter::BLOCKED_OPENER_WON), decided_blocks);
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
            Value::Prob(share(ties, t.counter(counter::BLOCKED)).estimate()),
            "the lowest pip total shared".to_string(),
        );
    }
    if rules.is_match() {
        // Game by game inside the matches: each game's opener's side.
        let decided = games - t.counter(counter::BLOCKED_TIES);
        let won = share(t.counter(counter::OPENER_WON), games);
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
            Value::Num(100.0 * (won.estimate() - fair), 2),
        );
    }
    let top = share(t.counter(counter::TOP_OPENS), games);
    if top.successes > 0 {
        let won = share(t.counter(counter::TOP_WON), t.counter(counter::TOP_OPENS));
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
    let total: i64 = (0..sides.min(4))
        .map(|k| t.counter(counter::SIDE_POINTS + k))
        .sum();
    r.field(
        "points_per_game",
        "points per game (all sides)",
        Value::Num(per_game(total), 3),
    );
    r.field(
        "opener_points_per_game",
        "points per game to the opener's side",
        Value::Num(per_game(t.counter(counter::OPENER_POINTS)), 3),
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
            Value::Num(per_game(t.counter(counter::SIDE_POINTS + k)), 3),
        );
    }
    r.field(
        "knocks_per_game",
        "knocks per game",
        Value::Num(per_game(t.counter(counter::KNOCKS)), 3),
    );
    if rules.draw || rules.cross {
        r.field(
            "drawn_per_game",
            "tiles drawn per game",
            Value::Num(per_game(t.counter(counter::DRAWN)), 3),
        );
    }
    if rules.score.by_ends() {
        r.field(
            "missed_per_game",
            "points missed per game",
            Value::Num(per_game(t.counter(counter::MISSED)), 3),
        );
        r.field(
            "muggins_per_game",
            "points taken by muggins per game",
            Value::Num(per_game(t.counter(counter::MUGGINS)), 3),
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
