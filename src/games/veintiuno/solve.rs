//! Exact expected values of a player's moves against the bank's up card, by enumeration over the
//! cards left in the shoe: every card a move can draw, weighed by how many copies are left,
//! removed as it is drawn, with the values memoised on the cards left and the hand.
//!
//! The model is one player's hand against the bank as [`super::engine::Table`] plays it:
//! - The bank's hole card is one of the unseen cards, and when the bank would send the players
//!   al puje (its two cards count 20) no player decides anything; so at a decision the hole card
//!   is uniform over the unseen cards that do **not** make 20 with the up card. A card the player
//!   draws is then any unseen card but the hole card: a card of kind `x` comes with probability
//!   `n_x (1 − [x can be the hole] / Q) / (N − 1)`, `N` the unseen cards and `Q` those that can
//!   be the hole, and after it the hole card is still uniform over those left that can be.
//! - The bank stands on its two-card specials (21 in two cards, moñona, a 12 counting 20 or 21)
//!   and otherwise draws to its standing total (the ace 11 when that does not pass 21), then
//!   every open hand is compared with it; the bank wins ties; a bank that passes 21 pays every
//!   open hand, and a tapo hand past 21 then neither wins nor loses.
//! - A hand that passes 21 loses at once; 21 in seven cards (trillona) is paid 7× at once.
//! - A split puts the pair's first card with the next card (the bet stays) and its second card
//!   with the card after (2 units), both dealt at once; a split hand may be a two-card special
//!   (21 in two cards and moñona are paid at once), may withdraw on 13, never plays tapo; the
//!   hands are played in the engine's order, and a hand that pairs again is split again (a new
//!   hand of 2 units), as often as pairs come (the rules limit only the stake). Each hand is
//!   solved from the shoe after the pair cards of its own line and its own second card, as if
//!   the other hands drew nothing: that is exact, not an approximation — no decision (the
//!   sheet's, the fixed bank's) looks at the other hands' cards, and no limit on the number of
//!   hands lets one line's pairs stop another's, so to each hand and to the bank those cards are
//!   cards dealt unseen, which do not change the odds of what comes after (the burn-card
//!   argument; the tests deal every ordering of tiny shoes through the engine, splitting again
//!   included, five hands from one pair of two decks among them, and find split values equal to
//!   1e-12). In an infinite shoe a line that pairs again meets the same shoe: its values are the
//!   fixed point of a small linear system, solved to the last bit.
//!   A line is followed card by card [`SPLIT_DEPTH`] splits deep (every card of a rank up to two
//!   decks); deeper, it goes on as if the shoe stayed as it is then (see [`Solver::split`]).
//! - Suits matter only where a 12 of one suit counts 21: the solver keeps the suits of the ranks
//!   that can make such a 12 with the up card (or with a split pair) and pools the others. The
//!   memos count the cards unseen in the classes the bank tells apart as its hole card (a hand
//!   playing on, and the bank once its hole card is known, draw by points alone), and the up
//!   cards of one rank share them.
//! - A shoe that runs dry (no card left but the hole card) ends the drawing: the player stands,
//!   and the bank stands on what it holds (the engine would reshuffle the discards; a sheet
//!   needs at least 12 cards, and hands that long do not arise there).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::cards::{rank_points, Card, DECK, RANK_COUNT};
use super::engine::{Decision, Move, PlayerPolicy};
use super::rules::{two_card, two_card_total, Options, Points, TwoCard};

/// The Fx hash (multiply and rotate): the memo keys are small arrays of counts.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// How many times one line of a split is solved splitting again card by card: every card of
/// the pair's rank in up to two decks (eight, six left after the pair), so exact there. With
/// more of the rank left, a line that has split that often goes on splitting in the shoe as it
/// stands then (see [`Solver::split`]).
pub const SPLIT_DEPTH: u8 = 6;

/// Two moves whose EVs differ by no more than this are a tie, and the sheet plays the earlier
/// of them (stand before hit before the special move): sums of thousands of terms in another
/// order differ in the last bits, and a decision should not turn on that (against a bank that
/// stands only on 21, hit and stand tie in whole rows).
pub const TIE: f64 = 1e-12;

/// The bank's final total: `[t]` for t = 0..=21, `[22]` = bust.
pub type Dist = [f64; 23];

/// Cards left by card index; ranks whose suits do not matter are pooled on their first suit.
pub type Shoe = [u8; DECK];

/// The net of an open hand of total `total` (bet 1) against the bank's final total `d`; a
/// `total` above 21 is a tapo hand past 21 (it loses unless the bank passes 21 too).
#[inline]
pub fn pay(d: &Dist, total: u8) -> f64 {
    let bust = d[22];
    if total > 21 {
        return -(d[..22].iter().sum::<f64>());
    }
    let less: f64 = d[..total as usize].iter().sum();
    let rest: f64 = d[total as usize..22].iter().sum();
    bust + less - rest
}

/// The solver for one up card: what each hole card gives the bank, and the memos.
pub struct Solver<'a> {
    opts: &'a Options,
    stand: u8,
    up: Card,
    /// Ranks whose suits are kept apart.
    tracked: [bool; RANK_COUNT],
    /// Whether a hole card (by index) would send the players al puje.
    puje: [bool; DECK],
    /// The bank's two-card total with each hole card, and whether it draws on.
    bank_two: [u8; DECK],
    bank_draws: [bool; DECK],
    /// An infinite shoe: every card is drawn with the chance its share of the shoe gives, and
    /// nothing drawn changes the shoe (the hole card then says nothing of the other cards).
    infinite: bool,
    /// The class of each card index in the memo keys: cards the bank and a hand playing on
    /// cannot tell apart share one (see [`Solver::key_pooled`]).
    key_class: [u8; DECK],
    /// How many classes `key_class` uses.
    classes: usize,
    /// What the hands and the bank are worth by the cards unseen: shared with the split
    /// solvers of the same up card (see [`Memos`]).
    memo: Memos,
    /// How many times a line of a split is solved splitting again card by card (see
    /// [`Solver::split`]).
    split_depth: u8,
    /// Lines of splits by the cards unseen, the line's first card, how often it may still
    /// split again and whether it then goes on in the shoe as it stands.
    split_memo: HashMap<(Shoe, u8, u8, bool), (f64, f64)>,
}

/// The memos of a solver, by the cards unseen as its up card's key classes count them
/// ([`Solver::key_pooled`]): the solvers of up cards of one rank (and a split's, which keeps
/// more suits apart) key them alike, so they share them ([`Solver::swap_memo`]).
struct Memos {
    /// The memos of the bank's final totals hold places in `dists`: a map whose values are
    /// small grows without moving the distributions around. `draw_memo` is the bank's draws
    /// once its hole card is known, by the cards left by point class and its points.
    draw_memo: FxMap<(u64, u8, bool), u32>,
    dist_memo: FxMap<u128, u32>,
    dists: Dists,
    hand_memo: FxMap<(u128, u8, bool, u8), f64>,
}

impl Memos {
    fn new(stand: u8) -> Self {
        Self {
            draw_memo: FxMap::default(),
            dist_memo: FxMap::default(),
            dists: Dists::new(stand),
            hand_memo: FxMap::default(),
        }
    }
}

/// The bank's final totals, stored short: a bank that draws to `stand` ends at `stand` to 21
/// or past 21 unless the shoe runs dry first (or stands below `stand` on a two-card special),
/// so most distributions keep only those `23 − stand` entries, a quarter of the memory at 17
/// (the memos run to millions: their pages were a third of the time). A place in the store
/// whose top bit is set is a whole distribution.
struct Dists {
    stand: usize,
    short: Vec<f64>,
    whole: Vec<Dist>,
}

/// The top bit of a place in [`Dists`]: a whole distribution.
const WHOLE: u32 = 1 << 31;

impl Dists {
    fn new(stand: u8) -> Self {
        Self {
            stand: stand as usize,
            short: Vec::new(),
            whole: Vec::new(),
        }
    }

    /// Stores `d`, short when nothing lies below `stand`: its place.
    fn push(&mut self, d: &Dist) -> u32 {
        if d[..self.stand].iter().all(|&x| x == 0.0) {
            let w = 23 - self.stand;
            let at = self.short.len() / w;
            self.short.extend_from_slice(&d[self.stand..]);
            assert!((at as u32) < WHOLE, "too many distributions");
            at as u32
        } else {
            self.whole.push(*d);
            (self.whole.len() - 1) as u32 | WHOLE
        }
    }

