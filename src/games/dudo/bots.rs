//! Dudo strategies (bots). A bot sees only a [`View`]: its own dice, the dice shown, the bids.
//!
//! - `random`: a uniformly random legal action.
//! - `honest`: bids what its own dice support: the face with the highest expected count and a
//!   quantity no higher than that expectation; doubts when no such raise is legal.
//! - `threshold:t=0.4,bluff=0.1`: doubts when the standing bid is true with probability below
//!   `t` (given what it sees); otherwise makes the legal raise most likely to be true, or with
//!   probability `bluff` a random one of the cheapest raises per face. It passes when its own
//!   hand would win a doubted pass and that beats its best raise, doubts a pass whose chance of
//!   holding (given the passer's shown dice) is below `t`, reinforces when showing raises its
//!   bid's chance, declares obligado with three or more natural dice of one face, and opens
//!   with the highest bid of its best face that is at least 50 % likely.
//!   Three more parameters, off by default (today's `threshold`), are what `tuned` adds
//!   ([`Params`]): `paso=P` passes with a hand that does not stand (a bluff pass) with
//!   probability P where its pass looks more likely to stand, to the others, than its best
//!   raise is to be true; `lives=W` plays tighter on
//!   its last life (caution W: it judges a raise partly by its worst case, being doubted, and
//!   bluffs less, see [`Params::caution`]); `direction=dice` chooses the direction of play, where
//!   the opener may, from its dice and its neighbours' lives ([`dice_direction`]) instead of at
//!   random.
//! - `tuned`: `threshold` with the parameters `tahur dudo tune` found for the table size
//!   (`data/dudo/tuned-<rules>.csv`: t, bluff, paso, lives), choosing the direction by its dice
//!   (a table without the `paso` and `lives` columns plays as before they existed).
//! - `ismcts[:N]`: information-set Monte Carlo tree search ([`crate::play::ismcts`]) over the
//!   player's own choices, N determinised iterations per decision, each choice judged by
//!   playing the round out with `threshold`'s decision for every seat ([`playout_action`]).
//!
//! Probabilities come from [`OddsTables`], precomputed binomial tails: no decision recomputes a
//! distribution.

use std::fmt;
use std::sync::{Arc, LazyLock};

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::duel::bot::DuelTable;
use super::engine::{Action, Direction, PassHand, View, CUP};
use super::face::Face;
use super::rules::{RuleSet, Rules, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::math::{binomial_pmf, upper_tails};
use crate::play::PlayerView;
use crate::rng::{Rng, Stream};
use crate::text::Spec;

/// Binomial upper tails for every number of unknown dice up to a table size.
#[derive(Clone, Debug)]
pub struct OddsTables {
    max: usize,
    /// tails[kind][u * (max + 2) + m] = P(Binomial(u, p_kind) ≥ m); kinds: 1/3, 1/6, 1/5.
    tails: [Vec<f64>; 3],
    /// (5/6)^u.
    none: Vec<f64>,
}

/// The most dice at a table (16 players × 5).
const MAX_TABLE_DICE: usize = MAX_PLAYERS * CUP;

const THIRD: usize = 0;
const SIXTH: usize = 1;
const FIFTH: usize = 2;

impl OddsTables {
    /// Tables for up to `max_dice` unknown dice.
    pub fn new(max_dice: u32) -> Self {
        let max = max_dice as usize;
        let stride = max + 2;
        let tails = [1.0 / 3.0, 1.0 / 6.0, 1.0 / 5.0].map(|p| {
            let mut t = vec![0.0; (max + 1) * stride];
            for u in 0..=max {
                let tail = upper_tails(&binomial_pmf(u as u32, p));
                t[u * stride..u * stride + tail.len()].copy_from_slice(&tail);
            }
            t
        });
        let none = (0..=max).map(|u| (5.0f64 / 6.0).powi(u as i32)).collect();
        Self { max, tails, none }
    }

    /// The tables for up to `max_dice` unknown dice, built once per size and shared by every
    /// bot (they are read-only).
    pub fn shared(max_dice: u32) -> &'static OddsTables {
        static TABLES: [std::sync::OnceLock<OddsTables>; MAX_TABLE_DICE + 1] =
            [const { std::sync::OnceLock::new() }; MAX_TABLE_DICE + 1];
        let n = (max_dice as usize).min(MAX_TABLE_DICE);
        TABLES[n].get_or_init(|| OddsTables::new(n as u32))
    }

    #[inline]
    fn tail(&self, kind: usize, u: u32, m: i64) -> f64 {
        if m <= 0 {
            1.0
        } else if m > u as i64 {
            0.0
        } else {
            self.tails[kind][u as usize * (self.max + 2) + m as usize]
        }
    }

    /// P(bid true) for a bid on a face counted by `rules`, given the known dice counted by face
    /// (`known`) and `unknown` unknown dice.
    pub fn bid_true(&self, view: &View, bid: Bid, known: &[u32; 6], unknown: u32) -> f64 {
        let counting = view
            .rules()
            .bidding
            .counting(bid.face, view.obligado().is_some());
        let q = bid.quantity as i64 - counting.bonus as i64;
        let k_nat = known[bid.face.index()] as i64;
        let k_ace = if bid.face.is_ace() {
            0
        } else {
            known[0] as i64
        };
        if !counting.wild_aces {
            return self.tail(SIXTH, unknown, q - k_nat);
        }
        if counting.need_natural && k_nat == 0 {
            let m = q - k_ace;
            if q <= 0 {
                return 1.0;
            }
            let none = self.none[unknown as usize];
            if m <= 0 {
                return 1.0 - none;
            }
            return (self.tail(THIRD, unknown, m) - none * self.tail(FIFTH, unknown, m)).max(0.0);
        }
        self.tail(THIRD, unknown, q - k_nat - k_ace)
    }
}

