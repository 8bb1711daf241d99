//! The Ocho loco engine (docs/rules.md §5, reglas «Montañita»): [`OchoState`], the [`State`] of a game
//! of Ocho loco over card sets held as bitmasks. Bots see a game only through a [`View`]: their
//! hand, the played cards, the suit in force, the pending draw, hand sizes and the stock's size;
//! [`State::deal_for_view`] deals the cards a player cannot see for search.
//!
//! How a turn runs (one player acts at a time):
//! - **Turn**: play a card of the suit in force or of the value on top, or an 8 (naming a suit),
//!   or a joker (on any card, or with `joker=three` only where a 3 may go). A player who holds a
//!   playable card must play one. With none, the player draws ([`Action::Draw`]) until a playable
//!   card comes: it is then played (**Drawn**; with `keep-drawn` it may be kept, ending the turn).
//!   When the stock is empty the played cards are shuffled into a new stock but the top one and,
//!   under a joker, the card that sets the suit («excluyendo la que dicte el palo»); with
//!   nothing left to draw at all the player passes.
//! - **Stack**: after a 3 or a joker the next player answers with a 3 or a joker (the pending
//!   draw grows by 3 and passes on; with `eight-answers` an 8 cancels it) or takes
//!   ([`Action::Take`]). Taking draws one card first: if it is a 3 or a joker and the player
//!   held nothing that answers («en caso de que alguien no tenga un 3»), they may answer with it
//!   (**StackDrawn**); otherwise, or if they take again, they draw the rest of the pending cards
//!   and lose the turn.
//! - Effects: A — the same player may play again (**Again**: a card that plays, or pass; with
//!   `play-again=must` a normal turn, chains either way); 2 — the next player skips; 3 and joker —
//!   draw-three as above; 8 — the suit named (its own suit when it is the player's last card);
//!   J and K — the direction reverses, and with two players left the same player plays again (as
//!   after an A).
//!   A joker keeps the suit in force (the suit of the card under it) and counts as a 3 for
//!   matching by value.
//! - «Voy por una»: a play that leaves one card is marked `silent` when the player forgot to say
//!   it (bots forget at their strategy's rate): the player then draws 3 cards at once.
//! - A player who plays their last card is out; the game ends when one player still holds cards.
//!   A game reaching `max-actions` actions stops unfinished (capped).
//!
//! Where the rules are written, once: this file deals, checks that an action is legal, shows a
//! player's view and deals what a player cannot see; the moves themselves (a card played and
//! what it does, drawing, taking a draw-three, reshuffling) and the random play-out are the
//! methods of the game's table (`engine/table.rs`), written over the word that holds a card set
//! (`engine/word.rs`). [`OchoState`] keeps its table in 128 bits (one or two decks); the random
//! play-out of a one-deck game runs the same methods on 64-bit sets.

use std::fmt;

use super::cards::{
    count, nth, Card, CardSet, Cards, ACE, DRAW_THREE, EIGHT, JACK, JOKERS, KING, ONE_DECK, THREE,
    TWO,
};
use super::rules::{FirstCard, JokerRule, PlayAgain, Rules, MAX_CARDS, MAX_PLAYERS};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS, MAX_SEATS};
use crate::rng::{uniform_below, Rng, Stream};

mod table;
mod word;

use table::Table;
use word::CardWord;

/// Cards drawn for each 3 or joker in a draw-three stack, and for forgetting «voy por una».
pub const DRAW_PENALTY: u16 = 3;

/// What a player may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play `card`. `suit` is the suit named with an 8 (for other cards it is ignored and
    /// [`State::legal_actions`] writes the card's own suit, 0 for a joker). `silent`: the play
    /// leaves one card and the player did not say «voy por una» (3 cards' penalty).
    Play {
        /// The card.
        card: Card,
        /// The suit named with an 8.
        suit: u8,
        /// «Voy por una» forgotten.
        silent: bool,
    },
    /// No playable card: draw until one comes.
    Draw,
    /// Take the pending draw-three (first one card, which may be answered with if it is a 3 or
    /// a joker; taking again draws the rest).
    Take,
    /// Keep the drawn card (with `keep-drawn`), pass with nothing left to draw, or decline the
    /// right to play again after an A (a J or K with two players left).
    Pass,
}

impl Action {
    /// Plays a card that is not an 8 (or an 8 keeping its own suit).
    pub fn play(card: Card) -> Action {
        Action::Play {
            card,
            suit: canonical_suit(card),
            silent: false,
        }
    }
    /// Plays an 8 naming `suit`.
    pub fn eight(card: Card, suit: u8) -> Action {
        Action::Play {
            card,
            suit,
            silent: false,
        }
    }
}

/// The suit field [`State::legal_actions`] writes for a card that names none.
#[inline]
pub fn canonical_suit(card: Card) -> u8 {
    if card.is_joker() {
        0
    } else {
        card.suit()
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play { card, suit, silent } => {
                write!(f, "play {card}")?;
                if card.rank() == EIGHT {
                    write!(
                        f,
                        " naming {}",
                        super::cards::SUIT_SYMBOLS[*suit as usize & 3]
                    )?;
                }
                if *silent {
                    f.write_str(" without saying «voy por una»")?;
                }
                Ok(())
            }
            Action::Draw => f.write_str("draw until playable"),
            Action::Take => f.write_str("take the draw-three"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A normal turn.
    Turn,
    /// The player drew a playable card and plays it (or keeps it, with `keep-drawn`).
    Drawn,
    /// A draw-three is pending: answer or take.
    Stack,
    /// Taking, the first card drawn was a 3 or a joker: answer with it or take the rest.
    StackDrawn,
    /// After an A (a J or K with two players left) the same player may play again: a card that
    /// plays, or pass (drawing nothing). Only with `play-again=may`, the default.
    Again,
    /// The game is over.
    Over,
}

/// The legal actions of the player to act (no allocation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Legal {
    /// Cards that may be played.
    pub plays: CardSet,
    /// [`Action::Draw`] is legal.
    pub draw: bool,
    /// [`Action::Take`] is legal.
    pub take: bool,
    /// [`Action::Pass`] is legal.
    pub pass: bool,
    /// The player holds one card: an 8 played keeps its own suit.
    pub last_card: bool,
}

impl Legal {
    /// Moves: playable cards plus draw, take and pass (an 8's suits count once).
    #[inline]
    pub fn moves(&self) -> u32 {
        count(self.plays) + self.draw as u32 + self.take as u32 + self.pass as u32
    }

    /// The move that is not a card (draw, take or pass), if any.
    #[inline]
    pub fn other(&self) -> Option<Action> {
        if self.draw {
            Some(Action::Draw)
        } else if self.take {
            Some(Action::Take)
        } else if self.pass {
            Some(Action::Pass)
        } else {
            None
        }
    }

    /// Appends every legal action: each card (an 8 once per suit it may name), then draw, take
    /// and pass.
    pub fn push_all(&self, out: &mut Vec<Action>) {
        for c in Cards(self.plays) {
            if c.rank() == EIGHT && !self.last_card {
                out.extend((0..4).map(|s| Action::eight(c, s)));
            } else {
                out.push(Action::play(c));
            }
        }
        if self.draw {
            out.push(Action::Draw);
        }
        if self.take {
            out.push(Action::Take);
        }
        if self.pass {
            out.push(Action::Pass);
        }
    }
}

/// The cards that play in a normal turn under `rules` on the suit in force `suit` and the value
/// to match `value` (a joker on top counts as a 3): a card of that suit or value, an 8, and a
/// joker where the rules let it go.
pub fn playable_on(rules: &Rules, suit: u8, value: u8) -> CardSet {
    let wild = if rules.joker == JokerRule::Any {
        JOKERS
    } else {
        0
    };
    table::follows(suit & 3, value) | wild
}

/// A game's counts so far. They change no play but for the action cap (`max-actions`), which
/// counts the actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tallies {
    /// Turns taken (a player's extra turn after an A, J or K counts as a turn).
    pub turns: u32,
    /// Actions taken.
    pub actions: u32,
    /// Cards drawn after the deal.
    pub cards_drawn: u32,
    /// Of them, cards taken for draw-threes.
    pub stack_cards: u32,
    /// Of them, cards drawn for forgetting «voy por una».
    pub penalty_cards: u32,
    /// «Voy por una» forgotten.
    pub forgotten: u16,
    /// Reshuffles of the played cards into a new stock.
    pub reshuffles: u16,
    /// The longest draw-three so far (cards).
    pub longest_stack: u16,
}

