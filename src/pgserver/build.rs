//! PostgreSQL built from source, with and without patches (`hotloops pg build`), so that two
//! servers differ by a patch alone: one source, one compiler, one set of flags.
//!
//! One full build per source and flags (a *tree*: configured, built, kept for what follows);
//! a patched build copies that tree, applies its patches in order and lets make rebuild what
//! they touched (`--enable-depend`, so a header change rebuilds its includers), then installs
//! into a prefix of its own: seconds, not the tree's minutes. Every build exists in two or
//! more code *layouts*: `L0` is the server as make linked it, `L1`... the same object files
//! linked in another order (a seeded shuffle), so the server's functions move and their code
//! does not; `nm` confirms they moved. A comparison's A/A is then "stock against stock in
//! another layout", which is what a patch's effect must exceed.
//!
//! Under `$HOTLOOPS_DATA_DIR/builds/`:
//! - `sources/`: the pinned source files (scripts/pg-sources.lock), checked by sha256;
//! - `trees/<key>/`: a built tree per source and flags, complete once `.hotloops-complete` is
//!   there (an incomplete one, left by a killed run, is removed and rebuilt);
//! - `<name>/`: a build, published by one rename when complete: `build.json` and one
//!   relocatable install (bin, lib, share, include) per layout, `L0/`, `L1/`...
//!
//! Every step runs as a tracked child (killed with its compilers on SIGINT/SIGTERM) and every
//! directory being made is registered with the signal cleanup, so an interrupted build leaves
//! nothing; one lock serialises builds.

use super::{Install, UsageError, data_dir, proc};
use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pins, as `--source debian:MAJOR` reads them.
pub const SOURCES_LOCK: &str = include_str!("../../scripts/pg-sources.lock");

/// Configure arguments of every build: upstream's defaults (gcc's `-O2` and upstream's
/// warning and code flags), plus what the measurements need: liburing for `io_method=io_uring`
/// (seed 002), and make's header dependencies for incremental patched builds (no code change).
pub const CONFIGURE_ARGS: &[&str] = &["--enable-depend", "--with-liburing"];

/// The prefix the trees are configured with. Installs are relocatable (PostgreSQL finds its
/// lib and share directories relative to its binaries), so every build lives elsewhere.
const PREFIX: &str = "/opt/hotloops-pg";

/// The contrib modules every build installs (bloom: seed 002; pg_prewarm and pg_buffercache:
/// warm and cold cache states).
pub const CONTRIB: &[&str] = &["bloom", "pg_prewarm", "pg_buffercache"];

/// Debian packages a build needs beyond gcc and make (`scripts/install-pg.sh` installs them).
pub const BUILD_PACKAGES: &str = "bison flex patch bzip2 pkg-config liburing-dev libicu-dev libreadline-dev zlib1g-dev";

/// Layouts each build gets unless asked otherwise (the as-linked one and one shuffle).
pub const DEFAULT_LAYOUTS: u32 = 2;
/// The most layouts a build may have.
pub const MAX_LAYOUTS: u32 = 8;

/// One pinned source package.
#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    /// `debian:18`.
    pub id: String,
    /// `postgresql-18`.
    pub package: String,
    /// Debian's version, `18.6-3`.
    pub version: String,
    /// Suites that carry it (`sid`, `trixie-security`).
    pub suites: Vec<String>,
    /// sha256 of the .dsc.
    pub dsc_sha256: String,
    /// sha256 of upstream's tarball.
    pub orig_sha256: String,
}

impl Pin {
    /// Upstream's version (`18.6`).
    pub fn upstream(&self) -> &str {
        self.version.split('-').next().unwrap_or(&self.version)
    }
    fn dsc_file(&self) -> String {
        format!("{}_{}.dsc", self.package, self.version)
    }
    fn orig_file(&self) -> String {
        format!("{}_{}.orig.tar.bz2", self.package, self.upstream())
    }
}

/// Every pin of scripts/pg-sources.lock.
pub fn pins() -> Vec<Pin> {
    SOURCES_LOCK
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 6).then(|| Pin {
                id: f[0].into(),
                package: f[1].into(),
                version: f[2].into(),
                suites: f[3].split(',').map(str::to_string).collect(),
                dsc_sha256: f[4].into(),
                orig_sha256: f[5].into(),
            })
        })
        .collect()
}

/// Where a build's source comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A pinned Debian source package.
    Debian(Pin),
    /// A user's tree (a release tarball unpacked, or a git checkout), copied before building.
    Dir(PathBuf),
}

impl Source {
    /// `debian:18` (default), `debian:17`, or a directory.
    pub fn parse(s: &str) -> Result<Source> {
        let s = s.trim();
        let known = || pins().iter().map(|p| p.id.clone()).collect::<Vec<_>>().join(", ");
        if let Some(m) = s.strip_prefix("debian:") {
            return pins().into_iter().find(|p| p.id == format!("debian:{m}")).map(Source::Debian).ok_or_else(|| {
                UsageError(format!("--source {s}: no such pinned source (scripts/pg-sources.lock has {}); or pass --source DIR", known())).into()
            });
        }
        let p = PathBuf::from(s);
        if !p.is_dir() {
            return Err(UsageError(format!("--source {s}: not a pinned source ({}) nor a directory", known())).into());
        }
        let p = std::path::absolute(&p).unwrap_or(p);
        if !p.join("configure").is_file() || !p.join("src/backend").is_dir() {
            return Err(UsageError(format!("--source {}: not a PostgreSQL source tree (no configure or src/backend)", p.display())).into());
        }
        if p.join("config.status").is_file() && !p.join(".git").exists() {
            return Err(UsageError(format!(
                "--source {}: the tree is configured (config.status): give a clean tree (`make distclean`), hotloops builds in a copy with its own flags",
                p.display()
            ))
            .into());
        }
        Ok(Source::Dir(p))
    }

    /// What it is, in words.
    pub fn describe(&self) -> String {
        match self {
            Source::Debian(p) => format!("{} (Debian's {} {}: upstream's {} tarball, sha256 {})", p.id, p.package, p.version, p.upstream(), &p.orig_sha256[..16]),
            Source::Dir(d) => format!("the tree {}", d.display()),
        }
    }
}

