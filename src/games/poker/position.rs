//! Póker mentiroso positions as players write them: one line of `key: value` items separated by
//! `;`, in the game's words, read back to exactly the view it was written from.
//!
//! ```text
//! points: 1 0 2; seat: 2; claims: pareja de reyes; accepted: yes; dice: [K K Q J 8]
//! ```
//!
//! (seat 2 accepted seat 1's *pareja de reyes*, looked under the cup and holds K K Q J 8: what to
//! throw, where, and what to claim.) Seats are numbered from 1. The items:
//!
//! - `rules:` the rules that differ from the standard table, as `key=value, …` (optional; they
//!   must be the table's).
//! - `points:` each seat's points, seat by seat (a seat at the agreed points is out; by default
//!   nobody has any).
//! - `seat:` the player to act, whose position it is.
//! - `claims:` the hand's claims in order, as players say them (`pareja de reyes, trío de
//!   reyes`), the last the standing one, `?` for a claim not remembered; an entry may end `by
//!   seat N` (checked). A position keeps the last two: the standing claim and the one its
//!   claimant had accepted (a single claim is the hand's first). Absent: the hand has no claim
//!   yet (the player to act starts it).
//! - `accepted: yes`: the player to act has accepted the standing claim and looked under the cup
//!   (without it, they are deciding whether to call it).
//! - `dice:` the five dice in their order on the table, each a face (`7 8 J Q K A` or `negra`,
//!   `roja`, `jota`, `reina`, `rey`, `as`), those in the cup in brackets, `?` for a die in the
//!   cup the player has not seen, `*` after a die thrown this turn: `A A [? ? ?]`, `[K K Q J 8]`,
//!   `K [K*] Q J 8*`. Absent before the hand's first throw.
//! - `cup known to:` the seats that know the dice in the cup (optional: by default whoever put
//!   them there — the claimant, or the player to act after throwing in the cup — and the player
//!   to act once they have looked).
//! - `starter:` the hand's first roller (optional: the first of the claims listed).
//! - `out:` the players out in the order they went out (optional: by seat number).
//! - `first roller:` the game's first roller (optional: the hand's).
//!
//! A position is refused with one line naming what does not fit: a claim not above the one
//! before, a die unseen out of the cup, a turn that does not follow, points above the table's.

use super::engine::{Action, Phase, PokerState, Seen, View, ALL_DICE, TOP};
use super::hand::{ladder, Claim, Face, DICE};
use super::rules::{Rules, MAX_PLAYERS};
use super::tables::{plan, tables, POW6, STOP};
use super::Poker;
use crate::error::{Error, Result};
use crate::play::position::{rule_changes, same_rules, Matches, Positions};
use crate::play::State;
use crate::play::{Seat, Start};
use crate::rng::Stream;
use crate::text::normalize;

impl Positions for Poker {
    const POSITION_EXAMPLE: &'static str =
        "points: 1 0 2; seat: 2; claims: pareja de reyes; accepted: yes; dice: [K K Q J 8]";
    /// `tuned` answers at once (table look-ups); `search` and `ismcts` play hands out at every
    /// decision and are far too slow for thousands of rollouts.
    const ROLLOUT_BOTS: &'static str = "tuned";
    const ADVICE_VALUE: &'static str = "chance of winning the game";

    fn write_position(view: &View<'_>) -> String {
        write(&view.seen())
    }

    fn read_position(rules: &Rules, text: &str, rng: &mut Stream) -> Result<PokerState> {
        let seen = read(rules, text)?;
        let game = PokerState::from_seen(&seen, rng);
        game.check_invariants()
            .map_err(|e| Error::usage(format!("the position does not fit together: {e}")))?;
        Ok(game)
    }

    /// The exact re-roll plan's answer where the player holds the dice to throw.
    fn exact_notes(game: &PokerState) -> Vec<String> {
        exact_plan(game)
            .map(|plan| vec![format!("Exact re-roll plan: {plan}.")])
            .unwrap_or_default()
    }

    /// `roll die 3 in the cup`, `roll dice 1 2 5 in the open` (dice counted from 1 in the
    /// order of the position's `dice:`), `claim trío de reyes`, `call`, `accept`.
    fn action_name(action: Action) -> String {
        match action {
            Action::Throw { dice, open } => {
                let which: Vec<String> = (0..DICE)
                    .filter(|&i| dice >> i & 1 == 1)
                    .map(|i| (i + 1).to_string())
                    .collect();
                format!(
                    "roll {} {} {}",
                    if which.len() == 1 { "die" } else { "dice" },
                    which.join(" "),
                    if open { "in the open" } else { "in the cup" }
                )
            }
            Action::Claim(r) => format!("claim {}", spoken(r)),
            Action::Call => "call".into(),
            Action::Accept => "accept".into(),
        }
    }
}

/// A rung as players say it.
fn spoken(r: u8) -> String {
    Claim::of(ladder()[r as usize].0).spoken()
}

/// Seat `p` (0-based) as written: `seat 3`.
fn seat_name(p: usize) -> String {
    format!("seat {}", p + 1)
}

