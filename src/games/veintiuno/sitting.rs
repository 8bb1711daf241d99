//! 21 ecuatoriano for the whole-game layer: a *sitting* ([`VeintiunoState`]) is a fresh table (a
//! new shoe, the first bank drawn by high card) playing a run of hands in a row, so the shoe
//! (dealt through without reshuffling) and the rotating bank carry over from hand to hand. A
//! run's samples are hands and each chunk of 4096 hands is one sitting: `compare`, `flags` and
//! `tournament` pair whole sittings on the same shuffles. A seat's points are its net as a
//! player; the bank's net and the times the bank changes hands are the game's own counters
//! ([`super::Counter`]).
//!
//! What a seat sees ([`SittingView`]): its own cards; of the other players' hands, every card
//! but the first, which is dealt face down and shown only when the hand is split (the pair is
//! shown), is a two-card special (announced at once) or is settled before the end (paid at once,
//! passed 21, withdrawn); the bank's up card (and its hole card if the seat holds the bank); no
//! tapo card, not even its own, until the end (docs/rules.md §2); every card of the finished hands
//! since the last shuffle (all are shown when a hand is settled); the shoe's size; the money.
//! [`crate::play::State::deal_for_view`] deals everything else again from the cards the seat
//! has not seen.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::{BankPolicy, Decided, Decision, Move, Table, MAX_SEATS};
use super::rules::Options;
use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::{GameRules, Illegal, Outcome, PlayerView, Seat, Start, MAX_COUNTERS};
use crate::rng::Stream;

/// The rules of a table: players, house rules and the bank's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRules {
    /// People at the table, bank included.
    pub players: u8,
    /// House rules.
    pub options: Options,
    /// How the bank plays (whoever holds it).
    pub bank: BankPolicy,
}

/// A house rule that is a switch of [`Options`]: `key=on|off`, described as "with NAME" or "no
/// NAME" when it differs from the standard, tried the other way by `flags` (labelled "with
/// LABEL" or "no LABEL").
macro_rules! switch_rule {
    ($key:literal, $field:ident, $help:literal, $name:literal, $label:literal) => {
        Rule {
            key: $key,
            aliases: &[],
            flag: Flag::None,
            help: $help,
            accepts: "use on or off",
            set: |r, v| switch(v).map(|on| r.options.$field = on).is_some(),
            get: |r| on_off(r.options.$field),
            describe: |r| {
                let now = r.options.$field;
                (now != Options::default().$field)
                    .then(|| format!("{} {}", if now { "with" } else { "no" }, $name))
            },
            changes: |r| {
                vec![flip(
                    $key,
                    r.options.$field,
                    concat!("with ", $label),
                    concat!("no ", $label),
                )]
            },
        }
    };
}

