//! The Durak engine: [`DurakState`], the [`State`] of a game of Durak over card sets held as
//! bitmasks. Bots see a game only through a [`View`], which shows what one player sees;
//! [`State::deal_for_view`] deals the cards a player cannot see for search.
//!
//! How a bout runs (docs/rules.md §3, serialised so that one player acts at a time):
//! 1. The main attacker opens with one card (platkowy: or several, in pairs plus one).
//! 2. The defender beats the first unbeaten attack card, takes, or (perevodnoy, before beating
//!    anything) transfers the attack to the next player by adding a card of its rank or by
//!    showing the trump of that rank once per bout.
//! 3. When every attack card is beaten, the attackers may throw in one card of a rank on the
//!    table, in order from the main attacker (the defender's partners never). After each card
//!    the defender answers and the order starts again from the main attacker; when everybody
//!    passes in a row the bout is discarded. When the defender takes, the attackers may still
//!    throw in, in the same order (each until they pass), and then the defender picks up.
//! 4. At most `min(6, defender's hand at the bout's start)` attack cards (5 before the first
//!    discard with the flag). Attackers who cannot add anything pass without being asked, and
//!    whoever has exactly one legal action (a defender who can only take, an attacker holding
//!    one card) is not asked either: the engine plays it.
//! 5. Refill: the first attacker of the bout, then the others who attacked in the order they
//!    first played, the defender last. Once the stock is gone, empty hands leave the game.
//! 6. The trump swap: the holder of the lowest trump may swap it for the turned trump on any of
//!    their turns while the stock lasts, and, when the refill that empties the stock gave the
//!    turned trump to another player, once more before the next bout starts (the engine asks
//!    them: swap or pass), taking the turned trump from that player's hand («esto ocurre incluso
//!    si alguien toma el triunfo del mazo al agotarlo, siempre y cuando la siguiente ronda
//!    después de agotado el mazo no haya empezado»).

use std::fmt;

use super::cards::{
    beaters, count, nth, rank_mask, ranks_of, suit_mask, Card, CardSet, Cards, BLACK, RED,
};
use super::rules::{LastCards, Rules, Variant, MAX_ATTACK, MAX_PLAYERS};
use crate::play::{Illegal, Outcome, PlayerView, Seat, Start, State, MAX_COUNTERS};
use crate::rng::{uniform_below, Rng, Stream};

/// What a player may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Attack with, throw in, or beat the first unbeaten attack card with this card.
    Play(Card),
    /// Platkowy: open the bout with several cards at once (pairs, plus one for an odd count).
    Open(CardSet),
    /// Platkowy: throw in several cards at once, every one of a rank on the table (pairs, plus
    /// one for an odd count).
    ThrowIn(CardSet),
    /// An attacker declines to throw in (more); the holder of the lowest trump declines the
    /// swap offered after the last draw.
    Pass,
    /// The defender gives up and will pick up the table.
    Take,
    /// Perevodnoy: the defender adds this card of the attack rank and passes the attack on.
    Transfer(Card),
    /// Perevodnoy with the show-trump rule: the defender shows this trump of the attack rank and
    /// passes the attack on without adding it.
    ShowTrump(Card),
    /// The holder of the lowest trump swaps it for the trump card under the stock.
    SwapTrump,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(c) => write!(f, "play {c}"),
            Action::Open(s) => write!(f, "open {}", super::cards::show(*s)),
            Action::ThrowIn(s) => write!(f, "throw in {}", super::cards::show(*s)),
            Action::Pass => f.write_str("pass"),
            Action::Take => f.write_str("take"),
            Action::Transfer(c) => write!(f, "transfer with {c}"),
            Action::ShowTrump(c) => write!(f, "transfer showing {c}"),
            Action::SwapTrump => f.write_str("swap the lowest trump"),
        }
    }
}

/// Where a bout stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The main attacker opens.
    Attack,
    /// The defender answers the first unbeaten attack card.
    Defend,
    /// Everything is beaten; attackers may throw in.
    ThrowIn,
    /// The defender takes; attackers may still throw in.
    Taking,
    /// The game is over.
    Over,
}

/// What an action led to (inside the engine: the play-outs stop on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The bout goes on.
    Continue,
    /// A bout ended (and the next one started).
    BoutEnd {
        /// Whether the defender picked up the cards.
        taken: bool,
    },
    /// The game is over (its outcome is in the state: a payload here would widen every step
    /// the engine returns).
    GameOver,
}

/// The legal actions of the player to act, as card sets and flags (no allocation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Legal {
    /// Cards that may be played ([`Action::Play`]).
    pub plays: CardSet,
    /// Cards that may transfer the attack ([`Action::Transfer`]).
    pub transfers: CardSet,
    /// Trumps that may be shown to transfer ([`Action::ShowTrump`]).
    pub shows: CardSet,
    /// [`Action::Pass`] is legal.
    pub pass: bool,
    /// [`Action::Take`] is legal.
    pub take: bool,
    /// [`Action::SwapTrump`] is legal.
    pub swap: bool,
    /// Platkowy: multi-card openings ([`Action::Open`]) or throw-ins ([`Action::ThrowIn`]) exist
    /// too; list them with [`State::legal_actions`].
    pub combos: bool,
}

impl Legal {
    /// Number of legal actions, not counting multi-card openings.
    #[inline]
    pub fn count(&self) -> usize {
        (count(self.plays) + count(self.transfers) + count(self.shows)) as usize
            + self.pass as usize
            + self.take as usize
            + self.swap as usize
    }

    /// The `k`-th action (`k < count()`): plays, transfers, shows, pass, take, swap.
    #[inline]
    pub fn nth(&self, mut k: usize) -> Action {
        let n = count(self.plays) as usize;
        if k < n {
            return Action::Play(nth(self.plays, k as u32));
        }
        k -= n;
        let n = count(self.transfers) as usize;
        if k < n {
            return Action::Transfer(nth(self.transfers, k as u32));
        }
        k -= n;
        let n = count(self.shows) as usize;
        if k < n {
            return Action::ShowTrump(nth(self.shows, k as u32));
        }
        k -= n;
        if self.pass {
            if k == 0 {
                return Action::Pass;
            }
            k -= 1;
        }
        if self.take {
            if k == 0 {
                return Action::Take;
            }
            k -= 1;
        }
        debug_assert!(self.swap && k == 0, "Legal::nth past the end");
        Action::SwapTrump
    }

    /// Appends every action except multi-card openings.
    pub fn push_all(&self, out: &mut Vec<Action>) {
        out.extend(Cards(self.plays).map(Action::Play));
        out.extend(Cards(self.transfers).map(Action::Transfer));
        out.extend(Cards(self.shows).map(Action::ShowTrump));
        if self.pass {
            out.push(Action::Pass);
        }
        if self.take {
            out.push(Action::Take);
        }
        if self.swap {
            out.push(Action::SwapTrump);
        }
    }
}

/// A position to start from: hands by seat, the stock (bottom card first: the turned trump
/// unless `trump` names the suit, then no card is turned), the discard pile and who attacks.
#[derive(Clone, Copy, Debug)]
pub struct Deal<'a> {
    /// Each seat's cards.
    pub hands: &'a [CardSet],
    /// The stock, bottom first.
    pub stock: &'a [Card],
    /// Cards already discarded.
    pub discard: CardSet,
    /// The trump suit when no card is turned (dealer's trump, or an empty stock).
    pub trump: Option<u8>,
    /// The first attacker.
    pub first_attacker: Seat,
}

