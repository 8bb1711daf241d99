//! `tahur dudo sim`: whole games on the shared runner, with per-seat and per-strategy results.

use serde::{Deserialize, Serialize};

use super::bots::{OddsTables, Strategy};
use super::engine::{Action, Event, Game, GameConfig, RoundEnd, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::chart::{Bar, BarChart, LineChart, Series};
use crate::report::{Report, Table, Value};
use crate::rng::{Rng, SeedableRng, Stream};
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{MeanEstimate, Proportion};

/// Games per chunk (part of a run's definition).
pub const GAMES_CHUNK: u64 = 256;

/// A table: rules and the strategy in each seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSetup {
    /// Rules of the game.
    pub game: GameConfig,
    /// Strategy per seat (as given, `tuned` unresolved).
    pub strategies: Vec<Strategy>,
    /// Check the engine's invariants after every action (slower).
    pub check: bool,
}

impl TableSetup {
    /// Seats get the listed strategies in order, repeating the list if it is shorter.
    pub fn new(game: GameConfig, list: &[Strategy], check: bool) -> Result<Self> {
        game.validate()?;
        if list.is_empty() {
            return Err(Error::usage(
                "--strategies is empty: name at least one, e.g. threshold,random",
            ));
        }
        if list.len() > game.players as usize {
            return Err(Error::usage(format!(
                "{} strategies for {} players: give at most one per seat",
                list.len(),
                game.players
            )));
        }
        let strategies = (0..game.players as usize)
            .map(|i| list[i % list.len()])
            .collect();
        Ok(Self {
            game,
            strategies,
            check,
        })
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
}

/// Counts from many games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTally {
    /// Games played.
    pub games: u64,
    /// Wins per seat.
    pub wins: Vec<u64>,
    /// Games won by the player who opened the first round.
    pub first_opener_wins: u64,
    /// Games by number of rounds.
    pub rounds_hist: Vec<u64>,
    /// Rounds played.
    pub rounds: u64,
    /// Rounds whose opener lost the challenge.
    pub opener_lost: u64,
    /// Bids made (opening and raises).
    pub bids: u64,
    /// Bids doubted (not passes).
    pub doubts: u64,
    /// Doubts of bids that won (the bid was false).
    pub doubts_won: u64,
    /// Passes made.
    pub passes: u64,
    /// Passes doubted.
    pub pass_doubts: u64,
    /// Doubted passes that failed (the doubter won).
    pub pass_doubts_won: u64,
    /// Bids reinforced (mandada reforzada).
    pub reinforcements: u64,
    /// Obligado rounds.
    pub obligado_rounds: u64,
    /// Invariant violations found (with `--check`); always 0 unless the engine is broken.
    pub violations: u64,
}