/// Every rule of a table, in the order of its description and of the changes `flags` tries:
/// the house rules of docs/rules.md §2 (`--house` of every command), then the bank's policy.
const TABLE: &[Rule<TableRules>] = &[
    Rule {
        key: "decks",
        aliases: &[],
        flag: Flag::None,
        help: "Decks in the shoe, 1–8 [default: 1]",
        accepts: "give a whole number from 1 to 8",
        set: |r, v| whole(v, 1, 8).map(|n| r.options.decks = n as u8).is_some(),
        get: |r| r.options.decks.to_string(),
        describe: |r| (r.options.decks != 1).then(|| format!("{} decks", r.options.decks)),
        changes: |r| {
            let d = if r.options.decks == 1 { 2 } else { 1 };
            vec![(
                format!("decks={d}"),
                format!("{d} deck{}", if d == 1 { "" } else { "s" }),
            )]
        },
    },
    switch_rule!(
        "twelve",
        twelve_counts_20,
        "12 in two cards counts 20 [default: on]",
        "12 counts 20",
        "12=20"
    ),
    switch_rule!(
        "suited12",
        suited_twelve_21,
        "12 in two cards of one suit counts 21 [default: on]",
        "suited 12 counts 21",
        "suited 12"
    ),
    switch_rule!(
        "trillona",
        trillona,
        "Trillona (21 in seven cards) pays 7 times the bet [default: on]",
        "trillona",
        "trillona"
    ),
    switch_rule!(
        "puje",
        puje,
        "A bank holding 20 in two cards may send the players al puje [default: on]",
        "puje",
        "puje"
    ),
    switch_rule!(
        "tapo",
        tapo,
        "Tapo y quedo: one more card face down, unseen until the end [default: on]",
        "tapo y quedo",
        "tapo"
    ),
    switch_rule!(
        "withdraw13",
        withdraw_13,
        "13 in two cards lets a player withdraw the bet [default: on]",
        "withdraw on 13",
        "withdraw 13"
    ),
    switch_rule!(
        "steal",
        bank_steal,
        "21 in two cards steals the bank [default: on]",
        "21 steals the bank",
        "steal"
    ),
    Rule {
        key: "monona",
        aliases: &[],
        flag: Flag::None,
        help: "Moñona (two aces) pays this many times the bet, 1–10 [default: 3]",
        accepts: "give a whole number from 1 to 10",
        set: |r, v| {
            whole(v, 1, 10)
                .map(|n| r.options.monona_pays = n as u8)
                .is_some()
        },
        get: |r| r.options.monona_pays.to_string(),
        describe: |r| {
            (r.options.monona_pays != Options::default().monona_pays)
                .then(|| format!("moñona pays {}", r.options.monona_pays))
        },
        changes: |r| {
            let n = if r.options.monona_pays == 3 { 2 } else { 3 };
            vec![(format!("monona={n}"), format!("moñona {n}×"))]
        },
    },
    Rule {
        key: "natural",
        aliases: &[],
        flag: Flag::None,
        help: "21 in two cards (ace and figure) pays this many times the bet, 1–10 [default: 2]",
        accepts: "give a whole number from 1 to 10",
        set: |r, v| {
            whole(v, 1, 10)
                .map(|n| r.options.natural_pays = n as u8)
                .is_some()
        },
        get: |r| r.options.natural_pays.to_string(),
        describe: |r| {
            (r.options.natural_pays != Options::default().natural_pays)
                .then(|| format!("21 in two pays {}", r.options.natural_pays))
        },
        changes: |r| {
            let n = if r.options.natural_pays == 2 { 1 } else { 2 };
            vec![(format!("natural={n}"), format!("21 pays {n}×"))]
        },
    },
    Rule {
        key: "min-bet",
        aliases: &["minimum"],
        flag: Flag::None,
        help: "The bank's minimum bet in units, 1–1000 [default: 1]",
        accepts: "give a whole number from 1 to 1000",
        set: |r, v| {
            whole(v, 1, 1000)
                .map(|n| r.options.bet_min = n as u16)
                .is_some()
        },
        get: |r| r.options.bet_min.to_string(),
        describe: |r| {
            (r.options.bet_min != 1 || r.options.bet_max != 1)
                .then(|| format!("bets {} to {} units", r.options.bet_min, r.options.bet_max))
        },
        changes: |_| vec![],
    },
    Rule {
        key: "max-bet",
        aliases: &["maximum"],
        flag: Flag::None,
        help: "The bank's maximum bet in units, 1–1000, bet on the face-down cards a player's \
               policy raises on (`sheet`: an ace or a figure) [default: 1]",
        accepts: "give a whole number from 1 to 1000",
        set: |r, v| {
            whole(v, 1, 1000)
                .map(|n| r.options.bet_max = n as u16)
                .is_some()
        },
        get: |r| r.options.bet_max.to_string(),
        // Said with min-bet.
        describe: |_| None,
        changes: |_| vec![],
    },
    Rule {
        key: "bank-stand",
        aliases: &[],
        flag: Flag::Value {
            long: "bank-stand",
            value_name: "N",
        },
        help: "The total the bank that draws to a fixed total (bank-draw=fixed) stands at, \
               12–21; the default bank, which draws by what it sees, has none [default: 17]",
        accepts: "the bank stands at 12 to 21",
        set: |r, v| whole(v, 12, 21).map(|n| r.bank.stand = n as u8).is_some(),
        get: |r| r.bank.stand.to_string(),
        // The bank's policy in one phrase, with bank-puje.
        describe: |r| {
            (r.bank != BankPolicy::default()).then(|| {
                let draw = if r.bank.sees {
                    "bank draws by what it sees".to_string()
                } else {
                    format!("bank stands at {}", r.bank.stand)
                };
                format!("{draw}{}", if r.bank.puje { ", sends al puje" } else { "" })
            })
        },
        changes: |_| vec![],
    },
    Rule {
        key: "bank-puje",
        aliases: &[],
        flag: Flag::None,
        help: "The bank sends players al puje with 20 in two cards when the house rule puje is \
               on (a puje only gives the players chances) [default: off]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|on| r.bank.puje = on).is_some(),
        get: |r| on_off(r.bank.puje),
        // Said with bank-stand.
        describe: |_| None,
        changes: |r| {
            vec![flip(
                "bank-puje",
                r.bank.puje,
                "bank sends al puje",
                "bank never sends al puje",
            )]
        },
    },
    Rule {
        key: "bank-draw",
        aliases: &[],
        flag: Flag::None,
        help: "How the bank draws: sees (it draws when drawing on is worth more than standing, \
               judged from its cards, the face-up cards of the open hands and the cards it has \
               not seen) or fixed (to bank-stand, the bank the exact sheet is solved against) \
               [default: sees]",
        accepts: "use fixed or sees",
        set: |r, v| match v {
            "fixed" => {
                r.bank.sees = false;
                true
            }
            "sees" => {
                r.bank.sees = true;
                true
            }
            _ => false,
        },
        get: |r| (if r.bank.sees { "sees" } else { "fixed" }).to_string(),
        // Said with bank-stand.
        describe: |_| None,
        changes: |r| {
            vec![if r.bank.sees {
                (
                    "bank-draw=fixed".into(),
                    format!("bank stands at {}", r.bank.stand),
                )
            } else if r.bank.stand != BankPolicy::default().stand {
                // The bank that sees has no fixed total (validate).
                (
                    format!("bank-draw=sees,bank-stand={}", BankPolicy::default().stand),
                    "bank draws by what it sees".into(),
                )
            } else {
                ("bank-draw=sees".into(), "bank draws by what it sees".into())
            }]
        },
    },
];

