//! `tahur GAME sheet`: measures a game's cheat sheets ([`tahur::play::sheet`]) and writes them
//! as Markdown, CSV and their sums, for every game with a sheet.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command};

use super::games::GameCli;
use super::run::{exit_code, parse_seed, parse_threads, samples, with_progress};
use tahur::error::{Error, Result};
use tahur::play::sheet::{self, SheetGame, SheetSpec};

/// A hidden argument that marks the command registered here.
const MARK: &str = "tahur-sheet-command";

/// Adds `sheet` under game `G`'s command (which must exist).
pub fn register<G: GameCli + SheetGame>(cli: Command) -> Command {
    let key = G::INFO.key;
    let names = G::SHEETS.join(", ");
    let cmd = Command::new("sheet")
        .about(format!(
            "Measure the cheat sheets ({names}): each decision players ask about, by class of situation, with the better play, by how much and how sure (paired rollouts with {} at every seat); writes them to --out-dir",
            G::reference()
        ))
        .arg(Arg::new(MARK).long(MARK).hide(true).action(ArgAction::SetTrue))
        .arg(
            Arg::new("out-dir")
                .long("out-dir")
                .value_name("DIR")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Folder to write sheet-<name>.md, .csv and -tally.json into (created if missing; the shipped sheets are in data/GAME of the source tree)"),
        )
        .arg(
            Arg::new("only")
                .long("only")
                .value_name("NAME")
                .value_parser(clap::builder::PossibleValuesParser::new(G::SHEETS.iter().copied()))
                .help("Measure only this sheet"),
        )
        .arg(
            Arg::new("games")
                .long("games")
                .value_name("N")
                .default_value(G::SHEET_GAMES.to_string())
                .value_parser(samples("games"))
                .help("Games per sheet (each gives at most one situation per decision); the shipped sheets use the default"),
        )
        .arg(
            Arg::new("rollouts")
                .long("rollouts")
                .value_name("N")
                .default_value(G::SHEET_ROLLOUTS.to_string())
                .value_parser(|s: &str| {
                    tahur::text::parse_whole(s, 1, 10_000, "give rollouts per situation from 1 to 10000")
                        .map(|n| n as u32)
                })
                .help("Rollouts per situation (each plays every option on the same deal)"),
        )
        .arg(
            Arg::new("seed")
                .long("seed")
                .value_name("S")
                .default_value("1")
                .value_parser(parse_seed)
                .help("Seed of the random streams: the same seed and counts give the same sheet"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("T")
                .value_parser(parse_threads)
                .help("Worker threads (default: every core); never changes the result"),
        )
        .after_help(format!(
            "Examples:\n  tahur {key} sheet --out-dir sheets\n  tahur {key} sheet --only {} --games 2000 --out-dir sheets",
            G::SHEETS[0]
        ));
    cli.mut_subcommand(key, |game| game.subcommand(cmd))
}

/// Runs `sheet` of game `G` if `m` holds it.
pub fn dispatch<G: GameCli + SheetGame>(m: &ArgMatches) -> Option<Result<i32>> {
    let (game, sub) = m.subcommand()?;
    if game != G::INFO.key {
        return None;
    }
    let ("sheet", args) = sub.subcommand()? else {
        return None;
    };
    if !args.try_contains_id(MARK).unwrap_or(false) {
        return None;
    }
    Some(run::<G>(args))
}

fn run<G: GameCli + SheetGame>(args: &ArgMatches) -> Result<i32> {
    let out_dir = args
        .get_one::<PathBuf>("out-dir")
        .expect("defaulted")
        .clone();
    let games = *args.get_one::<u64>("games").expect("defaulted");
    let rollouts = *args.get_one::<u32>("rollouts").expect("defaulted");
    let seed = *args.get_one::<u64>("seed").expect("defaulted");
    let threads = args.get_one::<usize>("threads").copied();
    let only = args.get_one::<String>("only");
    let sheets: Vec<usize> = (0..G::SHEETS.len())
        .filter(|&i| only.is_none_or(|o| o == G::SHEETS[i]))
        .collect();
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| Error::usage(format!("cannot create '{}': {e}", out_dir.display())))?;
    let mut written = 0;
    for i in sheets {
        let spec = SheetSpec {
            sheet: i,
            games,
            seed,
            rollouts,
        };
        let progress = super::run::progress(games, "games");
        let measured = with_progress(threads, progress, |control| {
            let prefix = sheet::measure_prefix::<G>(&spec, sheet::PREFIX_CHUNKS, control)?;
            let tally = sheet::measure::<G>(&spec, control)?;
            Ok::<_, Error>((prefix, tally))
        });
        let (prefix, tally) = match measured {
            Ok(t) => t,
            Err(e) if tahur::signals::interrupted() => {
                return Ok(exit_code(true, || format!("{e}; {written} files written")));
            }
            Err(e) => return Err(e),
        };
        for (name, content) in sheet::files::<G>(&tally, &prefix, &spec)? {
            tahur::report::write_atomic(&out_dir.join(name), content.as_bytes())?;
            written += 1;
        }
    }
    say!("wrote {written} files under {}", out_dir.display());
    Ok(0)
}