/// Everything one player sees at a position, for [`OchoState::at_position`].
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// The seat the position is for.
    pub seat: Seat,
    /// Its hand (a card it has just drawn included).
    pub hand: CardSet,
    /// Every seat's number of cards, by seat (0 for a player out).
    pub sizes: &'a [u32],
    /// Cards in the stock.
    pub stock: u32,
    /// The cards played since the last reshuffle, the top one included.
    pub pile: CardSet,
    /// The top card.
    pub top: Card,
    /// The suit in force under an 8 (the suit named) or a joker (the suit kept); any other top
    /// card shows its own and this is not read.
    pub suit: u8,
    /// The pending draw-three (cards to take), 0 when none.
    pub pending: u16,
    /// Whether play goes to the left.
    pub reversed: bool,
    /// The seat to act.
    pub to_act: Seat,
    /// Whether the seat to act has just drawn a card it may play: drawing until one plays, or
    /// taking a draw-three, a first card that is a 3 or a joker.
    pub drawing: bool,
    /// That card, when the seat to act is the seat of the position (else `None`).
    pub drawn: Option<Card>,
    /// The seat to act played an A (a J or K with two players left) and may play again
    /// (`play-again=may`).
    pub again: bool,
    /// Under a joker on top: the card under it that sets the suit (kept out of a reshuffle);
    /// `None` when not given (then only the top is kept out).
    pub under: Option<Card>,
    /// The dealer (the starter sits on the dealer's right).
    pub dealer: Seat,
    /// The seats out, in the order they went out.
    pub out: &'a [Seat],
    /// The counts so far.
    pub tallies: Tallies,
}

/// A game of Ocho loco in progress: the rules, the dealer and the starter, and the table the
/// rules move (card sets of one or two decks as `u128`).
#[derive(Clone, Debug)]
pub struct OchoState {
    rules: Rules,
    dealer: u8,
    starter: u8,
    legal: Legal,
    table: Table<CardSet>,
}

/// Slots of the hands array (at least [`MAX_PLAYERS`], a power of two).
const SLOTS: usize = 16;

/// Every card of two decks in order (a deck is the first 54 of them), then unused places.
const DECK_ORDER: [Card; 128] = {
    let mut d = [Card(0); 128];
    let mut i = 0;
    while i < MAX_CARDS {
        d[i] = Card(if i < 54 { i as u8 } else { (i + 10) as u8 });
        i += 1;
    }
    d
};

/// The next seat of `active` after `seat`, to the right (seat + 1, wrapping) or, `reversed`, to
/// the left; `seat` itself when it is the only one.
#[inline]
fn next_in(active: u16, seat: u8, reversed: bool) -> u8 {
    let active = active as u32;
    if reversed {
        let below = active & ((1u32 << seat) - 1);
        let pick = if below != 0 { below } else { active };
        (31 - pick.leading_zeros()) as u8
    } else {
        let above = active & !((2u32 << seat) - 1);
        let pick = if above != 0 { above } else { active };
        pick.trailing_zeros() as u8
    }
}

impl OchoState {
    /// Shuffles, deals the hands one card at a time to the right from the dealer (random unless
    /// given) and turns the first card.
    fn dealt(rules: Rules, dealer: Option<u8>, rng: &mut impl Rng) -> OchoState {
        let n = rules.players;
        let h = rules.hand as usize;
        let wild = if rules.joker == JokerRule::Any {
            JOKERS
        } else {
            0
        };
        let mut t = Table::new(n, DECK_ORDER, wild, rules.eight_answers, rules.keep_drawn);
        t.again_right = rules.play_again == PlayAgain::May;
        let mut m = rules.cards() as usize;
        let dealer = dealer.unwrap_or_else(|| uniform_below(rng, n as usize) as u8);
        let starter = (dealer + 1) % n;
        // Dealt one at a time to the right, starting with the dealer's right, each card a
        // uniformly random one of those left (a lazy shuffle: the same as dealing from the top
        // of a shuffled deck); what is left is the stock.
        let mut seat = starter as usize;
        for _ in 0..n as usize * h {
            let j = uniform_below(rng, m);
            m -= 1;
            t.hands[seat & 15] |= t.stock[j & 127].bit();
            t.stock[j & 127] = t.stock[m & 127];
            seat = if seat + 1 == n as usize { 0 } else { seat + 1 };
        }
        t.stock_len = m as u32;
        t.to_act = starter;
        let mut g = OchoState {
            rules,
            dealer,
            starter,
            legal: Legal::default(),
            table: t,
        };
        g.turn_first_card(rng);
        g
    }

    /// Turns the first card: a joker goes back into the stock and another is turned (it has no
    /// suit to set), so the turned card is a uniformly random non-joker of the stock. Then play
    /// starts as the rules say.
    fn turn_first_card(&mut self, rng: &mut impl Rng) {
        let t = &mut self.table;
        let card = loop {
            // Validation leaves at least 5 cards after dealing, so a non-joker is always left.
            let j = uniform_below(rng, t.stock_len as usize) & 127;
            let c = t.stock[j];
            if !c.is_joker() {
                t.stock_len -= 1;
                t.stock[j] = t.stock[t.stock_len as usize & 127];
                break c;
            }
        };
        t.pile = card.bit();
        t.top = card.0;
        t.under = card.0;
        t.seats();
        let mut first = self.starter;
        let mut again = false;
        if self.rules.first_card == FirstCard::Acts {
            match card.rank() {
                // The dealer "played" it: the dealer plays again, that is first.
                ACE => (first, again) = (self.dealer, true),
                TWO => first = t.next(self.starter),
                THREE => t.pending = DRAW_PENALTY,
                JACK | KING if t.n == 2 => (first, again) = (self.dealer, true),
                JACK | KING => {
                    t.dir = 16;
                    first = t.next(self.dealer);
                }
                _ => {}
            }
        }
        t.show(card.suit(), card.rank());
        t.longest_stack = t.pending;
        t.start_turn(first);
        if again && t.again_right {
            t.phase = Phase::Again;
        }
        self.refresh();
    }

