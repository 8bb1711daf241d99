//! `tahur dudo tune`: the `threshold` parameters that win most against a chosen field, for each
//! table size. One seat plays the candidate, the others the field; every candidate plays the
//! same games (same seed: common random numbers), so the comparison between candidates is
//! paired. The search runs in two stages at each table size: the doubt threshold and bluff rate
//! first (with no bluff passes and no lives weight, as the `tuned` of before these existed), then
//! the bluff-pass rate and the lives weight at the best threshold and bluff rate. Every candidate
//! chooses the direction by its dice. The winners are written to
//! `data/dudo/tuned-<rules>.csv`, which the `tuned` strategy reads, and as a "doubt below x %"
//! sheet in Markdown.

use super::bots::{DirectionChoice, Params, Strategy, DEFAULT_T};
use super::rules::RuleSet;
use super::rules::Rules;
use super::Dudo;
use crate::error::Result;
use crate::play::tune::Grid;
use crate::report::{Report, Table, Value};
use crate::runner::RunControl;
use crate::stats::Proportion;

/// What to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    /// Rule set (standard flags).
    pub set: RuleSet,
    /// Table sizes.
    pub players: Vec<u8>,
    /// The strategies of the other seats, one after the other (each takes every other seat).
    pub field: Vec<Strategy>,
    /// Games per candidate, table size and field strategy.
    pub games: u64,
    /// Seed shared by every candidate.
    pub seed: u64,
    /// Doubt thresholds tried.
    pub thresholds: Vec<f64>,
    /// Bluff rates tried.
    pub bluffs: Vec<f64>,
    /// Bluff-pass rates tried (only 0 where the rules have no paso).
    pub pasos: Vec<f64>,
    /// Lives weights tried.
    pub lives: Vec<f64>,
}

/// A candidate: `threshold` with these parameters, choosing the direction by its dice.
fn candidate(t: f64, bluff: f64, paso: f64, lives: f64) -> Strategy {
    Strategy::from_params(Params {
        t,
        bluff,
        paso,
        lives,
        direction: DirectionChoice::Dice,
    })
}

impl TuneSpec {
    /// The default grid: t = 0.05, 0.10, …, 0.65 and bluff = 0, 0.05, 0.10; then bluff-pass
    /// rates 0, 0.25, 0.5, 1 (0 only without paso) and lives weights 0, 0.25, 0.5, 1.
    pub fn grid(
        set: RuleSet,
        players: Vec<u8>,
        field: Vec<Strategy>,
        games: u64,
        seed: u64,
    ) -> Self {
        let paso = Rules::standard(set, 2).paso;
        Self {
            set,
            players,
            field,
            games,
            seed,
            thresholds: (1..=13).map(|i| i as f64 * 0.05).collect(),
            bluffs: vec![0.0, 0.05, 0.1],
            pasos: if paso {
                vec![0.0, 0.25, 0.5, 1.0]
            } else {
                vec![0.0]
            },
            lives: vec![0.0, 0.25, 0.5, 1.0],
        }
    }

    /// The first stage at a table size in the terms of the shared grid search:
    /// `threshold:t=…,bluff=…` candidates (no bluff passes, no lives weight) against the field,
    /// next to the default `threshold` (t = 0.4, no bluff).
    pub fn search_grid(&self, players: u8) -> Grid<Dudo> {
        Grid {
            tables: vec![Rules::standard(self.set, players)],
            field: self.field.clone(),
            games: self.games,
            seed: self.seed,
            first: self.thresholds.clone(),
            second: self.bluffs.clone(),
            candidate: |t, bluff| candidate(t, bluff, 0.0, 0.0),
            reference: Strategy::threshold(DEFAULT_T, 0.0),
        }
    }

    /// The second stage at a table size: bluff-pass rate × lives weight at the first stage's
    /// threshold `t` and bluff rate, next to that first-stage winner (which it replays: the
    /// same games, so the same wins).
    pub fn second_grid(
        &self,
        players: u8,
        t: f64,
        bluff: f64,
    ) -> Grid<Dudo, impl Fn(f64, f64) -> Strategy> {
        Grid {
            tables: vec![Rules::standard(self.set, players)],
            field: self.field.clone(),
            games: self.games,
            seed: self.seed,
            first: self.pasos.clone(),
            second: self.lives.clone(),
            candidate: move |paso, lives| candidate(t, bluff, paso, lives),
            reference: candidate(t, bluff, 0.0, 0.0),
        }
    }

    /// Games the whole search plays: every candidate and the reference of both stages, at
    /// every table size, against every strategy of the field.
    pub fn total_games(&self) -> u64 {
        let per_table = (self.thresholds.len() * self.bluffs.len()
            + 1
            + self.pasos.len() * self.lives.len()
            + 1)
            * self.field.len();
        ((per_table * self.players.len()) as u64).saturating_mul(self.games)
    }

