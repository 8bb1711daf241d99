//! The Póker mentiroso engine (`docs/rules.md` §4): [`PokerState`], the [`State`] of a
//! game — hands, claims, calls, points and eliminations — with what each player sees ([`View`])
//! and games dealt for what a player sees ([`State::deal_for_view`]).
//!
//! A hand: the starter throws all five dice, in the cup (hidden) or in the open, and claims a
//! hand. The claim passes to the next player still in, who calls (lifts the cup: a false claim
//! gives the claimant the point, a true one the caller) or accepts. A receiver who accepts looks
//! at the dice in secret, may throw each die at most once, one at a time or in groups, each
//! throw in the cup or in the open, and passes a claim strictly higher than the one accepted.
//! Accepting repóker de ases, which nothing beats, costs the point. A player at the agreed
//! points is out; the player after the loser starts the next hand; the last player in wins.
//!
//! Dice are seen as on the table: a die thrown in the open lies face up; a throw in the cup
//! takes every other die out of the cup face up (the text: the dice kept must be left
//! visible); dice in the cup are hidden. Face-up dice stay face up until thrown again in the
//! cup. The dice in the cup are known to whoever threw them there or has looked under the cup
//! since: the player holding the cup (after the hand's first throw, or after accepting), and a
//! claimant watching the receiver decide — and still after, as long as the dice they left in
//! the cup stay there (the next holder's throws in the open leave them alone; a throw in the
//! cup replaces them). Nobody else knows them: a receiver deciding does not.

use serde::{Deserialize, Serialize};

use super::hand::{Face, DICE, HANDS};
use super::rules::{Rules, MAX_PLAYERS};
use super::tables::{tables, POW6};
use super::{scale, Counter, LOST_AT, SEAT_HANDS, SEAT_LOST};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS, MAX_SEATS};
use crate::rng::{uniform_below, Stream};

/// No claim stands (the start of a hand).
pub const NO_CLAIM: u8 = u8::MAX;
/// The top rung: repóker de ases.
pub const TOP: u8 = (HANDS - 1) as u8;
/// All five dice, as a mask of die positions.
pub const ALL_DICE: u8 = (1 << DICE) - 1;

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The hand's first player must throw all five dice, in the cup or in the open.
    FirstRoll,
    /// The receiver calls or accepts, seeing the face-up dice and the claim only.
    Decide,
    /// The player holding the cup has seen every die: throws dice not yet thrown this turn, or
    /// claims.
    Play,
    /// The game is over.
    Over,
}

/// What a player may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Throw the dice at these positions (a mask of bits 0–4), none thrown before this turn, in
    /// the cup (hidden; every other die comes out face up) or in the open (face up).
    Throw {
        /// The dice, as a mask of positions.
        dice: u8,
        /// In the open (face up) rather than in the cup.
        open: bool,
    },
    /// Pass the cup with this claim (a rung of the ladder, above the claim accepted).
    Claim(u8),
    /// Lift the cup: the claim is called a lie.
    Call,
    /// Believe the claim and take the cup.
    Accept,
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Action::Throw { dice, open } => write!(
                f,
                "throw dice {dice:05b}{}",
                if open { " in the open" } else { " in the cup" }
            ),
            Action::Claim(r) => write!(f, "claim rung {r}"),
            Action::Call => f.write_str("call"),
            Action::Accept => f.write_str("accept"),
        }
    }
}

/// A game of Póker mentiroso in progress.
#[derive(Clone, Debug)]
pub struct PokerState {
    rules: Rules,
    /// Faces 0 (the 7) to 5 (the ace), by position.
    dice: [u8; DICE],
    /// Dice in the cup (hidden), as a mask of positions.
    hidden: u8,
    /// Dice thrown this turn.
    rolled: u8,
    /// Seats that know the dice in the cup, as a mask: whoever threw them there or has looked
    /// under the cup since (every die in the cup has the same knowers: a throw in the cup takes
    /// every other die out).
    knowers: u16,
    phase: Phase,
    /// The player to act.
    holder: u8,
    /// Who made the standing claim.
    claimant: u8,
    /// The standing claim, or [`NO_CLAIM`].
    claim: u8,
    /// The claim the claimant had accepted, or [`NO_CLAIM`].
    previous: u8,
    /// The hand's first roller.
    hand_first: u8,
    /// Players in at the start of the hand.
    hand_players: u8,
    /// Players still in, as a mask of seats.
    alive: u16,
    points: [u8; MAX_PLAYERS],
    /// Seats in the order they went out.
    out: [u8; MAX_PLAYERS],
    outs: u8,
    /// The game's first roller.
    first: u8,
    hands: u32,
    counters: [i64; MAX_COUNTERS],
}

impl PokerState {
    /// A new game whose first roller is `first`.
    fn started(rules: Rules, first: u8) -> PokerState {
        let mut g = PokerState {
            rules,
            dice: [0; DICE],
            hidden: ALL_DICE,
            rolled: 0,
            knowers: 0,
            phase: Phase::FirstRoll,
            holder: first,
            claimant: first,
            claim: NO_CLAIM,
            previous: NO_CLAIM,
            hand_first: first,
            hand_players: rules.players,
            alive: ((1u32 << rules.players) - 1) as u16,
            points: [0; MAX_PLAYERS],
            out: [0; MAX_PLAYERS],
            outs: 0,
            first,
            hands: 0,
            counters: [0; MAX_COUNTERS],
        };
        g.start_hand(first);
        g
    }

