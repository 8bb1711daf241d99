//! SVG charts drawn with plotters; text is measured with the embedded DejaVu Sans font, so charts
//! come out the same on every machine.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::error::{Error, Result};

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn register_font() {
    REGISTER.call_once(|| {
        // The font is compiled in and known to be valid; a failure would show in every chart test.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// A tick label with the decimals the axis's step needs and no more (no float noise such as
/// 0.30000000000000004): about ten ticks span `span`.
pub fn tick_label(y: f64, span: f64, percent: bool) -> String {
    let (value, span) = if percent {
        (y * 100.0, span * 100.0)
    } else {
        (y, span)
    };
    let step = (span / 10.0).max(f64::MIN_POSITIVE);
    let decimals = (-step.log10().floor()).clamp(0.0, 12.0) as usize;
    // Round first so that −0.000 never shows.
    let scale = 10f64.powi(decimals as i32);
    let rounded = (value * scale).round() / scale + 0.0;
    if percent {
        format!("{rounded:.decimals$} %")
    } else {
        format!("{rounded:.decimals$}")
    }
}

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug)]
pub struct LineChart {
    /// Title above the plot.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Show y values as percentages.
    pub y_percent: bool,
    /// The lines.
    pub series: Vec<Series>,
    /// Horizontal reference lines (e.g. 50 %), drawn dashed.
    pub y_marks: Vec<f64>,
    /// X values are whole numbers (quantities): label the axis without decimals.
    pub x_integer: bool,
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
];

/// A chart drawn with plotters: rendered to SVG (with the embedded font) and written atomically.
pub trait SvgChart {
    /// Draws the chart on a drawing area.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>>;

    /// Renders the chart to an SVG string.
    fn to_svg(&self) -> Result<String> {
        register_font();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
            self.draw(&root)
                .map_err(|e| Error::Internal(format!("chart: {e}")))?;
            root.present()
                .map_err(|e| Error::Internal(format!("chart: {e}")))?;
        }
        Ok(svg)
    }

    /// Renders the chart and writes it atomically to `path`.
    fn write(&self, path: &Path) -> Result<()> {
        let svg = self.to_svg()?;
        super::write_atomic(path, svg.as_bytes())
    }
}

impl SvgChart for LineChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        let (x_min, x_max) = if x_min.is_finite() {
            (x_min, x_max.max(x_min + 1.0))
        } else {
            (0.0, 1.0)
        };
        let ys = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1));
        let (y_bottom, y_top) = ys.fold((0.0f64, 0.0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
        let y_max = if self.y_percent {
            1.0
        } else {
            y_top * 1.05 + f64::EPSILON
        };
        // Negative values (e.g. expected values) get room below zero.
        let y_min = if self.y_percent { 0.0 } else { y_bottom * 1.05 };
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
        let percent = self.y_percent;
        let integer = self.x_integer;
        chart
            .configure_mesh()
            .x_label_formatter(&|x| {
                if integer {
                    format!("{}", x.round() as i64)
                } else {
                    format!("{x}")
                }
            })
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .y_label_formatter(&|y| tick_label(*y, y_max - y_min, percent))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        for &m in &self.y_marks {
            chart.draw_series(DashedLineSeries::new(
                [(x_min, m), (x_max, m)],
                6,
                4,
                BLACK.mix(0.4).stroke_width(1),
            ))?;
        }
        for (i, s) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))?
                .label(s.label.as_str())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 14))
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        Ok(())
    }
}

/// One bar with its interval.
#[derive(Clone, Debug)]
pub struct Bar {
    /// Label under the bar.
    pub label: String,
    /// Height.
    pub value: f64,
    /// Interval drawn as a whisker.
    pub low: f64,
    /// Interval drawn as a whisker.
    pub high: f64,
}

/// A bar chart with interval whiskers (e.g. win share by seat with 95 % intervals).
#[derive(Clone, Debug)]
pub struct BarChart {
    /// Title above the plot.
    pub title: String,
    /// Y axis label.
    pub y_label: String,
    /// Show y values as percentages.
    pub y_percent: bool,
    /// The bars, left to right.
    pub bars: Vec<Bar>,
    /// A dashed reference level (e.g. the fair share).
    pub reference: Option<f64>,
}

