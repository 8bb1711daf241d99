//! `tahur durak sim`: whole games on the shared runner, with the durak rate per seat, per
//! strategy and per position after the first attacker, draws, game length and epaulettes.
//!
//! Every game draws two seeds from its chunk's stream: one for the deal ([`Game::new`]), one
//! for the bots' decisions. Comparisons of rules or strategies ([`super::compare`],
//! [`super::tournament`]) draw the same two seeds per game, so their variants start from the
//! same deals. The bots are made once per chunk and reuse their scratch space, so the game
//! loop allocates nothing.

use serde::{Deserialize, Serialize};

use super::bots::{Bot, Strategy};
use super::engine::{Game, Outcome, Start, Step};
use super::rules::{Rules, Teams, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::chart::{Bar, BarChart, LineChart, Series};
use crate::report::{Report, Table, Value};
use crate::rng::{Rng, SeedableRng, Stream};
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{chi_square, two_sided_p, MeanEstimate, Proportion};

/// Most games in a series (`--series`).
pub const MAX_SERIES: u32 = 100_000;

/// Games per chunk (part of a run's definition) when no seat plays `ismcts`.
pub const GAMES_CHUNK: u64 = 1024;
/// Games per chunk when some seat plays `ismcts` (slow games: small chunks keep every core
/// busy on short runs).
pub const SEARCH_GAMES_CHUNK: u64 = 8;

/// Games per chunk for a list of strategies: [`SEARCH_GAMES_CHUNK`] if any searches, else
/// [`GAMES_CHUNK`]. A function of the job only, never of the machine.
pub fn chunk_for(strategies: &[Strategy]) -> u64 {
    if strategies
        .iter()
        .any(|s| matches!(s, Strategy::Ismcts { .. }))
    {
        SEARCH_GAMES_CHUNK
    } else {
        GAMES_CHUNK
    }
}

/// The smallest multiple of `series` that is at least `games`: chunks of whole series.
pub fn whole_series(games: u64, series: u32) -> u64 {
    games.div_ceil(series as u64) * series as u64
}

/// Number of sides that can lose: the teams, or every player when there are none.
pub fn sides(rules: &Rules) -> usize {
    match rules.teams {
        Teams::None => rules.players as usize,
        Teams::TwoByTwo | Teams::ThreeByThree => 2,
        Teams::TwoByTwoByTwo => 3,
    }
}

/// Number of teams (0 without teams).
pub fn team_count(rules: &Rules) -> usize {
    if rules.teams == Teams::None {
        0
    } else {
        sides(rules)
    }
}

/// A table: rules and the strategy in each seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSetup {
    /// The rules.
    pub rules: Rules,
    /// Strategy per seat (the given list repeated to fill the seats).
    pub strategies: Vec<Strategy>,
    /// Check the engine's invariants after every action (slower); violations are counted.
    pub check: bool,
    /// Games per series: the first game of a series has a random dealer and the holder of the
    /// lowest trump attacks; in each later one the previous durak deals and the player on
    /// their left attacks (RULES.md §3). 1: every game is a first game.
    #[serde(default = "one")]
    pub series: u32,
}

fn one() -> u32 {
    1
}

impl TableSetup {
    /// Checks the rules; seats get the listed strategies in order, repeating the list if it is
    /// shorter than the table.
    pub fn new(rules: Rules, list: &[Strategy], check: bool) -> Result<Self> {
        rules.validate()?;
        if list.is_empty() {
            return Err(Error::usage(
                "--strategies is empty: name at least one, e.g. greedy,random",
            ));
        }
        if list.len() > rules.players as usize {
            return Err(Error::usage(format!(
                "{} strategies for {} players: give at most one per seat",
                list.len(),
                rules.players
            )));
        }
        let strategies = (0..rules.players as usize)
            .map(|i| list[i % list.len()])
            .collect();
        Ok(Self {
            rules,
            strategies,
            check,
            series: 1,
        })
    }

    /// The same table with games played in series of `games` (see [`TableSetup::series`]).
    pub fn with_series(mut self, games: u32) -> Result<Self> {
        if !(1..=MAX_SERIES).contains(&games) {
            return Err(Error::usage(format!(
                "invalid --series {games}: give 1 (independent games) to {MAX_SERIES} games per series"
            )));
        }
        self.series = games;
        Ok(self)
    }

    /// How game `index` of a chunk starts, given the durak of the game before it (chunks
    /// hold whole series, so this depends on the run's definition only).
    pub fn start_of(&self, index: u64, previous_durak: Option<u8>) -> Start {
        match previous_durak {
            Some(d) if index % self.series as u64 != 0 => Start {
                dealer: Some(d),
                first_attacker: Some((d + 1) % self.rules.players),
            },
            _ => Start::default(),
        }
    }

