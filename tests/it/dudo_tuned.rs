//! The `tuned` strategy: the shipped tables (built in), a `dudo tune` output read at run time
//! (`tuned:FILE.csv`), and the nearest table size said when a table lacks the one played.

use crate::common;

use tahur::games::dudo::bots::{parse_tuned, shipped_tuned, Strategy};
use tahur::games::dudo::rules::RuleSet;

fn data(name: &str) -> String {
    format!("{}/data/dudo/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn shipped_tables_cover_two_to_eight_players_as_the_data_files_say() {
    for (set, file) in [
        (RuleSet::Chimbo9, "tuned-chimbo9.csv"),
        (RuleSet::Caleuchano, "tuned-caleuchano.csv"),
    ] {
        let rows = shipped_tuned(set);
        let sizes: Vec<u8> = rows.iter().map(|r| r.players).collect();
        assert_eq!(sizes, (2..=8).collect::<Vec<u8>>(), "{file}");
        let from_disk = parse_tuned(&std::fs::read_to_string(data(file)).unwrap(), file).unwrap();
        assert_eq!(
            rows,
            from_disk.as_slice(),
            "{file}: the built-in table is stale; rebuild"
        );
    }
}

#[test]
fn a_tuned_file_is_read_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = data("tuned-chimbo9.csv");
    let line = |s: &str| format!("dudo sim --players 4 --strategies {s} --games 3000 --seed 9");
    // The shipped file given by name plays exactly the built-in table.
    let built_in = common::run_json(&line("tuned")).to_string();
    let from_file = common::run_json(&line(&format!("tuned:{shipped}"))).to_string();
    assert_eq!(
        from_file.replace(&format!("tuned:{shipped}"), "tuned"),
        built_in
    );
    // An edited file changes the play: t = 0.9 doubts far more.
    let edited = dir.path().join("edited.csv");
    std::fs::write(&edited, "players,t,bluff\n4,0.9,0\n").unwrap();
    let e = common::run_json(&line(&format!("tuned:{}", edited.display())));
    let t = common::run_json(&line("threshold:t=0.9"));
    let strip = |v: &serde_json::Value, label: &str| v.to_string().replace(label, "X");
    assert_eq!(
        strip(&e, &format!("tuned:{}", edited.display())),
        strip(&t, "threshold:t=0.9"),
        "a one-row file plays its own parameters"
    );
    assert_ne!(
        strip(&e, &format!("tuned:{}", edited.display())),
        built_in.replace("tuned", "X")
    );
    // Its rows travel in shard files: a sharded run merges to the whole run.
    let spec = format!("tuned:{}", edited.display());
    common::reproducible(&[
        "dudo",
        "sim",
        "--players",
        "4",
        "--strategies",
        &spec,
        "--games",
        "2000",
        "--format",
        "json",
    ]);
}

#[test]
fn a_missing_table_size_plays_the_nearest_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.csv");
    std::fs::write(
        &file,
        "players,t,bluff,win_rate\n3,0.2,0.05,0.3\n6,0.3,0,0.2\n",
    )
    .unwrap();
    let spec = format!("tuned:{}", file.display());
    let s = Strategy::parse(&spec).unwrap();
    // 4 is nearer 3, 5 nearer 6; sizes in the table need no note.
    let note = s.note(RuleSet::Chimbo9, 4).unwrap();
    assert!(
        note.contains("no row for 4 players")
            && note.contains("3 players (t = 0.2, bluff = 0.05, paso = 0, lives = 0)"),
        "{note}"
    );
    assert!(s
        .note(RuleSet::Chimbo9, 5)
        .unwrap()
        .contains("6 players (t = 0.3"));
    assert!(s.note(RuleSet::Chimbo9, 3).is_none());
    assert_eq!(
        s.resolve(RuleSet::Chimbo9, 5),
        Strategy::threshold(0.3, 0.0)
    );
    // The shipped tables stop at 8: a table of 10 says it plays 8's.
    let j = common::run_json("dudo sim --players 10 --strategies tuned,honest --games 40");
    let notes = j["notes"].to_string();
    assert!(
        notes.contains("no row for 10 players") && notes.contains("8 players"),
        "{notes}"
    );
    let j = common::run_json("dudo sim --players 8 --strategies tuned,honest --games 40");
    assert!(!j["notes"].to_string().contains("no row"), "{}", j["notes"]);
}

