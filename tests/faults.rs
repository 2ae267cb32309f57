//! Runs that must stay trustworthy and clean: a busy core is flagged (and `--strict`
//! refuses), a second concurrent report is refused naming the first, progress shows off a
//! terminal, `--out` keeps only this report's files, and SIGINT leaves no temporary files
//! and no children.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A lock directory of its own per call, so that tests running at once do not refuse each
/// other's core (the lock test shares one on purpose).
fn own_locks() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("locks-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn hotloops(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    c.args(args).env("HOTLOOPS_LOCK_DIR", own_locks());
    c
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

const SMALL: &[&str] = &["report", "--study", "local-index", "--size", "test", "--budget-ms", "150", "--no-instructions", "--no-model", "--out"];

/// Threads spinning on `core` until dropped: a synthetic busy host for whatever else is pinned there.
struct Spinners(std::sync::Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Spinners {
    fn on(core: core_affinity::CoreId, n: usize) -> Spinners {
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    core_affinity::set_for_current(core);
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::black_box(0u64);
                    }
                })
            })
            .collect();
        Spinners(stop, threads)
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

/// Two threads spinning on the core the report pins (the last one): its thread gets about a
/// third of the wall time, every pair is flagged, the note says so, and `--strict` refuses
/// to write anything. Stderr is a pipe here, so progress comes as one line per pair.
#[test]
fn a_shared_core_is_flagged_and_strict_refuses() {
    let core = *core_affinity::get_core_ids().expect("cores").last().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let strict = dir.path().join("strict");
    let (o, s) = {
        let _busy = Spinners::on(core, 2);
        let o = hotloops(SMALL).arg(&out).output().unwrap();
        let s = hotloops(SMALL).arg(&strict).arg("--strict").output().unwrap();
        (o, s)
    };
    assert!(o.status.success(), "{}", text(&o));
    let r = hotloops::report::load(&out.join("report.json")).unwrap();
    let walls: Vec<_> = r.rows.iter().filter(|x| x.metric.starts_with("wall-clock") && x.ratio.is_some()).collect();
    assert!(!walls.is_empty());
    let flagged: Vec<_> = walls.iter().filter(|w| w.flags.iter().any(|f| f.starts_with("busy-host: thread ran") && f.contains("involuntary switches"))).collect();
    assert!(!flagged.is_empty(), "no wall-clock row flagged while two threads spun on core {}: {:?}", core.id, walls.iter().map(|w| &w.flags).collect::<Vec<_>>());
    assert!(r.notes.iter().any(|n| n.starts_with("busy host:")), "{:?}", r.notes);
    let pairs = r.studies[0].cases.iter().map(|c| 1 + c.pairs.len()).sum::<usize>();
    assert!(r.studies[0].cases.iter().all(|c| c.aa.usage.len() == c.aa.processes && c.aa.usage.iter().all(|u| u.wall_s > 0.0)), "usage recorded per pair and process");

    // Progress off a terminal: a line per pair, numbered, with an ETA.
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with('[') && l.contains("/local-index/") || l.starts_with('[') && l.contains("] local-index/")).collect();
    assert_eq!(lines.len(), pairs, "one progress line per pair:\n{err}");
    assert!(lines[0].starts_with(&format!("[1/{pairs}] local-index/")) && lines.iter().all(|l| l.contains("ETA ")), "{lines:?}");

    assert_eq!(s.status.code(), Some(1), "{}", text(&s));
    assert!(text(&s).contains("--strict: not writing the report, busy host"), "{}", text(&s));
    assert!(!strict.join("report.json").exists() && !strict.join("report.md").exists(), "--strict wrote files");
}

/// `--out` keeps only this report's files: the previous report's SVG goes, a file of the
/// user's stays and is named.
#[test]
fn out_holds_only_this_reports_files_and_names_others() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = hotloops(&["report", "--study", "dir-by-value", "--size", "test", "--budget-ms", "40", "--no-instructions", "--no-model", "--out"]).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.join("dir-by-value.svg").exists());
    std::fs::write(out.join("my-notes.txt"), "mine").unwrap();
    let o = hotloops(SMALL).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(!out.join("dir-by-value.svg").exists(), "the previous report's plot is still there");
    assert!(out.join("local-index.svg").exists() && out.join("my-notes.txt").exists());
    let r = hotloops::report::load(&out.join("report.json")).unwrap();
    assert!(r.notes.iter().any(|n| n.contains("did not write") && n.contains("my-notes.txt")), "{:?}", r.notes);
    let mut names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, [".hotloops-manifest.json", ".hotloops.lock", "local-index.svg", "my-notes.txt", "report.html", "report.json", "report.md"]);
}

