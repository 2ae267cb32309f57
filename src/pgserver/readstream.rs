//! Seed 002 on the real server (`hotloops pg --study read-stream`): contrib/bloom's
//! `blgetbitmap` reading every index page one synchronous `ReadBufferExtended` at a time against
//! a read stream, in `pgext/hl_bloom` (bloom's own AM but for amgetbitmap, whose variant the GUC
//! `hl_bloom.variant` names per scan), on PostgreSQL 17 and 18.
//!
//! The seed's table (the bloom documentation's `tbloom`: six int4 columns, a fixed `setseed`),
//! loaded once per server version and rows and cached ([`bench::loaded_cluster_with`]); an
//! `hl_bloom` index over the six columns with the defaults; the documentation's query
//! `i2 = a AND i5 = b` with `a`, `b` from the middle row, whose Bitmap Index Scan reads every
//! page but the metapage. Per cache state and io_method (18: `sync` and `worker` with 3 workers;
//! 17 has no io_method, its reads are synchronous), [`bench::measure_query`]'s rotated rounds
//! with an A/A copy of the baseline, results checked equal first, `track_io_timing` on.
//!
//! Cache states ([`state_settings`]):
//! - `warm`: 1 GB of shared buffers and the index loaded into them with `pg_prewarm` (no reads).
//! - `os-cache`: the server's default 128 MB of shared buffers, the index's buffers evicted
//!   before every scan ([`EVICT`], `pg_buffercache_evict`, untimed): every page a read, from the
//!   OS page cache. Eviction, not a pool too small for the index: bloom's scan reads through a
//!   bulk-read ring, but each scan leaves its ring's pages behind, so a pool that can hold the
//!   index (the 1M-row one is 15 MB) fills with it over repeated scans; and a pool small enough
//!   not to would cut a read stream's pin limit (a backend may pin shared_buffers / (backends +
//!   auxiliary processes), and 18 counts 32 possible I/O workers among the latter) to a few
//!   buffers.
//! - `cold`: the same with `debug_io_direct = data`: every read is an O_DIRECT read from storage.

use super::bench::{self, CaseResult, Dataset, Provenance, SideColumn, Target};
use super::cluster::Cluster;
use super::{HL_BLOOM, Install, PgArgs, UsageError, ext_sql, servers};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The variants, baseline first (hl_bloom.variant accepts them).
pub const VARIANTS: [&str; 3] = ["read-stream/server", "read-stream/sync-per-page", "read-stream/stream"];

/// The pairs reported, (A, B): ratio B/A per round. The first is the A/A pair; the seed's claim
/// is server -> stream; sync-per-page -> stream has the code placement controlled.
pub const PAIRS: [(&str, &str); 4] = [
    ("read-stream/server", "read-stream/server#2"),
    ("read-stream/server", "read-stream/sync-per-page"),
    ("read-stream/server", "read-stream/stream"),
    ("read-stream/sync-per-page", "read-stream/stream"),
];

/// The read-stream variants in hl_bloom's amgetbitmap.
pub const READ_STREAM: Target = Target { guc: "hl_bloom.variant", prefix: "hl_bloom", variants: &VARIANTS, pairs: &PAIRS };

/// sql/seed002-tbloom.sql.
pub const SEED002_TBLOOM: &str = include_str!("../../sql/seed002-tbloom.sql");

/// The cache states, in run order.
pub const CACHE_STATES: [&str; 3] = ["warm", "os-cache", "cold"];

/// The index's name in sql/seed002-tbloom.sql.
pub const INDEX: &str = "bloomidx";

/// Seed 002's table with its hl_bloom index (and pg_prewarm and pg_buffercache, which set the
/// cache states).
pub const TBLOOM: Dataset = Dataset {
    table: "tbloom",
    cache_prefix: "pg-tbloom",
    setup_sql,
    load_sql: SEED002_TBLOOM,
    validate,
    checked: "the hl_bloom index",
    objects: "the hl_bloom objects, pg_prewarm and pg_buffercache",
    script: "sql/seed002-tbloom.sql",
};

fn setup_sql() -> String {
    format!("{}\nCREATE EXTENSION pg_prewarm;\nCREATE EXTENSION pg_buffercache;\n", ext_sql(&HL_BLOOM))
}

