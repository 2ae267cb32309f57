//! Measurement end to end: exact instructions, counters (software always; hardware or a clear
//! reason), and a small report whose files carry provenance and load back.

use hotloops::measure::{callgrind, counters};
use hotloops::study::{Size, Study};
use std::path::PathBuf;
use std::process::Command;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hotloops"))
}

#[test]
fn callgrind_counts_are_identical_run_to_run_and_per_variant_ordered() {
    callgrind::check_valgrind().unwrap_or_else(|e| panic!("{e:#}"));
    let study = hotloops::study::local_index::LocalIndex;
    let case = study.build(&study.info().cases[0], Size::Test).unwrap();
    let name = study.info().cases[0].id;
    let a = callgrind::count(&exe(), "local-index/store-each", name, Size::Test).unwrap();
    let b = callgrind::count(&exe(), "local-index/store-each", name, Size::Test).unwrap();
    assert_eq!(a, b, "callgrind counts must be exact");
    assert_eq!(a.items, case.items(), "the count's items are the case's, read from `hotloops run`");
    assert!(a.own > 0 && a.inclusive > a.own, "{a:?}");
    let local = callgrind::count(&exe(), "local-index/local", name, Size::Test).unwrap();
    // The mechanism in instructions: the local cursor saves the reload/store per TID.
    assert!(local.own_per_item() < a.own_per_item(), "local {local:?} vs store-each {a:?}");
}

#[test]
fn software_counters_work_and_hardware_ones_say_why_not() {
    let study = hotloops::study::local_index::LocalIndex;
    let mut case = study.build(&study.info().cases[0], Size::Test).unwrap();
    let m = counters::Microarch::detect(&hotloops::host::cpu::cpu());
    let groups = counters::groups_for(m);
    let rep = counters::measure(case.as_mut(), study.info().baseline_variant(), 3, &groups).unwrap();
    match counters::hardware_available() {
        Ok(()) => {
            let instr = rep.values.iter().find(|v| v.event == "instructions").expect("PMU host: instructions counted");
            assert!(instr.per_item > 1.0, "{instr:?}");
        }
        Err(why) => {
            // No PMU (this project's VMs): every hardware event is listed with the reason.
            for e in ["instructions", "cycles", "branches"] {
                let u = rep.unavailable.iter().find(|u| u.event == e).unwrap_or_else(|| panic!("{e} neither counted nor explained: {rep:?}"));
                assert!(!u.reason.is_empty());
            }
            assert!(why.contains("PMU") || why.contains("permission") || why.contains("perf_event"), "{why}");
        }
    }
    if rep.values.iter().any(|v| v.group == "software") {
        let clock = rep.values.iter().find(|v| v.event == "task-clock").unwrap();
        assert!(clock.count > 0.0 && clock.time_running_ns > 0, "{clock:?}");
    } else {
        assert!(rep.unavailable.iter().any(|u| u.group == "software"), "software counters neither counted nor explained");
    }
}

