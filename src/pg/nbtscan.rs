//! The B-tree bitmap scan tid-batch's kernels run in, shared by every variant: the scan
//! state (`IndexScanDesc`, `BTScanOpaqueData`, array keys, shared buffers, memory context),
//! `_bt_first` for `col0 = ANY(array)` and `col0 < n`, `_bt_readfirstpage`, `_bt_steppage`
//! and `_bt_readnextpage` through the buffer manager (each out of line, as PostgreSQL 18's
//! profile has them), `_bt_next`, `_bt_parallel_done` and `BTScanPosInvalidate` (nbtsearch.c,
//! nbtree.c, nbtutils.c). A line changed here moves every tid-batch B-tree variant. Left out:
//! `_bt_preprocess_array_keys`' work at the first `_bt_first` after each `btrescan` (the array
//! is deconstructed, sorted and deduplicated once at setup, outside the measured runs).

use crate::pg::ItemPointer;
use crate::pg::itemptr::INVALID_BLOCK_NUMBER;
use crate::pg::bufmgr::{BufMgr, Buffer, DEFAULT_NBUFFERS, INVALID_BUFFER, RelFileLocator, buffer_get_page, release_buffer};
use crate::pg::fmgr::{F_BTINT4CMP, F_BTINT8CMP, F_INT4EQ, F_INT4LT, F_INT8EQ, F_INT84LT, FmgrInfo, INT4OID, INT8OID, btint4cmp, btint8cmp, int4eq, int4lt, int8eq, int84lt, int32_get_datum};
use crate::pg::mcxt::{AllocSet, MallocBackend};
use crate::pg::nbtpreprocesskeys::bt_preprocess_keys;
use crate::pg::nbtreadpage::{BTScanKeys, NbtScan, bt_more_right, bt_readpage, bt_start_array_keys};
use crate::pg::pgstat::{PgStatTableStatus, pgstat_count_index_scan};
use crate::pg::nbtree::{BTScanOpaque, BTScanPos, BTree, IndexScanDesc, KeyType, P_NONE, PageStep, ScanDirection};
use crate::pg::nbtsearch::{
    BT_NPROCS, BTMetaCache, BTORDER_PROC, BTREE_VERSION, BTScanInsertData, CompactAttribute, IndexRel, RelForm, bt_binsrch, bt_freestack,
    bt_getbuf, bt_metaversion, bt_relbuf, bt_search, bt_unlockbuf, first_data_key, index_getprocinfo, not_modelled,
    scan_key_entry_initialize_with_info,
};
use crate::pg::page::Page;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------------
// B-tree: btgetbitmap over the nbtree model.

/// The index as its relation file: every block in order (block 0, the metapage, is never read
/// by a scan with the metapage cached, and is left zero: a new page), each with its data
/// checksum (as 18's initdb default has the server write them), written and flushed to the
/// page cache. Unnamed (O_TMPFILE where available): nothing to remove afterwards.
pub fn index_file(rel: &BTree) -> std::io::Result<std::fs::File> {
    use std::io::Write;
    let mut f = tempfile::tempfile()?;
    let mut w = std::io::BufWriter::new(&mut f);
    w.write_all(&[0u8; crate::pg::page::BLCKSZ])?;
    for b in 1..rel.nblocks() as u32 {
        let mut page = rel.block_page(b).expect("a block of the index").0;
        crate::pg::checksum::set_checksum(&mut page, b);
        w.write_all(&page)?;
    }
    w.flush()?;
    drop(w);
    Ok(f)
}

