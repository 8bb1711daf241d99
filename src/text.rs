//! Words as users type them: names (any case, accents optional), counts (`1e6`, `1_000_000`),
//! on/off switches, `key=value,…` lists, comma lists whose items may carry their own
//! parameters, and the one syntax every bot and policy is named with: `name` or
//! `name:key=value,…` (a lone value, `ismcts:100`, sets the first parameter).
//!
//! Everything here returns [`Error::Usage`] with a one-line message that names the bad value and
//! says what would be accepted.

use crate::error::{Error, Result};

/// A word in lower case without accents, trimmed: `Cuádras` → `cuadras`, `Perevódnoy` →
/// `perevodnoy`. Names in every game are compared in this form.
pub fn normalize(word: &str) -> String {
    word.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

/// Parses a count such as `1000000`, `1_000_000`, `1,000,000`, `1e6` or `2.5e6` (whole numbers
/// only: `2.5e0` is refused).
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
    let digits = format!("{int}{frac}");
    let shift = exp.checked_sub(frac.len() as u32)?;
    let base: u64 = digits.parse().ok()?;
    base.checked_mul(10u64.checked_pow(shift)?)
}

/// The largest sample count accepted (10^15: weeks of computing on this kind of machine).
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;

/// A count of `unit` (`games`, `hands`, …) from 1 to [`MAX_SAMPLES`], with the message clap
/// shows after "invalid value … for --games".
pub fn parse_samples(s: &str, unit: &str) -> std::result::Result<u64, String> {
    match parse_count(s) {
        Some(0) => Err(format!("give at least 1 {}", singular(unit))),
        Some(n) if n <= MAX_SAMPLES => Ok(n),
        Some(_) => Err(format!("at most {MAX_SAMPLES} (1e15) {unit}")),
        None => Err(format!(
            "expected a whole number of {unit} such as 10000, 1_000_000 or 1e6"
        )),
    }
}

/// `games` → `game`, `hands` → `hand` (for messages).
pub fn singular(unit: &str) -> &str {
    match unit {
        "dice" => "die",
        "matches" => "match",
        _ => unit.strip_suffix('s').unwrap_or(unit),
    }
}

/// `n` and the noun, singular when `n` is 1: "1 game", "3 games".
pub fn count_of(n: u64, plural: &str) -> String {
    if n == 1 {
        format!("1 {}", singular(plural))
    } else {
        format!("{} {plural}", crate::humanize::thousands(n))
    }
}

/// `on`/`off` (also yes/no, true/false, 1/0) for the switch `key`.
pub fn on_off(key: &str, value: &str) -> Result<bool> {
    match normalize(value).as_str() {
        "on" | "yes" | "true" | "1" | "si" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(Error::usage(format!(
            "invalid {key}={value}: use on or off"
        ))),
    }
}

/// Splits `key=value,key=value` into trimmed pairs (empty items are skipped). `what` names the
/// list in messages ("house rule", "rule change") and `hint` shows an example.
pub fn key_values<'a>(spec: &'a str, what: &str, hint: &str) -> Result<Vec<(&'a str, &'a str)>> {
    spec.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| {
                    Error::usage(format!(
                        "invalid {what} '{p}': expected KEY=VALUE pairs such as {hint}"
                    ))
                })
        })
        .collect()
}

/// Splits a comma list of specs, keeping a spec's own parameters with it: `threshold:t=0.3,
/// bluff=0.1,honest` → `threshold:t=0.3,bluff=0.1` and `honest` (an item with `=` and no `:`
/// belongs to the spec before it). Empty items are dropped.
pub fn split_specs(list: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for token in list.split(',') {
        let token = token.trim();
        match items.last_mut() {
            Some(last) if token.contains('=') && !token.contains(':') => {
                last.push(',');
                last.push_str(token);
            }
            _ => items.push(token.to_string()),
        }
    }
    items.retain(|s| !s.is_empty());
    items
}

/// A bot or policy as written: `name` or `name:key=value,…`, or `name:value` for the first
/// parameter. The name is compared normalised; values keep their case (file names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The text as given (trimmed), for messages.
    pub text: String,
    /// The name, normalised.
    pub name: String,
    /// What kind of thing this names, for messages: `strategy`, `policy`.
    pub what: &'static str,
    /// The parameters in order; a lone value has the key `""`.
    params: Vec<(String, String)>,
}

impl Spec {
    /// Parses `name`, `name:value` or `name:key=value,…`.
    pub fn parse(text: &str, what: &'static str) -> Result<Spec> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        let name = normalize(name);
        if name.is_empty() {
            return Err(Error::usage(format!("a {what} needs a name: got '{text}'")));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            let items: Vec<&str> = rest.split(',').map(str::trim).collect();
            if items.len() == 1 && !items[0].contains('=') {
                if items[0].is_empty() {
                    return Err(Error::usage(format!(
                        "{what} '{text}' has a ':' but no parameter after it"
                    )));
                }
                params.push((String::new(), items[0].to_string()));
            } else {
                for item in items.into_iter().filter(|i| !i.is_empty()) {
                    let (k, v) = item.split_once('=').ok_or_else(|| {
                        Error::usage(format!(
                            "invalid parameter '{item}' in {what} '{text}': expected key=value"
                        ))
                    })?;
                    params.push((normalize(k), v.trim().to_string()));
                }
            }
        }
        Ok(Spec {
            text: text.to_string(),
            name,
            what,
            params,
        })
    }

