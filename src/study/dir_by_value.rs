//! # Study `dir-by-value`: `_bt_checkkeys` reads the scan direction through `scan->opaque`
//!
//! **Seed 001** (Peter Geoghegan, commit 83a26ba59b "Avoid pointer chasing in _bt_readpage
//! inner loop", reference §3.3): PG18's `_bt_checkkeys` read the direction as
//! `so = scan->opaque; dir = so->currPos.dir` on every tuple, `mov rax,[rdi+0x38]; mov
//! r15d,[rax+0x70]`: a dependent load before anything else can use it. Carrying `dir` in
//! `BTReadPageState` (its first field) and reading it from the `pstate` pointer the caller
//! passes removes one link. Reported: **over 5% TPS** on a pgbench `aid BETWEEN` range scan,
//! **up to 5.5%** at 15,000 tuples a range (2,000 initially), **under 1%** on index-only scans,
//! on a Zen 3 (Ryzen 9 5950X); a reviewer on a busy VM saw about 1%. Those range scans make
//! maximum use of `_bt_set_startikey`: most pages need **0 keys** evaluated per tuple, so the
//! direction is loaded and never used.
//!
//! The loop: a `_bt_readpage`-style forward pass over one 8 KiB leaf page (line pointer, then
//! tuple) that calls a `_bt_checkkeys`-style function per tuple, kept out of line as in
//! PostgreSQL, which calls the shared `_bt_check_compare` ([`hl_bt_check_compare`]) with
//! `dir` by value: because that call passes `dir` as an argument, the direction is loaded on
//! every tuple whether or not a key is evaluated, which is what gcc's entry-block load in the
//! seed's disassembly does. Matching tuples are saved into `currPos.items`; the high key
//! decides whether the scan moves right.
//!
//! Variants (unmangled `hotloops_dir_by_value_*`; the readpage loop is the entry, its
//! `_checkkeys` helper is snapshotted with it):
//! - `dir-by-value/opaque` (baseline, PG18): `_bt_checkkeys` loads `scan->opaque` (offset
//!   0x38) then `so->currPos.dir` (offset 0x70) on every tuple.
//! - `dir-by-value/by-value` (83a26ba59b): `_bt_checkkeys` reads `pstate->dir`, one load from a
//!   pointer already in a register.
//!
//! C rows (`csrc/nbtsearch_checkkeys.c`: `_bt_readpage` -> `_bt_checkkeys` ->
//! `_bt_check_compare`, each configuration's `@<config>` row beside the canonical one):
//! `c-opaque`, `c-by-value`. **What they showed**: gcc 12 with Debian's flags emits the
//! seed's dependent load (`mov rax, [rdi + 56]; mov eax, [rax + 112]`) in `_bt_checkkeys`,
//! and by-value removes it, one instruction a tuple under every configuration; Debian's
//! `-fstack-protector-strong` puts a canary into that per-tuple function (its `ikey` has its
//! address taken), absent under PostgreSQL's own flags, and the flag set moves the per-tuple
//! count by more than the patch does. Figures in `analysis/*/ckernels.md`.
//!
//! Cases: pgbench_accounts_pkey, ranges of 2,000 and 15,000 tuples, each with the page-level
//! check leaving **0 keys** per tuple (seed 001's case) and with **1 key** left on every page
//! (the upper bound evaluated per tuple, as on a scan's final page).

use crate::pg::nbtree::{
    BTReadPageState, BTScanOpaque, BTScanPos, BTScanPosItem, BTree, IndexScanDesc, KeyType,
    SK_BT_REQBKWD, SK_BT_REQFWD, ScanDirection, ScanKey, tuple_key, tuple_tid,
};
use crate::pg::page::Page;
use crate::pg::sink::TidDigest;
use crate::pg::workload::{PGBENCH_ROWS_PER_SCALE, pgbench_accounts_pkey, pgbench_ranges};
use crate::pg::{ItemPointer, OffsetNumber};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};

/// The registry entry.
pub static STUDY: DirByValue = DirByValue;

/// Study `dir-by-value`.
pub struct DirByValue;

