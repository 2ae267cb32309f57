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
//! default: between 4 and 5 scan states; with an index-only scan's 16 KiB workspace beside each, between
//! 3 and 4) glibc gives it back with `brk`, and the next query
//! faults every page it touches in again.
//!
//! **The model** ([`query`]): one backend's query over N partitions of `pgbench_accounts`
//! (range-partitioned on aid as `pgbench -i --partitions=N` does), each with a B-tree on bid,
//! scanned in one of the servers' two plans for the seed's `count(*)` ([`ScanForm`]): an
//! Index Only Scan per partition, as the planner picks it, or a plain Index Scan, as it does
//! with index-only scans off (`hotloops pg --seed 004` shows the plan; its who-allocates table
//! shows what each partition mallocs). Per query:
//! 1. `MessageContext` is reset (PostgresMain does it before each message), deleting the last
//!    plan's partition directory;
//! 2. the planner pallocs its nodes in `MessageContext` (`crate::pg::nodes`: zeroed node-sized
//!    chunks, [`NodeBytes`]' planner bytes once and a partition for the [`ScanForm`] planned,
//!    and a partition directory of its own context: the servers' `MessageContext`
//!    at `ExecutorEnd`, read with `MemoryContextStats` by `scripts/pg-context-stats.sh`, less
//!    what this model pallocs itself) and does [`LOOKUPS_PER_PARTITION`] = 2 routine look-ups per partition index
//!    (`GetIndexAmRoutineByAmId`): one whose caller pfrees the result, as
//!    `get_opmethod_canorder` or `IndexSupportsBackwardScan` did, and one whose caller leaves
//!    it to the context reset, as `equality_ops_are_compatible` or
//!    `get_op_index_interpretation` did (reference §5.3). The count is our assumption; the
//!    seed does not say which callers ran;
//! 3. `ExecutorStart` creates the query's `ExecutorState` context, pallocs the node states,
//!    slots and expression steps the servers' executor does ([`NodeBytes`]' executor bytes,
//!    measured as the planner's are) and an `ExprContext` for
//!    each node that evaluates expressions (`crate::pg::execnodes`: the Agg's three, one per
//!    scan), each with a per-tuple context of the default sizes, taken from aset.c's
//!    context free list when a deleted one waits there (`crate::pg::mcxt::MAX_FREE_CONTEXTS`);
//! 4. `ExecutorRun` creates printtup's context, then each scan's first `IndexOnlyNext` (or
//!    `IndexNext`) begins it through the relcache's `rd_indam` (`btbeginscan`: scan
//!    descriptor, key arrays, the 27,352-byte scan state; `xs_want_itup` set for an index-only
//!    scan), rescans it (`btrescan`: the 16 KiB tuple workspace, index-only scans only) and runs the descent for `bid = 0`, which finds no
//!    match, through `amgetbitmap`'s code (with no match both read the same pages); printtup's
//!    context is deleted at the run's end;
//! 5. `ExecutorEnd` ends each scan (`btendscan` frees the scan state's and any workspace's
//!    dedicated blocks) and `FreeExecutorState` deletes the ExprContexts, newest first, then
//!    `ExecutorState`; the next query's reset deletes the partition directory. Below 95
//!    partitions the N + 6 contexts a query deletes all fit the free list and the next query
//!    reuses them; at the seed's 100, the 101st deletion
//!    frees the 100 on the list, so every query mallocs 99 scan ExprContexts and printtup's
//!    context anew, as the servers' who-allocates table shows.
//!
//! So both contexts malloc the servers' blocks (index-only scans: 17 of 18 points; the 18th
//! sits on a block boundary; plain scans: all 18; `tests/alloc_churn.rs` holds them to
//! PostgreSQL 18.6's). The backend's first query, which [`Backend::with_form`] runs (never a
//! kernel), plans as the server's first query does ([`first_query`]): from 1 to 8 partitions
//! it replays 18.6's own recorded planning of its form's plan in `MessageContext`, as a backend
//! whose first statement is the seed's runs it (each allocation and free, the
//! catalog index scans' 27,352-byte scan states among them) and builds, where the server did,
//! the relcache entries and caches a backend keeps: the catalog indexes' and the partitioned
//! table's indexes' `index info`, its partition key and descriptor, each partition's primary
//! key's and bid index's `index info` (with the routine's copy before bc6374cd76; sizes in
//! [`RELCACHE_USED`]), and the operator, tablespace and search-path caches. Its
//! `MessageContext` then ends with the server's blocks (at 5 index-only partitions one more
//! than a later query's, whose space stays free below the heap's top). Past 8 partitions the first query
//! plans as a later one does and builds only the relcache's contexts. Not modelled: what the
//! planner and executor compute in that memory (the nodes are zeroed, not filled, so the
//! query's CPU time is a small part of a server's transaction and a trim's cost a larger part
//! of the model's query); what else the server's heap holds (the backend's start-up, the
//! relcache's and catcache's entries in `CacheMemoryContext`), so where a query's chunks land
//! below the top still differs from a server's (`analysis/`, `seed004-heap.md`).
//! The digest of a query folds what the planner read from the routines, every TID the scans
//! returned and the scan states' final positions: every variant must agree on it.
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
//! **Isolation** ([`isolation`]). `mallopt` is process-global and switches glibc's dynamic
//! thresholds off for good, and glibc's state also depends on the process's history: freeing
//! one mmap'd chunk of 128 KiB to 32 MiB raises both thresholds for the rest of the process
//! (`crate::pg::mcxt::glibc::probe` shows it; a report process that has read a callgrind file no longer
//! trims at 128 KiB). So every variant runs in a process of its own, like a fresh backend:
//! the sweep starts one `hotloops worker` per (variant, N) point, and a [`ChurnCase`] (the
//! report, benches, tests) sends each variant's queries to a worker of its own (a `serve`
//! request) — unless this process is dedicated to that variant (`hotloops run`, `hotloops
//! counters`, so callgrind sees the kernel), when it runs here and takes the variant's
//! settings. [`place`] guards every in-process backend: once a process took a mallopt
//! variant's settings, no other variant runs in it, and a process that ran default variants
//! never takes mallopt settings.
//!
//! **The sweep** ([`sweep`] says what a point measures; `hotloops sweep alloc-churn` and
//! `crate::report::sweep` run it): per variant and N (1 to 200 partitions), time and minor
//! page faults per query in a fresh process, the cliff (the first N whose queries fault,
//! [`CLIFF_FAULTS`], as the servers' sweep counts it), one SVG of cost against N for all variants. The
//! timing loop keeps its samples in a mapping of their own (`crate::host::mapped`): in glibc's
//! heap they sat below the query's memory, 8 bytes a timed query, and moved the cliff with the
//! host's speed. What it measured
//! on our hosts is in `analysis/` (`kvm-amd-epyc-2core/alloc-churn-sweep/`).
//!
//! Layout: this file holds the rows, cases, kernels, [`Backend`] and [`Workload`];
//! [`isolation`] where a variant may run and the worker that serves one variant's queries;
//! [`sweep`] what a sweep point measures. The PostgreSQL code the query runs is `crate::pg`'s.

