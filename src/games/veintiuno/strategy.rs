//! `tahur veintiuno strategy`: the best action at every decision point, found by comparing the
//! actions' expected values on common random numbers.
//!
//! For each decision point — hard totals 4–20, soft totals 12–20, two-card hands for tapo y
//! quedo and withdrawal on 13, pairs — against each bank up card, hands that reach the point are
//! sampled from the composition (a fresh shoe or what is left of one); every legal action is
//! played from the same shuffled rest of the shoe (common random numbers, so differences are
//! precise), continuing with the decisions already made. Points are solved backwards: hard
//! totals from 20 down (a hard hand only grows), then soft totals from 20 down (they grow or
//! turn hard), then pairs. Samples where the bank's two cards would send the players al puje
//! are skipped: then no player decides anything. The value of taking the bank by a split 21 is
//! not counted, only the payment.
//!
//! A signal (Ctrl-C, SIGTERM) stops the derivation between evaluations: the sheet then holds
//! the cells computed and marks the others not computed ([`Sheet::not_computed`]).

use serde::Serialize;

use super::cards::{Card, Composition, DECK, RANKS, RANK_COUNT};
use super::engine::{BankPolicy, Move, PlayerPolicy};
use super::rules::{two_card, two_card_total, Options, Points, TwoCard};
use super::solve::{solve_rows, Row};
use crate::progress::Progress;
use crate::report::chart::{LineChart, RefLine, Series, Unit};
use crate::report::{Report, Table, Value};
use crate::rng::{SeedableRng, Stream};

/// Up-card classes: A, 2–7 and figures.
pub const UP_CLASSES: [&str; 8] = ["A", "2", "3", "4", "5", "6", "7", "F"];

fn up_class(rank: usize) -> usize {
    rank.min(7)
}

/// What to derive.
#[derive(Clone, Debug)]
pub struct StrategyQuery {
    /// House rules.
    pub options: Options,
    /// Cards in the shoe.
    pub composition: Composition,
    /// The bank's policy: its fixed total and whether it sends al puje. Every sheet, exact or
    /// sampled, is solved against the bank that draws to `stand` ([`BankPolicy::fixed`]):
    /// `sees` is not used.
    pub bank: BankPolicy,
    /// An infinite shoe with the composition's proportions (exact sheets only): no card dealt
    /// or drawn leaves it.
    pub infinite: bool,
    /// Sampled hands per decision point, up card and action.
    pub samples: u32,
    /// Seed.
    pub seed: u64,
}

/// The derived sheet with the expected values behind it.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Sheet {
    /// `hard[t][up]` best move (stand/hit) and its EV.
    pub hard: Vec<[(char, f64); 8]>,
    /// `soft[t][up]`.
    pub soft: Vec<[(char, f64); 8]>,
    /// `pairs[rank][up]`: split or not, with EV(split) − EV(playing on).
    pub pairs: Vec<[(bool, f64); 8]>,
    /// `tapo[t][up]`: tapo y quedo with two cards of hard total t, with EV(tapo) − EV(best).
    pub tapo: Vec<[(bool, f64); 8]>,
    /// `withdraw[up]`: withdraw on 13, with the EV of playing on.
    pub withdraw: [(bool, f64); 8],
    /// The cells a derivation stopped by a signal did not compute; `None` for a whole sheet.
    #[serde(skip)]
    pub not_computed: Option<NotComputed>,
    /// An exact sheet's every cell: each move's EV, row by row (empty for a sampled sheet).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exact: Vec<ExactRow>,
}

/// One row of an exact sheet: its name (`hard 16`, `soft 18`, `two cards 16`, `13 in two
/// cards`, `pair 77`) and, by up-card class ([`UP_CLASSES`]), every move's EV (empty where no
/// hand reaches the cell).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ExactRow {
    /// The row's name.
    pub row: String,
    /// `cells[up class]`: (move code, EV) for each move compared.
    pub cells: Vec<Vec<(char, f64)>>,
}

impl ExactRow {
    /// The best move of a cell, its EV and its margin over the next best move; `None` where
    /// no hand reaches the cell.
    pub fn best(&self, up: usize) -> Option<(char, f64, f64)> {
        best_of(&self.cells[up])
    }
}

/// The best move of a cell's (move, EV) list, its EV and the margin over the next best (ties,
/// EVs within [`super::solve::TIE`], go to the earlier move: stand before hit before the
/// special move; the margin of a tie is 0).
pub fn best_of(cell: &[(char, f64)]) -> Option<(char, f64, f64)> {
    let (mut best, mut ev) = *cell.first()?;
    for &(m, v) in &cell[1..] {
        if v > ev + super::solve::TIE {
            (best, ev) = (m, v);
        }
    }
    let next = cell
        .iter()
        .filter(|(m, _)| *m != best)
        .map(|x| x.1)
        .fold(f64::NEG_INFINITY, f64::max);
    Some((
        best,
        ev,
        if next.is_finite() {
            (ev - next).max(0.0)
        } else {
            0.0
        },
    ))
}

/// The name of a row of the sheet.
pub fn row_name(row: Row) -> String {
    match row {
        Row::Hard(t) => format!("hard {t}"),
        Row::Soft(t) => format!("soft {t}"),
        Row::TwoCards(t) => format!("two cards {t}"),
        Row::Thirteen => "13 in two cards".into(),
        Row::Pair(r) => format!("pair {}{}", RANKS[r], RANKS[r]),
    }
}

