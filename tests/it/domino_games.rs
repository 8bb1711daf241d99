//! Dominó whole games: every rule combination keeps the rules (proptest over seeds and flags:
//! tiles conserved, only legal plays, every game ends, points add up to what the rules say was
//! won), bots see only what a player sees, the runs are reproducible across threads and shards,
//! the game loops allocate nothing more with more games, bad input is answered in one line, and
//! every parser survives arbitrary text.

#![allow(clippy::needless_range_loop)]

use crate::allocations;
use crate::common;

use proptest::prelude::*;
use tahur::games::domino::bots::{Bot, Kind, Strategy};
use tahur::games::domino::engine::round5;
use tahur::games::domino::rules::{Blocked, Rules, Score};
use tahur::games::domino::tiles::{self, full_set, pips, Tile, TileSet, WITH};
use tahur::games::domino::{Counter, Domino, DominoState, SIDE_POINTS};
use tahur::play::compare::{CompareSetup, CompareSimulation};
use tahur::play::flags::{FlagsSetup, FlagsSimulation};
use tahur::play::sim::GameSimulation;
use tahur::play::tournament::{TournamentSetup, TournamentSimulation};
use tahur::play::{GameRules, Outcome, Start, State, TableSetup};
use tahur::rng::{base_stream, SeedableRng, Stream};
use tahur::runner::Simulation;

// ---------------------------------------------------------------------------------------------
// Every rule combination keeps the rules.

/// Rules from the proptest's draws, if they can be played.
#[allow(clippy::too_many_arguments)]
fn rules_of(
    players: u8,
    nine: bool,
    hand: u8,
    flags: u8,
    score: u8,
    to: u32,
    blocked: bool,
) -> Option<Rules> {
    let mut r = Rules::standard(players);
    r.set = if nine { 9 } else { 6 };
    r.hand = hand;
    r.draw = flags & 1 != 0;
    r.cross = flags & 2 != 0;
    r.tree = flags & 4 != 0;
    r.pairs = players == 4 && flags & 8 == 0;
    r.both_partners = r.pairs && flags & 16 != 0;
    r.muggins = flags & 32 == 0;
    r.score = [
        Score::Game,
        Score::Pips,
        Score::AllFives,
        Score::FivesAndThrees,
    ][score as usize];
    r.to = to;
    r.blocked = if blocked {
        Blocked::Losers
    } else {
        Blocked::Difference
    };
    r.validate().ok().map(|_| r)
}

/// The side totals of the hands.
fn side_pips(g: &DominoState, r: &Rules) -> [i64; 4] {
    let mut t = [0i64; 4];
    for s in 0..r.players as usize {
        t[r.side_of(s)] += pips(g.hand(s)) as i64;
    }
    t
}

/// What the winners of a finished single game take at its end, computed here from the rules
/// and the hands left: the text's rules, written again independently of the engine.
fn end_bonus(g: &DominoState, r: &Rules, winner: usize, blocked: bool) -> i64 {
    let totals = side_pips(g, r);
    let own = if blocked && r.blocked == Blocked::Difference {
        totals[winner]
    } else {
        0
    };
    // Nearest multiple of 5.
    let to_five = |x: i64| {
        let down = x - x.rem_euclid(5);
        if x.rem_euclid(5) >= 3 {
            down + 5
        } else {
            down
        }
    };
    let mut bonus = 0;
    let by_ends = matches!(r.score, Score::AllFives | Score::FivesAndThrees);
    if by_ends && !(blocked && r.blocked == Blocked::Difference) {
        // The text rounds each losing player's pips on their own, then adds them
        // ("la suma de las diferencias redondeadas": 7 and 7 give 5 + 5, not 15).
        for s in 0..r.players as usize {
            if r.side_of(s) != winner {
                bonus += to_five(pips(g.hand(s)) as i64);
            }
        }
    } else {
        for (k, &t) in totals.iter().enumerate().take(r.side_count()) {
            if k != winner {
                let diff = t - own;
                bonus += match r.score {
                    Score::Game => 0,
                    Score::Pips => diff,
                    _ => to_five(diff),
                };
            }
        }
    }
    if r.score == Score::Game {
        1
    } else {
        bonus
    }
}

