//! # Study `local-index`: the batched btgetbitmap copy loop stores `itemIndex` every iteration
//!
//! **Seed 000** (Haibo's review of the TID-batching patch v1): "The copy loop updates
//! `so->currPos.itemIndex` for every TID. Using a local index and updating itemIndex once after
//! the copy improved the 10M-row workload by another **2.24%**." The author agreed: "The
//! compiler loaded and stored itemIndex every single loop iteration instead of keeping it in a
//! register." Reference §6.2: PostgreSQL builds with `-fno-strict-aliasing`, so gcc must assume
//! the `uint16` stores that copy each `ItemPointerData` into the batch may modify the `int`
//! cursor fields of the same heap object; it reloads `itemIndex` and `lastItem` and stores
//! `itemIndex` on every iteration. A cursor held in locals stays in registers even under that
//! flag (loopC).
//!
//! The loop: copy the heap TIDs of `currPos.items[itemIndex..=lastItem]` into a batch of
//! [`BATCH_CAPACITY`] TIDs, hand a full batch to `tbm_add_tuples` (an opaque call, [`TidSink`]),
//! step to the next leaf with `_bt_next` (out of line, [`bt_steppage`]) when the page is
//! exhausted, flush the residual batch at the end.
//!
//! Variants (all `#[inline(never)]`, unmangled `hotloops_local_index_*`):
//! - `local-index/store-each` (baseline): the cursor reached through raw pointers, as C code is.
//!   Rust raw pointers carry no type-based aliasing information, which is what
//!   `-fno-strict-aliasing` does to C: LLVM must reload `itemIndex`/`lastItem` after each batch
//!   store and store `itemIndex` back each iteration.
//! - `local-index/safe-ref`: the same loop over `&mut BTScanOpaque` and a `&mut` batch, with
//!   bounds-checked indexing. `&mut` is `noalias`, so LLVM could keep the cursor in a
//!   register, but a failed bounds check panics and unwinds to a caller that can see
//!   `itemIndex`, so the store cannot be sunk out of the loop. The hypothesis was "in a
//!   register, stored every iteration". rustc 1.95 **refutes half of it** on this loop shape
//!   (asm-snapshots/local-index/safe-ref.s, structural test
//!   `safe_ref_stores_the_cursor_every_iteration`): it stores `itemIndex` every iteration *and*
//!   reloads it and `lastItem` at the loop header, because the copy loop and the page-step loop
//!   share that header (after `_bt_next` returns, the fields must be re-read); it also copies
//!   each TID through a stack slot between the two bounds checks. Its instructions per TID beside
//!   store-each's and local's are in every report (`instructions`, `own-instructions`).
//! - `local-index/local` (the patch): `itemIndex`/`lastItem` copied into locals, written back
//!   once per page.
//!
//! C rows (`csrc/nbtree_bitmap.c`, gcc 12 with Debian PostgreSQL 15's flags; `@<config>` rows
//! for PostgreSQL's own flags, `-fstrict-aliasing` and clang 19): `c-store-each` and `c-local`
//! are store-each and local in C; `c-span` is the call-free copy loop (a span is flushed
//! before it, not inside it). **What they showed** (asm snapshots, `tests/ckernels_asm.rs`):
//! the seed's explanation is half right. With the flush call inside the copy loop, v1's
//! shape, gcc keeps `itemIndex` in memory under every flag set, `-fstrict-aliasing` included:
//! the out-of-line call is the cause. Only in the call-free loop does the aliasing flag
//! decide (registers under `-fstrict-aliasing`, memory under PostgreSQL's flags), and clang
//! 19 keeps it in memory there under both. A cursor in locals is in registers everywhere.
//! The instructions and times per configuration are in `analysis/*/ckernels.md`.
//!
//! The batch capacity is not in the seed; we take one leaf page's worth,
//! `MaxTIDsPerBTreePage` = 1358 (the patch batches "saved leaf-page spans").
//!
//! Cases: `table3` (the copy loop into a digest) and `table3-bitmap` (into the TIDBitmap) read
//! the leaves from memory, with no keys and no buffer manager: the loop alone, then diluted by
//! `tbm_add_tuples`. `table3-server` runs the same kernels on the server's whole amgetbitmap:
//! `_bt_first`'s descent, shared buffers and PostgreSQL 18's `_bt_readpage` with the seed's
//! `col0 < 10000000`, reached through the page step every kernel already calls
//! (`BTree::page_step`). That case is the one held against hl_btree's `batched-store` and
//! `batched-local` function by function (`hotloops pg --instructions`); the leaf read is
//! what the model still does in fewer instructions than 18 (`analysis/*/pg/model-fidelity.md`).

