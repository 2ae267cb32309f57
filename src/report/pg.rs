//! `hotloops report --pg`: the real server beside the models. The report runs the server
//! measurement of [`crate::pgserver`] (seed 000's Bitmap Index Scan per hl_btree variant, both
//! cache states; seed 004's pgbench partition sweep) for the selected studies that have a
//! server counterpart, and sets each model row of tid-batch, local-index and alloc-churn
//! beside the real ratio of the same comparison ([`COUNTERPARTS`]) with the model/real
//! difference. Without PostgreSQL the section is a note naming the packages and the rest of
//! the report goes on.

use super::Row;
use super::table::{Align, Table};
use crate::pgserver::{self, bench, dirbyvalue, instructions, readstream, sweep};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// `hotloops report`'s server options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PgReportArgs {
    /// Also measure the real PostgreSQL server (the hl_btree and hl_bloom extensions in a
    /// throwaway cluster, as `hotloops pg`) and set its ratios beside the model's (tid-batch,
    /// local-index, alloc-churn; read-stream and dir-by-value on the servers from 17 on).
    #[arg(long)]
    pub pg: bool,
    /// A server by major version (15, 17, 18; repeatable): every comparison runs on each, and
    /// the fidelity table has a row per server (`hotloops list --servers`).
    #[arg(long = "server", value_name = "15|17|18", requires = "pg")]
    pub servers: Vec<String>,
    /// pg_config of any other server (default without --server: pg_config on PATH, then Debian's).
    #[arg(long, requires = "pg")]
    pub pg_config: Option<PathBuf>,
    /// Rows of seed 000's table3 on the server (1 to 100,000,000; default: 1,000,000;
    /// 10,000,000 with --full).
    #[arg(long, requires = "pg", value_parser = crate::host::in_range::<u64>(1, crate::pgserver::MAX_ROWS as u128))]
    pub pg_rows: Option<u64>,
    /// Rounds per server case and cache state (2 to 1,000,000; default: 10; 20 with --full).
    #[arg(long, requires = "pg", value_parser = crate::host::in_range::<u64>(2, crate::pgserver::MAX_ROUNDS as u128))]
    pub pg_rounds: Option<u64>,
    /// Seconds of pgbench per partition point of seed 004 (1 to 3,600; default: 1; 5 with
    /// --full).
    #[arg(long, requires = "pg", value_parser = crate::host::in_range::<u64>(1, crate::pgserver::MAX_SECONDS as u128))]
    pub pg_seconds: Option<u64>,
}

impl PgReportArgs {
    /// The options when `--pg` was given.
    pub fn options(&self) -> Option<PgOptions> {
        self.pg.then(|| PgOptions {
            servers: self.servers.clone(),
            pg_config: self.pg_config.clone(),
            rows: self.pg_rows,
            rounds: self.pg_rounds.map(|r| r as usize),
            seconds: self.pg_seconds,
        })
    }
}

/// What the pg section measures (None: the size's default).
#[derive(Clone, Debug, Default)]
pub struct PgOptions {
    /// `--server` majors.
    pub servers: Vec<String>,
    /// pg_config.
    pub pg_config: Option<PathBuf>,
    /// Rows of table3.
    pub rows: Option<u64>,
    /// Rounds per case and cache state.
    pub rounds: Option<usize>,
    /// pgbench seconds per sweep point.
    pub seconds: Option<u64>,
}

