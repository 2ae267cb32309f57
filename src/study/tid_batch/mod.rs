//! # Study `tid-batch`: one `tbm_add_tuples` call per TID against batched calls
//!
//! **Seed 000** (David Geier's patch, v1 for B-tree, v2 for all six AMs; Haibo's review):
//! `btgetbitmap` calls `tbm_add_tuples(tbm, tid, 1, false)` once per matching TID (reference
//! §1.1; hash, GiST, SP-GiST, bloom and GIN's main loop do the same, §1.4), so the bitmap's
//! within-call page cache (§2.3) never helps: every TID pays the call, the offset check, the
//! lossy check and a full `pagetable_insert` (murmurhash, probe, grow check). Batching the TIDs
//! into one call reuses the page entry for consecutive TIDs of a heap block and amortises the
//! call. The seed's Bitmap Index Scan node times (ms, master -> patched): btree-many
//! 170.372 -> 115.071 (**1.48x**), gin-many 342.281 -> 285.198 (1.20x), gist-many 827.222 ->
//! 758.613 (1.09x), hash-many 296.819 -> 251.802 (1.17x), bloom-many 3743.758 -> 3707.017
//! (1.00x), spgist-many 572.892 -> 518.730 (1.10x), the "few" cases ~1.00x; a reviewer's
//! +0.85% for ten widely spaced B-tree keys (33.195 -> 33.569 us) that the author could not
//! reproduce. The author: absolute savings are about constant across AMs (~45-69 ms per ~10M
//! TIDs), so the ratio tracks the AM's own cost.
//!
//! The bitmap is [`crate::pg::tidbitmap::TidBitmap`], a faithful model (it reproduces §8b's
//! 21,093 exact / 32,962 lossy heap blocks at work_mem 2 MB); kernels reach it only through
//! `&mut dyn` calls, opaque as a call into another translation unit is.
//!
//! Variants (unmangled `hotloops_tid_batch_*`; the entry dispatches once per run to one
//! out-of-line kernel per AM shape, listed as helpers):
//! - `tid-batch/per-tid` (master): one `add_tuples` call per TID; the scan cursor lives in the
//!   scan's memory (`so->currPos.itemIndex`), stored before and reloaded after every call.
//! - `tid-batch/batched` (seed 000 v2): TIDs copied into stack batches, exact and recheck kept
//!   apart (the recheck flag is page-level), a batch flushed when full, the residuals flushed
//!   once at the end of the `amgetbitmap` call (exact first). The cursor is held in locals
//!   (v2 took Haibo's local-index fix). Capacity: a B-tree leaf's worth of TIDs
//!   (`MaxTIDsPerBTreePage` = 1358) for B-tree, `MaxIndexTuplesPerPage` = 408 for the others
//!   (v2 uses "page-sized arrays"; the exact size is not in the seed).
//! - `tid-batch/runs` (beyond the seed): the AM loop coalesces each run of consecutive TIDs
//!   on the same heap block *and* the same 64-bit bitmap word into one 16-byte record
//!   ([`TidWord`]: block, word number, bits, recheck) while it walks its items, the open
//!   record held in registers, and hands the bitmap batches of 256 records
//!   ([`TidRunSink::add_words`], `tbm_add_tuples`'s loop over words instead of TIDs). Per TID
//!   that leaves a compare of the raw block bytes with the open record's and one unsigned
//!   compare `posid - base < lim`, which checks the word and the offset's validity (1..=291)
//!   at once, then an OR into a register: 11 instructions a TID in the inner loop of a leaf's
//!   span, with no copy; per record one OR into the page entry;
//!   per block run one lookup. A heap-ordered block of 185 TIDs is 3 records; a lone TID
//!   costs a 16-byte record instead of a 6-byte copy. Records carry the OR of their TIDs'
//!   recheck flags and keep stream order, so the bitmap is the one per-TID calls build, lossy
//!   mode and mixed flags included (tests/tid_batch.rs). An invalid offset is sent through
//!   `add_tuples` so the bitmap raises its ERROR as PostgreSQL would. Coalescing made `runs`
//!   wait on the leaves streaming in from memory, so its B-tree kernel also prefetches the
//!   right sibling into L2 before each span ([`prefetch_leaf`]); what that buys, and the
//!   command that measures it, are in `analysis/README.md`.
//!
//! - `tid-batch/c-per-tid`, `tid-batch/c-batched` (and their `@<config>` rows): per-tid's
//!   and batched's B-tree loops in C (`csrc/nbtree_bitmap.c`), stepping the same
//!   [`BtreeScan`] through the same Rust `_bt_first` / `_bt_next` / `_bt_steppage` /
//!   `_bt_start_prim_scan`, into the C TIDBitmap (`csrc/tidbitmap.c`: exact and lossy mode,
//!   equal to [`TidBitmap`] bucket by bucket, digested by the same
//!   [`crate::pg::tidbitmap::tidbitmap_digest`]); B-tree cases only ([`BTREE_CASES`]).
//!   **What they showed**: master's loop keeps `itemIndex` in memory around its per-TID
//!   call under every configuration, the batched loop's cursor is in registers, and
//!   batching's gain holds for gcc's build of the bitmap as for the Rust model's (figures in
//!   `analysis/*/ckernels.md`).
//!
//! **btree-few** is a sub-1% question that one process cannot settle: a new process's heap
//! and code layout moves its ratio by more than batching does. The pooled figures are in
//! `analysis/README.md`.
//!
//! **Finding: `batched` is not always identical.** Splitting exact and recheck TIDs reorders
//! page creations; once the bitmap goes lossy, which pages `tbm_lossify` converts depends on
//! the table's history, so with mixed flags *and* a lossy bitmap the batched variant may lossify
//! different pages than master (both are correct: every page is exact with the same offsets or
//! lossy). With one flag, or without lossification, it is identical. `runs` keeps the order.
//!
//! **Workloads** (seed 000's table3, 185 heap tuples a page; `rows` = 10M at full size as in the
//! seed, 1M quick, 20k test; all deterministic). What is modelled is the *order* in which each
//! AM hands TIDs over, the unit it reads them in (index pages), and how `amgetbitmap` is called;
//! the AMs' own per-tuple work (consistent functions, hashing, posting-list decoding, buffer
//! locks) is not, except B-tree (a real leaf walk over 8 KiB pages, a real descent, and the
//! buffer manager's hit path) and bloom (a real signature test over every index tuple). Each
//! case states its locality (TIDs per heap-block run, distinct heap blocks):
//! - **btree-many**: `col0 < rows` on idx_table3_col0: heap order, 185 TIDs a run. Each page
//!   step goes through shared buffers as `_bt_readnextpage` does (unpin the old page,
//!   `ReadBuffer` + share lock, read the page, unlock; [`crate::pg::bufmgr`]); the first leaf
//!   is read without (`bt_first_all`). Each tuple goes through `_bt_checkkeys` ->
//!   `_bt_check_compare` as gcc's C ([`crate::pg::cmodel`]); what the model's amgetbitmap
//!   still lacks against 18.6's instructions is mostly `_bt_readpage`'s own code, which stays
//!   rustc's (figures in `analysis/kvm-amd-epyc-2core/pg/model-fidelity.md`). Each page costs a hit here; the seed's run missed
//!   shared buffers (read=27324): that is **btree-many-miss**, the same scan over a pool of 16
//!   buffers (the server's `shared_buffers = 128kB`) with storage, full at the start as after
//!   an earlier scan, where every page is a miss: clock sweep, mapping-table delete and insert,
//!   18's synchronous AIO read (`pread` of the block from the index's file in the OS page
//!   cache, its data checksum verified; `BtreeScan::with_storage`, [`crate::pg::bufmgr`]'s
//!   miss path).
//!   **btree-few**: `col0 = ANY(10 widely spaced keys)`: ten primitive scans in one
//!   `btgetbitmap` call, each a descent returning one TID. The descent is PostgreSQL's
//!   (`_bt_search`, [`crate::pg::nbtsearch`]): root, internal page and leaf (3 buffers a key,
//!   30 for the ten: §8b; the sorted build gives 27,323 leaves under 97 internal pages and a
//!   root at 10M rows), each read through 18's `ReadBuffer` -> `ReadBufferExtended` ->
//!   `StartReadBuffer` (tag hash, partition LWLock, mapping table lookup, `PinBuffer`'s CAS,
//!   resource owner, the I/O counters) and share-locked; `_bt_moveright` checks each
//!   non-rightmost page's high key and `_bt_binsrch` bisects each page, every comparison a
//!   `_bt_compare` -> `FunctionCall2Coll` -> `btint8cmp` call through a function pointer; the
//!   metapage is cached (`rd_amcache`); `_bt_search` pallocs a `BTStack` entry per internal
//!   level in the scan's `ExecutorState` context and `_bt_freestack` pfrees them
//!   ([`crate::pg::mcxt`]). The leaf is read as master's `_bt_readpage` reads it
//!   ([`crate::pg::nbtreadpage`]): `_bt_checkkeys` -> `_bt_check_compare` tests each tuple
//!   from the binsrch offset with the `=` function (`int8eq` through `FunctionCall2Coll`),
//!   `_bt_saveitem` saves the match, and the next tuple fails the required key, so
//!   `_bt_tuple_before_array_skeys` and `_bt_advance_array_keys` compare it with the array
//!   through the ORDER proc (`_bt_binsrch_array_skey`), advance to the next element, find it
//!   beyond the high key (`finaltup`) and end the page with `needPrimScan` set, which
//!   `_bt_start_prim_scan` reads; `_bt_first` takes its key from the array's current element.
//!   Each primitive scan also pays `_bt_preprocess_keys`' early return, `pgstat_count_index_scan`,
//!   the "Index Searches" count and `PredicateLockPage`'s early return. The first `_bt_first`
//!   after each `btrescan` runs the whole of it ([`crate::pg::nbtpreprocesskeys`]): the array
//!   context reset, `deconstruct_array` of the `int8[]` constant, `qsort_arg` and `qunique_arg`
//!   through `_bt_compare_array_elements` -> `FunctionCall2Coll` -> `btint8cmp`, the output
//!   key marked required; left out there, `get_typlenbyvalalign`'s catalog cache lookup
//!   (18: about 24 instructions a TID of btree-few). Where PostgreSQL would carry a primitive
//!   scan onto the right sibling (the next element is the sibling's first key), the model
//!   descends again instead (same TIDs; never on btree-few's path). Not modelled: the look-ahead skip
//!   and `_bt_set_startikey` (no effect with one match a leaf), `PredicateLockPage` on pages
//!   stepped to, and the executor around `btgetbitmap`.
//!   **btree-lossy**: btree-many at work_mem 2 MB scaled by rows / 10M (§8b: 2 MB is where
//!   the seed's bitmap goes lossy).
//! - **hash-many**: bucket order: TIDs sorted by (bucket, hash) of a 32-bit mix of the key, so
//!   consecutive TIDs land on unrelated heap blocks (about 1 TID a run); 305 TIDs an index page
//!   (fillfactor 75); recheck = true (hash codes collide). **hash-few**: ten keys, ten separate
//!   `hashgetbitmap` calls (hash has no `amsearcharray`; the executor loops over the array).
//! - **gin-many**: one posting tree in TID order (heap order), about 7,688 TIDs a leaf page
//!   (31 segments of 256 B, 1-byte varbyte deltas). **gin-few**: a 10-TID posting list.
//!   **gin-mixed**: gin-many with a third of the TIDs recheck (a key whose consistent function
//!   returns MAYBE for some items): exact and recheck TIDs interleave within each heap block.
//! - **gist-many**: `point(col0 % W, col0 / W)` (W = a power of two near sqrt(rows)) with a
//!   box containing everything, leaves in Z-order as GiST's sorted build lays points out, 256
//!   points a leaf: consecutive points alternate between two grid rows, so about 2 TIDs a run
//!   and each heap block comes back in many short runs. **gist-few**: ten points, ten leaves.
//! - **spgist-many**: the same points in a quad-tree: 8x8 leaf tiles visited in quadrant order
//!   (1..4 recursively), each tile's points in insertion (heap) order: about 8 TIDs a run.
//!   **spgist-few**: ten points, ten leaves.
//! - **bloom-many**: a full scan of a bloom index on (col0, col1) (80-bit signatures, 2 bits a
//!   column, 510 tuples a page) whose signature test matches 1 row in 8: heap order, sparse,
//!   about 23 TIDs a run, recheck = true. **bloom-few**: the same scan matching ten rows.