#[test]
fn bad_tuned_files_are_named_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("", "is empty"),
        ("players,t\n3,0.2\n", "no 'bluff' column"),
        ("players,t,bluff\n", "no rows"),
        (
            "players,t,bluff\n3,1.5,0\n",
            "line 2: t is not a number from 0 to 1",
        ),
        (
            "players,t,bluff\n1,0.5,0\n",
            "line 2: players is not 2 to 16",
        ),
        ("players,t,bluff\n3,0.5\n", "line 2: a missing column"),
        (
            "players,t,bluff\n3,0.5,0\n3,0.4,0\n",
            "line 3: a second row for 3 players",
        ),
    ];
    for (i, (text, says)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("bad{i}.csv"));
        std::fs::write(&f, text).unwrap();
        let spec = format!("tuned:{}", f.display());
        let e = common::fails(&["dudo", "sim", "--players", "3", "--strategies", &spec]);
        assert!(
            e.contains(&f.display().to_string()) && e.contains(says),
            "{text:?}: {e}"
        );
    }
    let e = common::fails(&[
        "dudo",
        "sim",
        "--players",
        "3",
        "--strategies",
        "tuned:/no/such.csv",
    ]);
    assert!(e.contains("/no/such.csv") && e.contains("dudo tune"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// What `tuned` adds to `threshold` (issue 26): lives weight, bluff passes, direction by dice.

use tahur::games::dudo::bots::{dice_direction, knowledge, OddsTables};
use tahur::games::dudo::engine::{Action, Direction};
use tahur::games::dudo::{Dudo, DudoState, Rules, Situation};
use tahur::play::position::Positions;
use tahur::play::{Start, State};
use tahur::rng::{base_stream, SeedableRng, Stream};

/// The game a position describes (a line as `dudo position` writes it).
fn position(rules: &Rules, text: &str) -> DudoState {
    <Dudo as Positions>::read_position(rules, text, &mut Stream::seed_from_u64(1))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The Chimbo 9 position of `text` with the seat to act on `lives` (the lives item rewritten;
/// the game's first opener and tallies, and who lost the last round, which the lives bound,
/// left out: they change no decision).
fn with_own_lives(text: &str, seat: usize, lives: u8) -> String {
    text.split("; ")
        .filter(|item| !item.starts_with("first opener:") && !item.starts_with("tallies:"))
        .map(|item| match item.strip_prefix("lives: ") {
            Some(l) => {
                let mut v: Vec<String> = l.split(' ').map(str::to_string).collect();
                v[seat] = lives.to_string();
                format!("lives: {}", v.join(" "))
            }
            // Who lost the last round matters only for obligado (not in Chimbo 9).
            None => item.replace(", lost the last round", ""),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What an action risks if it is challenged, from the exact engine (not the bots' tables): a
/// doubt loses when the standing bid is true, a raise when it is false.
fn risk_if_challenged(game: &DudoState, action: Action) -> f64 {
    let view = game.view(game.to_act());
    let (known, unknown) = knowledge(&view);
    let mut visible = Vec::new();
    for (f, &c) in known.iter().enumerate() {
        visible.extend(std::iter::repeat_n(
            tahur::games::dudo::Face::new(f as u8 + 1).unwrap(),
            c as usize,
        ));
    }
    let s = Situation::new(
        view.dice_on_table(),
        vec![],
        visible,
        view.rules().bidding,
        false,
    )
    .unwrap();
    assert_eq!(s.unknown(), unknown);
    let p = |bid: tahur::games::dudo::Bid| s.distribution(bid.face).at_least(bid.quantity);
    match action {
        Action::Doubt => p(view.bid().unwrap()),
        Action::Raise { bid, .. } => 1.0 - p(bid),
        other => panic!("{other:?}"),
    }
}

#[test]
fn one_life_left_plays_tighter_than_three_on_the_same_dice_and_bid() {
    // Chimbo 9, four players: every decision of real games (a bid to doubt or raise), played
    // again by the same bot with its own lives set to 3 and to 1, everything else equal.
    // "Tighter": the action taken at one life risks no more if it is challenged than the one
    // taken at three (doubt: the bid is true; raise: the raise is false), judged by the exact
    // engine; and on some of them it differs.
    let rules = Rules::standard(RuleSet::Chimbo9, 4);
    let odds = OddsTables::new(20);
    let bot = Strategy::parse("threshold:t=0.1,lives=0.5").unwrap();
    let plain = Strategy::parse("threshold:t=0.1").unwrap();
    let (mut compared, mut tighter) = (0, 0);
    let mut dice = base_stream(26);
    let mut decisions = Stream::seed_from_u64(26);
    for _ in 0..40 {
        let mut g = DudoState::deal(&rules, &Start::default(), &mut dice);
        while !g.is_over() {
            let seat = g.to_act();
            let view = g.view(seat);
            if view.bid().is_some() && view.lives(seat) > 0 {
                let text = <Dudo as Positions>::write_position(&view);
                let three = position(&rules, &with_own_lives(&text, seat, 3));
                let one = position(&rules, &with_own_lives(&text, seat, 1));
                let mut r = Stream::seed_from_u64(0);
                let a3 = bot.act(&three.view(seat), &odds, &mut r);
                let a1 = bot.act(&one.view(seat), &odds, &mut r);
                // At three lives the lives weight changes nothing.
                assert_eq!(a3, plain.act(&three.view(seat), &odds, &mut r), "{text}");
                let (w3, w1) = (risk_if_challenged(&three, a3), risk_if_challenged(&one, a1));
                assert!(w1 <= w3 + 1e-12, "{text}: {a1} risks {w1}, {a3} risks {w3}");
                compared += 1;
                tighter += (a1 != a3) as u32;
            }
            let a = plain.act(&view, &odds, &mut decisions);
            g.apply(a, &mut dice).unwrap();
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(tighter > 20, "{tighter} of {compared} decisions differ");
}

#[test]
fn one_hand_built_spot_doubted_on_the_last_life_and_raised_on_three() {
    // 20 dice; the bot holds 2 3 4 5 6 and faces 8 cenas: true with 20.30 % (it counts one
    // cena, 15 unknown dice at 1/3 each need 7 or more), above t = 0.1, so with three lives it
    // raises; its best raise (5 ases) is true with 8.98 % (`dudo advise 8 cenas --dice 20
    // --hand 2,3,4,5,6`), so raising risks 91 % if doubted, and at one life, with lives = 0.5,
    // it doubts below 0.5 · 0.1 + 0.5 · 0.91 = 0.51.
    let rules = Rules::standard(RuleSet::Chimbo9, 4);
    let odds = OddsTables::new(20);
    let text = "lives: 3 3 3 3; seat: 2; dice: 2 3 4 5 6; opener: seat 1; bids: 8 cenas";
    let bot = Strategy::parse("threshold:t=0.1,lives=0.5").unwrap();
    let three = position(&rules, text);
    let one = position(&rules, &with_own_lives(text, 1, 1));
    let p = risk_if_challenged(&three, Action::Doubt);
    assert!((p - 0.2030).abs() < 5e-5, "{p}");
    let mut r = Stream::seed_from_u64(3);
    assert!(matches!(
        bot.act(&three.view(1), &odds, &mut r),
        Action::Raise { .. }
    ));
    assert_eq!(bot.act(&one.view(1), &odds, &mut r), Action::Doubt);
    // Without a lives weight, the last life changes nothing.
    let plain = Strategy::parse("threshold:t=0.1").unwrap();
    assert!(matches!(
        plain.act(&one.view(1), &odds, &mut r),
        Action::Raise { .. }
    ));
}

#[test]
fn bluffs_are_fewer_on_the_last_life() {
    // The same spot played 4 000 times (a bluff is a draw): with bluff = 0.4 and lives = 0.5
    // the random raises come at 0.4 with three lives and 0.2 with one, within 5 standard
    // errors.
    let rules = Rules::standard(RuleSet::Chimbo9, 4);
    let odds = OddsTables::new(20);
    let text = "lives: 3 3 3 3; seat: 2; dice: 4 4 1 2 6; opener: seat 1; bids: 3 cuadras";
    let bot = Strategy::parse("threshold:t=0.1,bluff=0.4,lives=0.5").unwrap();
    let honest = Strategy::parse("threshold:t=0.1").unwrap();
    let mut r = Stream::seed_from_u64(4);
    let best = honest.act(&position(&rules, text).view(1), &odds, &mut r);
    let n = 4000;
    for (lives, rate) in [(3u8, 0.4), (1, 0.2)] {
        let g = position(&rules, &with_own_lives(text, 1, lives));
        let other = (0..n)
            .filter(|_| bot.act(&g.view(1), &odds, &mut r) != best)
            .count() as f64;
        // A random cheapest raise is the best one in 1 of the 6 faces' raises.
        let expected = rate * 5.0 / 6.0;
        let se = (expected * (1.0 - expected) / n as f64).sqrt();
        assert!(
            (other / n as f64 - expected).abs() < 5.0 * se,
            "lives {lives}: {other} of {n}"
        );
    }
}

#[test]
fn the_direction_is_a_function_of_the_dice_and_the_neighbours_lives() {
    // Caleuchano, four players, seat 1 opens; seat 2 sits to its right, seat 4 to its left.
    let rules = Rules::standard(RuleSet::Caleuchano, 4);
    let odds = OddsTables::new(20);
    let tuned = Strategy::parse("threshold:t=0.1,direction=dice").unwrap();
    let random = Strategy::parse("threshold:t=0.1").unwrap();
    let open = |palos: &str, dice: &str| {
        position(
            &rules,
            &format!("palos: {palos}; seat: 1; dice: {dice}; opener: seat 1"),
        )
    };
    let direction = |g: &DudoState, s: &Strategy, seed: u64| match s.act(
        &g.view(0),
        &odds,
        &mut Stream::seed_from_u64(seed),
    ) {
        Action::Open { direction, .. } => direction,
        other => panic!("{other:?}"),
    };
    // Three cuadras and an ace back the opening bid (4 of 5 count): the bid goes toward the
    // neighbour with more lives; a hand of five different faces sends it the other way.
    let strong = "4 4 4 1 2";
    let weak = "2 3 4 5 6";
    for (palos, more_lives) in [("0 0 0 3", Direction::Right), ("0 3 0 0", Direction::Left)] {
        let other = if more_lives == Direction::Right {
            Direction::Left
        } else {
            Direction::Right
        };
        for seed in 0..20 {
            assert_eq!(direction(&open(palos, strong), &tuned, seed), more_lives);
            assert_eq!(direction(&open(palos, weak), &tuned, seed), other);
        }
        // The rule, from the view alone.
        assert_eq!(dice_direction(&open(palos, strong).view(0), 4), more_lives);
        assert_eq!(dice_direction(&open(palos, weak).view(0), 1), other);
    }
    // Neighbours on equal lives: nothing tells the sides apart, to the right.
    for seed in 0..20 {
        assert_eq!(
            direction(&open("0 2 4 2", strong), &tuned, seed),
            Direction::Right
        );
    }
    // `threshold` (direction=random) still draws it: both ways over 20 draws.
    let drawn: std::collections::HashSet<_> = (0..20)
        .map(|seed| format!("{:?}", direction(&open("0 0 0 3", strong), &random, seed)))
        .collect();
    assert_eq!(drawn.len(), 2);
}

#[test]
fn a_table_without_the_new_columns_plays_the_old_tuned_exactly() {
    // The table shipped before issue 26's bots (players,t,bluff), kept in data/dudo as the
    // tune's field, plays `threshold` with its row: random direction, no bluff passes, no
    // lives weight. Under Caleuchano at 4 players that is threshold:t=0.05.
    let old = data("tuned-v1-caleuchano.csv");
    let line = |s: &str| {
        format!("dudo sim --rules caleuchano --players 4 --strategies {s} --games 1500 --seed 3")
    };
    let strip = |v: serde_json::Value, label: &str| v.to_string().replace(label, "X");
    assert_eq!(
        strip(
            common::run_json(&line(&format!("tuned:{old}"))),
            &format!("tuned:{old}")
        ),
        strip(
            common::run_json(&line("threshold:t=0.05")),
            "threshold:t=0.05"
        )
    );
    // The shipped tables have the new columns: `tuned` chooses the direction by its dice.
    for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
        assert!(shipped_tuned(set)
            .iter()
            .all(|r| r.direction == tahur::games::dudo::bots::DirectionChoice::Dice));
    }
}

#[test]
fn tuned_bluff_passes_and_some_doubted_passes_fail() {
    // Before issue 26 every bot passed only with a hand that stands, so a doubted pass never
    // failed. `tuned` bluffs passes: against `threshold` (which doubts a pass with nothing
    // shown, 15.1 % < 0.4) some of them are doubted and fail.
    let j = common::run_json(
        "dudo sim --rules caleuchano --players 3 --strategies tuned,threshold --games 2000 --seed 5",
    );
    let failed = j["pass_doubt_success"].as_f64().unwrap();
    assert!(failed > 0.0, "{failed}");
    let j = common::run_json(
        "dudo sim --rules caleuchano --players 3 --strategies threshold --games 2000 --seed 5",
    );
    assert_eq!(j["pass_doubt_success"].as_f64().unwrap(), 0.0);
}

#[test]
fn the_new_table_against_the_one_before_head_to_head_at_four_players() {
    // Every rotation of the seats on the same deals. Under Caleuchano the new table (t = 0.15,
    // direction by dice) beats the one before (t = 0.05, which doubts almost nothing) by far
    // more than chance allows at 2 000 games.
    let old = data("tuned-v1-caleuchano.csv");
    let j = common::run_json(&format!(
        "dudo tournament --rules caleuchano --players 4 --strategies tuned,tuned:{old} --games 2000 --seed 1"
    ));
    let pair = &j["pairs"][0];
    assert_eq!(pair["a"], "tuned");
    assert!(
        pair["difference"].as_f64().unwrap() > 0.0 && pair["p_value"].as_f64().unwrap() < 0.01,
        "{pair}"
    );
    // Under Chimbo 9 the search kept the 4-player row (t = 0.1, no bluff, lives weight 0; no
    // paso and no direction to choose in these rules): the two play the same games.
    let old = data("tuned-v1-chimbo9.csv");
    let line = |s: &str| format!("dudo sim --players 4 --strategies {s} --games 1500 --seed 4");
    let strip = |v: serde_json::Value, label: &str| v.to_string().replace(label, "X");
    assert_eq!(
        strip(common::run_json(&line("tuned")), "tuned"),
        strip(
            common::run_json(&line(&format!("tuned:{old}"))),
            &format!("tuned:{old}")
        )
    );
}
