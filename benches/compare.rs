//! Paired comparisons through the whole-game layer, games (21: hands) per second for both
//! tables together: Durak (4 players, greedy: podkidnoy against perevodnoy), Dudo (6 players,
//! threshold: 3 lives against 5) and 21 ecuatoriano (4 seats, basic: puje on against off).
//! Run with `cargo bench --features bench --bench compare`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tahur::games::dudo::{bots::Strategy as DudoStrategy, Dudo, RuleSet, Rules as DudoRules};
use tahur::games::durak::bots::Strategy as DurakStrategy;
use tahur::games::durak::rules::{Rules, Variant};
use tahur::games::durak::Durak;
use tahur::games::veintiuno::sim::parse_policy;
use tahur::games::veintiuno::sitting::TableRules;
use tahur::games::veintiuno::Veintiuno;
use tahur::play::compare::{CompareSetup, CompareSimulation};
use tahur::play::{Game, GameRules, TableSetup};

fn bench<G: Game>(c: &mut Criterion, name: &str, a: TableSetup<G>, b: G::Rules, samples: u64) {
    let b = TableSetup::new(b, &a.strategies, false).unwrap();
    let setup = CompareSetup::new(a, b, ["a".into(), "b".into()], None).unwrap();
    let sim = CompareSimulation::new(&setup);
    let spec = common::spec(samples, setup.chunk_size());
    let mut g = c.benchmark_group("compare");
    g.sample_size(10);
    g.throughput(Throughput::Elements(samples));
    common::on_threads(&mut g, name, &sim, &spec, |tally| tally.pairs);
    g.finish();
}

fn compare(c: &mut Criterion) {
    let durak = TableSetup::<Durak>::new(
        Rules::standard(Variant::Podkidnoy, 4),
        &[DurakStrategy::Greedy],
        false,
    )
    .unwrap();
    bench(
        c,
        "durak_4p_greedy_variant",
        durak,
        Rules::standard(Variant::Perevodnoy, 4),
        1 << 17,
    );
    let dudo = TableSetup::<Dudo>::new(
        DudoRules::standard(RuleSet::Chimbo9, 6),
        &[DudoStrategy::threshold(0.4, 0.0)],
        false,
    )
    .unwrap();
    let five = dudo.rules.with_changes("lives=5").unwrap();
    bench(c, "dudo_6p_threshold_lives", dudo, five, 1 << 14);
    let veintiuno = TableSetup::<Veintiuno>::new(
        TableRules::standard(4),
        &[parse_policy("basic").unwrap().into()],
        false,
    )
    .unwrap();
    let no_puje = veintiuno.rules.with_changes("puje=off").unwrap();
    bench(c, "veintiuno_4_seats_puje", veintiuno, no_puje, 64 * 4096);
}

criterion_group!(benches, compare);
criterion_main!(benches);
