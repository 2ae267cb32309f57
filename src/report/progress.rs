//! Progress of a report on stderr: an indicatif bar with an ETA on a terminal, and where
//! stderr is not one (CI, `tee`) a plain line per wall-clock pair with its result and an ETA,
//! so a long run is never silent.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

/// One tick per wall-clock pair (A/A included), the total known up front.
pub struct Progress {
    bar: ProgressBar,
    lines: bool,
    total: u64,
    done: u64,
    started: Instant,
}

impl Progress {
    /// `total` pairs; a bar when stderr is a terminal, else lines.
    pub fn new(total: u64) -> Self {
        let lines = !std::io::stderr().is_terminal();
        let bar = if lines { ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden()) } else { ProgressBar::new(total) };
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} ETA {eta} {msg}") {
            bar.set_style(style);
        }
        Progress { bar, lines, total, done: 0, started: Instant::now() }
    }

    /// What is being done now (the bar's message).
    pub fn message(&self, m: String) {
        self.bar.set_message(m);
    }

    /// Within a pair: keep the spinner moving.
    pub fn tick(&self) {
        self.bar.tick();
    }

    /// A pair is done: `what` (`local-index/table3: local vs store-each`), `result` (its ratio
    /// and verdict).
    pub fn pair_done(&mut self, what: &str, result: &str) {
        self.done += 1;
        self.bar.inc(1);
        if self.lines {
            crate::say!("{}", self.line(what, result, self.started.elapsed()));
        }
    }

    /// Pairs that will not run (a case left out).
    pub fn skip(&mut self, n: u64) {
        self.done += n;
        self.bar.inc(n);
    }

    /// The line printed for a finished pair when stderr is not a terminal.
    fn line(&self, what: &str, result: &str, elapsed: Duration) -> String {
        let left = self.total.saturating_sub(self.done);
        let eta = elapsed.as_secs_f64() / self.done.max(1) as f64 * left as f64;
        format!("[{}/{}] {what}: {result} ({} in, ETA {})", self.done, self.total, clock(elapsed.as_secs_f64()), clock(eta))
    }

    /// Clear the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `42s`, `3m05s`, `1h02m`.
pub fn clock(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_is_the_pace_so_far_times_the_pairs_left() {
        let mut p = Progress { bar: ProgressBar::hidden(), lines: false, total: 10, done: 0, started: Instant::now() };
        p.pair_done("s/c: b vs a", "x");
        p.pair_done("s/c: b vs a", "x");
        let l = p.line("s/c: b vs a", "-4.10% faster", Duration::from_secs(20));
        assert_eq!(l, "[2/10] s/c: b vs a: -4.10% faster (20s in, ETA 1m20s)");
        assert_eq!(clock(3725.0), "1h02m");
    }
}