    /// The field as one name list (`threshold,tuned:old.csv`).
    pub fn field_names(&self) -> String {
        self.field
            .iter()
            .map(Strategy::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The best candidate for one table size.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// Table size.
    pub players: u8,
    /// Best doubt threshold.
    pub t: f64,
    /// Best bluff rate.
    pub bluff: f64,
    /// Best bluff-pass rate.
    pub paso: f64,
    /// Best lives weight.
    pub lives: f64,
    /// Its games won out of games played.
    pub wins: Proportion,
    /// The first stage's winner (the same `t` and bluff, no bluff passes, no lives weight) on
    /// the same games.
    pub plain: Proportion,
    /// Win rate of the field's default threshold in the same seat, for reference.
    pub baseline: Proportion,
}

/// Runs the search (two [`Grid::search`]es per table size), counting the games played in
/// `control.progress`.
///
/// Stopped by a signal ([`crate::signals::INTERRUPTED`]), it returns the table sizes tuned in
/// full only (fewer than asked): a candidate stopped part-way has not played the same games as
/// the others, so it cannot be compared with them.
pub fn tune(spec: &TuneSpec, control: &RunControl) -> Result<Vec<TuneResult>> {
    let mut out = Vec::new();
    for &players in &spec.players {
        let Some(first) = spec.search_grid(players).search(control)?.pop() else {
            break;
        };
        let Some(second) = spec
            .second_grid(players, first.first, first.second)
            .search(control)?
            .pop()
        else {
            break;
        };
        out.push(TuneResult {
            players,
            t: first.first,
            bluff: first.second,
            paso: second.first,
            lives: second.second,
            wins: second.wins,
            plain: second.reference,
            baseline: first.reference,
        });
    }
    Ok(out)
}

/// The report (and the content of the sheet files).
pub fn report(spec: &TuneSpec, results: &[TuneResult]) -> Report {
    let mut r = Report::new(format!(
        "Dudo tuned thresholds · {} · against {} · {} games per candidate",
        spec.set.title(),
        spec.field_names(),
        crate::humanize::thousands(spec.games)
    ));
    r.field("rules", "rules", Value::Text(spec.set.key().into()));
    r.field("field", "field", Value::Text(spec.field_names()));
    r.field(
        "games",
        "games per candidate",
        Value::Int(spec.games as i64),
    );
    r.field("seed", "seed", Value::Int(spec.seed as i64));
    r.field(
        "candidates",
        "candidates per table",
        Value::Int(
            (spec.thresholds.len() * spec.bluffs.len() + spec.pasos.len() * spec.lives.len())
                as i64,
        ),
    );
    let mut t = Table::new(
        "tuned",
        "Doubt when the bid is true with probability below t",
        &[
            ("players", "players"),
            ("t", "doubt below"),
            ("bluff", "bluff rate"),
            ("paso", "bluff passes"),
            ("lives", "lives weight"),
            ("win_rate", "win rate"),
            ("ci95", "95 % interval"),
            ("plain_win_rate", "no bluff pass, no lives weight"),
            ("fair_share", "fair share"),
            ("default_win_rate", "threshold:t=0.4"),
        ],
    );
    t.top_level = true;
    for x in results {
        let ci = x.wins.wilson(0.95);
        t.push(vec![
            Value::Int(x.players as i64),
            Value::Prob(x.t),
            Value::Prob(x.bluff),
            Value::Prob(x.paso),
            Value::Prob(x.lives),
            Value::Prob(x.wins.estimate()),
            Value::ProbInterval(ci.low, ci.high),
            Value::Prob(x.plain.estimate()),
            Value::Prob(1.0 / x.players as f64),
            Value::Prob(x.baseline.estimate()),
        ]);
    }
    r.tables.push(t);
    r.note("Two stages at each table size: the doubt threshold and bluff rate first (no bluff passes, no lives weight), then the bluff-pass rate and the lives weight (the caution on the last life) at that threshold and bluff rate; every candidate chooses the direction by its dice. \"No bluff pass, no lives weight\" is the first stage's winner on the same games.");
    r.note("The best of the grid is picked on the same games as it is reported on, so its win rate is slightly optimistic; the grid's neighbours differ by little.");
    r
}

/// The CSV the `tuned` strategy reads.
pub fn csv(results: &[TuneResult], games: u64) -> String {
    let mut s = String::from("players,t,bluff,paso,lives,win_rate,ci95_low,ci95_high,games\n");
    for x in results {
        let ci = x.wins.wilson(0.95);
        s.push_str(&format!(
            "{},{},{},{},{},{:.6},{:.6},{:.6},{}\n",
            x.players,
            (x.t * 100.0).round() / 100.0,
            (x.bluff * 100.0).round() / 100.0,
            (x.paso * 100.0).round() / 100.0,
            (x.lives * 100.0).round() / 100.0,
            x.wins.estimate(),
            ci.low,
            ci.high,
            games
        ));
    }
    s
}
