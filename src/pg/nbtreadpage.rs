//! Reading a leaf for a scan with an `= ANY(array)` key: `_bt_readpage`, `_bt_checkkeys`,
//! `_bt_check_compare`, `_bt_tuple_before_array_skeys` (those three as gcc's C,
//! [`crate::pg::cmodel`], csrc/pg_nbtutils.c), `_bt_advance_array_keys` and
//! `_bt_saveitem` (src/backend/access/nbtree/nbtreadpage.c on master), `_bt_binsrch_array_skey`,
//! `_bt_start_array_keys`, `_bt_start_prim_scan` (nbtutils.c), and the keys
//! `_bt_preprocess_keys` outputs ([`crate::pg::nbtpreprocesskeys`]): the array sorted by the
//! ORDER proc and deduplicated once per `btrescan`.
//!
//! What is modelled is the path a forward scan with one required equality array key on the
//! first column takes: each tuple is tested with the `=` operator's function (`int8eq` through
//! `FunctionCall2Coll`); the first tuple past the current element fails the required key, so
//! `_bt_tuple_before_array_skeys` and `_bt_advance_array_keys` compare it with the array through
//! the ORDER proc (`btint8cmp`), advance the array (the optimistic next-element compare, then a
//! binary search), and test the page's high key (`finaltup`) against the new element: beyond
//! the page, the primitive scan ends and asks for another (`needPrimScan`); on the page, the
//! scan goes on reading it. Left out: inequality keys, skip arrays, row compares, null keys,
//! multiple arrays, backward scans, posting lists, `_bt_set_startikey` and the "look ahead"
//! skip (`_bt_checkkeys_look_ahead`: only fewer comparisons when many tuples lie between two
//! elements on one leaf), and parallel scans; reaching any of them panics.

use super::bufmgr::{BufMgr, buffer_get_block_number, buffer_get_page};
use super::array::ArrayType;
use super::fmgr::{Datum, FmgrInfo, INT4OID, Oid, datum_get_bool, datum_get_int32, function_call2_coll};
use super::mcxt::AllocSet;
use super::itemptr::{BlockNumber, OffsetNumber};
use super::nbtree::{BTScanOpaque, BTScanPosItem, P_HIKEY, P_NONE, SK_BT_REQBKWD, SK_BT_REQFWD, ScanDirection, tuple_tid};
use super::nbtsearch::{
    IndexRel, SK_BT_DESC, SK_BT_NULLS_FIRST, SK_ISNULL, ScanKeyData, bt_tuple_get_natts, first_data_key, index_getattr,
    max_offset, not_modelled, opaque_next,
};
use super::page::Page;
use super::predicate::predicate_lock_page;

/// `SK_ROW_HEADER`.
pub const SK_ROW_HEADER: i32 = 0x0004;
/// `SK_SEARCHARRAY`.
pub const SK_SEARCHARRAY: i32 = 0x0020;
/// `SK_BT_SKIP`.
pub const SK_BT_SKIP: i32 = 0x0004_0000;
/// `SK_BT_MINVAL | SK_BT_MAXVAL | SK_BT_NEXT | SK_BT_PRIOR`: a skip array's sentinels.
pub const SK_BT_SKIP_SENTINELS: i32 = 0x0008_0000 | 0x0010_0000 | 0x0020_0000 | 0x0040_0000;
/// `BTEqualStrategyNumber`.
pub const BT_EQUAL_STRATEGY_NUMBER: u16 = 3;
/// `BTLessStrategyNumber`.
pub const BT_LESS_STRATEGY_NUMBER: u16 = 1;
/// `NSKIPADVANCES_THRESHOLD`.
const NSKIPADVANCES_THRESHOLD: i16 = 3;
/// `InvalidOffsetNumber`.
const INVALID_OFFSET_NUMBER: OffsetNumber = 0;
/// `LP_DEAD` in `ItemIdData.lp_flags`.
const LP_DEAD: u32 = 3;

