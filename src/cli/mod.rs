//! The command line: parses arguments, calls the library, prints. No game logic lives here.

mod advise;
mod args;
mod complete;
mod domino;
mod dudo;
mod games;
mod ocho;
mod play;
mod poker;
mod run;
mod sheet;
mod veintiuno;

use std::path::PathBuf;
use std::time::Duration;

use tahur::error::Result;
use tahur::report::{self, Report};
use tahur::shards::{self, Partial};

pub use args::{Cli, Command, OutputArgs};

macro_rules! play_commands {
    ($($name:ident => $game:ty),* $(,)?) => {
        /// The command line with every game's whole-game commands.
        fn command() -> clap::Command {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            $( cmd = play::register::<$game>(cmd); )*
            cmd = position_commands(cmd);
            cmd = sheet_commands(cmd);
            // The games first, then merge.
            let cmd = cmd
                .mut_subcommand("merge", |m| m.display_order(100))
                .mut_subcommand("completions", |m| m.display_order(101))
                .mut_subcommand("man", |m| m.display_order(102));
            allow_negative_values(cmd)
        }

        /// Runs a whole-game command, if `m` holds one.
        fn dispatch_play(m: &clap::ArgMatches) -> Option<Result<i32>> {
            $(
                if let Some(r) = play::dispatch::<$game>(m, tahur::jobs::PlayJob::$name) {
                    return Some(r);
                }
            )*
            dispatch_positions(m).or_else(|| dispatch_sheets(m))
        }
    };
}
tahur::with_games!(play_commands);

/// The games that write and read positions ([`tahur::play::position::Positions`]), as
/// `with_games!` lists them; each gets `position` and `advise`.
macro_rules! with_positions {
    ($m:ident) => {
        $m! {
            Dudo => tahur::games::dudo::Dudo,
            Durak => tahur::games::durak::Durak,
            Poker => tahur::games::poker::Poker,
            Domino => tahur::games::domino::Domino,
            Ocho => tahur::games::ocho::Ocho,
        }
    };
}

macro_rules! position_commands {
    ($($name:ident => $game:ty),* $(,)?) => {
        /// Adds `position` and `advise` to every game with positions.
        fn position_commands(mut cmd: clap::Command) -> clap::Command {
            $( cmd = advise::register::<$game>(cmd); )*
            cmd
        }

        /// Runs `position` or `advise`, if `m` holds one.
        fn dispatch_positions(m: &clap::ArgMatches) -> Option<Result<i32>> {
            $(
                if let Some(r) = advise::dispatch::<$game>(m) {
                    return Some(r);
                }
            )*
            None
        }
    };
}
with_positions!(position_commands);

/// The games with cheat sheets measured from play ([`tahur::play::sheet::SheetGame`]): each gets
/// `sheet`.
macro_rules! sheet_commands {
    ($($game:ty),* $(,)?) => {
        /// Adds `sheet` to every game with a measured sheet.
        fn sheet_commands(mut cmd: clap::Command) -> clap::Command {
            $( cmd = sheet::register::<$game>(cmd); )*
            cmd
        }

        /// Runs `sheet`, if `m` holds one.
        fn dispatch_sheets(m: &clap::ArgMatches) -> Option<Result<i32>> {
            $(
                if let Some(r) = sheet::dispatch::<$game>(m) {
                    return Some(r);
                }
            )*
            None
        }
    };
}
sheet_commands!(
    tahur::games::durak::Durak,
    tahur::games::domino::Domino,
    tahur::games::ocho::Ocho,
);

/// Lets every value reach its flag's own check, so `--levels -0.5` is answered "invalid value
/// '-0.5' for '--levels': give probabilities in (0, 1] …" instead of "unexpected argument '-0'".
fn allow_negative_values(mut cmd: clap::Command) -> clap::Command {
    let ids: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| a.get_action().takes_values())
        .map(|a| a.get_id().clone())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(id, |a| a.allow_negative_numbers(true));
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for s in subs {
        cmd = cmd.mut_subcommand(s, allow_negative_values);
    }
    cmd
}

