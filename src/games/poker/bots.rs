//! Póker mentiroso strategies (bots). A bot sees only a [`View`]: the claim, the face-up dice,
//! the points, and its own dice once it holds the cup.
//!
//! - `random`: a uniformly random legal action.
//! - `honest`: calls only a claim the face-up dice make impossible (and repóker de ases unless
//!   the face-up dice show it); re-rolls by the exact optimal plan to beat the claim it
//!   accepted; claims the truth when it beats that claim, else the smallest lie.
//! - `threshold:call=0.1,bluff=0`: calls when the claim's chance given the face-up dice (the
//!   hidden dice a fresh roll) is below `call`, or when the face-up dice rule it out;
//!   re-rolls by the exact optimal plan; claims the truth or the smallest lie, or, when it is
//!   higher, the highest claim the next player would still find at least `1 − bluff` likely
//!   from the dice left face up.
//! - `tuned`: `threshold` with the parameters `tahur poker tune` found for the table size
//!   (`data/poker/tuned.csv`, built in); `tuned:FILE.csv` plays another table.
//! - `search:N`: reckons the chance the claim is true from the hidden dice a `tuned` claimant
//!   would have made it with (each weighed as a fresh roll), and the chance of losing the hand
//!   after accepting from N play-outs with `tuned` players around it (the hidden dice drawn
//!   from the same reckoning); calls when calling loses less often. Otherwise plays `tuned`.
//!   `search:rollouts=N,call=0.1,bluff=0.4` plays and models `threshold:call=0.1,bluff=0.4` instead of
//!   `tuned` (a field bot for `poker tune` that does not depend on the table being tuned).
//! - `ismcts:N`: information-set Monte Carlo tree search ([`crate::play::ismcts`]) over every
//!   decision, N iterations per decision (default 300): each deals the dice in the cup the bot
//!   does not know afresh, plays the hand out with `tuned` players, and scores the hand's loser
//!   0 and everybody else 1.
//!
//! Every bot throws the dice it re-rolls one at a time, each where fewer dice end up face up:
//! in the open when the dice kept in the cup outnumber it, else in the cup. The chances and
//! plans come from the shared [`tables`] (built once per process), never per decision.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::{Action, Phase, PokerState, View, ALL_DICE, TOP};
use super::hand::DICE;
use super::rules::{Rules, MAX_PLAYERS};
use super::tables::{plan, tables, Tables, POW6, STOP};
use crate::error::{Error, Result};
use crate::play::State;
use crate::rng::{uniform_below, Rng, Stream};
use crate::text::Spec;

/// The default call threshold of `threshold`.
pub const DEFAULT_CALL: f64 = 0.1;
/// The default play-outs per decision of `search`.
pub const DEFAULT_ROLLOUTS: u64 = 200;
/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 300;

/// The search of `ismcts` bots.
type Search = crate::play::ismcts::Search<super::Poker>;

/// The strategies, for help and messages.
pub const STRATEGIES: &str = "strategies are random, honest, threshold or threshold:call=0.1,bluff=0.4, tuned, tuned:FILE.csv, search, search:N or search:rollouts=N,call=0.1,bluff=0.4, ismcts or ismcts:N, or in Spanish azar, honesto, umbral, afinado, busqueda, arbol";

