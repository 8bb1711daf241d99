//! The conformance test every game runs, driven by the one list of games (`with_games!`): the
//! engine API's contract checked on each game's own engine, so that a new game is held to it by
//! being listed.
//!
//! For tables with every player count of the game (and each one-rule change of the standard
//! table for one count):
//! - the rule table reads back what it writes and each change it offers parses;
//! - random games (uniform over the legal actions, through `State` only) keep every invariant
//!   after every action, always offer a legal action until they end, and end;
//! - an action that is not legal is refused and changes nothing;
//! - a game dealt for a seat's view (`deal_for_view`) shows that seat exactly the same view, the
//!   same player to act and the same legal actions, keeps every invariant, and (over several
//!   deals) varies what the seat cannot see in games that hide anything;
//! - a search bot (`play::ismcts`) chooses a legal action;
//! - the rules and strategies come back from their JSON and their names;
//! - a simulation gives the same tallies on 1 and 2 threads and as 3 shards merged.

use rand_core::SeedableRng;
use tahur::play::ismcts::Search;
use tahur::play::sim::GameSimulation;
use tahur::play::{ActionOf, Game, GameRules, PlayerView, Start, State, Strategy, TableSetup};
use tahur::rng::{uniform_below, Stream};
use tahur::runner::{run, RunControl, RunSpec, Shard, Simulation, Tally};

/// Games whose hands hold nothing hidden from anyone never vary under `deal_for_view`.
fn start_of<G: Game>() -> Start {
    Start {
        length: if G::INFO.sitting { 2 } else { 0 },
        ..Start::default()
    }
}

/// The tables a game is checked on: the standard table for each player count (up to 6), and
/// each one-rule change of the standard table for the smallest count with changes.
fn tables<G: Game>() -> Vec<G::Rules> {
    let (lo, hi, _) = G::INFO.players;
    let mut v: Vec<G::Rules> = (lo..=hi.min(6))
        .map(G::Rules::standard)
        .filter(|r| r.validate().is_ok())
        .collect();
    assert!(!v.is_empty(), "{}: no playable standard table", G::INFO.key);
    let base = v[v.len() / 2].clone();
    v.extend(base.one_rule_changes().into_iter().map(|c| c.rules));
    v
}

/// Debug of the whole state: what "changes nothing" compares.
fn snapshot<S: State>(s: &S) -> String {
    format!("{s:?}")
}

/// What every seat sees, the player to act and the legal actions.
fn views<S: State>(s: &S, players: usize) -> Vec<String> {
    (0..players).map(|p| format!("{:?}", s.view(p))).collect()
}

fn check_deal_for_view<G: Game>(
    state: &G::State,
    players: usize,
    rng: &mut Stream,
    varied: &mut bool,
) {
    let mut legal = Vec::new();
    let mut again = Vec::new();
    for p in 0..players {
        let view = state.view(p);
        assert_eq!(view.seat(), p, "{}: the view of seat {p}", G::INFO.key);
        let shown = format!("{view:?}");
        for _ in 0..3 {
            let dealt = G::State::deal_for_view(&view, rng);
            assert_eq!(
                format!("{:?}", dealt.view(p)),
                shown,
                "{}: a game dealt for seat {p}'s view shows it something else",
                G::INFO.key
            );
            dealt
                .check_invariants()
                .unwrap_or_else(|e| panic!("{}: a game dealt for a view: {e}", G::INFO.key));
            assert_eq!(dealt.is_over(), state.is_over(), "{}", G::INFO.key);
            if !state.is_over() {
                assert_eq!(dealt.to_act(), state.to_act(), "{}", G::INFO.key);
                if state.to_act() == p {
                    state.legal_actions(&mut legal);
                    dealt.legal_actions(&mut again);
                    assert_eq!(legal, again, "{}: the legal actions differ", G::INFO.key);
                }
            }
            if views(&dealt, players) != views(state, players) {
                *varied = true;
            }
        }
    }
}

/// Random games through the engine API, every check after every action.
fn random_games<G: Game>(rules: &G::Rules, games: u64, seed: u64) -> bool {
    let players = rules.players();
    let mut rng = Stream::seed_from_u64(seed);
    let mut legal: Vec<ActionOf<G>> = Vec::new();
    let mut seen: Vec<ActionOf<G>> = Vec::new();
    let mut varied = false;
    for game in 0..games {
        let mut state = G::State::deal(rules, &start_of::<G>(), &mut rng);
        state.check_invariants().unwrap();
        assert_eq!(state.rules(), rules, "{}", G::INFO.key);
        let mut steps = 0u64;
        while !state.is_over() {
            steps += 1;
            assert!(steps < 200_000, "{}: a game that does not end", G::INFO.key);
            let seat = state.to_act();
            assert!(seat < players, "{}: seat {seat} to act", G::INFO.key);
            state.legal_actions(&mut legal);
            assert!(!legal.is_empty(), "{}: no legal action", G::INFO.key);
            // Every few steps of the first games: dealing for each view, and an illegal action.
            if game < 3 && steps % 7 == 1 {
                check_deal_for_view::<G>(&state, players, &mut rng, &mut varied);
                if let Some(&bad) = seen.iter().find(|a| !legal.contains(a)) {
                    let before = snapshot(&state);
                    assert!(
                        state.apply(bad, &mut rng.clone()).is_err(),
                        "{}: {bad} is not legal and was taken",
                        G::INFO.key
                    );
                    assert_eq!(
                        snapshot(&state),
                        before,
                        "{}: a refused action changed the game",
                        G::INFO.key
                    );
                }
            }
            for &a in &legal {
                if seen.len() < 256 && !seen.contains(&a) {
                    seen.push(a);
                }
            }
            let a = legal[uniform_below(&mut rng, legal.len())];
            state
                .apply(a, &mut rng)
                .unwrap_or_else(|e| panic!("{}: a legal action refused: {e}", G::INFO.key));
            state
                .check_invariants()
                .unwrap_or_else(|e| panic!("{}: after {a}: {e}", G::INFO.key));
        }
        assert!(state.outcome().is_some());
        assert!(state.first_player() < players);
    }
    varied
}

