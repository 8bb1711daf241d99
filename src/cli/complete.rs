//! What shell completions offer after each flag: its fixed values (a rule's `podkidnoy`,
//! `perevodnoy`, `platkowy`; `--rules chimbo9`), the game's strategy names after `--strategies`,
//! file names only after a flag that names a file or folder, and nothing else for free values
//! (a count, a seed, a bid).
//!
//! The values are not written twice: each is found by asking the flag's own parser (or the
//! rule's setter, for a rule of a game's table) which words of its help it accepts, so a value
//! the command refuses is never offered. Only the copy of the command line that completion
//! scripts (and manual pages) are generated from is changed; parsing is untouched.

use clap::builder::PossibleValuesParser;
use clap::{Arg, Command, ValueHint};

use super::games::GameCli;
use tahur::play::rules::Flag;
use tahur::play::{Game, GameRules, Strategy};

/// A flag's values for completion: fixed words, or none (a free value).
type Values = Option<Vec<String>>;

/// The words of `text` that could be values: letters, digits and dashes (`2x2x2`,
/// `fives-and-threes`, `36`), each once, in order.
fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| !(c.is_alphanumeric() || c == '-')) {
        let w = w.trim_matches('-');
        if !w.is_empty() && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// The words of `text` that `accepts` takes, when they are all the values there are: `None`
/// when it takes any word, or a number range (some number next to an accepted one is accepted
/// too, though the text does not name it: `1 to 12` is a range, `36 or 52` two values).
fn fixed_values(text: &str, accepts: impl Fn(&str) -> bool) -> Values {
    if accepts("zz-not-a-value") {
        return None;
    }
    let mut taken: Vec<String> = Vec::new();
    for w in words(text) {
        // `Chimbo` where `chimbo9` is taken, `Caleuchano` after `caleuchano`: once, lower case.
        let lower = w.to_lowercase();
        let word = if w != lower && accepts(&lower) {
            lower
        } else {
            w
        };
        if accepts(&word) && !taken.contains(&word) {
            taken.push(word);
        }
    }
    if taken.iter().any(|w| w.chars().any(|c| c.is_ascii_digit())) {
        // Numbers (or cards): a range or free text, unless no other number nearby or common,
        // and no other card, is taken.
        let mut others: Vec<String> = ["0.5", "1", "2", "3", "7", "10", "1000", "AH", "KD"]
            .map(String::from)
            .to_vec();
        for w in &taken {
            if let Ok(n) = w.parse::<i64>() {
                others.extend([(n - 1).to_string(), (n + 1).to_string()]);
            }
        }
        if others.iter().any(|m| !taken.contains(m) && accepts(m)) {
            return None;
        }
    }
    (!taken.is_empty()).then_some(taken)
}

/// The strategy names game `G` plays, as its help lists them (English and Spanish), each one
/// its parser takes.
fn strategy_names<G: GameCli>() -> Vec<String> {
    words(G::STRATEGIES)
        .into_iter()
        .filter(|w| w.chars().all(|c| c.is_alphabetic() || c == '-'))
        .filter(|w| G::Strategy::parse(w).is_ok())
        .collect()
}

/// The fixed values of each rule flag of game `G`'s table, by long name.
fn rule_values<G: Game>() -> Vec<(&'static str, Values)> {
    let (min, _, default) = G::INFO.players;
    let standard = <G::Rules as GameRules>::standard(default.unwrap_or(min));
    <G::Rules as GameRules>::TABLE
        .iter()
        .filter_map(|rule| match rule.flag {
            Flag::Value { long, .. } => {
                let values = fixed_values(&format!("{} {}", rule.accepts, rule.help), |v| {
                    (rule.set)(&mut standard.clone(), v)
                });
                Some((long, values))
            }
            _ => None,
        })
        .collect()
}

/// What one game's flags complete to: rule flags and strategy names.
struct GameHints {
    key: &'static str,
    rules: Vec<(&'static str, Values)>,
    strategies: Vec<String>,
}

macro_rules! game_hints {
    ($($name:ident => $game:ty),* $(,)?) => {
        /// Every game's hints.
        fn all_games() -> Vec<GameHints> {
            vec![$(GameHints {
                key: <$game as Game>::INFO.key,
                rules: rule_values::<$game>(),
                strategies: strategy_names::<$game>(),
            }),*]
        }
    };
}
tahur::with_games!(game_hints);

/// Flags whose value is a list of strategies.
const STRATEGY_FLAGS: [&str; 6] = [
    "strategies",
    "policies",
    "a-strategies",
    "b-strategies",
    "field",
    "bots",
];

/// `cmd` (the whole command line) with a value hint or fixed values on every flag that takes a
/// value, for completion scripts and manual pages.
pub fn with_value_hints(cmd: Command) -> Command {
    let games = all_games();
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = hint_args(cmd, None);
    for s in subs {
        let game = games.iter().find(|g| g.key == s);
        cmd = cmd.mut_subcommand(s, |sub| hint_tree(sub, game));
    }
    cmd
}

/// `cmd` and every command under it, hinted for `game`'s flags (if a game's).
fn hint_tree(cmd: Command, game: Option<&GameHints>) -> Command {
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = hint_args(cmd, game);
    for s in subs {
        cmd = cmd.mut_subcommand(s, |sub| hint_tree(sub, game));
    }
    cmd
}

/// `cmd`'s own flags hinted.
fn hint_args(mut cmd: Command, game: Option<&GameHints>) -> Command {
    let ids: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| a.get_action().takes_values() && a.get_possible_values().is_empty())
        .map(|a| a.get_id().clone())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(id, |a| hint(a, game));
    }
    cmd
}

