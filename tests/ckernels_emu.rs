//! Equivalence under emulation: the C kernels of local-index, dir-by-value and
//! tid-batch built for arm64 (`gcc12-pg-arm64`: `aarch64-linux-gnu-gcc` with Debian arm64
//! PostgreSQL 15's flags, linked statically with the driver csrc/emu/hl_emu.c) run under
//! `qemu-aarch64` on the crate's test-size cases and must print the digests the x86-64 build
//! of the same kernels gives in this process (each row's `Case::run`). The same driver built
//! for the host under gcc12-pg must print them too: that checks the driver's C versions of the
//! Rust callees everywhere, cross compiler or not.
//!
//! Rust stays out of the emulated program: this toolchain has no aarch64 standard library. The
//! test writes each case as a file (the index's leaf pages, the ranges, or the leaf spans the
//! crate's B-tree scan delivered), in a temporary directory removed on every exit path.

use hotloops::ckernels::{self, ARM64, CANONICAL, Entry};
use hotloops::pg::ItemPointer;
use hotloops::pg::nbtree::{BTree, IndexScanDesc, ScanKey};
use hotloops::pg::tidbitmap::DEFAULT_WORK_MEM_BYTES;
use hotloops::pg::workload::{PGBENCH_ROWS_PER_SCALE, pgbench_accounts_pkey, pgbench_ranges, table3_col0_index};
use hotloops::study::dir_by_value::{RangeCase, ReadPage};
use hotloops::study::local_index::{self, LocalKernel, ScanCase};
use hotloops::study::tid_batch::{self, BTREE_CASES, TidKernel};
use hotloops::study::{self, Case, Size, Variant};
use std::cell::RefCell;
use std::ffi::c_void;
use std::path::Path;
use std::process::Command;

const STUDY_LOCAL_INDEX: u32 = 1;
const STUDY_DIR_BY_VALUE: u32 = 2;
const STUDY_TID_BATCH: u32 = 3;

/// The case file's writer (csrc/emu/hl_emu.c reads it): little-endian, as both targets are.
#[derive(Default)]
struct CaseFile(Vec<u8>);

impl CaseFile {
    fn new(study: u32, keytype: u32) -> CaseFile {
        let mut f = CaseFile(b"HLCASE1\0".to_vec());
        f.u32(study);
        f.u32(keytype);
        f
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn tid(&mut self, t: ItemPointer) {
        for h in [t.bi_hi, t.bi_lo, t.ip_posid] {
            self.0.extend_from_slice(&h.to_le_bytes());
        }
    }
    fn key(&mut self, k: &ScanKey) {
        self.0.extend_from_slice(&k.sk_flags.to_le_bytes());
        self.0.extend_from_slice(&k.sk_attno.to_le_bytes());
        self.0.extend_from_slice(&k.sk_strategy.to_le_bytes());
        self.0.extend_from_slice(&k.sk_argument.to_le_bytes());
    }
    /// Every leaf of `rel`, with its block number.
    fn leaves(&mut self, rel: &BTree) {
        self.u32(rel.leaves.len() as u32);
        for (i, p) in rel.leaves.iter().enumerate() {
            self.u32(BTree::leaf_block(i));
            self.0.extend_from_slice(&p.0);
        }
    }
}

/// The canonical (x86, linked) C rows of a study, by the registry.
fn c_rows(name: &str) -> Vec<&'static Variant> {
    study::study(name).unwrap().info().variants.iter().filter(|v| v.is_c() && v.config == CANONICAL).collect()
}

fn kernel_entry(v: &Variant) -> Entry {
    ckernels::kernel(v.base_id(), CANONICAL).unwrap_or_else(|e| panic!("{}: {e:#}", v.id)).entry
}

