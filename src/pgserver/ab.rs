//! `hotloops pg ab A B --workload W`: two servers, one verdict at the claim's precision.
//!
//! A and B run at once on identical copies of one data directory (the workload's setup,
//! loaded once per server version and variables, cached), prewarmed, with a third server
//! beside them: A again in another code layout (its A/A). One persistent connection each,
//! through a client library. Every measured statement runs on the three in a palindrome,
//! `X Y Z Z Y X` with the order rotated block by block, so drift and shared noise cancel; a
//! block's ratio is B's time over A's, and the A/A's is A-again's over A's. Postmasters are
//! restarted, each in its next layout, epoch by epoch: layouts and fresh processes are the
//! levels of a hierarchical bootstrap (layouts, then postmaster epochs, then blocks). The run
//! stops when the interval of B/A reaches `--precision` or the budget ends, and says which.
//!
//! Measures per statement: the client's latency, the plan node's time where the workload asks
//! (`-- hl: explain NODE`), and the backend's CPU time (`/proc/PID/schedstat`). A pgbench
//! script runs its `\set`s here with one client (the same keys on all three servers in a
//! block), or through pgbench itself in short interleaved slices with `--clients N`.
//!
//! `--design rounds` measures the same servers the way hackers' shell loops do (whole runs,
//! one server after the other, per round), for comparison.

use super::build::{self, Build};
use super::cluster::Cluster;
use super::workload::{Kind, ScriptCmd, Step, Workload};
use super::{Install, UsageError, data_dir, proc};
use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `hotloops pg ab`'s arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct AbArgs {
    /// Server A, the baseline: `18` (PostgreSQL 18 built from source by `pg build`, stock),
    /// `18+patches/NAME.patch` (the same with a patch), a build's name (`hotloops list
    /// --servers`), `wheel:18` (the installed wheel or Debian package), or a pg_config path.
    pub a: String,
    /// Server B, the same forms as A.
    pub b: String,
    /// The workload: a `.sql` file (each statement timed) or a `.pgbench` script (see
    /// docs/pg-ab.md for the `-- hl:` lines).
    #[arg(long)]
    pub workload: PathBuf,
    /// A workload variable (`rows=10000000`); repeatable.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// A server setting on top of the workload's (`shared_buffers=2GB`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// An environment variable of every server's postmaster (`MALLOC_TRIM_THRESHOLD_=67108864`);
    /// repeatable.
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// An environment variable of B's postmaster only (a glibc setting as B against stock A).
    #[arg(long = "env-b", value_name = "NAME=VALUE")]
    pub env_b: Vec<String>,
    /// The target half-width of B/A's 95% interval, in percent (0.05 to 50; default 1, 0.5
    /// with --full).
    #[arg(long, value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// The time budget for measuring, seconds (30 to 86,400; default 300, 1,200 with --full).
    #[arg(long, value_parser = crate::host::in_range::<u64>(30, 86_400))]
    pub budget_s: Option<u64>,
    /// Seconds of blocks between postmaster restarts (5 to 3,600; default: an eighth of the
    /// budget, at least 15).
    #[arg(long, value_parser = crate::host::in_range::<u64>(5, 3_600))]
    pub epoch_s: Option<u64>,
    /// The workload's full size (its variables' `(full: ...)` values), a 0.5% target and a
    /// 20-minute budget.
    #[arg(long)]
    pub full: bool,
    /// pgbench clients (1 to 256): more than one runs pgbench itself in interleaved slices.
    #[arg(long, default_value_t = 1, value_parser = crate::host::in_range::<u32>(1, 256))]
    pub clients: u32,
    /// `interleaved` (statement by statement, the default) or `rounds` (whole runs of each
    /// server one after the other, as shell loops do: for comparison).
    #[arg(long, default_value = "interleaved", value_parser = ["interleaved", "rounds"])]
    pub design: String,
    /// The metric the verdict and the stopping rule use: `node` (the plan node), `latency`,
    /// `cpu` (the backend's), `tx` (pgbench's time a transaction). Default: node where the
    /// workload explains, else latency (tx for pgbench slices).
    #[arg(long, value_parser = ["node", "latency", "cpu", "tx"])]
    pub metric: Option<String>,
    /// The claimed effect of B against A in percent (negative: B faster), for the verdict.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_claim)]
    pub claim: Option<f64>,
    /// Code layouts of each build to rotate through (1 to 8; a build has 2 unless built with
    /// more). 1 leaves the A/A as two clusters of one binary.
    #[arg(long, default_value_t = 2, value_parser = crate::host::in_range::<u32>(1, 8))]
    pub layouts: u32,
    /// Skip the why-view: callgrind of both servers function by function, and the asm diff.
    #[arg(long)]
    pub no_why: bool,
    /// Seed of the pgbench scripts' random keys.
    #[arg(long, default_value_t = 1, value_parser = crate::host::in_range::<u64>(0, u64::MAX as u128))]
    pub seed: u64,
    /// Output directory (ab.json, ab.md, ab.svg).
    #[arg(long, default_value = "target/hotloops-pg-ab")]
    pub out: PathBuf,
}

fn parse_precision(s: &str) -> std::result::Result<f64, String> {
    let v: f64 = s.trim_end_matches('%').parse().map_err(|_| format!("{s} is not a number"))?;
    if (0.05..=50.0).contains(&v) { Ok(v) } else { Err(format!("{v} is outside 0.05 to 50 (percent)")) }
}

fn parse_claim(s: &str) -> std::result::Result<f64, String> {
    let v: f64 = s.trim_end_matches('%').parse().map_err(|_| format!("{s} is not a number"))?;
    if v != 0.0 && (-95.0..=1000.0).contains(&v) { Ok(v) } else { Err(format!("{v}: a claim is a non-zero percent between -95 and 1000")) }
}

/// One side of a comparison: the build (if a source build) and an install per layout.
pub struct Side {
    /// As given (`18+patches/x.patch`).
    pub spec: String,
    /// The build, where it is one.
    pub build: Option<Build>,
    /// One install per layout (one for a wheel or a pg_config).
    pub installs: Vec<Install>,
}

/// What a side was, for the results.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SideInfo {
    /// As given.
    pub spec: String,
    /// `postgres --version`.
    pub version: String,
    /// The build's name, source, patches and flags, or where the install came from.
    pub what: String,
    /// `pg_config --cflags`.
    pub cflags: String,
    /// Each layout's name and how it was linked.
    pub layouts: Vec<String>,
    /// Patches (path, sha256).
    pub patches: Vec<(String, String)>,
}

impl Side {
    fn info(&self) -> SideInfo {
        let i = &self.installs[0];
        SideInfo {
            spec: self.spec.clone(),
            version: i.version.clone(),
            what: self.build.as_ref().map(|b| format!("build {}: {}", b.name, b.summary())).unwrap_or_else(|| i.source.clone()),
            cflags: i.cflags.clone(),
            layouts: match &self.build {
                Some(b) => b.layouts.iter().take(self.installs.len()).map(|l| format!("{}: {}", l.name, l.how)).collect(),
                None => vec!["the install's one binary".into()],
            },
            patches: self.build.as_ref().map(|b| b.patches.iter().map(|p| (p.path.clone(), p.sha256.clone())).collect()).unwrap_or_default(),
        }
    }
}

/// Resolve a side: a build (its name, `MAJOR`, `MAJOR+PATCH...`), `wheel:MAJOR`, a pg_config.
pub fn resolve_side(spec: &str, layouts: u32) -> Result<Side> {
    if let Some(m) = spec.strip_prefix("wheel:") {
        let inst = super::servers::select(&[m.to_string()], None, &[])?.remove(0);
        return Ok(Side { spec: spec.into(), build: None, installs: vec![inst] });
    }
    let p = Path::new(spec);
    if p.is_file() && p.file_name().is_some_and(|f| f == "pg_config") {
        return Ok(Side { spec: spec.into(), build: None, installs: vec![Install::find(Some(p))?] });
    }
    match build::resolve(spec, true, layouts.max(build::DEFAULT_LAYOUTS))? {
        Some(b) => {
            let n = (layouts as usize).min(b.layouts.len());
            let installs = (0..n).map(|l| b.install(l)).collect::<Result<Vec<_>>>()?;
            Ok(Side { spec: spec.into(), build: Some(b), installs })
        }
        None => Err(UsageError(format!(
            "{spec}: not a server `pg ab` knows: give MAJOR (a source build, `hotloops pg build`), MAJOR+PATCH, a build's name ({}), wheel:MAJOR, or a pg_config path",
            build::all().into_iter().flatten().map(|b| b.name).collect::<Vec<_>>().join(", ")
        ))
        .into()),
    }
}

