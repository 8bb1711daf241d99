//! Checks of the duel solvers against computations written apart from them.

use super::full::{FullRecall, Judge, NodePolicy};
use super::*;

/// The value of one-die-a-side liar's dice with 1s wild in the textbook order (Neller and
/// Lanctot's Dudo), −7/258 for the opener.
const ONE_DIE_VALUE: f64 = -7.0 / 258.0;

/// Plain bids for `k` dice a side in the textbook order, as (quantity, face), written here
/// again rather than read from the game tables.
fn plain_bids(k: u32) -> Vec<(u32, u8)> {
    let mut out = Vec::new();
    for q in 1..=2 * k {
        for f in [2, 3, 4, 5, 6, 1] {
            out.push((q, f));
        }
    }
    out
}

/// Whether a plain bid is true for two cups of dice (values 1..=6), counted die by die.
fn plain_true(bid: (u32, u8), a: &[u8], b: &[u8]) -> bool {
    let n = a
        .iter()
        .chain(b)
        .filter(|&&d| d == bid.1 || (d == 1 && bid.1 != 1))
        .count() as u32;
    n >= bid.0
}

/// An independent judge of a one-die strategy: every ordered deal of two dice, every history as
/// a list of bids; a best response maximises per own die and history over the other's dice.
struct Independent<'a> {
    game: &'a DuelGame,
    policy: &'a dyn NodePolicy,
    bids: Vec<(u32, u8)>,
}

impl Independent<'_> {
    /// `player`'s payoff for die `mine` at `history`, against the other's dice weighted by
    /// `other[o]` (their reach, unnormalised); `best` takes the best action at own nodes,
    /// otherwise the policy's.
    fn walk(
        &self,
        history: &[usize],
        mover: usize,
        player: usize,
        mine: u8,
        other: [f64; 6],
        best: bool,
    ) -> f64 {
        let top = history.last().copied();
        let n = self.bids.len();
        let mut actions: Vec<Option<usize>> = Vec::new();
        if top.is_some() {
            actions.push(None);
        }
        actions.extend((top.map_or(0, |t| t + 1)..n).map(Some));
        let mask = history.iter().fold(0u32, |m, &b| m | 1 << b);
        let h = self.game.hand_count();
        let mut sigma = vec![0.0; actions.len() * h];
        self.policy.fill(self.game, mask, top, mover, &mut sigma);
        let die_hand = |d: u8| {
            self.game
                .hand_index(&[crate::games::dudo::Face::new(d).unwrap()])
                .unwrap()
        };
        let value_of = |a: usize, reach: [f64; 6]| -> f64 {
            match actions[a] {
                None => {
                    let bid = self.bids[top.unwrap()];
                    (1..=6u8)
                        .map(|o| {
                            let t = plain_true(bid, &[mine], &[o]);
                            // The doubter (the mover) loses when the bid is true.
                            let me_wins = (mover == player) != t;
                            reach[o as usize - 1] * if me_wins { 1.0 } else { -1.0 }
                        })
                        .sum()
                }
                Some(b) => {
                    let mut next = history.to_vec();
                    next.push(b);
                    self.walk(&next, 1 - mover, player, mine, reach, best)
                }
            }
        };
        if mover == player {
            let mine_h = die_hand(mine);
            let vals: Vec<f64> = (0..actions.len()).map(|a| value_of(a, other)).collect();
            if best {
                vals.into_iter().fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.iter()
                    .enumerate()
                    .map(|(a, v)| sigma[a * h + mine_h] * v)
                    .sum()
            }
        } else {
            (0..actions.len())
                .map(|a| {
                    let mut reach = other;
                    for o in 1..=6u8 {
                        reach[o as usize - 1] *= sigma[a * h + die_hand(o)];
                    }
                    if reach.iter().all(|&r| r == 0.0) {
                        0.0
                    } else {
                        value_of(a, reach)
                    }
                })
                .sum()
        }
    }

    /// `player`'s expected payoff, best-responding or playing the policy.
    fn payoff(&self, player: usize, best: bool) -> f64 {
        (1..=6u8)
            .map(|d| self.walk(&[], 0, player, d, [1.0 / 36.0; 6], best))
            .sum()
    }
}

