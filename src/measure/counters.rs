//! Hardware and software counters with perf-event (perf-event2). A generic group (cycles,
//! instructions, branches, L1D loads and misses), a vendor group chosen from CPUID
//! (reference: microarchitecture.md §3), and software counters that work everywhere. Where a
//! hardware event cannot be opened the result says which and why, and the rest goes on.

pub use crate::host::cpu::{Cpu, Microarch};
use crate::study::{Case, Variant};
use perf_event::events::{Cache, CacheOp, CacheResult, Hardware, Raw, Software, CacheId};
use perf_event::{Builder, Group};
use serde::{Deserialize, Serialize};

/// One event we may count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    /// Name in reports (perf's name where there is one).
    pub name: &'static str,
    /// perf raw code (`r81d0`) or generic name.
    pub code: String,
    /// What it counts.
    pub what: &'static str,
    kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum EventKind {
    Hw(Hardware),
    Cache(CacheId, CacheOp, CacheResult),
    Raw(u64),
    Sw(Software),
}

impl EventSpec {
    fn hw(name: &'static str, h: Hardware, what: &'static str) -> Self {
        EventSpec { name, code: name.to_string(), what, kind: EventKind::Hw(h) }
    }
    /// A raw event `r<umask><event>`: config = umask << 8 | event.
    pub fn raw(name: &'static str, config: u64, what: &'static str) -> Self {
        EventSpec { name, code: format!("r{config:x}"), what, kind: EventKind::Raw(config) }
    }
    fn sw(name: &'static str, s: Software, what: &'static str) -> Self {
        EventSpec { name, code: name.to_string(), what, kind: EventKind::Sw(s) }
    }
    /// The raw config, for raw events.
    pub fn raw_config(&self) -> Option<u64> {
        match self.kind {
            EventKind::Raw(c) => Some(c),
            _ => None,
        }
    }
    /// Is this a software event (always available)?
    pub fn is_software(&self) -> bool {
        matches!(self.kind, EventKind::Sw(_))
    }
    fn builder(&self) -> Builder<'static> {
        let mut b = match self.kind {
            EventKind::Hw(h) => Builder::new(h),
            EventKind::Cache(which, operation, result) => Builder::new(Cache { which, operation, result }),
            EventKind::Raw(c) => Builder::new(Raw::new(c)),
            EventKind::Sw(s) => Builder::new(s),
        };
        b.exclude_kernel(true).exclude_hv(true);
        b
    }
}

/// A named group of events counted together.
#[derive(Clone, Debug)]
pub struct EventGroup {
    /// Group name.
    pub name: String,
    /// Members.
    pub events: Vec<EventSpec>,
}

/// The generic hardware group.
pub fn generic_group() -> EventGroup {
    EventGroup {
        name: "generic".into(),
        events: vec![
            EventSpec::hw("instructions", Hardware::INSTRUCTIONS, "retired instructions"),
            EventSpec::hw("cycles", Hardware::CPU_CYCLES, "core cycles"),
            EventSpec::hw("branches", Hardware::BRANCH_INSTRUCTIONS, "retired branches"),
            EventSpec::hw("branch-misses", Hardware::BRANCH_MISSES, "mispredicted branches"),
            EventSpec {
                name: "L1-dcache-loads",
                code: "L1-dcache-loads".into(),
                what: "L1D read accesses",
                kind: EventKind::Cache(CacheId::L1D, CacheOp::READ, CacheResult::ACCESS),
            },
            EventSpec {
                name: "L1-dcache-load-misses",
                code: "L1-dcache-load-misses".into(),
                what: "L1D read misses",
                kind: EventKind::Cache(CacheId::L1D, CacheOp::READ, CacheResult::MISS),
            },
        ],
    }
}