pub mod first_query;
pub mod isolation;
pub mod sweep;

pub use isolation::{Placement, place, tuned_for};

use crate::pg::amapi::{
    self, AmHandler, BTREE_AM_OID, IndexAmRoutine, IndexRelation, PgAm, get_index_am_routine_by_am_id, hl_bthandler_palloc,
    hl_bthandler_static, scan::eq_key,
};
use crate::pg::execnodes::create_expr_context;
use crate::pg::fmgr::FmgrInfo;
use crate::pg::nbtsearch::BT_NPROCS;
use crate::pg::itemptr::ItemPointer;
use crate::pg::mcxt::{self, AllocSet, MallocBackend, glibc::Mallopt, memory_context_switch_to, pfree};
use crate::pg::nodes::{PgList, palloc_nodes};
use crate::pg::nbtree::{BTree, IndexScanDesc, KeyType, ScanKey, leaf_items_per_page};
use crate::pg::sink::TidDigest;
use crate::pg::workload::{PGBENCH_ACCOUNTS_TUPLES_PER_PAGE, PGBENCH_ROWS_PER_SCALE, heap_tid, leaf_sizes};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, UnknownName, Variant};
use anyhow::{Context, Result, bail};
use isolation::Served;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

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

/// ExprContexts of the plan's Agg node (`ExecInitAgg`: per-input-tuple, the one grouping
/// set's, per-output-tuple).
pub const AGG_EXPR_CONTEXTS: usize = 3;

/// The seed's partition count.
pub const SEED_PARTITIONS: usize = 100;

/// Minor page faults a query (or a server's transaction) from which a partition count is past
/// the cliff: the model's sweep and the servers' use this one rule.
pub const CLIFF_FAULTS: f64 = 1.0;

