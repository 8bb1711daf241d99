//! Aligned text for the terminal.

use super::{Exporter, Report};
use crate::error::Result;

/// Text exporter: title, key figures with plain-language readings, tables, notes.
pub struct TextExporter;

impl Exporter for TextExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut out = String::new();
        out.push_str(&report.title);
        out.push('\n');
        let width = report
            .fields
            .iter()
            .map(|f| f.label.chars().count())
            .max()
            .unwrap_or(0);
        for f in &report.fields {
            let value = f.value.display();
            match &f.plain {
                Some(plain) => {
                    out.push_str(&format!("  {:<width$}  {}   ({})\n", f.label, value, plain))
                }
                None => out.push_str(&format!("  {:<width$}  {}\n", f.label, value)),
            }
        }
        for t in &report.tables {
            out.push('\n');
            out.push_str(&t.title);
            out.push('\n');
            let cells: Vec<Vec<String>> = t
                .rows
                .iter()
                .map(|r| r.iter().map(|v| v.display()).collect())
                .collect();
            let mut widths: Vec<usize> = t.labels.iter().map(|l| l.chars().count()).collect();
            for row in &cells {
                for (w, c) in widths.iter_mut().zip(row) {
                    *w = (*w).max(c.chars().count());
                }
            }
            let line = |items: &[String]| {
                let mut s = String::from(" ");
                for (i, (item, w)) in items.iter().zip(&widths).enumerate() {
                    // First column left-aligned (labels), the rest right-aligned (numbers).
                    if i == 0 {
                        s.push_str(&format!(" {item:<w$}"));
                    } else {
                        s.push_str(&format!("  {item:>w$}"));
                    }
                }
                s.trim_end().to_string() + "\n"
            };
            out.push_str(&line(&t.labels));
            for row in &cells {
                out.push_str(&line(row));
            }
        }
        if !report.notes.is_empty() {
            out.push('\n');
            for n in &report.notes {
                out.push_str(&format!("{n}\n"));
            }
        }
        Ok(out)
    }
}