/// The seats of a mask as written: `seat 1, seat 3`.
fn seats_text(mask: u16, n: usize) -> String {
    (0..n)
        .filter(|&s| mask >> s & 1 == 1)
        .map(seat_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The players still in, as a mask.
fn alive_mask(points: &[u8; MAX_PLAYERS], rules: &Rules) -> u16 {
    (0..rules.players as usize)
        .filter(|&s| points[s] < rules.points)
        .fold(0, |m, s| m | 1 << s)
}

/// The player still in before `seat` (the one who passes to it).
fn previous_in(alive: u16, seat: usize, n: usize) -> usize {
    let mut s = seat;
    loop {
        s = (s + n - 1) % n;
        if alive >> s & 1 == 1 {
            return s;
        }
    }
}

/// The hand's first roller when the `claims` entries listed are the whole hand so far and
/// `claimant` made the last: `claims − 1` players in before it.
fn listed_starter(alive: u16, claimant: usize, claims: usize, n: usize) -> usize {
    (1..claims).fold(claimant, |s, _| previous_in(alive, s, n))
}

/// Who knows the dice in the cup unless the position says otherwise: nobody with the cup
/// empty or before the hand's first throw; the player to act alone once they have thrown in the
/// cup; otherwise the claimant, with the player to act once they have looked (after accepting,
/// or with their own dice still in the cup).
fn default_knowers(seen: &Seen) -> u16 {
    let me = 1u16 << seen.seat;
    let looked = seen.hidden != 0 && (0..DICE).all(|i| seen.dice[i].is_some());
    match seen.phase {
        _ if seen.hidden == 0 => 0,
        Phase::FirstRoll | Phase::Over => 0,
        Phase::Play if seen.claim.is_none() || seen.hidden & seen.thrown != 0 => me,
        Phase::Play => me | 1 << seen.claimant,
        Phase::Decide => (1 << seen.claimant) | if looked { me } else { 0 },
    }
}

/// The dice as written: faces or `?` in position order, the dice in the cup in brackets, `*`
/// after a die thrown this turn when `marks`.
fn dice_text(seen: &Seen, marks: bool) -> String {
    let mut out = String::new();
    let mut in_cup = false;
    for i in 0..DICE {
        let cup = seen.hidden >> i & 1 == 1;
        if cup && !in_cup {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push('[');
        } else if !cup && in_cup {
            out.push_str("] ");
        } else if !out.is_empty() {
            out.push(' ');
        }
        in_cup = cup;
        match seen.dice[i] {
            Some(f) => out.push(Face::ALL[f as usize].symbol()),
            None => out.push('?'),
        }
        if marks && seen.thrown >> i & 1 == 1 {
            out.push('*');
        }
    }
    if in_cup {
        out.push(']');
    }
    out
}

/// The position `seen` shows, in the notation [`read`] reads.
fn write(seen: &Seen) -> String {
    let rules = &seen.rules;
    let n = rules.players as usize;
    let mut items = Vec::new();
    let changes = rule_changes(rules, &Rules::standard(rules.players), &[]);
    if !changes.is_empty() {
        items.push(format!("rules: {changes}"));
    }
    let points: Vec<String> = seen.points[..n].iter().map(u8::to_string).collect();
    items.push(format!("points: {}", points.join(" ")));
    items.push(format!("seat: {}", seen.seat + 1));
    let claims: Vec<u8> = seen.previous.into_iter().chain(seen.claim).collect();
    let alive = alive_mask(&seen.points, rules);
    let starter = if claims.is_empty() {
        seen.to_act
    } else {
        listed_starter(alive, seen.claimant, claims.len(), n)
    };
    if seen.hand_first != starter {
        items.push(format!("starter: {}", seat_name(seen.hand_first)));
    }
    if !claims.is_empty() {
        // Kickers and a nada's faces without their commas, which separate the claims here.
        let words: Vec<String> = claims
            .iter()
            .map(|&r| spoken(r).replace(", ", " "))
            .collect();
        items.push(format!("claims: {}", words.join(", ")));
        if seen.phase == Phase::Play {
            items.push("accepted: yes".into());
        }
    }
    if seen.phase != Phase::FirstRoll {
        let marks = seen.phase == Phase::Play && seen.claim.is_some();
        items.push(format!("dice: {}", dice_text(seen, marks)));
    }
    if seen.knowers != default_knowers(seen) {
        items.push(format!("cup known to: {}", seats_text(seen.knowers, n)));
    }
    let by_seat: Vec<u8> = (0..n as u8)
        .filter(|&s| seen.points[s as usize] >= rules.points)
        .collect();
    if seen.out != by_seat {
        let names: Vec<String> = seen.out.iter().map(|&s| seat_name(s as usize)).collect();
        items.push(format!("out: {}", names.join(", ")));
    }
    if seen.first != seen.hand_first {
        items.push(format!("first roller: {}", seat_name(seen.first)));
    }
    items.join("; ")
}

/// The keys of a position, for messages.
const KEYS: &str =
    "rules, points, seat, claims, accepted, dice, cup known to, starter, out, first roller";

/// A position's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Rules,
    Points,
    Seat,
    Claims,
    Accepted,
    Dice,
    Known,
    Starter,
    Out,
    FirstRoller,
}

impl Key {
    fn parse(word: &str) -> Option<Key> {
        let w: String = normalize(word)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Some(match w.as_str() {
            "rules" | "reglas" => Key::Rules,
            "points" | "puntos" | "score" | "scores" | "match" | "tantos" => Key::Points,
            "seat" | "asiento" | "me" | "to act" | "turn" | "turno" => Key::Seat,
            "claims" | "claim" | "cantos" | "canto" | "cantadas" => Key::Claims,
            "accepted" | "aceptado" | "acepto" => Key::Accepted,
            "dice" | "dados" | "my dice" | "hand" => Key::Dice,
            "cup known to" | "known to" | "cup known" | "la saben" => Key::Known,
            "starter" | "hand starter" | "started" | "empieza" | "mano" => Key::Starter,
            "out" | "fuera" => Key::Out,
            "first roller" | "primer tirador" | "game starter" => Key::FirstRoller,
            _ => return None,
        })
    }
}

/// Splits a position into its items, refusing an item without a key, an unknown key and a key
/// given twice.
fn items(text: &str) -> Result<Vec<(Key, String)>> {
    let mut out: Vec<(Key, String)> = Vec::new();
    for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once(':') else {
            return Err(Error::usage(format!(
                "position item '{item}' has no key: write key: value items separated by ';' (keys: {KEYS})"
            )));
        };
        let k = Key::parse(key).ok_or_else(|| {
            Error::usage(format!(
                "unknown position key '{}': keys are {KEYS}",
                key.trim()
            ))
        })?;
        if out.iter().any(|(o, _)| *o == k) {
            return Err(Error::usage(format!(
                "position key '{}' is given twice: give each once",
                key.trim()
            )));
        }
        out.push((k, value.trim().to_string()));
    }
    Ok(out)
}

