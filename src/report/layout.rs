//! Code layout as a measured dimension of every wall-clock pair (`crate::host::layout` says
//! how the layouts are made): [`layout_pairs`] measures a case's pairs in every layout, one
//! fresh worker per layout and process round, pooled by [`wallclock::combine_layouts`]; and
//! `hotloops layout STUDY|ID` ([`run`]), one pair over every layout, as a table and a plot of
//! its ratio against where the kernels sat.

use crate::host::layout;
use crate::host::worker::{self, Request};
use crate::measure::wallclock::{self, LayoutTrials, PairConfig, PairTrials, Site, Verdict};
use crate::study::{self, Size, Variant};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// The layouts a report measures in, each with its binary.
pub type Layouts = Vec<(&'static layout::Layout, PathBuf)>;

/// Where each of `variants`' kernels sits in each layout's binary.
pub fn sites(layouts: &Layouts, variants: &[Variant]) -> Result<Vec<Vec<Site>>> {
    let syms: Vec<&str> = variants.iter().map(|v| v.kernel).collect();
    // Reading binaries (objdump), not timing: every core.
    crate::host::affinity::untimed_map(layouts, |(_, bin)| {
        let pl = layout::placements(bin, &syms)?;
        Ok(syms.iter().map(|s| pl.get(*s).map_or(Site::default(), |p| Site { kernel: Some(p.offset()), loop_header: p.loop_offset() })).collect())
    })
    .into_iter()
    .collect()
}

/// Every pair of one case under every layout: per process round, one fresh worker per layout
/// (in rotating order) that builds the case once and runs all the pairs, with its own heap
/// and stack offsets. Returns one pooled [`wallclock::Paired`] per pair.
#[allow(clippy::too_many_arguments)]
pub fn layout_pairs(
    layouts: &Layouts,
    sites: &[Vec<Site>],
    variants: &[Variant],
    pairs: &[(&'static Variant, &'static Variant)],
    case: &str,
    size: Size,
    cfg: &PairConfig,
    processes: usize,
    tick: &mut dyn FnMut(String),
) -> Result<Vec<super::PairReport>> {
    let idx = |v: &Variant| variants.iter().position(|w| w.id == v.id).unwrap_or(0);
    let mut per: Vec<Vec<LayoutTrials>> = pairs
        .iter()
        .map(|(a, b)| {
            layouts
                .iter()
                .enumerate()
                .map(|(li, (l, _))| LayoutTrials { layout: l.id.into(), a: sites[li][idx(a)], b: sites[li][idx(b)], processes: vec![] })
                .collect()
        })
        .collect();
    // The total budget a pair gets is split over the layouts.
    let budget = cfg.budget / layouts.len() as u32;
    let salt = case.bytes().fold(cfg.seed, |h, c| h.rotate_left(5) ^ c as u64);
    for p in 0..processes {
        for k in 0..layouts.len() {
            let li = (k + p) % layouts.len();
            let (l, bin) = &layouts[li];
            tick(format!("layout {} ({}/{}), process {}/{processes}", l.id, k + 1, layouts.len(), p + 1));
            let (heap_pad, stack_pad) = layout::process_offsets(salt, li, p);
            let req = Request::CaseTrials {
                case: case.into(),
                size: size.name().into(),
                pairs: pairs.iter().map(|(a, b)| (a.id.to_string(), b.id.to_string())).collect(),
                budget_ms: budget.as_millis().max(1) as u64,
                block_us: cfg.block.as_micros() as u64,
                // The pair's minimum shared out over its layouts, as its budget is.
                min_trials: (cfg.min_trials / layouts.len()).max(4),
                heap_pad,
                features: study::features_enabled(),
            };
            let got: Vec<PairTrials> = worker::one_shot_env(bin, &req, &[(layout::STACK_PAD_VAR, "x".repeat(stack_pad))])
                .with_context(|| format!("measuring {case} in layout {}", l.id))?;
            if got.len() != pairs.len() {
                bail!("a {} worker answered {} pairs for {}", l.id, got.len(), pairs.len());
            }
            for (i, t) in got.into_iter().enumerate() {
                per[i][li].processes.push(t);
            }
        }
    }
    Ok(pairs
        .iter()
        .zip(&per)
        .map(|((a, b), lt)| {
            let raw = lt
                .iter()
                .flat_map(|l| l.processes.iter().map(|t| super::ProcessTrials { layout: l.layout.clone(), ..super::ProcessTrials::from(t) }))
                .collect();
            super::PairReport { paired: wallclock::combine_layouts(a.id, b.id, lt, cfg.resamples, cfg.seed), per_process: raw }
        })
        .collect())
}


/// What `hotloops layout` measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LayoutReport {
    /// Provenance of the run.
    pub provenance: crate::host::provenance::Provenance,
    /// Study.
    pub study: String,
    /// Case id.
    pub case: String,
    /// Workload size.
    pub size: Size,
    /// The A/A control (baseline against itself) over the same layouts.
    pub aa: wallclock::Paired,
    /// The pair.
    pub pair: wallclock::Paired,
    /// A/A noise floor.
    pub floor: f64,
    /// The pooled verdict.
    pub verdict: Verdict,
}

