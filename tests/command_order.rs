//! The README's commands in the order a newcomer types them: the tests, the main job, a bench
//! with a feature, the main job again. Each cargo command links the four layout binaries
//! (`hotloops-layout-at-*`) with its own features, and `cargo run` relinks only `hotloops`, so
//! the main job finds layout binaries of other features; it must rebuild them with its own
//! and measure in them (a worker of other features refuses its pairs), not fail or fall back.
//!
//! This runs cargo in this crate's own target directory (the state a user has), so it leaves
//! the binaries with this test build's features again at the end, passed or failed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn cargo() -> PathBuf {
    std::env::var_os("CARGO").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO")))
}

/// This test build's features: what the binaries are built with when it ends.
fn own_features() -> Vec<&'static str> {
    [
        ("local-index", cfg!(feature = "local-index")),
        ("dir-by-value", cfg!(feature = "dir-by-value")),
        ("batch-tids", cfg!(feature = "batch-tids")),
        ("read-stream", cfg!(feature = "read-stream")),
        ("static-amroutine", cfg!(feature = "static-amroutine")),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(f, _)| *f)
    .collect()
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(cargo());
    c.current_dir(ROOT).args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!("--- stdout:\n{}\n--- stderr:\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The features a layout binary records (`.hotloops_features`), as `hotloops` reads them.
fn layout_features() -> Vec<String> {
    hotloops::host::layout::features_of(&Path::new(ROOT).join("target/release/hotloops-layout-at-0")).unwrap()
}

/// Puts the binaries back as this test build made them, however the test ends.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let f = own_features().join(",");
        let mut args = vec!["build", "--release", "--bins"];
        if !f.is_empty() {
            args.extend(["--features", &f]);
        }
        let o = run(&args, &[]);
        if !o.status.success() {
            eprintln!("command_order: restoring the binaries failed:\n{}", text(&o));
        }
    }
}

#[test]
fn test_then_main_job_then_bench_then_main_job() {
    // Only where this checkout's own release build is (cargo test --release).
    let exe = Path::new(env!("CARGO_BIN_EXE_hotloops"));
    if exe.parent() != Some(&Path::new(ROOT).join("target/release")) {
        eprintln!("skipping: {} is not this checkout's target/release build", exe.display());
        return;
    }
    let _restore = Restore;
    let dir = tempfile::tempdir().unwrap();
    let locks = dir.path().join("locks");
    std::fs::create_dir_all(&locks).unwrap();
    let main_job = |name: &str| -> (Output, hotloops::report::Report) {
        let out = dir.path().join(name);
        let o = run(
            &["run", "--release", "--", "report", "--study", "local-index", "--size", "test", "--budget-ms", "20", "--no-instructions", "--no-model", "--out", out.to_str().unwrap()],
            &[("HOTLOOPS_LOCK_DIR", locks.to_str().unwrap())],
        );
        assert!(o.status.success(), "the main job ({name}) failed:\n{}", text(&o));
        let r = hotloops::report::load(&out.join("report.json")).unwrap();
        // Measured in the layout binaries, not in its own layout only.
        assert_eq!(r.config.layouts, ["at-0", "at-48"], "{name}:\n{}", text(&o));
        assert!(r.provenance.features.is_empty(), "{name}: `cargo run` builds without features: {:?}", r.provenance.features);
        (o, r)
    };

    // What scripts/test.sh leaves: its last commands bench with `--features local-index`,
    // which links every binary with that feature.
    let o = run(&["bench", "--features", "local-index", "--no-run"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(layout_features(), ["local-index"], "the bench build linked the layout binaries with its feature");

    // The main job: the layout binaries are rebuilt with its (no) features, and it says so.
    let (o, _) = main_job("first");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("was built with features [local-index], this run has []") && err.contains("building the layout binaries"), "{err}");
    assert!(layout_features().is_empty());

    // A bench of one feature, as the README shows it (each bench once, at test size).
    let o = run(&["bench", "--features", "local-index", "--", "--test", "pipeline/local-index"], &[("HOTLOOPS_BENCH_SIZE", "test")]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(layout_features(), ["local-index"]);

    // The main job again.
    let (o, _) = main_job("second");
    assert!(String::from_utf8_lossy(&o.stderr).contains("was built with features [local-index]"), "{}", text(&o));
    assert!(layout_features().is_empty());
}
