//! A full-recall strategy written out: for every history a side's own play can reach, what
//! each hand it brings there does. The exact one-die duels ship this way, and a table is
//! judged from the file alone by [`super::full::Judge`]'s best responses (the two-dice page
//! gives the figures of its table, read back).
//!
//! The CSV has one row per side, history, hand and action played:
//! `side,history,hand,action,probability` — `history` the bids so far separated by spaces
//! (empty at the opening), `hand` the dice lowest first (`14`), `action` `dudo` or a bid
//! (`2x5`). A hand a history does not list for its mover plays «dudo» there: its own play
//! brings it there less often than the table's cut, so what it does cannot matter more than
//! that.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::full::{FullRecall, NodePolicy};
use super::game::DuelGame;
use crate::error::{Error, Result};
use crate::games::dudo::Bid;

/// A hand whose own play brings it to a history less often than this is not listed there.
pub const MIN_REACH: f64 = 1e-5;

/// Frequencies below this are dropped (the rest shared out in proportion).
pub const MIN_PROB: f64 = 0.00001;

/// The CSV columns.
pub const RECALL_HEADER: &str = "side,history,hand,action,probability";

/// A strategy per full-recall history, for both sides of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RecallTable {
    /// Hands a side.
    hands: usize,
    /// Histories listed (bids as a bitmask; 0 the opening), in the order a walk of the game
    /// meets them ([`walk_order`]).
    masks: Vec<u32>,
    /// `starts[i]..starts[i + 1]`: the entries of history `masks[i]`.
    starts: Vec<u32>,
    /// `walk_order(masks[i])`, ascending: a judge looks a history up at every node it walks,
    /// by halving, mostly a little after the one before.
    keys: Vec<u128>,
    /// What the listed hands play, history by history, then by hand and action; a hand whose
    /// probabilities are all zero is not listed. Sparse: two dice a side list a few of their
    /// 21 hands and 25 actions at most of the 1.5 M histories.
    entries: Vec<Entry>,
}

/// One frequency of a table: at its history, `hand` plays action `action` (the node's
/// numbering: «dudo» 0 over a standing bid) with probability `p`, as written.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    hand: u8,
    action: u8,
    p: f32,
}

impl RecallTable {
    /// The table of `policy` in `game`: at every history where a side's own play brings some
    /// hand at least `min_reach` of the time, that hand's actions played at least `min_prob`
    /// of the time (the rest shared out among them in proportion). What the table leaves out
    /// plays «dudo», so the table's own reach follows the table, not `policy`.
    pub fn from_policy(
        game: &DuelGame,
        policy: &dyn NodePolicy,
        min_reach: f64,
        min_prob: f64,
    ) -> RecallTable {
        let mut rows = Vec::new();
        for side in 0..2 {
            let mut walk = Export {
                game,
                policy,
                side,
                min_reach,
                min_prob,
                rows: &mut rows,
            };
            walk.visit(0, None, 0, &vec![1.0; game.hand_count()]);
        }
        RecallTable::from_rows(game.hand_count(), rows)
    }

    /// A table of `hands` hands a side from its histories' entries, in any order (each
    /// history once). They are kept in the order a walk of the game meets them, so a judge
    /// reads its table front to back (the two-dice table judged in 0.57 s on 2 cores, 1.1 s
    /// with the histories in the masks' order).
    fn from_rows(hands: usize, rows: Vec<(u32, Vec<Entry>)>) -> RecallTable {
        let mut rows: Vec<(u128, u32, Vec<Entry>)> = rows
            .into_iter()
            .map(|(mask, row)| (walk_order(mask), mask, row))
            .collect();
        rows.sort_unstable_by_key(|r| r.0);
        let mut table = RecallTable {
            hands,
            masks: Vec::with_capacity(rows.len()),
            starts: Vec::with_capacity(rows.len() + 1),
            keys: Vec::with_capacity(rows.len()),
            entries: Vec::new(),
        };
        table.starts.push(0);
        for (key, mask, mut row) in rows {
            row.sort_unstable_by_key(|e| (e.hand, e.action));
            table.keys.push(key);
            table.masks.push(mask);
            table.entries.extend(row);
            table.starts.push(table.entries.len() as u32);
        }
        table
    }

