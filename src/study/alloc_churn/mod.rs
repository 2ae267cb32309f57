//! # Study `alloc-churn`: per-call IndexAmRoutine allocation, and glibc's trim threshold
//!
//! **Seed 004** (pgsql-hackers, Aug 2025): PostgreSQL 18 with skip scan lost **~50%** TPS on
//! `select count(*) from pgbench_accounts where bid = 0` over **100 partitions** (pgbench
//! scale 1). Caching `IndexAmRoutine` per AM instead of palloc-and-fill on every look-up left
//! a **2-15%** residue (simple protocol, 1 client: 23,856 TPS on PG17, 20,332 with the fix).
//! Tomas Vondra called the cause "glibc-specific behaviour" that "a couple partitions" more
//! would trigger again. PostgreSQL later made every routine static (bc6374cd76, reference
//! §5.1). Reference §5.4 reconstructs the mechanism: every B-tree scan's `btbeginscan`
//! pallocs a 27,352-byte `BTScanOpaqueData`, over AllocSet's 8 KiB chunk limit, so each is a
//! malloc of its own; a query over N partitions holds N of them and frees them together at
//! `ExecutorEnd`. Once the freed top of the heap exceeds glibc's trim threshold (128 KiB by
//! default: between 4 and 5 scan states) glibc gives it back with `brk`, and the next query
//! faults every page it touches in again.
//!
//! **The model** ([`query`]): one backend's query over N partitions of `pgbench_accounts`
//! (range-partitioned on aid as `pgbench -i --partitions=N` does), each with a B-tree on bid
//! (assumed: reference §5.4 assumes one B-tree scan per partition; the seed does not give
//! the plan). Per query:
//! 1. `MessageContext` is reset (PostgresMain does it before each message);
//! 2. the planner does [`LOOKUPS_PER_PARTITION`] = 2 routine look-ups per partition index
//!    (`GetIndexAmRoutineByAmId`): one whose caller pfrees the result, as
//!    `get_opmethod_canorder` or `IndexSupportsBackwardScan` did, and one whose caller leaves
//!    it to the context reset, as `equality_ops_are_compatible` or
//!    `get_op_index_interpretation` did (reference §5.3). The count is our assumption; the
//!    seed does not say which callers ran;
//! 3. the executor begins a bitmap index scan per partition in `ExecutorState` through the
//!    relcache's `rd_indam` (`btbeginscan`: scan descriptor, key arrays, the 27,352-byte scan
//!    state), runs each (`btrescan`, `btgetbitmap` for `bid = 0`: the descent finds no match),
//!    ends each (`btendscan` frees the scan state's dedicated block), and frees the executor
//!    state (context reset).
//!
//! Not modelled: the rest of planning and execution (RelOptInfos, paths, plan and state
//! nodes, tuple slots), which add small chunks to the same contexts; one relcache context
//! for all indexes instead of one `rd_indexcxt` each. The digest of a query folds what the
//! planner read from the routines, every TID the scans returned and the scan states' final
//! positions: every variant must agree on it.
//!
//! **Variants** (kernels `#[inline(never)]`, unmangled `hotloops_alloc_churn_*`, one query
//! each; the routine fill `hl_bthandler_palloc` is a helper worth reading in asm):
//! - `alloc-churn/palloc-routine` (baseline): every look-up pallocs (palloc0, 248 -> a
//!   256-byte chunk) and fills a fresh routine, as before bc6374cd76;
//! - `alloc-churn/static-routine`: the handler returns a static routine (seed 004's fix, and
//!   what PostgreSQL landed);
//! - `alloc-churn/palloc-mallopt-trim`: the baseline with `M_TRIM_THRESHOLD` = 64 MiB;
//! - `alloc-churn/palloc-mallopt-toppad`: the baseline with `M_TOP_PAD` = 64 MiB;
//! - `alloc-churn/palloc-mimalloc`: the baseline with every context block from mimalloc.
//!
//! **Isolation.** `mallopt` is process-global and switches glibc's dynamic thresholds off for
//! good, and glibc's state also depends on the process's history: freeing one mmap'd chunk of
//! 128 KiB to 32 MiB raises both thresholds for the rest of the process ([`glibc::probe`]
//! shows it; a report process that has read a callgrind file no longer trims at 128 KiB). So
//! every variant runs in a process of its own, like a fresh backend: the sweep starts one per
//! (variant, N) point (`hotloops alloc-churn-worker point`), and a [`ChurnCase`] (the report,
//! benches, tests) sends each variant's queries to a worker process of its own (`serve`) —
//! unless this process is dedicated to that variant (`hotloops run`, `hotloops counters`,
//! so callgrind sees the kernel), when it runs here and takes the variant's settings.
//! [`place`] guards every in-process backend: once a process took a mallopt variant's
//! settings, no other variant runs in it, and a process that ran default variants never takes
//! mallopt settings.
//!
//! **The sweep** ([`run_sweep`]): per variant and N (1 to 200 partitions), time and minor
//! page faults per query (perf's software counter, getrusage where perf is refused), the
//! first N where the per-query time jumps 10x or more over the previous N ([`cliffs`]), one
//! SVG of cost against N for all variants ([`sweep_svg`]).
//!
//! **Measured here** (2-vCPU KVM guest, AMD EPYC, glibc 2.36, Debian 12; three full sweeps,
//! shared host): both glibc variants jump 15-20x from 4 to 5 partitions (0.33-0.45 us to
//! ~6.7 us a query), where each query starts paying two `brk` calls (trim, regrow; strace)
//! and 1 minor fault; at 100 partitions ~420-435 us, ~199 faults and ~22 `brk` calls a query.
//! Each mitigation removes the jump (largest step <= 2.2x; 9-11 us a query at 100, ~0
//! faults). The static routine saves ~20% of the instructions and ~20% of the time below the
//! cliff but does not move it; at 100 partitions palloc-routine / static-routine is
//! 1.01-1.04 (seed: ~2). The pages a query faults in are only those btbeginscan and the scan
//! touch (~2 of a scan state's 7), not all of them as in reference §5.4's experiment.

use crate::pg::amapi::{
    self, AmHandler, BTREE_AM_OID, IndexAmRoutine, IndexRelation, PgAm, get_index_am_routine_by_am_id, hl_bthandler_palloc,
    hl_bthandler_static, scan::eq_key,
};
use crate::pg::itemptr::ItemPointer;
use crate::pg::mcxt::{self, AllocSet, MallocBackend, glibc, glibc::Mallopt, memory_context_switch_to, pfree};
use crate::pg::nbtree::{BTree, IndexScanDesc, KeyType, ScanKey, leaf_items_per_page};
use crate::pg::sink::TidDigest;
use crate::pg::workload::{PGBENCH_ACCOUNTS_TUPLES_PER_PAGE, PGBENCH_ROWS_PER_SCALE, heap_tid, leaf_sizes};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};
use std::collections::HashMap;
use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The registry entry.
pub static STUDY: AllocChurn = AllocChurn;

/// Study `alloc-churn`.
pub struct AllocChurn;

/// The bytes both mallopt variants set: twice the 32 MiB ceiling of glibc's dynamic mmap
/// threshold, i.e. the highest trim threshold glibc's own adjustment can reach, and far over
/// the sweep's largest query (200 x 27,352 B = 5.5 MB).
pub const MALLOPT_BYTES: i32 = 64 << 20;

/// Routine look-ups per partition index during planning (one pfree'd, one left to the reset).
pub const LOOKUPS_PER_PARTITION: usize = 2;

