//! Static per-core predictions: does a variant's gain depend on the core?
//!
//! For every kernel, the steady state of its hot loop is read from the normalised asm
//! snapshot ([`block`]), its helpers inlined; the stack operations llvm-mca 19 mis-models are
//! rewritten ([`rewrite`]); llvm-mca 19 predicts cycles per iteration, IPC, the bottleneck and
//! port pressure for several CPU models ([`mca`]); loop-carried chains through memory, which
//! llvm-mca ignores, are detected and costed with a per-core forwarding table
//! ([`recurrence`]); and each block is timed loop-only on the host beside the prediction of
//! the model closest to the host's core ([`host`]).
//!
//! Arm: the C kernels built for arm64 PostgreSQL (`gcc12-pg-arm64`, a cross
//! configuration with no rows in the studies) are modelled from their checked-in AArch64
//! snapshots for the Arm cores ([`DEFAULT_ARM_CPUS`], `llvm-mca-19 -mtriple=aarch64`), beside the
//! x86 rows, as rows `<id>@gcc12-pg-arm64` whose differences are taken against the arm64 build of
//! the study's baseline in C. They are predictions only: the host is x86-64 and never runs them.
//!
//! Layer: beside `asm` and `measure`; imports `asm` and `study` (and `ckernels`' table of
//! cross kernels) only (never `report`).

pub mod block;
pub mod host;
pub mod kernel;
pub mod mca;
pub mod recurrence;
pub mod regs;
pub mod rewrite;

use crate::asm::structure::Isa;
use crate::study::{self, STUDIES};
use anyhow::{Context, Result, anyhow};
use std::fmt::Write as _;
use std::path::Path;

/// The x86 CPU models predicted by default.
pub const DEFAULT_CPUS: [&str; 6] = ["skylake", "icelake-server", "sapphirerapids", "alderlake", "znver3", "znver4"];

/// The Arm cores predicted by default, for the arm64 C kernels: Graviton 2 (N1), Graviton 3
/// (V1), Graviton 4 and Grace (V2), AmpereOne, Apple M1.
pub const DEFAULT_ARM_CPUS: [&str; 5] = ["neoverse-n1", "neoverse-v1", "neoverse-v2", "ampere1", "apple-m1"];

/// The Arm CPU names `--cpu` accepts (llvm-mca 19 models them for `-mtriple=aarch64`).
pub const ARM_CPUS: &[&str] = &["neoverse-n1", "neoverse-n2", "neoverse-v1", "neoverse-v2", "ampere1", "apple-m1"];

/// Is `cpu` one of the Arm cores (modelled on the arm64 kernels)?
pub fn is_arm_cpu(cpu: &str) -> bool {
    ARM_CPUS.contains(&cpu)
}

/// The C configuration whose kernels the Arm cores are predicted on.
pub const ARM_CONFIG: &str = crate::ckernels::ARM64;

/// CPU names that share one LLVM 19 scheduling model (ground-truth.md §3): the first name's
/// figures hold for the others.
pub const SHARED_MODELS: &[(&str, &[&str])] = &[
    ("alderlake", &["raptorlake", "arrowlake"]),
    ("sapphirerapids", &["graniterapids"]),
    ("icelake-server", &["rocketlake"]),
    ("znver4", &["znver5"]),
    // LLVM 19 models every Apple core with its Cyclone (Apple A7, 2013) model, not Firestorm's.
    ("apple-m1", &["apple-a14", "apple-a7", "cyclone"]),
];

/// CPU names `--cpu` accepts (llvm-mca 19 knows them; an unknown one it would ignore with a
/// warning and model a generic core).
pub const KNOWN_CPUS: &[&str] = &[
    "haswell",
    "broadwell",
    "skylake",
    "skylake-avx512",
    "cascadelake",
    "icelake-client",
    "icelake-server",
    "tigerlake",
    "rocketlake",
    "alderlake",
    "raptorlake",
    "arrowlake",
    "sapphirerapids",
    "graniterapids",
    "znver1",
    "znver2",
    "znver3",
    "znver4",
    "znver5",
    "neoverse-n1",
    "neoverse-n2",
    "neoverse-v1",
    "neoverse-v2",
    "ampere1",
    "apple-m1",
];

/// Bad input to `hotloops model` (exit 2), or llvm-mca missing.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// One kernel's steady-state block, rewritten, with its memory recurrences.
#[derive(Clone, Debug)]
pub struct KernelBlock {
    /// Variant id.
    pub id: String,
    /// Its instruction set.
    pub isa: Isa,
    /// The steady path.
    pub steady: block::Steady,
    /// The stack rewrite.
    pub rewritten: rewrite::Rewritten,
    /// What llvm-mca reads.
    pub mca_text: String,
    /// Loop-carried chains through memory.
    pub recurrences: Vec<recurrence::Recurrence>,
    /// Reloads in a trip that store forwarding cannot serve.
    pub forwarding_failures: Vec<String>,
}

/// Build the block of kernel `entry` from snapshot text (the variant's helpers inlined).
pub fn block_from_text(snapshot: &str, id: &str, entry: &str, helpers: &[&str], site: block::Site) -> Result<KernelBlock> {
    let steady = block::extract(snapshot, entry, helpers, site).with_context(|| format!("steady-state block of {id}"))?;
    let rewritten = rewrite::stack_rewrite(&steady.insns);
    let mca_text = rewrite::mca_text(&rewritten.insns);
    let recurrences = recurrence::detect(&steady.insns);
    let forwarding_failures = recurrence::forwarding_failures(&steady.insns);
    Ok(KernelBlock { id: id.to_string(), isa: Isa::of_snapshot(snapshot), steady, rewritten, mca_text, recurrences, forwarding_failures })
}

/// The block of an arm64 kernel (`local-index/c-store-each@gcc12-pg-arm64`) from its checked-in
/// snapshot under `dir`: the canonical C row's kernel and helpers, under the cross
/// configuration (no cross compiler needed).
pub fn arm_kernel_block(dir: &Path, row_id: &str) -> Result<KernelBlock> {
    let k = crate::ckernels::cross_kernel(row_id).ok_or_else(|| anyhow!("no arm64 C kernel `{row_id}`"))?;
    let p = crate::asm::c::cross_snapshot_file(dir, k);
    let snap = std::fs::read_to_string(&p).with_context(|| format!("reading asm snapshot {}", p.display()))?;
    let suffix = format!("__{}", crate::ckernels::config(k.config)?.suffix);
    let strip = |s: &str| s.strip_suffix(suffix.as_str()).unwrap_or(s).to_string();
    let helpers: Vec<String> = k.helpers.iter().map(|h| strip(h)).collect();
    let helpers: Vec<&str> = helpers.iter().map(String::as_str).collect();
    block_from_text(&snap, row_id, &strip(&k.symbol), &helpers, block::site_of(k.study()))
}

