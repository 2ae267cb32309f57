//! An output directory that holds only the last run's files: every run writes a manifest
//! (`OUT/.hotloops-manifest.json`) of the files it wrote, and the next run removes what the
//! previous manifest lists and it does not write again (a stale `local-index.svg`). Files
//! hotloops did not write are left alone; [`foreign`] names them so the report can say so.

use anyhow::{Context, Result};
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

/// Write `files` (all in `dir` or below it) and the manifest all-or-none, then remove what the
/// previous manifest listed and this run did not write. Returns the files removed.
pub fn replace(dir: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    let old = previous(dir);
    let manifest = Manifest { written_by: "hotloops".into(), files: files.iter().map(|(p, _)| relative(dir, p)).collect() };
    let mut all = files.to_vec();
    all.push((dir.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?));
    super::write_all_atomic(&all)?;
    let mut removed = Vec::new();
    for stale in old.files.iter().filter(|f| !manifest.files.contains(f)) {
        let Some(p) = inside(dir, stale) else { continue };
        if p.is_file() {
            std::fs::remove_file(&p).with_context(|| format!("removing the previous run's {}", p.display()))?;
            removed.push(p);
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_runs_files_go_and_others_stay_named() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
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
        std::fs::write(d.path().parent().unwrap().join("x-hotloops-never"), "").ok();
        assert!(replace(dir, &[(dir.join("report.json"), b"3".to_vec())]).unwrap().is_empty());
    }
}
