//! Dudo positions: every position of many games reads back to the same view; bad positions are
//! refused with one line naming what does not fit; advice from a position is right where the
//! answer is known (an impossible bid, a doubt that decides the game, a bid that cannot fail).

use tahur::games::dudo::bots::Strategy;
use tahur::games::dudo::{paso, Bid, Dudo, DudoState, Face, RuleSet, Rules, Situation};
use tahur::play::advise::{run, verdict, AdviceSetup, Verdict};
use tahur::play::position::{example, position_of, Positions};
use tahur::play::{game_streams, Bot, Game, GameRules, Start, State, Strategy as _};
use tahur::rng::base_stream;
use tahur::runner::{RunControl, RunSpec};

fn view_debug(g: &DudoState) -> String {
    format!("{:?}", g.view(g.to_act()))
}

/// Reads `text` at `rules`, panicking with the message.
fn read(rules: &Rules, text: &str) -> DudoState {
    Dudo::read_position(rules, text, &mut base_stream(7)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The refusal of `text` at `rules`.
fn refusal(rules: &Rules, text: &str) -> String {
    match Dudo::read_position(rules, text, &mut base_stream(7)) {
        Ok(g) => panic!("accepted: {text}\nas {}", position_of::<Dudo>(&g)),
        Err(e) => e.to_string(),
    }
}

/// Every position of the games of `seeds` (played as `example` plays them) written, read back
/// and written again: the same text, the same view. Returns every text written.
fn round_trips(rules: &Rules, seeds: std::ops::Range<u64>) -> Vec<String> {
    let strategies = Strategy::parse_list(Dudo::INFO.default_strategies).unwrap();
    let mut texts = Vec::new();
    for seed in seeds {
        let mut chunk = base_stream(seed);
        let (mut deal, mut decisions) = game_streams(&mut chunk);
        let mut game = DudoState::deal(rules, &Start::default(), &mut deal);
        let mut bots: Vec<_> = (0..rules.players())
            .map(|s| strategies[s % strategies.len()].bot(rules))
            .collect();
        let mut after = 0u64;
        while !game.is_over() {
            let text = position_of::<Dudo>(&game);
            let mut rng = base_stream(seed * 1000 + after);
            let back = Dudo::read_position(rules, &text, &mut rng)
                .unwrap_or_else(|e| panic!("seed {seed} after {after}: {text}: {e}"));
            assert_eq!(view_debug(&back), view_debug(&game), "{text}");
            assert_eq!(position_of::<Dudo>(&back), text);
            // `example` plays the same game.
            if after % 17 == 3 {
                let e = example::<Dudo, _>(rules, &strategies, seed, after).unwrap();
                assert_eq!(view_debug(&e), view_debug(&game));
            }
            texts.push(text);
            let seat = game.to_act();
            let a = bots[seat].act(&game.view(seat), &mut decisions);
            game.apply(a, &mut deal).unwrap();
            after += 1;
        }
        assert!(example::<Dudo, _>(rules, &strategies, seed, after).is_err());
    }
    texts
}

#[test]
fn every_position_reads_back_to_the_same_view() {
    let mut texts = Vec::new();
    for (set, players, house, seeds) in [
        (RuleSet::Chimbo9, 2, "", 0..6),
        (RuleSet::Chimbo9, 4, "", 0..4),
        (RuleSet::Chimbo9, 6, "", 0..2),
        (RuleSet::Caleuchano, 2, "", 0..4),
        (RuleSet::Caleuchano, 4, "", 0..4),
        (RuleSet::Caleuchano, 5, "lives=3,aces-need-natural=on", 0..4),
        (
            RuleSet::Chimbo9,
            3,
            "paso=on,reforzada=on,direction=choose",
            0..4,
        ),
        (RuleSet::Chimbo9, 3, "revivir=on,aces-or-more=on", 0..4),
        (RuleSet::Caleuchano, 4, "revivir=on", 0..2),
    ] {
        let mut rules = Rules::standard(set, players);
        if !house.is_empty() {
            rules = rules.with_changes(house).unwrap();
        }
        texts.extend(round_trips(&rules, seeds));
    }
    // The games reached every part of the notation.
    for part in [
        "palos:",
        "lives:",
        "bids: ?",
        ", paso",
        "paso, ?",
        "reforzada: seat",
        "showed nothing",
        "dice: unseen",
        "to the left",
        "to the right",
        "lost the last round",
        ", obligado",
        "out: seat",
        "first opener:",
        "tallies:",
        "pasos doubted",
        "life revived",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(part)),
            "no position wrote '{part}'"
        );
    }
}

