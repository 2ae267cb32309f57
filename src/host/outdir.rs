//! Output directories that several commands share without losing each other's results.
//!
//! Every command that writes into a directory claims it first ([`OutDir::claim`]): the path
//! checked, the directory locked ([`super::lock`]), and what the run would replace checked
//! before any work. The run then writes its files and the manifest
//! (`OUT/.hotloops-manifest.json`) all or none ([`OutDir::replace`]).
//!
//! The manifest lists each command's files apart, under the command and mode that wrote them
//! ([`Claim::by`]: `report`, `pg --study read-stream`, `pg --seed 004`, ...), so:
//!
//! - a run removes only its own earlier files: what the same command and mode wrote last time
//!   and does not write again (a stale `local-index.svg` of a report); another command's
//!   files stay, whatever order the commands ran in;
//! - a run never replaces or removes its own inputs (`compare R/report.json X.json --out R`):
//!   a planned file that is one of [`Claim::inputs`] is refused, naming it, unless it is
//!   written back byte for byte ([`Claim::unchanged`], `render` beside its report);
//! - whatever a run would replace that it did not write itself (a user's `report.md`, another
//!   command's file of the same name) is named and refused unless [`Claim::force`];
//! - a manifest of an earlier version (one list, whichever command ran last) counts as
//!   hotloops' files that no command removes, and that a run may write again.
//!
//! A claim is race-free: the directory is created (or found) and locked before anything else
//! is created or removed in it, and a run that loses the race removes nothing it did not
//! create. A run that created the directory and fails or is interrupted before writing leaves
//! no directory behind ([`super::cleanup::make_dir`]). Files hotloops did not write are left
//! alone; [`foreign`] names them.

use super::Usage;
use anyhow::{Result, anyhow};
use serde::{Deserialize, Serialize};
use std::path::{Component, Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = ".hotloops-manifest.json";
/// The directory's lock file ([`super::lock`]).
pub const LOCK: &str = ".hotloops.lock";

/// One command's files in the directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The command and mode that wrote them (`report`, `pg --seed 004`); empty for the files
    /// of an earlier version's manifest, whose command is not known.
    pub by: String,
    /// Paths relative to the directory.
    pub files: Vec<String>,
}

/// What hotloops wrote into a directory, per command.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `hotloops`.
    pub written_by: String,
    /// Each command's files.
    #[serde(default)]
    pub runs: Vec<Run>,
    /// An earlier version's single list: read into `runs` (under an empty `by`), never written.
    #[serde(default, skip_serializing)]
    files: Vec<String>,
}

impl Manifest {
    /// The command that wrote `name` (`Some("")`: an earlier version), if any.
    pub fn owner(&self, name: &str) -> Option<&str> {
        self.runs.iter().find(|r| r.files.iter().any(|f| f == name)).map(|r| r.by.as_str())
    }

    /// The files of `by`'s last run.
    pub fn files_of(&self, by: &str) -> &[String] {
        self.runs.iter().find(|r| r.by == by).map(|r| r.files.as_slice()).unwrap_or(&[])
    }

    /// Every file any run wrote.
    fn all(&self) -> impl Iterator<Item = &String> {
        self.runs.iter().flat_map(|r| r.files.iter())
    }
}

/// The manifest in `dir` (empty if none or unreadable), an earlier version's list read as
/// files of an unknown command.
pub fn previous(dir: &Path) -> Manifest {
    let mut m: Manifest = std::fs::read(dir.join(MANIFEST)).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    let old = std::mem::take(&mut m.files);
    if !old.is_empty() {
        m.runs.retain(|r| !r.by.is_empty());
        m.runs.push(Run { by: String::new(), files: old });
    }
    m
}

/// A manifest entry that stays inside the directory (no `..`, not absolute).
fn inside(dir: &Path, rel: &str) -> Option<PathBuf> {
    let p = Path::new(rel);
    p.components().all(|c| matches!(c, Component::Normal(_))).then(|| dir.join(p))
}

fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).to_string_lossy().into_owned()
}