    /// A position set up by hand (for tests and analyses): hands by seat, the stock, the top card
    /// with the suit in force, the pending draw, the direction and who acts (the dealer is seat
    /// 0). Every card of the rules' decks must be somewhere exactly once: in a hand,
    /// in the stock, in `played` (the cards under the top one) or on top.
    #[allow(clippy::too_many_arguments)]
    pub fn from_position(
        rules: Rules,
        hands: &[CardSet],
        stock: &[Card],
        played: CardSet,
        top: Card,
        suit: u8,
        pending: u16,
        reversed: bool,
        to_act: Seat,
    ) -> Result<OchoState, String> {
        rules.validate().map_err(|e| e.to_string())?;
        let n = rules.players;
        if hands.len() != n as usize || stock.len() > MAX_CARDS || to_act >= n as usize || suit >= 4
        {
            return Err("hands, stock, suit or seat out of range".into());
        }
        let mut g = OchoState::dealt(rules, Some(0), &mut crate::rng::base_stream(0));
        let t = &mut g.table;
        t.hands = [0; SLOTS];
        t.hands[..n as usize].copy_from_slice(hands);
        t.stock_len = stock.len() as u32;
        t.stock[..stock.len()].copy_from_slice(stock);
        t.pile = played | top.bit();
        t.top = top.0;
        // Under a joker the card that sets the suit is not given: a reshuffle keeps only the top.
        t.under = top.0;
        t.pending = pending;
        t.dir = if reversed { 16 } else { 0 };
        t.active = 0;
        for (s, &h) in hands.iter().enumerate() {
            if h != 0 {
                t.active |= 1 << s;
            }
        }
        t.n_active = t.active.count_ones() as u8;
        t.n_out = 0;
        for s in 0..n {
            if t.active >> s & 1 == 0 {
                t.order[t.n_out as usize] = s;
                t.n_out += 1;
            }
        }
        t.seats();
        t.show(
            if top.is_joker() || top.rank() == EIGHT {
                suit
            } else {
                top.suit()
            },
            if top.is_joker() { THREE } else { top.rank() },
        );
        t.to_act = to_act as u8;
        t.phase = if pending > 0 {
            Phase::Stack
        } else {
            Phase::Turn
        };
        t.turns = 0;
        g.refresh();
        g.invariants()?;
        Ok(g)
    }

    /// A game at a position one player sees ([`Setup`]): what that player cannot see (the
    /// other hands and the stock, and a card another player has just drawn) is dealt from `rng`
    /// as [`State::deal_for_view`] deals it. The error names what does not fit.
    pub fn at_position(rules: Rules, s: &Setup<'_>, rng: &mut Stream) -> Result<OchoState, String> {
        rules.validate().map_err(|e| e.to_string())?;
        let n = rules.players as usize;
        let deck = rules.deck_cards();
        if s.sizes.len() != n || s.seat >= n || s.to_act >= n || s.dealer >= n || s.suit >= 4 {
            return Err("hand sizes, a seat or the suit out of range".into());
        }
        if (s.hand | s.pile) & !deck != 0 || s.hand & s.pile != 0 || s.pile & s.top.bit() == 0 {
            return Err(
                "the hand and the pile must be apart, cards of the decks in play, the top card on the pile"
                    .into(),
            );
        }
        if count(s.hand) != s.sizes[s.seat] {
            return Err(format!(
                "seat {} holds {} cards, not {}",
                s.seat + 1,
                count(s.hand),
                s.sizes[s.seat]
            ));
        }
        let unseen = deck & !s.hand & !s.pile;
        let hidden = (0..n)
            .filter(|&p| p != s.seat)
            .map(|p| u64::from(s.sizes[p]))
            .sum::<u64>()
            + u64::from(s.stock);
        if u64::from(count(unseen)) != hidden {
            return Err(format!(
                "{} cards unseen, but the other hands and the stock hold {hidden}",
                count(unseen)
            ));
        }
        let mut out = 0u16;
        for &p in s.out {
            if p >= n || out >> p & 1 == 1 || s.sizes[p] != 0 {
                return Err("the seats out must be the seats without cards, each once".into());
            }
            out |= 1 << p;
        }
        if (0..n).any(|p| s.sizes[p] == 0 && out >> p & 1 == 0) {
            return Err("a seat without cards is not among the seats out".into());
        }
        if let Some(u) = s.under {
            if !s.top.is_joker() || u.is_joker() || s.pile & u.bit() == 0 {
                return Err(format!(
                    "the card under the joker, {u}, must be a card of the pile under a joker on top"
                ));
            }
            if u.rank() != EIGHT && u.suit() != s.suit {
                return Err(format!(
                    "the card under the joker, {u}, sets its own suit, not the suit in force"
                ));
            }
        }
        if s.again {
            let again_card = s.top.rank() == ACE
                || matches!(s.top.rank(), JACK | KING)
                    && s.sizes.iter().filter(|&&k| k > 0).count() == 2;
            if rules.play_again != PlayAgain::May
                || s.pending > 0
                || s.drawing
                || s.top.is_joker()
                || !again_card
            {
                return Err("a right to play again follows an A (a J or K with two players left) with play-again=may, and nothing pending or drawn".into());
            }
        }
        let own_draw = s.drawing && s.to_act == s.seat;
        match s.drawn {
            Some(d) if !own_draw || s.hand & d.bit() == 0 => {
                return Err(format!(
                    "the card drawn, {d}, must be in the hand of the seat to act"
                ))
            }
            None if own_draw => return Err("the card drawn is missing".into()),
            _ => {}
        }
        let mut g = OchoState::dealt(rules, Some(s.dealer as u8), &mut crate::rng::base_stream(0));
        let t = &mut g.table;
        // The hidden hands and the stock from the unseen cards in order: dealt afresh below.
        let mut pool = Cards(unseen);
        t.hands = [0; SLOTS];
        for p in 0..n {
            t.hands[p] = if p == s.seat {
                s.hand
            } else {
                (0..s.sizes[p]).fold(0, |h, _| h | pool.next().map_or(0, |c| c.bit()))
            };
        }
        let mut m = 0;
        for c in pool {
            t.stock[m] = c;
            m += 1;
        }
        t.stock[m..].fill(Card(0));
        t.stock_len = m as u32;
        t.pile = s.pile;
        t.top = s.top.0;
        t.under = s.under.map_or(s.top.0, |c| c.0);
        t.pending = s.pending;
        t.dir = if s.reversed { 16 } else { 0 };
        t.active = (0..n)
            .filter(|&p| s.sizes[p] != 0)
            .fold(0, |a, p| a | 1 << p);
        t.n_active = t.active.count_ones() as u8;
        t.order = [0; MAX_PLAYERS];
        for (i, &p) in s.out.iter().enumerate() {
            t.order[i] = p as u8;
        }
        t.n_out = s.out.len() as u8;
        t.seats();
        t.show(
            if s.top.is_joker() || s.top.rank() == EIGHT {
                s.suit
            } else {
                s.top.suit()
            },
            if s.top.is_joker() {
                THREE
            } else {
                s.top.rank()
            },
        );
        t.to_act = s.to_act as u8;
        t.phase = match (s.pending > 0, s.drawing) {
            (false, false) if s.again => Phase::Again,
            (false, false) => Phase::Turn,
            (false, true) => Phase::Drawn,
            (true, false) => Phase::Stack,
            (true, true) => Phase::StackDrawn,
        };
        t.drawn = s.drawn.map_or(0, |c| c.0);
        let k = s.tallies;
        t.turns = k.turns;
        t.actions = k.actions;
        t.cards_drawn = k.cards_drawn;
        t.stack_cards = k.stack_cards;
        t.penalty_cards = k.penalty_cards;
        t.forgotten = k.forgotten;
        t.reshuffles = k.reshuffles;
        t.longest_stack = k.longest_stack;
        t.capped = false;
        if s.drawing && !own_draw {
            // Another player's drawn card is dealt among the unseen cards that fit it (see
            // `deal_for_view`): there must be one, and the rest of that hand must fit too.
            let size = s.sizes[s.to_act];
            let (fits, others) = if s.pending == 0 {
                (t.follow, !t.follow)
            } else {
                (DRAW_THREE, !0)
            };
            if size == 0 || unseen & fits == 0 || count(unseen & others & !fits) < size - 1 {
                return Err(format!(
                    "seat {} has just drawn a card that {}, but no unseen card {} with the rest of that hand",
                    s.to_act + 1,
                    if s.pending == 0 { "plays" } else { "answers the draw-three" },
                    "fits"
                ));
            }
        }
        g.refresh();
        let g = OchoState::deal_for_view(&g.view(s.seat), rng);
        g.invariants()?;
        Ok(g)
    }