/// The real comparison a model row stands for.
#[derive(Clone, Copy, Debug)]
pub enum Real {
    /// A pair of hl_btree variants in one server case and cache state (B/A of amgetbitmap's
    /// thread CPU time, the steadier metric; node time is kept beside it).
    Pair { case: &'static str, state: &'static str, a: &'static str, b: &'static str },
    /// Seed 004 at `partitions`, index-only scans: time a transaction with glibc's trim
    /// threshold fixed over the time with it dynamic (TPS dynamic / TPS fixed).
    TrimFixed { partitions: u32 },
    /// Seed 002: a pair of hl_bloom variants in one cache state under one io_method (`none`:
    /// 17, no io_method), B/A of the Bitmap Index Scan node time (the seed's runtime).
    Bloom { state: &'static str, io_methods: &'static [&'static str], a: &'static str, b: &'static str },
    /// Seed 001: hl_btree's c-opaque -> c-by-value on one pgbench range and scan type, B/A of
    /// the scan node's time.
    DirByValue { range: u32, scan: &'static str },
}

/// One model row with a server counterpart.
#[derive(Clone, Copy, Debug)]
pub struct Counterpart {
    /// Model study.
    pub study: &'static str,
    /// Model case.
    pub case: &'static str,
    /// Model variant (its ratio is against the study's baseline).
    pub variant: &'static str,
    /// The server's comparison.
    pub real: Real,
}

const fn pair(study: &'static str, case: &'static str, variant: &'static str, rcase: &'static str, state: &'static str, a: &'static str, b: &'static str) -> Counterpart {
    Counterpart { study, case, variant, real: Real::Pair { case: rcase, state, a, b } }
}

const fn bloom(case: &'static str, variant: &'static str, state: &'static str, io_methods: &'static [&'static str]) -> Counterpart {
    Counterpart { study: "read-stream", case, variant, real: Real::Bloom { state, io_methods, a: "read-stream/sync-per-page", b: "read-stream/stream" } }
}

const fn dir(case: &'static str, range: u32) -> Counterpart {
    Counterpart { study: "dir-by-value", case, variant: "dir-by-value/by-value", real: Real::DirByValue { range, scan: "index-only" } }
}

const fn trim(case: &'static str, partitions: u32) -> Counterpart {
    Counterpart { study: "alloc-churn", case, variant: "alloc-churn/palloc-mallopt-trim", real: Real::TrimFixed { partitions } }
}

/// Every model row the server measures too. tid-batch's model per-tid is master's loop (the
/// server's per-tid control equals btgetbitmap there); btree-many keeps every page in shared
/// buffers (warm), btree-many-miss reads every page through the OS page cache (os-cache).
/// local-index's store-each/local is the extension's batched-store/batched-local; its model
/// cases scan with every page in shared buffers. alloc-churn's model is PostgreSQL 15's
/// palloc'd routine; its mallopt-trim row is the server with MALLOC_TRIM_THRESHOLD_ fixed.
pub const COUNTERPARTS: &[Counterpart] = &[
    pair("tid-batch", "btree-many", "tid-batch/batched", "btree-many", "warm", "tid-batch/per-tid", "tid-batch/batched"),
    pair("tid-batch", "btree-many-miss", "tid-batch/batched", "btree-many", "os-cache", "tid-batch/per-tid", "tid-batch/batched"),
    pair("tid-batch", "btree-few", "tid-batch/batched", "btree-few", "warm", "tid-batch/per-tid", "tid-batch/batched"),
    pair("local-index", "table3", "local-index/local", "btree-many", "warm", "tid-batch/batched-store", "tid-batch/batched-local"),
    pair("local-index", "table3-bitmap", "local-index/local", "btree-many", "warm", "tid-batch/batched-store", "tid-batch/batched-local"),
    pair("local-index", "table3-server", "local-index/local", "btree-many", "warm", "tid-batch/batched-store", "tid-batch/batched-local"),
    trim("partitions-3", 3),
    trim("partitions-4", 4),
    trim("partitions-100", 100),
    // The model's cold-direct is the server's cold (debug_io_direct=data), its warm (the file in
    // the page cache) the server's os-cache; hl_bloom's sync-per-page is the model's baseline
    // loop compiled beside the stream, so the pair is sync-per-page -> stream.
    bloom("cold-direct", "read-stream/stream-sync", "cold", &["sync", "none"]),
    bloom("cold-direct", "read-stream/stream-worker", "cold", &["worker"]),
    bloom("warm", "read-stream/stream-sync", "os-cache", &["sync", "none"]),
    bloom("warm", "read-stream/stream-worker", "os-cache", &["worker"]),
    // 18's _bt_set_startikey leaves no key to evaluate on a range scan's inner leaves: the
    // model's 0-keys cases; the index-only scan is where the leaf loop is the largest share.
    dir("range-2000/0-keys", 2000),
    dir("range-15000/0-keys", 15000),
];

/// One model row beside the server's ratio.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Fidelity {
    /// The server's major.minor version (`18.6`).
    #[serde(default)]
    pub server: String,
    /// Model study.
    pub study: String,
    /// Model case.
    pub case: String,
    /// Model variant.
    pub variant: String,
    /// Model baseline.
    pub baseline: String,
    /// Model wall-clock ratio variant/baseline.
    pub model_ratio: f64,
    /// Its 95% interval.
    pub model_ci: Option<(f64, f64)>,
    /// The server's comparison, in words (`btree-many/os-cache: per-tid -> batched (cpu)`).
    pub real: String,
    /// The server's ratio (< 1: the variant is faster).
    pub real_ratio: f64,
    /// Its 95% interval (none for the pgbench sweep: a median of runs).
    pub real_ci: Option<(f64, f64)>,
    /// The server pair's verdict against its A/A floor (sweep: `median of runs`).
    pub real_verdict: String,
    /// The same pair in Bitmap Index Scan node time, where there is one.
    pub real_node_ratio: Option<f64>,
    /// Instructions a TID of the whole amgetbitmap, exact, where both sides were counted:
    /// [model baseline, model variant, server A, server B] (the report's callgrind rows; the
    /// server's from the section's `instructions`).
    #[serde(default)]
    pub instructions: Option<[f64; 4]>,
    /// model_ratio / real_ratio - 1 (+: the model's ratio is above the server's).
    pub model_over_real: f64,
    /// The effects' ratio, (1 - model) / (1 - real) (1: the model's saving equals the server's);
    /// none where the server's ratio is exactly 1 (no effect to divide by). An Option, not
    /// NaN: JSON has no NaN, and a null where a number belongs would make the report
    /// unreadable to `render`, `compare` and `seed`.
    #[serde(default)]
    pub effect_ratio: Option<f64>,
}

/// [`Fidelity::effect_ratio`] of a model ratio against the server's.
fn effect_ratio(model_ratio: f64, real_ratio: f64) -> Option<f64> {
    ((1.0 - real_ratio).abs() > 1e-9).then(|| (1.0 - model_ratio) / (1.0 - real_ratio))
}

/// The report's pg section.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PgSection {
    /// What ran, or why the server was not measured.
    pub status: String,
    /// The Bitmap Index Scan measurement, one per server (reports before 17 and 18 held one,
    /// as `server`).
    #[serde(default, alias = "server", deserialize_with = "one_or_many")]
    pub servers: Vec<bench::PgReport>,
    /// Seed 004's sweep at the model's partition counts, one per server (formerly `sweep`).
    #[serde(default, alias = "sweep", deserialize_with = "one_or_many")]
    pub sweeps: Vec<sweep::SweepReport>,
    /// Each model row with a counterpart beside the real ratio.
    pub fidelity: Vec<Fidelity>,
    /// The model's alloc-churn sweep figures (cliff, faults per query) set beside the servers'.
    #[serde(default)]
    pub model_sweep: Vec<ModelSweepRow>,
    /// Seed 002 on the servers from 17 on (`hotloops pg --study read-stream`), when selected.
    #[serde(default)]
    pub read_stream: Option<readstream::ReadStreamRuns>,
    /// Seed 001 on the servers from 17 on (`hotloops pg --study dir-by-value`), when selected.
    #[serde(default)]
    pub dir_by_value: Option<dirbyvalue::DirByValueReport>,
    /// The servers' instructions a TID, function by function (`hotloops pg --instructions`),
    /// for the Bitmap Index Scan cases, when instructions are counted.
    #[serde(default)]
    pub instructions: Option<instructions::InstructionsReport>,
}

/// Rows of table3 for the instruction counts: the model's test size (20,000 TIDs), since the
/// TIDBitmap's hash-table work a TID grows with the number of TIDs it holds (at 100,000 rows
/// 18's per-TID btree-many costs 306 a TID against 282 at 20,000), and callgrind runs the backend some
/// 50x slower.
pub const INSTRUCTION_ROWS: u64 = 20_000;

/// Fill each Pair row's instructions from the model's callgrind rows and the servers' counts.
pub fn add_instructions(fidelity: &mut [Fidelity], rows: &[Row], counts: &instructions::InstructionsReport) {
    for f in fidelity.iter_mut() {
        let Some(Real::Pair { case, state, a, b }) = COUNTERPARTS.iter().find(|c| c.study == f.study && c.case == f.case && c.variant == f.variant).map(|c| c.real) else { continue };
        let model = |v: &str| rows.iter().find(|r| r.study == f.study && r.case == f.case && r.variant == v && r.metric == "instructions").map(|r| r.value);
        let Some(s) = counts.servers.iter().find(|s| server_major_minor(&s.server_version) == f.server) else { continue };
        let server = |v: &str| s.comparisons.iter().find(|c| c.case == case && c.cache_state == state && c.variant == v).map(|c| c.server.total_per_tid);
        if let (Some(ma), Some(mb), Some(sa), Some(sb)) = (model(&f.baseline), model(&f.variant), server(a), server(b)) {
            f.instructions = Some([ma, mb, sa, sb]);
        }
    }
}

/// One of the model's alloc-churn sweep figures (a `sweep:` row of the report).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ModelSweepRow {
    /// Variant id.
    pub variant: String,
    /// `sweep:cliff-partitions`, `sweep:minor-faults-per-query@N`.
    pub metric: String,
    /// Its value.
    pub value: f64,
}

/// A list, or (as older reports wrote it) one value or null.
fn one_or_many<'de, D, T>(d: D) -> std::result::Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        Many(Vec<T>),
        One(T),
    }
    Ok(match Option::<OneOrMany<T>>::deserialize(d)? {
        Some(OneOrMany::Many(v)) => v,
        Some(OneOrMany::One(x)) => vec![x],
        None => Vec::new(),
    })
}