use crate::ckernels::{CTidBitmap, TidBatchFn};
use crate::pg::ItemPointer;
use crate::pg::mcxt::memory_context_switch_to;
use crate::pg::nbtree::MAX_TIDS_PER_BTREE_PAGE;
use crate::pg::page::{BLCKSZ, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{DEFAULT_WORK_MEM_BYTES, TidBitmap, TidRunSink, TidWord, tbm_calculate_entries};
use crate::pg::workload::{TABLE3_ROWS, table3_col0_index};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};
use std::rc::Rc;

mod bloom;
mod btree;
mod paged;
mod runs;

pub use crate::pg::bloom::{BLOOM_SIGN_WORDS, BLOOM_TUPLES_PER_PAGE, BloomScan, BloomTuple};
use crate::pg::bloom::{bl_matches, bl_read_page};
pub use crate::pg::nbtscan::*;
pub use crate::pg::pagedam::*;
pub use bloom::*;
pub use btree::*;
pub use paged::*;
use runs::*;

/// `MaxIndexTuplesPerPage` = (8192 - 24) / (MAXALIGN(8 + 1) + 4) = 408.
pub const MAX_INDEX_TUPLES_PER_PAGE: usize = (BLCKSZ - SIZE_OF_PAGE_HEADER) / (maxalign(8 + 1) + SIZE_OF_ITEM_ID);
const _: () = assert!(MAX_INDEX_TUPLES_PER_PAGE == 408);

