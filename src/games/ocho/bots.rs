//! The bots. Each sees the game only through a [`View`] (its hand, the played cards, the suit
//! in force, the pending draw, hand sizes and the stock's size).
//!
//! - `random`: uniform over the legal moves — each playable card, draw, take or keep — and a
//!   uniform suit when it plays an 8.
//! - `greedy`: sheds its costliest plain card (highest rank first), keeps its 2s, 3s, jokers
//!   and 8s for when they hurt the next player most (the next player holds two cards or fewer)
//!   or nothing else plays, always answers a draw-three, names the suit it holds most.
//! - `expert`: keeps an 8 for the end (an 8 always plays, so a last 8 always goes out) and its
//!   jokers for defence, counts the suits and jokers seen: it leads the suit it holds most and
//!   others are least likely to hold (the unseen cards of each suit), plays an A when it can
//!   follow it, attacks the player about to go out (draw-three, skip, or a reverse away from
//!   them) and plays a 3 eagerly when no answer to it is left unseen.
//! - `ismcts[:N]`: information-set Monte Carlo tree search, N determinised iterations per
//!   decision (default 200), with greedy play-outs, rewarded by finishing place.
//!
//! A right to play again (after an A, or a J or K with two players left, under the default
//! `play-again=may`): `greedy`, `expert` and `sheet` use it with the card their normal turn would
//! play, unless that card is an 8 or a joker and not their last card (they keep it and pass);
//! with nothing that plays they pass. `random` is uniform over the cards that play and passing.
//!
//! Every strategy takes `forget=R`: the chance of forgetting «voy por una» on each play that
//! leaves one card (3 cards' penalty), drawn from the decisions' stream.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{
    count, lowest, nth, rank_mask, suit_mask, Card, CardSet, Cards, ACE, EIGHT, EIGHTS, JACK,
    JOKERS, KING, THREE, TWO,
};
use super::engine::{canonical_suit, Action, OchoState, Phase, View};
use crate::error::Result;
use crate::play::sheet::SheetTable;
use crate::play::{PlayerView, State};
use crate::rng::{uniform_below, Rng, Stream};
use crate::text::Spec;

/// The search of `ismcts` bots.
type Search = crate::play::ismcts::Search<super::Ocho>;

/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 200;

/// What kind of player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "name")]
pub enum Kind {
    /// Uniform over the legal moves.
    Random,
    /// Costliest plain card first, specials against a short next hand.
    Greedy,
    /// Hand-written play with card counting.
    Expert,
    /// The cheat sheet in `data/ocho` (built in), `greedy` where it says "either".
    Sheet,
    /// Information-set MCTS.
    Ismcts {
        /// Iterations per decision.
        budget: u32,
    },
}

/// A strategy: a kind of player and how often it forgets «voy por una».
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Strategy {
    /// The kind of player.
    pub kind: Kind,
    /// The chance of forgetting «voy por una» on a play that leaves one card, 0–1.
    #[serde(default)]
    pub forget: f64,
}

/// The strategies, for help and messages.
pub const STRATEGIES: &str = "strategies are random, greedy, expert, sheet (the cheat sheet in data/ocho) and ismcts[:N] (N iterations per move), in Spanish azar, codicioso, experto and busqueda; each takes forget=R, the chance 0–1 of forgetting «voy por una» (e.g. greedy:forget=0.1)";

impl Strategy {
    /// A strategy that never forgets.
    pub const fn of(kind: Kind) -> Strategy {
        Strategy { kind, forget: 0.0 }
    }

