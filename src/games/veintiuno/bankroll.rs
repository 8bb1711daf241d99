//! `tahur veintiuno bankroll`: sittings with chips, as the text plays them ("se juega hasta que
//! un jugador tenga todas las fichas"). Every seat starts with its chips (the first bank with
//! `bank_chips` when given); each hand every player bets on the face-down card as its policy
//! says, between the bank's minimum and maximum and never more than its chips (a split only
//! while its stake fits); losers pay the bank, then the bank pays the winners in playing order
//! with what it holds — a bank that cannot pay everyone, or is left with nothing, is broken
//! ("desbancado"): it pays what it has and leaves, the bank passing to its right. A player left
//! with less than the minimum leaves too. The sitting ends when one seat holds every chip (or
//! after `max_hands`, counted as unfinished).
//!
//! Besides who ends with everything, the run measures the first bank's risk: the chance that the
//! seat that draws the bank is broken before the bank changes hands — simulated, and computed
//! exactly as a gambler's ruin on the distribution of the bank's result per hand over the same
//! hands (which takes the hands as independent: the shoe is not, so the two differ by what the
//! shoe's memory and the players' limits do; with many decks and deep players they agree).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::engine::{BankPolicy, PlayerPolicy, Table, MAX_SEATS};
use super::rules::Options;
use crate::error::{Error, Result};
use crate::report::{Report, Table as ReportTable, Value};
use crate::rng::{SeedableRng, Stream};
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::wilson95;

/// Sittings per chunk (part of a run's definition).
pub const SITTINGS_CHUNK: u64 = 16;

/// The setup of `veintiuno bankroll`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BankrollSetup {
    /// House rules (the bet limits among them).
    pub options: Options,
    /// Player policy of each seat.
    pub policies: Vec<PlayerPolicy>,
    /// The bank's policy.
    pub bank: BankPolicy,
    /// Chips each seat starts with.
    pub chips: u32,
    /// Chips the first bank starts with (the others start with `chips`); `None`: `chips`.
    pub bank_chips: Option<u32>,
    /// A sitting still going after this many hands stops, unfinished.
    pub max_hands: u64,
}

impl BankrollSetup {
    /// Checks the setup: seats, chips against the minimum bet, the hand limit.
    pub fn new(
        options: Options,
        players: usize,
        list: &[PlayerPolicy],
        bank: BankPolicy,
        chips: u32,
        bank_chips: Option<u32>,
        max_hands: u64,
    ) -> Result<Self> {
        let setup = super::sim::HandSimSetup::new(options, players, list, bank, false)?;
        let least = chips.min(bank_chips.unwrap_or(chips));
        if (least as u64) < options.bet_min as u64 {
            return Err(Error::usage(format!(
                "--chips {least}: fewer chips than the minimum bet ({}); give at least {}",
                options.bet_min, options.bet_min
            )));
        }
        if max_hands == 0 {
            return Err(Error::usage(
                "--max-hands 0: give at least 1 hand per sitting",
            ));
        }
        Ok(Self {
            options,
            policies: setup.policies,
            bank,
            chips,
            bank_chips,
            max_hands,
        })
    }

    fn total_chips(&self) -> i64 {
        let n = self.policies.len() as i64;
        let bank = self.bank_chips.unwrap_or(self.chips) as i64;
        self.chips as i64 * (n - 1) + bank
    }
}

/// Integer counts of many sittings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankrollTally {
    /// Sittings played.
    pub sittings: u64,
    /// Sittings that ended with one seat holding everything.
    pub finished: u64,
    /// Sittings each seat ended holding everything.
    pub winner: Vec<u64>,
    /// Sittings each seat was the first to be broken.
    pub first_broken: Vec<u64>,
    /// Sittings the first bank ended holding everything.
    pub first_bank_won: u64,
    /// Hands played, and Σ of the squared hands per sitting.
    pub hands: u64,
    /// Σ hands² per sitting.
    pub hands_sq: u128,
    /// Bank tenures (a seat holding the bank from when it takes it to when it loses it).
    pub tenures: u64,
    /// Tenures ended by the bank being broken.
    pub tenures_broken: u64,
    /// First tenures (the seat that drew the bank) ended broken before the bank changed hands.
    pub first_broken_bank: u64,
    /// First tenures that ended (broken or stolen) before the sitting stopped.
    pub first_ended: u64,
    /// The bank's result of each hand of the first tenures: net → [hands kept, hands after
    /// which the bank changed hands].
    pub first_hand_nets: BTreeMap<i32, [u64; 2]>,
    /// Hands where the chips did not add up (always 0).
    pub violations: u64,
}

