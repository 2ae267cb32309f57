//! tid-batch's kernels for the paged AMs (hash, GIN, GiST, SP-GiST) over [`crate::pg::pagedam`].

use super::*;
use crate::pg::ItemPointer;
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{TidRunSink, TidWord};
use std::mem::MaybeUninit;

/// `tid-batch/per-tid` for a paged AM: one `amgetbitmap` call, one bitmap call per TID.
///
/// # Safety
/// `scan` must point to a live [`PagedScan`]; `call` must be one of its calls.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_per_tid_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let mut ntids = 0i64;
        if !am_first(scan, call) {
            return 0;
        }
        loop {
            let it = (*scan).items.add((*scan).item_index as usize);
            tbm.add_tuples(std::slice::from_raw_parts(&raw const (*it).heap_tid, 1), (*it).recheck);
            ntids += 1;
            (*scan).item_index += 1;
            if (*scan).item_index > (*scan).last_item && !am_steppage(scan) {
                break;
            }
        }
        ntids
    }
}

/// `tid-batch/batched` for a paged AM: exact and recheck batches, residuals flushed at the end
/// of the call (exact first).
///
/// # Safety
/// As [`hl_tid_batch_per_tid_pages`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_batched_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let mut exact = [const { MaybeUninit::<ItemPointer>::uninit() }; PAGE_BATCH];
        let mut lossy = [const { MaybeUninit::<ItemPointer>::uninit() }; PAGE_BATCH];
        let exact = exact.as_mut_ptr().cast::<ItemPointer>();
        let lossy = lossy.as_mut_ptr().cast::<ItemPointer>();
        let (mut nexact, mut nlossy) = (0usize, 0usize);
        let mut ntids = 0i64;
        if am_first(scan, call) {
            loop {
                let items = (*scan).items;
                let mut i = (*scan).item_index;
                let last = (*scan).last_item;
                while i <= last {
                    let it = *items.add(i as usize);
                    if it.recheck {
                        if nlossy == PAGE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(lossy, nlossy), true);
                            nlossy = 0;
                        }
                        *lossy.add(nlossy) = it.heap_tid;
                        nlossy += 1;
                    } else {
                        if nexact == PAGE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(exact, nexact), false);
                            nexact = 0;
                        }
                        *exact.add(nexact) = it.heap_tid;
                        nexact += 1;
                    }
                    ntids += 1;
                    i += 1;
                }
                (*scan).item_index = i;
                if !am_steppage(scan) {
                    break;
                }
            }
        }
        if nexact > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(exact, nexact), false);
        }
        if nlossy > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(lossy, nlossy), true);
        }
        ntids
    }
}

/// `tid-batch/runs` for a paged AM.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_pages`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_runs_pages(scan: *mut PagedScan, call: usize, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        let mut buf = [const { MaybeUninit::<TidWord>::uninit() }; RUN_BATCH];
        let mut acc = WordAcc::new(buf.as_mut_ptr().cast());
        let mut ntids = 0i64;
        if am_first(scan, call) {
            loop {
                let items = (*scan).items;
                let i = (*scan).item_index;
                let last = (*scan).last_item;
                if i <= last {
                    acc.push_span(items.add(i as usize), items.add(last as usize + 1), tbm);
                    ntids += (last - i + 1) as i64;
                    (*scan).item_index = last + 1;
                }
                if !am_steppage(scan) {
                    break;
                }
            }
        }
        acc.finish(tbm);
        ntids
    }
}

