//! Seed 004 on the real server: pgbench_accounts at scale 1 split into N partitions
//! (sql/seed004-partitions.sql, with the index on `bid`), the seed's query as a pgbench script,
//! TPS and minor page faults per transaction of a backend started as pgbench's are, with
//! glibc's dynamic trim threshold as it is and with it fixed by `MALLOC_TRIM_THRESHOLD_` in the
//! server's environment; each as the planner picks it (an Index Only Scan of every partition's
//! `bid` index after VACUUM) and as a plain Index Scan (`enable_indexonlyscan` and
//! `enable_bitmapscan` off), where the prototype found the cliff two partitions later. The
//! cliff: the first N whose faults per transaction reach 1, per scan form and trim setting.

use super::cluster::Cluster;
use crate::measure::stats::median;
use crate::study::alloc_churn::ScanForm;
use super::{Install, SEED004_PARTITIONS, SEED004_QUERY, cpu_name, extension_sql};
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The full grid of partition counts.
pub const FULL_GRID: [u32; 12] = [1, 2, 3, 4, 5, 6, 8, 10, 20, 50, 100, 200];
/// The quick grid.
pub const QUICK_GRID: [u32; 7] = [1, 3, 4, 5, 6, 10, 100];
/// glibc's trim threshold when fixed (64 MiB): no dynamic adjustment, no trim at these sizes.
pub const TRIM_FIXED: &str = "67108864";
/// pgbench runs a point and setting (alternating between the settings; median TPS).
pub const REPS: usize = 3;
/// Queries per fault count.
const FAULT_QUERIES: usize = 200;
/// The scan form the planner picks (an Index Only Scan per partition): the model's name for it.
pub const INDEX_ONLY: &str = ScanForm::IndexOnly.id();
/// The plain Index Scan form.
pub const PLAIN: &str = ScanForm::Plain.id();
/// Scan forms swept, with the settings that force each (session GUCs; PGOPTIONS for pgbench).
pub const FORMS: [(&str, &[(&str, &str)]); 2] =
    [(INDEX_ONLY, &[]), (PLAIN, &[("enable_indexonlyscan", "off"), ("enable_bitmapscan", "off")])];

fn form_settings(form: &str) -> &'static [(&'static str, &'static str)] {
    FORMS.iter().find(|(f, _)| *f == form).map(|(_, s)| *s).unwrap_or(&[])
}

fn set_sql(form: &str) -> String {
    form_settings(form).iter().map(|(k, v)| format!("SET {k} = {v};\n")).collect()
}

/// One point of the sweep.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Point {
    /// Partitions.
    pub partitions: u32,
    /// `dynamic` (glibc's default) or `fixed` (MALLOC_TRIM_THRESHOLD_).
    pub trim: String,
    /// [`INDEX_ONLY`] or [`PLAIN`].
    #[serde(default = "default_form")]
    pub form: String,
    /// pgbench TPS (one client, simple protocol, without connection time).
    pub tps: f64,
    /// Backend minor faults a transaction.
    pub minflt_per_txn: f64,
    /// The per-partition scan node the planner chose.
    pub scan: String,
}

fn default_form() -> String {
    INDEX_ONLY.into()
}

/// The first partition count with >= 1 minor fault a transaction, of one scan form and trim setting.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cliff {
    /// Scan form.
    pub form: String,
    /// Trim setting.
    pub trim: String,
    /// Partitions (None: no point of the grid).
    pub partitions: Option<u32>,
}

/// The sweep's report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepReport {
    /// `postgres --version`.
    pub server_version: String,
    /// /proc/cpuinfo.
    pub host_cpu: String,
    /// Seconds of pgbench per point.
    pub seconds: u64,
    /// Points: per form, trim `dynamic` first.
    pub points: Vec<Point>,
    /// Per form and trim setting.
    pub cliff: Vec<Cliff>,
    /// The command line.
    pub command: String,
}

fn scan_node(c: &Cluster, form: &str) -> Result<String> {
    let out = c.sql(&format!("{}EXPLAIN (FORMAT JSON) {SEED004_QUERY}", set_sql(form)), &[])?;
    let v: serde_json::Value = serde_json::from_str(out.trim())?;
    let mut found = Vec::new();
    fn walk(p: &serde_json::Value, found: &mut Vec<String>) {
        if let Some(t) = p.get("Node Type").and_then(|t| t.as_str())
            && t.contains("Scan")
            && !found.iter().any(|f| f == t)
        {
            found.push(t.to_string());
        }
        if let Some(ps) = p.get("Plans").and_then(|p| p.as_array()) {
            ps.iter().for_each(|q| walk(q, found));
        }
    }
    walk(&v[0]["Plan"], &mut found);
    Ok(found.join("+"))
}

