//! 21 ecuatoriano for the whole-game layer: a *sitting* is a fresh table (a new shoe, the first
//! bank drawn by high card) playing a run of hands in a row, so the shoe (dealt through without
//! reshuffling) and the rotating bank carry over from hand to hand. A run's samples are hands and
//! each chunk of 4096 hands is one sitting: `compare`, `flags` and `tournament` pair whole
//! sittings on the same shuffles. A seat's points are its net as a player; the bank's net and the
//! times the bank changes hands are the game's own counters.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::{BankPolicy, Decision, Move, PlayerPolicy, Table, MAX_SEATS};
use super::rules::Options;
use crate::error::{Error, Result};
use crate::play::{GameRules, Illegal, Outcome, RuleChange, Start, MAX_COUNTERS};
use crate::rng::Stream;

/// Every key of [`TableRules::with_changes`].
pub const CHANGE_KEYS: &str = "decks, twelve, suited12, monona, natural, trillona, puje, tapo, withdraw13, steal, bank-stand, bank-puje";

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

impl TableRules {
    /// These rules changed by `key=value,…`: the house rules of [`Options::with_house_rules`]
    /// and `bank-stand=N` (12–21), `bank-puje=on|off`.
    pub fn with_changes(mut self, spec: &str) -> Result<TableRules> {
        let mut house = Vec::new();
        for (k, v) in crate::text::key_values(spec, "house rule", "puje=off,decks=2")? {
            match k {
                "bank-stand" => {
                    self.bank.stand = v
                        .parse::<u8>()
                        .ok()
                        .filter(|s| (12..=21).contains(s))
                        .ok_or_else(|| {
                            Error::usage(format!(
                                "invalid bank-stand={v}: the bank stands at 12 to 21"
                            ))
                        })?
                }
                "bank-puje" => self.bank.puje = crate::text::on_off(k, v)?,
                _ => house.push(format!("{k}={v}")),
            }
        }
        self.options = self.options.with_house_rules(&house.join(","))?;
        Ok(self)
    }
}

impl GameRules for TableRules {
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
                "invalid --players {}: a table seats 2 to {MAX_SEATS}, bank included",
                self.players
            )));
        }
        Ok(())
    }
    fn with_changes(&self, spec: &str) -> Result<TableRules> {
        TableRules::with_changes(*self, spec)
    }
    /// Each house rule of RULES.md §2 turned the other way: two decks (or one), 12 not counting
    /// 20, a suited 12 not counting 21, moñona paid double (or triple), 21 in two cards paid even
    /// (or double), no trillona, no puje, no tapo y quedo, no withdrawal on 13, no stolen bank.
    fn one_rule_changes(&self) -> Vec<RuleChange<TableRules>> {
        let o = &self.options;
        let mut v = Vec::new();
        let with = |spec: &str| self.with_changes(spec).expect("a valid change");
        let decks = if o.decks == 1 { 2 } else { 1 };
        v.push(RuleChange::new(
            format!("decks={decks}"),
            format!("{decks} deck{}", if decks == 1 { "" } else { "s" }),
            with(&format!("decks={decks}")),
        ));
        let flip = |now: bool| if now { "off" } else { "on" };
        // Chart labels stay short: the names say the rest.
        for (key, now, label) in [
            ("twelve", o.twelve_counts_20, "12=20"),
            ("suited12", o.suited_twelve_21, "suited 12"),
            ("trillona", o.trillona, "trillona"),
            ("puje", o.puje, "puje"),
            ("tapo", o.tapo, "tapo"),
            ("withdraw13", o.withdraw_13, "withdraw 13"),
            ("steal", o.bank_steal, "steal"),
        ] {
            let to = flip(now);
            v.push(RuleChange::new(
                format!("{key}={to}"),
                format!("{} {label}", if now { "no" } else { "with" }),
                with(&format!("{key}={to}")),
            ));
        }
        let monona = if o.monona_pays == 3 { 2 } else { 3 };
        v.push(RuleChange::new(
            format!("monona={monona}"),
            format!("moñona {monona}×"),
            with(&format!("monona={monona}")),
        ));
        let natural = if o.natural_pays == 2 { 1 } else { 2 };
        v.push(RuleChange::new(
            format!("natural={natural}"),
            format!("21 pays {natural}×"),
            with(&format!("natural={natural}")),
        ));
        v.retain(|c| c.rules != *self);
        v
    }
    fn describe(&self) -> String {
        let d = Options::default();
        let o = &self.options;
        let mut parts = vec![format!("{} players (bank rotating)", self.players)];
        if o.decks != d.decks {
            parts.push(format!("{} decks", o.decks));
        }
        for (now, std, name) in [
            (o.twelve_counts_20, d.twelve_counts_20, "12 counts 20"),
            (
                o.suited_twelve_21,
                d.suited_twelve_21,
                "suited 12 counts 21",
            ),
            (o.trillona, d.trillona, "trillona"),
            (o.puje, d.puje, "puje"),
            (o.tapo, d.tapo, "tapo y quedo"),
            (o.withdraw_13, d.withdraw_13, "withdraw on 13"),
            (o.bank_steal, d.bank_steal, "21 steals the bank"),
        ] {
            if now != std {
                parts.push(format!("{} {name}", if now { "with" } else { "no" }));
            }
        }
        if o.monona_pays != d.monona_pays {
            parts.push(format!("moñona pays {}", o.monona_pays));
        }
        if o.natural_pays != d.natural_pays {
            parts.push(format!("21 in two pays {}", o.natural_pays));
        }
        if self.bank != BankPolicy::default() {
            parts.push(format!(
                "bank stands at {}{}",
                self.bank.stand,
                if self.bank.puje {
                    ""
                } else {
                    ", never al puje"
                }
            ));
        }
        parts.join(" · ")
    }
}

