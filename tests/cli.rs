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

/// An `--out` that is a file, or runs through one, is bad input (exit 2) on every command that
/// writes a directory, found before any work, and nothing is written.
#[test]
fn an_out_that_is_a_file_is_a_usage_error_before_measuring_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/quick-ca658cf/report.json");
    for out in [file.clone(), file.join("report")] {
        let o = out.to_str().unwrap();
        for args in [
            vec!["report", "--quick", "--no-instructions", "--out", o],
            vec!["layout", "local-index", "--out", o],
            vec!["sweep", "alloc-churn", "--out", o],
            vec!["render", saved.to_str().unwrap(), "--out", o],
            vec!["compare", saved.to_str().unwrap(), "--out", o],
        ] {
            let r = hotloops(&args);
            assert_eq!(r.status.code(), Some(2), "{args:?}: {}", text(&r));
            assert!(text(&r).contains(&format!("--out {o}")) && text(&r).contains("a file"), "{args:?}: {}", text(&r));
        }
    }
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "no partial files next to the bad --out");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

/// A data directory that names a file is bad input, said before any study is measured.
#[test]
fn a_data_dir_that_is_a_file_is_refused_before_measuring() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data");
    std::fs::write(&file, "").unwrap();
    let out = dir.path().join("o");
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["report", "--study", "local-index", "--study", "read-stream", "--size", "test", "--out", out.to_str().unwrap()])
        .env("HOTLOOPS_DATA_DIR", &file)
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("HOTLOOPS_DATA_DIR") && !text(&o).contains("local-index/table3:"), "{}", text(&o));
    assert!(!out.exists());
}

