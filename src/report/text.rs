//! Aligned text for the terminal, fitted to its width.
//!
//! A report is drawn one line per table row when that fits the width. A table too wide for it
//! first wraps its column headings onto several lines; when even that does not fit, each row
//! becomes a block of `label  value` lines. Titles, plain-language readings and notes wrap at
//! spaces. Without a width (`--wide`) every row stays on one line and nothing wraps.

use super::{Exporter, Report, Table};
use crate::error::Result;

/// The narrowest width a report is fitted to: below it the stacked layout is no longer
/// readable, so a narrower request is widened to it.
pub const MIN_WIDTH: usize = 40;

/// The width a report is fitted to when nothing says otherwise (not a terminal, no `COLUMNS`).
pub const DEFAULT_WIDTH: usize = 100;

/// Text exporter: title, key figures with plain-language readings, tables, notes.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextExporter {
    /// The width to fit, in columns; `None` keeps every row on one line (`--wide`).
    pub width: Option<usize>,
}

impl TextExporter {
    /// An exporter fitting reports to `width` columns (at least [`MIN_WIDTH`]).
    pub fn fitted(width: usize) -> Self {
        Self {
            width: Some(width.max(MIN_WIDTH)),
        }
    }
}

/// The width reports on stdout are fitted to: `COLUMNS` when it holds a width, else the
/// terminal's when stdout is one, else [`DEFAULT_WIDTH`].
pub fn output_width(to_stdout: bool) -> usize {
    let from_env = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0);
    let from_terminal = || {
        use std::io::IsTerminal;
        (to_stdout && std::io::stdout().is_terminal())
            .then(|| terminal_size::terminal_size().map(|(w, _)| w.0 as usize))
            .flatten()
    };
    from_env
        .or_else(from_terminal)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// Characters as a terminal counts columns.
fn cols(s: &str) -> usize {
    textwrap::core::display_width(s)
}

/// `s` padded with spaces to `w` columns, on the left (`right`) or on the right.
fn pad(s: &str, w: usize, right: bool) -> String {
    let fill = " ".repeat(w.saturating_sub(cols(s)));
    if right {
        fill + s
    } else {
        s.to_string() + &fill
    }
}

/// `text` wrapped to `width`, later lines indented by `indent` spaces; unwrapped when `width`
/// is `None`. Words longer than a line are broken only when nothing else fits.
fn wrap(text: &str, width: Option<usize>, indent: usize) -> String {
    let Some(width) = width else {
        return text.to_string();
    };
    // A continuation indented past half the line would leave too little room: under the
    // label instead.
    let indent = " ".repeat(if indent <= width / 2 { indent } else { 6 });
    let options = textwrap::Options::new(width)
        .subsequent_indent(&indent)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        // Names such as `five-before-discard=on` are never split at their hyphens.
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(text, options).join("\n")
}

impl Exporter for TextExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let width = self.width;
        let mut out = String::new();
        out.push_str(&wrap(&report.title, width, 2));
        out.push('\n');
        let label_width = report
            .fields
            .iter()
            .map(|f| cols(&f.label))
            .max()
            .unwrap_or(0);
        for f in &report.fields {
            let value = f.value.display();
            let line = match &f.plain {
                Some(plain) => format!(
                    "  {}  {value}   ({plain})",
                    pad(&f.label, label_width, false)
                ),
                None => format!("  {}  {value}", pad(&f.label, label_width, false)),
            };
            out.push_str(&wrap(&line, width, 4 + label_width));
            out.push('\n');
        }
        for t in &report.tables {
            out.push('\n');
            out.push_str(&wrap(&t.title, width, 2));
            out.push('\n');
            table(&mut out, t, width);
        }
        if !report.notes.is_empty() {
            out.push('\n');
            for n in &report.notes {
                for line in n.lines() {
                    out.push_str(&wrap(line, width, 0));
                    out.push('\n');
                }
            }
        }
        Ok(out)
    }
}

