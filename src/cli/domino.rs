//! `tahur domino …` (the game's own commands; sim, compare, tournament and flags come from the
//! shared layer).

use clap::{Args, Subcommand};

use super::run::{exact_or_run, samples, RunArgs};
use super::OutputArgs;
use tahur::error::{Error, Result};
use tahur::games::domino::deal::{self, Question};
use tahur::games::domino::rules::{Rules, MAX_PLAYERS};
use tahur::games::domino::tiles::parse_list;
use tahur::jobs::Job;
use tahur::play::GameRules;

/// Dominó commands.
#[derive(Subcommand, Debug)]
pub enum DominoCommand {
    /// Exact deal facts: the chance each double opens, that a tile sleeps, doubles per hand, a
    /// hand without a double; given your tiles too; with --samples, checked against the
    /// engine's own deals.
    #[command(after_help = "Examples:
  tahur domino deal --players 4
  tahur domino deal --players 2 --hand-size 7 --samples 1e6
  tahur domino deal --players 4 --set 9 --hand-size 7 --format json
  tahur domino deal --players 4 --hand 6-6,6-1,5-4,3-3,2-0,1-1
  tahur domino deal --players 4 --samples 1e9 --shard 1/4 --output part1.json")]
    Deal(DealArgs),
}

/// `tahur domino deal`.
#[derive(Args, Debug)]
pub struct DealArgs {
    /// Players at the table (2–4).
    #[arg(long, value_name = "P", required = true, value_parser = parse_players)]
    pub players: u8,
    /// The set: 6 (double-six, 28 tiles) or 9 (double-nine, 55 tiles).
    #[arg(long, value_name = "N", default_value = "6")]
    pub set: String,
    /// Tiles dealt to each player; the rest sleep.
    #[arg(long = "hand-size", value_name = "N", default_value = "6")]
    pub hand_size: String,
    /// Your whole hand (e.g. 6-6,5-4,3-0 or "doble seis, seis-uno"): the facts given it.
    #[arg(long, value_name = "TILES", alias = "holding")]
    pub hand: Option<String>,
    /// Also deal N times with the engine's own dealing and compare (e.g. 1e6).
    #[arg(long, value_name = "N", value_parser = samples("deals"))]
    pub samples: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_players(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(
        s,
        2,
        MAX_PLAYERS as u64,
        &format!("Dominó is for 2 to {MAX_PLAYERS} players"),
    )
    .map(|n| n as u8)
}

/// The table `deal` describes: `--set` and `--hand` read by Dominó's rule table, as every
/// command reads them, and checked as a table is; mistakes worded with the flags as typed.
fn deal_rules(players: u8, set: &str, hand: &str) -> Result<Rules> {
    let mut rules = <Rules as GameRules>::standard(players.into());
    for (key, flag, value) in [("set", "set", set), ("hand", "hand-size", hand)] {
        let rule = tahur::play::rules::rule::<Rules>(key).expect("Dominó has the rule");
        if !(rule.set)(&mut rules, value) {
            return Err(Error::usage(format!(
                "invalid --{flag} {}: {}",
                value.trim(),
                rule.accepts
            )));
        }
    }
    rules.validate().map_err(|e| match e {
        Error::Usage(m) => Error::usage(m.replace(
            &format!("hand={}", rules.hand),
            &format!("--hand-size {}", hand.trim()),
        )),
        e => e,
    })?;
    Ok(rules)
}

/// Runs a `tahur domino` command of the game's own.
pub fn execute(cmd: DominoCommand) -> Result<i32> {
    match cmd {
        DominoCommand::Deal(a) => {
            // `--hand N` (a bare number) was the hand size before `--hand-size`: still read so
            // for a release, with a note.
            let (size, hand) = match &a.hand {
                Some(h) if h.trim().chars().all(|c| c.is_ascii_digit()) && !h.trim().is_empty() => {
                    // Said after the run (a mistake stays one line).
                    super::note_after_run(format!(
                        "tahur: note: --hand {} is read as --hand-size {}: --hand now takes your tiles",
                        h.trim(),
                        h.trim()
                    ));
                    (h.clone(), None)
                }
                other => (a.hand_size.clone(), other.clone()),
            };
            let rules = deal_rules(a.players, &a.set, &size)?;
            let holding = match &hand {
                Some(text) => {
                    let tiles = parse_list(text, rules.set)?;
                    let n = tiles.count_ones();
                    if n != rules.hand as u32 {
                        return Err(Error::usage(format!(
                            "--hand '{}' names {n} tile{}: give your whole hand of {}",
                            text.trim(),
                            if n == 1 { "" } else { "s" },
                            rules.hand
                        )));
                    }
                    Some(tiles)
                }
                None => None,
            };
            let q = Question {
                top: rules.set,
                hand: rules.hand,
                players: rules.players,
                holding,
            };
            let facts = deal::facts(&q)?;
            exact_or_run(
                a.samples,
                &a.run,
                &a.out,
                || Ok(deal::report(&q, &facts, None)),
                || Job::DominoDeal(q),
            )
        }
    }
}
