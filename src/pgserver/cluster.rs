//! A throwaway PostgreSQL cluster: initdb in a fresh temporary directory, Unix socket only,
//! stopped (`pg_ctl -m fast stop`) and removed on Drop, on error and on SIGINT/SIGTERM. As
//! root, the server runs as the `postgres` OS user (initdb refuses root). Never touches an
//! existing cluster: every path it writes is under its own temporary directory.
//!
//! A server never outlives the run that started it, even one killed by SIGKILL (which no
//! handler sees), in two ways:
//!
//! - each cluster has a supervisor, a small shell process whose stdin is a pipe from the run:
//!   when the run ends without saying `done` (killed), the pipe closes, and the supervisor
//!   stops the server (SIGQUIT, an immediate shutdown, as `pg_ctl stop -m immediate`) and
//!   removes the directory;
//! - the directory's name records its run (`hotloops-pg-<pid>-<start>-XXXXXX`,
//!   `host::cleanup::owned_prefix`), and every `hotloops pg` run, and the first cluster of any
//!   run, stops and removes the clusters whose run is gone ([`sweep_orphans`]), saying so:
//!   for a supervisor that was killed too.

use super::{Install, UsageError};
use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

/// The OS user a server runs as: `postgres` when we are root, else ourselves.
#[derive(Clone, Copy, Debug)]
pub struct RunAs {
    /// None: the current user.
    pub ids: Option<(u32, u32)>,
}

impl RunAs {
    /// `postgres` (uid, gid) when running as root; an error naming the package when it is missing.
    pub fn detect() -> Result<Self> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Ok(RunAs { ids: None });
        }
        let name = c"postgres";
        // SAFETY: a NUL-terminated name; the returned record is read before any other getpw* call.
        let pw = unsafe { libc::getpwnam(name.as_ptr()) };
        if pw.is_null() {
            return Err(UsageError(
                "running as root needs the `postgres` OS user to run the server (the Debian package postgresql-15 creates it)".into(),
            )
            .into());
        }
        // SAFETY: pw is non-null and points to getpwnam's static record.
        let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
        Ok(RunAs { ids: Some((uid, gid)) })
    }

    /// A command that runs as this user.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        if let Some((uid, gid)) = self.ids {
            c.uid(uid).gid(gid);
            // Our working directory may be closed to that user (a checkout under /root).
            c.env("HOME", "/tmp").current_dir("/");
        }
        c
    }

    /// Give `path` (recursively, without following links) to this user.
    pub fn chown_tree(&self, path: &Path) -> Result<()> {
        fn walk(p: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
            std::os::unix::fs::lchown(p, Some(uid), Some(gid))?;
            if std::fs::symlink_metadata(p)?.is_dir() {
                for e in std::fs::read_dir(p)? {
                    walk(&e?.path(), uid, gid)?;
                }
            }
            Ok(())
        }
        if let Some((uid, gid)) = self.ids {
            walk(path, uid, gid).with_context(|| format!("giving {} to the postgres user ({uid}:{gid})", path.display()))?;
        }
        Ok(())
    }
}

/// A cluster of this process: its temporary directory exists from creation to Drop, and its
/// server may be running. The signal handler stops every running server and removes every
/// directory on this list; one lock serialises every stop, so the handler's and the main
/// thread's never run at once, and the process exits only after the last one finished.
struct Live {
    root: PathBuf,
    data: PathBuf,
    pg_ctl: PathBuf,
    run_as: RunAs,
    running: bool,
    /// `pg_ctl start` in flight: the handler waits for it (its postmaster would otherwise come
    /// up after the handler looked).
    starting: bool,
}

static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());
static HANDLER: std::sync::Once = std::sync::Once::new();
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn live() -> std::sync::MutexGuard<'static, Vec<Live>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether SIGINT/SIGTERM arrived: the handler is stopping the clusters and will exit 130.
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Whether the host's signal handler has started: set before any hook runs (the server code's
/// children are killed before the cluster hook runs, and their caller may be dropping its
/// cluster by then): from then on the cluster hook stops and removes every cluster, and counts
/// what it stopped.
fn handler_started() -> bool {
    interrupted() || crate::host::cleanup::interrupted()
}

