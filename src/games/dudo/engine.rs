//! The Dudo game engine: [`DudoState`], the [`State`] of a game of Dudo under both rule sets of
//! `docs/rules.md` §1 and every flag.
//!
//! Players act through [`View`], which shows only what a player at the table sees: their own
//! dice (unless a mandada reforzada re-rolled them unseen), every die shown face up, the bids, the
//! lives. Illegal actions are refused by [`State::apply`] with the reason;
//! [`State::deal_for_view`] rolls the dice a player cannot see, for search.
//!
//! Decisions beyond docs/rules.md (documented in the README):
//! - A bid may not exceed the dice on the table (plus the millas bonus): higher bids are
//!   impossible and would make the action space unbounded.
//! - Paso needs a standing bid (the opener cannot pass).
//! - Reforzada shows the hidden dice that show the face bid (naturals only: aces stay in the cup
//!   and are re-rolled with the rest); it needs at least one hidden die.
//! - Obligado is offered to a player who has just lost down to one life (4 palos of 5; 2 of 3
//!   with `--lives 3`) when they open the next round with three or more players in. In obligado
//!   rounds aces rank above six ("7"); a player allowed to change the face (the obliger and anyone
//!   else on one life) may raise to a higher face at the same quantity or any face at a higher
//!   quantity, and the round's fixed face becomes the new one.
//! - When the loser of a challenge leaves the table: Chimbo 9 (silent) — the next player in the
//!   round's direction opens; Caleuchano — the player before the one who left.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::face::Face;
use super::rules::{RuleSet, Rules};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS, MAX_SEATS};
use crate::rng::{six_dice, uniform_below, Rng, Stream};

pub use super::rules::MAX_PLAYERS;

/// Dice per cup.
pub const CUP: usize = 5;

/// Which way play goes round the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// To the right (seat index + 1): Chimbo 9's fixed direction.
    Right,
    /// To the left (seat index − 1).
    Left,
}

/// Something a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The round's first bid, with the opener's choices.
    Open {
        /// The bid.
        bid: Bid,
        /// Mandada reforzada: show the dice of the face bid, re-roll the rest unseen.
        reinforce: bool,
        /// Direction of play for the round (must be `Right` unless the rules let the opener choose).
        direction: Direction,
        /// Declare obligado: the face is fixed for the round, no wild aces, no millas bonus.
        obligado: bool,
    },
    /// A raise over the standing bid.
    Raise {
        /// The bid.
        bid: Bid,
        /// Mandada reforzada.
        reinforce: bool,
    },
    /// «Dudo»: doubt the standing bid, or the pass just made.
    Doubt,
    /// Paso (Caleuchano): once per round, pass instead of raising.
    Pass,
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Open {
                bid,
                reinforce,
                direction,
                obligado,
            } => {
                write!(f, "open {bid}")?;
                if *obligado {
                    f.write_str(" obligado")?;
                }
                if *reinforce {
                    f.write_str(" reforzada")?;
                }
                if *direction == Direction::Left {
                    f.write_str(" to the left")?;
                }
                Ok(())
            }
            Action::Raise { bid, reinforce } => {
                write!(
                    f,
                    "raise to {bid}{}",
                    if *reinforce { " reforzada" } else { "" }
                )
            }
            Action::Doubt => f.write_str("doubt («dudo»)"),
            Action::Pass => f.write_str("pass («paso»)"),
        }
    }
}

/// What a doubted pass's five dice form (aces as their own face).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PassHand {
    /// Four or five equal.
    Poker,
    /// Three and two.
    Full,
    /// Five different.
    Pichanga,
    /// Anything else: the pass fails.
    Nothing,
}

impl PassHand {
    /// Classifies five dice.
    pub fn of(dice: &[u8]) -> PassHand {
        let mut counts = [0u8; 6];
        for &d in dice {
            counts[(d - 1) as usize] += 1;
        }
        let max = *counts.iter().max().unwrap_or(&0);
        let pairs = counts.iter().filter(|&&c| c == 2).count();
        match max {
            4 | 5 => PassHand::Poker,
            3 if pairs == 1 => PassHand::Full,
            1 => PassHand::Pichanga,
            _ => PassHand::Nothing,
        }
    }

    /// Whether a doubted pass with this hand stands.
    pub fn holds(self) -> bool {
        self != PassHand::Nothing
    }
}

/// One player's place at the table.
#[derive(Clone, Copy, Debug, Default)]
struct Player {
    lives: u8,
    hidden: [u8; CUP],
    hidden_len: u8,
    /// Dice shown face up, counted by face (index 0 = aces).
    shown: [u8; 6],
    knows_hidden: bool,
    paso_used: bool,
}

impl Player {
    fn is_in(&self) -> bool {
        self.lives > 0
    }
    fn hidden(&self) -> &[u8] {
        &self.hidden[..self.hidden_len as usize]
    }
    fn all_dice(&self) -> ([u8; CUP], usize) {
        let mut out = [0u8; CUP];
        let mut n = 0;
        for &d in self.hidden() {
            out[n] = d;
            n += 1;
        }
        for (f, &c) in self.shown.iter().enumerate() {
            for _ in 0..c {
                out[n] = f as u8 + 1;
                n += 1;
            }
        }
        (out, n)
    }
}

/// An obligado round's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Obligado {
    /// The fixed face.
    face: Face,
    /// Who declared it.
    obliger: Seat,
}

