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

/// A whole number from `lo` to `hi` in any form [`parse_count`] takes (`30`, `1_000`, `3e1`),
/// for clap's "invalid value 'X' for '--flag'": the error says what is accepted in `accepted`
/// ("the table holds 1 to 10000 dice") and why the value is not (negative, a fraction, out of
/// range).
pub fn parse_whole(s: &str, lo: u64, hi: u64, accepted: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    match parse_count(t) {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        Some(n) => Err(format!("{n} is out of range: {accepted}")),
        None if t.is_empty() => Err(format!("empty: {accepted}")),
        None => match t.replace('_', "").parse::<f64>() {
            Ok(x) if x < 0.0 => Err(format!("negative: {accepted}")),
            Ok(x) if x.is_finite() && x.fract() == 0.0 => Err(format!("out of range: {accepted}")),
            _ => Err(format!(
                "not a whole number: {accepted} (written like 30, 1_000 or 1e3)"
            )),
        },
    }
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
        None if s.trim().starts_with('-') => Err(format!(
            "negative: give at least 1 {} (e.g. 10000, 1_000_000 or 1e6)",
            singular(unit)
        )),
        // A whole number too large for any count (1e30): say the limit, as for 1e18.
        None if s
            .trim()
            .replace('_', "")
            .parse::<f64>()
            .is_ok_and(|x| x.is_finite() && x.fract() == 0.0 && x > 0.0) =>
        {
            Err(format!("at most {MAX_SAMPLES} (1e15) {unit}"))
        }
        None => Err(format!(
            "expected a whole number of {unit} such as 10000, 1_000_000 or 1e6"
        )),
    }
}

pub use crate::humanize::{count_of, singular};

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

/// Splits a comma list into its trimmed items, refusing an empty one (`1,,4`, `1,4,`, `,`):
/// a doubled or stray comma is a typing slip, never "nothing". `what` names the list in the
/// message (`--hand`, `house rule list`), which quotes the whole list. An empty or blank list
/// gives no items.
pub fn list_items<'a>(list: &'a str, what: &str) -> Result<Vec<&'a str>> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    let items: Vec<&str> = list.split(',').map(str::trim).collect();
    if let Some(i) = items.iter().position(|item| item.is_empty()) {
        let place = if i == 0 {
            "before the first comma"
        } else if i + 1 == items.len() {
            "after the last comma"
        } else {
            "between two commas"
        };
        return Err(Error::usage(format!(
            "{what} '{}' has an empty item {place}: give items separated by single commas",
            list.trim()
        )));
    }
    Ok(items)
}

