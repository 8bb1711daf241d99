//! Exact odds for poker dice: what a roll of K dice makes, and the best way to roll to beat (or
//! reach) a claim under the real rule: each die at most once per turn, one at a time or in
//! groups, deciding after each throw.
//!
//! Rolling one die at a time is never worse than rolling a group at once (the group's outcome
//! can be replayed die by die while ignoring what came up), so the optimal plan rolls single
//! dice: `V(U, R) = max(win(U + R), max over faces f in U of mean over x of V(U - f, R + x))`,
//! where `U` are the dice not yet rolled this turn and `R` those rolled. Every state is a pair
//! of multisets, a few hundred at most, solved once per question.

use std::collections::HashMap;

use super::hand::{Claim, Counts, Face, HandType, HandValue, DICE, FACES};

/// The probability of each multiset of `n` dice: (dice, probability), every multiset once.
pub fn roll_distribution(n: usize) -> Vec<(Counts, f64)> {
    let total = 6f64.powi(n as i32);
    Counts::all_of_size(n)
        .into_iter()
        .map(|c| (c, multinomial(&c) as f64 / total))
        .collect()
}

/// Orderings of a multiset: n! / Π count!.
fn multinomial(c: &Counts) -> u64 {
    let fact = |k: u64| (1..=k).product::<u64>();
    let n = c.len() as u64;
    c.0.iter().fold(fact(n), |acc, &k| acc / fact(k as u64))
}

/// The chance of each hand type when five dice are rolled with `kept` held (kept + rolled = 5).
pub fn type_distribution(kept: Counts) -> [f64; 7] {
    let mut out = [0.0; 7];
    for (roll, p) in roll_distribution(DICE - kept.len()) {
        out[HandType::of(&kept.plus(roll)) as usize] += p;
    }
    out
}

/// What counts as success: strictly above the claim (to pass a higher claim) or at least it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Strictly better than the claim: what a receiver who accepted it must pass on.
    Beat(HandValue),
    /// At least the claim: the claim would be true.
    Reach(HandValue),
}

impl Goal {
    /// Whether five dice meet the goal.
    pub fn met(&self, hand: &Counts) -> bool {
        let v = HandValue::of(hand);
        match *self {
            Goal::Beat(t) => v > t,
            Goal::Reach(t) => v >= t,
        }
    }

    /// Beat `claim`.
    pub fn beat(claim: &Claim) -> Goal {
        Goal::Beat(claim.value())
    }

    /// Reach `claim`.
    pub fn reach(claim: &Claim) -> Goal {
        Goal::Reach(claim.value())
    }
}

/// The optimal die-by-die plan for one goal, solved on demand and memoised.
pub struct Planner {
    goal: Goal,
    memo: HashMap<(Counts, Counts), (f64, Option<Face>)>,
}

/// A decision of the plan: roll one die of this face, or stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Stop rolling: the dice are as good as they get.
    Stop,
    /// Roll one die showing this face (any of them: dice of a face are alike).
    Roll(Face),
}

impl Planner {
    /// A planner for `goal`.
    pub fn new(goal: Goal) -> Planner {
        Planner {
            goal,
            memo: HashMap::new(),
        }
    }

    /// The best chance to meet the goal with `unrolled` dice still allowed a roll and `rolled`
    /// dice already rolled this turn, and the first step that achieves it.
    pub fn best(&mut self, unrolled: Counts, rolled: Counts) -> (f64, Step) {
        let (p, f) = self.value(unrolled, rolled);
        (p, f.map_or(Step::Stop, Step::Roll))
    }

    fn value(&mut self, unrolled: Counts, rolled: Counts) -> (f64, Option<Face>) {
        if let Some(&v) = self.memo.get(&(unrolled, rolled)) {
            return v;
        }
        let hand = unrolled.plus(rolled);
        // Stopping is preferred on ties: fewer dice shown, nothing lost.
        let mut best = (if self.goal.met(&hand) { 1.0 } else { 0.0 }, None);
        if best.0 < 1.0 {
            for f in Face::ALL.iter().rev() {
                if unrolled.count(*f) == 0 {
                    continue;
                }
                let rest = unrolled.without(*f);
                let mut p = 0.0;
                for x in Face::ALL {
                    p += self.value(rest, rolled.with(x)).0;
                }
                p /= FACES as f64;
                if p > best.0 + 1e-15 {
                    best = (p, Some(*f));
                }
            }
        }
        self.memo.insert((unrolled, rolled), best);
        best
    }