/// `BTArrayKeyInfo` for a SAOP array (a skip array has `num_elems` = -1; not modelled).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BTArrayKeyInfo {
    /// `scan_key`: index into `keyData`.
    pub scan_key: i32,
    /// `num_elems`.
    pub num_elems: i32,
    /// `cur_elem`.
    pub cur_elem: i32,
    /// `elem_values`.
    pub elem_values: *mut Datum,
}

/// A scan's keys for `col0 = ANY(array)` or `col0 < bound`: the input key as the executor
/// builds it (`scan->keyData`; for `= ANY` its argument is the array constant), and what
/// `_bt_preprocess_keys` outputs at the first `_bt_first` after each `btrescan`
/// ([`crate::pg::nbtpreprocesskeys`]): `so->keyData` (one search-type key, marked required),
/// and for an array `so->orderProcs` and `so->arrayKeys` (the sorted, deduplicated elements),
/// `palloc`'d in `so->arrayContext`. `so.array_keys` and `so.order_procs` point to those.
/// `#[repr(C)]`: the C `_bt_tuple_before_array_skeys` reads the fields up to `order_procs`
/// (`PGBTScanKeys` in csrc/hl_pg.h).
#[repr(C)]
pub struct BTScanKeys {
    /// `so->numberOfKeys` once preprocessed.
    pub number_of_keys: i32,
    /// `scan->keyData`: the input key.
    pub input: [ScanKeyData; 1],
    /// `so->keyData`: the output key.
    pub key_data: [ScanKeyData; 1],
    /// `so->orderProcs` (in the array context; null without an array or before preprocessing).
    pub order_procs: *mut FmgrInfo,
    /// `so->arrayKeys` (as `order_procs`).
    pub array_keys: *mut BTArrayKeyInfo,
    /// `rel->rd_indoption` of the key column (0: ASC, NULLS LAST).
    pub indoption: [i16; 1],
    /// `rel->rd_opcintype` of the key column.
    pub opcintype: Oid,
    /// The array constant (`DatumGetArrayTypeP(sk_argument)`), for `= ANY`.
    pub array: Option<ArrayType>,
    /// `so->arrayContext`: made at the first preprocessing, reset at each later one.
    pub array_context: Option<AllocSet>,
}

impl BTScanKeys {
    /// `col0 = ANY(values)` on a column of `opcintype` (int8 or int4: the array's element
    /// type), with the `=` operator's function as the executor's `ScanKeyEntryInitialize`
    /// sets it (`sk_subtype` the operator's right type, here the column's).
    pub fn new(values: &[Datum], opcintype: Oid, eqproc: FmgrInfo) -> Box<BTScanKeys> {
        let elmlen = if opcintype == INT4OID { 4 } else { 8 };
        let array = ArrayType::new(opcintype, elmlen, values);
        let input = ScanKeyData {
            sk_flags: SK_SEARCHARRAY,
            sk_attno: 1,
            sk_strategy: BT_EQUAL_STRATEGY_NUMBER,
            sk_subtype: opcintype,
            sk_collation: 0,
            sk_func: eqproc,
            sk_argument: array.as_ptr() as Datum,
        };
        Self::with_input(input, opcintype, Some(array))
    }

    /// `col0 < bound`: one inequality key, no arrays (preprocessing marks it required in the
    /// forward direction: the scan ends at the first tuple that fails it). `ltproc` is the
    /// `<` operator's function (`int84lt` for seed 000's int4 literal).
    pub fn less_than(bound: Datum, opcintype: Oid, subtype: Oid, ltproc: FmgrInfo) -> Box<BTScanKeys> {
        let input = ScanKeyData {
            sk_flags: 0,
            sk_attno: 1,
            sk_strategy: BT_LESS_STRATEGY_NUMBER,
            sk_subtype: subtype,
            sk_collation: 0,
            sk_func: ltproc,
            sk_argument: bound,
        };
        Self::with_input(input, opcintype, None)
    }

