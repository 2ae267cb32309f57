//! The sweep: a measurement over a parameter, one fresh `hotloops worker` process a point
//! (alloc-churn: every variant at N = 1 to 200 partitions), written as `sweep.json` (schema
//! [`SCHEMA`], with the report's provenance), `sweep.md` and `sweep.svg`; and the rows a
//! report takes from it. What a point measures is the study's
//! (`crate::study::alloc_churn::sweep`); timing its queries and counting their faults is
//! `crate::measure`'s.

use super::Row;
use super::plot::{Line, LinePanel, lines_svg};
use super::table::{Align, Table};
use crate::host::provenance::{self, Provenance};
use crate::host::worker::{Request, one_shot};
use crate::measure::timing::{CallConfig, time_calls};
use crate::study::alloc_churn::sweep::{self as churn, PARAMETER, PointConfig, SweepConfig};
use crate::study::alloc_churn::{self, SEED_PARTITIONS, ScanForm};
use crate::study::{Size, Variant};
use crate::pg::mcxt::glibc::TrimProbe;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The JSON schema's name.
pub const SCHEMA: &str = "hotloops-sweep";
/// The JSON schema's version.
pub const SCHEMA_VERSION: u32 = 1;

/// The studies with a sweep (what `hotloops sweep` takes).
pub const STUDIES: &[&str] = &["alloc-churn"];

/// One point: a variant at one value of the parameter, measured in a fresh process.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepPoint {
    /// Variant id.
    pub variant: String,
    /// The parameter's value (partitions).
    pub partitions: usize,
    /// How the plan scanned each partition (older files: index-only).
    #[serde(default = "index_only")]
    pub form: ScanForm,
    /// Timed queries.
    pub queries: u32,
    /// Median time per query, us.
    pub us_median: f64,
    /// Mean time per query, us.
    pub us_mean: f64,
    /// 10th percentile, us.
    pub us_p10: f64,
    /// 90th percentile, us.
    pub us_p90: f64,
    /// Minor page faults per query (perf where it opened, else getrusage).
    pub minor_faults: f64,
    /// Which counter gave `minor_faults`.
    pub fault_source: String,
    /// getrusage's count per query, for comparison.
    pub minor_faults_rusage: f64,
    /// glibc's trim probe in the fresh process, before any setting or workload.
    pub trim_fresh: Option<TrimProbe>,
    /// The probe after the variant's settings and the workload build, before timing.
    pub trim_ready: Option<TrimProbe>,
    /// Digest of one query: equal across variants at the same N.
    pub digest: u64,
}

/// A sweep file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sweep {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Where it ran: CPU, host, kernel, rustc, commit, dirty flag, features, date.
    pub provenance: Provenance,
    /// The study swept.
    pub study: String,
    /// The parameter swept.
    pub parameter: String,
    /// What was swept.
    pub config: SweepConfig,
    /// The C library (glibc version where known).
    pub libc: String,
    /// All points, variant by variant, ascending parameter.
    pub points: Vec<SweepPoint>,
}

fn index_only() -> ScanForm {
    ScanForm::IndexOnly
}

impl Sweep {
    /// The point of `variant` at `n` partitions scanned in `form`.
    pub fn point(&self, variant: &str, form: ScanForm, n: usize) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.variant == variant && p.form == form && p.partitions == n)
    }

    /// The points of one variant and scan form, ascending N.
    pub fn series(&self, variant: &str, form: ScanForm) -> Vec<&SweepPoint> {
        let mut v: Vec<_> = self.points.iter().filter(|p| p.variant == variant && p.form == form).collect();
        v.sort_by_key(|p| p.partitions);
        v
    }
}

/// The timing loop's settings for a point.
fn calls(cfg: &PointConfig) -> CallConfig {
    CallConfig {
        warmup_calls: churn::WARMUP_QUERIES,
        warmup: Duration::from_millis(churn::WARMUP_MS),
        target: Duration::from_millis(cfg.target_ms),
        min_calls: cfg.min_queries,
        max_calls: cfg.max_queries,
    }
}