/// The arm64 rows of study `study` (`<id>@gcc12-pg-arm64`), the arm64 build of the study's C
/// baseline first: `c-<baseline>` (`local-index/c-store-each` for `local-index/store-each`).
pub fn arm_rows(info: &study::StudyInfo) -> (Option<String>, Vec<String>) {
    let base = format!("{}/c-{}", info.name, info.baseline.rsplit('/').next().unwrap_or(info.baseline));
    let mut rows: Vec<String> = crate::ckernels::cross_kernels().iter().filter(|k| k.config == ARM_CONFIG && k.study() == info.name).map(|k| k.row_id()).collect();
    let base_row = format!("{base}@{ARM_CONFIG}");
    let found = rows.iter().position(|r| *r == base_row);
    if let Some(i) = found {
        let b = rows.remove(i);
        rows.insert(0, b);
    }
    (found.map(|_| base_row), rows)
}

/// The block of variant `id` from its snapshot under `dir` (`asm-snapshots/`), matched by the
/// study's variant list (symbol and helpers), not by file name.
pub fn kernel_block(dir: &Path, id: &str) -> Result<KernelBlock> {
    let (s, v) = study::variant(id)?;
    let snap = crate::asm::read_snapshot(dir, id)?;
    // A C kernel's snapshot names its symbols without the configuration's suffix.
    let helpers: Vec<&str> = v.helpers.iter().map(|h| v.snapshot_symbol(h)).collect();
    block_from_text(&snap, id, v.snapshot_symbol(v.kernel), &helpers, block::site_of(s.info().name))
}

/// Combine llvm-mca's cycles with the memory chains (the stated assumption): the loop runs no
/// faster than its longest loop-carried chain. Returns (prediction, chain cycles if any).
pub fn combine(mca_cycles: f64, recs: &[recurrence::Recurrence], cpu: &str) -> (f64, Option<f64>) {
    if recs.is_empty() {
        return (mca_cycles, None);
    }
    match recurrence::chain_cycles(recs, cpu) {
        Some(c) => (mca_cycles.max(c), Some(c)),
        None => (mca_cycles, None),
    }
}

/// A prediction and what set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Combined {
    /// max(llvm-mca, memory chain, failed-forward stall).
    pub predicted: f64,
    /// Cycles a trip of the longest memory chain (forwarding table), if there is one.
    pub chain: Option<f64>,
    /// Cycles a trip of the reloads store forwarding cannot serve, where the core has a cited
    /// figure ([`recurrence::FAILED_FORWARD`]).
    pub stall: Option<f64>,
}

/// [`combine`], with the failed forwards added: each is a stall of the core's cited figure, and
/// the loop runs no faster than its stalls (the rest of the trip overlaps them, as for chains).
pub fn combine_all(mca_cycles: f64, recs: &[recurrence::Recurrence], failures: usize, cpu: &str) -> Combined {
    let (p, chain) = combine(mca_cycles, recs, cpu);
    let stall = recurrence::stall_cycles(failures, cpu);
    Combined { predicted: stall.map_or(p, |s| p.max(s)), chain, stall }
}

/// One CPU model's prediction for one block.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CpuPrediction {
    /// llvm-mca CPU name.
    pub cpu: String,
    /// llvm-mca's figures.
    pub mca: mca::McaResult,
    /// Cycles a trip of the longest memory chain (forwarding table), if there is one.
    pub chain_cycles: Option<f64>,
    /// Forwarding latency used, cycles a link.
    pub forwarding: Option<f64>,
    /// Cycles a trip of the failed forwards (the core's cited figure each), if any.
    pub stall_cycles: Option<f64>,
    /// max(llvm-mca, chain, stall).
    pub predicted: f64,
    /// predicted - baseline's predicted (cycles a trip).
    pub diff_vs_baseline: Option<f64>,
}

/// The kernel's own time an item from the wall clock, beside its loop ([`kernel`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct KernelFigure {
    /// The case (test size).
    pub case: String,
    /// Cycles an item: the fastest run's nanoseconds an item times the harness's add clock.
    pub cycles_per_item: f64,
    /// The median run's.
    pub median_cycles_per_item: f64,
    /// `loop`: the loop is the kernel's work, the two should agree; `bound`: the kernel does more
    /// an item, its figure bounds the loop's.
    pub coverage: String,
    /// The loop's measured cycles a trip over the kernel's cycles an item.
    pub ratio: f64,
    /// Whether the harness passes the check: within 25% of the kernel (`loop`), or no more than
    /// 25% over it (`bound`).
    pub agrees: bool,
}

/// The host's loop-only measurement of one block beside the closest model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HostFigure {
    /// Measured cycles a trip (the fastest harness process).
    pub measured: f64,
    /// The median harness process's (how much the shared host slowed the others).
    pub median: f64,
    /// The throughput probe in the fastest process, adds a cycle, and its best in the run
    /// ([`host::Measured::probe_ipc`]).
    pub probe_ipc: f64,
    /// See `probe_ipc`.
    pub probe_best_ipc: f64,
    /// Measured minus the baseline's measured.
    pub diff_vs_baseline: Option<f64>,
    /// The model compared with.
    pub model: String,
    /// That model's prediction.
    pub predicted: f64,
    /// (predicted - measured) / measured.
    pub off: f64,
    /// Off by more than 25%.
    pub flagged: bool,
    /// The kernel's own time an item, where the study has a check ([`kernel::coverage`]).
    pub kernel: Option<KernelFigure>,
    /// Why a flagged row is off, named from what the model found in it (printed in the row).
    pub reason: Option<String>,
}

/// One variant's model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VariantModel {
    /// Variant id (`<id>@gcc12-pg-arm64` for an arm64 kernel).
    pub id: String,
    /// The block's instruction set: `x86_64` (predicted for the x86 cores, timed on the host)
    /// or `aarch64` (predicted for the Arm cores only, never measured).
    pub isa: Isa,
    /// The row `diff_vs_baseline` is taken against (the study's baseline; for an arm64 row the
    /// arm64 build of the study's C baseline).
    pub baseline: String,
    /// Symbol holding the loop.
    pub symbol: String,
    /// How the loop and path were chosen.
    pub rule: String,
    /// Loop blocks on the path.
    pub path_blocks: Vec<String>,
    /// The back edge.
    pub back_edge: String,
    /// Helpers inlined.
    pub inlined: Vec<String>,
    /// Calls the model cannot follow (their callees' cost is missing).
    pub unfollowed_calls: Vec<String>,
    /// Instructions in the rewritten block.
    pub instructions: usize,
    /// Instructions of one trip as the asm has them (helpers inlined), before the rewrite.
    pub path_instructions: usize,
    /// Calls and rets dropped by the stack rewrite.
    pub calls_dropped: usize,
    /// Pushes and pops rewritten.
    pub push_pop_rewritten: usize,
    /// Memory recurrences.
    pub recurrences: Vec<recurrence::Recurrence>,
    /// Reloads store forwarding cannot serve (not in llvm-mca's figure).
    pub forwarding_failures: Vec<String>,
    /// The block as llvm-mca reads it.
    pub block: String,
    /// Per CPU model.
    pub per_cpu: Vec<CpuPrediction>,
    /// The host's loop-only figure.
    pub host: Option<HostFigure>,
    /// Why there is no host figure, or a CPU failed.
    pub notes: Vec<String>,
}

