//! An output directory that holds only the last run's files: every command that writes into
//! a directory claims it first ([`OutDir::claim`]: checked, locked, and refused if a file it
//! would write is there but not hotloops'), then writes a manifest
//! (`OUT/.hotloops-manifest.json`) of the files it wrote with them, all or none; the next run
//! removes what the previous manifest lists and it does not write again (a stale
//! `local-index.svg`). Files hotloops did not write are left alone; [`foreign`] names them.

use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::{Component, Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = ".hotloops-manifest.json";
/// The directory's lock file ([`super::lock`]).
pub const LOCK: &str = ".hotloops.lock";

/// What a run wrote into its directory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `hotloops`.
    pub written_by: String,
    /// Paths relative to the directory.
    pub files: Vec<String>,
}

/// The previous run's manifest in `dir` (empty if none or unreadable).
pub fn previous(dir: &Path) -> Manifest {
    std::fs::read(dir.join(MANIFEST)).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
}

/// A manifest entry that stays inside the directory (no `..`, not absolute).
fn inside(dir: &Path, rel: &str) -> Option<PathBuf> {
    let p = Path::new(rel);
    p.components().all(|c| matches!(c, Component::Normal(_))).then(|| dir.join(p))
}

fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).to_string_lossy().into_owned()
}

/// Entries of `dir` that neither the previous manifest lists nor this run will write
/// (`planned`): not ours, so left alone. Sorted names.
pub fn foreign(dir: &Path, planned: &[PathBuf]) -> Vec<String> {
    let old = previous(dir);
    let ours: Vec<String> = planned.iter().map(|p| relative(dir, p)).collect();
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.retain(|n| n != MANIFEST && n != LOCK && !old.files.contains(n) && !ours.contains(n));
    v.sort();
    v
}

/// Write `files` (all in `dir` or below it) and the manifest all-or-none, and remove what
/// the previous manifest listed and this run did not write, in the same all-or-none step
/// ([`super::commit`]). Returns the files removed.
pub fn replace(dir: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    let old = previous(dir);
    let manifest = Manifest { written_by: "hotloops".into(), files: files.iter().map(|(p, _)| relative(dir, p)).collect() };
    let mut all = files.to_vec();
    all.push((dir.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?));
    let stale: Vec<PathBuf> =
        old.files.iter().filter(|f| !manifest.files.contains(f)).filter_map(|f| inside(dir, f)).filter(|p| p.is_file()).collect();
    super::commit(&all, &stale)?;
    Ok(stale)
}

/// Planned files that are already in `dir` but that no manifest of a previous run lists: a
/// user's own `report.md`, which a run must not replace. Sorted names.
pub fn in_the_way(dir: &Path, planned: &[String]) -> Vec<String> {
    let old = previous(dir);
    let mut v: Vec<String> =
        planned.iter().filter(|n| !old.files.contains(n) && std::fs::symlink_metadata(dir.join(n)).is_ok()).cloned().collect();
    v.sort();
    v.dedup();
    v
}

/// An output directory claimed by one run ([`OutDir::claim`]): checked, locked, and written
/// all-or-none with its manifest ([`OutDir::replace`]). Dropped without a commit, it removes
/// the directory again if the claim created it (a failed run leaves no empty `--out`).
#[derive(Debug)]
pub struct OutDir {
    /// The directory.
    pub dir: PathBuf,
    created: bool,
    committed: bool,
    lock: Option<super::lock::RunLock>,
}

impl OutDir {
    /// Claim `dir` for a run that will write `planned` (names relative to `dir`), before any
    /// work: a path that is a file is bad input, one that cannot be written an error; another
    /// run holding it is refused ([`super::lock`]); a planned name already there that no
    /// manifest lists is refused, naming it, unless it is one of `own` (the report `render`
    /// reads, written back unchanged).
    pub fn claim(dir: &Path, planned: &[String], own: &[String]) -> Result<OutDir> {
        let created = std::fs::symlink_metadata(dir).is_err();
        super::check_writable(dir)?;
        let mut out = OutDir { dir: dir.to_path_buf(), created, committed: false, lock: None };
        out.lock = Some(super::lock::acquire(&dir.join(LOCK), &format!("--out {}", dir.display()))?);
        let clash: Vec<String> = in_the_way(dir, planned).into_iter().filter(|n| !own.contains(n)).collect();
        if !clash.is_empty() {
            let (n, them) = (clash.len(), if clash.len() == 1 { "it" } else { "them" });
            return Err(super::Usage(format!(
                "--out {} holds {} that hotloops did not write (no {MANIFEST} there lists {}): \
                 this run would replace {them}; move {them} away or choose another --out (nothing was written)",
                dir.display(),
                if n == 1 { clash[0].clone() } else { format!("{n} files, {}", clash.join(", ")) },
                them
            ))
            .into());
        }
        Ok(out)
    }