/// An estimate of a ratio: median over blocks, with hierarchical 95% and 90% intervals.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// Median of the blocks' ratios.
    pub median: f64,
    /// 95% interval.
    pub lo: f64,
    /// See [`Estimate::lo`].
    pub hi: f64,
    /// 90% interval (an equivalence test's).
    pub lo90: f64,
    /// See [`Estimate::lo90`].
    pub hi90: f64,
    /// Blocks.
    pub n: usize,
}

impl Estimate {
    /// Half the 95% interval's width, relative to the median, in percent.
    pub fn half_width_pct(&self) -> f64 {
        (self.hi - self.lo) / 2.0 / self.median * 100.0
    }

    /// The A/A floor an estimate of an A/A pair sets: the larger of its median's distance from
    /// 1 and its half-width (as a fraction).
    pub fn floor(&self) -> f64 {
        (self.median - 1.0).abs().max((self.hi - self.lo) / 2.0)
    }
}

/// The verdict of B against A at the run's precision.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Verdict {
    /// B's whole 95% interval lies below 1 by more than the A/A floor.
    Faster,
    /// Above 1 by more than the floor.
    Slower,
    /// Neither.
    NotResolved,
}

/// Against a claim (seed cards).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum ClaimVerdict {
    /// Resolved in the claim's direction.
    Reproduced,
    /// Resolved in the other direction.
    Contradicted,
    /// The 90% interval excludes the claimed effect: it lies within [lo, hi] (percent).
    Excluded {
        /// Lower end of the effect, percent.
        lo: f64,
        /// Upper end, percent.
        hi: f64,
    },
    /// The interval holds both no effect and the claim.
    NotResolved {
        /// The run's half-width, percent.
        half_width: f64,
        /// About how many blocks would resolve the claim.
        needs_blocks: usize,
    },
}

/// EXPLAIN ANALYZE prints a node's time to 0.001 ms, so a ratio of node times moves in steps of
/// 0.001 ms over the block's sum: below 1 ms a block a step is over 0.1% and the medians of
/// ratios land on a few quantised values. Such a node's verdict is taken from the client's
/// latency instead, and the reason is kept.
pub const NODE_MIN_MS: f64 = 1.0;

/// Why a block's node time of `ms` (A's median) is too short to decide on, or None.
pub fn node_too_short(ms: f64) -> Option<String> {
    (ms < NODE_MIN_MS).then(|| {
        format!(
            "the plan node's time is {ms:.3} ms a block and EXPLAIN ANALYZE prints it to 0.001 ms, a step of {:.1}% in the ratio: the verdict uses the client's latency instead (`--metric node` keeps the node)",
            0.001 / ms.max(0.001) * 100.0
        )
    })
}

/// Why a run deciding on `primary` should decide on latency instead: the primary is the node,
/// A's node time is too short for EXPLAIN's resolution, and latency was measured.
fn short_node_note(metrics: &[MetricResult], primary: &str) -> Option<String> {
    if primary != "node" || !metrics.iter().any(|m| m.name == "latency") {
        return None;
    }
    metrics.iter().find(|m| m.name == "node").and_then(|m| node_too_short(m.medians_ms[A]))
}

/// B against A: resolved only when the whole 95% interval lies beyond the A/A floor (what
/// code layout and fresh postmasters alone move), not just its median: an interval that
/// reaches into the floor could be layout.
pub fn verdict(effect: &Estimate, floor: f64) -> Verdict {
    if effect.hi < 1.0 - floor {
        Verdict::Faster
    } else if effect.lo > 1.0 + floor {
        Verdict::Slower
    } else {
        Verdict::NotResolved
    }
}

/// B against A and a claimed effect of `claim` percent.
pub fn claim_verdict(effect: &Estimate, floor: f64, claim: f64) -> ClaimVerdict {
    match verdict(effect, floor) {
        Verdict::Faster if claim < 0.0 => return ClaimVerdict::Reproduced,
        Verdict::Slower if claim > 0.0 => return ClaimVerdict::Reproduced,
        Verdict::Faster | Verdict::Slower => return ClaimVerdict::Contradicted,
        Verdict::NotResolved => {}
    }
    let c = 1.0 + claim / 100.0;
    if c < effect.lo90 || c > effect.hi90 {
        return ClaimVerdict::Excluded { lo: (effect.lo90 - 1.0) * 100.0, hi: (effect.hi90 - 1.0) * 100.0 };
    }
    // An interval narrower than half the claim tells the two apart wherever it falls.
    let h = effect.half_width_pct().max(1e-9);
    let want = claim.abs() / 2.0;
    ClaimVerdict::NotResolved { half_width: h, needs_blocks: ((effect.n as f64) * (h / want).powi(2)).ceil() as usize }
}

/// One sentence for a verdict against a claim, with its precision.
pub fn claim_sentence(v: &ClaimVerdict, effect: &Estimate, floor: f64, claim: f64) -> String {
    let pct = (effect.median - 1.0) * 100.0;
    let iv = format!("{pct:+.2}% [{:+.2}%, {:+.2}%]", (effect.lo - 1.0) * 100.0, (effect.hi - 1.0) * 100.0);
    match v {
        ClaimVerdict::Reproduced => {
            let size = if (1.0 + claim / 100.0) < effect.lo || (1.0 + claim / 100.0) > effect.hi { format!(", though the claimed {claim:+.2}% lies outside the interval") } else { String::new() };
            format!("reproduced: {iv}, beyond the A/A floor of ±{:.2}%{size}", floor * 100.0)
        }
        ClaimVerdict::Contradicted => format!("contradicted: {iv}, the other way from the claimed {claim:+.2}% (A/A floor ±{:.2}%)", floor * 100.0),
        ClaimVerdict::Excluded { lo, hi } => format!("excluded: the effect lies within [{lo:+.2}%, {hi:+.2}%] (90%), the claim of {claim:+.2}% is outside it ({iv}; A/A floor ±{:.2}%)", floor * 100.0),
        ClaimVerdict::NotResolved { half_width, needs_blocks } => {
            let floor_note = if floor * 100.0 >= claim.abs() { format!("; the A/A floor ±{:.2}% is itself as large as the claim: layout alone moves this much", floor * 100.0) } else { String::new() };
            let holds = if effect.lo > 1.0 || effect.hi < 1.0 {
                format!("{iv} is off zero but reaches into the A/A floor of ±{:.2}% (what layout alone moves), and holds the claimed {claim:+.2}%", floor * 100.0)
            } else {
                format!("{iv} holds both no effect and the claimed {claim:+.2}%")
            };
            format!("not resolved at ±{half_width:.2}%: {holds}; needs about {needs_blocks} blocks{floor_note}")
        }
    }
}

/// One sentence for a verdict without a claim: resolved, or what the interval excludes.
pub fn sentence(v: &Verdict, effect: &Estimate, floor: f64) -> String {
    let pct = (effect.median - 1.0) * 100.0;
    let iv = format!("{pct:+.2}% [{:+.2}%, {:+.2}%]", (effect.lo - 1.0) * 100.0, (effect.hi - 1.0) * 100.0);
    match v {
        Verdict::Faster => format!("B is faster: {iv}, beyond the A/A floor of ±{:.2}%", floor * 100.0),
        Verdict::Slower => format!("B is slower: {iv}, beyond the A/A floor of ±{:.2}%", floor * 100.0),
        Verdict::NotResolved => {
            let (lo, hi) = ((effect.lo90 - 1.0) * 100.0, (effect.hi90 - 1.0) * 100.0);
            let bound = lo.abs().max(hi.abs());
            let off = if effect.lo > 1.0 || effect.hi < 1.0 { ", off zero but reaching into the floor (what layout alone moves)" } else { "" };
            format!("not resolved: {iv} (A/A floor ±{:.2}%{off}); the effect lies within [{lo:+.2}%, {hi:+.2}%] (90%): an effect larger than {bound:.2}% either way is excluded", floor * 100.0)
        }
    }
}

/// The metrics of a run, in a fixed order.
pub const METRICS: [(&str, &str); 4] = [("node", "ms"), ("latency", "ms"), ("cpu", "ms"), ("tx", "ms")];

/// One block: per metric (indexes of [`METRICS`]) and server (A, B, A again), the sum over
/// the block's timed executions; and the same per statement.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BlockRecord {
    /// The postmaster epoch.
    pub epoch: usize,
    /// The layout group (A's layout index in the epoch).
    pub group: usize,
    /// `sums[metric] = [A, B, A again]`, ms; NaN where a metric was not measured (null in JSON).
    #[serde(deserialize_with = "nan_for_null")]
    pub sums: Vec<[f64; 3]>,
    /// `steps[step][metric] = [A, B, A again]`.
    #[serde(deserialize_with = "nan_for_null_steps")]
    pub steps: Vec<Vec<[f64; 3]>>,
}

