//! `tahur dudo …`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use tahur::report::chart::SvgChart;

use super::run::{exact_or_run, exit_code, samples, with_progress, RunArgs, SeedArgs};
use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::games::dudo::bots::Strategy;
use tahur::games::dudo::duel::{self, DuelGame, DuelRules, DuelSpec, Memory};
use tahur::games::dudo::exact::{DICE_PER_PLAYER, MAX_DICE};
use tahur::games::dudo::face::parse_dice;
use tahur::games::dudo::prob::{self, ProbQuery};
use tahur::games::dudo::rules::MAX_PLAYERS;
use tahur::games::dudo::table::{self, TableQuery};
use tahur::games::dudo::tune::{self, TuneSpec};
use tahur::games::dudo::{advise, paso, sheets, AceRound, Bid, Bidding, RuleSet, Situation};
use tahur::jobs::Job;

/// Dudo commands.
#[derive(Subcommand, Debug)]
pub enum DudoCommand {
    /// How likely a bid is: exact, and by simulation with --samples.
    #[command(after_help = "Examples:
  tahur dudo prob 15 cuadras --dice 30
  tahur dudo prob 15 cuadras --dice 30 --hand 1,4,4,2,6
  tahur dudo prob 15x4 --players 6 --hand 14426 --samples 1e7 --seed 7
  tahur dudo prob quince quinas --dice 30 --shown 5,5 --rules caleuchano \\
      --format json
  tahur dudo prob 9 millas --dice 25 --rules caleuchano --obligado")]
    Prob(ProbArgs),
    /// Cheat sheet: P(true) for every quantity and face, and the highest safe bids.
    #[command(after_help = "Examples:
  tahur dudo table --players 6
  tahur dudo table --dice 30 --hand 1,4,4,2,6 --levels 0.75,0.5,0.25
  tahur dudo table --players 4 --rules caleuchano --format csv \\
      --output sheet.csv --chart sheet.svg")]
    Table(TableCmd),
    /// Doubt or raise? The incoming bid's odds and every legal raise, ranked.
    #[command(after_help = "Examples:
  tahur dudo advise 15 cuadras --dice 30 --hand 1,4,4,2,6
  tahur dudo advise 8 ases --players 4 --hand 1,1,3,5,6 --rules caleuchano \\
      --top 5")]
    Advise(AdviseArgs),
    /// Cheat sheet by what you hold: P(true) when k of your five dice already count.
    #[command(after_help = "Examples:
  tahur dudo holding --players 6
  tahur dudo holding --players 5 --rules caleuchano --format markdown")]
    Holding(HoldingArgs),
    /// Exact odds that a doubted pass stands: poker, full or pichanga (Caleuchano).
    #[command(after_help = "Examples:
  tahur dudo paso
  tahur dudo paso --shown 4,4 --format json")]
    Paso(PasoCmd),
    /// Search the threshold/bluff parameters, then the bluff-pass rate and lives weight, that
    /// win most against a field, per table size; writes tuned-<rules>.csv and a Markdown sheet into --out-dir. The `tuned` strategy plays
    /// the table shipped in the source tree's data/dudo, built into tahur when it is compiled;
    /// `tuned:FILE.csv` plays a table written here, read at run time.
    #[command(after_help = "Examples:
  tahur dudo tune --rules chimbo9 --out-dir tuned
  tahur dudo tune --rules caleuchano --players 3,4,5 --field honest \\
      --games 50000 --out-dir tuned &&
      tahur dudo sim --rules caleuchano --players 4 \\
      --strategies tuned:tuned/tuned-caleuchano.csv,tuned")]
    Tune(TuneCmd),
    /// Solve the two-player round by CFR+: the opener's chance, the exploitability, a
    /// convergence chart (issue 25).
    #[command(after_help = "Examples:
  tahur dudo duel --rules plain --dice-each 1
  tahur dudo duel --rules chimbo9 --dice-each 2 --chart duel.svg
  tahur dudo duel --rules plain --dice-each 2 --memory full --iterations 100 \\
      --state plain2.state    # the exact game in parts: run it again to go on
  tahur dudo duel --rules caleuchano --dice-each 5 --memory 1 --iterations 200 \\
      --format json")]
    Duel(DuelCmd),
    /// Write the cheat sheets (2 to 8 players, both rule sets) into --out-dir; the shipped ones
    /// are the source tree's data/dudo.
    #[command(after_help = "Example:
  tahur dudo sheets --out-dir data/dudo")]
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
    /// Rule set: chimbo9 (Chimbo 9: 3 fichas, fixed direction, aces by "la mitad más uno") or
    /// caleuchano (Dudo Caleuchano: millas bonus, aces by half or more).
    #[arg(long, value_name = "SET", value_parser = parse_rule_set, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Obligado round (Caleuchano): no wild aces, no millas bonus.
    #[arg(long)]
    pub obligado: bool,
    /// Aces count for a face only if a natural die of that face is on the table.
    #[arg(long)]
    pub aces_need_natural: bool,
    /// Chimbo 9: round "la mitad más uno" down (floor, default) or up (ceil) for odd quantities.
    #[arg(long, value_name = "HOW", value_parser = parse_ace_round)]
    pub ace_round: Option<AceRound>,
    /// Chimbo 9 house rule: "la mitad más uno" aces or more is always a legal raise, Q aces
    /// after Q of another face included (default: exactly Q aces are refused).
    #[arg(long)]
    pub aces_or_more: bool,
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
        Situation::new(dice, hand, shown, self.bidding()?, self.obligado)
    }

    /// The bidding rules these arguments give: the rule set and its counting switches.
    pub fn bidding(&self) -> Result<Bidding> {
        if self.ace_round.is_some() && self.rules != RuleSet::Chimbo9 {
            return Err(Error::usage(
                "--ace-round is a Chimbo 9 rule (Caleuchano converts by half or more): drop it or use --rules chimbo9",
            ));
        }
        if self.aces_or_more && self.rules != RuleSet::Chimbo9 {
            return Err(Error::usage(
                "--aces-or-more is a Chimbo 9 rule (Caleuchano's half or more has no gap): drop it or use --rules chimbo9",
            ));
        }
        Ok(Bidding {
            set: self.rules,
            ace_round: self.ace_round.unwrap_or_default(),
            aces_need_natural: self.aces_need_natural,
            aces_or_more: self.aces_or_more,
        })
    }
}

