//! Seed cards (`hotloops seed 000|001|002|004`, and the top of every report): one card per
//! seed claim, every view of it on one line each (the Rust model, the C kernels, the code
//! layouts, the static model for the seed's core and the host's, the real server per version,
//! instructions per item), all as a time ratio (< 1: the patched side takes less time) with one
//! verdict convention (faster / slower / not resolved / layout-sensitive, against the A/A floor
//! of the run the figure came from), and a conclusion derived from those lines by [`conclude`],
//! never written by hand.
//!
//! Built from saved files only ([`Sources`]): report.json, model.json and the `hotloops pg`
//! JSON files. A view whose file is not there is a missing line naming the command that
//! produces it; the conclusion then says what it cannot judge instead of judging it. A file of
//! a directory that cannot be read (not JSON, malformed, of an older shape) is passed over and
//! named, never a refusal of every card.
//!
//! A card's views come from one host: each file's CPU (CPUID's brand, family and model, from
//! its provenance) is read with it, and a card whose views come from several hosts heads
//! itself with each host and the views it gave, and draws no conclusion across them unless
//! asked (`--mixed-hosts`, [`Sources::mixed_hosts`]).

use super::table::{Align, Table};
use super::{Report, pct};
use crate::host::Usage;
use crate::pgserver::{bench, dirbyvalue, instructions, readstream, seed004, sweep};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The width the cards keep to: they are pasted into mails and PRs.
pub const WIDTH: usize = 99;

/// The real comparison standing for a seed's pair in the server.
#[derive(Clone, Copy, Debug)]
pub enum ServerPair {
    /// hl_btree variants in `hotloops pg` (tid-batch), `metric` `cpu` or `bis`.
    TidBatch { case: &'static str, a: &'static str, b: &'static str, metric: &'static str },
    /// hl_bloom variants in `hotloops pg --study read-stream`, one line per io_method.
    ReadStream { state: &'static str, a: &'static str, b: &'static str, metric: &'static str },
    /// The dir-by-value kernels in `hotloops pg --study dir-by-value` (a TPS ratio).
    DirByValue { range: u32, scan: &'static str, a: &'static str, b: &'static str },
    /// No hotloops command runs this pair in a server; why.
    None(&'static str),
}

/// One seed claim and where its views are.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// `000`.
    pub seed: &'static str,
    /// Who said it, where.
    pub source: &'static str,
    /// The claim in the seed's own words.
    pub quote: &'static str,
    /// The claim as a time ratio patched / unpatched (2.24% faster: 1 / 1.0224).
    pub claim_ratio: f64,
    /// Model study, case, baseline, variant.
    pub study: &'static str,
    pub case: &'static str,
    pub baseline: &'static str,
    pub variant: &'static str,
    /// C kernel pairs: (configuration, baseline row, variant row).
    pub c_pairs: &'static [(&'static str, &'static str, &'static str)],
    /// The seed's own core as an llvm-mca model, or why there is none.
    pub own_core: Result<&'static str, &'static str>,
    /// The server's comparison.
    pub server: ServerPair,
    /// Why the static loop model cannot speak to this claim (None: it can).
    pub static_out_of_scope: Option<&'static str>,
}

/// The four seeds' claims.
pub const SPECS: &[Spec] = &[
    Spec {
        seed: "000",
        source: "Haibo's review of TID batching v1 (seed 000)",
        quote: "Using a local index and updating itemIndex once after the copy improved the 10M-row workload by another 2.24% in my tests.",
        claim_ratio: 1.0 / 1.0224,
        study: "local-index",
        case: "table3-bitmap",
        baseline: "local-index/store-each",
        variant: "local-index/local",
        c_pairs: &[
            ("gcc12-pg", "local-index/c-store-each", "local-index/c-local"),
            ("clang19-pg", "local-index/c-store-each@clang19-pg", "local-index/c-local@clang19-pg"),
        ],
        own_core: Err("the review names no CPU (\"in my tests\")"),
        server: ServerPair::TidBatch { case: "btree-many", a: "tid-batch/batched-store", b: "tid-batch/batched-local", metric: "cpu" },
        static_out_of_scope: None,
    },
    Spec {
        seed: "001",
        source: "Peter Geoghegan on 83a26ba59b (seed 001)",
        quote: "if I increase the number of values/tuples returned from 2,000 ... to 15,000, I find that the patch increases TPS by as much as 5.5%.",
        claim_ratio: 1.0 / 1.055,
        study: "dir-by-value",
        case: "range-15000/0-keys",
        baseline: "dir-by-value/opaque",
        variant: "dir-by-value/by-value",
        c_pairs: &[
            ("gcc12-pg", "dir-by-value/c-opaque", "dir-by-value/c-by-value"),
            ("clang19-pg", "dir-by-value/c-opaque@clang19-pg", "dir-by-value/c-by-value@clang19-pg"),
        ],
        own_core: Ok("znver3"),
        server: ServerPair::DirByValue { range: 15000, scan: "index", a: "dir-by-value/c-opaque", b: "dir-by-value/c-by-value" },
        static_out_of_scope: None,
    },
    Spec {
        seed: "002",
        source: "commit 4c910f3bbe, bloom: streaming read (seed 002)",
        quote: "The author has reported a 3x in runtime with io_uring while I was at close to a 7x.",
        claim_ratio: 1.0 / 3.0,
        study: "read-stream",
        case: "cold-direct",
        baseline: "read-stream/sync-per-page",
        variant: "read-stream/stream-io-uring",
        c_pairs: &[],
        own_core: Err("the commit names no CPU"),
        server: ServerPair::ReadStream { state: "cold", a: "read-stream/sync-per-page", b: "read-stream/stream", metric: "bis" },
        static_out_of_scope: Some("the claim is I/O waits, which no loop model holds"),
    },
    Spec {
        seed: "004",
        source: "Athiyaman M's static IndexAmRoutine patch (seed 004)",
        quote: "This shows the static fix eliminates the severe ~50% regression previously observed by Tomas",
        claim_ratio: 0.5,
        study: "alloc-churn",
        case: "partitions-100",
        baseline: "alloc-churn/palloc-routine",
        variant: "alloc-churn/static-routine",
        c_pairs: &[],
        own_core: Err("the mail names no CPU"),
        server: ServerPair::None("an extension cannot patch IndexAmRoutine: the patched builds (`hotloops pg seed 004`) are its server line"),
        static_out_of_scope: Some("the claim is malloc's page faults and trims, outside the loop llvm-mca models"),
    },
];

/// The seed ids, for the CLI's error.
pub fn ids() -> Vec<String> {
    SPECS.iter().map(|s| s.seed.to_string()).collect()
}

/// The spec of `seed`, or an unknown-name error listing the valid ones.
pub fn spec(seed: &str) -> Result<&'static Spec, crate::study::UnknownName> {
    SPECS.iter().find(|s| s.seed == seed).ok_or_else(|| crate::study::UnknownName { kind: "seed", given: seed.into(), valid: ids() })
}

/// The part of model.json a card reads (`hotloops model --json`); a report keeps the same
/// for each study it modelled ([`super::StudyReport::static_predictions`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelFile {
    /// The closest llvm-mca model of the host.
    pub host_model: Option<String>,
    /// The host's add clock, GHz.
    pub host_ghz: Option<f64>,
    /// Per study.
    pub studies: Vec<ModelStudy>,
}

/// One study of model.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelStudy {
    pub study: String,
    pub variants: Vec<ModelVariant>,
}

/// One variant of model.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelVariant {
    pub id: String,
    pub per_cpu: Vec<ModelCpu>,
}

/// One core's prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCpu {
    pub cpu: String,
    /// Cycles a trip of the hot loop.
    pub predicted: f64,
}

