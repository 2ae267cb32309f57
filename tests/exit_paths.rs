//! Every exit path clean, on every command: a closed stdout or stderr ends a command without a
//! panic; SIGINT or SIGTERM at any point of a long command leaves no temporary, no child and
//! no half-written file (the temporary directory, the data directory, the output directory
//! and the process table are checked); an output file that cannot be replaced changes
//! nothing; a file of the user's in `--out` is never replaced. Nothing here depends on timing:
//! a signal is sent when a point is reached (a child of a kind appears, a temporary appears),
//! with deadlines of minutes for a loaded machine.
//!
//! `pg` is left to `tests/pg_server.rs` (it needs PostgreSQL).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_hotloops");
/// A saved report of this schema version (render's and compare's input).
const SAVED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/analysis/kvm-amd-epyc-2core/quick-ca658cf/report.json");
const SAVED_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/analysis/kvm-amd-epyc-2core/report.json");
/// Generous, for a shared CI machine: what matters is that a condition is reached, not when.
const DEADLINE: Duration = Duration::from_secs(600);

/// A private world for one command: TMPDIR, lock and data directories, an output directory,
/// and a tag in the environment that every process it starts inherits.
struct World {
    base: tempfile::TempDir,
    tag: String,
}

impl World {
    fn new() -> World {
        let base = tempfile::Builder::new().prefix("exit-paths-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        for d in ["tmp", "locks", "data"] {
            std::fs::create_dir(base.path().join(d)).unwrap();
        }
        let tag = format!("{}-{}", std::process::id(), base.path().file_name().unwrap().to_string_lossy());
        World { base, tag }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.base.path().join(p)
    }

    fn out(&self) -> PathBuf {
        self.path("out")
    }

    fn command(&self, args: &[&str]) -> Command {
        self.command_of(EXE, args)
    }

    /// [`World::command`] of another program (a shell that starts hotloops).
    fn command_of(&self, program: &str, args: &[&str]) -> Command {
        let mut c = Command::new(program);
        c.args(args)
            .env("TMPDIR", self.path("tmp"))
            .env("HOTLOOPS_LOCK_DIR", self.path("locks"))
            .env("HOTLOOPS_DATA_DIR", self.path("data"))
            .env("HOTLOOPS_TEST_TAG", &self.tag)
            .current_dir(self.base.path())
            .stdin(Stdio::null());
        c
    }

    /// Processes alive with this world's tag (any descendant of its commands), pid and argv.
    fn tagged(&self) -> Vec<(u32, Vec<String>)> {
        let want = format!("HOTLOOPS_TEST_TAG={}", self.tag).into_bytes();
        let mut v = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(env) = std::fs::read(e.path().join("environ")) else { continue };
            if !env.split(|&b| b == 0).any(|kv| kv == want.as_slice()) {
                continue;
            }
            // A zombie has no command line; it is reaped with its parent, not a leak.
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let argv: Vec<String> = cmd.split(|&b| b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
            if !argv.is_empty() {
                v.push((pid, argv));
            }
        }
        v
    }

    /// Wait until no tagged process is left: one that outlives its command past the
    /// deadline is a leak.
    fn assert_no_process_left(&self, what: &str) {
        let t = Instant::now();
        loop {
            let left = self.tagged();
            if left.is_empty() {
                return;
            }
            assert!(t.elapsed() < Duration::from_secs(60), "{what}: processes left running: {left:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Nothing in the temporary directory, no temporary in the data directory.
    fn assert_no_debris(&self, what: &str) {
        let tmp: Vec<String> = names(&self.path("tmp"));
        assert!(tmp.is_empty(), "{what}: left in TMPDIR: {tmp:?}");
        let data: Vec<String> = walk(&self.path("data")).into_iter().filter(|n| n.contains(".tmp")).collect();
        assert!(data.is_empty(), "{what}: left in the data directory: {data:?}");
        if self.out().exists() {
            let partial: Vec<String> = names(&self.out()).into_iter().filter(|n| n.starts_with(".tmp") || n.contains(".hotloops-old-")).collect();
            assert!(partial.is_empty(), "{what}: half-written files in --out: {partial:?}");
        }
    }
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).map(|rd| rd.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()).unwrap_or_default();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p.display().to_string());
        }
    }
    v
}

/// A running command whose stdout and stderr go to files (no pipe to fill).
struct Running {
    child: Child,
    err: PathBuf,
}

