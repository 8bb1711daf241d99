//! Comma-separated values through the `csv` crate.

use super::{Exporter, Report, Value};
use crate::error::{Error, Result};

/// CSV exporter: the report's first table; a report without tables becomes one row of its key
/// figures (intervals split into `_low` and `_high` columns).
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let fail = |e: csv::Error| Error::Internal(format!("CSV: {e}"));
        if let Some(t) = report.tables.first() {
            w.write_record(&t.columns).map_err(fail)?;
            for row in &t.rows {
                w.write_record(row.iter().map(Value::raw)).map_err(fail)?;
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
