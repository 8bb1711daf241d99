//! Cheat sheets measured from play (`GAME sheet`): games per second of a sheet's measurement
//! (each game played by the reference strategy, one situation per topic rolled out 8 times with
//! every option) on 1 and 2 threads, and whole games per second of each `sheet` bot against its
//! reference, beside the reference alone (the cost of sorting every decision into the sheet).
//! Run with `cargo bench --features bench --bench sheets`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tahur::games::{domino::Domino, durak::Durak, ocho::Ocho};
use tahur::play::sheet::{self, SheetGame, SheetSimulation, SheetSpec};
use tahur::play::{GameRules, Strategy, TableSetup};

fn measure<G: SheetGame>(c: &mut Criterion, games: u64) {
    let mut g = c.benchmark_group("sheet_measure");
    g.sample_size(10);
    let spec = SheetSpec {
        sheet: 0,
        games,
        seed: 1,
        rollouts: G::SHEET_ROLLOUTS,
    };
    let sim = SheetSimulation::<G>::new(&spec);
    g.throughput(Throughput::Elements(games));
    common::on_threads(
        &mut g,
        G::INFO.key,
        &sim,
        &common::spec(games, sheet::CHUNK),
        |t| t.games,
    );
    g.finish();
}

fn bots<G: SheetGame>(c: &mut Criterion, players: usize, reference: &str, games: u64) {
    let mut g = c.benchmark_group("sheet_bot_games");
    g.sample_size(10);
    for line in ["sheet".to_string(), reference.to_string()] {
        let list = G::Strategy::parse_list(&line).unwrap();
        let setup = TableSetup::<G>::new(G::Rules::standard(players), &list, false).unwrap();
        common::games(
            &mut g,
            &format!("{}_{players}p_{line}", G::INFO.key),
            &setup,
            games,
        );
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    measure::<Durak>(c, 1 << 12);
    measure::<Domino>(c, 1 << 12);
    measure::<Ocho>(c, 1 << 10);
    bots::<Durak>(c, 2, "greedy", 1 << 17);
    bots::<Domino>(c, 4, "company", 1 << 17);
    bots::<Ocho>(c, 4, "greedy", 1 << 15);
}

criterion_group!(benches, all);
criterion_main!(benches);
