//! `hotloops compare FILE.json...`: reports from several hosts (Zen 3 beside Sapphire
//! Rapids) merged into one Markdown table and one SVG per study.

use super::plot::{Panel, RatioPoint, ratio_svg};
use super::{Report, Row, load};
use anyhow::Result;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A report's column label in the comparison: CPU, microarchitecture, host name and the
/// workload size it ran at (case ids are the same at every size, so a quick and a full report
/// line up row by row; the label says which is which).
pub fn host_label(r: &Report) -> String {
    format!("{} [{}] @{}, {} size", r.provenance.cpu_name, r.provenance.microarch, r.provenance.host, r.config.size)
}

/// Counters worth a column, in this order, where a host has them.
const KEY_COUNTERS: &[&str] = &[
    "counter:cycles",
    "counter:ls_not_halted_cyc",
    "counter:MEM_INST_RETIRED.ALL_LOADS",
    "counter:MEM_INST_RETIRED.ALL_STORES",
    "counter:LD_BLOCKS.STORE_FORWARD",
    "counter:ls_stlf",
    "counter:ls_dispatch.ld",
    "counter:ls_dispatch.st",
];

/// Load every file (naming a bad one) and build the comparison's Markdown and SVGs.
pub fn compare(files: &[PathBuf]) -> Result<(String, Vec<(String, String)>)> {
    let reports: Vec<Report> = files.iter().map(|f| load(f)).collect::<Result<_>>()?;
    Ok(build(&reports))
}

/// The comparison of loaded reports: (markdown, [(study, svg)]).
pub fn build(reports: &[Report]) -> (String, Vec<(String, String)>) {
    let mut md = String::from("# hotloops: hosts compared\n\n| host | CPU | kernel | rustc | commit | features | date |\n|---|---|---|---|---|---|---|\n");
    for r in reports {
        let p = &r.provenance;
        let _ = writeln!(
            md,
            "| {} | {} ({} fam {:#x} model {:#x}) | {} | {} | {}{} | {} | {} |",
            p.host, p.cpu_name, p.cpu_vendor, p.cpu_family, p.cpu_model, p.kernel, p.rustc, &p.commit[..p.commit.len().min(12)],
            if p.dirty { "+dirty" } else { "" },
            if p.features.is_empty() { "none".into() } else { p.features.join(",") }, p.date
        );
    }
    let studies: BTreeSet<String> = reports.iter().flat_map(|r| r.studies.iter().map(|s| s.name.clone())).collect();
    let mut svgs = Vec::new();
    for s in &studies {
        let _ = writeln!(md, "\n## {s}\n");
        let _ = write!(md, "| case | variant |");
        for r in reports {
            let _ = write!(md, " {} |", host_label(r));
        }
        let _ = writeln!(md, "\n|---|---|{}", "---|".repeat(reports.len()));
        let mut keys: Vec<(String, String)> = Vec::new();
        for r in reports {
            for row in r.rows.iter().filter(|x| &x.study == s && x.metric == "wall-clock" && x.variant != x.baseline) {
                let k = (row.case.clone(), row.variant.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let mut panels: Vec<Panel> = Vec::new();
        for (case, variant) in &keys {
            let _ = write!(md, "| {case} | `{variant}` |");
            for r in reports {
                let find = |m: &str| -> Option<&Row> { r.rows.iter().find(|x| &x.study == s && &x.case == case && &x.variant == variant && x.metric == m) };
                let mut cell = match find("wall-clock") {
                    Some(w) => {
                        let (rt, l, h) = (w.ratio.unwrap_or(f64::NAN), w.ci_low.unwrap_or(f64::NAN), w.ci_high.unwrap_or(f64::NAN));
                        let point = RatioPoint { label: format!("{}@{}", variant.rsplit('/').next().unwrap_or(variant), r.provenance.host), ratio: rt, lo: l, hi: h, control: false };
                        match panels.iter_mut().find(|p| &p.0 == case) {
                            Some(p) => p.1.push(point),
                            None => panels.push((case.clone(), vec![point])),
                        }
                        format!("time {rt:.4} [{l:.4}, {h:.4}] {}", w.verdict.map(|v| v.to_string()).unwrap_or_default())
                    }
                    None => "not measured".into(),
                };
                if let Some(i) = find("instructions") {
                    let _ = write!(cell, "; instr {:.2}/{}", i.value, i.unit.rsplit('/').next().unwrap_or(""));
                }
                for k in KEY_COUNTERS {
                    if let Some(c) = find(k) {
                        let _ = write!(cell, "; {} {:.3}{}", k.trim_start_matches("counter:"), c.value, c.ratio.map(|x| format!(" (x{x:.3})")).unwrap_or_default());
                    }
                }
                let _ = write!(md, " {cell} |");
            }
            let _ = writeln!(md);
        }
        if let Ok(svg) = ratio_svg(&format!("{s}: time vs baseline per host (median, 95% CI)"), &panels) {
            svgs.push((s.clone(), svg));
        }
    }
    (md, svgs)
}

/// Write the comparison into `out`: `compare.md` and `compare-<study>.svg`.
pub fn write(out: &Path, md: &str, svgs: &[(String, String)]) -> Result<Vec<PathBuf>> {
    let mut files = vec![(out.join("compare.md"), md.as_bytes().to_vec())];
    for (s, svg) in svgs {
        files.push((out.join(format!("compare-{s}.svg")), svg.as_bytes().to_vec()));
    }
    crate::host::write_all_atomic(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}
