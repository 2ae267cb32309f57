//! `IndexAmRoutine` (src/include/access/amapi.h), B-tree's handler filling it, and the static
//! routine that replaced it (reference §5).
//!
//! Layout (reference §5.2): 51 fields, 248 bytes on x86-64: the node tag (0-3), three
//! `uint16`s (4-9), 19 `bool`s (10-28), `amparallelvacuumoptions` (29), `amkeytype` (32-35),
//! padding to 40, then 26 function pointers (40-247). Every offset is asserted below.
//!
//! Before bc6374cd76 (2025-12-30), `bthandler` did `makeNode(IndexAmRoutine)` (palloc0 of the
//! whole struct in `CurrentMemoryContext`) and assigned the fields one by one, and
//! `GetIndexAmRoutineByAmId` returned that fresh copy to a caller that pfree'd it, or did
//! not ([`bthandler_palloc`]). Since then the handler returns the address of a static const
//! struct ([`bthandler_static`], [`BTREE_AM_ROUTINE`]).
//!
//! Callback signatures follow amapi.h with our models standing in for PostgreSQL's types:
//! `Relation` is [`IndexRelation`], `IndexScanDesc` is [`IndexScanDesc`], `TIDBitmap` is a
//! [`TidDigest`], `ScanKey` is [`ScanKey`]; the types of callbacks this crate never calls are
//! opaque pointers. Of the B-tree callbacks, the scan ones (`btbeginscan`, `btrescan`,
//! `btgetbitmap`, `btendscan`) are modelled below over [`BTree`] pages and palloc; the rest
//! are stubs that only give the routine real, distinct addresses to store.

use super::itemptr::ItemPointer;
use super::mcxt::palloc0;
use super::nbtree::{BTree, IndexScanDesc, ScanKey};
use scan::{btbeginscan, btendscan, btgetbitmap, btrescan};
use super::sink::TidDigest;
use std::ffi::c_void;
use std::mem::offset_of;

/// `Oid`.
pub type Oid = u32;
/// `InvalidOid`.
pub const INVALID_OID: Oid = 0;
/// `BTREE_AM_OID` (pg_am.dat).
pub const BTREE_AM_OID: Oid = 403;
/// `HASH_AM_OID`.
pub const HASH_AM_OID: Oid = 405;
/// `F_BTHANDLER`: pg_proc OID of `bthandler` (pg_proc.dat).
pub const F_BTHANDLER: Oid = 330;

/// `NodeTag`.
pub type NodeTag = u32;
/// `T_IndexAmRoutine`. PostgreSQL generates the value (nodetags.h); this one is ours.
pub const T_INDEX_AM_ROUTINE: NodeTag = 430;

/// `BTMaxStrategyNumber`.
pub const BT_MAX_STRATEGY_NUMBER: u16 = 5;
/// `BTNProcs` (BTORDER, BTSORTSUPPORT, BTINRANGE, BTEQUALIMAGE, BTOPTIONS, BTSKIPSUPPORT).
pub const BT_N_PROCS: u16 = 6;
/// `BTOPTIONS_PROC`.
pub const BT_OPTIONS_PROC: u16 = 5;
/// `VACUUM_OPTION_PARALLEL_BULKDEL`.
pub const VACUUM_OPTION_PARALLEL_BULKDEL: u8 = 1 << 0;
/// `VACUUM_OPTION_PARALLEL_COND_CLEANUP`.
pub const VACUUM_OPTION_PARALLEL_COND_CLEANUP: u8 = 1 << 1;

/// `RelationData` of an index, cut to what the study reads: the relcache's `rd_indam` and the
/// index pages.
#[derive(Debug)]
pub struct IndexRelation {
    /// `rd_id`.
    pub rd_id: Oid,
    /// `rd_rel->relam`.
    pub relam: Oid,
    /// `rd_indam`: a copy in the index's relcache context before bc6374cd76, the static
    /// routine after.
    pub rd_indam: *const IndexAmRoutine,
    /// The index's pages.
    pub index: *const BTree,
}

type Opaque = *mut c_void;

