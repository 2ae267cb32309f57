//! Loop-carried chains through memory, which llvm-mca does not model (it assumes loads and
//! stores never alias): a slot `[base + disp]` loaded and stored in one iteration, with the
//! base unchanged around the loop and the stored value computed from the loaded one, so each
//! iteration's load waits for the previous iteration's store (store-to-load forwarding).
//! local-index/store-each's `inc dword ptr [so + 132]` (itemIndex) is the study's case.
//!
//! Cost model (a stated assumption, not a measurement of the block): a link costs the core's
//! store-to-load forwarding latency ([`FORWARDING`]) plus the dependent ALU operations between
//! the load and the store; the loop cannot run faster than its longest chain, and llvm-mca's
//! figure has the rest of the work overlapped, so prediction = max(llvm-mca, chain).

//!
//! AArch64 paths (`ldr w3, [x19, 132]` ... `add w3, w3, 1` ... `str w3, [x19, 132]`: gcc's
//! store-each on arm64) go through the same detector with AArch64 operands
//! ([`crate::asm::structure::a64_accesses`], [`regs::a64_effects`]); `sp` is tracked through
//! pre/post-index writebacks and `sub`/`add sp`. Whether an Arm core renames memory is not
//! assumed either way (ground-truth.md §5): each Arm entry of [`FORWARDING`] is a published
//! measurement of a store and a chained reload of the same address and width, which includes
//! whatever the core does; a core with no cited figure ([`NO_FORWARDING_FIGURE`]) gets no chain
//! cost, and its prediction says so.

use super::block::PathInsn;
use super::regs::{self, effects, simple_mem};
use crate::asm::structure::{Insn, Isa, a64_accesses, a64_mem};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One core's store-to-load forwarding latency for a 64-bit GPR store-then-reload link.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Forwarding {
    /// llvm-mca CPU name.
    pub cpu: &'static str,
    /// Cycles a link (store, then a plain load of the same address and width).
    pub cycles: f64,
    /// Cycles a link the core cannot rename (the reload sign- or zero-extends, or its width
    /// differs from the store's): plain store-to-load forwarding.
    pub unrenamed: f64,
    /// Where the figures come from.
    pub source: &'static str,
}

/// Forwarding latency per llvm-mca CPU name, with sources. Ice Lake and later Intel cores and
/// Zen 2 onward rename a store and its reload from the same simple address ("memory
/// renaming"/"mirroring"), so a link costs ~0-1 cycles there and ~4-5 on Skylake.
pub const FORWARDING: &[Forwarding] = &[
    F { cpu: "haswell", cycles: 5.25, unrenamed: 5.25, source: "uarch-bench studies/forwarding, Haswell GPR chain (reference microarchitecture.md §1); no renaming" },
    F { cpu: "skylake", cycles: 4.43, unrenamed: 4.43, source: "uarch-bench studies/forwarding, Skylake GPR chain (microarchitecture.md §1); no renaming" },
    F { cpu: "skylake-avx512", cycles: 4.43, unrenamed: 4.43, source: "as skylake (same core; microarchitecture.md §1)" },
    F {
        cpu: "icelake-server",
        cycles: 0.58,
        unrenamed: 5.0,
        source: "uarch-bench studies/forwarding, Ice Lake (Sunny Cove) GPR chain 0.58, xmm (not renamed) chain 5.00 (microarchitecture.md §1)",
    },
    F { cpu: "rocketlake", cycles: 0.58, unrenamed: 5.0, source: "as icelake-server (shares its LLVM model, ground-truth.md §3) [assumed]" },
    F {
        cpu: "sapphirerapids",
        cycles: 0.7,
        unrenamed: 5.0,
        source: "store-to-load chain 0.7 measured loop-only on the project's Sapphire-Rapids-class host (ground-truth.md §3); unrenamed as Ice Lake's 5.00 [assumed]",
    },
    F { cpu: "graniterapids", cycles: 0.7, unrenamed: 5.0, source: "as sapphirerapids (shares its LLVM model; ground-truth.md §3) [assumed]" },
    F { cpu: "alderlake", cycles: 0.7, unrenamed: 5.0, source: "Golden Cove P-core, as sapphirerapids [assumed]" },
    F { cpu: "raptorlake", cycles: 0.7, unrenamed: 5.0, source: "as alderlake (shares its LLVM model) [assumed]" },
    F { cpu: "znver2", cycles: 1.0, unrenamed: 8.0, source: "uarch-bench studies/forwarding, Zen 2 GPR chain 1.00, xmm (not renamed) chain 8.01 (microarchitecture.md §1)" },
    F {
        cpu: "znver3",
        cycles: 1.0,
        unrenamed: 8.0,
        source: "Zen 3 push/pop chain 1.00 (microarchitecture.md §1), memory renaming (Agner Fog); unrenamed as Zen 2's 8.01 [assumed]",
    },
    F {
        cpu: "znver4",
        cycles: 1.0,
        unrenamed: 8.0,
        source: "as Zen 3 [assumed]; measured here on a Zen 4 VM with `hotloops model`'s harness: mov reload ~0-0.1, movsxd reload ~8.3 cycles a link",
    },
    F { cpu: "znver5", cycles: 1.0, unrenamed: 8.0, source: "as Zen 4 [assumed]" },
    // Arm: published measurements of a 64-bit `str` and a chained `ldr` of the same address
    // (ocxtal/insn_bench_aarch64, src/store.cc `bench_store_to_load`, "str -> ldr (ofs = 0 ->
    // ofs = 0)", latency column; results at commit 5145ffc). None is near the 0-1 cycles of a
    // renamed link, so the plain and the unrenamed figure are the one measurement.
    F {
        cpu: "neoverse-n1",
        cycles: 5.50,
        unrenamed: 5.50,
        source: "ocxtal/insn_bench_aarch64 5145ffc results/aws_graviton2.md: `str -> ldr (ofs = 0 -> ofs = 0)` 5.50 cycles on AWS Graviton 2 \
                 (Neoverse N1); 5.49 on Ampere Altra (N1, results/gcp_ampere_altra.md) [published measurement]",
    },
    F {
        cpu: "neoverse-v1",
        cycles: 4.55,
        unrenamed: 4.55,
        source: "ocxtal/insn_bench_aarch64 5145ffc results/aws_graviton3.md: `str -> ldr (ofs = 0 -> ofs = 0)` 4.55 cycles on AWS Graviton 3 \
                 (Neoverse V1) [published measurement]",
    },
    F {
        cpu: "apple-m1",
        cycles: 5.82,
        unrenamed: 5.82,
        source: "ocxtal/insn_bench_aarch64 5145ffc results/apple_m1_firestorm.md: `str -> ldr (ofs = 0 -> ofs = 0)` 5.82 cycles on the M1's \
                 Firestorm core [published measurement]",
    },
];

