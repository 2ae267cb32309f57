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
//!   wait on the leaves streaming in from memory (on the project's VM, 1.9 ns a TID when the
//!   index fits in cache), so its B-tree kernel also prefetches the right sibling into L2
//!   before each span ([`prefetch_leaf`]). At 10M rows, paired against `per-tid` in one
//!   process (`hotloops paired tid-batch --case-index 0 --a 0 --b 2 --size full`), `runs`
//!   takes 3.98 ns a TID with the prefetch (0.292 of `per-tid`'s 13.6 ns) and 4.73 ns
//!   without it (0.343; comment out the `prefetch_leaf` call): coalescing alone is 2.9x,
//!   the prefetch takes it past 3x.
//!
//! **Finding: btree-few does not regress; one process cannot tell.** With the descent modelled
//! (about 470 ns a key here; PostgreSQL's node is ~600), `batched` is 0.9945 [0.9872, 0.9969]
//! of `per-tid` pooled over 5 processes (1M rows, the same three-level tree), about 21 fewer
//! instructions a TID. Single processes at 10M rows ranged from 0.965 to 1.008: a new process's
//! heap and code layout moves this ratio by more than batching does, so a reviewer's +0.85%
//! from one build is within what one process shows, and outside the pooled interval.
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
//!   is read without (`bt_first_all`). The seed's run missed shared buffers (read=27324): the
//!   miss path is not modelled, so each page costs a hit here.
//!   **btree-few**: `col0 = ANY(10 widely spaced keys)`: ten primitive scans in one
//!   `btgetbitmap` call, each a descent returning one TID. The descent is PostgreSQL's
//!   (`_bt_search`, [`crate::pg::nbtsearch`]): root, internal page and leaf (3 buffers a key,
//!   30 for the ten: §8b; the sorted build gives 27,323 leaves under 97 internal pages and a
//!   root at 10M rows), each read through `ReadBuffer` (tag hash, partition LWLock, mapping
//!   table lookup, pin CAS, resource owner) and share-locked; `_bt_moveright` checks each
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
//!   the "Index Searches" count and `PredicateLockPage`'s early return. The array is sorted
//!   and deduplicated once at setup (PostgreSQL does it at the first `_bt_first` after each
//!   `btrescan`: not in the measured run). Where PostgreSQL would carry a primitive scan onto
//!   the right sibling (the next element is the sibling's first key), the model descends
//!   again instead (same TIDs; never on btree-few's path). Not modelled: the look-ahead skip
//!   and `_bt_set_startikey` (no effect with one match a leaf), `PredicateLockPage` on pages
//!   stepped to, scan-key preprocessing itself, and the executor around `btgetbitmap`.
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

use crate::pg::ItemPointer;
use crate::pg::itemptr::INVALID_BLOCK_NUMBER;
use crate::pg::bufmgr::{BufMgr, Buffer, DEFAULT_NBUFFERS, INVALID_BUFFER, RelFileLocator, buffer_get_page, release_buffer};
use crate::pg::fmgr::{F_BTINT4CMP, F_BTINT8CMP, F_INT4EQ, F_INT8EQ, FmgrInfo, btint4cmp, btint8cmp, int4eq, int8eq};
use crate::pg::mcxt::{AllocSet, MallocBackend, memory_context_switch_to};
use crate::pg::nbtreadpage::{BTScanKeys, NbtScan, bt_more_right, bt_preprocess_keys, bt_readpage, bt_start_array_keys};
use crate::pg::pgstat::{PgStatTableStatus, pgstat_count_index_scan};
use crate::pg::nbtree::{
    BTScanOpaque, BTScanPos, BTScanPosItem, BTree, IndexScanDesc, KeyType, MAX_TIDS_PER_BTREE_PAGE, P_NONE,
    ScanDirection, bt_first_all, bt_readpage_all,
};
use crate::pg::nbtsearch::{
    BTMetaCache, BTScanInsertData, CompactAttribute, IndexRel, ScanKeyData, bt_binsrch, bt_freestack, bt_getbuf,
    bt_relbuf, bt_search, bt_unlockbuf, not_modelled,
};
use crate::pg::page::{BLCKSZ, Page, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{
    DEFAULT_WORK_MEM_BYTES, TBM_MAX_TUPLES_PER_PAGE, TidBitmap, TidRunSink, TidWord, tbm_calculate_entries,
};
use crate::pg::workload::{TABLE3_ROWS, TABLE3_TUPLES_PER_PAGE, heap_tid, table3_col0_index};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};
use std::mem::MaybeUninit;
use std::ops::Range;
use std::rc::Rc;

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
    ],
    cases: &CASES,
};

/// The case catalogue: each AM's many-TID scan, its ten-key scan, and the edges.
static CASES: [CaseSpec; 14] = [
    CaseSpec { id: "btree-many", summary: "`col0 < rows` on idx_table3_col0: every TID in heap order (seed: 1.48x)" },
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
}

