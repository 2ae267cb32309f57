//! A contrib/bloom index file (contrib/bloom/bloom.h, blutils.c, blinsert.c): a metapage, then
//! 8 KiB pages of fixed-size `BloomTuple`s packed after the page header, no line pointers.
//!
//! The reference covers `blgetbitmap` (§4.5) but not bloom's layout; the constants below were
//! read from contrib/bloom's source and are checked at compile time:
//! - `BloomTuple` = `heapPtr` (`ItemPointerData`, 6 bytes) + `bloomLength` signature words of
//!   `uint16` (`BloomSignatureWord`); `DEFAULT_BLOOM_LENGTH` = 80 bits = **5 words**, so a
//!   tuple is 6 + 10 = **16 bytes** (`sizeOfBloomTuple`, not MAXALIGNed).
//! - `BloomPageOpaqueData` = `maxoff`, `flags`, `unused`, `bloom_page_id` (4 × uint16 = 8 bytes)
//!   as the page's special space. `BloomPageAddItem` adds while
//!   `BloomPageGetFreeSpace` = 8192 − 24 − maxoff × 16 − 8 ≥ 16, so a page holds
//!   (8192 − 24 − 8) / 16 = **510 tuples**, exactly filling it.
//! - Block 0 is the metapage (`BLOOM_META` flag, `BloomMetaPageData`: magic `0xDBAC0DED`,
//!   `nStart`, `nEnd`, `BloomOptions`, then `notFullPage`, 2004 block numbers).
//! - A tuple's signature: for each non-null column `attno` (0-based), `signValue` seeds
//!   Park–Miller with `attno`, reseeds with `hash ^ myRand()` where `hash` is the opclass hash
//!   (`hashint4` = `hash_bytes_uint32` for int4), then sets `bitSize[attno]` (default **2**)
//!   bits `myRand() % 80`.
//!
//! **The seed's index** (seed 002: "test cases up to 10M rows"): the contrib/bloom
//! documentation's example, a table of six `int4` columns `i1..i6`, each
//! `(random() * 1000000)::int`, 10M rows, `CREATE INDEX ... USING bloom (i1, ..., i6)` with the
//! defaults, which the documentation gives as 153 MB. Here: 10,000,000 / 510 = **19,608 data
//! pages** + the metapage = **19,609 pages = 160,636,928 bytes (153.2 MiB)**. Heap TIDs follow
//! the table's layout: a 6 × int4 heap tuple is 24 (header) + 24 = 48 bytes, so
//! (8192 − 24) / (48 + 4) = **157 tuples a heap page** in insertion order. The query is the
//! documentation's shape, `i2 = a AND i5 = b` (4 of 80 signature bits), with `a`, `b` taken
//! from the middle row so at least one tuple truly matches; the rest are bloom false positives
//! that the heap recheck would drop.
//!
//! Checked against PostgreSQL 15.18's contrib/bloom on this layout's 2,000-row table: its data
//! pages are identical byte for byte but for `pd_lsn`.
//!
//! Column values come from a counter-based generator ([`column_value`]) so that any row can
//! be recomputed without the file (the tests' oracle) and the file can be written streaming.
//!
//! **Our stamp.** To tell whether an existing file was built from the same parameters, a
//! 64-byte stamp ([`Stamp`]) is written into the unused tail of the metapage's `notFullPage`
//! array (a freshly built index has `nStart = nEnd = 0`, so PostgreSQL never reads those
//! slots). A file whose metapage or stamp does not match is re-created; a file whose length is
//! not a whole number of pages is an error naming the file (it cannot be one of ours: files
//! are written under a temporary name and renamed into place).
//!
//! **Our checksum.** The stamp's bytes 48..56 hold a checksum of the body (every page after
//! the metapage, [`BodyHash`]), written last; [`BloomIndex::open`] reads the whole body and
//! compares, so flipped bytes are found (and the file re-created, naming it) instead of
//! silently changing a scan's results.