fn spawn(w: &World, args: &[&str]) -> Running {
    let err = w.path("stderr");
    let child = w
        .command(args)
        .stdout(std::fs::File::create(w.path("stdout")).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    Running { child, err }
}

fn wait(r: &mut Running, what: &str) -> ExitStatus {
    let t = Instant::now();
    loop {
        if let Some(st) = r.child.try_wait().unwrap() {
            return st;
        }
        if t.elapsed() > DEADLINE {
            let _ = r.child.kill();
            panic!("{what}: still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A point of a command to interrupt at: the `n`th distinct tagged process whose argv
/// matches, or a file appearing in a directory.
enum Point {
    Child { argv0_ends: &'static str, contains: &'static str, nth: usize },
    File { dir: &'static str, contains: &'static str },
}

impl Point {
    fn child(argv0_ends: &'static str, contains: &'static str, nth: usize) -> Point {
        Point::Child { argv0_ends, contains, nth }
    }
}

/// Start `args`, wait for `point`, send `sig`, and check the exit and what is left. Returns
/// false if the command ended before the point was reached (then nothing was interrupted).
fn interrupt(args: &[&str], point: Point, sig: libc::c_int) -> bool {
    let w = World::new();
    let o = w.out();
    let args: Vec<&str> = args.iter().map(|a| if *a == "OUT" { o.to_str().unwrap() } else { a }).collect();
    let args = &args[..];
    let what = format!("{args:?} at {} with signal {sig}", match &point {
        Point::Child { argv0_ends, contains, nth } => format!("child #{nth} `{argv0_ends}`~`{contains}`"),
        Point::File { dir, contains } => format!("a `{contains}` file in {dir}"),
    });
    let mut r = spawn(&w, args);
    let mut seen = std::collections::BTreeSet::new();
    let t = Instant::now();
    let reached = loop {
        if r.child.try_wait().unwrap().is_some() {
            break false;
        }
        assert!(t.elapsed() < DEADLINE, "{what}: the point was never reached");
        let hit = match &point {
            Point::Child { argv0_ends, contains, nth } => {
                for (pid, argv) in w.tagged() {
                    if pid != r.child.id() && argv[0].ends_with(argv0_ends) && argv.join(" ").contains(contains) {
                        seen.insert(pid);
                    }
                }
                seen.len() >= *nth
            }
            Point::File { dir, contains } => names(&w.path(dir)).iter().any(|n| n.contains(contains)) || walk(&w.path(dir)).iter().any(|n| n.contains(contains)),
        };
        if hit {
            break true;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if reached {
        // SAFETY: kill on the pid of a child this test started and has not reaped.
        unsafe { libc::kill(r.child.id() as libc::pid_t, sig) };
    }
    let st = wait(&mut r, &what);
    let err = std::fs::read_to_string(&r.err).unwrap_or_default();
    assert!(!err.contains("panicked"), "{what}: {err}");
    if reached {
        assert_eq!(st.code(), Some(130), "{what}: exits 130 after cleaning up: {err}");
        assert!(err.contains("interrupted:"), "{what}: {err}");
        // The --out it created, with nothing written in it yet, goes too: not left holding
        // only its lock.
        assert!(!o.exists() || names(&o).iter().any(|n| n != ".hotloops.lock"), "{what}: left {} holding only its lock", o.display());
    }
    w.assert_no_process_left(&what);
    w.assert_no_debris(&what);
    reached
}

const REPORT_SMALL: &[&str] = &["report", "--study", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural,at-0"];

fn with_out<'a>(args: &[&'a str], out: &'a str) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend(["--out", out]);
    v
}

/// Each long-running command, at several points (each kind of child it starts: measuring
/// workers, valgrind, the model's gcc and harness, sweep points), by SIGINT and SIGTERM.
#[test]
fn an_interrupt_at_any_point_leaves_no_temporary_child_or_partial_file() {
    let out = "OUT";
    let no_model: Vec<&str> = [REPORT_SMALL, &["--no-model"]].concat();
    let no_instr: Vec<&str> = [REPORT_SMALL, &["--no-instructions"]].concat();
    let alloc: Vec<&str> = vec!["report", "--study", "alloc-churn", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--no-model", "--no-instructions"];
    let cases: Vec<(Vec<&str>, Point, libc::c_int)> = vec![
        // report: its wall clock (a layout worker), callgrind, the static model (gcc, harness)
        (with_out(&no_model, out), Point::child("hotloops-layout-at-0", "worker", 1), libc::SIGINT),
        (with_out(&no_model, out), Point::child("valgrind.bin", "--tool=callgrind", 2), libc::SIGTERM),
        (with_out(&no_instr, out), Point::child("harness", "", 2), libc::SIGINT),
        (with_out(&no_instr, out), Point::child("cc1", "", 1), libc::SIGTERM),
        // alloc-churn's report: backends serving queries, the sweep's fresh processes
        (with_out(&alloc, out), Point::child("hotloops", "worker", 4), libc::SIGTERM),
        (with_out(&alloc, out), Point::child("hotloops", "worker", 12), libc::SIGINT),
        // model alone, instructions, sweep, layout
        (vec!["model", "local-index"], Point::child("harness", "", 3), libc::SIGINT),
        (vec!["model", "local-index"], Point::child("gcc", "driver.c", 1), libc::SIGTERM),
        (vec!["instructions", "tid-batch/per-tid"], Point::child("valgrind.bin", "--tool=callgrind", 1), libc::SIGTERM),
        (vec!["sweep", "alloc-churn", "--quick", "--out", out], Point::child("hotloops", "worker", 3), libc::SIGINT),
        (vec!["layout", "local-index", "--size", "test", "--budget-ms", "20", "--out", out], Point::child("", " worker", 3), libc::SIGTERM),
        // the bloom index being written into the data directory
        (vec!["run", "read-stream/sync-per-page", "--case", "warm", "--size", "quick"], Point::File { dir: "data", contains: ".tmp" }, libc::SIGINT),
    ];
    // Without valgrind or llvm-mca those commands stop before the point (exit 2): not theirs.
    let has = |tool: &str| Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    let (valgrind, mca) = (has("valgrind"), has("llvm-mca-19"));
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|(args, point, _)| {
            let needs_valgrind = matches!(point, Point::Child { argv0_ends: "valgrind.bin", .. });
            let needs_mca = args[0] == "model" || matches!(point, Point::Child { argv0_ends: "harness" | "cc1", .. });
            (valgrind || !needs_valgrind) && (mca || !needs_mca)
        })
        .collect();
    let mut reached = 0;
    let n = cases.len();
    for (args, point, sig) in cases {
        let hit = interrupt(&args, point, sig);
        eprintln!("{args:?}: {}", if hit { "interrupted at its point" } else { "ended before its point" });
        reached += usize::from(hit);
    }
    // A point may pass unseen once in a while (a child shorter than a poll); most must not.
    assert!(reached * 4 >= n * 3, "only {reached} of {n} interrupt points were reached");
}

/// The files of `dir` with their bytes (the lock file aside: it names its last holder).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    names(dir).into_iter().filter(|n| n != ".hotloops.lock").map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap_or_default())).collect()
}

fn run(w: &World, args: &[&str]) -> Output {
    w.command(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Make `path` impossible to replace, even for root: immutable where the file system lets us
/// (`chattr +i`), else a non-empty directory in its place. Returns how, to undo.
fn make_unreplaceable(path: &Path) -> bool {
    if Command::new("chattr").arg("+i").arg(path).status().is_ok_and(|s| s.success()) {
        return true;
    }
    std::fs::remove_file(path).unwrap();
    std::fs::create_dir_all(path.join("in-the-way")).unwrap();
    false
}

fn undo_unreplaceable(path: &Path, immutable: bool) {
    if immutable {
        let _ = Command::new("chattr").arg("-i").arg(path).status();
    }
}

/// Each command that writes a set of files: with one of its previous files impossible to
/// replace, it fails (exit 1, the cause said once), and the directory is exactly as it was.
#[test]
fn an_unreplaceable_output_file_changes_nothing() {
    let w = World::new();
    let out = w.out();
    let o = out.to_str().unwrap();
    let sets: Vec<(Vec<&str>, &str)> = vec![
        ([REPORT_SMALL, &["--no-instructions", "--no-model", "--out", o]].concat(), "report.html"),
        (vec!["render", SAVED, "--out", o], "report.md"),
        (vec!["compare", SAVED, SAVED_2, "--out", o], "compare.md"),
        (vec!["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural,at-0", "--processes", "1", "--out", o], "layout.svg"),
        (vec!["sweep", "alloc-churn", "--quick", "--out", o], "sweep.md"),
    ];
    for (args, victim) in sets {
        let _ = std::fs::remove_dir_all(&out);
        let first = run(&w, &args);
        assert!(first.status.success(), "{args:?}: {}", text(&first));
        let v = out.join(victim);
        let immutable = make_unreplaceable(&v);
        let before = snapshot(&out);
        let again = run(&w, &args);
        let t = text(&again);
        undo_unreplaceable(&v, immutable);
        assert_eq!(again.status.code(), Some(1), "{args:?}: {t}");
        let err: Vec<&str> = t.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(err.len(), 1, "{args:?}: one error: {t}");
        assert!(err[0].contains(&format!("cannot replace {}", v.display())) && err[0].contains("nothing was changed"), "{args:?}: {t}");
        let cause = err[0].split(": ").nth(2).unwrap_or("");
        assert_eq!(err[0].matches(cause).count(), 1, "the cause once: {}", err[0]);
        assert_eq!(snapshot(&out), before, "{args:?}: the previous files must stay exactly as they were");
        w.assert_no_debris(&format!("{args:?}"));
    }
}

/// A file the user wrote where a command would write one is refused (exit 2, named) before
/// any work, and stays; `render` beside its own report.json writes that file back unchanged
/// and names the user's other files.
#[test]
fn a_users_file_in_out_is_never_replaced() {
    let w = World::new();
    let out = w.out();
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        ([REPORT_SMALL, &["--no-instructions", "--no-model", "--out", o]].concat(), "report.md"),
        (vec!["render", SAVED, "--out", o], "report.md"),
        (vec!["compare", SAVED, SAVED_2, "--out", o], "compare.md"),
        (vec!["layout", "local-index", "--size", "test", "--out", o], "layout.md"),
        (vec!["sweep", "alloc-churn", "--quick", "--out", o], "sweep.md"),
    ];
    for (args, mine) in cases {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(mine), "my own notes").unwrap();
        let t0 = Instant::now();
        let o = run(&w, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(&format!("holds {mine} that hotloops did not write")), "{args:?}: {}", text(&o));
        assert_eq!(std::fs::read_to_string(out.join(mine)).unwrap(), "my own notes");
        assert_eq!(names(&out).into_iter().filter(|n| n != ".hotloops.lock").collect::<Vec<_>>(), vec![mine.to_string()], "{args:?}: nothing written");
        // Refused before measuring: not the seconds a run takes (a loose bound, not a timing).
        assert!(t0.elapsed() < Duration::from_secs(120), "{args:?}");
    }
    // render beside its own report: the report.json is its input, written back byte for byte;
    // a user's file beside it is named and left.
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let saved = std::fs::read(SAVED).unwrap();
    std::fs::write(out.join("report.json"), &saved).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = run(&w, &["render", out.join("report.json").to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(out.join("report.json")).unwrap(), saved, "every figure kept exactly");
    assert!(text(&o).contains("left alone") && text(&o).contains("notes.txt"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
}

/// A pipe whose reading end is already closed: writing to it fails with EPIPE at once.
fn closed_pipe() -> std::io::PipeWriter {
    let (r, w) = std::io::pipe().unwrap();
    drop(r);
    w
}

/// Every subcommand, with its stdout closed and then its stderr closed: no panic, and the
/// command's work is done (its exit as without the closed stream).
#[test]
fn every_subcommand_survives_a_closed_stdout_or_stderr() {
    let w = World::new();
    let o = w.out();
    let out = o.to_str().unwrap();
    let request = w.path("request.json");
    std::fs::write(&request, "{\"request\": \"probe\", \"free_mmap\": null}\n").unwrap();
    let valgrind = Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success());
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["list"],
        vec!["list", "--cases"],
        vec!["asm", "local-index/local"],
        vec!["asm", "local-index", "--diff", "store-each", "local"],
        vec!["run", "local-index/local", "--size", "test"],
        vec!["counters", "local-index/local", "--size", "test", "--runs", "2"],
        [REPORT_SMALL, &["--no-instructions", "--no-model", "--out", out]].concat(),
        vec!["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--processes", "1", "--out", out],
        vec!["render", SAVED, "--out", out],
        vec!["compare", SAVED, SAVED_2, "--out", out],
        vec!["compare", "--baseline", SAVED, SAVED, "--out", out],
        vec!["sweep", "alloc-churn", "--quick", "--out", out],
        vec!["model", "local-index", "--no-measure"],
        vec!["paired", "local-index/store-each", "local-index/local", "--case", "table3", "--size", "test", "--budget-ms", "10", "--block-us", "2000"],
        vec!["sweep", "nope"],
    ];
    if valgrind {
        commands.push(vec!["instructions", "local-index/local"]);
    }
    for args in &commands {
        let _ = std::fs::remove_dir_all(&o);
        // The exit it has with both streams open (a usage error stays one).
        let open = run(&w, args);
        for closed in ["stdout", "stderr"] {
            let _ = std::fs::remove_dir_all(&o);
            let mut c = w.command(args);
            if closed == "stdout" {
                c.stdout(closed_pipe()).stderr(Stdio::piped());
            } else {
                c.stdout(Stdio::piped()).stderr(closed_pipe());
            }
            let got = c.output().unwrap();
            let t = text(&got);
            assert!(!t.contains("panicked"), "{args:?} with {closed} closed: {t}");
            assert_ne!(got.status.code(), Some(101), "{args:?} with {closed} closed panicked");
            assert_eq!(got.status.code(), open.status.code(), "{args:?} with {closed} closed: {t}");
            if closed == "stderr" {
                assert_eq!(got.stdout.is_empty(), open.stdout.is_empty(), "{args:?}: stdout as with stderr open");
            }
            if args.contains(&"--out") && open.status.success() {
                assert!(o.join(".hotloops-manifest.json").is_file(), "{args:?} with {closed} closed wrote its files");
            }
        }
    }
    // The worker, whose stdout is its reply: a client gone is an error exit, never a panic.
    let got = w.command(&["worker"]).stdin(std::fs::File::open(&request).unwrap()).stdout(closed_pipe()).stderr(Stdio::piped()).output().unwrap();
    assert!(!text(&got).contains("panicked") && got.status.code() != Some(101), "{}", text(&got));
    w.assert_no_process_left("closed streams");
    w.assert_no_debris("closed streams");
}

/// A tool a command runs (llvm-mca for `model`, cargo for `asm --fresh`) is a child like any
/// other: an interrupt while it runs kills it and exits 130. A stand-in that answers
/// `--version` and otherwise never ends (`sleep`) makes the point certain; unregistered, it
/// outlived the command (and the command, which had registered nothing else, died of the
/// signal without its handler).
#[test]
fn an_interrupt_kills_the_tools_a_command_runs() {
    interrupt_stand_in("llvm-mca-19", "echo 'LLVM version 19.1.7'", &["model", "local-index", "--no-measure"]);
    interrupt_stand_in("cargo", "echo 'Version: 0.2.64'", &["asm", "--fresh", "local-index/local"]);
}

/// Run `args` with `tool` on PATH replaced by a script that runs `version` for a `--version`
/// anywhere in its arguments and sleeps otherwise; SIGTERM it once the sleep runs.
fn interrupt_stand_in(tool: &str, version: &str, args: &[&str]) {
    use std::os::unix::fs::PermissionsExt as _;
    let w = World::new();
    let bin = w.path("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join(tool);
    std::fs::write(&fake, format!("#!/bin/sh\nfor a; do [ \"$a\" = --version ] && {{ {version}; exit 0; }}; done\nexec sleep 300\n")).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let err = w.path("stderr");
    let mut c = w.command(args);
    c.env("PATH", path).stdout(Stdio::null()).stderr(std::fs::File::create(&err).unwrap());
    let mut r = Running { child: c.spawn().unwrap(), err };
    let t = Instant::now();
    while !w.tagged().iter().any(|(_, argv)| argv[0].ends_with("sleep")) {
        assert!(r.child.try_wait().unwrap().is_none(), "{args:?} ended before running {tool}: {}", std::fs::read_to_string(&r.err).unwrap_or_default());
        assert!(t.elapsed() < DEADLINE, "{args:?}: {tool} never started");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(r.child.id() as libc::pid_t, libc::SIGTERM) };
    let st = wait(&mut r, tool);
    // The handler waits for its kills: nothing of the command may be alive once it exited.
    let left = w.tagged();
    for (pid, _) in &left {
        // SAFETY: a stand-in this test's command started; removed so that a failure leaks nothing.
        unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
    }
    let err = std::fs::read_to_string(&r.err).unwrap_or_default();
    assert_eq!(st.code(), Some(130), "{args:?} interrupted while {tool} ran: {st}: {err}");
    assert!(left.is_empty(), "{args:?}: {tool} left behind: {left:?}");
    w.assert_no_debris(&format!("{args:?} interrupted while {tool} ran"));
}

/// Bytes of every file of `dir` but its lock file and manifest, which runs beside each other
/// rewrite.
fn results(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    snapshot(dir).into_iter().filter(|(n, _)| n != ".hotloops-manifest.json").collect()
}

/// A run removes only its own earlier files and never its inputs: a report's files in a
/// folder stay, byte for byte, through a compare that reads the report and writes beside it,
/// a compare --baseline with the report as its new side, and a layout into the same folder;
/// a compare whose output would be its own input, and a render of another report into the
/// folder, are refused (exit 2, named) and change nothing; --force lets the render replace
/// the report it names. Before, each of those runs removed the report (its manifest rule
/// removed the previous run's files, whatever command wrote them).
#[test]
fn a_command_never_removes_another_commands_results_or_its_inputs() {
    let w = World::new();
    let out = w.out();
    let o = out.to_str().unwrap();
    let ok = |args: &[&str]| {
        let r = run(&w, args);
        assert!(r.status.success(), "{args:?}: {}", text(&r));
    };
    ok(&["render", SAVED, "--out", o]);
    let report = results(&out);
    assert!(report.contains_key("report.json") && report.contains_key("report.html"), "{report:?}");
    let rj = out.join("report.json");
    let r = rj.to_str().unwrap();
    ok(&["compare", r, SAVED_2, "--out", o]);
    assert!(out.join("compare-local-index.svg").is_file());
    // Another quick report of the same host as the old side (compare's own earlier files,
    // the plots of the comparison above, are replaced: they were compare's).
    let old = concat!(env!("CARGO_MANIFEST_DIR"), "/analysis/kvm-amd-epyc-2core/quick-d5e1a56/report.json");
    ok(&["compare", "--baseline", old, r, "--out", o]);
    ok(&["layout", "local-index", "--size", "test", "--budget-ms", "10", "--layouts", "natural", "--processes", "1", "--out", o]);
    let now = results(&out);
    for (name, bytes) in &report {
        assert_eq!(now.get(name), Some(bytes), "{name}: the report's file was removed or changed");
    }
    assert!(now.contains_key("compare.md") && now.contains_key("layout.json"), "{now:?}");
    // A run whose output is its own input: refused, naming it.
    let input = out.join("compare.md");
    std::fs::copy(SAVED, &input).unwrap();
    let before = results(&out);
    let t = run(&w, &["compare", input.to_str().unwrap(), SAVED_2, "--out", o]);
    assert_eq!(t.status.code(), Some(2), "{}", text(&t));
    assert!(text(&t).contains(&format!("{} is an input of this run", input.display())), "{}", text(&t));
    assert_eq!(results(&out), before, "a refused run changed the folder");
    // Another report rendered into the folder: refused, naming the report it would replace.
    let t = run(&w, &["render", SAVED_2, "--out", o]);
    assert_eq!(t.status.code(), Some(2), "{}", text(&t));
    assert!(text(&t).contains("holds another report") && text(&t).contains("--force"), "{}", text(&t));
    assert_eq!(results(&out), before);
    // Told to, it replaces that report; the other commands' files stay.
    ok(&["render", SAVED_2, "--out", o, "--force"]);
    assert_eq!(std::fs::read(&rj).unwrap(), std::fs::read(SAVED_2).unwrap());
    assert!(out.join("layout.json").is_file() && out.join("compare.md").is_file());
    w.assert_no_debris("runs side by side");
}

/// A FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

/// Three runs started at the same instant into a folder that does not exist yet (each waits in
/// a shell for one gate, then execs hotloops): one claims it and the others are refused,
/// removing nothing; the winner's lock file stays, naming it, while it runs; and a fourth run
/// started after the losers ended is refused too. Before, a loser's cleanup removed the
/// winner's lock file and the still-empty folder, and a later run measured into the same
/// folder beside the winner.
#[test]
fn three_runs_started_at_once_into_a_new_folder_share_it_with_none() {
    for round in 0..4 {
        let w = World::new();
        let out = w.out();
        let o = out.to_str().unwrap();
        let gate = w.path("gate");
        mkfifo(&gate);
        // A full sweep: minutes, so the winner still runs while the others are checked.
        let args = ["-c", r#"exec 3<"$0"; exec "$@""#, gate.to_str().unwrap(), EXE, "sweep", "alloc-churn", "--out", o];
        let mut runs: Vec<(Child, PathBuf)> = (0..3)
            .map(|i| {
                let err = w.path(&format!("stderr-{i}"));
                let c = w.command_of("sh", &args).stdout(Stdio::null()).stderr(std::fs::File::create(&err).unwrap()).spawn().unwrap();
                (c, err)
            })
            .collect();
        // Wait until the three shells are blocked opening the gate, then open it for all at once.
        let t = Instant::now();
        while runs.iter().any(|(c, _)| !std::fs::read_to_string(format!("/proc/{}/wchan", c.id())).is_ok_and(|w| w.contains("fifo"))) && t.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let open = std::fs::OpenOptions::new().read(true).write(true).open(&gate).unwrap();
        // Two are refused (exit 1, in use); one runs on.
        let t = Instant::now();
        let mut ended = Vec::new();
        while ended.len() < 2 {
            for (i, (c, err)) in runs.iter_mut().enumerate() {
                if !ended.iter().any(|(j, _)| *j == i)
                    && let Some(st) = c.try_wait().unwrap()
                {
                    ended.push((i, (st, std::fs::read_to_string(&*err).unwrap_or_default())));
                }
            }
            assert!(t.elapsed() < DEADLINE, "round {round}: the runs did not end: {ended:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
        drop(open);
        for (i, (st, err)) in &ended {
            assert!(st.code() == Some(1) && err.contains("is in use by another hotloops run"), "round {round}: run {i} was not refused: {st} {err}");
        }
        let winner = (0..3).find(|i| !ended.iter().any(|(j, _)| j == i)).unwrap();
        assert!(runs[winner].0.try_wait().unwrap().is_none(), "round {round}: the winner ended with the losers");
        // The winner's lock is there and names it; nothing of another run is.
        let lock = std::fs::read_to_string(out.join(".hotloops.lock")).unwrap_or_default();
        assert!(lock.contains(&format!("pid {}", runs[winner].0.id())), "round {round}: the winner's lock file is gone or not its own: {lock:?}");
        // A fourth run, later: refused as well.
        let fourth = run(&w, &["sweep", "alloc-churn", "--quick", "--out", o]);
        assert!(fourth.status.code() == Some(1) && text(&fourth).contains("is in use by another hotloops run"), "round {round}: a later run was let in: {}", text(&fourth));
        // SAFETY: kill on the pid of a child this test started and has not reaped.
        unsafe { libc::kill(runs[winner].0.id() as libc::pid_t, libc::SIGTERM) };
        let st = runs[winner].0.wait().unwrap();
        assert_eq!(st.code(), Some(130), "round {round}: {}", std::fs::read_to_string(&runs[winner].1).unwrap_or_default());
        assert!(!out.exists(), "round {round}: the interrupted winner left the folder it created");
        w.assert_no_process_left("three at once");
        w.assert_no_debris("three at once");
    }
}

/// A tool that the handler cannot stop because the run was killed by SIGKILL dies with the
/// run (valgrind under `instructions`, gcc under `model`), and the run's temporary directory,
/// which no handler removed, is removed by the next run of the command. Stand-ins that answer
/// `--version` and otherwise sleep for five minutes make the points certain; before, the
/// stand-in slept on and the directory stayed for good.
#[test]
fn a_killed_runs_tools_die_with_it_and_its_temporaries_are_swept() {
    use std::os::unix::fs::PermissionsExt as _;
    let cases: [(&str, &str, &[&str], &str); 2] = [
        ("valgrind", "echo valgrind-3.19.0", &["instructions", "local-index/local"], "hotloops-callgrind-"),
        ("gcc", "echo 'gcc (Debian 12.2.0-14) 12.2.0'", &["model", "local-index", "--cpu", "skylake"], "hotloops-model-"),
    ];
    let has = |tool: &str| Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    for (tool, version, args, prefix) in cases {
        if tool == "gcc" && !has("llvm-mca-19") {
            eprintln!("skipping model: llvm-mca-19 is not installed");
            continue;
        }
        let w = World::new();
        let bin = w.path("bin");
        std::fs::create_dir(&bin).unwrap();
        let fake = bin.join(tool);
        std::fs::write(&fake, format!("#!/bin/sh\nfor a; do [ \"$a\" = --version ] && {{ {version}; exit 0; }}; done\nexec sleep 300\n")).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
        let mut c = w.command(args).env("PATH", &path).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let t = Instant::now();
        while !w.tagged().iter().any(|(_, argv)| argv[0].ends_with("sleep")) {
            assert!(c.try_wait().unwrap().is_none(), "{args:?} ended before running {tool}");
            assert!(t.elapsed() < DEADLINE, "{args:?}: {tool} never started");
            std::thread::sleep(Duration::from_millis(5));
        }
        let left: Vec<String> = names(&w.path("tmp")).into_iter().filter(|n| n.starts_with(prefix)).collect();
        assert_eq!(left.len(), 1, "{args:?}: its temporary directory: {left:?}");
        c.kill().unwrap();
        c.wait().unwrap();
        // The stand-in dies with it (a deadline of minutes against its five-minute sleep).
        let t = Instant::now();
        while let Some((pid, _)) = w.tagged().into_iter().find(|(_, argv)| argv[0].ends_with("sleep")) {
            if t.elapsed() > Duration::from_secs(120) {
                // SAFETY: a stand-in this test's command started; killed so a failure leaks nothing.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
                panic!("{args:?}: {tool} outlived the run killed by SIGKILL");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(w.path("tmp").join(&left[0]).exists(), "{args:?}: nothing can remove it before the next run");
        // The next run of the command (its tool failing at once) removes it, saying so.
        std::fs::write(&fake, format!("#!/bin/sh\nfor a; do [ \"$a\" = --version ] && {{ {version}; exit 0; }}; done\nexit 1\n")).unwrap();
        let next = w.command(args).env("PATH", &path).output().unwrap();
        assert!(text(&next).contains("of runs that were killed") && text(&next).contains(&left[0]), "{args:?}: {}", text(&next));
        w.assert_no_debris(&format!("{args:?} after a run killed by SIGKILL"));
        w.assert_no_process_left(&format!("{args:?} after a run killed by SIGKILL"));
    }
}

/// `sweep` times query rates: it takes the measuring core's lock as a report does, and waits
/// for a run that holds it (saying so) instead of timing beside it. Here the test holds the
/// lock: the sweep says it waits, writes nothing until the lock is let go, then finishes.
/// Before, it timed at once, beside whatever held the core.
#[test]
fn a_sweep_waits_for_the_measuring_core() {
    let w = World::new();
    let Some(core) = hotloops::host::affinity::measuring_core() else { return };
    let held = hotloops::host::lock::acquire(&w.path("locks").join(format!("hotloops-core-{core}.lock")), "the test").unwrap();
    let out = w.out();
    let mut r = spawn(&w, &["sweep", "alloc-churn", "--quick", "--out", out.to_str().unwrap()]);
    let t = Instant::now();
    loop {
        let err = std::fs::read_to_string(&r.err).unwrap_or_default();
        if err.contains(&format!("core {core} (where a sweep times) is in use by")) && err.contains("waiting for it to finish") {
            break;
        }
        assert!(r.child.try_wait().unwrap().is_none(), "the sweep ran beside the holder of core {core}: {err}");
        assert!(t.elapsed() < DEADLINE, "{err}");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!out.join("sweep.json").exists());
    drop(held);
    let st = wait(&mut r, "sweep");
    assert!(st.success() && out.join("sweep.json").is_file(), "{}", std::fs::read_to_string(&r.err).unwrap_or_default());
}

/// Bad places: a TMPDIR that does not exist is named (exit 2), and an --out that is a link to
/// nowhere is named as one, not "File exists".
#[test]
fn a_missing_tmpdir_and_a_dangling_out_link_are_named() {
    let w = World::new();
    let nowhere = w.path("no-such-tmp");
    let valgrind = Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success());
    if valgrind {
        let o = w.command(&["instructions", "local-index/local"]).env("TMPDIR", &nowhere).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(&format!("TMPDIR {} is not a directory", nowhere.display())), "{}", text(&o));
    }
    let link = w.path("link");
    std::os::unix::fs::symlink(w.path("gone"), &link).unwrap();
    let o = run(&w, &["compare", SAVED, SAVED_2, "--out", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is a symbolic link to") && text(&o).contains("which does not exist") && !text(&o).contains("File exists"), "{}", text(&o));
    assert!(!w.path("gone").exists());
}
