//! `ItemPointerData` (src/include/storage/itemptr.h): a heap TID.
//!
//! Reference §7: three `uint16` halves, 6 bytes, alignment 2 (PostgreSQL marks the C struct
//! packed and aligned(2)); block = `bi_hi << 16 | bi_lo`, offset = `ip_posid`.

/// `BlockNumber` (u32).
pub type BlockNumber = u32;
/// `OffsetNumber` (u16), 1-based.
pub type OffsetNumber = u16;

/// `InvalidBlockNumber`.
pub const INVALID_BLOCK_NUMBER: BlockNumber = 0xFFFF_FFFF;
/// `MaxBlockNumber`.
pub const MAX_BLOCK_NUMBER: BlockNumber = 0xFFFF_FFFE;
/// `InvalidOffsetNumber`.
pub const INVALID_OFFSET_NUMBER: OffsetNumber = 0;
/// `FirstOffsetNumber`.
pub const FIRST_OFFSET_NUMBER: OffsetNumber = 1;

/// A heap tuple identifier, laid out as PostgreSQL's `ItemPointerData`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ItemPointer {
    /// High 16 bits of the block number (`ip_blkid.bi_hi`).
    pub bi_hi: u16,
    /// Low 16 bits of the block number (`ip_blkid.bi_lo`).
    pub bi_lo: u16,
    /// Line pointer offset within the heap page (`ip_posid`), 1-based.
    pub ip_posid: OffsetNumber,
}

const _: () = {
    assert!(size_of::<ItemPointer>() == 6);
    assert!(align_of::<ItemPointer>() == 2);
};

impl ItemPointer {
    /// `ItemPointerSet`.
    #[inline(always)]
    pub const fn new(block: BlockNumber, offset: OffsetNumber) -> Self {
        Self { bi_hi: (block >> 16) as u16, bi_lo: block as u16, ip_posid: offset }
    }

    /// `ItemPointerGetBlockNumberNoCheck`: `bi_hi << 16 | bi_lo`.
    #[inline(always)]
    pub const fn block(self) -> BlockNumber {
        ((self.bi_hi as u32) << 16) | self.bi_lo as u32
    }

    /// `ItemPointerGetOffsetNumberNoCheck`.
    #[inline(always)]
    pub const fn offset(self) -> OffsetNumber {
        self.ip_posid
    }

    /// A total order (block, offset), as `ItemPointerCompare`.
    #[inline(always)]
    pub const fn key(self) -> u64 {
        ((self.block() as u64) << 16) | self.ip_posid as u64
    }
}

impl Ord for ItemPointer {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for ItemPointer {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_is_hi_shl_16_or_lo() {
        let t = ItemPointer::new(0x0001_0002, 7);
        assert_eq!((t.bi_hi, t.bi_lo, t.ip_posid), (1, 2, 7));
        assert_eq!(t.block(), 0x0001_0002);
        assert_eq!(ItemPointer::new(MAX_BLOCK_NUMBER, 1).block(), MAX_BLOCK_NUMBER);
        assert!(ItemPointer::new(1, 2) < ItemPointer::new(1, 3));
        assert!(ItemPointer::new(1, 200) < ItemPointer::new(2, 1));
    }
}
