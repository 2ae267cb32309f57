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
//! creates a temporary then waits for the exit instead. A directory a run creates for its
//! output ([`make_dir`]) goes with its lock file on a signal when nothing else is in it.
//!
//! SIGKILL reaches no handler, so for it: a child the run waits for can be made to die with the
//! run ([`die_with_parent`]: valgrind, the server code's children, the model's tools), and a
//! temporary's name records the run that owns it ([`owned_prefix`]: pid and start time), so
//! that the next run making one of that kind removes those whose run is gone
//! ([`sweep_orphans`], [`temp_dir`]).

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

/// A registered temporary directory `<TMPDIR>/<prefix><owner>XXXXXX` ([`owned_prefix`]),
/// removed when the returned directory is dropped, and by the handler on a signal. The first
/// of a prefix in a process removes those a killed run left ([`sweep_orphans`]). A `TMPDIR`
/// that is not a directory is bad input, named.
pub fn temp_dir(prefix: &str) -> anyhow::Result<(tempfile::TempDir, TempGuard)> {
    let tmp = std::env::temp_dir();
    if !tmp.is_dir() {
        let how = if std::env::var_os("TMPDIR").is_some() { "TMPDIR" } else { "the temporary directory" };
        return Err(super::Usage(format!("{how} {} is not a directory: create it or set TMPDIR to one", tmp.display())).into());
    }
    sweep_once(&tmp, prefix);
    create_temp(|| tempfile::Builder::new().prefix(&owned_prefix(prefix)).tempdir(), |d| d.path().to_path_buf())
        .map_err(|e| anyhow::anyhow!("creating a temporary directory in {}: {e}", tmp.display()))
}

/// [`sweep_orphans`] of `prefix` in `parent`, once per process and place, saying on stderr
/// what it removed.
pub fn sweep_once(parent: &Path, prefix: &str) {
    static DONE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let key = parent.join(prefix);
    {
        let mut d = lock(&DONE);
        if d.contains(&key) {
            return;
        }
        d.push(key);
    }
    let gone = sweep_orphans(parent, prefix, |p| std::fs::remove_dir_all(p));
    if !gone.is_empty() {
        let names: Vec<String> = gone.iter().map(|p| p.display().to_string()).collect();
        super::stderr_line(format_args!("removed {} temporary director(ies) of runs that were killed: {}", gone.len(), names.join(", ")));
    }
}

/// A process's start time (clock ticks after boot, `/proc/PID/stat`): with the pid it names
/// one process for good (pids are reused, the pair is not).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (in parentheses, which may hold spaces): the 20th is starttime.
    stat.rsplit_once(')')?.1.split_whitespace().nth(19)?.parse().ok()
}

/// `<prefix><pid>-<start>-`: the start of the name of a temporary that names the run that owns
/// it (this process), so that a later run can tell one a killed run left behind from a live
/// run's ([`owner_gone`]).
pub fn owned_prefix(prefix: &str) -> String {
    let pid = std::process::id();
    format!("{prefix}{pid}-{}-", start_time(pid).unwrap_or(0))
}

/// Whether the run that owns `name` (made with [`owned_prefix`] of `prefix`) is gone: its pid
/// is not running, or is another process now. `None`: not such a name (left alone).
pub fn owner_gone(name: &str, prefix: &str) -> Option<bool> {
    let mut f = name.strip_prefix(prefix)?.splitn(3, '-');
    let pid: u32 = f.next()?.parse().ok()?;
    let start: u64 = f.next()?.parse().ok()?;
    f.next()?;
    Some(pid != std::process::id() && start_time(pid).is_none_or(|s| s != start))
}

/// Remove (`remove`) every entry of `parent` named by [`owned_prefix`] of `prefix` whose run is
/// gone ([`owner_gone`]): what a run killed by SIGKILL, which no handler sees, left behind.
/// Returns those removed.
pub fn sweep_orphans(parent: &Path, prefix: &str, remove: impl Fn(&Path) -> io::Result<()>) -> Vec<PathBuf> {
    let mut gone = Vec::new();
    for e in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if owner_gone(&name, prefix) == Some(true) && remove(&e.path()).is_ok() {
            gone.push(e.path());
        }
    }
    gone.sort();
    gone
}

/// Make `cmd`'s process die with this process's thread that starts it (Linux's parent-death
/// signal, SIGKILL): a child that the signal handler cannot reach, because this process was
/// killed by SIGKILL, does not run on (valgrind for minutes, a server's helper). Only for a
/// child that the starting thread waits for, or that lives no longer than that thread.
pub fn die_with_parent(cmd: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt as _;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: prctl and getppid are async-signal-safe and touch no memory of the parent;
    // the closure runs in the child between fork and exec (after any uid change, which would
    // clear the setting).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent died before the setting took: go now.
            if libc::getppid() != parent {
                return Err(io::Error::other("the parent is gone"));
            }
            Ok(())
        })
    }
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

/// Move the directory `guard` holds to `to` unless something is there already
/// (`renameat2(RENAME_NOREPLACE)`), with the registry held, so that a signal finds it under
/// one name or the other; `files` are its bookkeeping under the new name. `Ok(false)`: `to`
/// exists, and the guard still holds the old name; an error of kind `Unsupported`: the file
/// system cannot rename without replacing.
pub fn place_made_dir(guard: &mut MadeDirGuard, to: &Path, files: &[PathBuf]) -> io::Result<bool> {
    use std::os::unix::ffi::OsStrExt as _;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let (from_c, to_c) = (c(&guard.0)?, c(to)?);
    let mut made = lock(&MADE);
    // SAFETY: two NUL-terminated paths, relative to the working directory.
    let r = unsafe { libc::renameat2(libc::AT_FDCWD, from_c.as_ptr(), libc::AT_FDCWD, to_c.as_ptr(), libc::RENAME_NOREPLACE) };
    if r != 0 {
        let e = io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::EEXIST) => Ok(false),
            Some(libc::EINVAL) | Some(libc::ENOSYS) => Err(io::Error::new(io::ErrorKind::Unsupported, e)),
            _ => Err(e),
        };
    }
    if let Some(entry) = made.iter_mut().find(|(p, _)| *p == guard.0) {
        *entry = (to.to_path_buf(), files.to_vec());
    }
    guard.0 = to.to_path_buf();
    Ok(true)
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