/// One study's models.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StudyModel {
    /// Study name.
    pub study: String,
    /// What one trip is.
    pub unit: String,
    /// Baseline variant id.
    pub baseline: String,
    /// Variants, baseline first.
    pub variants: Vec<VariantModel>,
    /// Errors that left a variant out.
    pub errors: Vec<String>,
}

/// Everything `hotloops model` prints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ModelReport {
    /// `llvm-mca-19 --version`'s version line.
    pub llvm_mca: String,
    /// CPU models predicted.
    pub cpus: Vec<String>,
    /// The host's CPU and the closest model.
    pub host: host::HostCpu,
    /// The model among `cpus` compared with the host's measurements.
    pub host_model: Option<String>,
    /// The host's store-to-load links, measured with the harness (cycles): plain reload,
    /// `movsxd` reload.
    pub host_forwarding: Option<host::HostForwarding>,
    /// The dependent-add clock's rate in the harness (GHz), to turn ns into cycles.
    pub host_ghz: Option<f64>,
    /// Per study.
    pub studies: Vec<StudyModel>,
    /// The forwarding table used.
    pub forwarding: Vec<recurrence::Forwarding>,
    /// What the figures leave out.
    pub caveats: Vec<String>,
}

/// Options of a model run.
#[derive(Clone, Debug)]
pub struct Options {
    /// CPU models.
    pub cpus: Vec<String>,
    /// Time the blocks on the host.
    pub measure: bool,
    /// Snapshot directory.
    pub snapshots: std::path::PathBuf,
    /// C configurations whose rows are modelled (None: every one); Rust rows always are.
    pub configs: Option<Vec<&'static str>>,
}

impl Default for Options {
    /// Every default x86 and Arm core.
    fn default() -> Self {
        Options {
            cpus: DEFAULT_CPUS.iter().chain(DEFAULT_ARM_CPUS.iter()).map(|s| s.to_string()).collect(),
            measure: true,
            snapshots: crate::asm::snapshot_dir(),
            configs: None,
        }
    }
}

/// Parse `--cpu a,b,c` (names llvm-mca 19 knows).
pub fn parse_cpus(list: &str) -> Result<Vec<String>, Usage> {
    let cpus: Vec<String> = list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if cpus.is_empty() {
        return Err(Usage("--cpu needs at least one CPU name".into()));
    }
    for (i, c) in cpus.iter().enumerate() {
        if !KNOWN_CPUS.contains(&c.as_str()) {
            return Err(Usage(format!("unknown CPU `{c}`; known CPU models are: {}", KNOWN_CPUS.join(", "))));
        }
        // Twice would be modelled twice and printed as two columns of one core.
        if cpus[..i].contains(c) {
            return Err(Usage(format!("--cpu {c} is given twice: name each CPU model once")));
        }
    }
    Ok(cpus)
}

/// The studies and variant ids a target names: every study, one study, or one variant (with
/// its baseline).
pub fn resolve(target: Option<&str>) -> Result<Vec<(&'static study::StudyInfo, Vec<&'static str>)>> {
    let all = |s: &'static study::StudyInfo| (s, s.variants.iter().map(|v| v.id).collect::<Vec<_>>());
    match target {
        None => Ok(STUDIES.iter().map(|s| all(s.info())).collect()),
        Some(t) if !t.contains('/') => Ok(vec![all(study::study(t)?.info())]),
        // An arm64 row (`local-index/c-store-each@gcc12-pg-arm64`): no x86 rows.
        Some(t) if crate::ckernels::cross_kernel(t).is_some() => Ok(vec![(study::study(crate::ckernels::cross_kernel(t).unwrap().study())?.info(), vec![])]),
        Some(t) => {
            let (s, v) = study::variant(t)?;
            let info = s.info();
            let mut ids = vec![info.baseline];
            if v.id != info.baseline {
                ids.push(v.id);
            }
            Ok(vec![(info, ids)])
        }
    }
}

/// The caveats every static block prints.
pub fn caveats() -> Vec<String> {
    let shared: Vec<String> = SHARED_MODELS.iter().map(|(a, b)| format!("{a} = {}", b.join(" = "))).collect();
    vec![
        "steady state: one trip of each kernel's hot loop, the path chosen by the per-study heuristic printed with it (no profile); \
         helpers' loops run zero times"
            .into(),
        "L1 hits: every load is assumed to hit L1; no cache or TLB misses".into(),
        "no front end: llvm-mca models no decoder, µop cache, taken-branch or call/return limits and no mispredictions".into(),
        "stack rewrite applied: call and ret dropped, push/pop turned into stores/loads at fixed RSP offsets (llvm-mca 19 has no stack \
         engine); calls outside the snapshot (indirect sinks, flushes, named functions) are not followed and their cost is missing"
            .into(),
        "memory: llvm-mca assumes loads and stores never alias; loop-carried chains through memory are added from the forwarding \
         table as prediction = max(llvm-mca, chain) [assumption]; reloads that store forwarding cannot serve (one load over two \
         stores, or wider than its store) are added as a stall each at the core's cited figure (uarch-bench's fw_split_write_read), \
         prediction = max(llvm-mca, chain, stalls) (`!`); a core without a cited figure lists them and says so"
            .into(),
        format!("CPU names sharing one LLVM 19 scheduling model: {}; znver3 and znver4 gave identical figures on these loops", shared.join("; ")),
        "arm64 rows (`@gcc12-pg-arm64`): predictions only, for the Arm cores; the host is x86-64 and never runs an AArch64 block, so \
         nothing in them is measured. Their blocks are gcc 12's arm64 code of the same C (another instruction stream than the x86 rows'); \
         bl/blr/ret are dropped as call/ret are on x86 (llvm-mca 19 assumes 100 cycles for a call), the frame's stp/ldp with their sp \
         updates stay. LLVM 19's neoverse-n1 model dispatches 8 µops a cycle (N1 decodes 4; llvm-project PR 154495 later set 3): \
         dispatch-bound N1 figures are optimistic; apple-m1 is LLVM 19's Cyclone (Apple A7) model, not the M1's Firestorm (its \
         forwarding figure is Firestorm's, measured)"
            .into(),
        "host figures: loop-only harness (each block assembled into a loop of its own, branches to the next instruction, addresses \
         into a scratch buffer), cycles from a dependent-add clock; a prediction off by >25% is flagged"
            .into(),
    ]
}

/// Run the models (llvm-mca must be installed: see [`mca::version`]). The x86 rows are
/// predicted for the x86 cores of `opts.cpus` (none: no x86 rows), the arm64 rows for its Arm
/// cores (none: no arm64 rows).
pub fn build(target: Option<&str>, opts: &Options) -> Result<ModelReport> {
    build_many(&[target], opts)
}

