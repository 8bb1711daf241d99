//! The committed cheat sheets are current, and the parsers survive any input.

use crate::common;
use proptest::prelude::*;
use tahur::games::dudo::face::parse_dice;
use tahur::games::dudo::{Bid, Face, RuleSet};

#[test]
fn cheat_sheets_in_data_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/dudo");
    let files = tahur::games::dudo::sheets::generate().unwrap();
    assert_eq!(files.len(), 2 * 7 * 4 + 1);
    for (rel, content) in files {
        let on_disk = std::fs::read_to_string(root.join(&rel)).unwrap_or_default();
        assert!(
            on_disk == content,
            "data/dudo/{rel} is stale: run `cargo run --release -- dudo sheets --out-dir data/dudo`"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn bid_parser_never_panics(s in "\\PC{0,40}") {
        let _ = Bid::parse(&s);
    }

    #[test]
    fn bid_parser_never_panics_on_near_misses(q in "[0-9]{0,12}|[a-z ]{0,20}", sep in "( |x|X|×|\\*| x | de )", f in "[0-9]{0,3}|[a-zA-ZáéíóúñÑ]{0,12}") {
        let _ = Bid::parse(&format!("{q}{sep}{f}"));
    }

    #[test]
    fn dice_parser_never_panics(s in "\\PC{0,40}") {
        let _ = parse_dice(&s, "--hand");
    }

    #[test]
    fn spoken_bids_parse_back(q in 1u32..=100_000, f in 1u8..=6, cal in any::<bool>(), form in 0usize..4) {
        let bid = Bid { quantity: q, face: Face::new(f).unwrap() };
        let set = if cal { RuleSet::Caleuchano } else { RuleSet::Chimbo9 };
        let text = match form {
            0 => bid.spoken(set),
            1 => bid.to_string(),
            2 => format!("{q} {f}"),
            _ => bid.spoken(set).to_uppercase(),
        };
        prop_assert_eq!(Bid::parse(&text).unwrap(), bid);
    }

    #[test]
    fn dice_lists_parse_back(dice in proptest::collection::vec(1u8..=6, 0..12)) {
        let text = dice.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",");
        let parsed: Vec<u8> = parse_dice(&text, "--shown").unwrap().iter().map(|f| f.value()).collect();
        prop_assert_eq!(parsed, dice);
    }
}

// Every parser of user text, over arbitrary strings and near misses: never a panic, never an
// internal error, and a refusal is one line that names what was given (the whole value, or the
// item of it that is wrong).

use tahur::error::Error;
use tahur::games::{domino, dudo, durak, ocho, poker, veintiuno};
use tahur::play::GameRules as _;
use tahur::play::Strategy as _;

/// Whether `message` names `input`: the input itself (trimmed), or one of its items.
fn names(message: &str, input: &str) -> bool {
    let t = input.trim();
    t.is_empty()
        || message.contains(t)
        || t.split(',')
            .chain(t.split([',', '=']))
            .chain(t.split([',', ':']))
            .chain(t.split([',', ' ', ':', '=']))
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .any(|p| message.contains(p))
}

fn answered<T>(what: &str, input: &str, r: tahur::error::Result<T>) -> Result<(), TestCaseError> {
    match r {
        Ok(_) => Ok(()),
        Err(e) if e.exit_code() == 2 => {
            let m = e.to_string();
            prop_assert!(!m.contains('\n'), "{what} {input:?}: two lines: {m}");
            prop_assert!(
                names(&m, input),
                "{what} {input:?}: the message does not name it: {m}"
            );
            Ok(())
        }
        Err(e) => Err(TestCaseError::fail(format!("{what} {input:?}: {e}"))),
    }
}

/// Lists of words a parser knows, broken in the ways people break them.
fn near_miss(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    let item = prop_oneof![
        4 => proptest::sample::select(words).prop_map(str::to_string),
        1 => Just(String::new()),
        1 => "[a-zA-Z0-9=:._ -]{0,8}",
        1 => "\\PC{0,4}",
    ];
    (
        proptest::collection::vec(item, 0..5),
        prop_oneof![Just(","), Just(", "), Just(",,"), Just(" ")],
    )
        .prop_map(|(v, sep)| v.join(sep))
}