/// Every saved result the cards read, each with the file it came from.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub reports: Vec<(PathBuf, Report)>,
    pub models: Vec<(PathBuf, ModelFile)>,
    pub tid: Vec<(PathBuf, bench::PgReport)>,
    pub read_stream: Vec<(PathBuf, readstream::ServerReport)>,
    pub dir_by_value: Vec<(PathBuf, dirbyvalue::DirByValueReport)>,
    pub seed004: Vec<(PathBuf, seed004::Seed004Report)>,
    pub sweeps: Vec<(PathBuf, sweep::SweepReport)>,
    /// `hotloops pg --instructions` runs.
    pub instructions: Vec<(PathBuf, instructions::InstructionsReport)>,
    /// `hotloops pg seed` runs: each seed's own patch against stock, built from source.
    pub seed_runs: Vec<(PathBuf, crate::pgserver::seedrun::SeedRun)>,
    /// Files of a directory that are none of these, or of an older shape: (file, why).
    pub skipped: Vec<(PathBuf, String)>,
    /// The host of each file read (its CPU: brand, family, model), where the file says.
    pub hosts: Vec<(PathBuf, String)>,
    /// Conclude from views of several hosts (`hotloops seed --mixed-hosts`).
    pub mixed_hosts: bool,
}

/// The host a saved file was measured on, as its CPU: `NAME (family F, model 0xM)`, from a
/// report's provenance, model.json's `host`, or a `hotloops pg` file's `host_cpu` (its own or
/// its first server's).
fn host_of(v: &serde_json::Value) -> Option<String> {
    let cpu = |name: &serde_json::Value, fam: &serde_json::Value, model: &serde_json::Value| -> Option<String> {
        Some(format!("{} (family {}, model {:#x})", name.as_str()?.trim(), fam.as_u64()?, model.as_u64()?))
    };
    let p = &v["provenance"];
    if let Some(h) = cpu(&p["cpu_name"], &p["cpu_family"], &p["cpu_model"]) {
        return Some(h);
    }
    // A `pg seed` run: its arms' `pg ab` provenance.
    let a = &v["arms"][0]["ab"]["provenance"];
    if let Some(h) = cpu(&a["cpu_name"], &a["cpu_family"], &a["cpu_model"]) {
        return Some(h);
    }
    let h = &v["host"];
    if let Some(h) = cpu(&h["name"], &h["family"], &h["model"]) {
        return Some(h);
    }
    let text = v["host_cpu"].as_str().or(p["host_cpu"].as_str()).or(v["servers"][0]["provenance"]["host_cpu"].as_str()).or(v["servers"][0]["host_cpu"].as_str())?;
    // /proc/cpuinfo's `NAME (vendor V, family F, model 0xM), N logical CPUs` (pgserver::cpu_name).
    let parsed = (|| {
        let (name, rest) = text.rsplit_once(" (vendor ")?;
        let fam: u64 = rest.split("family ").nth(1)?.split(',').next()?.trim().parse().ok()?;
        let model = u64::from_str_radix(rest.split("model 0x").nth(1)?.split(')').next()?.trim(), 16).ok()?;
        Some(format!("{} (family {fam}, model {model:#x})", name.trim()))
    })();
    Some(parsed.unwrap_or_else(|| text.trim().to_string()))
}

fn bad(path: &Path, what: impl std::fmt::Display) -> anyhow::Error {
    Usage(format!("{}: {what}", path.display())).into()
}

impl Sources {
    /// Read `paths`: a file is read as whatever hotloops file it is (an error naming it when it
    /// is none, or unreadable); a directory means its `*.json` and its `pg/*.json`.
    pub fn load(paths: &[PathBuf]) -> Result<Sources> {
        let mut s = Sources::default();
        for p in paths {
            if p.is_dir() {
                let mut files = Vec::new();
                for d in [p.clone(), p.join("pg")] {
                    let Ok(rd) = std::fs::read_dir(&d) else { continue };
                    // Dot files (`.hotloops-manifest.json`) are bookkeeping, not results.
                    let mut here: Vec<PathBuf> = rd
                        .flatten()
                        .map(|e| e.path())
                        .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "json") && !f.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                        .collect();
                    here.sort();
                    files.extend(here);
                }
                if files.is_empty() {
                    return Err(bad(p, "a directory without report.json, model.json or pg/*.json"));
                }
                for f in files {
                    // In a directory, a file that cannot be read (not JSON, malformed, of an
                    // older shape) is named and passed over: the other files still make cards.
                    if let Err(e) = s.add(&f, false) {
                        let msg = format!("{e:#}");
                        let prefix = format!("{}: ", f.display());
                        let why = msg.strip_prefix(&prefix).unwrap_or(&msg);
                        s.skipped.push((f, why.strip_prefix("malformed: ").unwrap_or(why).to_string()));
                    }
                }
            } else {
                s.add(p, true)?;
            }
        }
        Ok(s)
    }

    /// Read one file; `strict`: a JSON file of no known kind is an error (else skipped).
    pub fn add(&mut self, path: &Path, strict: bool) -> Result<()> {
        let text = std::fs::read_to_string(path).map_err(|e| bad(path, format!("cannot read: {e}")))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(path, format!("not valid JSON: {e}")))?;
        if let Some(h) = host_of(&v) {
            self.hosts.push((path.to_path_buf(), h));
        }
        let has = |k: &str| v.get(k).is_some();
        let typed = |e: serde_json::Error| bad(path, format!("malformed: {e}"));
        if v.get("schema").and_then(|x| x.as_str()) == Some(super::SCHEMA) {
            let r = super::load(path).map_err(|e| Usage(format!("{e:#}")))?;
            self.add_report(path, r);
        } else if has("llvm_mca") && has("studies") {
            self.models.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if v.get("study").and_then(|x| x.as_str()) == Some("read-stream") {
            let r: readstream::ReadStreamRuns = serde_json::from_value(v).map_err(typed)?;
            self.read_stream.extend(r.servers.into_iter().map(|x| (path.to_path_buf(), x)));
        } else if has("points") && has("cliff") {
            self.sweeps.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if has("seed") && has("arms") {
            let mut run: crate::pgserver::seedrun::SeedRun = serde_json::from_value(v).map_err(typed)?;
            // Judged by this build's rules, whatever rule wrote the file.
            for a in &mut run.arms {
                a.ab.rejudge();
            }
            self.seed_runs.push((path.to_path_buf(), run));
        } else if has("glibc") && has("records") {
            self.seed004.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if has("protocol") && has("servers") && has("scale") {
            self.dir_by_value.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if has("provenance") && has("results") {
            self.tid.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if has("servers") && v["servers"].get(0).is_some_and(|x| x.get("comparisons").is_some()) {
            self.instructions.push((path.to_path_buf(), serde_json::from_value(v).map_err(typed)?));
        } else if has("servers") && v["servers"].get(0).is_some_and(|x| x.get("results").is_some() && x.get("provenance").is_some()) {
            let r: bench::PgRuns = serde_json::from_value(v).map_err(typed)?;
            self.tid.extend(r.servers.into_iter().map(|x| (path.to_path_buf(), x)));
        } else if strict {
            return Err(bad(path, "not a file `hotloops seed` reads (report.json, model.json, or a `hotloops pg` JSON file)"));
        } else {
            self.skipped.push((path.to_path_buf(), "not a file the cards read".into()));
        }
        Ok(())
    }

    /// A report and every server run and static model it holds (`report --pg`'s sections,
    /// each study's predictions), each read as the file it came from.
    fn add_report(&mut self, path: &Path, r: Report) {
        self.models.extend(r.studies.iter().filter_map(|s| s.static_predictions.clone()).map(|m| (path.to_path_buf(), m)));
        if let Some(pg) = &r.pg {
            let at = || path.to_path_buf();
            self.tid.extend(pg.servers.iter().map(|x| (at(), x.clone())));
            self.sweeps.extend(pg.sweeps.iter().map(|x| (at(), x.clone())));
            if let Some(rs) = &pg.read_stream {
                self.read_stream.extend(rs.servers.iter().map(|x| (at(), x.clone())));
            }
            if let Some(d) = &pg.dir_by_value {
                self.dir_by_value.push((at(), d.clone()));
            }
            if let Some(i) = &pg.instructions {
                self.instructions.push((at(), i.clone()));
            }
        }
        self.reports.push((path.to_path_buf(), r));
    }

    /// The report that holds `study`'s case: full size before quick, more layouts first, then
    /// the newest.
    fn report(&self, study: &str, case: &str) -> Option<&(PathBuf, Report)> {
        self.reports
            .iter()
            .filter(|(_, r)| r.studies.iter().any(|s| s.name == study && s.cases.iter().any(|c| c.name == case)))
            .max_by(|(_, a), (_, b)| {
                let key = |r: &Report| (!r.config.quick, r.config.layouts.len(), r.provenance.date.clone());
                key(a).cmp(&key(b))
            })
    }
}

/// Which view a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The Rust model's pair.
    Model,
    /// A C kernel pair (one line per configuration).
    C,
    /// The spread of the model's pair over code layouts.
    Layout,
    /// The static model on the seed's own core.
    StaticOwn,
    /// The static model on the host's core.
    StaticHost,
    /// The seed's own patch built from source against stock 18.6 (`hotloops pg seed`): the
    /// line that decides.
    Build,
    /// A build arm's instructions against its A's (callgrind): how much of the time effect
    /// the instructions executed explain.
    BuildInstructions,
    /// An arm that tests the claim's mechanism (the patch under a condition that removes a
    /// suspected mechanism): its pair says what it means if the effect is gone.
    Mechanism,
    /// The real server (one line per version and state).
    Server,
    /// Instructions per item (exact).
    Instructions,
    /// A figure beside the claim that is not the claim's pair (the rule does not read it).
    Context,
}

/// What a line shows, in the one convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Faster,
    Slower,
    NotResolved,
    LayoutSensitive,
}

impl Dir {
    fn parse(s: &str) -> Option<Dir> {
        match s {
            "faster" => Some(Dir::Faster),
            "slower" => Some(Dir::Slower),
            "not resolved" | "not-resolved" => Some(Dir::NotResolved),
            "layout-sensitive" => Some(Dir::LayoutSensitive),
            _ => None,
        }
    }
    fn word(self) -> &'static str {
        match self {
            Dir::Faster => "faster",
            Dir::Slower => "slower",
            Dir::NotResolved => "not resolved",
            Dir::LayoutSensitive => "layout-sensitive",
        }
    }
}