use super::itemptr::ItemPointer;
use super::page::{BLCKSZ, MAXIMUM_ALIGNOF, SIZE_OF_PAGE_HEADER, maxalign};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// `SIGNWORDBITS`: bits in a `BloomSignatureWord` (uint16).
pub const SIGNWORDBITS: usize = 16;
/// `DEFAULT_BLOOM_LENGTH`, in bits.
pub const DEFAULT_BLOOM_LENGTH: usize = 5 * SIGNWORDBITS;
/// `DEFAULT_BLOOM_BITS`: signature bits set per indexed column.
pub const DEFAULT_BLOOM_BITS: u32 = 2;
/// `INDEX_MAX_KEYS`.
pub const INDEX_MAX_KEYS: usize = 32;
/// `BLOOM_META` page flag.
pub const BLOOM_META: u16 = 1 << 0;
/// `BLOOM_DELETED` page flag.
pub const BLOOM_DELETED: u16 = 2 << 0;
/// `BLOOM_PAGE_ID`, the last two bytes of every bloom page.
pub const BLOOM_PAGE_ID: u16 = 0xFF83;
/// `BLOOM_METAPAGE_BLKNO`.
pub const BLOOM_METAPAGE_BLKNO: u32 = 0;
/// `BLOOM_HEAD_BLKNO`: the first data page.
pub const BLOOM_HEAD_BLKNO: u32 = 1;
/// `BLOOM_MAGICK_NUMBER`.
pub const BLOOM_MAGICK_NUMBER: u32 = 0xDBAC_0DED;
/// `sizeof(BloomPageOpaqueData)`: maxoff, flags, unused, bloom_page_id.
pub const SIZE_OF_BLOOM_PAGE_OPAQUE: usize = 8;
/// `BLOOMTUPLEHDRSZ` = `offsetof(BloomTuple, sign)`.
pub const BLOOMTUPLEHDRSZ: usize = 6;
/// `sizeof(BloomOptions)`: vl_len_, bloomLength, bitSize[INDEX_MAX_KEYS].
pub const SIZE_OF_BLOOM_OPTIONS: usize = 4 + 4 + 4 * INDEX_MAX_KEYS;
/// `BloomMetaBlockN`: entries of `FreeBlockNumberArray`.
pub const BLOOM_META_BLOCK_N: usize = (BLCKSZ
    - SIZE_OF_PAGE_HEADER
    - maxalign(SIZE_OF_BLOOM_PAGE_OPAQUE)
    - maxalign(2 * 2 + 4 + SIZE_OF_BLOOM_OPTIONS))
    / MAXIMUM_ALIGNOF
    * MAXIMUM_ALIGNOF
    / 4;
/// `sizeof(BloomMetaPageData)`.
pub const SIZE_OF_BLOOM_META_PAGE_DATA: usize = 4 + 2 + 2 + SIZE_OF_BLOOM_OPTIONS + 4 * BLOOM_META_BLOCK_N;
/// Offset of the special space (`pd_special`) on every bloom page.
pub const BLOOM_SPECIAL_OFFSET: usize = BLCKSZ - maxalign(SIZE_OF_BLOOM_PAGE_OPAQUE);

/// Columns of the documentation's `tbloom` table.
pub const TBLOOM_COLUMNS: usize = 6;
/// Rows of the seed's largest index.
pub const TBLOOM_ROWS: u64 = 10_000_000;
/// Largest column value: `(random() * 1000000)::int` rounds into `0..=1000000`.
pub const TBLOOM_VALUE_MAX: u32 = 1_000_000;
/// Heap tuples per page of `tbloom` (6 × int4: 48-byte tuples + 4-byte line pointers).
pub const TBLOOM_HEAP_TUPLES_PER_PAGE: u32 = ((BLCKSZ - SIZE_OF_PAGE_HEADER) / (maxalign(23) + 24 + 4)) as u32;
/// The query's columns, 0-based attnos: `i2 = .. AND i5 = ..`.
pub const QUERY_ATTNOS: [usize; 2] = [1, 4];

const _: () = {
    assert!(BLOOM_META_BLOCK_N == 2004);
    assert!(SIZE_OF_BLOOM_META_PAGE_DATA == 8160);
    assert!(SIZE_OF_PAGE_HEADER + SIZE_OF_BLOOM_META_PAGE_DATA <= BLOOM_SPECIAL_OFFSET);
    assert!(TBLOOM_HEAP_TUPLES_PER_PAGE == 157);
    assert!(BLOOM_SPECIAL_OFFSET == 8184);
};

/// Version of this file's layout and generator; bump it when either changes.
pub const LAYOUT_VERSION: u32 = 1;

/// `BloomState`: what a scan needs from the metapage's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BloomState {
    /// `opts.bloomLength`, in words.
    pub bloom_length: usize,
    /// `opts.bitSize` of the indexed columns.
    pub bit_size: Vec<u32>,
    /// `sizeOfBloomTuple` = `BLOOMTUPLEHDRSZ` + 2 × `bloomLength`.
    pub size_of_bloom_tuple: usize,
}

impl BloomState {
    /// The defaults (`makeDefaultBloomOptions`) for `ncolumns` columns.
    pub fn default_for(ncolumns: usize) -> Self {
        let bloom_length = DEFAULT_BLOOM_LENGTH.div_ceil(SIGNWORDBITS);
        BloomState {
            bloom_length,
            bit_size: vec![DEFAULT_BLOOM_BITS; ncolumns],
            size_of_bloom_tuple: BLOOMTUPLEHDRSZ + 2 * bloom_length,
        }
    }