impl Kernel for TidKernel {
    fn entry(&self) -> usize {
        match self {
            TidKernel::Tuples(f) => *f as usize,
            TidKernel::Words(f) => *f as usize,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What the AMs hand over.

/// One matching index entry of a paged AM: a heap TID and the recheck flag its consistent
/// function returned (8 bytes, as `HashScanPosItem`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanItem {
    /// Heap TID.
    pub heap_tid: ItemPointer,
    /// Recheck this TID.
    pub recheck: bool,
    _pad: u8,
}
const _: () = assert!(size_of::<ScanItem>() == 8);

impl ScanItem {
    /// An item.
    pub const fn new(heap_tid: ItemPointer, recheck: bool) -> Self {
        Self { heap_tid, recheck, _pad: 0 }
    }
}

// ---------------------------------------------------------------------------------------------
// B-tree: btgetbitmap over the nbtree model.

/// `pg_default`'s tablespace, the `postgres` database, and relfilenumbers for table3 and its
/// index (any distinct values: they only feed the buffer tags).
const TABLE3_LOCATOR: RelFileLocator = RelFileLocator { spc_oid: 1663, db_oid: 5, rel_number: 16_384 };
const INDEX_LOCATOR: RelFileLocator = RelFileLocator { spc_oid: 1663, db_oid: 5, rel_number: 16_390 };

/// `IndexScanInstrumentation`: what EXPLAIN ANALYZE prints as "Index Searches".
#[derive(Clone, Copy, Debug, Default)]
pub struct IndexScanInstrumentation {
    /// `nsearches`: primitive scans (descents) so far.
    pub nsearches: u64,
}

/// A B-tree bitmap scan: the scan descriptor, its `BTScanOpaqueData`, the array keys, and
/// what the backend brings to it: shared buffers holding the index pages the scan reads,
/// the relcache's view of the index and its ORDER proc, the query's memory context.
pub struct BtreeScan {
    desc: IndexScanDesc,
    so: Box<BTScanOpaque>,
    rel: Rc<BTree>,
    /// `col0 = ANY(keys)` as written (unsorted, maybe with duplicates); empty: `col0 < rows`
    /// (every leaf).
    keys: Vec<i64>,
    /// The preprocessed `= ANY` key: sorted, deduplicated array (None for `col0 < rows`).
    skeys: Option<Box<BTScanKeys>>,
    /// `scan` as nbtreadpage.c's functions see it (points into this box).
    nbt: NbtScan,
    /// `scan->xs_heaptid`, written by `_bt_returnitem`.
    xs_heaptid: ItemPointer,
    /// `scan->instrument`.
    instrument: Option<Box<IndexScanInstrumentation>>,
    /// `rel->pgstat_info`'s target.
    pgstat: Box<PgStatTableStatus>,
    /// The per-query context (`ExecutorState`) current while the scan runs: `_bt_search`'s
    /// `BTStack` entries come from it.
    cxt: AllocSet,
    /// Shared buffers (and this backend's pins and locks).
    bufmgr: Box<BufMgr>,
    /// The index relation as the descent sees it.
    irel: IndexRel,
    /// `index_getprocinfo(rel, 1, BTORDER_PROC)`: btint8cmp / btint4cmp.
    orderproc: FmgrInfo,
}

impl BtreeScan {
    /// A scan of `rel`, all rows (`keys` empty) or `= ANY(keys)`. Shared buffers (16,384, or
    /// more when the scan reads more index pages than that) hold the pages the scan reads (for
    /// keyed scans the root-to-leaf path of each key; else every page), the rest is filled
    /// with table3's heap blocks so the mapping table is as full as on a warm server.
    pub fn new(rel: Rc<BTree>, keys: Vec<i64>) -> Box<BtreeScan> {
        let (so, _) = BTScanOpaque::new_boxed(&[]);
        let mut blocks: Vec<u32> = if keys.is_empty() {
            (1..rel.nblocks() as u32).collect()
        } else {
            keys.iter().flat_map(|&k| rel.descent_path(k)).collect()
        };
        blocks.sort_unstable();
        blocks.dedup();
        let mut bufmgr = BufMgr::new(DEFAULT_NBUFFERS.max(blocks.len()));
        for &b in &blocks {
            let page: *const Page = rel.block_page(b).expect("a block of the index");
            bufmgr.map(INDEX_LOCATOR.tag(b), page).expect("the pool is sized to hold the scan's pages");
        }
        for b in 0..(bufmgr.nbuffers() - bufmgr.nmapped()) as u32 {
            bufmgr.map(TABLE3_LOCATOR.tag(b), std::ptr::null()).expect("free buffers remain");
        }
        let (attlen, orderproc, eqproc) = match rel.key {
            KeyType::Int8 => (8, FmgrInfo::builtin(btint8cmp, F_BTINT8CMP), FmgrInfo::builtin(int8eq, F_INT8EQ)),
            KeyType::Int4 => (4, FmgrInfo::builtin(btint4cmp, F_BTINT4CMP), FmgrInfo::builtin(int4eq, F_INT4EQ)),
        };
        let mut pgstat = Box::<PgStatTableStatus>::default();
        let irel = IndexRel {
            pgstat_info: &mut *pgstat,
            locator: INDEX_LOCATOR,
            natts: 1,
            nkeyatts: 1,
            att: CompactAttribute { attcacheoff: 0, attlen, attbyval: true },
            metad: (rel.root != 0).then_some(BTMetaCache { fastroot: rel.root, fastlevel: rel.root_level }),
        };
        // _bt_preprocess_array_keys sorts and deduplicates the array at the first _bt_first
        // of each btrescan; done once here, outside the measured runs.
        let skeys = (!keys.is_empty())
            .then(|| BTScanKeys::new(&keys.iter().map(|&k| k as usize).collect::<Vec<_>>(), eqproc, orderproc));
        let mut bs = Box::new(BtreeScan {
            desc: IndexScanDesc { number_of_keys: 1, key_data: std::ptr::null(), ..*IndexScanDesc::new(&rel, &[]) },
            so,
            rel,
            keys,
            skeys,
            nbt: NbtScan { so: std::ptr::null_mut(), keys: std::ptr::null_mut(), rel: std::ptr::null() },
            xs_heaptid: ItemPointer::default(),
            instrument: Some(Box::default()),
            pgstat,
            cxt: AllocSet::with_default_sizes("ExecutorState", MallocBackend::Libc),
            bufmgr,
            irel,
            orderproc,
        });
        bs.desc.opaque = &mut *bs.so;
        let keys_ptr = bs.skeys.as_deref_mut().map_or(std::ptr::null_mut(), |k| k as *mut BTScanKeys);
        bs.nbt = NbtScan { so: &mut *bs.so, keys: keys_ptr, rel: &bs.irel };
        if let Some(k) = bs.skeys.as_deref_mut() {
            // One array key; so->arrayKeys and so->orderProcs live with the keys.
            bs.so.num_array_keys = 1;
            bs.so.array_keys = k.array_keys.as_mut_ptr().cast();
            bs.so.order_procs = k.order_procs.as_mut_ptr().cast();
        }
        bs
    }

    /// `btrescan`: drop a pin a previous scan left (none after a complete scan), invalidate,
    /// and reset the array-key state (`numberOfKeys = 0` makes the first `_bt_first` rerun
    /// preprocessing; here that only republishes the keys sorted at setup).
    fn reset(&mut self) {
        self.so.need_prim_scan = false;
        self.so.scan_behind = false;
        self.so.opposite_dir_check = false;
        self.so.number_of_keys = 0;
        if self.so.curr_pos.buf != INVALID_BUFFER {
            // SAFETY: the pin is this scan's.
            unsafe { release_buffer(&mut *self.bufmgr, self.so.curr_pos.buf) };
        }
        invalidate(&mut self.so.curr_pos);
    }

    /// The scan's shared buffers.
    pub fn bufmgr(&self) -> &BufMgr {
        &self.bufmgr
    }

    /// The `= ANY` array after preprocessing (sorted, deduplicated); empty for `col0 < rows`.
    pub fn array_elems(&self) -> Vec<i64> {
        self.skeys.as_ref().map_or(Vec::new(), |k| k.elems().iter().map(|&d| d as i64).collect())
    }

    /// Primitive scans (descents) and `pgstat` index scans counted so far.
    pub fn nsearches(&self) -> (u64, i64) {
        (self.instrument.as_ref().map_or(0, |i| i.nsearches), self.pgstat.counts.numscans)
    }

    /// The scan's memory context.
    pub fn memory_context(&self) -> &AllocSet {
        &self.cxt
    }
}

/// `BTScanPosInvalidate`: the header fields only. (Assigning a fresh `BTScanPos` would also
/// write its 13.6 KB item array, which PostgreSQL never does.)
fn invalidate(pos: &mut BTScanPos) {
    pos.buf = 0;
    pos.curr_page = INVALID_BLOCK_NUMBER;
    pos.next_page = INVALID_BLOCK_NUMBER;
    pos.first_item = 0;
    pos.last_item = -1;
    pos.item_index = 0;
}

/// `_bt_first` for `col0 = ANY(array)`, one primitive scan: `_bt_preprocess_keys` (keys
/// already output), the array to its first element on the scan's first call
/// (`_bt_start_array_keys`), `pgstat_count_index_scan` and the "Index Searches" count, the
/// insertion scan key from the current element with the ORDER proc's `FmgrInfo` copied
/// (`ScanKeyEntryInitializeWithInfo`), `_bt_search` from the root through shared buffers to the
/// leaf (its `BTStack` freed by `_bt_freestack`), `_bt_binsrch` the leaf, then
/// `_bt_readfirstpage` -> [`bt_readpage`]: `_bt_checkkeys` from that offset saves the matching
/// items and, on the first tuple past them, advances the array and ends the page, scheduling
/// the next primitive scan (`needPrimScan`) when the next element is beyond the page's high
/// key. A bitmap scan keeps the leaf's pin and drops its lock (`_bt_drop_lock_and_maybe_pin`:
/// no heap relation, so `dropPin` is false); the pin goes at the step that ends the primitive
/// scan. With no match, `_bt_readfirstpage` unlocks and `_bt_steppage` unpins at once.
///
/// One departure: where PostgreSQL would carry the primitive scan onto the right sibling (the
/// next element equals the page's high key, i.e. the sibling's first key), it schedules a new
/// primitive scan instead, which descends to that sibling: `bt_steppage_buf` reads whole pages
/// for btree-many and is shared by every variant. Same TIDs, one more descent; never taken by
/// btree-few's widely spaced keys.
fn bt_first_eq(bs: &mut BtreeScan) -> bool {
    let scan = bs.nbt;
    // SAFETY: desc.opaque is bs.so; nbt points into bs; skeys is set for a keyed scan.
    let so = unsafe { &mut *bs.desc.opaque };
    invalidate(&mut so.curr_pos);
    let bm: *mut BufMgr = &mut *bs.bufmgr;
    // SAFETY: bm holds every page on each element's path (BtreeScan::new); the caller made
    // the scan's memory context current.
    unsafe {
        bt_preprocess_keys(&scan);
        if so.num_array_keys != 0 && !so.need_prim_scan {
            bt_start_array_keys(&scan, ScanDirection::Forward);
        }
        pgstat_count_index_scan(bs.irel.pgstat_info);
        if let Some(instr) = bs.instrument.as_deref_mut() {
            instr.nsearches += 1;
        }
        let skey = &(*scan.keys).key_data[0];
        let inskey = BTScanInsertData {
            heapkeyspace: true,
            allequalimage: true,
            anynullkeys: false,
            nextkey: false,
            backward: false,
            scantid: std::ptr::null(),
            keysz: 1,
            scankeys: [ScanKeyData {
                sk_flags: 0,
                sk_attno: 1,
                sk_strategy: 0,
                sk_subtype: 0,
                sk_collation: skey.sk_collation,
                sk_func: bs.orderproc,
                sk_argument: skey.sk_argument,
            }],
        };
        let mut buf = INVALID_BUFFER;
        let stack = bt_search(bm, &bs.irel, &inskey, &mut buf);
        bt_freestack(stack);
        if buf == INVALID_BUFFER {
            // An empty index: _bt_checkkeys never ran, so no primitive scan is scheduled.
            return false;
        }
        so.curr_pos.buf = buf;
        let page = buffer_get_page(bm, buf);
        let offnum = bt_binsrch(&bs.irel, &inskey, page);

        // _bt_readfirstpage.
        so.num_killed = 0;
        so.mark_item_index = -1;
        if so.need_prim_scan {
            so.curr_pos.more_left = true;
            so.curr_pos.more_right = true;
            so.need_prim_scan = false;
        } else {
            so.curr_pos.more_left = false;
            so.curr_pos.more_right = true;
        }
        let elem_before = (*scan.keys).array_keys[0].cur_elem;
        let found = bt_readpage(bm, &scan, offnum, true);
        if bt_more_right(&scan) != P_NONE {
            // The departure above: only an advanced array continues on the sibling here (a
            // key whose duplicates span leaves would need the sibling read with the old one).
            if (*scan.keys).array_keys[0].cur_elem == elem_before {
                not_modelled("equal keys spanning leaves (a keyed step to the right sibling)");
            }
            so.need_prim_scan = true;
        }
        // moreRight is now false, which bt_steppage_buf reads from nextPage = P_NONE.
        so.curr_pos.next_page = P_NONE;
        bt_unlockbuf(bm, buf);
        if found {
            return true;
        }
        // _bt_steppage: BTScanPosUnpinIfPinned, then _bt_readnextpage finds moreRight false.
        release_buffer(bm, buf);
        so.curr_pos.buf = INVALID_BUFFER;
        false
    }
}

/// `_bt_steppage` -> `_bt_readnextpage` for tid-batch's forward bitmap scans, through shared
/// buffers: unpin the page just read (`BTScanPosUnpinIfPinned`), then for each right sibling
/// `_bt_getbuf` (ReadBuffer + share lock), `_bt_readpage` (here [`bt_readpage_all`]), and on
/// success drop the lock and keep the pin; an empty page is released (`_bt_relbuf`) and
/// skipped. False at the end. The same for every variant; out of line, like
/// `crate::pg::nbtree::bt_steppage` (which the other studies keep, without a buffer manager).
/// btree-many's first leaf comes from `bt_first_all` without a pin, so there is none to drop.
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`].
#[inline(never)]
unsafe fn bt_steppage_buf(bs: *mut BtreeScan) -> bool {
    unsafe {
        let bs = &mut *bs;
        let so = &mut *bs.desc.opaque;
        let bm: *mut BufMgr = &mut *bs.bufmgr;
        let rel: &BTree = &bs.rel;
        let old: Buffer = so.curr_pos.buf;
        if old != INVALID_BUFFER {
            release_buffer(bm, old);
            so.curr_pos.buf = INVALID_BUFFER;
        }
        loop {
            let next = so.curr_pos.next_page;
            if next == 0 || next == INVALID_BLOCK_NUMBER {
                return false;
            }
            let buf = bt_getbuf(bm, &bs.irel, next);
            if bt_readpage_all(so, rel, next) {
                so.curr_pos.buf = buf;
                bt_unlockbuf(bm, buf);
                return true;
            }
            bt_relbuf(bm, buf);
        }
    }
}

/// `_bt_first` (+ `_bt_returnitem`): position the next primitive scan. Out of line.
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`].
#[inline(never)]
unsafe fn bt_first(bs: *mut BtreeScan) -> bool {
    unsafe {
        let bs = &mut *bs;
        let so = &mut *bs.desc.opaque;
        let found = if bs.keys.is_empty() { bt_first_all(so, &bs.rel) } else { bt_first_eq(bs) };
        if found {
            bs.xs_heaptid = so.curr_pos.items[so.curr_pos.item_index as usize].heap_tid;
        }
        found
    }
}

/// `_bt_next` once the page is exhausted: step right (`_bt_steppage`), `_bt_returnitem`.
///
/// # Safety
/// As [`bt_first`].
#[inline(never)]
unsafe fn bt_next(bs: *mut BtreeScan) -> bool {
    unsafe {
        if !bt_steppage_buf(bs) {
            return false;
        }
        let bs = &mut *bs;
        let so = &*bs.desc.opaque;
        bs.xs_heaptid = so.curr_pos.items[so.curr_pos.item_index as usize].heap_tid;
        true
    }
}

/// `so->numArrayKeys && _bt_start_prim_scan(scan)`: did `_bt_checkkeys` schedule another
/// primitive scan (`needPrimScan`)? The array's position then gives `_bt_first` its key.
///
/// # Safety
/// As [`bt_first`].
#[inline(never)]
unsafe fn bt_start_prim_scan(bs: *mut BtreeScan) -> bool {
    unsafe { (*(*bs).desc.opaque).num_array_keys != 0 && crate::pg::nbtreadpage::bt_start_prim_scan(&(*bs).nbt) }
}

/// `tid-batch/per-tid` for B-tree: btgetbitmap as in master (§1.1): the first TID from
/// `xs_heaptid`, then `++so->currPos.itemIndex` in memory and one call per TID.
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`] reset for a new scan.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_per_tid_btree(bs: *mut BtreeScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                tbm.add_tuples(std::slice::from_raw_parts(&raw const (*bs).xs_heaptid, 1), false);
                ntids += 1;
                loop {
                    (*so).curr_pos.item_index += 1;
                    if (*so).curr_pos.item_index > (*so).curr_pos.last_item && !bt_next(bs) {
                        break;
                    }
                    let tid = &raw const (*items.add((*so).curr_pos.item_index as usize)).heap_tid;
                    tbm.add_tuples(std::slice::from_raw_parts(tid, 1), false);
                    ntids += 1;
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        ntids
    }
}

/// `tid-batch/batched` for B-tree: each leaf's span copied into a stack batch with the cursor
/// in locals; a full batch is flushed, the residual once after the last primitive scan.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_btree`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_batched_btree(bs: *mut BtreeScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut batch = [const { MaybeUninit::<ItemPointer>::uninit() }; BTREE_BATCH];
        let batch = batch.as_mut_ptr().cast::<ItemPointer>();
        let mut nbatch = 0usize;
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                loop {
                    let mut i = (*so).curr_pos.item_index;
                    let last = (*so).curr_pos.last_item;
                    while i <= last {
                        if nbatch == BTREE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), false);
                            nbatch = 0;
                        }
                        *batch.add(nbatch) = (*items.add(i as usize)).heap_tid;
                        nbatch += 1;
                        ntids += 1;
                        i += 1;
                    }
                    (*so).curr_pos.item_index = i;
                    if !bt_steppage_buf(bs) {
                        break;
                    }
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        if nbatch > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), false);
        }
        ntids
    }
}