/// Runs the command line of this process and returns the exit code.
pub fn main() -> i32 {
    std::panic::set_hook(Box::new(|info| {
        // A panic is a bug: say so in one line, without a backtrace.
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        say!("tahur: internal error: {msg}{at} (please report it)");
    }));
    run_args(std::env::args_os())
}

/// Runs the command line given by `args` (program name first) and returns the exit code.
pub fn run_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let matches = match command().try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    0
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // `tahur`, `tahur dudo`: a command is missing. Like every other mistake,
                    // one line on stderr and exit 2 (the whole help is one --help away).
                    say!("tahur: error: {}", missing_command(&args));
                    2
                }
                _ => {
                    // clap's message spans several lines (the missing argument may be on the
                    // second); keep the message part, joined into one line.
                    let rendered = e.render().to_string();
                    let message: Vec<&str> = rendered
                        .lines()
                        .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                        .map(str::trim)
                        .collect();
                    let first = message.join(" ");
                    let first = first.trim_start_matches("error: ");
                    // clap puts its "a similar argument exists" tip after a blank line, which
                    // the line above leaves out: say it from the error's context instead.
                    say!("tahur: error: {first}{} (see --help)", did_you_mean(&e));
                    2
                }
            };
        }
    };
    run::set_progress_every(matches.get_one::<Duration>("progress").copied());
    COMMAND_SETTINGS.with(|c| *c.borrow_mut() = command_settings(&matches));
    // Said after a run, so that a mistake stays one line.
    let notes = old_spelling_notes(&args, &matches);
    NOTES_AFTER_RUN.with(|n| n.borrow_mut().clear());
    if let Err(e) = check_list_flags(&matches).and_then(|_| check_output_paths(&matches)) {
        say!("tahur: error: {e}");
        return e.exit_code();
    }
    let result = match dispatch_play(&matches) {
        Some(r) => r,
        None => match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
            Ok(cli) => execute(cli),
            Err(e) => Err(tahur::error::Error::usage(e.to_string())),
        },
    };
    match result {
        Ok(code) => {
            let later = NOTES_AFTER_RUN.with(|n| std::mem::take(&mut *n.borrow_mut()));
            for note in notes.into_iter().chain(later) {
                say!("{note}");
            }
            code
        }
        Err(e) => {
            say!("tahur: error: {e}");
            e.exit_code()
        }
    }
}

/// "; did you mean '--players'?" when clap found a command, flag or value close to the one
/// given (`tahur dudu`, `tahur durak sim --player 4`), else nothing.
fn did_you_mean(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    for kind in [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ] {
        let names: Vec<String> = match e.get(kind) {
            Some(ContextValue::String(s)) => vec![s.clone()],
            Some(ContextValue::Strings(v)) => v.clone(),
            _ => continue,
        };
        if names.is_empty() {
            continue;
        }
        let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        return format!("; did you mean {}?", quoted.join(" or "));
    }
    String::new()
}

/// The line for a command line that stops before its command (`tahur`, `tahur dudo`): the
/// commands that can follow and where their help is.
fn missing_command(args: &[std::ffi::OsString]) -> String {
    let mut cmd = command();
    let mut path = vec![cmd.get_name().to_string()];
    for a in args.iter().skip(1).filter_map(|a| a.to_str()) {
        if a.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(a) {
            Some(sub) => {
                let sub = sub.clone();
                path.push(sub.get_name().to_string());
                cmd = sub;
            }
            None => break,
        }
    }
    let names: Vec<&str> = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name())
        .filter(|n| *n != "help")
        .collect();
    let path = path.join(" ");
    format!(
        "{path} needs a command: one of {} (see {path} --help)",
        names.join(", ")
    )
}

/// List flags whose items a command reads, by game and flag: given explicitly, an empty list or
/// an empty item is a slip (`--hand ''` would run as if no hand were given).
const LIST_FLAGS: [(&str, &str, &str); 4] = [
    ("dudo", "hand", "1,4,4,2,6"),
    ("dudo", "shown", "3,3"),
    ("veintiuno", "removed", "AH,AS,KD"),
    ("domino", "hand", "6-6,5-4,3-0"),
];

