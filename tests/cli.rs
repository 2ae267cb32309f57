//! The `hotloops` binary as users meet it: names, errors and exit codes, files.

use std::path::Path;
use std::process::{Command, Output};

fn hotloops(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).output().expect("run hotloops")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn list_names_every_variant_with_its_claim() {
    let o = hotloops(&["list"]);
    assert!(o.status.success());
    let t = text(&o);
    for id in hotloops::study::all_ids() {
        assert!(t.contains(id), "{id} missing from `hotloops list`");
    }
    assert!(t.contains("2.24%") && t.contains("5.5%"), "seed numbers missing:\n{t}");
}

#[test]
fn unknown_ids_list_the_valid_ones_and_exit_2() {
    for args in [
        vec!["run", "local-index/nope"],
        vec!["asm", "nope/x"],
        vec!["counters", "bogus"],
        vec!["asm", "local-index", "--diff", "store-each", "nope"],
        vec!["report", "--study", "no-such-study", "--quick", "--out", "/tmp/hotloops-never"],
        vec!["run", "local-index/local", "--case", "no-such-case", "--size", "test"],
    ] {
        let o = hotloops(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let t = text(&o);
        assert!(t.contains("unknown") && (t.contains("local-index") || t.contains("table3")), "{args:?} must list the valid names:\n{t}");
    }
    assert!(!Path::new("/tmp/hotloops-never").exists(), "a rejected report must not create --out");
}

/// `--config NAME`: a C kernel's row under that configuration; an unknown name lists the
/// configurations, a Rust kernel lists the C ones, both exit 2 (a report before creating --out).
#[test]
fn config_selects_a_c_configuration_and_bad_ones_exit_2() {
    let o = hotloops(&["asm", "local-index/c-span", "--config", "gcc12-strict"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("under `gcc12-strict`") && text(&o).contains("-fstrict-aliasing"), "{}", text(&o));
    let d = hotloops(&["asm", "local-index", "--diff", "c-span", "c-span@gcc12-strict"]);
    assert!(d.status.success() && text(&d).contains("+++ local-index/c-span@gcc12-strict"), "{}", text(&d));
    for args in [
        vec!["asm", "local-index/c-span", "--config", "gcc99"],
        vec!["instructions", "local-index/c-span", "--config", "gcc99"],
        vec!["report", "--quick", "--config", "gcc99", "--out", "/tmp/hotloops-never-config"],
    ] {
        let o = hotloops(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("unknown C configuration `gcc99`") && text(&o).contains("gcc12-pg") && text(&o).contains("gcc12-strict"), "{args:?}: {}", text(&o));
    }
    assert!(!Path::new("/tmp/hotloops-never-config").exists(), "a rejected report must not create --out");
    // `list` names each row's configuration and says what the C kernels showed.
    let l = text(&hotloops(&["list"]));
    assert!(l.contains("local-index/c-span@gcc12-strict") && l.contains("C kernels: half of the seed's explanation holds"), "{l}");
    let o = hotloops(&["asm", "local-index/store-each", "--config", "gcc12-strict"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("local-index/c-store-each"), "a Rust kernel with --config lists the C kernels: {}", text(&o));
}

#[test]
fn asm_shows_a_snapshot_and_diffs_two_variants() {
    let o = hotloops(&["asm", "local-index/local"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("hotloops_local_index_local:"));
    let d = hotloops(&["asm", "local-index", "--diff", "store-each", "local"]);
    assert!(d.status.success(), "{}", text(&d));
    let t = text(&d);
    assert!(t.starts_with("--- local-index/store-each") && t.contains("+++ local-index/local"), "{t}");
    assert!(t.lines().any(|l| l.starts_with('-') && l.contains("[r13 + 132]")), "the store-each side shows the cursor slot:\n{t}");
}

#[test]
fn run_prints_the_digest_every_variant_shares() {
    let a = text(&hotloops(&["run", "local-index/store-each", "--size", "test"]));
    let b = text(&hotloops(&["run", "local-index/local", "--size", "test"]));
    let digest = |s: &str| s.split("digest ").nth(1).map(str::trim).map(String::from);
    assert!(digest(&a).is_some(), "{a}");
    assert_eq!(digest(&a), digest(&b));
}

#[test]
fn unwritable_out_is_an_error_before_measuring_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = file.join("report");
    let o = hotloops(&["report", "--quick", "--no-instructions", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("--out"), "{}", text(&o));
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "no partial files next to the bad --out");
}

#[test]
fn compare_names_a_corrupt_or_old_report_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("corrupt.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let o = hotloops(&["compare", bad.to_str().unwrap(), "--out", dir.path().join("c").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("corrupt.json") && text(&o).contains("not valid JSON"), "{}", text(&o));
    let old = dir.path().join("old.json");
    std::fs::write(&old, r#"{"schema": "hotloops-report", "schema_version": 0}"#).unwrap();
    let o = hotloops(&["compare", old.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("old.json") && text(&o).contains("schema version 0"), "{}", text(&o));
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"hello": 1}"#).unwrap();
    let o = hotloops(&["compare", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("other.json") && text(&o).contains("not a hotloops report"));
    assert!(!dir.path().join("c").exists());
}

#[test]
fn list_cases_prints_every_catalogue_and_ids_are_what_case_takes() {
    let o = hotloops(&["list", "--cases"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for s in hotloops::study::STUDIES {
        for c in s.info().cases {
            assert!(t.contains(c.id), "{}/{} missing from `hotloops list --cases`:\n{t}", s.info().name, c.id);
        }
    }
    // The id `list --cases` prints is the one `run --case` takes, at every size.
    let r = hotloops(&["run", "dir-by-value/by-value", "--case", "range-2000/1-key", "--size", "test"]);
    assert!(r.status.success(), "{}", text(&r));
    assert!(text(&r).contains("on range-2000/1-key (test):"), "{}", text(&r));
}

#[test]
fn paired_takes_variant_ids_and_refuses_another_studys() {
    let o = hotloops(&["paired", "local-index/store-each", "local-index/local", "--case", "table3", "--size", "test", "--budget-ms", "40", "--block-us", "2000"]);
    assert!(o.status.success(), "{}", text(&o));
    let t: serde_json::Value = serde_json::from_slice(&o.stdout).expect("paired prints its trials as JSON");
    assert!(t["ratios"].as_array().is_some_and(|r| !r.is_empty()), "{t}");
    let o = hotloops(&["paired", "local-index/store-each", "dir-by-value/opaque", "--case", "table3", "--size", "test", "--budget-ms", "40", "--block-us", "2000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("local-index/local"), "lists the study's ids: {}", text(&o));
}

#[test]
fn degenerate_counts_and_budgets_are_refused_with_exit_2() {
    for args in [
        vec!["run", "local-index/local", "--size", "test", "--reps", "0"],
        vec!["counters", "local-index/local", "--size", "test", "--runs", "0"],
        vec!["report", "--study", "local-index", "--size", "test", "--processes", "0", "--out", "/tmp/hotloops-never-2"],
        vec!["report", "--study", "local-index", "--size", "test", "--budget-ms", "0", "--out", "/tmp/hotloops-never-2"],
        vec!["report", "--study", "local-index", "--size", "test", "--budget-ms", "99999999999", "--out", "/tmp/hotloops-never-2"],
    ] {
        let o = hotloops(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("not in"), "{args:?} says the valid range: {}", text(&o));
    }
    assert!(!Path::new("/tmp/hotloops-never-2").exists());
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotloops")).arg("list").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let st = child.wait().unwrap();
    assert!(!err.contains("panicked"), "hotloops list into a closed pipe panicked: {err}");
    assert!(st.success(), "a closed stdout is not an error: {st:?} {err}");
}

/// `report --processes N` measures each pair in N fresh worker processes and pools them.
#[test]
fn report_processes_pools_fresh_worker_processes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    // Core locks of its own: another report on this host must not refuse this one.
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["report", "--study", "local-index", "--size", "test", "--budget-ms", "60", "--processes", "2", "--no-instructions", "--out", out.to_str().unwrap()])
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let r = hotloops::report::load(&out.join("report.json")).unwrap();
    assert_eq!(r.config.processes, 2);
    let case = &r.studies[0].cases[0];
    // Two processes in each code layout (all five at a non-quick size), pooled over both.
    assert_eq!(r.config.layouts, ["natural", "at-0", "at-16", "at-32", "at-48"]);
    for p in std::iter::once(&case.aa).chain(&case.pairs) {
        assert_eq!(p.layouts.len(), 5, "{p:?}");
        assert!(p.layouts.iter().all(|l| l.processes == 2), "{p:?}");
        assert_eq!(p.processes, 10, "{p:?}");
        assert_eq!(p.process_medians.len(), 10, "{p:?}");
        assert!(p.interval.contains("hierarchical") && p.interval.contains("over code layouts"), "{}", p.interval);
    }
    assert_eq!(case.pairs.len(), hotloops::study::local_index::info().variants.len() - 1, "every variant against the baseline");
}

/// `sweep` takes only a study that has one, and says which.
#[test]
fn sweep_of_a_study_without_one_exits_2() {
    let o = hotloops(&["sweep", "local-index", "--out", "/tmp/hotloops-never-sweep"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("alloc-churn"), "{}", text(&o));
    assert!(!Path::new("/tmp/hotloops-never-sweep").exists());
}

/// `render` re-draws a saved report with this build's renderer, measuring nothing: the same
/// report back (its JSON round-trips), every study's plot and table, and a bad file named
/// with exit 2 and nothing written.
#[test]
fn render_redraws_a_saved_report_and_names_a_bad_file() {
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/quick-ca658cf/report.json");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("again");
    let o = hotloops(&["render", saved.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let before = hotloops::report::load(&saved).unwrap();
    let after = hotloops::report::load(&out.join("report.json")).unwrap();
    assert_eq!(serde_json::to_value(&before).unwrap(), serde_json::to_value(&after).unwrap(), "the report itself is unchanged");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Headline"));
    for s in &before.studies {
        assert!(md.contains(&format!("**{}: ", s.name)), "{} in the headline", s.name);
        assert!(std::fs::read_to_string(out.join(format!("{}.svg", s.name))).unwrap().starts_with("<svg"));
    }
    assert!(out.join("report.html").is_file());
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"schema\": \"nope\"}").unwrap();
    let o = hotloops(&["render", bad.to_str().unwrap(), "--out", dir.path().join("none").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("bad.json"), "{}", text(&o));
    assert!(!dir.path().join("none").exists(), "nothing written for a bad file");
    // A version 1 report would be written back under its old version in the new shape.
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/full-7bb6a62/report.json");
    let o = hotloops(&["render", v1.to_str().unwrap(), "--out", dir.path().join("v1").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("schema version 1") && !dir.path().join("v1").exists(), "{}", text(&o));
}