/// What a player knows: the dice they can see counted by face (own hidden dice when known, all
/// shown dice), and how many dice on the table they cannot see.
pub fn knowledge(view: &View) -> ([u32; 6], u32) {
    let mut known = view.shown_on_table();
    let mut unknown_count = view.dice_on_table() - known.iter().sum::<u32>();
    if let Some(own) = view.own_hidden() {
        for &d in own {
            known[(d - 1) as usize] += 1;
        }
        unknown_count -= own.len() as u32;
    }
    (known, unknown_count)
}

/// P(a pass stands if doubted) for a passer whose shown dice are counted in `shown` and whose
/// other dice are unknown. Indexed by the counts packed in base 6.
static PASS_HOLDS: LazyLock<Vec<f64>> = LazyLock::new(|| {
    let mut table = vec![f64::NAN; 6usize.pow(6)];
    for (code, slot) in table.iter_mut().enumerate() {
        let mut shown = [0u8; 6];
        let mut c = code;
        for s in shown.iter_mut() {
            *s = (c % 6) as u8;
            c /= 6;
        }
        let known: usize = shown.iter().map(|&x| x as usize).sum();
        if known > CUP {
            continue;
        }
        let hidden = CUP - known;
        let mut base = Vec::with_capacity(CUP);
        for (f, &n) in shown.iter().enumerate() {
            base.extend(std::iter::repeat_n(f as u8 + 1, n as usize));
        }
        let total = 6usize.pow(hidden as u32);
        let mut holds = 0usize;
        let mut hand = base.clone();
        hand.resize(CUP, 0);
        for outcome in 0..total {
            let mut o = outcome;
            for i in 0..hidden {
                hand[known + i] = (o % 6) as u8 + 1;
                o /= 6;
            }
            holds += PassHand::of(&hand).holds() as usize;
        }
        *slot = holds as f64 / total as f64;
    }
    table
});

/// P(a pass holds) given the passer's shown dice by face and no other knowledge.
pub fn pass_holds_given_shown(shown: [u8; 6]) -> f64 {
    let code = shown
        .iter()
        .rev()
        .fold(0usize, |acc, &c| acc * 6 + c as usize);
    PASS_HOLDS[code]
}

/// A strategy with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum Strategy {
    /// Uniformly random legal actions.
    Random,
    /// Bids what its own dice support.
    Honest,
    /// Doubts below `t`, otherwise the most likely raise (bluffing at rate `bluff`); the other
    /// fields are off by default ([`Strategy::threshold`]), see [`Params`].
    Threshold {
        /// Doubt threshold.
        t: f64,
        /// Bluff rate.
        bluff: f64,
        /// Bluff-pass rate (paso with a hand that does not stand).
        #[serde(default)]
        paso: f64,
        /// Lives weight: the caution on the last life.
        #[serde(default)]
        lives: f64,
        /// How the opener chooses the direction, where it may.
        #[serde(default)]
        direction: DirectionChoice,
    },
    /// `threshold` with parameters tuned per table size: the table shipped in
    /// `data/dudo/tuned-<rules>.csv`, built into tahur.
    Tuned,
    /// `tuned:FILE.csv`: `threshold` with the parameters per table size of a `dudo tune`
    /// output, read when the command line is (the rows travel with shard files).
    #[serde(rename = "tuned-file")]
    TunedFile {
        /// The file as given.
        file: String,
        /// Its rows: table size, doubt threshold, bluff rate.
        rows: Vec<TunedRow>,
    },
    /// `duel`: the solved five-dice duel of the rule set (`data/dudo/duel-chimbo9.csv.gz`,
    /// `duel-caleuchano.csv.gz`, built into tahur) when two players are left, `tuned` before
    /// that and wherever the duel's table does not reach.
    Duel,
    /// `duel:FILE.csv`: `duel` with another solved sheet (`dudo duel --sheet-dir`, solved with
    /// `--memory 1` or `face`; plain or gzipped), read when the command line is.
    #[serde(rename = "duel-file")]
    DuelFile {
        /// The file as given.
        file: String,
        /// A checksum of its text (a shard merge compares strategies by it).
        checksum: u64,
        /// The table read (read again from `file` where a strategy is deserialized).
        #[serde(skip)]
        table: LoadedTable,
    },
    /// Information-set MCTS, played out with `threshold`'s decision ([`playout_action`]).
    Ismcts {
        /// Iterations per decision.
        budget: u32,
    },
}

/// One row of a tuned table: the parameters for one table size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedRow {
    /// Players at the table.
    pub players: u8,
    /// Doubt threshold.
    pub t: f64,
    /// Bluff rate.
    pub bluff: f64,
    /// Bluff-pass rate (0 in a table written before the column existed).
    #[serde(default)]
    pub paso: f64,
    /// Lives weight (0 in a table written before the column existed).
    #[serde(default)]
    pub lives: f64,
    /// How it chooses the direction: by its dice in a table with the `paso` and `lives`
    /// columns, at random in a table written before they existed (which so plays exactly as
    /// it did).
    #[serde(default)]
    pub direction: DirectionChoice,
}

impl TunedRow {
    /// The parameters this row plays.
    pub fn params(&self) -> Params {
        Params {
            t: self.t,
            bluff: self.bluff,
            paso: self.paso,
            lives: self.lives,
            direction: self.direction,
        }
    }
}

/// How an opener who may choose the direction of play (Caleuchano) chooses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DirectionChoice {
    /// Left or right with equal chances (today's `threshold`).
    #[default]
    Random,
    /// From its dice and its neighbours' lives ([`dice_direction`]).
    Dice,
}

