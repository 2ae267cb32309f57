//! Where a number came from: CPU (from CPUID), kernel, compiler, crate commit and features,
//! pinned core, date. Written beside every number in `analysis/` and report files.

use super::cpu::{Microarch, cpu, rustc_version_pinned};
use serde::{Deserialize, Serialize};
use std::process::Command;

/// Provenance of one report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Provenance {
    /// CPUID vendor string (`GenuineIntel`, `AuthenticAMD`).
    pub cpu_vendor: String,
    /// Display family (base + extended).
    pub cpu_family: u32,
    /// Display model (base + extended).
    pub cpu_model: u32,
    /// Brand string.
    pub cpu_name: String,
    /// Microarchitecture as hotloops classifies it (for the counter groups).
    pub microarch: String,
    /// Whether CPUID says we run under a hypervisor.
    pub hypervisor: bool,
    /// Host name.
    pub host: String,
    /// `uname -sr`.
    pub kernel: String,
    /// `rustc --version` of the compiler that built this binary.
    pub rustc: String,
    /// `git rev-parse HEAD` of the crate, or "unknown".
    pub commit: String,
    /// Tracked files differ from the commit.
    pub dirty: bool,
    /// Cargo features of this build.
    pub features: Vec<String>,
    /// Core the measuring thread was pinned to.
    pub pinned_core: Option<usize>,
    /// UTC date and time (RFC 3339).
    pub date: String,
    /// hotloops version.
    pub hotloops: String,
    /// The static core model's `llvm-mca-19 --version` line, if installed.
    #[serde(default)]
    pub llvm_mca: Option<String>,
}

/// The running kernel as `uname -sr` prints it (no child process).
pub fn kernel() -> String {
    uname().0
}

fn uname() -> (String, String) {
    // SAFETY: uname fills a zeroed utsname we own.
    unsafe {
        let mut u: libc::utsname = std::mem::zeroed();
        if libc::uname(&mut u) != 0 {
            return ("unknown".into(), "unknown".into());
        }
        let s = |f: &[libc::c_char]| std::ffi::CStr::from_ptr(f.as_ptr()).to_string_lossy().into_owned();
        (format!("{} {}", s(&u.sysname), s(&u.release)), s(&u.nodename))
    }
}

fn git(args: &[&str]) -> Option<String> {
    let o = super::cleanup::output(Command::new("git").arg("-C").arg(env!("CARGO_MANIFEST_DIR")).args(args)).ok()?;
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The commit HEAD names, read from the crate's `.git` itself (no git binary needed): a
/// worktree's `.git` file points at its git directory, whose `commondir` holds the refs.
fn head_from_dot_git(root: &std::path::Path) -> Option<String> {
    use std::path::PathBuf;
    let dot = root.join(".git");
    let gitdir: PathBuf = if dot.is_dir() {
        dot
    } else {
        let text = std::fs::read_to_string(&dot).ok()?;
        let p = PathBuf::from(text.trim().strip_prefix("gitdir:")?.trim());
        if p.is_absolute() { p } else { root.join(p) }
    };
    let common = match std::fs::read_to_string(gitdir.join("commondir")) {
        Ok(c) => gitdir.join(c.trim()),
        Err(_) => gitdir.clone(),
    };
    let is_sha = |s: &str| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let head = std::fs::read_to_string(gitdir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref:").map(str::trim) else { return is_sha(head).then(|| head.to_string()) };
    for dir in [&gitdir, &common] {
        if let Ok(r) = std::fs::read_to_string(dir.join(name))
            && is_sha(r.trim())
        {
            return Some(r.trim().to_string());
        }
    }
    let packed = std::fs::read_to_string(common.join("packed-refs")).ok()?;
    packed.lines().filter_map(|l| l.split_once(' ')).find(|(sha, r)| *r == name && is_sha(sha)).map(|(sha, _)| sha.to_string())
}

/// The first line of `tool --version` containing `word`, if the tool runs.
fn tool_version(tool: &str, word: &str) -> Option<String> {
    let o = super::cleanup::output(Command::new(tool).arg("--version")).ok()?;
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    o.status.success().then(|| text.lines().find(|l| l.contains(word)).unwrap_or("").trim().to_string()).filter(|l| !l.is_empty())
}

/// UTC now as RFC 3339 (days-from-civil inverse, Howard Hinnant's algorithm).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Collect provenance now; `features` are the cargo features of this build (the registry
/// knows them).
pub fn collect(pinned_core: Option<usize>, features: Vec<String>) -> Provenance {
    let c = cpu();
    let (kernel, host) = uname();
    // Without git on PATH the commit is still known: .git is read directly.
    let commit = git(&["rev-parse", "HEAD"])
        .or_else(|| head_from_dot_git(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))))
        .unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty()).unwrap_or(false);
    Provenance {
        microarch: Microarch::detect(&c).to_string(),
        cpu_vendor: c.vendor,
        cpu_family: c.family,
        cpu_model: c.model,
        cpu_name: c.name,
        hypervisor: c.hypervisor,
        host,
        kernel,
        rustc: rustc_version_pinned().to_string(),
        commit,
        dirty,
        features,
        pinned_core,
        date: utc_now(),
        hotloops: env!("CARGO_PKG_VERSION").to_string(),
        llvm_mca: tool_version("llvm-mca-19", "version"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commit read from .git is git's own, in a worktree and through packed refs alike.
    #[test]
    fn head_is_read_from_dot_git_without_git() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        if let Some(want) = git(&["rev-parse", "HEAD"]) {
            assert_eq!(head_from_dot_git(root).as_deref(), Some(want.as_str()));
        }
        let d = tempfile::tempdir().unwrap();
        let (main, wt) = (d.path().join("main"), d.path().join("wt"));
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        let sha = "0123456789abcdef0123456789abcdef01234567";
        std::fs::write(main.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(main.join(".git/packed-refs"), format!("# pack-refs with: peeled\n{sha} refs/heads/main\n")).unwrap();
        assert_eq!(head_from_dot_git(&main).as_deref(), Some(sha));
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", main.join(".git/worktrees/wt").display())).unwrap();
        std::fs::write(main.join(".git/worktrees/wt/commondir"), "../..\n").unwrap();
        std::fs::write(main.join(".git/worktrees/wt/HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(head_from_dot_git(&wt).as_deref(), Some(sha));
        std::fs::write(main.join(".git/worktrees/wt/HEAD"), format!("{sha}\n")).unwrap();
        assert_eq!(head_from_dot_git(&wt).as_deref(), Some(sha), "a detached HEAD");
        assert_eq!(head_from_dot_git(d.path()), None, "no .git");
    }

    #[test]
    fn date_is_rfc3339() {
        let d = utc_now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }
}
