//! The charts every game gets: rates by seat and by strategy against the fair share, the length
//! distribution, a tournament's ranking (flags draws its own, in [`super::flags::chart`]).

use super::sim::{fair_rate, SimTally};
use super::table::TableSetup;
use super::tournament::{standings, TournamentSetup, TournamentTally};
use super::{scored, Game, GameRules, Strategy};
use crate::report::chart::{Bar, BarChart, LineChart, Series};
use crate::stats::{per_seat_rate, wilson95};

/// Each seat's rate (points per game when scored) with 95 % intervals and the fair share.
pub fn seat_chart<G: Game, S: Strategy<G>>(setup: &TableSetup<G, S>, t: &SimTally) -> BarChart {
    let w = &G::INFO.words;
    let scored = scored::<G>();
    BarChart {
        title: format!(
            "{} by seat · {}",
            super::sim::capitalised(if scored { "points" } else { w.rate }),
            setup.rules.describe()
        ),
        y_label: if scored {
            "points per game".into()
        } else {
            w.chart_axis.into()
        },
        y_percent: !scored,
        bars: setup
            .strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (value, low, high) = if scored {
                    let m = t.seats[i].estimate(t.games);
                    let ci = m.interval(0.95);
                    (m.mean, ci.low, ci.high)
                } else {
                    let (p, ci) = wilson95(t.seat_count(i), t.games);
                    (p.estimate(), ci.low, ci.high)
                };
                Bar {
                    label: format!("{} {s}", i + 1),
                    value,
                    low,
                    high,
                }
            })
            .collect(),
        reference: (!scored).then(|| fair_rate::<G>(&setup.rules, t)),
    }
}

/// Each strategy's rate per seat with 95 % intervals and the fair share.
pub fn strategy_chart<G: Game, S: Strategy<G>>(setup: &TableSetup<G, S>, t: &SimTally) -> BarChart {
    let w = &G::INFO.words;
    let scored = scored::<G>();
    BarChart {
        title: format!(
            "{} by strategy · {}",
            super::sim::capitalised(if scored { "points" } else { w.rate }),
            setup.rules.describe()
        ),
        y_label: if scored {
            "points per seat and game".into()
        } else {
            format!("{} per seat", w.chart_axis)
        },
        y_percent: !scored,
        bars: setup
            .distinct()
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let seats = setup.seats_of(s);
                let sums = t.strategies.get(k).copied().unwrap_or_default();
                let (value, low, high) = if scored {
                    let m = sums.estimate(t.games);
                    let ci = m.interval(0.95);
                    let k = seats as f64;
                    (m.mean / k, ci.low / k, ci.high / k)
                } else {
                    let (rate, ci) =
                        per_seat_rate(sums.sum.max(0) as u64, sums.sum_sq as u64, t.games, seats);
                    (rate, ci.low, ci.high)
                };
                Bar {
                    label: s.to_string(),
                    value,
                    low,
                    high,
                }
            })
            .collect(),
        reference: (!scored).then(|| fair_rate::<G>(&setup.rules, t)),
    }
}

/// The distribution of game length.
pub fn length_chart<G: Game, S: Strategy<G>>(setup: &TableSetup<G, S>, t: &SimTally) -> LineChart {
    let unit = G::INFO.words.length_unit;
    LineChart {
        title: format!("Game length · {}", setup.rules.describe()),
        x_label: unit.into(),
        y_label: "share of games".into(),
        y_percent: false,
        series: vec![Series {
            label: "games".into(),
            points: t
                .length_hist
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(k, &n)| (k as f64, n as f64 / t.games.max(1) as f64))
                .collect(),
        }],
        y_marks: vec![],
        x_integer: true,
    }
}

/// Each strategy's rate per seat over a whole tournament, ranked, with 95 % intervals.
pub fn ranking_chart<G: Game, S: Strategy<G>>(
    setup: &TournamentSetup<G, S>,
    t: &TournamentTally,
) -> BarChart {
    let w = &G::INFO.words;
    let scored = scored::<G>();
    BarChart {
        title: format!("{} tournament · {}", G::INFO.title, setup.rules.describe()),
        y_label: if scored {
            format!(
                "points per seat and {}",
                crate::text::singular(w.length_unit)
            )
        } else {
            format!("{} per seat", w.chart_axis)
        },
        y_percent: !scored,
        bars: standings(setup, t)
            .iter()
            .map(|s| Bar {
                label: setup.strategies[s.strategy].to_string(),
                value: s.rate,
                low: s.ci.low,
                high: s.ci.high,
            })
            .collect(),
        reference: None,
    }
}
