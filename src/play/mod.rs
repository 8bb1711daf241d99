//! The whole-game layer: one engine API that every game implements, and the analyses written
//! once against it — [`sim`] (results by seat, strategy and position, the first player's edge,
//! draws, length, series), [`compare`] (two tables on the same deals, every figure paired, with
//! a valid sequential test), [`tournament`] (every strategy against every other, seats rotated
//! on the same deals) and [`flags`] (the table against each one-rule change of it).
//!
//! A game is a zero-sized marker type implementing [`Game`]: it names its rules ([`GameRules`]:
//! a value, with its one-rule changes), its engine state ([`State`]: a deal from a stream, the
//! player to act and what that player sees, legal actions, apply, the outcome), its built-in
//! bots ([`Strategy`] and [`Bot`]: a bot decides from what a player sees) and what it is in
//! words and constants ([`GameInfo`]). OpenSpiel's split of a game into a game object and its states is the model.
//!
//! Everything is generic and monomorphised: no boxed dispatch in a game loop. A game may still
//! play a line-up it recognises faster ([`Bot::play_out`], e.g. Durak's all-random tables) as
//! long as it makes the same choices from the same draws.
//!
//! Random numbers: every game of a run draws two seeds from its chunk's stream, one for the deal
//! and the engine's chance events, one for the bots' decisions ([`game_streams`]). The variants
//! of a comparison, the seatings of a tournament and the changes of `flags` draw the same two
//! seeds for game *i*, so they meet the same deals (common random numbers).

pub mod advise;
pub mod charts;
pub mod compare;
pub mod equity;
pub mod flags;
pub mod ismcts;
pub mod job;
pub mod position;
pub mod rules;
pub mod sheet;
pub mod sim;
pub mod table;
pub mod tournament;
pub mod tune;
pub mod tuned;

use std::fmt::{Debug, Display};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::rng::{Rng, SeedableRng, Stream};

pub use table::TableSetup;

/// A seat at the table, 0-based.
pub type Seat = usize;
/// Most seats at any table.
pub const MAX_SEATS: usize = 16;
/// Most counters a game may keep of its own.
pub const MAX_COUNTERS: usize = 64;

