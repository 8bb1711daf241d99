//! `tahur GAME sim | compare | tournament | flags` for every game of the whole-game layer: the
//! commands are built from the game's [`GameInfo`] (its words and defaults), its rule table (the
//! rule flags) and its [`GameCli`] (help and examples), so a new game gets them by being listed
//! in [`tahur::with_games`].

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::games::GameCli;
use super::run::{exit_code, run_job, samples, with_progress, RunArgs};
use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::jobs::{Job as AnyJob, PlayJob};
use tahur::play::compare::{run_sequential, CompareSetup};
use tahur::play::flags::FlagsSetup;
use tahur::play::job::{ChartFiles, Job};
use tahur::play::rules::{Flag, Rule};
use tahur::play::table::MAX_SERIES;
use tahur::play::tournament::TournamentSetup;
use tahur::play::{Game, GameInfo, GameRules, Scoring, Strategy, TableSetup};

/// A rule of game `G` that has a command-line flag of its own, with its long option.
fn flagged_rules<G: Game>() -> impl Iterator<Item = (&'static Rule<G::Rules>, &'static str)> {
    <G::Rules as GameRules>::TABLE
        .iter()
        .filter_map(|r| r.flag.long().map(|long| (r, long)))
}

/// Every rule key of game `G`, for help: "variant, deck, hand, …".
fn change_keys<G: Game>() -> String {
    tahur::play::rules::keys::<G::Rules>()
}

/// The whole-game commands.
pub const COMMANDS: [&str; 4] = ["sim", "compare", "tournament", "flags"];

/// Adds game `G`'s whole-game commands to the command line: under its own subcommand if the
/// command line has one (games with commands of their own), else under a new one.
pub fn register<G: GameCli>(cli: Command) -> Command {
    let info = &G::INFO;
    let commands: Vec<Command> = COMMANDS
        .iter()
        .filter(|c| !(G::OWN_SIM && **c == "sim"))
        .map(|c| command::<G>(c))
        .collect();
    if cli.get_subcommands().any(|s| s.get_name() == info.key) {
        cli.mut_subcommand(info.key, |s| s.about(G::ABOUT).subcommands(commands))
    } else {
        cli.subcommand(
            Command::new(info.key)
                .about(G::ABOUT)
                .display_order(1)
                .subcommand_required(true)
                .arg_required_else_help(true)
                .subcommands(commands),
        )
    }
}

/// Runs game `G`'s whole-game command if `m` holds one; `wrap` makes its job a [`PlayJob`].
pub fn dispatch<G: GameCli>(m: &ArgMatches, wrap: fn(Job<G>) -> PlayJob) -> Option<Result<i32>> {
    let (game, sub) = m.subcommand()?;
    if game != G::INFO.key {
        return None;
    }
    let (name, args) = sub.subcommand()?;
    let ours = COMMANDS.contains(&name) && !(G::OWN_SIM && name == "sim");
    ours.then(|| execute::<G>(name, args, wrap))
}

fn about(info: &GameInfo, name: &str) -> String {
    let w = &info.words;
    match name {
        "sim" => format!(
            "Whole games between strategies: {} by seat, strategy and position after the {} with 95 % intervals, the {}'s edge, game length{}",
            w.rate,
            w.first_player,
            w.first_player,
            if info.draws { ", draws" } else { "" }
        ),
        "compare" => "Two variants of a table (rules and/or strategies) on the same deals: every figure paired, with intervals, p-values, effect sizes and the games needed; --until-decided samples until decided".to_string(),
        "tournament" => "Every strategy against every other, seats alternating A, B, A, B, … and rotated on the same deals: each pair's difference with its test, and a ranking".to_string(),
        _ => format!(
            "How every house rule moves the figures: the table against each one-rule change of it on the same deals, paired, and the fairest{}",
            if matches!(info.scoring, Scoring::Points) { String::new() } else { format!(" to the {}", w.first_player) }
        ),
    }
}

