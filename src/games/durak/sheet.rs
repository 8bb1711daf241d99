//! Durak's cheat sheet ([`crate::play::sheet`]): take or beat, transfer or beat, which card to
//! lead early and late, and when to swap the trump — measured with `greedy` at every seat of a
//! two-player game (podkidnoy, and perevodnoy for the transfers).

use super::bots::{cheapest, greedy_move};
use super::cards::{count, rank_mask, suit_mask, Card, CardSet, Cards};
use super::engine::{Action, Phase, View};
use super::rules::{Rules, Variant};
use super::Durak;
use crate::play::sheet::{SheetGame, Situation, Topic, MAX_OPTIONS};

/// Rank index of a queen and of a king (ranks count from the 2 at 0).
const QUEEN: u8 = 10;
const KING: u8 = 11;

/// Take or beat: rows by the stock × cards on the table × what the cheapest beat costs.
const TAKE_ROWS: &[&str] = &[
    "stock left, 1 card to beat, with a plain card",
    "stock left, 1 card to beat, with a low trump (6–J)",
    "stock left, 1 card to beat, only with a high trump (Q–A)",
    "stock left, 2+ cards on the table, with a plain card",
    "stock left, 2+ cards on the table, with a low trump (6–J)",
    "stock left, 2+ cards on the table, only with a high trump (Q–A)",
    "stock gone, 1 card to beat, with a plain card",
    "stock gone, 1 card to beat, with a low trump (6–J)",
    "stock gone, 1 card to beat, only with a high trump (Q–A)",
    "stock gone, 2+ cards on the table, with a plain card",
    "stock gone, 2+ cards on the table, with a low trump (6–J)",
    "stock gone, 2+ cards on the table, only with a high trump (Q–A)",
];

const TRANSFER_ROWS: &[&str] = &[
    "transfer with a plain card, stock left",
    "transfer only with a trump, stock left",
    "transfer with a plain card, stock gone",
    "transfer only with a trump, stock gone",
];

const LEAD_ROWS: &[&str] = &[
    "early (7+ cards in the stock)",
    "late (1–6 cards in the stock)",
    "stock gone",
];

const SWAP_ROWS: &[&str] = &[
    "the card under the stock is an ace or king",
    "the card under the stock is a queen or lower",
];

/// The topics, in this order.
const TOPICS: &[Topic] = &[
    Topic {
        key: "take_or_beat",
        question: "Take or beat?",
        options: &["beat", "take"],
        rows: TAKE_ROWS,
    },
    Topic {
        key: "transfer_or_beat",
        question: "Transfer or beat? (perevodnoy)",
        options: &["transfer", "beat", "take"],
        rows: TRANSFER_ROWS,
    },
    Topic {
        key: "lead",
        question: "Which card to lead?",
        options: &[
            "lowest plain",
            "lowest plain pair",
            "highest plain",
            "lowest trump",
        ],
        rows: LEAD_ROWS,
    },
    Topic {
        key: "swap_trump",
        question: "Swap the trump now?",
        options: &["swap", "keep"],
        rows: SWAP_ROWS,
    },
];

impl SheetGame for Durak {
    type Reference = super::bots::Strategy;
    const TOPICS: &'static [Topic] = TOPICS;
    const SHEETS: &'static [&'static str] = &["podkidnoy-2p", "perevodnoy-2p"];
    const SHEET_GAMES: u64 = 100_000;
    const SHEET_ROLLOUTS: u32 = 8;

    fn reference() -> Self::Reference {
        super::bots::Strategy::Greedy
    }

    fn sheet_rules(sheet: usize) -> Rules {
        let variant = if sheet == 1 {
            Variant::Perevodnoy
        } else {
            Variant::Podkidnoy
        };
        Rules::standard(variant, 2)
    }

    fn sheet_for(rules: &Rules) -> usize {
        usize::from(rules.variant == Variant::Perevodnoy)
    }

    fn classify(view: &View<'_>) -> Option<Situation<Action>> {
        classify(view)
    }
}

fn situation(
    topic: usize,
    row: usize,
    actions: [Option<Action>; MAX_OPTIONS],
) -> Situation<Action> {
    Situation {
        topic,
        row,
        actions,
    }
}

/// Sorts a Durak decision into the sheet.
pub fn classify(view: &View<'_>) -> Option<Situation<Action>> {
    let l = view.legal();
    let trump = view.trump();
    let trumps = suit_mask(trump);
    let stock = view.stock_len();
    if l.swap {
        let keep = greedy_move(view);
        let high = view.swap_for().is_some_and(|c| c.rank() >= KING);
        return Some(situation(
            3,
            usize::from(!high),
            [Some(Action::SwapTrump), Some(keep), None, None],
        ));
    }
    match view.phase() {
        Phase::Defend if l.shows == 0 => {
            let beat = (l.plays != 0).then(|| cheapest(l.plays, trump));
            let take = l.take.then_some(Action::Take);
            let gone = usize::from(stock == 0);
            if l.transfers != 0 {
                let t = cheapest(l.transfers, trump);
                let row = usize::from(t.suit() == trump) + 2 * gone;
                return Some(situation(
                    1,
                    row,
                    [
                        Some(Action::Transfer(t)),
                        beat.map(Action::Play),
                        take,
                        None,
                    ],
                ));
            }
            let b = beat?;
            let on_table = view.attack_cards().len() + view.defence_cards().len();
            let cost = match (b.suit() == trump, b.rank() >= QUEEN) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            };
            let row = cost + 3 * usize::from(on_table > 1) + 6 * gone;
            Some(situation(0, row, [Some(Action::Play(b)), take, None, None]))
        }
        Phase::Attack if !l.combos => {
            let plain = l.plays & !trumps;
            let lowest = (plain != 0).then(|| cheapest(plain, trump));
            let pair = lowest_pair(plain, trump);
            let highest = (plain != 0).then(|| highest_card(plain));
            let trump_card = (l.plays & trumps != 0).then(|| cheapest(l.plays & trumps, trump));
            let mut actions = [lowest, pair, highest, trump_card].map(|c| c.map(Action::Play));
            // An option that is the same card as an earlier one is not a choice of its own.
            for i in 1..MAX_OPTIONS {
                if actions[..i].contains(&actions[i]) {
                    actions[i] = None;
                }
            }
            let row = match stock {
                0 => 2,
                1..=6 => 1,
                _ => 0,
            };
            Some(situation(2, row, actions))
        }
        _ => None,
    }
}

/// The lowest plain card of a rank held at least twice among `plain`.
fn lowest_pair(plain: CardSet, trump: u8) -> Option<Card> {
    Cards(plain)
        .filter(|c| count(plain & rank_mask(c.rank())) >= 2)
        .min_by_key(|c| (c.rank(), c.suit() == trump))
}

/// The highest card of a non-empty set.
fn highest_card(set: CardSet) -> Card {
    Cards(set)
        .max_by_key(|c| c.rank())
        .expect("the set is not empty")
}