    /// A new game from a match state: these points (every seat still in, below the agreed
    /// points), the first hand started by `first`.
    pub(crate) fn started_from(rules: Rules, points: &[u8], first: u8) -> PokerState {
        let mut g = PokerState::started(rules, first);
        let n = rules.players as usize;
        g.points[..n].copy_from_slice(&points[..n]);
        g.hands = points[..n].iter().map(|&p| p as u32).sum();
        g
    }

    /// A hand in progress, set up: `claimant` has passed `claim` (a rung) with these dice
    /// (faces by position) and these in the cup; the next player still in is to call or accept.
    /// Every seat is in, with no points.
    pub fn with_claim(
        rules: Rules,
        claimant: Seat,
        claim: u8,
        dice: [Face; DICE],
        hidden: u8,
    ) -> PokerState {
        PokerState::hand_from_view(
            &rules,
            &[0; MAX_PLAYERS],
            claimant,
            claim,
            dice.map(|f| f.index() as u8),
            hidden,
        )
    }

    /// A hand in progress as a player may picture it: these points (players at the agreed
    /// points are out), `claimant` (still in) has passed `claim` with these dice (faces 0–5 by
    /// position), these in the cup (which only the claimant knows); the next player in is to
    /// call or accept. For search bots playing a hand out from what they see.
    pub fn hand_from_view(
        rules: &Rules,
        points: &[u8; MAX_PLAYERS],
        claimant: Seat,
        claim: u8,
        dice: [u8; DICE],
        hidden: u8,
    ) -> PokerState {
        let n = rules.players as usize;
        let mut g = PokerState::started(*rules, claimant as u8);
        for (s, &p) in points.iter().enumerate().take(n) {
            g.points[s] = p.min(rules.points);
            if g.points[s] >= rules.points && s != claimant {
                g.alive &= !(1 << s);
                g.out[g.outs as usize] = s as u8;
                g.outs += 1;
            }
        }
        g.points[claimant] = g.points[claimant].min(rules.points - 1);
        if g.alive.count_ones() < 2 {
            // Nobody to pass to: the player after the claimant is back in.
            let next = (claimant + 1) % n;
            g.points[next] = rules.points - 1;
            g.alive |= 1 << next;
            g.outs = 0;
            for s in (0..n).filter(|&s| g.alive >> s & 1 == 0) {
                g.out[g.outs as usize] = s as u8;
                g.outs += 1;
            }
        }
        g.hands = g.points[..n].iter().map(|&p| p as u32).sum();
        g.start_hand(claimant as u8);
        g.dice = dice.map(|d| d.min(5));
        g.hidden = hidden & ALL_DICE;
        g.knowers = 1 << claimant;
        g.claim = claim.min(TOP);
        g.holder = g.next_alive(claimant as u8);
        g.phase = Phase::Decide;
        g
    }

    fn start_hand(&mut self, starter: u8) {
        self.phase = Phase::FirstRoll;
        self.holder = starter;
        self.claimant = starter;
        self.hand_first = starter;
        self.hand_players = self.alive.count_ones() as u8;
        self.claim = NO_CLAIM;
        self.previous = NO_CLAIM;
        self.rolled = 0;
        // Nothing of the last hand is shown: the first throw rolls every die.
        self.hidden = ALL_DICE;
        self.knowers = 0;
    }

    /// The next player still in after `seat`.
    #[inline]
    fn next_alive(&self, seat: u8) -> u8 {
        let n = self.rules.players;
        let mut s = seat;
        loop {
            s = (s + 1) % n;
            if self.alive >> s & 1 == 1 {
                return s;
            }
        }
    }

    /// Where the hand stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The five dice (faces 0 = the 7 … 5 = the ace), all of them: for reports and tests, not
    /// for players (see [`View`]).
    pub fn dice(&self) -> [u8; DICE] {
        self.dice
    }

    /// The dice in the cup, as a mask of positions.
    pub fn hidden(&self) -> u8 {
        self.hidden
    }

    /// The standing claim, if any.
    pub fn claim(&self) -> Option<u8> {
        (self.claim != NO_CLAIM).then_some(self.claim)
    }

    /// A seat's points (penalty points: at the agreed points a player is out).
    pub fn points(&self, seat: Seat) -> u8 {
        self.points[seat]
    }

    /// Whether a seat is still in.
    pub fn is_in(&self, seat: Seat) -> bool {
        self.alive >> seat & 1 == 1
    }

    /// Hands played.
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The code of all five dice.
    #[inline]
    fn code(&self) -> u32 {
        self.dice.iter().map(|&d| POW6[d as usize]).sum()
    }

    /// The rung of the five dice.
    #[inline]
    pub fn hand_rung(&self) -> u8 {
        tables().rung(self.code())
    }

