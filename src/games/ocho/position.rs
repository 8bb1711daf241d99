//! Ocho loco positions as players write them: one line of `key: value` items separated by `;`,
//! everything the player to act sees at one decision.
//!
//! ```text
//! seat: 1; hand: AH 2H 5D 7D 8H joker; top: 3S; pending: 3; hands: 6 7 7 6; stock: 21;
//! pile: 2S 4S 6S 7S JS KS; direction: right; tallies: 7 turns, 6 actions
//! ```
//!
//! (seat 1 faces a 3: answer it with the joker, passing six cards on to seat 2, or take three;
//! `tahur ocho position --players 4 --seed 11 --after 6`.)
//!
//! Seats are numbered from 1; play goes to the right (seat 1, 2, 3, …) until a J or a K reverses
//! it. Cards are a rank (A, 2–10, J, Q, K) and a suit letter (S, H, D, C), or `joker`, or as
//! [`Card::parse`] reads them (`10♥`, `as de picas`, `comodín`); with two decks a card may be
//! written twice. The keys:
//!
//! - `rules`: the rules that differ from the standard table for these players, as
//!   `key=value, …` (checked against the table's rules).
//! - `seat`: the player the position is for; `hand`: that player's cards (`none` once out), the
//!   card just drawn included.
//! - `top`: the card on top of the pile; `suit`: the suit in force, needed under an 8 (the suit
//!   it asks for) or a joker (the suit of the card under it), and checked under any other card.
//! - `under`: under a joker on top, the card under it that sets the suit (a reshuffle keeps it
//!   out of the new stock with the top card; without it only the top card is kept out).
//! - `play again: yes`: the seat to act played an A (a J or K with two players left) and may play
//!   again or pass (`play-again=may`, the default).
//! - `pending`: a draw-three to answer with a 3 or a joker, or take: the cards it costs (3, 6, …).
//! - `drawn`: the card just drawn that plays (after drawing until one does; or taking a
//!   draw-three, a first card that is a 3 or a joker, which may answer it); `?` when another
//!   player drew it.
//! - `hands`: every seat's number of cards, in seat order (0 or `out` for a player out).
//! - `voy por una`: the seats that said it (optional): exactly those holding one card, since
//!   forgetting it costs three cards at once.
//! - `stock`: cards left in it.
//! - `pile`: the cards played since the last reshuffle under the top card (everybody saw them
//!   go); the stock and the other hands hold the rest.
//! - `direction`: `right` (by default) or `left`.
//! - `to act`: the seat to act, when the position is written for another seat.
//! - `out`: the seats out in the order they went out (by default in seat order).
//! - `dealer`: by default the last seat (so seat 1 started).
//! - `tallies`: the game's counts so far (`52 turns, 61 actions, 23 cards drawn, 9 taken for
//!   draw-threes, 3 penalty cards, 1 forgotten, 1 reshuffle, longest draw-three 6`; by default
//!   none, the longest draw-three the pending one). Only the actions change play (the game stops
//!   at `max-actions`); `position` writes them so that a position reads back to its game.
//!
//! Spanish keys are read too (`mano`, `arriba`, `palo`, `castigo`, `robada`, `manos`, `mazo`,
//! `pila`, `sentido`, `turno`, `reparte`, …).

use super::cards::{count, Card, CardSet, Cards, DRAW_THREE, EIGHT, JOKERS, RANK_NAMES, THREE};
use super::engine::{playable_on, Action, OchoState, Phase, Setup, Tallies, View, DRAW_PENALTY};
use super::rules::Rules;
use super::Ocho;
use crate::error::{Error, Result};
use crate::play::position::{
    parse_seat, read_dealer, rule_changes, same_rules, Fields, Matches, Positions,
};
use crate::play::{PlayerView, Seat, Start, State};
use crate::rng::Stream;
use crate::text::normalize;

/// Suit letters, in the engine's suit order (♠ ♥ ♦ ♣).
const SUIT_LETTERS: [&str; 4] = ["S", "H", "D", "C"];
/// Suit names, as an 8 names them.
const SUIT_WORDS: [&str; 4] = ["spades", "hearts", "diamonds", "clubs"];

