//! Progress of long commands, shown on stderr: a bar when stderr is a terminal, else a short
//! line every few seconds when `--progress[=SECONDS]` asks for it, else nothing.
//!
//! One [`Progress`] covers a whole command, however many runs it is made of (`dudo tune` runs
//! every candidate, `--until-decided` runs look after look): each run adds what it did to the
//! same count, so there is one bar and one estimate of the time left. Counts and rates are
//! rounded for reading in the command's own unit (`1.2 M of 10 M games (12 %), 3.1 M games/s,
//! about 2.9 s left`). Nothing here changes a result.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Display {
    /// Not at all.
    #[default]
    Hidden,
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// One line on stderr every this often (logs, batch jobs: `--progress[=SECONDS]`).
    Lines(Duration),
}

impl Display {
    /// What suits stderr: a bar on a terminal; otherwise lines every `every` if given, else
    /// nothing.
    pub fn for_stderr(every: Option<Duration>) -> Self {
        if std::io::stderr().is_terminal() {
            Display::Bar
        } else if let Some(every) = every {
            Display::Lines(every)
        } else {
            Display::Hidden
        }
    }
}

/// The progress of one command: a cheap handle, shared by every run and thread of it.
/// The default shows nothing.
#[derive(Clone, Default)]
pub struct Progress {
    inner: Option<Arc<Inner>>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.inner {
            None => write!(f, "Progress(hidden)"),
            Some(i) => write!(
                f,
                "Progress({} of {} {})",
                i.done.load(Ordering::Relaxed),
                i.total.load(Ordering::Relaxed),
                i.unit
            ),
        }
    }
}

struct Inner {
    unit: String,
    total: AtomicU64,
    done: AtomicU64,
    /// The total is a ceiling (`--until-decided` may stop well before it).
    at_most: Arc<AtomicBool>,
    start: Instant,
    bar: Option<ProgressBar>,
    /// Lines mode: the interval between lines.
    every: Option<Duration>,
    message: Mutex<String>,
    /// Set (under the lock, which every line is printed under) once the last line is out.
    finished: Mutex<bool>,
}

/// The bar on screen, if any, so that messages (the signal handler's) print above it.
static SHOWN_BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Prints a line on stderr, above the progress bar if one is drawn.
pub fn say(line: &str) {
    let bar = SHOWN_BAR.lock().ok().and_then(|b| b.clone());
    match bar {
        Some(bar) => bar.suspend(|| say!("{line}")),
        None => say!("{line}"),
    }
}

impl Progress {
    /// Shows nothing.
    pub fn hidden() -> Self {
        Self::default()
    }

    /// Progress of `total` units of work, counted in `unit` (plural: "games", "hands",
    /// "deals", "samples", "decision points").
    pub fn new(display: Display, total: u64, unit: &str) -> Self {
        Self::build(display, total, unit, false)
    }

    /// Progress of at most `total` units: work that may end well before (`--until-decided`).
    pub fn up_to(display: Display, total: u64, unit: &str) -> Self {
        Self::build(display, total, unit, true)
    }