/// `tid-batch/runs` for B-tree: the leaf walk of `batched`, coalescing runs instead of copying.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_btree`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_runs_btree(bs: *mut BtreeScan, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let rel = &*(*bs).desc.index_relation;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut buf = [const { MaybeUninit::<TidWord>::uninit() }; RUN_BATCH];
        let mut acc = WordAcc::new(buf.as_mut_ptr().cast());
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                loop {
                    let i = (*so).curr_pos.item_index;
                    let last = (*so).curr_pos.last_item;
                    if i <= last {
                        prefetch_leaf(rel, (*so).curr_pos.next_page);
                        acc.push_span(items.add(i as usize), items.add(last as usize + 1), tbm);
                        ntids += (last - i + 1) as i64;
                        (*so).curr_pos.item_index = last + 1;
                    }
                    if !bt_steppage_buf(bs) {
                        break;
                    }
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        acc.finish(tbm);
        ntids
    }
}

/// `runs` only: ask for the right sibling's 8 KiB in L2 (`prefetcht1`) before coalescing this
/// leaf's span, so the next `_bt_readpage` finds it there. Coalescing is fast enough that the
/// kernel waits on the leaves streaming in from memory, and the hardware prefetcher stops at
/// every 4 KiB page. Into L1 (`prefetcht0`) it is slower than no prefetch: 8 KiB evicts the
/// 13.6 KB `currPos.items` array and the records from a 32 KiB L1.
#[inline(always)]
fn prefetch_leaf(rel: &BTree, next: u32) {
    #[cfg(target_arch = "x86_64")]
    if next != 0 && next != INVALID_BLOCK_NUMBER && (next as usize) <= rel.leaves.len() {
        let page = rel.page(next).0.as_ptr();
        for line in (0..BLCKSZ).step_by(64) {
            // SAFETY: a prefetch is a hint and cannot fault; the address is inside the page.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T1 }>(page.add(line).cast()) };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Paged AMs (hash, GIN, GiST, SP-GiST): index pages of matching items.

/// The matching items of an index, page by page, and the `amgetbitmap` calls of one Bitmap
/// Index Scan (each a range of pages).
pub struct PagedIndex {
    items: Vec<ScanItem>,
    /// Page `p` holds `items[starts[p]..starts[p + 1]]`.
    starts: Vec<u32>,
    calls: Vec<Range<u32>>,
    max_per_page: usize,
}

impl PagedIndex {
    /// Pages of items, and the calls as page ranges (they must cover pages in order).
    pub fn new(pages: &[Vec<ScanItem>], calls: Vec<Range<u32>>) -> PagedIndex {
        let mut items = Vec::with_capacity(pages.iter().map(Vec::len).sum());
        let mut starts = Vec::with_capacity(pages.len() + 1);
        starts.push(0u32);
        for p in pages {
            items.extend_from_slice(p);
            starts.push(items.len() as u32);
        }
        assert!(calls.iter().all(|c| c.end as usize <= pages.len() && c.start <= c.end));
        let max_per_page = pages.iter().map(Vec::len).max().unwrap_or(0).max(1);
        PagedIndex { items, starts, calls, max_per_page }
    }

    /// Items cut into pages of `per_page`, one call over all of them.
    pub fn chunked(items: &[ScanItem], per_page: usize) -> PagedIndex {
        let pages: Vec<Vec<ScanItem>> = items.chunks(per_page.max(1)).map(<[ScanItem]>::to_vec).collect();
        let n = pages.len() as u32;
        PagedIndex::new(&pages, std::iter::once(0..n).collect())
    }

    /// Index pages.
    pub fn pages(&self) -> usize {
        self.starts.len() - 1
    }

    /// `amgetbitmap` calls.
    pub fn calls(&self) -> usize {
        self.calls.len()
    }

    /// All items in scan order.
    pub fn items(&self) -> &[ScanItem] {
        &self.items
    }
}

/// A paged AM's scan position: the current page's items copied out (as `_hash_readpage` fills
/// `so->currPos.items`, `gistScanPage` `so->pageData`), with the cursor in scan memory.
#[repr(C)]
pub struct PagedScan {
    item_index: i32,
    last_item: i32,
    curr_page: u32,
    end_page: u32,
    items: *mut ScanItem,
    buf: Box<[ScanItem]>,
    index: PagedIndex,
}

impl PagedScan {
    /// A scan over `index`.
    pub fn new(index: PagedIndex) -> Box<PagedScan> {
        let mut buf = vec![ScanItem::default(); index.max_per_page].into_boxed_slice();
        let items = buf.as_mut_ptr();
        Box::new(PagedScan { item_index: 0, last_item: -1, curr_page: 0, end_page: 0, items, buf, index })
    }

    fn reset(&mut self) {
        self.item_index = 0;
        self.last_item = -1;
    }
}

/// Read index page `p`: copy its items into the scan position. False if it has none.
///
/// # Safety
/// `scan` must point to a live [`PagedScan`] and `p` be one of its index's pages.
#[inline(never)]
unsafe fn am_readpage(scan: *mut PagedScan, p: u32) -> bool {
    unsafe {
        let s = &mut *scan;
        let (a, b) = (s.index.starts[p as usize] as usize, s.index.starts[p as usize + 1] as usize);
        s.buf[..b - a].copy_from_slice(&s.index.items[a..b]);
        s.curr_page = p;
        s.item_index = 0;
        s.last_item = (b - a) as i32 - 1;
        b > a
    }
}

/// Start `amgetbitmap` call `call`: position on its first page with items.
///
/// # Safety
/// As [`am_readpage`]; `call` must be one of the index's calls.
#[inline(never)]
unsafe fn am_first(scan: *mut PagedScan, call: usize) -> bool {
    unsafe {
        let index: &PagedIndex = &(*scan).index;
        let r = index.calls[call].clone();
        (*scan).end_page = r.end;
        (*scan).last_item = -1;
        for p in r {
            if am_readpage(scan, p) {
                return true;
            }
        }
        false
    }
}

/// Step to the next page with items within the call; false at its end.
///
/// # Safety
/// As [`am_readpage`].
#[inline(never)]
unsafe fn am_steppage(scan: *mut PagedScan) -> bool {
    unsafe {
        let mut p = (*scan).curr_page + 1;
        while p < (*scan).end_page {
            if am_readpage(scan, p) {
                return true;
            }
            p += 1;
        }
        false
    }
}

/// `tid-batch/per-tid` for a paged AM: one `amgetbitmap` call, one bitmap call per TID.
///
/// # Safety
/// `scan` must point to a live [`PagedScan`]; `call` must be one of its calls.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_per_tid_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let mut ntids = 0i64;
        if !am_first(scan, call) {
            return 0;
        }
        loop {
            let it = (*scan).items.add((*scan).item_index as usize);
            tbm.add_tuples(std::slice::from_raw_parts(&raw const (*it).heap_tid, 1), (*it).recheck);
            ntids += 1;
            (*scan).item_index += 1;
            if (*scan).item_index > (*scan).last_item && !am_steppage(scan) {
                break;
            }
        }
        ntids
    }
}

/// `tid-batch/batched` for a paged AM: exact and recheck batches, residuals flushed at the end
/// of the call (exact first).
///
/// # Safety
/// As [`hl_tid_batch_per_tid_pages`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_batched_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let mut exact = [const { MaybeUninit::<ItemPointer>::uninit() }; PAGE_BATCH];
        let mut lossy = [const { MaybeUninit::<ItemPointer>::uninit() }; PAGE_BATCH];
        let exact = exact.as_mut_ptr().cast::<ItemPointer>();
        let lossy = lossy.as_mut_ptr().cast::<ItemPointer>();
        let (mut nexact, mut nlossy) = (0usize, 0usize);
        let mut ntids = 0i64;
        if am_first(scan, call) {
            loop {
                let items = (*scan).items;
                let mut i = (*scan).item_index;
                let last = (*scan).last_item;
                while i <= last {
                    let it = *items.add(i as usize);
                    if it.recheck {
                        if nlossy == PAGE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(lossy, nlossy), true);
                            nlossy = 0;
                        }
                        *lossy.add(nlossy) = it.heap_tid;
                        nlossy += 1;
                    } else {
                        if nexact == PAGE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(exact, nexact), false);
                            nexact = 0;
                        }
                        *exact.add(nexact) = it.heap_tid;
                        nexact += 1;
                    }
                    ntids += 1;
                    i += 1;
                }
                (*scan).item_index = i;
                if !am_steppage(scan) {
                    break;
                }
            }
        }
        if nexact > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(exact, nexact), false);
        }
        if nlossy > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(lossy, nlossy), true);
        }
        ntids
    }
}

