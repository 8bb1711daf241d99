//! The question players bring first — *how likely are 15 cuadras with 30 dice when I hold
//! 1,4,4,2,6?* — through the library: the exact odds, then real dice rolled on the shared
//! runner, and how far the simulation lands from the exact value.
//!
//! ```sh
//! cargo run --release --example fifteen_cuadras            # 10 million rolls
//! cargo run --release --example fifteen_cuadras -- 1e8     # more
//! ```

use tahur::games::dudo::face::parse_dice;
use tahur::games::dudo::montecarlo::{BidSimulation, BID_CHUNK};
use tahur::games::dudo::{Bid, Bidding, RuleSet, Situation};
use tahur::humanize;
use tahur::runner::{run, RunControl, RunSpec};

/// The exact chance, the simulated one and its distance from exact in standard errors.
fn answer(samples: u64) -> tahur::Result<(f64, f64, f64)> {
    // Bids and dice are read as players say them.
    let bid = Bid::parse("quince cuadras")?;
    let hand = parse_dice("1,4,4,2,6", "hand")?;
    let situation = Situation::new(30, hand, vec![], Bidding::new(RuleSet::Chimbo9), false)?;

    // Exact: the dice you hold are known, each unknown die counts with probability 1/3.
    let exact = situation.odds(bid).at_least;

    // Sampled: every unknown die of every sample rolled, in chunks with their own streams.
    let sim = BidSimulation::new(&situation, bid.face);
    let spec = RunSpec {
        samples,
        seed: 2026,
        chunk_size: BID_CHUNK,
    };
    let tally = run(&sim, &spec, None, &RunControl::default())?.tally;
    let sampled = tally.at_least(bid.quantity);
    let ci = sampled.wilson(0.95);
    println!(
        "{} with 30 dice, holding 1,4,4,2,6 (Chimbo 9)",
        bid.spoken(RuleSet::Chimbo9)
    );
    println!("  exact      {}", humanize::chance(exact));
    println!(
        "  sampled    {} [{}, {}] from {} rolls",
        humanize::percent(sampled.estimate()),
        humanize::percent(ci.low),
        humanize::percent(ci.high),
        humanize::thousands(samples)
    );
    let z = sampled.z_score_against(exact);
    println!("  distance   {z:+.2} standard errors from exact");
    Ok((exact, sampled.estimate(), z))
}

fn main() {
    let samples = std::env::args()
        .nth(1)
        .and_then(|s| tahur::text::parse_count(&s))
        .unwrap_or(10_000_000);
    if let Err(e) = answer(samples) {
        eprintln!("fifteen_cuadras: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_with_a_small_count() {
        let (exact, sampled, z) = super::answer(200_000).unwrap();
        // 3 known + Binomial(25, 1/3) ≥ 12: 9.18 %.
        assert!((exact - 0.0918).abs() < 5e-4, "{exact}");
        assert!(
            (sampled - exact).abs() < 0.01 && z.abs() < 4.5,
            "{sampled} {z}"
        );
    }
}