    /// The next seat still holding cards after `seat` in the direction of play.
    #[inline]
    fn next(&self, seat: u8) -> u8 {
        self.table.next(seat)
    }

    /// Cards that may be played on the top card in a normal turn.
    #[inline(always)]
    fn follow_mask(&self) -> CardSet {
        self.table.follow
    }

    /// Computes the legal actions of the player to act.
    #[inline(always)]
    fn refresh(&mut self) {
        let t = &self.table;
        let hand = t.hands[t.to_act as usize & 15];
        let last_card = count(hand) == 1;
        self.legal = match t.phase {
            Phase::Turn => {
                let plays = hand & t.follow;
                let stuck = plays == 0;
                let draw = stuck && t.can_draw();
                Legal {
                    plays,
                    draw,
                    take: false,
                    pass: stuck && !draw,
                    last_card,
                }
            }
            Phase::Drawn => Legal {
                plays: Card(t.drawn).bit(),
                draw: false,
                take: false,
                pass: t.keep_drawn,
                last_card,
            },
            Phase::Stack => Legal {
                plays: hand & t.answer_mask(),
                draw: false,
                take: true,
                pass: false,
                last_card,
            },
            Phase::StackDrawn => Legal {
                plays: Card(t.drawn).bit(),
                draw: false,
                take: true,
                pass: false,
                last_card,
            },
            Phase::Again => Legal {
                plays: hand & t.follow,
                draw: false,
                take: false,
                pass: true,
                last_card,
            },
            Phase::Over => Legal::default(),
        };
    }

    /// The legal actions of the player to act.
    #[inline]
    pub fn legal(&self) -> &Legal {
        &self.legal
    }

