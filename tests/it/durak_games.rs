//! Durak engine and bots: every rule checked at every step over random games, scripted
//! positions for each rule and flag, exact deal probabilities, and the bots' published figures.

use proptest::prelude::{any, prop_assert, prop_oneof, proptest, Just, ProptestConfig};
use proptest::strategy::Strategy as _;
use rand_core::{Rng, SeedableRng};
use tahur::games::durak::bots::{Bot, Strategy};
use tahur::games::durak::cards::{self, beats, count, rank_mask, Card, CardSet, Cards};
use tahur::games::durak::engine::{
    is_paired_opening, needs_redeal, Action, Deal, DurakState, Phase,
};
use tahur::games::durak::rules::{LastCards, Rules, Teams, Variant};
use tahur::play::{GameRules, Outcome, Start, State};
use tahur::rng::Stream;

/// A stream for `apply` (Durak has no chance events after the deal).
fn rng0() -> Stream {
    Stream::seed_from_u64(0)
}

fn c(s: &str) -> Card {
    Card::parse(s).unwrap()
}

fn set(s: &str) -> CardSet {
    cards::parse_set(s).unwrap()
}

/// Plays one game, checking after every action every invariant of the engine and, independently
/// of it, the rules of docs/rules.md §3 that can be seen from outside. Returns the finished game.
fn play_checked(rules: Rules, strategies: &[Strategy], seed: u64) -> DurakState {
    let mut rng = Stream::seed_from_u64(seed);
    let mut game = DurakState::deal(&rules, &Start::default(), &mut rng);
    game.check_invariants().unwrap();
    let mut bots: Vec<Bot> = (0..rules.players as usize)
        .map(|i| Bot::new(strategies[i % strategies.len()]))
        .collect();
    let mut actions = Vec::new();
    let deck = rules.deck_cards();
    loop {
        let seat = game.to_act();
        game.legal_actions(&mut actions);
        assert!(!actions.is_empty(), "no legal action in {:?}", game.phase());
        let a = bots[seat].act(&game.view(seat), &mut rng);
        assert!(actions.contains(&a), "bot chose {a} not in {actions:?}");
        // Independent rule checks of the chosen action.
        let table: CardSet = game
            .attack_cards()
            .iter()
            .chain(game.defence_cards())
            .fold(0, |s, c| s | c.bit());
        match (game.phase(), a) {
            (Phase::Defend, Action::Play(d)) => {
                let att = game.attack_cards()[game.defence_cards().len()];
                assert!(beats(d, att, game.trump()), "{d} does not beat {att}");
            }
            (Phase::ThrowIn | Phase::Taking, Action::Play(x)) => {
                let ranks = Cards(table).fold(0, |s, t| s | rank_mask(t.rank()));
                assert!(ranks & x.bit() != 0, "{x} thrown in on no matching rank");
                assert_ne!(seat, game.defender());
                if rules.teams != Teams::None {
                    assert_ne!(
                        rules.teams.team(seat),
                        rules.teams.team(game.defender()),
                        "a partner threw in on the defender"
                    );
                }
            }
            (Phase::Defend, Action::Transfer(x)) => {
                assert_eq!(rules.variant, Variant::Perevodnoy);
                assert!(game.defence_cards().is_empty());
                assert_eq!(x.rank(), game.attack_cards()[0].rank());
            }
            _ => {}
        }
        game.apply(a, &mut rng0()).unwrap();
        game.check_invariants()
            .unwrap_or_else(|e| panic!("after {a}: {e}"));
        // Cards are conserved.
        let mut all = game.discard()
            | game.stock().iter().fold(0, |s, c| s | c.bit())
            | game
                .attack_cards()
                .iter()
                .chain(game.defence_cards())
                .fold(0, |s, c| s | c.bit());
        let mut n = count(all);
        for p in 0..rules.players as usize {
            all |= game.hand(p);
            n += count(game.hand(p));
        }
        assert_eq!((all, n), (deck, rules.deck as u32), "cards not conserved");
        if game.phase() != Phase::Over {
            let attacks = game.attack_cards().len();
            assert!(attacks <= 6);
            assert!(attacks <= game.defender_start_hand() as usize);
            if rules.five_before_discard && game.discard() == 0 {
                assert!(attacks <= 5, "6 attack cards before the first discard");
            }
        }
        if let Some(o) = game.outcome() {
            if let Outcome::Event(losers) = o {
                // The losers are the only ones holding cards (or, with last-cards=defender,
                // nobody holds any).
                for p in 0..rules.players as usize {
                    if losers >> p & 1 == 0 {
                        assert_eq!(game.hand(p), 0, "seat {p} won holding cards");
                    }
                }
                // The durak (who deals the next game of a series) lost and is left holding
                // cards, or nobody is and the last defender lost.
                let d = game.durak().expect("a lost game has a durak");
                assert_eq!(losers >> d & 1, 1, "durak {d} is not among the losers");
                assert!(
                    game.hand(d) != 0
                        || (d == game.defender() && game.out() == (1 << rules.players) - 1),
                    "durak {d} holds no cards"
                );
            } else {
                assert_eq!(game.durak(), None);
            }
            if o == Outcome::Capped {
                assert!(game.moves() >= rules.max_moves);
            }
            return game;
        }
    }
}

fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for players in 2..=6u8 {
        for variant in [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy] {
            v.push(Rules::standard(variant, players));
        }
    }
    v
}

#[test]
fn random_games_keep_every_rule() {
    for rules in all_rules() {
        for seed in 0..30 {
            let g = play_checked(rules, &[Strategy::Random], seed);
            assert!(g.outcome().is_some());
        }
    }
}

