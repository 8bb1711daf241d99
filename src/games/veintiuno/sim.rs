//! `tahur veintiuno sim`: many hands on the shared runner. Each chunk is a fresh table (new
//! shoe, bank drawn by high card) playing its hands in a row, so shoe depletion and the
//! rotating bank are part of every chunk.

use serde::{Deserialize, Serialize};

use super::engine::{BankPolicy, PlayerPolicy, Table, MAX_SEATS, SPECIAL_NAMES};
use super::rules::Options;
use crate::error::{Error, Result};
use crate::humanize;
use crate::report::{Report, Table as ReportTable, Value};
use crate::rng::{SeedableRng, Stream};
use crate::runner::{RunSummary, Simulation, Tally};
use crate::stats::MeanEstimate;
use crate::text::Spec;

/// Hands per chunk (part of a run's definition).
pub const HANDS_CHUNK: u64 = 4096;
/// Shoe-depth buckets for the bank's edge.
pub const DEPTH_BUCKETS: usize = 10;

/// The setup of `veintiuno sim`, the hand-by-hand simulation: a table of seats, each playing a
/// policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandSimSetup {
    /// House rules.
    pub options: Options,
    /// Player policy of each seat (every seat also takes its turn as bank).
    pub policies: Vec<PlayerPolicy>,
    /// The bank's policy.
    pub bank: BankPolicy,
    /// Check that no card is dealt twice per shoe and that money is conserved in every hand.
    pub check: bool,
}

impl HandSimSetup {
    /// Seats get the listed policies in order, repeated if the list is shorter.
    pub fn new(
        options: Options,
        players: usize,
        list: &[PlayerPolicy],
        bank: BankPolicy,
        check: bool,
    ) -> Result<Self> {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(Error::usage(format!(
                "invalid --players {players}: a table seats 2 to {MAX_SEATS}, bank included"
            )));
        }
        if list.is_empty() || list.len() > players {
            return Err(Error::usage(format!(
                "{} policies for {players} players: give 1 to {players}",
                list.len()
            )));
        }
        if !(12..=21).contains(&bank.stand) {
            return Err(Error::usage(format!(
                "invalid --bank-stand {}: the bank stands at 12 to 21",
                bank.stand
            )));
        }
        if bank.sees && bank.stand != BankPolicy::default().stand {
            return Err(Error::usage(format!(
                "--bank-stand {} is the total of the bank that draws to a fixed total: add \
                 --bank-draw fixed (the default bank draws by what it sees and has none)",
                bank.stand
            )));
        }
        Ok(Self {
            options,
            policies: (0..players).map(|i| list[i % list.len()].clone()).collect(),
            bank,
            check,
        })
    }
}

/// The policies, for help and messages.
pub const POLICIES: &str = "policies are basic, pie (basic, ending the hand on 13 as pie de banco), mimic[:S] (hit below S), sheet and sheet:FILE.json (betting the maximum on an ace or a figure face down), flat (the sheet's play, always the minimum bet), or in Spanish básica, banca[:S], hoja, hoja:FILE.json, plana";

