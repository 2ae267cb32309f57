//! Paired, interleaved wall clock: baseline (A) and variant (B) alternate in short blocks
//! within one trial (ABBA, then BAAB on the next trial, so linear drift cancels), one time
//! ratio B/A per trial, the median ratio with a bootstrap 95% interval. Several variants of one
//! case on one baseline share its blocks: a trial is a palindrome (A B1..Bk Bk..B1 A, rotated a
//! place each trial so that each starts warm as often), so drift still cancels in every pair
//! and the baseline is timed twice a trial rather than twice a pair. An A/A pair (a kernel
//! against itself) run the same way is the noise floor of that run.
//!
//! Trials inside one process share its code layout, heap addresses and frequency state: they
//! are not independent runs. [`combine`] pools several processes with a hierarchical bootstrap
//! (resample processes, then trials within each) so that between-process variation is in the
//! interval; the report says which method built each interval.

use super::stats::{bootstrap_median_ci, median, nested_median_ci};
use super::usage::{ThreadUsage, UsageMeter};
use crate::study::{self, Case, Size, UnknownName, Variant};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long to measure one pair.
#[derive(Clone, Debug)]
pub struct PairConfig {
    /// Wall-clock budget for the pair's trials (after warm-up).
    pub budget: Duration,
    /// Target length of one timed block (a block repeats the case until it lasts this long).
    pub block: Duration,
    /// Fewest trials, whatever the budget.
    pub min_trials: usize,
    /// Warm-up runs of each arm before timing (the last one calibrates the block; one is enough
    /// where a run fills a block).
    pub warmup: usize,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Seed of the bootstrap.
    pub seed: u64,
}

impl PairConfig {
    /// The default report's: 0.5 s a pair (split over its code layouts) and at least 4 trials a
    /// layout, so that a report of every study stays under 90 s on a quiet 2-core VM. A case's pairs share
    /// its baseline's blocks ([`run_arms`]): with three pairs on a case each gets 1.5 times the
    /// trials it would timed alone, and a case whose slow baseline sets the minimum of trials
    /// takes half the time. The A/A floors at 0.5 s stay narrower than 0.6 s gave before the
    /// pairs shared their baseline (analysis/issue22-verification.md has both).
    pub fn quick() -> Self {
        Self { budget: Duration::from_millis(500), block: Duration::from_millis(3), min_trials: 8, warmup: 3, resamples: 2000, seed: 0x4a11 }
    }
    /// The full report: about 10 s a pair.
    pub fn full() -> Self {
        Self { budget: Duration::from_secs(10), block: Duration::from_millis(5), min_trials: 60, warmup: 4, resamples: 2000, seed: 0x4a11 }
    }
}

/// The trials of one pair in one process.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairTrials {
    /// Ratio B/A of each trial.
    pub ratios: Vec<f64>,
    /// Nanoseconds per item of A, per trial.
    pub a_ns_per_item: Vec<f64>,
    /// Nanoseconds per item of B, per trial.
    pub b_ns_per_item: Vec<f64>,
    /// Case runs per timed block.
    pub reps_per_block: u32,
    /// What the thread got of its core over the timed blocks (the busy-host guard).
    #[serde(default)]
    pub usage: ThreadUsage,
}

/// A measured pair.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Paired {
    /// Baseline id (A).
    pub baseline: String,
    /// Variant id (B).
    pub variant: String,
    /// Processes pooled.
    pub processes: usize,
    /// Trials pooled (over all processes).
    pub trials: usize,
    /// Case runs per timed block.
    pub reps_per_block: u32,
    /// Median ns per item of the baseline.
    pub baseline_ns_per_item: f64,
    /// Median ns per item of the variant.
    pub variant_ns_per_item: f64,
    /// Median of the per-trial ratios variant/baseline (< 1: the variant is faster).
    pub median_ratio: f64,
    /// Lower end of the 95% interval of the median ratio.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// Spread of the per-process median ratios (min, max); equal for one process.
    pub process_medians: Vec<f64>,
    /// How the interval was built.
    pub interval: String,
    /// Per code layout (`crate::host::layout`): its ratio and where the two kernels sat.
    /// Empty when the pair was measured in one layout only.
    #[serde(default)]
    pub layouts: Vec<LayoutRatio>,
    /// Per process: what the measuring thread got of its core (the busy-host guard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usage: Vec<ThreadUsage>,
}

