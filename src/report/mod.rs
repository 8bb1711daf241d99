//! Reports: one data model, one exporter per output format.
//!
//! A command builds a [`Report`] (key figures, tables, plain-language notes); an [`Exporter`]
//! turns it into text, CSV, JSON or Markdown. [`write_output`] writes the result to stdout or,
//! atomically, to a file. Charts are in [`chart`].

pub mod chart;
mod csv;
mod json;
mod markdown;
pub mod paths;
mod text;

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::humanize;

pub use self::csv::{table_csv, CsvExporter, CSV_COLUMNS};
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;
pub use self::text::{output_width, TextExporter, DEFAULT_WIDTH, MIN_WIDTH};

/// What a report says of the run that made it (the runner's summary implements it).
pub trait RunFacts {
    /// The samples the run was asked for.
    fn requested(&self) -> u64;
    /// The run's seed.
    fn seed(&self) -> u64;
    /// Whether every requested sample ran.
    fn is_complete(&self) -> bool;
}

/// One value in a report.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A count.
    Int(i64),
    /// A plain number, shown with `decimals` decimals in text.
    Num(f64, usize),
    /// A probability (shown as a percentage in text).
    Prob(f64),
    /// An interval of probabilities.
    ProbInterval(f64, f64),
    /// An interval of plain numbers, shown with `decimals` decimals in text.
    NumInterval(f64, f64, usize),
    /// A p-value (shown as "< 0.0001" when tiny).
    PValue(f64),
    /// Text.
    Text(String),
    /// A name for people and its identifier for machines: text and Markdown show the name
    /// ("12 of one suit counting 21"), CSV and JSON the identifier (`twelve_suited`).
    Label(String, String),
    /// A difference of two rates, as a fraction (0.0044 for 0.44 percentage points): text shows
    /// percentage points with two decimals, machines read the fraction.
    RateDiff(f64),
    /// An interval of differences of rates, as fractions (text: percentage points).
    RateDiffInterval(f64, f64),
    /// Yes or no (`true`/`false` for machines).
    Bool(bool),
    /// Several values read as one (a hand of dice: `1,4,4,2,6` for people, an array in JSON).
    List(Vec<Value>),
    /// A figure with parts (a bid: "15 cuadras" for people, `{quantity, face}` in JSON and
    /// `<key>_quantity`, `<key>_face` in CSV).
    Record(String, Vec<(String, Value)>),
    /// Nothing (e.g. "no such bid").
    Empty,
}

impl Value {
    /// The value as a human reads it (text and Markdown).
    pub fn display(&self) -> String {
        match self {
            Value::Int(i) => {
                if *i < 0 {
                    format!("-{}", humanize::thousands(i.unsigned_abs()))
                } else {
                    humanize::thousands(*i as u64)
                }
            }
            Value::Num(x, d) => fixed(*x, *d),
            Value::Prob(p) => humanize::percent(*p),
            Value::ProbInterval(a, b) => {
                format!("[{}, {}]", humanize::percent(*a), humanize::percent(*b))
            }
            Value::NumInterval(a, b, d) => format!("[{}, {}]", fixed(*a, *d), fixed(*b, *d)),
            Value::PValue(p) if *p < 1e-4 => "< 0.0001".into(),
            Value::PValue(p) => humanize::significant(*p, 2),
            Value::Text(s) | Value::Label(s, _) | Value::Record(s, _) => s.clone(),
            Value::RateDiff(d) => fixed(100.0 * d, 2),
            Value::RateDiffInterval(a, b) => {
                format!("[{}, {}]", fixed(100.0 * a, 2), fixed(100.0 * b, 2))
            }
            Value::Bool(true) => "yes".into(),
            Value::Bool(false) => "no".into(),
            Value::List(items) if items.is_empty() => "—".into(),
            Value::List(items) => items
                .iter()
                .map(Value::display)
                .collect::<Vec<_>>()
                .join(","),
            Value::Empty => "—".into(),
        }
    }

    /// The value as a machine reads it (one CSV cell): rates as fractions, numbers to 15
    /// significant digits in their shortest form, no units.
    pub fn raw(&self) -> String {
        self.raw_with(tidy)
    }

