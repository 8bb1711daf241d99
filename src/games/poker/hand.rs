//! Poker dice, hands and claims (`docs/rules.md` §4).
//!
//! Six faces, A > K > Q > J > 8 (roja) > 7 (negra). A hand is the multiset of five faces; its
//! [`HandValue`] orders every hand: first the type (repóker, póker, full, trío, doble pareja,
//! pareja, and five different faces, "nada", the lowest: docs/rules.md's decision), then the faces
//! that form it, then the kickers. No two different hands are equal, so the 252 hands form one
//! strict ladder, and a claim names one rung of it: the kickers a player leaves unsaid are the
//! lowest possible (`trío de reyes` = K K K 8 7).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::text::normalize;

/// Dice in a hand.
pub const DICE: usize = 5;
/// Faces of a poker die.
pub const FACES: usize = 6;
/// Distinct hands of five poker dice: multisets of 5 out of 6 faces, C(10, 5).
pub const HANDS: usize = 252;

/// A face of a poker die, from the lowest (negra, 7) to the highest (as).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Face(u8);

impl Face {
    /// Negra: the 7, the lowest face.
    pub const SEVEN: Face = Face(0);
    /// Roja: the 8.
    pub const EIGHT: Face = Face(1);
    /// Jota.
    pub const JACK: Face = Face(2);
    /// Reina (dama).
    pub const QUEEN: Face = Face(3);
    /// Rey.
    pub const KING: Face = Face(4);
    /// As, the highest face.
    pub const ACE: Face = Face(5);
    /// Every face from the lowest.
    pub const ALL: [Face; FACES] = [
        Face::SEVEN,
        Face::EIGHT,
        Face::JACK,
        Face::QUEEN,
        Face::KING,
        Face::ACE,
    ];

    /// The face of index 0 (7) to 5 (A).
    pub fn from_index(i: usize) -> Option<Face> {
        (i < FACES).then_some(Face(i as u8))
    }

    /// 0 for the 7 up to 5 for the ace.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// One letter: 7 8 J Q K A.
    pub fn symbol(self) -> char {
        ['7', '8', 'J', 'Q', 'K', 'A'][self.index()]
    }

