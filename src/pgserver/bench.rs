//! Seed 000 on the real server: seed 000's table3 loaded once per server version and row count
//! (cached), then per cache state and case, rounds in which every variant runs once in rotated
//! order, plus the baseline a second time for the A/A pair. Each run records the Bitmap Index
//! Scan node of `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` and hl_btree's thread CPU time of
//! amgetbitmap; per-round ratios against the baseline give a median with a bootstrap 95%
//! interval, judged against the A/A floor of the same run.

use super::cluster::{Cluster, Session};
use super::{Install, SEED000_TABLE3, cpu_name, data_dir, extension_sql, fnv};
use crate::measure::stats::{bootstrap_median_ci, median};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a server measurement selects and reads back: the GUC naming the variant (read when a
/// scan starts), the SQL functions reporting the last call (`PREFIX_last_ns()`, `_ntids()`,
/// `_variant()`), the variants (baseline first) and the pairs reported.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// `hl_btree.variant`.
    pub guc: &'static str,
    /// `hl_btree`: `hl_btree_last_ns()` and friends.
    pub prefix: &'static str,
    /// The variants, baseline first (the crate's ids).
    pub variants: &'static [&'static str],
    /// The pairs (A, B): ratio B/A per round. The first is the A/A pair (`BASE`, `BASE#2`).
    pub pairs: &'static [(&'static str, &'static str)],
}

/// tid-batch in hl_btree's amgetbitmap.
pub const TID_BATCH: Target = Target { guc: "hl_btree.variant", prefix: "hl_btree", variants: &VARIANTS, pairs: &PAIRS };

/// The variants, baseline first (the crate's ids; hl_btree.variant accepts them).
pub const VARIANTS: [&str; 5] =
    ["tid-batch/server", "tid-batch/per-tid", "tid-batch/batched-store", "tid-batch/batched-local", "tid-batch/batched"];

/// The pairs reported, (A, B): ratio B/A per round. The first is the A/A pair.
pub const PAIRS: [(&str, &str); 7] = [
    ("tid-batch/server", "tid-batch/server#2"),
    ("tid-batch/server", "tid-batch/per-tid"),
    ("tid-batch/server", "tid-batch/batched-store"),
    ("tid-batch/server", "tid-batch/batched-local"),
    ("tid-batch/server", "tid-batch/batched"),
    ("tid-batch/batched-store", "tid-batch/batched-local"),
    ("tid-batch/per-tid", "tid-batch/batched"),
];

/// The seed's session settings, sent before every measurement.
pub const SEED_SET: &str = "SET max_parallel_workers_per_gather = 0; SET enable_seqscan = false; SET enable_indexscan = false; SET jit = off;";

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rows of table3.
    pub rows: u64,
    /// Rounds per case and cache state.
    pub rounds: usize,
    /// `warm` and/or `os-cache`.
    pub cache_states: Vec<String>,
    /// `btree-many` and/or `btree-few`.
    pub cases: Vec<String>,
}

/// Where the run came from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Provenance {
    /// `postgres --version`.
    pub server_version: String,
    /// The pg_config used.
    pub pg_config: String,
    /// Where the server came from (Debian's package, a pinned wheel, --pg-config).
    #[serde(default)]
    pub server_source: String,
    /// `pg_config --configure`.
    #[serde(default)]
    pub server_configure: String,
    /// `pg_config --cflags`: the server's flags.
    #[serde(default)]
    pub server_cflags: String,
    /// The command that compiled the extension (PGXS: the server's flags and the module's).
    pub extension_cflags: String,
    /// /proc/cpuinfo's model name, family, model.
    pub host_cpu: String,
    /// `uname -sr`.
    pub kernel: String,
    /// Rows of table3.
    pub rows: u64,
    /// Rounds per case and cache state.
    pub rounds: usize,
    /// Whether the loaded data came from the cache, and how it was checked.
    pub data: String,
    /// Seconds since the epoch.
    pub unix_time: u64,
    /// The command line.
    pub command: String,
}

/// One variant in one case and cache state (medians over rounds).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantResult {
    /// Variant id (`tid-batch/server#2`: the baseline's A/A copy).
    pub id: String,
    /// Median Bitmap Index Scan node time a query, ms.
    pub median_bis_ms: f64,
    /// Fastest round, ms.
    pub min_bis_ms: f64,
    /// Median thread CPU time of amgetbitmap a query, ms.
    pub median_cpu_ms: f64,
    /// BIS node time per TID, ns.
    pub bis_ns_per_tid: f64,
    /// TIDs the scan returned.
    pub ntids: i64,
    /// Median shared buffers hit a query (BIS node).
    pub shared_hit: f64,
    /// Median shared buffers read a query (BIS node).
    pub shared_read: f64,
    /// Median read time a query, ms (track_io_timing; 0 when off).
    #[serde(default)]
    pub io_read_ms: f64,
}