/// Bad combinations and values are refused before any work, with exit 2 and what is valid:
/// `--no-instructions --require instructions`, an empty `--label`, a block length that would
/// never end (from the command line and in a worker request), `--quick` with `--size`.
#[test]
fn contradictory_empty_or_endless_options_are_usage_errors() {
    let never = "/tmp/hotloops-never-usage";
    let o = hotloops(&["report", "--no-instructions", "--require", "instructions", "--out", never]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--no-instructions and --require instructions"), "{}", text(&o));
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/quick-ca658cf/report.json");
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report.json");
    let o = hotloops(&["compare", saved.to_str().unwrap(), other.to_str().unwrap(), "--label", "", "--label", "b", "--out", never]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--label number 1 is empty"), "{}", text(&o));
    let o = hotloops(&["paired", "local-index/store-each", "local-index/local", "--case", "table3", "--size", "test", "--budget-ms", "10", "--block-us", "99999999999"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("1..=10000000"), "{}", text(&o));
    // The same request from a client: refused at once, not measured for 28 hours.
    // (Its stdin stays open until the reply: a worker whose client has gone exits at once.)
    let mut w = Command::new(env!("CARGO_BIN_EXE_hotloops")).arg("worker").stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().unwrap();
    use std::io::{BufRead as _, Write as _};
    let mut to = w.stdin.take().unwrap();
    writeln!(to, r#"{{"request": "trials", "a": "local-index/store-each", "b": "local-index/local", "case": "table3", "size": "test", "budget_ms": 10, "block_us": 99999999999}}"#).unwrap();
    let mut reply = String::new();
    std::io::BufReader::new(w.stdout.take().unwrap()).read_line(&mut reply).unwrap();
    drop(to);
    assert!(reply.contains("\"usage\":true") && reply.contains("the block 1 to 10000000 us"), "{reply}");
    assert_eq!(w.wait().unwrap().code(), Some(2));
    // layout takes --quick as report and pg do; with --size it is a contradiction.
    let parses = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["layout", "local-index", "--quick"]).env("HOTLOOPS_PARSE_ONLY", "1").output().unwrap();
    assert!(parses.status.success(), "{}", text(&parses));
    let o = hotloops(&["layout", "local-index", "--quick", "--size", "full"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!Path::new(never).exists());
}

/// Error messages read as English and stay short: plurals of every kind of name, a pasted
/// 100,000-character id cut, and `sweep` listing only the studies that have a sweep.
#[test]
fn unknown_names_read_well_and_long_ones_are_cut() {
    let o = hotloops(&["sweep", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(t.contains("valid studies with a sweep are:\n  alloc-churn"), "{t}");
    for s in hotloops::study::STUDIES.iter().map(|s| s.info().name).filter(|n| *n != "alloc-churn") {
        assert!(!t.contains(s), "{s} has no sweep: {t}");
    }
    let o = hotloops(&["sweep", "alloc-churn", "--form", "bitmap", "--out", "/tmp/hotloops-never-sweep-form"]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(t.contains("unknown scan form `bitmap`") && t.contains("index-only") && t.contains("  index\n"), "{t}");
    assert!(!Path::new("/tmp/hotloops-never-sweep-form").exists());
    let t = text(&hotloops(&["report", "--study", "nope"]));
    assert!(t.contains("valid studies are:") && !t.contains("studys"), "{t}");
    let t = text(&hotloops(&["run", "nope"]));
    assert!(t.contains("valid variant ids are:"), "{t}");
    let long = "x".repeat(100_000);
    let o = hotloops(&["run", &long]);
    assert_eq!(o.status.code(), Some(2));
    let first = String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("").to_string();
    assert!(first.len() < 200 && first.contains("(100000 characters)"), "{}", &first[..first.len().min(300)]);
}

/// `hotloops layout STUDY` is the study's patched variant against its baseline whatever the
/// build's features (a default build's pipeline variant is the baseline itself).
#[test]
fn layout_of_a_study_is_its_patched_variant_against_its_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("l");
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--processes", "1", "--out", out.to_str().unwrap()])
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("layout.json")).unwrap()).unwrap();
    let info = hotloops::study::local_index::info();
    assert_eq!(j["pair"]["baseline"], info.baseline, "{}", j["pair"]);
    assert_eq!(j["pair"]["variant"], info.patched, "{}", j["pair"]);
    assert_ne!(info.baseline, info.patched);
}

/// Every command that writes into a directory holds its lock: a second run into the same
/// `--out` (here the lock held by this test) is refused before any work, naming the holder.
#[test]
fn a_second_run_into_the_same_out_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    std::fs::create_dir(&out).unwrap();
    let held = hotloops::host::lock::acquire(&out.join(hotloops::host::outdir::LOCK), "the test").unwrap();
    let o = out.to_str().unwrap();
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/quick-ca658cf/report.json");
    for args in [
        vec!["sweep", "alloc-churn", "--quick", "--out", o],
        vec!["report", "--study", "local-index", "--size", "test", "--out", o],
        vec!["layout", "local-index", "--size", "test", "--out", o],
        vec!["render", saved.to_str().unwrap(), "--out", o],
        vec!["compare", saved.to_str().unwrap(), "--out", o],
    ] {
        let r = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(&args).env("HOTLOOPS_LOCK_DIR", dir.path()).output().unwrap();
        assert_eq!(r.status.code(), Some(1), "{args:?}: {}", text(&r));
        assert!(text(&r).contains(&format!("--out {o} is in use by another hotloops run (pid {}", std::process::id())), "{args:?}: {}", text(&r));
    }
    drop(held);
    let names: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [hotloops::host::outdir::LOCK], "nothing written while refused");
}

/// A directory containing only links to `tools` (found on PATH), for a PATH without the rest.
fn path_with_only(dir: &Path, tools: &[&str]) -> std::path::PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for t in tools {
        let which = Command::new("sh").args(["-c", &format!("command -v {t}")]).output().unwrap();
        let p = String::from_utf8_lossy(&which.stdout).trim().to_string();
        if !p.is_empty() {
            std::os::unix::fs::symlink(p, bin.join(t)).unwrap();
        }
    }
    bin
}

/// What the host lacks (valgrind, llvm-mca, cargo-show-asm) exits 2 on every command that
/// needs it, saying what to install; and without git on PATH the provenance still names the
/// commit (read from .git).
#[test]
fn a_missing_tool_exits_2_everywhere_and_the_commit_is_known_without_git() {
    let dir = tempfile::tempdir().unwrap();
    let bin = path_with_only(dir.path(), &["objdump"]);
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).env("PATH", &bin).env("HOTLOOPS_LOCK_DIR", dir.path()).output().unwrap();
    let never = dir.path().join("never");
    for (args, says) in [
        (vec!["instructions", "local-index/local"], "valgrind is not installed"),
        (vec!["report", "--study", "local-index", "--size", "test", "--require", "instructions", "--out", never.to_str().unwrap()], "valgrind is not installed"),
        (vec!["model", "local-index"], "llvm-mca-19 is not installed"),
        (vec!["asm", "local-index/local", "--fresh"], "cargo-show-asm is not installed"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
    assert!(!never.exists());
    let git = Command::new("git").args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"]).output();
    let Some(head) = git.ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()) else {
        eprintln!("not a git checkout: the commit check is left out");
        return;
    };
    let out = dir.path().join("l");
    let o = run(&["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--processes", "1", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("layout.json")).unwrap()).unwrap();
    assert_eq!(j["provenance"]["commit"], head.as_str(), "without git on PATH");
}

/// A lock directory that refuses new files says why (EPERM), not the read-only retry's ENOENT.
#[test]
fn an_immutable_lock_directory_is_reported_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let locks = dir.path().join("locks");
    std::fs::create_dir(&locks).unwrap();
    if !Command::new("chattr").arg("+i").arg(&locks).status().is_ok_and(|s| s.success()) {
        eprintln!("chattr +i is not available here: left out");
        return;
    }
    let out = dir.path().join("o");
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--out", out.to_str().unwrap()])
        .env("HOTLOOPS_LOCK_DIR", &locks)
        .output()
        .unwrap();
    let _ = Command::new("chattr").arg("-i").arg(&locks).status();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("Operation not permitted") && !text(&o).contains("No such file"), "{}", text(&o));
}