#[test]
fn one_die_full_recall_solves_the_textbook_game() {
    let game = DuelGame::new(DuelRules::Plain, 1);
    assert_eq!(
        game.bids
            .iter()
            .map(|b| (b.quantity, b.face.value()))
            .collect::<Vec<_>>(),
        plain_bids(1)
    );
    let mut solver = FullRecall::new(&game);
    for _ in 0..600 {
        solver.iterate();
    }
    let (value, exploitability) = solver.judge();
    let avg = solver.average();
    let check = Independent {
        game: &game,
        policy: &avg,
        bids: plain_bids(1),
    };
    let independent_value = check.payoff(0, false);
    let gain0 = check.payoff(0, true) - independent_value;
    let gain1 = check.payoff(1, true) + independent_value;
    assert!(
        (value - independent_value).abs() < 1e-12,
        "{value} vs {independent_value}"
    );
    assert!(
        (exploitability - (gain0 + gain1)).abs() < 1e-9,
        "{exploitability} vs {}",
        gain0 + gain1
    );
    assert!(exploitability < 1e-3, "exploitability {exploitability}");
    assert!((value - ONE_DIE_VALUE).abs() < 1e-4, "value {value}");
}

#[test]
fn standing_bid_abstraction_is_judged_in_the_full_game() {
    // The abstraction's own evaluation of its profile and the full-recall walk agree, and a
    // best response with full recall gains more than the spot-by-spot one.
    let game = DuelGame::new(DuelRules::Plain, 1);
    use last_bid::Recall;
    for recall in [Recall::StandingBid, Recall::TwoBids, Recall::BidAndFace] {
        let mut solver = last_bid::LastBid::new(&game, recall);
        for _ in 0..50 {
            solver.iterate();
        }
        let value = solver.value();
        let spot = solver.spot_exploitability();
        let mut judge = Judge::new(&game);
        let policy = solver.policy();
        assert!((judge.value(&policy) - value).abs() < 1e-12);
        let full = judge.exploitability(&policy);
        assert!(full >= spot - 1e-12 && spot >= -1e-12, "{full} {spot}");
        let check = Independent {
            game: &game,
            policy: &policy,
            bids: plain_bids(1),
        };
        let gains = check.payoff(0, true) + check.payoff(1, true);
        assert!((gains - full).abs() < 1e-9, "{gains} vs {full}");
    }
}

#[test]
fn rule_set_duels_converge_with_full_recall() {
    for rules in [DuelRules::Chimbo9, DuelRules::Caleuchano] {
        let game = DuelGame::new(rules, 1);
        let mut solver = FullRecall::new(&game);
        for _ in 0..600 {
            solver.iterate();
        }
        let (value, exploitability) = solver.judge();
        assert!(exploitability < 1e-3, "{rules}: {exploitability}");
        // The best responses bracket the game value: BR(opener) ≥ v ≥ −BR(other).
        let mut judge = Judge::new(&game);
        let avg = solver.average();
        let (br0, br1) = (judge.best_response(0, &avg), judge.best_response(1, &avg));
        assert!(br0 >= value - 1e-12 && -br1 <= value + 1e-12, "{rules}");
    }
}

#[test]
fn paso_spots_and_pass_hands_follow_the_engine() {
    let game = DuelGame::new(DuelRules::Caleuchano, 5);
    // The chance that five dice stand a doubted pass, from `dudo paso`'s enumeration.
    let odds = crate::games::dudo::paso::odds(&[]).unwrap();
    let stands: f64 = game
        .weight
        .iter()
        .zip(&game.pass_stands)
        .filter(|(_, &s)| s)
        .map(|(w, _)| w)
        .sum();
    assert!((stands - odds.holds() as f64 / odds.total as f64).abs() < 1e-12);
    let solver = last_bid::LastBid::new(&game, last_bid::Recall::StandingBid);
    let spots: Vec<_> = solver.spots().copied().collect();
    // A pass is offered once a bid stands and while the mover's pass is unspent; after a pass
    // the next player may doubt it, raise the bid before it, or pass too.
    for s in &spots {
        let moves = solver.moves(s).unwrap();
        let can_pass = moves.contains(&last_bid::Move::Pass);
        assert_eq!(
            can_pass,
            s.bid.is_some() && s.used & (1 << s.mover) == 0,
            "{s:?}"
        );
        assert_eq!(moves.contains(&last_bid::Move::Doubt), s.bid.is_some());
    }
    assert!(spots.iter().any(|s| s.after_pass && s.used == 3));
    assert!(!DuelGame::new(DuelRules::Chimbo9, 5).paso);
}

