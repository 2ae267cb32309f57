//! Code layouts (src/host/layout.rs, build.rs `layout`): the `hotloops-layout-at-K` binaries
//! really move every kernel (read from each binary), and moving it changes nothing but where
//! it sits: the same digests and the same instruction counts.

use hotloops::host::layout::{self, LAYOUTS};
use hotloops::study::{self, Size};
use std::path::PathBuf;
use std::process::Command;

fn bin(name: &str) -> PathBuf {
    // Cargo builds every [[bin]] for integration tests; they sit beside `hotloops`.
    PathBuf::from(env!("CARGO_BIN_EXE_hotloops")).with_file_name(name)
}

fn rows() -> Vec<&'static study::Variant> {
    study::STUDIES.iter().flat_map(|s| s.info().variants.iter()).collect()
}

#[test]
fn every_kernel_and_helper_is_placed_by_the_ordering_files() {
    let placed: Vec<&str> = layout::PLACED_SYMBOLS.lines().collect();
    for v in rows() {
        for s in std::iter::once(v.kernel).chain(v.helpers.iter().copied()) {
            assert!(placed.contains(&s), "{}: build.rs's layout scan missed {s}: the at-K binaries do not move it", v.id);
        }
    }
}

#[test]
fn each_layout_moves_every_kernel_and_its_loop_to_its_offset() {
    let at0 = layout::functions(&bin("hotloops-layout-at-0")).unwrap();
    for l in LAYOUTS.iter().filter(|l| l.offset.is_some()) {
        let k = l.offset.unwrap() as u64;
        let path = bin(l.bin);
        let f = layout::functions(&path).unwrap();
        let mut loops_seen = 0;
        for v in rows() {
            for s in std::iter::once(v.kernel).chain(v.helpers.iter().copied()) {
                let (a, size) = f[s];
                let (a0, size0) = at0[s];
                assert_eq!(size, size0, "{s}: a layout must not change the code");
                if v.is_c() {
                    // A C translation unit's .text moves as one.
                    assert_eq!(a.wrapping_sub(a0) % 64, k, "{s} in {}: moved by {} mod 64", l.id, a.wrapping_sub(a0) % 64);
                } else {
                    assert_eq!(a % 64, k, "{s} in {}: at {a:#x}", l.id);
                }
                if s == v.kernel
                    && let (Some(h), Some(h0)) = (layout::loop_header(&path, a, size).unwrap(), layout::loop_header(&bin("hotloops-layout-at-0"), a0, size0).unwrap())
                {
                    assert_eq!(h - a, h0 - a0, "{s}: the loop header keeps its place in the function");
                    assert_eq!(h.wrapping_sub(h0) % 64, a.wrapping_sub(a0) % 64, "{s}: its loop header moves with it");
                    loops_seen += 1;
                }
            }
        }
        assert!(loops_seen >= 10, "{}: only {loops_seen} kernels with a loop found (objdump missing?)", l.id);
    }
}

#[test]
fn the_layouts_differ_from_each_other() {
    let f: Vec<_> = LAYOUTS.iter().map(|l| layout::functions(&bin(l.bin)).unwrap()).collect();
    let k = "hotloops_local_index_local";
    let offs: Vec<u64> = f.iter().map(|m| m[k].0 % 64).collect();
    let mut distinct = offs[1..].to_vec();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct, vec![0, 16, 32, 48], "{offs:?}");
    for (l, m) in LAYOUTS.iter().zip(&f).skip(1) {
        layout::same_functions(&f[0], m).unwrap_or_else(|e| panic!("{}: {e}", l.id));
    }
}