    /// Tuples a page holds: how many `BloomPageAddItem` accepts before
    /// `BloomPageGetFreeSpace` < `sizeOfBloomTuple`.
    pub fn tuples_per_page(&self) -> usize {
        (BLCKSZ - maxalign(SIZE_OF_PAGE_HEADER) - maxalign(SIZE_OF_BLOOM_PAGE_OPAQUE)) / self.size_of_bloom_tuple
    }
}

/// blutils.c's private Park–Miller generator (`myRand`/`mySrand`), with C's int32 semantics.
#[derive(Clone, Copy, Debug)]
pub struct MyRand {
    next: i32,
}

impl MyRand {
    /// `mySrand(seed)`: `next = seed` (converted to int32), then `next % 0x7ffffffe + 1`.
    pub fn new(seed: u32) -> Self {
        let n = seed as i32;
        MyRand { next: n.wrapping_rem(0x7fff_fffe).wrapping_add(1) }
    }

    /// `myRand()`.
    pub fn next(&mut self) -> i32 {
        let hi = self.next / 127_773;
        let lo = self.next % 127_773;
        let mut x = 16_807i32.wrapping_mul(lo).wrapping_sub(2_836i32.wrapping_mul(hi));
        if x < 0 {
            x = x.wrapping_add(0x7fff_ffff);
        }
        self.next = x;
        x.wrapping_sub(1)
    }
}

/// `hash_bytes_uint32` (src/common/hashfn.c): lookup3's `final` mix of one word; what
/// `hashint4` returns for an int4.
pub fn hash_bytes_uint32(k: u32) -> u32 {
    let init = 0x9e37_79b9u32.wrapping_add(4).wrapping_add(3_923_095);
    let (mut a, mut b, mut c) = (init.wrapping_add(k), init, init);
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(14));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(11));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(25));
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(16));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(4));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(14));
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(24));
    c
}

/// `signValue(state, sign, value, attno)` for an int4 column.
pub fn sign_value(state: &BloomState, sign: &mut [u16], value: i32, attno: usize) {
    let mut r = MyRand::new(attno as u32);
    let hash = hash_bytes_uint32(value as u32);
    let seed = hash ^ r.next() as u32;
    let mut r = MyRand::new(seed);
    let nbits = (state.bloom_length * SIGNWORDBITS) as i32;
    for _ in 0..state.bit_size[attno] {
        let nbit = (r.next() % nbits) as usize;
        sign[nbit / SIGNWORDBITS] |= 1 << (nbit % SIGNWORDBITS);
    }
}

/// splitmix64: the counter-based generator behind [`column_value`].
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What an index file is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomSpec {
    /// Heap rows (one index tuple each).
    pub rows: u64,
    /// Seed of the column values.
    pub seed: u64,
}

impl BloomSpec {
    /// The seed's index: 10M rows.
    pub const SEED: BloomSpec = BloomSpec { rows: TBLOOM_ROWS, seed: 0x5eed_0002 };

    /// `rows` rows with the default value seed.
    pub fn rows(rows: u64) -> Self {
        BloomSpec { rows, seed: Self::SEED.seed }
    }

    /// The index's options (the defaults over six columns).
    pub fn state(&self) -> BloomState {
        BloomState::default_for(TBLOOM_COLUMNS)
    }

    /// Data pages (the last one may be partly filled).
    pub fn data_pages(&self) -> u64 {
        self.rows.div_ceil(self.state().tuples_per_page() as u64)
    }

    /// Pages in the file, metapage included.
    pub fn npages(&self) -> u64 {
        1 + self.data_pages()
    }

    /// File length in bytes.
    pub fn file_len(&self) -> u64 {
        self.npages() * BLCKSZ as u64
    }

    /// The row the query's values come from.
    pub fn query_row(&self) -> u64 {
        self.rows / 2
    }

    /// The query signature: `i2 = a AND i5 = b`, as `blgetbitmap` builds `so->sign`.
    pub fn query_sign(&self) -> Vec<u16> {
        let state = self.state();
        let mut sign = vec![0u16; state.bloom_length];
        for attno in QUERY_ATTNOS {
            sign_value(&state, &mut sign, column_value(self.seed, self.query_row(), attno), attno);
        }
        sign
    }

    /// File name under the data directory.
    pub fn file_name(&self) -> String {
        format!("bloom-tbloom-{}rows-v{LAYOUT_VERSION}.idx", self.rows)
    }
}

/// Value of column `attno` (0-based) of heap row `row`: uniform in `0..=TBLOOM_VALUE_MAX`.
pub fn column_value(seed: u64, row: u64, attno: usize) -> i32 {
    let z = splitmix64(seed ^ splitmix64(row.wrapping_mul(TBLOOM_COLUMNS as u64) + attno as u64));
    (z % (TBLOOM_VALUE_MAX as u64 + 1)) as i32
}