/// The keys of a position with the other names they are read under.
const KEYS: &[(&str, &[&str])] = &[
    ("rules", &["reglas"]),
    ("seat", &["asiento", "jugador"]),
    ("hand", &["mano"]),
    ("top", &["arriba", "encima", "carta de arriba"]),
    ("suit", &["palo", "pide", "asks", "asked"]),
    ("under", &["debajo", "suit card"]),
    ("play again", &["otra vez"]),
    ("pending", &["take", "to take", "castigo", "pendiente"]),
    ("drawn", &["robada", "sacada"]),
    ("hands", &["manos"]),
    ("voy por una", &["por una"]),
    ("stock", &["mazo", "pozo"]),
    ("pile", &["played", "pila", "jugadas"]),
    ("direction", &["sentido", "direccion"]),
    ("to act", &["turn", "turno"]),
    ("out", &["fuera", "salieron"]),
    ("dealer", &["reparte", "repartidor"]),
    ("tallies", &["cuentas"]),
];

/// A card as positions write it: `10D`, `QS`, `joker`.
fn card_text(c: Card) -> String {
    if c.is_joker() {
        "joker".into()
    } else {
        format!(
            "{}{}",
            RANK_NAMES[c.rank() as usize],
            SUIT_LETTERS[c.suit() as usize]
        )
    }
}

/// A set of cards as positions write it, in one deck's order with the two copies of a card side
/// by side: `3S 7H 7H QC joker`.
fn cards_text(set: CardSet) -> String {
    let mut words = Vec::new();
    for k in 0..54 {
        for copy in 0..2 {
            let c = Card(k + 64 * copy);
            if set & c.bit() != 0 {
                words.push(card_text(c));
            }
        }
    }
    words.join(" ")
}

/// The tallies as written, with what each is called (singular, plural); the longest draw-three
/// last, written name first.
const TALLY_NAMES: [(&str, &str); 8] = [
    ("turn", "turns"),
    ("action", "actions"),
    ("card drawn", "cards drawn"),
    ("taken for draw-threes", "taken for draw-threes"),
    ("penalty card", "penalty cards"),
    ("forgotten", "forgotten"),
    ("reshuffle", "reshuffles"),
    ("longest draw-three", "longest draw-three"),
];

/// The tallies as numbers, in [`TALLY_NAMES`]' order.
fn tally_values(t: &Tallies) -> [u64; 8] {
    [
        t.turns.into(),
        t.actions.into(),
        t.cards_drawn.into(),
        t.stack_cards.into(),
        t.penalty_cards.into(),
        t.forgotten.into(),
        t.reshuffles.into(),
        t.longest_stack.into(),
    ]
}

impl Positions for Ocho {
    const POSITION_EXAMPLE: &'static str = "seat: 1; hand: AH 2H 5D 7D 8H joker; top: 3S; pending: 3; hands: 6 7 7 6; stock: 21; pile: 2S 4S 6S 7S JS KS; direction: right; tallies: 7 turns, 6 actions";
    /// `expert` is the strongest bot that answers at once (README: it beats `greedy` by 5
    /// points at four players; `ismcts` searches and is far too slow for thousands of rollouts).
    const ROLLOUT_BOTS: &'static str = "expert";
    const ADVICE_VALUE: &'static str =
        "chance of going out first (a game stopped at the action cap before anybody went out counts half)";

