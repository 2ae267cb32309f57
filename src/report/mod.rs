//! Report files: JSON (versioned schema, `schema/report.schema.json`), Markdown and SVG,
//! written atomically, each with its provenance; [`compare`], which sets reports from several
//! hosts side by side or one report against its baseline; [`sweep`], a measurement over a
//! parameter with one fresh process a point. Markdown tables come from [`table`], plots from
//! [`plot`], the seed cards at the top from [`seeds`], the verdict lines below them from
//! [`headline`].
//!
//! Metric names are kebab-case (`wall-clock`, `own-instructions`, `bitmap-peak-bytes`), but
//! for a counter, `counter:` + the event's own name as perf or the PMU spells it (so it can
//! be looked up); units are SI symbols per item (`ns/TID`, `µs/run`, `B`), counts `count/TID`.

pub mod ab;
pub mod compare;
pub mod layout;
pub mod headline;
pub mod html;
pub mod pg;
pub mod matrix;
pub mod plot;
pub mod progress;
pub mod run;
pub mod seeds;
pub mod sweep;
pub mod table;

use crate::measure::counters::Unavailable;
use crate::measure::wallclock::{PairTrials, Paired, Verdict};
use anyhow::{Context, Result};
use crate::host::provenance::Provenance;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The JSON schema's name.
pub const SCHEMA: &str = "hotloops-report";
/// The JSON schema's version. Version 2 added each pair's raw per-process trial ratios
/// (`per_process`), each row's `flags`, and SI units (`ns/TID` for the task clock,
/// `count/TID` for counts); `compare` still reads version 1 (without raw trials).
pub const SCHEMA_VERSION: u32 = 2;
/// Versions [`load`] reads.
pub const SCHEMA_VERSIONS_READ: &[u32] = &[1, 2];

/// A whole report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Where the numbers came from.
    pub provenance: Provenance,
    /// How they were measured.
    pub config: RunConfig,
    /// What could not be measured, and why (no PMU, no valgrind...).
    pub notes: Vec<String>,
    /// Per study: its claim and cases.
    pub studies: Vec<StudyReport>,
    /// Every figure as one flat row.
    pub rows: Vec<Row>,
    /// `--pg`: the real server's figures and each model row beside them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pg: Option<pg::PgSection>,
}

/// The run's settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunConfig {
    /// The default short run (`--quick`, kept under that name in saved reports); false: `--full`.
    pub quick: bool,
    /// Workload size of the wall-clock and counter runs.
    pub size: crate::study::Size,
    /// Workload size the instruction counts ran on.
    pub instructions_size: crate::study::Size,
    /// Measuring processes per wall-clock pair and code layout.
    pub processes: usize,
    /// The code layouts each pair was pooled over (empty: this binary's only).
    #[serde(default)]
    pub layouts: Vec<String>,
    /// Wall-clock budget per pair and process, ms.
    pub budget_ms: u64,
    /// Seconds the report took.
    pub elapsed_s: f64,
    /// Where they went: seconds per study and phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<run::PhaseTime>,
    /// The C configurations of this build, and which ones' rows ran (`--config`).
    #[serde(default)]
    pub c_configs: Vec<matrix::CConfigUsed>,
}

/// One study in a report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyReport {
    /// Study name.
    pub name: String,
    /// Seed.
    pub seed: String,
    /// Claim.
    pub claim: String,
    /// Seed's numbers.
    pub seed_numbers: String,
    /// Item unit.
    pub unit: String,
    /// Baseline id.
    pub baseline: String,
    /// Cases.
    pub cases: Vec<CaseReport>,
    /// The static core model's block for the study (`hotloops model STUDY`, Markdown): predicted
    /// cycles per loop trip per CPU model beside the host's loop-only measurement, or why it
    /// did not run.
    #[serde(default)]
    pub static_model: String,
    /// The predictions behind that block, as `hotloops model STUDY --json` writes them (the
    /// host's core and clock, cycles a trip per core and variant): what the seed cards read.
    /// None where the model did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_predictions: Option<seeds::ModelFile>,
}