/// Heap TID of row `row`: rows fill heap pages in insertion order.
pub fn heap_tid(row: u64) -> ItemPointer {
    let per = TBLOOM_HEAP_TUPLES_PER_PAGE as u64;
    ItemPointer::new((row / per) as u32, (row % per) as u16 + 1)
}

/// `BloomFormTuple` for row `row`: its signature.
pub fn row_sign(state: &BloomState, seed: u64, row: u64, sign: &mut [u16]) {
    sign.fill(0);
    for attno in 0..state.bit_size.len() {
        sign_value(state, sign, column_value(seed, row, attno), attno);
    }
}

/// The rows whose signatures contain `query` (what a bitmap scan must return, in index
/// order), computed without the file: the tests' oracle.
pub fn expected_matches(spec: &BloomSpec) -> Vec<ItemPointer> {
    let state = spec.state();
    let query = spec.query_sign();
    let mut sign = vec![0u16; state.bloom_length];
    let mut out = Vec::new();
    for row in 0..spec.rows {
        row_sign(&state, spec.seed, row, &mut sign);
        if sign.iter().zip(&query).all(|(s, q)| s & q == *q) {
            out.push(heap_tid(row));
        }
    }
    out
}

/// Identifies how a file was built; kept in the metapage's unused `notFullPage` tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// [`LAYOUT_VERSION`].
    pub version: u32,
    /// Indexed columns.
    pub ncolumns: u32,
    /// Rows.
    pub rows: u64,
    /// Value seed.
    pub seed: u64,
    /// Largest column value.
    pub value_max: u32,
    /// Heap tuples a page.
    pub heap_tuples_per_page: u32,
    /// Pages in the file.
    pub npages: u64,
}

const STAMP_MAGIC: &[u8; 8] = b"HOTLOOPS";
/// Where the body checksum sits on the metapage: bytes 48..56 of the stamp.
pub const CHECKSUM_OFFSET: usize = STAMP_OFFSET + 48;

/// The body checksum: four lanes of xor-then-multiply (by an odd constant) over 8-byte words,
/// folded with the length. Each step is a bijection of its lane, so any changed word changes
/// the sum; it is for corruption, not for adversaries. Never 0 (0: no checksum written).
#[derive(Clone, Debug)]
pub struct BodyHash {
    lanes: [u64; 4],
    len: u64,
}

const HASH_K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Default for BodyHash {
    fn default() -> Self {
        BodyHash { lanes: [1, 2, 3, 4], len: 0 }
    }
}

impl BodyHash {
    /// Add one page (any multiple of 32 bytes).
    pub fn update(&mut self, page: &[u8]) {
        debug_assert_eq!(page.len() % 32, 0);
        for c in page.chunks_exact(32) {
            for (i, lane) in self.lanes.iter_mut().enumerate() {
                let w = u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
                *lane = (*lane ^ w).wrapping_mul(HASH_K);
            }
        }
        self.len += page.len() as u64;
    }

    /// The sum.
    pub fn finish(&self) -> u64 {
        let mut h = self.len;
        for l in self.lanes {
            h = (h ^ l).wrapping_mul(HASH_K);
            h ^= h >> 29;
        }
        h.max(1)
    }
}

/// Stamp size in bytes.
pub const STAMP_LEN: usize = 64;
/// Where the stamp starts on the metapage: the last 64 bytes of `notFullPage`.
pub const STAMP_OFFSET: usize = SIZE_OF_PAGE_HEADER + SIZE_OF_BLOOM_META_PAGE_DATA - STAMP_LEN;

impl Stamp {
    /// The stamp `spec` produces.
    pub fn of(spec: &BloomSpec) -> Self {
        Stamp {
            version: LAYOUT_VERSION,
            ncolumns: TBLOOM_COLUMNS as u32,
            rows: spec.rows,
            seed: spec.seed,
            value_max: TBLOOM_VALUE_MAX,
            heap_tuples_per_page: TBLOOM_HEAP_TUPLES_PER_PAGE,
            npages: spec.npages(),
        }
    }

    fn write(&self, b: &mut [u8]) {
        b[..8].copy_from_slice(STAMP_MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&self.ncolumns.to_le_bytes());
        b[16..24].copy_from_slice(&self.rows.to_le_bytes());
        b[24..32].copy_from_slice(&self.seed.to_le_bytes());
        b[32..36].copy_from_slice(&self.value_max.to_le_bytes());
        b[36..40].copy_from_slice(&self.heap_tuples_per_page.to_le_bytes());
        b[40..48].copy_from_slice(&self.npages.to_le_bytes());
        b[48..STAMP_LEN].fill(0);
    }

