//! Did the measuring thread have its core? Over a pair's timed blocks: the thread's CPU time
//! against the wall time, the time it waited runnable for a CPU (`/proc/thread-self/schedstat`),
//! its involuntary context switches and the load average at start and end. A thread that was
//! kept off its core for a tenth of the wall time shared it (a parallel build, a second report
//! on the same core), and its ratios are not to be trusted: [`busy_flag`] says so. The wait,
//! not the CPU time alone, decides: a scan blocked on its reads (`read-stream`'s cold cases)
//! runs a small share of the wall time on a quiet host too. Where schedstat is missing, CPU
//! time below nine tenths of the wall time decides.

use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Below this share of the wall time on the CPU, a pair is flagged as measured on a busy host.
pub const BUSY_BELOW: f64 = 0.90;

/// What the measuring thread got of its core while a pair was timed (one process).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadUsage {
    /// Wall time of the timed blocks, s (0: not measured, as in reports from before the guard).
    pub wall_s: f64,
    /// The thread's CPU time over the same span, s.
    pub cpu_s: f64,
    /// Time the thread waited runnable for a CPU over the span, s (None: no schedstat).
    #[serde(default)]
    pub run_queue_wait_s: Option<f64>,
    /// Involuntary context switches of the thread over the span.
    pub involuntary_switches: u64,
    /// 1-minute load average at the start.
    pub load_start: f64,
    /// 1-minute load average at the end.
    pub load_end: f64,
}

impl ThreadUsage {
    /// CPU time over wall time (1: the thread ran throughout); None when not measured.
    pub fn ran(&self) -> Option<f64> {
        (self.wall_s > 0.0).then(|| (self.cpu_s / self.wall_s).min(1.0))
    }

    /// The share of the wall time the thread waited runnable for a CPU, at most what it did
    /// not run: schedstat books a wait when the wait ends, so one that began before the span
    /// is counted whole, and "ran 51%, waited 52%" would add to more than the span.
    pub fn waited(&self) -> Option<f64> {
        let w = self.run_queue_wait_s?;
        let ran = self.ran()?;
        Some((w / self.wall_s).clamp(0.0, 1.0 - ran))
    }

    /// The share of the wall time the thread was not kept waiting for a CPU (1 - [`waited`](Self::waited);
    /// CPU time / wall without schedstat): what [`busy_flag`] judges.
    pub fn had_core(&self) -> Option<f64> {
        match self.waited() {
            Some(w) => Some(1.0 - w),
            None => self.ran(),
        }
    }
}

/// Starts at [`UsageMeter::start`]; [`UsageMeter::stop`] reads the span.
pub struct UsageMeter {
    wall: Instant,
    cpu: Duration,
    wait: Option<u64>,
    nivcsw: u64,
    load: f64,
}

impl UsageMeter {
    /// Read the clocks now (on the thread that will be measured).
    pub fn start() -> Self {
        UsageMeter { load: load_average(), nivcsw: involuntary_switches(), wait: run_queue_wait_ns(), cpu: thread_cpu_time(), wall: Instant::now() }
    }

    /// The span since [`start`](Self::start), read on the same thread.
    pub fn stop(&self) -> ThreadUsage {
        let wall = self.wall.elapsed();
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        let wait = match (self.wait, run_queue_wait_ns()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 / 1e9),
            _ => None,
        };
        ThreadUsage {
            wall_s: wall.as_secs_f64(),
            cpu_s: cpu.as_secs_f64(),
            run_queue_wait_s: wait,
            involuntary_switches: involuntary_switches().saturating_sub(self.nivcsw),
            load_start: self.load,
            load_end: load_average(),
        }
    }
}

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec we own.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if r != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The calling thread's involuntary context switches so far (`getrusage(RUSAGE_THREAD)`).
pub fn involuntary_switches() -> u64 {
    // SAFETY: an all-zero rusage is a valid value; getrusage fills it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes one rusage we own.
    if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) } != 0 {
        return 0;
    }
    ru.ru_nivcsw.max(0) as u64
}

