//! `sim`: whole games of one table on the shared runner: results by seat, by strategy and by
//! position after the first player with 95 % intervals, the first player's edge against the
//! fair share with its test, draws, the length distribution, the game's own counters, series.
//!
//! Every game draws its two streams from its chunk's stream ([`super::game_streams`]); the bots
//! are made once per chunk and reuse their scratch space, so the game loop allocates nothing.

use serde::{Deserialize, Serialize};

use super::position::StartFrom;
use super::table::TableSetup;
use super::{
    game_streams, play, play_from, scored, Fault, Game, GameRules, Played, Scoring, Seat, Start,
    Strategy, MAX_SEATS,
};
use crate::humanize;
use crate::report::{Report, Table, Value};
use crate::rng::Stream;
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::{
    chi_square, per_seat_rate, two_sided_p, wilson95, MeanEstimate, Proportion, Sums,
};

/// Counts from many games: integers only, so tallies of chunks and shards add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimTally {
    /// Games played to the end or to the move cap (games a bug dropped are not counted).
    pub games: u64,
    /// Games nobody holds the event of (draws).
    pub draws: u64,
    /// Games stopped at the move cap.
    pub capped: u64,
    /// Per seat, per game: 1 when it holds the event (or its points in a scored game).
    pub seats: Vec<Sums>,
    /// The first player's.
    pub first: Sums,
    /// By position after the first player (0: the first player, 1: the next seat, …).
    pub positions: Vec<Sums>,
    /// Per side, with teams: games the side held the event.
    pub sides: Vec<u64>,
    /// Per distinct strategy (in order of first seat): per game, Σ over its seats.
    pub strategies: Vec<Sums>,
    /// Game length.
    pub length: Sums,
    /// Games by length (index = length; games played as sittings keep none).
    pub length_hist: Vec<u64>,
    /// The game's own counters, per game.
    pub counters: Vec<Sums>,
    /// Games each seat finished in each place (seat-major: `places[seat · players + place]`),
    /// for games with a finishing order.
    #[serde(default)]
    pub places: Vec<u64>,
    /// Games started from the seat the game before singled out (later games of a series).
    pub later_games: u64,
    /// Of those, games that were decided.
    pub later_decided: u64,
    /// Of those, games where that seat held the event again.
    pub repeat: u64,
    /// Invariant violations found with `--check` (0 unless an engine is broken).
    pub violations: u64,
    /// Actions a bot chose that the engine refused (0 unless a bot is broken).
    pub illegal_actions: u64,
}

/// Adds `b` into `a` element by element with `add`, growing `a` to `b`'s length first (tallies of
/// different chunks may hold vectors of different lengths, such as length histograms).
pub fn absorb_all<T: Clone + Default>(a: &mut Vec<T>, b: &[T], add: impl Fn(&mut T, &T)) {
    if a.len() < b.len() {
        a.resize(b.len(), T::default());
    }
    for (x, y) in a.iter_mut().zip(b) {
        add(x, y);
    }
}

impl Tally for SimTally {
    fn absorb(&mut self, o: &Self) {
        self.games += o.games;
        self.draws += o.draws;
        self.capped += o.capped;
        absorb_all(&mut self.seats, &o.seats, Sums::absorb);
        self.first.absorb(&o.first);
        absorb_all(&mut self.positions, &o.positions, Sums::absorb);
        absorb_all(&mut self.sides, &o.sides, |x, y| *x += y);
        absorb_all(&mut self.strategies, &o.strategies, Sums::absorb);
        self.length.absorb(&o.length);
        absorb_all(&mut self.length_hist, &o.length_hist, |x, y| *x += y);
        absorb_all(&mut self.counters, &o.counters, Sums::absorb);
        absorb_all(&mut self.places, &o.places, |x, y| *x += y);
        self.later_games += o.later_games;
        self.later_decided += o.later_decided;
        self.repeat += o.repeat;
        self.violations += o.violations;
        self.illegal_actions += o.illegal_actions;
    }
}