    /// Every legal action of the player to act, into `out` (cleared first).
    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        self.legal.push_all(out);
    }

    /// Whether every card of the game fits 64 bits (one deck).
    #[inline]
    fn is_one_deck(&self) -> bool {
        self.rules.deck_cards() & !ONE_DECK == 0
    }

    /// Plays the rest of the game with every seat choosing as the `random` bot does
    /// ([`super::bots::random_action`]) from `decisions`, and forgetting «voy por una» when a
    /// uniform 64-bit draw is below `forget_below[seat]` (every time for the seats in
    /// `always_forgets`): the same choices from the same draws as asking random bots move by move,
    /// without building a view, checking each action or storing the legal actions of every
    /// position (a test holds the two to each other). A one-deck game plays on 64-bit sets.
    pub fn play_out_random(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        let one_deck = self.is_one_deck();
        #[cfg(target_arch = "x86_64")]
        if crate::bits::fast_select() {
            // SAFETY: `fast_select` checked that the CPU has BMI2.
            unsafe {
                if one_deck {
                    self.play_out_one_deck_bmi2(decisions, deal, forget_below, always_forgets)
                } else {
                    self.play_out_two_decks_bmi2(decisions, deal, forget_below, always_forgets)
                }
            }
            return;
        }
        if one_deck {
            self.play_out_one_deck(decisions, deal, forget_below, always_forgets);
        } else {
            self.play_out_two_decks(decisions, deal, forget_below, always_forgets);
        }
    }

    /// [`Self::play_out_random`] of a one-deck game, on 64-bit sets. Each play-out is a function
    /// of its own: together, the two loops' registers were allocated worse.
    #[inline(never)]
    fn play_out_one_deck(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        self.play_out_on::<u64>(
            decisions,
            deal,
            forget_below,
            always_forgets,
            crate::bits::select,
        );
    }

    /// [`Self::play_out_random`] of a two-deck game.
    #[inline(never)]
    fn play_out_two_decks(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        self.play_out_on::<CardSet>(
            decisions,
            deal,
            forget_below,
            always_forgets,
            crate::bits::select,
        );
    }

    /// [`Self::play_out_one_deck`] compiled for BMI2, selecting cards with `pdep`.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline(never)]
    unsafe fn play_out_one_deck_bmi2(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        // The closure inherits this function's BMI2.
        self.play_out_on::<u64>(decisions, deal, forget_below, always_forgets, |set, k| {
            crate::bits::select_bmi2(set, k)
        });
    }

    /// [`Self::play_out_two_decks`] compiled for BMI2, selecting cards with `pdep`.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline(never)]
    unsafe fn play_out_two_decks_bmi2(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        self.play_out_on::<CardSet>(decisions, deal, forget_below, always_forgets, |set, k| {
            crate::bits::select_bmi2(set, k)
        });
    }

    /// The random play-out on a table of `W` (`u64` only for a one-deck game), selecting the
    /// `k`-th member of a 64-bit word with `select` (the same card either way).
    #[inline(always)]
    fn play_out_on<W: CardWord>(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
        select: impl Fn(u64, u32) -> u32,
    ) {
        let max = self.rules.max_actions;
        let mut t = self.table.in_word::<W>();
        t.play_out(
            decisions,
            deal,
            forget_below,
            always_forgets,
            max,
            |set: W, k| set.select_with(k, &select),
        );
        self.table.take_back(&t);
        self.refresh();
    }

    /// Whether the game stopped at the action cap.
    pub fn is_capped(&self) -> bool {
        self.table.capped
    }

    /// The whole finishing order, once the game is over and not capped: each seat as it went
    /// out, the last the seat left holding cards.
    fn final_order(&self) -> Option<&[u8]> {
        (self.table.phase == Phase::Over && !self.table.capped)
            .then(|| &self.table.order[..self.table.n as usize])
    }

    /// Seats in the order they went out (the last one is left holding cards), once the game is
    /// over and not capped.
    pub fn finishing_order(&self) -> Option<impl ExactSizeIterator<Item = Seat> + Clone + '_> {
        self.final_order().map(|o| o.iter().map(|&s| Seat::from(s)))
    }

    /// The seat left holding cards (the last place), once the game is over and not capped.
    pub fn last_place(&self) -> Option<Seat> {
        self.final_order().map(|o| Seat::from(o[o.len() - 1]))
    }

    /// Seats that went out so far, in order.
    pub fn out_so_far(&self) -> impl ExactSizeIterator<Item = Seat> + Clone + '_ {
        self.table.order[..self.table.n_out as usize]
            .iter()
            .map(|&s| Seat::from(s))
    }

    /// The seat that went out first (the winner), if any has.
    pub fn first_out(&self) -> Option<Seat> {
        (self.table.n_out > 0).then(|| self.table.order[0].into())
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.table.phase
    }
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.table.hands[seat & 15]
    }
    /// The stock, in no particular order (each draw takes a uniformly random card of it).
    pub fn stock(&self) -> &[Card] {
        &self.table.stock[..self.table.stock_len as usize]
    }
    /// The stock as a set.
    pub fn stock_set(&self) -> CardSet {
        self.stock().iter().fold(0, |s, c| s | c.bit())
    }
    /// Cards played since the last reshuffle, the top one included.
    pub fn pile(&self) -> CardSet {
        self.table.pile
    }
    /// The top card.
    pub fn top(&self) -> Card {
        Card(self.table.top)
    }
    /// The card that sets the suit: the top card, or under jokers the last card played before
    /// them (kept out of a reshuffle with the top).
    pub fn suit_card(&self) -> Card {
        Card(self.table.under)
    }
    /// The suit in force.
    pub fn suit(&self) -> u8 {
        self.table.suit
    }
    /// The rank to match by value (3 when a joker is on top).
    pub fn value(&self) -> u8 {
        self.table.value
    }
    /// Cards the player to act must draw (0 when no draw-three is pending).
    pub fn pending(&self) -> u16 {
        self.table.pending
    }
    /// Whether play goes to the left.
    pub fn reversed(&self) -> bool {
        self.table.dir != 0
    }
    /// The card drawn in [`Phase::Drawn`] and [`Phase::StackDrawn`].
    pub fn drawn(&self) -> Option<Card> {
        matches!(self.table.phase, Phase::Drawn | Phase::StackDrawn)
            .then_some(Card(self.table.drawn))
    }
    /// Seats still holding cards, as a bitmask.
    pub fn active(&self) -> u16 {
        self.table.active
    }
    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer.into()
    }
    /// The player to the dealer's right, who plays first under the default rules.
    pub fn starter(&self) -> Seat {
        self.starter.into()
    }
    /// Turns taken (a player's extra turn after an A, J or K counts as a turn).
    pub fn turns(&self) -> u32 {
        self.table.turns
    }
    /// Actions taken.
    pub fn actions(&self) -> u32 {
        self.table.actions
    }
    /// Cards drawn after the deal (every draw: playing, stacks, penalties).
    pub fn cards_drawn(&self) -> u32 {
        self.table.cards_drawn
    }
    /// Cards drawn taking draw-three stacks.
    pub fn stack_cards(&self) -> u32 {
        self.table.stack_cards
    }
    /// Cards drawn for forgetting «voy por una».
    pub fn penalty_cards(&self) -> u32 {
        self.table.penalty_cards
    }
    /// «Voy por una» forgotten.
    pub fn forgotten(&self) -> u16 {
        self.table.forgotten
    }
    /// Reshuffles of the played cards.
    pub fn reshuffles(&self) -> u16 {
        self.table.reshuffles
    }
    /// The longest draw-three stack of the game.
    pub fn longest_stack(&self) -> u16 {
        self.table.longest_stack
    }

    /// Moves `special` into `seat`'s hand in place of `plain`, which takes its place in the
    /// stock (the `value` analysis: the same deal with one card changed). `special` must be in
    /// the stock and `plain` in the hand.
    pub fn swap_with_stock(
        &mut self,
        seat: Seat,
        plain: Card,
        special: Card,
    ) -> Result<(), String> {
        if self.table.hands[seat & 15] & plain.bit() == 0 {
            return Err(format!("{plain} is not in seat {seat}'s hand"));
        }
        let Some(i) = self.stock().iter().position(|&c| c == special) else {
            return Err(format!("{special} is not in the stock"));
        };
        let h = &mut self.table.hands[seat & 15];
        *h = (*h & !plain.bit()) | special.bit();
        self.table.stock[i] = plain;
        self.refresh();
        Ok(())
    }

    /// Checks every invariant of the state; the error names the first that fails.
    fn invariants(&self) -> Result<(), String> {
        let deck = self.rules.deck_cards();
        let stock = self.stock_set();
        if count(stock) != self.table.stock_len {
            return Err("a card is twice in the stock".into());
        }
        let mut seen: CardSet = 0;
        let mut total = 0;
        for part in self.table.hands[..self.table.n as usize]
            .iter()
            .chain([stock, self.table.pile].iter())
        {
            if seen & part != 0 {
                return Err(format!(
                    "cards in two places: {}",
                    super::cards::show(seen & part)
                ));
            }
            seen |= part;
            total += count(*part);
        }
        if seen != deck || total != self.rules.cards() {
            return Err(format!(
                "{total} cards accounted for, not the {} in play",
                self.rules.cards()
            ));
        }
        if self.table.pile & Card(self.table.top).bit() == 0 {
            return Err(format!(
                "the top card {} is not on the pile",
                Card(self.table.top)
            ));
        }
        if self.table.suit >= 4 {
            return Err("no suit in force".into());
        }
        // The card that sets the suit: the top card, or under a joker on top the last card
        // played before the jokers (the top joker itself where a position did not say it).
        let under = Card(self.table.under);
        let top = Card(self.table.top);
        let fits = under == top || top.is_joker() && !under.is_joker();
        if self.table.pile & under.bit() == 0 || !fits {
            return Err(format!(
                "the card that sets the suit, {under}, is not the top card or the card under the jokers on the pile"
            ));
        }
        if !self.table.pending.is_multiple_of(DRAW_PENALTY) {
            return Err(format!("a pending draw of {}", self.table.pending));
        }
        for s in 0..self.table.n {
            let active = self.table.active >> s & 1 == 1;
            if active != (self.table.hands[s as usize & 15] != 0) {
                return Err(format!(
                    "seat {s} is active: {active}, with cards: {}",
                    !active
                ));
            }
        }
        if self.table.n_active as u32 != self.table.active.count_ones()
            || self.table.n_out + self.table.n_active != self.table.n
        {
            return Err("the count of players out disagrees with the hands".into());
        }
        let out_mask = self.table.order[..self.table.n_out as usize]
            .iter()
            .fold(0u16, |m, &s| m | 1 << s);
        if out_mask.count_ones() != self.table.n_out as u32 || out_mask & self.table.active != 0 {
            return Err("the finishing order disagrees with who holds cards".into());
        }
        let mut fresh = self.clone();
        fresh.refresh();
        if fresh.legal != self.legal {
            return Err(format!(
                "stale legal actions: {:?}, recomputed {:?}",
                self.legal, fresh.legal
            ));
        }
        if self.table.phase == Phase::Over {
            return if self.table.capped || self.table.n_active == 1 {
                Ok(())
            } else {
                Err("over with more than one player holding cards".into())
            };
        }
        // Kept up to date while the game goes on (not when the last player goes out).
        if self.table.stale() {
            return Err(
                "the next seats, the effects of the ranks or what follows are stale".into(),
            );
        }
        if self.table.n_active < 2 || self.table.active >> self.table.to_act & 1 == 0 {
            return Err(format!("seat {} acts without cards", self.table.to_act));
        }
        let stacked = matches!(self.table.phase, Phase::Stack | Phase::StackDrawn);
        if stacked != (self.table.pending > 0) {
            return Err(format!(
                "phase {:?} with {} cards pending",
                self.table.phase, self.table.pending
            ));
        }
        if let Some(d) = self.drawn() {
            if self.table.hands[self.table.to_act as usize & 15] & d.bit() == 0 {
                return Err(format!("the drawn card {d} is not in the hand"));
            }
        }
        // A player draws only holding nothing that plays, and stops at the first card that does.
        if self.table.phase == Phase::Drawn
            && self.table.hands[self.table.to_act as usize & 15] & self.follow_mask()
                != Card(self.table.drawn).bit()
        {
            return Err(format!(
                "the drawn card {} is not the only card of the hand that plays",
                Card(self.table.drawn)
            ));
        }
        if self.table.phase == Phase::StackDrawn && DRAW_THREE & Card(self.table.drawn).bit() == 0 {
            return Err(format!(
                "a drawn {} answers a draw-three: only a 3 or a joker does",
                Card(self.table.drawn)
            ));
        }
        if self.legal.moves() == 0 {
            return Err("the player to act has no legal action".into());
        }
        Ok(())
    }
}

