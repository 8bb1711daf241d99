//! Dealing the tiles a player cannot see exactly uniformly over the deals consistent with
//! what every seat is known to lack, when two or more hands are so constrained.
//!
//! Filling the constrained hands one after the other, each uniformly from what it may hold, is
//! uniform when one hand is constrained, but not with two: the first hand's draw changes how
//! many ways the second can be completed, and those counts are what uniform weighting needs
//! (a position with two knocks gave a tile 36.3 % in one hand where 45.7 % is exact). Here the
//! unseen tiles are grouped by the constrained hands that may hold them (at most 2³ − 1 kinds
//! for three hands); how many of each kind go to each hand is drawn with probability
//! proportional to its number of completions (counted by a dynamic programme over the kinds),
//! then the tiles of each kind are drawn uniformly, and the unconstrained hands and the
//! boneyard share the rest uniformly. The counts depend only on the kinds' sizes and the hands'
//! sizes, which stay the same for every rollout of one position: the table is kept per thread
//! (a few recent ones), so a rollout allocates nothing once it is built.

use std::cell::RefCell;

use super::tiles::{nth_tile, TileSet};
use crate::rng::{uniform_below, Rng};

/// Most constrained hands: the other players of a four-player table.
const MOST: usize = 3;
/// Tables kept per thread (a search may alternate between a few views).
const KEPT: usize = 4;

/// What the table of completion counts depends on: how many unseen tiles each set of
/// constrained hands may hold (index = the set's bits), and each constrained hand's size.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    kinds: [u8; 1 << MOST],
    sizes: [u8; MOST],
    hands: u8,
}

/// Completion counts: `ways[i · states + state]` is the number of ways the kinds from the
/// `i`-th on (in increasing set order, empty kinds skipped) fill the constrained hands' remaining
/// sizes `state` (mixed radix, size + 1 per hand), tiles of one kind told apart.
struct Table {
    shape: Shape,
    /// The kinds that some constrained hand may hold, with tiles unseen (set bits), in
    /// increasing order: the first `kinds` entries.
    order: [u8; 1 << MOST],
    kinds: usize,
    states: usize,
    ways: Vec<f64>,
}

/// The tables of one thread, and the one a new shape replaces next (round robin).
struct Tables {
    kept: Vec<Table>,
    next: usize,
}

thread_local! {
    static TABLES: RefCell<Tables> = const {
        RefCell::new(Tables {
            kept: Vec::new(),
            next: 0,
        })
    };
}

/// `n!` as a float (tile counts stay below 64).
fn factorial(n: u32) -> f64 {
    (2..=n).fold(1.0, |f, k| f * f64::from(k))
}

impl Shape {
    /// The mixed-radix index of remaining sizes.
    fn index(&self, need: [u8; MOST]) -> usize {
        let mut i = 0;
        for h in (0..self.hands as usize).rev() {
            i = i * (self.sizes[h] as usize + 1) + need[h] as usize;
        }
        i
    }

    /// Remaining sizes of an index.
    fn need(&self, mut i: usize) -> [u8; MOST] {
        let mut need = [0; MOST];
        for (h, n) in need.iter_mut().enumerate().take(self.hands as usize) {
            let d = self.sizes[h] as usize + 1;
            *n = (i % d) as u8;
            i /= d;
        }
        need
    }

    /// Calls `f(x, weight)` for every split `x` of `count` tiles of the kind `set` among the
    /// hands in it (at most `need` each, the rest to the free pool), `weight` the number of
    /// ways to choose which tiles go where: `count! / (x₀! x₁! x₂! (count − Σx)!)`.
    fn splits(&self, set: u8, count: u8, need: [u8; MOST], mut f: impl FnMut([u8; MOST], f64)) {
        let cap = |h: usize| -> u8 {
            if h < self.hands as usize && set >> h & 1 == 1 {
                need[h].min(count)
            } else {
                0
            }
        };
        let whole = factorial(count.into());
        for x0 in 0..=cap(0) {
            for x1 in 0..=cap(1) {
                for x2 in 0..=cap(2) {
                    let taken = x0 + x1 + x2;
                    if taken > count {
                        continue;
                    }
                    let below = factorial(x0.into())
                        * factorial(x1.into())
                        * factorial(x2.into())
                        * factorial((count - taken).into());
                    f([x0, x1, x2], whole / below);
                }
            }
        }
    }
}

impl Table {
    /// An empty table with room for any shape of a set of `set_size` tiles: the hands' sizes
    /// add up to at most that, so their product of (size + 1) is at most (⌈S/3⌉ + 1)³, and
    /// there are at most 2³ rows; a table is then rebuilt in place, allocating nothing.
    fn with_room(set_size: u32) -> Table {
        let side = set_size.div_ceil(MOST as u32) as usize + 1;
        Table {
            shape: Shape {
                kinds: [0; 1 << MOST],
                sizes: [0; MOST],
                hands: 0,
            },
            order: [0; 1 << MOST],
            kinds: 0,
            states: 0,
            ways: Vec::with_capacity((1 << MOST) * side.pow(MOST as u32)),
        }
    }