/// A strategy with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum Strategy {
    /// Uniformly random legal actions.
    Random,
    /// Calls only the impossible; claims the truth or the smallest lie.
    Honest,
    /// Calls below `call`; overstates up to what the next player believes at `1 − bluff`.
    Threshold {
        /// Call when the claim's chance given the face-up dice is below this.
        call: f64,
        /// Overstate up to the highest claim at least `1 − bluff` likely (0: never).
        bluff: f64,
    },
    /// `threshold` with the parameters tuned per table size (`data/poker/tuned.csv`).
    Tuned,
    /// `tuned:FILE.csv`: the parameters per table size of a `poker tune` output.
    #[serde(rename = "tuned-file")]
    TunedFile {
        /// The file as given.
        file: String,
        /// Its rows.
        rows: Vec<TunedRow>,
    },
    /// Calls or accepts by playing the hand out `rollouts` times; otherwise `tuned`, or the
    /// `threshold` player `plays` names.
    Search {
        /// Play-outs per call-or-accept decision.
        rollouts: u64,
        /// `search:rollouts=N,call=…,bluff=…`: the call threshold and bluff level it plays with and
        /// models the others by instead of the tuned table's (so that `poker tune` can meet
        /// it without tuning against its own table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plays: Option<TunedRow>,
    },
    /// Information-set Monte Carlo tree search over every decision.
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
    /// Call threshold.
    pub call: f64,
    /// Bluff level.
    pub bluff: f64,
}

impl Strategy {
    /// Parses a strategy as written (see [`STRATEGIES`]).
    pub fn parse(s: &str) -> Result<Strategy> {
        let spec = Spec::parse(s, "strategy")?;
        let plain = |st: Strategy| spec.params(&[]).map(|_| st);
        match spec.name.as_str() {
            "random" | "azar" => plain(Strategy::Random),
            "honest" | "honesto" => plain(Strategy::Honest),
            "threshold" | "umbral" => {
                let p = spec.params(&["call", "bluff"])?;
                Ok(Strategy::Threshold {
                    call: p.number("call", 0.0, 1.0, DEFAULT_CALL)?,
                    bluff: p.number("bluff", 0.0, 1.0, 0.0)?,
                })
            }
            "tuned" | "afinado" => match spec.params(&["file"])?.text("file") {
                None => Ok(Strategy::Tuned),
                Some(file) if file.trim().is_empty() => Err(Error::usage(format!(
                    "strategy '{s}' names no file: write tuned:FILE.csv (a `tahur poker tune` output)"
                ))),
                Some(file) => {
                    let text = std::fs::read_to_string(file).map_err(|e| {
                        Error::usage(format!(
                            "cannot read tuned table '{file}': {e}; give a CSV written by `tahur poker tune`"
                        ))
                    })?;
                    Ok(Strategy::TunedFile {
                        file: file.to_string(),
                        rows: parse_tuned(&text, file)?,
                    })
                }
            },
            "search" | "busqueda" | "buscador" => {
                let p = spec.params(&["rollouts", "call", "bluff"])?;
                let rollouts = p.count("rollouts", 1, 100_000, DEFAULT_ROLLOUTS)?;
                let plays = match (p.text("call"), p.text("bluff")) {
                    (None, None) => None,
                    (Some(_), Some(_)) => Some(TunedRow {
                        // Every table size: the row's size is not read.
                        players: 0,
                        call: p.number("call", 0.0, 1.0, DEFAULT_CALL)?,
                        bluff: p.number("bluff", 0.0, 1.0, 0.0)?,
                    }),
                    _ => {
                        return Err(Error::usage(format!(
                            "strategy '{s}' gives one of call and bluff: give both (search:rollouts=100,call=0.1,bluff=0.4) or neither (it plays the tuned table)"
                        )))
                    }
                };
                Ok(Strategy::Search { rollouts, plays })
            }
            // Spanish: búsqueda en árbol (`busqueda` is `search`'s).
            "ismcts" | "mcts" | "arbol" => {
                let p = spec.params(&["budget"])?;
                Ok(Strategy::Ismcts {
                    budget: p.count("budget", 1, 1_000_000, DEFAULT_ISMCTS_BUDGET as u64)? as u32,
                })
            }
            _ => Err(spec.unknown(STRATEGIES)),
        }
    }

