//! The random play-out of a one-deck table (54 cards: every set fits a `u64`), the common case
//! (the default up to 5 players). The game is copied into a [`Table`] of 64-bit sets, played
//! out and copied back: a card's bit is one shift, its rank a shift, a hand one word, the cards
//! that follow the top card and the next seat each way are kept up to date instead of
//! recomputed at every action, and a play's effect and whose turn comes next are one `match`.
//! It makes exactly the moves of [`OchoState::play_out_random_with`] (and so of the random
//! bots) from the same draws, card for card: the same rules, the same stock order (a reshuffle
//! lists the played cards lowest first), the same random numbers consumed in the same order. A
//! test holds the two to each other, state and streams.

use super::{next_in, OchoState, Phase, DRAW_PENALTY, SLOTS};
use crate::games::ocho::cards::{
    rank_mask, suit_mask, Card, ACE, EIGHT, JACK, JOKER, JOKERS, KING, ONE_DECK, THREE, TWO,
};
use crate::games::ocho::rules::MAX_PLAYERS;
use crate::rng::{uniform_below, Rng};

/// A one-deck set: bit `k` is card `k` (the low half of a `CardSet`).
type Set = u64;

const EIGHTS64: Set = rank_mask(EIGHT) as Set;
const DRAW_THREE64: Set = (rank_mask(THREE) | JOKERS) as Set;

/// What plays on a suit in force and a value in a normal turn (index `suit · 16 + value`),
/// jokers where they go on a 3: the engine's `FOLLOW` in 64 bits.
static FOLLOW64: [Set; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (suit, value) = ((i / 16) as u8, (i % 16) as u8);
        if value < JOKER {
            let mut m = suit_mask(suit) | rank_mask(value) | rank_mask(EIGHT);
            if value == THREE {
                m |= JOKERS;
            }
            t[i] = m as Set;
        }
        i += 1;
    }
    t
};

/// A card's rank: index / 4, which is [`JOKER`] (13) for the jokers 52 and 53.
#[inline(always)]
fn rank(c: u8) -> u8 {
    c >> 2
}

/// A card's bit.
#[inline(always)]
fn bit(c: u8) -> Set {
    1 << (c & 63)
}

/// [`effect`]: the value to match (a joker counts as a 3).
const VALUE: usize = 15;
/// [`effect`]: the suit in force stays (a joker).
const KEEPS_SUIT: usize = 1 << 4;
/// [`effect`]: adds to a draw-three (3, joker).
const STACKS: usize = 1 << 5;
/// The ranks that add to a draw-three: 3 and joker.
const STACK_RANKS: u32 = 1 << THREE | 1 << JOKER;
/// [`effect`]: reverses the direction (J, K with more than two players); `>> 2` is 16, the
/// direction's bit.
const REVERSES: usize = 1 << 6;
/// [`effect`]: how many seats on the next turn goes, times 128 (`>> 2` is the steps' offset in
/// `next_seat`): 0 to play again (A; J and K with two players left), 2 past a skipped player
/// (2), else 1.
const STEPS: usize = 3 << 7;

/// For [`Table::next_at`]: bits `4 · rank + 4` and `+ 5` hold the shift to the field of what a
/// card of `rank` does (a multiple of 16, so picked by shifting by the card's index but its suit
/// and masking with `0x30`): 0 for the next seat, 16 for the same seat (A), 32 past one (2), 48
/// the next the other way (J, K).
const CLASS_FIELD: u64 = {
    let mut m = 0u64;
    let mut rank = 0;
    while rank <= JOKER as usize {
        let field: u64 = match rank as u8 {
            ACE => 16,
            TWO => 32,
            JACK | KING => 48,
            _ => 0,
        };
        m |= field << (4 * rank);
        rank += 1;
    }
    m
};

/// What playing a card of `rank` does, packed: see [`VALUE`], [`KEEPS_SUIT`], [`STACKS`],
/// [`REVERSES`] and [`STEPS`].
const fn effect(rank: u8, two_left: bool) -> u16 {
    let (value, keeps, stacks, reverses, steps) = match rank {
        ACE => (ACE, false, false, false, 0),
        TWO => (TWO, false, false, false, 2),
        THREE => (THREE, false, true, false, 1),
        JACK | KING if two_left => (rank, false, false, false, 0),
        JACK | KING => (rank, false, false, true, 1),
        JOKER => (THREE, true, true, false, 1),
        _ => (rank, false, false, false, 1),
    };
    (value as usize
        | if keeps { KEEPS_SUIT } else { 0 }
        | if stacks { STACKS } else { 0 }
        | if reverses { REVERSES } else { 0 }
        | steps << 7) as u16
}