    /// The Spanish name, singular: negra, roja, jota, reina, rey, as.
    pub fn name(self) -> &'static str {
        ["negra", "roja", "jota", "reina", "rey", "as"][self.index()]
    }

    /// The Spanish name, plural: negras, rojas, jotas, reinas, reyes, ases.
    pub fn plural(self) -> &'static str {
        ["negras", "rojas", "jotas", "reinas", "reyes", "ases"][self.index()]
    }

    /// A face as players name it, in Spanish or English, singular or plural, any case, accents
    /// optional: `as`, `ases`, `A`, `ace`; `rey`, `K`, `king`; `reina`, `dama`, `Q`, `queen`;
    /// `jota`, `J`, `jack`; `roja`, `ocho`, `8`, `red`; `negra`, `siete`, `7`, `black`.
    pub fn parse(word: &str) -> Result<Face> {
        let w = normalize(word);
        let face = match w.as_str() {
            "a" | "as" | "ases" | "ace" | "aces" | "1" => Face::ACE,
            "k" | "rey" | "reyes" | "king" | "kings" => Face::KING,
            "q" | "reina" | "reinas" | "dama" | "damas" | "queen" | "queens" => Face::QUEEN,
            "j" | "jota" | "jotas" | "jack" | "jacks" | "sota" | "sotas" => Face::JACK,
            "8" | "r" | "roja" | "rojas" | "ocho" | "ochos" | "red" | "reds" | "eight"
            | "eights" => Face::EIGHT,
            "7" | "n" | "negra" | "negras" | "siete" | "sietes" | "black" | "blacks" | "seven"
            | "sevens" => Face::SEVEN,
            _ => {
                return Err(Error::usage(format!(
                    "'{word}' is not a poker die face: faces are as (A), rey (K), reina or dama (Q), jota (J), roja (8) and negra (7)"
                )))
            }
        };
        Ok(face)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl From<Face> for String {
    fn from(f: Face) -> String {
        f.symbol().to_string()
    }
}

impl TryFrom<String> for Face {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Face, String> {
        Face::parse(&s).map_err(|e| e.to_string())
    }
}

/// Dice as a count per face (index 0 = the 7). Used for hands (5 dice) and for parts of them
/// (kept dice, dice in the open).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Counts(pub [u8; FACES]);

impl Counts {
    /// No dice.
    pub const EMPTY: Counts = Counts([0; FACES]);

    /// The counts of these faces.
    pub fn of(faces: &[Face]) -> Counts {
        let mut c = [0u8; FACES];
        for f in faces {
            c[f.index()] += 1;
        }
        Counts(c)
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| c as usize).sum()
    }

    /// Whether there are no dice.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Dice of `face`.
    pub fn count(&self, face: Face) -> u8 {
        self.0[face.index()]
    }

    /// These dice and `face`.
    pub fn with(mut self, face: Face) -> Counts {
        self.0[face.index()] += 1;
        self
    }

    /// These dice less one `face` (which must be there).
    pub fn without(mut self, face: Face) -> Counts {
        debug_assert!(self.0[face.index()] > 0);
        self.0[face.index()] -= 1;
        self
    }

    /// Both sets of dice together.
    pub fn plus(mut self, other: Counts) -> Counts {
        for i in 0..FACES {
            self.0[i] += other.0[i];
        }
        self
    }

    /// Whether `other` is part of these dice.
    pub fn contains(&self, other: &Counts) -> bool {
        (0..FACES).all(|i| other.0[i] <= self.0[i])
    }

    /// The faces, highest first (`AAKQ7`).
    pub fn faces_desc(&self) -> Vec<Face> {
        let mut v = Vec::with_capacity(self.len());
        for f in Face::ALL.iter().rev() {
            for _ in 0..self.count(*f) {
                v.push(*f);
            }
        }
        v
    }

    /// Every multiset of `n` dice, in a fixed order.
    pub fn all_of_size(n: usize) -> Vec<Counts> {
        fn go(face: usize, left: u8, cur: &mut [u8; FACES], out: &mut Vec<Counts>) {
            if face == FACES - 1 {
                cur[face] = left;
                out.push(Counts(*cur));
                return;
            }
            for k in 0..=left {
                cur[face] = k;
                go(face + 1, left - k, cur, out);
            }
        }
        let mut out = Vec::new();
        go(0, n as u8, &mut [0; FACES], &mut out);
        out
    }

    /// Parses dice written as faces: `AAKQJ`, `A,A,K,Q,J`, `as as rey reina jota`.
    pub fn parse(text: &str, what: &str) -> Result<Counts> {
        let t = text.trim();
        let items: Vec<&str> = if t.contains([',', ' ']) {
            t.split([',', ' ']).filter(|s| !s.is_empty()).collect()
        } else {
            // Compact: one letter per die.
            t.char_indices()
                .map(|(i, c)| &t[i..i + c.len_utf8()])
                .collect()
        };
        if items.is_empty() {
            return Err(Error::usage(format!(
                "{what} '{text}' names no dice: write faces like AAKQJ or as,as,rey,reina,jota"
            )));
        }
        let mut faces = Vec::with_capacity(items.len());
        for item in items {
            faces.push(
                Face::parse(item).map_err(|e| Error::usage(format!("{what} '{text}': {e}")))?,
            );
        }
        if faces.len() > DICE {
            return Err(Error::usage(format!(
                "{what} '{text}' has {} dice: a hand has at most {DICE}",
                faces.len()
            )));
        }
        Ok(Counts::of(&faces))
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for face in self.faces_desc() {
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

/// The type of a hand, from the lowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandType {
    /// Five different faces ("nada"): below a pair (docs/rules.md's decision).
    Nothing,
    /// One pair.
    Pair,
    /// Two pairs.
    TwoPair,
    /// Three of a kind.
    Trio,
    /// Three of a kind and a pair.
    Full,
    /// Four of a kind.
    Poker,
    /// Five of a kind.
    Repoker,
}

impl HandType {
    /// Every type from the lowest.
    pub const ALL: [HandType; 7] = [
        HandType::Nothing,
        HandType::Pair,
        HandType::TwoPair,
        HandType::Trio,
        HandType::Full,
        HandType::Poker,
        HandType::Repoker,
    ];

    /// The Spanish name: nada, pareja, doble pareja, trío, full, póker, repóker.
    pub fn name(self) -> &'static str {
        match self {
            HandType::Nothing => "nada",
            HandType::Pair => "pareja",
            HandType::TwoPair => "doble pareja",
            HandType::Trio => "trío",
            HandType::Full => "full",
            HandType::Poker => "póker",
            HandType::Repoker => "repóker",
        }
    }

    /// The English name.
    pub fn english(self) -> &'static str {
        match self {
            HandType::Nothing => "five different",
            HandType::Pair => "one pair",
            HandType::TwoPair => "two pairs",
            HandType::Trio => "three of a kind",
            HandType::Full => "full house",
            HandType::Poker => "four of a kind",
            HandType::Repoker => "five of a kind",
        }
    }

    /// An identifier for machine formats: `nothing`, `pair`, `two-pair`, …
    pub fn key(self) -> &'static str {
        match self {
            HandType::Nothing => "nothing",
            HandType::Pair => "pair",
            HandType::TwoPair => "two-pair",
            HandType::Trio => "trio",
            HandType::Full => "full",
            HandType::Poker => "poker",
            HandType::Repoker => "repoker",
        }
    }

    /// The type of a hand with these counts (five dice).
    pub fn of(c: &Counts) -> HandType {
        let mut by_size = [0u8; DICE + 1];
        for &n in &c.0 {
            by_size[n as usize] += 1;
        }
        match () {
            _ if by_size[5] == 1 => HandType::Repoker,
            _ if by_size[4] == 1 => HandType::Poker,
            _ if by_size[3] == 1 && by_size[2] == 1 => HandType::Full,
            _ if by_size[3] == 1 => HandType::Trio,
            _ if by_size[2] == 2 => HandType::TwoPair,
            _ if by_size[2] == 1 => HandType::Pair,
            _ => HandType::Nothing,
        }
    }
}

