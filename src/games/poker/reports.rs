//! The reports behind `tahur poker odds | reroll | chances | sheet`: exact figures only, each
//! answered in a few milliseconds (the sheet, which solves every goal, in well under a second).

use super::bots::{shipped_tuned, TunedRow};
use super::exact::{best_single_keep_from, roll_distribution, sub_multisets, Goal};
use super::hand::{ladder, Claim, Counts, Face, HandType, DICE, HANDS};
use super::tables::{code_of, plan, tables};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{self, Format, Report, Table, Value};

/// Ordered rolls of a multiset: k! / Π count!.
fn orderings(c: &Counts) -> u64 {
    let fact = |k: u64| (1..=k).product::<u64>();
    c.0.iter()
        .fold(fact(c.len() as u64), |acc, &k| acc / fact(k as u64))
}

/// "K Q J" style list of faces, or "none".
fn dice_words(c: &Counts) -> String {
    if c.is_empty() {
        "none".into()
    } else {
        c.to_string()
    }
}

/// The exact count of each hand type among the 6^k ordered rolls of `k` dice.
pub fn type_counts(k: usize) -> [u64; 7] {
    let mut out = [0u64; 7];
    for (roll, _) in roll_distribution(k) {
        out[HandType::of(&roll) as usize] += orderings(&roll);
    }
    out
}

/// `tahur poker odds --dice K`: the hand types of a roll of K dice.
pub fn odds_report(k: usize) -> Result<Report> {
    if !(1..=DICE).contains(&k) {
        return Err(Error::usage(format!(
            "invalid --dice {k}: a roll has 1 to {DICE} poker dice"
        )));
    }
    let counts = type_counts(k);
    let total = 6u64.pow(k as u32);
    let mut r = Report::new(format!(
        "Póker mentiroso · hand types of a roll of {k} {}",
        if k == 1 { "die" } else { "dice" }
    ));
    r.field("dice", "dice rolled", Value::Int(k as i64));
    r.field("rolls", "equally likely rolls", Value::Int(total as i64));
    let mut t = Table::new(
        "types",
        "Hand types, highest first",
        &[
            ("type", "hand"),
            ("english", "in English"),
            ("rolls", "rolls"),
            ("chance", "chance"),
            ("at_least", "this or better"),
            ("reading", "in words"),
        ],
    );
    let mut at_least = 0u64;
    for ty in HandType::ALL.iter().rev() {
        let n = counts[*ty as usize];
        at_least += n;
        let p = n as f64 / total as f64;
        let name = if *ty == HandType::Nothing && k < DICE {
            "todos distintos"
        } else {
            ty.name()
        };
        let english = if *ty == HandType::Nothing && k < DICE {
            "all different"
        } else {
            ty.english()
        };
        t.push(vec![
            Value::Label(name.into(), ty.key().into()),
            Value::Text(english.into()),
            Value::Int(n as i64),
            Value::Prob(p),
            Value::Prob(at_least as f64 / total as f64),
            Value::Text(humanize::odds(p)),
        ]);
    }
    r.tables.push(t);
    r.note(
        "Five different faces (nada) rank below a pair; there are no straights (docs/rules.md §4).",
    );
    Ok(r)
}

/// A re-roll question: the five dice, those already rolled this turn, and the goal.
#[derive(Clone, Debug, PartialEq)]
pub struct RerollQuery {
    /// The five dice.
    pub dice: Counts,
    /// Dice already rolled this turn (part of `dice`): they may not be rolled again.
    pub rolled: Counts,
    /// The claim accepted, to beat (strictly above), if given.
    pub beat: Option<Claim>,
    /// A claim to reach (at least it), if given; above `beat`.
    pub reach: Option<Claim>,
}

impl RerollQuery {
    /// Checks the query: five dice, rolled dice among them, a goal, and a claim to reach above
    /// the one to beat.
    pub fn new(
        dice: Counts,
        rolled: Counts,
        beat: Option<Claim>,
        reach: Option<Claim>,
    ) -> Result<Self> {
        if dice.len() != DICE {
            return Err(Error::usage(format!(
                "invalid --dice '{dice}': give all five dice, e.g. AAKQJ"
            )));
        }
        if !dice.contains(&rolled) {
            return Err(Error::usage(format!(
                "invalid --rolled '{rolled}': the dice already rolled must be among --dice '{dice}'"
            )));
        }
        if let (Some(b), Some(r)) = (beat, reach) {
            if r <= b {
                return Err(Error::usage(format!(
                    "invalid --reach '{}': it is not above the claim being beaten, '{}'; a claim you pass must beat the one you accepted",
                    r.spoken(),
                    b.spoken()
                )));
            }
        }
        if beat.is_none() && reach.is_none() {
            return Err(Error::usage(
                "give the claim to beat (--beat CLAIM) or to reach (--reach CLAIM)",
            ));
        }
        Ok(Self {
            dice,
            rolled,
            beat,
            reach,
        })
    }