impl SimTally {
    /// Games that were decided (neither drawn nor capped).
    pub fn decided(&self) -> u64 {
        self.games - self.draws - self.capped
    }

    /// Seat `s`'s count of the event (or Σ points).
    pub fn seat_count(&self, s: Seat) -> u64 {
        self.seats.get(s).map_or(0, |x| x.sum.max(0) as u64)
    }

    /// Mean and spread of game length.
    pub fn length_estimate(&self) -> MeanEstimate {
        self.length.estimate(self.games)
    }

    /// The median game length (0 without games or without a histogram).
    pub fn median_length(&self) -> u64 {
        let half = self.games.div_ceil(2);
        let mut seen = 0;
        for (k, &n) in self.length_hist.iter().enumerate() {
            seen += n;
            if seen >= half && n > 0 {
                return k as u64;
            }
        }
        0
    }

    /// Σ of counter `k` over the games.
    pub fn counter(&self, k: impl Into<usize>) -> i64 {
        self.counters.get(k.into()).map_or(0, |c| c.sum)
    }

    /// Counts a dropped game.
    pub fn fault(&mut self, f: Fault) {
        match f {
            Fault::Illegal => self.illegal_actions += 1,
            Fault::Violation => self.violations += 1,
        }
    }
}

/// Whole-game simulation of one table.
pub struct GameSimulation<G: Game, S: Strategy<G> = <G as Game>::Strategy> {
    setup: TableSetup<G, S>,
    strategy_of_seat: [usize; MAX_SEATS],
    strategies: usize,
    chunk: u64,
    from: Option<StartFrom<G>>,
}

impl<G: Game, S: Strategy<G>> GameSimulation<G, S> {
    /// The simulation of a table.
    pub fn new(setup: &TableSetup<G, S>) -> Self {
        let mut strategy_of_seat = [0; MAX_SEATS];
        for (i, k) in setup.strategy_of_seat().into_iter().enumerate() {
            strategy_of_seat[i] = k;
        }
        Self {
            strategy_of_seat,
            strategies: setup.distinct().len(),
            chunk: setup.chunk_size(),
            // Checked when the table was made ([`TableSetup::starting_from`]) and again by
            // [`super::job::Job::run`] for a table read from a file.
            from: setup
                .from
                .as_deref()
                .and_then(|text| G::start_from(&setup.rules, text).ok()),
            setup: setup.clone(),
        }
    }

    /// The table.
    pub fn setup(&self) -> &TableSetup<G, S> {
        &self.setup
    }

    /// One bot per seat (made once per chunk; their scratch space is reused game after game).
    pub fn bots(&self) -> Vec<S::Bot> {
        self.setup.bots()
    }