/// Install the SIGINT/SIGTERM hook once: kill the server code's children (an initdb or a
/// `cp -a` writing into a cluster directory would race its removal), wait for a start in
/// flight, stop every running server and remove every cluster directory (the host's handler
/// then removes temporaries and exits 130).
fn install_signal_handler() {
    HANDLER.call_once(|| {
        crate::host::cleanup::on_signal(|| {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            super::proc::kill_all();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(150);
            let mut g = live();
            while g.iter().any(|l| l.starting) && std::time::Instant::now() < deadline {
                drop(g);
                std::thread::sleep(std::time::Duration::from_millis(20));
                g = live();
            }
            let (mut stopped, mut n) = (0, 0);
            for l in g.iter_mut() {
                if l.running {
                    stop_server(&l.pg_ctl, &l.data, l.run_as);
                    l.running = false;
                    stopped += 1;
                }
                match remove_tree(&l.root) {
                    Ok(()) => n += 1,
                    Err(e) => crate::say!("interrupted: could not remove the cluster directory {}: {e}", l.root.display()),
                }
            }
            g.clear();
            crate::say!("interrupted: stopped {stopped} server(s) and removed {n} cluster director(ies)");
        });
    });
}

/// Remove a cluster directory, retrying for a moment while a process that is exiting (a
/// killed postmaster's backends) still writes into it; gone already counts as removed.
fn remove_tree(p: &Path) -> std::io::Result<()> {
    let mut tries = 0;
    loop {
        match std::fs::remove_dir_all(p) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) if tries >= 40 => return Err(e),
            Err(_) => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }
}