/// Where a kernel sat in one layout, mod 64.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Site {
    /// The kernel's first byte, mod 64.
    pub kernel: Option<u32>,
    /// Its innermost loop's header, mod 64.
    pub loop_header: Option<u32>,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = |x: Option<u32>| x.map_or("?".to_string(), |v| v.to_string());
        write!(f, "@{} loop@{}", o(self.kernel), o(self.loop_header))
    }
}

/// The trials of one pair under one code layout, from one or more processes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LayoutTrials {
    /// Layout id (`natural`, `at-16`, ...).
    pub layout: String,
    /// Where the baseline's kernel sat.
    pub a: Site,
    /// Where the variant's kernel sat.
    pub b: Site,
    /// Each process's trials.
    pub processes: Vec<PairTrials>,
}

/// One layout's share of a [`Paired`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LayoutRatio {
    /// Layout id.
    pub layout: String,
    /// Where the baseline's kernel sat.
    pub a: Site,
    /// Where the variant's kernel sat.
    pub b: Site,
    /// Processes.
    pub processes: usize,
    /// Trials over those processes.
    pub trials: usize,
    /// Median ratio in this layout.
    pub median_ratio: f64,
    /// Its 95% interval (processes, then trials).
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
}

impl Paired {
    /// Half-width of the interval relative to 1 (e.g. 0.003 = ±0.3%).
    pub fn half_width(&self) -> f64 {
        (self.ci_high - self.ci_low) / 2.0
    }
}

fn time_block(case: &mut dyn Case, v: &'static Variant, reps: u32, expect: u64) -> Result<Duration> {
    super::timing::time_reps(reps, expect, v.id, &mut || case.run(v))
}

/// Run the trials of pair (a, b) on `case` in this process. `tick` is called once per trial.
pub fn run_trials(case: &mut dyn Case, a: &'static Variant, b: &'static Variant, cfg: &PairConfig, tick: &mut dyn FnMut(f64)) -> Result<PairTrials> {
    let expect = case.run(a)?;
    Ok(run_arms(case, a, &[b], expect, cfg, tick)?.remove(0))
}

/// The blocks of trial `t` of `k` arms on one baseline, in order: `None` the baseline,
/// `Some(i)` arm `i`. The sequence (A, B1, ..., Bk), rotated by `t` places, then the same
/// reversed: each arm's two blocks sit symmetric to the baseline's about the trial's middle,
/// so linear drift cancels in every pair. Only the middle block follows one of its own kind
/// (a warm start: its code and data just ran), and the rotation gives that place to the
/// baseline and to each arm once every k + 1 trials; one arm is ABBA, then BAAB.
fn palindrome(k: usize, t: usize) -> Vec<Option<usize>> {
    let seq: Vec<Option<usize>> = std::iter::once(None).chain((0..k).map(Some)).collect();
    let r = t % (k + 1);
    let half: Vec<Option<usize>> = seq[r..].iter().chain(&seq[..r]).copied().collect();
    half.iter().copied().chain(half.iter().rev().copied()).collect()
}