    /// For `tuned` (and `search` and `ismcts`, which play it): the row it plays at a table of
    /// `players`.
    fn tuned_row(&self, players: u8) -> Option<TunedRow> {
        match self {
            Strategy::Search {
                plays: Some(row), ..
            } => Some(TunedRow { players, ..*row }),
            Strategy::Tuned | Strategy::Search { .. } | Strategy::Ismcts { .. } => {
                Some(nearest_row(shipped_tuned(), players))
            }
            Strategy::TunedFile { rows, .. } => Some(nearest_row(rows, players)),
            _ => None,
        }
    }

    /// A note when `tuned` has no row for this table size and plays the nearest one's.
    pub fn note(&self, players: u8) -> Option<String> {
        let row = self.tuned_row(players)?;
        if row.players == players {
            return None;
        }
        let table = match self {
            Strategy::TunedFile { file, .. } => format!("'{file}'"),
            _ => "data/poker/tuned.csv (built into tahur)".to_string(),
        };
        Some(format!(
            "`{self}` has no row for {players} players in {table}: it plays the nearest size's, {} players (call = {}, bluff = {}).",
            row.players, row.call, row.bluff
        ))
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => write!(f, "random"),
            Strategy::Honest => write!(f, "honest"),
            Strategy::Tuned => write!(f, "tuned"),
            Strategy::TunedFile { file, .. } => write!(f, "tuned:{file}"),
            Strategy::Threshold { call, bluff } if *bluff == 0.0 => {
                write!(f, "threshold:call={call}")
            }
            Strategy::Threshold { call, bluff } => write!(f, "threshold:call={call},bluff={bluff}"),
            Strategy::Search {
                rollouts,
                plays: None,
            } => write!(f, "search:{rollouts}"),
            Strategy::Search {
                rollouts,
                plays: Some(row),
            } => write!(
                f,
                "search:rollouts={rollouts},call={},bluff={}",
                row.call, row.bluff
            ),
            Strategy::Ismcts { budget } => write!(f, "ismcts:{budget}"),
        }
    }
}

/// The tuned table shipped in `data/poker/tuned.csv`, compiled in (a test checks it parses and
/// covers 2–6 players).
pub fn shipped_tuned() -> &'static [TunedRow] {
    static ROWS: std::sync::OnceLock<Vec<TunedRow>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        parse_tuned(include_str!("../../../data/poker/tuned.csv"), "tuned.csv").unwrap_or_default()
    })
}

/// The row for `players`, or the nearest size's (the smaller on a tie); the untuned defaults
/// for an empty table.
fn nearest_row(rows: &[TunedRow], players: u8) -> TunedRow {
    crate::play::tuned::nearest(rows, players, |r| r.players).unwrap_or(TunedRow {
        players,
        call: DEFAULT_CALL,
        bluff: 0.0,
    })
}

/// Reads a tuned table as `poker tune` writes it: a header naming `players`, `call` and
/// `bluff` (other columns are ignored), then one row per table size.
pub fn parse_tuned(text: &str, name: &str) -> Result<Vec<TunedRow>> {
    let rows =
        crate::play::tuned::parse_table(text, name, "poker", ["call", "bluff"], MAX_PLAYERS)?;
    Ok(rows
        .into_iter()
        .map(|(players, [call, bluff])| TunedRow {
            players,
            call,
            bluff,
        })
        .collect())
}

/// How a bot plays, with `tuned` resolved for its table.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Random,
    /// `honest` is `threshold` that calls only the impossible and never overstates.
    Threshold {
        call: f64,
        bluff: f64,
        honest: bool,
    },
    Search {
        rollouts: u64,
        call: f64,
        bluff: f64,
    },
    Ismcts,
}

/// A Póker mentiroso player.
#[derive(Clone, Debug)]
pub struct Bot {
    kind: Kind,
    t: &'static Tables,
    /// `search`'s hidden multisets and their weights (room made once).
    scratch: Vec<(u32, f64)>,
    /// `ismcts`'s search (its node arena reused from decision to decision).
    search: Option<Box<Search>>,
}