/// Minor faults a query of a backend that starts as a pgbench client's does, since the cliff
/// depends on the backend's heap layout: the form's settings in `PGOPTIONS` (not `SET`), the
/// seed's query its first statement, no other statement or function called in it; the faults
/// are read from `/proc/PID/stat`, the pid from `pg_stat_activity` by another backend.
fn faults_a_query(c: &Cluster, form: &str) -> Result<f64> {
    let app = format!("hotloops-count-{}", std::process::id());
    let mut s = c.session_with(&[("PGOPTIONS", &pgoptions(form)), ("PGAPPNAME", &app)])?;
    let pid = c.backend_pid(&app)?;
    // Warm the backend's caches so the count is the steady state.
    s.query(&SEED004_QUERY.repeat(20))?;
    let before = super::cluster::minflt(pid)?;
    s.query(&SEED004_QUERY.repeat(FAULT_QUERIES))?;
    Ok((super::cluster::minflt(pid)? - before) / FAULT_QUERIES as f64)
}

/// The form's settings as `PGOPTIONS` (`-c NAME=VALUE ...`).
fn pgoptions(form: &str) -> String {
    form_settings(form).iter().map(|(k, v)| format!("-c {k}={v}")).collect::<Vec<_>>().join(" ")
}

fn pgbench(inst: &Install, c: &Cluster, script: &Path, seconds: u64, form: &str) -> Result<f64> {
    super::bench::pgbench_tps(inst, c, script, Some(&pgoptions(form)), "simple", 1, seconds, form)
}

/// Run the sweep over `grid` partition counts.
pub fn run(inst: &Install, so: &Path, grid: &[u32], seconds: u64) -> Result<SweepReport> {
    if !inst.bin("pgbench").is_file() {
        return Err(super::UsageError(format!("pgbench is missing from {}: install {}", inst.bindir.display(), super::PACKAGES)).into());
    }
    // Both servers up at once, so each point's pgbench runs alternate between them (REPS each,
    // median TPS): the machine's drift hits both settings alike.
    let trims = ["dynamic", "fixed"];
    let mut clusters = Vec::new();
    for trim in trims {
        let mut c = Cluster::init(inst, so)?;
        if trim == "fixed" {
            c.env.push(("MALLOC_TRIM_THRESHOLD_".into(), TRIM_FIXED.into()));
        }
        c.start(&super::seed004_settings())?;
        c.sql(&extension_sql(), &[])?;
        std::fs::write(c.root().join("seed004-query.sql"), SEED004_QUERY)?;
        clusters.push(c);
    }
    let mut points = Vec::new();
    for &n in grid {
        for c in &clusters {
            c.sql(SEED004_PARTITIONS, &[("partitions", n.to_string())]).context("loading sql/seed004-partitions.sql")?;
        }
        for (form, _) in FORMS {
            let mut tps = [Vec::new(), Vec::new()];
            let mut scans = Vec::new();
            for c in &clusters {
                scans.push(scan_node(c, form)?);
            }
            for _ in 0..REPS {
                for (k, c) in clusters.iter().enumerate() {
                    tps[k].push(pgbench(inst, c, &c.root().join("seed004-query.sql"), seconds, form)?);
                }
            }
            for (k, c) in clusters.iter().enumerate() {
                let faults = faults_a_query(c, form)?;
                let p = Point {
                    partitions: n,
                    trim: trims[k].into(),
                    form: form.into(),
                    tps: median(&tps[k]),
                    minflt_per_txn: faults,
                    scan: scans[k].clone(),
                };
                crate::say!("partitions {n:>3} {form:<10} trim {}: {:.0} tps, {:.2} minor faults a transaction ({})", trims[k], p.tps, p.minflt_per_txn, p.scan);
                points.push(p);
            }
        }
    }
    drop(clusters);
    points.sort_by_key(|p| (p.form != INDEX_ONLY, p.trim != "dynamic"));
    let cliff = FORMS
        .iter()
        .flat_map(|(f, _)| trims.iter().map(|t| Cliff { form: f.to_string(), trim: t.to_string(), partitions: cliff_of(&points, f, t) }))
        .collect();
    Ok(SweepReport {
        server_version: inst.version.clone(),
        host_cpu: cpu_name(),
        seconds,
        cliff,
        points,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    })
}

/// The first partition count (in sweep order) whose `form`, trim-`trim` point has >= 1 minor
/// fault a transaction.
pub fn cliff_of(points: &[Point], form: &str, trim: &str) -> Option<u32> {
    points.iter().find(|p| p.form == form && p.trim == trim && p.minflt_per_txn >= crate::study::alloc_churn::CLIFF_FAULTS).map(|p| p.partitions)
}