static INFO: StudyInfo = StudyInfo {
    name: "dir-by-value",
    seed: "seed 001 (Peter Geoghegan, 83a26ba59b)",
    claim: "_bt_checkkeys chasing scan->opaque->currPos.dir on every tuple costs a dependent \
            load; passing the direction by value in BTReadPageState removes it",
    seed_numbers: ">5% TPS on pgbench range scans (up to 5.5% at 15,000 tuples), <1% on \
                   index-only scans; Zen 3",
    feature: "dir-by-value",
    feature_on: cfg!(feature = "dir-by-value"),
    baseline: "dir-by-value/opaque",
    patched: "dir-by-value/by-value",
    unit: "tuple",
    c_kernels: "gcc 12 with Debian's flags emits the seed's dependent load in _bt_checkkeys \
                (mov rax,[rdi+56]; mov eax,[rax+112]) and by-value removes it, one instruction \
                a tuple under every configuration; Debian's -fstack-protector-strong adds a \
                canary to that per-tuple call (ikey has its address taken), and the flag set \
                moves the per-tuple count by more than the patch does",
    heap_history_matters: false,
    variants: &[
        Variant::new(
            "dir-by-value/opaque",
            "per tuple: dir = scan->opaque->currPos.dir (two dependent loads)",
            "hotloops_dir_by_value_opaque",
            &ReadPage::Rust(hotloops_dir_by_value_opaque),
        )
        .helpers(&["hl_dir_by_value_opaque_checkkeys", "hl_bt_check_compare"]),
        Variant::new(
            "dir-by-value/by-value",
            "per tuple: dir = pstate->dir (one load from the caller's pointer)",
            "hotloops_dir_by_value_by_value",
            &ReadPage::Rust(hotloops_dir_by_value_by_value),
        )
        .helpers(&["hl_dir_by_value_by_value_checkkeys", "hl_bt_check_compare"]),
        Variant::c(
            "dir-by-value/c-opaque",
            "opaque in C, gcc 12 with Debian PostgreSQL 15's flags: scan->opaque then currPos.dir per tuple, and the stack-protector canary",
            "gcc12-pg",
            "hotloops_dir_by_value_c_opaque__gcc12_pg",
            &ReadPage::C(crate::ckernels::hlc_gcc12_pg::dv_opaque),
        )
        .helpers(&["hl_dir_by_value_c_opaque_checkkeys__gcc12_pg", "hl_bt_check_compare__gcc12_pg"]),
        Variant::c(
            "dir-by-value/c-by-value",
            "by-value in C, gcc 12 with Debian PostgreSQL 15's flags: pstate->dir per tuple",
            "gcc12-pg",
            "hotloops_dir_by_value_c_by_value__gcc12_pg",
            &ReadPage::C(crate::ckernels::hlc_gcc12_pg::dv_by_value),
        )
        .helpers(&["hl_dir_by_value_c_by_value_checkkeys__gcc12_pg", "hl_bt_check_compare__gcc12_pg"]),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "dir-by-value/c-opaque@gcc12-upstream",
            "opaque in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_dir_by_value_c_opaque__gcc12_upstream",
            &ReadPage::C(crate::ckernels::hlc_gcc12_upstream::dv_opaque),
        )
        .helpers(&["hl_dir_by_value_c_opaque_checkkeys__gcc12_upstream", "hl_bt_check_compare__gcc12_upstream"]),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "dir-by-value/c-by-value@gcc12-upstream",
            "by-value in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_dir_by_value_c_by_value__gcc12_upstream",
            &ReadPage::C(crate::ckernels::hlc_gcc12_upstream::dv_by_value),
        )
        .helpers(&["hl_dir_by_value_c_by_value_checkkeys__gcc12_upstream", "hl_bt_check_compare__gcc12_upstream"]),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "dir-by-value/c-opaque@gcc12-strict",
            "opaque in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_dir_by_value_c_opaque__gcc12_strict",
            &ReadPage::C(crate::ckernels::hlc_gcc12_strict::dv_opaque),
        )
        .helpers(&["hl_dir_by_value_c_opaque_checkkeys__gcc12_strict", "hl_bt_check_compare__gcc12_strict"]),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "dir-by-value/c-by-value@gcc12-strict",
            "by-value in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_dir_by_value_c_by_value__gcc12_strict",
            &ReadPage::C(crate::ckernels::hlc_gcc12_strict::dv_by_value),
        )
        .helpers(&["hl_dir_by_value_c_by_value_checkkeys__gcc12_strict", "hl_bt_check_compare__gcc12_strict"]),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "dir-by-value/c-opaque@clang19-pg",
            "opaque in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_dir_by_value_c_opaque__clang19_pg",
            &ReadPage::C(crate::ckernels::hlc_clang19_pg::dv_opaque),
        )
        .helpers(&["hl_dir_by_value_c_opaque_checkkeys__clang19_pg", "hl_bt_check_compare__clang19_pg"]),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "dir-by-value/c-by-value@clang19-pg",
            "by-value in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_dir_by_value_c_by_value__clang19_pg",
            &ReadPage::C(crate::ckernels::hlc_clang19_pg::dv_by_value),
        )
        .helpers(&["hl_dir_by_value_c_by_value_checkkeys__clang19_pg", "hl_bt_check_compare__clang19_pg"]),
    ],
    cases: &[
        CaseSpec { id: "range-2000/0-keys", summary: "pgbench range scans of 2,000 tuples; the page-level check leaves 0 keys a tuple" },
        CaseSpec { id: "range-2000/1-key", summary: "pgbench range scans of 2,000 tuples; 1 key evaluated on every tuple" },
        CaseSpec { id: "range-15000/0-keys", summary: "pgbench range scans of 15,000 tuples (seed 001's case); 0 keys a tuple" },
        CaseSpec { id: "range-15000/1-key", summary: "pgbench range scans of 15,000 tuples; 1 key evaluated on every tuple" },
    ],
};