    fn build(display: Display, total: u64, unit: &str, at_most: bool) -> Self {
        if display == Display::Hidden {
            return Self::hidden();
        }
        let at_most = Arc::new(AtomicBool::new(at_most));
        let bar = (display == Display::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(bar_style(unit, at_most.clone()));
            bar.enable_steady_tick(Duration::from_millis(250));
            if let Ok(mut shown) = SHOWN_BAR.lock() {
                *shown = Some(bar.clone());
            }
            bar
        });
        let every = match display {
            Display::Lines(d) => Some(d.max(Duration::from_millis(100))),
            _ => None,
        };
        let inner = Arc::new(Inner {
            unit: unit.to_string(),
            total: AtomicU64::new(total),
            done: AtomicU64::new(0),
            at_most,
            start: Instant::now(),
            bar,
            every,
            message: Mutex::new(String::new()),
            finished: Mutex::new(false),
        });
        if let Some(every) = every {
            // The first line says the work has started (and how much there is); then a line
            // every `every`, also while a long unit of work adds nothing.
            inner.line(None);
            let weak = Arc::downgrade(&inner);
            std::thread::spawn(move || {
                let step = every.min(Duration::from_millis(100));
                let mut due = every;
                loop {
                    std::thread::sleep(step);
                    let Some(i) = weak.upgrade() else { return };
                    if i.start.elapsed() >= due {
                        if !i.line(None) {
                            return;
                        }
                        due = i.start.elapsed() + every;
                    }
                }
            });
        }
        Self { inner: Some(inner) }
    }

    /// Whether nothing is shown.
    pub fn is_hidden(&self) -> bool {
        self.inner.is_none()
    }

    /// Units done so far.
    pub fn done(&self) -> u64 {
        self.inner
            .as_ref()
            .map_or(0, |i| i.done.load(Ordering::Relaxed))
    }

    /// Adds `n` units done.
    pub fn inc(&self, n: u64) {
        let Some(i) = &self.inner else { return };
        i.done.fetch_add(n, Ordering::Relaxed);
        if let Some(bar) = &i.bar {
            bar.inc(n);
        }
    }

    /// A short note shown after the count (`look 3`, `5 players`); empty for none.
    pub fn set_message(&self, message: impl Into<String>) {
        let Some(i) = &self.inner else { return };
        let message = message.into();
        if let Some(bar) = &i.bar {
            bar.set_message(if message.is_empty() {
                String::new()
            } else {
                format!("{message}, ")
            });
        }
        if let Ok(mut m) = i.message.lock() {
            *m = message;
        }
    }

    /// Ends the display: the bar is cleared; lines end with one that says how it ended
    /// (`stopped` after a signal). Later calls print nothing more.
    pub fn finish(&self) {
        let Some(i) = &self.inner else { return };
        if let Some(bar) = &i.bar {
            bar.finish_and_clear();
            if let Ok(mut shown) = SHOWN_BAR.lock() {
                *shown = None;
            }
        }
        let how = if crate::signals::interrupted() {
            "stopped"
        } else {
            "done"
        };
        i.line(Some(how));
    }
}

impl Inner {
    /// Prints a progress line (lines mode), the last one if `end` says how the work ended.
    /// Returns false, printing nothing, once the last line is out.
    fn line(&self, end: Option<&str>) -> bool {
        if self.every.is_none() {
            return false;
        }
        let Ok(mut finished) = self.finished.lock() else {
            return false;
        };
        if *finished {
            return false;
        }
        *finished = end.is_some();
        let message = self.message.lock().map(|m| m.clone()).unwrap_or_default();
        say!(
            "tahur: {}",
            status_line(&Status {
                done: self.done.load(Ordering::Relaxed),
                total: self.total.load(Ordering::Relaxed),
                unit: &self.unit,
                at_most: self.at_most.load(Ordering::Relaxed),
                elapsed: self.start.elapsed(),
                message: &message,
                end,
            })
        );
        true
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            if let Ok(mut shown) = SHOWN_BAR.lock() {
                *shown = None;
            }
        }
    }
}

/// What one progress line reports.
#[derive(Clone, Debug)]
pub struct Status<'a> {
    /// Units done.
    pub done: u64,
    /// Units in all (or at most, with `at_most`).
    pub total: u64,
    /// The unit, plural.
    pub unit: &'a str,
    /// The total is a ceiling.
    pub at_most: bool,
    /// Time since the start.
    pub elapsed: Duration,
    /// A short note (`look 3`), or empty.
    pub message: &'a str,
    /// `Some("done")` or `Some("stopped")` for the last line.
    pub end: Option<&'a str>,
}

/// `1.2 M of 10 M games (12 %), 3 M games/s, about 2.9 s left`: the line `--progress` prints
/// (after `tahur: `).
pub fn status_line(s: &Status) -> String {
    let mut line = format!(
        "{} of {}{} {} ({} %)",
        count(s.done),
        if s.at_most { "at most " } else { "" },
        count(s.total),
        s.unit,
        percent(s.done, s.total)
    );
    if !s.message.is_empty() {
        let _ = write!(line, ", {}", s.message);
    }
    let secs = s.elapsed.as_secs_f64();
    if s.done > 0 && secs > 0.0 {
        let per_sec = s.done as f64 / secs;
        let _ = write!(line, ", {}", rate(per_sec, s.unit));
        match s.end {
            Some(end) => {
                let _ = write!(line, ", {end} after {}", duration(s.elapsed));
            }
            None if s.total > s.done => {
                let left = Duration::from_secs_f64((s.total - s.done) as f64 / per_sec);
                let _ = write!(
                    line,
                    ", {} {} left",
                    if s.at_most { "at most" } else { "about" },
                    duration(left)
                );
            }
            None => {}
        }
    } else if let Some(end) = s.end {
        let _ = write!(line, ", {end} after {}", duration(s.elapsed));
    } else if s.elapsed >= Duration::from_millis(500) {
        // Nothing done yet (a long first unit of work): say for how long.
        let _ = write!(line, ", {} so far", duration(s.elapsed));
    }
    line
}

