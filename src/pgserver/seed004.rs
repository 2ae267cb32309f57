//! Seed 004 as the thread measured it: pgbench at scale 1 over N partitions
//! (sql/seed004-partitions.sql, with and without the index on `bid`), the seed's query, on the
//! servers given (PostgreSQL 17 then 18 by default) in one run. Each server runs in its own
//! throwaway cluster, plus an A/A copy of the last one; in every round each (protocol, clients)
//! combination runs once on every cluster, one after another in an order rotated by round, so
//! drift hits all alike. Per setup (partitions, index, protocol, clients) and glibc arm:
//! TPS per run, the ratio of paired rounds (later server over the first) with a bootstrap 95%
//! interval judged against the A/A pair's floor, minor faults a transaction (the backend's
//! `/proc/PID/stat` over a steady-state stretch of queries) and brk/mmap/munmap calls a
//! transaction (`strace -c` attached to that backend, where strace is installed). The glibc
//! arms set `MALLOC_TRIM_THRESHOLD_`, `MALLOC_TOP_PAD_` or both the trim and
//! `MALLOC_MMAP_THRESHOLD_` in the postmaster's environment.
//!
//! And who allocates: one query at 100 partitions with the index, per server, in a backend
//! under pgext/hl_alloctrace (an LD_PRELOAD malloc tracer in the postmaster's environment):
//! every malloc-family call of 4 KiB or more with the function that made it, and the heap's
//! high-water mark, grows and trims per query.

use super::bench::{floor_of, pair_stats};
use super::cluster::Cluster;
use super::single::Symbols;
use super::{Install, SEED004_PARTITIONS, SEED004_QUERY, UsageError, cpu_name, extension_sql};
use crate::measure::stats::median;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// glibc settings set in the postmaster's environment: (arm, variables).
pub const ARMS: [(&str, &[(&str, &str)]); 4] = [
    ("plain", &[]),
    ("trim", &[("MALLOC_TRIM_THRESHOLD_", "67108864")]),
    ("top-pad", &[("MALLOC_TOP_PAD_", "67108864")]),
    ("trim-mmap", &[("MALLOC_TRIM_THRESHOLD_", "67108864"), ("MALLOC_MMAP_THRESHOLD_", "33554432")]),
];
/// Partition counts of the quick grid.
pub const QUICK_GRID: [u32; 4] = [1, 4, 8, 100];
/// Partition counts of the full grid.
pub const FULL_GRID: [u32; 10] = [1, 2, 3, 4, 5, 6, 8, 20, 100, 200];
/// pgbench protocols.
pub const PROTOCOLS: [&str; 2] = ["simple", "prepared"];
/// Clients.
pub const CLIENTS: [u32; 2] = [1, 4];
/// Queries a fault and syscall count spans (after as many to warm the backend).
const COUNT_QUERIES: usize = 200;
/// Partitions of the who-allocates query.
pub const WHO_PARTITIONS: u32 = 100;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Partition counts.
    pub grid: Vec<u32>,
    /// With the index on `bid` (true), without (false).
    pub index: Vec<bool>,
    /// `simple`, `prepared`.
    pub protocols: Vec<String>,
    /// Client counts.
    pub clients: Vec<u32>,
    /// Arms of [`ARMS`].
    pub arms: Vec<String>,
    /// Seconds of each pgbench run.
    pub seconds: u64,
    /// Rounds.
    pub rounds: usize,
    /// Run the who-allocates trace.
    pub who_allocates: bool,
}

impl Config {
    /// The quick or full defaults.
    pub fn defaults(quick: bool) -> Self {
        Config {
            grid: if quick { QUICK_GRID.to_vec() } else { FULL_GRID.to_vec() },
            index: vec![true, false],
            protocols: PROTOCOLS.iter().map(|p| p.to_string()).collect(),
            clients: CLIENTS.to_vec(),
            arms: ARMS.iter().map(|a| a.0.to_string()).collect(),
            seconds: if quick { 1 } else { 5 },
            rounds: if quick { 4 } else { 7 },
            who_allocates: true,
        }
    }

    /// Usage errors before any work: unknown arms and protocols, zero counts.
    pub fn check(&self) -> Result<()> {
        let usage = |m: String| -> Result<()> { Err(UsageError(m).into()) };
        if let Some(a) = self.arms.iter().find(|a| !ARMS.iter().any(|x| x.0 == a.as_str())) {
            return usage(format!("--arm {a}: valid arms are {}", ARMS.iter().map(|a| a.0).collect::<Vec<_>>().join(", ")));
        }
        if let Some(p) = self.protocols.iter().find(|p| !PROTOCOLS.contains(&p.as_str())) {
            return usage(format!("--protocol {p}: valid protocols are {}", PROTOCOLS.join(", ")));
        }
        if self.grid.is_empty() || self.grid.contains(&0) || self.grid.iter().any(|&n| n > super::MAX_PARTITIONS) {
            return usage(format!("--grid: partition counts from 1 to {}", super::MAX_PARTITIONS));
        }
        if self.clients.is_empty() || self.clients.contains(&0) || self.clients.iter().any(|&c| c > super::MAX_CLIENTS) {
            return usage(format!("--clients: from 1 to {}", super::MAX_CLIENTS));
        }
        if self.seconds == 0 || self.rounds < 2 {
            return usage("--seconds must be at least 1 and --rounds at least 2".into());
        }
        if self.arms.is_empty() || self.protocols.is_empty() || self.index.is_empty() {
            return usage("nothing to run: give at least one arm, protocol and index setting".into());
        }
        Ok(())
    }
}