    fn write_position(view: &View<'_>) -> String {
        let rules = view.rules();
        let n = view.players();
        let seat = view.seat();
        let mut items = Vec::new();
        let changes = rule_changes(rules, &Rules::standard(rules.players), &[]);
        if !changes.is_empty() {
            items.push(format!("rules: {changes}"));
        }
        items.push(format!("seat: {}", seat + 1));
        let hand = view.hand();
        items.push(format!(
            "hand: {}",
            if hand == 0 {
                "none".to_string()
            } else {
                cards_text(hand)
            }
        ));
        let top = view.top();
        items.push(format!("top: {}", card_text(top)));
        if top.is_joker() || top.rank() == EIGHT {
            items.push(format!("suit: {}", SUIT_LETTERS[view.suit() as usize & 3]));
        }
        if view.suit_card() != top {
            items.push(format!("under: {}", card_text(view.suit_card())));
        }
        if view.phase() == Phase::Again {
            items.push("play again: yes".into());
        }
        if view.pending() > 0 {
            items.push(format!("pending: {}", view.pending()));
        }
        if matches!(view.phase(), Phase::Drawn | Phase::StackDrawn) {
            items.push(format!(
                "drawn: {}",
                view.drawn().map_or("?".to_string(), card_text)
            ));
        }
        let sizes: Vec<String> = (0..n).map(|p| view.hand_len(p).to_string()).collect();
        items.push(format!("hands: {}", sizes.join(" ")));
        let one: Vec<String> = (0..n)
            .filter(|&p| view.hand_len(p) == 1)
            .map(|p| (p + 1).to_string())
            .collect();
        if !one.is_empty() {
            items.push(format!("voy por una: {}", one.join(" ")));
        }
        items.push(format!("stock: {}", view.stock_len()));
        let under = view.pile() & !top.bit();
        if under != 0 {
            items.push(format!("pile: {}", cards_text(under)));
        }
        items.push(format!(
            "direction: {}",
            if view.reversed() { "left" } else { "right" }
        ));
        if view.to_act() != seat {
            items.push(format!("to act: {}", view.to_act() + 1));
        }
        let out: Vec<Seat> = view.out().collect();
        if out.windows(2).any(|w| w[0] > w[1]) {
            let seats: Vec<String> = out.iter().map(|p| (p + 1).to_string()).collect();
            items.push(format!("out: {}", seats.join(" ")));
        }
        if view.dealer() != n - 1 {
            items.push(format!("dealer: {}", view.dealer() + 1));
        }
        let t = view.tallies();
        let values = tally_values(&t);
        let defaults = tally_values(&Tallies {
            longest_stack: view.pending(),
            ..Tallies::default()
        });
        let tallies: Vec<String> = TALLY_NAMES
            .iter()
            .zip(values.iter().zip(defaults))
            .enumerate()
            .filter(|(_, (_, (v, d)))| *v != d)
            .map(|(i, ((one, many), (v, _)))| {
                let name = if *v == 1 { one } else { many };
                if i == 7 {
                    format!("{name} {v}")
                } else {
                    format!("{v} {name}")
                }
            })
            .collect();
        if !tallies.is_empty() {
            items.push(format!("tallies: {}", tallies.join(", ")));
        }
        items.join("; ")
    }

