//! `PredicateLockPage` (src/backend/storage/lmgr/predicate.c), cut to the check every scan
//! pays outside SERIALIZABLE: `SerializationNeededForRead` finds `MySerializableXact` invalid
//! and the function returns.

use super::itemptr::BlockNumber;
use std::sync::atomic::{AtomicPtr, Ordering};

/// `MySerializableXact`: null (`InvalidSerializableXact`) outside a serializable transaction.
/// A relaxed load is a plain load, as reading the C global is.
pub static MY_SERIALIZABLE_XACT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());

/// `PredicateLockPage(relation, blkno, snapshot)`: out of line (predicate.c). Returns at once
/// when the transaction is not serializable; the lock path itself is not modelled.
#[inline(never)]
pub fn predicate_lock_page(_rel_number: u32, blkno: BlockNumber) {
    if MY_SERIALIZABLE_XACT.load(Ordering::Relaxed).is_null() {
        return;
    }
    serializable(blkno)
}

#[cold]
#[inline(never)]
fn serializable(blkno: BlockNumber) -> ! {
    panic!("not modelled: predicate locks (SERIALIZABLE) on index block {blkno}")
}
