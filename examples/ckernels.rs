//! The C reference kernels beside the Rust ones, measured side by side (issue 11's figures):
//!
//! ```sh
//! cargo run --release --example ckernels -- instructions           # callgrind, test size, per item
//! cargo run --release --example ckernels -- wallclock --processes 3 # paired ABBA + A/A, quick size
//!     [--budget-ms 1000] [--only SUBSTRING]                          # time per pair and process; pair filter
//! cargo run --release --example ckernels -- run local-index/c-store-each@gcc12-pg --case li
//! ```
//!
//! A kernel is `<id>@<config>`; `@rust` names the crate's Rust kernel of that id. Cases: `li`
//! (seed 000's table3 index, a whole bitmap scan), `dv-0` / `dv-1` (pgbench range scans of
//! 15,000 with 0 or 1 key per tuple), `tb` (tid-batch's `btree-many` case: Rust kernels into
//! the Rust TIDBitmap, C kernels into the C one, the same scan through shared buffers and the
//! same digest). Every kernel runs through its study's own case (`outcome_with` /
//! `value_with`), so C and Rust results are compared digest for digest. Usage errors exit 2.

use anyhow::{Context, Result, anyhow, bail};
use hotloops::ckernels::{self, CKernel, Entry};
use hotloops::study::dir_by_value::ReadPage;
use hotloops::measure::{callgrind, wallclock};
use hotloops::pg::workload::{PGBENCH_ROWS_PER_SCALE, pgbench_accounts_pkey, pgbench_ranges, table3_col0_index};
use hotloops::study::dir_by_value::RangeCase;
use hotloops::study::local_index::{LocalKernel, ScanCase};
use hotloops::study::tid_batch::{TidCase, TidKernel};
use hotloops::study::{Case, Size, Variant};
use std::process::Command;
use std::sync::Arc;