/// One cluster of the run: a server, or the A/A copy of one.
struct Slot {
    /// `17.11`, `18.6`, `18.6#2`.
    label: String,
    inst: Install,
    cluster: Cluster,
}

/// A server's figures in one setup and arm.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ServerRuns {
    /// `17.11`; the A/A copy `18.6#2`.
    pub server: String,
    /// `postgres --version`.
    pub version: String,
    /// TPS of each round's run (without initial connection time).
    pub tps: Vec<f64>,
    /// Median TPS.
    pub median_tps: f64,
    /// Minor faults a transaction of a warm backend (`/proc/PID/stat`).
    pub minflt_per_txn: f64,
    /// brk calls a transaction (strace -c), when strace ran.
    pub brk_per_txn: Option<f64>,
    /// mmap calls a transaction.
    pub mmap_per_txn: Option<f64>,
    /// munmap calls a transaction.
    pub munmap_per_txn: Option<f64>,
    /// The plan's scan nodes (`Index Only Scan x100`).
    pub scan: String,
}

/// One setup and arm: the runs of each server (the A/A copy last), the later server's TPS
/// ratio over the baseline's with its interval and verdict, and the A/A floor.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// Partitions.
    pub partitions: u32,
    /// Whether `pgbench_accounts(bid)` has an index.
    pub index_on_bid: bool,
    /// pgbench -M.
    pub protocol: String,
    /// pgbench -c (and -j).
    pub clients: u32,
    /// glibc arm ([`ARMS`]).
    pub arm: String,
    /// The environment the arm set.
    pub arm_env: Vec<(String, String)>,
    /// Per server, the A/A copy last.
    pub servers: Vec<ServerRuns>,
    /// The compared pair: (baseline server, later server).
    pub pair: (String, String),
    /// Median of the paired rounds' TPS ratios later / baseline (< 1: the later server is slower).
    pub ratio: f64,
    /// 95% bootstrap interval of that median.
    pub ci_low: f64,
    /// 95% bootstrap interval of that median.
    pub ci_high: f64,
    /// `faster`, `slower` (the later server's TPS) or `not resolved`.
    pub verdict: String,
    /// The A/A pair's median ratio.
    pub aa_ratio: f64,
    /// The A/A floor.
    pub aa_floor: f64,
}

/// One allocation site of a query.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Site {
    /// The function that allocated, then its callers (allocator frames skipped).
    pub owner: Vec<String>,
    /// Bytes asked of malloc.
    pub size: u64,
    /// Calls a query.
    pub count: u64,
    /// Served with mmap (at or above glibc's mmap threshold at the time).
    pub mmapped: bool,
}

/// Who allocates in one server's query.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WhoAllocates {
    /// Server.
    pub server: String,
    /// Arm.
    pub arm: String,
    /// Partitions (with the index on bid).
    pub partitions: u32,
    /// Queries traced after the warm-up (each its own segment).
    pub queries: usize,
    /// Whether every traced query made the same allocations (sizes and counts).
    pub steady: bool,
    /// Heap high-water mark over the query's start, bytes (program break).
    pub heap_hwm_bytes: u64,
    /// Program-break grows a query.
    pub brk_grows: u64,
    /// Program-break trims a query.
    pub brk_trims: u64,
    /// Chunks served by mmap, and munmap'd, a query.
    pub mmaps: u64,
    /// munmap'd chunks a query.
    pub munmaps: u64,
    /// glibc's mmap threshold when the query began, as its free() set it since the backend's
    /// (and the postmaster's) start; 0: fixed by a MALLOC_*_ variable.
    pub mmap_threshold: u64,
    /// glibc's trim threshold likewise (twice the mmap threshold once it moved).
    pub trim_threshold: u64,
    /// The heap's size (mallinfo2 arena) when the query began.
    pub heap_bytes_at_start: u64,
    /// Free bytes inside the heap (mallinfo2 fordblks) when the query began.
    pub free_bytes_at_start: u64,
    /// Allocations of at least 4 KiB, largest total first.
    pub sites: Vec<Site>,
    /// Whether any site's stack passes through the IndexAmRoutine code
    /// (bthandler, GetIndexAmRoutine*, InitIndexAmRoutine).
    pub index_am_routine: bool,
}