fn command<G: GameCli>(name: &'static str) -> Command {
    let info = &G::INFO;
    let example = match name {
        "sim" => G::EXAMPLES[0],
        "compare" => G::EXAMPLES[1],
        "tournament" => G::EXAMPLES[2],
        _ => G::EXAMPLES[3],
    };
    let mut after = String::new();
    if name == "compare" {
        after.push_str(&format!(
            "{}\n\n",
            wrap_words(
                &format!(
                    "Variants are the table given by the rule flags, changed by --a / --b (rule \
                     changes as KEY=VALUE pairs) and --a-strategies / --b-strategies. Keys: {}.",
                    change_keys::<G>()
                ),
                80
            )
        ));
    }
    if name == "flags" {
        after.push_str(
            "The changes are every rule that means something for the table, one at a time,\n\
             each played on the same deals as the table (paired).\n\n",
        );
    }
    after.push_str("Examples:\n");
    after.push_str(example);
    let mut cmd = Command::new(name).after_help(after);
    cmd = rule_args::<G>(cmd);
    let default = if name == "tournament" {
        info.default_tournament
    } else {
        info.default_strategies
    };
    cmd = cmd.arg(
        Arg::new("strategies")
            .long("strategies")
            .visible_alias("policies")
            .value_name("S1,S2,…")
            .default_value(default)
            .help(if name == "tournament" {
                format!("The strategies that meet, two or more: {}", G::STRATEGIES)
            } else {
                format!(
                    "Strategies by seat, repeated if fewer than players: {}",
                    G::STRATEGIES
                )
            }),
    );
    match name {
        "sim" => {
            cmd = cmd.arg(check_arg());
            cmd = series_arg::<G>(cmd);
            cmd = cmd.arg(chart_arg(
                "chart",
                &format!(
                    "Draw the {} by seat with 95 % intervals and the fair share as SVG",
                    info.words.rate
                ),
            ));
            cmd = cmd.arg(chart_arg(
                "strategy-chart",
                &format!(
                    "Draw the {} per seat of each strategy as SVG",
                    info.words.rate
                ),
            ));
            if !info.sitting {
                cmd = cmd.arg(chart_arg(
                    "length-chart",
                    &format!(
                        "Draw the distribution of game length in {} as SVG",
                        info.words.length_unit
                    ),
                ));
            }
        }
        "compare" => {
            for (id, help) in [
                (
                    "a",
                    "Variant A's rule changes, KEY=VALUE pairs (e.g. the first key's)",
                ),
                ("b", "Variant B's rule changes"),
            ] {
                cmd = cmd.arg(
                    Arg::new(id)
                        .long(id)
                        .value_name("KEY=VALUE,…")
                        .default_value("")
                        .hide_default_value(true)
                        .help(help),
                );
            }
            for (id, help) in [
                (
                    "a-strategies",
                    "Variant A's strategies by seat (instead of --strategies)",
                ),
                (
                    "b-strategies",
                    "Variant B's strategies by seat (instead of --strategies)",
                ),
            ] {
                cmd = cmd.arg(Arg::new(id).long(id).value_name("S1,S2,…").help(help));
            }
            cmd = cmd
                .arg(
                    Arg::new("detect")
                        .long("detect")
                        .value_name("D")
                        .value_parser(parse_detect)
                        .help("Also size the games needed to detect a difference of D (percentage points for rates, the row's unit for means), from the paired variance seen"),
                )
                .arg(
                    Arg::new("until-decided")
                        .long("until-decided")
                        .action(ArgAction::SetTrue)
                        .help(format!(
                            "Keep playing until the primary comparison is decided: looks after --batch, 2×, 4×, … {unit}, look k at level α/2^k; at most --{unit}",
                            unit = info.sample_unit
                        )),
                )
                .arg(
                    Arg::new("batch")
                        .long("batch")
                        .value_name("N")
                        .default_value("10000")
                        .value_parser(samples(G::INFO.sample_unit))
                        .help(format!(
                            "{} before the first look of --until-decided",
                            tahur::play::sim::capitalised(info.sample_unit)
                        )),
                )
                .arg(
                    Arg::new("alpha")
                        .long("alpha")
                        .value_name("A")
                        .default_value("0.05")
                        .value_parser(parse_alpha)
                        .help("Overall significance level α for --until-decided"),
                );
            cmd = series_arg::<G>(cmd);
            cmd = cmd.arg(chart_arg(
                "chart",
                if matches!(info.scoring, Scoring::Points) {
                    "Draw each seat's A − B (points per game) with its 95 % interval as a dot plot, SVG"
                } else {
                    "Draw A − B of every rate (percentage points) with its 95 % interval as a dot plot, SVG"
                },
            ));
        }
        "tournament" => {
            cmd = cmd.arg(check_arg()).arg(chart_arg(
                "chart",
                &format!(
                    "Draw the ranking ({} per seat with 95 % intervals) as SVG",
                    info.words.rate
                ),
            ));
        }
        _ => {
            cmd = cmd.arg(chart_arg(
                "chart",
                if !matches!(info.scoring, Scoring::Points) {
                    "Draw each table's first-player rate as a share of its fair share as SVG"
                } else {
                    "Draw each table's headline figure as SVG"
                },
            ));
        }
    }
    cmd = run_args::<G>(cmd, name == "tournament");
    // The description last: augmenting with the output options would replace it.
    OutputArgs::augment_args(cmd).about(about(info, name))
}

