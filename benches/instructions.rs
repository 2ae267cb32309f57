//! Exact instruction counts of every kernel (callgrind via gungraun), one group per study, one
//! benchmark per variant (its id with `-` as `_`), one run per case at test size: the same
//! runs `hotloops report` counts, so the two agree exactly. Collection is toggled on the
//! kernel's symbol (`hotloops_<id>`), so it covers the kernel and what it calls, never the
//! workload build or the harness.
//!
//! Run: `cargo bench --bench instructions` (valgrind and gungraun-runner 0.20.0:
//! `scripts/install-tools.sh`). Adding a study: one line below (a test checks every id is here).

use gungraun::{Callgrind, EntryPoint, LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};
use hotloops::study::{self, Case, Size};
use std::hint::black_box;

/// The cases of `id`'s study at test size, by index.
fn cases_of(id: &'static str) -> Vec<(&'static str, usize)> {
    let (s, _) = study::variant(id).expect("registered id");
    (0..s.cases(Size::Test).len()).map(|c| (id, c)).collect()
}

/// Build the case (not counted: no kernel runs while building). Each benchmark is its own
/// process under valgrind, dedicated to one variant (alloc-churn then runs it in-process).
fn prepare(k: (&'static str, usize)) -> (Box<dyn Case>, usize) {
    study::dedicate_process(k.0);
    let (s, v) = study::variant(k.0).expect("registered id");
    let mut cases = s.cases(Size::Test);
    (cases.swap_remove(k.1), v)
}

fn config(id: &str) -> LibraryBenchmarkConfig {
    let mut c = LibraryBenchmarkConfig::default();
    c.tool(Callgrind::default().entry_point(EntryPoint::Custom(study::symbol_of(id))));
    c
}

macro_rules! kernel_benches {
    ($group:ident: $($bench:ident => $id:literal),+ $(,)?) => {
        $(
            #[library_benchmark(config = config($id))]
            #[benches::case(iter = cases_of($id), setup = prepare)]
            fn $bench(prepared: (Box<dyn Case>, usize)) -> u64 {
                let (mut case, v) = prepared;
                black_box(case.run(v))
            }
        )+
        library_benchmark_group!(name = $group; benchmarks = $($bench),+);
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

main!(library_benchmark_groups = local_index, dir_by_value, tid_batch, read_stream, alloc_churn);
