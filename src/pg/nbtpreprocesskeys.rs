//! `_bt_preprocess_keys` (nbtpreprocesskeys.c) for one key on the first column: once per
//! `btrescan`, at the first `_bt_first`, inside `amgetbitmap`; every later call returns at once.
//!
//! For `col0 = ANY(array)`, `_bt_preprocess_array_keys` does the work 18 does there:
//! `_bt_num_array_keys` (no skip arrays: column 1 has an `=` key), `so->arrayContext` made
//! (`ALLOCSET_SMALL_SIZES`) or reset, the output key, `so->arrayKeys` and `so->orderProcs`
//! `palloc`'d in it, the input key copied, `deconstruct_array`, the nulls compressed out,
//! `_bt_setup_array_cmp` (not cross-type: the relcache's ORDER proc copied through
//! `index_getprocinfo`), then `_bt_sort_array_elements`: `qsort_arg` and `qunique_arg`, each
//! comparison `_bt_compare_array_elements` -> `FunctionCall2Coll` -> `btint8cmp`. Then the
//! one-key fast path: `keyDataMap`, `_bt_fix_scankey_strategy`, the key copied into
//! `so->keyData`, `_bt_mark_scankey_required`. For `col0 < bound`, only that fast path.
//!
//! Left out: `get_typlenbyvalalign`'s catalog cache lookup (the element's length, by-value
//! flag and alignment are the column's, known here; 18 spends about 240 instructions a query
//! there), array merging, inequality arrays (`_bt_find_extreme_element`), skip arrays,
//! several keys (the full pass over `xform`), DESC columns and null keys.

use super::array::{arr_elemtype, deconstruct_array};
use super::fmgr::{Datum, FmgrInfo, INT4OID, datum_get_int32, function_call2_coll};
use super::mcxt::{AllocSet, memory_context_switch_to, palloc};
use super::nbtree::{SK_BT_REQBKWD, SK_BT_REQFWD};
use super::nbtreadpage::{BT_EQUAL_STRATEGY_NUMBER, BT_LESS_STRATEGY_NUMBER, BTArrayKeyInfo, NbtScan, SK_ROW_HEADER, SK_SEARCHARRAY};
use super::nbtsearch::{BTORDER_PROC, SK_BT_DESC, SK_ISNULL, ScanKeyData, index_getprocinfo, not_modelled};
use super::qsort::{qsort_arg, qunique_arg};

/// `SK_BT_INDOPTION_SHIFT`: `rd_indoption` bits land in `sk_flags` from bit 24.
const SK_BT_INDOPTION_SHIFT: i32 = 24;

/// `BTSortArrayContext`.
#[repr(C)]
struct BTSortArrayContext {
    sortproc: *const FmgrInfo,
    collation: u32,
    reverse: bool,
}

/// `_bt_compare_array_elements`: qsort_arg's comparator, through the ORDER proc.
///
/// # Safety
/// `a` and `b` point to `Datum`s; `arg` to a [`BTSortArrayContext`].
#[inline(never)]
unsafe fn bt_compare_array_elements(a: *const u8, b: *const u8, arg: *mut u8) -> i32 {
    unsafe {
        let cxt = &*arg.cast::<BTSortArrayContext>();
        let (da, db) = (a.cast::<Datum>().read(), b.cast::<Datum>().read());
        let compare = datum_get_int32(function_call2_coll(cxt.sortproc, cxt.collation, da, db));
        // INVERT_COMPARE_RESULT
        if cxt.reverse { if compare < 0 { 1 } else { -compare } } else { compare }
    }
}

/// `_bt_sort_array_elements`: sort and deduplicate in place; the count left.
///
/// # Safety
/// `elems` must hold `nelems` `Datum`s comparable by `sortproc`.
#[inline(never)]
unsafe fn bt_sort_array_elements(skey: &ScanKeyData, sortproc: *const FmgrInfo, reverse: bool, elems: *mut Datum, nelems: i32) -> i32 {
    if nelems <= 1 {
        return nelems;
    }
    let mut cxt = BTSortArrayContext { sortproc, collation: skey.sk_collation, reverse };
    let arg: *mut u8 = (&raw mut cxt).cast();
    unsafe {
        qsort_arg(elems.cast(), nelems as usize, size_of::<Datum>(), bt_compare_array_elements, arg);
        qunique_arg(elems.cast(), nelems as usize, size_of::<Datum>(), bt_compare_array_elements, arg) as i32
    }
}

/// `_bt_fix_scankey_strategy`: the column's `rd_indoption` into the key's flags (a DESC
/// column would commute the strategy: not modelled). False: a NULL key, never matched.
#[inline(always)]
fn bt_fix_scankey_strategy(skey: &mut ScanKeyData, indoption: &[i16]) -> bool {
    let addflags = (indoption[skey.sk_attno as usize - 1] as i32) << SK_BT_INDOPTION_SHIFT;
    if skey.sk_flags & SK_ISNULL != 0 {
        not_modelled("null scan keys");
    }
    if addflags & SK_BT_DESC != 0 && skey.sk_flags & SK_BT_DESC == 0 {
        not_modelled("DESC index columns");
    }
    skey.sk_flags |= addflags;
    if skey.sk_flags & SK_ROW_HEADER != 0 {
        not_modelled("row comparison keys");
    }
    true
}

