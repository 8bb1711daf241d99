//! Simulation jobs: everything a run or a shard file needs to know to simulate and to report.
//!
//! A [`Job`] is the question (serialisable, so a shard file can carry it); the runner answers it
//! with a tally; [`Job::render`] turns tally and run summary into the report. The unsharded run
//! and `tahur merge` both go through `render`, which is why a merge of all shards prints exactly
//! what the unsharded run prints.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::games::domino::deal as domino_deal;
use crate::games::dudo::montecarlo::{BidSimulation, CountHistogram};
use crate::games::dudo::prob::{self, ProbQuery};
use crate::games::ocho::deal as ocho_deal;
use crate::games::ocho::value::{self as ocho_value, ValueSetup, ValueSimulation};
use crate::play::job::{AnyJob, ChartFiles};
use crate::report::Report;
pub use crate::runner::JobRun;
use crate::runner::Simulation as _;
use crate::runner::{
    merge_erased, run_erased, typed_tally, RunControl, RunSpec, RunSummary, Shard,
};

macro_rules! play_jobs {
    ($($name:ident => $game:ty),* $(,)?) => {
        /// A whole-game job ([`crate::play::job::Job`]) of any game listed in
        /// [`crate::with_games`].
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", content = "job", rename_all = "lowercase")]
        pub enum PlayJob {
            $(
                #[doc = concat!("A job of ", stringify!($name), ".")]
                $name(crate::play::job::Job<$game>),
            )*
        }

        impl PlayJob {
            /// The job, whatever its game.
            pub fn erased(&self) -> &dyn AnyJob {
                match self {
                    $(PlayJob::$name(j) => j,)*
                }
            }
        }
    };
}
crate::with_games!(play_jobs);

/// A simulation job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Job {
    /// `tahur dudo prob … --samples N`.
    DudoProb(ProbQuery),
    /// `tahur veintiuno sim`.
    VeintiunoSim(crate::games::veintiuno::sim::HandSimSetup),
    /// `tahur veintiuno bankroll`: sittings with chips until one seat holds everything.
    VeintiunoBankroll(crate::games::veintiuno::bankroll::BankrollSetup),
    /// `tahur ocho value`: what each special card is worth (a sample is a deal, played as
    /// dealt and once per variant).
    OchoValue(ValueSetup),
    /// `tahur ocho deal --samples N`: the engine's deals of a table, counted.
    OchoDeal(crate::games::ocho::rules::Rules),
    /// `tahur domino deal --samples N`: the engine's deals, counted.
    DominoDeal(domino_deal::Question),
    /// A whole-game analysis (`sim`, `compare`, `tournament`, `flags`) of any game.
    Play(PlayJob),
}

impl Job {
    /// Samples per chunk for this job.
    pub fn chunk_size(&self) -> u64 {
        match self {
            Job::DudoProb(_) => crate::games::dudo::montecarlo::BID_CHUNK,
            Job::VeintiunoSim(_) => crate::games::veintiuno::sim::HANDS_CHUNK,
            Job::VeintiunoBankroll(_) => crate::games::veintiuno::bankroll::SITTINGS_CHUNK,
            Job::OchoValue(s) => ValueSimulation::new(s).chunk_size(),
            Job::OchoDeal(_) => ocho_deal::CHUNK,
            Job::DominoDeal(_) => domino_deal::DEAL_CHUNK,
            Job::Play(p) => p.erased().chunk_size(),
        }
    }

