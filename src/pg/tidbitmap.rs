//! `TIDBitmap` (src/backend/nodes/tidbitmap.c, tidbitmap.h) on its simplehash page table
//! (src/include/lib/simplehash.h instantiated as `pagetable`), reference §2.
//!
//! What is modelled, and how faithfully:
//! - **`PagetableEntry`**: 48 bytes, `blockno` (the hash key), the slot `status` byte,
//!   `ischunk`, `recheck`, five 64-bit words (291 tuples a heap page, or 256 pages a lossy chunk).
//!   Sizes and offsets are asserted at compile time.
//! - **The page table**: linear probing with Robin Hood displacement, keyed by block number,
//!   `murmurhash32` recomputed on every probe and on grow (`SH_STORE_HASH` is not defined),
//!   backward-shift deletion, created for 128 elements (256 buckets), doubling at 0.9 fill or
//!   when an insert's displacement passes 25 or its shift passes 150 with fill >= 0.1; the grow
//!   check runs at the top of every insert, found or not, as simplehash does. Growth rehashes
//!   with simplehash's start-at-an-unwrapped-bucket copy, including its use of the *new* size
//!   mask when looking for that bucket.
//! - **States**: `TBM_EMPTY`, `TBM_ONE_PAGE` (the embedded `entry1`, no table) and `TBM_HASH`.
//! - **`tbm_add_tuples`**: the 1..=291 offset check, then a page lookup only when the block
//!   differs from the previous TID's *in the same call* (the within-call cache), the lossy-page
//!   short cut, the bit set, `recheck |=`, and `tbm_lossify` as soon as `nentries > maxentries`.
//!   PostgreSQL raises an ERROR on a bad offset; here the call stops at that TID and returns
//!   [`TbmError`] (the [`TidSink`] impl records the first one, see [`TidBitmap::error`]).
//! - **`tbm_add_page`**, **`tbm_page_is_lossy`**, **`tbm_mark_page_lossy`**, **`tbm_lossify`**:
//!   256-page chunks, round-robin from `lossify_start` down to `maxentries / 2`, and the
//!   doubling of `maxentries` when that cannot be reached.
//! - **`maxentries`** = work_mem bytes / 64 clamped to [16, INT_MAX - 1].
//!
//! Not modelled: shared (DSA) bitmaps, union/intersect, the iterator's lazily built `spages`
//! arrays (the read-back [`TidBitmap::iterate`] sorts the same way but returns owned pages).
//!
//! Beyond PostgreSQL, [`TidBitmap::try_add_words`] takes TIDs pre-coalesced by the caller into
//! [`TidWord`]s (one block, one 64-bit word of offsets): the same effect as `tbm_add_tuples`
//! over those TIDs in order, with one page lookup per block run and one OR per word. Study
//! `tid-batch` (variant `runs`) is its user.

use super::itemptr::{BlockNumber, INVALID_BLOCK_NUMBER, ItemPointer, OffsetNumber};
use super::page::{BLCKSZ, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
use super::sink::TidSink;
use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::fmt;
use std::mem::offset_of;
use std::ptr;

/// `MaxHeapTuplesPerPage` = (8192 - 24) / (MAXALIGN(23) + 4) = 291.
pub const MAX_HEAP_TUPLES_PER_PAGE: usize =
    (BLCKSZ - SIZE_OF_PAGE_HEADER) / (maxalign(23) + SIZE_OF_ITEM_ID);
/// `TBM_MAX_TUPLES_PER_PAGE` (= `MaxHeapTuplesPerPage`).
pub const TBM_MAX_TUPLES_PER_PAGE: usize = MAX_HEAP_TUPLES_PER_PAGE;
/// `BITS_PER_BITMAPWORD` on a 64-bit build.
pub const BITS_PER_BITMAPWORD: usize = 64;
/// `PAGES_PER_CHUNK` = BLCKSZ / 32 = 256.
pub const PAGES_PER_CHUNK: u32 = (BLCKSZ / 32) as u32;
/// `WORDS_PER_PAGE` = (291 - 1) / 64 + 1 = 5.
pub const WORDS_PER_PAGE: usize = (TBM_MAX_TUPLES_PER_PAGE - 1) / BITS_PER_BITMAPWORD + 1;
/// `WORDS_PER_CHUNK` = (256 - 1) / 64 + 1 = 4.
pub const WORDS_PER_CHUNK: usize = (PAGES_PER_CHUNK as usize - 1) / BITS_PER_BITMAPWORD + 1;
/// Entries of `words[]`: Max(WORDS_PER_PAGE, WORDS_PER_CHUNK).
pub const WORDS: usize = if WORDS_PER_PAGE > WORDS_PER_CHUNK { WORDS_PER_PAGE } else { WORDS_PER_CHUNK };

const _: () = {
    assert!(TBM_MAX_TUPLES_PER_PAGE == 291);
    assert!(PAGES_PER_CHUNK == 256);
    assert!(WORDS_PER_PAGE == 5 && WORDS_PER_CHUNK == 4 && WORDS == 5);
};

/// `SH_FILLFACTOR`.
pub const SH_FILLFACTOR: f64 = 0.9;
/// `SH_MAX_FILLFACTOR` (only at the maximum size).
pub const SH_MAX_FILLFACTOR: f64 = 0.98;
/// `SH_GROW_MAX_DIB`: grow when an insert probes further than this from its bucket.
pub const SH_GROW_MAX_DIB: u32 = 25;
/// `SH_GROW_MAX_MOVE`: grow when an insert would shift more entries than this.
pub const SH_GROW_MAX_MOVE: i32 = 150;
/// `SH_GROW_MIN_FILLFACTOR`: but not below this fill.
pub const SH_GROW_MIN_FILLFACTOR: f64 = 0.1;
/// `SH_MAX_SIZE` = 2^32 buckets.
pub const SH_MAX_SIZE: u64 = 1 << 32;
/// `tbm_create_pagetable` asks `pagetable_create` for 128 elements: 256 buckets.
pub const PAGETABLE_INITIAL_ELEMENTS: u32 = 128;

/// `SH_STATUS_EMPTY`.
pub const SH_STATUS_EMPTY: u8 = 0;
/// `SH_STATUS_IN_USE`.
pub const SH_STATUS_IN_USE: u8 = 1;

/// Bytes a page-table entry is charged in `tbm_calculate_entries`: the entry plus two
/// pointers for the iteration arrays.
pub const BYTES_PER_ENTRY_ESTIMATE: usize = size_of::<PagetableEntry>() + 2 * size_of::<usize>();
const _: () = assert!(BYTES_PER_ENTRY_ESTIMATE == 64);

/// The default `work_mem` (4096 kB) in bytes.
pub const DEFAULT_WORK_MEM_BYTES: usize = 4096 * 1024;

/// `murmurhash32` (src/include/common/hashfn.h): the murmur3 32-bit finaliser.
#[inline(always)]
pub const fn murmurhash32(data: u32) -> u32 {
    let mut h = data;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// `PagetableEntry`: one exact heap page or one lossy 256-page chunk.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PagetableEntry {
    /// Page number (hash key); for a chunk, the chunk's first page.
    pub blockno: BlockNumber,
    /// simplehash slot status: [`SH_STATUS_EMPTY`] or [`SH_STATUS_IN_USE`].
    pub status: u8,
    /// True: a lossy chunk (bit k = page `blockno + k`); false: an exact page.
    pub ischunk: bool,
    /// Tuples of an exact page need rechecking.
    pub recheck: bool,
    /// Bit (off - 1) for tuple offset `off` of an exact page, or bit k for page `blockno + k`.
    pub words: [u64; WORDS],
}

const _: () = {
    assert!(size_of::<PagetableEntry>() == 48 && align_of::<PagetableEntry>() == 8);
    assert!(offset_of!(PagetableEntry, blockno) == 0);
    assert!(offset_of!(PagetableEntry, status) == 4);
    assert!(offset_of!(PagetableEntry, ischunk) == 5);
    assert!(offset_of!(PagetableEntry, recheck) == 6);
    assert!(offset_of!(PagetableEntry, words) == 8);
};

impl PagetableEntry {
    /// An all-zero entry (what `MemSet(page, 0, ...)` leaves).
    pub const ZERO: PagetableEntry =
        PagetableEntry { blockno: 0, status: 0, ischunk: false, recheck: false, words: [0; WORDS] };
}

/// A `tbm_add_tuples` ERROR: "tuple offset out of range: %u".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbmError {
    /// Block of the offending TID.
    pub block: BlockNumber,
    /// Its offset, outside 1..=291.
    pub offset: u32,
}

