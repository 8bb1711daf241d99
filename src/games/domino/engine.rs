//! The engine: a game (or a match of games) of dominó as a state machine over bitmasks.
//!
//! Every set of tiles is a `u64` ([`super::tiles`]); the layout is kept as what matters for
//! play and scoring: how many open ends show each number, split into *plain* ends (the outer
//! half of a tile that is not a double) and *sides* of doubles on the board. Ends showing the
//! same number are interchangeable, so an action names the tile, the number it is placed
//! against and whether it goes on a double's side or a plain end (the two differ only in how
//! all fives counts: see [`Board::count`]).
//!
//! A player who cannot play knocks; the engine plays knocks (and draws from the boneyard, with
//! `draw=on` or while the cross is uncovered) itself, so every decision a bot is asked for is a
//! choice of a tile to play — except the rare *claim window*: with muggins, a player who could
//! call muggins on the score the player before missed is asked even when unable to play, and
//! then may only pass, calling muggins or not.
//!
//! A [`DominoState`] is one sample of the whole-game layer, played through [`State`]: a single
//! game, or with `to=N` a match of games played until a side reaches N points (each game is
//! dealt afresh and opened by the highest double, like the first). Bots see it through a
//! [`View`]; [`State::deal_for_view`] deals the tiles a player cannot see ([`View::determinize`]).

use std::fmt;

use super::rules::{Blocked, Rules, Score, MAX_MATCH_GAMES};
use super::tiles::{full_set, nth_tile, pips, Tile, TileSet, DOUBLES, NUMBERS, WITH};
use super::{Counter, SIDE_POINTS};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS};
use crate::rng::{uniform_below, Rng, Stream};

/// No number, no seat.
pub const NONE: u8 = u8::MAX;

const TILE_BITS: u16 = 0x3F;
const PASS_TILE: u16 = 63;
const SIDE: u16 = 1 << 10;
const ANNOUNCE: u16 = 1 << 11;
const MUGGINS: u16 = 1 << 12;
const CLAIMS: u16 = ANNOUNCE | MUGGINS;

/// What a player does: place a tile, or (in a claim window only) pass; with the claims made.
///
/// The engine lists every action with every claim the player can make (the score of the play
/// announced; muggins called when the player before missed a score). Leaving a claim out is
/// always allowed: that is how a player misses a score.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action(u16);

impl Action {
    /// A pass (only in a claim window), calling muggins.
    pub const PASS: Action = Action(PASS_TILE | MUGGINS);