use crate::pg::ItemPointer;
use crate::pg::mcxt::memory_context_switch_to;
use crate::pg::nbtscan::BtreeScan;
use crate::pg::nbtree::{
    BTScanOpaque, BTScanPos, BTScanPosItem, BTree, IndexScanDesc, MAX_TIDS_PER_BTREE_PAGE,
    bt_first_all, bt_steppage,
};
use crate::pg::sink::{TidDigest, TidSink};
use crate::pg::tidbitmap::{DEFAULT_WORK_MEM_BYTES, TidBitmap};
use crate::pg::workload::{TABLE3_ROWS, TABLE3_TUPLES_PER_PAGE, table3_col0_index};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};
use std::rc::Rc;

/// TIDs a batch holds before it is flushed to `tbm_add_tuples`.
pub const BATCH_CAPACITY: usize = MAX_TIDS_PER_BTREE_PAGE;

/// The batch buffer.
pub type TidBatch = [ItemPointer; BATCH_CAPACITY];

/// The registry entry.
pub static STUDY: LocalIndex = LocalIndex;

/// Study `local-index`.
pub struct LocalIndex;

/// How a local-index kernel is called: through raw pointers, as C is, or over references.
pub enum LocalKernel {
    /// `(scan, batch, tbm)`: the cursor reached through `scan->opaque`.
    Raw(unsafe fn(*mut IndexScanDesc, *mut ItemPointer, &mut dyn TidSink) -> i64),
    /// `(so, rel, batch, tbm)` over `&mut`, bounds-checked.
    Safe(fn(&mut BTScanOpaque, &BTree, &mut TidBatch, &mut dyn TidSink) -> i64),
    /// A C kernel of `csrc/nbtree_bitmap.c`: `(scan, batch, sink)`, the sink a `&mut dyn
    /// TidSink` behind the `tbm_add_tuples` callback.
    C(crate::ckernels::LocalIndexFn),
}

impl Kernel for LocalKernel {
    fn entry(&self) -> usize {
        match self {
            LocalKernel::Raw(f) => *f as usize,
            LocalKernel::Safe(f) => *f as usize,
            LocalKernel::C(f) => *f as usize,
        }
    }
}

