//! Static per-core predictions (issue 13): does a variant's gain depend on the core?
//!
//! For every kernel, the steady state of its hot loop is read from the normalised asm
//! snapshot ([`block`]), its helpers inlined; the stack operations llvm-mca 19 mis-models are
//! rewritten ([`rewrite`]); llvm-mca 19 predicts cycles per iteration, IPC, the bottleneck and
//! port pressure for several CPU models ([`mca`]); loop-carried chains through memory, which
//! llvm-mca ignores, are detected and costed with a per-core forwarding table
//! ([`recurrence`]); and each block is timed loop-only on the host beside the prediction of
//! the model closest to the host's core ([`host`]).
//!
//! Layer: beside `asm` and `measure`; imports `asm` and `study` only (never `report`).

pub mod block;
pub mod host;
pub mod mca;
pub mod recurrence;
pub mod regs;
pub mod rewrite;

use crate::study::{self, STUDIES};
use anyhow::{Context, Result, anyhow};
use std::fmt::Write as _;
use std::path::Path;

/// The CPU models predicted by default.
pub const DEFAULT_CPUS: [&str; 6] = ["skylake", "icelake-server", "sapphirerapids", "alderlake", "znver3", "znver4"];

/// CPU names that share one LLVM 19 scheduling model (ground-truth.md §3): the first name's
/// figures hold for the others.
pub const SHARED_MODELS: &[(&str, &[&str])] = &[
    ("alderlake", &["raptorlake", "arrowlake"]),
    ("sapphirerapids", &["graniterapids"]),
    ("icelake-server", &["rocketlake"]),
    ("znver4", &["znver5"]),
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
    Ok(KernelBlock { id: id.to_string(), steady, rewritten, mca_text, recurrences, forwarding_failures })
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
    /// max(llvm-mca, chain).
    pub predicted: f64,
    /// predicted - baseline's predicted (cycles a trip).
    pub diff_vs_baseline: Option<f64>,
}

/// The host's loop-only measurement of one block beside the closest model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HostFigure {
    /// Measured cycles a trip.
    pub measured: f64,
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
}

/// One variant's model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VariantModel {
    /// Variant id.
    pub id: String,
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
    pub host_forwarding: Option<(f64, f64)>,
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
    fn default() -> Self {
        Options { cpus: DEFAULT_CPUS.iter().map(|s| s.to_string()).collect(), measure: true, snapshots: crate::asm::snapshot_dir(), configs: None }
    }
}

/// Parse `--cpu a,b,c` (names llvm-mca 19 knows).
pub fn parse_cpus(list: &str) -> Result<Vec<String>, Usage> {
    let cpus: Vec<String> = list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if cpus.is_empty() {
        return Err(Usage("--cpu needs at least one CPU name".into()));
    }
    for c in &cpus {
        if !KNOWN_CPUS.contains(&c.as_str()) {
            return Err(Usage(format!("unknown CPU `{c}`; known CPU models are: {}", KNOWN_CPUS.join(", "))));
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
         stores, or wider than its store) are listed but not added"
            .into(),
        format!("CPU names sharing one LLVM 19 scheduling model: {}; znver3 and znver4 gave identical figures on these loops", shared.join("; ")),
        "host figures: loop-only harness (each block assembled into a loop of its own, branches to the next instruction, addresses \
         into a scratch buffer), cycles from a dependent-add clock; a prediction off by >25% is flagged"
            .into(),
    ]
}