/// Whether `rule` is a house rule (of [`Options`], what `--house` of 21's own commands takes),
/// not the bank's policy.
pub fn is_house_rule(rule: &Rule<TableRules>) -> bool {
    !rule.key.starts_with("bank-")
}

/// The keys of the house rules, for messages: "decks, twelve, …".
pub fn house_keys() -> String {
    TABLE
        .iter()
        .filter(|r| is_house_rule(r))
        .map(|r| r.key)
        .collect::<Vec<_>>()
        .join(", ")
}

impl GameRules for TableRules {
    const TABLE: &'static [Rule<TableRules>] = TABLE;
    fn standard(players: usize) -> TableRules {
        TableRules {
            players: players.min(u8::MAX as usize) as u8,
            options: Options::default(),
            bank: BankPolicy::default(),
        }
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        if !(2..=MAX_SEATS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: a table seats 2 to {MAX_SEATS}, bank included",
                self.players
            )));
        }
        let o = &self.options;
        for (key, value, lo, hi) in [
            ("decks", o.decks, 1, 8),
            ("monona", o.monona_pays, 1, 10),
            ("natural", o.natural_pays, 1, 10),
            ("bank-stand", self.bank.stand, 12, 21),
        ] {
            if !(lo..=hi).contains(&value) {
                return Err(Error::usage(format!(
                    "invalid {key}={value}: give a whole number from {lo} to {hi}"
                )));
            }
        }
        if self.bank.sees && self.bank.stand != BankPolicy::default().stand {
            return Err(Error::usage(format!(
                "invalid bank-stand={} with bank-draw=sees: the bank that draws by what it sees \
                 has no fixed total; give bank-draw=fixed with it",
                self.bank.stand
            )));
        }
        if o.bet_min > o.bet_max {
            return Err(Error::usage(format!(
                "invalid min-bet={} with max-bet={}: the minimum bet may not pass the maximum",
                o.bet_min, o.bet_max
            )));
        }
        Ok(())
    }
    fn describe_players(&self) -> String {
        format!("{} players (bank rotating)", self.players)
    }
}