#[test]
fn positions_as_players_type_them() {
    let chimbo = Rules::standard(RuleSet::Chimbo9, 4);
    // The example reads as written.
    let g = read(&chimbo, Dudo::POSITION_EXAMPLE);
    // A view keeps the standing bid and the one it raised: the bids before those are
    // written ?.
    assert_eq!(position_of::<Dudo>(&g), Dudo::POSITION_EXAMPLE);
    assert_eq!(g.view(2).previous_bid().unwrap().to_string(), "3x4");
    let longer = Dudo::POSITION_EXAMPLE
        .replace("seat: 3", "seat: 4")
        .replace("bids: ", "bids: 2 trenes, ");
    assert_eq!(
        position_of::<Dudo>(&read(&chimbo, &longer)),
        longer.replace("2 trenes", "?")
    );
    assert_eq!(g.to_act(), 2);
    // Numbers, other names, seats by the bids and annotations: the same position.
    let typed = "lives: 3,2,3,1; dice: 1 4 4 2 6; opener: 1; bids: tres cuadras by seat 1, 5x4";
    assert_eq!(view_debug(&read(&chimbo, typed)), view_debug(&g));
    // A round not yet open: the seat opens.
    let g = read(&chimbo, "lives: 3 3 3 3; seat: 4; dice: 6 6 6 1 2");
    assert_eq!(g.to_act(), 3);
    assert_eq!(
        position_of::<Dudo>(&g),
        "rules: Chimbo 9; lives: 3 3 3 3; seat: 4; dice: cena, cena, cena, as, tonto; opener: seat 4"
    );
    // Caleuchano: palos, the direction, a reforzada, a paso, obligado.
    let cal = Rules::standard(RuleSet::Caleuchano, 4);
    let text = "rules: caleuche; palos: 4 0 2 1; seat: 2; dice: 3 3 1 5 6; opener: seat 1, to the left, lost the last round, obligado; bids: 3 quinas, 4 quinas reforzada, paso; reforzada: seat 4 showed quina quina";
    let g = read(&cal, text);
    assert_eq!(g.to_act(), 1, "seat 1 → seat 4 → seat 3 → seat 2");
    let v = g.view(1);
    assert_eq!(v.obligado(), Some(Face::new(5).unwrap()));
    assert_eq!(v.pending_pass(), Some(2));
    assert_eq!(v.shown_by(3), [0, 0, 0, 0, 2, 0]);
    assert_eq!(v.own_hidden(), Some(&[3u8, 3, 1, 5, 6][..]));
    assert_eq!(
        position_of::<Dudo>(&g),
        "rules: Caleuchano; palos: 4 0 2 1; seat: 2; dice: tren, tren, as, quina, sena; opener: seat 1, to the left, lost the last round, obligado; bids: 3 quinas, 4 quinas, paso; reforzada: seat 4 showed quina quina"
    );
    // What the player cannot see is dealt afresh, what it sees is kept.
    let other = Dudo::read_position(&cal, text, &mut base_stream(99)).unwrap();
    assert_eq!(view_debug(&other), view_debug(&g));
    assert_ne!(other.view(0).own_hidden(), g.view(0).own_hidden());
}

