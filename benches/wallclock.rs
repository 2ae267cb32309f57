//! Wall-clock benches (criterion). One group per study with every variant on every case, bench
//! ids `<study>/<variant>/<case>` (the variant ids); and a `pipeline` group whose benches
//! follow the cargo features, so that
//!
//! ```text
//! cargo bench --bench wallclock -- pipeline            # baseline build, saved by criterion
//! cargo bench --bench wallclock --features local-index -- pipeline   # the patched pipeline
//! ```
//!
//! prints the change of `pipeline/local-index/...` against the previous run. Those are two
//! builds with two code layouts, so the change mixes the patch with where the linker put the
//! kernels (the bench says so when it runs); for a verdict that holds across layouts use
//! `hotloops layout STUDY` or `hotloops report` (paired, interleaved, pooled over layouts,
//! with an A/A control).
//!
//! Workload size: `HOTLOOPS_BENCH_SIZE=test|quick|full` (default quick; the smoke run in the
//! test script uses test).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hotloops::study::{self, Size};
use std::hint::black_box;

fn size() -> Size {
    match std::env::var("HOTLOOPS_BENCH_SIZE").as_deref() {
        Ok("test") => Size::Test,
        Ok("full") => Size::Full,
        Ok("quick") | Err(_) => Size::Quick,
        Ok(other) => panic!("HOTLOOPS_BENCH_SIZE={other}: expected test, quick or full"),
    }
}

/// One case, or None (said on stderr) where this host cannot run it.
fn build(s: &dyn study::Study, spec: &'static study::CaseSpec) -> Option<Box<dyn study::Case>> {
    match s.build(spec, size()) {
        Ok(c) => Some(c),
        Err(e) if e.downcast_ref::<study::CaseUnavailable>().is_some() => {
            eprintln!("{}/{} left out: {e}", s.info().name, spec.id);
            None
        }
        Err(e) => panic!("building {}/{}: {e:#}", s.info().name, spec.id),
    }
}

fn studies(c: &mut Criterion) {
    for s in study::STUDIES {
        let info = s.info();
        let mut g = c.benchmark_group(info.name);
        for spec in info.cases {
            let Some(mut case) = build(*s, spec) else { continue };
            g.throughput(criterion::Throughput::Elements(case.items()));
            let expect = case.run(info.baseline_variant()).expect("the baseline runs");
            for var in info.variants.iter().filter(|v| v.runs_on(spec.id)) {
                // Benchmarks carry their expected result and check it on every sample.
                g.bench_function(BenchmarkId::new(var.short(), spec.id), |b| {
                    b.iter(|| assert_eq!(black_box(case.run(var).expect("the case runs")), expect, "{} disagrees with the baseline", var.id))
                });
            }
        }
        g.finish();
    }
}

fn pipelines(c: &mut Criterion) {
    // Said every run, since criterion's "change" line reads like a verdict.
    eprintln!(
        "note: a `pipeline` change against a saved run compares two builds, so two code layouts (the kernels sit at other \
         offsets in each binary), measured minutes apart: it can move by 20% with no change to the kernels. For a verdict that \
         holds across layouts: `cargo run --release -- layout STUDY` (one pair over five layouts) or `-- report`."
    );
    let mut g = c.benchmark_group("pipeline");
    for s in study::STUDIES {
        let info = s.info();
        let v = info.pipeline_variant();
        for spec in info.cases {
            let Some(mut case) = build(*s, spec) else { continue };
            g.throughput(criterion::Throughput::Elements(case.items()));
            let expect = case.run(info.baseline_variant()).expect("the baseline runs");
            g.bench_function(BenchmarkId::new(info.name, spec.id), |b| {
                b.iter(|| assert_eq!(black_box(case.run(v).expect("the case runs")), expect, "{} disagrees with the baseline", v.id))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, studies, pipelines);
criterion_main!(benches);
