//! The rules of play, written once: a [`Table`] is the changing part of a game (hands, stock,
//! pile, what is in force, whose turn, who is out, the counts) over card sets of a
//! [`CardWord`], with every move of the rules — playing a card and what it does, drawing until a
//! card plays, taking a draw-three, reshuffling — and the random play-out.
//! [`OchoState`](super::OchoState) holds a `Table<u128>` (one or two decks) and moves it by these
//! methods; the random play-out of a one-deck game (the default up to 5 players) runs the same
//! code on a `Table<u64>`, where a card's bit is one shift, its rank a shift and a hand one
//! register.
//!
//! Kept up to date instead of recomputed at every action: the cards that follow the top card,
//! the next seat each way and two seats on, and what a card of each rank does (one table
//! lookup: the effect and whose turn is next, see [`effect`]).

use super::word::CardWord;
use super::{Phase, DRAW_PENALTY, SLOTS};
use crate::games::ocho::cards::{
    rank_mask, suit_mask, CardSet, ACE, DRAW_THREE, EIGHT, EIGHTS, JACK, JOKER, JOKERS, KING,
    THREE, TWO,
};
use crate::games::ocho::rules::MAX_PLAYERS;
use crate::rng::{uniform_below, Rng};

/// What plays in a normal turn on the suit in force `suit` and the value to match `value`: a
/// card of that suit or value, an 8, and on a 3 a joker (jokers that go on any card are added
/// apart). Nothing for a value that is never in force (a joker counts as a 3).
pub(super) const fn follows(suit: u8, value: u8) -> CardSet {
    if value >= JOKER {
        return 0;
    }
    let mut m = suit_mask(suit) | rank_mask(value) | EIGHTS;
    if value == THREE {
        m |= JOKERS;
    }
    m
}

/// [`effect`]: the value to match (a joker counts as a 3).
const VALUE: usize = 15;
/// [`effect`]: the suit in force stays (a joker).
const KEEPS_SUIT: usize = 1 << 4;
/// [`effect`]: adds to a draw-three (3, joker).
const STACKS: usize = 1 << 5;
/// [`effect`]: reverses the direction (J, K with more than two players); `>> 2` is 16, the
/// direction's bit.
const REVERSES: usize = 1 << 6;
/// [`effect`]: how many seats on the next turn goes, times 128 (`>> 2` is the steps' offset in
/// `next_seat`): 0 to play again (A; J and K with two players left), 2 past a skipped player
/// (2), else 1.
const STEPS: usize = 3 << 7;

/// What playing a card of `rank` does, packed: see [`VALUE`], [`KEEPS_SUIT`], [`STACKS`],
/// [`REVERSES`] and [`STEPS`]. The rules of the specials in one place: A — play again; 2 — the
/// next player skips; 3 — draw-three; J and K — reverse, or with two players left play again;
/// joker — draw-three, the suit in force stays and it counts as a 3; 8 — no effect here (the
/// suit it names is the player's choice).
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

/// [`effect`] of every rank, with more than two players left and with two.
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

/// The ranks that add to a draw-three (3 and joker), from [`effect`].
const STACK_RANKS: u32 = {
    let mut m = 0;
    let mut rank = 0;
    while rank < 16 {
        if EFFECTS[0][rank] as usize & STACKS != 0 {
            m |= 1 << rank;
        }
        rank += 1;
    }
    m
};

/// For [`Table::next_at`]: bits `4 · rank + 4` and `+ 5` hold the shift to the field of what a
/// card of `rank` does (a multiple of 16, so picked by shifting by the card's index but its suit
/// and masking with `0x30`), from [`effect`] with more than two players left: 0 for the next
/// seat, 16 for the same seat (A), 32 past one (2), 48 the next the other way (J, K).
const CLASS_FIELD: u64 = {
    let mut m = 0u64;
    let mut rank = 0;
    while rank <= JOKER as usize {
        let e = EFFECTS[0][rank] as usize;
        let field: u64 = if e & REVERSES != 0 {
            48
        } else {
            match (e & STEPS) >> 7 {
                0 => 16,
                2 => 32,
                _ => 0,
            }
        };
        m |= field << (4 * rank);
        rank += 1;
    }
    m
};

