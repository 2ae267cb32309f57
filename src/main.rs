// The `hotloops` command: list studies, show and diff kernel asm, run kernels (for callgrind
// and perf), count them, and write and compare reports.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use hotloops::host::worker::{BadRequest, Request, Server};
use hotloops::host::{Unavailable, Usage};
use hotloops::host::StdoutClosed;
use hotloops::{out, outln, say};
use hotloops::study::alloc_churn::sweep::SweepConfig;
use hotloops::study::{self, Size, UnknownName};
use hotloops::{asm, measure, report};
use std::path::{Path, PathBuf};
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
    /// Studies, their variant ids, and the seed claims with their numbers; `--cases` lists
    /// every study's case ids (what `--case` takes) without building them.
    List {
        /// Print the case catalogue instead.
        #[arg(long)]
        cases: bool,
        /// Print the PostgreSQL servers instead: which are installed, where, how built.
        #[arg(long, conflicts_with = "cases")]
        servers: bool,
    },
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
        /// A C kernel under this C configuration (gcc12-pg, gcc12-upstream, gcc12-strict,
        /// clang19-pg): the row `<id>@<config>`.
        #[arg(long)]
        config: Option<String>,
    },
    /// Run one kernel over a case (what callgrind and perf measure).
    Run {
        /// Variant id.
        id: String,
        /// Case id, repeatable: each case is built and run in turn (default: the study's
        /// first; `hotloops list --cases` lists them).
        #[arg(long)]
        case: Vec<String>,
        /// Workload size.
        #[arg(long, value_enum, default_value = "quick")]
        size: Size,
        /// Runs (1 to 1,000,000).
        #[arg(long, default_value_t = 1, value_parser = hotloops::host::in_range::<u32>(1, 1_000_000))]
        reps: u32,
    },
    /// Exact instructions of one kernel on one case (callgrind, toggled on the kernel symbol).
    Instructions {
        /// Variant id.
        id: String,
        /// Case id (default: the study's first; `hotloops list --cases` lists them).
        #[arg(long)]
        case: Option<String>,
        /// Workload size (the report and the instruction benches count at test size).
        #[arg(long, value_enum, default_value = "test")]
        size: Size,
        /// A C kernel under this C configuration (the row `<id>@<config>`).
        #[arg(long)]
        config: Option<String>,
    },
    /// Count one kernel under the counter groups for this CPU (generic, vendor, software).
    Counters {
        /// Variant id.
        id: String,
        /// Case id (default: the study's first; `hotloops list --cases` lists them).
        #[arg(long)]
        case: Option<String>,
        /// Workload size.
        #[arg(long, value_enum, default_value = "quick")]
        size: Size,
        /// Runs of the case while counting (1 to 1,000,000).
        #[arg(long, default_value_t = 20, value_parser = hotloops::host::in_range::<u32>(1, 1_000_000))]
        runs: u32,
    },
    /// The main job: every study's variants against their baselines, with provenance, in about a
    /// minute and a half (two code layouts, 0.5 s a pair, the gcc12-pg C rows); `--full` is the
    /// hour-long run.
    Report {
        /// Only these studies (repeatable).
        #[arg(long)]
        study: Vec<String>,
        /// The hour-long run: full size, five code layouts, 10 s a pair, every built C
        /// configuration.
        #[arg(long)]
        full: bool,
        /// The default run (accepted so that older command lines still work).
        #[arg(long, conflicts_with = "full")]
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
        /// Skip the static core model block (llvm-mca) of each study.
        #[arg(long)]
        no_model: bool,
        /// Measuring processes per wall-clock pair in each code layout (1 to 64; pooled with a
        /// hierarchical bootstrap: layouts, processes, trials).
        #[arg(long, default_value_t = 1, value_parser = hotloops::host::in_range::<u16>(1, 64))]
        processes: u16,
        /// Wall-clock budget per pair and process round, in ms, split over the code layouts
        /// (10 to 3,600,000; default: 500, 10000 with --full).
        #[arg(long, value_parser = hotloops::host::in_range::<u64>(10, 3_600_000))]
        budget_ms: Option<u64>,
        /// Workload size, overriding the default or --full (test: seconds-long smoke runs).
        #[arg(long, value_enum, hide = true)]
        size: Option<Size>,
        /// Code layouts to pool each pair over, comma-separated (natural, at-0, at-16, at-32,
        /// at-48; default: at-0,at-48, all five with --full).
        #[arg(long, value_delimiter = ',')]
        layouts: Option<Vec<String>>,
        /// Refuse to write the report (exit 1) if any wall-clock pair was measured on a busy
        /// host (its thread ran less than 90% of the wall time).
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        pg: report::pg::PgReportArgs,
        /// C configurations whose C rows to run (repeatable; default: gcc12-pg, every
        /// configuration built into this binary with --full).
        #[arg(long)]
        config: Vec<String>,
        /// Replace files in --out of the names this command writes that another command, or no
        /// command, wrote (refused, naming them, without it).
        #[arg(long)]
        force: bool,
    },
    /// One pair over every code layout: is the effect the patch or where the linker put the
    /// kernels? A table and a plot of the ratio per layout, with each kernel's offset mod 64.
    Layout {
        /// A study (its pipeline variant against its baseline) or a variant id.
        target: String,
        /// Case id (default: the study's first; `hotloops list --cases`).
        #[arg(long)]
        case: Option<String>,
        /// Measuring processes per layout (1 to 64).
        #[arg(long, default_value_t = 2, value_parser = hotloops::host::in_range::<u16>(1, 64))]
        processes: u16,
        /// Wall-clock budget per pair, layout and process, ms (10 to 600,000).
        #[arg(long, default_value_t = 500, value_parser = hotloops::host::in_range::<u64>(10, 600_000))]
        budget_ms: u64,
        /// Workload size.
        #[arg(long, value_enum, default_value = "quick")]
        size: Size,
        /// The quick workload (`--size quick`, the default), as `report --quick` and `pg --quick` take it.
        #[arg(long, conflicts_with = "size")]
        quick: bool,
        /// Only these layouts, comma-separated (default: all).
        #[arg(long, value_delimiter = ',')]
        layouts: Vec<String>,
        /// Output directory (layout.md, layout.json, layout.svg).
        #[arg(long, default_value = "target/hotloops-layout")]
        out: PathBuf,
        /// Replace files in --out of the names this command writes that another command, or no
        /// command, wrote (refused, naming them, without it).
        #[arg(long)]
        force: bool,
    },
    /// Re-draw a saved report.json's report.md, plots and report.html with this build's
    /// renderer; nothing is measured (an hour-long full report need not be re-run for a
    /// rendering fix).
    Render {
        /// A report.json.
        file: PathBuf,
        /// Where to write (default: beside the file).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also replace a different report's files in --out, or files of those names that
        /// another command, or no command, wrote (refused, naming them, without it).
        #[arg(long)]
        force: bool,
    },
    /// Merge reports from several hosts into one Markdown table and SVG per study; with
    /// --baseline OLD.json, one NEW.json of the same host against it (before and after a change).
    Compare {
        /// Report files (`report.json`); with --baseline, the one new report.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, default_value = "target/hotloops-compare")]
        out: PathBuf,
        /// A column label per file, in file order (repeatable; default: host and microarchitecture).
        #[arg(long)]
        label: Vec<String>,
        /// The old report of the same host and size: each pair's new time ratio over its old one,
        /// with a bootstrap interval from both reports' raw trials.
        #[arg(long, value_name = "OLD.json")]
        baseline: Option<PathBuf>,
        /// Replace files in --out of the names this command writes that another command, or no
        /// command, wrote (refused, naming them, without it).
        #[arg(long)]
        force: bool,
    },
    /// A study's sweep over a workload parameter (alloc-churn: partitions 1..=200), with an SVG.
    Sweep {
        /// Study name (`alloc-churn`).
        study: String,
        /// The shorter grid.
        #[arg(long)]
        quick: bool,
        /// Scan forms to sweep (alloc-churn: `index-only`, the planner's plan, and `index`,
        /// plain Index Scans); repeatable, default both.
        #[arg(long = "form", value_name = "FORM")]
        forms: Vec<String>,
        /// Output directory.
        #[arg(long, default_value = "target/hotloops-sweep")]
        out: PathBuf,
        /// Replace files in --out of the names this command writes that another command, or no
        /// command, wrote (refused, naming them, without it).
        #[arg(long)]
        force: bool,
    },
    /// One card per seed claim from saved results: every view (Rust model, C kernels, code
    /// layouts, static model, real server, instructions) on a line, and the conclusion the
    /// stated rule derives; a missing view names the command that produces it (none is run).
    Seed {
        /// The seed: 000, 001, 002 or 004.
        seed: String,
        /// A saved report.json, model.json or `hotloops pg` JSON file, or a directory (its
        /// *.json and pg/*.json); repeatable (default: target/hotloops-report).
        #[arg(long = "report", value_name = "PATH")]
        reports: Vec<PathBuf>,
        /// text (the terminal) or md (pastes into a mail or PR).
        #[arg(long, value_parser = ["text", "md"], default_value = "text")]
        format: String,
        /// Conclude from views of several hosts (CPUs) at once; without it a card whose views
        /// come from more than one host names each view's host and draws no conclusion.
        #[arg(long)]
        mixed_hosts: bool,
    },
    /// Real PostgreSQL: the tid-batch variants inside the installed server (hl_btree extension,
    /// a throwaway cluster), or with --sweep-partitions seed 004's pgbench sweep; `pg build`
    /// builds servers from source with and without patches, `pg ab` compares two of them.
    Pg(PgCmd),
    /// Static per-core predictions of each kernel's hot loop (llvm-mca 19), timed on this host.
    Model {
        /// A study or variant id (default: every study).
        target: Option<String>,
        /// CPU models, comma-separated (default: skylake,icelake-server,sapphirerapids,alderlake,znver3,znver4 and, for the arm64 C kernels, neoverse-n1,neoverse-v1,neoverse-v2,ampere1,apple-m1).
        #[arg(long)]
        cpu: Option<String>,
        /// JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// Skip the loop-only timing on this host.
        #[arg(long)]
        no_measure: bool,
        /// C configurations whose C rows to model (repeatable; default: every configuration
        /// built into this binary).
        #[arg(long)]
        config: Vec<String>,
    },
    /// (internal) Trials of one wall-clock pair, as JSON: what a `report --processes` worker
    /// measures, from the command line.
    #[command(hide = true)]
    Paired {
        /// Baseline variant id.
        a: String,
        /// Variant id of the same study.
        b: String,
        /// Case id.
        #[arg(long)]
        case: String,
        #[arg(long, value_enum)]
        size: Size,
        /// Wall-clock budget, ms (1 to 3,600,000).
        #[arg(long, value_parser = hotloops::host::in_range::<u64>(1, measure::wallclock::MAX_BUDGET_MS as u128))]
        budget_ms: u64,
        /// Target block length, us (1 to 10,000,000).
        #[arg(long, value_parser = hotloops::host::in_range::<u64>(1, measure::wallclock::MAX_BLOCK_US as u128))]
        block_us: u64,
    },
    /// (internal) A fresh measuring process: one JSON request on stdin (trials, serve, point,
    /// probe, sequence), JSON replies on stdout.
    #[command(hide = true)]
    Worker,
}