/// What a game counts of its own as it is played (its [`super::Counter`]s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Bids made (openings and raises).
    pub(crate) bids: u32,
    /// Bids doubted (not passes).
    pub(crate) doubts: u32,
    /// Doubts that won (the bid was false).
    pub(crate) doubts_won: u32,
    /// Passes made.
    pub(crate) passes: u32,
    /// Passes doubted.
    pub(crate) pass_doubts: u32,
    /// Doubted passes that failed (the doubter won).
    pub(crate) pass_doubts_won: u32,
    /// Bids reinforced (mandada reforzada).
    pub(crate) reinforcements: u32,
    /// Obligado rounds.
    pub(crate) obligado_rounds: u32,
    /// Rounds whose opener lost the challenge.
    pub(crate) opener_lost: u32,
    /// Lives given back by revivir (house rule; once a game, so 0 means it is still open).
    pub(crate) revived: u32,
}

/// A game of Dudo in progress.
#[derive(Clone, Debug)]
pub struct DudoState {
    rules: Rules,
    seats: [Player; MAX_PLAYERS],
    players_in: usize,
    opener: usize,
    first_opener: usize,
    step: usize,
    bid: Option<Bid>,
    /// The bid the standing one raised (`None` while the opening bid stands).
    prev_bid: Option<Bid>,
    bidder: usize,
    turn: usize,
    obligado: Option<Obligado>,
    obligado_offered: bool,
    pending_pass: Option<usize>,
    bids_in_round: u32,
    rounds: u32,
    winner: Option<usize>,
    counts: Counts,
    /// Each seat's finishing place once it left the table (0: the winner).
    place: [u8; MAX_PLAYERS],
}

impl DudoState {
    /// A new game: cups rolled, first opener chosen as the rule set says.
    fn dealt(rules: Rules, rng: &mut impl Rng) -> DudoState {
        Self::dealt_from(rules, None, None, rng)
    }

    /// A new game from a match state: each seat's lives (all at the rules' lives when `None`;
    /// every seat in), the first opener given or chosen as the rule set says, cups rolled.
    /// With neither it draws exactly what [`DudoState::dealt`] always drew.
    pub(crate) fn dealt_from(
        rules: Rules,
        lives: Option<&[u8]>,
        opener: Option<Seat>,
        rng: &mut impl Rng,
    ) -> DudoState {
        debug_assert!(rules.validate().is_ok());
        let n = rules.players as usize;
        let mut seats = [Player::default(); MAX_PLAYERS];
        for (p, s) in seats.iter_mut().enumerate().take(n) {
            s.lives = lives.map_or(rules.lives, |l| l[p]);
        }
        let opener = match (opener, rules.set()) {
            (Some(o), _) => o,
            // Everybody rolls one die; the highest opens; ties re-roll among the tied.
            (None, RuleSet::Chimbo9) => {
                let mut tied: [bool; MAX_PLAYERS] = [false; MAX_PLAYERS];
                tied[..n].iter_mut().for_each(|t| *t = true);
                loop {
                    let mut best = 0u8;
                    let mut rolls = [0u8; MAX_PLAYERS];
                    for p in (0..n).filter(|&p| tied[p]) {
                        rolls[p] = six_dice(rng)[0];
                        best = best.max(rolls[p]);
                    }
                    let mut count = 0;
                    for p in 0..n {
                        tied[p] = tied[p] && rolls[p] == best;
                        count += tied[p] as usize;
                    }
                    if count == 1 {
                        break (0..n).find(|&p| tied[p]).expect("one left");
                    }
                }
            }
            // A thrown die counted round the table: uniform in simulation (docs/rules.md).
            (None, RuleSet::Caleuchano) => uniform_below(rng, n),
        };
        let mut g = DudoState {
            rules,
            seats,
            players_in: n,
            opener,
            first_opener: opener,
            step: 1,
            bid: None,
            prev_bid: None,
            bidder: opener,
            turn: opener,
            obligado: None,
            obligado_offered: false,
            pending_pass: None,
            bids_in_round: 0,
            rounds: 0,
            winner: None,
            counts: Counts::default(),
            place: [0; MAX_PLAYERS],
        };
        g.start_round(opener, false, rng);
        g
    }