/// Refuses an explicitly given list flag ([`LIST_FLAGS`]) that is empty or has an empty item.
fn check_list_flags(matches: &clap::ArgMatches) -> Result<()> {
    let Some((game, mut m)) = matches.subcommand() else {
        return Ok(());
    };
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
    }
    for (g, id, example) in LIST_FLAGS {
        // `try_get_one` first: asking the source of an argument a command lacks panics.
        let Ok(Some(value)) = m.try_get_one::<String>(id) else {
            continue;
        };
        if g != game || m.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
            continue;
        }
        if value.trim().is_empty() {
            return Err(tahur::error::Error::usage(format!(
                "--{id} '{value}' is empty: give items such as {example}, or leave --{id} out"
            )));
        }
        tahur::text::list_items(value, &format!("--{id}"))?;
    }
    Ok(())
}

/// Flags naming a file to write (`--output -` is standard output), and flags naming a folder to
/// write files into; a flag's id is its long name. A test checks every path flag is here.
/// `state` is read too when it exists (`dudo duel --state`), and written after the run.
const OUTPUT_FILES: [&str; 6] = [
    "output",
    "chart",
    "strategy-chart",
    "length-chart",
    "write",
    "state",
];
const OUTPUT_FOLDERS: [&str; 2] = ["out-dir", "sheet-dir"];

/// Checks every output path of the command given, before any work: a long run must not end in
/// "cannot write".
fn check_output_paths(matches: &clap::ArgMatches) -> Result<()> {
    let mut m = matches;
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
    }
    for id in OUTPUT_FILES {
        if let Ok(Some(path)) = m.try_get_one::<PathBuf>(id) {
            report::paths::check_file(&format!("--{id}"), path, id == "output")?;
        }
    }
    for id in OUTPUT_FOLDERS {
        if let Ok(Some(path)) = m.try_get_one::<PathBuf>(id) {
            report::paths::check_folder(&format!("--{id}"), path)?;
        }
    }
    Ok(())
}

fn execute(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Dudo(cmd) => dudo::execute(cmd),
        Command::Veintiuno(cmd) => veintiuno::execute(cmd),
        Command::Domino(cmd) => domino::execute(cmd),
        Command::Poker(cmd) => poker::execute(cmd),
        Command::Ocho(cmd) => ocho::execute(cmd),
        Command::Merge(m) => merge(m),
        Command::Completions { shell } => {
            let mut cmd = complete::with_value_hints(command());
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "tahur", &mut out);
            report::write_output(None, &String::from_utf8_lossy(&out))?;
            Ok(0)
        }
        Command::Man { out_dir } => man(out_dir.as_deref()),
    }
}

/// A manual page whose examples copy cleanly: the indented lines of the help's text (the
/// examples and their continuation lines) are set verbatim (`.nf`: no filling, no
/// justification, no hyphenation, so `--until-decided` never becomes "--until-de‐ cided"), and
/// the prose is set ragged-right without hyphenation.
fn examples_verbatim(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len() + 256);
    let mut verbatim = false;
    for line in roff.lines() {
        let indented = line.starts_with("  ");
        if indented != verbatim {
            out.push_str(if indented { ".nf\n" } else { ".fi\n" });
            verbatim = indented;
        }
        out.push_str(line);
        out.push('\n');
        if line.starts_with(".TH ") {
            out.push_str(".nh\n.ad l\n");
        }
    }
    if verbatim {
        out.push_str(".fi\n");
    }
    out
}

