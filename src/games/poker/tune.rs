//! `tahur poker tune`: the `threshold` parameters (call threshold, bluff level) that win most
//! against a chosen field, for each table size. One seat plays the candidate and the others one
//! strategy of the field, then the next strategy of the field, and so on: a candidate's score
//! is its wins against all of them, so the winner does well against callers, believers and
//! bluffers alike rather than exploiting one. Every candidate plays the same games (same seed:
//! common random numbers), so the comparison between candidates is paired. The winners are
//! written to `data/poker/tuned.csv`, which the `tuned` strategy reads, and as a Markdown sheet,
//! with two checks ([`check`]): each winner head to head against `honest` and `threshold`, and
//! an audit of the field's claims — how often those a receiver gets are true, by their chance
//! given the face-up dice, against how often accepting them loses the hand — which says why the
//! best call threshold is what it is.

use super::bots::{Strategy, DEFAULT_CALL};
use super::rules::Rules;
use super::Poker;
use crate::error::Result;
use crate::play::tune::Grid;
use crate::report::{Report, Table, Value};
use crate::runner::RunControl;
use crate::stats::{Interval, Proportion};

/// The default field of `poker tune` (`--field`): a player who believes everything possible, the untuned
/// `threshold` (calls below 10 %, never bluffs), one who calls below 10 % and bluffs a little,
/// one who calls readily and bluffs much, and the `search` bot (at a reduced 20 play-outs a
/// call, the tuning's cost) reckoning with bluffers of the last tuning's level
/// (`call=0, bluff=0.6`) rather than with the table being tuned.
pub const DEFAULT_FIELD: &str = "honest,threshold,threshold:call=0.1,bluff=0.4,threshold:call=0.3,bluff=0.8,search:rollouts=20,call=0,bluff=0.6";

/// Games per candidate, table size and field strategy of `poker tune` (`--games`).
pub const DEFAULT_GAMES: u64 = 3000;

/// What to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    /// Table sizes.
    pub players: Vec<u8>,
    /// Points a game is played to.
    pub points: u8,
    /// The strategies the other seats play, one after the other.
    pub field: Vec<Strategy>,
    /// Games per candidate, table size and field strategy.
    pub games: u64,
    /// Seed shared by every candidate.
    pub seed: u64,
    /// Call thresholds tried.
    pub calls: Vec<f64>,
    /// Bluff levels tried.
    pub bluffs: Vec<f64>,
    /// Deals of the head-to-head check of each winner against `honest` and `threshold`
    /// ([`check`]).
    pub deals: u64,
}

impl TuneSpec {
    /// The default grid: call = 0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4 and
    /// bluff = 0, 0.2, 0.4, 0.6, 0.8, 0.9.
    pub fn grid(players: Vec<u8>, field: Vec<Strategy>, games: u64, seed: u64) -> Self {
        Self {
            players,
            points: 3,
            field,
            games,
            seed,
            calls: vec![0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4],
            bluffs: vec![0.0, 0.2, 0.4, 0.6, 0.8, 0.9],
            deals: 20_000,
        }
    }

    /// The search in the terms of the shared grid search: `threshold:call=…,bluff=…`
    /// candidates against each strategy of the field, next to the untuned `threshold`
    /// (call = 0.1, no bluff).
    pub fn search_grid(&self) -> Grid<Poker> {
        Grid {
            tables: self
                .players
                .iter()
                .map(|&players| Rules {
                    points: self.points,
                    ..Rules::standard(players)
                })
                .collect(),
            field: self.field.clone(),
            games: self.games,
            seed: self.seed,
            first: self.calls.clone(),
            second: self.bluffs.clone(),
            candidate: |call, bluff| Strategy::Threshold { call, bluff },
            reference: Strategy::Threshold {
                call: DEFAULT_CALL,
                bluff: 0.0,
            },
        }
    }

    /// Games the whole search plays: every candidate and the reference, at every table size.
    pub fn total_games(&self) -> u64 {
        self.search_grid().total_games()
    }
}

