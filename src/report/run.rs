//! `hotloops report`: every study's variants against their baseline, in wall clock (paired,
//! with an A/A control), instructions (callgrind) and counters (perf-event), with provenance.

use super::{CaseReport, Report, Row, RunConfig, SCHEMA, SCHEMA_VERSION, StudyReport};
use crate::host::worker::{self, Request};
use crate::measure::callgrind;
use crate::measure::counters::{self, Microarch};
use crate::measure::wallclock::{self, PairConfig, PairTrials};
use crate::study::{self, Size, Study, Variant};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Study names (empty: all).
    pub studies: Vec<String>,
    /// Short run for PR review.
    pub quick: bool,
    /// Output directory.
    pub out: PathBuf,
    /// Fail if instructions cannot be counted.
    pub require_instructions: bool,
    /// Fail if hardware counters cannot be opened.
    pub require_counters: bool,
    /// Skip callgrind.
    pub no_instructions: bool,
    /// Skip the static core model block.
    pub no_model: bool,
    /// Processes per wall-clock pair.
    pub processes: usize,
    /// Override the wall-clock budget per pair and process.
    pub budget: Option<Duration>,
    /// Override the workload size (default: quick with --quick, else full).
    pub size: Option<Size>,
    /// C configurations whose rows to run (empty: the canonical gcc12-pg with --quick, every
    /// built one otherwise).
    pub configs: Vec<String>,
}

/// Which studies: named ones (validated) or all.
pub fn select(names: &[String]) -> Result<Vec<&'static dyn Study>> {
    if names.is_empty() {
        return Ok(study::STUDIES.to_vec());
    }
    names.iter().map(|n| study::study(n).map_err(anyhow::Error::from)).collect()
}

/// Trials of one pair in a fresh `hotloops worker` process, for `--processes`: only ids
/// cross the process boundary.
fn child_trials(case: &str, a: &Variant, b: &Variant, size: Size, cfg: &PairConfig) -> Result<PairTrials> {
    let req = Request::Trials {
        a: a.id.into(),
        b: b.id.into(),
        case: case.into(),
        size: size.name().into(),
        budget_ms: cfg.budget.as_millis() as u64,
        block_us: cfg.block.as_micros() as u64,
    };
    worker::one_shot(&req).context("a measuring process")
}