/// A patch of a build.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PatchInfo {
    /// As given (`patches/seed000-batch-tids.patch`).
    pub path: String,
    /// Its sha256: a changed file is another build.
    pub sha256: String,
}

/// One code layout of a build.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LayoutInfo {
    /// `L0`, `L1`...
    pub name: String,
    /// How it was linked.
    pub how: String,
    /// sha256 of its `postgres`.
    pub postgres_sha256: String,
    /// Functions in its symbol table.
    pub functions: usize,
    /// Of those, how many sit at another address than in `L0`, and at another offset in their
    /// 64-byte cache line (0 for `L0`).
    pub moved: usize,
    /// See [`LayoutInfo::moved`].
    pub moved_in_line: usize,
}

/// A finished build (its `build.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Build {
    /// `18.6-src`, `18.6-src+seed000-batch-tids`.
    pub name: String,
    /// Upstream version (`18.6`, `19devel`).
    pub version: String,
    /// Major version.
    pub major: u32,
    /// The source, in words.
    pub source: String,
    /// Its patches, in the order applied.
    pub patches: Vec<PatchInfo>,
    /// configure's arguments (beside the prefix).
    pub configure: Vec<String>,
    /// `pg_config --cflags` of the build.
    pub cflags: String,
    /// The C compiler (`gcc --version`'s first line).
    pub cc: String,
    /// The tree it came from (a hash of source and flags).
    pub tree: String,
    /// Its layouts; `L0` first.
    pub layouts: Vec<LayoutInfo>,
    /// When (UTC), and how long the build took, seconds (the tree's own build not included).
    pub built: String,
    /// See [`Build::built`].
    pub seconds: f64,
    /// Where it is (not stored).
    #[serde(skip)]
    pub dir: PathBuf,
}

impl Build {
    /// The install of one layout.
    pub fn install(&self, layout: usize) -> Result<Install> {
        let l = self.layouts.get(layout).ok_or_else(|| anyhow!("build {} has no layout {layout}", self.name))?;
        let mut i = Install::find(Some(&self.dir.join(&l.name).join("bin/pg_config")))?;
        i.source = format!("build {} layout {} ({})", self.name, l.name, self.summary());
        Ok(i)
    }

    /// Source, patches and flags in one line.
    pub fn summary(&self) -> String {
        let patches = if self.patches.is_empty() { "no patch".to_string() } else { self.patches.iter().map(|p| p.path.as_str()).collect::<Vec<_>>().join(" + ") };
        format!("{}; {patches}; configure {}; {}", self.source, self.configure.join(" "), self.cc)
    }
}

/// `hotloops pg build`'s arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildArgs {
    /// `debian:18` (default) or `debian:17` (pinned in scripts/pg-sources.lock), or a
    /// directory holding a PostgreSQL source tree (a release or a git checkout).
    #[arg(long, default_value = "debian:18")]
    pub source: String,
    /// A patch to apply (`patch -p1` at the tree's root); repeatable, applied in order.
    #[arg(long = "patch", value_name = "FILE")]
    pub patches: Vec<PathBuf>,
    /// The build's name (default: `VERSION-src`, plus `+PATCH` for each patch's file stem).
    #[arg(long)]
    pub name: Option<String>,
    /// Code layouts to make (2 to 8): `L0` as linked by make, the others with the server's
    /// object files in a shuffled order.
    #[arg(long, default_value_t = DEFAULT_LAYOUTS, value_parser = crate::host::in_range::<u32>(2, MAX_LAYOUTS as u128))]
    pub layouts: u32,
    /// Parallel make jobs (1 to 256; default: the CPUs this process may use).
    #[arg(long, value_parser = crate::host::in_range::<u32>(1, 256))]
    pub jobs: Option<u32>,
}

/// The builds directory.
pub fn builds_dir() -> PathBuf {
    let d = data_dir().join("builds");
    std::path::absolute(&d).unwrap_or(d)
}

fn sha256_file(p: &Path) -> Result<String> {
    let out = Command::new("sha256sum").arg(p).output().with_context(|| format!("running sha256sum on {}", p.display()))?;
    if !out.status.success() {
        bail!("sha256sum {} failed: {}", p.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap_or_default().to_string())
}

/// The C compiler's identity (`gcc --version`, first line): part of every tree's key.
pub fn cc_version() -> Result<String> {
    let out = Command::new("gcc").arg("--version").output().map_err(|e| UsageError(format!("cannot run gcc ({e}): install gcc")))?;
    Ok(String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("gcc").to_string())
}

/// What a build needs that this machine lacks, as one message naming the packages.
fn check_tools() -> Result<()> {
    let mut missing = Vec::new();
    for t in ["gcc", "make", "bison", "flex", "patch", "tar", "bzip2", "pkg-config"] {
        if super::which(t).is_none() {
            missing.push(t.to_string());
        }
    }
    if !Path::new("/usr/include/liburing.h").is_file() {
        missing.push("liburing's headers".into());
    }
    if super::which("pkg-config").is_some() && !Command::new("pkg-config").args(["--exists", "icu-uc"]).status().is_ok_and(|s| s.success()) {
        missing.push("ICU's headers".into());
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(UsageError(format!(
            "building PostgreSQL needs {} : install the Debian packages {BUILD_PACKAGES} (`scripts/install-pg.sh build` does)",
            missing.join(", ")
        ))
        .into())
    }
}

/// The machine's Debian archive entries (URIs, suite kind, keyring), from apt's deb822
/// `.sources` files and one-line `sources.list` entries, for deriving deb-src entries that
/// name no host in the repository.
fn apt_archives() -> Vec<(String, bool, Option<String>)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir("/etc/apt/sources.list.d").into_iter().flatten().flatten().map(|e| e.path()).collect();
    files.sort();
    files.push("/etc/apt/sources.list".into());
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        if f.extension().is_some_and(|e| e == "sources") {
            for stanza in text.split("\n\n") {
                let field = |k: &str| stanza.lines().find_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string()));
                let (Some(types), Some(uris), Some(suites)) = (field("Types:"), field("URIs:"), field("Suites:")) else { continue };
                if !types.split_whitespace().any(|t| t == "deb" || t == "deb-src") || stanza.lines().any(|l| l.trim() == "Enabled: no") {
                    continue;
                }
                for uri in uris.split_whitespace() {
                    out.push((uri.to_string(), suites.contains("-security"), field("Signed-By:")));
                }
            }
        } else if f.extension().is_some_and(|e| e == "list") {
            for l in text.lines().map(str::trim).filter(|l| l.starts_with("deb ") || l.starts_with("deb-src ")) {
                let words: Vec<&str> = l.split_whitespace().filter(|w| !w.starts_with('[')).collect();
                if words.len() >= 3 {
                    out.push((words[1].to_string(), words[2].contains("-security"), None));
                }
            }
        }
    }
    // Debian's archives only (not a vendor's repository listed beside them).
    out.retain(|(u, _, _)| u.contains("debian"));
    out
}

