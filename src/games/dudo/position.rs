//! Dudo positions as players write them: one line of `key: value` items separated by `;`, in
//! the game's words, read back to exactly the view it was written from.
//!
//! ```text
//! rules: Chimbo 9; lives: 3 2 3 1; seat: 3; dice: as, cuadra, cuadra, tonto, cena;
//! opener: seat 1; bids: 3 cuadras, 5 cuadras
//! ```
//!
//! Seats are numbered from 1. The items:
//! - `rules:` the rule set (optional; it must agree with the rules given).
//! - `lives:` each seat's lives (fichas), seat by seat, 0 for a player out; or `palos:` the
//!   palos each seat has taken (Caleuchano: out at the fifth).
//! - `seat:` the player to act, whose position it is (optional: the turn follows from the
//!   opener and the bids).
//! - `dice:` that player's dice under the cup (`1 4 4 2 6`, `as, cuadra, cuadra, tonto, cena`),
//!   or `unseen` after their own mandada reforzada re-rolled them.
//! - `opener:` who opened the round, then as it happened `to the left` / `to the right` (the
//!   direction chosen, Caleuchano), `lost the last round` (they just lost a life, which with
//!   the last life left lets them declare obligado) and `obligado` (declared).
//! - `bids:` every bid and paso of the round in order from the opener (`3 cuadras, 4 quinas,
//!   paso, 5 quinas`), `?` for a bid not remembered (the last bid must be given); an entry may
//!   end `by seat N` (checked). Absent: the round is not open.
//! - `reforzada:` who re-rolled unseen this round and what they set aside: `seat 3 showed
//!   cuadra cuadra, seat 4 showed nothing`.
//! - `out:` the players out in the order they left (optional: by seat number).
//! - `first opener:` the seat that opened the game's first round (optional: this round's opener).
//! - `tallies:` the game's counts so far (`23 bids, 6 doubts, 2 doubts won, …`; optional: the
//!   fewest the position allows). They change no advice; `position` writes them so that a
//!   position reads back to exactly the game it came from. Under `revivir=on`, `2 lives
//!   revived` says revivir was used (once a game) and gave back 2 lives: rounds played are the
//!   lives lost plus those.
//!
//! A position is refused with one line naming what does not fit: a bid that is not a raise of
//! the one before, a turn that does not follow, more dice than a cup holds, a rule the table
//! does not play.

use super::bid::Bid;
use super::engine::{Action, Counts, Direction, DudoState, Seen, CUP};
use super::exact::Situation;
use super::face::{parse_dice, Face};
use super::rules::{RuleSet, Rules};
use super::Dudo;
use crate::error::{Error, Result};
use crate::play::position::{Matches, Positions};
use crate::play::{Seat, Start};
use crate::play::{State, ViewOf};
use crate::rng::{base_stream, Stream};
use crate::text::normalize;

impl Positions for Dudo {
    const POSITION_EXAMPLE: &'static str = "rules: Chimbo 9; lives: 3 2 3 1; seat: 3; dice: as, cuadra, cuadra, tonto, cena; opener: seat 1; bids: 3 cuadras, 5 cuadras";
    /// `tuned` is the strongest bot that answers at once (README: it beats `threshold` per
    /// seat; `ismcts` searches and is far too slow for thousands of rollouts).
    const ROLLOUT_BOTS: &'static str = "tuned";
    const ADVICE_VALUE: &'static str = "chance of winning the game";

    fn write_position(view: &ViewOf<'_, Self>) -> String {
        write(&view.seen())
    }

    fn read_position(rules: &Rules, text: &str, rng: &mut Stream) -> Result<DudoState> {
        let seen = read(rules, text)?;
        let game = DudoState::from_seen(&seen, rng);
        game.check_invariants()
            .map_err(|e| Error::usage(format!("the position does not fit together: {e}")))?;
        Ok(game)
    }

    /// A bid as players say it (`5 cuadras`; twos are `tontos/millas`, the rule sets' two
    /// names), with `reforzada`, `obligado` and `to the left` where chosen; `dudo`, `paso`.
    /// A doubt of the standing bid wins the round exactly when the bid is false: its chance from
    /// the player's own dice and the dice shown, every other die uniform.
    fn exact_notes(game: &DudoState) -> Vec<String> {
        let seen = game.view(game.to_act()).seen();
        let Some(bid) = seen.bid else {
            return Vec::new();
        };
        let mut hand: Vec<Face> = Vec::new();
        let mut shown: Vec<Face> = Vec::new();
        let mut dice = 0u32;
        for (p, counts) in seen.shown.iter().enumerate() {
            if seen.lives[p] == 0 {
                continue;
            }
            dice += CUP as u32;
            for (i, &c) in counts.iter().enumerate() {
                let face = Face::ALL[i];
                for _ in 0..c {
                    if p == seen.seat {
                        hand.push(face);
                    } else {
                        shown.push(face);
                    }
                }
            }
        }
        if let Some(own) = &seen.own {
            hand.extend(own.iter().filter_map(|&d| Face::new(d).ok()));
        }
        let obligado = seen.obligado.is_some();
        let Ok(situation) = Situation::new(dice, hand, shown, seen.rules.bidding, obligado) else {
            return Vec::new();
        };
        let truth = situation.odds(bid).at_least;
        vec![format!(
            "Exact: a doubt of {} wins the round when it is false, {} (your dice, the dice shown, \
             the other {} dice uniform); where the round decides the game that is the doubt's \
             chance of the game.",
            spoken_any(bid),
            crate::humanize::chance(1.0 - truth),
            situation.unknown()
        )]
    }

    fn action_name(action: Action) -> String {
        match action {
            Action::Open {
                bid,
                reinforce,
                direction,
                obligado,
            } => format!(
                "{}{}{}{}",
                spoken_any(bid),
                if obligado { " obligado" } else { "" },
                if reinforce { " reforzada" } else { "" },
                if direction == Direction::Left {
                    " to the left"
                } else {
                    ""
                }
            ),
            Action::Raise { bid, reinforce } => format!(
                "{}{}",
                spoken_any(bid),
                if reinforce { " reforzada" } else { "" }
            ),
            Action::Doubt => "dudo".into(),
            Action::Pass => "paso".into(),
        }
    }
}