/// Options of `hotloops layout`.
#[derive(Clone, Debug)]
pub struct Options {
    /// A study (its pipeline variant against its baseline) or a variant id (against its
    /// study's baseline).
    pub target: String,
    /// Case id (default: the study's first).
    pub case: Option<String>,
    /// Workload size.
    pub size: Size,
    /// Processes per layout.
    pub processes: usize,
    /// Wall-clock budget per pair, layout and process.
    pub budget: Duration,
    /// Layout ids (default: all).
    pub layouts: Vec<String>,
    /// Where to write `layout.{md,json,svg}`.
    pub out: PathBuf,
    /// Replace files in `out` that another command, or no command, wrote (`--force`).
    pub force: bool,
}

/// The pair `target` names: (study, baseline, variant).
fn pair_of(target: &str) -> Result<(&'static dyn study::Study, &'static Variant, &'static Variant)> {
    // A study means its patched variant against its baseline, whatever features this build
    // has on (its pipeline variant is the baseline in a default build).
    if let Ok(s) = study::study(target) {
        let i = s.info();
        let patched = i.variant(i.patched).map_err(anyhow::Error::from)?;
        return Ok((s, i.baseline_variant(), patched));
    }
    let (s, v) = study::variant(target).map_err(|e| {
        let mut e = e;
        e.kind = "study or variant";
        e.valid = study::STUDIES.iter().map(|s| s.info().name.to_string()).chain(study::STUDIES.iter().flat_map(|s| s.info().variants.iter().map(|v| v.id.to_string()))).collect();
        e
    })?;
    let base = s.info().baseline_variant();
    if v.id == base.id {
        bail!(crate::study::UnknownName { kind: "variant other than the baseline", given: target.into(), valid: s.info().variants.iter().filter(|w| w.id != base.id).map(|w| w.id.to_string()).collect() });
    }
    Ok((s, base, v))
}

