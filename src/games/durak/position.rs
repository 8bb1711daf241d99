//! Durak positions as players write them: one line of `key: value` items separated by `;`,
//! everything the player to act sees at one decision.
//!
//! ```text
//! variant: podkidnoy; seat: 1; hand: 6S 8S 8D 10D QS KH; trump: 7S; stock: 2; hands: 6 6 5;
//! discard: 6D 6C 7D 7C 9S 9H JS JC QH QD QC KS KD KC AD AC; table: 8H; attacker: 3;
//! defender: 1; bouts: 2; moves: 17; dealer: 1; first attacker: 1
//! ```
//!
//! (seat 1 defends against seat 3's 8H with the stock nearly gone: beat it with the king or a
//! trump, take it, or first swap the lowest trump, the 6S, for the turned 7S.)
//!
//! Seats are numbered from 1 clockwise; cards are a rank (2–10, J, Q, K, A) and a suit letter
//! (S, H, D, C), or as [`Card::parse`] reads them (`10♥`, `as de picas`). The keys:
//!
//! - `variant` (podkidnoy, perevodnoy, platkowy) and `rules` (the other rules that differ from
//!   the variant's standard table, as `key=value, …`): both checked against the table's rules.
//! - `seat`: the player the position is for; `hand`: that player's cards.
//! - `trump`: the turned card while it lies under the stock (`9S`), else the suit (`S`).
//! - `stock`: cards left in it, the turned card included.
//! - `hands`: every seat's number of cards, in seat order, `out` for a player out of the game.
//! - `known`: cards everybody knows to be in a hand (picked up from the table, a trump shown, the
//!   turned trump drawn), by seat: `seat 1 KH KD, seat 3 6S` (the player's own seat too).
//! - `discard`: the discard pile (every card of it: the player counted).
//! - `table`: the attack cards in order, each beaten one with its beating card after a slash.
//! - `attacker`, `defender`: the main attacker of the bout and the defender (the next seat still
//!   in the game).
//! - `taking: yes`: the defender has said "take" and the attackers may still throw in.
//! - `trump shown: yes`: a trump was shown to transfer in this bout (perevodnoy's show rule).
//! - `played`: the seats that put attack cards on the table this bout, in the order they first
//!   did (they refill in that order); by default the main attacker alone.
//! - `opening`: platkowy, the cards of a multi-card opening (by default 1).
//! - `swap window`: the turned trump (`9S`) that another player drew in the refill that emptied
//!   the stock, while the holder of the lowest trump (the seat to act) may still take it before
//!   the next bout's first card; both cards are `known`.
//! - `to act`: the seat to act, when the position is written for another seat.
//! - `bouts`, `moves`: bouts finished and actions taken so far (by default 0).
//! - `dealer`, `first attacker`: by default the seat right of the first attacker, and the
//!   attacker.
//!
//! Spanish keys are read too (`mano`, `triunfo`, `mazo`, `manos`, `descarte`, `mesa`, …).

use super::cards::{beats, count, Card, CardSet, Cards, RANK_NAMES};
use super::engine::{DurakState, Phase, Setup, View};
use super::rules::{Rules, Variant, MAX_ATTACK, MAX_PLAYERS};
use super::Durak;
use crate::error::{Error, Result};
use crate::play::position::{
    parse_seat, read_dealer, rule_changes, same_rules, Fields, Matches, Positions,
};
use crate::play::{ActionOf, GameRules, PlayerView, Seat, Start, State};
use crate::rng::Stream;
use crate::text::normalize;

/// Suit letters, in the engine's suit order (♠ ♥ ♦ ♣).
const SUIT_LETTERS: [&str; 4] = ["S", "H", "D", "C"];