/// `--players` and the game's rule flags, then `--house`.
pub(crate) fn rule_args<G: Game>(mut cmd: Command) -> Command {
    let info = &G::INFO;
    let (min, max, default) = info.players;
    let mut players = Arg::new("players")
        .long("players")
        .value_name("P")
        .value_parser(move |s: &str| {
            tahur::text::parse_whole(
                s,
                min as u64,
                max as u64,
                &format!("{} is for {min} to {max} players", G::INFO.title),
            )
            .map(|n| n as usize)
        })
        .help(format!("Players at the table ({min}–{max})"));
    players = match default {
        // Built once per process: the default's text may live as long as the command line.
        Some(d) => players.default_value(&*Box::leak(d.to_string().into_boxed_str())),
        None => players.required(true),
    };
    cmd = cmd.arg(players);
    for (rule, long) in flagged_rules::<G>() {
        let mut arg = Arg::new(long).long(long).help(rule.help);
        // Old spellings stay accepted for a release, hidden from help and completions.
        for (new, old) in super::OLD_SPELLINGS {
            if *new == long {
                arg = arg.alias(*old);
            }
        }
        cmd = cmd.arg(match rule.flag {
            Flag::Value { value_name, .. } => arg.value_name(value_name),
            _ => arg.action(ArgAction::SetTrue),
        });
    }
    cmd.arg(
        Arg::new("house")
            .long("house")
            .value_name("KEY=VALUE,…")
            .default_value("")
            .hide_default_value(true)
            .help(format!(
                "More rule changes as KEY=VALUE pairs (keys: {})",
                change_keys::<G>()
            )),
    )
}

fn check_arg() -> Arg {
    Arg::new("check")
        .long("check")
        .action(ArgAction::SetTrue)
        .help("Check the engine's invariants after every action (slower); violations are reported")
}

fn series_arg<G: GameCli>(cmd: Command) -> Command {
    match G::INFO.series {
        Some(_) => cmd.arg(
            Arg::new("series")
                .long("series")
                .value_name("N")
                .default_value("1")
                .value_parser(|s: &str| {
                    tahur::text::parse_whole(
                        s,
                        1,
                        MAX_SERIES as u64,
                        &format!("give 1 (independent games) to {MAX_SERIES} games per series"),
                    )
                    .map(|n| n as u32)
                })
                .help(G::SERIES_HELP),
        ),
        None => cmd,
    }
}