/// One pair: B/A per round, median, bootstrap 95% interval, verdict against the A/A floor.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairResult {
    /// Denominator.
    pub a: String,
    /// Numerator.
    pub b: String,
    /// `bis` (node time) or `cpu` (amgetbitmap thread CPU time).
    pub metric: String,
    /// Median of the per-round ratios B/A (< 1: B is faster).
    pub median_ratio: f64,
    /// 95% interval, low.
    pub ci_low: f64,
    /// 95% interval, high.
    pub ci_high: f64,
    /// `A/A floor`, `faster`, `slower` or `not resolved`.
    pub verdict: String,
}

/// One case in one cache state.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseResult {
    /// `btree-many` or `btree-few`.
    pub case: String,
    /// `warm` or `os-cache`.
    pub cache_state: String,
    /// The query.
    pub query: String,
    /// Queries a variant runs per round (their times summed; >1 for the microsecond case).
    pub reps: usize,
    /// Rounds.
    pub rounds: usize,
    /// Server settings (-c) of this state, in order.
    pub settings: Vec<(String, String)>,
    /// `sum(col1)` and `count(*)`, identical for every variant (checked before timing).
    pub result: (String, i64),
    /// Per variant.
    pub variants: Vec<VariantResult>,
    /// Per pair and metric.
    pub pairs: Vec<PairResult>,
    /// A/A floor of node time and of CPU time.
    pub aa_floor: (f64, f64),
}

/// A `hotloops pg` run over one or more servers (pg.json).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PgRuns {
    /// One measurement per server, in the order given.
    pub servers: Vec<PgReport>,
}

/// One server's measurement.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PgReport {
    /// Where it came from.
    pub provenance: Provenance,
    /// Per case and cache state.
    pub results: Vec<CaseResult>,
}

/// Ten widely spaced keys (k * rows/10 + rows/20), as sql/seed000-btree-few.sql.
pub fn few_keys(rows: u64) -> Vec<u64> {
    (0..10u64).map(|k| k * (rows / 10) + rows / 20).collect()
}

/// The query of a case.
pub fn case_query(case: &str, rows: u64) -> Result<String> {
    Ok(match case {
        "btree-many" => "SELECT sum(col1) FROM table3 WHERE col0 < 10000000".to_string(),
        "btree-few" => {
            let k: Vec<String> = few_keys(rows).iter().map(|k| k.to_string()).collect();
            format!("SELECT sum(col1) FROM table3 WHERE col0 = ANY ('{{{}}}'::int8[])", k.join(","))
        }
        other => bail!("unknown case {other}"),
    })
}

/// Server settings of a cache state: `warm` keeps table and index in shared buffers;
/// `os-cache` has the minimum of 128 kB (16 buffers), so every index leaf is a `read` from the
/// OS page cache at any row count (the seed's `read=27324`).
pub fn state_settings(state: &str) -> Result<Vec<(&'static str, String)>> {
    let sb = match state {
        "warm" => "1GB",
        "os-cache" => "128kB",
        other => bail!("unknown cache state {other}"),
    };
    Ok(vec![("shared_buffers", sb.into()), ("work_mem", "'4MB'".into()), ("maintenance_work_mem", "'1GB'".into())])
}

/// A table loaded once per server version and row count and cached as a stopped cluster's
/// data directory: seed 000's table3 ([`TABLE3`]), seed 002's tbloom (`readstream::TBLOOM`).
pub struct Dataset {
    /// The table, in messages (`loading table3 with N rows`).
    pub table: &'static str,
    /// The cache's directory: `<data>/<cache_prefix>-<version>-<rows>/`.
    pub cache_prefix: &'static str,
    /// The objects the load needs (the extensions' SQL), run first.
    pub setup_sql: fn() -> String,
    /// The load script (psql, `:rows` set).
    pub load_sql: &'static str,
    /// The check of a loaded or copied cluster (started): its row count and index.
    pub validate: fn(&Cluster, u64) -> Result<()>,
    /// What `validate` checks, in the data line (`the hl_btree index`).
    pub checked: &'static str,
    /// The setup, in its error (`the hl_btree objects`).
    pub objects: &'static str,
    /// The load script's file, in its error (`sql/seed000-table3.sql`).
    pub script: &'static str,
}

/// Seed 000's table3 with its hl_btree index.
pub const TABLE3: Dataset = Dataset {
    table: "table3",
    cache_prefix: "pg",
    setup_sql: extension_sql,
    load_sql: SEED000_TABLE3,
    validate,
    checked: "the hl_btree index",
    objects: "the hl_btree objects",
    script: "sql/seed000-table3.sql",
};

/// Seed 000's table in a stopped throwaway cluster ([`loaded_cluster_with`] of [`TABLE3`]).
pub fn loaded_cluster(inst: &Install, so: &Path, rows: u64) -> Result<(Cluster, String)> {
    loaded_cluster_with(&TABLE3, inst, so, rows)
}