impl fmt::Display for TbmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tuple offset out of range: {}", self.offset)
    }
}

impl std::error::Error for TbmError {}

// ---------------------------------------------------------------------------------------------
// simplehash `pagetable`.

/// `pagetable_iterator`: iterates backwards from `cur`, so the current element may be deleted.
#[derive(Clone, Copy, Debug)]
pub struct PagetableIterator {
    cur: u32,
    end: u32,
    done: bool,
}

impl PagetableIterator {
    /// The next bucket the iterator will visit (`i.cur`; what `tbm_lossify` remembers).
    pub fn cur(&self) -> u32 {
        self.cur
    }
}

/// `pagetable_hash`: simplehash's table, without a stored hash.
pub struct Pagetable {
    size: u64,
    members: u32,
    sizemask: u32,
    grow_threshold: u32,
    data: Box<[PagetableEntry]>,
    peak_bytes: usize,
}

/// `MemoryContextAllocExtended(..., MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO)` of `n` entries.
fn alloc_entries(n: u64) -> Box<[PagetableEntry]> {
    let n = usize::try_from(n).expect("hash table too large");
    let layout = Layout::array::<PagetableEntry>(n).expect("hash table too large");
    assert!(layout.size() > 0);
    // SAFETY: the layout is non-zero-sized; an all-zero PagetableEntry is valid (integers and
    // `false`); the Box takes ownership of exactly `n` entries allocated with that layout.
    unsafe {
        let p = alloc_zeroed(layout) as *mut PagetableEntry;
        if p.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(ptr::slice_from_raw_parts_mut(p, n))
    }
}

impl Pagetable {
    /// `pagetable_create(mcxt, nelements, tbm)`: room for `nelements` at 0.9 fill, rounded up
    /// to a power of two (128 -> 256 buckets).
    pub fn create(nelements: u32) -> Pagetable {
        let size = f64::min(SH_MAX_SIZE as f64, nelements as f64 / SH_FILLFACTOR) as u64;
        let mut tb =
            Pagetable { size: 0, members: 0, sizemask: 0, grow_threshold: 0, data: Box::new([]), peak_bytes: 0 };
        tb.compute_parameters(size);
        tb.data = alloc_entries(tb.size);
        tb.peak_bytes = tb.bytes();
        tb
    }

    /// `SH_COMPUTE_PARAMETERS`.
    fn compute_parameters(&mut self, newsize: u64) {
        let size = newsize.max(2).next_power_of_two();
        assert!(size <= SH_MAX_SIZE);
        self.size = size;
        self.sizemask = (size - 1) as u32;
        let fill = if size == SH_MAX_SIZE { SH_MAX_FILLFACTOR } else { SH_FILLFACTOR };
        // C assigns the double product to a uint32: truncation.
        self.grow_threshold = (size as f64 * fill) as u32;
    }

    /// Buckets.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Entries in use.
    pub fn members(&self) -> u32 {
        self.members
    }

    /// Members at which the next insert grows the table.
    pub fn grow_threshold(&self) -> u32 {
        self.grow_threshold
    }

    /// Bytes of the bucket array now.
    pub fn bytes(&self) -> usize {
        self.size as usize * size_of::<PagetableEntry>()
    }

    /// Most bytes held at once, counting old and new arrays together during a grow.
    pub fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// The buckets (for tests and read-back).
    pub fn buckets(&self) -> &[PagetableEntry] {
        &self.data
    }

    #[inline(always)]
    fn initial_bucket(&self, hash: u32) -> u32 {
        hash & self.sizemask
    }

    #[inline(always)]
    fn next(&self, curelem: u32) -> u32 {
        curelem.wrapping_add(1) & self.sizemask
    }

    #[inline(always)]
    fn prev(&self, curelem: u32) -> u32 {
        curelem.wrapping_sub(1) & self.sizemask
    }

    /// `SH_DISTANCE_FROM_OPTIMAL`.
    #[inline(always)]
    fn distance_from_optimal(&self, optimal: u32, bucket: u32) -> u32 {
        if optimal <= bucket { bucket - optimal } else { ((self.size + bucket as u64) - optimal as u64) as u32 }
    }

