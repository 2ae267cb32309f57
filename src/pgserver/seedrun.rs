//! `hotloops pg seed 000|001|002|004`: each seed settled by its own patch. The seed's patch
//! (`patches/`) is built over stock 18.6 from source and measured against it with `pg ab` on the
//! thread's own benchmark (`sql/`), at the claim's precision; the file the seed cards read,
//! `pg-seed-NNN.json`, holds every arm's whole `pg ab` result.
//!
//! One arm per comparison the thread makes; the arm that answers the card's claim is the
//! decisive one, the others are context (seed 000's batching itself and its sparse case, seed
//! 002's other I/O methods, seed 004's 17 -> 18 regression and glibc's trim setting).

use super::ab::{self, AbArgs, AbResult};
use super::UsageError;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One comparison of a seed.
#[derive(Clone, Copy, Debug)]
pub struct Arm {
    /// `local-index`.
    pub id: &'static str,
    /// What it compares, in words.
    pub what: &'static str,
    /// A and B as `pg ab` takes them (patch paths relative to the repository).
    pub a: &'static str,
    /// See [`Arm::a`].
    pub b: &'static str,
    /// The workload file.
    pub workload: &'static str,
    /// The thread's claim for this comparison, percent of B's time against A's (None: the
    /// thread gave no figure).
    pub claim: Option<f64>,
    /// Where the claim comes from.
    pub quote: &'static str,
    /// Server settings (`--set`).
    pub set: &'static [&'static str],
    /// Both postmasters' environment (`--env`).
    pub env: &'static [&'static str],
    /// B's postmaster environment (`--env-b`).
    pub env_b: &'static [&'static str],
    /// The card's decisive line.
    pub decisive: bool,
    /// An arm that tests the claim's mechanism rather than its size: the condition it runs
    /// under and what it means when the decisive arm's effect is gone under it.
    pub mechanism: Option<(&'static str, &'static str)>,
}

const STOCK: &str = "18";

