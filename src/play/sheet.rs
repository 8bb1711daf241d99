//! Cheat sheets from play, written once for every game: the decisions players ask about, each
//! class of situation with the better action and by how much.
//!
//! A game says which decisions its sheet covers ([`SheetGame::TOPICS`]: "take or beat?", "which
//! card to lead?") and sorts a decision into a topic, a row of that topic (a class of situation:
//! "one card on the table, no trump held") and the actions that stand for each of the topic's
//! options ([`SheetGame::classify`]).
//!
//! The sheet is measured the way advice is ([`super::advise`]): games are played by the reference
//! strategy at every seat; in each game one decision of each topic is picked uniformly at random
//! among those of the game (so the situations of a topic are independent draws from the
//! situations that strategy meets); from it, [`SheetSpec::rollouts`] times, what the player cannot
//! see is dealt again ([`State::deal_for_view`]) and every option is played on that same deal with
//! the same streams, the reference strategy playing every seat to the end. A situation's
//! difference between two options is the sum of its paired rollout differences; a cell's
//! difference is their mean over the cell's situations, with an interval from the spread *between
//! situations* (what a player meeting this class of situation can expect, not one position's
//! noise).
//!
//! A cell recommends the option that does best against each other one (the highest smallest
//! pairwise difference); when that difference is not shown at p < 0.05 the cell says "either".
//! Tallies are exact integer sums in fixed chunks with their own streams: the same seed gives the
//! same sheet at any thread count and shard split.

use serde::{Deserialize, Serialize};

use super::advise::rollout_value;
use super::{game_streams, ActionOf, Bot, Game, GameRules, Seat, State, Strategy, ViewOf};
use crate::error::{Error, Result};
use crate::report::{Report, Table, Value};
use crate::rng::{uniform_below, Rng, SeedableRng, Stream};
use crate::runner::{RunControl, RunSpec, Simulation, Tally};
use crate::stats::{paired_means, PairedDifference, Sums};

/// Most options a topic may have.
pub const MAX_OPTIONS: usize = 4;
/// Games per chunk (part of a sheet's definition).
pub const CHUNK: u64 = 16;
/// Level below which a cell's difference is shown; above it the cell says "either".
pub const ALPHA: f64 = 0.05;
/// Fewest situations with both options for a pair of options to be compared (a rare option's
/// few situations say nothing either way).
pub const MIN_PAIRED: u64 = 20;
/// Most actions one game or rollout may take before it is dropped as broken.
const MAX_ACTIONS: u32 = 1_000_000;

/// A decision a sheet covers.
#[derive(Clone, Copy, Debug)]
pub struct Topic {
    /// Machine name (CSV): `take_or_beat`.
    pub key: &'static str,
    /// The question as players ask it: "Take or beat?".
    pub question: &'static str,
    /// The options (machine names, also shown): `take`, `beat`.
    pub options: &'static [&'static str],
    /// The classes of situation (rows), as players would say them.
    pub rows: &'static [&'static str],
}

/// A decision sorted into a sheet: its topic, its row and the action standing for each option
/// present (`None`: not possible here).
#[derive(Clone, Copy, Debug)]
pub struct Situation<A> {
    /// Index in [`SheetGame::TOPICS`].
    pub topic: usize,
    /// Index in the topic's rows.
    pub row: usize,
    /// The action of each option, by the topic's option order.
    pub actions: [Option<A>; MAX_OPTIONS],
}

impl<A: Copy> Situation<A> {
    /// Options present.
    pub fn present(&self) -> usize {
        self.actions.iter().filter(|a| a.is_some()).count()
    }
}

