//! `tahur durak flags`: how every house rule moves the figures. The given table is played
//! against each single change of one rule (the variant, transfers by showing a trump, teams,
//! the dealer's trump, the last cards, five before the first discard, re-deals, the 52-card
//! deck), every change on the same deals as the table itself (common random numbers, as in
//! [`super::compare`]), and the report says for each change how the first attacker's edge, the
//! draw rate and the game length move, with paired intervals and tests, and which table is the
//! fairest to the first attacker.

use serde::{Deserialize, Serialize};

use super::compare::{paired_bouts, paired_edge, CompareSetup, CompareSimulation, CompareTally};
use super::engine::Start;
use super::rules::{LastCards, Rules, Teams, Variant};
use super::sim::{
    fair_rate, first_attacker_edge, game_streams, wilson, DurakSimulation, GameTally, TableSetup,
};
use crate::error::{Error, Result};
use crate::games::dudo::compare::{paired_proportions, PairedDifference};
use crate::report::chart::{Bar, BarChart};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};

/// The table and its one-rule changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlagsSetup {
    /// The table as given.
    pub base: TableSetup,
    /// Each change of one rule.
    pub changes: Vec<Change>,
}

/// A change of one rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// As `tahur durak compare --b` writes it, e.g. `variant=perevodnoy`.
    pub name: String,
    /// A few words for chart labels, e.g. `perevodnoy`.
    pub label: String,
    /// The changed table.
    pub table: TableSetup,
}

/// Every one-rule change that means something for `rules`: its name as `tahur durak compare
/// --b` writes it, a short label, and the changed rules. Changes that would not change the
/// game are left out (show-trump transfers outside perevodnoy, re-deals of hands under five
/// cards, a dealer's trump when the hands take the whole deck anyway) and so are tables the
/// rules refuse.
pub fn one_rule_changes(rules: &Rules) -> Vec<(String, String, Rules)> {
    let mut v: Vec<(String, String, Rules)> = Vec::new();
    // The switch's new value, and the label for it being on or off.
    let flip = |now: bool, on: &str, off: &str| {
        if now {
            ("off", off.to_string())
        } else {
            ("on", on.to_string())
        }
    };
    for variant in [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy] {
        if variant != rules.variant {
            let mut r = *rules;
            let (old, new) = (
                Rules::standard(rules.variant, rules.players),
                Rules::standard(variant, rules.players),
            );
            if (r.deck, r.hand) == (old.deck, old.hand) {
                (r.deck, r.hand) = (new.deck, new.hand);
            }
            r.variant = variant;
            r.show_trump_transfer = false;
            v.push((format!("variant={variant}"), variant.to_string(), r));
        }
    }
    if rules.variant == Variant::Perevodnoy {
        let mut r = *rules;
        r.show_trump_transfer = !r.show_trump_transfer;
        let (value, label) = flip(rules.show_trump_transfer, "show trump", "no show trump");
        v.push((format!("show-trump-transfer={value}"), label, r));
    }
    let teams: &[Teams] = match (rules.players, rules.teams) {
        (_, t) if t != Teams::None => &[Teams::None],
        (4, _) => &[Teams::TwoByTwo],
        (6, _) => &[Teams::ThreeByThree, Teams::TwoByTwoByTwo],
        _ => &[],
    };
    for &t in teams {
        let mut r = *rules;
        r.teams = t;
        let label = if t == Teams::None {
            "no teams".to_string()
        } else {
            format!("teams {t}")
        };
        v.push((format!("teams={t}"), label, r));
    }
    if rules.players as u32 * rules.hand as u32 != rules.deck as u32 {
        let mut r = *rules;
        r.dealer_trump = !r.dealer_trump;
        let (value, label) = flip(rules.dealer_trump, "dealer's trump", "turned trump");
        v.push((format!("dealer-trump={value}"), label, r));
    }
    let mut r = *rules;
    r.last_cards = match rules.last_cards {
        LastCards::Draw => LastCards::Defender,
        LastCards::Defender => LastCards::Draw,
    };
    let name = match r.last_cards {
        LastCards::Draw => "draw",
        LastCards::Defender => "defender",
    };
    v.push((format!("last-cards={name}"), format!("last: {name}"), r));
    let mut r = *rules;
    r.five_before_discard = !r.five_before_discard;
    let (value, label) = flip(
        rules.five_before_discard,
        "5 until discard",
        "6 from the start",
    );
    v.push((format!("five-before-discard={value}"), label, r));
    if rules.hand >= 5 {
        let mut r = *rules;
        r.redeal = !r.redeal;
        let (value, label) = flip(rules.redeal, "re-deal", "no re-deal");
        v.push((format!("redeal={value}"), label, r));
    }
    let (deck, hand) = if rules.deck == 36 { (52, 7) } else { (36, 6) };
    if (rules.deck, rules.hand) == (36, 6) || rules.deck == 52 {
        let mut r = *rules;
        (r.deck, r.hand) = (deck, hand);
        v.push((
            format!("deck={deck},hand={hand}"),
            format!("{deck} cards, {hand} each"),
            r,
        ));
    }
    v.retain(|(_, _, r)| r.validate().is_ok());
    v
}