/// `hotloops pg`: the measurements in the installed servers, or a subcommand.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
struct PgCmd {
    #[command(subcommand)]
    sub: Option<PgSub>,
    #[command(flatten)]
    args: hotloops::pgserver::PgArgs,
}

#[derive(Subcommand)]
enum PgSub {
    /// PostgreSQL built from source (pinned Debian source package, or your tree), with
    /// patches applied in order, in two or more code layouts; cached, listed by `list --servers`.
    Build(hotloops::pgserver::build::BuildArgs),
    /// Two servers (e.g. `18` and `18+patches/x.patch`) on one workload, statements interleaved
    /// with a layout A/A, until the interval reaches --precision: one verdict.
    Ab(hotloops::pgserver::ab::AbArgs),
    /// A seed settled by its own patch: the seed's patches built over stock 18.6 and measured
    /// with `pg ab` on the thread's benchmark at the claim's precision (what the cards read).
    Seed(hotloops::pgserver::seedrun::SeedArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The documentation test (tests/docs.rs) checks that every command the READMEs show parses:
    // with HOTLOOPS_PARSE_ONLY set, a command line that parses runs nothing.
    if std::env::var_os("HOTLOOPS_PARSE_ONLY").is_some() {
        return ExitCode::SUCCESS;
    }
    // SIGINT/SIGTERM: temporaries removed, children stopped, exit 130 (host::cleanup). The
    // handler is installed by the first temporary or child registered, before it is created;
    // not here: its thread would make `hotloops run` multi-threaded, and glibc's malloc then
    // takes its locking path, which the instruction counts of kernels that allocate would see.
    // Everything prints through the host's helper (say!, out!, outln!), which cannot panic on a
    // closed stream. A print that panicked anyway (a dependency's println!) stopped the work
    // midway: a failure (exit 1, after unwinding has dropped its temporaries and children),
    // never the quiet success of a closed stdout, and without a panic message.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.payload_as_str().is_some_and(is_print_failure) {
            default_hook(info);
        }
    }));
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(cli.cmd))) {
        Ok(r) => r,
        Err(p) if p.downcast_ref::<String>().is_some_and(|m| is_print_failure(m)) => {
            Err(anyhow::anyhow!("stopped: {}", p.downcast_ref::<String>().map(String::as_str).unwrap_or("a print failed")))
        }
        Err(p) => std::panic::resume_unwind(p),
    };
    // A child killed by the signal handler fails its caller, and a run may end while the
    // handler cleans up: either way, let the handler finish and exit 130.
    hotloops::host::cleanup::wait_if_interrupted();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed our stdout has what it wanted: end quietly.
        Err(e) if e.is::<StdoutClosed>() => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: {e:#}");
            if is_usage(&e) { ExitCode::from(2) } else { ExitCode::FAILURE }
        }
    }
}