    /// Plays one game with `bots` (seat `s` by `bots[s]`), without recording it.
    #[inline]
    pub fn play_only(
        &self,
        bots: &mut [S::Bot],
        start: &Start,
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> Result<Played, Fault> {
        match &self.from {
            None => play::<G, S::Bot>(
                &self.setup.rules,
                start,
                bots,
                &IDENTITY_SEATS,
                deal,
                decisions,
                self.setup.check,
            ),
            Some(from) => play_from::<G, S::Bot>(
                from.deal(start, deal),
                &self.setup.rules,
                bots,
                &IDENTITY_SEATS,
                deal,
                decisions,
                self.setup.check,
            ),
        }
    }

    /// Plays one game and records it (a dropped game as its fault); returns the game.
    #[inline]
    pub fn play(
        &self,
        bots: &mut [S::Bot],
        start: &Start,
        deal: &mut Stream,
        decisions: &mut Stream,
        t: &mut SimTally,
    ) -> Option<Played> {
        let played = self.play_only(bots, start, deal, decisions);
        self.record_result(&played, start.dealer, t);
        played.ok()
    }

    /// Records a game from [`Self::play_only`]: a finished game, or the fault that dropped it.
    /// `later` is the seat a later game of a series started from.
    pub fn record_result(
        &self,
        played: &Result<Played, Fault>,
        later: Option<Seat>,
        t: &mut SimTally,
    ) {
        match played {
            Ok(p) => self.record(p, later, t),
            Err(f) => t.fault(*f),
        }
    }

    /// Adds a finished game to a tally.
    #[inline]
    pub fn record(&self, p: &Played, later: Option<Seat>, t: &mut SimTally) {
        let rules = &self.setup.rules;
        let n = rules.players();
        let scored = scored::<G>();
        t.games += 1;
        if let Some(d) = later {
            t.later_games += 1;
            t.later_decided += p.decided() as u64;
            t.repeat += (p.marked() >> d & 1) as u64;
        }
        t.length.add(p.length as i64);
        if !G::INFO.sitting {
            let b = p.length as usize;
            if t.length_hist.len() <= b {
                // Grows only when a game is longer than every game before it in this tally.
                t.length_hist.resize((b + 1).next_power_of_two(), 0);
            }
            t.length_hist[b] += 1;
        }
        for (k, c) in t.counters.iter_mut().enumerate() {
            c.add(p.counters[k]);
        }
        if let Some(places) = &p.places {
            if t.places.len() < n * n {
                t.places.resize(n * n, 0);
            }
            for (s, &k) in places.iter().enumerate().take(n) {
                t.places[s * n + (k as usize).min(n - 1)] += 1;
            }
        }
        match p.outcome {
            super::Outcome::Draw => t.draws += 1,
            super::Outcome::Capped => t.capped += 1,
            _ => {
                let mut per_strategy = [0i64; MAX_SEATS];
                for s in 0..n {
                    let v = p.value(s, scored);
                    if v != 0 {
                        t.seats[s].add(v);
                        t.positions[(s + n - p.first) % n].add(v);
                        per_strategy[self.strategy_of_seat[s]] += v;
                    }
                }
                for (k, &c) in per_strategy.iter().enumerate().take(self.strategies) {
                    t.strategies[k].add(c);
                }
                t.first.add(p.value(p.first, scored));
                let marked = p.marked();
                if !t.sides.is_empty() && marked != 0 {
                    t.sides[rules.side(marked.trailing_zeros() as usize)] += 1;
                }
            }
        }
    }

    /// An empty tally of the right shape.
    pub fn empty(&self) -> SimTally {
        let n = self.setup.players();
        SimTally {
            seats: vec![Sums::default(); n],
            positions: vec![Sums::default(); n],
            sides: if self.setup.rules.has_teams() {
                vec![0; self.setup.rules.sides()]
            } else {
                Vec::new()
            },
            strategies: vec![Sums::default(); self.strategies],
            length_hist: if G::INFO.sitting {
                Vec::new()
            } else {
                vec![0; 128]
            },
            counters: vec![Sums::default(); G::INFO.counters.len()],
            ..Default::default()
        }
    }
}

/// Seat `s` is played by bot `s`.
pub const IDENTITY_SEATS: [usize; MAX_SEATS] =
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Calls `game(j, start)` for each game of a chunk of `samples` samples: `samples` games, or one
/// sitting of `samples` steps for sitting games. `start_of(j)` says how game `j` starts.
#[inline]
pub fn for_each_game<G: Game>(samples: u64, mut game: impl FnMut(u64, Start)) {
    if G::INFO.sitting {
        game(
            0,
            Start {
                length: samples,
                ..Start::default()
            },
        );
    } else {
        for j in 0..samples {
            game(j, Start::default());
        }
    }
}

impl<G: Game, S: Strategy<G>> Simulation for GameSimulation<G, S> {
    type Tally = SimTally;
    fn chunk_size(&self) -> u64 {
        self.chunk
    }
    fn empty_tally(&self) -> SimTally {
        self.empty()
    }
    fn run_chunk(&self, stream: &mut Stream, samples: u64, t: &mut SimTally) {
        let mut bots = self.bots();
        let mut previous = None;
        for_each_game::<G>(samples, |j, base| {
            let (mut deal, mut decisions) = game_streams(stream);
            let start = if G::INFO.sitting {
                base
            } else {
                self.setup.start_of(j, previous)
            };
            previous = self
                .play(&mut bots, &start, &mut deal, &mut decisions, t)
                .and_then(|p| p.series_seat);
        });
    }
}

/// The fair rate of one seat: the decided games split evenly between the sides that can hold
/// the event (players, or teams).
pub fn fair_rate<G: Game>(rules: &G::Rules, t: &SimTally) -> f64 {
    if t.games == 0 {
        0.0
    } else {
        t.decided() as f64 / t.games as f64 / rules.sides() as f64
    }
}

/// The first player's rate of the event.
pub fn first_rate(t: &SimTally) -> f64 {
    if t.games == 0 {
        0.0
    } else {
        t.first.sum as f64 / t.games as f64
    }
}

/// The first player's edge, a fraction: how much better than the fair share the first player
/// does (positive: an advantage), for a good event the rate over the fair share, for a bad one
/// the fair share over the rate.
pub fn first_player_edge<G: Game>(rules: &G::Rules, t: &SimTally) -> f64 {
    if t.games == 0 {
        return 0.0;
    }
    let fair = fair_rate::<G>(rules, t);
    match G::INFO.scoring {
        Scoring::Event { good: true } => first_rate(t) - fair,
        _ => fair - first_rate(t),
    }
}

/// Two-sided p-value of `hits` of `decided` games against the fair share 1/`sides` (1 when no
/// game was decided).
pub fn share_p_value(hits: u64, decided: u64, sides: usize) -> f64 {
    if decided == 0 {
        1.0
    } else {
        two_sided_p(Proportion::new(hits.min(decided), decided).z_score_against(1.0 / sides as f64))
    }
}

/// "first attacker", "first defender", "2 seats after the first attacker".
pub fn position_name<G: Game>(k: usize) -> String {
    let w = &G::INFO.words;
    match w.positions.get(k) {
        Some(name) => name.to_string(),
        None if k == 1 => format!("1 seat after the {}", w.first_player),
        None => format!("{k} seats after the {}", w.first_player),
    }
}

/// "Durak" → the capitalised first letter of a word, for titles.
pub fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether the event is good for the seats it marks.
pub fn good<G: Game>() -> bool {
    matches!(
        G::INFO.scoring,
        Scoring::Event { good: true } | Scoring::Points
    )
}

/// The report of a simulation.
pub fn report<G: Game, S: Strategy<G>>(
    setup: &TableSetup<G, S>,
    t: &SimTally,
    run: &RunSummary,
) -> Report {
    let info = &G::INFO;
    let w = &info.words;
    let rules = &setup.rules;
    let players = setup.players();
    let names = setup.names();
    let mut r = Report::new(format!("{} games · {}", info.title, setup.describe()));
    r.run_size(
        info.sample_unit,
        info.sample_unit,
        sample_count::<G>(t),
        run,
    );
    if let Some(from) = &setup.from {
        r.field("from", "every game from", Value::Text(from.clone()));
        r.note(if super::position::names_a_seat(from) {
            "Every game starts from the position: what its player cannot see is dealt afresh for each game, uniformly over what fits it (no inference from bids or claims)."
        } else {
            "Every game starts from the match state; the hands are dealt as in a new game."
        });
    }
    let scored = scored::<G>();
    r.field(
        "event",
        "rates count",
        Value::Text(
            match info.scoring {
                Scoring::Event { good: true } => "wins",
                Scoring::Event { good: false } => "losses",
                Scoring::Points => "points",
            }
            .into(),
        ),
    );
    if info.draws {
        let (draws, ci) = wilson95(t.draws, t.games);
        r.field("draws", "draws", Value::Int(t.draws as i64));
        r.field_plain(
            "draw_rate",
            "draw rate",
            Value::Prob(draws.estimate()),
            humanize::plain_rate(&draws),
        );
        r.field(
            "draw_rate_ci95",
            "95 % interval",
            Value::ProbInterval(ci.low, ci.high),
        );
    }
    if info.move_cap {
        r.field(
            "capped",
            "games stopped at the move cap",
            Value::Int(t.capped as i64),
        );
    }
    if !info.sitting {
        let len = t.length_estimate();
        let ci = len.interval(0.95);
        r.field(
            "mean_length",
            &format!("mean game length ({})", w.length_unit),
            Value::Num(len.mean, 2),
        );
        r.field(
            "mean_length_ci95",
            "95 % interval",
            Value::NumInterval(ci.low, ci.high, 2),
        );
        r.field(
            "median_length",
            &format!("median game length ({})", w.length_unit),
            Value::Int(t.median_length() as i64),
        );
    }
    if !scored {
        first_player_fields::<G>(&mut r, rules, t);
        if !rules.has_teams() && t.decided() > 0 {
            let counts: Vec<u64> = (0..players).map(|s| t.seat_count(s)).collect();
            let (_, p) = chi_square(&counts, &vec![1.0 / players as f64; players]);
            r.field(
                "seat_p_value",
                &format!("p-value that every seat {} equally often", w.phrase),
                Value::PValue(p),
            );
        }
        if setup.series > 1 {
            series_fields::<G, S>(&mut r, setup, t);
        }
    }
    G::sim_fields(rules, t, &mut r);
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
    if scored {
        points_tables::<G, S>(&mut r, setup, t);
    } else {
        event_tables::<G, S>(&mut r, setup, t, &names);
    }
    places_table(&mut r, players, t, &names);
    if G::PLACES_BY_STRATEGY {
        strategy_places_table(&mut r, setup, t);
    }
    if !info.sitting {
        let mut lengths = Table::new(
            "length",
            "Game length",
            &[
                ("length", w.length_unit),
                ("games", "games"),
                ("share", "share"),
            ],
        );
        for (k, &n) in t.length_hist.iter().enumerate() {
            if n > 0 {
                lengths.push(vec![
                    Value::Int(k as i64),
                    Value::Int(n as i64),
                    Value::Prob(n as f64 / t.games as f64),
                ]);
            }
        }
        r.tables.push(lengths);
    }
    if !scored {
        r.note(if info.draws {
            format!(
                "Fair share: the games with a result split evenly between the sides that can {} (players, or teams); its p-value tests the {}'s share of those games.",
                if good::<G>() { "win" } else { "lose" },
                w.first_player
            )
        } else {
            format!(
                "Fair share: the games split evenly between the sides (players, or teams); its p-value tests the {}'s share of them.",
                w.first_player
            )
        });
    }
    notes::<G>(&mut r, rules, t);
    for n in setup.strategy_notes() {
        r.note(n);
    }
    closing_notes(&mut r, t.violations + t.illegal_actions, false, run);
    r
}

/// What the run's size counts: games, or the steps of sittings (hands).
pub fn sample_count<G: Game>(t: &SimTally) -> u64 {
    if G::INFO.sitting {
        t.length.sum.max(0) as u64
    } else {
        t.games
    }
}

/// The note on capped games.
pub fn notes<G: Game>(r: &mut Report, _rules: &G::Rules, t: &SimTally) {
    if t.capped > 0 {
        r.note(format!(
            "{} reached the move cap unfinished: they count as neither {} nor draw, and their {} count in the game length.",
            crate::text::count_of(t.capped, "games"),
            G::INFO.words.event,
            G::INFO.words.length_unit
        ));
    }
}

/// The notes that close every whole-game report: the games a bug dropped (`with_pair`: with
/// the game they were paired with), then the run's own (interrupted, partial merge).
pub fn closing_notes(r: &mut Report, dropped: u64, with_pair: bool, run: &RunSummary) {
    if dropped > 0 {
        r.note(format!(
            "{} broke a rule and were dropped{}: this is a bug, please report it.",
            crate::text::count_of(dropped, "games"),
            if with_pair { " with their pair" } else { "" }
        ));
    }
    for n in run.notes() {
        r.note(n);
    }
}

/// The first player's rate, interval, fair share, test and edge.
fn first_player_fields<G: Game>(r: &mut Report, rules: &G::Rules, t: &SimTally) {
    let w = &G::INFO.words;
    let fair = fair_rate::<G>(rules, t);
    let (fa, ci) = wilson95(t.first.sum.max(0) as u64, t.games);
    // Among decided games, the first player's share against 1/sides: the test does not depend
    // on how often games are drawn.
    let p = share_p_value(fa.successes, t.decided(), rules.sides());
    let (label, who) = if rules.has_teams() {
        (
            format!("{}'s team {}", w.first_player, w.team_phrase),
            format!("the {}'s team", w.first_player),
        )
    } else {
        (
            format!("{} {}", w.first_player, w.phrase),
            format!("the {}", w.first_player),
        )
    };
    r.field_plain(
        "first_player_rate",
        &label,
        Value::Prob(fa.estimate()),
        humanize::edge_reading(fa.estimate(), fair, p, &who, good::<G>()),
    );
    r.field(
        "first_player_ci95",
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    r.field("fair_share", "fair share per seat", Value::Prob(fair));
    r.field(
        "first_player_p_value",
        "p-value against the fair share",
        Value::PValue(p),
    );
    r.field(
        "first_player_edge",
        &format!("{}'s edge (points better than fair)", w.first_player),
        Value::RateDiff(first_player_edge::<G>(rules, t)),
    );
}

/// Series: how often the seat the game before singled out holds the event again.
fn series_fields<G: Game, S: Strategy<G>>(r: &mut Report, setup: &TableSetup<G, S>, t: &SimTally) {
    let Some(info) = G::INFO.series else { return };
    let sides = setup.rules.sides();
    r.field(
        "series",
        "games per series",
        Value::Int(setup.series as i64),
    );
    r.field(
        "later_games",
        "later games of a series",
        Value::Int(t.later_games as i64),
    );
    let (again, ci) = wilson95(t.repeat, t.later_games);
    // The fair share among those games (draws excluded as above).
    let fair = if t.later_games == 0 {
        0.0
    } else {
        t.later_decided as f64 / t.later_games as f64 / sides as f64
    };
    let p = share_p_value(t.repeat, t.later_decided, sides);
    r.field_plain(
        "repeat_rate",
        info.repeat,
        Value::Prob(again.estimate()),
        humanize::edge_reading(again.estimate(), fair, p, info.who, good::<G>()),
    );
    r.field(
        "repeat_ci95",
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    r.field(
        "repeat_p_value",
        "p-value against the fair share",
        Value::PValue(p),
    );
}

/// Seats, strategies, positions and teams of a game with an event.
fn event_tables<G: Game, S: Strategy<G>>(
    r: &mut Report,
    setup: &TableSetup<G, S>,
    t: &SimTally,
    names: &[String],
) {
    let w = &G::INFO.words;
    let rules = &setup.rules;
    let players = setup.players();
    let event = capitalised(w.event);
    let mut seats = Table::new(
        "seats",
        &format!("{event} by seat"),
        &[
            ("seat", "seat"),
            ("strategy", "strategy"),
            ("count", w.event),
            ("rate", w.rate),
            ("ci95", "95 % interval"),
        ],
    );
    seats.top_level = true;
    for (i, name) in names.iter().enumerate() {
        let (p, ci) = wilson95(t.seat_count(i), t.games);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.clone()),
            Value::Int(p.successes as i64),
            Value::Prob(p.estimate()),
            Value::ProbInterval(ci.low, ci.high),
        ]);
    }
    r.tables.push(seats);