/// What the selected studies need from the server: (Bitmap Index Scan cases, cache states,
/// sweep partition counts).
pub fn needs(studies: &[&str]) -> (Vec<String>, Vec<String>, Vec<u32>) {
    let mut cases = Vec::new();
    let mut states = Vec::new();
    let mut grid = Vec::new();
    for c in COUNTERPARTS.iter().filter(|c| studies.contains(&c.study)) {
        match c.real {
            Real::Pair { case, state, .. } => {
                if !cases.iter().any(|x| x == case) {
                    cases.push(case.to_string());
                }
                if !states.iter().any(|x| x == state) {
                    states.push(state.to_string());
                }
            }
            Real::TrimFixed { partitions } => {
                if !grid.contains(&partitions) {
                    grid.push(partitions);
                }
            }
            // Their own studies' runs (`hotloops pg --study read-stream | dir-by-value`).
            Real::Bloom { .. } | Real::DirByValue { .. } => {}
        }
    }
    // Both cache states whenever the scan is measured: the warm/os-cache difference is the
    // dilution the models are compared against.
    if !cases.is_empty() {
        states = vec!["warm".into(), "os-cache".into()];
    }
    // Around the model's cliff too, so the servers' cliffs can be set beside it.
    if !grid.is_empty() {
        grid.extend(sweep::QUICK_GRID);
    }
    grid.sort_unstable();
    grid.dedup();
    (cases, states, grid)
}

/// Run the server part for `studies` and set it beside the model `rows`. A missing server
/// (or any failure) becomes the section's status and a note, never the report's failure;
/// an interrupt (Ctrl-C) waits for the handler that stops the clusters and exits 130.
pub fn section(opts: &PgOptions, quick: bool, count: bool, studies: &[&str], rows: &[Row], notes: &mut Vec<String>) -> PgSection {
    let r = measure(opts, quick, count, studies);
    if pgserver::cluster::interrupted() {
        loop {
            std::thread::park();
        }
    }
    match r {
        Ok((servers, sweeps, read_stream, dir_by_value, counts)) => {
            let mut fidelity = servers_fidelity(rows, &servers, &sweeps);
            fidelity.extend(seed_fidelity(rows, read_stream.as_ref(), dir_by_value.as_ref()));
            let instructions = match counts {
                Ok(c) => c,
                Err(e) => {
                    notes.push(format!("the servers' instructions not counted: {e:#}"));
                    None
                }
            };
            if let Some(c) = &instructions {
                add_instructions(&mut fidelity, rows, c);
            }
            let names = |v: Vec<String>| v.join(", ");
            let status = match (servers.is_empty(), sweeps.is_empty()) {
                (true, true) if read_stream.is_some() || dir_by_value.is_some() => "measured: seed 002 / seed 001 on the servers from 17 on".to_string(),
                (true, true) => "no selected study has a server counterpart (tid-batch, local-index, alloc-churn, read-stream, dir-by-value)".to_string(),
                (false, _) => format!(
                    "measured: {}, {} rows, {} rounds",
                    names(servers.iter().map(|s| s.provenance.server_version.clone()).collect()),
                    servers[0].provenance.rows,
                    servers[0].provenance.rounds
                ),
                (true, false) => format!("measured: {} (seed 004 sweep only)", names(sweeps.iter().map(|w| w.server_version.clone()).collect())),
            };
            let model_sweep = rows
                .iter()
                .filter(|r| r.study == "alloc-churn" && r.metric.starts_with("sweep:"))
                .map(|r| ModelSweepRow { variant: r.variant.clone(), metric: r.metric.clone(), value: r.value })
                .collect();
            PgSection { status, servers, sweeps, fidelity, model_sweep, read_stream, dir_by_value, instructions }
        }
        Err(e) => {
            let status = format!("real PostgreSQL not measured: {e:#}");
            notes.push(status.clone());
            PgSection { status, servers: Vec::new(), sweeps: Vec::new(), fidelity: Vec::new(), model_sweep: Vec::new(), read_stream: None, dir_by_value: None, instructions: None }
        }
    }
}

/// What the servers gave: the Bitmap Index Scan runs and seed 004's sweeps per server, seed
/// 002's and seed 001's runs on the servers from 17 on, and the servers' instruction counts
/// (their failure is a note, not the section's).
type Measured = (Vec<bench::PgReport>, Vec<sweep::SweepReport>, Option<readstream::ReadStreamRuns>, Option<dirbyvalue::DirByValueReport>, Result<Option<instructions::InstructionsReport>>);

fn measure(opts: &PgOptions, quick: bool, count: bool, studies: &[&str]) -> Result<Measured> {
    let (cases, cache_states, grid) = needs(studies);
    let (bloom, dir) = (studies.contains(&"read-stream"), studies.contains(&"dir-by-value"));
    if cases.is_empty() && grid.is_empty() && !bloom && !dir {
        return Ok((Vec::new(), Vec::new(), None, None, Ok(None)));
    }
    let all = pgserver::servers_with_extension(&opts.servers, opts.pg_config.as_deref(), &[])?;
    // hl_bloom's stream and hl_btree's kernel path need 17's read stream and scan state.
    let recent: Vec<_> = all.iter().filter(|(i, _)| i.major >= 17).cloned().collect();
    let mut read_stream = None;
    let mut dir_by_value = None;
    if (bloom || dir) && recent.is_empty() {
        anyhow::bail!("read-stream and dir-by-value run on PostgreSQL 17 or later; none of the selected servers is (scripts/install-pg.sh 17 18, then --server 18)");
    }
    if bloom {
        let cfg = readstream::Config {
            rows: opts.rows.unwrap_or(if quick { 1_000_000 } else { 10_000_000 }),
            rounds: opts.rounds.unwrap_or(if quick { 8 } else { 12 }),
            cache_states: vec!["os-cache".into(), "cold".into()],
            io_methods: Vec::new(),
        };
        read_stream = Some(readstream::run_all(&recent, &cfg)?);
    }
    if dir {
        let mut cfg = dirbyvalue::Config::defaults(quick);
        if let Some(r) = opts.rounds {
            cfg.rounds = r;
        }
        dir_by_value = Some(dirbyvalue::run(&recent, &cfg)?);
    }
    // The Bitmap Index Scan cases counted in both cache states, on every server, beside the
    // model's callgrind rows (an interrupt is no note: the handler exits).
    let counts = if count && !cases.is_empty() {
        instructions::run(&all, INSTRUCTION_ROWS, &cases, &cache_states).map(Some)
    } else {
        Ok(None)
    };
    if pgserver::cluster::interrupted() {
        anyhow::bail!("interrupted");
    }
    let mut servers = Vec::new();
    let mut sweeps = Vec::new();
    for (inst, so) in if cases.is_empty() && grid.is_empty() { Vec::new() } else { all } {
        if !cases.is_empty() {
            let cfg = bench::Config {
                rows: opts.rows.unwrap_or(if quick { 1_000_000 } else { 10_000_000 }),
                rounds: opts.rounds.unwrap_or(if quick { 10 } else { 20 }),
                cache_states: cache_states.clone(),
                cases: cases.clone(),
            };
            servers.push(bench::run(&inst, &so, &cfg)?);
        }
        if !grid.is_empty() {
            sweeps.push(sweep::run(&inst, &so, &grid, opts.seconds.unwrap_or(if quick { 1 } else { 5 }))?);
        }
    }
    Ok((servers, sweeps, read_stream, dir_by_value, counts))
}