/// `d`'s table in a stopped throwaway cluster: a copy of the cache at
/// `<data>/<prefix>-<version>-<rows>/` when its manifest matches (server version, rows, the hash
/// of the load and setup SQL) and the started copy passes `d.validate`; otherwise loaded fresh
/// and cached (written to a temporary name, renamed when complete).
pub fn loaded_cluster_with(d: &Dataset, inst: &Install, so: &Path, rows: u64) -> Result<(Cluster, String)> {
    let cache = data_dir().join(format!("{}-{}-{rows}", d.cache_prefix, inst.short_version));
    let setup = (d.setup_sql)();
    let manifest = serde_json::json!({
        "server_version": inst.version, "rows": rows,
        "schema": format!("{:016x}", fnv(&[d.load_sql, &setup])),
    });
    let mpath = cache.join("hotloops-cache.json");
    if std::fs::read_to_string(&mpath).ok().and_then(|s| serde_json::from_str::<Value>(&s).ok()).as_ref() == Some(&manifest) {
        let mut c = Cluster::from_copy(inst, so, &cache.join("data"))?;
        c.start(&state_settings("warm")?)?;
        match (d.validate)(&c, rows) {
            Ok(()) => {
                c.stop();
                return Ok((c, format!("copied from the cache {} (manifest matched; {rows} rows and {} checked)", cache.display(), d.checked)));
            }
            Err(e) => crate::say!("cache {} is stale ({e:#}): reloading", cache.display()),
        }
    }
    let t = std::time::Instant::now();
    let mut c = Cluster::init(inst, so)?;
    c.start(&state_settings("warm")?)?;
    c.sql(&setup, &[]).with_context(|| format!("creating {}", d.objects))?;
    crate::say!("loading {} with {rows} rows", d.table);
    c.sql(d.load_sql, &[("rows", rows.to_string())]).with_context(|| format!("loading {}", d.script))?;
    (d.validate)(&c, rows)?;
    let load_s = t.elapsed().as_secs_f64();
    let data = c.stop_for_copy().to_path_buf();
    crate::say!("caching the loaded cluster in {}", cache.display());
    // The cache only saves the next run a load: a failure to fill it (a disk full) is said,
    // and this run goes on with the cluster it loaded.
    match fill_cache(&data, &cache, &mpath, &manifest) {
        Ok(()) => Ok((c, format!("loaded fresh in {load_s:.1} s and cached at {} (keyed by server version and rows; a manifest plus a row-count and index check on reuse)", cache.display()))),
        Err(e) => {
            crate::host::cleanup::wait_if_interrupted();
            crate::say!("warning: could not cache the loaded cluster in {} ({e:#}): going on without the cache; the next run loads again", cache.display());
            Ok((c, format!("loaded fresh in {load_s:.1} s (not cached: {e:#})")))
        }
    }
}

/// Copy the stopped cluster's `data` into the cache directory `cache` with its manifest: into a
/// registered scratch directory first, renamed into place when complete (an interrupt mid-copy
/// removes the partial copy).
fn fill_cache(data: &Path, cache: &Path, mpath: &Path, manifest: &Value) -> Result<()> {
    let tmp = super::proc::Scratch::new(&data_dir(), ".pg-cache-").with_context(|| format!("creating a scratch directory in {}", data_dir().display()))?;
    super::cluster::copy_tree(data, &tmp.path().join("data"))?;
    let m = tmp.path().join("hotloops-cache.json");
    std::fs::write(&m, serde_json::to_string_pretty(manifest)?).with_context(|| format!("writing {}", m.display()))?;
    // Replace a stale cache, but not one that a concurrent run has just written for the same key.
    let current = std::fs::read_to_string(mpath).ok().and_then(|s| serde_json::from_str::<Value>(&s).ok());
    if current.as_ref() != Some(manifest) {
        let _ = std::fs::remove_dir_all(cache);
    }
    tmp.publish(cache);
    Ok(())
}

fn validate(c: &Cluster, rows: u64) -> Result<()> {
    let out = c.sql(
        "SELECT count(*) FROM table3; SELECT am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'idx_table3_col0';",
        &[],
    )?;
    let l: Vec<&str> = out.lines().collect();
    if l.len() != 2 || l[0].trim() != rows.to_string() || l[1].trim() != "hl_btree" {
        bail!("table3 check failed: got {:?}, expected {rows} rows and an hl_btree index", l);
    }
    Ok(())
}

/// One measured query: the BIS node and the extension's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// BIS node total time, ms.
    pub bis_ms: f64,
    /// amgetbitmap thread CPU time, ns.
    pub cpu_ns: f64,
    /// TIDs.
    pub ntids: i64,
    /// Shared buffers hit.
    pub hit: f64,
    /// Shared buffers read.
    pub read: f64,
    /// Time reading shared buffers, ms (`track_io_timing`; 0 when off).
    pub io_read_ms: f64,
}