    /// `SH_GROW(tb, newsize)`.
    #[inline(never)]
    #[cold]
    fn grow(&mut self, newsize: u64) {
        let oldsize = self.size;
        assert!(oldsize != SH_MAX_SIZE && oldsize < newsize);
        self.compute_parameters(newsize);
        let olddata = std::mem::replace(&mut self.data, alloc_entries(self.size));
        self.peak_bytes = self.peak_bytes.max(olddata.len() * size_of::<PagetableEntry>() + self.bytes());
        let newdata = self.data.as_mut_ptr();

        // Start the copy at a bucket that is empty or holds an entry at its optimal position.
        // simplehash computes that position with the new size mask (parameters are updated
        // before the search); kept as is.
        let mut startelem = 0u32;
        for i in 0..oldsize as u32 {
            let e = &olddata[i as usize];
            if e.status != SH_STATUS_IN_USE {
                startelem = i;
                break;
            }
            if self.initial_bucket(murmurhash32(e.blockno)) == i {
                startelem = i;
                break;
            }
        }
        let mut copyelem = startelem;
        for _ in 0..oldsize {
            let old = &olddata[copyelem as usize];
            if old.status == SH_STATUS_IN_USE {
                let start = self.initial_bucket(murmurhash32(old.blockno));
                let mut cur = start;
                // SAFETY: `cur` is masked by `sizemask`, below `size`, the new array's length.
                unsafe {
                    while (*newdata.add(cur as usize)).status != SH_STATUS_EMPTY {
                        cur = self.next(cur);
                    }
                    *newdata.add(cur as usize) = *old;
                }
            }
            copyelem += 1;
            if copyelem as u64 >= oldsize {
                copyelem = 0;
            }
        }
    }

    /// `pagetable_insert`: the entry for `key`, and whether it was already there. A new
    /// entry has only its key and status set; the caller initialises the rest.
    // Out of line as gcc keeps `pagetable_insert_hash_internal` in the server: a call, its
    // saved registers and a reload of the table's fields on every lookup of a new block.
    #[inline(never)]
    pub fn insert(&mut self, key: BlockNumber) -> (*mut PagetableEntry, bool) {
        let hash = murmurhash32(key);
        'restart: loop {
            let mut insertdist: u32 = 0;
            // The grow check runs even when the key is present.
            if self.members >= self.grow_threshold {
                if self.size == SH_MAX_SIZE {
                    panic!("hash table size exceeded");
                }
                self.grow(self.size * 2);
            }
            let data = self.data.as_mut_ptr();
            let startelem = self.initial_bucket(hash);
            let mut curelem = startelem;
            // SAFETY: every index is masked by `sizemask` < `size` = the array's length.
            unsafe {
                loop {
                    let entry = data.add(curelem as usize);
                    if (*entry).status == SH_STATUS_EMPTY {
                        self.members += 1;
                        (*entry).blockno = key;
                        (*entry).status = SH_STATUS_IN_USE;
                        return (entry, false);
                    }
                    if (*entry).blockno == key {
                        return (entry, true);
                    }
                    let curoptimal = self.initial_bucket(murmurhash32((*entry).blockno));
                    let curdist = self.distance_from_optimal(curoptimal, curelem);
                    if insertdist > curdist {
                        // Robin Hood: take this bucket, shift the run up to the next empty one.
                        let mut lastentry;
                        let mut emptyelem = curelem;
                        let mut emptydist: i32 = 0;
                        loop {
                            emptyelem = self.next(emptyelem);
                            let emptyentry = data.add(emptyelem as usize);
                            if (*emptyentry).status == SH_STATUS_EMPTY {
                                lastentry = emptyentry;
                                break;
                            }
                            emptydist += 1;
                            if emptydist > SH_GROW_MAX_MOVE
                                && (self.members as f64 / self.size as f64) >= SH_GROW_MIN_FILLFACTOR
                            {
                                self.grow_threshold = 0;
                                continue 'restart;
                            }
                        }
                        let mut moveelem = emptyelem;
                        while moveelem != curelem {
                            moveelem = self.prev(moveelem);
                            let moveentry = data.add(moveelem as usize);
                            ptr::copy_nonoverlapping(moveentry, lastentry, 1);
                            lastentry = moveentry;
                        }
                        self.members += 1;
                        (*entry).blockno = key;
                        (*entry).status = SH_STATUS_IN_USE;
                        return (entry, false);
                    }
                    curelem = self.next(curelem);
                    insertdist += 1;
                    if insertdist > SH_GROW_MAX_DIB
                        && (self.members as f64 / self.size as f64) >= SH_GROW_MIN_FILLFACTOR
                    {
                        self.grow_threshold = 0;
                        continue 'restart;
                    }
                }
            }
        }
    }

    /// `pagetable_lookup`: the entry for `key` or null.
    #[inline(always)]
    pub fn lookup(&self, key: BlockNumber) -> *mut PagetableEntry {
        let hash = murmurhash32(key);
        let mut curelem = self.initial_bucket(hash);
        let data = self.data.as_ptr() as *mut PagetableEntry;
        // SAFETY: masked indexes, as in `insert`.
        unsafe {
            loop {
                let entry = data.add(curelem as usize);
                if (*entry).status == SH_STATUS_EMPTY {
                    return ptr::null_mut();
                }
                if (*entry).blockno == key {
                    return entry;
                }
                curelem = self.next(curelem);
            }
        }
    }

    /// `pagetable_delete` with backward shift: whether `key` was present.
    pub fn delete(&mut self, key: BlockNumber) -> bool {
        let hash = murmurhash32(key);
        let mut curelem = self.initial_bucket(hash);
        let data = self.data.as_mut_ptr();
        // SAFETY: masked indexes, as in `insert`.
        unsafe {
            loop {
                let entry = data.add(curelem as usize);
                if (*entry).status == SH_STATUS_EMPTY {
                    return false;
                }
                if (*entry).status == SH_STATUS_IN_USE && (*entry).blockno == key {
                    let mut lastentry = entry;
                    self.members -= 1;
                    loop {
                        curelem = self.next(curelem);
                        let curentry = data.add(curelem as usize);
                        if (*curentry).status != SH_STATUS_IN_USE {
                            (*lastentry).status = SH_STATUS_EMPTY;
                            break;
                        }
                        let curoptimal = self.initial_bucket(murmurhash32((*curentry).blockno));
                        if curoptimal == curelem {
                            (*lastentry).status = SH_STATUS_EMPTY;
                            break;
                        }
                        ptr::copy_nonoverlapping(curentry, lastentry, 1);
                        lastentry = curentry;
                    }
                    return true;
                }
                curelem = self.next(curelem);
            }
        }
    }

    /// `pagetable_start_iterate_at`.
    pub fn start_iterate_at(&self, at: u32) -> PagetableIterator {
        let cur = at & self.sizemask;
        PagetableIterator { cur, end: cur, done: false }
    }

    /// `pagetable_iterate`: the next entry in use (walking backwards), or null. It reads the
    /// table's current array and mask, so a grow in between behaves as in C.
    pub fn iterate(&self, it: &mut PagetableIterator) -> *mut PagetableEntry {
        let data = self.data.as_ptr() as *mut PagetableEntry;
        while !it.done {
            // SAFETY: `it.cur` is masked by `sizemask` (it starts masked and is re-masked).
            let elem = unsafe { data.add((it.cur & self.sizemask) as usize) };
            it.cur = it.cur.wrapping_sub(1) & self.sizemask;
            if (it.cur & self.sizemask) == (it.end & self.sizemask) {
                it.done = true;
            }
            // SAFETY: as above.
            if unsafe { (*elem).status } == SH_STATUS_IN_USE {
                return elem;
            }
        }
        ptr::null_mut()
    }
}