fn validate(c: &Cluster, rows: u64) -> Result<()> {
    let out = c.sql(
        &format!("SELECT count(*) FROM tbloom; SELECT am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = '{INDEX}'; SELECT count(*) FROM tbloom_probe;"),
        &[],
    )?;
    let l: Vec<&str> = out.lines().map(str::trim).collect();
    if l.len() != 3 || l[0] != rows.to_string() || l[1] != "hl_bloom" || l[2] != "1" {
        bail!("tbloom check failed: got {l:?}, expected {rows} rows, an hl_bloom index and one probe row");
    }
    Ok(())
}

/// Evicts the index from shared buffers (17+: pg_buffercache_evict, a boolean in 17 and a record
/// in 18, counted either way), run before every scan of the os-cache and cold states.
pub const EVICT: &str = "SELECT count(pg_buffercache_evict(bufferid)) FROM pg_buffercache \
                         WHERE relfilenode = pg_relation_filenode('bloomidx') AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());";

/// Server settings of a cache state under `io_method` (None: a server without io_method).
pub fn state_settings(state: &str, io_method: Option<&str>) -> Result<Vec<(&'static str, String)>> {
    let sb = match state {
        "warm" => "1GB",
        "os-cache" | "cold" => "128MB",
        other => bail!("unknown cache state {other}"),
    };
    let mut v = vec![
        ("shared_buffers", sb.to_string()),
        ("work_mem", "'4MB'".to_string()),
        ("maintenance_work_mem", "'1GB'".to_string()),
        ("track_io_timing", "on".to_string()),
    ];
    if state == "cold" {
        v.push(("debug_io_direct", "data".to_string()));
    }
    if let Some(m) = io_method {
        v.push(("io_method", m.to_string()));
        if m == "worker" {
            // The seed's worker runs: 3 I/O workers (also 18's default).
            v.push(("io_workers", "3".to_string()));
        }
    }
    Ok(v)
}

/// The settings a state's server reports (`current_setting`), defaults included.
const SHOWN: &[&str] = &["shared_buffers", "io_method", "io_workers", "io_combine_limit", "effective_io_concurrency", "debug_io_direct", "track_io_timing", "max_connections"];

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rows of tbloom.
    pub rows: u64,
    /// Rounds per cache state and io_method.
    pub rounds: usize,
    /// `warm`, `os-cache`, `cold`.
    pub cache_states: Vec<String>,
    /// io_method values on 18+ (empty: sync and worker, and io_uring on a liburing build).
    pub io_methods: Vec<String>,
}

/// One cache state under one io_method on one server.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StateResult {
    /// `warm`, `os-cache` or `cold`.
    pub cache_state: String,
    /// `sync`, `worker`, `io_uring`, or `none` (PostgreSQL 17: no io_method, synchronous reads).
    pub io_method: String,
    /// What the server reported for the I/O settings (defaults included).
    pub server_settings: Vec<(String, String)>,
    /// The rounds: every variant and the baseline's A/A copy (`measured.cache_state` is
    /// `cache_state`; its `case` is `tbloom`).
    pub measured: CaseResult,
}

/// One server's measurement.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ServerReport {
    /// Where it came from.
    pub provenance: Provenance,
    /// The measured query.
    pub query: String,
    /// Pages of the index (the metapage included; a scan reads all but it).
    pub index_pages: u64,
    /// Whether the server can run io_method=io_uring (configured --with-liburing), in words.
    pub io_uring: String,
    /// Per cache state and io_method.
    pub results: Vec<StateResult>,
}

/// A `hotloops pg --study read-stream` run (pg-read-stream.json).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReadStreamRuns {
    /// `read-stream`.
    pub study: String,
    /// The seed's claim.
    pub seed_claim: String,
    /// Which model case and variant each server figure corresponds to.
    pub model_mapping: String,
    /// One measurement per server, in the order given.
    pub servers: Vec<ServerReport>,
}

const SEED_CLAIM: &str = "seed 002 (commit 4c910f3bbe, bloom: Optimize bitmap scan path with streaming read): about 3x runtime with io_uring \
                          (author), close to 7x (committer), indexes of up to 10M rows; lower I/O stats with io_method=worker (3 workers)";

