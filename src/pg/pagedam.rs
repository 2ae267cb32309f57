//! The paged access methods of tid-batch (hash, GIN, GiST, SP-GiST), as their `amgetbitmap`
//! loops see them: index pages of matching items (`HashScanPosItem`-like, 8 bytes), read a page
//! at a time into scan memory (`so->currPos.items`, `so->pageData`), with the cursor in scan
//! memory. Shared by every tid-batch variant.

use crate::pg::ItemPointer;
use std::ops::Range;

// ---------------------------------------------------------------------------------------------
// What the AMs hand over.

/// One matching index entry of a paged AM: a heap TID and the recheck flag its consistent
/// function returned (8 bytes, as `HashScanPosItem`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanItem {
    /// Heap TID.
    pub heap_tid: ItemPointer,
    /// Recheck this TID.
    pub recheck: bool,
    _pad: u8,
}
const _: () = assert!(size_of::<ScanItem>() == 8);

impl ScanItem {
    /// An item.
    pub const fn new(heap_tid: ItemPointer, recheck: bool) -> Self {
        Self { heap_tid, recheck, _pad: 0 }
    }
}

// ---------------------------------------------------------------------------------------------
// Paged AMs (hash, GIN, GiST, SP-GiST): index pages of matching items.

/// The matching items of an index, page by page, and the `amgetbitmap` calls of one Bitmap
/// Index Scan (each a range of pages).
pub struct PagedIndex {
    pub items: Vec<ScanItem>,
    /// Page `p` holds `items[starts[p]..starts[p + 1]]`.
    pub starts: Vec<u32>,
    pub calls: Vec<Range<u32>>,
    pub max_per_page: usize,
}

impl PagedIndex {
    /// Pages of items, and the calls as page ranges (they must cover pages in order).
    pub fn new(pages: &[Vec<ScanItem>], calls: Vec<Range<u32>>) -> PagedIndex {
        let mut items = Vec::with_capacity(pages.iter().map(Vec::len).sum());
        let mut starts = Vec::with_capacity(pages.len() + 1);
        starts.push(0u32);
        for p in pages {
            items.extend_from_slice(p);
            starts.push(items.len() as u32);
        }
        assert!(calls.iter().all(|c| c.end as usize <= pages.len() && c.start <= c.end));
        let max_per_page = pages.iter().map(Vec::len).max().unwrap_or(0).max(1);
        PagedIndex { items, starts, calls, max_per_page }
    }

    /// Items cut into pages of `per_page`, one call over all of them.
    pub fn chunked(items: &[ScanItem], per_page: usize) -> PagedIndex {
        let pages: Vec<Vec<ScanItem>> = items.chunks(per_page.max(1)).map(<[ScanItem]>::to_vec).collect();
        let n = pages.len() as u32;
        PagedIndex::new(&pages, std::iter::once(0..n).collect())
    }

    /// Index pages.
    pub fn pages(&self) -> usize {
        self.starts.len() - 1
    }

    /// `amgetbitmap` calls.
    pub fn calls(&self) -> usize {
        self.calls.len()
    }

    /// All items in scan order.
    pub fn items(&self) -> &[ScanItem] {
        &self.items
    }
}

/// A paged AM's scan position: the current page's items copied out (as `_hash_readpage` fills
/// `so->currPos.items`, `gistScanPage` `so->pageData`), with the cursor in scan memory.
#[repr(C)]
pub struct PagedScan {
    pub item_index: i32,
    pub last_item: i32,
    pub curr_page: u32,
    pub end_page: u32,
    pub items: *mut ScanItem,
    pub buf: Box<[ScanItem]>,
    pub index: PagedIndex,
}

impl PagedScan {
    /// A scan over `index`.
    pub fn new(index: PagedIndex) -> Box<PagedScan> {
        let mut buf = vec![ScanItem::default(); index.max_per_page].into_boxed_slice();
        let items = buf.as_mut_ptr();
        Box::new(PagedScan { item_index: 0, last_item: -1, curr_page: 0, end_page: 0, items, buf, index })
    }

    pub fn reset(&mut self) {
        self.item_index = 0;
        self.last_item = -1;
    }
}

/// Read index page `p`: copy its items into the scan position. False if it has none.
///
/// # Safety
/// `scan` must point to a live [`PagedScan`] and `p` be one of its index's pages.
#[inline(never)]
pub(crate) unsafe fn am_readpage(scan: *mut PagedScan, p: u32) -> bool {
    unsafe {
        let s = &mut *scan;
        let (a, b) = (s.index.starts[p as usize] as usize, s.index.starts[p as usize + 1] as usize);
        s.buf[..b - a].copy_from_slice(&s.index.items[a..b]);
        s.curr_page = p;
        s.item_index = 0;
        s.last_item = (b - a) as i32 - 1;
        b > a
    }
}

/// Start `amgetbitmap` call `call`: position on its first page with items.
///
/// # Safety
/// As [`am_readpage`]; `call` must be one of the index's calls.
#[inline(never)]
pub(crate) unsafe fn am_first(scan: *mut PagedScan, call: usize) -> bool {
    unsafe {
        let index: &PagedIndex = &(*scan).index;
        let r = index.calls[call].clone();
        (*scan).end_page = r.end;
        (*scan).last_item = -1;
        for p in r {
            if am_readpage(scan, p) {
                return true;
            }
        }
        false
    }
}

/// Step to the next page with items within the call; false at its end.
///
/// # Safety
/// As [`am_readpage`].
#[inline(never)]
pub(crate) unsafe fn am_steppage(scan: *mut PagedScan) -> bool {
    unsafe {
        let mut p = (*scan).curr_page + 1;
        while p < (*scan).end_page {
            if am_readpage(scan, p) {
                return true;
            }
            p += 1;
        }
        false
    }
}