    /// Keys not yet preprocessed: the output key starts as a copy of the input.
    fn with_input(input: ScanKeyData, opcintype: Oid, array: Option<ArrayType>) -> Box<BTScanKeys> {
        Box::new(BTScanKeys {
            number_of_keys: 0,
            input: [input],
            key_data: [input],
            order_procs: std::ptr::null_mut(),
            array_keys: std::ptr::null_mut(),
            indoption: [0],
            opcintype,
            array,
            array_context: None,
        })
    }

    /// The array after the last preprocessing (sorted, deduplicated); empty before the first
    /// or without an array.
    pub fn elems(&self) -> &[Datum] {
        if self.array_keys.is_null() {
            return &[];
        }
        // SAFETY: array_keys and its elements live in array_context until its next reset.
        unsafe {
            let a = &*self.array_keys;
            std::slice::from_raw_parts(a.elem_values, a.num_elems as usize)
        }
    }
}

/// What an `IndexScanDesc` gives these functions: the opaque, its keys, the relation.
/// `#[repr(C)]`: the C `_bt_checkkeys` reads it (`PGNbtScan` in csrc/hl_pg.h).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct NbtScan {
    /// `scan->opaque`.
    pub so: *mut BTScanOpaque,
    /// `so->keyData`, `so->orderProcs`, `so->arrayKeys`.
    pub keys: *mut BTScanKeys,
    /// `scan->indexRelation`.
    pub rel: *const IndexRel,
}

/// `BTReadPageState` (18): what `_bt_readpage` keeps for `_bt_checkkeys` while it reads a
/// page. `#[repr(C)]`: the C `_bt_checkkeys` reads and writes it (`PGBTReadPageState`).
#[repr(C)]
#[derive(Debug)]
pub struct BTReadPageState {
    /// `minoff`: the page's first data item.
    pub minoff: OffsetNumber,
    /// `maxoff`: its last.
    pub maxoff: OffsetNumber,
    /// `finaltup`: the high key (null on the rightmost page or without arrays).
    pub finaltup: *const u8,
    /// `firstpage`: the primitive scan's first page.
    pub firstpage: bool,
    /// `forcenonrequired`.
    pub forcenonrequired: bool,
    /// `startikey`: the first key `_bt_check_compare` tests ([`bt_set_startikey`]).
    pub startikey: i32,
    /// `offnum`: the tuple being checked.
    pub offnum: OffsetNumber,
    /// `skip`: where `_bt_advance_array_keys` asks the read to go on.
    pub skip: OffsetNumber,
    /// `continuescan`: cleared when no later tuple can pass.
    pub continuescan: bool,
    /// `rechecks`.
    pub rechecks: i16,
    /// `targetdistance`.
    pub targetdistance: i16,
    /// `nskipadvances`.
    pub nskipadvances: i16,
}

/// `_bt_start_array_keys`: every array to its first element for `dir`.
///
/// # Safety
/// `scan`'s pointers must be live.
#[inline(never)]
pub unsafe fn bt_start_array_keys(scan: &NbtScan, dir: ScanDirection) {
    unsafe {
        let so = &mut *scan.so;
        let keys = &mut *scan.keys;
        for i in 0..so.num_array_keys as usize {
            let a = &mut *keys.array_keys.add(i);
            a.cur_elem = if dir == ScanDirection::Backward { a.num_elems - 1 } else { 0 };
            keys.key_data[a.scan_key as usize].sk_argument = *a.elem_values.add(a.cur_elem as usize);
        }
        so.scan_behind = false;
        so.opposite_dir_check = false;
    }
}

/// `_bt_start_prim_scan`: did `_bt_checkkeys` schedule another primitive scan?
///
/// # Safety
/// As [`bt_start_array_keys`].
#[inline(never)]
pub unsafe fn bt_start_prim_scan(scan: &NbtScan) -> bool {
    unsafe {
        let so = &mut *scan.so;
        so.scan_behind = false;
        so.opposite_dir_check = false;
        so.need_prim_scan
    }
}

