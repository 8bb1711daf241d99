//! The solved duel as a player: a [`DuelTable`] read from a sheet CSV (`duel-<rules>.csv`,
//! written by `tahur dudo duel --sheet-dir`; gzipped as shipped) answers every spot of a
//! five-dice duel with the solved frequencies, so the `duel` strategy plays the equilibrium of
//! the abstraction wherever the game is that duel, and its fallback (`tuned`) everywhere else.
//!
//! The table is keyed by what the engine shows, not by the solver's indices: the side to act
//! (the round's opener or the other), the standing bid as a quantity and a face, the face of
//! the bid before it (a table solved with `--memory face`), the passes spent and whether a
//! pass is to be answered, and the hand as face counts. So one table serves
//! any rule set whose bids it names; an action the rules do not allow is never played (the
//! fallback decides then).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::game::DuelGame;
use super::sheet::CSV_HEADER;
use crate::error::{Error, Result};
use crate::games::dudo::engine::{Action, Direction, View, CUP};
use crate::games::dudo::{Bid, Face, RuleSet};
use crate::play::PlayerView;
use crate::rng::Rng;

/// Highest bid quantity a table can hold (five dice a side and the millas bonus stay far below).
const MAX_TABLE_QUANTITY: u32 = 31;

/// Bid slots of a spot key: the opening, then every (quantity, face).
const BID_SLOTS: usize = 1 + (MAX_TABLE_QUANTITY as usize + 1) * 6;

/// Spot keys: side (2) × passes spent (4) × after a pass (2) × the face of the bid before
/// (none or one of six) × bid slots.
const SPOT_KEYS: usize = 16 * 7 * BID_SLOTS;

/// Hands are looked up by their face counts in base 6 (each count 0..=5).
const HAND_KEYS: usize = 46_656;

/// "No entry" in the dense key arrays.
const NONE: u32 = u32::MAX;

/// An action of the table, as the engine names bids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMove {
    /// «Dudo».
    Doubt,
    /// Paso.
    Pass,
    /// Open with, or raise to, this bid.
    Bid(Bid),
}

/// A solved duel strategy, ready to play: for each spot and hand, the actions with their
/// cumulative frequencies.
#[derive(Debug)]
pub struct DuelTable {
    /// Dice in each cup of the solved duel.
    dice_each: u32,
    /// Whether the spots know the face of the bid before the standing one (`--memory face`).
    face_memory: bool,
    /// Spot key → spot number (or [`NONE`]).
    spot_of: Vec<u32>,
    /// Hand key → hand number (or [`NONE`]).
    hand_of: Vec<u32>,
    /// Hands known to the table.
    hands: usize,
    /// `start[spot * hands + hand]` .. the next: the entries of that spot and hand.
    start: Vec<u32>,
    /// Actions with their cumulative frequency (the last one is the row's total).
    entries: Vec<(TableMove, f64)>,
    /// Spots read.
    spots: usize,
}

/// The text of a sheet file's bytes: as they are, or gunzipped where they start with gzip's
/// magic number (a `.csv.gz`). `name` names the file in messages.
pub fn sheet_text(bytes: &[u8], name: &str) -> Result<String> {
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut out)
            .map_err(|e| {
                Error::usage(format!(
                    "duel sheet '{name}' is gzipped but does not unpack: {e}; give a CSV (or .csv.gz) written by `tahur dudo duel --sheet-dir DIR`"
                ))
            })?;
        out
    } else {
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            Error::usage(format!(
                "duel sheet '{name}' is not text: give a CSV (or .csv.gz) written by `tahur dudo duel --sheet-dir DIR`"
            ))
        })?
    };
    Ok(text)
}