    fn read_position(rules: &Rules, text: &str, rng: &mut Stream) -> Result<OchoState> {
        let fields = Fields::split(
            text,
            KEYS,
            "hand: 7H 9H QS",
            <Ocho as Positions>::POSITION_EXAMPLE,
        )?;
        let n = rules.players as usize;
        let seats = Seats { n };
        if let Some(v) = fields.get("rules") {
            same_rules(rules, &Rules::standard(rules.players), v, "position", &[])?;
        }
        let me = seats.parse("seat", fields.need("seat")?)?;
        let mut places = Places::new(rules);
        let hand_text = fields.need("hand")?;
        let hand = if matches!(
            normalize(hand_text).as_str(),
            "none" | "nada" | "ninguna" | "-"
        ) {
            0
        } else {
            places.cards("hand", hand_text, "in your hand")?
        };
        let top_text = fields.need("top")?;
        let top = places.card("top", card_in("top", top_text)?, "on top of the pile")?;
        let pile = match fields.get("pile") {
            Some(v) => places.cards("pile", v, "in the pile")?,
            None => 0,
        } | top.bit();

        // Hand sizes by seat.
        let sizes_text = fields.need("hands")?;
        let words: Vec<&str> = sizes_text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() != n {
            return Err(Error::usage(format!(
                "hands: '{sizes_text}' gives {} seats, but the rules are for {n} players: give one number of cards (0 or out for a player out) per seat",
                words.len()
            )));
        }
        let mut sizes = vec![0u32; n];
        for (p, w) in words.iter().enumerate() {
            sizes[p] = match normalize(w).as_str() {
                "out" | "fuera" => 0,
                t => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&k| k <= rules.cards())
                    .ok_or_else(|| {
                        Error::usage(format!(
                            "hands: '{w}' for seat {}: give a number of cards, 0 to {}, or out",
                            p + 1,
                            rules.cards()
                        ))
                    })?,
            };
        }
        if sizes[me] != count(hand) {
            return Err(Error::usage(format!(
                "hands: seat {} has {} cards, but your hand lists {}: make them agree",
                me + 1,
                sizes[me],
                count(hand)
            )));
        }
        let holding = sizes.iter().filter(|&&k| k > 0).count();
        if holding < 2 {
            return Err(Error::usage(format!(
                "hands: {holding} player{} hold{} cards: the game is over once one player alone holds cards",
                if holding == 1 { "" } else { "s" },
                if holding == 1 { "s" } else { "" }
            )));
        }
        let stock_text = fields.need("stock")?;
        let stock = stock_text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&k| k <= rules.cards())
            .ok_or_else(|| {
                Error::usage(format!(
                    "stock: '{stock_text}': give the number of cards left in it, 0 to {}",
                    rules.cards()
                ))
            })?;

        // The suit in force: named by an 8, kept under a joker, else the top card's own.
        let names_suit = top.is_joker() || top.rank() == EIGHT;
        let suit = match (fields.get("suit"), names_suit) {
            (Some(v), _) => parse_suit(v)?,
            (None, true) => {
                return Err(Error::usage(format!(
                    "suit: missing: under {} give the suit in force, e.g. suit: H ({})",
                    card_text(top),
                    if top.is_joker() {
                        "a joker keeps the suit of the card under it"
                    } else {
                        "the suit the 8 asked for"
                    }
                )))
            }
            (None, false) => top.suit(),
        };
        if !names_suit && suit != top.suit() {
            return Err(Error::usage(format!(
                "suit: {} under {}: only an 8 names a suit and a joker keeps the one under it; {} sets {}",
                SUIT_LETTERS[suit as usize],
                card_text(top),
                card_text(top),
                SUIT_LETTERS[top.suit() as usize]
            )));
        }
        let value = if top.is_joker() { THREE } else { top.rank() };
        let under = match fields.get("under") {
            None => None,
            Some(v) => {
                let c = card_in("under", v)?;
                let Some(u) = Cards(pile & !top.bit()).find(|x| same_card(*x, c)) else {
                    return Err(Error::usage(format!(
                        "under: {} is not on the pile: the card that set the suit under the joker is one of the pile's cards",
                        card_text(c)
                    )));
                };
                if !top.is_joker() || u.is_joker() {
                    return Err(Error::usage(format!(
                        "under: {}: only a joker on top has a card under it that sets the suit, and that card is not a joker",
                        card_text(u)
                    )));
                }
                Some(u)
            }
        };
        let again = fields.flag("play again")?;

        // A pending draw-three.
        let most = DRAW_PENALTY as u32 * count(rules.deck_cards() & DRAW_THREE);
        let pending = match fields.get("pending") {
            None => 0,
            Some(v) => v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&k| k.is_multiple_of(DRAW_PENALTY as u32) && k <= most)
                .ok_or_else(|| {
                    Error::usage(format!(
                        "pending: '{}': give the cards a draw-three costs, 3 for each 3 or joker stacked, at most {most}",
                        v.trim()
                    ))
                })? as u16,
        };
        if pending > 0 && top.bit() & DRAW_THREE == 0 {
            return Err(Error::usage(format!(
                "pending: {pending} with {} on top: a draw-three is pending only on a 3 or a joker",
                card_text(top)
            )));
        }

        // The turn, and a card just drawn.
        let to_act = match fields.get("to act") {
            Some(v) => seats.parse("to act", v)?,
            None => me,
        };
        if sizes[to_act] == 0 {
            return Err(Error::usage(format!(
                "to act: seat {} holds no cards: a player out has no turn",
                to_act + 1
            )));
        }
        let (drawing, drawn) = match fields.get("drawn") {
            None => (false, None),
            Some(v) if matches!(v.trim(), "?" | "unseen" | "hidden" | "oculta") => {
                if to_act == me {
                    return Err(Error::usage(
                        "drawn: ? on your own turn: name the card you drew (it is in your hand too)",
                    ));
                }
                (true, None)
            }
            Some(v) => {
                if to_act != me {
                    return Err(Error::usage(format!(
                        "drawn: seat {} is to act, and you cannot see the card they drew: write drawn: ?",
                        to_act + 1
                    )));
                }
                let c = card_in("drawn", v)?;
                let Some(d) = Cards(hand).find(|h| same_card(*h, c)) else {
                    return Err(Error::usage(format!(
                        "drawn: {} is not in your hand: the card you drew is in your hand, give it there too",
                        card_text(c)
                    )));
                };
                (true, Some(d))
            }
        };
        if let Some(d) = drawn {
            if pending == 0 {
                let plays = playable_on(rules, suit, value);
                if plays & d.bit() == 0 {
                    return Err(Error::usage(format!(
                        "drawn: {} does not play on {}: a player draws until a card that plays comes",
                        card_text(d),
                        card_text(top)
                    )));
                }
                let others = hand & plays & !d.bit();
                if others != 0 {
                    return Err(Error::usage(format!(
                        "drawn: {} in your hand plays on {} too: a player draws only holding nothing that plays",
                        cards_text(others),
                        card_text(top)
                    )));
                }
            } else if d.bit() & DRAW_THREE == 0 {
                return Err(Error::usage(format!(
                    "drawn: {} while taking a draw-three: only a first card that is a 3 or a joker stops the taking",
                    card_text(d)
                )));
            }
        }

        // Who went out, who said «voy por una», the direction and the dealer.
        let out_by_seat: Vec<Seat> = (0..n).filter(|&p| sizes[p] == 0).collect();
        let out = match fields.get("out") {
            None => out_by_seat,
            Some(v) => {
                let list = seats.list("out", v)?;
                let mut sorted = list.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted != out_by_seat || sorted.len() != list.len() {
                    return Err(Error::usage(format!(
                        "out: list each seat with no cards once ({}), in the order they went out",
                        if out_by_seat.is_empty() {
                            "none has none".to_string()
                        } else {
                            out_by_seat
                                .iter()
                                .map(|p| format!("seat {}", p + 1))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    )));
                }
                list
            }
        };
        if let Some(v) = fields.get("voy por una") {
            for p in seats.list("voy por una", v)? {
                if sizes[p] != 1 {
                    return Err(Error::usage(format!(
                        "voy por una: seat {} holds {} cards: a player says it playing down to one card (forgetting costs three cards at once)",
                        p + 1,
                        sizes[p]
                    )));
                }
            }
        }
        let reversed = match fields.get("direction").map(normalize) {
            None => false,
            Some(d) => match d.as_str() {
                "right" | "derecha" | "a la derecha" | "to the right" => false,
                "left" | "izquierda" | "a la izquierda" | "to the left" | "reversed" => true,
                _ => {
                    return Err(Error::usage(format!(
                        "direction: '{d}': use right (seat 1, 2, 3, …, as dealt) or left (reversed by a J or a K)"
                    )))
                }
            },
        };
        let dealer = match fields.get("dealer") {
            Some(v) => seats.parse("dealer", v)?,
            None => n - 1,
        };
        let tallies = match fields.get("tallies") {
            Some(v) => parse_tallies(v, pending)?,
            None => Tallies {
                longest_stack: pending,
                ..Tallies::default()
            },
        };
        check_tallies(rules, &tallies, pending)?;

        // Every card the player cannot place: the other hands and the stock hold exactly those.
        let unseen = rules.deck_cards() & !hand & !pile;
        let hidden: u32 = (0..n).filter(|&p| p != me).map(|p| sizes[p]).sum::<u32>() + stock;
        if count(unseen) != hidden {
            return Err(Error::usage(format!(
                "the cards do not add up: of the {} cards, {} are in your hand, {} on the pile and {} unseen, but the other hands and the stock hold {hidden}: check the hand sizes, the stock and the pile",
                rules.cards(),
                count(hand),
                count(pile),
                count(unseen)
            )));
        }
        let setup = Setup {
            seat: me,
            hand,
            sizes: &sizes,
            stock,
            pile,
            top,
            suit,
            pending,
            reversed,
            to_act,
            drawing,
            drawn,
            again,
            under,
            dealer,
            out: &out,
            tallies,
        };
        OchoState::at_position(*rules, &setup, rng)
            .map_err(|e| Error::usage(format!("the position cannot be played: {e}")))
    }

    /// `play 7H`, `play 8C naming hearts` (an 8 played last keeps its own suit), `play joker`,
    /// `draw until one plays`, `take the draw-three`, `pass`.
    fn action_name(action: Action) -> String {
        match action {
            Action::Play { card, suit, silent } => {
                let mut s = format!("play {}", card_text(card));
                if card.rank() == EIGHT {
                    s.push_str(" naming ");
                    s.push_str(SUIT_WORDS[suit as usize & 3]);
                }
                if silent {
                    s.push_str(" without saying «voy por una»");
                }
                s
            }
            Action::Draw => "draw until one plays".into(),
            Action::Take => "take the draw-three".into(),
            Action::Pass => "pass".into(),
        }
    }
}