/// `_bt_readpage` for a forward scan from `offnum` on the page in `so->currPos.buf` (pinned,
/// read-locked): save the matching items, clear `moreRight` when `_bt_checkkeys` ends the
/// (primitive) scan, and return whether any item was saved.
///
/// # Safety
/// As [`bt_start_array_keys`]; `bm` live and holding the pinned page.
#[inline(never)]
pub unsafe fn bt_readpage(bm: *mut BufMgr, scan: &NbtScan, offnum: OffsetNumber, firstpage: bool) -> bool {
    unsafe {
        let so = &mut *scan.so;
        let rel = &*scan.rel;
        let page = buffer_get_page(bm, so.curr_pos.buf);
        let opaque_prev = (super::nbtsearch::special(page) as *const u32).read();
        let next = opaque_next(page);
        so.curr_pos.curr_page = buffer_get_block_number(bm, so.curr_pos.buf);
        so.curr_pos.prev_page = opaque_prev;
        so.curr_pos.next_page = next;
        so.curr_pos.dir = ScanDirection::Forward;
        so.curr_pos.next_tuple_offset = 0;
        debug_assert!(!so.need_prim_scan);

        let indnatts = rel.natts();
        let array_keys = so.num_array_keys != 0;
        let minoff = first_data_key(page);
        let maxoff = max_offset(page);
        let mut pstate = BTReadPageState {
            minoff,
            maxoff,
            finaltup: std::ptr::null(),
            firstpage,
            forcenonrequired: false,
            startikey: 0,
            offnum: INVALID_OFFSET_NUMBER,
            skip: INVALID_OFFSET_NUMBER,
            continuescan: true,
            rechecks: 0,
            targetdistance: 0,
            nskipadvances: 0,
        };

        predicate_lock_page(rel.locator.rel_number, so.curr_pos.curr_page);

        let rightmost = next == P_NONE;
        if array_keys {
            if !rightmost {
                pstate.finaltup = Page::item_ptr(page, P_HIKEY);
                if so.scan_behind {
                    not_modelled("_bt_scanbehind_checkkeys");
                }
            }
            so.scan_behind = false;
            so.opposite_dir_check = false;
        }
        if !pstate.firstpage && minoff < maxoff {
            if array_keys {
                not_modelled("_bt_set_startikey with array keys (a primitive scan's second page)");
            }
            bt_set_startikey(scan, &mut pstate, page);
        }

        let mut item_index = 0usize;
        let mut offnum = offnum.max(minoff);
        while offnum <= maxoff {
            // scan->ignore_killed_tuples is true outside recovery: skip LP_DEAD items.
            if item_id_is_dead(page, offnum) {
                offnum += 1;
                continue;
            }
            let itup = Page::item_ptr(page, offnum);
            pstate.offnum = offnum;
            let passes_quals = super::cmodel::bt_checkkeys(scan, &mut pstate, array_keys, itup, indnatts);
            if array_keys && pstate.skip != INVALID_OFFSET_NUMBER {
                offnum = pstate.skip;
                pstate.skip = INVALID_OFFSET_NUMBER;
                continue;
            }
            if passes_quals {
                if super::nbtsearch::t_info(itup) & super::nbtree::INDEX_ALT_TID_MASK != 0 {
                    not_modelled("posting list tuples");
                }
                bt_saveitem(so, item_index, offnum, itup);
                item_index += 1;
            }
            if !pstate.continuescan {
                break;
            }
            offnum += 1;
        }

        // The high key: no need to visit the right sibling when it shows no more matches there.
        if pstate.continuescan && !so.scan_behind && !rightmost {
            let itup = Page::item_ptr(page, P_HIKEY);
            pstate.forcenonrequired = false;
            pstate.startikey = 0;
            let truncatt = bt_tuple_get_natts(itup, rel);
            super::cmodel::bt_checkkeys(scan, &mut pstate, array_keys, itup, truncatt);
        }
        if !pstate.continuescan {
            so.curr_pos.more_right = false;
        }
        so.curr_pos.first_item = 0;
        so.curr_pos.last_item = item_index as i32 - 1;
        so.curr_pos.item_index = 0;
        so.curr_pos.first_item <= so.curr_pos.last_item
    }
}

