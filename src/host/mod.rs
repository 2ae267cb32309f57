//! The bottom layer: facts about this host and this build (CPU, provenance), the file writes
//! every layer above shares (atomic, all-or-none; [`outdir`]: a directory of one run's files),
//! run locks ([`lock`]), values kept out of glibc's heap ([`mapped`]), thread affinity ([`affinity`]), the signal cleanup ([`cleanup`]) and the fresh-process protocol
//! ([`worker`]).
//! It imports nothing of the crate.

pub mod affinity;
pub mod cleanup;
pub mod cpu;
pub mod layout;
pub mod lock;
pub mod mapped;
pub mod outdir;
pub mod provenance;
pub mod worker;

use anyhow::{Result, anyhow};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The crate's root (where `Cargo.toml`, `asm-snapshots/` and `target/` are).
pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Bad input found below the command line (an `--out` that names a file, a file hotloops
/// did not write in the way of one it would): the command exits 2, as for an unknown name.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A command-line value parser of an integer in `lo..=hi`: every refusal names the range
/// (`18446744073709551615 is not in 1..=1000000`), where clap's own ranged parsers say only
/// "number too large to fit in target type" past their integer's width. Checked before
/// anything is sized by the value.
pub fn in_range<T: TryFrom<u128>>(lo: u128, hi: u128) -> impl Fn(&str) -> std::result::Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim().parse::<u128>().ok().filter(|v| (lo..=hi).contains(v)).and_then(|v| T::try_from(v).ok()).ok_or_else(|| format!("{s} is not in {lo}..={hi}"))
    }
}

/// What a command needs and this host lacks (valgrind, llvm-mca, a PMU for `--require
/// counters`, a C configuration not built): exit 2 on every command, the message saying what
/// to install, since running again cannot help until something is installed or chosen.
#[derive(Debug)]
pub struct Unavailable(pub String);

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unavailable {}

// The one printing helper. Every message and result of the crate goes through these, never
// through `print!`/`eprintln!` (which panic on a closed stream; `tests/layers.rs` holds the
// rule), so a closed stream is treated the same way on every command: stderr (`2>&-`, a
// reader gone) loses its lines and the run finishes its work; stdout returns
// [`StdoutClosed`], and the command stops with the work done (`hotloops list | head -1`).
// SIGPIPE stays ignored, as Rust sets it, so that a worker or psql that goes away is an error
// to handle, not a signal that kills us.

/// One line on stderr that never panics: a closed stderr loses the line, not the run. What
/// [`say!`](crate::say) expands to.
pub fn stderr_line(args: std::fmt::Arguments) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(args).and_then(|_| e.write_all(b"\n"));
}

/// `eprintln!` that cannot panic ([`stderr_line`]).
#[macro_export]
macro_rules! say {
    ($($t:tt)*) => { $crate::host::stderr_line(format_args!($($t)*)) };
}

/// A progress line on stderr (`round 3/20`): rewritten in place on a terminal; where stderr is
/// a file or a pipe (CI, `tee`) only the last one is written, as a plain line, so a log holds
/// no carriage returns. `last`: the step that ends the line.
pub fn progress(args: std::fmt::Arguments, last: bool) {
    use std::io::IsTerminal as _;
    let mut e = std::io::stderr().lock();
    let _ = if e.is_terminal() {
        e.write_all(b"\r").and_then(|_| e.write_fmt(args)).and_then(|_| if last { e.write_all(b"\n") } else { e.flush() })
    } else if last {
        e.write_fmt(args).and_then(|_| e.write_all(b"\n"))
    } else {
        Ok(())
    };
}

/// Our stdout was closed by its reader: returned by [`stdout_text`] ([`out!`](crate::out),
/// [`outln!`](crate::outln)) instead of a panic; `main` ends quietly on it, the work done.
#[derive(Debug)]
pub struct StdoutClosed;

impl std::fmt::Display for StdoutClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout was closed")
    }
}

impl std::error::Error for StdoutClosed {}