/// Where a hand stands on the ladder: larger is better; two hands have the same value only if
/// they are the same multiset. Packs the type, then the faces by group size and face, highest
/// first (the trío's face before the pair's in a full; the higher pair first in a doble pareja).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HandValue(u32);

impl HandValue {
    /// The value of five dice.
    pub fn of(c: &Counts) -> HandValue {
        debug_assert_eq!(c.len(), DICE);
        let kind = HandType::of(c) as u32;
        // Groups ordered by size, then face, both descending; each group's face once.
        let mut groups: [(u8, u8); FACES] = [(0, 0); FACES];
        for (i, g) in groups.iter_mut().enumerate() {
            *g = (c.0[i], i as u8);
        }
        groups.sort_unstable_by(|a, b| b.cmp(a));
        let mut v = kind;
        for &(n, face) in groups.iter().take(DICE) {
            v = v * 8 + if n > 0 { face as u32 + 1 } else { 0 };
        }
        HandValue(v)
    }

    /// The type of the hand.
    pub fn hand_type(self) -> HandType {
        HandType::ALL[(self.0 / 8u32.pow(DICE as u32)) as usize]
    }

    /// The raw value (for tables).
    pub fn raw(self) -> u32 {
        self.0
    }
}

/// Every hand from the lowest (K Q J 8 7, the worst "nada", … to repóker de ases), with its
/// value: the ladder of claims. 252 rungs.
pub fn ladder() -> &'static [(Counts, HandValue)] {
    static LADDER: std::sync::OnceLock<Vec<(Counts, HandValue)>> = std::sync::OnceLock::new();
    LADDER.get_or_init(|| {
        let mut v: Vec<(Counts, HandValue)> = Counts::all_of_size(DICE)
            .into_iter()
            .map(|c| (c, HandValue::of(&c)))
            .collect();
        v.sort_by_key(|&(_, value)| value);
        v
    })
}

/// A claimed hand: one rung of the ladder. A claim is true when the dice make at least it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Claim {
    value: HandValue,
    dice: Counts,
}

impl Claim {
    /// The claim of exactly these five dice.
    pub fn of(dice: Counts) -> Claim {
        Claim {
            value: HandValue::of(&dice),
            dice,
        }
    }

    /// The dice the claim names.
    pub fn dice(&self) -> Counts {
        self.dice
    }

