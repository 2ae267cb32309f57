//! `qsort_arg` (src/port/qsort_arg.c, an instance of lib/sort_template.h) and `qunique_arg`
//! (lib/qunique.h): what `_bt_sort_array_elements` sorts and deduplicates an `= ANY` array
//! with, the comparator called through a pointer on every comparison.
//!
//! The algorithm is Bentley and McIlroy's, as sort_template.h runs it: insertion sort below 7
//! elements; else one pass that returns at once when the input is already in order (the
//! common case for an `IN` list written in order: n - 1 comparisons), then a median-of-three
//! pivot (a ninther above 40 elements), a three-way partition with the equal keys swapped to
//! the ends, and recursion into the smaller side while the larger side loops. Interrupt checks
//! (`CHECK_FOR_INTERRUPTS`, a load and a branch in a backend) are left out.

use std::ptr;

/// The comparator `qsort_arg` calls: `cmp(a, b, arg)` < 0, 0 or > 0.
pub type QsortArgCmp = unsafe fn(*const u8, *const u8, *mut u8) -> i32;

/// Swap `n` bytes at `a` and `b` (distinct or equal elements of one array).
#[inline(always)]
unsafe fn swap_n(a: *mut u8, b: *mut u8, n: usize) {
    if a != b {
        // SAFETY: whole elements of one array; equal pointers were excluded, and elements
        // never partly overlap.
        unsafe { ptr::swap_nonoverlapping(a, b, n) }
    }
}

/// Swap the `n` bytes at `a` and `b`, ranges that may be adjacent but do not overlap.
#[inline(always)]
unsafe fn vecswap(a: *mut u8, b: *mut u8, n: usize) {
    if n > 0 {
        unsafe { swap_n(a, b, n) }
    }
}

/// The median of the three elements, by `cmp`.
#[inline(always)]
unsafe fn med3(a: *mut u8, b: *mut u8, c: *mut u8, cmp: QsortArgCmp, arg: *mut u8) -> *mut u8 {
    unsafe {
        if cmp(a, b, arg) < 0 {
            if cmp(b, c, arg) < 0 {
                b
            } else if cmp(a, c, arg) < 0 {
                c
            } else {
                a
            }
        } else if cmp(b, c, arg) > 0 {
            b
        } else if cmp(a, c, arg) < 0 {
            a
        } else {
            c
        }
    }
}

/// `qsort_arg(base, n, es, cmp, arg)`: sort `n` elements of `es` bytes at `base` in place.
///
/// # Safety
/// `base` must hold `n` elements of `es` bytes (`es` > 0), writable; `cmp` must accept any two
/// of them with `arg`.
#[inline(never)]
pub unsafe fn qsort_arg(base: *mut u8, n: usize, es: usize, cmp: QsortArgCmp, arg: *mut u8) {
    let (mut a, mut n) = (base, n);
    unsafe {
        loop {
            if n < 7 {
                let end = a.add(n * es);
                let mut pm = a.add(es);
                while pm < end {
                    let mut pl = pm;
                    while pl > a && cmp(pl.sub(es), pl, arg) > 0 {
                        swap_n(pl, pl.sub(es), es);
                        pl = pl.sub(es);
                    }
                    pm = pm.add(es);
                }
                return;
            }
            // Already in order: n - 1 comparisons and done.
            let end = a.add(n * es);
            let mut presorted = true;
            let mut pm = a.add(es);
            while pm < end {
                if cmp(pm.sub(es), pm, arg) > 0 {
                    presorted = false;
                    break;
                }
                pm = pm.add(es);
            }
            if presorted {
                return;
            }
            let mut pm = a.add((n / 2) * es);
            if n > 7 {
                let mut pl = a;
                let mut pn = a.add((n - 1) * es);
                if n > 40 {
                    let d = (n / 8) * es;
                    pl = med3(pl, pl.add(d), pl.add(2 * d), cmp, arg);
                    pm = med3(pm.sub(d), pm, pm.add(d), cmp, arg);
                    pn = med3(pn.sub(2 * d), pn.sub(d), pn, cmp, arg);
                }
                pm = med3(pl, pm, pn, cmp, arg);
            }
            swap_n(a, pm, es);
            // Partition around the pivot at a: [a, pa) and (pd, end) equal to it, [pa, pb)
            // below, (pc, pd] above.
            let (mut pa, mut pb) = (a.add(es), a.add(es));
            let (mut pc, mut pd) = (a.add((n - 1) * es), a.add((n - 1) * es));
            loop {
                while pb <= pc {
                    let r = cmp(pb, a, arg);
                    if r > 0 {
                        break;
                    }
                    if r == 0 {
                        swap_n(pa, pb, es);
                        pa = pa.add(es);
                    }
                    pb = pb.add(es);
                }
                while pb <= pc {
                    let r = cmp(pc, a, arg);
                    if r < 0 {
                        break;
                    }
                    if r == 0 {
                        swap_n(pc, pd, es);
                        pd = pd.sub(es);
                    }
                    pc = pc.sub(es);
                }
                if pb > pc {
                    break;
                }
                swap_n(pb, pc, es);
                pb = pb.add(es);
                pc = pc.sub(es);
            }
            // Move the equal runs from the ends to the middle.
            let pn = a.add(n * es);
            let d1 = (pa.offset_from(a) as usize).min(pb.offset_from(pa) as usize);
            vecswap(a, pb.sub(d1), d1);
            let d1 = (pd.offset_from(pc) as usize).min(pn.offset_from(pd) as usize - es);
            vecswap(pb, pn.sub(d1), d1);
            let d1 = pb.offset_from(pa) as usize;
            let d2 = pd.offset_from(pc) as usize;
            // Recurse into the smaller side, loop on the larger.
            if d1 <= d2 {
                if d1 > es {
                    qsort_arg(a, d1 / es, es, cmp, arg);
                }
                if d2 > es {
                    a = pn.sub(d2);
                    n = d2 / es;
                    continue;
                }
            } else {
                if d2 > es {
                    qsort_arg(pn.sub(d2), d2 / es, es, cmp, arg);
                }
                if d1 > es {
                    n = d1 / es;
                    continue;
                }
            }
            return;
        }
    }
}

