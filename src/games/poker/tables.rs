//! Tables built once per process and shared by every bot, engine and report: where each hand
//! stands on the ladder, the chance that fixed dice plus a fresh roll of the others reach each
//! rung, and the optimal die-by-die re-roll plan for every goal.
//!
//! Dice are coded as the multiset's counts in base 6 (`Σ 6^face`, faces 0 = the 7 … 5 = the
//! ace): a code below 6^6 names a multiset of up to five dice exactly. Each multiset of `k`
//! dice has an index among those of its size (the order of [`Counts::all_of_size`]), and a
//! re-roll state — the dice not yet rolled this turn `U` and those rolled `R`, five in all — has
//! an index among the [`STATES`].
//!
//! Nothing here is recomputed per decision: [`tables`] is built on first use (a few
//! milliseconds), and each goal's plan ([`plan`]) on the first decision that needs it.

use std::sync::OnceLock;

use super::exact::{PlanNode, Step};
use super::hand::{ladder, Counts, Face, DICE, FACES, HANDS};

/// Powers of six: the weight of each face in a code.
pub const POW6: [u32; FACES] = [1, 6, 36, 216, 1296, 7776];
/// Codes of up to five dice are below this.
pub const CODES: usize = 5 * 7776 + 1;
/// Multisets of 0 to 5 dice.
pub const MULTISETS: usize = 462;
/// Re-roll states: pairs (not yet rolled, rolled) of five dice in all.
pub const STATES: usize = 4368;
/// Goals: "reach rung `need`" for need 0 (always met) to [`HANDS`] (never met).
pub const NEEDS: usize = HANDS + 1;
/// The plan's "stop" step.
pub const STOP: u8 = u8::MAX;

/// Ordered rolls of k dice, 6^k, k = 0..=5.
const ROLLS: [f64; DICE + 1] = [1.0, 6.0, 36.0, 216.0, 1296.0, 7776.0];
/// Multisets of k dice, k = 0..=5: C(k + 5, 5).
const SIZE_COUNT: [usize; DICE + 1] = [1, 6, 21, 56, 126, 252];
/// Index of the first multiset of each size among all [`MULTISETS`].
const SIZE_OFFSET: [usize; DICE + 1] = [0, 1, 7, 28, 84, 210];
/// Index of the first state whose unrolled part has k dice.
const STATE_OFFSET: [usize; DICE + 1] = [0, 252, 1008, 2184, 3360, 4116];

/// The code of a multiset.
#[inline]
pub fn code_of(c: &Counts) -> u32 {
    c.0.iter().zip(POW6).map(|(&n, w)| n as u32 * w).sum()
}

/// The multiset of a code.
pub fn counts_of(code: u32) -> Counts {
    let mut c = [0u8; FACES];
    let mut x = code;
    for slot in c.iter_mut() {
        *slot = (x % 6) as u8;
        x /= 6;
    }
    Counts(c)
}

/// The shared tables.
pub struct Tables {
    /// Per code: the multiset's index among those of its size (`u16::MAX`: not a multiset of
    /// at most five dice).
    index: Vec<u16>,
    /// Per code: the number of dice.
    size: Vec<u8>,
    /// Per code of five dice: the hand's rung on the ladder.
    rung: Vec<u8>,
    /// The codes of each size, in index order.
    by_size: [Vec<u32>; DICE + 1],
    /// `reach_count[m * NEEDS + need]`: of the 6^(5 − k) ordered rolls of the other dice, how
    /// many make a hand of rung `need` or higher with the multiset `m` (index among all).
    reach_count: Vec<u16>,
    /// Per rung: whether a claim names it without kickers (the kickers are the lowest), the
    /// claims of `kickers=off`.
    named: [bool; HANDS],
    /// Per rung `r` (and [`NO_CLAIM`](super::engine::NO_CLAIM) as `HANDS`): the lowest named
    /// rung above it (`HANDS` if none).
    next_named: [u16; HANDS + 1],
    /// Per rung: the highest named rung at or below it.
    named_at_most: [u8; HANDS],
    /// Per code: the ordered rolls that give the multiset (k! / Π count!).
    orderings: Vec<u16>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables { .. }")
    }
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(Tables::build)
}

