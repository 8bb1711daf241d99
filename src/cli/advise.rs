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
use tahur::play::position::{example, position_of, Matches, Positions};
use tahur::play::{GameRules, State, Strategy};
use tahur::report::{Report, Value};
use tahur::rng::base_stream;
use tahur::runner::RunSpec;

/// The commands added for every game with positions.
pub const COMMANDS: [&str; 2] = ["position", "advise"];

/// Adds `position` and `advise` under game `G`'s command (which must exist: register the
/// whole-game commands first). A game that already has a command of that name keeps its own.
pub fn register<G: GameCli + Matches>(cli: Command) -> Command {
    cli.mut_subcommand(G::INFO.key, |mut game| {
        for name in COMMANDS {
            if game.get_subcommands().any(|s| s.get_name() == name) {
                continue;
            }
            game = game.subcommand(command::<G>(name));
        }
        if G::MATCH_FLAG.is_some() {
            game = game.subcommand(equity_command::<G>());
        }
        game.mut_subcommand("sim", |sim| {
            sim.arg(
                Arg::new("from")
                    .long("from")
                    .value_name("TEXT")
                    .help(format!(
                        "Start every game from a match state (\"{}\") or a position as `{} position` writes it; what its player cannot see is dealt afresh each game",
                        G::MATCH_EXAMPLE,
                        G::INFO.key
                    )),
            )
        })
    })
}

/// Runs `position` or `advise` of game `G` if `m` holds one.
pub fn dispatch<G: GameCli + Matches>(m: &ArgMatches) -> Option<Result<i32>> {
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
        "equity" => Some(equity::<G>(args)),
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
                Arg::new("keep")
                    .long("keep")
                    .value_name("K")
                    .default_value("8")
                    .value_parser(parse_keep)
                    .help("At more than 16 legal actions: roll every action out on 512 deals first, then only the best K (and any within noise of the best, up to 16) fully; 0 rolls out every action fully"),
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
                 Examples:\n  tahur {key} position --players 4 --seed 7 --after 12\n  \
                 tahur {key} advise --players {n} \\\n      --position {quoted}\n  \
                 tahur {key} advise --players {n} --until-decided --rollouts 1e5 \\\n      \
                 --position {quoted}",
                wrapped(G::POSITION_EXAMPLE),
                n = example_players(G::POSITION_EXAMPLE),
                quoted = quoted_lines(G::POSITION_EXAMPLE),
            ));
        cmd = keeping_about(cmd, SeedArgs::augment_args);
    }
    with_output_args(cmd)
}

/// The output flags added to `cmd`.
fn with_output_args(cmd: Command) -> Command {
    keeping_about(cmd, OutputArgs::augment_args)
}

/// `add(cmd)` with `cmd`'s own description kept (an `Args` struct's doc comment would replace
/// it: `--help` said "Output options").
fn keeping_about(cmd: Command, add: impl FnOnce(Command) -> Command) -> Command {
    let about = cmd.get_about().cloned();
    let cmd = add(cmd);
    match about {
        Some(about) => cmd.about(about),
        None => cmd,
    }
}

/// `--keep K`: 0 (no screening) to 64 actions kept.
pub fn parse_keep(s: &str) -> std::result::Result<usize, String> {
    tahur::text::parse_whole(
        s,
        0,
        64,
        "give 0 (roll out every action fully) to 64 actions kept",
    )
    .map(|k| k as usize)
}

/// The players of a position example: as many as its per-seat list (`hands: 6 6 5`,
/// `lives: 3 2 3 1`, `points: 1 0 2`) names.
fn example_players(position: &str) -> usize {
    position
        .split("; ")
        .find_map(|item| {
            let (key, values) = item.split_once(": ")?;
            ["hands", "lives", "points"]
                .contains(&key)
                .then(|| values.split_whitespace().count())
        })
        .unwrap_or(4)
}