/// deb-src entries for `pin`'s suites, one per suite, from the machine's own archive entries.
fn deb_src_entries(pin: &Pin) -> Result<String> {
    let archives = apt_archives();
    let mut s = String::new();
    for suite in &pin.suites {
        let security = suite.ends_with("-security");
        let Some((uri, _, key)) = archives.iter().find(|(_, sec, _)| *sec == security) else {
            bail!("this machine's apt sources have no Debian {}archive entry to derive a deb-src entry for {suite} from", if security { "security " } else { "" });
        };
        s += &format!("Types: deb-src\nURIs: {uri}\nSuites: {suite}\nComponents: main\n");
        if let Some(k) = key {
            s += &format!("Signed-By: {k}\n");
        }
        s += "\n";
    }
    Ok(s)
}

/// The pinned source files, fetched once into `sources/` and checked by sha256 each time.
/// A pin that apt cannot fetch (the version left its suite) names itself and the way out.
fn fetch(pin: &Pin) -> Result<PathBuf> {
    let dir = builds_dir().join("sources");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let orig = dir.join(pin.orig_file());
    let dsc = dir.join(pin.dsc_file());
    let verify = |p: &Path, want: &str| -> Result<bool> { Ok(p.is_file() && sha256_file(p)? == want) };
    if verify(&dsc, &pin.dsc_sha256)? && verify(&orig, &pin.orig_sha256)? {
        return Ok(orig);
    }
    if super::which("apt-get").is_none() {
        return Err(UsageError(format!(
            "{} is not in {} and apt-get is missing: put {} (sha256 {}) and {} there yourself, or pass --source DIR",
            pin.orig_file(),
            dir.display(),
            pin.orig_file(),
            pin.orig_sha256,
            pin.dsc_file()
        ))
        .into());
    }
    say_step(&format!("fetching {} {} (apt-get source --download-only, a private apt state)", pin.package, pin.version));
    let scratch = proc::Scratch::new(&dir, ".fetch-")?;
    let st = scratch.path();
    for d in ["lists/partial", "cache/archives/partial", "parts", "dl"] {
        std::fs::create_dir_all(st.join(d))?;
    }
    std::fs::write(st.join("parts/hotloops-src.sources"), deb_src_entries(pin)?)?;
    let apt = |args: &[&str], cwd: &Path| -> Result<std::process::Output> {
        let mut c = Command::new("apt-get");
        c.current_dir(cwd)
            .arg("-o")
            .arg("Dir::Etc::SourceList=/dev/null")
            .arg("-o")
            .arg(format!("Dir::Etc::SourceParts={}", st.join("parts").display()))
            .arg("-o")
            .arg(format!("Dir::State::Lists={}", st.join("lists").display()))
            .arg("-o")
            .arg(format!("Dir::Cache={}", st.join("cache").display()))
            .arg("-o")
            .arg("APT::Sandbox::User=root")
            .args(args);
        Ok(proc::output(&mut c)?)
    };
    let out = apt(&["-q", "update"], st)?;
    if !out.status.success() {
        bail!("apt-get update (deb-src for {}) failed: {}", pin.suites.join(", "), String::from_utf8_lossy(&out.stderr).trim());
    }
    let out = apt(&["-q", "source", "--download-only", &format!("{}={}", pin.package, pin.version)], &st.join("dl"))?;
    let (got_dsc, got_orig) = (st.join("dl").join(pin.dsc_file()), st.join("dl").join(pin.orig_file()));
    if !out.status.success() || !got_dsc.is_file() || !got_orig.is_file() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err: Vec<&str> = err.lines().filter(|l| l.starts_with("E:")).take(3).collect();
        return Err(UsageError(format!(
            "the pinned source {} {} could not be fetched from {} ({}): the version may have left the suite or this mirror; see what is there with `apt-cache showsrc {}` (with a deb-src entry), pin it in scripts/pg-sources.lock with its two sha256, or pass --source DIR",
            pin.package,
            pin.version,
            pin.suites.join(", "),
            if err.is_empty() { "no file".to_string() } else { err.join("; ") },
            pin.package
        ))
        .into());
    }
    for (p, want) in [(&got_dsc, &pin.dsc_sha256), (&got_orig, &pin.orig_sha256)] {
        let got = sha256_file(p)?;
        if &got != want {
            bail!("{} has sha256 {got}, scripts/pg-sources.lock pins {want}: refusing it", p.file_name().unwrap_or_default().to_string_lossy());
        }
    }
    // The .dsc lists the tarball's checksum too: both pins must tell the same story.
    let dsc_text = std::fs::read_to_string(&got_dsc)?;
    if !dsc_text.contains(&format!("{} ", pin.orig_sha256)) {
        bail!("{} does not list the pinned tarball sha256 {}", pin.dsc_file(), pin.orig_sha256);
    }
    for (from, to) in [(&got_dsc, &dsc), (&got_orig, &orig)] {
        std::fs::rename(from, to).with_context(|| format!("placing {}", to.display()))?;
    }
    Ok(orig)
}

fn say_step(what: &str) {
    crate::say!("pg build: {what}");
}