    /// [`Value::raw`] with each number written as `number(x)` gives it.
    fn raw_with(&self, number: fn(f64) -> f64) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Num(x, _) | Value::Prob(x) | Value::PValue(x) | Value::RateDiff(x) => {
                number(*x).to_string()
            }
            Value::ProbInterval(a, b)
            | Value::NumInterval(a, b, _)
            | Value::RateDiffInterval(a, b) => format!("{};{}", number(*a), number(*b)),
            Value::Text(s) | Value::Label(_, s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::List(items) => items
                .iter()
                .map(|v| v.raw_with(number))
                .collect::<Vec<_>>()
                .join(","),
            Value::Record(_, parts) => parts
                .iter()
                .map(|(k, v)| format!("{k}={}", v.raw_with(number)))
                .collect::<Vec<_>>()
                .join(";"),
            Value::Empty => String::new(),
        }
    }

    /// The value's cells for machines, each named by a suffix of the figure's key: one
    /// unnamed cell for most values, `_low`/`_high` for an interval, `_<part>` for a record.
    pub fn cells(&self) -> Vec<(String, String)> {
        self.cells_with(tidy)
    }

    /// [`Value::cells`] with every bit of each number (sheet files read back).
    pub(crate) fn cells_exact(&self) -> Vec<(String, String)> {
        self.cells_with(|x| x)
    }

    /// [`Value::cells`] with each number written as `number(x)` gives it.
    fn cells_with(&self, number: fn(f64) -> f64) -> Vec<(String, String)> {
        match self {
            Value::ProbInterval(a, b)
            | Value::NumInterval(a, b, _)
            | Value::RateDiffInterval(a, b) => vec![
                ("_low".into(), number(*a).to_string()),
                ("_high".into(), number(*b).to_string()),
            ],
            Value::Record(_, parts) => parts
                .iter()
                .flat_map(|(k, v)| {
                    v.cells_with(number)
                        .into_iter()
                        .map(move |(suffix, cell)| (format!("_{k}{suffix}"), cell))
                })
                .collect(),
            v => vec![(String::new(), v.raw_with(number))],
        }
    }

    /// The value as JSON: numbers with every bit (a program can check them against its own
    /// computation to the last digit), intervals as `[low, high]`, lists as arrays, records as
    /// objects.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Value::Int(i) => json!(i),
            Value::Num(x, _) | Value::Prob(x) | Value::PValue(x) | Value::RateDiff(x) => {
                json!(x)
            }
            Value::ProbInterval(a, b)
            | Value::NumInterval(a, b, _)
            | Value::RateDiffInterval(a, b) => json!([a, b]),
            Value::Text(s) | Value::Label(_, s) => json!(s),
            Value::Bool(b) => json!(b),
            Value::List(items) => serde_json::Value::Array(items.iter().map(Value::json).collect()),
            Value::Record(_, parts) => serde_json::Value::Object(
                parts.iter().map(|(k, v)| (k.clone(), v.json())).collect(),
            ),
            Value::Empty => serde_json::Value::Null,
        }
    }

    /// A JSON value as a report value: numbers as integers when whole, arrays as lists,
    /// objects as records (shown as compact JSON).
    pub fn from_json(v: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match v {
            J::Null => Value::Empty,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => Value::Int(i),
                (None, Some(x)) => Value::Num(x, 4),
                _ => Value::Text(n.to_string()),
            },
            J::String(s) => Value::Text(s.clone()),
            J::Array(items) => Value::List(items.iter().map(Value::from_json).collect()),
            J::Object(map) => Value::Record(
                v.to_string(),
                map.iter()
                    .map(|(k, x)| (k.clone(), Value::from_json(x)))
                    .collect(),
            ),
        }
    }

    /// Dice (or any small numbers) as a list: `1,4,4,2,6` in text, `[1, 4, 4, 2, 6]` in JSON.
    pub fn dice(values: impl IntoIterator<Item = u8>) -> Value {
        Value::List(values.into_iter().map(|d| Value::Int(d.into())).collect())
    }
}

/// `x` rounded to 15 significant digits, the precision an `f64` always holds: what arithmetic
/// left in the last bits (6.4312499999999995 for 6.43125) goes, and the shortest form that
/// reads back to it is printed. Exact zeros, ones and integers are untouched. CSV cells are
/// written so (spreadsheets show them); JSON keeps every bit.
pub fn tidy(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    // Rounding up the largest numbers can overflow: those stay as they are.
    format!("{x:.14e}")
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite())
        .unwrap_or(x)
}