fn arb_rules() -> impl proptest::strategy::Strategy<Value = Rules> {
    (
        2u8..=6,
        0usize..3,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0usize..3,
        prop_oneof![Just(10_000u32), Just(60u32)],
    )
        .prop_map(
            |(players, v, show, dealer, big, last, five, redeal, teams, cap)| {
                let variant = [Variant::Podkidnoy, Variant::Perevodnoy, Variant::Platkowy][v];
                let mut r = Rules::standard(variant, players);
                r.show_trump_transfer = show && variant == Variant::Perevodnoy;
                r.dealer_trump = dealer;
                if big {
                    r.deck = 52;
                    r.hand = 7;
                }
                r.last_cards = if last {
                    LastCards::Defender
                } else {
                    LastCards::Draw
                };
                r.five_before_discard = five;
                r.redeal = redeal;
                r.teams = match (players, teams) {
                    (4, 1) => Teams::TwoByTwo,
                    (6, 1) => Teams::ThreeByThree,
                    (6, 2) => Teams::TwoByTwoByTwo,
                    _ => Teams::None,
                };
                r.max_moves = cap;
                r
            },
        )
}

fn arb_strategies() -> impl proptest::strategy::Strategy<Value = Vec<Strategy>> {
    proptest::collection::vec(
        prop_oneof![
            Just(Strategy::Random),
            Just(Strategy::Greedy),
            Just(Strategy::Expert),
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    /// Any rules, any bots, any seed: cards conserved, only legal moves, the attack limits hold,
    /// and the game ends (or is capped at the move limit).
    #[test]
    fn any_rules_any_bots(rules in arb_rules(), strategies in arb_strategies(), seed in any::<u64>()) {
        rules.validate().unwrap();
        let g = play_checked(rules, &strategies, seed);
        prop_assert!(g.outcome().is_some());
    }
}

#[test]
fn ismcts_plays_legally() {
    for (players, variant) in [
        (2, Variant::Podkidnoy),
        (3, Variant::Perevodnoy),
        (2, Variant::Platkowy),
    ] {
        let rules = Rules::standard(variant, players);
        for seed in 0..3 {
            let g = play_checked(
                rules,
                &[Strategy::Ismcts { budget: 30 }, Strategy::Greedy],
                seed,
            );
            assert!(g.outcome().is_some());
        }
    }
}

#[test]
fn move_cap_stops_games_and_says_so() {
    let mut rules = Rules::standard(Variant::Podkidnoy, 4);
    rules.max_moves = 10;
    let g = play_checked(rules, &[Strategy::Random], 3);
    assert_eq!(g.outcome(), Some(Outcome::Capped));
}

/// A deal: hands by seat, the turned bottom card, and the cards drawn first from the top; every
/// other card sits in the middle of the stock.
fn deal(rules: Rules, hands: &[&str], bottom: &str, top: &str, first: u8) -> DurakState {
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let bottom = c(bottom);
    let top: Vec<Card> = top
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(c)
        .collect();
    let used =
        hands.iter().fold(bottom.bit(), |s, h| s | h) | top.iter().fold(0, |s, c| s | c.bit());
    let mut stock = vec![bottom];
    stock.extend(Cards(rules.deck_cards() & !used));
    stock.extend(top.iter().rev());
    DurakState::from_deal(
        rules,
        &Deal {
            hands: &hands,
            stock: &stock,
            discard: 0,
            trump: None,
            first_attacker: first.into(),
        },
    )
    .unwrap()
}

/// An endgame: the stock is gone and every card not in a hand is discarded.
fn endgame(rules: Rules, hands: &[&str], trump: u8, first: u8) -> DurakState {
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let used = hands.iter().fold(0, |s, h| s | h);
    DurakState::from_deal(
        rules,
        &Deal {
            hands: &hands,
            stock: &[],
            discard: rules.deck_cards() & !used,
            trump: Some(trump),
            first_attacker: first.into(),
        },
    )
    .unwrap()
}

const HEARTS: u8 = 1;

#[test]
fn transfer_passes_the_attack_on_when_the_next_hand_is_big_enough() {
    let rules = Rules::standard(Variant::Perevodnoy, 3);
    let mut g = deal(
        rules,
        &[
            "7S,8S,9S,10S,JS,QS",
            "7H,8D,9D,10D,JD,QD",
            "6C,7C,8C,9C,10C,JC",
        ],
        "AD",
        "",
        0,
    );
    assert_eq!((g.attacker(), g.defender()), (0, 1));
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 1);
    assert_eq!(g.legal().transfers, c("7H").bit());
    g.apply(Action::Transfer(c("7H")), &mut rng0()).unwrap();
    // The transferer is the new main attacker; seat 2 defends both sevens.
    assert_eq!((g.attacker(), g.defender(), g.to_act()), (1, 2, 2));
    assert_eq!(g.attack_cards(), &[c("7S"), c("7H")]);
    // Seat 2 may pass them on again with 7♣ (seat 0 holds 5 ≥ 3 cards).
    assert_eq!(g.legal().transfers, c("7C").bit());
    g.apply(Action::Transfer(c("7C")), &mut rng0()).unwrap();
    assert_eq!((g.attacker(), g.defender()), (2, 0));
    // Seat 0 has no seven left, so no transfer, and no spade above 7, club or trump diamond
    // above... it holds 8♠: it can beat 7♠ but not 7♥ in the same go; it takes.
    assert_eq!(g.legal().transfers, 0);
    let bouts = g.bouts();
    g.apply(Action::Take, &mut rng0()).unwrap();
    // Nobody holds a seven to throw in: seat 0 picks up the three sevens.
    assert_eq!(g.bouts(), bouts + 1, "the bout ended");
    assert_eq!(g.hand(0) & set("7S,7H,7C"), set("7S,7H,7C"));
    assert_eq!(
        (count(g.hand(1)), count(g.hand(2))),
        (6, 6),
        "attackers refilled"
    );
    // Seat 0 took: seat 1, on its left, attacks next.
    assert_eq!(g.attacker(), 1);
}

#[test]
fn transfer_refused_when_the_next_player_has_too_few_cards() {
    let rules = Rules::standard(Variant::Perevodnoy, 2);
    // After attacking, seat 0 holds one card: passing two sevens back is not allowed.
    let mut g = endgame(rules, &["7S,AC", "7D,8S,9S"], HEARTS, 0);
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 1);
    assert_eq!(g.legal().transfers, 0);
    assert_eq!(g.legal().plays, set("8S,9S"));
    // With two cards left to seat 0 it is allowed.
    let mut g = endgame(rules, &["7S,AC,KC", "7D,8S,9S"], HEARTS, 0);
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    assert_eq!(g.legal().transfers, c("7D").bit());
}