    /// Whether rung `r` may be claimed now (the standing claim aside).
    #[inline]
    fn claimable(&self, r: u8) -> bool {
        (r as usize) < HANDS
            && (self.claim == NO_CLAIM || r > self.claim)
            && (self.rules.kickers || tables().is_named(r as usize))
    }

    /// Whether `seat` knows every die in the cup (it threw them there or has looked under the
    /// cup since); with no die in the cup, everybody does.
    #[inline]
    fn knows_cup(&self, seat: u8) -> bool {
        self.hidden == 0 || self.knowers >> seat & 1 == 1
    }

    #[inline]
    fn throw(&mut self, mask: u8, open: bool, rng: &mut Stream) {
        for i in 0..DICE {
            if mask >> i & 1 == 1 {
                self.dice[i] = uniform_below(rng, 6) as u8;
            }
        }
        if open {
            self.hidden &= !mask;
        } else {
            // Only the thrower knows what is in the cup now.
            self.hidden = mask;
            self.knowers = 1 << self.holder;
        }
        self.rolled |= mask;
    }

    /// The point goes to `loser`: out at the agreed points; the next hand starts with the
    /// player after the loser (the loser with `loser-starts`, if still in).
    fn lose(&mut self, loser: u8) {
        let c = &mut self.counters;
        let n = self.hand_players as i64;
        let first_lost = (loser == self.hand_first) as i64;
        c[Counter::FirstLost as usize] += first_lost;
        let scale = scale(self.rules.players);
        c[Counter::FirstExcessScaled as usize] += scale * first_lost - scale / n;
        if self.hand_players == self.rules.players {
            c[Counter::FullHands as usize] += 1;
            let k = (loser + self.rules.players - self.hand_first) % self.rules.players;
            c[LOST_AT + k as usize] += 1;
        }
        let mut alive = self.alive;
        while alive != 0 {
            c[SEAT_HANDS + alive.trailing_zeros() as usize] += 1;
            alive &= alive - 1;
        }
        c[SEAT_LOST + loser as usize] += 1;
        self.hands += 1;
        self.points[loser as usize] += 1;
        if self.points[loser as usize] >= self.rules.points {
            self.alive &= !(1 << loser);
            self.out[self.outs as usize] = loser;
            self.outs += 1;
        }
        if self.alive.count_ones() == 1 {
            self.phase = Phase::Over;
            self.holder = self.alive.trailing_zeros() as u8;
            return;
        }
        let starter = if self.rules.loser_starts && self.alive >> loser & 1 == 1 {
            loser
        } else {
            self.next_alive(loser)
        };
        self.start_hand(starter);
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Seat> {
        (self.phase == Phase::Over).then(|| self.alive.trailing_zeros() as usize)
    }

    /// Applies the action of the player to act ([`State::apply`]).
    #[inline]
    fn act(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, a) => Err(Illegal::new(a, "the game is over")),
            (Phase::FirstRoll, Action::Throw { dice, open }) => {
                if dice != ALL_DICE {
                    return Err(Illegal::new(
                        action,
                        "the hand's first player throws all five dice at once",
                    ));
                }
                self.throw(dice, open, rng);
                self.phase = Phase::Play;
                Ok(())
            }
            (Phase::FirstRoll, a) => Err(Illegal::new(
                a,
                "the hand's first player must first throw all five dice",
            )),
            (Phase::Decide, Action::Call) => {
                self.counters[Counter::Calls as usize] += 1;
                let loser = if self.hand_rung() >= self.claim {
                    self.holder
                } else {
                    self.counters[Counter::CallsWon as usize] += 1;
                    self.claimant
                };
                // The cup is lifted: every die is seen.
                self.hidden = 0;
                self.lose(loser);
                Ok(())
            }
            (Phase::Decide, Action::Accept) => {
                if self.claim == TOP {
                    // Nothing beats repóker de ases: believing it costs the point.
                    self.counters[Counter::TopReceived as usize] += 1;
                    self.lose(self.holder);
                } else {
                    // The receiver takes the cup and looks.
                    self.knowers |= 1 << self.holder;
                    self.phase = Phase::Play;
                }
                Ok(())
            }
            (Phase::Decide, a) => Err(Illegal::new(a, "the receiver first calls or accepts")),
            (Phase::Play, Action::Throw { dice, open }) => {
                if dice == 0 || dice & !ALL_DICE != 0 {
                    return Err(Illegal::new(action, "no such dice"));
                }
                if dice & self.rolled != 0 {
                    return Err(Illegal::new(
                        action,
                        format!(
                            "each die is thrown at most once per turn: {:05b} already thrown",
                            self.rolled
                        ),
                    ));
                }
                self.throw(dice, open, rng);
                Ok(())
            }
            (Phase::Play, Action::Claim(r)) => {
                if !self.claimable(r) {
                    return Err(Illegal::new(
                        action,
                        "not above the claim accepted, or not a claim under these rules",
                    ));
                }
                self.counters[Counter::Claims as usize] += 1;
                self.counters[Counter::Lies as usize] += (self.hand_rung() < r) as i64;
                self.previous = self.claim;
                self.claim = r;
                self.claimant = self.holder;
                self.holder = self.next_alive(self.holder);
                self.rolled = 0;
                self.phase = Phase::Decide;
                Ok(())
            }
            (Phase::Play, a) => Err(Illegal::new(
                a,
                "a player who holds the cup throws dice or claims",
            )),
        }
    }

    /// Every legal action of the player to act, into `out` (cleared first).
    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::FirstRoll => {
                for open in [false, true] {
                    out.push(Action::Throw {
                        dice: ALL_DICE,
                        open,
                    });
                }
            }
            Phase::Decide => out.extend([Action::Call, Action::Accept]),
            Phase::Play => {
                let free = ALL_DICE & !self.rolled;
                let mut m = free;
                while m != 0 {
                    for open in [false, true] {
                        out.push(Action::Throw { dice: m, open });
                    }
                    m = (m - 1) & free;
                }
                for r in 0..HANDS as u8 {
                    if self.claimable(r) {
                        out.push(Action::Claim(r));
                    }
                }
            }
        }
    }

    /// Checks every invariant; the error names the first that fails.
    fn invariants(&self) -> Result<(), String> {
        let n = self.rules.players as usize;
        if self.dice.iter().any(|&d| d as usize >= 6) {
            return Err(format!("a die shows no face: {:?}", self.dice));
        }
        if self.hidden & !ALL_DICE != 0 || self.rolled & !ALL_DICE != 0 {
            return Err("a mask names a sixth die".into());
        }
        let total: u32 = self.points[..n].iter().map(|&p| p as u32).sum();
        if total != self.hands {
            return Err(format!("{total} points after {} hands", self.hands));
        }
        for s in 0..n {
            let out = self.points[s] >= self.rules.points;
            if out == self.is_in(s) {
                return Err(format!(
                    "seat {s} has {} points and is in: {}",
                    self.points[s],
                    self.is_in(s)
                ));
            }
        }
        // Seats past the table hold no bits (a u16 holds all 16 seats; checked in u32).
        if self.alive == 0 || u32::from(self.alive) >> n != 0 {
            return Err(format!("players in: {:b}", self.alive));
        }
        if u32::from(self.knowers) >> n != 0 {
            return Err(format!(
                "seats past the table know the cup: {:b}",
                self.knowers
            ));
        }
        if self.outs as u32 + self.alive.count_ones() != n as u32 {
            return Err("players out and in do not add up".into());
        }
        if self.phase != Phase::Over {
            if !self.is_in(self.holder as usize) || !self.is_in(self.claimant as usize) {
                return Err("a player who is out holds the cup or the claim".into());
            }
            match self.phase {
                Phase::Decide if self.claim == NO_CLAIM => {
                    return Err("a receiver decides on no claim".into())
                }
                Phase::FirstRoll if self.claim != NO_CLAIM || self.rolled != 0 => {
                    return Err("a hand starts with a claim or thrown dice".into())
                }
                Phase::FirstRoll if self.hidden != ALL_DICE || self.knowers != 0 => {
                    return Err("a hand starts with dice shown or known".into())
                }
                Phase::Play if !self.knows_cup(self.holder) => {
                    return Err("the cup's holder does not know the dice in it".into())
                }
                Phase::Decide if !self.knows_cup(self.claimant) => {
                    return Err("the claimant does not know the dice passed".into())
                }
                _ => {}
            }
            if self.claim != NO_CLAIM && self.claim > TOP {
                return Err(format!("claim {} is off the ladder", self.claim));
            }
            if self.hand_players as u32 != self.alive.count_ones() {
                return Err("players left during a hand".into());
            }
        } else if self.alive.count_ones() != 1 {
            return Err("the game is over with more than one player in".into());
        }
        Ok(())
    }
}