/// The run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Seed004Report {
    /// Per server: `postgres --version`, pg_config, `pg_config --configure`, CFLAGS, source.
    pub servers: Vec<BTreeMap<String, String>>,
    /// Host CPU.
    pub host_cpu: String,
    /// `uname -sr`.
    pub kernel: String,
    /// glibc version.
    pub glibc: String,
    /// Seconds a run.
    pub seconds: u64,
    /// Rounds.
    pub rounds: usize,
    /// Where the syscall counts came from.
    pub syscalls_from: String,
    /// One per setup and arm.
    pub records: Vec<Record>,
    /// Per server and arm.
    pub who_allocates: Vec<WhoAllocates>,
    /// The command line.
    pub command: String,
}

fn glibc_version() -> String {
    // SAFETY: gnu_get_libc_version returns a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) }.to_string_lossy().into_owned()
}
unsafe extern "C" {
    fn gnu_get_libc_version() -> *const std::ffi::c_char;
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
}

/// The plan's scan nodes, counted: `Index Only Scan x100`.
fn scan_nodes(c: &Cluster) -> Result<String> {
    let out = c.sql(&format!("EXPLAIN (FORMAT JSON) {SEED004_QUERY}"), &[])?;
    let v: serde_json::Value = serde_json::from_str(out.trim()).context("EXPLAIN's JSON")?;
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    fn walk(p: &serde_json::Value, found: &mut BTreeMap<String, usize>) {
        if let Some(t) = p.get("Node Type").and_then(|t| t.as_str())
            && t.contains("Scan")
        {
            *found.entry(t.to_string()).or_default() += 1;
        }
        if let Some(ps) = p.get("Plans").and_then(|p| p.as_array()) {
            ps.iter().for_each(|q| walk(q, found));
        }
    }
    walk(&v[0]["Plan"], &mut found);
    Ok(found.iter().map(|(k, n)| format!("{k} x{n}")).collect::<Vec<_>>().join(" + "))
}

/// One pgbench run: TPS without the initial connection time.
fn pgbench(slot: &Slot, script: &Path, protocol: &str, clients: u32, seconds: u64) -> Result<f64> {
    super::bench::pgbench_tps(&slot.inst, &slot.cluster, script, None, protocol, clients, seconds, &format!("on {}", slot.label))
}

/// Faults and syscalls a transaction of a warm backend running the seed's query under
/// `protocol` (`prepared`: PREPARE once, then EXECUTE, as pgbench -M prepared plans once).
fn counts(slot: &Slot, protocol: &str, strace: Option<&Path>) -> Result<(f64, Option<(f64, f64, f64)>)> {
    let mut s = slot.cluster.session()?;
    let pid: i32 = s.query("SELECT pg_backend_pid();")?.trim().parse().context("pg_backend_pid")?;
    let q = SEED004_QUERY.trim().trim_end_matches(';');
    let one = if protocol == "prepared" {
        s.query(&format!("PREPARE hl_q AS {q};"))?;
        "EXECUTE hl_q;\n".to_string()
    } else {
        format!("{q};\n")
    };
    let batch = one.repeat(COUNT_QUERIES);
    s.query(&batch)?;
    let before = super::cluster::minflt(pid)?;
    s.query(&batch)?;
    let faults = (super::cluster::minflt(pid)? - before) / COUNT_QUERIES as f64;
    let sys = match strace {
        None => None,
        Some(st) => {
            let dir = super::proc::Scratch::new(&std::env::temp_dir(), "hotloops-strace-")?;
            let file = dir.path().join("strace.txt");
            let (mut child, _t) = super::proc::spawn(
                Command::new(st)
                    .args(["-c", "-e", "trace=brk,mmap,munmap", "-o"])
                    .arg(&file)
                    .arg("-p")
                    .arg(pid.to_string())
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped()),
            )?;
            // strace says "Process N attached" once it traces.
            let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
            let mut line = String::new();
            std::io::BufRead::read_line(&mut err, &mut line)?;
            if !line.contains("attached") {
                let _ = child.kill();
                let _ = child.wait();
                bail!("strace could not attach to the backend: {}", line.trim());
            }
            s.query(&batch)?;
            // SAFETY: SIGINT to our own strace child, which then detaches and writes its table.
            unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
            child.wait()?;
            let table = std::fs::read_to_string(&file).unwrap_or_default();
            let calls = |name: &str| -> f64 {
                table
                    .lines()
                    .find(|l| l.split_whitespace().last() == Some(name))
                    .and_then(|l| {
                        let f: Vec<&str> = l.split_whitespace().collect();
                        // % time, seconds, usecs/call, calls, [errors,] syscall
                        f.get(3).and_then(|x| x.parse::<f64>().ok())
                    })
                    .unwrap_or(0.0)
                    / COUNT_QUERIES as f64
            };
            Some((calls("brk"), calls("mmap"), calls("munmap")))
        }
    };
    Ok((faults, sys))
}

fn arm_env(arm: &str) -> Vec<(String, String)> {
    ARMS.iter().find(|a| a.0 == arm).map(|a| a.1.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()).unwrap_or_default()
}