    let per_seat = format!("{} per seat", w.rate);
    let mut strat = Table::new(
        "strategies",
        &format!("{event} by strategy (per seat)"),
        &[
            ("strategy", "strategy"),
            ("seats", "seats"),
            ("count", w.event),
            ("rate", &per_seat),
            ("ci95", "95 % interval"),
        ],
    );
    strat.top_level = true;
    for (k, s) in setup.distinct().iter().enumerate() {
        let seats = setup.seats_of(s);
        let sums = t.strategies.get(k).copied().unwrap_or_default();
        let (rate, ci) = per_seat_rate(sums.sum.max(0) as u64, sums.sum_sq as u64, t.games, seats);
        strat.push(vec![
            Value::Text(s.to_string()),
            Value::Int(seats as i64),
            Value::Int(sums.sum),
            Value::Prob(rate),
            Value::ProbInterval(ci.low, ci.high),
        ]);
    }
    r.tables.push(strat);

    let mut pos = Table::new(
        "positions",
        &format!("{event} by position after the {}", w.first_player),
        &[
            ("position", "position"),
            ("count", w.event),
            ("rate", w.rate),
            ("ci95", "95 % interval"),
        ],
    );
    for k in 0..players {
        let count = t.positions.get(k).map_or(0, |x| x.sum.max(0) as u64);
        let (p, ci) = wilson95(count, t.games);
        pos.push(vec![
            Value::Text(position_name::<G>(k)),
            Value::Int(p.successes as i64),
            Value::Prob(p.estimate()),
            Value::ProbInterval(ci.low, ci.high),
        ]);
    }
    r.tables.push(pos);