impl Bot {
    /// A bot playing `strategy` at a table with these rules.
    pub fn new(strategy: &Strategy, rules: &Rules) -> Bot {
        let kind = match strategy {
            Strategy::Random => Kind::Random,
            Strategy::Honest => Kind::Threshold {
                call: 0.0,
                bluff: 0.0,
                honest: true,
            },
            Strategy::Threshold { call, bluff } => Kind::Threshold {
                call: *call,
                bluff: *bluff,
                honest: false,
            },
            Strategy::Search { rollouts, .. } => {
                let row = strategy
                    .tuned_row(rules.players)
                    .expect("search plays tuned");
                Kind::Search {
                    rollouts: *rollouts,
                    call: row.call,
                    bluff: row.bluff,
                }
            }
            Strategy::Ismcts { .. } => Kind::Ismcts,
            tuned => {
                let row = tuned.tuned_row(rules.players).expect("tuned");
                Kind::Threshold {
                    call: row.call,
                    bluff: row.bluff,
                    honest: false,
                }
            }
        };
        let scratch = match kind {
            Kind::Search { .. } => Vec::with_capacity(super::tables::MULTISETS),
            _ => Vec::new(),
        };
        let search = match strategy {
            Strategy::Ismcts { budget } => Some(Box::new(Search::new(*budget))),
            _ => None,
        };
        Bot {
            kind,
            t: tables(),
            scratch,
            search,
        }
    }

    /// The action for the position `view` shows.
    #[inline]
    pub fn decide(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        match self.kind {
            Kind::Random => view.nth_legal(|n| uniform_below(rng, n)),
            Kind::Threshold {
                call,
                bluff,
                honest,
            } => threshold(self.t, view, call, bluff, honest),
            Kind::Search {
                rollouts,
                call,
                bluff,
            } => match view.phase() {
                Phase::Decide => {
                    search_decide(self.t, view, rollouts, call, bluff, &mut self.scratch, rng)
                }
                _ => threshold(self.t, view, call, bluff, false),
            },
            Kind::Ismcts => self.ismcts_decide(view, rng),
        }
    }

    /// The `ismcts` decision: its own function, so that the search's large frame stays out of
    /// the other bots' decisions.
    #[inline(never)]
    fn ismcts_decide(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        let mut choices = 0;
        let only = view.nth_legal(|n| {
            choices = n;
            0
        });
        if choices == 1 {
            return only;
        }
        self.search
            .as_mut()
            .expect("ismcts bots carry a search")
            .choose(view, rng)
    }
}

/// The play-out policy of `ismcts`: the `tuned` player's action for the table's size.
#[inline]
pub fn playout_action(state: &PokerState) -> Action {
    let row = nearest_row(shipped_tuned(), state.rules().players);
    let view = state.view(state.to_act());
    threshold(tables(), &view, row.call, row.bluff, false)
}

impl crate::play::Strategy<super::Poker> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, rules: &Rules) -> Bot {
        Bot::new(self, rules)
    }
    fn is_slow(&self) -> bool {
        matches!(self, Strategy::Search { .. } | Strategy::Ismcts { .. })
    }
    fn note(&self, rules: &Rules) -> Option<String> {
        Strategy::note(self, rules.players)
    }
}

impl crate::play::Bot<super::Poker> for Bot {
    #[inline]
    fn act(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        self.decide(view, rng)
    }
}

/// The chance that the standing claim is true as the receiver sees it: the face-up dice fixed,
/// the hidden ones a fresh roll.
#[inline]
pub fn claim_chance(t: &Tables, view: &View<'_>) -> f64 {
    view.claim()
        .map_or(1.0, |c| t.reach(view.face_up_code(), c as usize))
}

