//! Póker mentiroso positions (issue 23): every position written at every step of many games reads
//! back to the same view; bad positions are refused with one line naming what does not fit;
//! advice is right where the answer is known — a call or a claim that wins at once is best at
//! 100 %, and where the hand is won only by making the claim (the last hand, repóker de reyes to
//! beat: nothing but a true repóker de ases survives the call) every action's chance is the exact
//! re-roll plan's and the advice throws the die the plan throws.

use tahur::games::poker::bots::Strategy;
use tahur::games::poker::engine::{Action, Phase, PokerState};
use tahur::games::poker::position::{exact_chance_after, exact_plan};
use tahur::games::poker::rules::Rules;
use tahur::games::poker::Poker;
use tahur::play::advise::{self, verdict, AdviceSetup, Verdict};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{game_streams, Bot, GameRules, Start, State, Strategy as _};
use tahur::rng::base_stream;
use tahur::runner::{RunControl, RunSpec};

fn view_debug(g: &PokerState) -> String {
    format!("{:?}", g.view(g.to_act()))
}

fn rules(players: u8, changes: &str) -> Rules {
    let r = Rules::standard(players);
    if changes.is_empty() {
        r
    } else {
        r.with_changes(changes).unwrap()
    }
}

/// Reads `text` at `rules`, panicking with the message.
fn read(rules: &Rules, text: &str) -> PokerState {
    Poker::read_position(rules, text, &mut base_stream(7)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The refusal of `text` at `rules`.
fn refusal(rules: &Rules, text: &str) -> String {
    match Poker::read_position(rules, text, &mut base_stream(7)) {
        Ok(g) => panic!("accepted: {text}\nas {}", position_of::<Poker>(&g)),
        Err(e) => e.to_string(),
    }
}

/// Every position of the games of `seeds` (played as `example` plays them) written, read back
/// and written again: the same text, the same view, a whole game. Returns every text written.
fn round_trips(rules: &Rules, strategies: &str, seeds: std::ops::Range<u64>) -> Vec<String> {
    let strategies = Strategy::parse_list(strategies).unwrap();
    let mut texts = Vec::new();
    for seed in seeds {
        let mut chunk = base_stream(seed);
        let (mut deal, mut decisions) = game_streams(&mut chunk);
        let mut game = PokerState::deal(rules, &Start::default(), &mut deal);
        let mut bots: Vec<_> = (0..rules.players())
            .map(|s| strategies[s % strategies.len()].bot(rules))
            .collect();
        let mut after = 0u64;
        while !game.is_over() {
            let text = position_of::<Poker>(&game);
            assert!(!text.contains('\n'), "one line: {text}");
            let mut rng = base_stream(seed * 1000 + after);
            let back = Poker::read_position(rules, &text, &mut rng)
                .unwrap_or_else(|e| panic!("seed {seed} after {after}: {text}: {e}"));
            back.check_invariants()
                .unwrap_or_else(|e| panic!("seed {seed} after {after}: {text}: {e}"));
            assert_eq!(view_debug(&back), view_debug(&game), "{text}");
            assert_eq!(position_of::<Poker>(&back), text);
            // The same legal actions, in the same order.
            let (mut a, mut b) = (Vec::new(), Vec::new());
            game.legal_actions(&mut a);
            back.legal_actions(&mut b);
            assert_eq!(a, b, "{text}");
            if after % 13 == 4 {
                let e = example::<Poker, _>(rules, &strategies, seed, after).unwrap();
                assert_eq!(view_debug(&e), view_debug(&game));
            }
            texts.push(text);
            let seat = game.to_act();
            let action = bots[seat].act(&game.view(seat), &mut decisions);
            game.apply(action, &mut deal).unwrap();
            after += 1;
        }
        assert!(example::<Poker, _>(rules, &strategies, seed, after).is_err());
    }
    texts
}

#[test]
fn every_position_reads_back_to_the_same_view() {
    let mut texts = Vec::new();
    for (players, changes, strategies, seeds) in [
        (2, "", "threshold", 0..6),
        (3, "", "threshold", 0..4),
        (4, "", "random,threshold,tuned", 0..4),
        (6, "", "tuned,random", 0..2),
        (3, "points=5,kickers=off", "random,tuned", 0..3),
        (5, "loser-starts=on,points=1", "random,honest", 0..4),
        (2, "", "random", 0..6),
    ] {
        texts.extend(round_trips(&rules(players, changes), strategies, seeds));
    }
    // The games reached every part of the notation.
    for part in [
        "rules: ",
        "claims: ",
        "accepted: yes",
        "[? ?",
        "*",
        "] ",
        "cup known to: ",
        "starter: ",
        "out: seat",
        "first roller: ",
        " con ",
        "nada: ",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(part)),
            "no position wrote '{part}'"
        );
    }
}

