//! The Ocho loco engine (RULES.md §5, reglas «Montañita»): [`OchoState`], the [`State`] of a game
//! of Ocho loco over card sets held as bitmasks. Bots see a game only through a [`View`]: their
//! hand, the played cards, the suit in force, the pending draw, hand sizes and the stock's size;
//! [`State::deal_for_view`] deals the cards a player cannot see for search.
//!
//! How a turn runs (one player acts at a time):
//! - **Turn**: play a card of the suit in force or of the value on top, or an 8 (naming a suit),
//!   or a joker (on any card, or with `joker=three` only where a 3 may go). A player who holds a
//!   playable card must play one. With none, the player draws ([`Action::Draw`]) until a playable
//!   card comes: it is then played (**Drawn**; with `keep-drawn` it may be kept, ending the turn).
//!   When the stock is empty the played cards but the top one are shuffled into a new stock;
//!   with nothing left to draw at all the player passes.
//! - **Stack**: after a 3 or a joker the next player answers with a 3 or a joker (the pending
//!   draw grows by 3 and passes on; with `eight-answers` an 8 cancels it) or takes
//!   ([`Action::Take`]). Taking draws one card first: if it is a 3 or a joker the player may
//!   answer with it (**StackDrawn**); otherwise, or if they take again, they draw the rest of the
//!   pending cards and lose the turn.
//! - Effects: A — the same player plays again (chains); 2 — the next player skips; 3 and joker —
//!   draw-three as above; 8 — the suit named (its own suit when it is the player's last card);
//!   J and K — the direction reverses, and with two players left the same player plays again.
//!   A joker keeps the suit in force (the suit of the card under it) and counts as a 3 for
//!   matching by value.
//! - «Voy por una»: a play that leaves one card is marked `silent` when the player forgot to say
//!   it (bots forget at their strategy's rate): the player then draws 3 cards at once.
//! - A player who plays their last card is out; the game ends when one player still holds cards.
//!   A game reaching `max-actions` actions stops unfinished (capped).

use std::fmt;

use super::cards::{
    count, nth, rank_mask, suit_mask, Card, CardSet, Cards, ACE, DRAW_THREE, EIGHT, EIGHTS, JACK,
    JOKERS, KING, THREE, TWO,
};
use super::rules::{FirstCard, JokerRule, Rules, MAX_CARDS, MAX_PLAYERS};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS, MAX_SEATS};
use crate::rng::{uniform_below, Rng, Stream};

mod one_deck;

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
    /// Keep the drawn card (with `keep-drawn`), or pass with nothing left to draw.
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

/// A game of Ocho loco in progress.
#[derive(Clone, Debug)]
pub struct OchoState {
    rules: Rules,
    n: u8,
    /// Hands by seat (16 slots, so that a seat masked to 4 bits needs no bounds check).
    hands: [CardSet; SLOTS],
    /// The stock, in no particular order: each draw takes a uniformly random card of it (a lazy
    /// shuffle: nobody knows a shuffled stock's order, so this is the same as drawing its top
    /// card, and a reshuffle only puts the played cards back).
    stock: [Card; 128],
    stock_len: u8,
    /// Cards played since the last reshuffle, the top one included.
    pile: CardSet,
    top: Card,
    /// The suit in force.
    suit: u8,
    /// The rank to match by value (a joker on top counts as a 3).
    value: u8,
    /// Cards the player to act must draw (a draw-three stack), 0 when none.
    pending: u16,
    /// Play goes to the left (seat − 1) instead of the right.
    reversed: bool,
    to_act: u8,
    phase: Phase,
    /// The card drawn in [`Phase::Drawn`] and [`Phase::StackDrawn`].
    drawn: Card,
    /// Seats still holding cards, as a bitmask.
    active: u16,
    n_active: u8,
    /// Seats in the order they went out; the last one is the seat left holding cards.
    order: [u8; MAX_PLAYERS],
    n_out: u8,
    dealer: u8,
    starter: u8,
    legal: Legal,
    /// The jokers when they go on any card, else nothing.
    wild: CardSet,
    turns: u32,
    actions: u32,
    cards_drawn: u32,
    stack_cards: u32,
    penalty_cards: u32,
    forgotten: u16,
    reshuffles: u16,
    longest_stack: u16,
    capped: bool,
}

/// Slots of the hands array (at least [`MAX_PLAYERS`], a power of two).
const SLOTS: usize = 16;