    /// Tile `tile` placed against an open end showing `at`, on a double's side or a plain end,
    /// announcing its score.
    #[inline]
    pub const fn play(tile: Tile, at: u8, side: bool) -> Action {
        Action(tile.0 as u16 | (at as u16) << 6 | if side { SIDE } else { 0 } | ANNOUNCE)
    }
    /// The tile placed (`None` for a pass).
    #[inline]
    pub fn tile(self) -> Option<Tile> {
        let t = self.0 & TILE_BITS;
        (t != PASS_TILE).then_some(Tile(t as u8))
    }
    /// Whether it is a pass.
    #[inline]
    pub fn is_pass(self) -> bool {
        self.0 & TILE_BITS == PASS_TILE
    }
    /// The number on the end the tile is placed against.
    #[inline]
    pub fn at(self) -> u8 {
        (self.0 >> 6 & 0xF) as u8
    }
    /// Whether the tile goes on a side of a double (else on a plain end).
    #[inline]
    pub fn on_side(self) -> bool {
        self.0 & SIDE != 0
    }
    /// Whether the player announces the play's score.
    #[inline]
    pub fn announces(self) -> bool {
        self.0 & ANNOUNCE != 0
    }
    /// Whether the player calls muggins on the score the player before missed.
    #[inline]
    pub fn calls_muggins(self) -> bool {
        self.0 & MUGGINS != 0
    }
    /// The same action making only the claims asked for.
    #[inline]
    pub fn with_claims(self, announce: bool, muggins: bool) -> Action {
        Action(
            self.0 & !CLAIMS
                | if announce && !self.is_pass() {
                    ANNOUNCE
                } else {
                    0
                }
                | if muggins { MUGGINS } else { 0 },
        )
    }
    /// The action without its claims (what makes it legal or not).
    #[inline]
    pub fn move_only(self) -> Action {
        Action(self.0 & !CLAIMS)
    }
    /// The raw code.
    pub fn code(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tile() {
            None => f.write_str("pass")?,
            Some(t) => write!(
                f,
                "{t} on {}{}",
                self.at(),
                if self.on_side() { " (side)" } else { "" }
            )?,
        }
        if self.calls_muggins() {
            f.write_str(", muggins")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

const fn playable_table() -> [TileSet; 1 << NUMBERS] {
    let mut table = [0u64; 1 << NUMBERS];
    let mut numbers = 0;
    while numbers < 1 << NUMBERS {
        let mut m = 0;
        let mut n = 0;
        while n < NUMBERS {
            if numbers >> n & 1 == 1 {
                m |= WITH[n];
            }
            n += 1;
        }
        table[numbers] = m;
        numbers += 1;
    }
    table
}

/// `PLAYABLE[numbers]`: the tiles showing one of the numbers in the bit set `numbers`.
static PLAYABLE: [TileSet; 1 << NUMBERS] = playable_table();

/// The layout, as far as play and scoring need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Board {
    /// Plain open ends showing each number (the outer half of a tile that is not a double);
    /// 16 entries so that indexing by `n & 15` needs no bounds check.
    plain: [u8; 16],
    /// Open sides of the double of each number, if it is on the board.
    sides: [u8; 16],
    /// Sides of the double of each number that are built on (the one it was played against
    /// included).
    built: [u8; 16],
    /// Numbers with a plain open end.
    plain_open: u16,
    /// Numbers whose double has an open side.
    side_open: u16,
    /// The tiles that can be placed (a number shows on a playable end).
    playable: TileSet,
    /// The open-end total as all fives counts it.
    count: u16,
    /// The number of the opening double while the cross (`--cross`) is not covered on all four
    /// sides; [`NONE`] otherwise.
    cross: u8,
}

impl Board {
    /// An empty board.
    pub fn empty() -> Board {
        Board {
            cross: NONE,
            ..Board::default()
        }
    }

    /// The board with these open ends, by number: `plain[n]` plain ends showing `n`, `sides[n]`
    /// open sides of the double `n-n` and `built[n]` of its sides built on (both 0 when `n-n`
    /// is not on the board), and the number of the uncovered cross, if any. The open-end total
    /// and the playable tiles follow from them (positions: [`DominoState::at_position`]).
    pub fn from_ends(
        plain: [u8; NUMBERS],
        sides: [u8; NUMBERS],
        built: [u8; NUMBERS],
        cross: Option<u8>,
    ) -> Board {
        let mut b = Board::empty();
        for n in 0..NUMBERS {
            b.plain[n] = plain[n];
            b.sides[n] = sides[n];
            b.built[n] = built[n];
            b.count += n as u16 * plain[n] as u16;
            // A double on the board counts both halves while fewer than two sides are built on.
            if sides[n] + built[n] > 0 && built[n] < 2 {
                b.count += 2 * n as u16;
            }
            b.refresh(n);
        }
        b.cross = cross.map_or(NONE, |n| n & 15);
        b.refresh_playable();
        b
    }

    /// The open-end total: every plain end counts its number; a double counts both halves
    /// while fewer than two of its sides are built on (it lies at the end of a line, or is the
    /// opening tile); sides of a double not yet built on count nothing more. So an opening 5-5
    /// counts 10, then 5-5 with a 5-3 on one side counts 13, and with a 5-2 on the other 5.
    #[inline]
    pub fn count(&self) -> u32 {
        self.count as u32
    }

    /// Numbers with an open end.
    #[inline]
    pub fn open(&self) -> u16 {
        self.plain_open | self.side_open
    }

    /// Numbers a tile may be placed against now: every open number, or only the cross's
    /// number while it is uncovered.
    #[inline]
    pub fn numbers(&self) -> u16 {
        if self.cross != NONE {
            1 << (self.cross & 15)
        } else {
            self.plain_open | self.side_open
        }
    }

    /// The tiles that could be placed now (of any set).
    #[inline]
    pub fn playable(&self) -> TileSet {
        self.playable
    }

    /// Plain open ends showing `n`.
    pub fn plain(&self, n: u8) -> u8 {
        self.plain[(n & 15) as usize]
    }

    /// Open sides of the double `n-n`.
    pub fn sides(&self, n: u8) -> u8 {
        self.sides[(n & 15) as usize]
    }

    /// Sides of the double `n-n` built on.
    pub fn built(&self, n: u8) -> u8 {
        self.built[(n & 15) as usize]
    }

    /// The number of the uncovered cross, if any.
    pub fn cross(&self) -> Option<u8> {
        (self.cross != NONE).then_some(self.cross)
    }

    /// Open ends in all.
    pub fn ends(&self) -> u32 {
        self.plain
            .iter()
            .chain(&self.sides)
            .map(|&x| x as u32)
            .sum()
    }

    /// The kinds of end a tile may be placed on against `n`: bit 0 a plain end, bit 1 a side.
    /// Without scoring by ends the two are the same move: only one is offered (plain first).
    #[inline]
    pub fn kinds(&self, n: u8, by_ends: bool) -> u8 {
        if self.cross != NONE {
            return if n == self.cross && self.sides[(n & 15) as usize] > 0 {
                2
            } else {
                0
            };
        }
        let p = (self.plain_open >> n & 1) as u8;
        let s = (self.side_open >> n & 1) as u8;
        if by_ends {
            p | s << 1
        } else {
            p | (s & !p) << 1
        }
    }

    #[inline]
    fn refresh(&mut self, n: usize) {
        let bit = 1u16 << n;
        if self.plain[n] > 0 {
            self.plain_open |= bit;
        } else {
            self.plain_open &= !bit;
        }
        if self.sides[n] > 0 {
            self.side_open |= bit;
        } else {
            self.side_open &= !bit;
        }
    }

    #[inline]
    fn refresh_playable(&mut self) {
        self.playable = PLAYABLE[(self.numbers() & 0x3FF) as usize];
    }

    /// Opens the game with `t`: a double gets two sides, four with the cross or spinner trees.
    pub fn open_with(&mut self, t: Tile, cross: bool, tree: bool) {
        *self = Board::empty();
        if t.is_double() {
            let n = (t.high() & 15) as usize;
            self.sides[n] = if cross || tree { 4 } else { 2 };
            self.count = 2 * n as u16;
            if cross {
                self.cross = n as u8;
            }
            self.refresh(n);
        } else {
            for h in [t.high(), t.low()] {
                let h = (h & 15) as usize;
                self.plain[h] += 1;
                self.count += h as u16;
                self.refresh(h);
            }
        }
        self.refresh_playable();
    }

    /// Places `t` against an end showing `at` (a side of the double `at-at` or a plain end);
    /// with spinner trees a double opens two more lines.
    #[inline]
    pub fn place(&mut self, t: Tile, at: u8, side: bool, tree: bool) {
        let n = (at & 15) as usize;
        if side {
            self.sides[n] -= 1;
            self.built[n] += 1;
            if self.built[n] == 2 {
                self.count -= 2 * n as u16;
            }
        } else {
            self.plain[n] -= 1;
            self.count -= n as u16;
        }
        if t.is_double() {
            self.sides[n] += if tree { 3 } else { 1 };
            self.built[n] = 1;
            self.count += 2 * n as u16;
        } else {
            let o = (t.other(at) & 15) as usize;
            self.plain[o] += 1;
            self.count += o as u16;
            self.plain_open |= 1 << o;
        }
        self.refresh(n);
        if self.cross == at && self.sides[n] == 0 {
            self.cross = NONE;
        }
        self.refresh_playable();
    }
}

/// How a decided game ended, before it is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A player went out (with `--both-partners`, the second of a pair): the side wins.
    Domino(u8),
    /// Nobody can move.
    Blocked,
}

/// Tile indices in order, the deck before a shuffle.
const IDENTITY: [u8; 55] = {
    let mut a = [0u8; 55];
    let mut i = 0;
    while i < 55 {
        a[i] = i as u8;
        i += 1;
    }
    a
};

/// Deals a game: `players × hand` tiles uniformly from the set, by a partial Fisher–Yates
/// shuffle (one uniform draw per tile dealt, two from each 64-bit word), hand by hand in seat order; the rest sleep.
/// Returns the hands (seats beyond the table empty) and the sleeping tiles.
#[inline]
pub fn deal<R: Rng>(rules: &Rules, rng: &mut R) -> ([TileSet; 4], TileSet) {
    let n = rules.tiles();
    let mut tiles = IDENTITY;
    let h = rules.hand as usize;
    let dealt = rules.players as usize * h;
    // Two draws from each 64-bit word: Lemire's multiply-shift on 32 bits, with rejection
    // (exactly uniform; rejections are rarer than 1 in 70 million for 55 tiles).
    let mut i = 0;
    while i < dealt {
        let w = rng.next_u64();
        for x in [w as u32, (w >> 32) as u32] {
            if i == dealt {
                break;
            }
            let m = (n - i) as u32;
            let p = x as u64 * m as u64;
            // The threshold 2^32 mod m is below m: divide only when the low word is.
            if (p as u32) < m && (p as u32) < m.wrapping_neg() % m {
                continue;
            }
            tiles.swap(i, i + (p >> 32) as usize);
            i += 1;
        }
    }
    let mut hands = [0; 4];
    let mut all = 0;
    for (s, hand) in hands.iter_mut().enumerate().take(rules.players as usize) {
        for &t in &tiles[s * h..(s + 1) * h] {
            *hand |= 1u64 << t;
        }
        all |= *hand;
    }
    (hands, full_set(rules.set) & !all)
}

/// A game, or a match of games, in progress.
#[derive(Clone, Debug)]
pub struct DominoState {
    rules: Rules,
    set: TileSet,
    hands: [TileSet; 4],
    stock: TileSet,
    played: TileSet,
    board: Board,
    to_act: u8,
    opener: u8,
    first_opener: u8,
    /// Seats out of the game (with `--both-partners`, a partner who went out first).
    out: u8,
    /// Numbers each seat is known to lack (knocks and draws show them to everybody).
    lacks: [u16; 4],
    /// The number each seat's last play left on an end ([`NONE`]: none yet).
    exposed: [u8; 4],
    /// A score the player before missed: its points and the seat that may call muggins.
    claim: Option<(u16, u8)>,
    /// The player to act cannot play and may only pass (a claim window).
    claim_only: bool,
    /// A decided game waiting for its claim window to close.
    end_pending: Option<End>,
    /// The game is over (the match may go on).
    game_over: bool,
    /// A copy for search: the sample ends with the current game.
    stop_after_game: bool,
    result: Option<Outcome>,
    /// Points of each side in the current game.
    game_points: [i64; 4],
    /// Points of each side in the match (in the sample).
    total_points: [i64; 4],
    /// Points scored in every way, for the invariant: announced plays, muggins, game ends.
    ledger: i64,
    counters: [i64; MAX_COUNTERS],
    /// Tiles placed in the sample.
    length: u32,
    /// Tiles placed in the current game.
    game_tiles: u32,
    /// The current game opened with the set's highest double.
    opened_top: bool,
    /// The current game opened with a double.
    opened_double: bool,
    /// Open ends the opening tile made (2, or 4 for a cross or tree).
    opening_ends: u8,
    games: u32,
}

/// A game in progress as a position gives it ([`DominoState::at_position`]): what every seat
/// holds, the board and what everybody has seen. Seats are 0-based.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The rules.
    pub rules: Rules,
    /// Each seat's tiles (seats beyond the table empty).
    pub hands: [TileSet; 4],
    /// The sleeping tiles (the boneyard).
    pub stock: TileSet,
    /// The tiles on the board.
    pub played: TileSet,
    /// The layout ([`Board::from_ends`]).
    pub board: Board,
    /// The tile the current game opened with (the highest double it was dealt, else its
    /// heaviest tile).
    pub opening: Tile,
    /// The seat to act.
    pub to_act: Seat,
    /// The current game's opener.
    pub opener: Seat,
    /// The first game's opener (the match's).
    pub first_opener: Seat,
    /// Seats out of the game (bits; `both-partners=on`).
    pub out: u8,
    /// The numbers each seat is known to lack (bits).
    pub lacks: [u16; 4],
    /// The number each seat's last play left on an end ([`NONE`]: none yet).
    pub exposed: [u8; 4],
    /// A score the player before missed, which the player to act may call muggins on.
    pub missed: Option<u16>,
    /// A decided game waiting for that claim.
    pub decided: Option<End>,
    /// Points of each side in the current game so far.
    pub game_points: [i64; 4],
    /// Points of each side in the match's earlier games.
    pub match_points: [i64; 4],
    /// Games of the match, the current one included.
    pub games: u32,
    /// Tiles placed in the match's earlier games.
    pub tiles_before: u32,
}

