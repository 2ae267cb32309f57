//! A single-user backend (`postgres --single -D DATA postgres`, as the cluster's owner) over a
//! stopped throwaway cluster: one process, no postmaster, statements on stdin. It is what
//! callgrind and the allocation tracer run, since they follow one process exactly; the
//! cluster's own settings (extensions on dynamic_library_path, no fsync, ...) apply.

use super::cluster::Cluster;
use anyhow::{Context, Result, bail};
use object::{Object, ObjectSymbol};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// How to run the backend: settings on top of the cluster's, environment, a wrapper command
/// (valgrind) in front of `postgres`.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// `-c` settings on top of the cluster's base settings.
    pub settings: Vec<(String, String)>,
    /// Extra environment (LD_PRELOAD, glibc's MALLOC_* variables).
    pub env: Vec<(String, String)>,
    /// A command and its arguments that run `postgres ...` (e.g. valgrind).
    pub wrapper: Vec<String>,
}

/// Run `statements` (one per line: single-user mode ends a statement at a newline) in a
/// single-user backend of the stopped cluster `c`; returns its stdout. An error names the
/// backend's last words when it fails or reports an ERROR.
pub fn run(c: &Cluster, statements: &[String], r: &Run) -> Result<String> {
    if c.pid().is_some() {
        bail!("the cluster is running: a single-user backend needs it stopped");
    }
    let mut all = c.base_settings();
    for (k, v) in &r.settings {
        all.retain(|(kk, _)| kk != k);
        all.push((k.clone(), v.clone()));
    }
    let postgres = c.bin("postgres");
    let mut argv: Vec<String> = r.wrapper.clone();
    argv.push(postgres.display().to_string());
    argv.extend(["--single".into(), "-D".into(), c.data.display().to_string()]);
    for (k, v) in &all {
        argv.push("-c".into());
        argv.push(format!("{k}={}", v.trim_matches('\'')));
    }
    argv.push("postgres".into());
    let mut cmd = c.run_as().command(&argv[0]);
    cmd.args(&argv[1..]);
    // The backend and its wrapper (valgrind writes its own files there) run as the server's
    // user, who may not be able to write in our TMPDIR: theirs is the cluster's directory.
    cmd.env("TMPDIR", c.root());
    for (k, v) in &r.env {
        cmd.env(k, v);
    }
    let mut input = String::new();
    for s in statements {
        if s.contains('\n') {
            bail!("a single-user statement must be one line: {s:?}");
        }
        input += s;
        input.push('\n');
    }
    let (mut child, _t) = super::proc::spawn(cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()))
        .with_context(|| format!("running {}", argv[0]))?;
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output()?;
    let _ = writer.join();
    crate::host::cleanup::wait_if_interrupted();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stdout.lines().chain(stderr.lines()).filter(|l| l.contains("ERROR:") || l.contains("FATAL:") || l.contains("PANIC:")).collect();
    if !out.status.success() || !errors.is_empty() {
        let tail: Vec<&str> = stderr.lines().rev().take(10).collect::<Vec<_>>().into_iter().rev().collect();
        bail!("single-user backend ({}) failed ({}): {}\n{}", argv.join(" "), out.status, errors.join(" | "), tail.join("\n"));
    }
    Ok(stdout)
}

/// The symbols of ELF files, to name `file+0xoffset` frames (the server is not stripped, so
/// static functions have names too).
#[derive(Default)]
pub struct Symbols {
    files: HashMap<PathBuf, Vec<(u64, u64, String)>>,
}

impl Symbols {
    fn load(path: &Path) -> Vec<(u64, u64, String)> {
        let Ok(data) = std::fs::read(path) else { return Vec::new() };
        let Ok(file) = object::File::parse(&*data) else { return Vec::new() };
        let mut v: Vec<(u64, u64, String)> = file
            .symbols()
            .chain(file.dynamic_symbols())
            .filter(|s| s.kind() == object::SymbolKind::Text && s.address() != 0)
            .filter_map(|s| s.name().ok().map(|n| (s.address(), s.size().max(1), n.to_string())))
            .collect();
        v.sort();
        v.dedup_by(|a, b| a.0 == b.0);
        v
    }

    /// The function containing `offset` (a return address: the call is just before it) in
    /// `file`, or `file+0xoffset` when there is none.
    pub fn name(&mut self, file: &Path, offset: u64) -> String {
        let syms = self.files.entry(file.to_path_buf()).or_insert_with(|| Self::load(file));
        let at = offset.saturating_sub(1);
        let i = syms.partition_point(|s| s.0 <= at);
        if i > 0 {
            let (a, size, n) = &syms[i - 1];
            if at < a + size {
                return n.clone();
            }
        }
        format!("{}+{offset:#x}", file.file_name().map(|f| f.to_string_lossy()).unwrap_or_default())
    }