/// A bid in words shared by both rule sets: twos by both names, sixes as *sextos*.
fn spoken_any(bid: Bid) -> String {
    let plural = bid.quantity != 1;
    let face = match (bid.face.value(), plural) {
        (2, false) => "tonto/milla",
        (2, true) => "tontos/millas",
        (6, false) => "sexto",
        (6, true) => "sextos",
        _ => bid.face.name(RuleSet::Chimbo9, plural),
    };
    format!("{} {face}", bid.quantity)
}

/// One entry of a round's bids: a bid (`None`: not remembered) or a paso.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    Bid(Option<Bid>),
    Paso,
}

/// The seats in turn order from the round's opener: `len` of them.
fn turn_order(lives: &[u8], opener: usize, step: usize, len: usize) -> Vec<usize> {
    let n = lives.len();
    let mut out = Vec::with_capacity(len);
    let mut p = opener;
    for _ in 0..len {
        out.push(p);
        loop {
            p = (p + step) % n;
            if lives[p] > 0 {
                break;
            }
        }
    }
    out
}

/// The round's entries a view implies: the standing bid where it stands, the pasos at the
/// turns of the seats that passed, `?` for every earlier bid (a view keeps only the standing
/// one).
fn round_entries(seen: &Seen) -> Vec<Entry> {
    let Some(bid) = seen.bid else {
        return Vec::new();
    };
    let passers = seen.passed.iter().filter(|&&p| p).count();
    let k = seen.bids_in_round as usize + passers;
    let seats = turn_order(&seen.lives, seen.opener, seen.step, k);
    let mut entries = vec![Entry::Bid(None); k];
    // The pasos since the standing bid, the last by the pending passer.
    let trailing = match seen.pending_pass {
        None => 0,
        Some(_) => (1..k)
            .find(|&m| {
                seats[k - 1 - m] == seen.bidder
                    && (k - m..k).all(|i| seen.passed[seats[i]])
                    && (k - m..k).all(|i| (i + 1..k).all(|j| seats[j] != seats[i]))
            })
            .unwrap_or(0),
    };
    let at = k.saturating_sub(1 + trailing);
    entries[at] = Entry::Bid(Some(bid));
    let mut placed = vec![false; seen.lives.len()];
    for e in entries.iter_mut().skip(at + 1) {
        *e = Entry::Paso;
    }
    for &s in &seats[at + 1..] {
        placed[s] = true;
    }
    // The other pasos: at the seat's first turn after the opening, before the standing bid.
    for (i, &s) in seats.iter().enumerate().take(at).skip(1) {
        if seen.passed[s] && !placed[s] {
            entries[i] = Entry::Paso;
            placed[s] = true;
        }
    }
    // The bid the standing one raised, where it is known: the last bid before it.
    if let Some(prev) = seen.prev_bid {
        if let Some(e) = entries[..at]
            .iter_mut()
            .rev()
            .find(|e| matches!(e, Entry::Bid(_)))
        {
            *e = Entry::Bid(Some(prev));
        }
    }
    entries
}

/// Seat `p` (0-based) as written: `seat 3`.
fn seat_name(p: usize) -> String {
    format!("seat {}", p + 1)
}

/// Dice in words, singular names of the rule set, `sep` between.
fn dice_words(dice: impl IntoIterator<Item = u8>, set: RuleSet, sep: &str) -> String {
    dice.into_iter()
        .map(|d| Face::ALL[(d - 1) as usize].name(set, false))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The tallies as written and read: plural and singular names, in the order written.
const TALLIES: [(&str, &str); TALLY_COUNT] = [
    ("bids", "bid"),
    ("doubts", "doubt"),
    ("doubts won", "doubt won"),
    ("pasos", "paso"),
    ("pasos doubted", "paso doubted"),
    ("doubted pasos failed", "doubted paso failed"),
    ("reforzadas", "reforzada"),
    ("obligado rounds", "obligado round"),
    ("rounds lost by their opener", "round lost by its opener"),
    ("lives revived", "life revived"),
];

/// The tallies a position may give.
const TALLY_COUNT: usize = 10;
/// The tally of lives given back by revivir: it tells whether revivir is still open and how
/// many rounds the lives lost imply.
const REVIVED: usize = 9;

fn tallies_of(c: &Counts) -> [u32; TALLY_COUNT] {
    [
        c.bids,
        c.doubts,
        c.doubts_won,
        c.passes,
        c.pass_doubts,
        c.pass_doubts_won,
        c.reinforcements,
        c.obligado_rounds,
        c.opener_lost,
        c.revived,
    ]
}

/// The tallies a position implies where they are not given: the fewest that fit (every round
/// played had its opening bid and one doubt), given the doubted pasos.
fn default_tallies(seen: &Seen, pass_doubts: u32) -> [u32; TALLY_COUNT] {
    let passes_now = seen.passed.iter().filter(|&&p| p).count() as u32;
    let reinforced_now = seen.reinforced.iter().filter(|&&r| r).count() as u32;
    [
        seen.rounds + seen.bids_in_round,
        seen.rounds.saturating_sub(pass_doubts),
        0,
        passes_now.saturating_add(pass_doubts),
        0,
        0,
        reinforced_now,
        0,
        0,
        0,
    ]
}

/// The position `seen` shows, in the notation [`read`] reads.
fn write(seen: &Seen) -> String {
    let rules = &seen.rules;
    let set = rules.set();
    let n = seen.lives.len();
    let mut items: Vec<String> = vec![format!("rules: {}", set.title())];
    let join = |v: Vec<String>| v.join(" ");
    if set == RuleSet::Caleuchano {
        items.push(format!(
            "palos: {}",
            join(
                seen.lives
                    .iter()
                    .map(|&l| (rules.lives - l).to_string())
                    .collect()
            )
        ));
    } else {
        items.push(format!(
            "lives: {}",
            join(seen.lives.iter().map(u8::to_string).collect())
        ));
    }
    items.push(format!("seat: {}", seen.seat + 1));
    items.push(match &seen.own {
        Some(own) => format!("dice: {}", dice_words(own.iter().copied(), set, ", ")),
        None => "dice: unseen".into(),
    });
    let mut opener = seat_name(seen.opener);
    if seen.bid.is_some() && rules.choose_direction {
        opener += if seen.step == 1 {
            ", to the right"
        } else {
            ", to the left"
        };
    }
    if seen.obligado_offered {
        opener += ", lost the last round";
    }
    if seen.obligado.is_some() {
        opener += ", obligado";
    }
    items.push(format!("opener: {opener}"));
    let entries = round_entries(seen);
    if !entries.is_empty() {
        let words: Vec<String> = entries
            .iter()
            .map(|e| match e {
                Entry::Bid(Some(b)) => b.spoken(set),
                Entry::Bid(None) => "?".into(),
                Entry::Paso => "paso".into(),
            })
            .collect();
        items.push(format!("bids: {}", words.join(", ")));
    }
    let reinforced: Vec<String> = (0..n)
        .filter(|&p| seen.reinforced[p] && seen.lives[p] > 0)
        .map(|p| {
            let shown: Vec<u8> = (0..6u8)
                .flat_map(|f| std::iter::repeat_n(f + 1, seen.shown[p][f as usize] as usize))
                .collect();
            if shown.is_empty() {
                format!("{} showed nothing", seat_name(p))
            } else {
                format!("{} showed {}", seat_name(p), dice_words(shown, set, " "))
            }
        })
        .collect();
    if !reinforced.is_empty() {
        items.push(format!("reforzada: {}", reinforced.join(", ")));
    }
    // Out in the order they left (the first out has the last place); written when that is
    // not the order of the seats.
    let mut out: Vec<usize> = (0..n).filter(|&p| seen.lives[p] == 0).collect();
    let by_seat = out.clone();
    out.sort_by_key(|&p| std::cmp::Reverse(seen.places[p].unwrap_or(0)));
    if out != by_seat {
        let names: Vec<String> = out.iter().map(|&p| seat_name(p)).collect();
        items.push(format!("out: {}", names.join(", ")));
    }
    if seen.first_opener != seen.opener {
        items.push(format!("first opener: {}", seat_name(seen.first_opener)));
    }
    let actual = tallies_of(&seen.counts);
    let defaults = default_tallies(seen, actual[4]);
    let tallies: Vec<String> = (0..TALLY_COUNT)
        .filter(|&i| actual[i] != defaults[i])
        .map(|i| {
            let (plural, singular) = TALLIES[i];
            format!(
                "{} {}",
                actual[i],
                if actual[i] == 1 { singular } else { plural }
            )
        })
        .collect();
    if !tallies.is_empty() {
        items.push(format!("tallies: {}", tallies.join(", ")));
    }
    items.join("; ")
}

/// The keys of a position, for messages.
const KEYS: &str =
    "rules, lives (or palos), seat, dice, opener, bids, reforzada, out, first opener, tallies";

/// A position's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Rules,
    Lives,
    Palos,
    Seat,
    Dice,
    Opener,
    Bids,
    Reforzada,
    Out,
    FirstOpener,
    Tallies,
}