    /// Parses `random`, `greedy`, `expert`, `ismcts`, `ismcts:N` or `ismcts:budget=N`, each with
    /// `forget=R` (Spanish: azar, codicioso, experto, busqueda; olvido=R).
    pub fn parse(text: &str) -> Result<Strategy> {
        let spec = Spec::parse(text, "strategy")?;
        let kind = match spec.name.as_str() {
            "random" | "azar" | "aleatorio" => Kind::Random,
            "greedy" | "codicioso" | "voraz" => Kind::Greedy,
            "sheet" | "hoja" | "chuleta" => Kind::Sheet,
            "expert" | "experto" => Kind::Expert,
            "ismcts" | "mcts" | "busqueda" => Kind::Ismcts { budget: 0 },
            _ => return Err(spec.unknown(STRATEGIES)),
        };
        let (kind, params) = match kind {
            Kind::Ismcts { .. } => {
                let p = spec.params(&["budget", "forget", "olvido"])?;
                let budget = p.count("budget", 1, 1_000_000, DEFAULT_ISMCTS_BUDGET as u64)? as u32;
                (Kind::Ismcts { budget }, p)
            }
            k => (k, spec.params(&["forget", "olvido"])?),
        };
        let forget = match params.text("olvido") {
            Some(_) => params.number("olvido", 0.0, 1.0, 0.0)?,
            None => params.number("forget", 0.0, 1.0, 0.0)?,
        };
        Ok(Strategy { kind, forget })
    }

    /// Parses a comma-separated list (at least one).
    pub fn parse_list(text: &str) -> Result<Vec<Strategy>> {
        <Strategy as crate::play::Strategy<super::Ocho>>::parse_list(text)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let forget = (self.forget > 0.0).then(|| format!("forget={}", self.forget));
        match (self.kind, forget) {
            (Kind::Random, None) => f.write_str("random"),
            (Kind::Greedy, None) => f.write_str("greedy"),
            (Kind::Expert, None) => f.write_str("expert"),
            (Kind::Sheet, None) => f.write_str("sheet"),
            (Kind::Ismcts { budget }, None) => write!(f, "ismcts:{budget}"),
            (Kind::Random, Some(x)) => write!(f, "random:{x}"),
            (Kind::Greedy, Some(x)) => write!(f, "greedy:{x}"),
            (Kind::Expert, Some(x)) => write!(f, "expert:{x}"),
            (Kind::Sheet, Some(x)) => write!(f, "sheet:{x}"),
            (Kind::Ismcts { budget }, Some(x)) => write!(f, "ismcts:budget={budget},{x}"),
        }
    }
}

impl crate::play::Strategy<super::Ocho> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, _rules: &super::rules::Rules) -> Bot {
        Bot::new(*self)
    }
    fn is_slow(&self) -> bool {
        matches!(self.kind, Kind::Ismcts { .. })
    }
}

impl crate::play::Bot<super::Ocho> for Bot {
    #[inline]
    fn act(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        Bot::act(self, view, rng)
    }

    /// Random players only: the engine's own play-out makes the same choices from the same
    /// draws as the random bots would, without asking them move by move.
    #[inline]
    fn play_out(
        game: &mut OchoState,
        bots: &mut [Bot],
        seat_bot: &[usize],
        deal: &mut Stream,
        decisions: &mut Stream,
    ) -> bool {
        let n = game.rules().players as usize;
        let mut forget_below = [0u64; super::rules::MAX_PLAYERS];
        let mut always = 0u16;
        for (s, &b) in seat_bot[..n].iter().enumerate() {
            let bot = &bots[b];
            if bot.strategy.kind != Kind::Random {
                return false;
            }
            forget_below[s] = bot.forget_below;
            always |= (bot.always_forgets as u16) << s;
        }
        game.play_out_random(decisions, deal, &forget_below, always);
        true
    }
}

/// A player: a strategy with its scratch space (reused from decision to decision, so playing
/// allocates nothing once warm).
pub struct Bot {
    strategy: Strategy,
    /// Forgets when a uniform 64-bit draw is below this (`u64::MAX` and `always`: every time).
    forget_below: u64,
    always_forgets: bool,
    search: Option<Box<Search>>,
}