    /// Its place on the ladder.
    pub fn value(&self) -> HandValue {
        self.value
    }

    /// Its type.
    pub fn hand_type(&self) -> HandType {
        self.value.hand_type()
    }

    /// Its rung on the ladder: 0 for the lowest hand up to 251 for repóker de ases.
    pub fn rung(&self) -> usize {
        ladder()
            .binary_search_by_key(&self.value, |&(_, v)| v)
            .expect("every hand is on the ladder")
    }

    /// The claim one rung higher, if any (repóker de ases is the top).
    pub fn next(&self) -> Option<Claim> {
        ladder().get(self.rung() + 1).map(|&(c, _)| Claim::of(c))
    }

    /// The highest claim: repóker de ases.
    pub fn top() -> Claim {
        Claim::of(ladder()[HANDS - 1].0)
    }

    /// Whether five dice make this claim true: they are at least the claimed hand.
    pub fn is_met_by(&self, hand: &Counts) -> bool {
        HandValue::of(hand) >= self.value
    }

    /// The lowest hand of `kind` formed by `faces` (as many faces as the type names: the trío's
    /// face, both pairs of a doble pareja, …), the kickers the lowest possible.
    pub fn lowest(kind: HandType, faces: &[Face]) -> Result<Claim> {
        let named = |n: usize| -> Result<()> {
            if faces.len() == n {
                Ok(())
            } else {
                Err(Error::usage(format!(
                    "{} names {n} face{}, got {}",
                    kind.name(),
                    if n == 1 { "" } else { "s" },
                    faces.len()
                )))
            }
        };
        let mut dice = Counts::EMPTY;
        match kind {
            HandType::Repoker | HandType::Poker | HandType::Trio | HandType::Pair => {
                named(1)?;
                let n = match kind {
                    HandType::Repoker => 5,
                    HandType::Poker => 4,
                    HandType::Trio => 3,
                    _ => 2,
                };
                dice.0[faces[0].index()] = n;
            }
            HandType::Full | HandType::TwoPair => {
                named(2)?;
                if faces[0] == faces[1] {
                    return Err(Error::usage(format!(
                        "{} de {} y {} names one face twice: give two different faces",
                        kind.name(),
                        faces[0].plural(),
                        faces[1].plural()
                    )));
                }
                let (a, b) = if kind == HandType::TwoPair && faces[1] > faces[0] {
                    (faces[1], faces[0])
                } else {
                    (faces[0], faces[1])
                };
                dice.0[a.index()] = if kind == HandType::Full { 3 } else { 2 };
                dice.0[b.index()] = 2;
            }
            HandType::Nothing => {
                named(5)?;
                for f in faces {
                    dice.0[f.index()] += 1;
                }
                if dice.0.iter().any(|&n| n > 1) {
                    return Err(Error::usage(
                        "nada is five different faces: a face appears twice",
                    ));
                }
            }
        }
        // The lowest kickers that keep the type: distinct faces not yet used, from the 7 up.
        for f in Face::ALL {
            if dice.len() == DICE {
                break;
            }
            if dice.count(f) == 0 {
                dice.0[f.index()] = 1;
            }
        }
        debug_assert_eq!(HandType::of(&dice), kind);
        Ok(Claim::of(dice))
    }