/// JSON has no NaN: serde_json writes it as null, and this reads null back as NaN.
fn nan_for_null<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Vec<[f64; 3]>, D::Error> {
    let v: Vec<[Option<f64>; 3]> = Deserialize::deserialize(d)?;
    Ok(v.into_iter().map(|x| x.map(|y| y.unwrap_or(f64::NAN))).collect())
}

/// [`nan_for_null`] a level deeper.
fn nan_for_null_steps<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Vec<Vec<[f64; 3]>>, D::Error> {
    let v: Vec<Vec<[Option<f64>; 3]>> = Deserialize::deserialize(d)?;
    Ok(v.into_iter().map(|s| s.into_iter().map(|x| x.map(|y| y.unwrap_or(f64::NAN))).collect()).collect())
}

/// One postmaster epoch.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EpochInfo {
    /// Layout names of A, B and A again.
    pub layouts: [String; 3],
    /// Blocks measured.
    pub blocks: usize,
    /// Seconds measuring.
    pub seconds: f64,
    /// The core the backends ran on, if pinned.
    pub backend_core: Option<usize>,
}

/// A metric's results.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MetricResult {
    /// `node`, `latency`, `cpu`, `tx`.
    pub name: String,
    /// Median per block of A's, B's and A-again's sums, ms.
    pub medians_ms: [f64; 3],
    /// B/A.
    pub effect: Estimate,
    /// A-again/A: the A/A.
    pub aa: Estimate,
    /// The floor the A/A sets (fraction).
    pub floor: f64,
    /// B/A per layout group (each group's own blocks).
    pub per_layout: Vec<Estimate>,
    /// B/A per statement.
    pub per_step: Vec<Estimate>,
}

/// The instructions of each side per statement, function by function (callgrind).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Why {
    /// Per statement: A's and B's total instructions.
    pub totals: Vec<(String, u64, u64)>,
    /// The functions whose own instructions differ most: (name, A, B), over all statements.
    pub functions: Vec<(String, u64, u64)>,
    /// Layout check: A's instructions per statement in its layouts (callgrind, same data): all
    /// equal when the layout moved code and nothing else.
    pub a_layouts: Vec<(String, Vec<u64>)>,
    /// The normalised asm diff of every function B's patches changed (empty without patches).
    pub asm_diff: String,
    /// Why a part is missing.
    pub notes: Vec<String>,
}

/// A run's results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AbResult {
    /// Host, commit, compilers, features.
    pub provenance: crate::host::provenance::Provenance,
    /// The command line.
    pub command: String,
    /// The workload file, its sha256, variables and settings.
    pub workload: String,
    /// See [`AbResult::workload`].
    pub workload_sha256: String,
    /// See [`AbResult::workload`].
    pub vars: Vec<(String, String)>,
    /// Server settings.
    pub settings: Vec<(String, String)>,
    /// Environment of every server's postmaster, and of B's alone.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// See [`AbResult::env`].
    #[serde(default)]
    pub env_b: Vec<(String, String)>,
    /// Statement labels.
    pub steps: Vec<String>,
    /// A and B.
    pub a: SideInfo,
    /// See [`AbResult::a`].
    pub b: SideInfo,
    /// `interleaved` or `rounds`.
    pub design: String,
    /// pgbench clients.
    pub clients: u32,
    /// The metric of the verdict.
    pub primary: String,
    /// Why the verdict's metric is not the one the workload asked for (a plan node too short
    /// for EXPLAIN's resolution), when so.
    #[serde(default)]
    pub primary_note: Option<String>,
    /// Target half-width, percent.
    pub precision: f64,
    /// Budget, seconds.
    pub budget_s: u64,
    /// The claim, percent.
    pub claim: Option<f64>,
    /// Why the run stopped.
    pub stopped: String,
    /// Epochs.
    pub epochs: Vec<EpochInfo>,
    /// Raw blocks.
    pub blocks: Vec<BlockRecord>,
    /// Per metric measured.
    pub metrics: Vec<MetricResult>,
    /// The verdict's sentence.
    pub verdict: String,
    /// The verdict.
    pub verdict_kind: Verdict,
    /// Against the claim, when given.
    pub claim_verdict: Option<ClaimVerdict>,
    /// Instructions and asm.
    pub why: Option<Why>,
    /// Seconds in all.
    pub seconds: f64,
}

impl AbResult {
    /// The primary metric's results.
    pub fn primary(&self) -> Option<&MetricResult> {
        self.metrics.iter().find(|m| m.name == self.primary)
    }

    /// Per epoch, the medians over its blocks of B/A and of the A/A on the primary metric:
    /// shows an epoch whose fresh postmasters ran apart as a whole (with the processes, not
    /// the code). `None` for an epoch with no blocks kept (a file stored without them).
    pub fn per_epoch(&self) -> Vec<Option<(f64, f64)>> {
        let Some(m) = METRICS.iter().position(|(n, _)| *n == self.primary) else { return vec![None; self.epochs.len()] };
        (0..self.epochs.len())
            .map(|e| {
                let (mut ba, mut aa) = (Vec::new(), Vec::new());
                for b in self.blocks.iter().filter(|b| b.epoch == e) {
                    let [x, y, z] = b.sums.get(m).copied().unwrap_or([f64::NAN; 3]);
                    if (y / x).is_finite() && (z / x).is_finite() {
                        ba.push(y / x);
                        aa.push(z / x);
                    }
                }
                (!ba.is_empty()).then(|| (crate::measure::stats::median(&ba), crate::measure::stats::median(&aa)))
            })
            .collect()
    }

    /// The verdict again from the stored metrics, by this build's rules (the verdict is a
    /// function of the intervals, so a file written under an older rule reads as today's run
    /// would): a node too short for EXPLAIN's resolution gives way to latency unless the run
    /// asked for the node, and the verdict, its sentence and the claim's are recomputed.
    pub fn rejudge(&mut self) {
        let asked = self.command.split_whitespace().any(|w| w == "--metric" || w.starts_with("--metric="));
        if self.primary_note.is_none() && !asked {
            if let Some(note) = short_node_note(&self.metrics, &self.primary) {
                self.primary = "latency".into();
                self.primary_note = Some(note);
            }
        }
        if let Some(pm) = self.primary() {
            let (vk, text, cv) = judge(pm, self.claim);
            self.verdict_kind = vk;
            self.verdict = text;
            self.claim_verdict = cv;
        }
    }
}

/// The verdict of a primary metric, its sentence, and the claim's verdict when there is one.
pub fn judge(pm: &MetricResult, claim: Option<f64>) -> (Verdict, String, Option<ClaimVerdict>) {
    let vk = verdict(&pm.effect, pm.floor);
    match claim {
        Some(c) => {
            let v = claim_verdict(&pm.effect, pm.floor, c);
            (vk, claim_sentence(&v, &pm.effect, pm.floor, c), Some(v))
        }
        None => {
            let t = sentence(&vk, &pm.effect, pm.floor);
            (vk, t, None)
        }
    }
}

/// The server a slot of a block is: A, B, or A again (the A/A).
const A: usize = 0;
const B: usize = 1;
const AA: usize = 2;

/// The six orders of three, cycled block by block; each block runs its order and its reverse.
const ORDERS: [[usize; 3]; 6] = [[A, B, AA], [B, AA, A], [AA, A, B], [A, AA, B], [AA, B, A], [B, A, AA]];

/// A timed execution.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    latency_ms: f64,
    node_ms: f64,
    cpu_ms: f64,
    tx_ms: f64,
}

impl Sample {
    fn get(&self, m: usize) -> f64 {
        [self.node_ms, self.latency_ms, self.cpu_ms, self.tx_ms][m]
    }
}

/// Add a measured value to a sum that starts as NaN (nothing measured); NaN values add nothing.
fn add(sum: &mut f64, v: f64) {
    if v.is_finite() {
        *sum = if sum.is_finite() { *sum + v } else { v };
    }
}

/// One connection to one server.
struct Conn {
    client: postgres::Client,
    backend: i32,
    prepared: std::collections::HashMap<String, postgres::Statement>,
}

/// The backend's CPU time so far, ns (`/proc/PID/schedstat`'s first field).
fn cpu_ns(pid: i32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/schedstat")).ok().and_then(|s| s.split_whitespace().next()?.parse().ok()).unwrap_or(f64::NAN)
}

