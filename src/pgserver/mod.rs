//! Real PostgreSQL beside the model (issue 12, the server side): the `hl_btree` extension
//! (`pgext/hl_btree/`: PostgreSQL's own B-tree with the tid-batch variants as `amgetbitmap`,
//! picked per scan by the GUC `hl_btree.variant`) built against the installed server, a
//! throwaway cluster ([`cluster::Cluster`]), seed 000's table loaded once and cached, and the
//! Bitmap Index Scan measured per variant in rotated rounds ([`bench`]); seed 004's pgbench
//! partition sweep ([`sweep`]).
//!
//! Measure layer: imports only std, crates and [`crate::measure::stats`].

pub mod bench;
pub mod cluster;
pub mod sweep;

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
    /// pg_config of the server to build against and run (default: pg_config on PATH, then
    /// Debian's /usr/lib/postgresql/15/bin/pg_config).
    #[arg(long)]
    pub pg_config: Option<PathBuf>,
    /// Rows of seed 000's table3 (default: 1,000,000 with --quick, 10,000,000 with --full).
    #[arg(long, conflicts_with_all = ["quick", "full"])]
    pub rows: Option<u64>,
    /// 1M rows, fewer rounds.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// The seed's 10M rows.
    #[arg(long)]
    pub full: bool,
    /// Rounds per case and cache state (each round runs every variant once, rotated).
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Output directory (pg.json, pg.md; pg-sweep.json, pg-sweep.md).
    #[arg(long, default_value = "target/hotloops-pg")]
    pub out: PathBuf,
    /// Only this cache state: `warm` (index in shared buffers) or `os-cache` (every leaf read).
    #[arg(long, value_parser = ["warm", "os-cache"])]
    pub cache: Vec<String>,
    /// Only this case: `btree-many` or `btree-few`.
    #[arg(long, value_parser = ["btree-many", "btree-few"])]
    pub case: Vec<String>,
    /// Seed 004 instead: pgbench scale 1 swept over --partitions N, with and without glibc's trim.
    #[arg(long)]
    pub sweep_partitions: bool,
    /// Partition counts to sweep instead of the grid (comma-separated, e.g. `1,4,100`).
    #[arg(long, value_delimiter = ',')]
    pub grid: Vec<u32>,
    /// Seconds of pgbench per sweep point (default 2 quick, 5 otherwise).
    #[arg(long)]
    pub seconds: Option<u64>,
}

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
    /// `pg_config --cflags` (the extension's compiler flags).
    pub cflags: String,
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
                p.to_path_buf()
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
            let out = Command::new(&pgc).arg(flag).output().map_err(|e| missing(format!("cannot run {} ({e})", pgc.display())))?;
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
        let out = Command::new(bindir.join("postgres")).arg("--version").output().context("postgres --version")?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let short_version = version
            .split_whitespace()
            .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .unwrap_or("unknown")
            .to_string();
        let cflags = q("--cflags")?;
        Ok(Install { pg_config: pgc, bindir, version, short_version, cflags })
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
}