/// An integer rounded to the nearest multiple of 5 (all fives: the end-of-game difference).
#[inline]
pub fn round5(x: i64) -> i64 {
    (x + 2).div_euclid(5) * 5
}

impl DominoState {
    /// A new sample (game or match) dealt from `rng`.
    fn dealt(rules: Rules, rng: &mut impl Rng) -> DominoState {
        let mut g = DominoState::blank(rules);
        g.start_game(rng);
        g
    }

    /// A new match game from a match state: each side's points from the match's earlier games
    /// (index by side), the game dealt as a new one is. With no points it draws exactly what
    /// [`DominoState::dealt`] draws.
    pub(crate) fn dealt_from(
        rules: Rules,
        match_points: [i64; 4],
        rng: &mut impl Rng,
    ) -> DominoState {
        let mut g = DominoState::blank(rules);
        g.total_points = match_points;
        g.ledger = match_points.iter().sum();
        g.start_game(rng);
        g
    }

    fn blank(rules: Rules) -> DominoState {
        DominoState {
            rules,
            set: full_set(rules.set),
            hands: [0; 4],
            stock: 0,
            played: 0,
            board: Board::empty(),
            to_act: 0,
            opener: 0,
            first_opener: NONE,
            out: 0,
            lacks: [0; 4],
            exposed: [NONE; 4],
            claim: None,
            claim_only: false,
            end_pending: None,
            game_over: false,
            stop_after_game: false,
            result: None,
            game_points: [0; 4],
            total_points: [0; 4],
            ledger: 0,
            counters: [0; MAX_COUNTERS],
            length: 0,
            game_tiles: 0,
            opened_top: false,
            opened_double: false,
            opening_ends: 2,
            games: 0,
        }
    }

    /// The tile that opens: the highest double dealt; when no double is dealt, the heaviest
    /// tile dealt (most pips, then the higher half).
    pub fn opening_tile(dealt: TileSet) -> Tile {
        let doubles = dealt & DOUBLES;
        if doubles != 0 {
            return Tile(63 - doubles.leading_zeros() as u8);
        }
        super::tiles::tiles(dealt)
            .max_by_key(|t| t.weight())
            .expect("tiles are dealt")
    }

    /// A sample whose first game is dealt as given (hands by seat; the rest sleep), for tests
    /// and positions you set up; later games of a match are dealt from `rng`.
    pub fn from_deal(
        rules: Rules,
        hands: [TileSet; 4],
        rng: &mut impl Rng,
    ) -> Result<DominoState, String> {
        rules.validate().map_err(|e| e.to_string())?;
        let set = full_set(rules.set);
        let mut all = 0;
        for (s, &h) in hands.iter().enumerate() {
            if s >= rules.players as usize {
                if h != 0 {
                    return Err(format!("seat {} is not at the table", s + 1));
                }
                continue;
            }
            if h & !set != 0 || h & all != 0 {
                return Err(format!(
                    "seat {}'s tiles are not in the set or dealt twice",
                    s + 1
                ));
            }
            if h.count_ones() != rules.hand as u32 {
                return Err(format!(
                    "seat {} holds {} tiles, not {}",
                    s + 1,
                    h.count_ones(),
                    rules.hand
                ));
            }
            all |= h;
        }
        let mut g = DominoState::blank(rules);
        g.start_game_with(Some((hands, set & !all)), rng);
        Ok(g)
    }

    /// A game in progress as a position sets it ([`Setup`]): every tile where the setup puts
    /// it, the board, the turn, what is known of each player and the scores; the counters
    /// start from nothing but the games played. Refused, naming the first fault, when it breaks
    /// an invariant (tiles in two places, open ends that do not follow from the tiles placed,
    /// a seat off the table).
    pub fn at_position(s: &Setup) -> Result<DominoState, String> {
        s.rules.validate().map_err(|e| e.to_string())?;
        let n = s.rules.players as usize;
        if s.to_act >= n || s.opener >= n || s.first_opener >= n {
            return Err(format!("a seat above {n} is named"));
        }
        let mut g = DominoState::blank(s.rules);
        g.hands = s.hands;
        g.stock = s.stock;
        g.played = s.played;
        g.board = s.board;
        g.to_act = s.to_act as u8;
        g.opener = s.opener as u8;
        g.first_opener = s.first_opener as u8;
        g.out = s.out;
        g.lacks = s.lacks;
        g.exposed = s.exposed;
        g.claim = s.missed.map(|pts| (pts, s.to_act as u8));
        g.end_pending = s.decided;
        // A claim window: the player to act may only pass, calling muggins or not.
        g.claim_only = g.claim.is_some()
            && (g.end_pending.is_some() || g.hands[s.to_act] & g.board.playable == 0);
        g.game_points = s.game_points;
        g.total_points = s.match_points;
        g.ledger = s.game_points.iter().chain(&s.match_points).sum();
        g.games = s.games.max(1);
        g.counters[Counter::Games as usize] = g.games as i64;
        g.game_tiles = s.played.count_ones();
        g.length = s.tiles_before + g.game_tiles;
        g.opened_double = s.opening.is_double();
        g.opened_top = s.opening == Tile::new(s.rules.set, s.rules.set);
        g.opening_ends = if g.opened_double && (s.rules.cross || s.rules.tree) {
            4
        } else {
            2
        };
        g.invariants()?;
        Ok(g)
    }

    fn start_game(&mut self, rng: &mut impl Rng) {
        self.start_game_with(None, rng)
    }

    fn start_game_with(&mut self, dealt: Option<([TileSet; 4], TileSet)>, rng: &mut impl Rng) {
        self.board = Board::empty();
        self.played = 0;
        self.out = 0;
        self.lacks = [0; 4];
        self.exposed = [NONE; 4];
        self.claim = None;
        self.claim_only = false;
        self.end_pending = None;
        self.game_over = false;
        self.game_points = [0; 4];
        self.game_tiles = 0;
        (self.hands, self.stock) = match dealt {
            Some(d) => d,
            None => deal(&self.rules, rng),
        };
        self.games += 1;
        self.counters[Counter::Games as usize] += 1;
        let dealt = self.set & !self.stock;
        let t = DominoState::opening_tile(dealt);
        let seat = (0..self.rules.players as usize)
            .find(|&s| self.hands[s] & t.bit() != 0)
            .expect("the opening tile is in a hand") as u8;
        self.opener = seat;
        if self.first_opener == NONE {
            self.first_opener = seat;
        }
        self.opened_top = t == Tile::new(self.rules.set, self.rules.set);
        if self.opened_top {
            self.counters[Counter::TopOpens as usize] += 1;
        }
        self.opened_double = t.is_double();
        self.opening_ends = if t.is_double() && (self.rules.cross || self.rules.tree) {
            4
        } else {
            2
        };
        self.hands[seat as usize] &= !t.bit();
        self.played |= t.bit();
        self.board.open_with(t, self.rules.cross, self.rules.tree);
        self.length += 1;
        self.game_tiles += 1;
        if t.is_double() {
            self.exposed[seat as usize] = t.high();
        }
        // The opening play is announced (the opener has no choice to make).
        let pts = self.rules.score.end_points(self.board.count()) as i64;
        self.score(seat, pts);
        self.after_play(seat, rng);
    }

    #[inline]
    fn side(&self, seat: u8) -> usize {
        self.rules.side_of(seat as usize)
    }

    fn score(&mut self, seat: u8, pts: i64) {
        if pts != 0 {
            let side = self.side(seat);
            self.game_points[side] += pts;
            self.ledger += pts;
        }
    }

    /// The next seat in turn after `seat` that is still in the game.
    #[inline]
    fn next_active(&self, seat: u8) -> u8 {
        let n = self.rules.players;
        if self.out == 0 {
            return if seat + 1 >= n { 0 } else { seat + 1 };
        }
        let mut s = seat;
        for _ in 0..n {
            s = if s + 1 == n { 0 } else { s + 1 };
            if self.out >> s & 1 == 0 {
                return s;
            }
        }
        seat
    }

    #[inline]
    fn may_draw(&self) -> bool {
        (self.rules.draw || self.board.cross != NONE) && self.stock != 0
    }

    /// Whether some player can still place a tile (drawing included).
    #[inline]
    fn anyone_can_move(&self) -> bool {
        if self.may_draw() {
            return true;
        }
        let held = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        held & self.board.playable != 0
    }