/// Every card of two decks in order (a deck is the first 54 of them).
const DECK_ORDER: [Card; MAX_CARDS] = {
    let mut d = [Card(0); MAX_CARDS];
    let mut i = 0;
    while i < MAX_CARDS {
        d[i] = Card(if i < 54 { i as u8 } else { (i + 10) as u8 });
        i += 1;
    }
    d
};

/// What plays on a suit in force and a value to match in a normal turn, jokers where they go on
/// a 3 (index `suit · 13 + value`); jokers that go anywhere are added apart.
static FOLLOW: [CardSet; 52] = {
    let mut t = [0; 52];
    let mut i = 0;
    while i < 52 {
        let (suit, value) = ((i / 13) as u8, (i % 13) as u8);
        t[i] = suit_mask(suit) | rank_mask(value) | EIGHTS;
        if value == THREE {
            t[i] |= JOKERS;
        }
        i += 1;
    }
    t
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
        let mut stock = [Card(0); 128];
        stock[..MAX_CARDS].copy_from_slice(&DECK_ORDER);
        let mut m = rules.cards() as usize;
        let dealer = dealer.unwrap_or_else(|| uniform_below(rng, n as usize) as u8);
        let starter = (dealer + 1) % n;
        let mut hands = [0; SLOTS];
        // Dealt one at a time to the right, starting with the dealer's right, each card a
        // uniformly random one of those left (a lazy shuffle: the same as dealing from the top
        // of a shuffled deck); what is left is the stock.
        let mut seat = starter as usize;
        for _ in 0..n as usize * h {
            let j = uniform_below(rng, m);
            m -= 1;
            hands[seat & 15] |= stock[j & 127].bit();
            stock[j & 127] = stock[m & 127];
            seat = if seat + 1 == n as usize { 0 } else { seat + 1 };
        }
        let mut g = OchoState {
            rules,
            n,
            hands,
            stock,
            stock_len: m as u8,
            pile: 0,
            top: Card(0),
            suit: 0,
            value: 0,
            pending: 0,
            reversed: false,
            to_act: starter,
            phase: Phase::Turn,
            drawn: Card(0),
            active: (1u16 << n) - 1,
            n_active: n,
            order: [0; MAX_PLAYERS],
            n_out: 0,
            dealer,
            starter,
            legal: Legal::default(),
            wild: if rules.joker == JokerRule::Any {
                JOKERS
            } else {
                0
            },
            turns: 0,
            actions: 0,
            cards_drawn: 0,
            stack_cards: 0,
            penalty_cards: 0,
            forgotten: 0,
            reshuffles: 0,
            longest_stack: 0,
            capped: false,
        };
        g.turn_first_card(rng);
        g
    }

    /// Turns the first card: a joker goes back into the stock and another is turned (it has no
    /// suit to set), so the turned card is a uniformly random non-joker of the stock. Then play
    /// starts as the rules say.
    fn turn_first_card(&mut self, rng: &mut impl Rng) {
        let card = loop {
            // Validation leaves at least 5 cards after dealing, so a non-joker is always left.
            let j = uniform_below(rng, self.stock_len as usize);
            let c = self.stock[j];
            if !c.is_joker() {
                self.stock_len -= 1;
                self.stock[j] = self.stock[self.stock_len as usize];
                break c;
            }
        };
        self.pile = card.bit();
        self.top = card;
        self.suit = card.suit();
        self.value = card.rank();
        let mut first = self.starter;
        if self.rules.first_card == FirstCard::Acts {
            match card.rank() {
                // The dealer "played" it: the dealer plays again, that is first.
                ACE => first = self.dealer,
                TWO => first = self.next(self.starter),
                THREE => self.pending = DRAW_PENALTY,
                JACK | KING if self.n == 2 => first = self.dealer,
                JACK | KING => {
                    self.reversed = true;
                    first = self.next(self.dealer);
                }
                _ => {}
            }
        }
        self.longest_stack = self.pending;
        self.start_turn(first);
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
        g.hands = [0; SLOTS];
        g.hands[..n as usize].copy_from_slice(hands);
        g.stock_len = stock.len() as u8;
        g.stock[..stock.len()].copy_from_slice(stock);
        g.pile = played | top.bit();
        g.top = top;
        g.suit = if top.is_joker() || top.rank() == EIGHT {
            suit
        } else {
            top.suit()
        };
        g.value = if top.is_joker() { THREE } else { top.rank() };
        g.pending = pending;
        g.reversed = reversed;
        g.active = 0;
        for (s, &h) in hands.iter().enumerate() {
            if h != 0 {
                g.active |= 1 << s;
            }
        }
        g.n_active = g.active.count_ones() as u8;
        g.n_out = 0;
        for s in 0..n {
            if g.active >> s & 1 == 0 {
                g.order[g.n_out as usize] = s;
                g.n_out += 1;
            }
        }
        g.to_act = to_act as u8;
        g.phase = if pending > 0 {
            Phase::Stack
        } else {
            Phase::Turn
        };
        g.turns = 0;
        g.refresh();
        g.invariants()?;
        Ok(g)
    }

    /// The next seat still holding cards after `seat` in the direction of play.
    #[inline]
    fn next(&self, seat: u8) -> u8 {
        next_in(self.active, seat, self.reversed)
    }

    /// Cards that may be played on the top card in a normal turn.
    #[inline(always)]
    fn follow_mask(&self) -> CardSet {
        FOLLOW[self.suit as usize * 13 + self.value as usize] | self.wild
    }

    /// Cards that answer a pending draw-three.
    #[inline]
    fn answer_mask(&self) -> CardSet {
        if self.rules.eight_answers {
            DRAW_THREE | EIGHTS
        } else {
            DRAW_THREE
        }
    }

    /// Whether a card can still be drawn (from the stock, or from a reshuffle).
    #[inline]
    fn can_draw(&self) -> bool {
        self.stock_len > 0 || self.pile & !self.top.bit() != 0
    }

    #[inline(always)]
    fn start_turn(&mut self, seat: u8) {
        self.to_act = seat;
        self.phase = if self.pending > 0 {
            Phase::Stack
        } else {
            Phase::Turn
        };
        self.turns += 1;
    }

    /// Computes the legal actions of the player to act.
    #[inline(always)]
    fn refresh(&mut self) {
        let hand = self.hands[self.to_act as usize & 15];
        let last_card = count(hand) == 1;
        self.legal = match self.phase {
            Phase::Turn => {
                let plays = hand & self.follow_mask();
                let stuck = plays == 0;
                let draw = stuck && self.can_draw();
                Legal {
                    plays,
                    draw,
                    take: false,
                    pass: stuck && !draw,
                    last_card,
                }
            }
            Phase::Drawn => Legal {
                plays: self.drawn.bit(),
                draw: false,
                take: false,
                pass: self.rules.keep_drawn,
                last_card,
            },
            Phase::Stack => Legal {
                plays: hand & self.answer_mask(),
                draw: false,
                take: true,
                pass: false,
                last_card,
            },
            Phase::StackDrawn => Legal {
                plays: self.drawn.bit(),
                draw: false,
                take: true,
                pass: false,
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

    /// Plays the rest of the game with every seat choosing as the `random` bot does
    /// ([`super::bots::random_action`]) from `decisions`, and forgetting «voy por una» when a
    /// uniform 64-bit draw is below `forget_below[seat]` (every time for the seats in
    /// `always_forgets`): the same choices from the same draws as asking random bots move by move,
    /// without building a view, checking each action or storing the legal actions of every
    /// position (a test holds the two to each other).
    pub fn play_out_random(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::bits::fast_select() {
            // SAFETY: `fast_select` checked that the CPU has BMI2.
            unsafe { self.play_out_random_bmi2(decisions, deal, forget_below, always_forgets) };
            return;
        }
        if self.is_one_deck() {
            self.play_out_one_deck(decisions, deal, forget_below, always_forgets, |set, k| {
                crate::bits::select(set, k) as u8
            });
        } else {
            self.play_out_random_with(decisions, deal, forget_below, always_forgets, nth);
        }
    }

    /// [`Self::play_out_random`] compiled for BMI2, selecting cards with `pdep`.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn play_out_random_bmi2(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
    ) {
        // The closures inherit this function's BMI2.
        if self.is_one_deck() {
            self.play_out_one_deck(decisions, deal, forget_below, always_forgets, |set, k| {
                crate::bits::select_bmi2(set, k) as u8
            })
        } else {
            self.play_out_random_with(decisions, deal, forget_below, always_forgets, |set, k| {
                super::cards::nth_bmi2(set, k)
            })
        }
    }

    /// The random play-out with a given card selection (the same card either way).
    #[inline(always)]
    fn play_out_random_with(
        &mut self,
        decisions: &mut impl Rng,
        deal: &mut impl Rng,
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
        select: impl Fn(CardSet, u32) -> Card,
    ) {
        // Seats that may forget «voy por una».
        let mut forgetful = always_forgets;
        for (s, &f) in forget_below.iter().enumerate() {
            forgetful |= ((f > 0) as u16) << s;
        }
        // Whether the player to act forgets «voy por una» playing from a hand of two.
        let forgets = |game: &OchoState, decisions: &mut _| -> bool {
            let p = game.to_act as usize;
            forgetful != 0
                && forgetful >> p & 1 == 1
                && count(game.hands[p]) == 2
                && (always_forgets >> p & 1 == 1 || Rng::next_u64(decisions) < forget_below[p])
        };
        let max = self.rules.max_actions;
        while self.phase != Phase::Over {
            if self.actions >= max {
                self.phase = Phase::Over;
                self.capped = true;
                break;
            }
            self.actions += 1;
            let hand = self.hands[self.to_act as usize & 15];
            // The cards that may be played, and whether the move that is not a card exists.
            let (plays, other) = match self.phase {
                Phase::Turn => {
                    let plays = hand & self.follow_mask();
                    if plays == 0 {
                        if !self.can_draw() {
                            let p = self.to_act;
                            self.start_turn(self.next(p));
                            continue;
                        }
                        self.draw_until_playable(deal);
                        // A drawn card that must be played and names no suit leaves the random
                        // player one move, which takes no draw: play it now (unless the draw
                        // reached the cap: then the game stops first, as move by move).
                        if self.phase == Phase::Drawn
                            && !self.rules.keep_drawn
                            && self.actions < max
                            && (self.drawn.rank() != EIGHT
                                || count(self.hands[self.to_act as usize & 15]) == 1)
                        {
                            self.actions += 1;
                            let c = self.drawn;
                            let silent = forgets(self, decisions);
                            self.play(c, c.suit(), silent, deal);
                        }
                        continue;
                    }
                    (plays, false)
                }
                Phase::Drawn => (self.drawn.bit(), self.rules.keep_drawn),
                Phase::Stack => (hand & self.answer_mask(), true),
                Phase::StackDrawn => (self.drawn.bit(), true),
                Phase::Over => break,
            };
            let cards = count(plays);
            let moves = cards + other as u32;
            let k = if moves == 1 {
                0
            } else {
                uniform_below(decisions, moves as usize) as u32
            };
            if k < cards {
                let c = select(plays, k);
                // `play` reads the suit of an 8 only.
                let suit = if c.rank() == EIGHT && count(hand) != 1 {
                    uniform_below(decisions, 4) as u8
                } else {
                    c.suit()
                };
                let silent = forgets(self, decisions);
                self.play(c, suit, silent, deal);
            } else {
                match self.phase {
                    Phase::Drawn => {
                        let p = self.to_act;
                        self.start_turn(self.next(p));
                    }
                    _ => self.take(deal),
                }
            }
        }
        self.refresh();
    }

    /// Draws the next card, shuffling the played cards but the top one into a new stock when
    /// the stock is empty; `None` when no card is left to draw.
    #[inline(always)]
    fn draw_one(&mut self, rng: &mut impl Rng) -> Option<Card> {
        if self.stock_len == 0 {
            self.reshuffle();
            if self.stock_len == 0 {
                return None;
            }
        }
        let j = uniform_below(rng, self.stock_len as usize) & 127;
        self.stock_len -= 1;
        self.cards_drawn += 1;
        let c = self.stock[j];
        self.stock[j] = self.stock[self.stock_len as usize & 127];
        Some(c)
    }

    /// The played cards but the top one become the (empty) stock (draws take random cards of
    /// it, so it needs no shuffling here).
    #[cold]
    fn reshuffle(&mut self) {
        let rest = self.pile & !self.top.bit();
        if rest == 0 {
            return;
        }
        let mut m = 0;
        for c in Cards(rest) {
            self.stock[m] = c;
            m += 1;
        }
        self.stock_len = m as u8;
        self.pile = self.top.bit();
        self.reshuffles += 1;
    }

    /// Draws up to `k` cards into `seat`'s hand; returns how many came.
    #[inline(always)]
    fn draw_cards(&mut self, seat: u8, k: u16, rng: &mut impl Rng) -> u32 {
        let mut got = 0;
        let mut hand = self.hands[seat as usize & 15];
        for _ in 0..k {
            match self.draw_one(rng) {
                Some(c) => {
                    hand |= c.bit();
                    got += 1;
                }
                None => break,
            }
        }
        self.hands[seat as usize & 15] = hand;
        got
    }

    #[inline(always)]
    fn play(&mut self, card: Card, suit: u8, silent: bool, rng: &mut impl Rng) {
        let p = self.to_act;
        let answering = matches!(self.phase, Phase::Stack | Phase::StackDrawn);
        // The hand in a register: reading back a 128-bit value just stored stalls.
        let hand = self.hands[p as usize & 15] & !card.bit();
        self.hands[p as usize & 15] = hand;
        self.pile |= card.bit();
        self.top = card;
        let rank = card.rank();
        let out = hand == 0;
        match rank {
            EIGHT => {
                self.suit = if out { card.suit() } else { suit };
                self.value = EIGHT;
                if answering {
                    self.pending = 0;
                }
            }
            super::cards::JOKER => {
                // The suit in force stays (the suit of the card under it); it counts as a 3.
                self.value = THREE;
                self.pending = self.pending.saturating_add(DRAW_PENALTY);
            }
            THREE => {
                self.suit = card.suit();
                self.value = THREE;
                self.pending = self.pending.saturating_add(DRAW_PENALTY);
            }
            _ => {
                self.suit = card.suit();
                self.value = rank;
            }
        }
        self.longest_stack = self.longest_stack.max(self.pending);
        if silent {
            // «Tres, por cojudo»: the player who forgot «voy por una» draws 3 at once.
            self.forgotten += 1;
            self.penalty_cards += self.draw_cards(p, DRAW_PENALTY, rng);
        }
        if out {
            self.active &= !(1 << p);
            self.n_active -= 1;
            self.order[self.n_out as usize] = p;
            self.n_out += 1;
            if self.n_active == 1 {
                self.order[self.n_out as usize] = self.active.trailing_zeros() as u8;
                self.phase = Phase::Over;
                return;
            }
        }
        let still_in = self.active >> p & 1 == 1;
        match rank {
            ACE if still_in => self.start_turn(p),
            TWO => {
                let skipped = self.next(p);
                self.start_turn(self.next(skipped));
            }
            JACK | KING if still_in && self.n_active == 2 => self.start_turn(p),
            JACK | KING => {
                self.reversed = !self.reversed;
                self.start_turn(self.next(p));
            }
            _ => self.start_turn(self.next(p)),
        }
    }

    #[inline(always)]
    fn draw_until_playable(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let follow = self.follow_mask();
        let mut hand = self.hands[p as usize & 15];
        while let Some(c) = self.draw_one(rng) {
            hand |= c.bit();
            if follow & c.bit() != 0 {
                self.hands[p as usize & 15] = hand;
                self.phase = Phase::Drawn;
                self.drawn = c;
                return;
            }
        }
        self.hands[p as usize & 15] = hand;
        // Nothing playable came and nothing is left to draw: the turn passes.
        self.start_turn(self.next(p));
    }

    #[inline(always)]
    fn take(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let owed = self.pending;
        let rest = if self.phase == Phase::Stack {
            match self.draw_one(rng) {
                Some(c) => {
                    self.hands[p as usize & 15] |= c.bit();
                    self.stack_cards += 1;
                    if DRAW_THREE & c.bit() != 0 {
                        // «Al encartarse consigue un 3 en la primera carta»: it may answer.
                        self.phase = Phase::StackDrawn;
                        self.drawn = c;
                        return;
                    }
                    owed - 1
                }
                None => 0,
            }
        } else {
            owed - 1
        };
        self.stack_cards += self.draw_cards(p, rest, rng);
        self.pending = 0;
        // «El que se encarta no juega, pierde el turno».
        self.start_turn(self.next(p));
    }

    /// Whether the game stopped at the action cap.
    pub fn is_capped(&self) -> bool {
        self.capped
    }

    /// The whole finishing order, once the game is over and not capped: each seat as it went
    /// out, the last the seat left holding cards.
    fn final_order(&self) -> Option<&[u8]> {
        (self.phase == Phase::Over && !self.capped).then(|| &self.order[..self.n as usize])
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
        self.order[..self.n_out as usize]
            .iter()
            .map(|&s| Seat::from(s))
    }

    /// The seat that went out first (the winner), if any has.
    pub fn first_out(&self) -> Option<Seat> {
        (self.n_out > 0).then(|| self.order[0].into())
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat & 15]
    }
    /// The stock, in no particular order (each draw takes a uniformly random card of it).
    pub fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len as usize]
    }
    /// The stock as a set.
    pub fn stock_set(&self) -> CardSet {
        self.stock().iter().fold(0, |s, c| s | c.bit())
    }
    /// Cards played since the last reshuffle, the top one included.
    pub fn pile(&self) -> CardSet {
        self.pile
    }
    /// The top card.
    pub fn top(&self) -> Card {
        self.top
    }
    /// The suit in force.
    pub fn suit(&self) -> u8 {
        self.suit
    }
    /// The rank to match by value (3 when a joker is on top).
    pub fn value(&self) -> u8 {
        self.value
    }
    /// Cards the player to act must draw (0 when no draw-three is pending).
    pub fn pending(&self) -> u16 {
        self.pending
    }
    /// Whether play goes to the left.
    pub fn reversed(&self) -> bool {
        self.reversed
    }
    /// The card drawn in [`Phase::Drawn`] and [`Phase::StackDrawn`].
    pub fn drawn(&self) -> Option<Card> {
        matches!(self.phase, Phase::Drawn | Phase::StackDrawn).then_some(self.drawn)
    }
    /// Seats still holding cards, as a bitmask.
    pub fn active(&self) -> u16 {
        self.active
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
        self.turns
    }
    /// Actions taken.
    pub fn actions(&self) -> u32 {
        self.actions
    }
    /// Cards drawn after the deal (every draw: playing, stacks, penalties).
    pub fn cards_drawn(&self) -> u32 {
        self.cards_drawn
    }
    /// Cards drawn taking draw-three stacks.
    pub fn stack_cards(&self) -> u32 {
        self.stack_cards
    }
    /// Cards drawn for forgetting «voy por una».
    pub fn penalty_cards(&self) -> u32 {
        self.penalty_cards
    }
    /// «Voy por una» forgotten.
    pub fn forgotten(&self) -> u16 {
        self.forgotten
    }
    /// Reshuffles of the played cards.
    pub fn reshuffles(&self) -> u16 {
        self.reshuffles
    }
    /// The longest draw-three stack of the game.
    pub fn longest_stack(&self) -> u16 {
        self.longest_stack
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
        if self.hands[seat & 15] & plain.bit() == 0 {
            return Err(format!("{plain} is not in seat {seat}'s hand"));
        }
        let Some(i) = self.stock().iter().position(|&c| c == special) else {
            return Err(format!("{special} is not in the stock"));
        };
        let h = &mut self.hands[seat & 15];
        *h = (*h & !plain.bit()) | special.bit();
        self.stock[i] = plain;
        self.refresh();
        Ok(())
    }

    /// Checks every invariant of the state; the error names the first that fails.
    fn invariants(&self) -> Result<(), String> {
        let deck = self.rules.deck_cards();
        let stock = self.stock_set();
        if count(stock) != self.stock_len as u32 {
            return Err("a card is twice in the stock".into());
        }
        let mut seen: CardSet = 0;
        let mut total = 0;
        for part in self.hands[..self.n as usize]
            .iter()
            .chain([stock, self.pile].iter())
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
        if self.pile & self.top.bit() == 0 {
            return Err(format!("the top card {} is not on the pile", self.top));
        }
        if self.suit >= 4 {
            return Err("no suit in force".into());
        }
        if !self.pending.is_multiple_of(DRAW_PENALTY) {
            return Err(format!("a pending draw of {}", self.pending));
        }
        for s in 0..self.n {
            let active = self.active >> s & 1 == 1;
            if active != (self.hands[s as usize & 15] != 0) {
                return Err(format!(
                    "seat {s} is active: {active}, with cards: {}",
                    !active
                ));
            }
        }
        if self.n_active as u32 != self.active.count_ones() || self.n_out + self.n_active != self.n
        {
            return Err("the count of players out disagrees with the hands".into());
        }
        let out_mask = self.order[..self.n_out as usize]
            .iter()
            .fold(0u16, |m, &s| m | 1 << s);
        if out_mask.count_ones() != self.n_out as u32 || out_mask & self.active != 0 {
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
        if self.phase == Phase::Over {
            return if self.capped || self.n_active == 1 {
                Ok(())
            } else {
                Err("over with more than one player holding cards".into())
            };
        }
        if self.n_active < 2 || self.active >> self.to_act & 1 == 0 {
            return Err(format!("seat {} acts without cards", self.to_act));
        }
        let stacked = matches!(self.phase, Phase::Stack | Phase::StackDrawn);
        if stacked != (self.pending > 0) {
            return Err(format!(
                "phase {:?} with {} cards pending",
                self.phase, self.pending
            ));
        }
        if let Some(d) = self.drawn() {
            if self.hands[self.to_act as usize & 15] & d.bit() == 0 {
                return Err(format!("the drawn card {d} is not in the hand"));
            }
        }
        // A player draws only holding nothing that plays, and stops at the first card that does.
        if self.phase == Phase::Drawn
            && self.hands[self.to_act as usize & 15] & self.follow_mask() != self.drawn.bit()
        {
            return Err(format!(
                "the drawn card {} is not the only card of the hand that plays",
                self.drawn
            ));
        }
        if self.phase == Phase::StackDrawn && DRAW_THREE & self.drawn.bit() == 0 {
            return Err(format!(
                "a drawn {} answers a draw-three: only a 3 or a joker does",
                self.drawn
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
/// a player goes out by playing their last card onto the pile.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let sizes: Vec<u32> = (0..g.n as Seat).map(|p| self.hand_len(p)).collect();
        let out: Vec<Seat> = g.out_so_far().collect();
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field("dealer", &g.dealer)
            .field("starter", &g.starter)
            .field("hand", &super::cards::show(self.hand()))
            .field("drawn", &self.drawn().map(|c| c.to_string()))
            .field("hand sizes", &sizes)
            .field("out", &out)
            .field("pile", &super::cards::show(self.pile()))
            .field("top", &self.top().to_string())
            .field("suit", &self.suit())
            .field("value", &self.value())
            .field("pending", &self.pending())
            .field("reversed", &self.reversed())
            .field("phase", &self.phase())
            .field("to act", &g.to_act)
            .field("stock", &self.stock_len())
            .field("turns", &g.turns)
            .field("actions", &g.actions)
            .field("cards drawn", &g.cards_drawn)
            .field("stack cards", &g.stack_cards)
            .field("penalty cards", &g.penalty_cards)
            .field("forgotten", &g.forgotten)
            .field("reshuffles", &g.reshuffles)
            .field("longest stack", &g.longest_stack)
            .field("capped", &g.capped)
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
        self.game.n.into()
    }
    /// Players still holding cards.
    pub fn players_in(&self) -> usize {
        self.game.n_active.into()
    }
    /// This player's cards.
    #[inline]
    pub fn hand(&self) -> CardSet {
        self.game.hands[self.seat as usize & 15]
    }
    /// Cards in a player's hand.
    #[inline]
    pub fn hand_len(&self, seat: Seat) -> u32 {
        count(self.game.hands[seat & 15])
    }
    /// Whether `seat` still holds cards.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.game.active >> seat & 1 == 1
    }
    /// The top card.
    pub fn top(&self) -> Card {
        self.game.top
    }
    /// The suit in force.
    #[inline]
    pub fn suit(&self) -> u8 {
        self.game.suit
    }
    /// The rank to match by value.
    pub fn value(&self) -> u8 {
        self.game.value
    }
    /// Cards the player to act must draw.
    pub fn pending(&self) -> u16 {
        self.game.pending
    }
    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.game.phase
    }
    /// Whether play goes to the left.
    pub fn reversed(&self) -> bool {
        self.game.reversed
    }
    /// The player who acts after `seat` in the current direction.
    #[inline]
    pub fn next_after(&self, seat: Seat) -> Seat {
        self.game.next(seat as u8).into()
    }
    /// The player who would act after `seat` if the direction reversed.
    pub fn previous_before(&self, seat: Seat) -> Seat {
        next_in(self.game.active, seat as u8, !self.game.reversed).into()
    }
    /// The card this player just drew, when playing it is the question.
    pub fn drawn(&self) -> Option<Card> {
        (self.game.to_act == self.seat)
            .then(|| self.game.drawn())
            .flatten()
    }
    /// Cards in the stock.
    pub fn stock_len(&self) -> u8 {
        self.game.stock_len
    }
    /// Cards played since the last reshuffle (everybody saw them go), the top one included.
    pub fn pile(&self) -> CardSet {
        self.game.pile
    }
    /// Cards that can still be drawn: the stock and the played cards under the top one.
    #[inline]
    pub fn cards_to_draw(&self) -> u32 {
        self.game.stock_len as u32 + count(self.game.pile) - 1
    }
    /// Cards whose place this player does not know: in other hands or in the stock.
    #[inline]
    pub fn unseen(&self) -> CardSet {
        self.game.rules.deck_cards() & !self.hand() & !self.game.pile
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
        let to_act = g.to_act as usize;
        let mut unseen = view.unseen();
        let drawing = matches!(g.phase, Phase::Drawn | Phase::StackDrawn);
        let drawn_hidden = drawing && seat != to_act;
        if drawn_hidden {
            // The drawn card: one that plays on the top card, drawn because nothing in the hand
            // did; or, taking a draw-three, a 3 or a joker (the rest of the hand is free).
            let (fits, others) = if g.phase == Phase::Drawn {
                let follow = g.follow_mask();
                (follow, !follow)
            } else {
                (DRAW_THREE, !0)
            };
            let drawn = some_of(unseen & fits, 1, rng);
            let size = count(g.hands[to_act & 15]);
            let hand = drawn | some_of(unseen & others & !drawn, size - 1, rng);
            g.hands[to_act & 15] = hand;
            g.drawn = Card(drawn.trailing_zeros() as u8);
            unseen &= !hand;
        } else if !drawing {
            // A card drawn in an earlier turn, gone since: nothing to carry over.
            g.drawn = Card(0);
        }
        let mut pool = [Card(0); MAX_CARDS];
        let mut m = 0;
        for c in Cards(unseen) {
            pool[m] = c;
            m += 1;
        }
        for p in 0..g.n as usize {
            if p == seat || drawn_hidden && p == to_act {
                continue;
            }
            let mut h = 0;
            for _ in 0..count(g.hands[p]) {
                let j = uniform_below(rng, m);
                m -= 1;
                h |= pool[j].bit();
                pool[j] = pool[m];
            }
            g.hands[p] = h;
        }
        debug_assert_eq!(m, g.stock_len as usize, "every unseen card placed");
        g.stock[..m].copy_from_slice(&pool[..m]);
        g.stock[m..].fill(Card(0));
        g.refresh();
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    fn to_act(&self) -> Seat {
        self.to_act.into()
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
    /// Applies the action of the player to act; a reshuffle of the played cards draws from
    /// `rng`. An illegal action is refused with the reason and changes nothing.
    #[inline]
    fn apply(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        if self.phase == Phase::Over {
            return Err(Illegal::new(action, "the game is over"));
        }
        match action {
            Action::Play { card, suit, silent } => {
                if self.legal.plays & card.bit() == 0 {
                    return Err(Illegal::new(action, "that card cannot be played now"));
                }
                let left = count(self.hands[self.to_act as usize & 15]) - 1;
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
                self.actions += 1;
                self.play(card, suit, silent, rng);
            }
            Action::Draw => {
                if !self.legal.draw {
                    return Err(Illegal::new(
                        action,
                        "only a player without a playable card draws",
                    ));
                }
                self.actions += 1;
                self.draw_until_playable(rng);
            }
            Action::Take => {
                if !self.legal.take {
                    return Err(Illegal::new(action, "no draw-three is pending"));
                }
                self.actions += 1;
                self.take(rng);
            }
            Action::Pass => {
                if !self.legal.pass {
                    return Err(Illegal::new(
                        action,
                        "a player passes only with nothing to draw, or keeping a drawn card where that is allowed",
                    ));
                }
                self.actions += 1;
                let p = self.to_act;
                self.start_turn(self.next(p));
            }
        }
        if self.phase != Phase::Over && self.actions >= self.rules.max_actions {
            self.phase = Phase::Over;
            self.capped = true;
        }
        self.refresh();
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            None
        } else if self.n_out == 0 {
            // Stopped at the action cap before anybody went out.
            Some(Outcome::Capped)
        } else {
            // The first out won, even if the rest was stopped at the cap.
            Some(Outcome::Event(1 << self.order[0]))
        }
    }
    /// The player to the dealer's right (the one who starts under the default rules).
    fn first_player(&self) -> Seat {
        self.starter.into()
    }
    /// Turns.
    fn length(&self) -> u64 {
        self.turns.into()
    }
    /// Cards drawn, for draw-threes and as penalties, «voy por una» forgotten, reshuffles,
    /// whether the starter or the dealer was left last, actions, the longest draw-three, and
    /// whether the game stopped at the cap after the first went out ([`super::Counter`]).
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        use super::Counter as C;
        let last = self.final_order().map(|o| o[o.len() - 1]);
        out[C::CardsDrawn as usize] = self.cards_drawn.into();
        out[C::StackCards as usize] = self.stack_cards.into();
        out[C::PenaltyCards as usize] = self.penalty_cards.into();
        out[C::Forgotten as usize] = self.forgotten.into();
        out[C::Reshuffles as usize] = self.reshuffles.into();
        out[C::StarterLast as usize] = i64::from(last == Some(self.starter));
        out[C::DealerLast as usize] = i64::from(last == Some(self.dealer));
        out[C::Actions as usize] = self.actions.into();
        out[C::LongestStack as usize] = self.longest_stack.into();
        out[C::CappedAfterFirst as usize] = i64::from(self.capped && self.n_out > 0);
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