/// The tiles are conserved: hands, boneyard and board partition the set.
fn conserved(g: &DominoState, r: &Rules) -> Result<(), String> {
    let mut seen = g.stock() | g.played();
    if g.stock() & g.played() != 0 {
        return Err("board and boneyard overlap".into());
    }
    for s in 0..4 {
        if seen & g.hand(s) != 0 {
            return Err(format!("seat {s} holds a tile seen elsewhere"));
        }
        seen |= g.hand(s);
    }
    if seen != full_set(r.set) {
        return Err("tiles lost or added".into());
    }
    Ok(())
}

/// Plays one sample with bots, checking every step; returns the game.
fn play_checked(r: Rules, strategies: &[Strategy], seed: u64) -> Result<DominoState, String> {
    let mut deal = Stream::seed_from_u64(seed);
    let mut decisions = Stream::seed_from_u64(seed ^ 0x9E37_79B9);
    let mut bots: Vec<Bot> = strategies.iter().map(|s| Bot::new(*s)).collect();
    let mut g = DominoState::deal(&r, &Start::default(), &mut deal);
    let mut legal = Vec::new();
    let mut steps = 0u64;
    let single = !r.is_match();
    loop {
        conserved(&g, &r)?;
        g.check_invariants()?;
        if g.is_over() {
            break;
        }
        steps += 1;
        // Each decision places a tile or closes a claim window: at most two per tile.
        if steps > 2 * 55 * g.games() as u64 + 2 {
            return Err(format!("{steps} decisions in {} games", g.games()));
        }
        let seat = g.to_act();
        g.legal_actions(&mut legal);
        if legal.is_empty() {
            return Err("a player asked to act has no legal action".into());
        }
        let n = bots.len();
        let a = bots[seat % n].act(&g.view(seat), &mut decisions);
        if !legal.iter().any(|l| l.move_only() == a.move_only()) {
            return Err(format!("{a} is not among {legal:?}"));
        }
        // Points during a single game move only by the plays' own scores and muggins.
        let before: Vec<i64> = (0..4).map(|k| g.game_points(k)).collect();
        let claim = g.view(seat).claim().unwrap_or(0) as i64;
        let count_after = g.view(seat).count_after(a);
        g.apply(a, &mut deal).map_err(|e| e.to_string())?;
        if single && !g.game_over() {
            let side = r.side_of(seat);
            let play = if a.tile().is_some() && a.announces() {
                r.score.end_points(count_after) as i64
            } else {
                0
            };
            let muggins = if a.calls_muggins() && r.muggins {
                claim
            } else {
                0
            };
            for k in 0..4 {
                let want = before[k] + if k == side { play + muggins } else { 0 };
                if g.game_points(k) != want {
                    return Err(format!(
                        "side {k} has {} points after {a}, expected {want}",
                        g.game_points(k)
                    ));
                }
            }
        }
    }
    let sides = r.side_count();
    match (g.outcome(), single) {
        (Some(Outcome::Event(mask)), true) => {
            let w = r.side_of(mask.trailing_zeros() as usize);
            for s in 0..r.players as usize {
                if (mask >> s & 1 == 1) != (r.side_of(s) == w) {
                    return Err(format!("winners {mask:b} are not one side"));
                }
            }
            // A domino: a winner went out (with both partners, every winner).
            let mut out = (0..r.players as usize)
                .filter(|&s| r.side_of(s) == w)
                .map(|s| g.hand(s) == 0);
            let domino = if r.both_partners {
                out.all(|x| x)
            } else {
                out.any(|x| x)
            };
            let blocked = !domino;
            let bonus = end_bonus(&g, &r, w, blocked);
            let played = g.side_points(w) - bonus;
            match r.score {
                Score::Game | Score::Pips if g.side_points(w) != bonus => {
                    return Err(format!(
                        "winners have {} points, the rules say {bonus}",
                        g.side_points(w)
                    ))
                }
                Score::AllFives if played < 0 || played % 5 != 0 => {
                    return Err(format!("winners' play points {played} are not fives"))
                }
                _ => {}
            }
            for k in (0..sides).filter(|&k| k != w) {
                let p = g.side_points(k);
                let bad = match r.score {
                    Score::Game | Score::Pips => p != 0,
                    Score::AllFives => p < 0 || p % 5 != 0,
                    Score::FivesAndThrees => p < 0,
                };
                if bad {
                    return Err(format!("losing side {k} has {p} points"));
                }
            }
        }
        (Some(Outcome::Draw), true) => {
            // A blocked game with the lowest total shared.
            let totals = side_pips(&g, &r);
            let low = *totals[..sides].iter().min().unwrap();
            if totals[..sides].iter().filter(|&&t| t == low).count() < 2 {
                return Err("a draw with a single lowest total".into());
            }
            if r.score != Score::Game
                && !r.score.by_ends()
                && (0..sides).any(|k| g.side_points(k) != 0)
            {
                return Err("points in a drawn game".into());
            }
        }
        (Some(Outcome::Event(mask)), false) => {
            let w = r.side_of(mask.trailing_zeros() as usize);
            if g.side_points(w) < r.to as i64
                || (0..sides).any(|k| k != w && g.side_points(k) >= g.side_points(w))
            {
                return Err(format!(
                    "match won by side {w} with {} points",
                    g.side_points(w)
                ));
            }
        }
        (o, _) => return Err(format!("ended as {o:?}")),
    }
    let mut c = [0i64; tahur::play::MAX_COUNTERS];
    g.counters(&mut c);
    let side_sum: i64 = (0..sides.min(4)).map(|k| c[SIDE_POINTS + k]).sum();
    if side_sum != (0..sides).map(|k| g.side_points(k)).sum::<i64>()
        || c[Counter::Games as usize] != g.games() as i64
    {
        return Err("the counters disagree with the game".into());
    }
    Ok(g)
}

