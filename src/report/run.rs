//! `hotloops report`: every study's variants against their baseline, in wall clock (paired,
//! with an A/A control), instructions (callgrind) and counters (perf-event), with provenance.

use super::{CaseReport, PairReport, Report, Row, RunConfig, SCHEMA, SCHEMA_VERSION, StudyReport};
use crate::host::worker::{self, Request};
use crate::measure::callgrind;
use crate::measure::counters::{self, Microarch};
use crate::host::layout;
use super::layout::{Layouts, layout_pairs, sites};
use crate::measure::wallclock::{self, PairConfig, PairTrials};
use crate::study::{self, Size, Study, Variant};
use anyhow::{Context, Result, bail};
use super::progress::Progress;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Study names (empty: all).
    pub studies: Vec<String>,
    /// The default short run (false: `--full`).
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
    /// Override the workload size (default: quick, full with `--full`).
    pub size: Option<Size>,
    /// Code layouts to measure each pair under (default: `layout::QUICK`, `layout::FULL` with
    /// `--full`).
    pub layouts: Option<Vec<String>>,
    /// Refuse to write a report with a pair measured on a busy host.
    pub strict: bool,
    /// `--pg`: measure the real server too (the report's pg section).
    pub pg: Option<super::pg::PgOptions>,
    /// C configurations whose rows to run (empty: the canonical gcc12-pg and the seed cards'
    /// pairs under the other built ones; every built one with `--full`).
    pub configs: Vec<String>,
    /// Replace files in `out` that another command, or no command, wrote (`--force`).
    pub force: bool,
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
    // The seed cards' C pairs under every configuration built here, on each seed's own case:
    // the default run gives the cards every view this machine can (a few pairs); `--full` and
    // `--config` run whole configurations.
    let card_rows: Vec<(&str, &str, &str)> = if opts.configs.is_empty() && opts.quick {
        let built = |cfg: &str| crate::ckernels::CONFIGS.iter().any(|c| c.name == cfg && c.built);
        super::seeds::SPECS
            .iter()
            .flat_map(|s| s.c_pairs.iter().filter(|(cfg, _, _)| !configs.contains(cfg) && built(cfg)).flat_map(move |(_, a, b)| [(s.study, s.case, *a), (s.study, s.case, *b)]))
            .collect()
    } else {
        Vec::new()
    };
    let mut card_configs: Vec<&str> = Vec::new();
    for (_, _, id) in &card_rows {
        if let Some(cfg) = id.split_once('@').map(|(_, c)| c).filter(|c| !card_configs.contains(c)) {
            card_configs.push(cfg);
        }
    }
    for c in &card_configs {
        notes.push(format!("C configuration {c}: only the seed cards' pairs ran (`--full` or `--config {c}` runs all its rows)"));
    }
    // A data directory that cannot be one (HOTLOOPS_DATA_DIR naming a file) is bad input:
    // said now, not when read-stream's case is built after the studies before it.
    let data = crate::pg::bloom::default_data_dir();
    if data.exists() && !data.is_dir() {
        return Err(crate::host::Usage(format!("HOTLOOPS_DATA_DIR={}: a file, not a directory", data.display())).into());
    }
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
            return Err(crate::host::Unavailable(format!("--require counters: hardware counters cannot be opened on this host: {why}")).into());
        }
        notes.push(format!("hardware counters: {why}; software counters (task clock, page faults, context switches) still reported"));
    }
    let groups = counters::groups_for(march);

    // One report at a time per --out (and per core, below), held to the end of the run; a
    // file of the user's where the report would write one is refused before any work.
    let planned = file_names(studies.iter().map(|s| s.info().name));
    let mut out_dir = crate::host::outdir::OutDir::claim(&opts.out, crate::host::outdir::Claim::new("report", planned.clone()).force(opts.force))?;

    let pinned = crate::measure::pin_current_thread();
    if pinned.is_none() {
        notes.push("the measuring thread could not be pinned to a core".into());
    }
    let _core_lock = match pinned {
        Some(core) => Some(crate::host::lock::acquire(&crate::host::lock::core_lock_path(core), &format!("core {core} (where a report pins its measuring thread)"))?),
        None => None,
    };
    let provenance = crate::host::provenance::collect(pinned, study::features_enabled());

    let size = opts.size.unwrap_or(if opts.quick { Size::Quick } else { Size::Full });
    let mut cfg = if opts.quick { PairConfig::quick() } else { PairConfig::full() };
    if let Some(b) = opts.budget {
        cfg.budget = b;
    }
    let processes = opts.processes.max(1);

    // Code layouts: each pair in several binaries that differ only in where the kernels sit.
    let ids: Vec<String> = opts.layouts.clone().unwrap_or_else(|| (if opts.quick { layout::QUICK } else { layout::FULL }).iter().map(|s| s.to_string()).collect());
    let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let layouts: Option<Layouts> = match worker::exe().and_then(|exe| layout::ensure(&exe, &id_refs, &study::features_enabled())) {
        Ok(l) => Some(l),
        Err(e) if opts.layouts.is_some() => return Err(e.context("--layouts")),
        Err(e) => {
            notes.push(format!("code layout not measured, every pair ran in this binary's layout only: {e:#}"));
            None
        }
    };
    if let Some(l) = &layouts {
        notes.push(format!(
            "wall clock pooled over {} code layouts ({}): each kernel moved to a different offset mod 64, heap and stack offsets drawn per process; a verdict is resolved only across layouts",
            l.len(),
            l.iter().map(|(l, _)| l.id).collect::<Vec<_>>().join(", ")
        ));
    }

    // Progress: one tick per wall-clock pair (A/A included), with an ETA.
    let total: usize = studies.iter().map(|s| s.info().cases.iter().map(|c| rows_in_run(s.info(), c.id, &configs, &card_rows).len()).sum::<usize>()).sum();
    let progress = std::cell::RefCell::new(Progress::new(total as u64));
    let mut busy = Vec::new();
    let mut phases: Vec<PhaseTime> = Vec::new();

    let mut rows = Vec::new();
    let mut study_reports = Vec::new();
    // Callgrind jobs of every study, counted at once after the last study's wall clock: one
    // work queue keeps every core busy to the end (a queue a study left one core idle at the
    // tail of each).
    let mut callgrind_jobs: Vec<(&'static study::StudyInfo, String, &'static str)> = Vec::new();
    // The static core model's studies, modelled in one run after the last study's wall clock
    // (one llvm-mca queue, one harness build): (index in study_reports, study, pipeline).
    let mut model_jobs: Vec<(usize, &'static str, Vec<(String, f64)>)> = Vec::new();
    for s in &studies {
        let info = s.info();
        let base = info.baseline_variant();
        // The rows this run takes: Rust rows, and C rows of the selected configurations.
        let rows_here = |case: &str| rows_in_run(info, case, &configs, &card_rows);
        let mut case_reports = Vec::new();
        let study_sites = match &layouts {
            Some(l) => Some(sites(l, info.variants).with_context(|| format!("{}: reading kernel addresses", info.name))?),
            None => None,
        };
        for spec in info.cases {
            let cname = spec.id;
            let unit = info.unit;
            progress.borrow().message(format!("{}/{cname}: building the workload", info.name));
            let mut clock = PhaseClock::new(info.name);
            let mut case = match s.build(spec, size) {
                Ok(c) => c,
                Err(e) if e.downcast_ref::<study::CaseUnavailable>().is_some() => {
                    notes.push(format!("{}/{cname} left out: {e:#}", info.name));
                    progress.borrow_mut().skip(rows_here(cname).len() as u64);
                    continue;
                }
                Err(e) => return Err(e.context(format!("building {}/{cname}", info.name))),
            };
            // Wall clock: A/A first, then each variant against the baseline.
            let mut pairs_ab: Vec<(&'static Variant, &'static Variant)> = vec![(base, base)];
            pairs_ab.extend(rows_here(cname).into_iter().filter(|v| v.id != base.id).map(|v| (base, v)));
            let measure_pair = |a: &'static Variant, b: &'static Variant, case: &mut Box<dyn study::Case>| -> Result<PairReport> {
                let what = format!("{}/{cname}: {} vs {}", info.name, b.id, a.id);
                progress.borrow().message(what.clone());
                let per: Vec<PairTrials> = if processes == 1 {
                    vec![wallclock::run_trials(case.as_mut(), a, b, &cfg, &mut |_| progress.borrow().tick()).with_context(|| format!("{}/{cname}", info.name))?]
                } else {
                    (0..processes).map(|_| child_trials(cname, a, b, size, &cfg)).collect::<Result<_>>()?
                };
                // The raw trials go into the report beside their summary, to be pooled later.
                Ok(PairReport::new(wallclock::combine(a.id, b.id, &per, cfg.resamples, cfg.seed), &per))
            };
            clock.lap(&mut phases, "build");
            let mut measured: Vec<PairReport> = match (&layouts, &study_sites) {
                (Some(l), Some(st)) => layout_pairs(l, st, info.variants, &pairs_ab, cname, size, &cfg, processes, &mut |m| {
                    progress.borrow().message(format!("{}/{cname}: {m}", info.name))
                })
                .with_context(|| format!("{}/{cname}", info.name))?,
                _ => pairs_ab.iter().map(|(a, b)| measure_pair(a, b, &mut case)).collect::<Result<_>>()?,
            };
            for p in &measured {
                let what = format!("{}/{cname}: {} vs {}", info.name, p.variant, p.baseline);
                let flag = wallclock::busy_flag(p).map(|f| format!("; {f}")).unwrap_or_default();
                let result = format!("{:+.2}% [{:+.2}%, {:+.2}%]{flag}", (p.median_ratio - 1.0) * 100.0, (p.ci_low - 1.0) * 100.0, (p.ci_high - 1.0) * 100.0);
                progress.borrow_mut().pair_done(&what, &result);
            }
            let aa = measured.remove(0);
            let floor = wallclock::noise_floor(&aa);
            rows.push(Row::plain(info.name, cname, info.baseline, info.baseline, "wall-clock", aa.baseline_ns_per_item, &format!("ns/{unit}")));
            let mut pairs = Vec::new();
            // A row restricted to some cases (the tid-batch C kernels: B-tree only) skips the others.
            let here = || rows_here(cname);
            for (var, p) in here().into_iter().filter(|v| v.id != base.id).zip(measured) {
                let mut r = Row::plain(info.name, cname, var.id, info.baseline, "wall-clock", p.variant_ns_per_item, &format!("ns/{unit}"));
                if let Some(f) = wallclock::busy_flag(&p) {
                    busy.push(format!("{}/{cname}: {} vs {}: {f}", info.name, var.id, base.id));
                    r.flags.push(f);
                }
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
            if let Some(f) = wallclock::busy_flag(&aa) {
                busy.push(format!("{}/{cname}: A/A {}: {f}", info.name, base.id));
                aarow.flags.push(f);
            }
            rows.push(aarow);

            clock.lap(&mut phases, "wall-clock");
            // Counters: every group, each variant.
            progress.borrow().message(format!("{cname}: counters"));
            let runs = counter_runs(case.as_mut(), base, if opts.quick { QUICK_COUNTER_NS } else { FULL_COUNTER_NS })?;
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

            clock.lap(&mut phases, "counters");
            // Study-specific figures.
            for var in here() {
                for (metric, value, u) in case.extra_metrics(var)? {
                    rows.push(Row::plain(info.name, cname, var.id, info.baseline, &metric, value, &u));
                }
            }
            clock.lap(&mut phases, "extra-metrics");
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

            clock.lap(&mut phases, "sweep");
            case_reports.push(CaseReport { name: cname.to_string(), describe: case.describe(), items: case.items(), noise_floor: floor, aa, pairs });
        }
        // Instructions (below, for every study at once): the study's (variant, case) jobs.
        if instructions {
            callgrind_jobs.extend(case_reports.iter().flat_map(|c| rows_here(&c.name).into_iter().map(move |v| (info, c.name.clone(), v.id))));
        }
        // The static core model (below, for every study at once): the first case's wall
        // clock, as ns an item against the baseline.
        if !opts.no_model {
            let pipeline: Vec<(String, f64)> = case_reports
                .first()
                .map(|c| c.pairs.iter().map(|p| (p.variant.clone(), p.variant_ns_per_item - p.baseline_ns_per_item)).collect())
                .unwrap_or_default();
            model_jobs.push((study_reports.len(), info.name, pipeline));
        }
        study_reports.push(StudyReport {
            static_model: String::new(),
            static_predictions: None,
            name: info.name.into(),
            seed: info.seed.into(),
            claim: info.claim.into(),
            seed_numbers: info.seed_numbers.into(),
            unit: info.unit.into(),
            baseline: info.baseline.into(),
            cases: case_reports,
        });
    }
    // llvm-mca per CPU beside the host's loop-only cycles (a few seconds; without llvm-mca
    // each block says what to install).
    if !model_jobs.is_empty() {
        let mut clock = PhaseClock::new("all studies");
        progress.borrow().message("static core model".into());
        let studies: Vec<(&str, &[(String, f64)])> = model_jobs.iter().map(|(_, n, p)| (*n, p.as_slice())).collect();
        for ((i, _, _), (block, model)) in model_jobs.iter().zip(crate::model::report_blocks(&studies, Some(&configs))) {
            study_reports[*i].static_model = block;
            // The predictions the seed cards read, in model.json's shape.
            study_reports[*i].static_predictions = model.and_then(|m| serde_json::to_value(m).ok()).and_then(|v| serde_json::from_value(v).ok());
        }
        clock.lap(&mut phases, "model");
    }
    // Instructions: exact, at test size (per-item counts do not depend on the scale), every
    // study's jobs in one queue after all the wall clock. Counts are matched to rows by the
    // (variant, case) ids they carry.
    if !callgrind_jobs.is_empty() {
        let mut clock = PhaseClock::new("all studies");
        progress.borrow().message("callgrind".into());
        let jobs: Vec<callgrind::Job> = callgrind_jobs.iter().map(|(_, case, id)| (*id, case.as_str())).collect();
        let counts = callgrind::count_many(&exe, &jobs, Size::Test)?;
        for ((info, _, _), c) in callgrind_jobs.iter().zip(&counts) {
            let Some(b) = counts.iter().find(|b| b.case == c.case && b.id == info.baseline) else { continue };
            for (metric, val, bval) in [("instructions", c.inclusive_per_item(), b.inclusive_per_item()), ("own-instructions", c.own_per_item(), b.own_per_item())] {
                let mut r = Row::plain(info.name, &c.case, &c.id, info.baseline, metric, val, &format!("instr/{}", info.unit));
                r.ratio = Some(val / bval);
                rows.push(r);
            }
        }
        clock.lap(&mut phases, "callgrind");
    }
    progress.borrow().finish();
    let pg = opts.pg.as_ref().map(|o| {
        let names: Vec<&str> = studies.iter().map(|s| s.info().name).collect();
        super::pg::section(o, opts.quick, instructions, &names, &rows, &mut notes)
    });

    if !busy.is_empty() {
        // The first few by name; every one is flagged in its row.
        const NAMED: usize = 4;
        let more = if busy.len() > NAMED { format!("; and {} more", busy.len() - NAMED) } else { String::new() };
        let what = format!(
            "busy host: {} of {total} wall-clock pair(s) had the measuring thread on its core less than {:.0}% of the wall time \
             (flagged in their rows; their ratios and verdicts are not to be trusted: stop other work, or check for a \
             second run on the same core): {}{more}",
            busy.len(),
            crate::measure::usage::BUSY_BELOW * 100.0,
            busy[..busy.len().min(NAMED)].join("; ")
        );
        if opts.strict {
            bail!("--strict: not writing the report, {what}");
        }
        notes.push(what);
    }
    let mut report = Report {
        schema: SCHEMA.into(),
        schema_version: SCHEMA_VERSION,
        provenance,
        config: RunConfig {
            quick: opts.quick,
            size,
            instructions_size: Size::Test,
            processes,
            layouts: layouts.as_ref().map(|l| l.iter().map(|(l, _)| l.id.to_string()).collect()).unwrap_or_default(),
            budget_ms: cfg.budget.as_millis() as u64,
            elapsed_s: started.elapsed().as_secs_f64(),
            phases,
            c_configs: super::matrix::configs_used(&configs),
        },
        notes,
        studies: study_reports,
        rows,
        pg,
    };
    // Files in --out that hotloops did not write stay; say so.
    let planned: Vec<PathBuf> = planned.iter().map(|n| opts.out.join(n)).collect();
    let foreign = out_dir.foreign(&planned);
    if !foreign.is_empty() {
        report.notes.push(format!("{} holds files hotloops did not write, left alone: {}", opts.out.display(), foreign.join(", ")));
    }
    let written = write_files_with(&report, &mut out_dir, None)?;
    Ok((report, written))
}

/// The names of a report's files in its directory: `report.json`, `report.md`, one SVG per
/// study, `report.html` (what [`render_files`] writes, known before measuring).
pub fn file_names<'a>(studies: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut v = vec!["report.json".to_string(), "report.md".to_string()];
    v.extend(studies.into_iter().map(|s| format!("{s}.svg")));
    v.push("report.html".into());
    v
}