fn stop_server(pg_ctl: &Path, data: &Path, run_as: RunAs) {
    let ok = run_as
        .command(pg_ctl)
        .args(["-D"])
        .arg(data)
        .args(["-m", "fast", "-w", "-t", "60", "stop"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        // pg_ctl failed (the server died, or never came up): kill what postmaster.pid names.
        if let Some(pid) = postmaster_pid(data) {
            // SAFETY: kill with a pid read from our own cluster's postmaster.pid.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// `cp -a from to`, its own error (a disk full, a file it could not read) kept in the failure.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    let out = super::proc::output(Command::new("cp").arg("-a").arg(from).arg(to)).context("running cp -a")?;
    crate::host::cleanup::wait_if_interrupted();
    if !out.status.success() {
        bail!("cp -a {} {} failed ({}): {}", from.display(), to.display(), out.status, String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

/// The postmaster's pid from `data/postmaster.pid`, if present.
pub fn postmaster_pid(data: &Path) -> Option<i32> {
    std::fs::read_to_string(data.join("postmaster.pid")).ok()?.lines().next()?.trim().parse().ok()
}

/// Where clusters go: the temporary directory when the server's user can reach it and its
/// Unix socket path fits (sun_path holds 107 bytes), else /tmp.
fn cluster_parent() -> PathBuf {
    let t = std::env::temp_dir();
    let reachable = t.ancestors().all(|a| std::fs::metadata(a).is_ok_and(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o001 != 0));
    if t.is_absolute() && t.as_os_str().len() <= 48 && reachable { t } else { PathBuf::from("/tmp") }
}

/// A running throwaway cluster. Dropping it stops the server and removes the directory.
pub struct Cluster {
    root: Option<tempfile::TempDir>,
    /// The data directory (inside the temporary directory).
    pub data: PathBuf,
    /// The socket directory (the temporary directory itself).
    pub socket_dir: PathBuf,
    /// The directory holding the extensions' .so files, on dynamic_library_path.
    pub lib_dir: PathBuf,
    /// Settings passed to the server with -c, in order.
    pub settings: Vec<(String, String)>,
    /// Extra environment of the server (seed 004: MALLOC_TRIM_THRESHOLD_).
    pub env: Vec<(String, String)>,
    bin: PathBuf,
    run_as: RunAs,
    running: bool,
    supervisor: Option<Supervisor>,
}

/// The supervisor of a cluster (see the module doc): told `done` when the cluster is gone.
struct Supervisor {
    child: Child,
    stdin: Option<ChildStdin>,
    _guard: crate::host::cleanup::ChildGuard,
}

/// The supervisor's script: `$1` the cluster's directory. A line `done` on stdin: nothing to
/// do. End of stdin without it (the run is gone): stop the postmaster named by
/// `postmaster.pid` if it is this cluster's (its command line names the data directory), wait
/// for it, and remove the directory.
const SUPERVISOR: &str = r#"IFS= read -r line
[ "$line" = done ] && exit 0
alive() { s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1; case "${s##*) }" in Z*) return 1;; esac; return 0; }
pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null)
if [ -n "$pid" ] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$1/data"; then
  kill -QUIT "$pid" 2>/dev/null
  n=0; while alive "$pid" && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done
  kill -KILL "$pid" 2>/dev/null
fi
n=0; while [ -e "$1" ] && [ $n -lt 50 ]; do rm -rf "$1" 2>/dev/null; [ -e "$1" ] && sleep 0.1; n=$((n+1)); done
"#;

impl Supervisor {
    /// Start the supervisor of the cluster in `root`, in a process group of its own (a Ctrl-C
    /// at the terminal is the run's to handle), as this process's user (it may remove `root`
    /// wherever it is, and signal the server as root or as its owner).
    fn start(root: &Path) -> Result<Supervisor> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(SUPERVISOR).arg("hotloops-cluster-supervisor").arg(root).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).process_group(0);
        let (mut child, guard) = crate::host::cleanup::spawn(&mut cmd).context("starting the cluster's supervisor (sh)")?;
        let stdin = child.stdin.take();
        Ok(Supervisor { child, stdin, _guard: guard })
    }

    /// The cluster is gone: the supervisor ends without touching anything.
    fn done(&mut self) {
        if let Some(mut i) = self.stdin.take() {
            let _ = i.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}

/// The clusters a killed run left (its pid gone): their servers stopped (SIGQUIT, then SIGKILL)
/// and their directories removed, each said on stderr. Every `hotloops pg` run calls this, and
/// the first cluster of any run; safe beside live runs, whose clusters it leaves alone. Returns
/// the directories removed.
pub fn sweep_orphans() -> Vec<PathBuf> {
    crate::host::cleanup::sweep_orphans(&cluster_parent(), PREFIX, |root| {
        let data = root.join("data");
        let server = postmaster_pid(&data).filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(&*data.to_string_lossy()))
        });
        if let Some(pid) = server {
            // SAFETY: kill on the postmaster whose command line names this cluster's data directory.
            unsafe { libc::kill(pid, libc::SIGQUIT) };
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while process_alive(pid) && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            // SAFETY: as above; it did not stop in time.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        remove_tree(root)?;
        crate::say!(
            "removed the cluster {} of a hotloops run that was killed{}",
            root.display(),
            server.map(|p| format!(", after stopping its server (pid {p})")).unwrap_or_default()
        );
        Ok(())
    })
}

/// Whether `pid` runs (a zombie waiting to be reaped does not).
fn process_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.rsplit_once(") ").is_some_and(|(_, r)| r.starts_with('Z')))
}

/// The name every cluster directory starts with.
const PREFIX: &str = "hotloops-pg-";

impl Cluster {
    /// A fresh temporary directory with an initdb'ed data directory (not started).
    pub fn init(inst: &Install, so: &Path) -> Result<Self> {
        Self::init_with(inst, Some(so))
    }

    /// [`Cluster::init`] for a server without this project's extensions (`pg ab`).
    pub fn init_plain(inst: &Install) -> Result<Self> {
        Self::init_with(inst, None)
    }