/// [`build`] for several targets at once: one llvm-mca queue and one harness build for all
/// of them (what a report of several studies needs).
pub fn build_many(targets: &[Option<&str>], opts: &Options) -> Result<ModelReport> {
    let version = mca::version().ok_or_else(|| Usage(mca::missing_message()))?;
    let host_cpu = host::host_cpu();
    let x86_cpus: Vec<String> = opts.cpus.iter().filter(|c| !is_arm_cpu(c)).cloned().collect();
    let arm_cpus: Vec<String> = opts.cpus.iter().filter(|c| is_arm_cpu(c)).cloned().collect();
    let host_model = host::closest_in(&host_cpu.closest, &x86_cpus);
    let mut studies = vec![];
    // Each variant's block, and where it lands in `studies`.
    let mut blocks: Vec<(usize, usize, KernelBlock)> = vec![];
    let new_variant = |id: &str, isa: Isa, baseline: &str, kb: &KernelBlock| VariantModel {
        id: id.into(),
        isa,
        baseline: baseline.into(),
        symbol: kb.steady.symbol.clone(),
        rule: kb.steady.rule.clone(),
        path_blocks: kb.steady.path_blocks.clone(),
        back_edge: kb.steady.back_edge.clone(),
        inlined: kb.steady.inlined.clone(),
        unfollowed_calls: kb.steady.unfollowed_calls.clone(),
        instructions: kb.rewritten.insns.len(),
        path_instructions: kb.steady.insns.len(),
        calls_dropped: kb.rewritten.calls_dropped,
        push_pop_rewritten: kb.rewritten.push_pop_rewritten,
        recurrences: kb.recurrences.clone(),
        forwarding_failures: kb.forwarding_failures.clone(),
        block: kb.mca_text.clone(),
        per_cpu: vec![],
        host: None,
        notes: vec![],
    };
    let resolved: Vec<_> = targets.iter().map(|&t| resolve(t).map(|r| r.into_iter().map(move |x| (t, x)))).collect::<Result<Vec<_>>>()?;
    for (target, (info, ids)) in resolved.into_iter().flatten() {
        let mut sm = StudyModel { study: info.name.into(), unit: info.unit.into(), baseline: info.baseline.into(), variants: vec![], errors: vec![] };
        // The x86 rows (Rust, and the linked C configurations').
        for id in ids.iter().filter(|_| !x86_cpus.is_empty()) {
            if let (Some(cs), Ok(v)) = (&opts.configs, info.variant(id)) {
                if !v.in_configs(cs) {
                    continue;
                }
            }
            match kernel_block(&opts.snapshots, id) {
                Ok(kb) => {
                    sm.variants.push(new_variant(id, Isa::X86_64, info.baseline, &kb));
                    blocks.push((studies.len(), sm.variants.len() - 1, kb));
                }
                Err(e) => sm.errors.push(format!("{id}: {e:#}")),
            }
        }
        // The arm64 rows, for the Arm cores: the study's, or the one named and its baseline.
        if !arm_cpus.is_empty() {
            let (base, rows) = arm_rows(info);
            let wanted: Vec<String> = match target {
                Some(t) if crate::ckernels::cross_kernel(t).is_some() => rows.iter().filter(|r| Some(*r) == base.as_ref() || *r == t).cloned().collect(),
                Some(t) if t.contains('/') => vec![],
                _ => rows,
            };
            for row in wanted {
                match arm_kernel_block(&opts.snapshots, &row) {
                    Ok(kb) => {
                        let mut vm = new_variant(&row, Isa::Aarch64, base.as_deref().unwrap_or(&row), &kb);
                        vm.notes.push("predicted only: an AArch64 block (gcc12-pg-arm64); the host is x86-64 and never runs it".into());
                        sm.variants.push(vm);
                        blocks.push((studies.len(), sm.variants.len() - 1, kb));
                    }
                    Err(e) => sm.errors.push(format!("{row}: {e:#}")),
                }
            }
        }
        studies.push(sm);
    }
    // Variants that share a kernel (alloc-churn's setups) share a block: each distinct block
    // is modelled and timed once.
    let mut distinct: Vec<&KernelBlock> = vec![];
    let slot: Vec<usize> = blocks
        .iter()
        .map(|(_, _, kb)| match distinct.iter().position(|d| d.mca_text == kb.mca_text && d.rewritten.taken == kb.rewritten.taken) {
            Some(i) => i,
            None => {
                distinct.push(kb);
                distinct.len() - 1
            }
        })
        .collect();
    // One llvm-mca a (block, CPU model of its ISA), on every core the process started with:
    // static predictions, nothing timed here, so a report's pinned thread need not hold them to one.
    let cpus_of = |isa: Isa| if isa == Isa::Aarch64 { &arm_cpus } else { &x86_cpus };
    // A process takes up to MCA_CHUNK blocks of one CPU model, each a code region of its own:
    // fewer process start-ups, and enough processes to keep both lanes busy to the end.
    const MCA_CHUNK: usize = 8;
    let isas = [Isa::X86_64, Isa::Aarch64];
    let jobs: Vec<(Vec<usize>, &str)> = isas
        .iter()
        .flat_map(|&isa| {
            let of_isa: Vec<usize> = (0..distinct.len()).filter(|&b| distinct[b].isa == isa).collect();
            cpus_of(isa).iter().flat_map(move |c| of_isa.chunks(MCA_CHUNK).map(|ch| (ch.to_vec(), c.as_str())).collect::<Vec<_>>())
        })
        .collect();
    let runs = crate::host::affinity::untimed_map(&jobs, |(bs, cpu)| {
        let texts: Vec<&str> = bs.iter().map(|&b| distinct[b].mca_text.as_str()).collect();
        mca::run_many(cpu, &texts)
    });
    let result: std::collections::HashMap<(usize, &str), &Result<mca::McaResult>> =
        jobs.iter().zip(runs.iter()).flat_map(|((bs, cpu), rs)| bs.iter().map(|&b| (b, *cpu)).zip(rs.iter())).collect();
    for ((s, v, kb), &b) in blocks.iter().zip(&slot) {
        let vm = &mut studies[*s].variants[*v];
        for cpu in cpus_of(kb.isa) {
            match result[&(b, cpu.as_str())] {
                Ok(r) => {
                    let r = r.clone();
                    let Combined { predicted, chain, stall } = combine_all(r.cycles_per_iter, &kb.recurrences, kb.forwarding_failures.len(), cpu);
                    if !kb.forwarding_failures.is_empty() && stall.is_none() {
                        vm.notes.push(format!(
                            "{cpu}: {} failed forward(s) a trip not costed (no cited figure for this core): the figure is llvm-mca's and may be low",
                            kb.forwarding_failures.len()
                        ));
                    }
                    if chain.is_none() && !kb.recurrences.is_empty() {
                        let why = recurrence::NO_FORWARDING_FIGURE.iter().find(|n| n.0 == cpu).map_or("no forwarding figure in the table", |n| n.1);
                        vm.notes.push(format!(
                            "{cpu}: the memory recurrence {} is not costed ({why}): the figure is llvm-mca's alone and may be low",
                            kb.recurrences.iter().map(|x| format!("{} ({} link, {} ALU)", x.slot, x.links, x.alu_ops)).collect::<Vec<_>>().join("; ")
                        ));
                    }
                    vm.per_cpu.push(CpuPrediction {
                        cpu: cpu.clone(),
                        mca: r,
                        chain_cycles: chain,
                        forwarding: recurrence::forwarding(cpu).map(|f| f.cycles),
                        stall_cycles: stall,
                        predicted,
                        diff_vs_baseline: None,
                    });
                }
                Err(e) => vm.notes.push(format!("{cpu}: {e:#}")),
            }
        }
    }
    let mut host_forwarding = None;
    let mut host_ghz = None;
    // Only x86 blocks can run on this host.
    let x86_blocks: Vec<usize> = (0..distinct.len()).filter(|&b| distinct[b].isa == Isa::X86_64).collect();
    if opts.measure && !x86_blocks.is_empty() {
        let harness: Vec<host::HarnessBlock> = x86_blocks.iter().map(|&b| (distinct[b].rewritten.insns.clone(), distinct[b].rewritten.taken.clone())).collect();
        // HOTLOOPS_MODEL_HARNESS_OUT=FILE keeps the exact code timed, for review.
        let keep = std::env::var_os("HOTLOOPS_MODEL_HARNESS_OUT").map(std::path::PathBuf::from);
        // Timed: on the caller's thread (a report's pinned core), one block at a time.
        match host::measure_blocks(&harness, 2_000_000, keep.as_deref()) {
            Ok(res) => {
                for ((s, v, _), &b) in blocks.iter().zip(&slot) {
                    let Some(h) = x86_blocks.iter().position(|&x| x == b) else { continue };
                    let vm = &mut studies[*s].variants[*v];
                    match res[h].clone() {
                        Ok(m) => {
                            host_ghz.get_or_insert(m.ghz);
                            let pred = host_model.as_ref().and_then(|hm| vm.per_cpu.iter().find(|p| &p.cpu == hm));
                            if let Some(p) = pred {
                                let off = (p.predicted - m.cycles_per_iter) / m.cycles_per_iter;
                                vm.host = Some(HostFigure {
                                    measured: m.cycles_per_iter,
                                    median: m.median_cycles,
                                    probe_ipc: m.probe_ipc,
                                    probe_best_ipc: m.probe_best_ipc,
                                    diff_vs_baseline: None,
                                    model: p.cpu.clone(),
                                    predicted: p.predicted,
                                    off,
                                    flagged: off.abs() > OFF,
                                    kernel: None,
                                    reason: None,
                                });
                            } else {
                                vm.notes.push(format!("host: measured {:.2} cycles a trip; no predicted model is close to this host", m.cycles_per_iter));
                            }
                            if m.counter_in_memory {
                                vm.notes.push("host: no free register, the harness's trip counter is in memory".into());
                            }
                        }
                        Err(e) => vm.notes.push(format!("host: {e}")),
                    }
                }
            }
            Err(e) => {
                for s in &mut studies {
                    for v in s.variants.iter_mut().filter(|v| v.isa == Isa::X86_64) {
                        v.notes.push(format!("host: {e:#}"));
                    }
                }
            }
        }
        host_forwarding = host::forwarding_on_host().ok();
        // The harness checked against each kernel's own time an item (the caller's thread, as
        // the harness).
        if let Some(ghz) = host_ghz {
            for s in &mut studies {
                let ids: Vec<&str> = s.variants.iter().filter(|v| v.isa == Isa::X86_64).map(|v| v.id.as_str()).collect();
                let (_, cov) = kernel::coverage(&s.study);
                match kernel::time_kernels(&s.study, &ids) {
                    Ok(times) => {
                        for t in times {
                            let Some(h) = s.variants.iter_mut().find(|v| v.id == t.id).and_then(|v| v.host.as_mut()) else { continue };
                            let cycles = t.ns_per_item * ghz;
                            let ratio = h.measured / cycles;
                            let (coverage, agrees) = match cov {
                                kernel::Coverage::Loop => ("loop", (ratio - 1.0).abs() <= OFF),
                                _ => ("bound", ratio <= 1.0 + OFF),
                            };
                            h.kernel = Some(KernelFigure {
                                case: t.case.to_string(),
                                cycles_per_item: cycles,
                                median_cycles_per_item: t.median_ns_per_item * ghz,
                                coverage: coverage.into(),
                                ratio,
                                agrees,
                            });
                        }
                    }
                    Err(e) => s.errors.push(format!("kernel wall clock: {e:#}")),
                }
            }
        }
    }
    // A reason for every flagged row and every row whose harness disagrees with its kernel's
    // own time, from what the model found in it.
    for s in &mut studies {
        for v in &mut s.variants {
            let r = v.host.as_ref().filter(|h| h.flagged || h.kernel.as_ref().is_some_and(|k| !k.agrees)).map(|h| reason(v, h, host_forwarding.as_ref()));
            if let (Some(h), Some(r)) = (v.host.as_mut(), r) {
                h.reason = Some(r);
            }
        }
    }
    // Differences against each row's baseline (the study's; an arm64 row's arm64 baseline).
    for s in &mut studies {
        let all = s.variants.clone();
        for v in &mut s.variants {
            let Some(b) = all.iter().find(|x| x.id == v.baseline) else { continue };
            for p in &mut v.per_cpu {
                p.diff_vs_baseline = b.per_cpu.iter().find(|q| q.cpu == p.cpu).map(|q| p.predicted - q.predicted);
            }
            if let (Some(h), Some(bh)) = (v.host.as_mut(), b.host.as_ref()) {
                h.diff_vs_baseline = Some(h.measured - bh.measured);
            }
        }
    }
    Ok(ModelReport {
        llvm_mca: version,
        cpus: opts.cpus.clone(),
        host: host_cpu,
        host_model,
        host_forwarding,
        host_ghz,
        studies,
        forwarding: recurrence::FORWARDING.to_vec(),
        caveats: caveats(),
    })
}