/// The parameters of a `threshold` bot, which `tuned` resolves to.
///
/// Defaults (`paso = 0`, `lives = 0`, random direction) play exactly the `threshold` of before
/// these parameters existed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Doubt when the standing bid (or a pass) holds with probability below this.
    pub t: f64,
    /// Rate of a random cheapest raise instead of the most likely one.
    pub bluff: f64,
    /// Rate of a pass with a hand that does not stand, where the pass looks more likely to stand
    /// (to players who see only the dice it has shown) than its best raise is to be true.
    pub paso: f64,
    /// Lives weight: the caution on the bot's last life ([`Params::caution`]).
    pub lives: f64,
    /// How it chooses the direction where the opener may.
    pub direction: DirectionChoice,
}

impl Params {
    /// Today's `threshold:t=…,bluff=…`: no bluff passes, no lives weight, random direction.
    pub const fn threshold(t: f64, bluff: f64) -> Params {
        Params {
            t,
            bluff,
            paso: 0.0,
            lives: 0.0,
            direction: DirectionChoice::Random,
        }
    }

    /// How cautious the bot is in this view, from 0 (plays its `t` and bluff rates as they
    /// are) to 1: the lives weight on its last life (in a game that started with more than one
    /// life), 0 otherwise. With caution c the bot
    ///
    /// - doubts when the bid holds with probability below (1 − c)·t + c·(1 − q), q being the
    ///   chance of its best raise: `t` is the risk a raise is assumed to carry (most raises are
    ///   raised over, not doubted), 1 − q the risk if the raise is doubted, and caution moves
    ///   the first toward the second (at c = 1 it takes whichever loses less *if challenged*);
    /// - bluffs (raises and passes) at (1 − c) times its rates.
    ///
    /// Whatever the lives, one player loses each round, so the lives change no risk by
    /// themselves; what they change is what a misjudged risk costs. Caution on the last life is
    /// a bet that the optimistic `t`, tuned over whole games where most raises go unpunished,
    /// misprices the raises that end a game; `dudo tune` measures whether the bet pays.
    #[inline]
    pub fn caution(&self, view: &View) -> f64 {
        if self.lives > 0.0 && view.rules().lives > 1 && view.lives(view.seat()) == 1 {
            self.lives
        } else {
            0.0
        }
    }
}

/// A duel table read from a file, carried by [`Strategy::DuelFile`]: compared by its file's
/// checksum, not by content.
#[derive(Clone, Default)]
pub struct LoadedTable(pub Option<Arc<DuelTable>>);

impl PartialEq for LoadedTable {
    fn eq(&self, _: &LoadedTable) -> bool {
        true
    }
}

impl fmt::Debug for LoadedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "read" } else { "not read" })
    }
}

/// The text of a strategy's file (`what`: what it should be, `writer`: the command that writes
/// it), or the one-line message naming the file.
fn read_file(file: &str, what: &str, writer: &str) -> Result<String> {
    std::fs::read_to_string(file).map_err(|e| {
        Error::usage(format!(
            "cannot read {what} '{file}': {e}; give a CSV written by `tahur {writer}`"
        ))
    })
}

/// Reads a duel sheet, plain or gzipped (`.csv.gz`, as the Caleuchano sheet is shipped).
fn read_sheet(file: &str) -> Result<String> {
    let bytes = std::fs::read(file).map_err(|e| {
        Error::usage(format!(
            "cannot read duel sheet '{file}': {e}; give a CSV (or .csv.gz) written by `tahur dudo duel --sheet-dir DIR`"
        ))
    })?;
    super::duel::bot::sheet_text(&bytes, file)
}