/// The seed's partition count.
pub const SEED_PARTITIONS: usize = 100;

/// The seed's query constant: `bid = 0` matches no row at any scale.
pub const SEED_KEY: i64 = 0;

static INFO: StudyInfo = StudyInfo {
    name: "alloc-churn",
    seed: "seed 004 (Athiyaman M's static IndexAmRoutine patch; Tomas Vondra's reply)",
    claim: "allocating IndexAmRoutine per look-up caused PG18's regression over 100 partitions and a static \
            routine removes it; Tomas Vondra: the cause is glibc-specific (the trim threshold) and a few more \
            partitions trigger it again",
    seed_numbers: "~50% TPS regression at 100 partitions (pgbench scale 1, count(*) where bid = 0); with the \
                   static routine 2-15% below PG17 (simple, 1 client: 23,856 -> 20,332 TPS)",
    feature: "static-amroutine",
    feature_on: cfg!(feature = "static-amroutine"),
    baseline: "alloc-churn/palloc-routine",
    patched: "alloc-churn/static-routine",
    unit: "query",
    variants: &[
        Variant::new(
            "alloc-churn/palloc-routine",
            "every routine look-up pallocs and fills a fresh 248-byte IndexAmRoutine (before bc6374cd76); glibc malloc",
            "hotloops_alloc_churn_palloc_routine",
            &ChurnSpec { kernel: hotloops_alloc_churn_palloc_routine, routine: Routine::Palloc, backend: MallocBackend::Libc, mallopt: None },
        )
        .helpers(&["hl_bthandler_palloc"]),
        Variant::new(
            "alloc-churn/static-routine",
            "the handler returns a static routine (seed 004's fix; bc6374cd76); glibc malloc",
            "hotloops_alloc_churn_static_routine",
            &ChurnSpec { kernel: hotloops_alloc_churn_static_routine, routine: Routine::Static, backend: MallocBackend::Libc, mallopt: None },
        )
        .helpers(&["hl_bthandler_static"]),
        Variant::sharing(
            "alloc-churn/palloc-mallopt-trim",
            "the baseline with mallopt(M_TRIM_THRESHOLD, 64 MiB), in a process of its own",
            "alloc-churn/palloc-routine",
            "hotloops_alloc_churn_palloc_routine",
            "mallopt(M_TRIM_THRESHOLD, 64 MiB) before the workload",
            &ChurnSpec {
                kernel: hotloops_alloc_churn_palloc_routine,
                routine: Routine::Palloc,
                backend: MallocBackend::Libc,
                mallopt: Some(Mallopt { trim_threshold: Some(MALLOPT_BYTES), top_pad: None }),
            },
        )
        .helpers(&["hl_bthandler_palloc"]),
        Variant::sharing(
            "alloc-churn/palloc-mallopt-toppad",
            "the baseline with mallopt(M_TOP_PAD, 64 MiB), in a process of its own",
            "alloc-churn/palloc-routine",
            "hotloops_alloc_churn_palloc_routine",
            "mallopt(M_TOP_PAD, 64 MiB) before the workload",
            &ChurnSpec {
                kernel: hotloops_alloc_churn_palloc_routine,
                routine: Routine::Palloc,
                backend: MallocBackend::Libc,
                mallopt: Some(Mallopt { trim_threshold: None, top_pad: Some(MALLOPT_BYTES) }),
            },
        )
        .helpers(&["hl_bthandler_palloc"]),
        Variant::sharing(
            "alloc-churn/palloc-mimalloc",
            "the baseline with every memory-context block from mimalloc",
            "alloc-churn/palloc-routine",
            "hotloops_alloc_churn_palloc_routine",
            "memory-context blocks from mimalloc instead of glibc malloc",
            &ChurnSpec { kernel: hotloops_alloc_churn_palloc_routine, routine: Routine::Palloc, backend: MallocBackend::Mimalloc, mallopt: None },
        )
        .helpers(&["hl_bthandler_palloc"]),
    ],
    cases: &[
        CaseSpec { id: "partitions-4", summary: "4 partitions: below the trim cliff (4 scan states under glibc's 128 KiB threshold)" },
        CaseSpec { id: "partitions-5", summary: "5 partitions: where the model's cliff lies" },
        CaseSpec { id: "partitions-100", summary: "100 partitions: the seed's regression" },
    ],
};

/// How the routine is obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routine {
    /// palloc0 and fill per look-up.
    Palloc,
    /// The static routine.
    Static,
}

/// An alloc-churn row's spec: the query kernel and the process setup it runs under.
#[derive(Clone, Copy, Debug)]
pub struct ChurnSpec {
    /// One query.
    pub kernel: fn(&mut Backend) -> u64,
    /// Routine look-ups.
    pub routine: Routine,
    /// Where memory-context blocks come from.
    pub backend: MallocBackend,
    /// glibc settings the process must take first.
    pub mallopt: Option<Mallopt>,
}

impl Kernel for ChurnSpec {
    fn entry(&self) -> usize {
        self.kernel as usize
    }
}

/// The spec of row `v`.
pub fn spec(v: &'static Variant) -> Result<&'static ChurnSpec> {
    v.spec::<ChurnSpec>()
}

/// The study's description.
pub fn info() -> &'static StudyInfo {
    &INFO
}

fn variant_row(id: &str) -> Result<&'static Variant> {
    Ok(INFO.variant(id)?)
}

// ---------------------------------------------------------------------------------------------
// Workload.

/// One partition of `pgbench_accounts` and its index on bid.
pub struct Partition {
    /// First aid.
    pub aid_lo: i64,
    /// Last aid.
    pub aid_hi: i64,
    /// The index's (bid, heap TID) entries, in index order. Kept for the life of the
    /// workload: freeing a buffer this size (mmap'd above 128 KiB) would raise glibc's
    /// thresholds and hide the very cliff the study looks for.
    pub entries: Vec<(i64, ItemPointer)>,
    /// B-tree on bid, a sorted build (366 int4 tuples a leaf).
    pub index: BTree,
}

/// `pgbench_accounts` split over N partitions.
pub struct Workload {
    /// Rows in all.
    pub accounts: u64,
    /// Partitions.
    pub partitions: Vec<Partition>,
}

impl Workload {
    /// `pgbench -i --partitions=n --partition-method=range` over `accounts` rows: partition
    /// `p` holds aids `p * ceil(accounts / n) + 1 ..`, bid = (aid - 1) / 100,000 + 1, each
    /// partition's heap filled in aid order (61 tuples a page).
    pub fn pgbench(accounts: u64, n: usize) -> Result<Workload> {
        if n == 0 {
            bail!("alloc-churn needs at least one partition");
        }
        if accounts < n as u64 {
            bail!("{accounts} accounts cannot fill {n} partitions");
        }
        let part = accounts.div_ceil(n as u64);
        let mut partitions = Vec::with_capacity(n);
        for p in 0..n as u64 {
            let lo = p * part + 1;
            let hi = ((p + 1) * part).min(accounts);
            let entries: Vec<(i64, ItemPointer)> = (lo..=hi)
                .map(|aid| (((aid - 1) / PGBENCH_ROWS_PER_SCALE + 1) as i64, heap_tid(aid - lo, PGBENCH_ACCOUNTS_TUPLES_PER_PAGE)))
                .collect();
            let index = BTree::build(KeyType::Int4, &entries, &leaf_sizes(entries.len(), leaf_items_per_page(KeyType::Int4)));
            partitions.push(Partition { aid_lo: lo as i64, aid_hi: hi as i64, entries, index });
        }
        Ok(Workload { accounts, partitions })
    }