/// `pg_default`'s tablespace, the `postgres` database, and relfilenumbers for table3 and its
/// index (any distinct values: they only feed the buffer tags).
const TABLE3_LOCATOR: RelFileLocator = RelFileLocator { spc_oid: 1663, db_oid: 5, rel_number: 16_384 };
pub const INDEX_LOCATOR: RelFileLocator = RelFileLocator { spc_oid: 1663, db_oid: 5, rel_number: 16_390 };

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
    pub desc: IndexScanDesc,
    pub so: Box<BTScanOpaque>,
    pub rel: Rc<BTree>,
    /// `col0 = ANY(keys)` as written (unsorted, maybe with duplicates); empty: seed 000's
    /// `col0 < 10000000` (every leaf).
    pub keys: Vec<i64>,
    /// The preprocessed keys: the sorted, deduplicated `= ANY` array, or the `<` key.
    pub skeys: Option<Box<BTScanKeys>>,
    /// `scan` as nbtreadpage.c's functions see it (points into this box).
    pub nbt: NbtScan,
    /// `scan->xs_heaptid`, written by `_bt_returnitem`.
    pub xs_heaptid: ItemPointer,
    /// `scan->instrument`.
    pub instrument: Option<Box<IndexScanInstrumentation>>,
    /// `rel->pgstat_info`'s target.
    pub pgstat: Box<PgStatTableStatus>,
    /// The per-query context (`ExecutorState`) current while the scan runs: `_bt_search`'s
    /// `BTStack` entries come from it.
    pub cxt: AllocSet,
    /// Shared buffers (and this backend's pins and locks).
    pub bufmgr: Box<BufMgr>,
    /// The index relation as the descent sees it.
    pub irel: IndexRel,
    /// `index_getprocinfo(rel, 1, BTORDER_PROC)`: btint8cmp / btint4cmp.
    pub orderproc: FmgrInfo,
    /// `scan->parallel_scan`: null (no parallel scan).
    pub parallel_scan: *const u8,
    /// The index's `pg_class` row (`irel.rd_rel` points to it).
    pub rd_rel: Box<RelForm>,
    /// The index's tuple descriptor, its compact attributes (`irel.rd_att` points to them).
    pub rd_att: Box<[CompactAttribute]>,
}

impl BtreeScan {
    /// A scan of `rel`, all rows (`keys` empty) or `= ANY(keys)`. Shared buffers (16,384, or
    /// more when the scan reads more index pages than that) hold the pages the scan reads (for
    /// keyed scans the root-to-leaf path of each key; else every page), the rest is filled
    /// with table3's heap blocks so the mapping table is as full as on a warm server.
    pub fn new(rel: Rc<BTree>, keys: Vec<i64>) -> Box<BtreeScan> {
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
        Self::with_bufmgr(rel, keys, bufmgr)
    }

    /// A scan of `rel` whose pages are not in shared buffers: a pool of `nbuffers` buffers
    /// that reads every page it misses from a file holding the index's blocks, through the
    /// OS page cache (the server's os-cache state: the seed's `read=27324`). The pool starts
    /// full of the index's last blocks, as a server's is after an earlier scan (the server's
    /// instruction counts run after a warm-up query), so every miss evicts a valid page. The
    /// file is unnamed in the temporary directory (the file system the throwaway cluster's
    /// data directory is on) and goes with the scan.
    pub fn with_storage(rel: Rc<BTree>, keys: Vec<i64>, nbuffers: usize) -> std::io::Result<Box<BtreeScan>> {
        let f = index_file(&rel)?;
        let mut bufmgr = BufMgr::with_storage(nbuffers, vec![(INDEX_LOCATOR, f)]);
        let n = rel.nblocks() as u32;
        bufmgr.prewarm(&INDEX_LOCATOR, n.saturating_sub(nbuffers as u32)..n);
        Ok(Self::with_bufmgr(rel, keys, bufmgr))
    }