    /// After `seat` placed a tile: a domino, a blocked game, or the next player's turn.
    fn after_play(&mut self, seat: u8, rng: &mut impl Rng) {
        if self.hands[seat as usize] == 0 {
            if self.rules.both_partners {
                self.out |= 1 << seat;
                let partner = (seat + 2) % 4;
                if self.out >> partner & 1 == 1 {
                    return self.decide(End::Domino(self.side(seat) as u8), rng);
                }
            } else {
                return self.decide(End::Domino(self.side(seat) as u8), rng);
            }
        }
        if !self.anyone_can_move() {
            return self.decide(End::Blocked, rng);
        }
        let next = self.next_active(seat);
        self.advance(next, rng);
    }

    /// Finds the next player able to play from `seat` on: players who cannot play draw when
    /// the rules let them, else knock (everybody sees which numbers they lack).
    fn advance(&mut self, mut seat: u8, rng: &mut impl Rng) {
        loop {
            let s = seat as usize;
            if self.hands[s] & self.board.playable != 0 {
                self.to_act = seat;
                self.claim_only = false;
                return;
            }
            if self.may_draw() {
                // They hold no tile showing an open number; the tiles they draw and keep do not
                // either, so that stays known (what they knew to lack before may have come in).
                self.lacks[s] = self.board.numbers();
                while self.stock != 0 && self.hands[s] & self.board.playable == 0 {
                    let k = uniform_below(rng, self.stock.count_ones() as usize) as u32;
                    let t = nth_tile(self.stock, k);
                    self.stock &= !t.bit();
                    self.hands[s] |= t.bit();
                    self.counters[Counter::Drawn as usize] += 1;
                }
                if self.hands[s] & self.board.playable != 0 {
                    self.to_act = seat;
                    self.claim_only = false;
                    return;
                }
            }
            self.lacks[s] |= self.board.numbers();
            self.counters[Counter::Knocks as usize] += 1;
            if matches!(self.claim, Some((_, c)) if c == seat) {
                self.to_act = seat;
                self.claim_only = true;
                return;
            }
            if !self.anyone_can_move() {
                return self.decide(End::Blocked, rng);
            }
            seat = self.next_active(seat);
        }
    }

    /// The game is decided; with a claim still open, its player is asked first.
    fn decide(&mut self, end: End, rng: &mut impl Rng) {
        if let Some((_, c)) = self.claim {
            self.end_pending = Some(end);
            self.to_act = c;
            self.claim_only = true;
            return;
        }
        self.finish_game(end, rng);
    }

    fn side_pips(&self) -> [i64; 4] {
        let mut t = [0i64; 4];
        for s in 0..self.rules.players as usize {
            t[self.rules.side_of(s)] += pips(self.hands[s]) as i64;
        }
        t
    }

    /// Scores the decided game, then ends the sample or deals the match's next game.
    fn finish_game(&mut self, end: End, rng: &mut impl Rng) {
        self.claim = None;
        self.claim_only = false;
        self.end_pending = None;
        self.game_over = true;
        let sides = self.rules.side_count();
        let totals = self.side_pips();
        let opener_side = self.side(self.opener);
        let winner = match end {
            End::Domino(side) => Some(side as usize),
            End::Blocked => {
                self.counters[Counter::Blocked as usize] += 1;
                let low = *totals[..sides].iter().min().expect("two sides or more");
                let mut lowest = (0..sides).filter(|&k| totals[k] == low);
                let first = lowest.next();
                match lowest.next() {
                    Some(_) => {
                        self.counters[Counter::BlockedTies as usize] += 1;
                        None
                    }
                    None => {
                        if first == Some(opener_side) {
                            self.counters[Counter::BlockedOpenerWon as usize] += 1;
                        }
                        first
                    }
                }
            }
        };
        if let Some(w) = winner {
            let difference = matches!(
                (end, self.rules.blocked),
                (End::Blocked, Blocked::Difference)
            );
            let own = if difference { totals[w] } else { 0 };
            let mut bonus = 0i64;
            if self.rules.score.by_ends() && !difference {
                // All fives: each losing player's pips are rounded to 5 on their own, and the
                // rounded figures added (the text: "la suma de las diferencias redondeadas";
                // partners left with 7 and 7 pips give 5 + 5 = 10, not 14 → 15).
                for s in 0..self.rules.players as usize {
                    if self.rules.side_of(s) != w {
                        bonus += round5(pips(self.hands[s]) as i64);
                    }
                }
            } else {
                // A blocked game's difference is one per losing side: the side's pips less
                // the winners' (with pairs, the pair's total, as the block rule counts it).
                for (k, &t) in totals.iter().enumerate().take(sides) {
                    if k != w {
                        let base = t - own;
                        bonus += match self.rules.score {
                            Score::Game => 0,
                            Score::Pips => base,
                            Score::AllFives | Score::FivesAndThrees => round5(base),
                        };
                    }
                }
            }
            if self.rules.score == Score::Game {
                bonus = 1;
            }
            self.game_points[w] += bonus;
            self.ledger += bonus;
            if w == opener_side {
                self.counters[Counter::OpenerWon as usize] += 1;
                if self.opened_top {
                    self.counters[Counter::TopWon as usize] += 1;
                }
            }
        }
        self.counters[Counter::OpenerPoints as usize] += self.game_points[opener_side];
        for k in 0..sides {
            self.total_points[k] += self.game_points[k];
        }
        let mask = |w: usize| -> u32 {
            (0..self.rules.players as usize)
                .filter(|&s| self.rules.side_of(s) == w)
                .fold(0, |m, s| m | 1 << s)
        };
        if !self.rules.is_match() || self.stop_after_game {
            self.result = Some(match winner {
                Some(w) => Outcome::Event(mask(w)),
                None => Outcome::Draw,
            });
            return;
        }
        let best = *self.total_points[..sides].iter().max().expect("sides");
        let leaders = self.total_points[..sides]
            .iter()
            .filter(|&&p| p == best)
            .count();
        if best >= self.rules.to as i64 && leaders == 1 {
            let w = (0..sides)
                .find(|&k| self.total_points[k] == best)
                .expect("a leader");
            self.result = Some(Outcome::Event(mask(w)));
        } else if self.games >= MAX_MATCH_GAMES {
            self.result = Some(Outcome::Capped);
        } else {
            self.start_game(rng);
        }
    }

    /// The claims the player to act can make: announcing (always) and muggins (when the player
    /// before missed a score and this player may call it).
    #[inline]
    fn claim_bits(&self) -> u16 {
        match self.claim {
            Some((_, c)) if c == self.to_act => ANNOUNCE | MUGGINS,
            _ => ANNOUNCE,
        }
    }

    /// Calls `f` with every legal action of the player to act, in a fixed order (numbers
    /// ascending, plain ends before sides, tiles ascending).
    #[inline]
    pub fn for_each_action(&self, mut f: impl FnMut(Action)) {
        if self.claim_only {
            f(Action::PASS);
            return;
        }
        let claims = self.claim_bits();
        let hand = self.hands[(self.to_act & 3) as usize];
        let by_ends = self.rules.score.by_ends();
        let mut numbers = self.board.numbers();
        while numbers != 0 {
            let n = numbers.trailing_zeros() as u8;
            numbers &= numbers - 1;
            let kinds = self.board.kinds(n, by_ends);
            let fit = hand & WITH[n as usize];
            for side in [false, true] {
                if kinds >> side as u8 & 1 == 1 {
                    let mut m = fit;
                    while m != 0 {
                        let t = Tile(m.trailing_zeros() as u8);
                        m &= m - 1;
                        f(Action(Action::play(t, n, side).0 & !CLAIMS | claims));
                    }
                }
            }
        }
    }

    /// How many legal actions the player to act has.
    #[inline]
    pub fn action_count(&self) -> usize {
        if self.claim_only {
            return 1;
        }
        let hand = self.hands[(self.to_act & 3) as usize];
        let mut numbers = self.board.numbers();
        let mut c = 0;
        if !self.rules.score.by_ends() {
            // One kind of end per number.
            while numbers != 0 {
                c += (hand & WITH[(numbers.trailing_zeros() & 15) as usize]).count_ones();
                numbers &= numbers - 1;
            }
            return c as usize;
        }
        while numbers != 0 {
            let n = numbers.trailing_zeros() as u8;
            numbers &= numbers - 1;
            let kinds = self.board.kinds(n, true);
            c += (hand & WITH[(n & 15) as usize]).count_ones() * kinds.count_ones();
        }
        c as usize
    }

