//! Exact instruction counts of every kernel (callgrind via gungraun), one group per study, one
//! benchmark per variant (the id's variant part, `-` as `_`), one run per case at test size.
//!
//! Each benchmark runs the `hotloops` binary itself, `hotloops run <id> --case <case> --size
//! test`, with collection toggled on the kernel's symbol (`hotloops_<id>`): the very command
//! `hotloops report` counts, so the two agree to the instruction even for kernels that call
//! malloc (whose path depends on the heap's history, which differs between processes that did
//! different things before). Only the kernel and what it calls are counted, never the workload
//! build or the harness.
//!
//! Run: `cargo bench --bench instructions` (valgrind and gungraun-runner 0.20.0:
//! `scripts/install-tools.sh`). Adding a study: one line below (a test checks every id is here).

use gungraun::{BinaryBenchmarkConfig, Callgrind, Command, binary_benchmark, binary_benchmark_group, main};
use hotloops::study::{self, Size};

/// (id, case name) of every case of `id`'s study at test size.
fn cases_of(id: &'static str) -> Vec<(&'static str, String)> {
    let (s, _) = study::variant(id).expect("registered id");
    s.cases(Size::Test).iter().map(|c| (id, c.name())).collect()
}

/// The command `hotloops report` runs under callgrind for (id, case).
fn run_kernel(k: (&'static str, String)) -> Command {
    Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["run", k.0, "--case", &k.1, "--size", "test"]).build()
}

fn config(id: &str) -> BinaryBenchmarkConfig {
    let mut c = BinaryBenchmarkConfig::default();
    c.env_clear(false)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .tool(Callgrind::with_args([format!("--toggle-collect={}", study::symbol_of(id)), "--collect-atstart=no".to_string()]));
    c
}

macro_rules! kernel_benches {
    ($group:ident: $($bench:ident => $id:literal),+ $(,)?) => {
        $(
            #[binary_benchmark(config = config($id))]
            #[benches::case(iter = cases_of($id))]
            fn $bench(k: (&'static str, String)) -> Command {
                run_kernel(k)
            }
        )+
        binary_benchmark_group!(name = $group; benchmarks = $($bench),+);
    };
}

kernel_benches!(local_index: store_each => "local-index/store-each", safe_ref => "local-index/safe-ref", local => "local-index/local");
kernel_benches!(dir_by_value: opaque => "dir-by-value/opaque", by_value => "dir-by-value/by-value");
kernel_benches!(tid_batch: per_tid => "tid-batch/per-tid", batched => "tid-batch/batched", runs => "tid-batch/runs");
kernel_benches!(read_stream: sync_per_page => "read-stream/sync-per-page", stream_sync => "read-stream/stream-sync",
    stream_worker => "read-stream/stream-worker", stream_io_uring => "read-stream/stream-io-uring");
kernel_benches!(alloc_churn: palloc_routine => "alloc-churn/palloc-routine", static_routine => "alloc-churn/static-routine",
    palloc_mallopt_trim => "alloc-churn/palloc-mallopt-trim", palloc_mallopt_toppad => "alloc-churn/palloc-mallopt-toppad",
    palloc_mimalloc => "alloc-churn/palloc-mimalloc");

main!(binary_benchmark_groups = local_index, dir_by_value, tid_batch, read_stream, alloc_churn);