const MODEL_MAPPING: &str = "the model's (study read-stream) cases: cold-direct = cold (debug_io_direct=data), warm (the file in the OS page cache) = \
                             os-cache; the model has no shared buffers, so the server's warm state has no model case, and the server has no \
                             cold-buffered state (the page cache is not dropped between scans). Variants: the model's sync-per-page = \
                             read-stream/server (and its control read-stream/sync-per-page); stream-sync = read-stream/stream under \
                             io_method=sync (18) or on 17 (no io_method: synchronous reads); stream-worker = read-stream/stream under \
                             io_method=worker; stream-io-uring = read-stream/stream under io_method=io_uring (a liburing build only)";

/// Whether the server can run io_method=io_uring: configured --with-liburing, or (a meson build,
/// whose pg_config does not record its options) its postgres binary links liburing.
fn has_liburing(inst: &Install) -> bool {
    inst.configure.contains("--with-liburing") || std::fs::read(inst.bin("postgres")).is_ok_and(|b| b.windows(11).any(|w| w == b"liburing.so"))
}

fn io_uring_words(inst: &Install) -> String {
    if inst.major < 18 {
        format!("PostgreSQL {} has no io_method (asynchronous I/O arrived in 18)", inst.short_version)
    } else if has_liburing(inst) {
        "built with liburing: io_method=io_uring is available (--io-method io_uring)".to_string()
    } else {
        format!(
            "this build has no io_uring (not configured --with-liburing, and its postgres does not link liburing; io_method is sync or worker): with a server built \
             --with-liburing, run `hotloops pg --study read-stream --pg-config /path/to/bin/pg_config` (io_uring joins sync and worker by \
             default there; `--io-method io_uring` for it alone); {} is not such a build",
            inst.pg_config.display()
        )
    }
}

/// The io_method values a server runs: None (one run) before 18.
fn methods_for(inst: &Install, asked: &[String]) -> Vec<Option<String>> {
    if inst.major < 18 {
        return vec![None];
    }
    let mut m: Vec<String> = if asked.is_empty() { vec!["sync".into(), "worker".into()] } else { asked.to_vec() };
    if asked.is_empty() && has_liburing(inst) {
        m.push("io_uring".into());
    }
    m.into_iter().map(Some).collect()
}

/// Usage errors of `--study read-stream` before any work.
pub fn check_args(args: &PgArgs) -> Result<()> {
    let usage = |m: &str| -> Result<()> { Err(UsageError(m.to_string()).into()) };
    if args.seed.is_some() || args.sweep_partitions {
        return usage("--study read-stream measures hl_bloom's Bitmap Index Scan: it does not go with --seed or --sweep-partitions");
    }
    if !args.case.is_empty() {
        return usage("--case goes with --study tid-batch; --study read-stream has one query (use --cache and --io-method to narrow it)");
    }
    if !args.grid.is_empty() || args.seconds.is_some() || !args.bid_index.is_empty() || !args.protocol.is_empty() || !args.clients.is_empty() || !args.arm.is_empty() || args.no_who_allocates {
        return usage("--grid, --seconds, --bid-index, --protocol, --clients, --arm and --no-who-allocates go with --seed 004 or --sweep-partitions");
    }
    if args.rows == Some(0) {
        return usage("--rows must be at least 1");
    }
    if matches!(args.rounds, Some(0) | Some(1)) {
        return usage("--rounds must be at least 2");
    }
    Ok(())
}