/// The vendor groups for a microarchitecture (reference microarchitecture.md §3). A group is
/// scheduled as a unit, so each holds at most four programmable events: Zen cores have six
/// counters and Intel four per SMT thread, and a group that does not fit never runs.
pub fn vendor_groups(m: Microarch) -> Vec<EventGroup> {
    let group = |name: &str, events: Vec<EventSpec>| EventGroup { name: format!("vendor:{m}:{name}"), events };
    let intel = |stlf_umask: u64| {
        vec![
            group(
                "mem",
                vec![
                    EventSpec::raw("MEM_INST_RETIRED.ALL_LOADS", 0x81d0, "retired loads"),
                    EventSpec::raw("MEM_INST_RETIRED.ALL_STORES", 0x82d0, "retired stores"),
                    EventSpec::raw("LD_BLOCKS.STORE_FORWARD", (stlf_umask << 8) | 0x03, "loads blocked because store forwarding failed"),
                    EventSpec::raw("MEM_LOAD_RETIRED.L1_HIT", 0x01d1, "retired loads that hit L1"),
                ],
            ),
        ]
    };
    match m {
        Microarch::IntelSkylake | Microarch::IntelIceLake => intel(0x02),
        // Golden Cove P-cores count LD_BLOCKS.STORE_FORWARD with umask 0x82 (E-cores: 0x02).
        Microarch::IntelGoldenCove => intel(0x82),
        Microarch::Zen2 | Microarch::Zen3 | Microarch::Zen5 => vec![
            group(
                "stlf",
                vec![
                    EventSpec::raw("ls_stlf", 0x35, "successful store-to-load forwards"),
                    EventSpec::raw("ls_bad_status2.stli_other", 0x224, "loads held by a non-forwardable older store"),
                    EventSpec::raw("ex_ret_instr", 0xc0, "retired instructions"),
                    EventSpec::raw("ls_not_halted_cyc", 0x76, "core cycles"),
                ],
            ),
            group(
                "dispatch",
                vec![
                    EventSpec::raw("ls_dispatch.ld", 0x129, "loads dispatched"),
                    EventSpec::raw("ls_dispatch.st", 0x229, "stores dispatched"),
                    EventSpec::raw("ls_dispatch.ld_st", 0x429, "load-op-stores dispatched"),
                ],
            ),
        ],
        _ => Vec::new(),
    }
}

/// Software counters: work on any Linux with perf_event_open, PMU or not.
pub fn software_group() -> EventGroup {
    EventGroup {
        name: "software".into(),
        events: vec![
            EventSpec::sw("task-clock", Software::TASK_CLOCK, "ns on CPU"),
            EventSpec::sw("page-faults", Software::PAGE_FAULTS, "page faults"),
            EventSpec::sw("minor-faults", Software::PAGE_FAULTS_MIN, "minor page faults"),
            EventSpec::sw("context-switches", Software::CONTEXT_SWITCHES, "context switches"),
            EventSpec::sw("cpu-migrations", Software::CPU_MIGRATIONS, "CPU migrations"),
        ],
    }
}

/// All groups for this host.
pub fn groups_for(m: Microarch) -> Vec<EventGroup> {
    let mut g = vec![software_group(), generic_group()];
    g.extend(vendor_groups(m));
    g
}

/// One counted value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterValue {
    /// Group.
    pub group: String,
    /// Event name.
    pub event: String,
    /// perf code.
    pub code: String,
    /// Raw count (scaled by enabled/running if multiplexed).
    pub count: f64,
    /// Per item.
    pub per_item: f64,
    /// ns the group was enabled.
    pub time_enabled_ns: u64,
    /// ns it was running (less than enabled: multiplexed, and the count is scaled).
    pub time_running_ns: u64,
}

/// An event that could not be counted, and why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Unavailable {
    /// Group.
    pub group: String,
    /// Event name.
    pub event: String,
    /// Why, in words.
    pub reason: String,
}

/// Counters of one variant on one case.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct CounterReport {
    /// Values counted.
    pub values: Vec<CounterValue>,
    /// Events that could not be opened.
    pub unavailable: Vec<Unavailable>,
}

