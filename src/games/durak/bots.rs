//! The bots. Each sees the game only through a [`View`] (its hand, the table, the trump, the
//! discards, hand sizes and the cards everybody knows to be in a hand).
//!
//! - `random`: uniform over the legal actions.
//! - `greedy`: the cheapest beating card, the cheapest attack, throws in cheap (non-trump)
//!   cards, takes when it cannot beat; transfers when that is cheaper than beating.
//! - `expert`: keeps its trumps (beats with plain cards first, throws in only plain cards while
//!   the stock lasts), takes at once when it cannot beat the whole table, leads cheap cards and,
//!   once the stock is low, the cheap rank it holds most of (so the pair can follow), and uses
//!   every card it has seen: once the stock is gone it knows which cards are still out, leads
//!   what the defender cannot beat (plain cards before trumps) and does not arm a taker with
//!   high cards. Once a game goes round (the stock gone, twice as many bouts as the deck has
//!   cards) it leads the cheapest card the defender can beat and lets beaten bouts be
//!   discarded, so that cards leave the game. Measured: durak in 36 % of two-player games
//!   against greedy's 52 %.
//! - `ismcts[:N]`: information-set Monte Carlo tree search, N determinised iterations per
//!   decision (default 300), with greedy play-outs.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{beaters, count, rank_mask, suit_mask, Card, CardSet, Cards};
use super::engine::{Action, DurakState, Legal, Phase, View};
use crate::error::Result;
use crate::play::sheet::{SheetGame, SheetTable};
use crate::play::{PlayerView, Seat, State};
use crate::rng::{uniform_below, Stream};
use crate::text::Spec;

/// The search of `ismcts` bots.
type Search = crate::play::ismcts::Search<super::Durak>;

/// Iterations per decision of `ismcts` when none are given.
pub const DEFAULT_ISMCTS_BUDGET: u32 = 300;

/// A strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "name")]
pub enum Strategy {
    /// Uniform over the legal actions.
    Random,
    /// Cheapest card that does the job.
    Greedy,
    /// Hand-written heuristics with card memory.
    Expert,
    /// The cheat sheet in `data/durak` (built in), `greedy` where it says "either".
    Sheet,
    /// Information-set MCTS.
    Ismcts {
        /// Iterations per decision.
        budget: u32,
    },
}

/// The strategies, for help and messages.
pub const STRATEGIES: &str =
    "strategies are random, greedy, expert and ismcts[:N] (N iterations per move), or in Spanish azar, codicioso, experto";

impl Strategy {
    /// Parses `random`, `greedy`, `expert`, `ismcts`, `ismcts:N` or `ismcts:budget=N`
    /// (Spanish: azar, codicioso, experto).
    pub fn parse(text: &str) -> Result<Strategy> {
        let spec = Spec::parse(text, "strategy")?;
        let s = match spec.name.as_str() {
            "random" | "azar" | "aleatorio" => Strategy::Random,
            "greedy" | "codicioso" | "voraz" => Strategy::Greedy,
            "expert" | "experto" => Strategy::Expert,
            "sheet" | "hoja" | "chuleta" => Strategy::Sheet,
            "ismcts" | "mcts" => {
                let budget = spec.params(&["budget"])?.count(
                    "budget",
                    1,
                    1_000_000,
                    DEFAULT_ISMCTS_BUDGET as u64,
                )? as u32;
                return Ok(Strategy::Ismcts { budget });
            }
            _ => return Err(spec.unknown(STRATEGIES)),
        };
        spec.params(&[])?;
        Ok(s)
    }

    /// Parses a comma-separated list (at least one).
    pub fn parse_list(text: &str) -> Result<Vec<Strategy>> {
        <Strategy as crate::play::Strategy<super::Durak>>::parse_list(text)
    }
}

impl crate::play::Strategy<super::Durak> for Strategy {
    type Bot = Bot;
    fn parse(text: &str) -> Result<Self> {
        Strategy::parse(text)
    }
    fn bot(&self, _rules: &super::rules::Rules) -> Bot {
        Bot::new(*self)
    }
    fn is_slow(&self) -> bool {
        matches!(self, Strategy::Ismcts { .. })
    }
}

impl crate::play::Bot<super::Durak> for Bot {
    #[inline]
    fn act(&mut self, view: &View<'_>, rng: &mut Stream) -> Action {
        Bot::act(self, view, rng)
    }