/// A game at any decision, as a position gives it ([`DurakState::at_position`]): every card's
/// place (the hidden ones already dealt by the caller), what everybody knows, the bout on the
/// table and who is to act.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// Each seat's cards.
    pub hands: &'a [CardSet],
    /// Cards everybody knows to be in each hand (a subset of it).
    pub known: &'a [CardSet],
    /// The stock, bottom first.
    pub stock: &'a [Card],
    /// Whether the bottom card of the stock is the turned trump everybody sees (else the
    /// dealer's card showed the trump and the whole stock is hidden).
    pub turned: bool,
    /// The trump suit.
    pub trump: u8,
    /// The discard pile.
    pub discard: CardSet,
    /// Seats that are out of the game, as a bitmask.
    pub out: u8,
    /// The main attacker of the bout (the defender is the next seat in the game on the left).
    pub attacker: Seat,
    /// Attack cards on the table, in order.
    pub attack: &'a [Card],
    /// The cards that beat them, in order (the first attack cards).
    pub defence: &'a [Card],
    /// The defender has said "take": the attackers may still throw in.
    pub taking: bool,
    /// A trump was shown to transfer in this bout (perevodnoy with the show-trump rule).
    pub shown: bool,
    /// The swap window after the last draw: the turned trump, drawn by another player, that the
    /// holder of the lowest trump (the seat to act) may still take before the bout starts.
    pub swap_for: Option<Card>,
    /// The seats that put attack cards on the table this bout, in the order they first did
    /// (they refill in this order).
    pub played: &'a [Seat],
    /// Cards of the bout's opening (platkowy openings of several cards; 1 otherwise, 0 with an
    /// empty table).
    pub opening: u8,
    /// The seat to act.
    pub to_act: Seat,
    /// Bouts finished.
    pub bouts: u32,
    /// Actions applied so far.
    pub moves: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// Who attacked first in the game.
    pub first_attacker: Seat,
}

/// A game of Durak in progress.
#[derive(Clone, Debug)]
pub struct DurakState {
    rules: Rules,
    n: u8,
    hands: [CardSet; MAX_PLAYERS],
    /// Cards everybody knows to be in each hand (picked up, shown, the turned trump drawn).
    known: [CardSet; MAX_PLAYERS],
    /// The stock: `stock[0]` is the bottom (the turned trump), drawn last.
    stock: [Card; 52],
    /// `stock_below[i]`: the cards of `stock[..i]`, so that a refill takes the cards between
    /// two heights of the stock at once.
    stock_below: [CardSet; 53],
    stock_len: u8,
    bottom_visible: bool,
    trump: u8,
    trump_card: Card,
    discard: CardSet,
    out: u8,
    dealer: u8,
    first_attacker: u8,
    // The bout.
    phase: Phase,
    attacker: u8,
    defender: u8,
    attack: [Card; MAX_ATTACK],
    defence: [Card; MAX_ATTACK],
    n_attack: u8,
    n_beaten: u8,
    opening: u8,
    table: CardSet,
    limit: u8,
    start_hand: u8,
    throwers: [u8; MAX_PLAYERS],
    n_throwers: u8,
    cursor: u8,
    played: [u8; MAX_PLAYERS],
    n_played: u8,
    /// The seats in `played`, as a bitmask.
    played_mask: u8,
    shown: bool,
    // The game.
    discarded: bool,
    bouts: u32,
    moves: u32,
    outcome: Option<Outcome>,
    epaulettes: u8,
    /// Deals thrown back before this one (the re-deal rule), saturating at `u16::MAX`.
    redeals: u16,
    /// The legal actions of the player to act, computed once per state.
    legal: Legal,
    /// The player to act, computed once per state.
    to_act: u8,
    /// `legal.count()`, computed once per state.
    n_legal: u8,
    /// Every card of the ranks on the table.
    table_ranks: CardSet,
    /// The lowest trump while it may still be swapped for the turned trump (else empty).
    swap_card: CardSet,
    /// The refill that emptied the stock gave the turned trump to a player other than the holder
    /// of the lowest trump, and the next bout has not started: the holder is asked (swap or
    /// pass) before its first card.
    window: bool,
}

/// Shuffles `cards` uniformly (Fisher–Yates with exactly uniform positions).
#[inline]
pub fn shuffle(cards: &mut [Card], rng: &mut impl Rng) {
    for i in (1..cards.len()).rev() {
        let j = uniform_below(rng, i + 1);
        cards.swap(i, j);
    }
}

/// Whether a dealt hand calls for a re-deal: all red, all black, or five cards of one suit.
pub fn needs_redeal(hand: CardSet) -> bool {
    hand & RED == 0 || hand & BLACK == 0 || (0..4).any(|s| count(hand & suit_mask(s)) >= 5)
}

/// Whether a set is a legal multi-card opening: at least two cards, every rank an even number
/// of times except at most one (pairs, plus one extra card for an odd count).
pub fn is_paired_opening(set: CardSet) -> bool {
    if count(set) < 2 {
        return false;
    }
    let odd_ranks = (0..13)
        .filter(|&r| count(set & rank_mask(r)) % 2 == 1)
        .count();
    odd_ranks <= 1
}

impl DurakState {
    /// Shuffles, deals (re-dealing bad hands when the rule is on) and starts the first bout:
    /// the dealer at random unless given, the holder of the lowest trump attacks unless a first
    /// attacker is given (later games of a series).
    fn dealt(
        rules: Rules,
        dealer: Option<u8>,
        first_attacker: Option<u8>,
        rng: &mut impl Rng,
    ) -> DurakState {
        let n = rules.players;
        let h = rules.hand as usize;
        let mut deck = [Card(0); 52];
        let mut m = 0;
        for c in Cards(rules.deck_cards()) {
            deck[m] = c;
            m += 1;
        }
        let dealer = dealer.unwrap_or_else(|| uniform_below(rng, n as usize) as u8);
        let mut hands = [0; MAX_PLAYERS];
        let mut redeals: u16 = 0;
        loop {
            shuffle(&mut deck[..m], rng);
            for (p, hand) in hands.iter_mut().enumerate().take(n as usize) {
                *hand = deck[p * h..(p + 1) * h].iter().fold(0, |s, c| s | c.bit());
            }
            // Re-dealing needs hands big enough for the rule's five of a suit.
            if !(rules.redeal && h >= 5 && hands.iter().take(n as usize).any(|&x| needs_redeal(x)))
            {
                break;
            }
            redeals = redeals.saturating_add(1);
        }
        let dealt = n as usize * h;
        let mut stock = [Card(0); 52];
        let stock_len = m - dealt;
        stock[..stock_len].copy_from_slice(&deck[dealt..m]);
        let mut known = [0; MAX_PLAYERS];
        let (trump_card, bottom_visible) = if rules.trump_from_dealer() {
            // The dealer's last card shows the trump.
            let c = deck[dealer as usize * h + h - 1];
            known[dealer as usize] = c.bit();
            (c, false)
        } else {
            (stock[0], true)
        };
        let trump = trump_card.suit();
        let mut g = DurakState {
            rules,
            n,
            hands,
            known,
            stock,
            stock_below: [0; 53],
            stock_len: stock_len as u8,
            bottom_visible,
            trump,
            trump_card,
            discard: 0,
            out: 0,
            dealer,
            first_attacker: 0,
            phase: Phase::Attack,
            attacker: 0,
            defender: 0,
            attack: [Card(0); MAX_ATTACK],
            defence: [Card(0); MAX_ATTACK],
            n_attack: 0,
            n_beaten: 0,
            opening: 0,
            table: 0,
            limit: 0,
            start_hand: 0,
            throwers: [0; MAX_PLAYERS],
            n_throwers: 0,
            cursor: 0,
            played: [0; MAX_PLAYERS],
            n_played: 0,
            played_mask: 0,
            shown: false,
            discarded: false,
            bouts: 0,
            moves: 0,
            outcome: None,
            epaulettes: 0,
            redeals,
            legal: Legal::default(),
            to_act: 0,
            n_legal: 0,
            table_ranks: 0,
            swap_card: 0,
            window: false,
        };
        g.index_stock();
        g.swap_card = g.swappable();
        let first = first_attacker.unwrap_or_else(|| {
            let trumps: CardSet =
                hands.iter().take(n as usize).fold(0, |s, &x| s | x) & suit_mask(trump);
            if trumps == 0 {
                // Nobody holds a trump: the dealer's left attacks.
                (dealer + 1) % n
            } else {
                let low = trumps.trailing_zeros();
                (0..n)
                    .find(|&p| hands[p as usize] >> low & 1 == 1)
                    .expect("the lowest trump is in a hand")
            }
        });
        g.first_attacker = first;
        g.start_bout(first);
        g.play_forced(Step::Continue);
        g
    }