#[test]
fn full_recall_resumes_bit_for_bit_whatever_the_threads() {
    // 200 iterations on one thread equal 100 on two threads, saved, read back and 100 more on
    // two: the state keeps everything and the subtrees' parallel walks change nothing.
    let game = DuelGame::new(DuelRules::Plain, 1);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    // Iterations on a solver, then its state and its judgement.
    let run = |s: &mut FullRecall, iterations| {
        for _ in 0..iterations {
            s.iterate();
        }
        let mut bytes = Vec::new();
        s.save(&mut bytes).unwrap();
        (bytes, s.judge())
    };
    let straight = pool(1).install(|| run(&mut FullRecall::new(&game), 200));
    let resumed = pool(2).install(|| {
        let (half, _) = run(&mut FullRecall::new(&game), 100);
        let mut s = FullRecall::load(&game, &mut half.as_slice()).unwrap();
        assert_eq!(s.iterations(), 100);
        run(&mut s, 100)
    });
    assert_eq!(straight.0, resumed.0);
    assert_eq!(straight.1 .0.to_bits(), resumed.1 .0.to_bits());
    assert_eq!(straight.1 .1.to_bits(), resumed.1 .1.to_bits());
    // The tables are 2 × 4 bytes an entry after four lines of text.
    let text_len: usize = String::from_utf8_lossy(&straight.0[..200])
        .split_inclusive('\n')
        .take(4)
        .map(str::len)
        .sum();
    assert_eq!(
        (straight.0.len() - text_len) as u64,
        FullRecall::memory_needed(&game).unwrap()
    );

    // What is not a state of this game is refused, in words.
    let other = DuelGame::new(DuelRules::Chimbo9, 1);
    let err = FullRecall::load(&other, &mut straight.0.as_slice())
        .err()
        .unwrap();
    assert!(
        err.contains("another game") && err.contains("chimbo9"),
        "{err}"
    );
    let cut = &straight.0[..straight.0.len() - 1];
    let err = FullRecall::load(&game, &mut &cut[..]).err().unwrap();
    assert!(err.contains("cut short"), "{err}");
    let mut long = straight.0.clone();
    long.push(0);
    let err = FullRecall::load(&game, &mut long.as_slice()).err().unwrap();
    assert!(err.contains("runs on"), "{err}");
    let err = FullRecall::load(&game, &mut &b"hello\n"[..]).err().unwrap();
    assert!(err.contains("not a full-recall state"), "{err}");
}

#[test]
fn a_full_recall_table_plays_and_judges_as_written() {
    use recall::RecallTable;
    let game = DuelGame::new(DuelRules::Plain, 1);
    let mut solver = FullRecall::new(&game);
    for _ in 0..600 {
        solver.iterate();
    }
    let csv = RecallTable::solved(&game, &solver).csv(&game);
    let table = RecallTable::parse(&csv, &game, "t.csv").unwrap();
    // Read back, it writes the same text.
    assert_eq!(table.csv(&game), csv);
    // Judged by the walk and by the independent one, to the same figures; close to the
    // solver's (the cuts cost little) and bracketing the game's value.
    let judged = table.judge(&game);
    let check = Independent {
        game: &game,
        policy: &table,
        bids: plain_bids(1),
    };
    let v = check.payoff(0, false);
    assert!((judged.value - v).abs() < 1e-12, "{} vs {v}", judged.value);
    assert!((judged.high - check.payoff(0, true)).abs() < 1e-12);
    assert!((judged.low + check.payoff(1, true)).abs() < 1e-12);
    let (solver_value, solver_expl) = solver.judge();
    assert!((judged.value - solver_value).abs() < 2e-4, "{judged:?}");
    assert!(judged.exploitability() < solver_expl + 5e-4, "{judged:?}");
    assert!(judged.low <= ONE_DIE_VALUE && ONE_DIE_VALUE <= judged.high);
    // A history the table leaves out, or a hand it does not list there, says «dudo».
    let h = game.hand_count();
    let mut out = vec![0.0; 13 * h];
    let top = game.bid_count() - 1;
    table.fill(&game, 1 << top, Some(top), 1, &mut out);
    assert!(out[..h].iter().all(|&p| p == 1.0) && out[h..].iter().all(|&p| p == 0.0));
    // The page names every hand at the opening, with the judged figures.
    let md = table.markdown(&game, &judged, 600, "t.csv");
    assert!(
        md.contains(&format!("expected payoff {:+.6}", judged.value)),
        "{md}"
    );
    assert_eq!(recall::payoff_text(-1e-9), "0.000000");
    assert_eq!(recall::payoff_text(0.0123), "+0.012300");
    for hand in 1..=6 {
        assert!(md.contains(&format!("\n| {hand} | ")), "{md}");
    }
}