    /// Random players only: the engine's own play-out makes the same choices from the same
    /// draws as the random bots would, without asking them move by move.
    #[inline]
    fn play_out(
        game: &mut DurakState,
        bots: &mut [Bot],
        seat_bot: &[usize],
        _deal: &mut Stream,
        decisions: &mut Stream,
    ) -> bool {
        let n = game.rules().players as usize;
        if !seat_bot[..n]
            .iter()
            .all(|&b| bots[b].strategy() == Strategy::Random)
        {
            return false;
        }
        game.play_out_random(decisions, bots[seat_bot[0]].scratch());
        true
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => f.write_str("random"),
            Strategy::Greedy => f.write_str("greedy"),
            Strategy::Expert => f.write_str("expert"),
            Strategy::Sheet => f.write_str("sheet"),
            Strategy::Ismcts { budget } => write!(f, "ismcts:{budget}"),
        }
    }
}

/// A player: a strategy with its scratch space (reused from decision to decision, so playing
/// allocates nothing once warm).
pub struct Bot {
    strategy: Strategy,
    actions: Vec<Action>,
    search: Option<Box<Search>>,
}

impl Bot {
    /// A bot playing `strategy`.
    pub fn new(strategy: Strategy) -> Bot {
        Bot {
            strategy,
            actions: Vec::with_capacity(64),
            search: match strategy {
                Strategy::Ismcts { budget } => Some(Box::new(Search::new(budget))),
                _ => None,
            },
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The bot's scratch list of actions (for a play-out that needs one).
    pub fn scratch(&mut self) -> &mut Vec<Action> {
        &mut self.actions
    }

    /// The bot's action in the position `view` shows (it must be the bot's turn).
    pub fn act(&mut self, view: &View, rng: &mut Stream) -> Action {
        match self.strategy {
            Strategy::Random => random_action(view, &mut self.actions, rng),
            Strategy::Greedy => greedy_action(view),
            Strategy::Expert => expert_action(view),
            Strategy::Sheet => sheet_action(view),
            Strategy::Ismcts { .. } => {
                let l = view.legal();
                if l.count() == 1 && !l.combos {
                    return l.nth(0);
                }
                self.search
                    .as_mut()
                    .expect("ismcts bots carry a search")
                    .choose(view, rng)
            }
        }
    }
}

/// The shipped cheat sheets (`data/durak/sheet-*.csv`), read once.
pub fn shipped_sheets() -> &'static [SheetTable] {
    static SHEETS: std::sync::OnceLock<Vec<SheetTable>> = std::sync::OnceLock::new();
    SheetTable::built_in::<super::Durak>(
        &SHEETS,
        &[
            (
                "sheet-podkidnoy-2p.csv",
                include_str!("../../../data/durak/sheet-podkidnoy-2p.csv"),
            ),
            (
                "sheet-perevodnoy-2p.csv",
                include_str!("../../../data/durak/sheet-perevodnoy-2p.csv"),
            ),
        ],
    )
}

/// The sheet's move: the shipped sheet of the nearest table where it says one, else greedy's.
pub fn sheet_action(view: &View) -> Action {
    let sheet = &shipped_sheets()[<super::Durak as SheetGame>::sheet_for(view.rules())];
    sheet
        .action::<super::Durak>(view)
        .unwrap_or_else(|| greedy_action(view))
}

/// Uniform over the legal actions (multi-card openings included).
#[inline]
pub fn random_action(view: &View, scratch: &mut Vec<Action>, rng: &mut Stream) -> Action {
    let l = view.legal();
    if !l.combos {
        return l.nth(uniform_below(rng, l.count()));
    }
    view.legal_actions(scratch);
    scratch[uniform_below(rng, scratch.len())]
}

/// What a card is worth keeping: rank, and trumps above every plain card.
#[inline]
pub fn cost(c: Card, trump: u8) -> u32 {
    c.rank() as u32 + if c.suit() == trump { 13 } else { 0 }
}

/// The cheapest card of a non-empty set.
#[inline]
pub fn cheapest(set: CardSet, trump: u8) -> Card {
    // Plain cards first (lowest bit = lowest rank), then trumps.
    let plain = set & !suit_mask(trump);
    let pick = if plain != 0 { plain } else { set };
    Card(pick.trailing_zeros() as u8)
}

/// The greedy move: swaps the trump whenever it may, else [`greedy_move`].
pub fn greedy_action(view: &View) -> Action {
    if view.legal().swap {
        return Action::SwapTrump;
    }
    greedy_move(view)
}

/// The greedy move other than swapping the trump.
pub fn greedy_move(view: &View) -> Action {
    let l = view.legal();
    let trump = view.trump();
    match view.phase() {
        // The swap offered after the last draw, declined.
        Phase::Attack if l.plays == 0 => Action::Pass,
        Phase::Attack => Action::Play(cheapest(l.plays, trump)),
        Phase::Defend => {
            if l.shows != 0 {
                return Action::ShowTrump(Card(l.shows.trailing_zeros() as u8));
            }
            let beat = (l.plays != 0).then(|| cheapest(l.plays, trump));
            if l.transfers != 0 {
                let t = cheapest(l.transfers, trump);
                if beat.is_none_or(|b| cost(t, trump) <= cost(b, trump)) {
                    return Action::Transfer(t);
                }
            }
            match beat {
                Some(b) => Action::Play(b),
                None => Action::Take,
            }
        }
        Phase::ThrowIn | Phase::Taking => {
            let plain = l.plays & !suit_mask(trump);
            if plain != 0 {
                Action::Play(cheapest(plain, trump))
            } else {
                Action::Pass
            }
        }
        Phase::Over => Action::Pass,
    }
}

/// Cards `seat` may hold as far as the viewer knows: the known ones and (if they hold more) any
/// unseen card.
fn possible_cards(view: &View, seat: Seat) -> CardSet {
    let known = view.known(seat);
    if view.hand_len(seat) > count(known) {
        known | view.unseen()
    } else {
        known
    }
}

/// Whether every card of `seat`'s hand is known to the viewer (the stock is gone and only one
/// other hand holds unseen cards, or every card of theirs is public).
fn hand_fully_known(view: &View, seat: Seat) -> Option<CardSet> {
    let known = view.known(seat);
    let hidden = view.hand_len(seat) - count(known);
    if hidden == 0 {
        return Some(known);
    }
    if view.stock_len() > 0 {
        return None;
    }
    // Every unseen card is in some other hand; if only `seat` has unknown places, they are its.
    let others_hidden: u32 = (0..view.players())
        .filter(|&p| p != seat && p != view.seat())
        .map(|p| view.hand_len(p) - count(view.known(p)))
        .sum();
    (others_hidden == 0).then(|| known | view.unseen())
}

/// The expert move.
pub fn expert_action(view: &View) -> Action {
    let l = view.legal();
    let trump = view.trump();
    if l.swap {
        return Action::SwapTrump;
    }
    let stock = view.stock_len() as u32;
    let plain_suits = !suit_mask(trump);
    let going_round = stalled(view);
    match view.phase() {
        Phase::Attack if going_round => break_the_round(view, l.plays),
        Phase::Attack => expert_lead(view, l.plays),
        Phase::Defend => expert_defend(view, l),
        Phase::ThrowIn | Phase::Taking => {
            let def = view.defender();
            let taking = view.phase() == Phase::Taking;
            let candidates = l.plays;
            if candidates == 0 || going_round && !taking {
                // Going round: let a beaten bout be discarded.
                return Action::Pass;
            }
            if stock == 0 {
                // Endgame: every card shed is a card closer to leaving. Against a defender who
                // takes, shed cheap plain cards (high cards and trumps would only arm them)
                // unless this empties our hand; otherwise prefer cards they cannot beat.
                let hand = view.hand();
                if taking && count(hand) > count(candidates) {
                    let cheap = candidates & plain_suits & !(rank_mask(11) | rank_mask(12));
                    return if cheap != 0 {
                        Action::Play(cheapest(cheap, trump))
                    } else {
                        Action::Pass
                    };
                }
                if !taking {
                    let def_cards = possible_cards(view, def);
                    let unbeatable = Cards(candidates)
                        .filter(|&c| beaters(c, trump) & def_cards == 0)
                        .fold(0, |s, c| s | c.bit());
                    if unbeatable != 0 {
                        return Action::Play(cheapest(unbeatable, trump));
                    }
                }
                return Action::Play(cheapest(candidates, trump));
            }
            // Stock left: throw in plain cards (cheapest first), keep the trumps.
            let cheap = candidates & plain_suits;
            if cheap != 0 {
                Action::Play(cheapest(cheap, trump))
            } else {
                Action::Pass
            }
        }
        Phase::Over => Action::Pass,
    }
}

/// Whether the game is going round: the stock is gone and the game has run twice as many bouts
/// as the deck has cards, far past any normal game (the longest of 20 000 finished games of four
/// experts took 44 bouts). Unbeatable leads and the takes they force can then pass the same
/// cards round for ever: seed 2451 of four experts went round with A♠ and K♠ (hearts trump, none
/// left) until the move cap, each player leading what the next could not beat.
fn stalled(view: &View) -> bool {
    view.stock_len() == 0 && view.bouts() >= 2 * u32::from(view.rules().deck)
}

/// The lead once the game goes round ([`stalled`]): the cheapest card the defender may beat, so
/// that the bout can be discarded (two cards leave the game each time); with none, the cheapest.
/// The other experts let a beaten bout go (they throw nothing in), so every bout the defender
/// can beat takes cards out of the game.
fn break_the_round(view: &View, plays: CardSet) -> Action {
    let trump = view.trump();
    if plays == 0 {
        // The swap offered after the last draw: experts take it (see `expert_action`).
        return Action::Pass;
    }
    let def_cards = possible_cards(view, view.defender());
    let beatable = Cards(plays)
        .filter(|&c| beaters(c, trump) & def_cards != 0)
        .fold(0, |s, c| s | c.bit());
    let pool = if beatable != 0 { beatable } else { plays };
    Action::Play(cheapest(pool, trump))
}

fn expert_lead(view: &View, plays: CardSet) -> Action {
    let trump = view.trump();
    let stock = view.stock_len() as u32;
    let def = view.defender();
    let plain = plays & !suit_mask(trump);
    if stock == 0 {
        if let Some(def_hand) = hand_fully_known(view, def) {
            // Lead what the defender cannot beat, cheapest first; with a rank we hold several of
            // if possible (so the rest can follow).
            let unbeatable = Cards(plays)
                .filter(|&c| beaters(c, trump) & def_hand == 0)
                .fold(0, |s, c| s | c.bit());
            // Plain cards first: a trump given to a taker comes back against us. Trumps only
            // when they are all we have.
            let pick = unbeatable & !suit_mask(trump);
            let pick = if pick != 0 || plain != 0 {
                pick
            } else {
                unbeatable
            };
            if pick != 0 {
                return Action::Play(best_group_card(pick, plays, trump));
            }
        }
    }
    let pool = if plain != 0 { plain } else { plays };
    if stock <= 6 {
        // Late: among the cheap cards (within two ranks of the cheapest), lead the rank we hold
        // most of, so the rest can be thrown in after it.
        let low = cheapest(pool, trump).rank();
        let near = Cards(pool)
            .filter(|c| c.rank() <= low + 2)
            .fold(0, |s, c| s | c.bit());
        return Action::Play(best_group_card(near, plays, trump));
    }
    Action::Play(cheapest(pool, trump))
}

/// Among `candidates`, the card whose rank we hold most of in `hand`, cheapest on ties.
fn best_group_card(candidates: CardSet, hand: CardSet, trump: u8) -> Card {
    let mut best: Option<(u32, u32, Card)> = None;
    for c in Cards(candidates) {
        let group =
            count(hand & rank_mask(c.rank()) & !suit_mask(trump)) + u32::from(c.suit() == trump);
        let key = (group, 100 - cost(c, trump));
        if best.is_none_or(|(g, k, _)| (group, key.1) > (g, k)) {
            best = Some((group, key.1, c));
        }
    }
    best.map(|(_, _, c)| c).expect("candidates is not empty")
}

fn expert_defend(view: &View, l: &Legal) -> Action {
    let trump = view.trump();
    let stock = view.stock_len() as u32;
    if l.shows != 0 {
        return Action::ShowTrump(Card(l.shows.trailing_zeros() as u8));
    }
    if l.transfers != 0 {
        let t = cheapest(l.transfers, trump);
        if t.suit() != trump || stock == 0 {
            return Action::Transfer(t);
        }
    }
    if l.plays == 0 {
        return Action::Take;
    }
    let attack = view.attack_cards();
    let beaten = view.defence_cards().len();
    let hand = view.hand();
    // Can everything on the table be beaten? Greedy assignment, plain cards first.
    let mut left = hand;
    for a in &attack[beaten..] {
        let b = left & beaters(*a, trump);
        if b == 0 {
            return Action::Take;
        }
        let c = cheapest(b, trump);
        left &= !c.bit();
    }
    let first = cheapest(l.plays, trump);
    Action::Play(first)
}
