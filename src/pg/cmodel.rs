//! The model's functions that run as C: csrc/pg_*.c, built by build.rs under every compiler
//! configuration, called here in their gcc12-upstream build (gcc 12.2 with PostgreSQL's own
//! configure flags: what `pg_config --cflags` of the 18.6 wheels the model is held against
//! says they were built with). A function moves here when the model and the server make the
//! same calls and take the same branches and only the compilers' code for those steps differs
//! (`_bt_compare`: 71 instructions a call from rustc against 18.6's 83; the refcount search:
//! 16.5 against 44.5), so that what is left between them is work, not codegen.
//!
//! The C calls back into Rust for what lives in other PostgreSQL files or stays in Rust:
//! `FunctionCall2Coll` ([`crate::pg::fmgr::function_call2_coll`]), the refcount overflow hash,
//! `_bt_advance_array_keys` ([`crate::pg::nbtreadpage::hl_bt_advance_array_keys`]), and
//! [`hl_pg_not_modelled`] for an ERROR path the model does not run. The callbacks unwind
//! (`C-unwind`): gcc's x86-64 code carries unwind tables, so the panic reaches the caller.

use std::ffi::{CStr, c_char};

use super::bufmgr::{Buffer, PrivateRefCount, PrivateRefCountEntry};
use super::itemptr::OffsetNumber;
use super::nbtree::ScanDirection;
use super::nbtreadpage::{BTReadPageState, BTScanKeys, NbtScan};
use super::nbtsearch::{BTScanInsertData, CompactAttribute, IndexRel};
use super::page::Page;

// IndexRel's fields after `rd_att` and BTScanKeys' after `order_procs` (`Option`s) are
// Rust-only: the C reads none of them (`PGIndexRel`, `PGBTScanKeys` in csrc/hl_pg.h).
#[allow(improper_ctypes)]
unsafe extern "C-unwind" {
    #[link_name = "hl_bt_compare__gcc12_upstream"]
    fn hl_bt_compare(rel: *const IndexRel, key: *const BTScanInsertData, page: *const Page, offnum: OffsetNumber) -> i32;
    #[link_name = "hl_bt_tuple_before_array_skeys__gcc12_upstream"]
    fn hl_bt_tuple_before_array_skeys(
        so: *const BTScanKeys, dir: i32, tuple: *const u8, tupdesc: *const CompactAttribute, tupnatts: i32, readpagetup: bool, sktrig: i32,
        scan_behind: *mut bool,
    ) -> bool;
    #[link_name = "hl_pg_bt_check_compare__gcc12_upstream"]
    fn hl_pg_bt_check_compare(
        keys: *const BTScanKeys, dir: i32, tuple: *const u8, tupnatts: i32, tupdesc: *const CompactAttribute, advancenonrequired: bool,
        forcenonrequired: bool, continuescan: *mut bool, ikey: *mut i32,
    ) -> bool;
    #[link_name = "hl_pg_bt_checkkeys__gcc12_upstream"]
    fn hl_pg_bt_checkkeys(scan: *const NbtScan, pstate: *mut BTReadPageState, array_keys: bool, tuple: *const u8, tupnatts: i32) -> bool;
    #[link_name = "hl_GetPrivateRefCountEntry__gcc12_upstream"]
    fn hl_get_private_ref_count_entry(refs: *mut PrivateRefCount, buffer: Buffer, do_move: bool) -> *mut PrivateRefCountEntry;
}

/// `_bt_compare` (csrc/pg_nbtsearch.c).
///
/// # Safety
/// As [`crate::pg::nbtsearch::bt_compare`].
#[inline(always)]
pub(crate) unsafe fn bt_compare(rel: &IndexRel, key: &BTScanInsertData, page: *const Page, offnum: OffsetNumber) -> i32 {
    unsafe { hl_bt_compare(rel, key, page, offnum) }
}