fn find_bis(plan: &Value) -> Option<&Value> {
    if plan.get("Node Type").and_then(Value::as_str) == Some("Bitmap Index Scan") {
        return Some(plan);
    }
    plan.get("Plans")?.as_array()?.iter().find_map(find_bis)
}

/// The Bitmap Index Scan node of `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`: time (ms), rows,
/// shared hit and read blocks, and read time (ms; `Shared I/O Read Time` from 17, `I/O Read
/// Time` before; 0 without track_io_timing). An error if the plan has no Bitmap Index Scan.
pub fn parse_bis_io(json: &str) -> Result<(f64, i64, f64, f64, f64)> {
    let v: Value = serde_json::from_str(json.trim()).with_context(|| format!("EXPLAIN output is not JSON: {}", json.trim()))?;
    let plan = v.get(0).and_then(|p| p.get("Plan")).context("EXPLAIN JSON has no Plan")?;
    let bis = find_bis(plan).with_context(|| format!("the plan has no Bitmap Index Scan (the planner chose another plan): {plan}"))?;
    let f = |k: &str| bis.get(k).and_then(Value::as_f64).with_context(|| format!("Bitmap Index Scan has no `{k}`"));
    let io = bis.get("Shared I/O Read Time").or_else(|| bis.get("I/O Read Time")).and_then(Value::as_f64).unwrap_or(0.0);
    Ok((f("Actual Total Time")?, f("Actual Rows")? as i64, f("Shared Hit Blocks")?, f("Shared Read Blocks")?, io))
}

/// [`parse_bis_io`] without the read time.
pub fn parse_bis(json: &str) -> Result<(f64, i64, f64, f64)> {
    parse_bis_io(json).map(|(t, r, h, d, _)| (t, r, h, d))
}

/// Run `query` once under tid-batch's `variant`: one [`Sample`].
pub fn measure_once(s: &mut Session, variant: &str, query: &str) -> Result<Sample> {
    measure_once_in(s, &TID_BATCH, variant, query)
}

/// Run `query` once under `variant` of `t` in `s`: one [`Sample`]; checks that the extension
/// ran `variant` and that its TID count is the node's.
pub fn measure_once_in(s: &mut Session, t: &Target, variant: &str, query: &str) -> Result<Sample> {
    measure_once_after(s, t, variant, query, None)
}

/// [`measure_once_in`] after running `before` (its output discarded) in the same session: a
/// state a run must start from (seed 002: the index evicted from shared buffers).
pub fn measure_once_after(s: &mut Session, t: &Target, variant: &str, query: &str, before: Option<&str>) -> Result<Sample> {
    if let Some(b) = before {
        s.query(b)?;
    }
    let p = t.prefix;
    let out = s.query(&format!(
        "SET {} = '{variant}';\nEXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {query};\nSELECT {p}_last_ns() || ' ' || {p}_last_ntids() || ' ' || {p}_last_variant();",
        t.guc
    ))?;
    let out = out.trim_end();
    let (json, last) = out.rsplit_once('\n').context("no output from EXPLAIN")?;
    let f: Vec<&str> = last.split_whitespace().collect();
    if f.len() != 3 || f[2] != variant {
        bail!("{p} did not run {variant} (last call: {last:?}): is the index an {p} index?");
    }
    let (bis_ms, rows, hit, read, io_read_ms) = parse_bis_io(json)?;
    let ntids: i64 = f[1].parse()?;
    if ntids != rows {
        bail!("{variant}: amgetbitmap returned {ntids} TIDs but the node reports {rows}");
    }
    Ok(Sample { bis_ms, cpu_ns: f[0].parse()?, ntids, hit, read, io_read_ms })
}

/// `sum(col1)` and `count(*)` of `query`'s WHERE clause under each tid-batch variant.
pub fn check_results(s: &mut Session, query: &str) -> Result<(String, i64)> {
    check_results_in(s, &TID_BATCH, query)
}

/// `sum(COL)` and `count(*)` of `query` (`SELECT sum(COL) ...`) under each variant of `t`; an
/// error if any differs from the baseline's.
pub fn check_results_in(s: &mut Session, t: &Target, query: &str) -> Result<(String, i64)> {
    let Some(rest) = query.strip_prefix("SELECT sum(") else { bail!("check_results wants `SELECT sum(COL) ...`, got {query}") };
    let Some((col, tail)) = rest.split_once(')') else { bail!("check_results: no `)` in {query}") };
    let counted = format!("SELECT coalesce(sum({col})::text, 'null') || ' ' || count(*){tail}");
    let mut base: Option<String> = None;
    for v in t.variants {
        let out = s.query(&format!("SET {} = '{v}';\n{counted};", t.guc))?;
        let got = out.trim().to_string();
        match &base {
            None => base = Some(got),
            Some(b) if *b != got => bail!("{v} returned `{got}`, the baseline {} `{b}`: the variants disagree on {query}", t.variants[0]),
            _ => {}
        }
    }
    let b = base.unwrap();
    let (sum, n) = b.rsplit_once(' ').context("bad sum/count output")?;
    Ok((sum.to_string(), n.parse()?))
}