impl Bot {
    /// A bot playing `strategy`.
    pub fn new(strategy: Strategy) -> Bot {
        Bot {
            strategy,
            // 2^64 · forget, saturating; forget = 1 forgets every time.
            forget_below: (strategy.forget * 18_446_744_073_709_551_616.0) as u64,
            always_forgets: strategy.forget >= 1.0,
            search: match strategy.kind {
                Kind::Ismcts { budget } => Some(Box::new(Search::new(budget))),
                _ => None,
            },
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The bot's action in the position `view` shows (it must be the bot's turn).
    #[inline]
    pub fn act(&mut self, view: &View, rng: &mut Stream) -> Action {
        let action = match self.strategy.kind {
            Kind::Random => random_action(view, rng),
            Kind::Greedy => greedy_action(view),
            Kind::Sheet => sheet_action(view),
            Kind::Expert => expert_action(view),
            Kind::Ismcts { .. } => {
                if view.legal().moves() == 1 && view.legal().plays & EIGHTS == 0 {
                    only_move(view)
                } else {
                    self.search
                        .as_mut()
                        .expect("ismcts bots carry a search")
                        .choose(view, rng)
                }
            }
        };
        self.say_voy_por_una(view, action, rng)
    }

    /// Marks a play that leaves one card as `silent` at the strategy's forgetting rate.
    #[inline]
    fn say_voy_por_una(&self, view: &View, action: Action, rng: &mut Stream) -> Action {
        match action {
            Action::Play { card, suit, .. }
                if (self.forget_below > 0 || self.always_forgets)
                    && view.hand_len(view.seat()) == 2 =>
            {
                let silent = self.always_forgets || rng.next_u64() < self.forget_below;
                Action::Play { card, suit, silent }
            }
            a => a,
        }
    }
}

/// The one legal move (not an 8, which names a suit).
fn only_move(view: &View) -> Action {
    let l = view.legal();
    if l.plays != 0 {
        Action::play(lowest(l.plays))
    } else {
        l.other().expect("a player to act has a move")
    }
}

/// Uniform over the legal moves (each card, draw, take, keep), a uniform suit for an 8. No draw
/// is spent on a choice of one.
#[inline]
pub fn random_action(view: &View, rng: &mut impl Rng) -> Action {
    let l = view.legal();
    let cards = count(l.plays);
    let moves = cards + (l.draw | l.take | l.pass) as u32;
    let k = if moves == 1 {
        0
    } else {
        uniform_below(rng, moves as usize) as u32
    };
    if k < cards {
        let c = nth(l.plays, k);
        if c.rank() == EIGHT && !l.last_card {
            Action::eight(c, uniform_below(rng, 4) as u8)
        } else {
            Action::play(c)
        }
    } else {
        l.other().expect("a move that is not a card")
    }
}

/// Whether taking a draw-three costs little because its count outruns the cards there are to
/// draw (at most 6 left, fewer than the stack): nearly every other card is in the hands, so the
/// 3s and jokers go round and answering would only pass the stack on for ever.
#[inline]
fn cheap_to_take(view: &View) -> bool {
    let left = view.cards_to_draw();
    left <= 6 && left < view.pending() as u32
}

/// Cards of each suit in a set, 8s and jokers left out (they follow any suit).
#[inline]
fn suit_counts(set: CardSet) -> [u32; 4] {
    let s = set & !EIGHTS;
    [
        count(s & suit_mask(0)),
        count(s & suit_mask(1)),
        count(s & suit_mask(2)),
        count(s & suit_mask(3)),
    ]
}

/// Plays `card`, naming with an 8 the suit that scores best by `suit_score`.
#[inline]
fn play_naming(view: &View, card: Card, suit_score: impl Fn(u8) -> i32) -> Action {
    if card.rank() == EIGHT && !view.legal().last_card {
        let best = (0..4u8)
            .max_by_key(|&s| (suit_score(s), -(s as i32)))
            .unwrap_or(0);
        Action::eight(card, best)
    } else {
        Action::Play {
            card,
            suit: canonical_suit(card),
            silent: false,
        }
    }
}

/// The card of highest rank in a non-empty set (lowest index on ties).
#[inline]
fn highest(set: CardSet) -> Card {
    Cards(set)
        .max_by_key(|c| (c.rank(), std::cmp::Reverse(c.0)))
        .expect("a non-empty set")
}

/// The shipped cheat sheet (`data/ocho/sheet-4p.csv`), read once.
pub fn shipped_sheet() -> &'static SheetTable {
    static SHEET: std::sync::OnceLock<Vec<SheetTable>> = std::sync::OnceLock::new();
    &SheetTable::built_in::<super::Ocho>(
        &SHEET,
        &[(
            "sheet-4p.csv",
            include_str!("../../../data/ocho/sheet-4p.csv"),
        )],
    )[0]
}