    /// Entries that are neither the previous run's nor planned: left alone ([`foreign`]).
    pub fn foreign(&self, planned: &[PathBuf]) -> Vec<String> {
        foreign(&self.dir, planned)
    }

    /// Write `files` with the manifest, all or none ([`replace`]).
    pub fn replace(&mut self, files: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>> {
        let removed = replace(&self.dir, files)?;
        self.committed = true;
        Ok(removed)
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.created && !self.committed {
            let _ = std::fs::remove_file(self.dir.join(LOCK));
            drop(self.lock.take());
            // Only if empty: whatever else is there is not ours to remove.
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_runs_files_go_and_others_stay_named() {
        let d = tempfile::tempdir().unwrap();
        let dir = &d.path().join("out");
        std::fs::create_dir(dir).unwrap();
        replace(dir, &[(dir.join("report.json"), b"1".to_vec()), (dir.join("old.svg"), b"s".to_vec())]).unwrap();
        std::fs::write(dir.join("mine.txt"), "a user's").unwrap();
        let planned = [dir.join("report.json")];
        assert_eq!(foreign(dir, &planned), vec!["mine.txt".to_string()]);
        let removed = replace(dir, &[(dir.join("report.json"), b"2".to_vec())]).unwrap();
        assert_eq!(removed, vec![dir.join("old.svg")]);
        assert!(!dir.join("old.svg").exists() && dir.join("mine.txt").exists());
        assert_eq!(std::fs::read(dir.join("report.json")).unwrap(), b"2");
        assert_eq!(previous(dir).files, vec!["report.json".to_string()]);
        // A manifest that points outside the directory removes nothing there.
        std::fs::write(dir.join(MANIFEST), r#"{"written_by": "hotloops", "files": ["../x", "/etc/passwd"]}"#).unwrap();
        std::fs::write(d.path().join("x"), "outside").unwrap();
        assert!(replace(dir, &[(dir.join("report.json"), b"3".to_vec())]).unwrap().is_empty());
        assert!(d.path().join("x").exists() && std::path::Path::new("/etc/passwd").exists());
    }

    /// A claim of a directory this process just let go of. Another test's child, forked in
    /// the moment the lock file was open, holds a copy of its descriptor (and so the flock)
    /// until it execs: so retry for a while, as a second run of the command would wait.
    fn reclaim(dir: &Path, planned: &[String], own: &[String]) -> OutDir {
        let start = std::time::Instant::now();
        loop {
            match OutDir::claim(dir, planned, own) {
                Ok(o) => return o,
                Err(e) if e.to_string().contains("in use by") && start.elapsed() < std::time::Duration::from_secs(10) => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                Err(e) => panic!("{e:#}"),
            }
        }
    }

    /// A claim refuses a file of the user's where the run would write one, before any work,
    /// and a failed run leaves no directory it created.
    #[test]
    fn a_claim_refuses_a_users_file_and_a_failed_run_leaves_no_new_directory() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("out");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("report.md"), "my notes").unwrap();
        let planned = ["report.json".to_string(), "report.md".to_string()];
        let e = OutDir::claim(&dir, &planned, &[]).unwrap_err();
        assert!(e.is::<super::super::Usage>() && e.to_string().contains("holds report.md that hotloops did not write"), "{e:#}");
        assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), "my notes");
        // Named as its own (render's input), it is not in the way.
        drop(reclaim(&dir, &planned, &["report.md".to_string()]));
        // Once a manifest lists it, it is ours to replace.
        let mut out = reclaim(&dir, &["other.svg".to_string()], &[]);
        assert_eq!(out.foreign(&[dir.join("other.svg")]), vec!["report.md".to_string()]);
        out.replace(&[(dir.join("report.md"), b"ours".to_vec())]).unwrap();
        drop(out);
        drop(reclaim(&dir, &planned, &[]));
        // A directory the claim created goes again when nothing was written.
        let fresh = d.path().join("fresh");
        let claimed = OutDir::claim(&fresh, &planned, &[]).unwrap();
        assert!(fresh.join(LOCK).is_file());
        drop(claimed);
        assert!(!fresh.exists());
        // A second claim while the first holds it is refused.
        let first = reclaim(&dir, &planned, &[]);
        assert!(OutDir::claim(&dir, &planned, &[]).unwrap_err().to_string().contains("in use by another hotloops run"));
        drop(first);
    }
}
