//! # hotloops
//!
//! Minimal, faithful reproductions of PostgreSQL index-scan hot loops, each as a set of
//! variants (the naive baseline first), seen four ways: checked-in assembly, exact instruction
//! counts (callgrind), hardware counters (perf-event) and paired wall-clock runs.
//!
//! - [`pg`]: the PostgreSQL structures, sizes checked at compile time against the reference.
//! - [`study`]: one file per study and the registry.
//! - [`ckernels`]: C reference kernels built with PostgreSQL's flags (csrc/, build.rs).
//! - [`measure`]: wall clock, instructions, counters.
//! - [`asm`]: snapshots, normalisation and structural checks.
//! - [`report`]: report files, provenance, plots, cross-host comparison.

pub mod asm;
pub mod ckernels;
pub mod measure;
pub mod pg;
pub mod report;
pub mod study;

/// The cargo features this build was compiled with (each switches a study's pipeline).
pub fn features_enabled() -> Vec<&'static str> {
    let mut v = Vec::new();
    if cfg!(feature = "local-index") {
        v.push("local-index");
    }
    if cfg!(feature = "dir-by-value") {
        v.push("dir-by-value");
    }
    if cfg!(feature = "read-stream") {
        v.push("read-stream");
    }
    if cfg!(feature = "static-amroutine") {
        v.push("static-amroutine");
    }
    if cfg!(feature = "batch-tids") {
        v.push("batch-tids");
    }
    v
}