/// Names a game's own counters ([`State::counters`]): an enum whose variants index the counter
/// array, with `NAMES` (its [`GameInfo::counters`]) in the same order.
///
/// ```
/// tahur::counters! {
///     /// Durak's counters.
///     pub enum Counter {
///         /// Games whose durak got epaulettes.
///         Epaulettes = "epaulettes",
///         /// Deals thrown back.
///         Redeals = "redeals",
///     }
/// }
/// assert_eq!(Counter::NAMES[Counter::Redeals as usize], "redeals");
/// assert_eq!(usize::from(Counter::Redeals), 1);
/// ```
#[macro_export]
macro_rules! counters {
    ($(#[$m:meta])* $vis:vis enum $name:ident {
        $($(#[$vm:meta])* $var:ident = $text:literal),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        $vis enum $name {
            $($(#[$vm])* $var),*
        }
        impl $name {
            /// Every counter's name, in the order of its index.
            pub const NAMES: &'static [&'static str] = &[$($text),*];
        }
        impl From<$name> for usize {
            fn from(c: $name) -> usize {
                c as usize
            }
        }
    };
}

/// A game: a marker type that ties its rules, engine state and bots together.
pub trait Game: Copy + Clone + Debug + Default + PartialEq + Send + Sync + 'static {
    /// The rules, as a value.
    type Rules: GameRules;
    /// A game in progress.
    type State: State<Rules = Self::Rules>;
    /// The built-in bots, as written on the command line (`name` or `name:key=value,…`).
    type Strategy: Strategy<Self> + Serialize + DeserializeOwned;
    /// Names, words and run constants.
    const INFO: GameInfo;

    /// The game's own figures in a `sim` report, from its counters (default: none).
    fn sim_fields(_rules: &Self::Rules, _t: &sim::SimTally, _r: &mut crate::report::Report) {}

    /// Whether `sim` also shows the finishing order by strategy (games whose whole finishing
    /// order matters, not only the event: Ocho loco's first out and last). Off by default, so
    /// the reports of games that do not ask for it stay as they were.
    const PLACES_BY_STRATEGY: bool = false;

    /// Where `sim --from TEXT` starts its games at `rules`: games with positions answer with
    /// [`position::start_from`]; the others refuse.
    fn start_from(_rules: &Self::Rules, text: &str) -> Result<position::StartFrom<Self>> {
        Err(Error::usage(format!(
            "--from {text:?}: {} has no positions yet; drop --from",
            Self::INFO.title
        )))
    }

    /// A note for a tournament at this table (e.g. a seating that balances by construction).
    fn tournament_note(_rules: &Self::Rules) -> Option<String> {
        None
    }

    /// Whether compared counter `k` ([`GameInfo::compared`]) means something at this table
    /// (Dominó's games per match only when a match is played): `compare` leaves out a row that
    /// means nothing at either table. Every counter by default.
    fn compared_applies(_rules: &Self::Rules, _k: usize) -> bool {
        true
    }

    /// The quick policy a search bot ([`ismcts`]) plays its games out with: by default a
    /// uniformly random legal action (`scratch` holds the legal actions, so nothing allocates).
    fn playout_action(
        state: &Self::State,
        scratch: &mut Vec<ActionOf<Self>>,
        rng: &mut Stream,
    ) -> ActionOf<Self> {
        state.legal_actions(scratch);
        scratch[crate::rng::uniform_below(rng, scratch.len())]
    }

    /// Whether a search iteration that started at `root` ends at `now`: by default when the
    /// game is over (a game played as a sitting of many hands ends it with the hand).
    fn search_ends(_root: &Self::State, now: &Self::State) -> bool {
        now.is_over()
    }

    /// Each seat's reward in [0, 1] where a search iteration from `root` ended (`end`). By
    /// default from the outcome: 1 for holding a good event (a win) or for not holding a bad
    /// one (not being the durak), 0 for the opposite, ½ for a draw or a capped game; in a
    /// scored game the points between the lowest (0) and the highest (1).
    fn search_rewards(_root: &Self::State, end: &Self::State) -> [f64; MAX_SEATS] {
        let mut r = [0.5; MAX_SEATS];
        match (end.outcome(), Self::INFO.scoring) {
            (Some(Outcome::Event(mask)), Scoring::Event { good }) => {
                for (s, v) in r.iter_mut().enumerate() {
                    let marked = mask >> s & 1 == 1;
                    *v = if marked == good { 1.0 } else { 0.0 };
                }
            }
            (Some(Outcome::Scored), _) => {
                let n = end.rules().players().min(MAX_SEATS);
                let (lo, hi) = (0..n).fold((i64::MAX, i64::MIN), |(lo, hi), s| {
                    (lo.min(end.points(s)), hi.max(end.points(s)))
                });
                if hi > lo {
                    for (s, v) in r.iter_mut().enumerate().take(n) {
                        *v = (end.points(s) - lo) as f64 / (hi - lo) as f64;
                    }
                }
            }
            _ => {}
        }
        r
    }

    /// Among a search's root actions visited equally often, whether the one added last is
    /// taken (else the one added first). A game keeps the rule its published search results
    /// were made with.
    const SEARCH_TIES_TO_NEWEST: bool = false;
}

/// The rules of a game as a value: the standard table for a number of players, changed rule by
/// rule through the game's one rule table ([`GameRules::TABLE`]), from which parsing, the
/// one-rule changes, the description and the command-line flags are all derived.
pub trait GameRules:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Every rule of the game, once, in the order changes apply.
    const TABLE: &'static [rules::Rule<Self>];
    /// The standard game for `players` players (what the game plays with no flag).
    fn standard(players: usize) -> Self;
    /// Players at the table.
    fn players(&self) -> usize;
    /// Refuses rules that cannot be played together, naming the bad values (as `key=value`).
    fn validate(&self) -> Result<()>;
    /// The players in a few words, the start of [`GameRules::describe`]: "4 players".
    fn describe_players(&self) -> String {
        format!("{} players", self.players())
    }
    /// These rules changed by `key=value,…` (the keys of [`GameRules::TABLE`]).
    fn with_changes(&self, spec: &str) -> Result<Self> {
        rules::with_changes(self, spec)
    }
    /// Every change of one rule that means something for these rules and can be played.
    fn one_rule_changes(&self) -> Vec<RuleChange<Self>> {
        rules::one_rule_changes(self)
    }
    /// The rules in a few words (what differs from the standard).
    fn describe(&self) -> String {
        rules::describe(self)
    }
    /// The side (team) of a seat; each seat is its own side without teams.
    fn side(&self, seat: Seat) -> usize {
        seat
    }
    /// The sides that can win or lose: the teams, or every player.
    fn sides(&self) -> usize {
        self.players()
    }
    /// Whether players play in teams.
    fn has_teams(&self) -> bool {
        self.sides() != self.players()
    }
}

/// One change of one rule: how `compare --b` writes it, a short label, the changed rules.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChange<R> {
    /// As `compare --b` writes it, e.g. `variant=perevodnoy`.
    pub name: String,
    /// A few words for chart labels, e.g. `perevodnoy`.
    pub label: String,
    /// The changed rules.
    pub rules: R,
}