#[test]
fn show_trump_transfer_once_per_bout() {
    let mut rules = Rules::standard(Variant::Perevodnoy, 2);
    rules.show_trump_transfer = true;
    let mut g = deal(
        rules,
        &["7S,7D,9S,10S,JS,QS", "7H,8D,9D,10D,JD,QD"],
        "AH",
        "",
        0,
    );
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    assert_eq!(g.legal().shows, c("7H").bit());
    g.apply(Action::ShowTrump(c("7H")), &mut rng0()).unwrap();
    // Shown, not played: one attack card, now on seat 0.
    assert_eq!(g.attack_cards(), &[c("7S")]);
    assert_eq!((g.attacker(), g.defender()), (1, 0));
    assert!(g.hand(1) & c("7H").bit() != 0);
    assert!(
        g.view(0).known(1) & c("7H").bit() != 0,
        "a shown trump is public"
    );
    // Seat 0 may transfer back by adding 7♦; nobody may show again in this bout.
    assert_eq!(g.legal().shows, 0);
    assert_eq!(g.legal().transfers, c("7D").bit());
    g.apply(Action::Transfer(c("7D")), &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 1);
    assert_eq!(g.legal().shows, 0);
    // Seat 1 may still transfer by adding the trump seven itself.
    assert_eq!(g.legal().transfers, c("7H").bit());
}

#[test]
fn taking_lets_attackers_throw_in_then_the_defender_picks_up() {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    let mut g = deal(
        rules,
        &["6S,6D,6C,7S,7D,AS", "8H,8D,9H,9D,10H,10D"],
        "KC",
        "",
        0,
    );
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    // Seat 1 holds no spade and no club (trumps): taking is its only action, which the engine
    // plays; seat 0 may now throw in sixes.
    assert_eq!((g.phase(), g.to_act()), (Phase::Taking, 0));
    assert_eq!(g.legal().plays, set("6D,6C"));
    assert!(g.legal().pass);
    g.apply(Action::Play(c("6D")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("6C")), &mut rng0()).unwrap();
    // No sixes left: seat 1 picks up three cards, seat 0 refills and attacks again.
    assert_eq!((g.phase(), g.attacker()), (Phase::Attack, 0));
    assert_eq!(g.hand(1) & set("6S,6D,6C"), set("6S,6D,6C"));
    assert_eq!(count(g.hand(1)), 9);
    assert_eq!(count(g.hand(0)), 6);
    assert_eq!(
        g.view(0).known(1),
        set("6S,6D,6C"),
        "picked-up cards are public"
    );
}

/// Plays lowest legal cards until the first bout ends; returns the number of attack cards.
fn lowest_first_bout(g: &mut DurakState) -> usize {
    let mut attacks = 0;
    loop {
        let a = match g.phase() {
            Phase::Attack | Phase::ThrowIn => {
                attacks += 1;
                Action::Play(Card(g.legal().plays.trailing_zeros() as u8))
            }
            Phase::Defend => Action::Play(Card(g.legal().plays.trailing_zeros() as u8)),
            p => panic!("unexpected {p:?}"),
        };
        let bouts = g.bouts();
        g.apply(a, &mut rng0()).unwrap();
        if g.bouts() > bouts {
            return attacks;
        }
        assert!(g.attack_cards().len() <= 6);
    }
}

#[test]
fn attack_limit_six_five_before_discard_and_the_defenders_hand() {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    // Seat 1 beats with trumps whose ranks match seat 0's next cards.
    let hands = ["9S,9D,10S,10D,JS,JD", "AH,KH,QH,JH,10H,9H"];
    let mut g = deal(rules, &hands, "8H", "", 0);
    assert_eq!(lowest_first_bout(&mut g), 6, "six attack cards, all beaten");
    assert_eq!(count(g.discard()), 12);

    let mut five = rules;
    five.five_before_discard = true;
    let mut g = deal(five, &hands, "8H", "", 0);
    assert_eq!(lowest_first_bout(&mut g), 5);

    // The defender holds three cards: at most three attack cards.
    let mut g = endgame(rules, &["6S,6D,6C,6H,7D,7C", "QH,KH,AH"], HEARTS, 0);
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("QH")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("6D")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("KH")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("6C")), &mut rng0()).unwrap();
    assert_eq!(g.legal().plays, c("AH").bit());
    g.apply(Action::Play(c("AH")), &mut rng0()).unwrap();
    // Seat 1 is out of cards: the bout ended without asking seat 0 (nothing may be added), and
    // seat 1, having no cards with the stock gone, left; seat 0 is the durak.
    assert_eq!(g.outcome(), Some(Outcome::Event(0b01)));
}

#[test]
fn refill_order_is_main_attacker_throwers_then_defender() {
    let rules = Rules::standard(Variant::Podkidnoy, 3);
    let mut g = deal(
        rules,
        &[
            "6S,6C,9C,10C,JC,QC",
            "AS,AD,KD,QD,JD,10D",
            "6D,8H,9H,JH,QH,KC",
        ],
        "7H",
        "",
        0,
    );
    // 6♠ beaten by A♠; seat 0 (holding 6♣) passes; seat 2 throws in 6♦, beaten by 10♦; the
    // order starts again from seat 0, which passes; seat 2 has nothing to add: discarded.
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("AS")), &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 0);
    g.apply(Action::Pass, &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 2);
    g.apply(Action::Play(c("6D")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("10D")), &mut rng0()).unwrap();
    assert_eq!(
        g.to_act(),
        0,
        "after each answer the order starts again from the main attacker"
    );
    let top: Vec<Card> = g.stock().iter().rev().take(3).copied().collect();
    let on_table = g.attack_cards().len() + g.defence_cards().len();
    g.apply(Action::Pass, &mut rng0()).unwrap();
    assert_eq!(
        count(g.discard()) as usize,
        on_table,
        "the bout ended and its cards were discarded"
    );
    assert!(
        g.hand(0) & top[0].bit() != 0,
        "the main attacker draws first"
    );
    assert!(g.hand(2) & top[1].bit() != 0, "then the thrower");
    assert!(g.hand(1) & top[2].bit() != 0, "the defender last");
    assert_eq!(
        g.attacker(),
        1,
        "the defender beat everything and attacks next"
    );
}