    /// The entries of history `mask`, by hand and action (empty where it is not listed).
    fn row(&self, mask: u32) -> &[Entry] {
        match self.keys.binary_search(&walk_order(mask)) {
            Ok(i) => self.row_at(i),
            Err(_) => &[],
        }
    }

    /// The entries of the `i`-th history listed (`masks[i]`).
    fn row_at(&self, i: usize) -> &[Entry] {
        &self.entries[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The table of a solver's average strategy with the cuts `dudo duel --sheet-dir` uses
    /// ([`MIN_REACH`], [`MIN_PROB`]).
    pub fn solved(game: &DuelGame, solver: &FullRecall<'_>) -> RecallTable {
        RecallTable::from_policy(game, &solver.average(), MIN_REACH, MIN_PROB)
    }

    /// Histories listed (both sides).
    pub fn history_count(&self) -> usize {
        self.masks.len()
    }

    /// The table as CSV (rows by side, then history in the bids' order, hand, action).
    pub fn csv(&self, game: &DuelGame) -> String {
        let mut out = String::with_capacity(self.masks.len() * 64);
        out.push_str(RECALL_HEADER);
        out.push('\n');
        // Side first, then the histories as their bids read left to right: the walk's order,
        // which the table keeps.
        for (side, parity) in [("opener", 0), ("other", 1)] {
            for (i, &mask) in self.masks.iter().enumerate() {
                if mask.count_ones() % 2 != parity {
                    continue;
                }
                let history = history_text(game, mask);
                let top = top_of(mask);
                for e in self.row_at(i) {
                    let _ = writeln!(
                        out,
                        "{side},{history},{},{},{}",
                        game.hand_text(usize::from(e.hand)),
                        action_text(game, top, usize::from(e.action)),
                        probability_text(e.p)
                    );
                }
            }
        }
        out
    }

    /// Reads a CSV written by [`RecallTable::csv`] for `game`; `name` names the file in
    /// messages.
    pub fn parse(text: &str, game: &DuelGame, name: &str) -> Result<RecallTable> {
        let bad = |line: usize, what: String| {
            Error::usage(format!(
                "full-recall table '{name}' line {line}: {what}; give a CSV written by `tahur dudo duel --memory full --sheet-dir DIR`"
            ))
        };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(RECALL_HEADER) {
            return Err(Error::usage(format!(
                "'{name}' is not a full-recall table: its first line must be '{RECALL_HEADER}'"
            )));
        }
        let h = game.hand_count();
        let hand_of: HashMap<String, usize> = (0..h).map(|i| (game.hand_text(i), i)).collect();
        let mut rows: HashMap<u32, Vec<Entry>> = HashMap::new();
        // Rows come history by history: the last history's text and mask are kept.
        let mut last: Option<(String, u32)> = None;
        for (i, line) in lines.enumerate() {
            let n = i + 2;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split(',').collect();
            let [side, history, hand, action, p] = cols[..] else {
                return Err(bad(n, format!("{} columns, not 5", cols.len())));
            };
            let mask = match &last {
                Some((text, mask)) if text == history => *mask,
                _ => {
                    let mask = history_mask(game, history)
                        .ok_or_else(|| bad(n, format!("'{history}' is not a bid history of this game (each bid a raise of the one before)")))?;
                    last = Some((history.to_string(), mask));
                    mask
                }
            };
            let mover = if mask.count_ones() % 2 == 0 {
                "opener"
            } else {
                "other"
            };
            if side != mover {
                return Err(bad(
                    n,
                    format!("side '{side}': after '{history}' the {mover} bids"),
                ));
            }
            let hand = *hand_of.get(hand).ok_or_else(|| {
                bad(
                    n,
                    format!(
                        "hand '{hand}': give {} lowest first, as {}",
                        crate::humanize::count_of(u64::from(game.dice_each), "dice"),
                        game.hand_text(h / 2)
                    ),
                )
            })?;
            let top = top_of(mask);
            let a = action_index(game, top, action).ok_or_else(|| {
                bad(
                    n,
                    format!("action '{action}': use dudo or a legal raise of the standing bid (at the opening, a bid)"),
                )
            })?;
            let p: f32 = p
                .parse()
                .ok()
                .filter(|p: &f32| (0.0..=1.0).contains(p))
                .ok_or_else(|| bad(n, format!("probability '{p}': use a number from 0 to 1")))?;
            if p > 0.0 {
                rows.entry(mask).or_default().push(Entry {
                    hand: hand as u8,
                    action: a as u8,
                    p,
                });
            }
        }
        let table = RecallTable::from_rows(h, rows.into_iter().collect());
        // A frequency given twice would leave the table to whichever came last.
        for (i, &mask) in table.masks.iter().enumerate() {
            if let Some(w) = table
                .row_at(i)
                .windows(2)
                .find(|w| (w[0].hand, w[0].action) == (w[1].hand, w[1].action))
            {
                return Err(Error::usage(format!(
                    "full-recall table '{name}': after '{}' hand {} lists {} twice; give each hand's action once per history",
                    history_text(game, mask),
                    game.hand_text(usize::from(w[0].hand)),
                    action_text(game, top_of(mask), usize::from(w[0].action))
                )));
            }
        }
        Ok(table)
    }
}

impl NodePolicy for RecallTable {
    fn fill(&self, game: &DuelGame, mask: u32, top: Option<usize>, _: usize, out: &mut [f64]) {
        let h = self.hands;
        let actions = actions_of(game, top);
        let out = &mut out[..actions * h];
        out.fill(0.0);
        // Not listed: «dudo» (or, at an opening no table leaves out, the lowest bid).
        out[..h].fill(1.0);
        for listed in self.row(mask).chunk_by(|x, y| x.hand == y.hand) {
            let hand = usize::from(listed[0].hand);
            out[hand] = 0.0;
            // Rows are rounded as written: shared out again so they add up to one.
            let total: f64 = listed.iter().map(|e| f64::from(e.p)).sum();
            for e in listed {
                out[usize::from(e.action) * h + hand] = f64::from(e.p) / total;
            }
        }
    }
}

/// The first line of a compact table ([`RecallTable::compact`]).
pub const COMPACT_MAGIC: &str = "tahur full-recall table, compact, version 1";

/// A probability as the CSV writes it, in millionths.
fn millionths(p: f32) -> u32 {
    let text = format!("{p:.6}");
    text.replace('.', "")
        .parse()
        .expect("a probability from 0 to 1")
}

/// The probability `n` millionths, read as the CSV's reader reads its text.
fn from_millionths(n: u32) -> f32 {
    format!("{}.{:06}", n / 1_000_000, n % 1_000_000)
        .parse()
        .expect("a decimal")
}

/// Appends `x` as a LEB128 variable-length integer (seven bits a byte, low first).
fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Reads compact bytes: LEB128 integers, each checked against what may follow.
struct Varints<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Varints<'_> {
    /// The next integer, or `None` where the bytes end or run over 64 bits.
    fn next(&mut self) -> Option<u64> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at)?;
            self.at += 1;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(x);
            }
        }
        None
    }

    /// The next integer if it is at most `max`.
    fn at_most(&mut self, max: u64) -> Option<u64> {
        self.next().filter(|&x| x <= max)
    }
}

