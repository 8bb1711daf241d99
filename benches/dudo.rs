//! Dudo speed: raw dice, Monte Carlo of one bid (1 and 2 threads), exact queries.
//!
//! Run with `cargo bench --features bench --bench dudo`; figures go to BENCHMARKS.md.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tahur::games::dudo::montecarlo::{BidSimulation, BID_CHUNK};
use tahur::games::dudo::table::{self, TableQuery};
use tahur::games::dudo::{Bid, Bidding, Face, RuleSet, Situation};
use tahur::rng::{base_stream, DiceRoller, Rng};

const BUF: usize = 24 * 1024;

/// One die per 64-bit draw with Lemire's nearly-divisionless rejection: the textbook method.
fn lemire_die(rng: &mut impl Rng) -> u8 {
    loop {
        let m = (rng.next_u64() as u128) * 6;
        let low = m as u64;
        // 2^64 mod 6 = 4: rejecting low products below 4 makes every face equally likely.
        if low >= 4 {
            return (m >> 64) as u8 + 1;
        }
    }
}

fn raw_dice(c: &mut Criterion) {
    let mut g = c.benchmark_group("raw_dice");
    g.throughput(Throughput::Elements(BUF as u64));
    g.bench_function("xoshiro256pp_next_u64", |b| {
        let mut rng = base_stream(1);
        b.iter(|| {
            let mut acc = 0u64;
            for _ in 0..BUF {
                acc ^= rng.next_u64();
            }
            black_box(acc)
        })
    });
    g.bench_function("lemire_one_die_per_draw", |b| {
        let mut rng = base_stream(1);
        let mut buf = vec![0u8; BUF];
        b.iter(|| {
            for d in buf.iter_mut() {
                *d = lemire_die(&mut rng);
            }
            black_box(&buf);
        })
    });
    g.bench_function("tahur_fill_individual_dice", |b| {
        let mut dice = DiceRoller::new(base_stream(1));
        let mut buf = vec![0u8; BUF];
        b.iter(|| {
            dice.fill(&mut buf);
            black_box(&buf);
        })
    });
    g.finish();
}

fn situation30() -> Situation {
    Situation::new(30, vec![], vec![], Bidding::new(RuleSet::Chimbo9), false).unwrap()
}

fn monte_carlo(c: &mut Criterion) {
    let mut g = c.benchmark_group("dudo_bid_monte_carlo_30_dice");
    let samples = 128 * BID_CHUNK;
    g.throughput(Throughput::Elements(samples * 30));
    g.sample_size(20);
    let s = situation30();
    let sim = BidSimulation::new(&s, Face::new(4).unwrap());
    let spec = common::spec(samples, BID_CHUNK);
    common::on_threads(&mut g, "threads", &sim, &spec, |tally| tally.counts[15]);
    g.finish();
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("dudo_exact");
    let bid = Bid::parse("15 cuadras").unwrap();
    let s30 = Situation::new(
        30,
        vec![Face::ACE, Face::new(4).unwrap()],
        vec![],
        Bidding::new(RuleSet::Chimbo9),
        false,
    )
    .unwrap();
    g.bench_function("prob_30_dice", |b| b.iter(|| black_box(s30.odds(bid))));
    let s1000 =
        Situation::new(1000, vec![], vec![], Bidding::new(RuleSet::Chimbo9), false).unwrap();
    g.bench_function("prob_1000_dice", |b| {
        b.iter(|| black_box(s1000.odds(Bid::parse("340 cuadras").unwrap())))
    });
    let q = TableQuery {
        situation: situation30(),
        levels: vec![0.5],
        all_rows: false,
    };
    g.bench_function("table_30_dice", |b| b.iter(|| black_box(table::report(&q))));
    g.finish();
}

criterion_group!(benches, raw_dice, monte_carlo, exact);
criterion_main!(benches);
