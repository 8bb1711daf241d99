//! Bids (*mandadas*) as players say them: `15 cuadras`, `15x4`, `15 4`, `quince cuadras`.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::face::Face;
use super::rules::RuleSet;
use crate::error::{Error, Result};
use crate::text::normalize;

/// "At least `quantity` dice on the table show `face`."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bid {
    /// How many dice.
    pub quantity: u32,
    /// Which face.
    pub face: Face,
}

/// The largest quantity accepted in a bid (far above any real table).
pub const MAX_QUANTITY: u32 = 1_000_000;

impl Bid {
    /// A bid; the quantity must be at least 1.
    pub fn new(quantity: u32, face: Face) -> Result<Bid> {
        if quantity == 0 {
            return Err(Error::usage(
                "a bid's quantity must be at least 1 (e.g. 15 cuadras)",
            ));
        }
        Ok(Bid { quantity, face })
    }

    /// The bid as a report value: `shown` for people (its spoken form), `{quantity, face}`
    /// (face 1–6) for machines.
    pub fn value(&self, shown: String) -> crate::report::Value {
        use crate::report::Value;
        Value::Record(
            shown,
            vec![
                ("quantity".into(), Value::Int(self.quantity as i64)),
                ("face".into(), Value::Int(self.face.value() as i64)),
            ],
        )
    }

    /// The bid in words under a rule set: `15 cuadras`, `1 as`.
    pub fn spoken(&self, rules: RuleSet) -> String {
        format!(
            "{} {}",
            self.quantity,
            self.face.name(rules, self.quantity != 1)
        )
    }

    /// Parses a bid as players say it. Accepted: a quantity (digits or Spanish words such as
    /// `quince`, `treinta y dos`, `un`) then a face (digit or name), separated by spaces, `x`,
    /// `×` or `*`: `15 cuadras`, `15 cuadra`, `15x4`, `15 × 4`, `15 4`, `dos tontos`, `un as`.
    pub fn parse(text: &str) -> Result<Bid> {
        let t = normalize(text).replace(['×', '*'], " x ");
        let hint = "expected a quantity and a face, e.g. '15 cuadras', '15x4' or '15 4'";
        let mut tokens: Vec<String> = Vec::new();
        for raw in t.split_whitespace() {
            // "15x4" → "15", "4"
            match raw.split_once('x') {
                Some((a, b))
                    if !a.is_empty()
                        && a.chars().all(|c| c.is_ascii_digit())
                        && b.chars().all(|c| c.is_ascii_digit()) =>
                {
                    tokens.push(a.into());
                    if !b.is_empty() {
                        tokens.push(b.into());
                    }
                }
                _ => tokens.push(raw.into()),
            }
        }
        tokens.retain(|w| w != "x" && w != "de");
        if tokens.len() < 2 {
            return Err(Error::usage(format!("invalid bid '{text}': {hint}")));
        }
        let face_word = tokens.pop().expect("two tokens or more");
        let face = Face::parse(&face_word)
            .map_err(|e| Error::usage(format!("invalid bid '{text}': {e}")))?;
        let quantity = parse_quantity(&tokens).ok_or_else(|| {
            Error::usage(format!(
                "invalid bid '{text}': '{}' is not a quantity; {hint}",
                tokens.join(" ")
            ))
        })?;
        if quantity == 0 {
            return Err(Error::usage(format!(
                "invalid bid '{text}': the quantity must be at least 1"
            )));
        }
        if quantity > MAX_QUANTITY as u64 {
            return Err(Error::usage(format!(
                "invalid bid '{text}': quantity {quantity} is too large (at most {MAX_QUANTITY})"
            )));
        }
        Ok(Bid {
            quantity: quantity as u32,
            face,
        })
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.quantity, self.face)
    }
}

/// A quantity in digits (`15`, `1_000`) or Spanish words (`quince`, `treinta y dos`).
fn parse_quantity(tokens: &[String]) -> Option<u64> {
    if tokens.len() == 1 {
        let digits: String = tokens[0].chars().filter(|&c| c != '_').collect();
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            return Some(digits.parse::<u64>().unwrap_or(u64::MAX));
        }
    }
    spanish_number(tokens)
}

