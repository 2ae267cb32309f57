//! A PostgreSQL 8 KiB page (src/include/storage/bufpage.h, itemid.h): 24-byte header, line
//! pointers growing up, tuples growing down, special space at the end. Index-scan loops reach
//! tuples through `PageGetItemId` then `PageGetItem`, two dependent loads, so the model keeps
//! the real byte layout rather than a `Vec` of structs.

use super::itemptr::OffsetNumber;

/// `BLCKSZ`.
pub const BLCKSZ: usize = 8192;
/// `SizeOfPageHeaderData`: lsn 8, checksum 2, flags 2, lower 2, upper 2, special 2, pagesize_version 2, prune_xid 4.
pub const SIZE_OF_PAGE_HEADER: usize = 24;
/// `sizeof(ItemIdData)`.
pub const SIZE_OF_ITEM_ID: usize = 4;
/// `MAXALIGN` on x86-64.
pub const MAXIMUM_ALIGNOF: usize = 8;

/// `MAXALIGN(len)`.
pub const fn maxalign(len: usize) -> usize {
    (len + MAXIMUM_ALIGNOF - 1) & !(MAXIMUM_ALIGNOF - 1)
}

const PD_LOWER: usize = 12;
const PD_UPPER: usize = 14;
const PD_SPECIAL: usize = 16;
const PD_PAGESIZE_VERSION: usize = 18;
/// `LP_NORMAL`.
const LP_NORMAL: u32 = 1;

/// One 8 KiB page, 8-byte aligned as buffers are.
#[repr(C, align(8))]
#[derive(Clone)]
pub struct Page(pub [u8; BLCKSZ]);

const _: () = assert!(size_of::<Page>() == BLCKSZ);

impl Page {
    /// `PageInit(page, BLCKSZ, special_size)`.
    pub fn new(special_size: usize) -> Box<Page> {
        let mut p = Box::new(Page([0; BLCKSZ]));
        let special = BLCKSZ - maxalign(special_size);
        p.put_u16(PD_LOWER, SIZE_OF_PAGE_HEADER as u16);
        p.put_u16(PD_UPPER, special as u16);
        p.put_u16(PD_SPECIAL, special as u16);
        // PG_PAGE_LAYOUT_VERSION 4 in the low byte, page size in the high bits.
        p.put_u16(PD_PAGESIZE_VERSION, (BLCKSZ as u16) | 4);
        p
    }

    fn put_u16(&mut self, at: usize, v: u16) {
        self.0[at..at + 2].copy_from_slice(&v.to_ne_bytes());
    }

    fn get_u16(&self, at: usize) -> u16 {
        u16::from_ne_bytes([self.0[at], self.0[at + 1]])
    }

    /// `PageGetMaxOffsetNumber`.
    #[inline(always)]
    pub fn max_offset(&self) -> OffsetNumber {
        ((self.get_u16(PD_LOWER) as usize - SIZE_OF_PAGE_HEADER) / SIZE_OF_ITEM_ID) as OffsetNumber
    }

    /// `PageGetFreeSpace` without the line-pointer allowance: `pd_upper - pd_lower`.
    pub fn raw_free_space(&self) -> usize {
        (self.get_u16(PD_UPPER) - self.get_u16(PD_LOWER)) as usize
    }

    /// `PageGetFreeSpace`: the room left for one more tuple and its line pointer.
    pub fn free_space(&self) -> usize {
        self.raw_free_space().saturating_sub(SIZE_OF_ITEM_ID)
    }

    /// `PageAddItem` at the next offset; `None` when the item does not fit.
    pub fn add_item(&mut self, item: &[u8]) -> Option<OffsetNumber> {
        let len = item.len();
        let size = maxalign(len);
        if self.raw_free_space() < size + SIZE_OF_ITEM_ID {
            return None;
        }
        let lower = self.get_u16(PD_LOWER) as usize;
        let upper = self.get_u16(PD_UPPER) as usize - size;
        self.0[upper..upper + len].copy_from_slice(item);
        // ItemIdData bit fields: lp_off:15, lp_flags:2, lp_len:15 (little-endian allocation).
        let lp = (upper as u32) | (LP_NORMAL << 15) | ((len as u32) << 17);
        self.0[lower..lower + 4].copy_from_slice(&lp.to_ne_bytes());
        self.put_u16(PD_LOWER, (lower + SIZE_OF_ITEM_ID) as u16);
        self.put_u16(PD_UPPER, upper as u16);
        Some(self.max_offset())
    }

    /// Overwrite the item at `off` in place (same length), as `PageIndexTupleOverwrite` would.
    pub fn overwrite_item(&mut self, off: OffsetNumber, item: &[u8]) {
        let (start, len) = self.item_span(off);
        assert_eq!(len, item.len(), "overwrite must keep the item length");
        self.0[start..start + len].copy_from_slice(item);
    }

    /// Byte range of the item at `off` (1-based), from its line pointer.
    #[inline(always)]
    pub fn item_span(&self, off: OffsetNumber) -> (usize, usize) {
        let at = SIZE_OF_PAGE_HEADER + (off as usize - 1) * SIZE_OF_ITEM_ID;
        let lp = u32::from_ne_bytes(self.0[at..at + 4].try_into().unwrap());
        ((lp & 0x7fff) as usize, (lp >> 17) as usize)
    }

    /// `PageGetItem(page, PageGetItemId(page, off))` as a raw pointer: two dependent loads,
    /// no bounds check, as in C.
    ///
    /// # Safety
    /// `page` must point to a valid page and `off` must be in `1..=max_offset()`.
    #[inline(always)]
    pub unsafe fn item_ptr(page: *const Page, off: OffsetNumber) -> *const u8 {
        unsafe {
            let base = page as *const u8;
            let lp = (base.add(SIZE_OF_PAGE_HEADER + (off as usize - 1) * SIZE_OF_ITEM_ID)
                as *const u32)
                .read();
            base.add((lp & 0x7fff) as usize)
        }
    }

    /// `PageGetSpecialPointer`.
    pub fn special(&self) -> &[u8] {
        &self.0[self.get_u16(PD_SPECIAL) as usize..]
    }

    /// Mutable special space.
    pub fn special_mut(&mut self) -> &mut [u8] {
        let at = self.get_u16(PD_SPECIAL) as usize;
        &mut self.0[at..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_and_read_items() {
        let mut p = Page::new(16);
        assert_eq!(p.max_offset(), 0);
        assert_eq!(p.raw_free_space(), BLCKSZ - SIZE_OF_PAGE_HEADER - 16);
        let a = p.add_item(&[1u8; 16]).unwrap();
        let b = p.add_item(&[2u8; 12]).unwrap();
        assert_eq!((a, b), (1, 2));
        assert_eq!(p.item_span(1), (BLCKSZ - 16 - 16, 16));
        assert_eq!(p.item_span(2), (BLCKSZ - 16 - 32, 12));
        let ptr = unsafe { Page::item_ptr(&*p, 2) };
        assert_eq!(unsafe { *ptr }, 2);
        assert_eq!(p.special().len(), 16);
    }

    #[test]
    fn full_page_refuses() {
        let mut p = Page::new(0);
        let mut n = 0;
        while p.add_item(&[0u8; 40]).is_some() {
            n += 1;
        }
        // (8192 - 24) / (40 + 4) = 185: the seed table's heap tuples per page.
        assert_eq!(n, 185);
    }
}