/// One runnable kernel.
#[derive(Clone, Copy)]
enum Kernel {
    C(&'static CKernel),
    /// A Rust variant: its row.
    Rust(&'static Variant),
}

/// The spec of this example's own rows: the wall-clock pairing runs `Variant`s, so each kernel
/// of a comparison gets a row of its own whose spec says which kernel it is.
struct ExKernel(Kernel);

impl hotloops::study::Kernel for ExKernel {
    fn entry(&self) -> usize {
        match self.0 {
            Kernel::C(_) => 0,
            Kernel::Rust(v) => v.spec.entry(),
        }
    }
}

/// A row for `k`, alive for the rest of the process (an example runs one comparison).
fn row(spec: &str, k: Kernel) -> &'static Variant {
    let id: &'static str = Box::leak(spec.to_string().into_boxed_str());
    let kernel = match k {
        Kernel::C(c) => c.symbol,
        Kernel::Rust(v) => v.kernel,
    };
    Box::leak(Box::new(Variant { id, summary: "", kernel, helpers: &[], setup: "", config: "", cases: &[], spec: Box::leak(Box::new(ExKernel(k))) }))
}

fn parse_kernel(spec: &str) -> Result<(String, Kernel)> {
    let (id, config) = spec.split_once('@').ok_or_else(|| anyhow!("kernel `{spec}`: expected <id>@<config> or <id>@rust"))?;
    if config == "rust" {
        let (_, v) = hotloops::study::variant(id).map_err(|e| anyhow!("no Rust kernel `{id}` here: {e}"))?;
        return Ok((id.to_string(), Kernel::Rust(v)));
    }
    Ok((id.to_string(), Kernel::C(ckernels::kernel(id, config)?)))
}

fn symbols(k: Kernel) -> Vec<String> {
    match k {
        Kernel::C(c) => std::iter::once(c.symbol).chain(c.helpers.iter().copied()).map(String::from).collect(),
        Kernel::Rust(v) => v.symbols().into_iter().map(String::from).collect(),
    }
}

/// A case that runs a list of kernels (variant index = position): what the wall-clock pairs
/// and the callgrind runs drive.
enum Work {
    Li { rust: ScanCase },
    Dv { rust: RangeCase, tuples: u64 },
    Tb { rust: TidCase },
}

struct Runner {
    name: String,
    work: Work,
    rows: Vec<&'static Variant>,
}

fn build(case: &str, size: Size) -> Result<Work> {
    let rows = match size {
        Size::Test => 20_000,
        Size::Quick => 1_000_000,
        Size::Full => 10_000_000,
    };
    Ok(match case {
        "li" => Work::Li { rust: ScanCase::new(table3_col0_index(rows)) },
        "dv-0" | "dv-1" => {
            let min_keys = if case == "dv-1" { 1 } else { 0 };
            let (accounts, count) = match size {
                Size::Test => (40_000, 2),
                Size::Quick => (10 * PGBENCH_ROWS_PER_SCALE, 27),
                Size::Full => (100 * PGBENCH_ROWS_PER_SCALE, 133),
            };
            let rel = Arc::new(pgbench_accounts_pkey(accounts));
            let ranges = pgbench_ranges(accounts, 15_000, count, 0x5EED_0001 ^ 15_000);
            let tuples = ranges.iter().map(|&(lo, hi)| rel.count_between(lo, hi)).sum();
            Work::Dv { rust: RangeCase::new(rel, accounts, 15_000, ranges, min_keys), tuples }
        }
        "tb" => {
            let info = hotloops::study::tid_batch::info();
            Work::Tb { rust: hotloops::study::tid_batch::case_at_rows(info.case("btree-many")?, rows)? }
        }
        _ => bail!("unknown case `{case}` (li, dv-0, dv-1, tb)"),
    })
}

impl Case for Runner {
    fn describe(&self) -> String {
        self.name.clone()
    }
    fn items(&self) -> u64 {
        match &self.work {
            Work::Li { rust } => rust.rel().len() as u64,
            Work::Dv { tuples, .. } => *tuples,
            Work::Tb { rust } => rust.items(),
        }
    }
    fn run(&mut self, v: &'static Variant) -> Result<u64> {
        let k = v.spec::<ExKernel>()?.0;
        match (&mut self.work, k) {
            (Work::Li { rust, .. }, Kernel::Rust(i)) => rust.run(i),
            (Work::Li { rust }, Kernel::C(k)) => {
                let Entry::LocalIndex(f) = k.entry else { bail!("{} is not a local-index kernel", k.id) };
                Ok(rust.outcome_with(&LocalKernel::C(f))?.value())
            }
            (Work::Dv { rust, .. }, Kernel::Rust(i)) => rust.run(i),
            (Work::Dv { rust, .. }, Kernel::C(k)) => {
                let Entry::DirByValue(f) = k.entry else { bail!("{} is not a dir-by-value kernel", k.id) };
                Ok(rust.outcome_with(&ReadPage::C(f)).value())
            }
            (Work::Tb { rust, .. }, Kernel::Rust(i)) => rust.run(i),
            (Work::Tb { rust }, Kernel::C(k)) => {
                let Entry::TidBatch(f) = k.entry else { bail!("{} is not a tid-batch kernel", k.id) };
                rust.value_with(&TidKernel::C(f, k.config), k.id)
            }
        }
    }
}

fn runner(case: &str, size: Size, specs: &[&str]) -> Result<Runner> {
    let mut rows = vec![];
    for s in specs {
        let (id, k) = parse_kernel(s)?;
        let want = match case {
            "li" => "local-index/",
            "dv-0" | "dv-1" => "dir-by-value/",
            _ => "tid-batch/",
        };
        if !id.starts_with(want) {
            bail!("{s} does not run on case {case}");
        }
        rows.push(row(s, k));
    }
    Ok(Runner { name: format!("{case}: {}", specs.join(" vs ")), work: build(case, size)?, rows })
}

fn size_arg(s: &str) -> Result<Size> {
    match s {
        "test" => Ok(Size::Test),
        "quick" => Ok(Size::Quick),
        "full" => Ok(Size::Full),
        _ => bail!("unknown size `{s}` (test, quick, full)"),
    }
}

/// (case, kernels) rows of the instruction table.
fn instruction_rows() -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> = vec![];
    for (case, ids, rust) in [
        ("li", vec!["local-index/c-store-each", "local-index/c-local", "local-index/c-span"], vec!["local-index/store-each", "local-index/local"]),
        ("dv-0", vec!["dir-by-value/c-opaque", "dir-by-value/c-by-value"], vec!["dir-by-value/opaque", "dir-by-value/by-value"]),
        ("dv-1", vec!["dir-by-value/c-opaque", "dir-by-value/c-by-value"], vec!["dir-by-value/opaque", "dir-by-value/by-value"]),
        ("tb", vec!["tid-batch/c-per-tid", "tid-batch/c-batched"], vec!["tid-batch/per-tid", "tid-batch/batched"]),
    ] {
        for r in rust {
            v.push((case, format!("{r}@rust")));
        }
        for id in ids {
            for c in ckernels::CONFIGS.iter().filter(|c| c.built) {
                v.push((case, format!("{id}@{}", c.name)));
            }
        }
    }
    v
}