/// A bid's text parsed, remembered by its text (a sheet names a few hundred bids a million
/// times).
fn parsed<'t>(memo: &mut BidMemo<'t>, text: &'t str) -> Option<Bid> {
    // The sheets write bids as "15x4": those are kept by number, without hashing the text.
    let b = text.as_bytes();
    let short = match b {
        [q @ b'1'..=b'9', b'x', b'0'..=b'9'] => Some(usize::from(q - b'0') * 10),
        [q @ b'1'..=b'9', r @ b'0'..=b'9', b'x', b'0'..=b'9'] => {
            Some(usize::from(q - b'0') * 100 + usize::from(r - b'0') * 10)
        }
        _ => None,
    }
    .map(|k| k + usize::from(b[b.len() - 1] - b'0'));
    match short {
        Some(k) => *memo.short[k].get_or_insert_with(|| Bid::parse(text).ok()),
        None => *memo
            .other
            .entry(text)
            .or_insert_with(|| Bid::parse(text).ok()),
    }
}

/// Bid texts parsed once: "QxF" by number (Q up to 99), any other text by the text.
struct BidMemo<'t> {
    short: Vec<Option<Option<Bid>>>,
    other: HashMap<&'t str, Option<Bid>>,
}

impl BidMemo<'_> {
    fn new() -> Self {
        BidMemo {
            short: vec![None; 1000],
            other: HashMap::new(),
        }
    }
}

/// The key of a hand given as face counts (aces first).
fn hand_key(counts: &[u8; 6]) -> usize {
    counts.iter().rev().fold(0, |k, &c| k * 6 + usize::from(c))
}

/// The slot of a bid in a spot key (`None`: the opening).
fn bid_slot(bid: Option<Bid>) -> Option<usize> {
    match bid {
        None => Some(0),
        Some(b) if b.quantity <= MAX_TABLE_QUANTITY => {
            Some(1 + b.quantity as usize * 6 + b.face.index())
        }
        Some(_) => None,
    }
}

/// The key of a spot (`prev_face`: the face index of the bid before the standing one, for a
/// table solved with `--memory face`).
fn spot_key(
    mover: u8,
    used: u8,
    after_pass: bool,
    prev_face: Option<u8>,
    bid: Option<Bid>,
) -> Option<usize> {
    let head = ((usize::from(mover) * 4 + usize::from(used)) * 2 + usize::from(after_pass)) * 7
        + prev_face.map_or(0, |f| 1 + usize::from(f));
    bid_slot(bid).map(|slot| head * BID_SLOTS + slot)
}