/// Run a long step (configure, make), its output in `log`; a heartbeat every minute so a
/// 10-minute make is never silent; on failure, the log's last lines.
fn run_logged(what: &str, cmd: &mut Command, log: &Path) -> Result<()> {
    let started = Instant::now();
    say_step(what);
    let file = std::fs::OpenOptions::new().create(true).append(true).open(log).with_context(|| format!("opening {}", log.display()))?;
    cmd.stdin(Stdio::null()).stdout(file.try_clone()?).stderr(file);
    let (mut child, _t) = proc::spawn(cmd).with_context(|| format!("starting {what}"))?;
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_message(what.to_string());
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    let mut next = Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        std::thread::sleep(Duration::from_millis(200));
        if bar.is_none() && started.elapsed() >= next {
            crate::say!("pg build: {what}: {} s so far", started.elapsed().as_secs());
            next += Duration::from_secs(60);
        }
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    crate::host::cleanup::wait_if_interrupted();
    if !status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(25).collect::<Vec<_>>().into_iter().rev().collect();
        bail!("{what} failed ({status}); the last lines of {}:\n{}", log.display(), tail.join("\n"));
    }
    crate::say!("pg build: {what}: done in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn jobs(args_jobs: Option<u32>) -> u32 {
    args_jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(2))
}

/// Upstream's version of a tree (`configure`'s PACKAGE_VERSION).
fn tree_version(tree: &Path) -> Result<String> {
    let text = std::fs::read_to_string(tree.join("configure")).with_context(|| format!("reading {}/configure", tree.display()))?;
    text.lines()
        .find_map(|l| l.strip_prefix("PACKAGE_VERSION='").and_then(|v| v.strip_suffix('\'')))
        .map(str::to_string)
        .ok_or_else(|| anyhow!("{}/configure names no PACKAGE_VERSION", tree.display()))
}

fn major_of(version: &str) -> u32 {
    version.chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().unwrap_or(0)
}

/// A directory tree's identity: for a git checkout, its HEAD and its changes; else every
/// file's path, size and modification time.
fn dir_identity(d: &Path) -> Result<String> {
    if d.join(".git").exists() {
        let head = Command::new("git").arg("-C").arg(d).args(["rev-parse", "HEAD"]).output()?;
        let diff = Command::new("git").arg("-C").arg(d).args(["diff", "HEAD"]).output()?;
        let status = Command::new("git").arg("-C").arg(d).args(["status", "--porcelain"]).output()?;
        return Ok(format!("{:016x}", super::fnv(&[&String::from_utf8_lossy(&head.stdout), &String::from_utf8_lossy(&diff.stdout), &String::from_utf8_lossy(&status.stdout)])));
    }
    let mut parts = Vec::new();
    fn walk(p: &Path, parts: &mut Vec<String>) -> std::io::Result<()> {
        let mut es: Vec<_> = std::fs::read_dir(p)?.flatten().collect();
        es.sort_by_key(|e| e.file_name());
        for e in es {
            let m = e.metadata()?;
            if m.is_dir() {
                walk(&e.path(), parts)?;
            } else {
                let t = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_secs()).unwrap_or(0);
                parts.push(format!("{} {} {t}", e.path().display(), m.len()));
            }
        }
        Ok(())
    }
    walk(d, &mut parts)?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    Ok(format!("{:016x}", super::fnv(&refs)))
}

/// A built tree: where, its version, and the link command of its server.
struct Tree {
    dir: PathBuf,
    version: String,
    key: String,
}

const COMPLETE: &str = ".hotloops-complete";
const LINK_CMD: &str = ".hotloops-link";

/// The built tree for `source` and the flags, building it (minutes) when absent. Held under
/// the builds lock by the caller.
fn ensure_tree(source: &Source, jobs: u32) -> Result<Tree> {
    let cc = cc_version()?;
    let ident = match source {
        Source::Debian(p) => p.orig_sha256.clone(),
        Source::Dir(d) => dir_identity(d)?,
    };
    let key = format!("{:016x}", super::fnv(&[&ident, &CONFIGURE_ARGS.join(" "), PREFIX, &cc]));
    let trees = builds_dir().join("trees");
    std::fs::create_dir_all(&trees)?;
    let root = trees.join(&key);
    if root.join(COMPLETE).is_file() {
        let dir = std::fs::read_to_string(root.join(COMPLETE))?.trim().to_string();
        let dir = root.join(dir);
        return Ok(Tree { version: tree_version(&dir)?, dir, key });
    }
    if root.exists() {
        say_step(&format!("removing the incomplete tree {} (a build that did not finish)", root.display()));
        std::fs::remove_dir_all(&root).with_context(|| format!("removing {}", root.display()))?;
    }
    check_tools()?;
    let guard = crate::host::cleanup::temp(&root);
    std::fs::create_dir(&root)?;
    let result = (|| -> Result<Tree> {
        let started = Instant::now();
        let log = root.join("build.log");
        let dir = match source {
            Source::Debian(pin) => {
                let orig = fetch(pin)?;
                say_step(&format!("unpacking {}", orig.display()));
                let st = proc::status(Command::new("tar").arg("-xjf").arg(&orig).arg("-C").arg(&root))?;
                if !st.success() {
                    bail!("unpacking {} failed", orig.display());
                }
                root.join(format!("postgresql-{}", pin.upstream()))
            }
            Source::Dir(d) => {
                say_step(&format!("copying {}", d.display()));
                let dest = root.join("src");
                std::fs::create_dir(&dest)?;
                // A git checkout: its tracked and untracked files, not its build products.
                let script = if d.join(".git").exists() {
                    "git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C \"$1\""
                } else {
                    "tar --exclude=.git -cf - . | tar -xf - -C \"$1\""
                };
                let out = proc::output(Command::new("sh").arg("-c").arg(script).arg("sh").arg(&dest).current_dir(d))?;
                if !out.status.success() {
                    bail!("copying {} failed: {}", d.display(), String::from_utf8_lossy(&out.stderr).trim());
                }
                dest
            }
        };
        let version = tree_version(&dir)?;
        if major_of(&version) < 13 {
            return Err(UsageError(format!("PostgreSQL {version}: hotloops builds 13 and later")).into());
        }
        let mut conf = Command::new("./configure");
        conf.current_dir(&dir).arg(format!("--prefix={PREFIX}")).args(CONFIGURE_ARGS);
        run_logged(&format!("configure {}", CONFIGURE_ARGS.join(" ")), &mut conf, &log)?;
        let j = format!("-j{jobs}");
        run_logged(&format!("make {j} (the whole server: about 5 minutes on 2 quiet vCPUs, 10 loaded)"), Command::new("make").current_dir(&dir).arg(&j), &log)?;
        for m in CONTRIB {
            run_logged(&format!("make contrib/{m}"), Command::new("make").current_dir(&dir).arg(&j).arg("-C").arg(format!("contrib/{m}")), &log)?;
        }
        // The server's link command, for relinking it in other layouts: make prints it when it
        // links, and only then.
        std::fs::remove_file(dir.join("src/backend/postgres"))?;
        let out = proc::output(Command::new("make").current_dir(dir.join("src/backend")).arg("postgres"))?;
        if !out.status.success() {
            bail!("relinking postgres failed: {}", String::from_utf8_lossy(&out.stderr).trim());
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let link = text.lines().find(|l| l.contains(" -o postgres") && l.contains(".o ")).ok_or_else(|| anyhow!("make printed no link command for postgres:\n{text}"))?;
        std::fs::write(dir.join(LINK_CMD), link)?;
        let rel = dir.strip_prefix(&root).unwrap_or(&dir).to_string_lossy().into_owned();
        std::fs::write(root.join(COMPLETE), &rel)?;
        say_step(&format!("tree {} built in {:.0} s", root.display(), started.elapsed().as_secs_f64()));
        Ok(Tree { dir, version, key: key.clone() })
    })();
    match result {
        Ok(t) => {
            drop(guard);
            Ok(t)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&root);
            drop(guard);
            Err(e)
        }
    }
}