/// A sitting: a fresh table playing a run of hands, the shoe and the rotating bank carried over
/// from hand to hand ([`crate::play::State`] of 21 ecuatoriano).
#[derive(Clone)]
pub struct VeintiunoState {
    rules: TableRules,
    table: Table,
    players: usize,
    /// Hands to play, and played.
    hands: u64,
    played: u64,
    /// Each seat's net as a player.
    points: [i64; MAX_SEATS],
    bank_net: i64,
    steals: u64,
    first_bank: usize,
    /// Hands whose money did not add up (0 unless the engine is broken).
    unbalanced: u64,
    /// The decision waiting, if any.
    pending: Option<(usize, Decision)>,
    /// The decisions applied to hand `log_hand` (the hand in progress while it is `played`):
    /// where the cards of the hand in progress lie ([`Table::spots`]).
    log: Vec<Decided>,
    log_hand: u64,
    /// The first hand the last action settled, with each seat's net for it.
    settled: Settled,
}

/// A hand settled by an action, and each seat's net for it (the bank's seat: the bank's net).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Settled {
    hand: u64,
    net: [i64; MAX_SEATS],
}

/// What one seat sees of a sitting: its own cards, the bank's up card, the other players'
/// face-up cards, every card of the finished hands since the last shuffle, the shoe's size, the
/// bank, the hands played and everyone's money (see the module's notes for what lies face
/// down). Its `Debug` shows exactly that.
#[derive(Clone, Copy)]
pub struct SittingView<'a> {
    sitting: &'a VeintiunoState,
    seat: usize,
}

impl SittingView<'_> {
    /// The decision waiting (the seat's hand and the bank's up card): the view's seat must be
    /// the one to act.
    pub fn decision(&self) -> &Decision {
        &self
            .sitting
            .pending
            .as_ref()
            .expect("a view is taken while a decision is waiting")
            .1
    }
}

impl PlayerView for SittingView<'_> {
    fn seat(&self) -> Seat {
        self.seat
    }
}

impl fmt::Debug for SittingView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.sitting;
        f.debug_struct("SittingView")
            .field("seat", &self.seat)
            .field("rules", &s.rules)
            .field("hands", &s.hands)
            .field("played", &s.played)
            .field("first bank", &s.first_bank)
            .field("points", &&s.points[..s.players])
            .field("bank net", &s.bank_net)
            .field("bank changes", &s.steals)
            .field("table", &s.table.seen_by(self.seat, s.log()))
            .field("to act", &s.pending.map(|p| p.0))
            .finish()
    }
}

/// The whole state (what a refused action must leave as it was).
impl fmt::Debug for VeintiunoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VeintiunoState")
            .field("hands", &self.hands)
            .field("played", &self.played)
            .field("points", &&self.points[..self.players])
            .field("bank_net", &self.bank_net)
            .field("steals", &self.steals)
            .field("pending", &self.pending)
            .field("log", &self.log())
            .field("bank", &self.table.bank())
            .field("cursor", &self.table.cursor())
            .field("dealt in hand", &self.table.dealt_in_hand())
            .finish()
    }
}

impl VeintiunoState {
    /// The decisions applied to the hand in progress.
    fn log(&self) -> &[Decided] {
        if self.log_hand == self.played {
            &self.log
        } else {
            &[]
        }
    }

    /// The hands played so far.
    pub fn played(&self) -> u64 {
        self.played
    }

    /// The seat holding the bank (in the hand in progress).
    pub fn bank(&self) -> Seat {
        self.table.bank()
    }

    /// The bank's net so far (whoever held it).
    pub fn bank_net(&self) -> i64 {
        self.bank_net
    }