/// Measure variant `v` at `n` partitions scanned in `form` in this process, which must be
/// fresh (the `point` request's handler): the study's setup, then its query through the row,
/// timed.
pub fn measure_point(v: &'static Variant, n: usize, form: ScanForm, cfg: &PointConfig) -> Result<SweepPoint> {
    let mut p = churn::prepare(v, n, form, cfg)?;
    let what = format!("{} at {n} partitions ({form} scans)", v.id);
    let t = time_calls(&calls(cfg), &what, &mut || Ok(p.backend.query()))?;
    Ok(SweepPoint {
        variant: v.id.to_string(),
        partitions: n,
        form,
        queries: t.calls,
        us_median: t.median_us,
        us_mean: t.mean_us,
        us_p10: t.p10_us,
        us_p90: t.p90_us,
        minor_faults: t.faults.per_call,
        fault_source: t.faults.source.to_string(),
        minor_faults_rusage: t.faults.rusage_per_call,
        trim_fresh: p.trim_fresh,
        trim_ready: p.trim_ready,
        digest: t.digest,
    })
}

/// The `point` request for `v` at `n` partitions scanned in `form`.
pub fn point_request(v: &'static Variant, n: usize, form: ScanForm, cfg: &PointConfig) -> Request {
    Request::Point {
        variant: v.id.to_string(),
        partitions: n,
        form: form.id().to_string(),
        accounts: cfg.accounts,
        key: cfg.key,
        target_ms: cfg.target_ms,
        min_queries: cfg.min_queries,
        max_queries: cfg.max_queries,
    }
}

/// Measure one point in a fresh worker process.
pub fn point_in_worker(v: &'static Variant, n: usize, form: ScanForm, cfg: &PointConfig) -> Result<SweepPoint> {
    let p: SweepPoint = one_shot(&point_request(v, n, form, cfg))?;
    if p.variant != v.id || p.partitions != n || p.form != form {
        bail!("a worker asked for {} at {n} partitions ({form} scans) answered {} at {} ({} scans)", v.id, p.variant, p.partitions, p.form);
    }
    Ok(p)
}

/// Run the sweep: every (form, variant, N) in a fresh worker. Errors if the digests differ
/// at any N (every variant in either form returns the same rows and scan positions).
/// `progress` hears each point.
pub fn run(cfg: &SweepConfig, progress: &mut dyn FnMut(&SweepPoint)) -> Result<Sweep> {
    if cfg.grid.is_empty() || cfg.variants.is_empty() || cfg.forms.is_empty() {
        bail!("an empty sweep: give at least one partition count, one variant and one scan form");
    }
    let rows: Vec<&'static Variant> = cfg.variants.iter().map(|id| alloc_churn::variant_row(id)).collect::<Result<_>>()?;
    let mut points = Vec::new();
    for &form in &cfg.forms {
        for &v in &rows {
            for &n in &cfg.grid {
                let p = point_in_worker(v, n, form, &cfg.point)?;
                progress(&p);
                points.push(p);
            }
        }
    }
    for &n in &cfg.grid {
        let at: Vec<_> = points.iter().filter(|p| p.partitions == n).collect();
        if let Some(bad) = at.iter().find(|p| p.digest != at[0].digest) {
            bail!(
                "at {n} partitions {} ({} scans) returned digest {:#x} but {} ({} scans) returned {:#x}: the variants disagree",
                bad.variant,
                bad.form,
                bad.digest,
                at[0].variant,
                at[0].form,
                at[0].digest
            );
        }
    }
    Ok(Sweep {
        schema: SCHEMA.into(),
        schema_version: SCHEMA_VERSION,
        // The points ran in unpinned child processes.
        provenance: provenance::collect(None, crate::study::features_enabled()),
        study: alloc_churn::info().name.into(),
        parameter: PARAMETER.into(),
        config: cfg.clone(),
        libc: churn::libc_version(),
        points,
    })
}

/// Read a `sweep.json`, naming the file and the problem when it is not a sweep of this
/// schema version.
pub fn load(path: &Path) -> Result<Sweep> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))?;
    if v.get("schema").and_then(|s| s.as_str()) != Some(SCHEMA) {
        bail!("{}: not a hotloops sweep (no \"schema\": \"{SCHEMA}\")", path.display());
    }
    match v.get("schema_version").and_then(|s| s.as_u64()) {
        Some(x) if x == SCHEMA_VERSION as u64 => {}
        other => bail!("{}: sweep schema version {other:?}, this hotloops reads version {SCHEMA_VERSION}", path.display()),
    }
    serde_json::from_value(v).with_context(|| format!("{}: malformed sweep", path.display()))
}

