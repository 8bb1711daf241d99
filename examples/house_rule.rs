//! A house-rule question answered with a paired comparison: in Dudo Caleuchano, does paso (pass
//! instead of raising, once a round) help the first opener, and does it help a strong player —
//! a `tuned` bot among `honest` ones — or the honest ones?
//!
//! Both tables play the same games from the same streams (common random numbers): game *i*
//! with paso and game *i* without it start from the same dice, and every figure is a paired
//! difference with its interval and test.
//!
//! ```sh
//! cargo run --release --example house_rule            # 100 000 paired games
//! cargo run --release --example house_rule -- 1e6
//! ```

use tahur::games::dudo::bots::Strategy as DudoStrategy;
use tahur::games::dudo::{Dudo, RuleSet, Rules};
use tahur::humanize;
use tahur::play::compare::{comparisons, CompareSetup, CompareSimulation, RowKind};
use tahur::play::{GameRules, Strategy, TableSetup};
use tahur::runner::{run, RunControl, RunSpec};

/// Each comparison's name, difference (points for rates) and p-value.
fn paso_question(games: u64) -> tahur::Result<Vec<(String, f64, f64)>> {
    let with_paso = Rules::standard(RuleSet::Caleuchano, 5);
    let without = with_paso.with_changes("paso=off")?;
    let line_up = DudoStrategy::parse_list("tuned,honest")?;
    let setup = CompareSetup::<Dudo>::new(
        TableSetup::new(with_paso, &line_up, false)?,
        TableSetup::new(without, &line_up, false)?,
        ["paso".into(), "no paso".into()],
        None,
    )?;
    let sim = CompareSimulation::new(&setup);
    let spec = RunSpec {
        samples: games,
        seed: 11,
        chunk_size: setup.chunk_size(),
    };
    let tally = run(&sim, &spec, None, &RunControl::default())?.tally;
    println!(
        "Caleuchano, 5 players ({}), {} paired games: with paso (A) against without (B)",
        setup.a.names().join(", "),
        humanize::thousands(tally.pairs)
    );
    let mut out = Vec::new();
    for row in comparisons(&setup, &tally) {
        let d = row.diff;
        let (a, b, diff, unit) = match row.kind {
            RowKind::Rate => (
                humanize::percent(d.a),
                humanize::percent(d.b),
                d.difference * 100.0,
                " points",
            ),
            RowKind::Mean => (
                format!("{:.3}", d.a),
                format!("{:.3}", d.b),
                d.difference,
                "",
            ),
            // The first player's edge, already in percentage points.
            RowKind::Edge => (
                format!("{:.2}", d.a),
                format!("{:.2}", d.b),
                d.difference,
                " points",
            ),
        };
        let verdict = if d.p_value < 0.05 {
            "shown"
        } else {
            "not shown"
        };
        let p = tahur::report::Value::PValue(d.p_value).display();
        println!(
            "  {:<52} {a:>9} → {b:>9}   A − B {diff:+.3}{unit} (p {p}: {verdict})",
            row.name
        );
        out.push((row.name, diff, d.p_value));
    }
    Ok(out)
}

fn main() {
    let games = std::env::args()
        .nth(1)
        .and_then(|s| tahur::text::parse_count(&s))
        .unwrap_or(100_000);
    if let Err(e) = paso_question(games) {
        eprintln!("house_rule: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_with_a_small_count() {
        let rows = super::paso_question(2000).unwrap();
        let row = |name: &str| rows.iter().find(|r| r.0 == name).expect(name).clone();
        row("the first opener wins");
        // Every game has one winner: what the tuned seats gain, the honest ones lose.
        let (tuned, honest) = (
            row("a seat playing tuned wins"),
            row("a seat playing honest wins"),
        );
        assert!((tuned.1 + honest.1).abs() < 1e-9, "{tuned:?} {honest:?}");
        assert!(rows.iter().all(|r| (0.0..=1.0).contains(&r.2)));
    }
}