    /// The `k`-th legal action in the order of [`DominoState::for_each_action`].
    #[inline]
    pub fn nth_action(&self, mut k: usize) -> Action {
        if self.claim_only {
            return Action::PASS;
        }
        let claims = self.claim_bits();
        let hand = self.hands[(self.to_act & 3) as usize];
        let by_ends = self.rules.score.by_ends();
        let mut numbers = self.board.numbers();
        while numbers != 0 {
            let n = numbers.trailing_zeros() as u8;
            numbers &= numbers - 1;
            let fit = hand & WITH[(n & 15) as usize];
            let c = fit.count_ones() as usize;
            if !by_ends {
                if k < c {
                    let side = self.board.kinds(n, false) == 2;
                    let t = nth_tile(fit, k as u32);
                    return Action(Action::play(t, n, side).0 & !CLAIMS | claims);
                }
                k -= c;
                continue;
            }
            let kinds = self.board.kinds(n, true);
            for side in [false, true] {
                if kinds >> side as u8 & 1 == 1 {
                    if k < c {
                        let t = nth_tile(fit, k as u32);
                        return Action(Action::play(t, n, side).0 & !CLAIMS | claims);
                    }
                    k -= c;
                }
            }
        }
        panic!("action index out of range")
    }

    /// Whether `a` (its claims aside) is legal now.
    #[inline]
    pub fn is_legal(&self, a: Action) -> Result<(), Illegal> {
        // The common case first: a tile in hand placed against an end it fits.
        let t = (a.0 & TILE_BITS) as u32;
        let n = a.at() as usize;
        if self.result.is_none()
            && !self.claim_only
            && t != PASS_TILE as u32
            && n < NUMBERS
            && (self.hands[(self.to_act & 3) as usize] & WITH[n]) >> t & 1 == 1
            && self.board.kinds(n as u8, self.rules.score.by_ends()) >> a.on_side() as u8 & 1 == 1
        {
            return Ok(());
        }
        self.why_illegal(a)
    }

    /// [`DominoState::is_legal`] for every action but the common legal ones: the reason it is
    /// refused, or `Ok` (a pass in a claim window).
    #[cold]
    fn why_illegal(&self, a: Action) -> Result<(), Illegal> {
        if self.result.is_some() {
            return Err(Illegal("the game is over".into()));
        }
        if self.claim_only {
            return if a.is_pass() {
                Ok(())
            } else {
                Err(Illegal(format!(
                    "{a}: player {} cannot play and may only pass (calling muggins or not)",
                    self.to_act + 1
                )))
            };
        }
        let Some(t) = a.tile() else {
            return Err(Illegal(format!(
                "pass: player {} can play and may not pass",
                self.to_act + 1
            )));
        };
        if t.0 as usize >= self.rules.tiles()
            || self.hands[(self.to_act & 3) as usize] & t.bit() == 0
        {
            return Err(Illegal(format!(
                "{a}: player {} does not hold {t}",
                self.to_act + 1
            )));
        }
        let n = a.at();
        if n > self.rules.set || (t.high() != n && t.low() != n) {
            return Err(Illegal(format!("{a}: {t} does not show {n}")));
        }
        if self.board.numbers() >> n & 1 == 0 {
            return Err(Illegal(format!("{a}: no open end shows {n} now")));
        }
        let kinds = self.board.kinds(n, self.rules.score.by_ends());
        if kinds >> a.on_side() as u8 & 1 == 0 {
            return Err(Illegal(format!(
                "{a}: {} end showing {n} to play on",
                if a.on_side() {
                    "no double's side is the"
                } else {
                    "no plain end is the"
                }
            )));
        }
        Ok(())
    }

    /// Plays the rest of the sample, each decision taken by `decide` from the acting player's
    /// view; every action `decide` returns must be legal (one the engine listed, claims
    /// optional), which is not checked again.
    #[inline]
    pub fn play_out(&mut self, rng: &mut impl Rng, mut decide: impl FnMut(&View) -> Action) {
        while self.result.is_none() {
            let a = decide(&View {
                game: self,
                seat: self.to_act,
            });
            debug_assert!(self.is_legal(a).is_ok(), "{a}");
            self.apply_legal(a, rng);
        }
    }

    /// Applies an action known to be legal.
    #[inline]
    fn apply_legal(&mut self, a: Action, rng: &mut impl Rng) {
        let seat = self.to_act;
        // A score the player before missed is this player's to call, now or never.
        if let Some((pts, c)) = self.claim {
            if c == seat {
                if a.calls_muggins() && self.rules.muggins {
                    self.score(seat, pts as i64);
                    self.counters[Counter::Muggins as usize] += pts as i64;
                }
                self.claim = None;
            }
        }
        if self.claim_only {
            self.claim_only = false;
            if let Some(end) = self.end_pending {
                self.finish_game(end, rng);
            } else if !self.anyone_can_move() {
                self.decide(End::Blocked, rng);
            } else {
                let next = self.next_active(seat);
                self.advance(next, rng);
            }
            return;
        }
        let t = a.tile().expect("a play");
        let n = a.at();
        let s = seat as usize;
        self.hands[s] &= !t.bit();
        self.played |= t.bit();
        self.board.place(t, n, a.on_side(), self.rules.tree);
        self.length += 1;
        self.game_tiles += 1;
        self.exposed[s] = if t.is_double() { n } else { t.other(n) };
        if self.rules.score.by_ends() {
            let pts = self.rules.score.end_points(self.board.count());
            if pts > 0 {
                if a.announces() {
                    self.score(seat, pts as i64);
                } else {
                    self.counters[Counter::Missed as usize] += pts as i64;
                    if self.rules.muggins {
                        // The next player in turn (an opponent) may call it.
                        let mut claimer = self.next_active(seat);
                        if claimer == seat {
                            claimer = (seat + 1) % self.rules.players;
                        }
                        self.claim = Some((pts as u16, claimer));
                    }
                }
            }
        }
        self.after_play(seat, rng);
    }

    /// A seat's tiles (for tests and reports; bots see only their own through a [`View`]).
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands[seat]
    }

    /// The sleeping tiles (the boneyard).
    pub fn stock(&self) -> TileSet {
        self.stock
    }

    /// The tiles on the board.
    pub fn played(&self) -> TileSet {
        self.played
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The current game's opener.
    pub fn opener(&self) -> Seat {
        self.opener.into()
    }

    /// Games played in the sample (the current one included).
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Points of a side in the sample (the match, or the game) from the games finished.
    pub fn side_points(&self, side: usize) -> i64 {
        self.total_points[side]
    }

    /// Points of each side in the current game so far.
    pub fn game_points(&self, side: usize) -> i64 {
        self.game_points[side]
    }

    /// Whether the current game is over (in a match the next one may already be dealt).
    pub fn game_over(&self) -> bool {
        self.game_over
    }

    /// A copy for the flat search (`search[:N]`): the sample ends with the current game, scored
    /// as a single game would be.
    pub(super) fn stop_after_this_game(&mut self) {
        self.stop_after_game = true;
    }

    /// Checks every invariant: tiles conserved (hands, boneyard and board partition the set),
    /// the board's ends agree with its counts, points add up to what was scored.
    fn invariants(&self) -> Result<(), String> {
        let mut seen = self.stock & self.played;
        if seen != 0 {
            return Err("a tile is both on the board and in the boneyard".into());
        }
        let mut all = self.stock | self.played;
        for s in 0..self.rules.players as usize {
            seen |= all & self.hands[s];
            all |= self.hands[s];
        }
        for s in self.rules.players as usize..4 {
            if self.hands[s] != 0 {
                return Err(format!(
                    "seat {} holds tiles but is not at the table",
                    s + 1
                ));
            }
        }
        if seen != 0 {
            return Err(format!("tiles in two places: {}", super::tiles::show(seen)));
        }
        if all != self.set {
            return Err(format!(
                "tiles lost or added: {}",
                super::tiles::show(all ^ self.set)
            ));
        }
        if self.played.count_ones() != self.game_tiles {
            return Err(format!(
                "{} tiles on the board but {} placed",
                self.played.count_ones(),
                self.game_tiles
            ));
        }
        // Each tile placed after the opening takes one end and gives one (a double in a tree
        // three), so the open ends follow from the tiles placed.
        let later_doubles = (self.played & DOUBLES).count_ones() - self.opened_double as u32;
        let expected = self.opening_ends as u32
            + if self.rules.tree {
                2 * later_doubles
            } else {
                0
            };
        if self.board.ends() != expected {
            return Err(format!(
                "{} open ends after {} tiles, expected {expected}",
                self.board.ends(),
                self.game_tiles
            ));
        }
        let mut count = 0u32;
        for n in 0..NUMBERS {
            let k = n as u8;
            count += n as u32 * self.board.plain(k) as u32;
            let on_board = self.played & Tile::new(n as u8, n as u8).bit() != 0;
            if on_board && self.board.built(k) < 2 {
                count += 2 * n as u32;
            }
            if (self.board.plain(k) > 0) != (self.board.plain_open >> n & 1 == 1)
                || (self.board.sides(k) > 0) != (self.board.side_open >> n & 1 == 1)
            {
                return Err(format!("the open ends of {n} are miscounted"));
            }
        }
        if count != self.board.count() {
            return Err(format!(
                "open-end total {} but the ends add up to {count}",
                self.board.count()
            ));
        }
        let scored: i64 = self.total_points.iter().sum::<i64>()
            + if self.game_over {
                0
            } else {
                self.game_points.iter().sum::<i64>()
            };
        if scored != self.ledger {
            return Err(format!(
                "points scored {scored} but {} were won",
                self.ledger
            ));
        }
        Ok(())
    }
}