/// Refuse servers without read streams (before 17) and io_uring where the build has none.
pub fn check_servers(installs: &[Install], io_methods: &[String]) -> Result<()> {
    for i in installs {
        if i.major < 17 {
            return Err(UsageError(format!(
                "--study read-stream needs read streams, which arrived in PostgreSQL 17: PostgreSQL {} ({}) has none (its hl_bloom refuses \
                 read-stream/stream); pass --server 17 and/or --server 18, installed with `scripts/install-pg.sh 17 18` (installed: {})",
                i.short_version,
                i.pg_config.display(),
                servers::installed_summary()
            ))
            .into());
        }
        if i.major >= 18 && io_methods.iter().any(|m| m == "io_uring") && !has_liburing(i) {
            return Err(UsageError(format!(
                "--io-method io_uring: PostgreSQL {} ({}) was built without liburing (not configured --with-liburing, and its postgres does not \
                 link liburing), so its io_method is sync or worker; pass --pg-config of a server built --with-liburing",
                i.short_version,
                i.pg_config.display()
            ))
            .into());
        }
    }
    if !io_methods.is_empty() && !installs.iter().any(|i| i.major >= 18) {
        return Err(UsageError("--io-method needs PostgreSQL 18 or later (17 has no io_method): add --server 18".into()).into());
    }
    Ok(())
}

/// Whether the file system under `dir` takes O_DIRECT opens (tmpfs, for one, refuses them).
fn supports_o_direct(dir: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let p = dir.join(".hotloops-o-direct-probe");
    let ok = std::fs::OpenOptions::new().write(true).create(true).truncate(true).custom_flags(libc::O_DIRECT).open(&p).is_ok();
    let _ = std::fs::remove_file(&p);
    ok
}

/// The query's values and the index's size, from a started cluster.
fn probe(c: &Cluster) -> Result<(String, u64)> {
    let out = c.sql(&format!("SELECT a || ' ' || b FROM tbloom_probe; SELECT pg_relation_size('{INDEX}') / 8192;"), &[])?;
    let l: Vec<&str> = out.lines().map(str::trim).collect();
    let [ab, pages] = l[..] else { bail!("tbloom_probe: unexpected output {l:?}") };
    let (a, b) = ab.split_once(' ').with_context(|| format!("tbloom_probe: {ab:?}"))?;
    let (a, b): (i32, i32) = (a.parse()?, b.parse()?);
    Ok((format!("SELECT sum(i1) FROM tbloom WHERE i2 = {a} AND i5 = {b}"), pages.parse()?))
}