impl Key {
    fn parse(word: &str) -> Option<Key> {
        let w: String = normalize(word)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Some(match w.as_str() {
            "rules" | "rule set" | "reglas" => Key::Rules,
            "lives" | "fichas" | "vidas" => Key::Lives,
            "palos" => Key::Palos,
            "seat" | "me" | "you" | "to act" | "turn" => Key::Seat,
            "dice" | "my dice" | "hand" | "cup" | "dados" => Key::Dice,
            "opener" | "opens" => Key::Opener,
            "bids" | "mandadas" => Key::Bids,
            "reforzada" | "reforzadas" | "shown" => Key::Reforzada,
            "out" => Key::Out,
            "first opener" => Key::FirstOpener,
            "tallies" => Key::Tallies,
            _ => return None,
        })
    }
}

/// Splits a position into its items, refusing an item without a key, an unknown key and a
/// key given twice (lives and palos count as one).
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
        let same = |a: Key| matches!(a, Key::Lives | Key::Palos);
        if out.iter().any(|(o, _)| *o == k || (same(*o) && same(k))) {
            return Err(Error::usage(format!(
                "position key '{}' is given twice: give each once (lives or palos, not both)",
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

/// Whole numbers separated by spaces or commas.
fn parse_numbers(text: &str, what: &str) -> Result<Vec<u32>> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<u32>().map_err(|_| {
                Error::usage(format!(
                    "{what}: '{w}' is not a whole number: give one number per seat, e.g. {what}: 3 2 3 0"
                ))
            })
        })
        .collect()
}

/// The opener's item: the seat, then the direction, `lost the last round` and `obligado`.
struct OpenerItem {
    seat: usize,
    left: Option<bool>,
    lost_last: bool,
    obligado: bool,
}

fn parse_opener(text: &str, n: usize) -> Result<OpenerItem> {
    let mut parts = text.split(',').map(str::trim);
    let seat = parse_seat(parts.next().unwrap_or(""), "opener", n)?;
    let mut item = OpenerItem {
        seat,
        left: None,
        lost_last: false,
        obligado: false,
    };
    for part in parts.filter(|p| !p.is_empty()) {
        let w: String = normalize(part)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let w = w.strip_prefix("to the ").unwrap_or(&w);
        match w {
            "left" | "izquierda" | "a la izquierda" => item.left = Some(true),
            "right" | "derecha" | "a la derecha" => item.left = Some(false),
            "lost the last round" | "lost last round" | "just lost" => item.lost_last = true,
            "obligado" => item.obligado = true,
            _ => {
                return Err(Error::usage(format!(
                    "opener: '{part}' is not understood: after the seat give to the left, to the right, lost the last round or obligado"
                )))
            }
        }
    }
    Ok(item)
}

/// One written entry of `bids:`, with the seat it names, if any.
struct Written {
    entry: Entry,
    reforzada: bool,
    seat: Option<usize>,
    text: String,
}

fn parse_bids(text: &str, n: usize) -> Result<Vec<Written>> {
    let mut out = Vec::new();
    for raw in text.split(',').map(str::trim) {
        if raw.is_empty() {
            return Err(Error::usage(format!(
                "bids: an empty entry in '{text}': give each bid or paso once, separated by commas"
            )));
        }
        let mut rest = normalize(raw);
        let mut seat = None;
        if let Some(at) = rest.rfind("by seat") {
            seat = Some(parse_seat(&rest[at + 3..], "bids", n)?);
            rest = rest[..at].trim().to_string();
        }
        let mut reforzada = false;
        if let Some(r) = rest.strip_suffix("reforzada") {
            reforzada = true;
            rest = r.trim().to_string();
        }
        let entry = match rest.as_str() {
            "?" => Entry::Bid(None),
            "paso" | "pass" => Entry::Paso,
            w if ["left", "right", "obligado", "izquierda", "derecha"]
                .iter()
                .any(|x| w.contains(x)) =>
            {
                return Err(Error::usage(format!(
                    "bids: '{raw}': the direction and obligado go with the opener (opener: seat 1, to the left, obligado), not in bids"
                )))
            }
            w => Entry::Bid(Some(Bid::parse(w).map_err(|e| {
                Error::usage(format!(
                    "bids: {e} (each entry is a bid such as 5 cuadras, paso, or ? for a bid not remembered)"
                ))
            })?)),
        };
        if reforzada && entry == Entry::Paso {
            return Err(Error::usage(format!(
                "bids: '{raw}': a paso cannot be reforzada: only a bid is"
            )));
        }
        out.push(Written {
            entry,
            reforzada,
            seat,
            text: raw.to_string(),
        });
    }
    Ok(out)
}

/// `reforzada:` items: each seat with the dice it set aside, by face.
fn parse_reforzada(text: &str, n: usize) -> Result<Vec<(usize, [u8; 6])>> {
    let mut out: Vec<(usize, [u8; 6])> = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    // Dice may be separated by commas too: an item that does not name a seat continues the
    // one before.
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let w = normalize(part);
        if w.starts_with("seat") || w.starts_with("asiento") || groups.is_empty() {
            groups.push(w);
        } else if let Some(last) = groups.last_mut() {
            last.push(' ');
            last.push_str(&w);
        }
    }
    for g in groups {
        let (who, dice) = match g.find("showed").or_else(|| g.find("shows")) {
            Some(at) => {
                let word = if g[at..].starts_with("showed") { 6 } else { 5 };
                (
                    g[..at].trim().to_string(),
                    g[at + word..].trim().to_string(),
                )
            }
            None => (g.clone(), String::new()),
        };
        let seat = parse_seat(&who, "reforzada", n)?;
        let mut shown = [0u8; 6];
        if !matches!(dice.as_str(), "" | "nothing" | "none" | "nada") {
            let faces = parse_dice(&dice, "reforzada dice").map_err(|_| {
                Error::usage(format!(
                    "reforzada: '{dice}' are not dice: write seat 3 showed cuadra cuadra (or showed nothing)"
                ))
            })?;
            if faces.len() > CUP {
                return Err(Error::usage(format!(
                    "reforzada: {} showed {} dice, but a cup holds {CUP}",
                    seat_name(seat),
                    faces.len()
                )));
            }
            for f in faces {
                shown[f.index()] += 1;
            }
        }
        if out.iter().any(|(s, _)| *s == seat) {
            return Err(Error::usage(format!(
                "reforzada: {} is listed twice: give all the dice it set aside this round once",
                seat_name(seat)
            )));
        }
        out.push((seat, shown));
    }
    Ok(out)
}

