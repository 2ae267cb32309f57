//! The function manager's call path for a B-tree comparison (src/backend/utils/fmgr/fmgr.c,
//! src/include/fmgr.h) and the int4/int8 ORDER procs (src/backend/access/nbtree/nbtcompare.c).
//!
//! `_bt_compare` never compares keys inline: it calls `FunctionCall2Coll(&scankey->sk_func, ...)`,
//! which fills a `FunctionCallInfoBaseData` on its stack and calls the support function through
//! `flinfo->fn_addr`: one out-of-line call plus one indirect call per comparison.

use std::ptr;

/// `Datum`: a pointer-sized value.
pub type Datum = usize;
/// `Oid`.
pub type Oid = u32;
/// `INT4OID`.
pub const INT4OID: Oid = 23;
/// `INT8OID`.
pub const INT8OID: Oid = 20;
/// `F_BTINT4CMP`.
pub const F_BTINT4CMP: Oid = 351;
/// `F_BTINT8CMP`.
pub const F_BTINT8CMP: Oid = 842;
/// `F_INT4EQ`.
pub const F_INT4EQ: Oid = 65;
/// `F_INT8EQ`.
pub const F_INT8EQ: Oid = 467;
/// `F_INT84LT`: `int8 < int4`, what seed 000's `col0 < 10000000` (an int4 literal) calls.
pub const F_INT84LT: Oid = 476;
/// `F_INT4LT`.
pub const F_INT4LT: Oid = 66;

/// `NullableDatum`: 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct NullableDatum {
    /// `value`.
    pub value: Datum,
    /// `isnull`.
    pub isnull: bool,
}

/// `FunctionCallInfoBaseData` with room for two arguments (`LOCAL_FCINFO(fcinfo, 2)`): 64 bytes.
#[repr(C)]
pub struct FunctionCallInfoBaseData {
    /// `flinfo`.
    pub flinfo: *const FmgrInfo,
    /// `context`.
    pub context: *mut u8,
    /// `resultinfo`.
    pub resultinfo: *mut u8,
    /// `fncollation`.
    pub fncollation: Oid,
    /// `isnull`: the function sets it to return NULL.
    pub isnull: bool,
    /// `nargs`.
    pub nargs: i16,
    /// `args[2]`.
    pub args: [NullableDatum; 2],
}

/// `PGFunction`: a V1 function.
pub type PGFunction = unsafe extern "C" fn(*mut FunctionCallInfoBaseData) -> Datum;

/// `FmgrInfo`: 48 bytes; `fn_addr` is what `FunctionCallInvoke` calls.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FmgrInfo {
    /// `fn_addr`.
    pub fn_addr: PGFunction,
    /// `fn_oid`.
    pub fn_oid: Oid,
    /// `fn_nargs`.
    pub fn_nargs: i16,
    /// `fn_strict`.
    pub fn_strict: bool,
    /// `fn_retset`.
    pub fn_retset: bool,
    /// `fn_stats`.
    pub fn_stats: u8,
    /// `fn_extra`.
    pub fn_extra: *mut u8,
    /// `fn_mcxt`.
    pub fn_mcxt: *mut u8,
    /// `fn_expr`.
    pub fn_expr: *mut u8,
}

const _: () = {
    assert!(size_of::<NullableDatum>() == 16);
    assert!(size_of::<FunctionCallInfoBaseData>() == 64);
    assert!(size_of::<FmgrInfo>() == 48);
};

impl FmgrInfo {
    /// What `fmgr_info` fills for a built-in, strict, two-argument function.
    pub fn builtin(fn_addr: PGFunction, fn_oid: Oid) -> FmgrInfo {
        FmgrInfo {
            fn_addr,
            fn_oid,
            fn_nargs: 2,
            fn_strict: true,
            fn_retset: false,
            fn_stats: 0,
            fn_extra: ptr::null_mut(),
            fn_mcxt: ptr::null_mut(),
            fn_expr: ptr::null_mut(),
        }
    }
}

