//! SVG charts in one house style, drawn with plotters.
//!
//! Every chart the tool draws goes through this module, so every game gets the same picture:
//! a title that fits the canvas (wrapped, then shrunk), a legend in its own band under the title
//! (it never covers data), axis titles on both axes, tick labels on "nice" steps (1, 2 or 5 times
//! a power of ten) with exactly the decimals the step needs, percentages shown as %, reference
//! lines dashed and named in the legend, bars for discrete distributions with few values, and a
//! y range that holds every value drawn. Text is laid out with the metrics of the DejaVu Sans
//! font compiled into the binary, and written as outlines of that font (see [`outline_text`]),
//! so a chart looks the same in every viewer whether or not the font is installed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Once, OnceLock};

use ab_glyph::{Font, FontRef, OutlineCurve, ScaleFont};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::error::{Error, Result};

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

/// The font family every chart uses (the embedded DejaVu Sans).
const FAMILY: &str = "DejaVu Sans";
/// Canvas size in pixels.
pub const SIZE: (u32, u32) = (900, 560);
/// Title size, and the smallest a long title is shrunk to.
const TITLE: f64 = 22.0;
const TITLE_MIN: f64 = 14.0;
/// Tick labels and legend text.
const LABEL: f64 = 14.0;
/// Axis titles.
const DESC: f64 = 16.0;
/// Space kept free around the canvas edge.
const EDGE: f64 = 12.0;
/// The note under the plot (game count, partial run).
const NOTE: f64 = 12.0;

fn register_font() {
    REGISTER.call_once(|| {
        // The font is compiled in and known to be valid; a failure would show in every chart test.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

fn font() -> &'static FontRef<'static> {
    static PARSED: OnceLock<FontRef<'static>> = OnceLock::new();
    PARSED.get_or_init(|| FontRef::try_from_slice(FONT).expect("the embedded font parses"))
}

/// The width in pixels of `text` at plotters' font size `size`, measured as plotters measures it
/// (so layouts made with it agree with plotters' own placement).
pub fn text_width(text: &str, size: f64) -> f64 {
    let f = font().as_scaled(size as f32);
    let mut width = 0f32;
    let mut prev = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        width += f.h_advance(id);
        if let Some(p) = prev {
            width += f.kern(p, id);
        }
        prev = Some(id);
    }
    width as f64
}

/// Tick positions on a "nice" step, in display units (percent already multiplied by 100).
#[derive(Clone, Debug, PartialEq)]
pub struct Ticks {
    /// The tick values, lowest first.
    pub values: Vec<f64>,
    /// The step between ticks: 1, 2 or 5 times a power of ten.
    pub step: f64,
    /// Decimals a label needs to show the step exactly.
    pub decimals: usize,
    /// The axis range: `lo..hi`.
    pub lo: f64,
    /// The axis range: `lo..hi`.
    pub hi: f64,
}

impl Ticks {
    /// About `target` ticks over `lo..hi`. With `expand` the range grows to whole steps (value
    /// axes); without it the range stays and only ticks inside it are kept (position axes).
    /// `integer` axes (counts) never step below 1.
    pub fn nice(lo: f64, hi: f64, target: usize, integer: bool, expand: bool) -> Ticks {
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        if hi - lo < 1e-12 * lo.abs().max(1.0) {
            // One value: give it room on both sides (or above, from zero).
            let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
            if lo >= 0.0 && lo - pad < 0.0 {
                lo = 0.0;
            } else {
                lo -= pad;
            }
            hi += pad;
        }
        let raw = (hi - lo) / target.max(1) as f64;
        let magnitude = 10f64.powf(raw.log10().floor());
        let normalised = raw / magnitude;
        let factor = if normalised <= 1.0 {
            1.0
        } else if normalised <= 2.0 {
            2.0
        } else if normalised <= 5.0 {
            5.0
        } else {
            10.0
        };
        let mut step = factor * magnitude;
        if integer && step < 1.0 {
            step = 1.0;
        }
        let decimals = if step >= 1.0 {
            0
        } else {
            (-(step.log10().floor())).clamp(0.0, 15.0) as usize
        };
        // A bound within rounding noise of a multiple of the step is that multiple.
        let first = (lo / step + 1e-9).floor() as i64;
        let last = (hi / step - 1e-9).ceil() as i64;
        let at = |k: i64| round_to(k as f64 * step, decimals);
        let (lo, hi) = if expand {
            (at(first), at(last))
        } else {
            (lo, hi)
        };
        let values = (first..=last)
            .map(at)
            .filter(|v| *v >= lo - step * 1e-9 && *v <= hi + step * 1e-9)
            .collect();
        Ticks {
            values,
            step,
            decimals,
            lo,
            hi,
        }
    }

    /// A tick's label: the step's decimals, `%` on percentage axes, never `-0`.
    pub fn label(&self, v: f64, percent: bool) -> String {
        let d = self.decimals;
        let v = round_to(v, d) + 0.0;
        if percent {
            format!("{v:.d$} %")
        } else {
            format!("{v:.d$}")
        }
    }
}

fn round_to(x: f64, decimals: usize) -> f64 {
    let scale = 10f64.powi(decimals as i32);
    (x * scale).round() / scale + 0.0
}

/// A numeric axis whose ticks are exactly the given values (plotters' own choice of ticks
/// would not match [`Ticks`]).
#[derive(Clone)]
struct KeyedAxis {
    lo: f64,
    hi: f64,
    keys: Vec<f64>,
}

impl KeyedAxis {
    fn new(lo: f64, hi: f64, keys: Vec<f64>) -> Self {
        Self { lo, hi, keys }
    }
}

impl Ranged for KeyedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        if span <= 0.0 {
            return (limit.0 + limit.1) / 2;
        }
        let share = (v - self.lo) / span;
        limit.0 + ((limit.1 - limit.0) as f64 * share).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, _hint: H) -> Vec<f64> {
        self.keys.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// How an axis shows its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Probabilities and shares (data in 0..1), shown as %.
    Percent,
    /// Plain numbers (e.g. expected values).
    Number,
    /// Whole numbers (counts, totals, quantities).
    Count,
    /// Positive numbers on a logarithmic axis (line charts' y axis: a quantity falling over
    /// decades, such as an exploitability); other charts show them as plain numbers.
    Log,
}

impl Unit {
    fn scale(self) -> f64 {
        if self == Unit::Percent {
            100.0
        } else {
            1.0
        }
    }
}

/// A labelled horizontal reference line (the fair share, zero, 50 %), drawn dashed and named
/// in the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct RefLine {
    /// The level, in data units.
    pub value: f64,
    /// What it is ("fair share 25.0 %", "break-even"); lines with one label share one entry.
    pub label: String,
}