/// Every seed's arms.
pub const SEEDS: &[(&str, &[Arm])] = &[
    (
        "000",
        &[
            Arm {
                id: "local-index",
                what: "the copy loop's cursor in locals, written back once, against storing itemIndex every TID (both batched)",
                a: "18+patches/seed000-batch-tids.patch",
                b: "18+patches/seed000-local-index.patch",
                workload: "sql/seed000-bitmap.sql",
                claim: Some(-2.19),
                quote: "Using a local index and updating itemIndex once after the copy improved the 10M-row workload by another 2.24% in my tests.",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: true,
                mechanism: None,
            },
            Arm {
                id: "batch-tids",
                what: "one tbm_add_tuples call a leaf page against one a TID (the batching itself)",
                a: STOCK,
                b: "18+patches/seed000-batch-tids.patch",
                workload: "sql/seed000-bitmap.sql",
                claim: Some(-32.9),
                quote: "For that query we save ~1/3rd of the execution time of the BIS (164 ms -> 110 ms).",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
            Arm {
                id: "sparse",
                what: "the batching on ten widely spaced keys",
                a: STOCK,
                b: "18+patches/seed000-batch-tids.patch",
                workload: "sql/seed000-sparse.sql",
                claim: Some(0.85),
                quote: "I also measured a small regression for a B-tree scan returning ten widely spaced keys: ... delta: +0.85%",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
        ],
    ),
    (
        "001",
        &[
            Arm {
                id: "range-15000",
                what: "the scan direction by value in _bt_checkkeys, a 15,000-row range as a plain index scan",
                a: STOCK,
                b: "18+patches/seed001-dir-by-value.patch",
                workload: "sql/seed001-range-15000.pgbench",
                claim: Some(-5.21),
                quote: "if I increase the number of values/tuples returned from 2,000 ... to 15,000, I find that the patch increases TPS by as much as 5.5%.",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: true,
                mechanism: None,
            },
            Arm {
                id: "range-2000",
                what: "the same on a 2,000-row range",
                a: STOCK,
                b: "18+patches/seed001-dir-by-value.patch",
                workload: "sql/seed001-range-2000.pgbench",
                claim: None,
                quote: "the 2,000-row range the first mail reported on",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
        ],
    ),
    (
        "002",
        &[
            Arm {
                id: "cold-io_uring",
                what: "blgetbitmap on a read stream against one synchronous read a page, every page from storage (debug_io_direct=data), io_method=io_uring",
                a: STOCK,
                b: "18+patches/seed002-bloom-read-stream.patch",
                workload: "sql/seed002-bloom-cold.sql",
                claim: Some(-66.7),
                quote: "The author has reported a 3x in runtime with io_uring while I was at close to a 7x.",
                set: &["io_method=io_uring"],
                env: &[],
                env_b: &[],
                decisive: true,
                mechanism: None,
            },
            Arm {
                id: "cold-worker",
                what: "the same with io_method=worker (3 workers)",
                a: STOCK,
                b: "18+patches/seed002-bloom-read-stream.patch",
                workload: "sql/seed002-bloom-cold.sql",
                claim: None,
                quote: "For the worker method with 3 workers, the author has reported better numbers than myself in runtime",
                set: &["io_method=worker", "io_workers=3"],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
            Arm {
                id: "cold-sync",
                what: "the same with io_method=sync",
                a: STOCK,
                b: "18+patches/seed002-bloom-read-stream.patch",
                workload: "sql/seed002-bloom-cold.sql",
                claim: None,
                quote: "(no figure for io_method=sync)",
                set: &["io_method=sync"],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
            Arm {
                id: "warm",
                what: "the index in shared buffers (no reads), io_method=worker",
                a: STOCK,
                b: "18+patches/seed002-bloom-read-stream.patch",
                workload: "sql/seed002-bloom.sql",
                claim: None,
                quote: "(no figure for a warm index)",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
        ],
    ),
    (
        "004",
        &[
            Arm {
                id: "amroutine-static",
                what: "static const IndexAmRoutine handlers, callers no longer pfree, against a palloc a call (100 partitions, index on bid)",
                a: STOCK,
                b: "18+patches/seed004-amroutine-static.patch",
                workload: "sql/seed004-partitions.pgbench",
                claim: Some(-50.0),
                quote: "This shows the static fix eliminates the severe ~50% regression previously observed by Tomas",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: true,
                mechanism: None,
            },
            Arm {
                id: "amroutine-cache",
                what: "the thread's cache of one IndexAmRoutine per AM OID",
                a: STOCK,
                b: "18+patches/seed004-amroutine-cache.patch",
                workload: "sql/seed004-partitions.pgbench",
                claim: Some(-50.0),
                quote: "the thread's proposal: cache the routine per access method",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
            Arm {
                id: "regression-17-18",
                what: "the regression itself: 18.6 against 17.11 (the pinned wheels: one producer's flags for both; 17.12's source is not fetchable here)",
                a: "wheel:17",
                b: "wheel:18",
                workload: "sql/seed004-partitions.pgbench",
                claim: Some(100.0),
                quote: "the severe ~50% regression previously observed by Tomas (half the TPS: twice the time)",
                set: &[],
                env: &[],
                env_b: &[],
                decisive: false,
                mechanism: None,
            },
            Arm {
                id: "static-untrimmed",
                what: "the static patch against stock with glibc's trim threshold at 64 MiB on both sides: does the patch save the routine's work, or the heap's trim and regrowth?",
                a: STOCK,
                b: "18+patches/seed004-amroutine-static.patch",
                workload: "sql/seed004-partitions.pgbench",
                claim: None,
                quote: "(the mechanism: the thread attributes the saving to IndexAmRoutine's per-call palloc)",
                set: &[],
                env: &["MALLOC_TRIM_THRESHOLD_=67108864"],
                env_b: &[],
                decisive: false,
                mechanism: Some((
                    "with glibc's trim threshold at 64 MiB on both sides (the heap no longer trimmed and regrown each query)",
                    "the saving is glibc's heap trim, not the routine's per-call palloc the thread names",
                )),
            },
            Arm {
                id: "glibc-trim",
                what: "stock 18.6 with glibc's trim threshold at 64 MiB (MALLOC_TRIM_THRESHOLD_) against without",
                a: STOCK,
                b: STOCK,
                workload: "sql/seed004-partitions.pgbench",
                claim: None,
                quote: "(the glibc arm: no claim in the thread)",
                set: &[],
                env: &[],
                env_b: &["MALLOC_TRIM_THRESHOLD_=67108864"],
                decisive: false,
                mechanism: None,
            },
        ],
    ),
];

/// `hotloops pg seed`'s arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct SeedArgs {
    /// The seed: 000, 001, 002 or 004.
    pub seed: String,
    /// Only these arms (repeatable; `hotloops pg seed NNN --arm x` lists them when x is unknown).
    #[arg(long)]
    pub arm: Vec<String>,
    /// The workloads' full size, a 0.5% target and 20 minutes an arm.
    #[arg(long)]
    pub full: bool,
    /// Budget an arm, seconds (30 to 86,400; default 300, 1,200 with --full).
    #[arg(long, value_parser = crate::host::in_range::<u64>(30, 86_400))]
    pub budget_s: Option<u64>,
    /// A workload variable for every arm (`rows=100000`), repeatable.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// Skip the why-view (callgrind and asm) of every arm.
    #[arg(long)]
    pub no_why: bool,
    /// Output directory (pg-seed-NNN.json and .md).
    #[arg(long, default_value = "target/hotloops-pg")]
    pub out: PathBuf,
}

/// One arm's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ArmResult {
    /// The arm's id.
    pub id: String,
    /// What it compares.
    pub what: String,
    /// The claim, percent.
    pub claim: Option<f64>,
    /// The quote.
    pub quote: String,
    /// The card's decisive line.
    pub decisive: bool,
    /// The whole `pg ab` result.
    pub ab: AbResult,
}

/// `pg-seed-NNN.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeedRun {
    /// `000`.
    pub seed: String,
    /// The arms measured.
    pub arms: Vec<ArmResult>,
    /// The command line.
    pub command: String,
}

/// The arms of `seed`, or an error listing the seeds.
pub fn arms(seed: &str) -> Result<&'static [Arm]> {
    SEEDS.iter().find(|(s, _)| *s == seed).map(|(_, a)| *a).ok_or_else(|| {
        crate::study::UnknownName { kind: "seed", given: seed.into(), valid: SEEDS.iter().map(|(s, _)| s.to_string()).collect() }.into()
    })
}

/// A repository path as the command line should name it: relative when run from the
/// repository, else absolute from the crate's root.
fn repo_path(rel: &str) -> String {
    if std::path::Path::new(rel).exists() { rel.to_string() } else { crate::host::crate_root().join(rel).display().to_string() }
}

fn spec(s: &str) -> String {
    match s.split_once('+') {
        Some((base, patch)) => format!("{base}+{}", repo_path(patch)),
        None => s.to_string(),
    }
}

/// The claim's precision: a quarter of the claim, between 0.5% and 1%.
pub fn precision_for(claim: Option<f64>, full: bool) -> f64 {
    let p = claim.map(|c| (c.abs() / 4.0).clamp(0.5, 1.0)).unwrap_or(1.0);
    if full { p.min(0.5) } else { p }
}

/// Run the arms of `args.seed` (all, or `--arm`).
pub fn run(args: &SeedArgs) -> Result<SeedRun> {
    let all = arms(&args.seed)?;
    for a in &args.arm {
        if !all.iter().any(|x| x.id == a) {
            return Err(UsageError(format!("--arm {a}: seed {} has {}", args.seed, all.iter().map(|x| x.id).collect::<Vec<_>>().join(", "))).into());
        }
    }
    let chosen: Vec<&Arm> = all.iter().filter(|x| args.arm.is_empty() || args.arm.iter().any(|a| a == x.id)).collect();
    let mut out = Vec::new();
    for (i, arm) in chosen.iter().enumerate() {
        crate::say!("pg seed {}: arm {} of {}: {} ({})", args.seed, i + 1, chosen.len(), arm.id, arm.what);
        let ab_args = AbArgs {
            a: spec(arm.a),
            b: spec(arm.b),
            workload: PathBuf::from(repo_path(arm.workload)),
            vars: args.vars.clone(),
            settings: arm.set.iter().map(|s| s.to_string()).collect(),
            env: arm.env.iter().map(|s| s.to_string()).collect(),
            env_b: arm.env_b.iter().map(|s| s.to_string()).collect(),
            precision: Some(precision_for(arm.claim, args.full)),
            budget_s: args.budget_s,
            epoch_s: None,
            full: args.full,
            clients: 1,
            design: "interleaved".into(),
            metric: None,
            claim: arm.claim,
            layouts: 2,
            no_why: args.no_why,
            seed: 1,
            out: args.out.clone(),
        };
        let r = ab::run(&ab_args)?;
        crate::say!("pg seed {}: {}: {}", args.seed, arm.id, r.verdict);
        out.push(ArmResult { id: arm.id.into(), what: arm.what.into(), claim: arm.claim, quote: arm.quote.into(), decisive: arm.decisive, ab: r });
    }
    Ok(SeedRun { seed: args.seed.clone(), arms: out, command: std::env::args().collect::<Vec<_>>().join(" ") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seed_has_one_decisive_arm_whose_files_exist() {
        for (seed, arms) in SEEDS {
            assert_eq!(arms.iter().filter(|a| a.decisive).count(), 1, "seed {seed}");
            assert!(arms.iter().find(|a| a.decisive).unwrap().claim.is_some(), "seed {seed}'s decisive arm has a claim");
            for a in *arms {
                let root = crate::host::crate_root();
                assert!(root.join(a.workload).is_file(), "seed {seed} arm {}: no {}", a.id, a.workload);
                for s in [a.a, a.b] {
                    if let Some((_, p)) = s.split_once('+') {
                        assert!(root.join(p).is_file(), "seed {seed} arm {}: no {p}", a.id);
                    }
                }
            }
        }
        assert!(arms("003").is_err());
    }

    #[test]
    fn the_precision_follows_the_claim() {
        assert_eq!(precision_for(Some(-2.19), false), 0.5475);
        assert_eq!(precision_for(Some(-66.7), false), 1.0);
        assert_eq!(precision_for(Some(0.85), false), 0.5);
        assert_eq!(precision_for(None, true), 0.5);
    }
}
