//! Every chart kind drawn with awkward data (tiny ranges, negative values, long titles, one value,
//! many categories, unknown intervals), and its SVG read back: all text inside the canvas, no two
//! labels on top of each other, tick labels with exactly the decimals their step needs.

use super::*;

/// A drawn text: its words and its box in canvas pixels (after rotation).
#[derive(Debug)]
struct Drawn {
    text: String,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    rotated: bool,
}

fn attr<'a>(element: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let i = element
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {element}"))
        + key.len();
    let j = element[i..].find('"').unwrap() + i;
    &element[i..j]
}

fn texts(svg: &str) -> Vec<Drawn> {
    assert!(!svg.contains("<text"), "every text is drawn as outlines");
    svg.split("<g aria-label=")
        .skip(1)
        .map(|e| {
            let head = &e[..e.find('>').unwrap()];
            let head = format!(" aria-label={head}");
            let num = |n: &str| attr(&head, n).parse::<f64>().unwrap();
            let (x, y, w, h) = (
                num("data-x"),
                num("data-y"),
                num("data-width"),
                num("data-height"),
            );
            let rotate = num("data-rotate");
            let text = attr(&head, "data-text").to_string();
            if rotate == 0.0 {
                Drawn {
                    text,
                    x0: x,
                    y0: y,
                    x1: x + w,
                    y1: y + h,
                    rotated: false,
                }
            } else {
                // rotate(270, cx, cy) about the anchor: the text runs upwards.
                let t = attr(&head, "transform");
                let args: Vec<f64> = t["rotate(".len()..t.find(')').unwrap()]
                    .split(',')
                    .map(|a| a.trim().parse().unwrap())
                    .collect();
                assert_eq!(args[0], 270.0, "only the y axis title is rotated");
                let (cx, cy) = (args[1], args[2]);
                // (x, y) ↦ (cx + (y − cy), cy − (x − cx))
                let map = |px: f64, py: f64| (cx + (py - cy), cy - (px - cx));
                let (ax, ay) = map(x, y);
                let (bx, by) = map(x + w, y + h);
                Drawn {
                    text,
                    x0: ax.min(bx),
                    y0: ay.min(by),
                    x1: ax.max(bx),
                    y1: ay.max(by),
                    rotated: true,
                }
            }
        })
        .collect()
}

/// The decimals of a number as written.
fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, d)| d.len())
}

/// Checks one rendered chart; returns its texts. With `TAHUR_CHART_DIR` set, the chart is also
/// written there (to render and look at: `rsvg-convert`).
fn check(svg: &str) -> Vec<Drawn> {
    let drawn = check_layout(svg);
    check_ticks(&drawn);
    drawn
}

/// What [`check`] asks of every chart but its tick steps (a logarithmic axis has none): the
/// texts inside the canvas, none on another, no number drawn as NaN or in exponent form.
fn check_layout(svg: &str) -> Vec<Drawn> {
    if let Some(dir) = std::env::var_os("TAHUR_CHART_DIR") {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let _ = std::fs::write(Path::new(&dir).join(format!("chart-{n:02}.svg")), svg);
    }
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for bad in ["NaN", "inf", "e-1", "e-0", "0000001", "9999999"] {
        assert!(!svg.contains(&format!("data-text=\"{bad}")), "{bad}");
    }
    let (w, h) = (SIZE.0 as f64, SIZE.1 as f64);
    let drawn = texts(svg);
    for d in &drawn {
        assert!(
            d.x0 >= 0.0 && d.y0 >= 0.0 && d.x1 <= w && d.y1 <= h,
            "text outside the canvas: {d:?}"
        );
    }
    for (i, a) in drawn.iter().enumerate() {
        for b in &drawn[i + 1..] {
            // A 1-pixel tolerance: neighbouring boxes may touch.
            let overlap =
                a.x0 < b.x1 - 1.0 && b.x0 < a.x1 - 1.0 && a.y0 < b.y1 - 1.0 && b.y0 < a.y1 - 1.0;
            assert!(!overlap, "labels overlap: {a:?} and {b:?}");
        }
    }
    drawn
}