/// Called on a rare branch, so that the compiler lays the common path out straight.
#[cold]
#[inline(never)]
fn rare() {}

/// `POSITIONS[b]`, byte `i`: the place of the `i`-th set bit of `b` (the rest 0).
static POSITIONS: [u64; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] |= (k as u64) << (8 * i);
                i += 1;
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Writes the cards of a set into `stock`, lowest first (as the engine's reshuffle lists
/// them), leaving the places past them as they were; returns how many. A byte of the set at a
/// time, eight places written at once from a table: seven steps whatever the set, where a bit
/// at a time ends on a branch no predictor could learn. Apart, and given only the stock, so
/// that the rest of the table can stay in registers.
#[cold]
#[inline(never)]
fn list(set: Set, stock: &mut [u8; 64]) -> u32 {
    debug_assert!(set >> 54 == 0);
    let count = set.count_ones() as usize & 63;
    // Each step writes eight places from its first; those past the byte's cards are written
    // again by the next step, and the last step's lie among the eight past the count, kept
    // here and put back.
    let after: [u8; 8] = stock[count.min(56)..count.min(56) + 8].try_into().unwrap();
    let mut m = 0;
    for byte in 0..7 {
        let b = (set >> (8 * byte)) as u8;
        // The places of this byte's cards plus its first card's (no carry: each place is
        // below 8 and 8 · byte at most 48).
        let places = POSITIONS[b as usize] + 0x0101_0101_0101_0101 * (8 * byte as u64);
        let at = m.min(56);
        stock[at..at + 8].copy_from_slice(&places.to_le_bytes());
        m += b.count_ones() as usize;
    }
    stock[count.min(56)..count.min(56) + 8].copy_from_slice(&after);
    count as u32
}

/// A uniform choice among `moves` (at least 1). One move takes no random number (the engine's
/// rule, so that the random bots and the play-out consume the same numbers), and without a
/// branch: whether there is a choice follows no pattern a predictor could learn, so the number
/// is drawn on a copy of the stream and the copy kept only when there was a choice (a
/// conditional move). With one move the draw gives 0.
#[inline(always)]
fn choose(decisions: &mut (impl Rng + Clone), moves: u32) -> u32 {
    let mut drawn = decisions.clone();
    let k = uniform_below(&mut drawn, moves as usize) as u32;
    *decisions = std::hint::select_unpredictable(moves > 1, drawn, decisions.clone());
    k
}

/// Who forgets «voy por una» and how often.
struct Forgetting<'a> {
    /// Seats that may forget.
    may: u16,
    /// Seats that always forget.
    always: u16,
    /// A seat forgets when a uniform 64-bit draw is below this.
    below: &'a [u64; MAX_PLAYERS],
}

impl Forgetting<'_> {
    /// Whether the player to act forgets «voy por una» playing from a hand of two (a draw
    /// from `decisions` only for a seat that forgets sometimes).
    #[inline(always)]
    fn forgets(&self, t: &Table, decisions: &mut impl Rng) -> bool {
        let p = t.to_act as usize;
        self.may != 0
            && self.may >> p & 1 == 1
            && t.hands[p & 15].count_ones() == 2
            && (self.always >> p & 1 == 1 || decisions.next_u64() < self.below[p % MAX_PLAYERS])
    }
}

