//! Durak speed: whole games per second through the shared runner (dealing, bots, rule checks of
//! every action, tallies), on 1 and 2 threads: two-player random against random (the issue's
//! target: at least 750 000 games/s on 2 cores), four-player greedy and four-player expert, and
//! ISMCTS decisions. Run with `cargo bench --features bench --bench durak`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use std::hint::black_box;
use tahur::games::durak::bots::{Bot, Strategy};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::games::durak::Durak;
use tahur::games::durak::DurakState;
use tahur::play::TableSetup;
use tahur::play::{Start, State};
use tahur::rng::Stream;

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("durak_games");
    g.sample_size(10);
    for (label, players, strategy, n) in [
        ("2p_random", 2u8, Strategy::Random, 1u64 << 20),
        ("4p_greedy", 4, Strategy::Greedy, 1 << 19),
        ("4p_expert", 4, Strategy::Expert, 1 << 18),
    ] {
        let setup = TableSetup::<Durak>::new(
            Rules::standard(Variant::Podkidnoy, players),
            &[strategy],
            false,
        )
        .unwrap();
        common::games(&mut g, label, &setup, n);
    }
    g.finish();
}

fn search(c: &mut Criterion) {
    // One ISMCTS decision of 1000 iterations at the first move of a four-player game.
    let mut g = c.benchmark_group("durak_ismcts");
    g.sample_size(10);
    let rules = Rules::standard(Variant::Podkidnoy, 4);
    let game = DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(3));
    let mut bot = Bot::new(Strategy::Ismcts { budget: 1000 });
    g.throughput(Throughput::Elements(1000));
    g.bench_function("decision_1000_iterations", |b| {
        let mut rng = Stream::seed_from_u64(7);
        b.iter(|| black_box(bot.act(&game.view(game.to_act()), &mut rng)))
    });
    g.finish();
}

criterion_group!(benches, games, search);
criterion_main!(benches);
