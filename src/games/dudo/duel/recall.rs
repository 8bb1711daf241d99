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
pub const MIN_PROB: f64 = 0.0001;

/// The CSV columns.
pub const RECALL_HEADER: &str = "side,history,hand,action,probability";

/// A strategy per full-recall history, for both sides of one game.
#[derive(Clone, Debug)]
pub struct RecallTable {
    /// Hands a side.
    hands: usize,
    /// Per history (bids as a bitmask; 0 the opening): the mover's probabilities
    /// `[action][hand]`; a hand whose probabilities are all zero is not listed.
    nodes: HashMap<u32, Box<[f32]>>,
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
        let mut table = RecallTable {
            hands: game.hand_count(),
            nodes: HashMap::new(),
        };
        for side in 0..2 {
            let mut walk = Export {
                game,
                policy,
                side,
                min_reach,
                min_prob,
                table: &mut table,
            };
            walk.visit(0, None, 0, &vec![1.0; game.hand_count()]);
        }
        table
    }

    /// The table of a solver's average strategy with the cuts `dudo duel --sheet-dir` uses
    /// ([`MIN_REACH`], [`MIN_PROB`]).
    pub fn solved(game: &DuelGame, solver: &FullRecall<'_>) -> RecallTable {
        RecallTable::from_policy(game, &solver.average(), MIN_REACH, MIN_PROB)
    }

    /// Histories listed (both sides).
    pub fn history_count(&self) -> usize {
        self.nodes.len()
    }

    /// The table as CSV (rows by side, then history in the bids' order, hand, action).
    pub fn csv(&self, game: &DuelGame) -> String {
        let mut masks: Vec<u32> = self.nodes.keys().copied().collect();
        // Side first, then the histories as their bids read left to right.
        masks.sort_by_key(|&m| (m.count_ones() % 2, history_key(m)));
        let mut out = String::with_capacity(masks.len() * 64);
        out.push_str(RECALL_HEADER);
        out.push('\n');
        let h = self.hands;
        for mask in masks {
            let row = &self.nodes[&mask];
            let side = if mask.count_ones() % 2 == 0 {
                "opener"
            } else {
                "other"
            };
            let history = history_text(game, mask);
            let top = top_of(mask);
            let actions = row.len() / h;
            for hand in 0..h {
                for a in 0..actions {
                    let p = row[a * h + hand];
                    if p > 0.0 {
                        let _ = writeln!(
                            out,
                            "{side},{history},{},{},{}",
                            game.hand_text(hand),
                            action_text(game, top, a),
                            probability_text(p)
                        );
                    }
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
        let mut table = RecallTable {
            hands: h,
            nodes: HashMap::new(),
        };
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
            let actions = actions_of(game, top);
            let row = table
                .nodes
                .entry(mask)
                .or_insert_with(|| vec![0.0; actions * h].into_boxed_slice());
            row[a * h + hand] = p;
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
        let row = self.nodes.get(&mask);
        for hand in 0..h {
            let total: f64 = row.map_or(0.0, |r| {
                (0..actions).map(|a| f64::from(r[a * h + hand])).sum()
            });
            if total > 0.0 {
                // Rows are rounded as written: shared out again so they add up to one.
                let r = row.expect("a listed hand");
                for a in 0..actions {
                    out[a * h + hand] = f64::from(r[a * h + hand]) / total;
                }
            } else {
                // Not listed: «dudo» (or, at an opening no table leaves out, the lowest bid).
                out[hand] = 1.0;
            }
        }
    }
}

/// The walk writing one side's part of a table.
struct Export<'a> {
    game: &'a DuelGame,
    policy: &'a dyn NodePolicy,
    side: usize,
    min_reach: f64,
    min_prob: f64,
    table: &'a mut RecallTable,
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
        let mut listed = false;
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
                    listed = true;
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
        if listed {
            self.table.nodes.insert(mask, row.into_boxed_slice());
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

/// A history's bids lowest first as a sort key (shorter histories first among equal starts).
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
            "- {} histories in `{csv_name}`.\n",
            crate::humanize::thousands(self.history_count() as u64)
        );
        let root = self.nodes.get(&0);
        out.push_str("## Opening the round\n\n| your hand | open with |\n|---|---|\n");
        for hand in 0..h {
            let moves = root.map_or(Vec::new(), |r| hand_moves(game, r, None, hand));
            let _ = writeln!(out, "| {} | {} |", game.hand_text(hand), moves_text(&moves));
        }
        // The openings played, by how often (chance-weighted over the opener's hands).
        let mut played: Vec<(f64, usize)> = Vec::new();
        if let Some(r) = root {
            for (a, &b) in game.raises[game.bid_count()].iter().enumerate() {
                let p: f64 = (0..h)
                    .map(|hand| game.weight[hand] * f64::from(r[a * h + hand]))
                    .sum();
                if p >= 0.001 {
                    played.push((p, usize::from(b)));
                }
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
            let row = self.nodes.get(&(1u32 << b));
            for hand in 0..h {
                let moves = row.map_or(Vec::new(), |r| hand_moves(game, r, Some(b), hand));
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

/// What `hand` plays in a node's `row` (standing bid `top`): its actions with their
/// frequencies, most frequent first (empty where the table does not list it).
fn hand_moves(game: &DuelGame, row: &[f32], top: Option<usize>, hand: usize) -> Vec<(f32, String)> {
    let h = game.hand_count();
    let mut moves: Vec<(f32, String)> = (0..row.len() / h)
        .map(|a| (row[a * h + hand], action_text(game, top, a)))
        .filter(|(p, _)| *p > 0.0)
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