    fn init_with(inst: &Install, so: Option<&Path>) -> Result<Self> {
        let c = Self::empty(inst, so)?;
        let out = super::proc::output(
            c.run_as.command(inst.bin("initdb")).arg("-D").arg(&c.data).args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]),
        )
        .context("running initdb")?;
        if !out.status.success() {
            bail!("initdb failed: {}", String::from_utf8_lossy(&out.stderr).trim());
        }
        c.root_chown()?;
        Ok(c)
    }

    /// A fresh temporary directory whose data directory is a copy of `cached` (a stopped cluster).
    pub fn from_copy(inst: &Install, so: &Path, cached: &Path) -> Result<Self> {
        Self::from_copy_with(inst, Some(so), cached)
    }

    /// [`Cluster::from_copy`] for a server without this project's extensions (`pg ab`).
    pub fn from_copy_plain(inst: &Install, cached: &Path) -> Result<Self> {
        Self::from_copy_with(inst, None, cached)
    }

    fn from_copy_with(inst: &Install, so: Option<&Path>, cached: &Path) -> Result<Self> {
        let c = Self::empty(inst, so)?;
        copy_tree(cached, &c.data).with_context(|| format!("copying the cached data directory {}", cached.display()))?;
        c.root_chown()?;
        Ok(c)
    }

    /// The directory, registered for the signal handler before it exists, so that an
    /// interrupt at any point (initdb, a copy, a start) removes it.
    fn empty(inst: &Install, so: Option<&Path>) -> Result<Self> {
        install_signal_handler();
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(|| {
            sweep_orphans();
        });
        let run_as = RunAs::detect()?;
        let mut g = live();
        if interrupted() {
            bail!("interrupted");
        }
        let parent = cluster_parent();
        let root = tempfile::Builder::new()
            .prefix(&crate::host::cleanup::owned_prefix(PREFIX))
            .tempdir_in(&parent)
            .with_context(|| format!("creating the cluster's temporary directory in {}", parent.display()))?;
        let base = root.path().to_path_buf();
        g.push(Live { root: base.clone(), data: base.join("data"), pg_ctl: inst.bin("pg_ctl"), run_as, running: false, starting: false });
        drop(g);
        let lib_dir = base.join("lib");
        let supervisor = Supervisor::start(&base);
        let mut c = Cluster {
            data: base.join("data"),
            socket_dir: base.clone(),
            lib_dir,
            settings: Vec::new(),
            env: Vec::new(),
            bin: inst.bindir.clone(),
            run_as,
            running: false,
            root: Some(root),
            supervisor: None,
        };
        c.supervisor = Some(supervisor?);
        std::fs::create_dir(&c.lib_dir)?;
        // A copy the server can read wherever the checkout lives (e.g. under a 0700 /root):
        // the library and whatever else was built beside it (the allocation tracer).
        if let Some(so) = so {
            let src_dir = so.parent().unwrap_or(Path::new("."));
            for e in std::fs::read_dir(src_dir).with_context(|| format!("reading {}", src_dir.display()))? {
                let p = e?.path();
                if p.extension().is_some_and(|x| x == "so") {
                    std::fs::copy(&p, c.lib_dir.join(p.file_name().unwrap())).with_context(|| format!("copying {} into the cluster directory", p.display()))?;
                }
            }
        }
        c.root_chown()?;
        Ok(c)
    }

    fn root_chown(&self) -> Result<()> {
        self.run_as.chown_tree(&self.socket_dir)
    }

    /// The temporary directory (removed on Drop).
    pub fn root(&self) -> &Path {
        &self.socket_dir
    }

    /// Run this (stopped) cluster's data directory with another install of the same major
    /// version from its next start: another code layout of one build, or another build.
    pub fn set_install(&mut self, inst: &Install) -> Result<()> {
        if self.running {
            bail!("the cluster is running: stop it before changing its server");
        }
        self.bin = inst.bindir.clone();
        let pg_ctl = inst.bin("pg_ctl");
        self.set_live(|l| l.pg_ctl = pg_ctl);
        Ok(())
    }

    /// The OS user the server runs as.
    pub fn run_as(&self) -> RunAs {
        self.run_as
    }

    /// A server binary of this cluster's install.
    pub fn bin(&self, name: &str) -> PathBuf {
        self.bin.join(name)
    }

    /// The fixed settings every start gets: socket only, no fsync, no autovacuum, no JIT, no
    /// parallel workers, the extensions on dynamic_library_path.
    pub fn base_settings(&self) -> Vec<(String, String)> {
        vec![
            ("listen_addresses".into(), "''".into()),
            ("unix_socket_directories".into(), format!("'{}'", self.socket_dir.display())),
            ("port".into(), "5432".into()),
            ("dynamic_library_path".into(), format!("'{}:$libdir'", self.lib_dir.display())),
            ("fsync".into(), "off".into()),
            ("synchronous_commit".into(), "off".into()),
            ("full_page_writes".into(), "off".into()),
            ("wal_level".into(), "minimal".into()),
            ("max_wal_senders".into(), "0".into()),
            ("autovacuum".into(), "off".into()),
            ("jit".into(), "off".into()),
            ("max_parallel_workers_per_gather".into(), "0".into()),
            // hl_btree's build hook covers the leader only.
            ("max_parallel_maintenance_workers".into(), "0".into()),
            ("logging_collector".into(), "off".into()),
        ]
    }

    /// The base settings with `settings` on top, in order.
    pub fn settings_with(&self, settings: &[(&str, String)]) -> Vec<(String, String)> {
        let mut all = self.base_settings();
        for (k, v) in settings {
            all.retain(|(kk, _)| kk != k);
            all.push((k.to_string(), v.clone()));
        }
        all
    }

    fn set_live(&self, f: impl FnOnce(&mut Live)) {
        if let Some(l) = live().iter_mut().find(|l| l.root == self.socket_dir) {
            f(l);
        }
    }

    /// Start the server with `settings` (plus the fixed socket-only, no-fsync ones).
    pub fn start(&mut self, settings: &[(&str, String)]) -> Result<()> {
        if self.running {
            bail!("cluster already running");
        }
        let all = self.settings_with(settings);
        let opts: Vec<String> = all.iter().map(|(k, v)| format!("-c {k}={v}")).collect();
        let log = self.socket_dir.join("server.log");
        let mut cmd = self.run_as.command(self.bin.join("pg_ctl"));
        cmd.arg("-D").arg(&self.data).arg("-l").arg(&log).args(["-w", "-t", "120", "-o"]).arg(opts.join(" ")).arg("start");
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        // Marked before starting, under the lock the handler takes: a signal during the start
        // waits for it, then stops the server.
        {
            let mut g = live();
            if interrupted() {
                bail!("interrupted");
            }
            if let Some(l) = g.iter_mut().find(|l| l.root == self.socket_dir) {
                l.running = true;
                l.starting = true;
            }
        }
        self.running = true;
        let out = cmd.stdin(Stdio::null()).output();
        self.set_live(|l| l.starting = false);
        let out = out.context("running pg_ctl start")?;
        if !out.status.success() {
            // pg_ctl may give up while a postmaster still starts: stop whatever it left.
            self.stop();
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = tail.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect();
            bail!("pg_ctl start failed: {}\n{}", String::from_utf8_lossy(&out.stderr).trim(), tail.join("\n"));
        }
        self.settings = all;
        Ok(())
    }

    /// Fast-stop the server (idempotent; a stop the signal handler already made is not repeated,
    /// and after a signal the handler makes it, and counts it).
    pub fn stop(&mut self) {
        if self.running && !handler_started() {
            let mut g = live();
            if let Some(l) = g.iter_mut().find(|l| l.root == self.socket_dir)
                && l.running
            {
                stop_server(&l.pg_ctl, &l.data, l.run_as);
                l.running = false;
            }
            self.running = false;
        }
    }

    /// The postmaster's pid, while running.
    pub fn pid(&self) -> Option<i32> {
        postmaster_pid(&self.data)
    }

    /// A psql command connected to this cluster over its socket, quiet, no psqlrc, stop on error.
    pub fn psql(&self) -> Command {
        let mut c = Command::new(self.bin.join("psql"));
        c.arg("-h").arg(&self.socket_dir).args(["-U", "postgres", "-d", "postgres", "-X", "-q", "-v", "ON_ERROR_STOP=1"]);
        c
    }

    /// Run SQL text through psql (`vars`: psql -v NAME=VALUE), returning stdout.
    pub fn sql(&self, sql: &str, vars: &[(&str, String)]) -> Result<String> {
        let mut c = self.psql();
        c.args(["-A", "-t"]);
        for (k, v) in vars {
            c.arg("-v").arg(format!("{k}={v}"));
        }
        let (mut child, _t) = super::proc::spawn(c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped())).context("running psql")?;
        // psql reads all of stdin before it ends; a failure to write shows in its exit.
        let _ = child.stdin.take().unwrap().write_all(sql.as_bytes());
        let out = child.wait_with_output()?;
        if !out.status.success() {
            bail!("psql failed: {}", String::from_utf8_lossy(&out.stderr).trim());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A long-lived psql session (one backend for every query of a measurement).
    pub fn session(&self) -> Result<Session> {
        self.session_with(&[])
    }

    /// A session whose psql runs with `env` set (`PGOPTIONS` for settings the backend starts
    /// with, `PGAPPNAME` to find it in `pg_stat_activity` without a statement of its own).
    pub fn session_with(&self, env: &[(&str, &str)]) -> Result<Session> {
        let mut c = self.psql();
        c.args(["-A", "-t"]);
        c.envs(env.iter().copied());
        let (mut child, tracked) = super::proc::spawn(c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped())).context("running psql")?;
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let err = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut { err }, &mut s);
            let _ = tx.send(s);
        });
        Ok(Session { child, stdin, stdout, stderr: rx, n: 0, _tracked: tracked })
    }

    /// The pid of the one client backend whose `application_name` is `app`, waiting (up to
    /// 30 s on a loaded machine) for it to appear.
    pub fn backend_pid(&self, app: &str) -> Result<i32> {
        let q = format!("SELECT pid FROM pg_stat_activity WHERE application_name = '{app}' AND backend_type = 'client backend';");
        for _ in 0..300 {
            let out = self.sql(&q, &[])?;
            let pids: Vec<i32> = out.lines().filter_map(|l| l.trim().parse().ok()).collect();
            match pids.as_slice() {
                [pid] => return Ok(*pid),
                [] => std::thread::sleep(std::time::Duration::from_millis(100)),
                _ => bail!("{} backends named {app}: {pids:?}", pids.len()),
            }
        }
        bail!("no backend named {app} appeared in pg_stat_activity within 30 s")
    }

    /// Stop, then leave the data directory to the caller (for caching); the rest is removed
    /// on Drop, and on a signal the whole directory is.
    pub fn stop_for_copy(&mut self) -> &Path {
        self.stop();
        &self.data
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if handler_started() {
            // The signal handler stops the server and removes the directory, and says so:
            // neither is done twice, nor the directory removed under a running server. The
            // supervisor stays registered: the handler kills it once the cluster is gone.
            if let Some(r) = self.root.take() {
                let _ = r.keep();
            }
            std::mem::forget(self.supervisor.take());
            return;
        }
        self.stop();
        let mut g = live();
        if let Some(r) = self.root.take() {
            let p = r.path().to_path_buf();
            if r.close().is_err() {
                let _ = std::fs::remove_dir_all(&p);
            }
        }
        g.retain(|l| l.root != self.socket_dir);
        drop(g);
        if let Some(mut s) = self.supervisor.take() {
            s.done();
        }
    }
}

