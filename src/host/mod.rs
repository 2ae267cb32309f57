//! The bottom layer: facts about this host and this build (CPU, provenance), the file writes
//! every layer above shares (atomic, all-or-none; [`outdir`]: a directory of one run's files),
//! run locks ([`lock`]), thread affinity ([`affinity`]), the signal cleanup ([`cleanup`]) and the fresh-process protocol
//! ([`worker`]).
//! It imports nothing of the crate.

pub mod affinity;
pub mod cleanup;
pub mod cpu;
pub mod layout;
pub mod lock;
pub mod outdir;
pub mod provenance;
pub mod worker;

use anyhow::{Context, Result};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The crate's root (where `Cargo.toml`, `asm-snapshots/` and `target/` are).
pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Write `bytes` to `path` atomically: a temporary file in the same directory, then rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = readable_temp(dir)?;
    let _guard = cleanup::temp(tmp.path());
    tmp.write_all(bytes)?;
    tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// A temporary file in `dir` that will be readable by others once renamed (tempfile creates
/// 0600; reports are for sharing).
fn readable_temp(dir: &Path) -> Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))?;
    Ok(tmp)
}

/// Write several files so that either all appear or none: every file is first written to a
/// temporary in its directory, and only when all have been written are they renamed.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut tmp = readable_temp(dir)?;
        let guard = cleanup::temp(tmp.path());
        tmp.write_all(bytes).with_context(|| format!("writing {}", path.display()))?;
        staged.push((tmp, path, guard));
    }
    for (tmp, path, _guard) in staged {
        tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Fail early, before measuring, if `dir` cannot take files.
pub fn check_writable(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the directory", dir.display()))?;
    tempfile::NamedTempFile::new_in(dir).with_context(|| format!("--out {}: the directory is not writable", dir.display()))?;
    Ok(())
}

