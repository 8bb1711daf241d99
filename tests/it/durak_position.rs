//! Durak positions (issue 23): every position written at every step of many games reads back to
//! the same view; bad positions are refused with one line naming what is wrong; and advice is
//! right where the answer is known — a move that wins at once is best at 100 %, take or beat,
//! transfer or beat, and two-player endgames with every card known match a minimax solution
//! written here (an exhaustive search over both hands, independent of the bots).

use std::collections::{HashMap, HashSet};
use std::fmt;

use rand_core::SeedableRng;
use tahur::games::durak::bots::Strategy as DurakStrategy;
use tahur::games::durak::cards::{Card, CardSet, Cards, FULL_36};
use tahur::games::durak::engine::{Action, Deal, DurakState, Phase, View};
use tahur::games::durak::rules::{Rules, Variant};
use tahur::games::durak::Durak;
use tahur::play::advise::{self, verdict, AdviceSetup, Verdict};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{Bot, Outcome, PlayerView, Seat, State, Strategy};
use tahur::rng::Stream;
use tahur::runner::{RunControl, RunSpec};

fn rng(seed: u64) -> Stream {
    Stream::seed_from_u64(seed)
}

fn rules(players: u8, changes: &str) -> Rules {
    let r = Rules::standard(Variant::Podkidnoy, players);
    if changes.is_empty() {
        r
    } else {
        tahur::play::GameRules::with_changes(&r, changes).unwrap()
    }
}

fn read(rules: &Rules, text: &str) -> tahur::error::Result<DurakState> {
    Durak::read_position(rules, text, &mut rng(7))
}

/// Writes every seat's view of `game`, reads it back and checks that the read game shows that
/// seat the same view (its Debug) and writes the same text, that the turn is the same, and that
/// the read game is whole (its invariants hold).
fn round_trip(game: &DurakState, what: &str) {
    let rules = *game.rules();
    for seat in 0..rules.players as usize {
        let view = game.view(seat);
        let text = Durak::write_position(&view);
        assert!(!text.contains('\n'), "{what}: one line: {text}");
        let back = Durak::read_position(&rules, &text, &mut rng(seat as u64))
            .unwrap_or_else(|e| panic!("{what}, seat {}: {e}\n{text}", seat + 1));
        back.check_invariants()
            .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(back.to_act(), game.to_act(), "{what}: {text}");
        let again = back.view(seat);
        assert_eq!(
            format!("{again:?}"),
            format!("{view:?}"),
            "{what}, seat {}: {text}",
            seat + 1
        );
        assert_eq!(Durak::write_position(&again), text, "{what}");
    }
}

/// The game `example` plays for `seed` at these rules, every step of it: the same deal, streams
/// and bots (checked against `example` at a few steps), without replaying from the start.
fn every_step(rules: &Rules, strategies: &[DurakStrategy], seed: u64) -> Vec<DurakState> {
    let mut chunk = tahur::rng::base_stream(seed);
    let (mut deal, mut decisions) = tahur::play::game_streams(&mut chunk);
    let mut game = DurakState::deal(rules, &tahur::play::Start::default(), &mut deal);
    let mut bots: Vec<_> = (0..rules.players as usize)
        .map(|s| strategies[s % strategies.len()].bot(rules))
        .collect();
    let mut steps = Vec::new();
    while !game.is_over() {
        steps.push(game.clone());
        let seat = game.to_act();
        let action = bots[seat].act(&game.view(seat), &mut decisions);
        game.apply(action, &mut deal).unwrap();
    }
    for after in [0, steps.len() / 2, steps.len() - 1] {
        let shown = example::<Durak, _>(rules, strategies, seed, after as u64).unwrap();
        assert_eq!(format!("{shown:?}"), format!("{:?}", steps[after]));
    }
    steps
}

