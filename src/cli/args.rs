//! Argument definitions shared by the commands.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use tahur::report::Format;

/// tahur: exact odds and reproducible simulations for parlor games.
#[derive(Parser, Debug)]
#[command(
    name = "tahur",
    version,
    about = "Exact odds and reproducible Monte Carlo for Dudo and other parlor games",
    after_help = "Examples:
  tahur dudo prob 15 cuadras --dice 30 --hand 1,4,4,2,6
  tahur dudo prob quince cuadras --players 6 --hand 14426 --samples 1e7
  tahur dudo table --players 4 --rules caleuchano --chart odds.svg
  tahur dudo advise 8 quinas --dice 20 --hand 5,5,1,3,2
  tahur dudo sim --players 3 --strategies threshold,random,random --games 1e4
  tahur dudo tournament --players 4 --strategies random,honest,threshold,tuned
  tahur veintiuno odds
  tahur veintiuno sim --players 4 --policies sheet,basic --hands 1e6
  tahur veintiuno flags --players 4 --hands 1e7
  tahur durak sim --players 2 --strategies greedy,random --games 1e5
  tahur durak compare --players 4 --b variant=perevodnoy --until-decided \\
      --games 1e7
  tahur domino deal --players 4
  tahur domino sim --players 4 --strategies heaviest,company --games 1e6
  tahur poker reroll --hand AAKQJ --beat 'trío de reyes'
  tahur poker sim --players 4 --strategies tuned,threshold --games 1e5
  tahur ocho sim --players 4 --strategies expert,greedy --games 1e6
  tahur ocho value --players 4 --deals 1e5
  tahur ocho sim --players 4 --games 1e7 --shard 1/4 --output part1.json

Every game with whole games has sim, compare, tournament and flags (21
ecuatoriano has its own sim, hand by hand, and the shared compare, tournament
and flags)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Progress of long commands when stderr is not a terminal (logs, batch jobs): a line every
    /// SECONDS (5 if not given) such as "tahur: 1.2 M of 10 M games (12 %), 3 M games/s, about
    /// 2.9 s left". A terminal always gets a progress bar.
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "5",
        value_parser = parse_progress
    )]
    pub progress: Option<std::time::Duration>,
}

/// The commands. A game's line in `tahur --help` is its [`super::games::GameCli::ABOUT`], set
/// when its whole-game commands are added.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Dudo's commands of its own.
    #[command(subcommand)]
    Dudo(super::dudo::DudoCommand),
    /// 21 ecuatoriano's commands of its own.
    #[command(subcommand)]
    Veintiuno(super::veintiuno::VeintiunoCommand),
    /// Dominó's commands of its own.
    #[command(subcommand)]
    Domino(super::domino::DominoCommand),
    /// Póker mentiroso's commands of its own.
    #[command(subcommand)]
    Poker(super::poker::PokerCommand),
    /// Ocho loco's commands of its own.
    #[command(subcommand)]
    Ocho(super::ocho::OchoCommand),
    /// Combine shard files (--shard K/N) into the result of the whole run, and its charts.
    Merge(super::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = "Examples:
  mkdir -p ~/.local/share/bash-completion/completions &&
      tahur completions bash > ~/.local/share/bash-completion/completions/tahur
  mkdir -p ~/.zfunc && tahur completions zsh > ~/.zfunc/_tahur
  mkdir -p ~/.config/fish/completions &&
      tahur completions fish > ~/.config/fish/completions/tahur.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command into a folder.
    #[command(after_help = "Examples:
  tahur man | man -l -
  tahur man --out-dir man/ && man -l man/tahur-dudo-prob.1")]
    Man {
        /// Write tahur.1 and a page per command (tahur-dudo-prob.1, …) into DIR.
        #[arg(long = "out-dir", id = "out-dir", value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// Output options.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, default_value = "text", value_parser = format_parser())]
    pub format: Format,
    /// Write to FILE (atomically: a temporary file, then a rename) instead of stdout; `-` is
    /// stdout. The folder must exist and be writable: checked before any work.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Text: keep every table row on one line, however wide. Without it text is fitted to
    /// the terminal (`COLUMNS`, or 100 columns when not a terminal): wide tables wrap their
    /// headings or become one block per row, and notes wrap.
    #[arg(long)]
    pub wide: bool,
}

/// `--format`: the report's formats, listed in help.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Format::ALL.iter().map(|(_, name, help)| {
        let mut help = help.to_string();
        if let Some(first) = help.get(..1) {
            help.replace_range(..1, &first.to_uppercase());
        }
        clap::builder::PossibleValue::new(*name).help(help)
    }))
    .map(|name: String| Format::parse(&name).unwrap_or(Format::Text))
}

fn parse_progress(s: &str) -> Result<std::time::Duration, String> {
    match s.trim().trim_end_matches('s').trim().parse::<f64>() {
        Ok(x) if (0.1..=86_400.0).contains(&x) => Ok(std::time::Duration::from_secs_f64(x)),
        _ => Err(
            "expected seconds between progress lines, from 0.1 to 86400 (e.g. --progress=10)"
                .into(),
        ),
    }
}