/// `tid-batch/runs` for a paged AM.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_pages`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_runs_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        let mut buf = [const { MaybeUninit::<TidWord>::uninit() }; RUN_BATCH];
        let mut acc = WordAcc::new(buf.as_mut_ptr().cast());
        let mut ntids = 0i64;
        if am_first(scan, call) {
            loop {
                let items = (*scan).items;
                let i = (*scan).item_index;
                let last = (*scan).last_item;
                if i <= last {
                    acc.push_span(items.add(i as usize), items.add(last as usize + 1), tbm);
                    ntids += (last - i + 1) as i64;
                    (*scan).item_index = last + 1;
                }
                if !am_steppage(scan) {
                    break;
                }
            }
        }
        acc.finish(tbm);
        ntids
    }
}

// ---------------------------------------------------------------------------------------------
// Bloom: blgetbitmap's full scan with its signature test.

/// Signature words of contrib/bloom's default 80-bit signature (`BloomSignatureWord` = u16).
pub const BLOOM_SIGN_WORDS: usize = 5;

/// `BloomTuple`: the heap TID and the signature, 16 bytes, packed without line pointers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BloomTuple {
    /// `heapPtr`.
    pub heap_ptr: ItemPointer,
    /// `sign[]`.
    pub sign: [u16; BLOOM_SIGN_WORDS],
}
const _: () = assert!(size_of::<BloomTuple>() == 16);