/// One backend kept open through psql: statements in, rows out, one marker line after each.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr: Receiver<String>,
    n: u64,
    _tracked: super::proc::Tracked,
}

impl Session {
    /// Run `sql` (one or more statements) and return the rows printed (unaligned, tuples only).
    pub fn query(&mut self, sql: &str) -> Result<String> {
        self.n += 1;
        let marker = format!("__hotloops_end_{}__", self.n);
        writeln!(self.stdin, "{sql}\n\\echo {marker}").and_then(|_| self.stdin.flush()).map_err(|e| self.died(e.into()))?;
        let mut out = String::new();
        loop {
            let mut line = String::new();
            let got = self.stdout.read_line(&mut line).map_err(|e| self.died(e.into()))?;
            if got == 0 {
                return Err(self.died(anyhow!("psql exited")));
            }
            if line.trim_end() == marker {
                return Ok(out);
            }
            out.push_str(&line);
        }
    }

    fn died(&mut self, e: anyhow::Error) -> anyhow::Error {
        let _ = self.child.wait();
        let msg = self.stderr.recv_timeout(std::time::Duration::from_secs(5)).unwrap_or_default();
        anyhow!("psql session failed ({e}): {}", msg.trim())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "\\q");
        let _ = self.child.wait();
    }
}

/// A backend's minor faults so far (`/proc/PID/stat` field 10).
pub fn minflt(pid: i32) -> Result<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).with_context(|| format!("reading /proc/{pid}/stat"))?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = s.rsplit_once(')').map(|(_, r)| r).context("malformed /proc/PID/stat")?;
    rest.split_whitespace().nth(7).and_then(|f| f.parse().ok()).context("no minflt in /proc/PID/stat")
}