    fn start_round(&mut self, opener: Seat, offer_obligado: bool, rng: &mut impl Rng) {
        for s in self.seats.iter_mut().take(self.rules.players as usize) {
            if s.is_in() {
                let d = six_dice(rng);
                s.hidden.copy_from_slice(&d[..CUP]);
                s.hidden_len = CUP as u8;
            } else {
                s.hidden_len = 0;
            }
            s.shown = [0; 6];
            s.knows_hidden = true;
            s.paso_used = false;
        }
        self.opener = opener;
        self.turn = opener;
        self.bidder = opener;
        self.step = 1;
        self.bid = None;
        self.prev_bid = None;
        self.obligado = None;
        self.obligado_offered = offer_obligado;
        self.pending_pass = None;
        self.bids_in_round = 0;
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    /// Lives left of a player.
    pub fn lives(&self, p: Seat) -> u8 {
        self.seats[p].lives
    }

    /// Players still in.
    pub fn players_in(&self) -> usize {
        self.players_in
    }

    /// Dice on the table (5 per player still in).
    pub fn dice_on_table(&self) -> u32 {
        self.seats[..self.rules.players as usize]
            .iter()
            .map(|s| s.hidden_len as u32 + s.shown.iter().map(|&c| c as u32).sum::<u32>())
            .sum()
    }

    fn next_in(&self, from: Seat, step: usize) -> Seat {
        let n = self.rules.players as usize;
        let mut p = from;
        loop {
            p = (p + step) % n;
            if self.seats[p].is_in() {
                return p;
            }
        }
    }

    /// The most dice a bid on `face` may name.
    pub fn max_quantity(&self, face: Face) -> u32 {
        self.dice_on_table()
            + self
                .rules
                .bidding
                .counting(face, self.obligado.is_some())
                .bonus
    }

    /// The smallest legal quantity for a raise on `face` by the current player, or `None` when
    /// no raise on that face is legal. Every quantity from it up to [`DudoState::max_quantity`] is
    /// legal except [`DudoState::forbidden_raise`] (Chimbo 9: Q aces after Q of another face).
    pub fn min_raise(&self, face: Face) -> Option<u32> {
        let prev = self.bid?;
        let rules = &self.rules.bidding;
        let q = match self.obligado {
            Some(_) if !self.may_change_face(self.turn) => {
                if face != prev.face {
                    return None;
                }
                prev.quantity + 1
            }
            Some(_) => {
                let rank = |f: Face| if f.is_ace() { 7 } else { f.value() };
                prev.quantity + u32::from(rank(face) <= rank(prev.face))
            }
            None => rules.min_raise(prev, face),
        };
        (q <= self.max_quantity(face)).then_some(q)
    }

    /// The one quantity above [`DudoState::min_raise`] that is still not a legal raise on
    /// `face`, if any ([`super::Bidding::forbidden_quantity`]; obligado rounds have none).
    pub fn forbidden_raise(&self, face: Face) -> Option<u32> {
        match (self.bid, self.obligado) {
            (Some(prev), None) => self.rules.bidding.forbidden_quantity(prev, face),
            _ => None,
        }
    }

    /// Whether player `p` may change the face in the current obligado round.
    pub fn may_change_face(&self, p: Seat) -> bool {
        match self.obligado {
            Some(o) => o.obliger == p || self.seats[p].lives == 1,
            None => true,
        }
    }

    /// Whether the current player may declare obligado when opening.
    pub fn obligado_available(&self) -> bool {
        self.rules.obligado && self.obligado_offered && self.bid.is_none() && self.players_in > 2
    }

    /// Checks an action for the player whose turn it is; the error says why it is illegal.
    fn check(&self, action: Action) -> Result<(), &'static str> {
        if self.winner.is_some() {
            return Err("the game is over");
        }
        let me = &self.seats[self.turn];
        let reinforce_ok = |r: bool| !r || (self.rules.reforzada && me.hidden_len > 0);
        match action {
            Action::Open {
                bid,
                reinforce,
                direction,
                obligado,
            } => {
                if self.bid.is_some() {
                    return Err("the round is already open: raise, doubt or pass");
                }
                if bid.quantity == 0 || bid.quantity > self.max_quantity(bid.face) {
                    return Err("quantity out of range");
                }
                if direction == Direction::Left && !self.rules.choose_direction {
                    return Err("these rules fix the direction");
                }
                if obligado && !self.obligado_available() {
                    return Err("obligado is not available");
                }
                if obligado && bid.quantity > self.dice_on_table() {
                    return Err("quantity out of range");
                }
                if !reinforce_ok(reinforce) {
                    return Err("reforzada is not available");
                }
                Ok(())
            }
            Action::Raise { bid, reinforce } => {
                self.bid.ok_or("nothing to raise: open the round")?;
                if bid.quantity == 0 || bid.quantity > self.max_quantity(bid.face) {
                    return Err("quantity out of range");
                }
                let legal = self
                    .min_raise(bid.face)
                    .is_some_and(|min| bid.quantity >= min)
                    && self.forbidden_raise(bid.face) != Some(bid.quantity);
                if !legal {
                    return Err("not a legal raise");
                }
                if !reinforce_ok(reinforce) {
                    return Err("reforzada is not available");
                }
                Ok(())
            }
            Action::Doubt => {
                if self.bid.is_none() {
                    return Err("nothing to doubt: open the round");
                }
                Ok(())
            }
            Action::Pass => {
                if !self.rules.paso {
                    return Err("these rules have no paso");
                }
                if self.bid.is_none() {
                    return Err("the opener must bid");
                }
                if me.paso_used {
                    return Err("paso already used this round");
                }
                Ok(())
            }
        }
    }

    fn reinforce(&mut self, face: Face, rng: &mut impl Rng) {
        let s = &mut self.seats[self.turn];
        let mut kept = [0u8; CUP];
        let mut k = 0;
        for &d in &s.hidden[..s.hidden_len as usize] {
            if d == face.value() {
                s.shown[face.index()] += 1;
            } else {
                kept[k] = d;
                k += 1;
            }
        }
        // The rest go back under the cup, re-rolled and unseen even by their owner.
        let fresh = six_dice(rng);
        s.hidden[..k].copy_from_slice(&fresh[..k]);
        s.hidden_len = k as u8;
        s.knows_hidden = false;
    }

    /// Plays the current player's action, which [`DudoState::check`] allowed (rolling dice from
    /// `rng` where the rules need it).
    // Inlined with `apply` into the game loop, as the old engine's one `apply` was: either alone
    // leaves a call per action (or splits `apply` out of the loop).
    #[inline(always)]
    fn play(&mut self, action: Action, rng: &mut impl Rng) {
        let me = self.turn;
        match action {
            Action::Open {
                bid,
                reinforce,
                direction,
                obligado,
            } => {
                self.step = match direction {
                    Direction::Right => 1,
                    Direction::Left => self.rules.players as usize - 1,
                };
                if obligado {
                    self.obligado = Some(Obligado {
                        face: bid.face,
                        obliger: me,
                    });
                }
                self.place_bid(bid, reinforce, rng);
            }
            Action::Raise { bid, reinforce } => {
                if let Some(o) = self.obligado.as_mut() {
                    o.face = bid.face;
                }
                self.place_bid(bid, reinforce, rng);
            }
            Action::Pass => {
                self.counts.passes += 1;
                self.seats[me].paso_used = true;
                self.pending_pass = Some(me);
                self.turn = self.next_in(me, self.step);
            }
            Action::Doubt => self.resolve(rng),
        }
    }