/// Apply `patch` to `dir` (dry run first, so a patch that does not apply changes nothing);
/// one that does not apply is a usage error naming the file and the hunks that failed.
fn apply_patch(dir: &Path, patch: &Path, version: &str) -> Result<()> {
    // patch runs in the tree: the file's own path must not depend on where we are.
    let file = std::path::absolute(patch).unwrap_or_else(|_| patch.to_path_buf());
    let run = |dry: bool| -> Result<std::process::Output> {
        let mut c = Command::new("patch");
        c.current_dir(dir).args(["-p1", "--batch", "--forward", "--no-backup-if-mismatch", "-r", "-"]).arg("-i").arg(&file);
        if dry {
            c.arg("--dry-run");
        }
        Ok(proc::output(&mut c)?)
    };
    let out = run(true)?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let mut file = String::new();
        let mut failed = Vec::new();
        for l in text.lines() {
            if let Some(f) = l.strip_prefix("checking file ").or_else(|| l.strip_prefix("patching file ")) {
                file = f.trim().to_string();
            } else if l.contains("FAILED") || l.contains("Reversed") || l.contains("can't find file") || l.contains("malformed") {
                failed.push(format!("{file}: {}", l.trim()));
            }
        }
        let what = if failed.is_empty() { text.lines().filter(|l| !l.trim().is_empty()).last().unwrap_or("no output").trim().to_string() } else { failed.join("; ") };
        return Err(UsageError(format!("{} does not apply to PostgreSQL {version}: {what}", patch.display())).into());
    }
    let out = run(false)?;
    if !out.status.success() {
        bail!("{} applied in a dry run but not for real: {}", patch.display(), String::from_utf8_lossy(&out.stdout).trim());
    }
    Ok(())
}

/// Functions of a binary's symbol table with their addresses (`nm`).
fn functions(bin: &Path) -> Result<std::collections::HashMap<String, u64>> {
    let out = Command::new("nm").arg("--defined-only").arg(bin).output().map_err(|e| UsageError(format!("cannot run nm ({e}): install binutils")))?;
    if !out.status.success() {
        bail!("nm {} failed: {}", bin.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && matches!(f[1], "T" | "t")).then(|| Some((f[2].to_string(), u64::from_str_radix(f[0], 16).ok()?))).flatten()
        })
        .collect())
}

/// The link command with the object files in a seeded shuffle (the archives and flags stay
/// where they are: only the order of the server's own objects changes), writing `out`.
pub fn shuffled_link(cmd: &str, seed: u64, out: &str) -> Result<String> {
    use rand::SeedableRng as _;
    use rand::seq::SliceRandom as _;
    let mut words: Vec<String> = cmd.split(' ').map(str::to_string).collect();
    let at = words.iter().position(|w| w == "-o").ok_or_else(|| anyhow!("the link command has no -o"))?;
    if words.get(at + 1).map(String::as_str) != Some("postgres") {
        bail!("the link command does not write postgres");
    }
    words[at + 1] = out.to_string();
    let slots: Vec<usize> = words.iter().enumerate().filter(|(_, w)| w.ends_with(".o")).map(|(i, _)| i).collect();
    if slots.len() < 2 {
        bail!("the link command names fewer than two object files");
    }
    let mut objs: Vec<String> = slots.iter().map(|&i| words[i].clone()).collect();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    objs.shuffle(&mut rng);
    for (i, o) in slots.into_iter().zip(objs) {
        words[i] = o;
    }
    Ok(words.join(" "))
}