    /// The goal: reach the claim to reach, else beat the claim to beat.
    pub fn goal(&self) -> Goal {
        match (self.reach, self.beat) {
            (Some(r), _) => Goal::reach(&r),
            (None, Some(b)) => Goal::beat(&b),
            (None, None) => unreachable!("checked in new"),
        }
    }

    /// The dice not yet rolled this turn.
    pub fn unrolled(&self) -> Counts {
        let mut u = self.dice;
        for f in Face::ALL {
            u.0[f.index()] -= self.rolled.count(f);
        }
        u
    }
}

/// The answer to a re-roll question.
#[derive(Clone, Debug, PartialEq)]
pub struct RerollAnswer {
    /// The chance with the optimal die-by-die plan.
    pub plan_chance: f64,
    /// The plan in words.
    pub plan: String,
    /// The best single keep's chance and the dice it holds.
    pub keep_chance: f64,
    /// The dice the best single keep holds.
    pub keep: Counts,
    /// Rolling every die still allowed once, together.
    pub roll_all: f64,
}

/// Solves a re-roll question (the goal's plan from the shared tables).
pub fn reroll(q: &RerollQuery) -> RerollAnswer {
    let need = match (q.reach, q.beat) {
        (Some(r), _) => r.rung(),
        (None, Some(b)) => b.rung() + 1,
        (None, None) => unreachable!("checked in new"),
    };
    let t = tables();
    let unrolled = q.unrolled();
    let node = plan(need).node(t, code_of(&unrolled), code_of(&q.rolled), 2);
    // The best single keep: hold the dice rolled and a part of the others, roll the rest once
    // (ties go to holding more).
    let (mut keep_chance, mut keep) = (-1.0, Counts::EMPTY);
    for k in sub_multisets(unrolled) {
        let held = k.plus(q.rolled);
        let p = t.reach(code_of(&held), need);
        if p > keep_chance || (p == keep_chance && held.len() > keep.len()) {
            (keep_chance, keep) = (p, held);
        }
    }
    let roll_all = t.reach(code_of(&q.rolled), need);
    RerollAnswer {
        plan_chance: node.chance,
        plan: node.summary(),
        keep_chance,
        keep,
        roll_all,
    }
}

/// `tahur poker reroll`.
pub fn reroll_report(q: &RerollQuery) -> Report {
    let a = reroll(q);
    let (verb, target) = match (q.reach, q.beat) {
        (Some(r), _) => ("reach", r),
        (None, Some(b)) => ("beat", b),
        (None, None) => unreachable!("checked in new"),
    };
    let mut r = Report::new(format!(
        "Póker mentiroso · re-roll {} to {verb} {}",
        q.dice,
        target.spoken()
    ));
    r.field("dice", "your dice", Value::Text(q.dice.to_string()));
    r.field(
        "rolled",
        "already rolled this turn",
        Value::Text(dice_words(&q.rolled)),
    );
    if let Some(b) = q.beat {
        r.field_plain(
            "beat",
            "claim to beat",
            Value::Text(b.dice().to_string()),
            b.spoken(),
        );
    }
    if let Some(x) = q.reach {
        r.field_plain(
            "reach",
            "claim to reach",
            Value::Text(x.dice().to_string()),
            x.spoken(),
        );
    }
    let now = Claim::of(q.dice);
    r.field_plain(
        "hand",
        "your hand now",
        Value::Text(q.dice.to_string()),
        format!(
            "{}{}",
            now.spoken(),
            if q.goal().met(&q.dice) {
                ": it already does, roll nothing"
            } else {
                ""
            }
        ),
    );
    r.field_plain(
        "plan_chance",
        "chance with the best plan (die by die)",
        Value::Prob(a.plan_chance),
        humanize::odds(a.plan_chance),
    );
    r.field("plan", "the plan", Value::Text(a.plan.clone()));
    let held = if a.keep == q.dice {
        "keep all five: roll nothing".to_string()
    } else if a.keep.is_empty() {
        "roll all five".to_string()
    } else {
        format!("keep {} and roll the rest once", a.keep)
    };
    r.field_plain(
        "keep_chance",
        "best single keep (one roll of the rest)",
        Value::Prob(a.keep_chance),
        held,
    );
    r.field("keep", "dice it keeps", Value::Text(dice_words(&a.keep)));
    r.field(
        "plan_gain",
        "the plan's gain over the best keep (points)",
        Value::RateDiff(a.plan_chance - a.keep_chance),
    );
    r.field(
        "roll_all_chance",
        "rolling every die still allowed once",
        Value::Prob(a.roll_all),
    );
    r.note("Each die is rolled at most once per turn; rolling one die at a time and deciding after each is never worse than rolling several together, so the plan rolls single dice.");
    r
}