#[test]
fn positions_as_players_type_them() {
    let three = rules(3, "");
    // The example reads as written.
    let g = read(&three, Poker::POSITION_EXAMPLE);
    assert_eq!(position_of::<Poker>(&g), Poker::POSITION_EXAMPLE);
    assert_eq!((g.to_act(), g.phase()), (1, Phase::Play));
    assert_eq!(g.points(2), 2);
    // Other names for the same: Spanish keys and faces, compact dice, the claim by its dice and
    // annotated with its seat.
    for typed in [
        "puntos: 1,0,2; asiento: 2; cantos: KKJ87 by seat 1; aceptado: sí; dados: [rey rey reina jota roja]",
        "seat: 2; points: 1 0 2; claims: pareja de reyes; accepted: yes; dice: [KKQJ8]; starter: seat 1",
        "score: 1 0 2; seat: seat 2; claim: a pair of kings; accepted: yes; dice: [K, K, Q, J, 8]; first roller: seat 1",
    ] {
        assert_eq!(view_debug(&read(&three, typed)), view_debug(&g), "{typed}");
    }
    // A receiver deciding: the dice in the cup unseen, and dealt afresh for every reading.
    let text =
        "points: 0 0 0; seat: 3; claims: trío de reyes, full de ases y reyes; dice: A A [? ? ?]";
    let g = read(&three, text);
    assert_eq!((g.to_act(), g.phase()), (2, Phase::Decide));
    assert_eq!(position_of::<Poker>(&g), text);
    let other = Poker::read_position(&three, text, &mut base_stream(99)).unwrap();
    assert_eq!(view_debug(&other), view_debug(&g));
    assert_ne!(other.dice(), g.dice());
    // Claims with kickers said with commas, a nada, and the chain from the hand's first roller.
    let g = read(
        &three,
        "seat: 1; claims: nada: as, rey, reina, jota, roja, pareja de ases con rey, jota, negra; dice: [? ?] A K 7",
    );
    assert_eq!(
        position_of::<Poker>(&g),
        "points: 0 0 0; seat: 1; claims: nada: as rey reina jota roja, pareja de ases con rey jota negra; dice: [? ?] A K 7"
    );
    let g = read(
        &three,
        "seat: 3; claims: ?, pareja de reyes by seat 1, trío de reyes by seat 2; dice: [? ? ? ? ?]",
    );
    // Three claims listed end with seat 2's: seat 3 started the hand.
    assert!(
        position_of::<Poker>(&g).contains("starter: seat 3"),
        "{}",
        position_of::<Poker>(&g)
    );
    // The hand's first roller, before the throw and after it.
    let g = read(&three, "points: 2 1 0; seat: 2; first roller: seat 1");
    assert_eq!((g.to_act(), g.phase()), (1, Phase::FirstRoll));
    let g = read(&three, "points: 2 1 0; seat: 2; dice: [A A K K 7]");
    assert_eq!((g.to_act(), g.phase()), (1, Phase::Play));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.iter().all(|a| matches!(a, Action::Claim(_))));
    assert_eq!(legal.len(), 252, "any claim, nothing left to throw");
    // Rules other than the standard are written and checked.
    let five = rules(3, "points=5,kickers=off");
    let g = read(&five, "rules: kickers=off, points=5; points: 4 0 3; seat: 2; claims: full de reinas y jotas; accepted: yes; dice: Q Q [Q J J]");
    assert_eq!(
        position_of::<Poker>(&g),
        "rules: points=5, kickers=off; points: 4 0 3; seat: 2; claims: full de reinas y jotas; accepted: yes; dice: Q Q [Q J J]"
    );
}