#[test]
fn the_same_study_twice_is_refused_with_exit_2() {
    let o = hotloops(&["report", "--study", "local-index", "--study", "local-index", "--size", "test", "--out", "/tmp/hotloops-never-twice"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--study local-index is given twice"), "{}", text(&o));
    assert!(!Path::new("/tmp/hotloops-never-twice").exists());
}

fn children_of(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/status"))
                .ok()
                .and_then(|s| s.lines().find(|l| l.starts_with("PPid:")).map(|l| l[5..].trim() == pid.to_string()))
                .unwrap_or(false)
        })
        .collect()
}

fn wait_for<T>(what: &str, child: &mut Child, mut f: impl FnMut() -> Option<T>) -> T {
    let t = Instant::now();
    loop {
        if let Some(x) = f() {
            return x;
        }
        if let Ok(Some(st)) = child.try_wait() {
            panic!("the report ended ({st}) before {what}");
        }
        assert!(t.elapsed() < Duration::from_secs(120), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn sigint(child: &mut Child) -> std::process::ExitStatus {
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    child.wait().unwrap()
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.contains(".tmp")).collect())
        .unwrap_or_default()
}

/// While one report runs (`--processes 2`), a second on the same `--out`, or on the same core,
/// is refused naming the first's pid; SIGINT then ends the first with 130, its workers gone
/// with it and no temporary file left.
#[test]
fn a_second_report_is_refused_and_sigint_leaves_no_children() {
    let dir = tempfile::tempdir().unwrap();
    let locks = dir.path().join("locks");
    std::fs::create_dir_all(&locks).unwrap();
    let (out, other) = (dir.path().join("r"), dir.path().join("other"));
    let args = ["report", "--study", "local-index", "--size", "test", "--budget-ms", "20000", "--processes", "2", "--no-instructions", "--no-model", "--out"];
    let mut first = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).arg(&out).env("HOTLOOPS_LOCK_DIR", &locks).stderr(Stdio::piped()).spawn().unwrap();
    let pid = first.id();
    // Workers, not the provenance's `git` or `rustc --version`.
    let is_worker = |p: &u32| std::fs::read(format!("/proc/{p}/cmdline")).is_ok_and(|c| c.split(|b| *b == 0).nth(1) == Some(b"worker"));
    let workers = wait_for("a worker process", &mut first, || Some(children_of(pid).into_iter().filter(is_worker).collect::<Vec<_>>()).filter(|c| !c.is_empty()));
    for (target, what) in [(&out, format!("error: --out {} is in use by another hotloops run (pid {pid}:", out.display())), (&other, "error: core ".to_string())] {
        let o = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).arg(target).env("HOTLOOPS_LOCK_DIR", &locks).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let t = text(&o);
        assert!(t.contains(&what) && t.contains(&format!("is in use by another hotloops run (pid {pid}:")), "{t}");
    }
    let st = sigint(&mut first);
    assert_eq!(st.code(), Some(130), "{st}");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut first.stderr.take().unwrap(), &mut err).unwrap();
    // The handler stopped it (workers run one at a time; it would also go, a little later,
    // on seeing its stdin close).
    assert!(err.contains("interrupted: stopped 1 child process(es)"), "{err}");
    let left: Vec<u32> = workers.iter().copied().filter(|w| Path::new(&format!("/proc/{w}")).exists()).collect();
    assert!(left.is_empty(), "workers {left:?} outlived the interrupted report");
    assert!(temporaries(&out).is_empty(), "{:?}", temporaries(&out));
    assert!(!out.join("report.json").exists());
}

/// SIGINT while the bloom index is being written (a full-size, 153 MiB file under a fresh
/// `HOTLOOPS_DATA_DIR`) leaves no `*.tmp<PID>` behind.
#[test]
fn sigint_while_the_bloom_index_is_written_leaves_no_temporary() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let data = dir.path().join("data");
    let mut run = hotloops(&["report", "--study", "read-stream", "--size", "full", "--no-instructions", "--no-model", "--out"])
        .arg(dir.path().join("r"))
        .env("HOTLOOPS_DATA_DIR", &data)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tmp = wait_for("the index's temporary file", &mut run, || temporaries(&data).into_iter().next());
    assert!(tmp.contains(&format!("tmp{}", run.id())), "{tmp}");
    let st = sigint(&mut run);
    assert_eq!(st.code(), Some(130), "{st}");
    assert!(temporaries(&data).is_empty(), "left behind: {:?}", temporaries(&data));
}
