//! `tahur ocho value | deal` (sim, compare, tournament and flags come from [`super::play`]).

use clap::{ArgMatches, Args, Subcommand};

use super::run::{exact_or_run, samples, RunArgs};
use super::OutputArgs;
use tahur::error::Result;
use tahur::games::ocho::bots::Strategy;
use tahur::games::ocho::deal;
use tahur::games::ocho::rules::Rules;
use tahur::games::ocho::value::ValueSetup;
use tahur::games::ocho::Ocho;
use tahur::jobs::Job;
use tahur::play::TableSetup;

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
  tahur ocho value --players 4 --deals 1e6 --shard 1/4 --output part1.json

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
    #[arg(long, alias = "games", value_name = "N", default_value = "20000", value_parser = samples("deals"))]
    pub deals: u64,
    /// Draw each special's change in going out first with its 95 % interval as a dot plot, SVG
    /// (PNG when FILE ends in .png).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<std::path::PathBuf>,
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
    #[arg(long, value_name = "N", value_parser = samples("deals"))]
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
            super::run::run_job_charted(Job::OchoValue(setup), a.deals, &a.run, &a.out, a.chart)
        }
        OchoCommand::Deal(a) => {
            let rules = a.table.rules()?;
            rules.validate()?;
            exact_or_run(
                a.samples,
                &a.run,
                &a.out,
                || Ok(deal::report(&rules, None)),
                || Job::OchoDeal(rules),
            )
        }
    }
}
