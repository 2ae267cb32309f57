//! Did the measuring thread have its core? Over a pair's timed blocks: the thread's CPU time
//! against the wall time, its involuntary context switches and the load average at start and
//! end. A thread that ran much less than the wall time shared its core (a parallel build, a
//! second report on the same core), and its ratios are not to be trusted: [`busy_flag`] says so.

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
}

/// Starts at [`UsageMeter::start`]; [`UsageMeter::stop`] reads the span.
pub struct UsageMeter {
    wall: Instant,
    cpu: Duration,
    nivcsw: u64,
    load: f64,
}

impl UsageMeter {
    /// Read the clocks now (on the thread that will be measured).
    pub fn start() -> Self {
        UsageMeter { load: load_average(), nivcsw: involuntary_switches(), cpu: thread_cpu_time(), wall: Instant::now() }
    }

    /// The span since [`start`](Self::start), read on the same thread.
    pub fn stop(&self) -> ThreadUsage {
        let wall = self.wall.elapsed();
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        ThreadUsage {
            wall_s: wall.as_secs_f64(),
            cpu_s: cpu.as_secs_f64(),
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

/// The 1-minute load average (`/proc/loadavg`; 0 where unreadable).
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg").ok().and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok())).unwrap_or(0.0)
}

/// The flag of a pair measured in these processes, if any ran less than [`BUSY_BELOW`] of its
/// wall time: `busy-host: thread ran 71% of wall time, 312 involuntary switches (load 1.9 to
/// 3.4)`, from the worst process (and the switches of all).
pub fn busy_flag(per_process: &[ThreadUsage]) -> Option<String> {
    let worst = per_process.iter().filter(|u| u.ran().is_some()).min_by(|a, b| a.ran().unwrap().total_cmp(&b.ran().unwrap()))?;
    let ran = worst.ran()?;
    if ran >= BUSY_BELOW {
        return None;
    }
    let switches: u64 = per_process.iter().map(|u| u.involuntary_switches).sum();
    let of = if per_process.len() > 1 {
        format!(" in the worst of {} processes", per_process.len())
    } else {
        String::new()
    };
    Some(format!(
        "busy-host: thread ran {:.0}% of wall time{of}, {switches} involuntary switches (load average {:.1} to {:.1})",
        ran * 100.0,
        worst.load_start,
        worst.load_end
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(wall: f64, cpu: f64, sw: u64) -> ThreadUsage {
        ThreadUsage { wall_s: wall, cpu_s: cpu, involuntary_switches: sw, load_start: 1.0, load_end: 2.0 }
    }

    #[test]
    fn flags_a_thread_that_ran_less_than_nine_tenths_of_the_wall_time() {
        assert_eq!(busy_flag(&[u(1.0, 0.99, 3)]), None);
        let f = busy_flag(&[u(1.0, 0.95, 1), u(1.0, 0.71, 311)]).unwrap();
        assert!(f.starts_with("busy-host: thread ran 71% of wall time"), "{f}");
        assert!(f.contains("312 involuntary switches") && f.contains("worst of 2"), "{f}");
        assert_eq!(busy_flag(&[ThreadUsage::default()]), None, "an unmeasured pair (an old report) is not flagged");
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
    }
}