/// Run the grid on `servers` (at least two; the A/A copy is of the last).
pub fn run(servers: &[(Install, PathBuf)], cfg: &Config) -> Result<Seed004Report> {
    cfg.check()?;
    if servers.len() < 2 {
        return Err(UsageError("seed 004 compares servers: give two or more with --server (default 17 and 18)".into()).into());
    }
    for (i, _) in servers {
        if !i.bin("pgbench").is_file() {
            return Err(UsageError(format!("pgbench is missing from {}: reinstall that server (scripts/install-pg.sh {})", i.bindir.display(), i.major)).into());
        }
    }
    let strace = which("strace");
    let syscalls_from = match &strace {
        Some(p) => format!("strace -c -e trace=brk,mmap,munmap attached to a warm backend over {COUNT_QUERIES} queries ({})", p.display()),
        None => "not counted: strace is not installed (apt-get install strace)".into(),
    };
    crate::say!("seed 004: syscalls {syscalls_from}");
    let mut slots: Vec<Slot> = Vec::new();
    let last = servers.len() - 1;
    for (inst, so) in servers.iter().chain(std::iter::once(&servers[last])) {
        let label = if slots.iter().any(|s| s.label == inst.short_version) { format!("{}#2", inst.short_version) } else { inst.short_version.clone() };
        let mut cluster = Cluster::init(inst, so)?;
        cluster.start(&super::seed004_settings())?;
        cluster.sql(&extension_sql(), &[]).context("creating the hl_btree objects")?;
        std::fs::write(cluster.root().join("seed004-query.sql"), SEED004_QUERY)?;
        crate::say!("seed 004: {label} in {}", cluster.root().display());
        slots.push(Slot { label, inst: inst.clone(), cluster });
    }
    let combos: Vec<(String, u32)> = cfg.protocols.iter().flat_map(|p| cfg.clients.iter().map(move |c| (p.clone(), *c))).collect();
    let mut records = Vec::new();
    let setups: Vec<(u32, bool)> = cfg.grid.iter().flat_map(|&n| cfg.index.iter().map(move |&i| (n, i))).collect();
    for (si, &(n, index)) in setups.iter().enumerate() {
        for s in slots.iter_mut() {
            if s.cluster.pid().is_none() {
                s.cluster.env.clear();
                s.cluster.start(&super::seed004_settings())?;
            }
            s.cluster
                .sql(SEED004_PARTITIONS, &[("partitions", n.to_string()), ("bid_index", if index { "on" } else { "off" }.to_string())])
                .context("loading sql/seed004-partitions.sql")?;
        }
        for arm in &cfg.arms {
            let env = arm_env(arm);
            for s in slots.iter_mut() {
                s.cluster.stop();
                s.cluster.env = env.clone();
                s.cluster.start(&super::seed004_settings())?;
            }
            let mut scans = Vec::new();
            let mut counted = Vec::new();
            for s in &slots {
                scans.push(scan_nodes(&s.cluster)?);
                // A discarded run per cluster: the OS's and the server's caches of this setup.
                pgbench(s, &s.cluster.root().join("seed004-query.sql"), "simple", 1, 1)?;
                let mut per_proto = Vec::new();
                for p in &cfg.protocols {
                    per_proto.push(counts(s, p, strace.as_deref())?);
                }
                counted.push(per_proto);
            }
            let mut tps = vec![vec![Vec::new(); slots.len()]; combos.len()];
            for r in 0..cfg.rounds {
                for (k, (proto, clients)) in combos.iter().enumerate() {
                    for j in 0..slots.len() {
                        let i = (j + r + k) % slots.len();
                        let s = &slots[i];
                        tps[k][i].push(pgbench(s, &s.cluster.root().join("seed004-query.sql"), proto, *clients, cfg.seconds)?);
                    }
                }
                crate::host::progress(
                    format_args!("seed 004 [{}/{}] {n} partitions, index {}, arm {arm}: round {}/{}", si + 1, setups.len(), if index { "on" } else { "off" }, r + 1, cfg.rounds),
                    r + 1 == cfg.rounds,
                );
            }
            for (k, (proto, clients)) in combos.iter().enumerate() {
                let pi = cfg.protocols.iter().position(|p| p == proto).unwrap();
                let runs: Vec<ServerRuns> = slots
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let (faults, sys) = counted[i][pi];
                        ServerRuns {
                            server: s.label.clone(),
                            version: s.inst.version.clone(),
                            tps: tps[k][i].clone(),
                            median_tps: median(&tps[k][i]),
                            minflt_per_txn: faults,
                            brk_per_txn: sys.map(|x| x.0),
                            mmap_per_txn: sys.map(|x| x.1),
                            munmap_per_txn: sys.map(|x| x.2),
                            scan: scans[i].clone(),
                        }
                    })
                    .collect();
                let aa_i = slots.len() - 1;
                let (base, later) = (0, slots.len() - 2);
                let ratios = |a: usize, b: usize| -> Vec<f64> { (0..cfg.rounds).map(|r| tps[k][b][r] / tps[k][a][r].max(1e-9)).collect() };
                let aa = pair_stats(&slots[later].label, &slots[aa_i].label, "tps", &ratios(later, aa_i), None);
                let floor = floor_of(&aa);
                let p = pair_stats(&slots[base].label, &slots[later].label, "tps", &ratios(base, later), Some(floor));
                // pair_stats judges a time ratio (< 1 faster); this is a TPS ratio.
                let verdict = match p.verdict.as_str() {
                    "faster" => "slower",
                    "slower" => "faster",
                    v => v,
                }
                .to_string();
                records.push(Record {
                    partitions: n,
                    index_on_bid: index,
                    protocol: proto.clone(),
                    clients: *clients,
                    arm: arm.clone(),
                    arm_env: env.clone(),
                    servers: runs,
                    pair: (slots[base].label.clone(), slots[later].label.clone()),
                    ratio: p.median_ratio,
                    ci_low: p.ci_low,
                    ci_high: p.ci_high,
                    verdict,
                    aa_ratio: aa.median_ratio,
                    aa_floor: floor,
                });
            }
        }
    }
    let mut who = Vec::new();
    if cfg.who_allocates {
        for s in slots.iter_mut().filter(|s| !s.label.ends_with("#2")) {
            for arm in ["plain", "trim"] {
                who.push(who_allocates(s, arm)?);
            }
        }
    }
    let kernel = crate::host::provenance::kernel();
    Ok(Seed004Report {
        servers: servers
            .iter()
            .map(|(i, so)| {
                BTreeMap::from([
                    ("version".to_string(), i.version.clone()),
                    ("pg_config".into(), i.pg_config.display().to_string()),
                    ("configure".into(), i.configure.clone()),
                    ("cflags".into(), i.cflags.clone()),
                    ("source".into(), i.source.clone()),
                    ("extension_compile".into(), super::extension_compile_line(so)),
                ])
            })
            .collect(),
        host_cpu: cpu_name(),
        kernel,
        glibc: glibc_version(),
        seconds: cfg.seconds,
        rounds: cfg.rounds,
        syscalls_from,
        records,
        who_allocates: who,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    })
}