/// The node's total time, ms, from EXPLAIN (ANALYZE, FORMAT JSON): the first node of type
/// `node` (or the top node when `node` is empty), times its loops.
pub fn node_time(json: &str, node: &str) -> Result<f64> {
    let v: serde_json::Value = serde_json::from_str(json).context("EXPLAIN's JSON")?;
    fn find<'a>(p: &'a serde_json::Value, node: &str) -> Option<&'a serde_json::Value> {
        if node.is_empty() || p.get("Node Type").and_then(|t| t.as_str()) == Some(node) {
            return Some(p);
        }
        p.get("Plans")?.as_array()?.iter().find_map(|c| find(c, node))
    }
    let plan = v.get(0).and_then(|x| x.get("Plan")).ok_or_else(|| anyhow!("EXPLAIN printed no plan"))?;
    let n = find(plan, node).ok_or_else(|| UsageError(format!("the plan has no `{node}` node (its top node is {})", plan.get("Node Type").and_then(|t| t.as_str()).unwrap_or("?"))))?;
    let t = n.get("Actual Total Time").and_then(|t| t.as_f64()).ok_or_else(|| anyhow!("the node has no Actual Total Time"))?;
    let loops = n.get("Actual Loops").and_then(|t| t.as_f64()).unwrap_or(1.0);
    Ok(t * loops)
}

/// A parameter of a prepared pgbench statement, as the server typed it.
#[derive(Debug)]
struct IntParam(i64);

impl postgres::types::ToSql for IntParam {
    fn to_sql(&self, ty: &postgres::types::Type, out: &mut postgres::types::private::BytesMut) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::Type;
        match *ty {
            Type::INT2 => i16::try_from(self.0)?.to_sql(ty, out),
            Type::INT4 => i32::try_from(self.0)?.to_sql(ty, out),
            Type::INT8 => self.0.to_sql(ty, out),
            Type::FLOAT8 => (self.0 as f64).to_sql(ty, out),
            Type::FLOAT4 => (self.0 as f32).to_sql(ty, out),
            Type::TEXT | Type::VARCHAR => self.0.to_string().to_sql(ty, out),
            _ => Err(format!("a parameter of type {ty} (only integer, float and text parameters are supported with -M prepared: use -M simple)").into()),
        }
    }
    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }
    postgres::types::to_sql_checked!();
}

/// `:name` variables of a pgbench SQL command, in order of first use, and the command with
/// `$n` in their place.
fn to_positional(sql: &str) -> (String, Vec<String>) {
    let mut names: Vec<String> = Vec::new();
    let mut out = String::new();
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b':' && i + 1 < b.len() && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') && (i == 0 || b[i - 1] != b':') {
            let end = i + 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
            let name = sql[i + 1..end].to_string();
            let k = names.iter().position(|n| *n == name).unwrap_or_else(|| {
                names.push(name);
                names.len() - 1
            });
            out += &format!("${}", k + 1);
            i = end;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    (out, names)
}

impl Conn {
    fn open(c: &Cluster, session: &[String]) -> Result<Conn> {
        let mut cfg = postgres::Config::new();
        cfg.host_path(&c.socket_dir).port(5432).user("postgres").dbname("postgres").application_name("hotloops-pg-ab");
        let mut client = cfg.connect(postgres::NoTls).with_context(|| format!("connecting to the server in {}", c.socket_dir.display()))?;
        let backend: i32 = client.query_one("SELECT pg_backend_pid()", &[])?.get(0);
        for s in session {
            client.batch_execute(s).with_context(|| format!("session statement {s}"))?;
        }
        Ok(Conn { client, backend, prepared: Default::default() })
    }

    fn exec(&mut self, sql: &str) -> Result<()> {
        self.client.simple_query(sql).with_context(|| format!("running {sql}"))?;
        Ok(())
    }

    /// Run a step: its untimed statements, then the statement timed (under EXPLAIN ANALYZE
    /// when it names a node).
    fn step(&mut self, s: &Step) -> Result<Sample> {
        for b in &s.before {
            self.exec(b)?;
        }
        let sql = match &s.explain {
            Some(_) => format!("EXPLAIN (ANALYZE, FORMAT JSON) {}", s.sql.trim_end_matches(';')),
            None => s.sql.clone(),
        };
        let cpu0 = cpu_ns(self.backend);
        let t0 = Instant::now();
        let msgs = self.client.simple_query(&sql).with_context(|| format!("running {}", s.label))?;
        let latency = t0.elapsed();
        let cpu1 = cpu_ns(self.backend);
        let node_ms = match &s.explain {
            Some(node) => {
                let json = msgs.iter().find_map(|m| match m {
                    postgres::SimpleQueryMessage::Row(r) => r.get(0).map(str::to_string),
                    _ => None,
                });
                node_time(&json.ok_or_else(|| anyhow!("EXPLAIN returned no row"))?, node)?
            }
            None => f64::NAN,
        };
        Ok(Sample { latency_ms: latency.as_secs_f64() * 1e3, node_ms, cpu_ms: (cpu1 - cpu0) / 1e6, tx_ms: f64::NAN })
    }

    /// Run a pgbench script once with the variables `vars` (drawn once for the block), simple
    /// or prepared.
    fn script(&mut self, cmds: &[ScriptCmd], vars: &[(String, String)], prepared: bool) -> Result<Sample> {
        let cpu0 = cpu_ns(self.backend);
        let t0 = Instant::now();
        for c in cmds {
            let ScriptCmd::Sql(sql) = c else { continue };
            if prepared {
                let (text, names) = to_positional(sql);
                if !self.prepared.contains_key(sql) {
                    let st = self.client.prepare(&text).with_context(|| format!("preparing {sql}"))?;
                    self.prepared.insert(sql.clone(), st);
                }
                let st = self.prepared[sql].clone();
                let params: Vec<IntParam> = names
                    .iter()
                    .map(|n| vars.iter().rev().find(|(k, _)| k == n).and_then(|(_, v)| v.parse().ok()).map(IntParam).ok_or_else(|| anyhow!("the variable :{n} is not set or not an integer")))
                    .collect::<Result<_>>()?;
                let refs: Vec<&(dyn postgres::types::ToSql + Sync)> = params.iter().map(|p| p as &(dyn postgres::types::ToSql + Sync)).collect();
                self.client.query(&st, &refs).with_context(|| format!("running {sql}"))?;
            } else {
                let text = super::workload::substitute(sql, vars).map_err(|m| anyhow!(m))?;
                self.client.simple_query(&text).with_context(|| format!("running {text}"))?;
            }
        }
        let latency = t0.elapsed();
        let cpu1 = cpu_ns(self.backend);
        Ok(Sample { latency_ms: latency.as_secs_f64() * 1e3, node_ms: f64::NAN, cpu_ms: (cpu1 - cpu0) / 1e6, tx_ms: latency.as_secs_f64() * 1e3 })
    }
}

/// The data directory a workload builds on `inst`'s major version: made once (initdb, the
/// setup through psql, pg_prewarm, a checkpoint), cached under the data directory.
fn data_for(w: &Workload, inst: &Install, settings: &[(String, String)]) -> Result<PathBuf> {
    let key = w.data_key(inst.major);
    let dir = data_dir().join("ab-data").join(&key);
    let data = dir.join("data");
    if data.join("PG_VERSION").is_file() {
        crate::say!("pg ab: data {} (cached: {})", key, data.display());
        return Ok(data);
    }
    crate::say!("pg ab: loading the workload's data on {} (once; cached as {})", inst.short_version, dir.display());
    let started = Instant::now();
    let mut c = Cluster::init_plain(inst)?;
    // Loading is not measured: no direct I/O for it (the data is the same either way).
    let set: Vec<(&str, String)> = settings.iter().filter(|(k, _)| k != "debug_io_direct").map(|(k, v)| (k.as_str(), v.clone())).collect();
    c.start(&set)?;
    match &w.kind {
        Kind::Sql => {
            c.sql(&w.setup, &w.psql_vars()).with_context(|| format!("the setup of {}", w.path.display()))?;
        }
        Kind::Pgbench { init, .. } => {
            let mut cmd = Command::new(inst.bin("pgbench"));
            cmd.arg("-i").arg("-q").arg("-h").arg(&c.socket_dir).args(["-p", "5432", "-U", "postgres"]).args(init).arg("postgres");
            let out = proc::output(&mut cmd).context("running pgbench -i")?;
            if !out.status.success() {
                bail!("pgbench -i {} failed: {}", init.join(" "), String::from_utf8_lossy(&out.stderr).trim());
            }
            if !w.setup.trim().is_empty() {
                c.sql(&w.setup, &[]).with_context(|| format!("the setup lines of {}", w.path.display()))?;
            }
        }
    }
    c.sql("CREATE EXTENSION IF NOT EXISTS pg_prewarm; VACUUM ANALYZE; CHECKPOINT;", &[]).context("preparing the cached data")?;
    let src = c.stop_for_copy().to_path_buf();
    let parent = data_dir().join("ab-data");
    std::fs::create_dir_all(&parent)?;
    let scratch = proc::Scratch::new(&parent, ".data-")?;
    let out = proc::output(Command::new("cp").arg("-a").arg(&src).arg(scratch.path().join("data")))?;
    if !out.status.success() {
        bail!("copying the loaded data directory failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    if !scratch.publish(&dir) && !data.join("PG_VERSION").is_file() {
        bail!("could not place the data at {}", dir.display());
    }
    crate::say!("pg ab: data loaded in {:.0} s", started.elapsed().as_secs_f64());
    Ok(data)
}

/// A pgbench slice on one server: `txs` transactions a client, keys from `seed`; its time a
/// transaction (ms, all clients together).
fn pgbench_slice(inst: &Install, c: &Cluster, w: &Workload, clients: u32, txs: u64, seed: u64, time_s: Option<u64>) -> Result<(f64, f64)> {
    let Kind::Pgbench { args, .. } = &w.kind else { bail!("not a pgbench workload") };
    let mut cmd = Command::new(inst.bin("pgbench"));
    cmd.arg("-n").arg("-h").arg(&c.socket_dir).args(["-p", "5432", "-U", "postgres"]);
    cmd.arg(format!("-c{clients}")).arg(format!("-j{clients}")).arg(format!("--random-seed={seed}"));
    match time_s {
        Some(t) => cmd.arg(format!("-T{t}")),
        None => cmd.arg(format!("-t{txs}")),
    };
    for (k, v) in &w.vars {
        cmd.arg("-D").arg(format!("{k}={v}"));
    }
    cmd.args(args).arg("-f").arg(&w.path).arg("postgres");
    let out = proc::output(&mut cmd).context("running pgbench")?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!("pgbench failed: {}{}", String::from_utf8_lossy(&out.stderr).trim(), text.trim());
    }
    let tps = text
        .lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l.trim_start_matches("tps = ").split_whitespace().next()?.parse::<f64>().ok())
        .ok_or_else(|| anyhow!("pgbench printed no tps:\n{text}"))?;
    let lat = text.lines().find(|l| l.starts_with("latency average = ")).and_then(|l| l.trim_start_matches("latency average = ").split_whitespace().next()?.parse::<f64>().ok()).unwrap_or(f64::NAN);
    Ok((1000.0 / tps, lat))
}