/// `ambuild_function`.
pub type AmBuildFn = unsafe extern "C" fn(heap: Opaque, index: *mut IndexRelation, info: Opaque) -> Opaque;
/// `ambuildempty_function`.
pub type AmBuildEmptyFn = unsafe extern "C" fn(index: *mut IndexRelation);
/// `aminsert_function`.
pub type AmInsertFn = unsafe extern "C" fn(index: *mut IndexRelation, values: Opaque, isnull: *const bool, heap_tid: *const ItemPointer, heap: Opaque, check_unique: i32, index_unchanged: bool, info: Opaque) -> bool;
/// `aminsertcleanup_function`.
pub type AmInsertCleanupFn = unsafe extern "C" fn(index: *mut IndexRelation, info: Opaque);
/// `ambulkdelete_function`.
pub type AmBulkDeleteFn = unsafe extern "C" fn(info: Opaque, stats: Opaque, callback: Opaque, state: Opaque) -> Opaque;
/// `amvacuumcleanup_function`.
pub type AmVacuumCleanupFn = unsafe extern "C" fn(info: Opaque, stats: Opaque) -> Opaque;
/// `amcanreturn_function`.
pub type AmCanReturnFn = unsafe extern "C" fn(index: *mut IndexRelation, attno: i32) -> bool;
/// `amcostestimate_function`.
pub type AmCostEstimateFn = unsafe extern "C" fn(root: Opaque, path: Opaque, loop_count: f64, startup: *mut f64, total: *mut f64, selectivity: *mut f64, correlation: *mut f64, pages: *mut f64);
/// `amgettreeheight_function`.
pub type AmGetTreeHeightFn = unsafe extern "C" fn(index: *mut IndexRelation) -> i32;
/// `amoptions_function`.
pub type AmOptionsFn = unsafe extern "C" fn(reloptions: usize, validate: bool) -> Opaque;
/// `amproperty_function`.
pub type AmPropertyFn = unsafe extern "C" fn(index_oid: Oid, attno: i32, prop: i32, propname: *const u8, res: *mut bool, isnull: *mut bool) -> bool;
/// `ambuildphasename_function`.
pub type AmBuildPhaseNameFn = unsafe extern "C" fn(phasenum: i64) -> *const u8;
/// `amvalidate_function`.
pub type AmValidateFn = unsafe extern "C" fn(opclassoid: Oid) -> bool;
/// `amadjustmembers_function`.
pub type AmAdjustMembersFn = unsafe extern "C" fn(opfamilyoid: Oid, opclassoid: Oid, operators: Opaque, functions: Opaque);
/// `ambeginscan_function`.
pub type AmBeginScanFn = unsafe extern "C" fn(index: *const IndexRelation, nkeys: i32, norderbys: i32) -> *mut IndexScanDesc;
/// `amrescan_function`.
pub type AmRescanFn = unsafe extern "C" fn(scan: *mut IndexScanDesc, keys: *const ScanKey, nkeys: i32, orderbys: *const ScanKey, norderbys: i32);
/// `amgettuple_function`.
pub type AmGetTupleFn = unsafe extern "C" fn(scan: *mut IndexScanDesc, direction: i32) -> bool;
/// `amgetbitmap_function`.
pub type AmGetBitmapFn = unsafe extern "C" fn(scan: *mut IndexScanDesc, tbm: *mut TidDigest) -> i64;
/// `amendscan_function`.
pub type AmEndScanFn = unsafe extern "C" fn(scan: *mut IndexScanDesc);
/// `ammarkpos_function`.
pub type AmMarkPosFn = unsafe extern "C" fn(scan: *mut IndexScanDesc);
/// `amrestrpos_function`.
pub type AmRestrPosFn = unsafe extern "C" fn(scan: *mut IndexScanDesc);
/// `amestimateparallelscan_function`.
pub type AmEstimateParallelScanFn = unsafe extern "C" fn(index: *mut IndexRelation, nkeys: i32, norderbys: i32) -> usize;
/// `aminitparallelscan_function`.
pub type AmInitParallelScanFn = unsafe extern "C" fn(target: Opaque);
/// `amparallelrescan_function`.
pub type AmParallelRescanFn = unsafe extern "C" fn(scan: *mut IndexScanDesc);
/// `amtranslate_strategy_function`.
pub type AmTranslateStrategyFn = unsafe extern "C" fn(strategy: u16, opfamily: Oid) -> i32;
/// `amtranslate_cmptype_function`.
pub type AmTranslateCmpTypeFn = unsafe extern "C" fn(cmptype: i32, opfamily: Oid) -> u16;