/// Whether `a` and `b` are the same card, whichever deck each comes from.
fn same_card(a: Card, b: Card) -> bool {
    a.0 & 63 == b.0 & 63 || (a.is_joker() && b.is_joker())
}

/// A suit as written: a letter, a symbol or its Spanish name.
fn parse_suit(text: &str) -> Result<u8> {
    let t = normalize(text);
    let word = t
        .strip_prefix("de ")
        .unwrap_or(&t)
        .trim_end_matches('s')
        .to_string();
    let english = SUIT_WORDS
        .iter()
        .position(|w| w.trim_end_matches('s') == word);
    match english {
        Some(s) => Ok(s as u8),
        None => Card::parse(&format!("a de {}", t.strip_prefix("de ").unwrap_or(&t)))
            .map(|c| c.suit())
            .map_err(|_| {
                Error::usage(format!(
                    "suit: '{}': give S, H, D or C (♠ ♥ ♦ ♣, spades, hearts, diamonds, clubs, picas, corazones, diamantes, tréboles)",
                    text.trim()
                ))
            }),
    }
}

/// The tallies from `52 turns, 61 actions, …` (any order; each at most once).
fn parse_tallies(text: &str, pending: u16) -> Result<Tallies> {
    let mut given: [Option<u64>; 8] = [None; 8];
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let words: Vec<&str> = item.split_whitespace().collect();
        let numbers: Vec<usize> = (0..words.len())
            .filter(|&i| words[i].parse::<u64>().is_ok())
            .collect();
        let bad = || {
            Error::usage(format!(
                "tallies: '{item}': give a number and a name, e.g. 52 turns (names: {})",
                TALLY_NAMES.map(|(_, many)| many).join(", ")
            ))
        };
        let [at] = numbers[..] else {
            return Err(bad());
        };
        let name = normalize(
            &words
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != at)
                .map(|(_, w)| *w)
                .collect::<Vec<_>>()
                .join(" "),
        );
        let name = name.strip_prefix("«voy por una» ").unwrap_or(&name);
        let k = TALLY_NAMES
            .iter()
            .position(|(one, many)| name == *one || name == *many)
            .ok_or_else(bad)?;
        if given[k].is_some() {
            return Err(Error::usage(format!(
                "tallies: {} given twice: give it once",
                TALLY_NAMES[k].1
            )));
        }
        given[k] = Some(words[at].parse::<u64>().map_err(|_| bad())?);
    }
    let wide = |k: usize| -> Result<u32> {
        u32::try_from(given[k].unwrap_or(0)).map_err(|_| {
            Error::usage(format!(
                "tallies: {} {}: too many",
                given[k].unwrap_or(0),
                TALLY_NAMES[k].1
            ))
        })
    };
    let narrow = |k: usize, default: u16| -> Result<u16> {
        u16::try_from(given[k].unwrap_or(default.into())).map_err(|_| {
            Error::usage(format!(
                "tallies: {} {}: too many",
                given[k].unwrap_or(0),
                TALLY_NAMES[k].1
            ))
        })
    };
    Ok(Tallies {
        turns: wide(0)?,
        actions: wide(1)?,
        cards_drawn: wide(2)?,
        stack_cards: wide(3)?,
        penalty_cards: wide(4)?,
        forgotten: narrow(5, 0)?,
        reshuffles: narrow(6, 0)?,
        longest_stack: narrow(7, pending)?,
    })
}