/// One process's trials of a pair, raw: what runs are pooled from later.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ProcessTrials {
    /// The code layout the process ran in (`at-16`; empty: the report's own binary).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub layout: String,
    /// Ratio variant/baseline of each trial, in the order they ran.
    pub ratios: Vec<f64>,
    /// Case runs per timed block.
    pub reps_per_block: u32,
}

impl From<&PairTrials> for ProcessTrials {
    fn from(t: &PairTrials) -> ProcessTrials {
        ProcessTrials { layout: String::new(), ratios: t.ratios.clone(), reps_per_block: t.reps_per_block }
    }
}

/// A measured pair as the report keeps it: the summary ([`Paired`], its fields inline in the
/// JSON) and the raw trials it was built from, one entry per measuring process.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairReport {
    /// The summary.
    #[serde(flatten)]
    pub paired: Paired,
    /// Raw trial ratios per process (empty in a version 1 report).
    #[serde(default)]
    pub per_process: Vec<ProcessTrials>,
}

impl PairReport {
    /// The summary and the trials it came from.
    pub fn new(paired: Paired, per_process: &[PairTrials]) -> PairReport {
        PairReport { paired, per_process: per_process.iter().map(ProcessTrials::from).collect() }
    }
}

impl std::ops::Deref for PairReport {
    type Target = Paired;
    fn deref(&self) -> &Paired {
        &self.paired
    }
}

/// One case of a study.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseReport {
    /// Case name.
    pub name: String,
    /// Workload description.
    pub describe: String,
    /// Items per run.
    pub items: u64,
    /// A/A control of the baseline.
    pub aa: PairReport,
    /// The A/A noise floor (relative).
    pub noise_floor: f64,
    /// Each variant against the baseline.
    pub pairs: Vec<PairReport>,
}

/// One figure.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Row {
    /// Study.
    pub study: String,
    /// Case.
    pub case: String,
    /// Variant id.
    pub variant: String,
    /// Baseline id it is compared with.
    pub baseline: String,
    /// Metric: `wall-clock`, `wall-clock-aa`, `instructions`, `own-instructions`, `counter:<event>`, or a study's own.
    pub metric: String,
    /// Value.
    pub value: f64,
    /// Unit (`ns/TID`, `instr/tuple`, ...).
    pub unit: String,
    /// Variant / baseline (wall clock: median of per-trial ratios).
    pub ratio: Option<f64>,
    /// 95% interval of the ratio (wall clock).
    pub ci_low: Option<f64>,
    /// 95% interval of the ratio (wall clock).
    pub ci_high: Option<f64>,
    /// What the wall-clock pair shows against the A/A floor.
    pub verdict: Option<Verdict>,
    /// The seed's ratio for this case, where it reported one.
    pub seed_ratio: Option<f64>,
    /// Warnings about how this figure was measured (`busy-host: thread ran 71% of wall time,
    /// ...`); a flagged figure is not to be trusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

impl Row {
    pub(crate) fn plain(study: &str, case: &str, variant: &str, baseline: &str, metric: &str, value: f64, unit: &str) -> Row {
        Row {
            study: study.into(),
            case: case.into(),
            variant: variant.into(),
            baseline: baseline.into(),
            metric: metric.into(),
            value,
            unit: si_unit(unit),
            ratio: None,
            ci_low: None,
            ci_high: None,
            verdict: None,
            seed_ratio: None,
            flags: Vec::new(),
        }
    }
}

/// A ratio as a signed percent change: 0.9278 -> "-7.22%".
pub fn pct(r: f64) -> String {
    // An interval's end can be unbounded (a TPS interval reaching 0 is an infinite time ratio).
    if r.is_nan() {
        "n/a".into()
    } else if r == f64::INFINITY {
        "unbounded".into()
    } else {
        format!("{:+.2}%", (r - 1.0) * 100.0)
    }
}

