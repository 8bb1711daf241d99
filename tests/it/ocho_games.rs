//! Ocho loco engine, bots and exact figures: every rule checked at every step of random games by
//! an independent referee (over random seeds and every house rule, as property tests), scripted
//! positions for each special card and flag, the random play-out against the random bots move by
//! move, threads and shards, the deal's exact odds against big-integer counting and simulated
//! deals, the parsers over arbitrary strings, and the game loops allocating nothing.

use crate::allocations;
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use rand_core::SeedableRng;
use tahur::games::ocho::bots::{Bot, Kind, Strategy};
use tahur::games::ocho::cards::{count, show, Card, CardSet, Cards, JOKERS, ONE_DECK};
use tahur::games::ocho::deal::{DealFacts, DealSimulation};
use tahur::games::ocho::engine::{Action, Phase};
use tahur::games::ocho::rules::{FirstCard, JokerRule, PlayAgain, Rules};
use tahur::games::ocho::value::{ValueSetup, ValueSimulation, KINDS};
use tahur::games::ocho::{Counter, Ocho, OchoState};
use tahur::play::sim::GameSimulation;
use tahur::play::{GameRules, Seat, Start, State, TableSetup};
use tahur::rng::{base_stream, Stream};
use tahur::runner::{run, RunControl, RunSpec, Shard, Simulation, Tally};

fn c(s: &str) -> Card {
    Card::parse(s).unwrap()
}

fn set(s: &str) -> CardSet {
    s.split_whitespace().fold(0, |m, x| m | c(x).bit())
}

// ------------------------------------------------------------------------------------------
// The referee: docs/rules.md §5 as seen from outside the engine, written apart from it.

const EIGHT: u8 = 7;
const THREE: u8 = 2;

/// What plays on the top card in a normal turn, from the rules' text.
fn may_follow(rules: &Rules, card: Card, suit: u8, value: u8) -> bool {
    if card.is_joker() {
        return rules.joker == JokerRule::Any || value == THREE;
    }
    card.rank() == EIGHT || card.suit() == suit || card.rank() == value
}

fn is_answer(rules: &Rules, card: Card) -> bool {
    card.is_joker() || card.rank() == THREE || rules.eight_answers && card.rank() == EIGHT
}

/// The next seat holding cards after `seat`, walking seat by seat.
fn walk(active: &[bool], seat: usize, left: bool) -> usize {
    let n = active.len();
    let mut s = seat;
    loop {
        s = if left { (s + n - 1) % n } else { (s + 1) % n };
        if active[s] {
            return s;
        }
    }
}

/// The public facts before an action.
#[derive(Clone, Debug)]
struct Seen {
    to_act: usize,
    phase: Phase,
    pending: u16,
    suit: u8,
    value: u8,
    reversed: bool,
    sizes: Vec<u32>,
    hand: CardSet,
    out: usize,
}

fn seen(g: &OchoState) -> Seen {
    let n = g.rules().players as usize;
    Seen {
        to_act: g.to_act(),
        phase: g.phase(),
        pending: g.pending(),
        suit: g.suit(),
        value: g.value(),
        reversed: g.reversed(),
        sizes: (0..n).map(|s| count(g.hand(s))).collect(),
        hand: g.hand(g.to_act()),
        out: g.out_so_far().len(),
    }
}

/// Checks one action against the rules, from the facts before and after it.
fn referee(rules: &Rules, before: &Seen, action: Action, g: &OchoState) -> Result<(), String> {
    let p = before.to_act;
    let n = before.sizes.len();
    let after = seen(g);
    let active_after: Vec<bool> = after.sizes.iter().map(|&k| k > 0).collect();
    let over = g.is_over();
    match action {
        Action::Play { card, suit, silent } => {
            if before.hand & card.bit() == 0 {
                return Err(format!("{card} is not in the hand"));
            }
            let allowed = match before.phase {
                Phase::Turn | Phase::Again => may_follow(rules, card, before.suit, before.value),
                Phase::Stack => is_answer(rules, card),
                Phase::Drawn | Phase::StackDrawn => true,
                Phase::Over => false,
            };
            if !allowed {
                return Err(format!("{card} played in {:?}", before.phase));
            }
            let left = before.sizes[p] - 1;
            if silent && left != 1 {
                return Err("«voy por una» owed without one card left".into());
            }
            // Three cards' penalty for a forgotten «voy por una» (fewer only if the stock and the
            // played cards ran out).
            let size_ok = if silent {
                (left..=left + 3).contains(&after.sizes[p])
            } else {
                after.sizes[p] == left
            };
            if !size_ok {
                return Err(format!("hand of {} after the play", after.sizes[p]));
            }
            let r = card.rank();
            let stack_before = matches!(before.phase, Phase::Stack | Phase::StackDrawn);
            let expected_pending = if card.is_joker() || r == THREE {
                before.pending + 3
            } else if r == EIGHT && stack_before {
                0
            } else {
                before.pending
            };
            if !over && after.pending != expected_pending {
                return Err(format!(
                    "pending {} after {card} on {}",
                    after.pending, before.pending
                ));
            }
            if !over {
                let expected_suit = if card.is_joker() {
                    before.suit
                } else if r == EIGHT && left > 0 {
                    suit
                } else {
                    card.suit()
                };
                if after.suit != expected_suit {
                    return Err(format!("suit {} after {card}", after.suit));
                }
                let in_after = active_after[p];
                let players_in = active_after.iter().filter(|&&a| a).count();
                let (next, reversed) = match r {
                    0 if in_after => (p, before.reversed),
                    1 => {
                        let skipped = walk(&active_after, p, before.reversed);
                        (
                            walk(&active_after, skipped, before.reversed),
                            before.reversed,
                        )
                    }
                    10 | 12 if in_after && players_in == 2 => (p, before.reversed),
                    10 | 12 => (walk(&active_after, p, !before.reversed), !before.reversed),
                    _ => (walk(&active_after, p, before.reversed), before.reversed),
                };
                if g.to_act() != next || g.reversed() != reversed {
                    return Err(format!(
                        "seat {} acts (reversed {}) after seat {p} played {card}; expected {next} ({reversed})",
                        g.to_act(),
                        g.reversed()
                    ));
                }
                let stacked = matches!(g.phase(), Phase::Stack);
                if stacked != (expected_pending > 0) {
                    return Err(format!(
                        "phase {:?} with {expected_pending} pending",
                        g.phase()
                    ));
                }
                // Playing again is a right (a card or a pass) unless the house rule makes it a
                // normal turn.
                let again = r == 0 || matches!(r, 10 | 12) && players_in == 2;
                let right = in_after && again && rules.play_again == PlayAgain::May;
                if !stacked && right != (g.phase() == Phase::Again) {
                    return Err(format!(
                        "phase {:?} when seat {p} plays again after {card}",
                        g.phase()
                    ));
                }
            }
            if left == 0 && g.out_so_far().len() != before.out + 1 {
                return Err("a player without cards is not out".into());
            }
        }
        Action::Draw => {
            if before.phase != Phase::Turn {
                return Err("drew outside a turn".into());
            }
            if Cards(before.hand).any(|x| may_follow(rules, x, before.suit, before.value)) {
                return Err("drew holding a playable card".into());
            }
            let new = g.hand(p) & !before.hand;
            match g.drawn() {
                Some(d) if g.to_act() == p => {
                    if !may_follow(rules, d, before.suit, before.value) {
                        return Err(format!("stopped drawing at {d}, which does not play"));
                    }
                    if let Some(x) = Cards(new & !d.bit())
                        .find(|&x| may_follow(rules, x, before.suit, before.value))
                    {
                        return Err(format!("drew past a playable {x}"));
                    }
                }
                _ if over => {} // The draw reached the action cap.
                _ => {
                    // Nothing playable came before the cards ran out: the turn passed.
                    if Cards(new).any(|x| may_follow(rules, x, before.suit, before.value)) {
                        return Err("drew a playable card and passed".into());
                    }
                    // A reshuffle leaves the top card and, under a joker, the card that sets the
                    // suit.
                    let kept = g.top().bit() | g.suit_card().bit();
                    if g.stock().len() + count(g.pile() & !kept) as usize > 0 && !over {
                        return Err("stopped drawing with cards left".into());
                    }
                }
            }
        }
        Action::Take => {
            let drew = after.sizes[p] - before.sizes[p];
            match before.phase {
                Phase::Stack => {
                    if g.phase() == Phase::StackDrawn && g.to_act() == p {
                        let d = g.drawn().unwrap();
                        if drew != 1 || !(d.is_joker() || d.rank() == THREE) {
                            return Err(format!("may answer with a drawn {d} ({drew} drawn)"));
                        }
                        // «En caso de que alguien no tenga un 3»: only without an answer.
                        if Cards(before.hand).any(|x| is_answer(rules, x)) {
                            return Err(format!(
                                "took holding an answer, and may still answer with a drawn {d}"
                            ));
                        }
                    } else if drew > before.pending as u32 {
                        return Err(format!("took {drew} of {}", before.pending));
                    }
                }
                Phase::StackDrawn => {
                    if drew > before.pending as u32 - 1 {
                        return Err(format!("took {drew} more of {}", before.pending));
                    }
                }
                _ => return Err("took outside a stack".into()),
            }
            if g.phase() != Phase::StackDrawn && !over {
                let expected = walk(&active_after, p, before.reversed);
                if g.to_act() != expected || g.pending() != 0 {
                    return Err(format!(
                        "after taking, seat {} acts with {} pending; expected {expected}",
                        g.to_act(),
                        g.pending()
                    ));
                }
            }
        }
        Action::Pass => {
            let keeps = before.phase == Phase::Drawn && rules.keep_drawn;
            let stuck = before.phase == Phase::Turn
                && !Cards(before.hand).any(|x| may_follow(rules, x, before.suit, before.value));
            let declines = before.phase == Phase::Again;
            if !keeps && !stuck && !declines {
                return Err(format!("passed in {:?}", before.phase));
            }
        }
    }
    if n != after.sizes.len() {
        return Err("the table changed size".into());
    }
    Ok(())
}