    /// What a correct query for `bid = key` returns: TIDs in partition order.
    pub fn expected(&self, key: i64) -> Vec<ItemPointer> {
        self.partitions.iter().flat_map(|p| p.entries.iter().filter(|e| e.0 == key).map(|e| e.1)).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Where a variant may run.

/// The process's glibc state, as far as this study has changed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// No alloc-churn variant has run here.
    Pristine,
    /// Variants with glibc's default settings have run here.
    Shared,
    /// This variant's mallopt settings were applied here: for good.
    Tuned(&'static str),
}

static CLAIM: Mutex<Claim> = Mutex::new(Claim::Pristine);

/// Where a variant runs in this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In this process.
    InProcess,
    /// In a worker process of its own.
    Worker,
}

/// Decide (and record) where variant `v` runs: a mallopt variant in-process only as the
/// first alloc-churn variant of the process, which then belongs to it; any other variant
/// in-process unless the process belongs to a mallopt variant.
pub fn place(v: &'static Variant) -> Result<Placement> {
    let spec = spec(v)?;
    let mut c = CLAIM.lock().map_err(|_| anyhow!("alloc-churn placement lock poisoned"))?;
    Ok(match (*c, spec.mallopt) {
        (Claim::Tuned(w), _) if w == v.id => Placement::InProcess,
        (Claim::Tuned(_), _) => Placement::Worker,
        (Claim::Pristine, Some(m)) => {
            glibc::apply(&m).with_context(|| format!("{}: applying its malloc settings", v.id))?;
            *c = Claim::Tuned(v.id);
            Placement::InProcess
        }
        (Claim::Shared, Some(_)) => Placement::Worker,
        (_, None) => {
            *c = Claim::Shared;
            Placement::InProcess
        }
    })
}

/// Has this process taken a mallopt variant's settings? (Some(variant id))
pub fn tuned_for() -> Option<&'static str> {
    match *CLAIM.lock().ok()? {
        Claim::Tuned(v) => Some(v),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The backend: one PostgreSQL backend's state for one variant.

/// A backend process's state: `pg_am` with this variant's B-tree handler, the relcache's
/// index entries, and the three memory contexts, all on the variant's malloc.
pub struct Backend {
    variant: &'static Variant,
    kernel: fn(&mut Backend) -> u64,
    routine: Routine,
    workload: Arc<Workload>,
    pg_am: [PgAm; 7],
    /// `CacheMemoryContext` (standing in for each index's `rd_indexcxt`): the relcache's
    /// copies of the routine before bc6374cd76.
    cache_cxt: AllocSet,
    /// `MessageContext`: the planner's allocations, reset before each query.
    message_cxt: AllocSet,
    /// `ExecutorState`: scan descriptors and scan states, freed at `ExecutorEnd`.
    executor_cxt: AllocSet,
    rels: Vec<IndexRelation>,
    scans: Vec<*mut IndexScanDesc>,
    keys: [ScanKey; 1],
    /// Where the scans' TIDs go (`tbm_add_tuples`), per query.
    pub tbm: TidDigest,
}

impl Backend {
    /// A backend for variant `v` over `workload`, querying `bid = key`. Errors when this
    /// process cannot run `v` in-process ([`place`]).
    pub fn new(v: &'static Variant, workload: Arc<Workload>, key: i64) -> Result<Backend> {
        let spec = spec(v)?;
        if place(v)? != Placement::InProcess {
            bail!("{} cannot run in this process: another variant's malloc settings are in force here (run it in a worker)", v.id);
        }
        let handler: AmHandler = match spec.routine {
            Routine::Palloc => hl_bthandler_palloc,
            Routine::Static => hl_bthandler_static,
        };
        let cache_cxt = AllocSet::with_default_sizes("CacheMemoryContext", spec.backend);
        let message_cxt = AllocSet::with_default_sizes("MessageContext", spec.backend);
        let executor_cxt = AllocSet::with_default_sizes("ExecutorState", spec.backend);
        let pg_am = amapi::pg_am(handler);
        // RelationInitIndexAccessInfo -> InitIndexAmRoutine, once per index.
        let mut rels = Vec::with_capacity(workload.partitions.len());
        let old = memory_context_switch_to(message_cxt.as_ptr());
        for (i, p) in workload.partitions.iter().enumerate() {
            // SAFETY: MessageContext is current and live; the routine it returns is copied
            // before the temporary is freed.
            let rd_indam = unsafe {
                let r = get_index_am_routine_by_am_id(&pg_am, BTREE_AM_OID)?;
                match spec.routine {
                    Routine::Palloc => {
                        let copy = cache_cxt.alloc(size_of::<IndexAmRoutine>()).as_ptr().cast::<IndexAmRoutine>();
                        copy.write(*r);
                        pfree(r.cast_mut().cast());
                        copy.cast_const()
                    }
                    Routine::Static => r,
                }
            };
            rels.push(IndexRelation { rd_id: 16_384 + 2 * i as u32 + 1, relam: BTREE_AM_OID, rd_indam, index: &p.index });
        }
        memory_context_switch_to(old);
        message_cxt.reset();
        Ok(Backend {
            variant: v,
            kernel: spec.kernel,
            routine: spec.routine,
            scans: vec![std::ptr::null_mut(); workload.partitions.len()],
            workload,
            pg_am,
            cache_cxt,
            message_cxt,
            executor_cxt,
            rels,
            keys: [eq_key(key)],
            tbm: TidDigest::new(),
        })
    }

    /// The variant this backend runs.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Partitions.
    pub fn partitions(&self) -> usize {
        self.rels.len()
    }

    /// The workload.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// The workload, shared.
    pub fn workload_arc(&self) -> Arc<Workload> {
        self.workload.clone()
    }

    /// Context counters: (cache, message, executor).
    pub fn context_stats(&self) -> [mcxt::ContextStats; 3] {
        [self.cache_cxt.stats(), self.message_cxt.stats(), self.executor_cxt.stats()]
    }

    /// One query with this backend's variant kernel.
    pub fn query(&mut self) -> u64 {
        (self.kernel)(self)
    }

    /// `queries` queries; their digests folded.
    pub fn run_queries(&mut self, queries: u32) -> u64 {
        let mut d = 0u64;
        for _ in 0..queries {
            d = d.rotate_left(7) ^ self.query();
        }
        d
    }
}

#[cold]
#[inline(never)]
fn wrong_backend(palloc: bool, built: &'static Variant) -> ! {
    panic!("the {} kernel called with a backend built for {}", if palloc { "palloc" } else { "static" }, built.id)
}

#[cold]
#[inline(never)]
fn lookup_failed(e: amapi::AmLookupError) -> ! {
    panic!("ERROR: {e}")
}

#[cold]
#[inline(never)]
fn missing_callback(name: &str) -> ! {
    panic!("index access method routine has no {name} callback")
}

/// FNV-1a step.
#[inline(always)]
fn fold(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x100_0000_01b3)
}

/// One query over the backend's partitions (see the module doc). `PALLOC`: the look-ups
/// return palloc'd routines, and the callers that pfree'd before bc6374cd76 pfree them.
#[inline(always)]
fn query<const PALLOC: bool>(b: &mut Backend) -> u64 {
    if (b.routine == Routine::Palloc) != PALLOC {
        wrong_backend(PALLOC, b.variant);
    }
    // SAFETY: the contexts, relations and their indexes live as long as `b`; every pointer
    // palloc'd below is used and freed within this query, before the contexts are reset.
    unsafe {
        // PostgresMain resets MessageContext before reading the next query.
        b.message_cxt.reset();
        let old = memory_context_switch_to(b.message_cxt.as_ptr());

        // Planning: the routine look-ups per partition index.
        let mut planned = 0xcbf2_9ce4_8422_2325u64;
        for rel in &b.rels {
            let r = match get_index_am_routine_by_am_id(&b.pg_am, rel.relam) {
                Ok(r) => r,
                Err(e) => lookup_failed(e),
            };
            planned = fold(planned, (*r).amcanorder as u64 | ((*r).amcanbackward as u64) << 1 | ((*r).amsupport as u64) << 8);
            if PALLOC {
                // get_opmethod_canorder, IndexSupportsBackwardScan: pfree(amroutine).
                pfree(r.cast_mut().cast());
            }
            let r = match get_index_am_routine_by_am_id(&b.pg_am, rel.relam) {
                Ok(r) => r,
                Err(e) => lookup_failed(e),
            };
            // equality_ops_are_compatible, get_op_index_interpretation: no pfree.
            planned = fold(planned, (*r).amconsistentequality as u64 | ((*r).amsearcharray as u64) << 1 | ((*r).amstrategies as u64) << 8);
        }

        // ExecutorStart: a bitmap index scan per partition, through the relcache's rd_indam.
        memory_context_switch_to(b.executor_cxt.as_ptr());
        for (i, rel) in b.rels.iter().enumerate() {
            let Some(begin) = (*rel.rd_indam).ambeginscan else { missing_callback("ambeginscan") };
            *b.scans.get_unchecked_mut(i) = begin(rel, 1, 0);
        }
        // ExecutorRun: index_rescan + index_getbitmap per partition.
        b.tbm = TidDigest::new();
        let mut ntids = 0i64;
        let mut state = 0u64;
        for (i, rel) in b.rels.iter().enumerate() {
            let am = &*rel.rd_indam;
            let scan = *b.scans.get_unchecked(i);
            let (Some(rescan), Some(getbitmap)) = (am.amrescan, am.amgetbitmap) else { missing_callback("amrescan/amgetbitmap") };
            rescan(scan, b.keys.as_ptr(), 1, std::ptr::null(), 0);
            let n = getbitmap(scan, &mut b.tbm);
            ntids += n;
            state = fold(state, n as u64);
        }
        // ExecutorEnd: index_endscan per partition (amendscan, then IndexScanEnd). Only
        // fields the scan wrote are read: palloc'd memory is not zeroed.
        for (i, rel) in b.rels.iter().enumerate() {
            let scan = *b.scans.get_unchecked(i);
            let so = (*scan).opaque;
            state = fold(state, (*so).curr_pos.curr_page as u64 | ((*so).number_of_keys as u64) << 32);
            let Some(end) = (*rel.rd_indam).amendscan else { missing_callback("amendscan") };
            end(scan);
            if !(*scan).key_data.is_null() {
                pfree((*scan).key_data.cast_mut().cast());
            }
            pfree(scan.cast());
        }
        // FreeExecutorState.
        b.executor_cxt.reset();
        memory_context_switch_to(old);
        fold(fold(fold(planned, ntids as u64), b.tbm.value()), state)
    }
}

/// `alloc-churn/palloc-routine`: one query, every look-up palloc'd and filled. The mallopt
/// and mimalloc variants run this kernel too: they differ only in the process's malloc.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_alloc_churn_palloc_routine(b: &mut Backend) -> u64 {
    query::<true>(b)
}