/// A unit as an SI symbol (`us` -> `µs`); per-item units keep their item (`us/run`).
pub fn si_unit(u: &str) -> String {
    let (head, tail) = u.split_once('/').map_or((u, None), |(h, t)| (h, Some(t)));
    let head = match head {
        "us" | "usec" => "µs",
        "msec" => "ms",
        "nsec" => "ns",
        "sec" | "secs" => "s",
        "bytes" => "B",
        h => h,
    };
    match tail {
        Some(t) => format!("{head}/{t}"),
        None => head.to_string(),
    }
}

/// A column header naming a metric and its unit once: `bitmap-peak-bytes [B]`, but `pages/s`
/// alone where the metric is named by its unit.
fn header(metric: &str, unit: &str) -> String {
    let m = metric.trim_start_matches("counter:");
    if unit.is_empty() || m == unit || unit.split('/').next() == Some(m) { m.to_string() } else { format!("{m} [{unit}]") }
}

/// The metric groups of `report.md`, each its own table: (title, does a metric belong).
const GROUPS: &[(&str, fn(&str) -> bool)] = &[
    ("instructions (callgrind, test size)", |m| m == "instructions" || m == "own-instructions"),
    ("counters (perf)", |m| m.starts_with("counter:")),
    ("study figures", |m| !m.starts_with("wall-clock") && !m.starts_with("counter:") && m != "instructions" && m != "own-instructions"),
];

/// The variants of a case's rows, in report order.
fn variants_of(rows: &[&Row]) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    rows.iter().map(|x| x.variant.clone()).filter(|v| seen.insert(v.clone())).collect()
}

