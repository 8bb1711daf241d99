//! `tahur ocho value | deal` (sim, compare, tournament and flags come from [`super::play`]).

use clap::{ArgMatches, Args, Subcommand};

use super::{emit, OutputArgs};
use crate::error::Result;
use crate::games::ocho::bots::Strategy;
use crate::games::ocho::deal::{self, DealSimulation};
use crate::games::ocho::rules::Rules;
use crate::games::ocho::value::{self, ValueSetup, ValueSimulation};
use crate::games::ocho::Ocho;
use crate::play::TableSetup;
use crate::runner::{RunControl, RunSpec, RunSummary, Simulation};
use crate::text::parse_samples;

/// Ocho loco commands of its own.
#[derive(Subcommand, Debug)]
pub enum OchoCommand {
    /// What each special card is worth: the change in going out first (and in being left
    /// last) when one plain card of a hand is replaced by an A, 2, 3, joker, 8, J or K, on the
    /// same deals (paired), and what forgetting «voy por una» costs.
    #[command(after_help = "Examples:
  tahur ocho value --players 4
  tahur ocho value --players 4 --strategies expert --deals 1e5 --forget 0.5
  tahur ocho value --players 6 --joker three --format json

Each deal is played as dealt and once per variant (9 games a deal).")]
    Value(ValueCmd),
    /// Exact odds of the deal: an 8 in hand, specials per hand, the starter's chance of a
    /// card that plays on the turned card; with --samples, simulated deals next to them.
    #[command(after_help = "Examples:
  tahur ocho deal --players 4
  tahur ocho deal --players 6 --samples 1e6
  tahur ocho deal --players 3 --joker three --format markdown")]
    Deal(DealCmd),
}

/// `--players`, the game's rule flags and `--house`, as every Ocho loco command has them.
#[derive(Clone, Debug)]
pub struct TableArgs {
    matches: ArgMatches,
}

impl TableArgs {
    /// The rules the flags describe.
    fn rules(&self) -> Result<Rules> {
        super::play::rules::<Ocho>(&self.matches)
    }
}

impl clap::FromArgMatches for TableArgs {
    fn from_arg_matches(m: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        Ok(Self { matches: m.clone() })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> std::result::Result<(), clap::Error> {
        self.matches = m.clone();
        Ok(())
    }
}

impl Args for TableArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        super::play::rule_args::<Ocho>(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        super::play::rule_args::<Ocho>(cmd)
    }
}

/// Runner options.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Seed of the random streams: the same seed and count give the same numbers.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: every core); never changes the result.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// `tahur ocho value`.
#[derive(Args, Debug)]
pub struct ValueCmd {
    #[command(flatten)]
    pub table: TableArgs,
    /// Strategies by seat, repeated if fewer than players: random, greedy, expert, ismcts[:N];
    /// each takes forget=R (Spanish azar, codicioso, experto, busqueda).
    #[arg(
        long,
        visible_alias = "policies",
        value_name = "S1,S2,…",
        default_value = "greedy"
    )]
    pub strategies: String,
    /// The chance of forgetting «voy por una» priced in the last row (0–1).
    #[arg(long, value_name = "R", default_value = "0.25", value_parser = parse_rate)]
    pub forget: f64,
    /// Deals to play, e.g. 20000 or 1e5 (each is played 9 times).
    #[arg(long, alias = "games", value_name = "N", default_value = "20000", value_parser = parse_deals)]
    pub deals: u64,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur ocho deal`.
#[derive(Args, Debug)]
pub struct DealCmd {
    #[command(flatten)]
    pub table: TableArgs,
    /// Also deal N times with the engine and show the simulated rates next to the exact ones.
    #[arg(long, value_name = "N", value_parser = parse_deals)]
    pub samples: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_rate(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("expected a chance from 0 to 1, e.g. 0.25".into()),
    }
}

fn parse_deals(s: &str) -> std::result::Result<u64, String> {
    parse_samples(s, "deals")
}

fn parse_seed(s: &str) -> std::result::Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to {}", u64::MAX))
}

fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err("expected a number of threads from 1 to 1024".into()),
    }
}

/// Runs a simulation of `samples` samples with a progress display; says so when a signal
/// stopped it.
fn run<S: Simulation>(
    sim: &S,
    samples: u64,
    run: &RunArgs,
    unit: &str,
) -> Result<(S::Tally, RunSummary)> {
    let spec = RunSpec {
        samples,
        seed: run.seed,
        chunk_size: sim.chunk_size(),
    };
    let control = RunControl {
        threads: run.threads,
        progress: super::progress(samples, unit),
    };
    let result = crate::runner::run(sim, &spec, None, &control);
    control.progress.finish();
    let result = result?;
    if result.interrupted {
        say!(
            "tahur: interrupted: {} of {} {unit} ran; the report shows what they give",
            crate::humanize::thousands(result.samples_done),
            crate::humanize::thousands(samples)
        );
    }
    let summary = RunSummary::of(spec, &result);
    Ok((result.tally, summary))
}

/// Runs an Ocho loco command of its own.
pub fn execute(cmd: OchoCommand) -> Result<i32> {
    match cmd {
        OchoCommand::Value(a) => {
            let rules = a.table.rules()?;
            let list = Strategy::parse_list(&a.strategies)?;
            let table = TableSetup::<Ocho>::new(rules, &list, false)?;
            let setup = ValueSetup {
                table,
                forget: a.forget,
            };
            let (tally, summary) = run(&ValueSimulation::new(&setup), a.deals, &a.run, "deals")?;
            emit(&value::report(&setup, &tally, &summary), &a.out)?;
            Ok(exit_code(&summary))
        }
        OchoCommand::Deal(a) => {
            let rules = a.table.rules()?;
            rules.validate()?;
            let Some(samples) = a.samples else {
                emit(&deal::report(&rules, None), &a.out)?;
                return Ok(0);
            };
            let (tally, summary) = run(&DealSimulation::new(&rules), samples, &a.run, "deals")?;
            emit(&deal::report(&rules, Some((&tally, &summary))), &a.out)?;
            Ok(exit_code(&summary))
        }
    }
}

fn exit_code(summary: &RunSummary) -> i32 {
    if summary.interrupted {
        super::EXIT_INTERRUPTED
    } else {
        0
    }
}
