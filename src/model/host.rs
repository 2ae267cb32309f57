//! The host side of the model: which llvm-mca CPU model is closest to this CPU, and a
//! PMU-free loop-only measurement of each block.
//!
//! Classification uses CPUID's vendor and family and the ISA features the core has (AMX or
//! AVX512-FP16: a Sapphire-Rapids-class Xeon; the hybrid flag: Alder Lake; AVX-512 with
//! VBMI2: Ice Lake; AVX-512 on AMD family 0x19: Zen 4), not the model number, which a
//! hypervisor may report as something else (this project's Intel host reads model 0xA7). For
//! AMD family 0x19 without AVX-512 the model range decides (0x10-0x1f, 0x60-0x7f, 0xa0-0xaf:
//! Zen 4; else Zen 3), and the name string is printed beside it.
//!
//! Loop-only harness: the rewritten block is assembled (gcc) into a loop of its own in a child
//! process, every branch retargeted to the next instruction so the trip is straight-line. Its
//! memory operands are pointed into a scratch buffer whose every 8 bytes hold a pointer to
//! the buffer's middle: `[rsp + d]` stays (RSP is the buffer); `[r + d]` stays when `r` was
//! just loaded as a 64-bit value from a word no store of the block touches (so it is that
//! pointer, and a pointer chase such as `scan->opaque->dir` keeps its latency); every other
//! address becomes a fixed slot per address expression (so a store and a reload of the same
//! expression, the local-index recurrence, still meet). A PMU-free clock, a chain of
//! dependent `add`s (one cycle a link), is timed in the same process and turns nanoseconds
//! into cycles. What this does not keep: cache misses (all hits), the real branch outcomes and
//! address arithmetic through indexed operands.

use super::regs::{self, GPRS};
use crate::asm::structure::Insn;
use anyhow::{Context, Result, anyhow, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use std::time::{Duration, Instant};

/// What CPUID says, and the llvm-mca model chosen for it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HostCpu {
    /// Vendor string.
    pub vendor: String,
    /// Display family.
    pub family: u32,
    /// Display model (printed, not used for Intel).
    pub model: u32,
    /// Brand string.
    pub name: String,
    /// Hypervisor bit.
    pub hypervisor: bool,
    /// The llvm-mca CPU model closest to this core.
    pub closest: String,
    /// How it was chosen.
    pub how: String,
}

/// Read CPUID (through [`crate::host::cpu`]) and classify.
pub fn host_cpu() -> HostCpu {
    let c = crate::host::cpu::cpu();
    let (closest, how) = classify(&c.vendor, c.family, c.model, &c.name, c.features);
    HostCpu { vendor: c.vendor, family: c.family, model: c.model, name: c.name, hypervisor: c.hypervisor, closest, how }
}

pub use crate::host::cpu::Features;

/// The llvm-mca CPU closest to a core, and how that was decided.
pub fn classify(vendor: &str, family: u32, model: u32, name: &str, f: Features) -> (String, String) {
    let say = |cpu: &str, why: String| (cpu.to_string(), format!("{why}; brand string `{name}`, family {family:#x} model {model:#x}"));
    match vendor {
        "AuthenticAMD" | "HygonGenuine" => match family {
            0x17 => say("znver2", "AMD family 0x17 (Zen/Zen 2; LLVM's nearest modelled: znver2)".into()),
            0x19 if f.avx512f => say("znver4", "AMD family 0x19 with AVX-512 (Zen 4; Zen 3 has none)".into()),
            0x19 if matches!(model, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf) => {
                say("znver4", "AMD family 0x19 in a Zen 4 model range, AVX-512 not exposed".into())
            }
            0x19 => say("znver3", "AMD family 0x19 without AVX-512 (Zen 3)".into()),
            0x1a => say("znver5", "AMD family 0x1a (Zen 5; LLVM 19 uses znver4's model)".into()),
            _ => say("znver3", format!("AMD family {family:#x} not classified: znver3 as a guess")),
        },
        "GenuineIntel" => {
            if f.amx_tile || f.avx512_fp16 {
                say("sapphirerapids", "Intel with AMX/AVX512-FP16 (a Sapphire-Rapids-class Xeon; the model number is not trusted)".into())
            } else if f.hybrid {
                say("alderlake", "Intel hybrid part (Alder/Raptor Lake)".into())
            } else if f.avx512f && f.avx512_vbmi2 {
                say("icelake-server", "Intel with AVX-512 VBMI2, no AMX (Ice Lake class)".into())
            } else if f.avx512f {
                say("skylake-avx512", "Intel with AVX-512F, no VBMI2 (Skylake/Cascade Lake server)".into())
            } else if f.gfni {
                say("alderlake", "Intel with GFNI, no AVX-512 (a Golden Cove client with the hybrid flag hidden)".into())
            } else {
                say("skylake", "Intel without AVX-512 or GFNI (Skylake-class client)".into())
            }
        }
        _ => (String::new(), format!("vendor `{vendor}` has no llvm-mca x86 model")),
    }
}