static INFO: StudyInfo = StudyInfo {
    name: "local-index",
    seed: "seed 000 (Haibo's review of TID batching v1; David Geier's reply)",
    claim: "the batched btgetbitmap copy loop loads and stores so->currPos.itemIndex on every \
            iteration (-fno-strict-aliasing); a local index written back once is faster",
    seed_numbers: "+2.24% on the 10M-row bitmap index scan (one host, gcc)",
    feature: "local-index",
    feature_on: cfg!(feature = "local-index"),
    baseline: "local-index/store-each",
    patched: "local-index/local",
    unit: "TID",
    c_kernels: "half of the seed's explanation holds: with the flush call inside the copy loop \
                (v1's shape) gcc keeps itemIndex in memory under every flag set, -fstrict-aliasing \
                included, so the call, not -fno-strict-aliasing, is the cause; the aliasing flag \
                decides only in a call-free copy loop (c-span), and clang 19 keeps the cursor in \
                memory there too; a cursor in locals is in registers everywhere",
    heap_history_matters: false,
    variants: &[
        Variant::new(
            "local-index/store-each",
            "cursor through raw pointers: itemIndex/lastItem reloaded and itemIndex stored every TID (gcc on PostgreSQL)",
            "hotloops_local_index_store_each",
            &LocalKernel::Raw(hotloops_local_index_store_each),
        ),
        Variant::new(
            "local-index/safe-ref",
            "same loop over &mut with bounds checks: itemIndex reloaded at the shared loop header and stored every TID (rustc 1.95)",
            "hotloops_local_index_safe_ref",
            &LocalKernel::Safe(hotloops_local_index_safe_ref),
        ),
        Variant::new(
            "local-index/local",
            "cursor copied into locals, written back once per page (the patch)",
            "hotloops_local_index_local",
            &LocalKernel::Raw(hotloops_local_index_local),
        ),
        Variant::c(
            "local-index/c-store-each",
            "store-each in C, gcc 12 with Debian PostgreSQL 15's flags: the flush call in the loop keeps itemIndex in memory",
            "gcc12-pg",
            "hotloops_local_index_c_store_each__gcc12_pg",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_pg::li_store_each),
        ),
        Variant::c(
            "local-index/c-local",
            "local in C, gcc 12 with Debian PostgreSQL 15's flags: the cursor in registers",
            "gcc12-pg",
            "hotloops_local_index_c_local__gcc12_pg",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_pg::li_local),
        ),
        Variant::c(
            "local-index/c-span",
            "a call-free copy loop per page span, flushed after it, gcc 12 with Debian's flags: -fno-strict-aliasing keeps the cursor in memory",
            "gcc12-pg",
            "hotloops_local_index_c_span__gcc12_pg",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_pg::li_span),
        ),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "local-index/c-store-each@gcc12-upstream",
            "store-each in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_local_index_c_store_each__gcc12_upstream",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_upstream::li_store_each),
        ),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "local-index/c-local@gcc12-upstream",
            "local in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_local_index_c_local__gcc12_upstream",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_upstream::li_local),
        ),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "local-index/c-span@gcc12-upstream",
            "the call-free span copy loop in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_local_index_c_span__gcc12_upstream",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_upstream::li_span),
        ),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "local-index/c-store-each@gcc12-strict",
            "store-each in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_local_index_c_store_each__gcc12_strict",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_strict::li_store_each),
        ),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "local-index/c-local@gcc12-strict",
            "local in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_local_index_c_local__gcc12_strict",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_strict::li_local),
        ),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "local-index/c-span@gcc12-strict",
            "the call-free span copy loop in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_local_index_c_span__gcc12_strict",
            &LocalKernel::C(crate::ckernels::hlc_gcc12_strict::li_span),
        ),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "local-index/c-store-each@clang19-pg",
            "store-each in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_local_index_c_store_each__clang19_pg",
            &LocalKernel::C(crate::ckernels::hlc_clang19_pg::li_store_each),
        ),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "local-index/c-local@clang19-pg",
            "local in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_local_index_c_local__clang19_pg",
            &LocalKernel::C(crate::ckernels::hlc_clang19_pg::li_local),
        ),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "local-index/c-span@clang19-pg",
            "the call-free span copy loop in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_local_index_c_span__clang19_pg",
            &LocalKernel::C(crate::ckernels::hlc_clang19_pg::li_span),
        ),
    ],
    cases: &[
        CaseSpec {
            id: "table3",
            summary: "seed 000's idx_table3_col0: one bitmap scan of every TID in heap order into a digest: the copy loop alone (20k rows test, 1M quick, 10M full)",
        },
        CaseSpec {
            id: "table3-bitmap",
            summary: "the same scan into the TIDBitmap at work_mem 4 MB, as the seed's Bitmap Index Scan built it: the copy loop diluted by tbm_add_tuples",
        },
        CaseSpec {
            id: "table3-server",
            summary: "the seed's whole amgetbitmap as PostgreSQL 18 runs it: col0 < 10000000 through _bt_first's descent, shared buffers and _bt_readpage (the page step every kernel calls, routed there), into the TIDBitmap; held against the server's batched-store and batched-local",
        },
    ],
};

impl Study for LocalIndex {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> anyhow::Result<Box<dyn Case>> {
        let rel = || table3_col0_index(rows_at(size));
        let c = match case.id {
            "table3" => ScanCase::new(rel()),
            "table3-bitmap" => ScanCase { into_bitmap: Some(DEFAULT_WORK_MEM_BYTES), ..ScanCase::new(rel()) },
            "table3-server" => ScanCase { into_bitmap: Some(DEFAULT_WORK_MEM_BYTES), ..ScanCase::through_shared_buffers(rel()) },
            other => anyhow::bail!("local-index has no case `{other}`"),
        };
        Ok(Box::new(c))
    }
}

/// Rows of seed 000's table at `size`.
pub fn rows_at(size: Size) -> u64 {
    match size {
        Size::Test => 20_000,
        Size::Quick => 1_000_000,
        Size::Full => TABLE3_ROWS,
    }
}

