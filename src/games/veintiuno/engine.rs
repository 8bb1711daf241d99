//! The 21 ecuatoriano table: a shoe dealt through without reshuffling, a rotating bank, player
//! and bank policies, every special. One call of [`Table::play_hand`] plays a whole hand and
//! settles every bet; money is integer units and always conserved (the bank's result is minus
//! the sum of the players').
//!
//! Decisions beyond docs/rules.md (documented in the README):
//! - When the shoe runs out during a hand, the discards are reshuffled into a new shoe; the
//!   cards on the table stay where they are.
//! - 21 in two cards and moñona are settled at once when dealt (as the text says for 21, "aún si
//!   el banco también los tiene"); so is a trillona. Everything else is compared with the bank at
//!   the end; the bank wins ties.
//! - The bank changes hands only when a player shows 21 in two cards; the first such player in
//!   playing order takes the bank from the next hand.
//! - A split puts twice the first bet on the new hand; a hand that pairs again may be split again
//!   as long as the new stake fits ("puede volver a abrir si tiene cómo hacerlo"): no limit on
//!   the number of hands.
//!   Tapo y quedo is not available after a split ("si uno ya se abrió, juega abierto").
//! - "Mandar al puje": a bank whose two cards count 20 (a 12 that counts 20, a relancina, two
//!   figures) sends every unsettled player hand to draw until 21 or bust, and then stands.

use serde::{Deserialize, Serialize};

use super::cards::{Card, DECK};
use super::rules::{two_card, Options, Points, TwoCard};
use crate::rng::{Rng, Stream};

/// The most players at one table (bank included).
pub const MAX_SEATS: usize = 8;
/// The most hands one player can hold after splits: every card of one rank in the most decks
/// the rules allow (8), so the rules' own limit (the stake) is the only one that binds, unless
/// a hand so long that the dealer opens another deck meets a 33rd card of the rank.
pub const MAX_SPLIT_HANDS: usize = 32;

/// A player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// Stand.
    Stand,
    /// Take a card.
    Hit,
    /// Split a pair (abrir).
    Split,
    /// Tapo y quedo: one more card face down, unseen until the end.
    Tapo,
    /// Withdraw on 13 in two cards: the bet comes back.
    Withdraw,
    /// As pie de banco with 13 in two cards: end the hand; everything not yet paid returns.
    EndHand,
    /// The bet, in units, made on the face-down card before the second card is dealt (the
    /// bank's minimum to its maximum, no more than the player's chips).
    Bet(u16),
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Move::Stand => "stand",
            Move::Hit => "hit",
            Move::Split => "split",
            Move::Tapo => "tapo y quedo",
            Move::Withdraw => "withdraw",
            Move::EndHand => "end the hand",
            Move::Bet(n) => return write!(f, "bet {n}"),
        })
    }
}

impl Move {
    /// One-letter code used in strategy sheets.
    pub fn code(self) -> char {
        match self {
            Move::Stand => 'S',
            Move::Hit => 'H',
            Move::Split => 'P',
            Move::Tapo => 'T',
            Move::Withdraw => 'W',
            Move::EndHand => 'V',
            Move::Bet(_) => 'B',
        }
    }
    /// From a one-letter code.
    pub fn from_code(c: char) -> Option<Move> {
        Some(match c.to_ascii_uppercase() {
            'S' => Move::Stand,
            'H' => Move::Hit,
            'P' => Move::Split,
            'T' => Move::Tapo,
            'W' => Move::Withdraw,
            'V' => Move::EndHand,
            _ => return None,
        })
    }
}

/// What a player sees when deciding: their hand and the bank's up card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The hand's points.
    pub points: Points,
    /// The total it counts (with a two-card special such as 12 → 20).
    pub total: u8,
    /// Cards in the hand.
    pub cards: u8,
    /// The pair's rank, when the hand is two cards of one rank and may be split.
    pub pair: Option<usize>,
    /// Two cards counting 13 with withdrawal allowed.
    pub can_withdraw: bool,
    /// Tapo allowed now.
    pub can_tapo: bool,
    /// The pie de banco may end the hand (13 in two cards).
    pub can_end_hand: bool,
    /// The bank's up card rank (0 = ace … 9 = king); 0 while betting (it is not dealt yet).
    pub up: usize,
    /// `Some` when the decision is the bet, made on the face-down card alone (then the hand is
    /// that one card and nothing else may be chosen).
    pub bet: Option<BetChoice>,
}

/// A bet to make: on which face-down card, and between which limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BetChoice {
    /// The face-down card's rank (0 = ace … 9 = king).
    pub rank: u8,
    /// The least the player may bet: the bank's minimum (or the player's chips, if fewer).
    pub min: u16,
    /// The most the player may bet: the bank's maximum (or the player's chips, if fewer).
    pub max: u16,
}

impl Decision {
    /// The move a player that chose one not legal here makes instead: the least bet, or stand.
    #[inline]
    pub fn fallback(&self) -> Move {
        match self.bet {
            Some(b) => Move::Bet(b.min),
            None => Move::Stand,
        }
    }
}

/// A player strategy as a table: hard totals, soft totals and pairs against the bank's up card.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerPolicy {
    /// Name for reports.
    pub name: String,
    /// `hard[total][up]` for totals 0..=21.
    pub hard: Vec<[Move; 10]>,
    /// `soft[total][up]` for totals 0..=21.
    pub soft: Vec<[Move; 10]>,
    /// `pair[rank][up]`: whether to split.
    pub split: Vec<[bool; 10]>,
    /// `withdraw[up]`: withdraw on 13 in two cards.
    pub withdraw: [bool; 10],
    /// `tapo[total][up]`: tapo y quedo with two cards of this hard total.
    pub tapo: Vec<[bool; 10]>,
    /// As pie de banco with 13 in two cards, end the hand (everything not yet paid is returned).
    #[serde(default)]
    pub void_as_pie: bool,
    /// `raise[rank]`: bet the bank's maximum when the face-down card (seen before betting) is of
    /// this rank (0 = ace … 9 = king); the minimum otherwise. All `false` is a flat bet.
    #[serde(default)]
    pub raise: [bool; 10],
}

impl PlayerPolicy {
    /// Hits below `stand`, never splits, never withdraws, never tapos: the bank's own rule.
    pub fn mimic(stand: u8) -> Self {
        let row = |t: usize| {
            [if t < stand as usize {
                Move::Hit
            } else {
                Move::Stand
            }; 10]
        };
        Self {
            name: format!("mimic:{stand}"),
            hard: (0..22).map(row).collect(),
            soft: (0..22).map(row).collect(),
            split: vec![[false; 10]; 10],
            withdraw: [false; 10],
            tapo: vec![[false; 10]; 22],
            void_as_pie: false,
            raise: [false; 10],
        }
    }

    /// A sensible hand-written default: stand on hard 12–16 against a bank showing 2–6, hit
    /// them otherwise; soft 18 and more stand; split sevens and sixes against a small up card;
    /// withdraw 13 against an ace or a figure.
    pub fn basic() -> Self {
        let mut p = Self::mimic(17);
        p.name = "basic".into();
        for t in 12..=16 {
            for up in 1..=5 {
                p.hard[t][up] = Move::Stand;
            }
        }
        for t in 12..=17 {
            p.soft[t] = [Move::Hit; 10];
        }
        for up in 1..=5 {
            p.split[6][up] = true;
            p.split[5][up] = true;
        }
        for up in [0, 7, 8, 9] {
            p.withdraw[up] = true;
        }
        p
    }

    /// The move for a decision (falling back to legal moves).
    #[inline]
    pub fn decide(&self, d: &Decision) -> Move {
        if let Some(b) = d.bet {
            return Move::Bet(if self.raise[b.rank as usize] {
                b.max
            } else {
                b.min
            });
        }
        if d.can_end_hand && self.void_as_pie {
            return Move::EndHand;
        }
        if d.can_withdraw && self.withdraw[d.up] {
            return Move::Withdraw;
        }
        if let Some(r) = d.pair {
            if self.split[r][d.up] {
                return Move::Split;
            }
        }
        if d.can_tapo && d.cards == 2 && self.tapo[d.points.hard.min(21) as usize][d.up] {
            return Move::Tapo;
        }
        let t = d.total.min(21) as usize;
        let m = if d.points.is_soft() && d.total == d.points.total() {
            self.soft[t][d.up]
        } else {
            self.hard[t][d.up]
        };
        match m {
            Move::Hit | Move::Stand => m,
            // A sheet may hold P/T/W where they are not legal here: stand or hit by total.
            _ => {
                if t < 17 {
                    Move::Hit
                } else {
                    Move::Stand
                }
            }
        }
    }
}