    /// The distinct strategies, in order of first seat.
    pub fn distinct(&self) -> Vec<Strategy> {
        let mut v: Vec<Strategy> = Vec::new();
        for s in &self.strategies {
            if !v.contains(s) {
                v.push(*s);
            }
        }
        v
    }

    /// Games per chunk for this table: whole series.
    pub fn chunk_size(&self) -> u64 {
        whole_series(chunk_for(&self.strategies), self.series)
    }

    /// The table in a few words: rules and strategies.
    pub fn describe(&self) -> String {
        let names: Vec<String> = self.strategies.iter().map(|s| s.to_string()).collect();
        let series = if self.series > 1 {
            format!(" · series of {}", self.series)
        } else {
            String::new()
        };
        format!("{}{series} · {}", self.rules.describe(), names.join(", "))
    }
}

/// Counts from many games. Integers only, so tallies of chunks and shards add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTally {
    /// Games played to the end or to the move cap (games a bug dropped are not counted).
    pub games: u64,
    /// Games whose last cards went out together (no durak).
    pub draws: u64,
    /// Games stopped at the move cap (neither durak nor draw).
    pub capped: u64,
    /// Games each seat was the durak (with teams: each seat of the losing team).
    pub durak: Vec<u64>,
    /// Games the first attacker was the durak (or on the losing team).
    pub first_attacker_durak: u64,
    /// Durak count by seat position after the first attacker (0: the first attacker, 1: the
    /// first defender on their left, …).
    pub position_durak: Vec<u64>,
    /// Games each team lost (empty without teams).
    pub team_durak: Vec<u64>,
    /// Per distinct strategy (in order of first seat): Σ over games of the number of its seats
    /// among the losers.
    pub strategy_durak: Vec<u64>,
    /// Per distinct strategy: Σ over games of the square of that number (for intervals when
    /// several of its seats can lose together).
    pub strategy_durak_sq: Vec<u64>,
    /// Games by number of bouts (index = bouts).
    pub bouts_hist: Vec<u64>,
    /// Bouts played, all games.
    pub bouts_sum: u64,
    /// Games whose durak took a last attack ending in a six ("durak with epaulettes").
    pub epaulettes: u64,
    /// Of those, games with two or more sixes in that attack (both shoulders).
    pub both_shoulders: u64,
    /// Games dealt by the durak of the game before (later games of a series).
    #[serde(default)]
    pub later_games: u64,
    /// Of those, games with a durak (neither drawn nor capped).
    #[serde(default)]
    pub later_decided: u64,
    /// Of those, games the dealer (the previous durak) lost again (or their team did).
    #[serde(default)]
    pub repeat_durak: u64,
    /// Invariant violations found with `--check` (0 unless the engine is broken).
    pub violations: u64,
    /// Actions a bot chose that the engine refused (0 unless a bot is broken).
    pub illegal_actions: u64,
}

fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl Tally for GameTally {
    fn absorb(&mut self, o: &Self) {
        self.games += o.games;
        self.draws += o.draws;
        self.capped += o.capped;
        add_vec(&mut self.durak, &o.durak);
        self.first_attacker_durak += o.first_attacker_durak;
        add_vec(&mut self.position_durak, &o.position_durak);
        add_vec(&mut self.team_durak, &o.team_durak);
        add_vec(&mut self.strategy_durak, &o.strategy_durak);
        add_vec(&mut self.strategy_durak_sq, &o.strategy_durak_sq);
        add_vec(&mut self.bouts_hist, &o.bouts_hist);
        self.bouts_sum += o.bouts_sum;
        self.epaulettes += o.epaulettes;
        self.both_shoulders += o.both_shoulders;
        self.later_games += o.later_games;
        self.later_decided += o.later_decided;
        self.repeat_durak += o.repeat_durak;
        self.violations += o.violations;
        self.illegal_actions += o.illegal_actions;
    }
}

impl GameTally {
    /// Games with a durak (neither drawn nor capped).
    pub fn decided(&self) -> u64 {
        self.games - self.draws - self.capped
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The outcome.
    pub outcome: Outcome,
    /// Who attacked first.
    pub first_attacker: u8,
    /// Bouts played.
    pub bouts: u32,
    /// Epaulettes of the durak: 0, 1 or 2 (both shoulders).
    pub epaulettes: u8,
    /// Who dealt.
    pub dealer: u8,
    /// The durak ([`Game::durak`]): who deals the next game of a series.
    pub durak: Option<u8>,
}

impl Played {
    /// The facts of a finished game.
    pub fn of(game: &Game) -> Played {
        Played {
            outcome: game.outcome().unwrap_or(Outcome::Capped),
            first_attacker: game.first_attacker(),
            bouts: game.bouts(),
            epaulettes: game.epaulettes(),
            dealer: game.dealer(),
            durak: game.durak(),
        }
    }

