//! Whole Dudo games: speed of 6-player tables with threshold bots, of the `duel` player in
//! two-player games, and a rule-checked run of one million games (every invariant checked after
//! every action) that must find no violation.
//!
//! Run with `cargo bench --features bench --bench dudo_games`; figures go to BENCHMARKS.md.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Instant;
use tahur::games::dudo::bots::Strategy;
use tahur::games::dudo::Dudo;
use tahur::games::dudo::{RuleSet, Rules};
use tahur::play::sim::GameSimulation;
use tahur::play::TableSetup;
use tahur::runner::{run, RunControl, RunSpec};

fn checked_million() {
    let mut total = 0u64;
    let start = Instant::now();
    for (set, mix) in [
        (
            RuleSet::Chimbo9,
            vec![
                Strategy::threshold(0.4, 0.1),
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
    let cases = [
        (
            "chimbo9_6p_threshold",
            Rules::standard(RuleSet::Chimbo9, 6),
            Strategy::threshold(0.4, 0.0),
        ),
        (
            "caleuchano_6p_threshold",
            Rules::standard(RuleSet::Caleuchano, 6),
            Strategy::threshold(0.4, 0.0),
        ),
        (
            "chimbo9_6p_random",
            Rules::standard(RuleSet::Chimbo9, 6),
            Strategy::Random,
        ),
    ];
    for (name, cfg, s) in cases {
        let setup = TableSetup::<Dudo>::new(cfg, &[s], false).unwrap();
        common::games(&mut g, name, &setup, games);
    }
    // The solved duel as a player against `tuned`, beside `tuned` against itself: what reading
    // the sheet costs per game.
    for (name, set, list) in [
        ("chimbo9_2p_tuned", RuleSet::Chimbo9, vec![Strategy::Tuned]),
        (
            "chimbo9_2p_duel_tuned",
            RuleSet::Chimbo9,
            vec![Strategy::Duel, Strategy::Tuned],
        ),
        (
            "caleuchano_2p_duel_tuned",
            RuleSet::Caleuchano,
            vec![Strategy::Duel, Strategy::Tuned],
        ),
    ] {
        let setup = TableSetup::<Dudo>::new(Rules::standard(set, 2), &list, false).unwrap();
        common::games(&mut g, name, &setup, games);
    }
    g.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