/// Appends table `t`: one line per row when it fits `width`, else with wrapped headings, else
/// one block per row.
fn table(out: &mut String, t: &Table, width: Option<usize>) {
    let cells: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|v| v.display()).collect())
        .collect();
    let cell_widths: Vec<usize> = (0..t.labels.len())
        .map(|c| cells.iter().map(|r| cols(&r[c])).max().unwrap_or(0))
        .collect();
    // A line is one space, then the first column, then each other column after two spaces.
    let line_width = |widths: &[usize]| {
        1 + widths
            .iter()
            .enumerate()
            .map(|(i, w)| w + if i == 0 { 1 } else { 2 })
            .sum::<usize>()
    };
    let natural: Vec<usize> = t
        .labels
        .iter()
        .zip(&cell_widths)
        .map(|(l, w)| cols(l).max(*w))
        .collect();
    let fits = |widths: &[usize]| width.is_none_or(|w| line_width(widths) <= w);
    if fits(&natural) {
        let headings: Vec<Vec<String>> = t.labels.iter().map(|l| vec![l.clone()]).collect();
        rows(out, &headings, &cells, &natural);
        return;
    }
    // Headings wrapped to their column: a column is as wide as its widest cell or its
    // heading's longest word.
    let narrow: Vec<usize> = t
        .labels
        .iter()
        .zip(&cell_widths)
        .map(|(l, w)| l.split(' ').map(cols).max().unwrap_or(0).max(*w))
        .collect();
    if fits(&narrow) {
        let headings: Vec<Vec<String>> = t
            .labels
            .iter()
            .zip(&narrow)
            .map(|(l, w)| {
                let options = textwrap::Options::new(*w).break_words(false);
                textwrap::wrap(l, options)
                    .into_iter()
                    .map(|s| s.into_owned())
                    .collect()
            })
            .collect();
        rows(out, &headings, &cells, &narrow);
        return;
    }
    stacked(out, t, &cells, width);
}