/// Install the tree's build into `dest/L0`, then relink the server for `L1`.. and install
/// each as a copy of `L0` (hard links) with its own `postgres`.
fn install_layouts(dir: &Path, dest: &Path, layouts: u32, jobs: u32, log: &Path) -> Result<Vec<LayoutInfo>> {
    let stage = dest.join(".stage");
    let destdir = format!("DESTDIR={}", stage.display());
    let j = format!("-j{jobs}");
    run_logged("make install", Command::new("make").current_dir(dir).arg(&j).arg("install").arg(&destdir), log)?;
    for m in CONTRIB {
        run_logged(&format!("make contrib/{m} install"), Command::new("make").current_dir(dir).arg(&j).arg("-C").arg(format!("contrib/{m}")).arg("install").arg(&destdir), log)?;
    }
    let l0 = dest.join("L0");
    std::fs::rename(stage.join(PREFIX.trim_start_matches('/')), &l0).context("placing the install")?;
    std::fs::remove_dir_all(&stage)?;
    let base_bin = l0.join("bin/postgres");
    let base = functions(&base_bin)?;
    let mut out = vec![LayoutInfo {
        name: "L0".into(),
        how: "the object files in make's order".into(),
        postgres_sha256: sha256_file(&base_bin)?,
        functions: base.len(),
        moved: 0,
        moved_in_line: 0,
    }];
    let link = std::fs::read_to_string(dir.join(LINK_CMD)).context("the tree's link command")?;
    for k in 1..layouts {
        let name = format!("L{k}");
        let bin_name = format!("postgres.hotloops-{name}");
        let cmd = shuffled_link(link.trim(), k as u64, &bin_name)?;
        let out_link = proc::output(Command::new("sh").arg("-c").arg(&cmd).current_dir(dir.join("src/backend")))?;
        if !out_link.status.success() {
            bail!("relinking postgres for layout {name} failed: {}", String::from_utf8_lossy(&out_link.stderr).trim());
        }
        let ld = dest.join(&name);
        let st = proc::status(Command::new("cp").arg("-al").arg(&l0).arg(&ld))?;
        if !st.success() {
            bail!("copying the install for layout {name} failed");
        }
        let bin = ld.join("bin/postgres");
        std::fs::remove_file(&bin)?;
        std::fs::rename(dir.join("src/backend").join(&bin_name), &bin).or_else(|_| std::fs::copy(dir.join("src/backend").join(&bin_name), &bin).map(|_| ()))?;
        let f = functions(&bin)?;
        let moved = f.iter().filter(|(n, a)| base.get(*n).is_some_and(|b| b != *a)).count();
        let moved_in_line = f.iter().filter(|(n, a)| base.get(*n).is_some_and(|b| b % 64 != *a % 64)).count();
        if moved * 2 < f.len() {
            bail!("layout {name}: only {moved} of {} functions moved (the shuffle did not reorder the server)", f.len());
        }
        out.push(LayoutInfo {
            name: name.clone(),
            how: format!("the object files shuffled (seed {k})"),
            postgres_sha256: sha256_file(&bin)?,
            functions: f.len(),
            moved,
            moved_in_line,
        });
    }
    // As root the servers run as `postgres`: everything must be readable by it.
    let _ = proc::status(Command::new("chmod").arg("-R").arg("a+rX").arg(dest));
    Ok(out)
}

/// The C files a patch changes (its `+++ b/...c` lines).
fn touched_c_files(patch: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(patch).with_context(|| format!("reading {}", patch.display()))?;
    let mut v: Vec<String> = text.lines().filter_map(|l| l.strip_prefix("+++ ")).map(|f| f.split('\t').next().unwrap_or(f).trim()).map(|f| f.strip_prefix("b/").unwrap_or(f).to_string()).filter(|f| f.ends_with(".c")).collect();
    v.dedup();
    Ok(v)
}

/// gcc's `-S -masm=intel` of one of the tree's C files, with the very command make compiles
/// it with (`make -n -W FILE.c FILE.o` prints it) but for the output.
fn asm_of(tree: &Path, rel: &str) -> Result<String> {
    let path = tree.join(rel);
    let dir = path.parent().ok_or_else(|| anyhow!("{rel} has no directory"))?;
    let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let obj = file.trim_end_matches(".c").to_string() + ".o";
    let out = proc::output(Command::new("make").current_dir(dir).args(["-s", "-n", "-W", &file, &obj]))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains(" -c ") && l.contains(&format!("-o {obj}"))).ok_or_else(|| anyhow!("make printed no compile command for {rel}"))?;
    let s_file = format!(".hotloops-{}.s", std::process::id());
    let mut cmd: Vec<String> = Vec::new();
    let mut words = line.split(' ').peekable();
    while let Some(w) = words.next() {
        match w {
            "-c" => cmd.push("-S -masm=intel".into()),
            "-o" => {
                words.next();
                cmd.push(format!("-o {s_file}"));
            }
            // The dependency file belongs to the tree's own build.
            "-MMD" | "-MP" => {}
            "-MF" => {
                words.next();
            }
            _ => cmd.push(w.to_string()),
        }
    }
    let out = proc::output(Command::new("sh").arg("-c").arg(cmd.join(" ")).current_dir(dir))?;
    let s_path = dir.join(&s_file);
    let text = std::fs::read_to_string(&s_path);
    let _ = std::fs::remove_file(&s_path);
    if !out.status.success() {
        bail!("compiling {rel} to asm failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(text?)
}

/// The PR-review view of a patch: for every C file it touches, the functions whose normalised
/// asm differs between the stock tree and the patched one, each as a unified diff (the
/// normaliser of asm-snapshots/), as Markdown.
fn asm_diff(stock: &Path, patched: &Path, patches: &[PathBuf]) -> Result<String> {
    let mut files = Vec::new();
    for p in patches {
        files.extend(touched_c_files(p)?);
    }
    files.sort();
    files.dedup();
    let mut md = String::new();
    let (mut same, mut changed) = (0usize, 0usize);
    for f in &files {
        let a = if stock.join(f).is_file() { crate::asm::c::normalized_functions(&asm_of(stock, f)?) } else { Vec::new() };
        let b = crate::asm::c::normalized_functions(&asm_of(patched, f)?);
        let mut names: Vec<&String> = a.iter().map(|x| &x.0).chain(b.iter().map(|x| &x.0)).collect();
        names.sort();
        names.dedup();
        for n in names {
            let x = a.iter().find(|(k, _)| k == n).map(|x| x.1.as_str()).unwrap_or("");
            let y = b.iter().find(|(k, _)| k == n).map(|x| x.1.as_str()).unwrap_or("");
            if x == y {
                same += 1;
                continue;
            }
            changed += 1;
            let (lx, ly) = (x.lines().filter(|l| l.starts_with('\t')).count(), y.lines().filter(|l| l.starts_with('\t')).count());
            md += &format!("\n#### `{n}` ({f}): {lx} -> {ly} instructions\n\n```diff\n{}```\n", crate::asm::unified_diff(&format!("stock/{n}"), x, &format!("patched/{n}"), y));
        }
    }
    let head = format!(
        "Normalised asm of the functions the patches change, stock against patched ({} C file(s): {}): {changed} changed, {same} unchanged.\n",
        files.len(),
        if files.is_empty() { "none".into() } else { files.join(", ") }
    );
    Ok(head + &md)
}

/// The default name of a build.
fn default_name(version: &str, source: &Source, patches: &[PathBuf]) -> Result<String> {
    let mut n = match source {
        Source::Debian(_) => format!("{version}-src"),
        Source::Dir(d) => format!("{version}-dir-{}", &dir_identity(d)?[..8]),
    };
    for p in patches {
        n += "+";
        n += &p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "patch".into());
    }
    Ok(n)
}

fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty() && name.len() <= 120 && !name.starts_with('.') && name.chars().all(|c| c.is_ascii_alphanumeric() || "+-_.".contains(c)) && name != "sources" && name != "trees";
    if ok { Ok(()) } else { Err(UsageError(format!("--name {name}: use letters, digits and + - _ . (not starting with a dot; not `sources` or `trees`)")).into()) }
}

/// Load a finished build by name.
pub fn load(name: &str) -> Result<Option<Build>> {
    let dir = builds_dir().join(name);
    let file = dir.join("build.json");
    if !file.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let mut b: Build = serde_json::from_str(&text).map_err(|e| UsageError(format!("{} is corrupt ({e}): remove {} and build again", file.display(), dir.display())))?;
    b.dir = dir;
    Ok(Some(b))
}

/// Every finished build.
pub fn all() -> Vec<std::result::Result<Build, String>> {
    let mut names: Vec<String> = std::fs::read_dir(builds_dir()).into_iter().flatten().flatten().filter(|e| e.path().join("build.json").is_file()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names.into_iter().filter_map(|n| match load(&n) { Ok(Some(b)) => Some(Ok(b)), Ok(None) => None, Err(e) => Some(Err(format!("{e:#}"))) }).collect()
}

/// Build (or find, when built already with the same source, patches and flags) what `args`
/// describe.
pub fn build(args: &BuildArgs) -> Result<Build> {
    let source = Source::parse(&args.source)?;
    let mut patches = Vec::new();
    for p in &args.patches {
        if !p.is_file() {
            return Err(UsageError(format!("{}: no such patch file", p.display())).into());
        }
        patches.push(PatchInfo { path: p.display().to_string(), sha256: sha256_file(p)? });
    }
    if let Some(n) = &args.name {
        check_name(n)?;
    }
    std::fs::create_dir_all(builds_dir()).with_context(|| format!("creating {}", builds_dir().display()))?;
    let _lock = crate::host::lock::acquire(&builds_dir().join(".hotloops-build.lock"), "building PostgreSQL")?;
    crate::host::cleanup::sweep_once(&builds_dir(), ".old-");
    let jobs = jobs(args.jobs);
    // The version, before the tree exists: from the pin, or the user's tree.
    let version = match &source {
        Source::Debian(p) => p.upstream().to_string(),
        Source::Dir(d) => tree_version(d)?,
    };
    let name = match &args.name {
        Some(n) => n.clone(),
        None => default_name(&version, &source, &args.patches)?,
    };
    check_name(&name)?;
    let cc = cc_version()?;
    if let Some(b) = load(&name)? {
        if b.patches == patches && b.layouts.len() as u32 >= args.layouts && b.cc == cc && b.configure == CONFIGURE_ARGS && b.source == source.describe() {
            say_step(&format!("{name} is built already ({})", b.dir.display()));
            return Ok(b);
        }
        say_step(&format!("{name} exists with other source, patches, compiler or layouts: building it again"));
    }
    let tree = ensure_tree(&source, jobs)?;
    let started = Instant::now();
    let dest = builds_dir().join(&name);
    let scratch = proc::Scratch::new(&builds_dir(), ".build-")?;
    let log = scratch.path().join("build.log");
    // The stock build installs from the tree itself; a patched one from a copy of it.
    let work_dir;
    let work = if patches.is_empty() {
        &tree.dir
    } else {
        let copy = scratch.path().join("tree");
        say_step(&format!("copying the tree for {} patch(es)", patches.len()));
        let st = proc::output(Command::new("cp").arg("-a").arg(&tree.dir).arg(&copy))?;
        if !st.status.success() {
            bail!("copying {} failed: {}", tree.dir.display(), String::from_utf8_lossy(&st.stderr).trim());
        }
        for p in &args.patches {
            say_step(&format!("applying {}", p.display()));
            apply_patch(&copy, p, &tree.version)?;
        }
        let j = format!("-j{jobs}");
        run_logged("make (what the patches touched)", Command::new("make").current_dir(&copy).arg(&j), &log)?;
        for m in CONTRIB {
            run_logged(&format!("make contrib/{m}"), Command::new("make").current_dir(&copy).arg(&j).arg("-C").arg(format!("contrib/{m}")), &log)?;
        }
        let diff = asm_diff(&tree.dir, &copy, &args.patches).unwrap_or_else(|e| format!("No asm diff: {e:#}\n"));
        std::fs::write(scratch.path().join("asm-diff.md"), diff)?;
        work_dir = copy;
        &work_dir
    };
    let inst_dir = scratch.path().join("install");
    std::fs::create_dir(&inst_dir)?;
    let layouts = install_layouts(work, &inst_dir, args.layouts, jobs, &log)?;
    let pgc = Install::find(Some(&inst_dir.join("L0/bin/pg_config")))?;
    let b = Build {
        name: name.clone(),
        version: tree.version.clone(),
        major: major_of(&tree.version),
        source: source.describe(),
        patches,
        configure: CONFIGURE_ARGS.iter().map(|s| s.to_string()).collect(),
        cflags: pgc.cflags.clone(),
        cc,
        tree: tree.key.clone(),
        layouts,
        built: crate::host::provenance::utc_now(),
        seconds: started.elapsed().as_secs_f64(),
        dir: dest.clone(),
    };
    std::fs::write(inst_dir.join("build.json"), serde_json::to_string_pretty(&b)?)?;
    let _ = std::fs::rename(&log, inst_dir.join("build.log"));
    let _ = std::fs::rename(scratch.path().join("asm-diff.md"), inst_dir.join("asm-diff.md"));
    // Publish: the old build of this name (other patches or flags) goes only now that the new
    // one is complete.
    let _c = crate::host::cleanup::critical();
    if dest.exists() {
        // Named for this run: a run killed between the two renames leaves it to the next one.
        let old = builds_dir().join(format!("{}{name}", crate::host::cleanup::owned_prefix(".old-")));
        std::fs::rename(&dest, &old)?;
        std::fs::rename(&inst_dir, &dest)?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&inst_dir, &dest).with_context(|| format!("placing {}", dest.display()))?;
    }
    drop(_c);
    drop(scratch);
    say_step(&format!("{name}: {} layouts in {} ({:.0} s)", b.layouts.len(), dest.display(), b.seconds));
    Ok(b)
}