    /// A game from a given position (for tests and for studying a position): every card of the
    /// deck must be in exactly one hand, the stock or the discard pile.
    pub fn from_deal(rules: Rules, deal: &Deal) -> Result<DurakState, String> {
        let Deal {
            hands,
            stock,
            discard,
            trump,
            first_attacker,
        } = *deal;
        rules.validate().map_err(|e| e.to_string())?;
        let n = rules.players as usize;
        if hands.len() != n || first_attacker >= n {
            return Err(format!("{} hands for {n} players", hands.len()));
        }
        let mut all = 0;
        let mut total = 0;
        for set in hands
            .iter()
            .copied()
            .chain(stock.iter().map(|c| c.bit()))
            .chain([discard])
        {
            if all & set != 0 {
                return Err(format!(
                    "cards dealt twice: {}",
                    super::cards::show(all & set)
                ));
            }
            all |= set;
            total += count(set);
        }
        if all != rules.deck_cards() || total != rules.deck as u32 {
            return Err("the deal must use each card of the deck exactly once".into());
        }
        if trump.is_none() && stock.is_empty() {
            return Err("no card to turn: give the trump suit".into());
        }
        let mut g = DurakState::dealt(
            rules,
            Some(0),
            Some(first_attacker as u8),
            &mut crate::rng::base_stream(0),
        );
        g.hands = [0; MAX_PLAYERS];
        g.hands[..n].copy_from_slice(hands);
        g.known = [0; MAX_PLAYERS];
        g.stock[..stock.len()].copy_from_slice(stock);
        g.stock_len = stock.len() as u8;
        g.index_stock();
        g.bottom_visible = trump.is_none();
        g.trump_card = stock.first().copied().unwrap_or(Card(0));
        g.trump = trump.unwrap_or_else(|| stock[0].suit());
        g.swap_card = g.swappable();
        g.moves = 0;
        g.bouts = 0;
        g.discard = discard;
        g.discarded = discard != 0;
        g.out = 0;
        g.epaulettes = 0;
        g.redeals = 0;
        g.outcome = None;
        g.first_attacker = first_attacker as u8;
        g.start_bout(first_attacker as u8);
        g.play_forced(Step::Continue);
        Ok(g)
    }

    /// A game at the decision `setup` describes, checked whole: every card in exactly one
    /// place, the bout as the engine plays it (beaten cards beat, thrown-in cards match a rank on
    /// the table, the attack limit), the turn where the engine would give it, at least one legal
    /// action. (Whether the player to act has a real choice may hang on cards another player
    /// cannot see, so that is left to the caller.) The error names the first thing that fails.
    pub fn at_position(rules: Rules, setup: &Setup) -> Result<DurakState, String> {
        rules.validate().map_err(|e| e.to_string())?;
        let n = rules.players as usize;
        let seats_ok = |s: Seat| s < n;
        if setup.hands.len() != n || setup.known.len() != n {
            return Err(format!("{} hands for {n} players", setup.hands.len()));
        }
        if ![
            setup.attacker,
            setup.to_act,
            setup.dealer,
            setup.first_attacker,
        ]
        .into_iter()
        .chain(setup.played.iter().copied())
        .all(seats_ok)
        {
            return Err(format!("a seat beyond the {n} players"));
        }
        if setup.stock.len() > 52 || setup.attack.len() > MAX_ATTACK {
            return Err(format!("more than {MAX_ATTACK} attack cards"));
        }
        if setup.defence.len() > setup.attack.len() {
            return Err("more beating cards than attack cards".into());
        }
        if setup.played.len() > setup.attack.len()
            || (setup.played.is_empty() != setup.attack.is_empty())
        {
            return Err("the seats that played do not match the attack cards".into());
        }
        if setup.opening as usize > setup.attack.len()
            || (setup.opening == 0) != setup.attack.is_empty()
        {
            return Err(format!(
                "an opening of {} cards with {} attack cards",
                setup.opening,
                setup.attack.len()
            ));
        }
        if setup.out != 0 && !setup.stock.is_empty() {
            return Err("a seat is out while the stock lasts".into());
        }
        if setup.out >> n != 0 {
            return Err(format!("a seat beyond the {n} players is out"));
        }
        if setup
            .stock
            .first()
            .is_some_and(|c| setup.turned && c.suit() != setup.trump)
        {
            return Err("the turned card is not of the trump suit".into());
        }
        let mut g = DurakState::dealt(rules, Some(0), Some(0), &mut crate::rng::base_stream(0));
        g.hands = [0; MAX_PLAYERS];
        g.hands[..n].copy_from_slice(setup.hands);
        g.known = [0; MAX_PLAYERS];
        g.known[..n].copy_from_slice(setup.known);
        g.stock[..setup.stock.len()].copy_from_slice(setup.stock);
        g.stock_len = setup.stock.len() as u8;
        g.index_stock();
        g.bottom_visible = setup.turned;
        g.trump = setup.trump;
        g.trump_card = setup.stock.first().copied().unwrap_or(Card(0));
        g.swap_card = g.swappable();
        g.discard = setup.discard;
        g.discarded = setup.discard != 0;
        g.out = setup.out;
        g.dealer = setup.dealer as u8;
        g.first_attacker = setup.first_attacker as u8;
        g.bouts = setup.bouts;
        g.moves = setup.moves;
        g.outcome = None;
        g.epaulettes = 0;
        g.redeals = 0;
        if !g.is_active(setup.attacker as u8) {
            return Err(format!("the attacker (seat {}) is out", setup.attacker + 1));
        }
        // The bout: the roles as the engine sets them, the defender's hand at the bout's start
        // being what they hold now and the cards they beat with since.
        g.start_bout(setup.attacker as u8);
        g.start_hand = (count(g.hands[g.defender as usize]) + setup.defence.len() as u32) as u8;
        g.limit = g.cap().min(g.start_hand);
        for (i, &c) in setup.attack.iter().enumerate() {
            g.attack[i] = c;
            g.table |= c.bit();
            g.table_ranks |= rank_mask(c.rank());
        }
        for (i, &c) in setup.defence.iter().enumerate() {
            g.defence[i] = c;
            g.table |= c.bit();
            g.table_ranks |= rank_mask(c.rank());
        }
        g.n_attack = setup.attack.len() as u8;
        g.n_beaten = setup.defence.len() as u8;
        g.opening = setup.opening;
        for &p in setup.played {
            if !g.is_active(p as u8) {
                return Err(format!("seat {} played this bout but is out", p + 1));
            }
            if g.played_mask >> p & 1 == 1 {
                return Err(format!(
                    "seat {} is listed twice among those who played",
                    p + 1
                ));
            }
            g.played_mask |= 1 << p;
            g.played[g.n_played as usize] = p as u8;
            g.n_played += 1;
        }
        g.shown = setup.shown;
        if let Some(t) = setup.swap_for {
            g.open_window_at(t, setup)?;
        }
        g.phase = if setup.taking {
            Phase::Taking
        } else if setup.attack.is_empty() {
            Phase::Attack
        } else if setup.defence.len() < setup.attack.len() {
            Phase::Defend
        } else {
            Phase::ThrowIn
        };
        if matches!(g.phase, Phase::ThrowIn | Phase::Taking) {
            let Some(i) = (0..g.n_throwers).find(|&i| g.throwers[i as usize] == setup.to_act as u8)
            else {
                return Err(format!(
                    "seat {} may not throw in on seat {}",
                    setup.to_act + 1,
                    g.defender + 1
                ));
            };
            g.cursor = i;
        }
        g.refresh();
        if g.to_act as usize != setup.to_act {
            return Err(format!(
                "it is seat {}'s turn, not seat {}'s",
                g.to_act + 1,
                setup.to_act + 1
            ));
        }
        g.invariants()?;
        let unbeaten = u32::from(g.n_attack - g.n_beaten);
        if unbeaten > count(g.hands[g.defender as usize]) {
            return Err(format!(
                "{unbeaten} unbeaten attack cards against the defender's {} cards",
                count(g.hands[g.defender as usize])
            ));
        }
        let active = (0..g.n).filter(|&s| g.is_active(s));
        let first_team = rules.teams.team(g.defender as usize);
        if active.clone().count() < 2
            || active
                .clone()
                .all(|s| rules.teams.team(s as usize) == first_team)
        {
            return Err("the game is over: only one side is left in it".into());
        }
        if g.moves >= g.rules.max_moves {
            return Err(format!(
                "{} moves reach the move cap (max-moves={})",
                g.moves, g.rules.max_moves
            ));
        }
        if g.n_legal == 0 && !g.legal.combos {
            return Err(format!("seat {} has no legal action", g.to_act + 1));
        }
        Ok(g)
    }