impl RefLine {
    /// A reference line.
    pub fn new(value: f64, label: impl Into<String>) -> Self {
        Self {
            value,
            label: label.into(),
        }
    }
}

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label (a chart of one series with an empty label has no legend).
    pub label: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
}

/// A line chart: one or more series over a numeric x axis.
#[derive(Clone, Debug)]
pub struct LineChart {
    /// Title above the plot.
    pub title: String,
    /// X axis title.
    pub x_label: String,
    /// How the x axis shows its values.
    pub x_unit: Unit,
    /// Y axis title.
    pub y_label: String,
    /// How the y axis shows its values.
    pub y_unit: Unit,
    /// The lines.
    pub series: Vec<Series>,
    /// Horizontal reference lines.
    pub marks: Vec<RefLine>,
}

/// One bar with its interval.
#[derive(Clone, Debug)]
pub struct Bar {
    /// Label under the bar.
    pub label: String,
    /// Height.
    pub value: f64,
    /// Interval drawn as a whisker (not drawn unless both ends are finite).
    pub low: f64,
    /// Interval drawn as a whisker.
    pub high: f64,
}

impl Bar {
    /// A bar without an interval.
    pub fn plain(label: impl Into<String>, value: f64) -> Self {
        Self {
            label: label.into(),
            value,
            low: f64::NAN,
            high: f64::NAN,
        }
    }
}

/// A bar chart over categories, with interval whiskers (e.g. win share by seat with 95 %
/// intervals) or without (a distribution over a few whole values).
#[derive(Clone, Debug)]
pub struct BarChart {
    /// Title above the plot.
    pub title: String,
    /// X axis title (what the categories are: seat, strategy, rule change, rounds).
    pub x_label: String,
    /// Y axis title.
    pub y_label: String,
    /// How the y axis shows its values.
    pub y_unit: Unit,
    /// The bars, left to right.
    pub bars: Vec<Bar>,
    /// What a bar shows, named in the legend with its whisker ("durak rate, 95 % interval");
    /// `None` for a chart that needs no legend.
    pub bar_legend: Option<String>,
    /// Reference levels (the fair share, break-even).
    pub marks: Vec<RefLine>,
}

/// One row of a dot plot: an estimate and its interval.
#[derive(Clone, Debug)]
pub struct Dot {
    /// The row's name, left of the plot (wrapped at spaces only, never inside a name).
    pub label: String,
    /// The estimate.
    pub value: f64,
    /// Interval drawn as a whisker (not drawn unless both ends are finite).
    pub low: f64,
    /// Interval drawn as a whisker.
    pub high: f64,
}

/// A dot plot: one row per category, each estimate a dot with its interval as a whisker on a
/// numeric x axis, with a reference line (a paired difference's zero: no change). What the
/// data of a comparison needs: the few points that matter are the width of the plot.
#[derive(Clone, Debug)]
pub struct DotChart {
    /// Title above the plot.
    pub title: String,
    /// X axis title (what the dots are: "change of the first attacker's edge (points)").
    pub x_label: String,
    /// How the x axis shows its values.
    pub x_unit: Unit,
    /// The rows, top to bottom.
    pub dots: Vec<Dot>,
    /// What a dot shows, named in the legend with its whisker.
    pub dot_legend: String,
    /// Vertical reference lines (zero: as given).
    pub marks: Vec<RefLine>,
}

/// Any chart the tool draws.
#[derive(Clone, Debug)]
pub enum Chart {
    /// A line chart.
    Line(LineChart),
    /// A bar chart.
    Bar(BarChart),
    /// A dot plot of estimates with intervals.
    Dot(DotChart),
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A chart drawn with plotters: rendered to SVG and written atomically.
pub trait SvgChart {
    /// Draws the chart on a drawing area of [`SIZE`].
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>>;

    /// Renders the chart to an SVG string.
    fn to_svg(&self) -> Result<String> {
        self.to_svg_noted("")
    }

