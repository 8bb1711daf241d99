//! Estimates, confidence intervals and comparisons between variants.
//!
//! Everything here works from integer tallies (successes, trials, sums), which is what the
//! simulation runner produces: tallies add up exactly, so results do not depend on the order in
//! which chunks finished.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::beta::inv_beta_reg;

/// Two-sided normal quantile: `z` such that P(|Z| ≤ z) = `confidence`.
pub fn z_for_confidence(confidence: f64) -> f64 {
    standard_normal().inverse_cdf(0.5 + confidence / 2.0)
}

fn standard_normal() -> Normal {
    Normal::standard()
}

/// A closed interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Whether `x` lies inside the interval (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
    /// The interval as `[low, high]`.
    pub fn to_array(self) -> [f64; 2] {
        [self.low, self.high]
    }
}

/// A binomial proportion: `successes` out of `trials` independent trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Proportion {
    /// Number of successes.
    pub successes: u64,
    /// Number of trials.
    pub trials: u64,
}

impl Proportion {
    /// A proportion; `successes` must not exceed `trials`.
    pub fn new(successes: u64, trials: u64) -> Self {
        assert!(successes <= trials, "successes exceed trials");
        Self { successes, trials }
    }

    /// The point estimate successes / trials (0 when there are no trials).
    pub fn estimate(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.successes as f64 / self.trials as f64
        }
    }

    /// Estimated standard error sqrt(p(1-p)/n).
    pub fn standard_error(&self) -> f64 {
        if self.trials == 0 {
            return f64::NAN;
        }
        let p = self.estimate();
        (p * (1.0 - p) / self.trials as f64).sqrt()
    }

    /// Standard error under a known true proportion `p`, for checking estimates against exact values.
    pub fn standard_error_at(&self, p: f64) -> f64 {
        (p * (1.0 - p) / self.trials as f64).sqrt()
    }

    /// Wilson score interval at the given confidence (e.g. 0.95).
    pub fn wilson(&self, confidence: f64) -> Interval {
        if self.trials == 0 {
            return Interval {
                low: 0.0,
                high: 1.0,
            };
        }
        let n = self.trials as f64;
        let p = self.estimate();
        let z = z_for_confidence(confidence);
        let z2 = z * z;
        let denom = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
        Interval {
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// Clopper–Pearson ("exact") interval at the given confidence.
    pub fn clopper_pearson(&self, confidence: f64) -> Interval {
        if self.trials == 0 {
            return Interval {
                low: 0.0,
                high: 1.0,
            };
        }
        let alpha = 1.0 - confidence;
        let x = self.successes as f64;
        let n = self.trials as f64;
        let low = if self.successes == 0 {
            0.0
        } else {
            inv_beta_reg(x, n - x + 1.0, alpha / 2.0)
        };
        let high = if self.successes == self.trials {
            1.0
        } else {
            inv_beta_reg(x + 1.0, n - x, 1.0 - alpha / 2.0)
        };
        Interval { low, high }
    }

    /// How many standard errors (at the true value `p`) the estimate lies from `p`.
    pub fn z_score_against(&self, p: f64) -> f64 {
        let se = self.standard_error_at(p);
        if se == 0.0 {
            if self.estimate() == p {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (self.estimate() - p) / se
        }
    }
}

/// The mean of integer observations, from their count, sum and sum of squares.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeanEstimate {
    /// Number of observations.
    pub n: u64,
    /// Sample mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 denominator).
    pub sd: f64,
}

impl MeanEstimate {
    /// From the count, the sum and the sum of squares of integer observations (exact tallies).
    pub fn from_sums(n: u64, sum: i128, sum_sq: u128) -> Self {
        if n == 0 {
            return Self {
                n,
                mean: f64::NAN,
                sd: f64::NAN,
            };
        }
        let nf = n as f64;
        let mean = sum as f64 / nf;
        // n·Σx² − (Σx)² is exact in integers before it is turned into a float.
        let var = if n > 1 {
            let centred = (n as i128 * sum_sq as i128 - sum * sum) as f64;
            centred / (nf * (nf - 1.0))
        } else {
            0.0
        };
        Self {
            n,
            mean,
            sd: var.max(0.0).sqrt(),
        }
    }

    /// Standard error of the mean.
    pub fn standard_error(&self) -> f64 {
        self.sd / (self.n as f64).sqrt()
    }

    /// The same observations multiplied by `k` (a change of unit).
    pub fn scaled(&self, k: f64) -> Self {
        Self {
            n: self.n,
            mean: self.mean * k,
            sd: self.sd * k.abs(),
        }
    }

    /// Two-sided p-value of the z test that the true mean is 0 (1 when there is no spread).
    /// With no spread at all, every observation equals the mean: p is 1 when that is 0 and 0
    /// otherwise (the statistic is infinite), given at least two observations.
    pub fn p_value_against_zero(&self) -> f64 {
        let se = self.standard_error();
        if se > 0.0 {
            two_sided_p(self.mean / se)
        } else if self.mean == 0.0 || self.n < 2 || !self.mean.is_finite() {
            1.0
        } else {
            0.0
        }
    }

    /// Normal-approximation interval at the given confidence.
    pub fn interval(&self, confidence: f64) -> Interval {
        let h = z_for_confidence(confidence) * self.standard_error();
        Interval {
            low: self.mean - h,
            high: self.mean + h,
        }
    }
}

/// The comparison of two independent proportions (variant A against variant B).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProportionDifference {
    /// p̂_A − p̂_B.
    pub difference: f64,
    /// Newcombe's hybrid score interval for the difference.
    pub interval: Interval,
    /// Pooled two-proportion z statistic.
    pub z: f64,
    /// Two-sided p-value of the z test.
    pub p_value: f64,
    /// Cohen's h effect size, 2·asin√p_A − 2·asin√p_B.
    pub cohens_h: f64,
}