impl Study for DirByValue {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> anyhow::Result<Box<dyn Case>> {
        Ok(Box::new(range_case(case, size)?))
    }
}

/// Case `case` at `size` as its own type (what [`Study::build`] boxes).
pub fn range_case(case: &'static CaseSpec, size: Size) -> anyhow::Result<RangeCase> {
    // (accounts, range scans of 2,000, range scans of 15,000): about 0.4M tuples a case
    // at quick size; the index (1M accounts = 2,733 leaves, 22 MiB) exceeds L2 as a
    // pgbench database at scale 10 does.
    let (accounts, n2k, n15k) = match size {
        Size::Test => (40_000, 4, 2),
        Size::Quick => (10 * PGBENCH_ROWS_PER_SCALE, 200, 27),
        Size::Full => (100 * PGBENCH_ROWS_PER_SCALE, 1_000, 133),
    };
    let (len, count, min_keys) = match case.id {
        "range-2000/0-keys" => (2_000u64, n2k, 0),
        "range-2000/1-key" => (2_000, n2k, 1),
        "range-15000/0-keys" => (15_000, n15k, 0),
        "range-15000/1-key" => (15_000, n15k, 1),
        other => anyhow::bail!("dir-by-value has no case `{other}`"),
    };
    let rel = std::sync::Arc::new(pgbench_accounts_pkey(accounts));
    let ranges = pgbench_ranges(accounts, len, count, 0x5EED_0001 ^ len);
    Ok(RangeCase::new(rel, accounts, len, ranges, min_keys))
}

/// `_bt_check_compare`: evaluate keys `*ikey..numberOfKeys` on `tuple`, clearing
/// `*continuescan` when a key required in direction `dir` fails. Shared by both variants and
/// kept out of line (as gcc keeps it for `_bt_checkkeys`'s several call sites), so `dir`
/// is materialised by the caller on every tuple.
///
/// # Safety
/// `scan` must be a valid scan whose `opaque` holds `numberOfKeys` keys at `keyData`;
/// `tuple` must point to a whole index tuple of the index's key type.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_bt_check_compare(
    scan: *const IndexScanDesc,
    dir: ScanDirection,
    tuple: *const u8,
    continuescan: *mut bool,
    ikey: *mut i32,
) -> bool {
    unsafe {
        let so = (*scan).opaque;
        while *ikey < (*so).number_of_keys {
            let key = &*(*so).key_data.add(*ikey as usize);
            let value = tuple_key((*(*scan).index_relation).key, tuple);
            if !key.satisfied_by(value) {
                if (key.sk_flags & SK_BT_REQFWD != 0 && dir.is_forward())
                    || (key.sk_flags & SK_BT_REQBKWD != 0 && dir.is_backward())
                {
                    *continuescan = false;
                }
                return false;
            }
            *ikey += 1;
        }
        true
    }
}

/// `_bt_checkkeys`' local `int ikey`, whose address `_bt_check_compare` takes, in a 16-byte
/// aligned slot: so that LLVM allocates the helper's frame with `sub rsp, 24` / `add rsp, 24`,
/// as gcc does PostgreSQL's (`sub rsp, 16` ... `add rsp, 16`), and not with the 8-byte `push
/// rax` / `pop rcx` it uses for a frame of one slot. That `pop rcx` reloaded 8 bytes written by
/// two stores (the push and the 4-byte `ikey`), a reload store forwarding cannot serve, on every
/// tuple, an artefact of the Rust model that no PostgreSQL build has (figures in
/// analysis/static-model-check.md).
#[repr(C, align(16))]
struct IKey(i32);

