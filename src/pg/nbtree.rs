//! nbtree scan state (src/include/access/nbtree.h, nbtreadpage.c) and a sorted-build B-tree of
//! 8 KiB pages (nbtsort.c): leaves, internal levels and a root. Sizes and offsets are checked at
//! compile time against reference §1.3, §3.1 and §9.

use super::itemptr::{BlockNumber, INVALID_BLOCK_NUMBER, ItemPointer, OffsetNumber};
use super::page::{BLCKSZ, Page, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
use std::mem::offset_of;

/// `sizeof(BTPageOpaqueData)`: prev, next, level (u32), flags, cycleid (u16).
pub const SIZE_OF_BT_PAGE_OPAQUE: usize = 16;

/// `MaxTIDsPerBTreePage` = (8192 - 24 - 16) / 6 = 1358.
pub const MAX_TIDS_PER_BTREE_PAGE: usize =
    (BLCKSZ - SIZE_OF_PAGE_HEADER - SIZE_OF_BT_PAGE_OPAQUE) / size_of::<ItemPointer>();
const _: () = assert!(MAX_TIDS_PER_BTREE_PAGE == 1358);

/// `ScanDirection` (sdir.h): a 4-byte C enum, -1 / 0 / +1.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ScanDirection {
    /// `BackwardScanDirection`.
    Backward = -1,
    /// `NoMovementScanDirection`.
    #[default]
    NoMovement = 0,
    /// `ForwardScanDirection`.
    Forward = 1,
}

impl ScanDirection {
    /// `ScanDirectionIsForward`.
    #[inline(always)]
    pub fn is_forward(self) -> bool {
        self == ScanDirection::Forward
    }
    /// `ScanDirectionIsBackward`.
    #[inline(always)]
    pub fn is_backward(self) -> bool {
        self == ScanDirection::Backward
    }
}

/// `BTScanPosItem`: 10 bytes, alignment 2.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BTScanPosItem {
    /// TID of the referenced heap item.
    pub heap_tid: ItemPointer,
    /// Index item's offset within the leaf page.
    pub index_offset: OffsetNumber,
    /// Offset of the tuple copy in `currTuples` (index-only scans).
    pub tuple_offset: u16,
}

/// `BTScanPosData`: 13,632 bytes; lastItem at 40, itemIndex at 44, items at 48.
#[repr(C)]
#[derive(Clone)]
pub struct BTScanPos {
    /// `buf`: pinned buffer or InvalidBuffer (0).
    pub buf: i32,
    /// `currPage`.
    pub curr_page: BlockNumber,
    /// `prevPage`.
    pub prev_page: BlockNumber,
    /// `nextPage`.
    pub next_page: BlockNumber,
    /// `lsn`.
    pub lsn: u64,
    /// `dir`: the direction the page was read in (written once per page by `_bt_readpage`).
    pub dir: ScanDirection,
    /// `nextTupleOffset`.
    pub next_tuple_offset: i32,
    /// `moreLeft`.
    pub more_left: bool,
    /// `moreRight`.
    pub more_right: bool,
    /// `firstItem`.
    pub first_item: i32,
    /// `lastItem`.
    pub last_item: i32,
    /// `itemIndex`: the scan cursor.
    pub item_index: i32,
    /// `items[MaxTIDsPerBTreePage]`.
    pub items: [BTScanPosItem; MAX_TIDS_PER_BTREE_PAGE],
}

const _: () = {
    assert!(size_of::<BTScanPosItem>() == 10 && align_of::<BTScanPosItem>() == 2);
    assert!(size_of::<BTScanPos>() == 13_632 && align_of::<BTScanPos>() == 8);
    assert!(offset_of!(BTScanPos, dir) == 24);
    assert!(offset_of!(BTScanPos, first_item) == 36);
    assert!(offset_of!(BTScanPos, last_item) == 40);
    assert!(offset_of!(BTScanPos, item_index) == 44);
    assert!(offset_of!(BTScanPos, items) == 48);
};

impl BTScanPos {
    /// An invalidated position (`BTScanPosInvalidate`): no items.
    pub fn invalid() -> Self {
        Self {
            buf: 0,
            curr_page: INVALID_BLOCK_NUMBER,
            prev_page: INVALID_BLOCK_NUMBER,
            next_page: INVALID_BLOCK_NUMBER,
            lsn: 0,
            dir: ScanDirection::NoMovement,
            next_tuple_offset: 0,
            more_left: false,
            more_right: false,
            first_item: 0,
            last_item: -1,
            item_index: 0,
            items: [BTScanPosItem::default(); MAX_TIDS_PER_BTREE_PAGE],
        }
    }

    /// The saved items `firstItem..=lastItem`.
    pub fn saved(&self) -> &[BTScanPosItem] {
        if self.last_item < self.first_item {
            &[]
        } else {
            &self.items[self.first_item as usize..=self.last_item as usize]
        }
    }
}

/// `ScanKeyData`, cut to what `_bt_check_compare` reads for an integer key.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanKey {
    /// `sk_flags`: `SK_BT_REQFWD` / `SK_BT_REQBKWD`.
    pub sk_flags: i32,
    /// `sk_attno` (1-based).
    pub sk_attno: i16,
    /// `sk_strategy`: BTLessEqualStrategyNumber (2) or BTGreaterEqualStrategyNumber (4).
    pub sk_strategy: u16,
    /// `sk_argument` (the comparison constant).
    pub sk_argument: i64,
}

/// `SK_BT_REQFWD`: required to continue a forward scan.
pub const SK_BT_REQFWD: i32 = 0x0001_0000;
/// `SK_BT_REQBKWD`: required to continue a backward scan.
pub const SK_BT_REQBKWD: i32 = 0x0002_0000;
/// `BTLessEqualStrategyNumber`.
pub const BT_LESS_EQUAL: u16 = 2;
/// `BTGreaterEqualStrategyNumber`.
pub const BT_GREATER_EQUAL: u16 = 4;