/// `IndexAmRoutine`: 51 fields, 248 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IndexAmRoutine {
    /// `type` (`T_IndexAmRoutine`).
    pub type_: NodeTag,
    /// `amstrategies`.
    pub amstrategies: u16,
    /// `amsupport`.
    pub amsupport: u16,
    /// `amoptsprocnum`.
    pub amoptsprocnum: u16,
    /// `amcanorder`.
    pub amcanorder: bool,
    /// `amcanorderbyop`.
    pub amcanorderbyop: bool,
    /// `amcanhash`.
    pub amcanhash: bool,
    /// `amconsistentequality`.
    pub amconsistentequality: bool,
    /// `amconsistentordering`.
    pub amconsistentordering: bool,
    /// `amcanbackward`.
    pub amcanbackward: bool,
    /// `amcanunique`.
    pub amcanunique: bool,
    /// `amcanmulticol`.
    pub amcanmulticol: bool,
    /// `amoptionalkey`.
    pub amoptionalkey: bool,
    /// `amsearcharray`.
    pub amsearcharray: bool,
    /// `amsearchnulls`.
    pub amsearchnulls: bool,
    /// `amstorage`.
    pub amstorage: bool,
    /// `amclusterable`.
    pub amclusterable: bool,
    /// `ampredlocks`.
    pub ampredlocks: bool,
    /// `amcanparallel`.
    pub amcanparallel: bool,
    /// `amcanbuildparallel`.
    pub amcanbuildparallel: bool,
    /// `amcaninclude`.
    pub amcaninclude: bool,
    /// `amusemaintenanceworkmem`.
    pub amusemaintenanceworkmem: bool,
    /// `amsummarizing`.
    pub amsummarizing: bool,
    /// `amparallelvacuumoptions`.
    pub amparallelvacuumoptions: u8,
    /// `amkeytype`.
    pub amkeytype: Oid,
    /// `ambuild`.
    pub ambuild: Option<AmBuildFn>,
    /// `ambuildempty`.
    pub ambuildempty: Option<AmBuildEmptyFn>,
    /// `aminsert`.
    pub aminsert: Option<AmInsertFn>,
    /// `aminsertcleanup` (can be NULL).
    pub aminsertcleanup: Option<AmInsertCleanupFn>,
    /// `ambulkdelete`.
    pub ambulkdelete: Option<AmBulkDeleteFn>,
    /// `amvacuumcleanup`.
    pub amvacuumcleanup: Option<AmVacuumCleanupFn>,
    /// `amcanreturn` (can be NULL).
    pub amcanreturn: Option<AmCanReturnFn>,
    /// `amcostestimate`.
    pub amcostestimate: Option<AmCostEstimateFn>,
    /// `amgettreeheight` (can be NULL).
    pub amgettreeheight: Option<AmGetTreeHeightFn>,
    /// `amoptions`.
    pub amoptions: Option<AmOptionsFn>,
    /// `amproperty` (can be NULL).
    pub amproperty: Option<AmPropertyFn>,
    /// `ambuildphasename` (can be NULL).
    pub ambuildphasename: Option<AmBuildPhaseNameFn>,
    /// `amvalidate`.
    pub amvalidate: Option<AmValidateFn>,
    /// `amadjustmembers` (can be NULL).
    pub amadjustmembers: Option<AmAdjustMembersFn>,
    /// `ambeginscan`.
    pub ambeginscan: Option<AmBeginScanFn>,
    /// `amrescan`.
    pub amrescan: Option<AmRescanFn>,
    /// `amgettuple` (can be NULL).
    pub amgettuple: Option<AmGetTupleFn>,
    /// `amgetbitmap` (can be NULL).
    pub amgetbitmap: Option<AmGetBitmapFn>,
    /// `amendscan`.
    pub amendscan: Option<AmEndScanFn>,
    /// `ammarkpos` (can be NULL).
    pub ammarkpos: Option<AmMarkPosFn>,
    /// `amrestrpos` (can be NULL).
    pub amrestrpos: Option<AmRestrPosFn>,
    /// `amestimateparallelscan` (can be NULL).
    pub amestimateparallelscan: Option<AmEstimateParallelScanFn>,
    /// `aminitparallelscan` (can be NULL).
    pub aminitparallelscan: Option<AmInitParallelScanFn>,
    /// `amparallelrescan` (can be NULL).
    pub amparallelrescan: Option<AmParallelRescanFn>,
    /// `amtranslatestrategy` (can be NULL).
    pub amtranslatestrategy: Option<AmTranslateStrategyFn>,
    /// `amtranslatecmptype` (can be NULL).
    pub amtranslatecmptype: Option<AmTranslateCmpTypeFn>,
}

/// Fields of `IndexAmRoutine`, and how many are function pointers.
pub const INDEX_AM_ROUTINE_FIELDS: usize = 51;
/// Function pointers.
pub const INDEX_AM_ROUTINE_FN_POINTERS: usize = 26;

const _: () = {
    assert!(size_of::<IndexAmRoutine>() == 248 && align_of::<IndexAmRoutine>() == 8);
    assert!(offset_of!(IndexAmRoutine, amstrategies) == 4);
    assert!(offset_of!(IndexAmRoutine, amoptsprocnum) == 8);
    assert!(offset_of!(IndexAmRoutine, amcanorder) == 10);
    assert!(offset_of!(IndexAmRoutine, amsummarizing) == 28);
    assert!(offset_of!(IndexAmRoutine, amparallelvacuumoptions) == 29);
    assert!(offset_of!(IndexAmRoutine, amkeytype) == 32);
    assert!(offset_of!(IndexAmRoutine, ambuild) == 40);
    assert!(offset_of!(IndexAmRoutine, amrestrpos) == 40 + 20 * 8);
    assert!(offset_of!(IndexAmRoutine, amestimateparallelscan) == 40 + 21 * 8);
    assert!(offset_of!(IndexAmRoutine, amtranslatecmptype) == 240);
    // 26 pointers end the struct.
    assert!(248 - offset_of!(IndexAmRoutine, ambuild) == INDEX_AM_ROUTINE_FN_POINTERS * 8);
    // Option<fn> is one pointer, null for NULL.
    assert!(size_of::<Option<AmBeginScanFn>>() == 8);
};