impl DuelTable {
    /// Reads a sheet CSV of a duel solved with the standing bid remembered (`--memory 1`), or
    /// with the face of the bid before it too (`--memory face`). `name` names the file in
    /// messages.
    pub fn parse(text: &str, name: &str) -> Result<DuelTable> {
        let bad = |line: usize, what: String| {
            Error::usage(format!(
                "duel sheet '{name}' line {line}: {what}; give a CSV written by `tahur dudo duel --sheet-dir` with --memory 1 or face"
            ))
        };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(CSV_HEADER) {
            return Err(Error::usage(format!(
                "'{name}' is not a duel sheet: its first line must be '{CSV_HEADER}' (written by `tahur dudo duel --sheet-dir`)"
            )));
        }
        // Rows: (spot key, hand key, file order, move, frequency); a row takes about 40
        // bytes of text.
        let mut rows: Vec<(u32, u32, u32, TableMove, f64)> = Vec::with_capacity(text.len() / 36);
        let mut dice_each = None;
        let mut face_memory = false;
        let mut bids = BidMemo::new();
        for (i, line) in lines.enumerate() {
            let n = i + 2;
            // A shipped sheet has ten million rows: no allocation per row, each bid text
            // parsed once, the commas found byte by byte.
            let mut cols = [""; 8];
            let mut count = 0;
            let line = line.trim();
            let mut from = 0;
            for (at, &byte) in line.as_bytes().iter().enumerate() {
                if byte == b',' {
                    if let Some(slot) = cols.get_mut(count) {
                        *slot = &line[from..at];
                    }
                    count += 1;
                    from = at + 1;
                }
            }
            if let Some(slot) = cols.get_mut(count) {
                *slot = &line[from..];
            }
            count += 1;
            if count != 8 {
                return Err(bad(n, format!("{count} columns, expected 8")));
            }
            let mover = match cols[0] {
                "opener" => 0,
                "other" => 1,
                x => return Err(bad(n, format!("side '{x}' (opener or other)"))),
            };
            let prev_face = match cols[1] {
                "" => None,
                x => match x.parse::<u8>() {
                    Ok(d @ 1..=6) => Some(d - 1),
                    _ => {
                        return Err(bad(
                            n,
                            format!("a bid before the standing one ('{x}'), not a face 1 to 6"),
                        ))
                    }
                },
            };
            face_memory |= prev_face.is_some();
            let bid = match cols[2] {
                "open" => None,
                x => Some(parsed(&mut bids, x).ok_or_else(|| bad(n, format!("bid '{x}'")))?),
            };
            let used = match cols[3] {
                "none" => 0,
                "opener" => 1,
                "other" => 2,
                "both" => 3,
                x => return Err(bad(n, format!("passes '{x}'"))),
            };
            let after_pass = match cols[4] {
                "0" => false,
                "1" => true,
                x => return Err(bad(n, format!("after_pass '{x}' (0 or 1)"))),
            };
            let mut counts = [0u8; 6];
            for c in cols[5].chars() {
                let face = c
                    .to_digit(10)
                    .and_then(|d| Face::new(d as u8).ok())
                    .ok_or_else(|| bad(n, format!("hand '{}'", cols[5])))?;
                counts[face.index()] += 1;
            }
            let k = cols[5].len() as u32;
            if k == 0 || k > CUP as u32 || *dice_each.get_or_insert(k) != k {
                return Err(bad(n, format!("hand '{}' of another size", cols[5])));
            }
            let mv = match cols[6] {
                "dudo" => TableMove::Doubt,
                "paso" => TableMove::Pass,
                x => TableMove::Bid(
                    parsed(&mut bids, x).ok_or_else(|| bad(n, format!("action '{x}'")))?,
                ),
            };
            let p: f64 = cols[7]
                .parse()
                .ok()
                .filter(|p: &f64| (0.0..=1.0).contains(p))
                .ok_or_else(|| bad(n, format!("probability '{}'", cols[7])))?;
            let key = spot_key(mover, used, after_pass, prev_face, bid)
                .ok_or_else(|| bad(n, format!("bid '{}' too high", cols[2])))?;
            let order = u32::try_from(rows.len())
                .map_err(|_| bad(n, "more rows than a sheet can hold".into()))?;
            rows.push((key as u32, hand_key(&counts) as u32, order, mv, p));
        }
        let Some(dice_each) = dice_each else {
            return Err(Error::usage(format!("duel sheet '{name}' has no rows")));
        };
        // By spot, then hand, each cell's moves in file order (the order their cumulative
        // frequencies are drawn in).
        rows.sort_unstable_by_key(|r| (r.0, r.1, r.2));
        // Spots and hands numbered in key order, so the rows are already in cell order.
        let mut spot_of = vec![NONE; SPOT_KEYS];
        let mut hand_of = vec![NONE; HAND_KEYS];
        for r in &rows {
            spot_of[r.0 as usize] = 0;
            hand_of[r.1 as usize] = 0;
        }
        let number = |of: &mut Vec<u32>| {
            let mut k = 0u32;
            for x in of.iter_mut().filter(|x| **x != NONE) {
                *x = k;
                k += 1;
            }
            k as usize
        };
        let spots = number(&mut spot_of);
        let hands = number(&mut hand_of);
        let mut start = vec![0u32; spots * hands + 1];
        let mut entries = Vec::with_capacity(rows.len());
        let mut next = 0;
        for (cell, s) in start.iter_mut().enumerate() {
            *s = entries.len() as u32;
            let mut total = 0.0;
            while next < rows.len() {
                let r = &rows[next];
                if spot_of[r.0 as usize] as usize * hands + hand_of[r.1 as usize] as usize != cell {
                    break;
                }
                total += r.4;
                entries.push((r.3, total));
                next += 1;
            }
        }
        Ok(DuelTable {
            dice_each,
            face_memory,
            spot_of,
            hand_of,
            hands,
            start,
            entries,
            spots,
        })
    }