    #[inline(always)]
    fn start_bout(&mut self, attacker: u8) {
        self.phase = Phase::Attack;
        self.n_attack = 0;
        self.n_beaten = 0;
        self.opening = 0;
        self.table = 0;
        self.table_ranks = 0;
        self.n_played = 0;
        self.played_mask = 0;
        self.shown = false;
        self.set_roles(attacker);
        self.turn_attack();
    }

    /// Sets the main attacker, the defender on their left, the attack limit and the throw-in
    /// order (clockwise from the main attacker; never the defender or the defender's partners).
    fn set_roles(&mut self, attacker: u8) {
        self.attacker = attacker;
        self.defender = self.next_active(attacker);
        self.start_hand = count(self.hands[self.defender as usize]) as u8;
        let cap = if self.rules.five_before_discard && !self.discarded {
            5
        } else {
            MAX_ATTACK as u8
        };
        self.limit = cap.min(self.start_hand);
        self.throwers[0] = attacker;
        self.n_throwers = 1;
        if self.n == 2 {
            return;
        }
        let def_team = self.rules.teams.team(self.defender as usize);
        if self.rules.teams.team(attacker as usize) == def_team {
            // Left of a partner once others are out: the main attacker must lead, but never
            // throws in on a partner.
            self.n_throwers = 0;
        }
        let mut s = attacker;
        for _ in 1..self.n {
            s = if s + 1 == self.n { 0 } else { s + 1 };
            if s != self.defender
                && self.is_active(s)
                && self.rules.teams.team(s as usize) != def_team
            {
                self.throwers[self.n_throwers as usize] = s;
                self.n_throwers += 1;
            }
        }
    }

    #[inline]
    fn is_active(&self, seat: u8) -> bool {
        self.out >> seat & 1 == 0
    }

    /// The next seat clockwise after `seat` that is still in the game.
    fn next_active(&self, seat: u8) -> u8 {
        let mut s = seat;
        for _ in 0..self.n {
            s = if s + 1 == self.n { 0 } else { s + 1 };
            if self.is_active(s) {
                return s;
            }
        }
        seat
    }

    fn cap(&self) -> u8 {
        if self.rules.five_before_discard && !self.discarded {
            5
        } else {
            MAX_ATTACK as u8
        }
    }

    /// Whether one more attack card may go on the table.
    #[inline]
    fn can_add(&self) -> bool {
        self.n_attack < self.limit
            && ((self.n_attack - self.n_beaten) as u32) < count(self.hands[self.defender as usize])
    }

    /// Cards `seat` could throw in now.
    #[inline]
    fn throw_ins(&self, seat: u8) -> CardSet {
        if self.can_add() {
            self.hands[seat as usize] & self.table_ranks
        } else {
            0
        }
    }

    /// The first thrower at or after `from` in the order who can add a card.
    #[inline]
    fn next_thrower(&self, from: u8) -> Option<u8> {
        if !self.can_add() {
            return None;
        }
        (from..self.n_throwers)
            .find(|&i| self.hands[self.throwers[i as usize] as usize] & self.table_ranks != 0)
    }

    fn lowest_trump(&self) -> Card {
        Card::new(self.rules.lowest_rank(), self.trump)
    }

    /// The card that may be swapped for the turned trump at the deal: the lowest trump, unless
    /// it is the turned card itself, no card is turned, or the rules play without the swap.
    fn swappable(&self) -> CardSet {
        if self.rules.trump_swap && self.bottom_visible && self.stock_len > 0 {
            self.lowest_trump().bit() & !self.stock[0].bit()
        } else {
            0
        }
    }

    #[inline]
    fn swap_available(&self, seat: u8) -> bool {
        // `swap_card` is the lowest trump while a swap is still possible, else empty.
        self.hands[seat as usize] & self.swap_card != 0
    }

    /// The legal actions of the player to act.
    #[inline]
    pub fn legal(&self) -> &Legal {
        &self.legal
    }

    /// Recomputes the player to act and their legal actions after a change of state. (The
    /// hot paths call the setter of the phase they lead to directly, which spares a dispatch.)
    fn refresh(&mut self) {
        match self.phase {
            Phase::Over => self.set_turn(self.attacker, Legal::default()),
            Phase::Attack => self.turn_attack(),
            Phase::Defend => self.turn_defend(),
            Phase::ThrowIn | Phase::Taking => self.turn_throw(),
        }
    }

    /// The main attacker opens (after the holder of the lowest trump answered the swap offered
    /// after the last draw).
    #[inline(always)]
    fn turn_attack(&mut self) {
        if self.window {
            return self.offer_swap();
        }
        let seat = self.attacker;
        let hand = self.hands[seat as usize];
        let legal = Legal {
            plays: hand,
            combos: self.rules.variant == Variant::Platkowy
                && self.limit >= 2
                && (0..13).any(|r| count(hand & rank_mask(r)) >= 2),
            swap: self.swap_available(seat),
            ..Legal::default()
        };
        self.set_turn(seat, legal);
    }

    /// The swap window after the last draw: the holder of the lowest trump swaps or passes.
    #[inline(never)]
    fn offer_swap(&mut self) {
        let holder = (0..self.n)
            .find(|&p| self.hands[p as usize] & self.swap_card != 0)
            .expect("the window is open only while the lowest trump is in a hand");
        let legal = Legal {
            swap: true,
            pass: true,
            ..Legal::default()
        };
        self.set_turn(holder, legal);
    }

    /// After the refill that emptied the stock: when the turned trump (`stock[0]`, never swapped
    /// since `low` is still live) went to another player than the holder of the lowest trump,
    /// the holder may still swap until the next bout starts. Everybody sees whom the engine
    /// asks, so the lowest trump becomes known in that hand.
    #[inline(never)]
    fn open_window(&mut self, low: CardSet) {
        let turned = self.stock[0].bit();
        let n = self.n as usize;
        let holder = (0..n).find(|&p| self.hands[p] & low != 0);
        let drawer = (0..n).find(|&p| self.hands[p] & turned != 0);
        if let (Some(h), Some(d)) = (holder, drawer) {
            if h != d {
                self.swap_card = low;
                self.window = true;
                self.known[h] |= low;
            }
        }
    }

    /// [`DurakState::at_position`]: the swap window after the last draw for the turned trump
    /// `t`, checked against the position.
    fn open_window_at(&mut self, t: Card, setup: &Setup) -> Result<(), String> {
        let low = self.lowest_trump();
        if !(self.rules.trump_swap && setup.turned) {
            return Err("a swap window without the trump swap or a turned trump".into());
        }
        if !setup.stock.is_empty() || !setup.attack.is_empty() || setup.taking {
            return Err(
                "the swap window is open only between the last draw and the next bout's first card"
                    .into(),
            );
        }
        if t.suit() != self.trump || t == low {
            return Err(format!(
                "{t} is not a turned trump the lowest trump can be swapped for"
            ));
        }
        let n = self.n as usize;
        let holder = (0..n).find(|&p| self.known[p] & low.bit() != 0);
        let drawer = (0..n).find(|&p| self.known[p] & t.bit() != 0);
        match (holder, drawer) {
            (Some(h), Some(d)) if h != d => {
                self.stock[0] = t;
                self.trump_card = t;
                self.swap_card = low.bit();
                self.window = true;
                Ok(())
            }
            _ => Err(format!(
                "a swap window needs {low} and {t} known in two different hands"
            )),
        }
    }

    /// `seat` is to act with these legal actions.
    #[inline(always)]
    fn set_turn(&mut self, seat: u8, legal: Legal) {
        self.to_act = seat;
        self.n_legal = legal.count() as u8;
        self.legal = legal;
    }

    /// The defender answers the first unbeaten card.
    #[inline(always)]
    fn turn_defend(&mut self) {
        let seat = self.defender;
        let hand = self.hands[seat as usize];
        let a = self.attack[self.n_beaten as usize];
        let mut l = Legal {
            plays: hand & beaters(a, self.trump),
            take: true,
            swap: self.swap_available(seat),
            ..Legal::default()
        };
        if self.rules.variant == Variant::Perevodnoy && self.n_beaten == 0 {
            (l.transfers, l.shows) = self.transfer_options(hand, a);
        }
        self.set_turn(seat, l);
    }