/// A game with a cheat sheet.
pub trait SheetGame: Game {
    /// The strategy the sheet is measured with (the rollouts' players) and falls back on.
    type Reference: Strategy<Self>;
    /// The decisions covered.
    const TOPICS: &'static [Topic];
    /// The reference strategy (`greedy`, `company`).
    fn reference() -> Self::Reference;
    /// Games per sheet of the shipped sheets (`GAME sheet`'s default).
    const SHEET_GAMES: u64;
    /// Rollouts per situation of the shipped sheets.
    const SHEET_ROLLOUTS: u32;
    /// The sheets (file names: `sheet-<name>`), one per table measured.
    const SHEETS: &'static [&'static str];
    /// The table sheet `sheet` is measured at.
    fn sheet_rules(sheet: usize) -> Self::Rules;
    /// The sheet the `sheet` bot plays at a table with these rules (the nearest one).
    fn sheet_for(rules: &Self::Rules) -> usize;
    /// Sorts the decision `view` shows into a topic and row, with the action of each option;
    /// `None` when the sheet does not cover it. Must allocate nothing (bots call it every move).
    fn classify(view: &ViewOf<'_, Self>) -> Option<Situation<ActionOf<Self>>>;
}

/// How a sheet is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetSpec {
    /// Which of [`SheetGame::SHEETS`].
    pub sheet: usize,
    /// Games played by the reference strategy (each gives at most one situation per topic).
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// Rollouts per situation (each plays every option on the same deal).
    pub rollouts: u32,
}

/// The sums of one cell (a topic's row).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CellTally {
    /// Situations measured.
    pub situations: u64,
    /// Per option: situations where it was possible.
    pub present: Vec<u64>,
    /// Per option: Σ of its rollout values (half points) over those situations.
    pub values: Vec<Sums>,
    /// Per pair i < j: situations with both, and Σ/Σ² of each situation's summed difference
    /// value(i) − value(j) over its rollouts (half points).
    pub both: Vec<u64>,
    /// See [`Self::both`].
    pub differences: Vec<Sums>,
}

/// Index of the pair (i, j), i < j, among `k` options.
fn pair(i: usize, j: usize, k: usize) -> usize {
    i * (2 * k - i - 1) / 2 + (j - i - 1)
}

impl CellTally {
    fn new(k: usize) -> Self {
        CellTally {
            situations: 0,
            present: vec![0; k],
            values: vec![Sums::default(); k],
            both: vec![0; k * (k - 1) / 2],
            differences: vec![Sums::default(); k * (k - 1) / 2],
        }
    }

    fn absorb(&mut self, o: &Self) {
        self.situations += o.situations;
        for (a, b) in self.present.iter_mut().zip(&o.present) {
            *a += b;
        }
        for (a, b) in self.values.iter_mut().zip(&o.values) {
            a.absorb(b);
        }
        for (a, b) in self.both.iter_mut().zip(&o.both) {
            *a += b;
        }
        for (a, b) in self.differences.iter_mut().zip(&o.differences) {
            a.absorb(b);
        }
    }
}

/// The exact sums of a sheet's measurement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SheetTally {
    /// Games played.
    pub games: u64,
    /// Games or rollouts dropped because a bot's action was refused or a game never ended.
    pub faults: u64,
    /// The cells, topic by topic and row by row.
    pub cells: Vec<CellTally>,
}

impl Tally for SheetTally {
    fn absorb(&mut self, o: &Self) {
        self.games += o.games;
        self.faults += o.faults;
        if self.cells.is_empty() {
            self.cells = o.cells.clone();
            return;
        }
        for (a, b) in self.cells.iter_mut().zip(&o.cells) {
            a.absorb(b);
        }
    }
}

/// Where the cell of (topic, row) sits in [`SheetTally::cells`].
pub fn cell_index<G: SheetGame>(topic: usize, row: usize) -> usize {
    G::TOPICS[..topic]
        .iter()
        .map(|t| t.rows.len())
        .sum::<usize>()
        + row
}

fn empty_tally<G: SheetGame>() -> SheetTally {
    SheetTally {
        games: 0,
        faults: 0,
        cells: G::TOPICS
            .iter()
            .flat_map(|t| t.rows.iter().map(|_| CellTally::new(t.options.len())))
            .collect(),
    }
}

/// A sheet's measurement as a simulation of the shared runner (a sample is one game).
pub struct SheetSimulation<G: SheetGame> {
    rules: G::Rules,
    rollouts: u32,
}

impl<G: SheetGame> SheetSimulation<G> {
    /// The measurement of `spec`'s sheet.
    pub fn new(spec: &SheetSpec) -> Self {
        SheetSimulation {
            rules: G::sheet_rules(spec.sheet),
            rollouts: spec.rollouts.max(1),
        }
    }