/// Measure one server: load (or copy from the cache), then each cache state and io_method.
pub fn run(inst: &Install, so: &Path, cfg: &Config) -> Result<ServerReport> {
    let (mut c, data) = bench::loaded_cluster_with(&TBLOOM, inst, so, cfg.rows)?;
    crate::say!("data: {data}");
    let methods = methods_for(inst, &cfg.io_methods);
    let mut query: Option<(String, u64)> = None;
    let mut results = Vec::new();
    for state in &cfg.cache_states {
        if state == "cold" && !supports_o_direct(c.root()) {
            return Err(UsageError(format!(
                "cache state cold: the file system under {} refuses O_DIRECT (debug_io_direct=data); set TMPDIR to a directory on a disk file system, or leave out --cache cold",
                c.root().display()
            ))
            .into());
        }
        for m in &methods {
            let settings = state_settings(state, m.as_deref())?;
            c.start(&settings)?;
            let io = m.clone().unwrap_or_else(|| "none".into());
            crate::say!("read-stream: PostgreSQL {}, cache state {state}, io_method {io}: {}", inst.short_version, c.settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
            let (q, pages) = match &query {
                Some(x) => x.clone(),
                None => {
                    let x = probe(&c)?;
                    query = Some(x.clone());
                    x
                }
            };
            if state == "warm" {
                c.sql(&format!("SELECT pg_prewarm('{INDEX}');"), &[]).context("pg_prewarm of the index")?;
            }
            let names: Vec<String> = SHOWN.iter().map(|n| format!("'{n}'")).collect();
            let shown = c.sql(&format!("SELECT name || '=' || current_setting(name) FROM pg_settings WHERE name IN ({}) ORDER BY name;", names.join(", ")), &[])?;
            let server_settings = shown.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let before = (state != "warm").then_some(EVICT);
            let measured = bench::measure_query_after(&c, &READ_STREAM, bench::SEED_SET, "tbloom", state, &q, 1, cfg.rounds, before)?;
            c.stop();
            crate::say!(
                "  pages read a scan (median, server / sync-per-page / stream): {}; index {pages} pages",
                measured.variants.iter().filter(|v| !v.id.ends_with("#2")).map(|v| format!("{:.0}", v.shared_read)).collect::<Vec<_>>().join(" / ")
            );
            results.push(StateResult { cache_state: state.clone(), io_method: io, server_settings, measured });
        }
    }
    let (query, index_pages) = query.context("no cache state was measured")?;
    Ok(ServerReport { provenance: bench::provenance(inst, so, cfg.rows, cfg.rounds, data), query, index_pages, io_uring: io_uring_words(inst), results })
}

/// Every server in turn (`report --pg` runs this too).
pub fn run_all(servers: &[(Install, PathBuf)], cfg: &Config) -> Result<ReadStreamRuns> {
    let mut runs = ReadStreamRuns { study: "read-stream".into(), seed_claim: SEED_CLAIM.into(), model_mapping: MODEL_MAPPING.into(), servers: Vec::new() };
    for (inst, so) in servers {
        runs.servers.push(run(inst, so, cfg)?);
    }
    Ok(runs)
}

/// `hotloops pg --study read-stream`: default servers 17 and 18.
/// `servers` were chosen and checked ([`check_servers`]) before the output was claimed.
pub fn run_cli(args: &PgArgs, servers: &[(Install, PathBuf)], out: &mut crate::host::outdir::OutDir) -> Result<()> {
    let cfg = Config {
        rows: args.rows(),
        rounds: args.rounds.unwrap_or(if args.full { 8 } else { 12 }),
        cache_states: if args.cache.is_empty() { CACHE_STATES.iter().map(|s| s.to_string()).collect() } else { args.cache.clone() },
        io_methods: args.io_method.clone(),
    };
    let runs = run_all(servers, &cfg)?;
    let (j, m) = write(&runs, out)?;
    super::print_file(&m)?;
    crate::say!("wrote {} and {}", j.display(), m.display());
    Ok(())
}

/// The major.minor of a report's server.
fn short(r: &ServerReport) -> String {
    r.provenance.server_version.split_whitespace().find(|w| w.starts_with(|c: char| c.is_ascii_digit())).unwrap_or("?").to_string()
}

/// A column per server and io_method (`PostgreSQL 18.6 worker`; 17 alone: `PostgreSQL 17.11`).
fn columns(runs: &ReadStreamRuns) -> Vec<SideColumn<'_>> {
    let mut cols: Vec<SideColumn> = Vec::new();
    for r in &runs.servers {
        for x in &r.results {
            let header = if x.io_method == "none" { format!("PostgreSQL {}", short(r)) } else { format!("PostgreSQL {} {}", short(r), x.io_method) };
            let i = match cols.iter().position(|c| c.header == header) {
                Some(i) => i,
                None => {
                    cols.push(SideColumn { header, rows: Vec::new() });
                    cols.len() - 1
                }
            };
            cols[i].rows.push((vec![x.cache_state.clone()], &x.measured));
        }
    }
    cols
}