/// Stubs for the B-tree callbacks this crate never calls: each has its own body, so each
/// routine slot holds a distinct address, as bthandler's does.
mod stubs {
    use super::*;
    pub unsafe extern "C" fn btbuild(_: Opaque, _: *mut IndexRelation, _: Opaque) -> Opaque {
        std::hint::black_box(1usize) as Opaque
    }
    pub unsafe extern "C" fn btbuildempty(_: *mut IndexRelation) {
        std::hint::black_box(2);
    }
    pub unsafe extern "C" fn btinsert(_: *mut IndexRelation, _: Opaque, _: *const bool, _: *const ItemPointer, _: Opaque, _: i32, _: bool, _: Opaque) -> bool {
        std::hint::black_box(3) == 3
    }
    pub unsafe extern "C" fn btbulkdelete(_: Opaque, s: Opaque, _: Opaque, _: Opaque) -> Opaque {
        std::hint::black_box(s)
    }
    pub unsafe extern "C" fn btvacuumcleanup(_: Opaque, s: Opaque) -> Opaque {
        std::hint::black_box(s).wrapping_add(0)
    }
    pub unsafe extern "C" fn btcanreturn(_: *mut IndexRelation, a: i32) -> bool {
        std::hint::black_box(a) > 0
    }
    pub unsafe extern "C" fn btcostestimate(_: Opaque, _: Opaque, l: f64, s: *mut f64, t: *mut f64, sel: *mut f64, c: *mut f64, p: *mut f64) {
        unsafe {
            *s = 0.0;
            *t = l;
            *sel = 0.0;
            *c = 1.0;
            *p = 1.0;
        }
    }
    pub unsafe extern "C" fn btgettreeheight(_: *mut IndexRelation) -> i32 {
        std::hint::black_box(1)
    }
    pub unsafe extern "C" fn btoptions(r: usize, _: bool) -> Opaque {
        std::hint::black_box(r) as Opaque
    }
    pub unsafe extern "C" fn btproperty(_: Oid, _: i32, _: i32, _: *const u8, _: *mut bool, _: *mut bool) -> bool {
        std::hint::black_box(false)
    }
    pub unsafe extern "C" fn btbuildphasename(p: i64) -> *const u8 {
        std::hint::black_box(p) as *const u8
    }
    pub unsafe extern "C" fn btvalidate(o: Oid) -> bool {
        std::hint::black_box(o) != 0
    }
    pub unsafe extern "C" fn btadjustmembers(_: Oid, _: Oid, _: Opaque, _: Opaque) {
        std::hint::black_box(4);
    }
    pub unsafe extern "C" fn btgettuple(_: *mut IndexScanDesc, d: i32) -> bool {
        std::hint::black_box(d) == 5
    }
    pub unsafe extern "C" fn btmarkpos(_: *mut IndexScanDesc) {
        std::hint::black_box(6);
    }
    pub unsafe extern "C" fn btrestrpos(_: *mut IndexScanDesc) {
        std::hint::black_box(7);
    }
    pub unsafe extern "C" fn btestimateparallelscan(_: *mut IndexRelation, k: i32, o: i32) -> usize {
        std::hint::black_box((k + o) as usize)
    }
    pub unsafe extern "C" fn btinitparallelscan(_: Opaque) {
        std::hint::black_box(8);
    }
    pub unsafe extern "C" fn btparallelrescan(_: *mut IndexScanDesc) {
        std::hint::black_box(9);
    }
    pub unsafe extern "C" fn bttranslatestrategy(s: u16, _: Oid) -> i32 {
        std::hint::black_box(s as i32)
    }
    pub unsafe extern "C" fn bttranslatecmptype(c: i32, _: Oid) -> u16 {
        std::hint::black_box(c as u16)
    }
}

/// What `bthandler` sets (PostgreSQL 18's values).
pub const fn btree_routine() -> IndexAmRoutine {
    use stubs::*;
    IndexAmRoutine {
        type_: T_INDEX_AM_ROUTINE,
        amstrategies: BT_MAX_STRATEGY_NUMBER,
        amsupport: BT_N_PROCS,
        amoptsprocnum: BT_OPTIONS_PROC,
        amcanorder: true,
        amcanorderbyop: false,
        amcanhash: false,
        amconsistentequality: true,
        amconsistentordering: true,
        amcanbackward: true,
        amcanunique: true,
        amcanmulticol: true,
        amoptionalkey: true,
        amsearcharray: true,
        amsearchnulls: true,
        amstorage: false,
        amclusterable: true,
        ampredlocks: true,
        amcanparallel: true,
        amcanbuildparallel: true,
        amcaninclude: true,
        amusemaintenanceworkmem: false,
        amsummarizing: false,
        amparallelvacuumoptions: VACUUM_OPTION_PARALLEL_BULKDEL | VACUUM_OPTION_PARALLEL_COND_CLEANUP,
        amkeytype: INVALID_OID,
        ambuild: Some(btbuild),
        ambuildempty: Some(btbuildempty),
        aminsert: Some(btinsert),
        aminsertcleanup: None,
        ambulkdelete: Some(btbulkdelete),
        amvacuumcleanup: Some(btvacuumcleanup),
        amcanreturn: Some(btcanreturn),
        amcostestimate: Some(btcostestimate),
        amgettreeheight: Some(btgettreeheight),
        amoptions: Some(btoptions),
        amproperty: Some(btproperty),
        ambuildphasename: Some(btbuildphasename),
        amvalidate: Some(btvalidate),
        amadjustmembers: Some(btadjustmembers),
        ambeginscan: Some(btbeginscan),
        amrescan: Some(btrescan),
        amgettuple: Some(btgettuple),
        amgetbitmap: Some(btgetbitmap),
        amendscan: Some(btendscan),
        ammarkpos: Some(btmarkpos),
        amrestrpos: Some(btrestrpos),
        amestimateparallelscan: Some(btestimateparallelscan),
        aminitparallelscan: Some(btinitparallelscan),
        amparallelrescan: Some(btparallelrescan),
        amtranslatestrategy: Some(bttranslatestrategy),
        amtranslatecmptype: Some(bttranslatecmptype),
    }
}