// ---------------------------------------------------------------------------------------------
// TIDBitmap.

/// `TBMStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbmStatus {
    /// `TBM_EMPTY`: no hashtable, nentries == 0.
    Empty,
    /// `TBM_ONE_PAGE`: `entry1` holds the only page, no hashtable.
    OnePage,
    /// `TBM_HASH`: the pagetable is valid, `entry1` is not.
    Hash,
}

/// One page of the read-back, as `tbm_iterate` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbmPage {
    /// Heap block.
    pub blockno: BlockNumber,
    /// The tuple offsets of an exact page, ascending; `None` for a lossy page.
    pub offsets: Option<Vec<OffsetNumber>>,
    /// Recheck flag (always true for a lossy page).
    pub recheck: bool,
}

/// Consecutive TIDs of one heap block that share a bitmap word, coalesced: bit (off - 1) % 64
/// of `bits` for each offset `off`, `wordnum` = (off - 1) / 64. 16 bytes, so a lone TID costs
/// little more than copying it, while a heap-ordered block of 185 TIDs becomes 3 records.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TidWord {
    /// Heap block.
    pub blockno: BlockNumber,
    /// Which of the page's five words.
    pub wordnum: u8,
    /// OR of the TIDs' recheck flags.
    pub recheck: bool,
    /// Offsets within the word.
    pub bits: u64,
}
const _: () = assert!(size_of::<TidWord>() == 16);

/// A bitmap that also takes coalesced word runs (the `runs` variant's entry point).
pub trait TidRunSink: TidSink {
    /// Apply `words` in order, as `tbm_add_tuples` over their TIDs in order.
    fn add_words(&mut self, words: &[TidWord]);
}

/// `TIDBitmap`, the fields a local (non-shared) bitmap uses.
pub struct TidBitmap {
    status: TbmStatus,
    pagetable: Option<Box<Pagetable>>,
    nentries: i32,
    maxentries: i32,
    npages: i32,
    nchunks: i32,
    lossify_start: u32,
    entry1: PagetableEntry,
    maxbytes: usize,
    error: Option<TbmError>,
}

/// `tbm_calculate_entries(maxbytes)`: maxbytes / 64 clamped to [16, INT_MAX - 1].
pub fn tbm_calculate_entries(maxbytes: usize) -> i32 {
    let nbuckets = maxbytes / BYTES_PER_ENTRY_ESTIMATE;
    nbuckets.min(i32::MAX as usize - 1).max(16) as i32
}

impl TidBitmap {
    /// `tbm_create(maxbytes, NULL)`.
    pub fn new(maxbytes: usize) -> TidBitmap {
        TidBitmap {
            status: TbmStatus::Empty,
            pagetable: None,
            nentries: 0,
            maxentries: tbm_calculate_entries(maxbytes),
            npages: 0,
            nchunks: 0,
            lossify_start: 0,
            entry1: PagetableEntry::ZERO,
            maxbytes,
            error: None,
        }
    }

    /// A bitmap with `work_mem` kilobytes, as `nodeBitmapIndexscan.c` creates it.
    pub fn with_work_mem_kb(kb: usize) -> TidBitmap {
        TidBitmap::new(kb * 1024)
    }

    /// State.
    pub fn status(&self) -> TbmStatus {
        self.status
    }
    /// Entries (exact pages + chunks).
    pub fn nentries(&self) -> i32 {
        self.nentries
    }
    /// Exact pages.
    pub fn npages(&self) -> i32 {
        self.npages
    }
    /// Lossy chunks.
    pub fn nchunks(&self) -> i32 {
        self.nchunks
    }
    /// Current entry limit (may have doubled).
    pub fn maxentries(&self) -> i32 {
        self.maxentries
    }
    /// The `maxbytes` it was created with.
    pub fn maxbytes(&self) -> usize {
        self.maxbytes
    }
    /// Where the next lossify starts.
    pub fn lossify_start(&self) -> u32 {
        self.lossify_start
    }
    /// The page table, once built.
    pub fn pagetable(&self) -> Option<&Pagetable> {
        self.pagetable.as_deref()
    }
    /// The first offset ERROR raised through the [`TidSink`] interface, if any.
    pub fn error(&self) -> Option<TbmError> {
        self.error
    }

    /// Peak bytes of the page table (old and new arrays together while growing), 0 before it
    /// is built: the figure to hold against work_mem.
    pub fn peak_bytes(&self) -> usize {
        self.pagetable.as_ref().map_or(0, |p| p.peak_bytes())
    }

    /// Bytes `tbm_begin_iterate` would add for its sorted `spages`/`schunks` pointer arrays.
    pub fn iterate_bytes(&self) -> usize {
        if self.status == TbmStatus::Hash { (self.npages + self.nchunks) as usize * size_of::<usize>() } else { 0 }
    }

    #[inline(always)]
    fn pt(&self) -> &Pagetable {
        debug_assert!(self.status == TbmStatus::Hash);
        // SAFETY: the table exists in TBM_HASH state, the only state that calls this.
        unsafe { self.pagetable.as_deref().unwrap_unchecked() }
    }

    #[inline(always)]
    fn pt_mut(&mut self) -> &mut Pagetable {
        debug_assert!(self.status == TbmStatus::Hash);
        // SAFETY: as `pt`.
        unsafe { self.pagetable.as_deref_mut().unwrap_unchecked() }
    }