    fn place_bid(&mut self, bid: Bid, reinforce: bool, rng: &mut impl Rng) {
        self.counts.bids += 1;
        self.counts.reinforcements += reinforce as u32;
        if reinforce {
            self.reinforce(bid.face, rng);
        }
        self.prev_bid = self.bid;
        self.bid = Some(bid);
        self.bidder = self.turn;
        self.pending_pass = None;
        self.bids_in_round += 1;
        self.turn = self.next_in(self.turn, self.step);
    }

    /// The count of a face on the whole table under the round's rules.
    pub fn count(&self, face: Face) -> u32 {
        let counting = self.rules.bidding.counting(face, self.obligado.is_some());
        let (mut naturals, mut aces) = (0u32, 0u32);
        for s in &self.seats[..self.rules.players as usize] {
            for &d in s.hidden() {
                naturals += (d == face.value()) as u32;
                aces += (d == 1) as u32;
            }
            naturals += s.shown[face.index()] as u32;
            aces += s.shown[0] as u32;
        }
        counting.count(naturals, if face.is_ace() { 0 } else { aces })
    }

    /// Settles a doubt: who loses a life, who leaves, and the next round (or the game's end).
    fn resolve(&mut self, rng: &mut impl Rng) {
        let doubter = self.turn;
        let bid = self.bid.expect("checked");
        let (loser, pass_doubted) = match self.pending_pass {
            Some(passer) => {
                let (dice, n) = self.seats[passer].all_dice();
                let holds = PassHand::of(&dice[..n]).holds();
                (if holds { doubter } else { passer }, true)
            }
            None => {
                let holds = self.count(bid.face) >= bid.quantity;
                (if holds { doubter } else { self.bidder }, false)
            }
        };
        self.seats[loser].lives -= 1;
        let loser_out = self.seats[loser].lives == 0;
        if loser_out {
            self.players_in -= 1;
            // The first to leave a table of n finishes n-th (place n − 1).
            self.place[loser] = self.players_in as u8;
        }
        if self.rules.revivir && self.counts.revived == 0 && self.players_in > 1 {
            self.revive(loser);
        }
        self.rounds += 1;
        let c = &mut self.counts;
        c.opener_lost += (loser == self.opener) as u32;
        c.obligado_rounds += self.obligado.is_some() as u32;
        if pass_doubted {
            c.pass_doubts += 1;
            c.pass_doubts_won += (loser != doubter) as u32;
        } else {
            c.doubts += 1;
            c.doubts_won += (loser != doubter) as u32;
        }
        if self.players_in == 1 {
            let winner = (0..self.rules.players as usize)
                .find(|&p| self.seats[p].is_in())
                .expect("one player is in");
            self.winner = Some(winner);
            self.turn = winner;
            return;
        }
        let next_opener = if !loser_out {
            loser
        } else {
            match self.rules.set() {
                RuleSet::Chimbo9 => self.next_in(loser, self.step),
                // "el jugador que antecedía al que salió"
                RuleSet::Caleuchano => {
                    let back = self.rules.players as usize - self.step;
                    self.next_in(loser, if back == 0 { 1 } else { back })
                }
            }
        };
        let offer = !loser_out && self.seats[loser].lives == 1 && self.rules.lives > 1;
        self.start_round(next_opener, offer, rng);
    }

    /// Revivir, once a game (the caller checks that it is on and still open), right after
    /// `loser` lost a life: a player just down to their last life gets it back when nobody else
    /// is on their last life ("en lugar de obligar … devuelve el palo"; taken whenever open, a
    /// life being worth more than an obligado round); otherwise, when every player still in has
    /// lost the same number of lives, each gets one back ("todos devuelven un palo").
    fn revive(&mut self, loser: Seat) {
        let n = self.rules.players as usize;
        let full = self.rules.lives;
        let seats = &mut self.seats[..n];
        let last_life = |s: &Player| s.lives == 1;
        if full > 1
            && last_life(&seats[loser])
            && !seats
                .iter()
                .enumerate()
                .any(|(p, s)| p != loser && last_life(s))
        {
            seats[loser].lives += 1;
            self.counts.revived = 1;
            return;
        }
        let mut lives_in = seats.iter().filter(|s| s.is_in()).map(|s| s.lives);
        let first = lives_in.next().expect("two players are in");
        if first < full && lives_in.all(|l| l == first) {
            for s in seats.iter_mut().filter(|s| s.is_in()) {
                s.lives += 1;
            }
            self.counts.revived = self.players_in as u32;
        }
    }