/// A seat as written (`seat 3`, `3`), 0-based, among `n` seats.
fn parse_seat(text: &str, what: &str, n: usize) -> Result<usize> {
    crate::play::position::parse_seat(what, text, n, "around the table")
}

/// One die as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Die {
    /// Its face (0 = the 7 … 5 = the ace), `None` for `?`.
    face: Option<u8>,
    /// In the cup.
    cup: bool,
    /// Thrown this turn (`*`).
    thrown: bool,
}

const DICE_HELP: &str = "give the five dice in their order, faces 7 8 J Q K A (or negra, roja, jota, reina, rey, as), those in the cup in brackets, ? for one you have not seen and * after one thrown this turn, e.g. dice: A A [? ? ?]";

/// `dice:` as written: faces or `?`, brackets around the dice in the cup, `*` after a die
/// thrown this turn; words (`rey reina`) or symbols (`KKQ`), spaces and commas optional.
fn parse_dice(text: &str) -> Result<Vec<Die>> {
    let spaced = text
        .replace('[', " [ ")
        .replace(']', " ] ")
        .replace('*', " * ")
        .replace('?', " ? ")
        .replace(',', " ");
    let mut dice: Vec<Die> = Vec::new();
    let mut in_cup = false;
    let mut opened = 0;
    let bad = |what: String| Error::usage(format!("dice: {what}: {DICE_HELP}"));
    for token in spaced.split_whitespace() {
        match token {
            "[" => {
                if in_cup {
                    return Err(bad("'[' inside brackets".into()));
                }
                in_cup = true;
                opened = dice.len();
            }
            "]" => {
                if !in_cup {
                    return Err(bad("']' without its '['".into()));
                }
                if dice.len() == opened {
                    return Err(bad("'[]' holds no die".into()));
                }
                in_cup = false;
            }
            "*" => match dice.last_mut() {
                Some(d) if !d.thrown => d.thrown = true,
                Some(_) => return Err(bad("'**' marks a die twice".into())),
                None => return Err(bad("'*' before any die".into())),
            },
            "?" => dice.push(Die {
                face: None,
                cup: in_cup,
                thrown: false,
            }),
            word => {
                let faces: Vec<Face> = match Face::parse(word) {
                    Ok(f) => vec![f],
                    Err(_) => word
                        .chars()
                        .map(|c| Face::parse(c.encode_utf8(&mut [0; 4])))
                        .collect::<Result<_>>()
                        .map_err(|_| bad(format!("'{word}' is not a die")))?,
                };
                dice.extend(faces.into_iter().map(|f| Die {
                    face: Some(f.index() as u8),
                    cup: in_cup,
                    thrown: false,
                }));
            }
        }
    }
    if in_cup {
        return Err(bad("a '[' is not closed".into()));
    }
    if dice.len() != DICE {
        return Err(bad(format!("{} dice given, not {DICE}", dice.len())));
    }
    Ok(dice)
}

/// One entry of `claims:`: a rung (`None`: not remembered), with the seat it names, if any.
struct Written {
    rung: Option<u8>,
    seat: Option<usize>,
    text: String,
}