/// Run the report and write its files. Returns the report and the files written.
pub fn run(opts: &Options) -> Result<(Report, Vec<PathBuf>)> {
    let studies = select(&opts.studies)?;
    let mut notes = Vec::new();
    let configs = study::select_configs(&opts.configs, !opts.quick, &mut notes)?;
    crate::host::check_writable(&opts.out)?;
    let started = Instant::now();

    // Instructions: valgrind present?
    let exe = std::env::current_exe()?;
    let mut instructions = !opts.no_instructions;
    if instructions {
        if let Err(e) = callgrind::check_valgrind() {
            if opts.require_instructions {
                return Err(e.context("--require instructions"));
            }
            notes.push(format!("instructions not counted: {e}"));
            instructions = false;
        }
    } else {
        notes.push("instructions not counted: --no-instructions".into());
    }

    // Counters: say once if the host has no PMU; software counters go on.
    let cpu = crate::host::cpu::cpu();
    let march = Microarch::detect(&cpu);
    if let Err(why) = counters::hardware_available() {
        if opts.require_counters {
            bail!("--require counters: hardware counters cannot be opened on this host: {why}");
        }
        notes.push(format!("hardware counters: {why}; software counters (task clock, page faults, context switches) still reported"));
    }
    let groups = counters::groups_for(march);

    let pinned = crate::measure::pin_current_thread();
    if pinned.is_none() {
        notes.push("the measuring thread could not be pinned to a core".into());
    }
    let provenance = crate::host::provenance::collect(pinned, study::features_enabled());

    let size = opts.size.unwrap_or(if opts.quick { Size::Quick } else { Size::Full });
    let mut cfg = if opts.quick { PairConfig::quick() } else { PairConfig::full() };
    if let Some(b) = opts.budget {
        cfg.budget = b;
    }
    let processes = opts.processes.max(1);

    // Progress: one tick per wall-clock pair (A/A included); grows as cases are built.
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}").unwrap());

    let mut rows = Vec::new();
    let mut study_reports = Vec::new();
    for s in &studies {
        let info = s.info();
        let base = info.baseline_variant();
        // The rows this run takes: Rust rows, and C rows of the selected configurations.
        let rows_here = |case: &str| rows_in_run(info, case, &configs);
        bar.inc_length(info.cases.iter().map(|c| rows_here(c.id).len() as u64).sum());
        let mut case_reports = Vec::new();
        for spec in info.cases {
            let cname = spec.id;
            let unit = info.unit;
            bar.set_message(format!("{}/{cname}: building the workload", info.name));
            let mut case = match s.build(spec, size) {
                Ok(c) => c,
                Err(e) if e.downcast_ref::<study::CaseUnavailable>().is_some() => {
                    notes.push(format!("{}/{cname} left out: {e:#}", info.name));
                    bar.inc(rows_here(cname).len() as u64);
                    continue;
                }
                Err(e) => return Err(e.context(format!("building {}/{cname}", info.name))),
            };
            // Wall clock: A/A first, then each variant against the baseline.
            let measure_pair = |a: &'static Variant, b: &'static Variant, case: &mut Box<dyn study::Case>| -> Result<wallclock::Paired> {
                bar.set_message(format!("{cname} {} vs {}", b.id, a.id));
                let per: Vec<PairTrials> = if processes == 1 {
                    vec![wallclock::run_trials(case.as_mut(), a, b, &cfg, &mut |_| bar.tick()).with_context(|| format!("{}/{cname}", info.name))?]
                } else {
                    (0..processes).map(|_| child_trials(cname, a, b, size, &cfg)).collect::<Result<_>>()?
                };
                bar.inc(1);
                Ok(wallclock::combine(a.id, b.id, &per, cfg.resamples, cfg.seed))
            };
            let aa = measure_pair(base, base, &mut case)?;
            let floor = wallclock::noise_floor(&aa);
            rows.push(Row::plain(info.name, cname, info.baseline, info.baseline, "wall-clock", aa.baseline_ns_per_item, &format!("ns/{unit}")));
            let mut pairs = Vec::new();
            // A row restricted to some cases (the tid-batch C kernels: B-tree only) skips the others.
            let here = || rows_here(cname);
            for var in here().into_iter().filter(|v| v.id != base.id) {
                let p = measure_pair(base, var, &mut case)?;
                let mut r = Row::plain(info.name, cname, var.id, info.baseline, "wall-clock", p.variant_ns_per_item, &format!("ns/{unit}"));
                r.ratio = Some(p.median_ratio);
                r.ci_low = Some(p.ci_low);
                r.ci_high = Some(p.ci_high);
                r.verdict = Some(wallclock::verdict(&p, floor));
                r.seed_ratio = case.seed_ratio(var);
                rows.push(r);
                pairs.push(p);
            }
            let mut aarow = Row::plain(info.name, cname, info.baseline, info.baseline, "wall-clock-aa", aa.variant_ns_per_item, &format!("ns/{unit}"));
            aarow.ratio = Some(aa.median_ratio);
            aarow.ci_low = Some(aa.ci_low);
            aarow.ci_high = Some(aa.ci_high);
            aarow.verdict = Some(wallclock::verdict(&aa, 0.0));
            rows.push(aarow);

            // Counters: every group, each variant.
            bar.set_message(format!("{cname}: counters"));
            let runs = counter_runs(case.as_mut(), base)?;
            let base_rep = counters::measure(case.as_mut(), base, runs, &groups)?;
            for v in here() {
                let rep = if v.id == base.id { base_rep.clone() } else { counters::measure(case.as_mut(), v, runs, &groups)? };
                rows.extend(super::counter_rows(info.name, cname, v.id, info.baseline, unit, &rep.values, Some(&base_rep.values)));
                for n in super::unavailable_notes(&rep.unavailable) {
                    if !notes.contains(&n) {
                        notes.push(n);
                    }
                }
            }

            // Study-specific figures.
            for var in here() {
                for (metric, value, u) in case.extra_metrics(var)? {
                    rows.push(Row::plain(info.name, cname, var.id, info.baseline, &metric, value, &u));
                }
            }
            // A swept study's rows from its sweep (one fresh process a point, run once).
            match super::sweep::case_rows(info.name, cname, info.baseline, info.variants, size) {
                Some(Ok(r)) => rows.extend(r),
                Some(Err(e)) => {
                    let n = format!("{} sweep failed, no sweep rows: {e:#}", info.name);
                    if !notes.contains(&n) {
                        notes.push(n);
                    }
                }
                None => {}
            }

            case_reports.push(CaseReport { name: cname.to_string(), describe: case.describe(), items: case.items(), noise_floor: floor, aa, pairs });
        }
        // Instructions: exact, at test size (per-item counts do not depend on the scale), all
        // (variant, case) jobs of the study at once, after its wall clock. Counts are matched
        // to rows by the (variant, case) ids they carry.
        if instructions {
            bar.set_message(format!("{}: callgrind", info.name));
            let jobs: Vec<callgrind::Job> =
                case_reports.iter().flat_map(|c| rows_here(&c.name).into_iter().map(move |v| (v.id, c.name.as_str()))).collect();
            let counts = callgrind::count_many(&exe, &jobs, Size::Test)?;
            for c in &counts {
                let Some(b) = counts.iter().find(|b| b.case == c.case && b.id == base.id) else { continue };
                for (metric, val, bval) in
                    [("instructions", c.inclusive_per_item(), b.inclusive_per_item()), ("own-instructions", c.own_per_item(), b.own_per_item())]
                {
                    let mut r = Row::plain(info.name, &c.case, &c.id, info.baseline, metric, val, &format!("instr/{}", info.unit));
                    r.ratio = Some(val / bval);
                    rows.push(r);
                }
            }
        }
        // The static core model: llvm-mca per CPU beside the host's loop-only cycles (a few
        // seconds a study; without llvm-mca the block says what to install).
        let static_model = if opts.no_model {
            String::new()
        } else {
            bar.set_message(format!("{}: static core model", info.name));
            // The first case's wall clock, as ns an item against the baseline.
            let pipeline: Vec<(String, f64)> = case_reports
                .first()
                .map(|c| c.pairs.iter().map(|p| (p.variant.clone(), p.variant_ns_per_item - p.baseline_ns_per_item)).collect())
                .unwrap_or_default();
            crate::model::report_block_with(info.name, &pipeline)
        };
        study_reports.push(StudyReport {
            static_model,
            name: info.name.into(),
            seed: info.seed.into(),
            claim: info.claim.into(),
            seed_numbers: info.seed_numbers.into(),
            unit: info.unit.into(),
            baseline: info.baseline.into(),
            cases: case_reports,
        });
    }
    bar.finish_and_clear();

    let report = Report {
        schema: SCHEMA.into(),
        schema_version: SCHEMA_VERSION,
        provenance,
        config: RunConfig {
            quick: opts.quick,
            size,
            instructions_size: Size::Test,
            processes,
            budget_ms: cfg.budget.as_millis() as u64,
            elapsed_s: started.elapsed().as_secs_f64(),
            c_configs: super::matrix::configs_used(&configs),
        },
        notes,
        studies: study_reports,
        rows,
    };
    let written = write_files(&report, &opts.out)?;
    Ok((report, written))
}

