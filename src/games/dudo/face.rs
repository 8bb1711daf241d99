//! Die faces and the names players give them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::rules::RuleSet;
use crate::error::{Error, Result};
use crate::text::normalize;

/// A die face, 1 (*as*) to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Face(u8);

impl Face {
    /// The ace (*as*), wild for other faces.
    pub const ACE: Face = Face(1);
    /// The two (*tonto*, *diuca*, *milla*).
    pub const TWO: Face = Face(2);
    /// Every face in order 1..=6.
    pub const ALL: [Face; 6] = [Face(1), Face(2), Face(3), Face(4), Face(5), Face(6)];

    /// The face with value `v` (1..=6).
    pub fn new(v: u8) -> Result<Face> {
        if (1..=6).contains(&v) {
            Ok(Face(v))
        } else {
            Err(Error::usage(format!(
                "face {v} is not a die face: faces are 1 to 6"
            )))
        }
    }

    /// The face value, 1..=6.
    pub fn value(self) -> u8 {
        self.0
    }

    /// Index 0..=5 (aces first).
    pub fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// Whether this is the ace.
    pub fn is_ace(self) -> bool {
        self.0 == 1
    }

    /// The name players of `rules` use, singular or plural.
    pub fn name(self, rules: RuleSet, plural: bool) -> &'static str {
        let (s, p) = match (self.0, rules) {
            (1, _) => ("as", "ases"),
            (2, RuleSet::Chimbo9) => ("tonto", "tontos"),
            (2, RuleSet::Caleuchano) => ("milla", "millas"),
            (3, _) => ("tren", "trenes"),
            (4, _) => ("cuadra", "cuadras"),
            (5, _) => ("quina", "quinas"),
            (6, RuleSet::Chimbo9) => ("cena", "cenas"),
            (6, RuleSet::Caleuchano) => ("sena", "senas"),
            _ => unreachable!("faces are 1..=6"),
        };
        if plural {
            p
        } else {
            s
        }
    }

    /// Parses a face as players say it: a digit 1–6, any Spanish name from the rules (singular
    /// or plural, any case, accents optional) or an English name.
    pub fn parse(word: &str) -> Result<Face> {
        let w = normalize(word);
        if let Ok(v) = w.parse::<i64>() {
            // The message quotes the face as typed ("00", "+7"), not the number it reads as.
            return match u8::try_from(v) {
                Ok(v @ 1..=6) => Ok(Face(v)),
                _ => Err(Error::usage(format!(
                    "face '{}' is not a die face: faces are 1 to 6",
                    word.trim()
                ))),
            };
        }
        for (value, names) in FACE_NAMES {
            if names.contains(&w.as_str()) {
                return Ok(Face(*value));
            }
        }
        Err(Error::usage(format!(
            "unknown face '{word}': use 1–6 or a face name ({})",
            NAME_HINT
        )))
    }
}

impl TryFrom<u8> for Face {
    type Error = Error;
    fn try_from(v: u8) -> Result<Face> {
        Face::new(v)
    }
}