impl RecallTable {
    /// The game line of a compact table: the rule set and the dice a side.
    fn compact_game_line(game: &DuelGame) -> String {
        format!("rules={} dice_each={}", game.rules.key(), game.dice_each)
    }

    /// The table in compact form, gzipped: what its CSV says (the same histories, hands,
    /// actions and probabilities to the millionth), history by history as integers that
    /// count up from the one before — the two-dice table's 360 MB of CSV in 14 MB.
    /// [`RecallTable::read`] reads it back as the CSV's own table.
    pub fn compact(&self, game: &DuelGame) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * 3);
        put_varint(&mut body, self.masks.len() as u64);
        // The histories ascending, so each is a small step from the one before.
        let mut ascending: Vec<(u32, usize)> = self
            .masks
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, i))
            .collect();
        ascending.sort_unstable();
        let mut last_mask = 0u32;
        for (mask, i) in ascending {
            put_varint(&mut body, u64::from(mask - last_mask));
            last_mask = mask;
            let hands: Vec<&[Entry]> = self.row_at(i).chunk_by(|x, y| x.hand == y.hand).collect();
            put_varint(&mut body, hands.len() as u64);
            let mut next_hand = 0;
            for listed in hands {
                put_varint(&mut body, u64::from(listed[0].hand - next_hand));
                next_hand = listed[0].hand + 1;
                put_varint(&mut body, listed.len() as u64);
                let mut next_action = 0;
                for e in listed {
                    put_varint(&mut body, u64::from(e.action - next_action));
                    next_action = e.action + 1;
                    // A hand's only action is played always: its probability goes unsaid.
                    if listed.len() > 1 {
                        put_varint(&mut body, u64::from(millionths(e.p)));
                    }
                }
            }
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let head = format!(
            "{COMPACT_MAGIC}\n{}\n",
            RecallTable::compact_game_line(game)
        );
        std::io::Write::write_all(&mut gz, head.as_bytes())
            .and_then(|()| std::io::Write::write_all(&mut gz, &body))
            .expect("writing to memory");
        gz.finish().expect("writing to memory")
    }

    /// Reads a full-recall table for `game` from a file's bytes: a CSV written by
    /// [`RecallTable::csv`] (plain or gzipped), or a compact table ([`RecallTable::compact`]).
    /// `name` names the file in messages.
    pub fn read(bytes: &[u8], game: &DuelGame, name: &str) -> Result<RecallTable> {
        let usage = "give a CSV or compact table written by `tahur dudo duel --memory full --sheet-dir DIR`";
        if !bytes.starts_with(&[0x1f, 0x8b]) {
            let text = std::str::from_utf8(bytes).map_err(|_| {
                Error::usage(format!(
                    "full-recall table '{name}' is neither text nor gzipped: {usage}"
                ))
            })?;
            return RecallTable::parse(text, game, name);
        }
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut raw).map_err(
            |e| {
                Error::usage(format!(
                    "full-recall table '{name}' is gzipped but does not unpack: {e}; {usage}"
                ))
            },
        )?;
        if raw.starts_with(RECALL_HEADER.as_bytes()) {
            // A gzipped CSV (`gzip duel-plain-2-full.csv`): read as the CSV it holds.
            let text = std::str::from_utf8(&raw).map_err(|_| {
                Error::usage(format!(
                    "full-recall table '{name}' unpacks to no text: {usage}"
                ))
            })?;
            return RecallTable::parse(text, game, name);
        }
        let mut lines = raw.splitn(3, |&b| b == b'\n');
        let (magic, line, body) = (lines.next(), lines.next(), lines.next());
        if magic != Some(COMPACT_MAGIC.as_bytes()) {
            return Err(Error::usage(format!(
                "'{name}' is not a compact full-recall table: it must start with '{COMPACT_MAGIC}'; {usage}"
            )));
        }
        let want = RecallTable::compact_game_line(game);
        let line = String::from_utf8_lossy(line.unwrap_or_default());
        if line != want {
            // "rules=chimbo9 dice_each=1" → "--rules chimbo9 --dice-each 1".
            let flags = line
                .split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| format!("--{} {v}", k.replace('_', "-")))
                .collect::<Vec<_>>()
                .join(" ");
            return Err(Error::usage(format!(
                "'{name}' is a table of '{line}', not of this duel ('{want}'): judge it with {flags}, or give the table of the game asked for"
            )));
        }
        let cut = || {
            Error::usage(format!(
                "compact full-recall table '{name}' is cut short or damaged: write it again with `tahur dudo duel --memory full --sheet-dir DIR`"
            ))
        };
        let mut r = Varints {
            bytes: body.unwrap_or_default(),
            at: 0,
        };
        let h = game.hand_count() as u64;
        let most = 1u64 << game.bid_count().min(32);
        let count = r.at_most(most).ok_or_else(cut)? as usize;
        let mut rows = Vec::with_capacity(count.min(1 << 20));
        let mut mask = 0u32;
        for i in 0..count {
            let step = r.at_most(u64::from(u32::MAX - mask)).ok_or_else(cut)? as u32;
            if i > 0 && step == 0 {
                return Err(cut());
            }
            mask += step;
            if !is_history(game, mask) {
                return Err(Error::usage(format!(
                    "compact full-recall table '{name}' lists a history that is not one of this game (bits {mask:#b}); {usage}"
                )));
            }
            let top = top_of(mask);
            let actions = actions_of(game, top) as u64;
            let mut row = Vec::new();
            let mut next_hand = 0;
            for _ in 0..r.at_most(h).ok_or_else(cut)? {
                let hand = next_hand + r.at_most(h - 1 - next_hand.min(h - 1)).ok_or_else(cut)?;
                if hand >= h {
                    return Err(cut());
                }
                next_hand = hand + 1;
                let k = r.at_most(actions).ok_or_else(cut)?;
                let mut next_action = 0;
                for _ in 0..k {
                    let action = next_action + r.at_most(actions).ok_or_else(cut)?;
                    if action >= actions {
                        return Err(cut());
                    }
                    next_action = action + 1;
                    let p = if k == 1 {
                        1.0
                    } else {
                        from_millionths(r.at_most(1_000_000).ok_or_else(cut)? as u32)
                    };
                    if p > 0.0 {
                        row.push(Entry {
                            hand: hand as u8,
                            action: action as u8,
                            p,
                        });
                    }
                }
            }
            if !row.is_empty() {
                rows.push((mask, row));
            }
        }
        if r.at != r.bytes.len() {
            return Err(cut());
        }
        Ok(RecallTable::from_rows(game.hand_count(), rows))
    }
}