/// The keys of a position with the names they are read under.
const KEYS: &[(&str, &[&str])] = &[
    ("variant", &["variante"]),
    ("rules", &["reglas"]),
    ("seat", &["asiento"]),
    ("hand", &["mano"]),
    ("trump", &["triunfo", "kozyr"]),
    ("stock", &["mazo", "talon"]),
    ("hands", &["manos"]),
    ("known", &["conocidas", "vistas"]),
    ("discard", &["discards", "descarte", "descartes"]),
    ("table", &["mesa"]),
    ("attacker", &["atacante"]),
    ("defender", &["defensor"]),
    ("taking", &["takes", "se lleva"]),
    ("trump shown", &["shown", "triunfo mostrado"]),
    ("played", &["jugaron"]),
    ("opening", &["apertura"]),
    ("swap window", &["cambio de triunfo"]),
    ("to act", &["turn", "turno"]),
    ("bouts", &["rondas"]),
    ("moves", &["jugadas"]),
    ("dealer", &["reparte", "repartidor"]),
    ("first attacker", &["primer atacante"]),
];

/// A card as positions write it: `10D`, `QS`.
fn card_text(c: Card) -> String {
    format!(
        "{}{}",
        RANK_NAMES[c.rank() as usize],
        SUIT_LETTERS[c.suit() as usize]
    )
}

/// A set of cards as positions write it, lowest first: `6S 7H QS`.
fn cards_text(set: CardSet) -> String {
    Cards(set).map(card_text).collect::<Vec<_>>().join(" ")
}

impl Positions for Durak {
    const POSITION_EXAMPLE: &'static str = "variant: podkidnoy; seat: 1; hand: 6S 8S 8D 10D QS KH; trump: 7S; stock: 2; hands: 6 6 5; discard: 6D 6C 7D 7C 9S 9H JS JC QH QD QC KS KD KC AD AC; table: 8H; attacker: 3; defender: 1; bouts: 2; moves: 17; dealer: 1; first attacker: 1";
    const ROLLOUT_BOTS: &'static str = "expert";
    const ADVICE_VALUE: &'static str =
        "chance of not being the durak (a draw counts as not; a game stopped at the move cap as half)";

    fn write_position(view: &View<'_>) -> String {
        let rules = view.rules();
        let n = view.players();
        let seat = view.seat();
        let mut items = vec![format!("variant: {}", rules.variant)];
        let changes = rule_changes(
            rules,
            &Rules::standard(rules.variant, rules.players),
            &["variant"],
        );
        if !changes.is_empty() {
            items.push(format!("rules: {changes}"));
        }
        items.push(format!("seat: {}", seat + 1));
        items.push(format!("hand: {}", cards_text(view.hand())));
        items.push(match view.bottom_card() {
            Some(c) => format!("trump: {}", card_text(c)),
            None => format!("trump: {}", SUIT_LETTERS[view.trump() as usize]),
        });
        items.push(format!("stock: {}", view.stock_len()));
        let hands: Vec<String> = (0..n)
            .map(|p| {
                if view.is_active(p) {
                    view.hand_len(p).to_string()
                } else {
                    "out".to_string()
                }
            })
            .collect();
        items.push(format!("hands: {}", hands.join(" ")));
        let known: Vec<String> = (0..n)
            .filter(|&p| view.known(p) != 0)
            .map(|p| format!("seat {} {}", p + 1, cards_text(view.known(p))))
            .collect();
        if !known.is_empty() {
            items.push(format!("known: {}", known.join(", ")));
        }
        if view.discard() != 0 {
            items.push(format!("discard: {}", cards_text(view.discard())));
        }
        let attack = view.attack_cards();
        let defence = view.defence_cards();
        if !attack.is_empty() {
            let table: Vec<String> = attack
                .iter()
                .enumerate()
                .map(|(i, &a)| match defence.get(i) {
                    Some(&d) => format!("{}/{}", card_text(a), card_text(d)),
                    None => card_text(a),
                })
                .collect();
            items.push(format!("table: {}", table.join(" ")));
        }
        items.push(format!("attacker: {}", view.attacker() + 1));
        items.push(format!("defender: {}", view.defender() + 1));
        if view.phase() == Phase::Taking {
            items.push("taking: yes".into());
        }
        if view.shown() {
            items.push("trump shown: yes".into());
        }
        let played: Vec<Seat> = view.played().collect();
        let default_played: &[Seat] = if attack.is_empty() {
            &[]
        } else {
            &[view.attacker()]
        };
        if played != default_played {
            let seats: Vec<String> = played.iter().map(|p| (p + 1).to_string()).collect();
            items.push(format!("played: {}", seats.join(" ")));
        }
        let default_opening = u8::from(!attack.is_empty());
        if view.opening() != default_opening {
            items.push(format!("opening: {}", view.opening()));
        }
        if let Some(t) = view.swap_window() {
            items.push(format!("swap window: {}", card_text(t)));
        }
        if view.to_act() != seat {
            items.push(format!("to act: {}", view.to_act() + 1));
        }
        if view.bouts() != 0 {
            items.push(format!("bouts: {}", view.bouts()));
        }
        if view.moves() != 0 {
            items.push(format!("moves: {}", view.moves()));
        }
        let first = view.first_attacker();
        if view.dealer() != (first + n - 1) % n {
            items.push(format!("dealer: {}", view.dealer() + 1));
        }
        if first != view.attacker() {
            items.push(format!("first attacker: {}", first + 1));
        }
        items.join("; ")
    }