/// Copy the batch out as a slice for the flush.
///
/// # Safety
/// `batch` must point to at least `n` initialised TIDs.
#[inline(always)]
unsafe fn flush(tbm: &mut dyn TidSink, batch: *const ItemPointer, n: usize) {
    tbm.add_tuples(unsafe { std::slice::from_raw_parts(batch, n) }, false);
}

/// `local-index/store-each`: the cursor lives in `so->currPos` and every access goes through
/// memory, as gcc emits the C loop under `-fno-strict-aliasing`.
///
/// # Safety
/// `scan` must point to a scan whose `opaque` and `index_relation` are valid and positioned by
/// `_bt_first` (`bt_first_all`), `batch` to [`BATCH_CAPACITY`] writable TIDs that alias
/// neither.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_local_index_store_each(
    scan: *mut IndexScanDesc,
    batch: *mut ItemPointer,
    tbm: &mut dyn TidSink,
) -> i64 {
    unsafe {
        let so = (*scan).opaque;
        let rel = &*(*scan).index_relation;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut nbatch = 0usize;
        let mut ntids = 0i64;
        loop {
            while (*so).curr_pos.item_index <= (*so).curr_pos.last_item {
                if nbatch == BATCH_CAPACITY {
                    flush(tbm, batch, nbatch);
                    nbatch = 0;
                }
                let i = (*so).curr_pos.item_index as usize;
                *batch.add(nbatch) = (*items.add(i)).heap_tid;
                nbatch += 1;
                ntids += 1;
                (*so).curr_pos.item_index += 1;
            }
            if !bt_steppage(&mut *so, rel) {
                break;
            }
        }
        if nbatch > 0 {
            flush(tbm, batch, nbatch);
        }
        ntids
    }
}

/// `local-index/safe-ref`: the same loop in safe Rust.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_local_index_safe_ref(
    so: &mut BTScanOpaque,
    rel: &BTree,
    batch: &mut TidBatch,
    tbm: &mut dyn TidSink,
) -> i64 {
    let mut nbatch = 0usize;
    let mut ntids = 0i64;
    loop {
        while so.curr_pos.item_index <= so.curr_pos.last_item {
            if nbatch == BATCH_CAPACITY {
                tbm.add_tuples(&batch[..nbatch], false);
                nbatch = 0;
            }
            batch[nbatch] = so.curr_pos.items[so.curr_pos.item_index as usize].heap_tid;
            nbatch += 1;
            ntids += 1;
            so.curr_pos.item_index += 1;
        }
        if !bt_steppage(so, rel) {
            break;
        }
    }
    if nbatch > 0 {
        tbm.add_tuples(&batch[..nbatch], false);
    }
    ntids
}

/// `local-index/local`: the patch: the cursor in locals, written back once per page.
///
/// # Safety
/// As [`hotloops_local_index_store_each`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_local_index_local(
    scan: *mut IndexScanDesc,
    batch: *mut ItemPointer,
    tbm: &mut dyn TidSink,
) -> i64 {
    unsafe {
        let so = (*scan).opaque;
        let rel = &*(*scan).index_relation;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut nbatch = 0usize;
        let mut ntids = 0i64;
        loop {
            let mut i = (*so).curr_pos.item_index;
            let last = (*so).curr_pos.last_item;
            while i <= last {
                if nbatch == BATCH_CAPACITY {
                    flush(tbm, batch, nbatch);
                    nbatch = 0;
                }
                *batch.add(nbatch) = (*items.add(i as usize)).heap_tid;
                nbatch += 1;
                ntids += 1;
                i += 1;
            }
            (*so).curr_pos.item_index = i;
            if !bt_steppage(&mut *so, rel) {
                break;
            }
        }
        if nbatch > 0 {
            flush(tbm, batch, nbatch);
        }
        ntids
    }
}

/// A bitmap index scan over one index: the scan state every variant starts from.
pub struct ScanCase {
    rel: Rc<BTree>,
    so: Box<BTScanOpaque>,
    scan: Box<IndexScanDesc>,
    batch: Box<TidBatch>,
    /// The sink of the last run.
    pub sink: TidDigest,
    /// Scan into a TIDBitmap of this many work_mem bytes instead of the digest alone (the
    /// whole Bitmap Index Scan, as the seed timed it).
    pub into_bitmap: Option<usize>,
    /// The server's scan of the same index (`table3-server`): `_bt_first`'s descent, shared
    /// buffers and PostgreSQL 18's `_bt_readpage` with the seed's `col0 < 10000000`, the page
    /// step routed through it. The kernels then run on its scan descriptor; unset, on `scan`
    /// with the in-memory page step.
    buffered: Option<Box<BtreeScan>>,
}