/// Bloom tuples a page: (8192 - 24 - 8 (BloomPageOpaqueData)) / 16 = 510.
pub const BLOOM_TUPLES_PER_PAGE: usize = (BLCKSZ - SIZE_OF_PAGE_HEADER - 8) / size_of::<BloomTuple>();
const _: () = assert!(BLOOM_TUPLES_PER_PAGE == 510);

/// A bloom index and the scan's signature (`so->sign`).
pub struct BloomScan {
    tuples: Vec<BloomTuple>,
    sign: [u16; BLOOM_SIGN_WORDS],
}

impl BloomScan {
    /// A scan of `tuples` (packed 510 a page) for `sign`.
    pub fn new(tuples: Vec<BloomTuple>, sign: [u16; BLOOM_SIGN_WORDS]) -> Box<BloomScan> {
        Box::new(BloomScan { tuples, sign })
    }

    /// Index data pages.
    pub fn pages(&self) -> usize {
        self.tuples.len().div_ceil(BLOOM_TUPLES_PER_PAGE)
    }

    /// The TIDs the signature test matches, in scan order.
    pub fn matches(&self) -> Vec<ItemPointer> {
        self.tuples.iter().filter(|t| (0..BLOOM_SIGN_WORDS).all(|i| t.sign[i] & self.sign[i] == self.sign[i])).map(|t| t.heap_ptr).collect()
    }
}