/// `_bt_checkkeys` as in PG18: the direction read through the scan's opaque pointer.
///
/// # Safety
/// As [`hl_bt_check_compare`]; `pstate` must be valid.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_dir_by_value_opaque_checkkeys(
    scan: *const IndexScanDesc,
    pstate: *mut BTReadPageState,
    tuple: *const u8,
) -> bool {
    unsafe {
        let so = (*scan).opaque;
        let dir = (*so).curr_pos.dir;
        let mut ikey = IKey((*pstate).startikey);
        hl_bt_check_compare(scan, dir, tuple, &raw mut (*pstate).continuescan, &raw mut ikey.0)
    }
}

/// `_bt_checkkeys` after 83a26ba59b: the direction read from `pstate`.
///
/// # Safety
/// As [`hl_dir_by_value_opaque_checkkeys`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_dir_by_value_by_value_checkkeys(
    scan: *const IndexScanDesc,
    pstate: *mut BTReadPageState,
    tuple: *const u8,
) -> bool {
    unsafe {
        let dir = (*pstate).dir;
        let mut ikey = IKey((*pstate).startikey);
        hl_bt_check_compare(scan, dir, tuple, &raw mut (*pstate).continuescan, &raw mut ikey.0)
    }
}

type CheckKeys = unsafe fn(*const IndexScanDesc, *mut BTReadPageState, *const u8) -> bool;

/// `_bt_set_startikey`: the first key that the page's first or last data tuple fails; keys
/// before it hold for every tuple on the page, which is sorted.
///
/// # Safety
/// `so` must be valid and `page` a leaf of type `key` with `minoff <= maxoff`.
#[inline(always)]
unsafe fn set_startikey(so: *const BTScanOpaque, key: KeyType, page: *const Page, minoff: OffsetNumber, maxoff: OffsetNumber) -> i32 {
    unsafe {
        let first = tuple_key(key, Page::item_ptr(page, minoff));
        let last = tuple_key(key, Page::item_ptr(page, maxoff));
        let mut ikey = 0;
        while ikey < (*so).number_of_keys {
            let k = &*(*so).key_data.add(ikey as usize);
            if !(k.satisfied_by(first) && k.satisfied_by(last)) {
                break;
            }
            ikey += 1;
        }
        ikey
    }
}

/// `_bt_readpage`, forward: save the tuples of `page` from `offnum` that pass the keys into
/// `currPos.items`, stop when a required key fails, then check the high key to decide
/// `moreRight`. `min_keys` keeps at least that many keys for per-tuple evaluation (the case's
/// 0-key / 1-key switch). Returns true if any tuple was saved.
///
/// # Safety
/// `scan` must be valid with `opaque` and `index_relation` set; `page` one of its leaves.
#[inline(always)]
unsafe fn readpage(
    scan: *mut IndexScanDesc,
    page: *const Page,
    offnum: OffsetNumber,
    firstpage: bool,
    min_keys: i32,
    checkkeys: CheckKeys,
) -> bool {
    unsafe {
        let so = (*scan).opaque;
        let key = (*(*scan).index_relation).key;
        let dir = ScanDirection::Forward;
        let hikey = BTree::opaque(&*page).next != 0;
        let minoff = if hikey { 2 } else { 1 };
        let maxoff = (*page).max_offset();
        // _bt_readpage sets both copies of the direction in one statement.
        (*so).curr_pos.dir = dir;
        let mut pstate = BTReadPageState {
            dir,
            minoff,
            maxoff,
            finaltup: std::ptr::null(),
            page,
            firstpage,
            forcenonrequired: false,
            startikey: 0,
            offnum,
            skip: 0,
            continuescan: true,
            rechecks: 0,
            targetdistance: 0,
            nskipadvances: 0,
        };
        if !firstpage && minoff < maxoff {
            let cap = ((*so).number_of_keys - min_keys).max(0);
            pstate.startikey = set_startikey(so, key, page, minoff, maxoff).min(cap);
        }
        let items = (&raw mut (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut item_index = 0usize;
        let mut off = offnum.max(minoff);
        while off <= maxoff {
            let itup = Page::item_ptr(page, off);
            pstate.offnum = off;
            let passes = checkkeys(scan, &mut pstate, itup);
            if passes {
                *items.add(item_index) = BTScanPosItem { heap_tid: tuple_tid(itup), index_offset: off, tuple_offset: 0 };
                item_index += 1;
            }
            if !pstate.continuescan {
                break;
            }
            off += 1;
        }
        // The high key (finaltup) decides whether the next page can hold matches.
        if pstate.continuescan && hikey {
            pstate.startikey = 0;
            checkkeys(scan, &mut pstate, Page::item_ptr(page, 1));
        }
        (*so).curr_pos.more_right = pstate.continuescan && hikey;
        (*so).curr_pos.first_item = 0;
        (*so).curr_pos.last_item = item_index as i32 - 1;
        (*so).curr_pos.item_index = 0;
        item_index > 0
    }
}

/// `dir-by-value/opaque`: `_bt_readpage` with PG18's `_bt_checkkeys`.
///
/// # Safety
/// As [`readpage`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_dir_by_value_opaque(scan: *mut IndexScanDesc, page: *const Page, offnum: OffsetNumber, firstpage: bool, min_keys: i32) -> bool {
    unsafe { readpage(scan, page, offnum, firstpage, min_keys, hl_dir_by_value_opaque_checkkeys) }
}

/// `dir-by-value/by-value`: `_bt_readpage` with 83a26ba59b's `_bt_checkkeys`.
///
/// # Safety
/// As [`readpage`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_dir_by_value_by_value(scan: *mut IndexScanDesc, page: *const Page, offnum: OffsetNumber, firstpage: bool, min_keys: i32) -> bool {
    unsafe { readpage(scan, page, offnum, firstpage, min_keys, hl_dir_by_value_by_value_checkkeys) }
}

