//! Seed 001 in the server it is about: pgbench's range scans on `pgbench_accounts`, whose
//! primary key is an hl_btree index (the server's own B-tree) so that one backend can run the
//! scan's leaves under the server's own `btgettuple` (`dir-by-value/server`), or with the
//! project's `_bt_readpage`/`_bt_checkkeys` kernel reading the scan direction through
//! `scan->opaque` (`dir-by-value/c-opaque`) or by value from its page state
//! (`dir-by-value/c-by-value`): csrc/nbtsearch_checkkeys.c, the source of the crate's rows,
//! compiled into hl_btree (17 and later; the server reads the first leaf, the kernel the rest).
//!
//! Per query (`aid BETWEEN :aid AND :aid + 2000` and `+ 15000`) and scan type (a plain Index
//! Scan selecting `abalance`, an Index Only Scan counting): pgbench TPS of each variant and the
//! baseline's A/A copy in rounds with a rotated order, the node-level time of the scan from
//! `EXPLAIN ANALYZE`, ratios with bootstrap 95% intervals judged against the A/A floor; and the
//! bound: callgrind on a single-user backend gives the instructions a query executes and the
//! share inside `_bt_readpage` and `_bt_checkkeys`, which with the static model's cycles saved
//! per tuple (`hotloops model dir-by-value`) bounds the TPS change the patch can make.

use super::bench::{floor_of, pair_stats};
use super::cluster::Cluster;
use super::single;
use super::{Install, UsageError, cpu_name, extension_sql};
use crate::measure::stats::median;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variants, baseline first (hl_btree.variant accepts them).
pub const VARIANTS: [&str; 3] = ["dir-by-value/server", "dir-by-value/c-opaque", "dir-by-value/c-by-value"];
/// The pairs: (A, B), B/A per round; the A/A pair first, then the seed's comparison.
pub const PAIRS: [(&str, &str); 4] = [
    ("dir-by-value/server", "dir-by-value/server#2"),
    ("dir-by-value/c-opaque", "dir-by-value/c-by-value"),
    ("dir-by-value/server", "dir-by-value/c-opaque"),
    ("dir-by-value/server", "dir-by-value/c-by-value"),
];
/// The seed's range lengths.
pub const RANGES: [u32; 2] = [2000, 15000];
/// Scan types: `index` (SELECT abalance: a plain Index Scan), `index-only` (count(*)).
pub const SCANS: [&str; 2] = ["index", "index-only"];
/// Settings every session and pgbench run gets: the scan is an index scan, never a bitmap or
/// sequential scan.
pub const SCAN_SETTINGS: [(&str, &str); 2] = [("enable_bitmapscan", "off"), ("enable_seqscan", "off")];

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// pgbench scale (100,000 accounts each).
    pub scale: u32,
    /// Seconds a pgbench run.
    pub seconds: u64,
    /// Rounds.
    pub rounds: usize,
    /// pgbench -M.
    pub protocol: String,
    /// Count instructions (callgrind) for the bound.
    pub instructions: bool,
}

impl Config {
    /// Quick (scale 10, 2 s runs, 6 rounds) or full (scale 100, 5 s, 10 rounds).
    pub fn defaults(quick: bool) -> Self {
        Config { scale: if quick { 10 } else { 100 }, seconds: if quick { 2 } else { 5 }, rounds: if quick { 6 } else { 10 }, protocol: "prepared".into(), instructions: true }
    }
}

/// The SQL of a range query.
pub fn query(scan: &str, aid: &str, range: u32) -> String {
    let what = if scan == "index" { "abalance" } else { "count(*)" };
    format!("SELECT {what} FROM pgbench_accounts WHERE aid BETWEEN {aid} AND {aid} + {range}")
}

/// The pgbench script of a range query.
pub fn script(scan: &str, range: u32, scale: u32) -> String {
    format!("\\set aid random(1, {} - {range})\n{};\n", 100_000u64 * scale as u64, query(scan, ":aid", range))
}

/// One variant's figures in one query.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantRuns {
    /// Variant id (`dir-by-value/server#2`: the baseline's A/A copy).
    pub id: String,
    /// TPS of each round's run.
    pub tps: Vec<f64>,
    /// Median TPS.
    pub median_tps: f64,
    /// Median node time of the index scan a query, ms (EXPLAIN ANALYZE, the middle aid).
    pub node_ms: f64,
}