    fn read(b: &[u8]) -> Option<Self> {
        if &b[..8] != STAMP_MAGIC {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        Some(Stamp {
            version: u32_at(8),
            ncolumns: u32_at(12),
            rows: u64_at(16),
            seed: u64_at(24),
            value_max: u32_at(32),
            heap_tuples_per_page: u32_at(36),
            npages: u64_at(40),
        })
    }
}

fn put_u16(p: &mut [u8], at: usize, v: u16) {
    p[at..at + 2].copy_from_slice(&v.to_ne_bytes());
}

fn get_u16(p: &[u8], at: usize) -> u16 {
    u16::from_ne_bytes([p[at], p[at + 1]])
}

/// `PageHeaderData.pd_lower` / `pd_upper` / `pd_special` offsets.
const PD_LOWER: usize = 12;
const PD_UPPER: usize = 14;
const PD_SPECIAL: usize = 16;
const PD_PAGESIZE_VERSION: usize = 18;

/// `BloomInitPage(page, flags)`: `PageInit` with an 8-byte special space, then the opaque.
pub fn bloom_init_page(p: &mut [u8], flags: u16) {
    assert_eq!(p.len(), BLCKSZ);
    p.fill(0);
    put_u16(p, PD_LOWER, SIZE_OF_PAGE_HEADER as u16);
    put_u16(p, PD_UPPER, BLOOM_SPECIAL_OFFSET as u16);
    put_u16(p, PD_SPECIAL, BLOOM_SPECIAL_OFFSET as u16);
    put_u16(p, PD_PAGESIZE_VERSION, BLCKSZ as u16 | 4);
    put_u16(p, BLOOM_SPECIAL_OFFSET + 2, flags);
    put_u16(p, BLOOM_SPECIAL_OFFSET + 6, BLOOM_PAGE_ID);
}

/// `BloomPageGetMaxOffset`.
pub fn page_max_offset(p: &[u8]) -> u16 {
    get_u16(p, BLOOM_SPECIAL_OFFSET)
}

/// `BloomPageAddItem`: append a tuple (heap pointer + signature); false when it does not fit.
pub fn bloom_page_add_item(state: &BloomState, p: &mut [u8], tid: ItemPointer, sign: &[u16]) -> bool {
    let maxoff = page_max_offset(p) as usize;
    let free = BLCKSZ - maxalign(SIZE_OF_PAGE_HEADER) - maxoff * state.size_of_bloom_tuple - maxalign(SIZE_OF_BLOOM_PAGE_OPAQUE);
    if free < state.size_of_bloom_tuple {
        return false;
    }
    let at = SIZE_OF_PAGE_HEADER + state.size_of_bloom_tuple * maxoff;
    put_u16(p, at, tid.bi_hi);
    put_u16(p, at + 2, tid.bi_lo);
    put_u16(p, at + 4, tid.ip_posid);
    for (i, w) in sign.iter().enumerate() {
        put_u16(p, at + BLOOMTUPLEHDRSZ + 2 * i, *w);
    }
    put_u16(p, BLOOM_SPECIAL_OFFSET, (maxoff + 1) as u16);
    put_u16(p, PD_LOWER, (at + state.size_of_bloom_tuple) as u16);
    true
}

/// `BloomFillMetapage` with the defaults, plus our [`Stamp`].
pub fn fill_metapage(p: &mut [u8], spec: &BloomSpec) {
    let state = spec.state();
    bloom_init_page(p, BLOOM_META);
    let m = SIZE_OF_PAGE_HEADER;
    p[m..m + 4].copy_from_slice(&BLOOM_MAGICK_NUMBER.to_ne_bytes());
    // nStart = nEnd = 0: no not-full pages recorded.
    let opts = m + 8;
    p[opts..opts + 4].copy_from_slice(&(SIZE_OF_BLOOM_OPTIONS as i32 * 4).to_ne_bytes()); // SET_VARSIZE: 4-byte varlena header, len << 2
    p[opts + 4..opts + 8].copy_from_slice(&(state.bloom_length as i32).to_ne_bytes());
    for i in 0..INDEX_MAX_KEYS {
        let at = opts + 8 + 4 * i;
        p[at..at + 4].copy_from_slice(&(DEFAULT_BLOOM_BITS as i32).to_ne_bytes());
    }
    put_u16(p, PD_LOWER, (SIZE_OF_PAGE_HEADER + SIZE_OF_BLOOM_META_PAGE_DATA) as u16);
    Stamp::of(spec).write(&mut p[STAMP_OFFSET..STAMP_OFFSET + STAMP_LEN]);
}

/// Read and check a metapage: bloom's own checks (`initBloomState`: meta flag and magic),
/// the default options, and our stamp. Err says what differs.
pub fn check_metapage(p: &[u8], spec: &BloomSpec) -> Result<BloomState, String> {
    if get_u16(p, BLOOM_SPECIAL_OFFSET + 2) & BLOOM_META == 0 || get_u16(p, BLOOM_SPECIAL_OFFSET + 6) != BLOOM_PAGE_ID {
        return Err("block 0 is not a bloom metapage".into());
    }
    let m = SIZE_OF_PAGE_HEADER;
    if u32::from_ne_bytes(p[m..m + 4].try_into().unwrap()) != BLOOM_MAGICK_NUMBER {
        return Err("bad bloom magic number".into());
    }
    let want = spec.state();
    let len = i32::from_ne_bytes(p[m + 12..m + 16].try_into().unwrap());
    if len != want.bloom_length as i32 {
        return Err(format!("bloomLength {len}, expected {}", want.bloom_length));
    }
    let stamp = Stamp::read(&p[STAMP_OFFSET..STAMP_OFFSET + STAMP_LEN]).ok_or("no hotloops stamp")?;
    let expect = Stamp::of(spec);
    if stamp != expect {
        return Err(format!("built from {stamp:?}, expected {expect:?}"));
    }
    Ok(want)
}

/// Why an index file could not be used.
#[derive(Debug)]
pub enum OpenError {
    /// No file.
    Missing(PathBuf),
    /// Its length is not a whole number of pages.
    NotWholePages {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// Its metapage or length does not match the spec.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// Its body does not match the checksum on its metapage.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The checksum written with the file.
        stored: u64,
        /// The body's checksum now.
        found: u64,
    },
    /// Reading it failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        err: io::Error,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Missing(p) => write!(f, "{}: no such file", p.display()),
            OpenError::NotWholePages { path, len } => write!(
                f,
                "{}: length {len} bytes is not a whole number of {BLCKSZ}-byte pages ({} pages and {} bytes); \
                 not a file hotloops wrote: remove it to have it re-created",
                path.display(),
                len / BLCKSZ as u64,
                len % BLCKSZ as u64
            ),
            OpenError::Mismatch { path, why } => write!(f, "{}: header does not match: {why}", path.display()),
            OpenError::Corrupt { path, stored, found } => write!(
                f,
                "{}: corrupt: the body's checksum is {found:#018x}, the file was written with {stored:#018x} \
                 (it is re-created; remove it to rebuild it by hand)",
                path.display()
            ),
            OpenError::Io { path, err } => write!(f, "{}: {err}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {}

/// How [`BloomIndex::open_or_create`] got its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An existing file matched.
    Reused,
    /// There was none.
    Created,
    /// One existed but did not match (why).
    Recreated(String),
}

/// A bloom index file on disk, checked against its spec.
#[derive(Clone, Debug)]
pub struct BloomIndex {
    /// The file.
    pub path: PathBuf,
    /// What it was built from.
    pub spec: BloomSpec,
    /// Options from its metapage.
    pub state: BloomState,
    /// Pages, metapage included (`RelationGetNumberOfBlocks`).
    pub npages: u32,
}

/// The data directory: `$HOTLOOPS_DATA_DIR`, else `target/hotloops-data` under the crate.
pub fn default_data_dir() -> PathBuf {
    match std::env::var_os("HOTLOOPS_DATA_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => crate::host::crate_root().join("target").join("hotloops-data"),
    }
}

impl BloomIndex {
    /// Open `path` and check it against `spec`: length a whole number of pages, metapage and
    /// stamp as `spec` builds them, length as the stamp says.
    pub fn open(path: &Path, spec: &BloomSpec) -> Result<Self, OpenError> {
        let io_err = |err| OpenError::Io { path: path.to_path_buf(), err };
        let mut f = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(OpenError::Missing(path.to_path_buf())),
            Err(e) => return Err(io_err(e)),
        };
        let len = f.metadata().map_err(io_err)?.len();
        if len % BLCKSZ as u64 != 0 {
            return Err(OpenError::NotWholePages { path: path.to_path_buf(), len });
        }
        if len == 0 {
            return Err(OpenError::Mismatch { path: path.to_path_buf(), why: "empty file".into() });
        }
        let mut meta = vec![0u8; BLCKSZ];
        f.read_exact(&mut meta).map_err(io_err)?;
        let state = check_metapage(&meta, spec).map_err(|why| OpenError::Mismatch { path: path.to_path_buf(), why })?;
        if len != spec.file_len() {
            return Err(OpenError::Mismatch { path: path.to_path_buf(), why: format!("{len} bytes, expected {}", spec.file_len()) });
        }
        let npages = u32::try_from(spec.npages())
            .map_err(|_| OpenError::Mismatch { path: path.to_path_buf(), why: "more blocks than a relation can have".into() })?;
        let stored = u64::from_le_bytes(meta[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 8].try_into().unwrap());
        if stored == 0 {
            return Err(OpenError::Mismatch { path: path.to_path_buf(), why: "no body checksum (written by an older hotloops)".into() });
        }
        let mut hash = BodyHash::default();
        let mut r = io::BufReader::with_capacity(1 << 20, f);
        let mut page = vec![0u8; BLCKSZ];
        for _ in 1..npages {
            r.read_exact(&mut page).map_err(io_err)?;
            hash.update(&page);
        }
        let found = hash.finish();
        if found != stored {
            return Err(OpenError::Corrupt { path: path.to_path_buf(), stored, found });
        }
        Ok(BloomIndex { path: path.to_path_buf(), spec: *spec, state, npages })
    }