/// `tallies:` items, each a number and a name.
fn parse_tallies(text: &str) -> Result<[Option<u32>; TALLY_COUNT]> {
    let mut out = [None; TALLY_COUNT];
    let names: Vec<&str> = TALLIES.iter().map(|(p, _)| *p).collect();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let w = normalize(part);
        let (num, name) = w.split_once(' ').unwrap_or((&w, ""));
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let i = TALLIES
            .iter()
            .position(|(p, s)| *p == name || *s == name)
            .ok_or_else(|| {
                Error::usage(format!(
                    "tallies: '{part}' is not a tally: give a number and one of {}",
                    names.join(", ")
                ))
            })?;
        let v = num.parse::<u32>().map_err(|_| {
            Error::usage(format!(
                "tallies: '{part}' has no count: write e.g. 23 bids"
            ))
        })?;
        if out[i].replace(v).is_some() {
            return Err(Error::usage(format!(
                "tallies: {} is given twice",
                TALLIES[i].0
            )));
        }
    }
    Ok(out)
}

/// Why `action` is not legal for seat `seat` when the round stands at `bid`, if it is not (a
/// probe game with the position's table: the engine's own rules decide): what a raise on the
/// action's face would take.
fn refused(seen: &Seen, seat: usize, bid: Option<Bid>, action: Action) -> Option<String> {
    let mut probe = seen.clone();
    probe.to_act = seat;
    probe.bid = bid;
    probe.bidder = seen.opener;
    probe.pending_pass = None;
    probe.own = None;
    probe.obligado = match (seen.obligado, bid) {
        (Some((_, obliger)), Some(b)) => Some((b.face, obliger)),
        _ => None,
    };
    let game = DudoState::from_seen(&probe, &mut base_stream(0));
    let view = game.view(seat);
    if view.is_legal(action) {
        return None;
    }
    let Action::Raise { bid: next, .. } = action else {
        return Some(String::new());
    };
    let faces = next.face.name(seen.rules.set(), true);
    Some(
        match (view.min_raise(next.face), view.forbidden_raise(next.face)) {
            (None, _) => format!(" (no raise on {faces} is legal here)"),
            (Some(min), Some(gap)) => format!(" (on {faces}: {min} or more, but not {gap})"),
            (Some(min), None) => format!(" (on {faces}: {min} or more)"),
        },
    )
}