/// Write to stdout: a reader that closed it is [`StdoutClosed`], any other failure an error.
/// What [`out!`](crate::out) and [`outln!`](crate::outln) expand to.
pub fn stdout_text(args: std::fmt::Arguments, newline: bool) -> Result<()> {
    let mut o = std::io::stdout().lock();
    let r = o.write_fmt(args).and_then(|_| if newline { o.write_all(b"\n") } else { Ok(()) }).and_then(|_| o.flush());
    r.map_err(|e| if e.kind() == std::io::ErrorKind::BrokenPipe { anyhow::Error::new(StdoutClosed) } else { anyhow::Error::new(e).context("writing to stdout") })
}

/// `print!` that returns a closed stdout as [`StdoutClosed`] (`?` in a function returning
/// `anyhow::Result`).
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::host::stdout_text(format_args!($($t)*), false)? };
}

/// `println!` with the rule of [`out!`](crate::out).
#[macro_export]
macro_rules! outln {
    () => { $crate::host::stdout_text(format_args!(""), true)? };
    ($($t:tt)*) => { $crate::host::stdout_text(format_args!($($t)*), true)? };
}

/// Write `bytes` to `path` atomically ([`commit`] of one file).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    commit(&[(path.to_path_buf(), bytes.to_vec())], &[])
}

/// Write several files so that either all appear or none ([`commit`]).
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> Result<()> {
    commit(files, &[])
}

fn parent_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// A temporary file in `dir` that will be readable by others once renamed (tempfile creates
/// 0600; reports are for sharing).
fn readable_temp(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))?;
    Ok(tmp)
}