/// A server named on the command line that is a source build: a build's name, or
/// `MAJOR` / `MAJOR+PATCH[+PATCH...]` (the stock source build of that major, with patches),
/// built now when it is not yet. `None` when `spec` names no build (a wheel's major is then
/// the caller's to resolve).
pub fn resolve(spec: &str, bare_major_is_source: bool, layouts: u32) -> Result<Option<Build>> {
    if let Ok(Some(b)) = load(spec) {
        return Ok(Some(b));
    }
    let mut parts = spec.split('+');
    let base = parts.next().unwrap_or_default();
    let patches: Vec<PathBuf> = parts.map(PathBuf::from).collect();
    if patches.is_empty() && !bare_major_is_source {
        return Ok(None);
    }
    let source = if base.starts_with("debian:") {
        base.to_string()
    } else if base.chars().all(|c| c.is_ascii_digit()) && !base.is_empty() {
        format!("debian:{base}")
    } else {
        return Ok(None);
    };
    let args = BuildArgs { source, patches, name: None, layouts, jobs: None };
    build(&args).map(Some)
}

/// `hotloops list --servers`' section on builds.
pub fn listing() -> String {
    let builds = all();
    let mut s = format!("Builds from source (hotloops pg build; {}):\n", builds_dir().display());
    if builds.is_empty() {
        s += "  none yet: `hotloops pg build` builds PostgreSQL 18.6 from Debian's source package\n";
    }
    for b in builds {
        match b {
            Ok(b) => {
                s += &format!("  {}  PostgreSQL {}\n      source     {}\n", b.name, b.version, b.source);
                for p in &b.patches {
                    s += &format!("      patch      {} (sha256 {})\n", p.path, &p.sha256[..16]);
                }
                s += &format!("      configure  {}\n      CFLAGS     {}\n      compiler   {}\n", b.configure.join(" "), b.cflags, b.cc);
                for l in &b.layouts {
                    s += &format!("      layout     {}: {} ({} of {} functions moved, {} within their cache line)\n", l.name, l.how, l.moved, l.functions, l.moved_in_line);
                }
            }
            Err(e) => s += &format!("  (unreadable) {e}\n"),
        }
    }
    s
}

/// `hotloops pg build`.
pub fn run_cli(args: &BuildArgs) -> Result<()> {
    let b = build(args)?;
    crate::say!("{}", listing_one(&b));
    Ok(())
}

fn listing_one(b: &Build) -> String {
    format!(
        "{}: PostgreSQL {} ({}), layouts {} in {}; use it as `--server {}`",
        b.name,
        b.version,
        b.summary(),
        b.layouts.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", "),
        b.dir.display(),
        b.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_pins_18_and_17_with_both_checksums() {
        let p = pins();
        assert_eq!(p.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(), ["debian:18", "debian:17"], "{SOURCES_LOCK}");
        for pin in &p {
            assert!(pin.version.starts_with(&format!("{}.", pin.id.trim_start_matches("debian:"))), "{pin:?}");
            for h in [&pin.dsc_sha256, &pin.orig_sha256] {
                assert!(h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()), "{pin:?}");
            }
            assert!(pin.orig_file().ends_with(".orig.tar.bz2") && pin.orig_file().contains(pin.upstream()), "{pin:?}");
        }
    }

    #[test]
    fn unknown_sources_and_bad_names_are_usage_errors_naming_the_valid_ones() {
        let e = Source::parse("debian:16").unwrap_err();
        assert!(e.is::<UsageError>() && format!("{e}").contains("debian:18, debian:17"), "{e:#}");
        let e = Source::parse("/no/such/dir").unwrap_err();
        assert!(e.is::<UsageError>(), "{e:#}");
        let d = tempfile::tempdir().unwrap();
        let e = Source::parse(d.path().to_str().unwrap()).unwrap_err();
        assert!(format!("{e}").contains("not a PostgreSQL source tree"), "{e:#}");
        for bad in ["", "../x", "a/b", ".hidden", "trees", "sp ace"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        check_name("18.6-src+seed000-batch-tids").unwrap();
    }

    #[test]
    fn a_shuffled_link_moves_only_the_object_files() {
        let cmd = "gcc -O2 -Wall access/a.o access/b.o c.o d.o e.o ../../src/port/libpgport_srv.a -Wl,--export-dynamic -Wl,-rpath,'/opt/x/lib' -lm -o postgres";
        let s = shuffled_link(cmd, 1, "postgres.L1").unwrap();
        let words: Vec<&str> = s.split(' ').collect();
        let orig: Vec<&str> = cmd.split(' ').collect();
        assert_eq!(words.len(), orig.len());
        for (w, o) in words.iter().zip(&orig) {
            if o.ends_with(".o") {
                assert!(w.ends_with(".o"), "{s}");
            } else if *o == "postgres" {
                assert_eq!(*w, "postgres.L1");
            } else {
                assert_eq!(w, o, "{s}");
            }
        }
        let mut a: Vec<&str> = words.iter().filter(|w| w.ends_with(".o")).copied().collect();
        let mut b: Vec<&str> = orig.iter().filter(|w| w.ends_with(".o")).copied().collect();
        assert_ne!(a, b, "seed 1 left the order as it was: {s}");
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Deterministic per seed, different across seeds.
        assert_eq!(s, shuffled_link(cmd, 1, "postgres.L1").unwrap());
        assert!(shuffled_link("gcc a.o -o other", 1, "x").is_err());
    }

    #[test]
    fn deb_src_entries_come_from_the_machines_own_archive() {
        let pin = pins().into_iter().find(|p| p.id == "debian:17").unwrap();
        // Whatever this machine has, a derived entry names no host of ours and keeps its keyring.
        match deb_src_entries(&pin) {
            Ok(s) => {
                assert_eq!(s.matches("Types: deb-src").count(), pin.suites.len(), "{s}");
                for suite in &pin.suites {
                    assert!(s.contains(&format!("Suites: {suite}\n")), "{s}");
                }
            }
            Err(e) => assert!(format!("{e}").contains("no Debian"), "{e:#}"),
        }
    }
}