/// The `threshold` (and `honest`) decision.
#[inline]
fn threshold(t: &Tables, view: &View<'_>, call: f64, bluff: f64, honest: bool) -> Action {
    match view.phase() {
        Phase::FirstRoll | Phase::Over => Action::Throw {
            dice: ALL_DICE,
            open: false,
        },
        Phase::Decide => {
            let p = claim_chance(t, view);
            let calls = if view.claim() == Some(TOP) {
                // Believing repóker de ases costs the point for sure.
                p < 1.0
            } else if honest {
                p == 0.0
            } else {
                p == 0.0 || p < call
            };
            if calls {
                Action::Call
            } else {
                Action::Accept
            }
        }
        Phase::Play => {
            // Bots decide on their own turn: the viewer holds the cup, and the holder knows the
            // dice (asked first, this also spares the checks of `dice` and `thrown`).
            assert!(view.to_act(), "a bot decides on its own turn");
            let dice = view.dice().expect("the cup's holder sees the dice");
            let kickers = view.rules().kickers;
            let lowest = t
                .lowest_claim_above(view.claim(), kickers)
                .expect("a claim below repóker de ases stands");
            if let Some(throw) = plan_throw(t, view, &dice, lowest as usize) {
                return throw;
            }
            Action::Claim(claim_for(t, view, &dice, lowest, bluff))
        }
    }
}

/// The next die the optimal plan for "a hand of rung `need` or higher" throws, if any.
#[inline]
fn plan_throw(t: &Tables, view: &View<'_>, dice: &[u8; DICE], need: usize) -> Option<Action> {
    let thrown = view.thrown();
    if thrown == ALL_DICE {
        return None;
    }
    let (mut unrolled, mut rolled) = (0, 0);
    for (i, &d) in dice.iter().enumerate() {
        if thrown >> i & 1 == 1 {
            rolled += POW6[d as usize];
        } else {
            unrolled += POW6[d as usize];
        }
    }
    let step = plan(need).step(t, unrolled, rolled);
    if step == STOP {
        return None;
    }
    let i = (0..DICE)
        .find(|&i| thrown >> i & 1 == 0 && dice[i] == step)
        .expect("the plan rolls a die not yet thrown");
    let mask = 1u8 << i;
    // Fewer dice face up: in the open keeps the other hidden dice in the cup; in the cup hides
    // this one and shows every other.
    let open = (view.hidden() & !mask).count_ones() > 1;
    Some(Action::Throw { dice: mask, open })
}

/// What to claim with these dice: the truth when it is a legal claim, else the smallest lie
/// (`lowest`); or, if higher, the highest claim still at least `1 − bluff` likely to the next
/// player (bluff 0: never above the truth).
#[inline]
fn claim_for(t: &Tables, view: &View<'_>, dice: &[u8; DICE], lowest: u8, bluff: f64) -> u8 {
    let kickers = view.rules().kickers;
    let code: u32 = dice.iter().map(|&d| POW6[d as usize]).sum();
    let truth = t.claim_at_most(t.rung(code), kickers);
    let base = truth.max(lowest);
    if bluff > 0.0 {
        if let Some(level) = t.highest_reaching(view.face_up_code(), lowest as usize, 1.0 - bluff) {
            let level = t.claim_at_most(level as u8, kickers);
            if level > base {
                return level;
            }
        }
    }
    base
}

/// What a `threshold:call,bluff` player claims with the dice `code` when the dice `face_up`
/// lie face up and `lowest` is the lowest legal claim (see [`claim_for`]).
#[inline]
fn model_claim(t: &Tables, code: u32, face_up: u32, lowest: u8, bluff: f64, kickers: bool) -> u8 {
    let base = t.claim_at_most(t.rung(code), kickers).max(lowest);
    if bluff > 0.0 {
        if let Some(level) = t.highest_reaching(face_up, lowest as usize, 1.0 - bluff) {
            return base.max(t.claim_at_most(level as u8, kickers));
        }
    }
    base
}