/// The bank's policy: when it sends the players al puje, and how it draws.
///
/// The default never sends al puje: under the table's reading (the bank stands on its 20 and
/// wins ties) a puje only makes every player draw until 21 or bust, which can only raise their
/// chance of the one total that beats a 20 — `veintiuno compare --a bank-puje=on --b
/// bank-puje=off` measures what it gives away (docs/rules.md §2). It draws by what it sees
/// (`sees`): a bank drawing to a fixed 17 gives money away too (`veintiuno flags` measures
/// `bank-draw=fixed`). The exact sheet is solved against [`BankPolicy::fixed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BankPolicy {
    /// Stands at this total or more (soft totals count the ace as 11), when it draws by a
    /// fixed total (`sees` off); the bank that sees does not use it.
    pub stand: u8,
    /// Sends players "al puje" with 20 in two cards (when the rules allow it).
    pub puje: bool,
    /// Draws by what it sees instead of a fixed total (the default): before its first card it
    /// weighs standing against drawing on, at every total it can reach, from the face-up cards
    /// of every hand still open and the cards it has not seen ([`Table`]'s `bank_draws`).
    /// Missing from a file written before it existed: off, the bank of that time.
    #[serde(default)]
    pub sees: bool,
}

impl Default for BankPolicy {
    fn default() -> Self {
        Self {
            stand: 17,
            puje: false,
            sees: true,
        }
    }
}

impl BankPolicy {
    /// The bank that draws to a fixed total: stands at `stand` or more and never sends al
    /// puje (`bank-draw=fixed`). The exact figures (`veintiuno strategy`, `advise`, `bank`)
    /// are solved against it, at 17: the bank that sees is not solved exactly.
    pub const fn fixed(stand: u8) -> Self {
        Self {
            stand,
            puje: false,
            sees: false,
        }
    }
}

/// Counters of one hand, for the tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandReport {
    /// Net of each seat as a player this hand (the bank's seat is 0).
    pub player_net: [i32; MAX_SEATS],
    /// Net of the bank.
    pub bank_net: i32,
    /// The bank's seat this hand.
    pub bank: usize,
    /// Whether the bank changes hands after this hand.
    pub stolen: bool,
    /// Specials dealt to players this hand: natural, moñona, twelve, twelve suited, thirteen,
    /// relancina, trillona.
    pub specials: [u8; 7],
    /// Net paid on hands with each special.
    pub special_net: [i32; 7],
    /// Withdrawals, tapos, splits.
    pub withdrawals: u8,
    /// Tapo y quedo taken.
    pub tapos: u8,
    /// Splits made.
    pub splits: u8,
    /// The bank sent players al puje.
    pub puje: bool,
    /// The pie de banco ended the hand on 13.
    pub voided: bool,
    /// Whether a new shoe was shuffled during this hand.
    pub new_shoe: bool,
    /// Cards already dealt from the shoe when the hand started.
    pub depth: u16,
    /// Each seat's face-down card's rank (0 = ace … 9 = king); meaningless for the bank's seat
    /// and seats out of the table.
    pub first_rank: [u8; MAX_SEATS],
    /// Each seat's first bet this hand (0 for the bank's seat and seats out of the table).
    pub first_bet: [i32; MAX_SEATS],
}

/// Special indices in [`HandReport::specials`].
pub const SPECIAL_NAMES: [&str; 7] = [
    "natural21",
    "monona",
    "twelve",
    "twelve_suited",
    "thirteen",
    "relancina",
    "trillona",
];

/// What a player calls each special of [`SPECIAL_NAMES`], in the same order.
pub const SPECIAL_LABELS: [&str; 7] = [
    "21 in two cards",
    "moñona",
    "12 counting 20",
    "12 of one suit (21)",
    "13 (withdrawal)",
    "relancina",
    "trillona",
];

#[derive(Clone, Copy, Default)]
struct Hand {
    first: Card,
    second: Card,
    pts: Points,
    cards: u8,
    bet: i32,
    /// 0 open, 1 settled.
    settled: bool,
    tapo: bool,
    special_total: u8,
    special: Option<usize>,
    split_hand: bool,
    /// The points of the hand's face-up cards (what the bank and the other players see).
    seen: Points,
}

/// The state of a hand in progress.
#[derive(Clone, Copy, Default)]
struct InHand {
    rep: HandReport,
    shuffles_before: u64,
    order: [usize; MAX_SEATS],
    players: usize,
    nhands: [usize; MAX_SEATS],
    up: Card,
    hole: Card,
    bank_total0: u8,
    puje: bool,
    stealer: Option<usize>,
    /// (player index in playing order, hand index).
    cursor: (usize, usize),
    /// Each player's first bet (playing order): a split puts twice it on the new hand.
    first_bet: [i32; MAX_SEATS],
    /// What each player has staked in the hand so far (playing order).
    staked: [i32; MAX_SEATS],
    /// The players are betting on their face-down cards (the cursor's player bets next); only
    /// the first cards are dealt, each as its player's hand 0 of one card.
    betting: bool,
}

/// A table: the shoe, the seats and who holds the bank.
#[derive(Clone)]
pub struct Table {
    opts: Options,
    seats: usize,
    bank: usize,
    policies: Vec<PlayerPolicy>,
    bank_policy: BankPolicy,
    shoe: Vec<u8>,
    pos: usize,
    hand_start: usize,
    rng: Stream,
    /// For checks: how often each card was dealt since the last shuffle of a full shoe.
    dealt_check: Option<[u8; DECK]>,
    /// Shuffles so far (a new shoe each).
    shuffles: u64,
    /// Decks in the shoe now (more than the rules' decks if a hand ever needed every card).
    decks: u8,
    /// Decks opened because a hand needed every card.
    pub extra_decks: u32,
    /// For every ordered pair of cards: its special's index, if any, and the total it counts.
    pair_info: Vec<(Option<usize>, u8)>,
    hands: Box<[[Hand; MAX_SPLIT_HANDS]; MAX_SEATS]>,
    /// The hand in progress (meaningful while `active`).
    st: InHand,
    active: bool,
    /// The most each seat may stake in a hand (its chips, in a sitting with bankrolls).
    cap: [i32; MAX_SEATS],
    /// Seats that have left the table (broken): they are dealt nothing and never bank.
    out: [bool; MAX_SEATS],
}

/// No limit on a seat's stake.
const NO_CAP: i32 = i32::MAX / 4;

impl Table {
    /// A table of `policies.len()` seats whose players decide with those policies in
    /// [`Table::play_hand`]; the first bank is drawn by high card (ace highest).
    pub fn new(
        opts: Options,
        policies: Vec<PlayerPolicy>,
        bank_policy: BankPolicy,
        rng: Stream,
        check: bool,
    ) -> Self {
        let mut t = Self::seated(opts, policies.len(), bank_policy, rng, check);
        t.policies = policies;
        t
    }

    /// A table of `seats` seats whose players decide outside it (the step API: [`Table::pending`]
    /// and [`Table::apply`]); the first bank is drawn by high card (ace highest).
    pub fn seated(
        opts: Options,
        seats: usize,
        bank_policy: BankPolicy,
        rng: Stream,
        check: bool,
    ) -> Self {
        let policies = Vec::new();
        let mut shoe: Vec<u8> = (0..DECK as u8)
            .flat_map(|c| std::iter::repeat_n(c, opts.decks as usize))
            .collect();
        shoe.sort_unstable();
        let mut t = Self {
            opts,
            seats,
            bank: 0,
            policies,
            bank_policy,
            shoe,
            pos: 0,
            hand_start: 0,
            rng: rng.clone(),
            dealt_check: check.then_some([0; DECK]),
            shuffles: 0,
            decks: opts.decks,
            extra_decks: 0,
            pair_info: (0..DECK * DECK)
                .map(|i| {
                    let (a, b) = (Card::from_index(i / DECK), Card::from_index(i % DECK));
                    let k = match two_card(a, b, &opts) {
                        TwoCard::Natural => Some(0),
                        TwoCard::Monona => Some(1),
                        TwoCard::Twelve => Some(2),
                        TwoCard::TwelveSuited => Some(3),
                        TwoCard::Thirteen => Some(4),
                        TwoCard::Relancina => Some(5),
                        TwoCard::Plain => None,
                    };
                    (k, super::rules::two_card_total(a, b, &opts))
                })
                .collect(),
            hands: Box::new([[Hand::default(); MAX_SPLIT_HANDS]; MAX_SEATS]),
            st: InHand::default(),
            active: false,
            cap: [NO_CAP; MAX_SEATS],
            out: [false; MAX_SEATS],
        };
        t.restart(rng);
        t
    }