/// How a run executes its units (a unit is what one timed execution runs).
enum Unit {
    /// A `.sql` workload: unit `i` is its step `i`.
    Steps,
    /// A pgbench script run here with one client, simple or prepared: one unit, the script.
    Script(Vec<ScriptCmd>, bool),
    /// pgbench itself, `--clients N`, in slices of a fixed number of transactions.
    Slices,
}

/// The servers of an epoch, started, with their connections.
struct Exec<'a> {
    clusters: &'a [Cluster],
    installs: [&'a Install; 3],
    conns: Vec<Option<Conn>>,
    w: &'a Workload,
    unit: &'a Unit,
    clients: u32,
    /// Transactions a client in a pgbench slice.
    txs: u64,
}

impl Exec<'_> {
    fn units(&self) -> usize {
        match self.unit {
            Unit::Steps => self.w.steps.len(),
            _ => 1,
        }
    }

    /// One timed execution of unit `i` on server `slot`.
    fn exec(&mut self, slot: usize, i: usize, vars: &[(String, String)], seed: u64) -> Result<Sample> {
        match self.unit {
            Unit::Steps => self.conns[slot].as_mut().expect("a connection").step(&self.w.steps[i]),
            Unit::Script(cmds, prepared) => self.conns[slot].as_mut().expect("a connection").script(cmds, vars, *prepared),
            Unit::Slices => {
                let (tx_ms, lat) = pgbench_slice(self.installs[slot], &self.clusters[slot], self.w, self.clients, self.txs, seed, None)?;
                Ok(Sample { latency_ms: lat, node_ms: f64::NAN, cpu_ms: f64::NAN, tx_ms })
            }
        }
    }
}

/// The block's values of a script's `\set` variables, drawn once for all three servers.
fn draw(cmds: &[ScriptCmd], base: &[(String, String)], rng: &mut rand_pcg::Pcg64Mcg) -> Result<Vec<(String, String)>> {
    let mut vars = base.to_vec();
    for c in cmds {
        if let ScriptCmd::Set(n, e) = c {
            let v = e.eval(&vars, rng).map_err(|m| UsageError(format!("\\set {n}: {m}")))?;
            vars.push((n.clone(), v.to_string()));
        }
    }
    Ok(vars)
}

/// Start the three clusters in the epoch's layouts and prewarm them; connect (backends pinned
/// to the measuring core, this thread off it).
fn start_epoch(clusters: &mut [Cluster], installs: [&Install; 3], settings: &[(String, String)], w: &Workload, unit: &Unit) -> Result<(Vec<Option<Conn>>, Option<usize>)> {
    let set: Vec<(&str, String)> = settings.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    for (c, i) in clusters.iter_mut().zip(installs) {
        c.set_install(i)?;
        c.start(&set)?;
        c.sql("SELECT count(pg_prewarm(c.oid)) FROM pg_class c WHERE c.relkind IN ('r', 'i', 'm', 't') AND c.relpersistence = 'p';", &[]).context("prewarming")?;
    }
    let mut conns = Vec::new();
    let mut core = None;
    for c in clusters.iter() {
        if matches!(unit, Unit::Slices) {
            conns.push(None);
            continue;
        }
        let conn = Conn::open(c, &w.session)?;
        core = crate::host::affinity::pin_process_away_from_caller(conn.backend);
        conns.push(Some(conn));
    }
    Ok((conns, core))
}

/// The ratios of metric `m` per block (B/A when `num` is B, the A/A when it is A again; of
/// one step, or of the block's sum), as layout groups of epochs of blocks for the
/// hierarchical bootstrap.
fn estimate(blocks: &[BlockRecord], m: usize, step: Option<usize>, num: usize, seed: u64) -> Option<Estimate> {
    let val = |b: &BlockRecord| -> Option<f64> {
        let s = match step {
            Some(i) => b.steps.get(i)?.get(m)?,
            None => b.sums.get(m)?,
        };
        let r = s[num] / s[A];
        r.is_finite().then_some(r)
    };
    let mut groups: std::collections::BTreeMap<usize, std::collections::BTreeMap<usize, Vec<f64>>> = Default::default();
    let mut all = Vec::new();
    for b in blocks {
        if let Some(r) = val(b) {
            groups.entry(b.group).or_default().entry(b.epoch).or_default().push(r);
            all.push(r);
        }
    }
    if all.len() < 2 {
        return None;
    }
    let nested: Vec<Vec<&[f64]>> = groups.values().map(|g| g.values().map(|v| v.as_slice()).collect()).collect();
    let [(lo, hi), (lo90, hi90)] = crate::measure::stats::nested_median_cis(&nested, 2000, &[0.95, 0.90], seed);
    Some(Estimate { median: crate::measure::stats::median(&all), lo, hi, lo90, hi90, n: all.len() })
}

/// Every measured metric's results from the blocks.
pub fn summarise(blocks: &[BlockRecord], nsteps: usize) -> Vec<MetricResult> {
    let mut out = Vec::new();
    for (m, (name, _)) in METRICS.iter().enumerate() {
        let (Some(effect), Some(aa)) = (estimate(blocks, m, None, B, 11), estimate(blocks, m, None, AA, 12)) else { continue };
        let med = |k: usize| {
            let v: Vec<f64> = blocks.iter().map(|b| b.sums[m][k]).filter(|x| x.is_finite()).collect();
            if v.is_empty() { f64::NAN } else { crate::measure::stats::median(&v) }
        };
        let groups: std::collections::BTreeSet<usize> = blocks.iter().map(|b| b.group).collect();
        let per_layout = groups
            .iter()
            .filter_map(|g| {
                let bs: Vec<BlockRecord> = blocks.iter().filter(|b| b.group == *g).cloned().collect();
                estimate(&bs, m, None, B, 13)
            })
            .collect();
        let per_step = (0..nsteps).filter_map(|s| estimate(blocks, m, Some(s), B, 14)).collect();
        out.push(MetricResult { name: name.to_string(), medians_ms: [med(A), med(B), med(AA)], effect, floor: aa.floor(), aa, per_layout, per_step });
    }
    out
}

/// The layouts of epoch `e`'s servers [A, B, A again]: A in `e mod na`, B in `e mod nb`, A
/// again in A's next layout (the same binary when A has one).
pub fn epoch_layouts(e: usize, na: usize, nb: usize) -> [usize; 3] {
    [e % na, e % nb, (e + 1) % na]
}

