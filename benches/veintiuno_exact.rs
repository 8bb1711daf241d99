//! 21 ecuatoriano's exact sheet: `veintiuno strategy` (every cell by enumeration over the cards
//! left) for a fresh shoe, a depleted one and a depleted eight-deck shoe, on 1 and 2 threads
//! (the target: any shoe state in under 5 s on 2 cores), and `veintiuno advise` answered from
//! the built-in sheet (the target: under 50 ms). Run with `cargo bench --features bench --bench veintiuno_exact`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tahur::games::veintiuno::advise::{report, sheet_for};
use tahur::games::veintiuno::cards::{Card, Composition};
use tahur::games::veintiuno::engine::BankPolicy;
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::strategy::{derive_exact, StrategyQuery};

fn sheet(c: &mut Criterion) {
    let mut g = c.benchmark_group("veintiuno_exact_sheet");
    g.sample_size(10);
    let opts = Options::default();
    // Eight decks with a few cards gone: no two suits alike, so every up card is solved (40),
    // and splits go six deep before the shoe is taken as it stands.
    for (name, decks, removed) in [
        ("fresh", 1, ""),
        ("depleted", 1, "AH,AS,KD,KS,QH,5C,7C,2D,3H,6S,JC"),
        ("eight_decks_depleted", 8, "KD,QH,5C,7C,2S,6H"),
    ] {
        let q = StrategyQuery {
            options: Options { decks, ..opts },
            composition: Composition::from_removed(decks, removed).unwrap(),
            bank: BankPolicy::fixed(17),
            infinite: false,
            samples: 0,
            seed: 0,
        };
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            g.bench_function(format!("{name}/{threads}"), |b| {
                b.iter(|| pool.install(|| black_box(derive_exact(&q))))
            });
        }
    }
    g.finish();
}

fn advise(c: &mut Criterion) {
    let mut g = c.benchmark_group("veintiuno_advise");
    let opts = Options::default();
    let comp = Composition::full(1);
    let hand = [Card::parse("KH").unwrap(), Card::parse("6S").unwrap()];
    let up = Card::parse("7C").unwrap();
    // The whole answer: the built-in sheet parsed, its cell found, the report made.
    g.bench_function("built_in_sheet", |b| {
        b.iter(|| {
            let (sheet, source) = sheet_for(&comp, &opts, BankPolicy::fixed(17), true).unwrap();
            black_box(report(&hand, up, &sheet, &opts, &source).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, sheet, advise);
criterion_main!(benches);