/// Whether `mask` is a bid history of `game`: each bid a legal raise of the one below it.
fn is_history(game: &DuelGame, mask: u32) -> bool {
    if game.bid_count() < 32 && mask >> game.bid_count() != 0 {
        return false;
    }
    let mut top = game.bid_count();
    let mut rest = mask;
    while rest != 0 {
        let b = rest.trailing_zeros() as usize;
        if !game.raises[top].iter().any(|&r| usize::from(r) == b) {
            return false;
        }
        top = b;
        rest &= rest - 1;
    }
    true
}

/// The walk writing one side's part of a table.
struct Export<'a> {
    game: &'a DuelGame,
    policy: &'a dyn NodePolicy,
    side: usize,
    min_reach: f64,
    min_prob: f64,
    /// The histories listed so far, with their entries.
    rows: &'a mut Vec<(u32, Vec<Entry>)>,
}

impl Export<'_> {
    /// Visits history `mask` (standing bid `top`, `mover` to act), where the side's hands get
    /// by their own play with `reach`.
    fn visit(&mut self, mask: u32, top: Option<usize>, mover: usize, reach: &[f64]) {
        let game = self.game;
        let h = game.hand_count();
        let actions = actions_of(game, top);
        // Openings are actions 0..; over a standing bid action 0 is «dudo».
        let first_raise = usize::from(top.is_some());
        let raises: &[u16] = &game.raises[top.unwrap_or(game.bid_count())];
        if mover != self.side {
            for &b in raises {
                let b = usize::from(b);
                self.visit(mask | (1 << b), Some(b), 1 - mover, reach);
            }
            return;
        }
        let mut sigma = vec![0.0; actions * h];
        self.policy.fill(game, mask, top, mover, &mut sigma);
        let mut row = vec![0.0f32; actions * h];
        let mut entries = Vec::new();
        for hand in 0..h {
            if reach[hand] < self.min_reach {
                continue;
            }
            let kept: f64 = (0..actions)
                .map(|a| sigma[a * h + hand])
                .filter(|&p| p >= self.min_prob)
                .sum();
            for a in 0..actions {
                let p = sigma[a * h + hand];
                if p >= self.min_prob && kept > 0.0 {
                    row[a * h + hand] = (p / kept) as f32;
                    entries.push(Entry {
                        hand: hand as u8,
                        action: a as u8,
                        p: row[a * h + hand],
                    });
                }
            }
        }
        let mut child = vec![0.0; h];
        for (i, &b) in raises.iter().enumerate() {
            let a = first_raise + i;
            for hand in 0..h {
                child[hand] = reach[hand] * f64::from(row[a * h + hand]);
            }
            if child.iter().any(|&r| r >= self.min_reach) {
                let b = usize::from(b);
                self.visit(mask | (1 << b), Some(b), 1 - mover, &child);
            }
        }
        if !entries.is_empty() {
            self.rows.push((mask, entries));
        }
    }
}

