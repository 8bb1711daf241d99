//! `tahur GAME position` and `tahur GAME advise --position TEXT` for every game that writes and
//! reads positions ([`Positions`]): built once from the game's rule table and words.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::games::GameCli;
use super::run::{
    exit_code, parse_seed, progress, progress_up_to, samples, with_progress, SeedArgs,
};
use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::play::advise::{self, AdviceSetup};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{GameRules, State, Strategy};
use tahur::report::{Report, Value};
use tahur::rng::base_stream;
use tahur::runner::RunSpec;

/// The commands added for every game with positions.
pub const COMMANDS: [&str; 2] = ["position", "advise"];

/// Adds `position` and `advise` under game `G`'s command (which must exist: register the
/// whole-game commands first). A game that already has a command of that name keeps its own.
pub fn register<G: GameCli + Positions>(cli: Command) -> Command {
    cli.mut_subcommand(G::INFO.key, |mut game| {
        for name in COMMANDS {
            if game.get_subcommands().any(|s| s.get_name() == name) {
                continue;
            }
            game = game.subcommand(command::<G>(name));
        }
        game
    })
}

/// Runs `position` or `advise` of game `G` if `m` holds one.
pub fn dispatch<G: GameCli + Positions>(m: &ArgMatches) -> Option<Result<i32>> {
    let (game, sub) = m.subcommand()?;
    if game != G::INFO.key {
        return None;
    }
    let (name, args) = sub.subcommand()?;
    // Only the commands registered here: a game's own command of the same name runs as before.
    if !args.try_contains_id(MARK).unwrap_or(false) {
        return None;
    }
    match name {
        "position" => Some(position::<G>(args)),
        "advise" => Some(advise::<G>(args)),
        _ => None,
    }
}

/// A hidden argument that marks the commands registered here.
const MARK: &str = "tahur-positions-command";

fn command<G: GameCli + Positions>(name: &'static str) -> Command {
    let key = G::INFO.key;
    let mut cmd = Command::new(name).arg(
        Arg::new(MARK)
            .long(MARK)
            .hide(true)
            .action(ArgAction::SetTrue),
    );
    cmd = super::play::rule_args::<G>(cmd);
    if name == "position" {
        cmd = cmd
            .about("The position of the player to act after N actions of a seed's game, written as `advise --position` reads it")
            .arg(
                Arg::new("seed")
                    .long("seed")
                    .value_name("S")
                    .default_value("1")
                    .value_parser(parse_seed)
                    .help("The game: the first game `sim --seed S` deals at these rules"),
            )
            .arg(
                Arg::new("after")
                    .long("after")
                    .value_name("N")
                    .default_value("0")
                    .value_parser(|s: &str| tahur::text::parse_whole(s, 0, 100_000, "give a number of actions from 0"))
                    .help("Actions played before the position (by --strategies)"),
            )
            .arg(
                Arg::new("strategies")
                    .long("strategies")
                    .value_name("S1,S2,…")
                    .default_value(G::INFO.default_strategies)
                    .help(format!("Who plays those actions, by seat: {}", G::STRATEGIES)),
            )
            .after_help(format!(
                "Examples:\n  tahur {key} position --players 4 --seed 7 --after 12\n  tahur {key} position --players 4 --seed 7 --after 12 --format json"
            ));
    } else {
        cmd = cmd
            .about("Every legal action at a position with your chance from there by rollouts (the same deals for every action), its 95 % interval, its difference from the best, and the best marked")
            .arg(
                Arg::new("position")
                    .long("position")
                    .value_name("TEXT")
                    .required(true)
                    .help(format!("What you see, as `{key} position` writes it, e.g. \"{}\"", G::POSITION_EXAMPLE)),
            )
            .arg(
                Arg::new("bots")
                    .long("bots")
                    .value_name("S1,S2,…")
                    .default_value(G::ROLLOUT_BOTS)
                    .help(format!("Who plays the rest of each rollout, every seat yours included, by seat: {}", G::STRATEGIES)),
            )
            .arg(
                Arg::new("rollouts")
                    .long("rollouts")
                    .value_name("N")
                    .default_value("10000")
                    .value_parser(samples("rollouts"))
                    .help("Deals rolled out, each with every action (with --until-decided: at most)"),
            )
            .arg(
                Arg::new("until-decided")
                    .long("until-decided")
                    .action(ArgAction::SetTrue)
                    .help("Stop once the best action is separated from every other (looks after 640, 1280, … deals at α/2, α/4, …)"),
            )
            .arg(
                Arg::new("alpha")
                    .long("alpha")
                    .value_name("A")
                    .default_value("0.05")
                    .value_parser(|s: &str| match s.trim().parse::<f64>() {
                        Ok(a) if a > 0.0 && a < 1.0 => Ok(a),
                        _ => Err("expected a level between 0 and 1, e.g. 0.05".to_string()),
                    })
                    .help("Error level of --until-decided over all its looks"),
            )
            .after_help(format!(
                "What you cannot see is dealt uniformly over what fits the position, afresh for\n\
                 every rollout; every action meets the same deals and streams (paired).\n\n\
                 A position reads like this:\n{}\n\n\
                 Examples:\n  tahur {key} position --players P --seed 7 --after 12\n  \
                 tahur {key} advise --players P --position \"…\"\n  \
                 tahur {key} advise --players P --position \"…\" --until-decided \\\n      \
                 --rollouts 1e5",
                wrapped(G::POSITION_EXAMPLE)
            ));
        cmd = SeedArgs::augment_args(cmd);
    }
    OutputArgs::augment_args(cmd)
}

