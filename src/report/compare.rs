//! `hotloops compare FILE.json...`: reports from several hosts (Zen 3 beside Sapphire
//! Rapids) merged into one Markdown table and one SVG per study, each report under a label
//! that tells it apart (`--label`, else host and microarchitecture, else its directory) and
//! with the size it ran at; and `compare --baseline OLD.json NEW.json`, the same host before
//! and after a change: per pair, the ratio of the two time ratios with a bootstrap interval
//! from both reports' raw trials.

use super::plot::{Panel, RatioPoint, ratio_svg};
use super::table::{Align, Table};
use super::{CaseReport, PairReport, Report, Row, load, pct};
use crate::measure::stats::{median, percentile_sorted};
use anyhow::{Context, Result, bail};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A loaded report and the label its column gets.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// Column label.
    pub label: String,
    /// The file it came from.
    pub path: PathBuf,
    /// The report.
    pub report: Report,
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

/// Load every file (naming a bad one), refusing the same file twice, and label each: the
/// `labels` given in file order, else host and microarchitecture, made unique with the
/// file's directory (every VM is called `vm`), else a number.
pub fn load_labelled(files: &[PathBuf], labels: &[String]) -> Result<Vec<Labelled>> {
    if labels.len() > files.len() {
        bail!("{} --label values for {} report files: give at most one label per file, in file order", labels.len(), files.len());
    }
    let mut seen: Vec<(PathBuf, &Path)> = Vec::new();
    for f in files {
        let canon = std::fs::canonicalize(f).with_context(|| format!("{}: cannot read", f.display()))?;
        if let Some((_, first)) = seen.iter().find(|(c, _)| c == &canon) {
            bail!("the same report twice: {} and {}; compare takes different reports", first.display(), f.display());
        }
        seen.push((canon, f));
    }
    let reports: Vec<Report> = files.iter().map(|f| load(f)).collect::<Result<_>>()?;
    for (i, a) in reports.iter().enumerate() {
        if let Some(j) = reports[..i].iter().position(|b| b == a) {
            bail!("{} and {} hold the same report (a copy); compare takes different reports", files[j].display(), files[i].display());
        }
    }
    let dir = |f: &Path| f.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
    let mut out: Vec<Labelled> = Vec::new();
    for (i, (f, r)) in files.iter().zip(reports).enumerate() {
        let default = format!("{} {}", r.provenance.host, r.provenance.microarch);
        out.push(Labelled { label: labels.get(i).cloned().unwrap_or(default), path: f.clone(), report: r });
    }
    let dup = |out: &[Labelled], i: usize| out.iter().enumerate().any(|(j, o)| j != i && o.label == out[i].label);
    for i in 0..out.len() {
        if i >= labels.len() && dup(&out, i) {
            if let Some(d) = dir(&out[i].path) {
                out[i].label = format!("{} ({d})", out[i].label);
            }
        }
    }
    for i in 0..out.len() {
        if dup(&out, i) {
            out[i].label = format!("{} #{}", out[i].label, i + 1);
        }
    }
    Ok(out)
}

/// Load every file and build the comparison's Markdown and SVGs.
pub fn compare(files: &[PathBuf], labels: &[String]) -> Result<(String, Vec<(String, String)>)> {
    Ok(build(&load_labelled(files, labels)?))
}