    /// Settles the hand in progress and records it; starts the next one unless the sitting is
    /// over. Returns whether a hand was started.
    #[inline(always)]
    fn finish_hand(&mut self) -> bool {
        let r = self.table.finish_hand();
        for s in 0..self.players {
            self.points[s] += r.player_net[s] as i64;
        }
        self.bank_net += r.bank_net as i64;
        self.steals += r.stolen as u64;
        self.unbalanced += (r.bank_net + r.player_net.iter().sum::<i32>() != 0) as u64;
        self.played += 1;
        let more = self.played < self.hands;
        if more {
            self.table.start_hand();
        }
        more
    }

    /// Finishes hands until a decision is waiting or the sitting is over, keeping each seat's
    /// net for the first hand it settles ([`Settled`]: what a search rewards).
    fn advance(&mut self) {
        let mut first = true;
        loop {
            self.pending = self.table.pending();
            if self.pending.is_some() {
                return;
            }
            let more = if first {
                first = false;
                let (hand, points, bank_net, bank) =
                    (self.played, self.points, self.bank_net, self.table.bank());
                let more = self.finish_hand();
                let mut net = [0; MAX_SEATS];
                for (s, n) in net.iter_mut().enumerate() {
                    *n = self.points[s] - points[s];
                }
                net[bank] += self.bank_net - bank_net;
                self.settled = Settled { hand, net };
                more
            } else {
                self.finish_hand()
            };
            if !more {
                return;
            }
        }
    }

    /// Plays every remaining decision with `decide`, hand by hand as [`Table::play_hand`] does
    /// (a move a policy may not make here becomes a stand, or the least bet).
    #[inline]
    pub fn play_out(&mut self, mut decide: impl FnMut(usize, &Decision) -> Move) {
        if self.played == self.hands {
            return;
        }
        loop {
            while let Some((seat, d)) = self.table.pending() {
                let m = decide(seat, &d);
                if self.table.apply_decided(seat, &d, m).is_err() {
                    let _ = self.table.apply_decided(seat, &d, d.fallback());
                }
            }
            if !self.finish_hand() {
                self.pending = None;
                return;
            }
        }
    }

    /// Each seat's net in the hand that was in progress at `root`, once this sitting (played on
    /// from `root` through [`crate::play::State::apply`]) has settled it.
    pub(super) fn net_since(&self, root: &VeintiunoState) -> [i64; MAX_SEATS] {
        debug_assert_eq!(self.settled.hand, root.played, "the hand settled last");
        self.settled.net
    }
}