    if rules.has_teams() {
        let (games_label, rate_label) = if good::<G>() {
            ("games won", "win rate")
        } else {
            ("games lost", "loss rate")
        };
        let mut teams = Table::new(
            "teams",
            &format!("The team that {}", w.team_phrase),
            &[
                ("team", "team"),
                ("seats", "seats"),
                ("count", games_label),
                ("rate", rate_label),
                ("ci95", "95 % interval"),
            ],
        );
        for team in 0..rules.sides() {
            let seats: Vec<String> = (0..players)
                .filter(|&s| rules.side(s) == team)
                .map(|s| format!("{} {}", s + 1, names[s]))
                .collect();
            let (p, ci) = wilson95(t.sides.get(team).copied().unwrap_or(0), t.games);
            teams.push(vec![
                Value::Int(team as i64 + 1),
                Value::Text(seats.join(", ")),
                Value::Int(p.successes as i64),
                Value::Prob(p.estimate()),
                Value::ProbInterval(ci.low, ci.high),
            ]);
        }
        r.tables.push(teams);
    }
}

/// "1st", "2nd", "3rd", "4th", … "11th", "21st".
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A finishing-order table: each row's leading cells (`lead` names their columns), the share of
/// its games in each place and its mean place (1 is first).
fn finishing_table(
    name: &str,
    title: &str,
    lead: [(&str, &str); 2],
    players: usize,
    rows: impl IntoIterator<Item = (Vec<Value>, Vec<u64>)>,
) -> Table {
    let keys: Vec<String> = (1..=players).map(|k| format!("place_{k}")).collect();
    let labels: Vec<String> = (1..=players).map(ordinal).collect();
    let mut columns: Vec<(&str, &str)> = lead.to_vec();
    columns.extend(
        keys.iter()
            .map(String::as_str)
            .zip(labels.iter().map(String::as_str)),
    );
    columns.push(("mean_place", "mean place"));
    let mut table = Table::new(name, title, &columns);
    for (mut cells, counts) in rows {
        let n = counts.iter().sum::<u64>().max(1) as f64;
        cells.extend(counts.iter().map(|&c| Value::Prob(c as f64 / n)));
        let mean = counts
            .iter()
            .enumerate()
            .map(|(k, &c)| (k + 1) as f64 * c as f64)
            .sum::<f64>()
            / n;
        cells.push(Value::Num(mean, 2));
        table.push(cells);
    }
    table
}