impl State for PokerState {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    /// The first roller is `start.first`, or drawn at random from the deal stream ("se echa a
    /// suertes").
    fn deal(rules: &Rules, start: &Start, rng: &mut Stream) -> PokerState {
        let first = start
            .first
            .unwrap_or_else(|| uniform_below(rng, rules.players as usize));
        PokerState::started(*rules, first as u8)
    }
    /// The dice in the cup thrown afresh unless the viewer knows them (each die uniform: no
    /// inference from the claims); everything else is public. The lies told so far are not:
    /// the dealt game counts none.
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> PokerState {
        let mut g = view.game.clone();
        if !view.sees_all() {
            for i in 0..DICE {
                if g.hidden >> i & 1 == 1 {
                    g.dice[i] = uniform_below(rng, 6) as u8;
                }
            }
        }
        g.counters[Counter::Lies as usize] = 0;
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The player to act: the first roller, the receiver deciding or the cup's holder (the
    /// winner once the game is over).
    #[inline]
    fn to_act(&self) -> Seat {
        self.holder as usize
    }
    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        View {
            game: self,
            seat: seat as u8,
        }
    }
    #[inline]
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out)
    }
    #[inline]
    fn apply(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        self.act(action, rng)
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(|w| Outcome::Event(1 << w))
    }
    fn first_player(&self) -> Seat {
        self.first as usize
    }
    /// Hands played.
    fn length(&self) -> u64 {
        self.hands as u64
    }
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        *out = self.counters;
    }
    /// The winner first, then the players in the reverse order they went out.
    fn places(&self, out: &mut [u8; MAX_SEATS]) -> bool {
        if let Some(w) = self.winner() {
            out[w] = 0;
            for (k, &s) in self.out[..self.outs as usize].iter().rev().enumerate() {
                out[s as usize] = k as u8 + 1;
            }
        }
        true
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

/// What one player sees: the claim and the one it was made over, the face-up dice, which dice
/// were thrown this turn, the points and who is in; the dice in the cup only if the viewer knows
/// them (see [`View::sees_all`]).
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a PokerState,
    seat: u8,
}