/// `_bt_set_startikey` (18) for scans without arrays: the first key that the page's lowest and
/// highest data tuples do not both satisfy; `_bt_checkkeys` starts there, so on a page wholly
/// inside the range `_bt_check_compare` tests no key. `_bt_keep_natts_fast` first (the first
/// attribute whose value changes across the page); then each key through its `sk_func` on
/// both tuples. Once per page, out of line (exported, called from nbtsearch.c).
#[inline(never)]
unsafe fn bt_set_startikey(scan: &NbtScan, pstate: &mut BTReadPageState, page: *const Page) {
    unsafe {
        let keys = &*scan.keys;
        let rel = &*scan.rel;
        if keys.number_of_keys == 0 {
            return;
        }
        let firsttup = Page::item_ptr(page, pstate.minoff);
        let lasttup = Page::item_ptr(page, pstate.maxoff);
        let (first, _) = index_getattr(firsttup, 1, rel.rd_att);
        let (last, _) = index_getattr(lasttup, 1, rel.rd_att);
        // _bt_keep_natts_fast: one key column; equal datums keep it, else it changes.
        let firstchangingattnum: i16 = if first == last { 2 } else { 1 };
        let mut startikey = 0;
        while startikey < keys.number_of_keys {
            let key = &*keys.key_data.as_ptr().add(startikey as usize);
            if key.sk_flags & (SK_ROW_HEADER | SK_ISNULL | SK_BT_SKIP) != 0 {
                break;
            }
            if key.sk_attno > firstchangingattnum && key.sk_strategy == BT_EQUAL_STRATEGY_NUMBER {
                // An = key on an attribute the page does not change: satisfied or not by all.
                if !datum_get_bool(function_call2_coll(&key.sk_func, key.sk_collation, first, key.sk_argument)) {
                    break;
                }
                startikey += 1;
                continue;
            }
            if !datum_get_bool(function_call2_coll(&key.sk_func, key.sk_collation, first, key.sk_argument))
                || !datum_get_bool(function_call2_coll(&key.sk_func, key.sk_collation, last, key.sk_argument))
            {
                break;
            }
            startikey += 1;
        }
        pstate.startikey = startikey;
    }
}

/// `ItemIdIsDead(PageGetItemId(page, off))`.
#[inline(always)]
unsafe fn item_id_is_dead(page: *const Page, off: OffsetNumber) -> bool {
    unsafe {
        let lp = ((page as *const u8).add(super::page::SIZE_OF_PAGE_HEADER + (off as usize - 1) * 4) as *const u32).read();
        (lp >> 15) & 3 == LP_DEAD
    }
}

/// `_bt_saveitem`: the heap TID and offset into `currPos.items[item_index]` (no `currTuples`
/// in a bitmap scan).
#[inline(always)]
unsafe fn bt_saveitem(so: &mut BTScanOpaque, item_index: usize, offnum: OffsetNumber, itup: *const u8) {
    unsafe {
        let item = &mut *so.curr_pos.items.as_mut_ptr().add(item_index);
        *item = BTScanPosItem { heap_tid: tuple_tid(itup), index_offset: offnum, tuple_offset: item.tuple_offset };
        if !so.curr_tuples.is_null() {
            not_modelled("index-only scans (currTuples)");
        }
    }
}