impl<R> RuleChange<R> {
    /// A change named `name`, labelled `label`.
    pub fn new(name: impl Into<String>, label: impl Into<String>, rules: R) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            rules,
        }
    }
}

/// How a game starts: who deals and who plays first (`None`: as the rules say for a first game),
/// and for games played as sittings ([`GameInfo::sitting`]) how many steps to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// The dealer, or as the rules say.
    pub dealer: Option<Seat>,
    /// The first player, or as the rules say.
    pub first: Option<Seat>,
    /// Sittings: the steps (hands) to play; 0 otherwise.
    pub length: u64,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The seats in the mask hold the game's event ([`Scoring::Event`]): the winner, or every
    /// seat of a losing team, …
    Event(u32),
    /// Nobody holds the event (the last cards went out together, …).
    Draw,
    /// The game was stopped at a move cap, unfinished.
    Capped,
    /// A scored game ([`Scoring::Points`]) is over: read [`State::points`].
    Scored,
}

/// An action the player to act may not take, with the reason: the one error of
/// [`State::apply`] for every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

impl Illegal {
    /// The action refused, with the reason: "illegal action: play 7S (not in hand)".
    pub fn new(action: impl Display, reason: impl Display) -> Illegal {
        Illegal(format!("illegal action: {action} ({reason})"))
    }
}

impl std::error::Error for Illegal {}