/// The calling thread's time spent runnable, waiting for a CPU, so far (ns; the second field
/// of `/proc/thread-self/schedstat`), or None where the kernel does not say.
pub fn run_queue_wait_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().nth(1)?.parse().ok()
}

/// The 1-minute load average (`/proc/loadavg`; 0 where unreadable).
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg").ok().and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok())).unwrap_or(0.0)
}

/// The flag of a pair measured in these processes, if any had its core less than
/// [`BUSY_BELOW`] of its wall time ([`ThreadUsage::had_core`]): `busy-host: thread ran 71% of
/// wall time, waited 29% for a CPU, 312 involuntary switches (load average 1.9 to 3.4)`, from
/// the worst process (and the switches of all).
pub fn busy_flag(per_process: &[ThreadUsage]) -> Option<String> {
    let worst = per_process.iter().filter(|u| u.had_core().is_some()).min_by(|a, b| a.had_core().unwrap().total_cmp(&b.had_core().unwrap()))?;
    if worst.had_core()? >= BUSY_BELOW {
        return None;
    }
    let ran = worst.ran()?;
    let waited = worst.waited().map(|w| format!(", waited {:.0}% for a CPU", w * 100.0)).unwrap_or_default();
    let switches: u64 = per_process.iter().map(|u| u.involuntary_switches).sum();
    let of = if per_process.len() > 1 {
        format!(" in the worst of {} processes", per_process.len())
    } else {
        String::new()
    };
    Some(format!(
        "busy-host: thread ran {:.0}% of wall time{waited}{of}, {switches} involuntary switches (load average {:.1} to {:.1})",
        ran * 100.0,
        worst.load_start,
        worst.load_end
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(wall: f64, cpu: f64, sw: u64) -> ThreadUsage {
        ThreadUsage { wall_s: wall, cpu_s: cpu, run_queue_wait_s: None, involuntary_switches: sw, load_start: 1.0, load_end: 2.0 }
    }

    #[test]
    fn flags_a_thread_that_ran_less_than_nine_tenths_of_the_wall_time() {
        assert_eq!(busy_flag(&[u(1.0, 0.99, 3)]), None);
        let f = busy_flag(&[u(1.0, 0.95, 1), u(1.0, 0.71, 311)]).unwrap();
        assert!(f.starts_with("busy-host: thread ran 71% of wall time"), "{f}");
        assert!(f.contains("312 involuntary switches") && f.contains("worst of 2"), "{f}");
        assert_eq!(busy_flag(&[ThreadUsage::default()]), None, "an unmeasured pair (an old report) is not flagged");
        // Blocked on reads, not kept off the core: not flagged; kept off it: flagged.
        let io = ThreadUsage { run_queue_wait_s: Some(0.02), ..u(1.0, 0.26, 8) };
        assert_eq!(busy_flag(&[io]), None);
        let f = busy_flag(&[ThreadUsage { run_queue_wait_s: Some(0.6), ..u(1.0, 0.35, 90) }]).unwrap();
        assert!(f.starts_with("busy-host: thread ran 35% of wall time, waited 60% for a CPU, 90 involuntary"), "{f}");
        // A wait booked past the span's edge: the two shares still add to at most the span.
        let f = busy_flag(&[ThreadUsage { run_queue_wait_s: Some(0.52), ..u(1.0, 0.51, 40) }]).unwrap();
        assert!(f.starts_with("busy-host: thread ran 51% of wall time, waited 49% for a CPU"), "{f}");
    }

    #[test]
    fn a_spinning_thread_runs_its_wall_time_and_a_sleeping_one_does_not() {
        let m = UsageMeter::start();
        std::thread::sleep(Duration::from_millis(30));
        let slept = m.stop();
        assert!(slept.wall_s >= 0.03 && slept.ran().unwrap() < 0.5, "{slept:?}");
        let m = UsageMeter::start();
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(30) {
            std::hint::black_box(0u64);
        }
        let spun = m.stop();
        assert!(spun.cpu_s > slept.cpu_s, "{spun:?} vs {slept:?}");
        // Sleeping is not waiting for a CPU.
        if let Some(w) = slept.run_queue_wait_s {
            assert!(w < 0.025, "{slept:?}");
        }
    }
}