/// Tick labels of linear axes: on one step, with the decimals it needs.
fn check_ticks(drawn: &[Drawn]) {
    // Tick labels: the numeric texts on one axis (sharing a right edge: the y axis; sharing a
    // top: the x axis) are on one step and carry exactly the decimals that step needs.
    let numeric: Vec<&Drawn> = drawn
        .iter()
        .filter(|d| !d.rotated && d.text.trim_end_matches(" %").parse::<f64>().is_ok())
        .collect();
    let mut groups: Vec<Vec<&Drawn>> = Vec::new();
    for key in [
        |d: &Drawn| (d.x1 * 2.0).round(),
        |d: &Drawn| (d.y0 * 2.0).round(),
    ] {
        let mut by: BTreeMap<i64, Vec<&Drawn>> = BTreeMap::new();
        for d in &numeric {
            by.entry(key(d) as i64).or_default().push(d);
        }
        groups.extend(by.into_values().filter(|g| g.len() >= 3));
    }
    for g in groups {
        let mut values: Vec<f64> = g
            .iter()
            .map(|d| d.text.trim_end_matches(" %").parse().unwrap())
            .collect();
        values.sort_by(f64::total_cmp);
        let steps: Vec<f64> = values.windows(2).map(|p| p[1] - p[0]).collect();
        let step = steps.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(step > 0.0, "two equal tick labels in {g:?}");
        // The step is 1, 2 or 5 times a power of ten, and every label is a multiple of it…
        let m = step / 10f64.powf(step.log10().floor());
        assert!(
            [1.0, 2.0, 5.0, 10.0].iter().any(|f| (m - f).abs() < 1e-6),
            "step {step}: {g:?}"
        );
        let need = if step >= 1.0 - 1e-9 {
            0
        } else {
            (-(step.log10() + 1e-9).floor()) as usize
        };
        // …written with exactly the decimals the step needs.
        for d in &g {
            let number = d.text.trim_end_matches(" %");
            assert_eq!(decimals(number), need, "label {number:?}, step {step}");
            let v: f64 = number.parse().unwrap();
            let scale = 10f64.powi(need as i32);
            let (vi, si) = ((v * scale).round() as i64, (step * scale).round() as i64);
            assert_eq!(vi % si, 0, "{v} not on {step}");
        }
    }
}

fn has(drawn: &[Drawn], text: &str) -> bool {
    drawn.iter().any(|d| d.text == text)
}

const LONG: &str = "Durak rate by seat · 6 players · perevodnoy · 52 cards · 7 each · teams 2x2x2 · trump from the dealer · show-trump transfers · no re-deal · at most 400 moves";

#[test]
fn ticks_are_nice_and_exact() {
    let t = Ticks::nice(0.0, 0.3, 8, false, true);
    assert_eq!(t.step, 0.05);
    assert_eq!(t.decimals, 2);
    assert_eq!(t.values.len(), 7);
    assert_eq!(t.label(t.values[6], false), "0.30");
    let t = Ticks::nice(-0.041, 0.19, 8, false, true);
    assert_eq!((t.step, t.lo, t.hi), (0.05, -0.05, 0.2));
    assert_eq!(t.label(-1e-18, false), "0.00");
    let t = Ticks::nice(12.0, 14.0, 10, true, false);
    assert_eq!(
        t.values,
        vec![12.0, 13.0, 14.0],
        "counts step by whole numbers"
    );
    let t = Ticks::nice(0.5, 0.5, 8, false, true);
    assert!(t.lo < 0.5 && t.hi > 0.5, "one value gets room: {t:?}");
    let t = Ticks::nice(15.0, 16.0, 8, false, true);
    assert_eq!(t.label(15.6, true), "15.6 %");
}