/// The trials of every pair (`a`, `arms[i]`) at once: one trial times the baseline twice and
/// each arm twice, in a palindrome ([`palindrome`]: A B1..Bk Bk..B1 A, rotated a place each
/// trial), so that every arm's two blocks are centred where the baseline's are and linear
/// drift cancels for each pair, as ABBA/BAAB does for one (which is what one arm gives). A
/// case with several variants times its baseline two blocks a trial instead of two a pair:
/// where the baseline is the slow arm (a synchronous cold scan, glibc's trimmed heap) that is
/// most of the case's time. The pairs' budgets add up to the case's; each pair's ratio is its
/// arm's time over the baseline's in the same trial.
fn run_arms(case: &mut dyn Case, a: &'static Variant, arms: &[&'static Variant], expect: u64, cfg: &PairConfig, tick: &mut dyn FnMut(f64)) -> Result<Vec<PairTrials>> {
    // Warm-up rounds are timed, and the last one calibrates the block length on the slowest
    // arm; every run is checked against the baseline's digest, so the first round is also the
    // check that each variant computes the same result. A case whose every run already fills
    // a block (a cold 150 ms scan) is warm after one round: more would only add seconds, and
    // its block is one run whatever they say.
    let mut one = Duration::ZERO;
    for _ in 0..cfg.warmup.max(1) {
        let ta = time_block(case, a, 1, expect)?;
        let (mut slowest, mut fastest) = (ta, ta);
        for b in arms {
            let tb = time_block(case, b, 1, expect).with_context(|| format!("{} against the baseline {}", b.id, a.id))?;
            slowest = slowest.max(tb);
            fastest = fastest.min(tb);
        }
        one = slowest;
        if fastest >= cfg.block {
            break;
        }
    }
    let reps = (cfg.block.as_nanos() / one.as_nanos().max(1)).clamp(1, 1_000_000) as u32;
    let blocks = 2 + 2 * arms.len() as u32;
    let per_trial = one * reps * blocks;
    let fit = (cfg.budget.as_nanos() * arms.len() as u128 / per_trial.as_nanos().max(1)) as usize;
    // `min_trials` holds while it costs at most twice the budget; a case so slow that even that
    // is too long (a cold 153 MiB scan) gets what twice the budget allows, and never fewer than
    // 8 trials (or `min_trials`, when a pair's trials are shared out over code layouts). The
    // interval then says how few there were.
    let trials = if fit >= cfg.min_trials { fit } else { cfg.min_trials.min((2 * fit).max(cfg.min_trials.min(8))) };
    let items = case.items().max(1) as f64 * reps as f64;
    let new = || PairTrials { ratios: vec![], a_ns_per_item: vec![], b_ns_per_item: vec![], reps_per_block: reps, usage: ThreadUsage::default() };
    let mut out: Vec<PairTrials> = arms.iter().map(|_| new()).collect();
    let mut tb = vec![Duration::ZERO; arms.len()];
    let meter = UsageMeter::start();
    for t in 0..trials {
        tb.iter_mut().for_each(|d| *d = Duration::ZERO);
        let mut ta = Duration::ZERO;
        for slot in palindrome(arms.len(), t) {
            match slot {
                None => ta += time_block(case, a, reps, expect)?,
                Some(i) => tb[i] += time_block(case, arms[i], reps, expect)?,
            }
        }
        for (o, d) in out.iter_mut().zip(&tb) {
            o.ratios.push(d.as_secs_f64() / ta.as_secs_f64());
            o.a_ns_per_item.push(ta.as_nanos() as f64 / 2.0 / items);
            o.b_ns_per_item.push(d.as_nanos() as f64 / 2.0 / items);
        }
        tick(t as f64 / trials as f64);
    }
    let usage = meter.stop();
    out.iter_mut().for_each(|o| o.usage = usage);
    Ok(out)
}

/// A size by its [`Size::name`]; an unknown one lists the valid names.
pub fn size_named(name: &str) -> Result<Size, UnknownName> {
    use clap::ValueEnum;
    Size::value_variants().iter().copied().find(|s| s.name() == name).ok_or_else(|| UnknownName {
        kind: "size",
        given: name.to_string(),
        valid: Size::value_variants().iter().map(|s| s.name().to_string()).collect(),
    })
}

/// The longest budget a pair may ask for, ms (an hour).
pub const MAX_BUDGET_MS: u64 = 3_600_000;
/// The longest timed block, us (10 s).
pub const MAX_BLOCK_US: u64 = 10_000_000;

/// A budget and block length from a request: in range, or bad input ([`crate::host::Usage`]);
/// a block of 10^11 us would never end.
fn check_lengths(budget: Duration, block: Duration) -> Result<()> {
    let (b, k) = (budget.as_millis(), block.as_micros());
    if !(1..=MAX_BUDGET_MS as u128).contains(&b) || !(1..=MAX_BLOCK_US as u128).contains(&k) {
        bail!(crate::host::Usage(format!(
            "budget {b} ms, block {k} us: the budget must be 1 to {MAX_BUDGET_MS} ms and the block 1 to {MAX_BLOCK_US} us"
        )));
    }
    Ok(())
}

/// The trials of pair (`a`, `b`) on case `case` at `size`, by id, in this process (pinned
/// first): what a `trials` worker and `hotloops paired` run.
pub fn trials_by_id(a: &str, b: &str, case: &str, size: Size, budget: Duration, block: Duration) -> Result<PairTrials> {
    check_lengths(budget, block)?;
    let (s, va) = study::variant(a)?;
    let vb = s.info().variant(b)?;
    let mut c = study::build_case(s, case, size)?;
    super::pin_current_thread();
    let mut cfg = if size == Size::Full { PairConfig::full() } else { PairConfig::quick() };
    cfg.budget = budget;
    cfg.block = block;
    run_trials(c.as_mut(), va, vb, &cfg, &mut |_| {})
}

