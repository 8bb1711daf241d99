//! Numbers in plain language: "4.35 %, about 1 in 23".

/// A probability as a percentage with sensible precision: `4.35 %`, `0.0312 %`, `1.2e-7 %`.
/// Near 100 % it shows enough decimals that a possible failure never reads "100 %", but no more
/// than double precision supports: a value within 1e-12 of certainty reads "> 99.9999999999 %".
pub fn percent(p: f64) -> String {
    if p < 0.0 {
        // A difference of chances: the sign, then the size as any chance is shown.
        return format!("-{}", percent(-p));
    }
    let pct = p * 100.0;
    if p == 0.0 {
        "0 %".to_string()
    } else if p == 1.0 {
        "100 %".to_string()
    } else if pct >= 99.0 {
        let gap = 100.0 - pct;
        if gap < 1e-10 {
            // Below the noise of a sum of f64 terms (about 1e-16 per term): not a figure.
            return "> 99.9999999999 %".to_string();
        }
        let decimals = ((-gap.log10()).ceil() as usize + 1).clamp(2, 10);
        format!("{pct:.decimals$} %")
    } else if pct >= 1.0 {
        format!("{pct:.2} %")
    } else if pct >= 0.01 {
        format!("{} %", significant(pct, 3))
    } else {
        format!("{pct:.2e} %")
    }
}

/// `x` with `digits` significant digits in plain decimal notation.
pub fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// An integer with thousands separators: `1,000,000`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "about 1 in 23", "about 7 in 10", "about 96 in 100: fails about 1 in 23", "almost certain:
/// fails about 1 in 400". For exact figures: 0 reads "impossible" and 1 "certain" (a simulated
/// rate reads [`plain_rate`] instead).
pub fn odds(p: f64) -> String {
    if p.is_nan() {
        return "unknown".into();
    }
    if p <= 0.0 {
        return "impossible".into();
    }
    if p >= 1.0 {
        return "certain".into();
    }
    let fails = || one_in(1.0 / (1.0 - p));
    if p < 0.5 {
        format!("about 1 in {}", one_in(1.0 / p))
    } else if p < 0.95 {
        format!("about {} in 10", (p * 10.0).round() as u32)
    } else if p < 0.995 {
        format!(
            "about {} in 100: fails about 1 in {}",
            (p * 100.0).round() as u32,
            fails()
        )
    } else {
        format!("almost certain: fails about 1 in {}", fails())
    }
}

/// The N of "1 in N", rounded for reading.
fn one_in(n: f64) -> String {
    if n < 10.0 {
        let r = (n * 10.0).round() / 10.0;
        if r.fract() == 0.0 {
            format!("{}", r as u64)
        } else {
            format!("{r:.1}")
        }
    } else if n < 1e6 {
        thousands(n.round() as u64)
    } else if n < 1e9 {
        format!("{} million", significant(n / 1e6, 2))
    } else if n < 1e12 {
        format!("{} billion", significant(n / 1e9, 2))
    } else {
        format!("10^{:.0}", n.log10())
    }
}

/// The whole plain-language summary: "4.35 %, about 1 in 23".
pub fn chance(p: f64) -> String {
    format!("{}, {}", percent(p), odds(p))
}

/// "about 1 in 40" for a simulated rate; "none in 1,000 games" when nothing was seen and "every
/// one of 1,000 games" when everything was (a simulation cannot show that something is
/// impossible or certain).
pub fn plain_rate(p: &crate::stats::Proportion) -> String {
    plain_rate_of(p, "games")
}

/// [`plain_rate`] counting `unit` ("samples", "hands", "deals").
pub fn plain_rate_of(p: &crate::stats::Proportion, unit: &str) -> String {
    let unit = if p.trials == 1 { singular(unit) } else { unit };
    if p.successes == 0 {
        format!("none in {} {unit}", thousands(p.trials))
    } else if p.successes == p.trials {
        if p.trials == 1 {
            format!("the only {unit}")
        } else {
            format!("every one of {} {unit}", thousands(p.trials))
        }
    } else {
        odds(p.estimate())
    }
}