/// The Markdown report (the same data as the JSON): the seed's claim, the servers side by side,
/// pages read and I/O time, then each server's figures.
pub fn markdown(runs: &ReadStreamRuns) -> String {
    let mut s = String::from("# hotloops pg --study read-stream: seed 002 in the real server\n\n");
    s += &format!("Claim: {}.\n\n", runs.seed_claim);
    s += "hl_bloom (`pgext/hl_bloom`) is the server's contrib/bloom but for amgetbitmap: `read-stream/server` is the server's own \
          blgetbitmap (one synchronous ReadBufferExtended a page), `read-stream/sync-per-page` the same loop compiled in hl_bloom (the \
          control for code placement), `read-stream/stream` the loop through a read stream as the seed's commit has it. \
          Cache states: `warm` = the index in 1 GB of shared buffers (pg_prewarm); `os-cache` = 128 MB of shared buffers and the index's \
          buffers evicted before every scan (pg_buffercache_evict, untimed): every page a read from the OS page cache; `cold` = the same \
          with `debug_io_direct=data` (O_DIRECT reads from storage). \
          io_method: 18's `sync` and `worker` (3 I/O workers); PostgreSQL 17 has none (synchronous reads).\n\n";
    for r in &runs.servers {
        s += &format!("- PostgreSQL {}: {}\n", short(r), r.io_uring);
    }
    s += &format!("\nModel beside it: {}.\n\n", runs.model_mapping);
    s += "## Every server side by side\n\nB/A per round (< 1: B is faster), median [95% interval]; `bis` is the Bitmap Index Scan node time (the seed's runtime), \
          `cpu` amgetbitmap's thread CPU time (waits excluded); the A/A row is each column's floor.\n\n";
    s += &bench::side_by_side_columns(&["cache"], &columns(runs), &["bis", "cpu"]);
    s += "\n## Pages read and I/O time a scan\n\nMedians a scan: Bitmap Index Scan ms, shared blocks read and hit, and the node's I/O read time (track_io_timing).\n\n\
          | server | io_method | cache | variant | BIS ms | CPU ms | read | hit | I/O read ms |\n|---|---|---|---|---:|---:|---:|---:|---:|\n";
    for r in &runs.servers {
        for x in &r.results {
            for v in x.measured.variants.iter().filter(|v| !v.id.ends_with("#2")) {
                s += &format!(
                    "| {} | {} | {} | {} | {:.2} | {:.2} | {:.0} | {:.0} | {:.2} |\n",
                    short(r),
                    x.io_method,
                    x.cache_state,
                    v.id,
                    v.median_bis_ms,
                    v.median_cpu_ms,
                    v.shared_read,
                    v.shared_hit,
                    v.io_read_ms
                );
            }
        }
    }
    s += "\n";
    for r in &runs.servers {
        s += &format!("## PostgreSQL {}\n\n{}", short(r), bench::provenance_markdown(&r.provenance));
        s += &format!("`{}`: an index of {} pages ({:.1} MiB), every one but the metapage read a scan.\n\n", r.query, r.index_pages, r.index_pages as f64 * 8192.0 / 1048576.0);
        for x in &r.results {
            let c = &x.measured;
            s += &format!(
                "### {} / io_method {}\n\nsum(i1) = {}, {} rows for every variant; {} rounds.\n\nSettings: {}\n\nServer reports: {}\n\n",
                x.cache_state,
                x.io_method,
                c.result.0,
                c.result.1,
                c.rounds,
                c.settings.iter().map(|(k, v)| format!("`{k}={v}`")).collect::<Vec<_>>().join(" "),
                x.server_settings.iter().map(|(k, v)| format!("`{k}={v}`")).collect::<Vec<_>>().join(" ")
            );
            s += "| variant | BIS ms (median) | BIS ms (min) | amgetbitmap CPU ms | TIDs | shared hit | shared read | I/O read ms |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
            for v in &c.variants {
                s += &format!("| {} | {:.3} | {:.3} | {:.3} | {} | {:.0} | {:.0} | {:.3} |\n", v.id, v.median_bis_ms, v.min_bis_ms, v.median_cpu_ms, v.ntids, v.shared_hit, v.shared_read, v.io_read_ms);
            }
            s += &bench::pairs_markdown(c);
            s += "\n";
        }
    }
    s
}

/// Write pg-read-stream.json and pg-read-stream.md into `out` (each atomically).
pub fn write(r: &ReadStreamRuns, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    super::bench::write_pair(out, "pg-read-stream", serde_json::to_string_pretty(r)?, markdown(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_set_what_they_claim() {
        let w = state_settings("warm", Some("worker")).unwrap();
        assert!(w.contains(&("shared_buffers", "1GB".into())) && w.contains(&("io_workers", "3".into())) && !w.iter().any(|(k, _)| *k == "debug_io_direct"));
        let c = state_settings("cold", None).unwrap();
        assert!(c.contains(&("debug_io_direct", "data".into())) && c.contains(&("track_io_timing", "on".into())) && !c.iter().any(|(k, _)| *k == "io_method"));
        assert!(state_settings("hot", None).is_err());
    }

    #[test]
    fn pairs_start_with_the_aa_pair_of_the_baseline() {
        assert_eq!(PAIRS[0], (VARIANTS[0], "read-stream/server#2"));
        assert!(PAIRS.iter().all(|(a, b)| VARIANTS.contains(a) && (VARIANTS.contains(b) || b.ends_with("#2"))));
    }
}