/// local-index: the study's case rebuilt from its public parts; checked against the study's
/// own build, row by row.
fn local_index_case(case: &str) -> (CaseFile, Vec<(String, u64)>) {
    let rows = c_rows("local-index");
    let mut c = ScanCase::new(table3_col0_index(local_index::rows_at(Size::Test)));
    if case == "table3-bitmap" {
        c.into_bitmap = Some(DEFAULT_WORK_MEM_BYTES);
    }
    let info = study::study("local-index").unwrap();
    let mut built = info.build(info.info().case(case).unwrap(), Size::Test).unwrap();
    let mut x86 = vec![];
    for v in &rows {
        let Entry::LocalIndex(f) = kernel_entry(v) else { panic!("{} is not a local-index kernel", v.id) };
        let mine = c.outcome_with(&LocalKernel::C(f)).unwrap().value();
        let theirs = built.run(v).unwrap();
        assert_eq!(mine, theirs, "{} on {case}: the test's rebuild of the case is stale (its digest differs from the study's)", v.id);
        x86.push((v.short().to_string(), theirs));
    }
    let mut f = CaseFile::new(STUDY_LOCAL_INDEX, c.rel().key as u32);
    f.u32(BTree::leaf_block(0));
    f.i64(c.into_bitmap.map_or(0, |b| b as i64));
    f.leaves(c.rel());
    (f, x86)
}

/// dir-by-value: the study's case parameters at test size (src/study/dir_by_value.rs), checked
/// against its own build.
fn dir_by_value_case(case: &str) -> (CaseFile, Vec<(String, u64)>) {
    let (accounts, n2k, n15k) = (40_000u64, 4usize, 2usize);
    assert!(accounts < 10 * PGBENCH_ROWS_PER_SCALE);
    let (len, count, min_keys) = match case {
        "range-2000/0-keys" => (2_000u64, n2k, 0),
        "range-2000/1-key" => (2_000, n2k, 1),
        "range-15000/0-keys" => (15_000, n15k, 0),
        "range-15000/1-key" => (15_000, n15k, 1),
        other => panic!("dir-by-value case {other} is new here: add it"),
    };
    let rel = std::sync::Arc::new(pgbench_accounts_pkey(accounts));
    let ranges = pgbench_ranges(accounts, len, count, 0x5EED_0001 ^ len);
    let mut c = RangeCase::new(rel.clone(), accounts, len, ranges.clone(), min_keys);
    let info = study::study("dir-by-value").unwrap();
    let mut built = info.build(info.info().case(case).unwrap(), Size::Test).unwrap();
    let mut x86 = vec![];
    for v in c_rows("dir-by-value") {
        let Entry::DirByValue(f) = kernel_entry(v) else { panic!("{} is not a dir-by-value kernel", v.id) };
        let mine = c.outcome_with(&ReadPage::C(f)).value();
        let theirs = built.run(v).unwrap();
        assert_eq!(mine, theirs, "{} on {case}: the test's rebuild of the case is stale (its digest differs from the study's)", v.id);
        x86.push((v.short().to_string(), theirs));
    }
    let mut f = CaseFile::new(STUDY_DIR_BY_VALUE, rel.key as u32);
    f.u32(min_keys as u32);
    f.leaves(&rel);
    f.u32(ranges.len() as u32);
    for &(lo, hi) in &ranges {
        f.key(&ScanKey::ge(lo));
        f.key(&ScanKey::le(hi));
        let (leaf, off) = rel.first_leaf_ge(lo).map_or((u32::MAX, 0), |(l, o)| (l as u32, o as u32));
        f.u32(leaf);
        f.u32(off);
    }
    (f, x86)
}

thread_local! {
    /// The leaf spans the recorder saw: per primitive scan, (itemIndex, lastItem, TIDs).
    static SPANS: RefCell<Vec<Vec<(i32, i32, Vec<ItemPointer>)>>> = const { RefCell::new(Vec::new()) };
}