/// Replace `files` and remove `remove`, all or none: every new file is first written to a
/// registered temporary beside its target; then, with the signal handler held off
/// ([`cleanup::critical`]), each existing target is kept under a second name (a hard link,
/// else a copy), the new files are renamed into place and `remove` is renamed aside; if any
/// step fails, what was done is undone, so the old set stays exactly as it was, and the one
/// error names the file. The kept copies are removed at the end.
pub fn commit(files: &[(PathBuf, Vec<u8>)], remove: &[PathBuf]) -> Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let dir = parent_of(path);
        std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
        let (mut tmp, guard) =
            cleanup::create_temp(|| readable_temp(dir), |t| t.path().to_path_buf()).map_err(|e| anyhow!("cannot write in {}: {e}", dir.display()))?;
        tmp.write_all(bytes).and_then(|_| tmp.flush()).map_err(|e| anyhow!("writing {}: {e}", path.display()))?;
        staged.push((Some(tmp), path.as_path(), guard));
    }
    let _critical = cleanup::critical();
    let mut undo = Undo::default();
    let result = (|| -> Result<(), (PathBuf, std::io::Error)> {
        for (_, path, _) in &staged {
            let kept = keep(path).map_err(|e| (path.to_path_buf(), e))?;
            undo.replaced.push((path.to_path_buf(), kept, false));
        }
        for (i, (tmp, path, _)) in staged.iter_mut().enumerate() {
            let (t, path): (_, &Path) = (tmp.take().expect("staged once"), path);
            t.persist(path).map_err(|e| (path.to_path_buf(), e.error))?;
            undo.replaced[i].2 = true;
        }
        for path in remove {
            if std::fs::symlink_metadata(path).is_ok() {
                let aside = aside_name(path);
                std::fs::rename(path, &aside).map_err(|e| (path.clone(), e))?;
                undo.removed.push((path.clone(), aside));
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => {
            undo.forget();
            Ok(())
        }
        Err((path, e)) => {
            let unrestored = undo.rollback();
            let tail = if unrestored.is_empty() {
                "nothing was changed (the previous files are as they were)".to_string()
            } else {
                format!("and these could not be put back: {}", unrestored.join(", "))
            };
            Err(anyhow!("cannot replace {}: {e}; {tail}", path.display()))
        }
    }
}

/// What [`commit`] did, to undo: each target with its kept old file (if it had one) and
/// whether the new one is in place; each removed file with the name it was moved to.
#[derive(Default)]
struct Undo {
    replaced: Vec<(PathBuf, Option<PathBuf>, bool)>,
    removed: Vec<(PathBuf, PathBuf)>,
}

impl Undo {
    /// Put everything back; returns what could not be.
    fn rollback(&mut self) -> Vec<String> {
        let mut failed = Vec::new();
        for (path, aside) in self.removed.drain(..).rev() {
            if let Err(e) = std::fs::rename(&aside, &path) {
                failed.push(format!("{} ({e}; it is at {})", path.display(), aside.display()));
            }
        }
        for (path, kept, placed) in self.replaced.drain(..).rev() {
            let r = match (kept, placed) {
                (Some(k), true) => std::fs::rename(&k, &path).map_err(|e| (e, Some(k))),
                (Some(k), false) => std::fs::remove_file(&k).map_err(|e| (e, Some(k))),
                (None, true) => std::fs::remove_file(&path).map_err(|e| (e, None)),
                (None, false) => Ok(()),
            };
            if let Err((e, k)) = r {
                failed.push(format!("{} ({e}{})", path.display(), k.map(|k| format!("; the old one is at {}", k.display())).unwrap_or_default()));
            }
        }
        failed
    }

    /// Success: the kept old files and the removed ones go.
    fn forget(&mut self) {
        for (_, kept, _) in self.replaced.drain(..) {
            if let Some(k) = kept {
                let _ = std::fs::remove_file(k);
            }
        }
        for (_, aside) in self.removed.drain(..) {
            let _ = std::fs::remove_file(aside);
        }
    }
}

/// A name beside `path` that nothing uses: `.<name>.hotloops-old-<pid>-<n>`.
fn aside_name(path: &Path) -> PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    loop {
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let p = parent_of(path).join(format!(".{name}.hotloops-old-{}-{n}", std::process::id()));
        if std::fs::symlink_metadata(&p).is_err() {
            return p;
        }
    }
}

/// Keep `path`'s current file under a second name (a hard link; a copy where the file
/// system has none), so that it can be put back. None if there is no file there.
fn keep(path: &Path) -> std::io::Result<Option<PathBuf>> {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return Ok(None) };
    if meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "a directory is in the way"));
    }
    let aside = aside_name(path);
    if std::fs::hard_link(path, &aside).is_err() {
        std::fs::copy(path, &aside)?;
    }
    Ok(Some(aside))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    /// All or none: a set whose last file cannot be renamed into place (a name too long for
    /// any file system, so this fails as root too) leaves the first two as they were, and no
    /// temporary or kept copy behind; the error names the file once.
    #[test]
    fn a_set_that_fails_halfway_is_put_back_as_it_was() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a.txt"), d.path().join("b.txt"));
        std::fs::write(&a, "old a").unwrap();
        std::fs::write(&b, "old b").unwrap();
        let long = d.path().join("x".repeat(300));
        let e = commit(&[(a.clone(), b"new a".to_vec()), (b.clone(), b"new b".to_vec()), (long.clone(), b"new".to_vec())], &[]).unwrap_err().to_string();
        assert!(e.starts_with(&format!("cannot replace {}", long.display())) && e.contains("nothing was changed"), "{e}");
        assert_eq!(e.matches("File name too long").count(), 1, "the cause once: {e}");
        assert_eq!((std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap()), ("old a".into(), "old b".into()));
        assert_eq!(names(d.path()), ["a.txt", "b.txt"]);
        // A directory where a file would go: refused before anything moves.
        std::fs::create_dir(d.path().join("c.txt")).unwrap();
        let e = commit(&[(a.clone(), b"new a".to_vec()), (d.path().join("c.txt"), b"c".to_vec())], &[]).unwrap_err().to_string();
        assert!(e.contains("c.txt") && e.contains("directory"), "{e}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert_eq!(names(d.path()), ["a.txt", "b.txt", "c.txt"]);
        // And one that succeeds replaces, creates and removes together.
        commit(&[(a.clone(), b"new a".to_vec()), (d.path().join("n.txt"), b"n".to_vec())], std::slice::from_ref(&b)).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(names(d.path()), ["a.txt", "c.txt", "n.txt"]);
    }
}
