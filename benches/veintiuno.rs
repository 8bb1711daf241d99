//! 21 ecuatoriano speed: hands per second with a fixed strategy (`basic`), one player against
//! the bank and a table of four, on 1 and 2 threads. Run with `cargo bench --features bench --bench veintiuno`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tahur::games::veintiuno::engine::{BankPolicy, PlayerPolicy};
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::sim::{HandSimSetup, HandSimulation, HANDS_CHUNK};
use tahur::runner::{run, RunControl, RunSpec};

fn hands(c: &mut Criterion) {
    let mut g = c.benchmark_group("veintiuno_hands");
    g.sample_size(10);
    let n = 64 * HANDS_CHUNK;
    g.throughput(Throughput::Elements(n));
    let spec = RunSpec {
        samples: n,
        seed: 1,
        chunk_size: HANDS_CHUNK,
    };
    for players in [2usize, 4] {
        let setup = HandSimSetup::new(
            Options::default(),
            players,
            &[PlayerPolicy::basic()],
            BankPolicy::default(),
            false,
        )
        .unwrap();
        let sim = HandSimulation::new(&setup);
        for threads in [1usize, 2] {
            g.bench_with_input(
                BenchmarkId::new(format!("{players}_seats"), threads),
                &threads,
                |b, &t| {
                    let control = RunControl {
                        threads: Some(t),
                        progress: tahur::progress::Progress::hidden(),
                    };
                    b.iter(|| black_box(run(&sim, &spec, None, &control).unwrap().tally.bank_net))
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
