//! `tahur dudo duel`: the two-player round solved by CFR+, as a user runs it.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::{fails, json, stdout};
use tahur::games::dudo::duel::last_bid::LastBid;
use tahur::games::dudo::duel::{sheet, DuelGame, DuelRules};

#[test]
fn one_die_duel_reports_value_and_exact_exploitability() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("duel.svg");
    let chart = chart.to_str().unwrap();
    let j = json(&[
        "dudo",
        "duel",
        "--rules",
        "plain",
        "--dice-each",
        "1",
        "--iterations",
        "400",
        "--chart",
        chart,
        "--format",
        "json",
    ]);
    let value = j["value"].as_f64().unwrap();
    // The textbook game's value is −7/258; 400 iterations come within 1e-3 of it.
    assert!((value + 7.0 / 258.0).abs() < 1e-3, "{value}");
    let wins = j["opener_wins"].as_f64().unwrap();
    assert!((wins - (1.0 + value) / 2.0).abs() < 1e-12);
    let e = j["exploitability"].as_f64().unwrap();
    assert!(e > 0.0 && e < 5e-3, "{e}");
    assert_eq!(j["iterations"].as_i64(), Some(400));
    let svg = std::fs::read_to_string(chart).unwrap();
    assert!(svg.contains("<svg") && svg.contains("convergence"));
}

#[test]
fn abstraction_is_judged_exactly_and_threads_do_not_matter() {
    let base = [
        "dudo",
        "duel",
        "--rules",
        "chimbo9",
        "--dice-each",
        "1",
        "--memory",
        "1",
        "--iterations",
        "60",
        "--responder-deals",
        "3000",
        "--format",
        "json",
    ];
    let one = stdout(&[&base[..], &["--threads", "1"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2"]].concat());
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    assert_eq!(strip(&one), strip(&two));
    let j = strip(&one);
    let full = j["exploitability"].as_f64().unwrap();
    let spot = j["spot_exploitability"].as_f64().unwrap();
    assert!(full >= spot && spot >= 0.0, "{full} {spot}");
    assert!(j["memory"].as_str().unwrap().contains("standing bid"));
}

#[test]
fn bad_duel_input_is_answered() {
    let m = fails(&["dudo", "duel", "--dice-each", "6"]);
    assert!(m.contains("1 to 5"), "{m}");
    let m = fails(&["dudo", "duel", "--rules", "texas"]);
    assert!(m.contains("plain, chimbo9 or caleuchano"), "{m}");
    let m = fails(&["dudo", "duel", "--dice-each", "2", "--memory", "full"]);
    assert!(m.contains("one die a side only"), "{m}");
    let m = fails(&["dudo", "duel", "--memory", "3"]);
    assert!(m.contains("the standing bid"), "{m}");
}

/// Checks a duel sheet's CSV against the game: every spot of the game and no other, every hand
/// at every spot, only legal actions, frequencies adding up to 1 (up to the rows left out).
fn sheet_matches_the_game(csv: &str, rules: DuelRules, dice_each: u32, memory: usize) {
    let game = DuelGame::new(rules, dice_each);
    let solver = LastBid::new(&game, memory);
    let mut legal: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for spot in solver.spots() {
        let moves = solver.moves(spot).unwrap();
        legal.insert(
            sheet::spot_key(&game, spot),
            moves.iter().map(|m| sheet::action_key(&game, *m)).collect(),
        );
    }
    for line in csv.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let key = cols[..5].join(",");
        let actions = legal
            .get(&key)
            .unwrap_or_else(|| panic!("no such spot: {line}"));
        assert!(actions.contains(cols[6]), "illegal action: {line}");
    }
    let rows = sheet::read_csv(csv).unwrap();
    let shipped: BTreeSet<&String> = rows.iter().map(|r| &r.0).collect();
    assert_eq!(shipped.len(), legal.len(), "spots missing from the sheet");
    assert_eq!(rows.len(), legal.len() * game.hand_count(), "hands missing");
    for (key, hand, total) in &rows {
        let actions = legal[key].len() as f64;
        assert!(
            (total - 1.0).abs() <= 0.0005 * actions + 1e-3,
            "{key} {hand}: {total}"
        );
    }
}

#[test]
fn sheet_dir_writes_the_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    stdout(&[
        "dudo",
        "duel",
        "--rules",
        "caleuchano",
        "--dice-each",
        "1",
        "--memory",
        "2",
        "--iterations",
        "50",
        "--sheet-dir",
        d,
    ]);
    let csv = std::fs::read_to_string(dir.path().join("duel-caleuchano-1.csv")).unwrap();
    sheet_matches_the_game(&csv, DuelRules::Caleuchano, 1, 2);
    let md = std::fs::read_to_string(dir.path().join("duel-caleuchano-1.md")).unwrap();
    assert!(
        md.contains("| incoming bid |") && md.contains("millas"),
        "{md}"
    );
}
/// The shipped five-dice Chimbo 9 sheet (`cargo run --release -- dudo duel --rules chimbo9
/// --dice-each 5 --iterations 600 --chart data/dudo/duel-chimbo9.svg --sheet-dir data/dudo`) still fits the game: a change of the
/// bids, their order or their legality makes it stale.
#[test]
fn shipped_duel_sheet_is_not_stale() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/dudo/duel-chimbo9.csv");
    let csv = std::fs::read_to_string(path).unwrap();
    sheet_matches_the_game(&csv, DuelRules::Chimbo9, 5, 1);
    let md = std::fs::read_to_string(path.replace(".csv", ".md")).unwrap();
    assert!(md.contains("--rules chimbo9 --dice-each 5"), "{md}");
}
