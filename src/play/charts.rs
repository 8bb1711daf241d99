//! The charts every game gets: rates by seat and by strategy against the fair share, the length
//! distribution, a tournament's ranking (flags draws its own, in [`super::flags::chart`]).

use super::sim::{fair_rate, SimTally};
use super::table::TableSetup;
use super::tournament::{standings, TournamentSetup, TournamentTally};
use super::{scored, Game, GameRules, Strategy};
use crate::humanize::percent;
use crate::report::chart::{Bar, BarChart, Chart, RefLine, Unit};
use crate::stats::{per_seat_rate, wilson95};

/// Each seat's rate (points per game when scored) with 95 % intervals and the fair share.
pub fn seat_chart<G: Game, S: Strategy<G>>(setup: &TableSetup<G, S>, t: &SimTally) -> BarChart {
    let w = &G::INFO.words;
    let scored = scored::<G>();
    // Where every seat plays the same strategy, seats differ only by where the game put them:
    // a chart by position after the first player shows the first player's edge, which seats
    // (the first player moves round the table) average away.
    let same = setup.strategies.windows(2).all(|p| p[0] == p[1]);
    if !scored && same && t.positions.len() == setup.strategies.len() {
        return BarChart {
            title: format!(
                "{} by position after the {} · {}",
                super::sim::capitalised(w.rate),
                w.first_player,
                setup.describe()
            ),
            y_label: w.chart_axis.into(),
            y_unit: Unit::Percent,
            x_label: format!("position, from the {}", w.first_player),
            bar_legend: Some(bar_legend::<G>(false)),
            bars: (0..setup.strategies.len())
                .map(|k| {
                    let count = t.positions[k].sum.max(0) as u64;
                    let (p, ci) = wilson95(count, t.games);
                    Bar {
                        label: super::sim::position_name::<G>(k),
                        value: p.estimate(),
                        low: ci.low,
                        high: ci.high,
                    }
                })
                .collect(),
            marks: marks::<G>(&setup.rules, t, false),
        };
    }
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
        y_unit: if scored { Unit::Number } else { Unit::Percent },
        x_label: "seat and strategy".into(),
        bar_legend: Some(bar_legend::<G>(scored)),
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
        marks: marks::<G>(&setup.rules, t, scored),
    }
}

/// What a bar and its whisker show, for the legend.
fn bar_legend<G: Game>(scored: bool) -> String {
    if scored {
        "points per game, 95 % interval".into()
    } else {
        format!("{}, 95 % interval", G::INFO.words.rate)
    }
}

/// The fair share (rates) or break-even (points), labelled.
fn marks<G: Game>(rules: &G::Rules, t: &SimTally, scored: bool) -> Vec<RefLine> {
    if scored {
        vec![RefLine::new(0.0, "break-even")]
    } else {
        let fair = fair_rate::<G>(rules, t);
        vec![RefLine::new(fair, format!("fair share {}", percent(fair)))]
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
        y_unit: if scored { Unit::Number } else { Unit::Percent },
        x_label: "strategy".into(),
        bar_legend: Some(bar_legend::<G>(scored)),
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
        marks: marks::<G>(&setup.rules, t, scored),
    }
}

/// The distribution of game length: bars when it takes few values, a line otherwise.
pub fn length_chart<G: Game, S: Strategy<G>>(setup: &TableSetup<G, S>, t: &SimTally) -> Chart {
    let unit = G::INFO.words.length_unit;
    let title = format!("Game length · {}", setup.rules.describe());
    let y_label = "share of games".to_string();
    let games = t.games.max(1) as f64;
    let hist = &t.length_hist;
    let first = hist.iter().position(|&n| n > 0).unwrap_or(0);
    // A long thin tail (games cut at the move cap, marathons) would squash the picture: show
    // the lengths that hold 99 % of the games and say how many are left out.
    let total: u64 = hist.iter().sum();
    let mut last = first;
    let mut seen = 0u64;
    for (k, &n) in hist.iter().enumerate().skip(first) {
        seen += n;
        last = k;
        if seen as f64 >= 0.99 * total as f64 {
            break;
        }
    }
    let beyond: u64 = hist.iter().skip(last + 1).sum();
    // Many lengths are grouped into at most 60 bins of a round width (1, 2, 5, 10, 20, …):
    // a game-by-game line is jagged noise.
    let width = [
        1usize, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000,
    ]
    .into_iter()
    .find(|&w| (last - first) / w < 60)
    .unwrap_or(10_000);
    let start = first / width * width;
    // The axis title says the bins and what is left out.
    let binned = if width > 1 {
        format!(", in bins of {width}")
    } else {
        String::new()
    };
    let x_label = if beyond > 0 {
        format!(
            "{unit}{binned} ({} longer than {last}, {}, not shown)",
            crate::text::count_of(beyond, "games"),
            percent(beyond as f64 / games)
        )
    } else {
        format!("{unit}{binned}")
    };
    Chart::Bar(BarChart {
        title,
        x_label,
        y_label,
        y_unit: Unit::Percent,
        bars: (start..=last)
            .step_by(width)
            .map(|k| {
                let n: u64 = hist[k..(k + width).min(last + 1)].iter().sum();
                Bar::plain(k.to_string(), n as f64 / games)
            })
            .collect(),
        bar_legend: None,
        marks: Vec::new(),
    })
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
        y_unit: if scored { Unit::Number } else { Unit::Percent },
        x_label: "strategy, best first".into(),
        bar_legend: Some(if scored {
            format!(
                "points per seat and {}, 95 % interval",
                crate::text::singular(w.length_unit)
            )
        } else {
            format!("{} per seat, 95 % interval", w.rate)
        }),
        bars: standings(setup, t)
            .iter()
            .map(|s| Bar {
                label: setup.strategies[s.strategy].to_string(),
                value: s.rate,
                low: s.ci.low,
                high: s.ci.high,
            })
            .collect(),
        marks: if scored {
            vec![RefLine::new(0.0, "break-even")]
        } else {
            Vec::new()
        },
    }
}
