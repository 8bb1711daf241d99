//! Argument definitions shared by the commands.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::report::Format;

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
  tahur veintiuno odds
  tahur veintiuno sim --players 4 --policies sheet,basic --hands 1e6
  tahur durak sim --players 2 --strategies greedy,random --games 1e5
  tahur durak tournament --players 4 --strategies random,greedy,expert
  tahur merge part1.json part2.json"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Dudo (Chilean liar's dice): bid odds, cheat sheets, advice.
    #[command(subcommand)]
    Dudo(super::dudo::DudoCommand),
    /// 21 ecuatoriano: two-card specials, the bank's odds, whole hands with a rotating bank.
    #[command(subcommand)]
    Veintiuno(super::veintiuno::VeintiunoCommand),
    /// Durak (podkidnoy, perevodnoy, platkowy; 2–6 players, teams): whole games between bots,
    /// seat and first-attacker advantage, rule and strategy comparisons, tournaments.
    #[command(subcommand)]
    Durak(super::durak::DurakCommand),
    /// Combine shard files (--shard K/N) into the result of the whole run.
    Merge(super::MergeArgs),
}

/// Output options.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write to FILE (atomically: a temporary file, then a rename) instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Simulation options.
#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// Also estimate by Monte Carlo with N samples (e.g. 1000000, 1_000_000 or 1e6).
    #[arg(long, value_name = "N", value_parser = parse_samples)]
    pub samples: Option<u64>,
    /// Seed of the random streams: the same seed and samples give the same numbers.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: every core); never changes the result.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Run only shard K of N and write a partial result for `tahur merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// Parses a count such as `1000000`, `1_000_000`, `1,000,000`, `1e6` or `2.5e6`.
pub fn parse_count(s: &str) -> Option<u64> {
    let t: String = s.trim().chars().filter(|&c| c != '_' && c != ',').collect();
    if t.is_empty() {
        return None;
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return t.parse().ok();
    }
    let (mantissa, exp) = t
        .to_ascii_lowercase()
        .split_once('e')
        .map(|(m, e)| (m.to_string(), e.to_string()))?;
    let exp: u32 = exp.trim_start_matches('+').parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
    {
        return None;
    }
    // Integral only: 2.5e6 is fine, 2.5e0 is not.
    let digits = format!("{int}{frac}");
    let shift = exp.checked_sub(frac.len() as u32)?;
    let base: u64 = digits.parse().ok()?;
    base.checked_mul(10u64.checked_pow(shift)?)
}

/// The largest sample count accepted (10^15: weeks of computing on this kind of machine).
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;

fn parse_samples(s: &str) -> Result<u64, String> {
    match parse_count(s) {
        Some(0) => Err("give at least 1 sample".into()),
        Some(n) if n <= MAX_SAMPLES => Ok(n),
        Some(_) => Err(format!("at most {MAX_SAMPLES} (1e15) samples")),
        None => Err("expected a whole number such as 1000000, 1_000_000 or 1e6".into()),
    }
}

fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to {}", u64::MAX))
}

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err("expected a number of threads from 1 to 1024".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("1000000"), Some(1_000_000));
        assert_eq!(parse_count("1_000_000"), Some(1_000_000));
        assert_eq!(parse_count("1,000,000"), Some(1_000_000));
        assert_eq!(parse_count("1e6"), Some(1_000_000));
        assert_eq!(parse_count("2.5e6"), Some(2_500_000));
        assert_eq!(parse_count("1E3"), Some(1000));
        assert_eq!(parse_count("2.5e0"), None);
        assert_eq!(parse_count("1e30"), None);
        assert_eq!(parse_count("abc"), None);
        assert_eq!(parse_count("-5"), None);
        assert_eq!(parse_count(""), None);
        assert_eq!(parse_count("e5"), None);
    }
}