/// Whether a comma-separated piece continues the claim before it: faces only (the kickers of
/// `pareja de ases con rey, jota, negra` or a nada's faces).
fn continues(piece: &str) -> bool {
    let words: Vec<&str> = piece
        .split_whitespace()
        .filter(|w| !matches!(*w, "y" | "and"))
        .collect();
    !words.is_empty() && words.iter().all(|w| Face::parse(w).is_ok())
}

/// `claims:` as written, each entry a claim as players say it or `?`, optionally `by seat N`.
fn parse_claims(text: &str, n: usize) -> Result<Vec<Written>> {
    let mut entries: Vec<String> = Vec::new();
    for piece in text.split(',').map(str::trim) {
        if piece.is_empty() {
            return Err(Error::usage(format!(
                "claims: an empty entry in '{text}': give each claim once, separated by commas"
            )));
        }
        match entries.last_mut() {
            Some(last) if continues(&normalize(piece)) && !last.ends_with('?') => {
                last.push_str(", ");
                last.push_str(piece);
            }
            _ => entries.push(piece.to_string()),
        }
    }
    let mut out = Vec::new();
    for raw in entries {
        // `… by seat N`: the last three words.
        let words: Vec<&str> = raw.split_whitespace().collect();
        let k = words.len();
        let (rest, seat) =
            if k >= 3 && normalize(words[k - 3]) == "by" && normalize(words[k - 2]) == "seat" {
                let seat = parse_seat(words[k - 1], "claims", n)?;
                (words[..k - 3].join(" "), Some(seat))
            } else {
                (raw.clone(), None)
            };
        let rung = if rest.trim() == "?" {
            None
        } else {
            let claim = Claim::parse(&rest).map_err(|e| Error::usage(format!("claims: {e}")))?;
            Some(claim.rung() as u8)
        };
        out.push(Written {
            rung,
            seat,
            text: raw,
        });
    }
    Ok(out)
}

/// Whole numbers separated by spaces or commas.
fn parse_points(text: &str, rules: &Rules) -> Result<[u8; MAX_PLAYERS]> {
    let n = rules.players as usize;
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() != n {
        return Err(Error::usage(format!(
            "points: {} values but the table has {n} players (--players {n}): give one per seat, e.g. points: {}",
            words.len(),
            vec!["0"; n].join(" ")
        )));
    }
    let mut points = [0u8; MAX_PLAYERS];
    for (s, w) in words.iter().enumerate() {
        points[s] = w
            .parse::<u8>()
            .ok()
            .filter(|&p| p <= rules.points)
            .ok_or_else(|| {
                Error::usage(format!(
                    "points: '{w}' for {}: give 0 to {} (a player with {} points is out)",
                    seat_name(s),
                    rules.points,
                    rules.points
                ))
            })?;
    }
    Ok(points)
}

