//! The bots. Each sees the game only through a [`View`]: its own tiles, the board, hand sizes,
//! what every player is known to lack (from knocks and draws) and what each played last.
//!
//! - `random`: uniform over the legal actions.
//! - `heaviest` (bota gorda): the heaviest tile it can play, to be caught with few pips.
//! - `company`: the play that leaves on the board the number it holds most of (the published
//!   partnership strategy: keep the numbers you have company in, so you can follow them).
//! - `scorer` (all fives): the play that scores most now, then the heaviest.
//! - `search[:N]`: N deals of the unseen tiles consistent with what it has seen (knocks tell
//!   which numbers a player lacks), every legal play tried on each and played out by `company`
//!   players; the play with the best result for its side.
//! - `ismcts[:N]`: the shared information-set tree search ([`crate::play::ismcts`]), N
//!   iterations on the same deals, played out by `company` ([`super::search`] says how an
//!   iteration is credited).
//!
//! Partners play as partners: ties between equally good plays are broken, in order, towards a
//! number the next player (an opponent) is known to lack, away from a number the partner is
//! known to lack, and away from covering the number the partner's last play left — all things
//! a partner's and the opponents' plays reveal; never the partner's tiles. Every strategy takes
//! `miss=P`: the chance it fails to announce a score it makes (or to call muggins on one the
//! player before missed).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::{Action, DominoState, View};
use super::search::Search;
use super::tiles::WITH;
use crate::error::Result;
use crate::play::sheet::SheetTable;
use crate::play::{PlayerView, State};
use crate::rng::{uniform_below, Rng, Stream};
use crate::text::Spec;

/// The tree search of `ismcts` bots.
type TreeSearch = crate::play::ismcts::Search<super::Domino>;

/// Sampled deals per decision of `search` when none are given.
pub const DEFAULT_SEARCH_BUDGET: u32 = 64;

/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 300;

/// What a strategy plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "name")]
pub enum Kind {
    /// Uniform over the legal actions.
    Random,
    /// The heaviest playable tile (bota gorda).
    Heaviest,
    /// The play leaving the number it holds most of.
    Company,
    /// The largest immediate score, then the heaviest.
    Scorer,
    /// The cheat sheet in `data/domino` (built in), `company` where it says "either".
    Sheet,
    /// Determinised search.
    Search {
        /// Sampled deals per decision.
        budget: u32,
    },
    /// Information-set Monte Carlo tree search.
    Ismcts {
        /// Iterations per decision.
        budget: u32,
    },
}

/// A strategy: what it plays and how often it misses a score.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Strategy {
    /// What it plays.
    pub kind: Kind,
    /// The chance it fails to announce a score it makes, or to call muggins (0 to 1).
    #[serde(default)]
    pub miss: f64,
}

/// The strategies, for help and messages.
pub const STRATEGIES: &str = "strategies are random, heaviest, company, scorer, sheet (the cheat sheet in data/domino), search[:N] (N sampled deals per move) and ismcts[:N] (N iterations per move), each with miss=P (the chance of missing a score), or in Spanish azar, bota-gorda, compañía, anotador, búsqueda";

impl Strategy {
    /// A strategy that never misses a score.
    pub const fn of(kind: Kind) -> Strategy {
        Strategy { kind, miss: 0.0 }
    }