/// The best candidate for one table size.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// Table size.
    pub players: u8,
    /// Best call threshold.
    pub call: f64,
    /// Best bluff level.
    pub bluff: f64,
    /// Its games won out of games played.
    pub wins: Proportion,
    /// Win rate of the untuned `threshold` in the same seat, for reference.
    pub baseline: Proportion,
}

/// Runs the search ([`Grid::search`]), counting the games played in `control.progress`.
/// Stopped by a signal, it returns the table sizes tuned in full only.
pub fn tune(spec: &TuneSpec, control: &RunControl) -> Result<Vec<TuneResult>> {
    let best = spec.search_grid().search(control)?;
    // The grid's tables are the spec's table sizes, in order.
    Ok(spec
        .players
        .iter()
        .zip(best)
        .map(|(&players, b)| TuneResult {
            players,
            call: b.first,
            bluff: b.second,
            wins: b.wins,
            baseline: b.reference,
        })
        .collect())
}

/// The report (and the content of the Markdown sheet), with the checks when they ran.
pub fn report(spec: &TuneSpec, results: &[TuneResult], checks: Option<&Checks>) -> Report {
    let mut r = Report::new(format!(
        "Póker mentiroso tuned thresholds · against {} · {} games per candidate and field strategy",
        field_names(&spec.field),
        crate::humanize::thousands(spec.games)
    ));
    r.field("field", "field", Value::Text(field_names(&spec.field)));
    r.field("points", "points", Value::Int(spec.points as i64));
    r.field(
        "games",
        "games per candidate and field strategy",
        Value::Int(spec.games as i64),
    );
    r.field("seed", "seed", Value::Int(spec.seed as i64));
    r.field(
        "candidates",
        "candidates per table",
        Value::Int((spec.calls.len() * spec.bluffs.len()) as i64),
    );
    let mut t = Table::new(
        "tuned",
        "Call when the claim is true with probability below `call`",
        &[
            ("players", "players"),
            ("call", "call below"),
            ("bluff", "bluff level"),
            ("win_rate", "win rate"),
            ("ci95", "95 % interval"),
            ("fair_share", "fair share"),
            ("default_win_rate", "threshold:call=0.1"),
        ],
    );
    t.top_level = true;
    for x in results {
        let ci = x.wins.wilson(0.95);
        t.push(vec![
            Value::Int(x.players as i64),
            Value::Prob(x.call),
            Value::Prob(x.bluff),
            Value::Prob(x.wins.estimate()),
            Value::ProbInterval(ci.low, ci.high),
            Value::Prob(1.0 / x.players as f64),
            Value::Prob(x.baseline.estimate()),
        ]);
    }
    r.tables.push(t);
    if let Some(c) = checks {
        r.tables.push(head_to_head_table(&c.head_to_head));
        r.tables.push(audit_table(&c.audits));
    }
    r.note("One seat plays each candidate, the other seats each strategy of the field in turn, on the same games for every candidate; win rates are over all of them, and the fair share is 1 / players. The best of the grid is picked on the same games as it is reported on, so its win rate is slightly optimistic.");
    if checks.is_some() {
        r.note(format!("Head to head: each table size's winner, `honest` and `threshold` in a tournament of {} deals (seed {}): every pair fills the table alternately and plays every rotation of its seating on the same deals; the difference is per seat, paired by deal.", crate::humanize::thousands(spec.deals), spec.seed));
        r.note(format!("Calls: at each table size one seat accepts every claim the face-up dice allow (call = 0, the winner's bluff level) and every other seat plays one strategy of the field, {} games each; the claims it receives below repóker de ases are binned by their chance given the face-up dice (the number `threshold` compares with `call`). Each cell: the share of them that were true (what calling them loses: the caller takes the point) · the share of hands the receiver lost after accepting them (what accepting loses). Calling pays only in a bin where the first is below the second.", crate::humanize::thousands(spec.games)));
    }
    r.note("Regenerate with `cargo run --release -- poker tune --out-dir data/poker` (writes data/poker/tuned.csv and tuned.md), then rebuild: the `tuned` strategy is compiled in.");
    r
}