    /// The seats that lost, as a bitmask (0 for a draw or a capped game).
    pub fn losers(&self) -> u8 {
        match self.outcome {
            Outcome::Lost { losers } => losers,
            _ => 0,
        }
    }
}

/// Why a game was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A bot chose an action the engine refused.
    Illegal,
    /// `check_invariants` failed after an action.
    Violation,
}

impl Fault {
    /// Counts the fault in a tally.
    pub fn record(self, t: &mut GameTally) {
        match self {
            Fault::Illegal => t.illegal_actions += 1,
            Fault::Violation => t.violations += 1,
        }
    }
}

/// Plays one game: seat `s` is played by `bots[seat_bot[s]]`; it starts as `start` says, the
/// deal comes from `deal`, every decision from `decisions`. With `check`, the invariants are
/// checked after every action. Allocates nothing.
pub fn play_game(
    rules: &Rules,
    bots: &mut [Bot],
    seat_bot: &[usize; MAX_PLAYERS],
    start: Start,
    deal: &mut Stream,
    decisions: &mut Stream,
    check: bool,
) -> std::result::Result<Played, Fault> {
    let mut game = Game::with_start(*rules, start, deal);
    if check && game.check_invariants().is_err() {
        return Err(Fault::Violation);
    }
    let n = rules.players as usize;
    if !check
        && seat_bot[..n]
            .iter()
            .all(|&b| bots[b].strategy() == Strategy::Random)
    {
        // Random players only: the engine's own play-out makes the same choices from the
        // same draws as the random bots would, without asking them move by move.
        game.play_out_random(decisions, bots[seat_bot[0]].scratch());
        return Ok(Played::of(&game));
    }
    loop {
        let seat = game.turn();
        let action = bots[seat_bot[seat as usize]].act(&game.view(seat), decisions);
        let step = game.apply(action).map_err(|_| Fault::Illegal)?;
        if check && game.check_invariants().is_err() {
            return Err(Fault::Violation);
        }
        if let Step::GameOver(_) = step {
            return Ok(Played::of(&game));
        }
    }
}

/// The two per-game streams (deal, decisions), seeded from two draws of the chunk's stream.
pub fn game_streams(chunk: &mut Stream) -> (Stream, Stream) {
    (
        Stream::seed_from_u64(chunk.next_u64()),
        Stream::seed_from_u64(chunk.next_u64()),
    )
}

/// Whole-game simulation of one table.
pub struct DurakSimulation {
    setup: TableSetup,
    strategy_of_seat: [usize; MAX_PLAYERS],
    strategies: usize,
    teams: usize,
}

/// Seat `s` is played by bot `s`.
pub const IDENTITY_SEATS: [usize; MAX_PLAYERS] = [0, 1, 2, 3, 4, 5];

impl DurakSimulation {
    /// The simulation of a table.
    pub fn new(setup: &TableSetup) -> Self {
        let distinct = setup.distinct();
        let mut strategy_of_seat = [0; MAX_PLAYERS];
        for (i, s) in setup.strategies.iter().enumerate() {
            strategy_of_seat[i] = distinct.iter().position(|d| d == s).unwrap_or(0);
        }
        Self {
            strategy_of_seat,
            strategies: distinct.len(),
            teams: team_count(&setup.rules),
            setup: setup.clone(),
        }
    }

    /// The table.
    pub fn setup(&self) -> &TableSetup {
        &self.setup
    }

    /// One bot per seat (made once per chunk; their scratch space is reused game after game).
    pub fn bots(&self) -> Vec<Bot> {
        self.setup.strategies.iter().map(|&s| Bot::new(s)).collect()
    }

    /// Plays one game with `bots` (from [`Self::bots`]), starting as `start` says, and records
    /// it; a dropped game (a bug) is counted as a violation or illegal action and returns
    /// `None`.
    pub fn play(
        &self,
        bots: &mut [Bot],
        start: Start,
        deal: &mut Stream,
        decisions: &mut Stream,
        t: &mut GameTally,
    ) -> Option<Played> {
        let played = self.play_only(bots, start, deal, decisions);
        self.record_result(&played, start.dealer.is_some(), t);
        played.ok()
    }