fn digest(exe: &str, id: &str, case: &str) -> String {
    let o = Command::new(bin(exe)).args(["run", id, "--case", case, "--size", "test"]).output().unwrap();
    assert!(o.status.success(), "{exe} run {id}: {}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    out.rsplit("digest ").next().unwrap().trim().to_string()
}

#[test]
fn every_layout_gives_the_same_digests() {
    for (id, case) in [
        ("local-index/local", "table3"),
        ("local-index/c-store-each", "table3-bitmap"),
        ("dir-by-value/c-opaque", "range-2000/1-key"),
        ("tid-batch/batched", "btree-few"),
    ] {
        let want = digest("hotloops", id, case);
        assert!(want.starts_with("0x"), "{want}");
        for l in &LAYOUTS[1..] {
            assert_eq!(digest(l.bin, id, case), want, "{id} on {case} in {}", l.id);
        }
    }
}

#[test]
fn every_layout_gives_the_same_instruction_counts() {
    if hotloops::measure::callgrind::check_valgrind().is_err() {
        // CI installs valgrind (scripts/test.sh); say so rather than pass silently elsewhere.
        panic!("valgrind is needed for this test: apt-get install valgrind");
    }
    let jobs = [("local-index/store-each", "table3"), ("local-index/c-local", "table3"), ("dir-by-value/opaque", "range-2000/0-keys")];
    let count = |exe: &str| {
        let mut c = hotloops::measure::callgrind::count_many(&bin(exe), &jobs, Size::Test).unwrap();
        c.sort_by(|a, b| (&a.id, &a.case).cmp(&(&b.id, &b.case)));
        c.into_iter().map(|c| (c.id, c.case, c.inclusive, c.own)).collect::<Vec<_>>()
    };
    let natural = count("hotloops");
    assert!(natural.iter().all(|c| c.2 > 0), "{natural:?}");
    assert_eq!(count("hotloops-layout-at-48"), natural);
}

#[test]
fn unknown_layouts_and_targets_are_refused_with_the_valid_names() {
    let exe = env!("CARGO_BIN_EXE_hotloops");
    for args in [
        vec!["layout", "local-index/local", "--layouts", "at-7", "--out", "/nonexistent/x"],
        vec!["report", "--quick", "--layouts", "at-0,bogus", "--out", "/nonexistent/x"],
    ] {
        let o = Command::new(exe).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("natural") && err.contains("at-48"), "{args:?}: {err}");
    }
    let o = Command::new(exe).args(["layout", "no-such-thing"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("local-index/local") && err.contains("tid-batch"), "{err}");
    let o = Command::new(exe).args(["layout", "local-index/store-each"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "the baseline against itself is not a pair to sweep");
}

#[test]
fn hotloops_layout_writes_a_table_per_layout_with_the_sites() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["layout", "local-index/local", "--size", "test", "--processes", "1", "--budget-ms", "20", "--layouts", "at-0,at-32,natural"])
        .env("HOTLOOPS_LOCK_DIR", dir.path())
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.path().join("layout.json")).unwrap()).unwrap();
    let ls = j["pair"]["layouts"].as_array().unwrap();
    assert_eq!(ls.iter().map(|l| l["layout"].as_str().unwrap()).collect::<Vec<_>>(), ["at-0", "at-32", "natural"]);
    assert_eq!(ls[0]["b"]["kernel"], 0);
    assert_eq!(ls[1]["b"]["kernel"], 32);
    assert_eq!((ls[0]["b"]["loop_header"].as_u64().unwrap() + 32) % 64, ls[1]["b"]["loop_header"].as_u64().unwrap());
    assert!(["faster", "slower", "not-resolved", "layout-sensitive"].contains(&j["verdict"].as_str().unwrap()), "{}", j["verdict"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("| at-32") && md.contains("@32 loop@") && md.contains("Verdict:"), "{md}");
    assert!(dir.path().join("layout.svg").is_file());
}

/// The report counts every case of a variant in one valgrind process, split at
/// `hotloops_callgrind_boundary`. A kernel's own instructions are what a process of its own
/// gives; its inclusive count may differ by what malloc does in a heap that earlier cases
/// used (a TIDBitmap growing: 0.02% on btree-lossy), never by more than 0.1%, and the same
/// way every run. alloc-churn measures the allocator itself: there the difference reached 1%
/// (partitions-100, the trim threshold crossed or not), so its cases are counted a process
/// each, and equal a lone run exactly.
#[test]
fn one_valgrind_for_all_cases_counts_what_one_process_a_case_does() {
    use hotloops::measure::callgrind;
    if callgrind::check_valgrind().is_err() {
        panic!("valgrind is needed for this test: apt-get install valgrind");
    }
    let exe = bin("hotloops");
    for (id, cases) in [
        ("tid-batch/batched", &["btree-few", "btree-many", "btree-lossy"][..]),
        ("local-index/c-local", &["table3", "table3-bitmap"][..]),
    ] {
        let together = callgrind::count_cases(&exe, id, cases, Size::Test).unwrap();
        assert_eq!(together.iter().map(|c| c.case.as_str()).collect::<Vec<_>>(), cases);
        for (t, case) in together.iter().zip(cases) {
            let alone = callgrind::count(&exe, id, case, Size::Test).unwrap();
            assert_eq!((t.items, t.own), (alone.items, alone.own), "{id} on {case}");
            let d = (t.inclusive as f64 / alone.inclusive as f64 - 1.0).abs();
            assert!(d < 1e-3, "{id} on {case}: inclusive {} in one process, {} alone", t.inclusive, alone.inclusive);
        }
        let again = callgrind::count_cases(&exe, id, cases, Size::Test).unwrap();
        for (a, b) in again.iter().zip(&together) {
            assert_eq!((a.inclusive, a.own), (b.inclusive, b.own), "{id} on {}: counts repeat exactly", a.case);
        }
    }
    let jobs: Vec<callgrind::Job> = ["partitions-3", "partitions-4", "partitions-100"].iter().map(|c| ("alloc-churn/palloc-routine", *c)).collect();
    for (t, (id, case)) in callgrind::count_many(&exe, &jobs, Size::Test).unwrap().iter().zip(&jobs) {
        let alone = callgrind::count(&exe, id, case, Size::Test).unwrap();
        assert_eq!((t.items, t.own, t.inclusive), (alone.items, alone.own, alone.inclusive), "{id} on {case}: a process of its own");
    }
}