/// The finishing order by seat: the share of games each seat finished in each place, and its
/// mean place (1 is first), for games with a finishing order.
fn places_table(r: &mut Report, players: usize, t: &SimTally, names: &[String]) {
    if t.places.len() < players * players || t.games == 0 {
        return;
    }
    let rows = names.iter().enumerate().map(|(s, name)| {
        (
            vec![Value::Int(s as i64 + 1), Value::Text(name.clone())],
            t.places[s * players..(s + 1) * players].to_vec(),
        )
    });
    r.tables.push(finishing_table(
        "places",
        "Finishing order by seat (share of games)",
        [("seat", "seat"), ("strategy", "strategy")],
        players,
        rows,
    ));
}

/// The finishing order by strategy: the share of its seat-games each strategy finished in each
/// place, and its mean place (the seats of a strategy added up).
fn strategy_places_table<G: Game, S: Strategy<G>>(
    r: &mut Report,
    setup: &TableSetup<G, S>,
    t: &SimTally,
) {
    let players = setup.players();
    if t.places.len() < players * players || t.games == 0 {
        return;
    }
    let of_seat = setup.strategy_of_seat();
    let rows = setup.distinct().into_iter().enumerate().map(|(k, s)| {
        let mut counts = vec![0u64; players];
        for seat in (0..players).filter(|&seat| of_seat[seat] == k) {
            for (place, x) in counts.iter_mut().enumerate() {
                *x += t.places[seat * players + place];
            }
        }
        (
            vec![
                Value::Text(s.to_string()),
                Value::Int(setup.seats_of(&s) as i64),
            ],
            counts,
        )
    });
    r.tables.push(finishing_table(
        "strategy_places",
        "Finishing order by strategy (share of its seat-games)",
        [("strategy", "strategy"), ("seats", "seats")],
        players,
        rows,
    ));
}