/// The model's read-stream and dir-by-value rows beside seed 002's and seed 001's server runs,
/// a row per server (and io_method) that has the comparison.
pub fn seed_fidelity(rows: &[Row], rs: Option<&readstream::ReadStreamRuns>, dv: Option<&dirbyvalue::DirByValueReport>) -> Vec<Fidelity> {
    let mut out = Vec::new();
    for c in COUNTERPARTS {
        let Some(m) = rows.iter().find(|r| r.study == c.study && r.case == c.case && r.variant == c.variant && r.metric == "wall-clock") else {
            continue;
        };
        let Some(model_ratio) = m.ratio else { continue };
        // (server, words, ratio, interval, verdict)
        let mut reals: Vec<(String, String, f64, Option<(f64, f64)>, String)> = Vec::new();
        match c.real {
            Real::Bloom { state, io_methods, a, b } => {
                for s in rs.map(|r| r.servers.as_slice()).unwrap_or_default() {
                    for x in s.results.iter().filter(|x| x.cache_state == state && io_methods.contains(&x.io_method.as_str())) {
                        if let Some(p) = x.measured.pairs.iter().find(|p| p.a == a && p.b == b && p.metric == "bis") {
                            let words = format!("tbloom/{state}, io_method {}: {} -> {} (Bitmap Index Scan time)", x.io_method, short(a), short(b));
                            reals.push((server_major_minor(&s.provenance.server_version), words, p.median_ratio, Some((p.ci_low, p.ci_high)), p.verdict.clone()));
                        }
                    }
                }
            }
            Real::DirByValue { range, scan } => {
                for s in dv.map(|r| r.servers.as_slice()).unwrap_or_default() {
                    let Some(q) = s.queries.iter().find(|q| q.range == range && q.scan == scan) else { continue };
                    if let Some(p) = q.ratios.iter().find(|p| p.a.ends_with("c-opaque") && p.b.ends_with("c-by-value") && p.metric == "node") {
                        let words = format!("pgbench range {range}, {scan}: c-opaque -> c-by-value (scan node time)");
                        reals.push((server_major_minor(&s.server_version), words, p.ratio, Some(p.ci), p.verdict.clone()));
                    }
                }
            }
            _ => {}
        }
        for (server, real, real_ratio, real_ci, real_verdict) in reals {
            out.push(Fidelity {
                server,
                study: c.study.into(),
                case: c.case.into(),
                variant: c.variant.into(),
                baseline: m.baseline.clone(),
                model_ratio,
                model_ci: m.ci_low.zip(m.ci_high),
                real,
                real_ratio,
                real_ci,
                real_verdict,
                real_node_ratio: None,
                instructions: None,
                model_over_real: model_ratio / real_ratio - 1.0,
                effect_ratio: effect_ratio(model_ratio, real_ratio),
            });
        }
    }
    out
}

/// The fidelity rows of every server, in server order.
pub fn servers_fidelity(rows: &[Row], servers: &[bench::PgReport], sweeps: &[sweep::SweepReport]) -> Vec<Fidelity> {
    let mut all: Vec<String> = servers.iter().map(|s| s.provenance.server_version.clone()).collect();
    for w in sweeps {
        if !all.contains(&w.server_version) {
            all.push(w.server_version.clone());
        }
    }
    let mut out = Vec::new();
    for v in &all {
        let s = servers.iter().find(|s| &s.provenance.server_version == v);
        let w = sweeps.iter().find(|w| &w.server_version == v);
        for mut f in fidelity(rows, s, w) {
            f.server = server_major_minor(v);
            out.push(f);
        }
    }
    out
}

/// `postgres (PostgreSQL) 18.6` -> `18.6`.
pub fn server_major_minor(v: &str) -> String {
    v.split_whitespace().find(|w| w.starts_with(|c: char| c.is_ascii_digit())).unwrap_or(v).to_string()
}