/// Refuses tallies that cannot go together (or with the pending draw-three and the action cap).
fn check_tallies(rules: &Rules, t: &Tallies, pending: u16) -> Result<()> {
    let fail = |what: String| Err(Error::usage(format!("tallies: {what}")));
    if t.actions >= rules.max_actions {
        return fail(format!(
            "{} actions: the game stops at max-actions={}, so it would be over",
            t.actions, rules.max_actions
        ));
    }
    if u64::from(t.turns) > u64::from(t.actions) + 1 {
        return fail(format!(
            "{} turns in {} actions: each action starts one turn at most (the first turn comes with the deal)",
            t.turns, t.actions
        ));
    }
    if u64::from(t.stack_cards) + u64::from(t.penalty_cards) > u64::from(t.cards_drawn) {
        return fail(format!(
            "{} taken for draw-threes and {} penalty cards, but {} cards drawn in all",
            t.stack_cards, t.penalty_cards, t.cards_drawn
        ));
    }
    if u64::from(t.penalty_cards) > u64::from(DRAW_PENALTY) * u64::from(t.forgotten) {
        return fail(format!(
            "{} penalty cards for {} «voy por una» forgotten: each costs three cards at most",
            t.penalty_cards, t.forgotten
        ));
    }
    if t.longest_stack < pending || !t.longest_stack.is_multiple_of(DRAW_PENALTY) {
        return fail(format!(
            "longest draw-three {} with {pending} pending: give a multiple of 3, at least the pending draw-three",
            t.longest_stack
        ));
    }
    Ok(())
}