/// The cursor state a variant leaves behind, which all variants must agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Returned `ntids`.
    pub ntids: i64,
    /// Digest of the TIDs handed to the sink, in order.
    pub sink: TidDigest,
    /// Final `currPos.itemIndex`.
    pub item_index: i32,
    /// Final `currPos.lastItem`.
    pub last_item: i32,
    /// Final `currPos.currPage`.
    pub curr_page: u32,
    /// Digest of the TIDBitmap the scan built, when it built one.
    pub bitmap: Option<u64>,
}

impl Outcome {
    /// The one digest of an outcome: what [`Case::run`] returns.
    pub fn value(&self) -> u64 {
        self.sink.value() ^ self.bitmap.unwrap_or(0).rotate_left(29) ^ (self.ntids as u64).rotate_left(7) ^ ((self.item_index as u64) << 40)
            ^ ((self.last_item as u64) << 20)
            ^ self.curr_page as u64
    }
}

impl ScanCase {
    /// A case over `rel`.
    pub fn new(rel: BTree) -> Self {
        let rel = Rc::new(rel);
        let (so, _) = BTScanOpaque::new_boxed(&[]);
        let mut case = ScanCase {
            scan: IndexScanDesc::new(&rel, &[]),
            rel,
            so,
            batch: Box::new([ItemPointer::default(); BATCH_CAPACITY]),
            sink: TidDigest::new(),
            into_bitmap: None,
            buffered: None,
        };
        case.scan.opaque = &mut *case.so;
        case
    }

    /// A case over `rel` read as the server reads it (`table3-server`): every page step of
    /// every kernel goes through [`BtreeScan`]'s shared buffers and leaf read, and the scan
    /// starts with its `_bt_first`.
    pub fn through_shared_buffers(rel: BTree) -> Self {
        let mut case = Self::new(rel);
        let mut bs = BtreeScan::new(Rc::clone(&case.rel), vec![]);
        bs.route_page_step();
        case.buffered = Some(bs);
        case
    }

    /// The scan descriptor the kernels run on.
    fn scan_ptr(&mut self) -> *mut IndexScanDesc {
        match &mut self.buffered {
            Some(bs) => &mut bs.desc,
            None => &mut *self.scan,
        }
    }

    /// The scan's `BTScanOpaque`.
    fn so(&self) -> &BTScanOpaque {
        match &self.buffered {
            Some(bs) => &bs.so,
            None => &self.so,
        }
    }

    /// The index.
    pub fn rel(&self) -> &BTree {
        &self.rel
    }

    /// `_bt_first`: position the scan on the first leaf (or leave `currPos` empty).
    pub fn position(&mut self) {
        if let Some(bs) = &mut self.buffered {
            bs.rescan_and_first();
            return;
        }
        self.so.curr_pos = BTScanPos::invalid();
        bt_first_all(&mut self.so, &self.rel);
    }

    /// Position the scan with `currPos` set directly (tests: a full 1358-item page, pages no
    /// real leaf can hold), then continue along the index from `next_page`.
    pub fn position_at(&mut self, pos: &BTScanPos) {
        assert!(self.buffered.is_none(), "position_at sets the in-memory scan's cursor; the server's scan starts from _bt_first");
        self.so.curr_pos = pos.clone();
    }

    /// The cursor now: (`itemIndex`, `lastItem`, `currPage`).
    pub fn cursor(&self) -> (i32, i32, u32) {
        let p = &self.so().curr_pos;
        (p.item_index, p.last_item, p.curr_page)
    }

    /// Run variant `v` from the current position; `position` first for a whole scan.
    pub fn run_from_position(&mut self, v: &'static Variant, sink: &mut dyn TidSink) -> anyhow::Result<i64> {
        Ok(self.run_kernel_from_position(v.spec::<LocalKernel>()?, sink))
    }