/// Spanish numerals 0–199 as players say quantities.
fn spanish_number(tokens: &[String]) -> Option<u64> {
    const UNITS: &[(&str, u64)] = &[
        ("cero", 0),
        ("un", 1),
        ("uno", 1),
        ("una", 1),
        ("dos", 2),
        ("tres", 3),
        ("cuatro", 4),
        ("cinco", 5),
        ("seis", 6),
        ("siete", 7),
        ("ocho", 8),
        ("nueve", 9),
        ("diez", 10),
        ("once", 11),
        ("doce", 12),
        ("trece", 13),
        ("catorce", 14),
        ("quince", 15),
        ("dieciseis", 16),
        ("diecisiete", 17),
        ("dieciocho", 18),
        ("diecinueve", 19),
        ("veinte", 20),
        ("veintiun", 21),
        ("veintiuno", 21),
        ("veintiuna", 21),
        ("veintidos", 22),
        ("veintitres", 23),
        ("veinticuatro", 24),
        ("veinticinco", 25),
        ("veintiseis", 26),
        ("veintisiete", 27),
        ("veintiocho", 28),
        ("veintinueve", 29),
    ];
    const TENS: &[(&str, u64)] = &[
        ("diez", 10),
        ("treinta", 30),
        ("cuarenta", 40),
        ("cincuenta", 50),
        ("sesenta", 60),
        ("setenta", 70),
        ("ochenta", 80),
        ("noventa", 90),
    ];
    let unit = |w: &str| UNITS.iter().find(|(n, _)| *n == w).map(|(_, v)| *v);
    let tens = |w: &str| TENS.iter().find(|(n, _)| *n == w).map(|(_, v)| *v);
    let words: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let (hundred, rest): (u64, &[&str]) = match words.as_slice() {
        ["cien"] => return Some(100),
        ["ciento", rest @ ..] if !rest.is_empty() => (100, rest),
        _ => (0, &words[..]),
    };
    let below_hundred = match rest {
        [w] => unit(w).or_else(|| tens(w))?,
        [t, "y", u] => {
            let u = unit(u).filter(|&u| (1..=9).contains(&u))?;
            tens(t)? + u
        }
        _ => return None,
    };
    Some(hundred + below_hundred)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(s: &str) -> (u32, u8) {
        let b = Bid::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        (b.quantity, b.face.value())
    }

    #[test]
    fn bids_as_players_say_them() {
        for s in [
            "15 cuadras",
            "15 cuadra",
            "15x4",
            "15 4",
            "15 X 4",
            "15×4",
            "15 × cuadras",
            "quince cuadras",
            "Quince Cuarterolas",
            "15 de cuadras",
            "15*4",
        ] {
            assert_eq!(parsed(s), (15, 4), "{s}");
        }
        assert_eq!(parsed("dos tontos"), (2, 2));
        assert_eq!(parsed("un as"), (1, 1));
        assert_eq!(parsed("treinta y dos senas"), (32, 6));
        assert_eq!(parsed("dieciséis trenes"), (16, 3));
        assert_eq!(parsed("veintidós millas"), (22, 2));
        assert_eq!(parsed("ciento uno sextos"), (101, 6));
        assert_eq!(parsed("cien ases"), (100, 1));
        assert_eq!(parsed("1_000 quinas"), (1000, 5));
    }

    #[test]
    fn bad_bids_say_what_is_wrong() {
        let msg = |s: &str| Bid::parse(s).unwrap_err().to_string();
        assert!(msg("0 cuadras").contains("at least 1"));
        assert!(msg("cero cuadras").contains("at least 1"));
        let m = msg("15 cuadrillas");
        assert!(m.contains("cuadrillas") && m.contains("cuadra"), "{m}");
        assert!(msg("15x7").contains("face '7'"));
        assert!(msg("cuadras").contains("expected a quantity"));
        assert!(msg("").contains("expected a quantity"));
        assert!(msg("mil cuadras").contains("'mil' is not a quantity"));
        assert!(msg("99999999999999999999999 cuadras").contains("too large"));
        assert!(msg("treinta y diez cuadras").contains("not a quantity"));
    }

    #[test]
    fn spoken_form_uses_the_rule_set_names() {
        let b = Bid::parse("15 2").unwrap();
        assert_eq!(b.spoken(RuleSet::Chimbo9), "15 tontos");
        assert_eq!(b.spoken(RuleSet::Caleuchano), "15 millas");
        assert_eq!(Bid::parse("1 as").unwrap().spoken(RuleSet::Chimbo9), "1 as");
        assert_eq!(b.to_string(), "15x2");
    }
}