/// Compares two independent proportions at the given confidence.
pub fn compare_proportions(a: Proportion, b: Proportion, confidence: f64) -> ProportionDifference {
    let (pa, pb) = (a.estimate(), b.estimate());
    let (wa, wb) = (a.wilson(confidence), b.wilson(confidence));
    let difference = pa - pb;
    let interval = Interval {
        low: difference - ((pa - wa.low).powi(2) + (wb.high - pb).powi(2)).sqrt(),
        high: difference + ((wa.high - pa).powi(2) + (pb - wb.low).powi(2)).sqrt(),
    };
    let pooled = (a.successes + b.successes) as f64 / (a.trials + b.trials) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / a.trials as f64 + 1.0 / b.trials as f64)).sqrt();
    let z = if se > 0.0 { difference / se } else { 0.0 };
    ProportionDifference {
        difference,
        interval,
        z,
        p_value: two_sided_p(z),
        cohens_h: 2.0 * pa.sqrt().asin() - 2.0 * pb.sqrt().asin(),
    }
}

/// Two-sided p-value of a standard normal statistic.
pub fn two_sided_p(z: f64) -> f64 {
    (2.0 * standard_normal().cdf(-z.abs())).min(1.0)
}

/// Trials needed per variant to detect `p_a` against `p_b` with a two-sided test at level
/// `alpha` and the given `power` (normal approximation, equal group sizes).
pub fn trials_to_detect(p_a: f64, p_b: f64, alpha: f64, power: f64) -> f64 {
    let d = (p_a - p_b).abs();
    if d == 0.0 {
        return f64::INFINITY;
    }
    let n = standard_normal();
    let za = n.inverse_cdf(1.0 - alpha / 2.0);
    let zb = n.inverse_cdf(power);
    let pbar = (p_a + p_b) / 2.0;
    let num = za * (2.0 * pbar * (1.0 - pbar)).sqrt()
        + zb * (p_a * (1.0 - p_a) + p_b * (1.0 - p_b)).sqrt();
    (num / d).powi(2).ceil()
}