    /// The parameters, checked against the keys this spec's kind takes (in order: a lone value
    /// sets the first). With no keys, any parameter is refused.
    pub fn params(&self, keys: &[&'static str]) -> Result<Params<'_>> {
        let mut values = Vec::new();
        for (k, v) in &self.params {
            let key = if k.is_empty() {
                keys.first().copied()
            } else {
                keys.iter().copied().find(|x| x == k)
            };
            match key {
                Some(key) => values.push((key, v.as_str())),
                None if keys.is_empty() => {
                    return Err(Error::usage(format!(
                        "{} '{}' takes no parameters (got '{}')",
                        self.what, self.name, self.text
                    )))
                }
                None => {
                    return Err(Error::usage(format!(
                        "unknown parameter '{k}' in {} '{}': {} takes {}",
                        self.what,
                        self.text,
                        self.name,
                        crate::text::and_list(keys)
                    )))
                }
            }
        }
        Ok(Params { spec: self, values })
    }

    /// The error for a name this kind does not know: "unknown strategy 'x': strategies are …".
    pub fn unknown(&self, known: &str) -> Error {
        Error::usage(format!("unknown {} '{}': {known}", self.what, self.text))
    }
}

/// The checked parameters of a [`Spec`].
#[derive(Clone, Debug)]
pub struct Params<'a> {
    spec: &'a Spec,
    values: Vec<(&'static str, &'a str)>,
}

impl Params<'_> {
    /// The raw value of `key`, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|x| x.1)
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> Error {
        Error::usage(format!(
            "invalid value '{value}' for {key} in {} '{}': expected {expected}",
            self.spec.what, self.spec.text
        ))
    }

    /// A number in `lo..=hi` (or `default` when not given).
    pub fn number(&self, key: &str, lo: f64, hi: f64, default: f64) -> Result<f64> {
        match self.text(key) {
            None => Ok(default),
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| self.bad(key, v, &format!("a number from {lo} to {hi}"))),
        }
    }

    /// A whole number in `lo..=hi` written as a count (`1e4` works), or `default`.
    pub fn count(&self, key: &str, lo: u64, hi: u64, default: u64) -> Result<u64> {
        match self.text(key) {
            None => Ok(default),
            Some(v) => parse_count(v)
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| self.bad(key, v, &format!("a whole number from {lo} to {hi}"))),
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
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
        assert_eq!(
            parse_samples("0", "games").unwrap_err(),
            "give at least 1 game"
        );
        assert!(parse_samples("2e15", "hands")
            .unwrap_err()
            .contains("hands"));
        assert_eq!(count_of(1, "games"), "1 game");
        assert_eq!(count_of(2000, "dice"), "2,000 dice");
    }

    #[test]
    fn names_and_switches() {
        assert_eq!(normalize("  Perevódnoy "), "perevodnoy");
        assert_eq!(normalize("AÑO"), "ano");
        assert!(on_off("paso", "ON").unwrap());
        assert!(!on_off("paso", "no").unwrap());
        let e = on_off("paso", "maybe").unwrap_err().to_string();
        assert!(e.contains("paso=maybe") && e.contains("on or off"), "{e}");
    }

    #[test]
    fn key_value_lists() {
        let v = key_values(" a=1, b = on ,", "house rule", "a=1").unwrap();
        assert_eq!(v, [("a", "1"), ("b", "on")]);
        let e = key_values("a=1,b", "house rule", "a=1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'b'") && e.contains("house rule"), "{e}");
    }

    #[test]
    fn spec_lists_keep_their_parameters() {
        assert_eq!(
            split_specs("threshold:t=0.3,bluff=0.1,honest, random"),
            ["threshold:t=0.3,bluff=0.1", "honest", "random"]
        );
        assert_eq!(split_specs("ismcts:100,greedy"), ["ismcts:100", "greedy"]);
        assert!(split_specs(" , ").is_empty());
    }

    #[test]
    fn specs_in_one_syntax_with_one_error_style() {
        let s = Spec::parse("Threshold:t=0.3,bluff=0.1", "strategy").unwrap();
        assert_eq!(s.name, "threshold");
        let p = s.params(&["t", "bluff"]).unwrap();
        assert_eq!(p.number("t", 0.0, 1.0, 0.4).unwrap(), 0.3);
        assert_eq!(p.number("bluff", 0.0, 1.0, 0.0).unwrap(), 0.1);
        // A lone value sets the first parameter.
        let s = Spec::parse("ismcts:1e3", "strategy").unwrap();
        let p = s.params(&["budget"]).unwrap();
        assert_eq!(p.count("budget", 1, 1_000_000, 300).unwrap(), 1000);
        let s = Spec::parse("ismcts:budget=50", "strategy").unwrap();
        assert_eq!(s.params(&["budget"]).unwrap().count("budget", 1, 9, 3).unwrap_err().to_string(),
            "invalid value '50' for budget in strategy 'ismcts:budget=50': expected a whole number from 1 to 9");
        // Values keep their case (file names).
        let s = Spec::parse("sheet:/tmp/My.json", "policy").unwrap();
        assert_eq!(
            s.params(&["file"]).unwrap().text("file"),
            Some("/tmp/My.json")
        );
        let e = Spec::parse("random:x", "strategy")
            .unwrap()
            .params(&[])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "strategy 'random' takes no parameters (got 'random:x')");
        let e = Spec::parse("threshold:x=1", "strategy")
            .unwrap()
            .params(&["t", "bluff"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "unknown parameter 'x' in strategy 'threshold:x=1': threshold takes t and bluff"
        );
        assert!(Spec::parse("threshold:t", "strategy").is_ok());
        assert!(Spec::parse("threshold:t=1,x", "strategy").is_err());
        assert!(Spec::parse("mimic:", "policy").is_err());
        assert!(Spec::parse(":5", "policy").is_err());
        let e = Spec::parse("rando", "strategy")
            .unwrap()
            .unknown("strategies are random and greedy");
        assert_eq!(
            e.to_string(),
            "unknown strategy 'rando': strategies are random and greedy"
        );
    }
}