/// Derives the sheet exactly ([`super::solve`]): every cell's moves by enumeration over the
/// cards in the shoe, against the bank that draws to `q.bank.stand` (the samples and seed are
/// not used).
pub fn derive_exact(q: &StrategyQuery) -> Sheet {
    let (rows, _) = solve_rows(
        &q.options,
        &q.composition.counts,
        q.bank.stand,
        q.bank.puje,
        q.infinite,
    );
    let mut sheet = Sheet::empty();
    for (row, cells) in &rows {
        for (up, cell) in cells.iter().enumerate() {
            let Some((best, ev, _)) = best_of(cell) else {
                continue;
            };
            let get = |m: Move| cell.iter().find(|x| x.0 == m.code()).map_or(0.0, |x| x.1);
            let plain = get(Move::Stand).max(get(Move::Hit));
            match *row {
                Row::Hard(t) => sheet.hard[t as usize][up] = (best, ev),
                Row::Soft(t) => sheet.soft[t as usize][up] = (best, ev),
                Row::TwoCards(t) => {
                    sheet.tapo[t as usize][up] = (best == 'T', get(Move::Tapo) - plain)
                }
                Row::Thirteen => sheet.withdraw[up] = (best == 'W', plain),
                Row::Pair(r) => sheet.pairs[r][up] = (best == 'P', get(Move::Split) - plain),
            }
        }
        sheet.exact.push(ExactRow {
            row: row_name(*row),
            cells: cells.to_vec(),
        });
    }
    sheet
}

/// The cells of a stopped derivation that were not computed (`true`), laid out as the sheet.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NotComputed {
    /// `hard[t][up]`.
    pub hard: Vec<[bool; 8]>,
    /// `soft[t][up]`.
    pub soft: Vec<[bool; 8]>,
    /// `pairs[rank][up]`.
    pub pairs: Vec<[bool; 8]>,
    /// `tapo[t][up]`.
    pub tapo: Vec<[bool; 8]>,
    /// `withdraw[up]`.
    pub withdraw: [bool; 8],
}

impl NotComputed {
    fn new() -> Self {
        Self {
            hard: vec![[false; 8]; 22],
            soft: vec![[false; 8]; 22],
            pairs: vec![[false; 8]; 10],
            tapo: vec![[false; 8]; 22],
            withdraw: [false; 8],
        }
    }

    /// How many cells (decision point and up card) were not computed.
    pub fn count(&self) -> u64 {
        let rows = self
            .hard
            .iter()
            .chain(&self.soft)
            .chain(&self.pairs)
            .chain(&self.tapo)
            .chain(std::iter::once(&self.withdraw));
        rows.flatten().filter(|&&b| b).count() as u64
    }
}

impl Sheet {
    /// A sheet with no cell filled yet (every move '—', no margins), to be derived into.
    pub fn empty() -> Sheet {
        Sheet {
            hard: vec![[('—', 0.0); 8]; 22],
            soft: vec![[('—', 0.0); 8]; 22],
            pairs: vec![[(false, 0.0); 8]; 10],
            tapo: vec![[(false, 0.0); 8]; 22],
            withdraw: [(false, 0.0); 8],
            not_computed: None,
            exact: Vec::new(),
        }
    }

    /// Whether every cell was computed (always, unless a signal stopped the derivation).
    pub fn is_complete(&self) -> bool {
        self.not_computed.is_none()
    }

    fn missing(&self, pick: impl Fn(&NotComputed) -> bool) -> bool {
        self.not_computed.as_ref().is_some_and(pick)
    }
}

/// The mark of a cell a stopped derivation did not compute: `?` in text, `not_computed` in CSV
/// and JSON.
fn not_computed_value() -> Value {
    Value::Label("?".into(), "not_computed".into())
}

/// A deck to draw from: a buffer of card indices with a cursor.
struct Shoe {
    cards: Vec<u8>,
}

impl Shoe {
    fn from(comp: &Composition) -> Self {
        let mut cards = Vec::with_capacity(comp.total() as usize);
        for i in 0..DECK {
            for _ in 0..comp.counts[i] {
                cards.push(i as u8);
            }
        }
        Self { cards }
    }
    /// Moves `k` uniformly random cards to the front (a partial Fisher–Yates).
    fn pick_front(&mut self, k: usize, rng: &mut Stream) {
        let n = self.cards.len();
        for i in 0..k.min(n) {
            let j = i + crate::rng::uniform_below(rng, n - i);
            self.cards.swap(i, j);
        }
    }
    fn card(&self, i: usize) -> Card {
        Card::from_index(self.cards[i] as usize)
    }
}

/// A hand being played in an evaluation.
#[derive(Clone, Copy)]
struct Hand {
    pts: Points,
    cards: u8,
    special_total: u8,
    bet: f64,
    tapo: bool,
    done: Option<f64>,
}

struct Evaluator<'a> {
    opts: &'a Options,
    bank: BankPolicy,
    policy: &'a PlayerPolicy,
}