/// `x` with `decimals` decimals, never "-0.000" (a tiny negative that rounds to zero is 0).
fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// A named key figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Machine name (JSON key, CSV column).
    pub key: String,
    /// Human label.
    pub label: String,
    /// The value.
    pub value: Value,
    /// An optional plain-language reading of the value.
    pub plain: Option<String>,
}

/// A table with named columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Machine name (JSON key).
    pub key: String,
    /// Human title.
    pub title: String,
    /// Column machine names.
    pub columns: Vec<String>,
    /// Column human labels.
    pub labels: Vec<String>,
    /// Rows, each as long as `columns`.
    pub rows: Vec<Vec<Value>>,
    /// In JSON, put the rows under the table's key at the top level instead of under `tables`.
    pub top_level: bool,
}

impl Table {
    /// An empty table; columns are given as `(key, label)` pairs.
    pub fn new(key: &str, title: &str, columns: &[(&str, &str)]) -> Self {
        Self {
            key: key.into(),
            title: title.into(),
            columns: columns.iter().map(|c| c.0.to_string()).collect(),
            labels: columns.iter().map(|c| c.1.to_string()).collect(),
            rows: Vec::new(),
            top_level: false,
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<Value>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }
}

/// Everything a command has to say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// One-line title.
    pub title: String,
    /// Key figures in display order.
    pub fields: Vec<Field>,
    /// Tables in display order (CSV holds them all, one figure a line).
    pub tables: Vec<Table>,
    /// Plain-language remarks shown under the figures in text and Markdown.
    pub notes: Vec<String>,
    /// What the run was asked (game, command, players, rules, strategies, seed, samples,
    /// tool version): fields for machines, under `settings` in JSON and as table `settings`
    /// in CSV. Text and Markdown say it in the title.
    pub settings: Vec<Field>,
}

impl Report {
    /// A report with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Default::default()
        }
    }

    /// Adds a key figure.
    pub fn field(&mut self, key: &str, label: &str, value: Value) -> &mut Self {
        self.fields.push(Field {
            key: key.into(),
            label: label.into(),
            value,
            plain: None,
        });
        self
    }

    /// The size of a run and its seed: `done` samples under `unit` (`games`, `hands`, …) with
    /// `label`, the requested count under `<unit>_requested` when the run was cut short
    /// (Ctrl-C, or a partial merge), and the seed.
    pub fn run_size(
        &mut self,
        unit: &str,
        label: &str,
        done: u64,
        run: &dyn RunFacts,
    ) -> &mut Self {
        self.field(unit, label, Value::Int(done as i64));
        if !run.is_complete() {
            self.field(
                &format!("{unit}_requested"),
                &format!("{unit} requested"),
                Value::Int(run.requested() as i64),
            );
        }
        self.field("seed", "seed", Value::Int(run.seed() as i64))
    }

    /// Adds a key figure with its plain-language reading.
    pub fn field_plain(
        &mut self,
        key: &str,
        label: &str,
        value: Value,
        plain: String,
    ) -> &mut Self {
        self.fields.push(Field {
            key: key.into(),
            label: label.into(),
            value,
            plain: Some(plain),
        });
        self
    }

    /// Adds (or replaces) a setting of the run.
    pub fn setting(&mut self, key: &str, value: Value) -> &mut Self {
        self.settings.retain(|f| f.key != key);
        self.settings.push(Field {
            key: key.into(),
            label: key.into(),
            value,
            plain: None,
        });
        self
    }

    /// The value of a setting, if present.
    pub fn get_setting(&self, key: &str) -> Option<&Value> {
        self.settings
            .iter()
            .find(|f| f.key == key)
            .map(|f| &f.value)
    }

    /// Adds a note.
    pub fn note(&mut self, note: impl Into<String>) -> &mut Self {
        self.notes.push(note.into());
        self
    }

    /// The value of a field, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|f| f.key == key).map(|f| &f.value)
    }
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Format {
    /// Aligned text for the terminal, with plain-language readings.
    Text,
    /// Comma-separated values: every figure, four columns (table, row, figure, value).
    Csv,
    /// One JSON object.
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
}

impl Format {
    /// Every format, with its name and what it is.
    pub const ALL: [(Format, &'static str, &'static str); 4] = [
        (
            Format::Text,
            "text",
            "aligned text for the terminal, with plain-language readings",
        ),
        (
            Format::Csv,
            "csv",
            "comma-separated values: every figure, as table,row,figure,value",
        ),
        (Format::Json, "json", "one JSON object"),
        (Format::Markdown, "markdown", "GitHub-flavoured Markdown"),
    ];