#[test]
fn line_charts_read_cleanly() {
    // Probabilities with marks: the dudo table's shape.
    let probs = LineChart {
        title: "P(bid is true) · 30 dice · Chimbo 9".into(),
        x_label: "quantity bid".into(),
        x_unit: Unit::Count,
        y_label: "probability the bid is true".into(),
        y_unit: Unit::Percent,
        series: (0..6)
            .map(|f| Series {
                label: format!("face {f}"),
                points: (1..=31)
                    .map(|k| (k as f64, 1.0 / (1.0 + ((k - 10 - f) as f64).exp())))
                    .collect(),
            })
            .collect(),
        marks: vec![
            RefLine::new(0.75, "levels asked"),
            RefLine::new(0.5, "levels asked"),
        ],
    };
    let d = check(&probs.to_svg().unwrap());
    assert!(has(&d, "levels asked") && has(&d, "100 %") && has(&d, "face 5"));
    assert!(has(&d, "quantity bid") && has(&d, "probability the bid is true"));
    // Expected values around zero with ten series: the 21 strategy chart's shape.
    let evs = LineChart {
        title: "EV of the best move".into(),
        x_label: "hard total".into(),
        x_unit: Unit::Count,
        y_label: "expected value per unit bet".into(),
        y_unit: Unit::Number,
        series: (0..10)
            .map(|u| Series {
                label: format!("bank shows {u}"),
                points: (4..=20)
                    .map(|t| {
                        (
                            t as f64,
                            0.2 - 0.03 * (t as f64 - 12.0).abs() - 0.011 * u as f64,
                        )
                    })
                    .collect(),
            })
            .collect(),
        marks: vec![RefLine::new(0.0, "break-even")],
    };
    let svg = evs.to_svg().unwrap();
    let d = check(&svg);
    assert!(has(&d, "break-even") && has(&d, "bank shows 9"));
    // Tiny range, one point, long title.
    for points in [vec![(3.0, 0.50001), (4.0, 0.50003)], vec![(7.0, 0.25)]] {
        let c = LineChart {
            title: LONG.into(),
            x_label: "x".into(),
            x_unit: Unit::Number,
            y_label: "y".into(),
            y_unit: Unit::Number,
            series: vec![Series {
                label: "only".into(),
                points,
            }],
            marks: vec![],
        };
        check(&c.to_svg().unwrap());
    }
}

#[test]
fn a_logarithmic_axis_shows_decades() {
    let chart = |points: Vec<(f64, f64)>| LineChart {
        title: "convergence".into(),
        x_label: "iterations".into(),
        x_unit: Unit::Count,
        y_label: "exploitability (log scale)".into(),
        y_unit: Unit::Log,
        series: vec![Series {
            label: String::new(),
            points,
        }],
        marks: vec![],
    };
    // Three decades and more: the powers of ten only.
    let wide = check_layout(
        &chart(vec![(100.0, 0.0097), (2000.0, 6.5e-5)])
            .to_svg()
            .unwrap(),
    );
    for label in ["0.00001", "0.0001", "0.001", "0.01"] {
        assert!(has(&wide, label), "{label}: {wide:?}");
    }
    assert!(!has(&wide, "0.0002") && !has(&wide, "0.1"));
    // One decade: 2 and 5 times its power of ten too. A value the axis cannot show (zero,
    // below) is left out, not drawn as NaN.
    let narrow = check_layout(
        &chart(vec![(1500.0, 0.00035), (2300.0, 0.00018), (2400.0, 0.0)])
            .to_svg()
            .unwrap(),
    );
    for label in ["0.0001", "0.0002", "0.0005", "0.001"] {
        assert!(has(&narrow, label), "{label}: {narrow:?}");
    }
    assert!(!has(&narrow, "0.002"));
    assert_eq!(log_label(-4.0 + 2f64.log10()), "0.0002");
}