/// `_bt_mark_scankey_required`.
#[inline(always)]
fn bt_mark_scankey_required(skey: &mut ScanKeyData) {
    let addflags = match skey.sk_strategy {
        BT_LESS_STRATEGY_NUMBER | 2 => SK_BT_REQFWD,
        BT_EQUAL_STRATEGY_NUMBER => SK_BT_REQFWD | SK_BT_REQBKWD,
        4 | 5 => SK_BT_REQBKWD,
        _ => not_modelled("an unknown strategy"),
    };
    skey.sk_flags |= addflags;
    if skey.sk_flags & SK_ROW_HEADER != 0 {
        not_modelled("row comparison keys");
    }
}

/// `_bt_preprocess_array_keys` for one `= ANY` key on column 1: the partly preprocessed copy
/// of the input key (in the array context), with `so->arrayKeys` and `so->orderProcs` set.
///
/// # Safety
/// `scan`'s pointers must be live; the keys must hold an array.
#[inline(always)]
unsafe fn bt_preprocess_array_keys(scan: &NbtScan) -> *mut ScanKeyData {
    unsafe {
        let so = &mut *scan.so;
        let keys = &mut *scan.keys;
        let rel = &*scan.rel;
        // _bt_num_array_keys: count the SAOP keys; column 1 has an = key, so no skip array.
        let num_array_keys = keys.input.iter().filter(|k| k.sk_flags & SK_SEARCHARRAY != 0).count();
        if num_array_keys == 0 {
            return std::ptr::null_mut();
        }
        let num_array_key_data = keys.input.len();
        match &keys.array_context {
            Some(c) => c.reset(),
            None => {
                let backend = crate::pg::mcxt::current_backend();
                let c = keys.array_context.insert(AllocSet::with_small_sizes("BTree array context", backend));
                so.array_context = c.as_ptr().cast();
            }
        }
        let cxt = keys.array_context.as_ref().map_or(std::ptr::null_mut(), |c| c.as_ptr());
        let old = memory_context_switch_to(cxt);
        let array_key_data = palloc(num_array_key_data * size_of::<ScanKeyData>()).cast::<ScanKeyData>();
        so.skip_scan = false;
        keys.array_keys = palloc(num_array_keys * size_of::<BTArrayKeyInfo>()).cast();
        keys.order_procs = palloc(num_array_key_data * size_of::<FmgrInfo>()).cast();
        so.array_keys = keys.array_keys.cast();
        so.order_procs = keys.order_procs.cast();
        let mut n_arrays = 0usize;
        let mut n_key_data = 0usize;
        for input_ikey in 0..keys.input.len() {
            let cur = array_key_data.add(n_key_data);
            cur.write(keys.input[input_ikey]);
            if (*cur).sk_flags & SK_SEARCHARRAY == 0 {
                n_key_data += 1;
                continue;
            }
            if (*cur).sk_flags & SK_ISNULL != 0 {
                so.qual_ok = false;
                break;
            }
            // DatumGetArrayTypeP (no detoasting: a plain constant); get_typlenbyvalalign left
            // out: the column's int8 or int4 (8 or 4 bytes, by value, aligned 'd' or 'i').
            let array = (*cur).sk_argument as *const u8;
            let elemtype = arr_elemtype(array);
            let (elmlen, elmalign) = if elemtype == INT4OID { (4, b'i') } else { (8, b'd') };
            let (elem_values, elem_nulls, num_elems) = deconstruct_array(array, elemtype, elmlen, true, elmalign);
            let mut num_nonnulls = 0usize;
            for j in 0..num_elems as usize {
                if !elem_nulls.add(j).read() {
                    elem_values.add(num_nonnulls).write(elem_values.add(j).read());
                    num_nonnulls += 1;
                }
            }
            if num_nonnulls == 0 {
                so.qual_ok = false;
                break;
            }
            let elemtype = if (*cur).sk_subtype == 0 { keys.opcintype } else { (*cur).sk_subtype };
            if (*cur).sk_strategy != BT_EQUAL_STRATEGY_NUMBER {
                not_modelled("inequality array keys");
            }
            // _bt_setup_array_cmp: not cross-type, so the cached ORDER proc sorts too.
            if elemtype != keys.opcintype {
                not_modelled("cross-type array keys");
            }
            let orderproc = keys.order_procs.add(n_key_data);
            orderproc.write(*index_getprocinfo(rel, (*cur).sk_attno, BTORDER_PROC));
            let reverse = (keys.indoption[(*cur).sk_attno as usize - 1] as i32) << SK_BT_INDOPTION_SHIFT & SK_BT_DESC != 0;
            let num_elems = bt_sort_array_elements(&*cur, orderproc, reverse, elem_values, num_nonnulls as i32);
            if n_arrays > 0 {
                not_modelled("two arrays on one column (merging)");
            }
            keys.array_keys.add(n_arrays).write(BTArrayKeyInfo { scan_key: n_key_data as i32, num_elems, cur_elem: -1, elem_values });
            n_arrays += 1;
            n_key_data += 1;
        }
        so.num_array_keys = n_arrays as i32;
        memory_context_switch_to(old);
        array_key_data
    }
}