    /// Calls `f` with every legal action of the current player, in a fixed order.
    #[inline]
    fn for_each_legal(&self, mut f: impl FnMut(Action)) {
        let me = &self.seats[self.turn];
        let reinforce_options: &[bool] = if self.rules.reforzada && me.hidden_len > 0 {
            &[false, true]
        } else {
            &[false]
        };
        match self.bid {
            None => {
                let dirs: &[Direction] = if self.rules.choose_direction {
                    &[Direction::Right, Direction::Left]
                } else {
                    &[Direction::Right]
                };
                let obl: &[bool] = if self.obligado_available() {
                    &[false, true]
                } else {
                    &[false]
                };
                for face in Face::ALL {
                    for q in 1..=self.max_quantity(face) {
                        for &r in reinforce_options {
                            for &d in dirs {
                                for &o in obl {
                                    // Obligado bids cannot use the millas bonus.
                                    if o && q > self.dice_on_table() {
                                        continue;
                                    }
                                    f(Action::Open {
                                        bid: Bid { quantity: q, face },
                                        reinforce: r,
                                        direction: d,
                                        obligado: o,
                                    });
                                }
                            }
                        }
                    }
                }
            }
            Some(_) => {
                f(Action::Doubt);
                if self.check(Action::Pass).is_ok() {
                    f(Action::Pass);
                }
                for face in Face::ALL {
                    if let Some(min) = self.min_raise(face) {
                        let forbidden = self.forbidden_raise(face);
                        for q in (min..=self.max_quantity(face)).filter(|&q| Some(q) != forbidden) {
                            for &r in reinforce_options {
                                f(Action::Raise {
                                    bid: Bid { quantity: q, face },
                                    reinforce: r,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    /// Checks the game's invariants ([`State::check_invariants`]).
    fn invariants(&self) -> Result<(), String> {
        let n = self.rules.players as usize;
        let in_now = self.seats[..n].iter().filter(|s| s.is_in()).count();
        if in_now != self.players_in {
            return Err(format!(
                "{in_now} seats in but players_in = {}",
                self.players_in
            ));
        }
        if self.winner.is_none() && self.dice_on_table() != CUP as u32 * self.players_in as u32 {
            return Err(format!(
                "{} dice on the table for {} players",
                self.dice_on_table(),
                self.players_in
            ));
        }
        for (p, s) in self.seats[..n].iter().enumerate() {
            if s.lives > self.rules.lives {
                return Err(format!("seat {p} has {} lives", s.lives));
            }
        }
        if !self.seats[self.turn].is_in() {
            return Err(format!("seat {} is out but has the turn", self.turn));
        }
        if self.obligado.is_some() && !self.rules.obligado {
            return Err("obligado round under rules without obligado".into());
        }
        Ok(())
    }
}

/// What one player sees: their own dice (when they know them), everything shown, the bids.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a DudoState,
    seat: Seat,
}

impl PlayerView for View<'_> {
    #[inline]
    fn seat(&self) -> Seat {
        self.seat
    }
}

/// Exactly what the player sees: the rules; each seat's lives, cup size, dice shown face up,
/// whether it has passed this round and whether it knows its own cup (a reforzada re-rolls it
/// unseen, in front of everyone); the hidden dice this player knows (its own unless re-rolled
/// unseen; once the game is over, the cups of the last count); the round (opener, direction,
/// bids, obligado, a pass to answer) and whose turn it is; what the game has counted so far and
/// the places of the players who have left.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let n = g.rules.players as usize;
        let seats: Vec<(u8, u8, [u8; 6], bool, bool)> = g.seats[..n]
            .iter()
            .map(|s| (s.lives, s.hidden_len, s.shown, s.paso_used, s.knows_hidden))
            .collect();
        let known: Vec<Option<&[u8]>> = (0..n)
            .map(|p| g.known_to(self.seat, p).then(|| g.seats[p].hidden()))
            .collect();
        let places: Vec<Option<u8>> = (0..n)
            .map(|p| (!g.seats[p].is_in()).then_some(g.place[p]))
            .collect();
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field(
                "seats (lives, cup, shown, paso used, knows own cup)",
                &seats,
            )
            .field("hidden dice known", &known)
            .field("opener", &g.opener)
            .field("first opener", &g.first_opener)
            .field("step", &g.step)
            .field("bid", &g.bid)
            .field("bid before", &g.prev_bid)
            .field("bidder", &g.bidder)
            .field("to act", &g.turn)
            .field("obligado", &g.obligado)
            .field("obligado offered", &g.obligado_offered)
            .field("pending pass", &g.pending_pass)
            .field("bids in round", &g.bids_in_round)
            .field("rounds", &g.rounds)
            .field("counts", &g.counts)
            .field("places", &places)
            .field("winner", &g.winner)
            .finish()
    }
}

impl<'a> View<'a> {
    /// The rules.
    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }
    /// Own hidden dice, if known (a reforzada re-rolls them unseen).
    pub fn own_hidden(&self) -> Option<&'a [u8]> {
        let s = &self.game.seats[self.seat];
        s.knows_hidden.then(|| s.hidden())
    }
    /// Number of own hidden dice.
    pub fn own_hidden_count(&self) -> u32 {
        self.game.seats[self.seat].hidden_len as u32
    }
    /// Dice shown face up by player `p`, by face.
    pub fn shown_by(&self, p: Seat) -> [u8; 6] {
        self.game.seats[p].shown
    }
    /// Every die shown face up on the table, by face.
    pub fn shown_on_table(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for s in &self.game.seats[..self.game.rules.players as usize] {
            for (t, &x) in c.iter_mut().zip(&s.shown) {
                *t += x as u32;
            }
        }
        c
    }
    /// Dice on the table.
    pub fn dice_on_table(&self) -> u32 {
        self.game.dice_on_table()
    }
    /// The standing bid.
    pub fn bid(&self) -> Option<Bid> {
        self.game.bid
    }
    /// The bid the standing one raised (`None` at the opening bid, or before it).
    pub fn previous_bid(&self) -> Option<Bid> {
        self.game.prev_bid
    }
    /// Who made the standing bid.
    pub fn bidder(&self) -> Seat {
        self.game.bidder
    }
    /// The player who just passed, if the last action was a pass.
    pub fn pending_pass(&self) -> Option<Seat> {
        self.game.pending_pass
    }
    /// The obligado face, in an obligado round.
    pub fn obligado(&self) -> Option<Face> {
        self.game.obligado.map(|o| o.face)
    }
    /// Lives left of player `p`.
    pub fn lives(&self, p: Seat) -> u8 {
        self.game.seats[p].lives
    }
    /// Players still in.
    pub fn players_in(&self) -> usize {
        self.game.players_in
    }
    /// Who opened (or is to open) this round.
    pub fn opener(&self) -> Seat {
        self.game.opener
    }
    /// Whether player `p` has passed this round.
    pub fn paso_used(&self, p: Seat) -> bool {
        self.game.seats[p].paso_used
    }
    /// Whether an action is legal now.
    pub fn is_legal(&self, a: Action) -> bool {
        self.game.turn == self.seat && self.game.check(a).is_ok()
    }
    /// Calls `f` with every legal action.
    #[inline]
    pub fn for_each_legal(&self, f: impl FnMut(Action)) {
        self.game.for_each_legal(f)
    }
    /// Whether the viewer may still pass this round.
    pub fn can_pass(&self) -> bool {
        self.is_legal(Action::Pass)
    }
    /// Whether the viewer may reinforce a bid.
    pub fn can_reinforce(&self) -> bool {
        self.game.rules.reforzada && self.game.seats[self.seat].hidden_len > 0
    }
    /// Whether the viewer may declare obligado now.
    pub fn obligado_available(&self) -> bool {
        self.game.turn == self.seat && self.game.obligado_available()
    }
    /// Whether the viewer may change the face in this (obligado) round.
    pub fn may_change_face(&self) -> bool {
        self.game.may_change_face(self.seat)
    }
    /// The most dice a bid on `face` may name.
    pub fn max_quantity(&self, face: Face) -> u32 {
        self.game.max_quantity(face)
    }
    /// The smallest legal quantity of a raise on `face` (see [`DudoState::min_raise`]).
    pub fn min_raise(&self, face: Face) -> Option<u32> {
        self.game.min_raise(face)
    }
    /// The one quantity above [`View::min_raise`] that is not a legal raise on `face`, if any
    /// (see [`DudoState::forbidden_raise`]).
    pub fn forbidden_raise(&self, face: Face) -> Option<u32> {
        self.game.forbidden_raise(face)
    }
}

/// Everything one player sees of a game in progress, as plain values: what a position
/// (`super::position`) writes and reads. [`View::seen`] takes it from a view and
/// [`DudoState::from_seen`] makes a game whose viewer sees exactly it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Seen {
    /// The rules.
    pub(crate) rules: Rules,
    /// The viewer.
    pub(crate) seat: Seat,
    /// Lives by seat (0: out).
    pub(crate) lives: Vec<u8>,
    /// Dice shown face up by seat, counted by face (index 0 = aces).
    pub(crate) shown: Vec<[u8; 6]>,
    /// Whether a seat re-rolled its cup unseen this round (a reforzada).
    pub(crate) reinforced: Vec<bool>,
    /// Whether a seat has used its paso this round.
    pub(crate) passed: Vec<bool>,
    /// The viewer's hidden dice in cup order, unless a reforzada re-rolled them unseen.
    pub(crate) own: Option<Vec<u8>>,
    /// The round's opener.
    pub(crate) opener: Seat,
    /// The game's first opener.
    pub(crate) first_opener: Seat,
    /// The round's step round the table: 1 (to the right) or players − 1 (to the left).
    pub(crate) step: usize,
    /// The standing bid.
    pub(crate) bid: Option<Bid>,
    /// The bid it raised.
    pub(crate) prev_bid: Option<Bid>,
    /// Who made it (the opener before the round is open).
    pub(crate) bidder: Seat,
    /// The player to act.
    pub(crate) to_act: Seat,
    /// An obligado round: its face and the obliger.
    pub(crate) obligado: Option<(Face, Seat)>,
    /// Whether the opener may declare obligado (they just lost down to one life).
    pub(crate) obligado_offered: bool,
    /// The player who just passed, if the last action was a pass.
    pub(crate) pending_pass: Option<Seat>,
    /// Bids made this round.
    pub(crate) bids_in_round: u32,
    /// Rounds played.
    pub(crate) rounds: u32,
    /// The game's tallies so far.
    pub(crate) counts: Counts,
    /// The places of the players who have left (0: first).
    pub(crate) places: Vec<Option<u8>>,
}

impl View<'_> {
    /// Everything this view shows, as plain values.
    pub(crate) fn seen(&self) -> Seen {
        let g = self.game;
        let n = g.rules.players as usize;
        let seats = &g.seats[..n];
        Seen {
            rules: g.rules,
            seat: self.seat,
            lives: seats.iter().map(|s| s.lives).collect(),
            shown: seats.iter().map(|s| s.shown).collect(),
            reinforced: seats.iter().map(|s| !s.knows_hidden).collect(),
            passed: seats.iter().map(|s| s.paso_used).collect(),
            own: self.own_hidden().map(<[u8]>::to_vec),
            opener: g.opener,
            first_opener: g.first_opener,
            step: g.step,
            bid: g.bid,
            prev_bid: g.prev_bid,
            bidder: g.bidder,
            to_act: g.turn,
            obligado: g.obligado.map(|o| (o.face, o.obliger)),
            obligado_offered: g.obligado_offered,
            pending_pass: g.pending_pass,
            bids_in_round: g.bids_in_round,
            rounds: g.rounds,
            counts: g.counts,
            places: (0..n)
                .map(|p| (!seats[p].is_in()).then_some(g.place[p]))
                .collect(),
        }
    }
}

impl DudoState {
    /// A game in progress whose viewer sees exactly `seen`, with every die the viewer does not
    /// know rolled from `rng` (the caller has checked `seen`: the result's invariants are
    /// checked again by [`State::check_invariants`]).
    pub(crate) fn from_seen(seen: &Seen, rng: &mut impl Rng) -> DudoState {
        let n = seen.rules.players as usize;
        let mut seats = [Player::default(); MAX_PLAYERS];
        let mut place = [0u8; MAX_PLAYERS];
        for (p, s) in seats.iter_mut().enumerate().take(n) {
            s.lives = seen.lives[p];
            s.shown = seen.shown[p];
            s.knows_hidden = !seen.reinforced[p];
            s.paso_used = seen.passed[p];
            place[p] = seen.places[p].unwrap_or(0);
            if s.lives == 0 {
                continue;
            }
            let shown: usize = s.shown.iter().map(|&c| c as usize).sum();
            let k = CUP.saturating_sub(shown);
            s.hidden_len = k as u8;
            match &seen.own {
                Some(own) if p == seen.seat && own.len() == k => s.hidden[..k].copy_from_slice(own),
                _ => s.hidden[..k].copy_from_slice(&six_dice(rng)[..k]),
            }
        }
        DudoState {
            rules: seen.rules,
            seats,
            players_in: seen.lives.iter().filter(|&&l| l > 0).count(),
            opener: seen.opener,
            first_opener: seen.first_opener,
            step: seen.step,
            bid: seen.bid,
            prev_bid: seen.prev_bid,
            bidder: seen.bidder,
            turn: seen.to_act,
            obligado: seen
                .obligado
                .map(|(face, obliger)| Obligado { face, obliger }),
            obligado_offered: seen.obligado_offered,
            pending_pass: seen.pending_pass,
            bids_in_round: seen.bids_in_round,
            rounds: seen.rounds,
            winner: None,
            counts: seen.counts,
            place,
        }
    }

