//! `tahur dudo …`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::report::chart::SvgChart;

use super::{emit, run_job, OutputArgs, RunRequest, SimArgs};
use crate::error::{Error, Result};
use crate::games::dudo::bots::Strategy;
use crate::games::dudo::compare::{self, CompareSetup};
use crate::games::dudo::engine::{GameConfig, MAX_PLAYERS};
use crate::games::dudo::exact::{DICE_PER_PLAYER, MAX_DICE};
use crate::games::dudo::face::parse_dice;
use crate::games::dudo::prob::{self, ProbQuery};
use crate::games::dudo::sim::{
    self, apply_house_rules, parse_strategy_list, GameTally, TableSetup,
};
use crate::games::dudo::table::{self, TableQuery};
use crate::games::dudo::tune::{self, TuneSpec};
use crate::games::dudo::{advise, paso, sheets, AceRound, Bid, RuleSet, Rules, Situation};
use crate::jobs::Job;

/// Dudo commands.
#[derive(Subcommand, Debug)]
pub enum DudoCommand {
    /// How likely a bid is: exact, and by simulation with --samples.
    #[command(after_help = "Examples:
  tahur dudo prob 15 cuadras --dice 30
  tahur dudo prob 15 cuadras --dice 30 --hand 1,4,4,2,6
  tahur dudo prob 15x4 --players 6 --hand 14426 --samples 1e7 --seed 7
  tahur dudo prob quince quinas --dice 30 --shown 5,5 --rules caleuchano --format json
  tahur dudo prob 9 millas --dice 25 --rules caleuchano --obligado")]
    Prob(ProbArgs),
    /// Cheat sheet: P(true) for every quantity and face, and the highest safe bids.
    #[command(after_help = "Examples:
  tahur dudo table --players 6
  tahur dudo table --dice 30 --hand 1,4,4,2,6 --levels 0.75,0.5,0.25
  tahur dudo table --players 4 --rules caleuchano --format csv --output sheet.csv --chart sheet.svg")]
    Table(TableCmd),
    /// Doubt or raise? The incoming bid's odds and every legal raise, ranked.
    #[command(after_help = "Examples:
  tahur dudo advise 15 cuadras --dice 30 --hand 1,4,4,2,6
  tahur dudo advise 8 ases --players 4 --hand 1,1,3,5,6 --rules caleuchano --top 5")]
    Advise(AdviseArgs),
    /// Cheat sheet by what you hold: P(true) when k of your five dice already count.
    #[command(after_help = "Examples:
  tahur dudo holding --players 6
  tahur dudo holding --players 5 --rules caleuchano --format markdown")]
    Holding(HoldingArgs),
    /// Whole games between strategies: win share by seat and strategy, game length, doubts.
    #[command(after_help = "Examples:
  tahur dudo sim --players 3 --strategies threshold,random,random --games 10000
  tahur dudo sim --rules caleuchano --players 6 --strategies tuned --games 1e5 --chart seats.svg
  tahur dudo sim --players 4 --strategies 'threshold:t=0.3,bluff=0.1,honest' --house lives=5 --format json
  tahur dudo sim --players 6 --strategies threshold --games 1e6 --shard 1/4 --output part1.json")]
    Sim(SimCmd),
    /// The same strategies under two rule or flag sets, paired on common random numbers.
    #[command(after_help = "Examples:
  tahur dudo compare --players 4 --strategies threshold,random --a rules=chimbo9 --b rules=caleuchano
  tahur dudo compare --rules caleuchano --players 5 --strategies threshold --a paso=on --b paso=off --games 1e5
  tahur dudo compare --players 3 --strategies threshold,honest --a lives=3 --b lives=5 --until-decided --games 1e6")]
    Compare(CompareCmd),
    /// Exact odds that a doubted pass stands: poker, full or pichanga (Caleuchano).
    #[command(after_help = "Examples:
  tahur dudo paso
  tahur dudo paso --shown 4,4 --format json")]
    Paso(PasoCmd),
    /// Search the threshold/bluff parameters that win most against a field, per table size;
    /// writes data/dudo/tuned-<rules>.csv (read by the `tuned` strategy) and a Markdown sheet.
    #[command(after_help = "Examples:
  tahur dudo tune --rules chimbo9
  tahur dudo tune --rules caleuchano --players 3,4,5 --field honest --games 50000 --out /tmp/tuned")]
    Tune(TuneCmd),
    /// Regenerate the cheat sheets in data/dudo (2 to 8 players, both rule sets).
    #[command(after_help = "Example:
  cargo run --release -- dudo sheets --out data/dudo")]
    Sheets(SheetsArgs),
}

