//! The cheat sheets measured from play (`GAME sheet`): the shipped files are current (their sums
//! re-rendered, their first chunk measured again), the sums read as the statistics say, the same
//! seed gives the same sheet at any thread count, and each sheet's bot beats the strategy it was
//! measured with, head to head.

use crate::common;
use tahur::play::sheet::{self, SheetGame, SheetTable, StoredSheet};
use tahur::runner::RunControl;

fn data(key: &str, file: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(key)
        .join(file)
}

/// Every shipped sheet of `G`: its Markdown and CSV are what its sums render to, its first chunk
/// is what the engine and bots measure today, and its settings are the command's defaults.
fn shipped_sheets_are_current<G: SheetGame>() {
    let key = G::INFO.key;
    for (i, name) in G::SHEETS.iter().enumerate() {
        let fix = format!("run `cargo run --release -- {key} sheet` (rewrites data/{key})");
        let text = std::fs::read_to_string(data(key, &format!("sheet-{name}-tally.json")))
            .unwrap_or_else(|e| panic!("data/{key}/sheet-{name}-tally.json: {e}; {fix}"));
        let stored: StoredSheet = serde_json::from_str(&text).unwrap();
        assert_eq!(stored.spec.sheet, i, "{name}");
        assert_eq!(
            (stored.spec.games, stored.spec.rollouts, stored.spec.seed),
            (G::SHEET_GAMES, G::SHEET_ROLLOUTS, 1),
            "data/{key}/sheet-{name}: not measured with the command's defaults; {fix}"
        );
        assert_eq!(stored.tally.games + stored.tally.faults, stored.spec.games);
        assert_eq!(stored.tally.faults, 0, "{name}: broken games");
        let prefix =
            sheet::measure_prefix::<G>(&stored.spec, stored.prefix_chunks, &RunControl::default())
                .unwrap();
        assert!(
            prefix == stored.prefix,
            "data/{key}/sheet-{name} is stale (the engine or the bots play differently now): {fix}"
        );
        for (file, content) in
            sheet::files::<G>(&stored.tally, &stored.prefix, &stored.spec).unwrap()
        {
            let on_disk = std::fs::read_to_string(data(key, &file)).unwrap_or_default();
            assert!(on_disk == content, "data/{key}/{file} is stale: {fix}");
            if file.ends_with(".csv") {
                // The bot's table is the file's verdicts, cell for cell.
                let table = SheetTable::parse::<G>(&content, &file).unwrap();
                let cells = sheet::cells::<G>(&stored.tally, &stored.spec);
                assert_eq!(table.play.len(), cells.len());
                for (c, p) in cells.iter().zip(&table.play) {
                    let want = c.best.filter(|_| c.shown).map(|b| b as u8);
                    assert_eq!(*p, want, "{file}: {:?}", c);
                }
            }
        }
    }
}

#[test]
fn durak_sheets_are_current() {
    shipped_sheets_are_current::<tahur::games::durak::Durak>();
}

#[test]
fn domino_sheet_is_current() {
    shipped_sheets_are_current::<tahur::games::domino::Domino>();
}

#[test]
fn ocho_sheet_is_current() {
    shipped_sheets_are_current::<tahur::games::ocho::Ocho>();
}

#[test]
fn domino_and_ocho_built_in_sheets_are_the_shipped_files() {
    use tahur::games::{domino::Domino, ocho::Ocho};
    let text = std::fs::read_to_string(data("domino", "sheet-pairs-4p.csv")).unwrap();
    assert_eq!(
        *tahur::games::domino::bots::shipped_sheet(),
        SheetTable::parse::<Domino>(&text, "domino").unwrap(),
        "rebuild: the binary carries an older Dominó sheet"
    );
    let text = std::fs::read_to_string(data("ocho", "sheet-4p.csv")).unwrap();
    assert_eq!(
        *tahur::games::ocho::bots::shipped_sheet(),
        SheetTable::parse::<Ocho>(&text, "ocho").unwrap(),
        "rebuild: the binary carries an older Ocho sheet"
    );
}

