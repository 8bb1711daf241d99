//! `tahur dudo table`: the cheat sheet of P(true) for every quantity and face.

use super::bid::Bid;
use super::exact::{CountDistribution, Situation};
use super::face::Face;
use crate::error::{Error, Result};
use crate::report::chart::{LineChart, RefLine, Series, Unit};
use crate::report::{Report, Table, Value};

/// A cheat-sheet request.
#[derive(Clone, Debug, PartialEq)]
pub struct TableQuery {
    /// What the asker knows.
    pub situation: Situation,
    /// Probability levels for the "highest bid still at least this likely" table.
    pub levels: Vec<f64>,
    /// Show every quantity, not only those where some face still has a visible chance.
    pub all_rows: bool,
}

/// Checks `--levels`: each strictly between 0 and 1 (1 allowed).
pub fn check_levels(levels: &[f64]) -> Result<()> {
    for &l in levels {
        if !(l > 0.0 && l <= 1.0) {
            return Err(Error::usage(format!(
                "invalid level {l} in --levels: give probabilities in (0, 1], e.g. 0.5,0.25"
            )));
        }
    }
    if levels.is_empty() {
        return Err(Error::usage(
            "--levels is empty: give at least one level, e.g. 0.5",
        ));
    }
    Ok(())
}

/// Rows are shown while some face's P(true) still reads above 0.00 % at two decimals.
const VISIBLE: f64 = 0.00005;

/// The count distribution of every face, aces first.
pub fn distributions(situation: &Situation) -> Vec<CountDistribution> {
    Face::ALL
        .iter()
        .map(|&f| situation.distribution(f))
        .collect()
}

/// The highest quantity of `face` whose bid is true with probability at least `level`.
pub fn highest_at_level(dist: &CountDistribution, level: f64) -> Option<u32> {
    (1..=dist.max_count())
        .rev()
        .find(|&q| dist.at_least(q) >= level)
}

/// Builds the cheat sheet.
pub fn report(q: &TableQuery) -> Report {
    let s = &q.situation;
    let set = s.rules.set;
    let dists = distributions(s);
    let max_q = dists.iter().map(|d| d.max_count()).max().unwrap_or(1);
    let last_row = if q.all_rows {
        max_q
    } else {
        (1..=max_q)
            .rev()
            .find(|&k| dists.iter().any(|d| d.at_least(k) >= VISIBLE))
            .unwrap_or(1)
    };

    let mut r = Report::new(format!(
        "Dudo cheat sheet · {} · {}{}",
        crate::text::count_of(s.dice as u64, "dice"),
        set.title(),
        if s.obligado { " · obligado" } else { "" }
    ));
    r.field("dice", "dice on the table", Value::Int(s.dice as i64));
    r.field("hand", "your dice", super::prob::dice_value(&s.hand));
    r.field("shown", "dice shown", super::prob::dice_value(&s.shown));
    r.field(
        "rules",
        "rules",
        Value::Label(set.title().into(), set.key().into()),
    );

    let keys: Vec<String> = Face::ALL
        .iter()
        .map(|f| format!("face_{}", f.value()))
        .collect();
    let names: Vec<&str> = Face::ALL.iter().map(|f| f.name(set, true)).collect();
    let mut cols: Vec<(&str, &str)> = vec![("quantity", "quantity")];
    cols.extend(keys.iter().map(String::as_str).zip(names.iter().copied()));
    let mut grid = Table::new(
        "probabilities",
        "P(bid is true) by quantity and face",
        &cols,
    );
    for k in 1..=last_row {
        let mut row = vec![Value::Int(k as i64)];
        row.extend(dists.iter().map(|d| Value::Prob(d.at_least(k))));
        grid.push(row);
    }
    r.tables.push(grid);

    let level_keys: Vec<String> = q
        .levels
        .iter()
        .map(|l| format!("at_{}", pct_key(*l)))
        .collect();
    let level_labels: Vec<String> = q
        .levels
        .iter()
        .map(|l| {
            format!(
                "highest ≥ {}",
                crate::humanize::percent(*l).replace(".00 ", " ")
            )
        })
        .collect();
    let mut tcols: Vec<(&str, &str)> = vec![("face", "face")];
    tcols.extend(
        level_keys
            .iter()
            .map(String::as_str)
            .zip(level_labels.iter().map(String::as_str)),
    );
    let mut thresholds = Table::new(
        "thresholds",
        "Highest bid still at least this likely",
        &tcols,
    );
    for (f, d) in Face::ALL.iter().zip(&dists) {
        let mut row = vec![Value::Text(f.name(set, true).into())];
        for &l in &q.levels {
            row.push(match highest_at_level(d, l) {
                Some(k) => {
                    let bid = Bid {
                        quantity: k,
                        face: *f,
                    };
                    bid.value(bid.spoken(set))
                }
                None => Value::Empty,
            });
        }
        thresholds.push(row);
    }
    r.tables.push(thresholds);
    if !q.all_rows && last_row < max_q {
        r.note(format!(
            "Quantities above {last_row} are left out: every face is below 0.005 % there (--all shows them)."
        ));
    }
    r
}

fn pct_key(level: f64) -> String {
    let s = format!("{}", (level * 1000.0).round() / 10.0);
    s.replace('.', "_")
}

/// The chart: P(true) against quantity, one line per face.
pub fn chart(q: &TableQuery) -> LineChart {
    let s = &q.situation;
    let set = s.rules.set;
    let dists = distributions(s);
    let max_q = dists
        .iter()
        .map(|d| highest_at_level(d, 0.001).unwrap_or(1))
        .max()
        .unwrap_or(1)
        + 1;
    // Faces with the same curve (e.g. any two faces you hold equally many of) share one line,
    // labelled with every name, instead of hiding each other.
    let mut series: Vec<Series> = Vec::new();
    for (f, d) in Face::ALL.iter().zip(&dists) {
        let points: Vec<(f64, f64)> = (1..=max_q).map(|k| (k as f64, d.at_least(k))).collect();
        match series.iter_mut().find(|s| s.points == points) {
            Some(s) => s.label = format!("{} = {}", s.label, f.name(set, true)),
            None => series.push(Series {
                label: f.name(set, true).into(),
                points,
            }),
        }
    }
    LineChart {
        title: format!(
            "P(bid is true) · {} · {}",
            crate::text::count_of(s.dice as u64, "dice"),
            set.title()
        ),
        x_label: "quantity bid".into(),
        x_unit: Unit::Count,
        y_label: "probability the bid is true".into(),
        y_unit: Unit::Percent,
        series,
        marks: q
            .levels
            .iter()
            .map(|&l| RefLine::new(l, "levels asked (--levels)"))
            .collect(),
    }
}