    /// Actions taken so far in the game: bids and passes, and one doubt per round played.
    pub(crate) fn actions_taken(&self) -> u32 {
        self.counts.bids + self.counts.passes + self.rounds
    }

    /// A number that changes with every die under every cup and every action (a seed for a
    /// play-out that must be the same whenever the game is).
    pub(crate) fn dice_seed(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ u64::from(self.actions_taken());
        for s in &self.seats[..self.rules.players as usize] {
            for &d in s.hidden() {
                h = (h ^ u64::from(d)).wrapping_mul(0x0100_0000_01b3);
            }
            h = (h ^ u64::from(s.hidden_len)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// Whether `viewer` knows the hidden dice of `p`: their own, unless a reforzada re-rolled
    /// them unseen; and once the game is over, the dice of its last count (every cup for a
    /// doubted bid, the passer's for a doubted pass).
    fn known_to(&self, viewer: Seat, p: Seat) -> bool {
        let counted = self.winner.is_some() && self.pending_pass.is_none_or(|passer| passer == p);
        counted || (p == viewer && self.seats[p].knows_hidden)
    }
}

/// The error of a refused action, out of the hot path (formatting it would otherwise keep
/// `apply` from being inlined into the game loop).
#[cold]
#[inline(never)]
fn refused(action: Action, why: &str) -> Illegal {
    Illegal::new(action, why)
}

impl State for DudoState {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    /// Dudo has no rule for later games: every game starts as its rule set says.
    fn deal(rules: &Rules, _start: &Start, rng: &mut Stream) -> DudoState {
        DudoState::dealt(*rules, rng)
    }
    /// Every die the viewer does not know rolled afresh: the other players' cups, and their own
    /// after a reforzada re-rolled it unseen. The dice shown, the lives, the bids and who has
    /// left stay as they are; each die under a cup is uniform whatever was bid (no inference from
    /// bids), which is what a cup nobody has looked into is.
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> DudoState {
        let mut g = view.game.clone();
        for p in 0..g.rules.players as usize {
            let k = g.seats[p].hidden_len as usize;
            if k == 0 || g.known_to(view.seat, p) {
                continue;
            }
            let d = six_dice(rng);
            g.seats[p].hidden[..k].copy_from_slice(&d[..k]);
        }
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    fn to_act(&self) -> Seat {
        self.turn
    }
    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        View { game: self, seat }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }
    #[inline(always)]
    fn apply(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        if let Err(why) = self.check(action) {
            return Err(refused(action, why));
        }
        self.play(action, rng);
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| Outcome::Event(1 << w))
    }
    fn first_player(&self) -> Seat {
        self.first_opener
    }
    /// Rounds.
    fn length(&self) -> u64 {
        self.rounds.into()
    }
    /// Bids, doubts and how they went, passes, reinforcements, obligado rounds and the rounds
    /// lost by their opener.
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        use super::Counter;
        let c = &self.counts;
        out[Counter::Bids as usize] = c.bids.into();
        out[Counter::Doubts as usize] = c.doubts.into();
        out[Counter::DoubtsWon as usize] = c.doubts_won.into();
        out[Counter::Passes as usize] = c.passes.into();
        out[Counter::PassDoubts as usize] = c.pass_doubts.into();
        out[Counter::PassDoubtsWon as usize] = c.pass_doubts_won.into();
        out[Counter::Reinforcements as usize] = c.reinforcements.into();
        out[Counter::ObligadoRounds as usize] = c.obligado_rounds.into();
        out[Counter::OpenerLost as usize] = c.opener_lost.into();
        out[Counter::Revived as usize] = c.revived.into();
    }
    /// Players leave the table one by one: the last one in wins, the first one out is last.
    fn places(&self, out: &mut [u8; MAX_SEATS]) -> bool {
        let n = self.rules.players as usize;
        out[..n].copy_from_slice(&self.place[..n]);
        true
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::GameRules;
    use crate::rng::base_stream;

    #[test]
    fn pass_hands() {
        assert_eq!(PassHand::of(&[3, 3, 3, 3, 1]), PassHand::Poker);
        assert_eq!(PassHand::of(&[6, 6, 6, 6, 6]), PassHand::Poker);
        assert_eq!(PassHand::of(&[2, 2, 5, 5, 5]), PassHand::Full);
        assert_eq!(PassHand::of(&[1, 2, 3, 4, 6]), PassHand::Pichanga);
        assert_eq!(PassHand::of(&[1, 1, 3, 4, 6]), PassHand::Nothing);
        assert_eq!(PassHand::of(&[1, 1, 3, 3, 6]), PassHand::Nothing);
        assert_eq!(PassHand::of(&[4, 4, 4, 1, 6]), PassHand::Nothing);
    }

    /// A game at `lives` where `loser` opens a round and loses it: every die shows a two, the
    /// opening bid is one cena, and the next player doubts.
    fn lose_a_round(rules: Rules, lives: &[u8], loser: Seat) -> DudoState {
        let mut rng = base_stream(1);
        let mut g = DudoState::dealt_from(rules, Some(lives), Some(loser), &mut rng);
        for s in g.seats.iter_mut() {
            s.hidden = [2; CUP];
        }
        let cena = Bid {
            quantity: 1,
            face: Face::new(6).unwrap(),
        };
        g.apply(
            Action::Open {
                bid: cena,
                reinforce: false,
                direction: Direction::Right,
                obligado: false,
            },
            &mut rng,
        )
        .unwrap();
        g.apply(Action::Doubt, &mut rng).unwrap();
        g.invariants().unwrap();
        g
    }

    #[test]
    fn revivir_gives_back_a_life_once_a_game() {
        let lives = |g: &DudoState| (0..3).map(|p| g.lives(p)).collect::<Vec<_>>();
        let chimbo = Rules::standard(RuleSet::Chimbo9, 3);
        let revivir = chimbo.with_changes("revivir=on").unwrap();
        // Down to the last life with nobody else on theirs: the life comes back.
        let g = lose_a_round(chimbo, &[2, 3, 3], 0);
        assert_eq!(lives(&g), [1, 3, 3]);
        let g = lose_a_round(revivir, &[2, 3, 3], 0);
        assert_eq!((lives(&g), g.counts.revived), (vec![2, 3, 3], 1));
        // Once a game: with revivir used, the next loss stands.
        let mut seen = g.view(0).seen();
        seen.lives = vec![2, 3, 3];
        let mut again = DudoState::from_seen(&seen, &mut base_stream(2));
        again.seats.iter_mut().for_each(|s| s.hidden = [2; CUP]);
        let mut rng = base_stream(3);
        again
            .apply(
                Action::Open {
                    bid: Bid {
                        quantity: 1,
                        face: Face::new(6).unwrap(),
                    },
                    reinforce: false,
                    direction: Direction::Right,
                    obligado: false,
                },
                &mut rng,
            )
            .unwrap();
        again.apply(Action::Doubt, &mut rng).unwrap();
        assert_eq!(lives(&again), [1, 3, 3]);
        // Someone else already on their last life: the door is closed for this one.
        let g = lose_a_round(revivir, &[2, 1, 3], 0);
        assert_eq!((lives(&g), g.counts.revived), (vec![1, 1, 3], 0));
        // Everybody level after the loss (two lives lost each): each gets one back.
        let g = lose_a_round(revivir, &[3, 2, 2], 0);
        assert_eq!((lives(&g), g.counts.revived), (vec![3, 3, 3], 3));
        // A player who goes out is not revived; the two left, level, each get one back.
        let g = lose_a_round(revivir, &[1, 2, 2], 0);
        assert_eq!((lives(&g), g.counts.revived), (vec![0, 3, 3], 2));
    }

    #[test]
    fn illegal_actions_are_rejected_with_a_reason() {
        let mut rng = base_stream(1);
        let mut g = DudoState::deal(
            &Rules::standard(RuleSet::Chimbo9, 4),
            &Start::default(),
            &mut rng,
        );
        let b = |q, f| Bid {
            quantity: q,
            face: Face::new(f).unwrap(),
        };
        assert_eq!(
            g.apply(Action::Doubt, &mut rng).unwrap_err().to_string(),
            "illegal action: doubt («dudo») (nothing to doubt: open the round)"
        );
        assert!(g
            .apply(
                Action::Raise {
                    bid: b(3, 4),
                    reinforce: false
                },
                &mut rng
            )
            .is_err());
        assert_eq!(
            g.check(Action::Open {
                bid: b(3, 4),
                reinforce: false,
                direction: Direction::Left,
                obligado: false
            }),
            Err("these rules fix the direction")
        );
        assert_eq!(
            g.check(Action::Open {
                bid: b(21, 4),
                reinforce: false,
                direction: Direction::Right,
                obligado: false
            }),
            Err("quantity out of range")
        );
        g.apply(
            Action::Open {
                bid: b(3, 4),
                reinforce: false,
                direction: Direction::Right,
                obligado: false,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.check(Action::Pass), Err("these rules have no paso"));
        assert_eq!(
            g.check(Action::Raise {
                bid: b(3, 3),
                reinforce: false
            }),
            Err("not a legal raise")
        );
        // to aces: floor(3/2) + 1 = 2 aces at least
        assert_eq!(
            g.check(Action::Raise {
                bid: b(1, 1),
                reinforce: false
            }),
            Err("not a legal raise")
        );
        assert!(g
            .check(Action::Raise {
                bid: b(2, 1),
                reinforce: false
            })
            .is_ok());
        assert!(
            g.check(Action::Raise {
                bid: b(2, 1),
                reinforce: true
            })
            .is_err(),
            "no reforzada in Chimbo 9"
        );
        assert!(g
            .check(Action::Raise {
                bid: b(3, 5),
                reinforce: false
            })
            .is_ok());
    }
}