/// `/proc/sys/kernel/perf_event_paranoid`, if readable.
pub fn paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid").ok()?.trim().parse().ok()
}

/// Words for an open error.
pub fn explain(err: &std::io::Error) -> String {
    match err.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::EOPNOTSUPP) | Some(libc::ENODEV) => format!(
            "not supported ({}): this host exposes no PMU for the event (typical of VMs without a virtual PMU)",
            errno_name(err)
        ),
        Some(libc::EACCES) | Some(libc::EPERM) => format!(
            "permission denied ({}): perf_event_paranoid is {}; lower it (sysctl kernel.perf_event_paranoid=1) or run with CAP_PERFMON",
            errno_name(err),
            paranoid().map(|p| p.to_string()).unwrap_or_else(|| "unreadable".into())
        ),
        Some(libc::ENOSYS) => "perf_event_open is not available in this kernel or sandbox (ENOSYS)".into(),
        Some(libc::EINVAL) => "the kernel rejected the event encoding (EINVAL): wrong code for this CPU".into(),
        _ => format!("cannot open: {err}"),
    }
}

fn errno_name(err: &std::io::Error) -> &'static str {
    match err.raw_os_error() {
        Some(libc::ENOENT) => "ENOENT",
        Some(libc::EOPNOTSUPP) => "EOPNOTSUPP",
        Some(libc::ENODEV) => "ENODEV",
        Some(libc::EACCES) => "EACCES",
        Some(libc::EPERM) => "EPERM",
        _ => "error",
    }
}

/// Count `groups` around `runs` runs of variant `v` on `case`. Each group is opened and read
/// separately (a group is scheduled as a unit); an event that cannot be opened is recorded
/// and left out of its group.
pub fn measure(case: &mut dyn Case, v: &'static Variant, runs: u32, groups: &[EventGroup]) -> anyhow::Result<CounterReport> {
    let mut rep = CounterReport::default();
    let items = case.items().max(1) as f64 * runs as f64;
    // Warm up once so page faults of first touch are not counted.
    std::hint::black_box(case.run(v)?);
    for g in groups {
        let mut group = match Group::new() {
            Ok(gr) => gr,
            Err(e) => {
                for ev in &g.events {
                    rep.unavailable.push(Unavailable { group: g.name.clone(), event: ev.name.into(), reason: explain(&e) });
                }
                continue;
            }
        };
        let mut members = vec![];
        for ev in &g.events {
            match group.add(&ev.builder()) {
                Ok(c) => members.push((ev, c)),
                Err(e) => rep.unavailable.push(Unavailable { group: g.name.clone(), event: ev.name.into(), reason: explain(&e) }),
            }
        }
        if members.is_empty() {
            continue;
        }
        // A run that fails ends the measurement; the counters' own errors only skip a group.
        let mut failed = None;
        let res = (|| -> std::io::Result<_> {
            group.reset()?;
            group.enable()?;
            for _ in 0..runs {
                if let Err(e) = std::hint::black_box(case.run(v)) {
                    failed = Some(e);
                    break;
                }
            }
            group.disable()?;
            group.read()
        })();
        if let Some(e) = failed {
            return Err(e);
        }
        match res {
            Ok(data) => {
                let en = data.time_enabled().map(|d| d.as_nanos() as u64).unwrap_or(0);
                let ru = data.time_running().map(|d| d.as_nanos() as u64).unwrap_or(0);
                for (ev, c) in &members {
                    let raw = data.get(c).map(|e| e.value()).unwrap_or(0) as f64;
                    if ru == 0 {
                        rep.unavailable.push(Unavailable {
                            group: g.name.clone(),
                            event: ev.name.into(),
                            reason: "opened but never scheduled (time running 0): the PMU has no free counter".into(),
                        });
                        continue;
                    }
                    let count = if ru < en { raw * en as f64 / ru as f64 } else { raw };
                    rep.values.push(CounterValue {
                        group: g.name.clone(),
                        event: ev.name.into(),
                        code: ev.code.clone(),
                        count,
                        per_item: count / items,
                        time_enabled_ns: en,
                        time_running_ns: ru,
                    });
                }
            }
            Err(e) => {
                for (ev, _) in &members {
                    rep.unavailable.push(Unavailable { group: g.name.clone(), event: ev.name.into(), reason: explain(&e) });
                }
            }
        }
    }
    Ok(rep)
}