    fn read_position(rules: &Rules, text: &str, rng: &mut Stream) -> Result<DurakState> {
        let fields = Fields::split(
            text,
            KEYS,
            "hand: 7H 9H QS",
            <Durak as Positions>::POSITION_EXAMPLE,
        )?;
        let n = rules.players as usize;
        let seats = Seats { n };
        if let Some(v) = fields.get("variant") {
            let variant = Variant::parse(v).ok_or_else(|| {
                Error::usage(format!(
                    "variant: '{v}' in the position: use podkidnoy, perevodnoy or platkowy"
                ))
            })?;
            if variant != rules.variant {
                return Err(Error::usage(format!(
                    "variant: {variant} in the position, but the rules are {}: give the rules as variant={variant} or change the position",
                    rules.variant
                )));
            }
        }
        if let Some(v) = fields.get("rules") {
            same_rules(
                rules,
                &Rules::standard(rules.variant, rules.players),
                v,
                "position",
                &["variant"],
            )?;
        }
        let deck = rules.deck_cards();
        let me = seats.parse("seat", fields.need("seat")?)?;
        let mut places = Places::new(rules);
        let hand = places.cards("hand", fields.need("hand")?, "in your hand")?;

        // Hand sizes by seat (`out` for a player out of the game).
        let sizes_text = fields.need("hands")?;
        let mut sizes = [0u32; MAX_PLAYERS];
        let mut out = 0u8;
        let words: Vec<&str> = sizes_text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() != n {
            return Err(Error::usage(format!(
                "hands: '{sizes_text}' gives {} seats, but the rules are for {n} players: give one number of cards (or out) per seat",
                words.len()
            )));
        }
        for (p, w) in words.iter().enumerate() {
            match normalize(w).as_str() {
                "out" | "fuera" => out |= 1 << p,
                t => {
                    sizes[p] = t.parse::<u32>().ok().filter(|&k| k <= 52).ok_or_else(|| {
                        Error::usage(format!(
                            "hands: '{w}' for seat {}: give a number of cards or out",
                            p + 1
                        ))
                    })?
                }
            }
        }
        if sizes[me] != count(hand) {
            return Err(Error::usage(format!(
                "hands: seat {} has {} cards, but your hand lists {}: make them agree",
                me + 1,
                sizes[me],
                count(hand)
            )));
        }

        let stock_text = fields.need("stock")?;
        let stock_len = stock_text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&k| k <= rules.deck as u32)
            .ok_or_else(|| {
                Error::usage(format!(
                    "stock: '{stock_text}': give the number of cards left in it, 0 to {}",
                    rules.deck
                ))
            })?;
        if out != 0 && stock_len > 0 {
            return Err(Error::usage(format!(
                "hands: a seat is out while {stock_len} cards are in the stock: players leave the game only once the stock is gone"
            )));
        }