    /// Sets the most `seat` may stake in the coming hands (its chips): its bet is cut to it and
    /// it may split only while the split's stake fits. `None` lifts the limit.
    pub fn set_cap(&mut self, seat: usize, cap: Option<i64>) {
        self.cap[seat] = cap.map_or(NO_CAP, |c| c.clamp(0, NO_CAP as i64) as i32);
    }

    /// Takes `seat` out of the table (broken) from the next hand on. When it held the bank, the
    /// bank passes to the next seat still in, on its right (the playing order).
    pub fn leave(&mut self, seat: usize) {
        self.out[seat] = true;
        if self.bank == seat {
            let n = self.seats;
            if let Some(next) = (1..n).map(|k| (seat + k) % n).find(|&s| !self.out[s]) {
                self.bank = next;
            }
        }
    }

    /// Whether `seat` has left the table.
    pub fn is_out(&self, seat: usize) -> bool {
        self.out[seat]
    }

    /// Seats still at the table.
    pub fn seats_in(&self) -> usize {
        (0..self.seats).filter(|&s| !self.out[s]).count()
    }

    /// Starts the table afresh from `rng`: a new shoe, shuffled, and the first bank drawn by
    /// high card (ace highest; ties draw again among the tied). Cheaper than building a table.
    pub fn restart(&mut self, rng: Stream) {
        let t = self;
        t.rng = rng;
        t.decks = t.opts.decks;
        t.shoe.truncate(DECK * t.decks as usize);
        for (i, c) in t.shoe.iter_mut().enumerate() {
            *c = (i / t.decks as usize) as u8;
        }
        t.pos = 0;
        t.hand_start = 0;
        t.shuffles = 0;
        t.extra_decks = 0;
        t.out = [false; MAX_SEATS];
        t.shuffle_from(0);
        let seats = t.seats;
        let mut tied: Vec<usize> = (0..seats).collect();
        loop {
            let high = |c: Card| if c.is_ace() { 10 } else { c.rank() };
            let draws: Vec<(usize, usize)> = tied
                .iter()
                .map(|&s| {
                    (
                        s,
                        high(Card::from_index(
                            t.shoe[crate::rng::uniform_below(&mut t.rng, t.shoe.len())] as usize,
                        )),
                    )
                })
                .collect();
            let best = draws.iter().map(|d| d.1).max().unwrap_or(0);
            tied = draws.iter().filter(|d| d.1 == best).map(|d| d.0).collect();
            if tied.len() == 1 {
                t.bank = tied[0];
                break;
            }
        }
    }

    /// Sets the next cards the shoe deals: `cards[k]`, where given, is swapped into the place
    /// of the `k`-th card to be dealt from now, and the other undealt cards keep their places
    /// (so in a shuffled shoe they stay in random order). For tests and set-up hands; between
    /// hands, the first cards of a hand are each player's first card in playing order, the
    /// bank's hole card, each player's second card, the bank's up card. An error when a card
    /// is not in the undealt shoe (or is asked for twice more than it holds).
    ///
    /// With more decks than one, the copy moved is drawn at random among those not set yet (the
    /// table's stream): taking the first would leave the other copies later in the shoe than
    /// chance puts them, and a shuffled shoe would no longer be uniform given the cards set.
    pub fn put_next(&mut self, cards: &[Option<Card>]) -> Result<(), String> {
        let start = self.pos;
        if start + cards.len() > self.shoe.len() {
            return Err("more cards asked for than the shoe has left".into());
        }
        let fixed = |j: usize| j >= start && j < start + cards.len() && cards[j - start].is_some();
        for (k, c) in cards.iter().enumerate() {
            let Some(c) = c else { continue };
            let want = c.index() as u8;
            let at = start + k;
            // Not from a place already set.
            let free = |j: &usize| self.shoe[*j] == want && (*j >= at || !fixed(*j));
            let copies = (start..self.shoe.len()).filter(free).count();
            if copies == 0 {
                return Err(format!("card {c} is not in the undealt shoe"));
            }
            let pick = if copies == 1 {
                0
            } else {
                crate::rng::uniform_below(&mut self.rng, copies)
            };
            let from = (start..self.shoe.len())
                .filter(free)
                .nth(pick)
                .expect("counted above");
            self.shoe.swap(at, from);
        }
        Ok(())
    }

    /// The seat holding the bank.
    pub fn bank(&self) -> usize {
        self.bank
    }

    fn shuffle_from(&mut self, start: usize) {
        // Fisher–Yates over shoe[start..], with Lemire's exact bounded draws on the four 16-bit
        // quarters of each 64-bit word (a shoe of at most 8 decks holds 320 cards).
        self.shuffles += 1;
        let n = self.shoe.len();
        debug_assert!(n < 1 << 16);
        let (mut word, mut left) = (0u64, 0u32);
        for i in (start + 1..n).rev() {
            let bound = (i - start + 1) as u32;
            let j = loop {
                if left == 0 {
                    word = self.rng.next_u64();
                    left = 4;
                }
                let r = (word & 0xFFFF) as u32;
                word >>= 16;
                left -= 1;
                let m = r * bound;
                if (m & 0xFFFF) >= bound || (m & 0xFFFF) >= (65536 - bound) % bound {
                    break (m >> 16) as usize;
                }
            };
            self.shoe.swap(i, start + j);
        }
        if let Some(d) = self.dealt_check.as_mut() {
            *d = [0; DECK];
        }
    }

    #[inline]
    fn draw(&mut self) -> Card {
        if self.pos == self.shoe.len() {
            self.reshuffle();
        }
        let c = self.shoe[self.pos];
        self.pos += 1;
        if let Some(d) = self.dealt_check.as_mut() {
            d[c as usize] += 1;
            assert!(
                d[c as usize] <= self.decks,
                "card {} dealt twice from one shoe",
                Card::from_index(c as usize)
            );
        }
        Card::from_index(c as usize)
    }

    /// Out of cards: the cards on the table move to the front, the discards behind them are
    /// shuffled into a new shoe.
    #[cold]
    #[inline(never)]
    fn reshuffle(&mut self) {
        let on_table = self.pos - self.hand_start;
        if on_table == self.shoe.len() {
            // Every card is on the table: the dealer opens one more deck ("una o más barajas
            // según el número de jugadores"), and the table keeps it.
            self.decks += 1;
            self.extra_decks += 1;
            self.shoe.extend(0..DECK as u8);
        }
        // [discards | on table | (new deck)] → [on table | discards (and new deck)]
        self.shoe[..self.pos].rotate_left(self.hand_start);
        self.hand_start = 0;
        self.pos = on_table;
        self.shuffle_from(on_table);
        if let Some(d) = self.dealt_check.as_mut() {
            for &c in &self.shoe[..on_table] {
                d[c as usize] += 1;
            }
        }
    }

    /// Plays one hand with the seats' policies and settles every bet: the step API
    /// ([`Table::start_hand`], [`Table::pending`], [`Table::apply`], [`Table::finish_hand`])
    /// driven by the policies.
    pub fn play_hand(&mut self) -> HandReport {
        self.start_hand();
        while let Some((seat, d)) = self.pending() {
            let m = self.policies[seat].decide(&d);
            let applied = self.apply_decided(seat, &d, m);
            debug_assert!(
                applied.is_ok(),
                "a policy chose an illegal move: {applied:?}"
            );
            if applied.is_err() {
                let _ = self.apply_decided(seat, &d, d.fallback());
            }
        }
        self.finish_hand()
    }

