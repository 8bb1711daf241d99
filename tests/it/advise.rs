//! Advice written once (`play::advise`), on Durak's engine: the same answer at any thread count
//! and shard split, intervals that cover the truth as often as they say, a single legal action
//! answered without rollouts, a finished game refused, values as the game's event says.

use tahur::games::durak::bots::Strategy;
use tahur::games::durak::{Durak, DurakState};
use tahur::play::advise::{self, AdviceSetup, AdviceSimulation, AdviceTally, Verdict, CHUNK};
use tahur::play::position::example;
use tahur::play::{GameRules, State, Strategy as _};
use tahur::runner::{run, RunControl, RunSpec, Shard, Simulation, Tally};

fn control(threads: usize) -> RunControl {
    RunControl {
        threads: Some(threads),
        progress: tahur::progress::Progress::hidden(),
    }
}

fn two_players() -> <Durak as tahur::play::Game>::Rules {
    GameRules::standard(2)
}

fn spec(deals: u64, seed: u64) -> RunSpec {
    RunSpec {
        samples: deals,
        seed,
        chunk_size: CHUNK,
    }
}

/// Seed 1's two-player game after `after` random actions, rolled out by random players.
fn setup(after: u64) -> AdviceSetup<Durak, Strategy> {
    let rules = two_players();
    let random = Strategy::parse_list("random").unwrap();
    let position = example::<Durak, Strategy>(&rules, &random, 1, after).unwrap();
    AdviceSetup {
        position,
        bots: random,
    }
}

/// A position with at least three legal actions.
fn busy_setup() -> AdviceSetup<Durak, Strategy> {
    (0..40)
        .map(setup)
        .find(|s| advise::legal_actions::<Durak>(&s.position).len() >= 3)
        .expect("some early position offers three actions")
}

#[test]
fn the_same_advice_at_any_thread_count_and_shard_split() {
    let s = busy_setup();
    let sim = AdviceSimulation::new(&s).unwrap();
    let spec = spec(3 * CHUNK + 5, 7);
    let one = run(&sim, &spec, None, &control(1)).unwrap().tally;
    let two = run(&sim, &spec, None, &control(2)).unwrap().tally;
    assert_eq!(one, two);
    let mut merged = sim.empty_tally();
    for index in 1..=3 {
        let part = run(&sim, &spec, Some(Shard { index, count: 3 }), &control(2)).unwrap();
        merged.absorb(&part.tally);
    }
    assert_eq!(one, merged);
    assert_eq!(one.deals + one.faults, 3 * CHUNK + 5);
    assert_eq!(one.faults, 0);
}

#[test]
fn every_action_meets_the_same_deals() {
    // With common random numbers, an action compared with itself differs by exactly nothing, and
    // the tally's pair sums agree with the per-action sums.
    let s = busy_setup();
    let a = advise::run(&s, &spec(2 * CHUNK, 3), None, &control(2)).unwrap();
    let t: &AdviceTally = &a.tally;
    let k = a.actions.len();
    for i in 0..k {
        for j in 0..k {
            let d = t.versus(i, j);
            let direct = t.chance(i).mean - t.chance(j).mean;
            assert!((d.difference - direct).abs() < 1e-12, "{i} {j}");
        }
        assert_eq!(t.versus(i, i).interval.high, 0.0);
    }
}

#[test]
fn intervals_cover_the_long_run_chance_as_often_as_they_say() {
    // The truth: 20 000 deals. Then 60 runs of 256 deals on other seeds: each action's 95 %
    // interval should hold the truth about 95 % of the time (binomial spread over 60 × k
    // intervals: at least 88 %, at most 99.5 %).
    let s = busy_setup();
    let truth = advise::run(&s, &spec(20_000, 1_000), None, &control(2)).unwrap();
    let k = truth.actions.len();
    let (mut covered, mut total) = (0, 0);
    let (mut diff_covered, mut diff_total) = (0, 0);
    for seed in 0..60 {
        let a = advise::run(&s, &spec(4 * CHUNK, seed), None, &control(2)).unwrap();
        for i in 0..k {
            let ci = a.tally.chance(i).interval(0.95);
            total += 1;
            covered += usize::from(ci.contains(truth.tally.chance(i).mean));
            if i > 0 {
                let d = a.tally.versus(i, 0).interval;
                diff_total += 1;
                diff_covered += usize::from(d.contains(truth.tally.versus(i, 0).difference));
            }
        }
    }
    let rate = covered as f64 / total as f64;
    assert!(
        (0.88..=0.995).contains(&rate),
        "chances: {covered} of {total}"
    );
    let rate = diff_covered as f64 / diff_total as f64;
    assert!(
        (0.88..=0.995).contains(&rate),
        "differences: {diff_covered} of {diff_total}"
    );
}