    /// Plays one game as [`Self::play`] does, without recording it.
    pub fn play_only(
        &self,
        bots: &mut [Bot],
        start: Start,
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> std::result::Result<Played, Fault> {
        play_game(
            &self.setup.rules,
            bots,
            &IDENTITY_SEATS,
            start,
            deal,
            decisions,
            self.setup.check,
        )
    }

    /// Records a game from [`Self::play_only`]: a finished game, or the fault that dropped it.
    pub fn record_result(
        &self,
        played: &std::result::Result<Played, Fault>,
        later: bool,
        t: &mut GameTally,
    ) {
        match played {
            Ok(p) => self.record(p, later, t),
            Err(f) => f.record(t),
        }
    }

    /// Adds a finished game to a tally; `later` says the previous durak dealt it.
    pub fn record(&self, p: &Played, later: bool, t: &mut GameTally) {
        let n = self.setup.rules.players as usize;
        t.games += 1;
        t.later_games += later as u64;
        if later {
            t.later_decided += matches!(p.outcome, Outcome::Lost { .. }) as u64;
            t.repeat_durak += (p.losers() >> p.dealer & 1) as u64;
        }
        t.bouts_sum += p.bouts as u64;
        let b = p.bouts as usize;
        if t.bouts_hist.len() <= b {
            // Grows only when a game is longer than every game before it in this tally.
            t.bouts_hist.resize((b + 1).next_power_of_two(), 0);
        }
        t.bouts_hist[b] += 1;
        match p.outcome {
            Outcome::Draw => t.draws += 1,
            Outcome::Capped => t.capped += 1,
            Outcome::Lost { losers } => {
                let fa = p.first_attacker as usize;
                let mut per_strategy = [0u64; MAX_PLAYERS];
                for s in 0..n {
                    if losers >> s & 1 == 1 {
                        t.durak[s] += 1;
                        t.position_durak[(s + n - fa) % n] += 1;
                        per_strategy[self.strategy_of_seat[s]] += 1;
                    }
                }
                for (k, &c) in per_strategy.iter().enumerate().take(self.strategies) {
                    t.strategy_durak[k] += c;
                    t.strategy_durak_sq[k] += c * c;
                }
                t.first_attacker_durak += (losers >> fa & 1) as u64;
                if self.teams > 0 {
                    let team = self
                        .setup
                        .rules
                        .teams
                        .team(losers.trailing_zeros() as usize);
                    t.team_durak[team] += 1;
                }
                t.epaulettes += (p.epaulettes >= 1) as u64;
                t.both_shoulders += (p.epaulettes >= 2) as u64;
            }
        }
    }
}

impl Simulation for DurakSimulation {
    type Tally = GameTally;
    fn chunk_size(&self) -> u64 {
        self.setup.chunk_size()
    }
    fn empty_tally(&self) -> GameTally {
        let n = self.setup.rules.players as usize;
        GameTally {
            durak: vec![0; n],
            position_durak: vec![0; n],
            team_durak: vec![0; self.teams],
            strategy_durak: vec![0; self.strategies],
            strategy_durak_sq: vec![0; self.strategies],
            bouts_hist: vec![0; 128],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, games: u64, t: &mut GameTally) {
        let mut bots = self.bots();
        let mut previous = None;
        for j in 0..games {
            let (mut deal, mut decisions) = game_streams(stream);
            let start = self.setup.start_of(j, previous);
            previous = self
                .play(&mut bots, start, &mut deal, &mut decisions, t)
                .and_then(|p| p.durak);
        }
    }
}

/// Mean and spread of game length in bouts (every game, capped ones included).
pub fn length_estimate(t: &GameTally) -> MeanEstimate {
    let (sum, sq) = t
        .bouts_hist
        .iter()
        .enumerate()
        .fold((0i128, 0u128), |(s, q), (k, &n)| {
            (s + k as i128 * n as i128, q + (k * k) as u128 * n as u128)
        });
    MeanEstimate::from_sums(t.games, sum, sq)
}

/// The median game length in bouts (0 without games).
pub fn median_bouts(t: &GameTally) -> u64 {
    let half = t.games.div_ceil(2);
    let mut seen = 0;
    for (k, &n) in t.bouts_hist.iter().enumerate() {
        seen += n;
        if seen >= half && n > 0 {
            return k as u64;
        }
    }
    0
}

/// The fair durak rate of one seat: the share of games with a durak split evenly between the
/// sides that can lose (players, or teams).
pub fn fair_rate(rules: &Rules, t: &GameTally) -> f64 {
    if t.games == 0 {
        0.0
    } else {
        t.decided() as f64 / t.games as f64 / sides(rules) as f64
    }
}

/// The first attacker's edge: the fair share less the first attacker's durak rate (a
/// fraction; positive when the first attacker is the durak less often than a fair share).
pub fn first_attacker_edge(rules: &Rules, t: &GameTally) -> f64 {
    if t.games == 0 {
        0.0
    } else {
        fair_rate(rules, t) - t.first_attacker_durak as f64 / t.games as f64
    }
}

/// A rate with its 95 % Wilson interval from integer counts (0 of 0 when there are no games);
/// the interval starts at exactly 0 when nothing was seen and ends at exactly 1 when
/// everything was.
pub fn wilson(successes: u64, trials: u64) -> (Proportion, f64, f64) {
    let p = Proportion::new(successes.min(trials), trials);
    let w = p.wilson(0.95);
    let low = if p.successes == 0 { 0.0 } else { w.low };
    let high = if p.successes == p.trials { 1.0 } else { w.high };
    (p, low, high)
}

/// "about 1 in 40" for a simulated rate; "none in 1,000 games" when nothing was seen (a
/// simulation cannot show that something is impossible).
pub fn plain_rate(p: &Proportion) -> String {
    if p.successes == 0 {
        format!("none in {} games", humanize::thousands(p.trials))
    } else if p.successes == p.trials {
        format!("every one of {} games", humanize::thousands(p.trials))
    } else {
        humanize::odds(p.estimate())
    }
}

/// The rate per seat of a strategy over `games` games, with its 95 % interval: from the mean of
/// the per-game count of its seats among the losers (`sum`, `sum_sq`), divided by its seats.
/// When no two of its seats can lose together the count is 0 or 1 and the Wilson interval is
/// used.
pub fn strategy_rate(sum: u64, sum_sq: u64, games: u64, seats: usize) -> (f64, f64, f64) {
    let k = seats.max(1) as f64;
    if sum == sum_sq && sum <= games {
        let (p, lo, hi) = wilson(sum, games);
        (p.estimate() / k, lo / k, hi / k)
    } else {
        let m = MeanEstimate::from_sums(games, sum as i128, sum_sq as u128);
        let ci = m.interval(0.95);
        (m.mean / k, (ci.low / k).max(0.0), (ci.high / k).min(1.0))
    }
}

fn position_name(k: usize) -> String {
    match k {
        0 => "first attacker".into(),
        1 => "first defender".into(),
        k => format!("{k} seats after the first attacker"),
    }
}

/// The report of a simulation.
pub fn report(setup: &TableSetup, t: &GameTally, run: &RunSummary) -> Report {
    let rules = &setup.rules;
    let players = rules.players as usize;
    let sides = sides(rules);
    let names: Vec<String> = setup.strategies.iter().map(|s| s.to_string()).collect();
    let mut r = Report::new(format!("Durak games · {}", setup.describe()));
    r.run_size("games", "games", t.games, run);

    let (draws, dlo, dhi) = wilson(t.draws, t.games);
    r.field("draws", "draws", Value::Int(t.draws as i64));
    r.field_plain(
        "draw_rate",
        "draw rate",
        Value::Prob(draws.estimate()),
        plain_rate(&draws),
    );
    r.field(
        "draw_rate_ci95",
        "95 % interval",
        Value::ProbInterval(dlo, dhi),
    );
    r.field(
        "capped",
        "games stopped at the move cap",
        Value::Int(t.capped as i64),
    );

    let len = length_estimate(t);
    let ci = len.interval(0.95);
    r.field(
        "mean_bouts",
        "mean game length (bouts)",
        Value::Num(len.mean, 2),
    );
    r.field(
        "mean_bouts_ci95",
        "95 % interval",
        Value::NumInterval(ci.low, ci.high, 2),
    );
    r.field(
        "median_bouts",
        "median game length (bouts)",
        Value::Int(median_bouts(t) as i64),
    );

    let fair = fair_rate(rules, t);
    let (fa, falo, fahi) = wilson(t.first_attacker_durak, t.games);
    // Among games with a durak, the first attacker's share against 1/sides: the test does not
    // depend on how often games are drawn.
    let fa_p = share_p_value(t.first_attacker_durak, t.decided(), sides);
    let (label, who) = if rules.teams == Teams::None {
        ("first attacker is the durak", "the first attacker")
    } else {
        ("first attacker's team loses", "the first attacker's team")
    };
    r.field_plain(
        "first_attacker_durak_rate",
        label,
        Value::Prob(fa.estimate()),
        edge_reading(fa.estimate(), fair, fa_p, who),
    );
    r.field(
        "first_attacker_ci95",
        "95 % interval",
        Value::ProbInterval(falo, fahi),
    );
    r.field("fair_share", "fair share per seat", Value::Prob(fair));
    r.field(
        "first_attacker_p_value",
        "p-value against the fair share",
        Value::PValue(fa_p),
    );
    if rules.teams == Teams::None && t.decided() > 0 {
        let fair_cells = vec![1.0 / players as f64; players];
        let (_, p) = chi_square(&t.durak, &fair_cells);
        r.field(
            "seat_p_value",
            "p-value that every seat is equally often the durak",
            Value::PValue(p),
        );
    }

    if setup.series > 1 {
        series_fields(&mut r, setup, t);
    }

    let (ep, eplo, ephi) = wilson(t.epaulettes, t.games);
    r.field_plain(
        "epaulettes_rate",
        "durak with epaulettes",
        Value::Prob(ep.estimate()),
        plain_rate(&ep),
    );
    r.field(
        "epaulettes_ci95",
        "95 % interval",
        Value::ProbInterval(eplo, ephi),
    );
    r.field(
        "epaulettes",
        "games with epaulettes",
        Value::Int(t.epaulettes as i64),
    );
    let both = Proportion::new(t.both_shoulders, t.games);
    r.field_plain(
        "both_shoulders_rate",
        "epaulettes on both shoulders",
        Value::Prob(both.estimate()),
        plain_rate(&both),
    );
    if setup.check {
        r.field(
            "violations",
            "rule violations found",
            Value::Int(t.violations as i64),
        );
    }
    if setup.check || t.illegal_actions > 0 {
        r.field(
            "illegal_actions",
            "illegal bot actions",
            Value::Int(t.illegal_actions as i64),
        );
    }

    let mut seats = Table::new(
        "seats",
        "Durak by seat",
        &[
            ("seat", "seat"),
            ("strategy", "strategy"),
            ("durak", "durak"),
            ("durak_rate", "durak rate"),
            ("ci95", "95 % interval"),
        ],
    );
    seats.top_level = true;
    for (i, name) in names.iter().enumerate() {
        let (p, lo, hi) = wilson(t.durak.get(i).copied().unwrap_or(0), t.games);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.clone()),
            Value::Int(p.successes as i64),
            Value::Prob(p.estimate()),
            Value::ProbInterval(lo, hi),
        ]);
    }
    r.tables.push(seats);

    let mut strat = Table::new(
        "strategies",
        "Durak by strategy (per seat)",
        &[
            ("strategy", "strategy"),
            ("seats", "seats"),
            ("durak", "durak"),
            ("durak_rate", "durak rate per seat"),
            ("ci95", "95 % interval"),
        ],
    );
    strat.top_level = true;
    for (k, s) in setup.distinct().iter().enumerate() {
        let seats = setup.strategies.iter().filter(|x| *x == s).count();
        let sum = t.strategy_durak.get(k).copied().unwrap_or(0);
        let sq = t.strategy_durak_sq.get(k).copied().unwrap_or(0);
        let (rate, lo, hi) = strategy_rate(sum, sq, t.games, seats);
        strat.push(vec![
            Value::Text(s.to_string()),
            Value::Int(seats as i64),
            Value::Int(sum as i64),
            Value::Prob(rate),
            Value::ProbInterval(lo, hi),
        ]);
    }
    r.tables.push(strat);

    let mut pos = Table::new(
        "positions",
        "Durak by position after the first attacker",
        &[
            ("position", "position"),
            ("durak", "durak"),
            ("durak_rate", "durak rate"),
            ("ci95", "95 % interval"),
        ],
    );
    for k in 0..players {
        let (p, lo, hi) = wilson(t.position_durak.get(k).copied().unwrap_or(0), t.games);
        pos.push(vec![
            Value::Text(position_name(k)),
            Value::Int(p.successes as i64),
            Value::Prob(p.estimate()),
            Value::ProbInterval(lo, hi),
        ]);
    }
    r.tables.push(pos);

    if rules.teams != Teams::None {
        let mut teams = Table::new(
            "teams",
            "Losing team",
            &[
                ("team", "team"),
                ("seats", "seats"),
                ("lost", "games lost"),
                ("loss_rate", "loss rate"),
                ("ci95", "95 % interval"),
            ],
        );
        for team in 0..sides {
            let seats: Vec<String> = (0..players)
                .filter(|&s| rules.teams.team(s) == team)
                .map(|s| format!("{} {}", s + 1, names[s]))
                .collect();
            let (p, lo, hi) = wilson(t.team_durak.get(team).copied().unwrap_or(0), t.games);
            teams.push(vec![
                Value::Int(team as i64 + 1),
                Value::Text(seats.join(", ")),
                Value::Int(p.successes as i64),
                Value::Prob(p.estimate()),
                Value::ProbInterval(lo, hi),
            ]);
        }
        r.tables.push(teams);
    }

    let mut lengths = Table::new(
        "length",
        "Game length",
        &[("bouts", "bouts"), ("games", "games"), ("share", "share")],
    );
    for (k, &n) in t.bouts_hist.iter().enumerate() {
        if n > 0 {
            lengths.push(vec![
                Value::Int(k as i64),
                Value::Int(n as i64),
                Value::Prob(n as f64 / t.games as f64),
            ]);
        }
    }
    r.tables.push(lengths);

    r.note(
        "Fair share: the games with a durak split evenly between the sides that can lose \
         (players, or teams); its p-value tests the first attacker's share of those games.",
    );
    if t.capped > 0 {
        r.note(format!(
            "{} games reached the move cap ({} actions) unfinished: they count as neither durak \
             nor draw, and their bouts count in the game length.",
            humanize::thousands(t.capped),
            humanize::thousands(rules.max_moves as u64)
        ));
    }
    if t.violations + t.illegal_actions > 0 {
        r.note(format!(
            "{} games broke a rule and were dropped: this is a bug, please report it.",
            humanize::thousands(t.violations + t.illegal_actions)
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}

/// Series: how often the previous durak, who deals, loses again.
fn series_fields(r: &mut Report, setup: &TableSetup, t: &GameTally) {
    let sides = sides(&setup.rules) as f64;
    r.field(
        "series",
        "games per series",
        Value::Int(setup.series as i64),
    );
    r.field(
        "later_games",
        "games dealt by the previous durak",
        Value::Int(t.later_games as i64),
    );
    let (again, lo, hi) = wilson(t.repeat_durak, t.later_games);
    // The fair share among the games the previous durak dealt (draws excluded as above).
    let fair = if t.later_games == 0 {
        0.0
    } else {
        t.later_decided as f64 / t.later_games as f64 / sides
    };
    r.field_plain(
        "repeat_durak_rate",
        "the dealer (previous durak) loses again",
        Value::Prob(again.estimate()),
        edge_reading(
            again.estimate(),
            fair,
            share_p_value(t.repeat_durak, t.later_decided, sides as usize),
            "the dealer",
        ),
    );
    r.field(
        "repeat_durak_ci95",
        "95 % interval",
        Value::ProbInterval(lo, hi),
    );
    r.field(
        "repeat_durak_p_value",
        "p-value against the fair share",
        Value::PValue(share_p_value(
            t.repeat_durak,
            t.later_decided,
            sides as usize,
        )),
    );
}

/// Two-sided p-value of `hits` of `decided` games against the fair share 1/`sides` (1 when no
/// game was decided).
fn share_p_value(hits: u64, decided: u64, sides: usize) -> f64 {
    if decided == 0 {
        1.0
    } else {
        two_sided_p(Proportion::new(hits, decided).z_score_against(1.0 / sides as f64))
    }
}

/// A plain reading of a loss rate against the fair share: which way it leans, by how many
/// percentage points, and whether that is more than chance (p < 0.05).
pub fn edge_reading(rate: f64, fair: f64, p: f64, who: &str) -> String {
    let points = (rate - fair).abs() * 100.0;
    if p >= 0.05 {
        format!(
            "{} points from the fair share {}: no edge shown for {who}",
            humanize::significant(points, 2),
            humanize::percent(fair)
        )
    } else if rate < fair {
        format!(
            "{} points below the fair share {}: an edge for {who}",
            humanize::significant(points, 2),
            humanize::percent(fair)
        )
    } else {
        format!(
            "{} points above the fair share {}: a handicap for {who}",
            humanize::significant(points, 2),
            humanize::percent(fair)
        )
    }
}

/// Durak rate by seat with 95 % intervals and the fair share.
pub fn seat_chart(setup: &TableSetup, t: &GameTally) -> BarChart {
    BarChart {
        title: format!("Durak rate by seat · {}", setup.rules.describe()),
        y_label: "games lost (durak)".into(),
        y_percent: true,
        bars: setup
            .strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (p, low, high) = wilson(t.durak.get(i).copied().unwrap_or(0), t.games);
                Bar {
                    label: format!("{} {s}", i + 1),
                    value: p.estimate(),
                    low,
                    high,
                }
            })
            .collect(),
        reference: Some(fair_rate(&setup.rules, t)),
    }
}