/// Plays one game, checking after every action the engine's invariants (cards conserved,
/// legal actions fresh, …), that the action was in the legal list, and the referee.
fn play_checked(rules: Rules, strategies: &[Strategy], seed: u64) -> OchoState {
    let mut deal = base_stream(seed);
    let mut decisions = base_stream(seed ^ 0xABCD);
    let mut g = OchoState::deal(&rules, &Start::default(), &mut deal);
    g.check_invariants().unwrap();
    let n = rules.players as usize;
    let mut bots: Vec<Bot> = (0..n)
        .map(|s| Bot::new(strategies[s % strategies.len()]))
        .collect();
    let mut legal = Vec::new();
    while !g.is_over() {
        let s = g.to_act();
        let a = bots[s].act(&g.view(s), &mut decisions);
        g.legal_actions(&mut legal);
        let unsaid = match a {
            Action::Play { card, suit, .. } => Action::Play {
                card,
                suit,
                silent: false,
            },
            x => x,
        };
        assert!(
            legal.contains(&unsaid),
            "seed {seed}: {a} is not among {legal:?} ({:?})",
            g.phase()
        );
        let before = seen(&g);
        g.apply(a, &mut deal).unwrap();
        if let Err(e) = g.check_invariants() {
            panic!("seed {seed}: after {a}: {e}");
        }
        if let Err(e) = referee(&rules, &before, a, &g) {
            panic!("seed {seed}: {rules:?}: {a} by seat {s}: {e}");
        }
    }
    assert!(g.is_capped() || g.finishing_order().is_some());
    assert!(g.actions() <= rules.max_actions);
    g
}

fn all_strategies() -> Vec<Strategy> {
    vec![
        Strategy::of(Kind::Random),
        Strategy::of(Kind::Greedy),
        Strategy::of(Kind::Expert),
        Strategy {
            kind: Kind::Greedy,
            forget: 0.5,
        },
        Strategy {
            kind: Kind::Random,
            forget: 1.0,
        },
    ]
}

#[test]
fn random_games_keep_every_rule() {
    for (i, players) in [2u8, 3, 4, 5, 6, 8, 10].into_iter().enumerate() {
        for seed in 0..6 {
            let list = all_strategies();
            let g = play_checked(Rules::standard(players), &list, 100 * i as u64 + seed);
            let order: Option<Vec<Seat>> = g.finishing_order().map(Iterator::collect);
            if let Some(mut sorted) = order {
                sorted.sort_unstable();
                assert_eq!(sorted, (0..players as Seat).collect::<Vec<_>>());
                // Only the last player holds cards.
                let last = g.last_place().unwrap();
                for s in 0..players as Seat {
                    assert_eq!(g.hand(s) != 0, s == last);
                }
            }
        }
    }
}

fn arb_rules() -> impl proptest::strategy::Strategy<Value = Rules> {
    (
        2u8..=10,
        prop_oneof![Just(None), Just(Some(1u8)), Just(Some(2u8))],
        prop_oneof![Just(8u8), 1u8..=12],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(5_000u32), 10u32..400],
    )
        .prop_map(
            |(players, decks, hand, joker, eight, acts, keep, max_actions)| {
                let mut r = Rules::standard(players);
                if let Some(d) = decks {
                    r.decks = d;
                }
                r.hand = hand;
                r.joker = if joker {
                    JokerRule::Three
                } else {
                    JokerRule::Any
                };
                r.eight_answers = eight;
                r.first_card = if acts {
                    FirstCard::Acts
                } else {
                    FirstCard::Plain
                };
                r.keep_drawn = keep;
                r.max_actions = max_actions;
                // Tables that do not fit the decks: the next smaller hand that fits.
                while r.validate().is_err() && r.hand > 1 {
                    r.hand -= 1;
                }
                if r.validate().is_err() {
                    r.decks = 2;
                }
                r
            },
        )
}