/// `tahur man`: the manual page on stdout, or every command's page written into `dir`.
fn man(dir: Option<&std::path::Path>) -> Result<i32> {
    let mut cmd = complete::with_value_hints(command());
    cmd.build();
    let page = |c: &clap::Command| -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        clap_mangen::Man::new(c.clone())
            .render(&mut buf)
            .map_err(|e| tahur::error::Error::Internal(format!("man page: {e}")))?;
        Ok(examples_verbatim(&String::from_utf8_lossy(&buf)).into_bytes())
    };
    let Some(dir) = dir else {
        report::write_output(None, &String::from_utf8_lossy(&page(&cmd)?))?;
        return Ok(0);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| tahur::error::Error::usage(format!("--out-dir '{}': {e}", dir.display())))?;
    // Every command and subcommand gets its page, named by its path: tahur-dudo-prob.1.
    let mut stack: Vec<(String, clap::Command)> = vec![("tahur".into(), cmd)];
    let mut written = 0;
    while let Some((name, c)) = stack.pop() {
        let c = c.name(name.clone());
        report::write_atomic(&dir.join(format!("{name}.1")), &page(&c)?)?;
        written += 1;
        for sub in c.get_subcommands().filter(|s| s.get_name() != "help") {
            stack.push((format!("{name}-{}", sub.get_name()), sub.clone()));
        }
    }
    say!("tahur: wrote {written} manual pages into {}", dir.display());
    Ok(0)
}

/// Flags renamed so that each means one thing in every game (`--hand` is what you hold), as
/// (new, old) for every command that has the new flag: the old spelling is a hidden alias for
/// a release, and using it prints a note.
pub(crate) const OLD_SPELLINGS: &[(&str, &str)] = &[("hand-size", "hand")];

/// [`OLD_SPELLINGS`] of one command each, as (command, argument id, new, old).
pub(crate) const OLD_SPELLINGS_OF: &[(&str, &str, &str, &str)] = &[
    ("domino deal", "hand", "hand", "holding"),
    ("poker reroll", "hand", "hand", "dice"),
    ("poker equity", "match-state", "match", "score"),
];

/// A note for each old spelling of [`OLD_SPELLINGS`] used on the command line `args` of the
/// command `m` (where the new flag took the value).
fn old_spelling_notes(args: &[std::ffi::OsString], matches: &clap::ArgMatches) -> Vec<String> {
    let mut m = matches;
    let mut path = Vec::new();
    while let Some((name, sub)) = m.subcommand() {
        path.push(name);
        m = sub;
    }
    let path = path.join(" ");
    let given = |flag: &str| {
        args.iter().any(|a| {
            let a = a.to_string_lossy();
            a == format!("--{flag}") || a.starts_with(&format!("--{flag}="))
        })
    };
    OLD_SPELLINGS
        .iter()
        .map(|&(new, old)| (new, new, old))
        .chain(
            OLD_SPELLINGS_OF
                .iter()
                .filter(|(command, ..)| *command == path)
                .map(|&(_, id, new, old)| (id, new, old)),
        )
        .filter(|(id, _, old)| {
            m.try_get_raw(id).is_ok_and(|v| v.is_some())
                && m.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
                && given(old)
        })
        .map(|(_, new, old)| {
            format!("tahur: note: --{old} is now --{new} (the old name works for this release)")
        })
        .collect()
}