/// Called on a rare branch, so that the compiler lays the common path out straight.
#[cold]
#[inline(never)]
fn rare() {}

/// A uniform choice among `moves` (at least 1). One move takes no random number (the rule of
/// the random bots, so that they and the play-out consume the same numbers), and without a
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
    fn forgets<W: CardWord>(&self, t: &Table<W>, decisions: &mut impl Rng) -> bool {
        let p = t.to_act as usize;
        self.may != 0
            && self.may >> p & 1 == 1
            && t.hands[p & 15].count() == 2
            && (self.always >> p & 1 == 1 || decisions.next_u64() < self.below[p % MAX_PLAYERS])
    }
}

/// The changing part of a game of Ocho loco, card sets as `W`.
#[derive(Clone)]
pub(super) struct Table<W: CardWord> {
    /// Hands by seat (16 slots, so that a seat masked to 4 bits needs no bounds check).
    pub(super) hands: [W; SLOTS],
    /// The stock, in no particular order: each draw takes a uniformly random card of it (a lazy
    /// shuffle: nobody knows a shuffled stock's order, so this is the same as drawing its top
    /// card, and a reshuffle only puts the played cards back).
    pub(super) stock: W::Stock,
    pub(super) stock_len: u32,
    /// Cards played since the last reshuffle, the top one included.
    pub(super) pile: W,
    pub(super) top: u8,
    /// The card that sets the suit: the top card, or under jokers the last card played before
    /// them (the top joker itself when a position did not give it). A reshuffle keeps it out of
    /// the new stock with the top card («excluyendo la que dicte el palo»).
    pub(super) under: u8,
    /// The suit in force.
    pub(super) suit: u8,
    /// The rank to match by value (a joker on top counts as a 3).
    pub(super) value: u8,
    /// The cards that play on the top card in a normal turn (set with `suit` and `value`).
    pub(super) follow: W,
    /// The jokers when they go on any card, else nothing.
    pub(super) wild: W,
    /// Cards the player to act must draw (a draw-three stack), 0 when none.
    pub(super) pending: u16,
    /// The direction: 0 to the right (seat + 1), 16 reversed.
    pub(super) dir: usize,
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
    pub(super) to_act: u8,
    pub(super) phase: Phase,
    /// The card drawn in [`Phase::Drawn`] and [`Phase::StackDrawn`].
    pub(super) drawn: u8,
    /// Seats still holding cards, as a bitmask.
    pub(super) active: u16,
    pub(super) n_active: u8,
    /// Seats in the order they went out; the last one is the seat left holding cards.
    pub(super) order: [u8; MAX_PLAYERS],
    pub(super) n_out: u8,
    pub(super) n: u8,
    pub(super) eight_answers: bool,
    pub(super) keep_drawn: bool,
    /// Playing again after an A (a J or K with two players left) is a right ([`Phase::Again`])
    /// rather than a normal turn.
    pub(super) again_right: bool,
    pub(super) turns: u32,
    pub(super) actions: u32,
    pub(super) cards_drawn: u32,
    pub(super) stack_cards: u32,
    pub(super) penalty_cards: u32,
    pub(super) forgotten: u16,
    pub(super) reshuffles: u16,
    pub(super) longest_stack: u16,
    pub(super) capped: bool,
}