fn instructions(exe: &std::path::Path) -> Result<()> {
    callgrind::check_valgrind()?;
    println!("| case | kernel | items | own Ir/item | inclusive Ir/item |");
    println!("|---|---|---:|---:|---:|");
    for (case, spec) in instruction_rows() {
        let (_, k) = parse_kernel(&spec)?;
        let syms = symbols(k);
        let items = runner(case, Size::Test, &[&spec])?.items();
        let dir = tempfile::tempdir()?;
        let out = dir.path().join("cg.out");
        let o = Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(format!("--toggle-collect={}", syms[0]))
            .args(["--collect-atstart=no", "--compress-strings=no", "--compress-pos=no"])
            .arg(exe)
            .args(["run", &spec, "--case", case, "--size", "test"])
            .output()
            .context("running valgrind")?;
        if !o.status.success() {
            bail!("callgrind run of {spec} failed:\n{}", String::from_utf8_lossy(&o.stderr));
        }
        let p = callgrind::parse(&std::fs::read_to_string(&out)?)?;
        if p.total == 0 {
            bail!("callgrind collected nothing for {spec} (toggle {})", syms[0]);
        }
        let syms_ref: Vec<&str> = syms.iter().map(String::as_str).collect();
        let own = callgrind::own_cost(&p, &syms_ref);
        println!("| {case} | {spec} | {items} | {:.2} | {:.2} |", own as f64 / items as f64, p.total as f64 / items as f64);
    }
    Ok(())
}

/// The wall-clock pairs: (case, baseline, variant).
fn pairs() -> Vec<(&'static str, String, String)> {
    let built = |c: &str| ckernels::config(c).is_ok_and(|c| c.built);
    let mut v = vec![];
    let mut add = |case: &'static str, a: &str, b: &str| v.push((case, a.to_string(), b.to_string()));
    add("li", "local-index/store-each@rust", "local-index/store-each@rust");
    add("li", "local-index/c-store-each@gcc12-pg", "local-index/c-store-each@gcc12-pg");
    add("li", "local-index/c-store-each@gcc12-pg", "local-index/c-local@gcc12-pg");
    add("li", "local-index/c-span@gcc12-pg", "local-index/c-span@gcc12-strict");
    add("li", "local-index/store-each@rust", "local-index/local@rust");
    add("li", "local-index/store-each@rust", "local-index/c-store-each@gcc12-pg");
    if built("clang19-pg") {
        add("li", "local-index/c-store-each@clang19-pg", "local-index/c-local@clang19-pg");
    }
    for case in ["dv-0", "dv-1"] {
        add(case, "dir-by-value/c-opaque@gcc12-pg", "dir-by-value/c-opaque@gcc12-pg");
        add(case, "dir-by-value/c-opaque@gcc12-pg", "dir-by-value/c-by-value@gcc12-pg");
        add(case, "dir-by-value/opaque@rust", "dir-by-value/by-value@rust");
        if built("clang19-pg") {
            add(case, "dir-by-value/c-opaque@gcc12-pg", "dir-by-value/c-opaque@clang19-pg");
            add(case, "dir-by-value/c-opaque@clang19-pg", "dir-by-value/c-by-value@clang19-pg");
        }
    }
    add("tb", "tid-batch/c-per-tid@gcc12-pg", "tid-batch/c-per-tid@gcc12-pg");
    add("tb", "tid-batch/c-per-tid@gcc12-pg", "tid-batch/c-batched@gcc12-pg");
    add("tb", "tid-batch/per-tid@rust", "tid-batch/batched@rust");
    v
}

