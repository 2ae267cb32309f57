//! Medians, percentiles and the bootstrap.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Median of a slice (NaN-free); the mean of the middle two for even lengths.
pub fn median(xs: &[f64]) -> f64 {
    assert!(!xs.is_empty(), "median of nothing");
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Linear-interpolated percentile (`p` in 0..=1) of sorted data.
pub fn percentile_sorted(v: &[f64], p: f64) -> f64 {
    let pos = p * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// Percentile bootstrap interval of the median: resample with replacement `resamples` times.
/// Returns (low, high) at `level` (0.95 for a 95% interval). Deterministic for a seed.
pub fn bootstrap_median_ci(xs: &[f64], resamples: usize, level: f64, seed: u64) -> (f64, f64) {
    assert!(!xs.is_empty());
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let n = xs.len();
    let mut meds = Vec::with_capacity(resamples);
    let mut buf = vec![0.0; n];
    for _ in 0..resamples {
        for b in buf.iter_mut() {
            *b = xs[rng.random_range(0..n)];
        }
        meds.push(median(&buf));
    }
    meds.sort_by(|a, b| a.total_cmp(b));
    let a = (1.0 - level) / 2.0;
    (percentile_sorted(&meds, a), percentile_sorted(&meds, 1.0 - a))
}

/// One resample of a nested sample's median: groups (code layouts) with replacement, then
/// members (processes) within each, then values (trials) within each member. A group per
/// process is the two-level process/trial bootstrap. Every hierarchical interval uses this.
pub fn nested_resample_median(groups: &[Vec<&[f64]>], rng: &mut Pcg64Mcg, pool: &mut Vec<f64>) -> f64 {
    pool.clear();
    for _ in 0..groups.len() {
        let g = &groups[rng.random_range(0..groups.len())];
        for _ in 0..g.len() {
            let r = g[rng.random_range(0..g.len())];
            for _ in 0..r.len() {
                pool.push(r[rng.random_range(0..r.len())]);
            }
        }
    }
    median(pool)
}

/// The percentile interval at 95% of `resamples` nested resamples (see
/// [`nested_resample_median`]), deterministic for a seed.
pub fn nested_median_ci(groups: &[Vec<&[f64]>], resamples: usize, seed: u64) -> (f64, f64) {
    let [(lo, hi)] = nested_median_cis(groups, resamples, &[0.95], seed);
    (lo, hi)
}

/// Percentile intervals at each of `levels` (0.95, 0.90: the two sides of an equivalence
/// test) from one set of `resamples` nested resamples ([`nested_resample_median`]).
pub fn nested_median_cis<const N: usize>(groups: &[Vec<&[f64]>], resamples: usize, levels: &[f64; N], seed: u64) -> [(f64, f64); N] {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pool = Vec::new();
    let mut meds: Vec<f64> = (0..resamples).map(|_| nested_resample_median(groups, &mut rng, &mut pool)).collect();
    meds.sort_by(|a, b| a.total_cmp(b));
    levels.map(|l| {
        let a = (1.0 - l) / 2.0;
        (percentile_sorted(&meds, a), percentile_sorted(&meds, 1.0 - a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn bootstrap_brackets_the_median_and_narrows_with_n() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let small: Vec<f64> = (0..20).map(|_| 1.0 + rng.random_range(-0.01..0.01)).collect();
        let large: Vec<f64> = (0..2000).map(|_| 1.0 + rng.random_range(-0.01..0.01)).collect();
        let (a, b) = bootstrap_median_ci(&small, 1000, 0.95, 7);
        let (c, d) = bootstrap_median_ci(&large, 1000, 0.95, 7);
        assert!(a <= median(&small) && median(&small) <= b);
        assert!(d - c < b - a, "more trials must narrow the interval: {c}..{d} vs {a}..{b}");
        assert_eq!(bootstrap_median_ci(&small, 1000, 0.95, 7), (a, b), "deterministic");
    }
}
