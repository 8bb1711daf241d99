//! Ocho loco positions (issue 23): every position written at every step of many games, for every
//! seat, reads back to the same view; positions typed as players type them read as typed; bad
//! positions are refused with one line naming what is wrong; mangled ones are read or refused,
//! never crashed on; and advice is right where the answer is known: a last card that goes out at
//! once is best with 100 %.

use rand_core::SeedableRng;
use tahur::games::ocho::bots::Strategy;
use tahur::games::ocho::engine::{OchoState, Phase};
use tahur::games::ocho::rules::Rules;
use tahur::games::ocho::Ocho;
use tahur::play::advise::{self, verdict, AdviceSetup, Verdict};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{GameRules, State, Strategy as _};
use tahur::rng::Stream;
use tahur::runner::{RunControl, RunSpec};

fn rng(seed: u64) -> Stream {
    Stream::seed_from_u64(seed)
}

fn rules(players: u8, changes: &str) -> Rules {
    let r = Rules::standard(players);
    if changes.is_empty() {
        r
    } else {
        r.with_changes(changes).unwrap()
    }
}

fn read(rules: &Rules, text: &str) -> tahur::error::Result<OchoState> {
    Ocho::read_position(rules, text, &mut rng(7))
}

/// The legal actions as players say them, in order of their names (with two decks the engine
/// may hold the other copy of a card, which it lists in another place).
fn legal_names(g: &OchoState) -> Vec<String> {
    let mut names: Vec<String> = advise::legal_actions::<Ocho>(g)
        .into_iter()
        .map(Ocho::action_name)
        .collect();
    names.sort();
    names
}

/// Writes the view of the player to act in `game` (with `all_seats`, every seat's), reads it back and checks that the read game shows that
/// seat the same view (its Debug) and writes the same text, that the turn and the legal actions
/// are the same, and that the read game is whole (its invariants hold).
fn round_trip(game: &OchoState, all_seats: bool, what: &str) {
    let rules = *game.rules();
    let seats: Vec<usize> = if all_seats {
        (0..rules.players as usize).collect()
    } else {
        vec![game.to_act()]
    };
    for seat in seats {
        let view = game.view(seat);
        let text = Ocho::write_position(&view);
        assert!(!text.contains('\n'), "{what}: one line: {text}");
        let back = Ocho::read_position(&rules, &text, &mut rng(seat as u64))
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
        assert_eq!(Ocho::write_position(&again), text, "{what}");
        if seat == game.to_act() {
            assert_eq!(legal_names(&back), legal_names(game), "{what}: {text}");
        }
    }
}

/// The game `example` plays for `seed` at these rules, every step of it: the same deal, streams
/// and bots (checked against `example` at a few steps), without replaying from the start.
fn every_step(rules: &Rules, strategies: &[Strategy], seed: u64) -> Vec<OchoState> {
    let mut chunk = tahur::rng::base_stream(seed);
    let (mut deal, mut decisions) = tahur::play::game_streams(&mut chunk);
    let mut game = OchoState::deal(rules, &tahur::play::Start::default(), &mut deal);
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
        let shown = example::<Ocho, _>(rules, strategies, seed, after as u64).unwrap();
        assert_eq!(format!("{shown:?}"), format!("{:?}", steps[after]));
    }
    steps
}

#[test]
fn every_position_of_many_games_reads_back_to_the_same_view() {
    let tables: &[(u8, &str, &str, u64)] = &[
        (2, "", "greedy", 2),
        (2, "", "expert,random", 2),
        (3, "keep-drawn=on", "random,greedy", 2),
        (3, "max-actions=60", "random", 2),
        (4, "", "greedy:forget=0.5,random:forget=1", 1),
        (4, "eight-answers=on,joker=three", "random,expert", 1),
        (4, "first-card=acts", "random,greedy", 1),
        (4, "decks=2", "random", 1),
        (5, "hand=5", "expert,random:forget=0.3", 1),
        (6, "", "greedy,random", 1),
        (7, "hand=4", "random,greedy:forget=0.2", 1),
    ];
    let mut positions = 0;
    let mut phases = [0u32; 4];
    let mut reversed = 0;
    for &(players, changes, bots, seeds) in tables {
        let r = rules(players, changes);
        let strategies = Strategy::parse_list(bots).unwrap();
        for seed in 0..seeds {
            for (after, game) in every_step(&r, &strategies, seed).iter().enumerate() {
                round_trip(
                    game,
                    after % 10 == 0,
                    &format!("{players} players {changes} seed {seed} after {after}"),
                );
                positions += 1;
                phases[match game.phase() {
                    Phase::Turn => 0,
                    Phase::Drawn => 1,
                    Phase::Stack => 2,
                    _ => 3,
                }] += 1;
                reversed += u32::from(game.reversed());
            }
        }
    }
    assert!(positions > 5000, "{positions} positions");
    assert!(
        phases[0] > 3000 && phases[1] > 500 && phases[2] > 300 && phases[3] > 20,
        "every phase is met: {phases:?}"
    );
    assert!(reversed > 1000, "{reversed}");
}