/// A position broken into lines of at most 80 columns at its `;`, indented.
fn wrapped(position: &str) -> String {
    let mut lines = vec![String::from("  ")];
    for item in position.split("; ") {
        let last = lines.last_mut().expect("one line at least");
        if last.trim().is_empty() {
            last.push_str(item);
        } else if last.chars().count() + 2 + item.chars().count() < 80 {
            last.push_str("; ");
            last.push_str(item);
        } else {
            last.push(';');
            lines.push(format!("  {item}"));
        }
    }
    lines.join("\n")
}

fn text<'a>(m: &'a ArgMatches, id: &str) -> &'a str {
    m.get_one::<String>(id).map_or("", String::as_str)
}

/// `tahur GAME position`.
fn position<G: GameCli + Positions>(m: &ArgMatches) -> Result<i32> {
    let out = OutputArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let rules = super::play::rules::<G>(m)?;
    let strategies = G::Strategy::parse_list(text(m, "strategies"))?;
    let seed = *m.get_one::<u64>("seed").expect("has a default");
    let after = *m.get_one::<u64>("after").expect("has a default");
    let game = example::<G, G::Strategy>(&rules, &strategies, seed, after)?;
    let written = position_of::<G>(&game);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut r = Report::new(format!(
        "{}: the position of seat {} after {after} actions of seed {seed}",
        G::INFO.title,
        game.to_act() + 1
    ));
    r.field("position", "position", Value::Text(written));
    r.field("rules", "rules", Value::Text(rules.describe()));
    r.field(
        "legal_actions",
        "legal actions",
        Value::Text(
            legal
                .iter()
                .map(|&a| G::action_name(a))
                .collect::<Vec<_>>()
                .join(" · "),
        ),
    );
    r.note(format!(
        "Ask for advice with: tahur {} advise {} --position \"…\" (the same rule flags).",
        G::INFO.key,
        format_args!("--players {}", rules.players())
    ));
    emit(&r, &out)?;
    Ok(0)
}

/// `tahur GAME advise --position TEXT`.
fn advise<G: GameCli + Positions>(m: &ArgMatches) -> Result<i32> {
    let out = OutputArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let rules = super::play::rules::<G>(m)?;
    let seeds = SeedArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let request = AdviceRequest {
        position: text(m, "position"),
        bots: text(m, "bots"),
        rollouts: *m.get_one::<u64>("rollouts").expect("has a default"),
        until_decided: m
            .get_flag("until-decided")
            .then(|| *m.get_one::<f64>("alpha").expect("has a default")),
        seeds: &seeds,
    };
    run_advice::<G>(&rules, &request, &out)
}

/// What `advise --position` asks, however the game's command line gives it.
pub struct AdviceRequest<'a> {
    /// The position as typed.
    pub position: &'a str,
    /// The rollouts' strategies, as typed.
    pub bots: &'a str,
    /// Deals rolled out (at most, with `until_decided`).
    pub rollouts: u64,
    /// `--until-decided` at this level.
    pub until_decided: Option<f64>,
    /// Seed and threads.
    pub seeds: &'a SeedArgs,
}

/// Rolls out every legal action at the position `req` gives, at `rules`, and prints the advice.
pub fn run_advice<G: GameCli + Positions>(
    rules: &G::Rules,
    req: &AdviceRequest<'_>,
    out: &OutputArgs,
) -> Result<i32> {
    let seed = req.seeds.seed;
    // What the reading fills in at random is dealt again for every rollout.
    let game = G::read_position(rules, req.position, &mut base_stream(seed))?;
    let bots = G::Strategy::parse_list(req.bots)?;
    let setup = AdviceSetup::<G, G::Strategy> {
        position: game,
        bots,
    };
    let spec = RunSpec {
        samples: req.rollouts,
        seed,
        chunk_size: advise::CHUNK,
    };
    let until = req.until_decided.map(|alpha| (10 * advise::CHUNK, alpha));
    let bar = if until.is_some() {
        progress_up_to(spec.samples, "deals")
    } else {
        progress(spec.samples, "deals")
    };
    let advice = with_progress(req.seeds.threads, bar, |control| {
        advise::run(&setup, &spec, until, control)
    })?;
    let r = advise::report(
        &format!(
            "{}: what to do at this position, by rollouts with {}",
            G::INFO.title,
            req.bots
        ),
        &position_of::<G>(&setup.position),
        G::ADVICE_VALUE,
        &advice,
        G::action_name,
    );
    emit(&r, out)?;
    Ok(exit_code(advice.run.interrupted, || {
        format!(
            "interrupted: {} of {} deals rolled out; the advice shows what they give",
            tahur::humanize::thousands(advice.run.samples_done),
            tahur::humanize::thousands(spec.samples)
        )
    }))
}