/// The whole percentage done, never 100 before the end.
fn percent(done: u64, total: u64) -> u64 {
    if total == 0 {
        100
    } else {
        (done as u128 * 100 / total as u128) as u64
    }
}

fn bar_style(unit: &str, at_most: Arc<AtomicBool>) -> ProgressStyle {
    let unit_count = unit.to_string();
    let unit_rate = unit.to_string();
    let at_most_count = at_most.clone();
    // The counts, rate and time left take about 75 columns: on a narrower terminal than
    // 120 they go on a second line, so that the bar keeps a readable length.
    let narrow = terminal_size::terminal_size_of(std::io::stderr()).is_some_and(|(w, _)| w.0 < 120);
    ProgressStyle::with_template(if narrow {
        "{spinner} {elapsed_precise} [{wide_bar}] {pct:>3} %\n  {count}, {msg}{rate}, {left}"
    } else {
        "{spinner} {elapsed_precise} [{wide_bar}] {pct:>3} % {count}, {msg}{rate}, {left}"
    })
    .expect("a valid template")
    .with_key("pct", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}", percent(s.pos(), s.len().unwrap_or(0)));
    })
    .with_key(
        "count",
        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(
                w,
                "{} of {}{} {}",
                count(s.pos()),
                if at_most_count.load(Ordering::Relaxed) {
                    "at most "
                } else {
                    ""
                },
                count(s.len().unwrap_or(0)),
                unit_count
            );
        },
    )
    .with_key(
        "rate",
        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", rate(s.per_sec(), &unit_rate));
        },
    )
    .with_key(
        "left",
        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let word = if at_most.load(Ordering::Relaxed) {
                "at most"
            } else {
                "about"
            };
            if s.pos() == 0 {
                let _ = write!(w, "starting");
            } else {
                let _ = write!(w, "{word} {} left", duration(s.eta()));
            }
        },
    )
}

const PREFIXES: [&str; 6] = ["", " k", " M", " G", " T", " P"];

/// A count for reading, three significant digits at most: `812`, `1.23 k`, `10 M`, `1.5 G`.
pub fn count(n: u64) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        short(n as f64)
    }
}

/// `x` with three significant digits at most and an SI prefix (k, M, G, T, P), trailing
/// zeros dropped: `0.25`, `7.5`, `152`, `1.52 k`, `152 M`.
pub fn short(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "0".into();
    }
    let mut step = 0;
    let mut m = x;
    while m >= 1000.0 && step + 1 < PREFIXES.len() {
        m /= 1000.0;
        step += 1;
    }
    // Round to three significant digits; a carry to 1000 moves to the next prefix.
    let decimals = if m >= 100.0 {
        0
    } else if m >= 10.0 {
        1
    } else {
        2
    };
    let mut rounded = format!("{m:.decimals$}");
    if rounded.parse::<f64>().unwrap_or(0.0) >= 1000.0 && step + 1 < PREFIXES.len() {
        step += 1;
        rounded = format!("{:.2}", m / 1000.0);
    }
    if rounded.contains('.') {
        rounded = rounded
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    if rounded == "0" {
        // Below 0.005: keep one significant digit rather than claim nothing.
        return crate::humanize::significant(x, 1);
    }
    format!("{rounded}{}", PREFIXES[step])
}

/// A rate in the command's unit: `152 M games/s`, `3.4 k hands/s`, `0.5 decision points/s`.
pub fn rate(per_sec: f64, unit: &str) -> String {
    format!("{} {unit}/s", short(per_sec))
}