/// `bthandler` before bc6374cd76: `makeNode(IndexAmRoutine)` — palloc0 of 248 bytes in
/// `CurrentMemoryContext` — then ~50 assignments, in amapi.h order. Out of line, as a handler
/// called through fmgr is; the kernel worth reading in asm.
///
/// # Safety
/// `CurrentMemoryContext` must be a live context.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe extern "C" fn hl_bthandler_palloc() -> *const IndexAmRoutine {
    use stubs::*;
    unsafe {
        let r = palloc0(size_of::<IndexAmRoutine>()).cast::<IndexAmRoutine>();
        // Field by field through the pointer, as the C does (not one struct copy).
        (*r).type_ = T_INDEX_AM_ROUTINE;
        (*r).amstrategies = BT_MAX_STRATEGY_NUMBER;
        (*r).amsupport = BT_N_PROCS;
        (*r).amoptsprocnum = BT_OPTIONS_PROC;
        (*r).amcanorder = true;
        (*r).amcanorderbyop = false;
        (*r).amcanhash = false;
        (*r).amconsistentequality = true;
        (*r).amconsistentordering = true;
        (*r).amcanbackward = true;
        (*r).amcanunique = true;
        (*r).amcanmulticol = true;
        (*r).amoptionalkey = true;
        (*r).amsearcharray = true;
        (*r).amsearchnulls = true;
        (*r).amstorage = false;
        (*r).amclusterable = true;
        (*r).ampredlocks = true;
        (*r).amcanparallel = true;
        (*r).amcanbuildparallel = true;
        (*r).amcaninclude = true;
        (*r).amusemaintenanceworkmem = false;
        (*r).amsummarizing = false;
        (*r).amparallelvacuumoptions = VACUUM_OPTION_PARALLEL_BULKDEL | VACUUM_OPTION_PARALLEL_COND_CLEANUP;
        (*r).amkeytype = INVALID_OID;
        (*r).ambuild = Some(btbuild);
        (*r).ambuildempty = Some(btbuildempty);
        (*r).aminsert = Some(btinsert);
        (*r).aminsertcleanup = None;
        (*r).ambulkdelete = Some(btbulkdelete);
        (*r).amvacuumcleanup = Some(btvacuumcleanup);
        (*r).amcanreturn = Some(btcanreturn);
        (*r).amcostestimate = Some(btcostestimate);
        (*r).amgettreeheight = Some(btgettreeheight);
        (*r).amoptions = Some(btoptions);
        (*r).amproperty = Some(btproperty);
        (*r).ambuildphasename = Some(btbuildphasename);
        (*r).amvalidate = Some(btvalidate);
        (*r).amadjustmembers = Some(btadjustmembers);
        (*r).ambeginscan = Some(btbeginscan);
        (*r).amrescan = Some(btrescan);
        (*r).amgettuple = Some(btgettuple);
        (*r).amgetbitmap = Some(btgetbitmap);
        (*r).amendscan = Some(btendscan);
        (*r).ammarkpos = Some(btmarkpos);
        (*r).amrestrpos = Some(btrestrpos);
        (*r).amestimateparallelscan = Some(btestimateparallelscan);
        (*r).aminitparallelscan = Some(btinitparallelscan);
        (*r).amparallelrescan = Some(btparallelrescan);
        (*r).amtranslatestrategy = Some(bttranslatestrategy);
        (*r).amtranslatecmptype = Some(bttranslatecmptype);
        r
    }
}

/// `bthandler` since bc6374cd76: the address of a static const routine.
///
/// # Safety
/// None beyond the signature's; `unsafe` to share the handler type.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe extern "C" fn hl_bthandler_static() -> *const IndexAmRoutine {
    &BTREE_AM_ROUTINE
}