/// `_bt_tuple_before_array_skeys` (csrc/pg_nbtutils.c).
///
/// # Safety
/// `keys` must be a preprocessed scan's keys, `tuple` an index tuple of `tupdesc`'s row type
/// with `tupnatts` attributes, `scan_behind` null or writable.
#[allow(clippy::too_many_arguments)] // the server function's own parameters
#[inline(always)]
pub(crate) unsafe fn bt_tuple_before_array_skeys(
    keys: *const BTScanKeys, dir: ScanDirection, tuple: *const u8, tupdesc: *const CompactAttribute, tupnatts: i32, readpagetup: bool,
    sktrig: i32, scan_behind: *mut bool,
) -> bool {
    unsafe { hl_bt_tuple_before_array_skeys(keys, dir as i32, tuple, tupdesc, tupnatts, readpagetup, sktrig, scan_behind) }
}

/// `_bt_checkkeys` with its `_bt_check_compare` (csrc/pg_nbtutils.c): does `tuple` pass the
/// scan's keys from `pstate.startikey` on; with array keys, it keeps reading or advances the
/// arrays (calling back [`crate::pg::nbtreadpage::hl_bt_advance_array_keys`]).
///
/// # Safety
/// `scan`'s pointers must be live, `so.curr_pos.dir` set, `tuple` an index tuple of the scan's
/// relation with `tupnatts` attributes.
#[inline(always)]
pub(crate) unsafe fn bt_checkkeys(scan: &NbtScan, pstate: &mut BTReadPageState, array_keys: bool, tuple: *const u8, tupnatts: i32) -> bool {
    unsafe { hl_pg_bt_checkkeys(scan, pstate, array_keys, tuple, tupnatts) }
}

/// `_bt_check_compare` (csrc/pg_nbtutils.c): the keys from `*ikey` on against `tuple` in the
/// direction `_bt_readpage` set; a failed key required in that direction clears
/// `*continuescan`.
///
/// # Safety
/// As [`bt_checkkeys`].
#[inline(always)]
pub(crate) unsafe fn bt_check_compare(
    scan: &NbtScan, tuple: *const u8, tupnatts: i32, advancenonrequired: bool, forcenonrequired: bool, continuescan: &mut bool, ikey: &mut i32,
) -> bool {
    unsafe {
        let dir = (*scan.so).curr_pos.dir as i32;
        hl_pg_bt_check_compare(scan.keys, dir, tuple, tupnatts, (*scan.rel).rd_att, advancenonrequired, forcenonrequired, continuescan, ikey)
    }
}

/// `GetPrivateRefCountEntry` (csrc/pg_bufmgr.c).
///
/// # Safety
/// `refs` must point to live bookkeeping that nothing else borrows during the call.
#[inline(always)]
pub(crate) unsafe fn get_private_ref_count_entry(refs: *mut PrivateRefCount, buffer: Buffer, do_move: bool) -> *mut PrivateRefCountEntry {
    unsafe { hl_get_private_ref_count_entry(refs, buffer, do_move) }
}

