//! Exact instruction counts of every kernel (callgrind via gungraun): one benchmark per study,
//! one run per (variant, case) of its rows and catalogue at test size, so a new variant or
//! case is counted without touching this file.
//!
//! Each run is the `hotloops` binary itself, `hotloops run <id> --case <case> --size test`,
//! with collection toggled on `hotloops_*`, the kernel entries (a kernel never calls another,
//! and its construction enters none): the very command `hotloops report` counts, so the two
//! agree to the instruction even for kernels that call malloc (whose path depends on the
//! heap's history, which differs between processes that did different things before). Only
//! the kernel and what it calls are counted, never the workload build or the harness.
//!
//! Run: `cargo bench --bench instructions` (valgrind and gungraun-runner 0.20.0:
//! `scripts/install-tools.sh`). Adding a study: one `study_bench!` line below.

use gungraun::{BinaryBenchmarkConfig, Callgrind, Command, binary_benchmark, binary_benchmark_group, main};
use hotloops::study;

/// (variant id, case id) of every row and case of `name`'s study.
fn jobs_of(name: &str) -> Vec<(&'static str, &'static str)> {
    let info = study::study(name).expect("registered study").info();
    info.variants.iter().flat_map(|v| info.cases.iter().map(move |c| (v.id, c.id))).collect()
}

/// The command `hotloops report` runs under callgrind for (id, case).
fn run_kernel(k: (&'static str, &'static str)) -> Command {
    Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["run", k.0, "--case", k.1, "--size", "test"]).build()
}

fn config() -> BinaryBenchmarkConfig {
    let mut c = BinaryBenchmarkConfig::default();
    c.env_clear(false)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .tool(Callgrind::with_args(["--toggle-collect=hotloops_*", "--collect-atstart=no"]));
    c
}

macro_rules! study_bench {
    ($($bench:ident => $study:literal),+ $(,)?) => {
        $(
            #[binary_benchmark(config = config())]
            #[benches::kernels(iter = jobs_of($study))]
            fn $bench(k: (&'static str, &'static str)) -> Command {
                run_kernel(k)
            }
        )+
        binary_benchmark_group!(name = kernels; benchmarks = $($bench),+);
    };
}

study_bench!(local_index => "local-index", dir_by_value => "dir-by-value", tid_batch => "tid-batch", read_stream => "read-stream", alloc_churn => "alloc-churn");

main!(binary_benchmark_groups = kernels);
