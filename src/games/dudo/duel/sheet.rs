//! The solved duel as a cheat sheet: the whole strategy as CSV (every spot, hand and action
//! with its frequency) and a Markdown page players can read (per incoming bid and how many of
//! your dice count for it: how often to doubt, and the raise made most often otherwise).

use std::fmt::Write as _;

use super::game::DuelGame;
use super::last_bid::{LastBid, Move, Spot};
use super::solve::{move_text, DuelResult, DuelSpec};

/// Frequencies below this are left out of the CSV (each row rounds to 4 decimals).
const SHOWN: f64 = 0.0005;

/// A hand whose own play reaches a spot less often than this is left out of the CSV at that
/// spot: its strategy there never matters to how the sheet plays (the other side cannot bring
/// a hand where its own choices do not lead), and such spots are most of a paso game's.
pub const REACHED: f64 = 1e-5;

/// The CSV columns.
pub const CSV_HEADER: &str = "side,prev,bid,passes,after_pass,hand,action,probability";

/// A side in words.
fn side(mover: u8) -> &'static str {
    if mover == 0 {
        "opener"
    } else {
        "other"
    }
}

/// Passes spent in words.
fn passes(used: u8) -> &'static str {
    match used {
        0 => "none",
        1 => "opener",
        2 => "other",
        _ => "both",
    }
}

/// A bid index as `QxF`.
fn bid_text(game: &DuelGame, b: Option<u16>) -> String {
    b.map_or(String::new(), |b| game.bids[usize::from(b)].to_string())
}

/// An action as the CSV writes it: `dudo`, `paso` or the bid `QxF`.
pub fn action_key(game: &DuelGame, m: Move) -> String {
    match m {
        Move::Doubt => "dudo".into(),
        Move::Pass => "paso".into(),
        Move::Raise(b) => game.bids[usize::from(b)].to_string(),
    }
}

/// The key of a spot as the CSV writes it (side, prev, bid, passes, after_pass): `prev` is the
/// bid before the standing one (`--memory 2`), the face of that bid as a digit 1 to 6
/// (`--memory face`), or empty.
pub fn spot_key(game: &DuelGame, s: &Spot) -> String {
    let prev = match s.prev_face {
        Some(f) => (f + 1).to_string(),
        None => bid_text(game, s.prev),
    };
    format!(
        "{},{},{},{},{}",
        side(s.mover),
        prev,
        if s.bid.is_none() {
            "open".to_string()
        } else {
            bid_text(game, s.bid)
        },
        passes(s.used),
        u8::from(s.after_pass)
    )
}

/// The whole average strategy as CSV: one row per spot, hand and action played at least
/// 0.05 % of the time, for the hands that reach the spot by their own play at least
/// [`REACHED`] of the time (the reach of the last pass over the average strategy).
pub fn csv(s: &LastBid<'_>) -> String {
    let game = s.game();
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for spot in s.spots() {
        let n = s.node_of(spot).expect("a spot");
        let key = spot_key(game, spot);
        for h in 0..game.hand_count() {
            if s.reach_of(usize::from(spot.mover), spot, h) < REACHED {
                continue;
            }
            let hand = game.hand_text(h);
            for (a, m) in s.moves_at(n).iter().enumerate() {
                let p = s.probability(n, h, a);
                if p >= SHOWN {
                    let _ = writeln!(out, "{key},{hand},{},{p:.4}", action_key(game, *m));
                }
            }
        }
    }
    out
}

