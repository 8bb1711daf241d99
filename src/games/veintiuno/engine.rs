//! The 21 ecuatoriano table: a shoe dealt through without reshuffling, a rotating bank, player
//! and bank policies, every special. One call of [`Table::play_hand`] plays a whole hand and
//! settles every bet; money is integer units and always conserved (the bank's result is minus
//! the sum of the players').
//!
//! Decisions beyond RULES.md (documented in the README):
//! - When the shoe runs out during a hand, the discards are reshuffled into a new shoe; the
//!   cards on the table stay where they are.
//! - 21 in two cards and moñona are settled at once when dealt (as the text says for 21, "aún si
//!   el banco también los tiene"); so is a trillona. Everything else is compared with the bank at
//!   the end; the bank wins ties.
//! - The bank changes hands only when a player shows 21 in two cards; the first such player in
//!   playing order takes the bank from the next hand.
//! - A split puts twice the first bet on the new hand; hands may be split again up to four hands.
//!   Tapo y quedo is not available after a split ("si uno ya se abrió, juega abierto").
//! - "Mandar al puje": a bank whose two cards count 20 (a 12 that counts 20, a relancina, two
//!   figures) sends every unsettled player hand to draw until 21 or bust, and then stands.

use serde::{Deserialize, Serialize};

use super::cards::{Card, DECK};
use super::rules::{two_card, Options, Points, TwoCard};
use crate::rng::{Rng, Stream};

/// The most players at one table (bank included).
pub const MAX_SEATS: usize = 8;
/// The most hands one player can hold after splits.
pub const MAX_SPLIT_HANDS: usize = 4;

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
    /// The bank's up card rank (0 = ace … 9 = king).
    pub up: usize,
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

/// The bank's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BankPolicy {
    /// Stands at this total or more (soft totals count the ace as 11).
    pub stand: u8,
    /// Sends players "al puje" with 20 in two cards (when the rules allow it).
    pub puje: bool,
}

