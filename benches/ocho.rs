//! Ocho loco speed: whole four-player games per second through the shared runner (dealing, every
//! decision, the tallies), on 1 and 2 threads: `random` ×4 (the target: at least 500 000
//! games/s on 2 cores), `greedy` ×4 (at least 200 000) and `expert` ×4; one `ismcts` decision;
//! and `value`'s deals (each played 9 times). Run with `cargo bench --features bench --bench ocho`.

mod common;

use common::control;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use std::hint::black_box;
use tahur::games::ocho::bots::{Bot, Kind, Strategy};
use tahur::games::ocho::rules::Rules;
use tahur::games::ocho::value::{ValueSetup, ValueSimulation};
use tahur::games::ocho::{Ocho, OchoState};
use tahur::play::{Start, State, TableSetup};
use tahur::rng::Stream;
use tahur::runner::run;

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("ocho_games");
    g.sample_size(10);
    for (label, kind, n) in [
        ("4p_random", Kind::Random, 1u64 << 19),
        ("4p_greedy", Kind::Greedy, 1 << 18),
        ("4p_expert", Kind::Expert, 1 << 18),
    ] {
        let setup =
            TableSetup::<Ocho>::new(Rules::standard(4), &[Strategy::of(kind)], false).unwrap();
        common::games(&mut g, label, &setup, n);
    }
    g.finish();
}

fn value(c: &mut Criterion) {
    let mut g = c.benchmark_group("ocho_value");
    g.sample_size(10);
    let setup = ValueSetup {
        table: TableSetup::<Ocho>::new(Rules::standard(4), &[Strategy::of(Kind::Greedy)], false)
            .unwrap(),
        forget: 0.25,
    };
    let sim = ValueSimulation::new(&setup);
    let n = 1u64 << 14;
    let spec = common::spec(n, tahur::runner::Simulation::chunk_size(&sim));
    g.throughput(Throughput::Elements(n));
    g.bench_function("4p_greedy_deals_2_threads", |b| {
        b.iter(|| black_box(run(&sim, &spec, None, &control(2)).unwrap().tally.deals))
    });
    g.finish();
}

fn search(c: &mut Criterion) {
    // One ISMCTS decision of 200 iterations at the first move of a four-player game.
    let mut g = c.benchmark_group("ocho_ismcts");
    g.sample_size(10);
    let game = OchoState::deal(
        &Rules::standard(4),
        &Start::default(),
        &mut Stream::seed_from_u64(3),
    );
    let mut bot = Bot::new(Strategy::of(Kind::Ismcts { budget: 200 }));
    g.throughput(Throughput::Elements(200));
    g.bench_function("decision_200_iterations", |b| {
        let mut rng = Stream::seed_from_u64(7);
        b.iter(|| black_box(bot.act(&game.view(game.to_act()), &mut rng)))
    });
    g.finish();
}

criterion_group!(benches, games, value, search);
criterion_main!(benches);