/// `alloc-churn/static-routine`: one query, the static routine.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_alloc_churn_static_routine(b: &mut Backend) -> u64 {
    query::<false>(b)
}

// ---------------------------------------------------------------------------------------------
// Worker processes.

/// The hidden `hotloops` subcommand that runs this module's workers.
pub const WORKER_SUBCOMMAND: &str = "alloc-churn-worker";

/// The `hotloops` binary to start workers from: `$HOTLOOPS_EXE`, else this executable if it
/// is `hotloops`, else `hotloops` one directory up (a test or bench binary in
/// `target/<profile>/deps`).
pub fn worker_exe() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("HOTLOOPS_EXE") {
        return Ok(PathBuf::from(p));
    }
    let me = std::env::current_exe().context("finding the current executable")?;
    if me.file_stem().is_some_and(|s| s == "hotloops") {
        return Ok(me);
    }
    let up = me.parent().and_then(|d| d.parent()).map(|d| d.join(format!("hotloops{}", std::env::consts::EXE_SUFFIX)));
    match up {
        Some(p) if p.is_file() => Ok(p),
        _ => bail!(
            "alloc-churn runs some variants in fresh `hotloops` processes, but {} is not the hotloops binary and none \
             was found beside it; set HOTLOOPS_EXE to the hotloops binary",
            me.display()
        ),
    }
}

/// A worker process serving one variant's queries (`serve`): `run` -> digest.
pub struct Worker {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
    id: &'static str,
    /// Median of 20 `ping` round trips at start: the pipe's share of every `run`.
    pub round_trip: Duration,
}