    /// The table shipped for a rule set, built into tahur and read on first use, both gzipped:
    /// `data/dudo/duel-chimbo9.csv.gz` (30 MB of CSV: 703 spots, each bid once per face of the
    /// bid before it) and `duel-caleuchano.csv.gz` (391 MB of CSV, 43 MB packed: 4 224 spots,
    /// paso's and the face of the bid before, each of 252 hands; about 3.5 s to read).
    pub fn builtin(set: RuleSet) -> Arc<DuelTable> {
        static CHIMBO: OnceLock<Arc<DuelTable>> = OnceLock::new();
        static CALEUCHANO: OnceLock<Arc<DuelTable>> = OnceLock::new();
        let (cell, bytes, name): (_, &[u8], _) = match set {
            RuleSet::Chimbo9 => (
                &CHIMBO,
                include_bytes!("../../../../data/dudo/duel-chimbo9.csv.gz"),
                "data/dudo/duel-chimbo9.csv.gz",
            ),
            RuleSet::Caleuchano => (
                &CALEUCHANO,
                include_bytes!("../../../../data/dudo/duel-caleuchano.csv.gz"),
                "data/dudo/duel-caleuchano.csv.gz",
            ),
        };
        cell.get_or_init(|| {
            let text = sheet_text(bytes, name).expect("the shipped duel sheet unpacks");
            Arc::new(DuelTable::parse(&text, name).expect("the shipped duel sheet reads"))
        })
        .clone()
    }

    /// A table that answers nothing (its bot plays its fallback throughout).
    pub fn empty() -> DuelTable {
        DuelTable {
            dice_each: 0,
            face_memory: false,
            spot_of: vec![NONE; SPOT_KEYS],
            hand_of: vec![NONE; HAND_KEYS],
            hands: 0,
            start: vec![0],
            entries: Vec::new(),
            spots: 0,
        }
    }

    /// Dice in each cup of the solved duel.
    pub fn dice_each(&self) -> u32 {
        self.dice_each
    }

    /// Spots the table holds.
    pub fn spot_count(&self) -> usize {
        self.spots
    }

    /// Whether the table's spots know the face of the bid before the standing one.
    pub fn remembers_face(&self) -> bool {
        self.face_memory
    }

    /// The actions with cumulative frequencies at a spot for a hand (face counts), if the
    /// table holds them. `before` is the bid the standing one raised (read only by a table
    /// solved with `--memory face`).
    pub fn row(
        &self,
        mover: u8,
        used: u8,
        after_pass: bool,
        before: Option<Bid>,
        bid: Option<Bid>,
        hand: &[u8; 6],
    ) -> Option<&[(TableMove, f64)]> {
        let prev_face = before
            .filter(|_| self.face_memory)
            .map(|b| b.face.index() as u8);
        let spot = self.spot_of[spot_key(mover, used, after_pass, prev_face, bid)?];
        let h = *self.hand_of.get(hand_key(hand))?;
        if spot == NONE || h == NONE {
            return None;
        }
        let i = spot as usize * self.hands + h as usize;
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        (a < b).then(|| &self.entries[a..b])
    }