#[test]
fn every_position_of_many_games_reads_back_to_the_same_view() {
    let tables: &[(u8, &str, &str)] = &[
        (2, "", "greedy"),
        (2, "", "expert,random"),
        (3, "", "expert,greedy,random"),
        (4, "", "random,greedy"),
        (4, "teams=2x2", "greedy,random"),
        (2, "variant=perevodnoy", "random,expert"),
        (
            3,
            "variant=perevodnoy,show-trump-transfer=on",
            "random,greedy",
        ),
        (
            4,
            "variant=perevodnoy,show-trump-transfer=on",
            "greedy,random",
        ),
        (3, "variant=platkowy", "random,greedy"),
        (3, "deck=52,hand=7,dealer-trump=on", "random,expert"),
        (
            5,
            "five-before-discard=on,last-cards=defender",
            "random,greedy",
        ),
        (6, "", "greedy"),
        (6, "teams=3x3,variant=perevodnoy", "random,greedy"),
        (6, "teams=2x2x2", "greedy,random"),
    ];
    let mut positions = 0;
    let mut phases = [0u32; 4];
    for &(players, changes, bots) in tables {
        let r = rules(players, changes);
        let strategies = DurakStrategy::parse_list(bots).unwrap();
        for seed in 0..2 {
            for (after, game) in every_step(&r, &strategies, seed).iter().enumerate() {
                round_trip(
                    game,
                    &format!("{players} players {changes} seed {seed} after {after}"),
                );
                positions += 1;
                phases[match game.phase() {
                    Phase::Attack => 0,
                    Phase::Defend => 1,
                    Phase::ThrowIn => 2,
                    _ => 3,
                }] += 1;
            }
        }
    }
    assert!(positions > 1500, "{positions} positions");
    assert!(
        phases.iter().all(|&k| k > 50),
        "every phase is met: {phases:?}"
    );
}

/// A three-player position (seat 2 defends 9D with a trump, two diamonds that beat it, and the
/// lowest trump it may swap for the turned 7S).
const THREE: &str = "variant: podkidnoy; seat: 2; hand: 6S 7D 9H JD KH AD; trump: 7S; stock: 14; hands: 5 6 6; discard: 10D 10C JC QD; table: 9D; attacker: 1; defender: 2; bouts: 1; moves: 4";

#[test]
fn a_typed_position_reads_as_typed() {
    let r = rules(3, "");
    let game = read(&r, THREE).unwrap();
    assert_eq!(position_of::<Durak>(&game), THREE);
    let names: Vec<String> = advise::legal_actions::<Durak>(&game)
        .into_iter()
        .map(Durak::action_name)
        .collect();
    assert_eq!(
        names,
        [
            "play 6S",
            "play JD",
            "play AD",
            "take",
            "swap the lowest trump"
        ]
    );
    // Spanish keys and card names, commas and spaces as players type them.
    let spanish = "variante: podkidnoy; asiento: 2; mano: seis de picas, 7D, nueve de corazones, JD KH, as de diamantes; triunfo: siete de picas; mazo: 14; manos: 5 6 6; descarte: 10C 10D JC QD; mesa: 9D; atacante: 1; rondas: 1; jugadas: 4";
    assert_eq!(position_of::<Durak>(&read(&r, spanish).unwrap()), THREE);
    // The unseen cards are dealt afresh for each stream, consistently with the text.
    let a = read(&r, THREE).unwrap();
    let b = Durak::read_position(&r, THREE, &mut rng(99)).unwrap();
    assert_ne!(a.hand(0), b.hand(0));
    assert_eq!(format!("{:?}", a.view(1)), format!("{:?}", b.view(1)));
    // The example of the help reads and is what `position --players 3 --seed 1 --after 17`
    // prints.
    let ex = example::<Durak, _>(&r, &DurakStrategy::parse_list("greedy").unwrap(), 1, 17).unwrap();
    assert_eq!(position_of::<Durak>(&ex), Durak::POSITION_EXAMPLE);
    read(&r, Durak::POSITION_EXAMPLE).unwrap();
}

