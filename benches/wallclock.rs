//! Wall-clock benches (criterion). A group per study with every variant on every case, bench
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
//! What runs: with a name filter (`-- tid-batch`, `-- pipeline`; `-- .` for everything),
//! every study's benches, and criterion keeps those whose id matches; without one, what the
//! features switch: `cargo bench --features local-index` benches local-index's pipeline (the
//! change against the saved run) and local-index's variants, and no other study; with no
//! feature and no filter, every study's pipeline (the run a later `--features X` compares
//! against). Each bench warms up 1 s and measures 2 s over 20 samples (flat sampling, no
//! plots unless `HOTLOOPS_BENCH_PLOTS=1`), unless criterion's own flags say otherwise
//! (`-- --warm-up-time 3 --measurement-time 5 --sample-size 100`).
//!
//! Workload size: `HOTLOOPS_BENCH_SIZE=test|quick|full` (default quick; the smoke run in the
//! test script uses test).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hotloops::study::{self, Size};
use std::hint::black_box;
use std::time::Duration;

/// Criterion's options that take a value (the next argument unless given as `--x=v`): what
/// is not one of these, nor a flag, is the name filter.
const VALUE_OPTIONS: &[&str] = &[
    "--color", "--colour", "-c", "--save-baseline", "-s", "--baseline", "-b", "--baseline-lenient", "--format", "--profile-time",
    "--load-baseline", "--sample-size", "--warm-up-time", "--measurement-time", "--nresamples", "--noise-threshold",
    "--confidence-level", "--significance-level", "--plotting-backend", "--output-format", "--logfile",
];

/// Whether the command line names benches (a positional filter).
fn has_filter() -> bool {
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if VALUE_OPTIONS.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            return true;
        }
    }
    false
}

/// The studies whose benches are registered (see the module doc): all of them with a filter,
/// else those whose feature is on; None: no feature, no filter (every pipeline, no variants).
fn selected() -> Option<Vec<&'static dyn study::Study>> {
    let on: Vec<&'static dyn study::Study> = study::STUDIES.iter().copied().filter(|s| s.info().feature_on).collect();
    if has_filter() {
        Some(study::STUDIES.to_vec())
    } else if on.is_empty() {
        None
    } else {
        Some(on)
    }
}

/// Shorter than criterion's defaults (3 s + 5 s, 100 samples), so that the design card's
/// `cargo bench --features X` takes a minute or two; criterion's flags override it. Flat
/// sampling: every case run takes milliseconds, so each sample is a few whole runs. No
/// plots (they took longer than the measurement here) unless `HOTLOOPS_BENCH_PLOTS=1`.
fn config() -> Criterion {
    let c = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2)).sample_size(20);
    if std::env::var_os("HOTLOOPS_BENCH_PLOTS").is_some_and(|v| v == "1") { c } else { c.without_plots() }
}

fn size() -> Size {
    match std::env::var("HOTLOOPS_BENCH_SIZE").as_deref() {
        Ok("test") => Size::Test,
        Ok("full") => Size::Full,
        Ok("quick") | Err(_) => Size::Quick,
        Ok(other) => {
            // Bad input, said as a command says it (exit 2), not as a panic.
            eprintln!("error: HOTLOOPS_BENCH_SIZE={other}: expected test, quick or full");
            std::process::exit(2)
        }
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
    for s in selected().unwrap_or_default() {
        let info = s.info();
        let mut g = c.benchmark_group(info.name);
        g.sampling_mode(criterion::SamplingMode::Flat);
        for spec in info.cases {
            let Some(mut case) = build(s, spec) else { continue };
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
    g.sampling_mode(criterion::SamplingMode::Flat);
    for s in selected().unwrap_or_else(|| study::STUDIES.to_vec()) {
        let info = s.info();
        let v = info.pipeline_variant();
        for spec in info.cases {
            let Some(mut case) = build(s, spec) else { continue };
            g.throughput(criterion::Throughput::Elements(case.items()));
            let expect = case.run(info.baseline_variant()).expect("the baseline runs");
            g.bench_function(BenchmarkId::new(info.name, spec.id), |b| {
                b.iter(|| assert_eq!(black_box(case.run(v).expect("the case runs")), expect, "{} disagrees with the baseline", v.id))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = studies, pipelines
}
criterion_main!(benches);
