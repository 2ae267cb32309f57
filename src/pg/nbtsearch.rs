//! The B-tree descent: `_bt_search`, `_bt_moveright`, `_bt_binsrch` and `_bt_compare`
//! (src/backend/access/nbtree/nbtsearch.c) over pages read through the buffer manager
//! (`_bt_getroot`, `_bt_getbuf`, `_bt_relandgetbuf`, `_bt_relbuf`, `_bt_checkpage` in
//! nbtpage.c, out of line), and what `_bt_first` builds its insertion scan key with
//! (`_bt_metaversion`, indexam.c's `index_getprocinfo`, scankey.c's
//! `ScanKeyEntryInitializeWithInfo` with fmgr.c's `fmgr_info_copy`).
//!
//! Every key comparison goes through `_bt_compare`: the minus-infinity shortcut on an internal
//! page's first item, `BTreeTupleGetNAtts` (the relation's count read through `rd_rel`),
//! `index_getattr` finding the key column's `CompactAttribute` in `rd_att` by the key's
//! `sk_attno` (cached offset, `fetchatt`'s switch on `attlen`), then
//! `FunctionCall2Coll(&scankey->sk_func, ...)` -> `btint8cmp` through `fn_addr`, and the sign
//! flip. `_bt_binsrch` and `_bt_moveright` are real calls, as gcc keeps them in PostgreSQL 18
//! (its profile names both). Pivots carry no heap TID (keys are unique, so suffix truncation
//! drops it), and an equal, truncated pivot sends a forward search right, as in PostgreSQL.
//! `_bt_search` pallocs a `BTStackData` per internal level in `CurrentMemoryContext`
//! ([`crate::pg::mcxt`]); `_bt_freestack` (nbtutils.c) pfrees the chain. Left out:
//! incomplete-split handling, `scantid` tie-breaks (a bitmap scan has none), null keys beyond
//! the flag tests, `index_getattr`'s uncached path (`nocache_index_getattr`), and the first
//! `index_getprocinfo` of a relcache entry (`fmgr_info_cxt`).

use super::bufmgr::{
    BufMgr, Buffer, BufferLockMode, INVALID_BUFFER, RelFileLocator, buffer_get_block_number, buffer_get_page,
    lock_buffer, read_buffer, release_and_read_buffer, release_buffer,
};
use super::fmgr::{Datum, FmgrInfo, Oid};
use super::itemptr::{BlockNumber, ItemPointer, OffsetNumber};
use super::mcxt::{palloc, pfree};
use super::nbtree::{
    BT_IS_POSTING, BT_OFFSET_MASK, BTP_DELETED, BTP_HALF_DEAD, BTP_LEAF, INDEX_ALT_TID_MASK,
    INDEX_NULL_MASK, P_FIRSTKEY, P_HIKEY, P_NONE, SIZE_OF_BT_PAGE_OPAQUE,
};
use super::page::{BLCKSZ, Page, maxalign};

/// `SK_ISNULL`.
pub const SK_ISNULL: i32 = 0x0001;
/// `SK_BT_DESC`.
pub const SK_BT_DESC: i32 = 1 << 24;
/// `SK_BT_NULLS_FIRST`.
pub const SK_BT_NULLS_FIRST: i32 = 1 << 25;

/// `CompactAttribute`, what `index_getattr` reads for the key column.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CompactAttribute {
    /// `attcacheoff`: the column's offset in the tuple data (0 for the first).
    pub attcacheoff: i32,
    /// `attlen`.
    pub attlen: i16,
    /// `attbyval`.
    pub attbyval: bool,
}

/// The metapage fields PostgreSQL caches in `rel->rd_amcache` after the first descent.
#[derive(Clone, Copy, Debug)]
pub struct BTMetaCache {
    /// `btm_version` (`BTREE_VERSION`, 4, for an index built by 13 and later).
    pub version: u32,
    /// `btm_fastroot`.
    pub fastroot: BlockNumber,
    /// `btm_fastlevel`.
    pub fastlevel: u32,
    /// `btm_allequalimage`: deduplication is safe (int4/int8 opclasses).
    pub allequalimage: bool,
}