impl ScanKey {
    /// `col >= arg`, required for backward scans (it ends them).
    pub fn ge(arg: i64) -> Self {
        Self { sk_flags: SK_BT_REQBKWD, sk_attno: 1, sk_strategy: BT_GREATER_EQUAL, sk_argument: arg }
    }
    /// `col <= arg`, required for forward scans (it ends them).
    pub fn le(arg: i64) -> Self {
        Self { sk_flags: SK_BT_REQFWD, sk_attno: 1, sk_strategy: BT_LESS_EQUAL, sk_argument: arg }
    }
    /// Does `value` satisfy the key?
    #[inline(always)]
    pub fn satisfied_by(&self, value: i64) -> bool {
        if self.sk_strategy == BT_LESS_EQUAL { value <= self.sk_argument } else { value >= self.sk_argument }
    }
}

/// `BTScanOpaqueData`: 27,352 bytes, `currPos` at 88, `markPos` at 13,720.
#[repr(C)]
pub struct BTScanOpaque {
    /// `qual_ok`.
    pub qual_ok: bool,
    /// `numberOfKeys`.
    pub number_of_keys: i32,
    /// `keyData`.
    pub key_data: *const ScanKey,
    /// `numArrayKeys`.
    pub num_array_keys: i32,
    /// `skipScan`.
    pub skip_scan: bool,
    /// `needPrimScan`.
    pub need_prim_scan: bool,
    /// `scanBehind`.
    pub scan_behind: bool,
    /// `oppositeDirCheck`.
    pub opposite_dir_check: bool,
    /// `arrayKeys`.
    pub array_keys: *mut u8,
    /// `orderProcs`.
    pub order_procs: *mut u8,
    /// `arrayContext`.
    pub array_context: *mut u8,
    /// `killedItems`.
    pub killed_items: *mut i32,
    /// `numKilled`.
    pub num_killed: i32,
    /// `dropPin`.
    pub drop_pin: bool,
    /// `currTuples`.
    pub curr_tuples: *mut u8,
    /// `markTuples`.
    pub mark_tuples: *mut u8,
    /// `markItemIndex`.
    pub mark_item_index: i32,
    /// `currPos`.
    pub curr_pos: BTScanPos,
    /// `markPos`.
    pub mark_pos: BTScanPos,
}

const _: () = {
    assert!(size_of::<BTScanOpaque>() == 27_352);
    assert!(offset_of!(BTScanOpaque, number_of_keys) == 4);
    assert!(offset_of!(BTScanOpaque, curr_pos) == 88);
    assert!(offset_of!(BTScanOpaque, mark_pos) == 13_720);
};

/// Byte offset of `so->currPos.itemIndex` inside `BTScanOpaqueData` (88 + 44): what the asm
/// structural tests look for.
pub const CURR_POS_ITEM_INDEX_OFFSET: usize = offset_of!(BTScanOpaque, curr_pos) + offset_of!(BTScanPos, item_index);
/// Byte offset of `so->currPos.lastItem` (88 + 40).
pub const CURR_POS_LAST_ITEM_OFFSET: usize = offset_of!(BTScanOpaque, curr_pos) + offset_of!(BTScanPos, last_item);
/// Byte offset of `so->currPos.dir` (88 + 24 = 0x70, as in Peter Geoghegan's disassembly).
pub const CURR_POS_DIR_OFFSET: usize = offset_of!(BTScanOpaque, curr_pos) + offset_of!(BTScanPos, dir);
const _: () = assert!(CURR_POS_ITEM_INDEX_OFFSET == 132 && CURR_POS_DIR_OFFSET == 0x70);

impl BTScanOpaque {
    /// A zeroed scan opaque on the heap (`palloc_object` in `btbeginscan`), with `keys`.
    pub fn new_boxed(keys: &[ScanKey]) -> (Box<BTScanOpaque>, Box<[ScanKey]>) {
        let keys: Box<[ScanKey]> = keys.into();
        let so = Box::new(BTScanOpaque {
            qual_ok: true,
            number_of_keys: keys.len() as i32,
            key_data: keys.as_ptr(),
            num_array_keys: 0,
            skip_scan: false,
            need_prim_scan: false,
            scan_behind: false,
            opposite_dir_check: false,
            array_keys: std::ptr::null_mut(),
            order_procs: std::ptr::null_mut(),
            array_context: std::ptr::null_mut(),
            killed_items: std::ptr::null_mut(),
            num_killed: 0,
            drop_pin: true,
            curr_tuples: std::ptr::null_mut(),
            mark_tuples: std::ptr::null_mut(),
            mark_item_index: -1,
            curr_pos: BTScanPos::invalid(),
            mark_pos: BTScanPos::invalid(),
        });
        (so, keys)
    }
}

/// `IndexScanDescData`, the fields up to `opaque` (at 0x38, as in the seed's disassembly).
#[repr(C)]
pub struct IndexScanDesc {
    /// `heapRelation` (NULL for bitmap scans).
    pub heap_relation: *const u8,
    /// `indexRelation`: here, the B-tree's pages.
    pub index_relation: *const BTree,
    /// `xs_snapshot`.
    pub xs_snapshot: *const u8,
    /// `numberOfKeys`.
    pub number_of_keys: i32,
    /// `numberOfOrderBys`.
    pub number_of_order_bys: i32,
    /// `keyData`.
    pub key_data: *const ScanKey,
    /// `orderByData`.
    pub order_by_data: *const u8,
    /// `xs_want_itup`.
    pub xs_want_itup: bool,
    /// `xs_temp_snap`.
    pub xs_temp_snap: bool,
    /// `kill_prior_tuple`.
    pub kill_prior_tuple: bool,
    /// `ignore_killed_tuples`.
    pub ignore_killed_tuples: bool,
    /// `opaque`: the access method's private state, a `BTScanOpaque`.
    pub opaque: *mut BTScanOpaque,
}