/// The rows a run takes on `case`: those that run on it (the tid-batch C kernels: B-tree cases
/// only), Rust rows, C rows of the selected configurations, and the `extra` (study, case, id)
/// rows.
fn rows_in_run(info: &'static study::StudyInfo, case: &str, configs: &[&str], extra: &[(&str, &str, &str)]) -> Vec<&'static Variant> {
    info.variants.iter().filter(|v| v.runs_on(case) && (v.in_configs(configs) || extra.contains(&(info.name, case, v.id)))).collect()
}

/// Seconds a report spent in one phase of one study (summed over its cases): where the time
/// of a report goes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PhaseTime {
    /// Study.
    pub study: String,
    /// `build`, `wall-clock`, `counters`, `extra-metrics`, `sweep`, `callgrind`, `model`.
    pub phase: String,
    /// Seconds.
    pub seconds: f64,
}

/// Laps of one study's phases into a [`PhaseTime`] list.
struct PhaseClock {
    study: &'static str,
    last: Instant,
}

impl PhaseClock {
    fn new(study: &'static str) -> Self {
        PhaseClock { study, last: Instant::now() }
    }

    /// Add the time since the last lap to `phase`.
    fn lap(&mut self, phases: &mut Vec<PhaseTime>, phase: &str) {
        let s = self.last.elapsed().as_secs_f64();
        self.last = Instant::now();
        match phases.iter_mut().find(|p| p.study == self.study && p.phase == phase) {
            Some(p) => p.seconds += s,
            None => phases.push(PhaseTime { study: self.study.into(), phase: phase.into(), seconds: s }),
        }
    }
}