/// The static routine the handler returns since bc6374cd76.
pub static BTREE_AM_ROUTINE: IndexAmRoutine = btree_routine();

/// An index AM handler as the study calls it (`OidFunctionCall0(amhandler)` in C).
pub type AmHandler = unsafe extern "C" fn() -> *const IndexAmRoutine;

/// Is every field equal, function pointers by address?
pub fn routines_equal(a: &IndexAmRoutine, b: &IndexAmRoutine) -> bool {
    // SAFETY: both are 248 initialised bytes apart from padding; compare field bytes only.
    let bytes = |r: &IndexAmRoutine| -> Vec<u8> {
        let p = (r as *const IndexAmRoutine).cast::<u8>();
        let mut v = Vec::with_capacity(248);
        unsafe {
            v.extend_from_slice(std::slice::from_raw_parts(p, 30));
            v.extend_from_slice(std::slice::from_raw_parts(p.add(32), 4));
            v.extend_from_slice(std::slice::from_raw_parts(p.add(40), 208));
        }
        v
    };
    bytes(a) == bytes(b)
}

/// B-tree's scan callbacks (nbtree.c, nbtsearch.c, nbtreadpage.c) for one equality key on an
/// int4 column, allocating in `CurrentMemoryContext` as PostgreSQL 18 does: `btbeginscan`
/// pallocs the scan descriptor, its key array and the 27,352-byte `BTScanOpaqueData` (over
/// the 8 KiB chunk limit, so a dedicated malloc'd block); `btendscan` pfrees them. Only the
/// fields btbeginscan, btrescan and `_bt_readpage` write are written: palloc does not zero,
/// and which pages of the scan state get touched is part of what the study measures.
pub mod scan {
    use super::*;
    use crate::pg::itemptr::INVALID_BLOCK_NUMBER;
    use crate::pg::mcxt::{palloc, pfree};
    use crate::pg::nbtree::{BTScanOpaque, BTScanPosItem, KeyType, SK_BT_REQBKWD, SK_BT_REQFWD, ScanDirection, tuple_key, tuple_tid};
    use crate::pg::page::Page;
    use std::ptr;

    /// `BTEqualStrategyNumber`.
    pub const BT_EQUAL_STRATEGY_NUMBER: u16 = 3;

    /// `ScanKeyInit(key, attno, BTEqualStrategyNumber, F_INT4EQ, value)`.
    pub fn eq_key(value: i64) -> ScanKey {
        ScanKey { sk_flags: 0, sk_attno: 1, sk_strategy: BT_EQUAL_STRATEGY_NUMBER, sk_argument: value }
    }

    /// `btbeginscan` (with `RelationGetIndexScan`).
    ///
    /// # Safety
    /// `rel` must be a live relation; `CurrentMemoryContext` live.
    pub unsafe extern "C" fn btbeginscan(rel: *const IndexRelation, nkeys: i32, norderbys: i32) -> *mut IndexScanDesc {
        unsafe {
            let scan = palloc(size_of::<IndexScanDesc>()).cast::<IndexScanDesc>();
            let key_data = if nkeys > 0 { palloc(nkeys as usize * size_of::<ScanKey>()).cast::<ScanKey>() } else { ptr::null_mut() };
            scan.write(IndexScanDesc {
                heap_relation: ptr::null(),
                index_relation: (*rel).index,
                xs_snapshot: ptr::null(),
                number_of_keys: nkeys,
                number_of_order_bys: norderbys,
                key_data,
                order_by_data: ptr::null(),
                xs_want_itup: false,
                xs_temp_snap: false,
                kill_prior_tuple: false,
                ignore_killed_tuples: true,
                opaque: ptr::null_mut(),
            });
            let so = palloc(size_of::<BTScanOpaque>()).cast::<BTScanOpaque>();
            // BTScanPosInvalidate(so->currPos), BTScanPosInvalidate(so->markPos).
            (*so).curr_pos.buf = 0;
            (*so).curr_pos.curr_page = INVALID_BLOCK_NUMBER;
            (*so).mark_pos.buf = 0;
            (*so).mark_pos.curr_page = INVALID_BLOCK_NUMBER;
            (*so).key_data = if nkeys > 0 { palloc(nkeys as usize * size_of::<ScanKey>()).cast::<ScanKey>() } else { ptr::null_mut() };
            (*so).skip_scan = false;
            (*so).need_prim_scan = false;
            (*so).scan_behind = false;
            (*so).opposite_dir_check = false;
            (*so).array_keys = ptr::null_mut();
            (*so).order_procs = ptr::null_mut();
            (*so).array_context = ptr::null_mut();
            (*so).killed_items = ptr::null_mut();
            (*so).num_killed = 0;
            (*so).curr_tuples = ptr::null_mut();
            (*so).mark_tuples = ptr::null_mut();
            (*scan).opaque = so;
            scan
        }
    }