thread_local! {
    /// Notes a command leaves for the end of a successful run ([`note_after_run`]).
    static NOTES_AFTER_RUN: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `note` for stderr after the run, printed only if it succeeds: a mistake stays one line.
pub(crate) fn note_after_run(note: String) {
    NOTES_AFTER_RUN.with(|n| n.borrow_mut().push(note));
}

thread_local! {
    /// The settings of the command being run, read off its command line ([`command_settings`]).
    static COMMAND_SETTINGS: std::cell::RefCell<Vec<(String, report::Value)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Flags that say how to run or where to write, not what to compute: left out of settings.
const NOT_SETTINGS: &[&str] = &[
    "format",
    "output",
    "wide",
    "threads",
    "progress",
    "shard",
    "out_dir",
    "sheet_dir",
    "write",
    "help",
    "version",
];

/// The game, the command and every argument of the command line (as given or by default),
/// typed: whole numbers as integers (`1e6` too), `true`/`false` as booleans, lists of whole
/// numbers as lists, the rest as text. Chart files and run-control flags are left out.
fn command_settings(matches: &clap::ArgMatches) -> Vec<(String, report::Value)> {
    use report::Value;
    let mut names = Vec::new();
    let mut m = matches;
    while let Some((name, sub)) = m.subcommand() {
        names.push(name.to_string());
        m = sub;
    }
    let mut settings = Vec::new();
    if let Some((game, command)) = names.split_first() {
        settings.push(("game".to_string(), Value::Text(game.clone())));
        if !command.is_empty() {
            settings.push(("command".to_string(), Value::Text(command.join(" "))));
        }
    }
    let typed = |raw: &str| -> Value {
        let plain = raw.trim().replace('_', "");
        let whole = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.fract() == 0.0 && x.abs() < 9e15)
                .map(|x| x as i64)
        };
        match plain.as_str() {
            "true" => return Value::Bool(true),
            "false" => return Value::Bool(false),
            _ => {}
        }
        if let Some(i) = whole(&plain) {
            return Value::Int(i);
        }
        if plain.contains(',') {
            let items: Option<Vec<i64>> = plain.split(',').map(whole).collect();
            if let Some(items) = items {
                return Value::List(items.into_iter().map(Value::Int).collect());
            }
        }
        Value::Text(raw.to_string())
    };
    for id in m.ids() {
        let id = id.as_str();
        // Groups of flattened argument structs (`OutputArgs`) are not arguments.
        let group = id.starts_with(|c: char| c.is_ascii_uppercase());
        if group || NOT_SETTINGS.contains(&id) || id.contains("chart") {
            continue;
        }
        let Ok(Some(raw)) = m.try_get_raw(id) else {
            continue;
        };
        let values: Vec<Value> = raw.map(|v| typed(&v.to_string_lossy())).collect();
        let value = match values.len() {
            0 => continue,
            1 => values.into_iter().next().unwrap_or(Value::Empty),
            _ => Value::List(values),
        };
        settings.push((id.to_string(), value));
    }
    // clap lists the arguments given before the defaults: sorted, the same run reads the same
    // however it was spelled.
    settings[names.len().min(2)..].sort_by(|a, b| a.0.cmp(&b.0));
    settings
}

/// Prints (or writes) a report in the chosen format. A report that does not say its own
/// settings (a job's report does: the same after a shard merge) gets the command line's;
/// every report gets the tool's version.
pub(crate) fn emit(report: &Report, out: &OutputArgs) -> Result<()> {
    let mut with_settings;
    let mut report = report;
    if report.get_setting("version").is_none() {
        with_settings = report.clone();
        if with_settings.settings.is_empty() {
            COMMAND_SETTINGS.with(|c| {
                for (key, value) in c.borrow().iter() {
                    with_settings.setting(key, value.clone());
                }
            });
        }
        with_settings.setting(
            "version",
            report::Value::Text(env!("CARGO_PKG_VERSION").to_string()),
        );
        report = &with_settings;
    }
    let to_stdout = out.output.as_deref().is_none_or(report::paths::is_stdout);
    let width = (!out.wide).then(|| report::output_width(to_stdout));
    let text = report::render_fitted(report, out.format, width)?;
    report::write_output(out.output.as_deref(), &text)
}

/// `tahur merge`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  tahur dudo prob 15 cuadras --dice 30 --samples 1e9 --shard 1/2 \\
      --output part1.json &&
      tahur dudo prob 15 cuadras --dice 30 --samples 1e9 --shard 2/2 \\
      --output part2.json &&
      tahur merge part1.json part2.json     # exactly the unsharded run's output
  tahur durak flags --players 4 --games 1e6 --shard 1/3 --output part-1.json &&
      tahur merge part-*.json --partial --format json    # one shard of three
  tahur domino flags --players 4 --games 1e6 --shard 1/2 --output part-1.json &&
      tahur domino flags --players 4 --games 1e6 --shard 2/2 \\
      --output part-2.json &&
      tahur merge part-*.json --chart flags.svg --output report.md \\
      --format markdown")]