/// What one player sees: their own tiles, the board and the tiles on it, how many tiles each
/// player and the boneyard hold, the numbers each player is known to lack (everybody sees a
/// knock, and which ends it was made against), who played what last, and the scores. Never
/// another player's tiles: a partner's hand included.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a DominoState,
    seat: u8,
}

impl PlayerView for View<'_> {
    #[inline]
    fn seat(&self) -> Seat {
        self.seat.into()
    }
}

/// Exactly what the seat sees: the rules, its own tiles, how many tiles each player and the
/// boneyard hold, the tiles on the board and their layout, the numbers each player is known to
/// lack (knocks and draws), the number each player's last play left, who is out, who opened,
/// whose turn it is, a score the player before missed and a claim window, the points and the
/// games played. Nobody else's tiles, nor what sleeps.
impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.game;
        let n = g.rules.players as usize;
        let sides = g.rules.side_count().min(4);
        let sizes: Vec<u32> = (0..n).map(|s| g.hands[s].count_ones()).collect();
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field("hand", &super::tiles::show(self.hand()))
            .field("hand sizes", &sizes)
            .field("boneyard", &g.stock.count_ones())
            .field("board tiles", &super::tiles::show(g.played))
            .field("board", &g.board)
            .field("known to lack", &&g.lacks[..n])
            .field("last play left", &&g.exposed[..n])
            .field("out", &g.out)
            .field("opener", &g.opener)
            .field("first opener", &g.first_opener)
            .field("to act", &g.to_act)
            .field("missed score", &g.claim)
            .field("claim window", &g.claim_only)
            .field("decided", &g.end_pending)
            .field("game over", &g.game_over)
            .field("game points", &&g.game_points[..sides])
            .field("match points", &&g.total_points[..sides])
            .field("games", &g.games)
            .field("tiles placed", &g.length)
            .field("result", &g.result)
            .finish()
    }
}

impl<'a> View<'a> {
    /// The rules.
    #[inline]
    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }
    /// Own tiles.
    #[inline]
    pub fn hand(&self) -> TileSet {
        self.game.hands[(self.seat & 3) as usize]
    }
    /// How many tiles `seat` holds.
    #[inline]
    pub fn hand_len(&self, seat: Seat) -> u32 {
        self.game.hands[seat].count_ones()
    }
    /// How many tiles sleep (the boneyard).
    #[inline]
    pub fn stock_len(&self) -> u32 {
        self.game.stock.count_ones()
    }
    /// The tiles on the board.
    #[inline]
    pub fn played(&self) -> TileSet {
        self.game.played
    }
    /// The board.
    #[inline]
    pub fn board(&self) -> &'a Board {
        &self.game.board
    }
    /// The numbers `seat` is known to lack.
    #[inline]
    pub fn lacks(&self, seat: Seat) -> u16 {
        self.game.lacks[seat]
    }
    /// The number `seat`'s last play left on an end, if any.
    #[inline]
    pub fn exposed(&self, seat: Seat) -> Option<u8> {
        let n = self.game.exposed[seat];
        (n != NONE).then_some(n)
    }
    /// The partner's seat, when playing in pairs.
    #[inline]
    pub fn partner(&self) -> Option<Seat> {
        self.game
            .rules
            .pairs
            .then_some((self.seat as usize + 2) % 4)
    }
    /// Whether `seat` is out of the game (`both-partners=on`).
    #[inline]
    pub fn is_out(&self, seat: Seat) -> bool {
        self.game.out >> seat & 1 == 1
    }
    /// The next seat in turn after `seat` still in the game.
    #[inline]
    pub fn next_seat(&self, seat: Seat) -> Seat {
        self.game.next_active(seat as u8).into()
    }
    /// The side of `seat`.
    #[inline]
    pub fn side(&self, seat: Seat) -> usize {
        self.game.rules.side_of(seat)
    }
    /// Points the player before missed that this player may call muggins on.
    #[inline]
    pub fn claim(&self) -> Option<u16> {
        match self.game.claim {
            Some((p, c)) if c == self.seat => Some(p),
            _ => None,
        }
    }
    /// Whether this player may only pass (a claim window).
    #[inline]
    pub fn claim_only(&self) -> bool {
        self.game.claim_only
    }
    /// Points of a side in the current game so far.
    pub fn game_points(&self, side: usize) -> i64 {
        self.game.game_points[side]
    }
    /// Points of a side in the match before this game.
    pub fn match_points(&self, side: usize) -> i64 {
        self.game.total_points[side]
    }
    /// The current game's opener.
    pub fn opener(&self) -> Seat {
        self.game.opener.into()
    }
    /// The first game's opener (the match's; the current game's in a single game).
    pub fn first_opener(&self) -> Seat {
        self.game.first_opener.into()
    }
    /// The seat to act.
    pub fn to_act(&self) -> Seat {
        self.game.to_act.into()
    }
    /// A score the player before missed, with the seat that may call muggins on it (the seat
    /// to act): everybody sees it.
    pub fn missed_score(&self) -> Option<(u16, Seat)> {
        self.game.claim.map(|(p, c)| (p, c.into()))
    }
    /// How the game is decided while a muggins claim is still open.
    pub fn decided(&self) -> Option<End> {
        self.game.end_pending
    }
    /// Games of the sample (a match's games so far, the current one included).
    pub fn games(&self) -> u32 {
        self.game.games
    }
    /// Tiles placed in the sample (in a match, its earlier games' too).
    pub fn tiles_placed(&self) -> u32 {
        self.game.length
    }
    /// How many legal actions there are (it is this player's turn).
    #[inline]
    pub fn action_count(&self) -> usize {
        self.game.action_count()
    }
    /// The `k`-th legal action.
    #[inline]
    pub fn nth_action(&self, k: usize) -> Action {
        self.game.nth_action(k)
    }
    /// Calls `f` with every legal action.
    #[inline]
    pub fn for_each_action(&self, f: impl FnMut(Action)) {
        self.game.for_each_action(f)
    }
    /// Appends every legal action.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.game.list_legal(out)
    }
    /// The open-end total after the play `a`.
    #[inline]
    pub fn count_after(&self, a: Action) -> u32 {
        match a.tile() {
            None => self.game.board.count(),
            Some(t) => {
                let mut b = self.game.board;
                b.place(t, a.at(), a.on_side(), self.game.rules.tree);
                b.count()
            }
        }
    }
    /// The tiles this player cannot see: in other hands or sleeping.
    #[inline]
    pub fn unseen(&self) -> TileSet {
        self.game.set & !self.hand() & !self.game.played
    }

    /// A game consistent with everything this player sees ([`State::deal_for_view`]): the
    /// unseen tiles dealt into the other hands (their sizes known) and the boneyard uniformly
    /// over the deals that give no hand a tile showing a number its player is known to lack.
    /// With one such hand it is filled first, uniformly from the tiles it may hold, and the
    /// rest shared uniformly; with two or more, the exact sampler of `hidden` weighs how many
    /// tiles of each kind each hand gets by the deals that complete it. When no deal is
    /// consistent (a knock the hands cannot honour) the knocks are ignored after 32 tries.
    /// Everything public is copied: in a match, the match goes on after the current game.
    pub fn determinize(&self, rng: &mut impl Rng) -> DominoState {
        let g = self.game;
        let mut copy = g.clone();
        let unseen = self.unseen();
        let players = g.rules.players as usize;
        let mut order = [0u8; 4];
        let mut k = 0;
        let forbidden = |s: usize| -> TileSet {
            let mut m = 0;
            let mut bits = g.lacks[s];
            while bits != 0 {
                m |= WITH[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            m
        };
        for s in 0..players as u8 {
            if s != self.seat && g.hands[s as usize] != 0 {
                order[k] = s;
                k += 1;
            }
        }
        let order = &mut order[..k];
        let constrained = order
            .iter()
            .filter(|&&s| forbidden(s as usize) & unseen != 0)
            .count();
        if constrained >= 2 {
            // Filling one constrained hand after another is no longer uniform: the exact
            // sampler weighs each split by its completions.
            let mut sizes = [0u32; 4];
            let mut banned = [0 as TileSet; 4];
            for &s in order.iter() {
                sizes[s as usize] = g.hands[s as usize].count_ones();
                banned[s as usize] = forbidden(s as usize);
            }
            if let Some((hands, stock)) =
                super::hidden::deal_uniform(g.set.count_ones(), unseen, order, &sizes, &banned, rng)
            {
                for &s in order.iter() {
                    copy.hands[s as usize] = hands[s as usize];
                }
                copy.stock = stock;
                return copy;
            }
        }
        order.sort_by_key(|&s| (unseen & !forbidden(s as usize)).count_ones());
        for attempt in 0..=32 {
            let mut pool = unseen;
            let mut ok = true;
            for &s in order.iter() {
                let need = g.hands[s as usize].count_ones();
                let allowed = if attempt < 32 {
                    pool & !forbidden(s as usize)
                } else {
                    pool
                };
                if allowed.count_ones() < need {
                    ok = false;
                    break;
                }
                let mut hand = 0;
                let mut left = allowed;
                for _ in 0..need {
                    let t = nth_tile(left, uniform_below(rng, left.count_ones() as usize) as u32);
                    left &= !t.bit();
                    hand |= t.bit();
                }
                copy.hands[s as usize] = hand;
                pool &= !hand;
            }
            if ok {
                copy.stock = pool;
                return copy;
            }
        }
        unreachable!("the last try ignores the knocks and always deals")
    }
}

impl DominoState {
    /// Every legal action of the player to act, into `out` (cleared first).
    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_action(|a| out.push(a));
    }
}