/// Reads a position at `rules` (see the module's documentation), refusing it with one line that
/// names what does not fit.
fn read(rules: &Rules, text: &str) -> Result<Seen> {
    let n = rules.players as usize;
    let items = items(text)?;
    let get = |k: Key| items.iter().find(|(o, _)| *o == k).map(|(_, v)| v.as_str());
    if let Some(v) = get(Key::Rules) {
        same_rules(rules, &Rules::standard(rules.players), v, "position", &[])?;
    }

    // Points and who is in.
    let points = match get(Key::Points) {
        Some(p) => parse_points(p, rules)?,
        None => [0; MAX_PLAYERS],
    };
    let alive = alive_mask(&points, rules);
    if alive.count_ones() < 2 {
        return Err(Error::usage(format!(
            "points: {} player{} below {} points: the game is over; a position needs two or more players in",
            alive.count_ones(),
            if alive.count_ones() == 1 { " is" } else { "s are" },
            rules.points
        )));
    }
    let hands: u32 = points[..n].iter().map(|&p| u32::from(p)).sum();
    let me =
        match get(Key::Seat) {
            Some(s) => parse_seat(s, "seat", n)?,
            None => return Err(Error::usage(
                "the position has no seat: give seat: N, the player to act (seats count from 1)",
            )),
        };
    if alive >> me & 1 == 0 {
        return Err(Error::usage(format!(
            "seat: {} has {} points and is out: the player to act is a player still in",
            seat_name(me),
            points[me]
        )));
    }

    // The claims: who made them, the standing one and the one before it.
    let claims = match get(Key::Claims) {
        Some(c) if !c.trim().is_empty() => parse_claims(c, n)?,
        _ => Vec::new(),
    };
    let k = claims.len();
    let claimant = if k == 0 {
        me
    } else {
        previous_in(alive, me, n)
    };
    let mut by = vec![claimant; k];
    for i in (0..k.saturating_sub(1)).rev() {
        by[i] = previous_in(alive, by[i + 1], n);
    }
    for (w, &s) in claims.iter().zip(&by) {
        if let Some(said) = w.seat {
            if said != s {
                return Err(Error::usage(format!(
                    "claims: '{}' is not {}'s: each claim passes to the next player in, so the claims listed end with {}'s, passed to {} (to act); this one is {}'s",
                    w.text,
                    seat_name(said),
                    seat_name(claimant),
                    seat_name(me),
                    seat_name(s)
                )));
            }
        }
    }
    let mut last: Option<(u8, &str)> = None;
    for w in &claims {
        let Some(r) = w.rung else { continue };
        if !rules.kickers && !tables().is_named(r as usize) {
            return Err(Error::usage(format!(
                "claims: '{}' names kickers, but this table's claims name a hand's groups only (kickers=off): claim {}",
                w.text,
                spoken(tables().claim_at_most(r, false))
            )));
        }
        if let Some((before, said)) = last {
            if r <= before {
                return Err(Error::usage(format!(
                    "claims: {} is not above {said}: each claim must beat the one before it",
                    spoken(r)
                )));
            }
        }
        last = Some((r, &w.text));
    }
    let claim = match claims.last() {
        None => None,
        Some(w) => match w.rung {
            Some(r) => Some(r),
            None => {
                return Err(Error::usage(
                    "claims: the standing claim (the last) must be given, not ?",
                ))
            }
        },
    };
    let previous = match k {
        0 | 1 => None,
        _ => match claims[k - 2].rung {
            Some(r) => Some(r),
            None => {
                return Err(Error::usage(
                    "claims: the claim before the last (the one its claimant accepted) must be given, not ?; a single claim is the hand's first",
                ))
            }
        },
    };

    // Deciding, or holding the cup.
    let accepted = match get(Key::Accepted).map(normalize) {
        None => false,
        Some(a) => match a.as_str() {
            "yes" | "y" | "si" | "true" | "on" => true,
            "no" | "n" | "false" | "off" => false,
            _ => {
                return Err(Error::usage(format!(
                    "accepted: '{a}': write accepted: yes (you accepted the standing claim and looked) or leave it out (you decide whether to call it)"
                )))
            }
        },
    };
    if accepted && claim.is_none() {
        return Err(Error::usage(
            "accepted: there is no claim to accept: give claims: …, the last the one you accepted",
        ));
    }
    if accepted && claim == Some(TOP) {
        return Err(Error::usage(
            "accepted: nothing beats repóker de ases, so accepting it costs the point at once: leave accepted out and decide on it",
        ));
    }

    // The dice.
    let dice = match get(Key::Dice) {
        Some(d) => Some(parse_dice(d)?),
        None => None,
    };
    let unseen = |d: &[Die]| d.iter().all(|d| d.face.is_none() && d.cup && !d.thrown);
    let phase = match (&dice, claim, accepted) {
        (None, None, _) => Phase::FirstRoll,
        (Some(d), None, _) if unseen(d) => Phase::FirstRoll,
        (Some(_), None, _) => Phase::Play,
        (None, Some(_), _) => {
            return Err(Error::usage(format!(
            "the position has no dice: give the five dice as {} sees them, e.g. dice: A A [? ? ?]",
            seat_name(me)
        )))
        }
        (Some(_), Some(_), false) => Phase::Decide,
        (Some(_), Some(_), true) => Phase::Play,
    };
    let dice = dice.unwrap_or_else(|| {
        vec![
            Die {
                face: None,
                cup: true,
                thrown: false,
            };
            DICE
        ]
    });
    let mask = |f: &dyn Fn(&Die) -> bool| -> u8 {
        (0..DICE)
            .filter(|&i| f(&dice[i]))
            .fold(0, |m, i| m | 1 << i)
    };
    let mut hidden = mask(&|d| d.cup);
    let mut thrown = mask(&|d| d.thrown);
    let unknown = mask(&|d| d.face.is_none());
    if unknown & !hidden != 0 {
        return Err(Error::usage(
            "dice: a die out of the cup lies face up for everyone to see: give its face (? only in the brackets, for a die in the cup)",
        ));
    }
    match phase {
        Phase::FirstRoll => {
            if thrown != 0 {
                return Err(Error::usage(
                    "dice: no die is thrown before the hand's first throw: drop the *",
                ));
            }
            hidden = ALL_DICE;
        }
        Phase::Play if claim.is_none() => {
            // The hand's first throw: all five at once, all in the cup or all in the open.
            if unknown != 0 {
                return Err(Error::usage(
                    "dice: the hand's first roller has seen every die after throwing: give all five faces, or all five ? before the throw",
                ));
            }
            if hidden != 0 && hidden != ALL_DICE {
                return Err(Error::usage(
                    "dice: the hand's first throw is all in the cup or all in the open: bracket all five dice or none (or give the claims the hand has had)",
                ));
            }
            if thrown != 0 && thrown != ALL_DICE {
                return Err(Error::usage(
                    "dice: the hand's first throw is all five dice: mark all five * or none",
                ));
            }
            thrown = ALL_DICE;
        }
        Phase::Play => {
            if unknown != 0 {
                return Err(Error::usage(
                    "dice: after accepting you have looked under the cup: give the faces of the dice in it, not ?",
                ));
            }
            if hidden & thrown != 0 && hidden & !thrown != 0 {
                return Err(Error::usage(
                    "dice: a die thrown in the cup this turn brings every other die out, so a die in the cup beside it cannot be one you did not throw",
                ));
            }
        }
        Phase::Decide => {
            if thrown != 0 {
                return Err(Error::usage(format!(
                    "dice: * marks dice thrown this turn by the player holding the cup, and {} is deciding on the claim: drop the * (or add accepted: yes)",
                    seat_name(me)
                )));
            }
            if unknown != 0 && unknown != hidden {
                return Err(Error::usage(
                    "dice: some dice in the cup are seen and some not: whoever knows the cup knows all of it; write every die in it as ? or give every face",
                ));
            }
        }
        Phase::Over => {}
    }

    // The hand's first roller and the game's.
    let starter = match get(Key::Starter) {
        Some(s) => {
            let s = parse_seat(s, "starter", n)?;
            if alive >> s & 1 == 0 {
                return Err(Error::usage(format!(
                    "starter: {} is out: the hand's first roller is a player still in",
                    seat_name(s)
                )));
            }
            s
        }
        None if k == 0 => me,
        None => listed_starter(alive, claimant, k, n),
    };
    if k == 0 && starter != me {
        return Err(Error::usage(format!(
            "starter: {} started the hand but no claim is given: with no claim yet the player to act, {}, is the hand's first roller (give the claims so far)",
            seat_name(starter),
            seat_name(me)
        )));
    }
    if k == 1 && starter != claimant {
        return Err(Error::usage(format!(
            "starter: {} started the hand, but a single claim is the hand's first, made by its first roller, {}: give the claims from the first (or ? for those not remembered)",
            seat_name(starter),
            seat_name(claimant)
        )));
    }
    let first = match get(Key::FirstRoller) {
        None => starter,
        Some(f) => {
            let f = parse_seat(f, "first roller", n)?;
            if hands == 0 && f != starter {
                return Err(Error::usage(format!(
                    "first roller: no hand has been played yet (nobody has a point), so the game's first roller is this hand's, {}",
                    seat_name(starter)
                )));
            }
            f
        }
    };

    // Who went out, and in what order.
    let out_by_seat: Vec<u8> = (0..n as u8).filter(|&s| alive >> s & 1 == 0).collect();
    let out = match get(Key::Out) {
        None => out_by_seat,
        Some(o) => {
            let list: Vec<u8> = o
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(|w| parse_seat(w, "out", n).map(|s| s as u8))
                .collect::<Result<_>>()?;
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted != out_by_seat || list.len() != sorted.len() {
                return Err(Error::usage(format!(
                    "out: list each seat at {} points once ({}), in the order they went out",
                    rules.points,
                    if out_by_seat.is_empty() {
                        "none is".to_string()
                    } else {
                        out_by_seat
                            .iter()
                            .map(|&s| seat_name(s as usize))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                )));
            }
            list
        }
    };

    let mut seen = Seen {
        rules: *rules,
        seat: me,
        phase,
        to_act: me,
        claim,
        previous,
        claimant,
        dice: std::array::from_fn(|i| dice[i].face),
        hidden,
        knowers: 0,
        thrown,
        points,
        out,
        hand_first: starter,
        first,
    };

    // Who knows the dice in the cup.
    let default = default_knowers(&seen);
    seen.knowers = match get(Key::Known) {
        None => default,
        Some(v) => {
            let names: Vec<&str> = v
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty() && !matches!(normalize(w).as_str(), "nobody" | "nadie"))
                .collect();
            let mut known = 0u16;
            for w in names {
                let s = parse_seat(w, "cup known to", n)?;
                if alive >> s & 1 == 0 {
                    return Err(Error::usage(format!(
                        "cup known to: {} is out of the game and has not seen this hand's cup",
                        seat_name(s)
                    )));
                }
                known |= 1 << s;
            }
            check_knowers(&seen, known, default)?;
            known
        }
    };
    Ok(seen)
}