/// Seat numbers as written (from 1) for a table of `n`.
struct Seats {
    n: usize,
}

impl Seats {
    fn parse(&self, key: &str, text: &str) -> Result<Seat> {
        parse_seat(key, text, self.n, "to the right")
    }

    /// Seats separated by spaces or commas (`2 4`, `seat 2, seat 4`).
    fn list(&self, key: &str, text: &str) -> Result<Vec<Seat>> {
        let t = normalize(text);
        let words: Vec<&str> = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty() && !matches!(*w, "seat" | "asiento"))
            .collect();
        words.iter().map(|w| self.parse(key, w)).collect()
    }
}

/// The cards of a position, each in one place only: a card of each deck in play (a second
/// copy of a card only with two decks).
struct Places {
    deck: CardSet,
    decks: u8,
    seen: CardSet,
    /// Where each card was seen, for the message when it is seen once too often.
    place: Vec<(Card, String)>,
}

impl Places {
    fn new(rules: &Rules) -> Self {
        Places {
            deck: rules.deck_cards(),
            decks: rules.decks,
            seen: 0,
            place: Vec::new(),
        }
    }

    /// Puts a card as written (`c`, the first deck's) in `place`: the first copy of it not
    /// placed yet, or a refusal naming where the copies are.
    fn card(&mut self, key: &str, c: Card, place: &str) -> Result<Card> {
        let copies: CardSet = if c.is_joker() {
            JOKERS
        } else {
            c.bit() | c.bit() << 64
        } & self.deck;
        let free = copies & !self.seen;
        if free == 0 {
            let mut before: Vec<&str> = Vec::new();
            for (d, p) in &self.place {
                if same_card(*d, c) && !before.contains(&p.as_str()) {
                    before.push(p);
                }
            }
            let held = count(copies);
            return Err(Error::usage(if held == 1 {
                format!(
                    "{key}: {} is both {} and {place}: one deck holds one {} (give decks=2 for two decks)",
                    card_text(c),
                    before.join(" and "),
                    card_text(c)
                )
            } else {
                format!(
                    "{key}: one {} too many {place}: {} hold{} {held} ({} already)",
                    card_text(c),
                    if self.decks == 1 {
                        "one deck"
                    } else {
                        "the two decks"
                    },
                    if self.decks == 1 { "s" } else { "" },
                    before.join(" and ")
                )
            }));
        }
        let got = Card(free.trailing_zeros() as u8);
        self.seen |= got.bit();
        self.place.push((got, place.to_string()));
        Ok(got)
    }