/// Every field but the next seats and the effects: they follow from the seats holding cards
/// while the game goes on ([`Table::stale`] checks them), and are not kept once it is over.
impl<W: CardWord> std::fmt::Debug for Table<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("hands", &self.hands)
            .field("stock", &self.stock)
            .field("stock_len", &self.stock_len)
            .field("pile", &self.pile)
            .field("top", &self.top)
            .field("under", &self.under)
            .field("suit", &self.suit)
            .field("value", &self.value)
            .field("follow", &self.follow)
            .field("wild", &self.wild)
            .field("pending", &self.pending)
            .field("dir", &self.dir)
            .field("to_act", &self.to_act)
            .field("phase", &self.phase)
            .field("drawn", &self.drawn)
            .field("active", &self.active)
            .field("n_active", &self.n_active)
            .field("order", &self.order)
            .field("n_out", &self.n_out)
            .field("n", &self.n)
            .field("eight_answers", &self.eight_answers)
            .field("keep_drawn", &self.keep_drawn)
            .field("again_right", &self.again_right)
            .field("turns", &self.turns)
            .field("actions", &self.actions)
            .field("cards_drawn", &self.cards_drawn)
            .field("stack_cards", &self.stack_cards)
            .field("penalty_cards", &self.penalty_cards)
            .field("forgotten", &self.forgotten)
            .field("reshuffles", &self.reshuffles)
            .field("longest_stack", &self.longest_stack)
            .field("capped", &self.capped)
            .finish_non_exhaustive()
    }
}

impl<W: CardWord> Table<W> {
    /// A table of `n` players, all holding cards, nothing dealt yet: the stock holds `stock`
    /// and the rest is empty. [`Table::seats`] and [`Table::show`] set what is kept up to date
    /// once the deal is done.
    pub(super) fn new(
        n: u8,
        stock: W::Stock,
        wild: W,
        eight_answers: bool,
        keep_drawn: bool,
    ) -> Table<W> {
        Table {
            hands: [W::EMPTY; SLOTS],
            stock,
            stock_len: 0,
            pile: W::EMPTY,
            top: 0,
            under: 0,
            suit: 0,
            value: 0,
            follow: W::EMPTY,
            wild,
            pending: 0,
            dir: 0,
            next_seat: [0; 128],
            effects: [0; 16],
            next_at: [0; 32],
            to_act: 0,
            phase: Phase::Turn,
            drawn: 0,
            active: (1u16 << n) - 1,
            n_active: n,
            order: [0; MAX_PLAYERS],
            n_out: 0,
            n,
            eight_answers,
            keep_drawn,
            again_right: false,
            turns: 0,
            actions: 0,
            cards_drawn: 0,
            stack_cards: 0,
            penalty_cards: 0,
            forgotten: 0,
            reshuffles: 0,
            longest_stack: 0,
            capped: false,
        }
    }

    /// Sets the next seats each way and the effects from the seats holding cards.
    pub(super) fn seats(&mut self) {
        let two_left = self.n_active == 2;
        self.effects = EFFECTS[two_left as usize];
        let (active, n) = (self.active, self.n.min(16) as usize);
        // The next seat holding cards each way, as `next_in` gives it: one pass down for the
        // right (the lowest one above, else the lowest of all) and one up for the left.
        let (mut right, mut left) = ([0u8; 16], [0u8; 16]);
        let mut above = active.trailing_zeros() as u8;
        for s in (0..n).rev() {
            right[s] = above;
            if active >> s & 1 == 1 {
                above = s as u8;
            }
        }
        let mut below = (15 - active.leading_zeros()) as u8;
        for (s, l) in left.iter_mut().enumerate().take(n) {
            *l = below;
            if active >> s & 1 == 1 {
                below = s as u8;
            }
        }
        for s in 0..n {
            let (r, l) = (right[s], left[s]);
            let (r2, l2) = (right[r as usize & 15], left[l as usize & 15]);
            self.next_seat[s] = s as u8;
            self.next_seat[16 | s] = s as u8;
            self.next_seat[32 | s] = r;
            self.next_seat[48 | s] = l;
            self.next_seat[64 | s] = r2;
            self.next_seat[80 | s] = l2;
            // `dir | seat` of the next seat, the same, past one and the next the other way;
            // reversing with two players left, the same player plays again.
            let (s64, r, l) = (s as u64, u64::from(r), u64::from(l));
            let (r2, l2) = (u64::from(r2), u64::from(l2));
            let (back_right, back_left) = if two_left {
                (s64, 16 | s64)
            } else {
                (16 | l, r)
            };
            self.next_at[s] = r | s64 << 16 | r2 << 32 | back_right << 48;
            self.next_at[16 | s] = (16 | l) | (16 | s64) << 16 | (16 | l2) << 32 | back_left << 48;
        }
    }

