//! Whole Dudo games: speed of 6-player Chimbo 9 with threshold bots, and a rule-checked run of
//! one million games (every invariant checked after every action) that must find no violation.
//!
//! Run with `cargo bench --features bench --bench dudo_games`; figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Instant;
use tahur::games::dudo::bots::Strategy;
use tahur::games::dudo::Dudo;
use tahur::games::dudo::{RuleSet, Rules};
use tahur::play::sim::GameSimulation;
use tahur::play::{Game, TableSetup};
use tahur::runner::{run, RunControl, RunSpec};

fn checked_million() {
    let mut total = 0u64;
    let start = Instant::now();
    for (set, mix) in [
        (
            RuleSet::Chimbo9,
            vec![
                Strategy::Threshold { t: 0.4, bluff: 0.1 },
                Strategy::Random,
                Strategy::Honest,
            ],
        ),
        (
            RuleSet::Caleuchano,
            vec![Strategy::Tuned, Strategy::Random, Strategy::Honest],
        ),
    ] {
        for players in [2u8, 4, 6] {
            let setup = TableSetup::<Dudo>::new(
                Rules::standard(set, players),
                &mix[..mix.len().min(players as usize)],
                true,
            )
            .unwrap();
            let spec = RunSpec {
                samples: 1_000_000 / 6 + 1,
                seed: 2026,
                chunk_size: setup.chunk_size(),
            };
            let r = run(
                &GameSimulation::new(&setup),
                &spec,
                None,
                &RunControl::default(),
            )
            .unwrap();
            assert_eq!(
                r.tally.violations, 0,
                "rule violations in {set:?} with {players} players"
            );
            total += r.tally.games;
        }
    }
    eprintln!(
        "rule-checked games: {total}, violations: 0, {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

fn games(c: &mut Criterion) {
    checked_million();
    let mut g = c.benchmark_group("dudo_games");
    g.sample_size(10);
    let games = 20_000u64;
    g.throughput(Throughput::Elements(games));
    let spec = RunSpec {
        samples: games,
        seed: 1,
        chunk_size: <Dudo as Game>::INFO.chunk,
    };
    let cases = [
        (
            "chimbo9_6p_threshold",
            Rules::standard(RuleSet::Chimbo9, 6),
            Strategy::Threshold { t: 0.4, bluff: 0.0 },
        ),
        (
            "caleuchano_6p_threshold",
            Rules::standard(RuleSet::Caleuchano, 6),
            Strategy::Threshold { t: 0.4, bluff: 0.0 },
        ),
        (
            "chimbo9_6p_random",
            Rules::standard(RuleSet::Chimbo9, 6),
            Strategy::Random,
        ),
    ];
    for (name, cfg, s) in cases {
        let setup = TableSetup::<Dudo>::new(cfg, &[s], false).unwrap();
        let sim = GameSimulation::new(&setup);
        for threads in [1usize, 2] {
            g.bench_with_input(BenchmarkId::new(name, threads), &threads, |b, &t| {
                let control = RunControl {
                    threads: Some(t),
                    progress: tahur::progress::Progress::hidden(),
                };
                b.iter(|| black_box(run(&sim, &spec, None, &control).unwrap().tally.games))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