    fn with_bufmgr(rel: Rc<BTree>, keys: Vec<i64>, bufmgr: Box<BufMgr>) -> Box<BtreeScan> {
        let (so, _) = BTScanOpaque::new_boxed(&[]);
        let (attlen, orderproc, eqproc, ltproc) = match rel.key {
            KeyType::Int8 => (8, FmgrInfo::builtin(btint8cmp, F_BTINT8CMP), FmgrInfo::builtin(int8eq, F_INT8EQ), FmgrInfo::builtin(int84lt, F_INT84LT)),
            KeyType::Int4 => (4, FmgrInfo::builtin(btint4cmp, F_BTINT4CMP), FmgrInfo::builtin(int4eq, F_INT4EQ), FmgrInfo::builtin(int4lt, F_INT4LT)),
        };
        let mut pgstat = Box::<PgStatTableStatus>::default();
        let irel = IndexRel {
            pgstat_info: &mut *pgstat,
            locator: INDEX_LOCATOR,
            rd_rel: std::ptr::null(),
            nkeyatts: 1,
            rd_att: std::ptr::null(),
            metad: (rel.root != 0).then_some(BTMetaCache {
                version: BTREE_VERSION,
                fastroot: rel.root,
                fastlevel: rel.root_level,
                allequalimage: true,
            }),
            supportinfo: std::ptr::null(),
            amsupport: BT_NPROCS,
        };
        // The key as the executor builds it: `= ANY` an int8[] (or int4[]) constant, which
        // _bt_preprocess_keys sorts and deduplicates at the first _bt_first of each btrescan,
        // inside the measured runs. Without an array, the seed's `col0 < 10000000`: an int4
        // literal, so int8 < int4 (int84lt) on table3.
        let opcintype = if attlen == 4 { INT4OID } else { INT8OID };
        let skeys = Some(if keys.is_empty() {
            BTScanKeys::less_than(int32_get_datum(SEED000_BOUND), opcintype, INT4OID, ltproc)
        } else {
            BTScanKeys::new(&keys.iter().map(|&k| k as usize).collect::<Vec<_>>(), opcintype, eqproc)
        });
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
            parallel_scan: std::ptr::null(),
            rd_rel: Box::new(RelForm { relnatts: 1, relpersistence: b'p' }),
            rd_att: Box::new([CompactAttribute { attcacheoff: 0, attlen, attbyval: true }]),
        });
        bs.desc.opaque = &mut *bs.so;
        // rd_supportinfo: column 1's ORDER proc; rd_rel and rd_att (the box keeps them in place).
        bs.irel.supportinfo = &bs.orderproc;
        bs.irel.rd_rel = &*bs.rd_rel;
        bs.irel.rd_att = bs.rd_att.as_ptr();
        let keys_ptr = bs.skeys.as_deref_mut().map_or(std::ptr::null_mut(), |k| k as *mut BTScanKeys);
        bs.nbt = NbtScan { so: &mut *bs.so, keys: keys_ptr, rel: &bs.irel };
        bs
    }

    /// `btrescan`: drop a pin a previous scan left (none after a complete scan), invalidate,
    /// and reset the key state (`numberOfKeys = 0` and `numArrayKeys = 0` make the first
    /// `_bt_first` rerun `_bt_preprocess_keys`: the array deconstructed, sorted and
    /// deduplicated again).
    pub fn reset(&mut self) {
        self.so.need_prim_scan = false;
        self.so.scan_behind = false;
        self.so.opposite_dir_check = false;
        self.so.number_of_keys = 0;
        self.so.num_array_keys = 0;
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

    /// Route [`crate::pg::nbtree::bt_steppage`] on this scan's index through this scan: a
    /// kernel written against the in-memory page step (local-index's) then reads each next
    /// leaf as btree-many's server scan does, through shared buffers and `_bt_readpage` with
    /// the seed's key. The box keeps the scan in place; dropping it removes the route.
    pub fn route_page_step(self: &mut Box<Self>) {
        let so: *const BTScanOpaque = &*self.so;
        let scan: *mut BtreeScan = &mut **self;
        self.rel.page_step.set(Some(PageStep { step: step_through_buffers, scan: scan.cast(), so }));
    }

    /// `btrescan` then `_bt_first` (in the scan's memory context, where the descent pallocs
    /// its stack): the first page read and `currPos.itemIndex` on its first match, for a
    /// kernel that copies from the cursor on. False, with `currPos` invalid, if nothing matches.
    pub fn rescan_and_first(&mut self) -> bool {
        self.reset();
        let old = crate::pg::mcxt::memory_context_switch_to(self.cxt.as_ptr());
        // SAFETY: self is live and reset; its context is current.
        let found = unsafe { bt_first(self) };
        crate::pg::mcxt::memory_context_switch_to(old);
        found
    }
}

impl Drop for BtreeScan {
    fn drop(&mut self) {
        let me: *mut BtreeScan = self;
        if self.rel.page_step.get().is_some_and(|p| p.scan == me.cast()) {
            self.rel.page_step.set(None);
        }
    }
}

/// [`PageStep::step`] of a routed scan: [`bt_steppage_buf`].
///
/// # Safety
/// `scan` must point to a live [`BtreeScan`].
unsafe fn step_through_buffers(scan: *mut ()) -> bool {
    unsafe { bt_steppage_buf(scan.cast()) }
}

/// Seed 000's `col0 < 10000000`: every row of table3 up to its 10M rows passes.
pub const SEED000_BOUND: i32 = 10_000_000;