/// `BTREE_VERSION`.
pub const BTREE_VERSION: u32 = 4;
/// `BTREE_NOVAC_VERSION`: the last version without heapkeyspace.
pub const BTREE_NOVAC_VERSION: u32 = 3;
/// `BTORDER_PROC`.
pub const BTORDER_PROC: u16 = 1;
/// `BTNProcs`: btree's `amsupport` in 18 (ORDER, SORTSUPPORT, INRANGE, EQUALIMAGE, OPTIONS,
/// SKIPSUPPORT).
pub const BT_NPROCS: u16 = 6;

/// `FormData_pg_class`, the fields an index scan reads through `rel->rd_rel` (`PGRelForm` in
/// csrc/hl_pg.h).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RelForm {
    /// `relnatts`: `IndexRelationGetNumberOfAttributes`.
    pub relnatts: i16,
    /// `relpersistence`.
    pub relpersistence: u8,
}

/// The index `Relation`, cut to what the descent reads. `#[repr(C)]`: the C `_bt_compare`
/// reads `rd_rel` and `rd_att` (`PGIndexRel` in csrc/hl_pg.h; nothing after `rd_att`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IndexRel {
    /// `rd_locator`.
    pub locator: RelFileLocator,
    /// `rd_rel`: the relation's `pg_class` row (its attribute count is read through it).
    pub rd_rel: *const RelForm,
    /// `IndexRelationGetNumberOfKeyAttributes`.
    pub nkeyatts: i32,
    /// `rd_att`'s compact attributes (`TupleDescCompactAttr(rd_att, i)` for column i + 1).
    pub rd_att: *const CompactAttribute,
    /// `rd_amcache`: the cached metapage (`None` without a root).
    pub metad: Option<BTMetaCache>,
    /// `pgstat_info`: the relation's statistics entry (null: not counted).
    pub pgstat_info: *mut super::pgstat::PgStatTableStatus,
    /// `rd_supportinfo`: the support procs' `FmgrInfo`s, `amsupport` a key column (null:
    /// none looked up; the model fills only column 1's ORDER proc, at index 0).
    pub supportinfo: *const FmgrInfo,
    /// `rd_indam->amsupport`.
    pub amsupport: u16,
}

/// `ScanKeyData`: 72 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ScanKeyData {
    /// `sk_flags`.
    pub sk_flags: i32,
    /// `sk_attno`.
    pub sk_attno: i16,
    /// `sk_strategy` (`InvalidStrategy` in an insertion scan key).
    pub sk_strategy: u16,
    /// `sk_subtype`.
    pub sk_subtype: Oid,
    /// `sk_collation`.
    pub sk_collation: Oid,
    /// `sk_func`: the ORDER proc (BTORDER_PROC), copied from the relcache.
    pub sk_func: FmgrInfo,
    /// `sk_argument`.
    pub sk_argument: Datum,
}

/// `BTScanInsertData` with one scan key (PostgreSQL reserves `INDEX_MAX_KEYS` = 32 on the stack).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BTScanInsertData {
    /// `heapkeyspace`.
    pub heapkeyspace: bool,
    /// `allequalimage`.
    pub allequalimage: bool,
    /// `anynullkeys`.
    pub anynullkeys: bool,
    /// `nextkey`.
    pub nextkey: bool,
    /// `backward`.
    pub backward: bool,
    /// `scantid`.
    pub scantid: *const ItemPointer,
    /// `keysz`.
    pub keysz: i32,
    /// `scankeys`.
    pub scankeys: [ScanKeyData; 1],
}

const _: () = assert!(size_of::<ScanKeyData>() == 72);

/// `BTStackData`: one internal page of the descent (16 bytes, a 16-byte AllocSet chunk).
#[repr(C)]
#[derive(Debug)]
pub struct BTStackData {
    /// `bts_blkno`.
    pub bts_blkno: BlockNumber,
    /// `bts_offset`: the pivot whose downlink was followed.
    pub bts_offset: OffsetNumber,
    /// `bts_parent`.
    pub bts_parent: BTStack,
}

/// `BTStack`.
pub type BTStack = *mut BTStackData;

const _: () = assert!(size_of::<BTStackData>() == 16);

/// `BTPageGetOpaque(page)`: the special space, at `pd_special`.
///
/// # Safety
/// `page` must point to a valid page.
#[inline(always)]
pub(crate) unsafe fn special(page: *const Page) -> *const u8 {
    unsafe {
        let base = page as *const u8;
        base.add((base.add(16) as *const u16).read() as usize)
    }
}

