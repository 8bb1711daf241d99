//! `flags`: how every house rule moves the figures. The given table is played against each
//! change of one rule ([`GameRules::one_rule_changes`]), every change on the same deals as the
//! table itself (common random numbers, as in [`super::compare`]), and the report says for each
//! change how the game's fairness figure moves — the first player's edge, or for scored games
//! the game's first compared counter (21: the bank's result) — with draws, length and the other
//! compared counters of a game with an event (Dominó: blocked games), paired,
//! and which table is the fairest, named only when the change is shown (p < 0.05).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::compare::{
    paired_counter, paired_edge, paired_length, CompareSetup, CompareSimulation, CompareTally,
};
use super::sim::{fair_rate, first_player_edge, for_each_game, GameSimulation, SimTally};
use super::table::TableSetup;
use super::{game_streams, scored, Game, GameRules, Strategy};
use crate::error::{Error, Result};
use crate::report::chart::{Chart, Dot, DotChart, RefLine, Unit};
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{paired_proportions, wilson95, PairedDifference};

/// The table and its one-rule changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct FlagsSetup<G: Game, S = <G as Game>::Strategy> {
    /// The table as given.
    pub base: TableSetup<G, S>,
    /// Each change of one rule.
    pub changes: Vec<Change<G, S>>,
}

/// A change of one rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct Change<G: Game, S = <G as Game>::Strategy> {
    /// As `compare --b` writes it, e.g. `variant=perevodnoy`.
    pub name: String,
    /// A few words for chart labels, e.g. `perevodnoy`.
    pub label: String,
    /// The changed table.
    pub table: TableSetup<G, S>,
}