#[test]
fn bad_positions_are_refused_in_one_line_naming_the_fault() {
    let r = rules(3, "");
    let with = |from: &str, to: &str| {
        assert!(THREE.contains(from), "{from}");
        THREE.replace(from, to)
    };
    let with2 = |a: (&str, &str), b: (&str, &str)| {
        assert!(THREE.contains(a.0) && THREE.contains(b.0), "{a:?} {b:?}");
        THREE.replace(a.0, a.1).replace(b.0, b.1)
    };
    let cases: Vec<(String, &str)> = vec![
        (with("hand: 6S", "hand: 9D"), "table: 9D is both in your hand and on the table"),
        (with("discard: 10D", "discard: 6S"), "discard: 6S is both in your hand and in the discard pile"),
        (with("trump: 7S", "trump: 6S"), "trump: 6S is both in your hand and under the stock (the turned trump)"),
        (with("hand: 6S", "hand: 5S"), "5S is not in the 36-card deck"),
        (with("hand: 6S", "hand: 6X"), "hand: invalid card '6X'"),
        (with("bouts: 1", "colour: red"), "unknown key 'colour' in the position"),
        (with("hand: 6S 7D 9H JD KH AD; ", ""), "the position has no 'hand'"),
        (with("moves: 4", "moves: 4; hand: 7H"), "'hand' is given twice"),
        (with("bouts: 1", "bouts 1"), "'bouts 1' in the position is not key: value"),
        (with("variant: podkidnoy", "variant: perevodnoy"), "variant: perevodnoy in the position, but the rules are podkidnoy"),
        (with("variant: podkidnoy", "variant: poker"), "variant: 'poker' in the position: use podkidnoy, perevodnoy or platkowy"),
        (with("bouts: 1", "rules: dealer-trump=on"), "the position's rules (dealer-trump=on) are not the table's (standard)"),
        (with("hands: 5 6 6", "hands: 5 6"), "gives 2 seats, but the rules are for 3 players"),
        (with("hands: 5 6 6", "hands: 5 5 7"), "seat 2 has 5 cards, but your hand lists 6"),
        (with("hands: 5 6 6", "hands: 5 6 six"), "hands: 'six' for seat 3: give a number of cards or out"),
        (with("hands: 5 6 6", "hands: 5 6 out"), "a seat is out while 14 cards are in the stock"),
        (with("stock: 14", "stock: 13"), "the cards do not add up"),
        (with("stock: 14", "stock: many"), "stock: 'many': give the number of cards left in it"),
        (with("trump: 7S", "trump: S"), "trump: S with 14 cards in the stock: name the turned card under it"),
        (with("trump: 7S", "trump: X"), "trump: 'X': give the turned card under the stock"),
        (with("table: 9D", "table: 9D/8D"), "8D does not beat 9D (trumps are S)"),
        (with("table: 9D", "table: 9D 9C/QC"), "9C is beaten after an unbeaten card"),
        (with2(("table: 9D", "table: 9D/QS 7C"), ("stock: 14", "stock: 12")), "7C matches no rank on the table"),
        (with("defender: 2", "defender: 3"), "defender: seat 3 cannot defend against seat 1: the defender is the next seat still in the game on the attacker's left, seat 2"),
        (with("attacker: 1; defender: 2", "attacker: 3"), "it is seat 1's turn, not seat 2's"),
        (with("seat: 2", "seat: 4"), "seat: '4' is not a seat: give 1 to 3"),
        (with("moves: 4", "moves: 4; known: seat 1 QH, seat 1 QS"), "known: seat 1 is given twice"),
        (with("moves: 4", "moves: 4; known: seat 2 QH"), "known: QH known in your hand, but your hand does not hold it"),
        (with("moves: 4", "moves: 4; known: seat 1 QH KS AS AC 8C 8D"), "known: 6 cards known in seat 1's hand of 5"),
        (with("moves: 4", "moves: 4; taking: maybe"), "taking: 'maybe': use yes or no"),
        (with2(("table: 9D; ", ""), ("stock: 14", "stock: 15")), "the position cannot be played: it is seat 1's turn, not seat 2's"),
    ];
    for (text, words) in &cases {
        let e = match read(&r, text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        };
        let msg = e.to_string();
        assert!(matches!(e, tahur::error::Error::Usage(_)), "{msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
        assert!(
            msg.contains(words),
            "{text}\n  gave: {msg}\n  want: {words}"
        );
    }
    // A defender who can only take has no decision: the engine takes for them.
    let only = "variant: podkidnoy; seat: 2; hand: 6D 7D; trump: S; stock: 0; hands: 3 2; discard: 6S 6H 6C 7S 7H 7C 8S 8H 8C 9S 9H 9C 10S 10H 10D 10C JS JH JC QS QH QD QC KS KH KD KC AS AH AC; table: 9D; attacker: 1; defender: 2";
    let msg = read(&rules(2, ""), only).unwrap_err().to_string();
    assert!(
        msg.contains("seat 2 has one legal action (take), which the engine plays itself"),
        "{msg}"
    );
    // The stock is gone: no card lies turned.
    let gone = only
        .replace("trump: S", "trump: 7S")
        .replace("7S 7H 7C", "7H 7C");
    let msg = read(&rules(2, ""), &gone).unwrap_err().to_string();
    assert!(msg.contains("trump: 7S: the stock is empty, so no card lies turned under it: give the suit, trump: S"), "{msg}");
}

/// How the search chooses at each decision of a two-player endgame with every card known.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// The advised seat maximises its value, the other seat minimises it: the value the
    /// advised seat can make sure of (minimax).
    Minimax,
    /// Every seat minimises the advised seat's value: its worst case over all play.
    Worst,
    /// Every seat maximises it: its best case over all play.
    Best,
}