// ---------------------------------------------------------------------------------------------
// What a sweep shows.

/// Where one variant's queries start to fault, in one scan form.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cliff {
    /// Variant id.
    pub variant: String,
    /// Scan form.
    pub form: ScanForm,
    /// The first N after the grid's first whose queries take [`CLIFF_FAULTS`] or more minor
    /// faults each (None: no such N), the servers' rule (`hotloops pg --sweep-partitions`).
    pub at: Option<usize>,
    /// The previous N of the grid.
    pub from: Option<usize>,
    /// The time step there (time at `at` / time at `from`).
    pub step: f64,
    /// us per query at `from`.
    pub us_before: f64,
    /// us per query at `at`.
    pub us_at: f64,
    /// Minor faults per query at `from`.
    pub faults_before: f64,
    /// Minor faults per query at `at`.
    pub faults_at: f64,
    /// The largest step anywhere on the grid.
    pub max_step: f64,
    /// N of the largest step.
    pub max_step_at: usize,
}

/// Minor faults a query that make a point the cliff: the heap's top was given back to the
/// kernel and is faulted in again on every query. The same rule as the servers' sweep, so the
/// two cliffs compare; a time step does not (the model's query has none of the planner's CPU
/// work, so a trim's cost is a larger step in it than in a server's transaction).
pub use crate::study::alloc_churn::CLIFF_FAULTS;

/// Each variant's cliff in each scan form: the first grid point after the first whose
/// queries fault [`CLIFF_FAULTS`] times or more each.
pub fn cliffs(s: &Sweep) -> Vec<Cliff> {
    let mut out = Vec::new();
    for (&form, id) in s.config.forms.iter().flat_map(|f| s.config.variants.iter().map(move |id| (f, id))) {
        let pts = s.series(id, form);
        let mut c = Cliff {
            variant: id.clone(),
            form,
            at: None,
            from: None,
            step: 0.0,
            us_before: 0.0,
            us_at: 0.0,
            faults_before: 0.0,
            faults_at: 0.0,
            max_step: 0.0,
            max_step_at: pts.first().map(|p| p.partitions).unwrap_or(0),
        };
        for w in pts.windows(2) {
            let step = w[1].us_median / w[0].us_median.max(1e-9);
            if step > c.max_step {
                c.max_step = step;
                c.max_step_at = w[1].partitions;
            }
            if c.at.is_none() && w[1].minor_faults >= CLIFF_FAULTS {
                c.at = Some(w[1].partitions);
                c.from = Some(w[0].partitions);
                c.step = step;
                c.us_before = w[0].us_median;
                c.us_at = w[1].us_median;
                c.faults_before = w[0].minor_faults;
                c.faults_at = w[1].minor_faults;
            }
        }
        out.push(c);
    }
    out
}