/// `_bt_compare_array_skey`: the tuple's value against an array element through the ORDER proc
/// (tuple first), sign flipped for DESC. Static inline.
#[inline(always)]
unsafe fn bt_compare_array_skey(orderproc: *const FmgrInfo, tupdatum: Datum, tupnull: bool, arrdatum: Datum, cur: &ScanKeyData) -> i32 {
    if tupnull {
        if cur.sk_flags & SK_ISNULL != 0 {
            0
        } else if cur.sk_flags & SK_BT_NULLS_FIRST != 0 {
            -1
        } else {
            1
        }
    } else if cur.sk_flags & SK_ISNULL != 0 {
        if cur.sk_flags & SK_BT_NULLS_FIRST != 0 { 1 } else { -1 }
    } else {
        // SAFETY: the scan's ORDER proc.
        let r = datum_get_int32(unsafe { function_call2_coll(orderproc, cur.sk_collation, tupdatum, arrdatum) });
        if cur.sk_flags & SK_BT_DESC != 0 { if r < 0 { 1 } else { -r } } else { r }
    }
}

/// `_bt_binsrch_array_skey` for a forward scan: the first element >= the tuple's value, with
/// `*set_elem_result` the comparison against it. When a required array triggered the call
/// (`cur_elem_trig`), elements up to the current one are excluded and the next one is tried
/// first. Exported from nbtutils.c: out of line.
///
/// # Safety
/// `array` must describe `num_elems` live elements.
#[inline(never)]
pub unsafe fn bt_binsrch_array_skey(
    orderproc: *const FmgrInfo,
    cur_elem_trig: bool,
    tupdatum: Datum,
    tupnull: bool,
    array: &BTArrayKeyInfo,
    cur: &ScanKeyData,
    set_elem_result: &mut i32,
) -> i32 {
    unsafe {
        let mut low_elem = 0;
        let mut mid_elem = -1;
        let mut high_elem = array.num_elems - 1;
        let mut result = 0;
        if cur_elem_trig {
            low_elem = array.cur_elem + 1;
            if high_elem >= low_elem {
                result = bt_compare_array_skey(orderproc, tupdatum, tupnull, *array.elem_values.add(low_elem as usize), cur);
                if result <= 0 {
                    // The optimistic compare worked out.
                    *set_elem_result = result;
                    return low_elem;
                }
                mid_elem = low_elem;
                low_elem += 1;
            }
            if high_elem < low_elem {
                // "Beyond end" advancement for the caller.
                *set_elem_result = 1;
                return high_elem;
            }
        }
        while high_elem > low_elem {
            mid_elem = low_elem + (high_elem - low_elem) / 2;
            result = bt_compare_array_skey(orderproc, tupdatum, tupnull, *array.elem_values.add(mid_elem as usize), cur);
            if result == 0 {
                low_elem = mid_elem;
                break;
            }
            if result > 0 {
                low_elem = mid_elem + 1;
            } else {
                high_elem = mid_elem;
            }
        }
        if low_elem != mid_elem {
            result = bt_compare_array_skey(orderproc, tupdatum, tupnull, *array.elem_values.add(low_elem as usize), cur);
        }
        *set_elem_result = result;
        low_elem
    }
}

/// `_bt_tuple_before_array_skeys`: is `tuple` still before the current required equality
/// keys from `sktrig` on, in the scan's (forward) direction? The C of csrc/pg_nbtutils.c in
/// its gcc12-upstream build ([`super::cmodel`]); a real call, as in 18's profile (a static
/// function with several callers, its `.isra` clone).
#[inline(always)]
unsafe fn bt_tuple_before_array_skeys(
    scan: &NbtScan,
    tuple: *const u8,
    tupnatts: i32,
    readpagetup: bool,
    sktrig: i32,
    scan_behind: Option<&mut bool>,
) -> bool {
    unsafe {
        let sb = scan_behind.map_or(std::ptr::null_mut(), |b| b as *mut bool);
        super::cmodel::bt_tuple_before_array_skeys(scan.keys, ScanDirection::Forward, tuple, (*scan.rel).rd_att, tupnatts, readpagetup, sktrig, sb)
    }
}