/// `_bt_first` for `col0 < 10000000`: an upper bound only, so `_bt_endpoint` positions at the
/// leftmost leaf and `_bt_readfirstpage` reads it with [`bt_readpage`] (`_bt_checkkeys` on
/// every tuple; the first page of a primitive scan has no `_bt_set_startikey`). A bitmap scan
/// keeps the pin and drops the lock; a page without a match goes to `_bt_steppage`. Left out:
/// the descent of the leftmost path's internal pages (`_bt_get_endpoint`), once a scan.
pub(crate) fn bt_first_lt(bs: &mut BtreeScan) -> bool {
    let scan = bs.nbt;
    // SAFETY: desc.opaque is bs.so; nbt points into bs; the caller made the scan's memory
    // context current; bm holds every page (BtreeScan::new) or reads them (with_storage).
    unsafe {
        let so = &mut *bs.desc.opaque;
        invalidate(&mut so.curr_pos);
        let bm: *mut BufMgr = &mut *bs.bufmgr;
        bt_preprocess_keys(&scan);
        pgstat_count_index_scan(bs.irel.pgstat_info);
        if let Some(instr) = bs.instrument.as_deref_mut() {
            instr.nsearches += 1;
        }
        if bs.rel.leaves.is_empty() {
            return false;
        }
        let buf = bt_getbuf(bm, &bs.irel, BTree::leaf_block(0));
        so.curr_pos.buf = buf;
        bt_readfirstpage(bs, first_data_key(buffer_get_page(bm, buf)))
    }
}

/// `BTScanPosInvalidate`: the header fields only. (Assigning a fresh `BTScanPos` would also
/// write its 13.6 KB item array, which PostgreSQL never does.)
pub(crate) fn invalidate(pos: &mut BTScanPos) {
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
pub(crate) fn bt_first_eq(bs: &mut BtreeScan) -> bool {
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
        // The insertion scan key from the = key (startKeys[0]): not cross-type, so the cached
        // ORDER proc (index_getprocinfo) copied in by ScanKeyEntryInitializeWithInfo, then
        // _bt_metaversion and the = strategy's flags (forward: nextkey and backward false).
        let skey = &(*scan.keys).key_data[0];
        let mut inskey = std::mem::MaybeUninit::<BTScanInsertData>::uninit();
        let ins = inskey.as_mut_ptr();
        let procinfo = index_getprocinfo(&bs.irel, skey.sk_attno, BTORDER_PROC);
        scan_key_entry_initialize_with_info(
            (&raw mut (*ins).scankeys).cast(),
            skey.sk_flags,
            skey.sk_attno,
            0,
            skey.sk_subtype,
            skey.sk_collation,
            procinfo,
            skey.sk_argument,
        );
        bt_metaversion(&bs.irel, &raw mut (*ins).heapkeyspace, &raw mut (*ins).allequalimage);
        (*ins).anynullkeys = false;
        (*ins).scantid = std::ptr::null();
        (*ins).keysz = 1;
        (*ins).nextkey = false;
        (*ins).backward = false;
        let inskey = inskey.assume_init();
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

        bt_readfirstpage(bs, offnum)
    }
}

/// `_bt_readfirstpage` (forward): `currPos`'s first-page state (`moreLeft`/`moreRight`, both
/// set when a scheduled primitive scan starts, clearing `needPrimScan`), [`bt_readpage`] from
/// `offnum`, then on a match drop the lock and keep the pin (`_bt_drop_lock_and_maybe_pin`
/// without `dropPin`, inline in 18); with none, unlock and `_bt_steppage`. Out of line, as in
/// 18's profile. With array keys, the departure `bt_first_eq` describes: a page that would go
/// on to its sibling schedules a primitive scan instead (`moreRight` false, via `nextPage`).
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`] whose `currPos.buf` is pinned and read-locked.
#[inline(never)]
unsafe fn bt_readfirstpage(bs: *mut BtreeScan, offnum: crate::pg::itemptr::OffsetNumber) -> bool {
    unsafe {
        let bs = &mut *bs;
        let scan = bs.nbt;
        let so = &mut *bs.desc.opaque;
        let bm: *mut BufMgr = &mut *bs.bufmgr;
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
        let arrays = so.num_array_keys != 0;
        let elem_before = if arrays { (*(*scan.keys).array_keys).cur_elem } else { 0 };
        let found = bt_readpage(bm, &scan, offnum, true);
        if arrays {
            if bt_more_right(&scan) != P_NONE {
                // The departure: only an advanced array continues on the sibling here (a key
                // whose duplicates span leaves would need the sibling read with the old one).
                if (*(*scan.keys).array_keys).cur_elem == elem_before {
                    not_modelled("equal keys spanning leaves (a keyed step to the right sibling)");
                }
                so.need_prim_scan = true;
            }
            // moreRight is now false, which bt_readnextpage reads from nextPage = P_NONE.
            so.curr_pos.next_page = P_NONE;
        }
        let buf = so.curr_pos.buf;
        bt_unlockbuf(bm, buf);
        found || bt_steppage_buf(bs)
    }
}

/// `_bt_steppage` for tid-batch's forward bitmap scans: killed items (none: a bitmap scan
/// kills none) and a mark (none) checked, the page just read unpinned
/// (`BTScanPosUnpinIfPinned`), `needPrimScan` cancelled if the page was read in the other
/// direction, then [`bt_readnextpage`] from `nextPage`. The same for every variant; out of line,
/// like `crate::pg::nbtree::bt_steppage` (which the other studies keep, without a buffer manager
/// or keys).
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`].
#[inline(never)]
pub(crate) unsafe fn bt_steppage_buf(bs: *mut BtreeScan) -> bool {
    unsafe {
        let bsr = &mut *bs;
        let so = &mut *bsr.desc.opaque;
        if so.num_killed > 0 {
            not_modelled("_bt_killitems (a bitmap scan kills no items)");
        }
        if so.mark_item_index >= 0 {
            not_modelled("a marked position (a bitmap scan marks none)");
        }
        let old: Buffer = so.curr_pos.buf;
        if old != INVALID_BUFFER {
            release_buffer(&mut *bsr.bufmgr, old);
            so.curr_pos.buf = INVALID_BUFFER;
        }
        let blkno = so.curr_pos.next_page;
        let lastcurrblkno = so.curr_pos.curr_page;
        if so.curr_pos.dir != ScanDirection::Forward {
            so.need_prim_scan = false;
        }
        bt_readnextpage(bs, blkno, lastcurrblkno)
    }
}