/// The message std's `print!` family panics with when stdout or stderr cannot be written.
fn is_print_failure(m: &str) -> bool {
    m.starts_with("failed printing to stdout") || m.starts_with("failed printing to stderr")
}

/// Exit 2: bad input (an unknown name, a corrupt file, a malformed worker request, an `--out`
/// that is a file) or what the command needs and this host lacks (valgrind, llvm-mca, a
/// PMU, a C configuration not built, a case the file system cannot run), whichever command
/// meets it: the message names it and what to do. Anything else failing is exit 1.
fn is_usage(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<UnknownName>()
            || c.is::<Usage>()
            || c.is::<Unavailable>()
            || c.is::<BadRequest>()
            || c.is::<study::CaseUnavailable>()
            || c.is::<hotloops::model::Usage>()
            || c.is::<hotloops::pgserver::UsageError>()
    }) || e.downcast_ref::<UnknownName>().is_some()
        || e.downcast_ref::<BadRequest>().is_some()
}

/// `hotloops worker`: one request on stdin, answered on stdout; a failure is answered too
/// (an error reply), then the process exits non-zero.
fn worker() -> Result<()> {
    use hotloops::report::sweep;
    use hotloops::study::alloc_churn::{self, isolation, sweep::PointConfig};
    let mut server = Server::stdio();
    let result = (|| -> Result<()> {
        match server.request()? {
            Request::Serve { variant, accounts, partitions, queries, key } => isolation::serve(&mut server, &variant, accounts, partitions, queries, key),
            other => {
                // Nothing more to read: exit as soon as the client is gone.
                server.watch_parent();
                match other {
                    Request::Trials { a, b, case, size, budget_ms, block_us } => {
                        let size = measure::wallclock::size_named(&size)?;
                        server.ok(&measure::wallclock::trials_by_id(&a, &b, &case, size, Duration::from_millis(budget_ms), Duration::from_micros(block_us))?)
                    }
                    Request::CaseTrials { case, size, pairs, budget_ms, block_us, min_trials, heap_pad, features } => {
                        let mine = study::features_enabled();
                        if features != mine {
                            anyhow::bail!(
                                "this binary ({}) was built with features [{}], the client with [{}]: rebuild with `cargo build --release --bins` and the same --features",
                                std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_default(),
                                mine.join(","),
                                features.join(",")
                            );
                        }
                        let size = measure::wallclock::size_named(&size)?;
                        let budget = Duration::from_millis(budget_ms);
                        server.ok(&measure::wallclock::case_trials_by_id(&case, size, &pairs, budget, Duration::from_micros(block_us), min_trials, heap_pad)?)
                    }
                    Request::Point { variant, partitions, form, accounts, key, target_ms, min_queries, max_queries } => {
                        let v = alloc_churn::variant_row(&variant)?;
                        let form = alloc_churn::ScanForm::parse(&form)?;
                        server.ok(&sweep::measure_point(v, partitions, form, &PointConfig { accounts, key, target_ms, min_queries, max_queries })?)
                    }
                    Request::Probe { free_mmap } => server.ok(&isolation::probe(free_mmap)?),
                    Request::Sequence { variants, partitions, dedicate } => server.ok(&isolation::sequence(&variants, partitions, dedicate.as_deref())?),
                    Request::Serve { .. } => unreachable!("handled above"),
                }
            }
        }
    })();
    if let Err(e) = &result {
        let _ = server.error(&format!("{e:#}"), is_usage(e));
    }
    result
}