/// How the plan scans each partition, and what that plan's nodes take beyond what this model
/// pallocs itself. The servers plan the seed's `count(*)` as an Index Only Scan per partition
/// (after VACUUM); with `enable_indexonlyscan` and `enable_bitmapscan` off they plan a plain
/// Index Scan, whose `btrescan` pallocs no tuple workspace and whose node states are smaller,
/// so its query frees less at `ExecutorEnd` and its cliff lies later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScanForm {
    /// `IndexOnlyScan` per partition (`xs_want_itup`): the planner's choice.
    #[serde(rename = "index-only")]
    IndexOnly,
    /// A plain `IndexScan` per partition.
    #[serde(rename = "index")]
    Plain,
}

/// Node memory of a plan, in bytes as `MemoryContextStats` counts `used`, once a query and per
/// partition: the servers' figures less what this model pallocs itself (its look-ups in
/// `MessageContext`; in `ExecutorState` the scan descriptors, key arrays, scan states,
/// workspaces and ExprContexts). PostgreSQL 18.6, fitted over 1 to 100 partitions
/// (`scripts/pg-context-stats.sh` measures them, `analysis/` keeps the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeBytes {
    /// Planning's memory in `MessageContext` (parse and query trees, each partition's
    /// relation, index infos, restriction clauses and paths, the plan): once a query.
    pub planner: usize,
    /// ... and per partition.
    pub planner_per_partition: usize,
    /// `ExecutorStart`'s memory in `ExecutorState` (the Agg's and Append's states, each scan's
    /// state, slots, scan keys and projection steps): once a query.
    pub executor: usize,
    /// ... and per partition.
    pub executor_per_partition: usize,
}

impl ScanForm {
    /// Both forms, the planner's first.
    pub const ALL: [ScanForm; 2] = [ScanForm::IndexOnly, ScanForm::Plain];

    /// The form's name, as the servers' sweep names it.
    pub const fn id(self) -> &'static str {
        match self {
            ScanForm::IndexOnly => "index-only",
            ScanForm::Plain => "index",
        }
    }

    /// The form named `id`; an unknown name lists the valid ones.
    pub fn parse(id: &str) -> Result<ScanForm, UnknownName> {
        ScanForm::ALL.into_iter().find(|f| f.id() == id).ok_or_else(|| UnknownName {
            kind: "scan form",
            given: id.into(),
            valid: ScanForm::ALL.iter().map(|f| f.id().to_string()).collect(),
        })
    }

    /// Whether the executor asks the index for its tuples (`xs_want_itup`).
    pub const fn wants_index_tuples(self) -> bool {
        matches!(self, ScanForm::IndexOnly)
    }

    /// The node memory of this form's plan: 18.6's bytes used at `ExecutorEnd` in a normal
    /// backend, as pgbench's are (`scripts/pg-context-stats.sh --backend`, least squares over
    /// N = 1..6, 8, 16, 100), less what the model pallocs of its own: the routine look-ups
    /// (248 + 264 N) and the planner's growing lists ([`PLANNER_LISTS`]) in `MessageContext`;
    /// scan descriptors, keys, scan states, workspaces and ExprContexts in `ExecutorState`.
    /// A normal backend's planner does more than a single-user one's (parallel query is
    /// possible under a postmaster), about 1.5 KB more fixed and 400 bytes a partition.
    pub const fn node_bytes(self) -> NodeBytes {
        match self {
            // Server: MessageContext 20,680 + 8,041 N + the lists, ExecutorState 7,890 + 48,922 N.
            ScanForm::IndexOnly => NodeBytes { planner: 20_432, planner_per_partition: 7_777, executor: 7_234, executor_per_partition: 4_834 },
            // Server: MessageContext 20,680 + 7,609 N + the lists, ExecutorState 7,966 + 32,070 N.
            ScanForm::Plain => NodeBytes { planner: 20_432, planner_per_partition: 7_345, executor: 7_310, executor_per_partition: 4_414 },
        }
    }
}

/// The planner's lists that grow with the partitions (18.6, both forms): 3 of N + 1 elements
/// and 11 of N, counted by their `enlarge_list` calls in a later query's planning (0 up to 4
/// partitions, 3 at 5, 14 from 6 to 15, 17 at 16, 28 at 17: each list passes its 5 inline
/// cells, then its 16-cell array). A step in N that a linear fit cannot hold: with them the
/// fit of the rest is within 0.2% of the server's `MessageContext` at every N from 1 to 8,
/// 16 and 100, where without them the server's fifth block at 6 partitions was missed.
/// (lists, elements beyond N): the N + 1 lists first.
pub const PLANNER_LISTS: [(usize, usize); 2] = [(3, 1), (11, 0)];