/// Faster or slower against `floor`, else not resolved: the reports' rule, for a ratio and
/// its interval (a static prediction has none: only the floor).
pub fn judge(ratio: f64, ci: Option<(f64, f64)>, floor: f64) -> Dir {
    if ci.is_some_and(|(l, h)| l <= 1.0 && 1.0 <= h) || (ratio - 1.0).abs() <= floor {
        Dir::NotResolved
    } else if ratio < 1.0 {
        Dir::Faster
    } else {
        Dir::Slower
    }
}

/// One line of a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub view: View,
    /// `model (Rust)`, `C gcc12-pg`, `server 15.20 warm`.
    pub label: String,
    /// What is compared (`local-index/store-each -> local`).
    pub pair: String,
    /// The figure, or why there is none (then the line is a missing view).
    pub figure: Result<Figure, String>,
    /// The file it came from (empty when missing).
    pub source: String,
    /// The command that produces it.
    pub command: String,
}

/// A line's figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Time ratio (or instruction ratio for [`View::Instructions`]).
    pub ratio: f64,
    /// 95% interval.
    pub ci: Option<(f64, f64)>,
    /// Verdict (instructions: none).
    pub verdict: Option<Dir>,
    /// A short note (`spread 3.1% over 5 layouts`, `49.4 -> 46.4 instr/TID`).
    pub note: String,
}

impl Line {
    fn dir(&self) -> Option<Dir> {
        self.figure.as_ref().ok().and_then(|f| f.verdict)
    }
}

/// A card: the claim, its lines, the conclusion.
#[derive(Clone, Debug)]
pub struct Card {
    pub spec: Spec,
    /// Host, versions, commit, in one line.
    pub header: String,
    pub lines: Vec<Line>,
    /// The derived conclusion, one sentence.
    pub conclusion: String,
    /// Files passed over, and why.
    pub skipped: Vec<String>,
}

/// The rule, as the card prints it.
pub const RULE: &str = "Rule: the patched build decides (the seed's own patch against stock, both built \
from source, measured with `pg ab` at the claim's precision: \"reproduced\", \"contradicted\", \"excluded\" \
with the range it leaves, or \"not resolved at ±h%\"); without it, the server lines decide (any version \
resolving the claim's direction: \"reproduced in the server\"; the opposite direction: \"contradicted\"; \
all unresolved: \"model only\" if the Rust model resolves it, else \"not resolved\", never \"not \
reproduced\" while an interval holds the claim); a layout-sensitive model or C pair adds \
\"layout-sensitive\" (\"in C\" for a C pair); a static prediction smaller than the claim adds \"the static \
model bounds it below the claim\"; a patched build whose instruction count moves by under a quarter of \
its resolved time effect is said to act through how the instructions run or outside user space; a \
mechanism arm (the patch under a condition that removes a suspected mechanism) that loses the effect \
says what the effect is; a missing view is named, never judged.";

/// How a mechanism arm's line names what its condition means, in its pair.
pub const IF_GONE: &str = "; if the effect is gone here, ";

/// The conclusion [`RULE`] derives from `lines` for a claim of time ratio `claim`.
pub fn conclude(claim: f64, lines: &[Line]) -> String {
    let want = if claim < 1.0 { Dir::Faster } else { Dir::Slower };
    let against = if want == Dir::Faster { Dir::Slower } else { Dir::Faster };
    let of = |v: View| lines.iter().filter(move |l| l.view == v);
    let model = of(View::Model).find_map(|l| l.dir());
    let servers: Vec<&Line> = of(View::Server).filter(|l| l.figure.is_ok()).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    // The seed's own patch, built and measured against stock at the claim's precision: its
    // verdict (claim-aware, with its precision) is the card's.
    if let Some(b) = of(View::Build).find(|l| l.figure.is_ok()) {
        let f = b.figure.as_ref().expect("checked");
        parts.push(format!("the patched build settles it: {}", f.note));
        // A mechanism arm: the decisive effect gone under its condition says what the effect is.
        if matches!(f.verdict, Some(Dir::Faster | Dir::Slower)) {
            for m in of(View::Mechanism) {
                if let Ok(g) = &m.figure {
                    let means = m.pair.split_once(IF_GONE).map(|x| x.1).unwrap_or("");
                    match g.verdict {
                        Some(d) if Some(d) == f.verdict => parts.push(format!("{}: it holds there too", g.note)),
                        _ if !means.is_empty() => parts.push(format!("{}: the effect is gone there, so {means}", g.note)),
                        _ => parts.push(g.note.clone()),
                    }
                }
            }
        }
        // A resolved effect that the count of instructions does not account for is in how they
        // run or outside user space: a claim that names the work saved is then not what the
        // server shows.
        let arm = b.label.rsplit(' ').next().unwrap_or_default();
        let instr = of(View::BuildInstructions).filter(|l| l.label == format!("instructions {arm}")).find_map(|l| l.figure.as_ref().ok().map(|g| g.ratio));
        if let (Some(i), Some(Dir::Faster | Dir::Slower)) = (instr, f.verdict) {
            if (i - 1.0).abs() < (f.ratio - 1.0).abs() / 4.0 {
                parts.push(format!(
                    "its instructions change by {} (callgrind), under a quarter of the time's {}: the effect is in how the instructions run (memory, dependencies) or outside user space (I/O waits, page faults), not in how many there are",
                    pct(i),
                    pct(f.ratio)
                ));
            }
        }
        match model {
            Some(d) if d == want => parts.push(format!("the Rust model agrees in direction ({})", d.word())),
            Some(d) if d == against => parts.push(format!("the Rust model says the opposite ({})", d.word())),
            Some(d) => parts.push(format!("the Rust model does not resolve it ({})", d.word())),
            None => missing.push("the Rust model"),
        }
        let mut s = parts.join("; ");
        if !missing.is_empty() {
            s.push_str(&format!("; not judged: {} (missing)", missing.join(", ")));
        }
        let mut c = s.chars();
        return c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str() + ".").unwrap_or_default();
    }
    let Some(model) = model else {
        return "No conclusion: the Rust model's figure is missing.".into();
    };
    let model_says = match model {
        d if d == want => format!("the Rust model resolves it ({})", d.word()),
        d if d == against => format!("the Rust model contradicts it ({})", d.word()),
        Dir::LayoutSensitive => "the Rust model does not resolve it (layout-sensitive)".to_string(),
        _ => "the Rust model does not resolve it".to_string(),
    };
    if servers.is_empty() {
        parts.push(model_says);
        missing.push("the server");
    } else if let Some(l) = servers.iter().find(|l| l.dir() == Some(want)) {
        let n = servers.iter().filter(|l| l.dir() == Some(want)).count();
        parts.push(format!("reproduced in the server ({}, {n} of {} server lines)", l.label.trim_start_matches("server "), servers.len()));
    } else if servers.iter().any(|l| l.dir() == Some(against)) {
        parts.push(format!("contradicted by the server (the patched side is {})", against.word()));
    } else if model == want {
        parts.push("model only: the server does not resolve it".into());
    } else {
        parts.push(format!("not resolved: neither the Rust model ({}) nor the server resolves it", model.word()));
    }
    if model == Dir::LayoutSensitive {
        if !parts.iter().any(|p| p.contains("layout-sensitive")) {
            parts.push("layout-sensitive".into());
        }
    } else if let Some(c) = of(View::C).find(|l| l.dir() == Some(Dir::LayoutSensitive)) {
        parts.push(format!("layout-sensitive in C ({})", c.label.trim_start_matches("C ")));
    }
    let statics: Vec<&Line> = of(View::StaticOwn).chain(of(View::StaticHost)).filter(|l| l.figure.is_ok()).collect();
    let below: Vec<&str> = statics
        .iter()
        .filter(|l| l.figure.as_ref().is_ok_and(|f| (1.0 - f.ratio).abs() < (1.0 - claim).abs() || (f.ratio - 1.0).signum() != (claim - 1.0).signum()))
        .map(|l| l.label.trim_start_matches("static "))
        .collect();
    if !below.is_empty() {
        parts.push(format!("the static model bounds it below the claim ({})", below.join(", ")));
    } else if !statics.is_empty() {
        parts.push("the static model allows the claim's size".into());
    } else if of(View::StaticOwn).chain(of(View::StaticHost)).next().is_some() {
        missing.push("the static model");
    }
    let mut s = parts.join("; ");
    if !missing.is_empty() {
        s.push_str(&format!("; not judged: {} (missing)", missing.join(", ")));
    }
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str() + ".").unwrap_or_default()
}