impl Tally for BankrollTally {
    fn absorb(&mut self, o: &Self) {
        fn add(a: &mut Vec<u64>, b: &[u64]) {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, &y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.sittings += o.sittings;
        self.finished += o.finished;
        add(&mut self.winner, &o.winner);
        add(&mut self.first_broken, &o.first_broken);
        self.first_bank_won += o.first_bank_won;
        self.hands += o.hands;
        self.hands_sq += o.hands_sq;
        self.tenures += o.tenures;
        self.tenures_broken += o.tenures_broken;
        self.first_broken_bank += o.first_broken_bank;
        self.first_ended += o.first_ended;
        for (&k, v) in &o.first_hand_nets {
            let e = self.first_hand_nets.entry(k).or_default();
            e[0] += v[0];
            e[1] += v[1];
        }
        self.violations += o.violations;
    }
}

/// The bankroll simulation.
pub struct BankrollSimulation {
    setup: BankrollSetup,
    template: Table,
}

impl BankrollSimulation {
    /// The simulation of a setup.
    pub fn new(setup: &BankrollSetup) -> Self {
        let template = Table::new(
            setup.options,
            setup.policies.clone(),
            setup.bank,
            Stream::seed_from_u64(0),
            false,
        );
        Self {
            setup: setup.clone(),
            template,
        }
    }

