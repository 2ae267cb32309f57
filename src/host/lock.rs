//! Run locks: a report holds an exclusive `flock` on its `--out` directory
//! (`OUT/.hotloops.lock`) and on the core it pins (`hotloops-core-N.lock` under
//! `$HOTLOOPS_LOCK_DIR`, else `$XDG_RUNTIME_DIR`, else `/tmp`), so a second report at the same
//! time refuses, naming the first, instead of sharing a core (an A/A floor of ±42%) or mixing
//! files. The kernel drops a lock when its holder exits, killed or not; the file stays, with
//! the last holder's pid. A sweep and `hotloops pg` take the same core lock while they time,
//! waiting for a holder instead of refusing ([`measuring_core`]). A lock file unlinked between
//! a run's open and its lock is not taken for a lock ([`acquire`] opens it again).

use anyhow::{Result, bail};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// A held lock; dropping it releases it.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    /// The lock file.
    pub path: PathBuf,
}

impl RunLock {
    /// The same lock, its file now at `path` (its directory was renamed).
    pub fn moved_to(self, path: PathBuf) -> RunLock {
        RunLock { path, ..self }
    }
}

/// Where core locks live: `$HOTLOOPS_LOCK_DIR`, else `$XDG_RUNTIME_DIR`, else `/tmp`.
pub fn lock_dir() -> PathBuf {
    ["HOTLOOPS_LOCK_DIR", "XDG_RUNTIME_DIR"]
        .iter()
        .filter_map(std::env::var_os)
        .find(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp"))
}

/// The lock file of core `core`.
pub fn core_lock_path(core: usize) -> PathBuf {
    lock_dir().join(format!("hotloops-core-{core}.lock"))
}

/// Take the lock at `path` without waiting; `what` names the resource in the refusal
/// (`core 1`, `--out target/hotloops-report`), which also names the holder's pid and command.
/// A lock file removed while we waited to lock it (its directory's creator gave up) is not a
/// lock: the file is opened again, so that two runs never hold locks on two files of one name.
pub fn acquire(path: &Path, what: &str) -> Result<RunLock> {
    for _ in 0..100 {
        if let Some(l) = try_acquire(path, what, false)? {
            return Ok(l);
        }
    }
    bail!("locking {} for {what}: the lock file kept being replaced", path.display())
}

/// [`acquire`], but a lock held by another run is waited for (saying so once, naming the
/// holder) instead of refused.
pub fn acquire_waiting(path: &Path, what: &str) -> Result<RunLock> {
    match acquire(path, what) {
        Err(e) if e.to_string().contains(" is in use by ") => {
            crate::say!("{}", e.to_string().replacen(": wait for it to finish", ": waiting for it to finish", 1));
            for _ in 0..100 {
                if let Some(l) = try_acquire(path, what, true)? {
                    return Ok(l);
                }
            }
            bail!("locking {} for {what}: the lock file kept being replaced", path.display())
        }
        r => r,
    }
}

/// One try of [`acquire`] (`wait`: block until the holder lets go): `None` when the file
/// locked is no longer the one at `path`.
fn try_acquire(path: &Path, what: &str, wait: bool) -> Result<Option<RunLock>> {
    use std::os::unix::fs::MetadataExt as _;
    let mut file = match OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path) {
        Ok(f) => f,
        // Another user's lock file in /tmp: a read-only descriptor locks as well.
        Err(first) => match File::open(path) {
            Ok(f) => f,
            // No file to open read-only: the first error (EACCES, EPERM, EROFS) says why.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!("cannot create the lock file {} for {what}: {first}", path.display()),
            Err(e) => bail!("cannot open the lock file {} for {what}: {e}", path.display()),
        },
    };
    let how = if wait { libc::LOCK_EX } else { libc::LOCK_EX | libc::LOCK_NB };
    // SAFETY: flock on a descriptor we own (blocking only when asked to wait).
    if unsafe { libc::flock(file.as_raw_fd(), how) } != 0 {
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() { "another process".to_string() } else { format!("another hotloops run ({holder})") };
            bail!("{what} is in use by {holder}: wait for it to finish (lock file {})", path.display());
        }
        bail!("locking {} for {what}: {e}", path.display());
    }
    // Locked: but the file may have been unlinked between our open and our flock.
    let same = match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    };
    if !same {
        return Ok(None);
    }
    // Ours now: say who holds it (ignored for a read-only descriptor).
    let args: Vec<String> = std::env::args().collect();
    let _ = file.set_len(0).and_then(|_| file.rewind()).and_then(|_| writeln!(file, "pid {}: {}", std::process::id(), args.join(" ")));
    Ok(Some(RunLock { _file: file, path: path.to_path_buf() }))
}

/// The lock of the core a timing run pins its measuring thread to (the last the process may
/// use; a report takes the same lock), held while a sweep or `hotloops pg` times: two timing
/// runs on one host take turns instead of timing beside each other, the later one waiting
/// (and saying so). `what` names the run in that line. `None` when the process may use no
/// core it can name.
pub fn measuring_core(what: &str) -> Result<Option<RunLock>> {
    let Some(core) = super::affinity::measuring_core() else { return Ok(None) };
    acquire_waiting(&core_lock_path(core), &format!("core {core} (where {what} times)")).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid_until_it_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.lock");
        let first = acquire(&p, "core 7").unwrap();
        let e = acquire(&p, "core 7").unwrap_err().to_string();
        assert!(e.contains("core 7 is in use by another hotloops run") && e.contains(&format!("pid {}", std::process::id())), "{e}");
        drop(first);
        // Another test's child forked while the file was open holds the flock until it execs:
        // free again within moments, not necessarily at once.
        let start = std::time::Instant::now();
        while let Err(e) = acquire(&p, "core 7") {
            assert!(start.elapsed() < std::time::Duration::from_secs(10), "not free again once the first is dropped: {e:#}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