impl PlayerView for View<'_> {
    fn seat(&self) -> Seat {
        self.seat as usize
    }
}

/// Exactly what the seat sees: the rules, the hand's phase, who is to act, the claim, who made
/// it and the claim it was made over, each die (its face if face up or known to the viewer, `?`
/// in the cup otherwise), who knows the dice in the cup (nobody once the cup is empty), the dice
/// thrown this turn, the points,
/// who is in and who went out in what order, who threw first in the hand and in the game, and
/// the hands played.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let n = g.rules.players as usize;
        let known = self.sees_all();
        let dice: Vec<String> = (0..DICE)
            .map(|i| {
                let face = Face::from_index(g.dice[i] as usize).expect("a face");
                match (g.hidden >> i & 1 == 1, known) {
                    (false, _) => face.to_string(),
                    (true, true) => format!("{face} in the cup"),
                    (true, false) => "? in the cup".to_string(),
                }
            })
            .collect();
        let seats = |mask: u16| -> Vec<usize> { (0..n).filter(|&s| mask >> s & 1 == 1).collect() };
        // Who knows an empty cup changes nothing (everybody sees every die; the next throw in
        // the cup names its knowers afresh): shown as nobody.
        let knowers = if g.hidden == 0 { 0 } else { g.knowers };
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field("phase", &g.phase)
            .field("to act", &g.holder)
            .field("claim", &self.claim())
            .field("claimant", &g.claimant)
            .field("claim accepted before", &self.previous_claim())
            .field("dice", &dice)
            .field("the cup known to", &seats(knowers))
            .field("thrown this turn", &format_args!("{:05b}", g.rolled))
            .field("points", &&g.points[..n])
            .field("in", &seats(g.alive))
            .field("out in order", &&g.out[..g.outs as usize])
            .field("hand's first roller", &g.hand_first)
            .field("players in the hand", &g.hand_players)
            .field("first roller", &g.first)
            .field("hands", &g.hands)
            .finish()
    }
}

/// Everything one player sees of a game in progress, as plain values: what a position
/// (`super::position`) writes and reads. [`View::seen`] takes it from a view and
/// [`PokerState::from_seen`] makes a game whose viewer sees exactly it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    /// The rules.
    pub(crate) rules: Rules,
    /// The viewer.
    pub(crate) seat: Seat,
    /// Where the hand stands.
    pub(crate) phase: Phase,
    /// The player to act.
    pub(crate) to_act: Seat,
    /// The standing claim, if any.
    pub(crate) claim: Option<u8>,
    /// The claim the claimant had accepted before making theirs, if any.
    pub(crate) previous: Option<u8>,
    /// Who made the standing claim (the hand's first roller before any claim).
    pub(crate) claimant: Seat,
    /// Each die's face (0 = the 7 … 5 = the ace) by position, where the viewer sees it.
    pub(crate) dice: [Option<u8>; DICE],
    /// Dice in the cup, as a mask of positions.
    pub(crate) hidden: u8,
    /// Seats that know the dice in the cup, as a mask (none when the cup is empty).
    pub(crate) knowers: u16,
    /// Dice thrown this turn by the player holding the cup, as a mask of positions.
    pub(crate) thrown: u8,
    /// Points by seat (the first `rules.players`).
    pub(crate) points: [u8; MAX_PLAYERS],
    /// The seats out, in the order they went out.
    pub(crate) out: Vec<u8>,
    /// The hand's first roller.
    pub(crate) hand_first: Seat,
    /// The game's first roller.
    pub(crate) first: Seat,
}

impl View<'_> {
    /// Everything this view shows, as plain values.
    pub(crate) fn seen(&self) -> Seen {
        let g = self.game;
        let known = self.sees_all();
        Seen {
            rules: g.rules,
            seat: self.seat as usize,
            phase: g.phase,
            to_act: g.holder as usize,
            claim: self.claim(),
            previous: self.previous_claim(),
            claimant: g.claimant as usize,
            dice: std::array::from_fn(|i| (g.hidden >> i & 1 == 0 || known).then_some(g.dice[i])),
            hidden: g.hidden,
            knowers: if g.hidden == 0 { 0 } else { g.knowers },
            thrown: g.rolled,
            points: g.points,
            out: g.out[..g.outs as usize].to_vec(),
            hand_first: g.hand_first as usize,
            first: g.first as usize,
        }
    }
}