    /// A frame as the tracer writes it (`/path/file+0xoffset`).
    pub fn frame(&mut self, frame: &str) -> String {
        match frame.rsplit_once("+0x").and_then(|(f, o)| u64::from_str_radix(o, 16).ok().map(|o| (f, o))) {
            Some((f, o)) if f != "?" => self.name(Path::new(f), o),
            _ => frame.to_string(),
        }
    }
}

/// The function callgrind dumps before (hl_btree.c), and the SQL that calls it.
pub const BOUNDARY_FN: &str = "hl_btree_callgrind_boundary";

/// The SQL statement that separates two counted stretches.
pub fn boundary(n: usize) -> String {
    format!("SELECT hl_btree_boundary({n});")
}

/// Callgrind over a single-user backend of the stopped cluster `c`: `statements` (with
/// [`boundary`] statements between the stretches to count apart), collection on while inside
/// `toggle` (a function name: an access method's entry point, or `exec_simple_query` for whole
/// statements), a dump before each boundary. Returns the dumps in order: the first is before
/// the first boundary, the last after the last.
pub fn callgrind(c: &Cluster, statements: &[String], toggle: &str, r: &Run) -> Result<Vec<crate::measure::callgrind::Parsed>> {
    callgrind_dumping(c, statements, toggle, &format!("--dump-before={BOUNDARY_FN}"), r)
}

/// Callgrind over a single-user backend with one dump per statement: collection inside
/// `exec_simple_query`, a dump as each statement ends (a line of input is one statement, so
/// the dumps are the lines', in order; needs no extension in the server).
pub fn callgrind_per_statement(c: &Cluster, statements: &[String], r: &Run) -> Result<Vec<crate::measure::callgrind::Parsed>> {
    let mut parts = callgrind_dumping(c, statements, "exec_simple_query", "--dump-after=exec_simple_query", r)?;
    // The backend's exit dumps what is left (nothing: collection is off outside statements).
    parts.truncate(statements.len());
    if parts.len() < statements.len() {
        bail!("callgrind wrote {} dumps for {} statements", parts.len(), statements.len());
    }
    Ok(parts)
}

fn callgrind_dumping(c: &Cluster, statements: &[String], toggle: &str, dump: &str, r: &Run) -> Result<Vec<crate::measure::callgrind::Parsed>> {
    crate::measure::callgrind::check_valgrind().map_err(|e| super::UsageError(format!("{e:#}")))?;
    // Written by the backend, which runs as the cluster's owner: inside its directory.
    let dir = c.root().join(format!("callgrind-{}", std::process::id()));
    std::fs::create_dir(&dir)?;
    c.run_as().chown_tree(&dir)?;
    let mut r = r.clone();
    r.wrapper = vec![
        "valgrind".into(),
        "--tool=callgrind".into(),
        // No gdb server: its FIFOs in TMPDIR would outlive an interrupted run.
        "--vgdb=no".into(),
        format!("--callgrind-out-file={}/cg.out", dir.display()),
        format!("--toggle-collect={toggle}"),
        dump.to_string(),
        "--collect-atstart=no".into(),
        "--compress-strings=no".into(),
        "--compress-pos=no".into(),
        // Instruction positions: a function's calls are its first instruction's runs.
        "--dump-instr=yes".into(),
    ];
    let result = run(c, statements, &r);
    let mut parts = Vec::new();
    if result.is_ok() {
        for e in std::fs::read_dir(&dir)? {
            let path = e?.path();
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let parsed = crate::measure::callgrind::parse(&text).with_context(|| format!("{}", path.display()))?;
            // HOTLOOPS_KEEP_CALLGRIND=DIR keeps the raw profiles, for callgrind_annotate's
            // caller trees (which server function made a call the model does not).
            if let Some(keep) = std::env::var_os("HOTLOOPS_KEEP_CALLGRIND") {
                let name = format!("{toggle}-{}-{}", std::process::id(), path.file_name().map_or("cg.out".into(), |n| n.to_string_lossy()));
                let to = std::path::Path::new(&keep).join(name);
                crate::host::write_atomic(&to, text.as_bytes()).with_context(|| format!("keeping the profile as {} (HOTLOOPS_KEEP_CALLGRIND)", to.display()))?;
            }
            parts.push(parsed);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    parts.sort_by_key(|p| p.part.unwrap_or(0));
    Ok(parts)
}