        // The trump: the turned card while it lies under the stock, else the suit.
        let trump_text = fields.need("trump")?;
        let turned_card = Card::parse(trump_text).ok();
        let trump = match turned_card {
            Some(c) => c.suit(),
            None => Card::parse(&format!("a de {trump_text}"))
                .map_err(|_| {
                    Error::usage(format!(
                        "trump: '{trump_text}': give the turned card under the stock (9S) or, once it is gone, the suit (S, H, D, C or picas, corazones, diamantes, treboles)"
                    ))
                })?
                .suit(),
        };
        let turned = !rules.trump_from_dealer();
        let bottom = match (turned_card, turned && stock_len > 0) {
            (Some(c), true) => Some(places.card("trump", c, "under the stock (the turned trump)")?),
            (None, true) => {
                return Err(Error::usage(format!(
                    "trump: {trump_text} with {stock_len} cards in the stock: name the turned card under it, e.g. trump: 9{}",
                    SUIT_LETTERS[trump as usize]
                )))
            }
            (Some(c), false) if !turned => {
                return Err(Error::usage(format!(
                    "trump: {}: with the dealer's trump no card is turned under the stock: give the suit, trump: {}",
                    card_text(c),
                    SUIT_LETTERS[trump as usize]
                )))
            }
            (Some(c), false) => {
                return Err(Error::usage(format!(
                    "trump: {}: the stock is empty, so no card lies turned under it: give the suit, trump: {}",
                    card_text(c),
                    SUIT_LETTERS[trump as usize]
                )))
            }
            (None, false) => None,
        };