/// Cores `hotloops model` predicts that have no cited store-to-load forwarding figure: their
/// memory recurrences are listed but not costed (not assumed zero, not assumed Skylake's).
pub const NO_FORWARDING_FIGURE: &[(&str, &str)] = &[
    (
        "neoverse-v2",
        "no published figure found: Arm's Neoverse V2 software optimization guide (PJDOC-466751330-593177) could not be read from this \
         project's machines, and the measurement used for N1 and V1 (insn_bench_aarch64) has no Graviton 4 / V2 result",
    ),
    (
        "ampere1",
        "no published figure found for AmpereOne (Ampere's own core; no Arm guide covers it, insn_bench_aarch64 has no result for it)",
    ),
];

use Forwarding as F;

/// A core's cost of a reload store forwarding cannot serve (a load reading bytes of two
/// stores, or wider than its store): the load waits until the stores have left the store
/// buffer for L1, and such loads do not overlap one another even when nothing depends on
/// them (the throughput domain).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct FailedForward {
    /// llvm-mca CPU name.
    pub cpu: &'static str,
    /// Cycles a failed reload costs a trip.
    pub cycles: f64,
    /// Where the figure comes from.
    pub source: &'static str,
}

/// The measurement behind [`FAILED_FORWARD`]: the same uarch-bench study as [`FORWARDING`]'s
/// chains (`studies/forwarding`, run by Travis Downs on five cores and published with the
/// chain figures used above).
pub const FAILED_FORWARD_STUDY: &str = "uarch-bench studies/forwarding `fw_split_write_read` (`mov [rsp], rax; mov [rsp + 8], rax; \
     vmovdqa xmm0, [rsp]` repeated, nothing depending on the load: two stores then one reload spanning both), Travis Downs, \
     gist.github.com/travisdowns/bc9af3a0aaca5399824cf182f85b9e9c: \"split writes followed by [wider] reads cannot execute faster \
     than ~14 cycles on any CPU, even when they are independent\"";

/// Cycles a failed forward costs a trip, per llvm-mca CPU name (see [`FAILED_FORWARD_STUDY`]).
pub const FAILED_FORWARD: &[FailedForward] = &[
    FailedForward { cpu: "haswell", cycles: 14.90, source: "fw_split_write_read, Haswell i7-4770" },
    FailedForward { cpu: "skylake", cycles: 14.00, source: "fw_split_write_read, Skylake i7-6700HQ" },
    FailedForward { cpu: "skylake-avx512", cycles: 14.00, source: "as skylake (same core) [assumed]" },
    FailedForward { cpu: "icelake-server", cycles: 17.01, source: "fw_split_write_read, Ice Lake i5-1035" },
    FailedForward { cpu: "rocketlake", cycles: 17.01, source: "as icelake-server (shares its LLVM model) [assumed]" },
    FailedForward { cpu: "sapphirerapids", cycles: 17.01, source: "as Ice Lake (no Golden Cove figure published) [assumed]" },
    FailedForward { cpu: "graniterapids", cycles: 17.01, source: "as sapphirerapids [assumed]" },
    FailedForward { cpu: "alderlake", cycles: 17.01, source: "as Ice Lake (no Golden Cove figure published) [assumed]" },
    FailedForward { cpu: "raptorlake", cycles: 17.01, source: "as alderlake [assumed]" },
    FailedForward { cpu: "znver2", cycles: 21.04, source: "fw_split_write_read, Zen 2 EPYC 7262" },
    FailedForward { cpu: "znver3", cycles: 21.04, source: "as Zen 2 (no Zen 3 figure published) [assumed]" },
    FailedForward {
        cpu: "znver4",
        cycles: 21.04,
        source: "as Zen 2 [assumed]; `hotloops model` measures the same pattern on the host it runs on and prints it beside",
    },
    FailedForward { cpu: "znver5", cycles: 21.04, source: "as Zen 4 [assumed]" },
];