impl Worker {
    /// Start a worker for variant `v` over `accounts` rows in `partitions` partitions, `queries`
    /// queries per `run`.
    pub fn spawn(v: &'static Variant, accounts: u64, partitions: usize, queries: u32, key: i64) -> Result<Worker> {
        let id = v.id;
        let mut child = Command::new(worker_exe()?)
            .args([WORKER_SUBCOMMAND, "serve", "--variant", id])
            .args(["--accounts", &accounts.to_string(), "--partitions", &partitions.to_string()])
            .args(["--queries", &queries.to_string(), "--key", &key.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting a worker process for {id}"))?;
        let to = child.stdin.take().context("worker stdin")?;
        let from = BufReader::new(child.stdout.take().context("worker stdout")?);
        let mut w = Worker { child, to, from, id, round_trip: Duration::ZERO };
        let line = w.read_line()?;
        if !line.starts_with("ready") {
            bail!("worker for {id} said `{line}` instead of `ready`");
        }
        let mut trips = Vec::with_capacity(20);
        for _ in 0..20 {
            let t = Instant::now();
            w.command("ping")?;
            trips.push(t.elapsed());
        }
        trips.sort();
        w.round_trip = trips[trips.len() / 2];
        Ok(w)
    }

    fn command(&mut self, cmd: &str) -> Result<String> {
        writeln!(self.to, "{cmd}").and_then(|_| self.to.flush()).with_context(|| format!("writing to the worker for {}", self.id))?;
        self.read_line()
    }

    fn read_line(&mut self) -> Result<String> {
        let mut line = String::new();
        let n = self.from.read_line(&mut line).context("reading from a worker")?;
        if n == 0 {
            let mut err = String::new();
            if let Some(e) = self.child.stderr.as_mut() {
                let _ = e.read_to_string(&mut err);
            }
            let status = self.child.wait().ok();
            bail!("worker for {} ended ({status:?}): {}", self.id, err.trim());
        }
        Ok(line.trim().to_string())
    }

    /// Run one batch of queries in the worker; its digest.
    pub fn run(&mut self) -> Result<u64> {
        let line = self.command("run")?;
        line.parse().map_err(|_| anyhow!("worker for {} answered `{line}`, not a digest", self.id))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = writeln!(self.to, "quit").and_then(|_| self.to.flush());
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Cases.

/// A report case: queries over `partitions` partitions, every variant on the same workload.
pub struct ChurnCase {
    accounts: u64,
    partitions: usize,
    queries: u32,
    key: i64,
    size: Size,
    workload: Arc<Workload>,
    backends: HashMap<&'static str, Backend>,
    workers: HashMap<&'static str, Worker>,
    placements: HashMap<&'static str, Placement>,
}

impl ChurnCase {
    /// A case of `queries` queries a run over `accounts` rows in `partitions` partitions.
    pub fn new(accounts: u64, partitions: usize, queries: u32, key: i64, size: Size) -> Result<ChurnCase> {
        Ok(ChurnCase {
            accounts,
            partitions,
            queries,
            key,
            size,
            workload: Arc::new(Workload::pgbench(accounts, partitions)?),
            backends: HashMap::new(),
            workers: HashMap::new(),
            placements: HashMap::new(),
        })
    }

    /// The shared workload.
    pub fn workload(&self) -> &Arc<Workload> {
        &self.workload
    }

    /// Median round trip of `v`'s worker (a `ping`), if it has one.
    pub fn worker_round_trip(&self, v: &'static Variant) -> Option<Duration> {
        self.workers.get(v.id).map(|w| w.round_trip)
    }

    /// Where variant `v` ran (None: not yet).
    pub fn placement(&self, v: &'static Variant) -> Option<Placement> {
        self.placements.get(v.id).copied()
    }

    /// Run variant `v` once (its queries): in this process if it is dedicated to `v`, else in
    /// `v`'s worker process.
    pub fn try_run(&mut self, v: &'static Variant) -> Result<u64> {
        spec(v)?;
        let here = crate::study::dedicated_variant() == Some(v.id);
        let p = *self.placements.entry(v.id).or_insert(if here { Placement::InProcess } else { Placement::Worker });
        match p {
            Placement::InProcess => {
                if !self.backends.contains_key(v.id) {
                    self.backends.insert(v.id, Backend::new(v, self.workload.clone(), self.key)?);
                }
                let b = self.backends.get_mut(v.id).context("the backend was just built")?;
                Ok(b.run_queries(self.queries))
            }
            Placement::Worker => {
                if !self.workers.contains_key(v.id) {
                    self.workers.insert(v.id, Worker::spawn(v, self.accounts, self.partitions, self.queries, self.key)?);
                }
                self.workers.get_mut(v.id).context("the worker was just spawned")?.run()
            }
        }
    }
}

impl Case for ChurnCase {
    fn describe(&self) -> String {
        let w = &self.workload;
        let state = size_of::<crate::pg::nbtree::BTScanOpaque>();
        format!(
            "select count(*) from pgbench_accounts where bid = {} over {} range partitions of {} rows ({} rows each, a \
             B-tree on bid per partition); per query {} routine look-ups and {} scan states of {} B ({} B at the top of \
             the heap, glibc's default trim threshold is 131,072 B); {} queries a run. Each variant runs in a worker \
             process of its own (a fresh heap, like a new backend): its wall clock includes one pipe round trip a run \
             (row worker-round-trip), and the counter rows count only this side of the pipe; minor faults per query \
             are in the sweep rows (a fresh process per variant and partition count)",
            self.key,
            self.partitions,
            w.accounts,
            w.accounts.div_ceil(self.partitions as u64),
            LOOKUPS_PER_PARTITION * self.partitions,
            self.partitions,
            state,
            state * self.partitions,
            self.queries
        )
    }

    fn items(&self) -> u64 {
        self.queries as u64
    }

    fn run(&mut self, v: &'static Variant) -> anyhow::Result<u64> {
        self.try_run(v).with_context(|| format!("alloc-churn case partitions-{}", self.partitions))
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        // A ~50% TPS loss that the static routine removed: static takes about half the
        // baseline's time per query, at the seed's 100 partitions.
        (self.partitions == SEED_PARTITIONS && v.id == INFO.patched).then_some(0.5)
    }

    fn extra_metrics(&mut self, v: &'static Variant) -> anyhow::Result<Vec<(String, f64, String)>> {
        let sweep = match cached_sweep(self.size) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("alloc-churn: sweep failed, no sweep rows: {e:#}");
                return Ok(Vec::new());
            }
        };
        let id = v.id;
        let mut rows = Vec::new();
        if let Some(rt) = self.worker_round_trip(v) {
            rows.push(("worker-round-trip".into(), rt.as_secs_f64() * 1e6, "us/run".into()));
        }
        let c = cliffs(&sweep).into_iter().find(|c| c.variant == id);
        if let Some(c) = c {
            if let Some(at) = c.at {
                rows.push(("sweep:cliff-partitions".into(), at as f64, "partitions".into()));
                rows.push(("sweep:cliff-step".into(), c.step, "x".into()));
                rows.push(("sweep:cliff-minor-faults".into(), c.faults_at, "faults/query".into()));
            }
            rows.push(("sweep:largest-step".into(), c.max_step, "x".into()));
            rows.push(("sweep:largest-step-at".into(), c.max_step_at as f64, "partitions".into()));
        }
        for n in [self.partitions, SEED_PARTITIONS] {
            if let Some(p) = sweep.point(id, n) {
                rows.push((format!("sweep:us-per-query@{n}"), p.us_median, "us/query".into()));
                rows.push((format!("sweep:minor-faults-per-query@{n}"), p.minor_faults, "faults/query".into()));
            }
            if n == self.partitions {
                break;
            }
        }
        Ok(rows)
    }
}

impl Study for AllocChurn {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> Result<Box<dyn Case>> {
        // Rows do not change a bid = 0 query's work (one leaf per partition); fewer keep the
        // callgrind runs short. A run is about 1 ms of the variants without the cliff (~0.1 us
        // a partition), so the pipe round trip stays a small share.
        let n: usize = case
            .id
            .strip_prefix("partitions-")
            .and_then(|n| n.parse().ok())
            .with_context(|| format!("alloc-churn has no case `{}`", case.id))?;
        let accounts = if size == Size::Test { 10_000 } else { PGBENCH_ROWS_PER_SCALE };
        let queries = if size == Size::Test { 2 } else { (10_000 / n as u32).clamp(4, 5_000) };
        Ok(Box::new(ChurnCase::new(accounts, n, queries, SEED_KEY, size)?))
    }
}

/// The pipeline: one query over `case`'s partitions with the variant this build selects
/// (`alloc-churn/static-routine` with `--features static-amroutine`, else
/// `alloc-churn/palloc-routine`).
pub fn pipeline(case: &mut ChurnCase) -> Result<u64> {
    case.try_run(INFO.pipeline_variant())
}

// ---------------------------------------------------------------------------------------------
// Measuring one point.

/// Minor page faults of this process: perf's software counter where it opens, else getrusage.
struct Faults {
    perf: Option<perf_event::Counter>,
}

fn rusage_minflt() -> u64 {
    // SAFETY: getrusage fills the struct.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0 { u.ru_minflt as u64 } else { 0 }
    }
}

impl Faults {
    fn new() -> Faults {
        let mut b = perf_event::Builder::new(perf_event::events::Software::PAGE_FAULTS_MIN);
        b.exclude_kernel(true).exclude_hv(true);
        Faults { perf: b.build().ok() }
    }
    fn source(&self) -> &'static str {
        if self.perf.is_some() { "perf minor-faults" } else { "getrusage ru_minflt" }
    }
    /// (perf count or None, rusage count).
    fn read(&mut self) -> (Option<u64>, u64) {
        let p = self.perf.as_mut().and_then(|c| c.read().ok());
        (p, rusage_minflt())
    }
    fn enable(&mut self) {
        if let Some(c) = self.perf.as_mut()
            && c.enable().is_err()
        {
            self.perf = None;
        }
    }
}