/// Measure one pair over the layouts and write `layout.md`, `layout.json` and `layout.svg`.
pub fn run(opts: &Options) -> Result<(LayoutReport, String, Vec<PathBuf>)> {
    let (s, a, b) = pair_of(&opts.target)?;
    let info = s.info();
    let case = match &opts.case {
        Some(c) => info.case(c)?.id,
        None => info.cases.first().context("a study without cases")?.id,
    };
    let ids: Vec<String> = if opts.layouts.is_empty() { layout::FULL.iter().map(|s| s.to_string()).collect() } else { opts.layouts.clone() };
    check_ids(&ids)?;
    // As a report: one run at a time per output directory (claimed before any work) and per
    // pinned core, and Ctrl-C stops the workers.
    let names = ["layout.md", "layout.json", "layout.svg"];
    let mut dir = crate::host::outdir::OutDir::claim(&opts.out, crate::host::outdir::Claim::new("layout", names).force(opts.force))?;
    let pinned = crate::measure::pin_current_thread();
    let _core_lock = match pinned {
        Some(core) => Some(crate::host::lock::acquire(&crate::host::lock::core_lock_path(core), &format!("core {core} (where hotloops pins its measuring thread)"))?),
        None => None,
    };
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let layouts = layout::ensure(&worker::exe()?, &refs, &study::features_enabled())?;
    let st = sites(&layouts, info.variants)?;
    let mut cfg = if opts.size == Size::Full { PairConfig::full() } else { PairConfig::quick() };
    // layout_pairs splits the budget over the layouts; here it is per layout.
    cfg.budget = opts.budget * layouts.len() as u32;
    let mut got = layout_pairs(&layouts, &st, info.variants, &[(a, a), (a, b)], case, opts.size, &cfg, opts.processes, &mut |m| crate::say!("hotloops layout: {m}"))?;
    let pair = got.pop().expect("two pairs").paired;
    let aa = got.pop().expect("two pairs").paired;
    let floor = wallclock::noise_floor(&aa);
    let verdict = wallclock::verdict(&pair, floor);
    let rep = LayoutReport {
        provenance: crate::host::provenance::collect(pinned, study::features_enabled()),
        study: info.name.into(),
        case: case.into(),
        size: opts.size,
        aa,
        pair,
        floor,
        verdict,
    };
    let md = markdown(&rep);
    let svg = svg(&rep)?;
    let files = vec![
        (opts.out.join(names[0]), md.clone().into_bytes()),
        (opts.out.join(names[1]), serde_json::to_vec_pretty(&rep)?),
        (opts.out.join(names[2]), svg.into_bytes()),
    ];
    dir.replace(&files)?;
    Ok((rep, md, files.into_iter().map(|(p, _)| p).collect()))
}

/// Every id a layout's, or an [`UnknownName`](crate::study::UnknownName) listing the valid ones.
pub fn check_ids(ids: &[String]) -> Result<(), crate::study::UnknownName> {
    for id in ids {
        if layout::layout(id).is_err() {
            return Err(crate::study::UnknownName { kind: "layout", given: id.clone(), valid: layout::LAYOUTS.iter().map(|l| l.id.to_string()).collect() });
        }
    }
    Ok(())
}

fn ci(lo: f64, hi: f64) -> String {
    format!("[{lo:.3}, {hi:.3}]")
}

/// The per-layout table of one pair (and its A/A), as `report.md` and `hotloops layout` show it.
pub fn layout_table(pair: &wallclock::Paired, aa: Option<&wallclock::Paired>) -> String {
    use super::table::{Align, Table};
    let mut t = Table::new([
        ("layout", Align::Left),
        ("baseline at", Align::Left),
        ("variant at", Align::Left),
        ("ratio", Align::Right),
        ("95% interval", Align::Left),
        ("A/A", Align::Right),
        ("trials", Align::Right),
    ]);
    for l in &pair.layouts {
        let aa_l = aa.and_then(|x| x.layouts.iter().find(|m| m.layout == l.layout)).map_or(String::new(), |m| format!("{:.3}", m.median_ratio));
        t.row([l.layout.clone(), l.a.to_string(), l.b.to_string(), format!("{:.3}", l.median_ratio), ci(l.ci_low, l.ci_high), aa_l, l.trials.to_string()]);
    }
    t.row([
        "pooled".to_string(),
        String::new(),
        String::new(),
        format!("{:.3}", pair.median_ratio),
        ci(pair.ci_low, pair.ci_high),
        aa.map_or(String::new(), |x| format!("{:.3}", x.median_ratio)),
        pair.trials.to_string(),
    ]);
    t.render()
}