    /// Renders the chart to an SVG string with `note` (what the figures rest on: "10,000
    /// games · seed 1", "partial: …") in a band under the plot, right-aligned; no band when
    /// `note` is empty.
    fn to_svg_noted(&self, note: &str) -> Result<String> {
        register_font();
        let fail = |e: String| Error::Internal(format!("chart: {e}"));
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            if note.is_empty() {
                self.draw(&root).map_err(|e| fail(e.to_string()))?;
            } else {
                root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
                let band = line_height(NOTE) + 6.0;
                let (plot, foot) = root.split_vertically(SIZE.1 - band as u32);
                self.draw(&plot).map_err(|e| fail(e.to_string()))?;
                let (w, _) = foot.dim_in_pixel();
                let text = truncate(note, NOTE, w as f64 - 2.0 * EDGE);
                let grey = BLACK.mix(0.7);
                let right = style(NOTE)
                    .color(&grey)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Right,
                        plotters::style::text_anchor::VPos::Top,
                    ));
                foot.draw_text(&text, &right, ((w as f64 - EDGE) as i32, 0))
                    .map_err(|e| fail(e.to_string()))?;
            }
            root.present().map_err(|e| fail(e.to_string()))?;
        }
        Ok(outline_text(&svg))
    }

    /// Renders the chart and writes it atomically to `path`: a PNG when the name ends in
    /// `.png` (any case), else SVG.
    fn write(&self, path: &Path) -> Result<()> {
        self.write_noted(path, "")
    }

    /// [`SvgChart::write`] with `note` under the plot ([`SvgChart::to_svg_noted`]).
    fn write_noted(&self, path: &Path, note: &str) -> Result<()> {
        write_chart(path, &self.to_svg_noted(note)?)
    }
}

/// What a chart's figures rest on, for its note: "10,000 games · seed 1", or "partial:
/// 1,927 of 10,000 games · seed 1" for a run cut short.
pub fn run_note(unit: &str, done: u64, requested: u64, seed: u64) -> String {
    use crate::humanize::thousands;
    if done < requested {
        format!(
            "partial: {} of {} {unit} · seed {seed}",
            thousands(done),
            thousands(requested)
        )
    } else {
        format!("{} {unit} · seed {seed}", thousands(done))
    }
}

/// Whether `path` names a PNG file (`.png`, any case).
pub fn is_png(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("png"))
}

/// Writes a chart's SVG to `path` atomically, rasterised to PNG when the name says so.
pub fn write_chart(path: &Path, svg: &str) -> Result<()> {
    if is_png(path) {
        super::write_atomic(path, &png(svg, PNG_SCALE)?)
    } else {
        super::write_atomic(path, svg.as_bytes())
    }
}

/// Pixels per SVG unit in PNG charts: twice the drawing size, sharp on high-density screens
/// and in print.
pub const PNG_SCALE: f32 = 2.0;

/// `svg` rasterised at `scale` pixels per unit on white, encoded as PNG (pure Rust: resvg
/// and tiny-skia; the charts' text is already outlines, so no font is needed).
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let fail = |what: String| Error::Internal(format!("chart as PNG: {what}"));
    let tree =
        usvg::Tree::from_str(svg, &usvg::Options::default()).map_err(|e| fail(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| fail(format!("no {w}×{h} canvas")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| fail(e.to_string()))
}

impl SvgChart for Chart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Chart::Line(c) => c.draw(root),
            Chart::Bar(c) => c.draw(root),
            Chart::Dot(c) => c.draw(root),
        }
    }
}

/// A legend entry's sample.
#[derive(Clone, Copy, Debug)]
enum Swatch {
    Line(RGBColor),
    BarWithWhisker(RGBColor),
    Dashed,
}

/// Cuts `text` to fit `max_w` at `size`, ending it with "…".
fn truncate(text: &str, size: f64, max_w: f64) -> String {
    if text_width(text, size) <= max_w {
        return text.to_string();
    }
    let mut s: String = text.to_string();
    while !s.is_empty() && text_width(&format!("{s}…"), size) > max_w {
        s.pop();
    }
    format!("{}…", s.trim_end())
}

/// Lines and size that make `text` fit `max_w`: one line at the largest size from `sizes` that
/// fits, else wrapped at spaces (never inside a name) into up to `max_lines` lines, else the
/// last lines cut with "…".
fn fit(text: &str, sizes: &[f64], max_w: f64, max_lines: usize) -> (Vec<String>, f64) {
    for &s in sizes {
        if text_width(text, s) <= max_w {
            return (vec![text.to_string()], s);
        }
    }
    for &s in sizes {
        if let Some(lines) = wrap_words(text, s, max_w, max_lines) {
            return (lines, s);
        }
    }
    let s = *sizes.last().unwrap_or(&LABEL);
    let mut lines = wrap_words(text, s, max_w, usize::MAX)
        .or_else(|| wrap_words(text, s, f64::INFINITY, usize::MAX))
        .unwrap_or_default();
    if lines.len() > max_lines {
        let rest = lines.split_off(max_lines - 1).join(" ");
        lines.push(rest);
    }
    let lines = lines.iter().map(|l| truncate(l, s, max_w)).collect();
    (lines, s)
}

fn line_height(size: f64) -> f64 {
    (size * 1.25).ceil()
}

fn style(size: f64) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(&BLACK)
}