/// The standing bid of history `mask` (`None` at the opening).
fn top_of(mask: u32) -> Option<usize> {
    (mask != 0).then(|| (31 - mask.leading_zeros()) as usize)
}

/// Actions at a node: the openings, or «dudo» and the raises.
fn actions_of(game: &DuelGame, top: Option<usize>) -> usize {
    match top {
        None => game.raises[game.bid_count()].len(),
        Some(j) => 1 + game.raises[j].len(),
    }
}

/// Where a history comes in a depth-first walk of the game: its bids lowest first compared
/// as words (a history before the ones that go on from it), five bits a bid from the top.
fn walk_order(mask: u32) -> u128 {
    debug_assert!(mask.count_ones() <= 24, "at most 24 bids in full recall");
    let mut key = 0u128;
    let mut rest = mask;
    for shift in (0..24).rev() {
        if rest == 0 {
            break;
        }
        key |= u128::from(rest.trailing_zeros() + 1) << (5 * shift);
        rest &= rest - 1;
    }
    key
}

/// A history's bids, lowest first.
fn history_key(mask: u32) -> Vec<u32> {
    let mut bits = Vec::with_capacity(mask.count_ones() as usize);
    let mut rest = mask;
    while rest != 0 {
        bits.push(rest.trailing_zeros());
        rest &= rest - 1;
    }
    bits
}

