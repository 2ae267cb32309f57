//! The loop-only harness checked against the kernel itself: each kernel's own time per item
//! from the wall clock, in cycles through the harness's dependent-add clock, beside its loop's
//! loop-only figure.
//!
//! Where the loop is the kernel's work per item (dir-by-value: `_bt_readpage`'s per-tuple loop
//! is the kernel, its per-page set-up a few dozen instructions over a page's hundreds of tuples),
//! the two should agree, and a gap says the harness does not run the kernel's loop as the kernel
//! does. Where the kernel does more per item outside the loop (local-index's and tid-batch's page
//! steps and TID sinks, reached through calls the loop does not follow), the kernel's time is an
//! upper bound on the loop's. Where the loop's trip is not the study's item (read-stream's loop is
//! a tuple of a page, its item a page read; alloc-churn's item is a query), there is no check.
//!
//! Timing: the study's case at test size (cache-resident, as the harness's L1-hit loop is), each
//! kernel run in turn, [`ROUNDS`] rounds after a warm-up, the fastest run kept (on a shared VM
//! a run is only ever slowed from outside, as in the harness).

use crate::study::{self, Case, Size, Variant};
use anyhow::{Result, anyhow};
use std::time::Instant;

/// What a study's kernel does per item beside its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The loop is the kernel's work: the two figures should agree.
    Loop,
    /// The kernel does more per item (said): its figure bounds the loop's from above.
    Bound(&'static str),
    /// No check: why.
    None(&'static str),
}

/// The case each study's kernels are timed on, and what the kernel covers.
pub fn coverage(study: &str) -> (Option<&'static str>, Coverage) {
    match study {
        "dir-by-value" => (Some("range-15000/0-keys"), Coverage::Loop),
        "local-index" => (
            Some("table3"),
            Coverage::Bound("the kernel also steps pages (`_bt_next`'s `_bt_readpage` saves every TID into currPos.items) and hands batches to the TID sink, calls the loop does not follow"),
        ),
        "tid-batch" => (
            Some("btree-many"),
            Coverage::Bound("the kernel also steps pages and inserts every TID into the TIDBitmap (`tbm_add_tuples`, the sink the loop calls or fills)"),
        ),
        "read-stream" => (None, Coverage::None("the loop's trip is one tuple of a bloom page; the study's item is a page read")),
        "alloc-churn" => (None, Coverage::None("the study's item is a query; its cost is allocation and page faults outside the loop")),
        _ => (None, Coverage::None("no case chosen for this study")),
    }
}

/// Timed rounds of every kernel.
pub const ROUNDS: usize = 15;

/// The kernel's own time of one row: nanoseconds an item, and the case it ran.
#[derive(Clone, Debug)]
pub struct KernelTime {
    /// Variant id.
    pub id: String,
    /// Case id (test size).
    pub case: &'static str,
    /// Fastest run's nanoseconds an item.
    pub ns_per_item: f64,
    /// Median run's.
    pub median_ns_per_item: f64,
}

/// Time the kernels of rows `ids` (one study's) on the study's case at test size (see the
/// module doc). Rows the case does not run are left out.
pub fn time_kernels(study_name: &str, ids: &[&str]) -> Result<Vec<KernelTime>> {
    let (Some(case_id), _) = coverage(study_name) else { return Ok(vec![]) };
    let st = study::study(study_name)?;
    let rows: Vec<&'static Variant> = ids.iter().filter_map(|id| st.info().variant(id).ok()).filter(|v| v.runs_on(case_id)).collect();
    if rows.is_empty() {
        return Ok(vec![]);
    }
    let spec = st.info().case(case_id)?;
    // dir-by-value: the kernel alone, not the digest of what it saved (the harness's loop is
    // all the kernel does; the digest is the case's).
    let mut dv = if study_name == "dir-by-value" { Some(dir_by_value_case(spec)?) } else { None };
    let mut case = if dv.is_none() { Some(st.build(spec, Size::Test)?) } else { None };
    let items = match (&dv, &case) {
        (Some(c), _) => c.items(),
        (_, Some(c)) => c.items(),
        _ => unreachable!(),
    };
    if items == 0 {
        return Err(anyhow!("{study_name}/{case_id} has no items at test size"));
    }
    let mut run = |v: &'static Variant| -> Result<f64> {
        let t = Instant::now();
        match (&mut dv, &mut case) {
            (Some(c), _) => {
                let k = v.spec::<study::dir_by_value::ReadPage>()?;
                std::hint::black_box(c.kernel_only(k));
            }
            (_, Some(c)) => {
                std::hint::black_box(c.run(v)?);
            }
            _ => unreachable!(),
        }
        Ok(t.elapsed().as_nanos() as f64 / items as f64)
    };
    let mut times: Vec<Vec<f64>> = vec![vec![]; rows.len()];
    for v in &rows {
        run(v)?;
    }
    for _ in 0..ROUNDS {
        for (k, v) in rows.iter().enumerate() {
            times[k].push(run(v)?);
        }
    }
    Ok(rows
        .iter()
        .zip(times)
        .map(|(v, mut t)| {
            t.sort_by(f64::total_cmp);
            KernelTime { id: v.id.to_string(), case: case_id, ns_per_item: t[0], median_ns_per_item: t[t.len() / 2] }
        })
        .collect())
}

/// dir-by-value's case as its own type (for [`study::dir_by_value::RangeCase::kernel_only`]).
fn dir_by_value_case(spec: &'static study::CaseSpec) -> Result<study::dir_by_value::RangeCase> {
    study::dir_by_value::range_case(spec, Size::Test)
}