/// The game in locals: the fields of [`OchoState`] the play-out changes, sets as `u64`, plus
/// what follows the top card and the next seats.
struct Table {
    hands: [Set; SLOTS],
    stock: [u8; 64],
    stock_len: u32,
    pile: Set,
    top: u8,
    suit: u8,
    value: u8,
    /// The cards that play on the top card in a normal turn (set with `suit` and `value`).
    follow: Set,
    wild: Set,
    pending: u16,
    /// The direction: 0 to the right, 16 reversed.
    dir: usize,
    /// `next_seat[steps · 32 + dir + seat]`: the seat `steps` (0, 1 or 2) seats on from `seat`
    /// among those holding cards (set again when a player goes out).
    next_seat: [u8; 128],
    /// What a card of each rank does when played (see [`effect`]; set again when a player
    /// goes out: with two players left J and K play again).
    effects: [u16; 16],
    /// `next_at[dir + seat]`: where the turn goes after `seat` plays, as `dir + seat` again, a
    /// 16-bit field for each kind of card (see [`CLASS_FIELD`]): the next seat, the same seat
    /// (A; J and K with two players left), past one (2), the next the other way (J and K).
    next_at: [u64; 32],
    to_act: u8,
    phase: Phase,
    drawn: u8,
    active: u16,
    n_active: u8,
    order: [u8; MAX_PLAYERS],
    n_out: u8,
    n: u8,
    eight_answers: bool,
    keep_drawn: bool,
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

impl Table {
    /// The game's state in 64 bits (every card of it is in the low half).
    #[inline(always)]
    fn of(g: &OchoState) -> Table {
        let mut hands = [0; SLOTS];
        for (h, &g) in hands.iter_mut().zip(g.hands.iter()) {
            *h = g as Set;
        }
        // All 64 places, those past the stock's end too, so that the game comes back exactly
        // as the engine would leave it.
        let mut stock = [0; 64];
        for (s, &c) in stock.iter_mut().zip(g.stock.iter()) {
            *s = c.0;
        }
        let mut t = Table {
            hands,
            stock,
            stock_len: g.stock_len as u32,
            pile: g.pile as Set,
            top: g.top.0,
            suit: g.suit,
            value: g.value,
            follow: 0,
            wild: g.wild as Set,
            pending: g.pending,
            dir: if g.reversed { 16 } else { 0 },
            next_seat: [0; 128],
            effects: [0; 16],
            next_at: [0; 32],
            to_act: g.to_act,
            phase: g.phase,
            drawn: g.drawn.0,
            active: g.active,
            n_active: g.n_active,
            order: g.order,
            n_out: g.n_out,
            n: g.n,
            eight_answers: g.rules.eight_answers,
            keep_drawn: g.rules.keep_drawn,
            turns: g.turns,
            actions: g.actions,
            cards_drawn: g.cards_drawn,
            stack_cards: g.stack_cards,
            penalty_cards: g.penalty_cards,
            forgotten: g.forgotten,
            reshuffles: g.reshuffles,
            longest_stack: g.longest_stack,
            capped: g.capped,
        };
        t.show(t.suit, t.value);
        t.seats();
        t
    }

    /// Writes the state back into the game.
    #[inline(always)]
    fn store(&self, g: &mut OchoState) {
        for (g, &h) in g.hands.iter_mut().zip(self.hands.iter()) {
            *g = h as u128;
        }
        for (g, &c) in g.stock.iter_mut().zip(self.stock.iter()) {
            *g = Card(c);
        }
        g.stock_len = self.stock_len as u8;
        g.pile = self.pile as u128;
        g.top = Card(self.top);
        g.suit = self.suit;
        g.value = self.value;
        g.pending = self.pending;
        g.reversed = self.dir != 0;
        g.to_act = self.to_act;
        g.phase = self.phase;
        g.drawn = Card(self.drawn);
        g.active = self.active;
        g.n_active = self.n_active;
        g.order = self.order;
        g.n_out = self.n_out;
        g.turns = self.turns;
        g.actions = self.actions;
        g.cards_drawn = self.cards_drawn;
        g.stack_cards = self.stack_cards;
        g.penalty_cards = self.penalty_cards;
        g.forgotten = self.forgotten;
        g.reshuffles = self.reshuffles;
        g.longest_stack = self.longest_stack;
        g.capped = self.capped;
    }

    /// Sets the next seats each way and the effects from the seats holding cards.
    fn seats(&mut self) {
        for s in 0..self.n.min(16) {
            for dir in [0, 16] {
                let next = next_in(self.active, s, dir != 0);
                let at = dir | s as usize;
                self.next_seat[at] = s;
                self.next_seat[32 | at] = next;
                self.next_seat[64 | at] = next_in(self.active, next, dir != 0);
            }
        }
        // With more than two players left and with two: built once, when compiled.
        const EFFECTS: [[u16; 16]; 2] = {
            let mut tables = [[0; 16]; 2];
            let mut rank = 0;
            while rank < 16 {
                tables[0][rank] = effect(rank as u8, false);
                tables[1][rank] = effect(rank as u8, true);
                rank += 1;
            }
            tables
        };
        let two_left = self.n_active == 2;
        self.effects = EFFECTS[two_left as usize];
        for s in 0..self.n.min(16) as usize {
            for dir in [0, 16] {
                let next = dir | self.next_seat[32 | dir | s] as usize;
                let skip = dir | self.next_seat[64 | dir | s] as usize;
                let back = if two_left {
                    dir | s
                } else {
                    (dir ^ 16) | self.next_seat[32 | (dir ^ 16) | s] as usize
                };
                self.next_at[dir | s] = next as u64
                    | ((dir | s) as u64) << 16
                    | (skip as u64) << 32
                    | (back as u64) << 48;
            }
        }
    }