impl From<Face> for u8 {
    fn from(f: Face) -> u8 {
        f.0
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const NAME_HINT: &str =
    "as, tonto/diuca/milla, tren/trifila, cuadra/cuarterola, quina/canilla, cena/sena/sexto";

/// Every accepted name per face (already normalized: lower case, no accents).
const FACE_NAMES: &[(u8, &[&str])] = &[
    (
        1,
        &["as", "ases", "ace", "aces", "one", "ones", "uno", "unos"],
    ),
    (
        2,
        &[
            "tonto", "tontos", "diuca", "diucas", "milla", "millas", "two", "twos", "deuce",
            "deuces",
        ],
    ),
    (
        3,
        &[
            "tren", "trenes", "trifila", "trifilas", "three", "threes", "trey", "treys",
        ],
    ),
    (
        4,
        &[
            "cuadra",
            "cuadras",
            "cuarterola",
            "cuarterolas",
            "four",
            "fours",
        ],
    ),
    (
        5,
        &["quina", "quinas", "canilla", "canillas", "five", "fives"],
    ),
    (
        6,
        &[
            "cena", "cenas", "sena", "senas", "sexto", "sextos", "six", "sixes",
        ],
    ),
];

/// Parses a list of dice such as `1,4,4,2,6` (commas, spaces or nothing between: `14426`).
/// An empty item (`1,,4`, `,,`) is refused; a blank list is no dice. `what` names the option
/// for messages.
pub fn parse_dice(list: &str, what: &str) -> Result<Vec<Face>> {
    let mut out = Vec::new();
    let cleaned = list.trim();
    let tokens: Vec<&str> = if cleaned.contains(',') {
        crate::text::list_items(cleaned, what)?
            .into_iter()
            .flat_map(str::split_whitespace)
            .collect()
    } else if cleaned.contains(char::is_whitespace) {
        cleaned.split_whitespace().collect()
    } else if cleaned.is_empty() {
        Vec::new()
    } else if cleaned.chars().all(|c| c.is_ascii_digit()) {
        // "14426": one digit per die
        cleaned
            .char_indices()
            .map(|(i, c)| &cleaned[i..i + c.len_utf8()])
            .collect()
    } else {
        vec![cleaned]
    };
    for t in tokens {
        let face = Face::parse(t).map_err(|_| {
            Error::usage(format!(
                "invalid {what} '{list}': '{t}' is not a die; give faces 1–6 separated by commas, e.g. 1,4,4,2,6"
            ))
        })?;
        out.push(face);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_in_the_rules_is_understood() {
        let cases = [
            ("as", 1),
            ("Ases", 1),
            ("tonto", 2),
            ("TONTOS", 2),
            ("diuca", 2),
            ("millas", 2),
            ("tren", 3),
            ("trenes", 3),
            ("trifila", 3),
            ("cuadra", 4),
            ("cuadras", 4),
            ("cuarterola", 4),
            ("quina", 5),
            ("canillas", 5),
            ("cena", 6),
            ("sena", 6),
            ("Seña", 6),
            ("sexto", 6),
            ("SEXTOS", 6),
            ("  4 ", 4),
            ("trénes", 3),
        ];
        for (name, v) in cases {
            assert_eq!(Face::parse(name).unwrap().value(), v, "{name}");
        }
    }

    #[test]
    fn bad_faces_are_named_in_the_message() {
        let e = Face::parse("7").unwrap_err().to_string();
        assert!(e.contains('7') && e.contains("1 to 6"), "{e}");
        let e = Face::parse("cuadrass").unwrap_err().to_string();
        assert!(e.contains("cuadrass") && e.contains("cuadra"), "{e}");
        assert!(Face::parse("0").is_err());
        assert!(Face::parse("-1").is_err());
        assert!(Face::parse("99999999999999999999").is_err());
    }

    #[test]
    fn dice_lists() {
        let v: Vec<u8> = parse_dice("1,4,4,2,6", "--hand")
            .unwrap()
            .iter()
            .map(|f| f.value())
            .collect();
        assert_eq!(v, [1, 4, 4, 2, 6]);
        let v: Vec<u8> = parse_dice("14426", "--hand")
            .unwrap()
            .iter()
            .map(|f| f.value())
            .collect();
        assert_eq!(v, [1, 4, 4, 2, 6]);
        let v: Vec<u8> = parse_dice("as, cuadra cuadra", "--hand")
            .unwrap()
            .iter()
            .map(|f| f.value())
            .collect();
        assert_eq!(v, [1, 4, 4]);
        let e = parse_dice("1,7,2", "--hand").unwrap_err().to_string();
        assert!(e.contains("--hand") && e.contains("'7'"), "{e}");
        assert!(parse_dice("", "--hand").unwrap().is_empty());
    }
}