/// One point of the sweep: a variant at N partitions, measured in a fresh process.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepPoint {
    /// Variant id.
    pub variant: String,
    /// Partitions.
    pub partitions: usize,
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
    /// The trim probe in the fresh process, before any setting or workload.
    pub trim_fresh: Option<glibc::TrimProbe>,
    /// The probe after the variant's settings and the workload build, before timing.
    pub trim_ready: Option<glibc::TrimProbe>,
    /// Digest of one query: equal across variants at the same N.
    pub digest: u64,
}

/// How long to measure a point.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PointConfig {
    /// Rows.
    pub accounts: u64,
    /// Query constant.
    pub key: i64,
    /// Target timed duration, ms.
    pub target_ms: u64,
    /// Fewest timed queries.
    pub min_queries: u32,
    /// Most timed queries.
    pub max_queries: u32,
}

/// Measure variant `v` at `n` partitions in this process (which must be fresh: a worker).
pub fn measure_point(v: &'static Variant, n: usize, cfg: &PointConfig) -> Result<SweepPoint> {
    let trim_fresh = glibc::probe();
    let workload = Arc::new(Workload::pgbench(cfg.accounts, n)?);
    let mut b = Backend::new(v, workload, cfg.key)?;
    let trim_ready = glibc::probe();
    // Warm-up: at least 5 queries and 5 ms.
    let t = Instant::now();
    let mut warm = 0u32;
    let mut digest = 0;
    while warm < 5 || t.elapsed() < Duration::from_millis(5) {
        digest = b.query();
        warm += 1;
    }
    let per = t.elapsed().as_secs_f64() / warm as f64;
    let q = ((cfg.target_ms as f64 / 1e3 / per) as u32).clamp(cfg.min_queries.max(1), cfg.max_queries.max(cfg.min_queries).max(1));
    // Touched before timing, so its pages do not count as the queries' faults.
    let mut ns: Vec<u64> = vec![1; q as usize];
    std::hint::black_box(&mut ns);
    let mut faults = Faults::new();
    faults.enable();
    let (p0, r0) = faults.read();
    for slot in ns.iter_mut() {
        let s = Instant::now();
        let d = b.query();
        *slot = s.elapsed().as_nanos() as u64;
        if d != digest {
            bail!("{} at {n} partitions: query digests differ between runs ({d:#x} vs {digest:#x})", v.id);
        }
    }
    let (p1, r1) = faults.read();
    let source = faults.source();
    ns.sort_unstable();
    let pct = |f: f64| ns[((ns.len() - 1) as f64 * f).round() as usize] as f64 / 1e3;
    let rusage = (r1 - r0) as f64 / q as f64;
    let minor = match (p0, p1) {
        (Some(a), Some(b)) => (b - a) as f64 / q as f64,
        _ => rusage,
    };
    Ok(SweepPoint {
        variant: v.id.to_string(),
        partitions: n,
        queries: q,
        us_median: pct(0.5),
        us_mean: ns.iter().sum::<u64>() as f64 / q as f64 / 1e3,
        us_p10: pct(0.1),
        us_p90: pct(0.9),
        minor_faults: minor,
        fault_source: if p0.is_some() && p1.is_some() { source.into() } else { "getrusage ru_minflt".into() },
        minor_faults_rusage: rusage,
        trim_fresh,
        trim_ready,
        digest,
    })
}

/// Measure one point in a fresh worker process.
pub fn point_in_worker(v: &'static Variant, n: usize, cfg: &PointConfig) -> Result<SweepPoint> {
    let id = v.id;
    let o = Command::new(worker_exe()?)
        .args([WORKER_SUBCOMMAND, "point", "--variant", id, "--partitions", &n.to_string()])
        .args(["--accounts", &cfg.accounts.to_string(), "--key", &cfg.key.to_string()])
        .args(["--target-ms", &cfg.target_ms.to_string(), "--min-queries", &cfg.min_queries.to_string()])
        .args(["--max-queries", &cfg.max_queries.to_string()])
        .output()
        .with_context(|| format!("starting a worker for {id} at {n} partitions"))?;
    if !o.status.success() {
        bail!("worker for {id} at {n} partitions failed: {}", String::from_utf8_lossy(&o.stderr).trim());
    }
    serde_json::from_slice(&o.stdout).with_context(|| format!("reading the worker's point for {id} at {n} partitions"))
}

// ---------------------------------------------------------------------------------------------
// The sweep.

/// What to sweep.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepConfig {
    /// Partition counts, ascending.
    pub grid: Vec<usize>,
    /// Variant ids.
    pub variants: Vec<String>,
    /// Per point.
    pub point: PointConfig,
}

impl SweepConfig {
    /// Every N up to 12 (the cliff is near 5), then coarser to 200.
    pub fn full() -> SweepConfig {
        let mut grid: Vec<usize> = (1..=12).collect();
        grid.extend([14, 16, 20, 24, 32, 40, 48, 64, 80, 100, 128, 160, 200]);
        SweepConfig {
            grid,
            variants: INFO.variants.iter().map(|v| v.id.to_string()).collect(),
            point: PointConfig { accounts: PGBENCH_ROWS_PER_SCALE, key: SEED_KEY, target_ms: 60, min_queries: 30, max_queries: 20_000 },
        }
    }

    /// A shorter sweep for `--quick` and tests.
    pub fn quick() -> SweepConfig {
        let mut grid: Vec<usize> = (1..=8).collect();
        grid.extend([10, 12, 16, 24, 32, 48, 64, 100, 128, 200]);
        SweepConfig {
            grid,
            variants: INFO.variants.iter().map(|v| v.id.to_string()).collect(),
            point: PointConfig { accounts: PGBENCH_ROWS_PER_SCALE, key: SEED_KEY, target_ms: 20, min_queries: 20, max_queries: 5_000 },
        }
    }
}

/// A sweep's points and where it ran.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sweep {
    /// What was swept.
    pub config: SweepConfig,
    /// The C library (glibc version where known).
    pub libc: String,
    /// CPU model.
    pub cpu: String,
    /// Host name.
    pub host: String,
    /// All points, variant by variant, ascending N.
    pub points: Vec<SweepPoint>,
}

impl Sweep {
    /// The point of `variant` at `n`.
    pub fn point(&self, variant: &str, n: usize) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.variant == variant && p.partitions == n)
    }

    /// The points of one variant, ascending N.
    pub fn series(&self, variant: &str) -> Vec<&SweepPoint> {
        let mut v: Vec<_> = self.points.iter().filter(|p| p.variant == variant).collect();
        v.sort_by_key(|p| p.partitions);
        v
    }
}

/// The C library's name and version.
pub fn libc_version() -> String {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: glibc returns a static NUL-terminated string.
        let v = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
        format!("glibc {}", v.to_string_lossy())
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        "not glibc".to_string()
    }
}

/// Run the sweep: every (variant, N) in a fresh worker. Errors if the variants' digests
/// differ at any N. `progress` hears each point.
pub fn run_sweep(cfg: &SweepConfig, progress: &mut dyn FnMut(&SweepPoint)) -> Result<Sweep> {
    if cfg.grid.is_empty() || cfg.variants.is_empty() {
        bail!("an empty sweep: give at least one partition count and one variant");
    }
    let rows: Vec<&'static Variant> = cfg.variants.iter().map(|id| variant_row(id)).collect::<Result<_>>()?;
    let mut points = Vec::new();
    for &v in &rows {
        for &n in &cfg.grid {
            let p = point_in_worker(v, n, &cfg.point)?;
            progress(&p);
            points.push(p);
        }
    }
    for &n in &cfg.grid {
        let at: Vec<_> = points.iter().filter(|p| p.partitions == n).collect();
        if let Some(bad) = at.iter().find(|p| p.digest != at[0].digest) {
            bail!("at {n} partitions {} returned digest {:#x} but {} returned {:#x}: the variants disagree", bad.variant, bad.digest, at[0].variant, at[0].digest);
        }
    }
    let cpu = crate::host::cpu::cpu();
    Ok(Sweep {
        config: cfg.clone(),
        libc: libc_version(),
        cpu: cpu.name,
        host: std::fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default(),
        points,
    })
}