/// Draws the title and the legend band; returns the area left for the plot.
fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    legend: &[(Swatch, String)],
) -> std::result::Result<DrawingArea<DB, plotters::coord::Shift>, DrawingAreaErrorKind<DB::ErrorType>>
{
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let width = w as f64;
    let sizes: Vec<f64> = (0..=4).map(|k| TITLE - 2.0 * k as f64).collect();
    let (lines, size) = fit(title, &sizes, width - 2.0 * EDGE, 2);
    let size = size.max(TITLE_MIN);
    let mut y = EDGE;
    let centred = style(size).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Top,
    ));
    for l in &lines {
        root.draw_text(l, &centred, ((width / 2.0) as i32, y as i32))?;
        y += line_height(size);
    }
    y += 4.0;
    if !legend.is_empty() {
        // Entries flow left to right in rows, each row centred.
        let gap = 22.0;
        let sample = 24.0;
        let max_w = width - 2.0 * EDGE;
        let entries: Vec<(Swatch, String, f64)> = legend
            .iter()
            .map(|(s, l)| {
                let l = truncate(l, LABEL, max_w - sample - 6.0);
                let w = sample + 6.0 + text_width(&l, LABEL);
                (*s, l, w)
            })
            .collect();
        let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
        let mut used = 0.0;
        for (i, e) in entries.iter().enumerate() {
            let need = if used == 0.0 { e.2 } else { used + gap + e.2 };
            if need > max_w && used > 0.0 {
                rows.push(vec![i]);
                used = e.2;
            } else {
                rows.last_mut().expect("a row").push(i);
                used = need;
            }
        }
        let left = style(LABEL).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
        for row in rows {
            let total: f64 =
                row.iter().map(|&i| entries[i].2).sum::<f64>() + gap * (row.len() - 1) as f64;
            let mut x = (width - total) / 2.0;
            let cy = y + line_height(LABEL) / 2.0;
            for &i in &row {
                let (swatch, label, w) = &entries[i];
                let (x0, x1, yc) = (x as i32, (x + sample) as i32, cy as i32);
                match *swatch {
                    Swatch::Line(c) => {
                        root.draw(&PathElement::new([(x0, yc), (x1, yc)], c.stroke_width(2)))?;
                        root.draw(&Circle::new(((x0 + x1) / 2, yc), 3, c.filled()))?;
                    }
                    Swatch::BarWithWhisker(c) => {
                        root.draw(&Rectangle::new(
                            [(x0 + 4, yc - 6), (x1 - 4, yc + 7)],
                            c.mix(0.8).filled(),
                        ))?;
                        let m = (x0 + x1) / 2;
                        root.draw(&PathElement::new(
                            [(m, yc - 9), (m, yc + 3)],
                            BLACK.stroke_width(2),
                        ))?;
                    }
                    Swatch::Dashed => {
                        root.draw(&PathElement::new(
                            [(x0, yc), (x0 + 8, yc)],
                            BLACK.mix(0.7).stroke_width(2),
                        ))?;
                        root.draw(&PathElement::new(
                            [(x1 - 8, yc), (x1, yc)],
                            BLACK.mix(0.7).stroke_width(2),
                        ))?;
                    }
                }
                root.draw_text(label, &left, ((x + sample + 6.0) as i32, cy as i32))?;
                x += w + gap;
            }
            y += line_height(LABEL) + 2.0;
        }
        y += 4.0;
    }
    Ok(root.split_vertically(y as u32).1)
}

/// The legend entries of reference lines, one per distinct label.
fn mark_entries(marks: &[RefLine]) -> Vec<(Swatch, String)> {
    let mut seen: Vec<String> = Vec::new();
    for m in marks {
        if !seen.contains(&m.label) {
            seen.push(m.label.clone());
        }
    }
    seen.into_iter().map(|l| (Swatch::Dashed, l)).collect()
}

/// The y range (display units) that holds `values` (and zero when `zero`); a percentage axis
/// whose values lie in 0–100 % stays within it.
fn value_ticks(values: impl Iterator<Item = f64>, zero: bool, unit: Unit) -> Ticks {
    let integer = unit == Unit::Count;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    // A little headroom so that a value on the edge is not drawn on the frame.
    let pad = (hi - lo) * 0.03;
    let mut lo2 = if zero && lo == 0.0 { lo } else { lo - pad };
    let mut hi2 = if zero && hi == 0.0 { hi } else { hi + pad };
    if unit == Unit::Percent {
        if lo >= 0.0 {
            lo2 = lo2.max(0.0);
        }
        if hi <= 100.0 {
            hi2 = hi2.min(100.0);
        }
    }
    let (lo, hi) = (lo2, hi2);
    Ticks::nice(lo, hi, 8, integer, true)
}

/// Width of the y label area: the widest tick label, a gap, the rotated axis title.
fn y_area(ticks: &Ticks, percent: bool) -> f64 {
    y_area_of(ticks, &|v| ticks.label(v, percent))
}

/// [`y_area`] with the labels `label` gives.
fn y_area_of(ticks: &Ticks, label: &dyn Fn(f64) -> String) -> f64 {
    let widest = ticks
        .values
        .iter()
        .map(|&v| text_width(&label(v), LABEL))
        .fold(0.0, f64::max);
    (widest + 14.0 + line_height(DESC) + 4.0).ceil()
}

