//! hl_bloom (pgext/hl_bloom: the server's contrib/bloom but for amgetbitmap) and seed 002 in the
//! server: it builds and loads on every installed PostgreSQL (15, 17, 18) importing only what
//! each exports; every variant returns the baseline's TIDs (their count) and rows on the same
//! index, edges included; read-stream/stream refuses on 15 naming the version; `hotloops pg
//! --study read-stream` writes its report on 17 and 18 (A/B and A/A, every cache state and
//! io_method), leaves nothing after an interrupt, and without 17/18 says which to install and
//! exits 2.
//!
//! Without the servers these tests fail under `CI=true` (scripts/install-pg.sh installs all
//! three) and otherwise skip what is missing with the reason printed.

mod common;

use common::{all_pg, dynamic_symbols, interrupted_run_leaves_nothing, leftovers, libc_path, majors};
use hotloops::pgserver::bench::{self, SEED_SET, Target};
use hotloops::pgserver::cluster::{Cluster, Session};
use hotloops::pgserver::readstream::{self, READ_STREAM, ReadStreamRuns};
use hotloops::pgserver::{HL_BLOOM, Install, ext_sql};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The library of `name` built beside hl_btree.so.
fn lib(so: &Path, name: &str) -> PathBuf {
    so.with_file_name(format!("{name}.so"))
}

fn started(i: &Install, so: &Path) -> Cluster {
    let mut c = Cluster::init(i, so).expect("initdb");
    c.start(&[("shared_buffers", "32MB".into())]).expect("start");
    c.sql(&ext_sql(&HL_BLOOM), &[]).expect("hl_bloom objects");
    c
}

/// The variants without a read stream (15).
const NO_STREAM: [&str; 2] = ["read-stream/server", "read-stream/sync-per-page"];

/// The variants a server runs: all three from 17, the two without a read stream on 15.
fn target_for(i: &Install) -> Target {
    if i.major >= 17 { READ_STREAM } else { Target { variants: &NO_STREAM, pairs: &[], ..READ_STREAM } }
}

#[test]
fn hl_bloom_builds_loads_and_imports_only_what_each_server_exports() {
    for (i, so) in all_pg() {
        let bloom = lib(&so, "hl_bloom");
        assert!(bloom.is_file(), "{}: no {}", i.version, bloom.display());
        let mut exported = dynamic_symbols(&i.bin("postgres"), true);
        exported.extend(dynamic_symbols(&libc_path(), true));
        let imports = dynamic_symbols(&bloom, false);
        let missing: Vec<&String> = imports.iter().filter(|s| !exported.contains(s)).collect();
        assert!(missing.is_empty(), "{}: hl_bloom.so imports symbols the server does not export: {missing:?}", i.version);
        // The stream variant is compiled from 17 on only.
        assert_eq!(imports.iter().any(|s| s == "read_stream_begin_relation"), i.major >= 17, "{}: {imports:?}", i.version);
        let c = started(&i, &so);
        let out = c
            .sql("SELECT amname FROM pg_am WHERE amname = 'hl_bloom'; LOAD 'hl_bloom'; SHOW hl_bloom.variant; SET hl_bloom.variant = 'stream'; SHOW hl_bloom.variant;", &[])
            .unwrap_or_else(|e| panic!("{}: {e:#}", i.version));
        assert_eq!(out.lines().collect::<Vec<_>>(), ["hl_bloom", "read-stream/server", "read-stream/stream"], "{}", i.version);
        let bad = c.sql("LOAD 'hl_bloom'; SET hl_bloom.variant = 'no-such';", &[]).unwrap_err().to_string();
        assert!(bad.contains("invalid value"), "{bad}");
        // bloom's own reloptions and operator classes work under hl_bloom (bloom.so's _PG_init ran).
        c.sql("CREATE TABLE r (i int4, t text); CREATE INDEX ON r USING hl_bloom (i, t) WITH (length = 96, col1 = 3);", &[])
            .unwrap_or_else(|e| panic!("{}: {e:#}", i.version));
        let e = c.sql("CREATE INDEX ON r USING hl_bloom (i) WITH (length = 100000);", &[]).unwrap_err().to_string();
        assert!(e.contains("length"), "{}: bloom's reloption bounds: {e}", i.version);
    }
}