    /// Parses `random`, `heaviest`, `company`, `scorer`, `search`, `search:N`, `ismcts`,
    /// `ismcts:N` (Spanish names too), each with `miss=P`.
    pub fn parse(text: &str) -> Result<Strategy> {
        let spec = Spec::parse(text, "strategy")?;
        let name = spec.name.replace(['_', ' '], "-");
        let kind = match name.as_str() {
            "random" | "azar" | "aleatorio" => Kind::Random,
            "heaviest" | "bota-gorda" | "botagorda" | "gorda" | "pesada" | "mas-pesada"
            | "heavy" => Kind::Heaviest,
            "company" | "compania" | "data" | "la-data" => Kind::Company,
            "scorer" | "anotador" | "contador" | "puntos" => Kind::Scorer,
            "sheet" | "hoja" | "chuleta" => Kind::Sheet,
            "search" | "busqueda" | "buscador" | "determinized" => {
                let p = spec.params(&["budget", "miss"])?;
                let budget = p.count("budget", 1, 1_000_000, DEFAULT_SEARCH_BUDGET as u64)? as u32;
                let miss = p.number("miss", 0.0, 1.0, 0.0)?;
                return Ok(Strategy {
                    kind: Kind::Search { budget },
                    miss,
                });
            }
            "ismcts" | "mcts" => {
                let p = spec.params(&["budget", "miss"])?;
                let budget = p.count("budget", 1, 1_000_000, DEFAULT_ISMCTS_BUDGET as u64)? as u32;
                let miss = p.number("miss", 0.0, 1.0, 0.0)?;
                return Ok(Strategy {
                    kind: Kind::Ismcts { budget },
                    miss,
                });
            }
            _ => return Err(spec.unknown(STRATEGIES)),
        };
        let miss = spec.params(&["miss"])?.number("miss", 0.0, 1.0, 0.0)?;
        Ok(Strategy { kind, miss })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.kind {
            Kind::Random => "random",
            Kind::Heaviest => "heaviest",
            Kind::Company => "company",
            Kind::Scorer => "scorer",
            Kind::Sheet => "sheet",
            Kind::Search { .. } => "search",
            Kind::Ismcts { .. } => "ismcts",
        };
        f.write_str(name)?;
        match (self.kind, self.miss > 0.0) {
            (Kind::Search { budget } | Kind::Ismcts { budget }, false) => write!(f, ":{budget}"),
            (Kind::Search { budget } | Kind::Ismcts { budget }, true) => {
                write!(f, ":budget={budget},miss={}", self.miss)
            }
            (_, true) => write!(f, ":miss={}", self.miss),
            _ => Ok(()),
        }
    }
}

impl crate::play::Strategy<super::Domino> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, _rules: &super::rules::Rules) -> Bot {
        Bot::new(*self)
    }
    fn is_slow(&self) -> bool {
        matches!(self.kind, Kind::Search { .. } | Kind::Ismcts { .. })
    }
    fn note(&self, rules: &super::rules::Rules) -> Option<String> {
        (self.miss > 0.0 && !rules.score.by_ends()).then(|| {
            format!(
                "{self}: a miss rate counts only where plays score ({}), not here",
                "score=all-fives or fives-and-threes"
            )
        })
    }
}

/// A player: a strategy with its scratch space (reused decision after decision).
pub struct Bot {
    strategy: Strategy,
    search: Option<Box<Search>>,
    tree: Option<Box<TreeSearch>>,
}

impl Bot {
    /// A bot playing `strategy`.
    pub fn new(strategy: Strategy) -> Bot {
        Bot {
            strategy,
            search: match strategy.kind {
                Kind::Search { budget } => Some(Box::new(Search::new(budget))),
                _ => None,
            },
            tree: match strategy.kind {
                Kind::Ismcts { budget } => Some(Box::new(TreeSearch::new(budget))),
                _ => None,
            },
        }
    }

    /// Whether it searches (and so is not played by the engine's own loop).
    #[inline]
    fn searches(&self) -> bool {
        self.search.is_some() || self.tree.is_some()
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// A searching bot's action (a single legal action, a forced play or a claim window, needs
    /// no search). Kept out of [`Bot::act`], which the engine's loop inlines for the quick bots.
    #[inline(never)]
    fn search_action(&mut self, view: &View, rng: &mut Stream) -> Action {
        if let Some(search) = self.search.as_mut() {
            return search.choose(view, rng);
        }
        // Counted through a closure of its own, so that the quick bots' `action_count` keeps
        // its single caller (and stays inlined into their loop).
        let (mut count, mut only) = (0, Action::PASS);
        view.for_each_action(|a| {
            count += 1;
            only = a;
        });
        if count == 1 {
            return only;
        }
        self.tree
            .as_mut()
            .expect("a searching bot carries a search")
            .choose(view, rng)
    }

    /// The bot's action in the position `view` shows (it must be the bot's turn).
    #[inline]
    pub fn act(&mut self, view: &View, rng: &mut Stream) -> Action {
        let a = match self.strategy.kind {
            Kind::Random => random_action(view, rng),
            Kind::Heaviest => heaviest_action(view),
            Kind::Company => company_action(view),
            Kind::Scorer => scorer_action(view),
            Kind::Sheet => sheet_action(view),
            Kind::Search { .. } | Kind::Ismcts { .. } => self.search_action(view, rng),
        };
        with_misses(view, a, self.strategy.miss, rng)
    }
}

impl crate::play::Bot<super::Domino> for Bot {
    #[inline]
    fn act(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        Bot::act(self, view, rng)
    }