/// The state of a two-player endgame that decides its value (the discard pile is the rest of
/// the deck; the stock is empty, so refill order does not matter): both hands, the attack and
/// defence cards in order (6 bits each), and the phase, roles, turn, who is out and whether a
/// trump was shown.
type Key = (CardSet, CardSet, u64, u64, u64);

fn key(g: &DurakState) -> Key {
    let phase = match g.phase() {
        Phase::Attack => 0,
        Phase::Defend => 1,
        Phase::ThrowIn => 2,
        Phase::Taking => 3,
        Phase::Over => 4,
    };
    let pack = |cards: &[Card]| {
        cards
            .iter()
            .fold(cards.len() as u64, |k, c| k << 6 | u64::from(c.0))
    };
    let small = phase
        | (g.attacker() as u64) << 3
        | (g.to_act() as u64) << 6
        | u64::from(g.out()) << 9
        | u64::from(g.view(0).shown()) << 17;
    (
        g.hand(0),
        g.hand(1),
        pack(g.attack_cards()),
        pack(g.defence_cards()),
        small,
    )
}

/// A quick hasher for the search's keys (multiply and rotate; the keys are not adversarial).
#[derive(Default)]
struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type QuickMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<QuickHasher>>;
type QuickSet<K> = HashSet<K, std::hash::BuildHasherDefault<QuickHasher>>;

/// An exhaustive search over both hands of a two-player endgame (stock empty, every card
/// known), independent of the bots: the engine gives the legal actions and their effect, the
/// search tries every one. Values in advice's half points for the advised seat: 2 not the
/// durak (a draw included), 0 the durak.
struct Solver {
    advised: Seat,
    mode: Mode,
    memo: QuickMap<Key, i64>,
    /// The states on the path searched now.
    path: QuickSet<Key>,
    /// Whether some line of play came back to a state it had left (perevodnoy's transfers and
    /// takes can go round forever) or ran past 200 actions: such endgames are left out.
    unsolved: bool,
}

impl Solver {
    fn new(advised: Seat, mode: Mode) -> Self {
        Solver {
            advised,
            mode,
            memo: QuickMap::default(),
            path: QuickSet::default(),
            unsolved: false,
        }
    }

    fn value(&mut self, g: &DurakState, depth: u32) -> i64 {
        if g.is_over() {
            assert_ne!(g.outcome(), Some(Outcome::Capped), "a capped endgame");
            return advise::rollout_value::<Durak>(g, self.advised);
        }
        let k = key(g);
        if let Some(&v) = self.memo.get(&k) {
            return v;
        }
        if depth > 200 || !self.path.insert(k) {
            self.unsolved = true;
            return 1;
        }
        let values = self.action_values(g, depth);
        self.path.remove(&k);
        let maximise = match self.mode {
            Mode::Minimax => g.to_act() == self.advised,
            Mode::Worst => false,
            Mode::Best => true,
        };
        let v = if maximise {
            values.iter().map(|x| x.1).max()
        } else {
            values.iter().map(|x| x.1).min()
        }
        .expect("a legal action");
        self.memo.insert(k, v);
        v
    }

