//! The rules the engines play are in the repository (`docs/rules.md`), and every citation of
//! them — in reports, help, notes, docs and tests — names a section that exists there.

use std::path::{Path, PathBuf};

/// The repository's root (where Cargo.toml is).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` and `.md` file under `dir`, `target/` left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n != "target" && n != ".git")
            {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs" || e == "md") {
            out.push(path);
        }
    }
}

/// The section numbers docs/rules.md has: `## 4. Póker mentiroso` gives "4", `### 1a. Chimbo 9`
/// gives "1a".
fn sections(doc: &str) -> Vec<String> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("### ").or_else(|| l.strip_prefix("## ")))
        .filter_map(|h| h.split_once(". ").map(|(n, _)| n.to_string()))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect()
}

/// Every "§N" written after "rules.md" (with at most a backtick and spaces between) in `text`.
fn citations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("rules.md") {
        rest = &rest[i + "rules.md".len()..];
        let after = rest.trim_start_matches(['`', ' ', ')', ']']);
        if let Some(sec) = after.strip_prefix('§') {
            let n: String = sec
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            found.push(n);
        }
    }
    found
}

#[test]
fn every_game_has_its_section_and_every_cited_section_exists() {
    let doc = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    let have = sections(&doc);
    for n in ["1", "1a", "1b", "1c", "2", "3", "4", "5", "6"] {
        assert!(
            have.iter().any(|h| h == n),
            "docs/rules.md lacks §{n}: {have:?}"
        );
    }
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples", "docs"] {
        let d = root().join(dir);
        if d.is_dir() {
            sources(&d, &mut files);
        }
    }
    files.push(root().join("README.md"));
    let mut cited = 0;
    for file in &files {
        // This file writes citations only as examples of the form.
        if file.ends_with("rules_doc.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for n in citations(&text) {
            assert!(
                have.contains(&n),
                "{}: cites docs/rules.md §{n}, which docs/rules.md does not have ({have:?})",
                file.display()
            );
            cited += 1;
        }
        // The digest outside the repository is cited nowhere: a clone does not have it.
        for outside in ["../shared", "RULES.md"] {
            assert!(
                !text.contains(outside),
                "{}: cites {outside}, which is not in the repository",
                file.display()
            );
        }
    }
    // The checker reads citations at all: the README and the engines cite many.
    assert!(cited >= 20, "only {cited} citations found");
}

#[test]
fn citations_are_read_as_written() {
    assert_eq!(
        citations("plays docs/rules.md §4. And (`docs/rules.md` §1a) and rules.md, no section"),
        ["4", "1a"]
    );
    assert_eq!(
        sections("# t\n## 1. Dudo\n### 1a. Chimbo 9\n## Sources\n"),
        ["1", "1a"]
    );
}

#[test]
fn the_poker_report_cites_the_section_of_its_rule() {
    let out = crate::common::stdout(&["poker", "odds", "--format", "json"]);
    assert!(out.contains("docs/rules.md §4"), "{out}");
}