fn short(id: &str) -> &str {
    super::short(id)
}

fn version(v: &str) -> String {
    super::pg::server_major_minor(v)
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

fn report_command(r: &Report, study: &str) -> String {
    format!("hotloops report --study {study}{}", if r.config.quick { "" } else { " --full" })
}

/// A quotient of two ratios against one baseline, its interval from both intervals as
/// independent errors (half-widths in log space added in quadrature).
fn quotient(b: (f64, Option<(f64, f64)>), a: (f64, Option<(f64, f64)>)) -> (f64, Option<(f64, f64)>) {
    let r = b.0 / a.0;
    let hw = |x: f64, ci: Option<(f64, f64)>| ci.map(|(l, h)| ((h / x).ln().abs()).max((x / l).ln().abs()));
    let ci = match (hw(b.0, b.1), hw(a.0, a.1)) {
        (Some(x), Some(y)) => {
            let w = (x * x + y * y).sqrt();
            Some((r * (-w).exp(), r * w.exp()))
        }
        _ => None,
    };
    (r, ci)
}

fn missing(view: View, label: &str, pair: &str, why: String, command: String) -> Line {
    Line { view, label: label.into(), pair: pair.into(), figure: Err(why), source: String::new(), command }
}

/// The lines a report gives: model, C pairs, layouts, instructions.
fn report_lines(spec: &Spec, src: &Sources, out: &mut Vec<Line>) -> Option<(f64, f64)> {
    let pair = format!("{} -> {}", spec.baseline, short(spec.variant));
    let cmd = format!("hotloops report --study {}", spec.study);
    let Some((path, r)) = src.report(spec.study, spec.case) else {
        let why = format!("no report with {} / {}", spec.study, spec.case);
        out.push(missing(View::Model, "model (Rust)", &pair, why.clone(), cmd.clone()));
        if !spec.c_pairs.is_empty() {
            out.push(missing(View::C, "C kernels", "", why.clone(), cmd.clone()));
        }
        out.push(missing(View::Layout, "code layouts", &pair, why.clone(), cmd.clone()));
        out.push(missing(View::Instructions, "instructions", &pair, why, cmd));
        return None;
    };
    let source = format!("{} ({}, commit {})", display(path), r.config.size.name(), &r.provenance.commit[..r.provenance.commit.len().min(7)]);
    let cmd = report_command(r, spec.study);
    let case = r.studies.iter().find(|s| s.name == spec.study).and_then(|s| s.cases.iter().find(|c| c.name == spec.case)).expect("report() checked the case");
    let floor = case.noise_floor;
    let wall = |id: &str| r.rows.iter().find(|x| x.study == spec.study && x.case == spec.case && x.variant == id && x.metric == "wall-clock");
    let ratio_of = |id: &str| -> Option<(f64, Option<(f64, f64)>)> {
        if id == spec.baseline {
            return Some((1.0, Some((1.0, 1.0))));
        }
        let w = wall(id)?;
        Some((w.ratio?, w.ci_low.zip(w.ci_high)))
    };
    let line = |view: View, label: &str, pair: &str, fig: Result<Figure, String>| Line { view, label: label.into(), pair: pair.into(), figure: fig, source: source.clone(), command: cmd.clone() };
    let model = wall(spec.variant).and_then(|w| {
        Some(Figure { ratio: w.ratio?, ci: w.ci_low.zip(w.ci_high), verdict: w.verdict.and_then(|v| Dir::parse(&v.to_string())), note: format!("A/A floor ±{:.2}%", floor * 100.0) })
    });
    out.push(line(View::Model, "model (Rust)", &pair, model.ok_or_else(|| format!("{} has no wall-clock row of {}", display(path), spec.variant))));
    for (cfg, a, b) in spec.c_pairs {
        let p = format!("{} -> {}", short(a), short(b));
        let fig = match (ratio_of(a), ratio_of(b)) {
            (Some(ra), Some(rb)) => {
                let (q, ci) = quotient(rb, ra);
                // Either row judged layout-sensitive: so is their quotient.
                let ls = [a, b].iter().any(|id| wall(id).is_some_and(|w| w.verdict == Some(crate::measure::wallclock::Verdict::LayoutSensitive)));
                let v = if ls { Dir::LayoutSensitive } else { judge(q, ci, floor) };
                Ok(Figure { ratio: q, ci, verdict: Some(v), note: "quotient of two pairs on one baseline".into() })
            }
            _ => Err(match r.config.c_configs.iter().find(|c| c.name == *cfg) {
                Some(c) if c.compiler.is_empty() => format!("{cfg} is not built on the host of this report ({})", c.note),
                _ => format!("the report did not run the {cfg} rows"),
            }),
        };
        // A report runs one configuration's C rows unless told more: name the one it lacks.
        let command = if fig.is_err() { format!("{cmd} --config {cfg}") } else { cmd.clone() };
        out.push(Line { command, ..line(View::C, &format!("C {cfg}"), &p, fig) });
    }
    let layouts = case.pairs.iter().find(|p| p.variant == spec.variant).map(|p| p.layouts.clone()).unwrap_or_default();
    let fig = if layouts.len() < 2 {
        Err(format!("measured in {} layout(s)", layouts.len()))
    } else {
        let lo = layouts.iter().map(|l| l.median_ratio).fold(f64::INFINITY, f64::min);
        let hi = layouts.iter().map(|l| l.median_ratio).fold(f64::NEG_INFINITY, f64::max);
        let v = wall(spec.variant).and_then(|w| w.verdict).and_then(|v| Dir::parse(&v.to_string()));
        Ok(Figure { ratio: (lo * hi).sqrt(), ci: Some((lo, hi)), verdict: v, note: format!("layouts' medians {} to {} (spread {:.1}%)", pct(lo), pct(hi), (hi - lo) * 100.0) })
    };
    out.push(line(View::Layout, &format!("layouts ({})", layouts.len()), &pair, fig));
    let instr = |id: &str| r.rows.iter().find(|x| x.study == spec.study && x.case == spec.case && x.variant == id && x.metric == "instructions").map(|x| x.value);
    let mut ipairs = vec![("Rust", spec.baseline, spec.variant)];
    if let Some((cfg, a, b)) = spec.c_pairs.first() {
        ipairs.push((cfg, a, b));
    }
    for (cfg, a, b) in ipairs {
        let unit = r.studies.iter().find(|s| s.name == spec.study).map(|s| s.unit.clone()).unwrap_or_default();
        let fig = match (instr(a), instr(b)) {
            (Some(x), Some(y)) if x > 0.0 => Ok(Figure { ratio: y / x, ci: None, verdict: None, note: format!("{x:.1} -> {y:.1} instr/{unit}, exact") }),
            _ => Err("no callgrind rows in the report (run it where valgrind is installed)".into()),
        };
        out.push(Line {
            command: format!("hotloops instructions {b} --case {}", spec.case),
            ..line(View::Instructions, &format!("instructions {cfg}"), &format!("{} -> {}", short(a), short(b)), fig)
        });
    }
    wall(spec.baseline).map(|w| (w.value, floor))
}

/// The static model's lines: the loop's predicted change in cycles a trip, over the model
/// pipeline's cycles an item on this host (the baseline's ns an item times the host clock):
/// the largest time change the loop can make, same cost elsewhere assumed.
fn static_lines(spec: &Spec, src: &Sources, base: Option<(f64, f64)>, out: &mut Vec<Line>) {
    if let Some(why) = spec.static_out_of_scope {
        out.push(Line { view: View::Context, label: "static model".into(), pair: "n/a".into(), figure: Err(format!("not applicable: {why}")), source: String::new(), command: "none".into() });
        return;
    }
    let cmd = format!("hotloops model {} --json > model.json", spec.study);
    let pair = format!("{} -> {}", short(spec.baseline), short(spec.variant));
    let found = src.models.iter().find(|(_, m)| m.studies.iter().any(|s| s.study == spec.study));
    // No predictions: a report of the study says why its own model gave none.
    let none = match src.report(spec.study, spec.case).and_then(|(_, r)| r.studies.iter().find(|s| s.name == spec.study)) {
        Some(s) if s.static_model.trim().is_empty() => "the report ran without the static model (--no-model) and no model.json was given".to_string(),
        Some(s) if s.static_model.starts_with("Static core model: not run") => format!("the report's {}", s.static_model.trim().trim_start_matches("Static core model: ").trim_end_matches('.')),
        _ => "no model.json".to_string(),
    };
    let host_core = match found {
        Some((_, m)) => m.host_model.clone().ok_or_else(|| "the model names no host core".to_string()),
        None => Err(none.clone()),
    };
    let cores: Vec<(View, String, Result<String, String>)> = vec![
        (View::StaticOwn, "seed's".into(), spec.own_core.map(str::to_string).map_err(|e| e.to_string())),
        (View::StaticHost, "host's".into(), host_core),
    ];
    for (view, who, core) in cores {
        let label = match &core {
            Ok(c) => format!("static {c} ({who})"),
            Err(_) => format!("static, {who} core"),
        };
        let core = match core {
            Ok(c) => c,
            Err(why) => {
                // The seed names none: nothing can produce this view.
                let cmd = if view == View::StaticOwn { "none".to_string() } else { cmd.clone() };
                out.push(missing(view, &label, &pair, why, cmd));
                continue;
            }
        };
        let Some((path, m)) = found else {
            out.push(missing(view, &label, &pair, none.clone(), cmd.clone()));
            continue;
        };
        // A report's predictions come back with the report; model.json's with `hotloops model`.
        let again = src.reports.iter().find(|(p, _)| p == path).map_or_else(|| cmd.clone(), |(_, r)| report_command(r, spec.study));
        let s = m.studies.iter().find(|s| s.study == spec.study).expect("found by study");
        let pred = |id: &str| s.variants.iter().find(|v| v.id == id).and_then(|v| v.per_cpu.iter().find(|p| p.cpu == core)).map(|p| p.predicted);
        let fig = match (pred(spec.baseline), pred(spec.variant), base, m.host_ghz) {
            (Some(a), Some(b), Some((ns, floor)), Some(ghz)) if ns > 0.0 => {
                let r = 1.0 + (b - a) / (ns * ghz);
                Ok(Figure { ratio: r, ci: None, verdict: Some(judge(r, None, floor)), note: format!("loop {a:.2} -> {b:.2} cycles over {:.1} an item", ns * ghz) })
            }
            (None, _, _, _) | (_, None, _, _) => Err(format!("model.json has no {core} prediction of the pair")),
            (_, _, None, _) => Err("no report to scale the loop by (the pipeline's ns an item)".into()),
            _ => Err("model.json has no host clock".into()),
        };
        out.push(Line { view, label, pair: pair.clone(), figure: fig, source: display(path), command: again });
    }
}

fn tps_to_time(r: f64, ci: (f64, f64)) -> (f64, Option<(f64, f64)>) {
    (1.0 / r, Some((1.0 / ci.1, 1.0 / ci.0)))
}

/// The server's lines, one per version (and state or io_method), the newest, largest run of
/// each version.
fn server_lines(spec: &Spec, src: &Sources, out: &mut Vec<Line>) {
    let fig = |ratio: f64, ci: Option<(f64, f64)>, verdict: &str, note: String| Ok(Figure { ratio, ci, verdict: Dir::parse(verdict), note });
    match spec.server {
        ServerPair::TidBatch { case, a, b, metric } => {
            let pair = format!("{} -> {} ({metric})", short(a), short(b));
            let mut best: Vec<(String, &(PathBuf, bench::PgReport))> = Vec::new();
            for x in &src.tid {
                let v = version(&x.1.provenance.server_version);
                let key = |r: &bench::PgReport| (r.provenance.rows, r.provenance.unix_time);
                match best.iter_mut().find(|(w, _)| *w == v) {
                    Some(slot) if key(&slot.1.1) < key(&x.1) => slot.1 = x,
                    Some(_) => {}
                    None => best.push((v, x)),
                }
            }
            if best.is_empty() {
                out.push(missing(View::Server, "server", &pair, "no `hotloops pg` run".into(), "hotloops pg --full --server 15 --server 17 --server 18".into()));
            }
            for (v, (path, r)) in best {
                for c in r.results.iter().filter(|c| c.case == case) {
                    let label = format!("server {v} {}", c.cache_state);
                    let f = match c.pairs.iter().find(|p| p.a == a && p.b == b && p.metric == metric) {
                        Some(p) => fig(p.median_ratio, Some((p.ci_low, p.ci_high)), &p.verdict, format!("{} M rows", r.provenance.rows / 1_000_000)),
                        None => Err(format!("the run has no {pair}")),
                    };
                    out.push(Line { view: View::Server, label, pair: pair.clone(), figure: f, source: display(path), command: r.provenance.command.clone() });
                }
            }
            server_instructions(case, a, b, src, out);
        }
        ServerPair::ReadStream { state, a, b, metric } => {
            let pair = format!("{} -> {} ({metric})", short(a), short(b));
            let mut best: Vec<(String, &(PathBuf, readstream::ServerReport))> = Vec::new();
            for x in &src.read_stream {
                let v = version(&x.1.provenance.server_version);
                let key = |r: &readstream::ServerReport| (r.provenance.rows, r.provenance.unix_time);
                match best.iter_mut().find(|(w, _)| *w == v) {
                    Some(slot) if key(&slot.1.1) < key(&x.1) => slot.1 = x,
                    Some(_) => {}
                    None => best.push((v, x)),
                }
            }
            if best.is_empty() {
                out.push(missing(View::Server, "server", &pair, "no `hotloops pg --study read-stream` run".into(), "hotloops pg --study read-stream --full --server 17 --server 18".into()));
            }
            for (v, (path, r)) in best {
                for s in r.results.iter().filter(|s| s.cache_state == state) {
                    let label = format!("server {v} {state} io={}", s.io_method);
                    let f = match s.measured.pairs.iter().find(|p| p.a == a && p.b == b && p.metric == metric) {
                        Some(p) => fig(p.median_ratio, Some((p.ci_low, p.ci_high)), &p.verdict, format!("{} M rows", r.provenance.rows / 1_000_000)),
                        None => Err(format!("the run has no {pair}")),
                    };
                    out.push(Line { view: View::Server, label, pair: pair.clone(), figure: f, source: display(path), command: r.provenance.command.clone() });
                }
                if !r.io_uring.is_empty() && !r.results.iter().any(|s| s.io_method == "io_uring") && v.starts_with("18") {
                    out.push(missing(View::Server, &format!("server {v} {state} io=io_uring"), &pair, "this build has no io_uring".into(), "hotloops pg --study read-stream --pg-config /path/to/liburing-build/bin/pg_config".into()));
                }
            }
        }
        ServerPair::DirByValue { range, scan, a, b } => {
            let pair = format!("{} -> {} (TPS)", short(a), short(b));
            if src.dir_by_value.is_empty() {
                out.push(missing(View::Server, "server", &pair, "no `hotloops pg --study dir-by-value` run".into(), "hotloops pg --study dir-by-value --full --server 15 --server 17 --server 18".into()));
            }
            for (path, r) in &src.dir_by_value {
                for s in &r.servers {
                    let v = version(&s.server_version);
                    for q in s.queries.iter().filter(|q| q.range == range && q.scan == scan) {
                        let f = match q.ratios.iter().find(|x| x.a == a && x.b == b && x.metric == "tps") {
                            Some(x) => {
                                let (t, ci) = tps_to_time(x.ratio, x.ci);
                                fig(t, ci, &x.verdict, format!("{} rounds of {} s", r.rounds, r.seconds))
                            }
                            None => Err(format!("the run has no {pair}")),
                        };
                        out.push(Line { view: View::Server, label: format!("server {v} {scan} {range}"), pair: pair.clone(), figure: f, source: display(path), command: r.command.clone() });
                        let per = |id: &str| q.instructions.iter().find(|i| i.variant == id && i.tuples > 0.0).map(|i| i.per_query / i.tuples);
                        if let (Some(x), Some(y)) = (per(a), per(b)) {
                            out.push(Line {
                                view: View::Instructions,
                                label: format!("instructions server {v}"),
                                pair: format!("{} -> {}", short(a), short(b)),
                                figure: Ok(Figure { ratio: y / x, ci: None, verdict: None, note: format!("{x:.1} -> {y:.1} instr/tuple, the whole query, exact") }),
                                source: display(path),
                                command: r.command.clone(),
                            });
                        }
                        // The bound on the seed's core and the host's only: the other cores say nothing of this claim.
                        let host = src.models.iter().find_map(|(_, m)| m.host_model.clone());
                        for bd in q.bounds.iter().filter(|b| spec.own_core.ok() == Some(b.cpu.as_str()) || host.as_deref() == Some(b.cpu.as_str())) {
                            let t = 1.0 / (1.0 + bd.max_tps_change);
                            out.push(Line {
                                view: View::Context,
                                label: format!("bound {v} {}", bd.cpu),
                                pair: "the path's share x its saving".into(),
                                figure: Ok(Figure { ratio: t, ci: None, verdict: None, note: "largest TPS change".into() }),
                                source: display(path),
                                command: r.command.clone(),
                            });
                        }
                    }
                }
            }
        }
        ServerPair::None(why) => {
            let pair = format!("{} -> {}", short(spec.baseline), short(spec.variant));
            out.push(missing(View::Server, "server", &pair, why.into(), "none".into()));
            // What the servers do show of seed 004: the regression 17 -> 18 and glibc's trim.
            for (path, r) in &src.seed004 {
                for rec in r.records.iter().filter(|x| x.partitions == 100 && x.arm == "plain" && x.clients == 1 && x.protocol == "simple") {
                    let (t, ci) = tps_to_time(rec.ratio, (rec.ci_low, rec.ci_high));
                    out.push(Line {
                        view: View::Context,
                        label: format!("server {} -> {}", rec.pair.0, rec.pair.1),
                        pair: format!("100 partitions, bid index {}", if rec.index_on_bid { "on" } else { "off" }),
                        // The record's verdict is already the later server's speed ("slower":
                        // fewer TPS, more time), the direction of the time ratio shown.
                        figure: Ok(Figure { ratio: t, ci, verdict: Dir::parse(&rec.verdict), note: "the later server's time".into() }),
                        source: display(path),
                        command: r.command.clone(),
                    });
                }
            }
            if src.seed004.is_empty() {
                out.push(missing(View::Context, "server 17 -> 18", "100 partitions", "no `hotloops pg --seed 004` run".into(), "hotloops pg --seed 004 --full --server 17 --server 18".into()));
            }
            let mut seen: Vec<String> = Vec::new();
            for (path, w) in &src.sweeps {
                // One line a version: the first file's (a directory's files in name order).
                if seen.contains(&w.server_version) {
                    continue;
                }
                seen.push(w.server_version.clone());
                let pt = |t: &str| w.points.iter().find(|p| p.partitions == 100 && p.trim == t && p.form == sweep::INDEX_ONLY);
                if let (Some(d), Some(f)) = (pt("dynamic"), pt("fixed"))
                    && f.tps > 0.0
                {
                    out.push(Line {
                        view: View::Context,
                        label: format!("server {} trim", version(&w.server_version)),
                        pair: "glibc trim dynamic -> fixed, 100 partitions".into(),
                        figure: Ok(Figure { ratio: d.tps / f.tps, ci: None, verdict: None, note: format!("median of {} pgbench runs", sweep::REPS) }),
                        source: display(path),
                        command: w.command.clone(),
                    });
                }
            }
        }
    }
}

/// The server's instructions a TID of `a` and `b` in `case`, a line per version
/// (`hotloops pg --instructions`), or the missing line.
fn server_instructions(case: &str, a: &str, b: &str, src: &Sources, out: &mut Vec<Line>) {
    let pair = format!("{} -> {}", short(a), short(b));
    let mut any = false;
    for (path, r) in &src.instructions {
        for s in &r.servers {
            let per = |id: &str| s.comparisons.iter().find(|c| c.case == case && c.cache_state == "warm" && c.variant == id).map(|c| c.server.total_per_tid);
            if let (Some(x), Some(y)) = (per(a), per(b))
                && x > 0.0
            {
                any = true;
                out.push(Line {
                    view: View::Instructions,
                    label: format!("instructions server {}", version(&s.server_version)),
                    pair: pair.clone(),
                    figure: Ok(Figure { ratio: y / x, ci: None, verdict: None, note: format!("{x:.1} -> {y:.1} instr/TID in amgetbitmap, exact") }),
                    source: display(path),
                    command: r.command.clone(),
                });
            }
        }
    }
    if !any {
        out.push(missing(View::Instructions, "instructions server", &pair, format!("no `hotloops pg --instructions` run with {case}"), "hotloops pg --instructions --full".into()));
    }
}

/// The wall-clock ratio of a model row (`variant` against its study's baseline) in the report
/// that holds `study`'s `case`.
fn model_ratio(src: &Sources, study: &str, case: &str, variant: &str) -> Option<f64> {
    let (_, r) = src.report(study, case)?;
    r.rows.iter().find(|x| x.study == study && x.case == case && x.variant == variant && x.metric == "wall-clock")?.ratio
}

/// The lines of `hotloops pg seed`: the seed's own patch against stock, both built from source
/// (the decisive arm), the other arms as context; beside them the model's ratio of the same
/// change (the fidelity of the model against the patch) and, for seed 004, how much of the
/// 17 -> 18 regression each patch removes.
fn build_lines(spec: &Spec, src: &Sources, out: &mut Vec<Line>) {
    use crate::pgserver::ab::Verdict;
    let cmd = format!("hotloops pg seed {}", spec.seed);
    let order = crate::pgserver::seedrun::arms(spec.seed).unwrap_or(&[]);
    // Each arm's newest measurement, in the seed's order (the decisive arm first).
    let mut arms: Vec<(&PathBuf, &crate::pgserver::seedrun::ArmResult)> = Vec::new();
    for o in order {
        let newest = src.seed_runs.iter().filter(|(_, r)| r.seed == spec.seed).flat_map(|(p, r)| r.arms.iter().filter(|a| a.id == o.id).map(move |a| (p, a))).max_by(|x, y| x.1.ab.provenance.date.cmp(&y.1.ab.provenance.date));
        if let Some(a) = newest {
            arms.push(a);
        }
    }
    arms.sort_by_key(|(_, a)| !a.decisive);
    if !arms.iter().any(|(_, a)| a.decisive) {
        let what = order.iter().find(|a| a.decisive).map(|a| format!("{} -> {}", a.a, a.b)).unwrap_or_default();
        out.push(missing(View::Build, "patched build", &what, format!("no `{cmd}` run"), cmd.clone()));
    }
    let effect = |id: &str| arms.iter().find(|(_, a)| a.id == id).and_then(|(_, a)| a.ab.primary()).map(|m| m.effect.median);
    for (path, a) in &arms {
        let Some(m) = a.ab.primary() else { continue };
        let verdict = match a.ab.verdict_kind {
            Verdict::Faster => Dir::Faster,
            Verdict::Slower => Dir::Slower,
            Verdict::NotResolved => Dir::NotResolved,
        };
        let version = a.ab.a.version.trim_start_matches("postgres (PostgreSQL) ").to_string();
        let mechanism = order.iter().find(|o| o.id == a.id).and_then(|o| o.mechanism);
        out.push(Line {
            view: if a.decisive {
                View::Build
            } else if mechanism.is_some() {
                View::Mechanism
            } else {
                View::Context
            },
            label: format!("build {version} {}", a.id),
            pair: format!("{} -> {}, {} ({}){}", a.ab.a.spec, a.ab.b.spec, a.ab.workload, a.ab.primary, mechanism.map(|(_, means)| format!("{IF_GONE}{means}")).unwrap_or_default()),
            figure: Ok(Figure {
                ratio: m.effect.median,
                ci: Some((m.effect.lo, m.effect.hi)),
                verdict: Some(verdict),
                note: match mechanism {
                    Some((cond, _)) => format!("{cond}, the patch's effect is {}", a.ab.verdict),
                    None => a.ab.verdict.clone(),
                },
            }),
            source: display(path),
            command: format!("{cmd} --arm {}", a.id),
        });
        // What the patch changed in the instructions executed (callgrind over each build's
        // single-user backend): beside a time effect, how much of it the instructions explain.
        if let Some(w) = a.ab.why.as_ref().filter(|w| !w.totals.is_empty()) {
            let (ia, ib) = w.totals.iter().fold((0u64, 0u64), |(x, y), (_, a, b)| (x + a, y + b));
            if ia > 0 {
                let top: Vec<String> = w.functions.iter().take(3).map(|(f, x, y)| format!("{f} {:+}", *y as i64 - *x as i64)).collect();
                out.push(Line {
                    view: View::BuildInstructions,
                    label: format!("instructions {}", a.id),
                    pair: format!("{} -> {}", a.ab.a.spec, a.ab.b.spec),
                    figure: Ok(Figure {
                        ratio: ib as f64 / ia as f64,
                        ci: None,
                        verdict: None,
                        note: format!("callgrind, a single-user backend of each build: {ia} -> {ib} instructions ({:+}); most changed: {}", ib as i64 - ia as i64, if top.is_empty() { "none".into() } else { top.join(", ") }),
                    }),
                    source: display(path),
                    command: format!("{cmd} --arm {}", a.id),
                });
            }
        }
    }
    // The model beside the patch, where the model has the same change.
    let fidelity: &[(&str, &str, &str, &str)] = match spec.seed {
        "000" => &[("local-index", spec.study, spec.case, spec.variant), ("batch-tids", "tid-batch", "btree-many", "tid-batch/batched")],
        "001" => &[("range-15000", spec.study, spec.case, spec.variant)],
        _ => &[],
    };
    for (arm, study, case, variant) in fidelity {
        if let (Some(model), Some(real)) = (model_ratio(src, study, case, variant), effect(arm)) {
            let effects = if (1.0 - real).abs() > 1e-9 { format!("; the effects' ratio {:.2}", (1.0 - model) / (1.0 - real)) } else { String::new() };
            out.push(Line {
                view: View::Context,
                label: format!("fidelity {arm}"),
                pair: format!("model {case}: {} against the patched build", short(variant)),
                figure: Ok(Figure { ratio: model / real, ci: None, verdict: None, note: format!("model {} against the patched build's {}{effects}", pct(model), pct(real)) }),
                source: "the report and the pg seed run above".into(),
                command: format!("{cmd} --arm {arm}"),
            });
        }
    }
    // Seed 004's question: how much of the 17 -> 18 regression does each patch remove?
    if let Some(r) = effect("regression-17-18").filter(|r| *r > 1.0) {
        for arm in ["amroutine-static", "amroutine-cache"] {
            if let Some(p) = effect(arm) {
                let share = r * (1.0 - p) / (r - 1.0);
                out.push(Line {
                    view: View::Context,
                    label: format!("share {arm}"),
                    pair: "of the 17 -> 18 regression at 100 partitions".into(),
                    figure: Ok(Figure { ratio: p, ci: None, verdict: None, note: format!("18.6 takes {} of 17.11's time (the wheels); {arm} takes {} of stock 18.6's: it removes {:.0}% of the regression", pct(r), pct(p), share * 100.0) }),
                    source: "the pg seed 004 run above".into(),
                    command: format!("{cmd} --arm regression-17-18 --arm {arm}"),
                });
            }
        }
    }
}

/// The card of `spec` from `src`.
pub fn card(spec: &Spec, src: &Sources) -> Card {
    let mut lines = Vec::new();
    let base = report_lines(spec, src, &mut lines);
    static_lines(spec, src, base, &mut lines);
    build_lines(spec, src, &mut lines);
    server_lines(spec, src, &mut lines);
    let hosts = view_hosts(&lines, src);
    let conclusion = if hosts.len() > 1 && !src.mixed_hosts {
        format!(
            "No conclusion: these views come from {} hosts ({}), and a conclusion across hosts would mix their CPUs; give one host's files, or pass --mixed-hosts to conclude across them.",
            hosts.len(),
            hosts.iter().map(|(h, _)| h.as_str()).collect::<Vec<_>>().join("; ")
        )
    } else {
        conclude(spec.claim_ratio, &lines)
    };
    let skipped = src.skipped.iter().map(|(p, why)| format!("{} ({why})", display(p))).collect();
    let host = match src.report(spec.study, spec.case) {
        Some((_, r)) => {
            let p = &r.provenance;
            format!("{} fam {:#x} model {:#x} [{}{}], commit {}{}", p.cpu_name, p.cpu_family, p.cpu_model, p.microarch, if p.hypervisor { ", VM" } else { "" }, &p.commit[..p.commit.len().min(7)], if p.dirty { "+dirty" } else { "" })
        }
        // No report: the one host the other views name, if they name one.
        None => hosts.first().map(|(h, _)| h.clone()).unwrap_or_else(|| "host unknown (no report)".into()),
    };
    let mut versions: Vec<String> = lines.iter().filter(|l| (l.label.starts_with("server ") || l.label.starts_with("build ")) && l.figure.is_ok()).filter_map(|l| l.label.split_whitespace().nth(1).map(str::to_string)).collect();
    versions.sort();
    versions.dedup();
    let host = if hosts.len() > 1 {
        format!("views from {} hosts: {}", hosts.len(), hosts.iter().map(|(h, views)| format!("{h} ({})", views.join(", "))).collect::<Vec<_>>().join("; "))
    } else {
        host
    };
    let header = format!("{host}; PostgreSQL {}", if versions.is_empty() { "none measured".to_string() } else { versions.join(", ") });
    Card { spec: *spec, header, lines, conclusion, skipped }
}

/// The hosts the card's measured views come from, in the order first met, each with the
/// labels of its views (a file that names no host is not counted).
fn view_hosts(lines: &[Line], src: &Sources) -> Vec<(String, Vec<String>)> {
    let mut hosts: Vec<(String, Vec<String>)> = Vec::new();
    for l in lines.iter().filter(|l| l.figure.is_ok()) {
        // A line's source is its file, or (a report's figures) the file with its size and commit.
        let of = |p: &PathBuf| l.source == display(p) || l.source.strip_prefix(&display(p)).is_some_and(|r| r.starts_with(" ("));
        let Some((_, h)) = src.hosts.iter().find(|(p, _)| of(p)) else { continue };
        match hosts.iter_mut().find(|(x, _)| x == h) {
            Some((_, v)) => v.push(l.label.clone()),
            None => hosts.push((h.clone(), vec![l.label.clone()])),
        }
    }
    hosts
}

/// Text wrapped at [`WIDTH`], continuation lines indented.
fn wrap(text: &str, first: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// A card as Markdown (`md`) or plain text: under [`WIDTH`] columns either way.
pub fn render(c: &Card, md: bool) -> String {
    let s = &c.spec;
    let mut o = String::new();
    let title = format!("Seed {}: {} / {} / {}", s.seed, s.study, s.case, short(s.variant));
    o.push_str(&if md { format!("### {title}\n\n") } else { format!("{title}\n{}\n", "=".repeat(title.chars().count())) });
    o.push_str(&wrap(&c.header, "", "  "));
    o.push('\n');
    let q = format!("{}: \"{}\" ({} time)", s.source, s.quote, pct(s.claim_ratio));
    o.push_str(&wrap(&q, if md { "> " } else { "" }, if md { "> " } else { "  " }));
    o.push('\n');
    // The pairs are in the list below the table: the table stays under WIDTH.
    let mut t = Table::new([("view", Align::Left), ("time", Align::Right), ("95% interval", Align::Right), ("verdict", Align::Left)]);
    for l in &c.lines {
        let (fig, ci, v) = match &l.figure {
            Ok(f) if matches!(l.view, View::Instructions | View::BuildInstructions) => (format!("{} instr", pct(f.ratio)), String::new(), "exact".to_string()),
            Ok(f) => (pct(f.ratio), f.ci.map(|(a, b)| format!("[{}, {}]", pct(a), pct(b))).unwrap_or_else(|| "none".into()), f.verdict.map(|d| d.word().to_string()).unwrap_or_else(|| "context".into())),
            // No command produces it (the seed names no CPU): not applicable, not missing.
            Err(_) if l.command == "none" => ("n/a".into(), String::new(), String::new()),
            Err(_) => ("missing".into(), String::new(), String::new()),
        };
        t.row([l.label.clone(), fig, ci, v]);
    }
    if md {
        o.push_str(&t.render());
    } else {
        o.push_str(&t.render().lines().filter(|l| !l.starts_with("| :") && !l.starts_with("| -")).map(|l| l.replace(" | ", "  ").trim_matches('|').trim_end().to_string() + "\n").collect::<String>());
    }
    o.push('\n');
    o.push_str(&wrap(&format!("Conclusion: {}", c.conclusion), if md { "**" } else { "" }, ""));
    if md {
        // Close the bold on the last line.
        o.pop();
        o.push_str("**\n");
    }
    o.push_str(&wrap(RULE, "", ""));
    o.push('\n');
    o.push_str(if md { "Where each figure came from, and the command that reproduces it:\n\n" } else { "Sources and commands:\n" });
    for l in &c.lines {
        let what = match &l.figure {
            Ok(f) if !f.note.is_empty() => format!("{}; {}; `{}`", f.note, l.source, rerun(&l.command)),
            Ok(_) => format!("{}; `{}`", l.source, rerun(&l.command)),
            Err(why) if l.command == "none" => format!("n/a: {why}; no command produces it"),
            Err(why) => format!("MISSING: {why}; produce it with `{}`", l.command),
        };
        o.push_str(&wrap(&format!("{} ({}): {what}", l.label, l.pair), "- ", "  "));
    }
    for f in &c.skipped {
        o.push_str(&wrap(&format!("not read: {f}"), "- ", "  "));
    }
    o
}

/// The cards of every seed whose study a report holds (for the top of the report).
pub fn report_cards(r: &Report) -> Vec<Card> {
    let mut src = Sources::default();
    src.add_report(Path::new("report.json"), r.clone());
    SPECS.iter().filter(|s| r.studies.iter().any(|x| x.name == s.study && x.cases.iter().any(|c| c.name == s.case))).map(|s| card(s, &src)).collect()
}

/// The seed cards section of `report.md` (empty when no seed's case ran).
pub fn markdown(r: &Report) -> String {
    let cards = report_cards(r);
    if cards.is_empty() {
        return String::new();
    }
    let mut m = String::from("## Seed cards\n\nEvery view of each seed claim this report holds (`hotloops seed ID --report DIR` adds model.json and the `hotloops pg` files).\n\n");
    for c in &cards {
        m.push_str(&render(c, true));
        m.push('\n');
    }
    m
}

/// One line per card for the terminal: the seed, the model's figure, the conclusion.
pub fn terminal(r: &Report) -> String {
    let mut m = String::new();
    for c in report_cards(r) {
        let model = c.lines.iter().find(|l| l.view == View::Model).and_then(|l| l.figure.as_ref().ok()).map(|f| format!("{} {}", pct(f.ratio), f.verdict.map(|d| d.word()).unwrap_or(""))).unwrap_or_else(|| "missing".into());
        m.push_str(&super::wrap(&format!("seed {} ({} / {}): claim {} time, model {model}. {}", c.spec.seed, c.spec.study, c.spec.case, pct(c.spec.claim_ratio), c.conclusion), "    "));
    }
    if !m.is_empty() {
        m.push_str("  (the cards with every view: report.md, or `hotloops seed ID --report DIR`)\n\n");
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quotient_of_two_pairs_widens_its_interval() {
        // 0.95 / 1.0 with +-1% each side: the quotient 0.95, wider than either interval.
        let (r, ci) = quotient((0.95, Some((0.95 / 1.01, 0.95 * 1.01))), (1.0, Some((1.0 / 1.01, 1.01))));
        let (lo, hi) = ci.unwrap();
        assert!((r - 0.95).abs() < 1e-12);
        assert!(lo < 0.95 / 1.01 && hi > 0.95 * 1.01 && hi < 0.95 * 1.02, "{lo} {hi}");
        assert!(quotient((0.9, None), (1.0, Some((0.99, 1.01)))).1.is_none());
    }

    #[test]
    fn tps_ratios_become_time_ratios() {
        // 5.5% more TPS is 1/1.055 of the time; the interval's ends swap.
        let (t, ci) = tps_to_time(1.055, (1.04, 1.07));
        assert!((t - 1.0 / 1.055).abs() < 1e-12);
        assert_eq!(ci, Some((1.0 / 1.07, 1.0 / 1.04)));
    }

    #[test]
    fn every_seed_has_a_spec_and_an_unknown_one_lists_them() {
        for s in ["000", "001", "002", "004"] {
            assert_eq!(spec(s).unwrap().seed, s);
        }
        let e = spec("003").unwrap_err();
        assert_eq!(e.valid, ids());
        // The claims point the way the seeds say: every one is a saving.
        assert!(SPECS.iter().all(|s| s.claim_ratio < 1.0));
    }

    #[test]
    fn wrapped_text_keeps_to_the_width() {
        let long = "word ".repeat(60);
        let w = wrap(&long, "- ", "  ");
        assert!(w.lines().count() > 2 && w.lines().all(|l| l.chars().count() <= WIDTH), "{w}");
        assert!(w.lines().skip(1).all(|l| l.starts_with("  ")));
    }

    #[test]
    fn the_cards_head_the_reports_markdown_and_terminal() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report.json");
        let r = crate::report::load(&path).unwrap();
        let md = crate::report::markdown(&r);
        let (cards, headline) = (md.find("## Seed cards").unwrap(), md.find("## Headline").unwrap());
        assert!(cards < headline);
        for seed in ["000", "001", "002", "004"] {
            assert!(md[cards..headline].contains(&format!("### Seed {seed}:")), "seed {seed}");
        }
        let t = crate::report::terminal(&r);
        assert!(t.lines().filter(|l| l.starts_with("seed ")).count() == 4, "{t}");
        assert!(t.lines().all(|l| l.chars().count() <= crate::report::TERMINAL_WIDTH), "{t}");
        // From the report alone no server was read: no card may say it was reproduced there.
        assert!(!md[cards..headline].contains("Conclusion: Reproduced") && md[cards..headline].contains("not judged: the server"));
    }
}

/// A saved run's command line as a reader would type it: the program as `hotloops` wherever
/// the binary lived, and no `--out` (each reader picks a directory of their own).
fn rerun(cmd: &str) -> String {
    let mut words = cmd.split_whitespace();
    let Some(first) = words.next() else { return String::new() };
    let mut out = vec![if first.rsplit('/').next() == Some("hotloops") { "hotloops" } else { first }];
    while let Some(w) = words.next() {
        if w == "--out" {
            words.next();
        } else if !w.starts_with("--out=") {
            out.push(w);
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod rerun_tests {
    #[test]
    fn a_saved_command_reads_as_a_reader_types_it() {
        assert_eq!(super::rerun("/tmp/hlm/hotloops pg --study dir-by-value --server 18 --out /tmp/dv18"), "hotloops pg --study dir-by-value --server 18");
        assert_eq!(super::rerun("./target/release/hotloops pg --instructions --out=/x --rows 20000"), "hotloops pg --instructions --rows 20000");
        assert_eq!(super::rerun("hotloops report --study tid-batch"), "hotloops report --study tid-batch");
    }
}
