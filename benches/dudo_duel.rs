//! Dudo duel solver speed: CFR+ iterations with full recall (one die a side) and in the
//! standing-bid abstraction (three dice a side, 1 and 2 threads); the shipped two-dice table
//! read from its compact file and judged by exact best responses (what CI's check does).
//!
//! Run with `cargo bench --features bench --bench dudo_duel`; figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tahur::games::dudo::duel::full::FullRecall;
use tahur::games::dudo::duel::last_bid::{LastBid, Recall};
use tahur::games::dudo::duel::recall::RecallTable;
use tahur::games::dudo::duel::{DuelGame, DuelRules};

/// A pool of `threads` workers, for a figure per thread count.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

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
        let pool = pool(threads);
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

fn two_dice_table(c: &mut Criterion) {
    let game = DuelGame::new(DuelRules::Plain, 2);
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/dudo/duel-plain-2-full.table.gz"
    ))
    .expect("the shipped two-dice table");
    let mut g = c.benchmark_group("duel_table");
    g.sample_size(10);
    g.bench_function("plain_2dice_read", |b| {
        b.iter(|| RecallTable::read(&bytes, &game, "table").expect("a table"))
    });
    let table = RecallTable::read(&bytes, &game, "table").expect("a table");
    for threads in [1, 2] {
        let pool = pool(threads);
        g.bench_with_input(
            BenchmarkId::new("plain_2dice_judge", threads),
            &threads,
            |b, _| b.iter(|| pool.install(|| table.judge(&game))),
        );
    }
    g.finish();
}

criterion_group!(benches, full_recall, abstraction, two_dice_table);
criterion_main!(benches);
