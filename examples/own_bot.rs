//! Your own bot in a few dozen lines, measured against the built-in ones with the shared
//! tournament: every strategy meets every other with the seats rotated on the same deals.
//!
//! The bot, *saver*, keeps its trumps while the stock lasts: it plays its cheapest card, but
//! rather than spend a trump to beat or to throw in it takes or passes.
//!
//! ```sh
//! cargo run --release --example own_bot               # 20 000 games per pair
//! cargo run --release --example own_bot -- 2e5
//! ```

use std::fmt;

use tahur::games::durak::bots::Strategy as BuiltIn;
use tahur::games::durak::cards::{Card, Cards};
use tahur::games::durak::engine::{Action, Phase, View};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::games::durak::Durak;
use tahur::play::tournament::{self, TournamentSetup, TournamentSimulation};
use tahur::play::{Bot, Mixed, Strategy};
use tahur::rng::Stream;
use tahur::runner::{run, RunControl, RunSpec, RunSummary};

/// The strategy as written on a command line: `saver`.
#[derive(Clone, Debug, PartialEq)]
struct Saver;

impl fmt::Display for Saver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("saver")
    }
}

impl Strategy<Durak> for Saver {
    type Bot = Saver;
    fn parse(text: &str) -> tahur::Result<Saver> {
        let spec = tahur::text::Spec::parse(text, "strategy")?;
        match spec.name.as_str() {
            "saver" => spec.params(&[]).map(|_| Saver),
            _ => Err(spec.unknown("strategies are saver")),
        }
    }
    fn bot(&self, _rules: &Rules) -> Saver {
        Saver
    }
}

impl Bot<Durak> for Saver {
    /// Decides from what the player sees: its hand, the table, the trump, the stock.
    fn act(&mut self, view: &View<'_>, _rng: &mut Stream) -> Action {
        let legal = view.legal();
        let trump = view.trump();
        let cost = |c: &Card| c.rank() as u32 + if c.suit() == trump { 13 } else { 0 };
        let cheapest = Cards(legal.plays).min_by_key(cost);
        let keeps_trumps = view.stock_len() > 0 && view.phase() != Phase::Attack;
        match cheapest {
            Some(c) if c.suit() != trump || !keeps_trumps => Action::Play(c),
            _ if legal.pass => Action::Pass,
            _ if legal.take => Action::Take,
            Some(c) => Action::Play(c),
            None => legal.nth(0),
        }
    }
}

/// Plays the tournament and returns the ranking, best first.
fn tournament(games: u64, threads: Option<usize>) -> tahur::Result<Vec<String>> {
    // The built-in bots and ours in one line-up, each with its own static dispatch.
    type Entrant = Mixed<BuiltIn, Saver>;
    let entrants = Entrant::parse_list("random,greedy,expert,saver")?;
    let setup = TournamentSetup::<Durak, Entrant>::new(
        Rules::standard(Variant::Podkidnoy, 2),
        &entrants,
        false,
    )?;
    let sim = TournamentSimulation::new(&setup);
    let spec = RunSpec {
        samples: setup.deals_for(games),
        seed: 7,
        chunk_size: setup.chunk_size(),
    };
    let control = RunControl {
        threads,
        progress: tahur::progress::Progress::hidden(),
    };
    let result = run(&sim, &spec, None, &control)?;
    let report = tournament::report(&setup, &result.tally, &RunSummary::of(spec, &result));
    print!(
        "{}",
        tahur::report::render(&report, tahur::report::Format::Text)?
    );
    Ok(tournament::standings(&setup, &result.tally)
        .iter()
        .map(|s| setup.strategies[s.strategy].to_string())
        .collect())
}

fn main() {
    let games = std::env::args()
        .nth(1)
        .and_then(|s| tahur::text::parse_count(&s))
        .unwrap_or(20_000);
    if let Err(e) = tournament(games, None) {
        eprintln!("own_bot: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_with_a_small_count_and_saver_beats_random() {
        let ranking = super::tournament(400, Some(2)).unwrap();
        assert_eq!(ranking.len(), 4);
        assert_eq!(ranking.last().unwrap(), "random", "{ranking:?}");
    }
}