/// Reads a position at `rules` (see the module's documentation), refusing it with one line that
/// names what does not fit.
fn read(rules: &Rules, text: &str) -> Result<Seen> {
    let set = rules.set();
    let n = rules.players as usize;
    let items = items(text)?;
    let get = |k: Key| items.iter().find(|(o, _)| *o == k).map(|(_, v)| v.as_str());
    if let Some(r) = get(Key::Rules) {
        read_rules(rules, r)?;
    }

    // Lives.
    let lives: Vec<u8> = match (get(Key::Lives), get(Key::Palos)) {
        (Some(l), _) => {
            let v = parse_numbers(l, "lives")?;
            check_count(v.len(), n, "lives")?;
            v.iter()
                .enumerate()
                .map(|(p, &x)| {
                    if x > rules.lives as u32 {
                        Err(Error::usage(format!(
                            "lives: {} has {x} lives but the table plays with {} (give 0 to {} per seat)",
                            seat_name(p),
                            rules.lives,
                            rules.lives
                        )))
                    } else {
                        Ok(x as u8)
                    }
                })
                .collect::<Result<_>>()?
        }
        (None, Some(p)) => {
            let v = parse_numbers(p, "palos")?;
            check_count(v.len(), n, "palos")?;
            v.iter()
                .enumerate()
                .map(|(s, &x)| {
                    if x > rules.lives as u32 {
                        Err(Error::usage(format!(
                            "palos: {} has {x} palos but a player is out at {} (give 0 to {} per seat)",
                            seat_name(s),
                            rules.lives,
                            rules.lives
                        )))
                    } else {
                        Ok(rules.lives - x as u8)
                    }
                })
                .collect::<Result<_>>()?
        }
        (None, None) => {
            return Err(Error::usage(format!(
                "the position has no lives: give each seat's lives, e.g. lives: {}",
                vec![rules.lives.to_string(); n].join(" ")
            )))
        }
    };
    let players_in = lives.iter().filter(|&&l| l > 0).count();
    if players_in < 2 {
        return Err(Error::usage(format!(
            "lives: {} player{} left: the game is over; a position needs two or more players with lives",
            players_in,
            if players_in == 1 { " is" } else { "s are" }
        )));
    }
    // The tallies, read first: lives revived are rounds played that the lives do not show.
    let given = match get(Key::Tallies) {
        Some(t) => parse_tallies(t)?,
        None => [None; TALLY_COUNT],
    };
    let revived = given[REVIVED].unwrap_or(0);
    let lives_word = if revived == 1 { "life" } else { "lives" };
    if revived > 0 && !rules.revivir {
        return Err(Error::usage(format!(
            "tallies: {revived} {lives_word} revived, but the table does not play revivir (revivir=on)"
        )));
    }
    if revived as usize > n {
        return Err(Error::usage(format!(
            "tallies: {revived} {lives_word} revived, but revivir gives back at most one life to each of the {n} players, once"
        )));
    }
    let rounds: u32 = lives
        .iter()
        .map(|&l| u32::from(rules.lives - l))
        .sum::<u32>()
        + revived;

    // The round: the opener, the direction, the bids.
    let bids = match get(Key::Bids) {
        Some(b) => parse_bids(b, n)?,
        None => Vec::new(),
    };
    let opener =
        match (get(Key::Opener), get(Key::Seat)) {
            (Some(o), _) => parse_opener(o, n)?,
            (None, Some(s)) if bids.is_empty() => OpenerItem {
                seat: parse_seat(s, "seat", n)?,
                left: None,
                lost_last: false,
                obligado: false,
            },
            _ => return Err(Error::usage(
                "the position has no opener: give opener: seat N (who made the round's first bid)",
            )),
        };
    if lives[opener.seat] == 0 {
        return Err(Error::usage(format!(
            "opener: {} is out (no lives): the opener is a player still in",
            seat_name(opener.seat)
        )));
    }
    let left = opener.left.unwrap_or(false);
    if bids.is_empty() && opener.left.is_some() {
        return Err(Error::usage(
            "opener: the direction is chosen with the opening bid: give bids, or leave the direction out",
        ));
    }
    if left && !rules.choose_direction {
        return Err(Error::usage(format!(
            "opener: {} plays always to the right: drop 'to the left' (or add --house direction=choose)",
            set.title()
        )));
    }
    let step = if left { n - 1 } else { 1 };
    let seats = turn_order(&lives, opener.seat, step, bids.len() + 1);
    let to_act = seats[bids.len()];
    if let Some(s) = get(Key::Seat) {
        let s = parse_seat(s, "seat", n)?;
        if s != to_act {
            return Err(Error::usage(if bids.is_empty() {
                format!(
                    "seat: {} is not to act: the round is not open, so the opener, {}, acts (give the bids of the round so far)",
                    seat_name(s),
                    seat_name(to_act)
                )
            } else {
                format!(
                    "seat: {} is not to act: after {} from the opener, {} (to the {}), {} acts; list every bid and paso of the round, ? for a bid not remembered",
                    seat_name(s),
                    if bids.len() == 1 {
                        "1 bid".to_string()
                    } else {
                        format!("{} bids and pasos", bids.len())
                    },
                    seat_name(opener.seat),
                    if left { "left" } else { "right" },
                    seat_name(to_act)
                )
            }));
        }
    }
    for (i, w) in bids.iter().enumerate() {
        if let Some(s) = w.seat {
            if s != seats[i] {
                return Err(Error::usage(format!(
                    "bids: '{}' is not {}'s: from the opener, {}, entry {} is {}'s turn",
                    w.text,
                    seat_name(s),
                    seat_name(opener.seat),
                    i + 1,
                    seat_name(seats[i])
                )));
            }
        }
    }

    // Obligado: offered to an opener who just lost down to the last life.
    if opener.lost_last && lives[opener.seat] == rules.lives {
        return Err(Error::usage(format!(
            "opener: {} 'lost the last round' but has all its lives: drop it, or give the lives it has",
            seat_name(opener.seat)
        )));
    }
    let offered = opener.lost_last && lives[opener.seat] == 1 && rules.lives > 1;
    if opener.obligado {
        if !rules.obligado {
            return Err(Error::usage(format!(
                "opener: obligado is not played at this table ({}): drop it, or add --house obligado=on under Caleuchano",
                set.title()
            )));
        }
        if !offered {
            return Err(Error::usage(format!(
                "opener: obligado needs an opener who just lost down to the last life: {} has {} and must have lost the last round (add 'lost the last round')",
                seat_name(opener.seat),
                if lives[opener.seat] == 1 {
                    "1 life".to_string()
                } else {
                    format!("{} lives", lives[opener.seat])
                }
            )));
        }
        if players_in < 3 {
            return Err(Error::usage("opener: no obligado with two players left"));
        }
        if bids.is_empty() {
            return Err(Error::usage(
                "opener: obligado is declared with the opening bid: give bids, or leave obligado out",
            ));
        }
    }

    // Pasos and the standing bid.
    let mut passed = vec![false; n];
    let mut bids_in_round = 0u32;
    for (i, w) in bids.iter().enumerate() {
        match w.entry {
            Entry::Paso => {
                if i == 0 {
                    return Err(Error::usage(
                        "bids: the opener must bid: the first entry cannot be paso",
                    ));
                }
                if !rules.paso {
                    return Err(Error::usage(format!(
                        "bids: {} has no paso: drop it (or add --house paso=on)",
                        set.title()
                    )));
                }
                if std::mem::replace(&mut passed[seats[i]], true) {
                    return Err(Error::usage(format!(
                        "bids: {} passes twice in one round: paso is once per round",
                        seat_name(seats[i])
                    )));
                }
            }
            Entry::Bid(_) => bids_in_round += 1,
        }
    }
    let last_bid = bids.iter().rposition(|w| matches!(w.entry, Entry::Bid(_)));
    // The bid the standing one raised: the bid entry before it.
    let prev_bid = last_bid
        .and_then(|i| {
            bids[..i].iter().rev().find_map(|w| match w.entry {
                Entry::Bid(b) => Some(b),
                Entry::Paso => None,
            })
        })
        .flatten();
    let (bid, bidder) = match last_bid {
        None => (None, opener.seat),
        Some(i) => match bids[i].entry {
            Entry::Bid(Some(b)) => (Some(b), seats[i]),
            _ => {
                return Err(Error::usage(
                    "bids: the standing bid (the last bid of the round) must be given, not ?",
                ))
            }
        },
    };
    let pending_pass = match bids.last().map(|w| w.entry) {
        Some(Entry::Paso) => Some(seats[bids.len() - 1]),
        _ => None,
    };

    // Reforzadas: who set dice aside, and what.
    let mut shown = vec![[0u8; 6]; n];
    let mut reinforced = vec![false; n];
    let listed = match get(Key::Reforzada) {
        Some(r) => parse_reforzada(r, n)?,
        None => Vec::new(),
    };
    if !listed.is_empty() && !rules.reforzada {
        return Err(Error::usage(format!(
            "reforzada: {} has no mandada reforzada: drop it (or add --house reforzada=on)",
            set.title()
        )));
    }
    for &(s, dice) in &listed {
        if lives[s] == 0 {
            return Err(Error::usage(format!(
                "reforzada: {} is out and has no dice",
                seat_name(s)
            )));
        }
        let mine: Vec<&Written> = bids
            .iter()
            .enumerate()
            .filter(|&(i, w)| seats[i] == s && matches!(w.entry, Entry::Bid(_)))
            .map(|(_, w)| w)
            .collect();
        if mine.is_empty() {
            return Err(Error::usage(format!(
                "reforzada: {} has made no bid this round: a reforzada comes with a bid",
                seat_name(s)
            )));
        }
        // Shown dice show the face of a bid the seat reinforced: checkable when every bid of
        // the seat is known.
        if mine.iter().all(|w| w.entry != Entry::Bid(None)) {
            for f in Face::ALL {
                let bid_it = mine
                    .iter()
                    .any(|w| matches!(w.entry, Entry::Bid(Some(b)) if b.face == f));
                if dice[f.index()] > 0 && !bid_it {
                    return Err(Error::usage(format!(
                        "reforzada: {} showed {} but bid no {} this round: a reforzada sets aside dice of the face bid",
                        seat_name(s),
                        f.name(set, true),
                        f.name(set, true)
                    )));
                }
            }
        }
        shown[s] = dice;
        reinforced[s] = true;
    }
    for (i, w) in bids.iter().enumerate() {
        if w.reforzada && !reinforced[seats[i]] {
            return Err(Error::usage(format!(
                "bids: '{}' is reforzada: say what {} set aside, e.g. reforzada: {} showed quina quina (or showed nothing)",
                w.text,
                seat_name(seats[i]),
                seat_name(seats[i])
            )));
        }
    }

    // The player's own dice.
    let me = to_act;
    let cup = CUP - shown[me].iter().map(|&c| c as usize).sum::<usize>();
    let own = match get(Key::Dice).map(normalize) {
        Some(d) if matches!(d.as_str(), "unseen" | "hidden" | "?") => {
            if !reinforced[me] {
                return Err(Error::usage(format!(
                    "dice: {} has not re-rolled unseen (no reforzada this round): give its {cup} dice, e.g. dice: 1 4 4 2 6",
                    seat_name(me)
                )));
            }
            None
        }
        Some(d) => {
            if reinforced[me] {
                return Err(Error::usage(format!(
                    "dice: {} re-rolled its cup unseen with its reforzada, so nobody knows those dice: write dice: unseen",
                    seat_name(me)
                )));
            }
            let faces = parse_dice(&d, "dice")?;
            if faces.len() != cup {
                return Err(Error::usage(format!(
                    "dice: {} dice given but {} has {cup} under the cup: give them all, e.g. dice: 1 4 4 2 6",
                    faces.len(),
                    seat_name(me)
                )));
            }
            Some(faces.iter().map(|f| f.value()).collect())
        }
        None if reinforced[me] => None,
        None => {
            return Err(Error::usage(format!(
                "the position has no dice: give the dice of {} (to act), e.g. dice: 1 4 4 2 6",
                seat_name(me)
            )))
        }
    };

    // Who left, and when.
    let out_by_seat: Vec<usize> = (0..n).filter(|&p| lives[p] == 0).collect();
    let out = match get(Key::Out) {
        None => out_by_seat.clone(),
        Some(o) => {
            let list: Vec<usize> = o
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(|w| parse_seat(w, "out", n))
                .collect::<Result<_>>()?;
            for &p in &list {
                if lives[p] > 0 {
                    return Err(Error::usage(format!(
                        "out: {} still has lives: list the seats with none, in the order they left",
                        seat_name(p)
                    )));
                }
            }
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted != out_by_seat || list.len() != sorted.len() {
                return Err(Error::usage(format!(
                    "out: list each seat with no lives once ({}), in the order they left",
                    out_by_seat
                        .iter()
                        .map(|&p| seat_name(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            list
        }
    };
    let mut places = vec![None; n];
    for (j, &p) in out.iter().enumerate() {
        places[p] = Some((n - 1 - j) as u8);
    }
    let first_opener = match get(Key::FirstOpener) {
        None => opener.seat,
        Some(f) => {
            let f = parse_seat(f, "first opener", n)?;
            if rounds == 0 && f != opener.seat {
                return Err(Error::usage(format!(
                    "first opener: no round has been played yet (every seat has all its lives), so the first opener is this round's, {}",
                    seat_name(opener.seat)
                )));
            }
            f
        }
    };

    let mut seen = Seen {
        rules: *rules,
        seat: me,
        lives,
        shown,
        reinforced,
        passed,
        own,
        opener: opener.seat,
        first_opener,
        step,
        bid,
        prev_bid,
        bidder,
        to_act,
        obligado: opener
            .obligado
            .then(|| (bid.map(|b| b.face).unwrap_or(Face::ACE), opener.seat)),
        obligado_offered: offered,
        pending_pass,
        bids_in_round,
        rounds,
        counts: Counts::default(),
        places,
    };

    // Every known bid against the known bid before it, by the engine's rules.
    let mut prev: Option<Option<Bid>> = None; // None: no bid yet; Some(None): a ? bid
    for (i, w) in bids.iter().enumerate() {
        let Entry::Bid(this) = w.entry else { continue };
        if let Some(b) = this {
            let max = seen.lives.iter().filter(|&&l| l > 0).count() as u32 * CUP as u32;
            let bonus = rules.bidding.counting(b.face, opener.obligado).bonus;
            if b.quantity > max + bonus {
                return Err(Error::usage(format!(
                    "bids: {} names more dice than the {max} on the table{}",
                    b.spoken(set),
                    if bonus > 0 {
                        " and the millas bonus"
                    } else {
                        ""
                    }
                )));
            }
            match prev {
                None => {
                    let open = Action::Open {
                        bid: b,
                        reinforce: false,
                        direction: if left {
                            Direction::Left
                        } else {
                            Direction::Right
                        },
                        obligado: opener.obligado,
                    };
                    if refused(&seen, seats[i], None, open).is_some() {
                        return Err(Error::usage(format!(
                            "bids: {} cannot open this round (an obligado opening names at most the {max} dice on the table)",
                            b.spoken(set)
                        )));
                    }
                }
                Some(Some(p)) => {
                    let raise = Action::Raise {
                        bid: b,
                        reinforce: false,
                    };
                    if let Some(hint) = refused(&seen, seats[i], Some(p), raise) {
                        return Err(Error::usage(format!(
                            "bids: {} by {} is not a legal raise over {}{hint}{}",
                            b.spoken(set),
                            seat_name(seats[i]),
                            p.spoken(set),
                            if opener.obligado {
                                " in this obligado round (the face is fixed but for the obliger and players on their last life)"
                            } else {
                                ""
                            }
                        )));
                    }
                }
                Some(None) => {}
            }
        }
        prev = Some(this);
    }

    // The tallies.
    seen.counts.revived = revived;
    let mut t = default_tallies(&seen, given[4].unwrap_or(0));
    for (t, g) in t.iter_mut().zip(given) {
        if let Some(v) = g {
            *t = v;
        }
    }
    let passes_now = seen.passed.iter().filter(|&&p| p).count() as u32;
    let reinforced_now = seen.reinforced.iter().filter(|&&r| r).count() as u32;
    let fail = |what: String| Err(Error::usage(format!("tallies: {what}")));
    if u64::from(t[1]) + u64::from(t[4]) != u64::from(rounds) {
        return fail(format!(
            "{} doubts and {} doubted pasos, but the lives lost say {rounds} rounds were played (one doubt ends each)",
            t[1], t[4]
        ));
    }
    if t[0] < rounds + bids_in_round {
        return fail(format!(
            "{} bids, but {rounds} rounds played and {bids_in_round} bids this round make at least {}",
            t[0],
            rounds + bids_in_round
        ));
    }
    if t[2] > t[1] || t[5] > t[4] {
        return fail("more doubts won than doubts made".into());
    }
    if u64::from(t[3]) < u64::from(t[4]) + u64::from(passes_now) {
        return fail(format!(
            "{} pasos, but {} were doubted and {passes_now} made this round",
            t[3], t[4]
        ));
    }
    if t[6] < reinforced_now {
        return fail(format!(
            "{} reforzadas, but {reinforced_now} seats reinforced this round",
            t[6]
        ));
    }
    if t[7] > rounds || t[8] > rounds {
        return fail(format!("more than the {rounds} rounds played"));
    }
    if (!rules.paso && t[3] > 0) || (!rules.reforzada && t[6] > 0) || (!rules.obligado && t[7] > 0)
    {
        return fail(format!(
            "a rule {} does not play (paso, reforzada or obligado)",
            set.title()
        ));
    }
    seen.counts = Counts {
        bids: t[0],
        doubts: t[1],
        doubts_won: t[2],
        passes: t[3],
        pass_doubts: t[4],
        pass_doubts_won: t[5],
        reinforcements: t[6],
        obligado_rounds: t[7],
        opener_lost: t[8],
        revived: t[REVIVED],
    };
    Ok(seen)
}

/// Checks a position's `rules:` item against the table's rule set.
fn read_rules(rules: &Rules, r: &str) -> Result<()> {
    let set = rules.set();
    let given = RuleSet::parse(r).ok_or_else(|| {
        Error::usage(format!(
            "rules: '{r}' is not a rule set: {}",
            RuleSet::ACCEPTS
        ))
    })?;
    if given != set {
        return Err(Error::usage(format!(
            "rules: the position is {} but the table plays {}: give --rules {} or change the position",
            given.title(),
            set.title(),
            given.key()
        )));
    }
    Ok(())
}

/// A Dudo match state: each seat's lives (every seat still in) and, if given, who opens the
/// first round (else the rule set chooses, as for a new game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DudoMatch {
    /// Lives by seat, each from 1 to the table's lives.
    pub lives: Vec<u8>,
    /// The first round's opener, or `None` for the rule set's choice.
    pub opener: Option<Seat>,
}

impl Matches for Dudo {
    type Match = DudoMatch;
    const MATCH_EXAMPLE: &'static str = "lives: 3 2 1";
    const MATCH_FLAG: Option<&'static str> = Some("lives");

    fn read_match(rules: &Rules, text: &str) -> Result<DudoMatch> {
        let n = rules.players as usize;
        let mut lives: Option<Vec<u8>> = None;
        let mut opener = None;
        for (key, value) in items(text)? {
            match key {
                Key::Rules => {
                    // Checked exactly as a position's rules are.
                    read_rules(rules, &value)?;
                }
                Key::Lives | Key::Palos => {
                    let palos = key == Key::Palos;
                    let what = if palos { "palos" } else { "lives" };
                    let v = parse_numbers(&value, what)?;
                    check_count_in(v.len(), n, what)?;
                    let mut out = Vec::with_capacity(n);
                    for (p, &x) in v.iter().enumerate() {
                        let l = if palos { (rules.lives as u32).checked_sub(x) } else { Some(x) };
                        match l {
                            Some(l) if (1..=rules.lives as u32).contains(&l) => out.push(l as u8),
                            _ => {
                                let out = if l == Some(0) {
                                    format!(" (a player out is not at the table: leave them out and give one fewer --players, {})", n - 1)
                                } else {
                                    String::new()
                                };
                                return Err(Error::usage(format!(
                                    "{what}: {} has {x} {what}: give {} per seat at a table of {} lives{out}",
                                    seat_name(p),
                                    if palos { format!("0 to {}", rules.lives - 1) } else { format!("1 to {}", rules.lives) },
                                    rules.lives,
                                )))
                            }
                        }
                    }
                    lives = Some(out);
                }
                Key::Opener => opener = Some(parse_seat(&value, "opener", n)?),
                _ => {
                    return Err(Error::usage(format!(
                        "a match state holds lives (or palos), rules and opener: '{}' belongs to a position (which also names its seat: seat: N)",
                        text.trim()
                    )))
                }
            }
        }
        let lives = lives.ok_or_else(|| {
            Error::usage(format!(
                "the match state has no lives: give each seat's lives, e.g. lives: {}",
                vec![rules.lives.to_string(); n].join(" ")
            ))
        })?;
        Ok(DudoMatch { lives, opener })
    }

    fn write_match(rules: &Rules, m: &DudoMatch) -> String {
        let lives: Vec<String> = m.lives.iter().map(u8::to_string).collect();
        let mut out = format!("rules: {}; lives: {}", rules.set().title(), lives.join(" "));
        if let Some(o) = m.opener {
            out.push_str(&format!("; opener: {}", seat_name(o)));
        }
        out
    }

    fn deal_from_match(
        rules: &Rules,
        m: &DudoMatch,
        _start: &Start,
        rng: &mut Stream,
    ) -> DudoState {
        let fresh = m.opener.is_none() && m.lives.iter().all(|&l| l == rules.lives);
        DudoState::dealt_from(*rules, (!fresh).then_some(&m.lives[..]), m.opener, rng)
    }

    /// Two players whose rounds are the solved five-dice duel: both playing it, each round's
    /// opener wins with the chance the shipped sheet states and the loser opens the next
    /// ([`super::duel::equity`]). Each round costs one life whatever the lives, so playing the
    /// round's equilibrium is playing the match's.
    fn solved_equity(rules: &Rules, m: &DudoMatch) -> Option<(Vec<f64>, String)> {
        use super::duel::equity::{match_chance, rounds_are_the_solved_duel, shipped_round_value};
        if m.lives.len() != 2 || !rounds_are_the_solved_duel(rules) {
            return None;
        }
        let p = (1.0 + shipped_round_value(rules.set())?) / 2.0;
        let first = match_chance(p, [m.lives[0], m.lives[1]], m.opener);
        let note = format!(
            "Solved duel: both players play the five-dice round solved by CFR+ (data/dudo/duel-{}.md; the `duel` strategy), whose opener wins {:.2} %; the loser of a round opens the next; exact over every sequence of rounds (the solved round is an abstraction: see its exploitability there).",
            rules.set().key(),
            100.0 * p
        );
        Some((vec![first, 1.0 - first], note))
    }

    fn players_of_match(value: &str) -> Option<usize> {
        let n = value
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .count();
        (n >= 2).then_some(n)
    }

    /// Every way to share lives among the seats with seat 1 the richest, seat 2 next, …: each
    /// seat from 1 to the table's lives, not more than the seat before.
    fn equity_grid(rules: &Rules) -> Vec<DudoMatch> {
        fn fill(seat: usize, n: usize, most: u8, lives: &mut Vec<u8>, out: &mut Vec<DudoMatch>) {
            if seat == n {
                out.push(DudoMatch {
                    lives: lives.clone(),
                    opener: None,
                });
                return;
            }
            for l in (1..=most).rev() {
                lives.push(l);
                fill(seat + 1, n, l, lives, out);
                lives.pop();
            }
        }
        let mut out = Vec::new();
        fill(
            0,
            rules.players as usize,
            rules.lives,
            &mut Vec::new(),
            &mut out,
        );
        out
    }
}

/// Refuses a match state's list of per-seat values of the wrong length.
fn check_count_in(got: usize, n: usize, what: &str) -> Result<()> {
    if got != n {
        return Err(Error::usage(format!(
            "{what}: {got} values but the table has {n} players (--players {n}): give one per seat, or --players {got}"
        )));
    }
    Ok(())
}

/// Refuses a list of per-seat values of the wrong length.
fn check_count(got: usize, n: usize, what: &str) -> Result<()> {
    if got != n {
        return Err(Error::usage(format!(
            "{what}: {got} values but the table has {n} players (--players {n}): give one per seat, 0 for a player out"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spoken_bids_fit_both_rule_sets() {
        let b = |q, f| Bid {
            quantity: q,
            face: Face::new(f).unwrap(),
        };
        assert_eq!(spoken_any(b(5, 4)), "5 cuadras");
        assert_eq!(spoken_any(b(1, 1)), "1 as");
        assert_eq!(spoken_any(b(3, 2)), "3 tontos/millas");
        assert_eq!(spoken_any(b(1, 6)), "1 sexto");
        for q in [1, 3] {
            for f in 1..=6 {
                let words = spoken_any(b(q, f));
                let first = words.split('/').next().unwrap();
                assert_eq!(Bid::parse(first).unwrap(), b(q, f), "{words}");
            }
        }
    }

    #[test]
    fn turn_order_skips_players_out() {
        assert_eq!(turn_order(&[3, 0, 2, 1], 0, 1, 5), [0, 2, 3, 0, 2]);
        assert_eq!(turn_order(&[3, 0, 2, 1], 0, 3, 4), [0, 3, 2, 0]);
    }
}