        // Known cards by seat.
        let mut known = [0 as CardSet; MAX_PLAYERS];
        if let Some(v) = fields.get("known") {
            for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let mut words = part.split_whitespace();
                let mut first = words.next().unwrap_or("");
                if matches!(normalize(first).as_str(), "seat" | "asiento") {
                    first = words.next().unwrap_or("");
                }
                let p = seats.parse("known", first)?;
                let rest: Vec<&str> = words.collect();
                let what = format!("known in seat {}'s hand", p + 1);
                if known[p] != 0 {
                    return Err(Error::usage(format!(
                        "known: seat {} is given twice: list each seat once",
                        p + 1
                    )));
                }
                if p == me {
                    let set = parse_cards("known", &rest.join(" "), deck, rules)?;
                    if set & !hand != 0 {
                        return Err(Error::usage(format!(
                            "known: {} known in your hand, but your hand does not hold it",
                            cards_text(set & !hand)
                        )));
                    }
                    known[p] = set;
                } else {
                    known[p] = places.cards("known", &rest.join(" "), &what)?;
                }
                if count(known[p]) > sizes[p] {
                    return Err(Error::usage(format!(
                        "known: {} cards known in seat {}'s hand of {}",
                        count(known[p]),
                        p + 1,
                        sizes[p]
                    )));
                }
            }
        }
        let discard = match fields.get("discard") {
            Some(v) => places.cards("discard", v, "in the discard pile")?,
            None => 0,
        };

        // The table: attack cards in order, beaten ones with their beating card.
        let mut attack = Vec::new();
        let mut defence = Vec::new();
        if let Some(v) = fields.get("table") {
            let spaced = v.replace('/', " / ");
            let tokens: Vec<&str> = spaced.split_whitespace().collect();
            let mut i = 0;
            while i < tokens.len() {
                let (a, next) = one_card("table", &tokens, i)?;
                let a = places.card("table", a, "on the table")?;
                i = next;
                if tokens.get(i) == Some(&"/") {
                    let (d, next) = one_card("table", &tokens, i + 1)?;
                    let d = places.card("table", d, "on the table")?;
                    i = next;
                    if defence.len() != attack.len() {
                        return Err(Error::usage(format!(
                            "table: {} is beaten after an unbeaten card: the defender beats the attack cards in order, so write the beaten ones first",
                            card_text(a)
                        )));
                    }
                    if !beats(d, a, trump) {
                        return Err(Error::usage(format!(
                            "table: {} does not beat {} (trumps are {}): a higher card of its suit or a trump beats it",
                            card_text(d),
                            card_text(a),
                            SUIT_LETTERS[trump as usize]
                        )));
                    }
                    defence.push(d);
                }
                attack.push(a);
            }
            let opened = fields
                .get("opening")
                .and_then(|v| v.trim().parse::<usize>().ok());
            for (i, a) in attack.iter().enumerate().skip(opened.unwrap_or(1).max(1)) {
                let before = attack[..i]
                    .iter()
                    .chain(&defence)
                    .fold(0, |m, c| m | c.bit());
                if Cards(before).all(|b| b.rank() != a.rank()) {
                    return Err(Error::usage(format!(
                        "table: {} matches no rank on the table before it: a card added to a bout must match a rank already there",
                        card_text(*a)
                    )));
                }
            }
            if attack.len() > MAX_ATTACK {
                return Err(Error::usage(format!(
                    "table: {} attack cards: a bout holds at most {MAX_ATTACK}",
                    attack.len()
                )));
            }
        }

        // Roles and the turn.
        let attacker = seats.parse("attacker", fields.need("attacker")?)?;
        if out >> attacker & 1 == 1 {
            return Err(Error::usage(format!(
                "attacker: seat {} is out of the game",
                attacker + 1
            )));
        }
        let defender = (1..n)
            .map(|k| (attacker + k) % n)
            .find(|&s| out >> s & 1 == 0)
            .unwrap_or(attacker);
        if let Some(v) = fields.get("defender") {
            let d = seats.parse("defender", v)?;
            if d != defender {
                return Err(Error::usage(format!(
                    "defender: seat {} cannot defend against seat {}: the defender is the next seat still in the game on the attacker's left, seat {}",
                    d + 1,
                    attacker + 1,
                    defender + 1
                )));
            }
        }
        let taking = fields.flag("taking")?;
        if taking && attack.is_empty() {
            return Err(Error::usage(
                "taking: yes with nothing on the table: the defender takes the cards of a bout",
            ));
        }
        let shown = fields.flag("trump shown")?;
        let played = match fields.get("played") {
            Some(v) => v
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| seats.parse("played", w))
                .collect::<Result<Vec<_>>>()?,
            None if attack.is_empty() => Vec::new(),
            None => vec![attacker],
        };
        let opening = match fields.get("opening") {
            Some(v) => v
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&k| k >= 1 && k as usize <= attack.len())
                .ok_or_else(|| {
                    Error::usage(format!(
                        "opening: '{v}': give the cards of the bout's opening, 1 to the {} attack cards",
                        attack.len()
                    ))
                })?,
            None => u8::from(!attack.is_empty()),
        };
        let to_act = match fields.get("to act") {
            Some(v) => seats.parse("to act", v)?,
            None => me,
        };
        if out >> to_act & 1 == 1 {
            return Err(Error::usage(format!(
                "hands: seat {} is out, but it is to act: a player out of the game has no decision",
                to_act + 1
            )));
        }
        let swap_for = match fields.get("swap window") {
            Some(v) => {
                let tokens: Vec<&str> = v.split_whitespace().collect();
                let (c, next) = one_card("swap window", &tokens, 0)?;
                if next != tokens.len() {
                    return Err(Error::usage(format!(
                        "swap window: '{v}': give the one turned trump the lowest trump may still be swapped for"
                    )));
                }
                Some(c)
            }
            None => None,
        };
        let bouts = fields.number("bouts", 0, u32::MAX, 0)?;
        let moves = fields.number("moves", 0, u32::MAX, 0)?;
        let first_attacker = match fields.get("first attacker") {
            Some(v) => seats.parse("first attacker", v)?,
            None => attacker,
        };
        let dealer = match fields.get("dealer") {
            Some(v) => seats.parse("dealer", v)?,
            None => (first_attacker + n - 1) % n,
        };

        // Every card the player cannot place: the hidden places must hold exactly those.
        let unseen = deck & !places.seen & !hand;
        let hidden: u32 = (0..n)
            .filter(|&p| p != me)
            .map(|p| sizes[p].saturating_sub(count(known[p])))
            .sum::<u32>()
            + stock_len
            - u32::from(bottom.is_some());
        if count(unseen) != hidden {
            return Err(Error::usage(format!(
                "the cards do not add up: of the {}-card deck, {} are in your hand, {} are placed (known, discard, table, turned trump) and {} unseen, but the other hands and the stock hide {hidden}: check the hand sizes, the stock and the discard pile",
                rules.deck,
                count(hand),
                count(places.seen & !hand),
                count(unseen)
            )));
        }

        // Place the unseen cards in order (the deal for the view shuffles them afterwards).
        let mut pool = Cards(unseen);
        let mut hands = [0 as CardSet; MAX_PLAYERS];
        for p in 0..n {
            hands[p] = if p == me {
                hand
            } else {
                let mut h = known[p];
                for _ in count(known[p])..sizes[p] {
                    h |= pool.next().expect("counted").bit();
                }
                h
            };
        }
        let mut stock: Vec<Card> = bottom.into_iter().collect();
        stock.extend(pool);
        let setup = Setup {
            hands: &hands[..n],
            known: &known[..n],
            stock: &stock,
            turned,
            trump,
            discard,
            out,
            attacker,
            attack: &attack,
            defence: &defence,
            taking,
            shown,
            swap_for,
            played: &played,
            opening,
            to_act,
            bouts,
            moves,
            dealer,
            first_attacker,
        };
        let game = DurakState::at_position(*rules, &setup)
            .map_err(|e| Error::usage(format!("the position cannot be played: {e}")))?;
        if to_act == me {
            let legal = game.legal();
            if legal.count() == 1 && !legal.combos {
                return Err(Error::usage(format!(
                    "seat {} has one legal action ({}), which the engine plays itself: give the position after it",
                    me + 1,
                    Durak::action_name(legal.nth(0))
                )));
            }
        }
        Ok(DurakState::deal_for_view(&game.view(me), rng))
    }

    fn action_name(action: ActionOf<Self>) -> String {
        use super::engine::Action;
        match action {
            Action::Play(c) => format!("play {}", card_text(c)),
            Action::Open(s) => format!("open {}", cards_text(s)),
            Action::ThrowIn(s) => format!("throw in {}", cards_text(s)),
            Action::Transfer(c) => format!("transfer with {}", card_text(c)),
            Action::ShowTrump(c) => format!("transfer showing {}", card_text(c)),
            a => a.to_string(),
        }
    }
}

