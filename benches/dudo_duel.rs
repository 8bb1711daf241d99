//! Dudo duel solver speed: CFR+ iterations with full recall (one die a side) and in the
//! standing-bid abstraction (three dice a side, 1 and 2 threads).
//!
//! Run with `cargo bench --features bench --bench dudo_duel`; figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tahur::games::dudo::duel::full::FullRecall;
use tahur::games::dudo::duel::last_bid::{LastBid, Recall};
use tahur::games::dudo::duel::{DuelGame, DuelRules};

fn full_recall(c: &mut Criterion) {
    let game = DuelGame::new(DuelRules::Plain, 1);
    let mut g = c.benchmark_group("duel_full_recall");
    g.bench_function("plain_1die_iteration", |b| {
        let mut s = FullRecall::new(&game);
        b.iter(|| s.iterate())
    });
    g.finish();
}

fn abstraction(c: &mut Criterion) {
    let game = DuelGame::new(DuelRules::Chimbo9, 3);
    let mut g = c.benchmark_group("duel_standing_bid");
    g.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        g.bench_with_input(
            BenchmarkId::new("chimbo9_3dice_iteration", threads),
            &threads,
            |b, _| {
                let mut s = LastBid::new(&game, Recall::StandingBid);
                b.iter(|| pool.install(|| s.iterate()))
            },
        );
    }
    g.finish();
}

criterion_group!(benches, full_recall, abstraction);
criterion_main!(benches);