#[test]
fn last_cards_together_draw_or_defender_loses() {
    for (last, expected) in [
        (LastCards::Draw, Outcome::Draw),
        (LastCards::Defender, Outcome::Event(0b10)),
    ] {
        let mut rules = Rules::standard(Variant::Podkidnoy, 2);
        rules.last_cards = last;
        // Seat 0's only card is played for it; seat 1 beats it with its last card.
        let mut g = endgame(rules, &["7S", "8S"], HEARTS, 0);
        assert_eq!(g.attack_cards(), &[c("7S")]);
        g.apply(Action::Play(c("8S")), &mut rng0()).unwrap();
        assert_eq!(g.outcome(), Some(expected));
        assert_eq!(g.epaulettes(), 0);
        // With a choice: seat 1 beats 7♠ with its last card while seat 0 has none left.
        let mut g = endgame(rules, &["7S", "8S,9S"], HEARTS, 0);
        assert_eq!(g.outcome(), None);
        assert_eq!(g.to_act(), 1);
        g.apply(Action::Play(c("8S")), &mut rng0()).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Event(0b10)), "seat 1 keeps 9♠");
    }
}

#[test]
fn seven_and_eight_players_play_with_the_full_deck() {
    for players in [7u8, 8] {
        let rules = Rules::standard(Variant::Podkidnoy, players)
            .with_changes("deck=52")
            .unwrap();
        rules.validate().unwrap();
        let mut rng = Stream::seed_from_u64(players as u64);
        for _ in 0..40 {
            let mut g = DurakState::deal(&rules, &Start::default(), &mut rng);
            let cards: u32 = (0..players as usize).map(|p| count(g.hand(p))).sum();
            assert_eq!(cards + g.stock_len() as u32, 52);
            let mut bots: Vec<Bot> = (0..players).map(|_| Bot::new(Strategy::Greedy)).collect();
            while g.outcome().is_none() {
                let s = g.to_act();
                let a = bots[s].act(&g.view(s), &mut rng);
                g.apply(a, &mut rng).unwrap();
                g.check_invariants().unwrap();
            }
        }
    }
    assert!(Rules::standard(Variant::Podkidnoy, 7).validate().is_err());
}

#[test]
fn durak_with_epaulettes() {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    // One six, seat 0's last card (forced), seat 1 cannot beat it and takes (forced): one
    // epaulette.
    let g = endgame(rules, &["6S", "7D,8D"], HEARTS, 0);
    assert_eq!(g.outcome(), Some(Outcome::Event(0b10)));
    assert_eq!(g.epaulettes(), 1);
    // Two sixes thrown at a taker: both shoulders.
    let mut g = endgame(rules, &["6S,6C", "7D,8D,9D"], HEARTS, 0);
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    assert_eq!(g.phase(), Phase::Taking);
    g.apply(Action::Play(c("6C")), &mut rng0()).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Event(0b10)));
    assert_eq!(g.epaulettes(), 2);
    // A seven last: no epaulettes.
    let g = endgame(rules, &["7S", "7D,8D"], HEARTS, 0);
    assert_eq!(g.outcome(), Some(Outcome::Event(0b10)));
    assert_eq!(g.epaulettes(), 0);
    // With 52 cards the lowest card is the 2 ("la carta de menor valor"): a 2 gives the
    // epaulette, a six does not.
    let full = rules.with_changes("deck=52").unwrap();
    let g = endgame(full, &["2S", "7D,8D"], HEARTS, 0);
    assert_eq!(g.outcome(), Some(Outcome::Event(0b10)));
    assert_eq!(g.epaulettes(), 1);
    let g = endgame(full, &["6S", "2D,3D"], HEARTS, 0);
    assert_eq!(g.outcome(), Some(Outcome::Event(0b10)));
    assert_eq!(g.epaulettes(), 0);
}

#[test]
fn partners_never_throw_in_on_each_other_and_a_team_loses_together() {
    let mut rules = Rules::standard(Variant::Podkidnoy, 4);
    rules.teams = Teams::TwoByTwo;
    // Seat 0 attacks seat 1; seat 3 (seat 1's partner) holds a six but is never asked; seat 2
    // (seat 0's partner) is.
    let mut g = endgame(rules, &["6S,AC", "AS,KS", "6D,AD", "6C,KC"], HEARTS, 0);
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("AS")), &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 0);
    g.apply(Action::Pass, &mut rng0()).unwrap();
    assert_eq!(g.to_act(), 2, "the attacker's partner throws in");
    g.apply(Action::Pass, &mut rng0()).unwrap();
    assert_eq!(g.attacker(), 1, "nobody else was asked: the bout is over");
    // Team of seats 1 and 3 against 0 and 2: once one team has no cards, the other loses.
    let mut g = endgame(rules, &["7S,6S", "8S,AC", "6D,7C", "9D,8C"], HEARTS, 0);
    while g.outcome().is_none() {
        let l = *g.legal();
        let a = if l.plays != 0 {
            Action::Play(Card(l.plays.trailing_zeros() as u8))
        } else {
            l.nth(0)
        };
        g.apply(a, &mut rng0()).unwrap();
    }
    match g.outcome().unwrap() {
        Outcome::Event(losers) => assert!(losers == 0b0101 || losers == 0b1010, "{losers:b}"),
        o => panic!("{o:?}"),
    }
}