    /// Perevodnoy, nothing beaten yet: the cards that may transfer the attack, and the trumps
    /// that may be shown to transfer it.
    #[inline(never)]
    fn transfer_options(&self, hand: CardSet, attack: Card) -> (CardSet, CardSet) {
        let next = self.next_active(self.defender);
        let next_hand = count(self.hands[next as usize]);
        let same = hand & rank_mask(attack.rank());
        let mut transfers = 0;
        let mut shows = 0;
        if self.n_attack < self.cap() && next_hand > self.n_attack as u32 {
            transfers = same;
        }
        if self.rules.show_trump_transfer && !self.shown && next_hand >= self.n_attack as u32 {
            shows = same & suit_mask(self.trump);
        }
        (transfers, shows)
    }

    /// The attacker at the cursor may throw in or pass.
    #[inline(always)]
    fn turn_throw(&mut self) {
        let seat = self.throwers[self.cursor as usize];
        let plays = self.throw_ins(seat);
        let legal = Legal {
            plays,
            pass: true,
            swap: self.swap_available(seat),
            combos: self.rules.variant == Variant::Platkowy && self.several_to_throw(plays),
            ..Legal::default()
        };
        self.set_turn(seat, legal);
    }

    /// Platkowy, everything beaten: whether `plays` (the thrower's cards of the table's ranks)
    /// hold a pair and two more attack cards fit. (While the defender takes, a thrower adds card
    /// after card anyway: several at once would change nothing.)
    #[inline(never)]
    fn several_to_throw(&self, plays: CardSet) -> bool {
        self.phase == Phase::ThrowIn
            && self.room() >= 2
            && (0..13).any(|r| count(plays & rank_mask(r)) >= 2)
    }

    /// Attack cards that may still go on the table at once: the limit, and no more unbeaten
    /// cards than the defender holds.
    #[inline]
    fn room(&self) -> u32 {
        let unbeaten = u32::from(self.n_attack - self.n_beaten);
        u32::from(self.limit - self.n_attack)
            .min(count(self.hands[self.defender as usize]).saturating_sub(unbeaten))
    }