    /// Parses a claim as players say it: `trío de reyes`, `full de ases y jotas`, `full de
    /// ases` (the lowest pair), `doble pareja de reinas y ochos`, `póker de negras`, `repóker de
    /// ases`, `pareja de jotas`, `nada` with five faces; English (`three kings`, `full house aces
    /// over jacks`, `two pairs queens and eights`); or dice: `AAKKQ` (exactly that hand) or fewer
    /// (`KKK`, `AAKK`: the lowest hand with those dice formed as written).
    pub fn parse(text: &str) -> Result<Claim> {
        let accepted = "claims look like 'trío de reyes', 'full de ases y jotas', 'doble pareja de reinas y ochos', 'póker de negras', 'repóker de ases', 'pareja de jotas', or dice like AAKKQ or KKK";
        let bad = |why: &str| Error::usage(format!("invalid claim '{text}': {why}; {accepted}"));
        let t = normalize(text);
        if t.is_empty() {
            return Err(bad("it is empty"));
        }
        // Dice: one symbol per die, no spaces (`AAKKQ`, `KKK`); six or more read as dice too,
        // so that the message says a hand has five.
        let symbols = !t.contains(char::is_whitespace)
            && t.chars()
                .all(|c| Face::parse(c.encode_utf8(&mut [0; 4])).is_ok());
        if symbols {
            let n = t.chars().count();
            if n > DICE {
                return Err(bad(&format!("it names {n} dice, and a hand has {DICE}")));
            }
            let dice = Counts::parse(&t, "claim").map_err(|e| bad(&e.to_string()))?;
            return Claim::from_partial(dice).map_err(|e| bad(&e.to_string()));
        }
        let words: Vec<&str> = t
            .split(|c: char| c.is_whitespace() || c == ',' || c == ':')
            .filter(|w| !w.is_empty())
            .collect();
        // `un trío de reyes`, `a pair of jacks`.
        let words = match words.first() {
            Some(&("un" | "una" | "a")) if words.len() > 1 => &words[1..],
            _ => &words[..],
        };
        // The type: its words first.
        let types: [(&[&str], HandType); 12] = [
            (&["repoker"], HandType::Repoker),
            (&["five", "of", "a", "kind"], HandType::Repoker),
            (&["poker"], HandType::Poker),
            (&["four", "of", "a", "kind"], HandType::Poker),
            (&["full", "house"], HandType::Full),
            (&["full"], HandType::Full),
            (&["trio"], HandType::Trio),
            (&["three", "of", "a", "kind"], HandType::Trio),
            (&["doble", "pareja"], HandType::TwoPair),
            (&["two", "pairs"], HandType::TwoPair),
            (&["pareja"], HandType::Pair),
            (&["nada"], HandType::Nothing),
        ];
        let extra: [(&[&str], HandType); 4] = [
            (&["two", "pair"], HandType::TwoPair),
            (&["dobles", "parejas"], HandType::TwoPair),
            (&["pair"], HandType::Pair),
            (&["par"], HandType::Pair),
        ];
        let (kind, rest) = types
            .iter()
            .chain(extra.iter())
            .find(|(w, _)| words.len() >= w.len() && words[..w.len()] == **w)
            .map(|(w, k)| (*k, &words[w.len()..]))
            .or_else(|| {
                // `three kings`, `four aces`, `five sevens`, `a pair of jacks`.
                let n = match words.first().copied() {
                    Some("three") => Some(HandType::Trio),
                    Some("four") => Some(HandType::Poker),
                    Some("five") => Some(HandType::Repoker),
                    _ => None,
                }?;
                Some((n, &words[1..]))
            })
            .ok_or_else(|| {
                bad("no hand type (repóker, póker, full, trío, doble pareja, pareja, nada)")
            })?;
        // The faces that form the hand, then (after `con` / `with`) the kickers, if said.
        let split = rest
            .iter()
            .position(|w| matches!(*w, "con" | "with"))
            .unwrap_or(rest.len());
        let faces_of = |words: &[&str]| -> Result<Vec<Face>> {
            words
                .iter()
                .filter(|w| {
                    !matches!(
                        **w,
                        "de" | "y" | "and" | "of" | "over" | "a" | "con" | "with"
                    )
                })
                .map(|w| Face::parse(w).map_err(|e| bad(&e.to_string())))
                .collect()
        };
        let faces = faces_of(&rest[..split])?;
        let kickers = faces_of(&rest[split..])?;
        let faces = match (kind, faces.len()) {
            // `full de ases`: the lowest pair under them.
            (HandType::Full, 1) => {
                let pair = Face::ALL
                    .into_iter()
                    .find(|&f| f != faces[0])
                    .expect("six faces");
                vec![faces[0], pair]
            }
            _ => faces,
        };
        let lowest = Claim::lowest(kind, &faces).map_err(|e| bad(&e.to_string()))?;
        if kickers.is_empty() {
            return Ok(lowest);
        }
        // Kickers said: the groups as named and exactly these kickers.
        let mut dice = Counts::EMPTY;
        for f in Face::ALL {
            if lowest.dice.count(f) > 1 {
                dice.0[f.index()] = lowest.dice.count(f);
            }
        }
        let dice = kickers.iter().fold(dice, |d, &f| d.with(f));
        if dice.len() != DICE || HandType::of(&dice) != kind {
            return Err(bad(&format!(
                "the kickers after 'con' must make five dice of a {} with the faces named",
                kind.name()
            )));
        }
        Ok(Claim::of(dice))
    }