/// The trials of each (baseline, variant) pair in `pairs` on one case built once, in this
/// process (pinned first), after allocating `heap_pad` bytes to move the heap: what a
/// `case-trials` worker runs, one per code layout and process.
pub fn case_trials_by_id(case: &str, size: Size, pairs: &[(String, String)], budget: Duration, block: Duration, min_trials: usize, heap_pad: usize) -> Result<Vec<PairTrials>> {
    check_lengths(budget, block)?;
    let Some((first, _)) = pairs.first() else { bail!(crate::host::Usage("case-trials: no pairs".into())) };
    let (s, _) = study::variant(first)?;
    let rows: Vec<(&'static Variant, &'static Variant)> =
        pairs.iter().map(|(a, b)| Ok((s.info().variant(a)?, s.info().variant(b)?))).collect::<Result<_, UnknownName>>()?;
    // Kept for the process's life, so everything allocated after it moves by its size.
    let pad = std::hint::black_box(vec![0u8; heap_pad.max(1)]);
    std::mem::forget(pad);
    let mut c = study::build_case(s, case, size)?;
    super::pin_current_thread();
    let mut cfg = if size == Size::Full { PairConfig::full() } else { PairConfig::quick() };
    cfg.budget = budget;
    cfg.block = block;
    cfg.min_trials = min_trials.max(2);
    // Pairs on one baseline (a study's are all on its baseline) share its blocks: one
    // palindrome of trials for all of them, the answers in the order asked.
    let mut out: Vec<Option<PairTrials>> = vec![None; rows.len()];
    let mut done = vec![false; rows.len()];
    for i in 0..rows.len() {
        if done[i] {
            continue;
        }
        let a = rows[i].0;
        let group: Vec<usize> = (i..rows.len()).filter(|&j| !done[j] && rows[j].0.id == a.id).collect();
        let arms: Vec<&'static Variant> = group.iter().map(|&j| rows[j].1).collect();
        let expect = c.run(a)?;
        let names = arms.iter().map(|b| b.id).collect::<Vec<_>>().join(", ");
        let got = run_arms(c.as_mut(), a, &arms, expect, &cfg, &mut |_| {}).with_context(|| format!("{names} vs {} on {case}", a.id))?;
        for (&j, t) in group.iter().zip(got) {
            done[j] = true;
            out[j] = Some(t);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// Pool the trials of one or more processes into a [`Paired`].
pub fn combine(baseline: &str, variant: &str, per_process: &[PairTrials], resamples: usize, seed: u64) -> Paired {
    assert!(!per_process.is_empty());
    let all: Vec<f64> = per_process.iter().flat_map(|p| p.ratios.iter().copied()).collect();
    let a: Vec<f64> = per_process.iter().flat_map(|p| p.a_ns_per_item.iter().copied()).collect();
    let b: Vec<f64> = per_process.iter().flat_map(|p| p.b_ns_per_item.iter().copied()).collect();
    let process_medians: Vec<f64> = per_process.iter().map(|p| median(&p.ratios)).collect();
    let (ci_low, ci_high, interval) = if per_process.len() == 1 {
        let (l, h) = bootstrap_median_ci(&all, resamples, 0.95, seed);
        (l, h, format!(
            "percentile bootstrap ({resamples} resamples) of the median over {} ABBA/BAAB trials in one process; \
             trials in one process are not independent runs (use --processes to pool several)",
            all.len()
        ))
    } else {
        let groups: Vec<Vec<&[f64]>> = per_process.iter().map(|p| vec![p.ratios.as_slice()]).collect();
        let (lo, hi) = nested_median_ci(&groups, resamples, seed);
        (lo, hi, format!(
            "hierarchical percentile bootstrap ({resamples} resamples): processes resampled, then trials within each; \
             {} processes x {} ABBA/BAAB trials",
            per_process.len(),
            all.len() / per_process.len()
        ))
    };
    Paired {
        baseline: baseline.to_string(),
        variant: variant.to_string(),
        processes: per_process.len(),
        trials: all.len(),
        reps_per_block: per_process[0].reps_per_block,
        baseline_ns_per_item: median(&a),
        variant_ns_per_item: median(&b),
        median_ratio: median(&all),
        ci_low,
        ci_high,
        process_medians,
        interval,
        layouts: vec![],
        usage: per_process.iter().map(|p| p.usage).collect(),
    }
}

/// Pool a pair measured under several code layouts: a three-level hierarchical bootstrap
/// (layouts resampled, then processes within each, then trials within each process), so the
/// interval holds the spread between layouts; each layout's own ratio is kept beside it.
/// One layout is [`combine`] with that layout's ratio attached.
pub fn combine_layouts(baseline: &str, variant: &str, per_layout: &[LayoutTrials], resamples: usize, seed: u64) -> Paired {
    assert!(!per_layout.is_empty() && per_layout.iter().all(|l| !l.processes.is_empty()));
    let layouts: Vec<LayoutRatio> = per_layout
        .iter()
        .map(|l| {
            let p = combine(baseline, variant, &l.processes, resamples, seed);
            LayoutRatio { layout: l.layout.clone(), a: l.a, b: l.b, processes: p.processes, trials: p.trials, median_ratio: p.median_ratio, ci_low: p.ci_low, ci_high: p.ci_high }
        })
        .collect();
    let flat: Vec<PairTrials> = per_layout.iter().flat_map(|l| l.processes.iter().cloned()).collect();
    let mut p = combine(baseline, variant, &flat, resamples, seed);
    if per_layout.len() > 1 {
        let groups: Vec<Vec<&[f64]>> = per_layout.iter().map(|l| l.processes.iter().map(|t| t.ratios.as_slice()).collect()).collect();
        (p.ci_low, p.ci_high) = nested_median_ci(&groups, resamples, seed);
        p.interval = format!(
            "hierarchical percentile bootstrap ({resamples} resamples) over code layouts: layouts resampled, then processes \
             within each, then trials; {} layouts ({}), {} processes and {} ABBA/BAAB trials in all",
            per_layout.len(),
            per_layout.iter().map(|l| l.layout.as_str()).collect::<Vec<_>>().join(", "),
            flat.len(),
            p.trials
        );
    }
    p.layouts = layouts;
    p
}

/// The busy-host flag of a pair, if its thread ran less than
/// [`BUSY_BELOW`](super::usage::BUSY_BELOW) of the wall time in any process.
pub fn busy_flag(p: &Paired) -> Option<String> {
    super::usage::busy_flag(&p.usage)
}

/// The A/A noise floor: how far from 1 a kernel measured against itself strays (the larger of
/// its median's distance from 1 and its interval's half-width).
pub fn noise_floor(aa: &Paired) -> f64 {
    (aa.median_ratio - 1.0).abs().max(aa.half_width())
}

/// What a pair shows, given the run's A/A floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The variant is faster, beyond the interval and the floor.
    Faster,
    /// The variant is slower, beyond the interval and the floor.
    Slower,
    /// The interval includes 1, or the effect is within the A/A floor.
    NotResolved,
    /// The code layouts disagree: their ratios straddle 1, or spread wider than the effect
    /// (and wider than the A/A floor). Placement, not the patch, decides the sign or size.
    LayoutSensitive,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NotResolved => "not resolved",
            Verdict::LayoutSensitive => "layout-sensitive",
        })
    }
}