/// The tables of the edge cases: the seed's tbloom (six columns, 30,000 rows: 59 data pages),
/// an empty index, one partly filled page, exactly one full page (510 tuples) and one more row,
/// NULLs in the data, text columns, non-default signature options, pages emptied by VACUUM
/// (bloom marks them deleted) and rows inserted after the build, a column with three values.
const TABLES: &str = "
CREATE TABLE empty (i int4); CREATE INDEX ON empty USING hl_bloom (i);
CREATE TABLE one (i int4, j int4); INSERT INTO one SELECT g, g % 7 FROM generate_series(1, 100) g; CREATE INDEX ON one USING hl_bloom (i, j);
CREATE TABLE full1 (i int4); INSERT INTO full1 SELECT g FROM generate_series(1, 510) g; CREATE INDEX ON full1 USING hl_bloom (i);
CREATE TABLE two (i int4); INSERT INTO two SELECT g FROM generate_series(1, 511) g; CREATE INDEX ON two USING hl_bloom (i);
CREATE TABLE nulls (i int4, j int4); INSERT INTO nulls SELECT g, CASE WHEN g % 3 = 0 THEN NULL ELSE g % 50 END FROM generate_series(1, 5000) g;
  CREATE INDEX ON nulls USING hl_bloom (i, j);
CREATE TABLE txt (t text, n int4); INSERT INTO txt SELECT 'key-' || (g % 300), g FROM generate_series(1, 6000) g; CREATE INDEX ON txt USING hl_bloom (t, n);
CREATE TABLE opts (i int4, j int4); INSERT INTO opts SELECT g % 1000, g % 37 FROM generate_series(1, 8000) g;
  CREATE INDEX ON opts USING hl_bloom (i, j) WITH (length = 64, col1 = 4, col2 = 1);
CREATE TABLE del (i int4); INSERT INTO del SELECT g FROM generate_series(1, 6000) g; CREATE INDEX ON del USING hl_bloom (i);
  DELETE FROM del WHERE i <= 2600; VACUUM del; INSERT INTO del SELECT g FROM generate_series(10001, 10700) g;
CREATE TABLE few (i int4); INSERT INTO few SELECT g % 3 FROM generate_series(1, 9000) g; CREATE INDEX ON few USING hl_bloom (i);
CREATE TABLE probe (a int4); INSERT INTO probe SELECT i2 FROM tbloom ORDER BY i1 LIMIT 40;
VACUUM ANALYZE;
";

/// Every variant's TID count and rows for `q`: (ntids per variant, (sum, count)); the rows are
/// checked equal across variants by check_results_in, the TID counts here.
fn agree(s: &mut Session, t: &Target, version: &str, q: &str) -> (i64, (String, i64)) {
    let plan = s.query(&format!("EXPLAIN (COSTS OFF) {q};")).unwrap();
    assert!(plan.contains("Bitmap Index Scan"), "{version}: {q}: no Bitmap Index Scan in\n{plan}");
    let rows = bench::check_results_in(s, t, q).unwrap_or_else(|e| panic!("{version}: {q}: {e:#}"));
    let ntids: Vec<i64> = t.variants.iter().map(|v| bench::measure_once_in(s, t, v, q).unwrap_or_else(|e| panic!("{version}: {v}: {q}: {e:#}")).ntids).collect();
    assert!(ntids.iter().all(|n| *n == ntids[0]), "{version}: {q}: TIDs per variant {:?} = {ntids:?}", t.variants);
    (ntids[0], rows)
}

#[test]
fn every_variant_returns_the_baselines_tids_and_rows_with_edges() {
    for (i, so) in all_pg() {
        variants_agree_on(&i, &so);
    }
}