/// An ERROR path of the C the model does not run: panics naming it.
///
/// # Safety
/// `what` must be a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn hl_pg_not_modelled(what: *const c_char) -> ! {
    // SAFETY: the C passes a string literal.
    let what = unsafe { CStr::from_ptr(what) }.to_string_lossy();
    panic!("not modelled: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pg::fmgr::{Datum, F_BTINT8CMP, FmgrInfo, btint8cmp};
    use crate::pg::itemptr::ItemPointer;
    use crate::pg::nbtree::{BTree, INDEX_NULL_MASK, KeyType, P_HIKEY, P_NONE, tuple_key};
    use crate::pg::nbtsearch::{RelForm, SK_BT_DESC, ScanKeyData};

    fn rel(relform: &RelForm, att: &CompactAttribute, orderproc: &FmgrInfo) -> IndexRel {
        IndexRel {
            locator: crate::pg::nbtscan::INDEX_LOCATOR,
            rd_rel: relform,
            nkeyatts: 1,
            rd_att: att,
            metad: None,
            pgstat_info: std::ptr::null_mut(),
            supportinfo: orderproc,
            amsupport: crate::pg::nbtsearch::BT_NPROCS,
        }
    }

    fn key(value: i64, flags: i32) -> BTScanInsertData {
        BTScanInsertData {
            heapkeyspace: true,
            allequalimage: true,
            anynullkeys: false,
            nextkey: false,
            backward: false,
            scantid: std::ptr::null(),
            keysz: 1,
            scankeys: [ScanKeyData {
                sk_flags: flags,
                sk_attno: 1,
                sk_strategy: 0,
                sk_subtype: 0,
                sk_collation: 0,
                sk_func: FmgrInfo::builtin(btint8cmp, F_BTINT8CMP),
                sk_argument: value as Datum,
            }],
        }
    }

    /// Every item of the root and of every leaf against keys below, at and above it: the sign
    /// of key - item; an internal page's first item is minus infinity; an equal pivot (heap TID
    /// truncated) sends a forward search right; DESC flips the sign.
    #[test]
    fn bt_compare_orders_every_item_as_postgresql_does() {
        let entries: Vec<(i64, ItemPointer)> = (0..2000).map(|i| (2 * i as i64, ItemPointer::new(1 + i as u32 / 100, 1 + (i % 100) as u16))).collect();
        let tree = BTree::build(KeyType::Int8, &entries, &[400; 5]);
        let relform = RelForm { relnatts: 1, relpersistence: b'p' };
        let att = CompactAttribute { attcacheoff: 0, attlen: 8, attbyval: true };
        let proc = FmgrInfo::builtin(btint8cmp, F_BTINT8CMP);
        let r = rel(&relform, &att, &proc);
        let root = tree.descent_path(0)[0];
        let blocks: Vec<_> = std::iter::once(root).chain((0..5).map(BTree::leaf_block)).collect();
        let mut internal_items = 0;
        for block in blocks {
            let page = tree.block_page(block).unwrap();
            let internal = BTree::level(page) > 0;
            let rightmost = BTree::opaque(page).next == P_NONE;
            for off in 1..=page.max_offset() {
                let item = unsafe { Page::item_ptr(page, off) };
                let first = off == BTree::first_data_key(page);
                let pivot = internal || (!rightmost && off == P_HIKEY);
                if internal && first {
                    assert_eq!(unsafe { bt_compare(&r, &key(i64::MIN, 0), page, off) }, 1, "minus infinity");
                    internal_items += 1;
                    continue;
                }
                let v = unsafe { tuple_key(KeyType::Int8, item) };
                for k in [v - 1, v, v + 1] {
                    let want = match k.cmp(&v) {
                        std::cmp::Ordering::Less => -1,
                        std::cmp::Ordering::Equal => i32::from(pivot),
                        std::cmp::Ordering::Greater => 1,
                    };
                    let got = unsafe { bt_compare(&r, &key(k, 0), page, off) };
                    assert_eq!(got.signum(), want, "block {block} offset {off}: key {k} against {v}");
                    if k != v {
                        let desc = unsafe { bt_compare(&r, &key(k, SK_BT_DESC), page, off) };
                        assert_eq!(desc.signum(), -want, "DESC, block {block} offset {off}: key {k} against {v}");
                    }
                }
                internal_items += usize::from(internal);
            }
        }
        assert!(internal_items >= 5, "the root holds the five leaves' downlinks: {internal_items}");
    }

    /// An ERROR path of the C (a tuple with a null bitmap: nocache_index_getattr) panics with
    /// its name, unwinding through the C frame.
    #[test]
    fn bt_compare_names_what_it_does_not_model() {
        let entries: Vec<(i64, ItemPointer)> = (0..10).map(|i| (i, ItemPointer::new(1, 1 + i as u16))).collect();
        let tree = BTree::build(KeyType::Int8, &entries, &[10]);
        let mut page = tree.page(BTree::leaf_block(0)).clone();
        let off = BTree::first_data_key(&page);
        // SAFETY: the item's t_info, reached through a pointer derived from the owned copy.
        unsafe {
            let p: *mut Page = &mut page;
            let info = Page::item_ptr(p, off).add(6) as *mut u16;
            info.write(info.read() | INDEX_NULL_MASK);
        }
        let relform = RelForm { relnatts: 1, relpersistence: b'p' };
        let att = CompactAttribute { attcacheoff: 0, attlen: 8, attbyval: true };
        let proc = FmgrInfo::builtin(btint8cmp, F_BTINT8CMP);
        let r = rel(&relform, &att, &proc);
        let err = std::panic::catch_unwind(|| unsafe { bt_compare(&r, &key(3, 0), &page, off) }).unwrap_err();
        let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("not modelled: index_getattr: a tuple with nulls"), "{msg}");
    }

    /// `_bt_checkkeys` with `col0 < bound` required forward: every tuple of a leaf below the
    /// bound passes, the first at or above it fails and ends the scan (`continuescan`); from a
    /// `startikey` past the key (`_bt_set_startikey` on a page wholly inside the range) every
    /// tuple passes untested; a high key whose key column is truncated passes.
    #[test]
    fn bt_checkkeys_ends_the_scan_at_the_first_tuple_past_the_bound() {
        use crate::pg::fmgr::{F_INT84LT, INT4OID, INT8OID, int84lt};
        use crate::pg::nbtreadpage::{BTReadPageState, BTScanKeys, NbtScan};
        use crate::pg::nbtree::{BTScanOpaque, SK_BT_REQFWD};
        let entries: Vec<(i64, ItemPointer)> = (0..300).map(|i| (i as i64, ItemPointer::new(1 + i as u32 / 100, 1 + (i % 100) as u16))).collect();
        let tree = BTree::build(KeyType::Int8, &entries, &[300]);
        let page = tree.page(BTree::leaf_block(0));
        let relform = RelForm { relnatts: 1, relpersistence: b'p' };
        let att = CompactAttribute { attcacheoff: 0, attlen: 8, attbyval: true };
        let cmp = FmgrInfo::builtin(btint8cmp, F_BTINT8CMP);
        let r = rel(&relform, &att, &cmp);
        let mut keys = BTScanKeys::less_than(200 as Datum, INT8OID, INT4OID, FmgrInfo::builtin(int84lt, F_INT84LT));
        keys.number_of_keys = 1;
        keys.key_data[0].sk_flags |= SK_BT_REQFWD;
        let (mut so, _k) = BTScanOpaque::new_boxed(&[]);
        so.curr_pos.dir = ScanDirection::Forward;
        let scan = NbtScan { so: &mut *so, keys: &mut *keys, rel: &r };
        let state = |startikey| BTReadPageState {
            minoff: 1,
            maxoff: 300,
            finaltup: std::ptr::null(),
            firstpage: true,
            forcenonrequired: false,
            startikey,
            offnum: 0,
            skip: 0,
            continuescan: true,
            rechecks: 0,
            targetdistance: 0,
            nskipadvances: 0,
        };
        let mut checked = 0;
        for off in BTree::first_data_key(page)..=page.max_offset() {
            let itup = unsafe { Page::item_ptr(page, off) };
            let v = unsafe { tuple_key(KeyType::Int8, itup) };
            let mut ps = state(0);
            let pass = unsafe { bt_checkkeys(&scan, &mut ps, false, itup, 1) };
            assert_eq!((pass, ps.continuescan), (v < 200, v < 200), "key {v}");
            let mut ps = state(1);
            assert!(unsafe { bt_checkkeys(&scan, &mut ps, false, itup, 1) } && ps.continuescan, "key {v} from startikey 1");
            let mut ps = state(0);
            assert!(unsafe { bt_checkkeys(&scan, &mut ps, false, itup, 0) } && ps.continuescan, "key {v}, its column truncated");
            checked += 1;
        }
        assert_eq!(checked, 300);
    }

    /// The array search: the slot holding the buffer, null when none does, and the overflow
    /// hash (never filled by the model) named when the array once overflowed.
    #[test]
    fn private_refcount_search_finds_the_slot() {
        let mut refs = PrivateRefCount::default();
        for (i, b) in [(0usize, 7), (3, 12), (7, 40)] {
            refs.array[i] = PrivateRefCountEntry { buffer: b, refcount: i as i32 + 1 };
        }
        let base = refs.array.as_ptr();
        for (b, slot) in [(7, Some(0)), (12, Some(3)), (40, Some(7)), (8, None), (41, None)] {
            let p = unsafe { get_private_ref_count_entry(&mut refs, b, true) };
            let got = (!p.is_null()).then(|| unsafe { p.offset_from(base) } as usize);
            assert_eq!(got, slot, "buffer {b}");
        }
        refs.overflowed = 1;
        assert!(!unsafe { get_private_ref_count_entry(&mut refs, 12, false) }.is_null(), "the array first");
        let err = std::panic::catch_unwind(move || unsafe { get_private_ref_count_entry(&mut refs, 8, false) }).unwrap_err();
        let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("overflow hash is not modelled"), "{msg}");
    }
}