impl Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What one player sees of a game in progress (never more: bots decide from it, and
/// [`State::deal_for_view`] deals a whole game from it).
///
/// Its `Debug` shows exactly what the seat sees: the conformance test of every game checks that
/// a game dealt for a view shows that same view.
pub trait PlayerView: Debug {
    /// The seat whose view it is.
    fn seat(&self) -> Seat;
}

/// A game in progress: the engine. Every game implements it on its own state type (named
/// `<Game>State`), and every analysis, bot and search works through it.
pub trait State: Clone + Debug + Send + Sync + Sized {
    /// The rules.
    type Rules: GameRules;
    /// What a player may do.
    type Action: Copy + PartialEq + Debug + Display + Send + Sync;
    /// What one player sees.
    type View<'a>: PlayerView
    where
        Self: 'a;

    /// Deals a game: every chance event of the deal comes from `rng`.
    fn deal(rules: &Self::Rules, start: &Start, rng: &mut Stream) -> Self;
    /// A whole game consistent with everything `view` shows, with what its seat cannot see
    /// (other hands, hidden dice, the stock or shoe, …) dealt at random from `rng`: the
    /// determinisation that search and rollouts from a player's position start from. Only what
    /// the view shows is used, so the result cannot leak what the seat does not know.
    fn deal_for_view(view: &Self::View<'_>, rng: &mut Stream) -> Self;
    /// The rules of this game.
    fn rules(&self) -> &Self::Rules;
    /// The seat to act (meaningless once the game is over).
    fn to_act(&self) -> Seat;
    /// What `seat` sees.
    fn view(&self, seat: Seat) -> Self::View<'_>;
    /// Replaces the contents of `out` with every legal action of the player to act.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// The legal actions with one of each set that has the same effect (two copies of one
    /// card, two jokers), in the engine's order: what advice compares and a position lists.
    /// A game whose actions all differ in effect keeps the default.
    fn distinct_actions(&self, out: &mut Vec<Self::Action>) {
        self.legal_actions(out)
    }
    /// Applies the action of the player to act; chance events (dice rolled mid-game, cards
    /// drawn) come from `rng`. An illegal action is refused with the reason and changes nothing.
    fn apply(&mut self, action: Self::Action, rng: &mut Stream) -> Result<(), Illegal>;
    /// How the game ended, once it is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the game is over (finished, or stopped at a move cap).
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
    /// Who played first (the game's first player: first opener, first attacker, …).
    fn first_player(&self) -> Seat;
    /// The game's length in its unit ([`Words::length_unit`]: rounds, bouts, hands).
    fn length(&self) -> u64;
    /// A seat's points in a scored game.
    fn points(&self, _seat: Seat) -> i64 {
        0
    }
    /// The game's own counters of a finished game, indexed by the game's counter names
    /// ([`GameInfo::counters`]).
    fn counters(&self, _out: &mut [i64; MAX_COUNTERS]) {}
    /// The finishing order of a finished game, if the game has one: each seat's place (0 for the
    /// first place; seats that finish together share a place). `false` when it has none.
    fn places(&self, _out: &mut [u8; MAX_SEATS]) -> bool {
        false
    }
    /// For series ([`GameInfo::series`]): the seat the finished game singles out for the next
    /// one (e.g. the durak, who deals it), if any.
    fn series_seat(&self) -> Option<Seat> {
        None
    }
    /// Checks every invariant of the state; the error names the first that fails.
    fn check_invariants(&self) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// A built-in bot as written on the command line, with what it takes to play it.
pub trait Strategy<G: Game>: Clone + PartialEq + Debug + Display + Send + Sync + 'static {
    /// The bot that plays it.
    type Bot: Bot<G>;
    /// Parses `name` or `name:key=value,…` (one error style: [`crate::text::Spec`]).
    fn parse(text: &str) -> Result<Self>;
    /// A bot for a table with these rules (made once per chunk, reused game after game).
    fn bot(&self, rules: &G::Rules) -> Self::Bot;
    /// Whether its games are slow (search): runs then use small chunks.
    fn is_slow(&self) -> bool {
        false
    }
    /// Something a report should say about it at a table with these rules (e.g. a tuned
    /// strategy playing another table size's parameters).
    fn note(&self, _rules: &G::Rules) -> Option<String> {
        None
    }
    /// Parses a comma list (`threshold:t=0.3,bluff=0.1,honest`), at least one.
    fn parse_list(text: &str) -> Result<Vec<Self>> {
        let items = crate::text::split_specs(text, "--strategies")?;
        if items.is_empty() {
            return Err(crate::error::Error::usage(format!(
                "--strategies is empty: name at least one, e.g. {}",
                G::INFO.default_strategies
            )));
        }
        items.iter().map(|s| Self::parse(s)).collect()
    }
}

/// The action type of a game.
pub type ActionOf<G> = <<G as Game>::State as State>::Action;
/// The view type of a game.
pub type ViewOf<'a, G> = <<G as Game>::State as State>::View<'a>;

/// A player: decides from what it sees.
pub trait Bot<G: Game>: Send + Sized {
    /// The action for the position `view` shows (it is this bot's turn).
    fn act(&mut self, view: &ViewOf<'_, G>, rng: &mut Stream) -> ActionOf<G>;

    /// Plays the rest of `game` if every seat's bot (`bots[seat_bot[seat]]`) is of a kind this
    /// game plays faster as a whole, making the same choices from the same draws as asking the
    /// bots move by move (a game that offers this tests it). Returns `false` to let the generic
    /// loop play.
    fn play_out(
        _game: &mut G::State,
        _bots: &mut [Self],
        _seat_bot: &[usize],
        _deal: &mut Stream,
        _decisions: &mut Stream,
    ) -> bool {
        false
    }
}

/// What a game's result counts for each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// A decided game marks some seats with an event: a win (`good`) or a loss (the durak).
    Event {
        /// Whether the event is good for the seats it marks.
        good: bool,
    },
    /// Every game gives every seat integer points.
    Points,
}

/// The words a game's reports use.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The first player: "first attacker", "first opener".
    pub first_player: &'static str,
    /// Names of the positions after the first player, from the first player on ("first
    /// attacker", "first defender"); later ones read "3 seats after the first attacker".
    pub positions: &'static [&'static str],
    /// What a seat's count counts, as a column: "wins", "durak".
    pub event: &'static str,
    /// The rate's name: "win rate", "durak rate".
    pub rate: &'static str,
    /// After a subject: "wins", "is the durak".
    pub phrase: &'static str,
    /// After a team: "wins", "loses".
    pub team_phrase: &'static str,
    /// The unit of a game's length: "rounds", "bouts", "hands".
    pub length_unit: &'static str,
    /// The y axis of rate charts: "games won", "games lost (durak)".
    pub chart_axis: &'static str,
}

