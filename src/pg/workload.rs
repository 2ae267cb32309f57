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
use super::page::{BLCKSZ, SIZE_OF_ITEM_ID, SIZE_OF_PAGE_HEADER, maxalign};
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
