//! Helpers shared by the server tests (tests/pg_server.rs, tests/pg_bloom.rs): the installed
//! servers with their built extensions (CI=true requires all three), the dynamic symbols of an
//! ELF file, the process table, and the interrupt harness that checks a signalled run left
//! nothing behind.
#![allow(dead_code)]

use hotloops::pgserver::servers;
use hotloops::pgserver::{Install, build_extension};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every installed server with its built extension; under CI=true all three must be there.
pub fn all_pg() -> Vec<(Install, PathBuf)> {
    let mut out = Vec::new();
    for k in servers::known() {
        match k.install() {
            Ok(i) => {
                let so = build_extension(&i).unwrap_or_else(|e| panic!("building the extensions of pgext/ against {}: {e:#}", i.version));
                out.push((i, so));
            }
            Err(why) => {
                if std::env::var("CI").as_deref() == Ok("true") {
                    panic!("PostgreSQL {} is required under CI=true (scripts/install-pg.sh installs it): {why}", k.major);
                }
                eprintln!("skipping PostgreSQL {}: {why} (scripts/install-pg.sh {})", k.major, k.major);
            }
        }
    }
    out
}

/// One installed server (the first), or None (skip) outside CI.
pub fn pg() -> Option<(Install, PathBuf)> {
    all_pg().into_iter().next()
}

/// Processes whose command line mentions `path` (a server, pg_ctl, make or cp left running on it).
pub fn processes_using(path: &Path) -> Vec<String> {
    let needle = path.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// The names of the dynamic symbols an ELF file defines (`defined`) or imports (weak imports,
/// which may stay unresolved, left out).
pub fn dynamic_symbols(path: &Path, defined: bool) -> Vec<String> {
    use object::{Object, ObjectSymbol};
    let data = std::fs::read(path).unwrap();
    let f = object::File::parse(&*data).unwrap();
    f.dynamic_symbols()
        .filter(|s| if defined { !s.is_undefined() } else { s.is_undefined() && !s.is_weak() })
        .filter_map(|s| s.name().ok().map(|n| n.split('@').next().unwrap_or(n).to_string()))
        .collect()
}

/// The libc this test runs with (from its own memory map).
pub fn libc_path() -> PathBuf {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    PathBuf::from(maps.lines().find(|l| l.contains("libc.so.6")).and_then(|l| l.split_whitespace().last()).expect("libc.so.6 in /proc/self/maps"))
}

/// A short, world-traversable directory under /tmp (the server's user must reach a cluster
/// inside it, and its socket path must fit).
pub fn short_dir(prefix: &str) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::Builder::new().prefix(prefix).tempdir_in("/tmp").unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

/// Entries of `dir` (recursively, two levels) whose names start with one of `prefixes`.
pub fn debris(dir: &Path, prefixes: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if prefixes.iter().any(|p| name.starts_with(p)) {
            found.push(e.path().display().to_string());
        }
    }
    found
}

/// Run `hotloops ARGS` with its own temporary directory (where its clusters go), its own data
/// directory when `fresh_data` (so it builds and loads), and the installed servers; send
/// `signal` `delay_ms` after its stderr first shows `marker`; then check that it exited 130
/// and left nothing: no cluster or scratch directory, no partial build or cache, no process
/// using any of them, nothing in --out but its lock. Returns its stderr.
pub fn interrupted_run_leaves_nothing(args: &[&str], marker: &str, delay_ms: u64, signal: i32, fresh_data: bool) -> String {
    use std::io::BufRead;
    let tmp = short_dir("hlt-");
    let data = short_dir("hld-");
    let out = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    cmd.args(args).arg("--out").arg(out.path()).env("TMPDIR", tmp.path()).env("HOTLOOPS_SERVERS_DIR", servers::servers_dir());
    if fresh_data {
        cmd.env("HOTLOOPS_DATA_DIR", data.path());
    }
    let mut child = cmd.stderr(std::process::Stdio::piped()).stdout(std::process::Stdio::null()).spawn().unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while err.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains(marker) {
            break;
        }
        line.clear();
    }
    assert!(seen.contains(marker), "{args:?}: never printed {marker:?}:\n{seen}");
    std::thread::sleep(std::time::Duration::from_millis(delay_ms));
    // SAFETY: signalling the child we spawned.
    unsafe { libc::kill(child.id() as i32, signal) };
    // The rest of stderr, so a full pipe never blocks the child's cleanup messages.
    let rest = std::thread::spawn(move || {
        let mut r = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut r);
        r
    });
    let st = child.wait().unwrap();
    let rest = rest.join().unwrap();
    assert_eq!(st.code(), Some(130), "{args:?} after {marker:?}: {st}\n{seen}{rest}");
    let mut left = debris(tmp.path(), &[""]);
    left.extend(debris(data.path(), &[".pgext-build-", ".pg-cache-", "hotloops-"]));
    assert!(left.is_empty(), "{args:?} interrupted after {marker:?} left {left:?}\n{seen}{rest}");
    for d in [tmp.path(), data.path(), out.path()] {
        assert!(processes_using(d).is_empty(), "{args:?}: processes still use {}: {:?}", d.display(), processes_using(d));
    }
    assert!(leftovers(out.path()).is_empty(), "{args:?}: a half-written report: {:?}", leftovers(out.path()));
    seen + &rest
}

/// The installed major versions, as `--server` takes them.
pub fn majors() -> Vec<String> {
    all_pg().iter().map(|(i, _)| i.major.to_string()).collect()
}

/// What a run left in its output directory, besides the --out lock file a run keeps there
/// and the manifest of what it wrote (host::outdir::LOCK, MANIFEST).
pub fn leftovers(dir: &Path) -> Vec<String> {
    use hotloops::host::outdir::{LOCK, MANIFEST};
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n != LOCK && n != MANIFEST).collect()
}