    /// Run `kernel` from the current position: what [`ScanCase::run_from_position`] runs for a
    /// row, open to a kernel that is no row (a C kernel under another configuration).
    pub fn run_kernel_from_position(&mut self, kernel: &LocalKernel, sink: &mut dyn TidSink) -> i64 {
        let scan = self.scan_ptr();
        let batch = self.batch.as_mut_ptr();
        // The server's scan may palloc in its per-query context (the executor's, current
        // while the node runs).
        let cxt = self.buffered.as_ref().map_or(std::ptr::null_mut(), |bs| bs.cxt.as_ptr());
        let old = memory_context_switch_to(cxt);
        // SAFETY: scan.opaque points at its so (self.so or the server scan's), index_relation
        // at self.rel, and the batch is a separate allocation of BATCH_CAPACITY TIDs.
        let n = unsafe {
            match kernel {
                LocalKernel::Raw(f) => f(scan, batch, sink),
                LocalKernel::Safe(f) => f(&mut *(*scan).opaque, &*(*scan).index_relation, &mut self.batch, sink),
                LocalKernel::C(f) => {
                    // The callback (`hl_tid_sink_add_tuples`) reads a `&mut dyn TidSink` here.
                    let mut sink: &mut dyn TidSink = sink;
                    f(scan, batch, (&raw mut sink).cast())
                }
            }
        };
        memory_context_switch_to(old);
        n
    }

    /// Run variant `v` over the whole scan and report what it did.
    pub fn outcome(&mut self, v: &'static Variant) -> anyhow::Result<Outcome> {
        self.outcome_with(v.spec::<LocalKernel>()?).map_err(|e| anyhow::anyhow!("{}: {e}", v.id))
    }

    /// Run `kernel` over the whole scan: what [`ScanCase::outcome`] runs for a row.
    pub fn outcome_with(&mut self, kernel: &LocalKernel) -> anyhow::Result<Outcome> {
        self.position();
        let mut sink = TidDigest::new();
        let mut bitmap = None;
        let ntids = match self.into_bitmap {
            None => self.run_kernel_from_position(kernel, &mut sink),
            Some(bytes) => {
                let mut tbm = TidBitmap::new(bytes);
                let n = self.run_kernel_from_position(kernel, &mut tbm);
                if let Some(e) = tbm.error() {
                    anyhow::bail!("the bitmap raised ERROR: {e}");
                }
                bitmap = Some(tbm.digest());
                n
            }
        };
        self.sink = sink;
        let (item_index, last_item, curr_page) = self.cursor();
        Ok(Outcome { ntids, sink, item_index, last_item, curr_page, bitmap })
    }
}

impl Case for ScanCase {
    fn describe(&self) -> String {
        let n = self.rel.len();
        format!(
            "seed 000's idx_table3_col0 over {} rows: {} leaves of up to 366 TIDs in heap order \
             ({} heap tuples a page, {} heap blocks); one bitmap scan of every TID, batch {}, into {}{}",
            n,
            self.rel.leaves.len(),
            TABLE3_TUPLES_PER_PAGE,
            (n as u64).div_ceil(TABLE3_TUPLES_PER_PAGE as u64),
            BATCH_CAPACITY,
            match self.into_bitmap {
                None => "a digest (the copy loop alone)".to_string(),
                Some(b) => format!("a TIDBitmap at work_mem {} kB (tbm_add_tuples per batch)", b / 1024),
            },
            if self.buffered.is_some() {
                "; each leaf read as PostgreSQL 18 reads it (_bt_first's descent, shared buffers, _bt_readpage with col0 < 10000000)"
            } else {
                ""
            }
        )
    }

    fn items(&self) -> u64 {
        self.rel.len() as u64
    }

    fn run(&mut self, v: &'static Variant) -> anyhow::Result<u64> {
        Ok(self.outcome(v)?.value())
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        // Seed 000's +2.24% (a speedup) on the whole Bitmap Index Scan: the patched loop in
        // 1/1.0224 of the time, in Rust and in C (the seed built with gcc).
        (self.into_bitmap.is_some() && (v.id == INFO.patched || v.id == "local-index/c-local")).then_some(1.0 / 1.0224)
    }
}

/// The pipeline: one whole bitmap scan of `case`, with the variant this build selects
/// (`local-index/local` with `--features local-index`, else `local-index/store-each`).
pub fn pipeline(case: &mut ScanCase) -> anyhow::Result<Outcome> {
    case.outcome(INFO.pipeline_variant())
}

/// The study's description and rows.
pub fn info() -> &'static StudyInfo {
    &INFO
}