/// Durak rate per seat of each strategy with 95 % intervals and the fair share.
pub fn strategy_chart(setup: &TableSetup, t: &GameTally) -> BarChart {
    BarChart {
        title: format!("Durak rate by strategy · {}", setup.rules.describe()),
        y_label: "games lost per seat (durak)".into(),
        y_percent: true,
        bars: setup
            .distinct()
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let seats = setup.strategies.iter().filter(|x| *x == s).count();
                let (value, low, high) = strategy_rate(
                    t.strategy_durak.get(k).copied().unwrap_or(0),
                    t.strategy_durak_sq.get(k).copied().unwrap_or(0),
                    t.games,
                    seats,
                );
                Bar {
                    label: s.to_string(),
                    value,
                    low,
                    high,
                }
            })
            .collect(),
        reference: Some(fair_rate(&setup.rules, t)),
    }
}

/// The distribution of game length in bouts.
pub fn length_chart(setup: &TableSetup, t: &GameTally) -> LineChart {
    LineChart {
        title: format!("Game length · {}", setup.rules.describe()),
        x_label: "bouts".into(),
        y_label: "share of games".into(),
        y_percent: false,
        series: vec![Series {
            label: "games".into(),
            points: t
                .bouts_hist
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::durak::rules::Variant;
    use crate::runner::{run, RunControl, RunSpec, Shard};

    fn setup(players: u8, list: &[Strategy]) -> TableSetup {
        TableSetup::new(Rules::standard(Variant::Podkidnoy, players), list, true).unwrap()
    }

    #[test]
    fn counts_add_up_and_shards_merge_exactly() {
        let s = setup(3, &[Strategy::Greedy, Strategy::Random]);
        let sim = DurakSimulation::new(&s);
        let spec = RunSpec {
            samples: 2500,
            seed: 5,
            chunk_size: sim.chunk_size(),
        };
        let control = RunControl {
            threads: Some(2),
            progress: false,
        };
        let whole = run(&sim, &spec, None, &control).unwrap().tally;
        assert_eq!(whole.games, 2500);
        assert_eq!(whole.violations + whole.illegal_actions, 0);
        let durak: u64 = whole.durak.iter().sum();
        assert_eq!(durak + whole.draws + whole.capped, whole.games);
        assert_eq!(whole.position_durak.iter().sum::<u64>(), durak);
        assert_eq!(whole.strategy_durak.iter().sum::<u64>(), durak);
        assert_eq!(whole.bouts_hist.iter().sum::<u64>(), whole.games);
        assert!(whole.first_attacker_durak <= durak);
        let mut merged = sim.empty_tally();
        for k in 1..=3 {
            let part = run(&sim, &spec, Some(Shard { index: k, count: 3 }), &control).unwrap();
            merged.absorb(&part.tally);
        }
        assert_eq!(merged, whole);
    }

    #[test]
    fn teams_count_every_seat_of_the_losing_team() {
        let mut rules = Rules::standard(Variant::Podkidnoy, 4);
        rules.teams = Teams::TwoByTwo;
        let s = TableSetup::new(rules, &[Strategy::Greedy], false).unwrap();
        let sim = DurakSimulation::new(&s);
        let mut t = sim.empty_tally();
        let mut stream = Stream::seed_from_u64(3);
        sim.run_chunk(&mut stream, 300, &mut t);
        assert_eq!(t.games, 300);
        assert_eq!(t.durak[0], t.durak[2]);
        assert_eq!(t.durak[1], t.durak[3]);
        assert_eq!(t.team_durak, vec![t.durak[0], t.durak[1]]);
        assert_eq!(t.team_durak.iter().sum::<u64>() + t.draws + t.capped, 300);
        // One strategy in four seats: two of its seats lose every decided game.
        assert_eq!(t.strategy_durak[0], 2 * t.decided());
        let rep = report(&s, &t, &summary(t.games));
        assert!(rep.tables.iter().any(|x| x.key == "teams"));
    }

    #[test]
    fn series_are_dealt_by_the_previous_durak() {
        let rules = Rules::standard(Variant::Podkidnoy, 3);
        let s = TableSetup::new(rules, &[Strategy::Greedy, Strategy::Random], true)
            .unwrap()
            .with_series(7)
            .unwrap();
        assert_eq!(s.chunk_size(), 1029, "chunks hold whole series");
        assert!(s.clone().with_series(0).is_err());
        let sim = DurakSimulation::new(&s);
        let mut t = sim.empty_tally();
        sim.run_chunk(&mut Stream::seed_from_u64(11), 700, &mut t);
        // The same games by hand: each later game dealt by the durak of the one before, the
        // player on their left attacking; a fresh start after a draw and every 7 games.
        let mut bots = sim.bots();
        let mut stream = Stream::seed_from_u64(11);
        let (mut later, mut again, mut previous) = (0, 0, None::<u8>);
        for j in 0..700u64 {
            let (mut deal, mut decisions) = game_streams(&mut stream);
            let start = match previous {
                Some(d) if j % 7 != 0 => Start {
                    dealer: Some(d),
                    first_attacker: Some((d + 1) % 3),
                },
                _ => Start::default(),
            };
            let mut game = Game::with_start(rules, start, &mut deal);
            if let Some(d) = start.dealer {
                assert_eq!((game.dealer(), game.first_attacker()), (d, (d + 1) % 3));
            }
            while game.outcome().is_none() {
                let seat = game.turn();
                let a = bots[seat as usize].act(&game.view(seat), &mut decisions);
                game.apply(a).unwrap();
            }
            if let Some(d) = start.dealer {
                later += 1;
                again += u64::from(game.durak() == Some(d));
            }
            previous = game.durak();
            if let Some(Outcome::Lost { losers }) = game.outcome() {
                let d = previous.unwrap();
                assert_eq!(losers, 1 << d, "the durak is the one loser");
                assert_ne!(game.hand(d), 0, "the durak is left holding cards");
            } else {
                assert_eq!(previous, None);
            }
        }
        assert_eq!((t.later_games, t.repeat_durak), (later, again));
        assert!(later > 500 && later < 600, "{later} later games of 700");
        let rep = report(&s, &t, &summary(t.games));
        assert!(rep.fields.iter().any(|f| f.key == "repeat_durak_rate"));
    }

    #[test]
    fn strategy_rates_stay_in_range() {
        let (r, lo, hi) = strategy_rate(300, 900, 100, 3);
        assert!((r - 1.0).abs() < 1e-12 && lo <= r && hi <= 1.0);
        let (r, lo, hi) = strategy_rate(40, 40, 100, 2);
        assert!((r - 0.2).abs() < 1e-12 && lo < r && r < hi);
    }

    fn summary(games: u64) -> RunSummary {
        RunSummary {
            spec: RunSpec {
                samples: games,
                seed: 3,
                chunk_size: GAMES_CHUNK,
            },
            samples_done: games,
            interrupted: false,
            missing: None,
        }
    }
}