fn chart_arg(id: &'static str, help: &str) -> Arg {
    Arg::new(id)
        .long(id)
        .value_name("FILE")
        .value_parser(clap::value_parser!(PathBuf))
        .help(format!(
            "{} (PNG when FILE ends in .png)",
            help.trim_end_matches('.')
        ))
}

/// The count in the game's unit (`--games`, `--hands`) and the run options every job takes.
fn run_args<G: Game>(cmd: Command, tournament: bool) -> Command {
    let unit = G::INFO.sample_unit;
    let sitting = if G::INFO.sitting {
        format!(
            "; {} plays sittings of {} {unit} in a row (a fresh table each; the shoe and the bank carry over within one) and compares whole sittings",
            G::INFO.title,
            G::INFO.chunk
        )
    } else {
        String::new()
    };
    let help = if tournament && !G::INFO.sitting {
        "Games to play per pair of strategies, e.g. 10000 or 1e5, rounded up to whole deals (every deal is played at every seating)".to_string()
    } else if tournament {
        format!(
            "{} per pair of strategies and seating, e.g. 1e6{sitting}",
            tahur::play::sim::capitalised(unit)
        )
    } else {
        format!(
            "{} to play, e.g. 10000 or 1e5{sitting}",
            tahur::play::sim::capitalised(unit)
        )
    };
    let mut count = Arg::new("samples")
        .long(unit)
        .value_name("N")
        .default_value(if G::INFO.sitting { "1000000" } else { "10000" })
        .value_parser(samples(G::INFO.sample_unit))
        .help(help);
    // `--games N` means how many to play in every command, whatever its unit is called.
    if unit != "games" {
        count = count.alias("games");
    }
    let cmd = cmd.arg(count);
    RunArgs::augment_args(cmd)
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap_words(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
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

/// The rules the flags describe: the standard table for `--players`, each rule flag in the
/// game's order, then `--house`.
pub(crate) fn rules<G: Game>(m: &ArgMatches) -> Result<G::Rules> {
    rules_with_players::<G>(m, None)
}

/// [`rules`] with `players` when `--players` was not typed (a match state that names every
/// seat says how many play).
pub(crate) fn rules_with_players<G: Game>(
    m: &ArgMatches,
    players: Option<usize>,
) -> Result<G::Rules> {
    let typed = m.value_source("players") == Some(ValueSource::CommandLine);
    let players = match (players, m.get_one::<usize>("players")) {
        (Some(p), _) if !typed => p,
        (_, Some(&p)) => p,
        (_, None) => {
            return Err(Error::usage(format!(
                "give --players: {} is for {} to {} players",
                G::INFO.title,
                G::INFO.players.0,
                G::INFO.players.1
            )))
        }
    };
    let mut rules = G::Rules::standard(players);
    let house = m.get_one::<String>("house").map_or("", String::as_str);
    // A rule set twice, by its flag and in --house, is a slip: which one was meant?
    let hint = format!(
        "{}=…",
        change_keys::<G>().split(',').next().unwrap_or("key")
    );
    for (k, v) in tahur::text::key_values(house, "house rule", &hint)? {
        let Some(named) = tahur::play::rules::rule::<G::Rules>(k) else {
            continue;
        };
        if let Some(long) = named
            .flag
            .long()
            .filter(|long| m.value_source(long) == Some(ValueSource::CommandLine))
        {
            return Err(Error::usage(format!(
                "--house {k}={v} sets what --{long} already sets: give it once"
            )));
        }
    }
    for (rule, long) in flagged_rules::<G>() {
        let change = match rule.flag {
            Flag::Switch { sets, .. } if m.get_flag(long) => Some(sets.to_string()),
            Flag::Value { .. } => m.get_one::<String>(long).cloned(),
            _ => None,
        };
        if let Some(v) = change {
            let spec = format!("{}={v}", rule.key);
            // Name the value as the user typed it: `--deck 40`, not `deck=40`.
            let changed = rules.with_changes(&spec).map_err(|e| match e {
                Error::BadRule { accepts, .. } => {
                    Error::usage(format!("invalid --{long} {v}: {accepts}"))
                }
                Error::Usage(m) => Error::usage(m.replace(&spec, &format!("--{long} {v}"))),
                e => e,
            })?;
            if matches!(rule.flag, Flag::Switch { .. }) {
                no_effect::<G>(rule, &rules, &changed, &format!("--{long}"))?;
            }
            rules = changed;
        }
    }
    for (k, v) in tahur::text::key_values(house, "house rule", &hint)? {
        match tahur::play::rules::rule::<G::Rules>(k) {
            Some(rule) if matches!(rule.flag, Flag::Switch { .. }) => {
                if let Ok(changed) = rules.with_changes(&format!("{k}={v}")) {
                    no_effect::<G>(rule, &rules, &changed, &format!("--house {k}={v}"))?;
                }
            }
            _ => {}
        }
    }
    rules.with_changes(house)
}

/// Refuses a switch (`--no-pairs`, `pairs=off`) that changes nothing at this table and that the
/// game has no meaningful change of here (Dominó's pairs with 2 or 3 players): given, it would
/// be silently ignored.
fn no_effect<G: Game>(
    rule: &Rule<G::Rules>,
    before: &G::Rules,
    after: &G::Rules,
    given: &str,
) -> Result<()> {
    if before == after && (rule.changes)(before).is_empty() {
        return Err(Error::usage(format!(
            "{given} changes nothing at a table of {} ({} is {} already; the rule: {}); leave it out",
            before.describe_players(),
            rule.key,
            (rule.get)(before),
            rule.help.to_lowercase()
        )));
    }
    Ok(())
}

fn text<'a>(m: &'a ArgMatches, id: &str) -> &'a str {
    m.get_one::<String>(id).map_or("", String::as_str)
}