/// The sweep as Markdown.
pub fn markdown(r: &SweepReport) -> String {
    let mut s = format!(
        "# hotloops pg --sweep-partitions: seed 004 on the real server\n\n- server: {}\n- host: {}\n- pgbench: 1 client, simple protocol, {REPS} runs of {} s a point alternating between the settings, median TPS; faults: /proc/PID/stat of a backend started as pgbench's (the form in PGOPTIONS, the query its first statement) over {FAULT_QUERIES} queries after 20\n- trim fixed: MALLOC_TRIM_THRESHOLD_={TRIM_FIXED} in the server's environment\n- command: `{}`\n\n",
        r.server_version, r.host_cpu, r.seconds, r.command
    );
    s += &markdown_table(r);
    s
}

/// The cliffs and the per-point table.
fn markdown_table(r: &SweepReport) -> String {
    let show = |c: Option<u32>| c.map(|n| format!("{n} partitions")).unwrap_or_else(|| "none in the grid".into());
    let mut s = String::new();
    for (form, _) in FORMS {
        let c = |t: &str| r.cliff.iter().find(|c| c.form == form && c.trim == t).and_then(|c| c.partitions);
        if r.points.iter().any(|p| p.form == form) {
            s += &format!("Cliff, {form} scans (first point with >= 1 minor fault a transaction): trim dynamic {}, trim fixed {}.\n\n", show(c("dynamic")), show(c("fixed")));
        }
    }
    s += "| partitions | form | scan | TPS (trim dynamic) | faults/txn | TPS (trim fixed) | faults/txn | fixed/dynamic TPS |\n|---:|---|---|---:|---:|---:|---:|---:|\n";
    for d in r.points.iter().filter(|p| p.trim == "dynamic") {
        if let Some(f) = r.points.iter().find(|p| p.trim == "fixed" && p.partitions == d.partitions && p.form == d.form) {
            s += &format!("| {} | {} | {} | {:.0} | {:.2} | {:.0} | {:.2} | {:.2} |\n", d.partitions, d.form, d.scan, d.tps, d.minflt_per_txn, f.tps, f.minflt_per_txn, f.tps / d.tps);
        }
    }
    s
}

/// Write pg-sweep.json and pg-sweep.md into `out`.
pub fn write(r: &SweepReport, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    super::bench::write_pair(out, "pg-sweep", serde_json::to_string_pretty(r)?, markdown(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(n: u32, trim: &str, f: f64) -> Point {
        Point { partitions: n, trim: trim.into(), form: INDEX_ONLY.into(), tps: 1000.0, minflt_per_txn: f, scan: "Index Only Scan".into() }
    }

    #[test]
    fn cliff_is_the_first_point_with_a_fault_a_transaction() {
        let mut p = vec![pt(3, "dynamic", 0.1), pt(4, "dynamic", 4.1), pt(10, "dynamic", 22.0), pt(3, "fixed", 0.0), pt(100, "fixed", 0.2)];
        // The plain form crosses later: its own cliff, not the index-only one's.
        p.extend([pt(4, "dynamic", 0.5), pt(6, "dynamic", 3.0)].map(|x| Point { form: PLAIN.into(), scan: "Index Scan".into(), ..x }));
        assert_eq!(cliff_of(&p, INDEX_ONLY, "dynamic"), Some(4));
        assert_eq!(cliff_of(&p, PLAIN, "dynamic"), Some(6));
        assert_eq!(cliff_of(&p, INDEX_ONLY, "fixed"), None);
        let cliff = vec![
            Cliff { form: INDEX_ONLY.into(), trim: "dynamic".into(), partitions: Some(4) },
            Cliff { form: INDEX_ONLY.into(), trim: "fixed".into(), partitions: None },
            Cliff { form: PLAIN.into(), trim: "dynamic".into(), partitions: Some(6) },
        ];
        let r = SweepReport { server_version: "v".into(), host_cpu: "c".into(), seconds: 1, points: p, cliff, command: "x".into() };
        let md = markdown(&r);
        assert!(md.contains("index-only scans (first point with >= 1 minor fault a transaction): trim dynamic 4 partitions, trim fixed none in the grid"), "{md}");
        assert!(md.contains("index scans (first point with >= 1 minor fault a transaction): trim dynamic 6 partitions"), "{md}");
        assert!(md.contains("| 3 | index-only | Index Only Scan | 1000 | 0.10 | 1000 | 0.00 | 1.00 |"), "{md}");
    }
}
