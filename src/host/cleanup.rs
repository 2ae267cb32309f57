//! What SIGINT/SIGTERM must undo before the process exits (code 130): temporary files and
//! directories being written ([`temp`], or [`create_temp`] and [`temp_dir`], which register
//! before the file exists) and child processes being waited for ([`spawn`], [`output`], or
//! [`child`] for one started elsewhere) are registered while they exist, and hooks of the
//! layers above ([`on_signal`]: stopping a PostgreSQL cluster) run first. A change that must
//! not be cut in half (an all-or-none commit of several files) runs inside [`critical`]: the
//! handler waits for it. One `ctrlc` handler, installed by [`install`], for the whole process.
//!
//! Once the handler has started it keeps the registries locked until the process exits, so
//! nothing registered after its sweep can be left behind: a thread that starts a child or
//! creates a temporary then waits for the exit instead.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Directories a run created for its output (`--out`), with the bookkeeping files in them (its
/// lock file): on a signal those go, then the directory if nothing else is in it.
static MADE: Mutex<Vec<(PathBuf, Vec<PathBuf>)>> = Mutex::new(Vec::new());
/// Registered children: pid, and whether it leads a process group of its own (killed whole).
static CHILDREN: Mutex<Vec<(u32, bool)>> = Mutex::new(Vec::new());
static HOOKS: Mutex<Vec<fn()>> = Mutex::new(Vec::new());
/// Held by the handler while it cleans up, then to the exit: [`wait_if_interrupted`] blocks on it.
static CLEANING: Mutex<()> = Mutex::new(());
/// Held by a [`critical`] section; the handler takes it before touching anything.
static CRITICAL: Mutex<()> = Mutex::new(());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: std::sync::Once = std::sync::Once::new();

/// Exit code after a signal (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// A lock that a panic elsewhere must not turn into a second failure here.
fn lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Install the handler (once; later calls do nothing). Every registration installs it first,
/// so it is there before the first temporary or child exists.
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(handle);
    });
}