pub struct MergeArgs {
    /// Shard files written with --shard K/N (or --shard auto).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Merge even if shards are missing; the report says what is missing.
    #[arg(long)]
    pub partial: bool,
    /// Draw the run's chart from the merged result, as the unsharded run's --chart
    /// (sim: rate by seat; tournament: ranking; flags: each table's figure).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Draw a sim run's rate per seat of each strategy (as sim --strategy-chart).
    #[arg(long = "strategy-chart", id = "strategy-chart", value_name = "FILE")]
    pub strategy_chart: Option<PathBuf>,
    /// Draw a sim run's game-length distribution (as sim --length-chart).
    #[arg(long = "length-chart", id = "length-chart", value_name = "FILE")]
    pub length_chart: Option<PathBuf>,
    /// Output format and file.
    #[command(flatten)]
    pub out: OutputArgs,
}

fn merge(m: MergeArgs) -> Result<i32> {
    let mut files = Vec::new();
    for f in &m.files {
        files.push((f.display().to_string(), Partial::read(f)?));
    }
    let names: Vec<String> = files.iter().map(|(n, _)| format!("'{n}'")).collect();
    // Every field was checked on reading; should values that each pass still not fit together
    // in a way no check foresaw, the report refuses them as damaged files (exit 2), not as a
    // crash (exit 101).
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| merged_report(m, &files)));
    std::panic::set_hook(previous);
    made.unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(tahur::error::Error::usage(format!(
            "the shard files {} hold values that do not fit together ({why}); give the files as tahur wrote them, or run those shards again",
            names.join(", ")
        )))
    })
}