    /// Whether what is kept up to date (the next seats, the effects, what follows) is not what
    /// the state gives.
    pub(super) fn stale(&self) -> bool {
        let mut fresh = self.clone();
        fresh.seats();
        fresh.show(self.suit, self.value);
        fresh.next_seat != self.next_seat
            || fresh.effects != self.effects
            || fresh.next_at != self.next_at
            || fresh.follow != self.follow
    }

    /// The next seat still holding cards after `seat` in the direction of play.
    #[inline(always)]
    pub(super) fn next(&self, seat: u8) -> u8 {
        self.next_seat[32 | self.dir & 16 | seat as usize & 15]
    }

    /// The suit in force and the value to match, and what follows them.
    #[inline(always)]
    pub(super) fn show(&mut self, suit: u8, value: u8) {
        self.suit = suit;
        self.value = value;
        self.follow = W::follow((suit as usize & 3) << 4 | value as usize & 15) | self.wild;
    }

    #[inline(always)]
    pub(super) fn start_turn(&mut self, seat: u8) {
        self.to_act = seat;
        self.phase = if self.pending > 0 {
            Phase::Stack
        } else {
            Phase::Turn
        };
        self.turns += 1;
    }

    /// Cards that answer a pending draw-three.
    #[inline(always)]
    pub(super) fn answer_mask(&self) -> W {
        if self.eight_answers {
            W::narrow(DRAW_THREE | EIGHTS)
        } else {
            W::narrow(DRAW_THREE)
        }
    }

    /// The cards a reshuffle leaves on the pile: the top card and the card that sets the suit.
    #[inline(always)]
    fn kept(&self) -> W {
        W::bit(self.top) | W::bit(self.under)
    }

    /// Whether a card can still be drawn (from the stock, or from a reshuffle).
    #[inline(always)]
    pub(super) fn can_draw(&self) -> bool {
        self.stock_len > 0 || self.pile & !self.kept() != W::EMPTY
    }

    /// The played cards but the top one and the card that sets the suit become the (empty)
    /// stock (draws take random cards of it, so it needs no shuffling here; they are listed
    /// lowest first).
    #[inline(always)]
    fn reshuffle(&mut self) {
        let kept = self.kept();
        let rest = self.pile & !kept;
        if rest != W::EMPTY {
            self.stock_len = rest.list(&mut self.stock);
            self.pile = kept;
            self.reshuffles += 1;
        }
    }

    /// The card that sets the suit after `card` of `rank` is played: `card`, unless it is a
    /// joker on a card that sets it.
    #[inline(always)]
    fn under_after(&self, under: u8, card: u8, rank: usize) -> u8 {
        if rank == JOKER as usize && W::rank(under) != JOKER as usize {
            under
        } else {
            card
        }
    }

    /// Draws the next card, shuffling the played cards but the top one into a new stock when
    /// the stock is empty; `None` when no card is left to draw.
    #[inline(always)]
    fn draw_one(&mut self, rng: &mut impl Rng) -> Option<u8> {
        if self.stock_len == 0 {
            self.reshuffle();
            if self.stock_len == 0 {
                return None;
            }
        }
        let j = uniform_below(rng, self.stock_len as usize) & (W::PLACES - 1);
        self.stock_len -= 1;
        self.cards_drawn += 1;
        let stock = self.stock.as_mut();
        let c = stock[j].0;
        stock[j] = stock[self.stock_len as usize & (W::PLACES - 1)];
        Some(c)
    }

