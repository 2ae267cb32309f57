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

pub use crate::host::affinity::pin_current_thread;