/// A sitting in progress.
#[derive(Clone)]
pub struct Sitting {
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
}

/// What the player to decide sees: their hand and the bank's up card ([`Decision`]).
#[derive(Clone, Copy, Debug)]
pub struct SittingView<'a> {
    sitting: &'a Sitting,
    seat: usize,
}

impl SittingView<'_> {
    /// The decision waiting (the seat's hand and the bank's up card).
    pub fn decision(&self) -> &Decision {
        &self
            .sitting
            .pending
            .as_ref()
            .expect("a view is taken while a decision is waiting")
            .1
    }
}

impl crate::play::PlayerView for SittingView<'_> {
    fn seat(&self) -> usize {
        self.seat
    }
}

impl fmt::Debug for Sitting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sitting")
            .field("hands", &self.hands)
            .field("played", &self.played)
            .field("points", &&self.points[..self.players])
            .field("bank_net", &self.bank_net)
            .finish()
    }
}

impl Sitting {
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

    /// Finishes hands until a decision is waiting or the sitting is over.
    fn advance(&mut self) {
        loop {
            self.pending = self.table.pending();
            if self.pending.is_some() || !self.finish_hand() {
                return;
            }
        }
    }

    /// Plays every remaining decision with `decide`, hand by hand as [`Table::play_hand`] does
    /// (a move a policy may not make here becomes a stand).
    #[inline]
    pub fn play_out(&mut self, mut decide: impl FnMut(usize, &Decision) -> Move) {
        if self.played == self.hands {
            return;
        }
        loop {
            while let Some((seat, d)) = self.table.pending() {
                let m = decide(seat, &d);
                if self.table.apply_decided(seat, &d, m).is_err() {
                    let _ = self.table.apply_decided(seat, &d, Move::Stand);
                }
            }
            if !self.finish_hand() {
                self.pending = None;
                return;
            }
        }
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

impl crate::play::State for Sitting {
    type Rules = TableRules;
    type Action = Move;
    type View<'a> = SittingView<'a>;

    /// A fresh table from `rng` (shuffle, first bank by high card), then `start.length` hands.
    fn deal(rules: &TableRules, start: &Start, rng: &mut Stream) -> Sitting {
        let table = fresh_table(rules, rng.clone());
        let mut s = Sitting {
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
        };
        if s.hands > 0 {
            s.table.start_hand();
            s.advance();
        }
        s
    }
    #[inline]
    fn to_act(&self) -> usize {
        self.pending.map_or(0, |p| p.0)
    }
    #[inline]
    fn view(&self, seat: usize) -> SittingView<'_> {
        SittingView {
            sitting: self,
            seat,
        }
    }
    fn rules(&self) -> &TableRules {
        &self.rules
    }
    /// Not yet: 21's search bot comes with dealing the unseen shoe (the one-engine-API issue).
    fn deal_for_view(_view: &SittingView<'_>, _rng: &mut Stream) -> Sitting {
        unimplemented!("21 does not deal for a view yet")
    }
    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.table.legal_moves());
    }
    fn apply(&mut self, m: Move, _rng: &mut Stream) -> std::result::Result<(), Illegal> {
        let (seat, d) = self
            .pending
            .ok_or_else(|| Illegal("no decision is waiting".into()))?;
        self.table
            .apply_decided(seat, &d, m)
            .map_err(|e| Illegal(e.to_string()))?;
        self.advance();
        Ok(())
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        (self.played == self.hands).then_some(Outcome::Scored)
    }
    fn first_player(&self) -> usize {
        self.first_bank
    }
    fn length(&self) -> u64 {
        self.played
    }
    fn points(&self, seat: usize) -> i64 {
        self.points[seat]
    }
    /// The bank's net and the times the bank changed hands.
    fn counters(&self, out: &mut [i64; MAX_COUNTERS]) {
        out[0] = self.bank_net;
        out[1] = self.steals as i64;
    }
    fn check_invariants(&self) -> std::result::Result<(), String> {
        if self.unbalanced > 0 {
            return Err(format!(
                "{} hands where the money did not add up",
                self.unbalanced
            ));
        }
        Ok(())
    }
}

impl fmt::Display for PlayerPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl crate::play::Strategy<super::Veintiuno> for PlayerPolicy {
    type Bot = PlayerPolicy;
    fn parse(text: &str) -> Result<Self> {
        super::sim::parse_policy(text)
    }
    /// A policy is its own player.
    fn bot(&self, _rules: &TableRules) -> PlayerPolicy {
        self.clone()
    }
}

impl crate::play::Bot<super::Veintiuno> for PlayerPolicy {
    #[inline]
    fn act(&mut self, view: &SittingView<'_>, _rng: &mut Stream) -> Move {
        self.decide(view.decision())
    }

    /// Every seat plays a policy: the sitting plays its decisions in one loop.
    #[inline]
    fn play_out(
        game: &mut Sitting,
        bots: &mut [PlayerPolicy],
        seat_bot: &[usize],
        _deal: &mut Stream,
        _decisions: &mut Stream,
    ) -> bool {
        game.play_out(|seat, d| bots[seat_bot[seat]].decide(d));
        true
    }
}
