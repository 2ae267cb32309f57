//! A one-dimensional `ArrayType` of a fixed-length, by-value element type (the `'{...}'::int8[]`
//! constant of `col0 = ANY(...)`), laid out as arrayfuncs.c lays one out, and
//! `deconstruct_array`, which `_bt_preprocess_array_keys` runs on it at the first `_bt_first`
//! after each `btrescan`: a `palloc`'d `Datum` and `bool` array, then one element at a time
//! through the null bitmap test, `fetch_att`, `att_addlength_pointer` and
//! `att_align_nominal`, as a generic loop over any element type. Varlena and cstring
//! elements and more than one dimension are not modelled (asking for them panics).

use super::fmgr::{Datum, Oid};
use super::mcxt::palloc;

/// `ARR_OVERHEAD_NONULLS(1)`: `vl_len_`, `ndim`, `dataoffset`, `elemtype`, one dimension and
/// one lower bound, MAXALIGNed.
const OVERHEAD_1D: usize = 24;

/// An array value: the varlena's bytes in 8-byte words (so the data is MAXALIGNed).
pub struct ArrayType {
    words: Box<[u64]>,
}

impl ArrayType {
    /// `{values}` of `elemtype`, `elmlen` bytes each (1, 2, 4 or 8; by value), no nulls.
    pub fn new(elemtype: Oid, elmlen: usize, values: &[Datum]) -> ArrayType {
        assert!(matches!(elmlen, 1 | 2 | 4 | 8), "a by-value element of {elmlen} bytes");
        let data = values.len() * elmlen;
        let total = OVERHEAD_1D + data;
        let mut words = vec![0u64; total.div_ceil(8)].into_boxed_slice();
        // SAFETY: words holds total bytes; every write below is inside it.
        unsafe {
            let p = words.as_mut_ptr().cast::<u8>();
            p.cast::<i32>().write((total as i32) << 2); // SET_VARSIZE (4-byte header)
            p.add(4).cast::<i32>().write(1); // ndim
            p.add(8).cast::<i32>().write(0); // dataoffset: no null bitmap
            p.add(12).cast::<Oid>().write(elemtype);
            p.add(16).cast::<i32>().write(values.len() as i32); // dims[0]
            p.add(20).cast::<i32>().write(1); // lbound[0]
            for (i, &v) in values.iter().enumerate() {
                let at = p.add(OVERHEAD_1D + i * elmlen);
                match elmlen {
                    1 => at.write(v as u8),
                    2 => at.cast::<u16>().write(v as u16),
                    4 => at.cast::<u32>().write(v as u32),
                    _ => at.cast::<u64>().write(v as u64),
                }
            }
        }
        ArrayType { words }
    }

    /// The varlena, as `DatumGetArrayTypeP` hands it over (already detoasted).
    pub fn as_ptr(&self) -> *const u8 {
        self.words.as_ptr().cast()
    }
}

/// `ARR_ELEMTYPE(array)`.
///
/// # Safety
/// `array` must be an [`ArrayType`]'s bytes.
#[inline(always)]
pub unsafe fn arr_elemtype(array: *const u8) -> Oid {
    unsafe { array.add(12).cast::<Oid>().read() }
}

/// `ArrayGetNItems(ndim, dims)`: the element count, with arrayutils.c's overflow checks.
/// Out of line, as in C.
///
/// # Safety
/// `dims` must hold `ndim` counts.
#[inline(never)]
pub unsafe fn array_get_n_items(ndim: i32, dims: *const i32) -> i32 {
    if ndim <= 0 {
        return 0;
    }
    let mut ret: i64 = 1;
    for i in 0..ndim as usize {
        let d = unsafe { dims.add(i).read() };
        if d < 0 {
            panic!("array size exceeds the maximum allowed");
        }
        ret *= d as i64;
        if ret > i32::MAX as i64 / 8 {
            panic!("array size exceeds the maximum allowed");
        }
    }
    ret as i32
}

#[cold]
#[inline(never)]
fn not_modelled(what: &str) -> ! {
    panic!("deconstruct_array: {what} is not modelled")
}