/// FNV-1a of a text: the checksum [`Strategy::DuelFile`] carries.
fn checksum(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Default doubt threshold of `threshold`.
pub const DEFAULT_T: f64 = 0.4;

/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 200;

/// The search of `ismcts` bots.
type Search = crate::play::ismcts::Search<super::Dudo>;

/// The strategies, for help and messages.
pub const STRATEGIES: &str =
    "strategies are random, honest, tuned, tuned:FILE.csv, threshold, threshold:t=0.4,bluff=0.1,paso=0,lives=0,direction=random, duel, duel:FILE.csv or ismcts[:N] (N iterations per move), or in Spanish azar, honesto, afinado, umbral, duelo, busqueda";

impl Strategy {
    /// Parses `random`, `honest`, `tuned`, `tuned:FILE.csv` (a `dudo tune` output, read now),
    /// `threshold`, `threshold:t=0.4,bluff=0.1`, `duel`, `duel:FILE.csv` (a `dudo duel` sheet, read
    /// now), `ismcts`, `ismcts:N` or `ismcts:budget=N`
    /// (Spanish: azar, honesto, afinado, umbral, duelo, busqueda).
    pub fn parse(s: &str) -> Result<Strategy> {
        let spec = Spec::parse(s, "strategy")?;
        let plain = |st: Strategy| spec.params(&[]).map(|_| st);
        match spec.name.as_str() {
            "random" | "azar" => plain(Strategy::Random),
            "honest" | "honesto" => plain(Strategy::Honest),
            "tuned" | "afinado" => match spec.params(&["file"])?.text("file") {
                None => Ok(Strategy::Tuned),
                Some(file) => {
                    let text = read_file(file, "tuned table", "dudo tune --out-dir DIR")?;
                    Ok(Strategy::TunedFile {
                        file: file.to_string(),
                        rows: parse_tuned(&text, file)?,
                    })
                }
            },
            "threshold" | "umbral" => {
                let p = spec.params(&["t", "bluff", "paso", "lives", "direction"])?;
                let direction = match p.text("direction").map(crate::text::normalize) {
                    None => DirectionChoice::Random,
                    Some(d) if d == "random" || d == "azar" => DirectionChoice::Random,
                    Some(d) if d == "dice" || d == "dados" => DirectionChoice::Dice,
                    Some(d) => {
                        return Err(Error::usage(format!(
                            "invalid value '{d}' for direction in strategy '{s}': expected random or dice (azar, dados)"
                        )))
                    }
                };
                Ok(Strategy::Threshold {
                    t: p.number("t", 0.0, 1.0, DEFAULT_T)?,
                    bluff: p.number("bluff", 0.0, 1.0, 0.0)?,
                    paso: p.number("paso", 0.0, 1.0, 0.0)?,
                    lives: p.number("lives", 0.0, 1.0, 0.0)?,
                    direction,
                })
            }
            "duel" | "duelo" => match spec.params(&["file"])?.text("file") {
                None => Ok(Strategy::Duel),
                Some(file) => {
                    let text = read_sheet(file)?;
                    let table = DuelTable::parse(&text, file)?;
                    Ok(Strategy::DuelFile {
                        file: file.to_string(),
                        checksum: checksum(&text),
                        table: LoadedTable(Some(Arc::new(table))),
                    })
                }
            },
            "ismcts" | "mcts" | "busqueda" => {
                let budget = spec.params(&["budget"])?.count(
                    "budget",
                    1,
                    1_000_000,
                    DEFAULT_ISMCTS_BUDGET as u64,
                )? as u32;
                Ok(Strategy::Ismcts { budget })
            }
            _ => Err(spec.unknown(STRATEGIES)),
        }
    }

    /// Resolves `tuned` to its parameters for a table of `players` under `set`.
    pub fn resolve(&self, set: RuleSet, players: u8) -> Strategy {
        if matches!(self, Strategy::Duel | Strategy::DuelFile { .. }) {
            return self.clone();
        }
        match self.tuned_row(set, players) {
            Some(row) => Strategy::from_params(row.params()),
            None => self.clone(),
        }
    }

    /// For `tuned`: the row it plays at a table of `players` (the nearest size the table has).
    fn tuned_row(&self, set: RuleSet, players: u8) -> Option<TunedRow> {
        match self {
            Strategy::Tuned | Strategy::Duel | Strategy::DuelFile { .. } => {
                Some(nearest_row(shipped_tuned(set), players))
            }
            Strategy::TunedFile { rows, .. } => Some(nearest_row(rows, players)),
            _ => None,
        }
    }

    /// A note when `tuned` has no row for this table size and plays the nearest one's.
    pub fn note(&self, set: RuleSet, players: u8) -> Option<String> {
        let row = self.tuned_row(set, players)?;
        if row.players == players {
            return None;
        }
        let table = match self {
            Strategy::TunedFile { file, .. } => format!("'{file}'"),
            Strategy::Duel | Strategy::DuelFile { .. } => format!(
                "data/dudo/tuned-{}.csv (what `{self}` plays before the duel)",
                set.key()
            ),
            _ => format!("data/dudo/tuned-{}.csv (built into tahur)", set.key()),
        };
        Some(format!(
            "`{self}` has no row for {players} players in {table}: it plays the nearest size's, {} players (t = {}, bluff = {}, paso = {}, lives = {}).",
            row.players, row.t, row.bluff, row.paso, row.lives
        ))
    }

    /// Chooses an action for the viewing player (whose turn it is). An `ismcts` strategy used
    /// bare searches with a fresh arena; a [`Bot`] keeps its own from decision to decision.
    pub fn act(&self, view: &View, odds: &OddsTables, rng: &mut Stream) -> Action {
        match self {
            Strategy::Random => random_action(view, rng),
            Strategy::Honest => honest_action(view),
            threshold @ Strategy::Threshold { .. } => {
                threshold_action(view, odds, rng, &threshold.params().expect("threshold"))
            }
            Strategy::Ismcts { budget } => search_action(&mut Search::new(*budget), view, rng),
            Strategy::Duel | Strategy::DuelFile { .. } => {
                let rules = view.rules();
                let params = tuned_parameters(rules.set(), rules.players);
                let table = self.duel_table(rules.set());
                duel_action(&table, view, odds, rng, &params)
            }
            // A bot resolves `tuned` once ([`Bot::new`]); this is for a strategy used bare.
            tuned => {
                let rules = view.rules();
                let row = tuned
                    .tuned_row(rules.set(), rules.players)
                    .expect("only tuned strategies are left");
                threshold_action(view, odds, rng, &row.params())
            }
        }
    }
}

impl Strategy {
    /// `threshold:t=…,bluff=…` as it always played: no bluff passes, no lives weight, random
    /// direction.
    pub const fn threshold(t: f64, bluff: f64) -> Strategy {
        Strategy::from_params(Params::threshold(t, bluff))
    }

    /// The `threshold` strategy playing these parameters.
    pub const fn from_params(p: Params) -> Strategy {
        Strategy::Threshold {
            t: p.t,
            bluff: p.bluff,
            paso: p.paso,
            lives: p.lives,
            direction: p.direction,
        }
    }

    /// A `threshold` strategy's parameters.
    pub fn params(&self) -> Option<Params> {
        match *self {
            Strategy::Threshold {
                t,
                bluff,
                paso,
                lives,
                direction,
            } => Some(Params {
                t,
                bluff,
                paso,
                lives,
                direction,
            }),
            _ => None,
        }
    }

    /// The table a `duel` strategy plays (the shipped one for `set`, or its file's; a file
    /// that can no longer be read gives an empty table: the bot then plays `tuned` throughout).
    fn duel_table(&self, set: RuleSet) -> Arc<DuelTable> {
        match self {
            Strategy::DuelFile {
                table: LoadedTable(Some(t)),
                ..
            } => t.clone(),
            Strategy::DuelFile { file, .. } => Arc::new(
                read_sheet(file)
                    .and_then(|text| DuelTable::parse(&text, file))
                    .unwrap_or_else(|_| DuelTable::empty()),
            ),
            _ => DuelTable::builtin(set),
        }
    }
}

/// `duel`'s decision: the table's where it answers, `threshold` with the tuned parameters
/// otherwise.
#[inline]
fn duel_action(
    table: &DuelTable,
    view: &View,
    odds: &OddsTables,
    rng: &mut Stream,
    params: &Params,
) -> Action {
    match table.action(view, rng) {
        Some(a) => a,
        None => threshold_action(view, odds, rng, params),
    }
}

/// A Dudo player: its strategy resolved for its table (`tuned` to its row, `ismcts` to its
/// search, whose arena is reused from decision to decision) with the odds tables of its table
/// size.
#[derive(Clone, Debug)]
pub struct Bot {
    policy: Policy,
    odds: &'static OddsTables,
}

/// What a [`Bot`] plays: the strategy with nothing left to look up, so that each decision
/// dispatches on four kinds (a comparison or two, not a jump table over every strategy name).
#[derive(Clone, Debug)]
enum Policy {
    Random,
    Honest,
    Threshold(Params),
    Duel {
        table: Arc<DuelTable>,
        params: Params,
    },
    Search(Box<Search>),
}

impl Bot {
    /// A bot playing `strategy` at a table with these rules.
    pub fn new(strategy: &Strategy, rules: &Rules) -> Bot {
        let policy = match strategy.resolve(rules.set(), rules.players) {
            Strategy::Random => Policy::Random,
            Strategy::Honest => Policy::Honest,
            threshold @ Strategy::Threshold { .. } => {
                Policy::Threshold(threshold.params().expect("threshold"))
            }
            Strategy::Ismcts { budget } => Policy::Search(Box::new(Search::new(budget))),
            duel @ (Strategy::Duel | Strategy::DuelFile { .. }) => Policy::Duel {
                table: duel.duel_table(rules.set()),
                params: tuned_parameters(rules.set(), rules.players),
            },
            Strategy::Tuned | Strategy::TunedFile { .. } => {
                unreachable!("resolving gives `tuned` its row")
            }
        };
        Bot {
            policy,
            odds: OddsTables::shared(rules.players as u32 * CUP as u32),
        }
    }
}

impl crate::play::Strategy<super::Dudo> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, rules: &Rules) -> Bot {
        Bot::new(self, rules)
    }
    fn is_slow(&self) -> bool {
        matches!(self, Strategy::Ismcts { .. })
    }
    fn note(&self, rules: &Rules) -> Option<String> {
        Strategy::note(self, rules.set(), rules.players)
    }
}