/// The run's settings: the workload's, then `--set`'s.
fn settings_of(w: &Workload, sets: &[String]) -> Result<Vec<(String, String)>> {
    let mut settings: Vec<(String, String)> = w.server.clone();
    for s in sets {
        let (k, v) = s.split_once('=').ok_or_else(|| UsageError(format!("--set {s}: give NAME=VALUE")))?;
        settings.retain(|(kk, _)| kk != k.trim());
        settings.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(settings)
}

/// `NAME=VALUE` pairs of `--env`/`--env-b`.
fn env_of(flag: &str, vals: &[String]) -> Result<Vec<(String, String)>> {
    vals.iter()
        .map(|s| {
            let (k, v) = s.split_once('=').ok_or_else(|| UsageError(format!("{flag} {s}: give NAME=VALUE")))?;
            if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(UsageError(format!("{flag} {s}: {k:?} is not an environment variable's name")).into());
            }
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}

/// `hotloops pg ab`: measure, then (unless `--no-why`) count.
pub fn run(args: &AbArgs) -> Result<AbResult> {
    let started = Instant::now();
    let w = Workload::load(&args.workload, &args.vars, args.full)?;
    let precision = args.precision.unwrap_or(if args.full { 0.5 } else { 1.0 });
    let budget = Duration::from_secs(args.budget_s.unwrap_or(if args.full { 1200 } else { 300 }));
    let settings = settings_of(&w, &args.settings)?;
    let env = env_of("--env", &args.env)?;
    let env_b = env_of("--env-b", &args.env_b)?;
    let unit = match &w.kind {
        Kind::Sql if args.clients > 1 => return Err(UsageError("--clients goes with a .pgbench workload (a .sql workload is timed statement by statement on one connection)".into()).into()),
        Kind::Sql => Unit::Steps,
        Kind::Pgbench { .. } if args.clients > 1 => Unit::Slices,
        Kind::Pgbench { script, args: pa, .. } => {
            let prepared = pa.windows(2).any(|x| x[0] == "-M" && x[1] == "prepared") || pa.iter().any(|a| a == "-Mprepared" || a == "--protocol=prepared");
            Unit::Script(super::workload::parse_script(&w.path, script)?, prepared)
        }
    };
    let explains = w.steps.iter().any(|s| s.explain.is_some());
    let mut primary: String = match (&args.metric, &unit) {
        (Some(m), Unit::Slices) if m != "tx" => return Err(UsageError(format!("--metric {m}: pgbench slices measure `tx` only")).into()),
        (Some(m), _) if m == "node" && !explains => return Err(UsageError(format!("--metric node: {} has no `-- hl: explain NODE` statement", w.path.display())).into()),
        (Some(m), Unit::Steps) if m == "tx" => return Err(UsageError("--metric tx goes with a .pgbench workload".into()).into()),
        (Some(m), _) => m.clone(),
        (None, Unit::Slices) => "tx".into(),
        (None, _) if explains => "node".into(),
        (None, _) => "latency".into(),
    };
    // The servers, built or found before any cluster exists.
    let a = resolve_side(&args.a, args.layouts)?;
    let b = resolve_side(&args.b, args.layouts)?;
    let (ia, ib) = (&a.installs[0], &b.installs[0]);
    crate::say!("pg ab: A = {} ({} layout(s)); B = {} ({} layout(s))", ia.source, a.installs.len(), ib.source, b.installs.len());
    let data_a = data_for(&w, ia, &settings)?;
    let data_b = if ia.major == ib.major { data_a.clone() } else { data_for(&w, ib, &settings)? };
    let mut clusters = vec![Cluster::from_copy_plain(ia, &data_a)?, Cluster::from_copy_plain(ib, &data_b)?, Cluster::from_copy_plain(ia, &data_a)?];
    for (i, c) in clusters.iter_mut().enumerate() {
        c.env = env.iter().chain(if i == B { env_b.iter() } else { [].iter() }).cloned().collect();
    }
    // One timing run a host at a time: a report, a sweep or another pg run waits its turn.
    let _core_lock = crate::host::lock::measuring_core("`hotloops pg ab`")?;
    let epoch_len = Duration::from_secs(args.epoch_s.unwrap_or((budget.as_secs() / 8).max(15)));
    let (na, nb) = (a.installs.len(), b.installs.len());
    let min_epochs = 2 * na.max(nb);
    let nsteps = match &unit {
        Unit::Steps => w.steps.len(),
        _ => 1,
    };
    let mut rng = {
        use rand::SeedableRng as _;
        rand_pcg::Pcg64Mcg::seed_from_u64(args.seed)
    };
    let mut blocks: Vec<BlockRecord> = Vec::new();
    let mut primary_note: Option<String> = None;
    let mut epochs = Vec::new();
    let mut stopped = String::new();
    let mut txs: Option<u64> = None;
    let measure_start = Instant::now();
    let rounds = args.design == "rounds";
    for e in 0.. {
        let lay = epoch_layouts(e, na, nb);
        let installs = [&a.installs[lay[A]], &b.installs[lay[B]], &a.installs[lay[AA]]];
        let (conns, core) = start_epoch(&mut clusters, installs, &settings, &w, &unit)?;
        let mut x = Exec { clusters: &clusters, installs, conns, w: &w, unit: &unit, clients: args.clients, txs: txs.unwrap_or(10) };
        if matches!(unit, Unit::Slices) && txs.is_none() {
            // Slices of about a second, calibrated once on A.
            let (tx_ms, _) = pgbench_slice(installs[A], &clusters[A], &w, args.clients, 0, args.seed, Some(2))?;
            txs = Some(((1000.0 / tx_ms) / args.clients as f64).ceil().max(10.0) as u64);
            x.txs = txs.unwrap_or(10);
        }
        // Warm-up: each unit once on each server, untimed.
        let vars0 = match &unit {
            Unit::Script(cmds, _) => draw(cmds, &w.vars, &mut rng)?,
            _ => w.vars.clone(),
        };
        for slot in [A, B, AA] {
            for i in 0..x.units() {
                x.exec(slot, i, &vars0, args.seed)?;
            }
        }
        let t0 = Instant::now();
        let mut nblocks = 0;
        loop {
            let order = ORDERS[blocks.len() % ORDERS.len()];
            // NaN until a measured value arrives: a metric a statement does not give (the node
            // of a statement without EXPLAIN) adds nothing, one no statement gives stays NaN.
            let mut sums = vec![[f64::NAN; 3]; METRICS.len()];
            let mut steps = vec![vec![[f64::NAN; 3]; METRICS.len()]; nsteps];
            // The block's keys, the same on all three servers.
            let vars = match &unit {
                Unit::Script(cmds, _) => draw(cmds, &w.vars, &mut rng)?,
                _ => w.vars.clone(),
            };
            let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(blocks.len() as u64);
            if rounds {
                // Whole runs, one server after the other: each server's mean per execution.
                let per = Duration::from_secs_f64((epoch_len.as_secs_f64() / 6.0).max(1.0));
                for &slot in &order {
                    let start = Instant::now();
                    let mut acc = vec![vec![(0.0f64, 0usize); METRICS.len()]; nsteps];
                    while start.elapsed() < per {
                        for (i, a) in acc.iter_mut().enumerate() {
                            let vars = match &unit {
                                Unit::Script(cmds, _) => draw(cmds, &w.vars, &mut rng)?,
                                _ => vars.clone(),
                            };
                            let s = x.exec(slot, i, &vars, seed)?;
                            for (m, v) in a.iter_mut().enumerate() {
                                v.0 += s.get(m);
                                v.1 += 1;
                            }
                        }
                    }
                    for (i, a) in acc.iter().enumerate() {
                        for (m, v) in a.iter().enumerate() {
                            let mean = v.0 / v.1.max(1) as f64;
                            add(&mut steps[i][m][slot], mean);
                            add(&mut sums[m][slot], mean);
                        }
                    }
                }
            } else {
                for (i, st) in steps.iter_mut().enumerate() {
                    for &slot in order.iter().chain(order.iter().rev()) {
                        let s = x.exec(slot, i, &vars, seed)?;
                        for m in 0..METRICS.len() {
                            add(&mut sums[m][slot], s.get(m));
                            add(&mut st[m][slot], s.get(m));
                        }
                    }
                }
            }
            blocks.push(BlockRecord { epoch: e, group: lay[A], sums, steps });
            nblocks += 1;
            crate::host::cleanup::wait_if_interrupted();
            if t0.elapsed() >= epoch_len || measure_start.elapsed() >= budget {
                break;
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        drop(x);
        for c in clusters.iter_mut() {
            c.stop();
        }
        let name = |side: &Side, i: usize| side.build.as_ref().and_then(|b| b.layouts.get(i)).map(|l| l.name.clone()).unwrap_or_else(|| "its one binary".into());
        epochs.push(EpochInfo { layouts: [name(&a, lay[A]), name(&b, lay[B]), name(&a, lay[AA])], blocks: nblocks, seconds: secs, backend_core: core });
        let summary = summarise(&blocks, nsteps);
        if args.metric.is_none() && primary_note.is_none() {
            if let Some(note) = short_node_note(&summary, &primary) {
                crate::say!("pg ab: {note}");
                primary = "latency".into();
                primary_note = Some(note);
            }
        }
        let p = summary.iter().find(|m| m.name == primary);
        let hw = p.map(|m| m.effect.half_width_pct()).unwrap_or(f64::INFINITY);
        crate::say!(
            "pg ab: epoch {} (A {}, B {}, A again {}): {nblocks} blocks in {secs:.0} s; B/A {}, A/A {}",
            e + 1,
            epochs[e].layouts[0],
            epochs[e].layouts[1],
            epochs[e].layouts[2],
            p.map(|m| format!("{:.4} ±{hw:.2}%", m.effect.median)).unwrap_or_else(|| "not estimated yet".into()),
            p.map(|m| format!("{:.4}", m.aa.median)).unwrap_or_else(|| "-".into()),
        );
        if e + 1 >= min_epochs && hw <= precision {
            stopped = format!("the precision was reached: ±{hw:.2}% (target ±{precision}%) after {} postmaster epochs, {} blocks, {:.0} s", e + 1, blocks.len(), measure_start.elapsed().as_secs_f64());
            break;
        }
        if measure_start.elapsed() + epoch_len / 2 >= budget {
            let short = if e + 1 < min_epochs { format!(" (fewer than the {min_epochs} epochs that start every layout twice)") } else { String::new() };
            stopped = format!("the budget of {} s ended at ±{hw:.2}% (target ±{precision}%) after {} postmaster epochs, {} blocks{short}", budget.as_secs(), e + 1, blocks.len());
            break;
        }
    }
    let metrics = summarise(&blocks, nsteps);
    let pm = metrics.iter().find(|m| m.name == primary).ok_or_else(|| anyhow!("no {primary} was measured"))?;
    let (vk, text, cv) = judge(pm, args.claim);
    let why = (!args.no_why && !rounds).then(|| why(&a, &b, &w, &unit, &settings, &mut clusters, args.seed));
    drop(clusters);
    Ok(AbResult {
        provenance: crate::host::provenance::collect(None, crate::study::features_enabled()),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        workload: w.path.display().to_string(),
        workload_sha256: w.sha256.clone(),
        vars: w.vars.clone(),
        settings,
        env,
        env_b,
        steps: match &unit {
            Unit::Steps => w.steps.iter().map(|s| s.label.clone()).collect(),
            _ => vec![format!("{} (one transaction of the script)", w.name())],
        },
        a: a.info(),
        b: b.info(),
        design: args.design.clone(),
        clients: args.clients,
        primary,
        primary_note,
        precision,
        budget_s: budget.as_secs(),
        claim: args.claim,
        stopped,
        epochs,
        blocks,
        metrics,
        verdict: text,
        verdict_kind: vk,
        claim_verdict: cv,
        why,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The statements a single-user backend runs for the why-view (each on one line), and the
/// indexes of the ones whose dumps count: each unit's second execution (the first fills
/// shared buffers).
fn single_user_statements(w: &Workload, unit: &Unit, rng: &mut rand_pcg::Pcg64Mcg) -> Result<(Vec<String>, Vec<usize>)> {
    let one = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut stmts: Vec<String> = w.session.iter().map(|s| one(s)).collect();
    let mut counted = Vec::new();
    match unit {
        Unit::Steps => {
            for st in &w.steps {
                for rep in 0..2 {
                    stmts.extend(st.before.iter().map(|s| one(s)));
                    stmts.push(one(&st.sql));
                    if rep == 1 {
                        counted.push(stmts.len() - 1);
                    }
                }
            }
        }
        Unit::Script(..) | Unit::Slices => {
            let cmds = match (unit, &w.kind) {
                (Unit::Script(c, _), _) => c.clone(),
                (_, Kind::Pgbench { script, .. }) => super::workload::parse_script(&w.path, script)?,
                _ => Vec::new(),
            };
            let vars = draw(&cmds, &w.vars, rng)?;
            let sql: Vec<String> = cmds.iter().filter_map(|c| if let ScriptCmd::Sql(s) = c { Some(s.clone()) } else { None }).collect();
            // The script's statements on one line: one exec_simple_query, one dump.
            let line = one(&super::workload::substitute(&sql.join(" "), &vars).map_err(|m| anyhow!(m))?);
            stmts.push(line.clone());
            stmts.push(line);
            counted.push(stmts.len() - 1);
        }
    }
    Ok((stmts, counted))
}

/// Callgrind of each side's single-user backend over the workload (same data), function by
/// function; A's other layouts too (their counts must equal L0's); and the asm diff of B's
/// patches. A part that cannot be made is a note, not a failure: the timing stands.
fn why(a: &Side, b: &Side, w: &Workload, unit: &Unit, settings: &[(String, String)], clusters: &mut [Cluster], seed: u64) -> Why {
    let mut out = Why::default();
    if let Some(bb) = &b.build {
        out.asm_diff = std::fs::read_to_string(bb.dir.join("asm-diff.md")).unwrap_or_default();
    }
    let mut rng = {
        use rand::SeedableRng as _;
        rand_pcg::Pcg64Mcg::seed_from_u64(seed ^ 0x5eed)
    };
    let (stmts, counted) = match single_user_statements(w, unit, &mut rng) {
        Ok(x) => x,
        Err(e) => {
            out.notes.push(format!("no instruction counts: {e:#}"));
            return out;
        }
    };
    crate::say!("pg ab: counting instructions (callgrind over a single-user backend of each server; a minute or two)");
    let count = |c: &mut Cluster, inst: &Install| -> Result<Vec<crate::measure::callgrind::Parsed>> {
        c.set_install(inst)?;
        // The server's own environment (a glibc setting) applies to its backend here too.
        let r = super::single::Run { settings: settings.to_vec(), env: c.env.clone(), ..Default::default() };
        let mut parts = super::single::callgrind_per_statement(c, &stmts, &r)?;
        Ok(counted.iter().map(|&i| std::mem::take(&mut parts[i])).collect())
    };
    // Every count on one cluster where the versions allow (B's data directory otherwise): the
    // data directory's path is part of what a backend runs (its length moves strlen's count).
    let one = a.installs[0].major == b.installs[0].major;
    let (ca, rest) = clusters.split_at_mut(1);
    let pa = match count(&mut ca[0], &a.installs[0]) {
        Ok(p) => p,
        Err(e) => {
            out.notes.push(format!("no instruction counts for A: {e:#}"));
            return out;
        }
    };
    let pb = match count(if one { &mut ca[0] } else { &mut rest[0] }, &b.installs[0]) {
        Ok(p) => p,
        Err(e) => {
            out.notes.push(format!("no instruction counts for B: {e:#}"));
            return out;
        }
    };
    let labels: Vec<String> = match unit {
        Unit::Steps => w.steps.iter().map(|s| s.label.clone()).collect(),
        _ => vec![format!("{} (one transaction)", w.name())],
    };
    for (i, l) in labels.iter().enumerate() {
        out.totals.push((l.clone(), pa[i].total, pb[i].total));
    }
    let mut fa: std::collections::HashMap<String, u64> = Default::default();
    let mut fb: std::collections::HashMap<String, u64> = Default::default();
    for p in &pa {
        for (k, v) in &p.self_cost {
            *fa.entry(k.clone()).or_default() += v;
        }
    }
    for p in &pb {
        for (k, v) in &p.self_cost {
            *fb.entry(k.clone()).or_default() += v;
        }
    }
    let mut names: Vec<&String> = fa.keys().chain(fb.keys()).collect();
    names.sort();
    names.dedup();
    let mut diffs: Vec<(String, u64, u64)> = names.into_iter().map(|n| (n.clone(), fa.get(n).copied().unwrap_or(0), fb.get(n).copied().unwrap_or(0))).filter(|(_, x, y)| x != y).collect();
    diffs.sort_by_key(|(n, x, y)| (std::cmp::Reverse(x.abs_diff(*y)), n.clone()));
    diffs.truncate(25);
    out.functions = diffs;
    // The layout check: A in its other layouts, same statements, same data.
    let layout_name = |i: usize| a.build.as_ref().and_then(|b| b.layouts.get(i)).map(|l| l.name.clone()).unwrap_or_default();
    out.a_layouts.push((layout_name(0), pa.iter().map(|p| p.total).collect()));
    for (i, inst) in a.installs.iter().enumerate().skip(1) {
        match count(&mut ca[0], inst) {
            Ok(p) => out.a_layouts.push((layout_name(i), p.iter().map(|p| p.total).collect())),
            Err(e) => out.notes.push(format!("no instruction counts for A in layout {}: {e:#}", layout_name(i))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(median: f64, lo: f64, hi: f64) -> Estimate {
        // A 90% interval a little inside the 95% one, as the bootstrap gives.
        let (lo90, hi90) = (median - (median - lo) * 0.84, median + (hi - median) * 0.84);
        Estimate { median, lo, hi, lo90, hi90, n: 100 }
    }

    #[test]
    fn verdicts_need_the_interval_off_1_and_the_effect_beyond_the_floor() {
        assert_eq!(verdict(&est(0.97, 0.96, 0.98), 0.01), Verdict::Faster);
        assert_eq!(verdict(&est(1.03, 1.02, 1.04), 0.01), Verdict::Slower);
        assert_eq!(verdict(&est(0.97, 0.96, 1.001), 0.01), Verdict::NotResolved, "interval holds 1");
        assert_eq!(verdict(&est(0.99, 0.985, 0.995), 0.012), Verdict::NotResolved, "within the A/A floor");
        // A node of 31 us moves in steps of 3.2%: decided on latency; 44 ms is fine.
        assert!(node_too_short(0.031).is_some_and(|n| n.contains("3.2%")));
        assert!(node_too_short(44.0).is_none());
        // The median beyond the floor is not enough: the interval must clear it too.
        assert_eq!(verdict(&est(0.968, 0.964, 0.99995), 0.0208), Verdict::NotResolved, "interval reaches into the floor");
        let e = est(0.968, 0.964, 0.99995);
        assert!(sentence(&verdict(&e, 0.0208), &e, 0.0208).contains("off zero but reaching into the floor"));
    }

    #[test]
    fn an_interval_that_holds_the_claim_is_never_called_excluded_or_reproduced() {
        // Claim: B 2% faster. Interval [-3%, +1%] holds both 0 and -2%: not resolved, with the
        // blocks it would need.
        let e = est(0.99, 0.97, 1.01);
        let v = claim_verdict(&e, 0.005, -2.0);
        let ClaimVerdict::NotResolved { half_width, needs_blocks } = v.clone() else { panic!("{v:?}") };
        assert!((half_width - 2.0202).abs() < 0.01, "{half_width}");
        assert!(needs_blocks > 100, "{needs_blocks}");
        let s = claim_sentence(&v, &e, 0.005, -2.0);
        assert!(s.starts_with("not resolved at ±2.02%") && !s.contains("not reproduced"), "{s}");
        // A narrow interval around 0 excludes a 2% claim.
        let e = est(1.001, 0.996, 1.006);
        let v = claim_verdict(&e, 0.004, -2.0);
        assert!(matches!(v, ClaimVerdict::Excluded { lo, hi } if lo > -2.0 && hi < 2.0), "{v:?}");
        assert!(claim_sentence(&v, &e, 0.004, -2.0).contains("the claim of -2.00% is outside it"));
        // Resolved in the claim's direction, and the other way.
        assert_eq!(claim_verdict(&est(0.975, 0.97, 0.98), 0.005, -2.24), ClaimVerdict::Reproduced);
        assert_eq!(claim_verdict(&est(1.025, 1.02, 1.03), 0.005, -2.24), ClaimVerdict::Contradicted);
        // A floor as large as the claim is said.
        let e = est(1.0, 0.95, 1.05);
        let v = claim_verdict(&e, 0.03, 2.0);
        assert!(claim_sentence(&v, &e, 0.03, 2.0).contains("layout alone moves this much"));
    }

    #[test]
    fn a_stored_run_is_rejudged_by_todays_rules() {
        let path = crate::host::crate_root().join("tests/fixtures/pg-seed-004.json");
        let run: crate::pgserver::seedrun::SeedRun = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let mut ab = run.arms.iter().find(|a| a.id == "glibc-trim").unwrap().ab.clone();
        // A verdict written under another rule reads as this build's.
        ab.verdict_kind = Verdict::NotResolved;
        ab.verdict = "stale".into();
        ab.rejudge();
        assert_eq!(ab.verdict_kind, Verdict::Faster);
        assert!(ab.verdict.starts_with("B is faster"), "{}", ab.verdict);
        // A 31 us node gives way to latency, saying why; unless the run asked for the node.
        let mut node = ab.primary().unwrap().clone();
        node.name = "node".into();
        node.medians_ms = [0.031, 0.030, 0.031];
        ab.metrics.push(node);
        ab.primary = "node".into();
        let mut asked = ab.clone();
        ab.rejudge();
        assert_eq!(ab.primary, "latency");
        assert!(ab.primary_note.as_deref().is_some_and(|n| n.contains("0.001 ms")), "{:?}", ab.primary_note);
        asked.command += " --metric node";
        asked.rejudge();
        assert_eq!((asked.primary.as_str(), asked.primary_note.is_none()), ("node", true));
    }

    #[test]
    fn without_a_claim_an_unresolved_run_says_what_it_excludes() {
        let e = est(1.001, 0.996, 1.006);
        let s = sentence(&verdict(&e, 0.004), &e, 0.004);
        assert!(s.starts_with("not resolved") && s.contains("is excluded"), "{s}");
    }

    #[test]
    fn blocks_pool_by_layout_then_epoch_and_the_aa_is_its_own_pair() {
        let mut blocks = Vec::new();
        for e in 0..4 {
            for k in 0..30 {
                let jitter = ((k * 7 + e * 3) % 11) as f64 / 1000.0 - 0.005;
                let a = 10.0;
                blocks.push(BlockRecord { epoch: e, group: e % 2, sums: vec![[a, a * (0.95 + jitter), a * (1.0 + jitter)]; METRICS.len()], steps: vec![vec![[a, a * 0.95, a]; METRICS.len()]] });
            }
        }
        let m = summarise(&blocks, 1);
        assert_eq!(m.len(), METRICS.len());
        let node = &m[0];
        assert!((node.effect.median - 0.95).abs() < 0.006 && node.effect.hi < 1.0, "{:?}", node.effect);
        assert!((node.aa.median - 1.0).abs() < 0.006 && node.aa.lo < 1.0 && node.aa.hi > 1.0, "{:?}", node.aa);
        assert_eq!(node.per_layout.len(), 2);
        assert_eq!(verdict(&node.effect, node.floor), Verdict::Faster);
        // A metric not measured (NaN) has no result.
        for b in &mut blocks {
            b.sums[3] = [f64::NAN; 3];
        }
        assert_eq!(summarise(&blocks, 1).len(), METRICS.len() - 1);
    }

    #[test]
    fn blocks_with_unmeasured_metrics_survive_json() {
        let b = BlockRecord { epoch: 1, group: 0, sums: vec![[1.0, f64::NAN, 2.0]], steps: vec![vec![[f64::NAN; 3]]] };
        let back: BlockRecord = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
        assert_eq!(back.sums[0][0], 1.0);
        assert!(back.sums[0][1].is_nan() && back.steps[0][0].iter().all(|x| x.is_nan()));
    }

    #[test]
    fn every_epoch_rotates_layouts_and_the_aa_uses_another_one() {
        assert_eq!(epoch_layouts(0, 2, 2), [0, 0, 1]);
        assert_eq!(epoch_layouts(1, 2, 2), [1, 1, 0]);
        assert_eq!(epoch_layouts(3, 1, 2), [0, 1, 0], "one layout: the A/A is the same binary");
        // Over the orders, each server is first and last equally often.
        for s in [A, B, AA] {
            assert_eq!(ORDERS.iter().filter(|o| o[0] == s).count(), 2);
        }
    }

    #[test]
    fn explain_json_gives_the_named_node_times_its_loops() {
        let j = r#"[{"Plan": {"Node Type": "Aggregate", "Actual Total Time": 50.0, "Actual Loops": 1, "Plans": [{"Node Type": "Bitmap Heap Scan", "Actual Total Time": 40.0, "Actual Loops": 1, "Plans": [{"Node Type": "Bitmap Index Scan", "Actual Total Time": 2.5, "Actual Loops": 4}]}]}}]"#;
        assert_eq!(node_time(j, "Bitmap Index Scan").unwrap(), 10.0);
        assert_eq!(node_time(j, "").unwrap(), 50.0);
        let e = node_time(j, "Seq Scan").unwrap_err();
        assert!(e.is::<UsageError>() && format!("{e}").contains("top node is Aggregate"), "{e:#}");
    }

    #[test]
    fn pgbench_variables_become_positional_parameters() {
        assert_eq!(to_positional("SELECT a FROM t WHERE a BETWEEN :aid AND :aid + 2000 AND b = :bid::int"), ("SELECT a FROM t WHERE a BETWEEN $1 AND $1 + 2000 AND b = $2::int".to_string(), vec!["aid".to_string(), "bid".to_string()]));
    }
}