    /// The format named `name` (`md` for Markdown too).
    pub fn parse(name: &str) -> Option<Format> {
        let n = crate::text::normalize(name);
        let n = if n == "md" { "markdown".to_string() } else { n };
        Format::ALL
            .iter()
            .find(|(_, key, _)| *key == n)
            .map(|(f, _, _)| *f)
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        Format::ALL
            .iter()
            .find(|(f, _, _)| *f == self)
            .map_or("text", |(_, key, _)| key)
    }
}

/// Turns a report into the bytes of one format.
pub trait Exporter {
    /// Renders the report.
    fn render(&self, report: &Report) -> Result<String>;
}

/// The exporter for a format.
pub fn exporter(format: Format) -> Box<dyn Exporter> {
    match format {
        Format::Text => Box::new(TextExporter::default()),
        Format::Csv => Box::new(CsvExporter),
        Format::Json => Box::new(JsonExporter),
        Format::Markdown => Box::new(MarkdownExporter),
    }
}

/// Renders `report` in `format`, text with every row on one line (files kept as data).
pub fn render(report: &Report, format: Format) -> Result<String> {
    exporter(format).render(report)
}

/// The report's first table as a wide CSV ([`table_csv`]): sheet files; a report without
/// tables gives its key figures as one row.
pub fn sheet_csv(report: &Report) -> Result<String> {
    match report.tables.first() {
        Some(t) => table_csv(t),
        None => {
            let mut t = Table::new("figures", "", &[]);
            t.columns = report.fields.iter().map(|f| f.key.clone()).collect();
            t.labels = report.fields.iter().map(|f| f.label.clone()).collect();
            t.rows
                .push(report.fields.iter().map(|f| f.value.clone()).collect());
            table_csv(&t)
        }
    }
}

/// Renders `report` in `format`, text fitted to `width` columns (`None`: one line per row).
/// The other formats do not depend on a width.
pub fn render_fitted(report: &Report, format: Format, width: Option<usize>) -> Result<String> {
    match (format, width) {
        (Format::Text, Some(w)) => TextExporter::fitted(w).render(report),
        _ => render(report, format),
    }
}

/// Writes `content` to `path` atomically: a temporary file in the same folder, then a rename.
/// A reader never sees a half-written file, and an existing file is replaced only on success.
/// The file gets the permissions `File::create` would give it (0666 less the umask on Unix),
/// or keeps those of the file it replaces. Errors name `path`, never the temporary file.
///
/// Only regular files (or none yet) are replaced so ([`paths::target_of`]): a device, FIFO or
/// terminal is opened and written in place, and a symlink keeps pointing where it did, at the
/// new content. Temporary files that killed processes left in the folder are removed first.
pub fn write_atomic(path: &Path, content: &[u8]) -> Result<()> {
    write_atomic_with(path, &mut |w| w.write_all(content))
}

/// [`write_atomic`] for content too large to hold at once: `write` streams it (buffered).
pub fn write_atomic_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let shown = path.display();
    if path.is_dir() {
        return Err(Error::usage(format!(
            "cannot write '{shown}': it is a directory; give a file path"
        )));
    }
    let real = match paths::target_of(path) {
        paths::Target::Direct(p) => {
            let written = std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .and_then(|f| {
                    let mut w = std::io::BufWriter::new(f);
                    write(&mut w).and_then(|_| w.flush())
                });
            return written.map_err(|e| Error::usage(format!("cannot write '{shown}': {e}")));
        }
        paths::Target::Replace(real) => real,
    };
    let dir = match real.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    paths::remove_stale_temps(dir);
    let (tmp, file) = paths::create_temp(dir).map_err(|e| {
        Error::usage(format!(
            "cannot write '{shown}': {e}; give a path in an existing, writable folder"
        ))
    })?;
    let written = (|| {
        #[cfg(unix)]
        if let Ok(old) = std::fs::metadata(&real) {
            // Replacing a file keeps its mode.
            file.set_permissions(old.permissions())?;
        }
        let mut w = std::io::BufWriter::new(file);
        write(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, &real)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::usage(format!("cannot write '{shown}': {e}"))
    })
}