    /// The distribution at `k`.
    fn get(&self, k: u32) -> Dist {
        let mut d = [0.0; 23];
        self.add_into(k, 1.0, &mut d);
        d
    }

    /// Adds `p` times the distribution at `k` to `d`.
    #[inline]
    fn add_into(&self, k: u32, p: f64, d: &mut Dist) {
        if k & WHOLE != 0 {
            for (x, y) in d.iter_mut().zip(&self.whole[(k & !WHOLE) as usize]) {
                *x += p * y;
            }
        } else {
            let w = 23 - self.stand;
            let from = k as usize * w;
            for (x, y) in d[self.stand..].iter_mut().zip(&self.short[from..from + w]) {
                *x += p * y;
            }
        }
    }
}

/// The bank draws by points alone: its draws are counted in eight classes, the ranks A to 7
/// and the ten-point figures together (a rank's class is `rank.min(7)`).
const POINT_CLASSES: usize = 8;

/// At most this many key classes (7 bits each fill a `u128`; see [`Solver::key_pooled`]).
const MAX_CLASSES: usize = 18;

/// The ranks that make 12 with a card of rank `rank` (where suits can count: a 12 of one suit).
fn twelve_partners(rank: usize) -> impl Iterator<Item = usize> {
    (0..RANK_COUNT).filter(move |&r| rank_points(rank) + rank_points(r) == 12)
}

impl<'a> Solver<'a> {
    /// A solver for the up card `up`, the bank standing at `stand` and sending players al puje
    /// when `puje` (and the rules allow it), keeping apart the suits of the ranks that make a 12
    /// with the up card or with a card of rank `pair` (a split pair).
    pub fn new(opts: &'a Options, stand: u8, puje: bool, up: Card, pair: Option<usize>) -> Self {
        let suits_count = opts.suited_twelve_21;
        let mut tracked = [false; RANK_COUNT];
        if suits_count {
            for r in twelve_partners(up.rank()) {
                tracked[r] = true;
            }
            if let Some(p) = pair {
                for r in twelve_partners(p) {
                    tracked[r] = true;
                }
            }
        }
        let mut s = Self {
            opts,
            stand,
            up,
            tracked,
            puje: [false; DECK],
            bank_two: [0; DECK],
            bank_draws: [false; DECK],
            infinite: false,
            key_class: [0; DECK],
            classes: 0,
            memo: Memos::new(stand),
            split_depth: SPLIT_DEPTH,
            split_memo: HashMap::new(),
        };
        for i in 0..DECK {
            let hole = Card::from_index(i);
            let two = two_card_total(up, hole, opts);
            let pts = Points::default().add(up).add(hole);
            s.bank_two[i] = two;
            s.bank_draws[i] = two == pts.total() && two < stand;
            s.puje[i] = puje && opts.puje && two == 20;
        }
        // Cards are one class in the keys when the bank treats them alike as its hole card
        // (points, two-card total, draw and puje): a hand playing on and the bank then draw
        // by points alone. The figures are one class, and so are the suits of a rank but for
        // one that makes a 12 of the up card's suit. Sorted, so that up cards of one rank
        // number their classes alike and can share memos (see `solve_rows`).
        let sig = |i: usize| {
            (
                rank_points(i / 4),
                s.puje[i],
                s.bank_two[i],
                s.bank_draws[i],
            )
        };
        let mut seen: Vec<(u8, bool, u8, bool)> = (0..DECK).map(sig).collect();
        seen.sort_unstable();
        seen.dedup();
        for i in 0..DECK {
            s.key_class[i] = seen.binary_search(&sig(i)).expect("listed") as u8;
        }
        s.classes = seen.len();
        // Seven bits a class (at most 96 cards of a class in eight decks) fill at most 128.
        assert!(s.classes <= MAX_CLASSES, "{} key classes", s.classes);
        s
    }

    /// Swaps this solver's memos with `memo`, those of a solver of an up card of the same
    /// rank, rules and bank (standing total, shoe finite or not): the key classes of such
    /// solvers mean the same cards, so they can share memos (a split solver borrows its up
    /// card's for one split; the up cards of one rank lend theirs to each other).
    fn swap_memo(&mut self, memo: &mut Memos) {
        debug_assert!(self.stand as usize == memo.dists.stand);
        std::mem::swap(&mut self.memo, memo);
    }

    /// The same solver with an infinite shoe of the proportions of the shoes it is given (a
    /// card drawn is not removed).
    pub fn infinite(mut self, on: bool) -> Self {
        self.infinite = on;
        self
    }

    /// The same solver solving a line of a split again card by card up to `depth` times (the
    /// default is [`SPLIT_DEPTH`]; a depth at least the cards of the pair's rank left solves
    /// every line exactly).
    pub fn split_depth(mut self, depth: u8) -> Self {
        self.split_depth = depth;
        self
    }

    /// `s` without one card of index `i` (the same shoe when it is infinite).
    #[inline]
    fn without(&self, s: &Shoe, i: usize) -> Shoe {
        let mut rest = *s;
        if !self.infinite {
            rest[i] -= 1;
        }
        rest
    }

    /// The cards `counts` (by card index) as this solver keeps them.
    pub fn canon(&self, counts: &[u8; DECK]) -> Shoe {
        let mut s = [0u8; DECK];
        for r in 0..RANK_COUNT {
            if self.tracked[r] {
                s[r * 4..r * 4 + 4].copy_from_slice(&counts[r * 4..r * 4 + 4]);
            } else {
                s[r * 4] = counts[r * 4..r * 4 + 4].iter().sum();
            }
        }
        s
    }

    /// Unseen cards and those that can be the hole card.
    #[inline]
    fn sizes(&self, s: &Shoe) -> (u32, u32) {
        let mut n = 0;
        let mut q = 0;
        for (&c, &puje) in s.iter().zip(&self.puje) {
            n += c as u32;
            if !puje {
                q += c as u32;
            }
        }
        (n, q)
    }

    /// The chance that a decision is reached with these cards unseen: the hole card does not
    /// send the players al puje.
    pub fn reach(&self, s: &Shoe) -> f64 {
        let (n, q) = self.sizes(s);
        if n == 0 {
            0.0
        } else {
            q as f64 / n as f64
        }
    }

    /// Whether the player can draw: a card is left besides the hole card.
    #[inline]
    fn can_draw(&self, s: &Shoe) -> bool {
        self.infinite || self.sizes(s).0 >= 2
    }

    /// The chance of drawing each card index (zero where none is left), the hole card being
    /// one of the cards that can be it.
    #[inline]
    fn draw_odds(&self, s: &Shoe) -> [f64; DECK] {
        let (n, q) = self.sizes(s);
        let mut p = [0.0; DECK];
        if self.infinite && n > 0 {
            for i in 0..DECK {
                p[i] = s[i] as f64 / n as f64;
            }
            return p;
        }
        if n < 2 || q == 0 {
            return p;
        }
        let (nf, qf) = ((n - 1) as f64, q as f64);
        for i in 0..DECK {
            if s[i] > 0 {
                let hole = if self.puje[i] { 0.0 } else { 1.0 / qf };
                p[i] = s[i] as f64 * (1.0 - hole) / nf;
            }
        }
        p
    }

    /// [`Solver::draw_odds`] summed by key class, with a card index of each class the shoe
    /// holds: the cards of a class are alike to a hand playing on and to the bank, so a draw
    /// needs one term a class.
    #[inline]
    fn class_odds(&self, s: &Shoe) -> ([f64; MAX_CLASSES], [usize; MAX_CLASSES]) {
        let p = self.draw_odds(s);
        let mut w = [0.0; MAX_CLASSES];
        let mut at = [0usize; MAX_CLASSES];
        for (i, &x) in p.iter().enumerate() {
            if x > 0.0 {
                let c = self.key_class[i] as usize;
                w[c] += x;
                at[c] = i;
            }
        }
        (w, at)
    }

    /// The bank's final total with these cards unseen (the hole card among them).
    pub fn bank(&mut self, s: &Shoe) -> Dist {
        let k = self.bank_index(s);
        self.memo.dists.get(k)
    }