const STRATEGY_WORDS: &[&str] = &[
    "random",
    "honest",
    "threshold",
    "tuned",
    "greedy",
    "expert",
    "ismcts:100",
    "ismcts:",
    "threshold:t=0.3",
    "bluff=0.1",
    "t=2",
    "t=",
    "=0.1",
    "basic",
    "mimic:17",
    "mimic:",
    "sheet",
    "pie",
    "aleatorio",
    "codicioso",
    "tuned:",
    "x=1",
];
const HOUSE_WORDS: &[&str] = &[
    "lives=3",
    "lives=0",
    "paso=on",
    "obligado=on",
    "rules=caleuchano",
    "rules=chimbo9",
    "ace-round=ceil",
    "variant=perevodnoy",
    "teams=2x2",
    "deck=52",
    "hand=7",
    "max-moves=0",
    "decks=2",
    "twelve=off",
    "puje=maybe",
    "bank-stand=30",
    "lives",
    "=on",
    "redeal=off",
    "joker=three",
    "eight-answers=on",
    "first-card=acts",
    "keep-drawn=on",
    "max-actions=0",
];
const CARD_WORDS: &[&str] = &[
    "AH",
    "7D",
    "K♠",
    "10S",
    "6S",
    "as de corazones",
    "rey de picas",
    "QQ",
    "AH",
    "JC",
    "1H",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn dudo_parsers_answer_any_text(s in "\\PC{0,30}", l in near_miss(HOUSE_WORDS), d in near_miss(&["1", "4", "as", "cuadra", "7", "x"])) {
        answered("bid", &s, Bid::parse(&s))?;
        answered("face", &s, Face::parse(&s))?;
        answered("--hand", &s, parse_dice(&s, "--hand"))?;
        answered("--hand", &d, parse_dice(&d, "--hand"))?;
        let table = dudo::Rules::standard(RuleSet::Chimbo9, 4);
        answered("--house", &s, table.with_changes(&s))?;
        answered("--house", &l, table.with_changes(&l).and_then(|r| r.validate().map(|_| r)))?;
    }

    #[test]
    fn strategy_lists_answer_any_text(s in "\\PC{0,30}", l in near_miss(STRATEGY_WORDS)) {
        for t in [&s, &l] {
            answered("dudo --strategies", t, dudo::bots::Strategy::parse_list(t))?;
            answered("durak --strategies", t, durak::bots::Strategy::parse_list(t))?;
            answered("poker --strategies", t, poker::bots::Strategy::parse_list(t))?;
            answered("domino --strategies", t, domino::bots::Strategy::parse_list(t))?;
            answered("ocho --strategies", t, ocho::bots::Strategy::parse_list(t))?;
            answered("veintiuno --policies", t,
                <veintiuno::bots::Strategy as tahur::play::Strategy<veintiuno::Veintiuno>>::parse_list(t))?;
            answered("spec", t, tahur::text::Spec::parse(t, "strategy"))?;
        }
    }

    #[test]
    fn card_and_rule_parsers_answer_any_text(s in "\\PC{0,30}", c in near_miss(CARD_WORDS), h in near_miss(HOUSE_WORDS)) {
        for t in [&s, &c] {
            answered("21 card", t, veintiuno::cards::Card::parse(t))?;
            answered("--removed", t, veintiuno::cards::Composition::from_removed(1, t))?;
            answered("durak card", t, durak::cards::Card::parse(t))?;
            answered("durak cards", t, durak::cards::parse_set(t))?;
            answered("poker claim", t, poker::hand::Claim::parse(t))?;
            answered("poker dice", t, poker::hand::Counts::parse(t, "--dice"))?;
            answered("domino tiles", t, domino::tiles::parse_list(t, 6))?;
            answered("ocho card", t, ocho::cards::Card::parse(t))?;
        }
        for t in [&s, &h] {
            answered("21 --house", t, veintiuno::rules::Options::default().with_house_rules(t))?;
            let durak_table = <durak::rules::Rules as tahur::play::GameRules>::standard(4);
            answered("durak --house", t, durak_table.with_changes(t))?;
            let poker_table = <poker::rules::Rules as tahur::play::GameRules>::standard(4);
            answered("poker --house", t, poker_table.with_changes(t))?;
            let domino_table = <domino::rules::Rules as tahur::play::GameRules>::standard(4);
            answered("domino --house", t, domino_table.with_changes(t))?;
            let ocho_table = <ocho::rules::Rules as tahur::play::GameRules>::standard(4);
            answered("ocho --house", t, ocho_table.with_changes(t))?;
            answered("--shard", t, tahur::runner::Shard::parse_with_env(t, |_| None))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A shard file damaged anywhere (cut short, a byte changed) is refused naming the file, or
    /// still reads as a shard; arbitrary bytes likewise.
    #[test]
    fn shard_files_answer_any_damage(cut in 0usize..2000, at in 0usize..2000, byte in any::<u8>(), junk in proptest::collection::vec(any::<u8>(), 0..64)) {
        let good = shard_file();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("part.json");
        let mut damaged = good.clone();
        let at = at % damaged.len();
        damaged[at] = byte;
        damaged.truncate(cut.max(1).min(damaged.len()));
        for bytes in [damaged, junk] {
            std::fs::write(&path, &bytes).unwrap();
            let shown = path.display().to_string();
            match tahur::shards::Partial::read(&path) {
                Ok(p) => {
                    let r = tahur::shards::merge(&[(shown.clone(), p)], true);
                    if let Err(e) = r {
                        prop_assert!(matches!(e, Error::Usage(_)), "{e}");
                    }
                }
                Err(Error::Usage(m)) => prop_assert!(m.contains(&shown) && !m.contains('\n'), "{m}"),
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            }
        }
    }
}

/// One real shard file (written once per test process).
fn shard_file() -> Vec<u8> {
    static FILE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("p.json");
        common::stdout(&[
            "durak",
            "sim",
            "--players",
            "2",
            "--games",
            "300",
            "--shard",
            "1/2",
            "--output",
            &out.display().to_string(),
        ]);
        std::fs::read(&out).unwrap()
    })
    .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The command line itself (the binary): any value in any of these places ends with 0 or 2,
    /// never a panic or an internal error (1).
    #[test]
    fn command_lines_answer_any_value(which in 0usize..19, v in prop_oneof!["\\PC{0,16}", near_miss(STRATEGY_WORDS), near_miss(HOUSE_WORDS), "-?[0-9]{0,3}(\\.[0-9])?(e[0-9])?"]) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.json").display().to_string();
        let v = v.as_str();
        let line: Vec<&str> = match which {
            0 => vec!["dudo", "prob", "3", "cuadras", "--dice", "10", "--hand", v],
            1 => vec!["dudo", "prob", v, "--dice", "10"],
            2 => vec!["dudo", "sim", "--players", "2", "--games", "3", "--strategies", v],
            3 => vec!["dudo", "sim", "--players", "2", "--games", "3", "--house", v],
            4 => vec!["durak", "sim", "--players", "2", "--games", "3", "--house", v],
            5 => vec!["durak", "sim", "--players", v, "--games", "3"],
            6 => vec!["veintiuno", "odds", "--removed", v],
            7 => vec!["veintiuno", "bank", "--house", v],
            8 => vec!["dudo", "advise", "3", "cuadras", "--dice", "10", "--top", v],
            9 => vec!["dudo", "table", "--dice", "10", "--levels", v],
            10 => vec!["durak", "compare", "--players", "2", "--games", "3", "--b", v],
            11 => vec!["veintiuno", "flags", "--players", "2", "--hands", "3", "--strategies", v],
            12 => vec!["poker", "reroll", "--dice", "AAKQJ", "--beat", v],
            13 => vec!["poker", "chances", "--public", v, "--claim", "trío de reyes"],
            14 => vec!["domino", "sim", "--players", "4", "--games", "3", "--house", v],
            15 => vec!["domino", "deal", "--players", "4", "--holding", v],
            16 => vec!["ocho", "sim", "--players", "3", "--games", "3", "--house", v],
            17 => vec!["ocho", "sim", "--players", "3", "--games", "3", "--strategies", v],
            _ => vec!["ocho", "deal", "--players", v],
        };
        let mut args = line;
        args.extend(["--format", "json", "--output", &out]);
        let code = common::tahur().args(&args).output().unwrap().status.code();
        prop_assert!(code == Some(0) || code == Some(2), "{args:?} ended with {code:?}");
    }
}