#[test]
fn lowest_trump_swap_and_the_turned_trump_drawn_last() {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    let mut g = deal(
        rules,
        &["6H,7S,8S,9S,10S,JS", "7D,8D,9D,10D,JD,QD"],
        "KH",
        "",
        0,
    );
    assert_eq!(g.first_attacker(), 0, "seat 0 holds the lowest trump");
    assert!(g.legal().swap);
    assert!(g.view(1).bottom_card() == Some(c("KH")));
    g.apply(Action::SwapTrump, &mut rng0()).unwrap();
    assert!(g.hand(0) & c("KH").bit() != 0);
    assert_eq!(g.view(1).bottom_card(), Some(c("6H")));
    assert!(
        g.view(1).known(0) & c("KH").bit() != 0,
        "everybody saw the swap"
    );
    assert!(!g.legal().swap, "one swap per game");
    // Play the game out: the last card drawn from the stock is the bottom card (6♥).
    let mut rng = Stream::seed_from_u64(5);
    let mut bots = [Bot::new(Strategy::Greedy), Bot::new(Strategy::Greedy)];
    let mut last_drawn = None;
    while g.outcome().is_none() {
        let before = g.stock_len();
        let hands_before = [g.hand(0), g.hand(1)];
        let s = g.to_act();
        let a = bots[s].act(&g.view(s), &mut rng);
        g.apply(a, &mut rng0()).unwrap();
        if before > 0 && g.stock_len() == 0 {
            let new = (g.hand(0) & !hands_before[0]) | (g.hand(1) & !hands_before[1]);
            last_drawn = Some(new & c("6H").bit() != 0);
        }
    }
    assert_eq!(last_drawn, Some(true));
    // `trump-swap=off` (house rule): the holder of the lowest trump may not swap.
    let off = rules.with_changes("trump-swap=off").unwrap();
    let g = deal(
        off,
        &["6H,7S,8S,9S,10S,JS", "7D,8D,9D,10D,JD,QD"],
        "KH",
        "",
        0,
    );
    assert!(!g.legal().swap);
    assert_eq!(g.view(1).bottom_card(), Some(c("KH")));
}

#[test]
fn dealers_trump_and_a_full_table_of_six() {
    let mut rules = Rules::standard(Variant::Podkidnoy, 4);
    rules.dealer_trump = true;
    for seed in 0..50 {
        let g = DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(seed));
        let dealer = g.dealer();
        assert_eq!(g.view(1).bottom_card(), None, "no card is turned");
        assert!(g.hand(dealer) & g.trump_card().bit() != 0);
        assert_eq!(g.trump(), g.trump_card().suit());
        assert_eq!(g.view((dealer + 1) % 4).known(dealer), g.trump_card().bit());
    }
    // Six players with six cards use the whole deck: the trump comes from the dealer.
    let rules = Rules::standard(Variant::Podkidnoy, 6);
    let g = DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(1));
    assert_eq!(g.stock_len(), 0);
    assert!(g.hand(g.dealer()) & g.trump_card().bit() != 0);
}

#[test]
fn the_holder_of_the_lowest_trump_attacks_first() {
    for players in 2..=6u8 {
        let rules = Rules::standard(Variant::Podkidnoy, players);
        for seed in 0..200 {
            let g = DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(seed));
            let players = usize::from(players);
            let trumps: CardSet =
                (0..players).fold(0, |s, p| s | g.hand(p)) & cards::suit_mask(g.trump());
            let first = g.first_attacker();
            if trumps == 0 {
                assert_eq!(first, (g.dealer() + 1) % players);
            } else {
                let lowest = trumps.trailing_zeros();
                assert!(g.hand(first) >> lowest & 1 == 1);
            }
            if g.phase() == Phase::Attack {
                assert_eq!(g.defender(), (first + 1) % players);
            }
        }
    }
}

#[test]
fn platkowy_openings_are_exactly_the_paired_sets() {
    let rules = Rules::standard(Variant::Platkowy, 2);
    let hand = set("6S,6H,6D,9C,9S");
    let mut g = DurakState::from_deal(
        rules,
        &Deal {
            hands: &[hand, set("AH,AD,AC,AS,KH")],
            stock: &[],
            discard: rules.deck_cards() & !(hand | set("AH,AD,AC,AS,KH")),
            trump: Some(HEARTS),
            first_attacker: 0,
        },
    )
    .unwrap();
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let opens: Vec<CardSet> = actions
        .iter()
        .filter_map(|a| {
            if let Action::Open(s) = a {
                Some(*s)
            } else {
                None
            }
        })
        .collect();
    // Independent reading: every subset of 2..=5 cards whose ranks pair up, with at most one
    // card left over.
    let mut expected = Vec::new();
    let cards_v: Vec<Card> = Cards(hand).collect();
    for mask in 0u32..(1 << cards_v.len()) {
        let s: CardSet = (0..cards_v.len())
            .filter(|i| mask >> i & 1 == 1)
            .fold(0, |s, i| s | cards_v[i].bit());
        let k = count(s);
        let odd = (0..13)
            .filter(|&r| count(s & rank_mask(r)) % 2 == 1)
            .count();
        if (2..=5).contains(&k) && odd == (k % 2) as usize {
            expected.push(s);
        }
    }
    let mut got = opens.clone();
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected);
    assert!(opens.iter().all(|&s| is_paired_opening(s)));
    assert!(!is_paired_opening(set("6S,9C")));
    assert!(is_paired_opening(set("6S,6H,9C")));
    // An opening puts every card on the table; the defender beats them in order.
    g.apply(Action::Open(set("6S,6D,9S,9C")), &mut rng0())
        .unwrap();
    assert_eq!(g.attack_cards().len(), 4);
    assert_eq!(g.to_act(), 1);
    assert!(
        g.apply(Action::Open(set("AH,AD")), &mut rng0()).is_err(),
        "not the attacker's turn"
    );
}