    /// The plan from a state, as nested steps: what to roll, and for each face it may show the
    /// plan that follows (children sharing the same continuation are grouped).
    pub fn plan(&mut self, unrolled: Counts, rolled: Counts) -> PlanNode {
        let (p, step) = self.best(unrolled, rolled);
        match step {
            Step::Stop => PlanNode {
                chance: p,
                step,
                outcomes: Vec::new(),
            },
            Step::Roll(f) => {
                let rest = unrolled.without(f);
                let outcomes = Face::ALL
                    .iter()
                    .rev()
                    .map(|&x| (x, self.plan(rest, rolled.with(x))))
                    .collect();
                PlanNode {
                    chance: p,
                    step,
                    outcomes,
                }
            }
        }
    }
}

/// One node of a plan: the chance from here, the step, and what follows each face rolled.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanNode {
    /// The chance to meet the goal from here, playing the plan.
    pub chance: f64,
    /// What to do here.
    pub step: Step,
    /// For a roll: each face it may show (A first) and the plan after it.
    pub outcomes: Vec<(Face, PlanNode)>,
}

impl PlanNode {
    /// The plan in a few sentences: the first die to roll, and for each face it may show, the
    /// next die (or that the goal is met, or out of reach); the steps after that are asked with
    /// `--rolled`. Stopping is never said after a success: the plan stops as soon as the dice
    /// meet the goal.
    pub fn summary(&self) -> String {
        match self.step {
            Step::Stop if self.chance >= 1.0 => "roll nothing: the dice already make it".into(),
            Step::Stop => "roll nothing: no roll can make it".into(),
            Step::Roll(f) => {
                let mut s = format!(
                    "Roll one die at a time and stop as soon as the dice make it. First roll {}.",
                    with_article(f)
                );
                // Group the faces by what comes next: made, out of reach, or the next die.
                let mut groups: Vec<(String, Vec<String>)> = Vec::new();
                let mut deeper = false;
                for (x, node) in &self.outcomes {
                    let next = match node.step {
                        Step::Stop if node.chance >= 1.0 => "that makes it".to_string(),
                        Step::Stop => "stop: nothing can make it now".to_string(),
                        Step::Roll(g) => {
                            deeper |= node.outcomes.iter().any(|(_, n)| n.step != Step::Stop);
                            format!("roll {} next", with_article(g))
                        }
                    };
                    match groups.iter_mut().find(|(t, _)| *t == next) {
                        Some((_, faces)) => faces.push(x.to_string()),
                        None => groups.push((next, vec![x.to_string()])),
                    }
                }
                let parts: Vec<String> = groups
                    .iter()
                    .map(|(next, faces)| format!("if it shows {}, {next}", or_list(faces)))
                    .collect();
                s.push_str(&format!(" {}.", capital(&parts.join("; "))));
                if deeper {
                    s.push_str(" Then ask again, giving the dice rolled so far with --rolled.");
                } else if groups.iter().any(|(n, _)| n.starts_with("roll")) {
                    s.push_str(" That is the last die to roll.");
                }
                s
            }
        }
    }

    /// The whole plan as a tree in words: "roll the J: if it shows A or K, stop; otherwise roll
    /// the Q: …". Faces leading to the same continuation are named together.
    pub fn describe(&self) -> String {
        match self.step {
            Step::Stop => "stop".to_string(),
            Step::Roll(f) => {
                // Group the faces by the text of what follows, in face order.
                let mut groups: Vec<(Vec<Face>, String)> = Vec::new();
                for (x, node) in &self.outcomes {
                    let text = node.describe();
                    match groups.iter_mut().find(|(_, t)| *t == text) {
                        Some((faces, _)) => faces.push(*x),
                        None => groups.push((vec![*x], text)),
                    }
                }
                let roll = format!("roll {}", with_article(f));
                if groups.len() == 1 {
                    let then = &groups[0].1;
                    return if then == "stop" {
                        format!("{roll}, then stop")
                    } else {
                        format!("{roll}, then {then}")
                    };
                }
                // The largest group that goes on reads as "otherwise", last; stops are named.
                let (big, _) = groups
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, text))| text != "stop")
                    .max_by_key(|(i, (faces, _))| (faces.len(), *i))
                    .expect("groups differ, so one goes on");
                let mut parts = Vec::new();
                for (i, (faces, text)) in groups.iter().enumerate() {
                    if i == big {
                        continue;
                    }
                    let names: Vec<String> = faces.iter().map(Face::to_string).collect();
                    parts.push(format!("if it shows {}, {text}", or_list(&names)));
                }
                parts.push(format!("otherwise {}", groups[big].1));
                format!("{roll}: {}", parts.join("; "))
            }
        }
    }
}