/// `_bt_readnextpage` (forward, not seized, no parallel scan): `moreLeft` set (the scan has
/// read a page to the left), then while `moreRight` and `blkno` is a page: `_bt_getbuf`
/// (ReadBuffer + share lock), [`bt_readpage`] (`_bt_set_startikey`, then `_bt_checkkeys` on
/// every tuple) and on success drop the lock, keep the pin; a page without a match is released
/// (`_bt_relbuf`) and skipped. At the end `BTScanPosInvalidate` and `_bt_parallel_done`. Out of
/// line, as in 18's profile (one call a primitive scan for btree-few, which ends at once).
///
/// # Safety
/// As [`bt_steppage_buf`]; no page pinned in `currPos`.
#[inline(never)]
unsafe fn bt_readnextpage(bs: *mut BtreeScan, mut blkno: crate::pg::itemptr::BlockNumber, _lastcurrblkno: crate::pg::itemptr::BlockNumber) -> bool {
    unsafe {
        let bs = &mut *bs;
        let so = &mut *bs.desc.opaque;
        let bm: *mut BufMgr = &mut *bs.bufmgr;
        so.curr_pos.more_left = true;
        loop {
            if blkno == P_NONE || blkno == INVALID_BLOCK_NUMBER || !so.curr_pos.more_right {
                invalidate(&mut so.curr_pos);
                bt_parallel_done(bs);
                return false;
            }
            let buf = bt_getbuf(bm, &bs.irel, blkno);
            so.curr_pos.buf = buf;
            if bt_readpage(bm, &bs.nbt, first_data_key(buffer_get_page(bm, buf)), false) {
                break;
            }
            blkno = so.curr_pos.next_page;
            bt_relbuf(bm, buf);
            so.curr_pos.buf = INVALID_BUFFER;
        }
        bt_unlockbuf(bm, so.curr_pos.buf);
        true
    }
}

/// `_bt_parallel_done`: nothing for a scan that is not parallel (`scan->parallel_scan` null).
/// Out of line (nbtree.c).
#[inline(never)]
fn bt_parallel_done(bs: &BtreeScan) {
    if !bs.parallel_scan.is_null() {
        not_modelled("parallel B-tree scans");
    }
}

/// `_bt_first` (+ `_bt_returnitem`): position the next primitive scan. Out of line.
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`].
#[inline(never)]
pub(crate) unsafe fn bt_first(bs: *mut BtreeScan) -> bool {
    unsafe {
        let bs = &mut *bs;
        let so = &mut *bs.desc.opaque;
        let found = if bs.keys.is_empty() { bt_first_lt(bs) } else { bt_first_eq(bs) };
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
pub(crate) unsafe fn bt_next(bs: *mut BtreeScan) -> bool {
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
pub(crate) unsafe fn bt_start_prim_scan(bs: *mut BtreeScan) -> bool {
    unsafe { (*(*bs).desc.opaque).num_array_keys != 0 && crate::pg::nbtreadpage::bt_start_prim_scan(&(*bs).nbt) }
}

