//! The committed cheat sheets are current, and the parsers survive any input.

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