    /// Plays `game` to its end; `false` when a bot's action is refused or it never ends.
    fn finish(
        game: &mut G::State,
        bots: &mut [<G::Reference as Strategy<G>>::Bot],
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> bool {
        let mut steps = 0u32;
        while !game.is_over() {
            let seat = game.to_act();
            let action = bots[seat].act(&game.view(seat), decisions);
            if game.apply(action, deal).is_err() {
                return false;
            }
            steps += 1;
            if steps > MAX_ACTIONS {
                return false;
            }
        }
        true
    }
}

/// The decision picked for a topic in one game.
struct Pick<G: SheetGame> {
    seen: u64,
    chosen: Option<(G::State, Situation<ActionOf<G>>)>,
}

impl<G: SheetGame> Simulation for SheetSimulation<G> {
    type Tally = SheetTally;

    fn chunk_size(&self) -> u64 {
        CHUNK
    }

    fn empty_tally(&self) -> SheetTally {
        empty_tally::<G>()
    }

    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut SheetTally) {
        let players = self.rules.players();
        let reference = G::reference();
        let mut bots: Vec<_> = (0..players).map(|_| reference.bot(&self.rules)).collect();
        let start = super::Start::default();
        let mut picks: Vec<Pick<G>> = G::TOPICS
            .iter()
            .map(|_| Pick {
                seen: 0,
                chosen: None,
            })
            .collect();
        let r = self.rollouts as usize;
        let mut values = vec![[0i64; MAX_OPTIONS]; r];
        for _ in 0..samples {
            let (mut deal, mut decisions) = game_streams(stream);
            let mut pick_stream = Stream::seed_from_u64(stream.next_u64());
            let mut game = G::State::deal(&self.rules, &start, &mut deal);
            for p in picks.iter_mut() {
                p.seen = 0;
                p.chosen = None;
            }
            // Play the game, keeping one decision of each topic uniformly at random (reservoir).
            let mut steps = 0u32;
            let mut broken = false;
            while !game.is_over() {
                let seat = game.to_act();
                let view = game.view(seat);
                if let Some(s) = G::classify(&view).filter(|s| s.present() >= 2) {
                    let p = &mut picks[s.topic];
                    p.seen += 1;
                    if uniform_below(&mut pick_stream, p.seen as usize) == 0 {
                        p.chosen = Some((game.clone(), s));
                    }
                }
                let action = bots[seat].act(&view, &mut decisions);
                drop(view);
                if game.apply(action, &mut deal).is_err() || steps > MAX_ACTIONS {
                    broken = true;
                    break;
                }
                steps += 1;
            }
            if broken {
                t.faults += 1;
                continue;
            }
            t.games += 1;
            for p in picks.iter_mut() {
                let Some((position, s)) = p.chosen.take() else {
                    continue;
                };
                let seat: Seat = position.to_act();
                let view = position.view(seat);
                let mut ok = true;
                for row in values.iter_mut() {
                    let (mut deal, decisions) = game_streams(stream);
                    let dealt = G::State::deal_for_view(&view, &mut deal);
                    for (i, a) in s.actions.iter().enumerate() {
                        let Some(a) = *a else { continue };
                        let mut g = dealt.clone();
                        let (mut d, mut c) = (deal.clone(), decisions.clone());
                        if g.apply(a, &mut d).is_err()
                            || !Self::finish(&mut g, &mut bots, &mut d, &mut c)
                        {
                            ok = false;
                            break;
                        }
                        row[i] = rollout_value::<G>(&g, seat);
                    }
                    if !ok {
                        break;
                    }
                }
                if !ok {
                    t.faults += 1;
                    continue;
                }
                let k = G::TOPICS[s.topic].options.len();
                let cell = &mut t.cells[cell_index::<G>(s.topic, s.row)];
                cell.situations += 1;
                for i in 0..k {
                    if s.actions[i].is_none() {
                        continue;
                    }
                    cell.present[i] += 1;
                    cell.values[i].add(values.iter().map(|v| v[i]).sum());
                    for j in i + 1..k {
                        if s.actions[j].is_none() {
                            continue;
                        }
                        let q = pair(i, j, k);
                        cell.both[q] += 1;
                        cell.differences[q].add(values.iter().map(|v| v[i] - v[j]).sum());
                    }
                }
            }
        }
    }
}