/// The text with its first letter in upper case.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// "a K", "an A", "an 8".
fn with_article(f: Face) -> String {
    match f {
        Face::ACE | Face::EIGHT => format!("an {f}"),
        _ => format!("a {f}"),
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The best single keep: hold a subset of the dice, roll all the others once together. Returns
/// the chance and the dice held; ties go to holding more.
pub fn best_single_keep(hand: Counts, goal: Goal) -> (f64, Counts) {
    best_single_keep_from(hand, Counts::EMPTY, goal)
}

/// [`best_single_keep`] when the dice `rolled` were already rolled this turn (they are kept):
/// hold them and a subset of `unrolled`, roll the rest once together.
pub fn best_single_keep_from(unrolled: Counts, rolled: Counts, goal: Goal) -> (f64, Counts) {
    let mut best = (-1.0, Counts::EMPTY);
    for keep in sub_multisets(unrolled).into_iter().map(|k| k.plus(rolled)) {
        let p: f64 = roll_distribution(DICE - keep.len())
            .into_iter()
            .filter(|(roll, _)| goal.met(&keep.plus(*roll)))
            .map(|(_, p)| p)
            .sum();
        if p > best.0 + 1e-15 || ((p - best.0).abs() <= 1e-15 && keep.len() > best.1.len()) {
            best = (p, keep);
        }
    }
    best
}

/// Every sub-multiset of `c` (the distinct keeps of the 32 subsets of five dice).
pub fn sub_multisets(c: Counts) -> Vec<Counts> {
    let mut out = vec![Counts::EMPTY];
    for f in Face::ALL {
        let mut next = Vec::with_capacity(out.len() * (c.count(f) as usize + 1));
        for base in &out {
            for k in 0..=c.count(f) {
                let mut b = *base;
                b.0[f.index()] = k;
                next.push(b);
            }
        }
        out = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(s: &str) -> Counts {
        Counts::parse(s, "test").unwrap()
    }

    #[test]
    fn roll_distributions_sum_to_one_and_match_known_counts() {
        for n in 0..=DICE {
            let total: f64 = roll_distribution(n).iter().map(|x| x.1).sum();
            assert!((total - 1.0).abs() < 1e-12, "{n}");
        }
        // Five poker dice: 6 repóker, 150 póker, 300 full, 1200 trío, 1800 doble pareja,
        // 3600 pareja, 720 nada out of 7776.
        let t = type_distribution(Counts::EMPTY);
        let expect = [720.0, 3600.0, 1800.0, 1200.0, 300.0, 150.0, 6.0];
        for i in 0..7 {
            assert!(
                (t[i] * 7776.0 - expect[i]).abs() < 1e-9,
                "{i}: {}",
                t[i] * 7776.0
            );
        }
    }

    #[test]
    fn the_die_by_die_plan_is_never_worse_than_the_best_keep() {
        let ladder = crate::games::poker::hand::ladder();
        for (i, &(hand, _)) in ladder.iter().enumerate().step_by(7) {
            for &(target, _) in ladder.iter().step_by(23) {
                let goal = Goal::beat(&Claim::of(target));
                let (keep, _) = best_single_keep(hand, goal);
                let (plan, _) = Planner::new(goal).best(hand, Counts::EMPTY);
                assert!(
                    plan >= keep - 1e-12,
                    "{i}: {hand} vs {target}: {plan} < {keep}"
                );
            }
        }
    }

    #[test]
    fn small_cases_by_hand() {
        // Holding AAAAK, to beat póker de ases con rey only a repóker does: roll the K (an A
        // makes repóker de ases); if it shows x, the four aces can still all turn to x.
        let goal = Goal::beat(&Claim::of(dice("AAAAK")));
        let mut p = Planner::new(goal);
        let (chance, step) = p.best(dice("AAAAK"), Counts::EMPTY);
        let exact = 1.0 / 6.0 + 5.0 / 6.0 * 6f64.powi(-4);
        assert!((chance - exact).abs() < 1e-12, "{chance} vs {exact}");
        assert_eq!(step, Step::Roll(Face::KING));
        let plan = p.plan(dice("AAAAK"), Counts::EMPTY).describe();
        assert!(
            plan.starts_with("roll a K: if it shows A, stop; if it shows K, roll an A"),
            "{plan}"
        );
        // Already above the goal: stop.
        let (chance, step) =
            Planner::new(Goal::reach(&Claim::of(dice("KKK87")))).best(dice("AAA87"), Counts::EMPTY);
        assert_eq!((chance, step), (1.0, Step::Stop));
    }
}
