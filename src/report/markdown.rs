//! GitHub-flavoured Markdown.

use super::{Exporter, Report};
use crate::error::Result;

/// Markdown exporter: a heading, a bullet list of key figures, pipe tables, notes.
pub struct MarkdownExporter;

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

impl Exporter for MarkdownExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut out = format!("## {}\n\n", report.title);
        for f in &report.fields {
            match &f.plain {
                Some(p) => out.push_str(&format!(
                    "- **{}**: {} ({})\n",
                    f.label,
                    f.value.display(),
                    p
                )),
                None => out.push_str(&format!("- **{}**: {}\n", f.label, f.value.display())),
            }
        }
        if !report.fields.is_empty() {
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