/// Splits `key=value,key=value` into trimmed pairs. Refused, with the whole list named: an empty
/// item, an item without `=`, an empty key or value, and a key given twice (compared
/// normalised: `Lives=3,lives=5`). `what` names the list in messages ("house rule", "rule
/// change") and `hint` shows an example.
pub fn key_values<'a>(spec: &'a str, what: &str, hint: &str) -> Result<Vec<(&'a str, &'a str)>> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for item in list_items(spec, &format!("{what} list"))? {
        let bad = |why: &str| {
            Error::usage(format!(
                "invalid {what} '{item}' in '{}': {why}; give KEY=VALUE pairs such as {hint}",
                spec.trim()
            ))
        };
        let (k, v) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| bad("no '='"))?;
        if k.is_empty() {
            return Err(bad("no key before '='"));
        }
        if v.is_empty() {
            return Err(bad("no value after '='"));
        }
        if pairs
            .iter()
            .any(|(seen, _)| normalize(seen) == normalize(k))
        {
            return Err(Error::usage(format!(
                "{what} '{k}' is given twice in '{}': give each key once",
                spec.trim()
            )));
        }
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// Splits a comma list of specs, keeping a spec's own parameters with it: `threshold:t=0.3,
/// bluff=0.1,honest` → `threshold:t=0.3,bluff=0.1` and `honest` (an item with `=` and no `:`
/// belongs to the spec before it). An empty item is refused (see [`list_items`]); `what` names
/// the list (`--strategies`).
pub fn split_specs(list: &str, what: &str) -> Result<Vec<String>> {
    let mut items: Vec<String> = Vec::new();
    for token in list_items(list, what)? {
        match items.last_mut() {
            Some(last) if token.contains('=') && !token.contains(':') => {
                last.push(',');
                last.push_str(token);
            }
            _ => items.push(token.to_string()),
        }
    }
    Ok(items)
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
                for item in items {
                    let bad = |why: &str| {
                        Error::usage(format!(
                            "invalid parameter '{item}' in {what} '{text}': {why}; expected key=value"
                        ))
                    };
                    if item.is_empty() {
                        return Err(Error::usage(format!(
                            "{what} '{text}' has an empty parameter (a stray comma): give key=value pairs separated by single commas"
                        )));
                    }
                    let (k, v) = item.split_once('=').ok_or_else(|| bad("no '='"))?;
                    let (k, v) = (normalize(k), v.trim());
                    if k.is_empty() {
                        return Err(bad("no key before '='"));
                    }
                    if v.is_empty() {
                        return Err(bad("no value after '='"));
                    }
                    if params.iter().any(|(seen, _)| *seen == k) {
                        return Err(Error::usage(format!(
                            "parameter '{k}' is given twice in {what} '{text}': give it once"
                        )));
                    }
                    params.push((k, v.to_string()));
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
        let v = key_values(" a=1, b = on ", "house rule", "a=1").unwrap();
        assert_eq!(v, [("a", "1"), ("b", "on")]);
        assert!(key_values("  ", "house rule", "a=1").unwrap().is_empty());
        let e = |spec: &str| {
            key_values(spec, "house rule", "a=1")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("a=1,b"),
            "invalid house rule 'b' in 'a=1,b': no '='; give KEY=VALUE pairs such as a=1"
        );
        assert_eq!(
            e("a=1,,b=2"),
            "house rule list 'a=1,,b=2' has an empty item between two commas: give items separated by single commas"
        );
        assert!(e("a=1,").contains("after the last comma"));
        assert!(e(",a=1").contains("before the first comma"));
        assert!(e("a=").contains("no value after '='"));
        assert!(e("=1").contains("no key before '='"));
        assert_eq!(
            e("lives=3,Lives=5"),
            "house rule 'Lives' is given twice in 'lives=3,Lives=5': give each key once"
        );
    }

    #[test]
    fn whole_numbers_in_every_form_with_the_reason_when_refused() {
        let p = |s: &str| parse_whole(s, 1, 100, "give 1 to 100 dice");
        assert_eq!(p("30"), Ok(30));
        assert_eq!(p("3e1"), Ok(30));
        assert_eq!(p("1_0"), Ok(10));
        assert_eq!(p(" 7 "), Ok(7));
        assert_eq!(p("0"), Err("0 is out of range: give 1 to 100 dice".into()));
        assert_eq!(
            p("101"),
            Err("101 is out of range: give 1 to 100 dice".into())
        );
        assert_eq!(p("1e30"), Err("out of range: give 1 to 100 dice".into()));
        assert_eq!(p("-1"), Err("negative: give 1 to 100 dice".into()));
        assert_eq!(p("-0.5"), Err("negative: give 1 to 100 dice".into()));
        assert_eq!(p(""), Err("empty: give 1 to 100 dice".into()));
        for bad in ["2.5", "abc", "3e", "e3", "1,5.5"] {
            assert!(
                p(bad).unwrap_err().starts_with("not a whole number"),
                "{bad}"
            );
        }
        assert_eq!(
            parse_samples("-5", "games").unwrap_err(),
            "negative: give at least 1 game (e.g. 10000, 1_000_000 or 1e6)"
        );
    }

    #[test]
    fn lists_refuse_empty_items() {
        assert_eq!(list_items(" a , b ", "--hand").unwrap(), ["a", "b"]);
        assert!(list_items("", "--hand").unwrap().is_empty());
        for (bad, place) in [
            ("a,,b", "between two commas"),
            (",a", "before the first comma"),
            ("a,", "after the last comma"),
            (",", "before the first comma"),
        ] {
            let e = list_items(bad, "--hand").unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")) && e.contains(place), "{e}");
        }
    }

    #[test]
    fn spec_lists_keep_their_parameters() {
        let s = |l: &str| split_specs(l, "--strategies");
        assert_eq!(
            s("threshold:t=0.3,bluff=0.1,honest, random").unwrap(),
            ["threshold:t=0.3,bluff=0.1", "honest", "random"]
        );
        assert_eq!(s("ismcts:100,greedy").unwrap(), ["ismcts:100", "greedy"]);
        assert!(s("").unwrap().is_empty());
        assert!(s(" , ").is_err());
        let e = s("threshold,,random").unwrap_err().to_string();
        assert!(e.contains("'threshold,,random'"), "{e}");
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
        let e = |s: &str| Spec::parse(s, "strategy").unwrap_err().to_string();
        assert_eq!(
            e("threshold:t=1,t=2"),
            "parameter 't' is given twice in strategy 'threshold:t=1,t=2': give it once"
        );
        assert!(e("threshold:t=1,,bluff=0").contains("empty parameter"));
        assert!(e("threshold:t=").contains("no value after '='"));
        assert!(e("threshold:=3,t=1").contains("no key before '='"));
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
