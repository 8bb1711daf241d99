//! Dominó positions (issue 23): every position written at every step of many games (block and
//! draw, cross and trees, pairs and singles, all fives with missed scores and matches) reads back
//! to the same view; positions typed as players write them read as typed; bad positions are
//! refused with one line naming the fault; the hidden tiles are dealt consistently with the
//! passes; and advice is right where the answer is known (a domino is certain, a play that
//! leaves the opponent only numbers it passed on wins for sure).

use rand_core::SeedableRng;
use tahur::games::domino::bots::Strategy as DominoStrategy;
use tahur::games::domino::engine::DominoState;
use tahur::games::domino::rules::Rules;
use tahur::games::domino::tiles::{Tile, WITH};
use tahur::games::domino::Domino;
use tahur::play::advise::{self, verdict, AdviceSetup, Verdict};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{Bot, GameRules, PlayerView, State, Strategy};
use tahur::rng::Stream;
use tahur::runner::{RunControl, RunSpec};

fn rng(seed: u64) -> Stream {
    Stream::seed_from_u64(seed)
}

fn rules(players: u8, changes: &str) -> Rules {
    Rules::standard(players).with_changes(changes).unwrap()
}

fn read(rules: &Rules, text: &str) -> tahur::error::Result<DominoState> {
    Domino::read_position(rules, text, &mut rng(7))
}

/// Writes the view of the player to act, reads it back and checks that the read game shows
/// that player the same view (its Debug), writes the same text and is whole.
fn round_trip(game: &DominoState, what: &str) -> String {
    let seat = game.to_act();
    let view = game.view(seat);
    let text = Domino::write_position(&view);
    assert!(!text.contains('\n'), "{what}: one line: {text}");
    let back = Domino::read_position(game.rules(), &text, &mut rng(seat as u64))
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    back.check_invariants()
        .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(back.to_act(), seat, "{what}: {text}");
    let again = back.view(seat);
    assert_eq!(format!("{again:?}"), format!("{view:?}"), "{what}: {text}");
    assert_eq!(Domino::write_position(&again), text, "{what}");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    game.legal_actions(&mut a);
    back.legal_actions(&mut b);
    assert_eq!(a, b, "{what}: the same legal actions");
    text
}

/// The game `example` plays for `seed` at these rules, every step of it: the same deal, streams
/// and bots (checked against `example` at a few steps), without replaying from the start.
fn every_step(rules: &Rules, strategies: &[DominoStrategy], seed: u64) -> Vec<DominoState> {
    let mut chunk = tahur::rng::base_stream(seed);
    let (mut deal, mut decisions) = tahur::play::game_streams(&mut chunk);
    let mut game = DominoState::deal(rules, &tahur::play::Start::default(), &mut deal);
    let mut bots: Vec<_> = (0..rules.players as usize)
        .map(|s| strategies[s % strategies.len()].bot(rules))
        .collect();
    let mut steps = Vec::new();
    while !game.is_over() {
        steps.push(game.clone());
        let seat = game.to_act();
        let action = bots[seat].act(&game.view(seat), &mut decisions);
        game.apply(action, &mut deal).unwrap();
    }
    for after in [0, steps.len() / 2, steps.len() - 1] {
        let shown = example::<Domino, _>(rules, strategies, seed, after as u64).unwrap();
        assert_eq!(format!("{shown:?}"), format!("{:?}", steps[after]));
    }
    steps
}

#[test]
fn every_position_of_many_games_reads_back_to_the_same_view() {
    let tables: &[(u8, &str, &str, u64)] = &[
        (4, "", "company", 6),
        (4, "", "random,heaviest", 6),
        (2, "hand=7", "company,random", 6),
        (3, "", "heaviest,random", 6),
        (4, "pairs=off", "random", 4),
        (2, "hand=5", "random", 6),
        (4, "draw=on", "random,company", 4),
        (2, "draw=on,hand=7", "company,random", 4),
        (4, "cross=on", "random", 4),
        (2, "cross=on,hand=5", "random", 4),
        (4, "tree=on", "random", 4),
        (4, "set=9,hand=7,cross=on,tree=on", "random", 3),
        (3, "set=9,hand=9,draw=on", "company,random", 3),
        (4, "both-partners=on", "random,company", 12),
        (
            4,
            "score=all-fives,to=100",
            "scorer:miss=0.6,random:miss=0.8",
            4,
        ),
        (
            2,
            "score=fives-and-threes,to=60,hand=7,draw=on",
            "scorer:miss=0.7",
            4,
        ),
        (4, "score=pips,to=100", "company", 2),
        (4, "score=all-fives,muggins=off,to=50", "scorer:miss=0.3", 2),
    ];
    let mut positions = 0;
    let (mut missed, mut windows, mut lines, mut arms, mut later_games) = (0, 0, 0, 0, 0);
    let (mut decided, mut crosses, mut outs) = (0, 0, 0);
    for &(players, changes, bots, seeds) in tables {
        let r = rules(players, changes);
        let strategies = DominoStrategy::parse_list(bots).unwrap();
        for seed in 0..seeds {
            for (after, game) in every_step(&r, &strategies, seed).iter().enumerate() {
                let text = round_trip(
                    game,
                    &format!("{players} players {changes} seed {seed} after {after}"),
                );
                positions += 1;
                missed += usize::from(text.contains("missed: "));
                windows += usize::from(game.view(game.to_act()).claim_only());
                lines += usize::from(text.contains("line: "));
                arms += usize::from(text.contains("ends: "));
                later_games += usize::from(text.contains("games: "));
                decided += usize::from(text.contains("decided: "));
                crosses += usize::from(text.contains("cross: "));
                outs += usize::from(text.contains("out: "));
            }
        }
    }
    assert!(positions > 1500, "{positions} positions");
    assert!(
        missed > 50
            && windows > 5
            && decided > 0
            && lines > 1000
            && arms > 200
            && crosses > 50
            && outs > 8
            && later_games > 300,
        "every kind is met: {missed} missed scores, {windows} claim windows, {decided} decided games, {lines} lines, {arms} layouts in arms, {crosses} with a cross, {outs} with a player out, {later_games} positions in later games of a match"
    );
}
