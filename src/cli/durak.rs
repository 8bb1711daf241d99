//! `tahur durak …`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{run_job, OutputArgs, RunRequest};
use crate::error::{Error, Result};
use crate::games::dudo::face::normalize;
use crate::games::durak::bots::Strategy;
use crate::games::durak::compare::CompareSetup;
use crate::games::durak::flags::{self, FlagsSetup, FlagsTally};
use crate::games::durak::rules::{LastCards, Rules, Teams, Variant, MAX_PLAYERS};
use crate::games::durak::sim::{self, GameTally, TableSetup};
use crate::games::durak::tournament::{self, TournamentSetup, TournamentTally};
use crate::jobs::Job;
use crate::report::chart::SvgChart;

/// Durak commands.
#[derive(Subcommand, Debug)]
pub enum DurakCommand {
    /// Whole games between strategies: durak rate by seat, strategy and position, draws, game
    /// length, first-attacker advantage, durak with epaulettes.
    #[command(after_help = "Examples:
  tahur durak sim --players 2 --strategies greedy,random --games 100000
  tahur durak sim --players 4 --strategies expert,greedy --variant perevodnoy --chart seats.svg
  tahur durak sim --players 4 --teams 2x2 --strategies greedy --games 1e5 --format json
  tahur durak sim --players 3 --strategies random --deck 52 --hand 7 --length-chart length.svg
  tahur durak sim --players 2 --strategies ismcts:100,greedy --games 200 --check
  tahur durak sim --players 4 --strategies greedy --series 10 --games 1e6
  tahur durak sim --players 6 --games 1e7 --shard 1/4 --output part1.json")]
    Sim(SimCmd),
    /// Two variants of a table (rules and/or strategies) on common random numbers: each
    /// variant's rates and the paired differences with intervals and tests.
    #[command(
        after_help = "Variants are the table given by the rule flags, changed by --a / --b (rule
changes as KEY=VALUE pairs) and --a-strategies / --b-strategies. Keys: variant,
deck, hand, teams, show-trump-transfer, dealer-trump, last-cards,
five-before-discard, redeal, max-moves (on/off for the switches). variant= also
moves deck and hand to that variant's standard unless they were changed.

Examples:
  tahur durak compare --players 2 --strategies greedy,random --b variant=perevodnoy
  tahur durak compare --players 4 --strategies greedy --b teams=2x2 --games 1e5
  tahur durak compare --players 3 --a-strategies expert,greedy --b-strategies greedy --detect 1
  tahur durak compare --players 2 --variant perevodnoy --a show-trump-transfer=on"
    )]
    Compare(CompareCmd),
    /// Every strategy against every other, seats alternating A, B, A, B, … and rotated on the
    /// same deals: per pair the durak rates and their difference, and an overall ranking.
    #[command(after_help = "Examples:
  tahur durak tournament --players 2 --strategies random,greedy,expert --games 20000
  tahur durak tournament --players 4 --strategies greedy,expert --chart ranking.svg
  tahur durak tournament --players 2 --strategies greedy,ismcts:100 --games 100
  tahur durak tournament --players 3 --games 1e6 --shard 2/3 --output part2.json")]
    Tournament(TournamentCmd),
    /// How every house rule moves the figures: the table against each one-rule change of it on
    /// the same deals, with the first attacker's edge, draws and game length, and the fairest.
    #[command(
        after_help = "The changes are every flag that means something for the table: the other
variants, show-trump-transfer (perevodnoy), teams (4 or 6 players), dealer-trump,
last-cards, five-before-discard, redeal, and the other deck (52 with 7 cards, or
36 with 6). Each is played on the same deals as the table (paired).

Examples:
  tahur durak flags --players 4 --strategies greedy --games 1e5
  tahur durak flags --players 2 --strategies expert --variant perevodnoy --chart fair.svg
  tahur durak flags --players 6 --strategies greedy --games 1e6 --format markdown"
    )]
    Flags(FlagsCmd),
}