/// `read_stream_next_buffer` + share lock: page `blkno`'s tuples. Out of line, once a page.
///
/// # Safety
/// `bs` must point to a live [`BloomScan`] and `blkno` be below its page count.
#[inline(never)]
unsafe fn bl_read_page(bs: *const BloomScan, blkno: usize, n: &mut usize) -> *const BloomTuple {
    unsafe {
        let t = &(*bs).tuples;
        let a = blkno * BLOOM_TUPLES_PER_PAGE;
        *n = (t.len() - a).min(BLOOM_TUPLES_PER_PAGE);
        t.as_ptr().add(a)
    }
}

/// blgetbitmap's test: every bit of the scan signature is in the tuple's.
///
/// # Safety
/// Both pointers must be valid.
#[inline(always)]
unsafe fn bl_matches(t: *const BloomTuple, sign: *const [u16; BLOOM_SIGN_WORDS]) -> bool {
    unsafe {
        for i in 0..BLOOM_SIGN_WORDS {
            let s = (*sign)[i];
            if (*t).sign[i] & s != s {
                return false;
            }
        }
        true
    }
}

/// `tid-batch/per-tid` for bloom: one call per matching tuple, recheck = true.
///
/// # Safety
/// `bs` must point to a live [`BloomScan`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_per_tid_bloom(bs: *const BloomScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let npages = (*bs).pages();
        let sign = &raw const (*bs).sign;
        let mut ntids = 0i64;
        for blkno in 0..npages {
            let mut n = 0usize;
            let page = bl_read_page(bs, blkno, &mut n);
            for j in 0..n {
                let t = page.add(j);
                if bl_matches(t, sign) {
                    tbm.add_tuples(std::slice::from_raw_parts(&raw const (*t).heap_ptr, 1), true);
                    ntids += 1;
                }
            }
        }
        ntids
    }
}

/// `tid-batch/batched` for bloom: one recheck batch, the residual flushed after the outer
/// loop (v2 moved it there).
///
/// # Safety
/// As [`hl_tid_batch_per_tid_bloom`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_batched_bloom(bs: *const BloomScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let npages = (*bs).pages();
        let sign = &raw const (*bs).sign;
        let mut batch = [const { MaybeUninit::<ItemPointer>::uninit() }; PAGE_BATCH];
        let batch = batch.as_mut_ptr().cast::<ItemPointer>();
        let mut nbatch = 0usize;
        let mut ntids = 0i64;
        for blkno in 0..npages {
            let mut n = 0usize;
            let page = bl_read_page(bs, blkno, &mut n);
            for j in 0..n {
                let t = page.add(j);
                if bl_matches(t, sign) {
                    if nbatch == PAGE_BATCH {
                        tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), true);
                        nbatch = 0;
                    }
                    *batch.add(nbatch) = (*t).heap_ptr;
                    nbatch += 1;
                    ntids += 1;
                }
            }
        }
        if nbatch > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), true);
        }
        ntids
    }
}

/// `tid-batch/runs` for bloom.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_bloom`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_runs_bloom(bs: *const BloomScan, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        let npages = (*bs).pages();
        let sign = &raw const (*bs).sign;
        let mut buf = [const { MaybeUninit::<TidWord>::uninit() }; RUN_BATCH];
        let mut acc = WordAcc::new(buf.as_mut_ptr().cast());
        let mut ntids = 0i64;
        for blkno in 0..npages {
            let mut n = 0usize;
            let page = bl_read_page(bs, blkno, &mut n);
            for j in 0..n {
                let t = page.add(j);
                if bl_matches(t, sign) {
                    acc.push(&raw const (*t).heap_ptr, true, tbm);
                    ntids += 1;
                }
            }
        }
        acc.finish(tbm);
        ntids
    }
}

// ---------------------------------------------------------------------------------------------
// The run accumulator of `tid-batch/runs`.

/// Builds [`TidWord`]s in a caller's stack buffer. The open record (the TID's raw
/// `bi_hi`/`bi_lo` bytes, the first offset of its word, how many offsets from there are in the
/// word *and* valid, its bits and its recheck flag) stays in registers; a record is written
/// only when the block or the word changes.
struct WordAcc {
    recs: *mut TidWord,
    n: usize,
    /// The open record's block as the TID's raw bytes (compared without reassembling it).
    raw: u32,
    /// First offset of the open word: 64 * wordnum + 1.
    base: u32,
    /// Offsets `base..base + lim` are in the open word and at most 291 (64, or 35 for word
    /// 4); 0: no open record, so no TID matches.
    lim: u32,
    blockno: u32,
    bits: u64,
    recheck: bool,
}

impl WordAcc {
    #[inline(always)]
    fn new(recs: *mut TidWord) -> WordAcc {
        WordAcc { recs, n: 0, raw: 0, base: 0, lim: 0, blockno: 0, bits: 0, recheck: false }
    }

    /// Add one TID. The common case is one compare of the raw block bytes and one unsigned
    /// compare `posid - base < lim`, which checks the word and the offset's validity at once.
    ///
    /// # Safety
    /// `tid` must point to a TID; `recs` to [`RUN_BATCH`] writable records.
    #[inline(always)]
    unsafe fn push(&mut self, tid: *const ItemPointer, recheck: bool, tbm: &mut dyn TidRunSink) {
        unsafe {
            let raw = (tid as *const u32).read_unaligned();
            let d = ((*tid).ip_posid as u32).wrapping_sub(self.base);
            if raw == self.raw && d < self.lim {
                self.bits |= 1u64 << d;
                self.recheck |= recheck;
            } else {
                self.open(tid, raw, recheck, tbm);
            }
        }
    }