/// A counter of the game's own that `compare` and `flags` compare, paired.
#[derive(Clone, Copy, Debug)]
pub struct Compared {
    /// Index into [`State::counters`].
    pub counter: usize,
    /// The row's name, e.g. "bank's result".
    pub label: &'static str,
}

/// The rule for later games of a series (docs/rules.md's "later games: the previous durak deals"),
/// in the words of the reports.
#[derive(Clone, Copy, Debug)]
pub struct SeriesInfo {
    /// The repeat figure: "the dealer (previous durak) loses again".
    pub repeat: &'static str,
    /// Who it is about: "the dealer".
    pub who: &'static str,
}

/// What a game is: its names, how its results count, the words of its reports, its players,
/// default line-ups, counters and run constants. (What the command line says about it, its help
/// and examples, lives with the command line.)
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The command name and the job tag: `durak`.
    pub key: &'static str,
    /// As players write it: `Durak`.
    pub title: &'static str,
    /// What a game's result counts.
    pub scoring: Scoring,
    /// The words of its reports.
    pub words: Words,
    /// Whether games can end without the event (draws).
    pub draws: bool,
    /// Whether the rules cap a game's moves (capped games are then counted apart).
    pub move_cap: bool,
    /// The rule for later games, if the game has one (`--series`).
    pub series: Option<SeriesInfo>,
    /// A sitting game (21): one game per chunk, its samples the steps (hands) of the game; the
    /// shoe and the bank carry over from step to step.
    pub sitting: bool,
    /// What a sample is: "games", "hands".
    pub sample_unit: &'static str,
    /// Fewest and most players, and the default (`None`: `--players` is required).
    pub players: (usize, usize, Option<usize>),
    /// The default line-up of `sim`, `compare` and `flags`.
    pub default_strategies: &'static str,
    /// The default entrants of `tournament`.
    pub default_tournament: &'static str,
    /// Names of the game's own counters ([`State::counters`]).
    pub counters: &'static [&'static str],
    /// Counters `compare` and `flags` compare, paired. A scored game's first is its headline
    /// (the primary comparison of `--until-decided` and the figure of `flags`); a game with an
    /// event keeps the first player's edge for those and shows these beside it.
    pub compared: &'static [Compared],
    /// Samples per chunk (part of a run's definition); games with a slow strategy use
    /// `slow_chunk`.
    pub chunk: u64,
    /// Samples per chunk when a seat plays a slow strategy.
    pub slow_chunk: u64,
    /// Deals per chunk of a tournament, and with a slow strategy.
    pub tournament_chunk: (u64, u64),
}

/// A finished game, in the few facts the analyses record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// How it ended.
    pub outcome: Outcome,
    /// Who played first.
    pub first: Seat,
    /// Its length.
    pub length: u64,
    /// The seat it singles out for the next game of a series.
    pub series_seat: Option<Seat>,
    /// Points by seat (scored games).
    pub points: [i64; MAX_SEATS],
    /// The game's own counters.
    pub counters: [i64; MAX_COUNTERS],
    /// Each seat's finishing place (0: first), when the game has a finishing order.
    pub places: Option<[u8; MAX_SEATS]>,
}

impl Played {
    /// The facts of a finished game.
    pub fn of<S: State>(game: &S, players: usize, scored: bool) -> Played {
        let mut points = [0; MAX_SEATS];
        if scored {
            for (s, p) in points.iter_mut().enumerate().take(players) {
                *p = game.points(s);
            }
        }
        let mut counters = [0; MAX_COUNTERS];
        game.counters(&mut counters);
        let mut places = [0; MAX_SEATS];
        let places = game.places(&mut places).then_some(places);
        Played {
            places,
            outcome: game.outcome().unwrap_or(Outcome::Capped),
            first: game.first_player(),
            length: game.length(),
            series_seat: game.series_seat(),
            points,
            counters,
        }
    }

    /// The seats that hold the event (0 for a draw, a capped or a scored game).
    pub fn marked(&self) -> u32 {
        match self.outcome {
            Outcome::Event(m) => m,
            _ => 0,
        }
    }

    /// Whether the game was decided (someone holds the event, or a scored game ended).
    pub fn decided(&self) -> bool {
        matches!(self.outcome, Outcome::Event(_) | Outcome::Scored)
    }

    /// Seat `s`'s value: 1 or 0 for the event, the points in a scored game.
    #[inline]
    pub fn value(&self, s: Seat, scored: bool) -> i64 {
        if scored {
            self.points[s]
        } else {
            i64::from(self.marked() >> s & 1 == 1)
        }
    }
}

