//! Where TIDs go: `tbm_add_tuples(tbm, tids, ntids, recheck)` in PostgreSQL. Kernels call it
//! through `&mut dyn TidSink`, an opaque call as the real one is (tidbitmap.c is another
//! translation unit and PostgreSQL builds without LTO).

use super::itemptr::ItemPointer;

/// The receiving end of a bitmap scan.
pub trait TidSink {
    /// Add `tids` (in order) with the page-level `recheck` flag.
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool);
}

/// An order-sensitive digest of every TID received: what the variants must agree on when
/// the bitmap itself is not the subject.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TidDigest {
    /// TIDs received.
    pub count: u64,
    /// FNV-1a over (block, offset, recheck) in arrival order.
    pub hash: u64,
    /// Calls received.
    pub calls: u64,
}

impl TidDigest {
    /// An empty digest.
    pub fn new() -> Self {
        Self { count: 0, hash: 0xcbf2_9ce4_8422_2325, calls: 0 }
    }

    /// Fold one TID in.
    #[inline(always)]
    pub fn push(&mut self, t: ItemPointer, recheck: bool) {
        self.count += 1;
        self.hash = (self.hash ^ (t.key() << 1 | recheck as u64)).wrapping_mul(0x100_0000_01b3);
    }

    /// One number for checksums.
    pub fn value(&self) -> u64 {
        self.hash ^ self.count.rotate_left(32)
    }
}

impl TidSink for TidDigest {
    #[inline(never)]
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) {
        self.calls += 1;
        for &t in tids {
            self.push(t, recheck);
        }
    }
}

/// Collects TIDs, for tests.
#[derive(Default, Debug)]
pub struct TidVec(pub Vec<ItemPointer>);

impl TidSink for TidVec {
    fn add_tuples(&mut self, tids: &[ItemPointer], _recheck: bool) {
        self.0.extend_from_slice(tids);
    }
}