fn strategy_of(k: u8, miss: u8) -> Strategy {
    let kind = [Kind::Random, Kind::Heaviest, Kind::Company, Kind::Scorer][k as usize % 4];
    Strategy {
        kind,
        miss: [0.0, 0.3, 1.0][miss as usize % 3],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn every_game_keeps_the_rules(
        seed in any::<u64>(),
        players in 2u8..=4,
        nine in any::<bool>(),
        hand in 1u8..=9,
        flags in any::<u8>(),
        score in 0u8..4,
        to in prop_oneof![Just(0u32), 1u32..40],
        blocked in any::<bool>(),
        kinds in proptest::collection::vec((0u8..4, 0u8..3), 1..=4),
    ) {
        if let Some(r) = rules_of(players, nine, hand, flags, score, to, blocked) {
            let strategies: Vec<Strategy> = kinds.iter().map(|&(k, m)| strategy_of(k, m)).collect();
            if let Err(e) = play_checked(r, &strategies, seed) {
                prop_assert!(false, "{}: {e} ({strategies:?}, seed {seed})", r.describe());
            }
        }
    }
}

/// The search bots play legal moves under every rule too (a few games: they are slow).
#[test]
fn search_plays_by_the_rules() {
    for (k, changes) in [
        "",
        "draw=on",
        "cross=on,tree=on,set=9,hand=7",
        "score=all-fives,to=30",
        "both-partners=on",
    ]
    .iter()
    .enumerate()
    {
        let r = Rules::standard(4).with_changes(changes).unwrap();
        for bot in ["search:3", "ismcts:8", "ismcts:budget=8,miss=0.5"] {
            let s = [
                Strategy::parse(bot).unwrap(),
                Strategy::parse("company").unwrap(),
            ];
            play_checked(r, &s, k as u64).unwrap_or_else(|e| panic!("{bot} {changes}: {e}"));
        }
    }
}

/// Tables without a searching bot are played by the engine's own loop ([`DominoState::play_out`]); it
/// makes the same choices from the same draws as the move-by-move loop (`--check` takes that
/// one, checking every action and invariant).
#[test]
fn the_engine_loop_plays_exactly_the_move_by_move_games() {
    for (changes, list) in [
        ("", "random"),
        ("", "company,heaviest,random,scorer"),
        ("draw=on,cross=on,tree=on,set=9,hand=7", "random,company"),
        ("score=all-fives,to=50", "scorer:miss=0.3,random:miss=0.5"),
        ("both-partners=on,score=pips,to=100", "heaviest,company"),
    ] {
        let rules = Rules::standard(4).with_changes(changes).unwrap();
        let list = <Strategy as tahur::play::Strategy<Domino>>::parse_list(list).unwrap();
        let run = |check: bool| {
            let sim = GameSimulation::new(&TableSetup::<Domino>::new(rules, &list, check).unwrap());
            let mut t = sim.empty_tally();
            sim.run_chunk(&mut base_stream(21), 300, &mut t);
            t
        };
        let (fast, checked) = (run(false), run(true));
        assert_eq!(checked.violations + checked.illegal_actions, 0, "{changes}");
        assert_eq!(fast, checked, "{changes}");
    }
}

// ---------------------------------------------------------------------------------------------
// Bots see only what a player sees.

/// Two games that differ only in tiles seat 0 cannot see look the same to it: the search's
/// sampled deals are the same draw for draw, so nothing hidden leaks into them.
#[test]
fn a_sampled_deal_does_not_depend_on_the_hidden_tiles() {
    let s = |x: &str| tiles::parse_list(x, 6).unwrap();
    let r = Rules::standard(4);
    let mut rng = Stream::seed_from_u64(1);
    // Seat 0 opens with 6-6; seats 1 and 3 both hold a 6, so swapping them changes nothing
    // anybody has seen.
    let a = [
        s("6-6,5-5,4-4,3-3,2-2,1-1"),
        s("6-5,6-4,5-4,3-0,2-0,1-0"),
        s("0-0,5-0,4-0,3-1,2-1,5-1"),
        s("6-3,6-2,4-3,5-3,4-2,3-2"),
    ];
    let b = [a[0], a[3], a[2], a[1]];
    let ga = DominoState::from_deal(r, a, &mut rng).unwrap();
    let gb = DominoState::from_deal(r, b, &mut rng).unwrap();
    assert_ne!(ga.hand(1), gb.hand(1));
    for seed in 0..20 {
        let da = ga.view(0).determinize(&mut Stream::seed_from_u64(seed));
        let db = gb.view(0).determinize(&mut Stream::seed_from_u64(seed));
        for seat in 0..4 {
            assert_eq!(da.hand(seat), db.hand(seat), "seed {seed}, seat {seat}");
            assert_eq!(da.hand(seat).count_ones(), ga.hand(seat).count_ones());
        }
        assert_eq!(da.hand(0), ga.hand(0));
        da.check_invariants().unwrap();
    }
}

/// A sampled deal gives nobody a number they knocked on.
#[test]
fn sampled_deals_respect_knocks() {
    let mut checked = 0;
    for seed in 0..300 {
        let mut deal = Stream::seed_from_u64(seed);
        let mut g = DominoState::deal(&Rules::standard(4), &Start::default(), &mut deal);
        let mut rng = Stream::seed_from_u64(seed + 1000);
        let mut bot = Bot::new(Strategy::of(Kind::Random));
        while !g.is_over() {
            let seat = g.to_act();
            let v = g.view(seat);
            let d = v.determinize(&mut rng);
            for other in (0..4).filter(|&o| o != seat) {
                let lacks = v.lacks(other);
                let forbidden: TileSet = (0..10)
                    .filter(|n| lacks >> n & 1 == 1)
                    .fold(0, |m, n| m | WITH[n]);
                assert_eq!(d.hand(other) & forbidden, 0);
                checked += (lacks != 0) as u32;
            }
            let a = bot.act(&v, &mut rng);
            g.apply(a, &mut deal).unwrap();
        }
    }
    assert!(checked > 100, "knocks were seen ({checked})");
}

// ---------------------------------------------------------------------------------------------
// Strength: the strategies are what they say.

#[test]
fn heuristics_beat_random_play() {
    let rules = Rules::standard(4);
    let table = TableSetup::<Domino>::new(
        rules,
        &[Strategy::of(Kind::Company), Strategy::of(Kind::Random)],
        false,
    )
    .unwrap();
    let sim = GameSimulation::new(&table);
    let mut t = sim.empty_tally();
    sim.run_chunk(&mut base_stream(4), 20_000, &mut t);
    let company = t.strategies[0].sum as f64 / (2.0 * t.games as f64);
    let random = t.strategies[1].sum as f64 / (2.0 * t.games as f64);
    // Measured 55.6 % against 43.1 % (each about ±0.35 points here).
    assert!(
        company > random + 0.06,
        "company {company}, random {random}"
    );
}

/// Strategies in Spanish play exactly the English ones.
#[test]
fn strategy_names_in_spanish_and_english() {
    let line = |list: &str| {
        format!("domino tournament --players 4 --strategies {list} --score all-fives --games 400")
    };
    assert_eq!(
        common::run_json(&line("azar,bota-gorda,compañía,anotador:miss=0.5")),
        common::run_json(&line("random,heaviest,company,scorer:miss=0.5"))
    );
    let help = common::stdout(&["domino", "tournament", "--help"]);
    assert!(help.contains("Spanish"));
}

// ---------------------------------------------------------------------------------------------
// Reproducible: threads 1 = 2, a 3-shard merge = the whole run, byte for byte.

#[test]
fn runs_are_reproducible_across_threads_and_shards() {
    common::reproducible(&[
        "domino",
        "sim",
        "--players",
        "4",
        "--strategies",
        "random,company",
        "--games",
        "9000",
        "--format",
        "json",
    ]);
    common::reproducible(&[
        "domino",
        "sim",
        "--players",
        "3",
        "--score",
        "all-fives",
        "--to",
        "50",
        "--strategies",
        "scorer:miss=0.2,heaviest",
        "--games",
        "900",
    ]);
    common::reproducible(&[
        "domino",
        "flags",
        "--players",
        "2",
        "--games",
        "5000",
        "--format",
        "csv",
    ]);
    common::reproducible(&[
        "domino",
        "tournament",
        "--players",
        "4",
        "--strategies",
        "company,heaviest,random",
        "--games",
        "3000",
        "--format",
        "json",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Memory: playing more allocates nothing more.

use allocations::flat;

#[test]
fn playing_more_allocates_nothing_more() {
    for (changes, list) in [
        ("", "random,company,heaviest,scorer"),
        ("score=all-fives,to=60,draw=on", "scorer:miss=0.2,company"),
        ("set=9,cross=on,tree=on,hand=7", "search:2,company"),
    ] {
        let rules = Rules::standard(4).with_changes(changes).unwrap();
        let list = <Strategy as tahur::play::Strategy<Domino>>::parse_list(list).unwrap();
        let table = TableSetup::<Domino>::new(rules, &list, false).unwrap();
        let (few, many) = if changes.contains("set=9") {
            (4, 16)
        } else {
            (50, 800)
        };
        flat(
            &GameSimulation::new(&table),
            few,
            many,
            &format!("sim {changes}"),
        );
        let b = TableSetup::new(rules.with_changes("hand=5").unwrap(), &list, false).unwrap();
        let compare = CompareSimulation::new(
            &CompareSetup::new(table.clone(), b, ["a".into(), "b".into()], None).unwrap(),
        );
        flat(&compare, few, many, &format!("compare {changes}"));
        if !changes.contains("set=9") {
            let flags = FlagsSimulation::new(&FlagsSetup::new(table.clone()).unwrap());
            flat(&flags, few / 5, many / 5, &format!("flags {changes}"));
            let tour = TournamentSimulation::new(
                &TournamentSetup::<Domino>::new(rules, &list[..2], false).unwrap(),
            );
            flat(&tour, few, many, &format!("tournament {changes}"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2 and one line naming the value.

#[test]
fn bad_input_is_answered_in_one_line() {
    for (args, names) in [
        (
            vec!["domino", "sim", "--players", "4", "--hand", "8"],
            "hand=8",
        ),
        (
            vec!["domino", "sim", "--players", "4", "--set", "7"],
            "--set 7",
        ),
        (
            vec!["domino", "sim", "--players", "4", "--to", "0"],
            "--to 0",
        ),
        (
            vec!["domino", "sim", "--players", "4", "--score", "cincuenta"],
            "cincuenta",
        ),
        (
            vec!["domino", "sim", "--players", "4", "--strategies", "nadie"],
            "nadie",
        ),
        (vec!["domino", "sim", "--players", "5"], "5"),
        (
            vec!["domino", "sim", "--players", "3", "--both-partners"],
            "both-partners",
        ),
        (
            vec!["domino", "compare", "--players", "4", "--b", "set=7"],
            "set=7",
        ),
        (
            vec!["domino", "flags", "--players", "4", "--house", "hand=9"],
            "hand=9",
        ),
        (
            vec!["domino", "deal", "--players", "4", "--hand-size", "8"],
            "--hand-size 8",
        ),
        // The old spelling of the hand size is answered under the new name.
        (
            vec!["domino", "deal", "--players", "4", "--hand", "8"],
            "--hand-size 8",
        ),
        (vec!["domino", "deal", "--players", "4", "--set", "7"], "7"),
        (
            vec!["domino", "deal", "--players", "4", "--holding", "7-7,1-1"],
            "7-7",
        ),
        (
            vec!["domino", "deal", "--players", "2", "--holding", "6-6"],
            "'6-6' names 1 tile",
        ),
    ] {
        let e = common::fails(&args);
        assert!(e.contains(names), "{args:?}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Every parser survives arbitrary text: an error naming the value, or a valid parse.

fn names_it(e: &str, text: &str) -> bool {
    e.contains(text.trim())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn tiles_parse_or_are_named(text in "\\PC{0,12}|[0-9 :|\\-\\[\\]a-z]{0,12}") {
        match Tile::parse(&text, 6) {
            Ok(t) => prop_assert!(t.high() <= 6),
            Err(e) => prop_assert!(names_it(&e.to_string(), &text), "{e}"),
        }
        match tiles::parse_list(&text, 9) {
            Ok(set) => prop_assert_eq!(set & !full_set(9), 0),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn strategies_parse_or_are_named(text in "\\PC{0,16}|(random|company|search|scorer|heaviest|azar)(:[a-z0-9=.,]{0,10})?") {
        match Strategy::parse(&text) {
            Ok(s) => prop_assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s),
            Err(e) => prop_assert!(names_it(&e.to_string(), &text), "{e}"),
        }
    }

    #[test]
    fn rule_changes_parse_or_are_named(
        key in "(set|hand|pairs|draw|cross|tree|both-partners|score|to|muggins|blocked|[^,=]{0,6})",
        value in "[^,]{0,10}",
    ) {
        let spec = format!("{key}={value}");
        match Rules::standard(4).with_changes(&spec) {
            Ok(r) => {
                // A valid change is a table, or refused by name when it cannot be played.
                if let Err(e) = r.validate() {
                    let e = e.to_string();
                    prop_assert!(e.contains(value.trim()) || e.contains(key.trim()), "{spec}: {e}");
                }
            }
            Err(e) => {
                let e = e.to_string();
                prop_assert!(e.contains(value.trim()) || e.contains(key.trim()), "{spec}: {e}");
            }
        }
        if let Some(s) = Score::parse(&value) {
            prop_assert_eq!(Score::parse(&s.to_string()), Some(s));
        }
    }
}

/// round5 is the nearest multiple of 5 (checked against the test's own rounding).
#[test]
fn rounding_to_five() {
    for x in -30i64..=200 {
        let r = round5(x);
        assert_eq!(r % 5, 0);
        assert!((r - x).abs() <= 2, "{x} → {r}");
    }
}

/// `compare` shows games per match only when a match is played at one of the two tables (a
/// single game is always one game: the row would say nothing), and then with its real figures.
#[test]
fn compare_shows_games_per_match_only_for_matches() {
    let text = |b: &str| {
        common::stdout(&[
            "domino",
            "compare",
            "--players",
            "4",
            "--b",
            b,
            "--games",
            "400",
        ])
    };
    let single = text("draw=on");
    assert!(single.contains("blocked games"), "{single}");
    assert!(!single.contains("games per match"), "{single}");
    let matched = text("to=100");
    let line = matched
        .lines()
        .find(|l| l.trim_start().starts_with("games per match"))
        .unwrap_or_else(|| panic!("{matched}"));
    // A: one game; B: a match to 100 points takes many games.
    let cells: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(cells[0], 1.0, "{line}");
    assert!(cells[1] > 10.0, "{line}");
}
