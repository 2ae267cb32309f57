//! Report files: JSON (versioned schema), Markdown and SVG, written atomically, each with its
//! provenance; [`compare`], which sets reports from several hosts side by side; [`sweep`],
//! a measurement over a parameter with one fresh process a point. Markdown tables come from
//! [`table`], plots from [`plot`].

pub mod compare;
pub mod matrix;
pub mod plot;
pub mod run;
pub mod sweep;
pub mod table;

use crate::measure::counters::Unavailable;
use crate::measure::wallclock::{Paired, Verdict};
use anyhow::{Context, Result};
use crate::host::provenance::Provenance;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The JSON schema's name.
pub const SCHEMA: &str = "hotloops-report";
/// The JSON schema's version; `compare` refuses others.
pub const SCHEMA_VERSION: u32 = 1;

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
}

/// The run's settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunConfig {
    /// `--quick`.
    pub quick: bool,
    /// Workload size of the wall-clock and counter runs.
    pub size: crate::study::Size,
    /// Workload size the instruction counts ran on.
    pub instructions_size: crate::study::Size,
    /// Processes pooled per wall-clock pair.
    pub processes: usize,
    /// Wall-clock budget per pair and process, ms.
    pub budget_ms: u64,
    /// Seconds the report took.
    pub elapsed_s: f64,
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
    pub aa: Paired,
    /// The A/A noise floor (relative).
    pub noise_floor: f64,
    /// Each variant against the baseline.
    pub pairs: Vec<Paired>,
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
            unit: unit.into(),
            ratio: None,
            ci_low: None,
            ci_high: None,
            verdict: None,
            seed_ratio: None,
        }
    }
}

fn pct(r: f64) -> String {
    format!("{:+.2}%", (r - 1.0) * 100.0)
}

/// The report as Markdown (also what the terminal shows).
pub fn markdown(r: &Report) -> String {
    use std::fmt::Write as _;
    use table::{Align, Table};
    let p = &r.provenance;
    let c = &r.config;
    let mut m = String::new();
    let _ = writeln!(m, "# hotloops report\n");
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
            "{} size, {} process(es) x {} ms a pair, instructions at {} size, {:.0} s in all",
            c.size.name(),
            c.processes,
            c.budget_ms,
            c.instructions_size.name(),
            c.elapsed_s
        ),
    ]);
    for row in matrix::provenance_rows(&c.c_configs) {
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
            let metrics: Vec<String> = {
                let mut seen = std::collections::BTreeSet::new();
                let mut v: Vec<String> = rows.iter().filter(|x| !x.metric.starts_with("wall-clock")).map(|x| x.metric.clone()).collect();
                v.retain(|x| seen.insert(x.clone()));
                // Columns that are zero for every variant (context switches on a quiet run)
                // say nothing here; the JSON keeps them.
                v.retain(|k| rows.iter().any(|x| &x.metric == k && x.value != 0.0));
                v
            };
            let mut t = Table::new([
                ("variant".to_string(), Align::Left),
                (format!("ns/{}", s.unit), Align::Right),
                ("time vs baseline [95% CI]".to_string(), Align::Right),
                ("verdict".to_string(), Align::Left),
                ("seed".to_string(), Align::Right),
            ]);
            for k in &metrics {
                let unit = rows.iter().find(|x| &x.metric == k).map(|x| x.unit.clone()).unwrap_or_default();
                t.column(format!("{k} ({unit})"), Align::Right);
            }
            let mut variants: Vec<String> = rows.iter().map(|x| x.variant.clone()).collect();
            let mut seen = std::collections::BTreeSet::new();
            variants.retain(|x| seen.insert(x.clone()));
            for v in variants {
                let wall = rows.iter().find(|x| x.variant == v && x.metric == "wall-clock");
                let (ns, ratio, verdict, seed) = match wall {
                    Some(w) => (
                        format!("{:.3}", w.value),
                        match (w.ratio, w.ci_low, w.ci_high) {
                            (Some(r), Some(l), Some(h)) => format!("{:.4} [{:.4}, {:.4}] ({})", r, l, h, pct(r)),
                            _ => "baseline".into(),
                        },
                        w.verdict.map(|v| v.to_string()).unwrap_or_default(),
                        w.seed_ratio.map(|x| format!("{x:.3}")).unwrap_or_default(),
                    ),
                    None => Default::default(),
                };
                let cells = metrics.iter().map(|k| {
                    rows.iter()
                        .find(|x| x.variant == v && &x.metric == k)
                        .map(|x| match x.ratio {
                            Some(r) if x.variant != x.baseline => format!("{} ({})", fmt_num(x.value), pct(r)),
                            _ => fmt_num(x.value),
                        })
                        .unwrap_or_else(|| "n/a".into())
                });
                t.row([format!("`{v}`"), ns, ratio, verdict, seed].into_iter().chain(cells));
            }
            let _ = writeln!(m, "{}", t.render());
        }
        m.push_str(&matrix::markdown(r, s));
        if !s.static_model.is_empty() {
            let _ = writeln!(m, "### {} / static core model

{}", s.name, s.static_model.trim_start_matches('\n').replacen("## ", "", 1));
        }
    }
    m
}

fn fmt_num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else if x.abs() >= 1.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.4}")
    }
}

/// Parse a report file, naming the file and the problem when it is not a report of this
/// schema version.
pub fn load(path: &Path) -> Result<Report> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))?;
    match v.get("schema").and_then(|s| s.as_str()) {
        Some(SCHEMA) => {}
        _ => anyhow::bail!("{}: not a hotloops report (no \"schema\": \"{SCHEMA}\")", path.display()),
    }
    match v.get("schema_version").and_then(|s| s.as_u64()) {
        Some(x) if x == SCHEMA_VERSION as u64 => {}
        Some(x) => anyhow::bail!("{}: schema version {x}, this hotloops reads version {SCHEMA_VERSION}; re-run the report with this version", path.display()),
        None => anyhow::bail!("{}: no schema_version", path.display()),
    }
    serde_json::from_value(v).with_context(|| format!("{}: malformed report", path.display()))
}

/// Rows for the counters of one variant.
pub(crate) fn counter_rows(study: &str, case: &str, variant: &str, baseline: &str, unit: &str, values: &[crate::measure::counters::CounterValue], base: Option<&[crate::measure::counters::CounterValue]>) -> Vec<Row> {
    values
        .iter()
        .map(|c| {
            let mut r = Row::plain(study, case, variant, baseline, &format!("counter:{}", c.event), c.per_item, &format!("{}/{unit}", c.event));
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
pub(crate) fn unavailable_notes(u: &[Unavailable]) -> Vec<String> {
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