    /// [`Solver::bank`]'s distribution, as its place in `dists` (no copies).
    fn bank_index(&mut self, s: &Shoe) -> u32 {
        let key = self.key_pooled(s);
        if let Some(&k) = self.memo.dist_memo.get(&key) {
            return k;
        }
        let (_, q) = self.sizes(s);
        let mut d = [0.0; 23];
        if q > 0 {
            // Hole cards of one key class are alike to the bank: one term each.
            let mut classes = [0u8; POINT_CLASSES];
            let mut count = [0u32; MAX_CLASSES];
            let mut at = [0usize; MAX_CLASSES];
            for (i, &n) in s.iter().enumerate() {
                classes[(i / 4).min(7)] += n;
                if n > 0 && !self.puje[i] {
                    let c = self.key_class[i] as usize;
                    count[c] += n as u32;
                    at[c] = i;
                }
            }
            for (&n, &i) in count[..self.classes].iter().zip(&at) {
                if n == 0 {
                    continue;
                }
                let w = n as f64 / q as f64;
                if !self.bank_draws[i] {
                    d[self.bank_two[i] as usize] += w;
                } else {
                    let mut rest = classes;
                    if !self.infinite {
                        rest[(i / 4).min(7)] -= 1;
                    }
                    let pts = Points::default().add(self.up).add(Card::from_index(i));
                    let sub = self.draw_index(rest, pts);
                    self.memo.dists.add_into(sub, w, &mut d);
                }
            }
        }
        let k = self.memo.dists.push(&d);
        self.memo.dist_memo.insert(key, k);
        k
    }

    /// The bank's final total drawing from `classes` (cards left by point class, see
    /// [`POINT_CLASSES`]) with `pts`, below its standing total: its place in `dists`.
    fn draw_index(&mut self, classes: [u8; POINT_CLASSES], pts: Points) -> u32 {
        let key = classes.iter().fold(0u64, |k, &c| (k << 7) | c as u64);
        if let Some(&k) = self.memo.draw_memo.get(&(key, pts.hard, pts.ace)) {
            return k;
        }
        let mut d = [0.0; 23];
        let left: u32 = classes.iter().map(|&c| c as u32).sum();
        if left == 0 {
            d[pts.total() as usize] = 1.0;
        } else {
            for r in 0..POINT_CLASSES {
                if classes[r] == 0 {
                    continue;
                }
                let p = classes[r] as f64 / left as f64;
                let next = pts.add_points(rank_points(r));
                if next.hard > 21 {
                    d[22] += p;
                } else if next.total() >= self.stand {
                    d[next.total() as usize] += p;
                } else {
                    let mut rest = classes;
                    if !self.infinite {
                        rest[r] -= 1;
                    }
                    let sub = self.draw_index(rest, next);
                    self.memo.dists.add_into(sub, p, &mut d);
                }
            }
        }
        let k = self.memo.dists.push(&d);
        self.memo.draw_memo.insert((key, pts.hard, pts.ace), k);
        k
    }

    /// EV of standing on `total` (a tapo hand past 21 above 21).
    pub fn stand(&mut self, s: &Shoe, total: u8) -> f64 {
        let k = self.bank_index(s);
        pay(&self.memo.dists.get(k), total)
    }

    /// EV of hitting a hand of `pts` in `cards` cards (no two-card special left once it draws),
    /// then playing on with `policy`.
    pub fn hit(&mut self, policy: &PlayerPolicy, s: &Shoe, pts: Points, cards: u8) -> f64 {
        let (p, at) = self.class_odds(s);
        let mut ev = 0.0;
        for (&w, &i) in p[..self.classes].iter().zip(&at) {
            if w == 0.0 {
                continue;
            }
            let next = pts.add(Card::from_index(i));
            let v = if next.hard > 21 {
                -1.0
            } else if next.total() == 21 && cards + 1 == 7 && self.opts.trillona {
                7.0
            } else {
                let rest = self.without(s, i);
                self.play_on(policy, &rest, next, cards + 1)
            };
            ev += w * v;
        }
        ev
    }

    /// EV of a hand of `pts` in `cards` cards (three or more, or two without a special) played
    /// on with `policy`: hit or stand by its total.
    pub fn play_on(&mut self, policy: &PlayerPolicy, s: &Shoe, pts: Points, cards: u8) -> f64 {
        let total = pts.total();
        if total >= 21 {
            return self.stand(s, total);
        }
        let key = (self.key_pooled(s), pts.hard, pts.ace, cards.min(7));
        if let Some(&v) = self.memo.hand_memo.get(&key) {
            return v;
        }
        let d = Decision {
            points: pts,
            total,
            cards,
            pair: None,
            can_withdraw: false,
            can_tapo: false,
            can_end_hand: false,
            up: self.up.rank(),
            bet: None,
        };
        let v = if policy.decide(&d) == Move::Hit && self.can_draw(s) {
            self.hit(policy, s, pts, cards)
        } else {
            self.stand(s, total)
        };
        self.memo.hand_memo.insert(key, v);
        v
    }

    /// EV of tapo y quedo on a hand of `pts`: one more card, unseen until the end.
    pub fn tapo(&mut self, s: &Shoe, pts: Points) -> f64 {
        let (p, at) = self.class_odds(s);
        let mut ev = 0.0;
        for (&w, &i) in p[..self.classes].iter().zip(&at) {
            if w == 0.0 {
                continue;
            }
            let next = pts.add(Card::from_index(i));
            let rest = self.without(s, i);
            let total = if next.hard > 21 { 22 } else { next.total() };
            ev += w * self.stand(&rest, total);
        }
        ev
    }

    /// EV of splitting the pair `first`, `second` (card indices in this solver's shoe, with
    /// the cards unseen `s`), as the engine deals it: the next card joins the first (the bet
    /// stays), the card after it the second (a new hand of 2 units); a hand that is a pair
    /// again is split again when `resplit` (a new hand of 2 units each time, as many times as
    /// pairs come: the rules set no limit but the stake); then each hand is played out with
    /// `policy` in the engine's order.
    ///
    /// No decision (the policy's, the fixed bank's) looks at another hand's cards, and nothing
    /// limits how often a hand splits again, so to each hand every card dealt to the others is
    /// a card dealt unseen (the burn-card argument): a hand is solved from the cards left after
    /// the pair cards of its own line, its own second card gone (`split_line`, one line of
    /// splits). Each time a line splits again its hands are solved from a new shoe, one pair
    /// card fewer, up to [`SPLIT_DEPTH`] times (the solver's `split_depth`): exact while no
    /// more cards of the pair's rank are left (two decks or fewer). Deeper, the line goes on
    /// splitting as if the shoe stayed as it is then — a small linear system
    /// (`split_line_frozen`), exact in an infinite shoe — where one deeper shoe after another
    /// would cost about 0.45 s each with eight decks. Against every line solved sixteen deep
    /// (fresh eight-deck shoe, every cell of the sheet; deeper moves nothing by 1e-14) that
    /// moves no EV by more than 5e-8; stopping the lines there instead (not splitting again)
    /// moved them by up to 3e-6, and three deep by 0.0008.
    pub fn split(
        &mut self,
        policy: &PlayerPolicy,
        s: &Shoe,
        first: u8,
        second: u8,
        resplit: bool,
    ) -> f64 {
        if self.infinite {
            let lines = self.split_line_frozen(policy, s, first, resplit);
            let ((a1, b1), (a2, b2)) = (self.line_of(&lines, first), self.line_of(&lines, second));
            return a1 + b1 + 2.0 * a2 + b2;
        }
        // With no more cards of the rank left than the depth, the depth never binds: every
        // level takes one of them.
        let (deeper, tail) = match resplit {
            false => (0, false),
            true => (
                self.split_depth,
                self.rank_left(s, first) > u32::from(self.split_depth),
            ),
        };
        let (a1, b1) = self.split_line(policy, s, first, deeper, tail);
        let (a2, b2) = self.split_line(policy, s, second, deeper, tail);
        a1 + b1 + 2.0 * a2 + b2
    }

    /// The line of the card `c` among those [`Solver::split_line_frozen`] gives for its rank:
    /// a pooled rank's line is its first suit's.
    fn line_of(&self, lines: &[(f64, f64); 4], c: u8) -> (f64, f64) {
        lines[if self.tracked[c as usize / 4] {
            c as usize % 4
        } else {
            0
        }]
    }