    /// Every legal action with the value after it.
    fn action_values(&mut self, g: &DurakState, depth: u32) -> Vec<(Action, i64)> {
        // Durak has no chance events after the deal: any stream will do for `apply`.
        let mut no_chance = rng(0);
        advise::legal_actions::<Durak>(g)
            .into_iter()
            .map(|a| {
                let mut next = g.clone();
                next.apply(a, &mut no_chance).unwrap();
                (a, self.value(&next, depth + 1))
            })
            .collect()
    }
}

/// The minimax player as a strategy for advice's rollouts: the advised seat plays its best, the
/// other seat plays against it. It sees only its view; in these endgames that is every card.
#[derive(Clone, Debug, PartialEq)]
struct Minimax {
    advised: Seat,
}

impl fmt::Display for Minimax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "minimax for seat {}", self.advised + 1)
    }
}

struct MinimaxBot(Solver);

impl Strategy<Durak> for Minimax {
    type Bot = MinimaxBot;
    fn parse(text: &str) -> tahur::error::Result<Self> {
        Err(tahur::error::Error::usage(format!(
            "no strategy '{text}' here"
        )))
    }
    fn bot(&self, _rules: &Rules) -> MinimaxBot {
        MinimaxBot(Solver::new(self.advised, Mode::Minimax))
    }
}

impl Bot<Durak> for MinimaxBot {
    fn act(&mut self, view: &View<'_>, _rng: &mut Stream) -> Action {
        assert!(
            view.players() == 2 && view.stock_len() == 0,
            "not an open endgame"
        );
        // Every card is known: the deal for the view is the game itself.
        let game = DurakState::deal_for_view(view, &mut rng(0));
        let seat = view.seat();
        let values = self.0.action_values(&game, 0);
        // The first of the best for the seat (the advised seat's highest value, the other's
        // lowest).
        let sign = if seat == self.0.advised { 1 } else { -1 };
        let mut pick = values[0];
        for &x in &values[1..] {
            if sign * x.1 > sign * pick.1 {
                pick = x;
            }
        }
        pick.0
    }
}

fn spec(samples: u64) -> RunSpec {
    RunSpec {
        samples,
        seed: 5,
        chunk_size: advise::CHUNK,
    }
}

fn control() -> RunControl {
    RunControl {
        threads: Some(2),
        progress: tahur::progress::Progress::hidden(),
    }
}

/// Advice at `game` (read back from its written position, so the notation is what is checked)
/// with `bots`.
fn advice<S: Strategy<Durak>>(
    game: &DurakState,
    bots: Vec<S>,
    samples: u64,
) -> advise::Advice<Action> {
    let text = position_of::<Durak>(game);
    let position = read(game.rules(), &text).unwrap();
    let setup = AdviceSetup { position, bots };
    advise::run(&setup, &spec(samples), None, &control()).unwrap()
}

