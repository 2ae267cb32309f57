//! The run accumulator of `tid-batch/runs`: same-block runs coalesced into bitmap words.

use super::*;
use crate::pg::ItemPointer;
use crate::pg::nbtree::BTScanPosItem;
use crate::pg::tidbitmap::{TBM_MAX_TUPLES_PER_PAGE, TidRunSink, TidWord};

// ---------------------------------------------------------------------------------------------
// The run accumulator of `tid-batch/runs`.

/// Builds [`TidWord`]s in a caller's stack buffer. The open record (the TID's raw
/// `bi_hi`/`bi_lo` bytes, the first offset of its word, how many offsets from there are in the
/// word *and* valid, its bits and its recheck flag) stays in registers; a record is written
/// only when the block or the word changes.
pub(super) struct WordAcc {
    recs: *mut TidWord,
    n: usize,
    /// The open record's block as the TID's raw bytes (compared without reassembling it).
    raw: u32,
    /// First offset of the open word: 64 * wordnum + 1.
    base: u32,
    /// Offsets `base..base + lim` are in the open word and at most 291 (64, or 35 for word
    /// 4); 0: no open record, so no TID matches.
    lim: u32,
    blockno: u32,
    bits: u64,
    recheck: bool,
}

impl WordAcc {
    #[inline(always)]
    pub(super) fn new(recs: *mut TidWord) -> WordAcc {
        WordAcc { recs, n: 0, raw: 0, base: 0, lim: 0, blockno: 0, bits: 0, recheck: false }
    }

    /// Add one TID. The common case is one compare of the raw block bytes and one unsigned
    /// compare `posid - base < lim`, which checks the word and the offset's validity at once.
    ///
    /// # Safety
    /// `tid` must point to a TID; `recs` to [`RUN_BATCH`] writable records.
    #[inline(always)]
    pub(super) unsafe fn push(&mut self, tid: *const ItemPointer, recheck: bool, tbm: &mut dyn TidRunSink) {
        unsafe {
            let raw = (tid as *const u32).read_unaligned();
            let d = ((*tid).ip_posid as u32).wrapping_sub(self.base);
            if raw == self.raw && d < self.lim {
                self.bits |= 1u64 << d;
                self.recheck |= recheck;
            } else {
                self.open(tid, raw, recheck, tbm);
            }
        }
    }

    /// Add every item of `p..end` (one index page's saved items). The run test of
    /// [`WordAcc::push`], with the open record copied into locals for the inner loop, so
    /// that a TID costs two loads, a subtract, two compares and an OR.
    ///
    /// # Safety
    /// `p..end` must be a range of items; `recs` as for [`WordAcc::push`].
    #[inline(always)]
    pub(super) unsafe fn push_span<T: SpanItem>(&mut self, mut p: *const T, end: *const T, tbm: &mut dyn TidRunSink) {
        unsafe {
            while p != end {
                self.push(T::tid(p), T::recheck(p), tbm);
                p = p.add(1);
                let (raw, base, lim) = (self.raw, self.base, self.lim);
                let (mut bits, mut recheck) = (self.bits, self.recheck);
                while p != end {
                    let tid = T::tid(p);
                    let d = ((*tid).ip_posid as u32).wrapping_sub(base);
                    if (tid as *const u32).read_unaligned() != raw || d >= lim {
                        break;
                    }
                    bits |= 1u64 << d;
                    recheck |= T::recheck(p);
                    p = p.add(1);
                }
                self.bits = bits;
                self.recheck = recheck;
            }
        }
    }

    /// Another block or word (or an invalid offset): close the open record, start one.
    ///
    /// # Safety
    /// As [`WordAcc::push`].
    #[inline(always)]
    pub(super) unsafe fn open(&mut self, tid: *const ItemPointer, raw: u32, recheck: bool, tbm: &mut dyn TidRunSink) {
        unsafe {
            let o = ((*tid).ip_posid as u32).wrapping_sub(1);
            if o >= TBM_MAX_TUPLES_PER_PAGE as u32 {
                // Flush what came before, then let the bitmap raise its ERROR for this TID.
                std::hint::cold_path();
                self.finish(tbm);
                add_one_cold(tbm, tid, recheck);
                return;
            }
            if self.lim != 0 {
                self.close(tbm);
            }
            let first = o & !63;
            self.raw = raw;
            self.base = first + 1;
            self.lim = (TBM_MAX_TUPLES_PER_PAGE as u32 - first).min(64);
            self.blockno = (*tid).block();
            self.bits = 1u64 << (o & 63);
            self.recheck = recheck;
        }
    }

    /// Write the open record.
    #[inline(always)]
    pub(super) unsafe fn close(&mut self, tbm: &mut dyn TidRunSink) {
        unsafe {
            self.recs.add(self.n).write(TidWord {
                blockno: self.blockno,
                wordnum: (self.base >> 6) as u8,
                recheck: self.recheck,
                bits: self.bits,
            });
            self.n += 1;
            if self.n == RUN_BATCH {
                tbm.add_words(std::slice::from_raw_parts(self.recs, self.n));
                self.n = 0;
            }
        }
    }

    /// Hand over everything collected.
    #[inline(always)]
    pub(super) unsafe fn finish(&mut self, tbm: &mut dyn TidRunSink) {
        unsafe {
            if self.lim != 0 {
                self.close(tbm);
                self.lim = 0;
            }
            if self.n > 0 {
                tbm.add_words(std::slice::from_raw_parts(self.recs, self.n));
                self.n = 0;
            }
        }
    }
}

/// An item an index page saves for the bitmap: its heap TID and recheck flag.
pub(super) trait SpanItem {
    /// # Safety
    /// `p` must point to an item.
    unsafe fn tid(p: *const Self) -> *const ItemPointer;
    /// # Safety
    /// As [`SpanItem::tid`].
    unsafe fn recheck(p: *const Self) -> bool;
}

impl SpanItem for BTScanPosItem {
    #[inline(always)]
    unsafe fn tid(p: *const Self) -> *const ItemPointer {
        unsafe { &raw const (*p).heap_tid }
    }
    /// B-tree never asks for a recheck.
    #[inline(always)]
    unsafe fn recheck(_: *const Self) -> bool {
        false
    }
}

impl SpanItem for ScanItem {
    #[inline(always)]
    unsafe fn tid(p: *const Self) -> *const ItemPointer {
        unsafe { &raw const (*p).heap_tid }
    }
    #[inline(always)]
    unsafe fn recheck(p: *const Self) -> bool {
        unsafe { (*p).recheck }
    }
}

/// The invalid-offset path of [`WordAcc::push`], out of the hot loop.
///
/// # Safety
/// `tid` must point to a TID.
#[cold]
#[inline(never)]
pub(super) unsafe fn add_one_cold(tbm: &mut dyn TidRunSink, tid: *const ItemPointer, recheck: bool) {
    unsafe { tbm.add_tuples(std::slice::from_raw_parts(tid, 1), recheck) }
}