/// The run definition of a sheet.
pub fn run_spec(spec: &SheetSpec) -> RunSpec {
    RunSpec {
        samples: spec.games,
        seed: spec.seed,
        chunk_size: CHUNK,
    }
}

/// Measures game `G`'s sheet.
pub fn measure<G: SheetGame>(spec: &SheetSpec, control: &RunControl) -> Result<SheetTally> {
    let sim = SheetSimulation::<G>::new(spec);
    let r = crate::runner::run(&sim, &run_spec(spec), None, control)?;
    if r.interrupted {
        return Err(Error::usage(format!(
            "interrupted after {} of {} games: the sheet is not written",
            r.samples_done, spec.games
        )));
    }
    Ok(r.tally)
}

/// The tally of the first `chunks` chunks of `spec` (what the stale test recomputes).
pub fn measure_prefix<G: SheetGame>(
    spec: &SheetSpec,
    chunks: u64,
    control: &RunControl,
) -> Result<SheetTally> {
    let sim = SheetSimulation::<G>::new(spec);
    let run = run_spec(spec);
    let end = chunks.min(run.total_chunks());
    Ok(crate::runner::run_range(&sim, &run, 0..end, control)?.tally)
}

/// What a cell says.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Topic index.
    pub topic: usize,
    /// Row index.
    pub row: usize,
    /// Situations measured.
    pub situations: u64,
    /// The option that does best against each other one (None: fewer than two options met).
    pub best: Option<usize>,
    /// The option it does least well against.
    pub runner_up: Option<usize>,
    /// Best against runner-up, in chances of the game's event, paired over the situations.
    pub difference: Option<PairedDifference>,
    /// Whether the difference is shown at p < [`ALPHA`] (else the cell says "either").
    pub shown: bool,
}

/// Reads a cell's tally.
pub fn cell<G: SheetGame>(tally: &SheetTally, spec: &SheetSpec, topic: usize, row: usize) -> Cell {
    let c = &tally.cells[cell_index::<G>(topic, row)];
    let k = G::TOPICS[topic].options.len();
    let scale = 2.0 * spec.rollouts as f64;
    let versus = |i: usize, j: usize| -> Option<PairedDifference> {
        let (lo, hi) = (i.min(j), i.max(j));
        let q = pair(lo, hi, k);
        let n = c.both[q];
        if n < MIN_PAIRED {
            return None;
        }
        let mut d = c.differences[q];
        if i > j {
            d.sum = -d.sum;
        }
        let mean = |o: usize| c.values[o].sum as f64 / (scale * c.present[o].max(1) as f64);
        Some(paired_means(mean(i), mean(j), &d, n, scale))
    };
    // The option whose smallest difference against the others is largest.
    let mut best: Option<(usize, usize, PairedDifference)> = None;
    for i in 0..k {
        let mut worst: Option<(usize, PairedDifference)> = None;
        for j in (0..k).filter(|&j| j != i) {
            if let Some(d) = versus(i, j) {
                if worst
                    .as_ref()
                    .is_none_or(|(_, w)| d.difference < w.difference)
                {
                    worst = Some((j, d));
                }
            }
        }
        if let Some((j, d)) = worst {
            if best
                .as_ref()
                .is_none_or(|(_, _, b)| d.difference > b.difference)
            {
                best = Some((i, j, d));
            }
        }
    }
    let shown = best
        .as_ref()
        .is_some_and(|(_, _, d)| d.difference > 0.0 && d.p_value < ALPHA);
    Cell {
        topic,
        row,
        situations: c.situations,
        best: best.as_ref().map(|b| b.0),
        runner_up: best.as_ref().map(|b| b.1),
        difference: best.map(|b| b.2),
        shown,
    }
}