impl Default for BankPolicy {
    fn default() -> Self {
        Self {
            stand: 17,
            puje: true,
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
    hands_buf: Option<Box<[[Hand; MAX_SPLIT_HANDS]; MAX_SEATS]>>,
}

fn uniform_below(rng: &mut Stream, n: usize) -> usize {
    let n64 = n as u64;
    let threshold = n64.wrapping_neg() % n64;
    loop {
        let m = (rng.next_u64() as u128) * n64 as u128;
        if (m as u64) >= threshold {
            return (m >> 64) as usize;
        }
    }
}

impl Table {
    /// A table of `policies.len()` seats; the first bank is drawn by high card (ace highest).
    pub fn new(
        opts: Options,
        policies: Vec<PlayerPolicy>,
        bank_policy: BankPolicy,
        rng: Stream,
        check: bool,
    ) -> Self {
        let seats = policies.len();
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
            hands_buf: Some(Box::new([[Hand::default(); MAX_SPLIT_HANDS]; MAX_SEATS])),
        };
        t.restart(rng);
        t
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
                            t.shoe[uniform_below(&mut t.rng, t.shoe.len())] as usize,
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

    /// The seat holding the bank.
    pub fn bank(&self) -> usize {
        self.bank
    }

    fn shuffle_from(&mut self, start: usize) {
        // Fisher–Yates over shoe[start..], with Lemire's exact bounded draws on 32-bit halves of
        // each 64-bit word (the shoe is far shorter than 2^32).
        self.shuffles += 1;
        let n = self.shoe.len();
        let mut spare: Option<u32> = None;
        for i in (start + 1..n).rev() {
            let bound = (i - start + 1) as u32;
            let j = loop {
                let r = match spare.take() {
                    Some(r) => r,
                    None => {
                        let w = self.rng.next_u64();
                        spare = Some((w >> 32) as u32);
                        w as u32
                    }
                };
                let m = r as u64 * bound as u64;
                if (m as u32) >= bound || (m as u32) >= bound.wrapping_neg() % bound {
                    break (m >> 32) as usize;
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

    /// Plays one hand and settles every bet.
    pub fn play_hand(&mut self) -> HandReport {
        let mut rep = HandReport {
            bank: self.bank,
            depth: self.pos as u16,
            ..Default::default()
        };
        let shuffles_before = self.shuffles;
        self.hand_start = self.pos;
        let n = self.seats;
        let bank = self.bank;
        // Players in order from the bank's right.
        let mut order = [0usize; MAX_SEATS];
        let mut seat = bank;
        for o in order.iter_mut().take(n - 1) {
            // The next seat round the table, without a division.
            seat = if seat + 1 == n { 0 } else { seat + 1 };
            *o = seat;
        }
        let players = n - 1;
        // The hands buffer is reused from hand to hand; every slot used is written in full.
        let mut hands = self
            .hands_buf
            .take()
            .expect("the buffer is put back after each hand");
        let mut nhands = [1usize; MAX_SEATS];
        let mut firsts = [Card::from_index(0); MAX_SEATS];
        for i in 0..players {
            firsts[i] = self.draw();
        }
        let hole = self.draw();
        for i in 0..players {
            let second = self.draw();
            let h = &mut hands[i][0];
            *h = Hand {
                first: firsts[i],
                second,
                pts: Points::default().add(firsts[i]).add(second),
                cards: 2,
                bet: 1,
                ..Hand::default()
            };
            self.classify(h, firsts[i], second, &mut rep);
        }
        let up = self.draw();
        let bank_total0 = self.pair_info[up.index() * DECK + hole.index()].1;
        let mut bank_pts = Points::default().add(up).add(hole);
        let puje = self.opts.puje && self.bank_policy.puje && bank_total0 == 20;
        rep.puje = puje;
        let mut stealer: Option<usize> = None;
        // Two-card specials are settled at once.
        for i in 0..players {
            let h = &mut hands[i][0];
            if let Some(k) = h.special {
                let pay = match k {
                    0 => self.opts.natural_pays as i32,
                    1 => self.opts.monona_pays as i32,
                    _ => 0,
                };
                if pay > 0 {
                    h.settled = true;
                    rep.player_net[order[i]] += pay * h.bet;
                    rep.special_net[k] += pay * h.bet;
                    if k == 0 && stealer.is_none() {
                        stealer = Some(order[i]);
                    }
                }
            }
        }
        // The pie de banco (first after the bank) may end the hand on 13: what was announced at
        // once stays paid, every other bet comes back, and the cards are dealt again.
        let pie = &hands[0][0];
        if players > 0
            && self.opts.withdraw_13
            && pie.special == Some(4)
            && !puje
            && self.policies[order[0]].void_as_pie
        {
            rep.voided = true;
            rep.bank_net = -rep.player_net.iter().sum::<i32>();
            rep.new_shoe = self.shuffles != shuffles_before;
            self.hands_buf = Some(hands);
            if let (Some(s), true) = (stealer, self.opts.bank_steal) {
                if s != self.bank {
                    self.bank = s;
                    rep.stolen = true;
                }
            }
            return rep;
        }
        let up_rank = up.rank();
        for i in 0..players {
            let seat = order[i];
            let mut j = 0;
            while j < nhands[i] {
                if !hands[i][j].settled {
                    if puje {
                        self.puje_hand(&mut hands[i][j], seat, &mut rep);
                    } else {
                        let split = self.play_player_hand(
                            i,
                            j,
                            &mut hands,
                            &mut nhands,
                            up_rank,
                            seat,
                            &mut rep,
                            &mut stealer,
                        );
                        if split {
                            continue; // replay hand j, now holding one card of the pair plus a new one
                        }
                    }
                }
                j += 1;
            }
        }
        // The bank plays if any hand is still open.
        let open = (0..players).any(|i| hands[i][..nhands[i]].iter().any(|h| !h.settled));
        let bank_final: u8 = if !open || puje {
            bank_total0
        } else if bank_total0 != bank_pts.total() || bank_total0 >= self.bank_policy.stand {
            // A two-card special (21, 12 counting 20) or already at the standing total.
            bank_total0
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
        for i in 0..players {
            let seat = order[i];
            for h in hands[i][..nhands[i]].iter_mut().filter(|h| !h.settled) {
                let total = if h.special_total > 0 {
                    h.special_total
                } else {
                    h.pts.total()
                };
                let busted = h.pts.hard > 21;
                let net = if busted {
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
                rep.player_net[seat] += net;
                if let Some(k) = h.special {
                    rep.special_net[k] += net;
                }
                h.settled = true;
            }
        }
        rep.bank_net = -rep.player_net.iter().sum::<i32>();
        rep.new_shoe = self.shuffles != shuffles_before;
        self.hands_buf = Some(hands);
        if let (Some(s), true) = (stealer, self.opts.bank_steal) {
            if s != self.bank {
                self.bank = s;
                rep.stolen = true;
            }
        }
        rep
    }

    fn classify(&self, h: &mut Hand, a: Card, b: Card, rep: &mut HandReport) {
        let k = self.pair_info[a.index() * DECK + b.index()].0;
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

    fn puje_hand(&mut self, h: &mut Hand, seat: usize, rep: &mut HandReport) {
        // Every hand short of 21 draws until 21 or bust (a 12 counting 20 draws from 12).
        if h.special_total == 21 {
            return; // compared at the end: 21 beats the bank's 20
        }
        h.special_total = 0;
        while h.pts.hard <= 21 && h.pts.total() < 21 {
            h.pts = h.pts.add(self.draw());
            h.cards += 1;
        }
        if h.pts.hard > 21 {
            h.settled = true;
            rep.player_net[seat] -= h.bet;
            if let Some(k) = h.special {
                rep.special_net[k] -= h.bet;
            }
        } else if h.cards == 7 && self.opts.trillona {
            self.pay_trillona(h, seat, rep);
        }
    }

    fn pay_trillona(&self, h: &mut Hand, seat: usize, rep: &mut HandReport) {
        h.settled = true;
        rep.player_net[seat] += 7 * h.bet;
        rep.specials[6] += 1;
        rep.special_net[6] += 7 * h.bet;
    }

    /// Plays hand `j` of player `i`; returns true when the hand was split (replay it).
    #[allow(clippy::too_many_arguments)]
    fn play_player_hand(
        &mut self,
        i: usize,
        j: usize,
        hands: &mut [[Hand; MAX_SPLIT_HANDS]; MAX_SEATS],
        nhands: &mut [usize; MAX_SEATS],
        up: usize,
        seat: usize,
        rep: &mut HandReport,
        stealer: &mut Option<usize>,
    ) -> bool {
        loop {
            let h = hands[i][j];
            let two = h.cards == 2;
            // Two cards of one rank (a relancina's figures differ, so it is never a pair).
            let is_pair = two && h.first.rank() == h.second.rank();
            let d = Decision {
                points: h.pts,
                total: if h.special_total > 0 {
                    h.special_total
                } else {
                    h.pts.total()
                },
                cards: h.cards,
                pair: (is_pair && nhands[i] < MAX_SPLIT_HANDS).then_some(h.first.rank()),
                can_withdraw: two && self.opts.withdraw_13 && h.special == Some(4),
                can_tapo: two && self.opts.tapo && !h.split_hand,
                up,
            };
            let m = if d.total >= 21 {
                Move::Stand
            } else {
                self.policies[seat].decide(&d)
            };
            let h = &mut hands[i][j];
            match m {
                Move::Stand => return false,
                Move::Withdraw => {
                    h.settled = true;
                    rep.withdrawals += 1;
                    return false;
                }
                Move::Tapo => {
                    h.pts = h.pts.add(self.draw());
                    h.cards += 1;
                    h.tapo = true;
                    h.special_total = 0;
                    rep.tapos += 1;
                    return false;
                }
                Move::Hit => {
                    h.pts = h.pts.add(self.draw());
                    h.cards += 1;
                    h.special_total = 0;
                    if h.pts.hard > 21 {
                        h.settled = true;
                        rep.player_net[seat] -= h.bet;
                        if let Some(k) = h.special {
                            rep.special_net[k] -= h.bet;
                        }
                        return false;
                    }
                    if h.pts.total() == 21 && h.cards == 7 && self.opts.trillona {
                        self.pay_trillona(h, seat, rep);
                        return false;
                    }
                }
                Move::Split => {
                    rep.splits += 1;
                    let (first, second, bet) = (h.first, h.second, h.bet);
                    let k = nhands[i];
                    nhands[i] += 1;
                    // The new hand takes the pair's second card with twice the first bet (2 units).
                    let c1 = self.draw();
                    let c2 = self.draw();
                    let mut a = Hand {
                        first,
                        second: c1,
                        pts: Points::default().add(first).add(c1),
                        cards: 2,
                        bet,
                        split_hand: true,
                        ..Hand::default()
                    };
                    let mut b = Hand {
                        first: second,
                        second: c2,
                        pts: Points::default().add(second).add(c2),
                        cards: 2,
                        bet: 2,
                        split_hand: true,
                        ..Hand::default()
                    };
                    self.classify(&mut a, first, c1, rep);
                    self.classify(&mut b, second, c2, rep);
                    for (slot, hand) in [(j, a), (k, b)] {
                        let mut hand = hand;
                        // A split hand may still make 21 in two cards (and steal the bank) or moñona.
                        if let Some(s) = hand.special {
                            let pay = match s {
                                0 => self.opts.natural_pays as i32,
                                1 => self.opts.monona_pays as i32,
                                _ => 0,
                            };
                            if pay > 0 {
                                hand.settled = true;
                                rep.player_net[seat] += pay * hand.bet;
                                rep.special_net[s] += pay * hand.bet;
                                if s == 0 && stealer.is_none() {
                                    *stealer = Some(seat);
                                }
                            }
                        }
                        hands[i][slot] = hand;
                    }
                    return !hands[i][j].settled;
                }
            }
        }
    }
}