/// Whether two paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Entries of `dir` that no run of the manifest lists and this run will not write
/// (`planned`): not hotloops', so left alone. Sorted names.
pub fn foreign(dir: &Path, planned: &[PathBuf]) -> Vec<String> {
    let old = previous(dir);
    let ours: Vec<String> = planned.iter().map(|p| relative(dir, p)).collect();
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.retain(|n| n != MANIFEST && n != LOCK && !old.all().any(|f| f == n) && !ours.contains(n));
    v.sort();
    v
}

/// What a run will write into its directory, and on whose behalf.
#[derive(Clone, Debug, Default)]
pub struct Claim {
    /// The command and mode (`report`, `pg --study read-stream`): the manifest's key, and
    /// how a refusal names the writer of a file (`written by hotloops report`).
    pub by: String,
    /// The names it will write, relative to the directory.
    pub files: Vec<String>,
    /// The files it reads: never replaced or removed.
    pub inputs: Vec<PathBuf>,
    /// Planned names that are an input written back byte for byte (`render` beside its
    /// report.json): not in the way, whoever wrote them.
    pub unchanged: Vec<String>,
    /// Replace files of another command, or of no command, of a planned name (`--force`).
    pub force: bool,
}

impl Claim {
    /// A run of `by` that will write `files`.
    pub fn new<S: Into<String>>(by: &str, files: impl IntoIterator<Item = S>) -> Claim {
        Claim { by: by.to_string(), files: files.into_iter().map(Into::into).collect(), ..Claim::default() }
    }

    /// The files the run reads.
    pub fn inputs(mut self, inputs: impl IntoIterator<Item = impl Into<PathBuf>>) -> Claim {
        self.inputs.extend(inputs.into_iter().map(Into::into));
        self
    }

    /// Planned names written back unchanged.
    pub fn unchanged<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Claim {
        self.unchanged.extend(names.into_iter().map(Into::into));
        self
    }

    /// `--force`.
    pub fn force(mut self, force: bool) -> Claim {
        self.force = force;
        self
    }

    /// The input that `path` is, if any.
    fn input_at(&self, path: &Path) -> Option<&PathBuf> {
        self.inputs.iter().find(|i| same_file(i, path))
    }
}

/// Refuse an `--out` that is, or runs through, a file, or is a link to nowhere.
fn check_path(dir: &Path) -> Result<()> {
    if let Ok(m) = std::fs::symlink_metadata(dir)
        && m.file_type().is_symlink()
        && std::fs::metadata(dir).is_err()
    {
        let to = std::fs::read_link(dir).map(|t| t.display().to_string()).unwrap_or_else(|_| "?".into());
        return Err(Usage(format!("--out {} is a symbolic link to {to}, which does not exist: create {to} or choose another --out", dir.display())).into());
    }
    for a in dir.ancestors().filter(|a| !a.as_os_str().is_empty()) {
        if let Ok(m) = std::fs::metadata(a)
            && !m.is_dir()
        {
            let what = if a == dir { "is a file, not a directory".to_string() } else { format!("runs through {}, a file", a.display()) };
            return Err(Usage(format!("--out {}: {what}", dir.display())).into());
        }
    }
    Ok(())
}

/// Make `dir` with its lock held: a directory of this run's own beside it (named for this run,
/// so that a later claim beside it removes it if the run was killed) with the lock taken
/// inside, renamed to `dir` unless something is there already. `None`: another run's is there.
fn make_locked(dir: &Path, lock_path: &Path, what: &str) -> Result<Option<(super::cleanup::MadeDirGuard, super::lock::RunLock)>> {
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.hotloops-new-");
    super::cleanup::sweep_once(parent, &prefix);
    let tmp = parent.join(format!("{}0", super::cleanup::owned_prefix(&prefix)));
    let tmp_lock = tmp.join(LOCK);
    let mut guard = match super::cleanup::make_dir(&tmp, std::slice::from_ref(&tmp_lock)).map_err(|e| anyhow!("--out {}: cannot create the directory: {e}", dir.display()))? {
        Some(g) => g,
        None => return Err(anyhow!("--out {}: {} is in the way", dir.display(), tmp.display())),
    };
    let undo = || {
        let _ = std::fs::remove_file(&tmp_lock);
        let _ = std::fs::remove_dir(&tmp);
    };
    let lock = match super::lock::acquire(&tmp_lock, what) {
        Ok(l) => l,
        Err(e) => {
            undo();
            return Err(e);
        }
    };
    match super::cleanup::place_made_dir(&mut guard, dir, &[lock_path.to_path_buf()]) {
        Ok(true) => Ok(Some((guard, lock.moved_to(lock_path.to_path_buf())))),
        Ok(false) => {
            undo();
            drop(lock);
            Ok(None)
        }
        Err(e) => {
            undo();
            Err(e.into())
        }
    }
}

