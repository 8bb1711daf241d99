//! `tahur poker …`: Póker mentiroso's own commands (sim, compare, tournament and flags come
//! from the shared layer).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::run::{exit_code, samples, with_progress, SeedArgs};
use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::games::poker::bots::Strategy;
use tahur::games::poker::hand::{Claim, Counts};
use tahur::games::poker::reports::{self, ChancesQuery, RerollQuery};
use tahur::games::poker::rules::MAX_PLAYERS;
use tahur::games::poker::tune::{self, TuneSpec};

/// Póker mentiroso commands.
#[derive(Subcommand, Debug)]
pub enum PokerCommand {
    /// The exact chance of each hand type (repóker … pareja, nada) for a roll of K dice.
    #[command(after_help = "Examples:
  tahur poker odds
  tahur poker odds --dice 3 --format csv")]
    Odds(OddsArgs),
    /// The best way to re-roll, die by die, to beat (or reach) a claim: its exact chance,
    /// the plan in words, and the best single keep.
    #[command(after_help = "Examples:
  tahur poker reroll --hand AAKQJ --beat 'trío de reyes'
  tahur poker reroll --hand KKK87 --beat KKK87 --rolled 8
  tahur poker reroll --hand 'as,as,rey,reina,jota' --reach 'full de ases'
  tahur poker reroll --hand AAKQJ --beat 'pareja de reyes' \\
      --reach 'doble pareja de ases y reyes' --format json

Claims: trío de reyes, full de ases y jotas, doble pareja de reinas y ochos,
póker de negras, repóker de ases, pareja de jotas con as, or dice (AAKKQ, KKK).
Faces: as (A), rey (K), reina or dama (Q), jota (J), roja (8), negra (7).")]
    Reroll(RerollArgs),
    /// The receiver's side of a call: the chance a claim is true given the dice face up,
    /// and the chance to beat it after accepting.
    #[command(after_help = "Examples:
  tahur poker chances --public 'A,A' --claim 'full de ases'
  tahur poker chances --claim 'trío de reyes'
  tahur poker chances --public KK7 --claim 'póker de reyes' --players 3")]
    Chances(ChancesArgs),
    /// Write the claim sheet (every claim on the ladder: how likely, how hard to beat, the
    /// tuned bots' calls) into --out-dir as CSV and Markdown; the shipped one is the source
    /// tree's data/poker.
    #[command(after_help = "Example:
  tahur poker sheet --out-dir data/poker")]
    Sheet(SheetArgs),
    /// Search the call/bluff parameters that win most against a field, per table size;
    /// writes tuned.csv and tuned.md into --out-dir. The `tuned` strategy plays the table
    /// shipped in the source tree's data/poker (built in); `tuned:FILE.csv` plays another.
    #[command(after_help = "Examples:
  tahur poker tune --out-dir tuned
  tahur poker tune --players 3,4 --field honest,threshold --games 5000 \\
      --out-dir tuned &&
      tahur poker sim --players 4 --strategies tuned:tuned/tuned.csv,tuned")]
    Tune(TuneArgs),
}

/// `tahur poker odds`.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// Dice rolled (1–5).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = parse_dice_count)]
    pub dice: usize,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_dice_count(s: &str) -> std::result::Result<usize, String> {
    tahur::text::parse_whole(s, 1, 5, "a roll has 1 to 5 poker dice").map(|n| n as usize)
}