const _: () = assert!(offset_of!(IndexScanDesc, opaque) == 0x38);

impl IndexScanDesc {
    /// A scan of `rel` with `nkeys` keys at `keys` and no opaque state yet (`btbeginscan`
    /// sets it), as a bitmap scan has it: no heap relation.
    pub fn new(rel: &BTree, keys: &[ScanKey]) -> Box<IndexScanDesc> {
        Box::new(IndexScanDesc {
            heap_relation: std::ptr::null(),
            index_relation: rel,
            xs_snapshot: std::ptr::null(),
            number_of_keys: keys.len() as i32,
            number_of_order_bys: 0,
            key_data: keys.as_ptr(),
            order_by_data: std::ptr::null(),
            xs_want_itup: false,
            xs_temp_snap: false,
            kill_prior_tuple: false,
            ignore_killed_tuples: true,
            opaque: std::ptr::null_mut(),
        })
    }
}

/// `BTReadPageState`, with `dir` as its first field (83a26ba59b); about 48 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BTReadPageState {
    /// `dir`: the scan direction, passed by value to `_bt_checkkeys`.
    pub dir: ScanDirection,
    /// `minoff`.
    pub minoff: OffsetNumber,
    /// `maxoff`.
    pub maxoff: OffsetNumber,
    /// `finaltup`.
    pub finaltup: *const u8,
    /// `page`.
    pub page: *const Page,
    /// `firstpage`.
    pub firstpage: bool,
    /// `forcenonrequired`.
    pub forcenonrequired: bool,
    /// `startikey`: the first scan key that `_bt_checkkeys` must evaluate.
    pub startikey: i32,
    /// `offnum`.
    pub offnum: OffsetNumber,
    /// `skip`.
    pub skip: OffsetNumber,
    /// `continuescan`.
    pub continuescan: bool,
    /// `rechecks`.
    pub rechecks: i16,
    /// `targetdistance`.
    pub targetdistance: i16,
    /// `nskipadvances`.
    pub nskipadvances: i16,
}

const _: () = {
    assert!(offset_of!(BTReadPageState, dir) == 0);
    assert!(size_of::<BTReadPageState>() == 48);
};

// ---------------------------------------------------------------------------------------------
// Index tuples and leaf pages.

/// `sizeof(IndexTupleData)`: t_tid (6) + t_info (2).
pub const SIZE_OF_INDEX_TUPLE_HEADER: usize = 8;

/// The key column's type, which sets the index tuple width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    /// `int4` (pgbench_accounts.aid): 8 + 4 -> MAXALIGN 16 bytes.
    Int4,
    /// `int8` (seed 000's col0 bigint): 8 + 8 = 16 bytes.
    Int8,
}

impl KeyType {
    /// Key width in bytes.
    pub const fn width(self) -> usize {
        match self {
            KeyType::Int4 => 4,
            KeyType::Int8 => 8,
        }
    }
    /// MAXALIGN'd index tuple size.
    pub const fn tuple_size(self) -> usize {
        maxalign(SIZE_OF_INDEX_TUPLE_HEADER + self.width())
    }
}

/// Leaf fill factor of a sorted build (`BTREE_DEFAULT_FILLFACTOR`).
pub const BTREE_DEFAULT_FILLFACTOR: usize = 90;

/// Data items per leaf page of a sorted build, as `_bt_buildadd` fills it: it keeps adding
/// while `PageGetFreeSpace` (free bytes minus one line pointer) stays at least the tuple size
/// plus the fill-factor reserve `BLCKSZ * (100 - 90) / 100 = 819`. With 16-byte tuples:
/// free = 8192 - 24 - 16 - 4 = 8148, and the page accepts an item while
/// `8148 - 20 * n >= 16 + 819`, i.e. for n = 0..=365: **366 items**. The high key takes a
/// truncated copy's slot, and 10,000,000 / 366 rounds up to 27,323 leaves, the count measured
/// on PostgreSQL 15 (reference §8b).
pub const fn leaf_items_per_page(key: KeyType) -> usize {
    let reserve = BLCKSZ * (100 - BTREE_DEFAULT_FILLFACTOR) / 100;
    let free = BLCKSZ - SIZE_OF_PAGE_HEADER - SIZE_OF_BT_PAGE_OPAQUE - SIZE_OF_ITEM_ID;
    let per = key.tuple_size() + SIZE_OF_ITEM_ID;
    (free - key.tuple_size() - reserve) / per + 1
}
const _: () = assert!(leaf_items_per_page(KeyType::Int8) == 366);
const _: () = assert!(offset_of!(BTree, leaves) == 0 && offset_of!(BTree, bounds) == 24 && offset_of!(BTree, key) == 48);

/// Fill factor of internal pages in a sorted build (`BTREE_NONLEAF_FILLFACTOR`).
pub const BTREE_NONLEAF_FILLFACTOR: usize = 70;

/// `P_HIKEY`.
pub const P_HIKEY: OffsetNumber = 1;
/// `P_FIRSTKEY`.
pub const P_FIRSTKEY: OffsetNumber = 2;
/// `P_NONE`: no sibling / no root.
pub const P_NONE: BlockNumber = 0;