/// The head-to-head table.
fn head_to_head_table(rows: &[HeadToHead]) -> Table {
    let mut t = Table::new(
        "head_to_head",
        "Head to head: the tuned parameters against honest and threshold (seats alternating and rotated on the same deals)",
        &[
            ("players", "players"),
            ("rival", "rival"),
            ("tuned_win_rate", "tuned win rate per seat"),
            ("rival_win_rate", "rival's"),
            ("difference", "tuned − rival (points)"),
            ("ci95", "95 % interval"),
            ("p_value", "p-value"),
        ],
    );
    for h in rows {
        t.push(vec![
            Value::Int(h.players as i64),
            Value::Text(h.rival.to_string()),
            Value::Prob(h.tuned_rate),
            Value::Prob(h.rival_rate),
            Value::RateDiff(h.difference),
            Value::RateDiffInterval(h.interval.low, h.interval.high),
            Value::PValue(h.p_value),
        ]);
    }
    t
}

/// The bins of [`AUDIT_BINS`] as column names and headings.
const AUDIT_HEADINGS: [(&str, &str); AUDIT_BINS.len()] = [
    ("below_2", "below 2 %"),
    ("from_2_to_5", "2–5 %"),
    ("from_5_to_10", "5–10 %"),
    ("from_10_to_20", "10–20 %"),
    ("from_20_to_30", "20–30 %"),
    ("from_30_to_40", "30–40 %"),
    ("from_40", "40 % and more"),
];

/// The audit table: per table size and field strategy, in each bin, the share of claims that
/// were true (what calling them loses) and the share of hands lost after accepting them.
fn audit_table(rows: &[FieldAudit]) -> Table {
    let mut columns = vec![
        ("players", "players"),
        ("claimant", "claims from"),
        ("claims", "claims"),
    ];
    columns.extend(AUDIT_HEADINGS);
    let mut t = Table::new(
        "calls",
        "What calling the field's claims is worth: true · lost accepting, by the claim's chance given the face-up dice",
        &columns,
    );
    let pct = |x: u64, n: u64| 100.0 * x as f64 / n as f64;
    for a in rows {
        let x = &a.tally;
        let mut row = vec![
            Value::Int(a.players as i64),
            Value::Text(a.claimant.to_string()),
            Value::Int(x.received.iter().sum::<u64>() as i64),
        ];
        for b in 0..AUDIT_BINS.len() {
            row.push(if x.accepted[b] == 0 {
                Value::Empty
            } else {
                Value::Text(format!(
                    "{:.0} % · {:.0} %",
                    pct(x.true_claims[b], x.received[b]),
                    pct(x.lost_accepting[b], x.accepted[b])
                ))
            });
        }
        t.push(row);
    }
    t
}

/// The field as written: `honest, threshold:call=0.1`.
fn field_names(field: &[Strategy]) -> String {
    field
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The CSV the `tuned` strategy reads.
pub fn csv(results: &[TuneResult], games: u64) -> String {
    let mut s = String::from("players,call,bluff,win_rate,ci95_low,ci95_high,games\n");
    for x in results {
        let ci = x.wins.wilson(0.95);
        s.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.6},{}\n",
            x.players,
            (x.call * 100.0).round() / 100.0,
            (x.bluff * 100.0).round() / 100.0,
            x.wins.estimate(),
            ci.low,
            ci.high,
            games
        ));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Why a call threshold wins or loses: what calling a field bot's claims is worth.

/// Upper bounds of the bins of a received claim's chance given the face-up dice (the hidden
/// dice a fresh roll, what `threshold` compares with `call`); the last bin takes the rest.
pub const AUDIT_BINS: [f64; 7] = [0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 1.0];