/// `FunctionCall2Coll`: call `flinfo`'s function with two non-null arguments. Out of line: it
/// lives in fmgr.c. Exported under a C name for the model's C `_bt_compare` (csrc/pg_nbtsearch.c).
///
/// # Safety
/// `flinfo` must point to a valid `FmgrInfo` whose `fn_addr` accepts two arguments.
#[inline(never)]
#[unsafe(export_name = "hl_FunctionCall2Coll")]
pub unsafe extern "C-unwind" fn function_call2_coll(flinfo: *const FmgrInfo, collation: Oid, arg1: Datum, arg2: Datum) -> Datum {
    // InitFunctionCallInfoData(*fcinfo, flinfo, 2, collation, NULL, NULL) and the arguments.
    let mut fcinfo = FunctionCallInfoBaseData {
        flinfo,
        context: ptr::null_mut(),
        resultinfo: ptr::null_mut(),
        fncollation: collation,
        isnull: false,
        nargs: 2,
        args: [NullableDatum { value: arg1, isnull: false }, NullableDatum { value: arg2, isnull: false }],
    };
    // SAFETY: the caller vouches for flinfo; fcinfo is a valid two-argument call frame.
    let result = unsafe { ((*flinfo).fn_addr)(&mut fcinfo) };
    if fcinfo.isnull {
        null_result(flinfo);
    }
    result
}

/// `elog(ERROR, "function %u returned NULL")`: a comparison proc never returns NULL.
#[cold]
#[inline(never)]
fn null_result(flinfo: *const FmgrInfo) -> ! {
    // SAFETY: the caller's flinfo.
    panic!("function {} returned NULL", unsafe { (*flinfo).fn_oid })
}

/// `btint8cmp(int8, int8)`: -1, 0 or +1 as an int4 Datum.
///
/// # Safety
/// `fcinfo` must point to a call frame with two arguments.
pub unsafe extern "C" fn btint8cmp(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i64, (*fcinfo).args[1].value as i64) };
    int32_get_datum(if a > b { 1 } else if a == b { 0 } else { -1 })
}

/// `btint4cmp(int4, int4)`.
///
/// # Safety
/// As [`btint8cmp`].
pub unsafe extern "C" fn btint4cmp(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i32, (*fcinfo).args[1].value as i32) };
    int32_get_datum(if a > b { 1 } else if a == b { 0 } else { -1 })
}

/// `int8eq(int8, int8)` (int8.c): the `=` operator's function, a bool Datum. A search-type
/// scan key's `sk_func` for `col0 = ...` on an int8 column.
///
/// # Safety
/// As [`btint8cmp`].
pub unsafe extern "C" fn int8eq(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i64, (*fcinfo).args[1].value as i64) };
    (a == b) as Datum
}

/// `int4eq(int4, int4)` (int.c).
///
/// # Safety
/// As [`btint8cmp`].
pub unsafe extern "C" fn int4eq(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i32, (*fcinfo).args[1].value as i32) };
    (a == b) as Datum
}

/// `int84lt(int8, int4)` (int8.c): the cross-type `<` of btree's integer_ops.
///
/// # Safety
/// As [`btint8cmp`].
pub unsafe extern "C" fn int84lt(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i64, (*fcinfo).args[1].value as i32 as i64) };
    (a < b) as Datum
}

/// `int4lt(int4, int4)` (int.c).
///
/// # Safety
/// As [`btint8cmp`].
pub unsafe extern "C" fn int4lt(fcinfo: *mut FunctionCallInfoBaseData) -> Datum {
    // SAFETY: the caller's frame.
    let (a, b) = unsafe { ((*fcinfo).args[0].value as i32, (*fcinfo).args[1].value as i32) };
    (a < b) as Datum
}

/// `DatumGetBool`: any nonzero byte.
#[inline(always)]
pub fn datum_get_bool(d: Datum) -> bool {
    d as u8 != 0
}

/// `Int32GetDatum`: sign-extended.
#[inline(always)]
pub fn int32_get_datum(v: i32) -> Datum {
    v as i64 as Datum
}

/// `DatumGetInt32`.
#[inline(always)]
pub fn datum_get_int32(d: Datum) -> i32 {
    d as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmp_procs_order_like_ord() {
        let f8 = FmgrInfo::builtin(btint8cmp, F_BTINT8CMP);
        let f4 = FmgrInfo::builtin(btint4cmp, F_BTINT4CMP);
        for (a, b) in [(1i64, 2i64), (2, 1), (5, 5), (-3, 7), (i64::MIN, i64::MAX)] {
            let r = unsafe { function_call2_coll(&f8, 0, a as Datum, b as Datum) };
            assert_eq!(datum_get_int32(r), a.cmp(&b) as i32);
            let (a4, b4) = (a as i32, b as i32);
            let r = unsafe { function_call2_coll(&f4, 0, int32_get_datum(a4), int32_get_datum(b4)) };
            assert_eq!(datum_get_int32(r), a4.cmp(&b4) as i32);
        }
    }
}
