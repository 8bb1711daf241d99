//! One rule table per game: each rule written once — its key and aliases, its command-line flag,
//! its help, what it accepts, its parser and accessor, its words in a description and the
//! changes `flags` tries — and everything else derived from the table: `key=value` changes
//! ([`with_changes`]), the one-rule changes of `flags` ([`one_rule_changes`]), the description
//! of a table ([`describe`]), the command-line flags and the README's list of rules. OpenSpiel's
//! game parameters are the model.

use std::fmt::Write as _;

use super::{GameRules, RuleChange};
use crate::error::{Error, Result};
use crate::text::{key_values, normalize, parse_count};

/// How a rule is set on the command line of the whole-game commands (besides `--house`,
/// `--a` and `--b`, which take any rule as `key=value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// No flag of its own: only `key=value`.
    None,
    /// `--long VALUE`.
    Value {
        /// The long option, e.g. `variant` for `--variant`.
        long: &'static str,
        /// The value's name in help, e.g. `NAME`.
        value_name: &'static str,
    },
    /// A switch, `--long`, that sets the rule to `sets` (`on`, or `off` for `--no-…`).
    Switch {
        /// The long option, e.g. `no-redeal`.
        long: &'static str,
        /// The value the switch sets.
        sets: &'static str,
    },
}

impl Flag {
    /// The long option, if the rule has a flag.
    pub fn long(&self) -> Option<&'static str> {
        match *self {
            Flag::None => None,
            Flag::Value { long, .. } | Flag::Switch { long, .. } => Some(long),
        }
    }
}

/// One rule of a game's table. `R` is the game's rules type.
pub struct Rule<R: 'static> {
    /// The key of `key=value` changes, e.g. `variant`.
    pub key: &'static str,
    /// Other names the key is accepted under (Spanish names, older spellings), normalised.
    pub aliases: &'static [&'static str],
    /// Its command-line flag.
    pub flag: Flag,
    /// The rule in a sentence, with its default: the flag's help and the README's list.
    pub help: &'static str,
    /// What the rule accepts, said to whoever gave something else: "use 36 (6 to ace) or 52".
    pub accepts: &'static str,
    /// Sets the rule from a value as typed; `false` when the value is not one it accepts.
    pub set: fn(&mut R, &str) -> bool,
    /// The rule's value as `key=value` writes it (what [`Rule::set`] reads back).
    pub get: fn(&R) -> String,
    /// What the rule adds to a description of the table, if anything (usually only a value
    /// other than the standard one).
    pub describe: fn(&R) -> Option<String>,
    /// The changes `flags` tries from these rules, each as `key=value[,key=value]` with a short
    /// label for charts. A change the rules then refuse, or that changes nothing, is dropped.
    pub changes: fn(&R) -> Vec<(String, String)>,
}

impl<R> std::fmt::Debug for Rule<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("key", &self.key)
            .field("flag", &self.flag)
            .finish_non_exhaustive()
    }
}

impl<R: GameRules> Rule<R> {
    /// Whether `key` (as typed) names this rule.
    pub fn is_named(&self, key: &str) -> bool {
        let k = normalize(key);
        k == self.key || self.aliases.contains(&k.as_str())
    }
}

/// The rule `key` (as typed) names in `R`'s table.
pub fn rule<R: GameRules>(key: &str) -> Option<&'static Rule<R>> {
    R::TABLE.iter().find(|r| r.is_named(key))
}