fn path(m: &ArgMatches, id: &str) -> Option<PathBuf> {
    m.try_get_one::<PathBuf>(id).ok().flatten().cloned()
}

/// Runs `tahur GAME <name>`.
fn execute<G: Game>(name: &str, m: &ArgMatches, wrap: fn(Job<G>) -> PlayJob) -> Result<i32> {
    let out = OutputArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let run = RunArgs::from_arg_matches(m).map_err(|e| Error::usage(e.to_string()))?;
    let samples = *m.get_one::<u64>("samples").expect("has a default");
    let check = m
        .try_get_one::<bool>("check")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false);
    let series = m
        .try_get_one::<u32>("series")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(1);
    let files = ChartFiles {
        main: path(m, "chart"),
        strategies: path(m, "strategy-chart"),
        length: path(m, "length-chart"),
        note: String::new(),
    };
    super::run::refuse_charts_with_shard(&files, &run)?;
    let strategies = |spec: &str| G::Strategy::parse_list(spec);
    let base = rules::<G>(m)?;
    let job = match name {
        "sim" => {
            let table = TableSetup::new(base, &strategies(text(m, "strategies"))?, check)?
                .with_series(series)?;
            // `--from` exists for the games with positions (cli::advise adds it).
            match m.try_get_one::<String>("from").ok().flatten() {
                Some(from) => Job::Sim(table.starting_from(from)?),
                None => Job::Sim(table),
            }
        }
        "compare" => {
            // --batch and --alpha shape the looks of --until-decided, and nothing else.
            if !m.get_flag("until-decided") {
                for (id, shown) in [
                    ("batch", m.get_one::<u64>("batch").map(u64::to_string)),
                    ("alpha", m.get_one::<f64>("alpha").map(f64::to_string)),
                ] {
                    if m.value_source(id) == Some(ValueSource::CommandLine) {
                        return Err(Error::usage(format!(
                            "--{id} {} is read only by --until-decided: add --until-decided, or leave --{id} out",
                            shown.unwrap_or_default()
                        )));
                    }
                }
            }
            let variant = |spec: &str, own: Option<&String>| -> Result<TableSetup<G>> {
                let list = strategies(own.map_or(text(m, "strategies"), String::as_str))?;
                TableSetup::new(base.with_changes(spec)?, &list, false)?.with_series(series)
            };
            let label = |spec: &str, own: Option<&String>| {
                let mut parts = Vec::new();
                if !spec.trim().is_empty() {
                    parts.push(spec.trim().to_string());
                }
                if let Some(s) = own {
                    parts.push(format!("strategies {s}"));
                }
                if parts.is_empty() {
                    "the given table".to_string()
                } else {
                    parts.join(" · ")
                }
            };
            let (a, b) = (text(m, "a"), text(m, "b"));
            let (sa, sb) = (
                m.get_one::<String>("a-strategies"),
                m.get_one::<String>("b-strategies"),
            );
            let setup = CompareSetup::new(
                variant(a, sa)?,
                variant(b, sb)?,
                [label(a, sa), label(b, sb)],
                m.get_one::<f64>("detect").copied(),
            )?;
            if m.get_flag("until-decided") {
                if files.any() {
                    return Err(Error::usage(
                        "charts are drawn from runs of a fixed size: drop --chart with --until-decided",
                    ));
                }
                return sequential::<G>(setup, m, samples, &run, &out);
            }
            Job::Compare(setup)
        }
        "tournament" => {
            let setup = TournamentSetup::new(base, &strategies(text(m, "strategies"))?, check)?;
            let deals = setup.deals_for(samples);
            let wrapped = AnyJob::Play(wrap(Job::Tournament(setup)));
            let charts = wrapped.clone();
            return run_job(wrapped, deals, &run, &out, move |t, summary| {
                charts.charts(t, summary, &files)
            });
        }
        _ => Job::Flags(FlagsSetup::new(TableSetup::new(
            base,
            &strategies(text(m, "strategies"))?,
            check,
        )?)?),
    };
    let wrapped = AnyJob::Play(wrap(job));
    let charts = wrapped.clone();
    run_job(wrapped, samples, &run, &out, move |t, summary| {
        charts.charts(t, summary, &files)
    })
}

