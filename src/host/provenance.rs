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
    let o = Command::new("git").arg("-C").arg(env!("CARGO_MANIFEST_DIR")).args(args).output().ok()?;
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The first line of `tool --version` containing `word`, if the tool runs.
fn tool_version(tool: &str, word: &str) -> Option<String> {
    let o = Command::new(tool).arg("--version").output().ok()?;
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
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
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

    #[test]
    fn date_is_rfc3339() {
        let d = utc_now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }
}
