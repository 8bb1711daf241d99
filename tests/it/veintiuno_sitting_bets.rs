//! 21's bet as a decision of the whole-game layer: a sitting played through the State API bets
//! on each face-down card exactly as `veintiuno sim`'s table does, a search decides its bets,
//! and a view taken while the players bet shows only the seat's own face-down card.

use tahur::games::veintiuno::bots::Strategy;
use tahur::games::veintiuno::engine::{Move, Table};
use tahur::games::veintiuno::sitting::{TableRules, VeintiunoState};
use tahur::games::veintiuno::Veintiuno;
use tahur::play::{Bot as _, GameRules, Start, State};
use tahur::rng::{base_stream, Stream};

fn rules(spec: &str) -> TableRules {
    TableRules::standard(4).with_changes(spec).unwrap()
}

fn start(hands: u64) -> Start {
    Start {
        dealer: None,
        first: None,
        length: hands,
    }
}

/// Plays a sitting move by move through the State API (`apply`, checked after every move),
/// every seat with `strategy`; returns it played out and the bets it saw made.
fn play_sitting(
    rules: &TableRules,
    strategy: &str,
    hands: u64,
    seed: u64,
) -> (VeintiunoState, Vec<(u8, Move)>) {
    let s = Strategy::parse(strategy).unwrap();
    let mut bot = tahur::play::Strategy::<Veintiuno>::bot(&s, rules);
    let mut deal = base_stream(seed);
    let mut decisions = base_stream(seed + 1);
    let mut game = VeintiunoState::deal(rules, &start(hands), &mut deal);
    let mut bets = Vec::new();
    while !game.is_over() {
        let seat = game.to_act();
        let view = game.view(seat);
        let m = bot.act(&view, &mut decisions);
        if let Some(b) = view.decision().bet {
            bets.push((b.rank, m));
        }
        game.apply(m, &mut deal).unwrap();
        game.check_invariants().unwrap();
    }
    (game, bets)
}

#[test]
fn a_sitting_bets_on_the_face_down_card_as_the_table_of_sim_does() {
    // The sitting's table is the one `Table::new` deals from the same stream: playing its
    // decisions one by one through the State API must give every seat the net of
    // `Table::play_hand`, hand for hand, bets by the face-down card included. (Before bets were
    // decisions, the sitting bet the minimum everywhere and the sheet's seats fell short.)
    let r = rules("max-bet=10");
    let hands = 3_000;
    let (game, bets) = play_sitting(&r, "sheet", hands, 11);
    let sheet = tahur::games::veintiuno::sim::parse_policy("sheet").unwrap();
    let mut table = Table::new(r.options, vec![sheet; 4], r.bank, base_stream(11), true);
    let mut net = [0i64; 4];
    let mut bank = 0i64;
    for _ in 0..hands {
        let rep = table.play_hand();
        for (s, n) in net.iter_mut().enumerate() {
            *n += rep.player_net[s] as i64;
        }
        bank += rep.bank_net as i64;
    }
    for (s, &n) in net.iter().enumerate() {
        assert_eq!(game.points(s), n, "seat {s}");
    }
    assert_eq!(game.bank_net(), bank);
    // Every player bet once a hand: 10 on an ace or a figure, 1 on the rest.
    assert_eq!(bets.len() as u64, 3 * hands);
    for &(rank, m) in &bets {
        let raise = rank == 0 || rank >= 7;
        assert_eq!(m, Move::Bet(if raise { 10 } else { 1 }), "rank {rank}");
    }
    let raised = bets.iter().filter(|b| b.1 == Move::Bet(10)).count() as f64;
    // 16 of the 40 cards (A, 2–7, J, Q, K), within 4 standard errors.
    let p = 16.0 / 40.0;
    let n = bets.len() as f64;
    assert!((raised / n - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt());
    // `flat` bets the minimum: the same deal, other money.
    let (flat, flat_bets) = play_sitting(&r, "flat", hands, 11);
    assert!(flat_bets.iter().all(|b| b.1 == Move::Bet(1)));
    assert_ne!(flat.bank_net(), game.bank_net());
}

#[test]
fn with_one_bet_allowed_nobody_is_asked() {
    // Limits that leave no choice (the default 1–1, or 5–5) ask no bet: the sitting's first
    // decision is a hand's, every net 5 times the 1-unit sitting's.
    let (one, b1) = play_sitting(&rules(""), "basic", 500, 3);
    let (five, b5) = play_sitting(&rules("min-bet=5,max-bet=5"), "basic", 500, 3);
    assert!(b1.is_empty() && b5.is_empty());
    for s in 0..4 {
        assert_eq!(five.points(s), 5 * one.points(s));
    }
}

/// A sitting at its first bet decision where the player to act holds `rank` face down.
fn betting_on(r: &TableRules, rank: u8) -> VeintiunoState {
    (0..)
        .map(|seed| VeintiunoState::deal(r, &start(1), &mut base_stream(seed)))
        .find(|g| g.view(g.to_act()).decision().bet.map(|b| b.rank) == Some(rank))
        .unwrap()
}

#[test]
fn the_search_bets_the_most_on_an_ace_and_the_least_on_a_six() {
    // The search weighs both bets by playing the hand out: an ace face down wins on average
    // (21 in two cards pays double), a 6 loses (`veintiuno sim`: +0.75 and −0.25 per unit bet).
    let r = rules("max-bet=4");
    for (rank, want) in [(0u8, Move::Bet(4)), (5, Move::Bet(1))] {
        let game = betting_on(&r, rank);
        let view = game.view(game.to_act());
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        assert_eq!(legal, vec![Move::Bet(1), Move::Bet(4)]);
        let mut search = tahur::play::ismcts::Search::<Veintiuno>::new(3_000);
        let chosen = search.choose(&view, &mut base_stream(7));
        assert_eq!(chosen, want, "face-down rank {rank}");
    }
}

#[test]
fn a_bet_outside_the_limits_or_a_move_before_the_bet_is_refused() {
    let r = rules("min-bet=2,max-bet=6");
    let game = betting_on(&r, 3);
    for m in [Move::Bet(1), Move::Bet(7), Move::Stand, Move::Hit] {
        let mut g = game.clone();
        let before = format!("{g:?}");
        assert!(g.apply(m, &mut base_stream(0)).is_err(), "{m}");
        assert_eq!(format!("{g:?}"), before, "a refused move changes nothing");
    }
    let mut g = game.clone();
    g.apply(Move::Bet(4), &mut base_stream(0)).unwrap();
    g.check_invariants().unwrap();
}

#[test]
fn a_view_while_betting_shows_only_the_seats_own_card_and_deals_the_rest_again() {
    let r = rules("max-bet=3");
    let game = betting_on(&r, 0);
    let seat = game.to_act();
    let mine = format!("{:?}", game.view(seat));
    assert!(
        mine.contains("??"),
        "the others' face-down cards are hidden: {mine}"
    );
    let other = (seat + 2) % 4;
    let mut others = std::collections::BTreeSet::new();
    let mut rng: Stream = base_stream(5);
    for _ in 0..200 {
        let dealt = VeintiunoState::deal_for_view(&game.view(seat), &mut rng);
        dealt.check_invariants().unwrap();
        assert_eq!(
            format!("{:?}", dealt.view(seat)),
            mine,
            "what the seat sees stays"
        );
        assert_eq!(dealt.view(seat).decision().bet.unwrap().rank, 0);
        others.insert(format!("{:?}", dealt.view(other)));
    }
    assert!(others.len() > 20, "the cards it cannot see are dealt again");
}