    /// Tables without a searching bot: the engine plays the bots' choices in one loop, without
    /// checking again the actions they chose from the engine's own list (the same choices from
    /// the same draws as the move-by-move loop; `--check` takes that loop).
    #[inline]
    fn play_out(
        game: &mut DominoState,
        bots: &mut [Bot],
        seat_bot: &[usize],
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> bool {
        let n = game.rules().players as usize;
        if seat_bot[..n].iter().any(|&b| bots[b].searches()) {
            return false;
        }
        game.play_out(deal, |view| {
            bots[seat_bot[view.seat()]].act(view, decisions)
        });
        true
    }
}

/// `a` with each claim it makes dropped with chance `miss` (a score not announced, muggins not
/// called); draws only when there is a claim to miss.
#[inline]
pub fn with_misses(view: &View, a: Action, miss: f64, rng: &mut Stream) -> Action {
    if miss <= 0.0 || !view.rules().score.by_ends() {
        return a;
    }
    let mut draw = || (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < miss;
    let scores = a.tile().is_some() && view.rules().score.end_points(view.count_after(a)) > 0;
    let announce = !(scores && draw());
    let muggins = a.calls_muggins() && !draw();
    a.with_claims(announce, muggins)
}

/// Uniform over the legal actions.
#[inline]
pub fn random_action(view: &View, rng: &mut Stream) -> Action {
    let n = view.action_count();
    if n == 1 {
        view.nth_action(0)
    } else {
        view.nth_action(uniform_below(rng, n))
    }
}

/// What a play looks like to the heuristics.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// The tile is a double.
    pub double: bool,
    pips: u64,
    /// Tiles left in hand showing the number the play leaves.
    company: u64,
    /// The next player, an opponent, is known to lack the number left.
    pub blocks_next: bool,
    /// 1 unless the partner is known to lack the number left.
    partner_follows: u64,
    /// 1 unless the play covers the number the partner's last play left.
    spares_partner: u64,
}

#[inline]
fn features(view: &View, a: Action) -> Features {
    let t = a.tile().expect("heuristics see plays");
    let n = a.at();
    let left = if t.is_double() { n } else { t.other(n) };
    let me = view.seat();
    let rest = view.hand() & !t.bit();
    let partner = view.partner();
    let next = view.next_seat(me);
    let next_is_opponent = partner != Some(next) && next != me;
    Features {
        double: t.is_double(),
        pips: t.pips() as u64,
        company: (rest & WITH[left as usize]).count_ones() as u64,
        blocks_next: next_is_opponent && view.lacks(next) >> left & 1 == 1,
        partner_follows: partner.is_none_or(|p| view.lacks(p) >> left & 1 == 0) as u64,
        spares_partner: partner.is_none_or(|p| view.exposed(p) != Some(n) || left == n) as u64,
    }
}

/// The legal action with the largest key (the first of equals); claims as listed (all made).
#[inline]
fn best_by(view: &View, key: impl Fn(Action) -> u64) -> Action {
    if view.claim_only() {
        return view.nth_action(0);
    }
    let mut best = None;
    let mut best_key = 0;
    view.for_each_action(|a| {
        let k = key(a);
        if best.is_none() || k > best_key {
            best = Some(a);
            best_key = k;
        }
    });
    best.expect("a player asked to act has a legal action")
}

#[inline]
fn partnership(f: &Features) -> u64 {
    (f.blocks_next as u64) << 2 | f.partner_follows << 1 | f.spares_partner
}

impl Features {
    /// Company's order of plays: the number held most left on the board, then the partnership
    /// ties, then the heaviest.
    #[inline]
    pub fn company_key(&self) -> u64 {
        self.company << 16 | partnership(self) << 8 | self.pips
    }

