//! Minor page faults of this process: perf's software counter (user space only) where it
//! opens, getrusage's `ru_minflt` where perf is refused; both are read, so a report can say
//! which gave its number and how far the two agree.

/// A minor-fault counter of this process.
pub struct MinorFaults {
    perf: Option<perf_event::Counter>,
}

/// Faults over a span, per call.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultCount {
    /// Minor faults per call (perf where it counted the whole span, else getrusage).
    pub per_call: f64,
    /// Which counter gave `per_call`.
    pub source: &'static str,
    /// getrusage's count per call, for comparison.
    pub rusage_per_call: f64,
}

/// `ru_minflt` of this process (0 if getrusage fails).
pub fn rusage_minflt() -> u64 {
    // SAFETY: getrusage fills the zeroed struct we own.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0 { u.ru_minflt as u64 } else { 0 }
    }
}

const PERF: &str = "perf minor-faults";
const RUSAGE: &str = "getrusage ru_minflt";

impl MinorFaults {
    /// Open (and enable) the perf counter; without it, getrusage alone.
    pub fn new() -> MinorFaults {
        let mut b = perf_event::Builder::new(perf_event::events::Software::PAGE_FAULTS_MIN);
        b.exclude_kernel(true).exclude_hv(true);
        let mut perf = b.build().ok();
        if let Some(c) = perf.as_mut()
            && c.enable().is_err()
        {
            perf = None;
        }
        MinorFaults { perf }
    }

    /// The counter that will give the number.
    pub fn source(&self) -> &'static str {
        if self.perf.is_some() { PERF } else { RUSAGE }
    }

    /// A reading: (perf count if it read, getrusage count).
    pub fn read(&mut self) -> (Option<u64>, u64) {
        let p = self.perf.as_mut().and_then(|c| c.read().ok());
        (p, rusage_minflt())
    }

    /// Faults per call between two readings over `calls` calls.
    pub fn between(start: (Option<u64>, u64), end: (Option<u64>, u64), calls: u32) -> FaultCount {
        let calls = calls.max(1) as f64;
        let rusage_per_call = end.1.saturating_sub(start.1) as f64 / calls;
        match (start.0, end.0) {
            (Some(a), Some(b)) => FaultCount { per_call: b.saturating_sub(a) as f64 / calls, source: PERF, rusage_per_call },
            _ => FaultCount { per_call: rusage_per_call, source: RUSAGE, rusage_per_call },
        }
    }
}

impl Default for MinorFaults {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_fresh_pages_counts_faults() {
        let mut f = MinorFaults::new();
        let pages = 64;
        let len = pages * 4096;
        // SAFETY: a private anonymous mapping we own, touched within its length, unmapped after.
        let n = unsafe {
            let p = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
            assert_ne!(p, libc::MAP_FAILED);
            let s = f.read();
            for i in 0..pages {
                std::ptr::write_volatile(p.cast::<u8>().add(i * 4096), 1);
            }
            let e = f.read();
            libc::munmap(p, len);
            MinorFaults::between(s, e, 2)
        };
        assert!(n.per_call >= pages as f64 / 2.0 * 0.9, "{pages} fresh pages over 2 calls: {n:?}");
        assert!(n.rusage_per_call >= pages as f64 / 2.0 * 0.9, "{n:?}");
        assert_eq!(n.source, f.source());
    }

    #[test]
    fn without_perf_the_rusage_count_is_the_number() {
        let c = MinorFaults::between((None, 10), (Some(99), 30), 4);
        assert_eq!((c.per_call, c.source, c.rusage_per_call), (5.0, RUSAGE, 5.0));
        let c = MinorFaults::between((Some(1), 10), (Some(9), 30), 4);
        assert_eq!((c.per_call, c.source), (2.0, PERF));
    }
}