#[test]
fn small_report_writes_complete_files_with_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = Command::new(exe())
        // --full: every variant, C rows of every built configuration included.
        .args(["report", "--full", "--study", "local-index", "--size", "test", "--budget-ms", "150", "--out"])
        .arg(&out)
        // Core locks of its own: another report on this host must not refuse this one.
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["report.json", "report.md", "local-index.svg"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let r = hotloops::report::load(&out.join("report.json")).unwrap();
    assert_eq!(r.schema_version, hotloops::report::SCHEMA_VERSION);
    assert!(r.provenance.rustc.contains("1.95"), "{:?}", r.provenance);
    assert!(!r.provenance.cpu_vendor.is_empty() && !r.provenance.kernel.is_empty());
    let walls: Vec<_> = r.rows.iter().filter(|x| x.metric == "wall-clock" && x.variant != x.baseline).collect();
    let cases = hotloops::study::local_index::info().cases.len();
    let variants = hotloops::study::local_index::info().variants.len();
    assert_eq!(walls.len(), (variants - 1) * cases, "every variant against store-each, in every case");
    for w in walls {
        let (lo, hi) = (w.ci_low.unwrap(), w.ci_high.unwrap());
        assert!(lo <= w.ratio.unwrap() && w.ratio.unwrap() <= hi && w.verdict.is_some());
    }
    assert!(r.rows.iter().any(|x| x.metric == "wall-clock-aa"));
    let instr: Vec<_> = r.rows.iter().filter(|x| x.metric == "instructions").collect();
    assert_eq!(instr.len(), variants * cases, "one instruction row per variant and case");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&r.provenance.commit) && md.contains("A/A noise floor"));
    // The static core model's block per study: the predictions, or what to install.
    assert!(md.contains("### local-index / static core model"), "{md}");
    let sm = &r.studies[0].static_model;
    assert_eq!(r.provenance.llvm_mca.is_some(), hotloops::model::available().is_ok(), "provenance names llvm-mca when it is there");
    if hotloops::model::available().is_ok() {
        assert!(sm.contains("skylake") && sm.contains("znver3") && sm.contains("[r13 + 132]"), "{sm}");
        // The report's pipeline beside the loop, for the variants the host harness timed.
        assert!(sm.contains("The loop against the pipeline") && sm.contains("local-index/local: loop"), "{sm}");
    } else {
        assert!(sm.contains("llvm-19"), "{sm}");
    }
    let svg = std::fs::read_to_string(out.join("local-index.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("</svg>"));

    // Two hosts' reports side by side (the same file twice is refused: another host's copy).
    let mut other = r.clone();
    other.provenance.host = "other-host".into();
    let second = dir.path().join("other.json");
    std::fs::write(&second, serde_json::to_vec(&other).unwrap()).unwrap();
    let c = Command::new(exe()).arg("compare").arg(out.join("report.json")).arg(&second).arg("--out").arg(dir.path().join("c")).output().unwrap();
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let cmp = std::fs::read_to_string(dir.path().join("c/compare.md")).unwrap();
    assert!(cmp.contains("local-index/local") && cmp.contains(&r.provenance.host) && cmp.contains("other-host"));
    assert!(dir.path().join("c/compare-local-index.svg").exists());
}

// ---- The worker protocol ------------------------------------------------------------------

use hotloops::host::worker::{Request, Worker};

fn trials_request(budget_ms: u64) -> Request {
    Request::Trials {
        a: "local-index/store-each".into(),
        b: "local-index/local".into(),
        case: "table3".into(),
        size: Size::Test.name().into(),
        budget_ms,
        block_us: 2000,
    }
}

/// A request goes out as one JSON line and its reply comes back typed: the trials a report
/// pools, from a fresh process.
#[test]
fn a_trials_request_round_trips_through_a_worker() {
    let mut w = Worker::start_with(&exe(), &trials_request(40)).unwrap();
    let t: hotloops::measure::wallclock::PairTrials = w.reply().unwrap();
    w.finish().unwrap();
    assert!(!t.ratios.is_empty() && t.ratios.len() == t.a_ns_per_item.len() && t.reps_per_block >= 1, "{t:?}");
    assert!(t.ratios.iter().all(|r| r.is_finite() && *r > 0.0), "{t:?}");
    // A bad size is refused by name, and the client says so.
    let bad = Request::Trials { a: "local-index/store-each".into(), b: "local-index/local".into(), case: "table3".into(), size: "huge".into(), budget_ms: 40, block_us: 2000 };
    let mut w = Worker::start_with(&exe(), &bad).unwrap();
    let e = format!("{:#}", w.reply::<serde_json::Value>().unwrap_err());
    assert!(e.contains("unknown size `huge`") && e.contains("quick"), "{e}");
}

/// A line that is not a request: exit 2, the reason on stderr and as an error reply.
#[test]
fn a_malformed_request_is_refused_with_a_clear_error() {
    use std::io::Write as _;
    use std::process::Stdio;
    for (line, why) in [
        ("{not json", "malformed request"),
        (r#"{"request": "trials", "a": "local-index/store-each"}"#, "missing field `b`"),
        (r#"{"request": "teleport"}"#, "unknown variant `teleport`"),
        ("", "no request"),
    ] {
        let mut c = Command::new(exe()).arg("worker").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        writeln!(c.stdin.as_mut().unwrap(), "{line}").unwrap();
        let o = c.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{line}: {}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{line}: {err}");
        let reply: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{line}: {e}: {:?}", o.stdout));
        assert_eq!(reply["error"]["usage"], true, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap().contains(why), "{reply}");
    }
}

fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Dropping a client mid-run kills its worker; a worker whose client vanished without a
/// drop (its stdin closed, as when the client is killed) exits on its own.
#[test]
fn a_worker_is_gone_after_its_client_is_dropped_mid_run() {
    let w = Worker::start_with(&exe(), &trials_request(60_000)).unwrap();
    let pid = w.pid();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(alive(pid), "the worker should still be measuring");
    drop(w);
    assert!(!alive(pid), "worker {pid} outlived its dropped client");

    use std::io::Write as _;
    let mut c = Command::new(exe()).arg("worker").stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let mut stdin = c.stdin.take().unwrap();
    writeln!(stdin, "{}", serde_json::to_string(&trials_request(60_000)).unwrap()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    drop(stdin);
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(s) = c.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > std::time::Duration::from_secs(30) {
            let _ = c.kill();
            panic!("a worker whose client left kept running");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(hotloops::host::worker::EXIT_CLIENT_GONE));
}