impl PokerState {
    /// A game whose viewer `seen.seat` sees exactly `seen` (check the result with
    /// [`State::check_invariants`]: values that do not fit together make a game that fails
    /// them): the dice the viewer does not see thrown from `rng`, each uniform, in position
    /// order; the players at the agreed points out; the lies told so far none.
    pub(crate) fn from_seen(seen: &Seen, rng: &mut Stream) -> PokerState {
        let rules = seen.rules;
        let n = (rules.players as usize).min(MAX_PLAYERS);
        let mut g = PokerState::started(rules, seen.first.min(n.saturating_sub(1)) as u8);
        let mut alive = 0u16;
        for s in 0..n {
            g.points[s] = seen.points[s].min(rules.points);
            if g.points[s] < rules.points {
                alive |= 1 << s;
            }
        }
        g.alive = alive;
        g.outs = seen.out.len().min(MAX_PLAYERS) as u8;
        for (slot, &s) in g.out.iter_mut().zip(&seen.out) {
            *slot = s;
        }
        g.hands = g.points[..n].iter().map(|&p| p as u32).sum();
        g.phase = seen.phase;
        g.holder = seen.to_act as u8;
        g.claimant = seen.claimant as u8;
        g.claim = seen.claim.unwrap_or(NO_CLAIM);
        g.previous = seen.previous.unwrap_or(NO_CLAIM);
        g.hand_first = seen.hand_first as u8;
        g.hand_players = alive.count_ones() as u8;
        g.hidden = seen.hidden & ALL_DICE;
        g.knowers = seen.knowers;
        g.rolled = seen.thrown & ALL_DICE;
        for (i, d) in seen.dice.iter().enumerate() {
            g.dice[i] = match d {
                Some(f) => (*f).min(5),
                None => uniform_below(rng, 6) as u8,
            };
        }
        g
    }
}