/// Ticks of a logarithmic axis over the positive `values`, in decades (log10 units): each power
/// of ten, and 2 and 5 times it when the values span at most two decades.
fn log_ticks(values: impl Iterator<Item = f64>) -> Ticks {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v.log10());
        hi = hi.max(v.log10());
    }
    let (lo, hi) = if lo.is_finite() {
        // Whole decades around the values (a value on a power of ten gets one more above).
        let (a, b) = ((lo + 1e-9).floor(), (hi - 1e-9).ceil());
        (a, if b > a { b } else { a + 1.0 })
    } else {
        (-3.0, 0.0)
    };
    let fine = hi - lo <= 2.0;
    let mut values = Vec::new();
    let mut d = lo;
    while d <= hi + 1e-9 {
        values.push(d);
        if fine && d < hi - 1e-9 {
            values.extend([d + 2f64.log10(), d + 5f64.log10()]);
        }
        d += 1.0;
    }
    Ticks {
        values,
        step: 1.0,
        decimals: 0,
        lo,
        hi,
    }
}

/// A label of a logarithmic axis's tick at `decades` (log10 units): the value it stands for.
fn log_label(decades: f64) -> String {
    crate::humanize::significant(10f64.powf(decades), 1)
}

const MARGIN_LEFT: f64 = EDGE;
const MARGIN_RIGHT: f64 = 28.0;

impl SvgChart for LineChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        // One unnamed series needs no legend.
        let mut legend: Vec<(Swatch, String)> = self
            .series
            .iter()
            .enumerate()
            .filter(|(_, s)| self.series.len() > 1 || !s.label.is_empty())
            .map(|(i, s)| (Swatch::Line(colour(i)), s.label.clone()))
            .collect();
        legend.extend(mark_entries(&self.marks));
        let plot = frame(root, &self.title, &legend)?;
        let (xs, ys) = (self.x_unit.scale(), self.y_unit.scale());
        let points = || self.series.iter().flat_map(|s| s.points.iter());
        let (x_lo, x_hi) = points()
            .map(|p| p.0 * xs)
            .filter(|x| x.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let x_ticks = Ticks::nice(x_lo, x_hi, 10, self.x_unit == Unit::Count, false);
        let (x_lo, x_hi) = if x_ticks.hi > x_ticks.lo {
            (x_ticks.lo, x_ticks.hi)
        } else {
            (x_ticks.lo - 1.0, x_ticks.hi + 1.0)
        };
        let log = self.y_unit == Unit::Log;
        // Where a value sits on the y axis (log10 units on a logarithmic one; a value it cannot
        // show comes out NaN or infinite and is left out).
        let y_at = |v: f64| if log { v.log10() } else { v * ys };
        let y_ticks = if log {
            log_ticks(
                points()
                    .map(|p| p.1)
                    .chain(self.marks.iter().map(|m| m.value)),
            )
        } else {
            value_ticks(
                points()
                    .map(|p| p.1 * ys)
                    .chain(self.marks.iter().map(|m| m.value * ys)),
                self.y_unit == Unit::Percent,
                self.y_unit,
            )
        };
        let yp = self.y_unit == Unit::Percent;
        let y_label = |y: f64| {
            if log {
                log_label(y)
            } else {
                y_ticks.label(y, yp)
            }
        };
        let x_area = line_height(LABEL) + 10.0 + line_height(DESC) + 4.0;
        let mut chart = ChartBuilder::on(&plot)
            .margin_left(MARGIN_LEFT as u32)
            .margin_right(MARGIN_RIGHT as u32)
            .margin_top(6)
            .margin_bottom(EDGE as u32)
            .x_label_area_size(x_area as u32)
            .y_label_area_size(y_area_of(&y_ticks, &y_label) as u32)
            .build_cartesian_2d(
                KeyedAxis::new(x_lo, x_hi, x_ticks.values.clone()),
                KeyedAxis::new(y_ticks.lo, y_ticks.hi, y_ticks.values.clone()),
            )?;
        let xp = self.x_unit == Unit::Percent;
        chart
            .configure_mesh()
            .x_label_formatter(&|x| x_ticks.label(*x, xp))
            .y_label_formatter(&|y| y_label(*y))
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .label_style((FAMILY, LABEL))
            .axis_desc_style((FAMILY, DESC))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw()?;
        for m in self.marks.iter().filter(|m| y_at(m.value).is_finite()) {
            chart.draw_series(DashedLineSeries::new(
                [(x_lo, y_at(m.value)), (x_hi, y_at(m.value))],
                8,
                5,
                BLACK.mix(0.6).stroke_width(1),
            ))?;
        }
        for (i, s) in self.series.iter().enumerate() {
            let c = colour(i);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .map(|p| (p.0 * xs, y_at(p.1)))
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .collect();
            chart.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))?;
            if pts.len() <= 40 {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
            }
        }
        Ok(())
    }
}

/// How the category labels under the bars are drawn.
struct CategoryLabels {
    /// Per bar: its lines (empty: not labelled, to leave room for its neighbours).
    lines: Vec<Vec<String>>,
    size: f64,
}