    /// `tbm_create_pagetable`: build the table and move `entry1` into it.
    #[inline(never)]
    #[cold]
    fn create_pagetable(&mut self) {
        debug_assert!(self.status != TbmStatus::Hash && self.pagetable.is_none());
        let mut pt = Box::new(Pagetable::create(PAGETABLE_INITIAL_ELEMENTS));
        if self.status == TbmStatus::OnePage {
            let (page, found) = pt.insert(self.entry1.blockno);
            debug_assert!(!found);
            // SAFETY: `page` points into `pt`'s array, which nothing else references.
            unsafe {
                let oldstatus = (*page).status;
                *page = self.entry1;
                (*page).status = oldstatus;
            }
        }
        self.pagetable = Some(pt);
        self.status = TbmStatus::Hash;
    }

    /// `tbm_get_pageentry`: find or create the exact entry for `pageno`. The pointer is valid
    /// until the next insert, delete or lossify.
    // Out of line as gcc keeps the static `tbm_get_pageentry` in the server (callgrind names
    // it there, called once per block change).
    #[inline(never)]
    fn get_pageentry(&mut self, pageno: BlockNumber) -> *mut PagetableEntry {
        let page: *mut PagetableEntry;
        let found: bool;
        if self.status == TbmStatus::Empty {
            page = &raw mut self.entry1;
            found = false;
            self.status = TbmStatus::OnePage;
        } else {
            if self.status == TbmStatus::OnePage {
                if self.entry1.blockno == pageno {
                    return &raw mut self.entry1;
                }
                self.create_pagetable();
            }
            (page, found) = self.pt_mut().insert(pageno);
        }
        if !found {
            // SAFETY: `page` is entry1 or a slot of the table, both live.
            unsafe {
                let oldstatus = (*page).status;
                *page = PagetableEntry::ZERO;
                (*page).status = oldstatus;
                (*page).blockno = pageno;
            }
            self.nentries += 1;
            self.npages += 1;
        }
        page
    }

    /// `tbm_page_is_lossy`.
    #[inline(always)]
    fn page_is_lossy(&self, pageno: BlockNumber) -> bool {
        if self.nchunks == 0 {
            return false;
        }
        let bitno = pageno % PAGES_PER_CHUNK;
        let chunk_pageno = pageno - bitno;
        let page = self.pt().lookup(chunk_pageno);
        // SAFETY: a non-null lookup result is a live slot.
        unsafe {
            !page.is_null()
                && (*page).ischunk
                && (*page).words[(bitno / 64) as usize] & (1u64 << (bitno % 64)) != 0
        }
    }

    /// Whether `pageno` is covered by a lossy chunk (read-only `tbm_page_is_lossy`).
    pub fn is_lossy(&self, pageno: BlockNumber) -> bool {
        self.page_is_lossy(pageno)
    }

    /// `tbm_mark_page_lossy`.
    fn mark_page_lossy(&mut self, pageno: BlockNumber) {
        if self.status != TbmStatus::Hash {
            self.create_pagetable();
        }
        let bitno = pageno % PAGES_PER_CHUNK;
        let chunk_pageno = pageno - bitno;
        // Drop the page's exact entry, unless it is its own chunk header.
        if bitno != 0 && self.pt_mut().delete(pageno) {
            self.nentries -= 1;
            self.npages -= 1;
        }
        let (page, found) = self.pt_mut().insert(chunk_pageno);
        // SAFETY: `page` is a live slot of the table.
        unsafe {
            if !found {
                let oldstatus = (*page).status;
                *page = PagetableEntry::ZERO;
                (*page).status = oldstatus;
                (*page).blockno = chunk_pageno;
                (*page).ischunk = true;
                self.nentries += 1;
                self.nchunks += 1;
            } else if !(*page).ischunk {
                // The header page was exact: it becomes the chunk, itself lossy.
                let oldstatus = (*page).status;
                *page = PagetableEntry::ZERO;
                (*page).status = oldstatus;
                (*page).blockno = chunk_pageno;
                (*page).ischunk = true;
                (*page).words[0] = 1;
                self.nchunks += 1;
                self.npages -= 1;
            }
            (*page).words[(bitno / 64) as usize] |= 1u64 << (bitno % 64);
        }
    }

    /// `tbm_lossify`: convert exact pages to lossy chunks, round-robin from `lossify_start`,
    /// until `nentries <= maxentries / 2`; failing that, double `maxentries`.
    #[inline(never)]
    #[cold]
    fn lossify(&mut self) {
        debug_assert!(self.status == TbmStatus::Hash);
        let mut it = self.pt().start_iterate_at(self.lossify_start);
        loop {
            let page = self.pt().iterate(&mut it);
            if page.is_null() {
                break;
            }
            // SAFETY: a live slot returned by the iterator.
            let (ischunk, blockno) = unsafe { ((*page).ischunk, (*page).blockno) };
            if ischunk || blockno % PAGES_PER_CHUNK == 0 {
                continue;
            }
            self.mark_page_lossy(blockno);
            if self.nentries <= self.maxentries / 2 {
                self.lossify_start = it.cur;
                break;
            }
        }
        if self.nentries > self.maxentries / 2 {
            self.maxentries = self.nentries.min((i32::MAX - 1) / 2) * 2;
        }
    }