/// A tid-batch "kernel" that steps the study's B-tree scan through the very Rust callees the C
/// kernels call, in their order (first; steppage until the scan's end; the next primitive
/// scan), and records what each step leaves in currPos for the kernel to copy.
///
/// # Safety
/// As a tid-batch C kernel: `scan` and `bs` are the case's live, reset scan.
unsafe extern "C" fn record_tid_batch(scan: *mut IndexScanDesc, bs: *mut c_void, _tbm: *mut c_void) -> i64 {
    let mut prims = vec![];
    let mut n = 0i64;
    // SAFETY: the callees are given the scan `Scan::run_c` hands a C kernel; `so` is its opaque.
    unsafe {
        let so = (*scan).opaque;
        loop {
            let mut spans = vec![];
            if !ckernels::hl_tb_bt_first(bs).is_null() {
                loop {
                    let pos = &(*so).curr_pos;
                    let (ii, li) = (pos.item_index, pos.last_item);
                    let tids: Vec<ItemPointer> = pos.items[ii as usize..=li as usize].iter().map(|it| it.heap_tid).collect();
                    n += tids.len() as i64;
                    spans.push((ii, li, tids));
                    // What both kernels leave behind before stepping.
                    (*so).curr_pos.item_index = li + 1;
                    if !ckernels::hl_tb_bt_steppage(bs) {
                        break;
                    }
                }
            }
            prims.push(spans);
            if !ckernels::hl_tb_bt_start_prim_scan(bs) {
                break;
            }
        }
    }
    SPANS.with(|s| *s.borrow_mut() = prims);
    n
}

/// tid-batch: the study's own case; its scan's delivery recorded, its rows' digests taken.
fn tid_batch_case(case: &str) -> (CaseFile, Vec<(String, u64)>) {
    let spec = tid_batch::info().case(case).unwrap();
    let mut c = tid_batch::case_at_rows(spec, tid_batch::rows_at(Size::Test)).unwrap();
    let mut x86 = vec![];
    for v in c_rows("tid-batch") {
        x86.push((v.short().to_string(), c.run(v).unwrap()));
    }
    c.value_with(&TidKernel::C(record_tid_batch, CANONICAL), "recorder").unwrap();
    let prims = SPANS.with(|s| std::mem::take(&mut *s.borrow_mut()));
    assert!(!prims.is_empty() && prims.iter().any(|p| !p.is_empty()), "{case}: the recorder saw no leaf");
    let mut f = CaseFile::new(STUDY_TID_BATCH, 1);
    f.i64(c.work_mem() as i64);
    f.u32(prims.len() as u32);
    for p in &prims {
        f.u32(p.len() as u32);
        for (ii, li, tids) in p {
            f.u32(*ii as u32);
            f.u32(*li as u32);
            for &t in tids {
                f.tid(t);
            }
        }
    }
    (f, x86)
}

/// Run an emulated test program (`runner` = qemu-aarch64 for an AArch64 one) on `file`.
fn run_program(runner: Option<&str>, exe: &str, file: &Path, variants: &[String]) -> Vec<(String, u64)> {
    let mut cmd = match runner {
        Some(r) => {
            let mut c = Command::new(r);
            c.arg(exe);
            c
        }
        None => Command::new(exe),
    };
    let o = cmd.arg(file).args(variants).output().unwrap_or_else(|e| panic!("running {exe}: {e}"));
    assert!(o.status.success(), "{exe} {}: {}", file.display(), String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (v, d) = l.split_once(' ').unwrap_or_else(|| panic!("{exe}: bad line `{l}`"));
            (v.to_string(), u64::from_str_radix(d.trim(), 16).unwrap_or_else(|e| panic!("{exe}: `{l}`: {e}")))
        })
        .collect()
}

/// qemu-aarch64 if installed (Debian's qemu-user, or qemu-user-static's name).
fn qemu() -> Option<&'static str> {
    ["qemu-aarch64", "qemu-aarch64-static"].into_iter().find(|q| Command::new(q).arg("--version").output().is_ok_and(|o| o.status.success()))
}