/// Every cell of a sheet, topic by topic.
pub fn cells<G: SheetGame>(tally: &SheetTally, spec: &SheetSpec) -> Vec<Cell> {
    G::TOPICS
        .iter()
        .enumerate()
        .flat_map(|(t, topic)| (0..topic.rows.len()).map(move |r| (t, r)))
        .map(|(t, r)| cell::<G>(tally, spec, t, r))
        .collect()
}

/// A cell's verdict for players and for the `sheet` bot: the option's name, "either" or "—"
/// (nothing measured).
pub fn verdict<G: SheetGame>(c: &Cell) -> &'static str {
    match (c.best, c.shown) {
        (Some(b), true) => G::TOPICS[c.topic].options[b],
        (Some(_), false) => "either",
        (None, _) => "—",
    }
}

/// The sheet as one table (the CSV file): a row per cell.
pub fn table<G: SheetGame>(tally: &SheetTally, spec: &SheetSpec) -> Table {
    let mut t = Table::new(
        "sheet",
        "Cheat sheet",
        &[
            ("topic", "decision"),
            ("situation", "situation"),
            ("play", "play"),
            ("best", "best measured"),
            ("next", "next best"),
            ("difference", "by (chance)"),
            ("interval", "95 % interval"),
            ("p_value", "p"),
            ("situations", "situations"),
        ],
    );
    for c in cells::<G>(tally, spec) {
        let topic = &G::TOPICS[c.topic];
        let name =
            |o: Option<usize>| o.map_or(Value::Empty, |o| Value::Text(topic.options[o].into()));
        let (diff, interval, p) = match &c.difference {
            Some(d) => (
                Value::Prob(d.difference),
                Value::ProbInterval(d.interval.low, d.interval.high),
                Value::PValue(d.p_value),
            ),
            None => (Value::Empty, Value::Empty, Value::Empty),
        };
        t.push(vec![
            Value::Label(topic.question.into(), topic.key.into()),
            Value::Text(topic.rows[c.row].into()),
            Value::Text(verdict::<G>(&c).into()),
            name(c.best),
            name(c.runner_up),
            diff,
            interval,
            p,
            Value::Int(c.situations as i64),
        ]);
    }
    t
}

/// The sheet as a report: a table per topic (the Markdown file) after what it was measured with.
pub fn report<G: SheetGame>(tally: &SheetTally, spec: &SheetSpec) -> Report {
    let rules = G::sheet_rules(spec.sheet);
    let reference = G::reference();
    let mut r = Report::new(format!(
        "{} cheat sheet: {}, measured with {reference} at every seat",
        G::INFO.title,
        rules.describe()
    ));
    r.field("games", "games played", Value::Int(tally.games as i64));
    r.field(
        "rollouts",
        "rollouts per situation",
        Value::Int(spec.rollouts as i64),
    );
    r.field("seed", "seed", Value::Int(spec.seed as i64));
    let all = table::<G>(tally, spec);
    for (t, topic) in G::TOPICS.iter().enumerate() {
        let mut part = Table::new(topic.key, topic.question, &[]);
        part.columns = all.columns[1..].to_vec();
        part.labels = all.labels[1..].to_vec();
        let first = cell_index::<G>(t, 0);
        for row in &all.rows[first..first + topic.rows.len()] {
            part.rows.push(row[1..].to_vec());
        }
        r.tables.push(part);
    }
    r.note(format!(
        "How to read it: in each situation, \"play\" is the option that does best against every \
         other one, and \"by\" how much it adds to the player's chance {} against the next best \
         (paired rollouts from the situations counted, {} rollouts each with what the player \
         cannot see dealt again; the interval is over situations). A cell says \"either\" when \
         that difference is not shown at p < {ALPHA}: there the `sheet` bot plays as {reference} \
         does. Hidden cards are dealt uniformly over what the player cannot see.",
        good_side::<G>(),
        spec.rollouts
    ));
    r
}

/// The good side of the game's event, after "the player's chance": "of winning", "of not being
/// the durak".
fn good_side<G: Game>() -> String {
    match G::INFO.scoring {
        super::Scoring::Event { good: false } => {
            format!("of not being the {}", G::INFO.words.event)
        }
        _ => "of winning".to_string(),
    }
}

