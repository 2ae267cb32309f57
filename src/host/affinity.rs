//! Thread affinity: the measuring thread is pinned to one core; untimed parallel work
//! (callgrind, llvm-mca) takes back every core the process started with, and helper threads
//! that stand for other processes (a model's I/O workers) move off the pinned core.

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
    set_cores(&cores.iter().map(|c| c.id).collect::<Vec<_>>())
}

/// Keep the calling thread off the core [`pin_current_thread`] pins the measuring thread to,
/// on the process's other cores: for helper threads that stand for other processes
/// (PostgreSQL's I/O workers), which the scheduler would put beside a busy backend, not on its
/// core. Whether the helper starts before or after the pin, it never shares the measuring
/// core. Left as it is when the process has no other core. Returns whether it moved.
pub fn avoid_measuring_core() -> bool {
    let Some(measuring) = allowed_cores().last() else { return false };
    let others: Vec<usize> = allowed_cores().iter().map(|c| c.id).filter(|c| *c != measuring.id).collect();
    !others.is_empty() && set_cores(&others)
}

/// Start `cmd`'s process with every core this process started with, not the single core of
/// the (pinned) thread that spawns it: a worker pins its own measuring thread, and its helper
/// threads ([`avoid_measuring_core`]) and untimed lanes need the other cores to exist for it.
pub fn every_core_for(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    let set = cpu_set(&allowed_cores().iter().map(|c| c.id).collect::<Vec<_>>());
    // SAFETY: the closure runs in the child between fork and exec and makes one syscall,
    // sched_setaffinity (async-signal-safe), on a cpu_set_t copied in before the fork; it
    // allocates nothing and takes no lock.
    unsafe {
        cmd.pre_exec(move || {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
            Ok(())
        });
    }
}

fn cpu_set(ids: &[usize]) -> libc::cpu_set_t {
    // SAFETY: cpu_set_t is a plain bit array (all zeroes is the empty set), and CPU_SET only
    // sets bits of ids below CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in ids.iter().filter(|c| **c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        set
    }
}

/// The core a measuring thread or process is pinned to: the last one this process may use.
pub fn measuring_core() -> Option<usize> {
    allowed_cores().last().map(|c| c.id)
}

/// Pin another process (a server's backend) to the core [`pin_current_thread`] would pin the
/// measuring thread to, and move the calling thread to the other cores, so that a client and
/// the backend it waits on never share one: `pg ab`'s backends all run on one core, so A and
/// B see the same core. Returns the backend's core, or None where there is no second core or
/// the mask could not be set.
pub fn pin_process_away_from_caller(pid: i32) -> Option<usize> {
    let cores = allowed_cores();
    let measuring = cores.last()?.id;
    if cores.len() < 2 || pid <= 0 {
        return None;
    }
    let set = cpu_set(&[measuring]);
    // SAFETY: sched_setaffinity on another process's pid only reads `set`; it fails (and we
    // say so) for a process we may not change.
    let ok = unsafe { libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0 };
    (ok && avoid_measuring_core()).then_some(measuring)
}

/// Set the calling thread's mask to `ids`.
fn set_cores(ids: &[usize]) -> bool {
    let set = cpu_set(ids);
    // SAFETY: sched_setaffinity(0, ..) only reads `set`, for the calling thread.
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0 }
}

/// How many threads untimed parallel work may use: the cores the process started with.
pub fn untimed_lanes() -> usize {
    allowed_cores().len().max(1)
}

/// `f` over `items` on every core the process started with, a lane a core, each lane unpinned
/// first; results in item order. For untimed work (callgrind, llvm-mca) that a report's
/// pinned thread would otherwise hold to its one core. A panic in `f` is re-raised here.
pub fn untimed_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<R>>> = std::sync::Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..untimed_lanes().min(items.len()) {
            s.spawn(|| {
                unpin_current_thread();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    // Every index was taken by a lane that finished it (a lane's panic ends the scope above).
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn untimed_map_keeps_order_and_uses_every_core_from_a_pinned_thread() {
        let all = super::allowed_cores().len();
        std::thread::spawn(move || {
            super::pin_current_thread();
            let items: Vec<u32> = (0..40).collect();
            let got = super::untimed_map(&items, |&i| (i * 3, core_affinity::get_core_ids().unwrap().len()));
            assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), items.iter().map(|i| i * 3).collect::<Vec<_>>());
            assert!(got.iter().all(|g| g.1 == all), "every lane unpinned");
            assert!(super::untimed_map(&[] as &[u32], |&i| i).is_empty());
        })
        .join()
        .unwrap();
    }

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
            // A process started from the pinned thread gets every core, unless asked not to.
            let cores_of_child = |every: bool| {
                let mut c = std::process::Command::new("grep");
                c.args(["Cpus_allowed_list", "/proc/self/status"]);
                if every {
                    super::every_core_for(&mut c);
                }
                String::from_utf8(c.output().unwrap().stdout).unwrap()
            };
            let inherited = cores_of_child(false);
            assert!(inherited.trim().ends_with(&format!("\t{}", pinned.unwrap())), "{inherited}");
            if all > 1 {
                assert_ne!(cores_of_child(true), inherited);
            }
            // A helper thread leaves the pinned core for the others (where there are others).
            std::thread::spawn(move || {
                let moved = super::avoid_measuring_core();
                let now: Vec<usize> = core_affinity::get_core_ids().unwrap().iter().map(|c| c.id).collect();
                assert_eq!(moved, all > 1);
                if all > 1 {
                    assert_eq!(now.len(), all - 1);
                    assert!(!now.contains(&pinned.unwrap()), "{now:?}");
                }
            })
            .join()
            .unwrap();
        })
        .join()
        .unwrap();
    }
}