/// A duration for reading, two units at most: `0.4 s`, `42 s`, `3 min 5 s`, `2 h 10 min`,
/// `3 d 4 h` (tenths of a second below 10 s).
pub fn duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 9.95 {
        return format!("{secs:.1} s");
    }
    let s = secs.round() as u64;
    let (days, hours, mins, secs) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if days > 0 {
        format!("{days} d {hours} h")
    } else if hours > 0 {
        format!("{hours} h {mins} min")
    } else if mins > 0 {
        format!("{mins} min {secs} s")
    } else {
        format!("{secs} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_with_three_digits_at_most() {
        assert_eq!(count(0), "0");
        assert_eq!(count(812), "812");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1 k");
        assert_eq!(count(1234), "1.23 k");
        assert_eq!(count(12_345), "12.3 k");
        assert_eq!(count(999_999), "1 M");
        assert_eq!(count(1_200_000), "1.2 M");
        assert_eq!(count(10_000_000), "10 M");
        assert_eq!(count(152_410_377), "152 M");
        assert_eq!(count(1_000_000_000_000_000), "1 P");
        assert_eq!(count(u64::MAX), "18447 P");
    }

    #[test]
    fn rates_are_rounded_with_their_unit() {
        assert_eq!(rate(152_410_377.704_6, "games"), "152 M games/s");
        assert_eq!(rate(3_412.9, "hands"), "3.41 k hands/s");
        assert_eq!(rate(999.6, "deals"), "1 k deals/s");
        assert_eq!(rate(42.0, "samples"), "42 samples/s");
        assert_eq!(rate(7.25, "decision points"), "7.25 decision points/s");
        assert_eq!(rate(0.5, "games"), "0.5 games/s");
        assert_eq!(rate(0.0012, "games"), "0.001 games/s");
        assert_eq!(rate(0.0, "games"), "0 games/s");
        assert_eq!(rate(f64::NAN, "games"), "0 games/s");
    }

    #[test]
    fn durations_read_in_two_units_at_most() {
        assert_eq!(duration(Duration::from_millis(400)), "0.4 s");
        assert_eq!(duration(Duration::from_millis(2930)), "2.9 s");
        assert_eq!(duration(Duration::from_millis(9960)), "10 s");
        assert_eq!(duration(Duration::from_secs(42)), "42 s");
        assert_eq!(duration(Duration::from_secs(185)), "3 min 5 s");
        assert_eq!(duration(Duration::from_secs(7800)), "2 h 10 min");
        assert_eq!(
            duration(Duration::from_secs(3 * 86_400 + 4 * 3600)),
            "3 d 4 h"
        );
    }

    #[test]
    fn status_lines() {
        let s = Status {
            done: 1_200_000,
            total: 10_000_000,
            unit: "games",
            at_most: false,
            elapsed: Duration::from_millis(400),
            message: "",
            end: None,
        };
        assert_eq!(
            status_line(&s),
            "1.2 M of 10 M games (12 %), 3 M games/s, about 2.9 s left"
        );
        let start = Status {
            done: 0,
            elapsed: Duration::ZERO,
            ..s.clone()
        };
        assert_eq!(status_line(&start), "0 of 10 M games (0 %)");
        let slow = Status {
            elapsed: Duration::from_secs(12),
            ..start.clone()
        };
        assert_eq!(status_line(&slow), "0 of 10 M games (0 %), 12 s so far");
        let look = Status {
            at_most: true,
            message: "look 3",
            ..s.clone()
        };
        assert_eq!(
            status_line(&look),
            "1.2 M of at most 10 M games (12 %), look 3, 3 M games/s, at most 2.9 s left"
        );
        let stopped = Status {
            end: Some("stopped"),
            ..s.clone()
        };
        assert_eq!(
            status_line(&stopped),
            "1.2 M of 10 M games (12 %), 3 M games/s, stopped after 0.4 s"
        );
        let almost = Status {
            done: 9_999_999,
            ..s
        };
        assert!(status_line(&almost).contains("(99 %)"));
    }

    #[test]
    fn hidden_progress_counts_nothing() {
        let p = Progress::hidden();
        p.inc(5);
        p.set_message("x");
        p.finish();
        assert!(p.is_hidden());
        assert_eq!(p.done(), 0);
    }
}