/// `deconstruct_array(array, elmtype, elmlen, elmbyval, elmalign, &values, &nulls, &n)`:
/// `palloc` the `Datum` and `bool` arrays in the current context and fill them. Out of line.
///
/// # Safety
/// `array` must be an [`ArrayType`]'s bytes; a memory context must be current.
#[inline(never)]
pub unsafe fn deconstruct_array(array: *const u8, elmtype: Oid, elmlen: i16, elmbyval: bool, elmalign: u8) -> (*mut Datum, *mut bool, i32) {
    unsafe {
        let ndim = array.add(4).cast::<i32>().read();
        let dataoffset = array.add(8).cast::<i32>().read();
        if arr_elemtype(array) != elmtype {
            not_modelled("an element type other than the array's");
        }
        if ndim > 1 {
            not_modelled("more than one dimension");
        }
        let dims = array.add(16).cast::<i32>();
        let nelems = array_get_n_items(ndim, dims);
        let values = palloc(nelems as usize * size_of::<Datum>()).cast::<Datum>();
        let nulls = palloc(nelems as usize * size_of::<bool>()).cast::<bool>();
        // ARR_DATA_PTR, ARR_NULLBITMAP (none when dataoffset is 0).
        let mut p = if dataoffset != 0 { array.add(dataoffset as usize) } else { array.add(OVERHEAD_1D) };
        let mut bitmap = if dataoffset != 0 { array.add(16 + 8 * ndim as usize) } else { std::ptr::null() };
        let mut bitmask = 1u32;
        for i in 0..nelems as usize {
            if !bitmap.is_null() && (bitmap.read() as u32 & bitmask) == 0 {
                values.add(i).write(0);
                nulls.add(i).write(true);
            } else {
                // fetch_att
                let v: Datum = if elmbyval {
                    match elmlen {
                        1 => p.read() as Datum,
                        2 => p.cast::<i16>().read() as Datum,
                        4 => p.cast::<i32>().read() as Datum,
                        8 => p.cast::<i64>().read() as Datum,
                        _ => not_modelled("a by-value length other than 1, 2, 4 or 8"),
                    }
                } else {
                    p as Datum
                };
                values.add(i).write(v);
                nulls.add(i).write(false);
                // att_addlength_pointer, att_align_nominal
                if elmlen > 0 {
                    p = p.add(elmlen as usize);
                } else {
                    not_modelled("a varlena or cstring element");
                }
                let align = match elmalign {
                    b'c' => 1,
                    b's' => 2,
                    b'i' => 4,
                    _ => 8,
                };
                p = p.add(p.align_offset(align));
            }
            if !bitmap.is_null() {
                bitmask <<= 1;
                if bitmask == 0x100 {
                    bitmap = bitmap.add(1);
                    bitmask = 1;
                }
            }
        }
        (values, nulls, nelems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pg::fmgr::INT8OID;
    use crate::pg::mcxt::{AllocSet, MallocBackend, memory_context_switch_to};

    #[test]
    fn deconstructs_every_element_in_order() {
        let cxt = AllocSet::with_default_sizes("test", MallocBackend::Libc);
        let old = memory_context_switch_to(cxt.as_ptr());
        for vals in [vec![], vec![42usize], vec![9, 3, 3, 7, (-5i64) as usize]] {
            let a = ArrayType::new(INT8OID, 8, &vals);
            let (v, n, k) = unsafe { deconstruct_array(a.as_ptr(), INT8OID, 8, true, b'd') };
            assert_eq!(k as usize, vals.len());
            let got: Vec<usize> = (0..k as usize).map(|i| unsafe { v.add(i).read() }).collect();
            assert_eq!(got, vals);
            assert!((0..k as usize).all(|i| unsafe { !n.add(i).read() }));
        }
        let a = ArrayType::new(23, 4, &[1, 2, 3]);
        let (v, _, k) = unsafe { deconstruct_array(a.as_ptr(), 23, 4, true, b'i') };
        assert_eq!((0..k as usize).map(|i| unsafe { v.add(i).read() }).collect::<Vec<_>>(), vec![1, 2, 3]);
        memory_context_switch_to(old);
    }
}