impl FlagsSetup {
    /// The table and every one-rule change of it ([`one_rule_changes`]), with the same
    /// strategies. Series are not supported: every game is a first game.
    pub fn new(base: TableSetup) -> Result<Self> {
        if base.series != 1 {
            return Err(Error::usage(
                "flags plays independent games: drop --series (compare takes it)",
            ));
        }
        let changes = one_rule_changes(&base.rules)
            .into_iter()
            .map(|(name, label, rules)| {
                let table = TableSetup::new(rules, &base.strategies, base.check)?;
                Ok(Change { name, label, table })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { base, changes })
    }

    /// Games per chunk (small when some seat searches).
    pub fn chunk_size(&self) -> u64 {
        self.base.chunk_size()
    }

    /// The comparison of the table (A) with change `k` (B).
    pub fn comparison(&self, k: usize) -> CompareSetup {
        CompareSetup {
            a: self.base.clone(),
            b: self.changes[k].table.clone(),
            names: ["the given table".into(), self.changes[k].name.clone()],
            detect: None,
        }
    }
}

/// One paired tally per change (A: the table, B: the change).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagsTally {
    /// Per change, in the order of [`FlagsSetup::changes`].
    pub changes: Vec<CompareTally>,
}

impl Tally for FlagsTally {
    fn absorb(&mut self, o: &Self) {
        if self.changes.len() < o.changes.len() {
            self.changes
                .resize(o.changes.len(), CompareTally::default());
        }
        for (a, b) in self.changes.iter_mut().zip(&o.changes) {
            a.absorb(b);
        }
    }
}

/// The simulation: every game of the table once, and each change's game on the same seeds.
pub struct FlagsSimulation {
    base: DurakSimulation,
    pairs: Vec<CompareSimulation>,
    chunk: u64,
}

impl FlagsSimulation {
    /// The simulation of a setup.
    pub fn new(setup: &FlagsSetup) -> Self {
        Self {
            base: DurakSimulation::new(&setup.base),
            pairs: (0..setup.changes.len())
                .map(|k| CompareSimulation::new(&setup.comparison(k)))
                .collect(),
            chunk: setup.chunk_size(),
        }
    }
}

impl Simulation for FlagsSimulation {
    type Tally = FlagsTally;
    fn chunk_size(&self) -> u64 {
        self.chunk
    }
    fn empty_tally(&self) -> FlagsTally {
        FlagsTally {
            changes: self.pairs.iter().map(|p| p.empty_tally()).collect(),
        }
    }
    fn run_chunk(&self, stream: &mut Stream, games: u64, t: &mut FlagsTally) {
        let mut base_bots = self.base.bots();
        let mut bots: Vec<_> = self.pairs.iter().map(|p| p.b().bots()).collect();
        for _ in 0..games {
            let (deal, decisions) = game_streams(stream);
            // The table's game is played once and counted as A in every comparison.
            let base = self.base.play_only(
                &mut base_bots,
                Start::default(),
                &mut deal.clone(),
                &mut decisions.clone(),
            );
            for (k, pair) in self.pairs.iter().enumerate() {
                let tally = &mut t.changes[k];
                let changed = pair.b().play_only(
                    &mut bots[k],
                    Start::default(),
                    &mut deal.clone(),
                    &mut decisions.clone(),
                );
                self.base.record_result(&base, false, &mut tally.a);
                pair.b().record_result(&changed, false, &mut tally.b);
                if let (Ok(a), Ok(b)) = (&base, &changed) {
                    pair.record_pair(a, b, tally);
                }
            }
        }
    }
}

/// The first attacker's durak rate as a share of the fair share, with the Wilson interval of
/// the rate over the fair share (1: fair; below 1: the first attacker loses less).
fn share_of_fair(rules: &Rules, t: &GameTally) -> (f64, f64, f64) {
    let fair = fair_rate(rules, t);
    if fair == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let (p, lo, hi) = wilson(t.first_attacker_durak, t.games);
    (p.estimate() / fair, lo / fair, hi / fair)
}

/// Change − table (the paired tallies hold table − change).
fn flipped(d: PairedDifference) -> (f64, f64, f64, f64) {
    (-d.difference, -d.interval.high, -d.interval.low, d.p_value)
}