/// Every key of `R`'s table, for help and messages: "variant, deck, hand, …".
pub fn keys<R: GameRules>() -> String {
    R::TABLE
        .iter()
        .map(|r| r.key)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `rules` changed by `key=value,…` pairs, each parsed by its rule. Pairs are applied in the
/// table's order, whatever order they were given in: a rule that moves others with it (a
/// variant or rule set that brings its own deck or lives) comes first in its table, so that the
/// pairs given with it have the last word.
pub fn with_changes<R: GameRules>(rules: &R, spec: &str) -> Result<R> {
    let example = R::TABLE.first().map_or("key=value".to_string(), |r| {
        format!("{}={}", r.key, (r.get)(rules))
    });
    let mut pairs: Vec<(usize, &str, &str)> = Vec::new();
    for (k, v) in key_values(spec, "rule change", &example)? {
        let Some(i) = R::TABLE.iter().position(|r| r.is_named(k)) else {
            return Err(Error::UnknownRule {
                key: k.to_string(),
                spec: spec.trim().to_string(),
                keys: keys::<R>(),
            });
        };
        pairs.push((i, k, v));
    }
    pairs.sort_by_key(|&(i, _, _)| i);
    let mut out = rules.clone();
    for (i, _, v) in pairs {
        let rule = &R::TABLE[i];
        if !(rule.set)(&mut out, v) {
            return Err(Error::BadRule {
                key: rule.key,
                value: v.to_string(),
                accepts: rule.accepts,
            });
        }
    }
    Ok(out)
}

/// Every change of one rule that means something for `rules` and can be played: each rule's
/// changes in the table's order, as `--b` would give them, without the ones the rules refuse
/// or that change nothing.
pub fn one_rule_changes<R: GameRules>(rules: &R) -> Vec<RuleChange<R>> {
    let mut out = Vec::new();
    for rule in R::TABLE {
        for (spec, label) in (rule.changes)(rules) {
            if let Ok(changed) = with_changes(rules, &spec) {
                if changed != *rules && changed.validate().is_ok() {
                    out.push(RuleChange::new(spec, label, changed));
                }
            }
        }
    }
    out
}

/// The table in a few words: the players, then what each rule adds.
pub fn describe<R: GameRules>(rules: &R) -> String {
    let mut parts = vec![rules.describe_players()];
    parts.extend(R::TABLE.iter().filter_map(|r| (r.describe)(rules)));
    parts.join(" · ")
}

/// Every rule of `rules` as `key=value` for machines (a record: `{"variant": "podkidnoy",
/// "deck": 36, …}`, whole numbers as integers), with the players; shown as [`describe`] says it.
pub fn settings<R: GameRules>(rules: &R) -> crate::report::Value {
    use crate::report::Value;
    let mut parts = vec![("players".to_string(), Value::Int(rules.players() as i64))];
    for r in R::TABLE {
        let value = (r.get)(rules);
        let typed = match value.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Text(value),
        };
        parts.push((r.key.to_string(), typed));
    }
    Value::Record(describe(rules), parts)
}

/// The rules of `R` as a Markdown list for the README, one item per rule in the table's order:
/// its flag and its `key=value` form (aliases after them), then its help as a sentence, the
/// default last ("[default: 6]" becomes "Default: 6."):
///
/// ```text
/// - `--hand-size N`, `hand=N` (or `mano=N`): Cards per hand, 1–12. Default: 6; platkowy 5.
/// - `--no-redeal`, `redeal=off`: Play hands that are all red, … (no re-deal).
/// - `lives=N` (or `vidas=N`): Lives each, 1–20. Default: 3 fichas in Chimbo 9, ….
/// ```
pub fn markdown_list<R: GameRules>() -> String {
    let mut s = String::new();
    for r in R::TABLE {
        let (flag, value) = match r.flag {
            Flag::None => (None, value_form(r.accepts)),
            Flag::Value { long, value_name } => (
                Some(format!("`--{long} {value_name}`")),
                value_name.to_string(),
            ),
            Flag::Switch { long, sets } => (Some(format!("`--{long}`")), sets.to_string()),
        };
        let mut names: Vec<String> = flag.into_iter().collect();
        names.push(format!("`{}={value}`", r.key));
        let mut item = names.join(", ");
        if !r.aliases.is_empty() {
            let aliases: Vec<String> = r.aliases.iter().map(|a| format!("`{a}={value}`")).collect();
            let _ = write!(item, " (or {})", aliases.join(", "));
        }
        let _ = writeln!(s, "- {item}: {}", sentence(r.help));
    }
    s
}

