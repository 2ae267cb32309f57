//! # hotloops
//!
//! Minimal, faithful reproductions of PostgreSQL index-scan hot loops, each as a set of
//! variants (the naive baseline first), seen four ways: checked-in assembly, exact instruction
//! counts (callgrind), hardware counters (perf-event) and paired wall-clock runs.
//!
//! ## Layers
//!
//! Imports go one way, down this list; `tests/layers.rs` fails on an upward import or a cycle
//! between these modules:
//!
//! 1. [`host`]: the machine and the build (CPUID, provenance) and atomic file writes.
//! 2. [`pg`]: the PostgreSQL structures and code the loops run in, shared by every study
//!    (sizes checked at compile time against the reference).
//! 3. [`ckernels`]: C reference kernels built by gcc (and clang) with PostgreSQL's flags
//!    (csrc/, build.rs), on the same layouts, with their configurations.
//! 4. [`study`]: one folder or file per study (only what differs between its variants), the
//!    variant rows and case catalogues, and the registry.
//! 5. [`measure`] and [`asm`]: wall clock, instructions, counters; snapshots, normalisation
//!    and structural checks. Neither imports the other.
//! 6. [`model`] and [`pgserver`]: static per-core predictions (llvm-mca 19) of each kernel's
//!    loop, from the snapshots, checked on the host; the real PostgreSQL server beside the
//!    models (the hl_btree extension, a throwaway cluster, measurement). Neither imports the
//!    other.
//! 7. [`report`]: report runs and files, tables, plots, cross-host comparison.
//! 8. `main.rs`: the command line.

pub mod asm;
pub mod ckernels;
pub mod host;
pub mod measure;
pub mod model;
pub mod pg;
pub mod pgserver;
pub mod report;
pub mod study;