/// `tahur poker reroll`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("claim").args(["beat", "reach"]).required(true).multiple(true)))]
pub struct RerollArgs {
    /// Your five dice: AAKQJ, or as,as,rey,reina,jota.
    #[arg(long, value_name = "DICE", allow_hyphen_values = true, alias = "dice")]
    pub hand: String,
    /// The claim you accepted: the goal is a hand strictly above it.
    #[arg(long, value_name = "CLAIM", num_args = 1..)]
    pub beat: Vec<String>,
    /// A claim to reach (at least it); with --beat it must be above that claim.
    #[arg(long, value_name = "CLAIM", num_args = 1..)]
    pub reach: Vec<String>,
    /// Dice already rolled this turn (among --hand): they may not be rolled again.
    #[arg(long, value_name = "DICE", allow_hyphen_values = true)]
    pub rolled: Option<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur poker chances`.
#[derive(Args, Debug)]
pub struct ChancesArgs {
    /// Dice lying face up: 'A,A', AA, or none (the default).
    #[arg(
        long,
        value_name = "DICE",
        default_value = "",
        hide_default_value = true,
        allow_hyphen_values = true
    )]
    pub public: String,
    /// The claim received.
    #[arg(long, value_name = "CLAIM", num_args = 1.., required = true)]
    pub claim: Vec<String>,
    /// Players at the table, for the tuned bots' call threshold.
    #[arg(long, value_name = "P", default_value_t = 4, value_parser = parse_players)]
    pub players: u8,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_players(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(
        s,
        2,
        MAX_PLAYERS as u64,
        &format!("Póker mentiroso is for 2 to {MAX_PLAYERS} players"),
    )
    .map(|n| n as u8)
}

fn parse_points(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(s, 1, 20, "a game is played to 1 to 20 points").map(|n| n as u8)
}

/// `tahur poker sheet`.
#[derive(Args, Debug)]
pub struct SheetArgs {
    /// Folder to write sheet.csv and sheet.md into (created if missing).
    #[arg(long = "out-dir", id = "out-dir", required = true, value_name = "DIR")]
    pub out_dir: PathBuf,
}

/// `tahur poker tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Table sizes to tune.
    #[arg(long, value_name = "P", value_delimiter = ',', default_value = "2,3,4,5,6", value_parser = parse_players)]
    pub players: Vec<u8>,
    /// Points a game is played to.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = parse_points)]
    pub points: u8,
    /// The strategies the other seats play, each in turn (every candidate meets them all).
    #[arg(long, value_name = "S1,S2,…", default_value = tune::DEFAULT_FIELD)]
    pub field: String,
    /// Games per candidate, table size and field strategy.
    #[arg(long, value_name = "N", default_value_t = tune::DEFAULT_GAMES, value_parser = samples("games"))]
    pub games: u64,
    /// Seed (every candidate plays the same deals) and threads.
    #[command(flatten)]
    pub run: SeedArgs,
    /// Folder for tuned.csv and tuned.md (created if missing).
    #[arg(long = "out-dir", id = "out-dir", required = true, value_name = "DIR")]
    pub out_dir: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A claim written as one or several words.
fn claim(words: &[String], flag: &str) -> Result<Claim> {
    let text = words.join(" ");
    Claim::parse(&text).map_err(|e| Error::usage(format!("--{flag}: {e}")))
}

/// Dice as written (`none`, `-` or nothing: no dice).
fn dice(text: &str, flag: &str) -> Result<Counts> {
    let t = text.trim();
    if t.is_empty() || t == "-" || tahur::text::normalize(t) == "none" {
        return Ok(Counts::EMPTY);
    }
    Counts::parse(t, &format!("--{flag}"))
}

/// Runs a Póker mentiroso command.
pub fn execute(cmd: PokerCommand) -> Result<i32> {
    match cmd {
        PokerCommand::Odds(a) => {
            emit(&reports::odds_report(a.dice)?, &a.out)?;
            Ok(0)
        }
        PokerCommand::Reroll(a) => {
            let beat = (!a.beat.is_empty())
                .then(|| claim(&a.beat, "beat"))
                .transpose()?;
            let reach = (!a.reach.is_empty())
                .then(|| claim(&a.reach, "reach"))
                .transpose()?;
            let hand = dice(&a.hand, "hand")?;
            let rolled = dice(a.rolled.as_deref().unwrap_or(""), "rolled")?;
            let q = RerollQuery::new(hand, rolled, beat, reach)?;
            emit(&reports::reroll_report(&q), &a.out)?;
            Ok(0)
        }
        PokerCommand::Chances(a) => {
            let q = ChancesQuery {
                public: dice(&a.public, "public")?,
                claim: claim(&a.claim, "claim")?,
                players: a.players,
            };
            emit(&reports::chances_report(&q)?, &a.out)?;
            Ok(0)
        }
        PokerCommand::Sheet(a) => {
            let files = reports::sheet_files()?;
            std::fs::create_dir_all(&a.out_dir).map_err(|e| {
                Error::usage(format!("cannot create '{}': {e}", a.out_dir.display()))
            })?;
            for (name, content) in &files {
                tahur::report::write_atomic(&a.out_dir.join(name), content.as_bytes())?;
            }
            say!("wrote {} files under {}", files.len(), a.out_dir.display());
            Ok(0)
        }
        PokerCommand::Tune(a) => {
            let field =
                <Strategy as tahur::play::Strategy<tahur::games::poker::Poker>>::parse_list(
                    &a.field,
                )?;
            // `tuned`, and the bots that play it, would tune against the table being tuned.
            if let Some(s) = field.iter().find(|s| {
                matches!(
                    s,
                    Strategy::Tuned
                        | Strategy::Search { plays: None, .. }
                        | Strategy::Ismcts { .. }
                )
            }) {
                return Err(Error::usage(format!(
                    "--field {s} would tune against the tuned table itself: pick random, honest, threshold, tuned:FILE.csv or search:rollouts=N,call=…,bluff=…"
                )));
            }
            let mut spec = TuneSpec::grid(a.players.clone(), field, a.games, a.run.seed);
            spec.points = a.points;
            let progress = super::run::progress(spec.total_games() + spec.check_samples(), "games");
            let (results, checks) = with_progress(a.run.threads, progress, |control| {
                let results = tune::tune(&spec, control)?;
                let checks = if results.len() < spec.players.len() {
                    None
                } else {
                    tune::check(&spec, &results, control)?
                };
                Ok::<_, Error>((results, checks))
            })?;
            let interrupted = checks.is_none();
            if interrupted {
                let mut rep = tune::report(&spec, &results, None);
                rep.note(format!(
                    "Interrupted (Ctrl-C or SIGTERM): {} of the {} table sizes were tuned in full, and the checks did not finish. Nothing was written to {}.",
                    results.len(),
                    spec.players.len(),
                    a.out_dir.display()
                ));
                let code = exit_code(interrupted, || {
                    format!(
                        "interrupted: {} of {} table sizes tuned; {} left as it was",
                        results.len(),
                        spec.players.len(),
                        a.out_dir.join("tuned.csv").display()
                    )
                });
                emit(&rep, &a.output)?;
                return Ok(code);
            }
            let rep = tune::report(&spec, &results, checks.as_ref());
            std::fs::create_dir_all(&a.out_dir).map_err(|e| {
                Error::usage(format!("cannot create '{}': {e}", a.out_dir.display()))
            })?;
            tahur::report::write_atomic(
                &a.out_dir.join("tuned.csv"),
                tune::csv(&results, a.games).as_bytes(),
            )?;
            let md = tahur::report::render(&rep, tahur::report::Format::Markdown)? + "\n";
            tahur::report::write_atomic(&a.out_dir.join("tuned.md"), md.as_bytes())?;
            emit(&rep, &a.output)?;
            Ok(0)
        }
    }
}
