//! The Dudo game engine: both rule sets of `../shared/RULES.md` §1, every flag, as a state
//! machine (a state, its legal actions, apply an action, the outcome).
//!
//! Players act through [`View`], which shows only what a player at the table sees: their own
//! dice (unless a mandada reforzada re-rolled them unseen), every die shown face up, the bids, the
//! lives. Illegal actions are rejected by [`Game::apply`] with the reason.
//!
//! Decisions beyond RULES.md (documented in the README):
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
use crate::error::{Error, Result};
use crate::play::RuleChange;
use crate::rng::{six_dice, Rng};

/// The most players a table may have.
pub const MAX_PLAYERS: usize = 16;
/// Dice per cup.
pub const CUP: usize = 5;

/// A whole game's rules: rule set, table and house-rule switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameConfig {
    /// Counting and raising rules.
    pub rules: Rules,
    /// Players at the start.
    pub players: u8,
    /// Lives each (Chimbo 9: 3 fichas; Caleuchano: out at the 5th palo).
    pub lives: u8,
    /// Paso allowed (Caleuchano).
    pub paso: bool,
    /// Mandada reforzada allowed (Caleuchano).
    pub reforzada: bool,
    /// Obligado allowed (Caleuchano).
    pub obligado: bool,
    /// The opener chooses the direction each round (Caleuchano); otherwise always to the right.
    pub choose_direction: bool,
}

impl GameConfig {
    /// The rule set as written: Chimbo 9 with 3 lives and none of the Caleuchano rules, or
    /// Caleuchano with 5 palos, paso, reforzada, obligado and the opener's choice of direction.
    pub fn standard(set: RuleSet, players: u8) -> Self {
        let cal = set == RuleSet::Caleuchano;
        Self {
            rules: Rules::new(set),
            players,
            lives: if cal { 5 } else { 3 },
            paso: cal,
            reforzada: cal,
            obligado: cal,
            choose_direction: cal,
        }
    }

    /// Checks the table size and lives.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid --players {}: a game needs 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=20).contains(&self.lives) {
            return Err(Error::usage(format!(
                "invalid --lives {}: give 1 to 20 lives",
                self.lives
            )));
        }
        // Rules of one rule set only: refused under the other, as `dudo prob` refuses them.
        if self.obligado && self.rules.set == RuleSet::Chimbo9 {
            return Err(Error::usage(
                "obligado=on is a Caleuchano rule (Chimbo 9 has no obligado round): drop it or add rules=caleuchano",
            ));
        }
        if self.rules.ace_round == super::rules::AceRound::Ceil
            && self.rules.set == RuleSet::Caleuchano
        {
            return Err(Error::usage(
                "ace-round=ceil is a Chimbo 9 rule (Caleuchano converts by half or more): drop it or use rules=chimbo9",
            ));
        }
        Ok(())
    }
}

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
struct Seat {
    lives: u8,
    hidden: [u8; CUP],
    hidden_len: u8,
    /// Dice shown face up, counted by face (index 0 = aces).
    shown: [u8; 6],
    knows_hidden: bool,
    paso_used: bool,
}

impl Seat {
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
pub struct Obligado {
    /// The fixed face.
    pub face: Face,
    /// Who declared it.
    pub obliger: usize,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// Who opened the round.
    pub opener: usize,
    /// Who said «dudo».
    pub doubter: usize,
    /// Who was doubted (the bidder, or the passer).
    pub doubted: usize,
    /// Whether a pass was doubted.
    pub pass_doubted: bool,
    /// Who lost a life.
    pub loser: usize,
    /// Whether the loser left the table.
    pub loser_out: bool,
    /// Whether the round was obligado.
    pub obligado: bool,
    /// Bids made in the round.
    pub bids: u32,
}

/// What applying an action led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Play goes on in the same round.
    Continue,
    /// A challenge ended the round; a new round has started.
    Round(RoundEnd),
    /// A challenge ended the game.
    GameOver {
        /// The last round.
        round: RoundEnd,
        /// The winner.
        winner: usize,
    },
}