/// How far a prediction may be from the host's measurement (and the harness from the kernel's
/// own time) before the row is flagged: ±25%.
pub const OFF: f64 = 0.25;

/// Why a flagged row's prediction is off, from what the model found in it, with the evidence.
fn reason(v: &VariantModel, h: &HostFigure, fw: Option<&host::HostForwarding>) -> String {
    let p = v.per_cpu.iter().find(|p| p.cpu == h.model);
    let mut why = vec![];
    if let Some(k) = &h.kernel {
        if !k.agrees {
            why.push(match k.coverage.as_str() {
                // The harness faster than the kernel, with calls the rewrite dropped: those are
                // work the kernel does and neither llvm-mca nor the harness runs.
                "loop" if k.ratio < 1.0 && v.calls_dropped > 0 => format!(
                    "harness: its loop runs at {:.2}x the kernel's own {:.2} cycles an item ({}, wall clock); the kernel also executes the \
                     {} calls/rets a trip the rewrite drops (no front end in llvm-mca or the harness){}",
                    k.ratio,
                    k.cycles_per_item,
                    k.case,
                    v.calls_dropped,
                    fw.map_or(String::new(), |f| format!(
                        ": a nested call/call/ret/ret trip alone takes {:.2} cycles on this host, the gap is {:.2}",
                        f.nested_call_ret,
                        k.cycles_per_item - h.measured
                    ))
                ),
                "loop" => format!(
                    "harness: its loop runs at {:.2}x the kernel's own {:.2} cycles an item ({}, wall clock): it does not run this loop as the kernel does",
                    k.ratio, k.cycles_per_item, k.case
                ),
                _ => format!("harness: its loop takes longer ({:.2}) than the whole kernel an item ({:.2}, {})", h.measured, k.cycles_per_item, k.case),
            });
        }
    }
    // The block's fastest process ran on a disturbed core: its probe slower than the run's best
    // by more than the flag's margin.
    if h.probe_ipc * (1.0 + OFF) < h.probe_best_ipc {
        why.push(format!(
            "host: the core was shared while this block ran (its fastest process's throughput probe {:.2} independent adds a cycle, \
             {:.2} at best in this run)",
            h.probe_ipc, h.probe_best_ipc
        ));
    }
    // The whole run disturbed: the harness's failed-forward block, a pattern with a cited
    // figure for this core, ran slower than that figure by more than the flag's margin.
    if let (Some(f), Some(cited)) = (fw, recurrence::failed_forward(&h.model)) {
        if f.split_write_read > (1.0 + OFF) * cited.cycles {
            why.push(format!(
                "host: this run's reference block ran slow (fw_split_write_read {:.2} cycles a trip against {:.2} cited for {}): a disturbed host",
                f.split_write_read, cited.cycles, h.model
            ));
        }
    }
    if h.median > (1.0 + OFF) * h.measured {
        why.push(format!("host: the harness's processes ranged from {:.2} to a median {:.2} (a busy shared host)", h.measured, h.median));
    }
    if let Some(p) = p {
        if p.stall_cycles.is_some_and(|s| s >= p.predicted) {
            why.push(format!(
                "the failed-forward stall ({:.2} cycles, the cited figure) sets the prediction; llvm-mca's own {:.2}",
                p.stall_cycles.unwrap(),
                p.mca.cycles_per_iter
            ));
        } else if p.chain_cycles.is_some_and(|c| c >= p.predicted && c > p.mca.cycles_per_iter) {
            why.push(format!("the memory chain ({:.2} cycles at the table's figure) sets the prediction; llvm-mca's own {:.2}", p.chain_cycles.unwrap(), p.mca.cycles_per_iter));
        }
    }
    // Faster than predicted on a core that folds immediate adds at rename: the block's
    // `add/sub/inc/dec reg[, imm]` take no ALU port there, where llvm-mca's model issues each
    // to one.
    if let Some(f) = fw.filter(|f| f.imm_adds_per_cycle > 1.5 && h.measured * (1.0 + OFF) < h.predicted) {
        let n = folded_adds(&v.block);
        if n > 0 {
            why.push(format!(
                "host: this core folds immediate adds at rename (a dependent chain of them ran {:.1} a cycle here) and the block has {n} \
                 (`add/sub/inc/dec` of a register by a constant); {}'s model issues each to an ALU port",
                f.imm_adds_per_cycle, h.model
            ));
        }
    }
    if why.is_empty() {
        why.push("no mechanism found in the block".into());
    }
    why.join("; ")
}