impl crate::play::Bot<super::Dudo> for Bot {
    #[inline]
    fn act(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        match &mut self.policy {
            Policy::Random => random_action(view, rng),
            Policy::Honest => honest_action(view),
            Policy::Threshold(params) => threshold_action(view, self.odds, rng, params),
            Policy::Duel { table, params } => duel_action(table, view, self.odds, rng, params),
            Policy::Search(search) => search_action(search, view, rng),
        }
    }
}

/// The search's action: the only legal one without searching, else the search's choice.
fn search_action(search: &mut Search, view: &View, rng: &mut Stream) -> Action {
    let (mut n, mut only) = (0usize, Action::Doubt);
    view.for_each_legal(|a| {
        n += 1;
        only = a;
    });
    if n == 1 {
        return only;
    }
    search.choose(view, rng)
}

/// The play-out policy of `ismcts`: the default `threshold` decision (doubt below 0.4, no
/// bluff) for the player to act, reading the odds tables every bot of the table's size shares.
/// Allocates nothing.
#[inline]
pub fn playout_action(view: &View, rng: &mut Stream) -> Action {
    let odds = OddsTables::shared(view.rules().players as u32 * CUP as u32);
    threshold_action(view, odds, rng, &Params::threshold(DEFAULT_T, 0.0))
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => write!(f, "random"),
            Strategy::Honest => write!(f, "honest"),
            Strategy::Tuned => write!(f, "tuned"),
            Strategy::TunedFile { file, .. } => write!(f, "tuned:{file}"),
            Strategy::Threshold {
                t,
                bluff,
                paso,
                lives,
                direction,
            } => {
                write!(f, "threshold:t={t}")?;
                if *bluff != 0.0 {
                    write!(f, ",bluff={bluff}")?;
                }
                if *paso != 0.0 {
                    write!(f, ",paso={paso}")?;
                }
                if *lives != 0.0 {
                    write!(f, ",lives={lives}")?;
                }
                if *direction == DirectionChoice::Dice {
                    f.write_str(",direction=dice")?;
                }
                Ok(())
            }
            Strategy::Ismcts { budget } => write!(f, "ismcts:{budget}"),
            Strategy::Duel => write!(f, "duel"),
            Strategy::DuelFile { file, .. } => write!(f, "duel:{file}"),
        }
    }
}

/// The tuned parameters for a table of `players` under `set`: the shipped table's row for
/// that size, or the nearest size's.
pub fn tuned_parameters(set: RuleSet, players: u8) -> Params {
    nearest_row(shipped_tuned(set), players).params()
}