fn variants_agree_on(i: &Install, so: &Path) {
    let v = &i.version;
    let c = started(i, so);
    c.sql(readstream::SEED002_TBLOOM, &[("rows", "30000".into())]).unwrap();
    c.sql(TABLES, &[]).unwrap();
    let pages = |idx: &str| -> i64 { c.sql(&format!("SELECT pg_relation_size('{idx}') / 8192;"), &[]).unwrap().trim().parse().unwrap() };
    assert_eq!(pages("empty_i_idx"), 1, "{v}: the empty index is its metapage");
    assert_eq!((pages("full1_i_idx"), pages("two_i_idx")), (2, 3), "{v}: 510 tuples fill one page");
    assert_eq!(pages("bloomidx"), 60, "{v}: 30,000 rows = 59 data pages");
    let deleted: i64 = c.sql("SELECT count(*) FROM del WHERE i <= 2600;", &[]).unwrap().trim().parse().unwrap();
    assert_eq!(deleted, 0);
    let probe = c.sql("SELECT a || ' ' || b FROM tbloom_probe;", &[]).unwrap();
    let (a, b) = probe.trim().split_once(' ').unwrap();
    let t = target_for(i);
    let mut s = c.session().unwrap();
    s.query(SEED_SET).unwrap();
    // (query, rows expected when known)
    let cases: Vec<(String, Option<i64>)> = vec![
        (format!("SELECT sum(i1) FROM tbloom WHERE i2 = {a} AND i5 = {b}"), None),
        (format!("SELECT sum(i1) FROM tbloom WHERE i2 = {a}"), None),
        ("SELECT sum(i1) FROM tbloom WHERE i1 = 1000001".into(), Some(0)),
        ("SELECT sum(i1) FROM tbloom WHERE i1 = -1 AND i2 = -2 AND i3 = -3 AND i4 = -4 AND i5 = -5 AND i6 = -6".into(), Some(0)),
        // A key known only at run time (an initplan's value).
        ("SELECT sum(i1) FROM tbloom WHERE i5 = (SELECT b FROM tbloom_probe)".into(), None),
        ("SELECT sum(i1) FROM tbloom WHERE i2 = (SELECT NULL::int4)".into(), Some(0)),
        ("SELECT sum(i) FROM empty WHERE i = 1".into(), Some(0)),
        ("SELECT sum(i) FROM one WHERE i = 42".into(), Some(1)),
        ("SELECT sum(i) FROM one WHERE j = 3".into(), Some(14)),
        ("SELECT sum(i) FROM one WHERE i = 42 AND j = 0".into(), Some(1)),
        ("SELECT sum(i) FROM full1 WHERE i = 510".into(), Some(1)),
        ("SELECT sum(i) FROM two WHERE i = 511".into(), Some(1)),
        ("SELECT sum(i) FROM two WHERE i = 1".into(), Some(1)),
        ("SELECT sum(i) FROM nulls WHERE j = 7".into(), Some(67)),
        ("SELECT sum(i) FROM nulls WHERE i = 3000".into(), Some(1)),
        ("SELECT sum(i) FROM nulls WHERE j = (SELECT NULL::int4)".into(), Some(0)),
        ("SELECT sum(n) FROM txt WHERE t = 'key-17'".into(), Some(20)),
        ("SELECT sum(n) FROM txt WHERE t = 'key-17' AND n = 317".into(), Some(1)),
        ("SELECT sum(n) FROM txt WHERE t = 'no-such-key'".into(), Some(0)),
        ("SELECT sum(i) FROM opts WHERE i = 5".into(), Some(8)),
        ("SELECT sum(i) FROM opts WHERE i = 5 AND j = 5".into(), None),
        ("SELECT sum(i) FROM del WHERE i = 2601".into(), Some(1)),
        ("SELECT sum(i) FROM del WHERE i = 100".into(), Some(0)),
        ("SELECT sum(i) FROM del WHERE i = 10700".into(), Some(1)),
        ("SELECT sum(i) FROM few WHERE i = 1".into(), Some(3000)),
    ];
    for (q, rows) in &cases {
        let (ntids, (sum, n)) = agree(&mut s, &t, v, q);
        if let Some(r) = rows {
            assert_eq!(n, *r, "{v}: {q}: row count (sum {sum})");
        }
        assert!(ntids >= n, "{v}: {q}: {ntids} TIDs cannot hold {n} rows");
    }
    // The seed's query truly matches (its values come from a row) and reads every data page.
    // (hl_bloom reads an index's metapage options once, when a scan changes index: after the
    // first scan, each variant reads exactly what the server's does.)
    let seed_q = &cases[0].0;
    for variant in t.variants.iter().chain(t.variants) {
        let x = bench::measure_once_in(&mut s, &t, variant, seed_q).unwrap();
        assert!(x.ntids >= 1 && x.cpu_ns > 0.0, "{v}: {x:?}");
        assert!(x.hit + x.read <= 60.0, "{v}: {variant}: {x:?}");
    }
    for variant in t.variants {
        let x = bench::measure_once_in(&mut s, &t, variant, seed_q).unwrap();
        assert_eq!(x.hit + x.read, 59.0, "{v}: {variant}: every page but the metapage: {x:?}");
    }
    // Rescans: a parameterized Bitmap Index Scan in a nested loop, new keys every loop.
    s.query("SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off;").unwrap();
    let join = "SELECT sum(t.i1) FROM probe p JOIN tbloom t ON t.i2 = p.a";
    let plan = s.query(&format!("EXPLAIN (COSTS OFF) {join};")).unwrap();
    assert!(plan.contains("Nested Loop") && plan.contains("Bitmap Index Scan"), "{v}: {plan}");
    let (_, n) = bench::check_results_in(&mut s, &t, join).unwrap_or_else(|e| panic!("{v}: {join}: {e:#}"));
    assert!(n >= 40, "{v}: every probe row matches itself at least: {n}");
    if i.major < 17 {
        // 15: no read streams; the variant refuses, naming the server.
        let e = s.query(&format!("SET hl_bloom.variant = 'read-stream/stream'; {seed_q};")).unwrap_err().to_string();
        assert!(e.contains("read-stream/stream needs read streams") && e.contains("PostgreSQL 17") && e.contains(&format!("PostgreSQL {}", i.major)), "{v}: {e}");
    }
}