/// Batch capacity of the batched B-tree loop: one leaf's worth of TIDs.
pub const BTREE_BATCH: usize = MAX_TIDS_PER_BTREE_PAGE;
/// Batch capacity (each of exact and recheck) of the batched loops of the other AMs.
pub const PAGE_BATCH: usize = MAX_INDEX_TUPLES_PER_PAGE;
/// Word records a `runs` kernel collects before one `add_words` call (256 x 16 B = 4 KiB of
/// stack).
pub const RUN_BATCH: usize = 256;

/// The registry entry.
pub static STUDY: TidBatch = TidBatch;

/// Study `tid-batch`.
pub struct TidBatch;

static INFO: StudyInfo = StudyInfo {
    name: "tid-batch",
    seed: "seed 000 (David Geier's TID-batching patch v1/v2, Haibo's review, the per-AM table)",
    claim: "amgetbitmap calls tbm_add_tuples once per TID, so the bitmap's within-call page cache \
            never helps and every TID pays a call and a hash probe; batching TIDs into one call \
            reuses the page entry for consecutive TIDs of a heap block",
    seed_numbers: "Bitmap Index Scan master -> patched: btree-many 170.4 -> 115.1 ms (1.48x), \
                   gin-many 1.20x, gist-many 1.09x, hash-many 1.17x, bloom-many 1.00x, \
                   spgist-many 1.10x, few ~1.00x; a reviewer's +0.85% on ten sparse B-tree \
                   keys (33.195 -> 33.569 us)",
    feature: "batch-tids",
    feature_on: cfg!(feature = "batch-tids"),
    baseline: "tid-batch/per-tid",
    patched: "tid-batch/batched",
    unit: "TID",
    c_kernels: "master's btgetbitmap in C, into a C TIDBitmap built with PostgreSQL's flags \
                (exact and lossy, equal to the Rust model bucket by bucket), keeps itemIndex in \
                memory around its per-TID tbm_add_tuples call under every configuration; the \
                batched loop's cursor is in registers, and batching's gain holds for gcc's \
                build as for the Rust model's",
    heap_history_matters: false,
    variants: &[
        Variant::new(
            "tid-batch/per-tid",
            "one tbm_add_tuples call per TID, cursor in scan memory (master)",
            "hotloops_tid_batch_per_tid",
            &TidKernel::Tuples(hotloops_tid_batch_per_tid),
        )
        .helpers(&["hl_tid_batch_per_tid_btree", "hl_tid_batch_per_tid_pages", "hl_tid_batch_per_tid_bloom"]),
        Variant::new(
            "tid-batch/batched",
            "TIDs copied into exact/recheck batches, flushed when full and once at the end (seed 000 v2)",
            "hotloops_tid_batch_batched",
            &TidKernel::Tuples(hotloops_tid_batch_batched),
        )
        .helpers(&["hl_tid_batch_batched_btree", "hl_tid_batch_batched_pages", "hl_tid_batch_batched_bloom"]),
        Variant::new(
            "tid-batch/runs",
            "same-block runs coalesced into word masks by the AM loop, one page lookup per run",
            "hotloops_tid_batch_runs",
            &TidKernel::Words(hotloops_tid_batch_runs),
        )
        .helpers(&["hl_tid_batch_runs_btree", "hl_tid_batch_runs_pages", "hl_tid_batch_runs_bloom"]),
        Variant::c(
            "tid-batch/c-per-tid",
            "per-tid in C (btgetbitmap, master), gcc 12 with Debian PostgreSQL 15's flags, into the C TIDBitmap",
            "gcc12-pg",
            "hotloops_tid_batch_c_per_tid__gcc12_pg",
            &TidKernel::C(crate::ckernels::hlc_gcc12_pg::tb_per_tid, "gcc12-pg"),
        )
        .only_cases(&BTREE_CASES),
        Variant::c(
            "tid-batch/c-batched",
            "batched in C (seed 000 v2's B-tree loop), gcc 12 with Debian PostgreSQL 15's flags, into the C TIDBitmap",
            "gcc12-pg",
            "hotloops_tid_batch_c_batched__gcc12_pg",
            &TidKernel::C(crate::ckernels::hlc_gcc12_pg::tb_batched, "gcc12-pg"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "tid-batch/c-per-tid@gcc12-upstream",
            "per-tid in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_tid_batch_c_per_tid__gcc12_upstream",
            &TidKernel::C(crate::ckernels::hlc_gcc12_upstream::tb_per_tid, "gcc12-upstream"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_gcc12_upstream)]
        Variant::c(
            "tid-batch/c-batched@gcc12-upstream",
            "batched in C under gcc12-upstream (PostgreSQL's own gcc flags)",
            "gcc12-upstream",
            "hotloops_tid_batch_c_batched__gcc12_upstream",
            &TidKernel::C(crate::ckernels::hlc_gcc12_upstream::tb_batched, "gcc12-upstream"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "tid-batch/c-per-tid@gcc12-strict",
            "per-tid in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_tid_batch_c_per_tid__gcc12_strict",
            &TidKernel::C(crate::ckernels::hlc_gcc12_strict::tb_per_tid, "gcc12-strict"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_gcc12_strict)]
        Variant::c(
            "tid-batch/c-batched@gcc12-strict",
            "batched in C under gcc12-strict (Debian's flags with -fstrict-aliasing)",
            "gcc12-strict",
            "hotloops_tid_batch_c_batched__gcc12_strict",
            &TidKernel::C(crate::ckernels::hlc_gcc12_strict::tb_batched, "gcc12-strict"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "tid-batch/c-per-tid@clang19-pg",
            "per-tid in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_tid_batch_c_per_tid__clang19_pg",
            &TidKernel::C(crate::ckernels::hlc_clang19_pg::tb_per_tid, "clang19-pg"),
        )
        .only_cases(&BTREE_CASES),
        #[cfg(hlc_clang19_pg)]
        Variant::c(
            "tid-batch/c-batched@clang19-pg",
            "batched in C under clang19-pg (clang 19 with Debian's flags)",
            "clang19-pg",
            "hotloops_tid_batch_c_batched__clang19_pg",
            &TidKernel::C(crate::ckernels::hlc_clang19_pg::tb_batched, "clang19-pg"),
        )
        .only_cases(&BTREE_CASES),
    ],
    cases: &CASES,
};

/// The B-tree cases, the only ones the C kernels (btgetbitmap's loop) run on.
pub const BTREE_CASES: [&str; 3] = ["btree-many", "btree-few", "btree-lossy"];

/// The case catalogue: each AM's many-TID scan, its ten-key scan, and the edges.
static CASES: [CaseSpec; 15] = [
    CaseSpec { id: "btree-many", summary: "`col0 < rows` on idx_table3_col0: every TID in heap order (seed: 1.48x)" },
    CaseSpec { id: "btree-many-miss", summary: "btree-many with every page read from the index's file through a 16-buffer pool (clock sweep, pread from the OS page cache: the seed's read=27324)" },
    CaseSpec { id: "btree-few", summary: "`col0 = ANY(ten widely spaced keys)`: ten primitive scans, one TID each" },
    CaseSpec { id: "btree-lossy", summary: "btree-many at the work_mem where the seed's bitmap goes lossy" },
    CaseSpec { id: "hash-many", summary: "hash: bucket order, 305 TIDs a bucket page, recheck" },
    CaseSpec { id: "hash-few", summary: "hash: ten keys, ten one-TID hashgetbitmap calls, recheck" },
    CaseSpec { id: "gin-many", summary: "GIN: one posting tree in TID order" },
    CaseSpec { id: "gin-few", summary: "GIN: one 10-TID posting list" },
    CaseSpec { id: "gin-mixed", summary: "GIN: gin-many with a third of the TIDs recheck, interleaved" },
    CaseSpec { id: "gist-many", summary: "GiST: points in Z-order, 256 a leaf" },
    CaseSpec { id: "gist-few", summary: "GiST: ten points, each on its own leaf" },
    CaseSpec { id: "spgist-many", summary: "SP-GiST: quad-tree leaves in quadrant order" },
    CaseSpec { id: "spgist-few", summary: "SP-GiST: ten points, each on its own leaf" },
    CaseSpec { id: "bloom-many", summary: "bloom: full scan, signature matches 1 row in 8, recheck" },
    CaseSpec { id: "bloom-few", summary: "bloom: full scan matching ten rows, recheck" },
];

/// How a tid-batch kernel hands TIDs over: `tbm_add_tuples` batches, or coalesced words.
pub enum TidKernel {
    /// Through [`TidSink::add_tuples`].
    Tuples(unsafe fn(*mut Scan, &mut dyn TidSink) -> i64),
    /// Through [`TidRunSink::add_words`].
    Words(unsafe fn(*mut Scan, &mut dyn TidRunSink) -> i64),
    /// A C kernel of `csrc/nbtree_bitmap.c` (B-tree only) into the C TIDBitmap of its
    /// configuration (the second field).
    C(TidBatchFn, &'static str),
}

impl Kernel for TidKernel {
    fn entry(&self) -> usize {
        match self {
            TidKernel::Tuples(f) => *f as usize,
            TidKernel::Words(f) => *f as usize,
            TidKernel::C(f, _) => *f as usize,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Entries.

/// One AM's scan, ready to run.
pub enum Scan {
    /// btgetbitmap.
    Btree(Box<BtreeScan>),
    /// hash, GIN, GiST, SP-GiST.
    Paged(Box<PagedScan>),
    /// blgetbitmap.
    Bloom(Box<BloomScan>),
}

impl Scan {
    fn reset(&mut self) {
        match self {
            Scan::Btree(b) => b.reset(),
            Scan::Paged(p) => p.reset(),
            Scan::Bloom(_) => {}
        }
    }

    /// Reset the scan, make its memory context current (the executor runs the node in the
    /// per-query context; the B-tree scan pallocs there) and run `call` on it: the one
    /// scan set-up of Rust and C kernels.
    fn with_reset(&mut self, call: impl FnOnce(*mut Scan) -> i64) -> i64 {
        self.reset();
        let cxt = if let Scan::Btree(b) = self { b.cxt.as_ptr() } else { std::ptr::null_mut() };
        let old = memory_context_switch_to(cxt);
        let n = call(self);
        memory_context_switch_to(old);
        n
    }

    /// Run variant `v` once into `tbm`; the number of TIDs handed over. A C row is an error
    /// here (it sinks into the C TIDBitmap: [`Scan::run_c`]).
    pub fn run(&mut self, v: &'static Variant, tbm: &mut dyn TidRunSink) -> anyhow::Result<i64> {
        // SAFETY: `with_reset` hands the kernel this live, freshly reset scan.
        match *v.spec::<TidKernel>()? {
            TidKernel::Tuples(f) => Ok(self.with_reset(|s| unsafe { f(s, tbm) })),
            TidKernel::Words(f) => Ok(self.with_reset(|s| unsafe { f(s, tbm) })),
            TidKernel::C(..) => anyhow::bail!("{} is a C kernel: it sinks into the C TIDBitmap", v.id),
        }
    }

    /// Run C kernel `k` (a row's spec, or a kernel of another configuration) once into `tbm`,
    /// a C TIDBitmap of the kernel's configuration; the number of TIDs handed over.
    pub fn run_c(&mut self, k: &TidKernel, tbm: &mut CTidBitmap) -> anyhow::Result<i64> {
        let &TidKernel::C(f, config) = k else { anyhow::bail!("not a C tid-batch kernel") };
        if tbm.config != config {
            anyhow::bail!("a C kernel built under {config} given a TIDBitmap built under {}", tbm.config);
        }
        let Scan::Btree(b) = self else {
            anyhow::bail!("the C tid-batch kernels are btgetbitmap's loop: they run on the B-tree cases only ({})", BTREE_CASES.join(", "))
        };
        let bs: *mut BtreeScan = &mut **b;
        // SAFETY: `bs` is the scan `with_reset` reset, its context current during the call.
        Ok(self.with_reset(|_| unsafe { crate::ckernels::run_tid_batch(f, bs, tbm) }))
    }
}

/// `tid-batch/per-tid`: the Bitmap Index Scan node's `index_getbitmap` call(s).
///
/// # Safety
/// `scan` must point to a live [`Scan`], reset since its last run.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_tid_batch_per_tid(scan: *mut Scan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        match &mut *scan {
            Scan::Btree(b) => hl_tid_batch_per_tid_btree(&mut **b, tbm),
            Scan::Paged(p) => {
                let p: *mut PagedScan = &mut **p;
                (0..(*p).index.calls.len()).map(|c| hl_tid_batch_per_tid_pages(p, c, tbm)).sum()
            }
            Scan::Bloom(b) => hl_tid_batch_per_tid_bloom(&**b, tbm),
        }
    }
}

/// `tid-batch/batched`.
///
/// # Safety
/// As [`hotloops_tid_batch_per_tid`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_tid_batch_batched(scan: *mut Scan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        match &mut *scan {
            Scan::Btree(b) => hl_tid_batch_batched_btree(&mut **b, tbm),
            Scan::Paged(p) => {
                let p: *mut PagedScan = &mut **p;
                (0..(*p).index.calls.len()).map(|c| hl_tid_batch_batched_pages(p, c, tbm)).sum()
            }
            Scan::Bloom(b) => hl_tid_batch_batched_bloom(&**b, tbm),
        }
    }
}

/// `tid-batch/runs`.
///
/// # Safety
/// As [`hotloops_tid_batch_per_tid`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hotloops_tid_batch_runs(scan: *mut Scan, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        match &mut *scan {
            Scan::Btree(b) => hl_tid_batch_runs_btree(&mut **b, tbm),
            Scan::Paged(p) => {
                let p: *mut PagedScan = &mut **p;
                (0..(*p).index.calls.len()).map(|c| hl_tid_batch_runs_pages(p, c, tbm)).sum()
            }
            Scan::Bloom(b) => hl_tid_batch_runs_bloom(&**b, tbm),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sizes.

/// Rows of table3 at `size`.
pub fn rows_at(size: Size) -> u64 {
    match size {
        Size::Test => 20_000,
        Size::Quick => 1_000_000,
        Size::Full => TABLE3_ROWS,
    }
}

pub use crate::pg::workload::{BLOOM_QUERY, GIN_LEAF_TIDS, GIST_LEAF_POINTS, HASH_TUPLES_PER_PAGE, Locality, SPGIST_TILE, bloom_many_match, bloom_tuples, few_keys, gist_order, grid_width, hash_order, items, lossy_work_mem, mix64, morton, quad_order, spgist_order, tids};
/// One case: an AM's scan, its work_mem, and what the seed measured for it.
pub struct TidCase {
    id: &'static str,
    what: String,
    scan: Scan,
    work_mem: usize,
    locality: Locality,
    calls: usize,
    index_pages: usize,
    seed_batched: Option<f64>,
}

/// Counts bitmap calls on their way to the bitmap (extra_metrics only, never timed).
struct Counting<'a> {
    tbm: &'a mut TidBitmap,
    calls: u64,
}