/// Frames that only pass an allocation on (malloc, palloc, AllocSet, ...): the owner is the
/// first frame after them.
fn allocator_frame(name: &str) -> bool {
    const PREFIXES: [&str; 9] = ["AllocSet", "Generation", "Slab", "Bump", "MemoryContext", "palloc", "repalloc", "__libc_", "hl_alloctrace"];
    const NAMES: [&str; 8] = ["malloc", "calloc", "realloc", "free", "pstrdup", "pnstrdup", "memalign", "posix_memalign"];
    PREFIXES.iter().any(|p| name.starts_with(p)) || NAMES.contains(&name)
}

/// One traced segment: (label, figures of its Q line, allocation lines).
type Segment = (String, [u64; 11], Vec<String>);

/// Parse the tracer's file into segments (M lines belong to the Q line after them).
pub fn parse_trace(text: &str) -> Result<Vec<Segment>> {
    let mut segs = Vec::new();
    let mut lines = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("Q ") {
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() != 12 {
                bail!("malformed trace line {l:?}");
            }
            let mut x = [0u64; 11];
            for (i, v) in f[1..].iter().enumerate() {
                x[i] = v.parse().with_context(|| format!("malformed trace line {l:?}"))?;
            }
            segs.push((f[0].to_string(), x, std::mem::take(&mut lines)));
        } else if l.starts_with("M ") {
            lines.push(l.to_string());
        } else if !l.trim().is_empty() {
            bail!("malformed trace line {l:?}");
        }
    }
    Ok(segs)
}

/// Sites of one segment: allocations grouped by (owner chain, size, mmapped).
pub fn sites(lines: &[String], syms: &mut Symbols) -> Vec<Site> {
    let mut by: BTreeMap<(Vec<String>, u64, bool), u64> = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 3 {
            continue;
        }
        let size: u64 = f[1].parse().unwrap_or(0);
        let mmapped = f[2] == "1";
        let names: Vec<String> = f[3..].iter().map(|fr| syms.frame(fr)).collect();
        let owner: Vec<String> = names.iter().skip_while(|n| allocator_frame(n)).take(3).cloned().collect();
        *by.entry((owner, size, mmapped)).or_default() += 1;
    }
    let mut v: Vec<Site> = by.into_iter().map(|((owner, size, mmapped), count)| Site { owner, size, count, mmapped }).collect();
    v.sort_by(|a, b| (b.size * b.count).cmp(&(a.size * a.count)).then(a.owner.cmp(&b.owner)));
    v
}