/// Seat numbers as written (from 1) for a table of `n`.
struct Seats {
    n: usize,
}

impl Seats {
    fn parse(&self, key: &str, text: &str) -> Result<Seat> {
        parse_seat(key, text, self.n, "clockwise")
    }
}

/// The cards the player sees outside their own hand, each in one place only.
struct Places {
    deck: CardSet,
    rules: Rules,
    seen: CardSet,
    /// Where each card was seen, for the message when it is seen again.
    place: Vec<(Card, String)>,
}

impl Places {
    fn new(rules: &Rules) -> Self {
        Places {
            deck: rules.deck_cards(),
            rules: *rules,
            seen: 0,
            place: Vec::new(),
        }
    }

    /// Records `c` as seen in `place`, refusing a card seen twice.
    fn card(&mut self, key: &str, c: Card, place: &str) -> Result<Card> {
        check_in_deck(key, c, self.deck, &self.rules)?;
        if self.seen & c.bit() != 0 {
            let before = self
                .place
                .iter()
                .find(|(d, _)| *d == c)
                .map(|(_, p)| p.as_str())
                .unwrap_or("elsewhere");
            return Err(Error::usage(format!(
                "{key}: {} is both {before} and {place}: each card is in one place",
                card_text(c)
            )));
        }
        self.seen |= c.bit();
        self.place.push((c, place.to_string()));
        Ok(c)
    }