    /// Draws up to `k` cards into `seat`'s hand; returns how many came.
    #[inline(always)]
    fn draw_cards(&mut self, seat: u8, k: u16, rng: &mut impl Rng) -> u32 {
        let mut got = 0;
        let mut hand = self.hands[seat as usize & 15];
        for _ in 0..k {
            match self.draw_one(rng) {
                Some(c) => {
                    hand |= W::bit(c);
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
        let suit = if W::rank(c) == EIGHT as usize && hand.count() != 1 {
            uniform_below(decisions, 4) as u8
        } else {
            c & 3
        };
        let silent = forgetting.forgets(self, decisions);
        self.play(c, suit, silent, deal);
    }

    /// The player to act plays `card` (which must be legal), naming `suit` (an 8's choice; any
    /// other card passes its own suit). `silent`: «voy por una» forgotten, the player draws 3.
    /// A play that neither empties the hand nor forgot «voy por una» (the common case) takes one
    /// lookup of [`effect`]: what the card does and whose turn is next.
    #[inline(always)]
    pub(super) fn play(&mut self, card: u8, suit: u8, silent: bool, rng: &mut impl Rng) {
        let p = self.to_act;
        let b = W::bit(card);
        // The hand in a register: reading back a value just stored stalls.
        let hand = self.hands[p as usize & 15] & !b;
        self.hands[p as usize & 15] = hand;
        self.pile |= b;
        let rank = W::rank(card);
        self.under = self.under_after(self.under, card, rank);
        self.top = card;
        if hand == W::EMPTY || silent {
            rare();
            self.play_rest(card, suit, silent, rng);
            return;
        }
        // Without a branch on the rank (a random game's ranks follow no pattern a branch
        // predictor could learn): the effect is looked up.
        let e = self.effects[rank & 15] as usize;
        self.take_effect(e, suit);
        self.pass_turn(e, p);
    }

    /// What the card of effect `e` shows: the suit in force (`suit`, unless the card keeps it)
    /// and the value to match, and the draw-three: it grows after a 3 or a joker and is
    /// otherwise none (an 8 cancels it; other cards are played without one).
    #[inline(always)]
    fn take_effect(&mut self, e: usize, suit: u8) {
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
    }

    /// The turn after `p` played a card of effect `e`: the direction, and the seat `e`'s steps
    /// on.
    #[inline(always)]
    fn pass_turn(&mut self, e: usize, p: u8) {
        self.dir ^= (e & REVERSES) >> 2;
        self.start_turn(self.next_seat[(e & STEPS) >> 2 | self.dir & 16 | p as usize & 15]);
        if e & STEPS == 0 && self.again_right {
            // A right to play again (an A; a J or K with two left), not a turn: a card that
            // plays, or pass. (A 2 with two players left also comes back, as a normal turn.)
            rare();
            self.phase = Phase::Again;
        }
    }

    /// The rest of [`Table::play`] (the card already left the hand for the pile) when the hand
    /// is empty or «voy por una» was forgotten.
    #[inline(always)]
    fn play_rest(&mut self, card: u8, suit: u8, silent: bool, rng: &mut impl Rng) {
        let p = self.to_act;
        let rank = W::rank(card) & 15;
        let out = self.hands[p as usize & 15] == W::EMPTY;
        // An 8 played as the last card keeps its own suit: one cannot go out changing the suit.
        let suit = if out { card & 3 } else { suit };
        self.take_effect(self.effects[rank] as usize, suit);
        if silent {
            // «Tres, por cojudo»: the player who forgot «voy por una» draws 3 at once.
            self.forgotten += 1;
            self.penalty_cards += self.draw_cards(p, DRAW_PENALTY, rng);
        }
        if !out {
            self.pass_turn(self.effects[rank] as usize, p);
            return;
        }
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
        // A player who went out takes no extra turn: after an A the next player plays, and a J
        // or K reverses whoever is left.
        let e = EFFECTS[0][rank] as usize;
        let e = if e & STEPS == 0 { e | 1 << 7 } else { e };
        self.pass_turn(e, p);
    }

    /// Draws until a card that plays comes ([`Phase::Drawn`]); with nothing playable left to
    /// draw the turn passes.
    #[inline(always)]
    pub(super) fn draw_until_playable(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let follow = self.follow;
        let mut hand = self.hands[p as usize & 15];
        while let Some(c) = self.draw_one(rng) {
            hand |= W::bit(c);
            if follow & W::bit(c) != W::EMPTY {
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

    /// Takes the pending draw-three: one card first (a 3 or a joker may answer,
    /// [`Phase::StackDrawn`]), or, taking again, the rest; the taker loses the turn.
    #[inline(always)]
    pub(super) fn take(&mut self, rng: &mut impl Rng) {
        let p = self.to_act;
        let owed = self.pending;
        let rest = if self.phase == Phase::Stack {
            // «En caso de que alguien no tenga un 3»: only a player who held nothing that
            // answers may use a first card drawn that does.
            let held_none = self.hands[p as usize & 15] & self.answer_mask() == W::EMPTY;
            match self.draw_one(rng) {
                Some(c) => {
                    self.hands[p as usize & 15] |= W::bit(c);
                    self.stack_cards += 1;
                    if held_none && W::narrow(DRAW_THREE) & W::bit(c) != W::EMPTY {
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
        select: &impl Fn(W, u32) -> u8,
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
        let (mut pile, mut top, mut under) = (self.pile, self.top, self.under);
        let again_right = self.again_right;
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
            if plays != W::EMPTY {
                c = select(plays, choose(decisions, plays.count()));
            } else {
                // Draw until a card plays (as `draw_until_playable`).
                let kept = W::bit(top) | W::bit(under);
                if len == 0 && pile & !kept == W::EMPTY {
                    // Nothing to draw: the player passes (the general loop does it).
                    rare();
                    count -= 1;
                    break;
                }
                let drawn = loop {
                    if len == 0 {
                        rare();
                        let rest = pile & !kept;
                        if rest == W::EMPTY {
                            break None;
                        }
                        len = rest.list(&mut self.stock);
                        drawn_and_left = drawn_and_left.wrapping_add(len);
                        pile = kept;
                        self.reshuffles += 1;
                    }
                    let j = uniform_below(deal, len as usize) & (W::PLACES - 1);
                    len -= 1;
                    let stock = self.stock.as_mut();
                    let c = stock[j].0;
                    stock[j] = stock[len as usize & (W::PLACES - 1)];
                    hand |= W::bit(c);
                    if follow & W::bit(c) != W::EMPTY {
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
            let rank = W::rank(c);
            let named = if rank == EIGHT as usize && hand.count() != 1 {
                uniform_below(decisions, 4)
            } else {
                c as usize & 3
            };
            let left = hand & !W::bit(c);
            if left == W::EMPTY || forgetting.may >> p & 1 == 1 && hand.count() == 2 {
                rare();
                rare_play = Some((c, named as u8));
                break;
            }
            let next = self.next_at[at & 31];
            self.hands[p] = left;
            pile |= W::bit(c);
            under = self.under_after(under, c, rank);
            top = c;
            // As `take_effect`: a joker keeps the suit and counts as a 3.
            shown = if rank == JOKER as usize {
                shown & 0x30 | THREE as usize
            } else {
                named << 4 | rank
            };
            follow = W::follow(shown) | wild;
            // The field of `next` for what the rank does (4 · rank is the card but its suit
            // and deck).
            at = (next >> (CLASS_FIELD >> (c & 60) & 0x30)) as usize & 31;
            count += 1 << 32;
            if STACK_RANKS >> rank & 1 != 0 {
                // A 3 or a joker: a draw-three is pending now.
                self.pending = DRAW_PENALTY;
                self.longest_stack = self.longest_stack.max(DRAW_PENALTY);
                self.phase = Phase::Stack;
                break;
            }
            if again_right && self.effects[rank & 15] as usize & STEPS == 0 {
                // A right to play again (an A; a J or K with two left): a choice with a pass.
                rare();
                self.phase = Phase::Again;
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
        self.under = under;
        self.actions = count as u32;
        self.turns = (count >> 32) as u32;
        self.stock_len = len;
        self.cards_drawn = drawn_and_left.wrapping_sub(len);
        if let Some((c, named)) = rare_play {
            let silent = forgetting.forgets(self, decisions);
            self.play(c, named, silent, deal);
        }
    }

    /// Plays the rest of the game with every seat choosing as the `random` bot does from
    /// `decisions` (see [`super::OchoState::play_out_random`]), selecting the `k`-th card of a
    /// set with `select`, and stopping at `max` actions.
    #[inline(always)]
    pub(super) fn play_out(
        &mut self,
        decisions_out: &mut (impl Rng + Clone),
        deal_out: &mut (impl Rng + Clone),
        forget_below: &[u64; MAX_PLAYERS],
        always_forgets: u16,
        max: u32,
        select: impl Fn(W, u32) -> u8,
    ) {
        // The streams in locals, written back at the end. The choice among moves keeps or
        // drops a draw with conditional moves on its four words, which then stay in registers
        // (behind the caller's reference they went through memory, and a load waited on stores
        // it could not be forwarded from: 5 % of the time). The deal likewise, for symmetry
        // (no difference measured).
        let mut local = decisions_out.clone();
        let decisions = &mut local;
        let mut deal_local = deal_out.clone();
        let deal = &mut deal_local;
        let t = self;
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
                if plays == W::EMPTY {
                    if !t.can_draw() {
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
                        && (W::rank(t.drawn) != EIGHT as usize
                            || t.hands[p as usize & 15].count() == 1)
                    {
                        t.actions += 1;
                        t.play_chosen(t.drawn, decisions, deal, &forgetting);
                    }
                    continue;
                }
                // Only cards to choose from.
                let c = select(plays, choose(decisions, plays.count()));
                t.play_chosen(c, decisions, deal, &forgetting);
                continue;
            }
            // A drawn card to play or keep, a draw-three to answer or take, or a right to play
            // again to use or decline.
            let (plays, other) = match t.phase {
                Phase::Drawn => (W::bit(t.drawn), t.keep_drawn),
                Phase::Stack => (hand & t.answer_mask(), true),
                Phase::Again => (hand & t.follow, true),
                _ => (W::bit(t.drawn), true),
            };
            let cards = plays.count();
            let k = choose(decisions, cards + other as u32);
            if k < cards {
                t.play_chosen(select(plays, k), decisions, deal, &forgetting);
            } else if matches!(t.phase, Phase::Drawn | Phase::Again) {
                t.start_turn(t.next(p));
            } else {
                t.take(deal);
            }
        }
        *decisions_out = local;
        *deal_out = deal_local;
    }
}

impl Table<CardSet> {
    /// The table in sets of `W`, for a play-out (`u64` only for a one-deck game: every card of
    /// it is in the low half). All the stock's places are copied, those past its end too, so
    /// that the game comes back exactly as it would at 128 bits.
    #[inline(always)]
    pub(super) fn in_word<W: CardWord>(&self) -> Table<W> {
        debug_assert!(
            self.hands
                .iter()
                .chain([&self.pile])
                .all(|&h| W::narrow(h).widen() == h),
            "a card the word does not hold"
        );
        let mut hands = [W::EMPTY; SLOTS];
        for (h, &g) in hands.iter_mut().zip(self.hands.iter()) {
            *h = W::narrow(g);
        }
        let mut stock = W::NO_STOCK;
        stock.as_mut().copy_from_slice(&self.stock[..W::PLACES]);
        Table {
            hands,
            stock,
            stock_len: self.stock_len,
            pile: W::narrow(self.pile),
            top: self.top,
            under: self.under,
            suit: self.suit,
            value: self.value,
            follow: W::narrow(self.follow),
            wild: W::narrow(self.wild),
            pending: self.pending,
            dir: self.dir,
            next_seat: self.next_seat,
            effects: self.effects,
            next_at: self.next_at,
            to_act: self.to_act,
            phase: self.phase,
            drawn: self.drawn,
            active: self.active,
            n_active: self.n_active,
            order: self.order,
            n_out: self.n_out,
            n: self.n,
            eight_answers: self.eight_answers,
            keep_drawn: self.keep_drawn,
            again_right: self.again_right,
            turns: self.turns,
            actions: self.actions,
            cards_drawn: self.cards_drawn,
            stack_cards: self.stack_cards,
            penalty_cards: self.penalty_cards,
            forgotten: self.forgotten,
            reshuffles: self.reshuffles,
            longest_stack: self.longest_stack,
            capped: self.capped,
        }
    }

    /// Takes back the state of a table made by [`Table::in_word`] and played to the end: the
    /// next seats and the effects, kept for play, are left behind (a game over is not played).
    #[inline(always)]
    pub(super) fn take_back<W: CardWord>(&mut self, t: &Table<W>) {
        debug_assert!(t.phase == Phase::Over, "a play-out stops only at the end");
        for (g, &h) in self.hands.iter_mut().zip(t.hands.iter()) {
            *g = h.widen();
        }
        self.stock[..W::PLACES].copy_from_slice(t.stock.as_ref());
        self.stock_len = t.stock_len;
        self.pile = t.pile.widen();
        self.top = t.top;
        self.under = t.under;
        self.pending = t.pending;
        self.dir = t.dir;
        self.to_act = t.to_act;
        self.phase = t.phase;
        self.drawn = t.drawn;
        self.active = t.active;
        self.n_active = t.n_active;
        self.order = t.order;
        self.n_out = t.n_out;
        self.turns = t.turns;
        self.actions = t.actions;
        self.cards_drawn = t.cards_drawn;
        self.stack_cards = t.stack_cards;
        self.penalty_cards = t.penalty_cards;
        self.forgotten = t.forgotten;
        self.reshuffles = t.reshuffles;
        self.longest_stack = t.longest_stack;
        self.capped = t.capped;
        self.show(t.suit, t.value);
    }
}

#[cfg(test)]
mod tests {
    use super::super::next_in;
    use super::*;

    /// The next seats kept in the tables are `next_in`'s, one and two seats on each way, for
    /// every table size and every set of seats holding cards; and where a card's kind sends
    /// the turn agrees with [`effect`].
    #[test]
    fn seat_tables_are_the_next_seats() {
        for n in 2..=MAX_PLAYERS as u8 {
            for active in 1..1u16 << n {
                let mut t =
                    Table::<u64>::new(n, [crate::games::ocho::cards::Card(0); 64], 0, false, false);
                t.active = active;
                t.n_active = active.count_ones() as u8;
                t.seats();
                let two_left = t.n_active == 2;
                for s in 0..n {
                    for dir in [0usize, 16] {
                        let rev = dir != 0;
                        let next = next_in(active, s, rev);
                        let skip = next_in(active, next, rev);
                        let at = dir | s as usize;
                        assert_eq!(t.next_seat[at], s);
                        assert_eq!(t.next_seat[32 | at], next, "{n} {active:b} {s} {dir}");
                        assert_eq!(t.next_seat[64 | at], skip, "{n} {active:b} {s} {dir}");
                        let field = |k: u32| (t.next_at[at] >> (16 * k)) as usize & 31;
                        assert_eq!(field(0), dir | next as usize);
                        assert_eq!(field(1), at);
                        assert_eq!(field(2), dir | skip as usize);
                        let back = if two_left {
                            at
                        } else {
                            (dir ^ 16) | next_in(active, s, !rev) as usize
                        };
                        assert_eq!(field(3), back);
                        for rank in [ACE, TWO, JACK, KING, THREE, EIGHT] {
                            let e = t.effects[rank as usize] as usize;
                            let want = if e & REVERSES != 0 {
                                field(3)
                            } else {
                                [at, dir | next as usize, dir | skip as usize][(e & STEPS) >> 7]
                            };
                            let class = (CLASS_FIELD >> (4 * rank) & 0x30) as u32 / 16;
                            assert_eq!(field(class), want, "{rank} {n} {active:b} {s}");
                        }
                    }
                }
            }
        }
    }
}