impl Tally for GameTally {
    fn absorb(&mut self, o: &Self) {
        fn add(a: &mut Vec<u64>, b: &[u64]) {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.games += o.games;
        add(&mut self.wins, &o.wins);
        self.first_opener_wins += o.first_opener_wins;
        add(&mut self.rounds_hist, &o.rounds_hist);
        self.rounds += o.rounds;
        self.opener_lost += o.opener_lost;
        self.bids += o.bids;
        self.doubts += o.doubts;
        self.doubts_won += o.doubts_won;
        self.passes += o.passes;
        self.pass_doubts += o.pass_doubts;
        self.pass_doubts_won += o.pass_doubts_won;
        self.reinforcements += o.reinforcements;
        self.obligado_rounds += o.obligado_rounds;
        self.violations += o.violations;
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner's seat.
    pub winner: usize,
    /// Who opened the first round.
    pub first_opener: usize,
    /// Rounds played.
    pub rounds: u32,
}

/// Whole-game simulation of one table.
pub struct GameSimulation {
    setup: TableSetup,
    strategies: [Strategy; MAX_PLAYERS],
    odds: OddsTables,
}

impl GameSimulation {
    /// The simulation of a table.
    pub fn new(setup: &TableSetup) -> Self {
        let mut strategies = [Strategy::Random; MAX_PLAYERS];
        for (s, given) in strategies.iter_mut().zip(&setup.strategies) {
            *s = given.resolve(setup.game.rules.set, setup.game.players);
        }
        Self {
            odds: OddsTables::new(setup.game.players as u32 * 5),
            setup: setup.clone(),
            strategies,
        }
    }

    fn record_round(t: &mut GameTally, end: &RoundEnd) {
        t.rounds += 1;
        t.opener_lost += (end.loser == end.opener) as u64;
        t.obligado_rounds += end.obligado as u64;
        if end.pass_doubted {
            t.pass_doubts += 1;
            t.pass_doubts_won += (end.loser != end.doubter) as u64;
        } else {
            t.doubts += 1;
            t.doubts_won += (end.loser != end.doubter) as u64;
        }
    }

    /// Plays one game from its two streams (dice, decisions) and records it. Returns the
    /// winner, the first opener and the rounds played (`None` if a bot broke a rule).
    pub fn play(
        &self,
        dice: &mut Stream,
        decisions: &mut Stream,
        t: &mut GameTally,
    ) -> Option<GameResult> {
        let mut game = Game::new(self.setup.game, dice);
        let first = game.first_opener();
        loop {
            let p = game.turn();
            let action = self.strategies[p].act(&game.view(p), &self.odds, decisions);
            match action {
                Action::Open { reinforce, .. } | Action::Raise { reinforce, .. } => {
                    t.bids += 1;
                    t.reinforcements += reinforce as u64;
                }
                Action::Pass => t.passes += 1,
                Action::Doubt => {}
            }
            let event = match game.apply(action, dice) {
                Ok(e) => e,
                Err(_) => {
                    // A bot asked for an illegal action: a bug, counted and the game dropped.
                    t.violations += 1;
                    return None;
                }
            };
            if self.setup.check {
                if let Err(_e) = game.check_invariants() {
                    t.violations += 1;
                    return None;
                }
            }
            match event {
                Event::Continue => {}
                Event::Round(end) => {
                    Self::record_round(t, &end);
                    if self.setup.check && end.loser_out && game.lives(end.loser) != 0 {
                        t.violations += 1;
                    }
                }
                Event::GameOver { round, winner } => {
                    Self::record_round(t, &round);
                    t.games += 1;
                    t.wins[winner] += 1;
                    t.first_opener_wins += (winner == first) as u64;
                    let r = game.rounds() as usize;
                    if t.rounds_hist.len() <= r {
                        t.rounds_hist.resize(r + 1, 0);
                    }
                    t.rounds_hist[r] += 1;
                    return Some(GameResult {
                        winner,
                        first_opener: first,
                        rounds: game.rounds(),
                    });
                }
            }
        }
    }

    /// The two per-game streams, drawn from the chunk's stream: every game gets its own dice and
    /// decisions, so variants compared on common random numbers start each game alike.
    pub fn game_streams(chunk: &mut Stream) -> (Stream, Stream) {
        (
            Stream::seed_from_u64(chunk.next_u64()),
            Stream::seed_from_u64(chunk.next_u64()),
        )
    }
}

impl Simulation for GameSimulation {
    type Tally = GameTally;
    fn chunk_size(&self) -> u64 {
        GAMES_CHUNK
    }
    fn empty_tally(&self) -> GameTally {
        GameTally {
            wins: vec![0; self.setup.game.players as usize],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, games: u64, t: &mut GameTally) {
        for _ in 0..games {
            let (mut dice, mut decisions) = Self::game_streams(stream);
            self.play(&mut dice, &mut decisions, t);
        }
    }
}

/// Mean and spread of game length from the histogram.
pub fn length_estimate(t: &GameTally) -> MeanEstimate {
    let (sum, sq) = t
        .rounds_hist
        .iter()
        .enumerate()
        .fold((0i128, 0u128), |(s, q), (k, &n)| {
            (s + k as i128 * n as i128, q + (k * k) as u128 * n as u128)
        });
    MeanEstimate::from_sums(t.games, sum, sq)
}

fn describe(setup: &TableSetup) -> String {
    let g = &setup.game;
    let mut flags = Vec::new();
    let standard = GameConfig::standard(g.rules.set, g.players);
    if g.lives != standard.lives {
        flags.push(format!("{} lives", g.lives));
    }
    for (on, std_on, name) in [
        (g.paso, standard.paso, "paso"),
        (g.reforzada, standard.reforzada, "reforzada"),
        (g.obligado, standard.obligado, "obligado"),
        (
            g.choose_direction,
            standard.choose_direction,
            "direction choice",
        ),
    ] {
        if on != std_on {
            flags.push(format!("{} {name}", if on { "with" } else { "no" }));
        }
    }
    if g.rules.aces_need_natural {
        flags.push("aces need a natural".into());
    }
    let mut s = format!("{} players · {}", g.players, g.rules.set.title());
    if !flags.is_empty() {
        s += &format!(" ({})", flags.join(", "));
    }
    s
}

/// The report of a simulation.
pub fn report(setup: &TableSetup, t: &GameTally, run: &RunSummary) -> Report {
    let players = setup.game.players as usize;
    let fair = 1.0 / players as f64;
    let names: Vec<String> = setup.strategies.iter().map(|s| s.to_string()).collect();
    let mut r = Report::new(format!(
        "Dudo games · {} · {}",
        describe(setup),
        names.join(", ")
    ));
    r.run_size("games", "games", t.games, run);
    let len = length_estimate(t);
    let ci = len.interval(0.95);
    r.field(
        "mean_rounds",
        "mean rounds per game",
        Value::Num(len.mean, 2),
    );
    r.field(
        "mean_rounds_ci95",
        "95 % interval",
        Value::NumInterval(ci.low, ci.high, 2),
    );
    let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    r.field(
        "bids_per_round",
        "bids per round",
        Value::Num(per(t.bids, t.rounds), 2),
    );
    let doubts = Proportion::new(t.doubts_won, t.doubts);
    r.field_plain(
        "doubt_success",
        "doubts that won",
        Value::Prob(doubts.estimate()),
        humanize::odds(doubts.estimate()),
    );
    if setup.game.paso {
        r.field(
            "passes_per_game",
            "passes per game",
            Value::Num(per(t.passes, t.games), 2),
        );
        r.field(
            "pass_doubt_success",
            "doubted passes that failed",
            Value::Prob(per(t.pass_doubts_won, t.pass_doubts)),
        );
    }
    if setup.game.reforzada {
        r.field(
            "reinforcements_per_game",
            "reinforced bids per game",
            Value::Num(per(t.reinforcements, t.games), 2),
        );
    }
    if setup.game.obligado {
        r.field(
            "obligado_rounds",
            "obligado rounds",
            Value::Prob(per(t.obligado_rounds, t.rounds)),
        );
    }
    let opener = Proportion::new(t.first_opener_wins, t.games);
    let oci = opener.wilson(0.95);
    r.field_plain(
        "first_opener_win_rate",
        "first opener wins",
        Value::Prob(opener.estimate()),
        format!("fair share {}", humanize::percent(fair)),
    );
    r.field(
        "first_opener_ci95",
        "95 % interval",
        Value::ProbInterval(oci.low, oci.high),
    );
    r.field(
        "first_opener_p_value",
        "p-value against a fair share",
        Value::PValue(crate::stats::two_sided_p(opener.z_score_against(fair))),
    );
    r.field(
        "round_opener_lost",
        "rounds lost by their opener",
        Value::Prob(per(t.opener_lost, t.rounds)),
    );
    if setup.check {
        r.field(
            "violations",
            "rule violations found",
            Value::Int(t.violations as i64),
        );
    }

    let mut seats = Table::new(
        "seats",
        "Wins by seat",
        &[
            ("seat", "seat"),
            ("strategy", "strategy"),
            ("wins", "wins"),
            ("win_rate", "win rate"),
            ("ci95", "95 % interval"),
        ],
    );
    seats.top_level = true;
    for (i, name) in names.iter().enumerate() {
        let p = Proportion::new(t.wins.get(i).copied().unwrap_or(0), t.games);
        let w = p.wilson(0.95);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.clone()),
            Value::Int(p.successes as i64),
            Value::Prob(p.estimate()),
            Value::ProbInterval(w.low, w.high),
        ]);
    }
    r.tables.push(seats);

