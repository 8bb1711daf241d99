//! 21 ecuatoriano (`../shared/RULES.md` §2): a rotating bank, a 40-card shoe dealt through
//! without reshuffling, and the specials (12 counts 20, suited 12 counts 21, moñona, 13 to
//! withdraw, relancina, trillona, 21 in two cards that steals the bank), splitting by doubling
//! the bet, tapo y quedo, mandar al puje. `compare`, `flags` and `tournament` come from the
//! shared [`crate::play`] layer, which plays 21 in sittings ([`sitting`]).

pub mod cards;
pub mod engine;
pub mod exact;
pub mod rules;
pub mod sim;
pub mod sitting;
pub mod strategy;

use serde::{Deserialize, Serialize};

use crate::play::{Compared, GameInfo, RuleFlag, Scoring, Words};

/// 21 ecuatoriano, for the whole-game layer (played in sittings: [`sitting`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Veintiuno;

const FLAGS: &[RuleFlag] = &[RuleFlag {
    long: "bank-stand",
    key: "bank-stand",
    value_name: Some("N"),
    switch_sets: "",
    help: "The bank stands at this total or more, 12–21 [default: 17]",
}];

impl crate::play::Game for Veintiuno {
    type Rules = sitting::TableRules;
    type State = sitting::Sitting;
    type Strategy = engine::PlayerPolicy;
    const INFO: GameInfo = GameInfo {
        key: "veintiuno",
        title: "21 ecuatoriano",
        about:
            "21 ecuatoriano: two-card specials, the bank's odds, whole hands with a rotating bank",
        scoring: Scoring::Points,
        words: Words {
            first_player: "first bank",
            positions: &["first bank", "pie de banco"],
            event: "net",
            rate: "EV per hand",
            phrase: "as player",
            team_phrase: "",
            length_unit: "hands",
            chart_axis: "net per hand",
        },
        draws: false,
        move_cap: false,
        series: None,
        sitting: true,
        sample_unit: "hands",
        own_sim: true,
        players: (2, engine::MAX_SEATS, None),
        flags: FLAGS,
        change_keys: sitting::CHANGE_KEYS,
        strategies_help: "basic, pie, mimic[:S] (hit below S), sheet, sheet:FILE.json; Spanish básica, banca[:S], hoja, hoja:FILE.json",
        default_strategies: "basic",
        default_tournament: "basic,sheet,mimic:17",
        counters: &["bank_net", "steals"],
        compared: &[
            Compared {
                counter: 0,
                label: "bank's result",
            },
            Compared {
                counter: 1,
                label: "bank changes hands",
            },
        ],
        chunk: sim::HANDS_CHUNK,
        slow_chunk: sim::HANDS_CHUNK,
        tournament_chunk: (sim::HANDS_CHUNK, sim::HANDS_CHUNK),
        examples: [
            "  tahur veintiuno sim --players 4 --hands 1e6",
            "  tahur veintiuno compare --players 4 --a puje=on --b puje=off
  tahur veintiuno compare --players 5 --a decks=1 --b decks=2 --hands 1e7
  tahur veintiuno compare --players 4 --a monona=3 --b monona=2 \\
      --bank-stand 16 --format json
  tahur veintiuno compare --players 5 --a-strategies basic \\
      --b-strategies sheet --hands 1e7",
            "  tahur veintiuno tournament --players 4 --strategies basic,sheet,mimic:17 \\
      --hands 1e6
  tahur veintiuno tournament --players 2 --strategies sheet,basic \\
      --hands 1e7 --chart ranking.svg",
            "  tahur veintiuno flags --players 4 --hands 1e7
  tahur veintiuno flags --players 6 --strategies sheet --hands 1e7 \\
      --chart bank.svg",
        ],
    };
}
