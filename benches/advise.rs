//! Advice speed: rollouts per second at a typical mid-game position of each game with
//! positions, every legal action rolled out on the same deals by the game's rollout bots
//! (`Positions::ROLLOUT_BOTS`), on 1 and 2 threads. The target is 10 000 rollouts per
//! legal action in under 3 s on 2 cores: BENCHMARKS.md turns the rate into that time. Run with
//! `cargo bench --features bench --bench advise`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tahur::play::advise::{self, AdviceSetup, AdviceSimulation, CHUNK};
use tahur::play::position::{example, Positions};
use tahur::play::{Game, GameRules, Strategy};
use tahur::runner::run;

/// Times `deals` deals of advice at seed `seed`'s first game after `after` actions of the
/// rollout bots, at `players` players, as `NAME/1` and `NAME/2`; prints the position and its
/// number of actions once.
fn advice<G: Positions>(
    c: &mut Criterion,
    name: &str,
    rules: G::Rules,
    seed: u64,
    after: u64,
    deals: u64,
) {
    let bots = G::Strategy::parse_list(G::ROLLOUT_BOTS).unwrap();
    let position = example::<G, G::Strategy>(&rules, &bots, seed, after).unwrap();
    let actions = advise::legal_actions::<G>(&position).len() as u64;
    eprintln!(
        "{name}: {} legal actions at {}",
        actions,
        tahur::play::position::position_of::<G>(&position)
    );
    let setup = AdviceSetup::<G, G::Strategy> { position, bots };
    let sim = AdviceSimulation::new(&setup).unwrap();
    let spec = common::spec(deals, CHUNK);
    let mut g = c.benchmark_group("advise");
    g.sample_size(10);
    g.throughput(Throughput::Elements(deals * actions));
    for threads in common::THREADS {
        g.bench_with_input(
            criterion::BenchmarkId::new(name, threads),
            &threads,
            |b, &t| {
                let control = common::control(t);
                b.iter(|| black_box(run(&sim, &spec, None, &control).unwrap().tally.deals))
            },
        );
    }
    g.finish();
}

fn positions(c: &mut Criterion) {
    use tahur::games::domino::Domino;
    use tahur::games::dudo::Dudo;
    use tahur::games::durak::Durak;
    use tahur::games::ocho::Ocho;
    use tahur::games::poker::Poker;
    // Durak, 3 players, a few bouts in: an attack with 6 cards to choose from.
    advice::<Durak>(c, "durak_3p", GameRules::standard(3), 1, 16, 1024);
    // Dudo, Chimbo 9, 4 players, a few rounds in.
    let dudo: <Dudo as Game>::Rules = GameRules::standard(4);
    advice::<Dudo>(c, "dudo_4p", dudo, 1, 9, 512);
    // Póker, 4 players, the cup in hand after an accepted claim: 236 throws and claims.
    advice::<Poker>(c, "poker_4p", GameRules::standard(4), 1, 3, 128);
    // Dominó, 4 players in pairs, single games, a few tiles in.
    advice::<Domino>(c, "domino_4p", GameRules::standard(4), 1, 5, 1024);
    // Ocho loco, 4 players, a few turns in.
    advice::<Ocho>(c, "ocho_4p", GameRules::standard(4), 1, 12, 1024);
}

criterion_group!(benches, positions);
criterion_main!(benches);