    /// The engine's `next`.
    #[inline(always)]
    fn next(&self, seat: u8) -> u8 {
        self.next_seat[32 | self.dir & 16 | seat as usize & 15]
    }

    /// The suit in force and the value to match, and what follows them.
    #[inline(always)]
    fn show(&mut self, suit: u8, value: u8) {
        self.suit = suit;
        self.value = value;
        self.follow = FOLLOW64[(suit as usize & 3) << 4 | value as usize & 15] | self.wild;
    }

    /// The engine's `start_turn`.
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

    #[inline(always)]
    fn answer_mask(&self) -> Set {
        if self.eight_answers {
            DRAW_THREE64 | EIGHTS64
        } else {
            DRAW_THREE64
        }
    }

    /// The engine's `reshuffle`: the played cards but the top one become the stock.
    #[inline(always)]
    fn reshuffle(&mut self) {
        let rest = self.pile & !bit(self.top);
        if rest != 0 {
            self.stock_len = list(rest, &mut self.stock);
            self.pile = bit(self.top);
            self.reshuffles += 1;
        }
    }

    /// The engine's `draw_one`.
    #[inline(always)]
    fn draw_one(&mut self, rng: &mut impl Rng) -> Option<u8> {
        if self.stock_len == 0 {
            self.reshuffle();
            if self.stock_len == 0 {
                return None;
            }
        }
        let j = uniform_below(rng, self.stock_len as usize) & 63;
        self.stock_len -= 1;
        self.cards_drawn += 1;
        let c = self.stock[j];
        self.stock[j] = self.stock[self.stock_len as usize & 63];
        Some(c)
    }

    /// The engine's `draw_cards`.
    #[inline(always)]
    fn draw_cards(&mut self, seat: u8, k: u16, rng: &mut impl Rng) -> u32 {
        let mut got = 0;
        let mut hand = self.hands[seat as usize & 15];
        for _ in 0..k {
            match self.draw_one(rng) {
                Some(c) => {
                    hand |= bit(c);
                    got += 1;
                }
                None => break,
            }
        }
        self.hands[seat as usize & 15] = hand;
        got
    }

    /// Plays card `c` of the player to act, as a random player does: an 8 that does not go out
    /// names a random suit, and «voy por una» may be forgotten.
    #[inline(always)]
    fn play_chosen(
        &mut self,
        c: u8,
        decisions: &mut impl Rng,
        deal: &mut impl Rng,
        forgetting: &Forgetting,
    ) {
        let hand = self.hands[self.to_act as usize & 15];
        let suit = if rank(c) == EIGHT && hand.count_ones() != 1 {
            uniform_below(decisions, 4) as u8
        } else {
            c & 3
        };
        let silent = forgetting.forgets(self, decisions);
        self.play(c, suit, silent, deal);
    }

    /// The engine's `play`. A play that neither empties the hand nor forgot «voy por una» (the
    /// common case) takes one `match` on the rank: the effect and whose turn is next.
    #[inline(always)]
    fn play(&mut self, card: u8, suit: u8, silent: bool, rng: &mut impl Rng) {
        let p = self.to_act;
        let b = bit(card);
        let hand = self.hands[p as usize & 15] & !b;
        self.hands[p as usize & 15] = hand;
        self.pile |= b;
        self.top = card;
        let rank = rank(card);
        if hand == 0 || silent {
            rare();
            self.play_rest(card, suit, silent, rng);
            return;
        }
        // Without a branch on the rank (a random game's ranks follow no pattern a branch
        // predictor could learn): the effect is looked up. A pending draw grows after a 3 or a
        // joker and is otherwise none (the 8 cancels it; other cards are played without one).
        let e = self.effects[rank as usize & 15] as usize;
        self.show(
            if e & KEEPS_SUIT != 0 { self.suit } else { suit },
            (e & VALUE) as u8,
        );
        self.pending = if e & STACKS != 0 {
            self.pending.saturating_add(DRAW_PENALTY)
        } else {
            0
        };
        self.longest_stack = self.longest_stack.max(self.pending);
        self.dir ^= (e & REVERSES) >> 2;
        self.start_turn(self.next_seat[(e & STEPS) >> 2 | self.dir & 16 | p as usize & 15]);
    }