/// The closest model among those the caller predicts for (the host's own, or a sibling).
pub fn closest_in(host: &str, cpus: &[String]) -> Option<String> {
    if cpus.iter().any(|c| c == host) {
        return Some(host.to_string());
    }
    let sibling = match host {
        "skylake-avx512" | "haswell" => "skylake",
        "graniterapids" => "sapphirerapids",
        "raptorlake" | "arrowlake" => "alderlake",
        "rocketlake" => "icelake-server",
        "znver5" => "znver4",
        "znver2" => "znver3",
        _ => return None,
    };
    cpus.iter().any(|c| c == sibling).then(|| sibling.to_string())
}

/// One block timed on this host.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Measured {
    /// Cycles a trip: the fastest of [`ROUNDS`] processes (each the best of seven runs of the
    /// block over the best of seven of the dependent-add clock).
    pub cycles_per_iter: f64,
    /// The median over those processes (how much the host slowed the others).
    pub median_cycles: f64,
    /// Independent adds a cycle of the throughput probe timed right after the block in the
    /// fastest process ([`PROBE_ADDS`] a trip over four registers): what the core's ALUs gave
    /// this process while the block ran.
    pub probe_ipc: f64,
    /// The best probe figure of any process of this measurement (the core undisturbed).
    pub probe_best_ipc: f64,
    /// The clock: GHz the add chain ran at.
    pub ghz: f64,
    /// Whether the trip counter had to live in memory (no free register).
    pub counter_in_memory: bool,
}

/// Byte ranges `[start, end)` of the stores of the harness block at `[reg + d]`.
fn overlaps(ranges: &[(i64, i64)], start: i64, end: i64) -> bool {
    ranges.iter().any(|&(s, e)| start < e && s < end)
}