/// Counter measurement length, ns a group: a full report's, and the default run's (counts a run are
/// averages over many runs either way; quick keeps its time for the wall-clock pairs).
const FULL_COUNTER_NS: u128 = 50_000_000;
const QUICK_COUNTER_NS: u128 = 10_000_000;

/// Runs per counter measurement: enough for about `target_ns`.
fn counter_runs(case: &mut dyn study::Case, base: &'static Variant, target_ns: u128) -> Result<u32> {
    let t = Instant::now();
    std::hint::black_box(case.run(base)?);
    let one = t.elapsed().as_nanos().max(1);
    Ok(((target_ns / one) as u32).clamp(1, 10_000))
}

/// The files of `report` in `out`: `report.json`, `report.md`, one SVG per study and
/// `report.html` (all of it in one page).
pub fn render_files(report: &Report, out: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let names = file_names(report.studies.iter().map(|s| s.name.as_str()));
    let mut files = vec![
        (out.join(&names[0]), serde_json::to_vec_pretty(report)?),
        (out.join(&names[1]), super::markdown(report).into_bytes()),
    ];
    let mut svgs = Vec::new();
    for (s, name) in report.studies.iter().zip(&names[2..]) {
        let svg = super::plot::study_svg(report, s)?;
        files.push((out.join(name), svg.clone().into_bytes()));
        svgs.push((s.name.clone(), svg));
    }
    files.push((out.join(&names[names.len() - 1]), super::html::page(report, &svgs).into_bytes()));
    Ok(files)
}

/// Write [`render_files`] into a claimed directory, all or none, with the manifest
/// ([`crate::host::outdir`]): what the previous report wrote and this one does not is
/// removed. `json`: the bytes to write as `report.json` instead of serialising `report`
/// (`render` writes back the very file it read).
pub fn write_files_with(report: &Report, out: &mut crate::host::outdir::OutDir, json: Option<Vec<u8>>) -> Result<Vec<PathBuf>> {
    let mut files = render_files(report, &out.dir)?;
    if let Some(j) = json {
        files[0].1 = j;
    }
    out.replace(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}
