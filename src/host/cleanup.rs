//! What SIGINT/SIGTERM must undo before the process exits (code 130): temporary files and
//! directories being written ([`temp`]) and child processes being waited for ([`child`]) are
//! registered while they exist, and hooks of the layers above ([`on_signal`]: stopping a
//! PostgreSQL cluster) run first. One `ctrlc` handler, installed by [`install`], for the
//! whole process.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());
static HOOKS: Mutex<Vec<fn()>> = Mutex::new(Vec::new());
/// Held by the handler while it cleans up, then to the exit: [`wait_if_interrupted`] blocks on it.
static CLEANING: Mutex<()> = Mutex::new(());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: std::sync::Once = std::sync::Once::new();

/// Exit code after a signal (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Install the handler (once; later calls do nothing).
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let _held = CLEANING.lock();
            INTERRUPTED.store(true, Ordering::SeqCst);
            let hooks = HOOKS.lock().map(|h| h.clone()).unwrap_or_default();
            for h in hooks {
                h();
            }
            let children = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
            // Only real child ids: kill(0) or kill(-1) would signal whole groups.
            for &pid in children.iter().filter(|&&p| p > 0 && p <= i32::MAX as u32) {
                // SAFETY: kill and waitpid on a child this process started and has not reaped
                // (it is unregistered once waited for).
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                    libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
                }
            }
            let temps = TEMPS.lock().map(|t| t.clone()).unwrap_or_default();
            for t in &temps {
                let _ = if t.is_dir() { std::fs::remove_dir_all(t) } else { std::fs::remove_file(t) };
            }
            eprintln!("interrupted: stopped {} child process(es), removed {} temporary file(s)", children.len(), temps.len());
            std::process::exit(EXIT_INTERRUPTED);
        });
    });
}

/// Whether a signal arrived (the handler is cleaning up and will exit).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// After a failure: if it came from a signal (a child killed by the handler), wait for the
/// handler to finish and exit 130, rather than exiting first with the child's error.
pub fn wait_if_interrupted() {
    if interrupted() {
        let _held = CLEANING.lock();
        std::process::exit(EXIT_INTERRUPTED);
    }
}

/// Run `hook` on a signal, before children are killed and temporaries removed.
pub fn on_signal(hook: fn()) {
    install();
    if let Ok(mut h) = HOOKS.lock() {
        h.push(hook);
    }
}

/// A registered temporary: removed on a signal while this guard lives. Dropping the guard only
/// unregisters it (the file was renamed into place, or removed, by its owner).
#[must_use]
pub struct TempGuard(PathBuf);

/// Register a temporary file or directory.
pub fn temp(path: &Path) -> TempGuard {
    install();
    if let Ok(mut t) = TEMPS.lock() {
        t.push(path.to_path_buf());
    }
    TempGuard(path.to_path_buf())
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Ok(mut t) = TEMPS.lock()
            && let Some(i) = t.iter().position(|p| *p == self.0)
        {
            t.swap_remove(i);
        }
    }
}

/// A registered child: killed on a signal while this guard lives; drop it once the child has
/// been waited for.
#[must_use]
pub struct ChildGuard(u32);

/// Register a child process by pid.
pub fn child(pid: u32) -> ChildGuard {
    install();
    if let Ok(mut c) = CHILDREN.lock() {
        c.push(pid);
    }
    ChildGuard(pid)
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Ok(mut c) = CHILDREN.lock()
            && let Some(i) = c.iter().position(|p| *p == self.0)
        {
            c.swap_remove(i);
        }
    }
}