    /// Cards of the rank of card index `card` left in `s`.
    fn rank_left(&self, s: &Shoe, card: u8) -> u32 {
        let r = card as usize / 4;
        s[r * 4..r * 4 + 4].iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether the card of index `y` pairs a split hand whose first card is `f`: the engine
    /// offers a split to two cards of one rank that are no special.
    #[inline]
    fn pairs(&self, f: u8, y: usize) -> bool {
        let (f, c) = (Card::from_index(f as usize), Card::from_index(y));
        c.rank() == f.rank() && two_card(f, c, self.opts) == TwoCard::Plain
    }

    /// A hand of a split whose first card is `first` and whose second card comes from the
    /// cards unseen `s`, split again whenever that card pairs it, `deeper` more times at most
    /// along this line: `(a, b)`, its own expected net per unit of its bet, and the expected
    /// net of the hands split off it (2 units each, whatever its bet). Memoised: lines of one
    /// pair differ only in the pair's cards left.
    fn split_line(
        &mut self,
        policy: &PlayerPolicy,
        s: &Shoe,
        first: u8,
        deeper: u8,
        tail: bool,
    ) -> (f64, f64) {
        let key = (*s, first, deeper, tail);
        if let Some(&v) = self.split_memo.get(&key) {
            return v;
        }
        if deeper == 0 && tail {
            let lines = self.split_line_frozen(policy, s, first, true);
            let v = self.line_of(&lines, first);
            self.split_memo.insert(key, v);
            return v;
        }
        let odds = self.draw_odds(s);
        let (mut a, mut b) = (0.0, 0.0);
        for (y, &w) in odds.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let rest = self.without(s, y);
            if deeper > 0 && self.pairs(first, y) {
                // The hand goes on with the next card; the new hand takes this one.
                let (af, bf) = self.split_line(policy, &rest, first, deeper - 1, tail);
                let (ay, by) = self.split_line(policy, &rest, y as u8, deeper - 1, tail);
                a += w * af;
                b += w * (bf + 2.0 * ay + by);
            } else {
                a += w * self.split_hand(policy, &rest, first, y as u8);
            }
        }
        self.split_memo.insert(key, (a, b));
        (a, b)
    }

    /// [`Solver::split_line`] in a shoe that stays as it is, for every suit of the pair's rank
    /// at once (`[suit]`; a pooled rank uses its first): exact in an infinite shoe, and the
    /// tail of a finite shoe's line past the solver's split depth (each hand still solved
    /// without its own second card). A line that pairs again meets the same shoe, so its
    /// values are the fixed point of
    /// `a_f = Σ_{y not pairing} w_y EV(f, y) + W_f a_f` and
    /// `b_f = Σ_{y pairing} w_y (b_f + 2 a_y + b_y)`, `W_f` the chance that `f`'s next card
    /// pairs it. The second is a contraction while `2 W_f < 1` (fewer than one new hand
    /// expected from each): solved by iteration to the last bit. A shoe in which half the
    /// cards or more pair a hand never ends a line; there the split is valued without
    /// splitting again.
    fn split_line_frozen(
        &mut self,
        policy: &PlayerPolicy,
        s: &Shoe,
        first: u8,
        resplit: bool,
    ) -> [(f64, f64); 4] {
        let base = first - first % 4;
        let suits: Vec<u8> = if self.tracked[first as usize / 4] {
            (base..base + 4).collect()
        } else {
            vec![base]
        };
        let odds = self.draw_odds(s);
        // Own part and pairing chance of each first card, and the pairing cards' chances.
        let mut own = [0.0; 4];
        let mut pairing = [0.0; 4];
        let mut to = [[0.0; 4]; 4];
        for &f in &suits {
            let i = (f % 4) as usize;
            for (y, &w) in odds.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                if resplit && self.pairs(f, y) {
                    pairing[i] += w;
                    to[i][y % 4] += w;
                } else {
                    let rest = self.without(s, y);
                    own[i] += w * self.split_hand(policy, &rest, f, y as u8);
                }
            }
        }
        if pairing.iter().any(|&p| 2.0 * p >= 1.0) {
            return self.split_line_frozen(policy, s, first, false);
        }
        let a: [f64; 4] = std::array::from_fn(|i| own[i] / (1.0 - pairing[i]));
        let mut b = [0.0; 4];
        // Each step shrinks the error by 2 W_f < 1; the cap only guards a last-bit cycle.
        for _ in 0..100_000 {
            let next: [f64; 4] = std::array::from_fn(|i| {
                pairing[i] * b[i] + (0..4).map(|j| to[i][j] * (2.0 * a[j] + b[j])).sum::<f64>()
            });
            if next == b {
                break;
            }
            b = next;
        }
        std::array::from_fn(|i| (a[i], b[i]))
    }

    /// EV (per unit bet) of a two-card hand made by a split, played with `policy`: 21 in two
    /// cards and moñona paid at once, a 12 counting 20 or 21, withdrawal on 13, no tapo.
    fn split_hand(&mut self, policy: &PlayerPolicy, s: &Shoe, a: u8, b: u8) -> f64 {
        let (a, b) = (Card::from_index(a as usize), Card::from_index(b as usize));
        let pts = Points::default().add(a).add(b);
        let kind = two_card(a, b, self.opts);
        let total = match kind {
            TwoCard::Natural => return self.opts.natural_pays as f64,
            TwoCard::Monona => return self.opts.monona_pays as f64,
            TwoCard::TwelveSuited => return self.stand(s, 21),
            TwoCard::Twelve => 20,
            _ => pts.total(),
        };
        let d = Decision {
            points: pts,
            total,
            cards: 2,
            pair: None,
            can_withdraw: kind == TwoCard::Thirteen && self.opts.withdraw_13,
            can_tapo: false,
            can_end_hand: false,
            up: self.up.rank(),
            bet: None,
        };
        match policy.decide(&d) {
            Move::Withdraw => 0.0,
            Move::Hit if self.can_draw(s) => self.hit(policy, s, pts, 2),
            _ => self.stand(s, total),
        }
    }

    /// The memo key of a shoe: each key class's count in 7 bits. A hand playing on draws by
    /// points, and so does the bank once its hole card is known, so only the hole card can
    /// tell cards of equal points apart: those it treats alike count as one class.
    #[inline]
    fn key_pooled(&self, s: &Shoe) -> u128 {
        let mut counts = [0u8; MAX_CLASSES];
        for (&c, &k) in s.iter().zip(&self.key_class) {
            counts[k as usize] += c;
        }
        counts[..self.classes]
            .iter()
            .fold(0u128, |k, &c| (k << 7) | c as u128)
    }
}

/// A row of the sheet: which hands it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Row {
    /// Hard total, two or three cards (the first two no special).
    Hard(u8),
    /// Soft total, two or three cards (the first two no special).
    Soft(u8),
    /// Two cards, no special, hard total (for tapo y quedo).
    TwoCards(u8),
    /// 13 in two cards (to withdraw).
    Thirteen,
    /// Two cards of one rank, no special (to split).
    Pair(usize),
}

impl Row {
    /// The moves compared in the row, in the order their EVs are given.
    pub fn moves(self) -> &'static [Move] {
        match self {
            Row::Hard(_) | Row::Soft(_) => &[Move::Stand, Move::Hit],
            Row::TwoCards(_) => &[Move::Stand, Move::Hit, Move::Tapo],
            Row::Thirteen => &[Move::Stand, Move::Hit, Move::Withdraw],
            Row::Pair(_) => &[Move::Stand, Move::Hit, Move::Split],
        }
    }

    /// Whether a hand of these cards (the first two `a`, `b`, and `c` if a third) is in the
    /// row.
    pub fn holds(self, a: Card, b: Card, c: Option<Card>, opts: &Options) -> bool {
        let kind = two_card(a, b, opts);
        let plain = matches!(kind, TwoCard::Plain | TwoCard::Relancina);
        let two = Points::default().add(a).add(b);
        match (self, c) {
            (Row::Hard(t), None) | (Row::TwoCards(t), None) => {
                plain && !two.is_soft() && two.total() == t
            }
            (Row::Soft(t), None) => plain && two.is_soft() && two.total() == t,
            (Row::Hard(t), Some(c)) => {
                let three = two.add(c);
                plain && three.hard <= 21 && !three.is_soft() && three.total() == t
            }
            (Row::Soft(t), Some(c)) => {
                let three = two.add(c);
                plain && three.is_soft() && three.total() == t
            }
            (Row::Thirteen, None) => kind == TwoCard::Thirteen,
            (Row::Pair(r), None) => plain && a.rank() == r && b.rank() == r,
            _ => false,
        }
    }

    /// Every row of a sheet under `opts`, in the order they are solved: each row's hands
    /// continue only into rows solved before it (hard 20 down to 11, soft 20 down to 12, hard
    /// 10 down to 4), then tapo y quedo, withdrawal and pairs.
    pub fn all(opts: &Options) -> Vec<Row> {
        let mut v: Vec<Row> = (11..=20).rev().map(Row::Hard).collect();
        v.extend((12..=20).rev().map(Row::Soft));
        v.extend((4..=10).rev().map(Row::Hard));
        if opts.tapo {
            v.extend((4..=20).map(Row::TwoCards));
        }
        if opts.withdraw_13 {
            v.push(Row::Thirteen);
        }
        v.extend((1..RANK_COUNT).map(Row::Pair));
        v
    }
}

