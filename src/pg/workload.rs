//! Deterministic workloads built from the seeds' own benchmarks, scalable down for tests.
//!
//! **Seed 000's table** (`CREATE TABLE table3 (col0 bigint, col1 bigint, filler char(80))`,
//! `INSERT ... SELECT g, g FROM generate_series(0, 9999999)`): the insert leaves `filler` NULL,
//! so a heap tuple is a 24-byte header (23 bytes + a 1-byte null bitmap, MAXALIGN'd) plus two
//! bigints = 40 bytes, and with its 4-byte line pointer a page of 8192 - 24 bytes holds
//! `8168 / 44 = 185` tuples: 54,055 heap pages, the last holding 10 (reference §8b). The col0
//! index is a sorted build of 16-byte tuples, 366 per leaf: 27,323 leaves, TIDs in heap order.
//!
//! **pgbench_accounts** (seed 001): `aid int4, bid int4, abalance int4, filler char(84)`; the
//! filler is a 1-byte-header varlena of 85 bytes, so a tuple is 24 + 12 + 85 = 121 -> MAXALIGN
//! 128 bytes, plus 4 for the line pointer: `8168 / 132 = 61` tuples per page (1,640 pages at
//! scale 1). The primary key is built after the load (sorted build, 366 int4 tuples per leaf).