/// The rules, shared by every Durak command.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// Players at the table (2–6).
    #[arg(long, value_name = "P", value_parser = parse_players)]
    pub players: u8,
    /// Variant: podkidnoy (others throw in: the usual game), perevodnoy (the defender may pass
    /// the attack on) or platkowy (5 cards from 52, openings in pairs).
    #[arg(long, value_name = "NAME", default_value = "podkidnoy")]
    pub variant: String,
    /// Perevodnoy: the defender may also transfer once per bout by showing the trump of the
    /// attack rank.
    #[arg(long)]
    pub show_trump_transfer: bool,
    /// Partnerships: 2x2 (4 players, partners opposite), 3x3 or 2x2x2 (6 players).
    #[arg(long, value_name = "TEAMS")]
    pub teams: Option<String>,
    /// Trump is the suit of the dealer's last card; no card is turned under the stock.
    #[arg(long)]
    pub dealer_trump: bool,
    /// Cards in the deck: 36 (6 to ace) or 52 [default: 36; platkowy 52].
    #[arg(long, value_name = "CARDS", value_parser = parse_deck)]
    pub deck: Option<u8>,
    /// Cards per hand, 1–12 [default: 6; platkowy 5].
    #[arg(long, value_name = "N", value_parser = parse_hand)]
    pub hand: Option<u8>,
    /// When the last cards go out together: draw, or defender (the last defender is the durak).
    #[arg(long, value_name = "RULE", default_value = "draw")]
    pub last_cards: String,
    /// At most 5 attack cards until the first bout is discarded.
    #[arg(long)]
    pub five_before_discard: bool,
    /// Play hands that are all red, all black or hold five cards of a suit (no re-deal).
    #[arg(long)]
    pub no_redeal: bool,
    /// Stop a game unfinished (counted as capped) after this many actions [default: 10000].
    #[arg(long, value_name = "N", value_parser = parse_max_moves)]
    pub max_moves: Option<u32>,
}

impl RuleArgs {
    /// The rules these flags describe (checked when the table is set up).
    pub fn rules(&self) -> Result<Rules> {
        let mut r = Rules::standard(Variant::parse(&self.variant)?, self.players);
        if let Some(d) = self.deck {
            r.deck = d;
        }
        if let Some(h) = self.hand {
            r.hand = h;
        }
        if let Some(t) = &self.teams {
            r.teams = Teams::parse(t)?;
        }
        r.show_trump_transfer = self.show_trump_transfer;
        r.dealer_trump = self.dealer_trump;
        r.last_cards = LastCards::parse(&self.last_cards)?;
        r.five_before_discard = self.five_before_discard;
        r.redeal = !self.no_redeal;
        if let Some(m) = self.max_moves {
            r.max_moves = m;
        }
        Ok(r)
    }
}

fn parse_players(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n) if (2..=MAX_PLAYERS as u8).contains(&n) => Ok(n),
        _ => Err(format!("Durak is for 2 to {MAX_PLAYERS} players")),
    }
}

fn parse_deck(s: &str) -> std::result::Result<u8, String> {
    match s.trim() {
        "36" => Ok(36),
        "52" => Ok(52),
        _ => Err("use 36 (6 to ace) or 52".into()),
    }
}

fn parse_hand(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n) if (1..=12).contains(&n) => Ok(n),
        _ => Err("give 1 to 12 cards".into()),
    }
}

fn parse_max_moves(s: &str) -> std::result::Result<u32, String> {
    match super::parse_count(s) {
        Some(n) if (10..=u32::MAX as u64).contains(&n) => Ok(n as u32),
        _ => Err(format!("give 10 to {} actions", u32::MAX)),
    }
}

fn parse_series(s: &str) -> std::result::Result<u32, String> {
    match super::parse_count(s) {
        Some(n) if (1..=sim::MAX_SERIES as u64).contains(&n) => Ok(n as u32),
        _ => Err(format!(
            "give 1 (independent games) to {} games per series",
            sim::MAX_SERIES
        )),
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

fn parse_detect(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(d) if d > 0.0 && d.is_finite() => Ok(d),
        _ => Err("expected a positive difference, e.g. 1 (percentage point)".into()),
    }
}

/// Runner options of Durak simulations.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Games to play, e.g. 10000 or 1e5 (tournament: per pair of strategies, rounded up to
    /// whole deals: every deal is played at every seating).
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

impl RunArgs {
    fn request(&self, samples: u64) -> RunRequest<'_> {
        RunRequest {
            samples,
            seed: self.seed,
            threads: self.threads.map(usize::from),
            shard: self.shard.as_deref(),
        }
    }
}