    /// Puts every card of `text` in `place`.
    fn cards(&mut self, key: &str, text: &str, place: &str) -> Result<CardSet> {
        let spaced = text.replace(',', " ");
        let tokens: Vec<&str> = spaced.split_whitespace().collect();
        let mut set = 0;
        let mut i = 0;
        while i < tokens.len() {
            let (c, next) = one_card(key, &tokens, i)?;
            set |= self.card(key, c, place)?.bit();
            i = next;
        }
        Ok(set)
    }
}

/// The one card `text` names.
fn card_in(key: &str, text: &str) -> Result<Card> {
    let spaced = text.replace(',', " ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let (c, next) = one_card(key, &tokens, 0)?;
    if next != tokens.len() {
        return Err(Error::usage(format!(
            "{key}: '{}': give one card, e.g. 9H",
            text.trim()
        )));
    }
    Ok(c)
}

/// The card at `tokens[i]` (three tokens for a Spanish name, `as de picas`) and the index after
/// it.
fn one_card(key: &str, tokens: &[&str], i: usize) -> Result<(Card, usize)> {
    let named = |e: Error| Error::usage(format!("{key}: {e}"));
    if tokens.get(i + 1).is_some_and(|t| normalize(t) == "de") && i + 2 < tokens.len() {
        let name = tokens[i..i + 3].join(" ");
        return Ok((Card::parse(&name).map_err(named)?, i + 3));
    }
    match tokens.get(i) {
        Some(t) => Ok((Card::parse(t).map_err(named)?, i + 1)),
        None => Err(Error::usage(format!("{key}: give a card, e.g. 9H"))),
    }
}

/// An Ocho loco match state is who deals: every game is dealt afresh, and what a game carries
/// from the one before is the dealer (the player on the dealer's left plays first).
impl Matches for Ocho {
    type Match = Option<Seat>;
    const MATCH_EXAMPLE: &'static str = "dealer: 2";
    const MATCH_FLAG: Option<&'static str> = None;

    fn read_match(rules: &Rules, text: &str) -> Result<Option<Seat>> {
        read_dealer(
            text,
            rules.players as usize,
            "an Ocho loco",
            &["dealer", "reparte", "da"],
        )
    }

    fn write_match(_rules: &Rules, m: &Option<Seat>) -> String {
        m.map_or(String::new(), |d| format!("dealer: {}", d + 1))
    }

    fn deal_from_match(
        rules: &Rules,
        m: &Option<Seat>,
        start: &Start,
        rng: &mut Stream,
    ) -> OchoState {
        let start = match m {
            None => *start,
            Some(d) => Start {
                dealer: Some(*d),
                first: None,
                length: 0,
            },
        };
        OchoState::deal(rules, &start, rng)
    }

    fn equity_grid(_rules: &Rules) -> Vec<Option<Seat>> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suits_and_cards_read_as_written() {
        for (text, suit) in [
            ("H", 1),
            ("♣", 3),
            ("hearts", 1),
            ("spade", 0),
            ("corazones", 1),
            ("de tréboles", 3),
            ("Diamantes", 2),
        ] {
            assert_eq!(parse_suit(text).unwrap(), suit, "{text}");
        }
        assert!(parse_suit("X").unwrap_err().to_string().contains("'X'"));
        let set = Card(25).bit() | Card(64 + 25).bit() | Card(33).bit() | Card(116).bit();
        assert_eq!(cards_text(set), "7H 7H 9H joker");
        assert_eq!(
            card_in("top", "ocho de picas").unwrap(),
            Card::new(EIGHT, 0)
        );
        assert!(card_in("top", "8S 9S").is_err());
    }
}