/// `btpo_flags` bits (nbtree.h).
pub const BTP_LEAF: u16 = 1 << 0;
/// The root page.
pub const BTP_ROOT: u16 = 1 << 1;
/// Deleted page (`P_IGNORE`).
pub const BTP_DELETED: u16 = 1 << 2;
/// Half-dead page (`P_IGNORE`).
pub const BTP_HALF_DEAD: u16 = 1 << 4;

/// `t_info` bit: the tuple's `t_tid` offset holds the attribute count (pivot tuples).
pub const INDEX_ALT_TID_MASK: u16 = 0x2000;
/// `t_info` bit: the tuple has a null bitmap.
pub const INDEX_NULL_MASK: u16 = 0x8000;
/// `t_info` size bits.
pub const INDEX_SIZE_MASK: u16 = 0x1fff;
/// In a pivot's `t_tid` offset: the attribute count.
pub const BT_OFFSET_MASK: u16 = 0x0fff;
/// In a pivot's `t_tid` offset: a heap TID follows the keys.
pub const BT_PIVOT_HEAP_TID_ATTR: u16 = 0x1000;
/// In `t_tid` offset with `INDEX_ALT_TID_MASK`: a posting list, not a pivot.
pub const BT_IS_POSTING: u16 = 0x2000;

/// Downlinks on each internal page of one level of a sorted build over `n` children, page by
/// page, as `_bt_buildadd` fills them at level > 0. A new page reserves its high key's line
/// pointer (`_bt_blnewpage`), so `PageGetFreeSpace` starts at 8192 - 24 - 16 - 4 - 4 = 8144;
/// the level's first item is the 8-byte "minus infinity" pivot, every other one 16 bytes (+4
/// for its line pointer). The page is finished once free space would drop below the soft limit
/// `BLCKSZ * (100 - 70) / 100 = 2457` with at least two items on it: its last item moves to the
/// new page (truncated to minus infinity there, its key kept as the old page's high key), so
/// a non-rightmost page keeps 284 downlinks. Over 27,323 leaves: 97 pages, then a root.
pub fn upper_page_fill(key: KeyType, n: usize) -> Vec<usize> {
    let full = BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100;
    let free0 = BLCKSZ - SIZE_OF_PAGE_HEADER - SIZE_OF_BT_PAGE_OPAQUE - 2 * SIZE_OF_ITEM_ID;
    let minus_inf = SIZE_OF_INDEX_TUPLE_HEADER;
    let (mut pages, mut on, mut used) = (Vec::new(), 0usize, 0usize);
    for c in 0..n {
        let itupsz = if c == 0 { minus_inf } else { key.tuple_size() };
        let pgspc = free0 - used;
        if pgspc < itupsz || (pgspc < full && on >= 2) {
            pages.push(on - 1);
            on = 1;
            used = minus_inf + SIZE_OF_ITEM_ID;
        }
        on += 1;
        used += if on == 1 { minus_inf } else { key.tuple_size() } + SIZE_OF_ITEM_ID;
    }
    if on > 0 {
        pages.push(on);
    }
    pages
}

/// Pages on each level above `nleaves` leaves, level 1 first, the root (one page) last; empty
/// when a single leaf is the root (or there are no leaves).
pub fn upper_level_sizes(key: KeyType, nleaves: usize) -> Vec<usize> {
    let mut levels = Vec::new();
    let mut n = nleaves;
    while n > 1 {
        n = upper_page_fill(key, n).len();
        levels.push(n);
    }
    levels
}

/// A sorted-build B-tree: leaves linked left to right, internal levels above them, a root.
/// Block 0 stands for the metapage (never materialised: PostgreSQL caches it in
/// `rd_amcache`); leaf `i` is block `i + 1`. Internal pages follow the leaves in block order
/// (PostgreSQL interleaves them with the leaves as the build allocates them; only the numbers
/// differ). `first_leaf_ge` answers what the descent returns without reading internal pages.
/// `repr(C)` in the field order that keeps `leaves`, `bounds` and `key` at the offsets Rust
/// gave them before the internal levels existed (0, 24, 48): other studies' asm reads them.
#[repr(C)]
pub struct BTree {
    /// Leaf pages in key order.
    pub leaves: Vec<Box<Page>>,
    /// Per leaf: (first key, last key), for the descent.
    bounds: Vec<(i64, i64)>,
    /// Key type.
    pub key: KeyType,
    /// Internal pages, level 1 left to right first, the root last; page `j` is block
    /// `leaves.len() + 1 + j`.
    pub upper: Vec<Box<Page>>,
    /// The metapage's `btm_root` (P_NONE without leaves) and `btm_level`.
    pub root: BlockNumber,
    /// Level of the root (0: a single leaf).
    pub root_level: u32,
    /// How [`bt_steppage`] reaches the next leaf: unset, straight from `leaves`; set, through
    /// a scan's shared buffers and PostgreSQL 18's leaf read, as `ReadBuffer` reaches shared
    /// buffers through the relation and the backend's globals. Last, so that the fields other
    /// studies' asm reads keep their offsets.
    pub page_step: std::cell::Cell<Option<PageStep>>,
}

/// A page step through something other than the in-memory leaves: `step(scan)` does what
/// `_bt_steppage` does for the scan `scan` whose `so` the caller passes.
#[derive(Clone, Copy, Debug)]
pub struct PageStep {
    /// The step: true with the next matching page in `currPos`, false at the end.
    pub step: unsafe fn(*mut ()) -> bool,
    /// The scan it steps.
    pub scan: *mut (),
    /// That scan's `BTScanOpaque` (checked against the caller's).
    pub so: *const BTScanOpaque,
}

/// Special space of a leaf page (`BTPageOpaqueData`).
#[derive(Clone, Copy, Debug)]
pub struct BTPageOpaque {
    /// `btpo_prev`.
    pub prev: BlockNumber,
    /// `btpo_next` (0 = P_NONE on the rightmost page).
    pub next: BlockNumber,
}