/// A variant id without its study (`local-index/local` -> `local`).
pub fn short(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

fn provenance_table(r: &Report) -> table::Table {
    use table::{Align, Table};
    let p = &r.provenance;
    let c = &r.config;
    let mut prov = Table::new([("provenance", Align::Left), ("", Align::Left)]);
    prov.row([
        "CPU".to_string(),
        format!("{} ({}, family {:#x} model {:#x}, {}{})", p.cpu_name, p.cpu_vendor, p.cpu_family, p.cpu_model, p.microarch, if p.hypervisor { ", under a hypervisor" } else { "" }),
    ])
    .row(["host / kernel".to_string(), format!("{} / {}", p.host, p.kernel)])
    .row(["rustc".to_string(), p.rustc.clone()])
    .row(["llvm-mca (static model)".to_string(), p.llvm_mca.clone().unwrap_or_else(|| "not installed (apt-get install llvm-19)".into())])
    .row(["commit".to_string(), format!("{}{}", p.commit, if p.dirty { " (dirty tree)" } else { "" })])
    .row(["features".to_string(), if p.features.is_empty() { "none".to_string() } else { p.features.join(", ") }])
    .row(["pinned core".to_string(), p.pinned_core.map(|c| c.to_string()).unwrap_or_else(|| "not pinned".into())])
    .row(["date".to_string(), p.date.clone()])
    .row([
        "run".to_string(),
        format!(
            "{} size, {} process(es) in each of {} code layout(s) ({}), {} ms a pair split over the layouts, instructions at {} size, {:.0} s in all",
            c.size.name(),
            c.processes,
            c.layouts.len().max(1),
            if c.layouts.is_empty() { "this binary's".to_string() } else { c.layouts.join(", ") },
            c.budget_ms,
            c.instructions_size.name(),
            c.elapsed_s
        ),
    ]);
    prov
}

/// The wall-clock table of one case: a row per variant, the baseline first.
fn wall_table(rows: &[&Row], unit: &str, terminal: bool) -> table::Table {
    use table::{Align, Table};
    let mut t = Table::new([
        ("variant".to_string(), Align::Left),
        (format!("ns/{unit}"), Align::Right),
        ("time".to_string(), Align::Right),
        ("95% interval".to_string(), Align::Right),
        ("verdict".to_string(), Align::Left),
    ]);
    if !terminal {
        t.column("ratio", Align::Right).column("seed (time)", Align::Right);
    } else {
        t.column(format!("instr/{unit}"), Align::Right).column("instr", Align::Right);
    }
    for v in variants_of(rows) {
        let Some(w) = rows.iter().find(|x| x.variant == v && x.metric == "wall-clock") else { continue };
        // The terminal's heading names the study: the short id keeps the table narrow.
        let id = if terminal { short(&v).to_string() } else { format!("`{v}`") };
        let (time, ci, ratio) = match (w.ratio, w.ci_low, w.ci_high) {
            (Some(r), Some(l), Some(h)) => (pct(r), format!("[{}, {}]", pct(l), pct(h)), format!("{r:.4}")),
            _ => ("baseline".to_string(), String::new(), String::new()),
        };
        let verdict = w.verdict.map(|v| v.to_string()).unwrap_or_default();
        let mut cells = vec![id, fmt_num(w.value), time, ci, verdict];
        if terminal {
            match rows.iter().find(|x| x.variant == v && x.metric == "instructions") {
                Some(i) => cells.extend([fmt_num(i.value), i.ratio.filter(|_| i.variant != i.baseline).map(pct).unwrap_or_default()]),
                None => cells.extend([String::new(), String::new()]),
            }
        } else {
            cells.extend([ratio, w.seed_ratio.map(headline::seed_words).unwrap_or_default()]);
        }
        t.row(cells);
    }
    t
}

/// One metric group of a case, transposed: a row per metric, a column per variant.
fn group_table(rows: &[&Row], belongs: fn(&str) -> bool) -> Option<table::Table> {
    use table::{Align, Table};
    let mut metrics: Vec<(String, String)> = Vec::new();
    for x in rows.iter().filter(|x| belongs(&x.metric)) {
        if !metrics.iter().any(|(m, _)| m == &x.metric) {
            metrics.push((x.metric.clone(), x.unit.clone()));
        }
    }
    // Metrics that are zero for every variant (context switches on a quiet run) say nothing
    // here; the JSON keeps them.
    metrics.retain(|(k, _)| rows.iter().any(|x| &x.metric == k && x.value != 0.0));
    if metrics.is_empty() {
        return None;
    }
    let variants = variants_of(rows);
    let mut t = Table::new([("metric", Align::Left)]);
    for v in &variants {
        t.column(short(v), Align::Right);
    }
    for (k, unit) in &metrics {
        let mut cells = vec![header(k, unit)];
        for v in &variants {
            cells.push(
                rows.iter()
                    .find(|x| &x.variant == v && &x.metric == k)
                    .map(|x| match x.ratio {
                        Some(r) if x.variant != x.baseline => format!("{} ({})", fmt_num(x.value), pct(r)),
                        _ => fmt_num(x.value),
                    })
                    .unwrap_or_else(|| "n/a".into()),
            );
        }
        t.row(cells);
    }
    Some(t)
}

/// The report as Markdown (`report.md`): headline, provenance, and per case a table per
/// metric group.
pub fn markdown(r: &Report) -> String {
    use std::fmt::Write as _;
    let mut m = String::new();
    let _ = writeln!(m, "# hotloops report\n");
    // The seed cards first: the answer to each seed's thread, then the detail behind it.
    m.push_str(&seeds::markdown(r));
    let _ = writeln!(m, "{}", headline::markdown(r));
    let mut prov = provenance_table(r);
    for row in matrix::provenance_rows(&r.config.c_configs) {
        prov.row(row);
    }
    let _ = writeln!(m, "{}", prov.render());
    if !r.notes.is_empty() {
        let _ = writeln!(m, "**Notes**\n");
        for n in &r.notes {
            let _ = writeln!(m, "- {n}");
        }
        let _ = writeln!(m);
    }
    for s in &r.studies {
        let _ = writeln!(m, "## {}\n\n{}: {}.\nSeed reported: {}.\n", s.name, s.seed, s.claim, s.seed_numbers);
        for case in &s.cases {
            let _ = writeln!(m, "### {} / {}\n\n{}\n", s.name, case.name, case.describe);
            let _ = writeln!(m, "A/A noise floor: ±{:.2}% (A/A median {}, 95% interval [{}, {}]). Interval: {}.\n",
                case.noise_floor * 100.0, pct(case.aa.median_ratio), pct(case.aa.ci_low), pct(case.aa.ci_high), case.aa.interval);
            let rows: Vec<&Row> = r.rows.iter().filter(|x| x.study == s.name && x.case == case.name).collect();
            let _ = writeln!(m, "**wall clock** (time: variant vs baseline, median of per-trial ratios)\n\n{}", wall_table(&rows, &s.unit, false).render());
            for (title, belongs) in GROUPS {
                if let Some(t) = group_table(&rows, *belongs) {
                    let _ = writeln!(m, "**{title}** (change vs the baseline in brackets)\n\n{}", t.render());
                }
            }
            m.push_str(&layout::case_block(case));
        }
        m.push_str(&matrix::markdown(r, s));
        if !s.static_model.is_empty() {
            // `hotloops model`'s headings are lines of this section here: its title in bold,
            // the study's line plain.
            let block = s.static_model.trim_start_matches('\n').replacen("## ", "", 1);
            let block = match block.strip_prefix("# ").and_then(|b| b.split_once('\n')) {
                Some((title, rest)) => format!("**{title}**\n{rest}"),
                None => block,
            };
            let _ = writeln!(m, "### {} / static core model\n\n{block}", s.name);
        }
    }
    if let Some(p) = &r.pg {
        m.push_str(&pg::markdown(p));
    }
    m
}

/// The width the terminal output keeps to.
pub const TERMINAL_WIDTH: usize = 120;

/// Prose wrapped at [`TERMINAL_WIDTH`], each continuation line indented by `indent`.
pub fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > TERMINAL_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
        } else if len > 0 && line != indent {
            line.push(' ');
        }
        // A single word longer than the width (a path) is cut rather than overflowing.
        let room = TERMINAL_WIDTH.saturating_sub(line.chars().count());
        if word.chars().count() > room {
            line.extend(word.chars().take(room.saturating_sub(1)));
            line.push('…');
        } else {
            line.push_str(word);
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// What the terminal shows: the headline, the notes, and per case the wall clock and
/// instructions; every line at most [`TERMINAL_WIDTH`] columns. The full tables (counters,
/// study figures, the static model) are in `report.md`.
pub fn terminal(r: &Report) -> String {
    use std::fmt::Write as _;
    let p = &r.provenance;
    let c = &r.config;
    let mut m = String::new();
    m.push_str(&wrap(
        &format!(
            "hotloops report: {} [{}{}] on {}, commit {}{}, {} size, {} process(es) x {} layout(s) ({}), {} ms a pair, {:.0} s",
            p.cpu_name,
            p.microarch,
            if p.hypervisor { ", VM" } else { "" },
            p.host,
            &p.commit[..p.commit.len().min(12)],
            if p.dirty { "+dirty" } else { "" },
            c.size.name(),
            c.processes,
            c.layouts.len().max(1),
            if c.layouts.is_empty() { "this binary's".to_string() } else { c.layouts.join(", ") },
            c.budget_ms,
            c.elapsed_s
        ),
        "  ",
    ));
    m.push('\n');
    m.push_str(&seeds::terminal(r));
    m.push_str(&headline::terminal(r));
    for n in &r.notes {
        m.push_str(&wrap(&format!("note: {n}"), "  "));
    }
    for s in &r.studies {
        for case in &s.cases {
            let _ = writeln!(m, "\n{} / {}  (A/A floor ±{:.2}%)", s.name, case.name, case.noise_floor * 100.0);
            let rows: Vec<&Row> = r.rows.iter().filter(|x| x.study == s.name && x.case == case.name).collect();
            m.push_str(&wall_table(&rows, &s.unit, true).render());
        }
    }
    m.push_str("\nCounters, study figures and the static core model: report.md beside report.json.\n");
    m
}

/// A figure for a table: integers as integers, else 3 or 4 significant places.
pub fn fmt_num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else if x.abs() >= 1.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.4}")
    }
}