/// The table as the asker sees it.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Dice on the whole table (5 per player still in).
    #[arg(long, value_name = "N", value_parser = parse_dice_count, required_unless_present = "players", conflicts_with = "players")]
    pub dice: Option<u32>,
    /// Players still in (the table holds 5 dice each); instead of --dice.
    #[arg(long, value_name = "P", value_parser = parse_players)]
    pub players: Option<u32>,
    /// Your own dice, e.g. 1,4,4,2,6 (or 14426).
    #[arg(long, value_name = "DICE")]
    pub hand: Option<String>,
    /// Dice others have shown face up (mandada reforzada), e.g. 3,3.
    #[arg(long, value_name = "DICE")]
    pub shown: Option<String>,
    /// Rule set.
    #[arg(long, value_enum, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Obligado round (Caleuchano): no wild aces, no millas bonus.
    #[arg(long)]
    pub obligado: bool,
    /// Aces count for a face only if a natural die of that face is on the table.
    #[arg(long)]
    pub aces_need_natural: bool,
    /// Chimbo 9: round "la mitad más uno" down (floor, default) or up (ceil) for odd quantities.
    #[arg(long, value_enum, value_name = "HOW")]
    pub ace_round: Option<AceRound>,
}

impl TableArgs {
    /// The situation these arguments describe.
    pub fn situation(&self) -> Result<Situation> {
        let dice = match (self.dice, self.players) {
            (Some(d), _) => d,
            (None, Some(p)) => p * DICE_PER_PLAYER,
            (None, None) => return Err(Error::usage("give --dice N or --players P")),
        };
        let hand = parse_dice(self.hand.as_deref().unwrap_or(""), "--hand")?;
        let shown = parse_dice(self.shown.as_deref().unwrap_or(""), "--shown")?;
        if self.ace_round.is_some() && self.rules != RuleSet::Chimbo9 {
            return Err(Error::usage(
                "--ace-round is a Chimbo 9 rule (Caleuchano converts by half or more): drop it or use --rules chimbo9",
            ));
        }
        let rules = Rules {
            set: self.rules,
            ace_round: self.ace_round.unwrap_or_default(),
            aces_need_natural: self.aces_need_natural,
        };
        Situation::new(dice, hand, shown, rules, self.obligado)
    }
}

fn parse_dice_count(s: &str) -> std::result::Result<u32, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_DICE as u64).contains(&n) => Ok(n as u32),
        _ => Err(format!(
            "the table holds 1 to {MAX_DICE} dice (5 per player)"
        )),
    }
}

fn parse_players(s: &str) -> std::result::Result<u32, String> {
    let max = MAX_DICE / DICE_PER_PLAYER;
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=max as u64).contains(&n) => Ok(n as u32),
        _ => Err(format!("expected 1 to {max} players")),
    }
}