/// The failed-forward cost of `cpu`, if the table has it (the Arm cores have none).
pub fn failed_forward(cpu: &str) -> Option<&'static FailedForward> {
    FAILED_FORWARD.iter().find(|f| f.cpu == cpu)
}

/// Cycles a trip `failures` failed reloads cost on `cpu` (each a full stall: they do not
/// overlap), or None without a figure for the core or without failures.
pub fn stall_cycles(failures: usize, cpu: &str) -> Option<f64> {
    (failures > 0).then(|| failed_forward(cpu).map(|f| failures as f64 * f.cycles)).flatten()
}

/// The forwarding latency of `cpu`, if the table has it.
pub fn forwarding(cpu: &str) -> Option<&'static Forwarding> {
    FORWARDING.iter().find(|f| f.cpu == cpu)
}

/// A loop-carried chain through one memory slot.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Recurrence {
    /// The slot as written in the loop (`[r13 + 132]`; stack slots relative to RSP at the
    /// loop's head).
    pub slot: String,
    /// Store-to-load links a trip.
    pub links: usize,
    /// Dependent ALU operations on the chain a trip (the `inc` of `inc [m]`).
    pub alu_ops: usize,
    /// Whether every reload on the chain is a plain load of the stored width (which memory
    /// renaming can serve); a `movsxd` or narrower/wider reload is forwarded the slow way.
    pub renamable: bool,
    /// The instructions touching the slot, in path order.
    pub insns: Vec<String>,
}

impl Recurrence {
    /// Cycles a trip the chain needs at `fwd` cycles a link.
    pub fn cycles(&self, fwd: f64) -> f64 {
        self.links as f64 * fwd + self.alu_ops as f64
    }