/// Resolve addresses through registers that hold a stack address (`lea r8, [rsp + 4]`, then
/// `[r8]` is `[rsp + 4]`; a frame pointer `lea rbp, [rsp - 16]` likewise), so a store and
/// reload through them still meet in the harness. RSP moves inside a trip (`sub/add rsp, N`,
/// the rewrite's `lea rsp, [rbp + d]` for `leave`), so each alias is kept relative to RSP at
/// the block's head; a frame pointer saved to a stack slot and reloaded (a nested frame's
/// `push rbp` ... `pop rbp`) keeps its alias.
/// Also returns, per instruction, RSP minus RSP at the block's head before it runs.
fn resolve_stack_aliases(insns: &[Insn]) -> (Vec<Insn>, Vec<i64>) {
    // Register -> its address minus RSP at the block's head.
    let mut alias: std::collections::HashMap<&'static str, i64> = Default::default();
    // Stack slots (same origin) holding an aliased register's value.
    let mut saved: std::collections::HashMap<i64, i64> = Default::default();
    // RSP minus RSP at the block's head.
    let mut delta = 0i64;
    let mut out = vec![];
    let mut deltas = vec![];
    let at = |o: &str, off: i64| {
        let open = o.find('[').unwrap();
        if off < 0 { format!("{}[rsp - {}]", &o[..open], -off) } else { format!("{}[rsp + {off}]", &o[..open]) }
    };
    for i in insns {
        let ops = regs::operands(&i.args);
        let mapped: Vec<String> = ops
            .iter()
            .map(|o| match regs::simple_mem(o) {
                Some((b, d)) if b != "rsp" && alias.contains_key(b) => at(o, alias[b] + d - delta),
                _ => o.clone(),
            })
            .collect();
        let new = Insn { op: i.op.clone(), args: mapped.join(", ") };
        deltas.push(delta);
        let e = regs::effects(&new);
        let dst = mapped.first().and_then(|r| regs::family(r).filter(|f| *f == r.as_str()));
        // The stack-relative address this instruction puts in its destination register, if any
        // (`lea r, [rsp + d]`, or a copy `mov r, rsp`).
        let lea_off = (new.op == "lea" && mapped.len() == 2)
            .then(|| regs::simple_mem(&mapped[1]))
            .flatten()
            .and_then(|(b, d)| (b == "rsp").then_some(delta + d))
            .or_else(|| (new.op == "mov" && mapped.len() == 2 && mapped[1] == "rsp" && dst.is_some()).then_some(delta));
        let reload = (new.op == "mov" && mapped.len() == 2 && mapped[1].starts_with("qword ptr"))
            .then(|| regs::simple_mem(&mapped[1]))
            .flatten()
            .and_then(|(b, d)| (b == "rsp").then(|| saved.get(&(delta + d)).copied()).flatten());
        // A stored register: its alias (or none) now lives in that slot.
        if new.op == "mov" && mapped.len() == 2 && mapped[0].starts_with("qword ptr") {
            if let Some(("rsp", d)) = regs::simple_mem(&mapped[0]) {
                match regs::family(&mapped[1]).filter(|f| *f == mapped[1].as_str()).and_then(|f| alias.get(f)) {
                    Some(&a) => saved.insert(delta + d, a),
                    None => saved.remove(&(delta + d)),
                };
            }
        }
        let imm = ops.get(1).and_then(|v| v.parse::<i64>().ok());
        match (new.op.as_str(), dst) {
            ("sub", Some("rsp")) if imm.is_some() => delta -= imm.unwrap(),
            ("add", Some("rsp")) if imm.is_some() => delta += imm.unwrap(),
            ("lea", Some("rsp")) if lea_off.is_some() => delta = lea_off.unwrap(),
            _ => {
                for w in &e.writes {
                    if *w == "rsp" {
                        // RSP moved by an amount not known here: no alias holds any more.
                        alias.clear();
                        saved.clear();
                    }
                    alias.remove(w);
                }
                if let Some(f) = dst {
                    if let Some(a) = lea_off.or(reload) {
                        alias.insert(f, a);
                    }
                }
            }
        }
        out.push(new);
    }
    (out, deltas)
}