impl TidSink for Counting<'_> {
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) {
        self.calls += 1;
        self.tbm.add_tuples(tids, recheck);
    }
}

impl TidRunSink for Counting<'_> {
    fn add_words(&mut self, words: &[TidWord]) {
        self.calls += 1;
        self.tbm.add_words(words);
    }
}

impl TidCase {
    /// A case over `scan`; `stream` is the TIDs the scan hands over, in order (for the
    /// locality figures).
    pub fn new(
        id: &'static str,
        what: String,
        scan: Scan,
        work_mem: usize,
        stream: impl IntoIterator<Item = ItemPointer>,
        seed_batched: Option<f64>,
    ) -> TidCase {
        let (calls, index_pages) = match &scan {
            Scan::Btree(b) => (1, b.rel.leaves.len()),
            Scan::Paged(p) => (p.index.calls(), p.index.pages()),
            Scan::Bloom(b) => (1, b.pages()),
        };
        TidCase { id, what, scan, work_mem, locality: Locality::of(stream), calls, index_pages, seed_batched }
    }

    /// Build the bitmap with variant `v` (a Rust row).
    pub fn bitmap(&mut self, v: &'static Variant) -> anyhow::Result<(TidBitmap, i64)> {
        let mut tbm = TidBitmap::new(self.work_mem);
        let n = self.scan.run(v, &mut tbm)?;
        Ok((tbm, n))
    }