/// One ratio: median of paired rounds with its interval and verdict.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ratio {
    /// Denominator.
    pub a: String,
    /// Numerator.
    pub b: String,
    /// `tps` (B/A: > 1 B is faster) or `node` (time, B/A: < 1 B is faster).
    pub metric: String,
    /// Median of the per-round ratios.
    pub ratio: f64,
    /// 95% interval.
    pub ci: (f64, f64),
    /// `faster`, `slower` (B against A), `not resolved` or `A/A floor`.
    pub verdict: String,
}

/// Instructions of one query under the server's own code (callgrind, single-user backend).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Instructions {
    /// Variant.
    pub variant: String,
    /// Instructions a query (the statement's exec_simple_query, the boundary's own cost taken off).
    pub per_query: f64,
    /// Index tuples a query returns.
    pub tuples: f64,
    /// Share of the query's instructions inside `_bt_readpage` (inclusive), or the kernel.
    pub readpage_share: f64,
    /// Share inside `_bt_checkkeys` (inclusive), or the kernel's checkkeys.
    pub checkkeys_share: f64,
    /// `_bt_checkkeys` calls a tuple.
    pub checkkeys_calls_per_tuple: f64,
}

/// The static model's bound for one core.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Bound {
    /// llvm-mca CPU model.
    pub cpu: String,
    /// Predicted cycles a tuple of c-opaque's per-tuple path.
    pub opaque_cycles: f64,
    /// Of c-by-value's.
    pub by_value_cycles: f64,
    /// The largest TPS change the patch can make: the path's share of the query times the
    /// path's predicted saving, (opaque - by_value) / opaque (same IPC assumed elsewhere).
    pub max_tps_change: f64,
}

/// One query and scan type.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct QueryResult {
    /// 2000 or 15000.
    pub range: u32,
    /// `index` or `index-only`.
    pub scan: String,
    /// The plan's scan node (`Index Scan`, `Index Only Scan`).
    pub node: String,
    /// Rows every variant returned for the checked aids, equal across variants.
    pub checked: Vec<(i64, String)>,
    /// Leaves the kernel read in one query (c-opaque), to show it ran.
    pub kernel_pages: i64,
    /// Per variant.
    pub variants: Vec<VariantRuns>,
    /// Per pair and metric.
    pub ratios: Vec<Ratio>,
    /// The A/A floors of TPS and node time.
    pub aa_floor: (f64, f64),
    /// The server's instructions, when counted.
    pub instructions: Vec<Instructions>,
    /// The bound per modelled core, when the model ran.
    pub bounds: Vec<Bound>,
}

/// One server's run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ServerResult {
    /// `postgres --version`.
    pub server_version: String,
    /// Source and build.
    pub server_source: String,
    /// `pg_config --configure`.
    pub server_configure: String,
    /// The extension's compile command (the kernel's flags).
    pub extension_cflags: String,
    /// Per query.
    pub queries: Vec<QueryResult>,
}

/// The whole run (pg-dir-by-value.json).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DirByValueReport {
    /// Host CPU.
    pub host_cpu: String,
    /// pgbench scale, seconds, rounds, protocol.
    pub scale: u32,
    /// Seconds a run.
    pub seconds: u64,
    /// Rounds.
    pub rounds: usize,
    /// pgbench -M.
    pub protocol: String,
    /// Per server.
    pub servers: Vec<ServerResult>,
    /// Where the bound's model came from, or why there is none.
    pub model: String,
    /// The command line.
    pub command: String,
}

fn pgoptions(variant: &str) -> String {
    let mut o: Vec<String> = SCAN_SETTINGS.iter().map(|(k, v)| format!("-c {k}={v}")).collect();
    o.push(format!("-c hl_btree.variant={variant}"));
    o.join(" ")
}

fn set_sql(variant: &str) -> String {
    let mut s: String = SCAN_SETTINGS.iter().map(|(k, v)| format!("SET {k} = {v};\n")).collect();
    s += &format!("SET hl_btree.variant = '{variant}';\n");
    s
}