/// The seed's query at [`WHO_PARTITIONS`] partitions (index on bid) in a backend of `slot`'s
/// server started with the allocation tracer preloaded and the arm's environment: a regular
/// backend, as pgbench's, since the heap's movements depend on what the process did before
/// (a single-user backend, which bootstrapped in the same process, grows its heap differently).
fn who_allocates(slot: &mut Slot, arm: &str) -> Result<WhoAllocates> {
    let c = &mut slot.cluster;
    let tracer = c.lib_dir.join("hl_alloctrace.so");
    if !tracer.is_file() {
        bail!("{} is missing (the extension build makes it)", tracer.display());
    }
    let trace = c.root().join(format!("alloctrace-{arm}.txt"));
    // The file is written by the backend, which runs as the cluster's owner.
    std::fs::write(&trace, "")?;
    c.run_as().chown_tree(&trace)?;
    c.stop();
    c.env = vec![("LD_PRELOAD".to_string(), tracer.display().to_string()), ("HL_ALLOCTRACE".into(), trace.display().to_string())];
    c.env.extend(arm_env(arm));
    c.start(&super::seed004_settings())?;
    c.sql(SEED004_PARTITIONS, &[("partitions", WHO_PARTITIONS.to_string()), ("bid_index", "on".into())])?;
    let q = SEED004_QUERY.trim();
    let traced = 3;
    {
        let mut s = c.session()?;
        s.query(&format!("{q}\n").repeat(20))?;
        for k in 1..=traced {
            s.query(&format!("SELECT hl_alloctrace_mark('q{k}');\n{q}"))?;
        }
        s.query("SELECT hl_alloctrace_mark('end');")?;
    }
    c.stop();
    c.env.clear();
    let segs = parse_trace(&std::fs::read_to_string(&trace).with_context(|| format!("reading {}", trace.display()))?)
        .with_context(|| format!("parsing {}", trace.display()))?;
    let mut syms = Symbols::default();
    let queries: Vec<&Segment> = segs.iter().filter(|s| s.0.starts_with('q')).collect();
    if queries.len() != traced {
        bail!("the trace {} has {} query segments, expected {traced}", trace.display(), queries.len());
    }
    let per: Vec<Vec<Site>> = queries.iter().map(|s| sites(&s.2, &mut syms)).collect();
    // Alike: the same sizes and counts (which frame overflowed a memory context's block, and so
    // shows as its owner, may differ from query to query).
    let sizes = |v: &[Site]| {
        let mut m: BTreeMap<u64, u64> = BTreeMap::new();
        v.iter().for_each(|s| *m.entry(s.size).or_default() += s.count);
        m
    };
    let steady = per.windows(2).all(|w| sizes(&w[0]) == sizes(&w[1]));
    let last = queries.last().unwrap();
    let x = last.1;
    let all_names: Vec<String> = last.2.iter().flat_map(|l| l.split_whitespace().skip(3).map(|f| syms.frame(f)).collect::<Vec<_>>()).collect();
    let index_am_routine = all_names.iter().any(|n| n == "bthandler" || n.starts_with("GetIndexAmRoutine") || n == "InitIndexAmRoutine");
    Ok(WhoAllocates {
        server: slot.label.clone(),
        arm: arm.into(),
        partitions: WHO_PARTITIONS,
        queries: traced,
        steady,
        heap_hwm_bytes: x[1].saturating_sub(x[0]),
        brk_grows: x[3],
        brk_trims: x[4],
        mmaps: x[5],
        munmaps: x[6],
        mmap_threshold: x[7],
        trim_threshold: x[8],
        heap_bytes_at_start: x[9],
        free_bytes_at_start: x[10],
        sites: per.last().unwrap().clone(),
        index_am_routine,
    })
}

fn ci(r: &Record) -> String {
    format!("{:.2} [{:.2}, {:.2}]", r.ratio, r.ci_low, r.ci_high)
}

fn opt(x: Option<f64>) -> String {
    x.map(|v| format!("{v:.1}")).unwrap_or_else(|| "-".into())
}

/// The headline of one setup: is the regression there, how large, what removes it.
pub fn headline(r: &Seed004Report, n: u32, index: bool, protocol: &str, clients: u32) -> Option<String> {
    let of = |arm: &str| r.records.iter().find(|x| x.partitions == n && x.index_on_bid == index && x.protocol == protocol && x.clients == clients && x.arm == arm);
    let plain = of("plain")?;
    let (a, b) = &plain.pair;
    let mut s = format!(
        "{n} partitions, {} index on bid, {protocol}, {clients} client(s): {b}/{a} TPS {} (A/A ±{:.1}%): ",
        if index { "with the" } else { "no" },
        ci(plain),
        plain.aa_floor * 100.0
    );
    s += match plain.verdict.as_str() {
        "slower" => "a regression",
        "faster" => "faster, no regression",
        _ => "not resolved, no regression shown",
    };
    let base_tps = plain.servers.first().map(|x| x.median_tps).unwrap_or(0.0);
    let fixes: Vec<String> = ARMS[1..]
        .iter()
        .filter_map(|(arm, _)| {
            let x = of(arm)?;
            let later = x.servers.iter().find(|s| &s.server == b)?;
            let over_base_plain = later.median_tps / base_tps.max(1e-9);
            (x.verdict != "slower").then(|| format!("{arm} ({b}/{a} {}, {b} {arm} / {a} plain {:.2}x)", ci(x), over_base_plain))
        })
        .collect();
    if plain.verdict == "slower" {
        if fixes.is_empty() {
            s += "; no glibc arm removes it";
        } else {
            s += &format!("; removed by {}", fixes.join(", "));
        }
    }
    Some(s)
}