/// Random two-player endgames: stock empty, the rest discarded, every card known to both;
/// each walked a few random legal actions into its first bouts. Every decision with a choice.
fn endgames(variant: &str, count_wanted: usize, seed: u64) -> Vec<DurakState> {
    use rand_core::Rng;
    let r = rules(2, variant);
    let mut s = rng(seed);
    let mut out = Vec::new();
    while out.len() < count_wanted {
        let sizes = [1 + s.next_u32() % 4, 1 + s.next_u32() % 4];
        // Perevodnoy: cards of three ranks only, so that transfers come up.
        let mut ranks: Vec<u8> = (4..13).collect();
        for i in (1..ranks.len()).rev() {
            ranks.swap(i, tahur::rng::uniform_below(&mut s, i + 1));
        }
        let mut deck: Vec<Card> = Cards(FULL_36)
            .filter(|c| !variant.contains("perevodnoy") || ranks[..3].contains(&c.rank()))
            .collect();
        tahur::games::durak::engine::shuffle(&mut deck, &mut s);
        let h0 = deck[..sizes[0] as usize].iter().fold(0, |m, c| m | c.bit());
        let h1 = deck[sizes[0] as usize..(sizes[0] + sizes[1]) as usize]
            .iter()
            .fold(0, |m, c| m | c.bit());
        let discard = FULL_36 & !h0 & !h1;
        let Ok(mut g) = DurakState::from_deal(
            r,
            &Deal {
                hands: &[h0, h1],
                stock: &[],
                discard,
                trump: Some((s.next_u32() % 4) as u8),
                first_attacker: (s.next_u32() % 2) as usize,
            },
        ) else {
            continue;
        };
        // Perevodnoy: mostly the defence of an opening, where transfers are.
        let walk = if variant.contains("perevodnoy") && !s.next_u32().is_multiple_of(3) {
            1
        } else {
            s.next_u32() % 4
        };
        for _ in 0..walk {
            if g.is_over() {
                break;
            }
            let legal = advise::legal_actions::<Durak>(&g);
            let a = legal[(s.next_u32() as usize) % legal.len()];
            g.apply(a, &mut rng(0)).unwrap();
        }
        if !g.is_over() && advise::legal_actions::<Durak>(&g).len() >= 2 {
            out.push(g);
        }
    }
    out
}

#[test]
fn open_endgames_match_a_minimax_solution() {
    let (mut positions, mut decided, mut transfers) = (0, 0, 0);
    for (variant, seed) in [("", 1), ("variant=perevodnoy", 2)] {
        for g in endgames(variant, 80, seed) {
            let me = g.to_act();
            let mut solver = Solver::new(me, Mode::Minimax);
            let expected = solver.action_values(&g, 0);
            if solver.unsolved {
                continue;
            }
            positions += 1;
            let a = advice(&g, vec![Minimax { advised: me }], 8);
            assert_eq!(
                a.actions,
                expected.iter().map(|x| x.0).collect::<Vec<_>>(),
                "{}",
                position_of::<Durak>(&g)
            );
            for (i, &(action, v)) in expected.iter().enumerate() {
                let c = a.tally.chance(i);
                assert_eq!(
                    (c.mean, c.sd),
                    (v as f64 / 2.0, 0.0),
                    "{action} in {}",
                    position_of::<Durak>(&g)
                );
            }
            let best = expected.iter().map(|x| x.1).max().unwrap();
            assert_eq!(expected[a.tally.best()].1, best);
            if expected.iter().any(|x| x.1 != best) {
                decided += 1;
                if expected.iter().any(|x| matches!(x.0, Action::Transfer(_))) {
                    transfers += 1;
                }
                let ties: Vec<usize> = (0..expected.len())
                    .filter(|&j| j != a.tally.best() && expected[j].1 == best)
                    .collect();
                let want = if ties.is_empty() {
                    Verdict::ClearlyBest
                } else {
                    Verdict::WithinNoiseOf(ties)
                };
                assert_eq!(verdict(&a.tally), want);
            }
        }
    }
    assert!(
        positions >= 80 && decided >= 30 && transfers >= 5,
        "{positions} endgames, only {decided} where the choice matters, {transfers} with a transfer"
    );
}

/// The action of `g` that wins whatever anyone plays after it, when every other action loses
/// whatever anyone plays after it (by exhaustive search); `None` otherwise or when the search
/// cannot settle it.
fn clear_choice(g: &DurakState) -> Option<usize> {
    let me = g.to_act();
    let mut worst = Solver::new(me, Mode::Worst);
    let mut best = Solver::new(me, Mode::Best);
    let low = worst.action_values(g, 0);
    let high = best.action_values(g, 0);
    if worst.unsolved || best.unsolved {
        return None;
    }
    let winners: Vec<usize> = (0..low.len()).filter(|&i| low[i].1 == 2).collect();
    let losers = (0..high.len()).filter(|&i| high[i].1 == 0).count();
    (winners.len() == 1 && losers == low.len() - 1).then(|| winners[0])
}