/// Write `BTPageOpaqueData` (prev, next, level, flags).
fn set_opaque(page: &mut Page, prev: BlockNumber, next: BlockNumber, level: u32, flags: u16) {
    let sp = page.special_mut();
    sp[0..4].copy_from_slice(&prev.to_ne_bytes());
    sp[4..8].copy_from_slice(&next.to_ne_bytes());
    sp[8..12].copy_from_slice(&level.to_ne_bytes());
    sp[12..14].copy_from_slice(&flags.to_ne_bytes());
}

impl BTree {
    /// Sorted build (`nbtsort.c`) from `(key, heap tid)` pairs in key order, `per_leaf` data
    /// items per leaf (`leaf_items_per_page` for a faithful build; tests use other counts,
    /// including 0 for empty pages and 1358 for full `BTScanPos` pages).
    pub fn build(key: KeyType, entries: &[(i64, ItemPointer)], per_leaf: &[usize]) -> BTree {
        debug_assert!(entries.windows(2).all(|w| w[0].0 <= w[1].0), "sorted build needs sorted keys");
        let nleaves = per_leaf.len();
        let mut leaves = Vec::with_capacity(nleaves);
        let mut bounds = Vec::with_capacity(nleaves);
        // Each leaf's low key (its left sibling's high key; minus infinity for the first): the
        // pivot the build hands to the parent level.
        let mut lowkeys: Vec<Option<i64>> = Vec::with_capacity(nleaves);
        let mut at = 0usize;
        for (i, &n) in per_leaf.iter().enumerate() {
            let chunk = &entries[at..at + n];
            at += n;
            let rightmost = i + 1 == nleaves;
            let mut page = Page::new(SIZE_OF_BT_PAGE_OPAQUE);
            lowkeys.push(if i == 0 { None } else { Some(entries.get(at - n).map(|e| e.0).unwrap_or(i64::MAX)) });
            if !rightmost {
                // High key: the next leaf's first key (or, for an empty tail, our last), a pivot
                // truncated to the key (keys are unique, so no heap TID is kept).
                let hikey = entries.get(at).map(|e| e.0).unwrap_or(i64::MAX);
                page.add_item(&pivot_tuple(key, Some(hikey), P_NONE)).expect("high key fits");
            }
            for &(k, tid) in chunk {
                page.add_item(&index_tuple(key, k, tid)).expect("leaf over-filled");
            }
            let prev = if i == 0 { 0 } else { i as u32 };
            let next = if rightmost { 0 } else { i as u32 + 2 };
            let flags = if nleaves == 1 { BTP_LEAF | BTP_ROOT } else { BTP_LEAF };
            set_opaque(&mut page, prev, next, 0, flags);
            let b = if n == 0 { (i64::MIN, i64::MIN) } else { (chunk[0].0, chunk[n - 1].0) };
            bounds.push(b);
            leaves.push(page);
        }
        assert_eq!(at, entries.len(), "per_leaf must cover every entry");
        let root = if nleaves == 0 { P_NONE } else { Self::leaf_block(0) };
        let mut t = BTree { leaves, key, bounds, upper: Vec::new(), root, root_level: 0, page_step: Default::default() };
        t.build_upper(lowkeys);
        t
    }

    /// The internal levels (`_bt_buildadd` at level > 0, `_bt_uppershutdown`): each page holds
    /// the pivots of its children (a downlink in `t_tid`, the child's low key), the first one
    /// truncated to minus infinity; every page but the rightmost has a high key, the next
    /// page's low key. Stops at the level with one page: the root.
    fn build_upper(&mut self, lowkeys: Vec<Option<i64>>) {
        let mut children: Vec<(Option<i64>, BlockNumber)> =
            lowkeys.into_iter().enumerate().map(|(i, k)| (k, Self::leaf_block(i))).collect();
        let mut level = 0u32;
        while children.len() > 1 {
            level += 1;
            let sizes = upper_page_fill(self.key, children.len());
            let first = (self.leaves.len() + 1 + self.upper.len()) as BlockNumber;
            let npages = sizes.len();
            let mut parents = Vec::with_capacity(npages);
            let mut at = 0usize;
            for (p, &n) in sizes.iter().enumerate() {
                let blk = first + p as BlockNumber;
                let rightmost = p + 1 == npages;
                let mut page = Page::new(SIZE_OF_BT_PAGE_OPAQUE);
                if !rightmost {
                    let (hk, down) = children[at + n];
                    page.add_item(&pivot_tuple(self.key, hk, down)).expect("high key fits");
                }
                for (j, &(lk, down)) in children[at..at + n].iter().enumerate() {
                    let lk = if j == 0 { None } else { lk };
                    page.add_item(&pivot_tuple(self.key, lk, down)).expect("internal page over-filled");
                }
                let prev = if p == 0 { P_NONE } else { blk - 1 };
                let next = if rightmost { P_NONE } else { blk + 1 };
                let flags = if npages == 1 { BTP_ROOT } else { 0 };
                set_opaque(&mut page, prev, next, level, flags);
                parents.push((children[at].0, blk));
                self.upper.push(page);
                at += n;
            }
            children = parents;
        }
        if let Some(&(_, root)) = children.first() {
            self.root = root;
            self.root_level = level;
        }
    }

    /// Any page of the index: a leaf or an internal page (block 1..).
    pub fn block_page(&self, block: BlockNumber) -> Option<&Page> {
        let b = (block as usize).checked_sub(1)?;
        let n = self.leaves.len();
        if b < n { Some(&self.leaves[b]) } else { self.upper.get(b - n).map(|p| &**p) }
    }

