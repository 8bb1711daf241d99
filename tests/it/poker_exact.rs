//! Póker mentiroso's exact figures against computations written here, separately: hands ranked
//! by an independent comparison (sorted groups, then faces), every roll enumerated as ordered
//! dice (6^k tuples, not multisets), and the re-roll plan against a brute-force search over
//! labelled dice that also tries every group throw. Parsers never panic on any text.

use proptest::prelude::*;
use tahur::games::poker::exact::{best_single_keep_from, Goal, Planner};
use tahur::games::poker::hand::{ladder, Claim, Counts, Face, HandValue};
use tahur::games::poker::reports::{self, ChancesQuery, RerollQuery};
use tahur::games::poker::tables::{code_of, plan, tables};

/// Five dice as faces 0 (the 7) … 5 (the ace).
type Dice = [u8; 5];

/// The independent ranking key: the hand's pattern of group sizes (five different < pair <
/// two pairs < three < full < four < five), then the dice sorted by (group size, face), both
/// descending, compared face by face.
fn key(d: &Dice) -> (usize, [u8; 5]) {
    let mut count = [0u8; 6];
    for &x in d {
        count[x as usize] += 1;
    }
    let mut sorted = *d;
    sorted.sort_by(|a, b| count[*b as usize].cmp(&count[*a as usize]).then(b.cmp(a)));
    let mut pattern: Vec<u8> = count.iter().copied().filter(|&c| c > 0).collect();
    pattern.sort_by(|a, b| b.cmp(a));
    let order: [&[u8]; 7] = [
        &[1, 1, 1, 1, 1],
        &[2, 1, 1, 1],
        &[2, 2, 1],
        &[3, 1, 1],
        &[3, 2],
        &[4, 1],
        &[5],
    ];
    let kind = order.iter().position(|p| *p == pattern.as_slice()).unwrap();
    (kind, sorted)
}

fn counts(d: &[u8]) -> Counts {
    let mut c = [0u8; 6];
    for &x in d {
        c[x as usize] += 1;
    }
    Counts(c)
}

fn dice_of(c: &Counts) -> Dice {
    let mut v = Vec::new();
    for f in 0..6 {
        for _ in 0..c.0[f] {
            v.push(f as u8);
        }
    }
    v.try_into().unwrap()
}