    /// Deals a hand: every player's face-down card; when the bank's minimum and maximum bets
    /// differ, [`Table::pending`] first asks each player in playing order for its bet
    /// ([`Decision::bet`]), otherwise every player bets the minimum. Then every player's second
    /// card and the bank's two, pays the specials announced at once, and sends the players al
    /// puje if the bank holds 20 in two cards and chooses to. Then [`Table::pending`] gives the
    /// decisions in playing order.
    // Always inlined: the hand loops of `play_hand` and of the sittings are the hot path, and
    // a call per step costs 10 % of a hand (callgrind).
    #[inline(always)]
    pub fn start_hand(&mut self) {
        // The state is reset in place: no per-hand copies of it.
        self.st.rep = HandReport {
            bank: self.bank,
            depth: self.pos as u16,
            ..Default::default()
        };
        self.st.shuffles_before = self.shuffles;
        self.st.stealer = None;
        self.st.cursor = (0, 0);
        self.hand_start = self.pos;
        let n = self.seats;
        let mut seat = self.bank;
        let mut players = 0;
        for _ in 0..n - 1 {
            // The next seat round the table, without a division; seats that left are skipped.
            seat = if seat + 1 == n { 0 } else { seat + 1 };
            if !self.out[seat] {
                self.st.order[players] = seat;
                players += 1;
            }
        }
        self.st.players = players;
        let mut firsts = [Card::from_index(0); MAX_SEATS];
        for (i, f) in firsts.iter_mut().enumerate().take(players) {
            *f = self.draw();
            self.st.rep.first_rank[self.st.order[i]] = f.rank() as u8;
        }
        self.active = true;
        // Bets are made on the face-down card, before the second card is dealt: a decision of
        // each player in turn when the bank's limits leave a choice.
        if self.opts.bet_min < self.opts.bet_max {
            self.start_betting(&firsts);
        } else {
            for i in 0..players {
                let bet = (self.opts.bet_min as i32).min(self.cap[self.st.order[i]]);
                self.place_bet(i, bet);
            }
            self.deal_rest(&firsts);
        }
    }

    /// The players will bet: each face-down card is its player's hand 0, of one card, meanwhile.
    #[cold]
    #[inline(never)]
    fn start_betting(&mut self, firsts: &[Card; MAX_SEATS]) {
        for (i, &first) in firsts.iter().enumerate().take(self.st.players) {
            self.hands[i][0] = Hand {
                first,
                pts: Points::default().add(first),
                cards: 1,
                ..Hand::default()
            };
            self.st.nhands[i] = 1;
        }
        self.st.betting = true;
    }

    /// Player `i` (playing order) makes its bet, a decision; the last bet deals the rest.
    #[cold]
    #[inline(never)]
    fn bet(&mut self, i: usize, n: u16) {
        self.place_bet(i, n as i32);
        self.hands[i][0].bet = n as i32;
        self.st.cursor = (i + 1, 0);
        if i + 1 == self.st.players {
            self.st.cursor = (0, 0);
            let firsts = std::array::from_fn(|k| self.hands[k][0].first);
            self.deal_rest(&firsts);
        }
    }

    /// Player `i` (playing order) bets `bet` on its face-down card.
    #[inline(always)]
    fn place_bet(&mut self, i: usize, bet: i32) {
        self.st.first_bet[i] = bet;
        self.st.staked[i] = bet;
        self.st.rep.first_bet[self.st.order[i]] = bet;
    }

    /// Once the bets are made: the bank's hole card, every player's second card, the bank's up
    /// card; pays the specials announced at once and sends the players al puje if the bank
    /// holds 20 in two cards and chooses to.
    #[inline(always)]
    fn deal_rest(&mut self, firsts: &[Card; MAX_SEATS]) {
        let players = self.st.players;
        self.st.betting = false;
        self.st.hole = self.draw();
        for (i, &first) in firsts.iter().enumerate().take(players) {
            let second = self.draw();
            let mut h = Hand {
                first,
                second,
                pts: Points::default().add(first).add(second),
                cards: 2,
                bet: self.st.first_bet[i],
                seen: Points::default().add(second),
                ..Hand::default()
            };
            Self::classify_with(&self.pair_info, &mut h, first, second, &mut self.st.rep);
            self.hands[i][0] = h;
            self.st.nhands[i] = 1;
        }
        let up = self.draw();
        self.st.up = up;
        self.st.bank_total0 = self.pair_info[up.index() * DECK + self.st.hole.index()].1;
        self.st.puje = self.opts.puje && self.bank_policy.puje && self.st.bank_total0 == 20;
        self.st.rep.puje = self.st.puje;
        for i in 0..players {
            let seat = self.st.order[i];
            self.pay_two_card_special(i, 0, seat);
        }
        if self.st.puje {
            for i in 0..players {
                if !self.hands[i][0].settled {
                    self.puje_hand(i, self.st.order[i]);
                }
            }
            self.st.cursor = (players, 0);
        }
        self.skip_to_open();
    }

    /// Pays a natural or a moñona at once; the first natural in playing order takes the bank.
    #[inline]
    fn pay_two_card_special(&mut self, i: usize, j: usize, seat: usize) {
        let st = &mut self.st;
        let h = &mut self.hands[i][j];
        if let Some(k) = h.special {
            let pay = match k {
                0 => self.opts.natural_pays as i32,
                1 => self.opts.monona_pays as i32,
                _ => 0,
            };
            if pay > 0 {
                h.settled = true;
                st.rep.player_net[seat] += pay * h.bet;
                st.rep.special_net[k] += pay * h.bet;
                if k == 0 && st.stealer.is_none() {
                    st.stealer = Some(seat);
                }
            }
        }
    }

    /// Moves the cursor to the next hand that needs a decision (hands at 21 or more stand).
    #[inline]
    fn skip_to_open(&mut self) {
        if !self.active {
            return;
        }
        let st = &mut self.st;
        while st.cursor.0 < st.players {
            let (i, j) = st.cursor;
            if j >= st.nhands[i] {
                st.cursor = (i + 1, 0);
                continue;
            }
            let h = &self.hands[i][j];
            let total = if h.special_total > 0 {
                h.special_total
            } else {
                h.pts.total()
            };
            if h.settled || h.tapo || total >= 21 {
                st.cursor = (i, j + 1);
                continue;
            }
            return;
        }
    }

    /// The decision waiting: the seat and what it sees, or `None` when every player is done.
    // Always inlined: the hand loops of `play_hand` and of the sittings are the hot path, and
    // a call per step costs 10 % of a hand (callgrind).
    #[inline(always)]
    pub fn pending(&self) -> Option<(usize, Decision)> {
        if !self.active {
            return None;
        }
        let st = &self.st;
        let (i, j) = st.cursor;
        if i >= st.players {
            return None;
        }
        let h = &self.hands[i][j];
        if st.betting {
            return Some((st.order[i], self.bet_decision(i)));
        }
        let two = h.cards == 2;
        // Two cards of one rank (a relancina's figures differ, so it is never a pair).
        let is_pair = two && h.first.rank() == h.second.rank();
        Some((
            st.order[i],
            Decision {
                points: h.pts,
                total: if h.special_total > 0 {
                    h.special_total
                } else {
                    h.pts.total()
                },
                cards: h.cards,
                pair: (is_pair
                    && st.nhands[i] < MAX_SPLIT_HANDS
                    && st.staked[i] + 2 * st.first_bet[i] <= self.cap[st.order[i]])
                    .then_some(h.first.rank()),
                can_withdraw: two && self.opts.withdraw_13 && h.special == Some(4),
                can_tapo: two && self.opts.tapo && !h.split_hand,
                can_end_hand: i == 0
                    && j == 0
                    && two
                    && self.opts.withdraw_13
                    && h.special == Some(4),
                up: st.up.rank(),
                bet: None,
            },
        ))
    }

    /// Player `i`'s bet on its face-down card, as a decision.
    #[cold]
    #[inline(never)]
    fn bet_decision(&self, i: usize) -> Decision {
        let h = &self.hands[i][0];
        let cap = self.cap[self.st.order[i]].clamp(0, u16::MAX as i32) as u16;
        Decision {
            points: h.pts,
            total: h.pts.total(),
            cards: 1,
            pair: None,
            can_withdraw: false,
            can_tapo: false,
            can_end_hand: false,
            up: 0,
            bet: Some(BetChoice {
                rank: h.first.rank() as u8,
                min: self.opts.bet_min.min(cap),
                max: self.opts.bet_max.min(cap),
            }),
        }
    }