/// Parse a report file, naming the file and the problem when it is not a report of a
/// schema version this hotloops reads.
pub fn load(path: &Path) -> Result<Report> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))?;
    match v.get("schema").and_then(|s| s.as_str()) {
        Some(SCHEMA) => {}
        _ => anyhow::bail!("{}: not a hotloops report (no \"schema\": \"{SCHEMA}\")", path.display()),
    }
    match v.get("schema_version").and_then(|s| s.as_u64()) {
        Some(x) if SCHEMA_VERSIONS_READ.iter().any(|&r| r as u64 == x) => {}
        Some(x) => anyhow::bail!(
            "{}: schema version {x}, this hotloops reads versions {SCHEMA_VERSIONS_READ:?}; re-run the report with this version",
            path.display()
        ),
        None => anyhow::bail!("{}: no schema_version", path.display()),
    }
    // The path of the first bad field (`pg.fidelity[22].effect_ratio`), not only what was wrong.
    let mut de = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| anyhow::anyhow!("{}: malformed report at `{}`: {}", path.display(), e.path(), e.inner()))
}

/// Rows for the counters of one variant.
pub(crate) fn counter_rows(study: &str, case: &str, variant: &str, baseline: &str, unit: &str, values: &[crate::measure::counters::CounterValue], base: Option<&[crate::measure::counters::CounterValue]>) -> Vec<Row> {
    values
        .iter()
        .map(|c| {
            // perf's clocks count ns; every other event is a count.
            let u = if c.event.ends_with("-clock") { format!("ns/{unit}") } else { format!("count/{unit}") };
            let mut r = Row::plain(study, case, variant, baseline, &format!("counter:{}", c.event), c.per_item, &u);
            if let Some(b) = base.and_then(|b| b.iter().find(|x| x.event == c.event))
                && b.per_item != 0.0
            {
                r.ratio = Some(c.per_item / b.per_item);
            }
            r
        })
        .collect()
}

/// Notes for unavailable counters, one line per reason.
pub fn unavailable_notes(u: &[Unavailable]) -> Vec<String> {
    let mut by_reason: Vec<(String, Vec<String>)> = vec![];
    for x in u {
        match by_reason.iter_mut().find(|(r, _)| r == &x.reason) {
            Some((_, evs)) => {
                if !evs.contains(&x.event) {
                    evs.push(x.event.clone())
                }
            }
            None => by_reason.push((x.reason.clone(), vec![x.event.clone()])),
        }
    }
    by_reason.into_iter().map(|(r, evs)| format!("counters not available: {} — {}", evs.join(", "), r)).collect()
}

#[cfg(test)]
mod pct_tests {
    /// An interval's end that is unbounded (a TPS interval reaching 0) reads as such, not
    /// `+inf%`; a finite ratio keeps its percent.
    #[test]
    fn an_unbounded_ratio_reads_unbounded() {
        assert_eq!(super::pct(0.9278), "-7.22%");
        assert_eq!(super::pct(f64::INFINITY), "unbounded");
        assert_eq!(super::pct(1.0 / 0.0), "unbounded");
        assert_eq!(super::pct(f64::NAN), "n/a");
        assert!(!super::pct(1e300).contains("inf"));
    }
}