#[test]
fn until_decided_stops_once_the_best_is_separated_and_is_reproducible() {
    let s = busy_setup();
    let spec = spec(64 * CHUNK, 5);
    let a = advise::run(&s, &spec, Some((CHUNK, 0.05)), &control(1)).unwrap();
    let b = advise::run(&s, &spec, Some((CHUNK, 0.05)), &control(2)).unwrap();
    assert_eq!(a.tally, b.tally);
    let seq = a.sequential.unwrap();
    assert_eq!(seq.decided, a.tally.separated(seq.last_level));
    if seq.decided {
        assert!(a.run.samples_done < spec.samples);
        assert_eq!(advise::verdict(&a.tally), Verdict::ClearlyBest);
    } else {
        assert_eq!(a.run.samples_done, spec.samples);
    }
}

#[test]
fn one_legal_action_is_answered_without_rollouts_and_a_finished_game_is_refused() {
    // Dominó: a player who cannot play must pass, the one legal action.
    use tahur::games::domino::bots::Strategy as DominoStrategy;
    use tahur::games::domino::Domino;
    let rules: <Domino as tahur::play::Game>::Rules = GameRules::standard(4);
    let random = DominoStrategy::parse_list("random").unwrap();
    let mut single = None;
    'seeds: for seed in 0..50 {
        for after in 0..100 {
            let Ok(p) = example::<Domino, DominoStrategy>(&rules, &random, seed, after) else {
                break;
            };
            if advise::legal_actions::<Domino>(&p).len() == 1 {
                single = Some(p);
                break 'seeds;
            }
        }
    }
    let position = single.expect("a forced pass within fifty games");
    let s = AdviceSetup {
        position,
        bots: random.clone(),
    };
    let a = advise::run(&s, &spec(1000, 1), None, &control(1)).unwrap();
    assert_eq!((a.actions.len(), a.run.samples_done), (1, 0));
    assert_eq!(advise::verdict(&a.tally), Verdict::Only);
    // A game played to its end has nothing to advise.
    let mut game = s.position.clone();
    let mut bot = random[0].bot(&rules);
    let mut rng = tahur::rng::base_stream(9);
    while !game.is_over() {
        let a = tahur::play::Bot::<Domino>::act(&mut bot, &game.view(game.to_act()), &mut rng);
        game.apply(a, &mut rng).unwrap();
    }
    let over = AdviceSetup {
        position: game,
        bots: random,
    };
    let e = advise::run(&over, &spec(10, 1), None, &control(1)).unwrap_err();
    assert!(e.to_string().contains("over"), "{e}");
}