/// A rule set as players write it (`chimbo9`, `chimbo-9`, `Chimbo 9`, `caleuchano`, …).
fn parse_rule_set(s: &str) -> std::result::Result<RuleSet, String> {
    RuleSet::parse(s).ok_or_else(|| RuleSet::ACCEPTS.to_string())
}

/// `floor` or `ceil`.
fn parse_ace_round(s: &str) -> std::result::Result<AceRound, String> {
    AceRound::parse(s).ok_or_else(|| AceRound::ACCEPTS.to_string())
}

fn parse_dice_count(s: &str) -> std::result::Result<u32, String> {
    tahur::text::parse_whole(
        s,
        1,
        MAX_DICE as u64,
        &format!("the table holds 1 to {MAX_DICE} dice (5 per player)"),
    )
    .map(|n| n as u32)
}

fn parse_players(s: &str) -> std::result::Result<u32, String> {
    let max = MAX_DICE / DICE_PER_PLAYER;
    tahur::text::parse_whole(s, 1, max as u64, &format!("give 1 to {max} players"))
        .map(|n| n as u32)
}

fn parse_top(s: &str) -> std::result::Result<usize, String> {
    tahur::text::parse_whole(s, 1, 1_000_000, "list 1 or more raises, e.g. --top 10")
        .map(|n| n as usize)
}

fn parse_level(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(l) if l > 0.0 && l <= 1.0 => Ok(l),
        _ => Err(
            "give probabilities in (0, 1] separated by single commas, e.g. 0.75,0.5,0.25".into(),
        ),
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
    /// Also estimate by Monte Carlo with N samples (e.g. 1000000, 1_000_000 or 1e6).
    #[arg(long, value_name = "N", value_parser = samples("samples"))]
    pub samples: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
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
        value_name = "P,...",
        value_parser = parse_level
    )]
    pub levels: Vec<f64>,
    /// Show every quantity, also those where every face is below 0.005 %.
    #[arg(long)]
    pub all: bool,
    /// Also draw P(true) against quantity, one line per face, as SVG.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo advise`.