/// Who ran what: a row per report, and a line when the sizes differ.
fn hosts(reports: &[Labelled]) -> String {
    let mut t = Table::new([
        ("label", Align::Left),
        ("file", Align::Left),
        ("host", Align::Left),
        ("CPU", Align::Left),
        ("kernel", Align::Left),
        ("commit", Align::Left),
        ("size", Align::Left),
        ("run", Align::Left),
        ("date", Align::Left),
    ]);
    for l in reports {
        let (p, c) = (&l.report.provenance, &l.report.config);
        t.row([
            l.label.clone(),
            l.path.display().to_string(),
            p.host.clone(),
            format!("{} ({} family {:#x} model {:#x}, {}{})", p.cpu_name, p.cpu_vendor, p.cpu_family, p.cpu_model, p.microarch, if p.hypervisor { ", VM" } else { "" }),
            p.kernel.clone(),
            format!("{}{}", &p.commit[..p.commit.len().min(12)], if p.dirty { "+dirty" } else { "" }),
            format!("{} size", c.size.name()),
            format!("{} process(es) x {} layout(s), {} ms a pair", c.processes, c.layouts.len().max(1), c.budget_ms),
            p.date.clone(),
        ]);
    }
    let mut md = t.render();
    let sizes: BTreeSet<&str> = reports.iter().map(|l| l.report.config.size.name()).collect();
    if sizes.len() > 1 {
        let _ = write!(
            md,
            "\n**The reports ran at different sizes** ({}): the same case ids, but not the same workload; compare a size with itself \
             before reading a difference as the host's.\n",
            sizes.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    md
}

/// The comparison of labelled reports: (markdown, [(study, svg)]).
pub fn build(reports: &[Labelled]) -> (String, Vec<(String, String)>) {
    let mut md = format!("# hotloops: hosts compared\n\n{}", hosts(reports));
    let studies: BTreeSet<String> = reports.iter().flat_map(|r| r.report.studies.iter().map(|s| s.name.clone())).collect();
    let mut svgs = Vec::new();
    for s in &studies {
        let _ = writeln!(md, "\n## {s}\n\ntime: variant vs baseline, median [95% interval], verdict; instructions per item; key counters (x the baseline).\n");
        let mut t = Table::new([("case", Align::Left), ("variant", Align::Left)]);
        for l in reports {
            t.column(l.label.clone(), Align::Left);
        }
        let mut keys: Vec<(String, String)> = Vec::new();
        for l in reports {
            for row in l.report.rows.iter().filter(|x| &x.study == s && x.metric == "wall-clock" && x.variant != x.baseline) {
                let k = (row.case.clone(), row.variant.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let mut panels: Vec<Panel> = Vec::new();
        for (case, variant) in &keys {
            let mut cells = vec![case.clone(), format!("`{variant}`")];
            for l in reports {
                let find = |m: &str| -> Option<&Row> { l.report.rows.iter().find(|x| &x.study == s && &x.case == case && &x.variant == variant && x.metric == m) };
                let mut cell = match find("wall-clock") {
                    Some(w) => {
                        let (rt, lo, hi) = (w.ratio.unwrap_or(f64::NAN), w.ci_low.unwrap_or(f64::NAN), w.ci_high.unwrap_or(f64::NAN));
                        let resolved = w.verdict.is_some_and(|v| v != crate::measure::wallclock::Verdict::NotResolved);
                        let point = RatioPoint { label: format!("{}@{}", super::short(variant), l.label), ratio: rt, lo, hi, control: false, resolved, seed: w.seed_ratio, layouts: vec![] };
                        match panels.iter_mut().find(|p| &p.title == case) {
                            Some(p) => p.points.push(point),
                            None => panels.push(Panel { title: case.clone(), points: vec![point], floor: None }),
                        }
                        format!("{} [{}, {}] {}", pct(rt), pct(lo), pct(hi), w.verdict.map(|v| v.to_string()).unwrap_or_default())
                    }
                    None => "not measured".into(),
                };
                if let Some(i) = find("instructions") {
                    let _ = write!(cell, "; {} {}", super::fmt_num(i.value), i.unit);
                }
                for k in KEY_COUNTERS {
                    if let Some(c) = find(k) {
                        let _ = write!(cell, "; {} {}{}", k.trim_start_matches("counter:"), super::fmt_num(c.value), c.ratio.map(|x| format!(" (x{x:.3})")).unwrap_or_default());
                    }
                }
                cells.push(cell);
            }
            t.row(cells);
        }
        md.push_str(&t.render());
        if let Ok(svg) = ratio_svg(&format!("{s}: time vs baseline per host (median, 95% CI)"), &panels) {
            svgs.push((s.clone(), svg));
        }
    }
    (md, svgs)
}

/// One pair before and after: the ratio of its time ratios.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Study.
    pub study: String,
    /// Case.
    pub case: String,
    /// Variant id.
    pub variant: String,
    /// Median time ratio (variant / baseline) in the old report.
    pub before: f64,
    /// In the new report.
    pub after: f64,
    /// after / before, from the medians of the pooled raw trials.
    pub ratio: f64,
    /// 95% interval of `ratio`.
    pub ci: (f64, f64),
    /// The larger of the two reports' A/A floors for the case.
    pub floor: f64,
    /// `faster`, `slower` (the new against the old) or `not resolved`.
    pub verdict: String,
}

/// Bootstrap resamples of a ratio of ratios.
const RESAMPLES: usize = 2000;

/// One resample of a pair's median ratio, as the report pooled it: code layouts with
/// replacement (when its processes ran in several), then processes within each, then trials
/// within each process (one process is a plain trial bootstrap).
fn resample_median(p: &PairReport, rng: &mut Pcg64Mcg, pool: &mut Vec<f64>) -> f64 {
    let mut names: Vec<&str> = vec![];
    let mut groups: Vec<Vec<&[f64]>> = vec![];
    for t in &p.per_process {
        match names.iter().position(|n| *n == t.layout) {
            Some(i) => groups[i].push(&t.ratios),
            None => {
                names.push(&t.layout);
                groups.push(vec![&t.ratios]);
            }
        }
    }
    crate::measure::stats::nested_resample_median(&groups, rng, pool)
}

/// The ratio of two pairs' median ratios (new / old) with its percentile bootstrap interval.
pub fn ratio_of_ratios(old: &PairReport, new: &PairReport, seed: u64) -> (f64, (f64, f64)) {
    let all = |p: &PairReport| p.per_process.iter().flat_map(|t| t.ratios.iter().copied()).collect::<Vec<f64>>();
    let point = median(&all(new)) / median(&all(old));
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pool = Vec::new();
    let mut rs: Vec<f64> = (0..RESAMPLES).map(|_| resample_median(new, &mut rng, &mut pool) / resample_median(old, &mut rng, &mut pool)).collect();
    rs.sort_by(|a, b| a.total_cmp(b));
    (point, (percentile_sorted(&rs, 0.025), percentile_sorted(&rs, 0.975)))
}

/// Every pair in both reports, new against old. Refuses reports of different hosts or sizes,
/// and a report without raw trials (schema version 1).
pub fn changes(old: &Labelled, new: &Labelled) -> Result<Vec<Change>> {
    let (po, pn) = (&old.report.provenance, &new.report.provenance);
    let host = |p: &crate::host::provenance::Provenance| format!("{} ({}, family {:#x} model {:#x}) on {}", p.cpu_name, p.microarch, p.cpu_family, p.cpu_model, p.host);
    if host(po) != host(pn) {
        bail!(
            "--baseline compares one host with itself: {} ran on {}, {} on {}; to set hosts side by side, leave out --baseline",
            old.path.display(), host(po), new.path.display(), host(pn)
        );
    }
    if old.report.config.size != new.report.config.size {
        bail!("--baseline needs the same size: {} ran at {} size, {} at {} size", old.path.display(), old.report.config.size, new.path.display(), new.report.config.size);
    }
    let mut out = Vec::new();
    let mut seed = 0x5eed_u64;
    for sn in &new.report.studies {
        let Some(so) = old.report.studies.iter().find(|s| s.name == sn.name) else { continue };
        for cn in &sn.cases {
            let Some(co) = so.cases.iter().find(|c| c.name == cn.name) else { continue };
            for pn in &cn.pairs {
                let Some(po) = co.pairs.iter().find(|p| p.variant == pn.variant) else { continue };
                for (l, p) in [(old, po), (new, pn)] {
                    if p.per_process.is_empty() {
                        bail!("{} has no raw trials (a schema version 1 report); re-run it with this hotloops to use it in --baseline", l.path.display());
                    }
                }
                seed += 1;
                out.push(change(&sn.name, co, cn, po, pn, seed));
            }
        }
    }
    if out.is_empty() {
        bail!("{} and {} have no (study, case, variant) in common", old.path.display(), new.path.display());
    }
    Ok(out)
}

fn change(study: &str, co: &CaseReport, cn: &CaseReport, po: &PairReport, pn: &PairReport, seed: u64) -> Change {
    let (ratio, ci) = ratio_of_ratios(po, pn, seed);
    let floor = co.noise_floor.max(cn.noise_floor);
    let resolved = !(ci.0 <= 1.0 && 1.0 <= ci.1) && (ratio - 1.0).abs() > floor;
    let verdict = if !resolved { "not resolved" } else if ratio < 1.0 { "faster" } else { "slower" };
    Change {
        study: study.into(),
        case: cn.name.clone(),
        variant: pn.variant.clone(),
        before: po.median_ratio,
        after: pn.median_ratio,
        ratio,
        ci,
        floor,
        verdict: verdict.into(),
    }
}

/// `compare --baseline OLD NEW`: the Markdown of every pair's change.
pub fn baseline(old: &Labelled, new: &Labelled) -> Result<String> {
    let cs = changes(old, new)?;
    let mut md = format!(
        "# hotloops: {} against the baseline {}\n\n{}\nchange: the new time ratio (variant / baseline) over the old one, medians of the pooled raw trials, \
         with a 95% percentile bootstrap interval (each report's processes, then trials, resampled); resolved when the interval \
         excludes 0 and the change exceeds the larger A/A floor. Negative: the variant gained on its baseline.\n",
        new.label,
        old.label,
        hosts(&[old.clone(), new.clone()])
    );
    let studies: Vec<&str> = {
        let mut seen = BTreeSet::new();
        cs.iter().map(|c| c.study.as_str()).filter(|s| seen.insert(*s)).collect()
    };
    for s in studies {
        let _ = writeln!(md, "\n## {s}\n");
        let mut t = Table::new([
            ("case", Align::Left),
            ("variant", Align::Left),
            ("before", Align::Right),
            ("after", Align::Right),
            ("change", Align::Right),
            ("95% interval", Align::Right),
            ("verdict", Align::Left),
            ("A/A floor", Align::Right),
        ]);
        for c in cs.iter().filter(|c| c.study == s) {
            t.row([
                c.case.clone(),
                super::short(&c.variant).to_string(),
                pct(c.before),
                pct(c.after),
                pct(c.ratio),
                format!("[{}, {}]", pct(c.ci.0), pct(c.ci.1)),
                c.verdict.clone(),
                format!("±{:.2}%", c.floor * 100.0),
            ]);
        }
        md.push_str(&t.render());
    }
    Ok(md)
}

/// Write the comparison of `inputs` (the reports read, never replaced or removed) into `out`
/// (claimed: locked, with a manifest, all or none): `compare.md` and `compare-<study>.svg`;
/// `force`: replace files of those names that another command, or no command, wrote.
pub fn write(out: &Path, md: &str, svgs: &[(String, String)], inputs: &[PathBuf], force: bool) -> Result<Vec<PathBuf>> {
    let mut files = vec![(out.join("compare.md"), md.as_bytes().to_vec())];
    for (s, svg) in svgs {
        files.push((out.join(format!("compare-{s}.svg")), svg.as_bytes().to_vec()));
    }
    let names: Vec<String> = files.iter().filter_map(|(p, _)| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
    let mut dir = crate::host::outdir::OutDir::claim(out, crate::host::outdir::Claim::new("compare", names).inputs(inputs.iter().cloned()).force(force))?;
    dir.replace(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::wallclock::Paired;

    fn pair(ratios: &[&[f64]]) -> PairReport {
        let all: Vec<f64> = ratios.iter().flat_map(|r| r.iter().copied()).collect();
        let m = median(&all);
        PairReport {
            paired: Paired {
                baseline: "s/a".into(),
                variant: "s/b".into(),
                processes: ratios.len(),
                trials: all.len(),
                reps_per_block: 1,
                baseline_ns_per_item: 1.0,
                variant_ns_per_item: m,
                median_ratio: m,
                ci_low: m,
                ci_high: m,
                process_medians: ratios.iter().map(|r| median(r)).collect(),
                interval: "test".into(),
                layouts: vec![],
                usage: vec![],
            },
            per_process: ratios.iter().map(|r| super::super::ProcessTrials { layout: String::new(), ratios: r.to_vec(), reps_per_block: 1 }).collect(),
        }
    }

    #[test]
    fn the_ratio_of_ratios_comes_from_the_raw_trials() {
        let old = pair(&[&[0.98, 1.0, 1.02, 0.99, 1.01], &[1.0, 1.01, 0.99, 1.0, 1.0]]);
        let new = pair(&[&[0.88, 0.9, 0.92, 0.89, 0.91], &[0.9, 0.91, 0.89, 0.9, 0.9]]);
        let (r, (lo, hi)) = ratio_of_ratios(&old, &new, 1);
        assert!((r - 0.9).abs() < 1e-9, "{r}");
        assert!(lo < r && r < hi && hi < 1.0, "a 10% gain with 1% noise is resolved: [{lo}, {hi}]");
        // The same trials both sides: no change, an interval around 1.
        let (r, (lo, hi)) = ratio_of_ratios(&old, &old.clone(), 2);
        assert!((r - 1.0).abs() < 1e-12 && lo < 1.0 && 1.0 < hi, "{r} [{lo}, {hi}]");
        // Noise as large as the effect: the interval is wide and includes 1.
        let noisy = pair(&[&[0.6, 1.3, 0.9, 1.2, 0.7], &[0.8, 1.1, 0.95, 1.25, 0.65]]);
        let (_, (lo, hi)) = ratio_of_ratios(&old, &noisy, 3);
        assert!(lo < 1.0 && 1.0 < hi, "[{lo}, {hi}]");
    }
}