/// The tuned table shipped in `data/dudo/tuned-<rules>.csv`, compiled in (a test checks it
/// parses and covers 2–8 players).
pub fn shipped_tuned(set: RuleSet) -> &'static [TunedRow] {
    static CHIMBO: std::sync::OnceLock<Vec<TunedRow>> = std::sync::OnceLock::new();
    static CALEUCHANO: std::sync::OnceLock<Vec<TunedRow>> = std::sync::OnceLock::new();
    let (cell, text, name) = match set {
        RuleSet::Chimbo9 => (
            &CHIMBO,
            include_str!("../../../data/dudo/tuned-chimbo9.csv"),
            "tuned-chimbo9.csv",
        ),
        RuleSet::Caleuchano => (
            &CALEUCHANO,
            include_str!("../../../data/dudo/tuned-caleuchano.csv"),
            "tuned-caleuchano.csv",
        ),
    };
    cell.get_or_init(|| parse_tuned(text, name).unwrap_or_default())
}

/// The row for `players`, or the nearest size's (the smaller on a tie); the untuned
/// `threshold` defaults for an empty table.
fn nearest_row(rows: &[TunedRow], players: u8) -> TunedRow {
    crate::play::tuned::nearest(rows, players, |r| r.players).unwrap_or(TunedRow {
        players,
        t: DEFAULT_T,
        bluff: 0.0,
        paso: 0.0,
        lives: 0.0,
        direction: DirectionChoice::Random,
    })
}

/// Reads a tuned table as `dudo tune` writes it: a header naming `players`, `t` and `bluff`,
/// and `paso` and `lives` when it has them, other columns ignored, then one row per table size.
/// A table without `paso` and `lives` (written before they existed) plays as it did then: no
/// bluff passes, no lives weight, the direction at random; with either, the direction by dice.
pub fn parse_tuned(text: &str, name: &str) -> Result<Vec<TunedRow>> {
    let rows = crate::play::tuned::parse_table_with(
        text,
        name,
        "dudo",
        ["t", "bluff"],
        &["paso", "lives"],
        MAX_PLAYERS,
    )?;
    Ok(rows
        .into_iter()
        .map(|(players, [t, bluff], more)| TunedRow {
            players,
            t,
            bluff,
            paso: more[0].unwrap_or(0.0),
            lives: more[1].unwrap_or(0.0),
            direction: if more.iter().any(Option::is_some) {
                DirectionChoice::Dice
            } else {
                DirectionChoice::Random
            },
        })
        .collect())
}