    /// Bota gorda's order: the heaviest, then company, then the partnership ties.
    #[inline]
    pub fn heaviest_key(&self) -> u64 {
        self.pips << 16 | self.company << 8 | partnership(self)
    }
}

/// The best play by `key` among the plays whose features pass `keep` (the first of equals);
/// `None` when none does or the player may only pass.
#[inline]
pub fn best_play(
    view: &View,
    keep: impl Fn(&Features) -> bool,
    key: impl Fn(&Features) -> u64,
) -> Option<Action> {
    if view.claim_only() {
        return None;
    }
    let mut best: Option<(Action, u64)> = None;
    view.for_each_action(|a| {
        let f = features(view, a);
        if keep(&f) {
            let k = key(&f);
            if best.is_none_or(|(_, b)| k > b) {
                best = Some((a, k));
            }
        }
    });
    best.map(|(a, _)| a)
}

/// The shipped cheat sheet (`data/domino/sheet-pairs-4p.csv`), read once.
pub fn shipped_sheet() -> &'static SheetTable {
    static SHEET: std::sync::OnceLock<Vec<SheetTable>> = std::sync::OnceLock::new();
    &SheetTable::built_in::<super::Domino>(
        &SHEET,
        &[(
            "sheet-pairs-4p.csv",
            include_str!("../../../data/domino/sheet-pairs-4p.csv"),
        )],
    )[0]
}

/// The sheet's play where it says one, else company's.
#[inline]
pub fn sheet_action(view: &View) -> Action {
    shipped_sheet()
        .action::<super::Domino>(view)
        .unwrap_or_else(|| company_action(view))
}

/// Bota gorda: the heaviest tile, then the most company, then the partnership ties.
#[inline]
pub fn heaviest_action(view: &View) -> Action {
    best_by(view, |a| {
        let f = features(view, a);
        f.pips << 16 | f.company << 8 | partnership(&f)
    })
}

/// Company: the play leaving the number it holds most of, then the partnership ties, then the
/// heaviest.
#[inline]
pub fn company_action(view: &View) -> Action {
    best_by(view, |a| {
        let f = features(view, a);
        f.company << 16 | partnership(&f) << 8 | f.pips
    })
}

/// Scorer (all fives): the largest immediate score, then the heaviest, then company and the
/// partnership ties.
#[inline]
pub fn scorer_action(view: &View) -> Action {
    let score = view.rules().score;
    best_by(view, |a| {
        let f = features(view, a);
        let pts = score.end_points(view.count_after(a)) as u64;
        pts << 24 | f.pips << 16 | f.company << 8 | partnership(&f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_both_languages_and_parameters() {
        for (text, want) in [
            ("random", Strategy::of(Kind::Random)),
            ("AZAR", Strategy::of(Kind::Random)),
            ("bota-gorda", Strategy::of(Kind::Heaviest)),
            ("bota gorda", Strategy::of(Kind::Heaviest)),
            ("compañía", Strategy::of(Kind::Company)),
            ("anotador", Strategy::of(Kind::Scorer)),
            (
                "search",
                Strategy::of(Kind::Search {
                    budget: DEFAULT_SEARCH_BUDGET,
                }),
            ),
            ("búsqueda:10", Strategy::of(Kind::Search { budget: 10 })),
            (
                "ismcts",
                Strategy::of(Kind::Ismcts {
                    budget: DEFAULT_ISMCTS_BUDGET,
                }),
            ),
            ("ismcts:50", Strategy::of(Kind::Ismcts { budget: 50 })),
            (
                "ismcts:budget=20,miss=0.1",
                Strategy {
                    kind: Kind::Ismcts { budget: 20 },
                    miss: 0.1,
                },
            ),
            (
                "scorer:miss=0.25",
                Strategy {
                    kind: Kind::Scorer,
                    miss: 0.25,
                },
            ),
            (
                "search:budget=5,miss=0.5",
                Strategy {
                    kind: Kind::Search { budget: 5 },
                    miss: 0.5,
                },
            ),
        ] {
            let s = Strategy::parse(text).unwrap();
            assert_eq!(s, want, "{text}");
            assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s, "{s}");
        }
        for bad in [
            "nobody",
            "company:2",
            "scorer:miss=2",
            "search:0",
            "ismcts:0",
            "random:x=1",
        ] {
            let e = Strategy::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad.split(':').next().unwrap()), "{bad}: {e}");
        }
    }
}