    /// Records every card of `text` as seen in `place`.
    fn cards(&mut self, key: &str, text: &str, place: &str) -> Result<CardSet> {
        let spaced = text.replace(',', " ");
        let tokens: Vec<&str> = spaced.split_whitespace().collect();
        let mut set = 0;
        let mut i = 0;
        while i < tokens.len() {
            let (c, next) = one_card(key, &tokens, i)?;
            set |= self.card(key, c, place)?.bit();
            i = next;
        }
        Ok(set)
    }
}

/// A set of cards (each once) from `text`, all in the deck.
fn parse_cards(key: &str, text: &str, deck: CardSet, rules: &Rules) -> Result<CardSet> {
    let spaced = text.replace(',', " ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut set = 0;
    let mut i = 0;
    while i < tokens.len() {
        let (c, next) = one_card(key, &tokens, i)?;
        check_in_deck(key, c, deck, rules)?;
        if set & c.bit() != 0 {
            return Err(Error::usage(format!(
                "{key}: {} is listed twice: each card is in one place",
                card_text(c)
            )));
        }
        set |= c.bit();
        i = next;
    }
    Ok(set)
}

/// Refuses a card outside the deck (a 5 in the 36-card deck).
fn check_in_deck(key: &str, c: Card, deck: CardSet, rules: &Rules) -> Result<()> {
    if deck & c.bit() == 0 {
        return Err(Error::usage(format!(
            "{key}: {} is not in the {}-card deck (6 to ace): give deck=52 for the full deck",
            card_text(c),
            rules.deck
        )));
    }
    Ok(())
}

/// The card at `tokens[i]` (three tokens for a Spanish name, `as de picas`) and the index after
/// it.
fn one_card(key: &str, tokens: &[&str], i: usize) -> Result<(Card, usize)> {
    let named = |e: Error| Error::usage(format!("{key}: {e}"));
    if tokens.get(i + 1).is_some_and(|t| normalize(t) == "de") && i + 2 < tokens.len() {
        let name = tokens[i..i + 3].join(" ");
        return Ok((Card::parse(&name).map_err(named)?, i + 3));
    }
    match tokens.get(i) {
        Some(t) => Ok((Card::parse(t).map_err(named)?, i + 1)),
        None => Err(Error::usage(format!(
            "{key}: a card is missing after the last /"
        ))),
    }
}

/// A Durak match state is who deals: every game is dealt afresh, and the only thing a game
/// carries from the one before is the seat that deals it (the last durak, docs/rules.md) and with it
/// the first attacker (the dealer's left).
impl Matches for Durak {
    type Match = Option<Seat>;
    const MATCH_EXAMPLE: &'static str = "dealer: 2";
    const MATCH_FLAG: Option<&'static str> = None;

    fn read_match(rules: &Rules, text: &str) -> Result<Option<Seat>> {
        read_dealer(text, rules.players(), "a Durak", &["dealer"])
    }

    fn write_match(_rules: &Rules, m: &Option<Seat>) -> String {
        m.map_or(String::new(), |d| format!("dealer: {}", d + 1))
    }

    fn deal_from_match(
        rules: &Rules,
        m: &Option<Seat>,
        start: &Start,
        rng: &mut Stream,
    ) -> DurakState {
        let start = match m {
            None => *start,
            Some(d) => Start {
                dealer: Some(*d),
                first: Some((d + 1) % rules.players()),
                length: 0,
            },
        };
        DurakState::deal(rules, &start, rng)
    }

    fn equity_grid(_rules: &Rules) -> Vec<Option<Seat>> {
        Vec::new()
    }
}