/// `_bt_advance_array_keys` as the C `_bt_checkkeys` calls it (csrc/pg_nbtutils.c): for a
/// tuple that failed a required key.
///
/// # Safety
/// `scan` and `pstate` must be the caller's live scan and page state, `tuple` an index tuple
/// of the scan's relation with `tupnatts` attributes.
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn hl_bt_advance_array_keys(scan: *const NbtScan, pstate: *mut BTReadPageState, tuple: *const u8, tupnatts: i32, sktrig: i32) -> bool {
    // SAFETY: the C passes its caller's pointers through.
    unsafe { bt_advance_array_keys(&*scan, &mut *pstate, tuple, tupnatts, sktrig, true) }
}

/// `_bt_advance_array_keys` for a tuple that failed a required key (`sktrig_required`):
/// advance the array to the first element >= the tuple's value (or past its end), then decide
/// whether the tuple matches the new qual, the primitive scan goes on reading this page, ends
/// with another scheduled (`needPrimScan`), or the whole scan is over. Out of line (static).
#[inline(never)]
unsafe fn bt_advance_array_keys(
    scan: &NbtScan,
    pstate: &mut BTReadPageState,
    tuple: *const u8,
    tupnatts: i32,
    sktrig: i32,
    sktrig_required: bool,
) -> bool {
    unsafe {
        let so = &mut *scan.so;
        let keys = &mut *scan.keys;
        let rel = &*scan.rel;
        let mut arrayidx = 0usize;
        let mut beyond_end_advance = false;
        let mut all_required_satisfied = true;
        let mut all_satisfied = true;
        so.scan_behind = false;
        so.opposite_dir_check = false;
        if sktrig_required {
            pstate.rechecks = 0;
            pstate.targetdistance = 0;
        }
        for ikey in 0..keys.number_of_keys {
            let cur: *mut ScanKeyData = &mut keys.key_data[ikey as usize];
            let mut array: *mut BTArrayKeyInfo = std::ptr::null_mut();
            if (*cur).sk_strategy == BT_EQUAL_STRATEGY_NUMBER {
                if (*cur).sk_flags & SK_SEARCHARRAY != 0 {
                    array = keys.array_keys.add(arrayidx);
                    arrayidx += 1;
                }
            } else {
                not_modelled("inequality keys");
            }
            if ikey < sktrig {
                continue;
            }
            let mut required = false;
            if (*cur).sk_flags & (SK_BT_REQFWD | SK_BT_REQBKWD) != 0 {
                required = true;
                if (*cur).sk_attno as i32 > tupnatts {
                    so.scan_behind = true;
                }
            }
            if ikey == sktrig && array.is_null() {
                not_modelled("a required non-array key triggering advancement");
            }
            if !required && array.is_null() {
                continue;
            }
            if beyond_end_advance {
                if !array.is_null() && (*array).cur_elem != (*array).num_elems - 1 {
                    (*array).cur_elem = (*array).num_elems - 1;
                    (*cur).sk_argument = *(*array).elem_values.add((*array).cur_elem as usize);
                }
                continue;
            }
            if !all_required_satisfied || (*cur).sk_attno as i32 > tupnatts {
                if !array.is_null() && (*array).cur_elem != 0 {
                    (*array).cur_elem = 0;
                    (*cur).sk_argument = *(*array).elem_values;
                }
                continue;
            }
            let (tupdatum, tupnull) = index_getattr(tuple, (*cur).sk_attno, rel.rd_att);
            let mut result = 0;
            let mut set_elem = 0;
            if !array.is_null() {
                if (*array).num_elems == -1 {
                    not_modelled("skip arrays");
                }
                let cur_elem_trig = sktrig_required && ikey == sktrig;
                set_elem = bt_binsrch_array_skey(
                    keys.order_procs.add(ikey as usize),
                    cur_elem_trig,
                    tupdatum,
                    tupnull,
                    &*array,
                    &*cur,
                    &mut result,
                );
            }
            if sktrig_required && required && result > 0 {
                beyond_end_advance = true;
            }
            if result != 0 {
                all_satisfied = false;
                if sktrig_required && required {
                    all_required_satisfied = false;
                } else {
                    break;
                }
            }
            if !array.is_null() && (*array).cur_elem != set_elem {
                (*array).cur_elem = set_elem;
                (*cur).sk_argument = *(*array).elem_values.add(set_elem as usize);
            }
        }

        // Past the last element: the top-level scan is over (the arrays stay at their ends).
        if beyond_end_advance && !bt_advance_array_keys_increment(scan) {
            pstate.continuescan = false;
            so.need_prim_scan = false;
            return false;
        }

        if (sktrig_required && all_required_satisfied) || (!sktrig_required && all_satisfied) {
            let mut nsktrig = sktrig + 1;
            let mut continuescan = true;
            if super::cmodel::bt_check_compare(scan, tuple, tupnatts, false, !sktrig_required, &mut continuescan, &mut nsktrig)
                && !so.scan_behind
            {
                // The tuple satisfies the new qual.
                pstate.continuescan = true;
                return true;
            }
            if !continuescan {
                not_modelled("second-pass advancement for required inequalities");
            }
        }
        if !sktrig_required {
            return false;
        }

        // Unsatisfied at the page's finaltup, or finaltup itself before the new element: the
        // next match (if any) is beyond this page.
        let new_prim_scan = (!all_required_satisfied && pstate.finaltup == tuple)
            || (!all_required_satisfied
                && !pstate.finaltup.is_null()
                && bt_tuple_before_array_skeys(
                    scan,
                    pstate.finaltup,
                    bt_tuple_get_natts(pstate.finaltup, rel),
                    false,
                    0,
                    Some(&mut (*scan.so).scan_behind),
                ));
        if new_prim_scan {
            if !pstate.firstpage || pstate.nskipadvances > NSKIPADVANCES_THRESHOLD {
                // Continue onto the next page after all, rechecking there.
                so.scan_behind = true;
            } else {
                pstate.continuescan = false;
                so.need_prim_scan = true;
                return false;
            }
        }
        // Stick with the ongoing primitive scan: later tuples on the page may match.
        pstate.continuescan = true;
        so.need_prim_scan = false;
        if so.scan_behind {
            so.opposite_dir_check = false;
            pstate.skip = pstate.maxoff + 1;
        }
        false
    }
}