/// Every ordered roll of `k` dice.
fn rolls(k: usize) -> impl Iterator<Item = Vec<u8>> {
    (0..6usize.pow(k as u32)).map(move |mut x| {
        (0..k)
            .map(|_| {
                let f = (x % 6) as u8;
                x /= 6;
                f
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn hands_rank_as_the_independent_comparison(a in proptest::array::uniform5(0u8..6), b in proptest::array::uniform5(0u8..6)) {
        let (va, vb) = (HandValue::of(&counts(&a)), HandValue::of(&counts(&b)));
        prop_assert_eq!(va.cmp(&vb), key(&a).cmp(&key(&b)));
        // A claim is true exactly when the dice are at least the claimed hand.
        let claim = Claim::of(counts(&b));
        prop_assert_eq!(claim.is_met_by(&counts(&a)), key(&a) >= key(&b));
    }

    #[test]
    fn claim_parser_never_panics(s in "\\PC{0,40}") {
        match Claim::parse(&s) {
            Ok(c) => prop_assert!(c.rung() < 252),
            Err(e) => {
                let m = e.to_string();
                let quoted = format!("'{s}'");
                prop_assert!(m.contains(&quoted) && !m.contains('\n'), "{}", m);
            }
        }
    }

    #[test]
    fn claim_parser_never_panics_on_near_misses(
        kind in "(repóker|poker|full|trío|trio|doble pareja|pareja|nada|three|four|two pairs|un|)",
        words in proptest::collection::vec("(de|y|con|as|ases|rey|reyes|reina|damas|jota|roja|negras|ocho|siete|nueve|K|A|7|8|x|,)", 0..8),
    ) {
        let s = format!("{kind} {}", words.join(" "));
        if let Err(e) = Claim::parse(&s) {
            let quoted = format!("'{s}'");
            prop_assert!(e.to_string().contains(&quoted));
        }
    }

    #[test]
    fn compact_claims_and_dice_never_panic(s in "[AKQJ87arnRN1x ,]{0,9}") {
        let quoted = format!("'{s}'");
        if let Err(e) = Claim::parse(&s) {
            prop_assert!(e.to_string().contains(&quoted));
        }
        match Counts::parse(&s, "--dice") {
            Ok(c) => prop_assert!(c.len() <= 5),
            Err(e) => prop_assert!(e.to_string().contains(&quoted)),
        }
    }

    #[test]
    fn face_parser_never_panics(s in "\\PC{0,12}") {
        if let Err(e) = Face::parse(&s) {
            let quoted = format!("'{s}'");
            prop_assert!(e.to_string().contains(&quoted));
        }
    }

    #[test]
    fn strategy_specs_never_panic(s in "\\PC{0,30}", p in "(random|azar|honest|honesto|threshold|umbral|tuned|afinado|search|busqueda)(:(call|bluff|rollouts|x)?=?[0-9.e-]{0,5}(,(call|bluff)=[0-9.]{0,4})?)?") {
        use tahur::games::poker::bots::Strategy;
        for text in [&s, &p] {
            if let Err(e) = Strategy::parse(text) {
                let m = e.to_string();
                prop_assert!(!m.contains('\n'));
                prop_assert!(names_part_of(&m, text), "{}: {}", text, m);
            }
        }
    }

    #[test]
    fn every_claim_reads_back_from_its_dice_and_its_words(i in 0usize..252) {
        let (dice, _) = ladder()[i];
        let c = Claim::of(dice);
        prop_assert_eq!(Claim::parse(&dice.to_string()).unwrap(), c);
        prop_assert_eq!(Claim::parse(&c.spoken()).unwrap(), c);
        prop_assert_eq!(c.rung(), i);
    }
}

/// Whether the message quotes the text or a part of it ('…').
fn names_part_of(message: &str, text: &str) -> bool {
    let t = text.trim();
    message.contains(t)
        || message
            .split('\'')
            .skip(1)
            .step_by(2)
            .any(|q| !q.is_empty() && t.contains(q) || q == t)
}

#[test]
fn the_ladder_is_every_hand_once_strictly_ordered_by_the_independent_key() {
    let l = ladder();
    assert_eq!(l.len(), 252);
    // Every one of the 7776 rolls is on the ladder, and the rungs follow the key.
    let mut seen = std::collections::HashSet::new();
    for r in rolls(5) {
        let d: Dice = r.clone().try_into().unwrap();
        let rung = Claim::of(counts(&d)).rung();
        seen.insert(rung);
        assert_eq!(dice_of(&l[rung].0), {
            let mut s = d;
            s.sort();
            s
        });
    }
    assert_eq!(seen.len(), 252);
    for w in l.windows(2) {
        assert!(
            key(&dice_of(&w[0].0)) < key(&dice_of(&w[1].0)),
            "{} {}",
            w[0].0,
            w[1].0
        );
    }
}

#[test]
fn hand_types_of_every_roll_size_match_the_enumeration() {
    for k in 1..=5 {
        let mut expect = [0u64; 7];
        for r in rolls(k) {
            // The type of k dice: groups only (five different = 0, …), as the key does for 5.
            let mut count = [0u8; 6];
            for &x in &r {
                count[x as usize] += 1;
            }
            let mut p: Vec<u8> = count.iter().copied().filter(|&c| c > 1).collect();
            p.sort_by(|a, b| b.cmp(a));
            let t = match p.as_slice() {
                [] => 0,
                [2] => 1,
                [2, 2] => 2,
                [3] => 3,
                [3, 2] => 4,
                [4] => 5,
                [5] => 6,
                _ => unreachable!(),
            };
            expect[t] += 1;
        }
        assert_eq!(reports::type_counts(k), expect, "{k} dice");
    }
    assert_eq!(
        reports::type_counts(5),
        [720, 3600, 1800, 1200, 300, 150, 6]
    );
}

#[test]
fn reach_chances_match_the_enumeration_for_every_fixed_set_and_rung() {
    let t = tables();
    for k in 0..=5 {
        for &fixed in t.codes_of_size(k) {
            let f = tahur::games::poker::tables::counts_of(fixed);
            let base: Vec<u8> = dice_of_partial(&f);
            let mut hist = [0u32; 253];
            for r in rolls(5 - k) {
                let mut d = base.clone();
                d.extend(r);
                let d: Dice = d.try_into().unwrap();
                hist[rank_of(&d)] += 1;
            }
            let mut at_least = 0;
            for need in (0..=252).rev() {
                at_least += hist[need];
                assert_eq!(t.reach_count(fixed, need), at_least, "{f} rung {need}");
                let p = at_least as f64 / 6f64.powi(5 - k as i32);
                assert_eq!(t.reach(fixed, need), p);
            }
        }
    }
}

fn dice_of_partial(c: &Counts) -> Vec<u8> {
    (0..6u8)
        .flat_map(|f| std::iter::repeat_n(f, c.0[f as usize] as usize))
        .collect()
}

/// The rung by the independent key: how many distinct hands rank below.
fn rank_of(d: &Dice) -> usize {
    static KEYS: std::sync::OnceLock<Vec<(usize, [u8; 5])>> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        let mut v: Vec<(usize, [u8; 5])> = rolls(5).map(|r| key(&r.try_into().unwrap())).collect();
        v.sort();
        v.dedup();
        v
    });
    keys.binary_search(&key(d)).unwrap()
}

/// Brute force over labelled dice: at each point, stop or throw any non-empty group of the dice
/// not yet thrown (every outcome of the group enumerated), the best of all. `goal` is the
/// lowest rung (independent key) that succeeds.
fn brute(d: &mut Dice, free: u8, need: usize) -> f64 {
    if rank_of(d) >= need {
        return 1.0;
    }
    let mut best: f64 = 0.0;
    let mut s = free;
    while s != 0 {
        let idx: Vec<usize> = (0..5).filter(|i| s >> i & 1 == 1).collect();
        let saved = *d;
        let n = 6usize.pow(idx.len() as u32);
        let mut total = 0.0;
        for mut o in 0..n {
            for &i in &idx {
                d[i] = (o % 6) as u8;
                o /= 6;
            }
            total += brute(d, free & !s, need);
        }
        *d = saved;
        best = best.max(total / n as f64);
        s = (s - 1) & free;
    }
    best
}

#[test]
fn the_die_by_die_plan_equals_a_brute_force_search_over_every_throw() {
    let t = tables();
    // (dice, dice already thrown as a mask, claim to beat)
    let cases: [(&str, u8, &str); 9] = [
        ("AAKQJ", 0b00011, "trío de reyes"),
        ("KKK87", 0b00111, "KKK87"),
        ("AAAAK", 0b00001, "AAAAK"),
        ("QQJ87", 0b00001, "doble pareja de reinas y jotas"),
        ("AKQJ8", 0b00011, "pareja de ases"),
        ("87777", 0b00010, "póker de negras"),
        ("AAKKQ", 0b00100, "full de reyes y ases"),
        ("KKK87", 0, "trío de reyes"),
        ("AKQJ8", 0, "pareja de ases"),
    ];
    for (dice, thrown, beat) in cases {
        let hand = Counts::parse(dice, "d").unwrap();
        let claim = Claim::parse(beat).unwrap();
        let need = claim.rung() + 1;
        // Labelled dice in the order written; `thrown` masks positions.
        let mut d: Dice = dice
            .chars()
            .map(|c| Face::parse(&c.to_string()).unwrap().index() as u8)
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        let thrown_counts = counts(
            &(0..5)
                .filter(|i| thrown >> i & 1 == 1)
                .map(|i| d[i])
                .collect::<Vec<_>>(),
        );
        let free_counts = counts(
            &(0..5)
                .filter(|i| thrown >> i & 1 == 0)
                .map(|i| d[i])
                .collect::<Vec<_>>(),
        );
        let exact = brute(&mut d, !thrown & 0b11111, need);
        let (planner, _) = Planner::new(Goal::beat(&claim)).best(free_counts, thrown_counts);
        let table = plan(need).chance(t, code_of(&free_counts), code_of(&thrown_counts));
        assert!(
            (planner - exact).abs() < 1e-12,
            "{dice} {beat}: {planner} vs {exact}"
        );
        assert!(
            (table - exact).abs() < 1e-12,
            "{dice} {beat}: {table} vs {exact}"
        );
        // The report's figure is the same, and never below the best single keep.
        let q = RerollQuery::new(hand, thrown_counts, Some(claim), None).unwrap();
        let a = reports::reroll(&q);
        assert!((a.plan_chance - exact).abs() < 1e-12);
        assert!(a.plan_chance >= a.keep_chance - 1e-12);
        // The single keep against every subset of the free positions, enumerated.
        let mut keep_best: f64 = 0.0;
        for keep in 0..32u8 {
            if keep & thrown != 0 {
                continue;
            }
            let roll: Vec<usize> = (0..5).filter(|i| (keep | thrown) >> i & 1 == 0).collect();
            let n = 6usize.pow(roll.len() as u32);
            let mut ok = 0;
            for r in rolls(roll.len()) {
                let mut x = d;
                for (j, &i) in roll.iter().enumerate() {
                    x[i] = r[j];
                }
                ok += (rank_of(&x) >= need) as usize;
            }
            keep_best = keep_best.max(ok as f64 / n as f64);
        }
        assert!((a.keep_chance - keep_best).abs() < 1e-12, "{dice} {beat}");
    }
}

#[test]
fn the_plan_is_never_worse_than_the_best_single_keep_for_every_hand_and_goal() {
    let t = tables();
    for need in 1..252 {
        let p = plan(need);
        for &(hand, _) in ladder() {
            let h = code_of(&hand);
            // The best keep from the tabulated chances of fixed dice plus a fresh roll.
            let mut keep: f64 = 0.0;
            for k in tahur::games::poker::exact::sub_multisets(hand) {
                keep = keep.max(t.reach(code_of(&k), need));
            }
            assert!(p.chance(t, h, 0) >= keep - 1e-12, "{hand} need {need}");
        }
    }
    // The tabulated keep is the enumerated one.
    for &(hand, _) in ladder().iter().step_by(25) {
        for need in [40, 120, 200] {
            let goal = Goal::reach(&Claim::of(ladder()[need].0));
            let (keep, _) = best_single_keep_from(hand, Counts::EMPTY, goal);
            let best = tahur::games::poker::exact::sub_multisets(hand)
                .into_iter()
                .map(|k| t.reach(code_of(&k), need))
                .fold(0.0, f64::max);
            assert!((keep - best).abs() < 1e-12);
        }
    }
}

#[test]
fn call_chances_match_the_enumeration() {
    for (public, claim) in [
        ("AA", "full de ases"),
        ("", "trío de reyes"),
        ("KK7", "póker de reyes"),
        ("AKQJ8", "nada as rey reina jota roja"),
    ] {
        let public = if public.is_empty() {
            Counts::EMPTY
        } else {
            Counts::parse(public, "p").unwrap()
        };
        let claim = Claim::parse(claim).unwrap();
        let q = ChancesQuery {
            public,
            claim,
            players: 4,
        };
        let (p_true, p_beat) = reports::chances(&q);
        let base = dice_of_partial(&public);
        let hidden = 5 - public.len();
        let mut planner = Planner::new(Goal::beat(&claim));
        let (mut truth, mut beat) = (0u32, 0.0);
        for r in rolls(hidden) {
            let mut d = base.clone();
            d.extend(&r);
            let d: Dice = d.try_into().unwrap();
            truth += (rank_of(&d) >= claim.rung()) as u32;
            beat += planner.best(counts(&d), Counts::EMPTY).0;
        }
        let n = 6f64.powi(hidden as i32);
        assert_eq!(p_true, truth as f64 / n, "{public} {claim}");
        assert!((p_beat - beat / n).abs() < 1e-12, "{public} {claim}");
    }
}

#[test]
fn the_sheet_in_data_is_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/poker");
    for (name, content) in reports::sheet_files().unwrap() {
        let on_disk = std::fs::read_to_string(root.join(&name)).unwrap_or_default();
        assert!(
            on_disk == content,
            "data/poker/{name} is stale: run `cargo run --release -- poker sheet --out-dir data/poker`"
        );
    }
    // Spot checks of the sheet's figures against the enumeration above.
    let rep = reports::sheet_report();
    let rows = &rep.tables[0].rows;
    assert_eq!(rows.len(), 252);
    let value = |row: &Vec<tahur::report::Value>, i: usize| match row[i] {
        tahur::report::Value::Prob(p) => p,
        ref v => panic!("{v:?}"),
    };
    let mut planner_rows = 0;
    for (rung, row) in rows.iter().enumerate().step_by(50) {
        let claim = Claim::of(ladder()[rung].0);
        let truth = rolls(5)
            .filter(|r| rank_of(&r.clone().try_into().unwrap()) >= rung)
            .count();
        assert_eq!(value(row, 4), truth as f64 / 7776.0);
        let mut planner = Planner::new(Goal::beat(&claim));
        let holding = planner.best(claim.dice(), Counts::EMPTY).0;
        assert!((value(row, 5) - holding).abs() < 1e-12);
        let fresh: f64 = rolls(5)
            .map(|r| planner.best(counts(&r), Counts::EMPTY).0)
            .sum::<f64>()
            / 7776.0;
        assert!((value(row, 7) - fresh).abs() < 1e-12, "{rung}");
        planner_rows += 1;
    }
    assert_eq!(planner_rows, 6);
}