    /// `btrescan`: forget positions, copy in the new keys.
    ///
    /// # Safety
    /// `scan` from [`btbeginscan`], `keys` pointing to its `nkeys` keys.
    pub unsafe extern "C" fn btrescan(scan: *mut IndexScanDesc, keys: *const ScanKey, nkeys: i32, _orderbys: *const ScanKey, _norderbys: i32) {
        unsafe {
            let so = (*scan).opaque;
            (*so).mark_item_index = -1;
            (*so).need_prim_scan = false;
            (*so).scan_behind = false;
            (*so).opposite_dir_check = false;
            (*so).curr_pos.buf = 0;
            (*so).curr_pos.curr_page = INVALID_BLOCK_NUMBER;
            (*so).mark_pos.buf = 0;
            (*so).mark_pos.curr_page = INVALID_BLOCK_NUMBER;
            // An index-only scan (the executor set xs_want_itup) gets its tuple workspace
            // on the first rescan: two pages, the current and the marked position's halves.
            // 16 KiB, over AllocSet's chunk limit, so a malloc of its own per partition.
            if (*scan).xs_want_itup && (*so).curr_tuples.is_null() {
                (*so).curr_tuples = palloc(2 * crate::pg::page::BLCKSZ).cast();
                (*so).mark_tuples = (*so).curr_tuples.add(crate::pg::page::BLCKSZ);
            }
            if !keys.is_null() && nkeys > 0 {
                ptr::copy_nonoverlapping(keys, (*scan).key_data.cast_mut(), nkeys as usize);
            }
            (*so).number_of_keys = 0;
            (*so).num_array_keys = 0;
        }
    }

    /// `_bt_readpage` for `key = value` from `offnum`: save the matching heap TIDs into
    /// `currPos.items`; the scan goes on to the right sibling only while every tuple matched.
    unsafe fn bt_readpage(so: *mut BTScanOpaque, rel: &BTree, block: u32, offnum: u16, value: i64) -> bool {
        unsafe {
            let page = rel.page(block);
            let op = BTree::opaque(page);
            let pos = &raw mut (*so).curr_pos;
            (*pos).curr_page = block;
            (*pos).prev_page = op.prev;
            (*pos).next_page = op.next;
            (*pos).dir = ScanDirection::Forward;
            (*pos).more_left = true;
            let items = (&raw mut (*pos).items).cast::<BTScanPosItem>();
            let mut n = 0usize;
            let mut continuescan = true;
            for off in offnum..=page.max_offset() {
                let t = Page::item_ptr(page, off);
                if tuple_key(KeyType::Int4, t) != value {
                    // Keys are >= value from here: the required equality key ends the scan.
                    continuescan = false;
                    break;
                }
                items.add(n).write(BTScanPosItem { heap_tid: tuple_tid(t), index_offset: off, tuple_offset: 0 });
                n += 1;
            }
            (*pos).more_right = continuescan && op.next != 0;
            (*pos).first_item = 0;
            (*pos).last_item = n as i32 - 1;
            (*pos).item_index = 0;
            n > 0
        }
    }

    /// `_bt_steppage` forward: the next page that has matches, or invalidate and stop.
    unsafe fn bt_steppage(so: *mut BTScanOpaque, rel: &BTree, value: i64) -> bool {
        unsafe {
            // bt_readpage updates moreRight through `so`.
            loop {
                if !(*so).curr_pos.more_right {
                    break;
                }
                let next = (*so).curr_pos.next_page;
                let first = BTree::first_data_key(rel.page(next));
                if bt_readpage(so, rel, next, first, value) {
                    return true;
                }
            }
            (*so).curr_pos.buf = 0;
            (*so).curr_pos.curr_page = INVALID_BLOCK_NUMBER;
            false
        }
    }

    /// `btgetbitmap`: `_bt_first` (key preprocessing, descent to the first key >= value),
    /// then every match to `tbm_add_tuples`, one TID a call as nbtree does.
    ///
    /// # Safety
    /// `scan` rescanned with one key; `tbm` live.
    pub unsafe extern "C" fn btgetbitmap(scan: *mut IndexScanDesc, tbm: *mut TidDigest) -> i64 {
        unsafe {
            let so = (*scan).opaque;
            let rel = &*(*scan).index_relation;
            // _bt_preprocess_keys: one equality key, required in both directions.
            let mut key = *(*scan).key_data;
            key.sk_flags |= SK_BT_REQFWD | SK_BT_REQBKWD;
            *(*so).key_data.cast_mut() = key;
            (*so).number_of_keys = 1;
            (*so).qual_ok = true;
            let value = key.sk_argument;
            let Some((leaf, off)) = rel.first_leaf_ge(value) else {
                (*so).curr_pos.buf = 0;
                (*so).curr_pos.curr_page = INVALID_BLOCK_NUMBER;
                return 0;
            };
            let first = bt_readpage(so, rel, BTree::leaf_block(leaf), off, value) || bt_steppage(so, rel, value);
            if !first {
                return 0;
            }
            let mut ntids = 0i64;
            loop {
                let pos = &raw mut (*so).curr_pos;
                while (*pos).item_index <= (*pos).last_item {
                    let it = (&raw const (*pos).items).cast::<BTScanPosItem>().add((*pos).item_index as usize);
                    (*tbm).push((*it).heap_tid, false);
                    (*tbm).calls += 1;
                    ntids += 1;
                    (*pos).item_index += 1;
                }
                if !bt_steppage(so, rel, value) {
                    break;
                }
            }
            ntids
        }
    }