    /// Every legal action, multi-card openings and throw-ins included, into `out` (cleared
    /// first).
    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let l = self.legal();
        l.push_all(out);
        if l.combos {
            self.push_several(out);
        }
    }

    /// Platkowy: every opening of 2..=limit cards in pairs (plus one), or every throw-in of
    /// 2..=room cards of the table's ranks in pairs (plus one).
    fn push_several(&self, out: &mut Vec<Action>) {
        let (hand, max, make): (CardSet, u32, fn(CardSet) -> Action) =
            if self.phase == Phase::Attack {
                (
                    self.hands[self.attacker as usize],
                    self.limit as u32,
                    Action::Open,
                )
            } else {
                (self.legal.plays, self.room(), Action::ThrowIn)
            };
        // Ranks held, with their cards (a fixed array: no allocation per decision).
        let mut held = [0; 13];
        let mut n = 0;
        for r in 0..13 {
            if hand & rank_mask(r) != 0 {
                held[n] = hand & rank_mask(r);
                n += 1;
            }
        }
        let ranks = &held[..n];
        fn walk(
            ranks: &[CardSet],
            i: usize,
            chosen: CardSet,
            odd: u32,
            max: u32,
            make: fn(CardSet) -> Action,
            out: &mut Vec<Action>,
        ) {
            if i == ranks.len() {
                if count(chosen) >= 2 {
                    out.push(make(chosen));
                }
                return;
            }
            // Every subset of this rank's cards that fits.
            let cards = ranks[i];
            let mut sub = cards;
            loop {
                let k = count(sub);
                let new_odd = odd + (k % 2);
                if count(chosen) + k <= max && new_odd <= 1 {
                    walk(ranks, i + 1, chosen | sub, new_odd, max, make, out);
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & cards;
            }
        }
        walk(ranks, 0, 0, 0, max, make, out);
    }

    /// Plays the game to its end with every player choosing uniformly among their legal
    /// actions: the same choices, from the same draws of `rng`, as the `random` bot makes when
    /// asked move by move (a test checks it), without the per-move round trip through a bot.
    pub fn play_out_random(&mut self, rng: &mut impl Rng, scratch: &mut Vec<Action>) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if crate::bits::fast_select() {
            // SAFETY: `fast_select` checked that the CPU has BMI2.
            return unsafe { self.play_out_random_bmi2(rng, scratch) };
        }
        self.play_out_with(rng, scratch, nth)
    }

    /// [`DurakState::play_out_random`] compiled for BMI2, where a card is selected in one
    /// instruction (the selection sits on the critical path of every move).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn play_out_random_bmi2(&mut self, rng: &mut impl Rng, scratch: &mut Vec<Action>) -> Outcome {
        self.play_out_with(rng, scratch, |set, k| super::cards::nth_bmi2(set, k))
    }

    /// The random play-out with a given card selection ([`nth`] or [`super::cards::nth_bmi2`],
    /// which give the same card).
    #[inline(always)]
    fn play_out_with(
        &mut self,
        rng: &mut impl Rng,
        scratch: &mut Vec<Action>,
        select: impl Fn(CardSet, u32) -> Card,
    ) -> Outcome {
        while self.outcome.is_none() {
            let l = self.legal;
            let step = if l.combos {
                self.list_legal(scratch);
                self.apply_chosen(scratch[uniform_below(rng, scratch.len())])
            } else {
                // Plays come first in the order of `Legal::nth`: a drawn play goes straight to
                // the card's effect, without building an action and checking it again.
                let plays = count(l.plays) as usize;
                let k = uniform_below(rng, self.n_legal as usize);
                if k < plays {
                    self.play_card(select(l.plays, k as u32), self.to_act)
                } else {
                    self.apply_chosen(l.nth(k))
                }
            };
            self.moves += 1;
            self.play_forced(step);
        }
        self.outcome.expect("the loop ends when the game does")
    }

    /// Applies an action drawn from the legal set (not inlined: the rarer actions of random
    /// play, kept out of its loop).
    #[inline(never)]
    fn apply_chosen(&mut self, action: Action) -> Step {
        self.apply_if_legal(action)
            .expect("a legal action chosen from the legal set")
    }

    /// Plays every forced action (the only legal one) until someone has a choice or the game
    /// ends; stops the game at the move cap. Returns the most significant step seen.
    #[inline(always)]
    fn play_forced(&mut self, step: Step) -> Step {
        // Most actions leave a real choice: that test is inlined, the loop is not. (A game that
        // is over has no legal action, so it returns here too.)
        if self.moves < self.rules.max_moves && (self.n_legal != 1 || self.legal.combos) {
            return step;
        }
        self.play_forced_loop(step)
    }

    #[inline(never)]
    fn play_forced_loop(&mut self, mut step: Step) -> Step {
        loop {
            if self.outcome.is_none() && self.moves >= self.rules.max_moves {
                self.outcome = Some(Outcome::Capped);
                self.phase = Phase::Over;
                self.refresh();
                return Step::GameOver;
            }
            let l = &self.legal;
            if self.phase == Phase::Over || self.n_legal != 1 || l.combos {
                return step;
            }
            let only = l.nth(0);
            let next = self
                .apply_if_legal(only)
                .expect("the only legal action is legal");
            self.moves += 1;
            if next != Step::Continue {
                step = next;
            }
        }
    }

    #[inline(always)]
    fn add_attack(&mut self, c: Card, seat: u8) {
        self.attack[self.n_attack as usize] = c;
        self.n_attack += 1;
        self.table |= c.bit();
        self.table_ranks |= rank_mask(c.rank());
        self.hands[seat as usize] &= !c.bit();
        self.known[seat as usize] &= !c.bit();
        if self.played_mask >> seat & 1 == 0 {
            self.played_mask |= 1 << seat;
            self.played[self.n_played as usize] = seat;
            self.n_played += 1;
        }
    }

    /// Everything is beaten or the defender takes: attackers may throw in, or the bout ends.
    #[inline(always)]
    fn begin_throw_in(&mut self, taking: bool) -> Step {
        self.phase = if taking {
            Phase::Taking
        } else {
            Phase::ThrowIn
        };
        self.throw_from(0, taking)
    }

    /// The next thrower at or after position `from` acts, or the bout ends.
    #[inline(always)]
    fn throw_from(&mut self, from: u8, taking: bool) -> Step {
        match self.next_thrower(from) {
            Some(i) => {
                self.cursor = i;
                self.turn_throw();
                Step::Continue
            }
            None => self.end_bout(taking),
        }
    }

    #[inline(never)]
    fn transfer_to_next(&mut self) {
        let new_attacker = self.defender;
        self.set_roles(new_attacker);
        self.turn_defend();
    }

    /// Applies `action` if it is legal (`None` otherwise). The legal sets are empty outside
    /// the phases where their actions exist (plays and passes belong to their phase, takes and
    /// transfers to the defence, openings to the attack), so legality is one set test and the
    /// dispatch is on the action first: plays, by far the most common, come first.
    #[inline(always)]
    fn apply_if_legal(&mut self, action: Action) -> Option<Step> {
        let seat = self.to_act;
        match action {
            Action::Play(c) if self.legal.plays & c.bit() != 0 => Some(self.play_card(c, seat)),
            Action::Take if self.legal.take => Some(self.begin_throw_in(true)),
            Action::Pass if self.legal.pass => {
                if self.window {
                    // The holder of the lowest trump keeps it: the bout starts.
                    self.window = false;
                    self.swap_card = 0;
                    self.refresh();
                    return Some(Step::Continue);
                }
                let taking = self.phase == Phase::Taking;
                Some(self.throw_from(self.cursor + 1, taking))
            }
            Action::Transfer(c) if self.legal.transfers & c.bit() != 0 => {
                self.add_attack(c, seat);
                self.transfer_to_next();
                Some(Step::Continue)
            }
            Action::ShowTrump(c) if self.legal.shows & c.bit() != 0 => {
                self.known[seat as usize] |= c.bit();
                self.shown = true;
                self.transfer_to_next();
                Some(Step::Continue)
            }
            Action::SwapTrump if self.legal.swap => Some(self.swap_trump(seat)),
            Action::Open(set) => self.open_with(set, seat),
            Action::ThrowIn(set) => self.throw_several(set, seat),
            _ => None,
        }
    }

    /// The seat swaps the lowest trump for the turned trump under the stock.
    #[inline(never)]
    fn swap_trump(&mut self, seat: u8) -> Step {
        let low = self.lowest_trump();
        let old = self.stock[0];
        let s = seat as usize;
        self.hands[s] = (self.hands[s] & !low.bit()) | old.bit();
        self.known[s] = (self.known[s] & !low.bit()) | old.bit();
        if self.window {
            // After the last draw: the turned trump comes from the hand that drew it, which
            // takes the lowest trump in its place (everybody sees both cards go).
            let d = (0..self.n as usize)
                .find(|&p| self.hands[p] & old.bit() != 0 && p != s)
                .expect("the turned trump is in another hand");
            self.hands[d] = (self.hands[d] & !old.bit()) | low.bit();
            self.known[d] = (self.known[d] & !old.bit()) | low.bit();
            self.window = false;
        } else {
            self.stock[0] = low;
            self.index_stock();
        }
        self.swap_card = 0;
        self.refresh();
        Step::Continue
    }

    /// Platkowy: the main attacker opens with several cards, if that opening is legal.
    #[inline(never)]
    fn open_with(&mut self, set: CardSet, seat: u8) -> Option<Step> {
        if !(self.legal.combos
            && self.phase == Phase::Attack
            && set & !self.hands[seat as usize] == 0
            && count(set) <= self.limit as u32
            && is_paired_opening(set))
        {
            return None;
        }
        for c in Cards(set) {
            self.add_attack(c, seat);
        }
        self.opening = self.n_attack;
        self.phase = Phase::Defend;
        self.turn_defend();
        Some(Step::Continue)
    }

    /// Platkowy, everything beaten: the thrower adds several cards of the table's ranks at once,
    /// if that throw-in is legal.
    #[inline(never)]
    fn throw_several(&mut self, set: CardSet, seat: u8) -> Option<Step> {
        if !(self.legal.combos
            && self.phase == Phase::ThrowIn
            && set & !self.legal.plays == 0
            && count(set) <= self.room()
            && is_paired_opening(set))
        {
            return None;
        }
        for c in Cards(set) {
            self.add_attack(c, seat);
        }
        self.phase = Phase::Defend;
        self.turn_defend();
        Some(Step::Continue)
    }

    /// Plays a legal card: the defender beats the first unbeaten attack card with it, or an
    /// attacker opens or throws it in.
    #[inline(always)]
    fn play_card(&mut self, c: Card, seat: u8) -> Step {
        match self.phase {
            Phase::Defend => {
                let s = seat as usize;
                self.defence[self.n_beaten as usize] = c;
                self.n_beaten += 1;
                self.table |= c.bit();
                self.table_ranks |= rank_mask(c.rank());
                self.hands[s] &= !c.bit();
                self.known[s] &= !c.bit();
                if self.n_beaten == self.n_attack {
                    self.begin_throw_in(false)
                } else {
                    self.turn_defend();
                    Step::Continue
                }
            }
            Phase::Attack => {
                self.add_attack(c, seat);
                self.opening = 1;
                self.phase = Phase::Defend;
                self.turn_defend();
                Step::Continue
            }
            Phase::ThrowIn => {
                self.add_attack(c, seat);
                self.phase = Phase::Defend;
                self.turn_defend();
                Step::Continue
            }
            // Taking (plays are empty once the game is over): the same attacker may go on
            // adding until they pass.
            _ => {
                self.add_attack(c, seat);
                self.throw_from(self.cursor, true)
            }
        }
    }

    /// Recomputes `stock_below` after the stock changed.
    fn index_stock(&mut self) {
        let mut below = 0;
        for i in 0..self.stock_len as usize {
            self.stock_below[i] = below;
            below |= self.stock[i].bit();
        }
        self.stock_below[self.stock_len as usize] = below;
    }

    /// Refills `seat`'s hand from the top of the stock (the end of `stock`).
    #[inline]
    fn draw_up(&mut self, seat: u8) {
        let s = seat as usize;
        let need = (self.rules.hand as u32).saturating_sub(count(self.hands[s]));
        let take = need.min(self.stock_len as u32) as usize;
        if take == 0 {
            return;
        }
        let top = self.stock_len as usize;
        self.hands[s] |= self.stock_below[top] & !self.stock_below[top - take];
        self.stock_len -= take as u8;
        if self.stock_len == 0 {
            self.swap_card = 0;
            if self.bottom_visible {
                // Everybody saw the turned trump go into this hand.
                self.known[s] |= self.stock[0].bit();
            }
        }
    }

    #[inline(never)]
    fn end_bout(&mut self, taken: bool) -> Step {
        let def = self.defender;
        let attacked = self.n_attack as usize;
        if taken {
            self.hands[def as usize] |= self.table;
            self.known[def as usize] |= self.table;
        } else {
            self.discard |= self.table;
            self.discarded = true;
        }
        self.table = 0;
        self.n_attack = 0;
        self.n_beaten = 0;
        // Refill: attackers in the order they first played, the defender last.
        let mut window = 0;
        if self.stock_len > 0 {
            // The lowest trump while it may still be swapped: if this refill empties the stock,
            // its holder may still swap until the next bout starts.
            let live = self.swap_card;
            for i in 0..self.n_played as usize {
                let p = self.played[i];
                if p != def {
                    self.draw_up(p);
                }
            }
            self.draw_up(def);
            if self.stock_len == 0 {
                window = live;
            }
        }
        self.bouts += 1;
        if self.stock_len == 0 {
            for p in 0..self.n {
                if self.hands[p as usize] == 0 {
                    self.out |= 1 << p;
                }
            }
        }
        // Every seat's bit (up to 8 seats in a u8).
        let all = ((1u16 << self.n) - 1) as u8;
        let active = all & !self.out;
        if active.count_ones() >= 2 && self.rules.teams == super::rules::Teams::None {
            // Two or more players left: the game goes on.
            let next = if !taken && self.is_active(def) {
                def
            } else {
                self.next_active(def)
            };
            if window != 0 {
                self.open_window(window);
            }
            self.start_bout(next);
            return Step::BoutEnd { taken };
        }
        let team_mask = |team: usize| -> u8 {
            (0..self.n)
                .filter(|&s| self.rules.teams.team(s as usize) == team)
                .fold(0, |m, s| m | 1 << s)
        };
        let outcome = if active == 0 {
            Some(match self.rules.last_cards {
                LastCards::Draw => Outcome::Draw,
                LastCards::Defender => {
                    Outcome::Event(u32::from(team_mask(self.rules.teams.team(def as usize))))
                }
            })
        } else {
            let first = active.trailing_zeros() as usize;
            let team = self.rules.teams.team(first);
            let losing = team_mask(team);
            if active & !losing == 0 {
                Some(Outcome::Event(u32::from(losing)))
            } else {
                None
            }
        };
        if let Some(o) = outcome {
            if let Outcome::Event(losers) = o {
                // "un seis —la carta de menor valor en el Durak—": the deck's lowest rank,
                // the 2 with 52 cards.
                let lowest = self.rules.lowest_rank();
                let last = self.attack[attacked - 1];
                let sixes = self.attack[..attacked]
                    .iter()
                    .filter(|c| c.rank() == lowest)
                    .count();
                if taken && losers >> def & 1 == 1 && last.rank() == lowest {
                    self.epaulettes = if sixes >= 2 { 2 } else { 1 };
                }
            }
            self.outcome = Some(o);
            self.phase = Phase::Over;
            self.refresh();
            return Step::GameOver;
        }
        let next = if !taken && self.is_active(def) {
            def
        } else {
            self.next_active(def)
        };
        if window != 0 {
            self.open_window(window);
        }
        self.start_bout(next);
        Step::BoutEnd { taken }
    }

    /// The durak, once a game is over with one: the losing player left holding cards (with
    /// teams, the first such player clockwise from the last defender); when the last cards went
    /// out together and the defender loses (`--last-cards defender`), the last defender. This is
    /// who deals the next game of a series. `None` for a draw, a capped game or a game going on.
    pub fn durak(&self) -> Option<Seat> {
        let Some(Outcome::Event(losers)) = self.outcome else {
            return None;
        };
        let def = self.defender;
        (0..self.n)
            .map(|i| (def + i) % self.n)
            .find(|&s| losers >> s & 1 == 1 && self.hands[s as usize] != 0)
            .or(Some(def))
            .map(Seat::from)
    }
    /// The phase of the bout.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The hand of a seat (the whole truth: for the simulation and tests, not for bots).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }
    /// The trump suit.
    pub fn trump(&self) -> u8 {
        self.trump
    }
    /// The card that showed the trump (turned under the stock, or the dealer's last card).
    pub fn trump_card(&self) -> Card {
        self.trump_card
    }
    /// Who dealt.
    pub fn dealer(&self) -> Seat {
        self.dealer.into()
    }
    /// Who attacked first in the game.
    pub fn first_attacker(&self) -> Seat {
        self.first_attacker.into()
    }
    /// Bouts finished.
    pub fn bouts(&self) -> u32 {
        self.bouts
    }
    /// Actions applied.
    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// The durak was beaten with sixes in the last bout: 0 no, 1 one epaulette, 2 both.
    pub fn epaulettes(&self) -> u8 {
        self.epaulettes
    }
    /// Deals thrown back under the re-deal rule before the one being played (0 when the first
    /// deal stood, always 0 for a game set up with [`DurakState::from_deal`]); saturates at
    /// `u16::MAX`. The exact chance that a deal is thrown back is
    /// [`super::redeal::redeal_probability`].
    pub fn redeals(&self) -> u16 {
        self.redeals
    }
    /// The main attacker of the current bout.
    pub fn attacker(&self) -> Seat {
        self.attacker.into()
    }
    /// The defender of the current bout.
    pub fn defender(&self) -> Seat {
        self.defender.into()
    }
    /// Attack cards on the table, in order.
    pub fn attack_cards(&self) -> &[Card] {
        &self.attack[..self.n_attack as usize]
    }
    /// Cards that beat them, in order (one per beaten attack card).
    pub fn defence_cards(&self) -> &[Card] {
        &self.defence[..self.n_beaten as usize]
    }
    /// Most attack cards allowed in this bout.
    pub fn attack_limit(&self) -> u8 {
        self.limit
    }
    /// The defender's hand size when the bout (or the transfer to them) started.
    pub fn defender_start_hand(&self) -> u8 {
        self.start_hand
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> u8 {
        self.stock_len
    }
    /// The stock, bottom card first.
    pub fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len as usize]
    }
    /// The discard pile.
    pub fn discard(&self) -> CardSet {
        self.discard
    }
    /// Seats that are out of the game (no cards after the stock ran out).
    pub fn out(&self) -> u8 {
        self.out
    }
    /// Checks every invariant of the state; the error names the first that fails.
    fn invariants(&self) -> Result<(), String> {
        let deck = self.rules.deck_cards();
        let stock: CardSet = self.stock().iter().fold(0, |s, c| s | c.bit());
        if count(stock) != self.stock_len as u32 {
            return Err("a card is twice in the stock".into());
        }
        for i in 0..=self.stock_len as usize {
            let below: CardSet = self.stock[..i].iter().fold(0, |s, c| s | c.bit());
            if self.stock_below[i] != below {
                return Err(format!("the stock index is stale at height {i}"));
            }
        }
        let mut seen = 0;
        let mut total = 0;
        for part in self.hands[..self.n as usize]
            .iter()
            .chain([stock, self.discard, self.table].iter())
        {
            if seen & part != 0 {
                return Err(format!(
                    "cards in two places: {}",
                    super::cards::show(seen & part)
                ));
            }
            seen |= part;
            total += count(*part);
        }
        if seen != deck || total != self.rules.deck as u32 {
            return Err(format!(
                "{total} cards accounted for, not the {} of the deck",
                self.rules.deck
            ));
        }
        for p in 0..self.n as usize {
            if self.known[p] & !self.hands[p] != 0 {
                return Err(format!("seat {p} is known to hold cards it has not"));
            }
            if self.out >> p & 1 == 1 && self.hands[p] != 0 {
                return Err(format!("seat {p} is out but holds cards"));
            }
        }
        let mut fresh = self.clone();
        fresh.refresh();
        if (fresh.to_act, fresh.legal, fresh.n_legal) != (self.to_act, self.legal, self.n_legal) {
            return Err(format!(
                "stale turn or legal actions: {} {:?}, recomputed {} {:?}",
                self.to_act, self.legal, fresh.to_act, fresh.legal
            ));
        }
        if self.phase == Phase::Over {
            return Ok(());
        }
        if self.n_beaten > self.n_attack || self.n_attack > self.limit {
            return Err(format!(
                "{} attack cards ({} beaten) against a limit of {}",
                self.n_attack, self.n_beaten, self.limit
            ));
        }
        if self.limit > self.cap() || self.limit > self.start_hand {
            return Err(format!(
                "limit {} above the cap {} or the defender's {} cards",
                self.limit,
                self.cap(),
                self.start_hand
            ));
        }
        let table: CardSet = self
            .attack_cards()
            .iter()
            .chain(self.defence_cards())
            .fold(0, |s, c| s | c.bit());
        if table != self.table {
            return Err("the table mask disagrees with the cards on it".into());
        }
        for (a, d) in self.attack_cards().iter().zip(self.defence_cards()) {
            if beaters(*a, self.trump) & d.bit() == 0 {
                return Err(format!("{d} does not beat {a}"));
            }
        }
        for i in self.opening.max(1) as usize..self.n_attack as usize {
            let before: CardSet = self.attack[..i]
                .iter()
                .chain(self.defence_cards())
                .fold(0, |s, c| s | c.bit());
            if ranks_of(before) & self.attack[i].bit() == 0 {
                return Err(format!("{} matches no rank on the table", self.attack[i]));
            }
        }
        if !self.is_active(self.attacker) || !self.is_active(self.defender) {
            return Err("a player who is out is in the bout".into());
        }
        Ok(())
    }
}