impl Evaluator<'_> {
    /// Plays a hand on with the policy (hit/stand only), drawing from `deck` at `*k`.
    fn play_on(&self, h: &mut Hand, up: usize, deck: &Shoe, k: &mut usize) {
        while h.done.is_none() {
            let total = if h.special_total > 0 {
                h.special_total
            } else {
                h.pts.total()
            };
            if total >= 21 {
                return;
            }
            let d = super::engine::Decision {
                points: h.pts,
                total,
                cards: h.cards,
                pair: None,
                can_withdraw: false,
                can_tapo: false,
                can_end_hand: false,
                up,
                bet: None,
            };
            if self.policy.decide(&d) != Move::Hit {
                return;
            }
            self.hit(h, deck, k);
        }
    }

    fn hit(&self, h: &mut Hand, deck: &Shoe, k: &mut usize) {
        h.pts = h.pts.add(deck.card(*k));
        *k += 1;
        h.cards += 1;
        h.special_total = 0;
        if h.pts.hard > 21 && !h.tapo {
            h.done = Some(-h.bet);
        } else if h.pts.total() == 21 && h.cards == 7 && self.opts.trillona {
            h.done = Some(7.0 * h.bet);
        }
    }

    /// The bank plays from `deck` at `k` and every open hand is settled.
    fn settle(&self, up: Card, hole: Card, hands: &[Hand], deck: &Shoe, mut k: usize) -> f64 {
        let mut net: f64 = hands.iter().filter_map(|h| h.done).sum();
        if hands.iter().all(|h| h.done.is_some()) {
            return net;
        }
        let two = two_card_total(up, hole, self.opts);
        let mut pts = Points::default().add(up).add(hole);
        let bank = if two != pts.total() || two >= self.bank.stand {
            two
        } else {
            while pts.hard <= 21 && pts.total() < self.bank.stand {
                pts = pts.add(deck.card(k));
                k += 1;
            }
            if pts.hard > 21 {
                22
            } else {
                pts.total()
            }
        };
        for h in hands.iter().filter(|h| h.done.is_none()) {
            let total = if h.special_total > 0 {
                h.special_total
            } else {
                h.pts.total()
            };
            net += if h.pts.hard > 21 {
                if bank == 22 {
                    0.0
                } else {
                    -h.bet
                }
            } else if bank == 22 || total > bank {
                h.bet
            } else {
                -h.bet
            };
        }
        net
    }

    /// A fresh two-card hand (after a split): specials apply and are paid at once.
    fn two_card_hand(&self, a: Card, b: Card, bet: f64) -> Hand {
        let pts = Points::default().add(a).add(b);
        let mut h = Hand {
            pts,
            cards: 2,
            special_total: 0,
            bet,
            tapo: false,
            done: None,
        };
        match two_card(a, b, self.opts) {
            TwoCard::Natural => h.done = Some(self.opts.natural_pays as f64 * bet),
            TwoCard::Monona => h.done = Some(self.opts.monona_pays as f64 * bet),
            TwoCard::Twelve => h.special_total = 20,
            TwoCard::TwelveSuited => h.special_total = 21,
            _ => {}
        }
        h
    }

    /// Net of one action from a hand of `cards` against `up`, the rest of the shoe in `deck`
    /// (whose first card is the bank's hole card).
    fn action(&self, cards: &[Card], up: Card, action: Move, deck: &Shoe) -> f64 {
        let hole = deck.card(0);
        let mut k = 1;
        let pts = cards.iter().fold(Points::default(), |p, &c| p.add(c));
        let mut h = Hand {
            pts,
            cards: cards.len() as u8,
            special_total: 0,
            bet: 1.0,
            tapo: false,
            done: None,
        };
        let u = up_class(up.rank());
        match action {
            // (A bet is never among a cell's moves.)
            Move::Withdraw | Move::EndHand | Move::Bet(_) => 0.0,
            Move::Stand => self.settle(up, hole, &[h], deck, k),
            Move::Hit => {
                self.hit(&mut h, deck, &mut k);
                self.play_on(&mut h, u, deck, &mut k);
                self.settle(up, hole, &[h], deck, k)
            }
            Move::Tapo => {
                h.tapo = true;
                self.hit(&mut h, deck, &mut k);
                self.settle(up, hole, &[h], deck, k)
            }
            Move::Split => {
                let (a, b) = (cards[0], cards[1]);
                let mut h1 = self.two_card_hand(a, deck.card(k), 1.0);
                let mut h2 = self.two_card_hand(b, deck.card(k + 1), 2.0);
                k += 2;
                self.play_on(&mut h1, u, deck, &mut k);
                self.play_on(&mut h2, u, deck, &mut k);
                self.settle(up, hole, &[h1, h2], deck, k)
            }
        }
    }
}

/// Which hands a decision point is about.
#[derive(Clone, Copy, PartialEq)]
enum Point {
    Hard(u8),
    Soft(u8),
    /// Two cards, plain (not special), hard total.
    TwoCardHard(u8),
    Thirteen,
    Pair(usize),
}

/// Samples a hand at `point` and the bank's up card class `up` from the shoe: returns the hand's
/// cards and the up card, with the rest of the shoe shuffled behind them in `deck`.
fn sample(
    point: Point,
    up: usize,
    shoe: &mut Shoe,
    rng: &mut Stream,
    opts: &Options,
) -> Option<(Vec<Card>, Card)> {
    for _ in 0..100_000 {
        shoe.pick_front(4, rng);
        let upc = shoe.card(0);
        if up_class(upc.rank()) != up {
            continue;
        }
        let (a, b, c) = (shoe.card(1), shoe.card(2), shoe.card(3));
        let kind = two_card(a, b, opts);
        let two = Points::default().add(a).add(b);
        let plain = matches!(kind, TwoCard::Plain | TwoCard::Relancina);
        let three = two.add(c);
        let hand: Option<Vec<Card>> = match point {
            Point::Pair(r) => (a.rank() == r && b.rank() == r && plain).then(|| vec![a, b]),
            Point::Thirteen => (kind == TwoCard::Thirteen).then(|| vec![a, b]),
            Point::TwoCardHard(t) => {
                (plain && !two.is_soft() && two.total() == t).then(|| vec![a, b])
            }
            Point::Hard(t) => {
                if plain && !two.is_soft() && two.total() == t {
                    Some(vec![a, b])
                } else if plain && !three.is_soft() && three.hard <= 21 && three.total() == t {
                    Some(vec![a, b, c])
                } else {
                    None
                }
            }
            Point::Soft(t) => {
                if plain && two.is_soft() && two.total() == t {
                    Some(vec![a, b])
                } else if plain && three.is_soft() && three.total() == t {
                    Some(vec![a, b, c])
                } else {
                    None
                }
            }
        };
        if let Some(h) = hand {
            return Some((h, upc));
        }
    }
    None
}