/// The rows a run takes on `case`: those that run on it (the tid-batch C kernels: B-tree cases
/// only), Rust rows, and C rows of the selected configurations.
fn rows_in_run(info: &'static study::StudyInfo, case: &str, configs: &[&str]) -> Vec<&'static Variant> {
    info.variants.iter().filter(|v| v.runs_on(case) && v.in_configs(configs)).collect()
}

/// Runs per counter measurement: enough for ~50 ms.
fn counter_runs(case: &mut dyn study::Case, base: &'static Variant) -> Result<u32> {
    let t = Instant::now();
    std::hint::black_box(case.run(base)?);
    let one = t.elapsed().as_nanos().max(1);
    Ok(((50_000_000 / one) as u32).clamp(1, 10_000))
}

/// Write `report.json`, `report.md` and one SVG per study into `out`, all or none.
pub fn write_files(report: &Report, out: &Path) -> Result<Vec<PathBuf>> {
    let mut files = vec![
        (out.join("report.json"), serde_json::to_vec_pretty(report)?),
        (out.join("report.md"), super::markdown(report).into_bytes()),
    ];
    for s in &report.studies {
        files.push((out.join(format!("{}.svg", s.name)), super::plot::study_svg(report, s)?.into_bytes()));
    }
    crate::host::write_all_atomic(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}
