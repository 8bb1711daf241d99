//! 21 ecuatoriano speed: hands per second with a fixed strategy (`basic`), one player against
//! the bank and a table of four, on 1 and 2 threads. Run with `cargo bench --features bench --bench veintiuno`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tahur::games::veintiuno::engine::{BankPolicy, PlayerPolicy};
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::sim::{HandSimSetup, HandSimulation, HANDS_CHUNK};

fn hands(c: &mut Criterion) {
    let mut g = c.benchmark_group("veintiuno_hands");
    g.sample_size(10);
    let n = 64 * HANDS_CHUNK;
    g.throughput(Throughput::Elements(n));
    let spec = common::spec(n, HANDS_CHUNK);
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
        let name = format!("{players}_seats");
        common::on_threads(&mut g, &name, &sim, &spec, |tally| tally.bank_net);
    }
    g.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