/// What a game counts of its own as it is played (see [`Game::counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Bids made (openings and raises).
    pub bids: u32,
    /// Bids doubted (not passes).
    pub doubts: u32,
    /// Doubts that won (the bid was false).
    pub doubts_won: u32,
    /// Passes made.
    pub passes: u32,
    /// Passes doubted.
    pub pass_doubts: u32,
    /// Doubted passes that failed (the doubter won).
    pub pass_doubts_won: u32,
    /// Bids reinforced (mandada reforzada).
    pub reinforcements: u32,
    /// Obligado rounds.
    pub obligado_rounds: u32,
    /// Rounds whose opener lost the challenge.
    pub opener_lost: u32,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    seats: [Seat; MAX_PLAYERS],
    players_in: usize,
    opener: usize,
    first_opener: usize,
    step: usize,
    bid: Option<Bid>,
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

impl Game {
    /// A new game: cups rolled, first opener chosen as the rule set says.
    pub fn new(config: GameConfig, rng: &mut impl Rng) -> Game {
        debug_assert!(config.validate().is_ok());
        let n = config.players as usize;
        let mut seats = [Seat::default(); MAX_PLAYERS];
        for s in seats.iter_mut().take(n) {
            s.lives = config.lives;
        }
        let opener = match config.rules.set {
            // Everybody rolls one die; the highest opens; ties re-roll among the tied.
            RuleSet::Chimbo9 => {
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
            // A thrown die counted round the table: uniform in simulation (RULES.md).
            RuleSet::Caleuchano => crate::rng::uniform_below(rng, n),
        };
        let mut g = Game {
            config,
            seats,
            players_in: n,
            opener,
            first_opener: opener,
            step: 1,
            bid: None,
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

    fn start_round(&mut self, opener: usize, offer_obligado: bool, rng: &mut impl Rng) {
        for s in self.seats.iter_mut().take(self.config.players as usize) {
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
        self.obligado = None;
        self.obligado_offered = offer_obligado;
        self.pending_pass = None;
        self.bids_in_round = 0;
    }

    /// The game's rules.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Whose turn it is.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Who opened the game's first round.
    pub fn first_opener(&self) -> usize {
        self.first_opener
    }

    /// Rounds finished so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// What the game has counted so far: bids, doubts and how they went, passes, …
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Lives left of a player.
    pub fn lives(&self, p: usize) -> u8 {
        self.seats[p].lives
    }

    /// Players still in.
    pub fn players_in(&self) -> usize {
        self.players_in
    }

    /// Dice on the table (5 per player still in).
    pub fn dice_on_table(&self) -> u32 {
        self.seats[..self.config.players as usize]
            .iter()
            .map(|s| s.hidden_len as u32 + s.shown.iter().map(|&c| c as u32).sum::<u32>())
            .sum()
    }

    /// What player `p` sees.
    pub fn view(&self, p: usize) -> View<'_> {
        View { game: self, me: p }
    }

    fn next_in(&self, from: usize, step: usize) -> usize {
        let n = self.config.players as usize;
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
                .config
                .rules
                .counting(face, self.obligado.is_some())
                .bonus
    }

    /// The smallest legal quantity for a raise on `face` by the current player, or `None` when
    /// no raise on that face is legal. Every quantity from it up to [`Game::max_quantity`] is
    /// legal except [`Game::forbidden_raise`] (Chimbo 9: Q aces after Q of another face).
    pub fn min_raise(&self, face: Face) -> Option<u32> {
        let prev = self.bid?;
        let rules = &self.config.rules;
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

    /// The one quantity above [`Game::min_raise`] that is still not a legal raise on `face`, if
    /// any ([`Rules::forbidden_quantity`]; obligado rounds have none).
    pub fn forbidden_raise(&self, face: Face) -> Option<u32> {
        match (self.bid, self.obligado) {
            (Some(prev), None) => self.config.rules.forbidden_quantity(prev, face),
            _ => None,
        }
    }

    /// Whether player `p` may change the face in the current obligado round.
    pub fn may_change_face(&self, p: usize) -> bool {
        match self.obligado {
            Some(o) => o.obliger == p || self.seats[p].lives == 1,
            None => true,
        }
    }

    /// Whether the current player may declare obligado when opening.
    pub fn obligado_available(&self) -> bool {
        self.config.obligado && self.obligado_offered && self.bid.is_none() && self.players_in > 2
    }

    /// Checks an action for the player whose turn it is; the error says why it is illegal.
    pub fn check(&self, action: Action) -> Result<(), &'static str> {
        if self.winner.is_some() {
            return Err("the game is over");
        }
        let me = &self.seats[self.turn];
        let reinforce_ok = |r: bool| !r || (self.config.reforzada && me.hidden_len > 0);
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
                if direction == Direction::Left && !self.config.choose_direction {
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
                if !self.config.paso {
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

    /// Applies the current player's action (rolling dice from `rng` where the rules need it).
    pub fn apply(&mut self, action: Action, rng: &mut impl Rng) -> Result<Event, &'static str> {
        self.check(action)?;
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
                    Direction::Left => self.config.players as usize - 1,
                };
                if obligado {
                    self.obligado = Some(Obligado {
                        face: bid.face,
                        obliger: me,
                    });
                }
                self.place_bid(bid, reinforce, rng);
                Ok(Event::Continue)
            }
            Action::Raise { bid, reinforce } => {
                if let Some(o) = self.obligado.as_mut() {
                    o.face = bid.face;
                }
                self.place_bid(bid, reinforce, rng);
                Ok(Event::Continue)
            }
            Action::Pass => {
                self.counts.passes += 1;
                self.seats[me].paso_used = true;
                self.pending_pass = Some(me);
                self.turn = self.next_in(me, self.step);
                Ok(Event::Continue)
            }
            Action::Doubt => Ok(self.resolve(rng)),
        }
    }

    fn place_bid(&mut self, bid: Bid, reinforce: bool, rng: &mut impl Rng) {
        self.counts.bids += 1;
        self.counts.reinforcements += reinforce as u32;
        if reinforce {
            self.reinforce(bid.face, rng);
        }
        self.bid = Some(bid);
        self.bidder = self.turn;
        self.pending_pass = None;
        self.bids_in_round += 1;
        self.turn = self.next_in(self.turn, self.step);
    }

    /// The count of a face on the whole table under the round's rules.
    pub fn count(&self, face: Face) -> u32 {
        let counting = self.config.rules.counting(face, self.obligado.is_some());
        let (mut naturals, mut aces) = (0u32, 0u32);
        for s in &self.seats[..self.config.players as usize] {
            for &d in s.hidden() {
                naturals += (d == face.value()) as u32;
                aces += (d == 1) as u32;
            }
            naturals += s.shown[face.index()] as u32;
            aces += s.shown[0] as u32;
        }
        counting.count(naturals, if face.is_ace() { 0 } else { aces })
    }

    fn resolve(&mut self, rng: &mut impl Rng) -> Event {
        let doubter = self.turn;
        let bid = self.bid.expect("checked");
        let (doubted, loser, pass_doubted) = match self.pending_pass {
            Some(passer) => {
                let (dice, n) = self.seats[passer].all_dice();
                let holds = PassHand::of(&dice[..n]).holds();
                (passer, if holds { doubter } else { passer }, true)
            }
            None => {
                let holds = self.count(bid.face) >= bid.quantity;
                (
                    self.bidder,
                    if holds { doubter } else { self.bidder },
                    false,
                )
            }
        };
        self.seats[loser].lives -= 1;
        let loser_out = self.seats[loser].lives == 0;
        if loser_out {
            self.players_in -= 1;
            // The first to leave a table of n finishes n-th (place n − 1).
            self.place[loser] = self.players_in as u8;
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
        let end = RoundEnd {
            opener: self.opener,
            doubter,
            doubted,
            pass_doubted,
            loser,
            loser_out,
            obligado: self.obligado.is_some(),
            bids: self.bids_in_round,
        };
        if self.players_in == 1 {
            let winner = (0..self.config.players as usize)
                .find(|&p| self.seats[p].is_in())
                .expect("one player is in");
            self.winner = Some(winner);
            self.turn = winner;
            return Event::GameOver { round: end, winner };
        }
        let next_opener = if !loser_out {
            loser
        } else {
            match self.config.rules.set {
                RuleSet::Chimbo9 => self.next_in(loser, self.step),
                // "el jugador que antecedía al que salió"
                RuleSet::Caleuchano => {
                    let back = self.config.players as usize - self.step;
                    self.next_in(loser, if back == 0 { 1 } else { back })
                }
            }
        };
        let offer = !loser_out && self.seats[loser].lives == 1 && self.config.lives > 1;
        self.start_round(next_opener, offer, rng);
        Event::Round(end)
    }

    /// Calls `f` with every legal action of the current player, in a fixed order.
    pub fn for_each_legal(&self, mut f: impl FnMut(Action)) {
        let me = &self.seats[self.turn];
        let reinforce_options: &[bool] = if self.config.reforzada && me.hidden_len > 0 {
            &[false, true]
        } else {
            &[false]
        };
        match self.bid {
            None => {
                let dirs: &[Direction] = if self.config.choose_direction {
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

    /// Every legal action of the current player (allocates; bots use [`Game::for_each_legal`]).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.for_each_legal(|a| v.push(a));
        v
    }

    /// Checks the game's invariants; used by property tests and `--check` runs.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.config.players as usize;
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
            if s.lives > self.config.lives {
                return Err(format!("seat {p} has {} lives", s.lives));
            }
        }
        if !self.seats[self.turn].is_in() {
            return Err(format!("seat {} is out but has the turn", self.turn));
        }
        if self.obligado.is_some() && !self.config.obligado {
            return Err("obligado round under rules without obligado".into());
        }
        Ok(())
    }
}

/// What one player sees: their own dice (when they know them), everything shown, the bids.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a Game,
    me: usize,
}

impl crate::play::PlayerView for View<'_> {
    fn seat(&self) -> crate::play::Seat {
        self.me
    }
}

/// Exactly what the player sees: lives, the dice shown, their own hidden dice when they know
/// them, every cup's size, the bids and whose turn it is.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let n = g.config.players as usize;
        let seats: Vec<(u8, u8, [u8; 6], bool)> = g.seats[..n]
            .iter()
            .map(|s| (s.lives, s.hidden_len, s.shown, s.paso_used))
            .collect();
        f.debug_struct("View")
            .field("me", &self.me)
            .field("config", &g.config)
            .field("own hidden", &self.own_hidden())
            .field("seats (lives, cup, shown, paso)", &seats)
            .field("opener", &g.opener)
            .field("first opener", &g.first_opener)
            .field("step", &g.step)
            .field("bid", &g.bid)
            .field("bidder", &g.bidder)
            .field("turn", &g.turn)
            .field("obligado", &g.obligado)
            .field("obligado offered", &g.obligado_offered)
            .field("pending pass", &g.pending_pass)
            .field("rounds", &g.rounds)
            .field("winner", &g.winner)
            .finish()
    }
}