/// A call audit: one seat plays `receiver`, every other seat `claimant`, as in the tuning, and
/// every claim the receiver gets that the face-up dice allow (below repóker de ases) is
/// recorded by its chance given the face-up dice: whether it was true (what calling it costs)
/// and, when accepted, whether the receiver lost the hand (what accepting costs).
#[derive(Clone, Debug, PartialEq)]
pub struct AuditSpec {
    /// The table.
    pub rules: Rules,
    /// The audited seat's strategy.
    pub receiver: Strategy,
    /// Every other seat's strategy.
    pub claimant: Strategy,
    /// Games.
    pub games: u64,
    /// Seed.
    pub seed: u64,
}

/// What an audit counts, per bin of [`AUDIT_BINS`].
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AuditTally {
    /// Claims received (the face-up dice allow them, below repóker de ases).
    pub received: [u64; AUDIT_BINS.len()],
    /// Of them, true.
    pub true_claims: [u64; AUDIT_BINS.len()],
    /// Of them, accepted.
    pub accepted: [u64; AUDIT_BINS.len()],
    /// Of the accepted, hands the receiver lost.
    pub lost_accepting: [u64; AUDIT_BINS.len()],
}

impl crate::runner::Tally for AuditTally {
    fn absorb(&mut self, o: &Self) {
        for b in 0..AUDIT_BINS.len() {
            self.received[b] += o.received[b];
            self.true_claims[b] += o.true_claims[b];
            self.accepted[b] += o.accepted[b];
            self.lost_accepting[b] += o.lost_accepting[b];
        }
    }
}

/// The bin of a chance.
fn audit_bin(p: f64) -> usize {
    AUDIT_BINS
        .iter()
        .position(|&hi| p < hi)
        .unwrap_or(AUDIT_BINS.len() - 1)
}

/// Seat of the audited receiver.
const AUDITED: usize = 0;