/// Mean EV of each action and the standard error of each paired difference.
struct Evaluation {
    ev: Vec<f64>,
    /// `diff_se[i][j]`: standard error of EV(i) − EV(j).
    diff_se: Vec<Vec<f64>>,
}

impl Evaluation {
    /// Whether action `i` beats action `j` by more than two standard errors.
    fn clearly_better(&self, i: usize, j: usize) -> bool {
        self.ev[i] - self.ev[j] > 2.0 * self.diff_se[i][j]
    }
}

/// What an evaluation gave.
enum Outcome {
    /// The actions' EVs.
    Done(Evaluation),
    /// No hand reaches the point (or too few): nothing to decide.
    Unreached,
    /// A signal stopped it: not computed.
    Stopped,
}

/// EVs of the given actions at a point against an up class, on common random numbers. Each
/// point and up card has its own stream (from the seed), so points can run in parallel. Stops
/// (without a result) as soon as a signal asks to.
fn evaluate(
    q: &StrategyQuery,
    policy: &PlayerPolicy,
    point: Point,
    up: usize,
    actions: &[Move],
) -> Outcome {
    if crate::runner::interrupted() {
        return Outcome::Stopped;
    }
    let key = match point {
        Point::Hard(t) => t as u64,
        Point::Soft(t) => 100 + t as u64,
        Point::TwoCardHard(t) => 200 + t as u64,
        Point::Thirteen => 300,
        Point::Pair(r) => 400 + r as u64,
    };
    let rng = &mut Stream::seed_from_u64(
        q.seed ^ (key * 16 + up as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let ev = Evaluator {
        opts: &q.options,
        bank: q.bank,
        policy,
    };
    let mut shoe = Shoe::from(&q.composition);
    let m = actions.len();
    let mut sums = vec![0.0; m];
    let mut dsq = vec![vec![0.0; m]; m];
    let mut x = vec![0.0; m];
    let mut n = 0u32;
    let mut tries = 0u32;
    while n < q.samples && tries < q.samples * 20 {
        tries += 1;
        if tries.is_multiple_of(256) && crate::runner::interrupted() {
            return Outcome::Stopped;
        }
        let Some((cards, upc)) = sample(point, up, &mut shoe, rng, &q.options) else {
            return Outcome::Unreached;
        };
        // The rest of the shoe, shuffled: hole card first, then the cards to draw. The sampled
        // up card and hand sit at the front of `shoe` (positions 0..=len).
        let mut rest = Shoe {
            cards: shoe.cards[1 + cards.len()..].to_vec(),
        };
        rest.pick_front(rest.cards.len(), rng);
        let hole = rest.card(0);
        if q.options.puje && q.bank.puje && two_card_total(upc, hole, &q.options) == 20 {
            continue; // al puje: the player decides nothing
        }
        for (i, &a) in actions.iter().enumerate() {
            x[i] = ev.action(&cards, upc, a, &rest);
            sums[i] += x[i];
        }
        for i in 0..m {
            for j in 0..m {
                dsq[i][j] += (x[i] - x[j]) * (x[i] - x[j]);
            }
        }
        n += 1;
    }
    if n < 2 {
        return Outcome::Unreached;
    }
    let nf = n as f64;
    let mean: Vec<f64> = sums.iter().map(|s| s / nf).collect();
    let diff_se = (0..m)
        .map(|i| {
            (0..m)
                .map(|j| {
                    let d = mean[i] - mean[j];
                    ((dsq[i][j] / nf - d * d).max(0.0) / (nf - 1.0)).sqrt()
                })
                .collect()
        })
        .collect();
    Outcome::Done(Evaluation { ev: mean, diff_se })
}

/// One up class's evaluation in [`derive_with`]: `Ok(None)` where no hand reaches the point,
/// `Err(Stopped)` where a signal stopped it.
type Evaluated<T> = Result<Option<T>, Stopped>;

/// A signal stopped an evaluation.
#[derive(Clone, Copy, Debug)]
struct Stopped;

/// Evaluations [`derive()`] makes: every decision point the rules allow, by up-card class.
pub fn decision_points(q: &StrategyQuery) -> u64 {
    let points =
        17 + 9 + 9 + if q.options.tapo { 17 } else { 0 } + u64::from(q.options.withdraw_13);
    points * UP_CLASSES.len() as u64
}

/// Derives the sheet. The eight up-card classes of one decision point are evaluated in
/// parallel; points are solved in order because later points continue with earlier decisions.
pub fn derive(q: &StrategyQuery) -> Sheet {
    derive_with(q, &Progress::hidden())
}

/// [`derive()`], counting each evaluation (a decision point against an up-card class, of
/// [`decision_points`]) in `progress`. A signal ([`crate::runner::INTERRUPTED`]) stops it
/// between evaluations (or inside a long one, which then does not count): the cells not
/// computed are marked in [`Sheet::not_computed`]. Every cell computed is exactly what the
/// whole derivation gives, since the points it builds on were all computed before it.
pub fn derive_with(q: &StrategyQuery, progress: &Progress) -> Sheet {
    use rayon::prelude::*;
    let mut policy = PlayerPolicy::mimic(17);
    policy.name = "derived".into();
    let mut sheet = Sheet::empty();
    let mut missing = NotComputed::new();
    let ranks_of = |class: usize| -> Vec<usize> {
        if class == 7 {
            vec![7, 8, 9]
        } else {
            vec![class]
        }
    };
    // Each up class's evaluation.
    let all =
        |policy: &PlayerPolicy, point: Point, actions: &[Move]| -> Vec<Evaluated<Evaluation>> {
            (0..8)
                .into_par_iter()
                .map(|up| match evaluate(q, policy, point, up, actions) {
                    Outcome::Stopped => Err(Stopped),
                    done => {
                        progress.inc(1);
                        Ok(match done {
                            Outcome::Done(e) => Some(e),
                            _ => None,
                        })
                    }
                })
                .collect()
        };
    let hit_or_stand = |e: &Evaluation| {
        if e.ev[1] > e.ev[0] {
            Move::Hit
        } else {
            Move::Stand
        }
    };
    for t in (4..=20u8).rev() {
        for (up, e) in all(&policy, Point::Hard(t), &[Move::Stand, Move::Hit])
            .into_iter()
            .enumerate()
        {
            let Ok(e) = e else {
                missing.hard[t as usize][up] = true;
                continue;
            };
            if let Some(e) = e {
                let best = hit_or_stand(&e);
                for r in ranks_of(up) {
                    policy.hard[t as usize][r] = best;
                }
                sheet.hard[t as usize][up] = (best.code(), e.ev[0].max(e.ev[1]));
            }
        }
    }
    for t in (12..=20u8).rev() {
        for (up, e) in all(&policy, Point::Soft(t), &[Move::Stand, Move::Hit])
            .into_iter()
            .enumerate()
        {
            let Ok(e) = e else {
                missing.soft[t as usize][up] = true;
                continue;
            };
            if let Some(e) = e {
                let best = hit_or_stand(&e);
                for r in ranks_of(up) {
                    policy.soft[t as usize][r] = best;
                }
                sheet.soft[t as usize][up] = (best.code(), e.ev[0].max(e.ev[1]));
            }
        }
    }
    // Tapo, withdrawal and splits are marked only when clearly better (two standard errors)
    // than the better of standing and hitting. Each gives, per up class: (take it, its EV minus
    // the better plain move's, the better plain move's EV).
    let extra =
        |policy: &PlayerPolicy, point: Point, m: Move| -> Vec<Evaluated<(bool, f64, f64)>> {
            all(policy, point, &[Move::Stand, Move::Hit, m])
                .into_iter()
                .map(|e| {
                    e.map(|e| {
                        e.map(|e| {
                            let best = usize::from(e.ev[1] > e.ev[0]);
                            (e.clearly_better(2, best), e.ev[2] - e.ev[best], e.ev[best])
                        })
                    })
                })
                .collect()
        };
    if q.options.tapo {
        for t in 4..=20u8 {
            for (up, r) in extra(&policy, Point::TwoCardHard(t), Move::Tapo)
                .into_iter()
                .enumerate()
            {
                let Ok(r) = r else {
                    missing.tapo[t as usize][up] = true;
                    continue;
                };
                if let Some((take, gain, _)) = r {
                    for rank in ranks_of(up) {
                        policy.tapo[t as usize][rank] = take;
                    }
                    sheet.tapo[t as usize][up] = (take, gain);
                }
            }
        }
    }
    if q.options.withdraw_13 {
        for (up, r) in extra(&policy, Point::Thirteen, Move::Withdraw)
            .into_iter()
            .enumerate()
        {
            let Ok(r) = r else {
                missing.withdraw[up] = true;
                continue;
            };
            if let Some((take, _, play)) = r {
                for rank in ranks_of(up) {
                    policy.withdraw[rank] = take;
                }
                sheet.withdraw[up] = (take, play);
            }
        }
    }
    for pair in 1..10 {
        for (up, r) in extra(&policy, Point::Pair(pair), Move::Split)
            .into_iter()
            .enumerate()
        {
            let Ok(r) = r else {
                missing.pairs[pair][up] = true;
                continue;
            };
            if let Some((take, gain, _)) = r {
                for rank in ranks_of(up) {
                    policy.split[pair][rank] = take;
                }
                sheet.pairs[pair][up] = (take, gain);
            }
        }
    }
    if missing.count() > 0 {
        sheet.not_computed = Some(missing);
    }
    sheet
}

/// The face-down cards the sheet bets the bank's maximum on (the minimum on the others): an ace
/// and the figures, the four ranks whose hands win on the sheet's play — `veintiuno sim
/// --players 4 --policies sheet --hands 1e7 --seed 1` (a fresh table, the default rules):
/// A +0.751, J/Q/K +0.160 each per unit bet; 2 −0.073 … 4 −0.267 (intervals ±0.002). The test
/// `the_sheet_raises_exactly_on_the_winning_face_down_cards` measures them again.
pub const SHEET_RAISES: [bool; 10] = [
    true, false, false, false, false, false, false, true, true, true,
];

/// The sheet as a player policy (`--policies sheet` uses the one shipped in `data/`), betting
/// the maximum on [`SHEET_RAISES`].
pub fn to_policy(sheet: &Sheet, name: &str) -> PlayerPolicy {
    let mut p = PlayerPolicy::mimic(17);
    p.name = name.into();
    p.raise = SHEET_RAISES;
    for r in 0..10 {
        let up = up_class(r);
        for t in 0..22 {
            if let Some(m) = Move::from_code(sheet.hard[t][up].0) {
                p.hard[t][r] = m;
            }
            if let Some(m) = Move::from_code(sheet.soft[t][up].0) {
                p.soft[t][r] = m;
            }
            p.tapo[t][r] = sheet.tapo[t][up].0;
        }
        for rank in 0..10 {
            p.split[rank][r] = sheet.pairs[rank][up].0;
        }
        p.withdraw[r] = sheet.withdraw[up].0;
    }
    p
}

/// The report: one table per kind of decision.
pub fn report(q: &StrategyQuery, sheet: &Sheet, removed: &str) -> Report {
    let shoe = if q.infinite {
        "an infinite shoe".to_string()
    } else {
        format!("{} cards in the shoe", q.composition.total())
    };
    let mut r = Report::new(format!(
        "21 ecuatoriano strategy · {shoe}{} · bank stands at {}",
        if removed.is_empty() {
            String::new()
        } else {
            format!(" (without {removed})")
        },
        q.bank.stand
    ));
    r.field(
        "cards",
        "cards in the shoe",
        Value::Int(q.composition.total() as i64),
    );
    r.field(
        "shoe",
        "shoe",
        Value::Text(if q.infinite { "infinite" } else { "finite" }.into()),
    );
    let exact = !sheet.exact.is_empty();
    if exact {
        r.field(
            "method",
            "computed by",
            Value::Text("exact enumeration of the cards left".into()),
        );
    } else {
        r.field(
            "samples",
            "hands per point, up card and action",
            Value::Int(q.samples as i64),
        );
        r.field("seed", "seed", Value::Int(q.seed as i64));
    }
    let planned = decision_points(q);
    let not_computed = sheet.not_computed.as_ref().map_or(0, NotComputed::count);
    if not_computed > 0 {
        r.field(
            "decision_points",
            "decision points computed (by up card)",
            Value::Int((planned - not_computed.min(planned)) as i64),
        );
        r.field(
            "decision_points_requested",
            "decision points requested",
            Value::Int(planned as i64),
        );
    }
    let mut cols: Vec<(&str, &str)> = vec![("hand", "hand")];
    cols.extend(UP_CLASSES.iter().map(|u| (*u, *u)));
    let mut moves = Table::new(
        "moves",
        "Hit (H) or stand (S) by total against the bank's up card",
        &cols,
    );
    moves.top_level = true;
    for t in (4..=20).rev() {
        let mut row = vec![Value::Text(format!("hard {t}"))];
        row.extend(sheet.hard[t].iter().enumerate().map(|(up, &(c, _))| {
            if sheet.missing(|m| m.hard[t][up]) {
                not_computed_value()
            } else {
                move_value(c)
            }
        }));
        moves.push(row);
    }
    for t in (12..=20).rev() {
        let mut row = vec![Value::Text(format!("soft {t}"))];
        row.extend(sheet.soft[t].iter().enumerate().map(|(up, &(c, _))| {
            if sheet.missing(|m| m.soft[t][up]) {
                not_computed_value()
            } else {
                move_value(c)
            }
        }));
        moves.push(row);
    }
    r.tables.push(moves);
    let mut special = Table::new(
        "special_moves",
        "Split (P), tapo y quedo (T), withdraw on 13 (W)",
        &cols,
    );
    special.top_level = true;
    for (rank, name) in RANKS.iter().enumerate().skip(1) {
        let mut row = vec![Value::Text(format!("pair {name}{name}"))];
        row.extend(
            sheet.pairs[rank]
                .iter()
                .enumerate()
                .map(|(up, (b, _))| mark(*b, "P", sheet.missing(|m| m.pairs[rank][up]))),
        );
        special.push(row);
    }
    for t in 4..=20 {
        let missing = |up: usize| sheet.missing(|m| m.tapo[t][up]);
        if sheet.tapo[t].iter().any(|(b, _)| *b) || (0..8).any(missing) {
            let mut row = vec![Value::Text(format!("two cards, {t}"))];
            row.extend(
                sheet.tapo[t]
                    .iter()
                    .enumerate()
                    .map(|(up, (b, _))| mark(*b, "T", missing(up))),
            );
            special.push(row);
        }
    }
    let mut row = vec![Value::Text("13 in two cards".into())];
    row.extend(
        sheet
            .withdraw
            .iter()
            .enumerate()
            .map(|(up, (b, _))| mark(*b, "W", sheet.missing(|m| m.withdraw[up]))),
    );
    special.push(row);
    r.tables.push(special);
    let mut evs = Table::new("ev", "Expected value of the best move, hard totals", &cols);
    for t in (4..=20).rev() {
        let mut row = vec![Value::Text(format!("hard {t}"))];
        row.extend(sheet.hard[t].iter().enumerate().map(|(up, (_, e))| {
            if sheet.missing(|m| m.hard[t][up]) {
                not_computed_value()
            } else {
                Value::Num(*e, 3)
            }
        }));
        evs.push(row);
    }
    if exact {
        // Every row: the best move's EV, and its margin over the next best move.
        let mut evs = Table::new("ev", "Expected value of the best move", &cols);
        let mut margins = Table::new(
            "margin",
            "Margin of the best move over the next best (EV per unit bet)",
            &cols,
        );
        for row in &sheet.exact {
            let mut e = vec![Value::Text(row.row.clone())];
            let mut m = vec![Value::Text(row.row.clone())];
            for up in 0..UP_CLASSES.len() {
                match row.best(up) {
                    Some((best, ev, margin)) => {
                        e.push(Value::Num(ev, 4));
                        m.push(Value::Text(format!("{best} {margin:.4}")));
                    }
                    None => {
                        e.push(Value::Empty);
                        m.push(Value::Empty);
                    }
                }
            }
            evs.push(e);
            margins.push(m);
        }
        r.tables.push(evs);
        r.tables.push(margins);
        r.note(if q.infinite {
            "Infinite shoe: every card drawn with its share of the deck (each rank 1 in 10, each suit 1 in 4), nothing dealt or drawn changes the odds of the next card."
        } else {
            "Finite shoe: each card drawn is weighed by its copies left and removed."
        });
        r.note("Exact: every move's expected value by enumeration of the cards that can come, against the bank's fixed policy, the hole card never one that sends the players al puje (then nobody decides); later decisions play the sheet's own cells. A cell averages the hands of its row (two cards, and three for hard and soft totals) by their chance of being dealt; F is J, Q and K. A split splits again whenever a hand pairs again, as the engine deals it.");
        let most_of_a_rank = (0..RANK_COUNT)
            .map(|r| {
                q.composition.counts[r * 4..r * 4 + 4]
                    .iter()
                    .map(|&c| u32::from(c))
                    .sum::<u32>()
            })
            .max()
            .unwrap_or(0);
        if !q.infinite && most_of_a_rank > u32::from(super::solve::SPLIT_DEPTH) + 2 {
            r.note(format!(
                "With more than two decks' cards of a rank, one line of a split is solved splitting again card by card {} times, then as if the shoe stayed as it is (each depth is a new shoe to solve from): in a fresh eight-deck shoe, no EV of the sheet moves by more than 5e-8 from every line solved sixteen deep.",
                super::solve::SPLIT_DEPTH
            ));
        }
    } else {
        r.tables.push(evs);
        r.note("Moves compare expected values on common random numbers; a point's sampling error is about 1/sqrt(samples) per hand, much less for the difference between moves.");
    }
    r.note(super::exact::fixed_bank_note(q.bank.stand));
    if not_computed > 0 {
        r.note(format!(
            "Interrupted (Ctrl-C or SIGTERM): {} of the {planned} decision points (by up card) were computed; cells marked ? (not_computed in CSV and JSON) were not. Every cell shown is what the whole derivation gives.",
            planned - not_computed.min(planned)
        ));
    }
    r
}

/// A special move's cell: its letter, `·`, or the not-computed mark.
fn mark(take: bool, letter: &str, missing: bool) -> Value {
    if missing {
        not_computed_value()
    } else {
        Value::Text(if take { letter.into() } else { "·".into() })
    }
}

/// A sheet cell: the move's letter, or empty (null in JSON) where no hand reaches the point.
fn move_value(c: char) -> Value {
    if c == '—' {
        Value::Empty
    } else {
        Value::Text(c.to_string())
    }
}

/// EV of the best move by hard total, one line per up card.
pub fn chart(sheet: &Sheet, title: &str) -> LineChart {
    LineChart {
        title: title.into(),
        x_label: "hard total".into(),
        x_unit: Unit::Count,
        y_label: "expected value per unit bet".into(),
        y_unit: Unit::Number,
        series: UP_CLASSES
            .iter()
            .enumerate()
            .map(|(u, name)| Series {
                label: format!("bank shows {name}"),
                points: (4..=20)
                    .filter(|&t| !sheet.missing(|m| m.hard[t][u]))
                    .map(|t| (t as f64, sheet.hard[t][u].1))
                    .collect(),
            })
            .collect(),
        marks: vec![RefLine::new(0.0, "break-even")],
    }
}

/// An exact sheet drawn as players read it: a coloured decision grid, hand totals down and the
/// bank's up card across, each cell's colour its best move and its text the margin over the
/// next best move (EV per unit bet); hit or stand by hard and soft total on the left, pairs,
/// tapo y quedo and 13 in two cards on the right.
pub struct SheetGrid<'a> {
    /// The sheet (its exact rows).
    pub sheet: &'a Sheet,
    /// The title.
    pub title: String,
}

/// The colour of a move in the grid.
fn move_colour(code: char) -> plotters::style::RGBColor {
    use plotters::style::RGBColor;
    match code {
        'S' => RGBColor(0x9e, 0xc9, 0xe8),
        'H' => RGBColor(0xf4, 0xa5, 0x82),
        'P' => RGBColor(0x9f, 0xd8, 0x8f),
        'T' => RGBColor(0xc9, 0xa7, 0xe0),
        'W' => RGBColor(0xd0, 0xd0, 0xd0),
        _ => RGBColor(0xff, 0xff, 0xff),
    }
}

impl crate::report::chart::SvgChart for SheetGrid<'_> {
    fn draw<DB: plotters::prelude::DrawingBackend>(
        &self,
        root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), plotters::prelude::DrawingAreaErrorKind<DB::ErrorType>> {
        use plotters::prelude::*;
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        const FAMILY: &str = "DejaVu Sans";
        root.fill(&WHITE)?;
        let centre = Pos::new(HPos::Center, VPos::Center);
        let left = Pos::new(HPos::Left, VPos::Center);
        let title =
            TextStyle::from((FAMILY, 20).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(self.title.clone(), (450, 8), title))?;
        let small = TextStyle::from((FAMILY, 10).into_font()).pos(centre);
        let label = TextStyle::from((FAMILY, 12).into_font()).pos(left);
        let head = TextStyle::from((FAMILY, 12).into_font()).pos(centre);
        let (cw, ch) = (42i32, 17i32);
        let top = 56;
        // The rows of each panel with a hand reaching them.
        let reached = |r: &&ExactRow| r.cells.iter().any(|c| !c.is_empty());
        let plain: Vec<&ExactRow> = self
            .sheet
            .exact
            .iter()
            .filter(|r| r.row.starts_with("hard") || r.row.starts_with("soft"))
            .filter(reached)
            .collect();
        let mut order: Vec<&ExactRow> = plain
            .iter()
            .filter(|r| r.row.starts_with("hard"))
            .copied()
            .collect();
        order.sort_by_key(|r| std::cmp::Reverse(r.row[5..].parse::<u32>().unwrap_or(0)));
        let mut soft: Vec<&ExactRow> = plain
            .iter()
            .filter(|r| r.row.starts_with("soft"))
            .copied()
            .collect();
        soft.sort_by_key(|r| std::cmp::Reverse(r.row[5..].parse::<u32>().unwrap_or(0)));
        order.extend(soft);
        let special: Vec<&ExactRow> = self
            .sheet
            .exact
            .iter()
            .filter(|r| !(r.row.starts_with("hard") || r.row.starts_with("soft")))
            .filter(reached)
            .collect();
        let panel = |x0: i32,
                     rows: &[&ExactRow],
                     name: &str|
         -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
            let lw = 92;
            root.draw(&Text::new(name.to_string(), (x0, top - 26), label.clone()))?;
            for (u, up) in UP_CLASSES.iter().enumerate() {
                let x = x0 + lw + u as i32 * cw + cw / 2;
                root.draw(&Text::new(up.to_string(), (x, top - 8), head.clone()))?;
            }
            for (i, row) in rows.iter().enumerate() {
                let y = top + i as i32 * ch;
                root.draw(&Text::new(row.row.clone(), (x0, y + ch / 2), label.clone()))?;
                for u in 0..UP_CLASSES.len() {
                    let x = x0 + lw + u as i32 * cw;
                    let (fill, text) = match row.best(u) {
                        Some((m, _, margin)) => (move_colour(m), format!("{m} {margin:.3}")),
                        None => (move_colour('—'), "—".to_string()),
                    };
                    root.draw(&Rectangle::new([(x, y), (x + cw, y + ch)], fill.filled()))?;
                    root.draw(&Rectangle::new(
                        [(x, y), (x + cw, y + ch)],
                        WHITE.stroke_width(1),
                    ))?;
                    root.draw(&Text::new(text, (x + cw / 2, y + ch / 2), small.clone()))?;
                }
            }
            Ok(())
        };
        panel(10, &order, "Hit (H) or stand (S), by total")?;
        panel(460, &special, "Split (P), tapo y quedo (T), withdraw (W)")?;
        let note = TextStyle::from((FAMILY, 11).into_font()).pos(left);
        let bottom = top + order.len().max(special.len()) as i32 * ch + 14;
        root.draw(&Text::new(
            "Colour: the best move; text: its margin over the next best move, in units of the bet. F: J, Q or K."
                .to_string(),
            (10, bottom),
            note,
        ))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{render, Format};

    /// A sheet as a stopped derivation leaves it: hard 20 against A computed, the rest not.
    fn partial() -> (StrategyQuery, Sheet) {
        let options = Options::default();
        let q = StrategyQuery {
            composition: Composition::full(options.decks),
            options,
            bank: BankPolicy {
                stand: 17,
                puje: true,
                sees: false,
            },
            infinite: false,
            samples: 100,
            seed: 1,
        };
        let mut missing = NotComputed::new();
        for up in 0..8 {
            for t in 4..=20 {
                missing.hard[t][up] = !(t == 20 && up == 0);
                missing.tapo[t][up] = q.options.tapo;
            }
            for t in 12..=20 {
                missing.soft[t][up] = true;
            }
            for rank in 1..10 {
                missing.pairs[rank][up] = true;
            }
            missing.withdraw[up] = q.options.withdraw_13;
        }
        let mut sheet = Sheet {
            not_computed: Some(missing),
            ..Sheet::empty()
        };
        sheet.hard[20][0] = ('S', 0.61);
        (q, sheet)
    }

    #[test]
    fn a_partial_sheet_marks_what_was_not_computed() {
        let (q, sheet) = partial();
        assert!(!sheet.is_complete());
        assert_eq!(
            sheet.not_computed.as_ref().unwrap().count(),
            decision_points(&q) - 1
        );
        let rep = report(&q, &sheet, "");
        assert_eq!(rep.get("decision_points"), Some(&Value::Int(1)));
        assert_eq!(
            rep.get("decision_points_requested"),
            Some(&Value::Int(decision_points(&q) as i64))
        );
        let text = render(&rep, Format::Text).unwrap();
        let hard20 = text.lines().find(|l| l.contains("hard 20")).unwrap();
        assert_eq!(
            hard20.split_whitespace().collect::<Vec<_>>(),
            ["hard", "20", "S", "?", "?", "?", "?", "?", "?", "?"]
        );
        assert!(text.contains("Interrupted"), "{text}");
        let json: serde_json::Value =
            serde_json::from_str(&render(&rep, Format::Json).unwrap()).unwrap();
        let row = &json["moves"][0];
        assert_eq!(row["hand"], "hard 20");
        assert_eq!(row["A"], "S");
        assert_eq!(row["2"], "not_computed");
        let csv = render(&rep, Format::Csv).unwrap();
        // One figure a line: the hard 20 row's ace column is S, its 2 column not computed.
        let row = csv
            .lines()
            .find_map(|l| l.strip_prefix("moves,")?.strip_suffix(",hand,hard 20"))
            .unwrap_or_else(|| panic!("{csv}"));
        assert!(csv.contains(&format!("moves,{row},A,S\n")), "{csv}");
        assert!(
            csv.contains(&format!("moves,{row},2,not_computed\n")),
            "{csv}"
        );
        // The chart leaves out what was not computed.
        let c = chart(&sheet, "t");
        assert_eq!(c.series[0].points, vec![(20.0, 0.61)]);
        assert!(c.series[1].points.is_empty());
    }

    #[test]
    fn a_whole_sheet_has_no_marks() {
        let (q, mut sheet) = partial();
        sheet.not_computed = None;
        let rep = report(&q, &sheet, "");
        assert_eq!(rep.get("decision_points"), None);
        assert!(!render(&rep, Format::Json).unwrap().contains("not_computed"));
    }
}