/// Refuses a list of the seats that know the cup that cannot be: `default` is who must (the
/// list may add seats only where earlier holders' dice can still lie in the cup).
fn check_knowers(seen: &Seen, known: u16, default: u16) -> Result<()> {
    let n = seen.rules.players as usize;
    let me = seen.seat;
    let fail = |why: String| Err(Error::usage(format!("cup known to: {why}")));
    if seen.hidden == 0 {
        return if known == 0 {
            Ok(())
        } else {
            fail("no die is in the cup (every die lies face up): leave it out".into())
        };
    }
    match seen.phase {
        Phase::FirstRoll if known != 0 => {
            fail("nobody has seen the dice before the hand's first throw: leave it out".into())
        }
        Phase::Play
            if (seen.claim.is_none() || seen.hidden & seen.thrown != 0) && known != default =>
        {
            fail(format!(
                "{} threw the dice in the cup this turn, so only {} knows them",
                seat_name(me),
                seat_name(me)
            ))
        }
        Phase::Play if known & default != default => fail(format!(
            "{} passed the cup and {} has looked under it: both know it (give {})",
            seat_name(seen.claimant),
            seat_name(me),
            seats_text(known | default, n)
        )),
        Phase::Decide if known >> seen.claimant & 1 == 0 => fail(format!(
            "{} claimed on these dice and knows them: add it",
            seat_name(seen.claimant)
        )),
        Phase::Decide if (known >> me & 1 == 1) != (default >> me & 1 == 1) => fail(format!(
            "{} {}: the dice in the cup are written {}",
            seat_name(me),
            if known >> me & 1 == 1 {
                "is listed as knowing the cup"
            } else {
                "is not listed as knowing the cup"
            },
            if default >> me & 1 == 1 {
                "with their faces (give the player to act, or write them ?)"
            } else {
                "as ? (give their faces, or leave the player to act out)"
            }
        )),
        _ => Ok(()),
    }
}