/// A history's bids, lowest first, separated by spaces.
fn history_text(game: &DuelGame, mask: u32) -> String {
    history_key(mask)
        .iter()
        .map(|&b| game.bids[b as usize].to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The bitmask of a history's text, if every bid is the game's and raises the one before.
fn history_mask(game: &DuelGame, text: &str) -> Option<u32> {
    let mut mask = 0u32;
    let mut top: Option<usize> = None;
    for word in text.split_whitespace() {
        let b = game.bid_index(Bid::parse(word).ok()?)?;
        let legal = &game.raises[top.unwrap_or(game.bid_count())];
        if !legal.iter().any(|&r| usize::from(r) == b) {
            return None;
        }
        mask |= 1 << b;
        top = Some(b);
    }
    Some(mask)
}

/// Action `a` at a node with standing bid `top`, as the CSV writes it.
fn action_text(game: &DuelGame, top: Option<usize>, a: usize) -> String {
    let raises = &game.raises[top.unwrap_or(game.bid_count())];
    match top {
        Some(_) if a == 0 => "dudo".into(),
        Some(_) => game.bids[usize::from(raises[a - 1])].to_string(),
        None => game.bids[usize::from(raises[a])].to_string(),
    }
}

/// The index of an action's text at a node with standing bid `top`.
fn action_index(game: &DuelGame, top: Option<usize>, text: &str) -> Option<usize> {
    let raises = &game.raises[top.unwrap_or(game.bid_count())];
    if top.is_some() && crate::text::normalize(text).trim() == "dudo" {
        return Some(0);
    }
    let b = game.bid_index(Bid::parse(text).ok()?)?;
    let i = raises.iter().position(|&r| usize::from(r) == b)?;
    Some(i + usize::from(top.is_some()))
}

/// An exploitability to two significant digits (rounding's noise shown as under 10⁻⁶).
pub fn exploitability_text(x: f64) -> String {
    if x < 5e-7 {
        "under 0.000001".into()
    } else {
        crate::humanize::significant(x, 2)
    }
}

/// A payoff to six decimals with its sign (none at zero).
pub fn payoff_text(x: f64) -> String {
    let s = format!("{x:+.6}");
    match s.trim_start_matches(['+', '-']) {
        zero if zero.bytes().all(|b| b == b'0' || b == b'.') => zero.to_string(),
        _ => s,
    }
}

/// A probability as written: six decimals, trailing zeros dropped.
fn probability_text(p: f32) -> String {
    let s = format!("{p:.6}");
    let s = s.trim_end_matches('0');
    s.strip_suffix('.').unwrap_or(s).to_string()
}

/// What the exact best responses say of a table: the opener's value when both sides play it,
/// and the bounds on the game's value (`high − low` is its exploitability).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableJudgement {
    /// The opener's expected payoff, both sides playing the table.
    pub value: f64,
    /// What the opener's part earns at least against any reply.
    pub low: f64,
    /// What the other's part concedes at most to any opener.
    pub high: f64,
}

impl TableJudgement {
    /// The table's exploitability: what best responses gain on both seats together.
    pub fn exploitability(&self) -> f64 {
        self.high - self.low
    }
}

impl RecallTable {
    /// The table judged exactly by best responses with full recall (three walks of the game).
    pub fn judge(&self, game: &DuelGame) -> TableJudgement {
        let (value, (low, high)) = super::full::Judge::new(game).bounds(self);
        TableJudgement { value, low, high }
    }

    /// What `dudo duel --judge` prints of the table in file `name`: the judgement's figures
    /// with what they mean.
    pub fn judge_report(
        &self,
        game: &DuelGame,
        judged: &TableJudgement,
        name: &str,
    ) -> crate::report::Report {
        use crate::report::{Report, Value};
        let mut rep = Report::new(format!(
            "Dudo duel table judged · {} · {} a side",
            game.rules.key(),
            crate::humanize::count_of(u64::from(game.dice_each), "dice")
        ));
        rep.field("table", "table", Value::Text(name.into()));
        rep.field(
            "histories",
            "histories listed",
            Value::Int(self.history_count() as i64),
        );
        rep.field(
            "opener_wins",
            "opener wins the round, both sides playing it",
            Value::Prob((1.0 + judged.value) / 2.0),
        );
        rep.field(
            "value",
            "opener's expected payoff",
            Value::Num(judged.value, 6),
        );
        rep.field(
            "game_value",
            "the game's value lies in (best responses)",
            Value::NumInterval(judged.low, judged.high, 6),
        );
        rep.field(
            "exploitability",
            "exploitability (full-recall best responses, exact)",
            Value::Num(judged.exploitability(), 6),
        );
        rep.note(format!(
            "The table's opener earns at least {} against any reply and its answer concedes at most {}: the game's value lies between. A best response on each seat gains {} together ({}).",
            payoff_text(judged.low),
            payoff_text(judged.high),
            exploitability_text(judged.exploitability()),
            if judged.exploitability() < 1e-3 {
                "under 0.001: within a thousandth of an equilibrium"
            } else {
                "0.001 or more: not yet an equilibrium"
            }
        ));
        rep
    }

    /// A page players can read: the openings each hand makes, and how each hand answers the
    /// openings played. `csv_name` names the file with every history.
    pub fn markdown(
        &self,
        game: &DuelGame,
        judged: &TableJudgement,
        iterations: u64,
        csv_name: &str,
    ) -> String {
        let h = self.hands;
        let mut out = String::new();
        let rules = game.rules.key();
        let k = game.dice_each;
        let _ = writeln!(
            out,
            "# Dudo duel, {rules} — the exact strategy, {} a side\n",
            crate::humanize::count_of(u64::from(k), "dice")
        );
        let _ = writeln!(
            out,
            "Written by `tahur dudo duel --rules {rules} --dice-each {k} --memory full --sheet-dir DIR` \
             after {} CFR+ iterations over every bid history (full recall: the exact game). \
             A hand a history does not list plays «dudo» there; its own play brings it there \
             less than {MIN_REACH:e} of the time. Frequencies under {MIN_PROB} are dropped.\n",
            crate::humanize::thousands(iterations)
        );
        let _ = writeln!(
            out,
            "- Opener wins the round: {:.2} % (expected payoff {}).",
            50.0 * (1.0 + judged.value),
            payoff_text(judged.value)
        );
        let _ = writeln!(
            out,
            "- The game's value lies in [{}, {}]: this opener's play earns at least the \
             first against any reply, this answer concedes at most the second (exact best \
             responses).",
            payoff_text(judged.low),
            payoff_text(judged.high)
        );
        let _ = writeln!(
            out,
            "- Exploitability of this table: {} (what a best response on each seat gains, \
             together).",
            exploitability_text(judged.exploitability())
        );
        let _ = writeln!(
            out,
            "- {} histories in `{csv_name}`; the same table compact in `{}`.\n",
            crate::humanize::thousands(self.history_count() as u64),
            compact_name(csv_name)
        );
        let root = self.row(0);
        out.push_str("## Opening the round\n\n| your hand | open with |\n|---|---|\n");
        for hand in 0..h {
            let moves = hand_moves(game, root, None, hand);
            let _ = writeln!(out, "| {} | {} |", game.hand_text(hand), moves_text(&moves));
        }
        // The openings played, by how often (chance-weighted over the opener's hands).
        let mut played: Vec<(f64, usize)> = Vec::new();
        for (a, &b) in game.raises[game.bid_count()].iter().enumerate() {
            let p: f64 = root
                .iter()
                .filter(|e| usize::from(e.action) == a)
                .map(|e| game.weight[usize::from(e.hand)] * f64::from(e.p))
                .sum();
            if p >= 0.001 {
                played.push((p, usize::from(b)));
            }
        }
        out.push_str(
            "\n## Answering an opening\n\nEach opening played at least 0.1 % of the time, how \
             often it is played, and what each hand answers: «dudo» and the raises, most \
             frequent first.\n",
        );
        for (p, b) in played {
            let _ = writeln!(
                out,
                "\n### {} (opened {})\n\n| your hand | answer |\n|---|---|",
                game.bids[b],
                crate::humanize::percent(p)
            );
            let row = self.row(1u32 << b);
            for hand in 0..h {
                let moves = hand_moves(game, row, Some(b), hand);
                // A hand the table does not list there says «dudo».
                let text = if moves.is_empty() {
                    "dudo".to_string()
                } else {
                    moves_text(&moves)
                };
                let _ = writeln!(out, "| {} | {text} |", game.hand_text(hand));
            }
        }
        out
    }
}

/// The compact table's file name beside a CSV's: `duel-plain-2-full.csv` →
/// `duel-plain-2-full.table.gz`.
pub fn compact_name(csv_name: &str) -> String {
    format!(
        "{}.table.gz",
        csv_name.strip_suffix(".csv").unwrap_or(csv_name)
    )
}

/// What `hand` plays in a node's `row` (standing bid `top`): its actions with their
/// frequencies, most frequent first (empty where the table does not list it).
fn hand_moves(
    game: &DuelGame,
    row: &[Entry],
    top: Option<usize>,
    hand: usize,
) -> Vec<(f32, String)> {
    let mut moves: Vec<(f32, String)> = row
        .iter()
        .filter(|e| usize::from(e.hand) == hand)
        .map(|e| (e.p, action_text(game, top, usize::from(e.action))))
        .collect();
    moves.sort_by(|x, y| y.0.total_cmp(&x.0));
    moves
}

/// Moves with their frequencies, most frequent first: `dudo 70 %, 2x5 30 %` (at most four of
/// 1 % or more, then how many others are played).
fn moves_text(moves: &[(f32, String)]) -> String {
    let shown: Vec<String> = moves
        .iter()
        .filter(|(p, _)| *p >= 0.005)
        .take(4)
        .map(|(p, m)| format!("{m} {:.0} %", 100.0 * p))
        .collect();
    let others = moves.len() - shown.len();
    let mut text = shown.join(", ");
    if others > 0 {
        let _ = write!(
            text,
            "{}{others} other{} rarely",
            if text.is_empty() { "" } else { "; " },
            if others == 1 { "" } else { "s" }
        );
    }
    text
}