/// A position in double quotes for a help example, broken after its items (`\` at each line's
/// end, which the shell removes inside quotes) to fit 80 columns.
fn quoted_lines(position: &str) -> String {
    let mut lines = vec![String::from("\"")];
    for item in position.split("; ") {
        let last = lines.last_mut().expect("one line at least");
        if last.len() <= 1 {
            last.push_str(item);
        } else if last.chars().count() + 2 + item.chars().count() < 60 {
            last.push_str("; ");
            last.push_str(item);
        } else {
            last.push_str("; \\");
            lines.push(format!("      {item}"));
        }
    }
    let mut text = lines.join("\n");
    text.push('"');
    text
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
    let legal = advise::legal_actions::<G>(&game);
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
        keep: *m.get_one::<usize>("keep").expect("has a default"),
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
    /// `--keep`: actions kept after screening a position with many (0: no screening).
    pub keep: usize,
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
    let screen = (req.keep > 0).then_some(advise::Screen {
        keep: req.keep,
        most: advise::Screen::DEFAULT.most.max(req.keep),
        ..advise::Screen::DEFAULT
    });
    // The screening round's deals count on the same bar.
    let screening = screen
        .filter(|sc| advise::legal_actions::<G>(&setup.position).len() > sc.above)
        .map_or(0, |sc| sc.deals);
    let bar = if until.is_some() {
        progress_up_to(spec.samples + screening, "deals")
    } else {
        progress(spec.samples + screening, "deals")
    };
    let advice = with_progress(req.seeds.threads, bar, |control| {
        advise::run_screened(&setup, &spec, until, screen, control)
    })?;
    let mut r = advise::report(
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
    for note in G::exact_notes(&setup.position) {
        r.note(note);
    }
    emit(&r, out)?;
    Ok(exit_code(advice.run.interrupted, || {
        format!(
            "interrupted: {} of {} deals rolled out; the advice shows what they give",
            tahur::humanize::thousands(advice.run.samples_done),
            tahur::humanize::thousands(spec.samples)
        )
    }))
}

/// The `equity` command of a game with match states.
fn equity_command<G: GameCli + Matches>() -> Command {
    let key = G::INFO.key;
    let flag = G::MATCH_FLAG.unwrap_or("at");
    let example_value = G::MATCH_EXAMPLE
        .split_once(':')
        .map_or(G::MATCH_EXAMPLE, |(_, v)| v)
        .trim()
        .replace(' ', ",");
    let mut cmd = Command::new("equity")
        .about("Each side's chance to win the match from a match state (lives, points, scores), and the fair split of a pot there; without a state, the whole table")
        .arg(
            Arg::new(MARK)
                .long(MARK)
                .hide(true)
                .action(ArgAction::SetTrue),
        );
    // A match state that names every seat says how many play.
    cmd = super::play::rule_args::<G>(cmd).mut_arg("players", |a| a.required(false));
    cmd = cmd
        .arg(
            Arg::new("match-state")
                .long(flag)
                .aliases(
                    super::OLD_SPELLINGS_OF
                        .iter()
                        .filter(|(command, _, new, _)| {
                            *new == flag && *command == format!("{key} equity")
                        })
                        .map(|(_, _, _, old)| *old),
                )
                .value_name("VALUE")
                .help(format!(
                    "One match state, e.g. --{flag} {example_value} (the match state \"{}\"); leave it out for the whole table",
                    G::MATCH_EXAMPLE
                )),
        )
        .arg(
            Arg::new("strategies")
                .long("strategies")
                .value_name("S1,S2,…")
                .default_value(G::ROLLOUT_BOTS)
                .help(format!("Who plays every seat, repeated: {}", G::STRATEGIES)),
        )
        .arg(
            Arg::new("games")
                .long("games")
                .value_name("N")
                .value_parser(samples("games"))
                .help("Games played from each match state, all on the same seed [default: 20000 for one state, 2000 a state for the whole table]"),
        )
        .arg(
            Arg::new("pot")
                .long("pot")
                .value_name("AMOUNT")
                .default_value("100")
                .value_parser(|s: &str| match s.trim().parse::<f64>() {
                    Ok(p) if p.is_finite() && p > 0.0 => Ok(p),
                    _ => Err("expected a positive amount, e.g. 100".to_string()),
                })
                .help("The pot a fair split shares out"),
        )
        .after_help(format!(
            "Every match state is played on the same seed: its rows meet the same random\n\
             streams, so a difference between rows is less noisy than either row.\n\n\
             Examples:\n  tahur {key} equity --players {players}{to} --{flag} {example_value}\n  \
             tahur {key} equity --players {players}{to} --games 1e5 --format csv",
            players = example_value.split(',').count(),
            // A game whose matches are played to a target (Dominó's `--to`) needs it given.
            to = if tahur::play::rules::rule::<G::Rules>("to").is_some() {
                " --to 100"
            } else {
                ""
            },
        ));
    cmd = keeping_about(cmd, SeedArgs::augment_args);
    with_output_args(cmd)
}

/// A side of the table as players say it: `seat 2`, or `seats 1+3` for a pair.
fn side_name<G: Matches>(rules: &G::Rules, side: usize) -> String {
    let seats: Vec<String> = (0..rules.players())
        .filter(|&s| rules.side(s) == side)
        .map(|s| (s + 1).to_string())
        .collect();
    if seats.len() == 1 {
        format!("seat {}", seats[0])
    } else {
        format!("seats {}", seats.join("+"))
    }
}

/// `tahur GAME equity`.
fn equity<G: GameCli + Matches>(m: &ArgMatches) -> Result<i32> {
    use tahur::play::equity::{run_equity, EquitySetup};
    use tahur::report::Table;
    let out = OutputArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let seeds = SeedArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let value = m.get_one::<String>("match-state");
    let flag = G::MATCH_FLAG.unwrap_or("at");
    let rules =
        super::play::rules_with_players::<G>(m, value.and_then(|v| G::players_of_match(v)))?;
    let states = match value {
        Some(v) => vec![G::read_match(&rules, &format!("{flag}: {v}"))
            .map_err(|e| Error::usage(format!("--{flag} {v}: {e}")))?],
        None => G::equity_grid(&rules),
    };
    let strategies = G::Strategy::parse_list(text(m, "strategies"))?;
    let games = m
        .get_one::<u64>("games")
        .copied()
        .unwrap_or(if value.is_some() { 20_000 } else { 2_000 });
    let pot = *m.get_one::<f64>("pot").expect("has a default");
    let setup = EquitySetup::<G>::new(rules.clone(), &strategies, states)?;
    let bar = progress(games * setup.states.len() as u64, "games");
    let equity = with_progress(seeds.threads, bar, |control| {
        run_equity(&setup, games, seeds.seed, control)
    })?;
    let sides = setup.sides();
    let names: Vec<String> = (0..sides).map(|s| side_name::<G>(&rules, s)).collect();
    let single = equity.rows.len() == 1 && value.is_some();
    let mut r = Report::new(format!(
        "{}: each side's chance to win the match {} · {} · {}",
        G::INFO.title,
        if single {
            "from a match state"
        } else {
            "by match state"
        },
        rules.describe(),
        text(m, "strategies")
    ));
    r.field(
        "games_per_state",
        "games from each state",
        Value::Int(games as i64),
    );
    r.field("seed", "seed", Value::Int(seeds.seed as i64));
    let mut cols: Vec<(String, String)> = vec![
        ("state".into(), "match state".into()),
        ("games".into(), "games".into()),
    ];
    for name in &names {
        let k = name.replace([' ', '+'], "_");
        cols.push((format!("{k}_chance"), format!("{name} wins")));
        cols.push((format!("{k}_ci95"), "95 % interval".into()));
        cols.push((format!("{k}_share"), format!("{name}'s share of {pot}")));
    }
    // Where the game has solved play for these rules, each state's exact chances beside the
    // games' (the same for every state of a table: the rules decide).
    let solved: Vec<Option<(Vec<f64>, String)>> = setup
        .states
        .iter()
        .map(|st| G::solved_equity(&rules, st))
        .collect();
    let with_solved = solved.iter().all(Option::is_some);
    if with_solved {
        for name in &names {
            let k = name.replace([' ', '+'], "_");
            cols.push((format!("{k}_solved"), format!("{name} wins, solved play")));
        }
    }
    let cols_ref: Vec<(&str, &str)> = cols.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let mut t = Table::new("equity", "chance to win the match", &cols_ref);
    for (row, exact) in equity.rows.iter().zip(&solved) {
        let mut cells = vec![Value::Text(row.state.clone()), Value::Int(row.games as i64)];
        for s in 0..sides {
            let (p, (lo, hi)) = row.chance95(s);
            cells.push(Value::Prob(p));
            cells.push(Value::ProbInterval(lo, hi));
            cells.push(Value::Num(row.fair_share(s, pot), 1));
        }
        if let (true, Some((chances, _))) = (with_solved, exact) {
            cells.extend(chances.iter().map(|&c| Value::Prob(c)));
        }
        t.push(cells);
    }
    r.tables.push(t);
    if let (true, Some(Some((_, note)))) = (with_solved, solved.first()) {
        r.note(note.clone());
    }
    if single {
        let row = &equity.rows[0];
        let chances: Vec<String> = (0..sides)
            .map(|s| {
                format!(
                    "{} {}",
                    names[s],
                    tahur::humanize::chance(row.chance95(s).0)
                )
            })
            .collect();
        let shares: Vec<String> = (0..sides)
            .map(|s| format!("{:.1}", row.fair_share(s, pot)))
            .collect();
        r.note(format!(
            "From {}: {}. A fair split of a pot of {pot}: {}{}.",
            row.state,
            chances.join("; "),
            shares.join(" / "),
            if row.undecided > 0 {
                " (undecided games split evenly)"
            } else {
                ""
            }
        ));
    }
    r.note("Every game from a state deals every hand as in a new game; the seats are played by the strategies named. Each row's games run on the same seed.");
    emit(&r, &out)?;
    Ok(exit_code(equity.interrupted, || {
        format!(
            "interrupted: {} of {} match states played; the table shows those",
            equity.rows.len(),
            setup.states.len()
        )
    }))
}