#[test]
fn durak_built_in_sheets_are_the_shipped_files() {
    use tahur::games::durak::{bots::shipped_sheets, Durak};
    for (i, name) in Durak::SHEETS.iter().enumerate() {
        let file = format!("sheet-{name}.csv");
        let text = std::fs::read_to_string(data("durak", &file)).unwrap();
        assert_eq!(
            shipped_sheets()[i],
            SheetTable::parse::<Durak>(&text, &file).unwrap(),
            "rebuild: the binary carries an older {file}"
        );
    }
}

/// A cell's figures are the sums' statistics, computed here by hand: the mean of the
/// situations' summed differences over 2 × rollouts, its standard error from their spread.
#[test]
fn a_cell_reads_its_sums_as_a_paired_mean_over_situations() {
    use tahur::games::durak::Durak;
    use tahur::play::sheet::{cell, cell_index, SheetTally};
    let spec = sheet::SheetSpec {
        sheet: 0,
        games: 10,
        seed: 1,
        rollouts: 4,
    };
    // Build the take-or-beat cell (options beat, take) by hand: 25 situations whose summed
    // differences beat − take over 4 rollouts (half points) are these five, five times each.
    let diffs = [8i64, 4, 0, 6, 2].repeat(5);
    let fill = |diffs: &[i64]| {
        let n = diffs.len() as u64;
        let mut c = tahur::play::sheet::CellTally {
            situations: n,
            present: vec![n, n],
            values: vec![Default::default(); 2],
            both: vec![n],
            differences: vec![Default::default()],
        };
        for &d in diffs {
            c.differences[0].add(d);
            c.values[0].add(6 + d / 2);
            c.values[1].add(6 - d / 2);
        }
        c
    };
    let mut t = SheetTally {
        games: 25,
        faults: 0,
        cells: Vec::new(),
    };
    for topic in Durak::TOPICS {
        for _ in topic.rows {
            let k = topic.options.len();
            t.cells.push(tahur::play::sheet::CellTally {
                situations: 0,
                present: vec![0; k],
                values: vec![Default::default(); k],
                both: vec![0; k * (k - 1) / 2],
                differences: vec![Default::default(); k * (k - 1) / 2],
            });
        }
    }
    let at = cell_index::<Durak>(0, 2);
    assert_eq!(at, 2);
    t.cells[at] = fill(&diffs);
    let got = cell::<Durak>(&t, &spec, 0, 2);
    // Per situation, in chances: d / 8 → 1, 0.5, 0, 0.75, 0.25 (five times): mean 0.5, sample
    // variance 0.125 × 25/24, standard error 0.07217, z 6.93.
    let d = got.difference.unwrap();
    assert_eq!((got.best, got.runner_up), (Some(0), Some(1)));
    assert!((d.difference - 0.5).abs() < 1e-12, "{d:?}");
    let se = (0.125f64 * 25.0 / 24.0 / 25.0).sqrt();
    assert!((se - 0.07217).abs() < 1e-5);
    assert!(
        (d.interval.high - d.interval.low - 2.0 * 1.959964 * se).abs() < 1e-4,
        "{d:?}"
    );
    assert!(d.p_value < 1e-10, "{d:?}");
    assert!(got.shown);
    assert_eq!(sheet::verdict::<Durak>(&got), "beat");
    // 8, −4, 0 seven times: mean 1/6, standard error 0.1394, z 1.195, p 0.232: "either".
    t.cells[at] = fill(&[8i64, -4, 0].repeat(7));
    let got = cell::<Durak>(&t, &spec, 0, 2);
    let d = got.difference.unwrap();
    assert!((d.difference - 1.0 / 6.0).abs() < 1e-12, "{d:?}");
    assert!((d.p_value - 0.232).abs() < 2e-3, "{d:?}");
    assert!(!got.shown);
    assert_eq!(sheet::verdict::<Durak>(&got), "either");
    // Fewer than MIN_PAIRED situations with both options compare nothing: "—".
    t.cells[at] = fill(&[8i64; 19]);
    let got = cell::<Durak>(&t, &spec, 0, 2);
    assert_eq!((got.best, got.shown), (None, false));
    assert_eq!(sheet::verdict::<Durak>(&got), "—");
    assert_eq!(sheet::MIN_PAIRED, 20);
}