impl View<'_> {
    /// The viewer's seat.
    #[inline]
    pub fn me(&self) -> Seat {
        self.seat as usize
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.game.rules
    }

    /// Where the hand stands.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.game.phase
    }

    /// Whether the viewer is to act.
    #[inline]
    pub fn to_act(&self) -> bool {
        self.game.holder == self.seat
    }

    /// The standing claim (the one the viewer is deciding on, or holds the cup under), if any.
    #[inline]
    pub fn claim(&self) -> Option<u8> {
        self.game.claim()
    }

    /// The claim the claimant had accepted before making theirs, if any.
    #[inline]
    pub fn previous_claim(&self) -> Option<u8> {
        (self.game.previous != NO_CLAIM).then_some(self.game.previous)
    }

    /// Who made the standing claim.
    #[inline]
    pub fn claimant(&self) -> Seat {
        self.game.claimant as usize
    }

    /// The face-up dice: the face of each position not in the cup.
    pub fn face_up(&self) -> [Option<Face>; DICE] {
        std::array::from_fn(|i| {
            (self.game.hidden >> i & 1 == 0)
                .then(|| Face::from_index(self.game.dice[i] as usize).expect("a face"))
        })
    }

    /// The face-up dice as a code (see [`super::tables`]).
    #[inline]
    pub fn face_up_code(&self) -> u32 {
        let mut c = 0;
        for i in 0..DICE {
            if self.game.hidden >> i & 1 == 0 {
                c += POW6[self.game.dice[i] as usize];
            }
        }
        c
    }

    /// Dice in the cup, as a mask of positions.
    #[inline]
    pub fn hidden(&self) -> u8 {
        self.game.hidden
    }

    /// Whether the viewer knows every die: none is in the cup, or the viewer threw the dice in
    /// the cup there or has looked under the cup since — the cup's holder (after the hand's
    /// first throw or after accepting), the claimant watching the receiver decide, and a player
    /// whose dice are still in the cup as they left them. A receiver deciding does not, unless
    /// the dice in the cup are still their own.
    #[inline]
    pub fn sees_all(&self) -> bool {
        let g = self.game;
        // The cup's holder in play always knows (an invariant `check_invariants` tests): the
        // question a bot asks on its own turn costs one comparison, as before the mask.
        let holder_in_play = g.phase == Phase::Play && g.holder == self.seat;
        debug_assert!(!holder_in_play || g.knows_cup(self.seat));
        holder_in_play || g.knows_cup(self.seat)
    }

    /// Seats that know the dice in the cup (public: everybody sees who has looked), as a mask.
    #[inline]
    pub fn cup_known_to(&self) -> u16 {
        self.game.knowers
    }

    /// All five dice (faces 0 = the 7 … 5 = the ace, by position), if the viewer knows them.
    #[inline]
    pub fn dice(&self) -> Option<[u8; DICE]> {
        self.sees_all().then_some(self.game.dice)
    }

    /// Dice thrown this turn by the player holding the cup, as a mask of positions (what the
    /// viewer has thrown, when it holds the cup).
    #[inline]
    pub fn thrown(&self) -> u8 {
        if self.to_act() {
            self.game.rolled
        } else {
            0
        }
    }

    /// Whether the viewer must throw the hand's first five dice.
    #[inline]
    pub fn first_throw(&self) -> bool {
        self.game.phase == Phase::FirstRoll && self.to_act()
    }

    /// Whether the viewer may claim rung `r` now.
    #[inline]
    pub fn may_claim(&self, r: u8) -> bool {
        self.game.claimable(r)
    }

    /// A seat's points.
    #[inline]
    pub fn points(&self, seat: Seat) -> u8 {
        self.game.points[seat]
    }

    /// Whether a seat is still in.
    #[inline]
    pub fn is_in(&self, seat: Seat) -> bool {
        self.game.is_in(seat)
    }

    /// Players still in.
    #[inline]
    pub fn players_in(&self) -> usize {
        self.game.alive.count_ones() as usize
    }

    /// The number of legal actions of the viewer, and the `k`-th of them (the order of
    /// [`State::legal_actions`]), without building the list.
    pub fn nth_legal(&self, pick: impl FnOnce(usize) -> usize) -> Action {
        let g = self.game;
        match g.phase {
            Phase::Over => Action::Call,
            Phase::FirstRoll => Action::Throw {
                dice: ALL_DICE,
                open: pick(2) == 1,
            },
            Phase::Decide => [Action::Call, Action::Accept][pick(2)],
            Phase::Play => {
                let free = ALL_DICE & !g.rolled;
                let throws = 2 * ((1usize << free.count_ones()) - 1);
                let claims = (0..HANDS as u8).filter(|&r| g.claimable(r)).count();
                let mut k = pick(throws + claims);
                if k < throws {
                    // Sub-masks of `free` from the largest down, each in the cup then open.
                    let mut m = free;
                    for _ in 0..k / 2 {
                        m = (m - 1) & free;
                    }
                    return Action::Throw {
                        dice: m,
                        open: k % 2 == 1,
                    };
                }
                k -= throws;
                let r = (0..HANDS as u8)
                    .filter(|&r| g.claimable(r))
                    .nth(k)
                    .expect("k counts the claims");
                Action::Claim(r)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_stream;

    fn faces(s: &str) -> [Face; DICE] {
        let v: Vec<Face> = s
            .chars()
            .map(|c| Face::parse(&c.to_string()).unwrap())
            .collect();
        v.try_into().unwrap()
    }

    #[test]
    fn a_called_lie_costs_the_claimant_and_a_called_truth_the_caller() {
        let rules = Rules::standard(3);
        let rung = |s: &str| crate::games::poker::hand::Claim::parse(s).unwrap().rung() as u8;
        let mut rng = base_stream(1);
        // Seat 0 passed "trío de reyes" on KKK87: true.
        let mut g =
            PokerState::with_claim(rules, 0, rung("trío de reyes"), faces("KKK87"), ALL_DICE);
        assert_eq!(g.to_act(), 1);
        assert!(
            g.view(1).dice().is_none(),
            "the receiver decides without looking"
        );
        g.apply(Action::Call, &mut rng).unwrap();
        assert_eq!((g.points(0), g.points(1)), (0, 1));
        // The player after the loser starts.
        assert_eq!((g.phase(), g.to_act()), (Phase::FirstRoll, 2));
        // A lie called.
        let mut g =
            PokerState::with_claim(rules, 2, rung("póker de ases"), faces("KKK87"), ALL_DICE);
        g.apply(Action::Call, &mut rng).unwrap();
        assert_eq!(g.points(2), 1);
        assert_eq!(g.to_act(), 0);
        // Accepting repóker de ases costs the point.
        let mut g = PokerState::with_claim(rules, 0, TOP, faces("KKK87"), ALL_DICE);
        g.apply(Action::Accept, &mut rng).unwrap();
        assert_eq!(g.points(1), 1);
        let mut c = [0; MAX_COUNTERS];
        g.counters(&mut c);
        assert_eq!(c[Counter::TopReceived as usize], 1);
    }

    #[test]
    fn throws_in_the_cup_show_the_kept_dice_and_each_die_is_thrown_once() {
        let rules = Rules::standard(2);
        let mut rng = base_stream(2);
        let mut g = PokerState::with_claim(rules, 0, 10, faces("AAKQJ"), ALL_DICE);
        g.apply(Action::Accept, &mut rng).unwrap();
        // The receiver has looked; the claimant's dice are still in the cup.
        assert!(g.view(1).sees_all() && g.view(0).dice().is_some());
        // The J in the cup: the other four come out face up, and only seat 1 knows the J.
        g.apply(
            Action::Throw {
                dice: 0b10000,
                open: false,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.hidden(), 0b10000);
        assert!(g.view(1).sees_all() && g.view(0).dice().is_none());
        assert_eq!(g.view(0).face_up().iter().flatten().count(), 4);
        assert!(g
            .apply(
                Action::Throw {
                    dice: 0b10000,
                    open: true
                },
                &mut rng
            )
            .is_err());
        // The Q in the open: the J stays hidden.
        g.apply(
            Action::Throw {
                dice: 0b01000,
                open: true,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.hidden(), 0b10000);
        // Claims must be above the one accepted.
        assert!(g.apply(Action::Claim(10), &mut rng).is_err());
        g.apply(Action::Claim(11), &mut rng).unwrap();
        assert_eq!(
            (g.phase(), g.to_act(), g.view(0).thrown()),
            (Phase::Decide, 0, 0)
        );
        g.check_invariants().unwrap();
    }

    #[test]
    fn games_end_with_one_player_in_and_places_in_reverse_order_out() {
        let rules = Rules::standard(4);
        let mut rng = base_stream(3);
        let mut legal = Vec::new();
        for _ in 0..200 {
            let mut g = PokerState::deal(&rules, &Start::default(), &mut rng);
            while g.outcome().is_none() {
                g.legal_actions(&mut legal);
                let a = legal[uniform_below(&mut rng, legal.len())];
                g.apply(a, &mut rng).unwrap();
                g.check_invariants().unwrap();
            }
            let w = g.winner().unwrap();
            assert!(g.points(w) < 3);
            let mut places = [0u8; crate::play::MAX_SEATS];
            assert!(g.places(&mut places));
            let mut sorted = places[..4].to_vec();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3]);
            assert_eq!(places[w], 0);
            assert!((9..=11).contains(&g.hands()), "{}", g.hands());
        }
    }

    #[test]
    fn the_nth_legal_action_is_the_list_s() {
        let rules = Rules {
            kickers: false,
            ..Rules::standard(3)
        };
        let mut rng = base_stream(4);
        let mut legal = Vec::new();
        let mut g = PokerState::with_claim(rules, 0, 40, faces("AAKQJ"), ALL_DICE);
        g.apply(Action::Accept, &mut rng).unwrap();
        g.apply(
            Action::Throw {
                dice: 0b00100,
                open: false,
            },
            &mut rng,
        )
        .unwrap();
        g.legal_actions(&mut legal);
        for (k, &a) in legal.iter().enumerate() {
            assert_eq!(
                g.view(1).nth_legal(|n| {
                    assert_eq!(n, legal.len());
                    k
                }),
                a
            );
            if let Action::Claim(r) = a {
                assert!(tables().is_named(r as usize) && r > 40);
            }
        }
    }

    #[test]
    fn the_dice_in_the_cup_are_known_to_whoever_put_them_there_or_looked() {
        let rules = Rules::standard(3);
        let mut rng = base_stream(5);
        // Seat 0 passed with three dice in the cup: it knows them, the receiver does not.
        let mut g = PokerState::with_claim(rules, 0, 10, faces("AAKQJ"), 0b11100);
        assert!(g.view(0).sees_all() && g.view(0).dice().is_some());
        assert!(!g.view(1).sees_all() && !g.view(2).sees_all());
        let shown = format!("{:?}", g.view(1));
        assert!(
            shown.contains("? in the cup") && !shown.contains("Q in the cup"),
            "{shown}"
        );
        assert!(format!("{:?}", g.view(0)).contains("Q in the cup"));
        // Seat 1 accepts and looks; throws a face-up die in the open: seat 0's dice are still
        // in the cup, so seat 0 still knows them, and so does seat 1.
        g.apply(Action::Accept, &mut rng).unwrap();
        g.apply(
            Action::Throw {
                dice: 0b00001,
                open: true,
            },
            &mut rng,
        )
        .unwrap();
        assert!(g.view(0).sees_all() && g.view(1).sees_all() && !g.view(2).sees_all());
        // Seat 1 passes on: seat 2 decides without knowing; 0 and 1 watch knowing.
        g.apply(Action::Claim(11), &mut rng).unwrap();
        assert_eq!((g.phase(), g.to_act()), (Phase::Decide, 2));
        assert!(g.view(0).sees_all() && g.view(1).sees_all() && !g.view(2).sees_all());
        g.check_invariants().unwrap();
        // Seat 2 accepts and throws a die in the cup: only seat 2 knows what is in it now.
        g.apply(Action::Accept, &mut rng).unwrap();
        g.apply(
            Action::Throw {
                dice: 0b00010,
                open: false,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.hidden(), 0b00010);
        assert!(g.view(2).sees_all() && !g.view(0).sees_all() && !g.view(1).sees_all());
        // A call lifts the cup: everybody sees every die.
        g.apply(Action::Claim(12), &mut rng).unwrap();
        g.apply(Action::Call, &mut rng).unwrap();
        assert_eq!(g.phase(), Phase::FirstRoll);
        assert!((0..3).all(|s| !g.view(s).sees_all()));
        g.check_invariants().unwrap();
    }

    #[test]
    fn a_game_dealt_for_a_view_rolls_only_what_the_viewer_does_not_know() {
        let rules = Rules::standard(3);
        let mut rng = base_stream(6);
        let g = PokerState::with_claim(rules, 0, 10, faces("AAKQJ"), 0b11100);
        let mut varied = false;
        for _ in 0..20 {
            for p in 0..3 {
                let d = PokerState::deal_for_view(&g.view(p), &mut rng);
                assert_eq!(format!("{:?}", d.view(p)), format!("{:?}", g.view(p)));
                assert_eq!(d.dice()[..2], g.dice()[..2], "face-up dice stay");
                if p == 0 {
                    assert_eq!(d.dice(), g.dice(), "the claimant knows the dice");
                } else {
                    varied |= d.dice() != g.dice();
                    // What the claimant sees changes with the dice dealt.
                    let same = d.dice() == g.dice();
                    assert_eq!(
                        format!("{:?}", d.view(0)) == format!("{:?}", g.view(0)),
                        same
                    );
                }
                d.check_invariants().unwrap();
            }
        }
        assert!(varied);
    }
}
