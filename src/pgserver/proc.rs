//! The server code's children (make, initdb, cp, psql, pgbench, strace, valgrind): each runs
//! in a process group of its own, registered with the one cleanup (`host::cleanup`) while it
//! lives, so that SIGINT/SIGTERM kills it and everything it started (make's compilers, a
//! valgrind'ed backend) and the process exits only after reaping it; and each dies with the
//! run when no handler can run (SIGKILL: `host::cleanup::die_with_parent`). `pg_ctl start` is
//! not one of them: its postmaster leaves the group, and the cluster's supervisor stops it
//! ([`super::cluster`]).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::Mutex;

static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
static HOOK: std::sync::Once = std::sync::Once::new();

fn groups() -> std::sync::MutexGuard<'static, Vec<i32>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running child and its group: killed on a signal while this lives.
pub struct Tracked {
    pgid: i32,
    _child: crate::host::cleanup::ChildGuard,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        groups().retain(|g| *g != self.pgid);
    }
}

/// Spawn `cmd` in a new process group and register it (the leader is reaped by the host's
/// handler, the group killed by this module's hook).
pub fn spawn(cmd: &mut Command) -> io::Result<(Child, Tracked)> {
    HOOK.call_once(|| crate::host::cleanup::on_signal(kill_all));
    cmd.process_group(0);
    crate::host::cleanup::die_with_parent(cmd);
    // Register under the lock so a signal between spawn and push still finds the group.
    let mut g = groups();
    let child = cmd.spawn()?;
    let pgid = child.id() as i32;
    g.push(pgid);
    drop(g);
    let guard = crate::host::cleanup::child(child.id());
    Ok((child, Tracked { pgid, _child: guard }))
}

/// Kill every registered group and wait (10 s at most) until they are gone: the signal hook,
/// and what the cluster code's hook runs first, so that no initdb or `cp -a` still writes into
/// a cluster directory while it is removed (whichever hook was registered first).
pub fn kill_all() {
    let gs: Vec<i32> = groups().iter().copied().filter(|&g| g > 1).collect();
    for &g in &gs {
        // SAFETY: a negative pid signals the group we created for our own child.
        unsafe { libc::kill(-g, libc::SIGKILL) };
    }
    // Return only once they are gone: a killed compiler is still there for a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while gs.iter().any(|&g| group_alive(g)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Whether any process of group `g` is alive (zombies, which only wait to be reaped, are not).
fn group_alive(g: i32) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else { return false };
    dir.flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { return false };
        // After the command name (in parentheses): state, ppid, pgrp.
        let Some((_, rest)) = stat.rsplit_once(')') else { return false };
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.len() > 2 && f[0] != "Z" && f[2].parse::<i32>() == Ok(g)
    })
}

/// Run `cmd` to completion, stdout and stderr captured, stdin closed.
pub fn output(cmd: &mut Command) -> io::Result<Output> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let (child, _t) = spawn(cmd)?;
    child.wait_with_output()
}

/// Run `cmd` to completion with its output discarded.
pub fn status(cmd: &mut Command) -> io::Result<ExitStatus> {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let (mut child, _t) = spawn(cmd)?;
    child.wait()
}

/// A scratch directory registered with the signal cleanup before it is created, removed on
/// Drop unless [`Scratch::publish`] renamed it into place. Its name names its run
/// (`host::cleanup::owned_prefix`): the first scratch of a prefix in a process removes those
/// of runs killed before they could.
pub struct Scratch {
    path: std::path::PathBuf,
    _guard: Option<crate::host::cleanup::TempGuard>,
}

impl Scratch {
    /// `parent/PREFIX<pid>-<start>-<n>`, created empty.
    pub fn new(parent: &std::path::Path, prefix: &str) -> io::Result<Self> {
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        std::fs::create_dir_all(parent)?;
        crate::host::cleanup::sweep_once(parent, prefix);
        let owned = crate::host::cleanup::owned_prefix(prefix);
        loop {
            let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let path = parent.join(format!("{owned}{n}"));
            let guard = crate::host::cleanup::temp(&path);
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Scratch { path, _guard: Some(guard) }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The directory.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Rename the directory to `to` (replacing nothing: an existing `to` wins, and this one is
    /// removed). Returns whether this one was placed.
    pub fn publish(mut self, to: &std::path::Path) -> bool {
        let placed = std::fs::rename(&self.path, to).is_ok();
        if placed {
            self._guard = None;
        }
        placed
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self._guard.is_some() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