/// pgbench_accounts at `scale` with its primary key an hl_btree index, vacuumed (index-only
/// scans need the visibility map), in a stopped cluster.
pub fn loaded(inst: &Install, so: &Path, scale: u32) -> Result<Cluster> {
    let mut c = Cluster::init(inst, so)?;
    c.start(&settings())?;
    c.sql(&extension_sql(), &[]).context("creating the hl_btree objects")?;
    crate::say!("dir-by-value {}: loading pgbench_accounts at scale {scale}", inst.short_version);
    // d: drop, t: tables, g: rows generated client-side; no primary keys (p): ours follows.
    let out = super::proc::output(
        Command::new(inst.bin("pgbench"))
            .arg("-h")
            .arg(&c.socket_dir)
            .args(["-U", "postgres", "-i", "-q", "-s", &scale.to_string(), "-I", "dtg", "postgres"]),
    )
    .context("running pgbench -i")?;
    crate::host::cleanup::wait_if_interrupted();
    if !out.status.success() {
        bail!("pgbench -i failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    c.sql(
        "CREATE UNIQUE INDEX pgbench_accounts_pkey ON pgbench_accounts USING hl_btree (aid);\nVACUUM (ANALYZE) pgbench_accounts;\nCHECKPOINT;\n",
        &[],
    )
    .context("building the hl_btree primary key")?;
    c.stop();
    Ok(c)
}

fn settings() -> Vec<(&'static str, String)> {
    vec![("shared_buffers", "2GB".into()), ("max_connections", "20".into())]
}

/// The scan node types of a query's plan (`Index Scan`), or an error when it is not an index scan
/// of pgbench_accounts_pkey.
fn plan_node(c: &Cluster, variant: &str, q: &str) -> Result<String> {
    let out = c.sql(&format!("{}EXPLAIN (FORMAT JSON) {q};", set_sql(variant)), &[])?;
    let v: serde_json::Value = serde_json::from_str(out.trim()).context("EXPLAIN's JSON")?;
    fn find(p: &serde_json::Value) -> Option<String> {
        let t = p.get("Node Type")?.as_str()?;
        if t == "Index Scan" || t == "Index Only Scan" {
            return Some(t.to_string());
        }
        p.get("Plans")?.as_array()?.iter().find_map(find)
    }
    find(&v[0]["Plan"]).with_context(|| format!("the plan of `{q}` has no index scan: {v}"))
}

/// One pgbench run of `variant`: TPS without the initial connection time.
fn pgbench(inst: &Install, c: &Cluster, script: &Path, variant: &str, protocol: &str, seconds: u64) -> Result<f64> {
    super::bench::pgbench_tps(inst, c, script, Some(&pgoptions(variant)), protocol, 1, seconds, variant)
}

/// The index scan node's total time (ms) in `EXPLAIN (ANALYZE, FORMAT JSON)` output.
pub fn node_ms(json: &str) -> Result<f64> {
    let v: serde_json::Value = serde_json::from_str(json.trim()).with_context(|| format!("EXPLAIN output is not JSON: {}", json.trim()))?;
    fn find(p: &serde_json::Value) -> Option<f64> {
        let t = p.get("Node Type")?.as_str()?;
        if t == "Index Scan" || t == "Index Only Scan" {
            return p.get("Actual Total Time")?.as_f64();
        }
        p.get("Plans")?.as_array()?.iter().find_map(find)
    }
    find(&v[0]["Plan"]).context("no index scan node with a time in EXPLAIN ANALYZE")
}

/// Results of each variant for a few aids (first, middle, last possible, one past the end), and
/// the leaves the kernel read; an error naming the query when any variant differs.
fn check(c: &Cluster, scan: &str, range: u32, scale: u32) -> Result<(Vec<(i64, String)>, i64)> {
    let n = 100_000i64 * scale as i64;
    let aids = [1, n / 2, n - range as i64, n + 10];
    let mut s = c.session()?;
    let mut checked = Vec::new();
    let mut pages = 0;
    for aid in aids {
        let what = if scan == "index" { "coalesce(sum(abalance + aid), -1) || ' ' || count(*)" } else { "count(*)::text" };
        let inner = if scan == "index" { format!("({}) t", query("index", &aid.to_string(), range).replacen("abalance", "abalance, aid", 1)) } else { String::new() };
        let q = if scan == "index" { format!("SELECT {what} FROM {inner}") } else { query(scan, &aid.to_string(), range) };
        let mut base: Option<String> = None;
        for v in VARIANTS {
            let got = s.query(&format!("{}{q};", set_sql(v)))?.trim().to_string();
            if v == "dir-by-value/c-opaque" && aid == n / 2 {
                // The plain query itself, so the kernel's leaves are those of the measured scan.
                s.query(&format!("{};", query(scan, &aid.to_string(), range)))?;
                pages = s.query("SELECT hl_btree_last_kernel_pages();")?.trim().parse().unwrap_or(0);
            }
            match &base {
                None => base = Some(got),
                Some(b) if *b != got => bail!("{v} returned `{got}`, dir-by-value/server `{b}`, for `{q}`"),
                _ => {}
            }
        }
        checked.push((aid, base.unwrap()));
    }
    Ok((checked, pages))
}

/// Node time of each slot's variant in rounds (the middle aid), ms.
fn node_times(c: &Cluster, scan: &str, range: u32, scale: u32, slots: &[String], rounds: usize) -> Result<Vec<Vec<f64>>> {
    let aid = (50_000u64 * scale as u64).to_string();
    let q = query(scan, &aid, range);
    let mut s = c.session()?;
    let real = |slot: &str| slot.trim_end_matches("#2").to_string();
    let mut out = vec![Vec::new(); slots.len()];
    for r in 0..=rounds {
        for k in 0..slots.len() {
            let i = (k + r) % slots.len();
            let json = s.query(&format!("{}EXPLAIN (ANALYZE, FORMAT JSON) {q};", set_sql(&real(&slots[i]))))?;
            let ms = node_ms(&json)?;
            // Round 0 warms the backend and is dropped.
            if r > 0 {
                out[i].push(ms);
            }
        }
    }
    Ok(out)
}

/// Callgrind on a single-user backend: each variant's query `reps` times, then the boundary
/// alone (its own cost, taken off); instructions a query and the shares of the leaf loop.
fn instructions(c: &Cluster, scan: &str, range: u32, scale: u32) -> Result<Vec<Instructions>> {
    let reps = 5;
    let aid = (50_000u64 * scale as u64).to_string();
    let q = format!("{};", query(scan, &aid, range));
    let mut stmts: Vec<String> = SCAN_SETTINGS.iter().map(|(k, v)| format!("SET {k} = {v};")).collect();
    let mut n = 0;
    for v in VARIANTS {
        stmts.push(format!("SET hl_btree.variant = '{v}';"));
        // Warm: catalogs, the plan, the buffers.
        stmts.push(q.clone());
        stmts.push(single::boundary(n));
        n += 1;
        for _ in 0..reps {
            stmts.push(q.clone());
        }
        stmts.push(single::boundary(n));
        n += 1;
        stmts.push(single::boundary(n));
        n += 1;
    }
    let parts = single::callgrind(c, &stmts, "exec_simple_query", &single::Run { settings: settings().iter().map(|(k, v)| (k.to_string(), v.clone())).collect(), ..Default::default() })?;
    // Parts: [before b0], then per variant: (b0..b1: the queries), (b1..b2: the boundary alone), (..b3 next).
    let mut out = Vec::new();
    for (k, v) in VARIANTS.iter().enumerate() {
        let queries = parts.get(3 * k + 1).with_context(|| format!("callgrind: no dump for {v}"))?;
        let alone = parts.get(3 * k + 2).with_context(|| format!("callgrind: no boundary dump for {v}"))?;
        let per_query = (queries.total as f64 - alone.total as f64) / reps as f64;
        let (rp, ck) = if *v == "dir-by-value/server" {
            ("_bt_readpage".to_string(), "_bt_checkkeys".to_string())
        } else {
            let s = v.rsplit('/').next().unwrap().replace('-', "_");
            (format!("hotloops_dir_by_value_{s}__server"), format!("hl_dir_by_value_{s}_checkkeys__server"))
        };
        let (_, rp_incl, _) = queries.function(&rp);
        let (_, ck_incl, ck_calls) = queries.function(&ck);
        let tuples = (range + 1) as f64;
        let total = queries.total.max(1) as f64;
        out.push(Instructions {
            variant: v.to_string(),
            per_query,
            tuples,
            readpage_share: rp_incl as f64 / total,
            checkkeys_share: ck_incl as f64 / total,
            checkkeys_calls_per_tuple: ck_calls as f64 / reps as f64 / tuples,
        });
    }
    Ok(out)
}

/// The model's predicted cycles a tuple of c-opaque and c-by-value per core, from
/// `hotloops model dir-by-value --json --no-measure --config gcc12-pg` (this binary), or why
/// not.
fn model_cycles() -> std::result::Result<Vec<(String, f64, f64)>, String> {
    let exe = crate::host::worker::exe().map_err(|e| format!("{e:#}"))?;
    let out = super::proc::output(Command::new(exe).args(["model", "dir-by-value", "--json", "--no-measure", "--config", "gcc12-pg"])).map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let variants = v["studies"][0]["variants"].as_array().ok_or("no variants in the model's JSON")?;
    let per = |id: &str| -> Vec<(String, f64)> {
        variants
            .iter()
            .find(|x| x["id"] == id)
            .and_then(|x| x["per_cpu"].as_array())
            .map(|a| a.iter().filter_map(|c| Some((c["cpu"].as_str()?.to_string(), c["predicted"].as_f64()?))).collect())
            .unwrap_or_default()
    };
    let (o, b) = (per("dir-by-value/c-opaque"), per("dir-by-value/c-by-value"));
    let rows: Vec<(String, f64, f64)> = o.iter().filter_map(|(cpu, oc)| b.iter().find(|(c, _)| c == cpu).map(|(_, bc)| (cpu.clone(), *oc, *bc))).collect();
    if rows.is_empty() { Err("the model has no c-opaque/c-by-value rows".into()) } else { Ok(rows) }
}

fn ratio_of(a: &str, b: &str, metric: &str, xs: &[f64], floor: Option<f64>, higher_is_faster: bool) -> Ratio {
    let p = pair_stats(a, b, metric, xs, floor);
    // pair_stats judges time ratios (< 1 faster); TPS ratios are the other way round.
    let verdict = match (p.verdict.as_str(), higher_is_faster) {
        ("faster", true) => "slower".to_string(),
        ("slower", true) => "faster".to_string(),
        (v, _) => v.to_string(),
    };
    Ratio { a: a.into(), b: b.into(), metric: metric.into(), ratio: p.median_ratio, ci: (p.ci_low, p.ci_high), verdict }
}

/// Every server is 17 or later, or the run is bad input.
pub fn check_servers<'a>(servers: impl IntoIterator<Item = &'a Install>) -> Result<()> {
    match servers.into_iter().find(|i| i.major < 17) {
        Some(i) => Err(UsageError(format!(
            "--study dir-by-value needs PostgreSQL 17 or later (its kernels read so->currPos.dir); {} is {}: give --server 17 or --server 18",
            i.pg_config.display(),
            i.short_version
        ))
        .into()),
        None => Ok(()),
    }
}