    /// Every move legal for the pending decision.
    pub fn legal_moves(&self) -> Vec<Move> {
        let Some((_, d)) = self.pending() else {
            return Vec::new();
        };
        if let Some(b) = d.bet {
            // Any amount between is accepted; for a player who wants the most money (the
            // result is proportional to the bet) only the two limits are worth considering.
            let mut v = vec![Move::Bet(b.min)];
            if b.max > b.min {
                v.push(Move::Bet(b.max));
            }
            return v;
        }
        let mut v = vec![Move::Stand, Move::Hit];
        if d.pair.is_some() {
            v.push(Move::Split);
        }
        if d.can_tapo {
            v.push(Move::Tapo);
        }
        if d.can_withdraw {
            v.push(Move::Withdraw);
        }
        if d.can_end_hand {
            v.push(Move::EndHand);
        }
        v
    }

    /// Applies a move to the pending decision; an illegal move is refused with the reason.
    pub fn apply(&mut self, m: Move) -> Result<(), &'static str> {
        let (seat, d) = self.pending().ok_or("no decision is pending")?;
        self.apply_decided(seat, &d, m)
    }

    /// Applies a move to the decision [`Table::pending`] gave (`seat` and `d`), without
    /// computing it again.
    // Always inlined: the hand loops of `play_hand` and of the sittings are the hot path, and
    // a call per step costs 10 % of a hand (callgrind).
    #[inline(always)]
    pub fn apply_decided(
        &mut self,
        seat: usize,
        d: &Decision,
        m: Move,
    ) -> Result<(), &'static str> {
        let (i, j) = self.st.cursor;
        if let Some(b) = d.bet {
            return match m {
                Move::Bet(n) if (b.min..=b.max).contains(&n) => {
                    self.bet(i, n);
                    Ok(())
                }
                Move::Bet(_) => Err("the bet is outside the bank's limits (or the player's chips)"),
                _ => Err("the bet comes first, on the face-down card"),
            };
        }
        let result = match m {
            Move::Stand => {
                self.st.cursor = (i, j + 1);
                Ok(())
            }
            Move::Withdraw if d.can_withdraw => {
                self.hands[i][j].settled = true;
                self.st.rep.withdrawals += 1;
                self.st.cursor = (i, j + 1);
                Ok(())
            }
            Move::EndHand if d.can_end_hand => {
                // Everything not yet paid is returned: settle every open hand at 0.
                for ii in 0..self.st.players {
                    for h in self.hands[ii][..self.st.nhands[ii]].iter_mut() {
                        h.settled = true;
                    }
                }
                self.st.rep.voided = true;
                // "El banco deberá retirar todas las cartas y repartir nuevamente": the same bank
                // deals again, so a 21 in two cards already paid does not take the bank.
                self.st.stealer = None;
                self.st.cursor = (self.st.players, 0);
                Ok(())
            }
            Move::Tapo if d.can_tapo => {
                let c = self.draw();
                let h = &mut self.hands[i][j];
                h.pts = h.pts.add(c);
                h.cards += 1;
                h.tapo = true;
                h.special_total = 0;
                self.st.rep.tapos += 1;
                self.st.cursor = (i, j + 1);
                Ok(())
            }
            Move::Hit => {
                let c = self.draw();
                let trillona = self.opts.trillona;
                let h = &mut self.hands[i][j];
                h.pts = h.pts.add(c);
                h.seen = h.seen.add(c);
                h.cards += 1;
                h.special_total = 0;
                if h.pts.hard > 21 {
                    h.settled = true;
                    self.st.rep.player_net[seat] -= h.bet;
                    if let Some(k) = h.special {
                        self.st.rep.special_net[k] -= h.bet;
                    }
                } else if h.pts.total() == 21 && h.cards == 7 && trillona {
                    Self::pay_trillona(h, seat, &mut self.st.rep);
                }
                Ok(())
            }
            Move::Split if d.pair.is_some() => {
                self.st.rep.splits += 1;
                let h = self.hands[i][j];
                let k = self.st.nhands[i];
                self.st.nhands[i] += 1;
                // The new hand takes the pair's second card with twice the first bet.
                let c1 = self.draw();
                let c2 = self.draw();
                let new_bet = 2 * self.st.first_bet[i];
                self.st.staked[i] += new_bet;
                let mut a = Hand {
                    first: h.first,
                    second: c1,
                    pts: Points::default().add(h.first).add(c1),
                    cards: 2,
                    bet: h.bet,
                    split_hand: true,
                    // The pair is shown and every card after a split is dealt face up.
                    seen: Points::default().add(h.first).add(c1),
                    ..Hand::default()
                };
                let mut b = Hand {
                    first: h.second,
                    second: c2,
                    pts: Points::default().add(h.second).add(c2),
                    cards: 2,
                    bet: new_bet,
                    split_hand: true,
                    seen: Points::default().add(h.second).add(c2),
                    ..Hand::default()
                };
                Self::classify_with(&self.pair_info, &mut a, h.first, c1, &mut self.st.rep);
                Self::classify_with(&self.pair_info, &mut b, h.second, c2, &mut self.st.rep);
                self.hands[i][j] = a;
                self.hands[i][k] = b;
                // A split hand may still make 21 in two cards (and steal the bank) or moñona.
                self.pay_two_card_special(i, j, seat);
                self.pay_two_card_special(i, k, seat);
                Ok(())
            }
            _ => Err("that move is not legal here"),
        };
        self.skip_to_open();
        result
    }

    /// The bank plays (if any hand is open), every hand is settled, and the bank changes hands
    /// after a 21 in two cards. Call when [`Table::pending`] is `None`.
    // Always inlined: the hand loops of `play_hand` and of the sittings are the hot path, and
    // a call per step costs 10 % of a hand (callgrind).
    #[inline(always)]
    pub fn finish_hand(&mut self) -> HandReport {
        assert!(self.active, "start_hand first");
        self.active = false;
        let players = self.st.players;
        let (up, hole, total0, puje) =
            (self.st.up, self.st.hole, self.st.bank_total0, self.st.puje);
        let open = (0..players).any(|i| {
            self.hands[i][..self.st.nhands[i]]
                .iter()
                .any(|h| !h.settled)
        });
        let mut bank_pts = Points::default().add(up).add(hole);
        let bank_final: u8 = if !open || puje {
            total0
        } else if total0 != bank_pts.total() {
            // A two-card special (21, 12 counting 20) stands.
            total0
        } else if self.bank_policy.sees {
            self.bank_draws(bank_pts)
        } else if total0 >= self.bank_policy.stand {
            total0
        } else {
            while bank_pts.hard <= 21 && bank_pts.total() < self.bank_policy.stand {
                bank_pts = bank_pts.add(self.draw());
            }
            if bank_pts.hard > 21 {
                22
            } else {
                bank_pts.total()
            }
        };
        let st = &mut self.st;
        for i in 0..players {
            let seat = st.order[i];
            for h in self.hands[i][..st.nhands[i]]
                .iter_mut()
                .filter(|h| !h.settled)
            {
                let total = if h.special_total > 0 {
                    h.special_total
                } else {
                    h.pts.total()
                };
                let net = if h.pts.hard > 21 {
                    // Only tapo hands reach here busted: they do not lose if the bank busts.
                    if bank_final == 22 {
                        0
                    } else {
                        -h.bet
                    }
                } else if bank_final == 22 || total > bank_final {
                    h.bet
                } else {
                    -h.bet
                };
                st.rep.player_net[seat] += net;
                if let Some(k) = h.special {
                    st.rep.special_net[k] += net;
                }
                h.settled = true;
            }
        }
        st.rep.bank_net = -st.rep.player_net.iter().sum::<i32>();
        st.rep.new_shoe = self.shuffles != st.shuffles_before;
        if let (Some(s), true) = (st.stealer, self.opts.bank_steal) {
            if s != self.bank {
                self.bank = s;
                st.rep.stolen = true;
            }
        }
        st.rep
    }

    /// The bank that draws by what it sees: from the face-up cards of every open hand and the
    /// cards it has not seen (the shoe, the players' face-down and tapo cards, pooled by their
    /// points), each open hand's total is a distribution — its hidden cards drawn from the
    /// unseen ones (with replacement), leaving out what would have been announced (a two-card
    /// 21 or moñona, a hand past 21 without tapo) and a 12 of two cards counting 21 one time in
    /// four when `suited12` is on — and the bank draws a card exactly when drawing on
    /// (optimally, with the same draw odds) is worth more than standing (by more than rounding:
    /// a tie stands). The stand/draw table over its totals is computed once, before its first
    /// card. Returns the final total, 22 for a bust.
    #[inline(never)]
    fn bank_draws(&mut self, start: Points) -> u8 {
        // 21 stands (a bank's 21 in two cards reaches here as 21): nothing to weigh.
        if start.total() >= 21 {
            return start.total();
        }
        // Point classes: 1 (ace), 2–7, 10.
        const POINTS: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 10];
        let class = |p: u8| if p == 10 { 7 } else { p as usize - 1 };
        let mut unseen = [0u32; 8];
        for &c in &self.shoe[self.pos..] {
            // Card indices are rank-major (rank = index / 4): ace 0, 2–7 1–6, figures 7–9.
            unseen[(c >> 2).min(7) as usize] += 1;
        }
        let players = self.st.players;
        for i in 0..players {
            for h in self.hands[i][..self.st.nhands[i]]
                .iter()
                .filter(|h| !h.settled)
            {
                if !h.split_hand {
                    unseen[class(h.first.points())] += 1;
                }
                if h.tapo {
                    let first = if h.split_hand { 0 } else { h.first.points() };
                    unseen[class(h.pts.hard - h.seen.hard - first)] += 1;
                }
            }
        }
        let total_unseen: u32 = unseen.iter().sum();
        if total_unseen == 0 {
            return start.total();
        }
        let q: [f64; 8] = std::array::from_fn(|k| unseen[k] as f64 / total_unseen as f64);
        // weighted[t]: Σ bet × P(total = t) over the open hands (22: a busted tapo hand).
        let mut weighted = [0f64; 23];
        let mut staked = 0f64;
        let opts = self.opts;
        for i in 0..players {
            for h in self.hands[i][..self.st.nhands[i]]
                .iter()
                .filter(|h| !h.settled)
            {
                let bet = h.bet as f64;
                staked += bet;
                if h.split_hand && !h.tapo {
                    // Every card face up: the total is known.
                    let t = if h.special_total > 0 {
                        h.special_total
                    } else {
                        h.pts.total()
                    };
                    weighted[t.min(22) as usize] += bet;
                    continue;
                }
                let mut dist = [0f64; 23];
                // The face-down first card, then (tapo) the tapo card.
                for (kx, &x) in POINTS.iter().enumerate() {
                    let with_x = h.seen.add_points(x);
                    // A two-card 21 or moñona would have been announced and paid.
                    let sec = h.second;
                    if (x == 1 && (sec.is_figure() || sec.is_ace())) || (x == 10 && sec.is_ace()) {
                        continue;
                    }
                    let base = q[kx];
                    if h.tapo {
                        for (ky, &y) in POINTS.iter().enumerate() {
                            let end = with_x.add_points(y);
                            let t = if end.hard > 21 { 22 } else { end.total() };
                            dist[t as usize] += base * q[ky];
                        }
                    } else if h.cards == 2 && with_x.hard == 12 && opts.twelve_counts_20 {
                        let suited = if opts.suited_twelve_21 { 0.25 } else { 0.0 };
                        dist[21] += base * suited;
                        dist[20] += base * (1.0 - suited);
                    } else if h.cards == 2 && with_x.hard == 12 && opts.suited_twelve_21 {
                        dist[21] += base * 0.25;
                        dist[12] += base * 0.75;
                    } else if with_x.hard <= 21 {
                        dist[with_x.total() as usize] += base;
                    }
                }
                let mass: f64 = dist.iter().sum();
                if mass <= 0.0 {
                    continue;
                }
                let w = bet / mass;
                for t in 0..23 {
                    weighted[t] += w * dist[t];
                }
            }
        }
        // at_most[t]: Σ bet × P(total ≤ t); busted: Σ bet × P(tapo bust).
        let mut at_most = [0f64; 22];
        let mut run = 0.0;
        for t in 0..22 {
            run += weighted[t];
            at_most[t] = run;
        }
        let busted = weighted[22];
        let tol = 1e-9 * staked;
        // Standing wins every open hand: nothing beats it.
        if at_most[start.total() as usize] + busted >= staked - tol {
            return start.total();
        }
        // The bank's result standing on t, and on a bust.
        let stand = |t: u8| 2.0 * (at_most[t.min(21) as usize] + busted) - staked;
        let bust = -(staked - busted);
        // value[hard][ace], draw[hard][ace], from the highest hard total down. From hard 12 on
        // an ace counts 1 whatever comes: both entries are one state, computed once. Below, a
        // bank holding an ace holds one on every later total: its totals without one are left
        // out.
        let mut value = [[0f64; 2]; 22];
        let mut draw = [[false; 2]; 22];
        // One state: stand or draw at `hard` points (with an ace or not), from the states above.
        let state = |value: &[[f64; 2]; 22], hard: usize, ace: bool| {
            let p = Points {
                hard: hard as u8,
                ace,
            };
            let s = stand(p.total());
            if p.total() >= 21 {
                return (false, s);
            }
            let mut d = 0.0;
            for (&x, qx) in POINTS.iter().zip(q) {
                let n = p.add_points(x);
                d += qx
                    * if n.hard > 21 {
                        bust
                    } else {
                        value[n.hard as usize][n.ace as usize]
                    };
            }
            // Draws only when that is worth more by more than rounding: a tie stands, at every
            // size of bet alike.
            if d > s + tol {
                (true, d)
            } else {
                (false, s)
            }
        };
        let mut hard = 21;
        loop {
            if hard >= 12 {
                let (x, v) = state(&value, hard, false);
                draw[hard] = [x, x];
                value[hard] = [v, v];
            } else {
                if !start.ace {
                    (draw[hard][0], value[hard][0]) = state(&value, hard, false);
                }
                (draw[hard][1], value[hard][1]) = state(&value, hard, true);
            }
            if hard <= start.hard as usize {
                break;
            }
            hard -= 1;
        }
        let mut pts = start;
        while pts.hard <= 21 && draw[pts.hard as usize][pts.ace as usize] {
            pts = pts.add(self.draw());
        }
        if pts.hard > 21 {
            22
        } else {
            pts.total()
        }
    }

    fn classify_with(
        pair_info: &[(Option<usize>, u8)],
        h: &mut Hand,
        a: Card,
        b: Card,
        rep: &mut HandReport,
    ) {
        let k = pair_info[a.index() * DECK + b.index()].0;
        h.special = k;
        h.special_total = match k {
            Some(2) => 20,
            Some(3) => 21,
            _ => 0,
        };
        if let Some(k) = k {
            rep.specials[k] += 1;
        }
    }

    fn puje_hand(&mut self, i: usize, seat: usize) {
        // Every hand short of 21 draws until 21 or bust (a 12 counting 20 draws from 12).
        if self.hands[i][0].special_total == 21 {
            return; // compared at the end: 21 beats the bank's 20
        }
        self.hands[i][0].special_total = 0;
        while self.hands[i][0].pts.hard <= 21 && self.hands[i][0].pts.total() < 21 {
            let c = self.draw();
            let h = &mut self.hands[i][0];
            h.pts = h.pts.add(c);
            h.seen = h.seen.add(c);
            h.cards += 1;
        }
        let trillona = self.opts.trillona;
        let h = &mut self.hands[i][0];
        if h.pts.hard > 21 {
            h.settled = true;
            self.st.rep.player_net[seat] -= h.bet;
            if let Some(k) = h.special {
                self.st.rep.special_net[k] -= h.bet;
            }
        } else if h.cards == 7 && trillona {
            Self::pay_trillona(h, seat, &mut self.st.rep);
        }
    }

    fn pay_trillona(h: &mut Hand, seat: usize, rep: &mut HandReport) {
        h.settled = true;
        rep.player_net[seat] += 7 * h.bet;
        rep.specials[6] += 1;
        rep.special_net[6] += 7 * h.bet;
    }
}