#[test]
fn bar_charts_read_cleanly() {
    let seats = BarChart {
        title: LONG.into(),
        x_label: "seat and strategy".into(),
        y_label: "games lost (durak)".into(),
        y_unit: Unit::Percent,
        bars: (1..=6)
            .map(|i| Bar {
                label: format!("{i} greedy"),
                value: 0.155 + 0.001 * i as f64,
                low: 0.15,
                high: 0.165,
            })
            .collect(),
        bar_legend: Some("durak rate, 95 % interval".into()),
        marks: vec![RefLine::new(0.1578, "fair share 15.78 %")],
    };
    let d = check(&seats.to_svg().unwrap());
    assert!(has(&d, "fair share 15.78 %") && has(&d, "durak rate, 95 % interval"));
    assert!(has(&d, "seat and strategy") && has(&d, "6 greedy"));
    // Negative values, unknown intervals, long labels (flags' rule changes).
    let changes = BarChart {
        title: "net per hand".into(),
        x_label: "rules".into(),
        y_label: "units".into(),
        y_unit: Unit::Number,
        bars: [
            "as given",
            "five-before-discard=on (five cards before the first discard)",
            "show-trump-transfer=on",
            "teams=2x2x2",
            "dealer-trump=on",
            "max-moves=400",
            "last-cards=together",
            "variant=perevodnoy",
        ]
        .iter()
        .enumerate()
        .map(|(i, l)| Bar {
            label: l.to_string(),
            value: -0.03 + 0.01 * i as f64,
            low: if i == 1 {
                f64::NEG_INFINITY
            } else {
                -0.035 + 0.01 * i as f64
            },
            high: if i == 1 {
                f64::NAN
            } else {
                -0.025 + 0.01 * i as f64
            },
        })
        .collect(),
        bar_legend: Some("mean".into()),
        marks: vec![RefLine::new(0.0, "zero")],
    };
    let svg = changes.to_svg().unwrap();
    assert!(!svg.contains("inf") && !svg.contains("NaN"));
    check(&svg);
    // A distribution over many whole values, and over one.
    let many = BarChart {
        title: "Game length".into(),
        x_label: "bouts".into(),
        y_label: "share of games".into(),
        y_unit: Unit::Percent,
        bars: (5..60)
            .map(|k| {
                Bar::plain(
                    k.to_string(),
                    (-((k as f64 - 30.0) / 8.0).powi(2)).exp() / 14.0,
                )
            })
            .collect(),
        bar_legend: None,
        marks: vec![],
    };
    let d = check(&many.to_svg().unwrap());
    assert!(has(&d, "30") && has(&d, "bouts"));
    let one = BarChart {
        bars: vec![Bar::plain("12", 1.0)],
        ..many.clone()
    };
    let d = check(&one.to_svg().unwrap());
    assert!(has(&d, "100 %") && has(&d, "12"));
    let all_zero = BarChart {
        bars: vec![Bar::plain("a", 0.0), Bar::plain("b", 0.0)],
        y_unit: Unit::Number,
        ..many
    };
    check(&all_zero.to_svg().unwrap());
}

#[test]
fn text_is_outlined_in_the_embedded_font() {
    let svg = outline_text(
        r##"<svg width="900" height="560"><text x="450" y="21" dy="0.76em" text-anchor="middle" font-family="DejaVu Sans" font-size="10" opacity="1" fill="#000000">
A &amp; B
</text></svg>"##,
    );
    assert!(svg.contains("<defs><path id=\"g"), "{svg}");
    assert!(svg.contains("aria-label=\"A &amp; B\""), "{svg}");
    assert_eq!(svg.matches("<use ").count(), 5, "one glyph per character");
    let d = texts(&svg);
    let w = text_width("A & B", 12.4);
    assert!((d[0].x1 - d[0].x0 - w).abs() < 0.2 && (d[0].x0 + w / 2.0 - 450.0).abs() < 0.2);
}

/// Names in category labels are never cut (`five-before-discard=on` is one word), however
/// many bars share the width: the labels shrink instead.
#[test]
fn category_labels_keep_names_whole() {
    let names = [
        "threshold:t=0.35",
        "five-before-discard=on",
        "as given",
        "search:rollouts=20,call=0,bluff=0.6",
    ];
    let bars: Vec<Bar> = (0..12)
        .map(|i| Bar::plain(names[i % names.len()], 0.1 * i as f64))
        .collect();
    let chart = BarChart {
        title: "Names".into(),
        x_label: "strategy".into(),
        y_label: "rate".into(),
        y_unit: Unit::Percent,
        bars,
        bar_legend: None,
        marks: vec![],
    };
    let d = texts(&chart.to_svg().unwrap());
    for name in names.iter().filter(|n| !n.contains(' ')) {
        assert!(has(&d, name), "{name} cut: {d:?}");
    }
}

fn dot_chart(dots: Vec<Dot>) -> DotChart {
    DotChart {
        title: LONG.into(),
        x_label: "change in the first attacker's edge (percentage points)".into(),
        x_unit: Unit::Number,
        dots,
        dot_legend: "paired change, 95 % interval".into(),
        marks: vec![RefLine::new(0.0, "no change: the table as given")],
    }
}