/// What one player sees: their hand (and the card they just drew), the cards played since the
/// last reshuffle, the top card, the suit in force, the pending draw, the direction, every hand's
/// size and the stock's size.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a OchoState,
    seat: u8,
}

impl PlayerView for View<'_> {
    fn seat(&self) -> Seat {
        self.seat.into()
    }
}

/// Exactly what the player sees, and nothing more. Public to everybody: the rules, the dealer
/// and the starter, every hand's size and who went out in what order, the cards played since
/// the last reshuffle (each was shown as it was played; the top one is the last), the suit in
/// force and the value to match, the pending draw, the direction, the phase of the turn and who
/// acts, the stock's size, the turns and actions so far and the cards drawn (each draw is seen,
/// not the card), the forgotten «voy por una» and the reshuffles. Private: the player's own
/// hand, and on their own turn the card they just drew (to everybody else a drawn card is only
/// a card that plays, or in a draw-three a 3 or a joker). No card leaves the game in Ocho loco:
/// a player goes out by playing their last card onto the pile. Cards are shown in one deck's
/// order, the two copies of a card side by side: nobody sees which deck a card comes from.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let sizes: Vec<u32> = (0..g.table.n as Seat).map(|p| self.hand_len(p)).collect();
        let out: Vec<Seat> = g.out_so_far().collect();
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field("dealer", &g.dealer)
            .field("starter", &g.starter)
            .field("hand", &super::cards::show_by_rank(self.hand()))
            .field("drawn", &self.drawn().map(|c| c.to_string()))
            .field("hand sizes", &sizes)
            .field("out", &out)
            .field("pile", &super::cards::show_by_rank(self.pile()))
            .field("top", &self.top().to_string())
            .field("suit card", &self.suit_card().to_string())
            .field("suit", &self.suit())
            .field("value", &self.value())
            .field("pending", &self.pending())
            .field("reversed", &self.reversed())
            .field("phase", &self.phase())
            .field("to act", &g.table.to_act)
            .field("stock", &self.stock_len())
            .field("turns", &g.table.turns)
            .field("actions", &g.table.actions)
            .field("cards drawn", &g.table.cards_drawn)
            .field("stack cards", &g.table.stack_cards)
            .field("penalty cards", &g.table.penalty_cards)
            .field("forgotten", &g.table.forgotten)
            .field("reshuffles", &g.table.reshuffles)
            .field("longest stack", &g.table.longest_stack)
            .field("capped", &g.table.capped)
            .finish()
    }
}