    /// Add every item of `p..end` (one index page's saved items). The run test of
    /// [`WordAcc::push`], with the open record copied into locals for the inner loop, so
    /// that a TID costs two loads, a subtract, two compares and an OR.
    ///
    /// # Safety
    /// `p..end` must be a range of items; `recs` as for [`WordAcc::push`].
    #[inline(always)]
    unsafe fn push_span<T: SpanItem>(&mut self, mut p: *const T, end: *const T, tbm: &mut dyn TidRunSink) {
        unsafe {
            while p != end {
                self.push(T::tid(p), T::recheck(p), tbm);
                p = p.add(1);
                let (raw, base, lim) = (self.raw, self.base, self.lim);
                let (mut bits, mut recheck) = (self.bits, self.recheck);
                while p != end {
                    let tid = T::tid(p);
                    let d = ((*tid).ip_posid as u32).wrapping_sub(base);
                    if (tid as *const u32).read_unaligned() != raw || d >= lim {
                        break;
                    }
                    bits |= 1u64 << d;
                    recheck |= T::recheck(p);
                    p = p.add(1);
                }
                self.bits = bits;
                self.recheck = recheck;
            }
        }
    }

    /// Another block or word (or an invalid offset): close the open record, start one.
    ///
    /// # Safety
    /// As [`WordAcc::push`].
    #[inline(always)]
    unsafe fn open(&mut self, tid: *const ItemPointer, raw: u32, recheck: bool, tbm: &mut dyn TidRunSink) {
        unsafe {
            let o = ((*tid).ip_posid as u32).wrapping_sub(1);
            if o >= TBM_MAX_TUPLES_PER_PAGE as u32 {
                // Flush what came before, then let the bitmap raise its ERROR for this TID.
                std::hint::cold_path();
                self.finish(tbm);
                add_one_cold(tbm, tid, recheck);
                return;
            }
            if self.lim != 0 {
                self.close(tbm);
            }
            let first = o & !63;
            self.raw = raw;
            self.base = first + 1;
            self.lim = (TBM_MAX_TUPLES_PER_PAGE as u32 - first).min(64);
            self.blockno = (*tid).block();
            self.bits = 1u64 << (o & 63);
            self.recheck = recheck;
        }
    }

    /// Write the open record.
    #[inline(always)]
    unsafe fn close(&mut self, tbm: &mut dyn TidRunSink) {
        unsafe {
            self.recs.add(self.n).write(TidWord {
                blockno: self.blockno,
                wordnum: (self.base >> 6) as u8,
                recheck: self.recheck,
                bits: self.bits,
            });
            self.n += 1;
            if self.n == RUN_BATCH {
                tbm.add_words(std::slice::from_raw_parts(self.recs, self.n));
                self.n = 0;
            }
        }
    }

    /// Hand over everything collected.
    #[inline(always)]
    unsafe fn finish(&mut self, tbm: &mut dyn TidRunSink) {
        unsafe {
            if self.lim != 0 {
                self.close(tbm);
                self.lim = 0;
            }
            if self.n > 0 {
                tbm.add_words(std::slice::from_raw_parts(self.recs, self.n));
                self.n = 0;
            }
        }
    }
}

/// An item an index page saves for the bitmap: its heap TID and recheck flag.
trait SpanItem {
    /// # Safety
    /// `p` must point to an item.
    unsafe fn tid(p: *const Self) -> *const ItemPointer;
    /// # Safety
    /// As [`SpanItem::tid`].
    unsafe fn recheck(p: *const Self) -> bool;
}

impl SpanItem for BTScanPosItem {
    #[inline(always)]
    unsafe fn tid(p: *const Self) -> *const ItemPointer {
        unsafe { &raw const (*p).heap_tid }
    }
    /// B-tree never asks for a recheck.
    #[inline(always)]
    unsafe fn recheck(_: *const Self) -> bool {
        false
    }
}

impl SpanItem for ScanItem {
    #[inline(always)]
    unsafe fn tid(p: *const Self) -> *const ItemPointer {
        unsafe { &raw const (*p).heap_tid }
    }
    #[inline(always)]
    unsafe fn recheck(p: *const Self) -> bool {
        unsafe { (*p).recheck }
    }
}

/// The invalid-offset path of [`WordAcc::push`], out of the hot loop.
///
/// # Safety
/// `tid` must point to a TID.
#[cold]
#[inline(never)]
unsafe fn add_one_cold(tbm: &mut dyn TidRunSink, tid: *const ItemPointer, recheck: bool) {
    unsafe { tbm.add_tuples(std::slice::from_raw_parts(tid, 1), recheck) }
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

    /// Run variant `v` once into `tbm`; the number of TIDs handed over.
    pub fn run(&mut self, v: &'static Variant, tbm: &mut dyn TidRunSink) -> anyhow::Result<i64> {
        let kernel = v.spec::<TidKernel>()?;
        self.reset();
        // The executor runs the node in the per-query context; the B-tree scan pallocs there.
        let cxt = if let Scan::Btree(b) = self { b.cxt.as_ptr() } else { std::ptr::null_mut() };
        let old = memory_context_switch_to(cxt);
        let s: *mut Scan = self;
        // SAFETY: `s` is this live, freshly reset scan.
        let n = unsafe {
            match kernel {
                TidKernel::Tuples(f) => f(s, tbm),
                TidKernel::Words(f) => f(s, tbm),
            }
        };
        memory_context_switch_to(old);
        Ok(n)
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
// Workloads.

/// How local a TID stream is for the bitmap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Locality {
    /// TIDs.
    pub tids: u64,
    /// Maximal runs of consecutive TIDs on one heap block.
    pub runs: u64,
    /// Distinct heap blocks.
    pub blocks: u64,
}

impl Locality {
    /// Of a TID stream in scan order.
    pub fn of(tids: impl IntoIterator<Item = ItemPointer>) -> Locality {
        let mut runs = 0u64;
        let mut n = 0u64;
        let mut last = None;
        let mut blocks = Vec::new();
        for t in tids {
            n += 1;
            if last != Some(t.block()) {
                runs += 1;
                last = Some(t.block());
            }
            blocks.push(t.block());
        }
        blocks.sort_unstable();
        blocks.dedup();
        Locality { tids: n, runs, blocks: blocks.len() as u64 }
    }

    /// TIDs a heap-block run.
    pub fn tids_per_run(&self) -> f64 {
        self.tids as f64 / self.runs.max(1) as f64
    }
}

/// A 64-bit mix (splitmix64's finaliser): the workloads' deterministic "random" choices.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Rows of table3 at `size`.
pub fn rows_at(size: Size) -> u64 {
    match size {
        Size::Test => 20_000,
        Size::Quick => 1_000_000,
        Size::Full => TABLE3_ROWS,
    }
}

/// Ten widely spaced keys: the middles of ten equal slices of the table.
pub fn few_keys(rows: u64) -> Vec<u64> {
    (0..10).map(|i| i * rows / 10 + rows / 20).collect()
}

/// work_mem equivalent to the seed's 2 MB lossy setting at `rows` (2 MiB x rows / 10M).
pub fn lossy_work_mem(rows: u64) -> usize {
    ((2u64 << 20) * rows / TABLE3_ROWS) as usize
}

/// Hash index tuples a bucket page at the default fillfactor 75: 12 + 4 -> MAXALIGN 16 B
/// tuples, 4 B line pointers, (8192 - 24 - 16) x 0.75 / 20 = 305.
pub const HASH_TUPLES_PER_PAGE: usize = (BLCKSZ - SIZE_OF_PAGE_HEADER - 16) * 75 / 100 / (16 + SIZE_OF_ITEM_ID);
const _: () = assert!(HASH_TUPLES_PER_PAGE == 305);

/// Decoded TIDs of one GIN posting-tree leaf (an estimate): 8152 B of data in 31 segments of
/// 256 B, each an 8-byte header and ~247 one-byte varbyte deltas (two bytes at a block change).
pub const GIN_LEAF_TIDS: usize = 31 * 248;

/// GiST leaf: 256 points (24 B tuples + 4 B line pointers, 291 fit; the sorted build fills
/// 90%): a 16 x 16 Z-order tile.
pub const GIST_LEAF_POINTS: usize = 256;

/// SP-GiST quad-tree leaf modelled as an 8 x 8 tile.
pub const SPGIST_TILE: u64 = 8;

/// Interleave x (even bits) and y (odd bits).
pub fn morton(x: u32, y: u32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = v as u64;
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        v = (v | (v << 1)) & 0x5555_5555_5555_5555;
        v
    }
    spread(x) | spread(y) << 1
}