/// A report case's ratios per code layout: variants down (A/A first), layouts across, each
/// cell the layout's median ratio and where the variant's kernel and loop header sat; empty
/// when the case was measured in one layout.
pub fn case_block(case: &super::CaseReport) -> String {
    let pairs: Vec<&wallclock::Paired> = std::iter::once(&case.aa.paired).chain(case.pairs.iter().map(|p| &p.paired)).collect();
    use super::table::{Align, Table};
    if case.aa.layouts.len() < 2 {
        return String::new();
    }
    let ids: Vec<&str> = case.aa.layouts.iter().map(|l| l.layout.as_str()).collect();
    let mut t = Table::new([("ratio by code layout", Align::Left)]);
    for id in &ids {
        t.column(*id, Align::Right);
    }
    t.column("spread", Align::Right);
    for p in pairs {
        let name = if p.variant == p.baseline { format!("`{}` (A/A)", p.variant) } else { format!("`{}`", p.variant) };
        let meds: Vec<f64> = p.layouts.iter().map(|l| l.median_ratio).collect();
        let spread = meds.iter().copied().fold(f64::NEG_INFINITY, f64::max) - meds.iter().copied().fold(f64::INFINITY, f64::min);
        let cells = ids.iter().map(|id| p.layouts.iter().find(|l| l.layout == *id).map_or("n/a".to_string(), |l| format!("{:.3} {}", l.median_ratio, l.b)));
        t.row(std::iter::once(name).chain(cells).chain(std::iter::once(format!("{:.1}%", spread * 100.0))));
    }
    format!(
        "Per code layout (`@K loop@L`: the variant's kernel and its innermost loop header, mod 64; a verdict is resolved only if the \
         layouts agree):\n\n{}\n",
        t.render()
    )
}

/// `layout.md`.
pub fn markdown(r: &LayoutReport) -> String {
    let p = &r.provenance;
    let spread = r.pair.layouts.iter().map(|l| l.median_ratio).fold(f64::NEG_INFINITY, f64::max)
        - r.pair.layouts.iter().map(|l| l.median_ratio).fold(f64::INFINITY, f64::min);
    format!(
        "# {} against {} over code layouts ({}/{}, {} size)\n\n\
         Ratio variant/baseline of time per item (< 1: the variant is faster). `@K loop@L`: the kernel's first byte and its innermost \
         loop's header, mod 64. `natural` is the `hotloops` binary; `at-K` binaries put every kernel at K mod 64.\n\n{}\n\
         **Verdict: {}.** Layout spread {:.1}% (max - min of the layouts' ratios) against an effect of {:+.1}% and an A/A floor of ±{:.1}%.\n\n\
         Interval: {}.\n\nHost: {} ({}), {}; commit {}{}.\n",
        r.pair.variant,
        r.pair.baseline,
        r.study,
        r.case,
        r.size.name(),
        layout_table(&r.pair, Some(&r.aa)),
        r.verdict,
        spread * 100.0,
        (r.pair.median_ratio - 1.0) * 100.0,
        r.floor * 100.0,
        r.pair.interval,
        p.cpu_name,
        p.microarch,
        p.kernel,
        p.commit,
        if p.dirty { " (dirty)" } else { "" },
    )
}

fn svg(r: &LayoutReport) -> Result<String> {
    use super::plot::{Panel, RatioPoint};
    let apart = |lo: f64, hi: f64| hi < 1.0 - r.floor || lo > 1.0 + r.floor;
    let mut points = vec![];
    for l in &r.pair.layouts {
        if let Some(a) = r.aa.layouts.iter().find(|m| m.layout == l.layout) {
            points.push(RatioPoint { label: format!("{} A/A", l.layout), ratio: a.median_ratio, lo: a.ci_low, hi: a.ci_high, control: true, resolved: false, seed: None, layouts: vec![] });
        }
        let resolved = apart(l.ci_low, l.ci_high);
        points.push(RatioPoint { label: format!("{} {}", l.layout, l.b), ratio: l.median_ratio, lo: l.ci_low, hi: l.ci_high, control: false, resolved, seed: None, layouts: vec![] });
    }
    let resolved = matches!(r.verdict, Verdict::Faster | Verdict::Slower);
    points.push(RatioPoint { label: "pooled".into(), ratio: r.pair.median_ratio, lo: r.pair.ci_low, hi: r.pair.ci_high, control: false, resolved, seed: None, layouts: vec![] });
    let panel = Panel { title: format!("{}: {}", r.case, r.verdict), points, floor: Some(r.floor) };
    super::plot::ratio_svg(&format!("{} / {} by code layout", r.pair.variant, r.pair.baseline), &[panel])
}