#[test]
fn arm64_kernels_under_qemu_give_the_x86_digests() {
    let native = ckernels::emu_program(CANONICAL);
    let arm = ckernels::emu_program(ARM64);
    let qemu = qemu();
    if native.is_none() {
        panic!("build.rs built no host emulated test program: {}", ckernels::config(CANONICAL).unwrap().note);
    }
    let arm_why = match (arm, qemu) {
        (None, _) => Some(format!("skipped the arm64 runs: {}", ckernels::config(ARM64).unwrap().note)),
        (Some(_), None) => Some("skipped the arm64 runs: qemu-aarch64 not found (apt-get install qemu-user)".to_string()),
        _ => None,
    };
    if let Some(w) = &arm_why {
        eprintln!("note: {w}");
    }
    let dir = tempfile::Builder::new().prefix("hotloops-emu-").tempdir().unwrap();
    let mut cases: Vec<(&str, &str)> = vec![];
    // table3-server reads its leaves through the crate's buffer manager, which the emulated
    // program does not have; its kernels are the same as table3-bitmap's.
    for c in local_index::info().cases.iter().filter(|c| c.id != "table3-server") {
        cases.push(("local-index", c.id));
    }
    for c in hotloops::study::dir_by_value::info().cases {
        cases.push(("dir-by-value", c.id));
    }
    for c in BTREE_CASES {
        cases.push(("tid-batch", c));
    }
    let mut compared: std::collections::BTreeSet<String> = Default::default();
    for (s, case) in cases {
        let (file, x86) = match s {
            "local-index" => local_index_case(case),
            "dir-by-value" => dir_by_value_case(case),
            _ => tid_batch_case(case),
        };
        let path = dir.path().join(format!("{}-{}.case", s, case.replace('/', "_")));
        std::fs::write(&path, &file.0).unwrap();
        let variants: Vec<String> = x86.iter().map(|(v, _)| v.clone()).collect();
        let host = run_program(None, native.unwrap().0, &path, &variants);
        assert_eq!(host, x86, "{s}/{case}: the host build of the emulated program disagrees with the Rust harness");
        if arm_why.is_none() {
            let a = run_program(qemu, arm.unwrap().0, &path, &variants);
            for ((v, x), (av, ad)) in x86.iter().zip(&a) {
                eprintln!("{s}/{v}@{ARM64} on {case}: qemu-aarch64 {ad:016x}, x86-64 {x:016x}");
                assert_eq!((v, x), (av, ad), "{s}/{v} on {case}: the arm64 build's digest differs from the x86 one");
            }
            assert_eq!(a.len(), x86.len());
            compared.extend(a.iter().map(|(v, _)| format!("{s}/{v}@{ARM64}")));
        }
    }
    if arm_why.is_none() {
        // Every arm64 kernel ran on at least one case.
        let all: std::collections::BTreeSet<String> = ckernels::cross_kernels().iter().filter(|k| k.config == ARM64).map(|k| k.row_id()).collect();
        assert_eq!(compared, all);
    }
    dir.close().unwrap();
}

/// The driver is the one under test too: a kernel name it lacks or a study mismatch is an
/// error, not a silent digest.
#[test]
fn the_emulated_program_refuses_a_kernel_of_another_study() {
    let Some((exe, _)) = ckernels::emu_program(CANONICAL) else { panic!("no host emulated program") };
    let dir = tempfile::Builder::new().prefix("hotloops-emu-").tempdir().unwrap();
    let (file, _) = tid_batch_case("btree-few");
    let path = dir.path().join("few.case");
    std::fs::write(&path, &file.0).unwrap();
    let o = Command::new(exe).arg(&path).arg("c-store-each").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("c-store-each"));
    let o = Command::new(exe).arg(dir.path().join("missing.case")).arg("c-per-tid").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}