/// Rewrite the block's memory operands for the harness (see the module doc).
fn harness_operands(insns: &[Insn]) -> Vec<Insn> {
    let (resolved, deltas) = resolve_stack_aliases(insns);
    let insns = &resolved[..];
    // Pass 1: the ranges stored through `[reg + d]` (any reg: at run time every valid
    // pointer is the same) and through `[rsp + d]`.
    let mut ptr_stores = vec![];
    let mut rsp_stores = vec![];
    for i in insns {
        for o in regs::effects(i).stores {
            if let Some((b, d)) = regs::simple_mem(&o) {
                let r = (d, d + regs::mem_size(&o));
                if b == "rsp" { rsp_stores.push(r) } else { ptr_stores.push(r) }
            }
        }
    }
    let mut slots: BTreeMap<String, usize> = BTreeMap::new();
    let mut valid: BTreeSet<&'static str> = BTreeSet::new();
    let mut out = vec![];
    for (idx, i) in insns.iter().enumerate() {
        let ops = regs::operands(&i.args);
        let mut new_ops = vec![];
        let mut pointer_load = false;
        for o in &ops {
            if !o.contains('[') || i.op == "lea" || i.op.starts_with("prefetch") || i.op == "nop" {
                new_ops.push(o.clone());
                continue;
            }
            let open = o.find('[').unwrap();
            // A segment-relative operand (the stack protector's `fs:[40]`, a TLS word that
            // hits L1) becomes a slot like any other address.
            let prefix = o[..open].replace("fs:", "").replace("gs:", "");
            let prefix = prefix.as_str();
            let keep = match regs::simple_mem(o) {
                Some(("rsp", d)) => {
                    pointer_load = !overlaps(&rsp_stores, d, d + 8);
                    true
                }
                Some((b, d)) if valid.contains(b) && d.abs() < 0x8000 => {
                    pointer_load = !overlaps(&ptr_stores, d, d + 8);
                    true
                }
                _ => false,
            };
            if keep {
                new_ops.push(o.clone());
            } else {
                let n = slots.len();
                let k = *slots.entry(o[open..].to_string()).or_insert(n);
                pointer_load = true; // slots hold the pointer unless stored
                // Slots sit at fixed addresses: RSP moved inside the trip is allowed for.
                let slot_off = 4096 + 64 * k as i64 - deltas[idx];
                let stored_slot = insns.iter().any(|j| regs::effects(j).stores.iter().any(|s| s[s.find('[').unwrap()..] == o[open..]));
                if stored_slot {
                    pointer_load = false;
                }
                new_ops.push(format!("{prefix}[rsp + {slot_off}]"));
            }
        }
        let e = regs::effects(i);
        let loads_qword = i.op == "mov" && ops.len() == 2 && regs::family(&ops[0]).is_some() && ops[0].starts_with('r') && !ops[0].ends_with('d')
            && !ops[0].ends_with('w') && !ops[0].ends_with('b') && ops[1].contains("qword ptr");
        // A 64-bit register copy of a valid pointer is one too.
        let copies_valid = i.op == "mov"
            && ops.len() == 2
            && regs::family(&ops[0]).is_some_and(|f| f == ops[0])
            && regs::family(&ops[1]).is_some_and(|f| f == ops[1] && valid.contains(f));
        for w in &e.writes {
            valid.remove(w);
        }
        if copies_valid {
            valid.insert(regs::family(&ops[0]).unwrap());
        }
        if loads_qword
            && pointer_load
            && let Some(f) = regs::family(&ops[0])
        {
            valid.insert(f);
        }
        out.push(Insn { op: i.op.clone(), args: new_ops.join(", ") });
    }
    out
}

/// Copies of the block per trip of the harness's loop, so its counter and closing branch
/// cost a quarter a trip.
const UNROLL: usize = 4;

/// A block for the harness: its instructions, and for each jump whether the path takes it.
pub type HarnessBlock = (Vec<Insn>, Vec<Option<bool>>);