/// Points per game (and per length unit) by seat and by strategy, for scored games.
fn points_tables<G: Game, S: Strategy<G>>(r: &mut Report, setup: &TableSetup<G, S>, t: &SimTally) {
    let unit = G::INFO.words.length_unit;
    let per_unit = if t.length.sum > 0 {
        t.games as f64 / t.length.sum as f64
    } else {
        0.0
    };
    let per = format!("per {}", crate::text::singular(unit));
    let mut seats = Table::new(
        "seats",
        "Points by seat",
        &[
            ("seat", "seat"),
            ("strategy", "strategy"),
            ("points", "points"),
            ("rate", &per),
            ("ci95", "95 % interval"),
        ],
    );
    seats.top_level = true;
    for (i, name) in setup.names().iter().enumerate() {
        let m = t.seats[i].estimate(t.games);
        let ci = m.interval(0.95);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.clone()),
            Value::Int(t.seats[i].sum),
            Value::Num(m.mean * per_unit, 5),
            Value::NumInterval(ci.low * per_unit, ci.high * per_unit, 5),
        ]);
    }
    r.tables.push(seats);
    let mut strat = Table::new(
        "strategies",
        "Points by strategy (per seat)",
        &[
            ("strategy", "strategy"),
            ("seats", "seats"),
            ("points", "points"),
            ("rate", &per),
            ("ci95", "95 % interval"),
        ],
    );
    strat.top_level = true;
    for (k, s) in setup.distinct().iter().enumerate() {
        let seats = setup.seats_of(s) as f64;
        let m = t.strategies[k].estimate(t.games);
        let ci = m.interval(0.95);
        let f = per_unit / seats;
        strat.push(vec![
            Value::Text(s.to_string()),
            Value::Int(seats as i64),
            Value::Int(t.strategies[k].sum),
            Value::Num(m.mean * f, 5),
            Value::NumInterval(ci.low * f, ci.high * f, 5),
        ]);
    }
    r.tables.push(strat);
}