#[test]
fn a_rollout_is_worth_the_event_in_half_points() {
    // Durak's event is bad: not being the durak is worth 2, a draw (nobody is) 2, the durak 0.
    let rules = two_players();
    let random = Strategy::parse_list("random").unwrap();
    let mut bots: Vec<_> = random.iter().map(|r| r.bot(&rules)).collect();
    let mut seen = [false; 2];
    for seed in 0..30 {
        let mut rng = tahur::rng::base_stream(seed);
        let mut game = DurakState::deal(&rules, &Default::default(), &mut rng);
        while !game.is_over() {
            let a =
                tahur::play::Bot::<Durak>::act(&mut bots[0], &game.view(game.to_act()), &mut rng);
            game.apply(a, &mut rng).unwrap();
        }
        for seat in 0..2 {
            let v = advise::rollout_value::<Durak>(&game, seat);
            let expected = match game.outcome().unwrap() {
                tahur::play::Outcome::Event(m) if m >> seat & 1 == 1 => 0,
                tahur::play::Outcome::Capped => 1,
                _ => 2,
            };
            assert_eq!(v, expected);
            seen[usize::from(v == 2)] = true;
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn the_commands_write_a_position_and_advise_on_it_at_any_thread_count() {
    use crate::common::{fails, json};
    let p = json(&[
        "durak",
        "position",
        "--players",
        "3",
        "--seed",
        "7",
        "--after",
        "10",
        "--format",
        "json",
    ]);
    let position = p["position"].as_str().unwrap().to_string();
    assert!(
        position.contains("hand: ") && position.contains("trump: "),
        "{position}"
    );
    let advise = |threads: &str| {
        json(&[
            "durak",
            "advise",
            "--players",
            "3",
            "--position",
            &position,
            "--rollouts",
            "300",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let (one, two) = (advise("1"), advise("2"));
    assert_eq!(one, two);
    assert_eq!(one["position"].as_str(), Some(position.as_str()));
    let rows = one["tables"]["actions"].as_array().unwrap();
    assert!(!rows.is_empty());
    // A position that cannot be: one line naming it, exit 2.
    let bad = position.replacen("hand: ", "hand: 6H 6H ", 1);
    let e = fails(&["durak", "advise", "--players", "3", "--position", &bad]);
    assert!(e.contains("6H"), "{e}");
    let e = fails(&["durak", "position", "--players", "3", "--after", "99999"]);
    assert!(e.contains("--after 99999"), "{e}");
}

#[test]
fn many_actions_are_screened_first_and_only_the_kept_are_rolled_out_fully() {
    use tahur::games::dudo::bots::Strategy as DudoStrategy;
    use tahur::games::dudo::Dudo;
    use tahur::play::advise::{run_screened, Screen};
    let rules: <Dudo as tahur::play::Game>::Rules = GameRules::standard(4);
    let bots = DudoStrategy::parse_list("threshold").unwrap();
    // Seed 2's opening: 120 legal bids.
    let position = example::<Dudo, DudoStrategy>(&rules, &bots, 2, 0).unwrap();
    let all = advise::legal_actions::<Dudo>(&position);
    assert_eq!(all.len(), 120);
    let setup = AdviceSetup { position, bots };
    let screen = Screen {
        deals: 128,
        ..Screen::DEFAULT
    };
    let a = run_screened(&setup, &spec(256, 9), None, Some(screen), &control(1)).unwrap();
    let b = run_screened(&setup, &spec(256, 9), None, Some(screen), &control(2)).unwrap();
    assert_eq!(a.tally, b.tally, "threads changed the advice");
    let sc = a.screened.as_ref().expect("120 actions are screened");
    assert_eq!(sc.actions, all);
    assert_eq!(sc.tally.deals, 128);
    assert!((8..=16).contains(&sc.kept.len()), "{:?}", sc.kept);
    assert!(sc.kept.contains(&sc.tally.best()));
    // The kept are the best of the screening: no action left out is above one kept by rank 8.
    let mut by_value: Vec<i64> = sc.tally.values.iter().map(|v| v.sum).collect();
    by_value.sort_unstable_by(|x, y| y.cmp(x));
    let eighth = by_value[7];
    for (i, v) in sc.tally.values.iter().enumerate() {
        if v.sum > eighth {
            assert!(
                sc.kept.contains(&i),
                "action {i} beat the eighth but was left out"
            );
        }
    }
    // The full rollouts compare exactly the kept, on their own deals.
    let kept: Vec<_> = sc.kept.iter().map(|&i| all[i]).collect();
    assert_eq!(a.actions, kept);
    assert_eq!(a.tally.deals, 256);
    assert_eq!(a.run.spec.seed, 9);
    // Few actions are not screened: the same as a plain run.
    let few = setup_with_few_actions();
    let plain = advise::run(&few, &spec(128, 3), None, &control(1)).unwrap();
    let screened = run_screened(&few, &spec(128, 3), None, Some(screen), &control(1)).unwrap();
    assert!(screened.screened.is_none());
    assert_eq!(plain.tally, screened.tally);
}

fn setup_with_few_actions() -> AdviceSetup<Durak, Strategy> {
    busy_setup()
}

/// Advice at seed 1's game after `after` actions of the rollout bots allocates nothing per
/// rollout: a chunk of many deals allocates what a chunk of few does.
fn advice_is_flat<G: tahur::play::position::Positions>(rules: G::Rules, after: u64, what: &str) {
    let bots = G::Strategy::parse_list(G::ROLLOUT_BOTS).unwrap();
    let position = example::<G, G::Strategy>(&rules, &bots, 1, after).unwrap();
    let setup = AdviceSetup::<G, G::Strategy> { position, bots };
    let sim = AdviceSimulation::new(&setup).unwrap();
    crate::allocations::flat(&sim, 4, 48, what);
}

#[test]
fn rollouts_allocate_nothing_per_deal_in_every_game() {
    use tahur::games::{domino::Domino, dudo::Dudo, ocho::Ocho, poker::Poker};
    advice_is_flat::<Durak>(GameRules::standard(3), 16, "Durak advice");
    advice_is_flat::<Dudo>(GameRules::standard(4), 9, "Dudo advice");
    advice_is_flat::<Poker>(GameRules::standard(4), 4, "Póker advice");
    advice_is_flat::<Domino>(GameRules::standard(4), 5, "Dominó advice");
    advice_is_flat::<Ocho>(GameRules::standard(4), 12, "Ocho advice");
}

#[test]
fn the_position_commands_help_says_what_each_does() {
    // The output flags' own doc comment ("Output options") once replaced every description.
    for game in ["dudo", "durak", "poker", "domino", "ocho"] {
        let mut cases = vec![
            ("position", "The position of the player to act"),
            ("advise", "Every legal action at a position"),
        ];
        if matches!(game, "dudo" | "poker" | "domino") {
            cases.push(("equity", "Each side's chance to win the match"));
        }
        if game == "dudo" {
            // Dudo's advise is its own command (raises by P(true), or a position's rollouts).
            cases.retain(|c| c.0 != "advise");
        }
        for (cmd, first) in cases {
            let out = crate::common::tahur()
                .args([game, cmd, "--help"])
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.starts_with(first), "{game} {cmd}: {text}");
        }
    }
}
