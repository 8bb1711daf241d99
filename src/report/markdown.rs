//! GitHub-flavoured Markdown.

use super::{Exporter, Report};
use crate::error::Result;

/// Markdown exporter: a heading, the key figures as a table, the report's tables, notes.
pub struct MarkdownExporter;

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

impl Exporter for MarkdownExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut out = format!("## {}\n\n", report.title);
        if !report.fields.is_empty() {
            // The key figures as a table: figure, value and, where there is one, its reading.
            let readings = report.fields.iter().any(|f| f.plain.is_some());
            if readings {
                out.push_str("| figure | value | in words |\n| --- | ---: | --- |\n");
            } else {
                out.push_str("| figure | value |\n| --- | ---: |\n");
            }
            for f in &report.fields {
                let (label, value) = (escape(&f.label), escape(&f.value.display()));
                if readings {
                    let plain = f.plain.as_deref().map(escape).unwrap_or_default();
                    out.push_str(&format!("| {label} | {value} | {plain} |\n"));
                } else {
                    out.push_str(&format!("| {label} | {value} |\n"));
                }
            }
            out.push('\n');
        }
        for t in &report.tables {
            out.push_str(&format!("### {}\n\n", t.title));
            let labels: Vec<String> = t.labels.iter().map(|l| escape(l)).collect();
            out.push_str(&format!("| {} |\n", labels.join(" | ")));
            let align: Vec<&str> = (0..t.labels.len())
                .map(|i| if i == 0 { "---" } else { "---:" })
                .collect();
            out.push_str(&format!("| {} |\n", align.join(" | ")));
            for row in &t.rows {
                let cells: Vec<String> = row.iter().map(|v| escape(&v.display())).collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
            }
            out.push('\n');
        }
        for n in &report.notes {
            out.push_str(&format!("{n}\n\n"));
        }
        while out.ends_with("\n\n") {
            out.pop();
        }
        Ok(out)
    }
}