/// An output directory claimed by one run ([`OutDir::claim`]): checked, locked, and written
/// all-or-none with its manifest ([`OutDir::replace`]). Dropped without a commit, it removes
/// the directory again if the claim created it (a failed run leaves no empty `--out`).
#[derive(Debug)]
pub struct OutDir {
    /// The directory.
    pub dir: PathBuf,
    claim: Claim,
    created: Option<super::cleanup::MadeDirGuard>,
    committed: bool,
    lock: Option<super::lock::RunLock>,
}

impl OutDir {
    /// Claim `dir` for `claim`, before any work: a path that is a file or a dangling link is
    /// bad input, one that cannot be written an error; another run holding it is refused
    /// ([`super::lock`]); a planned name that is an input, or is there and was not written by
    /// this command, is refused naming it (the latter unless `claim.force`).
    pub fn claim(dir: &Path, claim: Claim) -> Result<OutDir> {
        check_path(dir)?;
        let lock_path = dir.join(LOCK);
        let what = format!("--out {}", dir.display());
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| anyhow!("--out {}: cannot create the directory: {e}", dir.display()))?;
        }
        // A new directory is made locked: created under a name of its own with its lock taken,
        // then renamed into place unless another run's is there first. So the run that creates
        // it is the run that holds it, and only it ever removes it. An existing directory is
        // locked where it is; one that vanishes before we lock it (its creator failed and
        // removed it) is looked for again.
        let mut tries = 0;
        let (created, lock) = loop {
            tries += 1;
            if std::fs::symlink_metadata(dir).is_err() {
                match make_locked(dir, &lock_path, &what) {
                    Ok(Some((g, l))) => break (Some(g), l),
                    Ok(None) => {}
                    Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::Unsupported) => {
                        // No rename without replacing here: create it in place.
                        if let Some(g) = super::cleanup::make_dir(dir, std::slice::from_ref(&lock_path)).map_err(|e| anyhow!("--out {}: cannot create the directory: {e}", dir.display()))? {
                            match super::lock::acquire(&lock_path, &what) {
                                Ok(l) => break (Some(g), l),
                                Err(e) => {
                                    let _ = std::fs::remove_dir(dir);
                                    return Err(e);
                                }
                            }
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
            check_path(dir)?;
            match super::lock::acquire(&lock_path, &what) {
                Ok(l) => break (None, l),
                Err(_) if !dir.exists() && tries < 5 => continue,
                Err(e) => return Err(e),
            }
        };
        let out = OutDir { dir: dir.to_path_buf(), claim, created, committed: false, lock: Some(lock) };
        let _probe = super::cleanup::create_temp(|| tempfile::NamedTempFile::new_in(dir), |t| t.path().to_path_buf())
            .map_err(|e| anyhow!("--out {}: the directory is not writable: {e}", dir.display()))?;
        drop(_probe);
        Self::check(&out.dir, &out.claim)?;
        Ok(out)
    }

    /// The checks of [`OutDir::claim`] that take no lock (the path, and what the planned files
    /// would replace), for a command that must say such bad input before other checks that
    /// could fail first (which servers it runs on); `claim` checks again under the lock.
    pub fn precheck(dir: &Path, claim: &Claim) -> Result<()> {
        check_path(dir)?;
        if dir.is_dir() { Self::check(dir, claim) } else { Ok(()) }
    }

    /// Refuse what the claim would overwrite and did not write (see [`OutDir::claim`]).
    fn check(dir: &Path, c: &Claim) -> Result<()> {
        let m = previous(dir);
        for name in &c.files {
            let path = dir.join(name);
            if let Some(i) = c.input_at(&path)
                && !c.unchanged.contains(name)
            {
                let given = if i.as_path() == path { String::new() } else { format!(" (given as {})", i.display()) };
                return Err(Usage(format!(
                    "--out {}: {} is an input of this run{given}: writing {name} would replace it; choose another --out (nothing was written)",
                    dir.display(),
                    path.display(),
                ))
                .into());
            }
        }
        let mut theirs: Vec<(String, &str)> = Vec::new();
        let mut nobodys: Vec<String> = Vec::new();
        for name in &c.files {
            if std::fs::symlink_metadata(dir.join(name)).is_err() || c.unchanged.contains(name) {
                continue;
            }
            match m.owner(name) {
                Some(by) if by == c.by || by.is_empty() => {}
                Some(by) => theirs.push((name.clone(), by)),
                None => nobodys.push(name.clone()),
            }
        }
        if c.force || (theirs.is_empty() && nobodys.is_empty()) {
            return Ok(());
        }
        let list = |v: &[String]| if v.len() == 1 { v[0].clone() } else { format!("{} files, {}", v.len(), v.join(", ")) };
        let mut what = Vec::new();
        if !nobodys.is_empty() {
            what.push(format!("{} that hotloops did not write (no {MANIFEST} there lists {})", list(&nobodys), if nobodys.len() == 1 { "it" } else { "them" }));
        }
        let mut writers: Vec<&str> = theirs.iter().map(|t| t.1).collect();
        writers.dedup();
        for w in writers {
            let names: Vec<String> = theirs.iter().filter(|t| t.1 == w).map(|t| t.0.clone()).collect();
            what.push(format!("{} written by another command, `hotloops {w}`", list(&names)));
        }
        let n = nobodys.len() + theirs.len();
        let them = if n == 1 { "it" } else { "them" };
        Err(Usage(format!(
            "--out {} holds {}: this run (`hotloops {}`) would replace {them}; move {them} away, choose another --out, or pass --force to replace {them} (nothing was written)",
            dir.display(),
            what.join(", and "),
            c.by
        ))
        .into())
    }

    /// Entries that no run wrote and this one will not: left alone ([`foreign`]).
    pub fn foreign(&self, planned: &[PathBuf]) -> Vec<String> {
        foreign(&self.dir, planned)
    }

    /// Write `files` (all in the directory or below it) with the manifest, all or none, and
    /// remove what this command's previous run wrote and this one does not write again, in the
    /// same step ([`super::commit`]); an input is never removed. Returns the files removed.
    pub fn replace(&mut self, files: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>> {
        let dir = self.dir.clone();
        let mut m = previous(&dir);
        let names: Vec<String> = files.iter().map(|(p, _)| relative(&dir, p)).collect();
        if let Some((p, _)) = files.iter().find(|(p, _)| {
            let n = relative(&dir, p);
            self.claim.input_at(p).is_some() && !self.claim.unchanged.contains(&n)
        }) {
            return Err(Usage(format!("{} is an input of this run: it would be replaced (nothing was written)", p.display())).into());
        }
        let stale: Vec<PathBuf> = m
            .files_of(&self.claim.by)
            .iter()
            .filter(|f| !names.contains(f))
            .filter_map(|f| inside(&dir, f))
            .filter(|p| p.is_file() && self.claim.input_at(p).is_none())
            .collect();
        // This run's files are its own from now on, whoever wrote them before (--force).
        m.runs.retain(|r| r.by != self.claim.by);
        for r in &mut m.runs {
            r.files.retain(|f| !names.contains(f));
        }
        m.runs.retain(|r| !r.files.is_empty());
        m.runs.push(Run { by: self.claim.by.clone(), files: names });
        m.written_by = "hotloops".into();
        let mut all = files.to_vec();
        all.push((dir.join(MANIFEST), serde_json::to_vec_pretty(&m)?));
        super::commit(&all, &stale)?;
        self.committed = true;
        self.created = None;
        Ok(stale)
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.created.is_some() && !self.committed {
            // Ours to remove: the lock file (while we still hold it) and the directory, if
            // nothing else is in it.
            let _ = std::fs::remove_file(self.dir.join(LOCK));
            drop(self.lock.take());
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One claim, no retry.
    fn try_claim(dir: &Path, by: &str, files: &[&str]) -> Result<OutDir> {
        OutDir::claim(dir, Claim::new(by, files.iter().copied()))
    }

    /// A claim, retried while the lock is still held by a copy of a descriptor of ours that
    /// another test's child got when it forked (until it execs): see [`reclaim`].
    fn claim_retrying(dir: &Path, c: Claim) -> Result<OutDir> {
        let start = std::time::Instant::now();
        loop {
            match OutDir::claim(dir, c.clone()) {
                Err(e) if e.to_string().contains("in use by") && start.elapsed() < std::time::Duration::from_secs(10) => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                r => return r,
            }
        }
    }

    fn claim(dir: &Path, by: &str, files: &[&str]) -> Result<OutDir> {
        claim_retrying(dir, Claim::new(by, files.iter().copied()))
    }

    fn write(out: &mut OutDir, files: &[(&str, &str)]) -> Vec<PathBuf> {
        let f: Vec<(PathBuf, Vec<u8>)> = files.iter().map(|(n, t)| (out.dir.join(n), t.as_bytes().to_vec())).collect();
        out.replace(&f).unwrap()
    }

    /// A claim of a directory this process just let go of. Another test's child, forked in
    /// the moment the lock file was open, holds a copy of its descriptor (and so the flock)
    /// until it execs: so retry for a while, as a second run of the command would wait.
    fn reclaim(dir: &Path, c: Claim) -> OutDir {
        claim_retrying(dir, c).unwrap_or_else(|e| panic!("{e:#}"))
    }

    #[test]
    fn a_run_removes_its_own_stale_files_and_no_other_commands() {
        let d = tempfile::tempdir().unwrap();
        let dir = &d.path().join("out");
        let mut r = reclaim(dir, Claim::new("report", ["report.json", "old.svg"]));
        write(&mut r, &[("report.json", "1"), ("old.svg", "s")]);
        drop(r);
        let mut p = reclaim(dir, Claim::new("pg --study read-stream", ["pg-read-stream.json"]));
        write(&mut p, &[("pg-read-stream.json", "rs")]);
        drop(p);
        std::fs::write(dir.join("mine.txt"), "a user's").unwrap();
        assert_eq!(foreign(dir, &[dir.join("report.json")]), vec!["mine.txt".to_string()]);
        // A second report: its own old.svg goes; the pg file and the user's stay.
        let mut r = reclaim(dir, Claim::new("report", ["report.json"]));
        assert_eq!(write(&mut r, &[("report.json", "2")]), vec![dir.join("old.svg")]);
        drop(r);
        // Another pg mode: the read-stream file is not its to remove.
        let mut s = reclaim(dir, Claim::new("pg --seed 004", ["pg-seed004.json"]));
        assert!(write(&mut s, &[("pg-seed004.json", "s")]).is_empty());
        drop(s);
        assert!(!dir.join("old.svg").exists() && dir.join("mine.txt").exists());
        assert_eq!(std::fs::read_to_string(dir.join("report.json")).unwrap(), "2");
        assert_eq!(std::fs::read_to_string(dir.join("pg-read-stream.json")).unwrap(), "rs");
        let m = previous(dir);
        assert_eq!(m.owner("report.json"), Some("report"));
        assert_eq!(m.owner("pg-read-stream.json"), Some("pg --study read-stream"));
        assert_eq!(m.owner("pg-seed004.json"), Some("pg --seed 004"));
    }

    #[test]
    fn an_earlier_versions_manifest_is_kept_and_never_removed_from() {
        let d = tempfile::tempdir().unwrap();
        let dir = &d.path().join("out");
        std::fs::create_dir(dir).unwrap();
        std::fs::write(dir.join("report.json"), "old").unwrap();
        std::fs::write(dir.join("pg-seed004.json"), "old").unwrap();
        std::fs::write(dir.join(MANIFEST), r#"{"written_by": "hotloops", "files": ["report.json", "pg-seed004.json"]}"#).unwrap();
        // Written again by any command; removed by none.
        let mut r = reclaim(dir, Claim::new("report", ["report.json"]));
        assert!(write(&mut r, &[("report.json", "new")]).is_empty());
        drop(r);
        assert_eq!(std::fs::read_to_string(dir.join("pg-seed004.json")).unwrap(), "old");
        let m = previous(dir);
        assert_eq!(m.owner("report.json"), Some("report"));
        assert_eq!(m.owner("pg-seed004.json"), Some(""));
        // A manifest that points outside the directory removes nothing there.
        std::fs::write(dir.join(MANIFEST), r#"{"written_by": "hotloops", "runs": [{"by": "report", "files": ["report.json", "../x", "/etc/passwd"]}]}"#).unwrap();
        std::fs::write(d.path().join("x"), "outside").unwrap();
        let mut r = reclaim(dir, Claim::new("report", ["report.json"]));
        assert!(write(&mut r, &[("report.json", "3")]).is_empty());
        assert!(d.path().join("x").exists() && Path::new("/etc/passwd").exists());
    }

    /// A claim refuses a file of the user's, or of another command, where the run would write
    /// one, before any work, naming it and its writer; --force replaces it; an input is
    /// refused even then; a failed run leaves no directory it created.
    #[test]
    fn a_claim_refuses_what_it_did_not_write_and_its_inputs() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("out");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("report.md"), "my notes").unwrap();
        let planned = ["report.json", "report.md"];
        let e = claim(&dir, "report", &planned).unwrap_err();
        assert!(e.is::<Usage>() && e.to_string().contains("holds report.md that hotloops did not write") && e.to_string().contains("--force"), "{e:#}");
        assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), "my notes");
        // Written back unchanged (render's input), it is not in the way.
        drop(reclaim(&dir, Claim::new("report", planned).unchanged(["report.md"])));
        // Another command's file of the same name: named with its writer.
        let mut x = reclaim(&dir, Claim::new("x", ["shared.md"]));
        write(&mut x, &[("shared.md", "x's")]);
        drop(x);
        let e = claim(&dir, "y", &["shared.md"]).unwrap_err();
        assert!(e.to_string().contains("shared.md written by another command, `hotloops x`"), "{e:#}");
        // --force: replaced, and y's from now on.
        let mut y = reclaim(&dir, Claim::new("y", ["shared.md"]).force(true));
        write(&mut y, &[("shared.md", "y's")]);
        drop(y);
        assert_eq!(previous(&dir).owner("shared.md"), Some("y"));
        assert!(previous(&dir).files_of("x").is_empty());
        // An input is never replaced, --force or not.
        let e = claim_retrying(&dir, Claim::new("y", ["shared.md"]).inputs([dir.join("shared.md")]).force(true)).unwrap_err();
        assert!(e.is::<Usage>() && e.to_string().contains("is an input of this run"), "{e:#}");
        assert_eq!(std::fs::read_to_string(dir.join("shared.md")).unwrap(), "y's");
        // ...nor removed as stale.
        let mut y = reclaim(&dir, Claim::new("y", ["other.md"]).inputs([dir.join("shared.md")]));
        assert!(write(&mut y, &[("other.md", "o")]).is_empty());
        drop(y);
        assert!(dir.join("shared.md").exists());
        // A directory the claim created goes again when nothing was written.
        let fresh = d.path().join("fresh");
        let claimed = try_claim(&fresh, "report", &planned).unwrap();
        assert!(fresh.join(LOCK).is_file());
        drop(claimed);
        assert!(!fresh.exists());
        // A second claim while the first holds it is refused, and removes nothing.
        let first = try_claim(&fresh, "report", &planned).unwrap();
        assert!(try_claim(&fresh, "report", &planned).unwrap_err().to_string().contains("in use by another hotloops run"));
        assert!(fresh.join(LOCK).is_file(), "the loser removed the winner's lock file");
        drop(first);
        // A dangling link is named as one.
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path().join("nowhere"), &link).unwrap();
        let e = claim(&link, "report", &planned).unwrap_err();
        assert!(e.is::<Usage>() && e.to_string().contains("which does not exist"), "{e:#}");
    }

    #[test]
    fn out_that_is_a_file_is_bad_input() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, "").unwrap();
        for out in [f.clone(), f.join("sub")] {
            let e = try_claim(&out, "report", &["report.json"]).unwrap_err();
            assert!(e.is::<Usage>(), "{e:#}");
        }
        drop(try_claim(&d.path().join("new/dir"), "report", &["report.json"]).unwrap());
        assert!(d.path().join("new").is_dir() && !d.path().join("new/dir").exists());
    }

    /// Simulated commands: (key, files). `x` and `y` share a file name, as no real commands
    /// do, so the property covers a refusal too.
    const COMMANDS: &[(&str, &[&str])] = &[
        ("report", &["report.json", "report.md", "local-index.svg", "report.html"]),
        ("report", &["report.json", "report.md", "tid-batch.svg", "report.html"]),
        ("layout", &["layout.md", "layout.json", "layout.svg"]),
        ("sweep", &["sweep.json", "sweep.md", "sweep.svg"]),
        ("compare", &["compare.md", "compare-local-index.svg"]),
        ("compare", &["compare.md"]),
        ("pg", &["pg.json", "pg.md"]),
        ("pg --study read-stream", &["pg-read-stream.json", "pg-read-stream.md"]),
        ("pg --seed 004", &["pg-seed004.json", "pg-seed004.md"]),
        ("pg --sweep-partitions", &["pg-sweep.json", "pg-sweep.md"]),
        ("x", &["shared.md", "x.json"]),
        ("y", &["shared.md", "y.json"]),
    ];

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Any commands in any order into one folder (some failing before they write): every
        /// command's last result stays whole (each of its files, with its bytes), a command
        /// refused changes nothing, and a user's file is never touched.
        #[test]
        fn any_commands_in_any_order_leave_every_result_whole(runs in proptest::collection::vec((0..COMMANDS.len(), any::<bool>()), 2..7)) {
            let d = tempfile::tempdir().unwrap();
            let dir = d.path().join("out");
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join("notes.txt"), "mine").unwrap();
            // The last result of each key: its files and their bytes.
            let mut results: std::collections::BTreeMap<&str, Vec<(String, String)>> = Default::default();
            for (n, (i, fails)) in runs.iter().enumerate() {
                let (by, files) = COMMANDS[*i];
                let before = snapshot(&dir);
                match claim_retrying(&dir, Claim::new(by, files.iter().copied())) {
                    Err(e) => {
                        // Only a file of another command's can be in the way.
                        prop_assert!(e.to_string().contains("written by another command"), "{by}: {e:#}");
                        prop_assert_eq!(snapshot(&dir), before);
                    }
                    Ok(out) if *fails => {
                        drop(out);
                        prop_assert_eq!(snapshot(&dir), before);
                    }
                    Ok(mut out) => {
                        let content: Vec<(String, String)> = files.iter().map(|f| (f.to_string(), format!("{by} #{n} {f}"))).collect();
                        let f: Vec<(PathBuf, Vec<u8>)> = content.iter().map(|(f, t)| (dir.join(f), t.clone().into_bytes())).collect();
                        out.replace(&f).unwrap();
                        results.insert(by, content);
                    }
                }
                for (by, content) in &results {
                    for (f, t) in content {
                        let got = std::fs::read_to_string(dir.join(f)).ok();
                        prop_assert_eq!(got.as_deref(), Some(t.as_str()), "{}'s {} after run {}", by, f, n);
                    }
                }
                prop_assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");
            }
        }
    }

    fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name() != LOCK)
            .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap_or_default()))
            .collect()
    }
}