fn arb_strategies() -> impl proptest::strategy::Strategy<Value = Vec<Strategy>> {
    prop::collection::vec(
        (
            prop_oneof![Just(Kind::Random), Just(Kind::Greedy), Just(Kind::Expert)],
            prop_oneof![Just(0.0), Just(1.0), 0.0..1.0f64],
        )
            .prop_map(|(kind, forget)| Strategy { kind, forget }),
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any rules, any bots, any seed: cards conserved (54 or 108), only legal plays, stacks,
    /// skips and reverses as the rules say, and every game ends or is capped.
    #[test]
    fn any_rules_any_bots(rules in arb_rules(), strategies in arb_strategies(), seed in any::<u64>()) {
        prop_assert!(rules.validate().is_ok());
        let g = play_checked(rules, &strategies, seed);
        prop_assert_eq!(count(rules.deck_cards()), rules.cards());
        let held: u32 = (0..rules.players as Seat).map(|s| count(g.hand(s))).sum();
        prop_assert_eq!(held + g.stock().len() as u32 + count(g.pile()), rules.cards());
    }

    /// The engine's random play-out makes the same choices from the same draws as random bots
    /// asked move by move.
    #[test]
    fn random_play_out_is_the_random_bots(rules in arb_rules(), forget in prop_oneof![Just(0.0), Just(1.0), 0.0..1.0f64], seed in any::<u64>()) {
        let strategy = Strategy { kind: Kind::Random, forget };
        let mut deal = base_stream(seed);
        let mut decisions = base_stream(!seed);
        let mut a = OchoState::deal(&rules, &Start::default(), &mut deal);
        let mut b = a.clone();
        let (mut deal_b, mut decisions_b) = (deal.clone(), decisions.clone());
        let mut bots: Vec<Bot> = (0..rules.players).map(|_| Bot::new(strategy)).collect();
        let seat_bot: Vec<usize> = (0..rules.players as usize).collect();
        prop_assert!(<Bot as tahur::play::Bot<Ocho>>::play_out(&mut a, &mut bots, &seat_bot, &mut deal, &mut decisions));
        while !b.is_over() {
            let s = b.to_act();
            let act = bots[s].act(&b.view(s), &mut decisions_b);
            b.apply(act, &mut deal_b).unwrap();
        }
        let order = |g: &OchoState| g.finishing_order().map(|o| o.collect::<Vec<_>>());
        prop_assert_eq!(order(&a), order(&b));
        prop_assert_eq!((a.actions(), a.turns(), a.cards_drawn(), a.forgotten()), (b.actions(), b.turns(), b.cards_drawn(), b.forgotten()));
        prop_assert_eq!(a.is_capped(), b.is_capped());
        prop_assert_eq!(decisions, decisions_b);
        prop_assert_eq!(deal, deal_b);
        // The whole state, field by field: hands, stock (in order), pile, top, suit, direction,
        // counters and the legal actions left.
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
        a.check_invariants().unwrap();
    }
}

// ------------------------------------------------------------------------------------------
// Scripted positions.

/// A four-player position: hands by seat, the top card (and the suit in force), the stock, and
/// every other card played; seat `to_act` acts.
fn position(
    rules: Rules,
    hands: &[&str],
    top: &str,
    suit: u8,
    pending: u16,
    to_act: Seat,
) -> OchoState {
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let top = c(top);
    let used = hands.iter().fold(top.bit(), |m, h| m | h);
    let rest = rules.deck_cards() & !used;
    let stock: Vec<Card> = Cards(rest).collect();
    OchoState::from_position(rules, &hands, &stock, 0, top, suit, pending, false, to_act).unwrap()
}

fn play(g: &mut OchoState, card: &str) {
    let card = c(card);
    let a = Action::Play {
        card,
        suit: if card.is_joker() { 0 } else { card.suit() },
        silent: false,
    };
    g.apply(a, &mut base_stream(1)).unwrap();
}

#[test]
fn an_ace_plays_again_and_chains() {
    let mut g = position(
        Rules::standard(4),
        &["AS AH 5H 9C", "4S", "4D", "4C"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "AS");
    assert_eq!(g.to_act(), 0);
    play(&mut g, "AH");
    assert_eq!(g.to_act(), 0, "a second ace plays again too");
    play(&mut g, "5H");
    assert_eq!(g.to_act(), 1);
}

#[test]
fn a_two_skips_the_next_player() {
    let mut g = position(
        Rules::standard(4),
        &["2S 9C", "4S", "4D", "4C"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "2S");
    assert_eq!(g.to_act(), 2);
    // With two players the skip brings the turn back.
    let mut g = position(Rules::standard(2), &["2S 9C", "4S 5D"], "7S", 0, 0, 0);
    play(&mut g, "2S");
    assert_eq!(g.to_act(), 0);
}

#[test]
fn threes_and_jokers_stack_and_the_taker_loses_the_turn() {
    let mut g = position(
        Rules::standard(4),
        &["3S 9C", "3D 4S 5S", "joker 4D 9D", "6C 7C"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "3S");
    assert_eq!((g.to_act(), g.pending(), g.phase()), (1, 3, Phase::Stack));
    // Seat 1 answers with a 3 (the suit becomes diamonds), seat 2 with a joker (it stays).
    play(&mut g, "3D");
    assert_eq!((g.to_act(), g.pending(), g.suit()), (2, 6, 2));
    play(&mut g, "joker");
    assert_eq!(
        (g.to_act(), g.pending(), g.suit(), g.value()),
        (3, 9, 2, THREE)
    );
    // Seat 3 cannot answer: takes 9 cards, unless the first is a 3 or a joker.
    let before = count(g.hand(3));
    let mut rng = base_stream(5);
    let legal = *g.legal();
    assert_eq!(legal.plays, 0);
    assert!(legal.take);
    g.apply(Action::Take, &mut rng).unwrap();
    if g.phase() == Phase::StackDrawn {
        assert_eq!(count(g.hand(3)), before + 1);
        g.apply(Action::Take, &mut rng).unwrap();
    }
    assert_eq!(count(g.hand(3)), before + 9);
    assert_eq!((g.to_act(), g.pending(), g.phase()), (0, 0, Phase::Turn));
    // The joker on top: seat 0 (holding 9♣) must follow diamonds, play a 3 on it, or an 8.
    assert_eq!(g.legal().plays, 0);
    assert!(g.legal().draw);
}

#[test]
fn a_three_drawn_first_may_answer() {
    // Seat 1 holds no answer; the stock holds nothing but a 3 of clubs and two plain cards; the
    // first card drawn is whichever the draw takes: retry seeds until it is the 3.
    let rules = Rules::standard(2);
    for seed in 0..50 {
        let hands = [set("3S 9C"), set("4S 5S")];
        let top = c("7S");
        let used = hands[0] | hands[1] | top.bit();
        let stock = vec![c("3C"), c("10H"), c("QH")];
        let played = rules.deck_cards() & !used & !set("3C 10H QH");
        let mut g =
            OchoState::from_position(rules, &hands, &stock, played, top, 0, 0, false, 0).unwrap();
        let mut rng = base_stream(seed);
        play(&mut g, "3S");
        g.apply(Action::Take, &mut rng).unwrap();
        if g.phase() == Phase::StackDrawn {
            assert_eq!(g.drawn(), Some(c("3C")));
            assert!(g.legal().take && g.legal().plays == c("3C").bit());
            g.apply(Action::play(c("3C")), &mut rng).unwrap();
            assert_eq!(
                (g.to_act(), g.pending()),
                (0, 6),
                "the stack passes back on, +3"
            );
            return;
        }
        assert_eq!(count(g.hand(1)), 5, "a plain first card: all three drawn");
    }
    panic!("the 3 never came first");
}

#[test]
fn an_eight_names_a_suit_but_not_as_the_last_card() {
    let mut g = position(Rules::standard(3), &["8S 4H", "5D", "6C"], "7C", 3, 0, 0);
    let mut all = Vec::new();
    g.legal_actions(&mut all);
    assert_eq!(
        all.iter()
            .filter(|a| matches!(a, Action::Play { card, .. } if *card == c("8S")))
            .count(),
        4
    );
    g.apply(Action::eight(c("8S"), 2), &mut base_stream(1))
        .unwrap();
    assert_eq!((g.suit(), g.to_act()), (2, 1));
    let mut g = position(Rules::standard(3), &["8S", "5D 9D", "6C"], "7C", 3, 0, 0);
    assert!(g
        .apply(Action::eight(c("8S"), 2), &mut base_stream(1))
        .is_err());
    g.apply(Action::eight(c("8S"), 0), &mut base_stream(1))
        .unwrap();
    assert_eq!(g.suit(), 0, "the last card keeps its own suit");
    assert_eq!(g.out_so_far().collect::<Vec<_>>(), [0]);
}

#[test]
fn jacks_and_kings_reverse_and_with_two_players_play_again() {
    let mut g = position(
        Rules::standard(4),
        &["JS 9C", "4S", "4D", "4C"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "JS");
    assert_eq!((g.to_act(), g.reversed()), (3, true));
    let mut g = position(Rules::standard(2), &["KS 9C", "4S 5D"], "7S", 0, 0, 0);
    play(&mut g, "KS");
    assert_eq!(g.to_act(), 0);
}

#[test]
fn house_rules_joker_eight_answers_keep_drawn() {
    // joker=three: a joker plays only on a 3 or a joker.
    let three = Rules::standard(3).with_changes("joker=three").unwrap();
    let g = position(three, &["joker 9C", "5D", "6C"], "7S", 0, 0, 0);
    assert_eq!(g.legal().plays, 0);
    let g = position(three, &["joker 9C", "5D", "6C"], "3H", 1, 0, 0);
    assert_eq!(g.legal().plays, c("joker").bit());
    let any = position(Rules::standard(3), &["joker 9C", "5D", "6C"], "7S", 0, 0, 0);
    assert_eq!(any.legal().plays, c("joker").bit());
    // eight-answers: an 8 cancels the stack.
    let rules = Rules::standard(3).with_changes("eight-answers=on").unwrap();
    let mut g = position(rules, &["3S 9C", "8D 5D", "6C"], "7S", 0, 0, 0);
    play(&mut g, "3S");
    assert_eq!(g.legal().plays, c("8D").bit());
    g.apply(Action::eight(c("8D"), 3), &mut base_stream(1))
        .unwrap();
    assert_eq!(
        (g.pending(), g.suit(), g.to_act(), g.phase()),
        (0, 3, 2, Phase::Turn)
    );
    // keep-drawn: the drawn playable card may be kept.
    let rules = Rules::standard(3).with_changes("keep-drawn=on").unwrap();
    let mut g = position(rules, &["9C 10C", "5D", "6C"], "7S", 0, 0, 0);
    g.apply(Action::Draw, &mut base_stream(3)).unwrap();
    assert_eq!(g.phase(), Phase::Drawn);
    assert!(g.legal().pass);
    g.apply(Action::Pass, &mut base_stream(3)).unwrap();
    assert_eq!(g.to_act(), 1);
}

#[test]
fn forgetting_voy_por_una_costs_three_cards() {
    let mut g = position(Rules::standard(3), &["5S 9C", "5D", "6C"], "7S", 0, 0, 0);
    let a = Action::Play {
        card: c("5S"),
        suit: 0,
        silent: true,
    };
    g.apply(a, &mut base_stream(1)).unwrap();
    assert_eq!(
        (count(g.hand(0)), g.forgotten(), g.penalty_cards()),
        (4, 1, 3)
    );
    // Only a play that leaves one card owes it.
    let mut g = position(
        Rules::standard(3),
        &["5S 9C 10C", "5D", "6C"],
        "7S",
        0,
        0,
        0,
    );
    assert!(g.apply(a, &mut base_stream(1)).is_err());
    // A bot that always forgets says nothing, and one that never does says it.
    let g = position(Rules::standard(3), &["5S 9C", "5D", "6C"], "7S", 0, 0, 0);
    for (forget, silent) in [(1.0, true), (0.0, false)] {
        let mut bot = Bot::new(Strategy {
            kind: Kind::Greedy,
            forget,
        });
        match bot.act(&g.view(0), &mut base_stream(2)) {
            Action::Play { silent: s, .. } => assert_eq!(s, silent),
            a => panic!("{a}"),
        }
    }
}

#[test]
fn an_empty_stock_reshuffles_the_played_cards_but_the_top() {
    let rules = Rules::standard(2);
    let hands = [set("9C 10C"), set("4D")];
    let top = c("7S");
    let played = rules.deck_cards() & !(hands[0] | hands[1] | top.bit());
    let mut g = OchoState::from_position(rules, &hands, &[], played, top, 0, 0, false, 0).unwrap();
    g.apply(Action::Draw, &mut base_stream(9)).unwrap();
    assert_eq!(g.reshuffles(), 1);
    assert_ne!(g.pile() & top.bit(), 0, "the top card stays");
    g.check_invariants().unwrap();
}

#[test]
fn the_first_card_plain_or_acting() {
    // Over many deals: with `acts`, a turned 2 skips the starter, a 3 makes them face a stack,
    // an A or (two players) a J/K lets the dealer play first; with `plain` the starter acts.
    let mut seen = [false; 4];
    for seed in 0..400 {
        for first in [FirstCard::Plain, FirstCard::Acts] {
            let mut rules = Rules::standard(3);
            rules.first_card = first;
            let start = Start {
                dealer: Some(0),
                ..Start::default()
            };
            let g = OchoState::deal(&rules, &start, &mut base_stream(seed));
            assert!(!g.top().is_joker());
            let r = g.top().rank();
            let expected = match (first, r) {
                (FirstCard::Acts, 0) => 0,
                (FirstCard::Acts, 1) => 2,
                // Three players: play starts to the dealer's left.
                (FirstCard::Acts, 10 | 12) => 2,
                _ => 1,
            };
            assert_eq!(g.to_act(), expected, "{first:?} {}", g.top());
            assert_eq!(
                g.pending(),
                if first == FirstCard::Acts && r == THREE {
                    3
                } else {
                    0
                }
            );
            assert_eq!(
                g.reversed(),
                first == FirstCard::Acts && matches!(r, 10 | 12)
            );
            if first == FirstCard::Acts {
                for (k, rank) in [0u8, 1, 2, 10].iter().enumerate() {
                    seen[k] |= r == *rank;
                }
            }
        }
    }
    assert!(seen.iter().all(|&x| x));
}

#[test]
fn illegal_actions_are_refused_and_change_nothing() {
    let g0 = position(Rules::standard(3), &["5S 9C", "5D", "6C"], "7S", 0, 0, 0);
    for a in [
        Action::play(c("9C")),
        Action::play(c("5D")),
        Action::Draw,
        Action::Take,
        Action::Pass,
        Action::eight(c("8S"), 1),
    ] {
        let mut g = g0.clone();
        let e = g.apply(a, &mut base_stream(1)).unwrap_err();
        assert!(!e.to_string().is_empty());
        assert_eq!(format!("{:?}", seen(&g)), format!("{:?}", seen(&g0)), "{a}");
    }
}

#[test]
fn search_plays_legally_and_beats_random() {
    let rules = Rules::standard(2);
    // Seats alternate so that neither is favoured; random play against random wins half.
    let mut wins = 0;
    for seed in 0..48 {
        let search = Strategy::of(Kind::Ismcts { budget: 20 });
        let random = Strategy::of(Kind::Random);
        let (list, seat) = if seed % 2 == 0 {
            ([search, random], 0)
        } else {
            ([random, search], 1)
        };
        let g = play_checked(rules, &list, seed);
        wins += (g.first_out() == Some(seat)) as u32;
    }
    assert!(wins >= 29, "ismcts:20 won {wins} of 48 against random");
}

#[test]
fn determinisation_keeps_the_public_facts_and_hides_the_rest() {
    let rules = Rules::standard(4);
    let mut rng = base_stream(4);
    let g = OchoState::deal(&rules, &Start::default(), &mut rng);
    let v = g.view(g.to_act());
    for k in 0..20 {
        let d = OchoState::deal_for_view(&v, &mut base_stream(k));
        d.check_invariants().unwrap();
        assert_eq!(d.hand(g.to_act()), g.hand(g.to_act()));
        assert_eq!(
            (d.top(), d.suit(), d.pile(), d.to_act()),
            (g.top(), g.suit(), g.pile(), g.to_act())
        );
        for s in 0..4 {
            assert_eq!(count(d.hand(s)), count(g.hand(s)));
        }
        assert_eq!(d.stock().len(), g.stock().len());
    }
}

#[test]
fn a_card_another_player_drew_is_dealt_as_one_that_fits() {
    // Seat 0 draws until a card plays (and may keep it): to seats 1 and 2 that card is one that
    // plays on the 7♠, the only one of seat 0's hand that does; to seat 0 it is that card.
    let rules = Rules::standard(3).with_changes("keep-drawn=on").unwrap();
    let mut drawing = 0;
    for seed in 0..30 {
        let mut g = position(rules, &["9C 10C", "5D 6D", "6C 9D"], "7S", 0, 0, 0);
        g.apply(Action::Draw, &mut base_stream(seed)).unwrap();
        if g.phase() != Phase::Drawn {
            continue;
        }
        drawing += 1;
        let (suit, value) = (g.suit(), g.value());
        for seat in 0..3 {
            let v = g.view(seat);
            let shown = format!("{v:?}");
            assert_eq!(v.drawn(), (seat == 0).then(|| g.drawn().unwrap()));
            // The view shows its own cards and nobody else's.
            for s in 0..3 {
                for x in Cards(g.hand(s) & !JOKERS) {
                    assert_eq!(shown.contains(&x.to_string()), s == seat, "{x}: {shown}");
                }
            }
            for k in 0..8 {
                let d = OchoState::deal_for_view(&v, &mut base_stream(100 * seed + k));
                d.check_invariants().unwrap();
                assert_eq!(format!("{:?}", d.view(seat)), shown, "seat {seat}");
                let drawn = d.drawn().unwrap();
                let plays: Vec<Card> = Cards(d.hand(0))
                    .filter(|&x| may_follow(&rules, x, suit, value))
                    .collect();
                assert_eq!(plays, [drawn], "seed {seed}, seat {seat}");
                if seat == 0 {
                    assert_eq!((d.hand(0), drawn), (g.hand(0), g.drawn().unwrap()));
                    assert_eq!(d.legal(), g.legal());
                }
            }
        }
    }
    assert!(drawing > 10, "{drawing} deals drew a playable card");

    // Taking a draw-three, a 3 or a joker came first: to the other seat it is one of those.
    let rules = Rules::standard(2);
    let mut answered = 0;
    for seed in 0..50 {
        let hands = [set("3S 9C"), set("4S 5S")];
        let top = c("7S");
        let stock = vec![c("3C"), c("10H"), c("QH"), c("joker"), c("8D")];
        let used = hands[0] | hands[1] | top.bit() | stock.iter().fold(0, |m, x| m | x.bit());
        let played = rules.deck_cards() & !used;
        let mut g =
            OchoState::from_position(rules, &hands, &stock, played, top, 0, 0, false, 0).unwrap();
        play(&mut g, "3S");
        g.apply(Action::Take, &mut base_stream(seed)).unwrap();
        if g.phase() != Phase::StackDrawn {
            continue;
        }
        answered += 1;
        let v = g.view(0);
        for k in 0..8 {
            let d = OchoState::deal_for_view(&v, &mut base_stream(k));
            d.check_invariants().unwrap();
            assert_eq!(format!("{:?}", d.view(0)), format!("{v:?}"));
            let drawn = d.drawn().unwrap();
            assert!(drawn == c("3C") || drawn.is_joker(), "{drawn}");
            assert_eq!(count(d.hand(1)), 3);
        }
    }
    assert!(answered > 5, "{answered} takes drew a 3 or a joker first");
}

// ------------------------------------------------------------------------------------------
// Threads and shards; bots' strength.

fn control(threads: usize) -> RunControl {
    RunControl {
        threads: Some(threads),
        progress: tahur::progress::Progress::hidden(),
    }
}

fn reproducible<S: Simulation>(sim: &S, samples: u64, seed: u64) -> S::Tally
where
    S::Tally: PartialEq + std::fmt::Debug,
{
    let spec = RunSpec {
        samples,
        seed,
        chunk_size: sim.chunk_size(),
    };
    let one = run(sim, &spec, None, &control(1)).unwrap();
    let two = run(sim, &spec, None, &control(2)).unwrap();
    assert_eq!(one.tally, two.tally, "threads change the result");
    let mut merged = sim.empty_tally();
    for k in 1..=3 {
        let part = run(sim, &spec, Some(Shard { index: k, count: 3 }), &control(2)).unwrap();
        merged.absorb(&part.tally);
    }
    assert_eq!(merged, one.tally, "shards do not add up to the run");
    one.tally
}

#[test]
fn sims_and_values_add_up_whatever_threads_and_shards() {
    let rules = Rules::standard(4);
    let list = Strategy::parse_list("greedy,random:forget=0.3,expert").unwrap();
    let setup = TableSetup::<Ocho>::new(rules, &list, true).unwrap();
    let t = reproducible(&GameSimulation::new(&setup), 1500, 7);
    assert_eq!((t.games, t.violations, t.illegal_actions), (1500, 0, 0));
    let winners: u64 = (0..4).map(|s| t.seat_count(s)).sum();
    assert_eq!(winners + t.capped, 1500);
    // Games stopped at the cap after the first went out have a winner, no finishing order.
    let unfinished = t.counter(Counter::CappedAfterFirst) as u64;
    let finished = 1500 - t.capped - unfinished;
    for s in 0..4 {
        assert_eq!(t.places[s * 4..s * 4 + 4].iter().sum::<u64>(), finished);
        assert!(
            t.places[s * 4] <= t.seat_count(s),
            "the first place is the event"
        );
    }
    let firsts: u64 = (0..4).map(|s| t.places[s * 4]).sum();
    assert_eq!(firsts + unfinished, winners);
    for k in 0..4 {
        assert_eq!((0..4).map(|s| t.places[s * 4 + k]).sum::<u64>(), finished);
    }
    // The starter's and the dealer's last places are the places table's, by position.
    assert!(
        t.counter(Counter::StarterLast) as u64 <= finished
            && t.counter(Counter::DealerLast) as u64 <= finished
    );
    assert!(
        t.counter(Counter::Forgotten) > 0,
        "the forgetful seat forgot «voy por una»"
    );
    assert!(
        t.counter(Counter::PenaltyCards) > 0
            && t.counter(Counter::PenaltyCards) <= 3 * t.counter(Counter::Forgotten),
        "three cards each time"
    );

    let value = ValueSetup {
        table: TableSetup::<Ocho>::new(rules, &[Strategy::of(Kind::Greedy)], false).unwrap(),
        forget: 0.5,
    };
    let v = reproducible(&ValueSimulation::new(&value), 300, 3);
    assert_eq!(v.deals, 300);
    assert_eq!(v.rows.len(), KINDS.len() + 1);
    assert_eq!(v.illegal_actions, 0);
    // Every deal with a plain card gives a forgetting pair; the special rows at most as many.
    let pairs = v.deals - v.no_plain;
    assert_eq!(v.rows[KINDS.len()].pairs, pairs);
    for row in &v.rows {
        assert!(row.pairs <= pairs);
        assert!(row.first.a_only + row.first.both + row.first.b_only <= row.pairs);
    }
}

#[test]
fn greedy_and_expert_beat_random() {
    let rules = Rules::standard(2);
    for strong in ["greedy", "expert"] {
        let list = Strategy::parse_list(&format!("{strong},random")).unwrap();
        let setup = TableSetup::<Ocho>::new(rules, &list, false).unwrap();
        let spec = RunSpec {
            samples: 2000,
            seed: 3,
            chunk_size: setup.chunk_size(),
        };
        let t = run(&GameSimulation::new(&setup), &spec, None, &control(2))
            .unwrap()
            .tally;
        let rate = t.seat_count(0) as f64 / t.games as f64;
        // Seats do not alternate here, but two-player seats are nearly fair (tested in sims).
        assert!(
            rate > 0.6,
            "{strong} went out first in {rate} against random"
        );
    }
}

// ------------------------------------------------------------------------------------------
// The deal's exact odds against an independent computation and simulated deals.

fn big(n: u64) -> BigUint {
    BigUint::from(n)
}

fn choose(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    (0..k).fold(big(1), |acc, i| acc * big(n - i) / big(i + 1))
}

fn ratio(num: BigUint, den: BigUint) -> BigRational {
    BigRational::new(num.into(), den.into())
}

/// P(the starter holds no card that plays on the turned card), summed card by card over every
/// turned card c and every number j of jokers in the starter's hand: the starter's hand is a
/// uniform h-set of the N cards, and c a uniform non-joker among those not in it, so
/// P(H, c) = 1/C(N, h) · 1/(52d − (h − j)).
fn no_play_by_counting(rules: &Rules) -> BigRational {
    let d = rules.decks as u64;
    let n = 54 * d;
    let h = rules.hand as u64;
    let jokers = 2 * d;
    let mut total = BigRational::zero();
    for card in Cards(rules.deck_cards() & !JOKERS) {
        let plays_on = |x: Card| -> bool {
            x != card
                && (x.is_joker() && (rules.joker == JokerRule::Any || card.rank() == THREE)
                    || !x.is_joker()
                        && (x.suit() == card.suit()
                            || x.rank() == card.rank()
                            || x.rank() == EIGHT))
        };
        let others = Cards(rules.deck_cards() & !JOKERS & !card.bit())
            .filter(|&x| !plays_on(x))
            .count() as u64;
        let jokers_play = plays_on(Card::JOKER);
        for j in 0..=jokers.min(h) {
            if j > 0 && jokers_play {
                continue;
            }
            let hands = choose(jokers, j) * choose(others, h - j);
            total += ratio(hands, choose(n, h) * big(52 * d - (h - j)));
        }
    }
    total
}

/// The distribution of specials in a hand by multiplying out Π over the cards of (1 + y·x^s).
fn specials_by_polynomial(rules: &Rules) -> Vec<BigRational> {
    let h = rules.hand as usize;
    // poly[size][specials]
    let mut poly = vec![vec![BigUint::zero(); h + 1]; h + 1];
    poly[0][0] = big(1);
    for card in Cards(rules.deck_cards()) {
        let special = tahur::games::ocho::cards::SPECIALS & card.bit() != 0;
        for size in (1..=h).rev() {
            for k in (0..=h).rev() {
                let from = if special {
                    if k == 0 {
                        continue;
                    }
                    poly[size - 1][k - 1].clone()
                } else {
                    poly[size - 1][k].clone()
                };
                poly[size][k] += from;
            }
        }
    }
    let all = choose(rules.cards() as u64, h as u64);
    (0..=h)
        .map(|k| ratio(poly[h][k].clone(), all.clone()))
        .collect()
}

#[test]
fn deal_odds_match_counting_and_simulated_deals() {
    let mut tables = vec![Rules::standard(2), Rules::standard(4), Rules::standard(6)];
    tables.push(Rules::standard(4).with_changes("joker=three").unwrap());
    tables.push(Rules::standard(3).with_changes("hand=5,decks=2").unwrap());
    for rules in tables {
        let f = DealFacts::of(&rules);
        let exact = 1.0 - no_play_by_counting(&rules).to_f64().unwrap();
        assert!(
            (f.legal - exact).abs() < 1e-12,
            "{rules:?}: {} vs {exact}",
            f.legal
        );
        for (k, p) in specials_by_polynomial(&rules).iter().enumerate() {
            let p = p.to_f64().unwrap();
            assert!(
                (f.specials[k] - p).abs() < 1e-13,
                "{k} specials: {} vs {p}",
                f.specials[k]
            );
        }
        let no_eight = ratio(
            choose(
                rules.cards() as u64 - 4 * rules.decks as u64,
                rules.hand as u64,
            ),
            choose(rules.cards() as u64, rules.hand as u64),
        );
        assert!((f.holds[4] - (1.0 - no_eight.to_f64().unwrap())).abs() < 1e-13);

        // Simulated deals of the engine within 4.5 standard errors of every exact figure.
        let sim = DealSimulation::new(&rules);
        let spec = RunSpec {
            samples: 40_000,
            seed: 11,
            chunk_size: sim.chunk_size(),
        };
        let t = run(&sim, &spec, None, &control(2)).unwrap().tally;
        let within = |hits: u64, trials: u64, p: f64, what: &str| {
            let se = (p * (1.0 - p) / trials as f64).sqrt();
            let z = (hits as f64 / trials as f64 - p) / se.max(1e-300);
            assert!(
                z.abs() < 4.5 || p == 0.0 && hits == 0,
                "{rules:?} {what}: {z:.2} SE"
            );
        };
        within(t.holds[4], t.deals, f.holds[4], "an 8");
        for (k, &n) in t.specials.iter().enumerate() {
            within(n, t.deals, f.specials[k], &format!("{k} specials"));
        }
        for k in 0..3 {
            within(t.turned[k], t.deals, f.turned[k], "turned class");
            within(
                t.legal_by_turned[k],
                t.turned[k],
                f.legal_by_turned[k],
                "a play on it",
            );
        }
        within(
            t.legal_by_turned.iter().sum(),
            t.deals,
            f.legal,
            "a play on the turned card",
        );
    }
    // Known values, worked by hand: one deck, 8 cards: P(an 8) = 1 − C(50,8)/C(54,8).
    let f = DealFacts::of(&Rules::standard(4));
    assert!((f.holds[4] - 0.484_001_6).abs() < 1e-7, "{}", f.holds[4]);
}

// ------------------------------------------------------------------------------------------
// Parsers over arbitrary strings: never a panic; an error names the value.

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(text in ".{0,40}") {
        let t = text.trim();
        if let Err(e) = Strategy::parse(&text) {
            let e = e.to_string();
            prop_assert!(t.is_empty() || e.contains(t) || e.contains(t.split(':').next().unwrap_or(t).trim()), "{e}");
        }
        let _ = Strategy::parse_list(&text);
        if let Err(e) = Rules::standard(4).with_changes(&text) {
            prop_assert!(!e.to_string().is_empty());
        }
        let quoted = format!("'{}'", text);
        if let Err(e) = Card::parse(&text) {
            prop_assert!(e.to_string().contains(&quoted));
        }
        for key in ["joker", "first-card"] {
            let parsed = match key {
                "joker" => JokerRule::parse(&text).is_some(),
                _ => FirstCard::parse(&text).is_some(),
            };
            if !parsed && !text.contains([',', '=']) && !t.is_empty() {
                let e = Rules::standard(4).with_changes(&format!("{key}={text}")).unwrap_err();
                prop_assert!(e.to_string().contains(&format!("{key}={t}")), "{e}");
            }
        }
    }

    #[test]
    fn strategy_specs_round_trip(kind in 0..4u8, budget in 1u32..5000, forget in prop_oneof![Just(0.0), 0.0..=1.0f64]) {
        let kind = match kind {
            0 => Kind::Random,
            1 => Kind::Greedy,
            2 => Kind::Expert,
            _ => Kind::Ismcts { budget },
        };
        let s = Strategy { kind, forget };
        prop_assert_eq!(Strategy::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn rule_changes_as_written(key in prop_oneof![Just("decks"), Just("hand"), Just("joker"), Just("eight-answers"), Just("first-card"), Just("keep-drawn"), Just("max-actions")], value in "[a-z0-9=,]{0,8}") {
        let spec = format!("{key}={value}");
        match Rules::standard(4).with_changes(&spec) {
            Ok(r) => { let _ = r.validate(); }
            Err(e) => {
                // The message names the key or the bad part of what was written.
                let e = e.to_string();
                prop_assert!(spec.split([',', '=']).any(|p| !p.trim().is_empty() && e.contains(p.trim())), "{spec}: {e}");
            }
        }
    }
}

#[test]
fn strategies_in_spanish_and_with_parameters() {
    for (text, kind, forget) in [
        ("azar", Kind::Random, 0.0),
        ("Codicioso", Kind::Greedy, 0.0),
        ("experto:olvido=0.2", Kind::Expert, 0.2),
        ("greedy:0.1", Kind::Greedy, 0.1),
        ("búsqueda:50", Kind::Ismcts { budget: 50 }, 0.0),
        (
            "ismcts:budget=20,forget=1",
            Kind::Ismcts { budget: 20 },
            1.0,
        ),
    ] {
        assert_eq!(
            Strategy::parse(text).unwrap(),
            Strategy { kind, forget },
            "{text}"
        );
    }
    for bad in [
        "greedy:forget=1.5",
        "greedy:forget=-0.1",
        "random:forget=nan",
        "smart",
        "ismcts:0",
    ] {
        let e = Strategy::parse(bad).unwrap_err().to_string();
        let named = bad.split([':', '=']).next_back().unwrap();
        assert!(e.contains(named) || e.contains(bad), "{bad}: {e}");
    }
}

// ------------------------------------------------------------------------------------------
// The game loops allocate nothing once the bots are warm.

use allocations::flat;

#[test]
fn playing_more_allocates_nothing_more() {
    use tahur::play::compare::{CompareSetup, CompareSimulation};
    use tahur::play::flags::{FlagsSetup, FlagsSimulation};
    use tahur::play::tournament::{TournamentSetup, TournamentSimulation};
    for (players, list) in [
        (4, "random"),
        (4, "random:forget=0.5,greedy,expert"),
        (6, "expert"),
    ] {
        let list = Strategy::parse_list(list).unwrap();
        let table = TableSetup::<Ocho>::new(Rules::standard(players), &list, false).unwrap();
        flat(
            &GameSimulation::new(&table),
            50,
            400,
            &format!("sim {players} {list:?}"),
        );
        let b = TableSetup::new(
            table.rules.with_changes("joker=three").unwrap(),
            &list,
            false,
        )
        .unwrap();
        let compare = CompareSimulation::new(
            &CompareSetup::new(table.clone(), b, ["a".into(), "b".into()], None).unwrap(),
        );
        flat(&compare, 50, 400, "compare");
        flat(
            &FlagsSimulation::new(&FlagsSetup::new(table.clone()).unwrap()),
            20,
            160,
            "flags",
        );
        if list.len() > 1 {
            let tour = TournamentSimulation::new(
                &TournamentSetup::<Ocho>::new(table.rules, &list[..2], false).unwrap(),
            );
            flat(&tour, 20, 160, "tournament");
        }
    }
    let value = ValueSetup {
        table: TableSetup::<Ocho>::new(Rules::standard(4), &[Strategy::of(Kind::Greedy)], false)
            .unwrap(),
        forget: 0.5,
    };
    flat(&ValueSimulation::new(&value), 10, 80, "value");
    let search = TableSetup::<Ocho>::new(
        Rules::standard(2),
        &[
            Strategy::of(Kind::Ismcts { budget: 10 }),
            Strategy::of(Kind::Greedy),
        ],
        false,
    )
    .unwrap();
    flat(&GameSimulation::new(&search), 3, 6, "ismcts");
    let _ = (show(ONE_DECK & 0xF), Stream::seed_from_u64(0));
}

#[test]
fn playing_again_is_a_right_by_default_and_an_obligation_by_the_house_rule() {
    // «As: da el derecho a descartar otra vez»: after the A♠ seat 0 may play again or pass.
    let hands = ["AS 5S 8C 9C", "4D 6D", "4H 6H"];
    let mut g = position(Rules::standard(3), &hands, "7S", 0, 0, 0);
    play(&mut g, "AS");
    assert_eq!((g.to_act(), g.phase()), (0, Phase::Again));
    let l = *g.legal();
    assert_eq!((l.plays, l.pass, l.draw), (set("5S 8C"), true, false));
    g.apply(Action::Pass, &mut base_stream(1)).unwrap();
    assert_eq!(
        (g.to_act(), g.phase(), count(g.hand(0))),
        (1, Phase::Turn, 3)
    );
    // Nothing that plays after the A: the right is declined, nothing is drawn.
    let mut g = position(
        Rules::standard(3),
        &["AS 9C", "4D 6D", "4H 6H"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "AS");
    assert_eq!((g.legal().plays, g.legal().pass), (0, true));
    // `play-again=must`: a normal turn, drawing until a card plays.
    let must = Rules::standard(3).with_changes("play-again=must").unwrap();
    let mut g = position(must, &["AS 9C", "4D 6D", "4H 6H"], "7S", 0, 0, 0);
    play(&mut g, "AS");
    assert_eq!((g.to_act(), g.phase()), (0, Phase::Turn));
    assert!(g.legal().draw && !g.legal().pass);
    // With two players a J or a K gives the same right; a 2 brings a normal turn back.
    let mut g = position(Rules::standard(2), &["JS 5S 9C", "4D 6D"], "7S", 0, 0, 0);
    play(&mut g, "JS");
    assert_eq!((g.to_act(), g.phase()), (0, Phase::Again));
    let mut g = position(Rules::standard(2), &["2S 5S 9C", "4D 6D"], "7S", 0, 0, 0);
    play(&mut g, "2S");
    assert_eq!((g.to_act(), g.phase()), (0, Phase::Turn));
    // The bots use the right with the card their turn would play, but keep an 8 (not their
    // last card) and pass.
    let mut g = position(
        Rules::standard(3),
        &["AS 5S 9C", "4D 6D", "4H 6H"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "AS");
    for kind in [Kind::Greedy, Kind::Expert, Kind::Sheet] {
        let a = Bot::new(Strategy::of(kind)).act(&g.view(0), &mut base_stream(3));
        assert_eq!(a, Action::play(c("5S")), "{kind:?}");
    }
    let mut g = position(
        Rules::standard(3),
        &["AS 8C 9C", "4D 6D", "4H 6H"],
        "7S",
        0,
        0,
        0,
    );
    play(&mut g, "AS");
    for kind in [Kind::Greedy, Kind::Expert, Kind::Sheet] {
        let a = Bot::new(Strategy::of(kind)).act(&g.view(0), &mut base_stream(3));
        assert_eq!(a, Action::Pass, "{kind:?}");
    }
}

#[test]
fn a_three_drawn_first_answers_only_for_a_player_who_had_none() {
    // «En caso de que alguien no tenga un 3 y al encartarse consiga uno en la primera carta»:
    // the stock holds only 3s, so the first card drawn is a 3. Seat 1 holds a joker (like a 3)
    // and takes: it may not answer with the drawn 3 and takes all three cards.
    let rules = Rules::standard(2);
    let stock = [c("3H"), c("3C"), c("3D")];
    for (seat1, answers) in [("joker 5D", false), ("4D 5D", true)] {
        let hands = [set("9C 10C"), set(seat1)];
        let top = c("3S");
        let used = hands[0] | hands[1] | top.bit() | set("3H 3C 3D");
        let played = rules.deck_cards() & !used;
        let mut g =
            OchoState::from_position(rules, &hands, &stock, played, top, 0, 3, false, 1).unwrap();
        g.apply(Action::Take, &mut base_stream(4)).unwrap();
        assert_eq!(g.phase() == Phase::StackDrawn, answers, "{seat1}");
        let drawn = if answers { 1 } else { 3 };
        assert_eq!(count(g.hand(1)), 2 + drawn, "{seat1}");
    }
}

#[test]
fn a_reshuffle_keeps_the_card_under_a_joker_out() {
    // «Se barajan las cartas jugadas, excluyendo la que dicte el palo»: the joker on the 7♥
    // plays hearts, so the 7♥ stays out of the new stock with the joker.
    let rules = Rules::standard(2);
    let hands = [set("joker 9C"), set("5C 6C")];
    let top = c("7H");
    let played = rules.deck_cards() & !(hands[0] | hands[1] | top.bit());
    let mut g = OchoState::from_position(rules, &hands, &[], played, top, 1, 0, false, 0).unwrap();
    play(&mut g, "joker");
    assert_eq!((g.pending(), g.suit(), g.suit_card()), (3, 1, top));
    g.apply(Action::Take, &mut base_stream(6)).unwrap();
    if g.phase() == Phase::StackDrawn {
        g.apply(Action::Take, &mut base_stream(7)).unwrap();
    }
    assert_eq!(g.reshuffles(), 1);
    assert_eq!(
        g.pile(),
        c("joker").bit() | top.bit(),
        "the joker and the 7♥ stay"
    );
    assert_eq!(g.hand(1) & top.bit(), 0);
    assert_eq!(
        (g.suit(), g.view(0).cards_to_draw()),
        (1, g.stock().len() as u32)
    );
    g.check_invariants().unwrap();
}