/// The exact re-roll plan at a position where the player to act holds the cup and may still
/// throw (`None` elsewhere): the first die to throw (or none) to beat the claim accepted with
/// the dice as they lie, its chance, and the chance of claiming at once, as
/// `tahur poker reroll` answers it. Advice's rollouts, played by bots that follow the same plan
/// after the first action, should put that die first where a truthful claim is what wins
/// (`tests/it/poker_position.rs` checks it).
pub fn exact_plan(game: &PokerState) -> Option<String> {
    let view = game.view(game.to_act());
    if view.phase() != Phase::Play || view.thrown() == ALL_DICE {
        return None;
    }
    let t = tables();
    let dice = view.dice()?;
    let need = t.lowest_claim_above(view.claim(), view.rules().kickers)?;
    let (mut unrolled, mut rolled) = (0, 0);
    for (i, &d) in dice.iter().enumerate() {
        if view.thrown() >> i & 1 == 1 {
            rolled += POW6[d as usize];
        } else {
            unrolled += POW6[d as usize];
        }
    }
    let p = plan(need as usize);
    let chance = p.chance(t, unrolled, rolled);
    let now = if t.rung(unrolled + rolled) >= need {
        1.0
    } else {
        0.0
    };
    let goal = match view.claim() {
        Some(c) => format!("to beat {}", spoken(c)),
        None => "to make any claim".into(),
    };
    let step = p.step(t, unrolled, rolled);
    let pct = |x: f64| format!("{:.2} %", 100.0 * x);
    if step == STOP {
        return Some(if now == 1.0 {
            format!(
                "The exact re-roll plan {goal} ({} or better): throw nothing, the dice already make it; claim.",
                spoken(need)
            )
        } else {
            format!(
                "The exact re-roll plan {goal} ({} or better): no throw can make it; claim.",
                spoken(need)
            )
        });
    }
    let dice_of = |f: u8| -> Vec<String> {
        (0..DICE)
            .filter(|&i| view.thrown() >> i & 1 == 0 && dice[i] == f)
            .map(|i| (i + 1).to_string())
            .collect()
    };
    let which = dice_of(step);
    Some(format!(
        "The exact re-roll plan {goal} ({} or better), one die at a time: first throw a {} ({} {}), {} to make it by the plan, {} claiming without a throw (`tahur poker reroll` gives the whole plan).",
        spoken(need),
        Face::ALL[step as usize],
        if which.len() == 1 { "die" } else { "any of dice" },
        which.join(", "),
        pct(chance),
        pct(now)
    ))
}

/// The exact chance to beat the claim accepted (to reach the lowest claim above it) after
/// `action` by the player holding the cup, rolling by the exact plan afterwards: for a throw,
/// the mean over its outcomes; for a claim, whether the dice already make it. `None` where the
/// player is not holding the cup.
pub fn exact_chance_after(game: &PokerState, action: Action) -> Option<f64> {
    let view = game.view(game.to_act());
    if view.phase() != Phase::Play {
        return None;
    }
    let t = tables();
    let dice = view.dice()?;
    let need = t.lowest_claim_above(view.claim(), view.rules().kickers)? as usize;
    let p = plan(need);
    let (mut unrolled, mut rolled) = (0u32, 0u32);
    for (i, &d) in dice.iter().enumerate() {
        if view.thrown() >> i & 1 == 1 {
            rolled += POW6[d as usize];
        } else {
            unrolled += POW6[d as usize];
        }
    }
    match action {
        Action::Claim(_) => Some(if t.rung(unrolled + rolled) as usize >= need {
            1.0
        } else {
            0.0
        }),
        Action::Throw { dice: mask, .. } => {
            let mut kept = unrolled;
            let mut k = 0usize;
            for (i, &d) in dice.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    kept -= POW6[d as usize];
                    k += 1;
                }
            }
            // Every ordered outcome of the k dice thrown, each equally likely.
            let total = 6usize.pow(k as u32);
            let mut sum = 0.0;
            for o in 0..total {
                let mut x = o;
                let mut code = 0;
                for _ in 0..k {
                    code += POW6[x % 6];
                    x /= 6;
                }
                sum += p.chance(t, kept, rolled + code);
            }
            Some(sum / total as f64)
        }
        Action::Call | Action::Accept => None,
    }
}

/// A Póker match state: each seat's points (all still in) and, if given, who starts the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PokerMatch {
    /// Points by seat, each below the agreed points.
    pub points: Vec<u8>,
    /// Who starts the first hand, or `None` to draw it as for a new game.
    pub starter: Option<Seat>,
}