/// Can this host count hardware events at all? Err carries the reason.
pub fn hardware_available() -> Result<(), String> {
    let mut b = Builder::new(Hardware::INSTRUCTIONS);
    b.exclude_kernel(true).exclude_hv(true);
    b.build().map(|_| ()).map_err(|e| explain(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(vendor: &str, family: u32, model: u32) -> Cpu {
        Cpu { vendor: vendor.into(), family, model, name: String::new(), hypervisor: false, features: Default::default() }
    }

    fn code(groups: &[EventGroup], name: &str) -> String {
        groups.iter().flat_map(|g| &g.events).find(|e| e.name == name).unwrap_or_else(|| panic!("{name} missing")).code.clone()
    }

    #[test]
    fn vendor_tables_match_the_reference() {
        let skl = vendor_groups(Microarch::detect(&cpu("GenuineIntel", 6, 0x55)));
        assert_eq!(code(&skl, "LD_BLOCKS.STORE_FORWARD"), "r203");
        assert_eq!(code(&skl, "MEM_INST_RETIRED.ALL_LOADS"), "r81d0");
        assert_eq!(code(&skl, "MEM_INST_RETIRED.ALL_STORES"), "r82d0");
        assert_eq!(code(&skl, "MEM_LOAD_RETIRED.L1_HIT"), "r1d1");
        let icl = vendor_groups(Microarch::detect(&cpu("GenuineIntel", 6, 0x6A)));
        assert_eq!(code(&icl, "LD_BLOCKS.STORE_FORWARD"), "r203");
        // Sapphire Rapids is Golden Cove: the store-forward umask is 0x82.
        let spr = vendor_groups(Microarch::detect(&cpu("GenuineIntel", 6, 0x8F)));
        assert_eq!(code(&spr, "LD_BLOCKS.STORE_FORWARD"), "r8203");
        let zen3 = vendor_groups(Microarch::detect(&cpu("AuthenticAMD", 0x19, 0x21)));
        for (n, c) in [
            ("ls_stlf", "r35"),
            ("ls_bad_status2.stli_other", "r224"),
            ("ls_dispatch.ld", "r129"),
            ("ls_dispatch.st", "r229"),
            ("ls_dispatch.ld_st", "r429"),
            ("ex_ret_instr", "rc0"),
            ("ls_not_halted_cyc", "r76"),
        ] {
            assert_eq!(code(&zen3, n), c, "{n}");
        }
        assert_eq!(Microarch::detect(&cpu("AuthenticAMD", 0x17, 0x71)), Microarch::Zen2);
        assert!(vendor_groups(Microarch::detect(&cpu("HygonGenuine", 0x18, 0))).is_empty());
    }

    #[test]
    fn every_group_fits_the_counters() {
        for m in [Microarch::IntelSkylake, Microarch::IntelGoldenCove, Microarch::Zen3] {
            for g in groups_for(m).iter().filter(|g| g.name != "software") {
                assert!(g.events.len() <= 6, "{}: {} events", g.name, g.events.len());
                let programmable = g.events.iter().filter(|e| !matches!(e.name, "instructions" | "cycles")).count();
                assert!(programmable <= 4, "{}: {programmable} programmable events cannot be scheduled together", g.name);
            }
        }
    }

    #[test]
    fn detect_this_host_does_not_panic() {
        let m = Microarch::detect(&crate::host::cpu::cpu());
        assert!(!m.to_string().is_empty());
    }
}