/// Where loaded data and the built extension are kept (`$HOTLOOPS_DATA_DIR`, default
/// `target/hotloops-data`, as the read-stream study's bloom file).
pub fn data_dir() -> PathBuf {
    std::env::var_os("HOTLOOPS_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("target/hotloops-data"))
}

// The extension's and seeds' sources, embedded: the binary needs no checkout to build them.
const EXT_C: &str = include_str!("../../pgext/hl_btree/hl_btree.c");
const EXT_MAKEFILE: &str = include_str!("../../pgext/hl_btree/Makefile");
const EXT_CONTROL: &str = include_str!("../../pgext/hl_btree/hl_btree.control");
const EXT_SQL: &str = include_str!("../../pgext/hl_btree/hl_btree--1.0.sql");
/// sql/seed000-table3.sql.
pub const SEED000_TABLE3: &str = include_str!("../../sql/seed000-table3.sql");
/// sql/seed004-partitions.sql.
pub const SEED004_PARTITIONS: &str = include_str!("../../sql/seed004-partitions.sql");
/// sql/seed004-query.sql.
pub const SEED004_QUERY: &str = include_str!("../../sql/seed004-query.sql");

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

/// The extension's SQL objects for a plain psql script: the library named `hl_btree`, found
/// through the cluster's dynamic_library_path (so a cached data directory has no stale path).
pub fn extension_sql() -> String {
    EXT_SQL.lines().filter(|l| !l.starts_with("\\echo")).collect::<Vec<_>>().join("\n").replace("MODULE_PATHNAME", "hl_btree")
}

/// Build hl_btree.so against `inst` with PGXS (`make with_llvm=no`) under the data directory,
/// once per server version and source; returns the path of the .so.
pub fn build_extension(inst: &Install) -> Result<PathBuf> {
    let key = format!("pgext-{}-{:016x}", inst.short_version, fnv(&[EXT_C, EXT_MAKEFILE, &inst.version]));
    let dir = data_dir().join(key);
    let so = dir.join("hl_btree.so");
    if so.is_file() {
        return Ok(so);
    }
    std::fs::create_dir_all(data_dir())?;
    let tmp = tempfile::Builder::new().prefix(".pgext-build-").tempdir_in(data_dir())?;
    for (name, text) in [("hl_btree.c", EXT_C), ("Makefile", EXT_MAKEFILE), ("hl_btree.control", EXT_CONTROL), ("hl_btree--1.0.sql", EXT_SQL)] {
        std::fs::write(tmp.path().join(name), text)?;
    }
    let out = Command::new("make")
        .arg("-C")
        .arg(tmp.path())
        .arg("with_llvm=no")
        .arg(format!("PG_CONFIG={}", inst.pg_config.display()))
        .output()
        .map_err(|e| UsageError(format!("cannot run make ({e}): install make and gcc")))?;
    if !out.status.success() {
        bail!("building pgext/hl_btree failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }
    // Publish the finished build in one rename; a concurrent builder's equal result may win.
    let built = tmp.keep();
    if std::fs::rename(&built, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&built);
        if !so.is_file() {
            bail!("could not place the built extension at {}", dir.display());
        }
    }
    Ok(so)
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

fn run_inner(args: &PgArgs) -> Result<()> {
    if args.rows == Some(0) {
        return Err(UsageError("--rows must be at least 1".into()).into());
    }
    if args.rounds == Some(0) || args.rounds == Some(1) {
        return Err(UsageError("--rounds must be at least 2".into()).into());
    }
    let inst = Install::find(args.pg_config.as_deref())?;
    eprintln!("server: {} ({})", inst.version, inst.pg_config.display());
    let so = build_extension(&inst)?;
    eprintln!("extension: {}", so.display());
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    if args.sweep_partitions {
        let quick = !args.full;
        if args.grid.contains(&0) || args.seconds == Some(0) {
            return Err(UsageError("--grid values and --seconds must be at least 1".into()).into());
        }
        let grid = if !args.grid.is_empty() {
            args.grid.clone()
        } else if quick {
            sweep::QUICK_GRID.to_vec()
        } else {
            sweep::FULL_GRID.to_vec()
        };
        let r = sweep::run(&inst, &so, &grid, args.seconds.unwrap_or(if quick { 2 } else { 5 }))?;
        let (j, m) = sweep::write(&r, &args.out)?;
        println!("{}", std::fs::read_to_string(&m)?);
        eprintln!("wrote {} and {}", j.display(), m.display());
        return Ok(());
    }
    let cfg = bench::Config {
        rows: args.rows(),
        rounds: args.rounds.unwrap_or(if args.full { 20 } else { 15 }),
        cache_states: if args.cache.is_empty() { vec!["warm".into(), "os-cache".into()] } else { args.cache.clone() },
        cases: if args.case.is_empty() { vec!["btree-many".into(), "btree-few".into()] } else { args.case.clone() },
    };
    let r = bench::run(&inst, &so, &cfg)?;
    let (j, m) = bench::write(&r, &args.out)?;
    println!("{}", std::fs::read_to_string(&m)?);
    eprintln!("wrote {} and {}", j.display(), m.display());
    Ok(())
}