    let mut strat = Table::new(
        "strategies",
        "Wins by strategy (per seat)",
        &[
            ("strategy", "strategy"),
            ("seats", "seats"),
            ("wins", "wins"),
            ("win_rate", "win rate per seat"),
            ("ci95", "95 % interval"),
        ],
    );
    strat.top_level = true;
    for s in setup.distinct() {
        let idx: Vec<usize> = (0..players).filter(|&i| setup.strategies[i] == s).collect();
        let wins: u64 = idx
            .iter()
            .map(|&i| t.wins.get(i).copied().unwrap_or(0))
            .sum();
        let p = Proportion::new(wins, t.games);
        let w = p.wilson(0.95);
        let k = idx.len() as f64;
        strat.push(vec![
            Value::Text(s.to_string()),
            Value::Int(idx.len() as i64),
            Value::Int(wins as i64),
            Value::Prob(p.estimate() / k),
            Value::ProbInterval(w.low / k, w.high / k),
        ]);
    }
    r.tables.push(strat);

    let mut lengths = Table::new(
        "length",
        "Game length",
        &[("rounds", "rounds"), ("games", "games"), ("share", "share")],
    );
    for (k, &n) in t.rounds_hist.iter().enumerate() {
        if n > 0 {
            lengths.push(vec![
                Value::Int(k as i64),
                Value::Int(n as i64),
                Value::Prob(per(n, t.games)),
            ]);
        }
    }
    r.tables.push(lengths);
    if t.violations > 0 {
        r.note(format!(
            "{} games broke a rule and were dropped: this is a bug, please report it.",
            t.violations
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
    r
}

/// Win share by seat with 95 % intervals.
pub fn seat_chart(setup: &TableSetup, t: &GameTally) -> BarChart {
    BarChart {
        title: format!("Win share by seat · {}", describe(setup)),
        y_label: "games won".into(),
        y_percent: true,
        bars: setup
            .strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let p = Proportion::new(t.wins.get(i).copied().unwrap_or(0), t.games);
                let w = p.wilson(0.95);
                Bar {
                    label: format!("{} {s}", i + 1),
                    value: p.estimate(),
                    low: w.low,
                    high: w.high,
                }
            })
            .collect(),
        reference: Some(1.0 / setup.game.players as f64),
    }
}

/// The distribution of game length in rounds.
pub fn length_chart(setup: &TableSetup, t: &GameTally) -> LineChart {
    LineChart {
        title: format!("Game length · {}", describe(setup)),
        x_label: "rounds".into(),
        y_label: "share of games".into(),
        y_percent: false,
        series: vec![Series {
            label: "games".into(),
            points: t
                .rounds_hist
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

/// Applies a house-rule spec such as `rules=caleuchano,paso=off,lives=3` to a configuration.
/// `rules=` (if present) is applied first and resets the flags to that rule set's standard.
/// Keys: rules, lives, paso, reforzada, obligado (on/off), direction (choose/fixed),
/// aces-need-natural (on/off), ace-round (floor/ceil).
pub fn apply_house_rules(mut config: GameConfig, spec: &str) -> Result<GameConfig> {
    use super::rules::{AceRound, RuleSet};
    let hint = "expected key=value pairs such as rules=caleuchano,paso=off,lives=3";
    let pairs: Vec<(&str, &str)> = spec
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| Error::usage(format!("invalid house rule '{p}': {hint}")))
        })
        .collect::<Result<_>>()?;
    for &(k, v) in pairs.iter().filter(|(k, _)| *k == "rules") {
        let set = match v.to_ascii_lowercase().as_str() {
            "chimbo9" | "chimbo" => RuleSet::Chimbo9,
            "caleuchano" => RuleSet::Caleuchano,
            _ => {
                return Err(Error::usage(format!(
                    "invalid {k}={v}: rule sets are chimbo9 and caleuchano"
                )))
            }
        };
        config = GameConfig::standard(set, config.players);
    }
    let on_off = |k: &str, v: &str| match v.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(Error::usage(format!("invalid {k}={v}: use on or off"))),
    };
    for &(k, v) in pairs.iter().filter(|(k, _)| *k != "rules") {
        match k {
            "lives" => {
                config.lives = v
                    .parse::<u8>()
                    .ok()
                    .filter(|l| (1..=20).contains(l))
                    .ok_or_else(|| Error::usage(format!("invalid lives={v}: give 1 to 20")))?
            }
            "paso" => config.paso = on_off(k, v)?,
            "reforzada" => config.reforzada = on_off(k, v)?,
            "obligado" => config.obligado = on_off(k, v)?,
            "aces-need-natural" => config.rules.aces_need_natural = on_off(k, v)?,
            "direction" => {
                config.choose_direction = match v {
                    "choose" => true,
                    "fixed" => false,
                    _ => return Err(Error::usage(format!("invalid direction={v}: use choose or fixed"))),
                }
            }
            "ace-round" => {
                config.rules.ace_round = match v {
                    "floor" => AceRound::Floor,
                    "ceil" => AceRound::Ceil,
                    _ => return Err(Error::usage(format!("invalid ace-round={v}: use floor or ceil"))),
                }
            }
            _ => {
                return Err(Error::usage(format!(
                    "unknown house rule '{k}': keys are rules, lives, paso, reforzada, obligado, direction, aces-need-natural, ace-round"
                )))
            }
        }
    }
    Ok(config)
}

/// Splits a strategy list on commas, keeping `threshold:t=0.4,bluff=0.1` together.
pub fn parse_strategy_list(list: &str) -> Result<Vec<Strategy>> {
    let mut items: Vec<String> = Vec::new();
    for token in list.split(',') {
        let token = token.trim();
        match items.last_mut() {
            Some(last) if token.contains('=') && !token.contains(':') => {
                last.push(',');
                last.push_str(token);
            }
            _ => items.push(token.to_string()),
        }
    }
    items
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| Strategy::parse(s))
        .collect()
}