/// The readable sheet: figures of the solve, then per side a table of incoming bids (spots
/// without a pass) against how many of your dice count for the bid.
pub fn markdown(s: &LastBid<'_>, spec: &DuelSpec, r: &DuelResult, csv_name: &str) -> String {
    let game = s.game();
    let k = game.dice_each as usize;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Dudo duel, {} — solved strategy, {} a side\n",
        spec.rules.key(),
        crate::humanize::count_of(u64::from(spec.dice_each), "dice")
    );
    let _ = writeln!(
        out,
        "Written by `tahur dudo duel --rules {} --dice-each {} --iterations {} --sheet-dir DIR`: CFR+ in an {}.\n",
        spec.rules.key(),
        spec.dice_each,
        r.iterations,
        spec.memory.describe()
    );
    let _ = writeln!(
        out,
        "- Opener wins the round: {:.2} % (expected payoff {:+.4}).",
        50.0 * (1.0 + r.value),
        r.value
    );
    if let Some(e) = r.spot_exploitability {
        let _ = writeln!(
            out,
            "- Gain of spot-by-spot responders in the abstraction (exact, lower bound): {e:.4}."
        );
    }
    if let Some(e) = r.sampled_exploitability {
        let _ = writeln!(
            out,
            "- Gain of a full-history responder (sampled, {} deals a seat, 95 %): {:.4} to {:.4}.",
            spec.responder_deals,
            e.mean - e.half_width,
            e.mean + e.half_width
        );
    }
    let _ = writeln!(
        out,
        "- Iterations {}, {:.0} s; every frequency is in `{csv_name}`.\n",
        r.iterations, r.seconds,
    );
    out.push_str(
        "Each cell: how often to say «dudo» to the incoming bid when that many of your dice count \
         for it (aces included where wild), averaged over the hands that reach the bid, and the \
         raise made most often otherwise. Rows: bids reached at least 0.1 % of the time.\n",
    );
    for mover in 0..2u8 {
        let _ = writeln!(
            out,
            "\n## {}\n",
            if mover == 0 {
                "You opened the round"
            } else {
                "The other opened the round"
            }
        );
        let _ = write!(out, "| incoming bid |");
        for c in 0..=k {
            let _ = write!(out, " {c} counting |");
        }
        out.push('\n');
        out.push_str("|---|");
        for _ in 0..=k {
            out.push_str("---|");
        }
        out.push('\n');
        for b in 0..game.bid_count() {
            // Every spot of this side facing this bid before any pass (one per bid before it
            // when two are remembered), with how often the side's hands reach it.
            let spots: Vec<(usize, Vec<f64>)> = s
                .spots()
                .filter(|x| x.mover == mover && x.bid == Some(b as u16) && x.used == 0)
                .map(|x| {
                    let reach = (0..game.hand_count())
                        .map(|h| game.weight[h] * s.reach_of(usize::from(mover), x, h))
                        .collect();
                    (s.node_of(x).expect("a spot"), reach)
                })
                .collect();
            let total: f64 = spots.iter().flat_map(|(_, r)| r.iter()).sum();
            if total < 1e-3 {
                continue;
            }
            let moves = s.moves_at(spots[0].0);
            let _ = write!(out, "| {} |", game.bids[b].spoken(game.rules.names()));
            for c in 0..=k {
                let mut freq = vec![0.0; moves.len()];
                let mut mass = 0.0;
                for (n, reach) in &spots {
                    for (h, &r) in reach.iter().enumerate() {
                        if usize::from(game.counted[b][h]) != c || r <= 0.0 {
                            continue;
                        }
                        mass += r;
                        for (a, f) in freq.iter_mut().enumerate() {
                            *f += r * s.probability(*n, h, a);
                        }
                    }
                }
                if mass <= 0.0 {
                    out.push_str(" · |");
                    continue;
                }
                let doubt = moves
                    .iter()
                    .position(|m| *m == Move::Doubt)
                    .map_or(0.0, |a| freq[a] / mass);
                let raise = (0..moves.len())
                    .filter(|&a| moves[a] != Move::Doubt)
                    .max_by(|&x, &y| freq[x].total_cmp(&freq[y]));
                let _ = match raise {
                    Some(a) if doubt < 0.995 => write!(
                        out,
                        " dudo {:.0} %, else {} |",
                        100.0 * doubt,
                        move_text(game, moves[a])
                    ),
                    _ => write!(out, " dudo {:.0} % |", 100.0 * doubt),
                };
            }
            out.push('\n');
        }
    }
    out
}

/// What a shipped CSV says about the spots: every spot key it holds, and for each (spot, hand)
/// the sum of its listed frequencies.
pub fn read_csv(text: &str) -> crate::error::Result<Vec<(String, String, f64)>> {
    let mut lines = text.lines();
    if lines.next() != Some(CSV_HEADER) {
        return Err(crate::error::Error::usage(format!(
            "not a duel sheet: the first line must be '{CSV_HEADER}'"
        )));
    }
    let mut out: Vec<(String, String, f64)> = Vec::new();
    for (i, line) in lines.enumerate() {
        let cols: Vec<&str> = line.split(',').collect();
        let p: Option<f64> = cols.get(7).and_then(|p| p.parse().ok());
        let (Some(p), 8) = (p, cols.len()) else {
            return Err(crate::error::Error::usage(format!(
                "duel sheet line {}: expected {CSV_HEADER}",
                i + 2
            )));
        };
        let key = cols[..5].join(",");
        let hand = cols[5].to_string();
        match out.last_mut() {
            Some(last) if last.0 == key && last.1 == hand => last.2 += p,
            _ => out.push((key, hand, p)),
        }
    }
    Ok(out)
}