    /// Counts the completions of `shape`, in place.
    fn build(&mut self, shape: Shape) {
        self.shape = shape;
        self.kinds = 0;
        for set in 1..1u8 << shape.hands {
            if shape.kinds[set as usize] > 0 {
                self.order[self.kinds] = set;
                self.kinds += 1;
            }
        }
        let states: usize = (0..shape.hands as usize)
            .map(|h| shape.sizes[h] as usize + 1)
            .product();
        self.states = states;
        let ways = &mut self.ways;
        ways.clear();
        ways.resize((self.kinds + 1) * states, 0.0);
        ways[self.kinds * states] = 1.0; // nothing left to place, every size met
        for i in (0..self.kinds).rev() {
            let set = self.order[i];
            for state in 0..states {
                let need = shape.need(state);
                let mut total = 0.0;
                shape.splits(set, shape.kinds[set as usize], need, |x, w| {
                    let rest = [need[0] - x[0], need[1] - x[1], need[2] - x[2]];
                    total += w * ways[(i + 1) * states + shape.index(rest)];
                });
                ways[i * states + state] = total;
            }
        }
    }
}

/// Deals `unseen` uniformly over the deals that give each seat of `seats` exactly `sizes[seat]`
/// tiles, none of them in `forbidden[seat]`, and the rest to the boneyard; `None` when no such
/// deal exists. Returns the hands (by seat) and the boneyard. `set_size` is the number of
/// tiles in the whole set (it sizes the kept tables once).
pub(crate) fn deal_uniform(
    set_size: u32,
    unseen: TileSet,
    seats: &[u8],
    sizes: &[u32; 4],
    forbidden: &[TileSet; 4],
    rng: &mut impl Rng,
) -> Option<([TileSet; 4], TileSet)> {
    let mut held = [0u8; MOST];
    let mut k = 0;
    for &s in seats {
        if sizes[s as usize] > 0 && forbidden[s as usize] & unseen != 0 {
            held[k] = s;
            k += 1;
        }
    }
    let constrained = &held[..k];
    let mut shape = Shape {
        kinds: [0; 1 << MOST],
        sizes: [0; MOST],
        hands: constrained.len() as u8,
    };
    let mut kind_tiles = [0 as TileSet; 1 << MOST];
    for (h, &s) in constrained.iter().enumerate() {
        shape.sizes[h] = sizes[s as usize] as u8;
    }
    let mut left = unseen;
    while left != 0 {
        let bit = left & left.wrapping_neg();
        left &= left - 1;
        let set = constrained
            .iter()
            .enumerate()
            .filter(|&(_, &s)| forbidden[s as usize] & bit == 0)
            .fold(0usize, |m, (h, _)| m | 1 << h);
        shape.kinds[set] += 1;
        kind_tiles[set] |= bit;
    }
    TABLES.with(|tables| {
        let mut tables = tables.borrow_mut();
        let at = match tables.kept.iter().position(|t| t.shape == shape) {
            Some(at) => at,
            None => {
                if tables.kept.len() < KEPT {
                    tables.kept.push(Table::with_room(set_size));
                    tables.kept.len() - 1
                } else {
                    tables.next = (tables.next + 1) % KEPT;
                    tables.next
                }
            }
        };
        let table = &mut tables.kept[at];
        if table.shape != shape || table.states == 0 {
            table.build(shape);
        }
        let table = &*table;
        let mut need = shape.sizes;
        if table.ways[shape.index(need)] <= 0.0 {
            return None;
        }
        let mut hands = [0 as TileSet; 4];
        let mut free = unseen;
        for (i, &set) in table.order[..table.kinds].iter().enumerate() {
            let here = table.ways[i * table.states + shape.index(need)];
            let next = &table.ways[(i + 1) * table.states..(i + 2) * table.states];
            // A point in [0, here): the split whose running total passes it is drawn.
            let mut point = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * here;
            let mut chosen = None;
            shape.splits(set, shape.kinds[set as usize], need, |x, w| {
                let rest = [need[0] - x[0], need[1] - x[1], need[2] - x[2]];
                let weight = w * next[shape.index(rest)];
                if weight > 0.0 && chosen.is_none() {
                    if point < weight {
                        chosen = Some(x);
                    } else {
                        point -= weight;
                    }
                }
            });
            // Rounding may leave the point past the last split: it takes what is left over.
            let x = chosen.unwrap_or_else(|| last_split(&shape, set, need, next));
            let mut pool = kind_tiles[set as usize];
            for (h, &s) in constrained.iter().enumerate() {
                for _ in 0..x[h] {
                    let t = nth_tile(pool, uniform_below(rng, pool.count_ones() as usize) as u32);
                    pool &= !t.bit();
                    hands[s as usize] |= t.bit();
                    free &= !t.bit();
                }
                need[h] -= x[h];
            }
        }
        for &s in seats.iter().filter(|s| !constrained.contains(s)) {
            for _ in 0..sizes[s as usize] {
                let t = nth_tile(free, uniform_below(rng, free.count_ones() as usize) as u32);
                free &= !t.bit();
                hands[s as usize] |= t.bit();
            }
        }
        Some((hands, free))
    })
}

/// The last split with a completion (what a draw lands on when rounding leaves the point at
/// the very end of the total).
fn last_split(shape: &Shape, set: u8, need: [u8; MOST], next: &[f64]) -> [u8; MOST] {
    let mut last = [0; MOST];
    shape.splits(set, shape.kinds[set as usize], need, |x, w| {
        let rest = [need[0] - x[0], need[1] - x[1], need[2] - x[2]];
        if w * next[shape.index(rest)] > 0.0 {
            last = x;
        }
    });
    last
}
