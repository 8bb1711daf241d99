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

    /// Two-sided p-value of the z test that the true mean is 0 (1 when there is no spread).
    pub fn p_value_against_zero(&self) -> f64 {
        let se = self.standard_error();
        if se > 0.0 {
            two_sided_p(self.mean / se)
        } else {
            1.0
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
    fn chi_square_of_a_fair_table() {
        let (stat, p) = chi_square(&[10, 10, 10, 10, 10, 10], &[1.0 / 6.0; 6]);
        assert!(close(stat, 0.0, 1e-12) && close(p, 1.0, 1e-12));
        // statistic (25 + 25) / 10 = 5 on 5 df; scipy: chi2.sf(5, 5) = 0.4158802
        let (stat, p) = chi_square(&[5, 15, 10, 10, 10, 10], &[1.0 / 6.0; 6]);
        assert!(close(stat, 5.0, 1e-12) && close(p, 0.4158802, 1e-6), "{p}");
    }
}