/// A decision applied to the hand in progress, as a sitting logs it: the table does not keep
/// the cards of a hand apart (only their points), so the place of every card dealt in the hand
/// is told from the deal's fixed order and these ([`Table::spots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Decided {
    /// The player's index in playing order.
    pub player: u8,
    /// The hand's index among that player's hands.
    pub hand: u8,
    /// The move.
    pub mv: Move,
    /// Cards dealt in the hand before the move ([`Table::dealt_in_hand`]).
    pub from: u16,
}

/// How a player's card lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Face {
    /// The first card, dealt face down: its owner sees it, the others once it is shown.
    Down,
    /// Face up.
    Up,
    /// Tapo y quedo: face down, unseen even by its owner until the end.
    Tapo,
}

/// Where a card dealt in the hand in progress lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spot {
    /// A player's card: the player's index in playing order, the hand, how it lies.
    Player { player: u8, hand: u8, face: Face },
    /// The bank's hole card (face down; the bank sees it).
    Hole,
    /// The bank's up card.
    Up,
    /// A card the bank drew (only once every player is done).
    Bank,
}

/// What a public fact says of a card dealt face down, for dealing it again
/// ([`Table::deal_unseen`]). (Nothing says anything of a tapo card before the end.)
enum Check {
    /// The bank's hole card: its two cards count 20 exactly when it sent the players al puje
    /// (when the rules and its policy would).
    Hole,
    /// A player's first card on an unsplit hand still open: the hand is no two-card special
    /// (those are announced at once), never passed 21 nor made a trillona (paid at once), and
    /// was short of 21 whenever the player was asked (before each hit, and now if it is the
    /// hand to decide).
    First {
        second: Card,
        hits: Vec<Card>,
        asked: bool,
    },
}