impl Tables {
    fn build() -> Tables {
        let mut index = vec![u16::MAX; CODES];
        let mut size = vec![u8::MAX; CODES];
        let by_size: [Vec<u32>; DICE + 1] =
            std::array::from_fn(|k| Counts::all_of_size(k).iter().map(code_of).collect());
        for (k, codes) in by_size.iter().enumerate() {
            for (i, &code) in codes.iter().enumerate() {
                index[code as usize] = i as u16;
                size[code as usize] = k as u8;
            }
        }
        let mut rung = vec![u8::MAX; CODES];
        let mut named = [false; HANDS];
        for (r, (dice, value)) in ladder().iter().enumerate() {
            rung[code_of(dice) as usize] = r as u8;
            // The faces that form the hand, the larger group first (a full's trío).
            let mut groups: Vec<super::hand::Face> = super::hand::Face::ALL
                .iter()
                .rev()
                .copied()
                .filter(|f| dice.count(*f) > 1)
                .collect();
            groups.sort_by_key(|f| std::cmp::Reverse(dice.count(*f)));
            let kind = value.hand_type();
            named[r] = match kind {
                super::hand::HandType::Nothing => true,
                _ => super::hand::Claim::lowest(kind, &groups).is_ok_and(|c| c.dice() == *dice),
            };
        }
        // Ordered rolls of k dice by multiset: k! / Π count!.
        let orderings = |c: &Counts| -> u32 {
            let fact = |n: u32| (1..=n).product::<u32>();
            c.0.iter()
                .fold(fact(c.len() as u32), |acc, &n| acc / fact(n as u32))
        };
        let mut orderings_of = vec![0u16; CODES];
        for codes in &by_size {
            for &c in codes {
                orderings_of[c as usize] = orderings(&counts_of(c)) as u16;
            }
        }
        let mut reach_count = vec![0u16; MULTISETS * NEEDS];
        for (k, codes) in by_size.iter().enumerate() {
            let rest = DICE - k;
            let total = 6u32.pow(rest as u32);
            for (i, &code) in codes.iter().enumerate() {
                let m = SIZE_OFFSET[k] + i;
                let mut hist = [0u16; HANDS];
                for &roll in &by_size[rest] {
                    let hand = (code + roll) as usize;
                    hist[rung[hand] as usize] += orderings_of[roll as usize];
                }
                let row = &mut reach_count[m * NEEDS..(m + 1) * NEEDS];
                for need in (0..HANDS).rev() {
                    row[need] = row[need + 1] + hist[need];
                }
                debug_assert_eq!(row[0] as u32, total);
            }
        }
        let mut next_named = [HANDS as u16; HANDS + 1];
        let mut above = HANDS as u16;
        for r in (0..HANDS).rev() {
            next_named[r] = above;
            if named[r] {
                above = r as u16;
            }
        }
        next_named[HANDS] = above;
        let mut named_at_most = [0u8; HANDS];
        let mut below = 0u8;
        for r in 0..HANDS {
            if named[r] {
                below = r as u8;
            }
            named_at_most[r] = below;
        }
        Tables {
            orderings: orderings_of,
            next_named,
            named_at_most,
            index,
            size,
            rung,
            by_size,
            reach_count,
            named,
        }
    }

    /// The rung of five dice given by their code.
    #[inline]
    pub fn rung(&self, code5: u32) -> u8 {
        self.rung[code5 as usize]
    }

    /// The ordered rolls that give the multiset `code` (k! / Π count!).
    #[inline]
    pub fn orderings(&self, code: u32) -> u32 {
        self.orderings[code as usize] as u32
    }

    /// The number of dice of a code.
    #[inline]
    pub fn size(&self, code: u32) -> usize {
        self.size[code as usize] as usize
    }

    /// The index among all [`MULTISETS`] of the multiset `code`.
    #[inline]
    pub fn multiset(&self, code: u32) -> usize {
        SIZE_OFFSET[self.size[code as usize] as usize] + self.index[code as usize] as usize
    }

    /// The codes of every multiset of `k` dice.
    pub fn codes_of_size(&self, k: usize) -> &[u32] {
        &self.by_size[k]
    }

    /// The chance that the dice `fixed` (code) and a fresh roll of the other `5 − k` make a hand
    /// of rung `need` or higher (`need` = [`HANDS`]: never).
    #[inline]
    pub fn reach(&self, fixed: u32, need: usize) -> f64 {
        let m = self.multiset(fixed);
        self.reach_count[m * NEEDS + need] as f64 / ROLLS[DICE - self.size(fixed)]
    }