/// Percentile-bootstrap median interval and verdict for per-round ratios.
pub fn pair_stats(a: &str, b: &str, metric: &str, ratios: &[f64], floor: Option<f64>) -> PairResult {
    let m = median(ratios);
    let (lo, hi) = bootstrap_median_ci(ratios, 2000, 0.95, 0x5eed_0012);
    let verdict = match floor {
        None => "A/A floor".to_string(),
        Some(fl) => {
            if (lo <= 1.0 && 1.0 <= hi) || (m - 1.0).abs() <= fl {
                "not resolved".into()
            } else if m < 1.0 {
                "faster".into()
            } else {
                "slower".into()
            }
        }
    };
    PairResult { a: a.into(), b: b.into(), metric: metric.into(), median_ratio: m, ci_low: lo, ci_high: hi, verdict }
}

/// The A/A floor of a pair: the larger of its median's distance from 1 and its interval's half-width.
pub fn floor_of(aa: &PairResult) -> f64 {
    (aa.median_ratio - 1.0).abs().max((aa.ci_high - aa.ci_low) / 2.0)
}

/// Measure one tid-batch case in a started cluster.
pub fn measure_case(c: &Cluster, case: &str, state: &str, rows: u64, rounds: usize) -> Result<CaseResult> {
    let query = case_query(case, rows)?;
    let reps = if case == "btree-few" { 20 } else { 1 };
    measure_query(c, &TID_BATCH, SEED_SET, case, state, &query, reps, rounds)
}

/// Measure `query` (a Bitmap Index Scan) under every variant of `t` in a started cluster:
/// results checked equal, one discarded round, then `rounds` rounds of every variant and the
/// baseline's A/A copy in an order rotated by one each round, `reps` queries a slot.
#[allow(clippy::too_many_arguments)]
pub fn measure_query(c: &Cluster, t: &Target, set: &str, case: &str, state: &str, query: &str, reps: usize, rounds: usize) -> Result<CaseResult> {
    measure_query_after(c, t, set, case, state, query, reps, rounds, None)
}

/// [`measure_query`] with `before` run ahead of every query (untimed; [`measure_once_after`]).
#[allow(clippy::too_many_arguments)]
pub fn measure_query_after(c: &Cluster, t: &Target, set: &str, case: &str, state: &str, query: &str, reps: usize, rounds: usize, before: Option<&str>) -> Result<CaseResult> {
    let query = query.to_string();
    let mut s = c.session()?;
    s.query(set)?;
    let result = check_results_in(&mut s, t, &query)?;
    // Slots: every variant plus the baseline's A/A copy, rotated by one each round.
    let mut slots: Vec<String> = t.variants.iter().map(|v| v.to_string()).collect();
    slots.insert(1, format!("{}#2", t.variants[0]));
    let real = |slot: &str| slot.trim_end_matches("#2").to_string();
    // One discarded round: caches, the backend's catalog caches, the buffers of this state.
    for slot in &slots {
        measure_once_after(&mut s, t, &real(slot), &query, before)?;
    }
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); slots.len()];
    for r in 0..rounds {
        for k in 0..slots.len() {
            let i = (k + r) % slots.len();
            let mut acc = Sample::default();
            for _ in 0..reps {
                let x = measure_once_after(&mut s, t, &real(&slots[i]), &query, before)?;
                acc.bis_ms += x.bis_ms;
                acc.cpu_ns += x.cpu_ns;
                acc.io_read_ms += x.io_read_ms / reps as f64;
                acc.hit += x.hit / reps as f64;
                acc.read += x.read / reps as f64;
                acc.ntids = x.ntids;
            }
            samples[i].push(acc);
        }
        crate::host::progress(format_args!("{case} {state}: round {}/{rounds}", r + 1), r + 1 == rounds);
    }
    let idx = |id: &str| slots.iter().position(|s| s == id).unwrap();
    let variants = slots
        .iter()
        .zip(&samples)
        .map(|(id, xs)| {
            let bis: Vec<f64> = xs.iter().map(|x| x.bis_ms / reps as f64).collect();
            let ntids = xs[0].ntids;
            VariantResult {
                id: id.clone(),
                median_bis_ms: median(&bis),
                min_bis_ms: bis.iter().copied().fold(f64::INFINITY, f64::min),
                median_cpu_ms: median(&xs.iter().map(|x| x.cpu_ns / reps as f64 / 1e6).collect::<Vec<_>>()),
                bis_ns_per_tid: if ntids > 0 { median(&bis) * 1e6 / ntids as f64 } else { 0.0 },
                ntids,
                shared_hit: median(&xs.iter().map(|x| x.hit).collect::<Vec<_>>()),
                shared_read: median(&xs.iter().map(|x| x.read).collect::<Vec<_>>()),
                io_read_ms: median(&xs.iter().map(|x| x.io_read_ms).collect::<Vec<_>>()),
            }
        })
        .collect();
    let mut pairs = Vec::new();
    let mut floors = (0.0, 0.0);
    for metric in ["bis", "cpu"] {
        let get = |x: &Sample| if metric == "bis" { x.bis_ms } else { x.cpu_ns };
        let mut floor = None;
        for &(a, b) in t.pairs {
            let (ia, ib) = (idx(a), idx(b));
            let ratios: Vec<f64> = (0..rounds).map(|r| get(&samples[ib][r]) / get(&samples[ia][r]).max(1e-12)).collect();
            let p = pair_stats(a, b, metric, &ratios, floor);
            if floor.is_none() {
                let f = floor_of(&p);
                floor = Some(f);
                if metric == "bis" { floors.0 = f } else { floors.1 = f }
            }
            pairs.push(p);
        }
    }
    Ok(CaseResult { case: case.into(), cache_state: state.into(), query, reps, rounds, settings: c.settings.clone(), result, variants, pairs, aa_floor: floors })
}