/// `btpo_next`.
#[inline(always)]
pub(crate) unsafe fn opaque_next(page: *const Page) -> BlockNumber {
    unsafe { (special(page).add(4) as *const u32).read() }
}

/// `btpo_level`.
#[inline(always)]
unsafe fn opaque_level(page: *const Page) -> u32 {
    unsafe { (special(page).add(8) as *const u32).read() }
}

/// `btpo_flags`.
#[inline(always)]
pub(crate) unsafe fn opaque_flags(page: *const Page) -> u16 {
    unsafe { (special(page).add(12) as *const u16).read() }
}

/// `P_FIRSTDATAKEY`.
#[inline(always)]
pub(crate) unsafe fn first_data_key(page: *const Page) -> OffsetNumber {
    if unsafe { opaque_next(page) } == P_NONE { P_HIKEY } else { P_FIRSTKEY }
}

/// `PageGetMaxOffsetNumber`.
#[inline(always)]
pub(crate) unsafe fn max_offset(page: *const Page) -> OffsetNumber {
    unsafe { (*page).max_offset() }
}

/// `t_info` of an index tuple.
#[inline(always)]
pub(crate) unsafe fn t_info(itup: *const u8) -> u16 {
    unsafe { (itup.add(6) as *const u16).read() }
}

/// `ItemPointerGetOffsetNumberNoCheck(&itup->t_tid)`.
#[inline(always)]
pub(crate) unsafe fn tid_offset(itup: *const u8) -> u16 {
    unsafe { (itup.add(4) as *const u16).read() }
}

/// `BTreeTupleIsPivot`.
#[inline(always)]
pub(crate) unsafe fn is_pivot(itup: *const u8) -> bool {
    unsafe { t_info(itup) & INDEX_ALT_TID_MASK != 0 && tid_offset(itup) & BT_IS_POSTING == 0 }
}

/// `BTreeTupleGetDownLink`: the block in a pivot's `t_tid`.
///
/// # Safety
/// `itup` must point to a pivot tuple.
#[inline(always)]
pub unsafe fn downlink(itup: *const u8) -> BlockNumber {
    unsafe { (itup as *const ItemPointer).read().block() }
}

impl IndexRel {
    /// `IndexRelationGetNumberOfAttributes(rel)`: `rel->rd_rel->relnatts`.
    ///
    /// # Safety
    /// `rd_rel` must be live.
    #[inline(always)]
    pub unsafe fn natts(&self) -> i32 {
        unsafe { (*self.rd_rel).relnatts as i32 }
    }
}

/// `index_getattr(itup, attnum, tupdesc, &isnull)` for a by-value column with a cached offset:
/// the column's `CompactAttribute` found in the descriptor by `attnum` (a scan key's
/// `sk_attno`), then `fetchatt`: (datum, isnull).
///
/// # Safety
/// `itup` must point to a whole index tuple of `tupdesc`'s row type; `attnum` one of its columns.
#[inline(always)]
pub unsafe fn index_getattr(itup: *const u8, attnum: i16, tupdesc: *const CompactAttribute) -> (Datum, bool) {
    unsafe {
        let att = &*tupdesc.add(attnum as usize - 1);
        let info = t_info(itup);
        if info & INDEX_NULL_MASK != 0 || att.attcacheoff < 0 || !att.attbyval {
            not_modelled("index_getattr: null bitmaps, uncached offsets and by-reference types");
        }
        // IndexInfoFindDataOffset(t_info) without nulls: MAXALIGN(sizeof(IndexTupleData)) = 8.
        let p = itup.add(maxalign(8) + att.attcacheoff as usize);
        // fetch_att: by attlen, as PostgreSQL's switch orders it (1, 2, 4, else 8).
        let d = match att.attlen {
            1 => *p as Datum,
            2 => (p as *const i16).read() as i64 as Datum,
            4 => (p as *const i32).read() as i64 as Datum,
            _ => (p as *const i64).read() as Datum,
        };
        (d, false)
    }
}

/// `BTreeTupleGetNAtts`: a pivot's attribute count from its `t_tid`, else the relation's.
///
/// # Safety
/// `itup` must point to an index tuple.
#[inline(always)]
pub unsafe fn bt_tuple_get_natts(itup: *const u8, rel: &IndexRel) -> i32 {
    unsafe { if is_pivot(itup) { (tid_offset(itup) & BT_OFFSET_MASK) as i32 } else { rel.natts() } }
}