/// The names of the actions advice compares, with each one's chance.
fn chances(a: &advise::Advice<Action>) -> Vec<(String, f64)> {
    (0..a.actions.len())
        .map(|i| (Durak::action_name(a.actions[i]), a.tally.chance(i).mean))
        .collect()
}

/// Advice at a typed position, the rest of the game played by `bots`.
fn advise_text<S: Strategy<Durak>>(
    r: &Rules,
    text: &str,
    bots: Vec<S>,
    samples: u64,
) -> advise::Advice<Action> {
    let position = read(r, text).unwrap();
    let setup = AdviceSetup { position, bots };
    advise::run(&setup, &spec(samples), None, &control()).unwrap()
}

fn rollout_bots() -> Vec<DurakStrategy> {
    DurakStrategy::parse_list(Durak::ROLLOUT_BOTS).unwrap()
}

#[test]
fn a_move_that_wins_at_once_is_best_with_100_percent() {
    // Three players, the stock gone, seat 2 holds one card, the 9H, against seat 1's 7H: beating
    // with it leaves seat 2 without cards (nobody may throw in on an empty hand), out of the
    // game and safe. Taking keeps it in. The others' seven cards are unseen and dealt afresh
    // for every rollout.
    let text = "variant: podkidnoy; seat: 2; hand: 9H; trump: S; stock: 0; hands: 3 1 4; discard: 6H 6D 6C 7S 7D 7C 8S 8H 8D 9S 9D 9C 10H 10D 10C JS JH JC QS QD QC KS KH KC AS AH AD; table: 7H; attacker: 1; defender: 2";
    let a = advise_text(&rules(3, ""), text, rollout_bots(), 640);
    let c = chances(&a);
    assert_eq!(c[0], ("play 9H".to_string(), 1.0), "{c:?}");
    assert_eq!(c[1].0, "take");
    assert!(c[1].1 < 0.9, "{c:?}");
    assert_eq!(a.tally.best(), 0);
    assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
    assert_eq!(a.run.samples_done, 640);
}

/// Checks advice at `text` (two players, every card known) with the minimax player and, where
/// the search finds the choice clear, with the rollout bots: `best` at 100 %, every other
/// action at 0 %.
fn known_answer(variant: &str, text: &str, best: &str, clear: bool) {
    let r = rules(2, variant);
    let game = read(&r, text).unwrap();
    let me = game.to_act();
    let a = advise_text(&r, text, vec![Minimax { advised: me }], 8);
    let c = chances(&a);
    for (name, chance) in &c {
        let want = if name == best { 1.0 } else { 0.0 };
        assert_eq!(*chance, want, "{name} in {c:?}");
    }
    assert_eq!(Durak::action_name(a.actions[a.tally.best()]), best);
    assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
    assert_eq!(
        clear_choice(&game).map(|i| Durak::action_name(a.actions[i])),
        clear.then(|| best.to_string())
    );
    if clear {
        let e = advise_text(&r, text, rollout_bots(), 64);
        assert_eq!(chances(&e), c, "the rollout bots see it too");
    }
}

#[test]
fn take_or_beat() {
    // Beat: the king of trumps beats the 9S and seat 2, with one card left, cannot keep up.
    known_answer(
        "",
        "variant: podkidnoy; seat: 1; hand: JC KH; trump: H; stock: 0; hands: 2 1; discard: 6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9H 9D 9C 10S 10H 10D 10C JS JH JD QS QH QC KS KD KC AS AH AD AC; table: 9S; attacker: 2; defender: 1; moves: 1",
        "play KH",
        true,
    );
    // Take: beating with the 10S lets seat 2 throw in the 10H, which the KC cannot beat; taking
    // the 8S alone keeps the trump 10 for later.
    known_answer(
        "",
        "variant: podkidnoy; seat: 1; hand: 10S KC; trump: S; stock: 0; hands: 2 3; discard: 6S 6H 6D 6C 7S 7H 7D 7C 8H 8D 8C 9S 9H 9D 9C 10D 10C JS JH JD JC QS QH QD KS KH KD AH AD AC; table: 8S; attacker: 2; defender: 1; moves: 1",
        "take",
        false,
    );
}