/// The report as Markdown.
pub fn markdown(r: &Seed004Report) -> String {
    use std::fmt::Write as _;
    let mut m = String::from("# hotloops pg --seed 004: the skip-scan regression on the servers it is about\n\n");
    for s in &r.servers {
        let _ = writeln!(m, "- server {} (`{}`; {}): configure `{}`; CFLAGS `{}`; extension `{}`", s["version"], s["pg_config"], s["source"], s["configure"], s["cflags"], s["extension_compile"]);
    }
    let _ = writeln!(
        m,
        "- host: {}; {}; glibc {}\n- pgbench scale 1, the seed's query `{}`, {} s a run, {} rounds, clusters interleaved round by round (orders rotated), an A/A copy of the last server; syscalls: {}\n- command: `{}`\n",
        r.host_cpu,
        r.kernel,
        r.glibc,
        SEED004_QUERY.trim(),
        r.seconds,
        r.rounds,
        r.syscalls_from,
        r.command
    );
    m += "Ratios are the later server's TPS over the first's in paired rounds (< 1: the later server is slower), median with a percentile-bootstrap 95% interval; resolved when the interval excludes 1 and the effect exceeds the A/A floor (the later server against its own copy).\n\n## Headlines\n\n";
    let mut seen = Vec::new();
    for x in &r.records {
        let key = (x.partitions, x.index_on_bid, x.protocol.clone(), x.clients);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        if let Some(h) = headline(r, x.partitions, x.index_on_bid, &x.protocol, x.clients) {
            let _ = writeln!(m, "- {h}");
        }
    }
    m += "\n## Every setup and arm\n\n| partitions | index on bid | protocol | clients | arm | scan | TPS per server (median) | ratio [95% CI] | verdict | A/A | faults/txn | brk/txn | mmap/txn | munmap/txn |\n|---:|---|---|---:|---|---|---|---|---|---:|---|---|---|---|\n";
    for x in &r.records {
        let per = |f: &dyn Fn(&ServerRuns) -> String| x.servers.iter().map(|s| format!("{} {}", s.server, f(s))).collect::<Vec<_>>().join(" / ");
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | ±{:.1}% | {} | {} | {} | {} |",
            x.partitions,
            if x.index_on_bid { "yes" } else { "no" },
            x.protocol,
            x.clients,
            x.arm,
            x.servers.last().map(|s| s.scan.as_str()).unwrap_or(""),
            per(&|s| format!("{:.0}", s.median_tps)),
            ci(x),
            x.verdict,
            x.aa_floor * 100.0,
            per(&|s| format!("{:.1}", s.minflt_per_txn)),
            per(&|s| opt(s.brk_per_txn)),
            per(&|s| opt(s.mmap_per_txn)),
            per(&|s| opt(s.munmap_per_txn)),
        );
    }
    if !r.who_allocates.is_empty() {
        let _ = writeln!(m, "\n## Who allocates ({WHO_PARTITIONS} partitions, index on bid; a warm backend under pgext/hl_alloctrace, every malloc of 4 KiB or more)\n");
        for w in &r.who_allocates {
            let _ = writeln!(
                m,
                "### {} / {}\n\nPer query ({} traced, {}): heap high-water mark {:.2} MiB over the query's start, {} brk grows and {} trims, {} mmap'd chunks ({} munmap'd); {:.0} KiB malloc'd in chunks of 4 KiB or more. At the query's start: a {:.2} MiB heap with {:.2} MiB free, glibc's thresholds {}. IndexAmRoutine code among the allocating stacks: {}.\n",
                w.server,
                w.arm,
                w.queries,
                if w.steady { "every one with the same sizes and counts" } else { "not all alike: the last shown" },
                w.heap_hwm_bytes as f64 / 1048576.0,
                w.brk_grows,
                w.brk_trims,
                w.mmaps,
                w.munmaps,
                w.sites.iter().map(|s| s.size * s.count).sum::<u64>() as f64 / 1024.0,
                w.heap_bytes_at_start as f64 / 1048576.0,
                w.free_bytes_at_start as f64 / 1048576.0,
                if w.mmap_threshold == 0 { "fixed by the arm's variables".to_string() } else { format!("mmap {} KiB, trim {} KiB (dynamic)", w.mmap_threshold / 1024, w.trim_threshold / 1024) },
                if w.index_am_routine { "yes" } else { "no" }
            );
            m += "| allocating function <- callers | bytes | calls a query | total KiB | mmap |\n|---|---:|---:|---:|---|\n";
            for s in w.sites.iter().take(15) {
                let _ = writeln!(m, "| {} | {} | {} | {:.0} | {} |", s.owner.join(" <- "), s.size, s.count, (s.size * s.count) as f64 / 1024.0, if s.mmapped { "yes" } else { "" });
            }
            if w.sites.len() > 15 {
                let rest: u64 = w.sites[15..].iter().map(|s| s.size * s.count).sum();
                let _ = writeln!(m, "| ({} more sites) | | | {:.0} | |", w.sites.len() - 15, rest as f64 / 1024.0);
            }
            m += "\n";
        }
    }
    m
}