    /// Build the C TIDBitmap (at this case's work_mem) with C kernel `k`: a C row's spec, or
    /// a kernel of another configuration.
    pub fn c_bitmap(&mut self, k: &TidKernel) -> anyhow::Result<(CTidBitmap, i64)> {
        let TidKernel::C(_, config) = k else { anyhow::bail!("not a C tid-batch kernel") };
        let mut tbm = CTidBitmap::new(config, self.work_mem)?;
        let n = self.scan.run_c(k, &mut tbm)?;
        Ok((tbm, n))
    }

    /// Run C kernel `k` into `tbm` (a C TIDBitmap of the kernel's configuration): errors on
    /// another configuration's bitmap or another AM's case.
    pub fn run_c(&mut self, k: &TidKernel, tbm: &mut CTidBitmap) -> anyhow::Result<i64> {
        self.scan.run_c(k, tbm)
    }

    /// What [`Case::run`] returns for kernel `k` (Rust or C): the bitmap's digest (one formula
    /// for both bitmaps, [`crate::pg::tidbitmap::tidbitmap_digest`]) mixed with `ntids`, or
    /// the ERROR the bitmap raised.
    pub fn value_with(&mut self, k: &TidKernel, id: &str) -> anyhow::Result<u64> {
        let (digest, n) = match k {
            TidKernel::C(..) => {
                let (tbm, n) = self.c_bitmap(k)?;
                if let Some((_, block, offset)) = tbm.info().error {
                    anyhow::bail!("tid-batch case {} ({id}): the C bitmap raised ERROR: tuple offset out of range: {offset} (block {block})", self.id);
                }
                (tbm.digest(), n)
            }
            _ => {
                let mut tbm = TidBitmap::new(self.work_mem);
                // SAFETY: as in `Scan::run`.
                let n = match *k {
                    TidKernel::Tuples(f) => self.scan.with_reset(|s| unsafe { f(s, &mut tbm) }),
                    TidKernel::Words(f) => self.scan.with_reset(|s| unsafe { f(s, &mut tbm) }),
                    TidKernel::C(..) => unreachable!(),
                };
                if let Some(e) = tbm.error() {
                    anyhow::bail!("tid-batch case {} ({id}): the bitmap raised ERROR: {e}", self.id);
                }
                (tbm.digest(), n)
            }
        };
        Ok(digest ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// The case's id.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The locality of the case's TID stream.
    pub fn locality(&self) -> Locality {
        self.locality
    }

    /// work_mem in bytes.
    pub fn work_mem(&self) -> usize {
        self.work_mem
    }
}

impl Case for TidCase {
    fn describe(&self) -> String {
        let l = &self.locality;
        format!(
            "{}. {} TIDs in {} heap-block runs ({:.1} TIDs a run) over {} distinct heap blocks \
             ({:.1} TIDs a block); {} amgetbitmap call(s), {} index pages; work_mem {} kB \
             (maxentries {})",
            self.what,
            l.tids,
            l.runs,
            l.tids_per_run(),
            l.blocks,
            l.tids as f64 / l.blocks.max(1) as f64,
            self.calls,
            self.index_pages,
            self.work_mem / 1024,
            tbm_calculate_entries(self.work_mem)
        )
    }

    fn items(&self) -> u64 {
        self.locality.tids
    }

    fn run(&mut self, v: &'static Variant) -> anyhow::Result<u64> {
        v.check_runs_on(self.id)?;
        self.value_with(v.spec::<TidKernel>()?, v.id)
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        if v.id == INFO.patched { self.seed_batched } else { None }
    }

    fn extra_metrics(&mut self, v: &'static Variant) -> anyhow::Result<Vec<(String, f64, String)>> {
        let m = |k: &str, val: f64, u: &str| (k.to_string(), val, u.to_string());
        let spec = v.spec::<TidKernel>()?;
        if let TidKernel::C(..) = spec {
            // The C bitmap counts no calls and no peak bytes: its pages and table size only.
            v.check_runs_on(self.id)?;
            let (tbm, _) = self.c_bitmap(spec)?;
            let (exact, lossy) = tbm.heap_blocks();
            return Ok(vec![
                m("pagetable-buckets", tbm.info().size as f64, "buckets"),
                m("bitmap-pages-exact", exact as f64, "pages"),
                m("bitmap-pages-lossy", lossy as f64, "pages"),
            ]);
        }
        let mut tbm = TidBitmap::new(self.work_mem);
        let mut c = Counting { tbm: &mut tbm, calls: 0 };
        let n = self.scan.run(v, &mut c)?;
        let calls = c.calls;
        let (exact, lossy) = tbm.heap_blocks();
        let l = self.locality;
        Ok(vec![
            m("bitmap-peak-bytes", tbm.peak_bytes() as f64, "B"),
            m("work-mem-bytes", self.work_mem as f64, "B"),
            m("bitmap-peak-vs-work-mem", tbm.peak_bytes() as f64 / self.work_mem as f64, "x"),
            m("pagetable-buckets", tbm.pagetable().map_or(0, |p| p.size()) as f64, "buckets"),
            m("bitmap-pages-exact", exact as f64, "pages"),
            m("bitmap-pages-lossy", lossy as f64, "pages"),
            m("tbm-calls-per-tid", calls as f64 / n.max(1) as f64, "calls/TID"),
            m("tids-per-block-run", l.tids_per_run(), "TIDs"),
            m("distinct-heap-blocks", l.blocks as f64, "blocks"),
        ])
    }
}

/// The seed's Bitmap Index Scan ratio patched / master for a case (ms, as the seed's table
/// prints them; the "few" rows of 0.001-0.006 ms are equal at that precision).
fn seed_batched(name: &str) -> Option<f64> {
    Some(match name {
        // The seed's plan read every leaf from the OS page cache (read=27324).
        "btree-many" | "btree-many-miss" => 115.071 / 170.372,
        "gin-many" => 285.198 / 342.281,
        "gist-many" => 758.613 / 827.222,
        "gist-few" => 0.452 / 0.449,
        "hash-many" => 251.802 / 296.819,
        "bloom-many" => 3707.017 / 3743.758,
        "bloom-few" => 42.358 / 43.989,
        "spgist-many" => 518.730 / 572.892,
        // 0.006 -> 0.006, 0.001 -> 0.001, 0.004 -> 0.004, 0.003 -> 0.003.
        "btree-few" | "gin-few" | "hash-few" | "spgist-few" => 1.0,
        _ => return None,
    })
}

/// Case `spec` of the catalogue at `rows` rows: only its own index and TID stream are built.
pub fn case_at_rows(spec: &'static CaseSpec, rows: u64) -> anyhow::Result<TidCase> {
    let id = spec.id;
    let keys = few_keys(rows);
    let all = || -> Vec<u64> { (0..rows).collect() };
    let wm = DEFAULT_WORK_MEM_BYTES;
    let new = |what: String, scan: Scan, work_mem: usize, stream: Vec<ItemPointer>| {
        Ok(TidCase::new(id, what, scan, work_mem, stream, seed_batched(id)))
    };
    let per_call = |items: Vec<ScanItem>| {
        let pages: Vec<Vec<ScanItem>> = items.iter().map(|&i| vec![i]).collect();
        let n = pages.len() as u32;
        PagedIndex::new(&pages, (0..n).map(|c| c..c + 1).collect())
    };
    let one_a_page = |items: Vec<ScanItem>| PagedIndex::chunked(&items, 1);
    let btree = || Rc::new(table3_col0_index(rows));
    let w = grid_width(rows);
    let tile = (SPGIST_TILE * SPGIST_TILE) as usize;
    match id {
        "btree-many" => {
            let rel = btree();
            let leaves = rel.leaves.len();
            new(
                format!("btree-many: `col0 < {rows}` on idx_table3_col0 ({leaves} leaves): heap order"),
                Scan::Btree(BtreeScan::new(rel, vec![])),
                wm,
                tids(&all()),
            )
        }
        "btree-many-miss" => {
            let rel = btree();
            let leaves = rel.leaves.len();
            new(
                format!("btree-many-miss: btree-many ({leaves} leaves) with every page a shared-buffer miss: {OS_CACHE_NBUFFERS} buffers, clock sweep, pread of each block from the index file in the OS page cache"),
                Scan::Btree(miss_scan(rel)?),
                wm,
                tids(&all()),
            )
        }
        "btree-few" => new(
            "btree-few: `col0 = ANY(ten widely spaced keys)`: ten primitive scans in one btgetbitmap call, one TID each (seed's BIS 1.00x; a reviewer's +0.85% on the query)".into(),
            Scan::Btree(BtreeScan::new(btree(), keys.iter().map(|&k| k as i64).collect())),
            wm,
            tids(&keys),
        ),
        "btree-lossy" => new(
            format!("btree-lossy: btree-many at work_mem 2 MB x {rows} / 10M (where the seed's bitmap goes lossy)"),
            Scan::Btree(BtreeScan::new(btree(), vec![])),
            lossy_work_mem(rows).max(1024),
            tids(&all()),
        ),
        "hash-many" => {
            let hash = hash_order(rows);
            new(
                format!("hash-many: bucket order, {HASH_TUPLES_PER_PAGE} TIDs a bucket page, recheck"),
                Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&hash, |_| true), HASH_TUPLES_PER_PAGE))),
                wm,
                tids(&hash),
            )
        }
        "hash-few" => new(
            "hash-few: ten keys, ten hashgetbitmap calls of one TID (no amsearcharray), recheck".into(),
            Scan::Paged(PagedScan::new(per_call(items(&keys, |_| true)))),
            wm,
            tids(&keys),
        ),
        "gin-many" => new(
            format!("gin-many: one posting tree in TID order, {GIN_LEAF_TIDS} TIDs a leaf"),
            Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&all(), |_| false), GIN_LEAF_TIDS))),
            wm,
            tids(&all()),
        ),
        "gin-few" => new(
            "gin-few: one 10-TID posting list".into(),
            Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&keys, |_| false), GIN_LEAF_TIDS))),
            wm,
            tids(&keys),
        ),
        "gin-mixed" => new(
            format!("gin-mixed: gin-many with a third of the TIDs recheck, interleaved ({GIN_LEAF_TIDS} TIDs a leaf)"),
            Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&all(), |g| mix64(g ^ 0x61e).is_multiple_of(3)), GIN_LEAF_TIDS))),
            wm,
            tids(&all()),
        ),
        "gist-many" => {
            let gist = gist_order(0..rows, rows);
            new(
                format!("gist-many: points (col0 % {w}, col0 / {w}) in Z-order, {GIST_LEAF_POINTS} a leaf"),
                Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&gist, |_| false), GIST_LEAF_POINTS))),
                wm,
                tids(&gist),
            )
        }
        "gist-few" => {
            let gist_few = gist_order(keys.iter().copied(), rows);
            new(
                "gist-few: ten points, each on its own leaf".into(),
                Scan::Paged(PagedScan::new(one_a_page(items(&gist_few, |_| false)))),
                wm,
                tids(&gist_few),
            )
        }
        "spgist-many" => {
            let spg = spgist_order(0..rows, rows);
            new(
                format!("spgist-many: the same points, {SPGIST_TILE}x{SPGIST_TILE} quad-tree leaves in quadrant order, heap order within a leaf"),
                Scan::Paged(PagedScan::new(PagedIndex::chunked(&items(&spg, |_| false), tile))),
                wm,
                tids(&spg),
            )
        }
        "spgist-few" => {
            let spg_few = spgist_order(keys.iter().copied(), rows);
            new(
                "spgist-few: ten points, each on its own leaf".into(),
                Scan::Paged(PagedScan::new(one_a_page(items(&spg_few, |_| false)))),
                wm,
                tids(&spg_few),
            )
        }
        "bloom-many" => {
            let bloom_many: Vec<u64> = (0..rows).filter(|&g| bloom_many_match(g)).collect();
            new(
                format!("bloom-many: full scan of {rows} bloom tuples ({BLOOM_TUPLES_PER_PAGE} a page), signature matches 1 row in 8, recheck"),
                Scan::Bloom(BloomScan::new(bloom_tuples(rows, bloom_many_match), BLOOM_QUERY)),
                wm,
                tids(&bloom_many),
            )
        }
        "bloom-few" => {
            let few_set: std::collections::BTreeSet<u64> = keys.iter().copied().collect();
            new(
                format!("bloom-few: full scan of {rows} bloom tuples matching ten rows, recheck"),
                Scan::Bloom(BloomScan::new(bloom_tuples(rows, |g| few_set.contains(&g)), BLOOM_QUERY)),
                wm,
                tids(&keys),
            )
        }
        other => anyhow::bail!("tid-batch has no case `{other}`"),
    }
}