    /// Plays one sitting from `rng` into `t`.
    fn sitting(&self, table: &mut Table, rng: Stream, t: &mut BankrollTally) {
        let s = &self.setup;
        let n = s.policies.len();
        table.restart(rng);
        let mut chips = [0i64; MAX_SEATS];
        let first_bank = table.bank();
        for (seat, c) in chips.iter_mut().enumerate().take(n) {
            *c = if seat == first_bank {
                s.bank_chips.unwrap_or(s.chips)
            } else {
                s.chips
            } as i64;
        }
        let total = s.total_chips();
        let min = s.options.bet_min as i64;
        let mut in_first_tenure = true;
        let mut any_broken = false;
        let mut hands = 0u64;
        t.tenures += 1;
        while hands < s.max_hands && table.seats_in() > 1 {
            for (seat, &c) in chips.iter().enumerate().take(n) {
                table.set_cap(seat, Some(c));
            }
            let r = table.play_hand();
            hands += 1;
            let bank = r.bank;
            // Losers pay the bank; then the bank pays the winners in playing order.
            let mut purse = chips[bank];
            for (seat, c) in chips.iter_mut().enumerate().take(n) {
                if seat != bank && r.player_net[seat] < 0 {
                    *c += r.player_net[seat] as i64;
                    purse -= r.player_net[seat] as i64;
                }
            }
            let mut short = false;
            for k in 1..n {
                let seat = (bank + k) % n;
                let win = r.player_net[seat] as i64;
                if win > 0 {
                    let paid = win.min(purse);
                    short |= paid < win;
                    purse -= paid;
                    chips[seat] += paid;
                }
            }
            chips[bank] = purse;
            if chips[..n].iter().sum::<i64>() != total {
                t.violations += 1;
            }
            let broken_bank = short || purse <= 0;
            if in_first_tenure {
                let e = t.first_hand_nets.entry(r.bank_net).or_default();
                e[r.stolen as usize] += 1;
                if broken_bank || r.stolen {
                    in_first_tenure = false;
                    t.first_ended += 1;
                    t.first_broken_bank += broken_bank as u64;
                }
            }
            if broken_bank {
                t.tenures_broken += 1;
            }
            if broken_bank || r.stolen {
                t.tenures += 1;
            }
            // Who can no longer play leaves (a broken bank among them).
            let holder = table.bank();
            for (seat, &c) in chips.iter().enumerate().take(n) {
                // The bank needs chips to pay with; a player needs the minimum bet.
                let gone = if seat == holder { c <= 0 } else { c < min };
                if gone && table.seats_in() > 1 && !table.is_out(seat) {
                    if !any_broken {
                        any_broken = true;
                        t.first_broken[seat] += 1;
                    }
                    table.leave(seat);
                }
            }
        }
        t.sittings += 1;
        t.hands += hands;
        t.hands_sq += (hands as u128) * (hands as u128);
        if table.seats_in() == 1 {
            t.finished += 1;
            if let Some(w) = (0..n).find(|&s| !table.is_out(s)) {
                t.winner[w] += 1;
                t.first_bank_won += (w == first_bank) as u64;
            }
        }
    }
}

impl Simulation for BankrollSimulation {
    type Tally = BankrollTally;
    fn chunk_size(&self) -> u64 {
        SITTINGS_CHUNK
    }
    fn empty_tally(&self) -> BankrollTally {
        let n = self.setup.policies.len();
        BankrollTally {
            winner: vec![0; n],
            first_broken: vec![0; n],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, sittings: u64, t: &mut BankrollTally) {
        let mut table = self.template.clone();
        for _ in 0..sittings {
            let rng = Stream::seed_from_u64(crate::rng::Rng::next_u64(stream));
            self.sitting(&mut table, rng, t);
        }
    }
}

/// The chance that a bank holding `chips` is broken before the bank changes hands, when each
/// hand's result for the bank is drawn independently from `nets` (net → [count kept, count
/// after which the bank changes hands]): the gambler's ruin R(c) = Σ p(net, changed) · [c + net
/// ≤ 0 → 1; changed → 0; else R(c + net)], solved by value iteration (Gauss–Seidel) over c up to
/// `chips + K · gain`, `gain` the largest gain of a hand, above which R is taken as 0. Climbing
/// that far takes at least K hands without the bank changing hands, so K is the least with
/// (1 − p_change)^K ≤ 1e-10, which bounds the error. `None` without hands, when the bank almost
/// never changes hands (p_change < 1 %: `steal=off`), or when the states times the outcomes
/// pass 5·10⁷ (very large bets).
pub fn ruin_before_change(nets: &BTreeMap<i32, [u64; 2]>, chips: u32) -> Option<f64> {
    let total: u64 = nets.values().map(|v| v[0] + v[1]).sum();
    if total == 0 {
        return None;
    }
    let outcomes: Vec<(i64, f64, bool)> = nets
        .iter()
        .flat_map(|(&net, v)| {
            [(net as i64, v[0], false), (net as i64, v[1], true)]
                .into_iter()
                .filter(|o| o.1 > 0)
                .map(|(x, k, ch)| (x, k as f64 / total as f64, ch))
        })
        .collect();
    let p_change: f64 = outcomes.iter().filter(|o| o.2).map(|o| o.1).sum();
    if p_change < 0.01 {
        return None;
    }
    let hands = ((1e-10f64).ln() / (1.0 - p_change).ln()).ceil().max(1.0) as i64;
    let gain = outcomes.iter().map(|o| o.0).max().unwrap_or(0).max(1);
    let top = chips as i64 + hands * gain;
    if top as f64 * outcomes.len() as f64 > 5e7 {
        return None;
    }
    let mut r = vec![0f64; top as usize + 1];
    // Each sweep shrinks the error by at least 1 − p_change.
    for _ in 0..100_000 {
        let mut change = 0f64;
        for c in 1..=top {
            let v: f64 = outcomes
                .iter()
                .map(|&(x, p, changed)| {
                    let next = c + x;
                    p * if next <= 0 {
                        1.0
                    } else if changed || next > top {
                        0.0
                    } else {
                        r[next as usize]
                    }
                })
                .sum();
            change = change.max((v - r[c as usize]).abs());
            r[c as usize] = v;
        }
        if change < 1e-15 {
            break;
        }
    }
    Some(r[chips as usize])
}

/// The report of a run.
pub fn report(setup: &BankrollSetup, t: &BankrollTally, run: &RunSummary) -> Report {
    let names: Vec<&str> = setup.policies.iter().map(|p| p.name.as_str()).collect();
    let o = &setup.options;
    let mut r = Report::new(format!(
        "21 ecuatoriano with chips · {} players, {} chips each{} · bets {} to {} · {}",
        setup.policies.len(),
        setup.chips,
        setup
            .bank_chips
            .map(|b| format!(" (the first bank {b})"))
            .unwrap_or_default(),
        o.bet_min,
        o.bet_max,
        names.join(", ")
    ));
    r.run_size("sittings", "sittings", t.sittings, run);
    let n = t.sittings.max(1);
    let (p, ci) = wilson95(t.finished, t.sittings);
    r.field_plain(
        "finished_rate",
        "sittings ended with one seat holding everything",
        Value::Prob(p.estimate()),
        format!(
            "the others stopped after {} hands",
            crate::humanize::thousands(setup.max_hands)
        ),
    );
    r.field(
        "finished_rate_ci95",
        "95 % interval",
        Value::ProbInterval(ci.low, ci.high),
    );
    let length = crate::stats::MeanEstimate::from_sums(t.sittings, t.hands as i128, t.hands_sq);
    let lci = length.interval(0.95);
    r.field(
        "hands_per_sitting",
        "hands per sitting",
        Value::Num(t.hands as f64 / n as f64, 1),
    );
    r.field(
        "hands_per_sitting_ci95",
        "95 % interval",
        Value::NumInterval(lci.low, lci.high, 1),
    );
    let (fb, fbci) = wilson95(t.first_broken_bank, t.first_ended);
    r.field_plain(
        "first_bank_broken_rate",
        "the first bank is broken before the bank changes hands",
        Value::Prob(fb.estimate()),
        crate::humanize::odds(fb.estimate()),
    );
    r.field(
        "first_bank_broken_rate_ci95",
        "95 % interval",
        Value::ProbInterval(fbci.low, fbci.high),
    );
    let bank_chips = setup.bank_chips.unwrap_or(setup.chips);
    if let Some(exact) = ruin_before_change(&t.first_hand_nets, bank_chips) {
        r.field_plain(
            "first_bank_broken_independent",
            "the same, hands taken as independent (gambler's ruin)",
            Value::Prob(exact),
            "exact on the bank's result per hand in those hands".into(),
        );
    }
    let (tb, tbci) = wilson95(t.tenures_broken, t.tenures);
    r.field(
        "bank_broken_rate",
        "banks broken (per holding of the bank)",
        Value::Prob(tb.estimate()),
    );
    r.field(
        "bank_broken_rate_ci95",
        "95 % interval",
        Value::ProbInterval(tbci.low, tbci.high),
    );
    r.field(
        "first_bank_everything_rate",
        "the first bank ends with everything",
        Value::Prob(t.first_bank_won as f64 / n as f64),
    );
    let mut seats = ReportTable::new(
        "seats",
        "Seats",
        &[
            ("seat", "seat"),
            ("policy", "policy"),
            ("everything_rate", "ends with everything"),
            ("ci95", "95 % interval"),
            ("first_broken_rate", "first broken"),
        ],
    );
    seats.top_level = true;
    for (i, name) in names.iter().enumerate() {
        let (w, wci) = wilson95(t.winner[i], t.sittings);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.to_string()),
            Value::Prob(w.estimate()),
            Value::ProbInterval(wci.low, wci.high),
            Value::Prob(t.first_broken[i] as f64 / n as f64),
        ]);
    }
    r.tables.push(seats);
    r.note(format!(
        "Chips are conserved in every hand ({} hands where they did not add up). The first bank is drawn by high card; seats are numbered round the table.",
        t.violations
    ));
    r
}