/// The block's register adds of a constant (`add/sub reg, imm`, `inc/dec reg`): what a core
/// with immediate folding ([`host::HostForwarding::imm_adds_per_cycle`]) runs at rename.
fn folded_adds(block: &str) -> usize {
    block
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (op, args) = l.split_once(char::is_whitespace)?;
            let args: Vec<&str> = args.split(',').map(str::trim).collect();
            let reg = |a: &str| !a.contains('[') && a.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            let imm = |a: &str| a.parse::<i64>().is_ok() || a.strip_prefix('-').is_some_and(|x| x.parse::<i64>().is_ok());
            match (op, args.as_slice()) {
                ("inc" | "dec", [r]) if reg(r) => Some(()),
                ("add" | "sub", [r, i]) if reg(r) && imm(i) => Some(()),
                _ => None,
            }
        })
        .count()
}

/// Flag a pipeline difference much larger than the loop's (cycles a trip): the cost is then
/// outside the loop, or in what the static model leaves out. For the report, which has the
/// pipeline's wall-clock ratio.
pub fn pipeline_flag(loop_diff: f64, pipeline_diff: f64) -> Option<String> {
    (pipeline_diff.abs() > 2.0 * loop_diff.abs() + 0.5).then(|| {
        format!(
            "the pipeline differs by {pipeline_diff:+.2} cycles an item against {loop_diff:+.2} in the loop: most of the difference is \
             outside the loop or in what the static model leaves out"
        )
    })
}

fn fmt_cell(p: &CpuPrediction, is_base: bool, uncosted: bool) -> String {
    let mut s = format!("{:.2}", p.predicted);
    if p.chain_cycles.is_some_and(|c| c >= p.mca.cycles_per_iter) {
        s.push('*');
    }
    if p.stall_cycles.is_some_and(|c| c >= p.predicted) {
        s.push('!');
    }
    if uncosted {
        s.push('?');
    }
    if !is_base && let Some(d) = p.diff_vs_baseline {
        s.push_str(&format!(" ({d:+.2})"));
    }
    s
}