    /// The rest of the engine's `play` (the card already left the hand for the pile) when the
    /// hand is empty or «voy por una» was forgotten.
    #[inline(always)]
    fn play_rest(&mut self, card: u8, suit: u8, silent: bool, rng: &mut impl Rng) {
        let p = self.to_act;
        let answering = matches!(self.phase, Phase::Stack | Phase::StackDrawn);
        let rank = rank(card);
        let out = self.hands[p as usize & 15] == 0;
        match rank {
            EIGHT => {
                self.show(if out { card & 3 } else { suit }, EIGHT);
                if answering {
                    self.pending = 0;
                }
            }
            JOKER => {
                self.show(self.suit, THREE);
                self.pending = self.pending.saturating_add(DRAW_PENALTY);
            }
            THREE => {
                self.show(card & 3, THREE);
                self.pending = self.pending.saturating_add(DRAW_PENALTY);
            }
            _ => self.show(card & 3, rank),
        }
        self.longest_stack = self.longest_stack.max(self.pending);
        if silent {
            self.forgotten += 1;
            self.penalty_cards += self.draw_cards(p, DRAW_PENALTY, rng);
        }
        if out {
            self.active &= !(1 << p);
            self.n_active -= 1;
            self.order[self.n_out as usize % MAX_PLAYERS] = p;
            self.n_out += 1;
            if self.n_active == 1 {
                self.order[self.n_out as usize % MAX_PLAYERS] = self.active.trailing_zeros() as u8;
                self.phase = Phase::Over;
                return;
            }
            self.seats();
        }
        match rank {
            ACE if !out => self.start_turn(p),
            TWO => {
                let skipped = self.next(p);
                self.start_turn(self.next(skipped));
            }
            JACK | KING if !out && self.n_active == 2 => self.start_turn(p),
            JACK | KING => {
                self.dir ^= 16;
                self.start_turn(self.next(p));
            }
            _ => self.start_turn(self.next(p)),
        }
    }

    /// The engine's `draw_until_playable`.
    #[inline(always)]
    fn draw_until_playable(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let follow = self.follow;
        let mut hand = self.hands[p as usize & 15];
        while let Some(c) = self.draw_one(rng) {
            hand |= bit(c);
            if follow & bit(c) != 0 {
                self.hands[p as usize & 15] = hand;
                self.phase = Phase::Drawn;
                self.drawn = c;
                return;
            }
        }
        self.hands[p as usize & 15] = hand;
        self.start_turn(self.next(p));
    }