/// One hand of a row, as the solvers see it: the cards unseen after it and the up card, its
/// points and cards, its first two cards (card indices), and its weight.
#[derive(Clone, Copy, Debug)]
struct RowHand {
    shoe: [u8; DECK],
    pts: Points,
    cards: u8,
    first: u8,
    second: u8,
    weight: f64,
}

/// What tells two hands of a row apart: the cards unseen, the hand's hard points, ace and
/// cards, and (for a split) its two cards.
type HandKey = ([u8; DECK], u8, bool, u8, u8, u8);

/// One up card of a derivation: its solver, its share of its up-card class, and the hands of
/// each row dealt with it.
struct UpCard<'a> {
    up: Card,
    solver: Solver<'a>,
    hands: HashMap<Row, Vec<RowHand>>,
}

/// Every move's summed weighted EV in one row against one up card, and the summed weight.
type RowSums = (Vec<f64>, f64);

impl<'a> UpCard<'a> {
    /// The up card `up` dealt from `comp` with `weight` (its chance), and every hand of every
    /// row dealt after it, each weighed by its chance of being dealt and of the bank not
    /// sending the players al puje.
    #[allow(clippy::too_many_arguments)]
    fn new(
        opts: &'a Options,
        stand: u8,
        puje: bool,
        infinite: bool,
        comp: &[u8; DECK],
        up: Card,
        weight: f64,
        rows: &[Row],
    ) -> Self {
        let solver = Solver::new(opts, stand, puje, up, None).infinite(infinite);
        let rest = solver.without(comp, up.index());
        // Cards dealt leave the shoe, unless it is infinite.
        let dealt = |k: f64| if infinite { 0.0 } else { k };
        let mut hands: HashMap<Row, Vec<RowHand>> = HashMap::new();
        let n: f64 = rest.iter().map(|&c| c as f64).sum();
        let mut push = |row: Row, shoe: &[u8; DECK], cards: &[Card], w: f64| {
            let pts = cards.iter().fold(Points::default(), |p, &c| p.add(c));
            hands.entry(row).or_default().push(RowHand {
                shoe: *shoe,
                pts,
                cards: cards.len() as u8,
                first: cards[0].index() as u8,
                second: cards[1].index() as u8,
                weight: w,
            });
        };
        for a in 0..DECK {
            if rest[a] == 0 {
                continue;
            }
            let wa = weight * rest[a] as f64 / n;
            let ra = solver.without(&rest, a);
            for b in 0..DECK {
                if ra[b] == 0 {
                    continue;
                }
                let wb = wa * ra[b] as f64 / (n - dealt(1.0));
                let rb = solver.without(&ra, b);
                let (ca, cb) = (Card::from_index(a), Card::from_index(b));
                for &row in rows {
                    if row.holds(ca, cb, None, opts) {
                        push(row, &rb, &[ca, cb], wb);
                    }
                }
                for c in 0..DECK {
                    if rb[c] == 0 {
                        continue;
                    }
                    let cc = Card::from_index(c);
                    let wc = wb * rb[c] as f64 / (n - dealt(2.0));
                    let rc = solver.without(&rb, c);
                    for &row in rows {
                        if matches!(row, Row::Hard(_) | Row::Soft(_))
                            && row.holds(ca, cb, Some(cc), opts)
                        {
                            push(row, &rc, &[ca, cb, cc], wc);
                        }
                    }
                }
            }
        }
        // The chance of a decision at all (no puje), and the hands merged where the solver
        // cannot tell them apart.
        for (row, list) in hands.iter_mut() {
            let mut merged: HashMap<HandKey, f64> = HashMap::new();
            for h in list.iter() {
                let shoe = solver.canon(&h.shoe);
                let w = h.weight * solver.reach(&shoe);
                if w == 0.0 {
                    continue;
                }
                // A split needs the pair's cards and the suits a split solver keeps.
                let key = if matches!(row, Row::Pair(_)) {
                    (h.shoe, h.pts.hard, h.pts.ace, h.cards, h.first, h.second)
                } else {
                    (shoe, h.pts.hard, h.pts.ace, h.cards, 0, 0)
                };
                *merged.entry(key).or_default() += w;
            }
            let mut v: Vec<RowHand> = merged
                .into_iter()
                .map(
                    |((shoe, hard, ace, cards, first, second), weight)| RowHand {
                        shoe,
                        pts: Points { hard, ace },
                        cards,
                        first,
                        second,
                        weight,
                    },
                )
                .collect();
            // A fixed order: the sums do not depend on the hash map's. The key is the merge's
            // whole key, so no two hands compare equal (in an infinite shoe every hand has the
            // same shoe, and a hard 17 with an ace and one without differ only in `ace`).
            v.sort_by_key(|x| (x.shoe, x.pts.hard, x.pts.ace, x.cards, x.first, x.second));
            *list = v;
        }
        Self { up, solver, hands }
    }

    /// The weighted sums of every move's EV in `row`, later decisions by `policy`.
    fn row(
        &mut self,
        row: Row,
        policy: &PlayerPolicy,
        opts: &'a Options,
        stand: u8,
        puje: bool,
    ) -> RowSums {
        let moves = row.moves();
        let mut sums = vec![0.0; moves.len()];
        let mut weight = 0.0;
        let Some(hands) = self.hands.get(&row) else {
            return (sums, 0.0);
        };
        // A split needs the suits of the ranks that make 12 with the pair's cards: its own
        // solver unless the up card's already keeps them.
        let mut split_solver = match row {
            Row::Pair(r) => {
                let s =
                    Solver::new(opts, stand, puje, self.up, Some(r)).infinite(self.solver.infinite);
                (s.tracked != self.solver.tracked).then_some(s)
            }
            _ => None,
        };
        for h in hands {
            let shoe = self.solver.canon(&h.shoe);
            let total = h.pts.total();
            for (k, m) in moves.iter().enumerate() {
                let ev = match m {
                    Move::Stand => self.solver.stand(&shoe, total),
                    Move::Hit => {
                        if self.solver.can_draw(&shoe) {
                            self.solver.hit(policy, &shoe, h.pts, h.cards)
                        } else {
                            self.solver.stand(&shoe, total)
                        }
                    }
                    Move::Tapo => self.solver.tapo(&shoe, h.pts),
                    // Split and split again whenever a pair comes: what the sheet plays where
                    // it splits. A split solver of its own borrows the up card's memos.
                    Move::Split => match split_solver.as_mut() {
                        Some(s) => {
                            s.swap_memo(&mut self.solver.memo);
                            let sh = s.canon(&h.shoe);
                            let ev = s.split(policy, &sh, h.first, h.second, true);
                            s.swap_memo(&mut self.solver.memo);
                            ev
                        }
                        None => {
                            let sh = self.solver.canon(&h.shoe);
                            self.solver.split(policy, &sh, h.first, h.second, true)
                        }
                    },
                    // (A bet is never among a cell's moves.)
                    Move::Withdraw | Move::EndHand | Move::Bet(_) => 0.0,
                };
                sums[k] += h.weight * ev;
            }
            weight += h.weight;
        }
        (sums, weight)
    }
}

/// One cell of an exact sheet: every move's EV (in [`Row::moves`] order), empty where no hand
/// reaches the cell.
pub type CellEvs = Vec<(char, f64)>;

/// Every cell of an exact sheet by row: `[row][up class]`.
pub type RowEvs = Vec<(Row, [CellEvs; 8])>;

/// The up-card class of a rank (A, 2–7, figures).
fn class_of(rank: usize) -> usize {
    rank.min(7)
}