/// A dir-by-value kernel: `_bt_readpage` over one leaf, `(scan, page, offnum, firstpage,
/// min_keys)`, in Rust or in C (`csrc/nbtsearch_checkkeys.c`).
pub enum ReadPage {
    /// A Rust kernel of this file.
    Rust(unsafe fn(*mut IndexScanDesc, *const Page, OffsetNumber, bool, i32) -> bool),
    /// A C kernel.
    C(crate::ckernels::DirByValueFn),
}

impl Kernel for ReadPage {
    fn entry(&self) -> usize {
        match self {
            ReadPage::Rust(f) => *f as usize,
            ReadPage::C(f) => *f as usize,
        }
    }
}

/// A batch of pgbench range scans `aid BETWEEN lo AND hi` over one index.
pub struct RangeCase {
    rel: std::sync::Arc<BTree>,
    accounts: u64,
    len: u64,
    ranges: Vec<(i64, i64)>,
    min_keys: i32,
    so: Box<BTScanOpaque>,
    keys: Box<[ScanKey]>,
    scan: Box<IndexScanDesc>,
    tuples: u64,
}

/// What one variant returned over a case: every saved item, per page, and the final cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeOutcome {
    /// Digest of the saved heap TIDs in order.
    pub digest: TidDigest,
    /// Pages read.
    pub pages: u64,
    /// Final `currPos.lastItem` and `moreRight` of the last page of the last range.
    pub last: (i32, bool),
}

impl RangeOutcome {
    /// The case's digest of this outcome (what `Case::run` returns).
    pub fn value(&self) -> u64 {
        self.digest.value() ^ self.pages.rotate_left(17) ^ ((self.last.0 as u64) << 32) ^ self.last.1 as u64
    }
}

impl RangeCase {
    /// Range scans of `len` tuples at `ranges` over `rel`.
    pub fn new(rel: std::sync::Arc<BTree>, accounts: u64, len: u64, ranges: Vec<(i64, i64)>, min_keys: i32) -> Self {
        let (so, keys) = BTScanOpaque::new_boxed(&[ScanKey::ge(0), ScanKey::le(0)]);
        let mut c = RangeCase {
            scan: IndexScanDesc::new(&rel, &keys),
            rel,
            accounts,
            len,
            ranges,
            min_keys,
            so,
            keys,
            tuples: 0,
        };
        c.scan.opaque = &mut *c.so;
        // Counted from the index, not by running a kernel: building a case must not enter a
        // kernel, or callgrind's toggle on its symbol would count the build.
        c.tuples = c.ranges.iter().map(|&(lo, hi)| c.rel.count_between(lo, hi)).sum();
        c
    }