/// What one seat sees of the table: the shoe's counts, what it has seen leave it, and the hand
/// in progress with what lies face down hidden.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Seen {
    bank: usize,
    decks: u8,
    shuffles: u64,
    cards_left: usize,
    /// Cards of the finished hands since the last shuffle (every card is shown at the end of a
    /// hand), in card order.
    seen_since_shuffle: String,
    hand: Option<SeenHand>,
}

/// The hand in progress as one seat sees it.
#[derive(Debug, PartialEq, Eq)]
struct SeenHand {
    /// Each player in playing order: seat, what was paid at once so far, the hands.
    players: Vec<(usize, i32, Vec<SeenBox>)>,
    bank_up: String,
    bank_hole: String,
    puje: bool,
    /// The decision waiting: the player's index in playing order and the hand.
    cursor: (usize, usize),
}

/// One hand of a player as a seat sees it: its cards in the order dealt (`??` face down,
/// `tapo??` the tapo card), its bet, whether it is settled.
#[derive(Debug, PartialEq, Eq)]
struct SeenBox {
    cards: String,
    bet: i32,
    settled: bool,
}

impl Table {
    /// The decision cursor of the hand in progress: the player's index in playing order and the
    /// hand's.
    pub(super) fn cursor(&self) -> (usize, usize) {
        self.st.cursor
    }

    /// Cards dealt in the hand in progress so far. They lie in the shoe in the order dealt from
    /// `hand_start` on, also after a reshuffle (which moves them to the front in order).
    pub(super) fn dealt_in_hand(&self) -> usize {
        self.pos - self.hand_start
    }

    /// The `k`-th card dealt in the hand in progress.
    pub(super) fn dealt(&self, k: usize) -> Card {
        Card::from_index(self.shoe[self.hand_start + k] as usize)
    }

    /// Where each card dealt in the hand in progress lies, from the deal's order (each
    /// player's first card, the bank's hole card, each player's second card, the bank's up card,
    /// the puje's draws) and `log`, every decision applied to the hand. Empty between hands.
    pub(super) fn spots(&self, log: &[Decided]) -> Vec<Spot> {
        if !self.active {
            return Vec::new();
        }
        let n = self.dealt_in_hand();
        let p = self.st.players;
        let mut spots = vec![Spot::Bank; n];
        let player = |i: usize, j: usize, face| Spot::Player {
            player: i as u8,
            hand: j as u8,
            face,
        };
        if self.st.betting {
            // Only the face-down cards are dealt while the players bet.
            return (0..n).map(|i| player(i, 0, Face::Down)).collect();
        }
        for i in 0..p {
            spots[i] = player(i, 0, Face::Down);
            spots[p + 1 + i] = player(i, 0, Face::Up);
        }
        spots[p] = Spot::Hole;
        spots[2 * p + 1] = Spot::Up;
        let mut next = 2 * p + 2;
        if self.st.puje {
            for i in 0..p {
                for _ in 2..self.hands[i][0].cards {
                    spots[next] = player(i, 0, Face::Up);
                    next += 1;
                }
            }
        }
        let mut hands = [1usize; MAX_SEATS];
        for d in log {
            let (i, j, k) = (d.player as usize, d.hand as usize, d.from as usize);
            match d.mv {
                Move::Hit => spots[k] = player(i, j, Face::Up),
                Move::Tapo => spots[k] = player(i, j, Face::Tapo),
                Move::Split => {
                    // The hand's second card (its later one) starts the new hand.
                    let new = hands[i];
                    hands[i] += 1;
                    let owned = |s: &Spot| {
                        matches!(*s, Spot::Player { player, hand, .. }
                            if player as usize == i && hand as usize == j)
                    };
                    if let Some(s) = (0..k).rev().find(|&s| owned(&spots[s])) {
                        spots[s] = player(i, new, Face::Up);
                    }
                    spots[k] = player(i, j, Face::Up);
                    spots[k + 1] = player(i, new, Face::Up);
                }
                _ => {}
            }
        }
        spots
    }

    /// Whether player `i`'s first card (dealt face down) is shown to everyone: the hand was
    /// split (the pair is shown), is a two-card special (announced at once) or was settled
    /// before the end (paid at once, passed 21, withdrawn).
    fn first_shown(&self, i: usize) -> bool {
        let h = &self.hands[i][0];
        !self.st.betting && (self.st.nhands[i] > 1 || h.special.is_some() || h.settled)
    }

    /// Whether `seat` sees the card at `spot`.
    fn shows(&self, spot: Spot, seat: usize) -> bool {
        match spot {
            Spot::Player {
                player,
                face: Face::Down,
                ..
            } => self.st.order[player as usize] == seat || self.first_shown(player as usize),
            Spot::Player {
                face: Face::Tapo, ..
            } => false,
            Spot::Player { face: Face::Up, .. } | Spot::Up | Spot::Bank => true,
            Spot::Hole => seat == self.bank,
        }
    }

    /// The cards of the finished hands since the last shuffle, in card order.
    pub(super) fn seen_since_shuffle(&self) -> Vec<Card> {
        let end = if self.active {
            self.hand_start
        } else {
            self.pos
        };
        let mut v: Vec<Card> = self.shoe[..end]
            .iter()
            .map(|&c| Card::from_index(c as usize))
            .collect();
        v.sort_unstable();
        v
    }