/// Quad-tree order of tile (tx, ty): at each level quadrant 1 (x high, y high), 2 (x high,
/// y low), 3 (low, low), 4 (low, high), as spgquadtreeproc.c numbers them.
pub fn quad_order(tx: u32, ty: u32) -> u64 {
    let mut k = 0u64;
    for bit in (0..32).rev() {
        let (xb, yb) = ((tx >> bit) & 1, (ty >> bit) & 1);
        let q = match (xb, yb) {
            (1, 1) => 0,
            (1, 0) => 1,
            (0, 0) => 2,
            _ => 3,
        };
        k = k << 2 | q;
    }
    k
}

/// Grid width for `rows` points: a power of two near sqrt(rows).
pub fn grid_width(rows: u64) -> u64 {
    ((rows as f64).sqrt() as u64).next_power_of_two()
}

fn tids(gs: &[u64]) -> Vec<ItemPointer> {
    gs.iter().map(|&g| heap_tid(g, TABLE3_TUPLES_PER_PAGE)).collect()
}

fn items(gs: &[u64], recheck: impl Fn(u64) -> bool) -> Vec<ScanItem> {
    gs.iter().map(|&g| ScanItem::new(heap_tid(g, TABLE3_TUPLES_PER_PAGE), recheck(g))).collect()
}

/// hash-many order: rows sorted by (bucket, hash); `hash` a 32-bit mix standing in for hashint8.
pub fn hash_order(rows: u64) -> Vec<u64> {
    let nbuckets = (rows / HASH_TUPLES_PER_PAGE as u64).max(1).next_power_of_two();
    let h = |g: u64| (mix64(g ^ 0x4a5b) >> 32) as u32;
    let mut gs: Vec<u64> = (0..rows).collect();
    gs.sort_by_key(|&g| ((h(g) as u64 & (nbuckets - 1)) << 32) | h(g) as u64);
    gs
}

/// gist order: points (g % W, g / W) in Z-order.
pub fn gist_order(gs: impl IntoIterator<Item = u64>, rows: u64) -> Vec<u64> {
    let w = grid_width(rows);
    let mut v: Vec<u64> = gs.into_iter().collect();
    v.sort_by_key(|&g| morton((g % w) as u32, (g / w) as u32));
    v
}

/// spgist order: 8x8 tiles in quadrant order, each tile row-major (insertion order).
pub fn spgist_order(gs: impl IntoIterator<Item = u64>, rows: u64) -> Vec<u64> {
    let w = grid_width(rows);
    let mut v: Vec<u64> = gs.into_iter().collect();
    v.sort_by_key(|&g| {
        let (x, y) = (g % w, g / w);
        (quad_order((x / SPGIST_TILE) as u32, (y / SPGIST_TILE) as u32), g)
    });
    v
}

/// Does row `g` match bloom-many's query (1 row in 8)?
pub fn bloom_many_match(g: u64) -> bool {
    mix64(g ^ 0xb100_u64).is_multiple_of(8)
}

/// The scan signature of the bloom cases (`col0 = c`: two bits), in words.
pub const BLOOM_QUERY: [u16; BLOOM_SIGN_WORDS] = [0, 1 << 1, 0, 0, 1 << 6];

/// Bloom tuples of table3 in heap order: matching rows carry the query's two bits plus two
/// more; the others four bits that never include both query bits.
pub fn bloom_tuples(rows: u64, is_match: impl Fn(u64) -> bool) -> Vec<BloomTuple> {
    (0..rows)
        .map(|g| {
            let mut sign = [0u16; BLOOM_SIGN_WORDS];
            let mut set = |bit: u64| sign[(bit / 16) as usize] |= 1 << (bit % 16);
            let r = mix64(g ^ 0xb10e);
            if is_match(g) {
                set(17);
                set(70);
                set(r % 80);
                set((r >> 8) % 80);
            } else {
                for k in 0..4 {
                    let mut bit = (r >> (8 * k)) % 80;
                    if bit == 17 || bit == 70 {
                        bit = (bit + 1 + k) % 80;
                    }
                    set(bit);
                }
                // Never both query bits (so never a match).
                if sign[1] & (1 << 1) != 0 && sign[4] & (1 << 6) != 0 {
                    sign[4] &= !(1 << 6);
                }
            }
            BloomTuple { heap_ptr: heap_tid(g, TABLE3_TUPLES_PER_PAGE), sign }
        })
        .collect()
}

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

    /// Build the bitmap with variant `v`.
    pub fn bitmap(&mut self, v: &'static Variant) -> anyhow::Result<(TidBitmap, i64)> {
        let mut tbm = TidBitmap::new(self.work_mem);
        let n = self.scan.run(v, &mut tbm)?;
        Ok((tbm, n))
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
        let (tbm, n) = self.bitmap(v)?;
        if let Some(e) = tbm.error() {
            anyhow::bail!("tid-batch case {}: the bitmap raised ERROR: {e}", self.id);
        }
        Ok(tbm.digest() ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        if v.id == INFO.patched { self.seed_batched } else { None }
    }

    fn extra_metrics(&mut self, v: &'static Variant) -> anyhow::Result<Vec<(String, f64, String)>> {
        let mut tbm = TidBitmap::new(self.work_mem);
        let mut c = Counting { tbm: &mut tbm, calls: 0 };
        let n = self.scan.run(v, &mut c)?;
        let calls = c.calls;
        let (exact, lossy) = tbm.heap_blocks();
        let l = self.locality;
        let m = |k: &str, val: f64, u: &str| (k.to_string(), val, u.to_string());
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
        "btree-many" => 115.071 / 170.372,
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
        assert_eq!(bs.array_elems(), elems);
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
                    assert!(b.bufmgr().shared_blks_hit > 0, "{} v{v}", c.id);
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
