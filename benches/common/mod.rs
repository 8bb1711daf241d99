//! The harness every bench shares (`mod common;`): a run timed on 1 and 2 threads under the ids
//! `GROUP/NAME/1` and `GROUP/NAME/2` (the ids BENCHMARKS.md compares), and whole games of a
//! table through the shared runner.
// Each bench uses the part it needs.
#![allow(dead_code)]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Throughput};
use std::hint::black_box;
use tahur::play::sim::GameSimulation;
use tahur::play::{Game, TableSetup};
use tahur::runner::{run, RunControl, RunSpec, Simulation};

/// The thread counts every run is timed on.
pub const THREADS: [usize; 2] = [1, 2];

/// Runs on `threads` workers, without a progress bar.
pub fn control(threads: usize) -> RunControl {
    RunControl {
        threads: Some(threads),
        progress: tahur::progress::Progress::hidden(),
    }
}

/// `samples` from seed 1 in chunks of `chunk_size`.
pub fn spec(samples: u64, chunk_size: u64) -> RunSpec {
    RunSpec {
        samples,
        seed: 1,
        chunk_size,
    }
}

/// Times `sim` running `spec` on 1 and 2 threads, as `NAME/1` and `NAME/2` in group `g`. `keep`
/// takes a figure of the tally, which is kept so that the work cannot be optimised away.
pub fn on_threads<S: Simulation, T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    sim: &S,
    spec: &RunSpec,
    keep: impl Fn(S::Tally) -> T,
) {
    for threads in THREADS {
        g.bench_with_input(BenchmarkId::new(name, threads), &threads, |b, &t| {
            let control = control(t);
            b.iter(|| black_box(keep(run(sim, spec, None, &control).unwrap().tally)))
        });
    }
}

/// Whole games per second of `setup`: `games` games from seed 1 in the table's own chunks, on 1
/// and 2 threads, as `NAME/1` and `NAME/2` in group `g`.
pub fn games<G: Game>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    setup: &TableSetup<G>,
    games: u64,
) {
    let sim = GameSimulation::new(setup);
    g.throughput(Throughput::Elements(games));
    on_threads(g, name, &sim, &spec(games, setup.chunk_size()), |tally| {
        tally.games
    });
}