#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// The bid you received: 15 cuadras, 15x4, 15 4.
    #[arg(required_unless_present = "position", num_args = 1.., value_name = "BID", allow_negative_numbers = true)]
    pub bid: Vec<String>,
    /// Instead of a bid: a whole position (as `tahur dudo position` writes it), every legal
    /// action rolled out to the end of the game with --bots (needs --players, and --rules
    /// caleuchano where it plays).
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["bid", "dice", "hand", "shown"])]
    pub position: Option<String>,
    /// With --position: who plays the rest of each rollout, by seat.
    #[arg(
        long,
        value_name = "S1,S2,…",
        default_value = "tuned",
        requires = "position"
    )]
    pub bots: String,
    /// With --position: deals rolled out, each with every action (with --until-decided: at most).
    #[arg(long, value_name = "N", default_value = "10000", value_parser = super::run::samples("rollouts"), requires = "position")]
    pub rollouts: u64,
    /// With --position: stop once the best action is separated from every other.
    #[arg(long, requires = "position")]
    pub until_decided: bool,
    /// With --position: the error level of --until-decided over all its looks.
    #[arg(long, value_name = "A", default_value_t = 0.05, requires = "position")]
    pub alpha: f64,
    /// With --position: at more legal actions than 16, roll every action out on 512 deals first
    /// and only the best K (and any within noise of the best, up to 16) fully; 0 rolls out
    /// every action fully.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = super::advise::parse_keep, requires = "position")]
    pub keep: usize,
    #[command(flatten)]
    pub seeds: super::run::SeedArgs,
    #[command(flatten)]
    pub table: TableArgs,
    /// How many raises to list.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = parse_top)]
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
    /// Rule set: chimbo9 or caleuchano.
    #[arg(long, value_name = "SET", value_parser = parse_rule_set, default_value = "chimbo9")]
    pub rules: RuleSet,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur dudo sheets`.
#[derive(Args, Debug)]
pub struct SheetsArgs {
    /// Folder to write the sheets into (created if missing; `--out` is an old name of it).
    #[arg(
        long = "out-dir",
        id = "out-dir",
        alias = "out",
        required = true,
        value_name = "DIR"
    )]
    pub out_dir: PathBuf,
}

fn parse_table_players(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(
        s,
        2,
        MAX_PLAYERS as u64,
        &format!("a game needs 2 to {MAX_PLAYERS} players"),
    )
    .map(|n| n as u8)
}

/// `tahur dudo tune`.
#[derive(Args, Debug)]
pub struct TuneCmd {
    /// Rule set: chimbo9 or caleuchano.
    #[arg(long, value_name = "SET", value_parser = parse_rule_set, default_value = "chimbo9")]
    pub rules: RuleSet,
    /// Table sizes to tune.
    #[arg(long, value_name = "P", value_delimiter = ',', default_value = "2,3,4,5,6,7,8", value_parser = parse_table_players)]
    pub players: Vec<u8>,
    /// Strategies of the other seats, one after the other (each takes every other seat).
    #[arg(long, value_name = "S1,S2,…", default_value = "threshold")]
    pub field: String,
    /// Games per candidate, table size and field strategy.
    #[arg(long, value_name = "N", default_value = "20000", value_parser = samples("games"))]
    pub games: u64,
    /// Seed (every candidate plays the same deals) and threads.
    #[command(flatten)]
    pub run: SeedArgs,
    /// Folder for tuned-<rules>.csv and tuned-<rules>.md (created if missing; `--out` is an
    /// old name of it).
    #[arg(
        long = "out-dir",
        id = "out-dir",
        alias = "out",
        required = true,
        value_name = "DIR"
    )]
    pub out_dir: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `tahur dudo duel`.
#[derive(Args, Debug)]
pub struct DuelCmd {
    /// Rule set: plain (the textbook order: 1s wild and above 6, no conversions, no paso),
    /// chimbo9 or caleuchano.
    #[arg(long, value_name = "SET", value_parser = parse_duel_rules, default_value = "plain")]
    pub rules: DuelRules,
    /// Dice in each cup, 1 to 5 (5 is the game).
    #[arg(long, value_name = "K", value_parser = parse_dice_each, default_value = "1")]
    pub dice_each: u32,
    /// CFR+ iterations [default: 1000; 300 for five dice, 60 for Caleuchano's five].
    #[arg(long, value_name = "N", value_parser = samples("iterations"))]
    pub iterations: Option<u64>,
    /// What a player remembers: full (every bid: the exact game, one or two dice a side), 2
    /// (the standing bid and the one before), face (the standing bid and the face of the one
    /// before) or 1 (the standing bid) [default: full for one die, 2 for two and three, face
    /// for four and five].
    #[arg(long, value_name = "M", value_parser = parse_memory)]
    pub memory: Option<Memory>,
    /// With --memory full: resume from FILE if it exists, and save the tables there after the
    /// iterations (also on Ctrl-C), so a long solve runs in parts (two dice: 4.2 GB).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Deals a seat of the sampled full-history responder plays [default: 0 where the exact
    /// full-recall exploitability is computed (one or two dice), 20000 otherwise].
    #[arg(long, value_name = "N", value_parser = samples("deals"))]
    pub responder_deals: Option<u64>,
    /// Seed of the responder's deals, and threads (never change the result).
    #[command(flatten)]
    pub run: SeedArgs,
    /// Also draw the exploitability against iterations as SVG.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Write the strategy as a cheat sheet into DIR: duel-<rules>.csv (every frequency) and
    /// duel-<rules>.md (readable); `-<K>` is added to the names below five dice a side. With
    /// --memory full: duel-<rules>-<K>-full.csv (every history a side's own play reaches) and
    /// .md (the openings and the answers to them), judged exactly as written, and .table.gz
    /// (the CSV's table, compact: what --judge reads fastest).
    #[arg(long = "sheet-dir", id = "sheet-dir", value_name = "DIR")]
    pub sheet_dir: Option<PathBuf>,
    /// Judge a full-recall table instead of solving: FILE is the .csv (also gzipped) or the
    /// .table.gz that --memory full --sheet-dir writes, for the game --rules and --dice-each
    /// name. Exact best responses give the opener's value, the bracket on the game's value and
    /// the exploitability of the table as written.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["iterations", "memory", "state", "responder_deals", "chart", "sheet-dir"])]
    pub judge: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_duel_rules(s: &str) -> std::result::Result<DuelRules, String> {
    DuelRules::parse(s).ok_or_else(|| DuelRules::ACCEPTS.to_string())
}

fn parse_dice_each(s: &str) -> std::result::Result<u32, String> {
    tahur::text::parse_whole(s, 1, 5, "give 1 to 5 dice a side").map(|n| n as u32)
}

fn parse_memory(s: &str) -> std::result::Result<Memory, String> {
    Memory::parse(s).ok_or_else(|| Memory::ACCEPTS.to_string())
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
            exact_or_run(
                a.samples,
                &a.run,
                &a.out,
                || Ok(prob::report(&query, None)),
                || Job::DudoProb(query.clone()),
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
                table::chart(&q).write_noted(path, "exact: every roll of the unknown dice")?;
            }
            emit(&table::report(&q), &a.out)?;
            Ok(0)
        }
        DudoCommand::Advise(a) if a.position.is_some() => {
            let players = a.table.players.ok_or_else(|| {
                Error::usage("--position needs --players: how many sit at the table")
            })?;
            // The table's rule set with its counting flags (--ace-round, --aces-need-natural,
            // --aces-or-more), as in a bid's advice.
            let mut rules =
                tahur::games::dudo::rules::Rules::standard(a.table.rules, players as u8);
            rules.bidding = a.table.bidding()?;
            let req = super::advise::AdviceRequest {
                position: a.position.as_deref().unwrap_or_default(),
                bots: &a.bots,
                rollouts: a.rollouts,
                until_decided: a.until_decided.then_some(a.alpha),
                keep: a.keep,
                seeds: &a.seeds,
            };
            super::advise::run_advice::<tahur::games::dudo::Dudo>(&rules, &req, &a.out)
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
        DudoCommand::Paso(a) => {
            let shown = parse_dice(a.shown.as_deref().unwrap_or(""), "--shown")?;
            emit(&paso::report(&shown)?, &a.out)?;
            Ok(0)
        }
        DudoCommand::Tune(a) => {
            let field = <Strategy as tahur::play::Strategy<tahur::games::dudo::Dudo>>::parse_list(
                &a.field,
            )?;
            // `tuned`, and `duel` (which plays it before the duel), would tune against the
            // table being tuned; a file of it (`tuned:FILE.csv`) is a fixed field.
            if let Some(s) = field.iter().find(|s| {
                matches!(
                    s,
                    Strategy::Tuned | Strategy::Duel | Strategy::DuelFile { .. }
                )
            }) {
                return Err(Error::usage(format!(
                    "--field {s} would tune against the tuned table itself: pick random, honest, threshold or tuned:FILE.csv"
                )));
            }
            let spec = TuneSpec::grid(a.rules, a.players.clone(), field, a.games, a.run.seed);
            let progress = super::run::progress(spec.total_games(), "games");
            let results = with_progress(a.run.threads, progress, |control| {
                tune::tune(&spec, control)
            })?;
            let interrupted = results.len() < spec.players.len();
            if interrupted {
                // Stopped by a signal: the table sizes tuned in full are shown, marked, but the
                // sheet files the `tuned` strategy reads are left as they were.
                let mut rep = tune::report(&spec, &results);
                let missing: Vec<String> = spec.players[results.len()..]
                    .iter()
                    .map(u8::to_string)
                    .collect();
                rep.field(
                    "table_sizes_requested",
                    "table sizes requested",
                    tahur::report::Value::Int(spec.players.len() as i64),
                );
                rep.note(format!(
                    "Interrupted (Ctrl-C or SIGTERM): only {} of the {} table sizes were tuned in full; not tuned: {} players. Nothing was written to {}.",
                    results.len(),
                    spec.players.len(),
                    missing.join(", "),
                    a.out_dir.display()
                ));
                let code = exit_code(interrupted, || {
                    format!(
                        "interrupted: {} of {} table sizes tuned; {} and .md left as they were",
                        results.len(),
                        spec.players.len(),
                        a.out_dir
                            .join(format!("tuned-{}.csv", a.rules.key()))
                            .display()
                    )
                });
                emit(&rep, &a.output)?;
                return Ok(code);
            }
            let rep = tune::report(&spec, &results);
            std::fs::create_dir_all(&a.out_dir).map_err(|e| {
                Error::usage(format!("cannot create '{}': {e}", a.out_dir.display()))
            })?;
            let stem = a.out_dir.join(format!("tuned-{}", a.rules.key()));
            tahur::report::write_atomic(
                &stem.with_extension("csv"),
                tune::csv(&results, a.games).as_bytes(),
            )?;
            let md = tahur::report::render(&rep, tahur::report::Format::Markdown)? + "\n";
            tahur::report::write_atomic(&stem.with_extension("md"), md.as_bytes())?;
            emit(&rep, &a.output)?;
            Ok(0)
        }
        DudoCommand::Duel(a) => run_duel(&a),
        DudoCommand::Sheets(a) => {
            let files = sheets::generate()?;
            for (rel, content) in &files {
                let path = a.out_dir.join(rel);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        Error::usage(format!("cannot create '{}': {e}", dir.display()))
                    })?;
                }
                tahur::report::write_atomic(&path, content.as_bytes())?;
            }
            say!("wrote {} files under {}", files.len(), a.out_dir.display());
            Ok(0)
        }
    }
}

/// `tahur dudo duel --judge FILE`: a full-recall table judged exactly as written.
fn judge_table(a: &DuelCmd, game: &DuelGame, path: &std::path::Path) -> Result<i32> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        Error::usage(format!(
            "cannot read the table '{name}': {e}; give the .csv or .table.gz that `tahur dudo duel --memory full --sheet-dir DIR` writes"
        ))
    })?;
    let table = duel::recall::RecallTable::read(&bytes, game, &name)?;
    drop(bytes);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.run.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::usage(format!("cannot start the worker threads: {e}")))?;
    let judged = pool.install(|| table.judge(game));
    emit(&table.judge_report(game, &judged, &name), &a.out)?;
    Ok(0)
}

/// `tahur dudo duel`.
fn run_duel(a: &DuelCmd) -> Result<i32> {
    let memory = if a.judge.is_some() {
        Memory::Full
    } else {
        a.memory.unwrap_or(Memory::default_for(a.dice_each))
    };
    let game = DuelGame::new(a.rules, a.dice_each);
    if memory == Memory::Full {
        let fits = (!game.paso)
            .then(|| duel::full::FullRecall::memory_needed(&game))
            .flatten();
        if fits.is_none() {
            let (flag, instead) = if a.judge.is_some() {
                (
                    "--judge",
                    "judge a table of one or two dice a side (Caleuchano: one)",
                )
            } else {
                ("--memory full", "use --memory 2, 1 or face")
            };
            return Err(Error::usage(format!(
                "invalid {flag} with --rules {} --dice-each {}: full recall covers every bid history (2^bids of them), which fits up to {} bids without paso and this game has {}; {instead}",
                a.rules.key(),
                a.dice_each,
                duel::full::MAX_FULL_BIDS,
                game.bid_count()
            )));
        }
    }
    if let Some(path) = &a.judge {
        return judge_table(a, &game, path);
    }
    let exact_judge = a.dice_each <= 2;
    let spec = DuelSpec {
        rules: a.rules,
        dice_each: a.dice_each,
        iterations: a
            .iterations
            .unwrap_or(memory.default_iterations(a.rules, a.dice_each)),
        memory,
        responder_deals: a
            .responder_deals
            .unwrap_or(if exact_judge || memory == Memory::Full {
                0
            } else {
                20_000
            }),
        seed: a.run.seed,
        checkpoints: 20,
        state: a.state.clone(),
    };
    if spec.state.is_some() && memory != Memory::Full {
        return Err(Error::usage(format!(
            "invalid --state with --memory {}: a state keeps full-recall tables; add --memory full or drop --state",
            memory.key()
        )));
    }
    if memory == Memory::Full && spec.responder_deals > 0 {
        return Err(Error::usage(
            "invalid --responder-deals with --memory full: the full-recall exploitability is exact there; drop it",
        ));
    }
    let stem = match (a.dice_each, memory) {
        (5, _) => format!("duel-{}", a.rules.key()),
        (k, Memory::Full) => format!("duel-{}-{k}-full", a.rules.key()),
        (k, _) => format!("duel-{}-{k}", a.rules.key()),
    };
    let progress = super::run::progress(spec.iterations, "iterations");
    let (solved, pool_err) = with_progress(a.run.threads, progress, |control| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(control.threads.unwrap_or(0))
            .build();
        match pool {
            Ok(pool) => (
                Some(pool.install(|| {
                    let (solver, result) =
                        duel::solve(&game, &spec, &tahur::signals::interrupted, |n| {
                            control.progress.inc(n)
                        })?;
                    let sheet = match (&solver, a.sheet_dir.is_some()) {
                        (duel::solve::Solved::Bids(s), true) => Some((
                            duel::sheet::csv(s),
                            duel::sheet::markdown(s, &spec, &result, &format!("{stem}.csv")),
                            None,
                        )),
                        (duel::solve::Solved::Full(s), true) if !result.interrupted => {
                            // The table is judged as written (its cuts and rounding are
                            // part of it): the page is what its CSV alone gives.
                            let solved = duel::recall::RecallTable::solved(&game, s);
                            let csv = solved.csv(&game);
                            let compact = solved.compact(&game);
                            drop(solved);
                            let table = duel::recall::RecallTable::parse(&csv, &game, &stem)?;
                            let judged = table.judge(&game);
                            let md = table.markdown(
                                &game,
                                &judged,
                                result.iterations,
                                &format!("{stem}.csv"),
                            );
                            Some((csv, md, Some(compact)))
                        }
                        _ => None,
                    };
                    Ok((result, sheet))
                })),
                None,
            ),
            Err(e) => (None, Some(e.to_string())),
        }
    });
    let (result, sheet) = solved.ok_or_else(|| {
        Error::usage(format!(
            "cannot start the worker threads: {}",
            pool_err.unwrap_or_default()
        ))
    })??;
    if let (Some(dir), Some((csv, md, compact))) = (&a.sheet_dir, &sheet) {
        if result.interrupted {
            say!(
                "tahur: interrupted: the sheet in {} is left as it was",
                dir.display()
            );
        } else {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::usage(format!("cannot create '{}': {e}", dir.display())))?;
            tahur::report::write_atomic(&dir.join(format!("{stem}.csv")), csv.as_bytes())?;
            tahur::report::write_atomic(&dir.join(format!("{stem}.md")), md.as_bytes())?;
            if let Some(bytes) = compact {
                let name = duel::recall::compact_name(&format!("{stem}.csv"));
                tahur::report::write_atomic(&dir.join(name), bytes)?;
            }
        }
    }
    if let Some(path) = &a.chart {
        let note = format!(
            "{}{} CFR+ iterations",
            if result.interrupted { "partial: " } else { "" },
            tahur::humanize::thousands(result.iterations)
        );
        duel::solve::chart(&spec, &result).write_noted(path, &note)?;
    }
    emit(&duel::solve::report(&game, &spec, &result), &a.out)?;
    Ok(exit_code(result.interrupted, || {
        format!(
            "interrupted: {} of {} iterations run{}; the figures are those of the strategy so far",
            result.iterations - result.resumed_at,
            spec.iterations,
            if result.resumed_at > 0 {
                format!(" ({} in all with the state's)", result.iterations)
            } else {
                String::new()
            }
        )
    }))
}