/// A search bot takes a legal action at the start of a game.
fn search_is_legal<G: Game>(rules: &G::Rules) {
    let mut rng = Stream::seed_from_u64(5);
    let mut legal = Vec::new();
    for _ in 0..3 {
        let state = G::State::deal(rules, &start_of::<G>(), &mut rng);
        if state.is_over() {
            continue;
        }
        state.legal_actions(&mut legal);
        let mut search = Search::<G>::new(16);
        let a = search.choose(&state.view(state.to_act()), &mut rng);
        assert!(legal.contains(&a), "{}: the search chose {a}", G::INFO.key);
    }
}

fn control(threads: usize) -> RunControl {
    RunControl {
        threads: Some(threads),
        progress: tahur::progress::Progress::hidden(),
    }
}

/// The default line-up's simulation on 1 and 2 threads and as 3 shards.
fn reproducible<G: Game>(rules: &G::Rules) {
    let list = G::Strategy::parse_list(G::INFO.default_strategies).unwrap();
    let setup = TableSetup::<G>::new(rules.clone(), &list, true).unwrap();
    let sim = GameSimulation::new(&setup);
    let samples = 3 * sim.chunk_size() + 7;
    let spec = RunSpec {
        samples,
        seed: 3,
        chunk_size: sim.chunk_size(),
    };
    let one = run(&sim, &spec, None, &control(1)).unwrap();
    let two = run(&sim, &spec, None, &control(2)).unwrap();
    assert_eq!(
        one.tally,
        two.tally,
        "{}: threads change the result",
        G::INFO.key
    );
    let mut merged = sim.empty_tally();
    for k in 1..=3 {
        let part = run(&sim, &spec, Some(Shard { index: k, count: 3 }), &control(2)).unwrap();
        merged.absorb(&part.tally);
    }
    assert_eq!(
        merged,
        one.tally,
        "{}: the shards do not add up",
        G::INFO.key
    );
    assert_eq!(
        one.tally.violations + one.tally.illegal_actions,
        0,
        "{}",
        G::INFO.key
    );
}

/// Rules and strategies come back from their JSON and their names.
fn round_trips<G: Game>(rules: &G::Rules) {
    let json = serde_json::to_string(rules).unwrap();
    let back: G::Rules = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, rules, "{}: rules from JSON", G::INFO.key);
    for s in G::Strategy::parse_list(G::INFO.default_tournament).unwrap() {
        let again = G::Strategy::parse(&s.to_string()).unwrap();
        assert_eq!(again, s, "{}: strategy {s} from its name", G::INFO.key);
        let json = serde_json::to_string(&s).unwrap();
        let back: G::Strategy = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s, "{}: strategy {s} from JSON", G::INFO.key);
    }
    let names = G::INFO.counters;
    for (i, n) in names.iter().enumerate() {
        assert!(
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{}: counter name {n:?}",
            G::INFO.key
        );
        assert!(
            !names[..i].contains(n),
            "{}: counter {n} twice",
            G::INFO.key
        );
    }
}

fn conforms<G: Game>() {
    let tables = tables::<G>();
    let mut varied = false;
    for (i, rules) in tables.iter().enumerate() {
        assert!(
            !<G::Rules as GameRules>::TABLE.is_empty(),
            "{}: no rule table",
            G::INFO.key
        );
        tahur::play::rules::check_table(rules).unwrap_or_else(|e| panic!("{}: {e}", G::INFO.key));
        round_trips::<G>(rules);
        varied |= random_games::<G>(rules, 4, 11 + i as u64);
        if i == 0 {
            search_is_legal::<G>(rules);
        }
    }
    assert!(
        varied,
        "{}: dealing for a view never changed what the others see",
        G::INFO.key
    );
    reproducible::<G>(&tables[0]);
}

macro_rules! conformance_tests {
    ($($name:ident => $game:ty),* $(,)?) => {
        $(
            #[allow(non_snake_case)]
            mod $name {
                #[test]
                fn conforms_to_the_engine_api() {
                    super::conforms::<$game>();
                }
            }
        )*
    };
}
tahur::with_games!(conformance_tests);