    /// `tbm_add_tuples(tbm, tids, ntids, recheck)`: Err at the first offset outside 1..=291,
    /// with the TIDs before it added (PostgreSQL's ERROR leaves the same state behind).
    ///
    /// Kept quirk: the cache starts at `InvalidBlockNumber` with no page, so a TID whose block
    /// is 0xFFFFFFFF is dropped when no other block precedes it in the call (and inserted
    /// otherwise). Valid TIDs never carry that block; callers must not rely on either.
    #[inline(always)]
    pub fn try_add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) -> Result<(), TbmError> {
        let mut currblk = INVALID_BLOCK_NUMBER;
        let mut page: *mut PagetableEntry = ptr::null_mut();
        for t in tids {
            let blk = t.block();
            let off = t.offset();
            if off < 1 || off as usize > TBM_MAX_TUPLES_PER_PAGE {
                return Err(TbmError { block: blk, offset: off as u32 });
            }
            // The within-call cache: look the page up only when the block changes.
            if blk != currblk {
                page = if self.page_is_lossy(blk) { ptr::null_mut() } else { self.get_pageentry(blk) };
                currblk = blk;
            }
            if page.is_null() {
                continue;
            }
            // SAFETY: `page` came from get_pageentry since the last insert/lossify; the word
            // index is at most (291 - 1) / 64 = 4.
            unsafe {
                if (*page).ischunk {
                    (*page).words[0] |= 1;
                } else {
                    let o = (off - 1) as usize;
                    *(*page).words.get_unchecked_mut(o / BITS_PER_BITMAPWORD) |= 1u64 << (o % BITS_PER_BITMAPWORD);
                }
                (*page).recheck |= recheck;
            }
            if self.nentries > self.maxentries {
                self.lossify();
                currblk = INVALID_BLOCK_NUMBER;
            }
        }
        Ok(())
    }

    /// `tbm_add_page(tbm, pageno)`: the whole page, lossy.
    pub fn add_page(&mut self, pageno: BlockNumber) {
        self.mark_page_lossy(pageno);
        if self.nentries > self.maxentries {
            self.lossify();
        }
    }

    /// Apply coalesced word runs in order: what `tbm_add_tuples` does with their TIDs, with
    /// the same within-call cache (a lookup only when the block changes, and again after a
    /// lossify), one `|=` of a whole word per record. Err (and stop) on a bit for an offset
    /// above 291.
    #[inline(always)]
    pub fn try_add_words(&mut self, words: &[TidWord]) -> Result<(), TbmError> {
        // Bits 35.. of word 4 are offsets 292..=320; words 5.. do not exist.
        const LAST_WORD_VALID: u64 = (1u64 << (TBM_MAX_TUPLES_PER_PAGE - 256)) - 1;
        let mut currblk = INVALID_BLOCK_NUMBER;
        let mut page: *mut PagetableEntry = ptr::null_mut();
        for r in words {
            let w = r.wordnum as usize;
            if w >= WORDS_PER_PAGE || (w == WORDS_PER_PAGE - 1 && r.bits & !LAST_WORD_VALID != 0) {
                let bad = if w >= WORDS_PER_PAGE { r.bits } else { r.bits & !LAST_WORD_VALID };
                let offset = (w * BITS_PER_BITMAPWORD) as u32 + bad.trailing_zeros() + 1;
                return Err(TbmError { block: r.blockno, offset });
            }
            if r.bits == 0 {
                continue;
            }
            if r.blockno != currblk {
                page = if self.page_is_lossy(r.blockno) { ptr::null_mut() } else { self.get_pageentry(r.blockno) };
                currblk = r.blockno;
            }
            if page.is_null() {
                continue;
            }
            // SAFETY: `page` came from get_pageentry since the last insert/lossify; w < 5.
            unsafe {
                if (*page).ischunk {
                    (*page).words[0] |= 1;
                } else {
                    *(*page).words.get_unchecked_mut(w) |= r.bits;
                }
                (*page).recheck |= r.recheck;
            }
            if self.nentries > self.maxentries {
                self.lossify();
                currblk = INVALID_BLOCK_NUMBER;
            }
        }
        Ok(())
    }

    fn record(&mut self, r: Result<(), TbmError>) {
        if let Err(e) = r {
            self.error.get_or_insert(e);
        }
    }

    /// Every entry in use: `entry1` in one-page state, the table's slots in hash state.
    pub fn entries(&self) -> Vec<PagetableEntry> {
        match self.status {
            TbmStatus::Empty => Vec::new(),
            TbmStatus::OnePage => vec![self.entry1],
            TbmStatus::Hash => self.pt().buckets().iter().filter(|e| e.status == SH_STATUS_IN_USE).copied().collect(),
        }
    }

    /// Read the bitmap back as `tbm_begin_iterate` + `tbm_iterate` do: pages in block order,
    /// exact pages with their offsets, lossy chunk pages one by one.
    pub fn iterate(&self) -> Vec<TbmPage> {
        let mut spages: Vec<PagetableEntry> = Vec::new();
        let mut schunks: Vec<PagetableEntry> = Vec::new();
        for e in self.entries() {
            if e.ischunk { schunks.push(e) } else { spages.push(e) }
        }
        spages.sort_by_key(|e| e.blockno);
        schunks.sort_by_key(|e| e.blockno);
        let mut lossy = Vec::new();
        for c in &schunks {
            for bit in 0..PAGES_PER_CHUNK {
                if c.words[(bit / 64) as usize] & (1u64 << (bit % 64)) != 0 {
                    lossy.push(c.blockno + bit);
                }
            }
        }
        let mut out = Vec::with_capacity(spages.len() + lossy.len());
        let (mut i, mut j) = (0, 0);
        while i < spages.len() || j < lossy.len() {
            if j < lossy.len() && (i >= spages.len() || lossy[j] < spages[i].blockno) {
                out.push(TbmPage { blockno: lossy[j], offsets: None, recheck: true });
                j += 1;
            } else {
                let p = &spages[i];
                let mut offs = Vec::new();
                for (w, &word) in p.words.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let b = bits.trailing_zeros() as usize;
                        offs.push((w * BITS_PER_BITMAPWORD + b + 1) as OffsetNumber);
                        bits &= bits - 1;
                    }
                }
                out.push(TbmPage { blockno: p.blockno, offsets: Some(offs), recheck: p.recheck });
                i += 1;
            }
        }
        out
    }

    /// (exact pages, lossy pages) as EXPLAIN's "Heap Blocks: exact=.. lossy=.." counts them.
    pub fn heap_blocks(&self) -> (u64, u64) {
        let lossy = self
            .entries()
            .iter()
            .filter(|e| e.ischunk)
            .map(|e| e.words.iter().map(|w| w.count_ones() as u64).sum::<u64>())
            .sum();
        (self.npages as u64, lossy)
    }

    /// An order-independent digest of the logical content: [`tidbitmap_digest`] of its
    /// entries and counters.
    pub fn digest(&self) -> u64 {
        tidbitmap_digest(&self.entries(), self.nentries, self.npages, self.nchunks, self.maxentries)
    }

    /// Check the structure: counters against the table, every entry reachable by lookup,
    /// no exact page under a lossy chunk bit, no empty exact page. Err says what is wrong.
    pub fn check_invariants(&self) -> Result<(), String> {
        let entries = self.entries();
        let pages = entries.iter().filter(|e| !e.ischunk).count() as i32;
        let chunks = entries.iter().filter(|e| e.ischunk).count() as i32;
        if pages != self.npages || chunks != self.nchunks || self.nentries != pages + chunks {
            return Err(format!(
                "counters npages {} nchunks {} nentries {} but table holds {pages} pages {chunks} chunks",
                self.npages, self.nchunks, self.nentries
            ));
        }
        if self.status == TbmStatus::Hash {
            let pt = self.pt();
            if pt.members() as i32 != self.nentries {
                return Err(format!("members {} != nentries {}", pt.members(), self.nentries));
            }
            for e in &entries {
                let found = pt.lookup(e.blockno);
                // SAFETY: non-null lookups are live slots.
                if found.is_null() || unsafe { (*found).blockno } != e.blockno {
                    return Err(format!("entry {} not reachable by lookup", e.blockno));
                }
            }
        }
        for e in &entries {
            if !e.ischunk {
                if e.words == [0; WORDS] {
                    return Err(format!("exact page {} has no tuples", e.blockno));
                }
                if e.words[4] >> (TBM_MAX_TUPLES_PER_PAGE - 256) != 0 {
                    return Err(format!("exact page {} has offsets above 291", e.blockno));
                }
                if self.status == TbmStatus::Hash && self.page_is_lossy(e.blockno) {
                    return Err(format!("exact page {} is also marked lossy", e.blockno));
                }
            } else {
                if e.blockno % PAGES_PER_CHUNK != 0 || e.words[4] != 0 {
                    return Err(format!("malformed chunk {}", e.blockno));
                }
            }
        }
        Ok(())
    }
}