/// The merge of checked shard files, its charts and its report.
fn merged_report(m: MergeArgs, files: &[(String, Partial)]) -> Result<i32> {
    let merged = shards::merge(files, m.partial)?;
    let charts = tahur::play::job::ChartFiles {
        main: m.chart,
        strategies: m.strategy_chart,
        length: m.length_chart,
        note: String::new(),
    };
    let (command, drawn) = merged.job.command_and_charts();
    let asked = [
        ("chart", &charts.main),
        ("strategy-chart", &charts.strategies),
        ("length-chart", &charts.length),
    ];
    for (flag, file) in asked {
        if file.is_some() && !drawn.contains(&flag) {
            let can = match drawn {
                [] => "draws no chart".to_string(),
                _ => format!(
                    "draws {}",
                    drawn
                        .iter()
                        .map(|f| format!("--{f}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            return Err(tahur::error::Error::usage(format!(
                "merge --{flag}: these shards are a `{command}` run, which {can}"
            )));
        }
    }
    merged.job.charts(&merged.tally, &merged.summary, &charts)?;
    let rep = merged.job.render(&merged.tally, &merged.summary)?;
    emit(&rep, &m.out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples and notes after every command's flags fit an 80-column terminal (a long
    /// command continues on the next line after a `\`).
    /// Every long flag of every command with the value names it takes there (a switch: `-`).
    fn flag_meanings() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
        let mut out: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        let mut stack = vec![command()];
        while let Some(c) = stack.pop() {
            for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
                let Some(long) = a.get_long() else { continue };
                let value = match a.get_value_names() {
                    _ if !a.get_action().takes_values() => "-".into(),
                    Some(names) => names
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => "VALUE".into(),
                };
                out.entry(long.to_string()).or_default().insert(value);
            }
            stack.extend(c.get_subcommands().cloned());
        }
        out
    }

    /// One meaning per flag across games: a long flag takes the same kind of value in every
    /// command, but for the listed ones, whose value names the game's own things (your dice,
    /// cards or tiles in `--hand`; a number of dice, players, …).
    #[test]
    fn every_flag_means_one_thing_in_every_command() {
        // Flags whose value is named by the game: the same meaning, the game's own things.
        const SAME_MEANING: &[(&str, &[&str])] = &[("hand", &["DICE", "CARDS", "TILES"])];
        let mut conflicts = Vec::new();
        for (long, values) in flag_meanings() {
            let allowed = SAME_MEANING.iter().find(|(l, _)| *l == long);
            let ok = match allowed {
                Some((_, names)) => values.iter().all(|v| names.contains(&v.as_str())),
                None => values.len() == 1,
            };
            if !ok {
                conflicts.push(format!("--{long}: {values:?}"));
            }
        }
        assert!(
            conflicts.is_empty(),
            "flags with several meanings:\n{}",
            conflicts.join("\n")
        );
    }

    #[test]
    fn help_examples_fit_80_columns() {
        fn walk(cmd: &clap::Command, trail: &str, long: &mut Vec<String>) {
            let mut texts: Vec<String> = Vec::new();
            if let Some(h) = cmd.get_after_help() {
                texts.push(h.to_string());
            }
            if let Some(h) = cmd.get_after_long_help() {
                texts.push(h.to_string());
            }
            for text in texts {
                for line in text.lines() {
                    if line.chars().count() > 80 {
                        long.push(format!("{trail}: {line}"));
                    }
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{trail} {}", sub.get_name()), long);
            }
        }
        let mut long = Vec::new();
        walk(&command(), "tahur", &mut long);
        assert!(
            long.is_empty(),
            "{} lines over 80 columns:\n{}",
            long.len(),
            long.join("\n")
        );
    }

    /// Every run option of every command takes counts in every form (`1e3` as `1000`): one
    /// parser each, whatever the command.
    #[test]
    fn every_run_option_takes_every_count_form() {
        fn walk(cmd: &clap::Command, trail: &str, seen: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if !["seed", "threads", "samples", "deals", "batch"].contains(&id) {
                    continue;
                }
                let long = format!("--{}", arg.get_long().unwrap_or(id));
                // The argument alone, parsed as the command parses it: a parser of plain
                // integers would refuse `1e3`.
                let alone = clap::Command::new("t")
                    .no_binary_name(true)
                    .arg(arg.clone().required(false));
                let parsed = alone.try_get_matches_from([long.as_str(), "1e3"]);
                assert!(parsed.is_ok(), "{trail} {long} 1e3: {:?}", parsed.err());
                seen.push(format!("{trail} {long}"));
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{trail} {}", sub.get_name()), seen);
            }
        }
        let mut seen = Vec::new();
        walk(&command(), "tahur", &mut seen);
        for expected in [
            "tahur dudo prob --seed",
            "tahur dudo prob --samples",
            "tahur dudo tune --threads",
            "tahur poker tune --seed",
            "tahur ocho value --seed",
            "tahur ocho value --threads",
            "tahur ocho value --deals",
            "tahur ocho deal --samples",
            "tahur domino deal --seed",
            "tahur domino deal --threads",
            "tahur domino deal --samples",
            "tahur veintiuno sim --seed",
            "tahur veintiuno strategy --threads",
            "tahur durak sim --seed",
            "tahur durak compare --batch",
        ] {
            assert!(seen.iter().any(|f| f == expected), "{expected}: {seen:?}");
        }
    }

    /// Every flag taking a path is an input listed here (read, never written: its own errors
    /// are the reader's) or an output checked before the run.
    #[test]
    fn every_path_flag_is_checked_before_the_run() {
        fn walk(cmd: &clap::Command, trail: &str, found: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                if arg.get_value_parser().type_id() == std::any::TypeId::of::<PathBuf>() {
                    let id = arg.get_id().as_str();
                    let inputs = (trail == "tahur merge" && id == "files")
                        || (trail == "tahur dudo duel" && id == "judge");
                    let outputs = OUTPUT_FILES.contains(&id) || OUTPUT_FOLDERS.contains(&id);
                    assert!(
                        inputs || (outputs && arg.get_long() == Some(id)),
                        "{trail} {id}: an unchecked path flag"
                    );
                    found.push(format!("{trail} --{id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{trail} {}", sub.get_name()), found);
            }
        }
        let mut found = Vec::new();
        walk(&command(), "tahur", &mut found);
        for expected in [
            "tahur dudo sim --output",
            "tahur dudo sim --length-chart",
            "tahur dudo duel --state",
            "tahur durak flags --chart",
            "tahur veintiuno strategy --write",
            "tahur dudo tune --out-dir",
            "tahur man --out-dir",
            "tahur dudo sheets --out-dir",
            "tahur merge --output",
        ] {
            assert!(found.iter().any(|f| f == expected), "{expected}: {found:?}");
        }
    }
}