/// Pearson's χ² statistic of observed counts against expected probabilities, and its p-value
/// with `cells − 1` degrees of freedom.
pub fn chi_square(observed: &[u64], expected_probabilities: &[f64]) -> (f64, f64) {
    assert_eq!(observed.len(), expected_probabilities.len());
    let total: u64 = observed.iter().sum();
    let stat: f64 = observed
        .iter()
        .zip(expected_probabilities)
        .map(|(&o, &p)| {
            let e = p * total as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    let df = (observed.len() - 1) as f64;
    let dist = statrs::distribution::ChiSquared::new(df).expect("positive degrees of freedom");
    (stat, 1.0 - dist.cdf(stat))
}

/// A rate with its 95 % Wilson interval from integer counts (0 of 0 when there are no trials):
/// the interval starts at exactly 0 when nothing was seen and ends at exactly 1 when everything
/// was (the formula gives float noise such as 4e-19 there).
pub fn wilson95(successes: u64, trials: u64) -> (Proportion, Interval) {
    let p = Proportion::new(successes.min(trials), trials);
    let w = p.wilson(0.95);
    let low = if p.successes == 0 { 0.0 } else { w.low };
    let high = if p.successes == p.trials { 1.0 } else { w.high };
    (p, Interval { low, high })
}

/// The rate per seat of something several seats share (a strategy in `seats` seats) over `games`
/// games, with its 95 % interval, from the per-game count of its seats hit (`sum`, `sum_sq`),
/// divided by its seats. When no two of its seats can be hit in one game the count is 0 or 1 and
/// the Wilson interval is used; otherwise the normal interval of the mean count.
pub fn per_seat_rate(sum: u64, sum_sq: u64, games: u64, seats: usize) -> (f64, Interval) {
    let k = seats.max(1) as f64;
    if sum == sum_sq && sum <= games {
        let (p, ci) = wilson95(sum, games);
        (
            p.estimate() / k,
            Interval {
                low: ci.low / k,
                high: ci.high / k,
            },
        )
    } else {
        let m = MeanEstimate::from_sums(games, sum as i128, sum_sq as u128);
        let ci = m.interval(0.95);
        (
            m.mean / k,
            Interval {
                low: (ci.low / k).max(0.0),
                high: (ci.high / k).min(1.0),
            },
        )
    }
}

/// Exact integer sums of a per-sample value: Σx and Σx². Adding two of them is exact, so tallies
/// of chunks and shards add up to the same numbers in any grouping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sums {
    /// Σ x.
    pub sum: i64,
    /// Σ x².
    pub sum_sq: u128,
}

impl Sums {
    /// Adds one observation.
    #[inline]
    pub fn add(&mut self, x: i64) {
        self.sum += x;
        self.sum_sq += (x as i128 * x as i128) as u128;
    }

    /// Adds another set of sums.
    #[inline]
    pub fn absorb(&mut self, o: &Self) {
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// The mean of `n` observations with its spread.
    pub fn estimate(&self, n: u64) -> MeanEstimate {
        MeanEstimate::from_sums(n, self.sum as i128, self.sum_sq)
    }
}

/// Paired per-sample outcomes of a yes/no event in two variants: A only, B only, both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairedCounts {
    /// Samples where the event happened in A only.
    pub a_only: u64,
    /// In B only.
    pub b_only: u64,
    /// In both.
    pub both: u64,
}

impl PairedCounts {
    /// Counts one pair: whether the event happened in A and in B.
    #[inline]
    pub fn add(&mut self, a: bool, b: bool) {
        match (a, b) {
            (true, true) => self.both += 1,
            (true, false) => self.a_only += 1,
            (false, true) => self.b_only += 1,
            _ => {}
        }
    }

    /// Adds another tally's counts.
    pub fn absorb(&mut self, o: &Self) {
        self.a_only += o.a_only;
        self.b_only += o.b_only;
        self.both += o.both;
    }
}

/// One paired comparison of variant A with variant B: means, their difference with its 95 %
/// interval and the paired z test, an effect size and the pairs needed to detect it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedDifference {
    /// Mean in A.
    pub a: f64,
    /// Mean in B.
    pub b: f64,
    /// A − B.
    pub difference: f64,
    /// 95 % interval of the difference.
    pub interval: Interval,
    /// Two-sided p-value of the paired z test.
    pub p_value: f64,
    /// Effect size: Cohen's h for proportions, d_z (mean difference over its SD) for means.
    pub effect_size: f64,
    /// Pairs needed to detect this difference at α = 0.05 with 80 % power.
    pub needed: f64,
    /// Variance of the per-pair difference (to size other differences).
    pub variance: f64,
}

impl PairedDifference {
    /// Pairs needed to detect a difference of `d` at α = 0.05 with 80 % power, with the per-pair
    /// variance seen here.
    pub fn needed_for(&self, d: f64) -> f64 {
        pairs_needed(d, self.variance)
    }
}

/// Pairs needed to detect a mean difference `diff` with per-pair variance `var` (two-sided
/// α = 0.05, power 80 %, normal approximation); infinite when there is nothing to detect.
pub fn pairs_needed(diff: f64, var: f64) -> f64 {
    samples_needed(diff, var, 1.0)
}

/// As [`pairs_needed`], counted in samples when each pair holds `per_pair` of them (rounded up
/// once, in samples).
pub fn samples_needed(diff: f64, var: f64, per_pair: f64) -> f64 {
    if diff == 0.0 || var == 0.0 {
        return f64::INFINITY;
    }
    let z = z_for_confidence(0.95) + standard_normal().inverse_cdf(0.8);
    (z * z * var * per_pair / (diff * diff)).ceil()
}