/// The engine for the whole-game layer: a sample is a single game, or a whole match.
impl State for DominoState {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    /// Deals the first game; its highest double opens (a start's dealer and first player do
    /// not apply).
    fn deal(rules: &Rules, _start: &Start, rng: &mut Stream) -> DominoState {
        DominoState::dealt(*rules, rng)
    }
    /// [`View::determinize`].
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> DominoState {
        view.determinize(rng)
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
    /// Applies the action of the player to act; draws (and the next game's deal in a match)
    /// come from `rng`. An illegal action is refused with the reason and changes nothing.
    #[inline]
    fn apply(&mut self, action: Action, rng: &mut Stream) -> Result<(), Illegal> {
        self.is_legal(action)?;
        self.apply_legal(action, rng);
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }
    /// The first game's opener.
    fn first_player(&self) -> Seat {
        self.first_opener.into()
    }
    /// Tiles placed in the sample.
    fn length(&self) -> u64 {
        self.length.into()
    }
    /// The counters of [`Counter`], the sides' points from [`SIDE_POINTS`] on.
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        *out = self.counters;
        let sides = self.rules.side_count().min(4);
        out[SIDE_POINTS..SIDE_POINTS + sides].copy_from_slice(&self.total_points[..sides]);
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::domino::tiles::parse_list;
    use crate::play::GameRules;
    use crate::rng::{SeedableRng, Stream};

    fn set(list: &str) -> TileSet {
        parse_list(list, 9).unwrap()
    }

    fn rules(players: u8, hand: u8, changes: &str) -> Rules {
        let mut r = Rules::standard(players);
        r.hand = hand;
        r.with_changes(changes).unwrap()
    }

    fn game(r: Rules, hands: [&str; 4]) -> DominoState {
        let mut rng = Stream::seed_from_u64(3);
        DominoState::from_deal(r, hands.map(set), &mut rng).unwrap()
    }

    /// The legal action placing `tile` against `at` (claims as listed).
    fn play(g: &mut DominoState, tile: &str, at: u8, announce: bool) {
        let t = Tile::parse(tile, 9).unwrap();
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        let a = *v
            .iter()
            .find(|a| a.tile() == Some(t) && a.at() == at)
            .unwrap_or_else(|| panic!("{tile} on {at} is not among {v:?}"));
        g.apply(a.with_claims(announce, true), &mut Stream::seed_from_u64(5))
            .unwrap();
        g.check_invariants().unwrap();
    }

    #[test]
    fn the_board_counts_as_all_fives_counts() {
        let mut b = Board::empty();
        let t = |s: &str| Tile::parse(s, 9).unwrap();
        b.open_with(t("5-5"), false, false);
        assert_eq!(b.count(), 10);
        b.place(t("5-3"), 5, true, false);
        assert_eq!(b.count(), 13, "the double still counts both halves");
        b.place(t("5-2"), 5, true, false);
        assert_eq!(b.count(), 5);
        b.place(t("3-3"), 3, false, false);
        assert_eq!(b.count(), 2 + 6, "a double at an end counts both halves");
        b.place(t("3-1"), 3, true, false);
        assert_eq!(b.count(), 3);
        assert_eq!(b.ends(), 2);
        // The cross: only the opening double's number until its four sides are covered.
        b.open_with(t("5-5"), true, false);
        assert_eq!((b.count(), b.numbers(), b.ends()), (10, 1 << 5, 4));
        for (k, x) in ["5-1", "5-2", "5-3", "5-4"].into_iter().enumerate() {
            assert_eq!(b.cross(), Some(5));
            b.place(t(x), 5, true, false);
            assert_eq!(b.sides(5), 3 - k as u8);
        }
        assert_eq!(b.cross(), None);
        assert_eq!((b.count(), b.ends()), (1 + 2 + 3 + 4, 4));
        assert_eq!(b.numbers(), 0b11110);
        // Trees: a double opens two more lines.
        b.open_with(t("6-6"), false, true);
        assert_eq!(b.ends(), 4);
        b.place(t("6-4"), 6, true, true);
        b.place(t("4-4"), 4, false, true);
        assert_eq!((b.ends(), b.sides(4), b.sides(6)), (6, 3, 3));
        assert_eq!(
            b.count(),
            12 + 8,
            "both doubles have fewer than two sides built"
        );
    }

    #[test]
    fn the_highest_double_opens_and_without_a_double_the_heaviest_tile() {
        let g = game(rules(2, 3, ""), ["3-3,6-1,2-0", "5-5,6-5,1-0", "", ""]);
        assert_eq!((g.opener(), g.played()), (1, set("5-5")));
        // Seat 0 holds no 5: it knocks, and everybody now knows it lacks 5.
        assert_eq!(g.to_act(), 1);
        assert_eq!(g.view(1).lacks(0), 1 << 5);
        // No double dealt: the heaviest tile, most pips then the higher half: 6-3 beats 5-4.
        let g = game(rules(2, 3, ""), ["5-4,2-1,1-0", "6-3,4-0,3-2", "", ""]);
        assert_eq!((g.opener(), g.played()), (1, set("6-3")));
        assert_eq!(
            DominoState::opening_tile(set("5-4,6-3,4-4")),
            Tile::new(4, 4)
        );
        assert_eq!(DominoState::opening_tile(set("5-4,6-3")), Tile::new(6, 3));
        assert_eq!(DominoState::opening_tile(set("5-4,6-2")), Tile::new(5, 4));
    }

    #[test]
    fn a_cross_without_a_double_is_played_on_two_ends() {
        let g = game(
            rules(2, 3, "cross=on"),
            ["5-4,2-1,1-0", "6-3,4-0,3-2", "", ""],
        );
        assert_eq!(g.board().cross(), None);
        assert_eq!(
            (g.board().ends(), g.board().numbers()),
            (2, 1 << 6 | 1 << 3)
        );
    }

    #[test]
    fn a_blocked_game_goes_to_the_lower_total_and_a_tie_to_nobody() {
        for (score, blocked, want) in [
            ("game", "difference", 1),
            ("pips", "difference", 12 - 1),
            ("pips", "losers", 12),
            ("all-fives", "difference", 10),
        ] {
            let r = rules(2, 2, &format!("score={score},blocked={blocked},to=none"));
            let g = game(r, ["6-6,1-0", "5-5,2-0", "", ""]);
            assert_eq!(g.outcome(), Some(Outcome::Event(0b01)), "{score}");
            assert_eq!(
                (g.side_points(0), g.side_points(1)),
                (want, 0),
                "{score} {blocked}"
            );
            let mut c = [0; MAX_COUNTERS];
            g.counters(&mut c);
            assert_eq!(c[Counter::Blocked as usize], 1);
            assert_eq!(c[Counter::BlockedOpenerWon as usize], 1);
        }
        let g = game(rules(2, 2, "score=pips"), ["6-6,2-0", "1-1,0-0", "", ""]);
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        assert_eq!((g.side_points(0), g.side_points(1)), (0, 0));
    }

    #[test]
    fn a_domino_takes_the_losers_pips() {
        for (score, want) in [("game", 1), ("pips", 10), ("all-fives", 10)] {
            let mut g = game(
                rules(2, 2, &format!("score={score},to=none")),
                ["6-6,6-1", "5-5,6-2", "", ""],
            );
            assert_eq!(g.to_act(), 1);
            play(&mut g, "6-2", 6, true);
            play(&mut g, "6-1", 6, true);
            assert_eq!(g.outcome(), Some(Outcome::Event(0b01)));
            assert_eq!(
                (g.side_points(0), g.side_points(1), g.length()),
                (want, 0, 3)
            );
        }
    }

    #[test]
    fn all_fives_scores_plays_and_muggins_takes_a_missed_score() {
        for (muggins, mine) in [("on", 25), ("off", 15)] {
            let mut g = game(
                rules(2, 2, &format!("score=all-fives,muggins={muggins},to=none")),
                ["5-5,4-0", "5-0,3-3", "", ""],
            );
            assert_eq!(g.game_points(0), 10, "the opening 5-5 counts 10");
            play(&mut g, "5-0", 5, false);
            if muggins == "on" {
                assert_eq!(g.view(0).claim(), Some(10));
            }
            play(&mut g, "4-0", 0, true);
            // 10 + 10 (muggins) + the losers' 6 pips rounded to 5.
            assert_eq!(
                (g.side_points(0), g.side_points(1)),
                (mine, 0),
                "muggins {muggins}"
            );
            let mut c = [0; MAX_COUNTERS];
            g.counters(&mut c);
            assert_eq!(c[Counter::Missed as usize], 10);
            assert_eq!(
                c[Counter::Muggins as usize],
                if muggins == "on" { 10 } else { 0 }
            );
        }
        assert_eq!(
            (round5(12), round5(13), round5(0), round5(-3)),
            (10, 15, 0, -5)
        );
    }

    #[test]
    fn all_fives_rounds_each_losing_player_on_their_own() {
        // Partners 1 and 3 are left with 7 pips each: 5 + 5 = 10 (the text's sum of rounded
        // differences), where rounding the pair's 14 would give 15.
        let mut g = game(
            rules(4, 2, "score=all-fives,to=none"),
            ["6-6,6-2", "4-3,0-0", "5-2,1-1", "4-2,1-0"],
        );
        assert_eq!(g.game_points(0), 0, "the opening 6-6 counts 12");
        assert_eq!(g.to_act(), 0, "nobody else holds a 6: they knock");
        play(&mut g, "6-2", 6, true);
        assert_eq!(g.outcome(), Some(Outcome::Event(0b0101)));
        assert_eq!(
            (g.side_points(0), g.side_points(1)),
            (10, 0),
            "12 + 2 scores nothing"
        );
        // A blocked game still takes one difference per losing side (here per player).
        let r = rules(3, 2, "score=all-fives,blocked=difference,to=none");
        let g = game(r, ["6-6,1-0", "5-5,2-0", "4-4,3-0", ""]);
        assert_eq!(g.outcome(), Some(Outcome::Event(0b001)));
        assert_eq!(g.side_points(0), round5(12 - 1) + round5(11 - 1));
    }

    #[test]
    fn a_player_who_cannot_claim_by_playing_may_pass_and_call_muggins() {
        // Seat 0 cannot play after seat 1's missed 10, but may still call muggins.
        let mut g = game(
            rules(2, 3, "score=all-fives,to=none"),
            ["5-5,2-1,3-1", "5-0,0-0,4-4", "", ""],
        );
        play(&mut g, "5-0", 5, false);
        assert!(g.view(0).claim_only());
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        assert_eq!(v, vec![Action::PASS]);
        assert!(g
            .apply(
                Action::play(Tile::new(2, 1), 5, true),
                &mut Stream::seed_from_u64(1)
            )
            .is_err());
        g.apply(Action::PASS, &mut Stream::seed_from_u64(1))
            .unwrap();
        assert_eq!(g.game_points(0), 10 + 10);
        assert_eq!(g.to_act(), 1);
    }

    #[test]
    fn the_cross_is_covered_first_drawing_if_needed() {
        let mut g = game(
            rules(2, 3, "cross=on"),
            ["6-6,1-0,2-0", "6-5,6-4,3-0", "", ""],
        );
        assert_eq!(g.board().cross(), Some(6));
        play(&mut g, "6-5", 6, true);
        // Seat 0 holds no 6: it draws from the sleeping tiles until it does.
        let mut c = [0; MAX_COUNTERS];
        g.counters(&mut c);
        assert!(c[Counter::Drawn as usize] >= 1);
        assert_eq!(g.to_act(), 0);
        assert!(g.hand(0) & WITH[6] != 0);
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        assert!(v.iter().all(|a| a.at() == 6 && a.on_side()), "{v:?}");
    }

    #[test]
    fn a_view_shows_what_its_seat_sees_and_nothing_hidden() {
        // Seats 1 and 3 both hold a 6 and swap hands: nothing seat 0 or seat 2 has seen differs.
        let r = rules(4, 6, "draw=on,score=all-fives,to=none");
        let a = [
            "6-6,5-5,4-4,3-3,2-2,1-1",
            "6-5,6-4,5-4,3-0,2-0,1-0",
            "0-0,5-0,4-0,3-1,2-1,5-1",
            "6-3,6-2,4-3,5-3,4-2,3-2",
        ];
        let b = [a[0], a[3], a[2], a[1]];
        let (ga, gb) = (game(r, a), game(r, b));
        for seat in [0, 2] {
            assert_eq!(
                format!("{:?}", ga.view(seat)),
                format!("{:?}", gb.view(seat))
            );
        }
        assert_ne!(format!("{:?}", ga.view(1)), format!("{:?}", gb.view(1)));
        let shown = format!("{:?}", ga.view(2));
        for part in [
            "seat: 2",
            "hand: \"5-1 5-0 4-0 3-1 2-1 0-0\"",
            "hand sizes: [5, 6, 6, 6]",
            "boneyard: 4",
            "board tiles: \"6-6\"",
            "known to lack",
            "to act: 1",
            "game points: [0, 0]",
        ] {
            assert!(shown.contains(part), "{part} in {shown}");
        }
        // Nobody else's tiles, nor the boneyard's.
        assert!(!shown.contains("6-5") && !shown.contains("6-3"), "{shown}");
    }

    #[test]
    fn both_partners_must_go_out() {
        let hands = ["6-6", "5-5", "6-1", "4-4"];
        let g = game(rules(4, 1, ""), hands);
        assert_eq!(
            g.outcome(),
            Some(Outcome::Event(0b0101)),
            "the opener is out at once"
        );
        let mut g = game(rules(4, 1, "both-partners=on"), hands);
        assert_eq!(g.outcome(), None);
        assert_eq!(g.to_act(), 2, "seat 2 cannot play 5-5 and knocks");
        play(&mut g, "6-1", 6, true);
        assert_eq!(g.outcome(), Some(Outcome::Event(0b0101)));
    }

    #[test]
    fn a_match_goes_on_until_a_side_reaches_the_target() {
        let r = rules(2, 7, "to=3");
        let mut rng = Stream::seed_from_u64(11);
        let mut g = DominoState::deal(&r, &Start::default(), &mut rng);
        while !g.is_over() {
            let a = g.nth_action(0);
            g.apply(a, &mut rng).unwrap();
            g.check_invariants().unwrap();
        }
        let Some(Outcome::Event(m)) = g.outcome() else {
            panic!("a match has a winner")
        };
        let w = m.trailing_zeros() as usize;
        assert!(g.side_points(w) >= 3 && g.side_points(1 - w) < g.side_points(w));
        assert!(g.games() >= 3);
        let mut c = [0; MAX_COUNTERS];
        g.counters(&mut c);
        assert_eq!(c[Counter::Games as usize], g.games() as i64);
        assert_eq!(
            c[SIDE_POINTS] + c[SIDE_POINTS + 1],
            g.side_points(0) + g.side_points(1)
        );
    }
}