#[test]
fn bad_positions_are_refused_naming_what_does_not_fit() {
    let three = rules(3, "");
    let no_kickers = rules(3, "kickers=off");
    let four = rules(4, "");
    let base = "points: 0 1 2; seat: 2";
    let cases: &[(&Rules, String, &[&str])] = &[
        (
            &three,
            format!("{base}; claims: trío de reyes, pareja de ases; dice: A A [? ? ?]"),
            &[
                "pareja de ases is not above trío de reyes",
                "beat the one before",
            ],
        ),
        (
            &three,
            format!("{base}; claims: trío de reyes, trío de reyes; dice: A A [? ? ?]"),
            &["not above trío de reyes"],
        ),
        (
            &three,
            format!("{base}; claims: trío de nueves; dice: A A [? ? ?]"),
            &[
                "claims:",
                "'trío de nueves'",
                "'nueves' is not a poker die face",
            ],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes, ?; dice: A A [? ? ?]"),
            &["standing claim", "not ?"],
        ),
        (
            &three,
            format!("{base}; claims: ?, pareja de reyes; dice: A A [? ? ?]"),
            &["claim before the last", "not ?"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes by seat 3; dice: A A [? ? ?]"),
            &["not seat 3's", "seat 1's"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A ? ? ?"),
            &["out of the cup lies face up", "? only in the brackets"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [? ? K]"),
            &["some dice in the cup are seen and some not"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [? ?]"),
            &["4 dice given, not 5"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [? ? ? ?"),
            &["'[' is not closed"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [X ? ?]"),
            &["'X' is not a die"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A* [? ? ?]"),
            &["deciding on the claim", "drop the *"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; accepted: yes; dice: A A [? ? ?]"),
            &["looked under the cup", "not ?"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; accepted: yes; dice: A [A K* Q J]"),
            &["a die thrown in the cup this turn brings every other die out"],
        ),
        (
            &three,
            format!("{base}; claims: repóker de ases; accepted: yes; dice: A A A A A"),
            &["nothing beats repóker de ases"],
        ),
        (
            &three,
            format!("{base}; accepted: yes; dice: A A A A A"),
            &["no claim to accept"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes"),
            &["no dice"],
        ),
        (
            &three,
            format!("{base}; dice: A A [K K Q]"),
            &["all in the cup or all in the open"],
        ),
        (
            &three,
            format!("{base}; starter: seat 1"),
            &[
                "starter: seat 1 started the hand but no claim is given",
                "seat 2",
            ],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; starter: seat 3; dice: A A [? ? ?]"),
            &["a single claim is the hand's first", "seat 1"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [? ? ?]; cup known to: seat 2"),
            &["seat 1 claimed on these dice and knows them"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A [K K Q]; cup known to: seat 1"),
            &["seat 2 is not listed as knowing the cup"],
        ),
        (
            &three,
            format!("{base}; claims: pareja de reyes; dice: A A K K Q; cup known to: seat 1"),
            &["no die is in the cup"],
        ),
        (
            &three,
            "points: 0 3 2; seat: 2".into(),
            &["seat 2 has 3 points and is out"],
        ),
        (
            &three,
            "points: 0 4 2; seat: 1".into(),
            &["'4' for seat 2", "0 to 3"],
        ),
        (
            &three,
            "points: 0 1; seat: 1".into(),
            &["2 values", "3 players"],
        ),
        (&three, "points: 3 3 2; seat: 3".into(), &["game is over"]),
        (
            &three,
            "points: 0 0 0; seat: 4".into(),
            &["'4' is not a seat", "give 1 to 3"],
        ),
        (&three, "points: 0 0 0".into(), &["no seat"]),
        (
            &three,
            "points: 0 0 0; seat: 1; first roller: seat 2".into(),
            &["no hand has been played yet", "seat 1"],
        ),
        (
            &four,
            "points: 3 0 3 1; seat: 2; out: seat 1".into(),
            &["out:", "seat 1, seat 3"],
        ),
        (
            &three,
            "points: 0 0 0; seat: 1; colour: red".into(),
            &["unknown position key 'colour'", "points"],
        ),
        (
            &three,
            "points: 0 0 0; seat: 1; seat: 2".into(),
            &["given twice"],
        ),
        (
            &three,
            "points: 0 0 0; seat 1".into(),
            &["'seat 1' has no key"],
        ),
        (
            &three,
            "rules: points=5; points: 0 0 0; seat: 1".into(),
            &["rules:", "points=5", "standard"],
        ),
        (
            &no_kickers,
            format!("{base}; claims: pareja de reyes con as reina jota; dice: A A [? ? ?]"),
            &["names kickers", "kickers=off", "claim pareja de reyes"],
        ),
    ];
    for (rules, text, words) in cases {
        let e = refusal(rules, text);
        assert!(!e.contains('\n'), "one line: {e}");
        for w in *words {
            assert!(e.contains(w), "{text}\n→ {e}\n(missing '{w}')");
        }
    }
}

#[test]
fn mangled_positions_are_read_or_refused_never_crashed_on() {
    let sources = [
        (rules(3, ""), Poker::POSITION_EXAMPLE.to_string()),
        (
            rules(4, ""),
            "points: 2 0 3 1; seat: 4; starter: seat 4; claims: trío de reyes, full de ases y reyes; accepted: yes; dice: Q* [K* K*] A 7; out: seat 3; first roller: seat 2".to_string(),
        ),
        (
            rules(3, ""),
            "points: 0 1 2; seat: 3; claims: pareja de reyes, trío de jotas; dice: A A [? ? ?]; cup known to: seat 1, seat 2".to_string(),
        ),
    ];
    let pieces = [
        "",
        ";",
        ":",
        ",",
        " ",
        "?",
        "*",
        "[",
        "]",
        "0",
        "3",
        "9",
        "255",
        "4294967295",
        "seat",
        "seat 0",
        "seat 9",
        "yes",
        "no",
        "repóker de ases",
        "nada",
        "con",
        "A",
        "KKKKK",
        "by seat 2",
        "accepted: yes",
        "ñ",
        "é",
        "out: seat 1",
    ];
    let mut rng = base_stream(5);
    let mut accepted = 0;
    for (rules, text) in sources {
        read(&rules, &text);
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..1500 {
            let at = tahur::rng::uniform_below(&mut rng, chars.len() + 1);
            let cut = tahur::rng::uniform_below(&mut rng, 4).min(chars.len() - at);
            let piece = pieces[tahur::rng::uniform_below(&mut rng, pieces.len())];
            let mangled: String = chars[..at]
                .iter()
                .copied()
                .chain(piece.chars())
                .chain(chars[at + cut..].iter().copied())
                .collect();
            match Poker::read_position(&rules, &mangled, &mut base_stream(1)) {
                Ok(g) => {
                    accepted += 1;
                    let written = position_of::<Poker>(&g);
                    let back = read(&rules, &written);
                    assert_eq!(view_debug(&back), view_debug(&g), "{mangled}");
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
    assert!(accepted > 100, "{accepted}");
}

fn control() -> RunControl {
    RunControl {
        threads: Some(2),
        progress: tahur::progress::Progress::hidden(),
    }
}

/// Advice at `text` with `deals` deals of the rollout bots.
fn advise(rules: &Rules, text: &str, deals: u64) -> (PokerState, advise::Advice<Action>) {
    let position = read(rules, text);
    let setup = AdviceSetup::<Poker, Strategy> {
        position: position.clone(),
        bots: Strategy::parse_list(Poker::ROLLOUT_BOTS).unwrap(),
    };
    let spec = RunSpec {
        samples: deals,
        seed: 11,
        chunk_size: advise::CHUNK,
    };
    (
        position,
        advise::run(&setup, &spec, None, &control()).unwrap(),
    )
}

fn index_of(advice: &advise::Advice<Action>, name: &str) -> usize {
    advice
        .actions
        .iter()
        .position(|&a| Poker::action_name(a) == name)
        .unwrap_or_else(|| panic!("no action {name}"))
}

#[test]
fn a_call_or_a_claim_that_wins_at_once_is_best_with_100_percent() {
    let two = rules(2, "");
    // The last hand: póker de ases with K K 7 face up cannot be true.
    let (_, a) = advise(
        &two,
        "points: 2 2; seat: 2; claims: póker de ases; dice: K K 7 [? ?]",
        256,
    );
    let call = index_of(&a, "call");
    assert_eq!(a.tally.best(), call);
    assert_eq!(a.tally.chance(call).mean, 1.0);
    assert!(a.tally.chance(index_of(&a, "accept")).mean < 0.5);
    assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
    // Holding repóker de ases over repóker de reyes: claiming it wins, whether it is called or
    // believed; any throw risks it.
    let (_, a) = advise(
        &two,
        "points: 2 2; seat: 2; claims: repóker de reyes; accepted: yes; dice: [A A A A A]",
        256,
    );
    let claim = index_of(&a, "claim repóker de ases");
    assert_eq!(
        a.actions.len(),
        63,
        "31 throws in the cup or the open, and one claim"
    );
    assert_eq!(a.tally.best(), claim);
    assert_eq!(a.tally.chance(claim).mean, 1.0);
    assert_eq!(verdict(&a.tally), Verdict::ClearlyBest);
    assert_eq!(a.tally.faults, 0);
}

/// At the last hand of two players with repóker de reyes accepted, the hand (and the game) is
/// won exactly when the dice make repóker de ases: the claim must be it, and the rollout bots
/// call it unless five aces lie face up. Each action's chance is then the exact plan's chance
/// after it; the best action throws the die the plan throws, or is within noise of it.
#[test]
fn the_recommended_re_roll_is_the_exact_plan_s() {
    let two = rules(2, "");
    for (dice, plan_face, best_alone) in [
        // Throw the K: 1/6; an ace first: 1/36.
        ("[A A A A K]", "K", true),
        // The K or the Q first, or both at once: 1/36 alike; an ace: 1/216.
        ("A [A K] A Q", "K", false),
    ] {
        let text =
            format!("points: 2 2; seat: 2; claims: repóker de reyes; accepted: yes; dice: {dice}");
        let (game, a) = advise(&two, &text, 2048);
        let t = &a.tally;
        assert_eq!(t.faults, 0);
        // Every action's chance is its exact value within four standard errors (63 actions: no
        // false alarm from one unlucky interval).
        let mut exact = Vec::new();
        for (i, &action) in a.actions.iter().enumerate() {
            let p = exact_chance_after(&game, action).unwrap();
            let c = t.chance(i);
            // Four standard errors of a proportion p over the deals (none where p is 0 or 1).
            let slack = 4.0 * (p * (1.0 - p) / c.n as f64).sqrt();
            assert!(
                (c.mean - p).abs() <= slack + 1e-12,
                "{text}: {} {} against the exact {p}",
                Poker::action_name(action),
                c.mean
            );
            exact.push(p);
        }
        // The plan's first die and the advice's best.
        let note = exact_plan(&game).unwrap();
        assert!(
            note.contains(&format!("first throw a {plan_face}")),
            "{note}"
        );
        let best = t.best();
        let top = exact.iter().cloned().fold(0.0, f64::max);
        let Action::Throw { dice: mask, .. } = a.actions[best] else {
            panic!(
                "{text}: the best is {}",
                Poker::action_name(a.actions[best])
            );
        };
        assert!(
            (exact[best] - top).abs() < 1e-12,
            "{text}: the best, {}, is not an exact best",
            Poker::action_name(a.actions[best])
        );
        let faces = game.dice();
        let plan_die = (0..5).find(|&i| {
            mask >> i & 1 == 1
                && tahur::games::poker::hand::Face::ALL[faces[i] as usize].to_string() == plan_face
        });
        if best_alone {
            // A single die, the plan's, and every action of a lower exact chance clearly worse.
            assert_eq!(mask.count_ones(), 1, "{text}");
            assert!(
                plan_die.is_some(),
                "{text}: {}",
                Poker::action_name(a.actions[best])
            );
            for (j, &p) in exact.iter().enumerate() {
                if p < top - 1e-12 {
                    assert!(
                        t.versus(j, best).interval.high < 0.0,
                        "{text}: {}",
                        Poker::action_name(a.actions[j])
                    );
                }
            }
        } else {
            // Within noise: the exact best lies in the best action's interval.
            let ci = t.chance(best).interval(0.95);
            assert!(
                ci.low <= top && top <= ci.high,
                "{text}: {top} outside [{}, {}]",
                ci.low,
                ci.high
            );
        }
    }
}

#[test]
fn the_commands_write_a_position_and_advise_on_it() {
    use crate::common::{fails, json, stdout};
    let help = stdout(&["poker", "position", "--help"]);
    assert!(help.contains("--after"), "{help}");
    let p = json(&[
        "poker",
        "position",
        "--players",
        "3",
        "--seed",
        "3",
        "--after",
        "5",
        "--format",
        "json",
    ]);
    let position = p["position"].as_str().unwrap().to_string();
    assert!(position.contains("claims: "), "{position}");
    let advise = |threads: &str| {
        json(&[
            "poker",
            "advise",
            "--players",
            "3",
            "--position",
            &position,
            "--rollouts",
            "200",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let (one, two) = (advise("1"), advise("2"));
    assert_eq!(one, two);
    assert_eq!(one["position"].as_str(), Some(position.as_str()));
    assert_eq!(one["tables"]["actions"].as_array().unwrap().len(), 2);
    let e = fails(&[
        "poker",
        "advise",
        "--players",
        "3",
        "--position",
        "points: 0 0 0; seat: 2; claims: trío de reyes, pareja de ases; dice: A A [? ? ?]",
    ]);
    assert!(e.contains("not above trío de reyes"), "{e}");
    let e = fails(&["poker", "position", "--players", "3", "--after", "99999"]);
    assert!(e.contains("--after 99999"), "{e}");
}
