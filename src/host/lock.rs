//! Run locks: a report holds an exclusive `flock` on its `--out` directory
//! (`OUT/.hotloops.lock`) and on the core it pins (`hotloops-core-N.lock` under
//! `$HOTLOOPS_LOCK_DIR`, else `$XDG_RUNTIME_DIR`, else `/tmp`), so a second report at the same
//! time refuses, naming the first, instead of sharing a core (an A/A floor of ±42%) or mixing
//! files. The kernel drops a lock when its holder exits, killed or not; the file stays, with
//! the last holder's pid.

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
pub fn acquire(path: &Path, what: &str) -> Result<RunLock> {
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
    // SAFETY: flock on a descriptor we own; LOCK_NB: never blocks.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
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
    // Ours now: say who holds it (ignored for a read-only descriptor).
    let args: Vec<String> = std::env::args().collect();
    let _ = file.set_len(0).and_then(|_| file.rewind()).and_then(|_| writeln!(file, "pid {}: {}", std::process::id(), args.join(" ")));
    Ok(RunLock { _file: file, path: path.to_path_buf() })
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