/// The harness's assembly: the add-chain clock and one function per block. A jump the path
/// takes becomes `jmp` to the next instruction (the taken-branch cost stays); one it does not
/// take is dropped (its compare stays); the block is repeated [`UNROLL`] times a trip.
fn harness_asm(blocks: &[HarnessBlock]) -> (String, Vec<bool>) {
    let mut s = String::from(".intel_syntax noprefix\n.text\n");
    // The clock: 100 dependent adds a trip, of a register, not an immediate: Intel's cores
    // from Golden Cove on fold `add reg, imm` chains at rename (the 0xA7 host ran 100 of them
    // in about 17 cycles, which read as a 24 GHz clock); a register add takes a cycle on every
    // x86 core.
    s.push_str(".globl hl_model_addchain\nhl_model_addchain:\n\txor eax, eax\n\tmov ecx, 1\n.Lhl_chain:\n");
    for _ in 0..100 {
        s.push_str("\tadd rax, rcx\n");
    }
    s.push_str("\tdec rdi\n\tjnz .Lhl_chain\n\tret\n");
    // The throughput probe: independent adds over four registers, as many a cycle as the core
    // has ALUs free. A sibling hyperthread or the hypervisor taking the core's issue slots
    // slows it (and throughput-bound blocks) while the dependent-add clock, one add a cycle,
    // hardly notices.
    // Register adds for the same reason as the clock's.
    s.push_str(".globl hl_model_probe\nhl_model_probe:\n\txor eax, eax\n\txor ecx, ecx\n\txor edx, edx\n\txor esi, esi\n\tmov r8d, 1\n.Lhl_probe:\n");
    for k in 0..PROBE_ADDS {
        s.push_str(&format!("\tadd {}, r8\n", ["rax", "rcx", "rdx", "rsi"][k % 4]));
    }
    s.push_str("\tdec rdi\n\tjnz .Lhl_probe\n\tret\n");
    // Two nested helpers, for the call/ret figure ([`HostForwarding::nested_call_ret`]): the
    // rewrite drops calls and rets, so no block of a kernel ever calls them.
    s.push_str(".p2align 4\nhl_model_f1:\n\tcall hl_model_f2\n\tret\n.p2align 4\nhl_model_f2:\n\tret\n");
    let mut in_memory = vec![];
    for (k, (b, taken)) in blocks.iter().enumerate() {
        let text: String = b.iter().map(|i| format!("{} {}\n", i.op, i.args)).collect();
        let used: BTreeSet<&str> = regs::regs_in(&text).into_iter().collect();
        let counter = GPRS.iter().copied().find(|r| *r != "rsp" && !used.contains(r));
        in_memory.push(counter.is_none());
        s.push_str(&format!(".globl hl_model_block_{k}\nhl_model_block_{k}:\n"));
        for r in ["rbx", "rbp", "r12", "r13", "r14", "r15"] {
            s.push_str(&format!("\tpush {r}\n"));
        }
        s.push_str("\tmov qword ptr [rip + hl_model_saved_rsp], rsp\n\tmov qword ptr [rip + hl_model_count], rdi\n\tmov rsp, rsi\n");
        // Every register holds the buffer pointer (rdx); then the counter gets the count.
        for r in GPRS {
            if r != "rsp" && r != "rdx" {
                s.push_str(&format!("\tmov {r}, rdx\n"));
            }
        }
        if let Some(c) = counter {
            s.push_str(&format!("\tmov {c}, qword ptr [rip + hl_model_count]\n"));
        }
        s.push_str(&format!("\t.p2align 6\n.Lhl_loop_{k}:\n"));
        for u in 0..UNROLL {
            for (n, i) in b.iter().enumerate() {
                if i.op.starts_with('j') {
                    match taken.get(n).copied().flatten() {
                        Some(true) => s.push_str(&format!("\tjmp .Lhl_next_{k}_{u}_{n}\n.Lhl_next_{k}_{u}_{n}:\n")),
                        Some(false) => {}
                        None => s.push_str(&format!("\t{} .Lhl_next_{k}_{u}_{n}\n.Lhl_next_{k}_{u}_{n}:\n", i.op)),
                    }
                } else {
                    s.push_str(&format!("\t{} {}\n", i.op, i.args));
                }
            }
        }
        match counter {
            Some(c) => s.push_str(&format!("\tdec {c}\n\tjnz .Lhl_loop_{k}\n")),
            None => s.push_str(&format!("\tdec qword ptr [rip + hl_model_count]\n\tjnz .Lhl_loop_{k}\n")),
        }
        s.push_str("\tmov rsp, qword ptr [rip + hl_model_saved_rsp]\n");
        for r in ["r15", "r14", "r13", "r12", "rbp", "rbx"] {
            s.push_str(&format!("\tpop {r}\n"));
        }
        s.push_str("\tret\n");
    }
    s.push_str(".bss\n.p2align 6\nhl_model_saved_rsp: .quad 0\nhl_model_count: .quad 0\nhl_sym: .zero 64\n.section .note.GNU-stack,\"\",@progbits\n");
    (s, in_memory)
}

