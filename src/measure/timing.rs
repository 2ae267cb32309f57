//! The timing loop: time a call once each, N times, after a warm-up, checking that every
//! call returns the warm-up's digest; the median, mean and percentiles of the per-call times,
//! and the minor faults of the timed calls only. Paired wall clock ([`super::wallclock`])
//! times blocks of calls with [`time_reps`].

use super::faults::{FaultCount, MinorFaults};
use super::stats::{median, percentile_sorted};
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How many calls to time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallConfig {
    /// Warm-up: at least this many calls...
    pub warmup_calls: u32,
    /// ...and at least this long.
    pub warmup: Duration,
    /// Timed calls: as many as fit this duration (at the warm-up's pace)...
    pub target: Duration,
    /// ...but no fewer...
    pub min_calls: u32,
    /// ...and no more.
    pub max_calls: u32,
}

/// The per-call times of the timed calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Timed calls.
    pub calls: u32,
    /// Median, us.
    pub median_us: f64,
    /// Mean, us.
    pub mean_us: f64,
    /// 10th percentile, us.
    pub p10_us: f64,
    /// 90th percentile, us.
    pub p90_us: f64,
    /// The digest every call returned.
    pub digest: u64,
    /// Minor faults of the timed calls (not the warm-up).
    pub faults: FaultCount,
}

/// Time `reps` calls of `f` as one block; every call must return `expect`.
pub fn time_reps(reps: u32, expect: u64, what: &str, f: &mut dyn FnMut() -> Result<u64>) -> Result<Duration> {
    let t = Instant::now();
    for _ in 0..reps {
        let d = std::hint::black_box(f())?;
        if d != expect {
            bail!("{what} returned digest {d:#x}, expected {expect:#x}: the results differ");
        }
    }
    Ok(t.elapsed())
}

/// Warm up, then time each of N calls of `f` (N from `cfg`) with their minor faults.
pub fn time_calls(cfg: &CallConfig, what: &str, f: &mut dyn FnMut() -> Result<u64>) -> Result<Timing> {
    let t = Instant::now();
    let mut warm = 0u32;
    let mut digest = 0;
    while warm < cfg.warmup_calls.max(1) || t.elapsed() < cfg.warmup {
        digest = f()?;
        warm += 1;
    }
    let per = t.elapsed().as_secs_f64() / warm as f64;
    let lo = cfg.min_calls.max(1);
    let n = ((cfg.target.as_secs_f64() / per.max(1e-12)) as u32).clamp(lo, cfg.max_calls.max(lo));
    // Touched before the counter starts, so its pages are not the calls' faults; and mapped
    // apart from glibc's heap, whose top the calls may measure (alloc-churn: a Vec of 2,500
    // samples took 20 KB below the query's memory and moved its fault cliff).
    let mut ns = crate::host::mapped::MappedSlice::filled(n as usize, 1.0f64).map_err(|e| anyhow::anyhow!("{what}: mapping {n} timing samples: {e}"))?;
    std::hint::black_box(&mut *ns);
    let mut faults = MinorFaults::new();
    let start = faults.read();
    for slot in ns.iter_mut() {
        let s = Instant::now();
        let d = f()?;
        *slot = s.elapsed().as_nanos() as f64;
        if d != digest {
            bail!("{what}: digests differ between calls ({d:#x} vs {digest:#x})");
        }
    }
    let end = faults.read();
    ns.sort_by(|a, b| a.total_cmp(b));
    Ok(Timing {
        calls: n,
        median_us: median(&ns) / 1e3,
        mean_us: ns.iter().sum::<f64>() / n as f64 / 1e3,
        p10_us: percentile_sorted(&ns, 0.1) / 1e3,
        p90_us: percentile_sorted(&ns, 0.9) / 1e3,
        digest,
        faults: MinorFaults::between(start, end, n),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> CallConfig {
        CallConfig { warmup_calls: 3, warmup: Duration::ZERO, target: Duration::from_millis(2), min_calls: 10, max_calls: 50 }
    }

    #[test]
    fn counts_stay_in_bounds_and_order_the_percentiles() {
        let mut calls = 0u32;
        let t = time_calls(&cfg(), "spin", &mut || {
            calls += 1;
            std::hint::black_box((0..200u64).sum::<u64>());
            Ok(7)
        })
        .unwrap();
        assert!((10..=50).contains(&t.calls), "{t:?}");
        assert!(calls >= t.calls + 3, "warm-up calls are not timed: {calls} calls, {} timed", t.calls);
        assert!(t.p10_us <= t.median_us && t.median_us <= t.p90_us, "{t:?}");
        assert_eq!(t.digest, 7);
    }

    #[test]
    fn a_changing_digest_is_an_error() {
        let mut i = 0u64;
        let e = time_calls(&cfg(), "drifting", &mut || {
            i += 1;
            Ok(if i > 5 { 1 } else { 0 })
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("drifting: digests differ"), "{e}");
        let e = time_reps(3, 9, "x", &mut || Ok(8)).unwrap_err().to_string();
        assert!(e.contains("expected 0x9"), "{e}");
    }

    #[test]
    fn the_timed_calls_own_faults_are_counted() {
        // Each call faults in 16 fresh pages of its own mapping.
        let t = time_calls(&CallConfig { warmup_calls: 1, warmup: Duration::ZERO, target: Duration::ZERO, min_calls: 8, max_calls: 8 }, "fault", &mut || {
            let len = 16 * 4096;
            // SAFETY: a private anonymous mapping we own, touched within its length, unmapped after.
            unsafe {
                let p = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
                if p == libc::MAP_FAILED {
                    bail!("mmap failed");
                }
                for i in 0..16 {
                    std::ptr::write_volatile(p.cast::<u8>().add(i * 4096), 1);
                }
                libc::munmap(p, len);
            }
            Ok(0)
        })
        .unwrap();
        assert_eq!(t.calls, 8);
        assert!(t.faults.per_call >= 15.0, "{t:?}");
    }
}