#[test]
fn illegal_actions_are_refused() {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    let mut g = deal(
        rules,
        &["6S,7S,8S,9S,10S,JS", "7D,8D,9D,10D,JD,QD"],
        "KH",
        "",
        0,
    );
    assert!(
        g.apply(Action::Pass, &mut rng0()).is_err(),
        "the opener may not pass"
    );
    assert!(
        g.apply(Action::Play(c("7D")), &mut rng0()).is_err(),
        "not in the hand"
    );
    assert!(g.apply(Action::Transfer(c("6S")), &mut rng0()).is_err());
    g.apply(Action::Play(c("6S")), &mut rng0()).unwrap();
    assert!(
        g.apply(Action::Play(c("7D")), &mut rng0()).is_err(),
        "7♦ does not beat 6♠"
    );
    assert!(
        g.apply(Action::Pass, &mut rng0()).is_err(),
        "the defender may not pass"
    );
}

/// Probability that one 6-card hand from the 36-card deck calls for a re-deal, by counting.
fn bad_hand_probability() -> f64 {
    fn choose(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }
    let total = choose(36, 6);
    let one_colour = 2.0 * choose(18, 6);
    // Five or six of one suit: C(9,5)·27 + C(9,6) per suit.
    let five_suit = 4.0 * (choose(9, 5) * 27.0 + choose(9, 6));
    // Hands counted twice: one colour *and* five of a suit (5 of a suit + 1 of the same colour's
    // other suit, or 6 of a suit).
    let both = 4.0 * (choose(9, 5) * 9.0 + choose(9, 6));
    (one_colour + five_suit - both) / total
}

#[test]
fn redeal_rule_matches_exact_counting() {
    // Every 6-card hand of the 36-card deck, counted one by one, agrees with the closed form.
    let deck: Vec<Card> = Cards(cards::FULL_36).collect();
    let mut bad = 0u64;
    let mut total = 0u64;
    let mut idx = [0usize, 1, 2, 3, 4, 5];
    loop {
        let hand = idx.iter().fold(0, |s, &i| s | deck[i].bit());
        total += 1;
        bad += u64::from(needs_redeal(hand));
        // Next 6-combination of 36 in lexicographic order.
        let mut i = 5;
        while idx[i] == 30 + i {
            if i == 0 {
                break;
            }
            i -= 1;
        }
        if idx[i] == 30 + i {
            break;
        }
        idx[i] += 1;
        for j in i + 1..6 {
            idx[j] = idx[j - 1] + 1;
        }
    }
    assert_eq!(total, 1_947_792);
    let p = bad_hand_probability();
    assert!(
        (bad as f64 / total as f64 - p).abs() < 1e-12,
        "{bad} of {total} vs {p}"
    );
    // Without the rule, the first hand is bad at that rate (within 4 standard errors); with
    // it, no hand ever is.
    let mut off = Rules::standard(Variant::Podkidnoy, 2);
    off.redeal = false;
    let n = 100_000u64;
    let mut rng = Stream::seed_from_u64(9);
    let bad = (0..n)
        .filter(|_| needs_redeal(DurakState::deal(&off, &Start::default(), &mut rng).hand(0)))
        .count() as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (bad / n as f64 - p).abs() < 4.0 * se,
        "{} vs {p}",
        bad / n as f64
    );
    let on = Rules::standard(Variant::Podkidnoy, 4);
    for seed in 0..2000 {
        let g = DurakState::deal(&on, &Start::default(), &mut Stream::seed_from_u64(seed));
        assert!((0..4).all(|s| !needs_redeal(g.hand(s))));
    }
}

#[test]
fn determinisation_keeps_the_public_facts_and_hides_the_rest() {
    let rules = Rules::standard(Variant::Podkidnoy, 3);
    let mut rng = Stream::seed_from_u64(4);
    let mut g = DurakState::deal(&rules, &Start::default(), &mut rng);
    let mut bots = [
        Bot::new(Strategy::Greedy),
        Bot::new(Strategy::Greedy),
        Bot::new(Strategy::Greedy),
    ];
    // Play a few bouts, stopping at the start of one (empty table).
    let mut moves = 0;
    while moves < 20 || !g.attack_cards().is_empty() || g.phase() != Phase::Attack {
        assert!(g.outcome().is_none());
        moves += 1;
        let s = g.to_act();
        let a = bots[s].act(&g.view(s), &mut rng);
        g.apply(a, &mut rng0()).unwrap();
    }
    let me = g.to_act();
    let v = g.view(me);
    for k in 0..20u64 {
        let d = DurakState::deal_for_view(&v, &mut Stream::seed_from_u64(k));
        d.check_invariants().unwrap();
        assert_eq!(d.hand(me), g.hand(me));
        assert_eq!(d.discard(), g.discard());
        assert_eq!(d.stock_len(), g.stock_len());
        assert_eq!(d.view(me).bottom_card(), v.bottom_card());
        assert_eq!(d.legal(), g.legal());
        for p in 0..3 {
            assert_eq!(count(d.hand(p)), count(g.hand(p)));
            assert_eq!(d.hand(p) & v.known(p), v.known(p));
        }
    }
    // Two positions that differ only in cards the player cannot see give the same samples:
    // nothing hidden leaks into the determinisation.
    let other = me.wrapping_add(1) % 3;
    let hidden_other = g.hand(other) & !v.known(other);
    let stock_cards: Vec<Card> = g.stock().to_vec();
    if hidden_other != 0 && stock_cards.len() > 1 {
        let swap_in = stock_cards[stock_cards.len() - 1];
        let swap_out = Card(hidden_other.trailing_zeros() as u8);
        // Rebuild the same public position with one hidden card exchanged.
        let mut hands: Vec<CardSet> = (0..3).map(|p| g.hand(p)).collect();
        hands[other] = (hands[other] & !swap_out.bit()) | swap_in.bit();
        let mut stock = stock_cards.clone();
        let last = stock.len() - 1;
        stock[last] = swap_out;
        let a = DurakState::from_deal(
            rules,
            &Deal {
                hands: &(0..3).map(|p| g.hand(p)).collect::<Vec<_>>(),
                stock: &stock_cards,
                discard: g.discard(),
                trump: None,
                first_attacker: g.attacker(),
            },
        )
        .unwrap();
        let b = DurakState::from_deal(
            rules,
            &Deal {
                hands: &hands,
                stock: &stock,
                discard: g.discard(),
                trump: None,
                first_attacker: g.attacker(),
            },
        )
        .unwrap();
        let seat = a.to_act();
        assert_eq!(seat, b.to_act());
        for k in 0..10u64 {
            let da = DurakState::deal_for_view(&a.view(seat), &mut Stream::seed_from_u64(k));
            let db = DurakState::deal_for_view(&b.view(seat), &mut Stream::seed_from_u64(k));
            if seat != other {
                for p in 0..3 {
                    assert_eq!(da.hand(p), db.hand(p));
                }
                assert_eq!(da.stock(), db.stock());
            }
        }
    }
}

