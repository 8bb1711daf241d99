//! Póker mentiroso speed: whole games per second through the shared runner (first throws,
//! calls, die-by-die re-rolls by the exact plan, claims, points), on 1 and 2 threads: four
//! players to 3 points with `threshold` bots (the target: at least 200 000 games/s on
//! 2 cores), `tuned` and `random`; the exact queries (a re-roll plan, a call's chances); and one
//! `ismcts` decision (the receiver's call or accept, 300 iterations).
//! Run with `cargo bench --features bench --bench poker`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use std::hint::black_box;
use tahur::games::poker::bots::{Bot, Strategy};
use tahur::games::poker::engine::{Action, PokerState, ALL_DICE};
use tahur::games::poker::hand::{Claim, Counts};
use tahur::games::poker::reports::{self, ChancesQuery, RerollQuery};
use tahur::games::poker::rules::Rules;
use tahur::games::poker::tables::{plan, tables};
use tahur::games::poker::Poker;
use tahur::play::{Start, State, TableSetup};
use tahur::rng::Stream;

fn games(c: &mut Criterion) {
    // The shared tables and every plan are built once per process, before the timing.
    for need in 0..=252 {
        black_box(plan(need));
    }
    let mut g = c.benchmark_group("poker_games");
    g.sample_size(10);
    for (label, players, strategy, n) in [
        ("4p_threshold", 4u8, "threshold", 1u64 << 19),
        ("4p_tuned", 4, "tuned", 1 << 19),
        ("2p_threshold", 2, "threshold", 1 << 20),
        ("4p_random", 4, "random", 1 << 16),
    ] {
        let setup = TableSetup::<Poker>::new(
            Rules::standard(players),
            &[Strategy::parse(strategy).unwrap()],
            false,
        )
        .unwrap();
        common::games(&mut g, label, &setup, n);
    }
    g.finish();
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("poker_exact");
    let dice = Counts::parse("AAKQJ", "d").unwrap();
    let beat = Claim::parse("trío de reyes").unwrap();
    let q = RerollQuery::new(dice, Counts::EMPTY, Some(beat), None).unwrap();
    g.bench_function("reroll_AAKQJ_beat_trio_de_reyes", |b| {
        b.iter(|| black_box(reports::reroll(&q).plan_chance))
    });
    let q = ChancesQuery {
        public: Counts::parse("AA", "d").unwrap(),
        claim: Claim::parse("full de ases").unwrap(),
        players: 4,
    };
    tables();
    g.bench_function("chances_AA_full_de_ases", |b| {
        b.iter(|| black_box(reports::chances(&q)))
    });
    g.finish();
}

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("poker_ismcts");
    g.sample_size(10);
    let rules = Rules::standard(4);
    // A receiver deciding on the first claim of a game.
    let mut rng = Stream::seed_from_u64(3);
    let mut game = PokerState::deal(&rules, &Start::default(), &mut rng);
    let throw = Action::Throw {
        dice: ALL_DICE,
        open: false,
    };
    game.apply(throw, &mut rng).unwrap();
    game.apply(Action::Claim(60), &mut rng).unwrap();
    let mut bot = Bot::new(&Strategy::Ismcts { budget: 300 }, &rules);
    g.throughput(Throughput::Elements(300));
    g.bench_function("decision_300_iterations", |b| {
        let mut rng = Stream::seed_from_u64(7);
        b.iter(|| black_box(bot.decide(&game.view(game.to_act()), &mut rng)))
    });
    g.finish();
}

criterion_group!(benches, games, exact, search);
criterion_main!(benches);