/// One flag's hint: a file or folder for paths, the fixed values it accepts, the strategy
/// names, or a free value (no file names).
fn hint(arg: Arg, game: Option<&GameHints>) -> Arg {
    let id = arg.get_id().as_str().to_string();
    let names: Vec<String> = arg
        .get_value_names()
        .map(|v| v.iter().map(|s| s.to_string()).collect())
        .unwrap_or_default();
    if names.iter().any(|n| n.contains("DIR")) {
        return arg.value_hint(ValueHint::DirPath);
    }
    if names.iter().any(|n| n.contains("FILE")) {
        return arg.value_hint(ValueHint::FilePath);
    }
    // The flag's own parser, alone on a command of its own (the flag's ties to others left
    // out), tried on each word of its help.
    let probe = Command::new("probe").no_binary_name(true).arg(
        Arg::new("v")
            .long("v")
            .value_parser(arg.get_value_parser().clone()),
    );
    let own = |v: &str| probe.clone().try_get_matches_from(["--v", v]).is_ok();
    let values: Values = if !own("zz-not-a-value") {
        // A typed flag (`dudo duel --rules`, `--memory`) says itself what it takes.
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        fixed_values(&help, own)
    } else if STRATEGY_FLAGS.contains(&id.as_str()) {
        game.map(|g| g.strategies.clone())
    } else {
        // A text flag: a rule of the game's table, or free text.
        game.and_then(|g| g.rules.iter().find(|(long, _)| *long == id))
            .and_then(|rule| rule.1.clone())
    };
    match values {
        Some(values) if !values.is_empty() => arg
            // The copy completes and documents; it never parses, so its defaults need not be
            // among the values (a list default such as `honest,threshold` is not).
            .default_value(None::<&str>)
            .value_parser(PossibleValuesParser::new(values))
            .hide_possible_values(true),
        _ => arg.value_hint(ValueHint::Other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_values_are_the_accepted_words_and_ranges_are_free() {
        let two = |v: &str| v == "36" || v == "52";
        assert_eq!(
            fixed_values("use 36 (6 to ace) or 52", two),
            Some(vec!["36".to_string(), "52".to_string()])
        );
        let range = |v: &str| v.parse::<u32>().is_ok_and(|n| (1..=12).contains(&n));
        let card = |v: &str| v.len() == 2;
        assert_eq!(fixed_values("one card, e.g. 7S", card), None);
        let case = |v: &str| v.eq_ignore_ascii_case("chimbo9") || v.eq_ignore_ascii_case("plain");
        assert_eq!(
            fixed_values("Chimbo9 or plain", case),
            Some(vec!["chimbo9".to_string(), "plain".to_string()])
        );
        assert_eq!(fixed_values("give 1 to 12 cards", range), None);
        assert_eq!(fixed_values("anything", |_| true), None);
        let counts = |v: &str| v.parse::<f64>().is_ok_and(|x| x >= 1.0);
        assert_eq!(fixed_values("deal N times (e.g. 1e6)", counts), None);
        assert_eq!(fixed_values("nothing here", |_| false), None);
        assert_eq!(
            words("none, 2x2 (4 players), 3x3 or fives-and-threes."),
            [
                "none",
                "2x2",
                "4",
                "players",
                "3x3",
                "or",
                "fives-and-threes"
            ]
        );
    }
}