impl SvgChart for BarChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let n = self.bars.len().max(1);
        // The range holds every finite value, whisker and reference, and zero (bars start
        // there); a whisker that could not be estimated (not finite) is not drawn.
        let finite = |x: &f64| x.is_finite();
        let values = || {
            self.bars
                .iter()
                .flat_map(|b| [b.value, b.low, b.high])
                .chain(self.reference)
                .filter(finite)
        };
        let top = values().fold(0.0f64, f64::max);
        let bottom = values().fold(0.0f64, f64::min);
        let span = (top - bottom).max(f64::EPSILON);
        let y_max = if top > 0.0 {
            top + 0.15 * span
        } else {
            0.05 * span
        };
        let y_min = if bottom < 0.0 {
            bottom - 0.15 * span
        } else {
            0.0
        };
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d((0..n - 1).into_segmented(), y_min..y_max)?;
        let percent = self.y_percent;
        let labels: Vec<String> = self.bars.iter().map(|b| b.label.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_desc(self.y_label.as_str())
            .y_label_formatter(&|y| tick_label(*y, y_max - y_min, percent))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()?;
        let color = PALETTE[0];
        chart.draw_series(self.bars.iter().enumerate().map(|(i, b)| {
            let mut r = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), b.value),
                ],
                color.mix(0.75).filled(),
            );
            r.set_margin(0, 0, 12, 12);
            r
        }))?;
        chart.draw_series(
            self.bars
                .iter()
                .enumerate()
                .filter(|(_, b)| b.low.is_finite() && b.high.is_finite())
                .map(|(i, b)| {
                    PathElement::new(
                        vec![
                            (SegmentValue::CenterOf(i), b.low),
                            (SegmentValue::CenterOf(i), b.high),
                        ],
                        BLACK.stroke_width(2),
                    )
                }),
        )?;
        if let Some(r) = self.reference {
            chart.draw_series(DashedLineSeries::new(
                [(SegmentValue::Exact(0), r), (SegmentValue::Last, r)],
                6,
                4,
                BLACK.mix(0.5).stroke_width(1),
            ))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_chart_is_valid_svg_with_labels() {
        let chart = LineChart {
            title: "P(true)".into(),
            x_label: "quantity".into(),
            y_label: "probability".into(),
            y_percent: true,
            series: vec![Series {
                label: "cuadras".into(),
                points: vec![(1.0, 0.9), (2.0, 0.5), (3.0, 0.1)],
            }],
            y_marks: vec![0.5],
            x_integer: true,
        };
        let svg = chart.to_svg().unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("cuadras") && svg.contains("quantity") && svg.contains("50 %"));
        assert!(svg.contains("<polyline"), "a line was drawn");
    }

    #[test]
    fn tick_labels_have_the_decimals_of_the_step() {
        assert_eq!(tick_label(0.30000000000000004, 1.0, false), "0.3");
        assert_eq!(tick_label(-0.039999999999999994, 0.06, false), "-0.040");
        assert_eq!(tick_label(0.25, 1.0, true), "25 %");
        assert_eq!(tick_label(0.0125, 0.05, true), "1.3 %");
        assert_eq!(tick_label(-1e-18, 0.06, false), "0.000");
        assert_eq!(tick_label(12.0, 30.0, false), "12");
    }

    #[test]
    fn bar_charts_take_negative_values_and_unknown_intervals() {
        let chart = BarChart {
            title: "net per hand".into(),
            y_label: "units".into(),
            y_percent: false,
            bars: vec![
                Bar {
                    label: "basic".into(),
                    value: -0.03,
                    low: -0.035,
                    high: -0.025,
                },
                Bar {
                    label: "sheet".into(),
                    value: 0.017,
                    low: f64::NEG_INFINITY,
                    high: f64::INFINITY,
                },
            ],
            reference: Some(0.0),
        };
        let svg = chart.to_svg().unwrap();
        assert!(svg.contains("basic") && svg.contains("sheet") && svg.contains("<rect"));
        assert!(!svg.contains("inf") && !svg.contains("NaN"), "{svg}");
    }

    #[test]
    fn bar_chart_draws_bars_and_whiskers() {
        let chart = BarChart {
            title: "win share".into(),
            y_label: "share".into(),
            y_percent: true,
            bars: vec![
                Bar {
                    label: "seat 1".into(),
                    value: 0.3,
                    low: 0.28,
                    high: 0.32,
                },
                Bar {
                    label: "seat 2".into(),
                    value: 0.7,
                    low: 0.68,
                    high: 0.72,
                },
            ],
            reference: Some(0.5),
        };
        let svg = chart.to_svg().unwrap();
        assert!(svg.contains("seat 1") && svg.contains("seat 2") && svg.contains("<rect"));
    }
}