/// Writes `content` to `path` (atomically) or to stdout when `path` is `None` or `-`.
pub fn write_output(path: Option<&Path>, content: &str) -> Result<()> {
    match path {
        Some(p) if !paths::is_stdout(p) => write_atomic(p, content.as_bytes()),
        _ => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (e.g. `| head`) is not an error worth a message.
            let _ = out.write_all(content.as_bytes()).and_then(|_| out.flush());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> Report {
        let mut r = Report::new("Sample");
        r.field_plain("p", "P(true)", Value::Prob(0.0435), "about 1 in 23".into());
        r.field("n", "samples", Value::Int(1_000_000));
        r.field("ci95", "95 % interval", Value::ProbInterval(0.04, 0.05));
        let mut t = Table::new("grid", "Grid", &[("q", "quantity"), ("p", "P(true)")]);
        t.push(vec![Value::Int(1), Value::Prob(0.5)]);
        t.push(vec![Value::Int(2), Value::Prob(0.25)]);
        r.tables.push(t);
        r.note("a note, with a comma");
        r
    }

    #[test]
    fn every_format_renders_the_figures() {
        let r = sample();
        let text = render(&r, Format::Text).unwrap();
        assert!(
            text.contains("4.35 %") && text.contains("about 1 in 23") && text.contains("1,000,000")
        );
        let md = render(&r, Format::Markdown).unwrap();
        assert!(
            md.contains("| quantity | P(true) |") && md.contains("| 2 | 25.00 % |"),
            "{md}"
        );
        assert!(
            md.contains("| figure | value | in words |")
                && md.contains("| P(true) | 4.35 % | about 1 in 23 |")
                && md.contains("| samples | 1,000,000 |  |"),
            "{md}"
        );
        let csv = render(&r, Format::Csv).unwrap();
        assert_eq!(
            csv,
            "table,row,figure,value\nfigures,1,p,0.0435\nfigures,1,n,1000000\n\
             figures,1,ci95_low,0.04\nfigures,1,ci95_high,0.05\n\
             grid,1,q,1\ngrid,1,p,0.5\ngrid,2,q,2\ngrid,2,p,0.25\n"
        );
        assert_eq!(sheet_csv(&r).unwrap(), "q,p\n1,0.5\n2,0.25\n");
        let json: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Json).unwrap()).unwrap();
        assert_eq!(json["p"], 0.0435);
        assert_eq!(json["ci95"], serde_json::json!([0.04, 0.05]));
        assert_eq!(json["tables"]["grid"][1]["p"], 0.25);
    }

    #[test]
    fn csv_tables_split_intervals_into_two_columns() {
        let mut r = Report::new("t");
        let mut t = Table::new("t", "T", &[("seat", "seat"), ("ci95", "95 %")]);
        t.push(vec![Value::Int(1), Value::ProbInterval(0.25, 0.5)]);
        t.push(vec![Value::Int(2), Value::Empty]);
        r.tables.push(t);
        assert_eq!(
            sheet_csv(&r).unwrap(),
            "seat,ci95_low,ci95_high\n1,0.25,0.5\n2,,\n"
        );
        let csv = render(&r, Format::Csv).unwrap();
        assert_eq!(
            csv,
            "table,row,figure,value\nt,1,seat,1\nt,1,ci95_low,0.25\nt,1,ci95_high,0.5\nt,2,seat,2\nt,2,ci95,\n"
        );
    }

    #[test]
    fn names_for_people_identifiers_for_machines() {
        let mut r = Report::new("t");
        r.field(
            "rules",
            "rules",
            Value::Label("Chimbo 9".into(), "chimbo9".into()),
        );
        r.field("x", "x", Value::Num(-0.00001, 4));
        assert!(render(&r, Format::Text).unwrap().contains("Chimbo 9"));
        assert!(render(&r, Format::Text).unwrap().contains(" 0.0000"));
        assert_eq!(
            render(&r, Format::Csv).unwrap(),
            "table,row,figure,value\nfigures,1,rules,chimbo9\nfigures,1,x,-0.00001\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Json).unwrap()).unwrap();
        assert_eq!(json["rules"], "chimbo9");
    }

    #[test]
    fn sheet_csv_without_tables_is_one_row_of_fields() {
        let mut r = sample();
        r.tables.clear();
        assert_eq!(
            sheet_csv(&r).unwrap(),
            "p,n,ci95_low,ci95_high\n0.0435,1000000,0.04,0.05\n"
        );
    }

    #[test]
    fn machines_read_fractions_typed_values_and_settings() {
        let mut r = Report::new("t");
        r.setting("game", Value::Text("dudo".into()));
        r.setting("players", Value::Int(4));
        r.field("difference", "difference (points)", Value::RateDiff(0.0044));
        r.field("ci", "95 %", Value::RateDiffInterval(-0.01, 0.02));
        r.field("hand", "your dice", Value::dice([1, 4, 4, 2, 6]));
        r.field("certain", "certain", Value::Bool(true));
        r.field(
            "bid",
            "bid",
            Value::Record(
                "15 cuadras".into(),
                vec![
                    ("quantity".into(), Value::Int(15)),
                    ("face".into(), Value::Int(4)),
                ],
            ),
        );
        let text = render(&r, Format::Text).unwrap();
        for shown in ["0.44", "[-1.00, 2.00]", "1,4,4,2,6", "yes", "15 cuadras"] {
            assert!(text.contains(shown), "{shown}: {text}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Json).unwrap()).unwrap();
        assert_eq!(json["settings"]["game"], "dudo");
        assert_eq!(json["settings"]["players"], 4);
        assert_eq!(json["difference"], 0.0044);
        assert_eq!(json["ci"], serde_json::json!([-0.01, 0.02]));
        assert_eq!(json["hand"], serde_json::json!([1, 4, 4, 2, 6]));
        assert_eq!(json["certain"], true);
        assert_eq!(json["bid"], serde_json::json!({"quantity": 15, "face": 4}));
        assert_eq!(
            render(&r, Format::Csv).unwrap(),
            "table,row,figure,value\nsettings,1,game,dudo\nsettings,1,players,4\n\
             figures,1,difference,0.0044\nfigures,1,ci_low,-0.01\nfigures,1,ci_high,0.02\n\
             figures,1,hand,\"1,4,4,2,6\"\nfigures,1,certain,true\n\
             figures,1,bid_quantity,15\nfigures,1,bid_face,4\n"
        );
    }

    #[test]
    fn numbers_lose_only_arithmetic_noise() {
        assert_eq!(tidy(6.4312499999999995), 6.43125);
        assert_eq!(tidy(0.1 + 0.2), 0.3);
        assert_eq!(tidy(5.166666666666665).to_string(), "5.16666666666667");
        for x in [
            0.0,
            1.0,
            -1.0,
            1e-300,
            4.35e-20,
            123456789.0,
            0.0435,
            f64::MAX,
        ] {
            assert_eq!(tidy(x), x, "{x}");
        }
        assert!(tidy(f64::NAN).is_nan());
        // Never more than 15 significant digits' worth off.
        for x in [std::f64::consts::PI, 1.0 / 3.0, 2.0f64.sqrt() * 1e10] {
            assert!(((tidy(x) - x) / x).abs() < 1e-14, "{x}");
        }
        let r = {
            let mut r = Report::new("t");
            r.field("x", "x", Value::Num(6.4312499999999995, 2));
            r
        };
        assert!(render(&r, Format::Csv).unwrap().ends_with("x,6.43125\n"));
        assert!(
            render(&r, Format::Json)
                .unwrap()
                .contains("6.4312499999999995"),
            "JSON keeps every bit"
        );
        assert_eq!(
            sheet_csv(&r).unwrap(),
            "x\n6.4312499999999995\n",
            "sheets keep every bit"
        );
    }

    #[test]
    fn atomic_write_replaces_and_reports_bad_paths() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
        let e = write_atomic(&dir.path().join("missing/out.txt"), b"x").unwrap_err();
        assert!(e.to_string().contains("missing/out.txt"), "{e}");
        assert!(!e.to_string().contains(".tahur-"), "{e}");
        let e = write_atomic(dir.path(), b"x").unwrap_err();
        assert!(e.to_string().contains("directory"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_the_mode_it_replaces() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        write_atomic(&p, b"one").unwrap();
        assert_eq!(mode(&p) & 0o600, 0o600, "created as File::create creates");
        assert_eq!(mode(&p) & 0o111, 0, "not executable");
        for kept in [0o640, 0o604, 0o666] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(kept)).unwrap();
            write_atomic(&p, b"two").unwrap();
            assert_eq!(mode(&p), kept);
        }
    }
}