/// The sheet's move where it says one, else greedy's.
pub fn sheet_action(view: &View) -> Action {
    shipped_sheet()
        .action::<super::Ocho>(view)
        .unwrap_or_else(|| greedy_action(view))
}

/// Greedy's play of `card`: an 8 names the suit it holds most of after it.
#[inline]
pub fn greedy_play(view: &View, card: Card) -> Action {
    let counts = suit_counts(view.hand() & !card.bit() & !JOKERS);
    play_naming(view, card, |s| counts[s as usize] as i32)
}

/// The greedy move.
pub fn greedy_action(view: &View) -> Action {
    let l = view.legal();
    let name = |card: Card| greedy_play(view, card);
    match view.phase() {
        Phase::Over => Action::Pass,
        Phase::StackDrawn if cheap_to_take(view) => Action::Take,
        Phase::Drawn | Phase::StackDrawn => name(lowest(l.plays)),
        Phase::Stack if cheap_to_take(view) => Action::Take,
        Phase::Stack => {
            for set in [rank_mask(THREE), JOKERS, EIGHTS] {
                if l.plays & set != 0 {
                    return name(lowest(l.plays & set));
                }
            }
            Action::Take
        }
        Phase::Turn => {
            if l.plays == 0 {
                return l.other().expect("a stuck player draws or passes");
            }
            greedy_turn(view, l.plays)
        }
        Phase::Again if l.plays == 0 => Action::Pass,
        Phase::Again => use_the_right(view, greedy_turn(view, l.plays)),
    }
}

/// A right to play again: `turn`, the card the bot would play on a normal turn, unless it is an
/// 8 or a joker and not the last card (kept for later: pass).
fn use_the_right(view: &View, turn: Action) -> Action {
    match turn {
        Action::Play { card, .. }
            if card.bit() & (EIGHTS | JOKERS) != 0 && count(view.hand()) > 1 =>
        {
            Action::Pass
        }
        a => a,
    }
}

/// Greedy's choice on a normal turn among `plays` (non-empty, playable): a 3, joker or 2 when the
/// next player holds two cards or fewer, else the costliest plain card, then 2s and 3s, jokers,
/// 8s last.
pub fn greedy_turn(view: &View, plays: CardSet) -> Action {
    let name = |card: Card| greedy_play(view, card);
    let next = view.next_after(view.seat());
    if view.hand_len(next) <= 2 {
        for set in [rank_mask(THREE), JOKERS, rank_mask(TWO)] {
            if plays & set != 0 {
                return name(lowest(plays & set));
            }
        }
    }
    let held = rank_mask(TWO) | rank_mask(THREE);
    let pools = [
        plays & !(EIGHTS | JOKERS | held),
        plays & held,
        plays & JOKERS,
        plays & EIGHTS,
    ];
    let pool = pools
        .into_iter()
        .find(|&p| p != 0)
        .expect("plays is not empty");
    name(highest(pool))
}

/// The expert move.
pub fn expert_action(view: &View) -> Action {
    let l = view.legal();
    let hand = view.hand();
    let unseen = view.unseen();
    let unseen_by_suit = suit_counts(unseen);
    // Name the suit we hold most of and others are least likely to hold.
    let name = |card: Card| {
        let mine = suit_counts(hand & !card.bit() & !JOKERS);
        play_naming(view, card, |s| {
            10 * mine[s as usize] as i32 - unseen_by_suit[s as usize] as i32
        })
    };
    match view.phase() {
        Phase::Over => Action::Pass,
        Phase::StackDrawn if cheap_to_take(view) => Action::Take,
        Phase::StackDrawn => name(lowest(l.plays)),
        Phase::Stack if cheap_to_take(view) => Action::Take,
        Phase::Drawn => {
            // Keep a drawn 8 for the end when allowed.
            if l.pass && l.plays & EIGHTS != 0 && count(hand) > 2 {
                Action::Pass
            } else {
                name(lowest(l.plays))
            }
        }
        Phase::Stack => {
            let threes = l.plays & rank_mask(THREE);
            if threes != 0 {
                return name(best_by_suit(threes, hand));
            }
            if l.plays & JOKERS != 0 {
                return name(lowest(l.plays & JOKERS));
            }
            if l.plays & EIGHTS != 0 && (view.pending() >= 6 || count(hand) <= 3) {
                return name(lowest(l.plays & EIGHTS));
            }
            Action::Take
        }
        Phase::Turn => expert_turn(view, &name),
        Phase::Again if l.plays == 0 => Action::Pass,
        Phase::Again => use_the_right(view, expert_turn(view, &name)),
    }
}