#[test]
fn the_same_seed_gives_the_same_sheet_at_any_thread_count() {
    use tahur::games::durak::Durak;
    let spec = sheet::SheetSpec {
        sheet: 1,
        games: 96,
        seed: 11,
        rollouts: 2,
    };
    let one = RunControl {
        threads: Some(1),
        ..Default::default()
    };
    let two = RunControl {
        threads: Some(2),
        ..Default::default()
    };
    let a = sheet::measure::<Durak>(&spec, &one).unwrap();
    let b = sheet::measure::<Durak>(&spec, &two).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.games, 96);
    // At most one situation per topic and game.
    let per_topic = |t: usize| -> u64 {
        (0..Durak::TOPICS[t].rows.len())
            .map(|r| a.cells[sheet::cell_index::<Durak>(t, r)].situations)
            .sum()
    };
    for t in 0..Durak::TOPICS.len() {
        assert!(per_topic(t) <= 96, "topic {t}: {}", per_topic(t));
    }
    // Perevodnoy: two-player games always meet a defence and a lead.
    assert!(per_topic(0) > 80 && per_topic(2) == 96, "{a:?}");
}

/// `sheet` against `reference` head to head (seats rotated on the same deals): the sheet's bot
/// is the durak / loses less, at p < 0.01.
fn sheet_beats(game: &str, players: u32, reference: &str, games: u32, extra: &str) {
    let v = common::run_json(&format!(
        "{game} tournament --players {players} --strategies {reference},sheet --games {games} --seed 5 {extra}"
    ));
    let pair = &v["pairs"][0];
    assert_eq!(pair["a"], reference);
    assert_eq!(pair["b"], "sheet");
    assert_eq!(v["ranking"][0]["strategy"], "sheet", "{v}");
    let p = pair["p_value"].as_f64().unwrap();
    assert!(
        p < 0.01,
        "{game}: sheet against {reference}: p = {p}: {pair}"
    );
}

#[test]
fn the_durak_sheet_beats_greedy_head_to_head() {
    sheet_beats("durak", 2, "greedy", 20_000, "");
    sheet_beats("durak", 2, "greedy", 20_000, "--variant perevodnoy");
}

#[test]
fn the_domino_sheet_beats_company_head_to_head() {
    sheet_beats("domino", 4, "company", 20_000, "");
}

#[test]
fn the_ocho_sheet_beats_greedy_head_to_head() {
    sheet_beats("ocho", 4, "greedy", 20_000, "");
}

#[test]
fn sheet_command_refuses_bad_values_and_writes_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheets");
    let out_s = out.to_str().unwrap();
    let run = common::tahur()
        .args([
            "durak",
            "sheet",
            "--only",
            "perevodnoy-2p",
            "--games",
            "40",
            "--rollouts",
            "2",
            "--out-dir",
            out_s,
        ])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "sheet-perevodnoy-2p-tally.json",
            "sheet-perevodnoy-2p.csv",
            "sheet-perevodnoy-2p.md"
        ]
    );
    let md = std::fs::read_to_string(out.join("sheet-perevodnoy-2p.md")).unwrap();
    assert!(
        md.contains("Transfer or beat?") && md.contains("| 40 |"),
        "{md}"
    );
    for (args, says) in [
        (vec!["--games", "0"], "--games"),
        (vec!["--rollouts", "0"], "rollouts"),
        (vec!["--only", "nope"], "nope"),
    ] {
        let mut all = vec!["durak", "sheet", "--out-dir", out_s];
        all.extend(args);
        let msg = common::fails(&all);
        assert!(msg.contains(says), "{msg}");
    }
}
