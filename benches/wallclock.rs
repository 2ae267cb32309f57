//! Wall-clock benches (criterion). One group per study with every variant on every case, bench
//! ids `<study>/<variant>/<case>` (the variant ids); and a `pipeline` group whose benches
//! follow the cargo features, so that
//!
//! ```text
//! cargo bench --bench wallclock -- pipeline            # baseline build, saved by criterion
//! cargo bench --bench wallclock --features local-index -- pipeline   # the patched pipeline
//! ```
//!
//! prints the change of `pipeline/local-index/...` against the previous run. For sub-percent
//! effects use `hotloops report` (paired, interleaved, with an A/A control) instead.
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

fn studies(c: &mut Criterion) {
    for s in study::STUDIES {
        let info = s.info();
        let mut g = c.benchmark_group(info.name);
        for mut case in s.cases(size()) {
            g.throughput(criterion::Throughput::Elements(case.items()));
            let name = case.name();
            for (v, var) in info.variants.iter().enumerate() {
                let short = var.id.strip_prefix(info.name).unwrap_or(var.id).trim_start_matches('/');
                g.bench_function(BenchmarkId::new(short, &name), |b| b.iter(|| black_box(case.run(v).expect("the case runs"))));
            }
        }
        g.finish();
    }
}

fn pipelines(c: &mut Criterion) {
    let mut g = c.benchmark_group("pipeline");
    for s in study::STUDIES {
        let info = s.info();
        let v = info.index_of(info.pipeline_variant()).expect("pipeline variant registered");
        for mut case in s.cases(size()) {
            g.throughput(criterion::Throughput::Elements(case.items()));
            g.bench_function(BenchmarkId::new(info.name, case.name()), |b| b.iter(|| black_box(case.run(v).expect("the case runs"))));
        }
    }
    g.finish();
}

criterion_group!(benches, studies, pipelines);
criterion_main!(benches);