    /// What `seat` sees of the table (`log`: the decisions applied to the hand in progress).
    pub(super) fn seen_by(&self, seat: usize, log: &[Decided]) -> Seen {
        let words = |cards: Vec<Card>| {
            cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let hand = self.active.then(|| {
            let spots = self.spots(log);
            let name = |k: usize, spot: Spot| -> String {
                if self.shows(spot, seat) {
                    self.dealt(k).to_string()
                } else if matches!(
                    spot,
                    Spot::Player {
                        face: Face::Tapo,
                        ..
                    }
                ) {
                    "tapo??".into()
                } else {
                    "??".into()
                }
            };
            let players = (0..self.st.players)
                .map(|i| {
                    let seat_i = self.st.order[i];
                    let boxes = (0..self.st.nhands[i])
                        .map(|j| {
                            let cards: Vec<String> = spots
                                .iter()
                                .enumerate()
                                .filter(|(_, s)| {
                                    matches!(**s, Spot::Player { player, hand, .. }
                                        if player as usize == i && hand as usize == j)
                                })
                                .map(|(k, &s)| name(k, s))
                                .collect();
                            let h = &self.hands[i][j];
                            SeenBox {
                                cards: cards.join(" "),
                                bet: h.bet,
                                settled: h.settled,
                            }
                        })
                        .collect();
                    (seat_i, self.st.rep.player_net[seat_i], boxes)
                })
                .collect();
            let p = self.st.players;
            let (bank_up, bank_hole) = if self.st.betting {
                (String::new(), String::new())
            } else {
                (name(2 * p + 1, Spot::Up), name(p, Spot::Hole))
            };
            SeenHand {
                players,
                bank_up,
                bank_hole,
                puje: self.st.puje,
                cursor: self.st.cursor,
            }
        });
        Seen {
            bank: self.bank,
            decks: self.decks,
            shuffles: self.shuffles,
            cards_left: self.shoe.len() - self.pos,
            seen_since_shuffle: words(self.seen_since_shuffle()),
            hand,
        }
    }

    /// Whether card `c` may lie face down where `check` says.
    fn fits(&self, check: &Check, c: Card) -> bool {
        match check {
            Check::Hole => {
                let twenty = self.pair_info[self.st.up.index() * DECK + c.index()].1 == 20;
                if self.st.puje {
                    twenty
                } else if self.opts.puje && self.bank_policy.puje {
                    !twenty
                } else {
                    true
                }
            }
            Check::First {
                second,
                hits,
                asked,
            } => {
                if self.pair_info[c.index() * DECK + second.index()]
                    .0
                    .is_some()
                {
                    return false;
                }
                let mut pts = Points::default().add(c).add(*second);
                let mut cards = 2;
                for &h in hits {
                    if pts.total() >= 21 {
                        return false;
                    }
                    pts = pts.add(h);
                    cards += 1;
                    if pts.hard > 21 || (cards == 7 && pts.total() == 21 && self.opts.trillona) {
                        return false;
                    }
                }
                !(*asked && pts.total() >= 21)
            }
        }
    }

    /// Deals again, at random, what `seat` cannot see: the undealt shoe and, in the hand in
    /// progress, the other players' first cards not shown, the bank's hole card (unless `seat`
    /// holds the bank) and every tapo card, all from the cards `seat` has not seen, uniformly
    /// among the deals consistent with what the hand has shown ([`Check`]; drawn again until
    /// they are, and after 100 000 draws the last is kept). The table's own stream (for a
    /// reshuffle) is seeded afresh from `rng`. Everything `seat` sees stays as it is.
    pub(super) fn deal_unseen(&mut self, seat: usize, log: &[Decided], rng: &mut Stream) {
        let spots = self.spots(log);
        let mut checked: Vec<(usize, Check)> = Vec::new();
        let mut free: Vec<usize> = Vec::new();
        for (k, &spot) in spots.iter().enumerate() {
            if self.shows(spot, seat) {
                continue;
            }
            match spot {
                Spot::Hole => checked.push((k, Check::Hole)),
                // While the players bet nothing is announced yet.
                Spot::Player {
                    player,
                    face: Face::Down,
                    ..
                } if !self.st.betting => {
                    let i = player as usize;
                    let mut later = spots.iter().enumerate().filter(|(_, s)| {
                        matches!(**s, Spot::Player { player, hand: 0, face }
                            if player as usize == i && face == Face::Up)
                    });
                    let second = later
                        .next()
                        .map_or(self.hands[i][0].second, |(k, _)| self.dealt(k));
                    let hits = later.map(|(k, _)| self.dealt(k)).collect();
                    let asked = self.st.cursor == (i, 0) && !self.hands[i][0].tapo;
                    checked.push((
                        k,
                        Check::First {
                            second,
                            hits,
                            asked,
                        },
                    ));
                }
                _ => free.push(k),
            }
        }
        // The unseen cards: face down on the table, and the undealt shoe.
        let mut pool: Vec<u8> = checked
            .iter()
            .map(|&(k, _)| k)
            .chain(free.iter().copied())
            .map(|k| self.shoe[self.hand_start + k])
            .chain(self.shoe[self.pos..].iter().copied())
            .collect();
        let m = checked.len();
        for _ in 0..100_000 {
            for t in 0..m {
                let j = t + crate::rng::uniform_below(rng, pool.len() - t);
                pool.swap(t, j);
            }
            if checked
                .iter()
                .zip(&pool)
                .all(|((_, check), &c)| self.fits(check, Card::from_index(c as usize)))
            {
                break;
            }
        }
        for t in (m + 1..pool.len()).rev() {
            let j = m + crate::rng::uniform_below(rng, t - m + 1);
            pool.swap(t, j);
        }
        let start = self.hand_start;
        for (&k, &c) in checked.iter().map(|(k, _)| k).chain(&free).zip(&pool) {
            self.shoe[start + k] = c;
        }
        let rest = &pool[m + free.len()..];
        self.shoe[self.pos..].copy_from_slice(rest);
        // What the new cards change: the hands that hold them, the bank's two-card total.
        let mut touched = [[false; MAX_SPLIT_HANDS]; MAX_SEATS];
        for &k in checked.iter().map(|(k, _)| k).chain(&free) {
            if let Spot::Player { player, hand, .. } = spots[k] {
                touched[player as usize][hand as usize] = true;
            }
        }
        for (i, row) in touched.iter().enumerate() {
            for (j, _) in row.iter().enumerate().filter(|(_, &t)| t) {
                let cards: Vec<Card> = spots
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        matches!(**s, Spot::Player { player, hand, .. }
                            if player as usize == i && hand as usize == j)
                    })
                    .map(|(k, _)| self.dealt(k))
                    .collect();
                let h = &mut self.hands[i][j];
                debug_assert_eq!(cards.len(), h.cards as usize);
                if self.st.betting {
                    h.first = cards[0];
                    h.pts = Points::default().add(cards[0]);
                    self.st.rep.first_rank[self.st.order[i]] = cards[0].rank() as u8;
                    continue;
                }
                h.first = cards[0];
                h.second = cards[1];
                h.pts = cards.iter().fold(Points::default(), |p, &c| p.add(c));
                h.special = self.pair_info[h.first.index() * DECK + h.second.index()].0;
                h.special_total = match h.special {
                    Some(2) if h.cards == 2 => 20,
                    Some(3) if h.cards == 2 => 21,
                    _ => 0,
                };
            }
        }
        if self.active && !self.st.betting {
            self.st.hole = self.dealt(self.st.players);
            self.st.bank_total0 =
                self.pair_info[self.st.up.index() * DECK + self.st.hole.index()].1;
        }
        if let Some(d) = self.dealt_check.as_mut() {
            *d = [0; DECK];
            for &c in &self.shoe[..self.pos] {
                d[c as usize] += 1;
            }
        }
        self.rng = <Stream as crate::rng::SeedableRng>::seed_from_u64(rng.next_u64());
    }

    /// Checks the shoe (every card `decks` times) and, with `log` the decisions applied to the
    /// hand in progress, that every hand holds the cards its spots say.
    pub(super) fn check(&self, log: &[Decided]) -> Result<(), String> {
        let mut counts = [0usize; DECK];
        for &c in &self.shoe {
            counts[c as usize] += 1;
        }
        if self.shoe.len() != DECK * self.decks as usize
            || counts.iter().any(|&n| n != self.decks as usize)
        {
            return Err(format!(
                "the shoe does not hold every card {} times",
                self.decks
            ));
        }
        let spots = self.spots(log);
        if !self.active {
            return Ok(());
        }
        for i in 0..self.st.players {
            for j in 0..self.st.nhands[i] {
                let mut tapo = false;
                let cards: Vec<Card> = spots
                    .iter()
                    .enumerate()
                    .filter_map(|(k, s)| match *s {
                        Spot::Player { player, hand, face }
                            if player as usize == i && hand as usize == j =>
                        {
                            tapo |= face == Face::Tapo;
                            Some(self.dealt(k))
                        }
                        _ => None,
                    })
                    .collect();
                let h = &self.hands[i][j];
                let pts = cards.iter().fold(Points::default(), |p, &c| p.add(c));
                if cards.len() != h.cards as usize
                    || cards.first() != Some(&h.first)
                    || (h.cards >= 2 && cards.get(1) != Some(&h.second))
                    || pts != h.pts
                    || tapo != h.tapo
                {
                    return Err(format!(
                        "player {i}'s hand {j} does not hold the cards dealt to it"
                    ));
                }
            }
        }
        if !self.st.betting
            && (self.dealt(self.st.players) != self.st.hole
                || self.dealt(2 * self.st.players + 1) != self.st.up)
        {
            return Err("the bank does not hold the cards dealt to it".into());
        }
        Ok(())
    }
}