    /// Run variant `v` over every range.
    pub fn outcome(&mut self, v: &'static Variant) -> anyhow::Result<RangeOutcome> {
        Ok(self.outcome_with(v.spec::<ReadPage>()?))
    }

    /// Run `kernel` over every range: what [`RangeCase::outcome`] runs for a row, open to a
    /// kernel that is no row (a C kernel under another configuration).
    pub fn outcome_with(&mut self, kernel: &ReadPage) -> RangeOutcome {
        let mut digest = TidDigest::new();
        let pages = self.scan(kernel, |pos| {
            for it in pos.saved() {
                digest.push(it.heap_tid, false);
            }
        });
        RangeOutcome { digest, pages, last: (self.so.curr_pos.last_item, self.so.curr_pos.more_right) }
    }

    /// Run `kernel` over every range with nothing done with the saved items: the kernel's own
    /// work (what `hotloops model` times per tuple beside its loop). Returns the final
    /// `currPos.lastItem` and the pages read.
    pub fn kernel_only(&mut self, kernel: &ReadPage) -> (i32, u64) {
        let pages = self.scan(kernel, |_| {});
        (self.so.curr_pos.last_item, pages)
    }

    /// The scan both run: every range, page by page, `on_page` after each page. Returns the
    /// pages read.
    fn scan(&mut self, kernel: &ReadPage, mut on_page: impl FnMut(&BTScanPos)) -> u64 {
        let mut pages = 0u64;
        for i in 0..self.ranges.len() {
            let (lo, hi) = self.ranges[i];
            self.keys[0] = ScanKey::ge(lo);
            self.keys[1] = ScanKey::le(hi);
            self.so.key_data = self.keys.as_ptr();
            self.so.curr_pos = BTScanPos::invalid();
            let Some((mut leaf, mut off)) = self.rel.first_leaf_ge(lo) else { continue };
            let mut firstpage = true;
            loop {
                let page: *const Page = &*self.rel.leaves[leaf];
                // SAFETY: scan points at self.so and self.rel; page is one of rel's leaves.
                unsafe {
                    match kernel {
                        ReadPage::Rust(f) => f(&mut *self.scan, page, off, firstpage, self.min_keys),
                        ReadPage::C(f) => f(&mut *self.scan, page, off, firstpage, self.min_keys),
                    }
                };
                pages += 1;
                on_page(&self.so.curr_pos);
                if !self.so.curr_pos.more_right || leaf + 1 == self.rel.leaves.len() {
                    break;
                }
                leaf += 1;
                off = 1;
                firstpage = false;
            }
        }
        pages
    }
}

impl Case for RangeCase {
    fn describe(&self) -> String {
        format!(
            "pgbench_accounts_pkey over {} accounts ({} leaves); {} range scans `aid BETWEEN :aid \
             AND :aid+{}`; {} key(s) left per tuple after _bt_set_startikey",
            self.accounts,
            self.rel.leaves.len(),
            self.ranges.len(),
            self.len - 1,
            self.min_keys
        )
    }

    fn items(&self) -> u64 {
        self.tuples
    }

    fn run(&mut self, v: &'static Variant) -> anyhow::Result<u64> {
        Ok(self.outcome(v)?.value())
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        // Seed 001: ">5% TPS" on range scans, "up to 5.5% at 15,000 tuples": time is 1/TPS.
        let tps = if self.len >= 15_000 { 1.055 } else { 1.05 };
        (v.id == INFO.patched || v.id == "dir-by-value/c-by-value").then_some(1.0 / tps)
    }
}

/// Helper for tests: the heap TIDs a range returns, from the index directly.
pub fn expected_range(rel: &BTree, lo: i64, hi: i64) -> Vec<ItemPointer> {
    let mut out = vec![];
    for page in &rel.leaves {
        let first = BTree::first_data_key(page);
        for off in first..=page.max_offset() {
            let t = unsafe { Page::item_ptr(&**page, off) };
            let k = unsafe { tuple_key(rel.key, t) };
            if (lo..=hi).contains(&k) {
                out.push(unsafe { tuple_tid(t) });
            }
        }
    }
    out
}

/// The pipeline: every range of `case` with the variant this build selects.
pub fn pipeline(case: &mut RangeCase) -> anyhow::Result<RangeOutcome> {
    case.outcome(INFO.pipeline_variant())
}

/// The study's description and rows.
pub fn info() -> &'static StudyInfo {
    &INFO
}