fn handle() {
    // CLEANING before the flag: a thread that sees the flag and waits must find it held.
    let cleaning = lock(&CLEANING);
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A commit in progress finishes (or rolls back) first.
    let critical = lock(&CRITICAL);
    let hooks = lock(&HOOKS).clone();
    for h in hooks {
        // A hook that panics (a closed stderr) must not stop the cleanup.
        let _ = std::panic::catch_unwind(h);
    }
    // Held to the exit: a child started or a temporary created from now on waits for it.
    let children = lock(&CHILDREN);
    // Only real child ids: kill(0) or kill(-1) would signal whole groups.
    for &(pid, group) in children.iter().filter(|(p, _)| *p > 1 && *p <= i32::MAX as u32) {
        let pid = pid as libc::pid_t;
        // SAFETY: kill and waitpid on a child this process started and has not reaped (it is
        // unregistered once waited for); a group id is that child's own (it leads its group).
        unsafe {
            if group {
                libc::kill(-pid, libc::SIGKILL);
            }
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }
    let temps = lock(&TEMPS);
    for t in temps.iter() {
        let _ = if t.is_dir() { std::fs::remove_dir_all(t) } else { std::fs::remove_file(t) };
    }
    // After the temporaries, which may be inside them.
    let made = lock(&MADE);
    for (dir, files) in made.iter() {
        for f in files {
            let _ = std::fs::remove_file(f);
        }
        let _ = std::fs::remove_dir(dir);
    }
    super::stderr_line(format_args!("interrupted: stopped {} child process(es), removed {} temporary file(s)", children.len(), temps.len()));
    let _held = (cleaning, critical, children, temps, made);
    std::process::exit(EXIT_INTERRUPTED);
}

/// Whether a signal arrived (the handler is cleaning up and will exit).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// After a failure: if it came from a signal (a child killed by the handler), wait for the
/// handler to finish and exit 130, rather than exiting first with the child's error. Not
/// to be called inside [`critical`].
pub fn wait_if_interrupted() {
    if interrupted() {
        let _held = lock(&CLEANING);
        std::process::exit(EXIT_INTERRUPTED);
    }
}

/// Run `hook` on a signal, before children are killed and temporaries removed.
pub fn on_signal(hook: fn()) {
    install();
    lock(&HOOKS).push(hook);
}

/// While this guard lives the signal handler waits: for a change of several steps that must
/// end done or undone (`host::commit`). Keep it short, do not nest it, and do not wait for a
/// child inside it.
#[must_use]
pub struct CriticalGuard(#[allow(dead_code)] MutexGuard<'static, ()>);

/// Enter a critical section (see [`CriticalGuard`]).
pub fn critical() -> CriticalGuard {
    install();
    CriticalGuard(lock(&CRITICAL))
}

/// A registered temporary: removed on a signal while this guard lives. Dropping the guard only
/// unregisters it (the file was renamed into place, or removed, by its owner).
#[must_use]
pub struct TempGuard(PathBuf);

/// Register a temporary file or directory by a path known before it is created (create it
/// after this call: then a signal can never come between the two).
pub fn temp(path: &Path) -> TempGuard {
    install();
    lock(&TEMPS).push(path.to_path_buf());
    TempGuard(path.to_path_buf())
}

/// Create a temporary whose name is only known once it exists (`tempfile`'s random names)
/// and register it in the same step: the handler cannot run between the two.
pub fn create_temp<T>(make: impl FnOnce() -> io::Result<T>, path: impl FnOnce(&T) -> PathBuf) -> io::Result<(T, TempGuard)> {
    install();
    let mut temps = lock(&TEMPS);
    let t = make()?;
    let p = path(&t);
    temps.push(p.clone());
    Ok((t, TempGuard(p)))
}

/// A registered temporary directory `<TMPDIR>/<prefix>XXXXXX`, removed when the returned
/// directory is dropped, and by the handler on a signal.
pub fn temp_dir(prefix: &str) -> io::Result<(tempfile::TempDir, TempGuard)> {
    create_temp(|| tempfile::Builder::new().prefix(prefix).tempdir(), |d| d.path().to_path_buf())
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        let mut t = lock(&TEMPS);
        if let Some(i) = t.iter().position(|p| *p == self.0) {
            t.swap_remove(i);
        }
    }
}

/// A directory this run created ([`make_dir`]): on a signal while this guard lives, `files` in
/// it are removed, then the directory if it is empty. Dropping the guard only unregisters it.
#[must_use]
#[derive(Debug)]
pub struct MadeDirGuard(PathBuf);

/// Create the directory `path` (its parent must exist) and register it in the same step, so a
/// signal cannot come between the two; `files` (paths inside it) are the run's bookkeeping,
/// removed with it. `None`: it was there already, created by someone else, and is not ours.
pub fn make_dir(path: &Path, files: &[PathBuf]) -> io::Result<Option<MadeDirGuard>> {
    install();
    let mut made = lock(&MADE);
    match std::fs::create_dir(path) {
        Ok(()) => {
            made.push((path.to_path_buf(), files.to_vec()));
            Ok(Some(MadeDirGuard(path.to_path_buf())))
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
        Err(e) => Err(e),
    }
}

impl Drop for MadeDirGuard {
    fn drop(&mut self) {
        let mut m = lock(&MADE);
        if let Some(i) = m.iter().position(|(p, _)| *p == self.0) {
            m.swap_remove(i);
        }
    }
}

/// A registered child: killed on a signal while this guard lives; drop it once the child has
/// been waited for.
#[must_use]
pub struct ChildGuard(u32);

/// Register a child process by pid (one started elsewhere; [`spawn`] registers as it starts).
pub fn child(pid: u32) -> ChildGuard {
    install();
    lock(&CHILDREN).push((pid, false));
    ChildGuard(pid)
}

/// Start `cmd` as a registered child, in a process group of its own so that on a signal its
/// own children (gcc's cc1 and as, cargo's rustc) are killed with it. The registration is
/// made in the same step as the start: no signal can come between them.
pub fn spawn(cmd: &mut Command) -> io::Result<(Child, ChildGuard)> {
    use std::os::unix::process::CommandExt as _;
    install();
    let mut children = lock(&CHILDREN);
    let child = cmd.process_group(0).spawn()?;
    children.push((child.id(), true));
    let pid = child.id();
    Ok((child, ChildGuard(pid)))
}

/// [`Command::output`] with the child registered ([`spawn`]) until it has been waited for.
pub fn output(cmd: &mut Command) -> io::Result<Output> {
    use std::process::Stdio;
    let (child, _guard) = spawn(cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()))?;
    child.wait_with_output()
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let mut c = lock(&CHILDREN);
        if let Some(i) = c.iter().position(|(p, _)| *p == self.0) {
            c.swap_remove(i);
        }
    }
}