static SWEEPS: Mutex<Vec<(Size, Arc<Sweep>)>> = Mutex::new(Vec::new());

/// The report's sweep at `size`, run once per process.
fn cached_sweep(size: Size) -> Result<Arc<Sweep>> {
    let mut s = SWEEPS.lock().map_err(|_| anyhow!("sweep cache lock poisoned"))?;
    if let Some((_, sw)) = s.iter().find(|(z, _)| *z == size) {
        return Ok(sw.clone());
    }
    let cfg = match size {
        Size::Full => SweepConfig::full(),
        Size::Quick => SweepConfig::quick(),
        Size::Test => {
            let mut c = SweepConfig::quick();
            c.grid = vec![1, 4, 5, 6, 100];
            c.point.accounts = 10_000;
            c.point.target_ms = 5;
            c.point.min_queries = 5;
            c
        }
    };
    let sw = Arc::new(run_sweep(&cfg, &mut |_| {})?);
    s.push((size, sw.clone()));
    Ok(sw)
}

/// Where one variant's per-query time jumps.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cliff {
    /// Variant id.
    pub variant: String,
    /// The first N whose median time per query is >= 10x that at the previous N of the grid
    /// (None: no such jump).
    pub at: Option<usize>,
    /// The previous N of the grid.
    pub from: Option<usize>,
    /// The jump there (time at `at` / time at `from`).
    pub step: f64,
    /// us per query at `from` and `at`.
    pub us_before: f64,
    /// us per query at `at`.
    pub us_at: f64,
    /// Minor faults per query at `from`.
    pub faults_before: f64,
    /// Minor faults per query at `at`.
    pub faults_at: f64,
    /// The largest step anywhere on the grid, and where.
    pub max_step: f64,
    /// N of the largest step.
    pub max_step_at: usize,
}

/// The factor that makes a step a cliff.
pub const CLIFF_FACTOR: f64 = 10.0;

/// Each variant's cliff: the first grid step where the median per-query time grows by
/// [`CLIFF_FACTOR`] or more.
pub fn cliffs(s: &Sweep) -> Vec<Cliff> {
    let mut out = Vec::new();
    for id in &s.config.variants {
        let pts = s.series(id);
        let mut c = Cliff {
            variant: id.clone(),
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
            if c.at.is_none() && step >= CLIFF_FACTOR {
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

/// The sweep as Markdown: cliffs, then time and faults per query at every N.
pub fn sweep_markdown(s: &Sweep) -> String {
    let mut m = String::new();
    m.push_str(&format!("# alloc-churn sweep\n\n{} on {} ({}); every point in a fresh process.\n\n", s.libc, s.cpu, s.host));
    m.push_str(&format!("Query: `select count(*) from pgbench_accounts where bid = {}` over N range partitions of {} rows.\n\n", s.config.point.key, s.config.point.accounts));
    m.push_str("| variant | cliff (>=10x step) | step | us/query before -> at | minor faults/query before -> at | largest step |\n|---|---|---|---|---|---|\n");
    for c in cliffs(s) {
        match (c.at, c.from) {
            (Some(at), Some(from)) => m.push_str(&format!(
                "| {} | {from} -> {at} partitions | {:.1}x | {:.2} -> {:.2} | {:.1} -> {:.1} | {:.1}x at {} |\n",
                short(&c.variant),
                c.step,
                c.us_before,
                c.us_at,
                c.faults_before,
                c.faults_at,
                c.max_step,
                c.max_step_at
            )),
            _ => m.push_str(&format!("| {} | none | - | - | - | {:.1}x at {} |\n", short(&c.variant), c.max_step, c.max_step_at)),
        }
    }
    let base = INFO.baseline;
    let stat = INFO.patched;
    if let (Some(a), Some(b)) = (s.point(base, SEED_PARTITIONS), s.point(stat, SEED_PARTITIONS)) {
        m.push_str(&format!(
            "\nAt {SEED_PARTITIONS} partitions: palloc-routine / static-routine = {:.3} (time per query; the seed: ~2, a ~50% TPS loss).\n",
            a.us_median / b.us_median
        ));
    }
    m.push_str("\nMedian us per query (minor faults per query):\n\n| N |");
    for id in &s.config.variants {
        m.push_str(&format!(" {} |", short(id)));
    }
    m.push_str("\n|---|");
    for _ in &s.config.variants {
        m.push_str("---|");
    }
    m.push('\n');
    for &n in &s.config.grid {
        m.push_str(&format!("| {n} |"));
        for id in &s.config.variants {
            match s.point(id, n) {
                Some(p) => m.push_str(&format!(" {:.2} ({:.1}) |", p.us_median, p.minor_faults)),
                None => m.push_str(" - |"),
            }
        }
        m.push('\n');
    }
    let untrimmed: Vec<String> = s
        .points
        .iter()
        .filter(|p| p.trim_fresh.is_some_and(|t| !t.trimmed))
        .map(|p| format!("{} @ {}", short(&p.variant), p.partitions))
        .collect();
    if !untrimmed.is_empty() {
        m.push_str(&format!("\nWarning: these fresh processes did not trim at glibc's default threshold: {}\n", untrimmed.join(", ")));
    }
    m
}

/// One SVG: time per query (log) and minor faults per query against partitions (log), a
/// line per variant.
pub fn sweep_svg(s: &Sweep) -> Result<String> {
    use plotters::prelude::*;
    let colors = [RGBColor(214, 39, 40), RGBColor(31, 119, 180), RGBColor(44, 160, 44), RGBColor(148, 103, 189), RGBColor(255, 127, 14)];
    let xmax = *s.config.grid.iter().max().unwrap_or(&1) as f64 * 1.1;
    let (mut ylo, mut yhi, mut fhi) = (f64::MAX, 0f64, 1f64);
    for p in &s.points {
        ylo = ylo.min(p.us_median);
        yhi = yhi.max(p.us_median);
        fhi = fhi.max(p.minor_faults);
    }
    if s.points.is_empty() {
        bail!("an empty sweep has nothing to plot");
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 860)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let (top, bottom) = root.split_vertically(500);
        let title = format!("alloc-churn: cost per query against partitions ({}, {})", s.libc, s.cpu);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((0.9f64..xmax).log_scale(), ((ylo * 0.7).max(1e-3)..yhi * 1.5).log_scale())
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y}"))
            .x_desc("partitions")
            .y_desc("median us per query")
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (i, id) in s.config.variants.iter().enumerate() {
            let id = id.as_str();
            let c = colors[i % colors.len()];
            let pts: Vec<(f64, f64)> = s.series(id).iter().map(|p| (p.partitions as f64, p.us_median)).collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(|e| anyhow!("{e}"))?
                .label(short(id).to_string())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
            chart.draw_series(pts.iter().map(|&(x, y)| Circle::new((x, y), 3, c.filled()))).map_err(|e| anyhow!("{e}"))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow!("{e}"))?;

        let mut faults = ChartBuilder::on(&bottom)
            .caption("minor page faults per query", ("sans-serif", 14))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((0.9f64..xmax).log_scale(), 0f64..fhi * 1.1)
            .map_err(|e| anyhow!("{e}"))?;
        faults
            .configure_mesh()
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc("partitions")
            .y_desc("faults per query")
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (i, id) in s.config.variants.iter().enumerate() {
            let c = colors[i % colors.len()];
            let pts: Vec<(f64, f64)> = s.series(id).iter().map(|p| (p.partitions as f64, p.minor_faults)).collect();
            faults.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2))).map_err(|e| anyhow!("{e}"))?;
            faults.draw_series(pts.iter().map(|&(x, y)| Circle::new((x, y), 3, c.filled()))).map_err(|e| anyhow!("{e}"))?;
        }
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}