impl CategoryLabels {
    fn new(bars: &[Bar], slot: f64) -> Self {
        let room = (slot - 6.0).max(8.0);
        let numeric = !bars.is_empty() && bars.iter().all(|b| b.label.parse::<i64>().is_ok());
        if numeric {
            // Whole values (a distribution): label every k-th value so that labels never touch.
            let widest = bars
                .iter()
                .map(|b| text_width(&b.label, LABEL))
                .fold(0.0, f64::max);
            let stride = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
                .into_iter()
                .find(|&k| widest + 6.0 <= slot * k as f64)
                .unwrap_or(1000);
            // Bins of a width (lengths 0, 20, 40, …) are labelled every `stride` bins.
            let step = match bars {
                [a, b, ..] => (b.label.parse::<i64>().unwrap_or(0)
                    - a.label.parse::<i64>().unwrap_or(0))
                .max(1),
                _ => 1,
            };
            let lines = bars
                .iter()
                .map(|b| {
                    let v: i64 = b.label.parse().unwrap_or(0);
                    if v.rem_euclid(stride * step) == 0 {
                        vec![b.label.clone()]
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            return Self { lines, size: LABEL };
        }
        let (lines, size) = fit_labels(bars.iter().map(|b| b.label.as_str()), room, 3);
        Self { lines, size }
    }

    fn rows(&self) -> usize {
        self.lines.iter().map(Vec::len).max().unwrap_or(1).max(1)
    }
}

impl SvgChart for BarChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let c = colour(0);
        let mut legend: Vec<(Swatch, String)> = self
            .bar_legend
            .iter()
            .map(|l| (Swatch::BarWithWhisker(c), l.clone()))
            .collect();
        legend.extend(mark_entries(&self.marks));
        let plot = frame(root, &self.title, &legend)?;
        let n = self.bars.len().max(1);
        let ys = self.y_unit.scale();
        // The range holds every finite value, whisker and reference, and zero (bars start
        // there); a whisker that could not be estimated (not finite) is not drawn.
        let y_ticks = value_ticks(
            self.bars
                .iter()
                .flat_map(|b| [b.value, b.low, b.high])
                .chain(self.marks.iter().map(|m| m.value))
                .map(|v| v * ys),
            true,
            self.y_unit,
        );
        let percent = self.y_unit == Unit::Percent;
        let y_w = y_area(&y_ticks, percent);
        let (w, _) = plot.dim_in_pixel();
        let slot = (w as f64 - MARGIN_LEFT - MARGIN_RIGHT - y_w) / n as f64;
        let labels = CategoryLabels::new(&self.bars, slot);
        let x_area =
            labels.rows() as f64 * line_height(labels.size) + 12.0 + line_height(DESC) + 4.0;
        let mut chart = ChartBuilder::on(&plot)
            .margin_left(MARGIN_LEFT as u32)
            .margin_right(MARGIN_RIGHT as u32)
            .margin_top(6)
            .margin_bottom(EDGE as u32)
            .x_label_area_size(x_area as u32)
            .y_label_area_size(y_w as u32)
            .build_cartesian_2d(
                KeyedAxis::new(-0.5, n as f64 - 0.5, Vec::new()),
                KeyedAxis::new(y_ticks.lo, y_ticks.hi, y_ticks.values.clone()),
            )?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_label_formatter(&|y| y_ticks.label(*y, percent))
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .label_style((FAMILY, LABEL))
            .axis_desc_style((FAMILY, DESC))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw()?;
        // Bars at most 120 pixels wide: one or two bars do not fill the plot.
        let half = (if n > 30 { 0.45 } else { 0.36f64 }).min(60.0 / slot.max(1.0));
        chart.draw_series(self.bars.iter().enumerate().map(|(i, b)| {
            let x = i as f64;
            Rectangle::new(
                [(x - half, 0.0), (x + half, b.value * ys)],
                c.mix(0.8).filled(),
            )
        }))?;
        if y_ticks.lo < 0.0 {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
                BLACK.mix(0.6).stroke_width(1),
            )))?;
        }
        let cap = (half * 0.35).min(0.12);
        for (i, b) in self.bars.iter().enumerate() {
            if !(b.low.is_finite() && b.high.is_finite()) {
                continue;
            }
            let x = i as f64;
            let (lo, hi) = (b.low * ys, b.high * ys);
            // An interval a few pixels tall gets no caps: three thick strokes on top of each
            // other would read as a black blot, not as "narrow".
            let tall = (chart.backend_coord(&(x, lo)).1 - chart.backend_coord(&(x, hi)).1).abs();
            let segments = if tall < 8 {
                vec![vec![(x, lo), (x, hi)]]
            } else {
                vec![
                    vec![(x, lo), (x, hi)],
                    vec![(x - cap, lo), (x + cap, lo)],
                    vec![(x - cap, hi), (x + cap, hi)],
                ]
            };
            for seg in segments {
                chart.draw_series(std::iter::once(PathElement::new(
                    seg,
                    BLACK.stroke_width(2),
                )))?;
            }
        }
        for m in &self.marks {
            chart.draw_series(DashedLineSeries::new(
                [(-0.5, m.value * ys), (n as f64 - 0.5, m.value * ys)],
                8,
                5,
                BLACK.mix(0.7).stroke_width(1),
            ))?;
        }
        // Category labels under the axis, centred on their bars.
        let top = style(labels.size).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
        for (i, lines) in labels.lines.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64, y_ticks.lo));
            for (k, l) in lines.iter().enumerate() {
                root.draw_text(
                    l,
                    &top,
                    (px, py + 8 + (k as f64 * line_height(labels.size)) as i32),
                )?;
            }
        }
        Ok(())
    }
}

/// Splits `text` at spaces into at most `max_lines` lines no wider than `max_w` at `size`;
/// `None` when a word (a name such as `five-before-discard=on`) or the lines do not fit.
fn wrap_words(text: &str, size: f64, max_w: f64, max_lines: usize) -> Option<Vec<String>> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= max_w => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    let fits = lines.iter().all(|l| text_width(l, size) <= max_w);
    (fits && lines.len() <= max_lines).then_some(lines)
}

