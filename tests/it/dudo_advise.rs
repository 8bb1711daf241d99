//! `tahur dudo advise` in every corner: every raise it lists is legal by an independent reading
//! of docs/rules.md §1 and every legal raise up to what the table can hold is listed, under both rule
//! sets, both roundings of "la mitad más uno", obligado or not, for any incoming bid and table;
//! impossible bids are called impossible (and doubted), and the list says what it leaves out.

use crate::common;

use common::*;
use proptest::prelude::*;
use tahur::games::dudo::advise::{self, Recommendation};
use tahur::games::dudo::{AceRound, Bid, Bidding, Face, RuleSet, Situation};

fn bid(quantity: u32, face: u8) -> Bid {
    Bid {
        quantity,
        face: Face::new(face).unwrap(),
    }
}

fn rules(set: RuleSet, ace_round: AceRound, aces_need_natural: bool) -> Bidding {
    Bidding {
        set,
        ace_round,
        aces_need_natural,
        aces_or_more: false,
    }
}

/// docs/rules.md §1 read as a player reads it, written without the library's rule code: may `next`
/// follow `prev`?
fn legal(set: RuleSet, ace_round: AceRound, obligado: bool, prev: Bid, next: Bid) -> bool {
    let (q, f) = (prev.quantity, prev.face.value());
    let (nq, nf) = (next.quantity, next.face.value());
    if obligado {
        // §1b Obligado: "nobody may bid another face" (the asker is neither the obliger nor on
        // 4 palos), so only more of the fixed face.
        return nf == f && nq > q;
    }
    match (f == 1, nf == 1) {
        // Shared core: "same quantity and a higher face, or a higher quantity with any face".
        (false, false) => nq > q || (nq == q && nf > f),
        // More aces ("o se aumenta el número de ASES").
        (true, true) => nq > q,
        // Back from A aces to a face: at least 2 × A + 1 (both rule sets), i.e. more than 2A.
        (true, false) => nq > 2 * q,
        (false, true) => match set {
            // §1b: "at least ceil(Q/2) aces", i.e. 2A ≥ Q ("la mitad o mayor que la mitad").
            RuleSet::Caleuchano => 2 * nq >= q,
            // §1a: "la mitad más uno", floor(Q/2) + 1, or ceil(Q/2) + 1 for odd Q under
            // --ace-round ceil; more aces allowed; and "a bid may not go down in face without
            // raising quantity" (aces are face 1), so never Q aces after Q of a face.
            RuleSet::Chimbo9 => {
                // For odd Q, ceil(Q/2) = (Q + 1) / 2.
                let half = if ace_round == AceRound::Ceil && q % 2 == 1 {
                    q.div_ceil(2)
                } else {
                    q / 2
                };
                let half_plus_one = half + 1;
                nq >= half_plus_one && nq != q
            }
        },
    }
}

/// The most dice that can count for a bid on `face`: the table where every unknown die shows
/// the face itself (each unknown die adds at most one, and a natural never stops the aces
/// counting), counted die by die as the rules say.
fn most_that_can_count(s: &Situation, face: Face) -> u32 {
    let mut table: Vec<Face> = s.hand.iter().chain(&s.shown).copied().collect();
    table.resize(s.dice as usize, face);
    s.rules.counting(face, s.obligado).count_dice(&table)
}

/// Every check of one advice: the raises against [`legal`], nothing missing up to the most any
/// face can count, nothing above it, the figures against the exact odds, and an impossible
/// incoming bid doubted.
fn check_advice(s: &Situation, incoming: Bid) -> Result<(), TestCaseError> {
    let a = advise::advise(s, incoming);
    let max = Face::ALL
        .iter()
        .map(|&f| most_that_can_count(s, f))
        .max()
        .unwrap();
    prop_assert_eq!(a.max_quantity, max);
    let (set, round, obligado) = (s.rules.set, s.rules.ace_round, s.obligado);
    for &(r, p) in &a.raises {
        prop_assert!(
            legal(set, round, obligado, incoming, r),
            "{:?} obligado={}: {} -> {} listed but illegal",
            s.rules,
            obligado,
            incoming,
            r
        );
        // Never the same quantity with a lower face, but for Caleuchano's half-or-more aces.
        let caleuchano_aces = set == RuleSet::Caleuchano && r.face.is_ace() && !obligado;
        prop_assert!(
            !(r.quantity == incoming.quantity && r.face < incoming.face) || caleuchano_aces,
            "{} -> {}: same quantity, lower face",
            incoming,
            r
        );
        prop_assert!(r.quantity <= max);
        prop_assert_eq!(p, s.odds(r).at_least);
    }
    let mut want = 0;
    for face in Face::ALL {
        for quantity in 1..=max {
            let next = Bid { quantity, face };
            if legal(set, round, obligado, incoming, next) {
                want += 1;
                prop_assert!(
                    a.raises.iter().any(|&(r, _)| r == next),
                    "{:?} obligado={}: {} -> {} legal but missing",
                    s.rules,
                    obligado,
                    incoming,
                    next
                );
            }
        }
    }
    prop_assert_eq!(a.raises.len(), want, "each raise once");
    prop_assert!(a.raises.windows(2).all(|w| w[0].1 >= w[1].1));
    let possible = incoming.quantity <= most_that_can_count(s, incoming.face);
    prop_assert_eq!(a.incoming_possible, possible);
    prop_assert_eq!(a.incoming_true, s.odds(incoming).at_least);
    if !possible {
        prop_assert_eq!(a.incoming_true, 0.0);
        prop_assert_eq!(a.recommendation, Recommendation::Doubt);
    }
    Ok(())
}