/// The value of a rule without a flag, as its `key=value` form shows it, read from what the rule
/// accepts: `on|off` from "use on or off", `N` from "give 1 to 20 lives", `…` otherwise.
fn value_form(accepts: &str) -> String {
    if accepts.starts_with("give ") {
        return "N".to_string();
    }
    let words: Option<Vec<&str>> = accepts.strip_prefix("use ").map(|list| {
        list.split(" or ")
            .flat_map(|part| part.split(", "))
            .collect()
    });
    match words {
        Some(words) if words.iter().all(|w| !w.contains([' ', '('])) => words.join("|"),
        _ => "…".to_string(),
    }
}

/// A rule's help as a sentence: a full stop at the end, and a trailing `[default: X]` (as the
/// command line's help shows it) as a sentence of its own.
fn sentence(help: &str) -> String {
    let full_stop = |text: &str| {
        let text = text.trim_end();
        if text.ends_with(['.', '!', '?']) {
            text.to_string()
        } else {
            format!("{text}.")
        }
    };
    match help
        .trim_end()
        .strip_suffix(']')
        .and_then(|h| h.rsplit_once("[default: "))
    {
        Some((body, default)) => format!("{} Default: {}", full_stop(body), full_stop(default)),
        None => full_stop(help),
    }
}

/// A switch's value as players write it: `on`/`off`, `yes`/`no`, `true`/`false`, `1`/`0`, `sí`.
pub fn switch(value: &str) -> Option<bool> {
    match normalize(value).as_str() {
        "on" | "yes" | "true" | "1" | "si" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// A whole number from `lo` to `hi`, in any form counts take (`30`, `1_000`, `1e3`).
pub fn whole(value: &str, lo: u64, hi: u64) -> Option<u64> {
    parse_count(value).filter(|n| (lo..=hi).contains(n))
}

/// `on` or `off`.
pub fn on_off(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

/// The change that turns a switch the other way, labelled by its new state.
pub fn flip(key: &str, now: bool, label_on: &str, label_off: &str) -> (String, String) {
    if now {
        (format!("{key}=off"), label_off.to_string())
    } else {
        (format!("{key}=on"), label_on.to_string())
    }
}

/// Checks a rule table: keys and aliases unique and normalised, flags unique, each rule reads
/// back what it writes (`key=get(rules)` changes nothing) for `rules`, and each change `flags`
/// tries parses. Every game's conformance test runs it on its standard tables.
pub fn check_table<R: GameRules>(rules: &R) -> std::result::Result<(), String> {
    let mut names: Vec<&str> = Vec::new();
    let mut longs: Vec<&str> = Vec::new();
    for r in R::TABLE {
        for name in std::iter::once(&r.key).chain(r.aliases) {
            if normalize(name) != *name {
                return Err(format!("{name}: keys and aliases are written normalised"));
            }
            if names.contains(name) {
                return Err(format!("{name} names two rules"));
            }
            names.push(name);
        }
        if let Some(long) = r.flag.long() {
            if longs.contains(&long) {
                return Err(format!("--{long} is the flag of two rules"));
            }
            longs.push(long);
        }
        let value = (r.get)(rules);
        match with_changes(rules, &format!("{}={value}", r.key)) {
            Ok(same) if same == *rules => {}
            Ok(_) => {
                return Err(format!(
                    "{}={value} (its own value) changes the rules",
                    r.key
                ))
            }
            Err(e) => return Err(format!("{}={value} (its own value) is refused: {e}", r.key)),
        }
        if let Flag::Switch { sets, .. } = r.flag {
            let mut probe = rules.clone();
            if !(r.set)(&mut probe, sets) {
                return Err(format!(
                    "the switch of {} sets {sets}, which it refuses",
                    r.key
                ));
            }
        }
        for (spec, _) in (r.changes)(rules) {
            if let Err(e) = with_changes(rules, &spec) {
                return Err(format!("the change {spec} of {} is refused: {e}", r.key));
            }
        }
    }
    Ok(())
}