impl<'a> View<'a> {
    /// The viewing player.
    pub fn me(&self) -> usize {
        self.me
    }
    /// The rules.
    pub fn config(&self) -> &GameConfig {
        &self.game.config
    }
    /// Own hidden dice, if known (a reforzada re-rolls them unseen).
    pub fn own_hidden(&self) -> Option<&'a [u8]> {
        let s = &self.game.seats[self.me];
        s.knows_hidden.then(|| s.hidden())
    }
    /// Number of own hidden dice.
    pub fn own_hidden_count(&self) -> u32 {
        self.game.seats[self.me].hidden_len as u32
    }
    /// Dice shown face up by player `p`, by face.
    pub fn shown_by(&self, p: usize) -> [u8; 6] {
        self.game.seats[p].shown
    }
    /// Every die shown face up on the table, by face.
    pub fn shown_on_table(&self) -> [u32; 6] {
        let mut c = [0u32; 6];
        for s in &self.game.seats[..self.game.config.players as usize] {
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
    /// Who made the standing bid.
    pub fn bidder(&self) -> usize {
        self.game.bidder
    }
    /// The player who just passed, if the last action was a pass.
    pub fn pending_pass(&self) -> Option<usize> {
        self.game.pending_pass
    }
    /// The obligado face, in an obligado round.
    pub fn obligado(&self) -> Option<Face> {
        self.game.obligado.map(|o| o.face)
    }
    /// Lives left of player `p`.
    pub fn lives(&self, p: usize) -> u8 {
        self.game.seats[p].lives
    }
    /// Players still in.
    pub fn players_in(&self) -> usize {
        self.game.players_in
    }
    /// Whether an action is legal now.
    pub fn is_legal(&self, a: Action) -> bool {
        self.game.turn == self.me && self.game.check(a).is_ok()
    }
    /// Calls `f` with every legal action.
    pub fn for_each_legal(&self, f: impl FnMut(Action)) {
        self.game.for_each_legal(f)
    }
    /// Whether the viewer may still pass this round.
    pub fn can_pass(&self) -> bool {
        self.is_legal(Action::Pass)
    }
    /// Whether the viewer may reinforce a bid.
    pub fn can_reinforce(&self) -> bool {
        self.game.config.reforzada && self.game.seats[self.me].hidden_len > 0
    }
    /// Whether the viewer may declare obligado now.
    pub fn obligado_available(&self) -> bool {
        self.game.turn == self.me && self.game.obligado_available()
    }
    /// Whether the viewer may change the face in this (obligado) round.
    pub fn may_change_face(&self) -> bool {
        self.game.may_change_face(self.me)
    }
    /// The most dice a bid on `face` may name.
    pub fn max_quantity(&self, face: Face) -> u32 {
        self.game.max_quantity(face)
    }
    /// The smallest legal quantity of a raise on `face` (see [`Game::min_raise`]).
    pub fn min_raise(&self, face: Face) -> Option<u32> {
        self.game.min_raise(face)
    }
    /// The one quantity above [`View::min_raise`] that is not a legal raise on `face`, if any
    /// (see [`Game::forbidden_raise`]).
    pub fn forbidden_raise(&self, face: Face) -> Option<u32> {
        self.game.forbidden_raise(face)
    }
}

/// Every key of [`GameConfig::with_changes`], for help and messages.
pub const CHANGE_KEYS: &str =
    "rules, lives, paso, reforzada, obligado, direction, aces-need-natural, ace-round";

impl GameConfig {
    /// These rules changed by house rules such as `rules=caleuchano,paso=off,lives=3`.
    /// `rules=` (if present) is applied first and resets the flags to that rule set's standard.
    /// Keys: [`CHANGE_KEYS`] (on/off switches; `direction=choose|fixed`,
    /// `ace-round=floor|ceil`).
    pub fn with_changes(mut self, spec: &str) -> Result<GameConfig> {
        use super::rules::AceRound;
        let pairs =
            crate::text::key_values(spec, "house rule", "rules=caleuchano,paso=off,lives=3")?;
        for &(k, v) in pairs.iter().filter(|(k, _)| *k == "rules") {
            let set = match crate::text::normalize(v).as_str() {
                "chimbo9" | "chimbo" | "chimbo-9" => RuleSet::Chimbo9,
                "caleuchano" | "caleuche" => RuleSet::Caleuchano,
                _ => {
                    return Err(Error::usage(format!(
                        "invalid {k}={v}: rule sets are chimbo9 and caleuchano"
                    )))
                }
            };
            self = GameConfig::standard(set, self.players);
        }
        let on_off = crate::text::on_off;
        for &(k, v) in pairs.iter().filter(|(k, _)| *k != "rules") {
            match k {
                "lives" => {
                    self.lives = v
                        .parse::<u8>()
                        .ok()
                        .filter(|l| (1..=20).contains(l))
                        .ok_or_else(|| Error::usage(format!("invalid lives={v}: give 1 to 20")))?
                }
                "paso" => self.paso = on_off(k, v)?,
                "reforzada" => self.reforzada = on_off(k, v)?,
                "obligado" => self.obligado = on_off(k, v)?,
                "aces-need-natural" => self.rules.aces_need_natural = on_off(k, v)?,
                "direction" => {
                    self.choose_direction = match crate::text::normalize(v).as_str() {
                        "choose" => true,
                        "fixed" => false,
                        _ => {
                            return Err(Error::usage(format!(
                                "invalid direction={v}: use choose or fixed"
                            )))
                        }
                    }
                }
                "ace-round" => {
                    self.rules.ace_round = match crate::text::normalize(v).as_str() {
                        "floor" => AceRound::Floor,
                        "ceil" => AceRound::Ceil,
                        _ => {
                            return Err(Error::usage(format!(
                                "invalid ace-round={v}: use floor or ceil"
                            )))
                        }
                    }
                }
                _ => {
                    return Err(Error::usage(format!(
                        "unknown house rule '{k}': keys are {CHANGE_KEYS}"
                    )))
                }
            }
        }
        Ok(self)
    }

    /// The rules in a few words: players, the rule set, and what differs from its standard.
    pub fn describe(&self) -> String {
        let g = self;
        let mut flags = Vec::new();
        let standard = GameConfig::standard(g.rules.set, g.players);
        if g.lives != standard.lives {
            flags.push(format!("{} lives", g.lives));
        }
        for (on, std_on, name) in [
            (g.paso, standard.paso, "paso"),
            (g.reforzada, standard.reforzada, "reforzada"),
            (g.obligado, standard.obligado, "obligado"),
            (
                g.choose_direction,
                standard.choose_direction,
                "direction choice",
            ),
        ] {
            if on != std_on {
                flags.push(format!("{} {name}", if on { "with" } else { "no" }));
            }
        }
        if g.rules.aces_need_natural {
            flags.push("aces need a natural".into());
        }
        if g.rules.set == RuleSet::Chimbo9 && g.rules.ace_round == super::rules::AceRound::Ceil {
            flags.push("aces by ceil(Q/2) + 1".into());
        }
        let mut s = format!("{} players · {}", g.players, g.rules.set.title());
        if !flags.is_empty() {
            s += &format!(" ({})", flags.join(", "));
        }
        s
    }

    /// Every change of one house rule that means something for this table: the other rule set;
    /// the other standard number of lives (3 or 5); each of the Caleuchano switches (paso,
    /// reforzada, the opener's choice of direction, obligado under Caleuchano) turned the other
    /// way; aces needing a natural; Chimbo 9's rounding of "la mitad más uno".
    pub fn one_rule_changes(&self) -> Vec<RuleChange<GameConfig>> {
        let mut v = Vec::new();
        let flip = |on: bool| if on { "off" } else { "on" };
        let other = match self.rules.set {
            RuleSet::Chimbo9 => RuleSet::Caleuchano,
            RuleSet::Caleuchano => RuleSet::Chimbo9,
        };
        v.push(RuleChange::new(
            format!("rules={}", other.key()),
            other.title(),
            GameConfig::standard(other, self.players),
        ));
        let lives = if self.lives == 5 { 3 } else { 5 };
        let mut r = *self;
        r.lives = lives;
        v.push(RuleChange::new(
            format!("lives={lives}"),
            format!("{lives} lives"),
            r,
        ));
        // A switch: its key, the field it flips, whether it applies to this rule set.
        type Switch = (&'static str, fn(&mut GameConfig) -> &mut bool, bool);
        let switches: [Switch; 4] = [
            ("paso", |g| &mut g.paso, true),
            ("reforzada", |g| &mut g.reforzada, true),
            (
                "obligado",
                |g| &mut g.obligado,
                self.rules.set == RuleSet::Caleuchano,
            ),
            ("direction", |g| &mut g.choose_direction, true),
        ];
        for (key, field, applies) in switches {
            if !applies {
                continue;
            }
            let mut r = *self;
            let now = *field(&mut r);
            *field(&mut r) = !now;
            let (name, label) = if key == "direction" {
                let to = if now { "fixed" } else { "choose" };
                (format!("direction={to}"), format!("direction {to}"))
            } else {
                (
                    format!("{key}={}", flip(now)),
                    format!("{key} {}", flip(now)),
                )
            };
            v.push(RuleChange::new(name, label, r));
        }
        let mut r = *self;
        r.rules.aces_need_natural = !r.rules.aces_need_natural;
        v.push(RuleChange::new(
            format!("aces-need-natural={}", flip(self.rules.aces_need_natural)),
            if r.rules.aces_need_natural {
                "aces need a natural"
            } else {
                "aces always wild"
            },
            r,
        ));
        if self.rules.set == RuleSet::Chimbo9 {
            use super::rules::AceRound;
            let mut r = *self;
            r.rules.ace_round = match self.rules.ace_round {
                AceRound::Floor => AceRound::Ceil,
                AceRound::Ceil => AceRound::Floor,
            };
            let (name, label) = match r.rules.ace_round {
                AceRound::Ceil => ("ace-round=ceil", "aces ceil(Q/2)+1"),
                AceRound::Floor => ("ace-round=floor", "aces floor(Q/2)+1"),
            };
            v.push(RuleChange::new(name, label, r));
        }
        v.retain(|c| c.rules != *self && c.rules.validate().is_ok());
        v
    }
}

impl crate::play::GameRules for GameConfig {
    fn standard(players: usize) -> GameConfig {
        GameConfig::standard(RuleSet::Chimbo9, players.min(u8::MAX as usize) as u8)
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        GameConfig::validate(self)
    }
    fn with_changes(&self, spec: &str) -> Result<GameConfig> {
        GameConfig::with_changes(*self, spec)
    }
    fn one_rule_changes(&self) -> Vec<RuleChange<GameConfig>> {
        GameConfig::one_rule_changes(self)
    }
    fn describe(&self) -> String {
        GameConfig::describe(self)
    }
}

impl crate::play::State for Game {
    type Rules = GameConfig;
    type Action = Action;
    type View<'a> = View<'a>;

    /// Dudo has no rule for later games: every game starts as its rule set says.
    fn deal(rules: &GameConfig, _start: &crate::play::Start, rng: &mut crate::rng::Stream) -> Game {
        Game::new(*rules, rng)
    }
    /// Every die the viewer does not know rolled afresh: the other players' cups, and their own
    /// after a reforzada re-rolled it unseen; the dice shown stay.
    fn deal_for_view(view: &View<'_>, rng: &mut crate::rng::Stream) -> Game {
        let mut g = view.game.clone();
        let n = g.config.players as usize;
        for (p, s) in g.seats[..n].iter_mut().enumerate() {
            if p == view.me && s.knows_hidden {
                continue;
            }
            let d = crate::rng::six_dice(rng);
            let k = s.hidden_len as usize;
            s.hidden[..k].copy_from_slice(&d[..k]);
        }
        g
    }
    fn rules(&self) -> &GameConfig {
        &self.config
    }
    #[inline]
    fn to_act(&self) -> usize {
        self.turn
    }
    #[inline]
    fn view(&self, seat: usize) -> View<'_> {
        Game::view(self, seat)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }
    #[inline]
    fn apply(
        &mut self,
        action: Action,
        rng: &mut crate::rng::Stream,
    ) -> Result<(), crate::play::Illegal> {
        Game::apply(self, action, rng)
            .map(|_| ())
            .map_err(|e| crate::play::Illegal(e.to_string()))
    }
    #[inline]
    fn outcome(&self) -> Option<crate::play::Outcome> {
        self.winner.map(|w| crate::play::Outcome::Event(1 << w))
    }
    fn first_player(&self) -> usize {
        self.first_opener
    }
    fn length(&self) -> u64 {
        self.rounds as u64
    }
    /// In the order of [`COUNTERS`].
    fn counters(&self, out: &mut [i64; crate::play::MAX_COUNTERS]) {
        let c = &self.counts;
        for (o, x) in out.iter_mut().zip([
            c.bids,
            c.doubts,
            c.doubts_won,
            c.passes,
            c.pass_doubts,
            c.pass_doubts_won,
            c.reinforcements,
            c.obligado_rounds,
            c.opener_lost,
        ]) {
            *o = x as i64;
        }
    }
    /// Players leave the table one by one: the last one in wins, the first one out is last.
    fn places(&self, out: &mut [u8; crate::play::MAX_SEATS]) -> bool {
        let n = self.config.players as usize;
        out[..n].copy_from_slice(&self.place[..n]);
        true
    }
    fn check_invariants(&self) -> Result<(), String> {
        Game::check_invariants(self)
    }
}

/// Names of the counters [`Game`] keeps (see [`Counts`]).
pub const COUNTERS: &[&str] = &[
    "bids",
    "doubts",
    "doubts_won",
    "passes",
    "pass_doubts",
    "pass_doubts_won",
    "reinforcements",
    "obligado_rounds",
    "opener_lost",
];

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn illegal_actions_are_rejected_with_a_reason() {
        let mut rng = base_stream(1);
        let mut g = Game::new(GameConfig::standard(RuleSet::Chimbo9, 4), &mut rng);
        let b = |q, f| Bid {
            quantity: q,
            face: Face::new(f).unwrap(),
        };
        assert!(g.apply(Action::Doubt, &mut rng).is_err());
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