/// The chance the standing claim is true as `search` reckons it: the hidden dice a fresh roll,
/// weighed by whether a claimant holding them would have made this claim over the claim they
/// accepted — half the weight to a claimant who never overstates the truth, half to one who
/// bluffs as `threshold:…,bluff` does. Fills `scratch` with the hidden multisets that would have, and
/// their cumulative weights, for drawing them. Without any such multiset (the claimant plays
/// otherwise), the fresh-roll chance, with every multiset in `scratch`.
pub fn claim_chance_inferred(
    t: &Tables,
    view: &View<'_>,
    bluff: f64,
    scratch: &mut Vec<(u32, f64)>,
) -> f64 {
    scratch.clear();
    let Some(claim) = view.claim() else {
        return 1.0;
    };
    let face_up = view.face_up_code();
    let hidden = DICE - t.size(face_up);
    let kickers = view.rules().kickers;
    let lowest = t
        .lowest_claim_above(view.previous_claim(), kickers)
        .unwrap_or(claim);
    let (mut all, mut truth) = (0.0, 0.0);
    for &h in t.codes_of_size(hidden) {
        let code = face_up + h;
        // Two claimants, equally likely: one who never overstates the truth (`honest`'s rule)
        // and one who bluffs at `bluff`.
        let models = (model_claim(t, code, face_up, lowest, 0.0, kickers) == claim) as u32
            + (model_claim(t, code, face_up, lowest, bluff, kickers) == claim) as u32;
        if models == 0 {
            continue;
        }
        let w = (t.orderings(h) * models) as f64;
        all += w;
        if t.rung(code) >= claim {
            truth += w;
        }
        scratch.push((h, all));
    }
    if all == 0.0 {
        let mut acc = 0.0;
        for &h in t.codes_of_size(hidden) {
            acc += t.orderings(h) as f64;
            scratch.push((h, acc));
        }
        return t.reach(face_up, claim as usize);
    }
    truth / all
}

