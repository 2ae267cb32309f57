//! tid-batch's B-tree kernels: btgetbitmap's loop in each variant over [`crate::pg::nbtscan`].

use super::*;
use crate::pg::ItemPointer;
use crate::pg::itemptr::INVALID_BLOCK_NUMBER;
use crate::pg::nbtree::{BTScanPosItem, BTree};
use crate::pg::page::BLCKSZ;
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{TidRunSink, TidWord};
use std::mem::MaybeUninit;
use std::rc::Rc;

/// Shared buffers of the miss case: the server's os-cache state (`shared_buffers = 128kB`, the
/// minimum: 16 buffers), so every leaf is a read from the OS page cache.
pub const OS_CACHE_NBUFFERS: usize = 16;

/// `btree-many-miss`: the btree-many scan with every page read through the buffer manager's
/// miss path (clock sweep over [`OS_CACHE_NBUFFERS`] buffers, mapping-table delete and
/// insert, `pread` of each block from the index's file in the OS page cache).
pub fn miss_scan(rel: Rc<BTree>) -> anyhow::Result<Box<BtreeScan>> {
    BtreeScan::with_storage(rel, vec![], OS_CACHE_NBUFFERS).map_err(|e| anyhow::anyhow!("writing the index file of btree-many-miss: {e}"))
}

impl TidCase {
    /// The scan the case runs (tests read its buffer pool's counters).
    pub fn scan(&self) -> &Scan {
        &self.scan
    }
}

/// `tid-batch/per-tid` for B-tree: btgetbitmap as in master (§1.1): the first TID from
/// `xs_heaptid`, then `++so->currPos.itemIndex` in memory and one call per TID.
///
/// # Safety
/// `bs` must point to a live [`BtreeScan`] reset for a new scan.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_per_tid_btree(bs: *mut BtreeScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                tbm.add_tuples(std::slice::from_raw_parts(&raw const (*bs).xs_heaptid, 1), false);
                ntids += 1;
                loop {
                    (*so).curr_pos.item_index += 1;
                    if (*so).curr_pos.item_index > (*so).curr_pos.last_item && !bt_next(bs) {
                        break;
                    }
                    let tid = &raw const (*items.add((*so).curr_pos.item_index as usize)).heap_tid;
                    tbm.add_tuples(std::slice::from_raw_parts(tid, 1), false);
                    ntids += 1;
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        ntids
    }
}

/// `tid-batch/batched` for B-tree: each leaf's span copied into a stack batch with the cursor
/// in locals; a full batch is flushed, the residual once after the last primitive scan.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_btree`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_batched_btree(bs: *mut BtreeScan, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut batch = [const { MaybeUninit::<ItemPointer>::uninit() }; BTREE_BATCH];
        let batch = batch.as_mut_ptr().cast::<ItemPointer>();
        let mut nbatch = 0usize;
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                loop {
                    let mut i = (*so).curr_pos.item_index;
                    let last = (*so).curr_pos.last_item;
                    while i <= last {
                        if nbatch == BTREE_BATCH {
                            tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), false);
                            nbatch = 0;
                        }
                        *batch.add(nbatch) = (*items.add(i as usize)).heap_tid;
                        nbatch += 1;
                        ntids += 1;
                        i += 1;
                    }
                    (*so).curr_pos.item_index = i;
                    if !bt_steppage_buf(bs) {
                        break;
                    }
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        if nbatch > 0 {
            tbm.add_tuples(std::slice::from_raw_parts(batch, nbatch), false);
        }
        ntids
    }
}

/// `tid-batch/runs` for B-tree: the leaf walk of `batched`, coalescing runs instead of copying.
///
/// # Safety
/// As [`hl_tid_batch_per_tid_btree`].
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_tid_batch_runs_btree(bs: *mut BtreeScan, tbm: &mut dyn TidRunSink) -> i64 {
    unsafe {
        let so = (*bs).desc.opaque;
        let rel = &*(*bs).desc.index_relation;
        let items = (&raw const (*so).curr_pos.items).cast::<BTScanPosItem>();
        let mut buf = [const { MaybeUninit::<TidWord>::uninit() }; RUN_BATCH];
        let mut acc = WordAcc::new(buf.as_mut_ptr().cast());
        let mut ntids = 0i64;
        loop {
            if bt_first(bs) {
                loop {
                    let i = (*so).curr_pos.item_index;
                    let last = (*so).curr_pos.last_item;
                    if i <= last {
                        prefetch_leaf(rel, (*so).curr_pos.next_page);
                        acc.push_span(items.add(i as usize), items.add(last as usize + 1), tbm);
                        ntids += (last - i + 1) as i64;
                        (*so).curr_pos.item_index = last + 1;
                    }
                    if !bt_steppage_buf(bs) {
                        break;
                    }
                }
            }
            if !bt_start_prim_scan(bs) {
                break;
            }
        }
        acc.finish(tbm);
        ntids
    }
}

/// `runs` only: ask for the right sibling's 8 KiB in L2 (`prefetcht1`) before coalescing this
/// leaf's span, so the next `_bt_readpage` finds it there. Coalescing is fast enough that the
/// kernel waits on the leaves streaming in from memory, and the hardware prefetcher stops at
/// every 4 KiB page. Into L1 (`prefetcht0`) it is slower than no prefetch: 8 KiB evicts the
/// 13.6 KB `currPos.items` array and the records from a 32 KiB L1.
#[inline(always)]
fn prefetch_leaf(rel: &BTree, next: u32) {
    #[cfg(target_arch = "x86_64")]
    if next != 0 && next != INVALID_BLOCK_NUMBER && (next as usize) <= rel.leaves.len() {
        let page = rel.page(next).0.as_ptr();
        for line in (0..BLCKSZ).step_by(64) {
            // SAFETY: a prefetch is a hint and cannot fault; the address is inside the page.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T1 }>(page.add(line).cast()) };
        }
    }
}