/// The `sheet` bot's table: per cell, the option to play (None: play as the reference does).
#[derive(Clone, Debug, PartialEq)]
pub struct SheetTable {
    /// Per cell (topic by topic, row by row).
    pub play: Vec<Option<u8>>,
}

impl SheetTable {
    /// The sheets a game ships, built into the binary as `(file name, CSV text)` and read once
    /// into `cell` (a test reads every shipped file, so reading them cannot fail at run time).
    pub fn built_in<G: SheetGame>(
        cell: &'static std::sync::OnceLock<Vec<SheetTable>>,
        files: &[(&str, &'static str)],
    ) -> &'static [SheetTable] {
        cell.get_or_init(|| {
            files
                .iter()
                .map(|(name, text)| {
                    SheetTable::parse::<G>(text, name).expect("a test reads the shipped sheets")
                })
                .collect()
        })
    }

    /// Reads a sheet's CSV (as [`table`] writes it); `origin` names it in messages.
    pub fn parse<G: SheetGame>(text: &str, origin: &str) -> Result<SheetTable> {
        let mut play: Vec<Option<u8>> = vec![None; G::TOPICS.iter().map(|t| t.rows.len()).sum()];
        let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        for (line, rec) in reader.records().enumerate() {
            let rec = rec.map_err(|e| Error::usage(format!("{origin}: {e}")))?;
            let field = |i: usize| rec.get(i).unwrap_or("");
            let bad = |what: &str| {
                Error::usage(format!(
                    "{origin}, row {}: {what} is not on the {} sheet",
                    line + 2,
                    G::INFO.title
                ))
            };
            let t = G::TOPICS
                .iter()
                .position(|t| t.key == field(0))
                .ok_or_else(|| bad(&format!("decision '{}'", field(0))))?;
            let topic = &G::TOPICS[t];
            let r = topic
                .rows
                .iter()
                .position(|r| *r == field(1))
                .ok_or_else(|| bad(&format!("situation '{}'", field(1))))?;
            let o = topic.options.iter().position(|o| *o == field(2));
            play[cell_index::<G>(t, r)] = o.map(|o| o as u8);
        }
        Ok(SheetTable { play })
    }

    /// The action the sheet plays in `view`'s decision, if it covers it and says one.
    #[inline]
    pub fn action<G: SheetGame>(&self, view: &ViewOf<'_, G>) -> Option<ActionOf<G>> {
        let s = G::classify(view)?;
        let o = self.play[cell_index::<G>(s.topic, s.row)]?;
        s.actions[o as usize]
    }
}

/// The files of a sheet: `sheet-<name>.md`, `.csv` and `-tally.json` (the sums, with the
/// first chunks' sums the stale test recomputes).
pub fn files<G: SheetGame>(
    tally: &SheetTally,
    prefix: &SheetTally,
    spec: &SheetSpec,
) -> Result<Vec<(String, String)>> {
    use crate::report::{render, Format};
    let mut md = render(&report::<G>(tally, spec), Format::Markdown)?;
    md.push('\n');
    let csv = crate::report::table_csv(&table::<G>(tally, spec))?;
    let stored = StoredSheet {
        spec: *spec,
        prefix_chunks: PREFIX_CHUNKS,
        prefix: prefix.clone(),
        tally: tally.clone(),
    };
    let mut json = serde_json::to_string_pretty(&stored)
        .map_err(|e| Error::Internal(format!("sheet tally: {e}")))?;
    json.push('\n');
    let name = G::SHEETS[spec.sheet];
    Ok(vec![
        (format!("sheet-{name}.md"), md),
        (format!("sheet-{name}.csv"), csv),
        (format!("sheet-{name}-tally.json"), json),
    ])
}

/// Chunks whose sums a sheet file keeps apart, for its stale test.
pub const PREFIX_CHUNKS: u64 = 1;

/// A sheet's sums as shipped (`sheet-tally.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredSheet {
    /// How it was measured.
    pub spec: SheetSpec,
    /// Chunks in [`Self::prefix`].
    pub prefix_chunks: u64,
    /// The sums of the first chunks alone.
    pub prefix: SheetTally,
    /// The sums of the whole measurement.
    pub tally: SheetTally,
}