    /// [`Self::reach`] as a count of the 6^(5 − k) equally likely ordered rolls.
    pub fn reach_count(&self, fixed: u32, need: usize) -> u32 {
        self.reach_count[self.multiset(fixed) * NEEDS + need] as u32
    }

    /// The highest rung `r ≥ from` with `reach(fixed, r) ≥ level`, if any (reach falls as the
    /// rung rises).
    pub fn highest_reaching(&self, fixed: u32, from: usize, level: f64) -> Option<usize> {
        let row = &self.reach_count[self.multiset(fixed) * NEEDS..][..HANDS];
        let total = ROLLS[DICE - self.size(fixed)];
        let at_least = |&n: &u16| n as f64 / total >= level;
        if from >= HANDS || !at_least(&row[from]) {
            return None;
        }
        // The first rung from `from` on whose chance is below the level, less one.
        let below = row[from..].partition_point(at_least);
        Some(from + below - 1)
    }

    /// Whether a claim names rung `r` without kickers (its kickers are the lowest).
    #[inline]
    pub fn is_named(&self, r: usize) -> bool {
        self.named[r]
    }

    /// The lowest claim above `claim` (`None`: no claim stands yet) under the rule on kickers,
    /// or `None` above repóker de ases.
    #[inline]
    pub fn lowest_claim_above(&self, claim: Option<u8>, kickers: bool) -> Option<u8> {
        let next = match (claim, kickers) {
            (None, _) => 0,
            (Some(c), true) => c as usize + 1,
            (Some(c), false) => self.next_named[c as usize] as usize,
        };
        (next < HANDS).then_some(next as u8)
    }

    /// The highest claim at or below rung `r` under the rule on kickers (every rung with
    /// kickers; the highest named rung without).
    #[inline]
    pub fn claim_at_most(&self, r: u8, kickers: bool) -> u8 {
        if kickers {
            r
        } else {
            self.named_at_most[r as usize]
        }
    }

    /// The index of the re-roll state with `unrolled` and `rolled` dice (codes, five in all).
    #[inline]
    pub fn state(&self, unrolled: u32, rolled: u32) -> usize {
        let u = self.size[unrolled as usize] as usize;
        STATE_OFFSET[u]
            + self.index[unrolled as usize] as usize * SIZE_COUNT[DICE - u]
            + self.index[rolled as usize] as usize
    }
}

/// The optimal die-by-die re-roll plan for one goal: for every state, the chance to reach the
/// goal playing the plan and the first step (a face to roll one die of, or [`STOP`]).
pub struct Plan {
    /// The goal: a hand of this rung or higher.
    pub need: usize,
    chance: Vec<f64>,
    step: Vec<u8>,
}

/// The plan for the goal "a hand of rung `need` or higher" (`need` ≤ [`HANDS`]), built on
/// first use and shared.
pub fn plan(need: usize) -> &'static Plan {
    static PLANS: [OnceLock<Plan>; NEEDS] = [const { OnceLock::new() }; NEEDS];
    PLANS[need].get_or_init(|| Plan::build(tables(), need))
}

impl Plan {
    /// Solves the goal backwards from the states with no die left to roll. Rolling one die at
    /// a time is never worse than rolling several together (the group's outcome can be replayed
    /// die by die), so single dice are the only rolls. Ties: stop first, then the highest face
    /// (the same choices as [`super::exact::Planner`]).
    fn build(t: &Tables, need: usize) -> Plan {
        let mut chance = vec![0.0; STATES];
        let mut step = vec![STOP; STATES];
        for u in 0..=DICE {
            for &uc in &t.by_size[u] {
                for &rc in &t.by_size[DICE - u] {
                    let s = t.state(uc, rc);
                    if t.rung(uc + rc) as usize >= need {
                        chance[s] = 1.0;
                        continue;
                    }
                    let mut best = (0.0, STOP);
                    for f in (0..FACES).rev() {
                        if (uc / POW6[f]).is_multiple_of(6) {
                            continue;
                        }
                        let rest = uc - POW6[f];
                        let mut p = 0.0;
                        for x in POW6 {
                            p += chance[t.state(rest, rc + x)];
                        }
                        p /= FACES as f64;
                        if p > best.0 + 1e-15 {
                            best = (p, f as u8);
                        }
                    }
                    chance[s] = best.0;
                    step[s] = best.1;
                }
            }
        }
        Plan { need, chance, step }
    }