/// A four-player position: seat 1 faces a 3 with a joker to answer it
/// (`position --players 4 --seed 11 --after 6`).
const EX: &str = "seat: 1; hand: AH 2H 5D 7D 8H joker; top: 3S; pending: 3; hands: 6 7 7 6; stock: 21; pile: 2S 4S 6S 7S JS KS; direction: right; tallies: 7 turns, 6 actions";

#[test]
fn a_typed_position_reads_as_typed() {
    let r = rules(4, "");
    assert_eq!(Ocho::POSITION_EXAMPLE, EX);
    let ex = example::<Ocho, _>(&r, &Strategy::parse_list("greedy").unwrap(), 11, 6).unwrap();
    assert_eq!(position_of::<Ocho>(&ex), EX);
    let game = read(&r, EX).unwrap();
    assert_eq!(position_of::<Ocho>(&game), EX);
    assert_eq!(format!("{:?}", game.view(0)), format!("{:?}", ex.view(0)));
    let names: Vec<String> = advise::legal_actions::<Ocho>(&game)
        .into_iter()
        .map(Ocho::action_name)
        .collect();
    assert_eq!(names, ["play joker", "take the draw-three"]);
    // Spanish keys and card names, commas and spaces as players type them.
    let spanish = "asiento: 1; mano: as de corazones, dos de corazones, 5D, siete de diamantes, ocho de corazones, comodín; arriba: tres de picas; castigo: 3; manos: 6 7 7 6; mazo: 21; pila: 2S 4S 6S 7S JS KS; sentido: derecha; cuentas: 7 turns, 6 actions";
    assert_eq!(position_of::<Ocho>(&read(&r, spanish).unwrap()), EX);
    // What the player cannot see is dealt afresh for each stream, consistently with the text.
    let other = Ocho::read_position(&r, EX, &mut rng(99)).unwrap();
    assert_ne!(other.hand(1), game.hand(1));
    assert_eq!(
        format!("{:?}", other.view(0)),
        format!("{:?}", game.view(0))
    );
    // Defaults: no tallies, no direction, no dealer.
    let bare = "seat: 2; hand: 9H 9C 8S; top: 9D; hands: 5 3 4; stock: 37; pile: 4D 6D 7D 7S";
    let g = read(&rules(3, ""), bare).unwrap();
    assert_eq!(
        position_of::<Ocho>(&g),
        "seat: 2; hand: 8S 9H 9C; top: 9D; hands: 5 3 4; stock: 37; pile: 4D 6D 7S 7D; direction: right"
    );
    assert_eq!(g.dealer(), 2);
    // An 8 on top asks for a suit; another player's card just drawn is not seen.
    let asked = "seat: 2; hand: 9H 9C 8S; top: 8D; suit: clubs; hands: 5 3 4; stock: 37; pile: 4D 6D 7D 7S; direction: left; to act: 1; drawn: ?; dealer: 2; tallies: 12 turns, 14 actions, 6 cards drawn";
    let g = read(&rules(3, ""), asked).unwrap();
    assert_eq!((g.suit(), g.phase(), g.to_act()), (3, Phase::Drawn, 0));
    assert_eq!(
        Ocho::write_position(&g.view(1)),
        "seat: 2; hand: 8S 9H 9C; top: 8D; suit: C; drawn: ?; hands: 5 3 4; stock: 37; pile: 4D 6D 7S 7D; direction: left; to act: 1; dealer: 2; tallies: 12 turns, 14 actions, 6 cards drawn"
    );
    // Two decks: a card may be there twice, in any order.
    let two = "seat: 1; hand: 7H QS 7H joker joker joker; top: 9H; hands: 6 8 8 8 8 8; stock: 60; pile: joker";
    let g = read(&rules(6, ""), two).unwrap();
    assert!(position_of::<Ocho>(&g)
        .starts_with("seat: 1; hand: 7H 7H QS joker joker joker; top: 9H; hands: 6 8 8 8 8 8"));
    // Advice lists one play of each face: three jokers and two 7H are five legal plays on the
    // 9H, two distinct ones.
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(legal.len(), 5, "{legal:?}");
    let names: Vec<String> = advise::legal_actions::<Ocho>(&g)
        .into_iter()
        .map(Ocho::action_name)
        .collect();
    assert_eq!(names, ["play 7H", "play joker"]);
}