/// `_bt_preprocess_keys`: the scan's keys output once per `btrescan`; a no-op until the next.
/// Out of line (nbtpreprocesskeys.c).
///
/// # Safety
/// `scan`'s pointers must be live; a memory context must be current.
#[inline(never)]
pub unsafe fn bt_preprocess_keys(scan: &NbtScan) {
    unsafe {
        let so = &mut *scan.so;
        if so.number_of_keys > 0 {
            return;
        }
        so.qual_ok = true;
        so.number_of_keys = 0;
        let keys = &mut *scan.keys;
        let number_of_keys = keys.input.len();
        if number_of_keys < 1 {
            return;
        }
        let array_key_data = bt_preprocess_array_keys(scan);
        if !so.qual_ok {
            return;
        }
        let inkeys: *mut ScanKeyData = if array_key_data.is_null() {
            keys.input.as_mut_ptr()
        } else {
            // keyDataMap, for remapping so->orderProcs later (unused on the one-key path).
            let cxt = keys.array_context.as_ref().map_or(std::ptr::null_mut(), |c| c.as_ptr());
            let old = memory_context_switch_to(cxt);
            let _key_data_map = palloc(number_of_keys * size_of::<i32>());
            memory_context_switch_to(old);
            array_key_data
        };
        if (*inkeys).sk_attno < 1 {
            not_modelled("keys not ordered by attribute");
        }
        if number_of_keys != 1 {
            not_modelled("more than one scan key");
        }
        if !bt_fix_scankey_strategy(&mut *inkeys, &keys.indoption) {
            so.qual_ok = false;
        }
        keys.key_data[0] = *inkeys;
        so.number_of_keys = 1;
        keys.number_of_keys = 1;
        if (*inkeys).sk_attno == 1 {
            bt_mark_scankey_required(&mut keys.key_data[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pg::fmgr::{F_BTINT8CMP, F_INT8EQ, INT8OID, btint8cmp, int8eq};
    use crate::pg::nbtree::BTScanOpaque;
    use crate::pg::nbtreadpage::BTScanKeys;
    use crate::pg::nbtsearch::{BT_NPROCS, IndexRel};

    /// Preprocess `values` twice (two btrescans): sorted and deduplicated each time, the key
    /// required both ways, the array at its first element only after `_bt_start_array_keys`.
    #[test]
    fn sorts_dedups_and_marks_the_key_required_at_each_rescan() {
        let orderproc = FmgrInfo::builtin(btint8cmp, F_BTINT8CMP);
        let mut pgstat = crate::pg::pgstat::PgStatTableStatus::default();
        let irel = IndexRel {
            pgstat_info: &mut pgstat,
            locator: crate::pg::nbtscan::INDEX_LOCATOR,
            rd_rel: std::ptr::null(),
            nkeyatts: 1,
            rd_att: std::ptr::null(),
            metad: None,
            supportinfo: &orderproc,
            amsupport: BT_NPROCS,
        };
        let vals: Vec<Datum> = [30i64, -7, 30, 5, 1 << 40, 5, 0].iter().map(|&v| v as Datum).collect();
        let mut keys = BTScanKeys::new(&vals, INT8OID, FmgrInfo::builtin(int8eq, F_INT8EQ));
        let (mut so, _) = BTScanOpaque::new_boxed(&[]);
        let scan = NbtScan { so: &mut *so, keys: &mut *keys, rel: &irel };
        let cxt = AllocSet::with_default_sizes("ExecutorState", crate::pg::mcxt::MallocBackend::Libc);
        let old = memory_context_switch_to(cxt.as_ptr());
        assert!(keys.elems().is_empty(), "nothing before the first _bt_first");
        for _ in 0..2 {
            so.number_of_keys = 0;
            unsafe { bt_preprocess_keys(&scan) };
            let got: Vec<i64> = keys.elems().iter().map(|&d| d as i64).collect();
            assert_eq!(got, vec![-7, 0, 5, 30, 1 << 40]);
            assert!(so.qual_ok);
            assert_eq!((so.number_of_keys, so.num_array_keys), (1, 1));
            let k = keys.key_data[0];
            assert_eq!(k.sk_flags, SK_SEARCHARRAY | SK_BT_REQFWD | SK_BT_REQBKWD);
            assert_eq!(unsafe { (*keys.array_keys).cur_elem }, -1);
            assert_eq!(unsafe { (*keys.order_procs).fn_oid }, F_BTINT8CMP);
            // A second call in the same btrescan changes nothing.
            let before = keys.array_keys;
            unsafe { bt_preprocess_keys(&scan) };
            assert_eq!(keys.array_keys, before);
        }
        memory_context_switch_to(old);
    }
}