    /// The lowest hand containing `dice` whose type is what `dice` form (`KKK` → trío de reyes
    /// with the lowest kickers; `AAKKQ` → exactly that).
    pub fn from_partial(dice: Counts) -> Result<Claim> {
        if dice.len() == DICE {
            return Ok(Claim::of(dice));
        }
        let mut groups: Vec<(u8, Face)> = Face::ALL
            .iter()
            .filter(|f| dice.count(**f) > 1)
            .map(|f| (dice.count(*f), *f))
            .collect();
        groups.sort_by(|a, b| b.cmp(a));
        let sizes: Vec<u8> = groups.iter().map(|g| g.0).collect();
        let kind = match sizes.as_slice() {
            [5] => HandType::Repoker,
            [4] => HandType::Poker,
            [3, 2] => HandType::Full,
            [3] => HandType::Trio,
            [2, 2] => HandType::TwoPair,
            [2] => HandType::Pair,
            _ => {
                return Err(Error::usage(format!(
                    "'{dice}' forms no pair: name all five dice of a nada"
                )))
            }
        };
        let named: Vec<Face> = groups.iter().map(|g| g.1).collect();
        let claim = Claim::lowest(kind, &named)?;
        if !claim.dice.contains(&dice) {
            // Kickers written out: the lowest hand with them and the groups as written.
            let mut full = dice;
            for f in Face::ALL {
                if full.len() == DICE {
                    break;
                }
                if full.count(f) == 0 {
                    full = full.with(f);
                }
            }
            if full.len() == DICE && HandType::of(&full) == kind {
                return Ok(Claim::of(full));
            }
            return Err(Error::usage(format!(
                "'{dice}' cannot be completed to a {}",
                kind.name()
            )));
        }
        Ok(claim)
    }

    /// The claim as a player says it: `trío de reyes`, `full de ases y jotas`, with the kickers
    /// when they are not the lowest (`pareja de ases con rey, jota, negra`).
    pub fn spoken(&self) -> String {
        let kind = self.hand_type();
        let d = &self.dice;
        let group = |n: u8| -> Vec<Face> {
            Face::ALL
                .iter()
                .rev()
                .copied()
                .filter(|f| d.count(*f) == n)
                .collect()
        };
        let base = match kind {
            HandType::Repoker => format!("repóker de {}", group(5)[0].plural()),
            HandType::Poker => format!("póker de {}", group(4)[0].plural()),
            HandType::Full => format!(
                "full de {} y {}",
                group(3)[0].plural(),
                group(2)[0].plural()
            ),
            HandType::Trio => format!("trío de {}", group(3)[0].plural()),
            HandType::TwoPair => {
                let p = group(2);
                format!("doble pareja de {} y {}", p[0].plural(), p[1].plural())
            }
            HandType::Pair => format!("pareja de {}", group(2)[0].plural()),
            HandType::Nothing => {
                let f: Vec<&str> = group(1).iter().map(|f| f.name()).collect();
                return format!("nada: {}", f.join(", "));
            }
        };
        if matches!(kind, HandType::Full | HandType::Repoker) {
            return base;
        }
        // Unsaid kickers are the lowest: say them only when they are not.
        let groups: Vec<Face> = Face::ALL
            .iter()
            .rev()
            .copied()
            .filter(|f| d.count(*f) > 1)
            .collect();
        let lowest = Claim::lowest(kind, &groups).expect("a formed hand");
        if lowest.dice == *d {
            base
        } else {
            let k: Vec<&str> = group(1).iter().map(|f| f.name()).collect();
            format!("{base} con {}", k.join(", "))
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.spoken(), self.dice)
    }
}

impl From<Claim> for String {
    fn from(c: Claim) -> String {
        c.dice.to_string()
    }
}