    /// The table's action for the viewer, when the game is the solved duel (two players in,
    /// the table's dice in each cup, none shown, no obligado) and the table holds the spot and
    /// an action the rules allow; `None` otherwise. Draws one number from `rng` when it answers.
    /// Allocates nothing.
    pub fn action(&self, view: &View<'_>, rng: &mut impl Rng) -> Option<Action> {
        let k = self.dice_each;
        if view.players_in() != 2
            || view.dice_on_table() != 2 * k
            || view.own_hidden_count() != k
            || view.obligado().is_some()
            || view.shown_on_table().iter().any(|&c| c != 0)
        {
            return None;
        }
        let own = view.own_hidden()?;
        let mut hand = [0u8; 6];
        for &d in own {
            hand[usize::from(d.checked_sub(1)?).min(5)] += 1;
        }
        let me = view.seat();
        let opener = view.opener();
        let other = (0..view.rules().players as usize).find(|&p| p != me && view.lives(p) > 0)?;
        let (opener_seat, other_seat) = if me == opener {
            (me, other)
        } else {
            (other, me)
        };
        let used =
            u8::from(view.paso_used(opener_seat)) | u8::from(view.paso_used(other_seat)) << 1;
        let mover = u8::from(me != opener);
        let row = self.row(
            mover,
            used,
            view.pending_pass().is_some(),
            view.previous_bid(),
            view.bid(),
            &hand,
        )?;
        let total = row.last()?.1;
        let x = unit(rng) * total;
        let pick = row
            .iter()
            .find(|e| x < e.1)
            .unwrap_or(&row[row.len() - 1])
            .0;
        let action = match (pick, view.bid()) {
            (TableMove::Doubt, _) => Action::Doubt,
            (TableMove::Pass, _) => Action::Pass,
            (TableMove::Bid(bid), None) => Action::Open {
                bid,
                reinforce: false,
                direction: Direction::Right,
                obligado: false,
            },
            (TableMove::Bid(bid), Some(_)) => Action::Raise {
                bid,
                reinforce: false,
            },
        };
        view.is_legal(action).then_some(action)
    }

    /// The frequency of each action of a solved game at a spot without passes, for the hands
    /// of `game` (for checks: the table read back against the solver's own game), in
    /// `out[a * H + h]`, actions as [`super::full::NodePolicy`] orders them (0 «dudo» where a
    /// bid stands, then the raises of [`DuelGame::raises`]); a hand the table lacks at the spot
    /// gets nothing.
    pub fn fill(
        &self,
        game: &DuelGame,
        mask: u32,
        top: Option<usize>,
        mover: usize,
        out: &mut [f64],
    ) {
        let h = game.hand_count();
        out.fill(0.0);
        let bid = top.map(|b| game.bids[b]);
        let before = super::full::bid_before(mask, top).map(|b| game.bids[b]);
        let raises = &game.raises[top.unwrap_or(game.bid_count())];
        let offset = usize::from(top.is_some());
        for (hi, hand) in game.hands.iter().enumerate() {
            let Some(row) = self.row(mover as u8, 0, false, before, bid, hand) else {
                continue;
            };
            let total = row.last().map_or(1.0, |e| e.1);
            let mut before = 0.0;
            for &(m, cum) in row {
                let p = (cum - before) / total;
                before = cum;
                let a = match m {
                    TableMove::Doubt if top.is_some() => Some(0),
                    TableMove::Bid(b) => game
                        .bid_index(b)
                        .and_then(|bi| raises.iter().position(|&r| usize::from(r) == bi))
                        .map(|i| i + offset),
                    _ => None,
                };
                if let Some(a) = a {
                    out[a * h + hi] += p;
                }
            }
        }
    }
}

/// A uniform draw in [0, 1).
fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A [`super::full::NodePolicy`] reading a table (the strategy a `duel` bot plays, judged in
/// the full-recall game of its dice).
pub struct TablePolicy<'a>(pub &'a DuelTable);

impl super::full::NodePolicy for TablePolicy<'_> {
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, mover: usize, out: &mut [f64]) {
        self.0.fill(game, mask, top, mover, out);
    }
}