/// Run the models (llvm-mca must be installed: see [`mca::version`]).
pub fn build(target: Option<&str>, opts: &Options) -> Result<ModelReport> {
    let version = mca::version().ok_or_else(|| Usage(mca::missing_message()))?;
    let host_cpu = host::host_cpu();
    let host_model = host::closest_in(&host_cpu.closest, &opts.cpus);
    let mut studies = vec![];
    // Each variant's block, and where it lands in `studies`.
    let mut blocks: Vec<(usize, usize, KernelBlock)> = vec![];
    for (info, ids) in resolve(target)? {
        let mut sm = StudyModel { study: info.name.into(), unit: info.unit.into(), baseline: info.baseline.into(), variants: vec![], errors: vec![] };
        for id in ids {
            if let (Some(cs), Ok(v)) = (&opts.configs, info.variant(id)) {
                if !v.in_configs(cs) {
                    continue;
                }
            }
            let kb = match kernel_block(&opts.snapshots, id) {
                Ok(k) => k,
                Err(e) => {
                    sm.errors.push(format!("{id}: {e:#}"));
                    continue;
                }
            };
            sm.variants.push(VariantModel {
                id: id.into(),
                symbol: kb.steady.symbol.clone(),
                rule: kb.steady.rule.clone(),
                path_blocks: kb.steady.path_blocks.clone(),
                back_edge: kb.steady.back_edge.clone(),
                inlined: kb.steady.inlined.clone(),
                unfollowed_calls: kb.steady.unfollowed_calls.clone(),
                instructions: kb.rewritten.insns.len(),
                calls_dropped: kb.rewritten.calls_dropped,
                push_pop_rewritten: kb.rewritten.push_pop_rewritten,
                recurrences: kb.recurrences.clone(),
                forwarding_failures: kb.forwarding_failures.clone(),
                block: kb.mca_text.clone(),
                per_cpu: vec![],
                host: None,
                notes: vec![],
            });
            blocks.push((studies.len(), sm.variants.len() - 1, kb));
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
    // One llvm-mca a (block, CPU model), on every core the process started with: static
    // predictions, nothing timed here, so a report's pinned thread need not hold them to one.
    let jobs: Vec<(usize, &str)> = (0..distinct.len()).flat_map(|b| opts.cpus.iter().map(move |c| (b, c.as_str()))).collect();
    let runs = crate::host::affinity::untimed_map(&jobs, |&(b, cpu)| mca::run(cpu, &distinct[b].mca_text));
    for ((s, v, kb), &b) in blocks.iter().zip(&slot) {
        let vm = &mut studies[*s].variants[*v];
        for (c, cpu) in opts.cpus.iter().enumerate() {
            let j = b * opts.cpus.len() + c;
            match &runs[j] {
                Ok(r) => {
                    let r = r.clone();
                    let (predicted, chain) = combine(r.cycles_per_iter, &kb.recurrences, cpu);
                    vm.per_cpu.push(CpuPrediction {
                        cpu: cpu.clone(),
                        mca: r,
                        chain_cycles: chain,
                        forwarding: recurrence::forwarding(cpu).map(|f| f.cycles),
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
    if opts.measure {
        let harness: Vec<host::HarnessBlock> = distinct.iter().map(|kb| (kb.rewritten.insns.clone(), kb.rewritten.taken.clone())).collect();
        // HOTLOOPS_MODEL_HARNESS_OUT=FILE keeps the exact code timed, for review.
        let keep = std::env::var_os("HOTLOOPS_MODEL_HARNESS_OUT").map(std::path::PathBuf::from);
        // Timed: on the caller's thread (a report's pinned core), one block at a time.
        match host::measure_blocks(&harness, 2_000_000, keep.as_deref()) {
            Ok(res) => {
                for ((s, v, _), &b) in blocks.iter().zip(&slot) {
                    let vm = &mut studies[*s].variants[*v];
                    match res[b].clone() {
                        Ok(m) => {
                            host_ghz.get_or_insert(m.ghz);
                            let pred = host_model.as_ref().and_then(|hm| vm.per_cpu.iter().find(|p| &p.cpu == hm));
                            if let Some(p) = pred {
                                let off = (p.predicted - m.cycles_per_iter) / m.cycles_per_iter;
                                vm.host = Some(HostFigure {
                                    measured: m.cycles_per_iter,
                                    diff_vs_baseline: None,
                                    model: p.cpu.clone(),
                                    predicted: p.predicted,
                                    off,
                                    flagged: off.abs() > 0.25,
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
                    for v in &mut s.variants {
                        v.notes.push(format!("host: {e:#}"));
                    }
                }
            }
        }
        host_forwarding = host::forwarding_on_host().ok();
    }
    // Differences against each study's baseline.
    for s in &mut studies {
        let base = s.variants.iter().find(|v| v.id == s.baseline).cloned();
        if let Some(b) = base {
            for v in &mut s.variants {
                for p in &mut v.per_cpu {
                    p.diff_vs_baseline = b.per_cpu.iter().find(|q| q.cpu == p.cpu).map(|q| p.predicted - q.predicted);
                }
                if let (Some(h), Some(bh)) = (v.host.as_mut(), b.host.as_ref()) {
                    h.diff_vs_baseline = Some(h.measured - bh.measured);
                }
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

fn fmt_cell(p: &CpuPrediction, is_base: bool) -> String {
    let mut s = format!("{:.2}", p.predicted);
    if p.chain_cycles.is_some_and(|c| c >= p.mca.cycles_per_iter) {
        s.push('*');
    }
    if !is_base && let Some(d) = p.diff_vs_baseline {
        s.push_str(&format!(" ({d:+.2})"));
    }
    s
}

/// The per-study tables and the caveats, as text (Markdown tables).
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
        let _ = writeln!(o, "host clock (dependent adds, one cycle each): {g:.2} GHz\n");
    }
    if let Some((plain, sx)) = r.host_forwarding {
        let _ = writeln!(
            o,
            "host store-to-load link (harness: reload, inc, store of one slot, minus the inc): {plain:.2} cycles with a plain reload, \
             {sx:.2} with a movsxd reload\n"
        );
    }
    for s in &r.studies {
        let _ = writeln!(o, "## {} (cycles a trip of the loop below; the study's unit is one {}; baseline {})\n", s.study, s.unit, s.baseline);
        let mut head = String::from("| variant |");
        let mut sep = String::from("|---|");
        for c in &r.cpus {
            head.push_str(&format!(" {c} |"));
            sep.push_str("---|");
        }
        let hm = r.host_model.clone().unwrap_or_else(|| r.cpus[0].clone());
        head.push_str(&format!(" bottleneck ({hm}) | memory recurrence | host measured (vs {hm}) |"));
        sep.push_str("---|---|---|");
        let _ = writeln!(o, "{head}\n{sep}");
        for v in &s.variants {
            let is_base = v.id == s.baseline;
            let mut row = format!("| {} |", v.id.rsplit('/').next().unwrap_or(&v.id));
            for c in &r.cpus {
                match v.per_cpu.iter().find(|p| &p.cpu == c) {
                    Some(p) => row.push_str(&format!(" {} |", fmt_cell(p, is_base))),
                    None => row.push_str(" n/a |"),
                }
            }
            let bn = v.per_cpu.iter().find(|p| p.cpu == hm).map(|p| p.mca.bottleneck.clone()).unwrap_or_else(|| "n/a".into());
            let rec = if v.recurrences.is_empty() {
                "none".to_string()
            } else {
                v.recurrences
                    .iter()
                    .map(|x| format!("{} ({} link, {} ALU{})", x.slot, x.links, x.alu_ops, if x.renamable { "" } else { ", not renamable" }))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
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
            let _ = writeln!(o, "{row} {bn} | {rec} | {host} |");
        }
        let _ = writeln!(o);
        for v in &s.variants {
            let _ = writeln!(
                o,
                "- {}: loop in {} at {} ({} blocks, back edge {}), {} instructions after the rewrite ({} calls/rets dropped, {} push/pop \
                 rewritten){}{}",
                v.id,
                v.symbol,
                v.path_blocks.first().map(String::as_str).unwrap_or("?"),
                v.path_blocks.len(),
                v.back_edge,
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
                let _ = writeln!(o, "  - forwarding failure (not in the prediction): {f}");
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
    let _ = writeln!(o, "`*`: the memory recurrence sets the prediction (chain > llvm-mca). Forwarding cost a link (renamed / not renamable):");
    for f in r.forwarding.iter().filter(|f| r.cpus.iter().any(|c| c == f.cpu)) {
        let _ = writeln!(o, "- {}: {:.2} / {:.2} cycles ({})", f.cpu, f.cycles, f.unrenamed, f.source);
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
        let mut notes = vec![];
        opts.configs = Some(study::select_configs(configs, true, &mut notes).map_err(|e| Usage(format!("{e:#}")))?);
    }
    let r = build(target, &opts)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", render(&r));
    }
    Ok(())
}

/// The static-model block for one study in `hotloops report`: the table and caveats, or a
/// note saying what to install. Never fails.
pub fn report_block(study_name: &str) -> String {
    report_block_with(study_name, &[], None)
}

/// [`report_block`], with the report's pipeline beside the loop: `pipeline` holds each
/// variant's wall-clock difference from the baseline in ns an item (one case). Each is turned
/// into cycles with the host's add clock and set beside the loop's measured difference, and
/// a pipeline difference much larger than the loop's is flagged ([`pipeline_flag`]).
/// `configs`: the C configurations whose rows the report runs (None: all).
pub fn report_block_with(study_name: &str, pipeline: &[(String, f64)], configs: Option<&[&'static str]>) -> String {
    if mca::version().is_none() {
        return format!("Static core model: not run: {}.\n", mca::missing_message());
    }
    let opts = Options { measure: true, configs: configs.map(<[_]>::to_vec), ..Options::default() };
    match build(Some(study_name), &opts) {
        Ok(r) => {
            let mut o = render(&r);
            o.push_str(&pipeline_lines(&r, pipeline));
            o
        }
        Err(e) => format!("Static core model: not run: {e:#}\n"),
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
