//! Dominó's cheat sheet ([`crate::play::sheet`]): the first tile you play, when to play a double,
//! and later turns (keep company, shed weight or block the next player), measured with `company`
//! at every seat of the usual game: four players in pairs, double six, single games.
//!
//! The opening tile itself is not a choice here: the rules open every game with the highest
//! double dealt.

use super::bots::{best_play, Features};
use super::engine::{Action, View};
use super::rules::Rules;
use super::Domino;
use crate::play::sheet::{SheetGame, Situation, Topic, MAX_OPTIONS};
use crate::play::PlayerView;

/// Your first tile: rows by hand pattern (the longest number held × doubles held).
const FIRST_ROWS: &[&str] = &[
    "no number held more than twice, 0–1 doubles",
    "no number held more than twice, 2+ doubles",
    "a number held 3 times, 0–1 doubles",
    "a number held 3 times, 2+ doubles",
    "a number held 4+ times, 0–1 doubles",
    "a number held 4+ times, 2+ doubles",
];

const DOUBLE_ROWS: &[&str] = &[
    "early (under 8 tiles on the board), a heavy double (5-5, 6-6)",
    "early (under 8 tiles on the board), a lighter double",
    "middle (8–15 tiles on the board), a heavy double (5-5, 6-6)",
    "middle (8–15 tiles on the board), a lighter double",
    "late (16+ tiles on the board), a heavy double (5-5, 6-6)",
    "late (16+ tiles on the board), a lighter double",
];

const TURN_ROWS: &[&str] = &[
    "early (under 8 tiles on the board)",
    "middle (8–15 tiles on the board)",
    "late (16+ tiles on the board)",
];

const TOPICS: &[Topic] = &[
    Topic {
        key: "first_tile",
        question: "Your first tile: keep company, shed weight or play a double?",
        options: &["company", "heaviest", "double"],
        rows: FIRST_ROWS,
    },
    Topic {
        key: "double",
        question: "Play a double now or another tile?",
        options: &["double", "other tile"],
        rows: DOUBLE_ROWS,
    },
    Topic {
        key: "later_turn",
        question: "Later turns: keep company, shed weight or block the next player?",
        options: &["company", "heaviest", "block"],
        rows: TURN_ROWS,
    },
];

impl SheetGame for Domino {
    type Reference = super::bots::Strategy;
    const TOPICS: &'static [Topic] = TOPICS;
    const SHEETS: &'static [&'static str] = &["pairs-4p"];
    const SHEET_GAMES: u64 = 200_000;
    const SHEET_ROLLOUTS: u32 = 8;

    fn reference() -> Self::Reference {
        super::bots::Strategy::of(super::bots::Kind::Company)
    }

    fn sheet_rules(_sheet: usize) -> Rules {
        Rules::standard(4)
    }

    fn sheet_for(_rules: &Rules) -> usize {
        0
    }

    fn classify(view: &View<'_>) -> Option<Situation<Action>> {
        classify(view)
    }
}

/// Tiles on the board: stage row 0 (under 8), 1 (8–15), 2 (16+).
fn stage(view: &View<'_>) -> usize {
    match view.tiles_placed() {
        0..=7 => 0,
        8..=15 => 1,
        _ => 2,
    }
}

/// Sorts a Dominó decision into the sheet (plays only; claim windows are not covered).
pub fn classify(view: &View<'_>) -> Option<Situation<Action>> {
    if view.claim_only() {
        return None;
    }
    let hand = view.hand();
    let company = best_play(view, |_| true, Features::company_key)?;
    let heaviest = best_play(view, |_| true, Features::heaviest_key)?;
    let double = best_play(view, |f| f.double, Features::heaviest_key);
    let other = best_play(view, |f| !f.double, Features::company_key);
    let placed_by_me = view.hand_len(view.seat()) < view.rules().hand as u32;
    let mut actions: [Option<Action>; MAX_OPTIONS];
    let (topic, row);
    if !placed_by_me {
        // Longest number held and doubles held.
        let longest = (0..=view.rules().set)
            .map(|n| (hand & super::tiles::WITH[n as usize]).count_ones())
            .max()
            .unwrap_or(0);
        let doubles = (hand & super::tiles::DOUBLES).count_ones();
        let long = match longest {
            0..=2 => 0,
            3 => 1,
            _ => 2,
        };
        topic = 0;
        row = 2 * long + usize::from(doubles >= 2);
        actions = [Some(company), Some(heaviest), double, None];
    } else if let (Some(d), Some(o)) = (double, other) {
        let heavy = d.tile().is_some_and(|t| t.pips() >= 10);
        topic = 1;
        row = 2 * stage(view) + usize::from(!heavy);
        actions = [Some(d), Some(o), None, None];
    } else {
        let block = best_play(view, |f| f.blocks_next, Features::company_key);
        topic = 2;
        row = stage(view);
        actions = [Some(company), Some(heaviest), block, None];
    }
    // An option that is the same play as an earlier one is not a choice of its own.
    for i in 1..MAX_OPTIONS {
        if actions[i].is_some()
            && actions[..i]
                .iter()
                .any(|a| a.map(Action::move_only) == actions[i].map(Action::move_only))
        {
            actions[i] = None;
        }
    }
    Some(Situation {
        topic,
        row,
        actions,
    })
}