    /// Plays normal turns in a row while they are the common case: a card to play, or cards
    /// to draw until one plays (and it is played), and the play neither empties the hand nor
    /// may forget «voy por una». What carries from turn to turn is kept in as few words as
    /// will do, so that it stays in registers: the seat and the direction in one
    /// ([`Table::next_at`]'s index), the suit and the value in one, the actions and the turns
    /// in one, and the cards drawn as the stock's length. Returns when a draw-three is
    /// pending, the cap is reached, nothing is left to draw, a drawn card may be kept, or a
    /// play is not the common case (it is then played by [`Table::play`]).
    #[inline(always)]
    fn common_turns(
        &mut self,
        decisions: &mut (impl Rng + Clone),
        deal: &mut impl Rng,
        select: &impl Fn(Set, u32) -> u8,
        forgetting: &Forgetting,
        max: u32,
    ) {
        debug_assert!(self.phase == Phase::Turn && self.pending == 0);
        debug_assert!(self.actions < u32::MAX && self.turns < u32::MAX);
        let wild = self.wild;
        // A drawn card is played at once unless it may be kept: then the loop stops at the
        // first card drawn that plays, as at the cap.
        let play_drawn_below = if self.keep_drawn { 0 } else { max };
        // `dir | seat`.
        let mut at = self.dir & 16 | self.to_act as usize & 15;
        let mut follow = self.follow;
        // `suit · 16 + value`.
        let mut shown = (self.suit as usize & 3) << 4 | self.value as usize & 15;
        let (mut pile, mut top) = (self.pile, self.top);
        // The turns in the high half, the actions in the low.
        let mut count = (self.turns as u64) << 32 | self.actions as u64;
        let mut len = self.stock_len;
        // The cards drawn are this less the stock's length.
        let mut drawn_and_left = self.cards_drawn.wrapping_add(len);
        let mut rare_play = None;
        while (count as u32) < max {
            let p = at & 15;
            let mut hand = self.hands[p];
            let plays = hand & follow;
            count += 1;
            let c;
            if plays != 0 {
                c = select(plays, choose(decisions, plays.count_ones()));
            } else {
                // Draw until a card plays (the engine's `draw_until_playable`).
                if len == 0 && pile & !bit(top) == 0 {
                    // Nothing to draw: the player passes (the general loop does it).
                    rare();
                    count -= 1;
                    break;
                }
                let drawn = loop {
                    if len == 0 {
                        rare();
                        let rest = pile & !bit(top);
                        if rest == 0 {
                            break None;
                        }
                        len = list(rest, &mut self.stock);
                        drawn_and_left = drawn_and_left.wrapping_add(len);
                        pile = bit(top);
                        self.reshuffles += 1;
                    }
                    let j = uniform_below(deal, len as usize) & 63;
                    len -= 1;
                    let c = self.stock[j];
                    self.stock[j] = self.stock[len as usize & 63];
                    hand |= bit(c);
                    if follow & bit(c) != 0 {
                        break Some(c);
                    }
                };
                self.hands[p] = hand;
                let Some(d) = drawn else {
                    // Nothing playable came and nothing is left: the turn passes.
                    rare();
                    count += 1 << 32;
                    at = at & 16 | self.next_seat[32 | at] as usize & 15;
                    continue;
                };
                self.drawn = d;
                if count as u32 >= play_drawn_below {
                    // The drawn card may be kept (a choice for the general loop), or the cap
                    // stops the game before it is played.
                    rare();
                    self.phase = Phase::Drawn;
                    break;
                }
                // Playing the drawn card is an action of its own, its only move: no draw.
                count += 1;
                c = d;
            }
            let rank = c as usize >> 2;
            let named = if rank == EIGHT as usize && hand.count_ones() != 1 {
                uniform_below(decisions, 4)
            } else {
                c as usize & 3
            };
            let left = hand & !bit(c);
            if left == 0 || forgetting.may >> p & 1 == 1 && hand.count_ones() == 2 {
                rare();
                rare_play = Some((c, named as u8));
                break;
            }
            let next = self.next_at[at & 31];
            self.hands[p] = left;
            pile |= bit(c);
            top = c;
            // As `play`: a joker keeps the suit and counts as a 3.
            shown = if rank == JOKER as usize {
                shown & 0x30 | THREE as usize
            } else {
                named << 4 | rank
            };
            follow = FOLLOW64[shown & 63] | wild;
            // The field of `next` for what the rank does (4 · rank is the card but its suit).
            at = (next >> (CLASS_FIELD >> (c & 60) & 0x30)) as usize & 31;
            count += 1 << 32;
            if STACK_RANKS >> rank & 1 != 0 {
                // A 3 or a joker: a draw-three is pending now.
                self.pending = DRAW_PENALTY;
                self.longest_stack = self.longest_stack.max(DRAW_PENALTY);
                self.phase = Phase::Stack;
                break;
            }
        }
        self.to_act = (at & 15) as u8;
        self.dir = at & 16;
        self.follow = follow;
        self.suit = (shown >> 4) as u8;
        self.value = (shown & 15) as u8;
        self.pile = pile;
        self.top = top;
        self.actions = count as u32;
        self.turns = (count >> 32) as u32;
        self.stock_len = len;
        self.cards_drawn = drawn_and_left.wrapping_sub(len);
        if let Some((c, named)) = rare_play {
            let silent = forgetting.forgets(self, decisions);
            self.play(c, named, silent, deal);
        }
    }

