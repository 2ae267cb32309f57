//! Measurement: paired wall clock ([`wallclock`]), the per-call timing loop ([`timing`]),
//! minor faults ([`faults`]), exact instructions ([`callgrind`]) and hardware/software
//! counters ([`counters`]); whether the measuring thread had its core ([`usage`]).

pub mod callgrind;
pub mod counters;
pub mod faults;
pub mod stats;
pub mod timing;
pub mod usage;
pub mod wallclock;

/// Pin the calling thread to one core: the last one the process may use, away from core 0
/// where interrupts and housekeeping tend to land. Returns the core id, or None when pinning
/// is not possible (then the report says so).
pub fn pin_current_thread() -> Option<usize> {
    let cores = core_affinity::get_core_ids()?;
    let core = *cores.last()?;
    core_affinity::set_for_current(core).then_some(core.id)
}