/// Every case of the catalogue at `rows` rows (tests: the equivalence run over all of them).
pub fn cases_at_rows(rows: u64) -> anyhow::Result<Vec<TidCase>> {
    CASES.iter().map(|c| case_at_rows(c, rows)).collect()
}

impl Study for TidBatch {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> anyhow::Result<Box<dyn Case>> {
        Ok(Box::new(case_at_rows(case, rows_at(size))?))
    }
}

/// The pipeline: build `case`'s bitmap with the variant this build selects
/// (`tid-batch/batched` with `--features batch-tids`, else `tid-batch/per-tid`).
pub fn pipeline(case: &mut TidCase) -> anyhow::Result<TidBitmap> {
    Ok(case.bitmap(INFO.pipeline_variant())?.0)
}

/// The study's description and rows.
pub fn info() -> &'static StudyInfo {
    &INFO
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pg::nbtree::{BTree, KeyType};
    use crate::pg::workload::heap_tid;

    #[test]
    fn orders_are_permutations_with_the_stated_locality() {
        let rows = 20_000;
        for (name, order) in [("hash", hash_order(rows)), ("gist", gist_order(0..rows, rows)), ("spgist", spgist_order(0..rows, rows))] {
            let mut s = order.clone();
            s.sort_unstable();
            assert_eq!(s, (0..rows).collect::<Vec<_>>(), "{name}");
            let l = Locality::of(tids(&order));
            assert_eq!(l.blocks, rows.div_ceil(185));
            match name {
                "hash" => assert!(l.tids_per_run() < 1.1, "{name} {l:?}"),
                "gist" => assert!((1.5..3.0).contains(&l.tids_per_run()), "{name} {l:?}"),
                _ => assert!((6.0..8.1).contains(&l.tids_per_run()), "{name} {l:?}"),
            }
        }
        let b: Vec<u64> = (0..rows).filter(|&g| bloom_many_match(g)).collect();
        let l = Locality::of(tids(&b));
        assert!((18.0..28.0).contains(&l.tids_per_run()), "{l:?}");
    }

    #[test]
    fn bloom_signatures_match_exactly_the_chosen_rows() {
        let rows = 5_000;
        let s = BloomScan::new(bloom_tuples(rows, bloom_many_match), BLOOM_QUERY);
        let want: Vec<ItemPointer> = tids(&(0..rows).filter(|&g| bloom_many_match(g)).collect::<Vec<_>>());
        assert_eq!(s.matches(), want);
    }

    /// `= ANY(present keys, absent keys)`, each given twice (once reversed): the primitive
    /// scans must return exactly the present keys' TIDs in key order, each from the leaf its
    /// descent path ends at, keep only the leaf pinned (unlocked) while its items are
    /// consumed, return every pin and lock, and free every `BTStack` entry.
    fn check_descent(rel: Rc<BTree>, present: &[(i64, ItemPointer)], absent: &[i64]) {
        let keys: Vec<i64> = present.iter().map(|e| e.0).chain(absent.iter().copied()).collect();
        let mut twice = keys.clone();
        twice.extend(keys.iter().rev());
        let mut bs = BtreeScan::new(rel.clone(), twice);
        let mut want = present.to_vec();
        want.sort_unstable();
        want.dedup();
        let mut elems = keys.clone();
        elems.sort_unstable();
        elems.dedup();
        assert!(bs.array_elems().is_empty(), "the array is preprocessed at the first _bt_first, not before");
        for _ in 0..2 {
            bs.reset();
            let old = memory_context_switch_to(bs.cxt.as_ptr());
            let p: *mut BtreeScan = &mut *bs;
            let mut got = Vec::new();
            let mut descents = 0usize;
            // SAFETY: p is live and reset; its context is current.
            unsafe {
                loop {
                    descents += 1;
                    if bt_first(p) {
                        let pos = &(*p).so.curr_pos;
                        for i in pos.first_item..=pos.last_item {
                            got.push((pos.items[i as usize].heap_tid, pos.curr_page));
                        }
                        assert_eq!((*p).bufmgr().held(), (1, 1, 0, 1));
                        assert!(!bt_steppage_buf(p));
                    }
                    assert_eq!((*p).bufmgr().held(), (0, 0, 0, 0));
                    if !bt_start_prim_scan(p) {
                        break;
                    }
                }
            }
            memory_context_switch_to(old);
            assert_eq!(bs.array_elems(), elems, "sorted and deduplicated at each btrescan's first _bt_first");
            let want_tids: Vec<ItemPointer> = want.iter().map(|e| e.1).collect();
            assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), want_tids);
            for (g, e) in got.iter().zip(&want) {
                assert_eq!(g.1, *rel.descent_path(e.0).last().unwrap(), "{}", e.0);
            }
            assert!(descents <= elems.len().max(1), "{descents} descents for {} elements", elems.len());
            if !rel.leaves.is_empty() {
                assert_eq!(bs.nsearches().0 as usize % descents, 0);
            }
            // Every BTStack entry went back to the 16-byte free list.
            let st = bs.memory_context().stats();
            assert_eq!(st.dedicated_blocks, 0);
            assert!(st.free_chunks[1] <= rel.root_level as usize);
        }
    }

    #[test]
    fn btree_descent_finds_each_key() {
        // Even keys only: odd keys are absent, some of them between two leaves.
        let build = |n: i64, per: usize| {
            let entries: Vec<(i64, ItemPointer)> = (0..n).map(|g| (2 * g, heap_tid(g as u64, 185))).collect();
            let sizes = crate::pg::workload::leaf_sizes(entries.len(), per);
            (Rc::new(BTree::build(KeyType::Int8, &entries, &sizes)), entries)
        };
        // One leaf (the root), one internal level (the root above 10 leaves), two internal
        // levels (600 leaves of 2 keys: 3 level-1 pages under the root).
        for (n, per, levels) in [(50i64, 366usize, 0u32), (3_000, 366, 1), (1_200, 2, 2)] {
            let (rel, entries) = build(n, per);
            assert_eq!(rel.root_level, levels, "{n}/{per}");
            let mut present = vec![entries[0], *entries.last().unwrap()];
            // Each leaf's first and last key, and a sample in between.
            for (i, leaf) in rel.leaves.iter().enumerate() {
                let first = BTree::first_data_key(leaf) as usize - 1;
                let at = i * per;
                present.push(entries[at]);
                present.push(entries[at + leaf.max_offset() as usize - 1 - first]);
            }
            present.extend(entries.iter().step_by(37).copied());
            let last = entries.last().unwrap().0;
            let mut absent = vec![-1, 1, last + 1, last + 2, i64::MIN, i64::MAX];
            // Between two leaves: one past each leaf's last key.
            absent.extend(present.iter().map(|e| e.0 + 1));
            check_descent(rel, &present, &absent);
        }
        // The full-size shape at 20k rows.
        let rel = Rc::new(table3_col0_index(20_000));
        let present: Vec<_> = [0i64, 1, 365, 366, 9_999, 19_999].iter().map(|&k| (k, heap_tid(k as u64, 185))).collect();
        check_descent(rel, &present, &[20_000, -1]);
        // No leaves at all, and one empty leaf.
        check_descent(Rc::new(BTree::build(KeyType::Int8, &[], &[])), &[], &[0]);
        check_descent(Rc::new(BTree::build(KeyType::Int8, &[], &[0])), &[], &[0]);
    }

    #[test]
    fn btree_few_is_ten_primitive_scans_of_one_tid() {
        let rows = 20_000;
        let mut c = case_at_rows(INFO.case("btree-few").unwrap(), rows).unwrap();
        let (_, n) = c.bitmap(&INFO.variants[0]).unwrap();
        assert_eq!(n, 10);
        let Scan::Btree(b) = &c.scan else { unreachable!() };
        let (nsearches, numscans) = b.nsearches();
        assert_eq!((nsearches, numscans), (10, 10));
        // One BTStack entry per internal level, palloc'd and pfree'd per descent: after the
        // run they sit on the 16-byte free list and the context has not grown.
        let levels = b.rel.root_level as usize;
        let st = b.memory_context().stats();
        assert_eq!(st.free_chunks[1], levels);
        let mem = st.mem_allocated;
        c.bitmap(&INFO.variants[1]).unwrap();
        c.bitmap(&INFO.variants[2]).unwrap();
        let Scan::Btree(b) = &c.scan else { unreachable!() };
        assert_eq!(b.memory_context().stats().mem_allocated, mem);
        assert_eq!(b.nsearches(), (30, 30));
    }

    #[test]
    fn btree_array_keys_agree_across_variants() {
        // Duplicates, absent keys, the first and last rows, keys at leaf boundaries.
        let rows = 20_000u64;
        let rel = Rc::new(table3_col0_index(rows));
        let mut keys: Vec<i64> = vec![19_999, 0, 365, 366, 367, 5_000, 5_000, -5, 20_000, i64::MAX, 731, 732, 1, 2, 3];
        keys.extend(few_keys(rows).iter().map(|&k| k as i64));
        keys.extend(few_keys(rows).iter().rev().map(|&k| k as i64));
        let mut present: Vec<u64> = keys.iter().filter(|&&k| (0..rows as i64).contains(&k)).map(|&k| k as u64).collect();
        present.sort_unstable();
        present.dedup();
        let mut c = TidCase::new(
            "btree-array",
            "array keys".into(),
            Scan::Btree(BtreeScan::new(rel, keys)),
            DEFAULT_WORK_MEM_BYTES,
            tids(&present),
            None,
        );
        let (b0, n0) = c.bitmap(&INFO.variants[0]).unwrap();
        assert_eq!(n0 as usize, present.len());
        for v in 1..3 {
            let (b, n) = c.bitmap(&INFO.variants[v]).unwrap();
            assert_eq!(n, n0);
            assert_eq!(b.iterate(), b0.iterate());
        }
        let Scan::Btree(b) = &c.scan else { unreachable!() };
        assert_eq!(b.bufmgr().held(), (0, 0, 0, 0));
    }

    #[test]
    fn every_scan_returns_its_pins() {
        for mut c in cases_at_rows(20_000).unwrap() {
            for v in 0..3 {
                c.bitmap(&INFO.variants[v]).unwrap();
                if let Scan::Btree(b) = &c.scan {
                    assert_eq!(b.bufmgr().held(), (0, 0, 0, 0), "{} v{v}", c.id);
                    // Through shared buffers: hits, or in the miss case only reads.
                    let (hit, read) = (b.bufmgr().shared_blks_hit, b.bufmgr().shared_blks_read);
                    assert!(if c.id == "btree-many-miss" { hit == 0 && read > 0 } else { hit > 0 && read == 0 }, "{} v{v}: hit {hit} read {read}", c.id);
                }
            }
        }
    }

    #[test]
    fn every_case_agrees_across_variants() {
        for mut c in cases_at_rows(20_000).unwrap() {
            let (b0, n0) = c.bitmap(&INFO.variants[0]).unwrap();
            assert_eq!(n0 as u64, c.locality().tids, "{}", c.id);
            b0.check_invariants().unwrap();
            for v in 1..3 {
                let (b, n) = c.bitmap(&INFO.variants[v]).unwrap();
                assert_eq!(n, n0, "{} v{v}", c.id);
                assert_eq!(b.iterate(), b0.iterate(), "{} v{v}", c.id);
                assert_eq!(b.digest(), b0.digest(), "{} v{v}", c.id);
                assert!(b.error().is_none());
            }
            assert_eq!(c.run(&INFO.variants[0]).unwrap(), c.run(&INFO.variants[2]).unwrap());
        }
    }
}