impl TryFrom<String> for Claim {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Claim, String> {
        Claim::parse(&s).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Claim {
        Claim::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn the_ladder_has_every_hand_once_in_a_strict_order() {
        let l = ladder();
        assert_eq!(l.len(), HANDS);
        assert!(l.windows(2).all(|w| w[0].1 < w[1].1));
        assert_eq!(l[0].0.to_string(), "KQJ87", "the lowest nada has no ace");
        assert_eq!(l[1].0.to_string(), "AQJ87");
        assert_eq!(l[5].0.to_string(), "AKQJ8", "six nadas, by their faces");
        assert_eq!(
            l[6].0.to_string(),
            "QJ877",
            "the lowest pair: negras, the lowest kickers"
        );
        assert_eq!(l[HANDS - 1].0.to_string(), "AAAAA");
        // Counts by type: 6 nada, 60 pair, 60 two pair, 60 trío, 30 full, 30 póker, 6 repóker.
        let mut by = [0; 7];
        for (_, v) in l {
            by[v.hand_type() as usize] += 1;
        }
        assert_eq!(by, [6, 60, 60, 60, 30, 30, 6]);
    }

    #[test]
    fn claims_as_players_say_them() {
        assert_eq!(c("trío de reyes").dice().to_string(), "KKK87");
        assert_eq!(c("Trio de Reyes").dice().to_string(), "KKK87");
        assert_eq!(c("trío de sietes").dice().to_string(), "J8777");
        assert_eq!(c("full de ases y jotas").dice().to_string(), "AAAJJ");
        assert_eq!(c("full de ases").dice().to_string(), "AAA77");
        assert_eq!(c("full de negras").dice().to_string(), "88777");
        assert_eq!(
            c("doble pareja de reinas y ochos").dice().to_string(),
            "QQ887"
        );
        assert_eq!(
            c("doble pareja de ochos y reinas").dice().to_string(),
            "QQ887"
        );
        assert_eq!(c("póker de negras").dice().to_string(), "87777");
        assert_eq!(c("repóker de ases").dice().to_string(), "AAAAA");
        assert_eq!(c("pareja de jotas").dice().to_string(), "QJJ87");
        assert_eq!(c("pareja de damas").dice().to_string(), "QQJ87");
        assert_eq!(c("three kings").dice().to_string(), "KKK87");
        assert_eq!(c("full house aces over jacks").dice().to_string(), "AAAJJ");
        assert_eq!(c("AAKKQ").dice().to_string(), "AAKKQ");
        assert_eq!(c("KKK").dice().to_string(), "KKK87");
        assert_eq!(c("aakk").dice().to_string(), "AAKK7");
        assert_eq!(c("KKKA").dice().to_string(), "AKKK7");
        assert_eq!(c("nada as rey reina jota roja").dice().to_string(), "AKQJ8");
        assert_eq!(c("trío de reyes").spoken(), "trío de reyes");
        assert_eq!(
            Claim::of(Counts::parse("AKKK7", "x").unwrap()).spoken(),
            "trío de reyes con as, negra"
        );
        assert_eq!(
            c("trío de reyes con as y negra").dice().to_string(),
            "AKKK7"
        );
        assert_eq!(c("un trío de reyes").dice().to_string(), "KKK87");
        assert_eq!(c("a pair of jacks").dice().to_string(), "QJJ87");
        let e = Claim::parse("AAKKQQ").unwrap_err().to_string();
        assert!(e.contains("'AAKKQQ'") && e.contains("6 dice"), "{e}");
        let e = Claim::parse("trío de reyes con reyes y ases")
            .unwrap_err()
            .to_string();
        assert!(e.contains("kickers"), "{e}");
        for bad in [
            "",
            "trío",
            "trío de nueves",
            "full de ases y ases",
            "AAKKQQ",
            "escalera",
            "AKQJ",
        ] {
            let e = Claim::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{bad}: {e}");
        }
    }

    #[test]
    fn claims_read_back_from_what_they_say() {
        for &(dice, _) in ladder() {
            let claim = Claim::of(dice);
            assert_eq!(Claim::parse(&dice.to_string()).unwrap(), claim, "{dice}");
            let spoken = claim.spoken();
            assert_eq!(Claim::parse(&spoken).unwrap(), claim, "{spoken}");
        }
    }
}