    /// What one sample is, for progress: "samples" (dice), "hands", "games", "deals".
    pub fn sample_unit(&self) -> &'static str {
        match self {
            Job::DudoProb(_) => "samples",
            Job::VeintiunoSim(_) => "hands",
            Job::VeintiunoBankroll(_) => "sittings",
            Job::OchoValue(_) | Job::OchoDeal(_) | Job::DominoDeal(_) => "deals",
            Job::Play(p) => p.erased().sample_unit(),
        }
    }

    /// The run definition for `samples` samples from `seed`.
    pub fn spec(&self, samples: u64, seed: u64) -> RunSpec {
        RunSpec {
            samples,
            seed,
            chunk_size: self.chunk_size(),
        }
    }

    /// Runs the job's simulation (only `shard`'s chunks if given).
    pub fn run(
        &self,
        spec: &RunSpec,
        shard: Option<Shard>,
        control: &RunControl,
    ) -> Result<JobRun> {
        match self {
            Job::DudoProb(q) => run_erased(
                &BidSimulation::new(&q.situation, q.bid.face),
                spec,
                shard,
                control,
            ),
            Job::VeintiunoSim(t) => run_erased(
                &crate::games::veintiuno::sim::HandSimulation::new(t),
                spec,
                shard,
                control,
            ),
            Job::VeintiunoBankroll(t) => run_erased(
                &crate::games::veintiuno::bankroll::BankrollSimulation::new(t),
                spec,
                shard,
                control,
            ),
            Job::OchoValue(s) => run_erased(&ValueSimulation::new(s), spec, shard, control),
            Job::OchoDeal(r) => {
                run_erased(&ocho_deal::DealSimulation::new(r), spec, shard, control)
            }
            Job::DominoDeal(q) => {
                run_erased(&domino_deal::DealSimulation::new(q), spec, shard, control)
            }
            Job::Play(p) => p.erased().run(spec, shard, control),
        }
    }

    /// Adds up tallies of this job (from shard files), in the order given.
    pub fn merge_tallies(&self, tallies: &[serde_json::Value]) -> Result<serde_json::Value> {
        match self {
            Job::DudoProb(_) => merge_erased::<CountHistogram>(tallies),
            Job::VeintiunoSim(_) => {
                merge_erased::<crate::games::veintiuno::sim::HandTally>(tallies)
            }
            Job::VeintiunoBankroll(_) => {
                merge_erased::<crate::games::veintiuno::bankroll::BankrollTally>(tallies)
            }
            Job::OchoValue(_) => merge_erased::<ocho_value::ValueTally>(tallies),
            Job::OchoDeal(_) => merge_erased::<ocho_deal::DealTally>(tallies),
            Job::DominoDeal(_) => merge_erased::<domino_deal::DealTally>(tallies),
            Job::Play(p) => p.erased().merge_tallies(tallies),
        }
    }

    /// The report for a tally, with the job's settings (the same after a shard merge as in
    /// the unsharded run: they come from the job, never from a command line).
    pub fn render(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report> {
        let mut report = self.render_figures(tally, summary)?;
        self.settings(&mut report, summary);
        Ok(report)
    }

    /// The game and command (`durak sim`) of the job.
    pub fn command(&self) -> String {
        self.command_and_charts().0
    }

    /// Puts the job's settings into `report`: game, command, what was asked, seed, samples
    /// asked and run (and their unit).
    fn settings(&self, report: &mut Report, summary: &RunSummary) {
        use crate::report::Value;
        let command = self.command();
        let (game, cmd) = command.split_once(' ').unwrap_or((command.as_str(), ""));
        let mut settings = vec![
            ("game".to_string(), Value::Text(game.into())),
            ("command".to_string(), Value::Text(cmd.into())),
        ];
        // The question as it is kept in shard files, field by field.
        let asked = |inner: serde_json::Result<serde_json::Value>| match inner {
            Ok(serde_json::Value::Object(map)) => map
                .iter()
                .map(|(k, v)| (k.clone(), Value::from_json(v)))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        match self {
            Job::DudoProb(q) => settings.extend(asked(serde_json::to_value(q))),
            Job::VeintiunoSim(t) => settings.extend(asked(serde_json::to_value(t))),
            Job::VeintiunoBankroll(t) => settings.extend(asked(serde_json::to_value(t))),
            Job::OchoValue(s) => {
                crate::play::job::table_settings(&s.table, "", &mut settings);
                settings.push(("forget".into(), Value::Num(s.forget, 4)));
            }
            Job::OchoDeal(r) => settings.push(("rules".into(), crate::play::rules::settings(r))),
            Job::DominoDeal(q) => settings.extend(asked(serde_json::to_value(q))),
            Job::Play(p) => settings.extend(p.erased().settings()),
        }
        settings.extend([
            ("unit".to_string(), Value::Text(self.sample_unit().into())),
            ("seed".to_string(), Value::Int(summary.spec.seed as i64)),
            (
                "samples_requested".to_string(),
                Value::Int(summary.spec.samples as i64),
            ),
            (
                "samples_run".to_string(),
                Value::Int(summary.samples_done as i64),
            ),
        ]);
        for (key, value) in settings {
            report.setting(&key, value);
        }
    }

    /// The report's figures for a tally.
    fn render_figures(&self, tally: &serde_json::Value, summary: &RunSummary) -> Result<Report> {
        match self {
            Job::DudoProb(q) => {
                let hist: CountHistogram = typed_tally(tally)?;
                Ok(prob::report(q, Some((&hist, summary))))
            }
            Job::VeintiunoSim(t) => Ok(crate::games::veintiuno::sim::report(
                t,
                &typed_tally::<crate::games::veintiuno::sim::HandTally>(tally)?,
                summary,
            )),
            Job::VeintiunoBankroll(t) => Ok(crate::games::veintiuno::bankroll::report(
                t,
                &typed_tally::<crate::games::veintiuno::bankroll::BankrollTally>(tally)?,
                summary,
            )),
            Job::OchoValue(s) => Ok(ocho_value::report(s, &typed_tally(tally)?, summary)),
            Job::OchoDeal(r) => Ok(ocho_deal::report(r, Some((&typed_tally(tally)?, summary)))),
            Job::DominoDeal(q) => Ok(domino_deal::report(
                q,
                &domino_deal::facts(q)?,
                Some((&typed_tally(tally)?, summary)),
            )),
            Job::Play(p) => p.erased().render(tally, summary),
        }
    }

    /// Checks a job read from a shard file as the command line would have (whole-game jobs:
    /// [`crate::play::job::Job::check`]; the others are checked by their own constructors when
    /// the report is made). `Err` names the value.
    pub fn check(&self) -> std::result::Result<(), String> {
        match self {
            Job::Play(p) => p.erased().check(),
            _ => Ok(()),
        }
    }

    /// What a tally of `samples` samples of this job must hold beyond its shape: `dudo prob`'s
    /// histogram counts every sample once, at a count no larger than the dice on the table.
    /// `Err` is the field and what is wrong with it.
    pub fn check_tally(
        &self,
        tally: &serde_json::Value,
        samples: u64,
    ) -> std::result::Result<(), (String, String)> {
        let count = |k: &str| tally.get(k).and_then(serde_json::Value::as_u64);
        let total = |k: &str| {
            tally.get(k).and_then(|v| v.as_array()).and_then(|a| {
                a.iter()
                    .try_fold(0u64, |t, c| c.as_u64().and_then(|c| t.checked_add(c)))
            })
        };
        if let Job::DominoDeal(_) = self {
            // Every deal is opened by one double or has none, and its first hand holds some
            // number of doubles; the other counts are deals with a property.
            let deals = count("deals").unwrap_or(0);
            let opened = total("opens").zip(count("no_double"));
            if opened.and_then(|(o, n)| o.checked_add(n)) != Some(deals) {
                return Err((
                    "tally.opens".into(),
                    format!("and no_double do not add up to deals ({deals})"),
                ));
            }
            if total("doubles_in_hand") != Some(deals) {
                return Err((
                    "tally.doubles_in_hand".into(),
                    format!("does not add up to deals ({deals})"),
                ));
            }
            for k in ["top_sleeps", "some_hand_without"] {
                if count(k).is_none_or(|n| n > deals) {
                    return Err((
                        format!("tally.{k}"),
                        format!("is more than deals ({deals})"),
                    ));
                }
            }
        }
        if let Job::DudoProb(q) = self {
            let Some(counts) = tally.get("counts").and_then(|c| c.as_array()) else {
                return Err(("tally.counts".into(), "is missing".into()));
            };
            let most = q.situation.dice as usize + 1;
            if counts.len() > most {
                return Err((
                    "tally.counts".into(),
                    format!(
                        "lists {} counts (at most {most}: 0 to {} dice)",
                        counts.len(),
                        q.situation.dice
                    ),
                ));
            }
            let total = counts
                .iter()
                .try_fold(0u64, |t, c| c.as_u64().and_then(|c| t.checked_add(c)));
            if total != Some(samples) {
                return Err((
                    "tally.counts".into(),
                    format!("do not add up to the {samples} samples the file holds"),
                ));
            }
        }
        Ok(())
    }

    /// The tally of no samples, as JSON, for whole-game jobs (lists of one entry per seat, per
    /// strategy, …); `None` for jobs whose tallies are histograms that grow as needed.
    pub fn empty_tally(&self) -> Result<Option<serde_json::Value>> {
        match self {
            Job::Play(p) => p.erased().empty_tally().map(Some),
            _ => Ok(None),
        }
    }

    /// The command that asks this job (`dudo prob`, `durak flags`) and the chart flags it draws.
    pub fn command_and_charts(&self) -> (String, &'static [&'static str]) {
        match self {
            Job::DudoProb(_) => ("dudo prob".into(), &[]),
            Job::VeintiunoSim(_) => ("veintiuno sim".into(), &["chart"]),
            Job::VeintiunoBankroll(_) => ("veintiuno bankroll".into(), &[]),
            Job::OchoValue(_) => ("ocho value".into(), &["chart"]),
            Job::OchoDeal(_) => ("ocho deal".into(), &[]),
            Job::DominoDeal(_) => ("domino deal".into(), &[]),
            Job::Play(p) => p.erased().command_and_charts(),
        }
    }

    /// Draws the charts asked for from a whole run's tally (whole-game jobs, `ocho value` and
    /// `veintiuno sim`), each with the run's size and seed under the plot (and "partial" for a
    /// run cut short).
    pub fn charts(
        &self,
        tally: &serde_json::Value,
        summary: &RunSummary,
        files: &ChartFiles,
    ) -> Result<()> {
        let files = ChartFiles {
            note: self.run_note(summary),
            ..files.clone()
        };
        let draw = |chart: crate::report::chart::Chart| match &files.main {
            Some(p) => {
                use crate::report::chart::SvgChart as _;
                chart.write_noted(p, &files.note)
            }
            None => Ok(()),
        };
        match self {
            Job::Play(p) => p.erased().charts(tally, &files),
            Job::OchoValue(s) => draw(ocho_value::chart(s, &typed_tally(tally)?)),
            Job::VeintiunoSim(s) => draw(crate::games::veintiuno::sim::chart(
                s,
                &typed_tally::<crate::games::veintiuno::sim::HandTally>(tally)?,
            )),
            _ => Ok(()),
        }
    }

    /// What a chart of this run rests on: "10,000 games · seed 1", or "partial: …".
    pub fn run_note(&self, summary: &RunSummary) -> String {
        crate::report::chart::run_note(
            self.sample_unit(),
            summary.samples_done,
            summary.spec.samples,
            summary.spec.seed,
        )
    }
}