impl<'a> View<'a> {
    /// The rules.
    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }
    /// Players at the table.
    pub fn players(&self) -> usize {
        self.game.table.n.into()
    }
    /// Players still holding cards.
    pub fn players_in(&self) -> usize {
        self.game.table.n_active.into()
    }
    /// This player's cards.
    #[inline]
    pub fn hand(&self) -> CardSet {
        self.game.table.hands[self.seat as usize & 15]
    }
    /// Cards in a player's hand.
    #[inline]
    pub fn hand_len(&self, seat: Seat) -> u32 {
        count(self.game.table.hands[seat & 15])
    }
    /// Whether `seat` still holds cards.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.game.table.active >> seat & 1 == 1
    }
    /// The top card.
    pub fn top(&self) -> Card {
        Card(self.game.table.top)
    }
    /// The card that sets the suit: the top card, or under jokers the last card played before
    /// them (a reshuffle keeps both out of the new stock).
    pub fn suit_card(&self) -> Card {
        Card(self.game.table.under)
    }
    /// The suit in force.
    #[inline]
    pub fn suit(&self) -> u8 {
        self.game.table.suit
    }
    /// The rank to match by value.
    pub fn value(&self) -> u8 {
        self.game.table.value
    }
    /// Cards the player to act must draw.
    pub fn pending(&self) -> u16 {
        self.game.table.pending
    }
    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.game.table.phase
    }
    /// Whether play goes to the left.
    pub fn reversed(&self) -> bool {
        self.game.table.dir != 0
    }
    /// The player who acts after `seat` in the current direction.
    #[inline]
    pub fn next_after(&self, seat: Seat) -> Seat {
        self.game.next(seat as u8).into()
    }
    /// The player who would act after `seat` if the direction reversed.
    pub fn previous_before(&self, seat: Seat) -> Seat {
        next_in(self.game.table.active, seat as u8, self.game.table.dir == 0).into()
    }
    /// The dealer (the starter sits on the dealer's right).
    pub fn dealer(&self) -> Seat {
        self.game.dealer.into()
    }
    /// The seat to act.
    pub fn to_act(&self) -> Seat {
        self.game.table.to_act.into()
    }
    /// Seats that went out so far, in order.
    pub fn out(&self) -> impl ExactSizeIterator<Item = Seat> + Clone + 'a {
        self.game.out_so_far()
    }
    /// The game's counts so far.
    pub fn tallies(&self) -> Tallies {
        let t = &self.game.table;
        Tallies {
            turns: t.turns,
            actions: t.actions,
            cards_drawn: t.cards_drawn,
            stack_cards: t.stack_cards,
            penalty_cards: t.penalty_cards,
            forgotten: t.forgotten,
            reshuffles: t.reshuffles,
            longest_stack: t.longest_stack,
        }
    }
    /// The card this player just drew, when playing it is the question.
    pub fn drawn(&self) -> Option<Card> {
        (self.game.table.to_act == self.seat)
            .then(|| self.game.drawn())
            .flatten()
    }
    /// Cards in the stock.
    pub fn stock_len(&self) -> u8 {
        self.game.table.stock_len as u8
    }
    /// Cards played since the last reshuffle (everybody saw them go), the top one included.
    pub fn pile(&self) -> CardSet {
        self.game.table.pile
    }
    /// Cards that can still be drawn: the stock and the played cards but the top one and the
    /// card that sets the suit.
    #[inline]
    pub fn cards_to_draw(&self) -> u32 {
        let t = &self.game.table;
        t.stock_len + count(t.pile & !Card(t.top).bit() & !Card(t.under).bit())
    }
    /// Cards whose place this player does not know: in other hands or in the stock.
    #[inline]
    pub fn unseen(&self) -> CardSet {
        self.game.rules.deck_cards() & !self.hand() & !self.game.table.pile
    }
    /// This player's legal actions (only meaningful on their turn).
    #[inline]
    pub fn legal(&self) -> &'a Legal {
        &self.game.legal
    }
    /// Every legal action (only meaningful on this player's turn).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.game.list_legal(out)
    }
}

/// `k` cards of `from` at random, one uniform draw of `rng` each.
fn some_of(from: CardSet, k: u32, rng: &mut Stream) -> CardSet {
    let mut got = 0;
    for _ in 0..k {
        let left = from & !got;
        got |= nth(left, uniform_below(rng, count(left) as usize) as u32).bit();
    }
    got
}

impl State for OchoState {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    /// Deals from the given dealer, or from the first player's left (the starter is the
    /// dealer's right), or a random dealer.
    fn deal(rules: &Rules, start: &Start, rng: &mut Stream) -> OchoState {
        let n = rules.players as usize;
        let dealer = start
            .dealer
            .or(start.first.map(|f| (f + n - 1) % n))
            .map(|d| d as u8);
        OchoState::dealt(*rules, dealer, rng)
    }