/// Headings (bottom-aligned over their columns), then one line per row.
fn rows(out: &mut String, headings: &[Vec<String>], cells: &[Vec<String>], widths: &[usize]) {
    let line = |items: &[&str]| {
        let mut s = String::from(" ");
        for (i, (item, w)) in items.iter().zip(widths).enumerate() {
            // First column left-aligned (labels), the rest right-aligned (numbers).
            if i == 0 {
                s.push(' ');
                s.push_str(&pad(item, *w, false));
            } else {
                s.push_str("  ");
                s.push_str(&pad(item, *w, true));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let depth = headings.iter().map(Vec::len).max().unwrap_or(1);
    for k in 0..depth {
        let items: Vec<&str> = headings
            .iter()
            .map(|h| {
                let blank = depth - h.len();
                if k < blank {
                    ""
                } else {
                    h[k - blank].as_str()
                }
            })
            .collect();
        out.push_str(&line(&items));
    }
    for row in cells {
        let items: Vec<&str> = row.iter().map(String::as_str).collect();
        out.push_str(&line(&items));
    }
}

/// One block per row: the first column as the block's heading, then `label  value` lines,
/// labels wrapped within their column and values beside their label's first line.
fn stacked(out: &mut String, t: &Table, cells: &[Vec<String>], width: Option<usize>) {
    let label_width = t.labels.iter().skip(1).map(|l| cols(l)).max().unwrap_or(0);
    let label_width = width.map_or(label_width, |w| label_width.min(w * 2 / 5));
    let value_width = width.map(|w| w.saturating_sub(6 + label_width).max(10));
    for (i, row) in cells.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let heading = format!("  {}: {}", t.labels[0], row[0]);
        out.push_str(&wrap(&heading, width, 4));
        out.push('\n');
        for (label, value) in t.labels.iter().zip(row).skip(1) {
            let options = textwrap::Options::new(label_width.max(1))
                .word_splitter(textwrap::WordSplitter::NoHyphenation);
            let label_lines = textwrap::wrap(label, options);
            let value_lines: Vec<String> = match value_width {
                Some(vw) => textwrap::wrap(
                    value,
                    textwrap::Options::new(vw).word_splitter(textwrap::WordSplitter::NoHyphenation),
                )
                .into_iter()
                .map(|s| s.into_owned())
                .collect(),
                None => vec![value.clone()],
            };
            for k in 0..label_lines.len().max(value_lines.len()) {
                let l = label_lines.get(k).map_or("", |s| s.as_ref());
                let v = value_lines.get(k).map_or("", String::as_str);
                let line = format!("    {}  {v}", pad(l, label_width, false));
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Table, Value};

    fn wide_report() -> Report {
        let mut r =
            Report::new("Durak · 4 players · house rules as given against each change of one rule");
        r.field_plain(
            "edge",
            "the first attacker's edge",
            Value::Prob(0.064),
            "6.4 points below the fair share 23.40 %: an edge for the first attacker, and more words to wrap".into(),
        );
        let mut t = Table::new(
            "changes",
            "Each change",
            &[
                ("change", "change of the rules"),
                ("rate", "the first attacker is the durak"),
                ("ci95", "95 % interval of the rate"),
                ("difference", "difference against as given (points)"),
                ("p", "p-value of the paired test"),
                ("length", "mean bouts per game"),
            ],
        );
        for name in ["as given", "five-before-discard=on", "trump-swap=off"] {
            t.push(vec![
                Value::Text(name.into()),
                Value::Prob(0.2345),
                Value::ProbInterval(0.2301, 0.2399),
                Value::Num(-0.44, 2),
                Value::PValue(0.0123),
                Value::Num(31.25, 2),
            ]);
        }
        r.tables.push(t);
        r.note("A long note that says what the edge is and how the changes are paired game by game on the same deals and decisions, so that it must wrap.");
        r
    }

    fn longest(s: &str) -> usize {
        s.lines().map(cols).max().unwrap_or(0)
    }

    #[test]
    fn every_line_fits_the_width_and_nothing_is_lost() {
        let r = wide_report();
        let wide = TextExporter::default().render(&r).unwrap();
        assert!(
            longest(&wide) > 100,
            "the sample is wide: {}",
            longest(&wide)
        );
        for w in [40, 60, 80, 100, 120] {
            let text = TextExporter::fitted(w).render(&r).unwrap();
            assert!(longest(&text) <= w, "{w} columns:\n{text}");
            // Every cell is still there, whole.
            for cell in [
                "five-before-discard=on",
                "23.45 %",
                "[23.01 %, 23.99 %]",
                "31.25",
                "0.012",
            ] {
                assert!(text.contains(cell), "{w}: {cell} lost:\n{text}");
            }
        }
    }

    #[test]
    fn a_table_that_fits_stays_one_line_per_row() {
        let r = crate::report::tests::sample();
        let fitted = TextExporter::fitted(80).render(&r).unwrap();
        assert_eq!(fitted, TextExporter::default().render(&r).unwrap());
        assert!(fitted.contains("  quantity  P(true)\n"), "{fitted}");
    }

    #[test]
    fn headings_wrap_before_rows_stack() {
        let mut r = Report::new("t");
        let mut t = Table::new(
            "t",
            "T",
            &[
                ("seat", "seat"),
                ("a", "the first long heading"),
                ("b", "another long heading"),
            ],
        );
        t.push(vec![Value::Int(1), Value::Prob(0.5), Value::Prob(0.25)]);
        r.tables.push(t);
        let text = TextExporter::fitted(40).render(&r).unwrap();
        // 1 + (4 + 1) + (7 + 2) + (7 + 2) = 24 columns, the headings on four lines.
        assert!(
            text.contains("            the\n          first  another\n"),
            "{text}"
        );
        assert!(
            text.contains("  seat  heading  heading\n  1     50.00 %  25.00 %\n"),
            "{text}"
        );
        assert!(longest(&text) <= 40);
    }

    #[test]
    fn rows_too_wide_become_blocks() {
        let text = TextExporter::fitted(60).render(&wide_report()).unwrap();
        assert!(
            text.contains("  change of the rules: trump-swap=off\n"),
            "{text}"
        );
        assert!(
            text.contains("    the first attacker is     23.45 %\n    the durak\n"),
            "{text}"
        );
    }
}
