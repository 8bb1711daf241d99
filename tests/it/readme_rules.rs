//! The README's list of house rules for each game is generated from the game's rule table
//! (`play::rules::markdown_list`), between the markers
//! `<!-- rules:KEY (generated …) -->` and `<!-- end rules:KEY -->`. The test fails when a list
//! is stale or a game has none, and says how to refresh them:
//! `TAHUR_WRITE_README_RULES=1 cargo test --test it readme_rules` rewrites every list in place.

use tahur::play::rules::markdown_list;
use tahur::play::Game;

/// What refreshes the lists.
const REFRESH: &str = "TAHUR_WRITE_README_RULES=1 cargo test --test it readme_rules";

macro_rules! rule_lists {
    ($($name:ident => $game:ty),* $(,)?) => {
        /// Every game's key and the list of its rules, in the order of `with_games!`.
        fn rule_lists() -> Vec<(&'static str, String)> {
            vec![$((
                <$game as Game>::INFO.key,
                markdown_list::<<$game as Game>::Rules>(),
            )),*]
        }
    };
}
tahur::with_games!(rule_lists);

/// The marker that opens a game's list; it says how the list is made.
fn begin(key: &str) -> String {
    format!("<!-- rules:{key} (generated from the rule table by `{REFRESH}`; edit the table, not this list) -->")
}

/// The marker that closes a game's list.
fn end(key: &str) -> String {
    format!("<!-- end rules:{key} -->")
}

/// `readme` with every game's list replaced by the one its rule table gives (markers
/// rewritten too); an error names a game whose markers are missing or out of order.
fn refreshed(readme: &str) -> Result<String, String> {
    let mut out = readme.to_string();
    let lists = rule_lists();
    for (key, list) in &lists {
        // Markers open their lines (the README also names them in running text).
        let open = format!("\n<!-- rules:{key} ");
        let close = format!("\n{}", end(key));
        let (Some(a), Some(b)) = (out.find(&open), out.find(&close)) else {
            return Err(format!(
                "README.md has no list of {key}'s rules: put `<!-- rules:{key} -->` and `{}` on lines of their own in its section, then run `{REFRESH}`",
                end(key)
            ));
        };
        if b < a || out[a + open.len()..].contains(&open) {
            return Err(format!(
                "README.md: {key}'s rule markers are out of order or given twice"
            ));
        }
        out = format!("{}\n{}\n{list}{}", &out[..a], begin(key), &out[b + 1..]);
    }
    // A list of a game no longer listed is stale too.
    let lists_in_readme = out.lines().filter(|l| l.starts_with("<!-- rules:")).count();
    if lists_in_readme != lists.len() {
        return Err(format!(
            "README.md holds {lists_in_readme} rule lists for {} games",
            lists.len()
        ));
    }
    Ok(out)
}

#[test]
fn readme_rules_lists_are_the_rule_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let fresh = refreshed(&readme).unwrap_or_else(|e| panic!("{e}"));
    if fresh == readme {
        return;
    }
    if std::env::var_os("TAHUR_WRITE_README_RULES").is_some() {
        std::fs::write(path, &fresh).unwrap();
        eprintln!("README.md: the rules lists were rewritten from the rule tables");
        return;
    }
    let (old, new) = readme
        .lines()
        .zip(fresh.lines())
        .find(|(a, b)| a != b)
        .unwrap_or(("(the end)", "(more lines)"));
    panic!(
        "README.md's rules lists differ from the rule tables; refresh them with `{REFRESH}`.\nFirst difference:\n  README:     {old}\n  rule table: {new}"
    );
}

#[test]
fn a_rules_list_reads_as_sentences() {
    let lists = rule_lists();
    let of = |key: &str| lists.iter().find(|(k, _)| *k == key).unwrap();
    let durak = of("durak");
    let lines: Vec<&str> = durak.1.lines().collect();
    // A value flag, its key and an alias; the default as a sentence of its own.
    assert!(
        lines.contains(
            &"- `--hand-size N`, `hand=N` (or `mano=N`, `hand-size=N`): Cards per hand, 1–12. Default: 6; platkowy 5."
        ),
        "{}",
        durak.1
    );
    // A switch that turns a rule off.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- `--no-redeal`, `redeal=off`: Play hands")),
        "{}",
        durak.1
    );
    // Rules with no flag of their own: a number, a switch.
    let dudo = of("dudo");
    assert!(
        dudo.1
            .lines()
            .any(|l| l
                .starts_with("- `lives=N` (or `vidas=N`): Lives each, 1–20. Default: 3 fichas")),
        "{}",
        dudo.1
    );
    assert!(
        dudo.1
            .lines()
            .any(|l| l.starts_with("- `paso=on|off`: Paso: ")),
        "{}",
        dudo.1
    );
    for (key, list) in &lists {
        for line in list.lines() {
            assert!(
                line.starts_with("- `") && line.ends_with('.') && !line.contains("[default"),
                "{key}: {line}"
            );
        }
    }
}