const DRIVER_C: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
extern void hl_model_addchain(uint64_t n);
extern void hl_model_probe(uint64_t n);
typedef void (*blockfn)(uint64_t, void *, void *);
extern blockfn hl_model_blocks[];
static double now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char **argv) {
    if (argc != 3) return 2;
    int k = atoi(argv[1]);
    uint64_t n = strtoull(argv[2], 0, 10);
    size_t sz = 1 << 21;
    char *m = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 3;
    char *mid = m + sz / 2;
    for (uint64_t *q = (uint64_t *)m; q < (uint64_t *)(m + sz); q++) *q = (uint64_t)mid;
    char *sp = m + sz / 4;
    double best_block = 1e300, best_chain = 1e300, best_probe = 1e300;
    hl_model_blocks[k](n / 10 + 1, sp, mid);
    hl_model_addchain(n / 100 + 1);
    for (int r = 0; r < 7; r++) {
        double t0 = now_ns();
        hl_model_blocks[k](n, sp, mid);
        double t1 = now_ns();
        hl_model_addchain(n / 20);
        double t2 = now_ns();
        hl_model_probe(n / 20);
        double t3 = now_ns();
        if (t1 - t0 < best_block) best_block = t1 - t0;
        if (t2 - t1 < best_chain) best_chain = t2 - t1;
        if (t3 - t2 < best_probe) best_probe = t3 - t2;
    }
    double ns_per_cycle = best_chain / ((double)(n / 20) * 100.0);
    double probe_cycles = best_probe / ns_per_cycle / (double)(n / 20);
    printf("%.6f %.6f %.6f\n", best_block / (double)n / ns_per_cycle, 1.0 / ns_per_cycle, PROBE_ADDS / probe_cycles);
    return 0;
}
"#;

/// Time each rewritten block loop-only on this host (see the module doc). One entry per
/// block: the measurement, or why there is none.
/// `keep`: a path to copy the harness's assembly to, for review.
pub fn measure_blocks(blocks: &[HarnessBlock], iterations: u64, keep: Option<&std::path::Path>) -> Result<Vec<Result<Measured, String>>> {
    if !cfg!(target_arch = "x86_64") {
        bail!("the loop-only harness runs x86-64 blocks only");
    }
    // Registered with the signal cleanup as it is created: removed on Ctrl-C too.
    let (dir, _dir_guard) = crate::host::cleanup::temp_dir("hotloops-model-").context("creating a temporary directory")?;
    let prepared: Vec<HarnessBlock> = blocks.iter().map(|(b, t)| (harness_operands(b), t.clone())).collect();
    // The driver counts trips of the harness's loop: UNROLL trips of the block each.
    let iterations = (iterations / UNROLL as u64).max(1);
    let (asm, in_memory) = harness_asm(&prepared);
    let mut table = String::from(".section .data.rel.ro,\"aw\"\n.globl hl_model_blocks\n.p2align 3\nhl_model_blocks:\n");
    for k in 0..blocks.len() {
        table.push_str(&format!("\t.quad hl_model_block_{k}\n"));
    }
    std::fs::write(dir.path().join("blocks.s"), format!("{asm}{table}.section .note.GNU-stack,\"\",@progbits\n"))?;
    std::fs::write(dir.path().join("driver.c"), DRIVER_C.replace("PROBE_ADDS", &format!("{PROBE_ADDS}.0")))?;
    // For review: the exact code timed, when asked for.
    if let Some(keep) = keep {
        let asm = std::fs::read(dir.path().join("blocks.s"))?;
        crate::host::write_atomic(keep, &asm).with_context(|| format!("copying the harness asm to {}", keep.display()))?;
    }
    let exe = dir.path().join("harness");
    // gcc's own temporaries go into the registered directory: a killed gcc cannot leave them.
    let out = crate::host::cleanup::output(
        crate::host::cleanup::die_with_parent(&mut Command::new("gcc")).current_dir(dir.path()).env("TMPDIR", dir.path()).args(["-O2", "-o"]).arg(&exe).args(["driver.c", "blocks.s"]),
    )
    .context("running gcc for the loop-only harness (install gcc)")?;
    if !out.status.success() {
        bail!("gcc could not build the loop-only harness:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    // ROUNDS processes a block, the blocks taken in turn so each block's processes are spread
    // over the whole measurement; the fastest kept. On a shared VM a loop is only ever slowed
    // from outside (another vCPU on the core's sibling thread, the hypervisor), for stretches
    // longer than one process (analysis/static-model-check.md: the median of three processes
    // used before kept whichever state most of them met); the median is kept too, to show the
    // spread, and each process's throughput probe says whether its core was disturbed. A block
    // that fails once has no figure (its first failure is the reason).
    let mut runs: Vec<Vec<Result<(f64, f64, f64), String>>> = vec![vec![]; in_memory.len()];
    for round in 0..ROUNDS {
        for (k, r) in runs.iter_mut().enumerate() {
            if round > 0 && r.iter().any(|x| x.is_err()) {
                continue;
            }
            r.push(run_one(&exe, k, iterations));
        }
    }
    let probe_best_ipc = runs.iter().flatten().filter_map(|x| x.as_ref().ok()).map(|x| x.2).fold(0.0, f64::max);
    let mut res = vec![];
    for (r, mem) in runs.into_iter().zip(&in_memory) {
        if let Some(e) = r.iter().find_map(|x| x.as_ref().err()) {
            res.push(Err(e.clone()));
            continue;
        }
        let mut ok: Vec<(f64, f64, f64)> = r.into_iter().filter_map(Result::ok).collect();
        ok.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (c, ghz, probe_ipc) = ok[0];
        let median = ok[ok.len() / 2].0;
        res.push(Ok(Measured {
            cycles_per_iter: c / UNROLL as f64,
            median_cycles: median / UNROLL as f64,
            ghz,
            probe_ipc,
            probe_best_ipc,
            counter_in_memory: *mem,
        }));
    }
    Ok(res)
}

/// Processes a block is timed in (see [`measure_blocks`]).
const ROUNDS: usize = 5;

/// Adds a trip of the throughput probe.
pub const PROBE_ADDS: usize = 100;

/// Run block `k` in a child process with a deadline.
fn run_one(exe: &std::path::Path, k: usize, iterations: u64) -> Result<(f64, f64, f64), String> {
    let (mut child, _registered) =
        crate::host::cleanup::spawn(crate::host::cleanup::die_with_parent(&mut Command::new(exe)).args([k.to_string(), iterations.to_string()]).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()))
            .map_err(|e| format!("could not start the harness: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("the block ran past 30 s".into());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for the harness: {e}")),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        use std::os::unix::process::ExitStatusExt;
        return Err(match out.status.signal() {
            Some(s) => format!("the block faulted in the harness (signal {s}): its addresses could not all be made safe"),
            None => format!("the harness exited with {}", out.status),
        });
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace().map(|x| x.parse::<f64>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(c)), Some(Ok(g)), Some(Ok(p))) if c.is_finite() && c > 0.0 && p.is_finite() => Ok((c, g, p)),
        _ => Err(format!("unreadable harness output `{}`", text.trim())),
    }
}