/// Among `set`, the card of the suit we hold most of.
fn best_by_suit(set: CardSet, hand: CardSet) -> Card {
    let mine = suit_counts(hand);
    Cards(set)
        .max_by_key(|c| (mine[c.suit() as usize], std::cmp::Reverse(c.0)))
        .expect("a non-empty set")
}

fn expert_turn(view: &View, name: &dyn Fn(Card) -> Action) -> Action {
    let l = view.legal();
    if l.plays == 0 {
        return l.other().expect("a stuck player draws or passes");
    }
    let hand = view.hand();
    if count(hand) == 1 {
        return name(lowest(l.plays));
    }
    let me = view.seat();
    let next = view.next_after(me);
    let prev = view.previous_before(me);
    let many = view.players_in() > 2;
    let unseen = view.unseen();
    let threes = l.plays & rank_mask(THREE);
    let reverses = l.plays & (rank_mask(JACK) | rank_mask(KING));
    // Attack the player about to go out.
    if view.hand_len(next) <= 2 {
        if threes != 0 {
            return name(best_by_suit(threes, hand));
        }
        if l.plays & JOKERS != 0 {
            return name(lowest(l.plays & JOKERS));
        }
        if l.plays & rank_mask(TWO) != 0 {
            return name(best_by_suit(l.plays & rank_mask(TWO), hand));
        }
        if reverses != 0 && many && view.hand_len(prev) > 2 {
            return name(best_by_suit(reverses, hand));
        }
    }
    // A draw-three nobody can answer (every 3 and joker seen or ours).
    let answers_unseen = count(unseen & (rank_mask(THREE) | JOKERS));
    if threes != 0 && answers_unseen == 0 && view.hand_len(next) <= 5 {
        return name(best_by_suit(threes, hand));
    }
    // Keep 8s for the end and jokers for defence; keep 3s while the hand is long.
    let mut candidates = l.plays & !(EIGHTS | JOKERS);
    if count(hand) > 3 && candidates & !rank_mask(THREE) != 0 {
        candidates &= !rank_mask(THREE);
    }
    if candidates == 0 {
        let wild = if l.plays & JOKERS != 0 {
            l.plays & JOKERS
        } else {
            l.plays & EIGHTS
        };
        return name(lowest(wild));
    }
    let unseen_by_suit = suit_counts(unseen);
    let follows = |rest: CardSet, c: Card| {
        let m = suit_mask(c.suit()) | rank_mask(c.rank()) | EIGHTS | JOKERS;
        count(rest & m & !EIGHTS & !JOKERS)
    };
    let mut best: Option<(i32, Card)> = None;
    for c in Cards(candidates) {
        let rest = hand & !c.bit();
        let mine = count(rest & suit_mask(c.suit()) & !EIGHTS) as i32;
        let mut score = 10 * mine - unseen_by_suit[c.suit() as usize] as i32 + c.rank() as i32 / 4;
        match c.rank() {
            ACE if follows(rest, c) > 0 => score += 25,
            JACK | KING if many && view.hand_len(prev) > view.hand_len(next) => score += 5,
            TWO if many && view.hand_len(next) < view.hand_len(view.next_after(next)) => score += 3,
            _ => {}
        }
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    name(best.expect("candidates is not empty").1)
}