fn short(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// The sweep as Markdown: where it ran, the cliffs, then time and faults per query at
/// every N.
pub fn markdown(s: &Sweep) -> String {
    let p = &s.provenance;
    let mut m = format!("# {} sweep over {}\n\n", s.study, s.parameter);
    let mut prov = Table::new([("provenance", Align::Left), ("", Align::Left)]);
    prov.row(["CPU".to_string(), format!("{} ({}, {})", p.cpu_name, p.cpu_vendor, p.microarch)])
        .row(["host / kernel".to_string(), format!("{} / {}", p.host, p.kernel)])
        .row(["C library".to_string(), s.libc.clone()])
        .row(["rustc".to_string(), p.rustc.clone()])
        .row(["commit".to_string(), format!("{}{}", p.commit, if p.dirty { " (dirty tree)" } else { "" })])
        .row(["features".to_string(), if p.features.is_empty() { "none".to_string() } else { p.features.join(", ") }])
        .row(["date".to_string(), p.date.clone()]);
    m.push_str(&prov.render());
    m.push_str(&format!(
        "\nEvery point in a fresh process. Query: `select count(*) from pgbench_accounts where bid = {}` over N range partitions of {} rows.\n\n",
        s.config.point.key, s.config.point.accounts
    ));
    let mut t = Table::new([
        ("variant", Align::Left),
        ("scans", Align::Left),
        ("cliff (>= 1 fault a query)", Align::Left),
        ("step", Align::Right),
        ("us/query before -> at", Align::Right),
        ("minor faults/query before -> at", Align::Right),
        ("largest step", Align::Right),
    ]);
    for c in cliffs(s) {
        let largest = format!("{:.1}x at {}", c.max_step, c.max_step_at);
        match (c.at, c.from) {
            (Some(at), Some(from)) => t.row([
                short(&c.variant).to_string(),
                c.form.to_string(),
                format!("{from} -> {at} partitions"),
                format!("{:.1}x", c.step),
                format!("{:.2} -> {:.2}", c.us_before, c.us_at),
                format!("{:.1} -> {:.1}", c.faults_before, c.faults_at),
                largest,
            ]),
            _ => t.row([short(&c.variant).to_string(), c.form.to_string(), "none".into(), "-".into(), "-".into(), "-".into(), largest]),
        };
    }
    m.push_str(&t.render());
    let info = alloc_churn::info();
    for &form in &s.config.forms {
        if let (Some(a), Some(b)) = (s.point(info.baseline, form, SEED_PARTITIONS), s.point(info.patched, form, SEED_PARTITIONS)) {
            m.push_str(&format!(
                "\nAt {SEED_PARTITIONS} partitions, {form} scans: {} / {} = {:.3} (time per query; the seed: ~2, a ~50% TPS loss).\n",
                short(info.baseline),
                short(info.patched),
                a.us_median / b.us_median
            ));
        }
    }
    for &form in &s.config.forms {
        m.push_str(&format!("\nMedian us per query (minor faults per query), {form} scans:\n\n"));
        let mut g = Table::new([("N", Align::Right)]);
        for id in &s.config.variants {
            g.column(short(id), Align::Right);
        }
        for &n in &s.config.grid {
            let cells = std::iter::once(n.to_string()).chain(s.config.variants.iter().map(|id| match s.point(id, form, n) {
                Some(p) => format!("{:.2} ({:.1})", p.us_median, p.minor_faults),
                None => "-".into(),
            }));
            g.row(cells);
        }
        m.push_str(&g.render());
    }
    let untrimmed: Vec<String> = s
        .points
        .iter()
        .filter(|p| p.trim_fresh.is_some_and(|t| !t.trimmed))
        .map(|p| format!("{} @ {} ({})", short(&p.variant), p.partitions, p.form))
        .collect();
    if !untrimmed.is_empty() {
        m.push_str(&format!("\nWarning: these fresh processes did not trim at glibc's default threshold: {}\n", untrimmed.join(", ")));
    }
    m
}

/// The sweep's SVG: per scan form, time per query (log) and minor faults per query against
/// partitions (log), a line per variant.
pub fn svg(s: &Sweep) -> Result<String> {
    if s.points.is_empty() {
        bail!("an empty sweep has nothing to plot");
    }
    let lines = |form: ScanForm, f: fn(&SweepPoint) -> f64| -> Vec<Line> {
        s.config
            .variants
            .iter()
            .map(|id| Line { label: short(id).to_string(), points: s.series(id, form).iter().map(|p| (p.partitions as f64, f(p))).collect() })
            .collect()
    };
    let panels: Vec<LinePanel> = s
        .config
        .forms
        .iter()
        .flat_map(|&form| {
            [
                LinePanel { title: format!("{form} scans: median time per query"), y_desc: "us per query".into(), log_y: true, lines: lines(form, |p| p.us_median) },
                LinePanel { title: format!("{form} scans: minor page faults per query"), y_desc: "faults per query".into(), log_y: false, lines: lines(form, |p| p.minor_faults) },
            ]
        })
        .collect();
    lines_svg(&format!("{}: cost per query against {} ({}, {})", s.study, s.parameter, s.libc, s.provenance.cpu_name), s.parameter.as_str(), &panels)
}

/// The files a sweep writes into its directory.
pub const FILES: [&str; 3] = ["sweep.json", "sweep.md", "sweep.svg"];

/// Claim `out` for a sweep's files (`force`: replace files of those names that another
/// command, or no command, wrote): before the sweep runs, one sweep at a time into a directory.
pub fn claim(out: &Path, force: bool) -> Result<crate::host::outdir::OutDir> {
    crate::host::outdir::OutDir::claim(out, crate::host::outdir::Claim::new("sweep", FILES).force(force))
}

/// Run the sweep and write `sweep.json`, `sweep.md` and `sweep.svg` into `out`, all or none
/// (what `hotloops sweep alloc-churn` does). Returns the sweep and the files written.
pub fn write(out: &Path, cfg: &SweepConfig, force: bool, progress: &mut dyn FnMut(&SweepPoint)) -> Result<(Sweep, Vec<PathBuf>)> {
    let mut dir = claim(out, force)?;
    write_into(&mut dir, cfg, progress)
}

/// [`write`] into a directory already claimed ([`claim`]).
pub fn write_into(dir: &mut crate::host::outdir::OutDir, cfg: &SweepConfig, progress: &mut dyn FnMut(&SweepPoint)) -> Result<(Sweep, Vec<PathBuf>)> {
    let s = run(cfg, progress)?;
    let out = dir.dir.clone();
    let files = vec![
        (out.join(FILES[0]), serde_json::to_vec_pretty(&s)?),
        (out.join(FILES[1]), markdown(&s).into_bytes()),
        (out.join(FILES[2]), svg(&s)?.into_bytes()),
    ];
    dir.replace(&files)?;
    Ok((s, files.into_iter().map(|(p, _)| p).collect()))
}

// ---------------------------------------------------------------------------------------------
// The report's rows.

static CACHE: Mutex<Vec<(Size, Arc<Sweep>)>> = Mutex::new(Vec::new());

/// The report's sweep at `size`, run once per process.
pub fn cached(size: Size) -> Result<Arc<Sweep>> {
    let mut c = CACHE.lock().map_err(|_| anyhow::anyhow!("sweep cache lock poisoned"))?;
    if let Some((_, s)) = c.iter().find(|(z, _)| *z == size) {
        return Ok(s.clone());
    }
    let s = Arc::new(run(&SweepConfig::for_size(size), &mut |_| {})?);
    c.push((size, s.clone()));
    Ok(s)
}

/// The sweep's rows for one case of a swept study (`sweep:*` metrics of every variant at
/// the case's N and the seed's), or None for a study without a sweep.
pub fn case_rows(study: &str, case: &str, baseline: &str, variants: &[Variant], size: Size) -> Option<Result<Vec<Row>>> {
    if !STUDIES.contains(&study) {
        return None;
    }
    Some((|| {
        let n = alloc_churn::partitions_of(case)?;
        let s = cached(size)?;
        Ok(rows_of(&s, study, case, n, baseline, variants))
    })())
}

/// A sweep metric's name in a report row: `sweep:NAME` for the planner's index-only scans (as
/// reports have always named them), `sweep:index-scan:NAME` for plain Index Scans.
pub fn metric(form: ScanForm, name: &str) -> String {
    match form {
        ScanForm::IndexOnly => format!("sweep:{name}"),
        ScanForm::Plain => format!("sweep:index-scan:{name}"),
    }
}

/// The rows of `sweep` for a case at `n` partitions, for each scan form swept.
pub fn rows_of(sweep: &Sweep, study: &str, case: &str, n: usize, baseline: &str, variants: &[Variant]) -> Vec<Row> {
    let cliffs = cliffs(sweep);
    let mut rows = Vec::new();
    for &form in &sweep.config.forms {
        for v in variants {
            let mut push = |name: String, value: f64, unit: &str| rows.push(Row::plain(study, case, v.id, baseline, &metric(form, &name), value, unit));
            if let Some(c) = cliffs.iter().find(|c| c.variant == v.id && c.form == form) {
                if let Some(at) = c.at {
                    push("cliff-partitions".into(), at as f64, "partitions");
                    push("cliff-step".into(), c.step, "x");
                    push("cliff-minor-faults".into(), c.faults_at, "faults/query");
                }
                push("largest-step".into(), c.max_step, "x");
                push("largest-step-at".into(), c.max_step_at as f64, "partitions");
            }
            let mut at = vec![n];
            if n != SEED_PARTITIONS {
                at.push(SEED_PARTITIONS);
            }
            for k in at {
                if let Some(p) = sweep.point(v.id, form, k) {
                    push(format!("us-per-query@{k}"), p.us_median, "us/query");
                    push(format!("minor-faults-per-query@{k}"), p.minor_faults, "faults/query");
                }
            }
        }
    }
    rows
}
