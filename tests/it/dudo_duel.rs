//! `tahur dudo duel`: the two-player round solved by CFR+, as a user runs it.

use crate::common::{fails, json, stdout};

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