/// This host's store-to-load figures, measured with the harness (cycles).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct HostForwarding {
    /// A link through a plain 32-bit reload (load, `inc`, store of one slot, minus the `inc`):
    /// memory renaming serves it.
    pub plain: f64,
    /// The same link through a `movsxd` reload, which renaming does not serve.
    pub movsxd: f64,
    /// A trip of uarch-bench's `fw_split_write_read` (two 8-byte stores, one 16-byte reload of
    /// both, nothing depending on it): the failed forward [`super::recurrence::FAILED_FORWARD`]
    /// cites for other cores.
    pub split_write_read: f64,
    /// A trip of the Rust dir-by-value helper's frame: `push rax`, a 4-byte store into the
    /// pushed word, `pop rcx` (an 8-byte reload of both stores).
    pub push_store_pop: f64,
    /// A trip of `call f1` where f1 is `call f2; ret` and f2 `ret`: dir-by-value's per-tuple
    /// nesting (`_bt_checkkeys` calling `_bt_check_compare`) with nothing else, which the
    /// stack rewrite drops from both llvm-mca's block and the harness's.
    pub nested_call_ret: f64,
    /// Dependent `add reg, imm` a cycle (eight a trip): 1 on a core that runs each on an ALU;
    /// Intel's cores from Golden Cove on fold them at rename and run several a cycle, which
    /// llvm-mca's models do not know.
    pub imm_adds_per_cycle: f64,
}

/// This host's store-to-load figures ([`HostForwarding`]). Measured once a process (a report
/// asks once a study).
pub fn forwarding_on_host() -> Result<HostForwarding> {
    static ONCE: std::sync::OnceLock<Result<HostForwarding, String>> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| measure_forwarding().map_err(|e| format!("{e:#}"))).clone().map_err(|e| anyhow!("{e}"))
}