/// `hotloops pg ARGS`.
fn pg_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    c.arg("pg").args(args);
    c
}

#[test]
fn small_ab_and_aa_run_writes_its_report_on_17_and_18() {
    let ms: Vec<String> = majors().into_iter().filter(|m| m != "15").collect();
    if ms.is_empty() {
        eprintln!("skipping: neither PostgreSQL 17 nor 18 installed");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let mut cmd = pg_cmd(&["--study", "read-stream", "--rows", "100000", "--rounds", "2", "--out"]);
    cmd.arg(out.path());
    for m in &ms {
        cmd.args(["--server", m]);
    }
    let st = cmd.output().unwrap();
    assert!(st.status.success(), "pg --study read-stream failed: {}", String::from_utf8_lossy(&st.stderr));
    let runs: ReadStreamRuns = serde_json::from_str(&std::fs::read_to_string(out.path().join("pg-read-stream.json")).unwrap()).unwrap();
    assert_eq!(runs.servers.len(), ms.len(), "one measurement per server");
    for (r, m) in runs.servers.iter().zip(&ms) {
        let methods: &[&str] = if m == "17" { &["none"] } else { &["sync", "worker"] };
        assert!(r.provenance.server_version.split_whitespace().any(|w| w.starts_with(&format!("{m}."))), "{}", r.provenance.server_version);
        assert!(r.io_uring.contains(if m == "17" { "no io_method" } else { "no io_uring" }), "{}", r.io_uring);
        assert_eq!(r.index_pages, 198, "100,000 / 510 = 197 data pages rounded up, + the metapage: {}", r.index_pages);
        assert_eq!(r.results.len(), 3 * methods.len(), "every cache state under every io_method");
        for x in &r.results {
            let c = &x.measured;
            let at = format!("{m} {} {}", x.cache_state, x.io_method);
            assert!(methods.contains(&x.io_method.as_str()), "{at}");
            assert_eq!(c.cache_state, x.cache_state);
            assert_eq!(c.variants.iter().map(|v| v.id.as_str()).collect::<Vec<_>>(), ["read-stream/server", "read-stream/server#2", "read-stream/sync-per-page", "read-stream/stream"], "{at}");
            assert_eq!(c.pairs.iter().filter(|p| p.verdict == "A/A floor").count(), 2, "{at}");
            assert!(c.result.1 >= 1, "{at}: the seed's query matches its probe row");
            assert!(c.variants.iter().all(|v| v.ntids == c.variants[0].ntids && v.ntids >= c.result.1), "{at}: {:?}", c.variants);
            let pages = (r.index_pages - 1) as f64;
            for v in &c.variants {
                assert_eq!(v.shared_hit + v.shared_read, pages, "{at}: {}: every data page once", v.id);
                match x.cache_state.as_str() {
                    "warm" => assert_eq!(v.shared_read, 0.0, "{at}: {}: warm reads nothing", v.id),
                    // Evicted before every scan: every page a read.
                    _ => assert_eq!(v.shared_read, pages, "{at}: {}: pages read", v.id),
                }
                if x.cache_state == "cold" {
                    assert!(v.io_read_ms > 0.0, "{at}: {}: track_io_timing fills the read time", v.id);
                }
            }
            let shown = |k: &str| x.server_settings.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
            assert_eq!(shown("track_io_timing"), Some("on"), "{at}");
            assert_eq!(shown("debug_io_direct"), Some(if x.cache_state == "cold" { "data" } else { "" }), "{at}");
            if m != "17" {
                assert_eq!(shown("io_method"), Some(x.io_method.as_str()), "{at}");
            }
        }
    }
    // Every version loads the same rows (setseed) and answers the query alike.
    let sums: Vec<_> = runs.servers.iter().map(|r| (r.query.clone(), r.results[0].measured.result.clone())).collect();
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
    let md = std::fs::read_to_string(out.path().join("pg-read-stream.md")).unwrap();
    assert!(md.contains("## Every server side by side") && md.contains("| cold | server -> stream | bis |") && md.contains("## Pages read and I/O time a scan"), "{md}");
    assert!(md.contains("| read-stream/server | read-stream/server#2 | bis |") && md.contains("cold-direct = cold"), "{md}");
    if ms.contains(&"18".to_string()) {
        assert!(md.contains("18.6 worker |") && md.contains("--pg-config"), "{md}");
    }
    assert_eq!(leftovers(out.path()).len(), 2, "no temporary files left: {:?}", leftovers(out.path()));
}

#[test]
fn interrupted_read_stream_run_leaves_nothing() {
    let ms: Vec<String> = majors().into_iter().filter(|m| m != "15").collect();
    for m in &ms {
        let args = ["pg", "--study", "read-stream", "--server", m, "--rows", "100000", "--rounds", "1000000"];
        interrupted_run_leaves_nothing(&args, "cache state warm", 500, libc::SIGINT, false);
    }
    if let Some(m) = ms.last() {
        // During the load of a fresh data directory, and during the cold state's rounds.
        interrupted_run_leaves_nothing(&["pg", "--study", "read-stream", "--server", m, "--rows", "100000"], "loading tbloom", 300, libc::SIGTERM, true);
        let args = ["pg", "--study", "read-stream", "--server", m, "--rows", "100000", "--rounds", "1000000", "--cache", "cold"];
        interrupted_run_leaves_nothing(&args, "cache state cold", 800, libc::SIGTERM, false);
    }
}

#[test]
fn read_stream_without_17_or_18_says_which_to_install_and_exits_2() {
    // No wheel installed: the default servers are named with their install command.
    let empty = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let st = pg_cmd(&["--study", "read-stream", "--out"]).arg(out.path()).env("HOTLOOPS_SERVERS_DIR", empty.path()).output().unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(2), "{err}");
    assert!(err.contains("PostgreSQL 17") && err.contains("scripts/install-pg.sh 17") && !err.contains("panicked"), "{err}");
    // 15 has no read streams: refused before any build, naming the servers that have them.
    let fifteen = hotloops::pgserver::servers::known().into_iter().find(|k| k.major == 15).unwrap();
    if fifteen.install().is_ok() {
        for args in [vec!["--server", "15"], vec!["--pg-config", fifteen.pg_config.to_str().unwrap()]] {
            let st = pg_cmd(&["--study", "read-stream"]).args(&args).arg("--out").arg(out.path()).output().unwrap();
            let err = String::from_utf8_lossy(&st.stderr);
            assert_eq!(st.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("arrived in PostgreSQL 17") && err.contains("--server 17") && err.contains("PostgreSQL 15."), "{args:?}: {err}");
            assert!(!err.contains("extension:"), "{args:?}: refused before building: {err}");
        }
    }
    // Options of other modes, and io_uring on a build without liburing.
    for args in [
        vec!["--study", "read-stream", "--case", "btree-many"],
        vec!["--study", "read-stream", "--seed", "004"],
        vec!["--cache", "cold"],
        vec!["--io-method", "worker"],
        vec!["--study", "read-stream", "--rounds", "1"],
    ] {
        let st = pg_cmd(&args).arg("--out").arg(out.path()).output().unwrap();
        let err = String::from_utf8_lossy(&st.stderr);
        assert_eq!(st.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    if majors().contains(&"18".to_string()) {
        let st = pg_cmd(&["--study", "read-stream", "--server", "18", "--io-method", "io_uring", "--out"]).arg(out.path()).output().unwrap();
        let err = String::from_utf8_lossy(&st.stderr);
        assert_eq!(st.status.code(), Some(2), "{err}");
        assert!(err.contains("without liburing") && err.contains("--pg-config"), "{err}");
    }
    assert!(leftovers(out.path()).is_empty(), "{:?}", leftovers(out.path()));
}