/// The whole measurement: load (or copy from the cache), then each cache state and case.
pub fn run(inst: &Install, so: &Path, cfg: &Config) -> Result<PgReport> {
    let (mut c, data) = loaded_cluster(inst, so, cfg.rows)?;
    crate::say!("data: {data}");
    let mut results = Vec::new();
    for state in &cfg.cache_states {
        c.start(&state_settings(state)?)?;
        crate::say!("cache state {state}: {}", c.settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
        for case in &cfg.cases {
            results.push(measure_case(&c, case, state, cfg.rows, cfg.rounds)?);
        }
        c.stop();
    }
    Ok(PgReport { provenance: provenance(inst, so, cfg.rows, cfg.rounds, data), results })
}

/// Where a measurement on `inst` with the extensions of `so` came from (now, this command).
pub fn provenance(inst: &Install, so: &Path, rows: u64, rounds: usize, data: String) -> Provenance {
    let kernel = crate::host::provenance::kernel();
    Provenance {
        server_version: inst.version.clone(),
        pg_config: inst.pg_config.display().to_string(),
        server_source: inst.source.clone(),
        server_configure: inst.configure.clone(),
        server_cflags: inst.cflags.clone(),
        extension_cflags: super::extension_compile_line(so),
        host_cpu: cpu_name(),
        kernel,
        rows,
        rounds,
        data,
        unix_time: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        command: std::env::args().collect::<Vec<_>>().join(" "),
    }
}

/// The major.minor of a report's server (`15.20`).
pub fn short_version(r: &PgReport) -> String {
    r.provenance.server_version.split_whitespace().find(|w| w.starts_with(|c: char| c.is_ascii_digit())).unwrap_or("?").to_string()
}

/// The pairs of every case side by side, one column per server: ratio, interval, verdict.
pub fn side_by_side(runs: &PgRuns) -> String {
    let cols: Vec<SideColumn> = runs
        .servers
        .iter()
        .map(|r| SideColumn { header: format!("PostgreSQL {}", short_version(r)), rows: r.results.iter().map(|c| (vec![c.case.clone(), c.cache_state.clone()], c)).collect() })
        .collect();
    // CPU time only: the node time's pairs are in each server's own tables.
    side_by_side_columns(&["case", "cache"], &cols, &["cpu"])
}

/// One column of [`side_by_side_columns`]: its header and its measured cases, each under the
/// row key it is matched by across columns.
pub struct SideColumn<'a> {
    /// `PostgreSQL 18.6`.
    pub header: String,
    /// (row key cells, the case).
    pub rows: Vec<(Vec<String>, &'a CaseResult)>,
}

/// Every pair of the `metrics` under each row key (the keys in the order they first appear),
/// one column each: ratio, interval, verdict (the A/A pair: its floor); `-` where a column has
/// no such case or pair.
pub fn side_by_side_columns(key_headers: &[&str], cols: &[SideColumn], metrics: &[&str]) -> String {
    let mut s = String::from("|");
    let mut sep = String::from("|");
    for h in key_headers.iter().chain(&["A -> B", "metric"]) {
        s += &format!(" {h} |");
        sep += "---|";
    }
    for c in cols {
        s += &format!(" {} |", c.header);
        sep += "---|";
    }
    s += &format!("\n{sep}\n");
    let mut keys: Vec<(&Vec<String>, &CaseResult)> = Vec::new();
    for c in cols {
        for (k, r) in &c.rows {
            if !keys.iter().any(|(kk, _)| *kk == k) {
                keys.push((k, r));
            }
        }
    }
    let short = |id: &str| id.rsplit('/').next().unwrap_or(id).to_string();
    for (key, c) in keys {
        for q in c.pairs.iter().filter(|q| metrics.contains(&q.metric.as_str())) {
            s += "|";
            for k in key {
                s += &format!(" {k} |");
            }
            s += &format!(" {} -> {} | {} |", short(&q.a), short(&q.b), q.metric);
            for col in cols {
                let cell = col
                    .rows
                    .iter()
                    .find(|(k, _)| k == key)
                    .and_then(|(_, x)| x.pairs.iter().find(|p| p.a == q.a && p.b == q.b && p.metric == q.metric).map(|p| (p, x)))
                    .map(|(p, x)| {
                        let floor = if p.metric == "bis" { x.aa_floor.0 } else { x.aa_floor.1 };
                        let v = if p.verdict == "A/A floor" { format!("floor ±{:.1}%", floor * 100.0) } else { p.verdict.clone() };
                        format!(" {:.3} [{:.3}, {:.3}] {v} |", p.median_ratio, p.ci_low, p.ci_high)
                    })
                    .unwrap_or_else(|| " - |".into());
                s += &cell;
            }
            s += "\n";
        }
    }
    s
}

/// The Markdown report of a run (the same data as the JSON): the servers side by side, then
/// each server's figures.
pub fn markdown_runs(runs: &PgRuns) -> String {
    let mut s = String::from("# hotloops pg: tid-batch in the real server\n\n");
    if runs.servers.len() > 1 {
        s += "## Every server side by side\n\nB/A per round (< 1: B is faster), median [95% interval]; `bis` is the Bitmap Index Scan node time, `cpu` amgetbitmap's thread CPU time; the A/A row is each server's floor.\n\n";
        s += &side_by_side(runs);
        s += "\n";
    }
    for r in &runs.servers {
        s += &markdown(r).replacen("# hotloops pg: tid-batch in the real server", &format!("## PostgreSQL {}", short_version(r)), 1).replace("\n## ", "\n### ");
    }
    s
}

/// The Markdown report of one server (the same data as the JSON).
pub fn markdown(r: &PgReport) -> String {
    let mut s = format!("# hotloops pg: tid-batch in the real server\n\n{}", provenance_markdown(&r.provenance));
    s += "Ratios are B/A per round (< 1: B is faster), median with a percentile-bootstrap 95% interval over rounds; \
          `bis` is the Bitmap Index Scan node time, `cpu` hl_btree's thread CPU time of amgetbitmap. \
          A pair is resolved only if its interval excludes 1 and its effect exceeds the A/A floor of the same metric.\n\n";
    for c in &r.results {
        s += &format!("## {} / {}\n\n`{}` x{} a round; sum(col1) = {}, {} rows for every variant.\n\nSettings: {}\n\n",
            c.case, c.cache_state, c.query, c.reps, c.result.0, c.result.1,
            c.settings.iter().map(|(k, v)| format!("`{k}={v}`")).collect::<Vec<_>>().join(" "));
        s += "| variant | BIS ms (median) | BIS ms (min) | ns/TID | amgetbitmap CPU ms | TIDs | shared hit | shared read |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
        for v in &c.variants {
            s += &format!("| {} | {:.4} | {:.4} | {:.2} | {:.4} | {} | {:.0} | {:.0} |\n", v.id, v.median_bis_ms, v.min_bis_ms, v.bis_ns_per_tid, v.median_cpu_ms, v.ntids, v.shared_hit, v.shared_read);
        }
        s += &pairs_markdown(c);
        s += "\n";
    }
    s
}

/// The provenance lines of a server's Markdown report, ending in a blank line.
pub fn provenance_markdown(p: &Provenance) -> String {
    format!(
        "- server: {} ({})\n- pg_config: {}\n- server configure: `{}`\n- server CFLAGS: `{}`\n- extension compiled with: `{}`\n- host: {}; {}\n- rows: {}, rounds: {}\n- data: {}\n- command: `{}`\n\n",
        p.server_version, p.server_source, p.pg_config, p.server_configure, p.server_cflags, p.extension_cflags, p.host_cpu, p.kernel, p.rows, p.rounds, p.data, p.command
    )
}

/// A case's A/A floor line and its pairs' table (starting with a blank line).
pub fn pairs_markdown(c: &CaseResult) -> String {
    let mut s = format!("\nA/A floor: bis ±{:.2}%, cpu ±{:.2}%\n\n| A | B | metric | B/A | 95% interval | verdict |\n|---|---|---|---:|---|---|\n", c.aa_floor.0 * 100.0, c.aa_floor.1 * 100.0);
    for q in &c.pairs {
        s += &format!("| {} | {} | {} | {:.3} | [{:.3}, {:.3}] | {} |\n", q.a, q.b, q.metric, q.median_ratio, q.ci_low, q.ci_high, q.verdict);
    }
    s
}

/// Write `<stem>.json` and `<stem>.md` into the claimed `out` with its manifest, both or
/// neither (`OutDir::replace`: a failure leaves the previous pair as it was).
pub fn write_pair(out: &mut crate::host::outdir::OutDir, stem: &str, json: String, md: String) -> Result<(PathBuf, PathBuf)> {
    let (j, m) = (out.dir.join(format!("{stem}.json")), out.dir.join(format!("{stem}.md")));
    out.replace(&[(j.clone(), json.into_bytes()), (m.clone(), md.into_bytes())])?;
    Ok((j, m))
}

/// Write pg.json and pg.md into `out`.
pub fn write(r: &PgRuns, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    write_pair(out, "pg", serde_json::to_string_pretty(r)?, markdown_runs(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = r#"[{"Plan": {"Node Type": "Aggregate", "Plans": [{"Node Type": "Bitmap Heap Scan",
        "Plans": [{"Node Type": "Bitmap Index Scan", "Actual Total Time": 12.5, "Actual Rows": 1000,
        "Shared Hit Blocks": 3, "Shared Read Blocks": 27324}]}]}, "Execution Time": 40.0}]"#;

    #[test]
    fn parse_bis_finds_the_nested_node() {
        assert_eq!(parse_bis(PLAN).unwrap(), (12.5, 1000, 3.0, 27324.0));
    }

    #[test]
    fn parse_bis_rejects_a_plan_without_bitmap_index_scan() {
        let seq = r#"[{"Plan": {"Node Type": "Seq Scan", "Actual Total Time": 1.0}}]"#;
        let e = parse_bis(seq).unwrap_err().to_string();
        assert!(e.contains("no Bitmap Index Scan"), "{e}");
        assert!(parse_bis("ERROR: x").is_err());
    }

    #[test]
    fn verdicts_follow_interval_and_floor() {
        let aa = pair_stats("a", "a#2", "bis", &[1.0, 1.01, 0.99, 1.0, 1.02, 0.98], None);
        assert_eq!(aa.verdict, "A/A floor");
        let fl = floor_of(&aa);
        assert!(fl > 0.0 && fl < 0.05, "{fl}");
        let fast = pair_stats("a", "b", "bis", &[0.66, 0.65, 0.67, 0.66, 0.64, 0.68], Some(fl));
        assert_eq!(fast.verdict, "faster");
        let within = pair_stats("a", "b", "bis", &[0.995, 0.996, 0.994, 0.995, 0.996, 0.995], Some(0.02));
        assert_eq!(within.verdict, "not resolved", "an effect inside the A/A floor is noise");
        let spans = pair_stats("a", "b", "bis", &[0.9, 1.1, 0.95, 1.05, 1.0, 0.92], Some(0.0));
        assert_eq!(spans.verdict, "not resolved");
    }

    #[test]
    fn few_keys_are_ten_distinct_keys_inside_the_table() {
        for rows in [100_000u64, 1_000_000, 10_000_000] {
            let k = few_keys(rows);
            assert_eq!(k.len(), 10);
            assert!(k.windows(2).all(|w| w[0] < w[1]) && *k.last().unwrap() < rows);
        }
        assert!(case_query("btree-few", 100).unwrap().contains("'{5,15,25,35,45,55,65,75,85,95}'::int8[]"));
    }
}