/// Durak counts over `n` two-player games (seed order fixed), with the first attacker's.
fn two_player_rates(a: Strategy, b: Strategy, n: u64, seed: u64) -> ([u64; 2], u64, u64) {
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    let mut bots = [Bot::new(a), Bot::new(b)];
    let mut master = Stream::seed_from_u64(seed);
    let mut durak = [0u64; 2];
    let (mut first, mut draws) = (0, 0);
    for _ in 0..n {
        let mut deal_rng = Stream::seed_from_u64(master.next_u64());
        let mut dec = Stream::seed_from_u64(master.next_u64());
        let mut g = DurakState::deal(&rules, &Start::default(), &mut deal_rng);
        while g.outcome().is_none() {
            let s = g.to_act();
            let act = bots[s].act(&g.view(s), &mut dec);
            g.apply(act, &mut rng0()).unwrap();
        }
        match g.outcome().unwrap() {
            Outcome::Event(losers) => {
                let l = losers.trailing_zeros() as usize;
                durak[l] += 1;
                first += u64::from(l == g.first_attacker());
            }
            Outcome::Draw => draws += 1,
            o => panic!("a two-player game ended {o:?}"),
        }
    }
    (durak, first, draws)
}

#[test]
fn greedy_beats_random_and_random_has_no_first_attacker_edge() {
    // Published (open hands): greedy beats random in about 90 % of games. Our random player is
    // uniform over every legal action (it often takes for no reason), so greedy does better
    // still: it is the durak in under 5 % of games.
    let n = 4000;
    let (d, _, draws) = two_player_rates(Strategy::Greedy, Strategy::Random, n, 1);
    let greedy = d[0] as f64 / n as f64;
    assert!(greedy < 0.05, "greedy durak rate {greedy}");
    assert!(d[1] as f64 / n as f64 > 0.9);
    assert!(draws < n / 50);
    // Random against random: the first attacker is the durak half the time, within 4 SE.
    let n = 20_000;
    let (_, first, draws) = two_player_rates(Strategy::Random, Strategy::Random, n, 2);
    let decided = (n - draws) as f64;
    let rate = first as f64 / decided;
    let se = (0.25 / decided).sqrt();
    assert!(
        (rate - 0.5).abs() < 4.0 * se,
        "first attacker durak rate {rate} ± {se}"
    );
}

#[test]
fn stronger_bots_win_more() {
    // Expert against greedy, and ISMCTS against greedy, seats alternating: the stronger bot is
    // the durak less often.
    let n = 3000;
    let (d1, _, _) = two_player_rates(Strategy::Expert, Strategy::Greedy, n / 2, 3);
    let (d2, _, _) = two_player_rates(Strategy::Greedy, Strategy::Expert, n / 2, 4);
    let expert = (d1[0] + d2[1]) as f64 / n as f64;
    let greedy = (d1[1] + d2[0]) as f64 / n as f64;
    // Larger runs: expert 36 %, greedy 52 %; the SE of this difference is about 1.3 points.
    assert!(expert + 0.08 < greedy, "expert {expert} greedy {greedy}");
    // ISMCTS with only 30 iterations a move: about 31 % against greedy's 58 % in larger runs;
    // with 300 games the SE of the difference is under 4 points, so 10 points is > 4 SE away.
    let n = 300;
    let search = Strategy::Ismcts { budget: 30 };
    let (d1, _, _) = two_player_rates(search, Strategy::Greedy, n / 2, 5);
    let (d2, _, _) = two_player_rates(Strategy::Greedy, search, n / 2, 6);
    let ismcts = (d1[0] + d2[1]) as f64 / n as f64;
    let greedy = (d1[1] + d2[0]) as f64 / n as f64;
    assert!(ismcts + 0.10 < greedy, "ismcts:30 {ismcts} greedy {greedy}");
}

#[test]
fn random_play_out_equals_the_random_bot_move_by_move() {
    for (players, variant) in [
        (2u8, Variant::Podkidnoy),
        (4, Variant::Perevodnoy),
        (3, Variant::Platkowy),
    ] {
        let rules = Rules::standard(variant, players);
        let mut bots: Vec<Bot> = (0..players).map(|_| Bot::new(Strategy::Random)).collect();
        let mut scratch = Vec::new();
        for seed in 0..300u64 {
            let mut a =
                DurakState::deal(&rules, &Start::default(), &mut Stream::seed_from_u64(seed));
            let mut b = a.clone();
            let mut rng_a = Stream::seed_from_u64(seed + 1000);
            let mut rng_b = rng_a.clone();
            let outcome = a.play_out_random(&mut rng_a, &mut scratch);
            while b.outcome().is_none() {
                let s = b.to_act();
                let act = bots[s].act(&b.view(s), &mut rng_b);
                b.apply(act, &mut rng0()).unwrap();
            }
            assert_eq!(Some(outcome), b.outcome());
            assert_eq!(
                (a.bouts(), a.moves(), a.discard()),
                (b.bouts(), b.moves(), b.discard())
            );
            assert_eq!(rng_a.next_u64(), rng_b.next_u64(), "same draws used");
        }
    }
}