/// `compare --until-decided`: looks after --batch, 2×, 4×, … samples, up to `samples`.
fn sequential<G: Game>(
    setup: CompareSetup<G>,
    m: &ArgMatches,
    samples: u64,
    run: &RunArgs,
    out: &OutputArgs,
) -> Result<i32> {
    if run.shard.is_some() {
        return Err(Error::usage(
            "--until-decided decides as it goes and cannot be sharded: drop --shard",
        ));
    }
    let spec = tahur::runner::RunSpec {
        samples,
        seed: run.seeds.seed,
        chunk_size: setup.chunk_size(),
    };
    let batch = *m.get_one::<u64>("batch").expect("has a default");
    let alpha = *m.get_one::<f64>("alpha").expect("has a default");
    // One bar for every look, up to the ceiling of --games: the run may stop well before it.
    let progress = super::run::progress_up_to(spec.samples, G::INFO.sample_unit);
    let (tally, summary, seq) = with_progress(run.seeds.threads, progress, |control| {
        run_sequential(&setup, &spec, batch, alpha, control)
    })?;
    let code = exit_code(summary.interrupted, || {
        format!(
            "interrupted after {} look{}: {} of at most {} {} ran; the report shows what they give",
            seq.looks,
            if seq.looks == 1 { "" } else { "s" },
            tahur::humanize::thousands(summary.samples_done),
            tahur::humanize::thousands(spec.samples),
            G::INFO.sample_unit
        )
    });
    emit(
        &tahur::play::compare::report(&setup, &tally, &summary, Some(&seq)),
        out,
    )?;
    Ok(code)
}