/// A plain reading of a rate against its fair share: which way it leans, by how many percentage
/// points, and whether that is more than chance (p < 0.05). `higher_is_better` says whether the
/// rate counts something good for `who` (wins) or bad (losses).
pub fn edge_reading(rate: f64, fair: f64, p: f64, who: &str, higher_is_better: bool) -> String {
    let points = significant((rate - fair).abs() * 100.0, 2);
    let shown = percent(fair);
    if p >= 0.05 {
        return format!("{points} points from the fair share {shown}: no edge shown for {who}");
    }
    let (side, good) = if rate < fair {
        ("below", !higher_is_better)
    } else {
        ("above", higher_is_better)
    };
    format!(
        "{points} points {side} the fair share {shown}: {} for {who}",
        if good { "an edge" } else { "a handicap" }
    )
}

/// The plain reading of an exact probability of an event that is `impossible` or `certain` as
/// the game decides it (a Dudo bid the dice rule out, a claim the face-up dice make). Only
/// those are called "impossible" and "certain": an exact figure that rounds to 0 or 1 in
/// floating point is not (with thousands of dice some tails underflow), and a sampled figure
/// never goes through here.
pub fn exact_reading(p: f64, impossible: bool, certain: bool) -> String {
    if impossible {
        "impossible".into()
    } else if certain {
        "certain".into()
    } else if p <= 0.0 {
        "possible, but below 1 in 10^300: too small to compute".into()
    } else if p >= 1.0 {
        "almost certain: fails too rarely to compute".into()
    } else {
        odds(p)
    }
}

/// `games` → `game`, `hands` → `hand` (for messages).
pub fn singular(unit: &str) -> &str {
    match unit {
        "dice" => "die",
        "matches" => "match",
        _ => unit.strip_suffix('s').unwrap_or(unit),
    }
}

/// `n` and the noun, singular when `n` is 1: "1 game", "3 games".
pub fn count_of(n: u64, plural: &str) -> String {
    if n == 1 {
        format!("1 {}", singular(plural))
    } else {
        format!("{} {plural}", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_read_as_players_say_them() {
        assert_eq!(chance(0.0435), "4.35 %, about 1 in 23");
        assert_eq!(odds(0.5), "about 5 in 10");
        assert_eq!(odds(0.72), "about 7 in 10");
        assert_eq!(odds(0.9975), "almost certain: fails about 1 in 400");
        assert_eq!(odds(0.3), "about 1 in 3.3");
        assert_eq!(odds(1e-7), "about 1 in 10 million");
        assert_eq!(odds(0.0), "impossible");
        assert_eq!(odds(1.0), "certain");
        assert_eq!(percent(0.000312), "0.0312 %");
        assert_eq!(percent(0.99999999), "99.9999990 %");
        assert_eq!(percent(1.0 - 2.8e-16), "> 99.9999999999 %");
        assert_eq!(percent(1.0 - 3e-11), "99.9999999970 %");
        assert_eq!(odds(0.9565), "about 96 in 100: fails about 1 in 23");
        assert_eq!(odds(0.95), "about 95 in 100: fails about 1 in 20");
        assert_eq!(odds(0.949), "about 9 in 10");
        assert_eq!(odds(0.9949), "about 99 in 100: fails about 1 in 196");
        assert_eq!(count_of(1, "games"), "1 game");
        assert_eq!(count_of(1, "dice"), "1 die");
        assert_eq!(count_of(1200, "dice"), "1,200 dice");
        assert_eq!(percent(0.9975), "99.75 %");
        assert_eq!(percent(1.5e-9), "1.50e-7 %");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn rates_and_edges_in_plain_words() {
        use crate::stats::Proportion;
        assert_eq!(plain_rate(&Proportion::new(0, 1000)), "none in 1,000 games");
        assert_eq!(plain_rate(&Proportion::new(5, 5)), "every one of 5 games");
        assert_eq!(plain_rate(&Proportion::new(25, 1000)), "about 1 in 40");
        assert_eq!(
            plain_rate_of(&Proportion::new(0, 1000), "samples"),
            "none in 1,000 samples"
        );
        assert_eq!(
            plain_rate_of(&Proportion::new(1, 1), "hands"),
            "the only hand"
        );
        assert_eq!(
            edge_reading(0.17, 0.234, 1e-9, "the first attacker", false),
            "6.4 points below the fair share 23.40 %: an edge for the first attacker"
        );
        assert_eq!(
            edge_reading(0.30, 0.25, 0.001, "the first opener", true),
            "5.0 points above the fair share 25.00 %: an edge for the first opener"
        );
        assert_eq!(
            edge_reading(0.30, 0.25, 0.001, "the dealer", false),
            "5.0 points above the fair share 25.00 %: a handicap for the dealer"
        );
        assert!(edge_reading(0.26, 0.25, 0.4, "x", true).contains("no edge shown"));
    }
}