/// `_bt_advance_array_keys_increment` (forward): the last array first, rolling over to the
/// next; false when every array is exhausted (they are then left at their final elements, as
/// `_bt_start_array_keys(scan, -dir)` sets them). Out of line (static).
#[inline(never)]
unsafe fn bt_advance_array_keys_increment(scan: &NbtScan) -> bool {
    unsafe {
        let so = &*scan.so;
        let keys = &mut *scan.keys;
        for i in (0..so.num_array_keys as usize).rev() {
            let array = &mut *keys.array_keys.add(i);
            let skey = &mut keys.key_data[array.scan_key as usize];
            // _bt_array_increment for a SAOP array.
            if array.cur_elem < array.num_elems - 1 {
                array.cur_elem += 1;
                skey.sk_argument = *array.elem_values.add(array.cur_elem as usize);
                return true;
            }
            // _bt_array_set_low_or_high: roll over to the first element.
            array.cur_elem = 0;
            skey.sk_argument = *array.elem_values;
        }
        bt_start_array_keys(scan, ScanDirection::Backward);
        false
    }
}

/// The block a keyed primitive scan would step right to, if `_bt_readpage` left `moreRight`
/// set (the current element continues on the right sibling); `P_NONE` otherwise.
///
/// # Safety
/// As [`bt_start_array_keys`].
pub unsafe fn bt_more_right(scan: &NbtScan) -> BlockNumber {
    unsafe {
        let pos = &(*scan.so).curr_pos;
        if pos.more_right { pos.next_page } else { P_NONE }
    }
}