/// Two players, hearts trump: seat 0 holds the lowest trump (6♥) and attacks with the 7♠, seat 1
/// beats it with the 8♠, and the refill that follows empties the stock: seat 0 draws the A♠,
/// seat 1 the turned K♥.
fn last_draw(rules: Rules) -> DurakState {
    let hands = [set("6H,7S,9S,10S,JS,QS"), set("8S,7D,8D,9D,10D,JD")];
    let stock = [c("KH"), c("AS")];
    let used = hands[0] | hands[1] | set("KH,AS");
    let mut g = DurakState::from_deal(
        rules,
        &Deal {
            hands: &hands,
            stock: &stock,
            discard: rules.deck_cards() & !used,
            trump: None,
            first_attacker: 0,
        },
    )
    .unwrap();
    assert_eq!(
        g.legal().swap,
        rules.trump_swap,
        "the holder may swap on a turn while the stock lasts"
    );
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("8S")), &mut rng0()).unwrap();
    assert_eq!(g.stock_len(), 0);
    g
}

#[test]
fn the_trump_swap_lasts_until_the_next_bout_after_the_last_draw() {
    // «Esto ocurre incluso si alguien toma el triunfo del mazo al agotarlo, siempre y cuando la
    // siguiente ronda después de agotado el mazo no haya empezado»: before seat 1 leads, seat 0
    // may still swap its 6♥ for the K♥ seat 1 drew.
    let rules = Rules::standard(Variant::Podkidnoy, 2);
    let mut g = last_draw(rules);
    assert_eq!((g.to_act(), g.attacker(), g.phase()), (0, 1, Phase::Attack));
    let l = *g.legal();
    assert!(l.swap && l.pass && l.plays == 0, "{l:?}");
    assert_eq!(g.view(1).swap_window(), Some(c("KH")));
    assert!(
        g.view(1).known(0) & c("6H").bit() != 0,
        "the table sees who is asked"
    );
    g.apply(Action::SwapTrump, &mut rng0()).unwrap();
    assert_eq!(g.hand(0) & set("6H,KH"), c("KH").bit());
    assert_eq!(g.hand(1) & set("6H,KH"), c("6H").bit());
    assert!(g.view(0).known(1) & c("6H").bit() != 0 && g.view(1).known(0) & c("KH").bit() != 0);
    assert_eq!(
        (g.to_act(), g.phase(), g.view(0).swap_window()),
        (1, Phase::Attack, None)
    );
    assert!(!g.legal().swap);
    g.check_invariants().unwrap();
    // Declined: the bout starts with the hands as they were.
    let mut g = last_draw(rules);
    g.apply(Action::Pass, &mut rng0()).unwrap();
    assert_eq!((g.to_act(), g.hand(0) & c("6H").bit()), (1, c("6H").bit()));
    assert!(!g.legal().swap && g.legal().plays != 0);
    // The bots take the K♥.
    for strategy in [Strategy::Greedy, Strategy::Expert] {
        let g = last_draw(rules);
        let a = Bot::new(strategy).act(&g.view(0), &mut rng0());
        assert_eq!(a, Action::SwapTrump, "{strategy}");
    }
    // `trump-swap=off`: no window, seat 1 leads at once.
    let g = last_draw(rules.with_changes("trump-swap=off").unwrap());
    assert_eq!((g.to_act(), g.legal().swap), (1, false));
}

#[test]
fn platkowy_throws_in_several_cards_in_pairs() {
    // «Se puede atacar con varias cartas a la vez pero el ataque debe contener parejas»: after
    // the 7♠ is beaten by the 9♠, seat 0 may throw in its 7s and 9s several at once.
    let rules = Rules::standard(Variant::Platkowy, 2);
    let mut g = endgame(rules, &["7S,7H,7D,9H,KC", "9S,AH,AD,AC,AS"], HEARTS, 0);
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("9S")), &mut rng0()).unwrap();
    assert_eq!((g.phase(), g.to_act()), (Phase::ThrowIn, 0));
    assert!(g.legal().combos);
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let mut throws: Vec<CardSet> = actions
        .iter()
        .filter_map(|a| match a {
            Action::ThrowIn(s) => Some(*s),
            _ => None,
        })
        .collect();
    throws.sort_unstable();
    // Independently: subsets of the 7♥ 7♦ 9♥ (the table's ranks) of 2 to 4 cards (the defender
    // holds 4) whose ranks pair up with at most one card over.
    let mut expected = vec![set("7H,7D"), set("7H,7D,9H")];
    expected.sort_unstable();
    assert_eq!(throws, expected);
    assert!(g
        .clone()
        .apply(Action::ThrowIn(set("7H,9H")), &mut rng0())
        .is_err());
    assert!(g
        .clone()
        .apply(Action::Open(set("7H,7D")), &mut rng0())
        .is_err());
    g.apply(Action::ThrowIn(set("7H,7D,9H")), &mut rng0())
        .unwrap();
    assert_eq!(g.attack_cards().len(), 4);
    assert_eq!((g.phase(), g.to_act()), (Phase::Defend, 1));
    g.check_invariants().unwrap();
    // Podkidnoy throws in one card at a time.
    let mut g = endgame(
        Rules::standard(Variant::Podkidnoy, 2),
        &["7S,7H,7D,9H,KC", "9S,AH,AD,AC,AS"],
        HEARTS,
        0,
    );
    g.apply(Action::Play(c("7S")), &mut rng0()).unwrap();
    g.apply(Action::Play(c("9S")), &mut rng0()).unwrap();
    assert!(!g.legal().combos);
}

#[test]
fn four_experts_no_longer_go_round_for_ever() {
    // Seed 2451 of four experts: with the stock gone and one seat out, the other three passed
    // A♠ and K♠ round (hearts trump, none left), each leading what the next could not beat,
    // until the move cap stopped the game after 6 272 actions.
    let rules = Rules::standard(Variant::Podkidnoy, 4);
    let mut rng = Stream::seed_from_u64(2451);
    let mut g = DurakState::deal(&rules, &Start::default(), &mut rng);
    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::new(Strategy::Expert)).collect();
    while g.outcome().is_none() {
        let s = g.to_act();
        let a = bots[s].act(&g.view(s), &mut rng);
        g.apply(a, &mut rng).unwrap();
    }
    assert_ne!(g.outcome(), Some(Outcome::Capped));
    assert!(g.bouts() < 200, "{} bouts", g.bouts());
}