    /// Write the index for `spec` at `path`: under a temporary name, fsync'd, then renamed.
    pub fn create(path: &Path, spec: &BloomSpec) -> io::Result<Self> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        // Removed by the signal handler if we are interrupted while writing it.
        let _guard = crate::host::cleanup::temp(&tmp);
        let result = (|| -> io::Result<()> {
            let f = OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
            let mut w = BufWriter::with_capacity(1 << 20, f);
            let mut page = vec![0u8; BLCKSZ];
            fill_metapage(&mut page, spec);
            w.write_all(&page)?;
            let mut hash = BodyHash::default();
            let state = spec.state();
            let mut sign = vec![0u16; state.bloom_length];
            bloom_init_page(&mut page, 0);
            for row in 0..spec.rows {
                row_sign(&state, spec.seed, row, &mut sign);
                if !bloom_page_add_item(&state, &mut page, heap_tid(row), &sign) {
                    hash.update(&page);
                    w.write_all(&page)?;
                    bloom_init_page(&mut page, 0);
                    let added = bloom_page_add_item(&state, &mut page, heap_tid(row), &sign);
                    debug_assert!(added);
                }
            }
            if page_max_offset(&page) > 0 {
                hash.update(&page);
                w.write_all(&page)?;
            }
            let f = w.into_inner().map_err(|e| e.into_error())?;
            // The checksum last: a file cut short never carries one that matches.
            std::os::unix::fs::FileExt::write_all_at(&f, &hash.finish().to_le_bytes(), CHECKSUM_OFFSET as u64)?;
            f.sync_all()?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = fs::remove_file(&tmp);
            return Err(io::Error::new(e.kind(), format!("writing {}: {e}", tmp.display())));
        }
        fs::rename(&tmp, path).map_err(|e| io::Error::new(e.kind(), format!("renaming {} to {}: {e}", tmp.display(), path.display())))?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        BloomIndex::open(path, spec).map_err(|e| io::Error::other(format!("re-reading the file just written: {e}")))
    }