/// The compact form holds what the CSV says: read back (from the solved table or from its
/// CSV read back), it is the CSV's table and writes the same CSV and the same bytes; damaged,
/// cut or another game's, it is refused in words.
#[test]
fn a_compact_table_is_the_csv_table_and_damage_is_refused() {
    use recall::RecallTable;
    for rules in [DuelRules::Plain, DuelRules::Caleuchano] {
        let game = DuelGame::new(rules, 1);
        let mut solver = FullRecall::new(&game);
        for _ in 0..300 {
            solver.iterate();
        }
        let solved = RecallTable::solved(&game, &solver);
        let csv = solved.csv(&game);
        let from_csv = RecallTable::read(csv.as_bytes(), &game, "t.csv").unwrap();
        let bytes = solved.compact(&game);
        assert_eq!(bytes, from_csv.compact(&game));
        let back = RecallTable::read(&bytes, &game, "t.table.gz").unwrap();
        assert!(back == from_csv, "{rules}");
        assert_eq!(back.csv(&game), csv);
        assert!(
            bytes.len() * 8 < csv.len(),
            "{} vs {}",
            bytes.len(),
            csv.len()
        );
        // Another game's table, a cut one, a damaged one, one that is not a table.
        let other = DuelGame::new(DuelRules::Chimbo9, 1);
        let err = RecallTable::read(&bytes, &other, "t.table.gz")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("rules=chimbo9 dice_each=1") && err.contains("'t.table.gz'"),
            "{err}"
        );
        let err = RecallTable::read(&bytes[..bytes.len() - 9], &game, "t.table.gz")
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not unpack"), "{err}");
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut raw)
            .unwrap();
        let gz = |raw: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut e, raw).unwrap();
            e.finish().unwrap()
        };
        // Where the integers start, after the two text lines.
        let body = raw.iter().position(|&b| b == b'\n').unwrap() + 1;
        let body = body + raw[body..].iter().position(|&b| b == b'\n').unwrap() + 1;
        for cut in [raw.len() - 1, raw.len() / 2, body + 3] {
            let err = RecallTable::read(&gz(&raw[..cut]), &game, "t.table.gz")
                .unwrap_err()
                .to_string();
            assert!(err.contains("cut short or damaged"), "{cut}: {err}");
        }
        let mut long = raw.clone();
        long.push(0);
        assert!(RecallTable::read(&gz(&long), &game, "t").is_err());
        // Every 97th byte of the body set to 0xff: refused or read, never a panic.
        for at in (body..raw.len()).step_by(97) {
            let mut bad = raw.clone();
            bad[at] = 0xff;
            let _ = RecallTable::read(&gz(&bad), &game, "t");
        }
        // A gzipped CSV reads as the CSV.
        assert!(RecallTable::read(&gz(csv.as_bytes()), &game, "t.csv.gz").unwrap() == from_csv);
        let err = RecallTable::read(&gz(b"hello\nworld\n"), &game, "t")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a compact full-recall table"), "{err}");
    }
}

#[test]
fn a_full_recall_table_that_is_not_one_is_refused_in_words() {
    use recall::{RecallTable, RECALL_HEADER};
    let game = DuelGame::new(DuelRules::Plain, 1);
    let refused = |body: &str| {
        RecallTable::parse(&format!("{RECALL_HEADER}\n{body}\n"), &game, "t.csv")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(RecallTable::parse("side,bid\n", &game, "t.csv").is_err());
    assert!(refused("opener,,1,1x4,0.5").is_empty());
    let err = refused("other,1x4,1,dudo,0.5\nother,1x4,2,dudo,1\nother,1x4,1,dudo,0.5");
    assert!(err.contains("after '1x4' hand 1 lists dudo twice"), "{err}");
    for (body, says) in [
        ("opener,1x4 1x3,1,dudo,1", "'1x4 1x3' is not a bid history"),
        ("opener,1x4,1,dudo,1", "side 'opener'"),
        ("other,1x4,7,dudo,1", "hand '7'"),
        ("other,1x4,11,dudo,1", "hand '11'"),
        ("other,1x4,1,1x3,1", "action '1x3'"),
        ("other,1x4,1,dudo,1.5", "probability '1.5'"),
        ("other,1x4,1,dudo", "4 columns"),
    ] {
        let err = refused(body);
        assert!(
            err.contains(says) && err.contains("line 2"),
            "{body}: {err}"
        );
    }
}