fn recurrence_cell(v: &VariantModel) -> String {
    if v.recurrences.is_empty() {
        return "none".to_string();
    }
    v.recurrences
        .iter()
        .map(|x| format!("{} ({} link, {} ALU{})", x.slot, x.links, x.alu_ops, if x.renamable { "" } else { ", not renamable" }))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One table row's prediction cells for `cpus`.
fn cells(v: &VariantModel, cpus: &[&String]) -> String {
    let is_base = v.id == v.baseline;
    let mut row = String::new();
    for c in cpus {
        match v.per_cpu.iter().find(|p| &&p.cpu == c) {
            Some(p) => {
                let uncosted = !v.recurrences.is_empty() && p.chain_cycles.is_none();
                row.push_str(&format!(" {} |", fmt_cell(p, is_base, uncosted)));
            }
            None => row.push_str(" n/a |"),
        }
    }
    row
}

/// The per-study tables and the caveats, as text (Markdown tables): the x86 rows for the x86
/// cores with the host's loop-only figure, then the arm64 rows for the Arm cores, predicted only.
pub fn render(r: &ModelReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# Static per-core model ({}; cycles per trip of the hot loop)\n", r.llvm_mca);
    let _ = writeln!(
        o,
        "host: {} family {:#x} model {:#x} `{}`{} -> closest model {} ({})\n",
        r.host.vendor,
        r.host.family,
        r.host.model,
        r.host.name,
        if r.host.hypervisor { " (hypervisor)" } else { "" },
        r.host_model.as_deref().unwrap_or("none among --cpu"),
        r.host.how
    );
    if let Some(g) = r.host_ghz {
        let _ = writeln!(o, "host clock (dependent register adds, one cycle each): {g:.2} GHz\n");
    }
    if let Some(f) = r.host_forwarding {
        let _ = writeln!(
            o,
            "host store-to-load link (harness: reload, inc, store of one slot, minus the inc): {:.2} cycles with a plain reload, \
             {:.2} with a movsxd reload; a failed forward (a reload of two stores, nothing depending on it): {:.2} cycles a trip of \
             uarch-bench's fw_split_write_read, {:.2} of the Rust dir-by-value helper's `push rax; mov [rsp + 4], ecx; pop rcx`; \
             a nested call/call/ret/ret (dropped by the rewrite): {:.2} cycles a trip; dependent `add reg, 1`: {:.2} a cycle \
             (above 1: folded at rename)\n",
            f.plain, f.movsxd, f.split_write_read, f.push_store_pop, f.nested_call_ret, f.imm_adds_per_cycle
        );
    }
    let x86: Vec<&String> = r.cpus.iter().filter(|c| !is_arm_cpu(c)).collect();
    let arm: Vec<&String> = r.cpus.iter().filter(|c| is_arm_cpu(c)).collect();
    for s in &r.studies {
        let _ = writeln!(o, "## {} (cycles a trip of the loop below; the study's unit is one {}; baseline {})\n", s.study, s.unit, s.baseline);
        let x86_rows: Vec<&VariantModel> = s.variants.iter().filter(|v| v.isa == Isa::X86_64).collect();
        let arm_rows: Vec<&VariantModel> = s.variants.iter().filter(|v| v.isa == Isa::Aarch64).collect();
        if !x86_rows.is_empty() {
            let mut head = String::from("| variant |");
            let mut sep = String::from("|---|");
            for c in &x86 {
                head.push_str(&format!(" {c} |"));
                sep.push_str("---|");
            }
            let hm = r.host_model.clone().unwrap_or_else(|| x86.first().map_or_else(String::new, |c| c.to_string()));
            head.push_str(&format!(" bottleneck ({hm}) | memory recurrence | host measured (vs {hm}) | kernel, wall clock | why off |"));
            sep.push_str("---|---|---|---|---|");
            let _ = writeln!(o, "{head}\n{sep}");
            for v in &x86_rows {
                let is_base = v.id == v.baseline;
                let row = format!("| {} |{}", v.id.rsplit('/').next().unwrap_or(&v.id), cells(v, &x86));
                let bn = v.per_cpu.iter().find(|p| p.cpu == hm).map(|p| p.mca.bottleneck.clone()).unwrap_or_else(|| "n/a".into());
                let host = match &v.host {
                    Some(h) => format!(
                        "{:.2}{} (pred {:.2}, {:+.0}%{})",
                        h.measured,
                        match h.diff_vs_baseline {
                            Some(d) if !is_base => format!(" ({d:+.2})"),
                            _ => String::new(),
                        },
                        h.predicted,
                        100.0 * h.off,
                        if h.flagged { ", OFF >25%" } else { "" }
                    ),
                    None => "n/a".into(),
                };
                let kernel = match v.host.as_ref().and_then(|h| h.kernel.as_ref()) {
                    Some(k) => format!(
                        "{:.2} a {} ({}: loop {:.2}x{})",
                        k.cycles_per_item,
                        s.unit,
                        if k.coverage == "loop" { "the loop's work" } else { "bounds the loop" },
                        k.ratio,
                        if k.agrees { "" } else { ", DISAGREES" }
                    ),
                    None => "-".into(),
                };
                let why = v.host.as_ref().and_then(|h| h.reason.clone()).unwrap_or_default();
                let _ = writeln!(o, "{row} {bn} | {} | {host} | {kernel} | {why} |", recurrence_cell(v));
            }
            let _ = writeln!(o);
        }
        if !arm_rows.is_empty() {
            // Beside each arm64 kernel: its gcc12-pg x86 row on the x86 model closest to the host.
            let xm = r.host_model.clone().or_else(|| x86.first().map(|c| c.to_string()));
            let bm = arm.iter().find(|c| c.as_str() == "neoverse-v2").or(arm.first()).map(|c| c.to_string()).unwrap_or_default();
            let _ = writeln!(
                o,
                "**arm64** (`{ARM_CONFIG}`: gcc 12's AArch64 code of the same C under Debian arm64 PostgreSQL 15's flags; **predicted, never \
                 measured**: the host is x86-64; differences against `{}`)\n",
                arm_rows[0].baseline.rsplit('/').next().unwrap_or("")
            );
            let mut head = String::from("| arm64 variant |");
            let mut sep = String::from("|---|");
            for c in &arm {
                head.push_str(&format!(" {c} |"));
                sep.push_str("---|");
            }
            head.push_str(&format!(" bottleneck ({bm}) | memory recurrence |"));
            sep.push_str("---|---|");
            if let Some(xm) = &xm {
                head.push_str(&format!(" x86 gcc12-pg row on {xm} |"));
                sep.push_str("---|");
            }
            let _ = writeln!(o, "{head}\n{sep}");
            for v in &arm_rows {
                let short = v.id.rsplit('/').next().unwrap_or(&v.id);
                let mut row = format!("| {} |{}", short.split('@').next().unwrap_or(short), cells(v, &arm));
                let bn = v.per_cpu.iter().find(|p| p.cpu == bm).map(|p| p.mca.bottleneck.clone()).unwrap_or_else(|| "n/a".into());
                row.push_str(&format!(" {bn} | {} |", recurrence_cell(v)));
                if let Some(xm) = &xm {
                    let base_id = v.id.split('@').next().unwrap_or(&v.id);
                    let x = s.variants.iter().find(|x| x.id == base_id).and_then(|x| x.per_cpu.iter().find(|p| &p.cpu == xm).map(|p| (x, p)));
                    match x {
                        Some((x, p)) => row.push_str(&format!(" {} |", fmt_cell(p, x.id == x.baseline, !x.recurrences.is_empty() && p.chain_cycles.is_none()))),
                        None => row.push_str(" n/a |"),
                    }
                }
                let _ = writeln!(o, "{row}");
            }
            let _ = writeln!(o);
        }
        for v in &s.variants {
            let _ = writeln!(
                o,
                "- {}: loop in {} at {} ({} blocks, back edge {}), {} instructions a trip in the asm, {} after the rewrite ({} calls/rets \
                 dropped, {} push/pop rewritten){}{}",
                v.id,
                v.symbol,
                v.path_blocks.first().map(String::as_str).unwrap_or("?"),
                v.path_blocks.len(),
                v.back_edge,
                v.path_instructions,
                v.instructions,
                v.calls_dropped,
                v.push_pop_rewritten,
                if v.inlined.is_empty() { String::new() } else { format!("; inlined {}", v.inlined.join(", ")) },
                if v.unfollowed_calls.is_empty() {
                    String::new()
                } else {
                    format!("; NOT followed: {}", v.unfollowed_calls.join(", "))
                }
            );
            for f in &v.forwarding_failures {
                let _ = writeln!(o, "  - forwarding failure (a stall at each core's cited figure, `!` where it sets the prediction): {f}");
            }
            for n in &v.notes {
                let _ = writeln!(o, "  - {n}");
            }
        }
        if let Some(v) = s.variants.first() {
            let _ = writeln!(o, "- path rule: {}", v.rule);
        }
        for e in &s.errors {
            let _ = writeln!(o, "- left out: {e}");
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(
        o,
        "`*`: the memory recurrence sets the prediction (chain > llvm-mca); `!`: failed forwards set it (stalls > llvm-mca); `?`: a \
         recurrence no cited figure costs on this core (llvm-mca's figure alone). Forwarding cost a link (renamed / not renamable):"
    );
    for c in &r.cpus {
        match r.forwarding.iter().find(|f| f.cpu == c) {
            Some(f) => {
                let _ = writeln!(o, "- {}: {:.2} / {:.2} cycles ({})", f.cpu, f.cycles, f.unrenamed, f.source);
            }
            None => {
                let why = recurrence::NO_FORWARDING_FIGURE.iter().find(|n| n.0 == c.as_str()).map_or("no figure in the table", |n| n.1);
                let _ = writeln!(o, "- {c}: not costed ({why})");
            }
        }
    }
    let _ = writeln!(o, "\nCaveats:");
    for c in &r.caveats {
        let _ = writeln!(o, "- {c}");
    }
    o
}

/// `hotloops model [STUDY|ID] [--cpu LIST] [--json]`.
pub fn cli(target: Option<&str>, cpu: Option<&str>, json: bool, no_measure: bool, configs: &[String]) -> Result<()> {
    let mut opts = Options::default();
    if let Some(c) = cpu {
        opts.cpus = parse_cpus(c)?;
    }
    opts.measure = !no_measure;
    // Resolve the target and configurations first so a bad name is a usage error even
    // without llvm-mca.
    resolve(target)?;
    if !configs.is_empty() {
        // The arm64 configuration has no study rows: its rows come with the Arm cores, so
        // `--config gcc12-pg-arm64` alone keeps the C rows of the linked configurations out.
        let linked: Vec<String> = configs.iter().filter(|c| c.as_str() != ARM_CONFIG).cloned().collect();
        let mut notes = vec![];
        opts.configs =
            Some(if linked.is_empty() { vec![] } else { study::select_configs(&linked, true, &mut notes).map_err(|e| Usage(format!("{e:#}")))? });
    }
    let r = build(target, &opts)?;
    if json {
        crate::outln!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        crate::out!("{}", render(&r));
    }
    Ok(())
}

/// The static-model blocks of `hotloops report`, one per study in order: the table and
/// caveats, or a note saying what to install. Never fails. The studies are modelled in one run
/// (one llvm-mca queue over every core, one harness build). Each study's `pipeline` holds its
/// variants' wall-clock difference from the baseline in ns an item (one case); each is turned
/// into cycles with the host's add clock and set beside the loop's measured difference, and a
/// pipeline difference much larger than the loop's is flagged ([`pipeline_flag`]).
/// `configs`: the C configurations whose rows the report runs (None: all). Beside each block,
/// the study's model as `hotloops model STUDY --json` gives it (None where it did not run).
pub fn report_blocks(studies: &[(&str, &[(String, f64)])], configs: Option<&[&'static str]>) -> Vec<(String, Option<ModelReport>)> {
    if mca::version().is_none() {
        return studies.iter().map(|_| (format!("Static core model: not run: {}.\n", mca::missing_message()), None)).collect();
    }
    let opts = Options { measure: true, configs: configs.map(<[_]>::to_vec), ..Options::default() };
    let targets: Vec<Option<&str>> = studies.iter().map(|(s, _)| Some(*s)).collect();
    match build_many(&targets, &opts) {
        Ok(mut all) => {
            let modelled = std::mem::take(&mut all.studies);
            studies
                .iter()
                .map(|(name, pipeline)| {
                    // Each study's block as a run of that study alone prints it.
                    let r = ModelReport { studies: modelled.iter().filter(|s| s.study == *name).cloned().collect(), ..all.clone() };
                    let mut o = render(&r);
                    o.push_str(&pipeline_lines(&r, pipeline));
                    (o, Some(r))
                })
                .collect()
        }
        Err(e) => studies.iter().map(|_| (format!("Static core model: not run: {e:#}\n"), None)).collect(),
    }
}

/// The loop against the pipeline, a line a variant (empty without a host clock or pipeline).
pub fn pipeline_lines(r: &ModelReport, pipeline: &[(String, f64)]) -> String {
    let Some(ghz) = r.host_ghz else { return String::new() };
    let mut o = String::new();
    for s in &r.studies {
        for v in &s.variants {
            let (Some(h), Some((_, ns))) = (&v.host, pipeline.iter().find(|(id, _)| id == &v.id)) else { continue };
            let Some(loop_diff) = h.diff_vs_baseline else { continue };
            let pipe = ns * ghz;
            if o.is_empty() {
                let _ = writeln!(o, "\nThe loop against the pipeline (cycles an item against {}, host clock {ghz:.2} GHz):\n", s.baseline);
            }
            let flag = pipeline_flag(loop_diff, pipe).map(|f| format!(": **{f}**")).unwrap_or_default();
            let _ = writeln!(o, "- {}: loop {loop_diff:+.2} measured, pipeline {pipe:+.2}{flag}", v.id);
        }
    }
    o
}

/// Whether llvm-mca 19 is installed (for callers that want to say so before running).
pub fn available() -> Result<String> {
    mca::version().ok_or_else(|| anyhow!(mca::missing_message()))
}

#[cfg(test)]
mod tests {
    use super::folded_adds;

    #[test]
    fn folded_adds_counts_register_adds_of_a_constant_only() {
        let block = ".intel_syntax noprefix\n.Lhl_block:\n\tinc rbp\n\tinc r15\n\tinc dword ptr [r13 + 132]\n\tadd rcx, rbp\n\
                     \tadd rax, 8\n\tsub rsp, -16\n\tdec r14d\n\tadd qword ptr [rsp + 8], 1\n\tlea rax, [rax + 1]\n";
        // inc rbp, inc r15, add rax 8, sub rsp -16, dec r14d; not the memory forms, the
        // register-register add or the lea.
        assert_eq!(folded_adds(block), 5);
        assert_eq!(folded_adds(""), 0);
    }
}