/// Judge a pair: resolved only if its interval (over layouts, when there are several)
/// excludes 1 and the effect exceeds the floor; layout-sensitive when the layouts' own ratios
/// straddle 1 or spread wider than the effect, by more than the floor, and at least two
/// layouts' own intervals are apart.
pub fn verdict(p: &Paired, floor: f64) -> Verdict {
    if p.layouts.len() > 1 {
        let lo = p.layouts.iter().map(|l| l.median_ratio).fold(f64::INFINITY, f64::min);
        let hi = p.layouts.iter().map(|l| l.median_ratio).fold(f64::NEG_INFINITY, f64::max);
        let spread = hi - lo;
        // Layouts that really differ: two whose own intervals do not overlap. Without that,
        // a spread is the processes' noise, which the pooled interval already holds.
        let apart = p.layouts.iter().any(|x| p.layouts.iter().any(|y| x.ci_high < y.ci_low));
        if apart && spread > floor && ((lo < 1.0 && hi > 1.0) || spread > (p.median_ratio - 1.0).abs()) {
            return Verdict::LayoutSensitive;
        }
    }
    if p.ci_low <= 1.0 && 1.0 <= p.ci_high {
        return Verdict::NotResolved;
    }
    if (p.median_ratio - 1.0).abs() <= floor {
        return Verdict::NotResolved;
    }
    if p.median_ratio < 1.0 { Verdict::Faster } else { Verdict::Slower }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trials(r: &[f64]) -> PairTrials {
        PairTrials { ratios: r.to_vec(), a_ns_per_item: vec![1.0; r.len()], b_ns_per_item: r.to_vec(), reps_per_block: 1, usage: ThreadUsage::default() }
    }

    /// A case that counts its runs and takes `each` a run.
    struct Counted {
        each: Duration,
        runs: usize,
    }

    impl Case for Counted {
        fn describe(&self) -> String {
            "counted".into()
        }
        fn items(&self) -> u64 {
            1
        }
        fn run(&mut self, _v: &'static Variant) -> Result<u64> {
            self.runs += 1;
            if !self.each.is_zero() {
                std::thread::sleep(self.each);
            }
            Ok(7)
        }
    }

    /// Runs before the first trial: the baseline's digest and the warm-up rounds (the first
    /// checks the variant's result, the last calibrates). A case whose runs fill a block gets
    /// one round, a fast one every round.
    #[test]
    fn a_slow_case_warms_up_once_and_a_fast_one_every_round() {
        let v = &crate::study::local_index::info().variants[0];
        let cfg = PairConfig { budget: Duration::from_millis(10), block: Duration::from_millis(2), min_trials: 4, ..PairConfig::quick() };
        for (each, rounds) in [(Duration::from_millis(3), 1), (Duration::ZERO, cfg.warmup)] {
            let mut c = Counted { each, runs: 0 };
            let t = run_trials(&mut c, v, v, &cfg, &mut |_| {}).unwrap();
            let timed = t.ratios.len() * 4 * t.reps_per_block as usize;
            assert_eq!(c.runs - timed, 1 + 2 * rounds, "{each:?}: {} runs, {} trials of {} reps", c.runs, t.ratios.len(), t.reps_per_block);
            assert!(t.ratios.len() >= 4);
        }
    }

    /// A case whose variants return their id's length as the digest.
    struct ByVariant;

    impl Case for ByVariant {
        fn describe(&self) -> String {
            "by variant".into()
        }
        fn items(&self) -> u64 {
            1
        }
        fn run(&mut self, v: &'static Variant) -> Result<u64> {
            Ok(v.id.len() as u64)
        }
    }

    /// The warm-up's first round checks the variant against the baseline's digest.
    #[test]
    fn a_variant_with_another_result_is_refused() {
        let vs = crate::study::local_index::info().variants;
        let (a, b) = (&vs[0], vs.iter().find(|v| v.id.len() != vs[0].id.len()).unwrap());
        let e = run_trials(&mut ByVariant, a, b, &PairConfig::quick(), &mut |_| {}).unwrap_err();
        assert!(format!("{e:#}").contains("the results differ") && format!("{e:#}").contains(b.id), "{e:#}");
        assert!(run_trials(&mut ByVariant, a, a, &PairConfig { budget: Duration::from_millis(5), ..PairConfig::quick() }, &mut |_| {}).is_ok());
    }

    /// A case that logs which variant each run was and spins 100 us (so a block is a few runs).
    struct Logged {
        log: Vec<&'static str>,
    }

    impl Case for Logged {
        fn describe(&self) -> String {
            "logged".into()
        }
        fn items(&self) -> u64 {
            1
        }
        fn run(&mut self, v: &'static Variant) -> Result<u64> {
            let until = std::time::Instant::now() + Duration::from_micros(100);
            self.log.push(v.id);
            while std::time::Instant::now() < until {
                std::hint::spin_loop();
            }
            Ok(7)
        }
    }

    /// Several arms on one baseline: each trial runs its blocks in the palindrome's order, the
    /// baseline timed twice a trial and not twice a pair, and every pair gets as many trials
    /// as the others. (What is checked is the order of the runs, not their times: the test
    /// holds on a loaded machine.)
    #[test]
    fn arms_on_one_baseline_share_its_blocks() {
        let vs = crate::study::local_index::info().variants;
        let (a, arms) = (&vs[0], [&vs[1], &vs[2], &vs[0]]);
        let cfg = PairConfig { budget: Duration::from_millis(4), block: Duration::from_micros(400), min_trials: 6, warmup: 1, ..PairConfig::quick() };
        let mut c = Logged { log: vec![] };
        let got = run_arms(&mut c, a, &arms, 7, &cfg, &mut |_| {}).unwrap();
        assert_eq!(got.len(), 3);
        let (n, reps) = (got[0].ratios.len(), got[0].reps_per_block as usize);
        assert!(n >= 6 && got.iter().all(|t| t.ratios.len() == n && t.reps_per_block as usize == reps), "{got:?}");
        // After the warm-up round (the baseline, then each arm once): trials of 8 blocks.
        let (warm, timed) = c.log.split_at(4);
        assert_eq!(warm, [a.id, arms[0].id, arms[1].id, arms[2].id]);
        assert_eq!(timed.len(), n * 8 * reps);
        for (t, trial) in timed.chunks(8 * reps).enumerate() {
            let blocks: Vec<&str> = trial.chunks(reps).map(|b| b[0]).collect();
            assert!(trial.chunks(reps).all(|b| b.iter().all(|id| *id == b[0])), "trial {t}: a block mixes variants");
            let want: Vec<&str> = palindrome(3, t).iter().map(|s| s.map_or(a.id, |i| arms[i].id)).collect();
            assert_eq!(blocks, want, "trial {t}");
        }
    }

    /// Every trial's schedule times the baseline and each arm twice, at positions with the
    /// same sum, so that a drift linear in time adds as much to each arm as to the baseline;
    /// over k + 1 trials each of them follows itself (starts warm) exactly once, and no trial
    /// starts with what the last one ended with.
    #[test]
    fn each_arm_of_a_palindrome_is_centred_on_the_baseline_and_starts_warm_as_often() {
        for k in 1..8 {
            let mut warm = vec![0usize; k + 1];
            let mut last: Option<Option<usize>> = None;
            for t in 0..k + 1 {
                let order = palindrome(k, t);
                assert_eq!(order.len(), 2 + 2 * k);
                let at = |slot: Option<usize>| order.iter().enumerate().filter(|(_, s)| **s == slot).map(|(p, _)| p).collect::<Vec<_>>();
                let base = at(None);
                assert_eq!(base.len(), 2);
                for i in 0..k {
                    let arm = at(Some(i));
                    assert_eq!(arm.len(), 2, "k {k}: arm {i}");
                    assert_eq!(arm[0] + arm[1], base[0] + base[1], "k {k}, trial {t}: arm {i} at {arm:?}, baseline at {base:?}");
                }
                assert_ne!(last, Some(order[0]), "k {k}, trial {t} starts with what trial {} ended with", t.wrapping_sub(1));
                last = order.last().copied();
                for w in order.windows(2).filter(|w| w[0] == w[1]) {
                    warm[w[0].map_or(0, |i| i + 1)] += 1;
                }
            }
            assert_eq!(warm, vec![1; k + 1], "k {k}: warm starts of the baseline, then of each arm, over {} trials", k + 1);
        }
        assert_eq!(palindrome(1, 0), [None, Some(0), Some(0), None]);
        assert_eq!(palindrome(1, 1), [Some(0), None, None, Some(0)]);
    }

    #[test]
    fn interval_including_one_is_not_resolved() {
        let p = combine("a", "b", &[trials(&[0.98, 1.01, 0.99, 1.02, 0.97, 1.03])], 500, 1);
        assert!(p.ci_low < 1.0 && p.ci_high > 1.0);
        assert_eq!(verdict(&p, 0.0), Verdict::NotResolved);
    }

    #[test]
    fn clear_effect_is_resolved_but_not_below_the_floor() {
        let r: Vec<f64> = (0..50).map(|i| 0.95 + (i % 5) as f64 * 0.001).collect();
        let p = combine("a", "b", &[trials(&r)], 500, 1);
        assert_eq!(verdict(&p, 0.003), Verdict::Faster);
        assert_eq!(verdict(&p, 0.06), Verdict::NotResolved, "an effect inside the A/A floor is noise");
        let slow: Vec<f64> = r.iter().map(|x| 2.0 - x).collect();
        assert_eq!(verdict(&combine("a", "b", &[trials(&slow)], 500, 1), 0.003), Verdict::Slower);
    }

    fn layout(name: &str, procs: &[&[f64]]) -> LayoutTrials {
        LayoutTrials { layout: name.into(), a: Site::default(), b: Site::default(), processes: procs.iter().map(|r| trials(r)).collect() }
    }

    fn around(centre: f64, n: usize) -> Vec<f64> {
        (0..n).map(|i| centre + (i % 5) as f64 * 0.0004 - 0.0008).collect()
    }

    #[test]
    fn a_ratio_that_flips_with_layout_is_never_resolved() {
        let (x, y) = (around(0.90, 40), around(1.08, 40));
        let p = combine_layouts("a", "b", &[layout("at-0", &[&x, &x]), layout("at-48", &[&y, &y])], 1000, 5);
        assert_eq!(p.layouts.len(), 2);
        assert!((p.layouts[0].median_ratio - 0.90).abs() < 0.002 && (p.layouts[1].median_ratio - 1.08).abs() < 0.002, "{p:?}");
        assert_eq!(verdict(&p, 0.003), Verdict::LayoutSensitive);
        // Even a tiny floor and a one-sided pooled median cannot make it resolved.
        let z = around(0.80, 40);
        let q = combine_layouts("a", "b", &[layout("at-0", &[&z]), layout("at-16", &[&z]), layout("at-48", &[&y])], 1000, 5);
        assert_eq!(verdict(&q, 0.0), Verdict::LayoutSensitive, "{q:?}");
        assert!(p.interval.contains("over code layouts"), "{}", p.interval);
    }

    #[test]
    fn noisy_layouts_that_overlap_are_noise_not_layout() {
        // Medians 0.96 and 1.04 but each layout's trials spread ±15%: their intervals
        // overlap, so this is not evidence about layout, and the pooled interval holds 1.
        let noisy = |c: f64| (0..12).map(|i| c + [-0.15, 0.15, -0.1, 0.1, 0.0, 0.05][i % 6]).collect::<Vec<f64>>();
        let (x, y) = (noisy(0.96), noisy(1.04));
        let p = combine_layouts("a", "b", &[layout("at-0", &[&x]), layout("at-48", &[&y])], 1000, 5);
        assert!(p.layouts[0].ci_high > p.layouts[1].ci_low, "{p:?}");
        assert_eq!(verdict(&p, 0.01), Verdict::NotResolved, "{p:?}");
    }

    #[test]
    fn layouts_that_agree_resolve_and_a_wide_spread_does_not() {
        let (x, y) = (around(0.95, 40), around(0.955, 40));
        let p = combine_layouts("a", "b", &[layout("at-0", &[&x]), layout("at-48", &[&y])], 1000, 5);
        assert_eq!(verdict(&p, 0.003), Verdict::Faster, "{p:?}");
        // Both faster, but by 2% in one layout and 10% in the other: the spread is wider
        // than the pooled effect, so placement decides the size.
        let (u, w) = (around(0.98, 40), around(0.90, 40));
        let q = combine_layouts("a", "b", &[layout("at-0", &[&u]), layout("at-48", &[&w])], 1000, 5);
        assert_eq!(verdict(&q, 0.003), Verdict::LayoutSensitive, "{q:?}");
        // The layout-level interval covers both layouts' ratios; one layout's does not.
        let one = combine_layouts("a", "b", &[layout("at-0", &[&u])], 1000, 5);
        assert!(q.ci_low < 0.91 && q.ci_high > 0.97, "{q:?}");
        assert!(one.half_width() < 0.01 && one.layouts.len() == 1, "{one:?}");
        assert_eq!(verdict(&one, 0.003), Verdict::Faster);
    }

    #[test]
    fn processes_that_disagree_widen_the_interval() {
        let p1: Vec<f64> = (0..40).map(|i| 0.97 + (i % 3) as f64 * 0.0005).collect();
        let p2: Vec<f64> = (0..40).map(|i| 1.01 + (i % 3) as f64 * 0.0005).collect();
        let one = combine("a", "b", &[trials(&p1)], 500, 3);
        let two = combine("a", "b", &[trials(&p1), trials(&p2), trials(&p1)], 500, 3);
        assert!(two.half_width() > 5.0 * one.half_width(), "{two:?} vs {one:?}");
        assert_eq!(two.processes, 3);
        assert!(two.interval.contains("hierarchical"));
    }
}