    /// The engine's `take`.
    #[inline(always)]
    fn take(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let owed = self.pending;
        let rest = if self.phase == Phase::Stack {
            match self.draw_one(rng) {
                Some(c) => {
                    self.hands[p as usize & 15] |= bit(c);
                    self.stack_cards += 1;
                    if DRAW_THREE64 & bit(c) != 0 {
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
        self.start_turn(self.next(p));
    }
}

impl OchoState {
    /// Whether every card of the game fits 64 bits (one deck).
    #[inline]
    pub(super) fn is_one_deck(&self) -> bool {
        self.rules.deck_cards() & !ONE_DECK == 0
    }

    /// [`OchoState::play_out_random_with`] for a one-deck game, every set a `u64`: the same
    /// moves from the same draws.
    #[inline(always)]
    pub(super) fn play_out_one_deck(
        &mut self,
        decisions_out: &mut (impl Rng + Clone),
        deal_out: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
        select: impl Fn(Set, u32) -> u8,
    ) {
        debug_assert!(self.is_one_deck());
        // The streams in locals, written back at the end. The choice among moves keeps or
        // drops a draw with conditional moves on its four words, which then stay in registers
        // (behind the caller's reference they went through memory, and a load waited on stores
        // it could not be forwarded from: 5 % of the time). The deal likewise, for symmetry
        // (no difference measured).
        let mut local = decisions_out.clone();
        let decisions = &mut local;
        let mut deal_local = deal_out.clone();
        let deal = &mut deal_local;
        let mut t = Table::of(self);
        // Seats that may forget «voy por una».
        let mut may = always_forgets;
        for (s, &f) in forget_below.iter().enumerate() {
            may |= ((f > 0) as u16) << s;
        }
        let forgetting = Forgetting {
            may,
            always: always_forgets,
            below: forget_below,
        };
        let max = self.rules.max_actions;
        loop {
            if t.phase == Phase::Turn {
                t.common_turns(decisions, deal, &select, &forgetting, max);
            }
            if t.phase == Phase::Over {
                break;
            }
            if t.actions >= max {
                t.phase = Phase::Over;
                t.capped = true;
                break;
            }
            t.actions += 1;
            let p = t.to_act;
            let hand = t.hands[p as usize & 15];
            if t.phase == Phase::Turn {
                let plays = hand & t.follow;
                if plays == 0 {
                    if t.stock_len == 0 && t.pile & !bit(t.top) == 0 {
                        // Nothing to draw: the player passes.
                        t.start_turn(t.next(p));
                        continue;
                    }
                    t.draw_until_playable(deal);
                    // A drawn card that must be played and names no suit leaves one move, which
                    // takes no draw: played at once (unless the draw reached the cap).
                    if t.phase == Phase::Drawn
                        && !t.keep_drawn
                        && t.actions < max
                        && (rank(t.drawn) != EIGHT || t.hands[p as usize & 15].count_ones() == 1)
                    {
                        t.actions += 1;
                        t.play_chosen(t.drawn, decisions, deal, &forgetting);
                    }
                    continue;
                }
                // Only cards to choose from.
                let c = select(plays, choose(decisions, plays.count_ones()));
                t.play_chosen(c, decisions, deal, &forgetting);
                continue;
            }
            // A drawn card to play or keep, or a draw-three to answer or take.
            let (plays, other) = match t.phase {
                Phase::Drawn => (bit(t.drawn), t.keep_drawn),
                Phase::Stack => (hand & t.answer_mask(), true),
                _ => (bit(t.drawn), true),
            };
            let cards = plays.count_ones();
            let k = choose(decisions, cards + other as u32);
            if k < cards {
                t.play_chosen(select(plays, k), decisions, deal, &forgetting);
            } else if t.phase == Phase::Drawn {
                t.start_turn(t.next(p));
            } else {
                t.take(deal);
            }
        }
        t.store(self);
        self.refresh();
        *decisions_out = local;
        *deal_out = deal_local;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{base_stream, Rng};

    /// `list` writes the cards lowest first, a bit at a time's answer, and leaves every place
    /// past them as it was: for sets of every size, over stocks of known bytes.
    #[test]
    fn list_is_the_set_bit_by_bit() {
        let mut rng = base_stream(5);
        for size in 0..=54u32 {
            for _ in 0..40 {
                // A random set of `size` cards of the 54.
                let mut set: Set = 0;
                while set.count_ones() < size {
                    set |= 1 << (rng.next_u64() % 54);
                }
                let before: [u8; 64] = std::array::from_fn(|i| 200 + (i as u8 % 50));
                let mut stock = before;
                assert_eq!(list(set, &mut stock), size);
                let cards: Vec<u8> = (0..54).filter(|&k| set >> k & 1 == 1).collect();
                assert_eq!(&stock[..size as usize], &cards[..]);
                assert_eq!(&stock[size as usize..], &before[size as usize..]);
            }
        }
    }
}