#[cold]
#[inline(never)]
pub(crate) fn not_modelled(what: &str) -> ! {
    panic!("not modelled: {what}")
}

/// `_bt_compare`: the scan key against the tuple at `offnum`: > 0 if the key is greater.
/// The C of csrc/pg_nbtsearch.c in its gcc12-upstream build ([`super::cmodel`]): the
/// minus-infinity shortcut on an internal page's first item, `BTreeTupleGetNAtts` through
/// `rd_rel`, `index_getattr` through `rd_att`, `FunctionCall2Coll` and the sign flip, then the
/// truncated-attribute and truncated-heap-TID rules. A real call, as in PostgreSQL (an
/// exported nbtsearch.c function).
///
/// # Safety
/// `page` must point to a valid B-tree page and `offnum` be one of its offsets.
#[inline(always)]
pub unsafe fn bt_compare(rel: &IndexRel, key: &BTScanInsertData, page: *const Page, offnum: OffsetNumber) -> i32 {
    unsafe { super::cmodel::bt_compare(rel, key, page, offnum) }
}

/// `_bt_binsrch`: on a leaf, the first item >= the key (nextkey = false); on an internal page,
/// the last pivot < the key, whose downlink to follow.
///
/// Out of line: static in nbtsearch.c with two callers (`_bt_search`, `_bt_first`), and gcc
/// keeps it a real call (18's profile names it, two calls a primitive scan).
///
/// # Safety
/// As [`bt_compare`].
#[inline(never)]
pub unsafe fn bt_binsrch(rel: &IndexRel, key: &BTScanInsertData, page: *const Page) -> OffsetNumber {
    unsafe {
        let mut low = first_data_key(page);
        let mut high = max_offset(page);
        if high < low {
            return low;
        }
        high += 1;
        let cmpval = if key.nextkey { 0 } else { 1 };
        while high > low {
            let mid = low + (high - low) / 2;
            if bt_compare(rel, key, page, mid) >= cmpval {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        if opaque_flags(page) & BTP_LEAF != 0 {
            return if key.backward { low - 1 } else { low };
        }
        low - 1
    }
}

/// `_bt_moveright` for a reader: step right while the key is beyond the page's high key (a
/// concurrent split would put it there; in a static index one compare per non-rightmost page).
///
/// Out of line, as in 18's profile (a static function with one caller that gcc does not inline:
/// its write-mode branch is large).
///
/// # Safety
/// `bm` must be live; `buf` pinned and read-locked.
#[inline(never)]
pub unsafe fn bt_moveright(bm: *mut BufMgr, rel: &IndexRel, key: &BTScanInsertData, mut buf: Buffer) -> Buffer {
    unsafe {
        let cmpval = if key.nextkey { 0 } else { 1 };
        loop {
            let page = buffer_get_page(bm, buf);
            let next = opaque_next(page);
            if next == P_NONE {
                break;
            }
            if opaque_flags(page) & (BTP_DELETED | BTP_HALF_DEAD) != 0 || bt_compare(rel, key, page, P_HIKEY) >= cmpval {
                buf = bt_relandgetbuf(bm, rel, buf, next);
                continue;
            }
            break;
        }
        buf
    }
}

/// `_bt_search` for a reader: from the root, at each level `_bt_moveright`, then on an internal
/// page `_bt_binsrch`, a `BTStackData` palloc'd for the page (block, offset, parent) and
/// `_bt_relandgetbuf` to the child. Leaves the read-locked, pinned leaf in `*bufp`
/// (`InvalidBuffer` for an index without a root) and returns the stack (null for a leaf root),
/// which the caller frees with [`bt_freestack`].
///
/// # Safety
/// As [`bt_moveright`] (`bm` holding every page the descent reads); `CurrentMemoryContext`
/// must be live.
pub unsafe fn bt_search(bm: *mut BufMgr, rel: &IndexRel, key: &BTScanInsertData, bufp: &mut Buffer) -> BTStack {
    unsafe {
        let mut stack_in: BTStack = std::ptr::null_mut();
        *bufp = bt_getroot(bm, rel);
        if *bufp == INVALID_BUFFER {
            return stack_in;
        }
        loop {
            *bufp = bt_moveright(bm, rel, key, *bufp);
            let page = buffer_get_page(bm, *bufp);
            if opaque_flags(page) & BTP_LEAF != 0 {
                return stack_in;
            }
            let offnum = bt_binsrch(rel, key, page);
            let child = downlink(Page::item_ptr(page, offnum));
            let new_stack = palloc(size_of::<BTStackData>()) as BTStack;
            new_stack.write(BTStackData {
                bts_blkno: buffer_get_block_number(bm, *bufp),
                bts_offset: offnum,
                bts_parent: stack_in,
            });
            *bufp = bt_relandgetbuf(bm, rel, *bufp, child);
            stack_in = new_stack;
        }
    }
}

/// `_bt_freestack` (nbtutils.c): pfree each entry of the chain.
///
/// # Safety
/// `stack` must be null or a chain from [`bt_search`], not freed since, its context live.
#[inline(never)]
pub unsafe fn bt_freestack(mut stack: BTStack) {
    unsafe {
        while !stack.is_null() {
            let ostack = stack;
            stack = (*stack).bts_parent;
            pfree(ostack.cast());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// nbtpage.c.

/// `_bt_getroot(rel, heaprel, BT_READ)` with the metapage cached in `rd_amcache`: read and
/// lock the fast root and check it is still the root.
///
/// # Safety
/// As [`bt_moveright`].
#[inline(never)]
pub unsafe fn bt_getroot(bm: *mut BufMgr, rel: &IndexRel) -> Buffer {
    unsafe {
        let Some(metad) = rel.metad else { return INVALID_BUFFER };
        let buf = bt_getbuf(bm, rel, metad.fastroot);
        let page = buffer_get_page(bm, buf);
        // !P_IGNORE, btpo_level == rootlevel, P_LEFTMOST and P_RIGHTMOST.
        if opaque_flags(page) & (BTP_DELETED | BTP_HALF_DEAD) != 0
            || opaque_level(page) != metad.fastlevel
            || (special(page) as *const u32).read() != P_NONE
            || opaque_next(page) != P_NONE
        {
            not_modelled("a stale cached metapage (re-reading the metapage)");
        }
        buf
    }
}

/// `_bt_metaversion`: `heapkeyspace` and `allequalimage` from the cached metapage
/// (`rd_amcache`), which `_bt_first` reads on every primitive scan to fill its insertion key.
///
/// # Safety
/// `heapkeyspace` and `allequalimage` must be writable.
#[inline(never)]
pub unsafe fn bt_metaversion(rel: &IndexRel, heapkeyspace: *mut bool, allequalimage: *mut bool) {
    // An index without a root has nothing cached: PostgreSQL reads the metapage here
    // (`_bt_getmeta`, not modelled: the model's block 0 is never read) and finds what a new
    // index's metapage holds, the current version and allequalimage for int4/int8.
    let (version, allequal) = match rel.metad {
        Some(metad) => (metad.version, metad.allequalimage),
        None => (BTREE_VERSION, true),
    };
    unsafe {
        *heapkeyspace = version > BTREE_NOVAC_VERSION;
        *allequalimage = allequal;
    }
}

/// `index_getprocinfo(irel, attnum, procnum)` (indexam.c): the support proc's cached `FmgrInfo`
/// in `rd_supportinfo` (the model's relcache entry has it filled: `fmgr_info_cxt` never runs).
///
/// # Safety
/// `rel.supportinfo` must hold `attnum`'s procs.
#[inline(never)]
pub unsafe fn index_getprocinfo(rel: &IndexRel, attnum: i16, procnum: u16) -> *const FmgrInfo {
    let nproc = rel.amsupport as usize;
    if procnum < 1 || procnum as usize > nproc {
        not_modelled("index_getprocinfo: a procnum beyond amsupport");
    }
    let procindex = nproc * (attnum as usize - 1) + (procnum as usize - 1);
    if rel.supportinfo.is_null() || procindex != 0 {
        not_modelled("index_getprocinfo: support procs other than column 1's ORDER proc");
    }
    let locinfo = unsafe { rel.supportinfo.add(procindex) };
    if unsafe { (*locinfo).fn_oid } == 0 {
        not_modelled("index_getprocinfo: a first lookup (fmgr_info_cxt)");
    }
    locinfo
}

/// `fmgr_info_copy` (fmgr.c): copy the `FmgrInfo`, no `fn_extra`, owned by `destcxt`.
///
/// # Safety
/// `dst` writable, `src` valid.
#[inline(never)]
pub unsafe fn fmgr_info_copy(dst: *mut FmgrInfo, src: *const FmgrInfo, destcxt: *mut u8) {
    unsafe {
        *dst = *src;
        (*dst).fn_mcxt = destcxt;
        (*dst).fn_extra = std::ptr::null_mut();
    }
}

/// `ScanKeyEntryInitializeWithInfo` (scankey.c): fill an insertion scan key, its `sk_func`
/// copied from `finfo` into `CurrentMemoryContext`.
///
/// # Safety
/// `entry` writable, `finfo` valid.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn scan_key_entry_initialize_with_info(
    entry: *mut ScanKeyData,
    flags: i32,
    attno: i16,
    strategy: u16,
    subtype: Oid,
    collation: Oid,
    finfo: *const FmgrInfo,
    argument: Datum,
) {
    unsafe {
        (*entry).sk_flags = flags;
        (*entry).sk_attno = attno;
        (*entry).sk_strategy = strategy;
        (*entry).sk_subtype = subtype;
        (*entry).sk_collation = collation;
        (*entry).sk_argument = argument;
        fmgr_info_copy(&raw mut (*entry).sk_func, finfo, super::mcxt::current_memory_context().cast());
    }
}

/// `_bt_getbuf(rel, blkno, BT_READ)`: `ReadBuffer`, `_bt_lockbuf`, `_bt_checkpage`.
///
/// # Safety
/// As [`bt_moveright`].
#[inline(never)]
pub unsafe fn bt_getbuf(bm: *mut BufMgr, rel: &IndexRel, blkno: BlockNumber) -> Buffer {
    unsafe {
        let buf = read_buffer(bm, &rel.locator, blkno);
        lock_buffer(bm, buf, BufferLockMode::Share);
        bt_checkpage(bm, buf);
        buf
    }
}

/// `_bt_relandgetbuf`: unlock `obuf`, `ReleaseAndReadBuffer` to `blkno`, lock, check.
///
/// # Safety
/// As [`bt_moveright`]; `obuf` pinned and locked.
#[inline(never)]
pub unsafe fn bt_relandgetbuf(bm: *mut BufMgr, rel: &IndexRel, obuf: Buffer, blkno: BlockNumber) -> Buffer {
    unsafe {
        if obuf != INVALID_BUFFER {
            lock_buffer(bm, obuf, BufferLockMode::Unlock);
        }
        let buf = release_and_read_buffer(bm, obuf, &rel.locator, blkno);
        lock_buffer(bm, buf, BufferLockMode::Share);
        bt_checkpage(bm, buf);
        buf
    }
}

/// `_bt_relbuf`: unlock and unpin.
///
/// # Safety
/// As [`bt_relandgetbuf`].
#[inline(never)]
pub unsafe fn bt_relbuf(bm: *mut BufMgr, buf: Buffer) {
    unsafe {
        lock_buffer(bm, buf, BufferLockMode::Unlock);
        release_buffer(bm, buf);
    }
}

/// `_bt_unlockbuf`: release the content lock, keep the pin.
///
/// # Safety
/// As [`bt_relandgetbuf`].
#[inline(never)]
pub unsafe fn bt_unlockbuf(bm: *mut BufMgr, buf: Buffer) {
    unsafe { lock_buffer(bm, buf, BufferLockMode::Unlock) }
}

/// `_bt_checkpage`: not new, and the special space is a `BTPageOpaqueData`. Out of line: an
/// exported nbtpage.c function (18's profile: two calls a primitive scan, from `_bt_getbuf` and
/// `_bt_relandgetbuf`).
#[inline(never)]
unsafe fn bt_checkpage(bm: *mut BufMgr, buf: Buffer) {
    unsafe {
        let page = buffer_get_page(bm, buf) as *const u8;
        let upper = (page.add(14) as *const u16).read();
        let special = (page.add(16) as *const u16).read() as usize;
        let pagesize = ((page.add(18) as *const u16).read() & 0xff00) as usize;
        if upper == 0 || pagesize - special != maxalign(SIZE_OF_BT_PAGE_OPAQUE) {
            corrupted(buf);
        }
        debug_assert_eq!(pagesize, BLCKSZ);
    }
}

#[cold]
#[inline(never)]
fn corrupted(buf: Buffer) -> ! {
    panic!("index contains corrupted page in buffer {buf}")
}