/// A call question: the dice face up and the claim received.
#[derive(Clone, Debug, PartialEq)]
pub struct ChancesQuery {
    /// The dice lying face up.
    pub public: Counts,
    /// The claim received.
    pub claim: Claim,
    /// The table size, for the tuned bots' threshold.
    pub players: u8,
}

/// The receiver's side of a call, exactly: the chance the claim is true (the face-up dice and a
/// fresh roll of the hidden ones, as for a claimant who rolled them to reach it), and the chance
/// to beat it truthfully after accepting (looking at the dice, then the optimal plan).
pub fn chances(q: &ChancesQuery) -> (f64, f64) {
    let t = tables();
    let need_true = q.claim.rung();
    let p_true = t.reach(code_of(&q.public), need_true);
    let beat = plan(need_true + 1);
    let hidden = DICE - q.public.len();
    let total = 6f64.powi(hidden as i32);
    let pc = code_of(&q.public);
    let p_beat: f64 = t
        .codes_of_size(hidden)
        .iter()
        .map(|&h| {
            let n = orderings(&super::tables::counts_of(h)) as f64;
            n * beat.chance(t, pc + h, 0)
        })
        .sum::<f64>()
        / total;
    (p_true, p_beat)
}

/// `tahur poker chances`.
pub fn chances_report(q: &ChancesQuery) -> Result<Report> {
    if q.public.len() > DICE {
        return Err(Error::usage(format!(
            "invalid --public '{}': at most five dice lie face up",
            q.public
        )));
    }
    let (p_true, p_beat) = chances(q);
    let hidden = DICE - q.public.len();
    let mut r = Report::new(format!(
        "Póker mentiroso · {} received with {} face up",
        q.claim.spoken(),
        dice_words(&q.public)
    ));
    r.field_plain(
        "claim",
        "claim received",
        Value::Text(q.claim.dice().to_string()),
        q.claim.spoken(),
    );
    r.field("public", "dice face up", Value::Text(dice_words(&q.public)));
    r.field("hidden", "dice in the cup", Value::Int(hidden as i64));
    let count = tables().reach_count(code_of(&q.public), q.claim.rung());
    r.field_plain(
        "p_true",
        "P(claim is true)",
        Value::Prob(p_true),
        format!(
            "{}; {count} of {} rolls of the hidden dice",
            crate::humanize::exact_reading(p_true, count == 0, count == 6u32.pow(hidden as u32)),
            6u32.pow(hidden as u32)
        ),
    );
    r.field_plain(
        "p_call_wins",
        "P(a call wins): the claim is a lie",
        Value::Prob(1.0 - p_true),
        humanize::odds(1.0 - p_true),
    );
    r.field_plain(
        "p_beat",
        "P(you beat it truthfully if you accept)",
        Value::Prob(p_beat),
        humanize::odds(p_beat),
    );
    let row = tuned_row(q.players);
    let calls = q.claim.rung() == HANDS - 1 && p_true < 1.0 || p_true == 0.0 || p_true < row.call;
    let rule = if row.call == 0.0 {
        "they call only what the face-up dice rule out".to_string()
    } else {
        format!("they call below {}", humanize::percent(row.call))
    };
    r.field_plain(
        "tuned_call_below",
        &format!("the tuned bots' call threshold ({} players)", q.players),
        Value::Prob(row.call),
        format!(
            "{rule}: they would {} this claim",
            if calls { "call" } else { "accept" }
        ),
    );
    r.note("The hidden dice are counted as a fresh roll: what a claimant who rolled them in the cup to reach the claim holds. A claim is true when the five dice make at least the claimed hand; kickers left unsaid are the lowest.");
    if q.claim.rung() == HANDS - 1 {
        r.note("Nothing beats repóker de ases: accepting it costs the point, so call unless the face-up dice show it.");
    }
    Ok(r)
}