    /// A whole game consistent with everything this player sees: the unseen cards (the other
    /// hands and the stock) dealt at random, each hand keeping its size (determinisation, for
    /// search). Only public facts and the unseen set are used, so the result cannot leak hidden
    /// cards. While another player holds a card they just drew, that card is dealt among the
    /// unseen cards that fit what everybody knows of it: one that plays (and, since they drew,
    /// the only one in their hand that does), or in a draw-three a 3 or a joker.
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> OchoState {
        let seat = view.seat as usize;
        let mut g = view.game.clone();
        let to_act = g.table.to_act as usize;
        let mut unseen = view.unseen();
        let drawing = matches!(g.table.phase, Phase::Drawn | Phase::StackDrawn);
        let drawn_hidden = drawing && seat != to_act;
        if drawn_hidden {
            // The drawn card: one that plays on the top card, drawn because nothing in the hand
            // did; or, taking a draw-three, a 3 or a joker (the rest of the hand is free).
            let (fits, others) = if g.table.phase == Phase::Drawn {
                let follow = g.follow_mask();
                (follow, !follow)
            } else {
                (DRAW_THREE, !0)
            };
            let drawn = some_of(unseen & fits, 1, rng);
            let size = count(g.table.hands[to_act & 15]);
            let hand = drawn | some_of(unseen & others & !drawn, size - 1, rng);
            g.table.hands[to_act & 15] = hand;
            g.table.drawn = drawn.trailing_zeros() as u8;
            unseen &= !hand;
        } else if !drawing {
            // A card drawn in an earlier turn, gone since: nothing to carry over.
            g.table.drawn = 0;
        }
        let mut pool = [Card(0); MAX_CARDS];
        let mut m = 0;
        for c in Cards(unseen) {
            pool[m] = c;
            m += 1;
        }
        for p in 0..g.table.n as usize {
            if p == seat || drawn_hidden && p == to_act {
                continue;
            }
            let mut h = 0;
            for _ in 0..count(g.table.hands[p]) {
                let j = uniform_below(rng, m);
                m -= 1;
                h |= pool[j].bit();
                pool[j] = pool[m];
            }
            g.table.hands[p] = h;
        }
        debug_assert_eq!(m, g.table.stock_len as usize, "every unseen card placed");
        g.table.stock[..m].copy_from_slice(&pool[..m]);
        g.table.stock[m..].fill(Card(0));
        g.refresh();
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    fn to_act(&self) -> Seat {
        self.table.to_act.into()
    }
    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        View {
            game: self,
            seat: seat as u8,
        }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out)
    }
    /// One play of each face: the two jokers of a deck, and the two copies of a card with two
    /// decks, do the same (the first in the engine's order is kept).
    fn distinct_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
        let face = |a: &Action| match *a {
            Action::Play { card, suit, silent } => {
                let f = if card.is_joker() { 52 } else { card.0 & 63 };
                Some((f, suit, silent))
            }
            _ => None,
        };
        let mut i = 0;
        while i < out.len() {
            let f = face(&out[i]);
            if f.is_some() && out[..i].iter().any(|b| face(b) == f) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
    /// Applies the action of the player to act; a reshuffle of the played cards draws from
    /// `rng`. An illegal action is refused with the reason and changes nothing.
    #[inline]
    fn apply(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        if self.table.phase == Phase::Over {
            return Err(Illegal::new(action, "the game is over"));
        }
        match action {
            Action::Play { card, suit, silent } => {
                if self.legal.plays & card.bit() == 0 {
                    return Err(Illegal::new(action, "that card cannot be played now"));
                }
                let left = count(self.table.hands[self.table.to_act as usize & 15]) - 1;
                if silent && left != 1 {
                    return Err(Illegal::new(
                        action,
                        "«voy por una» is owed only by a play that leaves one card",
                    ));
                }
                if card.rank() == EIGHT && (suit >= 4 || left == 0 && suit != card.suit()) {
                    return Err(Illegal::new(
                        action,
                        "an 8 names one of the four suits, its own when it is the last card",
                    ));
                }
                self.table.actions += 1;
                // Only an 8 names a suit; any other card shows its own.
                let named = if card.rank() == EIGHT {
                    suit
                } else {
                    card.suit()
                };
                self.table.play(card.0, named, silent, rng);
            }
            Action::Draw => {
                if !self.legal.draw {
                    return Err(Illegal::new(
                        action,
                        "only a player without a playable card draws",
                    ));
                }
                self.table.actions += 1;
                self.table.draw_until_playable(rng);
            }
            Action::Take => {
                if !self.legal.take {
                    return Err(Illegal::new(action, "no draw-three is pending"));
                }
                self.table.actions += 1;
                self.table.take(rng);
            }
            Action::Pass => {
                if !self.legal.pass {
                    return Err(Illegal::new(
                        action,
                        "a player passes only with nothing to draw, or keeping a drawn card where that is allowed",
                    ));
                }
                self.table.actions += 1;
                let p = self.table.to_act;
                self.table.start_turn(self.table.next(p));
            }
        }
        if self.table.phase != Phase::Over && self.table.actions >= self.rules.max_actions {
            self.table.phase = Phase::Over;
            self.table.capped = true;
        }
        self.refresh();
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.table.phase != Phase::Over {
            None
        } else if self.table.n_out == 0 {
            // Stopped at the action cap before anybody went out.
            Some(Outcome::Capped)
        } else {
            // The first out won, even if the rest was stopped at the cap.
            Some(Outcome::Event(1 << self.table.order[0]))
        }
    }
    /// The player to the dealer's right (the one who starts under the default rules).
    fn first_player(&self) -> Seat {
        self.starter.into()
    }
    /// Turns.
    fn length(&self) -> u64 {
        self.table.turns.into()
    }
    /// Cards drawn, for draw-threes and as penalties, «voy por una» forgotten, reshuffles,
    /// whether the starter or the dealer was left last, actions, the longest draw-three, and
    /// whether the game stopped at the cap after the first went out ([`super::Counter`]).
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        use super::Counter as C;
        let last = self.final_order().map(|o| o[o.len() - 1]);
        out[C::CardsDrawn as usize] = self.table.cards_drawn.into();
        out[C::StackCards as usize] = self.table.stack_cards.into();
        out[C::PenaltyCards as usize] = self.table.penalty_cards.into();
        out[C::Forgotten as usize] = self.table.forgotten.into();
        out[C::Reshuffles as usize] = self.table.reshuffles.into();
        out[C::StarterLast as usize] = i64::from(last == Some(self.starter));
        out[C::DealerLast as usize] = i64::from(last == Some(self.dealer));
        out[C::Actions as usize] = self.table.actions.into();
        out[C::LongestStack as usize] = self.table.longest_stack.into();
        out[C::CappedAfterFirst as usize] = i64::from(self.table.capped && self.table.n_out > 0);
    }
    /// The order players went out in: the first out is first, the one left holding cards last.
    fn places(&self, out: &mut [u8; MAX_SEATS]) -> bool {
        match self.final_order() {
            Some(order) => {
                for (k, &s) in order.iter().enumerate() {
                    out[s as usize] = k as u8;
                }
                true
            }
            None => false,
        }
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_stream;

    fn has_bmi2() -> bool {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// The random play-out on 64-bit sets (`narrow`) or 128-bit ones, selecting with BMI2 or
    /// not.
    fn play_out_as(
        g: &mut OchoState,
        narrow: bool,
        bmi2: bool,
        decisions: &mut Stream,
        deal: &mut Stream,
        forget_below: &[u64; MAX_PLAYERS],
        always: u16,
    ) {
        #[cfg(target_arch = "x86_64")]
        if bmi2 {
            // SAFETY: the caller checked that the CPU has BMI2.
            unsafe {
                if narrow {
                    g.play_out_one_deck_bmi2(decisions, deal, forget_below, always)
                } else {
                    g.play_out_two_decks_bmi2(decisions, deal, forget_below, always)
                }
            }
            return;
        }
        assert!(!bmi2, "no BMI2 here");
        let select = crate::bits::select;
        if narrow {
            g.play_out_on::<u64>(decisions, deal, forget_below, always, select)
        } else {
            g.play_out_on::<CardSet>(decisions, deal, forget_below, always, select)
        }
    }

    /// The one-deck play-out (the rules at `u64`) and the same play-out at `u128` (as two decks
    /// play) make the same game from the same streams: the whole state, the streams after it,
    /// with both selections of a card. Over one-deck tables of every size and house rule, with
    /// seats that never, sometimes and always forget «voy por una», and low action caps.
    #[test]
    fn one_deck_play_out_is_the_128_bit_one() {
        let mut seed = 0u64;
        for players in 2..=5u8 {
            for variant in 0..64u32 {
                let mut rules = Rules::standard(players);
                rules.decks = 1;
                rules.hand = [8, 3, 5, 10][variant as usize % 4];
                while rules.validate().is_err() {
                    rules.hand -= 1;
                }
                rules.joker = if variant & 4 != 0 {
                    JokerRule::Three
                } else {
                    JokerRule::Any
                };
                rules.eight_answers = variant & 8 != 0;
                rules.first_card = if variant & 16 != 0 {
                    FirstCard::Acts
                } else {
                    FirstCard::Plain
                };
                rules.keep_drawn = variant & 32 != 0;
                rules.max_actions = if variant % 3 == 0 { 60 } else { 5_000 };
                let forget_below: [u64; MAX_PLAYERS] =
                    std::array::from_fn(|s| [0, u64::MAX / 3, 0, 1 << 62][s % 4]);
                let always = if variant % 5 == 0 { 0b100 } else { 0 };
                for _ in 0..4 {
                    seed += 1;
                    let game = OchoState::deal(&rules, &Start::default(), &mut base_stream(seed));
                    let mut played = Vec::new();
                    for (narrow, bmi2) in
                        [(true, false), (false, false), (true, true), (false, true)]
                    {
                        if bmi2 && !has_bmi2() {
                            continue;
                        }
                        let mut g = game.clone();
                        let mut decisions = base_stream(!seed);
                        let mut deal = base_stream(seed ^ 0x5555);
                        play_out_as(
                            &mut g,
                            narrow,
                            bmi2,
                            &mut decisions,
                            &mut deal,
                            &forget_below,
                            always,
                        );
                        assert!(g.is_over());
                        g.invariants().unwrap();
                        played.push((format!("{g:?}"), decisions, deal));
                    }
                    for other in &played[1..] {
                        assert_eq!(&played[0], other, "{rules:?} seed {seed}");
                    }
                }
            }
        }
    }
}
