//! Comma-separated values through the `csv` crate.

use super::{Exporter, Report, Value};
use crate::error::{Error, Result};

/// CSV exporter: the report's first table; a report without tables becomes one row of its key
/// figures. Intervals are always two columns, `_low` and `_high`.
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let fail = |e: csv::Error| Error::Internal(format!("CSV: {e}"));
        if let Some(t) = report.tables.first() {
            // A column holding intervals becomes two: `<column>_low` and `<column>_high`.
            let split: Vec<bool> = (0..t.columns.len())
                .map(|c| t.rows.iter().any(|r| r.get(c).is_some_and(is_interval)))
                .collect();
            let mut header = Vec::new();
            for (c, name) in t.columns.iter().enumerate() {
                if split[c] {
                    header.push(format!("{name}_low"));
                    header.push(format!("{name}_high"));
                } else {
                    header.push(name.clone());
                }
            }
            w.write_record(&header).map_err(fail)?;
            for row in &t.rows {
                let mut cells = Vec::with_capacity(header.len());
                for (c, v) in row.iter().enumerate() {
                    if split[c] {
                        let (a, b) = match v {
                            Value::ProbInterval(a, b) | Value::NumInterval(a, b, _) => {
                                (a.to_string(), b.to_string())
                            }
                            _ => (String::new(), String::new()),
                        };
                        cells.push(a);
                        cells.push(b);
                    } else {
                        cells.push(v.raw());
                    }
                }
                w.write_record(&cells).map_err(fail)?;
            }
        } else {
            let mut header = Vec::new();
            let mut values = Vec::new();
            for f in &report.fields {
                match &f.value {
                    Value::ProbInterval(a, b) | Value::NumInterval(a, b, _) => {
                        header.push(format!("{}_low", f.key));
                        header.push(format!("{}_high", f.key));
                        values.push(a.to_string());
                        values.push(b.to_string());
                    }
                    v => {
                        header.push(f.key.clone());
                        values.push(v.raw());
                    }
                }
            }
            w.write_record(&header).map_err(fail)?;
            w.write_record(&values).map_err(fail)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| Error::Internal(format!("CSV: {e}")))?;
        String::from_utf8(bytes).map_err(|e| Error::Internal(format!("CSV: {e}")))
    }
}

fn is_interval(v: &Value) -> bool {
    matches!(v, Value::ProbInterval(..) | Value::NumInterval(..))
}