    /// Blocks of the relation, the metapage included (`RelationGetNumberOfBlocks`).
    pub fn nblocks(&self) -> usize {
        1 + self.leaves.len() + self.upper.len()
    }

    /// `btpo_level` of a page.
    pub fn level(page: &Page) -> u32 {
        u32::from_ne_bytes(page.special()[8..12].try_into().unwrap())
    }

    /// `btpo_flags` of a page.
    pub fn flags(page: &Page) -> u16 {
        u16::from_ne_bytes(page.special()[12..14].try_into().unwrap())
    }

    /// The blocks a descent to `key` reads, root to leaf, from the pivots' keys alone (plain
    /// comparisons, no buffer manager): the pages a keyed scan touches, and a test oracle.
    pub fn descent_path(&self, key: i64) -> Vec<BlockNumber> {
        let mut path = Vec::new();
        let mut blk = self.root;
        while let Some(page) = (blk != P_NONE).then(|| self.block_page(blk)).flatten() {
            path.push(blk);
            if Self::level(page) == 0 {
                break;
            }
            // The last pivot whose key is <= key (minus infinity always is): `_bt_binsrch` with
            // nextkey = false, where an equal pivot (heap TID truncated) sends the search right.
            let first = Self::first_data_key(page);
            let mut down = P_NONE;
            for off in first..=page.max_offset() {
                // SAFETY: off is a valid offset of this page.
                let t = unsafe { Page::item_ptr(page, off) };
                if off == first || unsafe { tuple_key(self.key, t) } <= key {
                    down = unsafe { tuple_tid(t) }.block();
                } else {
                    break;
                }
            }
            blk = down;
        }
        path
    }

    /// Block number of leaf `i`.
    pub fn leaf_block(i: usize) -> BlockNumber {
        i as BlockNumber + 1
    }

    /// The leaf page at `block`.
    pub fn page(&self, block: BlockNumber) -> &Page {
        &self.leaves[block as usize - 1]
    }

    /// `BTPageOpaqueData` of a leaf.
    pub fn opaque(page: &Page) -> BTPageOpaque {
        let sp = page.special();
        BTPageOpaque {
            prev: u32::from_ne_bytes(sp[0..4].try_into().unwrap()),
            next: u32::from_ne_bytes(sp[4..8].try_into().unwrap()),
        }
    }

    /// `P_FIRSTDATAKEY`: 2 on pages with a high key, 1 on the rightmost.
    pub fn first_data_key(page: &Page) -> OffsetNumber {
        if Self::opaque(page).next == 0 { P_HIKEY } else { P_HIKEY + 1 }
    }

    /// Where `_bt_first` lands for `key >= lo`: (leaf index, offset).
    pub fn first_leaf_ge(&self, lo: i64) -> Option<(usize, OffsetNumber)> {
        let i = self.bounds.partition_point(|b| b.1 < lo);
        let i = (i..self.leaves.len()).find(|&i| self.bounds[i].1 >= lo && self.bounds[i] != (i64::MIN, i64::MIN))?;
        let page = &self.leaves[i];
        let first = Self::first_data_key(page);
        let off = (first..=page.max_offset())
            .find(|&o| unsafe { tuple_key(self.key, Page::item_ptr(&**page, o)) } >= lo)?;
        Some((i, off))
    }

    /// Data items with keys in `lo..=hi`, from the per-leaf bounds (keys are unique here).
    pub fn count_between(&self, lo: i64, hi: i64) -> u64 {
        let mut n = 0u64;
        for (i, page) in self.leaves.iter().enumerate() {
            let (a, b) = self.bounds[i];
            if a == i64::MIN && b == i64::MIN || b < lo || a > hi {
                continue;
            }
            let first = Self::first_data_key(page);
            for off in first..=page.max_offset() {
                let k = unsafe { tuple_key(self.key, Page::item_ptr(&**page, off)) };
                n += (lo..=hi).contains(&k) as u64;
            }
        }
        n
    }

    /// Total data items.
    pub fn len(&self) -> usize {
        self.leaves.iter().map(|p| (p.max_offset() + 1 - Self::first_data_key(p)) as usize).sum()
    }

