//! Dominó speed: whole games per second through the shared runner (dealing, bots, tallies), on
//! 1 and 2 threads: four-player block games (pairs, double-six, 6 tiles) with `random` bots (the
//! issue's target: at least 1 000 000 games/s on 2 cores) and with `company` (at least 300 000),
//! all-fives matches to 100 with `scorer`, double-nine cross trees, and one decision of `search`
//! and of `ismcts`.
//! Run with `cargo bench --features bench --bench domino`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use std::hint::black_box;
use tahur::games::domino::bots::{Bot, Strategy};
use tahur::games::domino::rules::Rules;
use tahur::games::domino::{Domino, DominoState};
use tahur::play::{GameRules, Start, State, TableSetup};
use tahur::rng::Stream;

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("domino_games");
    g.sample_size(10);
    for (label, changes, strategy, n) in [
        ("4p_block_random", "", "random", 1u64 << 21),
        ("4p_block_company", "", "company", 1 << 21),
        (
            "4p_all_fives_match_scorer",
            "score=all-fives,to=100",
            "scorer",
            1 << 16,
        ),
        (
            "4p_double_nine_cross_trees_company",
            "set=9,hand=7,cross=on,tree=on",
            "company",
            1 << 19,
        ),
    ] {
        let rules = Rules::standard(4).with_changes(changes).unwrap();
        let setup =
            TableSetup::<Domino>::new(rules, &[Strategy::parse(strategy).unwrap()], false).unwrap();
        common::games(&mut g, label, &setup, n);
    }
    g.finish();
}

fn search(c: &mut Criterion) {
    // One decision of `search:64` and of `ismcts:300` in a four-player block game: the first
    // position (after `company` plays) where the player to act has a choice.
    let mut g = c.benchmark_group("domino_search");
    g.sample_size(10);
    let mut deal = Stream::seed_from_u64(3);
    let mut game = DominoState::deal(&Rules::standard(4), &Start::default(), &mut deal);
    while game.action_count() < 3 {
        let a = tahur::games::domino::bots::company_action(&game.view(game.to_act()));
        game.apply(a, &mut deal).unwrap();
    }
    for (name, bot, n) in [
        ("decision_64_deals", "search:64", 64u64),
        ("ismcts_decision_300_iterations", "ismcts:300", 300),
    ] {
        let mut bot = Bot::new(Strategy::parse(bot).unwrap());
        g.throughput(Throughput::Elements(n));
        g.bench_function(name, |b| {
            let mut rng = Stream::seed_from_u64(7);
            b.iter(|| black_box(bot.act(&game.view(game.to_act()), &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(benches, games, search);
criterion_main!(benches);