/// Every cell's moves' EVs, exactly, for the cards `comp` in the shoe, the bank standing at
/// `stand` (and sending players al puje when `puje` and the rules allow), solving the rows in
/// [`Row::all`]'s order and setting the policy from each row before the next (each cell's best
/// move for every up card of its class). With `infinite`, the shoe is infinite with the
/// proportions of `comp` (no card dealt or drawn leaves it). Returns the rows and the policy.
pub fn solve_rows(
    opts: &Options,
    comp: &[u8; DECK],
    stand: u8,
    puje: bool,
    infinite: bool,
) -> (RowEvs, PlayerPolicy) {
    use rayon::prelude::*;
    let rows = Row::all(opts);
    let total: f64 = comp.iter().map(|&c| c as f64).sum();
    // The up cards: one per suit unless the shoe is the same with two suits swapped.
    let mut ups: Vec<(Card, f64)> = Vec::new();
    for r in 0..RANK_COUNT {
        let mut seen: Vec<(usize, f64)> = Vec::new();
        for s in 0..4 {
            let c = Card::new(r, s);
            if comp[c.index()] == 0 {
                continue;
            }
            let w = comp[c.index()] as f64 / total;
            let same = seen
                .iter_mut()
                .find(|(t, _)| (0..RANK_COUNT).all(|k| comp[k * 4 + s] == comp[k * 4 + *t]));
            match same {
                Some((_, sw)) => *sw += w,
                None => seen.push((s, w)),
            }
        }
        ups.extend(seen.into_iter().map(|(s, w)| (Card::new(r, s), w)));
    }
    let cards: Vec<UpCard> = ups
        .par_iter()
        .map(|&(up, w)| UpCard::new(opts, stand, puje, infinite, comp, up, w, &rows))
        .collect();
    // The up cards of one rank (suits apart) share memos: their key classes mean the same.
    let mut groups: Vec<(Memos, Vec<UpCard>)> = Vec::new();
    for c in cards {
        match groups.last_mut() {
            Some((_, g)) if g[0].up.rank() == c.up.rank() => g.push(c),
            _ => groups.push((Memos::new(stand), vec![c])),
        }
    }
    let mut policy = PlayerPolicy::mimic(17);
    policy.name = "exact".into();
    let mut out: RowEvs = Vec::new();
    for &row in &rows {
        let sums: Vec<(usize, RowSums)> = groups
            .par_iter_mut()
            .map(|(memo, g)| {
                let mut sums = Vec::with_capacity(g.len());
                for c in g.iter_mut() {
                    c.solver.swap_memo(memo);
                    let cell = c.row(row, &policy, opts, stand, puje);
                    c.solver.swap_memo(memo);
                    sums.push((class_of(c.up.rank()), cell));
                }
                sums
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .collect();
        let moves = row.moves();
        let mut cells: [CellEvs; 8] = Default::default();
        for (class, cell) in cells.iter_mut().enumerate() {
            let mut s = vec![0.0; moves.len()];
            let mut w = 0.0;
            for (c, (x, y)) in &sums {
                if *c == class {
                    for (a, b) in s.iter_mut().zip(x) {
                        *a += b;
                    }
                    w += y;
                }
            }
            if w > 0.0 {
                *cell = moves
                    .iter()
                    .zip(&s)
                    .map(|(m, v)| (m.code(), v / w))
                    .collect();
            }
        }
        // The policy plays each cell's best move from now on (as the sheet shows it: ties to
        // the earlier move).
        for (class, cell) in cells.iter().enumerate() {
            let Some((best, _, _)) = super::strategy::best_of(cell) else {
                continue;
            };
            for rank in (0..RANK_COUNT).filter(|&r| class_of(r) == class) {
                match row {
                    Row::Hard(t) | Row::Soft(t) => {
                        let m = if best == Move::Hit.code() {
                            Move::Hit
                        } else {
                            Move::Stand
                        };
                        if matches!(row, Row::Hard(_)) {
                            policy.hard[t as usize][rank] = m;
                        } else {
                            policy.soft[t as usize][rank] = m;
                        }
                    }
                    Row::TwoCards(t) => policy.tapo[t as usize][rank] = best == Move::Tapo.code(),
                    Row::Thirteen => policy.withdraw[rank] = best == Move::Withdraw.code(),
                    Row::Pair(r) => policy.split[r][rank] = best == Move::Split.code(),
                }
            }
        }
        out.push((row, cells));
    }
    (out, policy)
}

/// Every move's exact EV for one hand (`hand`, its cards in the order dealt) against the up
/// card `up`, the cards unseen (the hole card among them) being `comp` less the hand and the up
/// card, later decisions by `policy`; the moves are those the engine allows a lone player:
/// stand, hit, tapo y quedo (two cards), withdraw (13 in two cards), split (a pair; see
/// [`Solver::split`]). `None` when `comp` does not hold the cards, or no decision can be reached
/// (every hole card left would send the players al puje, or the hand is settled or at 21).
#[allow(clippy::too_many_arguments)]
pub fn hand_evs(
    opts: &Options,
    comp: &[u8; DECK],
    stand: u8,
    puje: bool,
    policy: &PlayerPolicy,
    hand: &[Card],
    up: Card,
) -> Option<Vec<(Move, f64)>> {
    let mut rest = *comp;
    for c in hand.iter().chain([&up]) {
        rest[c.index()] = rest[c.index()].checked_sub(1)?;
    }
    let pair = (hand.len() == 2 && hand[0].rank() == hand[1].rank()).then(|| hand[0].rank());
    let mut solver = Solver::new(opts, stand, puje, up, pair);
    let s = solver.canon(&rest);
    if solver.reach(&s) == 0.0 || hand.len() < 2 {
        return None;
    }
    let pts = hand.iter().fold(Points::default(), |p, &c| p.add(c));
    let kind = (hand.len() == 2).then(|| two_card(hand[0], hand[1], opts));
    let total = match kind {
        Some(TwoCard::Natural | TwoCard::Monona | TwoCard::TwelveSuited) => return None,
        Some(TwoCard::Twelve) => 20,
        _ => pts.total(),
    };
    if pts.hard > 21 || total >= 21 {
        return None;
    }
    let mut v = vec![(Move::Stand, solver.stand(&s, total))];
    let hit = if solver.can_draw(&s) {
        solver.hit(policy, &s, pts, hand.len() as u8)
    } else {
        v[0].1
    };
    v.push((Move::Hit, hit));
    if hand.len() == 2 && opts.tapo {
        v.push((Move::Tapo, solver.tapo(&s, pts)));
    }
    if kind == Some(TwoCard::Thirteen) && opts.withdraw_13 {
        v.push((Move::Withdraw, 0.0));
    }
    if pair.is_some() {
        let (a, b) = (hand[0].index() as u8, hand[1].index() as u8);
        let resplit = policy.split[hand[0].rank()][up.rank()];
        v.push((Move::Split, solver.split(policy, &s, a, b, resplit)));
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::veintiuno::engine::{BankPolicy, Table};
    use crate::rng::{SeedableRng, Stream};

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }

    /// Every ordering of `unseen` dealt by the engine itself: the player holds `hand` (two
    /// cards) against `up`, the hole card is the ordering's first card, the rest are drawn in
    /// order; the player makes `first` and then plays `policy`. The mean net over the orderings
    /// where the player decides (the hole card does not send the players al puje).
    fn brute_force(
        opts: &Options,
        hand: [Card; 2],
        up: Card,
        unseen: &[Card],
        first: Move,
        policy: &PlayerPolicy,
        puje: bool,
    ) -> f64 {
        let mut table = Table::seated(
            *opts,
            2,
            BankPolicy {
                puje,
                ..BankPolicy::fixed(17)
            },
            Stream::seed_from_u64(1),
            false,
        );
        let mut order: Vec<usize> = (0..unseen.len()).collect();
        let (mut sum, mut n) = (0.0, 0u64);
        // Heap's algorithm over every ordering.
        let mut stack = vec![0usize; order.len()];
        let mut play = |order: &[usize]| {
            table.restart(Stream::seed_from_u64(2));
            let mut next = vec![
                Some(hand[0]),
                Some(unseen[order[0]]),
                Some(hand[1]),
                Some(up),
            ];
            next.extend(order[1..].iter().map(|&k| Some(unseen[k])));
            table.put_next(&next).unwrap();
            table.start_hand();
            let Some((seat, _)) = table.pending() else {
                let rep = table.finish_hand();
                assert!(
                    rep.puje,
                    "only the puje leaves the player nothing to decide"
                );
                return;
            };
            table.apply(first).unwrap();
            while let Some((_, d)) = table.pending() {
                table.apply(policy.decide(&d)).unwrap();
            }
            let rep = table.finish_hand();
            assert!(
                table.dealt_in_hand() <= next.len(),
                "the tiny shoe ran dry: choose other cards"
            );
            sum += rep.player_net[seat] as f64;
            n += 1;
        };
        play(&order);
        let mut i = 0;
        while i < order.len() {
            if stack[i] < i {
                if i % 2 == 0 {
                    order.swap(0, i);
                } else {
                    order.swap(stack[i], i);
                }
                play(&order);
                stack[i] += 1;
                i = 0;
            } else {
                stack[i] = 0;
                i += 1;
            }
        }
        sum / n as f64
    }

    #[test]
    fn a_tiny_shoe_matches_every_ordering_dealt_by_the_engine() {
        let opts = Options::default();
        let policy = PlayerPolicy::basic();
        // Hands and up cards where suits count (5 + 7 of one suit, a 2 against a figure) and
        // the hole card can send the players al puje; eight unseen cards: 40 320 orderings.
        let cases: [(&str, &str, &str, &str); 3] = [
            ("JH", "6S", "7C", "AH,2D,3S,5H,5C,KC,QD,4C"),
            ("AD", "5S", "KC", "2C,2H,3S,7H,6D,QD,JS,4C"),
            ("4H", "3S", "5C", "7C,7D,2H,QS,6D,KC,AD,3C"),
        ];
        // Pairs that cannot come again, with a policy that never splits.
        let mut no_resplit = policy.clone();
        no_resplit.split = vec![[false; 10]; 10];
        let pairs: [(&str, &str, &str, &str); 3] = [
            ("7H", "7S", "6C", "QD,KC,JS,QS,KD,5H,4C,JD"),
            ("6D", "6S", "KH", "QC,JD,KS,QH,KD,JC,AS,JS"),
            ("2H", "2C", "AD", "KD,QC,JS,7S,KH,QS,JD,QH"),
        ];
        // Splitting again: the pair comes back among the unseen cards and the policy splits it.
        // One more 7 and `basic` (hands that draw), two more 2s with hands that stand at once
        // (four hands and the bank within nine cards).
        let mut split_sevens = policy.clone();
        split_sevens.split[6][5] = true;
        let mut split_twos = PlayerPolicy::mimic(0);
        split_twos.split[1][9] = true;
        let resplits: [(&str, &str, &str, &str, &PlayerPolicy); 2] = [
            (
                "7H",
                "7S",
                "6C",
                "7D,QD,KC,JS,QS,KD,5H,3C,JD",
                &split_sevens,
            ),
            ("2H", "2C", "KD", "2S,2D,QC,JS,7S,KH,QS,4D,5C", &split_twos),
        ];
        let cases = cases
            .iter()
            .chain(&pairs)
            .map(|&(a, b, up, unseen)| (a, b, up, unseen, &no_resplit))
            .chain(resplits);
        for (a, b, up, unseen, policy) in cases {
            let (hand, up) = ([c(a), c(b)], c(up));
            let unseen: Vec<Card> = unseen.split(',').map(c).collect();
            let mut comp = [0u8; DECK];
            for x in unseen.iter().chain(&hand).chain([&up]) {
                comp[x.index()] += 1;
            }
            // The bank that sends al puje (the hole card is then never a 20 at a decision) and
            // the default one that never does.
            for puje in [true, false] {
                let evs = hand_evs(&opts, &comp, 17, puje, policy, &hand, up).unwrap();
                for (m, ev) in evs {
                    let want = brute_force(&opts, hand, up, &unseen, m, policy, puje);
                    assert!(
                        (ev - want).abs() < 1e-12,
                        "{a} {b} against {up}, {m}, puje {puje}: exact {ev}, every ordering {want}"
                    );
                }
            }
        }
    }

    /// Two decks: three more 2s among the unseen cards (one a second 2H), so one pair can
    /// become five hands — the split's value needs every line to split again whatever the
    /// others did, as the engine deals it.
    #[test]
    fn a_tiny_two_deck_shoe_splits_into_five_hands_as_the_engine_deals_them() {
        let opts = Options {
            decks: 2,
            ..Options::default()
        };
        let mut split_twos = PlayerPolicy::mimic(0);
        split_twos.split[1][9] = true;
        let (hand, up) = ([c("2H"), c("2C")], c("KD"));
        let unseen: Vec<Card> = "2S,2D,2H,QC,JS,7S,KH,QS,7D".split(',').map(c).collect();
        let mut comp = [0u8; DECK];
        for x in unseen.iter().chain(&hand).chain([&up]) {
            comp[x.index()] += 1;
        }
        let mut most_hands = 0;
        for puje in [true, false] {
            let evs = hand_evs(&opts, &comp, 17, puje, &split_twos, &hand, up).unwrap();
            let split = evs.iter().find(|(m, _)| *m == Move::Split).unwrap().1;
            let want = brute_force(&opts, hand, up, &unseen, Move::Split, &split_twos, puje);
            assert!(
                (split - want).abs() < 1e-12,
                "puje {puje}: exact {split}, every ordering {want}"
            );
            // Splitting only once is another value: the lines that split again count.
            let mut once = split_twos.clone();
            once.split[1][9] = false;
            let mut solver = Solver::new(&opts, 17, puje, up, Some(hand[0].rank()));
            let s = solver.canon(&solver.without(
                &solver.without(&solver.without(&comp, up.index()), hand[0].index()),
                hand[1].index(),
            ));
            let (a, b) = (hand[0].index() as u8, hand[1].index() as u8);
            let no_resplit = solver.split(&once, &s, a, b, false);
            assert!((split - no_resplit).abs() > 1e-3, "{split} vs {no_resplit}");
            most_hands = most_hands.max(five_hands_dealt(&opts, hand, up, &unseen, &split_twos));
        }
        assert_eq!(most_hands, 5, "the engine deals five hands from one pair");
    }

    /// The infinite shoe's split, solved as a fixed point, against the line recursion written
    /// out depth by depth (a line that pairs again more than `depth` times is not split again;
    /// the error shrinks as (2 W)^depth, W the chance to pair again): sevens in a shoe of
    /// proportions with many other cards gone (W = 1/5), and sixes where the 12 of one suit
    /// counts 21 and the plain 12 nothing (twelve off), so a 6 pairs only the other suits.
    #[test]
    fn the_infinite_shoe_split_is_the_limit_of_splitting_again_depth_by_depth() {
        use crate::games::veintiuno::cards::Composition;
        fn line(
            solver: &mut Solver,
            policy: &PlayerPolicy,
            s: &Shoe,
            f: u8,
            depth: u32,
            memo: &mut HashMap<(u8, u32), (f64, f64)>,
        ) -> (f64, f64) {
            if let Some(&v) = memo.get(&(f, depth)) {
                return v;
            }
            let (mut a, mut b) = (0.0, 0.0);
            for (y, w) in solver.draw_odds(s).into_iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let (fc, yc) = (Card::from_index(f as usize), Card::from_index(y));
                let pairs =
                    fc.rank() == yc.rank() && two_card(fc, yc, solver.opts) == TwoCard::Plain;
                if depth > 0 && pairs {
                    let (af, bf) = line(solver, policy, s, f, depth - 1, memo);
                    let (ay, by) = line(solver, policy, s, y as u8, depth - 1, memo);
                    a += w * af;
                    b += w * (bf + 2.0 * ay + by);
                } else {
                    a += w * solver.split_hand(policy, s, f, y as u8);
                }
            }
            memo.insert((f, depth), (a, b));
            (a, b)
        }
        let sevens = Composition::from_removed(
            1,
            "AH,AS,AD,2H,2S,2D,3H,3S,3D,4H,4S,4D,5H,5S,5D,6H,6S,6D,QH,QS",
        )
        .unwrap();
        let twelve_off = Options {
            twelve_counts_20: false,
            ..Options::default()
        };
        let mut policy = PlayerPolicy::basic();
        policy.split[6][3] = true;
        policy.split[5][9] = true;
        let cases: [(&Options, [u8; DECK], &str, &str, &str); 2] = [
            (&Options::default(), sevens.counts, "7H", "7D", "4S"),
            (&twelve_off, Composition::full(1).counts, "6S", "6H", "KC"),
        ];
        for (opts, comp, a, b, up) in cases {
            let (a, b, up) = (c(a), c(b), c(up));
            let mut solver = Solver::new(opts, 17, false, up, Some(a.rank())).infinite(true);
            let s = solver.canon(&comp);
            let (ia, ib) = (a.index() as u8, b.index() as u8);
            let exact = solver.split(&policy, &s, ia, ib, true);
            let once = solver.split(&policy, &s, ia, ib, false);
            let pooled = |i: u8| {
                if solver.tracked[a.rank()] {
                    i
                } else {
                    i - i % 4
                }
            };
            let (fa, fb) = (pooled(ia), pooled(ib));
            for depth in [0, 1, 2, 40] {
                let mut memo = HashMap::new();
                let (a1, b1) = line(&mut solver, &policy, &s, fa, depth, &mut memo);
                let (a2, b2) = line(&mut solver, &policy, &s, fb, depth, &mut memo);
                let v = a1 + b1 + 2.0 * a2 + b2;
                match depth {
                    0 => assert_eq!(v, once, "{a} {b}: not splitting again"),
                    40 => assert!((v - exact).abs() < 1e-13, "{a} {b}: {v} vs {exact}"),
                    _ => assert!((v - exact).abs() > 1e-9, "{a} {b} depth {depth}: {v}"),
                }
            }
            assert!((exact - once).abs() > 1e-3, "{a} {b}: {exact} vs {once}");
        }
    }

    /// A line of a split is solved splitting again card by card [`SPLIT_DEPTH`] times, then
    /// in the shoe as it stands. Against the exact split (every line as deep as the pair's
    /// cards left allow; a pair of 2s against a 3): the same with two decks, where the depth
    /// never binds; within 1e-7 with three and eight decks, where stopping the lines at that
    /// depth instead would be off by more than 1e-7, ten times as much at least.
    #[test]
    fn many_decks_split_again_in_the_shoe_as_it_stands_within_1e7_of_exact() {
        use crate::games::veintiuno::cards::Composition;
        let opts = Options::default();
        let policy = PlayerPolicy::basic();
        let (a, b, up) = (c("2H"), c("2C"), c("3S"));
        for decks in [2u8, 3, 8] {
            let mut comp = Composition::full(decks).counts;
            for x in [a, b, up] {
                comp[x.index()] -= 1;
            }
            let mut solver = Solver::new(&opts, 17, false, up, Some(a.rank()));
            let s = solver.canon(&comp);
            let (ia, ib) = (a.index() as u8, b.index() as u8);
            let split = solver.split(&policy, &s, ia, ib, true);
            let mut exact_solver =
                Solver::new(&opts, 17, false, up, Some(a.rank())).split_depth(40);
            let exact = exact_solver.split(&policy, &s, ia, ib, true);
            let (a1, b1) = solver.split_line(&policy, &s, ia, SPLIT_DEPTH, false);
            let (a2, b2) = solver.split_line(&policy, &s, ib, SPLIT_DEPTH, false);
            let stopped = a1 + b1 + 2.0 * a2 + b2;
            if decks == 2 {
                assert!(
                    (split - exact).abs() < 1e-14,
                    "{decks} decks: {split} vs {exact}"
                );
                assert!((stopped - exact).abs() < 1e-14, "{decks} decks: {stopped}");
            } else {
                assert!(
                    (split - exact).abs() < 1e-7,
                    "{decks} decks: {split} vs {exact}"
                );
                assert!(
                    (stopped - exact).abs() > 1e-7
                        && (stopped - exact).abs() > 10.0 * (split - exact).abs(),
                    "{decks} decks: stopped {stopped}, frozen {split}, exact {exact}"
                );
            }
        }
    }

    /// The most hands the engine deals the player over the orderings that put the three 2s
    /// first after the hole card.
    fn five_hands_dealt(
        opts: &Options,
        hand: [Card; 2],
        up: Card,
        unseen: &[Card],
        policy: &PlayerPolicy,
    ) -> usize {
        let mut table = Table::seated(
            *opts,
            2,
            BankPolicy::fixed(17),
            Stream::seed_from_u64(1),
            false,
        );
        table.restart(Stream::seed_from_u64(2));
        // Hole QC, then the three 2s dealt as second cards of the hands that pair again.
        let order = ["QC", "2S", "JS", "2D", "7S", "2H", "KH", "QS", "7D"];
        assert!(order.iter().all(|o| unseen.contains(&c(o))));
        let mut next = vec![Some(hand[0]), Some(c(order[0])), Some(hand[1]), Some(up)];
        next.extend(order[1..].iter().map(|o| Some(c(o))));
        table.put_next(&next).unwrap();
        table.start_hand();
        table.apply(Move::Split).unwrap();
        let mut splits = 1;
        while let Some((_, d)) = table.pending() {
            let m = policy.decide(&d);
            splits += usize::from(m == Move::Split);
            table.apply(m).unwrap();
        }
        table.finish_hand();
        splits + 1
    }

    /// The infinite shoe, checked three ways: the bank's final totals against
    /// [`super::super::exact::bank_infinite`] (written apart: ranks 1 in 10, suit shared 1 in 4);
    /// with puje off, standing on any hard total 12 to 16 has one EV to the last digit (only a
    /// bank bust pays it, and nothing drawn moves the bank's odds), which a finite shoe does
    /// not give; and hitting hard 12–16 once and standing equals the independent sum over the
    /// ten ranks.
    #[test]
    fn infinite_shoe_matches_the_infinite_bank_and_stands_alike_from_12_to_16() {
        use crate::games::veintiuno::cards::Composition;
        use crate::games::veintiuno::exact::bank_infinite;
        let opts = Options {
            puje: false,
            ..Options::default()
        };
        let comp = Composition::full(1).counts;
        let stand_once = PlayerPolicy::mimic(0);
        for rank in 0..RANK_COUNT {
            let up = Card::new(rank, 0);
            let mut inf = Solver::new(&opts, 17, false, up, None).infinite(true);
            let shoe = inf.canon(&comp);
            let d = inf.bank(&shoe);
            let want = bank_infinite(rank, 17, &opts);
            for t in 0..23 {
                assert!(
                    (d[t] - want[t]).abs() < 1e-13,
                    "up {rank}, total {t}: {d:?} vs {want:?}"
                );
            }
            // Hands of three cards or more with hard totals 12 to 16, each leaving the shoe as
            // the solver's deal leaves it: one EV to the last digit in the infinite shoe, not
            // in the finite one (the cards dealt move the bank's odds there).
            let hands: [(&[&str], u8); 5] = [
                (&["2C", "3C", "7C"], 12),
                (&["4C", "2D", "7D"], 13),
                (&["5C", "5D", "4S"], 14),
                (&["3S", "6C", "6D"], 15),
                (&["6S", "4D", "3D", "3C"], 16),
            ];
            let after = |solver: &Solver, cards: &[&str]| {
                let mut shoe = solver.without(&comp, up.index());
                for c in cards {
                    shoe = solver.without(&shoe, Card::parse(c).unwrap().index());
                }
                solver.canon(&shoe)
            };
            let evs: Vec<f64> = hands
                .iter()
                .map(|(cards, t)| {
                    let shoe = after(&inf, cards);
                    inf.stand(&shoe, *t)
                })
                .collect();
            assert!(evs.iter().all(|&v| v == evs[0]), "up {rank}: {evs:?}");
            assert!((evs[0] - (2.0 * want[22] - 1.0)).abs() < 1e-13);
            let mut fin = Solver::new(&opts, 17, false, up, None);
            let finite: Vec<f64> = hands
                .iter()
                .map(|(cards, t)| {
                    let shoe = after(&fin, cards);
                    fin.stand(&shoe, *t)
                })
                .collect();
            assert!(
                finite.iter().any(|&v| v != finite[0]),
                "up {rank}: a finite shoe moves with the cards dealt: {finite:?}"
            );
            // One card then stand, against the sum over ranks with the infinite bank.
            for t in 12..=16u8 {
                let pts = Points {
                    hard: t,
                    ace: false,
                };
                let got = inf.hit(&stand_once, &shoe, pts, 3);
                let mut sum = 0.0;
                for r in 0..RANK_COUNT {
                    let next = pts.add(Card::new(r, 0));
                    sum += 0.1
                        * if next.hard > 21 {
                            -1.0
                        } else {
                            pay(&want, next.total())
                        };
                }
                assert!(
                    (got - sum).abs() < 1e-13,
                    "up {rank}, hard {t}: {got} vs {sum}"
                );
            }
        }
    }
}