    /// No data items at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Bytes of an `IndexTupleData` with one integer key.
pub fn index_tuple(key: KeyType, value: i64, tid: ItemPointer) -> Vec<u8> {
    let size = key.tuple_size();
    let mut t = vec![0u8; SIZE_OF_INDEX_TUPLE_HEADER + key.width()];
    t[0..2].copy_from_slice(&tid.bi_hi.to_ne_bytes());
    t[2..4].copy_from_slice(&tid.bi_lo.to_ne_bytes());
    t[4..6].copy_from_slice(&tid.ip_posid.to_ne_bytes());
    // t_info: the size in the low 13 bits.
    t[6..8].copy_from_slice(&(size as u16).to_ne_bytes());
    match key {
        KeyType::Int4 => t[8..12].copy_from_slice(&(value as i32).to_ne_bytes()),
        KeyType::Int8 => t[8..16].copy_from_slice(&value.to_ne_bytes()),
    }
    t
}

/// Bytes of a pivot tuple (`BTreeTupleSetNAtts`): `t_tid` holds the downlink block and the
/// attribute count (1, or 0 for minus infinity, which is header only); `INDEX_ALT_TID_MASK` set.
pub fn pivot_tuple(key: KeyType, value: Option<i64>, downlink: BlockNumber) -> Vec<u8> {
    let mut t = match value {
        Some(v) => index_tuple(key, v, ItemPointer::new(downlink, 1)),
        None => {
            let mut t = index_tuple(key, 0, ItemPointer::new(downlink, 0));
            t.truncate(SIZE_OF_INDEX_TUPLE_HEADER);
            t[6..8].copy_from_slice(&(SIZE_OF_INDEX_TUPLE_HEADER as u16).to_ne_bytes());
            t
        }
    };
    let info = u16::from_ne_bytes([t[6], t[7]]) | INDEX_ALT_TID_MASK;
    t[6..8].copy_from_slice(&info.to_ne_bytes());
    t
}

/// `t_tid` of an index tuple.
///
/// # Safety
/// `tuple` must point to at least 6 readable bytes of an index tuple (alignment 2).
#[inline(always)]
pub unsafe fn tuple_tid(tuple: *const u8) -> ItemPointer {
    unsafe { (tuple as *const ItemPointer).read() }
}

/// The key column of an index tuple (at `IndexInfoFindDataOffset` = 8).
///
/// # Safety
/// `tuple` must point to a whole index tuple of type `key`, 8-byte aligned (page items are).
#[inline(always)]
pub unsafe fn tuple_key(key: KeyType, tuple: *const u8) -> i64 {
    unsafe {
        match key {
            KeyType::Int4 => (tuple.add(8) as *const i32).read() as i64,
            KeyType::Int8 => (tuple.add(8) as *const i64).read(),
        }
    }
}

/// What `_bt_readpage` does for a bitmap scan whose keys every tuple satisfies (seed 000's
/// `col0 < 10000000`): save every data item's heap TID into `currPos.items[0..]`, forward,
/// and set `firstItem = 0, lastItem = n - 1, itemIndex = 0`. Returns false for an empty page.
pub fn bt_readpage_all(so: &mut BTScanOpaque, rel: &BTree, block: BlockNumber) -> bool {
    let page = rel.page(block);
    let pos = &mut so.curr_pos;
    pos.curr_page = block;
    let op = BTree::opaque(page);
    pos.next_page = op.next;
    pos.prev_page = op.prev;
    pos.dir = ScanDirection::Forward;
    pos.more_right = op.next != 0;
    let first = BTree::first_data_key(page);
    let mut n = 0usize;
    for off in first..=page.max_offset() {
        let t = unsafe { Page::item_ptr(page, off) };
        pos.items[n] = BTScanPosItem { heap_tid: unsafe { tuple_tid(t) }, index_offset: off, tuple_offset: 0 };
        n += 1;
    }
    pos.first_item = 0;
    pos.last_item = n as i32 - 1;
    pos.item_index = 0;
    n > 0
}

/// `_bt_next` → `_bt_steppage` → `_bt_readnextpage` for the forward bitmap scan: read the
/// right sibling, skipping empty pages; false at the end of the index. Out of line, as in
/// PostgreSQL (a different function in another file), so the copy loops around it see an
/// opaque call once per page.
#[inline(never)]
pub fn bt_steppage(so: &mut BTScanOpaque, rel: &BTree) -> bool {
    if let Some(p) = rel.page_step.get() {
        assert!(std::ptr::eq(p.so, so), "the page step belongs to another scan of this index");
        // SAFETY: whoever set `page_step` keeps `p.scan` live while it is set.
        return unsafe { (p.step)(p.scan) };
    }
    loop {
        let next = so.curr_pos.next_page;
        if next == 0 || next == INVALID_BLOCK_NUMBER {
            // Leave the cursor past the end, as BTScanPosInvalidate would not: the final
            // cursor state is part of what the variants must agree on.
            return false;
        }
        if bt_readpage_all(so, rel, next) {
            return true;
        }
    }
}

/// `_bt_first` for an all-matching forward bitmap scan: read the leftmost non-empty leaf.
pub fn bt_first_all(so: &mut BTScanOpaque, rel: &BTree) -> bool {
    if rel.leaves.is_empty() {
        return false;
    }
    if bt_readpage_all(so, rel, BTree::leaf_block(0)) {
        return true;
    }
    bt_steppage(so, rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_fill_matches_postgres_15() {
        assert_eq!(leaf_items_per_page(KeyType::Int8), 366);
        assert_eq!(leaf_items_per_page(KeyType::Int4), 366);
        assert_eq!(10_000_000usize.div_ceil(366), 27_323);
        // A faithful leaf really holds that many 16-byte tuples plus the high key.
        let n = leaf_items_per_page(KeyType::Int8);
        let entries: Vec<_> = (0..2 * n as i64).map(|k| (k, ItemPointer::new(k as u32, 1))).collect();
        let t = BTree::build(KeyType::Int8, &entries, &[n, n]);
        assert_eq!(t.page(1).max_offset() as usize, n + 1);
        assert!(t.page(1).free_space() >= BLCKSZ * 10 / 100 - 16 - 4);
    }

    #[test]
    fn internal_levels_match_postgres_15() {
        // §8b: 27,323 leaves under 98 non-leaf pages (97 at level 1, the root) and the metapage:
        // 27,422 pages in all.
        let levels = upper_level_sizes(KeyType::Int8, 27_323);
        assert_eq!(levels, vec![97, 1]);
        assert_eq!(1 + 27_323 + levels.iter().sum::<usize>(), 27_422);
        let fill = upper_page_fill(KeyType::Int8, 27_323);
        assert!(fill[..fill.len() - 1].iter().all(|&n| n == fill[0]));
        assert_eq!(fill.iter().sum::<usize>(), 27_323);
        assert_eq!(upper_level_sizes(KeyType::Int8, 1), Vec::<usize>::new());
        assert_eq!(upper_level_sizes(KeyType::Int8, 2), vec![1]);
    }

    /// Walk every internal page: sizes per level as computed, sibling links, levels, the
    /// minus-infinity first item, high keys equal to the right sibling's low key, downlinks
    /// to the next level down in order, and pages that a real `_bt_buildadd` would accept.
    fn check_upper(t: &BTree) {
        let sizes = upper_level_sizes(t.key, t.leaves.len());
        assert_eq!(t.upper.len(), sizes.iter().sum::<usize>());
        assert_eq!(t.root_level as usize, sizes.len());
        let mut below: Vec<BlockNumber> = (0..t.leaves.len()).map(BTree::leaf_block).collect();
        let mut first = t.leaves.len() as BlockNumber + 1;
        for (l, &n) in sizes.iter().enumerate() {
            let blocks: Vec<BlockNumber> = (first..first + n as BlockNumber).collect();
            let mut downs = vec![];
            for (p, &b) in blocks.iter().enumerate() {
                let page = t.block_page(b).unwrap();
                let op = BTree::opaque(page);
                assert_eq!(BTree::level(page), l as u32 + 1);
                assert_eq!(op.prev, if p == 0 { P_NONE } else { b - 1 });
                assert_eq!(op.next, if p + 1 == n { P_NONE } else { b + 1 });
                assert_eq!(BTree::flags(page) & BTP_ROOT != 0, n == 1);
                let fd = BTree::first_data_key(page);
                // SAFETY: offsets within the page.
                let size = |o| page.item_span(o).1;
                assert_eq!(size(fd), SIZE_OF_INDEX_TUPLE_HEADER, "minus infinity");
                for o in fd..=page.max_offset() {
                    let tup = unsafe { Page::item_ptr(page, o) };
                    downs.push(unsafe { tuple_tid(tup) }.block());
                    if o > fd {
                        assert_eq!(size(o), SIZE_OF_INDEX_TUPLE_HEADER + t.key.width());
                    }
                }
                if op.next != P_NONE {
                    let right = t.block_page(op.next).unwrap();
                    let hk = unsafe { tuple_key(t.key, Page::item_ptr(page, P_HIKEY)) };
                    // The right page's first downlink's child starts at the high key.
                    let child = unsafe { tuple_tid(Page::item_ptr(right, BTree::first_data_key(right))) }.block();
                    let mut c = t.block_page(child).unwrap();
                    while BTree::level(c) > 0 {
                        let d = unsafe { tuple_tid(Page::item_ptr(c, BTree::first_data_key(c))) }.block();
                        c = t.block_page(d).unwrap();
                    }
                    let lk = (BTree::first_data_key(c)..=c.max_offset())
                        .map(|o| unsafe { tuple_key(t.key, Page::item_ptr(c, o)) })
                        .next()
                        .unwrap_or(hk);
                    assert_eq!(hk, lk);
                    // Left at least the fill factor's reserve when full: 2457 - 20 < free.
                    assert!(page.free_space() + 20 >= BLCKSZ * 30 / 100, "{}", page.free_space());
                }
            }
            assert_eq!(downs, below, "level {}", l + 1);
            below = blocks;
            first += n as BlockNumber;
        }
        assert_eq!(below.len(), 1.min(t.leaves.len()));
        assert_eq!(t.root, below.first().copied().unwrap_or(P_NONE));
    }

    #[test]
    fn sorted_build_has_internal_levels() {
        for (n, per) in [(0usize, 366usize), (10, 366), (366, 366), (367, 366), (30_000, 366), (1_200, 2), (600, 1)] {
            let entries: Vec<_> = (0..n as i64).map(|k| (k * 3, ItemPointer::new(k as u32, 1))).collect();
            let t = BTree::build(KeyType::Int8, &entries, &crate::pg::workload::leaf_sizes(n, per));
            check_upper(&t);
            assert_eq!(t.nblocks(), 1 + t.leaves.len() + t.upper.len());
            for k in (0..n as i64).step_by(7) {
                let path = t.descent_path(k * 3);
                assert_eq!(path.len(), t.root_level as usize + 1);
                let leaf = *path.last().unwrap() as usize - 1;
                assert_eq!(t.first_leaf_ge(k * 3).unwrap().0, leaf);
            }
        }
        // Empty leaves in the middle and at the end (as the property tests build).
        let entries: Vec<_> = (0..10i64).map(|k| (k, ItemPointer::new(0, k as u16 + 1))).collect();
        check_upper(&BTree::build(KeyType::Int8, &entries, &[4, 0, 3, 3, 0]));
    }

    #[test]
    fn descent_finds_first_key_ge() {
        let entries: Vec<_> = (0..400i64).map(|k| (k, ItemPointer::new(0, (k + 1) as u16))).collect();
        let t = BTree::build(KeyType::Int4, &entries, &[200, 200]);
        assert_eq!(t.len(), 400);
        // Leaf 0 has a high key at offset 1, so key 10 sits at offset 12.
        assert_eq!(t.first_leaf_ge(10), Some((0, 12)));
        assert_eq!(t.first_leaf_ge(250), Some((1, 51)));
        assert_eq!(t.first_leaf_ge(400), None);
    }

    #[test]
    fn readpage_then_steppage_walks_every_item() {
        let entries: Vec<_> = (0..10i64).map(|k| (k, ItemPointer::new(k as u32 / 3, (k % 3 + 1) as u16))).collect();
        let t = BTree::build(KeyType::Int8, &entries, &[4, 0, 3, 3]);
        let (mut so, _k) = BTScanOpaque::new_boxed(&[]);
        assert!(bt_first_all(&mut so, &t));
        let mut seen = vec![];
        loop {
            seen.extend(so.curr_pos.saved().iter().map(|i| i.heap_tid));
            if !bt_steppage(&mut so, &t) {
                break;
            }
        }
        assert_eq!(seen, entries.iter().map(|e| e.1).collect::<Vec<_>>());
    }
}