/// One pgbench run of `script` against cluster `c` of `inst` (`-n`, `clients` clients and
/// threads, `seconds` long, `PGOPTIONS` when given): TPS without the initial connection time.
/// A tracked child like every other server child, so an interrupt kills it with its group;
/// `what` names the run in an error.
#[allow(clippy::too_many_arguments)]
pub fn pgbench_tps(inst: &Install, c: &Cluster, script: &Path, pgoptions: Option<&str>, protocol: &str, clients: u32, seconds: u64, what: &str) -> Result<f64> {
    let n = clients.to_string();
    let mut cmd = std::process::Command::new(inst.bin("pgbench"));
    if let Some(o) = pgoptions {
        cmd.env("PGOPTIONS", o);
    }
    cmd.arg("-h").arg(&c.socket_dir).args(["-U", "postgres", "-n", "-M", protocol, "-c", &n, "-j", &n, "-T", &seconds.to_string(), "-f"]).arg(script).arg("postgres");
    let out = super::proc::output(&mut cmd).context("running pgbench")?;
    crate::host::cleanup::wait_if_interrupted();
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!("pgbench ({what}) failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    text.lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l[6..].split_whitespace().next())
        .and_then(|x| x.parse().ok())
        .with_context(|| format!("no tps line in pgbench's output: {text}"))
}