#[test]
fn bad_positions_are_refused_naming_what_does_not_fit() {
    let chimbo = Rules::standard(RuleSet::Chimbo9, 4);
    let cal = Rules::standard(RuleSet::Caleuchano, 4);
    let base = "lives: 3 2 3 1; dice: 1 4 4 2 6; opener: seat 1";
    let cases: &[(&Rules, String, &[&str])] = &[
        (&chimbo, format!("{base}; bids: 3 cuadras, 3 trenes"), &["3 trenes", "not a legal raise", "3 cuadras", "on trenes: 4 or more"]),
        (&chimbo, format!("{base}; bids: 3 cuadras, 3 ases"), &["3 ases", "not a legal raise", "on ases: 2 or more, but not 3"]),
        (&chimbo, format!("{base}; bids: 21 cuadras"), &["21 cuadras", "more dice than the 20"]),
        (&chimbo, format!("{base}; bids: 3 cuadras, ?"), &["standing bid", "not ?"]),
        (&chimbo, format!("{base}; bids: 3 cuadras, paso"), &["no paso"]),
        (&chimbo, format!("{base}; bids: 3 cuadras; seat: 4"), &["seat 4 is not to act", "seat 2 acts"]),
        (&chimbo, format!("{base}; bids: 3 cuadras by seat 2"), &["not seat 2's", "seat 1's turn"]),
        (&chimbo, "lives: 3 2 3; dice: 1 4 4 2 6; opener: seat 1".into(), &["3 values", "4 players"]),
        (&chimbo, "lives: 3 2 4 1; dice: 1 4 4 2 6; opener: seat 1".into(), &["seat 3 has 4 lives", "0 to 3"]),
        (&chimbo, "lives: 0 0 3 0; dice: 1 4 4 2 6; opener: seat 3".into(), &["game is over"]),
        (&chimbo, "lives: 3 2 3 1; dice: 1 4 4 2; opener: seat 1".into(), &["4 dice given", "5 under the cup"]),
        (&chimbo, "lives: 3 2 3 1; dice: 1 4 7 2 6; opener: seat 1".into(), &["'7' is not a die"]),
        (&chimbo, "lives: 3 2 3 1; opener: seat 1".into(), &["no dice"]),
        (&chimbo, "lives: 3 0 3 1; dice: 1 4 4 2 6; opener: seat 2".into(), &["seat 2 is out"]),
        (&chimbo, "lives: 3 2 3 1; dice: 1 4 4 2 6; opener: seat 9".into(), &["'seat 9' is not a seat", "give 1 to 4"]),
        (&chimbo, format!("{base}; colour: red"), &["unknown position key 'colour'", "lives"]),
        (&chimbo, format!("{base}; lives: 3 3 3 3"), &["given twice"]),
        (&chimbo, format!("{base}; rules: caleuchano"), &["position is Caleuchano", "Chimbo 9"]),
        (&chimbo, format!("{base}, to the left; bids: 3 cuadras"), &["always to the right"]),
        (&chimbo, "lives: 3 3 3 3; dice: 1 4 4 2 6; opener: seat 1; first opener: seat 2".into(), &["no round has been played", "seat 1"]),
        (&chimbo, format!("{base}; tallies: 2 doubts"), &["2 doubts", "3 rounds"]),
        (&chimbo, format!("{base}; tallies: 4 bananas"), &["'4 bananas' is not a tally"]),
        (&chimbo, "lives: 0 2 0 1; dice: 1 4 4 2 6; opener: seat 2; out: seat 1".into(), &["out:", "seat 1, seat 3"]),
        (&cal, "palos: 4 0 2 1; dice: 1 4 4 2 6; opener: seat 1, obligado; bids: 3 quinas".into(), &["obligado needs an opener who just lost", "lost the last round"]),
        (&cal, "palos: 0 0 2 1; dice: 1 4 4 2 6; opener: seat 1, lost the last round".into(), &["has all its lives"]),
        (&cal, "palos: 4 0 2 1; dice: 1 4 4 2 6; opener: seat 1, lost the last round, obligado; bids: 3 quinas, 3 sextos".into(), &["3 senas by seat 2 is not a legal raise over 3 quinas", "no raise on senas", "obligado round"]),
        (&cal, "palos: 4 5 5 1; dice: 1 4 4 2 6; opener: seat 1, lost the last round, obligado; bids: 3 quinas".into(), &["two players left"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas, paso, paso, paso, paso, paso".into(), &["seat 2 passes twice"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: paso".into(), &["opener must bid"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas reforzada, 3 sextos, 4 quinas".into(), &["reforzada", "say what seat 1 set aside"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas, 3 sextos; reforzada: seat 1 showed cuadra".into(), &["seat 1 showed cuadras but bid no cuadras"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas, 3 sextos; reforzada: seat 2 showed sena sena sena sena sena sena".into(), &["showed 6 dice", "cup holds 5"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas, 3 sextos; reforzada: seat 3 showed nothing".into(), &["seat 3 has made no bid"]),
        (&cal, "palos: 0 0 0 0; seat: 1; dice: 1 4 4 2 6; opener: seat 1, to the left; bids: 3 quinas reforzada, 3 sextos, 4 sextos, 4 ases; reforzada: seat 1 showed quina".into(), &["re-rolled its cup unseen", "dice: unseen"]),
        (&cal, "palos: 0 0 0 0; dice: unseen; opener: seat 1".into(), &["has not re-rolled unseen"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinas to the left".into(), &["direction and obligado go with the opener"]),
        (&cal, "palos: 0 0 0 0; dice: 1 4 4 2 6; opener: seat 1; bids: 3 quinos".into(), &["bids: invalid bid '3 quinos'"]),
        (&cal, "palos: 0 0 0 0; dice 1 4 4 2 6; opener: seat 1".into(), &["'dice 1 4 4 2 6' has no key"]),
    ];
    for (rules, text, words) in cases {
        let e = refusal(rules, text);
        assert!(!e.contains('\n'), "one line: {e}");
        for w in *words {
            assert!(e.contains(w), "{text}\n→ {e}\n(missing '{w}')");
        }
    }
}

fn control() -> RunControl {
    RunControl {
        threads: Some(2),
        progress: tahur::progress::Progress::hidden(),
    }
}

/// Advice at `text` with `deals` deals of the rollout bots: each action's name with its tally
/// index, and the tally's verdict.
fn advise(
    rules: &Rules,
    text: &str,
    deals: u64,
) -> tahur::play::advise::Advice<tahur::games::dudo::engine::Action> {
    let setup = AdviceSetup::<Dudo, Strategy> {
        position: read(rules, text),
        bots: Strategy::parse_list(Dudo::ROLLOUT_BOTS).unwrap(),
    };
    let spec = RunSpec {
        samples: deals,
        seed: 11,
        chunk_size: tahur::play::advise::CHUNK,
    };
    run(&setup, &spec, None, &control()).unwrap()
}

fn index_of(
    advice: &tahur::play::advise::Advice<tahur::games::dudo::engine::Action>,
    name: &str,
) -> usize {
    advice
        .actions
        .iter()
        .position(|&a| Dudo::action_name(a) == name)
        .unwrap_or_else(|| panic!("no action {name}"))
}

#[test]
fn an_impossible_bid_is_doubted_for_certain() {
    // Two players on their last life: seat 1 bid 6 cuadras, seat 2 holds no cuadra and no ace,
    // so at most 5 dice can count. Doubting wins the game at once.
    for (rules, text) in [
        (
            Rules::standard(RuleSet::Chimbo9, 2),
            "lives: 1 1; seat: 2; dice: 2 3 3 5 6; opener: seat 1; bids: 6 cuadras",
        ),
        // Caleuchano: 11 millas needs every die and the bonus; seat 2 holds no two.
        (
            Rules::standard(RuleSet::Caleuchano, 2),
            "palos: 4 4; seat: 2; dice: 3 4 5 6 6; opener: seat 1, to the left; bids: 11 millas",
        ),
    ] {
        let advice = advise(&rules, text, 256);
        let doubt = index_of(&advice, "dudo");
        assert_eq!(advice.tally.best(), doubt, "{text}");
        assert_eq!(advice.tally.chance(doubt).mean, 1.0);
        assert_eq!(verdict(&advice.tally), Verdict::ClearlyBest, "{text}");
        assert_eq!(advice.tally.faults, 0);
    }
}

#[test]
fn a_doubt_that_decides_the_game_has_the_exact_chance() {
    let chimbo = Rules::standard(RuleSet::Chimbo9, 2);
    let cal = Rules::standard(RuleSet::Caleuchano, 2);
    let f = |v: &[u8]| -> Vec<Face> { v.iter().map(|&x| Face::new(x).unwrap()).collect() };
    // (rules, position, the doubter's dice, dice shown, the bid doubted)
    let cases = [
        (
            &chimbo,
            "lives: 1 1; seat: 2; dice: 1 4 4 2 6; opener: seat 1; bids: 5 cuadras",
            f(&[1, 4, 4, 2, 6]),
            vec![],
            Bid::parse("5 cuadras").unwrap(),
        ),
        // A reforzada's shown dice are kept in every deal.
        (
            &cal,
            "palos: 4 4; seat: 2; dice: 6 3 3 2 1; opener: seat 1, to the right; bids: 4 quinas reforzada; reforzada: seat 1 showed quina quina",
            f(&[6, 3, 3, 2, 1]),
            f(&[5, 5]),
            Bid::parse("4 quinas").unwrap(),
        ),
    ];
    for (rules, text, hand, shown, bid) in cases {
        let advice = advise(rules, text, 4096);
        let doubt = advice.tally.chance(index_of(&advice, "dudo"));
        let situation = Situation::new(10, hand, shown, rules.bidding, false).unwrap();
        let exact = 1.0 - situation.odds(bid).at_least;
        let ci = doubt.interval(0.95);
        assert!(
            ci.low <= exact && exact <= ci.high,
            "{text}: doubt {} [{}, {}], exact {exact}",
            doubt.mean,
            ci.low,
            ci.high
        );
    }
    // A doubted paso: the passer's five unseen dice stand with poker, full or pichanga.
    let text =
        "palos: 4 4; seat: 1; dice: 1 4 4 2 6; opener: seat 1, to the right; bids: 3 cuadras, paso";
    let advice = advise(&cal, text, 4096);
    let doubt = advice.tally.chance(index_of(&advice, "dudo"));
    let odds = paso::odds(&[]).unwrap();
    let exact = 1.0 - odds.holds() as f64 / odds.total as f64;
    let ci = doubt.interval(0.95);
    assert!(
        ci.low <= exact && exact <= ci.high,
        "doubted paso {} [{}, {}], exact {exact}",
        doubt.mean,
        ci.low,
        ci.high
    );
}

#[test]
fn a_bid_that_cannot_fail_is_not_doubted() {
    // The next player holds the count himself (three cuadras with the ace), or the opener set
    // the dice aside for everyone to see: the doubt loses the game for certain.
    for (rules, text) in [
        (
            Rules::standard(RuleSet::Chimbo9, 2),
            "lives: 1 1; seat: 2; dice: 4 4 1 2 6; opener: seat 1; bids: 3 cuadras",
        ),
        (
            Rules::standard(RuleSet::Caleuchano, 2),
            "palos: 4 4; seat: 2; dice: 2 3 3 6 6; opener: seat 1, to the right; bids: 3 quinas reforzada; reforzada: seat 1 showed quina quina quina",
        ),
    ] {
        let advice = advise(&rules, text, 256);
        let doubt = index_of(&advice, "dudo");
        assert_eq!(advice.tally.chance(doubt).mean, 0.0, "{text}");
        let best = advice.tally.best();
        assert_ne!(best, doubt);
        assert!(
            advice.tally.versus(doubt, best).interval.high < 0.0,
            "{text}: the doubt is worse beyond noise"
        );
    }
}

#[test]
fn mangled_positions_are_read_or_refused_never_crashed_on() {
    let cal = Rules::standard(RuleSet::Caleuchano, 4);
    let chimbo = Rules::standard(RuleSet::Chimbo9, 4);
    let sources = [
        (&chimbo, Dudo::POSITION_EXAMPLE.to_string()),
        (
            &cal,
            "rules: Caleuchano; palos: 4 0 2 1; seat: 2; dice: 3 3 1 5 6; opener: seat 1, to the left, lost the last round, obligado; bids: 3 quinas, 4 quinas reforzada by seat 4, paso; reforzada: seat 4 showed quina quina; first opener: seat 3; tallies: 12 bids, 1 paso doubted, 2 pasos, 1 reforzada".to_string(),
        ),
    ];
    // Pieces that make sense somewhere in a position, spliced in anywhere.
    let pieces = [
        "",
        ";",
        ":",
        ",",
        " ",
        "?",
        "0",
        "5",
        "20",
        "4294967295",
        "99999999999",
        "seat",
        "seat 0",
        "seat 5",
        "paso",
        "reforzada",
        "obligado",
        "to the left",
        "showed",
        "ases",
        "1 as",
        "lives: 0 0 0 0",
        "bids:",
        "tallies: 4294967295 pasos doubted",
        "ñ",
        "é",
        "out: seat 1",
    ];
    let mut rng = base_stream(5);
    let mut accepted = 0;
    for (rules, text) in sources {
        read(rules, &text);
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..1500 {
            let at = tahur::rng::uniform_below(&mut rng, chars.len() + 1);
            let cut = tahur::rng::uniform_below(&mut rng, 4).min(chars.len() - at.min(chars.len()));
            let piece = pieces[tahur::rng::uniform_below(&mut rng, pieces.len())];
            let mangled: String = chars[..at]
                .iter()
                .chain(piece.chars().collect::<Vec<_>>().iter())
                .chain(chars[(at + cut).min(chars.len())..].iter())
                .collect();
            match Dudo::read_position(rules, &mangled, &mut base_stream(1)) {
                Ok(g) => {
                    accepted += 1;
                    let written = position_of::<Dudo>(&g);
                    let back = read(rules, &written);
                    assert_eq!(view_debug(&back), view_debug(&g), "{mangled}");
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
    // Splices into the dice, the numbers and the spaces keep many positions whole.
    assert!(accepted > 50, "{accepted}");
}

#[test]
fn advice_states_the_exact_chance_of_a_doubt() {
    use tahur::play::position::Positions;
    let rules: <Dudo as tahur::play::Game>::Rules = tahur::play::GameRules::standard(2);
    let game = Dudo::read_position(
        &rules,
        "lives: 1 1; seat: 2; dice: 1 4 4 2 6; opener: seat 1; bids: 5 cuadras",
        &mut tahur::rng::base_stream(1),
    )
    .unwrap();
    let notes = Dudo::exact_notes(&game);
    assert_eq!(notes.len(), 1);
    // Independently: aces are wild, so 1,4,4,2,6 holds 3 of the 5 cuadras; the bid is false
    // when at most 1 of the 5 unseen dice is a 4 or an ace (p = 1/3 each):
    // (2/3)^5 + 5·(1/3)·(2/3)^4 = (32 + 80)/243 = 112/243 = 46.09 %.
    assert!(notes[0].contains("a doubt of 5 cuadras"), "{}", notes[0]);
    let exact = 112.0 / 243.0 * 100.0;
    assert!(notes[0].contains(&format!("{exact:.2} %")), "{}", notes[0]);
    // No standing bid, no note.
    let open = Dudo::read_position(
        &rules,
        "lives: 1 1; seat: 1; dice: 1 4 4 2 6; opener: seat 1",
        &mut tahur::rng::base_stream(1),
    )
    .unwrap();
    assert!(Dudo::exact_notes(&open).is_empty());
}

#[test]
fn advice_on_a_position_plays_the_counting_flags() {
    // 3 ases after 3 quinas: refused by default (the text's example), legal with --aces-or-more.
    let position = "rules: Chimbo 9; lives: 0 1 1; seat: 2; dice: tren, as, cuadra, tren, tonto; opener: seat 2; bids: 3 quinas, 3 ases";
    let args = |more: &[&'static str]| -> Vec<&str> {
        let mut a = vec![
            "dudo",
            "advise",
            "--players",
            "3",
            "--rollouts",
            "50",
            "--position",
            position,
        ];
        a.extend_from_slice(more);
        a
    };
    let e = crate::common::fails(&args(&[]));
    assert!(e.contains("3 ases") && e.contains("but not 3"), "{e}");
    let out = crate::common::stdout(&args(&["--aces-or-more"]));
    assert!(out.contains("best"), "{out}");
    // A position that used revivir needs a table that plays it.
    let revived = "rules: Chimbo 9; lives: 0 1 1; seat: 3; dice: tren, as, cuadra, tren, tonto; opener: seat 2; bids: 5 cenas; tallies: 1 life revived";
    let e = crate::common::fails(&["dudo", "advise", "--players", "3", "--position", revived]);
    assert!(
        e.contains("1 life revived") && e.contains("revivir=on"),
        "{e}"
    );
}
