//! The Póker mentiroso engine (`../shared/RULES.md` §4) as a state machine: hands, claims,
//! calls, points and eliminations, with what each player sees.
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
//! cup. Only the player holding the cup after accepting (or after the first throw) sees the
//! hidden dice.

use serde::{Deserialize, Serialize};

use super::hand::{Face, DICE, HANDS};
use super::rules::{Rules, MAX_PLAYERS};
use super::tables::{tables, POW6};
use crate::play::{Illegal, Outcome, Seat, Start, MAX_COUNTERS};
use crate::rng::{uniform_below, Stream};

/// No claim stands (the start of a hand).
pub const NO_CLAIM: u8 = u8::MAX;
/// The top rung: repóker de ases.
pub const TOP: u8 = (HANDS - 1) as u8;
/// All five dice, as a mask of die positions.
pub const ALL_DICE: u8 = (1 << DICE) - 1;

/// The game's own counters, in order (per game).
pub const COUNTERS: &[&str] = &[
    "claims",
    "lies",
    "calls",
    "calls_won",
    "top_received",
    "first_lost",
    "first_excess_840",
    "full_hands",
    "lost_at_0",
    "lost_at_1",
    "lost_at_2",
    "lost_at_3",
    "lost_at_4",
    "lost_at_5",
    "lost_at_6",
    "lost_at_7",
    "seat_hands_0",
    "seat_hands_1",
    "seat_hands_2",
    "seat_hands_3",
    "seat_hands_4",
    "seat_hands_5",
    "seat_hands_6",
    "seat_hands_7",
    "seat_lost_0",
    "seat_lost_1",
    "seat_lost_2",
    "seat_lost_3",
    "seat_lost_4",
    "seat_lost_5",
    "seat_lost_6",
    "seat_lost_7",
];
/// Claims made.
pub const C_CLAIMS: usize = 0;
/// Claims made above the claimant's dice (lies).
pub const C_LIES: usize = 1;
/// Claims called.
pub const C_CALLS: usize = 2;
/// Calls that found a lie (the claimant took the point).
pub const C_CALLS_WON: usize = 3;
/// Repóker de ases accepted (the receiver took the point).
pub const C_TOP: usize = 4;
/// Hands lost by the hand's first roller.
pub const C_FIRST_LOST: usize = 5;
/// Σ over hands of 840 · (first roller lost) − 840 / players in the hand: the first roller's
/// losses beyond the fair share, in 840ths (840 is divisible by every table size 2–8).
pub const C_FIRST_EXCESS: usize = 6;
/// Hands played with every player still in.
pub const C_FULL_HANDS: usize = 7;
/// Of those, hands lost by the player k seats after the first roller (k = 0…7).
pub const C_LOST_AT: usize = 8;
/// Hands seat s took part in (s = 0…7).
pub const C_SEAT_HANDS: usize = C_LOST_AT + MAX_PLAYERS;
/// Hands seat s lost (s = 0…7).
pub const C_SEAT_LOST: usize = C_SEAT_HANDS + MAX_PLAYERS;
/// The scale of [`C_FIRST_EXCESS`].
pub const SCALE: i64 = 840;

const _: () =
    assert!(COUNTERS.len() <= MAX_COUNTERS && C_SEAT_LOST + MAX_PLAYERS == COUNTERS.len());

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

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Faces 0 (the 7) to 5 (the ace), by position.
    dice: [u8; DICE],
    /// Dice in the cup (hidden), as a mask of positions.
    hidden: u8,
    /// Dice thrown this turn.
    rolled: u8,
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