fn chance(rng: &mut Stream, p: f64) -> bool {
    p > 0.0 && ((rng.next_u64() >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < p
}

fn random_action(view: &View, rng: &mut Stream) -> Action {
    let mut n = 0usize;
    view.for_each_legal(|_| n += 1);
    let pick = crate::rng::uniform_below(rng, n);
    let mut i = 0;
    let mut chosen = Action::Doubt;
    view.for_each_legal(|a| {
        if i == pick {
            chosen = a;
        }
        i += 1;
    });
    chosen
}

/// The cheapest legal raise on `face`, if any.
fn cheapest_raise(view: &View, face: Face) -> Option<Bid> {
    view.min_raise(face).map(|quantity| Bid { quantity, face })
}

/// P(bid true) if the viewer reinforces it: own naturals of the face become shown, the rest of
/// the own hidden dice are re-rolled unseen.
fn reinforced_true(
    view: &View,
    odds: &OddsTables,
    bid: Bid,
    known: &[u32; 6],
    unknown: u32,
) -> Option<f64> {
    let own = view.own_hidden()?;
    let mut k = *known;
    let mut u = unknown;
    for &d in own {
        if d != bid.face.value() {
            k[(d - 1) as usize] -= 1;
            u += 1;
        }
    }
    Some(odds.bid_true(view, bid, &k, u))
}

fn threshold_action(view: &View, odds: &OddsTables, rng: &mut Stream, params: &Params) -> Action {
    let (known, unknown) = knowledge(view);
    let Some(current) = view.bid() else {
        return threshold_open(view, odds, rng, &known, unknown, params.direction);
    };
    // The most likely of the cheapest raises per face (computed before the doubt: caution
    // weighs its chance).
    let mut best: Option<(Bid, f64)> = None;
    for face in Face::ALL {
        if let Some(b) = cheapest_raise(view, face) {
            let p = odds.bid_true(view, b, &known, unknown);
            if best.is_none_or(|(_, bp)| p > bp) {
                best = Some((b, p));
            }
        }
    }
    let caution = params.caution(view);
    let t = match best {
        Some((_, q)) if caution > 0.0 => (1.0 - caution) * params.t + caution * (1.0 - q),
        _ => params.t,
    };
    // Facing a pass: only the pass can be doubted.
    if let Some(passer) = view.pending_pass() {
        if pass_holds_given_shown(view.shown_by(passer)) < t {
            return Action::Doubt;
        }
    } else if odds.bid_true(view, current, &known, unknown) < t {
        return Action::Doubt;
    }
    let Some((mut bid, mut p)) = best else {
        return Action::Doubt;
    };
    let calm = 1.0 - caution;
    let bluff = params.bluff * calm;
    if bluff > 0.0 && chance(rng, bluff) {
        // A random one of the cheapest raises, in face order: listed again only here, so that
        // the usual decision keeps no list (and nothing allocates).
        let raises = || {
            Face::ALL
                .into_iter()
                .filter_map(|f| cheapest_raise(view, f))
        };
        let pick = crate::rng::uniform_below(rng, raises().count());
        bid = raises().nth(pick).expect("the pick is among the options");
        p = odds.bid_true(view, bid, &known, unknown);
    }
    if view.can_pass() {
        let pass_p = match view.own_hidden() {
            Some(own) if own.len() == CUP => PassHand::of(own).holds() as u8 as f64,
            _ => pass_holds_given_shown(view.shown_by(view.seat())),
        };
        if pass_p > p {
            return Action::Pass;
        }
        // A bluff pass, with a hand that would not stand: where the pass looks more likely to
        // stand, to players who see only the dice this bot has shown, than its raise is to be
        // true (a raise that high is what passes are for).
        let paso = params.paso * calm;
        if paso > 0.0
            && pass_p < 1.0
            && pass_holds_given_shown(view.shown_by(view.seat())) > p
            && chance(rng, paso)
        {
            return Action::Pass;
        }
    }
    let reinforce = view.can_reinforce()
        && reinforced_true(view, odds, bid, &known, unknown).is_some_and(|r| r > p);
    Action::Raise { bid, reinforce }
}

/// The seat next to `seat` going `direction`, among the players still in.
fn neighbour(view: &View, seat: usize, direction: Direction) -> usize {
    let n = view.rules().players as usize;
    let step = match direction {
        Direction::Right => 1,
        Direction::Left => n - 1,
    };
    let mut p = (seat + step) % n;
    while p != seat && view.lives(p) == 0 {
        p = (p + step) % n;
    }
    p
}

/// The direction an opener who may choose it plays (`direction=dice`, what `tuned` does): a
/// function of its dice and its neighbours' lives, with no chance.
///
/// The direction decides which neighbour receives the opener's bids (and may doubt them) and
/// which one bids to the opener (whose bids the opener may doubt); nothing else (docs/rules.md
/// §1b). The opener's losses and wins in the round are against these two. Which of them should
/// it rather make lose? The one with **more lives**: where a round's loser is equally likely to
/// be anyone (players of equal skill), a player's chance of winning the game rises more when
/// the loss falls on the leader than on a player near elimination (with lives 2, 1, 3 the first
/// player's chance is 43.5 % after the third loses a life, 31.3 % after the second is
/// eliminated; 3, 1, 2, 3 → 39.8 % after the fourth loses one, 33.3 % after the second is out).
/// And which of them is it more likely to make lose? With a hand that backs its opening bid
/// (three or more of its five dice count for the face it opens), its bids tend to be true, so the
/// loss more likely falls on the neighbour who doubts them: it sends its bid toward the
/// neighbour with more lives. With a weaker hand it more likely wins by doubting, so it sends
/// the bid the other way, leaving that neighbour to bid to it. With neighbours of equal lives
/// (and with two players in) the sides do not differ: to the right.
pub fn dice_direction(view: &View, own_count: u32) -> Direction {
    let me = view.seat();
    let right = neighbour(view, me, Direction::Right);
    let left = neighbour(view, me, Direction::Left);
    let (lr, ll) = (view.lives(right), view.lives(left));
    if right == left || lr == ll {
        return Direction::Right;
    }
    let toward_right = (lr > ll) == (own_count >= 3);
    if toward_right {
        Direction::Right
    } else {
        Direction::Left
    }
}

fn threshold_open(
    view: &View,
    odds: &OddsTables,
    rng: &mut Stream,
    known: &[u32; 6],
    unknown: u32,
    choice: DirectionChoice,
) -> Action {
    let cfg = view.rules();
    // Obligado with a strong natural holding: three or more of one face.
    let obligado = view.obligado_available()
        && view
            .own_hidden()
            .is_some_and(|own| (1..=6u8).any(|f| own.iter().filter(|&&d| d == f).count() >= 3));
    let random_left = cfg.choose_direction
        && choice == DirectionChoice::Random
        && crate::rng::uniform_below(rng, 2) == 1;
    let mut best: Option<(Bid, f64)> = None;
    for face in Face::ALL {
        let counting = cfg.bidding.counting(face, obligado);
        let p_each = if counting.wild_aces {
            1.0 / 3.0
        } else {
            1.0 / 6.0
        };
        let k = known[face.index()] + if counting.wild_aces { known[0] } else { 0 };
        let expected = k as f64 + unknown as f64 * p_each + counting.bonus as f64;
        if obligado && (face.is_ace() || known[face.index()] < 3) {
            continue;
        }
        if best.is_none_or(|(b, e)| expected > e || (expected == e && face > b.face)) {
            best = Some((Bid { quantity: 1, face }, expected));
        }
    }
    let face = best.map_or(Face::ALL[5], |(b, _)| b.face);
    let direction = match choice {
        _ if !cfg.choose_direction => Direction::Right,
        DirectionChoice::Random if random_left => Direction::Left,
        DirectionChoice::Random => Direction::Right,
        DirectionChoice::Dice => {
            // Own dice counting for the face opened (the known dice at an opening are the
            // opener's own: nothing is shown yet).
            let counting = cfg.bidding.counting(face, obligado);
            let own = known[face.index()]
                + if counting.wild_aces && !face.is_ace() {
                    known[0]
                } else {
                    0
                };
            dice_direction(view, own)
        }
    };
    // The highest quantity still at least 50 % likely (at least 1).
    let counting_view_bid = |q| Bid { quantity: q, face };
    let max_q = view.max_quantity(face);
    let mut q = 1;
    while q < max_q
        && open_true(
            view,
            odds,
            counting_view_bid(q + 1),
            known,
            unknown,
            obligado,
        ) >= 0.5
    {
        q += 1;
    }
    Action::Open {
        bid: Bid { quantity: q, face },
        reinforce: false,
        direction,
        obligado,
    }
}

/// P(true) of an opening bid, under obligado counting when declaring it.
fn open_true(
    view: &View,
    odds: &OddsTables,
    bid: Bid,
    known: &[u32; 6],
    unknown: u32,
    obligado: bool,
) -> f64 {
    if obligado {
        let m = bid.quantity as i64 - known[bid.face.index()] as i64;
        odds.tail(SIXTH, unknown, m)
    } else {
        odds.bid_true(view, bid, known, unknown)
    }
}

fn honest_action(view: &View) -> Action {
    let (known, unknown) = knowledge(view);
    let cfg = view.rules();
    let obligado = view.obligado().is_some();
    let expected = |face: Face| {
        let c = cfg.bidding.counting(face, obligado);
        let p = if c.wild_aces { 1.0 / 3.0 } else { 1.0 / 6.0 };
        let k = known[face.index()] + if c.wild_aces { known[0] } else { 0 };
        (k as f64 + unknown as f64 * p + c.bonus as f64).floor() as u32
    };
    if view.bid().is_none() {
        let face = Face::ALL
            .iter()
            .copied()
            .max_by_key(|&f| (expected(f), f))
            .expect("six faces");
        let q = expected(face).clamp(1, view.max_quantity(face));
        return Action::Open {
            bid: Bid { quantity: q, face },
            reinforce: false,
            direction: Direction::Right,
            obligado: false,
        };
    }
    // The supported raise with the most room under its expectation.
    let best = Face::ALL
        .iter()
        .filter_map(|&f| {
            cheapest_raise(view, f).map(|b| (b, expected(f) as i64 - b.quantity as i64))
        })
        .filter(|&(_, room)| room >= 0)
        .max_by_key(|&(b, room)| (room, b.face));
    match best {
        Some((bid, _)) => Action::Raise {
            bid,
            reinforce: false,
        },
        None => {
            // Pass with a hand that stands a doubt, if allowed; otherwise doubt.
            let holds = view
                .own_hidden()
                .is_some_and(|own| own.len() == CUP && PassHand::of(own).holds());
            if holds && view.can_pass() {
                Action::Pass
            } else {
                Action::Doubt
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names() {
        assert_eq!(Strategy::parse("random").unwrap(), Strategy::Random);
        assert_eq!(
            Strategy::parse("threshold:t=0.3,bluff=0.1").unwrap(),
            Strategy::threshold(0.3, 0.1)
        );
        assert_eq!(
            Strategy::parse("threshold").unwrap(),
            Strategy::threshold(DEFAULT_T, 0.0)
        );
        // What `tuned` adds, off by default, written back as given.
        let full = "threshold:t=0.1,bluff=0.05,paso=0.25,lives=0.5,direction=dice";
        let s = Strategy::parse(full).unwrap();
        assert_eq!(
            s.params(),
            Some(Params {
                t: 0.1,
                bluff: 0.05,
                paso: 0.25,
                lives: 0.5,
                direction: DirectionChoice::Dice,
            })
        );
        assert_eq!(s.to_string(), full);
        assert_eq!(
            Strategy::parse("umbral:t=0.1,direction=azar").unwrap(),
            Strategy::threshold(0.1, 0.0)
        );
        let e = Strategy::parse("threshold:direction=up")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("direction") && e.contains("random or dice"),
            "{e}"
        );
        for bad in [
            "threshold:paso=2",
            "threshold:lives=-0.5",
            "rando",
            "threshold:t=2",
            "threshold:x=0.1",
            "threshold:t",
            "random:t=0.1",
            "threshold:t=abc",
        ] {
            let e = Strategy::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad.split(':').next().unwrap()), "{e}");
        }
        assert_eq!(
            Strategy::parse("threshold:t=0.3,bluff=0.1")
                .unwrap()
                .to_string(),
            "threshold:t=0.3,bluff=0.1"
        );
        assert_eq!(
            Strategy::parse("ismcts").unwrap(),
            Strategy::Ismcts {
                budget: DEFAULT_ISMCTS_BUDGET
            }
        );
        for (text, budget) in [
            ("ismcts:50", 50),
            ("busqueda:budget=7", 7),
            ("MCTS:1e3", 1000),
        ] {
            let s = Strategy::parse(text).unwrap();
            assert_eq!(s, Strategy::Ismcts { budget }, "{text}");
            assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s);
        }
        for bad in ["ismcts:0", "ismcts:x=1", "busqueda:-3", "ismcts:budget=2e6"] {
            assert!(Strategy::parse(bad).is_err(), "{bad}");
        }
        for text in ["duel", "Duelo"] {
            let s = Strategy::parse(text).unwrap();
            assert_eq!(s, Strategy::Duel, "{text}");
            assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s);
        }
        // `duel` plays `tuned`'s row before the duel, and says nothing more at a size it has.
        assert_eq!(Strategy::Duel.note(RuleSet::Chimbo9, 4), None);
        assert!(Strategy::parse("duel:x=1").is_err());
    }

    #[test]
    fn pass_table_matches_enumeration_of_all_rolls() {
        // No dice shown: poker 156 (incl. five equal), full 300, pichanga 720 of 7776.
        assert!((pass_holds_given_shown([0; 6]) - 1176.0 / 7776.0).abs() < 1e-15);
        // Four shown threes: poker whatever the fifth die.
        assert_eq!(pass_holds_given_shown([0, 0, 4, 0, 0, 0]), 1.0);
        // Two shown sixes: full needs the other three to be a triple of another face (5/216)
        // or one more six and a pair ... enumerate: 6^3 outcomes.
        let mut holds = 0;
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                for c in 1..=6u8 {
                    holds += PassHand::of(&[6, 6, a, b, c]).holds() as u32;
                }
            }
        }
        assert!((pass_holds_given_shown([0, 0, 0, 0, 0, 2]) - holds as f64 / 216.0).abs() < 1e-15);
    }
}