/// The case id asked for, or the study's first; checked against the catalogue.
fn case_id(study: &dyn study::Study, name: Option<&str>) -> Result<&'static str> {
    let info = study.info();
    match name {
        Some(n) => Ok(info.case(n)?.id),
        None => info.cases.first().map(|c| c.id).ok_or_else(|| anyhow::anyhow!("{} has no cases", info.name)),
    }
}

/// The files a command wrote into `out`, on stderr, and the files there that hotloops did
/// not write (left alone).
fn wrote(files: &[PathBuf], out: &Path) {
    say!("wrote:");
    for f in files {
        say!("  {}", f.display());
    }
    let foreign = hotloops::host::outdir::foreign(out, files);
    if !foreign.is_empty() {
        say!("left alone in {} (hotloops did not write them): {}", out.display(), foreign.join(", "));
    }
}

/// Whether two paths name one file (the second need not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

fn dispatch(cmd: Cmd) -> Result<()> {
    match cmd {
        Cmd::Pg(PgCmd { sub: Some(PgSub::Build(b)), .. }) => hotloops::pgserver::build::run_cli(&b),
        Cmd::Pg(PgCmd { sub: Some(PgSub::Ab(a)), .. }) => {
            let r = hotloops::pgserver::ab::run(&a)?;
            let md = report::ab::write(&r, &a.out)?;
            out!("{md}");
            Ok(())
        }
        Cmd::Pg(PgCmd { sub: Some(PgSub::Seed(a)), .. }) => {
            let r = hotloops::pgserver::seedrun::run(&a)?;
            let md = report::ab::write_seed(&r, &a.out)?;
            out!("{md}");
            Ok(())
        }
        Cmd::Pg(PgCmd { sub: None, args }) => hotloops::pgserver::run(&args),
        Cmd::List { servers: true, .. } => {
            out!("{}", hotloops::pgserver::servers::listing());
            Ok(())
        }
        Cmd::List { cases: true, .. } => {
            for s in study::STUDIES {
                let i = s.info();
                outln!("{}", i.name);
                for c in i.cases {
                    outln!("  {:<20} {}", c.id, c.summary);
                }
            }
            Ok(())
        }
        Cmd::List { cases: false, .. } => {
            for s in study::STUDIES {
                let i = s.info();
                outln!("{}  (feature `{}`: pipeline switches {} -> {})", i.name, i.feature, i.baseline, i.patched);
                outln!("  seed:   {}", i.seed);
                outln!("  claim:  {}", i.claim);
                outln!("  seed numbers: {}", i.seed_numbers);
                if !i.c_kernels.is_empty() {
                    outln!("  C kernels: {}", i.c_kernels);
                }
                for v in i.variants {
                    let tag = if v.id == i.baseline { " (baseline)" } else if v.id == i.patched { " (patched)" } else { "" };
                    let setup = if v.setup.is_empty() { String::new() } else { format!("; setup: {}", v.setup) };
                    let setup = if v.is_c() { format!("{setup}; C, built under {}", v.config) } else { setup };
                    outln!("  {}{tag}\n      {}  [kernel {}{setup}]", v.id, v.summary, v.kernel);
                }
                outln!();
            }
            Ok(())
        }
        Cmd::Asm { target, diff, fresh, config } => {
            let get = |id: &str| -> Result<String> {
                if fresh {
                    asm::check_tool().map_err(|e| Unavailable(format!("{e:#}")))?;
                    asm::generate(id)
                } else {
                    asm::read_snapshot(&asm::snapshot_dir(), id)
                }
            };
            match diff {
                None => {
                    let (_, v) = study::variant(&target)?;
                    out!("{}", get(study::with_config(v, config.as_deref())?.id)?);
                }
                Some(ab) => {
                    let s = study::study(&target).or_else(|e| study::variant(&target).map(|(s, _)| s).map_err(|_| e))?;
                    // --config applies to the C kernels of the pair; a Rust one stays as it is.
                    let pick = |name: &str| -> Result<&'static str> {
                        let v = s.info().variant(name)?;
                        Ok(if v.is_c() { study::with_config(v, config.as_deref())?.id } else { v.id })
                    };
                    if let Some(c) = config.as_deref() {
                        study::config_named(c)?;
                    }
                    let a = pick(&ab[0])?;
                    let b = pick(&ab[1])?;
                    let d = asm::unified_diff(a, &get(a)?, b, &get(b)?);
                    if d.is_empty() {
                        outln!("{a} and {b} compile to the same normalised asm");
                    } else {
                        out!("{d}");
                    }
                }
            }
            Ok(())
        }
        Cmd::Run { id, case, size, reps } => {
            let (s, v) = study::variant(&id)?;
            study::dedicate_process(&id);
            let cids: Vec<&str> =
                if case.is_empty() { vec![case_id(s, None)?] } else { case.iter().map(|c| case_id(s, Some(c))).collect::<Result<_>>()? };
            for (i, cid) in cids.iter().enumerate() {
                let mut c = study::build_case(s, cid, size)?;
                // Callgrind dumps here: the runs below are this case's count.
                measure::callgrind::hotloops_callgrind_boundary(i as u64);
                let mut d = 0;
                for _ in 0..reps {
                    d = std::hint::black_box(c.run(v)?);
                }
                // `callgrind::run_items` reads this line: keep its shape.
                outln!("{id} on {cid} ({size}): {} {} per run, digest {d:#018x}", c.items(), s.info().units());
            }
            measure::callgrind::hotloops_callgrind_boundary(cids.len() as u64);
            Ok(())
        }
        Cmd::Instructions { id, case, size, config } => {
            let (s, v) = study::variant(&id)?;
            let id = study::with_config(v, config.as_deref())?.id;
            let cid = case_id(s, case.as_deref())?;
            measure::callgrind::check_valgrind()?;
            let n = measure::callgrind::count(&std::env::current_exe()?, id, cid, size)?;
            let (unit, units) = (s.info().unit, s.info().units());
            outln!("{id} on {} ({} {units}): {} instructions inclusive ({:.3}/{unit}), {} in its own code ({:.3}/{unit})",
                n.case, n.items, n.inclusive, n.inclusive_per_item(), n.own, n.own_per_item());
            Ok(())
        }
        Cmd::Counters { id, case, size, runs } => {
            let (s, v) = study::variant(&id)?;
            study::dedicate_process(&id);
            let cid = case_id(s, case.as_deref())?;
            let mut c = study::build_case(s, cid, size)?;
            let cpu = hotloops::host::cpu::cpu();
            let m = measure::counters::Microarch::detect(&cpu);
            let core = measure::pin_current_thread().map_or("not pinned".to_string(), |c| format!("pinned to core {c}"));
            outln!("{id} on {cid} ({size}, {} {}/run), {runs} runs; CPU {} [{m}], {core}", c.items(), s.info().unit, cpu.name);
            if let Err(why) = measure::counters::hardware_available() {
                outln!("hardware counters: {why}\n(going on with the software counters)");
            }
            let rep = measure::counters::measure(c.as_mut(), v, runs, &measure::counters::groups_for(m))?;
            use report::table::{Align, Table};
            let mut t = Table::new([
                ("group".to_string(), Align::Left),
                ("event".to_string(), Align::Left),
                ("count".to_string(), Align::Right),
                (format!("per {}", s.info().unit), Align::Right),
                ("running".to_string(), Align::Right),
            ]);
            for x in &rep.values {
                let running = if x.time_enabled_ns == 0 { 1.0 } else { x.time_running_ns as f64 / x.time_enabled_ns as f64 };
                t.row([x.group.to_string(), x.event.clone(), format!("{:.0}", x.count), format!("{:.4}", x.per_item), format!("{:.1}%", running * 100.0)]);
            }
            // A row per event not counted; the reasons once, below the table.
            for u in &rep.unavailable {
                t.row([u.group.to_string(), u.event.clone(), "not counted".to_string()]);
            }
            out!("{}", t.render());
            for n in report::unavailable_notes(&rep.unavailable) {
                outln!("{n}");
            }
            Ok(())
        }
        Cmd::Layout { target, case, processes, budget_ms, size, quick, layouts, out, force } => {
            report::layout::check_ids(&layouts)?;
            let size = if quick { Size::Quick } else { size };
            let opts = report::layout::Options { target, case, size, processes: processes.into(), budget: Duration::from_millis(budget_ms), layouts, out, force };
            let (_, md, files) = report::layout::run(&opts)?;
            out!("{md}");
            wrote(&files, &opts.out);
            Ok(())
        }
        Cmd::Report { study, full, quick: _, out, require, no_instructions, no_model, processes, budget_ms, size, layouts, strict, pg, config, force } => {
            if let Some(l) = &layouts {
                report::layout::check_ids(l)?;
            }
            if let Some(d) = study.iter().enumerate().find_map(|(i, s)| study[..i].contains(s).then_some(s)) {
                return Err(Usage(format!("--study {d} is given twice: name each study once")).into());
            }
            if no_instructions && require.iter().any(|r| r == "instructions") {
                return Err(Usage("--no-instructions and --require instructions contradict each other: give one".into()).into());
            }
            let opts = report::run::Options {
                layouts,
                studies: study,
                quick: !full,
                out: out.clone(),
                require_instructions: require.iter().any(|r| r == "instructions"),
                require_counters: require.iter().any(|r| r == "counters"),
                no_instructions,
                no_model,
                processes: processes.into(),
                budget: budget_ms.map(Duration::from_millis),
                size,
                strict,
                pg: pg.options(),
                configs: config,
                force,
            };
            let (r, files) = report::run::run(&opts)?;
            out!("{}", report::terminal(&r));
            wrote(&files, &out);
            Ok(())
        }
        Cmd::Render { file, out, force } => {
            let r = report::load(&file).map_err(|e| Usage(format!("{e:#}")))?;
            // The report is written back beside its plots: only in the version this build writes.
            if r.schema_version != report::SCHEMA_VERSION {
                return Err(Usage(format!(
                    "{}: schema version {}, render re-draws version {} reports only (their report.json is written back unchanged)",
                    file.display(),
                    r.schema_version,
                    report::SCHEMA_VERSION
                ))
                .into());
            }
            let out = out.unwrap_or_else(|| file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf());
            // The report.json written is the file read, byte for byte: every figure as it was.
            let json = std::fs::read(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let planned = report::run::file_names(r.studies.iter().map(|s| s.name.as_str()));
            // Rendering beside the file writes it back unchanged: it is in the way of nothing.
            // Another report's report.json there (same bytes: a copy of this one) would be
            // replaced by this one's: a different report, refused unless --force.
            let there = out.join("report.json");
            let unchanged = same_file(&file, &there) || std::fs::read(&there).is_ok_and(|b| b == json);
            if !unchanged && there.exists() && !force {
                return Err(Usage(format!(
                    "--out {} holds another report ({}): rendering {} there would replace it and its files; choose another --out, or pass --force to replace it",
                    out.display(),
                    there.display(),
                    file.display()
                ))
                .into());
            }
            let claim = hotloops::host::outdir::Claim::new("report", planned).inputs([file.clone()]).force(force);
            let claim = if unchanged { claim.unchanged(["report.json"]) } else { claim };
            let mut dir = hotloops::host::outdir::OutDir::claim(&out, claim)?;
            let files = report::run::write_files_with(&r, &mut dir, Some(json))?;
            wrote(&files, &out);
            Ok(())
        }
        Cmd::Compare { files, out, label, baseline, force } => {
            let inputs: Vec<PathBuf> = files.iter().chain(baseline.iter()).cloned().collect();
            let usage = |e: anyhow::Error| anyhow::Error::new(Usage(format!("{e:#}")));
            if let Some(i) = label.iter().position(|l| l.trim().is_empty()) {
                return Err(Usage(format!("--label number {} is empty: a label names its report's column", i + 1)).into());
            }
            let (md, svgs) = match baseline {
                None => report::compare::compare(&files, &label).map_err(usage)?,
                Some(old) => {
                    if files.len() != 1 {
                        return Err(usage(anyhow::anyhow!("--baseline OLD.json takes one NEW.json, not {}", files.len())));
                    }
                    let labels = if label.is_empty() { vec!["before".to_string(), "after".to_string()] } else { label };
                    let ls = report::compare::load_labelled(&[old, files[0].clone()], &labels).map_err(usage)?;
                    (report::compare::baseline(&ls[0], &ls[1]).map_err(usage)?, Vec::new())
                }
            };
            let written = report::compare::write(&out, &md, &svgs, &inputs, force)?;
            out!("{md}");
            wrote(&written, &out);
            Ok(())
        }
        Cmd::Paired { a, b, case, size, budget_ms, block_us } => {
            // A trial is several blocks and a pair at least eight trials: a block longer than
            // the whole budget would run for minutes (a 10 s block on a 10 ms budget).
            if block_us > budget_ms * 1000 {
                return Err(Usage(format!("--block-us {block_us} is longer than --budget-ms {budget_ms}: a block is at most the budget ({} us)", budget_ms * 1000)).into());
            }
            let t = measure::wallclock::trials_by_id(&a, &b, &case, size, Duration::from_millis(budget_ms), Duration::from_micros(block_us))?;
            outln!("{}", serde_json::to_string(&t).context("serialising trials")?);
            Ok(())
        }
        Cmd::Sweep { study: name, quick, forms, out, force } => {
            // Only a study that has a sweep: the valid names are those.
            if !report::sweep::STUDIES.contains(&name.as_str()) {
                return Err(UnknownName { kind: "study with a sweep", given: name, valid: report::sweep::STUDIES.iter().map(|s| s.to_string()).collect() }.into());
            }
            let mut cfg = if quick { SweepConfig::quick() } else { SweepConfig::full() };
            if !forms.is_empty() {
                cfg.forms = Vec::new();
                for f in forms {
                    let form = hotloops::study::alloc_churn::ScanForm::parse(&f)?;
                    if !cfg.forms.contains(&form) {
                        cfg.forms.push(form);
                    }
                }
            }
            // Claimed first (a refusal before any wait), then timed alone on the measuring core.
            let mut dir = report::sweep::claim(&out, force)?;
            let _core = hotloops::host::lock::measuring_core("a sweep")?;
            let bar = indicatif::ProgressBar::new((cfg.grid.len() * cfg.variants.len() * cfg.forms.len()) as u64);
            let (s, files) = report::sweep::write_into(&mut dir, &cfg, &mut |_| bar.inc(1))?;
            bar.finish_and_clear();
            out!("{}", report::sweep::markdown(&s));
            wrote(&files, &out);
            Ok(())
        }
        Cmd::Seed { seed, reports, format, mixed_hosts } => {
            let spec = report::seeds::spec(&seed)?;
            let paths = if reports.is_empty() { vec![PathBuf::from("target/hotloops-report")] } else { reports };
            if let Some(p) = paths.iter().find(|p| !p.exists()) {
                return Err(Usage(format!("{}: no such file or directory (a report.json, model.json, `hotloops pg` JSON file, or a directory of them)", p.display())).into());
            }
            let mut src = report::seeds::Sources::load(&paths)?;
            src.mixed_hosts = mixed_hosts;
            out!("{}", report::seeds::render(&report::seeds::card(spec, &src), format == "md"));
            Ok(())
        }
        Cmd::Model { target, cpu, json, no_measure, config } => hotloops::model::cli(target.as_deref(), cpu.as_deref(), json, no_measure, &config),
        Cmd::Worker => worker(),
    }
}
