//! The per-relation statistics counters an index scan bumps (src/include/pgstat.h,
//! src/backend/utils/activity/pgstat_relation.c), cut to `numscans`.

/// `PgStat_TableCounts`, the counter `pgstat_count_index_scan` bumps and its neighbours.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PgStatTableCounts {
    /// `numscans`.
    pub numscans: i64,
    /// `tuples_returned`.
    pub tuples_returned: i64,
    /// `tuples_fetched`.
    pub tuples_fetched: i64,
}

/// `PgStat_TableStatus`: what `rel->pgstat_info` points to once the relation is associated.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PgStatTableStatus {
    /// `id`.
    pub id: u32,
    /// `shared`.
    pub shared: bool,
    /// `counts`.
    pub counts: PgStatTableCounts,
}

/// `pgstat_count_index_scan(rel)`: a macro, so inline: `pgstat_should_count_relation` (the
/// relation is already associated: `pgstat_info` set) and an increment.
///
/// # Safety
/// `pgstat_info` must be null or point to a live status.
#[inline(always)]
pub unsafe fn pgstat_count_index_scan(pgstat_info: *mut PgStatTableStatus) {
    unsafe {
        if !pgstat_info.is_null() {
            (*pgstat_info).counts.numscans += 1;
        } else {
            not_associated();
        }
    }
}

/// `pgstat_assoc_relation` (or no counting when `pgstat_enabled` is off): not modelled.
#[cold]
#[inline(never)]
fn not_associated() {}