/// Dot plots with awkward data: long names without spaces, one row and many, an interval of
/// width zero, a huge one, a missing value, all values negative; the partial-run note under
/// the plot; and each as a PNG that is an image of the chart's size with ink on it.
#[test]
fn dot_charts_and_pngs_read_cleanly() {
    let dot = |label: &str, value: f64, low: f64, high: f64| Dot {
        label: label.into(),
        value,
        low,
        high,
    };
    let awkward = vec![
        dot(
            "five-before-discard=on,last-cards=defender",
            -0.44,
            -2.5,
            1.6,
        ),
        dot("as given", 0.0, 0.0, 0.0),
        dot("platkowy", -4.6, -7.05, -2.17),
        dot(
            "a very long house rule name with many words in it to wrap",
            30.0,
            -40.0,
            90.0,
        ),
        dot("missing", f64::NAN, f64::NAN, f64::NAN),
    ];
    let many: Vec<Dot> = (0..24)
        .map(|i| {
            dot(
                &format!("change {i}"),
                -(i as f64),
                -(i as f64) - 1.0,
                -(i as f64) + 1.0,
            )
        })
        .collect();
    let one = vec![dot("threshold:t=0.35", -0.01, -0.012, -0.008)];
    for dots in [awkward, many, one] {
        let chart = dot_chart(dots.clone());
        let svg = chart
            .to_svg_noted("partial: 1,927 of 30,000 games · seed 1")
            .unwrap();
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let d = check(&svg);
        assert!(has(&d, "partial: 1,927 of 30,000 games · seed 1"), "{d:?}");
        for name in dots
            .iter()
            .map(|x| x.label.as_str())
            .filter(|n| !n.contains(' '))
        {
            assert!(has(&d, name), "{name} cut: {d:?}");
        }
        let bytes = png(&svg, 1.0).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((image.width(), image.height()), SIZE);
        let inked = image
            .pixels()
            .iter()
            .filter(|p| p.red() < 128 && p.alpha() == 255)
            .count();
        assert!(inked > 2_000, "{inked} dark pixels: a blank image?");
    }
    // Every chart kind as a PNG, at the scale files are written with.
    let line = LineChart {
        title: "t".into(),
        x_label: "x".into(),
        x_unit: Unit::Count,
        y_label: "y".into(),
        y_unit: Unit::Percent,
        series: vec![Series {
            label: String::new(),
            points: vec![(1.0, 0.2), (2.0, 0.5)],
        }],
        marks: vec![],
    };
    let bars = BarChart {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        y_unit: Unit::Number,
        bars: vec![Bar {
            label: "a".into(),
            value: 1.0,
            low: 0.9999,
            high: 1.0001,
        }],
        bar_legend: Some("mean".into()),
        marks: vec![],
    };
    for chart in [
        Chart::Line(line),
        Chart::Bar(bars),
        Chart::Dot(dot_chart(vec![dot("a", 1.0, 0.5, 1.5)])),
    ] {
        let bytes = png(&chart.to_svg().unwrap(), PNG_SCALE).unwrap();
        let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert_eq!(
            (image.width(), image.height()),
            (SIZE.0 * 2, SIZE.1 * 2),
            "twice the drawing size"
        );
    }
}

/// `write` picks the format from the file name: `.png` (any case) a PNG, anything else SVG;
/// both atomically.
#[test]
fn charts_are_written_as_the_name_says() {
    let dir = tempfile::tempdir().unwrap();
    let chart = Chart::Dot(dot_chart(vec![Dot {
        label: "a".into(),
        value: 1.0,
        low: 0.0,
        high: 2.0,
    }]));
    for (name, png_file) in [
        ("c.png", true),
        ("c.PNG", true),
        ("c.svg", false),
        ("c", false),
    ] {
        let p = dir.path().join(name);
        chart.write_noted(&p, "10 games · seed 1").unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(bytes.starts_with(b"\x89PNG"), png_file, "{name}");
        assert_eq!(bytes.starts_with(b"<svg"), !png_file, "{name}");
    }
}