thread_local! {
    /// Tables built once per thread and rules (the pair table of every two-card special, the
    /// shoe): a sitting starts from a copy, as 21's own `sim` starts every chunk from its
    /// template. A few rules at a time (`flags` plays the table and each change).
    static TEMPLATES: std::cell::RefCell<Vec<(TableRules, Table)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A table for `rules` restarted from `rng`: the same table as `Table::seated(…, rng, …)`.
fn fresh_table(rules: &TableRules, rng: Stream) -> Table {
    TEMPLATES.with(|cell| {
        let mut templates = cell.borrow_mut();
        let k = match templates.iter().position(|(r, _)| r == rules) {
            Some(k) => k,
            None => {
                if templates.len() == 16 {
                    templates.remove(0);
                }
                let seed = <Stream as crate::rng::SeedableRng>::seed_from_u64(0);
                let table = Table::seated(
                    rules.options,
                    rules.players as usize,
                    rules.bank,
                    seed,
                    false,
                );
                templates.push((*rules, table));
                templates.len() - 1
            }
        };
        let mut table = templates[k].1.clone();
        table.restart(rng);
        table
    })
}

impl crate::play::State for VeintiunoState {
    type Rules = TableRules;
    type Action = Move;
    type View<'a> = SittingView<'a>;

    /// A fresh table from `rng` (shuffle, first bank by high card), then `start.length` hands.
    fn deal(rules: &TableRules, start: &Start, rng: &mut Stream) -> VeintiunoState {
        let table = fresh_table(rules, rng.clone());
        let mut s = VeintiunoState {
            rules: *rules,
            first_bank: table.bank(),
            table,
            players: rules.players as usize,
            hands: start.length,
            played: 0,
            points: [0; MAX_SEATS],
            bank_net: 0,
            steals: 0,
            unbalanced: 0,
            pending: None,
            log: Vec::new(),
            log_hand: 0,
            settled: Settled::default(),
        };
        if s.hands > 0 {
            s.table.start_hand();
            s.advance();
        }
        s
    }
    /// The sitting as it stands, with everything the view's seat has not seen (the undealt shoe,
    /// the other players' first cards not shown, the bank's hole card, every tapo card) dealt
    /// again at random from the cards it has not seen, consistently with everything the hand
    /// has shown; the table's stream for a reshuffle is seeded afresh from `rng`.
    fn deal_for_view(view: &SittingView<'_>, rng: &mut Stream) -> VeintiunoState {
        let s = view.sitting;
        let mut dealt = s.clone();
        dealt.table.deal_unseen(view.seat, s.log(), rng);
        dealt.pending = dealt.table.pending();
        dealt
    }
    fn rules(&self) -> &TableRules {
        &self.rules
    }
    #[inline]
    fn to_act(&self) -> Seat {
        self.pending.map_or(0, |p| p.0)
    }
    #[inline]
    fn view(&self, seat: Seat) -> SittingView<'_> {
        SittingView {
            sitting: self,
            seat,
        }
    }
    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.table.legal_moves());
    }
    fn apply(&mut self, m: Move, _rng: &mut Stream) -> std::result::Result<(), Illegal> {
        let (seat, d) = self
            .pending
            .ok_or_else(|| Illegal::new(m, "no decision is waiting"))?;
        let (player, hand) = self.table.cursor();
        let from = self.table.dealt_in_hand();
        self.table
            .apply_decided(seat, &d, m)
            .map_err(|e| Illegal::new(m, e))?;
        if self.log_hand != self.played {
            self.log.clear();
            self.log_hand = self.played;
        }
        self.log.push(Decided {
            player: player as u8,
            hand: hand as u8,
            mv: m,
            from: from as u16,
        });
        self.advance();
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        (self.played == self.hands).then_some(Outcome::Scored)
    }
    fn first_player(&self) -> Seat {
        self.first_bank
    }
    fn length(&self) -> u64 {
        self.played
    }
    fn points(&self, seat: Seat) -> i64 {
        self.points[seat]
    }
    /// The bank's net and the times the bank changed hands.
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        out[super::Counter::BankNet as usize] = self.bank_net;
        out[super::Counter::Steals as usize] = self.steals as i64;
    }
    /// Money conserved in every hand, every card in the shoe `decks` times, and every hand of
    /// the hand in progress holding the cards dealt to it (while a decision waits).
    fn check_invariants(&self) -> std::result::Result<(), String> {
        if self.unbalanced > 0 {
            return Err(format!(
                "{} hands where the money did not add up",
                self.unbalanced
            ));
        }
        if self.pending != self.table.pending() {
            return Err("the decision waiting is not the table's".into());
        }
        let log = if self.pending.is_some() {
            self.log()
        } else {
            &[]
        };
        self.table.check(log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::State;
    use crate::rng::{base_stream, uniform_below};

    #[test]
    fn the_table_reads_back_what_it_writes_and_changes_as_before() {
        for players in 2..=MAX_SEATS {
            crate::play::rules::check_table(&TableRules::standard(players)).unwrap();
        }
        let r = TableRules::standard(4);
        let names: Vec<String> = r.one_rule_changes().into_iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "decks=2",
                "twelve=off",
                "suited12=off",
                "trillona=off",
                "puje=off",
                "tapo=off",
                "withdraw13=off",
                "steal=off",
                "monona=2",
                "natural=1",
                "bank-puje=on",
                "bank-draw=fixed"
            ]
        );
        // The default bank draws by what it sees: bank-draw=fixed is its one-rule change.
        assert!(r.bank.sees && !r.bank.puje);
        let changed = r
            .with_changes("natural=1,decks=2,bank-puje=on,puje=off")
            .unwrap();
        assert_eq!(
            changed.describe(),
            "4 players (bank rotating) · 2 decks · no puje · 21 in two pays 1 · bank draws by what it sees, sends al puje"
        );
        assert_eq!(
            r.with_changes("bank-draw=fixed").unwrap().describe(),
            "4 players (bank rotating) · bank stands at 17"
        );
        let fixed16 = r
            .with_changes("bank-draw=fixed,bank-stand=16,min-bet=2,max-bet=10")
            .unwrap();
        assert_eq!(
            fixed16.describe(),
            "4 players (bank rotating) · bets 2 to 10 units · bank stands at 16"
        );
        // The bank that sees has no fixed total: another total is refused with it, and the
        // fixed bank at 16 tries the seeing bank (at the default 17, which it does not use).
        let e = r.with_changes("bank-stand=16").unwrap();
        assert_eq!(
            e.validate().unwrap_err().to_string(),
            "invalid bank-stand=16 with bank-draw=sees: the bank that draws by what it sees has no fixed total; give bank-draw=fixed with it"
        );
        let sees = fixed16
            .one_rule_changes()
            .into_iter()
            .find(|c| c.name.starts_with("bank-draw"))
            .unwrap();
        assert_eq!(sees.name, "bank-draw=sees,bank-stand=17");
        assert!(sees.rules.bank.sees);
        let names: Vec<String> = changed
            .one_rule_changes()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert!(names.contains(&"decks=1".to_string()) && names.contains(&"puje=on".into()));
        for (spec, message) in [
            (
                "decks=9",
                "invalid decks=9: give a whole number from 1 to 8",
            ),
            (
                "bank-stand=25",
                "invalid bank-stand=25: the bank stands at 12 to 21",
            ),
            ("puje=maybe", "invalid puje=maybe: use on or off"),
        ] {
            assert_eq!(r.with_changes(spec).unwrap_err().to_string(), message);
        }
        let e = r.with_changes("colour=red").unwrap_err().to_string();
        assert!(e.contains("colour") && e.contains("bank-stand"), "{e}");
        // The house rules of 21's own commands: the same rules, without the bank's policy.
        let o = Options::default()
            .with_house_rules("Decks=2, puje=off")
            .unwrap();
        assert_eq!((o.decks, o.puje), (2, false));
        let e = Options::default()
            .with_house_rules("bank-stand=16")
            .unwrap_err()
            .to_string();
        // The keys listed are the house rules; the bank's rules are named as flags.
        let (keys, flags) = e.split_once(" (the bank's").unwrap();
        assert!(
            keys.contains("bank-stand") && !keys.contains("bank-puje"),
            "{e}"
        );
        assert!(
            flags.contains("--bank-stand N") && flags.contains("--bank-draw"),
            "{e}"
        );
    }

    /// Random play through the state: at every decision each seat's view is what a game dealt
    /// for it shows, the dealt games keep every invariant and vary what the seat cannot see,
    /// and what the seat cannot see is consistent with what the hand showed.
    #[test]
    fn games_dealt_for_a_view_show_that_view() {
        let mut rng = base_stream(3);
        let mut legal = Vec::new();
        let mut varied = 0;
        for (k, spec) in ["", "tapo=on", "decks=2,puje=off", "twelve=off,trillona=off"]
            .iter()
            .enumerate()
        {
            let players = 2 + k * 2;
            let rules = TableRules::standard(players).with_changes(spec).unwrap();
            let start = Start {
                length: 40,
                ..Start::default()
            };
            let mut s = VeintiunoState::deal(&rules, &start, &mut rng);
            while !s.is_over() {
                s.check_invariants().unwrap();
                for seat in 0..players {
                    let shown = format!("{:?}", s.view(seat));
                    for _ in 0..2 {
                        let d = VeintiunoState::deal_for_view(&s.view(seat), &mut rng);
                        assert_eq!(format!("{:?}", d.view(seat)), shown);
                        d.check_invariants().unwrap();
                        assert_eq!(d.to_act(), s.to_act());
                        let others = |g: &VeintiunoState| {
                            (0..players)
                                .map(|p| format!("{:?}", g.view(p)))
                                .collect::<Vec<_>>()
                        };
                        varied += usize::from(others(&d) != others(&s));
                    }
                }
                s.legal_actions(&mut legal);
                // Mostly hits and stands, sometimes every other move.
                let m = if uniform_below(&mut rng, 3) == 0 {
                    legal[uniform_below(&mut rng, legal.len())]
                } else {
                    legal[uniform_below(&mut rng, 2)]
                };
                s.apply(m, &mut rng).unwrap();
            }
        }
        assert!(varied > 100, "{varied}");
    }

    /// What a seat cannot see is dealt uniformly among the deals consistent with what it has
    /// seen: at the start of a hand, the pie de banco's view of the other player's first card and
    /// the bank's hole card, from the cards not seen, such that the player's two cards are no
    /// special (it would have been announced) and the bank's do not count 20 (it would have sent
    /// the players al puje). The dealt cards' ranks against the exact chances, by χ².
    #[test]
    fn hidden_cards_are_dealt_uniformly_among_the_consistent_deals() {
        use super::super::cards::{Card, DECK, RANK_COUNT};
        use super::super::rules::{two_card, two_card_total, TwoCard};
        let rules = TableRules::standard(3);
        let start = Start {
            length: 300,
            ..Start::default()
        };
        let mut rng = base_stream(8);
        let mut s = VeintiunoState::deal(&rules, &start, &mut rng);
        let mut tested = 0;
        while !s.is_over() && tested < 3 {
            let t = &s.table;
            let first_shown = two_card(t.dealt(1), t.dealt(4), &rules.options) != TwoCard::Plain;
            if t.cursor() != (0, 0) || !s.log().is_empty() || first_shown {
                s.apply(Move::Stand, &mut rng).unwrap();
                continue;
            }
            let seat = s.to_act();
            let (second, up) = (t.dealt(4), t.dealt(5));
            // The cards not seen: the shoe less the finished hands' and the four face up.
            let mut pool = [1u32; DECK];
            for c in t
                .seen_since_shuffle()
                .into_iter()
                .chain([t.dealt(0), t.dealt(3), second, up])
            {
                pool[c.index()] -= 1;
            }
            let card = Card::from_index;
            let first_ok = |c: usize| two_card(card(c), second, &rules.options) == TwoCard::Plain;
            let hole_ok = |c: usize| two_card_total(up, card(c), &rules.options) != 20;
            // Exact chances of each rank for the first card and the hole card.
            let (mut p_first, mut p_hole) = ([0.0; RANK_COUNT], [0.0; RANK_COUNT]);
            for a in (0..DECK).filter(|&a| pool[a] > 0 && first_ok(a)) {
                for b in (0..DECK).filter(|&b| hole_ok(b)) {
                    let pairs = pool[a] as f64 * (pool[b] - u32::from(a == b)) as f64;
                    p_first[a / 4] += pairs;
                    p_hole[b / 4] += pairs;
                }
            }
            let n = 20_000;
            let (mut firsts, mut holes) = ([0u32; RANK_COUNT], [0u32; RANK_COUNT]);
            for _ in 0..n {
                let d = VeintiunoState::deal_for_view(&s.view(seat), &mut rng);
                firsts[d.table.dealt(1).rank()] += 1;
                holes[d.table.dealt(2).rank()] += 1;
                assert_eq!(d.table.dealt(4), second);
            }
            for (p, seen) in [(p_first, firsts), (p_hole, holes)] {
                let total: f64 = p.iter().sum();
                let mut chi2 = 0.0;
                for r in 0..RANK_COUNT {
                    let expected = n as f64 * p[r] / total;
                    if expected == 0.0 {
                        assert_eq!(seen[r], 0, "rank {r} cannot be there");
                    } else {
                        chi2 += (seen[r] as f64 - expected).powi(2) / expected;
                    }
                }
                // χ² with at most 9 degrees of freedom: 33.7 is its 99.99th percentile.
                assert!(chi2 < 33.7, "χ² {chi2}: {seen:?} against {p:?}");
            }
            tested += 1;
            s.apply(Move::Stand, &mut rng).unwrap();
        }
        assert_eq!(tested, 3);
    }
}
