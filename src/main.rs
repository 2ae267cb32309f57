//! The `hotloops` command: list studies, show and diff kernel asm, run kernels (for callgrind
//! and perf), count them, and write and compare reports.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use hotloops::study::{self, Size, UnknownName};
use hotloops::{asm, measure, report};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "hotloops", version, about = "PostgreSQL index-scan hot loops as paired variants: asm, instructions, counters, wall clock")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Studies, their variant ids, and the seed claims with their numbers.
    List,
    /// Normalised asm of one kernel (the checked-in snapshot), or a diff of two variants.
    Asm {
        /// A variant id (`local-index/store-each`), or a study name with --diff.
        target: String,
        /// Diff two variants of the study (ids or short names: `store-each local`).
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        diff: Option<Vec<String>>,
        /// Regenerate with cargo-show-asm instead of reading asm-snapshots/.
        #[arg(long)]
        fresh: bool,
    },
    /// Run one kernel over a case (what callgrind and perf measure).
    Run {
        /// Variant id.
        id: String,
        /// Case name (default: the study's first).
        #[arg(long)]
        case: Option<String>,
        /// Workload size.
        #[arg(long, value_enum, default_value = "quick")]
        size: Size,
        /// Runs.
        #[arg(long, default_value_t = 1)]
        reps: u32,
    },
    /// Exact instructions of one kernel on one case (callgrind, toggled on the kernel symbol).
    Instructions {
        /// Variant id.
        id: String,
        /// Case name (default: the study's first).
        #[arg(long)]
        case: Option<String>,
        /// Workload size (the report and the instruction benches count at test size).
        #[arg(long, value_enum, default_value = "test")]
        size: Size,
    },
    /// Count one kernel under the counter groups for this CPU (generic, vendor, software).
    Counters {
        /// Variant id.
        id: String,
        /// Case name (default: the study's first).
        #[arg(long)]
        case: Option<String>,
        /// Workload size.
        #[arg(long, value_enum, default_value = "quick")]
        size: Size,
        /// Runs of the case while counting.
        #[arg(long, default_value_t = 20)]
        runs: u32,
    },
    /// The main job: every study's variants against their baselines, with provenance.
    Report {
        /// Only these studies (repeatable).
        #[arg(long)]
        study: Vec<String>,
        /// A short run for PR review.
        #[arg(long)]
        quick: bool,
        /// Output directory.
        #[arg(long, default_value = "target/hotloops-report")]
        out: PathBuf,
        /// Fail instead of going on without: `instructions` (valgrind) or `counters` (a PMU).
        #[arg(long, value_parser = ["instructions", "counters"])]
        require: Vec<String>,
        /// Skip callgrind.
        #[arg(long)]
        no_instructions: bool,
        /// Measuring processes per wall-clock pair (pooled with a hierarchical bootstrap).
        #[arg(long, default_value_t = 1)]
        processes: usize,
        /// Wall-clock budget per pair and process, in ms (default: 1000 quick, 10000 full).
        #[arg(long)]
        budget_ms: Option<u64>,
        /// Workload size, overriding --quick (test: seconds-long smoke runs).
        #[arg(long, value_enum, hide = true)]
        size: Option<Size>,
    },
    /// Merge reports from several hosts into one Markdown table and SVG per study.
    Compare {
        /// Report files (`report.json`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, default_value = "target/hotloops-compare")]
        out: PathBuf,
    },
    /// A study's sweep over a workload parameter (alloc-churn: partitions 1..=200), with an SVG.
    Sweep {
        /// Study name (`alloc-churn`).
        study: String,
        /// The shorter grid.
        #[arg(long)]
        quick: bool,
        /// Output directory.
        #[arg(long, default_value = "target/hotloops-sweep")]
        out: PathBuf,
    },
    /// Real PostgreSQL: the tid-batch variants inside the installed server (hl_btree extension,
    /// a throwaway cluster), or with --sweep-partitions seed 004's pgbench sweep.
    Pg(hotloops::pgserver::PgArgs),
    /// (internal) Trials of one wall-clock pair, as JSON, for `report --processes`.
    #[command(hide = true)]
    Paired {
        study: String,
        #[arg(long)]
        case_index: usize,
        #[arg(long)]
        a: usize,
        #[arg(long)]
        b: usize,
        #[arg(long, value_enum)]
        size: Size,
        #[arg(long)]
        budget_ms: u64,
        #[arg(long)]
        block_us: u64,
    },
    /// (internal) alloc-churn's processes of their own: `serve` (one variant's backend for the
    /// report), `point` (one sweep point), `sweep` (the whole sweep), `probe`, `sequence`.
    #[command(hide = true, name = "alloc-churn-worker", disable_help_flag = true)]
    AllocChurnWorker {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<UnknownName>().is_some() || e.chain().any(|c| c.downcast_ref::<UnknownName>().is_some()) {
                ExitCode::from(2)
            } else if e.downcast_ref::<UsageError>().is_some() || e.chain().any(|c| c.downcast_ref::<hotloops::pgserver::UsageError>().is_some()) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Bad input that is not an unknown name (a corrupt report file): exit 2.
#[derive(Debug)]
struct UsageError(String);
impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for UsageError {}

fn pick_case(study: &dyn study::Study, size: Size, name: Option<&str>) -> Result<Box<dyn study::Case>> {
    let mut cases = study.cases(size);
    match name {
        None => Ok(cases.remove(0)),
        Some(n) => {
            let valid: Vec<String> = cases.iter().map(|c| c.name()).collect();
            match valid.iter().position(|c| c == n) {
                Some(i) => Ok(cases.remove(i)),
                None => Err(UnknownName { kind: "case", given: n.into(), valid }.into()),
            }
        }
    }
}

fn resolve_variant(study: &dyn study::Study, name: &str) -> Result<String> {
    let info = study.info();
    let full = if name.contains('/') { name.to_string() } else { format!("{}/{name}", info.name) };
    if info.index_of(&full).is_some() {
        Ok(full)
    } else {
        Err(UnknownName { kind: "variant id", given: name.into(), valid: info.variants.iter().map(|v| v.id.to_string()).collect() }.into())
    }
}

fn dispatch(cmd: Cmd) -> Result<()> {
    match cmd {
        Cmd::Pg(args) => hotloops::pgserver::run(&args),
        Cmd::List => {
            for s in study::STUDIES {
                let i = s.info();
                println!("{}  (feature `{}`: pipeline switches {} -> {})", i.name, i.feature, i.baseline, i.patched);
                println!("  seed:   {}", i.seed);
                println!("  claim:  {}", i.claim);
                println!("  seed numbers: {}", i.seed_numbers);
                for v in i.variants {
                    let tag = if v.id == i.baseline { " (baseline)" } else if v.id == i.patched { " (patched)" } else { "" };
                    println!("  {}{tag}\n      {}  [symbol {}]", v.id, v.summary, study::symbol_of(v.id));
                }
                println!();
            }
            Ok(())
        }
        Cmd::Asm { target, diff, fresh } => {
            let get = |id: &str| -> Result<String> {
                if fresh {
                    asm::check_tool()?;
                    asm::generate(id)
                } else {
                    asm::read_snapshot(&asm::snapshot_dir(), id)
                }
            };
            match diff {
                None => {
                    study::variant(&target)?;
                    print!("{}", get(&target)?);
                }
                Some(ab) => {
                    let s = study::study(&target).or_else(|e| study::variant(&target).map(|(s, _)| s).map_err(|_| e))?;
                    let a = resolve_variant(s, &ab[0])?;
                    let b = resolve_variant(s, &ab[1])?;
                    let d = asm::unified_diff(&a, &get(&a)?, &b, &get(&b)?);
                    if d.is_empty() {
                        println!("{a} and {b} compile to the same normalised asm");
                    } else {
                        print!("{d}");
                    }
                }
            }
            Ok(())
        }
        Cmd::Run { id, case, size, reps } => {
            let (s, v) = study::variant(&id)?;
            study::dedicate_process(&id);
            let mut c = pick_case(s, size, case.as_deref())?;
            let mut d = 0;
            for _ in 0..reps {
                d = std::hint::black_box(c.run(v)?);
            }
            println!("{id} on {}: {} {} per run, digest {d:#018x}", c.name(), c.items(), s.info().unit);
            Ok(())
        }
        Cmd::Instructions { id, case, size } => {
            let (s, _) = study::variant(&id)?;
            let c = pick_case(s, size, case.as_deref())?;
            measure::callgrind::check_valgrind()?;
            let n = measure::callgrind::count(&std::env::current_exe()?, &id, &c.name(), size, c.items())?;
            let unit = s.info().unit;
            println!("{id} on {} ({} {unit}s): {} instructions inclusive ({:.3}/{unit}), {} in its own code ({:.3}/{unit})",
                n.case, n.items, n.inclusive, n.inclusive_per_item(), n.own, n.own_per_item());
            Ok(())
        }
        Cmd::Counters { id, case, size, runs } => {
            let (s, v) = study::variant(&id)?;
            study::dedicate_process(&id);
            let mut c = pick_case(s, size, case.as_deref())?;
            let cpu = report::provenance::cpu();
            let m = measure::counters::Microarch::detect(&cpu);
            let core = measure::pin_current_thread();
            println!("{id} on {} ({} {}/run), {runs} runs; CPU {} [{m}], pinned core {:?}", c.name(), c.items(), s.info().unit, cpu.name, core);
            if let Err(why) = measure::counters::hardware_available() {
                println!("hardware counters: {why}\n(going on with the software counters)");
            }
            let rep = measure::counters::measure(c.as_mut(), v, runs, &measure::counters::groups_for(m))?;
            println!("{:<10} {:<32} {:>16} {:>14} {:>9}", "group", "event", "count", format!("per {}", s.info().unit), "running");
            for x in &rep.values {
                let running = if x.time_enabled_ns == 0 { 1.0 } else { x.time_running_ns as f64 / x.time_enabled_ns as f64 };
                println!("{:<10} {:<32} {:>16.0} {:>14.4} {:>8.1}%", x.group, x.event, x.count, x.per_item, running * 100.0);
            }
            for u in &rep.unavailable {
                println!("{:<10} {:<32} not counted: {}", u.group, u.event, u.reason);
            }
            Ok(())
        }
        Cmd::Report { study, quick, out, require, no_instructions, processes, budget_ms, size } => {
            let opts = report::run::Options {
                studies: study,
                quick,
                out: out.clone(),
                require_instructions: require.iter().any(|r| r == "instructions"),
                require_counters: require.iter().any(|r| r == "counters"),
                no_instructions,
                processes,
                budget: budget_ms.map(Duration::from_millis),
                size,
            };
            let (r, files) = report::run::run(&opts)?;
            print!("{}", report::markdown(&r));
            eprintln!("wrote:");
            for f in files {
                eprintln!("  {}", f.display());
            }
            Ok(())
        }
        Cmd::Compare { files, out } => {
            let (md, svgs) = report::compare::compare(&files).map_err(|e| anyhow::Error::new(UsageError(format!("{e:#}"))))?;
            report::check_writable(&out)?;
            let written = report::compare::write(&out, &md, &svgs)?;
            print!("{md}");
            eprintln!("wrote:");
            for f in written {
                eprintln!("  {}", f.display());
            }
            Ok(())
        }
        Cmd::Paired { study: name, case_index, a, b, size, budget_ms, block_us } => {
            let s = study::study(&name)?;
            let mut cases = s.cases(size);
            if case_index >= cases.len() {
                bail!("case index {case_index} out of range ({} cases)", cases.len());
            }
            measure::pin_current_thread();
            let mut cfg = if size == Size::Full { measure::wallclock::PairConfig::full() } else { measure::wallclock::PairConfig::quick() };
            cfg.budget = Duration::from_millis(budget_ms);
            cfg.block = Duration::from_micros(block_us);
            let t = measure::wallclock::run_trials(cases[case_index].as_mut(), a, b, &cfg, &mut |_| {})?;
            println!("{}", serde_json::to_string(&t).context("serialising trials")?);
            Ok(())
        }
        Cmd::Sweep { study: name, quick, out } => {
            study::study(&name)?;
            if name != "alloc-churn" {
                return Err(UnknownName { kind: "study with a sweep", given: name, valid: vec!["alloc-churn".into()] }.into());
            }
            use hotloops::study::alloc_churn::{SweepConfig, write_sweep};
            report::check_writable(&out)?;
            let cfg = if quick { SweepConfig::quick() } else { SweepConfig::full() };
            let bar = indicatif::ProgressBar::new((cfg.grid.len() * cfg.variants.len()) as u64);
            let files = write_sweep(&out, &cfg, &mut |_| bar.inc(1))?;
            bar.finish_and_clear();
            print!("{}", std::fs::read_to_string(out.join("sweep.md")).unwrap_or_default());
            eprintln!("wrote:");
            for f in files {
                eprintln!("  {}", f.display());
            }
            Ok(())
        }
        Cmd::AllocChurnWorker { args } => hotloops::study::alloc_churn::worker_main(&args),
    }
}