/// What one player sees: their hand, the table, the trump, the discards, hand sizes, and the
/// cards everybody knows to be in each hand.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a DurakState,
    seat: u8,
}

impl PlayerView for View<'_> {
    fn seat(&self) -> Seat {
        self.seat.into()
    }
}

/// Exactly what the seat sees: its hand, the other hands' sizes and known cards, the trump and
/// the turned card, the stock's size, the discard pile, the table and whose turn it is.
impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.game;
        let others: Vec<(u32, String)> = (0..g.n as usize)
            .map(|p| (count(g.hands[p]), super::cards::show(g.known[p])))
            .collect();
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("rules", &g.rules)
            .field("hand", &super::cards::show(self.hand()))
            .field("hand sizes and known cards", &others)
            .field("trump", &g.trump)
            .field("bottom card", &self.bottom_card())
            .field("stock", &g.stock_len)
            .field("discard", &super::cards::show(g.discard))
            .field("attack", &g.attack_cards())
            .field("defence", &g.defence_cards())
            .field("phase", &g.phase)
            .field("attacker", &g.attacker)
            .field("defender", &g.defender)
            .field("out", &g.out)
            .field("to act", &g.to_act)
            .field("shown", &g.shown)
            .field("limit", &g.limit)
            .field("bouts", &g.bouts)
            .field("moves", &g.moves)
            .field("dealer", &g.dealer)
            .field("first attacker", &g.first_attacker)
            .field("swap", &(g.swap_card != 0))
            .field("swap window", &self.swap_window())
            .finish()
    }
}

