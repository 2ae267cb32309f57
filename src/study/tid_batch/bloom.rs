//! tid-batch's bloom kernels: blgetbitmap's full scan in each variant.

use super::*;
use crate::pg::ItemPointer;
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{TidRunSink, TidWord};
use std::mem::MaybeUninit;

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