impl std::fmt::Display for ScanForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// The planner's partition directory (a dynahash of its own context under `MessageContext`,
/// default sizes, alive until the next reset): bytes beyond an empty context's.
pub const PARTITION_DIRECTORY_BYTES: usize = 7_328;

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
    c_kernels: "",
    heap_history_matters: true,
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
        CaseSpec { id: "partitions-3", summary: "3 partitions: below the trim cliff (3 scan states and workspaces, 131 KiB freed a query, under glibc's 128 KiB threshold with the heap's slack)" },
        CaseSpec { id: "partitions-4", summary: "4 partitions: where the model's cliff lies (and PostgreSQL 15's, index-only)" },
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

/// A row of this study by id or short name; an unknown name lists the study's ids.
pub fn variant_row(id: &str) -> Result<&'static Variant> {
    Ok(INFO.variant(id)?)
}

/// The partition count of case `id` (`partitions-N`).
pub fn partitions_of(id: &str) -> Result<usize> {
    id.strip_prefix("partitions-").and_then(|n| n.parse().ok()).with_context(|| format!("alloc-churn has no case `{id}`"))
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
// The backend: one PostgreSQL backend's state for one variant.

/// A backend process's state: `pg_am` with this variant's B-tree handler, the relcache's
/// index entries, and its memory contexts, all on the variant's malloc (a query's
/// `ExecutorState` and `ExprContext`s are created and deleted by the query, through aset.c's
/// context free lists, as the servers' are).
pub struct Backend {
    /// The spec of the row this backend was built for: [`Backend::query`] calls its kernel,
    /// so a kernel never meets a backend built for another routine.
    spec: &'static ChurnSpec,
    /// How the plan scans each partition.
    form: ScanForm,
    workload: Arc<Workload>,
    pg_am: [PgAm; 7],
    /// The relcache's contexts the backend's first query built and every later one keeps:
    /// the parent's partition key and descriptor, then each index's `rd_indexcxt` (`index
    /// info`: the partitioned table's two indexes, then each partition's primary key and bid
    /// index), which holds the routine's copy before bc6374cd76.
    relcache_cxts: Vec<AllocSet>,
    /// The session caches the first query created (`first_query::CACHES_USED`).
    session_cxts: Vec<AllocSet>,
    /// What replaying the server's first query did, if its stream was recorded.
    first_query: Option<first_query::Replayed>,
    /// A caller's stream for the first query to replay in place of the recorded one (taken
    /// when it runs).
    first_events: Option<Vec<first_query::Event>>,
    /// Why the replay stopped, if it did (`with_first_query` returns it).
    first_error: Option<anyhow::Error>,
    /// `MessageContext`: the planner's allocations, reset before each query.
    message_cxt: AllocSet,
    /// The query's `ExprContext`s' per-tuple contexts, kept from `ExecutorStart` to
    /// `FreeExecutorState` (capacity for every partition's, so the query never grows it).
    expr_cxts: Vec<AllocSet>,
    /// malloc calls the last query's `ExecutorState` made (scan states, workspaces, blocks).
    last_executor_mallocs: u64,
    /// The last plan's partition directory (a child of `MessageContext`), deleted at the next
    /// reset.
    partition_dir: Option<AllocSet>,
    /// Whether a query keeps its contexts' counters at `ExecutorEnd` (for tests: off in
    /// every timed or counted run).
    record_contexts: bool,
    /// `MessageContext` and `ExecutorState` as the last recorded query left them at
    /// `ExecutorEnd`, before any scan ended: where the servers' `MemoryContextStats` was read.
    contexts_at_end: Option<[mcxt::ContextStats; 2]>,
    rels: Vec<IndexRelation>,
    scans: Vec<*mut IndexScanDesc>,
    keys: [ScanKey; 1],
    /// Where the scans' TIDs go (`tbm_add_tuples`), per query.
    pub tbm: TidDigest,
}

impl Backend {
    /// A backend for variant `v` over `workload`, querying `bid = key` with the planner's
    /// plan (index-only scans). Errors when this process cannot run `v` in-process ([`place`]).
    pub fn new(v: &'static Variant, workload: Arc<Workload>, key: i64) -> Result<Backend> {
        Backend::with_form(v, workload, key, ScanForm::IndexOnly)
    }

    /// [`Backend::new`] with the partitions scanned in `form`.
    pub fn with_form(v: &'static Variant, workload: Arc<Workload>, key: i64, form: ScanForm) -> Result<Backend> {
        Backend::with_first_query(v, workload, key, form, None)
    }

    /// [`Backend::with_form`] whose first query's planning replays `events` (a
    /// [`first_query`] stream for this many partitions), or with none, the recorded stream
    /// of `form` at this many partitions (read in place, not copied into the heap the model
    /// measures), or where none was recorded, plans as a later query does and builds the
    /// relcache's contexts.
    pub fn with_first_query(v: &'static Variant, workload: Arc<Workload>, key: i64, form: ScanForm, events: Option<Vec<first_query::Event>>) -> Result<Backend> {
        // Parse the recorded streams now, before the backend's first allocation: parsing's
        // own garbage must not lie among the first query's blocks.
        if events.is_none() {
            let _ = first_query::events(form, workload.partitions.len());
        }
        let spec = spec(v)?;
        if place(v)? != Placement::InProcess {
            bail!("{} cannot run in this process: another variant's malloc settings are in force here (run it in a worker)", v.id);
        }
        let handler: AmHandler = match spec.routine {
            Routine::Palloc => hl_bthandler_palloc,
            Routine::Static => hl_bthandler_static,
        };
        let message_cxt = AllocSet::with_default_sizes("MessageContext", spec.backend);
        let pg_am = amapi::pg_am(handler);
        // Not opened yet: the first query's planning builds each index's relcache entry.
        let rels = workload
            .partitions
            .iter()
            .enumerate()
            .map(|(i, p)| IndexRelation { rd_id: 16_384 + 2 * i as u32 + 1, relam: BTREE_AM_OID, rd_indam: std::ptr::null(), index: &p.index })
            .collect();
        let mut b = Backend {
            spec,
            form,
            relcache_cxts: Vec::with_capacity(2 * workload.partitions.len() + 8),
            session_cxts: Vec::new(),
            first_query: None,
            first_events: None,
            first_error: None,
            scans: vec![std::ptr::null_mut(); workload.partitions.len()],
            expr_cxts: Vec::with_capacity(workload.partitions.len() + AGG_EXPR_CONTEXTS),
            last_executor_mallocs: 0,
            partition_dir: None,
            record_contexts: false,
            contexts_at_end: None,
            workload,
            pg_am,
            message_cxt,
            rels,
            keys: [eq_key(key)],
            tbm: TidDigest::new(),
        };
        // A backend's first query builds the relcache entries its plan needs, in its heap
        // among that query's planner and executor blocks; the kernels run the queries after
        // it (so neither their code nor their counts hold the one-time build).
        b.first_events = events;
        match spec.routine {
            Routine::Palloc => query::<true, true>(&mut b),
            Routine::Static => query::<false, true>(&mut b),
        };
        match b.first_error.take() {
            Some(e) => Err(e.context(format!("the first query's stream ({}, {} partitions)", first_query::SERVER, b.rels.len()))),
            None => Ok(b),
        }
    }

    /// The spec of the variant this backend runs.
    pub fn spec(&self) -> &'static ChurnSpec {
        self.spec
    }

    /// How the plan scans each partition.
    pub fn form(&self) -> ScanForm {
        self.form
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

    /// Context counters: the relcache's contexts in the order the first query created them
    /// (catalog indexes' and the partitioned table's among them, then each partition's
    /// primary key's and bid index's), and `MessageContext`.
    pub fn context_stats(&self) -> (Vec<mcxt::ContextStats>, mcxt::ContextStats) {
        (self.relcache_cxts.iter().map(AllocSet::stats).collect(), self.message_cxt.stats())
    }

    /// The session caches' counters, in the order the first query created them.
    pub fn session_cache_stats(&self) -> Vec<mcxt::ContextStats> {
        self.session_cxts.iter().map(AllocSet::stats).collect()
    }

    /// What the first query's replay did (`first_query::Replayed`), if it replayed one.
    pub fn first_query(&self) -> Option<&first_query::Replayed> {
        self.first_query.as_ref()
    }

    /// malloc calls of the last query's `ExecutorState` (deleted at its end).
    pub fn last_executor_mallocs(&self) -> u64 {
        self.last_executor_mallocs
    }

    /// Keep `MessageContext`'s and `ExecutorState`'s counters at each query's `ExecutorEnd`
    /// ([`Backend::contexts_at_executor_end`]).
    pub fn record_contexts(&mut self, on: bool) {
        self.record_contexts = on;
    }

    /// `MessageContext` and `ExecutorState` at the last recorded query's `ExecutorEnd`.
    pub fn contexts_at_executor_end(&self) -> Option<&[mcxt::ContextStats; 2]> {
        self.contexts_at_end.as_ref()
    }

    /// One query with this backend's variant kernel.
    pub fn query(&mut self) -> u64 {
        (self.spec.kernel)(self)
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
fn record_contexts(b: &mut Backend, estate: &AllocSet) {
    b.contexts_at_end = Some([b.message_cxt.stats(), estate.stats()]);
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

/// Bytes used (`MemoryContextStats`) in the relcache contexts a backend's first query builds
/// for seed 004's plan, PostgreSQL 18.6 (`index info` of a partition's primary key and of its
/// bid index; the partitioned table's two indexes, its partition key and descriptor), read in
/// the same dumps as `MessageContext`'s (`scripts/pg-context-stats.sh`'s gdb output).
pub const RELCACHE_USED: RelcacheUsed = RelcacheUsed { partition_indexes: [1_296, 1_368], parent_indexes: [1_224, 1_224], partition_key: 648, partition_descriptor: 776 };

/// See [`RELCACHE_USED`].
#[derive(Clone, Copy, Debug)]
pub struct RelcacheUsed {
    /// A partition's primary key's and bid index's `index info`.
    pub partition_indexes: [usize; 2],
    /// The partitioned table's indexes' `index info`.
    pub parent_indexes: [usize; 2],
    /// Its `partition key`.
    pub partition_key: usize,
    /// Its `partition descriptor`.
    pub partition_descriptor: usize,
}

/// A relcache context of the small sizes (as the relcache makes them), filled with node-sized
/// chunks until `MemoryContextStats` would count `used` bytes in it, after `first` (the
/// routine's copy of an index); kept for the backend's life.
#[cold]
#[inline(never)]
fn relcache_context<T>(b: &mut Backend, name: &'static str, used: usize, first: impl FnOnce(&AllocSet) -> T) -> T {
    let cxt = AllocSet::with_small_sizes(name, b.spec.backend);
    let out = first(&cxt);
    palloc_nodes(&cxt, used.saturating_sub(cxt.stats().used()));
    b.relcache_cxts.push(cxt);
    out
}

/// `RelationInitIndexAccessInfo` of one index: its `index info` context, and before
/// bc6374cd76 (`PALLOC`) the routine's copy in it (`InitIndexAmRoutine`: the handler's
/// palloc'd routine in the current context, copied, the temporary pfree'd). An index of more
/// than one key column also gets its support functions' cache there at once (`rd_supportinfo`,
/// a zeroed `FmgrInfo` per column and support procedure: 864 bytes for three columns, a
/// 1 KiB chunk that takes a 2 KiB block), where a one-column index's fits the fill.
///
/// # Safety
/// `MessageContext` is current.
#[cold]
#[inline(never)]
unsafe fn open_index<const PALLOC: bool>(b: &mut Backend, used: usize, key_columns: usize) -> *const IndexAmRoutine {
    // SAFETY: the handler pallocs in the current context (the caller's MessageContext); the
    // copy lives in a context the backend keeps, and the temporary is freed once copied.
    unsafe {
        let r = match get_index_am_routine_by_am_id(&b.pg_am, BTREE_AM_OID) {
            Ok(r) => r,
            Err(e) => lookup_failed(e),
        };
        relcache_context(b, "index info", used, |cxt| {
            let routine = if PALLOC {
                let copy = cxt.alloc(size_of::<IndexAmRoutine>()).as_ptr().cast::<IndexAmRoutine>();
                copy.write(*r);
                pfree(r.cast_mut().cast());
                copy.cast_const()
            } else {
                r
            };
            if key_columns > 1 {
                let bytes = key_columns * BT_NPROCS as usize * size_of::<FmgrInfo>();
                cxt.alloc(bytes).as_ptr().write_bytes(0, bytes);
            }
            routine
        })
    }
}

/// One query over the backend's partitions (see the module doc). `PALLOC`: the look-ups
/// return palloc'd routines, and the callers that pfree'd before bc6374cd76 pfree them.
/// `FIRST`: the backend's first query, which also builds the relcache entries (in
/// [`Backend::with_form`], never in a kernel).
#[inline(always)]
fn query<const PALLOC: bool, const FIRST: bool>(b: &mut Backend) -> u64 {
    // SAFETY: the contexts, relations and their indexes live as long as `b`; every pointer
    // palloc'd below is used and freed within this query, before the contexts are reset.
    unsafe {
        // PostgresMain resets MessageContext before reading the next query: its children
        // first (the last plan's partition directory, onto the context free list).
        b.partition_dir = None;
        b.message_cxt.reset();
        let old = memory_context_switch_to(b.message_cxt.as_ptr());

        let nodes = b.form.node_bytes();
        let mut planned = 0xcbf2_9ce4_8422_2325u64;
        // The first query's stream: a caller's, else the recorded one, read in place.
        let given = if FIRST { b.first_events.take() } else { None };
        let recorded = if FIRST && given.is_none() { first_query::events(b.form, b.rels.len()) } else { None };
        let replay: Option<&[first_query::Event]> = given.as_deref().or(recorded);
        if let Some(events) = replay {
            // The server's own first planning, its relcache builds among it.
            let replayed = first_query::replay::<PALLOC>(b, events);
            match replayed {
                Ok(r) => b.first_query = Some(r),
                Err(e) => {
                    b.first_error = Some(e);
                    memory_context_switch_to(old);
                    return 0;
                }
            }
        } else {
            // Planning: parse analysis and the query's own nodes, the partition directory,
            // then per partition its relation, paths and the routine look-ups per partition
            // index.
            palloc_nodes(&b.message_cxt, nodes.planner);
            if FIRST {
                // The partitioned table's relcache entry: its indexes', its partition key's
                // and (expanding it) its partition descriptor's contexts.
                let used = RELCACHE_USED;
                for u in used.parent_indexes {
                    open_index::<PALLOC>(b, u, 1);
                }
                relcache_context(b, "partition key", used.partition_key, |_| ());
                relcache_context(b, "partition descriptor", used.partition_descriptor, |_| ());
            }
            let pdir = AllocSet::with_default_sizes("partition directory", b.spec.backend);
            palloc_nodes(&pdir, PARTITION_DIRECTORY_BYTES);
            b.partition_dir = Some(pdir);
            // The lists of N + 1 elements start with one (the parent's); each partition
            // appends to every list.
            let mut lists: [Option<PgList>; PLANNER_LISTS[0].0 + PLANNER_LISTS[1].0] = [const { None }; PLANNER_LISTS[0].0 + PLANNER_LISTS[1].0];
            for l in &mut lists[..PLANNER_LISTS[0].0] {
                *l = Some(PgList::new(&b.message_cxt));
            }
            for i in 0..b.rels.len() {
                for l in &mut lists {
                    match l {
                        Some(l) => l.append(&b.message_cxt),
                        None => *l = Some(PgList::new(&b.message_cxt)),
                    }
                }
                if FIRST {
                    // get_relation_info opens the partition's indexes: its primary key, then
                    // the index on bid the plan scans.
                    let [pkey, bid] = RELCACHE_USED.partition_indexes;
                    open_index::<PALLOC>(b, pkey, 1);
                    let rd_indam = open_index::<PALLOC>(b, bid, 1);
                    b.rels.get_unchecked_mut(i).rd_indam = rd_indam;
                }
                let rel = b.rels.get_unchecked(i);
                palloc_nodes(&b.message_cxt, nodes.planner_per_partition);
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
        }

        // ExecutorStart: CreateExecutorState, then ExecInitNode over Agg -> Append -> an Index
        // (Only) Scan per partition (the servers' plans for the seed's count(*)): each node that
        // evaluates expressions gets an ExprContext (the Agg three, each scan one), whose
        // per-tuple context comes from aset.c's free list or a fresh 8 KiB malloc.
        let backend = b.spec.backend;
        let estate = AllocSet::with_default_sizes("ExecutorState", backend);
        memory_context_switch_to(estate.as_ptr());
        palloc_nodes(&estate, nodes.executor);
        for i in 0..AGG_EXPR_CONTEXTS + b.rels.len() {
            let (_, per_tuple) = create_expr_context(&estate, backend);
            b.expr_cxts.push(per_tuple);
            // Each scan's node initialisation goes on after its ExprContext (slots, scan keys,
            // projection), so the heap holds them in the servers' order.
            if i >= AGG_EXPR_CONTEXTS {
                palloc_nodes(&estate, nodes.executor_per_partition);
            }
        }
        // ExecutorRun: printtup_startup's context for the result row, then each scan's first
        // IndexOnlyNext or IndexNext: index_beginscan through the relcache's rd_indam,
        // xs_want_itup for an index-only scan, the rescan (whose first call then pallocs the
        // tuple workspace), then the scan
        // (amgetbitmap's code here: with no match both read the same pages).
        let printtup = AllocSet::with_default_sizes("printtup", backend);
        let want_itup = b.form.wants_index_tuples();
        b.tbm = TidDigest::new();
        let mut ntids = 0i64;
        let mut state = 0u64;
        for (i, rel) in b.rels.iter().enumerate() {
            let am = &*rel.rd_indam;
            let (Some(begin), Some(rescan), Some(getbitmap)) = (am.ambeginscan, am.amrescan, am.amgetbitmap) else {
                missing_callback("ambeginscan/amrescan/amgetbitmap")
            };
            let scan = begin(rel, 1, 0);
            (*scan).xs_want_itup = want_itup;
            *b.scans.get_unchecked_mut(i) = scan;
            rescan(scan, b.keys.as_ptr(), 1, std::ptr::null(), 0);
            let n = getbitmap(scan, &mut b.tbm);
            ntids += n;
            state = fold(state, n as u64);
        }
        // printtup_shutdown.
        drop(printtup);
        if b.record_contexts {
            record_contexts(b, &estate);
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
        // FreeExecutorState: the ExprContexts, newest first, then the query's context.
        while let Some(per_tuple) = b.expr_cxts.pop() {
            drop(per_tuple);
        }
        memory_context_switch_to(old);
        b.last_executor_mallocs = estate.mallocs();
        drop(estate);
        fold(fold(fold(planned, ntids as u64), b.tbm.value()), state)
    }
}

/// `alloc-churn/palloc-routine`: one query, every look-up palloc'd and filled. The mallopt
/// and mimalloc variants run this kernel too: they differ only in the process's malloc.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_alloc_churn_palloc_routine(b: &mut Backend) -> u64 {
    query::<true, false>(b)
}

/// `alloc-churn/static-routine`: one query, the static routine.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_alloc_churn_static_routine(b: &mut Backend) -> u64 {
    query::<false, false>(b)
}
// ---------------------------------------------------------------------------------------------
// Cases.

/// A report case: queries over `partitions` partitions, every variant on the same workload.
pub struct ChurnCase {
    accounts: u64,
    partitions: usize,
    queries: u32,
    key: i64,
    workload: Arc<Workload>,
    backends: HashMap<&'static str, Backend>,
    workers: HashMap<&'static str, Served>,
    placements: HashMap<&'static str, Placement>,
}

impl ChurnCase {
    /// A case of `queries` queries a run over `accounts` rows in `partitions` partitions.
    pub fn new(accounts: u64, partitions: usize, queries: u32, key: i64) -> Result<ChurnCase> {
        Ok(ChurnCase {
            accounts,
            partitions,
            queries,
            key,
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

    /// The process id of `v`'s worker, if it has one.
    pub fn worker_pid(&self, v: &'static Variant) -> Option<u32> {
        self.workers.get(v.id).map(|w| w.pid())
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
                    self.workers.insert(v.id, Served::start(v, self.accounts, self.partitions, self.queries, self.key)?);
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

    /// The worker's round trip; the sweep's rows (minor faults per query, the cliff) come
    /// from the report, which runs the sweep (`crate::report::sweep`).
    fn extra_metrics(&mut self, v: &'static Variant) -> anyhow::Result<Vec<(String, f64, String)>> {
        Ok(self.worker_round_trip(v).map(|rt| ("worker-round-trip".to_string(), rt.as_secs_f64() * 1e6, "us/run".to_string())).into_iter().collect())
    }
}

impl Study for AllocChurn {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> Result<Box<dyn Case>> {
        // Rows do not change a bid = 0 query's work (one leaf per partition); fewer keep the
        // callgrind runs short. A run is about 2 ms of the variants without the cliff (~1 us a
        // partition with the planner's and executor's node memory), so the pipe round trip
        // stays a small share and the baseline's run past the cliff is tens of ms, not hundreds.
        let n = partitions_of(case.id)?;
        let accounts = if size == Size::Test { 10_000 } else { PGBENCH_ROWS_PER_SCALE };
        let queries = if size == Size::Test { 2 } else { (2_000 / n as u32).clamp(4, 5_000) };
        Ok(Box::new(ChurnCase::new(accounts, n, queries, SEED_KEY)?))
    }
}

/// The pipeline: one query over `case`'s partitions with the variant this build selects
/// (`alloc-churn/static-routine` with `--features static-amroutine`, else
/// `alloc-churn/palloc-routine`).
pub fn pipeline(case: &mut ChurnCase) -> Result<u64> {
    case.try_run(INFO.pipeline_variant())
}