/// Write pg-seed004.json and pg-seed004.md into `out`.
pub fn write(r: &Seed004Report, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    super::bench::write_pair(out, "pg-seed004", serde_json::to_string_pretty(r)?, markdown(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_segments_take_the_allocations_before_their_mark() {
        let t = "M 27400 0 /x/postgres+0x10\nM 8192 0 /x/postgres+0x20\nQ q1 100 300 100 3 1 0 0 131072 262144 5000 100\nM 200000 1 /x/postgres+0x30\nQ q2 100 100 100 0 0 1 1 0 0 5000 100\n";
        let s = parse_trace(t).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].0.as_str(), s[0].1[1] - s[0].1[0], s[0].2.len()), ("q1", 200, 2));
        assert_eq!((s[1].1[5], s[1].2.len()), (1, 1));
        assert_eq!((s[0].1[7], s[0].1[8], s[0].1[9]), (131072, 262144, 5000));
        assert!(parse_trace("Q q1 1 2\n").is_err());
        assert!(parse_trace("garbage\n").is_err());
    }

    #[test]
    fn sites_skip_allocator_frames_and_group_by_owner() {
        let mut syms = Symbols::default();
        // Unknown files keep their frame text: enough to see the grouping.
        let l = |size: u64, frames: &str| format!("M {size} 0 {frames}");
        let lines = vec![l(27400, "?+0x1 ?+0x2"), l(27400, "?+0x1 ?+0x2"), l(8192, "?+0x3")];
        let s = sites(&lines, &mut syms);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].size, s[0].count), (27400, 2));
        assert!(allocator_frame("AllocSetAllocLarge") && allocator_frame("palloc0") && allocator_frame("malloc"));
        assert!(!allocator_frame("btbeginscan") && !allocator_frame("CreateExprContextInternal"));
    }

    #[test]
    fn config_checks_name_the_valid_choices() {
        let mut c = Config::defaults(true);
        c.check().unwrap();
        c.arms = vec!["nope".into()];
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains("plain, trim, top-pad, trim-mmap"), "{e}");
        let mut c = Config::defaults(true);
        c.rounds = 1;
        assert!(c.check().is_err());
    }

    fn runs(server: &str, tps: f64) -> ServerRuns {
        ServerRuns { server: server.into(), version: "v".into(), tps: vec![tps], median_tps: tps, minflt_per_txn: 0.0, brk_per_txn: None, mmap_per_txn: None, munmap_per_txn: None, scan: "s".into() }
    }

    fn rec(arm: &str, ratio: f64, verdict: &str, later_tps: f64) -> Record {
        Record {
            partitions: 100,
            index_on_bid: true,
            protocol: "simple".into(),
            clients: 1,
            arm: arm.into(),
            arm_env: vec![],
            servers: vec![runs("17.11", 1000.0), runs("18.6", later_tps), runs("18.6#2", later_tps)],
            pair: ("17.11".into(), "18.6".into()),
            ratio,
            ci_low: ratio - 0.05,
            ci_high: ratio + 0.05,
            verdict: verdict.into(),
            aa_ratio: 1.0,
            aa_floor: 0.02,
        }
    }

    #[test]
    fn headline_names_the_regression_and_what_removes_it() {
        let r = Seed004Report {
            servers: vec![],
            host_cpu: "h".into(),
            kernel: "k".into(),
            glibc: "2.36".into(),
            seconds: 1,
            rounds: 4,
            syscalls_from: "x".into(),
            records: vec![rec("plain", 0.5, "slower", 500.0), rec("trim", 1.0, "not resolved", 1500.0), rec("top-pad", 0.7, "slower", 700.0)],
            who_allocates: vec![],
            command: "c".into(),
        };
        let h = headline(&r, 100, true, "simple", 1).unwrap();
        assert!(h.contains("18.6/17.11 TPS 0.50 [0.45, 0.55]") && h.contains("a regression"), "{h}");
        assert!(h.contains("removed by trim") && h.contains("1.50x") && !h.contains("top-pad ("), "{h}");
        assert!(headline(&r, 4, true, "simple", 1).is_none());
        let md = markdown(&r);
        assert!(md.contains("| 100 | yes | simple | 1 | plain |"), "{md}");
    }
}