/// `counters` says where it pinned plainly, and its rows line up (the one table writer).
#[test]
fn counters_rows_line_up() {
    let o = hotloops(&["counters", "local-index/local", "--size", "test", "--runs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(!t.contains("Some(") && (t.contains("pinned to core") || t.contains("not pinned")), "{t}");
    let rows: Vec<&str> = t.lines().filter(|l| l.starts_with('|')).collect();
    assert!(rows.len() > 3, "{t}");
    let width = rows[0].chars().count();
    assert!(rows.iter().all(|r| r.chars().count() == width && r.matches('|').count() == 6), "misaligned rows:\n{t}");
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
    // A report whose server ratio was exactly 1 (no effect to divide by: `effect_ratio`
    // null) reads back; a field of the wrong type is named by its path.
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report-pg-quick-7693cf8/report.json");
    let r = hotloops::report::load(&saved).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(r.pg.as_ref().unwrap().fidelity.iter().any(|f| f.effect_ratio.is_none()), "the saved run has a server ratio of exactly 1");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    v["rows"][3]["value"] = serde_json::json!("many");
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, v.to_string()).unwrap();
    let o = hotloops(&["compare", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("broken.json") && text(&o).contains("malformed report at `rows[3].value`"), "{}", text(&o));
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
        .args(["report", "--full", "--study", "local-index", "--size", "test", "--budget-ms", "60", "--processes", "2", "--no-instructions", "--out", out.to_str().unwrap()])
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let r = hotloops::report::load(&out.join("report.json")).unwrap();
    assert_eq!(r.config.processes, 2);
    let case = &r.studies[0].cases[0];
    // Two processes in each code layout (all five with --full), pooled over both.
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

/// `pg` usage errors that need no server are refused before any server is looked up or any
/// extension built (exit 2, nothing in the data directory): seed 004 with one server, and a
/// partition count given twice.
#[test]
fn pg_usage_errors_come_before_any_build() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for (args, says) in [
        (vec!["pg", "--seed", "004", "--server", "15"], "seed 004 compares servers: give two or more"),
        (vec!["pg", "--seed", "004", "--pg-config", "/usr/bin/pg_config"], "seed 004 compares servers: give two or more"),
        (vec!["pg", "--sweep-partitions", "--grid", "1,100,1", "--seconds", "1"], "--grid 1 is given twice"),
        (vec!["pg", "--seed", "004", "--grid", "4,4"], "--grid 4 is given twice"),
        (vec!["pg", "--seed", "004", "--clients", "1,1"], "--clients 1 is given twice"),
        (vec!["pg", "--cache", "warm", "--cache", "warm"], "--cache warm is given twice"),
    ] {
        let out = dir.path().join("out");
        let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
            .args(&args)
            .arg("--out")
            .arg(&out)
            .env("HOTLOOPS_DATA_DIR", &data)
            .env("HOTLOOPS_LOCK_DIR", dir.path())
            .output()
            .unwrap();
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        assert!(t.contains(says), "{args:?}: {t}");
        assert!(!t.contains("server: ") && !t.contains("extension: "), "{args:?} refused only after choosing a server: {t}");
        assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0, "{args:?}: nothing built");
        assert!(!out.exists(), "{args:?}: no --out");
    }
}

/// `pg` claims --out as every writing command does, before any server work: a file of the
/// user's named as one of its pair is refused (exit 2, named, left as it was), in every mode.
#[test]
fn pg_refuses_a_users_file_in_out_before_any_server_work() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for (args, mine) in [
        (vec!["pg"], "pg.md"),
        (vec!["pg", "--sweep-partitions"], "pg-sweep.json"),
        (vec!["pg", "--seed", "004"], "pg-seed004.md"),
        (vec!["pg", "--study", "read-stream"], "pg-read-stream.md"),
        (vec!["pg", "--study", "dir-by-value"], "pg-dir-by-value.json"),
        (vec!["pg", "--instructions"], "pg-instructions.md"),
    ] {
        let out = dir.path().join("out");
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join(mine), "my own notes").unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
            .args(&args)
            .arg("--out")
            .arg(&out)
            .env("HOTLOOPS_DATA_DIR", &data)
            .env("HOTLOOPS_LOCK_DIR", dir.path())
            .output()
            .unwrap();
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        assert!(t.contains(&format!("holds {mine} that hotloops did not write")), "{args:?}: {t}");
        assert!(!t.contains("server: "), "{args:?} refused only after choosing a server: {t}");
        assert_eq!(std::fs::read_to_string(out.join(mine)).unwrap(), "my own notes", "{args:?}");
        assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0, "{args:?}: nothing built");
    }
}