/// `tahur dudo prob`.
#[derive(Args, Debug)]
pub struct ProbArgs {
    /// The bid as players say it: 15 cuadras, 15x4, 15 4, quince cuadras.
    #[arg(required = true, num_args = 1.., value_name = "BID", allow_negative_numbers = true)]
    pub bid: Vec<String>,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub sim: SimArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo table`.
#[derive(Args, Debug)]
pub struct TableCmd {
    #[command(flatten)]
    pub table: TableArgs,
    /// Levels for "the highest bid still at least this likely", e.g. 0.75,0.5,0.25.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.5",
        value_name = "P,..."
    )]
    pub levels: Vec<f64>,
    /// Show every quantity, also those where every face is below 0.005 %.
    #[arg(long)]
    pub all: bool,
    /// Also draw P(true) against quantity, one line per face, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo advise`.
#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// The bid you received: 15 cuadras, 15x4, 15 4.
    #[arg(required = true, num_args = 1.., value_name = "BID", allow_negative_numbers = true)]
    pub bid: Vec<String>,
    #[command(flatten)]
    pub table: TableArgs,
    /// How many raises to list.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo holding`.
#[derive(Args, Debug)]
pub struct HoldingArgs {
    /// Dice on the whole table.
    #[arg(long, value_name = "N", value_parser = parse_dice_count, required_unless_present = "players", conflicts_with = "players")]
    pub dice: Option<u32>,
    /// Players still in; instead of --dice.
    #[arg(long, value_name = "P", value_parser = parse_players)]
    pub players: Option<u32>,
    /// Rule set.
    #[arg(long, value_enum, default_value = "chimbo9")]
    pub rules: RuleSet,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo sheets`.
#[derive(Args, Debug)]
pub struct SheetsArgs {
    /// Folder to write the sheets into.
    #[arg(long, default_value = "data/dudo", value_name = "DIR")]
    pub out: PathBuf,
}

/// The table of a game simulation.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Rule set (flags at that rule set's standard unless --house changes them).
    #[arg(long, value_enum, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Players at the table (2–16).
    #[arg(long, value_name = "P", value_parser = parse_table_players)]
    pub players: u8,
    /// Strategies by seat, repeated if fewer than players: random, honest, tuned, threshold,
    /// threshold:t=0.4,bluff=0.1.
    #[arg(long, value_name = "S1,S2,…", default_value = "threshold")]
    pub strategies: String,
    /// House rules: lives=N, paso=on|off, reforzada=on|off, obligado=on|off,
    /// direction=choose|fixed, aces-need-natural=on|off, ace-round=floor|ceil.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub house: String,
    /// Check the engine's invariants after every action (slower); violations are reported.
    #[arg(long)]
    pub check: bool,
}

impl GameArgs {
    /// The table these arguments describe.
    pub fn setup(&self) -> Result<TableSetup> {
        let base = GameConfig::standard(self.rules, self.players);
        let game = apply_house_rules(base, &self.house)?;
        TableSetup::new(game, &parse_strategy_list(&self.strategies)?, self.check)
    }
}

fn parse_table_players(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n) if (2..=MAX_PLAYERS as u8).contains(&n) => Ok(n),
        _ => Err(format!("a game needs 2 to {MAX_PLAYERS} players")),
    }
}

fn parse_games(s: &str) -> std::result::Result<u64, String> {
    match super::parse_count(s) {
        Some(0) => Err("give at least 1 game".into()),
        Some(n) if n <= super::MAX_SAMPLES => Ok(n),
        Some(_) => Err("at most 1e15 games".into()),
        None => Err("expected a whole number such as 10000 or 1e5".into()),
    }
}

/// Runner options of game simulations.
#[derive(Args, Debug, Clone)]
pub struct GameRunArgs {
    /// Games to play (e.g. 10000 or 1e5).
    #[arg(long, value_name = "N", default_value = "10000", value_parser = parse_games)]
    pub games: u64,
    /// Seed of the random streams: the same seed and games give the same numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core); never changes the result.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Run only shard K of N and write a partial result for `tahur merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

impl GameRunArgs {
    fn request(&self) -> RunRequest<'_> {
        RunRequest {
            samples: self.games,
            seed: self.seed,
            threads: self.threads.map(usize::from),
            shard: self.shard.as_deref(),
        }
    }
}

/// `tahur dudo sim`.
#[derive(Args, Debug)]
pub struct SimCmd {
    #[command(flatten)]
    pub table: GameArgs,
    #[command(flatten)]
    pub run: GameRunArgs,
    /// Draw win share by seat with 95 % intervals as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Draw the distribution of game length as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub length_chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo compare`.
#[derive(Args, Debug)]
pub struct CompareCmd {
    /// Base rule set of both variants (before --a / --b).
    #[arg(long, value_enum, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Players at the table (2–16).
    #[arg(long, value_name = "P", value_parser = parse_table_players)]
    pub players: u8,
    /// Strategies by seat (as for `dudo sim`).
    #[arg(long, value_name = "S1,S2,…", default_value = "threshold")]
    pub strategies: String,
    /// Variant A's house rules, e.g. rules=chimbo9 or paso=off,lives=3.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub a: String,
    /// Variant B's house rules.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub b: String,
    /// Keep playing until the first comparison is decided: looks after --batch, 2×, 4×, … games,
    /// look k at level α/2^k; at most --games games.
    #[arg(long)]
    pub until_decided: bool,
    /// Games before the first look of --until-decided.
    #[arg(long, value_name = "N", default_value = "10000", value_parser = parse_games)]
    pub batch: u64,
    /// Also size the games needed to detect a difference of D (percentage points for win rates,
    /// rounds for game length), from the paired variance seen.
    #[arg(long, value_name = "D", value_parser = parse_detect)]
    pub detect: Option<f64>,
    /// Overall significance level α for --until-decided.
    #[arg(long, default_value_t = 0.05, value_parser = parse_alpha)]
    pub alpha: f64,
    #[command(flatten)]
    pub run: GameRunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo tune`.
#[derive(Args, Debug)]
pub struct TuneCmd {
    /// Rule set.
    #[arg(long, value_enum, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Table sizes to tune.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,6,7,8", value_parser = parse_table_players)]
    pub players: Vec<u8>,
    /// Strategy of every other seat.
    #[arg(long, default_value = "threshold")]
    pub field: String,
    /// Games per candidate and table size.
    #[arg(long, value_name = "N", default_value = "20000", value_parser = parse_games)]
    pub games: u64,
    /// Seed shared by every candidate.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Folder for tuned-<rules>.csv and tuned-<rules>.md.
    #[arg(long, default_value = "data/dudo", value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `tahur dudo paso`.
#[derive(Args, Debug)]
pub struct PasoCmd {
    /// Dice the passer has shown face up (mandada reforzada); the rest are unseen.
    #[arg(long, value_name = "DICE")]
    pub shown: Option<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_detect(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(d) if d > 0.0 && d.is_finite() => Ok(d),
        _ => Err("expected a positive difference, e.g. 1 (percentage point)".into()),
    }
}

fn parse_alpha(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(a) if a > 0.0 && a < 1.0 => Ok(a),
        _ => Err("expected a level between 0 and 1, e.g. 0.05".into()),
    }
}

fn parse_bid(words: &[String]) -> Result<Bid> {
    Bid::parse(&words.join(" "))
}

/// Runs a Dudo command.
pub fn execute(cmd: DudoCommand) -> Result<i32> {
    match cmd {
        DudoCommand::Prob(a) => {
            let bid = parse_bid(&a.bid)?;
            let situation = a.table.situation()?;
            let query = ProbQuery { situation, bid };
            if a.sim.samples.is_none() {
                if a.sim.shard.is_some() {
                    return Err(Error::usage("--shard splits a simulation: add --samples N"));
                }
                emit(&prob::report(&query, None), &a.out)?;
                return Ok(0);
            }
            let samples = a.sim.samples.expect("checked above");
            run_job(
                Job::DudoProb(query),
                RunRequest::from_sim(samples, &a.sim),
                &a.out,
                |_| Ok(()),
            )
        }
        DudoCommand::Table(a) => {
            table::check_levels(&a.levels)?;
            let q = TableQuery {
                situation: a.table.situation()?,
                levels: a.levels.clone(),
                all_rows: a.all,
            };
            // The chart first: if its path is unusable, nothing is printed either.
            if let Some(path) = &a.chart {
                table::chart(&q).write(path)?;
            }
            emit(&table::report(&q), &a.out)?;
            Ok(0)
        }
        DudoCommand::Advise(a) => {
            let bid = parse_bid(&a.bid)?;
            let situation = a.table.situation()?;
            emit(&advise::report(&situation, bid, a.top), &a.out)?;
            Ok(0)
        }
        DudoCommand::Holding(a) => {
            let dice = a
                .dice
                .or(a.players.map(|p| p * DICE_PER_PLAYER))
                .unwrap_or(0);
            emit(&sheets::holding_report(dice, a.rules)?, &a.out)?;
            Ok(0)
        }
        DudoCommand::Sim(a) => {
            let setup = a.table.setup()?;
            if a.run.shard.is_some() && (a.chart.is_some() || a.length_chart.is_some()) {
                return Err(Error::usage(
                    "charts are drawn from whole runs: drop --chart with --shard",
                ));
            }
            let charts = |tally: &serde_json::Value| -> Result<()> {
                let t: GameTally = super::tally_of(tally)?;
                if let Some(p) = &a.chart {
                    sim::seat_chart(&setup, &t).write(p)?;
                }
                if let Some(p) = &a.length_chart {
                    sim::length_chart(&setup, &t).write(p)?;
                }
                Ok(())
            };
            run_job(Job::DudoSim(setup.clone()), a.run.request(), &a.out, charts)
        }
        DudoCommand::Compare(a) => {
            let strategies = parse_strategy_list(&a.strategies)?;
            let base = GameConfig::standard(a.rules, a.players);
            let variant = |spec: &str| -> Result<TableSetup> {
                TableSetup::new(apply_house_rules(base, spec)?, &strategies, false)
            };
            let name = |spec: &str| {
                if spec.trim().is_empty() {
                    format!("{} standard", a.rules.key())
                } else {
                    spec.to_string()
                }
            };
            let setup = CompareSetup::new(
                variant(&a.a)?,
                variant(&a.b)?,
                [name(&a.a), name(&a.b)],
                a.detect,
            )?;
            if setup.a.game == setup.b.game {
                return Err(Error::usage(format!(
                    "--a '{}' and --b '{}' give the same rules: change at least one house rule",
                    a.a, a.b
                )));
            }
            if !a.until_decided {
                return run_job(Job::DudoCompare(setup), a.run.request(), &a.out, |_| Ok(()));
            }
            if a.run.shard.is_some() {
                return Err(Error::usage(
                    "--until-decided decides as it goes and cannot be sharded: drop --shard",
                ));
            }
            let req = a.run.request();
            let spec = Job::DudoCompare(setup.clone()).spec(req.samples, req.seed);
            let control = crate::runner::RunControl {
                threads: req.threads,
                progress: super::show_progress(),
            };
            crate::runner::install_interrupt_handler();
            let (tally, summary, seq) =
                compare::run_sequential(&setup, &spec, a.batch, a.alpha, &control)?;
            emit(
                &compare::report(&setup, &tally, &summary, Some(&seq)),
                &a.out,
            )?;
            Ok(if summary.interrupted {
                super::EXIT_INTERRUPTED
            } else {
                0
            })
        }
        DudoCommand::Paso(a) => {
            let shown = parse_dice(a.shown.as_deref().unwrap_or(""), "--shown")?;
            emit(&paso::report(&shown)?, &a.out)?;
            Ok(0)
        }
        DudoCommand::Tune(a) => {
            let field = Strategy::parse(&a.field)?;
            if field == Strategy::Tuned {
                return Err(Error::usage(
                    "--field tuned would tune against itself: pick random, honest or threshold",
                ));
            }
            let spec = TuneSpec::grid(a.rules, a.players.clone(), field, a.games, a.seed);
            let control = crate::runner::RunControl {
                threads: a.threads.map(usize::from),
                progress: super::show_progress(),
            };
            crate::runner::install_interrupt_handler();
            let results = tune::tune(&spec, &control)?;
            if crate::runner::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(Error::usage(
                    "interrupted: tuning needs every game; nothing was written",
                ));
            }
            let rep = tune::report(&spec, &results);
            std::fs::create_dir_all(&a.out)
                .map_err(|e| Error::usage(format!("cannot create '{}': {e}", a.out.display())))?;
            let stem = a.out.join(format!("tuned-{}", a.rules.key()));
            crate::report::write_atomic(
                &stem.with_extension("csv"),
                tune::csv(&results, a.games).as_bytes(),
            )?;
            let md = crate::report::render(&rep, crate::report::Format::Markdown)? + "\n";
            crate::report::write_atomic(&stem.with_extension("md"), md.as_bytes())?;
            emit(&rep, &a.output)?;
            Ok(0)
        }
        DudoCommand::Sheets(a) => {
            let files = sheets::generate()?;
            for (rel, content) in &files {
                let path = a.out.join(rel);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        Error::usage(format!("cannot create '{}': {e}", dir.display()))
                    })?;
                }
                crate::report::write_atomic(&path, content.as_bytes())?;
            }
            eprintln!("wrote {} files under {}", files.len(), a.out.display());
            Ok(0)
        }
    }
}
