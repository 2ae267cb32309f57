//! Thread affinity: the measuring thread is pinned to one core; threads that must not share
//! it (untimed parallel work, a model's I/O workers) take back every core the process started
//! with.

/// Pin the calling thread to one core: the last one the process may use, away from core 0
/// where interrupts and housekeeping tend to land. Returns the core id, or None when pinning
/// is not possible (then the report says so).
pub fn pin_current_thread() -> Option<usize> {
    let core = *allowed_cores().last()?;
    core_affinity::set_for_current(core).then_some(core.id)
}

/// The cores this process could use before anything here pinned a thread.
fn allowed_cores() -> &'static [core_affinity::CoreId] {
    static ALLOWED: std::sync::OnceLock<Vec<core_affinity::CoreId>> = std::sync::OnceLock::new();
    ALLOWED.get_or_init(|| core_affinity::get_core_ids().unwrap_or_default())
}

/// Give the calling thread back every core the process started with. Threads (and the
/// processes they spawn) inherit a pinned parent's single core; untimed work that runs
/// several at once (callgrind, llvm-mca) calls this first so it uses every core while
/// nothing is being timed. Returns false when the mask could not be set.
pub fn unpin_current_thread() -> bool {
    let cores = allowed_cores();
    if cores.is_empty() {
        return false;
    }
    // SAFETY: `set` is a zeroed cpu_set_t filled with CPU_SET for core ids the kernel gave
    // us; sched_setaffinity(0, ..) only reads it, for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for c in cores {
            libc::CPU_SET(c.id, &mut set);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// How many threads untimed parallel work may use: the cores the process started with.
pub fn untimed_lanes() -> usize {
    allowed_cores().len().max(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unpinning_gives_back_every_core() {
        let all = super::allowed_cores().len();
        std::thread::spawn(move || {
            let pinned = super::pin_current_thread();
            assert!(pinned.is_some());
            assert_eq!(core_affinity::get_core_ids().unwrap().len(), 1);
            // A thread spawned here inherits the single core, until it unpins.
            std::thread::spawn(move || {
                assert_eq!(core_affinity::get_core_ids().unwrap().len(), 1);
                assert!(super::unpin_current_thread());
                assert_eq!(core_affinity::get_core_ids().unwrap().len(), all);
            })
            .join()
            .unwrap();
        })
        .join()
        .unwrap();
    }
}