impl Matches for Poker {
    type Match = PokerMatch;
    const MATCH_EXAMPLE: &'static str = "score: 2 1 0";
    // `--points` is the rule (the points that put a player out): the match state is the score.
    const MATCH_FLAG: Option<&'static str> = Some("match");

    fn read_match(rules: &Rules, text: &str) -> Result<PokerMatch> {
        let n = rules.players as usize;
        let mut points = None;
        let mut starter = None;
        for (key, value) in items(text)? {
            match key {
                Key::Rules => {
                    same_rules(rules, &Rules::standard(rules.players), &value, "match state", &[])?;
                }
                Key::Points => {
                    let p = parse_points(&value, rules)?;
                    if let Some(s) = (0..n).find(|&s| p[s] >= rules.points) {
                        return Err(Error::usage(format!(
                            "points: {} has {} points and is out at {}: a match state seats only players still in (give 0 to {} each, and one fewer --players)",
                            seat_name(s),
                            p[s],
                            rules.points,
                            rules.points - 1
                        )));
                    }
                    points = Some(p[..n].to_vec());
                }
                Key::Starter => starter = Some(parse_seat(&value, "starter", n)?),
                _ => {
                    return Err(Error::usage(format!(
                        "a match state holds points (score), rules and starter: '{}' belongs to a position (which also names its seat: seat: N)",
                        text.trim()
                    )))
                }
            }
        }
        let points = points.ok_or_else(|| {
            Error::usage(format!(
                "the match state has no points: give each seat's, e.g. score: {}",
                vec!["0"; n].join(" ")
            ))
        })?;
        Ok(PokerMatch { points, starter })
    }

    fn write_match(rules: &Rules, m: &PokerMatch) -> String {
        let points: Vec<String> = m.points.iter().map(u8::to_string).collect();
        let mut out = format!("points: {}", points.join(" "));
        let changes = rule_changes(rules, &Rules::standard(rules.players), &[]);
        if !changes.is_empty() {
            out = format!("rules: {changes}; {out}");
        }
        if let Some(s) = m.starter {
            out.push_str(&format!("; starter: {}", seat_name(s)));
        }
        out
    }

    fn deal_from_match(
        rules: &Rules,
        m: &PokerMatch,
        start: &Start,
        rng: &mut Stream,
    ) -> PokerState {
        if m.starter.is_none() && m.points.iter().all(|&p| p == 0) {
            return PokerState::deal(rules, start, rng);
        }
        // The starter drawn as a new game draws its first roller.
        let first = m
            .starter
            .or(start.first)
            .unwrap_or_else(|| crate::rng::uniform_below(rng, rules.players as usize));
        PokerState::started_from(*rules, &m.points, first as u8)
    }

    /// Every score with seat 1 on the fewest points, seat 2 next, …: each seat from 0 to one
    /// below the points that put a player out.
    fn equity_grid(rules: &Rules) -> Vec<PokerMatch> {
        fn fill(
            seat: usize,
            n: usize,
            least: u8,
            top: u8,
            p: &mut Vec<u8>,
            out: &mut Vec<PokerMatch>,
        ) {
            if seat == n {
                out.push(PokerMatch {
                    points: p.clone(),
                    starter: None,
                });
                return;
            }
            for v in least..top {
                p.push(v);
                fill(seat + 1, n, v, top, p, out);
                p.pop();
            }
        }
        let mut out = Vec::new();
        fill(
            0,
            rules.players as usize,
            0,
            rules.points,
            &mut Vec::new(),
            &mut out,
        );
        out
    }

    fn players_of_match(value: &str) -> Option<usize> {
        let n = value
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .count();
        (n >= 2).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_written_with_the_cup_in_brackets() {
        let rules = Rules::standard(3);
        let mut seen = Seen {
            rules,
            seat: 1,
            phase: Phase::Decide,
            to_act: 1,
            claim: Some(10),
            previous: None,
            claimant: 0,
            dice: [Some(5), Some(5), None, None, None],
            hidden: 0b11100,
            knowers: 1,
            thrown: 0,
            points: [0; MAX_PLAYERS],
            out: Vec::new(),
            hand_first: 0,
            first: 0,
        };
        assert_eq!(dice_text(&seen, false), "A A [? ? ?]");
        seen.hidden = 0b01010;
        seen.dice = [Some(5), Some(4), Some(3), Some(2), Some(1)];
        seen.thrown = 0b11000;
        assert_eq!(dice_text(&seen, true), "A [K] Q [J*] 8*");
        let back = parse_dice("A [K] Q [J*] 8*").unwrap();
        assert_eq!(
            back[3],
            Die {
                face: Some(2),
                cup: true,
                thrown: true
            }
        );
        assert_eq!(parse_dice("aa[???]").unwrap().len(), 5);
        assert_eq!(
            parse_dice("as, rey [reina jota roja]").unwrap()[4],
            Die {
                face: Some(1),
                cup: true,
                thrown: false
            }
        );
    }
}