fn short(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// Each counterpart whose model row and server figure are both present.
pub fn fidelity(rows: &[Row], server: Option<&bench::PgReport>, sweep: Option<&sweep::SweepReport>) -> Vec<Fidelity> {
    let mut out = Vec::new();
    for c in COUNTERPARTS {
        let Some(m) = rows.iter().find(|r| r.study == c.study && r.case == c.case && r.variant == c.variant && r.metric == "wall-clock") else {
            continue;
        };
        let Some(model_ratio) = m.ratio else { continue };
        let model_ci = m.ci_low.zip(m.ci_high);
        let real = match c.real {
            Real::Pair { case, state, a, b } => server.and_then(|s| {
                let cr = s.results.iter().find(|r| r.case == case && r.cache_state == state)?;
                let get = |metric: &str| cr.pairs.iter().find(|p| p.a == a && p.b == b && p.metric == metric);
                let cpu = get("cpu")?;
                Some((
                    format!("{case}/{state}: {} -> {} (amgetbitmap CPU time)", short(a), short(b)),
                    cpu.median_ratio,
                    Some((cpu.ci_low, cpu.ci_high)),
                    cpu.verdict.clone(),
                    get("bis").map(|p| p.median_ratio),
                ))
            }),
            Real::Bloom { .. } | Real::DirByValue { .. } => None,
            Real::TrimFixed { partitions } => sweep.and_then(|w| {
                let pt = |t: &str| w.points.iter().find(|p| p.partitions == partitions && p.trim == t && p.form == sweep::INDEX_ONLY);
                let (d, f) = (pt("dynamic")?, pt("fixed")?);
                (f.tps > 0.0).then(|| {
                    (
                        format!("seed 004, {partitions} partitions, {}: trim fixed / dynamic (time a transaction)", d.scan),
                        d.tps / f.tps,
                        None,
                        format!("median of {} pgbench runs", sweep::REPS),
                        None,
                    )
                })
            }),
        };
        let Some((real, real_ratio, real_ci, real_verdict, real_node_ratio)) = real else { continue };
        out.push(Fidelity {
            server: String::new(),
            study: c.study.into(),
            case: c.case.into(),
            variant: c.variant.into(),
            baseline: m.baseline.clone(),
            model_ratio,
            model_ci,
            real,
            real_ratio,
            real_ci,
            real_verdict,
            real_node_ratio,
            instructions: None,
            model_over_real: model_ratio / real_ratio - 1.0,
            effect_ratio: effect_ratio(model_ratio, real_ratio),
        });
    }
    out
}

fn ci(c: Option<(f64, f64)>) -> String {
    c.map(|(l, h)| format!(" [{l:.3}, {h:.3}]")).unwrap_or_default()
}

/// The model's alloc-churn sweep rows the section was built beside (kept in the section).
fn rows_of(p: &PgSection) -> &[ModelSweepRow] {
    &p.model_sweep
}

/// The alloc-churn model beside each server's sweep, scan form by scan form: the cliff (first
/// partition count with a minor fault a query or transaction) and faults per query at each
/// partition count both have, with model/real. A report from before the model had plain
/// scans has no `sweep:index-scan:` rows: its plain rows say so instead of borrowing the
/// index-only figures.
pub fn alloc_churn_beside(model: &[ModelSweepRow], sweeps: &[sweep::SweepReport]) -> Option<String> {
    use crate::study::alloc_churn::ScanForm;
    use std::fmt::Write as _;
    let base = "alloc-churn/palloc-routine";
    let of_form = |form: ScanForm| {
        let cliff_metric = super::sweep::metric(form, "cliff-partitions");
        let faults_prefix = super::sweep::metric(form, "minor-faults-per-query@");
        let rows: Vec<&ModelSweepRow> = model.iter().filter(|r| r.variant == base).collect();
        let cliff = rows.iter().find(|r| r.metric == cliff_metric).map(|r| r.value as u32);
        // Every case repeats the seed's point: one row a partition count, ascending.
        let faults: std::collections::BTreeMap<u32, f64> =
            rows.iter().filter_map(|r| r.metric.strip_prefix(faults_prefix.as_str()).and_then(|n| n.parse().ok()).map(|n| (n, r.value))).collect();
        (cliff, faults.into_iter().collect::<Vec<_>>())
    };
    let forms: Vec<(ScanForm, Option<u32>, Vec<(u32, f64)>)> = ScanForm::ALL.into_iter().map(|f| (f, of_form(f))).map(|(f, (c, x))| (f, c, x)).collect();
    if sweeps.is_empty() || forms.iter().all(|(_, c, x)| c.is_none() && x.is_empty()) {
        return None;
    }
    let mut m = String::from("### pg / alloc-churn beside the servers\n\nThe model (`alloc-churn/palloc-routine`, glibc's dynamic thresholds) against each server's seed 004 sweep (trim dynamic), each scan form against the same form: where minor faults start, and faults per query (model) or transaction (server) at the partition counts both measured; model/real = model / server - 1.\n\n");
    let cell = |c: Option<u32>| c.map(|n| n.to_string()).unwrap_or_else(|| "none in the grid".into());
    let mut t = Table::new([("server", Align::Left), ("form", Align::Left), ("cliff: model", Align::Right), ("cliff: server", Align::Right), ("partitions", Align::Right), ("faults: model", Align::Right), ("faults: server", Align::Right), ("model/real", Align::Right)]);
    let mut missing = Vec::new();
    for w in sweeps {
        let ver = w.server_version.split_whitespace().find(|x| x.starts_with(|c: char| c.is_ascii_digit())).unwrap_or("?").to_string();
        for (form, cliff, faults) in &forms {
            let real_cliff = w.cliff.iter().find(|c| c.form == form.id() && c.trim == "dynamic").and_then(|c| c.partitions);
            if cliff.is_none() && faults.is_empty() {
                if w.points.iter().any(|p| p.form == form.id()) && !missing.contains(form) {
                    missing.push(*form);
                }
                continue;
            }
            for &(n, mf) in faults {
                let Some(p) = w.points.iter().find(|p| p.partitions == n && p.form == form.id() && p.trim == "dynamic") else { continue };
                let over = if p.minflt_per_txn > 0.0 { format!("{:+.0}%", (mf / p.minflt_per_txn - 1.0) * 100.0) } else { "n/a (server 0)".into() };
                t.row([ver.clone(), form.to_string(), cell(*cliff), cell(real_cliff), n.to_string(), format!("{mf:.1}"), format!("{:.1}", p.minflt_per_txn), over]);
            }
        }
    }
    let _ = writeln!(m, "{}", t.render());
    for form in missing {
        let _ = writeln!(m, "The model has no {form}-scan sweep in this report: the servers' {form} rows have no model beside them.\n");
    }
    Some(m)
}

/// The section as Markdown: status, the fidelity table, the server's figures per case.
pub fn markdown(p: &PgSection) -> String {
    use std::fmt::Write as _;
    let mut m = String::new();
    let _ = writeln!(m, "## pg: real PostgreSQL beside the model\n\n{}.\n", p.status);
    for s in &p.servers {
        let v = &s.provenance;
        let _ = writeln!(m, "Server: {} ({}); host {}; extension compiled with `{}`; data {}.\n", v.server_version, v.server_source, v.host_cpu, v.extension_cflags, v.data);
    }
    if !p.fidelity.is_empty() {
        let _ = writeln!(m, "### pg / fidelity\n\nEach model row (wall clock, variant/baseline) beside the server's ratio of the same comparison; \
            model/real = model ratio / real ratio - 1; effect = the model's saving over the server's, (1 - model) / (1 - real).\n");
        let mut t = Table::new([
            ("server", Align::Left),
            ("model row", Align::Left),
            ("model [95% CI]", Align::Right),
            ("real", Align::Left),
            ("real [95% CI]", Align::Right),
            ("verdict", Align::Left),
            ("model/real", Align::Right),
            ("effect", Align::Right),
            ("instr/TID model (server)", Align::Right),
        ]);
        for f in &p.fidelity {
            t.row([
                f.server.clone(),
                format!("{} / {} / `{}`", f.study, f.case, short(&f.variant)),
                format!("{:.3}{}", f.model_ratio, ci(f.model_ci)),
                f.real.clone(),
                format!("{:.3}{}", f.real_ratio, ci(f.real_ci)),
                f.real_verdict.clone(),
                format!("{:+.1}%", f.model_over_real * 100.0),
                f.effect_ratio.filter(|e| e.is_finite()).map_or_else(|| "n/a".into(), |e| format!("{e:.2}")),
                f.instructions.map(|[ma, mb, sa, sb]| format!("{ma:.0} -> {mb:.0} ({sa:.0} -> {sb:.0})")).unwrap_or_else(|| "-".into()),
            ]);
        }
        let _ = writeln!(m, "{}", t.render());
    }
    for s in &p.servers {
        let ver = bench::short_version(s);
        for c in &s.results {
            let _ = writeln!(m, "### pg / {ver} / {} / {}\n\n`{}` (x{} a round, {} rounds); sum(col1) = {}, {} rows for every variant. A/A floor: node ±{:.2}%, CPU ±{:.2}%.\n",
                c.case, c.cache_state, c.query, c.reps, c.rounds, c.result.0, c.result.1, c.aa_floor.0 * 100.0, c.aa_floor.1 * 100.0);
            let mut t = Table::new([
                ("variant", Align::Left),
                ("BIS ms", Align::Right),
                ("ns/TID", Align::Right),
                ("amgetbitmap CPU ms", Align::Right),
                ("shared hit", Align::Right),
                ("shared read", Align::Right),
            ]);
            for v in &c.variants {
                t.row([
                    format!("`{}`", v.id),
                    format!("{:.4}", v.median_bis_ms),
                    format!("{:.2}", v.bis_ns_per_tid),
                    format!("{:.4}", v.median_cpu_ms),
                    format!("{:.0}", v.shared_hit),
                    format!("{:.0}", v.shared_read),
                ]);
            }
            let _ = writeln!(m, "{}", t.render());
            let mut t = Table::new([("A -> B", Align::Left), ("metric", Align::Left), ("B/A [95% CI]", Align::Right), ("verdict", Align::Left)]);
            for q in c.pairs.iter().filter(|q| q.metric == "cpu" || q.a == q.b.trim_end_matches("#2")) {
                t.row([format!("{} -> {}", short(&q.a), short(&q.b)), q.metric.clone(), format!("{:.3} [{:.3}, {:.3}]", q.median_ratio, q.ci_low, q.ci_high), q.verdict.clone()]);
            }
            let _ = writeln!(m, "{}", t.render());
        }
    }
    if let Some(r) = &p.instructions {
        let _ = writeln!(m, "### pg / instructions\n\nThe whole amgetbitmap's instructions a TID, exact (callgrind over a single-user backend, {} rows; the model at test size); \
            gap = model / server - 1, and the group of functions with the largest gap (`hotloops pg --instructions` prints every function).\n", r.servers.first().map(|s| s.rows).unwrap_or(0));
        let mut t = Table::new([
            ("server", Align::Left),
            ("case", Align::Left),
            ("state", Align::Left),
            ("variant", Align::Left),
            ("server", Align::Right),
            ("model", Align::Right),
            ("gap", Align::Right),
            ("largest gap (model - server)", Align::Left),
        ]);
        for s in &r.servers {
            for c in &s.comparisons {
                t.row([
                    server_major_minor(&s.server_version),
                    c.case.clone(),
                    c.cache_state.clone(),
                    format!("`{}`", short(&c.variant)),
                    format!("{:.1}", c.server.total_per_tid),
                    c.model.as_ref().map(|x| format!("{:.1}", x.total_per_tid)).unwrap_or_else(|| "-".into()),
                    c.whole_gap().map(|g| format!("{:+.1}%", g * 100.0)).unwrap_or_else(|| "-".into()),
                    c.largest_gap().map(|(g, d)| format!("{} ({d:+.1})", g.split(" (").next().unwrap_or(g))).unwrap_or_default(),
                ]);
            }
        }
        let _ = writeln!(m, "{}", t.render());
    }
    if let Some(t) = alloc_churn_beside(rows_of(p), &p.sweeps) {
        m += &t;
    }
    for w in &p.sweeps {
        let _ = writeln!(m, "### pg / seed 004 partitions / {}\n\npgbench, 1 client, {} s a run, median of {} runs a point alternating between the trim settings.\n", w.server_version, w.seconds, sweep::REPS);
        for c in &w.cliff {
            let at = c.partitions.map(|n| format!("{n} partitions")).unwrap_or_else(|| "none in the grid".into());
            let _ = writeln!(m, "- cliff ({} scans, trim {}): {at}", c.form, c.trim);
        }
        let mut t = Table::new([
            ("partitions", Align::Right),
            ("form", Align::Left),
            ("scan", Align::Left),
            ("TPS trim dynamic", Align::Right),
            ("faults/txn", Align::Right),
            ("TPS trim fixed", Align::Right),
            ("faults/txn ", Align::Right),
            ("fixed/dynamic TPS", Align::Right),
        ]);
        for d in w.points.iter().filter(|p| p.trim == "dynamic") {
            if let Some(f) = w.points.iter().find(|p| p.trim == "fixed" && p.partitions == d.partitions && p.form == d.form) {
                t.row([
                    d.partitions.to_string(),
                    d.form.clone(),
                    d.scan.clone(),
                    format!("{:.0}", d.tps),
                    format!("{:.2}", d.minflt_per_txn),
                    format!("{:.0}", f.tps),
                    format!("{:.2}", f.minflt_per_txn),
                    format!("{:.2}", f.tps / d.tps),
                ]);
            }
        }
        let _ = writeln!(m, "\n{}", t.render());
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(study: &str, case: &str, variant: &str, ratio: f64) -> Row {
        let mut r = Row::plain(study, case, variant, "base", "wall-clock", 10.0, "ns/TID");
        r.ratio = Some(ratio);
        r.ci_low = Some(ratio - 0.01);
        r.ci_high = Some(ratio + 0.01);
        r
    }

    #[test]
    fn needs_follow_the_selected_studies() {
        assert_eq!(needs(&["dir-by-value"]), (vec![], vec![], vec![]));
        let (c, s, g) = needs(&["tid-batch"]);
        assert_eq!((c, s, g.is_empty()), (vec!["btree-many".to_string(), "btree-few".into()], vec!["warm".to_string(), "os-cache".into()], true));
        let (c, _, g) = needs(&["alloc-churn"]);
        assert_eq!((c.len(), g), (0, vec![1, 3, 4, 5, 6, 10, 100]));
    }

    #[test]
    fn fidelity_pairs_model_rows_with_the_servers_cpu_ratio() {
        let pr = |a: &str, b: &str, metric: &str, r: f64| bench::PairResult {
            a: a.into(),
            b: b.into(),
            metric: metric.into(),
            median_ratio: r,
            ci_low: r - 0.02,
            ci_high: r + 0.02,
            verdict: "faster".into(),
        };
        let case = |state: &str, r: f64| bench::CaseResult {
            case: "btree-many".into(),
            cache_state: state.into(),
            query: "q".into(),
            reps: 1,
            rounds: 3,
            settings: vec![],
            result: ("1".into(), 1),
            variants: vec![],
            pairs: vec![pr("tid-batch/per-tid", "tid-batch/batched", "bis", r + 0.05), pr("tid-batch/per-tid", "tid-batch/batched", "cpu", r)],
            aa_floor: (0.01, 0.01),
        };
        let server = bench::PgReport {
            provenance: bench::Provenance {
                server_version: "v".into(),
                pg_config: "p".into(),
                server_source: "s".into(),
                server_configure: "c".into(),
                server_cflags: "f".into(),
                extension_cflags: "f".into(),
                host_cpu: "h".into(),
                kernel: "k".into(),
                rows: 1,
                rounds: 3,
                data: "d".into(),
                unix_time: 0,
                command: "c".into(),
            },
            results: vec![case("warm", 0.64), case("os-cache", 0.68)],
        };
        let rows = vec![
            row("tid-batch", "btree-many", "tid-batch/batched", 0.5),
            row("tid-batch", "btree-many-miss", "tid-batch/batched", 0.6),
            row("tid-batch", "btree-many", "tid-batch/runs", 0.3),
        ];
        let f = fidelity(&rows, Some(&server), None);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!((f[0].case.as_str(), f[0].real_ratio, f[0].real_node_ratio), ("btree-many", 0.64, Some(0.64 + 0.05)));
        assert!((f[0].model_over_real - (0.5 / 0.64 - 1.0)).abs() < 1e-12);
        assert!((f[0].effect_ratio.unwrap() - 0.5 / 0.36).abs() < 1e-12);
        // A server ratio of exactly 1 has no effect to divide by: none, and the row still
        // reads back from JSON (a NaN was written as null, which no reader accepts).
        let mut flat = f[0].clone();
        flat.real_ratio = 1.0;
        flat.effect_ratio = effect_ratio(flat.model_ratio, flat.real_ratio);
        assert_eq!(flat.effect_ratio, None);
        let back: Fidelity = serde_json::from_str(&serde_json::to_string(&flat).unwrap()).unwrap();
        assert_eq!(back, flat);
        assert!(f[1].real.contains("os-cache") && f[1].real_ratio == 0.68);
        let md = markdown(&PgSection { status: "measured".into(), servers: vec![server], sweeps: vec![], fidelity: f, model_sweep: vec![], read_stream: None, dir_by_value: None, instructions: None });
        assert!(md.contains("tid-batch / btree-many-miss / `batched`") && md.contains("-11.8%"), "{md}");
        assert!(fidelity(&rows, None, None).is_empty());
    }

    /// A Pair row's instructions are the model's callgrind rows of its own case and the
    /// server's counts of the same case and cache state (the miss row takes os-cache's).
    #[test]
    fn fidelity_rows_take_the_instructions_of_their_case_and_state() {
        use instructions::{Comparison, InstructionsReport, ServerCounts, Side};
        let side = |n: f64| Side { what: String::new(), tids: 1, total_per_tid: n, functions: vec![] };
        let cmp = |state: &str, v: &str, n: f64| Comparison { case: "btree-many".into(), variant: v.into(), cache_state: state.into(), server: side(n), model: None };
        let counts = InstructionsReport {
            host_cpu: "h".into(),
            command: "c".into(),
            servers: vec![ServerCounts {
                server_version: "postgres (PostgreSQL) 18.6".into(),
                rows: 1,
                comparisons: vec![cmp("warm", "tid-batch/per-tid", 280.0), cmp("warm", "tid-batch/batched", 170.0), cmp("os-cache", "tid-batch/per-tid", 300.0), cmp("os-cache", "tid-batch/batched", 190.0)],
            }],
        };
        let instr = |case: &str, v: &str, n: f64| Row::plain("tid-batch", case, v, "tid-batch/per-tid", "instructions", n, "instr/TID");
        let rows = vec![instr("btree-many", "tid-batch/per-tid", 268.0), instr("btree-many", "tid-batch/batched", 156.0), instr("btree-many-miss", "tid-batch/per-tid", 270.0), instr("btree-many-miss", "tid-batch/batched", 158.0)];
        let fid = |case: &str, server: &str| Fidelity {
            server: server.into(),
            study: "tid-batch".into(),
            case: case.into(),
            variant: "tid-batch/batched".into(),
            baseline: "tid-batch/per-tid".into(),
            model_ratio: 0.6,
            model_ci: None,
            real: String::new(),
            real_ratio: 0.6,
            real_ci: None,
            real_verdict: String::new(),
            real_node_ratio: None,
            instructions: None,
            model_over_real: 0.0,
            effect_ratio: Some(1.0),
        };
        let mut f = vec![fid("btree-many", "18.6"), fid("btree-many-miss", "18.6"), fid("btree-many", "17.11")];
        add_instructions(&mut f, &rows, &counts);
        assert_eq!(f[0].instructions, Some([268.0, 156.0, 280.0, 170.0]));
        assert_eq!(f[1].instructions, Some([270.0, 158.0, 300.0, 190.0]));
        // No counts of 17: nothing made up.
        assert_eq!(f[2].instructions, None);
        let md = markdown(&PgSection { status: "m".into(), servers: vec![], sweeps: vec![], fidelity: f, model_sweep: vec![], read_stream: None, dir_by_value: None, instructions: Some(counts) });
        assert!(md.contains("268 -> 156 (280 -> 170)"), "{md}");
    }

    /// Seed 002's and seed 001's rows come from this host's saved server runs: every server
    /// and io_method with the pair gets a row, with the server's own ratio and interval.
    #[test]
    fn read_stream_and_dir_by_value_rows_take_the_saved_server_runs() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/pg");
        let rs: readstream::ReadStreamRuns = serde_json::from_str(&std::fs::read_to_string(dir.join("pg-read-stream-1m.json")).unwrap()).unwrap();
        let dv: dirbyvalue::DirByValueReport = serde_json::from_str(&std::fs::read_to_string(dir.join("pg-dir-by-value-quick.json")).unwrap()).unwrap();
        let rows = vec![
            row("read-stream", "cold-direct", "read-stream/stream-sync", 0.3),
            row("read-stream", "cold-direct", "read-stream/stream-worker", 0.2),
            row("read-stream", "warm", "read-stream/stream-sync", 0.9),
            row("dir-by-value", "range-15000/0-keys", "dir-by-value/by-value", 0.98),
        ];
        let f = seed_fidelity(&rows, Some(&rs), Some(&dv));
        let find = |case: &str, v: &str, server: &str, io: &str| f.iter().find(|x| x.case == case && x.variant == v && x.server == server && x.real.contains(io));
        // 17 has no io_method: its synchronous stream stands for stream-sync; worker is 18's alone.
        let cold17 = find("cold-direct", "read-stream/stream-sync", "17.11", "io_method none").expect("17's cold row");
        let pair = |server: &str, io: &str, state: &str| {
            let s = rs.servers.iter().find(|s| s.provenance.server_version.contains(server)).unwrap();
            let x = s.results.iter().find(|x| x.io_method == io && x.cache_state == state).unwrap();
            x.measured.pairs.iter().find(|p| p.a == "read-stream/sync-per-page" && p.b == "read-stream/stream" && p.metric == "bis").unwrap().clone()
        };
        assert_eq!(cold17.real_ratio, pair("17.11", "none", "cold").median_ratio);
        assert!((cold17.model_over_real - (0.3 / cold17.real_ratio - 1.0)).abs() < 1e-12);
        assert!(find("cold-direct", "read-stream/stream-worker", "18.6", "io_method worker").is_some());
        assert!(find("cold-direct", "read-stream/stream-worker", "17.11", "").is_none(), "17 has no worker");
        assert_eq!(find("warm", "read-stream/stream-sync", "18.6", "io_method sync").unwrap().real_ratio, pair("18.6", "sync", "os-cache").median_ratio);
        let d = f.iter().find(|x| x.study == "dir-by-value").expect("dir-by-value row");
        let q = dv.servers[0].queries.iter().find(|q| q.range == 15000 && q.scan == "index-only").unwrap();
        let p = q.ratios.iter().find(|p| p.a.ends_with("c-opaque") && p.b.ends_with("c-by-value") && p.metric == "node").unwrap();
        assert_eq!((d.real_ratio, d.real_ci), (p.ratio, Some(p.ci)));
        // No run, no row.
        assert!(seed_fidelity(&rows, None, None).is_empty());
    }

    #[test]
    fn trim_rows_take_the_sweeps_index_only_points() {
        let p = |n: u32, t: &str, form: &str, tps: f64| sweep::Point {
            partitions: n,
            trim: t.into(),
            form: form.into(),
            tps,
            minflt_per_txn: 0.0,
            scan: "Index Only Scan".into(),
        };
        let w = sweep::SweepReport {
            server_version: "v".into(),
            host_cpu: "h".into(),
            seconds: 1,
            points: vec![p(100, "dynamic", sweep::INDEX_ONLY, 500.0), p(100, "fixed", sweep::INDEX_ONLY, 1000.0), p(100, "fixed", sweep::PLAIN, 10.0)],
            cliff: vec![],
            command: "c".into(),
        };
        let f = fidelity(&[row("alloc-churn", "partitions-100", "alloc-churn/palloc-mallopt-trim", 0.6)], None, Some(&w));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].real_ratio, 0.5);
        assert!((f[0].model_over_real - 0.2).abs() < 1e-12);
        let cliff = vec![sweep::Cliff { form: sweep::PLAIN.into(), trim: "dynamic".into(), partitions: Some(6) }];
        let md = markdown(&PgSection { status: "measured".into(), servers: vec![], sweeps: vec![sweep::SweepReport { cliff, ..w }], fidelity: f, model_sweep: vec![], read_stream: None, dir_by_value: None, instructions: None });
        assert!(md.contains("- cliff (index scans, trim dynamic): 6 partitions"), "{md}");
        let squeezed = md.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(squeezed.contains("| 100 | index-only | Index Only Scan | 500 | 0.00 | 1000 | 0.00 | 2.00 |"), "{md}");
    }

    /// Each scan form's model figures stand beside the same form's server figures, a row per
    /// partition count (every case repeats the seed's 100), and a report whose model had no
    /// plain scans says so rather than borrowing the index-only cliff.
    #[test]
    fn the_model_sweep_stands_beside_the_servers_form_by_form() {
        let p = |n: u32, form: &str, f: f64| sweep::Point { partitions: n, trim: "dynamic".into(), form: form.into(), tps: 1.0, minflt_per_txn: f, scan: "s".into() };
        let cliff = |form: &str, n: u32| sweep::Cliff { form: form.into(), trim: "dynamic".into(), partitions: Some(n) };
        let w = sweep::SweepReport {
            server_version: "postgres (PostgreSQL) 15.20".into(),
            host_cpu: "h".into(),
            seconds: 1,
            points: vec![p(4, sweep::INDEX_ONLY, 3.0), p(100, sweep::INDEX_ONLY, 299.0), p(4, sweep::PLAIN, 0.0), p(100, sweep::PLAIN, 358.0)],
            cliff: vec![cliff(sweep::INDEX_ONLY, 4), cliff(sweep::PLAIN, 6)],
            command: "c".into(),
        };
        let r = |metric: &str, value: f64| ModelSweepRow { variant: "alloc-churn/palloc-routine".into(), metric: metric.into(), value };
        let index_only = vec![r("sweep:cliff-partitions", 4.0), r("sweep:minor-faults-per-query@4", 4.0), r("sweep:minor-faults-per-query@100", 600.0), r("sweep:minor-faults-per-query@100", 600.0)];
        let mut both = index_only.clone();
        both.extend([r("sweep:index-scan:cliff-partitions", 5.0), r("sweep:index-scan:minor-faults-per-query@4", 0.0), r("sweep:index-scan:minor-faults-per-query@100", 496.0)]);
        let squeeze = |m: &str| m.split_whitespace().collect::<Vec<_>>().join(" ");
        let md = squeeze(&alloc_churn_beside(&both, std::slice::from_ref(&w)).unwrap());
        assert!(md.contains("| 15.20 | index-only | 4 | 4 | 100 | 600.0 | 299.0 | +101% |"), "{md}");
        assert!(md.contains("| 15.20 | index | 5 | 6 | 100 | 496.0 | 358.0 | +39% |"), "{md}");
        assert!(md.contains("| 15.20 | index | 5 | 6 | 4 | 0.0 | 0.0 | n/a (server 0) |"), "{md}");
        assert_eq!(md.matches("| 100 |").count(), 2, "one row a form and partition count: {md}");
        let md = squeeze(&alloc_churn_beside(&index_only, &[w]).unwrap());
        assert!(!md.contains("| 15.20 | index |"), "{md}");
        assert!(md.contains("The model has no index-scan sweep in this report"), "{md}");
    }
}
