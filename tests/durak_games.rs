//! Durak engine and bots: rules hold at every step, games end, bots play legally.

use proptest::prelude::*;
use rand_core::SeedableRng;
use tahur::games::durak::bots::{Bot, Strategy};
use tahur::games::durak::engine::{Action, Game, Phase, Step};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::rng::Stream;

/// Plays one game with invariant checks after every action; returns the finished game.
fn play_checked(rules: Rules, strategies: &[Strategy], seed: u64) -> Game {
    let mut rng = Stream::seed_from_u64(seed);
    let mut game = Game::new(rules, &mut rng);
    game.check_invariants().unwrap();
    let mut bots: Vec<Bot> = (0..rules.players as usize)
        .map(|i| Bot::new(strategies[i % strategies.len()]))
        .collect();
    let mut actions = Vec::new();
    loop {
        let seat = game.turn();
        game.legal_actions(&mut actions);
        assert!(!actions.is_empty(), "no legal action in {:?}", game.phase());
        let a = bots[seat as usize].act(&game.view(seat), &mut rng);
        assert!(actions.contains(&a), "bot chose {a} not in {actions:?}");
        let before_attack = game.attack_cards().len();
        let step = game.apply(a).unwrap();
        game.check_invariants()
            .unwrap_or_else(|e| panic!("after {a}: {e}"));
        if step == Step::Continue && game.phase() != Phase::Over {
            assert!(game.attack_cards().len() <= game.attack_limit() as usize);
            assert!(
                game.attack_cards().len() >= before_attack.min(1) || matches!(a, Action::SwapTrump)
            );
        }
        if let Step::GameOver(_) = step {
            return game;
        }
    }
}

#[test]
fn random_games_keep_every_rule() {
    for players in 2..=6u8 {
        for variant in [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy] {
            let rules = Rules::standard(variant, players);
            for seed in 0..40 {
                let g = play_checked(rules, &[Strategy::Random], seed);
                assert!(g.outcome().is_some());
            }
        }
    }
}

#[test]
fn smoke_all_bots() {
    let rules = Rules::standard(Variant::Podkidnoy, 3);
    let g = play_checked(
        rules,
        &[
            Strategy::Greedy,
            Strategy::Expert,
            Strategy::Ismcts { budget: 50 },
        ],
        7,
    );
    assert!(g.outcome().is_some());
}