impl Game {
    /// A new game: the first roller is `first`, or drawn at random ("se echa a suertes").
    pub fn new(rules: Rules, first: Option<Seat>, rng: &mut Stream) -> Game {
        let first = first.unwrap_or_else(|| uniform_below(rng, rules.players as usize)) as u8;
        let mut g = Game {
            rules,
            dice: [0; DICE],
            hidden: ALL_DICE,
            rolled: 0,
            phase: Phase::FirstRoll,
            holder: first,
            claimant: first,
            claim: NO_CLAIM,
            previous: NO_CLAIM,
            hand_first: first,
            hand_players: rules.players,
            alive: (1u16 << rules.players) - 1,
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

    /// A hand in progress, set up: `claimant` has passed `claim` (a rung) with these dice
    /// (faces by position) and these in the cup; the next player still in is to call or accept.
    /// Every seat is in, with no points.
    pub fn with_claim(
        rules: Rules,
        claimant: Seat,
        claim: u8,
        dice: [Face; DICE],
        hidden: u8,
    ) -> Game {
        Game::hand_from_view(
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
    /// position), these in the cup; the next player in is to call or accept. For search bots
    /// playing a hand out from what they see.
    pub fn hand_from_view(
        rules: &Rules,
        points: &[u8; MAX_PLAYERS],
        claimant: Seat,
        claim: u8,
        dice: [u8; DICE],
        hidden: u8,
    ) -> Game {
        let n = rules.players as usize;
        let mut g = Game::new(*rules, Some(claimant), &mut crate::rng::base_stream(0));
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

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
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

    /// A seat's points.
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

    /// What `seat` sees.
    #[inline]
    pub fn view(&self, seat: Seat) -> View<'_> {
        View {
            game: self,
            seat: seat as u8,
        }
    }

    #[inline]
    fn throw(&mut self, mask: u8, open: bool, rng: &mut Stream) {
        for i in 0..DICE {
            if mask >> i & 1 == 1 {
                self.dice[i] = uniform_below(rng, 6) as u8;
            }
        }
        self.hidden = if open { self.hidden & !mask } else { mask };
        self.rolled |= mask;
    }

    /// The point goes to `loser`: out at the agreed points; the next hand starts with the
    /// player after the loser (the loser with `loser-starts`, if still in).
    fn lose(&mut self, loser: u8) {
        let c = &mut self.counters;
        let n = self.hand_players as i64;
        let first_lost = (loser == self.hand_first) as i64;
        c[C_FIRST_LOST] += first_lost;
        c[C_FIRST_EXCESS] += SCALE * first_lost - SCALE / n;
        if self.hand_players == self.rules.players {
            c[C_FULL_HANDS] += 1;
            let k = (loser + self.rules.players - self.hand_first) % self.rules.players;
            c[C_LOST_AT + k as usize] += 1;
        }
        let mut alive = self.alive;
        while alive != 0 {
            c[C_SEAT_HANDS + alive.trailing_zeros() as usize] += 1;
            alive &= alive - 1;
        }
        c[C_SEAT_LOST + loser as usize] += 1;
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

    /// Applies the action of the player to act (see [`crate::play::State::apply`]).
    pub fn act(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, _) => Err(Illegal("the game is over".into())),
            (Phase::FirstRoll, Action::Throw { dice, open }) => {
                if dice != ALL_DICE {
                    return Err(Illegal(format!(
                        "the hand's first player throws all five dice at once (got mask {dice:05b})"
                    )));
                }
                self.throw(dice, open, rng);
                self.phase = Phase::Play;
                Ok(())
            }
            (Phase::FirstRoll, a) => Err(Illegal(format!(
                "{a:?}: the hand's first player must first throw all five dice"
            ))),
            (Phase::Decide, Action::Call) => {
                self.counters[C_CALLS] += 1;
                let loser = if self.hand_rung() >= self.claim {
                    self.holder
                } else {
                    self.counters[C_CALLS_WON] += 1;
                    self.claimant
                };
                self.lose(loser);
                Ok(())
            }
            (Phase::Decide, Action::Accept) => {
                if self.claim == TOP {
                    // Nothing beats repóker de ases: believing it costs the point.
                    self.counters[C_TOP] += 1;
                    self.lose(self.holder);
                } else {
                    self.phase = Phase::Play;
                }
                Ok(())
            }
            (Phase::Decide, a) => Err(Illegal(format!(
                "{a:?}: the receiver first calls or accepts"
            ))),
            (Phase::Play, Action::Throw { dice, open }) => {
                if dice == 0 || dice & !ALL_DICE != 0 {
                    return Err(Illegal(format!("no such dice: mask {dice:#b}")));
                }
                if dice & self.rolled != 0 {
                    return Err(Illegal(format!(
                        "each die is thrown at most once per turn (mask {dice:05b}, already thrown {:05b})",
                        self.rolled
                    )));
                }
                self.throw(dice, open, rng);
                Ok(())
            }
            (Phase::Play, Action::Claim(r)) => {
                if !self.claimable(r) {
                    return Err(Illegal(format!(
                        "claim {r} is not above the claim accepted ({}) or not a claim under these rules",
                        self.claim
                    )));
                }
                self.counters[C_CLAIMS] += 1;
                self.counters[C_LIES] += (self.hand_rung() < r) as i64;
                self.previous = self.claim;
                self.claim = r;
                self.claimant = self.holder;
                self.holder = self.next_alive(self.holder);
                self.rolled = 0;
                self.phase = Phase::Decide;
                Ok(())
            }
            (Phase::Play, a) => Err(Illegal(format!(
                "{a:?}: a player who holds the cup throws dice or claims"
            ))),
        }
    }

    /// Appends every legal action of the player to act.
    pub fn legal(&self, out: &mut Vec<Action>) {
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
    pub fn check(&self) -> Result<(), String> {
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
        if self.alive == 0 || self.alive >> n != 0 {
            return Err(format!("players in: {:b}", self.alive));
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

impl crate::play::State for Game {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    /// The first roller is `start.first`, or drawn at random from the deal stream.
    fn deal(rules: &Rules, start: &Start, rng: &mut Stream) -> Game {
        Game::new(*rules, start.first, rng)
    }
    #[inline]
    /// The dice in the cup rolled afresh unless the viewer has seen them.
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> Game {
        let mut g = view.game.clone();
        if !view.sees_all() {
            for i in 0..DICE {
                if g.hidden >> i & 1 == 1 {
                    g.dice[i] = uniform_below(rng, 6) as u8;
                }
            }
        }
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn to_act(&self) -> Seat {
        self.holder as usize
    }
    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        Game::view(self, seat)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out)
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
    fn length(&self) -> u64 {
        self.hands as u64
    }
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        *out = self.counters;
    }
    /// The winner first, then the players in the reverse order they went out.
    fn places(&self, out: &mut [u8; crate::play::MAX_SEATS]) -> bool {
        if let Some(w) = self.winner() {
            out[w] = 0;
            for (k, &s) in self.out[..self.outs as usize].iter().rev().enumerate() {
                out[s as usize] = k as u8 + 1;
            }
        }
        true
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.check()
    }
}

/// What one player sees: the claim, the face-up dice, points; the hidden dice only for the
/// player holding the cup after accepting (or after the first throw).
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    game: &'a Game,
    seat: u8,
}

impl crate::play::PlayerView for View<'_> {
    fn seat(&self) -> Seat {
        self.seat as usize
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

    /// Whether the viewer has seen every die: they hold the cup after accepting or after the
    /// hand's first throw.
    #[inline]
    pub fn sees_all(&self) -> bool {
        self.game.phase == Phase::Play && self.game.holder == self.seat
    }

    /// All five dice (faces 0 = the 7 … 5 = the ace, by position), if the viewer has seen them.
    #[inline]
    pub fn dice(&self) -> Option<[u8; DICE]> {
        self.sees_all().then_some(self.game.dice)
    }

    /// Dice the viewer has thrown this turn, as a mask of positions.
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
    /// [`Game::legal`]), without building the list.
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
    use crate::play::State;
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
        let mut g = Game::with_claim(rules, 0, rung("trío de reyes"), faces("KKK87"), ALL_DICE);
        assert_eq!(g.to_act(), 1);
        assert!(
            g.view(1).dice().is_none(),
            "the receiver decides without looking"
        );
        g.act(Action::Call, &mut rng).unwrap();
        assert_eq!((g.points(0), g.points(1)), (0, 1));
        // The player after the loser starts.
        assert_eq!((g.phase(), g.to_act()), (Phase::FirstRoll, 2));
        // A lie called.
        let mut g = Game::with_claim(rules, 2, rung("póker de ases"), faces("KKK87"), ALL_DICE);
        g.act(Action::Call, &mut rng).unwrap();
        assert_eq!(g.points(2), 1);
        assert_eq!(g.to_act(), 0);
        // Accepting repóker de ases costs the point.
        let mut g = Game::with_claim(rules, 0, TOP, faces("KKK87"), ALL_DICE);
        g.act(Action::Accept, &mut rng).unwrap();
        assert_eq!(g.points(1), 1);
        let mut c = [0; MAX_COUNTERS];
        g.counters(&mut c);
        assert_eq!(c[C_TOP], 1);
    }

    #[test]
    fn throws_in_the_cup_show_the_kept_dice_and_each_die_is_thrown_once() {
        let rules = Rules::standard(2);
        let mut rng = base_stream(2);
        let mut g = Game::with_claim(rules, 0, 10, faces("AAKQJ"), ALL_DICE);
        g.act(Action::Accept, &mut rng).unwrap();
        assert!(g.view(1).sees_all() && g.view(0).dice().is_none());
        // The J in the cup: the other four come out face up.
        g.act(
            Action::Throw {
                dice: 0b10000,
                open: false,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.hidden(), 0b10000);
        assert_eq!(g.view(0).face_up().iter().flatten().count(), 4);
        assert!(g
            .act(
                Action::Throw {
                    dice: 0b10000,
                    open: true
                },
                &mut rng
            )
            .is_err());
        // The Q in the open: the J stays hidden.
        g.act(
            Action::Throw {
                dice: 0b01000,
                open: true,
            },
            &mut rng,
        )
        .unwrap();
        assert_eq!(g.hidden(), 0b10000);
        // Claims must be above the one accepted.
        assert!(g.act(Action::Claim(10), &mut rng).is_err());
        g.act(Action::Claim(11), &mut rng).unwrap();
        assert_eq!(
            (g.phase(), g.to_act(), g.view(0).thrown()),
            (Phase::Decide, 0, 0)
        );
        g.check().unwrap();
    }

    #[test]
    fn games_end_with_one_player_in_and_places_in_reverse_order_out() {
        let rules = Rules::standard(4);
        let mut rng = base_stream(3);
        let mut legal = Vec::new();
        for _ in 0..200 {
            let mut g = Game::new(rules, None, &mut rng);
            while g.outcome().is_none() {
                g.legal(&mut legal);
                let a = legal[uniform_below(&mut rng, legal.len())];
                g.act(a, &mut rng).unwrap();
                g.check().unwrap();
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
        let mut g = Game::with_claim(rules, 0, 40, faces("AAKQJ"), ALL_DICE);
        g.act(Action::Accept, &mut rng).unwrap();
        g.act(
            Action::Throw {
                dice: 0b00100,
                open: false,
            },
            &mut rng,
        )
        .unwrap();
        g.legal(&mut legal);
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
}