/// An order-independent digest of a bitmap's logical content (its entries in use and its
/// counters, not their slots): equal for equal bitmaps however the table was laid out or
/// grown, and the one formula for the Rust model and the C TIDBitmap (csrc/tidbitmap.c) alike.
/// A chunk's `recheck` byte is left out: `tbm_iterate` never reads it (lossy pages are always
/// rechecked), and PostgreSQL itself leaves it depending on call boundaries (TIDs of a
/// chunk-header page after the first are skipped as lossy across calls, but OR their flag
/// into the cached entry within one call). The slot `status` byte is left out too (C leaves
/// `entry1`'s at 0).
pub fn tidbitmap_digest(entries: &[PagetableEntry], nentries: i32, npages: i32, nchunks: i32, maxentries: i32) -> u64 {
    #[inline(always)]
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let one = |e: &PagetableEntry| {
        let recheck = e.recheck && !e.ischunk;
        let mut h = mix(e.blockno as u64 | (e.ischunk as u64) << 32 | (recheck as u64) << 33);
        for &w in &e.words {
            h = mix(h ^ w);
        }
        h
    };
    let acc = entries.iter().fold(0u64, |acc, e| acc.wrapping_add(one(e)));
    mix(acc ^ mix((nentries as u64) << 32 | npages as u64) ^ (nchunks as u64) << 17) ^ (maxentries as u64).rotate_left(40)
}

impl TidSink for TidBitmap {
    /// `tbm_add_tuples`, out of line as tidbitmap.c is another translation unit.
    #[inline(never)]
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) {
        let r = self.try_add_tuples(tids, recheck);
        if r.is_err() {
            self.record(r);
        }
    }
}