/// Category labels at one size for all: the largest at which every label fits `room` in at
/// most `max_lines` lines broken at spaces. A name (`threshold:t=0.35`,
/// `five-before-discard=on`) is never cut: at the smallest size a label that still does not
/// fit keeps its words whole (one a line where several lines are allowed).
fn fit_labels<'a>(
    labels: impl Iterator<Item = &'a str> + Clone,
    room: f64,
    max_lines: usize,
) -> (Vec<Vec<String>>, f64) {
    const SIZES: [f64; 7] = [LABEL, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0];
    let size = SIZES
        .into_iter()
        .find(|&s| {
            labels
                .clone()
                .all(|l| wrap_words(l, s, room, max_lines).is_some())
        })
        .unwrap_or(SIZES[SIZES.len() - 1]);
    let lines = labels
        .map(|l| {
            wrap_words(l, size, room, max_lines).unwrap_or_else(|| {
                if max_lines > 1 {
                    l.split(' ')
                        .filter(|w| !w.is_empty())
                        .map(String::from)
                        .collect()
                } else {
                    vec![l.to_string()]
                }
            })
        })
        .collect();
    (lines, size)
}

impl SvgChart for DotChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let c = colour(0);
        let mut legend = vec![(Swatch::Line(c), self.dot_legend.clone())];
        legend.extend(mark_entries(&self.marks));
        let plot = frame(root, &self.title, &legend)?;
        let (w, h) = plot.dim_in_pixel();
        let n = self.dots.len().max(1);
        let xs = self.x_unit.scale();
        // Row labels: one size for all, the largest at which every label fits its band in at
        // most two lines broken at spaces; a name too long even so is shrunk, never cut.
        let band = (w as f64 * 0.32).min(300.0);
        let x_area = line_height(LABEL) + 10.0 + line_height(DESC) + 4.0;
        let row_h = ((h as f64 - x_area - 6.0 - EDGE) / n as f64).max(1.0);
        let max_lines = if row_h >= 2.0 * line_height(11.0) {
            2
        } else {
            1
        };
        let (lines, size) = fit_labels(
            self.dots.iter().map(|d| d.label.as_str()),
            band - 8.0,
            max_lines,
        );
        let x_ticks = value_ticks(
            self.dots
                .iter()
                .flat_map(|d| [d.value, d.low, d.high])
                .chain(self.marks.iter().map(|m| m.value))
                .map(|v| v * xs),
            true,
            self.x_unit,
        );
        let percent = self.x_unit == Unit::Percent;
        let mut chart = ChartBuilder::on(&plot)
            .margin_left(MARGIN_LEFT as u32)
            .margin_right(MARGIN_RIGHT as u32)
            .margin_top(6)
            .margin_bottom(EDGE as u32)
            .x_label_area_size(x_area as u32)
            .y_label_area_size(band as u32)
            .build_cartesian_2d(
                KeyedAxis::new(x_ticks.lo, x_ticks.hi, x_ticks.values.clone()),
                KeyedAxis::new(-0.5, n as f64 - 0.5, Vec::new()),
            )?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_label_formatter(&|x| x_ticks.label(*x, percent))
            .x_desc(self.x_label.as_str())
            .label_style((FAMILY, LABEL))
            .axis_desc_style((FAMILY, DESC))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw()?;
        // Row i from the top.
        let y = |i: usize| (n - 1 - i) as f64;
        for m in &self.marks {
            chart.draw_series(DashedLineSeries::new(
                [(m.value * xs, -0.5), (m.value * xs, n as f64 - 0.5)],
                8,
                5,
                BLACK.mix(0.7).stroke_width(1),
            ))?;
        }
        // Whisker caps a fixed few pixels tall: a narrow interval stays a dot with short
        // ticks, never a blot.
        let cap = (0.18f64).min(6.0 / row_h);
        for (i, d) in self.dots.iter().enumerate() {
            let yi = y(i);
            if d.low.is_finite() && d.high.is_finite() {
                let (lo, hi) = (d.low * xs, d.high * xs);
                for seg in [
                    vec![(lo, yi), (hi, yi)],
                    vec![(lo, yi - cap), (lo, yi + cap)],
                    vec![(hi, yi - cap), (hi, yi + cap)],
                ] {
                    chart.draw_series(std::iter::once(PathElement::new(seg, c.stroke_width(2))))?;
                }
            }
            if d.value.is_finite() {
                chart.draw_series(std::iter::once(Circle::new(
                    (d.value * xs, yi),
                    5,
                    c.filled(),
                )))?;
            }
        }
        let right = style(size).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Right,
            plotters::style::text_anchor::VPos::Center,
        ));
        for (i, ls) in lines.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(x_ticks.lo, y(i)));
            let lh = line_height(size);
            let top = py as f64 - lh * (ls.len() as f64 - 1.0) / 2.0;
            for (k, l) in ls.iter().enumerate() {
                root.draw_text(l, &right, (px - 8, (top + k as f64 * lh) as i32))?;
            }
        }
        Ok(())
    }
}

