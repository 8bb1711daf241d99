//! Comma-separated values through the `csv` crate.

use super::{Exporter, Report, Table};
use crate::error::{Error, Result};

/// The columns of every CSV report, whatever the command and its flags.
pub const CSV_COLUMNS: [&str; 4] = ["table", "row", "figure", "value"];

/// The `table` name of the report's key figures in CSV.
pub const FIGURES: &str = "figures";

/// The `table` name of the report's settings in CSV.
pub const SETTINGS: &str = "settings";

/// CSV exporter: every figure of the report, one per line, in four columns
/// (`table,row,figure,value`): the settings as table `settings`, the key figures as table
/// `figures` (row 1), then each table's cells by table key, row (from 1) and column. An
/// interval is two figures, `<name>_low` and `<name>_high`; a record one per part. Rates are
/// fractions. The same columns for every report, so a program reads them without guessing.
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let fail = |e: csv::Error| Error::Internal(format!("CSV: {e}"));
        w.write_record(CSV_COLUMNS).map_err(fail)?;
        let mut figure = |table: &str, row: usize, key: &str, value: &super::Value| {
            for (suffix, cell) in value.cells() {
                let row = row.to_string();
                let name = format!("{key}{suffix}");
                w.write_record([table, row.as_str(), name.as_str(), cell.as_str()])?;
            }
            Ok::<(), csv::Error>(())
        };
        for f in &report.settings {
            figure(SETTINGS, 1, &f.key, &f.value).map_err(fail)?;
        }
        for f in &report.fields {
            figure(FIGURES, 1, &f.key, &f.value).map_err(fail)?;
        }
        for t in &report.tables {
            for (i, row) in t.rows.iter().enumerate() {
                for (key, value) in t.columns.iter().zip(row) {
                    figure(&t.key, i + 1, key, value).map_err(fail)?;
                }
            }
        }
        finish(w)
    }
}

fn finish(w: csv::Writer<Vec<u8>>) -> Result<String> {
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Internal(format!("CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Internal(format!("CSV: {e}")))
}

/// One table as a wide CSV, one line per row: the layout of the sheet files tahur writes and
/// reads back (tuned tables, strategy sheets). A column holding intervals becomes two,
/// `<column>_low` and `<column>_high`; a record column one per part. Numbers keep every bit
/// (`f64`'s shortest round-trip form), so a sheet read back is the sheet written.
pub fn table_csv(t: &Table) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::Internal(format!("CSV: {e}"));
    // Each column's cell names, from the first row that is not empty there.
    let suffixes: Vec<Vec<String>> = (0..t.columns.len())
        .map(|c| {
            t.rows
                .iter()
                .filter_map(|r| r.get(c))
                .find(|v| !matches!(v, super::Value::Empty))
                .map_or(vec![String::new()], |v| {
                    v.cells_exact().into_iter().map(|(s, _)| s).collect()
                })
        })
        .collect();
    let header: Vec<String> = t
        .columns
        .iter()
        .zip(&suffixes)
        .flat_map(|(name, sfx)| sfx.iter().map(move |s| format!("{name}{s}")))
        .collect();
    w.write_record(&header).map_err(fail)?;
    for row in &t.rows {
        let mut cells = Vec::with_capacity(header.len());
        for (v, sfx) in row.iter().zip(&suffixes) {
            let got = v.cells_exact();
            for s in sfx {
                cells.push(
                    got.iter()
                        .find(|(g, _)| g == s)
                        .map_or(String::new(), |(_, c)| c.clone()),
                );
            }
        }
        w.write_record(&cells).map_err(fail)?;
    }
    finish(w)
}