/// Parses a policy: `basic`, `pie` (basic, and as pie de banco ends the hand on 13), `mimic`,
/// `mimic:16` (or `mimic:stand=16`), `sheet` (the fresh-deck sheet shipped in
/// `data/veintiuno/strategy.json`) or `sheet:FILE.json` (a sheet from `veintiuno strategy
/// --write`); in Spanish `básica`, `banca[:S]`, `hoja[:FILE.json]`.
pub fn parse_policy(name: &str) -> Result<PlayerPolicy> {
    let spec = Spec::parse(name, "policy")?;
    match spec.name.as_str() {
        "sheet" | "hoja" => {
            static SHIPPED: &str = include_str!("../../../data/veintiuno/strategy.json");
            let (text, label) = match spec.params(&["file"])?.text("file") {
                None => (SHIPPED.to_string(), "sheet".to_string()),
                Some(path) => (
                    std::fs::read_to_string(path)
                        .map_err(|e| Error::usage(format!("cannot read sheet '{path}': {e}")))?,
                    format!("sheet:{path}"),
                ),
            };
            let sheet: super::strategy::Sheet = serde_json::from_str(&text).map_err(|e| {
                Error::usage(format!("'{label}' is not a strategy sheet ({e}); write one with `tahur veintiuno strategy --write FILE.json`"))
            })?;
            Ok(super::strategy::to_policy(&sheet, &label))
        }
        "flat" | "plana" => {
            spec.params(&[])?;
            let shipped: super::strategy::Sheet = serde_json::from_str(super::advise::SHIPPED)
                .map_err(|e| Error::usage(format!("the shipped sheet does not read: {e}")))?;
            let mut p = super::strategy::to_policy(&shipped, "flat");
            p.raise = [false; 10];
            Ok(p)
        }
        "basic" | "basica" => {
            spec.params(&[])?;
            Ok(PlayerPolicy::basic())
        }
        "pie" => {
            spec.params(&[])?;
            let mut p = PlayerPolicy::basic();
            p.name = "pie".into();
            p.void_as_pie = true;
            Ok(p)
        }
        "mimic" | "banca" => {
            let stand = spec.params(&["stand"])?.count("stand", 12, 21, 17)?;
            Ok(PlayerPolicy::mimic(stand as u8))
        }
        _ => Err(spec.unknown(POLICIES)),
    }
}

/// Integer counts of many hands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandTally {
    /// Hands played.
    pub hands: u64,
    /// Hands each seat played as a player.
    pub player_hands: Vec<u64>,
    /// Each seat's net as a player.
    pub player_net: Vec<i64>,
    /// Σ of each seat's squared per-hand net.
    pub player_net_sq: Vec<u64>,
    /// Hands each seat held the bank.
    pub bank_hands: Vec<u64>,
    /// Each seat's net while holding the bank.
    pub bank_net_by_seat: Vec<i64>,
    /// The bank's net (whoever held it).
    pub bank_net: i64,
    /// Σ of the bank's squared per-hand net.
    pub bank_net_sq: u64,
    /// Shoes started.
    pub shoes: u64,
    /// Hands by shoe depth at their start (tenths of the shoe dealt).
    pub depth_hands: Vec<u64>,
    /// The bank's net by shoe depth.
    pub depth_bank_net: Vec<i64>,
    /// Specials dealt to player hands (see `SPECIAL_NAMES`).
    pub specials: Vec<u64>,
    /// Net paid on hands with each special.
    pub special_net: Vec<i64>,
    /// Withdrawals on 13.
    pub withdrawals: u64,
    /// Tapo y quedo.
    pub tapos: u64,
    /// Splits.
    pub splits: u64,
    /// Hands sent al puje.
    pub puje: u64,
    /// Hands ended by the pie de banco on 13.
    #[serde(default)]
    pub voided: u64,
    /// Times the bank was stolen.
    pub steals: u64,
    /// Hands whose money did not add up (with checks on; always 0).
    pub violations: u64,
    /// Decks opened because a hand needed every card of the shoe.
    pub extra_decks: u64,
    /// Player hands by the rank of the face-down card (ace … king).
    #[serde(default)]
    pub first_hands: Vec<u64>,
    /// Units bet on those hands (first bets).
    #[serde(default)]
    pub first_bets: Vec<i64>,
    /// Their net.
    #[serde(default)]
    pub first_net: Vec<i64>,
    /// Σ of their squared net (in units², not per unit bet: [`HandTally::first_card_ev`]
    /// scales by the mean bet, exact when every bet on a rank is alike).
    #[serde(default)]
    pub first_net_sq: Vec<u64>,
}