/// A paired difference from the means of A and B, the per-pair differences' estimate and an
/// effect size.
pub fn paired(a: f64, b: f64, d: MeanEstimate, effect_size: f64) -> PairedDifference {
    let var = d.sd * d.sd;
    PairedDifference {
        a,
        b,
        difference: d.mean,
        interval: d.interval(0.95),
        p_value: d.p_value_against_zero(),
        effect_size,
        needed: pairs_needed(d.mean, var),
        variance: var,
    }
}

/// The paired comparison of a yes/no event over `n` pairs: per pair the difference is 1 (A only),
/// −1 (B only) or 0, so its sum is `a_only − b_only` and its sum of squares `a_only + b_only`.
/// The effect size is Cohen's h.
pub fn paired_proportions(c: &PairedCounts, n: u64) -> PairedDifference {
    let nf = n.max(1) as f64;
    let (a, b) = (
        (c.a_only + c.both) as f64 / nf,
        (c.b_only + c.both) as f64 / nf,
    );
    let d = MeanEstimate::from_sums(
        n,
        c.a_only as i128 - c.b_only as i128,
        (c.a_only + c.b_only) as u128,
    );
    paired(a, b, d, 2.0 * a.sqrt().asin() - 2.0 * b.sqrt().asin())
}

/// The paired comparison of a mean from the sums of the per-pair differences (`d`), scaled by
/// `scale` (e.g. to a unit per hand, or to undo an integer scaling): the effect size is d_z, the
/// mean difference over its SD, which the scale does not change.
pub fn paired_means(a: f64, b: f64, d: &Sums, pairs: u64, scale: f64) -> PairedDifference {
    let raw = d.estimate(pairs);
    let dz = if raw.sd > 0.0 { raw.mean / raw.sd } else { 0.0 };
    let scaled = if scale == 1.0 {
        raw
    } else {
        MeanEstimate {
            n: raw.n,
            mean: raw.mean / scale,
            sd: raw.sd / scale,
        }
    };
    paired(a, b, scaled, dz)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn clopper_pearson_matches_r_binom_test() {
        // R: binom.test(5, 10)$conf.int = 0.1870860 0.8129140
        let i = Proportion::new(5, 10).clopper_pearson(0.95);
        assert!(
            close(i.low, 0.1870860, 1e-7) && close(i.high, 0.8129140, 1e-7),
            "{i:?}"
        );
        // R: binom.test(1, 10)$conf.int = 0.002528579 0.445016117
        let i = Proportion::new(1, 10).clopper_pearson(0.95);
        assert!(
            close(i.low, 0.002528579, 1e-9) && close(i.high, 0.445016117, 1e-8),
            "{i:?}"
        );
        // R: binom.test(0, 10)$conf.int = 0.0000000 0.3084971
        let i = Proportion::new(0, 10).clopper_pearson(0.95);
        assert!(i.low == 0.0 && close(i.high, 0.3084971, 1e-7), "{i:?}");
    }

    #[test]
    fn wilson_matches_r_prop_test_without_correction() {
        // R: prop.test(5, 10, correct = FALSE)$conf.int = 0.2365931 0.7634069
        let i = Proportion::new(5, 10).wilson(0.95);
        assert!(
            close(i.low, 0.2365931, 1e-7) && close(i.high, 0.7634069, 1e-7),
            "{i:?}"
        );
        // R: prop.test(0, 20, correct = FALSE)$conf.int = 0.0000000 0.1611252
        let i = Proportion::new(0, 20).wilson(0.95);
        assert!(
            close(i.low, 0.0, 1e-12) && close(i.high, 0.1611252, 1e-7),
            "{i:?}"
        );
    }

    #[test]
    fn z_quantile() {
        assert!(close(z_for_confidence(0.95), 1.959963985, 1e-8));
        assert!(close(z_for_confidence(0.99), 2.575829304, 1e-8));
    }

    #[test]
    fn a_difference_without_spread_is_decided() {
        let always = MeanEstimate::from_sums(50, -100, 200);
        assert_eq!((always.mean, always.sd), (-2.0, 0.0));
        assert_eq!(always.p_value_against_zero(), 0.0);
        assert_eq!(
            MeanEstimate::from_sums(50, 0, 0).p_value_against_zero(),
            1.0
        );
        assert_eq!(MeanEstimate::from_sums(1, 3, 9).p_value_against_zero(), 1.0);
    }

    #[test]
    fn mean_from_integer_sums() {
        let xs = [2i128, 4, 4, 4, 5, 5, 7, 9];
        let sum: i128 = xs.iter().sum();
        let sq: u128 = xs.iter().map(|x| (x * x) as u128).sum();
        let m = MeanEstimate::from_sums(xs.len() as u64, sum, sq);
        assert_eq!(m.mean, 5.0);
        // sample variance 32/7
        assert!(close(m.sd, (32.0f64 / 7.0).sqrt(), 1e-12));
    }

    #[test]
    fn comparing_proportions() {
        // 60/100 against 40/100: pooled z = 0.2 / sqrt(0.25 * 0.02) = 2.828427
        let d = compare_proportions(Proportion::new(60, 100), Proportion::new(40, 100), 0.95);
        assert!(close(d.difference, 0.2, 1e-12));
        assert!(close(d.z, 2.828427, 1e-6));
        // two-sided p for z = 2.828427 is 0.004677735
        assert!(close(d.p_value, 0.004677735, 1e-8), "{}", d.p_value);
        // Newcombe (1998) method 10 from the Wilson limits (0.5020026, 0.6905987) and
        // (0.3094013, 0.4979974), computed independently with scipy: [0.0614107, 0.3281259].
        assert!(
            close(d.interval.low, 0.0614107, 1e-6) && close(d.interval.high, 0.3281259, 1e-6),
            "{:?}",
            d.interval
        );
        assert!(close(
            d.cohens_h,
            2.0 * 0.6f64.sqrt().asin() - 2.0 * 0.4f64.sqrt().asin(),
            1e-12
        ));
    }

    #[test]
    fn sample_size_formula() {
        // Fleiss' formula without continuity correction: 0.5 against 0.6, alpha 0.05,
        // power 0.8 → 387.3 → 388 per group.
        assert_eq!(trials_to_detect(0.5, 0.6, 0.05, 0.8), 388.0);
    }

    #[test]
    fn wilson_ends_are_exact_and_shared_rates_per_seat() {
        let (p, ci) = wilson95(0, 700);
        assert_eq!((p.estimate(), ci.low), (0.0, 0.0));
        let (_, ci) = wilson95(700, 700);
        assert_eq!(ci.high, 1.0);
        // One of three seats hit in every game: Wilson of the count, per seat.
        let (r, ci) = per_seat_rate(300, 300, 300, 3);
        assert!((r - 1.0 / 3.0).abs() < 1e-12 && ci.high <= 1.0 / 3.0 + 1e-12);
        // Two seats hit together in 40 of 100 games: the mean count 0.8, 0.4 per seat.
        let (r, ci) = per_seat_rate(80, 160, 100, 2);
        assert!((r - 0.4).abs() < 1e-12 && ci.low < r && r < ci.high);
    }

    #[test]
    fn paired_comparisons_use_the_per_pair_differences() {
        // 10 pairs: A only 4 times, B only once, both 3 times.
        let c = PairedCounts {
            a_only: 4,
            b_only: 1,
            both: 3,
        };
        let d = paired_proportions(&c, 10);
        assert!((d.a - 0.7).abs() < 1e-12 && (d.b - 0.4).abs() < 1e-12);
        assert!((d.difference - 0.3).abs() < 1e-12);
        // Differences: four 1s, one −1, five 0s: variance (5 − 10·0.09)/9.
        assert!((d.variance - (5.0 - 0.9) / 9.0).abs() < 1e-12, "{d:?}");
        let mut s = Sums::default();
        for x in [3i64, -1, 4, 1, 5] {
            s.add(x);
        }
        assert_eq!((s.sum, s.sum_sq), (12, 52));
        let m = paired_means(1.0, 0.0, &s, 5, 2.0);
        assert!((m.difference - 1.2).abs() < 1e-12);
        let raw = s.estimate(5);
        assert!((m.effect_size - raw.mean / raw.sd).abs() < 1e-12);
        assert_eq!(pairs_needed(0.0, 1.0), f64::INFINITY);
        // (1.959964 + 0.841621)² · 1 / 0.1² = 784.9 → 785
        assert_eq!(pairs_needed(0.1, 1.0), 785.0);
    }

    #[test]
    fn chi_square_of_a_fair_table() {
        let (stat, p) = chi_square(&[10, 10, 10, 10, 10, 10], &[1.0 / 6.0; 6]);
        assert!(close(stat, 0.0, 1e-12) && close(p, 1.0, 1e-12));
        // statistic (25 + 25) / 10 = 5 on 5 df; scipy: chi2.sf(5, 5) = 0.4158802
        let (stat, p) = chi_square(&[5, 15, 10, 10, 10, 10], &[1.0 / 6.0; 6]);
        assert!(close(stat, 5.0, 1e-12) && close(p, 0.4158802, 1e-6), "{p}");
    }
}