/// The report.
pub fn report(setup: &FlagsSetup, t: &FlagsTally, run: &RunSummary) -> Report {
    let mut r = Report::new(format!("Durak house rules · {}", setup.base.describe()));
    let games = t.changes.first().map_or(0, |c| c.a.games);
    r.run_size("games", "games of each table", games, run);
    r.field("table", "table", Value::Text(setup.base.describe()));
    let Some(first) = t.changes.first() else {
        r.note("No house rule applies to this table.");
        return r;
    };
    r.field(
        "edge",
        "first attacker's edge (points under the fair share)",
        Value::Num(100.0 * first_attacker_edge(&setup.base.rules, &first.a), 2),
    );
    let mut table = Table::new(
        "changes",
        "Each house rule against the table (paired, the same deals)",
        &[
            ("change", "change"),
            ("first_attacker_durak", "first attacker durak"),
            ("fair_share", "fair share"),
            ("edge", "edge (points)"),
            ("edge_change", "edge change"),
            ("edge_ci95", "95 % interval"),
            ("edge_p_value", "p-value"),
            ("draw_rate", "draw rate"),
            ("draw_change", "draw change (points)"),
            ("draw_p_value", "p-value"),
            ("bouts", "bouts per game"),
            ("bouts_change", "bouts change"),
            ("bouts_p_value", "p-value"),
        ],
    );
    table.top_level = true;
    // One row per table; a change's row has its paired edge against the table.
    let row = |name: String,
               g: &GameTally,
               rules: &Rules,
               c: Option<(PairedDifference, &CompareTally)>| {
        let fair = fair_rate(rules, g);
        let edge = first_attacker_edge(rules, g);
        let draw = g.draws as f64 / g.games.max(1) as f64;
        let mut cells = vec![
            Value::Text(name),
            Value::Prob(fair - edge),
            Value::Prob(fair),
            Value::Num(100.0 * edge, 2),
        ];
        match c {
            Some((edge_change, ct)) => {
                let (d, lo, hi, p) = flipped(edge_change);
                cells.extend([
                    Value::Num(d, 2),
                    Value::NumInterval(lo, hi, 2),
                    Value::PValue(p),
                ]);
                cells.push(Value::Prob(draw));
                let (d, _, _, p) = flipped(paired_proportions(&ct.draws, ct.pairs));
                cells.extend([Value::Num(100.0 * d, 2), Value::PValue(p)]);
                let bouts = paired_bouts(ct);
                cells.push(Value::Num(bouts.b, 2));
                let (d, _, _, p) = flipped(bouts);
                cells.extend([Value::Num(d, 2), Value::PValue(p)]);
            }
            None => {
                cells.extend([Value::Empty, Value::Empty, Value::Empty]);
                cells.push(Value::Prob(draw));
                cells.extend([Value::Empty, Value::Empty]);
                cells.push(Value::Num(super::sim::length_estimate(g).mean, 2));
                cells.extend([Value::Empty, Value::Empty]);
            }
        }
        cells
    };
    table.push(row(
        "(the table as given)".into(),
        &first.a,
        &setup.base.rules,
        None,
    ));
    // The fairest table: among the changes that move the first attacker's edge (p < 0.05)
    // and bring their durak rate nearer its fair share, the nearest, as a ratio (points would
    // favour tables with smaller fair shares, such as those without teams).
    let base_share = share_of_fair(&setup.base.rules, &first.a).0;
    let off = |share: f64| (share - 1.0).abs();
    let mut fairest: Option<(String, f64)> = None;
    for (k, change) in setup.changes.iter().enumerate() {
        let ct = &t.changes[k];
        let edge = paired_edge(&setup.comparison(k), ct);
        let share = share_of_fair(&change.table.rules, &ct.b).0;
        if edge.p_value < 0.05
            && off(share) < off(base_share)
            && fairest
                .as_ref()
                .is_none_or(|(_, best)| off(share) < off(*best))
        {
            fairest = Some((change.name.clone(), share));
        }
        table.push(row(
            change.name.clone(),
            &ct.b,
            &change.table.rules,
            Some((edge, ct)),
        ));
    }
    r.tables.push(table);
    let (name, reading) = match fairest {
        Some((name, share)) => (
            name,
            format!(
                "the first attacker is the durak at {:.0} % of a fair share there, {:.0} % in the table as given",
                100.0 * share,
                100.0 * base_share
            ),
        ),
        None => (
            "the table as given".to_string(),
            format!(
                "no change is shown (p < 0.05) to bring the first attacker nearer their fair share (here they are the durak at {:.0} % of it)",
                100.0 * base_share
            ),
        ),
    };
    r.field_plain(
        "fairest",
        "fairest to the first attacker",
        Value::Text(name),
        reading,
    );
    r.note(
        "Edge: the fair share (games with a durak over the sides that can lose) less the first \
         attacker's durak rate, in percentage points; positive means the first attacker is the \
         durak less often than a fair share. Changes are the changed table less the given one, \
         paired game by game on the same deals and decisions.",
    );
    let dropped: u64 = t
        .changes
        .iter()
        .map(|c| c.b.violations + c.b.illegal_actions)
        .sum::<u64>()
        + first.a.violations
        + first.a.illegal_actions;
    if dropped > 0 {
        r.note(format!(
            "{dropped} games broke a rule and were dropped with their pair: this is a bug, please report it."
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}

/// The first attacker's durak rate as a share of the fair share, for the table and every
/// change, with 95 % intervals (100 %: fair).
pub fn chart(setup: &FlagsSetup, t: &FlagsTally) -> BarChart {
    let mut bars = Vec::new();
    if let Some(first) = t.changes.first() {
        let (value, low, high) = share_of_fair(&setup.base.rules, &first.a);
        bars.push(Bar {
            label: "as given".into(),
            value,
            low,
            high,
        });
    }
    for (change, ct) in setup.changes.iter().zip(&t.changes) {
        let (value, low, high) = share_of_fair(&change.table.rules, &ct.b);
        bars.push(Bar {
            label: change.label.clone(),
            value,
            low,
            high,
        });
    }
    BarChart {
        title: format!(
            "First attacker's durak rate / fair share · {}",
            setup.base.describe()
        ),
        y_label: "share of the fair share".into(),
        y_percent: true,
        bars,
        reference: Some(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::durak::bots::Strategy;

    #[test]
    fn changes_are_the_meaningful_ones() {
        let names = |rules: Rules| -> Vec<String> {
            one_rule_changes(&rules)
                .into_iter()
                .map(|(n, _, _)| n)
                .collect()
        };
        assert_eq!(
            names(Rules::standard(Variant::Podkidnoy, 4)),
            [
                "variant=perevodnoy",
                "variant=platkowy",
                "teams=2x2",
                "dealer-trump=on",
                "last-cards=defender",
                "five-before-discard=on",
                "redeal=off",
                "deck=52,hand=7",
            ]
        );
        // Six players hold the whole 36-card deck: the dealer's card shows the trump anyway,
        // and 6 × 7 cards do not fit 36; both team splits apply.
        let six = names(Rules::standard(Variant::Perevodnoy, 6));
        assert!(six.contains(&"show-trump-transfer=on".to_string()));
        assert!(six.contains(&"teams=3x3".to_string()) && six.contains(&"teams=2x2x2".to_string()));
        assert!(!six.iter().any(|n| n.starts_with("dealer-trump")));
        assert!(six.contains(&"deck=52,hand=7".to_string()));
        // Platkowy's 5 cards from 52: podkidnoy and perevodnoy go back to 36 and 6.
        let p = one_rule_changes(&Rules::standard(Variant::Platkowy, 3));
        let (_, _, to_pod) = p.iter().find(|(n, _, _)| n == "variant=podkidnoy").unwrap();
        assert_eq!((to_pod.deck, to_pod.hand), (36, 6));
        for (name, _, r) in &p {
            assert_ne!(
                r,
                &Rules::standard(Variant::Platkowy, 3),
                "{name} changes nothing"
            );
        }
    }

    #[test]
    fn every_change_is_paired_exactly_as_compare_pairs_it() {
        let base = TableSetup::new(
            Rules::standard(Variant::Podkidnoy, 3),
            &[Strategy::Greedy, Strategy::Random],
            true,
        )
        .unwrap();
        let setup = FlagsSetup::new(base).unwrap();
        let sim = FlagsSimulation::new(&setup);
        let mut t = sim.empty_tally();
        sim.run_chunk(&mut crate::rng::base_stream(4), 300, &mut t);
        for k in 0..setup.changes.len() {
            let compare = CompareSimulation::new(&setup.comparison(k));
            let mut c = compare.empty_tally();
            compare.run_chunk(&mut crate::rng::base_stream(4), 300, &mut c);
            assert_eq!(t.changes[k], c, "{}", setup.changes[k].name);
            assert_eq!(c.pairs, 300);
            assert_eq!(c.a.violations + c.b.violations, 0);
            // The paired edge difference is the difference of the two edges.
            let e = paired_edge(&setup.comparison(k), &c);
            assert!((e.a - e.b - e.difference).abs() < 1e-9, "{e:?}");
        }
        let summary = RunSummary {
            spec: crate::runner::RunSpec {
                samples: 300,
                seed: 4,
                chunk_size: setup.chunk_size(),
            },
            samples_done: 300,
            interrupted: false,
            missing: None,
        };
        let rep = report(&setup, &t, &summary);
        assert!(rep.fields.iter().any(|f| f.key == "fairest"));
    }
}