/// `search`'s call: the chance of losing the hand by calling (the claim is true, reckoned by
/// [`claim_chance_inferred`]) against the chance of losing it by accepting, from `rollouts`
/// play-outs of the hand with every seat playing `threshold:call,bluff` and the hidden dice
/// drawn from the same reckoning.
fn search_decide(
    t: &'static Tables,
    view: &View<'_>,
    rollouts: u64,
    call: f64,
    bluff: f64,
    scratch: &mut Vec<(u32, f64)>,
    rng: &mut Stream,
) -> Action {
    let Some(claim) = view.claim() else {
        return Action::Accept;
    };
    let lose_calling = claim_chance_inferred(t, view, bluff, scratch);
    if claim == TOP {
        return if lose_calling < 1.0 {
            Action::Call
        } else {
            Action::Accept
        };
    }
    if lose_calling == 0.0 || lose_calling == 1.0 {
        return if lose_calling == 0.0 {
            Action::Call
        } else {
            Action::Accept
        };
    }
    let face_up = view.face_up();
    let hidden = view.hidden();
    let me = view.me();
    let mut others = Bot {
        kind: Kind::Threshold {
            call,
            bluff,
            honest: false,
        },
        t,
        scratch: Vec::new(),
        search: None,
    };
    let points: [u8; MAX_PLAYERS] = std::array::from_fn(|s| {
        if s < view.rules().players as usize {
            view.points(s)
        } else {
            0
        }
    });
    let total = scratch.last().map_or(1.0, |x| x.1);
    let mut lost = 0u64;
    for _ in 0..rollouts {
        // A hidden multiset by its weight, its faces into the hidden positions.
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
        let k = scratch
            .partition_point(|&(_, acc)| acc <= u)
            .min(scratch.len() - 1);
        let mut h = super::tables::counts_of(scratch[k].0);
        let mut dice = [0u8; DICE];
        for (i, d) in dice.iter_mut().enumerate() {
            *d = match face_up[i] {
                Some(f) => f.index() as u8,
                None => {
                    let f = (0..6).find(|&f| h.0[f] > 0).expect("as many as hidden");
                    h.0[f] -= 1;
                    f as u8
                }
            };
        }
        let mut g =
            PokerState::hand_from_view(view.rules(), &points, view.claimant(), claim, dice, hidden);
        g.apply(Action::Accept, rng).expect("accepting is legal");
        let hands = g.hands();
        while g.hands() == hands {
            let seat = g.to_act();
            let a = others.decide(&g.view(seat), rng);
            g.apply(a, rng).expect("the threshold player plays legally");
        }
        lost += u64::from(g.points(me) > points[me]);
    }
    let lose_accepting = lost as f64 / rollouts as f64;
    if lose_calling < lose_accepting {
        Action::Call
    } else {
        Action::Accept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names_in_both_languages() {
        assert_eq!(Strategy::parse("azar").unwrap(), Strategy::Random);
        assert_eq!(Strategy::parse("Honesto").unwrap(), Strategy::Honest);
        assert_eq!(
            Strategy::parse("umbral:call=0.3,bluff=0.2").unwrap(),
            Strategy::Threshold {
                call: 0.3,
                bluff: 0.2
            }
        );
        assert_eq!(
            Strategy::parse("threshold:0.25").unwrap(),
            Strategy::Threshold {
                call: 0.25,
                bluff: 0.0
            }
        );
        assert_eq!(Strategy::parse("afinado").unwrap(), Strategy::Tuned);
        assert_eq!(
            Strategy::parse("búsqueda:50").unwrap(),
            Strategy::Search {
                rollouts: 50,
                plays: None
            }
        );
        assert_eq!(
            Strategy::parse("search:rollouts=40,call=0.2,bluff=0.5").unwrap(),
            Strategy::Search {
                rollouts: 40,
                plays: Some(TunedRow {
                    players: 0,
                    call: 0.2,
                    bluff: 0.5
                })
            }
        );
        assert!(Strategy::parse("search:rollouts=40,call=0.2").is_err());
        for bad in [
            "rando",
            "threshold:call=2",
            "threshold:t=0.1",
            "random:x",
            "search:0",
        ] {
            let e = Strategy::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad.split(':').next().unwrap()), "{e}");
        }
        assert_eq!(
            Strategy::parse("árbol:50").unwrap(),
            Strategy::Ismcts { budget: 50 }
        );
        assert_eq!(
            Strategy::parse("ismcts").unwrap(),
            Strategy::Ismcts {
                budget: DEFAULT_ISMCTS_BUDGET
            }
        );
        assert!(Strategy::parse("ismcts:0").is_err());
        for s in [
            "threshold:call=0.3,bluff=0.1",
            "search:50",
            "search:rollouts=50,call=0.1,bluff=0.4",
            "ismcts:40",
            "honest",
            "tuned",
        ] {
            assert_eq!(Strategy::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn the_scale_makes_every_fair_share_whole() {
        // 840 up to 8 players (the figures of those tables are as they always were).
        for players in 2..=8 {
            assert_eq!(super::super::scale(players), 840);
        }
        for players in 2..=16u8 {
            let s = super::super::scale(players);
            assert!((1..=players as i64).all(|n| s % n == 0), "{players}: {s}");
        }
        assert_eq!(super::super::scale(16), 720_720);
    }

    #[test]
    fn the_shipped_tuned_table_covers_two_to_six_players() {
        let rows = shipped_tuned();
        for p in 2..=6 {
            assert!(rows.iter().any(|r| r.players == p), "{p} players");
        }
        assert!(parse_tuned("players,call\n2,0.3\n", "x").is_err());
        assert!(parse_tuned("players,call,bluff\n2,0.3,0\n2,0.2,0\n", "x").is_err());
        assert!(parse_tuned("players,call,bluff\n17,0.3,0\n", "x").is_err());
        assert!(parse_tuned("players,call,bluff\n16,0.3,0\n", "x").is_ok());
    }
}