/// Every numeric flag of every command is bounded when the command line is parsed, the range
/// in the message (exit 2, before any --out, build or allocation): the sizes that once aborted
/// on a failed allocation (`pg --rounds 1000000000000`), panicked (`--rounds 2^64-1`) or ran for
/// ten minutes (`--grid 100000 --seconds 99999999999`).
#[test]
fn every_numeric_flag_is_bounded_at_parse_time_with_its_range() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let huge = "18446744073709551615";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["pg", "--rounds", "1000000000000"], "2..=1000000"),
        (vec!["pg", "--rounds", huge], "2..=1000000"),
        (vec!["pg", "--rounds", "1"], "2..=1000000"),
        (vec!["pg", "--rows", huge], "1..=100000000"),
        (vec!["pg", "--rows", "0"], "1..=100000000"),
        (vec!["pg", "--sweep-partitions", "--grid", "100000", "--seconds", "1"], "1..=1000"),
        (vec!["pg", "--sweep-partitions", "--grid", "1", "--seconds", "99999999999"], "1..=3600"),
        (vec!["pg", "--seed", "004", "--clients", "1000"], "1..=64"),
        (vec!["pg", "--study", "dir-by-value", "--scale", "0"], "1..=10000"),
        (vec!["report", "--pg", "--pg-rows", huge], "1..=100000000"),
        (vec!["report", "--pg", "--pg-rounds", "0"], "2..=1000000"),
        (vec!["report", "--pg", "--pg-seconds", "99999"], "1..=3600"),
        (vec!["report", "--processes", "65"], "1..=64"),
        (vec!["layout", "local-index", "--budget-ms", "1"], "10..=600000"),
        (vec!["counters", "local-index/local", "--runs", huge], "1..=1000000"),
        (vec!["run", "local-index/local", "--reps", "0"], "1..=1000000"),
        (vec!["paired", "a", "b", "--case", "c", "--size", "test", "--budget-ms", huge, "--block-us", "1"], "1..=3600000"),
        (vec!["paired", "a", "b", "--case", "c", "--size", "test", "--budget-ms", "1", "--block-us", huge], "1..=10000000"),
    ];
    for (args, range) in cases {
        let mut a = args.clone();
        if ["pg", "report", "layout"].contains(&a[0]) {
            a.extend(["--out", o]);
        }
        let t0 = std::time::Instant::now();
        let r = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(&a).env("HOTLOOPS_DATA_DIR", dir.path().join("data")).env("HOTLOOPS_LOCK_DIR", dir.path()).output().unwrap();
        let t = text(&r);
        assert_eq!(r.status.code(), Some(2), "{a:?}: {t}");
        assert!(t.contains(&format!("is not in {range}")), "{a:?} says its range {range}: {t}");
        assert!(!out.exists() && !dir.path().join("data").exists(), "{a:?}: refused before any work");
        // Refused at once, not after minutes (a loose bound, not a timing).
        assert!(t0.elapsed() < std::time::Duration::from_secs(60), "{a:?}");
    }
    // Seed 004's grid is named as the flag it is.
    let r = hotloops(&["pg", "--seed", "004", "--grid", "2000", "--out", o]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(text(&r).contains("--grid") && !text(&r).contains("--partitions"), "{}", text(&r));
}

/// `paired`'s block is bounded by its budget: a 10 s block on a 10 ms budget (eight trials of
/// four blocks: over five minutes) is refused at once, naming both.
#[test]
fn paired_refuses_a_block_longer_than_its_budget() {
    let t0 = std::time::Instant::now();
    let o = hotloops(&["paired", "local-index/store-each", "local-index/local", "--case", "table3", "--size", "test", "--budget-ms", "10", "--block-us", "10000000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--block-us 10000000 is longer than --budget-ms 10"), "{}", text(&o));
    assert!(t0.elapsed() < std::time::Duration::from_secs(60));
}

/// `model --cpu skylake,skylake` would model one core twice, as two columns: refused.
#[test]
fn a_cpu_named_twice_is_refused() {
    let o = hotloops(&["model", "local-index", "--cpu", "skylake,skylake", "--no-measure"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--cpu skylake is given twice"), "{}", text(&o));
}