impl crate::runner::Simulation for AuditSpec {
    type Tally = AuditTally;
    fn chunk_size(&self) -> u64 {
        256
    }
    fn empty_tally(&self) -> AuditTally {
        AuditTally::default()
    }
    fn run_chunk(&self, stream: &mut crate::rng::Stream, samples: u64, tally: &mut AuditTally) {
        use super::bots::{claim_chance, Bot};
        use super::engine::{Action, Phase, PokerState, TOP};
        use crate::play::{game_streams, Start, State};
        let t = super::tables::tables();
        let mut bots: Vec<Bot> = (0..self.rules.players as usize)
            .map(|s| {
                let strategy = if s == AUDITED {
                    &self.receiver
                } else {
                    &self.claimant
                };
                Bot::new(strategy, &self.rules)
            })
            .collect();
        for _ in 0..samples {
            let (mut deal, mut decisions) = game_streams(stream);
            let mut g = PokerState::deal(&self.rules, &Start::default(), &mut deal);
            // Bins of the claims accepted in the hand under way.
            let mut pending = [0u64; AUDIT_BINS.len()];
            let (mut hands, mut points) = (g.hands(), g.points(AUDITED));
            while g.outcome().is_none() {
                let seat = g.to_act();
                let view = g.view(seat);
                let action = bots[seat].decide(&view, &mut decisions);
                if seat == AUDITED && view.phase() == Phase::Decide {
                    let p = claim_chance(t, &view);
                    let claim = view.claim().expect("a claim to decide on");
                    if p > 0.0 && claim < TOP {
                        let b = audit_bin(p);
                        tally.received[b] += 1;
                        tally.true_claims[b] += u64::from(g.hand_rung() >= claim);
                        if action == Action::Accept {
                            tally.accepted[b] += 1;
                            pending[b] += 1;
                        }
                    }
                }
                g.apply(action, &mut deal)
                    .expect("the bots play legal actions");
                if g.hands() != hands {
                    if g.points(AUDITED) > points {
                        for (l, n) in tally.lost_accepting.iter_mut().zip(&pending) {
                            *l += n;
                        }
                    }
                    pending = [0; AUDIT_BINS.len()];
                    (hands, points) = (g.hands(), g.points(AUDITED));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What the tuning is checked with: each winner head to head, and the field's claims audited.

/// The strategies the tuned bot must beat head to head: `honest` and the untuned `threshold`.
pub fn rivals() -> [Strategy; 2] {
    [
        Strategy::Honest,
        Strategy::Threshold {
            call: DEFAULT_CALL,
            bluff: 0.0,
        },
    ]
}

/// A table size's winner against one rival, head to head (a tournament of the two: seats
/// alternating and rotated on the same deals).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    /// Table size.
    pub players: u8,
    /// The rival.
    pub rival: Strategy,
    /// The winner's win rate per seat.
    pub tuned_rate: f64,
    /// The rival's win rate per seat.
    pub rival_rate: f64,
    /// Winner − rival, per seat.
    pub difference: f64,
    /// Its 95 % interval (paired by deal).
    pub interval: Interval,
    /// Two-sided p-value of the paired test.
    pub p_value: f64,
}

/// What calling one field strategy's claims is worth to a receiver that accepts every claim
/// the face-up dice allow (the winner's bluff level, call = 0), at one table size.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldAudit {
    /// Table size.
    pub players: u8,
    /// The field strategy in every other seat.
    pub claimant: Strategy,
    /// The counts, by bin of the claim's chance given the face-up dice.
    pub tally: AuditTally,
}

/// The checks of a tuning.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Checks {
    /// Every winner against each of [`rivals`].
    pub head_to_head: Vec<HeadToHead>,
    /// Every field strategy's claims, at every table size.
    pub audits: Vec<FieldAudit>,
}

impl TuneSpec {
    /// Samples the checks run: tournament deals and audited games.
    pub fn check_samples(&self) -> u64 {
        let n = self.players.len() as u64;
        n * self.deals + n * self.field.len() as u64 * self.games
    }

    /// The table of `players`.
    fn rules(&self, players: u8) -> Rules {
        Rules {
            points: self.points,
            ..Rules::standard(players)
        }
    }
}

/// Plays each winner head to head against [`rivals`] (`spec.deals` deals, seed `spec.seed`)
/// and audits the field's claims (`spec.games` games per table size and field strategy).
/// `None` when stopped by a signal.
pub fn check(
    spec: &TuneSpec,
    results: &[TuneResult],
    control: &RunControl,
) -> Result<Option<Checks>> {
    use crate::play::tournament::{pair_results, TournamentSetup, TournamentSimulation};
    use crate::runner::{run, RunSpec, Simulation};
    let mut checks = Checks::default();
    for x in results {
        let rules = spec.rules(x.players);
        let winner = Strategy::Threshold {
            call: x.call,
            bluff: x.bluff,
        };
        let mut line_up = vec![winner];
        line_up.extend(rivals());
        let setup = TournamentSetup::<super::Poker>::new(rules, &line_up, false)?;
        let sim = TournamentSimulation::new(&setup);
        let r = run(
            &sim,
            &RunSpec {
                samples: spec.deals,
                seed: spec.seed,
                chunk_size: sim.chunk_size(),
            },
            None,
            control,
        )?;
        if r.interrupted {
            return Ok(None);
        }
        // The pairs (winner, rival) come first, in the rivals' order.
        for (pr, rival) in pair_results(&setup, &r.tally).iter().zip(rivals()) {
            checks.head_to_head.push(HeadToHead {
                players: x.players,
                rival,
                tuned_rate: pr.a_rate,
                rival_rate: pr.b_rate,
                difference: pr.difference,
                interval: pr.diff_ci,
                p_value: pr.p_value,
            });
        }
        for claimant in &spec.field {
            let a = AuditSpec {
                rules,
                receiver: Strategy::Threshold {
                    call: 0.0,
                    bluff: x.bluff,
                },
                claimant: claimant.clone(),
                games: spec.games,
                seed: spec.seed,
            };
            let r = run(
                &a,
                &RunSpec {
                    samples: a.games,
                    seed: a.seed,
                    chunk_size: a.chunk_size(),
                },
                None,
                control,
            )?;
            if r.interrupted {
                return Ok(None);
            }
            checks.audits.push(FieldAudit {
                players: x.players,
                claimant: claimant.clone(),
                tally: r.tally,
            });
        }
    }
    Ok(Some(checks))
}