impl<'a> View<'a> {
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.game.rules
    }
    /// Players at the table.
    pub fn players(&self) -> usize {
        self.game.n.into()
    }
    /// This player's cards.
    pub fn hand(&self) -> CardSet {
        self.game.hands[self.seat as usize]
    }
    /// Cards in another player's hand.
    pub fn hand_len(&self, seat: Seat) -> u32 {
        count(self.game.hands[seat])
    }
    /// Cards everybody knows `seat` holds.
    pub fn known(&self, seat: Seat) -> CardSet {
        self.game.known[seat]
    }
    /// The trump suit.
    pub fn trump(&self) -> u8 {
        self.game.trump
    }
    /// The turned trump under the stock, while it is still there.
    pub fn bottom_card(&self) -> Option<Card> {
        (self.game.bottom_visible && self.game.stock_len > 0).then(|| self.game.stock[0])
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> u8 {
        self.game.stock_len
    }
    /// The turned trump, drawn by another player in the refill that emptied the stock, while
    /// the holder of the lowest trump may still take it (before the next bout starts).
    pub fn swap_window(&self) -> Option<Card> {
        self.game.window.then_some(self.game.stock[0])
    }
    /// The card the lowest trump would be swapped for: the turned trump under the stock, or in
    /// the window after the last draw the turned trump in another hand.
    pub fn swap_for(&self) -> Option<Card> {
        self.bottom_card().or(self.swap_window())
    }
    /// The discard pile (everybody saw it go).
    pub fn discard(&self) -> CardSet {
        self.game.discard
    }
    /// Attack cards on the table.
    pub fn attack_cards(&self) -> &'a [Card] {
        self.game.attack_cards()
    }
    /// Beating cards on the table.
    pub fn defence_cards(&self) -> &'a [Card] {
        self.game.defence_cards()
    }
    /// All cards on the table.
    pub fn table(&self) -> CardSet {
        self.game.table
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.game.phase
    }
    /// The main attacker.
    pub fn attacker(&self) -> Seat {
        self.game.attacker.into()
    }
    /// The defender.
    pub fn defender(&self) -> Seat {
        self.game.defender.into()
    }
    /// Whether `seat` is still in the game.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.game.out >> seat & 1 == 0
    }
    /// The team of a seat.
    pub fn team(&self, seat: Seat) -> usize {
        self.game.rules.teams.team(seat)
    }
    /// Attack cards that may still be added in this bout.
    pub fn room(&self) -> u32 {
        if self.game.can_add() {
            (self.game.limit - self.game.n_attack) as u32
        } else {
            0
        }
    }
    /// This player's legal actions (only meaningful on their turn).
    pub fn legal(&self) -> &'a Legal {
        self.game.legal()
    }
    /// Every legal action, openings included.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.game.list_legal(out)
    }
    /// The seat to act.
    pub fn to_act(&self) -> Seat {
        self.game.to_act.into()
    }
    /// The seats that put attack cards on the table this bout, in the order they first did
    /// (they refill in this order).
    pub fn played(&self) -> impl Iterator<Item = Seat> + 'a {
        let g = self.game;
        g.played[..g.n_played as usize].iter().map(|&s| s.into())
    }
    /// Cards of the bout's opening (several in a platkowy opening; 0 before it).
    pub fn opening(&self) -> u8 {
        self.game.opening
    }
    /// Whether a trump was shown to transfer in this bout.
    pub fn shown(&self) -> bool {
        self.game.shown
    }
    /// The attack limit of the bout: most attack cards it may hold.
    pub fn limit(&self) -> u8 {
        self.game.limit
    }
    /// Bouts finished.
    pub fn bouts(&self) -> u32 {
        self.game.bouts
    }
    /// Actions applied so far.
    pub fn moves(&self) -> u32 {
        self.game.moves
    }
    /// Who dealt.
    pub fn dealer(&self) -> Seat {
        self.game.dealer.into()
    }
    /// Who attacked first in the game.
    pub fn first_attacker(&self) -> Seat {
        self.game.first_attacker.into()
    }
    /// Seats that are out of the game, as a bitmask.
    pub fn out(&self) -> u8 {
        self.game.out
    }
    /// Cards whose place this player does not know: in other hands (not known) or in the stock
    /// (not the turned trump).
    pub fn unseen(&self) -> CardSet {
        let g = self.game;
        let mut public = self.hand() | g.discard | g.table;
        for p in 0..g.n as usize {
            public |= g.known[p];
        }
        if let Some(b) = self.bottom_card() {
            public |= b.bit();
        }
        g.rules.deck_cards() & !public
    }
}

impl State for DurakState {
    type Rules = Rules;
    type Action = Action;
    type View<'a> = View<'a>;

    fn deal(rules: &Rules, start: &Start, rng: &mut Stream) -> DurakState {
        DurakState::dealt(
            *rules,
            start.dealer.map(|s| s as u8),
            start.first.map(|s| s as u8),
            rng,
        )
    }
    /// A full game consistent with everything this player sees: the unseen cards dealt at
    /// random into the other hands' unknown places and the stock (determinisation, for search).
    /// Only public facts and the unseen set are used, so the result cannot leak hidden cards.
    fn deal_for_view(view: &View<'_>, rng: &mut Stream) -> DurakState {
        let g0 = view;
        let mut g = g0.game.clone();
        let mut pool = [Card(0); 52];
        let mut m = 0;
        for c in Cards(g0.unseen()) {
            pool[m] = c;
            m += 1;
        }
        shuffle(&mut pool[..m], rng);
        let mut k = 0;
        for p in 0..g.n as usize {
            if p == g0.seat as usize {
                continue;
            }
            let unknown = count(g.hands[p]) - count(g.known[p]);
            let mut h = g.known[p];
            for _ in 0..unknown {
                h |= pool[k].bit();
                k += 1;
            }
            g.hands[p] = h;
        }
        let from = usize::from(g0.bottom_card().is_some());
        for slot in g.stock[from..g.stock_len as usize].iter_mut() {
            *slot = pool[k];
            k += 1;
        }
        g.index_stock();
        debug_assert_eq!(k, m, "every unseen card placed");
        g.refresh();
        g
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The seat to act (the last bout's attacker once the game is over).
    #[inline]
    fn to_act(&self) -> Seat {
        self.to_act.into()
    }
    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        View {
            game: self,
            seat: seat as u8,
        }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out)
    }
    #[inline]
    fn apply(&mut self, action: Action, _rng: &mut Stream) -> Result<(), Illegal> {
        let step = self
            .apply_if_legal(action)
            .ok_or_else(|| Illegal(format!("illegal action: {action}")))?;
        self.moves += 1;
        self.play_forced(step);
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn first_player(&self) -> Seat {
        self.first_attacker.into()
    }
    /// Bouts.
    fn length(&self) -> u64 {
        self.bouts.into()
    }
    /// Epaulettes (the durak's last attack card was a six), on both shoulders, and the deals
    /// thrown back before the game's deal.
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        use super::Counter;
        out[Counter::Epaulettes as usize] = i64::from(self.epaulettes >= 1);
        out[Counter::BothShoulders as usize] = i64::from(self.epaulettes >= 2);
        out[Counter::Redeals as usize] = i64::from(self.redeals);
    }
    fn series_seat(&self) -> Option<Seat> {
        self.durak()
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}