/// Run the study on `servers` (17 and later).
pub fn run(servers: &[(Install, PathBuf)], cfg: &Config) -> Result<DirByValueReport> {
    check_servers(servers.iter().map(|(i, _)| i))?;
    let model = model_cycles();
    let mut results = Vec::new();
    for (inst, so) in servers {
        let mut c = loaded(inst, so, cfg.scale)?;
        let mut queries = Vec::new();
        for &range in &RANGES {
            for &scan in &SCANS {
                // Instructions first, on the stopped cluster: a single-user backend.
                let instr = if cfg.instructions {
                    crate::say!("dir-by-value {}: callgrind, {scan} range {range}", inst.short_version);
                    instructions(&c, scan, range, cfg.scale)?
                } else {
                    Vec::new()
                };
                c.start(&settings())?;
                let node = plan_node(&c, VARIANTS[0], &query(scan, "1", range))?;
                let (checked, kernel_pages) = check(&c, scan, range, cfg.scale)?;
                let script_path = c.root().join(format!("range-{scan}-{range}.sql"));
                std::fs::write(&script_path, script(scan, range, cfg.scale))?;
                let mut slots: Vec<String> = VARIANTS.iter().map(|v| v.to_string()).collect();
                slots.insert(1, format!("{}#2", VARIANTS[0]));
                let real = |slot: &str| slot.trim_end_matches("#2").to_string();
                // A discarded run of each: the backend's caches, the OS's.
                for slot in &slots {
                    pgbench(inst, &c, &script_path, &real(slot), &cfg.protocol, 1)?;
                }
                let mut tps = vec![Vec::new(); slots.len()];
                for r in 0..cfg.rounds {
                    for k in 0..slots.len() {
                        let i = (k + r) % slots.len();
                        tps[i].push(pgbench(inst, &c, &script_path, &real(&slots[i]), &cfg.protocol, cfg.seconds)?);
                    }
                    crate::host::progress(format_args!("dir-by-value {} {scan} range {range}: round {}/{}", inst.short_version, r + 1, cfg.rounds), r + 1 == cfg.rounds);
                }
                let nodes = node_times(&c, scan, range, cfg.scale, &slots, cfg.rounds.max(5) * 2)?;
                c.stop();
                let idx = |id: &str| slots.iter().position(|s| s == id).unwrap();
                let mut ratios = Vec::new();
                let mut floors = (0.0, 0.0);
                for (metric, data, higher) in [("tps", &tps, true), ("node", &nodes, false)] {
                    let mut floor = None;
                    for (a, b) in PAIRS {
                        let (ia, ib) = (idx(a), idx(b));
                        let n = data[ia].len().min(data[ib].len());
                        let xs: Vec<f64> = (0..n).map(|r| data[ib][r] / data[ia][r].max(1e-12)).collect();
                        let q = ratio_of(a, b, metric, &xs, floor, higher);
                        if floor.is_none() {
                            let f = floor_of(&pair_stats(a, b, metric, &xs, None));
                            floor = Some(f);
                            if metric == "tps" { floors.0 = f } else { floors.1 = f }
                        }
                        ratios.push(q);
                    }
                }
                let variants = slots
                    .iter()
                    .enumerate()
                    .map(|(i, id)| VariantRuns { id: id.clone(), tps: tps[i].clone(), median_tps: median(&tps[i]), node_ms: median(&nodes[i]) })
                    .collect();
                let bounds = match (&model, instr.iter().find(|x| x.variant == VARIANTS[0])) {
                    (Ok(rows), Some(server)) => rows
                        .iter()
                        .map(|(cpu, o, b)| Bound {
                            cpu: cpu.clone(),
                            opaque_cycles: *o,
                            by_value_cycles: *b,
                            max_tps_change: server.readpage_share * ((o - b) / o).max(0.0),
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                queries.push(QueryResult { range, scan: scan.into(), node, checked, kernel_pages, variants, ratios, aa_floor: floors, instructions: instr, bounds });
            }
        }
        results.push(ServerResult {
            server_version: inst.version.clone(),
            server_source: inst.source.clone(),
            server_configure: inst.configure.clone(),
            extension_cflags: super::extension_compile_line(so),
            queries,
        });
    }
    Ok(DirByValueReport {
        host_cpu: cpu_name(),
        scale: cfg.scale,
        seconds: cfg.seconds,
        rounds: cfg.rounds,
        protocol: cfg.protocol.clone(),
        servers: results,
        model: match &model {
            Ok(_) => "hotloops model dir-by-value --json --no-measure --config gcc12-pg (llvm-mca 19)".into(),
            Err(e) => format!("no bound: the static model did not run ({e})"),
        },
        command: std::env::args().collect::<Vec<_>>().join(" "),
    })
}

fn short(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// The run as Markdown.
pub fn markdown(r: &DirByValueReport) -> String {
    use std::fmt::Write as _;
    let mut m = format!(
        "# hotloops pg --study dir-by-value: seed 001 in the server\n\n- host: {}\n- pgbench scale {} (`aid` up to {}), 1 client, -M {}, {} s a run, {} rounds, variants rotated each round with an A/A copy of the server's own btgettuple; node time: EXPLAIN ANALYZE of the middle aid's query\n- kernels: csrc/nbtsearch_checkkeys.c compiled into hl_btree; the server's _bt_first reads the first leaf, the kernel the next ones (forward scans)\n- bound: {}\n- command: `{}`\n\n",
        r.host_cpu, r.scale, 100_000u64 * r.scale as u64, r.protocol, r.seconds, r.rounds, r.model, r.command
    );
    m += "TPS ratios are B/A (> 1: B is faster); node-time ratios B/A (< 1: B is faster); resolved when the 95% interval excludes 1 and the effect exceeds the metric's A/A floor.\n\n";
    for s in &r.servers {
        let _ = writeln!(m, "## {} ({})\n\nExtension compiled with `{}`.\n", s.server_version, s.server_source, s.extension_cflags);
        for q in &s.queries {
            let _ = writeln!(
                m,
                "### range {} / {} ({}; the kernel read {} leaves a query)\n\n`{}` ; every variant returned the same rows for aids {}. A/A floor: TPS ±{:.2}%, node ±{:.2}%.\n",
                q.range,
                q.scan,
                q.node,
                q.kernel_pages,
                query(&q.scan, ":aid", q.range),
                q.checked.iter().map(|(a, _)| a.to_string()).collect::<Vec<_>>().join(", "),
                q.aa_floor.0 * 100.0,
                q.aa_floor.1 * 100.0
            );
            m += "| variant | TPS (median) | node ms (median) |\n|---|---:|---:|\n";
            for v in &q.variants {
                let _ = writeln!(m, "| `{}` | {:.0} | {:.4} |", v.id, v.median_tps, v.node_ms);
            }
            m += "\n| A -> B | metric | B/A [95% CI] | verdict |\n|---|---|---|---|\n";
            for x in &q.ratios {
                let _ = writeln!(m, "| {} -> {} | {} | {:.4} [{:.4}, {:.4}] | {} |", short(&x.a), short(&x.b), x.metric, x.ratio, x.ci.0, x.ci.1, x.verdict);
            }
            if !q.instructions.is_empty() {
                m += "\n| variant (callgrind) | instructions a query | readpage share | checkkeys share | checkkeys calls a tuple |\n|---|---:|---:|---:|---:|\n";
                for i in &q.instructions {
                    let _ = writeln!(m, "| `{}` | {:.0} | {:.1}% | {:.1}% | {:.2} |", i.variant, i.per_query, i.readpage_share * 100.0, i.checkkeys_share * 100.0, i.checkkeys_calls_per_tuple);
                }
            }
            if !q.bounds.is_empty() {
                m += "\nThe bound: the server's `_bt_readpage` share of the query times the model's saving on its per-tuple path ((c-opaque - c-by-value) / c-opaque), the rest of the query at the same IPC:\n\n| core | c-opaque cycles/tuple | c-by-value | largest TPS change |\n|---|---:|---:|---:|\n";
                for b in &q.bounds {
                    let _ = writeln!(m, "| {} | {:.2} | {:.2} | {:.2}% |", b.cpu, b.opaque_cycles, b.by_value_cycles, b.max_tps_change * 100.0);
                }
            }
            m += "\n";
        }
    }
    m
}

/// Write pg-dir-by-value.json and pg-dir-by-value.md into `out`.
pub fn write(r: &DirByValueReport, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    super::bench::write_pair(out, "pg-dir-by-value", serde_json::to_string_pretty(r)?, markdown(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_keep_the_range_inside_the_table() {
        let s = script("index", 15000, 10);
        assert!(s.contains("\\set aid random(1, 1000000 - 15000)") && s.contains("SELECT abalance FROM pgbench_accounts WHERE aid BETWEEN :aid AND :aid + 15000;"), "{s}");
        assert!(script("index-only", 2000, 1).contains("SELECT count(*) FROM"));
    }

    #[test]
    fn node_time_is_the_index_scans() {
        let j = r#"[{"Plan": {"Node Type": "Aggregate", "Actual Total Time": 9.0, "Plans": [{"Node Type": "Index Only Scan", "Actual Total Time": 1.25}]}}]"#;
        assert_eq!(node_ms(j).unwrap(), 1.25);
        assert!(node_ms(r#"[{"Plan": {"Node Type": "Seq Scan", "Actual Total Time": 1.0}}]"#).is_err());
    }

    #[test]
    fn tps_ratios_read_the_other_way_round() {
        let r = ratio_of("a", "b", "tps", &[1.2, 1.21, 1.19, 1.2, 1.22], Some(0.01), true);
        assert_eq!(r.verdict, "faster");
        let r = ratio_of("a", "b", "node", &[1.2, 1.21, 1.19, 1.2, 1.22], Some(0.01), false);
        assert_eq!(r.verdict, "slower");
    }
}