/// `tahur durak sim`.
#[derive(Args, Debug)]
pub struct SimCmd {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Strategies by seat, repeated if fewer than players: random, greedy, expert, ismcts[:N]
    /// (N iterations per move, default 300).
    #[arg(long, value_name = "S1,S2,…", default_value = "greedy")]
    pub strategies: String,
    /// Check the engine's invariants after every action (slower); violations are reported.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub series: SeriesArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Draw the durak rate by seat with 95 % intervals and the fair share as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Draw the durak rate per seat of each strategy as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub strategy_chart: Option<PathBuf>,
    /// Draw the distribution of game length in bouts as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub length_chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur durak compare`.
#[derive(Args, Debug)]
pub struct CompareCmd {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Strategies by seat of both variants (unless --a-strategies / --b-strategies).
    #[arg(long, value_name = "S1,S2,…", default_value = "greedy")]
    pub strategies: String,
    /// Variant A's rule changes, e.g. variant=perevodnoy or teams=2x2,last-cards=defender.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub a: String,
    /// Variant B's rule changes.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub b: String,
    /// Variant A's strategies by seat (instead of --strategies).
    #[arg(long, value_name = "S1,S2,…")]
    pub a_strategies: Option<String>,
    /// Variant B's strategies by seat (instead of --strategies).
    #[arg(long, value_name = "S1,S2,…")]
    pub b_strategies: Option<String>,
    /// Also size the games needed to detect a difference of D (percentage points for rates,
    /// bouts for game length), from the paired variance seen.
    #[arg(long, value_name = "D", value_parser = parse_detect)]
    pub detect: Option<f64>,
    #[command(flatten)]
    pub series: SeriesArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur durak tournament`.
#[derive(Args, Debug)]
pub struct TournamentCmd {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The strategies that meet, two or more: random, greedy, expert, ismcts[:N].
    #[arg(long, value_name = "S1,S2,…", default_value = "random,greedy,expert")]
    pub strategies: String,
    /// Check the engine's invariants after every action (slower).
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub run: RunArgs,
    /// Draw the ranking (durak rate per seat with 95 % intervals) as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// How games follow each other (sim and compare).
#[derive(Args, Debug, Clone)]
pub struct SeriesArgs {
    /// Play games in series of N: the first with a random dealer (the holder of the lowest trump
    /// attacks), each later one dealt by the previous durak with the player on their left
    /// attacking; after a draw the next game starts afresh. --games still counts games.
    #[arg(long, value_name = "N", default_value = "1", value_parser = parse_series)]
    pub series: u32,
}

/// `tahur durak flags`.
#[derive(Args, Debug)]
pub struct FlagsCmd {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Strategies by seat, repeated if fewer than players: random, greedy, expert, ismcts[:N].
    #[arg(long, value_name = "S1,S2,…", default_value = "greedy")]
    pub strategies: String,
    #[command(flatten)]
    pub run: RunArgs,
    /// Draw the first attacker's durak rate as a share of the fair share, per table, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Applies rule changes such as `variant=perevodnoy,teams=2x2` to `rules`. `variant=` comes
/// first and also moves deck and hand to the new variant's standard when they were at the old
/// one's.
pub fn apply_rule_changes(mut rules: Rules, spec: &str) -> Result<Rules> {
    let hint = "expected KEY=VALUE pairs such as variant=perevodnoy,teams=2x2";
    let pairs: Vec<(&str, &str)> = spec
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| Error::usage(format!("invalid rule change '{p}': {hint}")))
        })
        .collect::<Result<_>>()?;
    for &(_, v) in pairs.iter().filter(|(k, _)| *k == "variant") {
        let variant = Variant::parse(v)?;
        let old = Rules::standard(rules.variant, rules.players);
        let new = Rules::standard(variant, rules.players);
        if (rules.deck, rules.hand) == (old.deck, old.hand) {
            rules.deck = new.deck;
            rules.hand = new.hand;
        }
        rules.variant = variant;
    }
    let on_off = |k: &str, v: &str| match normalize(v).as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(Error::usage(format!("invalid {k}={v}: use on or off"))),
    };
    let number = |k: &str, v: &str, f: fn(&str) -> std::result::Result<u32, String>| {
        f(v).map_err(|e| Error::usage(format!("invalid {k}={v}: {e}")))
    };
    for &(k, v) in pairs.iter().filter(|(k, _)| *k != "variant") {
        match k {
            "deck" => {
                rules.deck =
                    number(k, v, |s| parse_deck(s).map(u32::from))? as u8;
            }
            "hand" => rules.hand = number(k, v, |s| parse_hand(s).map(u32::from))? as u8,
            "max-moves" => rules.max_moves = number(k, v, parse_max_moves)?,
            "teams" => rules.teams = Teams::parse(v)?,
            "last-cards" => rules.last_cards = LastCards::parse(v)?,
            "show-trump-transfer" => rules.show_trump_transfer = on_off(k, v)?,
            "dealer-trump" => rules.dealer_trump = on_off(k, v)?,
            "five-before-discard" => rules.five_before_discard = on_off(k, v)?,
            "redeal" => rules.redeal = on_off(k, v)?,
            _ => {
                return Err(Error::usage(format!(
                    "unknown rule '{k}' in '{spec}': keys are variant, deck, hand, teams, show-trump-transfer, dealer-trump, last-cards, five-before-discard, redeal, max-moves"
                )))
            }
        }
    }
    Ok(rules)
}

fn no_charts_with_shard(shard: &Option<String>, charts: &[&Option<PathBuf>]) -> Result<()> {
    if shard.is_some() && charts.iter().any(|c| c.is_some()) {
        return Err(Error::usage(
            "charts are drawn from whole runs: drop --chart with --shard",
        ));
    }
    Ok(())
}

/// Runs a Durak command.
pub fn execute(cmd: DurakCommand) -> Result<i32> {
    match cmd {
        DurakCommand::Sim(a) => {
            let setup = TableSetup::new(
                a.rules.rules()?,
                &Strategy::parse_list(&a.strategies)?,
                a.check,
            )?
            .with_series(a.series.series)?;
            no_charts_with_shard(
                &a.run.shard,
                &[&a.chart, &a.strategy_chart, &a.length_chart],
            )?;
            let charts = |tally: &serde_json::Value| -> Result<()> {
                let t: GameTally = super::tally_of(tally)?;
                if let Some(p) = &a.chart {
                    sim::seat_chart(&setup, &t).write(p)?;
                }
                if let Some(p) = &a.strategy_chart {
                    sim::strategy_chart(&setup, &t).write(p)?;
                }
                if let Some(p) = &a.length_chart {
                    sim::length_chart(&setup, &t).write(p)?;
                }
                Ok(())
            };
            run_job(
                Job::DurakSim(setup.clone()),
                a.run.request(a.run.games),
                &a.out,
                charts,
            )
        }
        DurakCommand::Compare(a) => {
            let base = a.rules.rules()?;
            let variant = |spec: &str, strategies: &Option<String>| -> Result<TableSetup> {
                let list = Strategy::parse_list(strategies.as_deref().unwrap_or(&a.strategies))?;
                TableSetup::new(apply_rule_changes(base, spec)?, &list, false)?
                    .with_series(a.series.series)
            };
            let name = |spec: &str, strategies: &Option<String>| {
                let mut parts = Vec::new();
                if !spec.trim().is_empty() {
                    parts.push(spec.trim().to_string());
                }
                if let Some(s) = strategies {
                    parts.push(format!("strategies {s}"));
                }
                if parts.is_empty() {
                    "the given table".to_string()
                } else {
                    parts.join(" · ")
                }
            };
            let setup = CompareSetup::new(
                variant(&a.a, &a.a_strategies)?,
                variant(&a.b, &a.b_strategies)?,
                [name(&a.a, &a.a_strategies), name(&a.b, &a.b_strategies)],
                a.detect,
            )?;
            run_job(
                Job::DurakCompare(setup),
                a.run.request(a.run.games),
                &a.out,
                |_| Ok(()),
            )
        }
        DurakCommand::Tournament(a) => {
            let setup = TournamentSetup::new(
                a.rules.rules()?,
                &Strategy::parse_list(&a.strategies)?,
                a.check,
            )?;
            no_charts_with_shard(&a.run.shard, &[&a.chart])?;
            let deals = setup.deals_for(a.run.games);
            let charts = |tally: &serde_json::Value| -> Result<()> {
                if let Some(p) = &a.chart {
                    let t: TournamentTally = super::tally_of(tally)?;
                    tournament::chart(&setup, &t).write(p)?;
                }
                Ok(())
            };
            run_job(
                Job::DurakTournament(setup.clone()),
                a.run.request(deals),
                &a.out,
                charts,
            )
        }
        DurakCommand::Flags(a) => {
            let setup = FlagsSetup::new(TableSetup::new(
                a.rules.rules()?,
                &Strategy::parse_list(&a.strategies)?,
                false,
            )?)?;
            no_charts_with_shard(&a.run.shard, &[&a.chart])?;
            let charts = |tally: &serde_json::Value| -> Result<()> {
                if let Some(p) = &a.chart {
                    let t: FlagsTally = super::tally_of(tally)?;
                    flags::chart(&setup, &t).write(p)?;
                }
                Ok(())
            };
            run_job(
                Job::DurakFlags(setup.clone()),
                a.run.request(a.run.games),
                &a.out,
                charts,
            )
        }
    }
}