impl<G: Game, S: Strategy<G>> FlagsSetup<G, S> {
    /// The table and every one-rule change of it, with the same strategies. Series are not
    /// supported: every game is a first game.
    pub fn new(base: TableSetup<G, S>) -> Result<Self> {
        if base.series != 1 {
            return Err(Error::usage(
                "flags plays independent games: drop --series (compare takes it)",
            ));
        }
        let changes = base
            .rules
            .one_rule_changes()
            .into_iter()
            .map(|c| {
                let table = TableSetup::new(c.rules, &base.strategies, base.check)?;
                Ok(Change {
                    name: c.name,
                    label: c.label,
                    table,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { base, changes })
    }

    /// Samples per chunk (small when some seat searches).
    pub fn chunk_size(&self) -> u64 {
        self.base.chunk_size()
    }

    /// The comparison of the table (A) with change `k` (B).
    pub fn comparison(&self, k: usize) -> CompareSetup<G, S> {
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
        super::sim::absorb_all(&mut self.changes, &o.changes, CompareTally::absorb);
    }
}

/// The simulation: every game of the table once, and each change's game on the same seeds.
pub struct FlagsSimulation<G: Game, S: Strategy<G> = <G as Game>::Strategy> {
    base: GameSimulation<G, S>,
    pairs: Vec<CompareSimulation<G, S>>,
    chunk: u64,
}

impl<G: Game, S: Strategy<G>> FlagsSimulation<G, S> {
    /// The simulation of a setup.
    pub fn new(setup: &FlagsSetup<G, S>) -> Self {
        Self {
            base: GameSimulation::new(&setup.base),
            pairs: (0..setup.changes.len())
                .map(|k| CompareSimulation::new(&setup.comparison(k)))
                .collect(),
            chunk: setup.chunk_size(),
        }
    }
}

impl<G: Game, S: Strategy<G>> Simulation for FlagsSimulation<G, S> {
    type Tally = FlagsTally;
    fn chunk_size(&self) -> u64 {
        self.chunk
    }
    fn empty_tally(&self) -> FlagsTally {
        FlagsTally {
            changes: self.pairs.iter().map(|p| p.empty_tally()).collect(),
        }
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut FlagsTally) {
        let mut base_bots = self.base.bots();
        let mut bots: Vec<_> = self.pairs.iter().map(|p| p.b().bots()).collect();
        for_each_game::<G>(samples, |_, start| {
            let (deal, decisions) = game_streams(stream);
            // The table's game is played once and counted as A in every comparison.
            let base = self.base.play_only(
                &mut base_bots,
                &start,
                &mut deal.clone(),
                &mut decisions.clone(),
            );
            for (k, pair) in self.pairs.iter().enumerate() {
                let tally = &mut t.changes[k];
                let changed = pair.b().play_only(
                    &mut bots[k],
                    &start,
                    &mut deal.clone(),
                    &mut decisions.clone(),
                );
                self.base.record_result(&base, None, &mut tally.a);
                pair.b().record_result(&changed, None, &mut tally.b);
                if let (Ok(a), Ok(b)) = (&base, &changed) {
                    pair.record_pair(a, b, tally);
                }
            }
        });
    }
}

/// The first player's rate as a share of the fair share, with the Wilson interval of the rate
/// over the fair share (1: fair).
pub fn share_of_fair<G: Game>(rules: &G::Rules, t: &SimTally) -> (f64, f64, f64) {
    let fair = fair_rate::<G>(rules, t);
    if fair == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let (p, ci) = wilson95(t.first.sum.max(0) as u64, t.games);
    (p.estimate() / fair, ci.low / fair, ci.high / fair)
}

/// Change − table (the paired tallies hold table − change); no change reads 0, not −0.
fn flipped(d: PairedDifference) -> (f64, f64, f64, f64) {
    let neg = |x: f64| 0.0 - x;
    (
        neg(d.difference),
        neg(d.interval.high),
        neg(d.interval.low),
        d.p_value,
    )
}

/// The report.
pub fn report<G: Game, S: Strategy<G>>(
    setup: &FlagsSetup<G, S>,
    t: &FlagsTally,
    run: &RunSummary,
) -> Report {
    let info = &G::INFO;
    let mut r = Report::new(format!(
        "{} house rules · {}",
        info.title,
        setup.base.describe()
    ));
    let done = t.changes.first().map_or(0, |c| {
        if info.sitting {
            c.a.length.sum.max(0) as u64
        } else {
            c.a.games
        }
    });
    r.run_size(
        info.sample_unit,
        &format!("{} of each table", info.sample_unit),
        done,
        run,
    );
    r.field("table", "table", Value::Text(setup.base.describe()));
    let Some(first) = t.changes.first() else {
        r.note("No house rule applies to this table.");
        return r;
    };
    if scored::<G>() {
        counter_table(&mut r, setup, t, first);
    } else {
        edge_table(&mut r, setup, t, first);
    }
    let dropped: u64 = t
        .changes
        .iter()
        .map(|c| c.b.violations + c.b.illegal_actions)
        .sum::<u64>()
        + first.a.violations
        + first.a.illegal_actions;
    for n in setup.base.strategy_notes() {
        r.note(n);
    }
    super::sim::closing_notes(&mut r, dropped, true, run);
    r
}

/// Games with an event: each table's first-player rate, edge and its paired change, draws and
/// length; the fairest to the first player.
fn edge_table<G: Game, S: Strategy<G>>(
    r: &mut Report,
    setup: &FlagsSetup<G, S>,
    t: &FlagsTally,
    first: &CompareTally,
) {
    let info = &G::INFO;
    let w = &info.words;
    r.field(
        "edge",
        &format!("{}'s edge (points better than fair)", w.first_player),
        Value::RateDiff(first_player_edge::<G>(&setup.base.rules, &first.a)),
    );
    let rate_label = format!("{} {}", w.first_player, w.event);
    let length_label = format!("{} per game", w.length_unit);
    let mut columns: Vec<(&str, &str)> = vec![
        ("change", "change"),
        ("first_player_rate", &rate_label),
        ("fair_share", "fair share"),
        ("edge", "edge (points)"),
        ("edge_change", "edge change"),
        ("edge_ci95", "95 % interval"),
        ("edge_p_value", "p-value"),
    ];
    if info.draws {
        columns.extend([
            ("draw_rate", "draw rate"),
            ("draw_change", "draw change (points)"),
            ("draw_p_value", "p-value"),
        ]);
    }
    columns.extend([
        ("length", length_label.as_str()),
        ("length_change", "length change"),
        ("length_p_value", "p-value"),
    ]);
    // A game with an event may also compare counters of its own (per game, paired).
    let compared_keys: Vec<[String; 3]> = info
        .compared
        .iter()
        .map(|c| {
            let key = c.label.replace(['\'', ' '], "_").replace("__", "_");
            [
                key.clone(),
                format!("{key}_change"),
                format!("{key}_p_value"),
            ]
        })
        .collect();
    let compared_labels: Vec<String> = info.compared.iter().map(|c| c.label.to_string()).collect();
    for (keys, label) in compared_keys.iter().zip(&compared_labels) {
        columns.extend([
            (keys[0].as_str(), label.as_str()),
            (keys[1].as_str(), "change"),
            (keys[2].as_str(), "p-value"),
        ]);
    }
    let mut table = Table::new(
        "changes",
        "Each house rule against the table (paired, the same deals)",
        &columns,
    );
    table.top_level = true;
    // One row per table; a change's row has its paired edge against the table.
    let row = |name: Value,
               g: &SimTally,
               rules: &G::Rules,
               c: Option<(PairedDifference, &CompareTally)>| {
        let fair = fair_rate::<G>(rules, g);
        let edge = first_player_edge::<G>(rules, g);
        // The first player's rate, as the fair share and the edge give it.
        let rate = if super::sim::good::<G>() {
            fair + edge
        } else {
            fair - edge
        };
        let draw = g.draws as f64 / g.games.max(1) as f64;
        let mut cells = vec![
            name,
            Value::Prob(rate),
            Value::Prob(fair),
            Value::RateDiff(edge),
        ];
        match c {
            Some((edge_change, ct)) => {
                // The paired edge is computed in percentage points: a fraction for machines.
                let (d, lo, hi, p) = flipped(edge_change);
                cells.extend([
                    Value::RateDiff(d / 100.0),
                    Value::RateDiffInterval(lo / 100.0, hi / 100.0),
                    Value::PValue(p),
                ]);
                if info.draws {
                    cells.push(Value::Prob(draw));
                    let (d, _, _, p) = flipped(paired_proportions(&ct.draws, ct.pairs));
                    cells.extend([Value::RateDiff(d), Value::PValue(p)]);
                }
                let length = paired_length(ct);
                cells.push(Value::Num(length.b, 2));
                let (d, _, _, p) = flipped(length);
                cells.extend([Value::Num(d, 2), Value::PValue(p)]);
                for k in 0..info.compared.len() {
                    let c = paired_counter::<G>(ct, k);
                    cells.push(Value::Num(c.b, 4));
                    let (d, _, _, p) = flipped(c);
                    cells.extend([Value::Num(d, 4), Value::PValue(p)]);
                }
            }
            None => {
                cells.extend([Value::Empty, Value::Empty, Value::Empty]);
                if info.draws {
                    cells.push(Value::Prob(draw));
                    cells.extend([Value::Empty, Value::Empty]);
                }
                cells.push(Value::Num(g.length_estimate().mean, 2));
                cells.extend([Value::Empty, Value::Empty]);
                for k in 0..info.compared.len() {
                    let c = G::INFO.compared[k].counter;
                    cells.push(Value::Num(g.counter(c) as f64 / g.games.max(1) as f64, 4));
                    cells.extend([Value::Empty, Value::Empty]);
                }
            }
        }
        cells
    };
    table.push(row(
        Value::Text("(the table as given)".into()),
        &first.a,
        &setup.base.rules,
        None,
    ));
    // The fairest table: among the changes that move the first player's edge (p < 0.05) and
    // bring their rate nearer its fair share, the nearest, as a ratio (points would favour
    // tables with smaller fair shares, such as those without teams).
    let base_share = share_of_fair::<G>(&setup.base.rules, &first.a).0;
    let off = |share: f64| (share - 1.0).abs();
    let mut fairest: Option<(String, f64)> = None;
    for (k, change) in setup.changes.iter().enumerate() {
        let ct = &t.changes[k];
        let edge = paired_edge(&setup.comparison(k), ct);
        let share = share_of_fair::<G>(&change.table.rules, &ct.b).0;
        if edge.p_value < 0.05
            && off(share) < off(base_share)
            && fairest
                .as_ref()
                .is_none_or(|(_, best)| off(share) < off(*best))
        {
            fairest = Some((change.name.clone(), share));
        }
        table.push(row(
            change_value(change),
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
                "the {} {} at {:.0} % of a fair share there, {:.0} % in the table as given",
                w.first_player,
                w.phrase,
                100.0 * share,
                100.0 * base_share
            ),
        ),
        None => (
            "the table as given".to_string(),
            format!(
                "no change is shown (p < 0.05) to bring the {} nearer their fair share (here they are at {:.0} % of it)",
                w.first_player,
                100.0 * base_share
            ),
        ),
    };
    r.field_plain(
        "fairest",
        &format!("fairest to the {}", w.first_player),
        Value::Text(name),
        reading,
    );
    r.note(format!(
        "Edge: how much better than the fair share (the games with a result over the sides that can {}) the {} does, in percentage points; positive is an advantage. Changes are the changed table less the given one, paired game by game on the same deals and decisions.",
        if super::sim::good::<G>() { "win" } else { "lose" },
        w.first_player
    ));
}

/// Scored games (21): each table's compared counters per step and their paired changes; the
/// fairest is the table whose first counter (the bank's result) is nearest zero.
fn counter_table<G: Game, S: Strategy<G>>(
    r: &mut Report,
    setup: &FlagsSetup<G, S>,
    t: &FlagsTally,
    first: &CompareTally,
) {
    let info = &G::INFO;
    let unit = crate::text::singular(info.words.length_unit);
    let mut labels: Vec<(String, String)> = vec![("change".into(), "change".into())];
    for (k, c) in info.compared.iter().enumerate() {
        labels.push((format!("c{k}"), format!("{} per {unit}", c.label)));
        labels.push((format!("c{k}_change"), "change".into()));
        labels.push((format!("c{k}_ci95"), "95 % interval".into()));
        labels.push((format!("c{k}_p_value"), "p-value".into()));
    }
    let keys: Vec<String> = std::iter::once("change".to_string())
        .chain(info.compared.iter().flat_map(|c| {
            let key = c.label.replace(['\'', ' '], "_").replace("__", "_");
            [
                key.clone(),
                format!("{key}_change"),
                format!("{key}_ci95"),
                format!("{key}_p_value"),
            ]
        }))
        .collect();
    let columns: Vec<(&str, &str)> = keys
        .iter()
        .zip(&labels)
        .map(|(k, (_, l))| (k.as_str(), l.as_str()))
        .collect();
    let mut table = Table::new(
        "changes",
        "Each house rule against the table (paired, the same deals)",
        &columns,
    );
    table.top_level = true;
    let base_value = paired_counter::<G>(first, 0).a;
    let mut base_row = vec![Value::Text("(the table as given)".into())];
    for k in 0..info.compared.len() {
        base_row.extend([
            Value::Num(paired_counter::<G>(first, k).a, 5),
            Value::Empty,
            Value::Empty,
            Value::Empty,
        ]);
    }
    table.push(base_row);
    let mut fairest: Option<(String, f64)> = None;
    let mut largest: Option<(String, f64)> = None;
    for (k, change) in setup.changes.iter().enumerate() {
        let ct = &t.changes[k];
        let mut row = vec![change_value(change)];
        for c in 0..info.compared.len() {
            let d = paired_counter::<G>(ct, c);
            let (diff, lo, hi, p) = flipped(d);
            row.extend([
                Value::Num(d.b, 5),
                Value::Num(diff, 5),
                Value::NumInterval(lo, hi, 5),
                Value::PValue(p),
            ]);
            if c == 0
                && p < 0.05
                && largest
                    .as_ref()
                    .is_none_or(|(_, best)| diff.abs() > best.abs())
            {
                largest = Some((change.name.clone(), diff));
            }
            if c == 0
                && p < 0.05
                && d.b.abs() < base_value.abs()
                && fairest
                    .as_ref()
                    .is_none_or(|(_, best)| d.b.abs() < best.abs())
            {
                fairest = Some((change.name.clone(), d.b));
            }
        }
        table.push(row);
    }
    r.tables.push(table);
    let label = info.compared[0].label;
    let (name, reading) = match fairest {
        Some((name, v)) => (
            name,
            format!("{label} {v:.4} per {unit} there, {base_value:.4} in the table as given"),
        ),
        None => (
            "the table as given".to_string(),
            format!(
                "no change is shown (p < 0.05) to bring the {label} nearer 0 (here {base_value:.4} per {unit})"
            ),
        ),
    };
    r.field_plain(
        "fairest",
        &format!("{label} nearest 0"),
        Value::Text(name),
        reading,
    );
    let (name, reading) = match largest {
        Some((name, d)) => (
            name,
            format!("{label} {d:+.4} per {unit} against the table as given"),
        ),
        None => (
            "none".to_string(),
            format!("no change moves the {label} at p < 0.05"),
        ),
    };
    r.field_plain(
        "largest_change",
        &format!("moves the {label} most"),
        Value::Text(name),
        reading,
    );
    r.note(format!(
        "Changes are the changed table less the given one, paired by whole sittings on the same shuffles and decisions; every figure is per {unit}."
    ));
}

/// The chart of a flags run: one row per rule change, its paired difference against the
/// table as given (the first player's edge in points; a scored game's first compared figure)
/// with its 95 % interval, and a line at zero, the table as given. Differences, not levels:
/// the few points a change moves are the width of the plot.
pub fn chart<G: Game, S: Strategy<G>>(setup: &FlagsSetup<G, S>, t: &FlagsTally) -> Chart {
    let info = &G::INFO;
    let scored_table = scored::<G>();
    let dots = setup
        .changes
        .iter()
        .zip(&t.changes)
        .enumerate()
        .map(|(k, (change, ct))| {
            let d = if scored_table {
                paired_counter::<G>(ct, 0)
            } else {
                paired_edge(&setup.comparison(k), ct)
            };
            let (value, low, high, _) = flipped(d);
            Dot {
                label: change.label.clone(),
                value,
                low,
                high,
            }
        })
        .collect();
    let (title, x_label, legend) = if scored_table {
        let what = info.compared.first().map_or("points", |c| c.label);
        let per = crate::text::singular(info.words.length_unit);
        (
            format!(
                "What each house rule changes in the {what} per {per} · {}",
                setup.base.describe()
            ),
            format!("change in the {what} per {per} against the table as given (units)"),
            "paired change, 95 % interval".to_string(),
        )
    } else {
        (
            format!(
                "What each house rule changes in the {}'s edge · {}",
                info.words.first_player,
                setup.base.describe()
            ),
            format!(
                "change in the {}'s edge against the table as given (percentage points)",
                info.words.first_player
            ),
            "paired change, 95 % interval".to_string(),
        )
    };
    Chart::Dot(DotChart {
        title,
        x_label,
        x_unit: Unit::Number,
        dots,
        dot_legend: legend,
        marks: vec![RefLine::new(0.0, "no change: the table as given")],
    })
}

/// A change as a table cell: its name and the `--house` setting that makes it for people
/// ("no suited 12 (suited12=off)"), the setting alone for machines.
fn change_value<G: Game, S: Strategy<G>>(change: &Change<G, S>) -> Value {
    if change.label == change.name {
        Value::Text(change.name.clone())
    } else {
        Value::Label(
            format!("{} ({})", change.label, change.name),
            change.name.clone(),
        )
    }
}