#[test]
fn transfer_or_beat() {
    // Transfer: the 10C passes the 10S on to seat 1, who must answer two tens.
    known_answer(
        "variant=perevodnoy",
        "variant: perevodnoy; seat: 2; hand: 10C QS; trump: H; stock: 0; hands: 2 2; discard: 6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C 10H JS JH JD JC QH QD QC KH KD KC AS AH AD AC; table: 10S; attacker: 1; defender: 2; moves: 1; dealer: 1",
        "transfer with 10C",
        false,
    );
    // Beat: the 9S beats the 7S; transferring with the 7D (or beating with it, a trump) loses.
    known_answer(
        "variant=perevodnoy",
        "variant: perevodnoy; seat: 1; hand: 7D 9S JH; trump: D; stock: 0; hands: 3 2; discard: 6S 6H 6D 6C 8S 8H 8D 8C 9H 9D 9C 10S 10H 10D 10C JS JD JC QS QH QD QC KS KH KD KC AS AH AD AC; table: 7S; attacker: 2; defender: 1; moves: 1",
        "play 9S",
        false,
    );
    // Transfer with the jack, or take: passing the JD on wins whatever anyone plays.
    known_answer(
        "variant=perevodnoy",
        "variant: perevodnoy; seat: 2; hand: JS KS; trump: H; stock: 0; hands: 2 2; discard: 6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C 10S 10H 10D JC QS QH QD QC KH KD KC AS AH AD AC; table: JD; attacker: 1; defender: 2; moves: 1; dealer: 1",
        "transfer with JS",
        true,
    );
}

#[test]
fn clear_endgames_are_advised_right_by_the_rollout_bots() {
    // Where one action wins whatever anyone plays after it and every other loses whatever
    // anyone plays, the rollout bots cannot miss it.
    let mut found = 0;
    for (variant, seed) in [("", 3), ("variant=perevodnoy", 4)] {
        for g in endgames(variant, 120, seed) {
            let Some(i) = clear_choice(&g) else {
                continue;
            };
            found += 1;
            let a = advice(&g, rollout_bots(), 8);
            for j in 0..a.actions.len() {
                let want = if j == i { 1.0 } else { 0.0 };
                assert_eq!(a.tally.chance(j).mean, want, "{}", position_of::<Durak>(&g));
            }
            assert_eq!(a.tally.best(), i);
            assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
        }
    }
    assert!(found >= 15, "only {found} clear endgames");
}

#[test]
fn the_swap_window_after_the_last_draw_reads_back() {
    // Seat 1 beats seat 0's 7♠ and the refill empties the stock, the turned K♥ going to seat 1:
    // seat 0, holding the 6♥, is asked whether to swap before seat 1 leads.
    let r = rules(2, "");
    let card = |s: &str| Card::parse(s).unwrap();
    let set = |s: &str| s.split(',').fold(0, |m, x| m | card(x).bit());
    let hands = [set("6H,7S,9S,10S,JS,QS"), set("8S,7D,8D,9D,10D,JD")];
    let used = hands[0] | hands[1] | set("KH,AS");
    let mut g = DurakState::from_deal(
        r,
        &Deal {
            hands: &hands,
            stock: &[card("KH"), card("AS")],
            discard: FULL_36 & !used,
            trump: None,
            first_attacker: 0,
        },
    )
    .unwrap();
    g.apply(Action::Play(card("7S")), &mut rng(0)).unwrap();
    g.apply(Action::Play(card("8S")), &mut rng(0)).unwrap();
    assert!(g.legal().swap && g.to_act() == 0);
    let text = position_of::<Durak>(&g);
    assert!(text.contains("swap window: KH"), "{text}");
    round_trip(&g, "the swap window");
    // The window names a turned trump known in another hand than the lowest trump's.
    let bad = text.replace("swap window: KH", "swap window: 9S");
    assert!(read(&r, &bad).is_err());
}