    /// Cycles a trip on a core with forwarding costs `f`.
    pub fn cycles_on(&self, f: &Forwarding) -> f64 {
        self.cycles(if self.renamable { f.cycles } else { f.unrenamed })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ev {
    Load,
    Store,
    Rmw,
}

/// Is `op` a move whose result costs no ALU operation (move elimination, loads)?
fn is_move(op: &str) -> bool {
    matches!(op, "mov" | "movsxd" | "movzx" | "movsx")
}

/// Where RSP and a frame pointer stand before each instruction of an x86-64 path, as offsets
/// from RSP at the loop's head: push/pop/call/ret, `sub/add rsp, N`, and gcc's frames (`push
/// rbp; mov rbp, rsp ... leave`, or clang's `... pop rbp`), so that `[rbp - d]` is a stack slot
/// like `[rsp + d]`.
struct StackTrack {
    /// RSP before instruction k.
    rsp: Vec<i64>,
    /// The frame pointer before instruction k, where RBP holds one.
    rbp: Vec<Option<i64>>,
    /// Whether RSP is known throughout (no write of it other than those above).
    rsp_ok: bool,
}

fn stack_track(path: &[PathInsn]) -> StackTrack {
    let mut t = StackTrack { rsp: Vec::with_capacity(path.len()), rbp: Vec::with_capacity(path.len()), rsp_ok: true };
    let (mut off, mut fp) = (0i64, None::<i64>);
    // The frame pointer each `push rbp` saved, by slot.
    let mut saved: HashMap<i64, Option<i64>> = HashMap::new();
    for (k, p) in path.iter().enumerate() {
        t.rsp.push(off);
        t.rbp.push(fp);
        let i = &p.insn;
        let ops = regs::operands(&i.args);
        let args = i.args.trim();
        match i.op.as_str() {
            "call" if !super::block::enters_helper(path, k) => {}
            "push" => {
                off -= 8;
                if args == "rbp" {
                    saved.insert(off, fp);
                }
            }
            "call" => off -= 8,
            "pop" => {
                if args == "rbp" {
                    fp = saved.get(&off).copied().flatten();
                }
                off += 8;
            }
            "ret" => off += 8,
            "leave" => match fp {
                Some(f) => {
                    fp = saved.get(&f).copied().flatten();
                    off = f + 8;
                }
                None => t.rsp_ok = false,
            },
            "mov" if args == "rbp, rsp" => fp = Some(off),
            "mov" if args == "rsp, rbp" => match fp {
                Some(f) => off = f,
                None => t.rsp_ok = false,
            },
            "sub" | "add" if ops.first().map(String::as_str) == Some("rsp") => match ops.get(1).and_then(|v| v.parse::<i64>().ok()) {
                Some(n) => off += if i.op == "sub" { -n } else { n },
                None => t.rsp_ok = false,
            },
            _ => {
                let w = effects(i).writes;
                if w.contains(&"rsp") {
                    t.rsp_ok = false;
                }
                if w.contains(&"rbp") {
                    fp = None;
                }
            }
        }
    }
    t
}

/// Find the loop-carried chains through memory in one trip of a steady path.
pub fn detect(path: &[PathInsn]) -> Vec<Recurrence> {
    if Isa::of_insns(path.iter().map(|p| &p.insn)) == Isa::Aarch64 {
        return detect_a64(path);
    }
    // RSP (and frame pointer) offsets before each instruction; bases any other instruction
    // writes change around the loop and are not slots.
    let st = stack_track(path);
    let written: BTreeSet<&'static str> = path
        .iter()
        .filter(|p| !matches!(p.insn.op.as_str(), "push" | "pop" | "call" | "ret" | "leave"))
        .flat_map(|p| effects(&p.insn).writes)
        .filter(|w| *w != "rsp")
        .collect();
    // Slot key of a memory operand at instruction k (a frame-pointer slot is a stack slot).
    let key = |operand: &str, k: usize| -> Option<(String, i64)> {
        let (base, disp) = simple_mem(operand)?;
        match (base, st.rbp[k]) {
            ("rsp", _) => st.rsp_ok.then(|| ("rsp".to_string(), disp + st.rsp[k])),
            ("rbp", Some(f)) => st.rsp_ok.then(|| ("rsp".to_string(), disp + f)),
            _ => (!written.contains(base)).then(|| (base.to_string(), disp)),
        }
    };
    // Events per slot, skipping the stack traffic of push/pop/call/ret (saved registers and
    // return addresses are stored before they are reloaded in the same trip).
    let mut events: BTreeMap<(String, i64), Vec<(usize, Ev)>> = BTreeMap::new();
    for (k, p) in path.iter().enumerate() {
        if matches!(p.insn.op.as_str(), "push" | "pop" | "call" | "ret" | "leave") {
            continue;
        }
        let e = effects(&p.insn);
        let ld: BTreeSet<_> = e.loads.iter().filter_map(|o| key(o, k)).collect();
        let st: BTreeSet<_> = e.stores.iter().filter_map(|o| key(o, k)).collect();
        for s in ld.union(&st) {
            let ev = match (ld.contains(s), st.contains(s)) {
                (true, true) => Ev::Rmw,
                (true, false) => Ev::Load,
                _ => Ev::Store,
            };
            events.entry(s.clone()).or_default().push((k, ev));
        }
    }
    let mut out = vec![];
    for ((base, disp), evs) in events {
        // Loop-carried: the trip's first access reads the slot, and something stores it.
        if !matches!(evs[0].1, Ev::Load | Ev::Rmw) || !evs.iter().any(|e| matches!(e.1, Ev::Store | Ev::Rmw)) {
            continue;
        }
        // Taint from the slot's loads; a store of a tainted value (or an RMW) is a link. Each
        // taint carries the loads it came from: the reloads on the chain, whose form decides
        // whether the core can rename the link (a reload whose value only feeds an address is
        // off the chain: c-store-each's `movsxd rax, [rbx + 132]` beside its `add [rbx + 132], 1`).
        let at: HashMap<usize, Ev> = evs.iter().copied().collect();
        let mut taint: HashMap<&'static str, (usize, BTreeSet<usize>)> = HashMap::new();
        let mut links = vec![];
        let mut chain_loads: BTreeSet<usize> = BTreeSet::new();
        let mut last_store_linked = false;
        for (k, p) in path.iter().enumerate() {
            let e = effects(&p.insn);
            let src: Vec<&(usize, BTreeSet<usize>)> = e.reads.iter().filter_map(|r| taint.get(r)).collect();
            let src_alu = src.iter().map(|t| t.0).max();
            let src_loads: BTreeSet<usize> = src.iter().flat_map(|t| t.1.iter().copied()).collect();
            match at.get(&k) {
                Some(Ev::Rmw) => {
                    links.push(1 + src_alu.unwrap_or(0));
                    chain_loads.insert(k);
                    chain_loads.extend(src_loads);
                    last_store_linked = true;
                    continue;
                }
                Some(Ev::Store) => {
                    match src_alu {
                        Some(a) => {
                            links.push(a);
                            chain_loads.extend(src_loads);
                            last_store_linked = true;
                        }
                        None => last_store_linked = false,
                    }
                    continue;
                }
                Some(Ev::Load) => {
                    for w in &e.writes {
                        taint.insert(w, (0, BTreeSet::from([k])));
                    }
                    continue;
                }
                None => {}
            }
            match src_alu {
                Some(a) => {
                    let cost = if is_move(&p.insn.op) && e.loads.is_empty() {
                        0
                    } else if !e.loads.is_empty() {
                        5
                    } else {
                        1
                    };
                    for w in &e.writes {
                        taint.insert(w, (a + cost, src_loads.clone()));
                    }
                }
                None => {
                    for w in &e.writes {
                        taint.remove(w);
                    }
                }
            }
        }
        if links.is_empty() || !last_store_linked {
            continue;
        }
        let width = |k: usize| -> Option<i64> {
            let e = effects(&path[k].insn);
            e.loads.iter().chain(e.stores.iter()).find(|o| key(o, k).as_ref().is_some_and(|x| x.0 == base && x.1 == disp)).map(|o| regs::mem_size(o))
        };
        let store_w: BTreeSet<i64> = evs.iter().filter(|e| e.1 != Ev::Load).filter_map(|e| width(e.0)).collect();
        let renamable = evs.iter().filter(|(k, _)| chain_loads.contains(k)).all(|&(k, ev)| {
            let op = path[k].insn.op.as_str();
            let plain = matches!(op, "mov" | "cmp" | "test" | "add" | "sub" | "inc" | "dec" | "and" | "or" | "xor");
            ev == Ev::Store || (plain && width(k).is_some_and(|w| store_w.len() == 1 && store_w.contains(&w)))
        });
        let slot = if disp == 0 { format!("[{base}]") } else if disp < 0 { format!("[{base} - {}]", -disp) } else { format!("[{base} + {disp}]") };
        out.push(Recurrence {
            slot,
            links: links.len(),
            alu_ops: links.iter().sum::<usize>(),
            renamable,
            insns: evs.iter().map(|&(k, _)| format!("{} {}", path[k].insn.op, path[k].insn.args)).collect(),
        });
    }
    out
}

/// Reloads in one trip that store-to-load forwarding cannot serve: a load whose bytes were
/// last written by more than one store, or by a narrower store (a failed forward costs ~10-20
/// cycles of latency on every core here; llvm-mca does not model it). Stack slots are tracked
/// through push/pop/call/ret as in [`detect`]; the pushes and pops themselves count.
pub fn forwarding_failures(path: &[PathInsn]) -> Vec<String> {
    if Isa::of_insns(path.iter().map(|p| &p.insn)) == Isa::Aarch64 {
        return forwarding_failures_a64(path);
    }
    // (base, start, end, instruction index) of every store so far in the trip.
    let mut stores: Vec<(&'static str, i64, i64, usize)> = vec![];
    let mut written: BTreeSet<&'static str> = BTreeSet::new();
    let track = stack_track(path);
    let mut out = vec![];
    let text = |k: usize| format!("{} {}", path[k].insn.op, path[k].insn.args).trim().to_string();
    for (k, p) in path.iter().enumerate() {
        let i = &p.insn;
        let off = track.rsp[k];
        let mut loads: Vec<(&'static str, i64, i64)> = vec![];
        let mut st: Vec<(&'static str, i64, i64)> = vec![];
        let e = effects(i);
        // A frame-pointer slot is a stack slot.
        let resolve = |o: &str| -> Option<(&'static str, i64, i64)> {
            let (b, d) = simple_mem(o)?;
            let (b, d) = match (b, track.rbp[k]) {
                ("rsp", _) => ("rsp", d + off),
                ("rbp", Some(f)) => ("rsp", d + f),
                _ => (b, d),
            };
            (b == "rsp" || !written.contains(b)).then(|| (b, d, d + regs::mem_size(o)))
        };
        match i.op.as_str() {
            "push" => st.push(("rsp", off - 8, off)),
            "pop" => loads.push(("rsp", off, off + 8)),
            // `leave`'s pop of RBP, at the frame pointer.
            "leave" => loads.extend(track.rbp[k].map(|f| ("rsp", f, f + 8))),
            "call" | "ret" => {}
            _ => {
                loads.extend(e.loads.iter().filter_map(|o| resolve(o)));
                st.extend(e.stores.iter().filter_map(|o| resolve(o)));
            }
        }
        for (b, s0, s1) in loads {
            // The stores that wrote these bytes last, newest first.
            let mut covering: Vec<usize> = vec![];
            let mut bytes: Vec<bool> = vec![false; (s1 - s0) as usize];
            for &(sb, t0, t1, sk) in stores.iter().rev() {
                if sb != b || t1 <= s0 || s1 <= t0 {
                    continue;
                }
                let mut fresh = false;
                for x in t0.max(s0)..t1.min(s1) {
                    let slot = &mut bytes[(x - s0) as usize];
                    if !*slot {
                        *slot = true;
                        fresh = true;
                    }
                }
                if fresh {
                    covering.push(sk);
                }
            }
            let served = match covering.as_slice() {
                [] => true,
                [one] => stores.iter().any(|&(sb, t0, t1, sk)| sk == *one && sb == b && t0 <= s0 && s1 <= t1),
                _ => false,
            };
            if !served {
                let by: Vec<String> = covering.iter().rev().map(|&sk| text(sk)).collect();
                out.push(format!("`{}` reads bytes last written by {} ({}): store forwarding fails", text(k), by.len(), by.join("; ")));
            }
        }
        for (b, t0, t1) in st {
            stores.push((b, t0, t1, k));
        }
        if !matches!(i.op.as_str(), "push" | "pop" | "call" | "ret" | "leave") {
            written.extend(e.writes.iter().copied().filter(|w| *w != "rsp"));
        }
    }
    out
}

/// The `sp` offset (from the loop head's) before each instruction of an AArch64 path, and
/// whether it is known throughout (a write to `sp` other than an immediate update loses it).
fn a64_sp_offsets(path: &[PathInsn]) -> (Vec<i64>, bool) {
    let mut off = 0i64;
    let mut ok = true;
    let mut offs = Vec::with_capacity(path.len());
    for p in path {
        offs.push(off);
        let i = &p.insn;
        let ops = regs::operands(&i.args);
        let refs: Vec<&str> = ops.iter().map(String::as_str).collect();
        match a64_mem(&refs) {
            Some((b, _, moves, _)) if b == "sp" && moves != 0 => off += moves,
            _ if matches!(i.op.as_str(), "sub" | "add") && ops.len() == 3 && ops[0] == "sp" && ops[1] == "sp" => match ops[2].parse::<i64>() {
                Ok(n) => off += if i.op == "sub" { -n } else { n },
                Err(_) => ok = false,
            },
            _ => {
                if regs::a64_effects(i).writes.contains(&"sp") {
                    ok = false;
                }
            }
        }
    }
    (offs, ok)
}

/// Slot key of an AArch64 access at instruction `k`: `sp`-based slots relative to the loop
/// head's `sp`; other bases only if the loop never writes them.
fn a64_key(base: &str, disp: i64, k: usize, offs: &[i64], sp_ok: bool, written: &BTreeSet<&'static str>) -> Option<(String, i64)> {
    if base == "sp" {
        sp_ok.then(|| ("sp".to_string(), disp + offs[k]))
    } else {
        let fam = regs::a64_reg(base)?;
        (!written.contains(fam)).then(|| (base.to_string(), disp))
    }
}

/// [`detect`] for AArch64.
fn detect_a64(path: &[PathInsn]) -> Vec<Recurrence> {
    let (offs, sp_ok) = a64_sp_offsets(path);
    let written: BTreeSet<&'static str> = path.iter().flat_map(|p| regs::a64_effects(&p.insn).writes).filter(|w| *w != "sp").collect();
    // (slot) -> [(instruction, event, width)]
    let mut events: BTreeMap<(String, i64), Vec<(usize, Ev, i64)>> = BTreeMap::new();
    for (k, p) in path.iter().enumerate() {
        for a in a64_accesses(&p.insn) {
            let Some(key) = a64_key(&a.base, a.disp, k, &offs, sp_ok, &written) else { continue };
            let ev = if a.load { Ev::Load } else { Ev::Store };
            events.entry(key).or_default().push((k, ev, a.size));
        }
    }
    let mut out = vec![];
    for ((base, disp), evs) in events {
        if evs[0].1 != Ev::Load || !evs.iter().any(|e| e.1 == Ev::Store) {
            continue;
        }
        let at: HashMap<usize, Ev> = evs.iter().map(|e| (e.0, e.1)).collect();
        let mut taint: HashMap<&'static str, usize> = HashMap::new();
        let mut links = vec![];
        let mut last_store_linked = false;
        for (k, p) in path.iter().enumerate() {
            let e = regs::a64_effects(&p.insn);
            match at.get(&k) {
                Some(Ev::Store) => {
                    // The stored value's register(s): what precedes the memory operand.
                    let data: Vec<&'static str> =
                        regs::operands(&p.insn.args).iter().take_while(|o| !o.contains('[')).filter_map(|o| regs::a64_reg(o)).collect();
                    match data.iter().filter_map(|r| taint.get(r).copied()).max() {
                        Some(a) => {
                            links.push(a);
                            last_store_linked = true;
                        }
                        None => last_store_linked = false,
                    }
                    continue;
                }
                Some(Ev::Load) => {
                    for w in e.writes.iter().filter(|w| **w != "sp") {
                        taint.insert(w, 0);
                    }
                    continue;
                }
                _ => {}
            }
            match e.reads.iter().filter_map(|r| taint.get(r).copied()).max() {
                Some(a) => {
                    let cost = if p.insn.op == "mov" && e.loads.is_empty() {
                        0
                    } else if !e.loads.is_empty() {
                        5
                    } else {
                        1
                    };
                    for w in &e.writes {
                        taint.insert(w, a + cost);
                    }
                }
                None => {
                    for w in &e.writes {
                        taint.remove(w);
                    }
                }
            }
        }
        if links.is_empty() || !last_store_linked {
            continue;
        }
        let store_w: BTreeSet<i64> = evs.iter().filter(|e| e.1 == Ev::Store).map(|e| e.2).collect();
        // A reload renaming could serve: a plain (not sign-extending) load of the stored width.
        let renamable = evs.iter().all(|&(k, ev, w)| {
            let op = path[k].insn.op.as_str();
            ev == Ev::Store || (matches!(op, "ldr" | "ldur" | "ldrh" | "ldrb" | "ldp") && store_w.len() == 1 && store_w.contains(&w))
        });
        out.push(Recurrence {
            slot: if disp == 0 { format!("[{base}]") } else { format!("[{base}, {disp}]") },
            links: links.len(),
            alu_ops: links.iter().sum::<usize>(),
            renamable,
            insns: {
                let mut ks: Vec<usize> = evs.iter().map(|e| e.0).collect();
                ks.dedup();
                ks.iter().map(|&k| format!("{} {}", path[k].insn.op, path[k].insn.args)).collect()
            },
        });
    }
    out
}

/// [`forwarding_failures`] for AArch64: a load whose bytes more than one store (or a narrower
/// one) of the trip last wrote.
fn forwarding_failures_a64(path: &[PathInsn]) -> Vec<String> {
    let (offs, sp_ok) = a64_sp_offsets(path);
    let mut stores: Vec<(String, i64, i64, usize)> = vec![];
    let mut written: BTreeSet<&'static str> = BTreeSet::new();
    let mut out = vec![];
    let text = |i: &Insn| format!("{} {}", i.op, i.args).trim().to_string();
    for (k, p) in path.iter().enumerate() {
        let acc = a64_accesses(&p.insn);
        for a in acc.iter().filter(|a| a.load) {
            let Some((b, s0)) = a64_key(&a.base, a.disp, k, &offs, sp_ok, &written) else { continue };
            let s1 = s0 + a.size;
            let mut covering: Vec<usize> = vec![];
            let mut bytes = vec![false; a.size as usize];
            for (sb, t0, t1, sk) in stores.iter().rev() {
                if *sb != b || *t1 <= s0 || s1 <= *t0 {
                    continue;
                }
                let mut fresh = false;
                for x in (*t0).max(s0)..(*t1).min(s1) {
                    let slot = &mut bytes[(x - s0) as usize];
                    if !*slot {
                        *slot = true;
                        fresh = true;
                    }
                }
                if fresh && !covering.contains(sk) {
                    covering.push(*sk);
                }
            }
            let served = match covering.as_slice() {
                [] => true,
                [one] => stores.iter().any(|(sb, t0, t1, sk)| sk == one && *sb == b && *t0 <= s0 && s1 <= *t1),
                _ => false,
            };
            if !served {
                let by: Vec<String> = covering.iter().rev().map(|&sk| text(&path[sk].insn)).collect();
                out.push(format!("`{}` reads bytes last written by {} ({}): store forwarding fails", text(&p.insn), by.len(), by.join("; ")));
            }
        }
        for a in acc.iter().filter(|a| a.store) {
            if let Some((b, t0)) = a64_key(&a.base, a.disp, k, &offs, sp_ok, &written) {
                stores.push((b, t0, t0 + a.size, k));
            }
        }
        written.extend(regs::a64_effects(&p.insn).writes.into_iter().filter(|w| *w != "sp"));
    }
    out
}

/// The longest chain of `recs` at `cpu`'s forwarding cost (None if no table entry).
pub fn chain_cycles(recs: &[Recurrence], cpu: &str) -> Option<f64> {
    let f = forwarding(cpu)?;
    Some(recs.iter().map(|r| r.cycles_on(f)).fold(0.0, f64::max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::structure::Insn;

    fn path(text: &str) -> Vec<PathInsn> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let t = l.trim();
                let (op, args) = t.split_once(' ').unwrap_or((t, ""));
                PathInsn { insn: Insn { op: op.into(), args: args.trim().into() }, symbol: "f".into(), depth: 0, taken: None }
            })
            .collect()
    }

    #[test]
    fn inc_through_memory_is_one_link() {
        let p = path("mov eax, dword ptr [r13 + 132]\ncmp eax, dword ptr [r13 + 128]\njle .L2\ncdqe\nmov edx, dword ptr [rsi + 2*rax]\ninc rbp\ninc dword ptr [r13 + 132]");
        let r = detect(&p);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].slot, "[r13 + 132]");
        assert_eq!((r[0].links, r[0].alu_ops), (1, 1));
        assert!(r[0].renamable);
        assert!((r[0].cycles(4.43) - 5.43).abs() < 1e-9);
    }

    #[test]
    fn load_increment_store_is_one_link() {
        let p = path("movsxd r14, dword ptr [rbp + 132]\ncmp r14d, dword ptr [rbp + 128]\ninc r14d\nmov dword ptr [rbp + 132], r14d");
        let r = detect(&p);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].links, r[0].alu_ops), (1, 1));
        // A sign-extending reload is not renamed: the slow forwarding cost applies.
        assert!(!r[0].renamable);
        let z3 = forwarding("znver3").unwrap();
        assert!((r[0].cycles_on(z3) - 9.0).abs() < 1e-9);
        let p = path("mov eax, dword ptr [rbp + 132]\ninc eax\nmov dword ptr [rbp + 132], eax");
        assert!(detect(&p)[0].renamable);
    }

    #[test]
    fn a_reload_off_the_chain_does_not_make_it_unrenamable() {
        // gcc12-pg's c-store-each: the sign-extending reload only indexes the copy; the chain is
        // the `add [m], 1`, a plain read-modify-write.
        let p = path("movsxd rax, dword ptr [rbx + 132]\ncmp eax, dword ptr [rbx + 128]\nlea rax, [rbx + 2*rax + 128]\nmov esi, dword ptr [rax + 8]\nadd dword ptr [rbx + 132], 1");
        let r = detect(&p);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].renamable, "{r:?}");
        // The same reload feeding the store is on the chain.
        let p = path("movsxd rax, dword ptr [rbx + 132]\nlea eax, [rax + 1]\nmov dword ptr [rbx + 132], eax");
        assert!(!detect(&p)[0].renamable);
    }

    #[test]
    fn no_chain_when_the_base_moves_or_the_value_is_fresh() {
        // The base changes every trip: different addresses.
        assert!(detect(&path("mov eax, dword ptr [rbx + 4]\ninc eax\nmov dword ptr [rbx + 4], eax\nadd rbx, 16")).is_empty());
        // The stored value does not come from the load.
        assert!(detect(&path("mov eax, dword ptr [rbx + 4]\nmov dword ptr [rbx + 4], ecx")).is_empty());
        // Stored before it is loaded: forwarding inside one trip, not carried.
        assert!(detect(&path("mov dword ptr [rbx + 4], ecx\nmov eax, dword ptr [rbx + 4]\ninc eax")).is_empty());
        // Indexed addresses are not slots.
        assert!(detect(&path("mov eax, dword ptr [rbx + 2*rcx]\ninc eax\nmov dword ptr [rbx + 2*rcx], eax")).is_empty());
    }

    #[test]
    fn a_reload_spanning_two_stores_cannot_be_forwarded() {
        let p = path("push rax\nmov dword ptr [rsp + 4], ecx\nmov ecx, dword ptr [rsp + 4]\npop rcx\nret");
        let f = forwarding_failures(&p);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("`pop rcx`") && f[0].contains("by 2"), "{f:?}");
        // A reload of exactly what was stored forwards fine.
        assert!(forwarding_failures(&path("push rbx\nmov dword ptr [rsp + 4], ecx\nmov eax, dword ptr [rsp + 4]\nadd rsp, 8")).is_empty());
        // A wider reload of a narrower store fails.
        assert_eq!(forwarding_failures(&path("mov word ptr [rbx + 8], ax\nmov ecx, dword ptr [rbx + 8]")).len(), 1);
    }

    #[test]
    fn frame_pointer_slots_are_stack_slots() {
        // gcc12-pg's checkkeys: the canary saved at [rbp - 8] and reloaded whole forwards; a
        // reload of it wider than what was stored does not.
        let ok = path("push rbp\nmov rbp, rsp\nsub rsp, 16\nmov qword ptr [rbp - 8], rax\nmov dword ptr [rbp - 12], ecx\nmov rdx, qword ptr [rbp - 8]\nleave\nret");
        assert!(forwarding_failures(&ok).is_empty(), "{:?}", forwarding_failures(&ok));
        let bad = path("push rbp\nmov rbp, rsp\nsub rsp, 16\nmov dword ptr [rbp - 8], eax\nmov rdx, qword ptr [rbp - 8]\nleave\nret");
        let f = forwarding_failures(&bad);
        assert_eq!(f.len(), 1, "{f:?}");
        // The same slot through RSP: `[rsp + 8]` after the sub is `[rbp - 8]`.
        let via_rsp = path("push rbp\nmov rbp, rsp\nsub rsp, 16\nmov dword ptr [rsp + 8], eax\nmov rdx, qword ptr [rbp - 8]\nleave\nret");
        assert_eq!(forwarding_failures(&via_rsp).len(), 1);
        // `leave` ends the frame where it began: a push after it lands where the caller's would.
        let t = stack_track(&path("push rbp\nmov rbp, rsp\nsub rsp, 16\nleave\npush rbx"));
        assert_eq!((t.rsp[4], t.rbp[3], t.rsp_ok), (0, Some(-8), true));
    }

    #[test]
    fn aarch64_reload_increment_store_is_one_link() {
        // gcc 12's arm64 c-store-each: the cursor reloaded after the TID stores, incremented,
        // stored; lastItem reloaded at the head.
        let p = path("ldr w2, [x19, 128]\ncmp w3, w2\nble .L1\nldr w1, [x3, 136]\nstr w1, [x0]\nldrh w1, [x3, 140]\nstrh w1, [x0, 4]\nldr w3, [x19, 132]\nadd w3, w3, 1\nstr w3, [x19, 132]\nb .L0");
        let r = detect(&p);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].slot, "[x19, 132]");
        assert_eq!((r[0].links, r[0].alu_ops), (1, 1));
        assert!(r[0].renamable);
        assert!((r[0].cycles_on(forwarding("neoverse-n1").unwrap()) - 6.5).abs() < 1e-9);
        // The cursor in a register: no chain.
        assert!(detect(&path("ldr w1, [x3, 136]\nstr w1, [x0]\nadd w3, w3, 1\ncmp w3, w2\nble .L0")).is_empty());
        // Saves and restores of a helper's frame, sp moved by pre/post-index: not chains.
        assert!(detect(&path("stp x29, x30, [sp, -32]!\nldr x6, [x0, 56]\nstr w1, [sp, 20]\nldr w1, [sp, 20]\nldp x29, x30, [sp], 32\nadd x0, x0, 1")).is_empty());
        // A base the loop moves is no slot.
        assert!(detect(&path("ldr w1, [x3, 4]\nadd w1, w1, 1\nstr w1, [x3, 4]\nadd x3, x3, 16")).is_empty());
    }

    #[test]
    fn aarch64_forwarding_failures() {
        assert!(forwarding_failures(&path("stp x29, x30, [sp, -32]!\nstr w1, [sp, 20]\nldr w2, [sp, 20]\nldp x29, x30, [sp], 32")).is_empty());
        let f = forwarding_failures(&path("strh w1, [x19, 8]\nstrh w2, [x19, 10]\nldr w3, [x19, 8]"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].contains("by 2"), "{f:?}");
    }

    #[test]
    fn saved_registers_are_not_chains() {
        assert!(detect(&path("push rbx\nmov rbx, qword ptr [rdi]\npop rbx\nret\ninc rcx")).is_empty());
    }

    #[test]
    fn failed_forwards_cost_a_full_stall_each_where_a_figure_is_cited() {
        assert_eq!(stall_cycles(1, "znver4"), Some(21.04));
        assert_eq!(stall_cycles(2, "skylake"), Some(28.0));
        assert_eq!(stall_cycles(0, "skylake"), None);
        assert_eq!(stall_cycles(1, "neoverse-n1"), None, "no cited figure for an Arm core: listed, not costed");
        for cpu in super::super::DEFAULT_CPUS {
            let f = failed_forward(cpu).unwrap_or_else(|| panic!("{cpu}: no failed-forward figure"));
            // A failed forward costs more than any forwarded link of the same core.
            assert!(f.cycles > forwarding(cpu).unwrap().unrenamed && !f.source.is_empty(), "{f:?}");
        }
    }

    #[test]
    fn every_table_entry_cites_a_source() {
        for f in FORWARDING {
            assert!(!f.source.is_empty() && f.cycles >= 0.0 && f.cycles <= f.unrenamed && f.unrenamed < 10.0, "{f:?}");
        }
        for cpu in super::super::DEFAULT_CPUS {
            assert!(forwarding(cpu).is_some(), "{cpu} has no forwarding cost");
        }
        // Every default Arm core has a cited figure or says why it has none.
        for cpu in super::super::DEFAULT_ARM_CPUS {
            let why = NO_FORWARDING_FIGURE.iter().find(|n| n.0 == cpu);
            assert!(forwarding(cpu).is_some() != why.is_some(), "{cpu}: a figure, or a reason for none");
        }
    }
}
