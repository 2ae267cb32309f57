//! The per-relation statistics counters an index scan bumps (src/include/pgstat.h,
//! src/backend/utils/activity/pgstat_relation.c), cut to `numscans`; and the backend's cache
//! of references to shared statistics entries (pgstat_shmem.c), which PostgreSQL 18 consults
//! before every buffer read (`pgstat_prepare_report_checksum_failure`, pgstat_database.c).

use std::sync::atomic::{AtomicU64, Ordering};

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

/// `PGSTAT_KIND_DATABASE`.
pub const PGSTAT_KIND_DATABASE: u32 = 1;

/// `PgStat_HashKey`: kind, database and object; 16 bytes, hashed and compared as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgStatHashKey {
    /// `kind`.
    pub kind: u32,
    /// `dboid`.
    pub dboid: u32,
    /// `objid`.
    pub objid: u64,
}

/// fasthash's mix step (src/include/common/hashfn_unstable.h).
#[inline(always)]
fn fasthash_mix(mut h: u64, tweak: u64) -> u64 {
    h ^= (h >> 23).wrapping_add(tweak);
    h = h.wrapping_mul(0x2127_599b_f432_5c37);
    h ^ (h >> 47)
}

/// `fasthash32` with seed 0, as `pgstat_hash_hash_key` hashes a key: each 8-byte word (the
/// last one zero-filled) mixed into the state, the state mixed once more and folded to 32
/// bits.
#[inline(always)]
pub fn fasthash32(bytes: &[u8]) -> u32 {
    const M: u64 = 0x8803_55f2_1e6d_1965;
    let mut hash = M;
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        hash ^= fasthash_mix(u64::from_ne_bytes(w), 0);
        hash = hash.wrapping_mul(M);
    }
    let h = fasthash_mix(hash, 0);
    h.wrapping_sub(h >> 32) as u32
}

/// `PgStat_EntryRef`, cut to what a cached look-up reads.
#[derive(Debug, Default)]
pub struct PgStatEntryRef {
    /// `shared_entry->dropped`.
    pub dropped: bool,
}

/// A slot of `pgStatEntryRefHash` (simplehash with the hash stored).
#[derive(Clone, Copy)]
struct EntryRefSlot {
    in_use: bool,
    hash: u32,
    key: PgStatHashKey,
    entry_ref: *mut PgStatEntryRef,
}

/// The backend's statistics state that a cached look-up touches: `pgStatEntryRefHash` (8
/// slots to start, grown at 90% full as simplehash grows), the age of its references against
/// the shared `gc_request_count`.
pub struct PgStatLocal {
    slots: Box<[EntryRefSlot]>,
    members: u32,
    /// `pgStatLocal.shmem->gc_request_count` (shared) and `pgStatSharedRefAge` (local).
    gc_request_count: AtomicU64,
    shared_ref_age: u64,
    refs: Vec<Box<PgStatEntryRef>>,
}

impl Default for PgStatLocal {
    fn default() -> Self {
        let empty = EntryRefSlot { in_use: false, hash: 0, key: PgStatHashKey::default(), entry_ref: std::ptr::null_mut() };
        PgStatLocal { slots: vec![empty; 8].into_boxed_slice(), members: 0, gc_request_count: AtomicU64::new(0), shared_ref_age: 0, refs: Vec::new() }
    }
}

#[cold]
#[inline(never)]
fn entry_refs_gc() -> ! {
    panic!("dropped statistics entries to collect: pgstat_gc_entry_refs is not modelled")
}

#[cold]
#[inline(never)]
fn entry_ref_hash_full() -> ! {
    panic!("pgStatEntryRefHash would grow: not modelled (a backend reading one relation holds a few references)")
}

/// The first reference to a key: the shared hash table's look-up and the pin of its entry are
/// not modelled; a fresh reference stands for them.
#[cold]
#[inline(never)]
fn new_entry_ref(local: &mut PgStatLocal) -> *mut PgStatEntryRef {
    local.refs.push(Box::default());
    &raw mut **local.refs.last_mut().unwrap()
}

/// `pgstat_get_entry_ref(kind, dboid, objid, create)`: the reference-age check
/// (`pgstat_need_entry_refs_gc`: the shared counter against the backend's), then the
/// backend's cache (`pgstat_get_entry_ref_cached`: simplehash insert-or-find of the key,
/// hashed with [`fasthash32`], probed linearly, the stored hash compared before the key).
/// A cached reference is returned at once. Out of line (pgstat_shmem.c).
#[inline(never)]
pub fn pgstat_get_entry_ref(local: &mut PgStatLocal, kind: u32, dboid: u32, objid: u64, create: bool) -> *mut PgStatEntryRef {
    let key = PgStatHashKey { kind, dboid, objid };
    if local.gc_request_count.load(Ordering::Relaxed) != local.shared_ref_age {
        entry_refs_gc();
    }
    // SAFETY: PgStatHashKey is 16 plain bytes.
    let bytes = unsafe { std::slice::from_raw_parts((&raw const key).cast::<u8>(), size_of::<PgStatHashKey>()) };
    let hash = fasthash32(bytes);
    let mask = local.slots.len() as u32 - 1;
    if local.members >= local.slots.len() as u32 * 9 / 10 {
        entry_ref_hash_full();
    }
    let mut cur = hash & mask;
    loop {
        let slot = &local.slots[cur as usize];
        if !slot.in_use {
            break;
        }
        if slot.hash == hash && slot.key == key && !slot.entry_ref.is_null() {
            return slot.entry_ref;
        }
        cur = (cur + 1) & mask;
    }
    if !create {
        return std::ptr::null_mut();
    }
    let entry_ref = new_entry_ref(local);
    local.slots[cur as usize] = EntryRefSlot { in_use: true, hash, key, entry_ref };
    local.members += 1;
    entry_ref
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_reference_is_found_again() {
        let mut l = PgStatLocal::default();
        let a = pgstat_get_entry_ref(&mut l, PGSTAT_KIND_DATABASE, 5, 0, true);
        assert!(!a.is_null());
        assert_eq!(pgstat_get_entry_ref(&mut l, PGSTAT_KIND_DATABASE, 5, 0, true), a);
        assert!(pgstat_get_entry_ref(&mut l, PGSTAT_KIND_DATABASE, 6, 0, false).is_null());
        let b = pgstat_get_entry_ref(&mut l, PGSTAT_KIND_DATABASE, 6, 0, true);
        assert!(b != a && l.members == 2);
        assert_ne!(fasthash32(&[1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), fasthash32(&[1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    }
}