/// Why a game was dropped (a bug: counted and reported, never hidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A bot chose an action the engine refused.
    Illegal,
    /// An invariant failed after an action (`--check`).
    Violation,
}

/// The two per-game streams (deal and chance, decisions), seeded from two draws of the chunk's
/// stream.
#[inline]
pub fn game_streams(chunk: &mut Stream) -> (Stream, Stream) {
    (
        Stream::seed_from_u64(chunk.next_u64()),
        Stream::seed_from_u64(chunk.next_u64()),
    )
}

/// Plays one game: seat `s` is played by `bots[seat_bot[s]]`; the deal and every chance event
/// come from `deal`, every decision from `decisions`. With `check`, the invariants are checked
/// after every action. Allocates nothing once the bots are warm.
#[inline]
pub fn play<G: Game, B: Bot<G>>(
    rules: &G::Rules,
    start: &Start,
    bots: &mut [B],
    seat_bot: &[usize],
    deal: &mut Stream,
    decisions: &mut Stream,
    check: bool,
) -> std::result::Result<Played, Fault> {
    play_from::<G, B>(
        G::State::deal(rules, start, deal),
        rules,
        bots,
        seat_bot,
        deal,
        decisions,
        check,
    )
}

/// [`play`] from a game already dealt (`sim --from`).
#[inline]
pub fn play_from<G: Game, B: Bot<G>>(
    mut game: G::State,
    rules: &G::Rules,
    bots: &mut [B],
    seat_bot: &[usize],
    deal: &mut Stream,
    decisions: &mut Stream,
    check: bool,
) -> std::result::Result<Played, Fault> {
    if check {
        game.check_invariants().map_err(|_| Fault::Violation)?;
    } else if B::play_out(&mut game, bots, seat_bot, deal, decisions) {
        return Ok(Played::of(&game, rules.players(), scored::<G>()));
    }
    while game.outcome().is_none() {
        let seat = game.to_act();
        let action = bots[seat_bot[seat]].act(&game.view(seat), decisions);
        game.apply(action, deal).map_err(|_| Fault::Illegal)?;
        if check {
            game.check_invariants().map_err(|_| Fault::Violation)?;
        }
    }
    Ok(Played::of(&game, rules.players(), scored::<G>()))
}

/// Whether a game scores points (rather than marking seats with an event).
#[inline]
pub const fn scored<G: Game>() -> bool {
    matches!(G::INFO.scoring, Scoring::Points)
}

/// Two kinds of strategy in one line-up: the game's built-in bots and bots of your own (see
/// `examples/own_bot.rs`). Each keeps its own static dispatch.
#[derive(Clone, Debug, PartialEq)]
pub enum Mixed<A, B> {
    /// A strategy of the first kind.
    First(A),
    /// A strategy of the second kind.
    Second(B),
}

impl<A: Display, B: Display> Display for Mixed<A, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mixed::First(a) => a.fmt(f),
            Mixed::Second(b) => b.fmt(f),
        }
    }
}

impl<G: Game, A: Strategy<G>, B: Strategy<G>> Strategy<G> for Mixed<A, B> {
    type Bot = Mixed<A::Bot, B::Bot>;
    /// The first kind's names first, then the second's.
    fn parse(text: &str) -> Result<Self> {
        A::parse(text)
            .map(Mixed::First)
            .or_else(|_| B::parse(text).map(Mixed::Second))
    }
    fn bot(&self, rules: &G::Rules) -> Self::Bot {
        match self {
            Mixed::First(a) => Mixed::First(a.bot(rules)),
            Mixed::Second(b) => Mixed::Second(b.bot(rules)),
        }
    }
    fn is_slow(&self) -> bool {
        match self {
            Mixed::First(a) => a.is_slow(),
            Mixed::Second(b) => b.is_slow(),
        }
    }
    fn note(&self, rules: &G::Rules) -> Option<String> {
        match self {
            Mixed::First(a) => a.note(rules),
            Mixed::Second(b) => b.note(rules),
        }
    }
}

impl<G: Game, A: Bot<G>, B: Bot<G>> Bot<G> for Mixed<A, B> {
    #[inline]
    fn act(&mut self, view: &ViewOf<'_, G>, rng: &mut Stream) -> ActionOf<G> {
        match self {
            Mixed::First(a) => a.act(view, rng),
            Mixed::Second(b) => b.act(view, rng),
        }
    }
}