/// Run the sweep and write `sweep.json`, `sweep.md` and `sweep.svg` into `out` (what
/// `hotloops sweep alloc-churn` does). Returns the files written.
pub fn write_sweep(out: &Path, cfg: &SweepConfig, progress: &mut dyn FnMut(&SweepPoint)) -> Result<Vec<PathBuf>> {
    crate::host::check_writable(out)?;
    let s = run_sweep(cfg, progress)?;
    let files = vec![
        (out.join("sweep.json"), serde_json::to_vec_pretty(&s)?),
        (out.join("sweep.md"), sweep_markdown(&s).into_bytes()),
        (out.join("sweep.svg"), sweep_svg(&s)?.into_bytes()),
    ];
    crate::host::write_all_atomic(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

// ---------------------------------------------------------------------------------------------
// The worker subcommand.

#[derive(clap::Parser)]
#[command(name = "hotloops alloc-churn-worker", about = "alloc-churn's processes of their own")]
struct WorkerCli {
    #[command(subcommand)]
    cmd: WorkerCmd,
}

#[derive(clap::Subcommand)]
enum WorkerCmd {
    /// Serve one variant's queries on stdin/stdout (`run` -> digest, `quit`).
    Serve {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        accounts: u64,
        #[arg(long)]
        partitions: usize,
        #[arg(long)]
        queries: u32,
        #[arg(long, allow_hyphen_values = true)]
        key: i64,
    },
    /// Measure one sweep point in this fresh process; print it as JSON.
    Point {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        partitions: usize,
        #[arg(long, default_value_t = PGBENCH_ROWS_PER_SCALE)]
        accounts: u64,
        #[arg(long, default_value_t = SEED_KEY, allow_hyphen_values = true)]
        key: i64,
        #[arg(long, default_value_t = 60)]
        target_ms: u64,
        #[arg(long, default_value_t = 30)]
        min_queries: u32,
        #[arg(long, default_value_t = 20_000)]
        max_queries: u32,
    },
    /// The whole sweep: sweep.json, sweep.md, sweep.svg.
    Sweep {
        #[arg(long, default_value = "target/hotloops-sweep")]
        out: PathBuf,
        #[arg(long)]
        quick: bool,
    },
    /// Print glibc's trim probe as JSON, after freeing an mmap'd chunk of `free_mmap` bytes
    /// first if asked (which raises glibc's thresholds for good).
    Probe {
        #[arg(long)]
        free_mmap: Option<usize>,
    },
    /// Run variants in order through one case in this process, then probe; print JSON
    /// (placements, digests, probe). For the isolation tests.
    Sequence {
        /// Variant ids or short names, in order.
        #[arg(required = true)]
        variants: Vec<String>,
        #[arg(long, default_value_t = 4)]
        partitions: usize,
        /// Dedicate this process to a variant first, as `hotloops run` does.
        #[arg(long)]
        dedicate: Option<String>,
    },
}

/// What `sequence` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct SequenceReport {
    /// (variant id, placement, digest) in order.
    pub runs: Vec<(String, String, u64)>,
    /// The trim probe of this process afterwards.
    pub probe: Option<glibc::TrimProbe>,
}

/// `hotloops alloc-churn-worker ARGS...`.
pub fn worker_main(args: &[String]) -> Result<()> {
    use clap::Parser;
    let cli = WorkerCli::try_parse_from(std::iter::once(WORKER_SUBCOMMAND.to_string()).chain(args.iter().cloned())).map_err(|e| anyhow!("{e}"))?;
    match cli.cmd {
        WorkerCmd::Serve { variant, accounts, partitions, queries, key } => {
            let v = variant_row(&variant)?;
            let mut b = Backend::new(v, Arc::new(Workload::pgbench(accounts, partitions)?), key)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            writeln!(out, "ready {}", v.id)?;
            out.flush()?;
            for line in std::io::stdin().lock().lines() {
                match line?.trim() {
                    "run" => {
                        let d = b.run_queries(queries);
                        writeln!(out, "{d}")?;
                        out.flush()?;
                    }
                    "ping" => {
                        writeln!(out, "pong")?;
                        out.flush()?;
                    }
                    "quit" => break,
                    other => bail!("worker: unknown command `{other}` (run, ping, quit)"),
                }
            }
            Ok(())
        }
        WorkerCmd::Point { variant, partitions, accounts, key, target_ms, min_queries, max_queries } => {
            let v = variant_row(&variant)?;
            let p = measure_point(v, partitions, &PointConfig { accounts, key, target_ms, min_queries, max_queries })?;
            println!("{}", serde_json::to_string(&p)?);
            Ok(())
        }
        WorkerCmd::Sweep { out, quick } => {
            let cfg = if quick { SweepConfig::quick() } else { SweepConfig::full() };
            let total = cfg.grid.len() * cfg.variants.len();
            let mut done = 0;
            let files = write_sweep(&out, &cfg, &mut |p| {
                done += 1;
                eprintln!("[{done}/{total}] {} @ {:>3}: {:>10.2} us/query, {:>7.1} minor faults/query", short(&p.variant), p.partitions, p.us_median, p.minor_faults);
            })?;
            let s: Sweep = serde_json::from_slice(&std::fs::read(&files[0])?)?;
            print!("{}", sweep_markdown(&s));
            eprintln!("wrote:");
            for f in files {
                eprintln!("  {}", f.display());
            }
            Ok(())
        }
        WorkerCmd::Probe { free_mmap } => {
            if let Some(n) = free_mmap {
                // SAFETY: a malloc/free pair; the block is touched within its size.
                unsafe {
                    let p = std::hint::black_box(libc::malloc(n));
                    if p.is_null() {
                        bail!("malloc({n}) failed");
                    }
                    std::ptr::write_bytes(p.cast::<u8>(), 1, n);
                    libc::free(p);
                }
            }
            println!("{}", serde_json::to_string(&glibc::probe())?);
            Ok(())
        }
        WorkerCmd::Sequence { variants, partitions, dedicate } => {
            if let Some(d) = dedicate {
                crate::study::dedicate_process(variant_row(&d)?.id);
            }
            let mut case = ChurnCase::new(10_000, partitions, 2, SEED_KEY, Size::Test)?;
            let mut runs = Vec::new();
            for name in &variants {
                let v = variant_row(name)?;
                let d = case.try_run(v)?;
                let p = case.placement(v).map(|p| format!("{p:?}")).unwrap_or_default();
                runs.push((v.id.to_string(), p, d));
            }
            // Drop the workers first so the probe sees only this process.
            drop(case);
            println!("{}", serde_json::to_string(&SequenceReport { runs, probe: glibc::probe() })?);
            Ok(())
        }
    }
}
