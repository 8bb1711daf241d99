//! Ocho loco's cheat sheet ([`crate::play::sheet`]): answer a draw-three or take it, play an 8
//! now or keep it, when to play a 2 (skip) and a reverse (J, K) — measured with `greedy` at every
//! seat of a four-player game under the «Montañita» rules.

use super::bots::{greedy_play, greedy_turn};
use super::cards::{
    count, lowest, rank_mask, suit_mask, CardSet, EIGHTS, JACK, JOKERS, KING, THREE, TWO,
};
use super::engine::{Action, Phase, View};
use super::rules::Rules;
use super::Ocho;
use crate::play::sheet::{SheetGame, Situation, Topic};
use crate::play::PlayerView;

const ANSWER_ROWS: &[&str] = &[
    "3 cards pending, you hold 1–3 cards",
    "3 cards pending, you hold 4+ cards",
    "6+ cards pending, you hold 1–3 cards",
    "6+ cards pending, you hold 4+ cards",
];

/// Rows by your hand after the play × the next player's hand.
const HOLD_ROWS: &[&str] = &[
    "you keep 1–2 cards, the next player holds 1–2",
    "you keep 1–2 cards, the next player holds 3+",
    "you keep 3–5 cards, the next player holds 1–2",
    "you keep 3–5 cards, the next player holds 3+",
    "you keep 6+ cards, the next player holds 1–2",
    "you keep 6+ cards, the next player holds 3+",
];

const TOPICS: &[Topic] = &[
    Topic {
        key: "answer_draw_three",
        question: "A 3 or a joker is played at you: answer or take?",
        options: &["answer with a 3", "answer with a joker", "take"],
        rows: ANSWER_ROWS,
    },
    Topic {
        key: "eight",
        question: "Play your 8 now or keep it?",
        options: &["play the 8", "keep it"],
        rows: HOLD_ROWS,
    },
    Topic {
        key: "two",
        question: "Play a 2 (the next player skips) now or keep it?",
        options: &["play the 2", "keep it"],
        rows: HOLD_ROWS,
    },
    Topic {
        key: "reverse",
        question: "Play a reverse (J or K) now or keep it?",
        options: &["play the reverse", "keep it"],
        rows: HOLD_ROWS,
    },
    Topic {
        key: "plain_card",
        question: "Which plain card: the costliest, or one of the suit you hold most?",
        options: &["costliest", "your longest suit"],
        rows: HOLD_ROWS,
    },
];

impl SheetGame for Ocho {
    type Reference = super::bots::Strategy;
    const TOPICS: &'static [Topic] = TOPICS;
    const SHEETS: &'static [&'static str] = &["4p"];
    const SHEET_GAMES: u64 = 100_000;
    const SHEET_ROLLOUTS: u32 = 8;

    fn reference() -> Self::Reference {
        super::bots::Strategy::of(super::bots::Kind::Greedy)
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

/// Row of [`HOLD_ROWS`]: cards kept after playing one × the next player's hand.
fn hold_row(view: &View<'_>) -> usize {
    let kept = view.hand_len(view.seat()).saturating_sub(1);
    let next = view.hand_len(view.next_after(view.seat()));
    let mine = match kept {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    2 * mine + usize::from(next > 2)
}

/// Sorts an Ocho loco decision into the sheet.
pub fn classify(view: &View<'_>) -> Option<Situation<Action>> {
    let l = view.legal();
    let play = |set: CardSet| (set != 0).then(|| greedy_play(view, lowest(set)));
    match view.phase() {
        Phase::Stack | Phase::StackDrawn => {
            let threes = play(l.plays & rank_mask(THREE));
            let jokers = play(l.plays & JOKERS);
            let take = l.take.then_some(Action::Take);
            let pending = usize::from(view.pending() > 3);
            let hand = usize::from(view.hand_len(view.seat()) > 3);
            Some(Situation {
                topic: 0,
                row: 2 * pending + hand,
                actions: [threes, jokers, take, None],
            })
        }
        Phase::Turn if l.plays != 0 => {
            // The first special in this order that is playable alongside a card of another kind.
            let kinds: [(usize, CardSet); 3] = [
                (1, EIGHTS),
                (2, rank_mask(TWO)),
                (3, rank_mask(JACK) | rank_mask(KING)),
            ];
            for (topic, set) in kinds {
                if topic == 3 && view.players_in() < 3 {
                    // With two players J and K are not a reverse but a second turn.
                    continue;
                }
                let special = l.plays & set;
                let rest = l.plays & !set;
                if special != 0 && rest != 0 {
                    let now = greedy_play(view, lowest(special));
                    let keep = greedy_turn(view, rest);
                    return Some(Situation {
                        topic,
                        row: hold_row(view),
                        actions: [Some(now), Some(keep), None, None],
                    });
                }
            }
            // Plain cards only: the costliest (greedy's) or the best of the suit held most.
            let plain = l.plays & !(EIGHTS | JOKERS | rank_mask(TWO) | rank_mask(THREE));
            if plain == 0 || l.plays != plain {
                return None;
            }
            let hand = view.hand() & !EIGHTS & !JOKERS;
            let longest = (0..4u8)
                .filter(|&s| plain & suit_mask(s) != 0)
                .max_by_key(|&s| (count(hand & suit_mask(s)), std::cmp::Reverse(s)))?;
            let costliest = greedy_turn(view, plain);
            let long = greedy_turn(view, plain & suit_mask(longest));
            (long != costliest).then_some(Situation {
                topic: 4,
                row: hold_row(view),
                actions: [Some(costliest), Some(long), None, None],
            })
        }
        _ => None,
    }
}