use super::itemptr::ItemPointer;
use super::nbtree::{BTree, KeyType, leaf_items_per_page};
use super::bloom::{BLOOM_SIGN_WORDS, BloomTuple};
use super::page::{BLCKSZ, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
use super::pagedam::ScanItem;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `SizeofHeapTupleHeader`.
pub const SIZEOF_HEAP_TUPLE_HEADER: usize = 23;

/// Heap tuples per page for a tuple of `data` bytes with `natts` attributes, `has_nulls` as
/// the row has: `(BLCKSZ - 24) / (MAXALIGN(t_hoff + data) + 4)`.
pub const fn heap_tuples_per_page(data: usize, natts: usize, has_nulls: bool) -> usize {
    let bitmap = if has_nulls { natts.div_ceil(8) } else { 0 };
    let t_hoff = maxalign(SIZEOF_HEAP_TUPLE_HEADER + bitmap);
    (BLCKSZ - SIZE_OF_PAGE_HEADER) / (maxalign(t_hoff + data) + SIZE_OF_ITEM_ID)
}

/// Seed 000's table3: two bigints, filler NULL.
pub const TABLE3_TUPLES_PER_PAGE: usize = heap_tuples_per_page(16, 3, true);
/// pgbench_accounts: three int4 and an 85-byte short varlena.
pub const PGBENCH_ACCOUNTS_TUPLES_PER_PAGE: usize = heap_tuples_per_page(12 + 85, 4, false);
const _: () = assert!(TABLE3_TUPLES_PER_PAGE == 185 && PGBENCH_ACCOUNTS_TUPLES_PER_PAGE == 61);

/// Seed 000's row count.
pub const TABLE3_ROWS: u64 = 10_000_000;
/// pgbench rows per scale unit.
pub const PGBENCH_ROWS_PER_SCALE: u64 = 100_000;

/// The heap TID of row `g` of a table filled in order, `per_page` tuples a page.
pub fn heap_tid(g: u64, per_page: usize) -> ItemPointer {
    ItemPointer::new((g / per_page as u64) as u32, (g % per_page as u64) as u16 + 1)
}

/// Leaf sizes for a sorted build of `n` entries, `per` to a leaf.
pub fn leaf_sizes(n: usize, per: usize) -> Vec<usize> {
    let mut v = vec![per; n / per];
    if n % per != 0 || n == 0 {
        v.push(n % per);
    }
    v
}

/// Seed 000's `idx_table3_col0` over the first `rows` rows: keys 0..rows, TIDs in heap order.
/// At `rows = 10_000_000`: 27,323 leaves, 54,055 heap blocks.
pub fn table3_col0_index(rows: u64) -> BTree {
    let entries: Vec<(i64, ItemPointer)> =
        (0..rows).map(|g| (g as i64, heap_tid(g, TABLE3_TUPLES_PER_PAGE))).collect();
    let per = leaf_items_per_page(KeyType::Int8);
    BTree::build(KeyType::Int8, &entries, &leaf_sizes(entries.len(), per))
}

/// `pgbench_accounts_pkey` at `accounts` rows (aid 1..=accounts, heap order).
pub fn pgbench_accounts_pkey(accounts: u64) -> BTree {
    let entries: Vec<(i64, ItemPointer)> = (0..accounts)
        .map(|g| (g as i64 + 1, heap_tid(g, PGBENCH_ACCOUNTS_TUPLES_PER_PAGE)))
        .collect();
    let per = leaf_items_per_page(KeyType::Int4);
    BTree::build(KeyType::Int4, &entries, &leaf_sizes(entries.len(), per))
}

/// pgbench-style range scans: `aid BETWEEN :aid AND :aid + len - 1` with `:aid` drawn
/// uniformly (seeded) so the range fits, as `\set aid random(1, 100000 * :scale)` does.
pub fn pgbench_ranges(accounts: u64, len: u64, count: usize, seed: u64) -> Vec<(i64, i64)> {
    assert!(len >= 1 && len <= accounts, "range of {len} does not fit {accounts} accounts");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let lo = rng.random_range(1..=accounts - len + 1) as i64;
            (lo, lo + len as i64 - 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_000_arithmetic() {
        assert_eq!(TABLE3_TUPLES_PER_PAGE, 185);
        let pages = TABLE3_ROWS.div_ceil(TABLE3_TUPLES_PER_PAGE as u64);
        assert_eq!(pages, 54_055);
        assert_eq!(TABLE3_ROWS - (pages - 1) * 185, 10);
        assert_eq!(leaf_sizes(TABLE3_ROWS as usize, 366).len(), 27_323);
        assert_eq!(heap_tid(9_999_999, 185), ItemPointer::new(54_054, 10));
    }

    #[test]
    fn pgbench_arithmetic() {
        assert_eq!(PGBENCH_ACCOUNTS_TUPLES_PER_PAGE, 61);
        assert_eq!(PGBENCH_ROWS_PER_SCALE.div_ceil(61), 1_640);
    }

    #[test]
    fn small_index_is_heap_ordered() {
        let t = table3_col0_index(1000);
        assert_eq!(t.len(), 1000);
        assert_eq!(t.leaves.len(), 3);
        let t0 = table3_col0_index(0);
        assert!(t0.is_empty());
    }

    #[test]
    fn ranges_are_deterministic_and_fit() {
        let a = pgbench_ranges(10_000, 2_000, 50, 7);
        assert_eq!(a, pgbench_ranges(10_000, 2_000, 50, 7));
        assert!(a.iter().all(|&(lo, hi)| lo >= 1 && hi <= 10_000 && hi - lo + 1 == 2_000));
        assert_ne!(a, pgbench_ranges(10_000, 2_000, 50, 8));
    }
}

// ---------------------------------------------------------------------------------------------
// tid-batch's workloads: the TID streams of each AM's scan over seed 000's table3.

/// How local a TID stream is for the bitmap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Locality {
    /// TIDs.
    pub tids: u64,
    /// Maximal runs of consecutive TIDs on one heap block.
    pub runs: u64,
    /// Distinct heap blocks.
    pub blocks: u64,
}

impl Locality {
    /// Of a TID stream in scan order.
    pub fn of(tids: impl IntoIterator<Item = ItemPointer>) -> Locality {
        let mut runs = 0u64;
        let mut n = 0u64;
        let mut last = None;
        let mut blocks = Vec::new();
        for t in tids {
            n += 1;
            if last != Some(t.block()) {
                runs += 1;
                last = Some(t.block());
            }
            blocks.push(t.block());
        }
        blocks.sort_unstable();
        blocks.dedup();
        Locality { tids: n, runs, blocks: blocks.len() as u64 }
    }

    /// TIDs a heap-block run.
    pub fn tids_per_run(&self) -> f64 {
        self.tids as f64 / self.runs.max(1) as f64
    }
}

/// A 64-bit mix (splitmix64's finaliser): the workloads' deterministic "random" choices.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}


/// Ten widely spaced keys: the middles of ten equal slices of the table.
pub fn few_keys(rows: u64) -> Vec<u64> {
    (0..10).map(|i| i * rows / 10 + rows / 20).collect()
}

/// work_mem equivalent to the seed's 2 MB lossy setting at `rows` (2 MiB x rows / 10M).
pub fn lossy_work_mem(rows: u64) -> usize {
    ((2u64 << 20) * rows / TABLE3_ROWS) as usize
}

/// Hash index tuples a bucket page at the default fillfactor 75: 12 + 4 -> MAXALIGN 16 B
/// tuples, 4 B line pointers, (8192 - 24 - 16) x 0.75 / 20 = 305.
pub const HASH_TUPLES_PER_PAGE: usize = (BLCKSZ - SIZE_OF_PAGE_HEADER - 16) * 75 / 100 / (16 + SIZE_OF_ITEM_ID);
const _: () = assert!(HASH_TUPLES_PER_PAGE == 305);

/// Decoded TIDs of one GIN posting-tree leaf (an estimate): 8152 B of data in 31 segments of
/// 256 B, each an 8-byte header and ~247 one-byte varbyte deltas (two bytes at a block change).
pub const GIN_LEAF_TIDS: usize = 31 * 248;

/// GiST leaf: 256 points (24 B tuples + 4 B line pointers, 291 fit; the sorted build fills
/// 90%): a 16 x 16 Z-order tile.
pub const GIST_LEAF_POINTS: usize = 256;

/// SP-GiST quad-tree leaf modelled as an 8 x 8 tile.
pub const SPGIST_TILE: u64 = 8;

/// Interleave x (even bits) and y (odd bits).
pub fn morton(x: u32, y: u32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = v as u64;
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        v = (v | (v << 1)) & 0x5555_5555_5555_5555;
        v
    }
    spread(x) | spread(y) << 1
}