impl HandTally {
    /// The result per unit bet of player hands whose face-down card has rank `rank` (0 = ace),
    /// with its 95 % interval: Σ net / Σ bet, its standard error from the spread of the nets
    /// scaled by the mean bet (exact when every bet on the rank is the same, as a policy that
    /// bets by the face-down card makes it without a bankroll cap).
    pub fn first_card_ev(&self, rank: usize) -> Option<MeanEstimate> {
        let n = *self.first_hands.get(rank)?;
        if n == 0 {
            return None;
        }
        let bet = self.first_bets[rank] as f64 / n as f64;
        let m = MeanEstimate::from_sums(
            n,
            self.first_net[rank] as i128,
            self.first_net_sq[rank] as u128,
        );
        Some(m.scaled(1.0 / bet))
    }
}

impl Tally for HandTally {
    fn absorb(&mut self, o: &Self) {
        fn add<T: Copy + std::ops::AddAssign + Default>(a: &mut Vec<T>, b: &[T]) {
            if a.len() < b.len() {
                a.resize(b.len(), T::default());
            }
            for (x, &y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.hands += o.hands;
        add(&mut self.player_hands, &o.player_hands);
        add(&mut self.player_net, &o.player_net);
        add(&mut self.player_net_sq, &o.player_net_sq);
        add(&mut self.bank_hands, &o.bank_hands);
        add(&mut self.bank_net_by_seat, &o.bank_net_by_seat);
        self.bank_net += o.bank_net;
        self.bank_net_sq += o.bank_net_sq;
        self.shoes += o.shoes;
        add(&mut self.depth_hands, &o.depth_hands);
        add(&mut self.depth_bank_net, &o.depth_bank_net);
        add(&mut self.specials, &o.specials);
        add(&mut self.special_net, &o.special_net);
        self.withdrawals += o.withdrawals;
        self.tapos += o.tapos;
        self.splits += o.splits;
        self.puje += o.puje;
        self.voided += o.voided;
        self.steals += o.steals;
        self.violations += o.violations;
        self.extra_decks += o.extra_decks;
        add(&mut self.first_hands, &o.first_hands);
        add(&mut self.first_bets, &o.first_bets);
        add(&mut self.first_net, &o.first_net);
        add(&mut self.first_net_sq, &o.first_net_sq);
    }
}

/// The hand simulation.
pub struct HandSimulation {
    setup: HandSimSetup,
    /// A table built once; every chunk restarts a copy of it with its own stream.
    template: Table,
}

impl HandSimulation {
    /// The simulation of a table.
    pub fn new(setup: &HandSimSetup) -> Self {
        let template = Table::new(
            setup.options,
            setup.policies.clone(),
            setup.bank,
            Stream::seed_from_u64(0),
            setup.check,
        );
        Self {
            setup: setup.clone(),
            template,
        }
    }
}

impl Simulation for HandSimulation {
    type Tally = HandTally;
    fn chunk_size(&self) -> u64 {
        HANDS_CHUNK
    }
    fn empty_tally(&self) -> HandTally {
        let n = self.setup.policies.len();
        HandTally {
            player_hands: vec![0; n],
            player_net: vec![0; n],
            player_net_sq: vec![0; n],
            bank_hands: vec![0; n],
            bank_net_by_seat: vec![0; n],
            depth_hands: vec![0; DEPTH_BUCKETS],
            depth_bank_net: vec![0; DEPTH_BUCKETS],
            specials: vec![0; SPECIAL_NAMES.len()],
            special_net: vec![0; SPECIAL_NAMES.len()],
            first_hands: vec![0; 10],
            first_bets: vec![0; 10],
            first_net: vec![0; 10],
            first_net_sq: vec![0; 10],
            ..Default::default()
        }
    }
    fn run_chunk(&self, stream: &mut Stream, hands: u64, t: &mut HandTally) {
        let s = &self.setup;
        let rng = Stream::seed_from_u64(crate::rng::Rng::next_u64(stream));
        let mut table = self.template.clone();
        table.restart(rng);
        let shoe_len = 40 * s.options.decks as usize;
        // Shoe position → tenth of the shoe dealt, looked up instead of divided per hand.
        let depth_bucket: Vec<u8> = (0..shoe_len)
            .map(|p| (p * DEPTH_BUCKETS / shoe_len) as u8)
            .collect();
        let n = s.policies.len();
        t.shoes += 1; // the table's first shoe
                      // Chunk-local fixed-size accumulators: no bounds checks in the per-hand loop.
        let mut player_hands = [0u64; MAX_SEATS];
        let mut player_net = [0i64; MAX_SEATS];
        let mut player_sq = [0u64; MAX_SEATS];
        let mut bank_hands = [0u64; MAX_SEATS];
        let mut bank_by_seat = [0i64; MAX_SEATS];
        let mut depth_hands = [0u64; DEPTH_BUCKETS];
        let mut depth_net = [0i64; DEPTH_BUCKETS];
        let mut specials = [0u64; 7];
        let mut special_net = [0i64; 7];
        let mut first_hands = [0u64; 10];
        let mut first_bets = [0i64; 10];
        let mut first_net = [0i64; 10];
        let mut first_sq = [0u64; 10];
        for _ in 0..hands {
            let r = table.play_hand();
            for seat in 0..n {
                let x = r.player_net[seat] as i64;
                let player = (seat != r.bank) as u64;
                player_hands[seat] += player;
                player_net[seat] += x;
                player_sq[seat] += (x * x) as u64;
                let k = r.first_rank[seat] as usize % 10;
                first_hands[k] += player;
                first_bets[k] += r.first_bet[seat] as i64;
                first_net[k] += x;
                first_sq[k] += (x * x) as u64;
            }
            let b = r.bank_net as i64;
            bank_hands[r.bank] += 1;
            bank_by_seat[r.bank] += b;
            t.bank_net += b;
            t.bank_net_sq += (b * b) as u64;
            t.shoes += r.new_shoe as u64;
            let d = depth_bucket
                .get(r.depth as usize)
                .copied()
                .unwrap_or(DEPTH_BUCKETS as u8 - 1) as usize;
            depth_hands[d] += 1;
            depth_net[d] += b;
            for k in 0..7 {
                specials[k] += r.specials[k] as u64;
                special_net[k] += r.special_net[k] as i64;
            }
            t.withdrawals += r.withdrawals as u64;
            t.tapos += r.tapos as u64;
            t.splits += r.splits as u64;
            t.puje += r.puje as u64;
            t.voided += r.voided as u64;
            t.steals += r.stolen as u64;
            if s.check && r.bank_net + r.player_net.iter().sum::<i32>() != 0 {
                t.violations += 1;
            }
        }
        t.hands += hands;
        for seat in 0..n {
            t.player_hands[seat] += player_hands[seat];
            t.player_net[seat] += player_net[seat];
            t.player_net_sq[seat] += player_sq[seat];
            t.bank_hands[seat] += bank_hands[seat];
            t.bank_net_by_seat[seat] += bank_by_seat[seat];
        }
        for k in 0..DEPTH_BUCKETS {
            t.depth_hands[k] += depth_hands[k];
            t.depth_bank_net[k] += depth_net[k];
        }
        for k in 0..7 {
            t.specials[k] += specials[k];
            t.special_net[k] += special_net[k];
        }
        for k in 0..10 {
            t.first_hands[k] += first_hands[k];
            t.first_bets[k] += first_bets[k];
            t.first_net[k] += first_net[k];
            t.first_net_sq[k] += first_sq[k];
        }
        t.extra_decks += table.extra_decks as u64;
    }
}

/// Per-hand mean and interval from an integer sum and sum of squares.
fn mean(n: u64, sum: i64, sq: u64) -> MeanEstimate {
    MeanEstimate::from_sums(n, sum as i128, sq as u128)
}

/// The chart of a simulation: each seat's EV per hand as a player and the bank's result per
/// hand, each a dot with its 95 % interval, and a dashed line at zero (an even game).
pub fn chart(setup: &HandSimSetup, t: &HandTally) -> crate::report::chart::Chart {
    use crate::report::chart::{Chart, Dot, DotChart, RefLine, Unit};
    let dot = |label: String, n: u64, net: i64, sq: u64| {
        let m = mean(n, net, sq);
        let ci = m.interval(0.95);
        Dot {
            label,
            value: if m.n == 0 { f64::NAN } else { m.mean },
            low: ci.low,
            high: ci.high,
        }
    };
    let mut dots: Vec<Dot> = setup
        .policies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            dot(
                format!("seat {} ({}) as player", i + 1, p.name),
                t.player_hands[i],
                t.player_net[i],
                t.player_net_sq[i],
            )
        })
        .collect();
    dots.push(dot("the bank".into(), t.hands, t.bank_net, t.bank_net_sq));
    Chart::Dot(DotChart {
        title: format!(
            "21 ecuatoriano · result per hand · {} players",
            setup.policies.len()
        ),
        x_label: "result per hand (betting units)".into(),
        x_unit: Unit::Number,
        dots,
        dot_legend: "mean per hand, 95 % interval".into(),
        marks: vec![RefLine::new(0.0, "even")],
    })
}

