//! Exact instruction counts of every kernel (callgrind via gungraun), built from the rows: one
//! binary benchmark per study, one bench per (variant, case) of its rows and catalogue at test
//! size, named `<variant>__<case>` (`-` and `/` as `_`), so a new variant or case is counted
//! without touching this file.
//!
//! Each bench is the `hotloops` binary itself, `hotloops run <id> --case <case> --size test`,
//! with collection toggled on `hotloops_*`, the kernel entries (a kernel never calls another,
//! and its construction enters none): the very command `hotloops report` counts, so the two
//! agree to the instruction even for kernels that call malloc (whose path depends on the
//! heap's history, which differs between processes that did different things before). Only
//! the kernel and what it calls are counted, never the workload build or the harness.
//!
//! Run: `cargo bench --bench instructions` (valgrind and gungraun-runner 0.20.0:
//! `scripts/install-tools.sh`); `cargo bench --bench instructions -- '*local_index*'` for one
//! study.

use gungraun::{Bench, BinaryBenchmark, BinaryBenchmarkConfig, Callgrind, Command, binary_benchmark_group, main};
use hotloops::study;

/// A gungraun id from a hotloops name: `[A-Za-z0-9_]` only.
fn ident(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

binary_benchmark_group!(
    name = kernels,
    config = BinaryBenchmarkConfig::default()
        .env_clear(false)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // No gdbserver: an interrupted bench leaves no vgdb-pipe-* files in TMPDIR.
        .tool(Callgrind::with_args(["--toggle-collect=hotloops_*", "--collect-atstart=no", "--vgdb=no"])),
    benchmarks = |group: &mut BinaryBenchmarkGroup| {
        for s in study::STUDIES {
            let info = s.info();
            let mut bench = BinaryBenchmark::new(ident(info.name));
            for v in info.variants {
                for c in info.cases.iter().filter(|c| v.runs_on(c.id)) {
                    bench.bench(Bench::new(format!("{}__{}", ident(v.short()), ident(c.id))).command(
                        Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["run", v.id, "--case", c.id, "--size", "test"]).build(),
                    ));
                }
            }
            group.binary_benchmark(bench);
        }
    }
);

main!(binary_benchmark_groups = kernels);