/// The tuned parameters for a table size (the nearest the shipped table has).
fn tuned_row(players: u8) -> TunedRow {
    shipped_tuned()
        .iter()
        .copied()
        .min_by_key(|r| ((r.players as i32 - players as i32).abs(), r.players))
        .unwrap_or(TunedRow {
            players,
            call: super::bots::DEFAULT_CALL,
            bluff: 0.0,
        })
}

/// The claim sheet: every claim on the ladder, with the chance it is true on a fresh roll, the
/// chance to beat it from the usual starting points, and which tables' tuned bots call it.
pub fn sheet_report() -> Report {
    let t = tables();
    let tuned = shipped_tuned();
    let mut r = Report::new("Póker mentiroso · every claim on the ladder, from the lowest");
    r.field("claims", "claims", Value::Int(HANDS as i64));
    let sizes: Vec<String> = tuned
        .iter()
        .map(|row| {
            if row.call == 0.0 {
                format!(
                    "{} players: only what the face-up dice rule out",
                    row.players
                )
            } else {
                format!(
                    "{} players: below {}",
                    row.players,
                    humanize::percent(row.call)
                )
            }
        })
        .collect();
    r.field(
        "tuned_call_thresholds",
        "the tuned bots call a claim whose P(true) given the face-up dice is",
        Value::Text(sizes.join("; ")),
    );
    let mut table = Table::new(
        "ladder",
        "Every claim: how likely it is and how hard to beat",
        &[
            ("rung", "rung"),
            ("claim", "claim"),
            ("dice", "dice"),
            ("type", "type"),
            ("p_true", "P(true), 5 hidden dice"),
            ("beat_holding", "beat it holding it"),
            ("beat_holding_keep", "…with one keep"),
            ("beat_fresh", "beat it from 5 unseen dice"),
            ("tuned_calls", "tuned bots call it (none face up)"),
        ],
    );
    let fresh = roll_distribution(DICE);
    for (rung, &(dice, value)) in ladder().iter().enumerate() {
        let claim = Claim::of(dice);
        let p_true = t.reach(0, rung);
        let beat = plan(rung + 1);
        let holding = beat.chance(t, code_of(&dice), 0);
        let (keep, _) = best_single_keep_from(dice, Counts::EMPTY, Goal::beat(&claim));
        let from_fresh: f64 = fresh
            .iter()
            .map(|(h, p)| p * beat.chance(t, code_of(h), 0))
            .sum();
        let calls: Vec<String> = tuned
            .iter()
            .filter(|row| p_true < row.call || rung == HANDS - 1)
            .map(|row| row.players.to_string())
            .collect();
        table.push(vec![
            Value::Int(rung as i64),
            Value::Text(claim.spoken()),
            Value::Text(dice.to_string()),
            Value::Label(
                value.hand_type().name().into(),
                value.hand_type().key().into(),
            ),
            Value::Prob(p_true),
            Value::Prob(holding),
            Value::Prob(keep.max(0.0)),
            Value::Prob(from_fresh),
            Value::Text(if calls.is_empty() {
                "never".into()
            } else {
                format!("at {} players", calls.join(", "))
            }),
        ]);
    }
    r.tables.push(table);
    r.note("P(true), 5 hidden dice: a fresh roll of five makes at least the claim. Beat it holding it: the receiver holds exactly the claimed dice and rolls by the optimal die-by-die plan to pass something strictly higher; …with one keep: the best single keep of the same dice instead. Beat it from 5 unseen dice: the claim was made on a fresh cup, the receiver looks and plays the optimal plan.");
    if tuned.iter().any(|row| row.call == 0.0) {
        r.note("Why the tuned bots call only what the face-up dice rule out: against the field they are tuned with (`honest`, `threshold` bluffing or not, and `search`), every claim received below 10 % given the face-up dice was true, and those between 10 % and 40 % mostly true, while accepting them lost fewer hands than calling; the lies sit higher, mixed with truths. The calls table of data/poker/tuned.md has the figures; only a bot that reckons the claimant's dice (`search`) catches the bluffs.");
    }
    r.note("Regenerate with `cargo run --release -- poker sheet --out-dir data/poker` (a test fails when these files are stale).");
    r
}

/// The sheet files: `sheet.csv` and `sheet.md`, as (file name, content).
pub fn sheet_files() -> Result<Vec<(String, String)>> {
    let rep = sheet_report();
    Ok(vec![
        ("sheet.csv".into(), report::sheet_csv(&rep)?),
        (
            "sheet.md".into(),
            report::render(&rep, Format::Markdown)? + "\n",
        ),
    ])
}