impl TidRunSink for TidBitmap {
    #[inline(never)]
    fn add_words(&mut self, words: &[TidWord]) {
        let r = self.try_add_words(words);
        if r.is_err() {
            self.record(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::collections::BTreeMap;

    fn tid(b: u32, o: u16) -> ItemPointer {
        ItemPointer::new(b, o)
    }

    #[test]
    fn constants_match_reference() {
        assert_eq!(tbm_calculate_entries(DEFAULT_WORK_MEM_BYTES), 65_536);
        assert_eq!(tbm_calculate_entries(2 * 1024 * 1024), 32_768);
        assert_eq!(tbm_calculate_entries(0), 16);
        assert_eq!(tbm_calculate_entries(usize::MAX), i32::MAX - 1);
        assert_eq!(murmurhash32(0), 0);
        assert_eq!(murmurhash32(1), 0x514e_28b7);
        assert_eq!(murmurhash32(2), 0x30f4_c306);
        let pt = Pagetable::create(PAGETABLE_INITIAL_ELEMENTS);
        assert_eq!((pt.size(), pt.grow_threshold(), pt.bytes()), (256, 230, 12_288));
    }

    #[test]
    fn states_empty_one_page_hash() {
        let mut t = TidBitmap::new(DEFAULT_WORK_MEM_BYTES);
        assert_eq!(t.status(), TbmStatus::Empty);
        t.try_add_tuples(&[], false).unwrap();
        assert_eq!(t.status(), TbmStatus::Empty);
        t.try_add_tuples(&[tid(7, 1), tid(7, 291)], false).unwrap();
        assert_eq!(t.status(), TbmStatus::OnePage);
        assert!(t.pagetable().is_none());
        t.try_add_tuples(&[tid(7, 3)], true).unwrap();
        assert_eq!(t.status(), TbmStatus::OnePage);
        t.try_add_tuples(&[tid(8, 2)], false).unwrap();
        assert_eq!(t.status(), TbmStatus::Hash);
        assert_eq!(t.pagetable().unwrap().size(), 256);
        assert_eq!(
            t.iterate(),
            vec![
                TbmPage { blockno: 7, offsets: Some(vec![1, 3, 291]), recheck: true },
                TbmPage { blockno: 8, offsets: Some(vec![2]), recheck: false },
            ]
        );
        t.check_invariants().unwrap();
    }

    #[test]
    fn offset_out_of_range_stops_the_call() {
        let mut t = TidBitmap::new(DEFAULT_WORK_MEM_BYTES);
        assert_eq!(t.try_add_tuples(&[tid(1, 5), tid(1, 0), tid(1, 6)], false), Err(TbmError { block: 1, offset: 0 }));
        assert_eq!(t.iterate(), vec![TbmPage { blockno: 1, offsets: Some(vec![5]), recheck: false }]);
        assert_eq!(t.try_add_tuples(&[tid(2, 292)], false), Err(TbmError { block: 2, offset: 292 }));
        TidSink::add_tuples(&mut t, &[tid(3, 400)], false);
        TidSink::add_tuples(&mut t, &[tid(3, 0)], false);
        assert_eq!(t.error(), Some(TbmError { block: 3, offset: 400 }));
        let bad = TidWord { blockno: 4, wordnum: 4, recheck: false, bits: 1 << 35 };
        assert_eq!(t.try_add_words(&[bad]), Err(TbmError { block: 4, offset: 292 }));
        let bad = TidWord { blockno: 4, wordnum: 5, recheck: false, bits: 1 };
        assert_eq!(t.try_add_words(&[bad]), Err(TbmError { block: 4, offset: 321 }));
        let ok = TidWord { blockno: 4, wordnum: 4, recheck: false, bits: 1 << 34 };
        t.try_add_words(&[ok]).unwrap();
        assert!(t.iterate().contains(&TbmPage { blockno: 4, offsets: Some(vec![291]), recheck: false }));
    }

    #[test]
    fn table_grows_at_threshold_and_stays_consistent() {
        let mut t = TidBitmap::new(DEFAULT_WORK_MEM_BYTES);
        for b in 0..230u32 {
            t.try_add_tuples(&[tid(b, 1)], false).unwrap();
        }
        // 230 members reached the threshold; the grow happens on the next insert, found or not.
        assert_eq!(t.pagetable().unwrap().size(), 256);
        t.try_add_tuples(&[tid(0, 2)], false).unwrap();
        assert_eq!(t.pagetable().unwrap().size(), 512);
        assert_eq!(t.peak_bytes(), 256 * 48 + 512 * 48);
        for b in 230..5000u32 {
            t.try_add_tuples(&[tid(b * 7, 1)], false).unwrap();
        }
        t.check_invariants().unwrap();
        assert_eq!(t.npages(), 5000);
    }

    #[test]
    fn pagetable_matches_a_set_under_inserts_and_deletes() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut pt = Pagetable::create(PAGETABLE_INITIAL_ELEMENTS);
        let mut set = std::collections::BTreeSet::new();
        for _ in 0..50_000 {
            let k: u32 = rng.random_range(0..3000);
            if rng.random_bool(0.6) {
                let (_, found) = pt.insert(k);
                assert_eq!(found, !set.insert(k));
            } else {
                assert_eq!(pt.delete(k), set.remove(&k));
            }
            assert_eq!(pt.members() as usize, set.len());
        }
        for k in 0..3000 {
            assert_eq!(!pt.lookup(k).is_null(), set.contains(&k));
        }
        // Robin Hood: every entry sits within its probe run (no empty bucket in between).
        let n = pt.size() as u32;
        for (i, e) in pt.buckets().iter().enumerate() {
            if e.status == SH_STATUS_IN_USE {
                let mut b = murmurhash32(e.blockno) & (n - 1);
                while b != i as u32 {
                    assert_eq!(pt.buckets()[b as usize].status, SH_STATUS_IN_USE);
                    b = (b + 1) & (n - 1);
                }
            }
        }
        // A full backward iteration visits every member once.
        let mut it = pt.start_iterate_at(17);
        let mut seen = Vec::new();
        loop {
            let e = pt.iterate(&mut it);
            if e.is_null() {
                break;
            }
            seen.push(unsafe { (*e).blockno });
        }
        seen.sort();
        assert_eq!(seen, set.iter().copied().collect::<Vec<_>>());
    }

    #[test]
    fn lossify_keeps_entries_under_maxentries_and_covers_every_page() {
        // maxentries 16: 300 pages in 3 chunks must go lossy.
        let mut t = TidBitmap::new(0);
        assert_eq!(t.maxentries(), 16);
        let mut oracle: BTreeMap<u32, Vec<u16>> = BTreeMap::new();
        for b in 0..300u32 {
            let o = (b % 291 + 1) as u16;
            t.try_add_tuples(&[tid(b, o)], false).unwrap();
            oracle.entry(b).or_default().push(o);
            assert!(t.nentries() <= t.maxentries());
            t.check_invariants().unwrap();
        }
        assert!(t.nchunks() > 0);
        let pages = t.iterate();
        assert_eq!(pages.iter().map(|p| p.blockno).collect::<Vec<_>>(), oracle.keys().copied().collect::<Vec<_>>());
        for p in &pages {
            if let Some(offs) = &p.offsets {
                assert_eq!(offs, &oracle[&p.blockno]);
            } else {
                assert!(p.recheck);
            }
        }
        let (exact, lossy) = t.heap_blocks();
        assert_eq!(exact + lossy, 300);
    }

    #[test]
    fn chunk_headers_are_never_lossified_directly_but_convert() {
        // Pages 0 and 1 of chunk 0: lossifying page 1 turns exact header 0 into the chunk.
        let mut t = TidBitmap::new(0);
        t.try_add_tuples(&[tid(0, 4), tid(1, 5)], false).unwrap();
        t.mark_page_lossy(1);
        assert_eq!((t.npages(), t.nchunks(), t.nentries()), (0, 1, 1));
        assert_eq!(
            t.iterate(),
            vec![TbmPage { blockno: 0, offsets: None, recheck: true }, TbmPage { blockno: 1, offsets: None, recheck: true }]
        );
        // Later TIDs on lossy pages are dropped; a header page joins its chunk.
        t.try_add_tuples(&[tid(1, 9), tid(2, 1)], false).unwrap();
        assert_eq!(t.iterate().len(), 3);
        t.add_page(256 + 3);
        assert!(t.is_lossy(259));
        t.check_invariants().unwrap();
    }

    #[test]
    fn runs_equal_tuples_with_lossify_midway() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for round in 0..20 {
            let mut tids = Vec::new();
            let mut flags = Vec::new();
            for _ in 0..rng.random_range(1..600) {
                let b = rng.random_range(0..900u32);
                for _ in 0..rng.random_range(1..5) {
                    tids.push(tid(b, rng.random_range(1..=291)));
                    flags.push(rng.random_bool(0.3));
                }
            }
            let maxbytes = 64 * rng.random_range(16..80);
            let mut a = TidBitmap::new(maxbytes);
            for (t, &f) in tids.iter().zip(&flags) {
                a.try_add_tuples(std::slice::from_ref(t), f).unwrap();
            }
            let mut b = TidBitmap::new(maxbytes);
            let mut runs: Vec<TidWord> = Vec::new();
            for (t, &f) in tids.iter().zip(&flags) {
                let o = t.offset() as usize - 1;
                if runs.last().is_none_or(|r| r.blockno != t.block() || r.wordnum as usize != o / 64) {
                    runs.push(TidWord { blockno: t.block(), wordnum: (o / 64) as u8, ..TidWord::default() });
                }
                let r = runs.last_mut().unwrap();
                r.bits |= 1 << (o % 64);
                r.recheck |= f;
            }
            // Split across calls at random points: the within-call cache must not matter.
            let mut at = 0;
            while at < runs.len() {
                let n = rng.random_range(1..=runs.len() - at);
                b.try_add_words(&runs[at..at + n]).unwrap();
                at += n;
            }
            assert_eq!(a.iterate(), b.iterate(), "round {round}");
            assert_eq!(a.digest(), b.digest());
            assert_eq!(a.lossify_start(), b.lossify_start());
            a.check_invariants().unwrap();
            b.check_invariants().unwrap();
        }
    }
}