    /// The chance to reach the goal from a state, playing the plan.
    #[inline]
    pub fn chance(&self, t: &Tables, unrolled: u32, rolled: u32) -> f64 {
        self.chance[t.state(unrolled, rolled)]
    }

    /// The plan from a state as a tree of its first `depth` rolls (deeper nodes have their
    /// step but no outcomes), for [`PlanNode::summary`].
    pub fn node(&self, t: &Tables, unrolled: u32, rolled: u32, depth: usize) -> PlanNode {
        let step = self.step(t, unrolled, rolled);
        let chance = self.chance(t, unrolled, rolled);
        if step == STOP {
            return PlanNode {
                chance,
                step: Step::Stop,
                outcomes: Vec::new(),
            };
        }
        let face = Face::from_index(step as usize).expect("a face");
        let outcomes = if depth == 0 {
            Vec::new()
        } else {
            let rest = unrolled - POW6[step as usize];
            Face::ALL
                .iter()
                .rev()
                .map(|&x| (x, self.node(t, rest, rolled + POW6[x.index()], depth - 1)))
                .collect()
        };
        PlanNode {
            chance,
            step: Step::Roll(face),
            outcomes,
        }
    }

    /// The first step from a state: the face of the die to roll next, or [`STOP`].
    #[inline]
    pub fn step(&self, t: &Tables, unrolled: u32, rolled: u32) -> u8 {
        self.step[t.state(unrolled, rolled)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::poker::exact::{Goal, Planner};
    use crate::games::poker::hand::Claim;

    #[test]
    fn codes_and_states_are_one_to_one() {
        let t = tables();
        let mut seen = vec![false; MULTISETS];
        for k in 0..=DICE {
            for &c in t.codes_of_size(k) {
                assert_eq!(t.size(c), k);
                assert_eq!(code_of(&counts_of(c)), c);
                assert!(!std::mem::replace(&mut seen[t.multiset(c)], true));
            }
        }
        assert!(seen.iter().all(|&s| s));
        let mut states = vec![false; STATES];
        for u in 0..=DICE {
            for &uc in t.codes_of_size(u) {
                for &rc in t.codes_of_size(DICE - u) {
                    assert!(!std::mem::replace(&mut states[t.state(uc, rc)], true));
                }
            }
        }
        assert!(states.iter().all(|&s| s));
        // The kicker-free claims: 6 nada, 6 pairs, 15 doble parejas, 6 tríos, 30 fulls,
        // 6 póker, 6 repóker.
        assert_eq!((0..HANDS).filter(|&r| t.is_named(r)).count(), 75);
    }

    #[test]
    fn the_shared_plans_are_the_planner_s() {
        let t = tables();
        let l = ladder();
        for need in (1..HANDS).step_by(17) {
            let plan = plan(need);
            let mut planner = Planner::new(Goal::reach(&Claim::of(l[need].0)));
            for (i, &(hand, _)) in l.iter().enumerate().step_by(5) {
                let h = code_of(&hand);
                let (p, step) = planner.best(hand, Counts::EMPTY);
                assert_eq!(plan.chance(t, h, 0), p, "{need} {i}");
                let s = plan.step(t, h, 0);
                let expect = match step {
                    Step::Stop => STOP,
                    Step::Roll(f) => f.index() as u8,
                };
                assert_eq!(s, expect, "{need} {hand}");
            }
        }
        // Never met, always met.
        assert_eq!(plan(HANDS).chance(t, code_of(&l[251].0), 0), 0.0);
        assert_eq!(plan(0).step(t, code_of(&l[0].0), 0), STOP);
        let _ = Face::ACE;
    }

    #[test]
    fn the_highest_rung_still_reached() {
        let t = tables();
        for fixed in [0, code_of(&Counts::of(&[Face::ACE, Face::ACE]))] {
            for level in [0.0, 0.1, 0.5, 0.9, 1.0] {
                let got = t.highest_reaching(fixed, 3, level);
                let brute = (3..HANDS).filter(|&r| t.reach(fixed, r) >= level).max();
                assert_eq!(got, brute, "{fixed} {level}");
            }
        }
    }
}