/// `qunique_arg(elements, n, width, compare, arg)`: drop adjacent duplicates of a sorted
/// array in place; the number left. Inline in C (a header function), so its comparator calls
/// are the caller's.
///
/// # Safety
/// As [`qsort_arg`].
#[inline(always)]
pub unsafe fn qunique_arg(elements: *mut u8, n: usize, width: usize, compare: QsortArgCmp, arg: *mut u8) -> usize {
    if n <= 1 {
        return n;
    }
    let mut j = 0;
    unsafe {
        for i in 1..n {
            if compare(elements.add(j * width), elements.add(i * width), arg) != 0 {
                j += 1;
                if j != i {
                    ptr::copy_nonoverlapping(elements.add(i * width), elements.add(j * width), width);
                }
            }
        }
    }
    j + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cell::Cell;

    thread_local!(static CALLS: Cell<usize> = const { Cell::new(0) });

    unsafe fn cmp_i64(a: *const u8, b: *const u8, _: *mut u8) -> i32 {
        CALLS.with(|c| c.set(c.get() + 1));
        let (a, b) = unsafe { (a.cast::<i64>().read(), b.cast::<i64>().read()) };
        a.cmp(&b) as i32
    }

    fn sort(v: &mut [i64]) -> usize {
        CALLS.with(|c| c.set(0));
        unsafe { qsort_arg(v.as_mut_ptr().cast(), v.len(), 8, cmp_i64, ptr::null_mut()) };
        CALLS.with(|c| c.get())
    }

    #[test]
    fn sorted_input_costs_n_minus_one_comparisons() {
        let mut v: Vec<i64> = (0..10).map(|i| i * 2000 + 1000).collect();
        assert_eq!(sort(&mut v), 9);
        let mut six = vec![1, 2, 3, 4, 5, 6];
        assert_eq!(sort(&mut six), 5, "insertion sort of a sorted run");
        assert_eq!(sort(&mut []), 0);
        assert_eq!(sort(&mut [7]), 0);
    }

    #[test]
    fn unique_keeps_the_first_of_each_run() {
        let mut v = vec![1i64, 1, 2, 3, 3, 3, 9];
        let n = unsafe { qunique_arg(v.as_mut_ptr().cast(), v.len(), 8, cmp_i64, ptr::null_mut()) };
        assert_eq!(&v[..n], &[1, 2, 3, 9]);
        let mut one = vec![5i64];
        assert_eq!(unsafe { qunique_arg(one.as_mut_ptr().cast(), 1, 8, cmp_i64, ptr::null_mut()) }, 1);
    }

    proptest! {
        // Every length through the insertion, median-of-three and ninther paths, with many
        // duplicates (the three-way partition's equal runs).
        #[test]
        fn sorts_like_std(mut v in proptest::collection::vec(-20i64..20, 0..200)) {
            let mut want = v.clone();
            want.sort();
            sort(&mut v);
            prop_assert_eq!(v, want);
        }

        #[test]
        fn sorts_wide_elements(v in proptest::collection::vec(any::<u32>(), 0..100)) {
            // 12-byte elements: the key, then two words that must travel with it.
            let mut w: Vec<[u32; 3]> = v.iter().map(|&k| [k, !k, k ^ 0x5a5a]).collect();
            unsafe fn cmp3(a: *const u8, b: *const u8, _: *mut u8) -> i32 {
                let (a, b) = unsafe { (a.cast::<u32>().read_unaligned(), b.cast::<u32>().read_unaligned()) };
                a.cmp(&b) as i32
            }
            unsafe { qsort_arg(w.as_mut_ptr().cast(), w.len(), 12, cmp3, ptr::null_mut()) };
            let mut want: Vec<u32> = v.clone();
            want.sort();
            prop_assert_eq!(w.iter().map(|e| e[0]).collect::<Vec<_>>(), want);
            prop_assert!(w.iter().all(|e| e[1] == !e[0] && e[2] == e[0] ^ 0x5a5a));
        }
    }
}