#[test]
fn bad_positions_are_refused_in_one_line_naming_the_fault() {
    let r = rules(4, "");
    let with = |from: &str, to: &str| {
        assert!(EX.contains(from), "{from}");
        EX.replacen(from, to, 1)
    };
    let cases: Vec<(String, &str)> = vec![
        (with("pile: 2S", "pile: AH"), "pile: AH is both in your hand and in the pile: one deck holds one AH (give decks=2 for two decks)"),
        (with("top: 3S", "top: 7D"), "top: 7D is both in your hand and on top of the pile"),
        (with("8H joker", "8H joker joker joker"), "hand: one joker too many in your hand: one deck holds 2 (in your hand already)"),
        (with("hand: AH", "hand: 1X"), "hand: invalid card '1X'"),
        (with("top: 3S", "top: 3S 4S"), "top: '3S 4S': give one card"),
        (with("direction: right", "colour: red"), "unknown key 'colour' in the position"),
        (with("hand: AH 2H 5D 7D 8H joker; ", ""), "the position has no 'hand'"),
        (with("6 actions", "6 actions; hand: 7H"), "'hand' is given twice"),
        (with("direction: right", "direction right"), "'direction right' in the position is not key: value"),
        (with("direction: right", "rules: decks=2"), "rules: the position's rules (decks=2) are not the table's (standard)"),
        (with("hands: 6 7 7 6", "hands: 6 7 7"), "hands: '6 7 7' gives 3 seats, but the rules are for 4 players"),
        (with("hands: 6 7 7 6", "hands: 5 7 7 6"), "hands: seat 1 has 5 cards, but your hand lists 6"),
        (with("hands: 6 7 7 6", "hands: 6 0 0 0"), "1 player holds cards: the game is over"),
        (with("hands: 6 7 7 6", "hands: 6 7 seven 6"), "hands: 'seven' for seat 3"),
        (with("stock: 21", "stock: 20"), "the cards do not add up: of the 54 cards, 6 are in your hand, 7 on the pile and 41 unseen, but the other hands and the stock hold 40"),
        (with("stock: 21", "stock: 200"), "stock: '200': give the number of cards left in it, 0 to 54"),
        (with("top: 3S", "top: 9S"), "pending: 3 with 9S on top: a draw-three is pending only on a 3 or a joker"),
        (with("pending: 3", "pending: 4"), "pending: '4': give the cards a draw-three costs, 3 for each 3 or joker stacked, at most 18"),
        (with("pending: 3", "pending: 21"), "at most 18"),
        (with("top: 3S", "top: 3S; suit: H"), "suit: H under 3S: only an 8 names a suit and a joker keeps the one under it; 3S sets S"),
        (with("top: 3S; pending: 3", "top: 8S"), "suit: missing: under 8S give the suit in force"),
        (with("top: 3S", "top: 8S; suit: X"), "suit: 'X': give S, H, D or C"),
        (with("pending: 3", "pending: 3; drawn: 9C"), "drawn: 9C is not in your hand"),
        (with("pending: 3", "pending: 3; drawn: 7D"), "drawn: 7D while taking a draw-three: only a first card that is a 3 or a joker"),
        (with("pending: 3", "drawn: joker"), "drawn: 8H in your hand plays on 3S too: a player draws only holding nothing that plays"),
        (with("pending: 3", "drawn: ?"), "drawn: ? on your own turn"),
        (with("direction: right", "to act: 2; drawn: 7D"), "drawn: seat 2 is to act, and you cannot see the card they drew"),
        (with("direction: right", "to act: 5"), "to act: '5' is not a seat: give 1 to 4"),
        (with("hands: 6 7 7 6; stock: 21", "hands: 6 0 14 6; stock: 21; to act: 2"), "to act: seat 2 holds no cards"),
        (with("direction: right", "voy por una: 2"), "voy por una: seat 2 holds 7 cards"),
        (with("direction: right", "out: 3"), "out: list each seat with no cards once (none has none)"),
        (with("direction: right", "direction: up"), "direction: 'up': use right"),
        (with("seat: 1", "seat: 5"), "seat: '5' is not a seat: give 1 to 4"),
        (with("7 turns", "9 turns"), "tallies: 9 turns in 6 actions: each action starts one turn at most"),
        (with("7 turns, 6 actions", "5000 actions"), "tallies: 5000 actions: the game stops at max-actions=5000"),
        (with("7 turns", "lots of turns"), "tallies: 'lots of turns': give a number and a name"),
        (with("6 actions", "6 actions, 6 turns"), "tallies: turns given twice"),
        (with("6 actions", "6 actions, 3 penalty cards"), "tallies: 0 taken for draw-threes and 3 penalty cards, but 0 cards drawn in all"),
        (with("6 actions", "6 actions, 3 cards drawn, 3 penalty cards"), "3 penalty cards for 0 «voy por una» forgotten"),
        (with("6 actions", "6 actions, longest draw-three 0"), "tallies: longest draw-three 0 with 3 pending"),
        (with("6 actions", "99999999999 actions"), "tallies: 99999999999 actions: too many"),
    ];
    for (text, words) in &cases {
        let e = match read(&r, text) {
            Ok(g) => panic!("accepted: {text}\nas {}", position_of::<Ocho>(&g)),
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
    // Two decks hold two of each card, four jokers.
    let two = rules(6, "");
    let msg = read(
        &two,
        "seat: 1; hand: 7H 7H 7H; top: 9H; hands: 3 8 8 8 8 8; stock: 64",
    )
    .unwrap_err()
    .to_string();
    assert!(
        msg.contains(
            "hand: one 7H too many in your hand: the two decks hold 2 (in your hand already)"
        ),
        "{msg}"
    );
    // Another player has just drawn a card that plays, but no unseen card plays: every 8, joker,
    // heart and 9 is in sight.
    let three = rules(3, "");
    let no_card = "seat: 1; hand: 4S 5S 6S 7S 10S QS KS 4C 5C 6C 7C 10C QC KC; top: 9H; hands: 14 2 2; stock: 0; pile: AH 2H 3H 4H 5H 6H 7H 8H 10H JH QH KH 8S 8D 8C 9S 9D 9C joker joker AD 2D 3D 4D 5D 6D 7D 10D JD QD KD AC 2C 3C JC; to act: 2; drawn: ?";
    let msg = read(&three, no_card).unwrap_err().to_string();
    assert!(
        msg.contains("the position cannot be played: seat 2 has just drawn a card that plays, but no unseen card fits"),
        "{msg}"
    );
}

#[test]
fn mangled_positions_are_read_or_refused_never_crashed_on() {
    let r4 = rules(4, "");
    let r6 = rules(6, "keep-drawn=on");
    let sources = [
        (&r4, EX.to_string()),
        (
            &r6,
            "seat: 3; hand: 3S 7H 7H joker; top: joker; suit: H; pending: 6; drawn: joker; hands: 5 9 4 1 0 7; voy por una: 4; stock: 41; pile: 2S 3H 3D 4H 7C 8H 8D 9H 9H 10S 10H JH JH QC KH KH AS AS 2H 3C 5H 6H 6H 8S 9C 9D 10C JD KS KC QH QH AH 4C 5C 6C 2C 2D 3S joker; direction: left; out: 5; dealer: 2; tallies: 80 turns, 90 actions, 40 cards drawn, 20 taken for draw-threes, 3 penalty cards, 1 forgotten, longest draw-three 9".to_string(),
        ),
    ];
    let pieces = [
        "",
        ";",
        ":",
        ",",
        " ",
        "?",
        "0",
        "3",
        "6",
        "20",
        "4294967295",
        "99999999999",
        "seat",
        "seat 0",
        "seat 7",
        "joker",
        "8S",
        "7H",
        "de",
        "out",
        "left",
        "hands: 0 0 0 0",
        "pending:",
        "drawn: ?",
        "suit: H",
        "tallies: 4294967295 turns",
        "ñ",
        "é",
        "voy por una: 1",
    ];
    let mut s = rng(5);
    let mut accepted = 0;
    for (rules, text) in sources {
        read(rules, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..1500 {
            let at = tahur::rng::uniform_below(&mut s, chars.len() + 1);
            let cut = tahur::rng::uniform_below(&mut s, 4).min(chars.len() - at);
            let piece = pieces[tahur::rng::uniform_below(&mut s, pieces.len())];
            let mangled: String = chars[..at]
                .iter()
                .copied()
                .chain(piece.chars())
                .chain(chars[at + cut..].iter().copied())
                .collect();
            match Ocho::read_position(rules, &mangled, &mut rng(1)) {
                Ok(g) => {
                    accepted += 1;
                    g.check_invariants().unwrap();
                    let written = position_of::<Ocho>(&g);
                    let back = read(rules, &written).unwrap();
                    assert_eq!(
                        format!("{:?}", back.view(back.to_act())),
                        format!("{:?}", g.view(g.to_act())),
                        "{mangled}"
                    );
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
    assert!(accepted > 50, "{accepted}");
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

/// Advice at a typed position, the rest of each game played by `bots`.
fn advise_text(
    r: &Rules,
    text: &str,
    bots: &str,
    samples: u64,
) -> advise::Advice<tahur::games::ocho::engine::Action> {
    let position = read(r, text).unwrap();
    let setup = AdviceSetup {
        position,
        bots: Strategy::parse_list(bots).unwrap(),
    };
    advise::run(&setup, &spec(samples), None, &control()).unwrap()
}

/// The names of the actions advice compares, with each one's chance.
fn chances(a: &advise::Advice<tahur::games::ocho::engine::Action>) -> Vec<(String, f64)> {
    (0..a.actions.len())
        .map(|i| (Ocho::action_name(a.actions[i]), a.tally.chance(i).mean))
        .collect()
}

#[test]
fn a_last_card_that_goes_out_at_once_is_best_with_100_percent() {
    // Seat 1 holds one card, a joker, against a 3: answering with it goes out, and the first
    // out wins. Taking the three cards keeps the game going.
    let text = "seat: 1; hand: joker; top: 3S; pending: 3; hands: 1 5 6 7; voy por una: 1; stock: 28; pile: 2S 4S 6S 7S JS KS; direction: right";
    for bots in ["expert", "random,greedy"] {
        let a = advise_text(&rules(4, ""), text, bots, 640);
        let c = chances(&a);
        assert_eq!(c[0], ("play joker".to_string(), 1.0), "{c:?}");
        assert_eq!(a.tally.chance(0).sd, 0.0);
        assert_eq!(c[1].0, "take the draw-three");
        assert!(c[1].1 < 0.9, "{c:?}");
        assert_eq!(a.tally.best(), 0);
        assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
        assert_eq!((a.run.samples_done, a.tally.faults), (640, 0));
    }
    // With two players and `eight-answers`, a last 8 answers the 3 and goes out (keeping its
    // own suit): taking is the only other action.
    let eight = "seat: 2; hand: 8C; top: 3D; pending: 3; hands: 9 1; stock: 42; pile: 3H; direction: right; dealer: 2";
    let a = advise_text(&rules(2, "eight-answers=on"), eight, "expert", 640);
    let c = chances(&a);
    assert_eq!(c.len(), 2, "{c:?}");
    assert_eq!(c[0], ("play 8C naming clubs".to_string(), 1.0), "{c:?}");
    assert!(c[1].1 < 0.9, "{c:?}");
    assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
}

#[test]
fn the_commands_write_a_position_and_advise_on_it() {
    use crate::common::{fails, json, stdout};
    let p = json(&[
        "ocho",
        "position",
        "--players",
        "4",
        "--seed",
        "11",
        "--after",
        "6",
        "--format",
        "json",
    ]);
    assert_eq!(p["position"].as_str(), Some(EX));
    assert_eq!(
        p["legal_actions"].as_str(),
        Some("play joker · take the draw-three")
    );
    let advise = |threads: &str| {
        json(&[
            "ocho",
            "advise",
            "--players",
            "4",
            "--position",
            EX,
            "--rollouts",
            "256",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let (one, two) = (advise("1"), advise("2"));
    assert_eq!(one, two);
    assert_eq!(one["position"].as_str(), Some(EX));
    assert_eq!(one["tables"]["actions"].as_array().unwrap().len(), 2);
    let help = stdout(&["ocho", "position", "--help"]);
    assert!(
        help.contains("--seed") && help.contains("--after"),
        "{help}"
    );
    let help = stdout(&["ocho", "advise", "--help"]);
    assert!(help.contains("hand: AH 2H 5D 7D 8H joker"), "{help}");
    // A position that cannot be: one line naming it, exit 2.
    let bad = EX.replacen("hand: ", "hand: 3S ", 1);
    let e = fails(&["ocho", "advise", "--players", "4", "--position", &bad]);
    assert!(
        e.contains("3S is both in your hand and on top of the pile"),
        "{e}"
    );
    let e = fails(&["ocho", "position", "--players", "4", "--after", "99999"]);
    assert!(e.contains("--after 99999"), "{e}");
}