fn measure_forwarding() -> Result<HostForwarding> {
    let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
    let plain = vec![i("mov", "eax, dword ptr [rsp + 64]"), i("inc", "eax"), i("mov", "dword ptr [rsp + 64], eax")];
    let sx = vec![i("movsxd", "rax, dword ptr [rsp + 128]"), i("inc", "eax"), i("mov", "dword ptr [rsp + 128], eax")];
    let split = vec![i("mov", "qword ptr [rsp + 192], rax"), i("mov", "qword ptr [rsp + 200], rax"), i("movdqu", "xmm0, xmmword ptr [rsp + 192]")];
    let frame = vec![i("push", "rax"), i("mov", "dword ptr [rsp + 4], ecx"), i("pop", "rcx")];
    let calls = vec![i("call", "hl_model_f1")];
    let imm = vec![i("add", "rax, 1"); IMM_CHAIN];
    let blocks: Vec<HarnessBlock> = [plain, sx, split, frame, calls, imm].into_iter().map(|b| { let n = b.len(); (b, vec![None; n]) }).collect();
    let r = measure_blocks(&blocks, 4_000_000, None)?;
    let trip = |m: &Result<Measured, String>| m.as_ref().map(|m| m.cycles_per_iter).map_err(|e| anyhow!("{e}"));
    let link = |m: &Result<Measured, String>| trip(m).map(|c| (c - 1.0).max(0.0));
    Ok(HostForwarding {
        plain: link(&r[0])?,
        movsxd: link(&r[1])?,
        split_write_read: trip(&r[2])?,
        push_store_pop: trip(&r[3])?,
        nested_call_ret: trip(&r[4])?,
        imm_adds_per_cycle: IMM_CHAIN as f64 / trip(&r[5])?,
    })
}

/// Dependent `add rax, 1` a trip of the folding probe ([`HostForwarding::imm_adds_per_cycle`]).
const IMM_CHAIN: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_by_features_not_model_number() {
        let f = Features { avx512f: true, avx512_vbmi2: true, avx512_fp16: true, amx_tile: true, ..Default::default() };
        assert_eq!(classify("GenuineIntel", 6, 0xa7, "Intel Xeon Processor", f).0, "sapphirerapids");
        let z4 = Features { avx512f: true, ..Default::default() };
        assert_eq!(classify("AuthenticAMD", 0x19, 0x11, "AMD EPYC", z4).0, "znver4");
        assert_eq!(classify("AuthenticAMD", 0x19, 0x01, "AMD EPYC 7763", Features::default()).0, "znver3");
        assert_eq!(classify("AuthenticAMD", 0x19, 0x11, "AMD EPYC", Features::default()).0, "znver4");
        assert_eq!(classify("GenuineIntel", 6, 0x55, "Xeon", Features { avx512f: true, ..Default::default() }).0, "skylake-avx512");
        assert_eq!(closest_in("skylake-avx512", &["skylake".into(), "znver3".into()]).as_deref(), Some("skylake"));
    }

    #[test]
    fn harness_keeps_pointer_chases_and_slots_the_rest() {
        let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
        let b = vec![
            i("mov", "rdi, qword ptr [rsp]"),
            i("mov", "rax, qword ptr [rdi + 56]"),
            i("mov", "eax, dword ptr [rax + 112]"),
            i("mov", "edx, dword ptr [r13 + 2*rax]"),
            i("inc", "dword ptr [r13 + 132]"),
            i("mov", "ecx, dword ptr [r13 + 132]"),
        ];
        let h = harness_operands(&b);
        let t: Vec<String> = h.iter().map(|x| x.args.clone()).collect();
        assert_eq!(t[0], "rdi, qword ptr [rsp]");
        assert_eq!(t[1], "rax, qword ptr [rdi + 56]");
        assert_eq!(t[2], "eax, dword ptr [rax + 112]");
        assert!(t[3].starts_with("edx, dword ptr [rsp + 4"), "{t:?}");
        // The same expression shares a slot: the recurrence survives.
        assert_eq!(t[4].trim_start_matches("dword ptr "), t[5].trim_start_matches("ecx, dword ptr "));
    }
}