    /// `btendscan`: release the key array and the scan state (its dedicated block goes back
    /// to malloc).
    ///
    /// # Safety
    /// `scan` from [`btbeginscan`], not ended yet.
    pub unsafe extern "C" fn btendscan(scan: *mut IndexScanDesc) {
        unsafe {
            let so = (*scan).opaque;
            (*so).mark_item_index = -1;
            if !(*so).key_data.is_null() {
                pfree((*so).key_data.cast_mut().cast());
            }
            if !(*so).killed_items.is_null() {
                pfree((*so).killed_items.cast());
            }
            if !(*so).curr_tuples.is_null() {
                pfree((*so).curr_tuples);
            }
            pfree(so.cast());
            (*scan).opaque = ptr::null_mut();
        }
    }
}

/// A `pg_am` row (`SearchSysCache1(AMOID)` in C).
#[derive(Clone, Copy, Debug)]
pub struct PgAm {
    /// `oid`.
    pub oid: Oid,
    /// `amname`.
    pub amname: &'static str,
    /// `amtype`: `AMTYPE_INDEX` ('i') or `AMTYPE_TABLE` ('t').
    pub amtype: u8,
    /// `amhandler` (`regproc`); None for AMs this crate does not model.
    pub amhandler: Option<AmHandler>,
}

/// `AMTYPE_INDEX`.
pub const AMTYPE_INDEX: u8 = b'i';

/// `pg_am` as initdb leaves it, with B-tree's handler `btree`.
pub fn pg_am(btree: AmHandler) -> [PgAm; 7] {
    [
        PgAm { oid: 2, amname: "heap", amtype: b't', amhandler: None },
        PgAm { oid: BTREE_AM_OID, amname: "btree", amtype: AMTYPE_INDEX, amhandler: Some(btree) },
        PgAm { oid: HASH_AM_OID, amname: "hash", amtype: AMTYPE_INDEX, amhandler: None },
        PgAm { oid: 783, amname: "gist", amtype: AMTYPE_INDEX, amhandler: None },
        PgAm { oid: 2742, amname: "gin", amtype: AMTYPE_INDEX, amhandler: None },
        PgAm { oid: 4000, amname: "spgist", amtype: AMTYPE_INDEX, amhandler: None },
        PgAm { oid: 3580, amname: "brin", amtype: AMTYPE_INDEX, amhandler: None },
    ]
}

/// Why a routine look-up failed (`elog(ERROR)` in C).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmLookupError {
    /// No `pg_am` row.
    NoSuchAm(Oid),
    /// The row is not an index AM.
    NotAnIndexAm(&'static str),
    /// The AM's handler is not modelled here.
    NoHandler(&'static str),
    /// The handler returned something that is not an `IndexAmRoutine`.
    BadRoutine(&'static str),
}

impl std::fmt::Display for AmLookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AmLookupError::NoSuchAm(o) => write!(f, "cache lookup failed for access method {o}"),
            AmLookupError::NotAnIndexAm(n) => write!(f, "access method \"{n}\" is not of type INDEX"),
            AmLookupError::NoHandler(n) => write!(f, "index access method \"{n}\" does not have a handler"),
            AmLookupError::BadRoutine(n) => write!(f, "index access method handler of \"{n}\" did not return an IndexAmRoutine struct"),
        }
    }
}

impl std::error::Error for AmLookupError {}

/// `GetIndexAmRoutineByAmId(amoid, false)`: the `pg_am` lookup, then `GetIndexAmRoutine`
/// (call the handler, check the node tag). Before bc6374cd76 the result is a fresh palloc'd
/// struct the caller owns; after, the static one.
///
/// # Safety
/// `CurrentMemoryContext` must be live when the handler pallocs.
#[inline]
pub unsafe fn get_index_am_routine_by_am_id(pg_am: &[PgAm], amoid: Oid) -> Result<*const IndexAmRoutine, AmLookupError> {
    let Some(row) = pg_am.iter().find(|r| r.oid == amoid) else {
        return Err(AmLookupError::NoSuchAm(amoid));
    };
    if row.amtype != AMTYPE_INDEX {
        return Err(AmLookupError::NotAnIndexAm(row.amname));
    }
    let Some(handler) = row.amhandler else {
        return Err(AmLookupError::NoHandler(row.amname));
    };
    // SAFETY: the handler's contract is the caller's.
    let r = unsafe { handler() };
    if r.is_null() || unsafe { (*r).type_ } != T_INDEX_AM_ROUTINE {
        return Err(AmLookupError::BadRoutine(row.amname));
    }
    Ok(r)
}