    /// The index for `spec` in `dir`: reused if it matches, (re-)created if it is missing or
    /// its header differs; an error (naming the file) if its length is not whole pages or it
    /// cannot be read.
    pub fn open_or_create(dir: &Path, spec: &BloomSpec) -> anyhow::Result<(Self, Origin)> {
        let path = dir.join(spec.file_name());
        match BloomIndex::open(&path, spec) {
            Ok(ix) => Ok((ix, Origin::Reused)),
            Err(OpenError::Missing(_)) => Ok((BloomIndex::create(&path, spec)?, Origin::Created)),
            Err(OpenError::Mismatch { why, .. }) => Ok((BloomIndex::create(&path, spec)?, Origin::Recreated(why))),
            Err(e @ OpenError::Corrupt { .. }) => {
                let why = e.to_string();
                crate::say!("hotloops: {why}");
                Ok((BloomIndex::create(&path, spec)?, Origin::Recreated(why)))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// File length in bytes.
    pub fn len(&self) -> u64 {
        self.npages as u64 * BLCKSZ as u64
    }

    /// Never empty: a checked file has its metapage.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Pages a scan reads: all but the metapage.
    pub fn data_pages(&self) -> u32 {
        self.npages - BLOOM_HEAD_BLKNO
    }
}

// ---------------------------------------------------------------------------------------------
// In memory: the same 16-byte tuples, 510 a page, for scans that read no file (tid-batch's
// bloom cases): blgetbitmap's page loop and signature test over pages held in memory.

/// Signature words of contrib/bloom's default 80-bit signature (`BloomSignatureWord` = u16).
pub const BLOOM_SIGN_WORDS: usize = DEFAULT_BLOOM_LENGTH / SIGNWORDBITS;

/// `BloomTuple`: the heap TID and the signature, 16 bytes, packed without line pointers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BloomTuple {
    /// `heapPtr`.
    pub heap_ptr: ItemPointer,
    /// `sign[]`.
    pub sign: [u16; BLOOM_SIGN_WORDS],
}
const _: () = assert!(size_of::<BloomTuple>() == BLOOMTUPLEHDRSZ + 2 * BLOOM_SIGN_WORDS && size_of::<BloomTuple>() == 16);

/// Bloom tuples a page: (8192 - 24 - 8 (BloomPageOpaqueData)) / 16 = 510.
pub const BLOOM_TUPLES_PER_PAGE: usize = (BLCKSZ - SIZE_OF_PAGE_HEADER - SIZE_OF_BLOOM_PAGE_OPAQUE) / size_of::<BloomTuple>();
const _: () = assert!(BLOOM_TUPLES_PER_PAGE == 510);

/// A bloom index and the scan's signature (`so->sign`).
pub struct BloomScan {
    pub tuples: Vec<BloomTuple>,
    pub sign: [u16; BLOOM_SIGN_WORDS],
}

impl BloomScan {
    /// A scan of `tuples` (packed 510 a page) for `sign`.
    pub fn new(tuples: Vec<BloomTuple>, sign: [u16; BLOOM_SIGN_WORDS]) -> Box<BloomScan> {
        Box::new(BloomScan { tuples, sign })
    }

    /// Index data pages.
    pub fn pages(&self) -> usize {
        self.tuples.len().div_ceil(BLOOM_TUPLES_PER_PAGE)
    }

    /// The TIDs the signature test matches, in scan order.
    pub fn matches(&self) -> Vec<ItemPointer> {
        self.tuples.iter().filter(|t| (0..BLOOM_SIGN_WORDS).all(|i| t.sign[i] & self.sign[i] == self.sign[i])).map(|t| t.heap_ptr).collect()
    }
}

/// `read_stream_next_buffer` + share lock: page `blkno`'s tuples. Out of line, once a page.
///
/// # Safety
/// `bs` must point to a live [`BloomScan`] and `blkno` be below its page count.
#[inline(never)]
pub(crate) unsafe fn bl_read_page(bs: *const BloomScan, blkno: usize, n: &mut usize) -> *const BloomTuple {
    unsafe {
        let t = &(*bs).tuples;
        let a = blkno * BLOOM_TUPLES_PER_PAGE;
        *n = (t.len() - a).min(BLOOM_TUPLES_PER_PAGE);
        t.as_ptr().add(a)
    }
}

/// blgetbitmap's test: every bit of the scan signature is in the tuple's.
///
/// # Safety
/// Both pointers must be valid.
#[inline(always)]
pub(crate) unsafe fn bl_matches(t: *const BloomTuple, sign: *const [u16; BLOOM_SIGN_WORDS]) -> bool {
    unsafe {
        for i in 0..BLOOM_SIGN_WORDS {
            let s = (*sign)[i];
            if (*t).sign[i] & s != s {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_numbers() {
        let s = BloomState::default_for(6);
        assert_eq!((s.bloom_length, s.size_of_bloom_tuple, s.tuples_per_page()), (5, 16, 510));
        let seed = BloomSpec::SEED;
        assert_eq!(seed.data_pages(), 19_608);
        assert_eq!(seed.npages(), 19_609);
        assert_eq!(seed.file_len(), 160_636_928);
    }

    #[test]
    fn hash_and_rand_match_c() {
        // hash_bytes_uint32(0) and (1), as PostgreSQL's hashint4 gives them
        // (SELECT hashint4(0), hashint4(1) -> -272711505, -1905060026).
        assert_eq!(hash_bytes_uint32(0) as i32, -272_711_505);
        assert_eq!(hash_bytes_uint32(1) as i32, -1_905_060_026);
        // Park–Miller from seed 1: 16807, 282475249 (minus one each: myRand returns x - 1).
        let mut r = MyRand::new(0);
        assert_eq!(r.next(), 16_807 - 1);
        assert_eq!(r.next(), 282_475_249 - 1);
    }

    #[test]
    fn page_fills_to_510_and_sets_pd_lower() {
        let s = BloomState::default_for(6);
        let mut p = vec![0u8; BLCKSZ];
        bloom_init_page(&mut p, 0);
        let mut n = 0;
        while bloom_page_add_item(&s, &mut p, ItemPointer::new(n, 1), &[1, 2, 3, 4, 5]) {
            n += 1;
        }
        assert_eq!(n, 510);
        // The in-memory pages tid-batch scans hold as many tuples as the on-disk ones.
        assert_eq!(n as usize, BLOOM_TUPLES_PER_PAGE);
        assert_eq!(s.tuples_per_page(), BLOOM_TUPLES_PER_PAGE);
        assert_eq!(page_max_offset(&p), 510);
        assert_eq!(get_u16(&p, PD_LOWER) as usize, BLOOM_SPECIAL_OFFSET);
    }

    #[test]
    fn metapage_round_trip_and_mismatch() {
        let spec = BloomSpec::rows(1234);
        let mut p = vec![0u8; BLCKSZ];
        fill_metapage(&mut p, &spec);
        assert!(check_metapage(&p, &spec).is_ok());
        let err = check_metapage(&p, &BloomSpec::rows(1235)).unwrap_err();
        assert!(err.contains("expected"), "{err}");
    }
}