/// Replaces every `<text>` element plotters wrote with the outlines of its glyphs in the
/// embedded font (one `<path>` per distinct glyph in `<defs>`, placed with `<use>`), so the
/// chart needs no installed font. Each replaced text keeps its words in `aria-label`, and the
/// glyph group carries `data-text`, `data-x`, `data-y`, `data-width` and `data-height` (its
/// box in canvas pixels), which tests read.
pub fn outline_text(svg: &str) -> String {
    let f = font();
    let units = f.height_unscaled() as f64;
    let mut defs: BTreeMap<u16, String> = BTreeMap::new();
    let mut body = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("<text ") {
        body.push_str(&rest[..start]);
        let Some(end) = rest[start..].find("</text>") else {
            break;
        };
        let element = &rest[start..start + end];
        rest = &rest[start + end + "</text>".len()..];
        let (head, content) = element.split_once('>').unwrap_or((element, ""));
        let text = unescape(content.trim());
        let attr = |name: &str| -> Option<&str> {
            let key = format!(" {name}=\"");
            let i = head.find(&key)? + key.len();
            let j = head[i..].find('"')? + i;
            Some(&head[i..j])
        };
        let num = |name: &str| {
            attr(name)
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        let (x, y, font_size) = (num("x"), num("y"), num("font-size"));
        // plotters writes font-size = size / 1.24 and measures with a pixel height of `size`.
        let px = font_size * 1.24;
        let scale = px / units;
        let scaled = f.as_scaled(px as f32);
        let width = text_width(&text, px);
        let (ascent, descent) = (scaled.ascent() as f64, scaled.descent() as f64);
        let x0 = match attr("text-anchor") {
            Some("middle") => x - width / 2.0,
            Some("end") => x - width,
            _ => x,
        };
        // plotters' vertical anchors (dy 0.76em, 0.5ex, -0.5ex: top, centre, bottom), placed
        // with the font's own box so that the drawn text fills the box plotters measured.
        let baseline = match attr("dy") {
            Some("0.76em") => y + ascent,
            Some("0.5ex") => y + (ascent + descent) / 2.0,
            Some("-0.5ex") => y + descent,
            _ => y,
        };
        let rotate = attr("transform")
            .and_then(|t| t.strip_prefix("rotate("))
            .and_then(|t| t.split(',').next())
            .unwrap_or("0");
        let mut uses = String::new();
        let mut pen = 0.0f64;
        let mut prev = None;
        for ch in text.chars() {
            let id = f.glyph_id(ch);
            if let Some(p) = prev {
                pen += scaled.kern(p, id) as f64;
            }
            prev = Some(id);
            defs.entry(id.0).or_insert_with(|| glyph_path(f, id));
            let _ = write!(uses, "<use href=\"#g{}\" x=\"{:.1}\"/>", id.0, pen / scale);
            pen += scaled.h_advance(id) as f64;
        }
        let transform = attr("transform")
            .map(|t| format!("{t} "))
            .unwrap_or_default();
        let fill = attr("fill").unwrap_or("#000000");
        let opacity = attr("opacity").unwrap_or("1");
        let (top, height) = (baseline - ascent, ascent - descent);
        let _ = write!(
            body,
            "<g aria-label=\"{label}\" data-text=\"{label}\" data-x=\"{x0:.1}\" data-y=\"{top:.1}\" data-width=\"{width:.1}\" data-height=\"{height:.1}\" data-rotate=\"{rotate}\" fill=\"{fill}\" opacity=\"{opacity}\" transform=\"{transform}translate({x0:.2} {baseline:.2}) scale({scale:.6} {neg:.6})\">{uses}</g>",
            label = escape(&text),
            neg = -scale,
        );
    }
    body.push_str(rest);
    if defs.is_empty() {
        return body;
    }
    let mut d = String::from("<defs>");
    for (id, path) in &defs {
        let _ = write!(d, "<path id=\"g{id}\" d=\"{path}\"/>");
    }
    d.push_str("</defs>\n");
    // The definitions go right after the opening <svg …> tag.
    match body.find('>') {
        Some(i) => {
            let mut out = String::with_capacity(body.len() + d.len());
            out.push_str(&body[..=i]);
            out.push('\n');
            out.push_str(&d);
            out.push_str(body[i + 1..].trim_start_matches('\n'));
            out
        }
        None => body,
    }
}

/// A glyph's outline as SVG path data in font units, y up.
fn glyph_path(f: &FontRef<'_>, id: ab_glyph::GlyphId) -> String {
    let Some(outline) = f.outline(id) else {
        return String::new();
    };
    let mut d = String::new();
    let mut last: Option<ab_glyph::Point> = None;
    for curve in &outline.curves {
        let (from, to) = match curve {
            OutlineCurve::Line(a, b) => (*a, *b),
            OutlineCurve::Quad(a, _, b) => (*a, *b),
            OutlineCurve::Cubic(a, _, _, b) => (*a, *b),
        };
        if last != Some(from) {
            let _ = write!(d, "M{} {}", from.x, from.y);
        }
        match curve {
            OutlineCurve::Line(_, b) => {
                let _ = write!(d, "L{} {}", b.x, b.y);
            }
            OutlineCurve::Quad(_, c, b) => {
                let _ = write!(d, "Q{} {} {} {}", c.x, c.y, b.x, b.y);
            }
            OutlineCurve::Cubic(_, c1, c2, b) => {
                let _ = write!(d, "C{} {} {} {} {} {}", c1.x, c1.y, c2.x, c2.y, b.x, b.y);
            }
        }
        last = Some(to);
    }
    d
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests;