/// Quad-tree order of tile (tx, ty): at each level quadrant 1 (x high, y high), 2 (x high,
/// y low), 3 (low, low), 4 (low, high), as spgquadtreeproc.c numbers them.
pub fn quad_order(tx: u32, ty: u32) -> u64 {
    let mut k = 0u64;
    for bit in (0..32).rev() {
        let (xb, yb) = ((tx >> bit) & 1, (ty >> bit) & 1);
        let q = match (xb, yb) {
            (1, 1) => 0,
            (1, 0) => 1,
            (0, 0) => 2,
            _ => 3,
        };
        k = k << 2 | q;
    }
    k
}

/// Grid width for `rows` points: a power of two near sqrt(rows).
pub fn grid_width(rows: u64) -> u64 {
    ((rows as f64).sqrt() as u64).next_power_of_two()
}

pub fn tids(gs: &[u64]) -> Vec<ItemPointer> {
    gs.iter().map(|&g| heap_tid(g, TABLE3_TUPLES_PER_PAGE)).collect()
}

pub fn items(gs: &[u64], recheck: impl Fn(u64) -> bool) -> Vec<ScanItem> {
    gs.iter().map(|&g| ScanItem::new(heap_tid(g, TABLE3_TUPLES_PER_PAGE), recheck(g))).collect()
}

/// hash-many order: rows sorted by (bucket, hash); `hash` a 32-bit mix standing in for hashint8.
/// (The orders below compute each row's key once: a million-row sort stays in milliseconds.)
pub fn hash_order(rows: u64) -> Vec<u64> {
    let nbuckets = (rows / HASH_TUPLES_PER_PAGE as u64).max(1).next_power_of_two();
    let h = |g: u64| (mix64(g ^ 0x4a5b) >> 32) as u32;
    let mut gs: Vec<u64> = (0..rows).collect();
    gs.sort_by_cached_key(|&g| ((h(g) as u64 & (nbuckets - 1)) << 32) | h(g) as u64);
    gs
}

/// gist order: points (g % W, g / W) in Z-order.
pub fn gist_order(gs: impl IntoIterator<Item = u64>, rows: u64) -> Vec<u64> {
    let w = grid_width(rows);
    let mut v: Vec<u64> = gs.into_iter().collect();
    v.sort_by_cached_key(|&g| morton((g % w) as u32, (g / w) as u32));
    v
}

/// spgist order: 8x8 tiles in quadrant order, each tile row-major (insertion order).
pub fn spgist_order(gs: impl IntoIterator<Item = u64>, rows: u64) -> Vec<u64> {
    let w = grid_width(rows);
    let mut v: Vec<u64> = gs.into_iter().collect();
    v.sort_by_cached_key(|&g| {
        let (x, y) = (g % w, g / w);
        (quad_order((x / SPGIST_TILE) as u32, (y / SPGIST_TILE) as u32), g)
    });
    v
}

/// Does row `g` match bloom-many's query (1 row in 8)?
pub fn bloom_many_match(g: u64) -> bool {
    mix64(g ^ 0xb100_u64).is_multiple_of(8)
}

/// The scan signature of the bloom cases (`col0 = c`: two bits), in words.
pub const BLOOM_QUERY: [u16; BLOOM_SIGN_WORDS] = [0, 1 << 1, 0, 0, 1 << 6];

/// Bloom tuples of table3 in heap order: matching rows carry the query's two bits plus two
/// more; the others four bits that never include both query bits.
pub fn bloom_tuples(rows: u64, is_match: impl Fn(u64) -> bool) -> Vec<BloomTuple> {
    (0..rows)
        .map(|g| {
            let mut sign = [0u16; BLOOM_SIGN_WORDS];
            let mut set = |bit: u64| sign[(bit / 16) as usize] |= 1 << (bit % 16);
            let r = mix64(g ^ 0xb10e);
            if is_match(g) {
                set(17);
                set(70);
                set(r % 80);
                set((r >> 8) % 80);
            } else {
                for k in 0..4 {
                    let mut bit = (r >> (8 * k)) % 80;
                    if bit == 17 || bit == 70 {
                        bit = (bit + 1 + k) % 80;
                    }
                    set(bit);
                }
                // Never both query bits (so never a match).
                if sign[1] & (1 << 1) != 0 && sign[4] & (1 << 6) != 0 {
                    sign[4] &= !(1 << 6);
                }
            }
            BloomTuple { heap_ptr: heap_tid(g, TABLE3_TUPLES_PER_PAGE), sign }
        })
        .collect()
}