/// Every rule set × rounding × obligado (where the rules have it) × incoming bid up to 45 of
/// each face × table of 1 to 40 dice, with no dice known: checked one by one.
#[test]
fn every_incoming_bid_on_every_table_size() {
    let combos = [
        (RuleSet::Chimbo9, AceRound::Floor, false),
        (RuleSet::Chimbo9, AceRound::Ceil, false),
        (RuleSet::Caleuchano, AceRound::Floor, false),
        (RuleSet::Caleuchano, AceRound::Floor, true),
    ];
    let mut checked = 0;
    for (set, round, obligado) in combos {
        for dice in 1..=40 {
            let s =
                Situation::new(dice, vec![], vec![], rules(set, round, false), obligado).unwrap();
            for q in 1..=45 {
                for f in 1..=6 {
                    check_advice(&s, bid(q, f)).unwrap();
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4 * 40 * 45 * 6);
}

/// `Bidding::raises` itself, which the advice lists from: every combination of rule set,
/// rounding and obligado (also those the command line refuses), incoming bid and bound.
#[test]
fn rules_raises_are_exactly_the_legal_ones() {
    for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
        for round in [AceRound::Floor, AceRound::Ceil] {
            for obligado in [false, true] {
                let r = rules(set, round, false);
                for q in 1..=45 {
                    for f in 1..=6 {
                        let prev = bid(q, f);
                        for max in [1, 7, 20, 41] {
                            let got = r.raises(prev, obligado, max);
                            let mut want = Vec::new();
                            for nq in 1..=max {
                                for nf in 1..=6 {
                                    if legal(set, round, obligado, prev, bid(nq, nf)) {
                                        want.push(bid(nq, nf));
                                    }
                                }
                            }
                            assert_eq!(got, want, "{set:?} {round:?} obligado={obligado}: {prev}");
                        }
                    }
                }
            }
        }
    }
}

fn arb_situation() -> impl Strategy<Value = Situation> {
    (
        prop_oneof![
            Just((RuleSet::Chimbo9, AceRound::Floor, false)),
            Just((RuleSet::Chimbo9, AceRound::Ceil, false)),
            Just((RuleSet::Caleuchano, AceRound::Floor, false)),
            Just((RuleSet::Caleuchano, AceRound::Floor, true)),
        ],
        any::<bool>(),
        1u32..=60,
        prop::collection::vec(1u8..=6, 0..=5),
        prop::collection::vec(1u8..=6, 0..=6),
    )
        .prop_map(|((set, round, obligado), natural, dice, hand, shown)| {
            let faces = |v: Vec<u8>| v.into_iter().map(|x| Face::new(x).unwrap());
            let mut hand: Vec<Face> = faces(hand).collect();
            hand.truncate(dice as usize);
            let mut shown: Vec<Face> = faces(shown).collect();
            shown.truncate(dice as usize - hand.len());
            Situation::new(dice, hand, shown, rules(set, round, natural), obligado).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
    /// Any rule set, rounding, obligado, --aces-need-natural, table, hand, shown dice and
    /// incoming bid (also far above the table): the advice lists exactly the legal raises up to
    /// what the table can hold and doubts whatever cannot be true.
    #[test]
    fn any_situation_any_incoming_bid(s in arb_situation(), q in 1u32..=70, f in 1u8..=6) {
        check_advice(&s, bid(q, f))?;
    }
}

fn chimbo(round: AceRound) -> Situation {
    Situation::new(
        20,
        vec![],
        vec![],
        rules(RuleSet::Chimbo9, round, false),
        false,
    )
    .unwrap()
}

/// Every bid from quantity `from` to `to`, each face in order (the order raises are generated).
fn all_from(from: u32, to: u32) -> Vec<Bid> {
    (from..=to)
        .flat_map(|q| (1..=6).map(move |f| bid(q, f)))
        .collect()
}

/// The user's case, 3 quinas with 20 dice, worked by hand from docs/rules.md.
#[test]
fn three_quinas_with_twenty_dice_under_each_rule() {
    let incoming = bid(3, 5);
    // Chimbo 9, floor: "la mitad más uno" of 3 is 3/2 + 1 = 2 aces; more is allowed, but 3 aces
    // would lower the face at the same quantity. At quantity 3 only cenas are higher than
    // quinas; from 4 up every face. So: 2 ases, 3 cenas, then 4..20 of every face (aces too):
    // 2 + 17 × 6 = 104 raises, up to 20 (no face can count more than the 20 dice).
    let floor = chimbo(AceRound::Floor);
    let mut want = vec![bid(2, 1), bid(3, 6)];
    want.extend(all_from(4, 20));
    assert_eq!(floor.rules.raises(incoming, false, 20), want);
    assert_eq!(want.len(), 104);
    // Under ceil the half-plus-one is ceil(3/2) + 1 = 3, which is 3 quinas' own quantity: the
    // fewest aces is 4. So: 3 cenas, then 4..20 of every face: 1 + 17 × 6 = 103 raises.
    let ceil = chimbo(AceRound::Ceil);
    let mut want = vec![bid(3, 6)];
    want.extend(all_from(4, 20));
    assert_eq!(ceil.rules.raises(incoming, false, 20), want);
    assert_eq!(want.len(), 103);
    // Caleuchano: at least ceil(3/2) = 2 aces, and 3 aces is "mayor que la mitad" too; the
    // millas bonus lets a bid on millas count 21 with 20 dice, so the list runs to 21:
    // 2 ases, 3 ases, 3 senas, then 4..21 of every face: 3 + 18 × 6 = 111 raises.
    let cal = Situation::new(20, vec![], vec![], Bidding::new(RuleSet::Caleuchano), false).unwrap();
    let mut want = vec![bid(2, 1), bid(3, 1), bid(3, 6)];
    want.extend(all_from(4, 21));
    let a = advise::advise(&cal, incoming);
    assert_eq!(a.max_quantity, 21);
    assert_eq!(a.raises.len(), 111);
    assert_eq!(cal.rules.raises(incoming, false, 21), want);
    // Caleuchano obligado: only more quinas, 4..20 (no millas bonus): 17 raises.
    let obl = Situation::new(20, vec![], vec![], Bidding::new(RuleSet::Caleuchano), true).unwrap();
    let a = advise::advise(&obl, incoming);
    let got: Vec<Bid> = a.raises.iter().map(|&(b, _)| b).collect();
    assert_eq!(got, (4..=20).map(|q| bid(q, 5)).collect::<Vec<_>>());

    // The advice ranks them. 20 unknown dice; a face with wild aces counts with 1/3, aces alone
    // with 1/6. P(3 quinas) = P(Bin(20, 1/3) ≥ 3) = 0.982407…, and 3 cenas is the same
    // probability: the best raise. Then P(Bin(20, 1/3) ≥ 4) = 0.939553… for each of 4 tontos
    // … 4 cenas. 2 ases: P(Bin(20, 1/6) ≥ 2) = 0.869579…; 4 ases: P(Bin(20, 1/6) ≥ 4) =
    // 0.433454…
    for (s, n) in [(&floor, 104), (&ceil, 103)] {
        let a = advise::advise(s, incoming);
        assert_eq!(a.raises.len(), n);
        assert!((a.incoming_true - 0.982_407_373_400_43).abs() < 1e-12);
        assert_eq!(a.raises[0].0, bid(3, 6));
        assert!((a.raises[0].1 - 0.982_407_373_400_43).abs() < 1e-12);
        let next: Vec<Bid> = a.raises[1..6].iter().map(|&(b, _)| b).collect();
        assert_eq!(
            next,
            [bid(4, 2), bid(4, 3), bid(4, 4), bid(4, 5), bid(4, 6)]
        );
        assert!((a.raises[1].1 - 0.939_553_539_375_835).abs() < 1e-12);
        assert_eq!(a.recommendation, Recommendation::Raise(bid(3, 6)));
        let p = |b: Bid| a.raises.iter().find(|&&(r, _)| r == b).map(|&(_, p)| p);
        assert_eq!(p(bid(3, 1)), None, "3 ases after 3 quinas is illegal");
        assert!((p(bid(4, 1)).unwrap() - 0.433_454_362_224_331).abs() < 1e-12);
        let two_aces = p(bid(2, 1));
        if s.rules.ace_round == AceRound::Floor {
            assert!((two_aces.unwrap() - 0.869_579_733_477_056).abs() < 1e-12);
        } else {
            assert_eq!(
                two_aces, None,
                "ceil: 2 ases are below the half-plus-one, 3"
            );
        }
    }
}

/// Impossible incoming bids: by the dice in play, and by the asker's own dice.
#[test]
fn impossible_incoming_bids_are_doubted() {
    // 7 trenes with 4 dice in play. The only raise within 4 is 4 aces (7/2 + 1 = 4, not 7):
    // P(Bin(4, 1/6) = 4) = 1/1296.
    let s = Situation::new(4, vec![], vec![], Bidding::new(RuleSet::Chimbo9), false).unwrap();
    let a = advise::advise(&s, bid(7, 3));
    assert!(!a.incoming_possible);
    assert_eq!(a.incoming_true, 0.0);
    assert_eq!(a.recommendation, Recommendation::Doubt);
    assert_eq!(a.raises.len(), 1);
    assert_eq!(a.raises[0].0, bid(4, 1));
    assert!((a.raises[0].1 - 1.0 / 1296.0).abs() < 1e-15);
    // Holding four aces of the four dice, 4 aces is certain, and so is «dudo»: doubting wins
    // the round at once, raising only passes the turn. The advice is to doubt.
    let aces = vec![Face::ACE; 4];
    let s = Situation::new(4, aces, vec![], Bidding::new(RuleSet::Chimbo9), false).unwrap();
    let a = advise::advise(&s, bid(7, 3));
    assert_eq!(a.raises, vec![(bid(4, 1), 1.0)]);
    assert_eq!(a.recommendation, Recommendation::Doubt);
    // 20 dice, holding five tontos: at most 15 trenes (the 15 unknown dice), so 16 trenes is
    // impossible given the hand although 16 ≤ 20; 15 trenes is possible, P = (1/3)^15.
    let two = Face::TWO;
    let s = Situation::new(
        20,
        vec![two; 5],
        vec![],
        Bidding::new(RuleSet::Chimbo9),
        false,
    )
    .unwrap();
    let a = advise::advise(&s, bid(16, 3));
    assert!(!a.incoming_possible);
    assert_eq!(a.recommendation, Recommendation::Doubt);
    let a = advise::advise(&s, bid(15, 3));
    assert!(a.incoming_possible);
    assert!((a.incoming_true / 3f64.powi(-15) - 1.0).abs() < 1e-9);
    // 9000 aces among 10 000 unknown dice: so unlikely that the probability underflows to 0,
    // but possible: not called impossible.
    let s = Situation::new(
        10_000,
        vec![],
        vec![],
        Bidding::new(RuleSet::Chimbo9),
        false,
    )
    .unwrap();
    let a = advise::advise(&s, bid(9000, 1));
    assert_eq!(a.incoming_true, 0.0);
    assert!(a.incoming_possible);
}

#[test]
fn cli_says_an_impossible_bid_is_impossible_and_still_answers() {
    let out = tahur()
        .args(["dudo", "advise", "7x3", "--dice", "4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "incoming bid possible  no",
        "P(incoming is true)    0 %   (impossible)",
        "P(«dudo» wins)         100 %   (certain)",
        "recommendation         doubt («dudo»)",
        "7 trenes is impossible: only 4 dice are in play. The incoming bid cannot be true: «dudo» wins for certain, so doubt.",
        "Raises above 4 are left out",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    let v = json(&["dudo", "advise", "7x3", "--dice", "4", "--format", "json"]);
    assert_eq!(v["incoming_possible"], false);
    assert_eq!(v["incoming_true"], 0.0);
    assert_eq!(v["doubt_wins"], 1.0);
    assert_eq!(v["recommendation"], "doubt");
    assert_eq!(v["legal_raises"], 1);
    assert_eq!(v["tables"]["raises"][0]["bid"], "4 ases");

    // Impossible given the hand: the sentence says why.
    let text = stdout(&[
        "dudo",
        "advise",
        "16x3",
        "--dice",
        "20",
        "--hand",
        "2,2,2,2,2",
    ]);
    assert!(
        text.contains("16 trenes is impossible given your dice: 5 of the 5 dice you see cannot count for trenes, so at most 15 can be counted with 20 dice in play."),
        "{text}"
    );
    // Caleuchano's millas bonus: 21 millas with 20 dice is possible, 22 is not.
    let v = json(&[
        "dudo",
        "advise",
        "21x2",
        "--dice",
        "20",
        "--rules",
        "caleuchano",
        "--format",
        "json",
    ]);
    assert_eq!(v["incoming_possible"], true);
    let text = stdout(&[
        "dudo",
        "advise",
        "22x2",
        "--dice",
        "20",
        "--rules",
        "caleuchano",
    ]);
    assert!(
        text.contains("22 millas is impossible: with 20 dice in play at most 21 millas can be counted, the millas bonus included."),
        "{text}"
    );

    // dudo prob says it too; a probability that only underflowed is not called impossible.
    let text = stdout(&["dudo", "prob", "7x3", "--dice", "4"]);
    assert!(
        text.contains("P(at least 7)      0 %   (impossible)"),
        "{text}"
    );
    assert!(
        text.contains(
            "7 trenes is impossible: only 4 dice are in play. Doubting it wins for certain."
        ),
        "{text}"
    );
    let text = stdout(&["dudo", "prob", "9000", "ases", "--dice", "10000"]);
    assert!(!text.contains("impossible"), "{text}");
    assert!(text.contains("possible, but below 1 in 10^300"), "{text}");
}

#[test]
fn cli_says_what_the_raise_list_leaves_out() {
    let v = json(&[
        "dudo",
        "advise",
        "3x5",
        "--dice",
        "20",
        "--ace-round",
        "ceil",
        "--top",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(v["legal_raises"], 103);
    assert_eq!(v["raises_shown"], 5);
    let bids: Vec<&str> = v["tables"]["raises"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bid"].as_str().unwrap())
        .collect();
    assert_eq!(
        bids,
        ["3 cenas", "4 tontos", "4 trenes", "4 cuadras", "4 quinas"]
    );
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("Raises above 20 are left out: every higher quantity is a legal raise too, but no face can count more than 20 with 20 dice in play, so none of them can be true."),
        "{notes}"
    );
    let text = stdout(&[
        "dudo",
        "advise",
        "3x5",
        "--dice",
        "20",
        "--ace-round",
        "ceil",
        "--top",
        "5",
    ]);
    assert!(
        text.contains("Legal raises, most likely first: 5 of 103 (--top 5)"),
        "{text}"
    );
    let row = |text: &str, b: &str| {
        text.lines()
            .any(|l| l.trim_start().starts_with(&format!("{b} ")))
    };
    assert!(!row(&text, "3 ases"), "{text}");
    let text = stdout(&["dudo", "advise", "3x5", "--dice", "20", "--top", "200"]);
    assert!(
        text.contains("Legal raises, most likely first: all 104"),
        "{text}"
    );
    assert!(row(&text, "2 ases") && row(&text, "4 ases"), "{text}");
    assert!(!row(&text, "3 ases"), "{text}");
    // With a hand that rules faces out, the note says the limit comes from the dice you see.
    let text = stdout(&[
        "dudo",
        "advise",
        "3x5",
        "--dice",
        "10",
        "--hand",
        "2,3,4,5,6",
    ]);
    assert!(
        text.contains("Raises above 6 are left out: every higher quantity is a legal raise too, but given the dice you see, no face can count more than 6 (with 10 dice in play)"),
        "{text}"
    );
}

#[test]
fn paso_calls_a_pass_that_cannot_stand_impossible() {
    // Shown 1,1,2,3: the unseen die makes 1,1,1,2,3 / 1,1,2,2,3 / 1,1,2,3,3 or a pair with
    // three singles: never a poker, a full or a pichanga (six of six rolls fail).
    let text = stdout(&["dudo", "paso", "--shown", "1,1,2,3"]);
    assert!(text.contains("(impossible; 0 of 6 rolls)"), "{text}");
    assert!(
        text.contains("No roll of the unseen die makes a poker, a full or a pichanga with these shown dice: the pass cannot stand, so doubting it wins for certain."),
        "{text}"
    );
    // Four shown cuadras: a poker whatever the fifth die.
    let text = stdout(&["dudo", "paso", "--shown", "4,4,4,4"]);
    assert!(text.contains("(certain; 6 of 6 rolls)"), "{text}");
}