fn wallclock_cmd(exe: &std::path::Path, processes: usize, size: &str, budget_ms: &str, only: &str) -> Result<()> {
    let cfg = wallclock::PairConfig::quick();
    println!("| case | baseline | variant | variant/baseline | 95% interval | baseline ns/item | variant ns/item | process medians |");
    println!("|---|---|---|---:|---|---:|---:|---|");
    for (case, a, b) in pairs().into_iter().filter(|(c, a, b)| only.is_empty() || format!("{c} {a} {b}").contains(only)) {
        let mut per = vec![];
        for p in 0..processes {
            let o = Command::new(exe).args(["pair", case, &a, &b, "--size", size, "--seed", &p.to_string(), "--budget-ms", budget_ms]).output()?;
            if !o.status.success() {
                bail!("pair {a} vs {b} failed:\n{}", String::from_utf8_lossy(&o.stderr));
            }
            per.push(serde_json::from_slice::<wallclock::PairTrials>(&o.stdout)?);
        }
        let r = wallclock::combine(&a, &b, &per, cfg.resamples, cfg.seed);
        let meds: Vec<String> = r.process_medians.iter().map(|m| format!("{m:.3}")).collect();
        println!(
            "| {case} | {a} | {b} | {:.3} | [{:.3}, {:.3}] | {:.2} | {:.2} | {} |",
            r.median_ratio,
            r.ci_low,
            r.ci_high,
            r.baseline_ns_per_item,
            r.variant_ns_per_item,
            meds.join(" ")
        );
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ckernels instructions | wallclock [--processes N] [--size quick|test] [--budget-ms MS] [--only S] | run <id>@<config> --case C [--size S] [--reps N] | pair <case> <a> <b> [--size S] [--seed N]";
    let opt = |name: &str, default: &str| -> String {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned().unwrap_or_else(|| default.to_string())
    };
    let exe = std::env::current_exe().expect("the example's own path");
    let r: Result<()> = (|| match args.first().map(String::as_str) {
        Some("instructions") => instructions(&exe),
        Some("wallclock") => {
            let n: usize = opt("--processes", "3").parse().map_err(|_| anyhow!("--processes wants a number"))?;
            size_arg(&opt("--size", "quick"))?;
            let budget = opt("--budget-ms", "1000");
            budget.parse::<u64>().map_err(|_| anyhow!("--budget-ms wants a number"))?;
            wallclock_cmd(&exe, n.max(1), &opt("--size", "quick"), &budget, &opt("--only", ""))
        }
        Some("run") => {
            let spec = args.get(1).ok_or_else(|| anyhow!("run: which kernel?"))?;
            let case = opt("--case", "");
            let reps: u32 = opt("--reps", "1").parse().map_err(|_| anyhow!("--reps wants a number"))?;
            let mut r = runner(&case, size_arg(&opt("--size", "test"))?, &[spec])?;
            let mut d = 0u64;
            let v = r.rows[0];
            for _ in 0..reps {
                d ^= r.run(v)?;
            }
            println!("{spec} on {case}: digest {d:#x}");
            Ok(())
        }
        Some("pair") => {
            let (case, a, b) = match (args.get(1), args.get(2), args.get(3)) {
                (Some(c), Some(a), Some(b)) => (c.as_str(), a.as_str(), b.as_str()),
                _ => bail!("pair <case> <a> <b>"),
            };
            let mut r = runner(case, size_arg(&opt("--size", "quick"))?, &[a, b])?;
            let seed: u64 = opt("--seed", "0").parse().map_err(|_| anyhow!("--seed wants a number"))?;
            let budget: u64 = opt("--budget-ms", "1000").parse().map_err(|_| anyhow!("--budget-ms wants a number"))?;
            let cfg = wallclock::PairConfig { seed: 0x4a11 ^ seed, budget: std::time::Duration::from_millis(budget), ..wallclock::PairConfig::quick() };
            let (a, b) = (r.rows[0], r.rows[1]);
            let t = wallclock::run_trials(&mut r, a, b, &cfg, &mut |_| {})?;
            println!("{}", serde_json::to_string(&t)?);
            Ok(())
        }
        _ => Err(anyhow!("{usage}")),
    })();
    if let Err(e) = r {
        eprintln!("ckernels: {e:#}");
        let m = e.to_string();
        let usage_error = ["usage", "unknown", "wants a number", "expected <id>", "no C kernel", "no Rust kernel", "not in this build", "does not run on case", "which kernel", "pair <case>"]
            .iter()
            .any(|p| m.contains(p));
        std::process::exit(if usage_error { 2 } else { 1 });
    }
}