/// The report of a simulation.
pub fn report(setup: &HandSimSetup, t: &HandTally, run: &RunSummary) -> Report {
    let names: Vec<&str> = setup.policies.iter().map(|p| p.name.as_str()).collect();
    let mut r = Report::new(format!(
        "21 ecuatoriano · {} players (bank rotating) · {}",
        setup.policies.len(),
        names.join(", ")
    ));
    r.run_size("hands", "hands", t.hands, run);
    r.field("bank_net", "bank net (units)", Value::Int(t.bank_net));
    let bank = mean(t.hands, t.bank_net, t.bank_net_sq);
    let bci = bank.interval(0.95);
    r.field_plain(
        "bank_per_hand",
        "bank's result per hand",
        Value::Num(bank.mean, 4),
        "what holding the bank is worth per hand".into(),
    );
    r.field(
        "bank_per_hand_ci95",
        "95 % interval",
        Value::NumInterval(bci.low, bci.high, 4),
    );
    let player_hands: u64 = t.player_hands.iter().sum();
    // Per unit bet: every player hand's first bet (one unit each at the default limits).
    let units: i64 = t.first_bets.iter().sum();
    let edge = if units == 0 {
        0.0
    } else {
        t.bank_net as f64 / units as f64
    };
    r.field("bank_edge", "bank's edge per unit bet", Value::Prob(edge));
    r.field(
        "bank_per_shoe",
        "bank's result per shoe",
        Value::Num(t.bank_net as f64 / t.shoes.max(1) as f64, 3),
    );
    r.field(
        "hands_per_shoe",
        "hands per shoe",
        Value::Num(t.hands as f64 / t.shoes.max(1) as f64, 2),
    );
    r.field(
        "bank_change_rate",
        "bank changes hands (per hand)",
        Value::Prob(t.steals as f64 / t.hands.max(1) as f64),
    );
    r.field(
        "puje",
        "hands sent al puje",
        Value::Prob(t.puje as f64 / t.hands.max(1) as f64),
    );
    if t.voided > 0 {
        r.field(
            "voided",
            "hands ended by the pie de banco on 13",
            Value::Prob(t.voided as f64 / t.hands.max(1) as f64),
        );
    }
    if t.extra_decks > 0 {
        r.note(format!(
            "{} times a hand needed every card of the shoe and the dealer opened one more deck for the rest of that table's play.",
            humanize::thousands(t.extra_decks)
        ));
    }
    if setup.check {
        r.field(
            "violations",
            "hands where money or cards did not add up",
            Value::Int(t.violations as i64),
        );
    }
    let mut seats = ReportTable::new(
        "seats",
        "Seats",
        &[
            ("seat", "seat"),
            ("policy", "policy"),
            ("hands", "hands as player"),
            ("net", "net as player"),
            ("ev", "EV per hand"),
            ("ci95", "95 % interval"),
            ("bank_hands", "hands as bank"),
            ("bank_net", "net as bank"),
        ],
    );
    seats.top_level = true;
    for (i, name) in names.iter().enumerate() {
        let m = mean(t.player_hands[i], t.player_net[i], t.player_net_sq[i]);
        let ci = m.interval(0.95);
        seats.push(vec![
            Value::Int(i as i64 + 1),
            Value::Text(name.to_string()),
            Value::Int(t.player_hands[i] as i64),
            Value::Int(t.player_net[i]),
            Value::Num(if m.n == 0 { 0.0 } else { m.mean }, 4),
            Value::NumInterval(ci.low, ci.high, 4),
            Value::Int(t.bank_hands[i] as i64),
            Value::Int(t.bank_net_by_seat[i]),
        ]);
    }
    r.tables.push(seats);
    let mut by_first = ReportTable::new(
        "by_face_down_card",
        "By the player's face-down card (seen before betting): result per unit bet",
        &[
            ("card", "face-down card"),
            ("hands", "player hands"),
            ("bet", "mean bet"),
            ("ev", "result per unit bet"),
            ("ci95", "95 % interval"),
        ],
    );
    for rank in 0..10 {
        if let Some(m) = t.first_card_ev(rank) {
            let ci = m.interval(0.95);
            by_first.push(vec![
                Value::Text(super::cards::RANKS[rank].to_string()),
                Value::Int(t.first_hands[rank] as i64),
                Value::Num(t.first_bets[rank] as f64 / t.first_hands[rank] as f64, 2),
                Value::Num(m.mean, 4),
                Value::NumInterval(ci.low, ci.high, 4),
            ]);
        }
    }
    if !by_first.rows.is_empty() {
        r.tables.push(by_first);
    }
    let mut sp = ReportTable::new(
        "specials",
        "Specials (player hands)",
        &[
            ("special", "special"),
            ("count", "count"),
            ("per_hand", "per player hand"),
            ("net", "net paid"),
            ("ev_contribution", "EV contribution per player hand"),
        ],
    );
    for (k, name) in SPECIAL_NAMES.iter().enumerate() {
        let ph = player_hands.max(1) as f64;
        sp.push(vec![
            Value::Label(super::engine::SPECIAL_LABELS[k].into(), name.to_string()),
            Value::Int(t.specials[k] as i64),
            Value::Prob(t.specials[k] as f64 / ph),
            Value::Int(t.special_net[k]),
            Value::Num(t.special_net[k] as f64 / ph, 5),
        ]);
    }
    r.tables.push(sp);
    let mut depth = ReportTable::new(
        "depth",
        "Bank's result by shoe depth",
        &[
            ("dealt", "shoe dealt"),
            ("hands", "hands"),
            ("bank_per_hand", "bank per hand"),
        ],
    );
    for b in 0..DEPTH_BUCKETS {
        if t.depth_hands[b] > 0 {
            depth.push(vec![
                Value::Text(format!("{}–{} %", b * 10, b * 10 + 10)),
                Value::Int(t.depth_hands[b] as i64),
                Value::Num(t.depth_bank_net[b] as f64 / t.depth_hands[b] as f64, 4),
            ]);
        }
    }
    r.tables.push(depth);
    r.note(format!(
        "Withdrawals {}, tapo y quedo {}, splits {}. Money is conserved: the bank's net plus every seat's net as a player is exactly 0.",
        humanize::thousands(t.withdrawals),
        humanize::thousands(t.tapos),
        humanize::thousands(t.splits)
    ));
    for n in run.notes() {
        r.note(n);
    }
    r
}
