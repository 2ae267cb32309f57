//! Study `alloc-churn`: every variant returns what the executor must read; the AllocSet
//! model keeps aset.c's invariants; mallopt settings never leak into another variant's process.
//!
//! Tests that look at glibc's heap run in `hotloops worker` processes: a test thread has a
//! malloc arena of its own, and this process's history is not a fresh backend's.

use hotloops::pg::amapi::{self, BTREE_AM_ROUTINE, IndexAmRoutine, hl_bthandler_palloc, routines_equal};
use hotloops::pg::itemptr::ItemPointer;
use hotloops::pg::mcxt::{self, AllocSet, MallocBackend, chunk_space, glibc::TrimProbe, memory_context_switch_to, palloc, pfree};
use hotloops::pg::sink::TidDigest;
use hotloops::host::worker::{Request, Worker};
use hotloops::report::sweep::{self, Cliff, Sweep, SweepPoint, cliffs};
use hotloops::study::alloc_churn::sweep::{PointConfig, SweepConfig};
use hotloops::study::alloc_churn::{self, Backend, ChurnCase, Placement, ScanForm, Workload, first_query, place};
use hotloops::study::{Size, Study, Variant};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

fn row(id: &str) -> &'static Variant {
    alloc_churn::info().variant(id).unwrap()
}

fn baseline() -> &'static Variant {
    row("palloc-routine")
}

/// Every test that runs variants here first runs the baseline's placement, so this process
/// never takes a mallopt variant's settings (those run in workers) whatever the test order.
fn shared_process() {
    assert_eq!(place(baseline()).unwrap(), Placement::InProcess, "the test process must keep glibc's defaults");
}

fn hotloops() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hotloops"))
}

/// One request to a fresh `hotloops worker`, its reply.
fn ask<T: serde::de::DeserializeOwned>(req: &Request) -> T {
    let mut w = Worker::start_with(Path::new(env!("CARGO_BIN_EXE_hotloops")), req).expect("start hotloops worker");
    let r = w.reply().unwrap_or_else(|e| panic!("{req:?}: {e:#}"));
    w.finish().unwrap();
    r
}

fn glibc() -> bool {
    cfg!(all(target_os = "linux", target_env = "gnu"))
}

// ---- IndexAmRoutine ---------------------------------------------------------------------------

#[test]
fn routine_layout_and_fill_match_bthandler() {
    assert_eq!(size_of::<IndexAmRoutine>(), 248);
    assert_eq!(amapi::INDEX_AM_ROUTINE_FIELDS, 51);
    assert_eq!(amapi::INDEX_AM_ROUTINE_FN_POINTERS, 26);
    let cxt = AllocSet::with_default_sizes("test", MallocBackend::Libc);
    let old = memory_context_switch_to(cxt.as_ptr());
    // SAFETY: the context is current and live.
    let r = unsafe { hl_bthandler_palloc() };
    memory_context_switch_to(old);
    let r = unsafe { &*r };
    assert!(routines_equal(r, &BTREE_AM_ROUTINE), "the palloc'd fill and the static routine differ");
    assert!(r.amcanorder && r.amcanbackward && r.amsearcharray && !r.amcanhash && r.aminsertcleanup.is_none());
    assert_eq!((r.amstrategies, r.amsupport, r.amoptsprocnum, r.amparallelvacuumoptions), (5, 6, 5, 3));
    // The comparison sees a one-field difference (so the test above can fail).
    let mut other = *r;
    other.amcanbackward = false;
    assert!(!routines_equal(&other, &BTREE_AM_ROUTINE));
    let mut other = *r;
    other.amgettuple = None;
    assert!(!routines_equal(&other, &BTREE_AM_ROUTINE));
}

#[test]
fn routine_is_a_256_byte_chunk_reused_after_pfree() {
    let cxt = AllocSet::with_default_sizes("test", MallocBackend::Libc);
    let old = memory_context_switch_to(cxt.as_ptr());
    unsafe {
        let a = hl_bthandler_palloc().cast_mut();
        assert_eq!(chunk_space(a.cast()), 256);
        pfree(a.cast());
        assert_eq!(cxt.stats().free_chunks[mcxt::free_index(248)], 1);
        let b = hl_bthandler_palloc().cast_mut();
        assert_eq!(a, b, "the freed routine chunk is not reused");
        assert_eq!(cxt.stats().free_chunks[mcxt::free_index(248)], 0);
    }
    memory_context_switch_to(old);
}

#[test]
fn routine_lookup_errors_are_clear() {
    let am = amapi::pg_am(amapi::hl_bthandler_static);
    let err = |oid| unsafe { amapi::get_index_am_routine_by_am_id(&am, oid) }.unwrap_err().to_string();
    assert_eq!(err(9999), "cache lookup failed for access method 9999");
    assert_eq!(err(2), "access method \"heap\" is not of type INDEX");
    assert!(err(amapi::HASH_AM_OID).contains("\"hash\" does not have a handler"));
}

// ---- AllocSet ----------------------------------------------------------------------------------

fn allocset_invariants(backend: MallocBackend) {
    let keeper = mcxt::ALLOCSET_DEFAULT_INITSIZE;
    {
        // Chunk reuse within a size class: 100 and 120 bytes are both 128-byte chunks.
        let cxt = AllocSet::with_default_sizes("reuse", backend);
        assert_eq!(cxt.mem_allocated(), keeper);
        assert_eq!(cxt.stats().block_sizes, vec![keeper]);
        let a = cxt.alloc(100).as_ptr();
        unsafe { pfree(a) };
        let b = cxt.alloc(120).as_ptr();
        assert_eq!(a, b, "a freed chunk of the same class must be reused");
        // Another class does not take it.
        unsafe { pfree(b) };
        let c = cxt.alloc(200).as_ptr();
        assert_ne!(c, b);
        assert_eq!(cxt.stats().free_chunks[mcxt::free_index(128)], 1);
        // Exactly at the limit is still a free-list chunk.
        let at_limit = cxt.alloc(mcxt::ALLOC_CHUNK_LIMIT).as_ptr();
        assert_eq!(cxt.stats().dedicated_blocks, 0);
        assert_eq!(unsafe { chunk_space(at_limit) }, 8192);
    }
    {
        // Over the chunk limit: a dedicated block, handed back to malloc on pfree.
        let cxt = AllocSet::with_default_sizes("large", backend);
        let s0 = cxt.stats();
        let big = cxt.alloc(27_352).as_ptr();
        let s1 = cxt.stats();
        assert_eq!(s1.dedicated_blocks, 1);
        assert_eq!(s1.mallocs, s0.mallocs + 1);
        assert_eq!(s1.mem_allocated, s0.mem_allocated + 27_352 + mcxt::ALLOC_BLOCKHDRSZ + mcxt::ALLOC_CHUNKHDRSZ);
        unsafe { std::ptr::write_bytes(big, 7, 27_352) };
        // A small chunk after it still comes from the keeper (the active block stays the head).
        let small = cxt.alloc(64).as_ptr();
        assert_eq!(cxt.stats().blocks, 2);
        unsafe { pfree(big) };
        let s2 = cxt.stats();
        assert_eq!((s2.dedicated_blocks, s2.frees, s2.mem_allocated, s2.blocks), (0, s0.frees + 1, s0.mem_allocated, 1));
        unsafe { pfree(small) };
    }
    {
        // New blocks double from 8 KiB; each old block's tail goes to the free lists.
        let cxt = AllocSet::with_default_sizes("blocks", backend);
        for _ in 0..200 {
            cxt.alloc(256);
        }
        let s = cxt.stats();
        assert_eq!(s.block_sizes, vec![keeper, 8192, 16384, 32768], "200 chunks of 264 B: keeper + 8, 16, 32 KiB");
        assert!(s.free_chunks.iter().sum::<usize>() > 1, "block tails were not put on the free lists: {s:?}");
        // A dedicated block among them, then reset: only the keeper survives.
        cxt.alloc(100_000);
        let before = cxt.stats();
        assert_eq!(before.dedicated_blocks, 1);
        cxt.reset();
        let after = cxt.stats();
        assert_eq!((after.blocks, after.dedicated_blocks, after.mem_allocated), (1, 0, keeper));
        assert_eq!(after.frees, before.frees + before.blocks as u64 - 1);
        assert!(after.free_chunks.iter().all(|&n| n == 0));
        // Reset rewinds the keeper, and block sizes start again from 8 KiB.
        let first = cxt.alloc(100).as_ptr();
        cxt.reset();
        assert_eq!(cxt.alloc(100).as_ptr(), first, "reset must rewind the keeper block");
        for _ in 0..40 {
            cxt.alloc(256);
        }
        assert_eq!(cxt.stats().block_sizes, vec![keeper, 8192]);
    }
}

#[test]
fn allocset_keeps_aset_invariants_on_glibc() {
    allocset_invariants(MallocBackend::Libc);
}

#[test]
fn allocset_keeps_aset_invariants_on_mimalloc() {
    allocset_invariants(MallocBackend::Mimalloc);
}

#[test]
fn palloc_uses_the_current_context_and_pfree_finds_the_owner() {
    let a = AllocSet::with_default_sizes("a", MallocBackend::Libc);
    let b = AllocSet::with_default_sizes("b", MallocBackend::Libc);
    let old = memory_context_switch_to(a.as_ptr());
    let p = unsafe { palloc(40) };
    memory_context_switch_to(b.as_ptr());
    let big = unsafe { palloc(20_000) };
    // pfree while `b` is current still returns `p` to `a`'s free list.
    unsafe { pfree(p) };
    assert_eq!(a.stats().free_chunks[mcxt::free_index(40)], 1);
    assert_eq!(b.stats().free_chunks.iter().sum::<usize>(), 0);
    assert_eq!(b.stats().dedicated_blocks, 1);
    unsafe { pfree(big) };
    assert_eq!(b.stats().dedicated_blocks, 0);
    memory_context_switch_to(old);
}

#[test]
#[should_panic(expected = "not an AllocSet chunk")]
fn pfree_of_a_foreign_pointer_is_refused() {
    let mut buf = [0u64; 4];
    unsafe { pfree(buf.as_mut_ptr().add(1).cast()) };
}

// ---- Workload and results ----------------------------------------------------------------------

#[test]
fn workload_partitions_like_pgbench_and_rejects_bad_sizes() {
    let w = Workload::pgbench(250_000, 3).unwrap();
    let los: Vec<_> = w.partitions.iter().map(|p| (p.aid_lo, p.aid_hi)).collect();
    assert_eq!(los, vec![(1, 83_334), (83_335, 166_668), (166_669, 250_000)]);
    assert_eq!(w.expected(3).len(), 50_000);
    assert_eq!(w.expected(0).len(), 0);
    assert_eq!(w.partitions[0].entries[0].1, ItemPointer::new(0, 1));
    assert!(Workload::pgbench(1_000, 0).err().unwrap().to_string().contains("at least one partition"));
    assert!(Workload::pgbench(3, 4).err().unwrap().to_string().contains("cannot fill"));
}

/// The TIDs a query handed to the bitmap are exactly the matching rows, for every variant
/// that can run in this process, for matching and non-matching keys.
#[test]
fn every_in_process_variant_returns_the_matching_tids() {
    shared_process();
    let w = Arc::new(Workload::pgbench(250_000, 6).unwrap());
    for key in [0, 1, 2, 3, 4] {
        let mut want = TidDigest::new();
        for t in w.expected(key) {
            want.push(t, false);
        }
        let mut digests = vec![];
        for v in [baseline(), row("static-routine"), row("palloc-mimalloc")] {
            let mut b = Backend::new(v, w.clone(), key).unwrap();
            let d = b.query();
            assert_eq!((b.tbm.count, b.tbm.hash), (want.count, want.hash), "{}, bid = {key}", v.id);
            assert_eq!(b.query(), d, "{}: a second query differs", v.id);
            digests.push(d);
        }
        assert!(digests.iter().all(|&d| d == digests[0]), "bid = {key}: {digests:x?}");
    }
}

/// Through the report's interface: all five variants agree, each from a worker process of
/// its own (this process is not dedicated to any variant).
#[test]
fn all_variants_agree_through_the_case() {
    for key in [0, 2] {
        let mut case = ChurnCase::new(250_000, 5, 3, key).unwrap();
        let all = alloc_churn::info().variants;
        let d: Vec<u64> = all.iter().map(|v| case.try_run(v).unwrap()).collect();
        assert!(d.iter().all(|&x| x == d[0]), "bid = {key}: {d:x?}");
        for v in all {
            assert_eq!(case.placement(v), Some(Placement::Worker));
            assert!(case.worker_round_trip(v).is_some_and(|t| t.as_nanos() > 0));
        }
        // Running again gives the same (workers stay up between runs).
        assert_eq!(case.try_run(row("palloc-mallopt-trim")).unwrap(), d[0]);
    }
    // Different queries give different digests (the digest is not a constant).
    let mut a = ChurnCase::new(250_000, 5, 3, 0).unwrap();
    let mut b = ChurnCase::new(250_000, 5, 3, 2).unwrap();
    assert_ne!(a.try_run(baseline()).unwrap(), b.try_run(baseline()).unwrap());
}

/// Where the server's first query was recorded (PostgreSQL 18.6, 1 to 8 partitions, each scan
/// form's plan), the
/// model's replays it: every chunk it frees is one it allocated, it runs the server's catalog
/// scans (a 27,352-byte scan state each) and builds the server's relcache entries, and its
/// `MessageContext` ends with the server's blocks and bytes, and the contexts it created are
/// the server's, in its order and of its sizes (`MemoryContextStats` at its `ExecutorEnd`).
#[test]
fn the_first_query_is_the_servers_where_it_was_recorded() {
    shared_process();
    for (form, path, text) in first_query::EVENTS {
        let server = first_query::recorded_contexts(text).unwrap();
        let recorded = first_query::recorded(form);
        assert_eq!(recorded.keys().copied().collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>(), "{path}");
        first_query_is_the_servers(form, &server, recorded);
    }
    // Past the recorded counts the first query plans as a later one does.
    let b = Backend::new(baseline(), Arc::new(Workload::pgbench(10_000, 9).unwrap()), 0).unwrap();
    assert!(b.first_query().is_none());
}

fn first_query_is_the_servers(form: ScanForm, server: &[first_query::RecordedContext], recorded: &std::collections::BTreeMap<usize, Vec<first_query::Event>>) {
    for (&n, events) in recorded {
        let at = |name: &str| server.iter().filter(|c| c.partitions == n && c.name == name).collect::<Vec<_>>();
        let w = Arc::new(Workload::pgbench(10_000, n).unwrap());
        let b = Backend::with_form(baseline(), w.clone(), 0, form).unwrap();
        let r = b.first_query().expect("a recorded partition count replays the server's stream");
        assert_eq!(r.unmatched_pfrees, 0, "{form}, {n} partitions: {r:?}");
        // The session's first transaction snapshot is in the stream, before the planning's
        // first relcache build, and its xid arrays are malloc'd (once a process).
        let snap = events.iter().position(|e| *e == first_query::Event::Snapshot);
        let build = events.iter().position(|e| matches!(e, first_query::Event::Build(_)));
        assert!(snap.is_some() && snap < build, "{form}, {n} partitions: snapshot at {snap:?}, first build at {build:?}");
        assert!(first_query::session_mallocs_taken());
        // The session-long blocks of contexts the model has no model of: pgstat's three and
        // the smgr table's at every recorded N, the local lock table's from 4 partitions (its
        // elements outgrow their first batch).
        let blocks = events.iter().filter(|e| matches!(e, first_query::Event::Block(_))).count();
        assert!(blocks >= 4 + usize::from(n >= 4), "{form}, {n} partitions: {blocks} session blocks");
        let scans = events.iter().filter(|e| matches!(e, first_query::Event::Alloc(s) if *s > mcxt::ALLOC_CHUNK_LIMIT)).count();
        assert!(scans >= 55 + 14 * n, "{form}, {n} partitions: {scans} catalog scans");
        assert_eq!(r.large_pallocs, scans);
        assert_eq!((r.catalog_indexes, r.user_indexes), (first_query::CATALOG_INDEX_USED.len(), 2 + 2 * n));
        // MessageContext: the same blocks; the bytes used within its header's difference.
        let (relcache, message) = b.context_stats();
        let s = at("MessageContext")[0];
        assert_eq!((message.total(), message.blocks), (s.total, s.blocks), "{form}, {n} partitions: MessageContext {message:?}, the server's {s:?}");
        assert!(message.used().abs_diff(s.used) <= 16, "{form}, {n} partitions: {} bytes used, the server's {}", message.used(), s.used);
        // The relcache's contexts and the caches, newest first as the server's dump lists them.
        let mut theirs: Vec<_> = server.iter().filter(|c| c.partitions == n && ["index info", "partition key", "partition descriptor"].contains(&c.name.as_str())).collect();
        assert_eq!(theirs.len(), relcache.len(), "{form}, {n} partitions");
        for (mine, their) in relcache.iter().rev().zip(theirs.drain(..)) {
            assert_eq!((mine.total(), mine.blocks), (their.total, their.blocks), "{form}, {n} partitions: {their:?}");
        }
        let caches = b.session_cache_stats();
        let theirs: Vec<_> = server.iter().filter(|c| c.partitions == n && c.name.ends_with("cache")).collect();
        assert_eq!(caches.len(), theirs.len());
        for (mine, their) in caches.iter().rev().zip(theirs) {
            assert_eq!((mine.total(), mine.blocks), (their.total, their.blocks), "{form}, {n} partitions: {their:?}");
            // Filled with node-sized chunks: short of the server's bytes by less than one.
            assert!(mine.used() <= their.used && their.used - mine.used() < 512, "{} bytes used, the server's {their:?}", mine.used());
        }
        for c in first_query::CATALOG_INDEX_USED {
            assert!(at("index info").iter().any(|i| i.ident == c.name && i.used == c.used), "{form}, {n} partitions: {c:?}");
        }
        // The static routine's first query pallocs no routine: no more bytes or blocks.
        let s = Backend::with_form(row("static-routine"), w, 0, form).unwrap();
        let sm = s.context_stats().1;
        assert!(sm.used() <= message.used() && sm.blocks <= message.blocks, "{form}, {n} partitions: static {sm:?}");
        assert_eq!(s.first_query().unwrap().unmatched_pfrees, 0);
    }
}

#[test]
fn a_corrupt_first_query_stream_is_named() {
    let e = first_query::parse("1 A8 Q9\n2 A8\n").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("`Q9`"), "{e}");
    // `S` takes no argument.
    let e = first_query::parse("1 A8 S9\n").unwrap_err().to_string();
    assert!(e.contains("`S9`"), "{e}");
    assert_eq!(first_query::parse("1 S A8\n").unwrap()[&1], [first_query::Event::Snapshot, first_query::Event::Alloc(8)]);
    // Another context's blocks: kept where the stream did not create the context, dropped
    // (the model's own context's) where it did; its large chunks dropped.
    let e = first_query::parse("1 M8192:dynahash/LOCALLOCK_hash Hx Cdynahash M16384:dynahash/x Cy M1024:y/z L27400:y X0 M2048:PgStat_Pending\n").unwrap();
    assert_eq!(e[&1], [first_query::Event::Block(8192), first_query::Event::Hash("x"), first_query::Event::Context("dynahash"), first_query::Event::Context("y"), first_query::Event::Block(2048)]);
    let e = first_query::parse("1 M81:x\n1 A8\n").unwrap_err().to_string();
    assert!(e.contains("recorded twice"), "{e}");
    let e = first_query::parse("1 Mx:y\n").unwrap_err().to_string();
    assert!(e.contains("`Mx:y`"), "{e}");
    let e = first_query::parse("1 L27400:y Xa\n").unwrap_err().to_string();
    assert!(e.contains("`Xa`"), "{e}");
    let e = first_query::parse("1 A8\n1 A8\n").unwrap_err().to_string();
    assert!(e.contains("recorded twice"), "{e}");
    let e = first_query::recorded_contexts("# 3 partitions: index info x: 2048 in 2 blocks\n").unwrap_err().to_string();
    assert!(e.contains("line 1"), "{e}");
    // A stream recorded at another partition count builds the wrong relcache: an error that
    // says so, not a backend with a partition left unopened.
    shared_process();
    let five = first_query::events(ScanForm::IndexOnly, 5).unwrap().to_vec();
    let w = Arc::new(Workload::pgbench(10_000, 3).unwrap());
    let e = Backend::with_first_query(baseline(), w, 0, ScanForm::IndexOnly, Some(five)).err().expect("a 5-partition stream for 3 partitions");
    let e = format!("{e:#}");
    assert!(e.contains("3 partitions") && e.contains("user indexes"), "{e}");
}

#[test]
fn contexts_hold_only_the_keepers_between_queries() {
    shared_process();
    let w = Arc::new(Workload::pgbench(100_000, 20).unwrap());
    let mut b = Backend::new(baseline(), w.clone(), 0).unwrap();
    // The backend's first query (run by `new`) built the relcache entries its plan needs, as
    // a server's first query does: the partitioned table's two indexes' `index info`, its
    // partition key and descriptor, then each partition's primary key's and bid index's
    // `index info`, of the sizes 18.6's `MemoryContextStats` shows (2,048 bytes in 2 blocks an
    // index, 1,024 in 1 block the key and the descriptor).
    let (relcache, message) = b.context_stats();
    assert_eq!(relcache.len(), 4 + 2 * 20);
    for (i, c) in relcache.iter().enumerate() {
        let expected = if i == 2 || i == 3 { (1024, 1) } else { (2048, 2) };
        assert_eq!((c.total(), c.blocks), expected, "relcache context {i}: {c:?}");
    }
    // The leaked look-ups stay in MessageContext until the next query.
    assert!(message.free_chunks[mcxt::free_index(248)] <= 1);
    // Each later query deletes what it created, the last plan's partition directory at its
    // reset, then ExecutorState, the Agg's 3 ExprContexts, one a partition and printtup's: 26
    // contexts a query, all reset onto the default-size free list, where the next query finds
    // them (the first query malloc'd them): no context malloc'd.
    let c0 = mcxt::context_free_list_counts();
    b.query();
    let c1 = mcxt::context_free_list_counts();
    assert_eq!((c1.reused - c0.reused, c1.kept - c0.kept, c1.flushed - c0.flushed), (26, 26, 0));
    // This plan's partition directory lives until the next reset; the other 25 wait.
    assert!(mcxt::context_free_list_lengths(MallocBackend::Libc).0 >= 25);
    b.query();
    let c2 = mcxt::context_free_list_counts();
    assert_eq!((c2.reused - c1.reused, c2.kept - c1.kept, c2.flushed - c1.flushed), (26, 26, 0));
    let palloc_message = b.context_stats().1;
    // A process that ran default variants refuses a mallopt variant's backend.
    let err = Backend::new(row("palloc-mallopt-trim"), b.workload_arc(), 0).err().expect("a mallopt backend in a shared process").to_string();
    assert!(err.contains("cannot run in this process"), "{err}");
    let mut s = Backend::new(row("static-routine"), w, 0).unwrap();
    s.query();
    // The static routine allocates nothing in MessageContext: the palloc backend's holds
    // exactly its leaked look-ups more (a 256-byte chunk and its header a partition), beside
    // the planner's nodes both palloc alike, and the headers of any blocks those took.
    let static_message = &s.context_stats().1;
    let extra_blocks = palloc_message.blocks - static_message.blocks;
    assert_eq!(palloc_message.used() - static_message.used() - mcxt::ALLOC_BLOCKHDRSZ * extra_blocks, 20 * (256 + mcxt::ALLOC_CHUNKHDRSZ));
}

#[test]
fn cases_line_up_across_sizes_and_the_pipeline_follows_the_feature() {
    let s = &alloc_churn::STUDY;
    // The catalogue is the same at every size; a case built at test size says its partitions.
    let ids: Vec<&str> = s.info().cases.iter().map(|c| c.id).collect();
    assert_eq!(ids, ["partitions-3", "partitions-4", "partitions-100"]);
    let c = s.build(s.info().case("partitions-100").unwrap(), Size::Test).unwrap();
    assert!(c.describe().contains("over 100 range partitions"), "{}", c.describe());
    let want = if cfg!(feature = "static-amroutine") { "alloc-churn/static-routine" } else { "alloc-churn/palloc-routine" };
    assert_eq!(s.info().pipeline_variant().id, want);
    shared_process();
    let mut case = ChurnCase::new(10_000, 4, 2, 0).unwrap();
    let base = case.try_run(baseline()).unwrap();
    assert_eq!(alloc_churn::pipeline(&mut case).unwrap(), base);
}

// ---- Isolation of malloc settings --------------------------------------------------------------

#[derive(serde::Deserialize)]
struct SequenceReport {
    runs: Vec<(String, String, u64)>,
    probe: Option<TrimProbe>,
}

/// `sequence`, with `--dedicate X` first as the old command line had it.
fn sequence(variants: &[&str]) -> SequenceReport {
    let (dedicate, variants) = match variants {
        ["--dedicate", d, rest @ ..] => (Some(d.to_string()), rest),
        rest => (None, rest),
    };
    ask(&Request::Sequence { variants: variants.iter().map(|v| v.to_string()).collect(), partitions: 4, dedicate })
}

/// A process that runs several variants (the report) sends each to a worker: afterwards its
/// own heap still trims at glibc's defaults, and every digest agrees. Dedicated to a default
/// variant, a process runs it itself and still trims.
#[test]
fn mallopt_variants_do_not_leak_into_the_process_that_asked() {
    if !glibc() {
        return;
    }
    let r = sequence(&["palloc-routine", "palloc-mallopt-trim", "static-routine", "palloc-mallopt-toppad", "palloc-mimalloc", "palloc-routine"]);
    let places: Vec<&str> = r.runs.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(places, ["Worker"; 6]);
    assert!(r.runs.iter().all(|x| x.2 == r.runs[0].2), "digests differ: {:?}", r.runs);
    let p = r.probe.expect("glibc probe");
    assert!(p.heap_grew && p.trimmed, "the asking process no longer trims at the default threshold: {p:?}");
    let r = sequence(&["--dedicate", "static-routine", "static-routine", "palloc-mallopt-trim", "palloc-routine"]);
    let places: Vec<&str> = r.runs.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(places, ["InProcess", "Worker", "Worker"]);
    assert!(r.runs.iter().all(|x| x.2 == r.runs[0].2), "digests differ: {:?}", r.runs);
    let p = r.probe.expect("glibc probe");
    assert!(p.heap_grew && p.trimmed, "the asking process no longer trims at the default threshold: {p:?}");
}

/// The control: a process dedicated to a mallopt variant (`hotloops run`) takes the settings
/// itself, the probe sees them, and every other variant goes to a fresh worker.
#[test]
fn a_process_that_took_mallopt_settings_keeps_them_and_hands_other_variants_out() {
    if !glibc() {
        return;
    }
    let r = sequence(&["--dedicate", "palloc-mallopt-trim", "palloc-mallopt-trim", "palloc-routine", "palloc-mallopt-toppad", "static-routine"]);
    let places: Vec<&str> = r.runs.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(places, ["InProcess", "Worker", "Worker", "Worker"]);
    assert!(r.runs.iter().all(|x| x.2 == r.runs[0].2), "digests differ: {:?}", r.runs);
    let p = r.probe.expect("glibc probe");
    assert!(!p.trimmed, "the probe does not see M_TRIM_THRESHOLD in force: {p:?}");
    let r = sequence(&["--dedicate", "palloc-mallopt-toppad", "palloc-mallopt-toppad"]);
    assert_eq!(r.runs[0].1, "InProcess");
    assert!(!r.probe.expect("glibc probe").trimmed, "the probe does not see M_TOP_PAD in force");
}

/// `hotloops run` dedicates its process: a mallopt variant runs (and is counted) there.
#[test]
fn hotloops_run_runs_a_mallopt_variant_in_its_own_process() {
    let o = hotloops().args(["run", "alloc-churn/palloc-mallopt-toppad", "--size", "test", "--case", "partitions-4"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let base = hotloops().args(["run", "alloc-churn/palloc-routine", "--size", "test", "--case", "partitions-4"]).output().unwrap();
    let digest = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).rsplit("digest ").next().unwrap().trim().to_string();
    assert_eq!(digest(&o), digest(&base));
}

/// Why sweep points get fresh processes: freeing one mmap'd chunk of 1 MiB raises glibc's
/// thresholds for the rest of the process, and the heap stops trimming.
#[test]
fn freeing_an_mmapped_chunk_switches_trimming_off() {
    if !glibc() {
        return;
    }
    let fresh: Option<TrimProbe> = ask(&Request::Probe { free_mmap: None });
    assert!(fresh.unwrap().trimmed, "a fresh process should trim: {fresh:?}");
    let after: Option<TrimProbe> = ask(&Request::Probe { free_mmap: Some(1 << 20) });
    assert!(!after.unwrap().trimmed, "after freeing a 1 MiB mmap'd chunk glibc should not trim: {after:?}");
}

/// The mechanism itself, in fresh processes: 2 scan states with their index-only workspaces
/// (88 KB) fit glibc's kept top pad and fault nothing; 5 (219 KB) cross the trim threshold
/// and fault on every query; raising the threshold, or mimalloc, removes the faults. Plain
/// Index Scans have no workspace: 4 of them fault less than 4 index-only scans.
///
/// Near the threshold a query's faults depend on where in its page the heap's top falls,
/// which a few bytes more of anything the worker allocates first move: so the points asserted
/// here sit a partition or more from it, or compare the forms at one N (the points next to
/// it: `the_cliff_does_not_move_with_the_number_of_timed_queries`).
#[test]
fn crossing_the_trim_threshold_faults_every_query_and_the_mitigations_remove_it() {
    if !glibc() {
        return;
    }
    // pgbench scale 1, as the sweep runs: the partitions' index arrays are mmap'd, outside the
    // heap the contexts churn.
    let cfg = PointConfig { accounts: 100_000, key: 0, target_ms: 5, min_queries: 20, max_queries: 200 };
    let in_form = |v: &str, n: usize, form: ScanForm| -> SweepPoint { ask(&sweep::point_request(row(v), n, form, &cfg)) };
    let point = |v: &str, n: usize| in_form(v, n, ScanForm::IndexOnly);
    let below = point("palloc-routine", 2);
    let above = point("palloc-routine", 5);
    assert!(below.trim_fresh.unwrap().trimmed && above.trim_fresh.unwrap().trimmed, "workers are not fresh");
    assert!(below.minor_faults < 0.5, "2 partitions fault: {below:?}");
    assert!(above.minor_faults >= 1.0, "5 partitions do not fault: {above:?}");
    assert!(point("static-routine", 5).minor_faults >= 1.0, "the static routine does not move the threshold this far");
    for v in ["palloc-mallopt-trim", "palloc-mallopt-toppad", "palloc-mimalloc"] {
        let p = point(v, 5);
        assert!(p.minor_faults < 0.5, "{v} still faults: {p:?}");
        assert_eq!(p.digest, above.digest);
    }
    // 16 KiB less a partition to give back: at least two pages fewer a query (8 partitions:
    // past both forms' thresholds by a partition or more).
    let (only, plain) = (point("palloc-routine", 8), in_form("palloc-routine", 8, ScanForm::Plain));
    assert!(only.minor_faults >= plain.minor_faults + 2.0, "8 partitions: index-only {only:?}, plain {plain:?}");
    assert_eq!((plain.form, plain.digest), (ScanForm::Plain, only.digest), "a plain scan returns what an index-only one does");
    assert!(in_form("palloc-routine", 2, ScanForm::Plain).minor_faults < 0.5, "2 plain scans fault");
    assert!(in_form("palloc-routine", 8, ScanForm::Plain).minor_faults >= 1.0, "8 plain scans do not cross the threshold");
}

/// The timing loop keeps its samples outside glibc's heap: when they were a `Vec` (8 bytes a
/// timed query, 20 KB at 2,500), they sat below the query's memory and moved its top, so
/// 4 index-only partitions faulted 2 pages a query in a worker that timed thousands of
/// queries and none in one that timed fifty, and the model's cliff moved with the host's
/// speed (3, 4 or 5 from process to process). The same point must fault the same whatever
/// the count; and the cliffs sit where PostgreSQL 15.20's and 18.6's pgbench backends have
/// theirs (index-only 5, plain 6: `analysis/kvm-amd-epyc-2core/pg/seed004-heap.md`), on
/// either side of them.
#[test]
fn the_cliff_does_not_move_with_the_number_of_timed_queries() {
    if !glibc() {
        return;
    }
    let at = |n: usize, form: ScanForm, queries: u32| -> f64 {
        let cfg = PointConfig { accounts: 100_000, key: 0, target_ms: 1, min_queries: queries, max_queries: queries };
        let p: SweepPoint = ask(&sweep::point_request(baseline(), n, form, &cfg));
        assert_eq!(p.queries, queries, "{p:?}");
        p.minor_faults
    };
    for (form, below, cliff) in [(ScanForm::IndexOnly, 4, 5), (ScanForm::Plain, 5, 6)] {
        for n in [below, cliff] {
            let (few, many) = (at(n, form, 20), at(n, form, 3000));
            assert!((few - many).abs() < 0.5, "{n} partitions ({form} scans): {few} faults a query over 20 timed queries, {many} over 3000");
            if n == below {
                assert!(many < 0.5, "{n} partitions ({form} scans) fault {many} a query: the server's do not");
            } else {
                assert!(many >= 1.0, "{n} partitions ({form} scans) fault {many} a query: the server's fault");
            }
        }
    }
}

// ---- Sweep analysis ----------------------------------------------------------------------------

/// (partitions, us per query, faults per query).
type Series<'a> = &'a [(usize, f64, f64)];

fn synthetic(series: &[(&str, Series)]) -> Sweep {
    synthetic_forms(&series.iter().map(|&(id, pts)| (id, ScanForm::IndexOnly, pts)).collect::<Vec<_>>())
}

fn synthetic_forms(series: &[(&str, ScanForm, Series)]) -> Sweep {
    let mut points = vec![];
    let mut grid = vec![];
    let mut variants = vec![];
    let mut forms = vec![];
    for &(id, form, pts) in series {
        let id = alloc_churn::info().variant(id).unwrap().id.to_string();
        if !variants.contains(&id) {
            variants.push(id.clone());
        }
        if !forms.contains(&form) {
            forms.push(form);
        }
        for &(n, us, f) in pts.iter() {
            if !grid.contains(&n) {
                grid.push(n);
            }
            points.push(SweepPoint {
                variant: id.clone(),
                partitions: n,
                form,
                queries: 10,
                us_median: us,
                us_mean: us,
                us_p10: us,
                us_p90: us,
                minor_faults: f,
                fault_source: "test".into(),
                minor_faults_rusage: f,
                trim_fresh: None,
                trim_ready: None,
                digest: n as u64,
            });
        }
    }
    grid.sort();
    let mut config = SweepConfig::quick();
    config.grid = grid;
    config.variants = variants;
    config.forms = forms;
    Sweep {
        schema: sweep::SCHEMA.into(),
        schema_version: sweep::SCHEMA_VERSION,
        provenance: hotloops::host::provenance::collect(None, vec![]),
        study: "alloc-churn".into(),
        parameter: "partitions".into(),
        config,
        libc: "test".into(),
        points,
    }
}

/// Markdown with runs of spaces (the table writer's padding) as one.
fn squeeze(md: &str) -> String {
    md.lines().map(|l| l.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn cliff_is_the_first_point_whose_queries_fault() {
    let s = synthetic(&[
        ("alloc-churn/palloc-routine", &[(1, 0.2, 0.0), (4, 0.6, 0.0), (5, 8.0, 1.0), (6, 12.0, 3.0), (100, 600.0, 199.0)]),
        // A tenfold time step without a fault is no cliff.
        ("alloc-churn/palloc-mallopt-trim", &[(1, 0.2, 0.0), (4, 0.6, 0.0), (5, 0.7, 0.0), (6, 0.9, 0.0), (100, 8.0, 0.0)]),
        // Under one fault a query (a trim every other query) is not past the cliff yet.
        ("alloc-churn/static-routine", &[(1, 0.2, 0.0), (4, 0.5, 0.5), (5, 2.0, 1.0), (6, 8.0, 2.0), (100, 400.0, 197.0)]),
    ]);
    let c: Vec<Cliff> = cliffs(&s);
    assert_eq!(c[0].at, Some(5));
    assert_eq!(c[0].from, Some(4));
    assert!((c[0].step - 8.0 / 0.6).abs() < 1e-9);
    assert_eq!((c[0].faults_before, c[0].faults_at), (0.0, 1.0));
    assert_eq!(c[1].at, None);
    assert_eq!(c[1].max_step_at, 100);
    assert_eq!(c[2].at, Some(5));
    assert_eq!(c[2].from, Some(4));
    assert_eq!(c[2].max_step_at, 100, "the largest time step is reported beside the cliff");

    let md = squeeze(&sweep::markdown(&s));
    assert!(md.contains("| palloc-routine | index-only | 4 -> 5 partitions | 13.3x |"), "{md}");
    assert!(md.contains("| palloc-mallopt-trim | index-only | none |"), "{md}");
    assert!(md.contains("palloc-routine / static-routine = 1.500"), "{md}");
    assert!(md.contains("| 5 | 8.00 (1.0) | 0.70 (0.0) | 2.00 (1.0) |"), "the grid table, a column per variant: {md}");
    // The report's rows from the same sweep: the cliff where there is one, the case's N.
    let rows = sweep::rows_of(&s, "alloc-churn", "partitions-5", 5, "alloc-churn/palloc-routine", alloc_churn::info().variants);
    let get = |v: &str, m: &str| rows.iter().find(|r| r.variant == v && r.metric == m).map(|r| r.value);
    assert_eq!(get("alloc-churn/palloc-routine", "sweep:cliff-partitions"), Some(5.0));
    assert_eq!(get("alloc-churn/palloc-mallopt-trim", "sweep:cliff-partitions"), None);
    assert_eq!(get("alloc-churn/static-routine", "sweep:us-per-query@5"), Some(2.0));
    assert_eq!(get("alloc-churn/palloc-routine", "sweep:minor-faults-per-query@100"), Some(199.0));
    let svg = sweep::svg(&s).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("palloc-mallopt-trim") && svg.contains("minor page faults"));
}

/// Each scan form has its own cliff, table and rows: a plain-scan series that crosses later
/// than the index-only one is reported at its own N, under its own metric names.
#[test]
fn each_scan_form_has_its_own_cliff() {
    let base = "alloc-churn/palloc-routine";
    let s = synthetic_forms(&[
        (base, ScanForm::IndexOnly, &[(1, 0.2, 0.0), (4, 8.0, 3.0), (6, 12.0, 9.0), (100, 600.0, 300.0)]),
        (base, ScanForm::Plain, &[(1, 0.2, 0.0), (4, 0.5, 0.0), (6, 9.0, 3.0), (100, 500.0, 358.0)]),
    ]);
    let c = cliffs(&s);
    let at = |form: ScanForm| c.iter().find(|c| c.form == form).and_then(|c| c.at);
    assert_eq!((c.len(), at(ScanForm::IndexOnly), at(ScanForm::Plain)), (2, Some(4), Some(6)));
    let md = squeeze(&sweep::markdown(&s));
    assert!(md.contains("| palloc-routine | index | 4 -> 6 partitions |"), "{md}");
    assert!(md.contains("Median us per query (minor faults per query), index scans:"), "{md}");
    assert!(md.contains("| 6 | 9.00 (3.0) |"), "the plain grid: {md}");
    let rows = sweep::rows_of(&s, "alloc-churn", "partitions-4", 4, base, &alloc_churn::info().variants[..1]);
    let get = |m: &str| rows.iter().find(|r| r.metric == m).map(|r| r.value);
    assert_eq!((get("sweep:cliff-partitions"), get("sweep:index-scan:cliff-partitions")), (Some(4.0), Some(6.0)));
    assert_eq!((get("sweep:minor-faults-per-query@4"), get("sweep:index-scan:minor-faults-per-query@4")), (Some(3.0), Some(0.0)));
    assert_eq!(get("sweep:index-scan:minor-faults-per-query@100"), Some(358.0));
    // A sweep file from before the forms reads as index-only scans.
    let mut v = serde_json::to_value(synthetic(&[(base, &[(1, 0.2, 0.0)])])).unwrap();
    v["config"].as_object_mut().unwrap().remove("forms");
    v["points"][0].as_object_mut().unwrap().remove("form");
    let old: Sweep = serde_json::from_value(v).unwrap();
    assert_eq!((old.config.forms.as_slice(), old.points[0].form), ([ScanForm::IndexOnly].as_slice(), ScanForm::IndexOnly));
}

#[test]
fn a_small_sweep_runs_in_workers_and_agrees() {
    if !glibc() {
        return;
    }
    let cfg = SweepConfig {
        grid: vec![1, 6],
        variants: ["palloc-routine", "static-routine", "palloc-mallopt-trim"].iter().map(|v| row(v).id.to_string()).collect(),
        forms: ScanForm::ALL.to_vec(),
        point: PointConfig { accounts: 10_000, key: 0, target_ms: 3, min_queries: 10, max_queries: 100 },
    };
    let mut seen = 0;
    let dir = tempfile::tempdir().unwrap();
    let (s, files) = sweep::write(dir.path(), &cfg, false, &mut |_| seen += 1).unwrap();
    assert_eq!(seen, 12);
    assert_eq!(s.points.len(), 12);
    assert_eq!(s.points.iter().filter(|p| p.form == ScanForm::Plain).count(), 6);
    assert!(s.libc.starts_with("glibc"));
    assert!(s.points.iter().all(|p| p.us_median > 0.0 && p.queries >= 10));
    // sweep.json: the schema header, the report's provenance, variants by id; it loads back.
    assert_eq!(files.iter().map(|f| f.file_name().unwrap().to_str().unwrap()).collect::<Vec<_>>(), ["sweep.json", "sweep.md", "sweep.svg"]);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    assert_eq!((json["schema"].as_str(), json["schema_version"].as_u64()), (Some("hotloops-sweep"), Some(1)));
    let p = &json["provenance"];
    assert!(p["rustc"].as_str().unwrap().contains("1.95") && p["dirty"].is_boolean() && p["features"].is_array(), "{p}");
    assert_eq!(p["commit"].as_str(), Some(hotloops::host::provenance::collect(None, vec![]).commit.as_str()));
    assert!(!p["host"].as_str().unwrap().is_empty() && !p["cpu_vendor"].as_str().unwrap().is_empty(), "{p}");
    assert_eq!(json["config"]["variants"][2], "alloc-churn/palloc-mallopt-trim");
    assert_eq!(json["config"]["forms"], serde_json::json!(["index-only", "index"]));
    assert_eq!(sweep::load(&files[0]).unwrap(), s);
    let md = std::fs::read_to_string(&files[1]).unwrap();
    assert!(md.contains(&s.provenance.commit) && md.contains(&s.libc), "{md}");
    // Not a sweep, or another version: named.
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"schema": "hotloops-report", "schema_version": 1}"#).unwrap();
    assert!(sweep::load(&other).unwrap_err().to_string().contains("not a hotloops sweep"));
    std::fs::write(&other, r#"{"schema": "hotloops-sweep", "schema_version": 0}"#).unwrap();
    assert!(sweep::load(&other).unwrap_err().to_string().contains("schema version"));
    assert!(sweep::run(&SweepConfig { grid: vec![], ..cfg.clone() }, &mut |_| {}).is_err());
    assert!(sweep::run(&SweepConfig { forms: vec![], ..cfg.clone() }, &mut |_| {}).is_err());
    assert!(sweep::run(&SweepConfig { variants: vec!["alloc-churn/no-such-variant".into()], ..cfg }, &mut |_| {}).is_err());
}

/// Through the one protocol: an unknown variant in a request is a usage error (exit 2) whose
/// message lists the study's ids, on stderr and as the error reply.
#[test]
fn unknown_worker_variant_is_an_error_that_lists_the_names() {
    let req = Request::Sequence { variants: vec!["palloc-nothing".into()], partitions: 4, dedicate: None };
    let mut w = Worker::start_with(Path::new(env!("CARGO_BIN_EXE_hotloops")), &req).unwrap();
    let e = format!("{:#}", w.reply::<serde_json::Value>().unwrap_err());
    assert!(e.contains("unknown variant id `palloc-nothing`") && e.contains("alloc-churn/static-routine"), "{e}");
    // Then the worker exits 2 with the same message on stderr.
    let e = format!("{:#}", w.finish().unwrap_err());
    assert!(e.contains("exit status: 2") && e.contains("error: unknown variant id `palloc-nothing`") && e.contains("alloc-churn/palloc-mimalloc"), "{e}");
}

/// A served variant's worker goes with its case: dropped mid-session, no process is left.
#[test]
fn a_cases_workers_are_gone_when_it_is_dropped() {
    let mut case = ChurnCase::new(10_000, 4, 2, 0).unwrap();
    let v = row("palloc-mallopt-trim");
    let d = case.try_run(v).unwrap();
    let pid = case.worker_pid(v).expect("the mallopt variant runs in a worker");
    assert!(Path::new(&format!("/proc/{pid}")).exists());
    assert_eq!(case.try_run(v).unwrap(), d);
    drop(case);
    assert!(!Path::new(&format!("/proc/{pid}")).exists(), "worker {pid} outlived its case");
}

/// What each partition mallocs a query, as the servers' who-allocates table has it
/// (`hotloops pg --seed 004`: at 100 partitions on 17 and 18, `btbeginscan` 27,400 bytes and
/// `btrescan` 16,432 bytes, 100 of each): the scan state and the index-only scan's tuple
/// workspace, each over AllocSet's chunk limit, so a dedicated block (request + block and
/// chunk headers) of its own; nothing else grows with the partitions but small chunks.
#[test]
fn each_partition_mallocs_the_servers_scan_state_and_workspace() {
    shared_process();
    assert_eq!(std::mem::size_of::<hotloops::pg::nbtree::BTScanOpaque>() + mcxt::ALLOC_BLOCKHDRSZ + mcxt::ALLOC_CHUNKHDRSZ, 27_400);
    assert_eq!(2 * hotloops::pg::page::BLCKSZ + mcxt::ALLOC_BLOCKHDRSZ + mcxt::ALLOC_CHUNKHDRSZ, 16_432);
    let per_query = |n: usize| {
        let mut b = Backend::new(baseline(), Arc::new(Workload::pgbench(100_000, n).unwrap()), 0).unwrap();
        b.query();
        // The second query's ExecutorState is the first's, from the free list: its keeper
        // is not malloc'd again.
        b.query();
        b.last_executor_mallocs()
    };
    let (a, b) = (per_query(20), per_query(40));
    // Two dedicated blocks a partition, and at most a block of small chunks more per 10.
    assert!((40..=44).contains(&(b - a)), "ExecutorState mallocs a query: {a} at 20 partitions, {b} at 40");
}

/// The servers' who-allocates table at 100 partitions (17 and 18): `CreateExprContextInternal`
/// (from `ExecInitIndexOnlyScan`) mallocs 8 KiB 99 times a query and `printtup_startup` once.
/// The model's query creates and deletes N + 5 default-size contexts (ExecutorState, the Agg's
/// 3 ExprContexts, one a scan, printtup's); aset.c keeps 100 deleted ones, so up to 95
/// partitions every query reuses them all, and from 96 the 101st deletion frees the whole list,
/// so the next query finds N + 5 - 100 there: at 100, 5 (ExecutorState, the Agg's 3, the first
/// scan's), and it mallocs the other 99 scans' and printtup's.
#[test]
fn past_100_contexts_a_query_every_scan_context_but_one_is_malloced_as_on_the_servers() {
    shared_process();
    let steady = |n: usize| {
        let mut b = Backend::new(baseline(), Arc::new(Workload::pgbench(20_000, n).unwrap()), 0).unwrap();
        b.query();
        b.query();
        let c0 = mcxt::context_free_list_counts();
        b.query();
        let c1 = mcxt::context_free_list_counts();
        (c1.reused - c0.reused, c1.kept - c0.kept, c1.flushed - c0.flushed)
    };
    // N + 6 contexts a query: the planner's partition directory, ExecutorState, the Agg's
    // three, a scan's each, printtup's.
    assert_eq!(steady(94), (100, 100, 0), "94 partitions: 100 contexts a query, all recycled");
    assert_eq!(steady(95), (1, 101, 100), "95 partitions: the list overflows; the one deleted after the flush is reused");
    let (reused, kept, flushed) = steady(alloc_churn::SEED_PARTITIONS);
    assert_eq!((reused, kept, flushed), (6, 106, 100));
    // Created anew: the 99 scans after the first and printtup's, as the servers malloc them.
    assert_eq!(kept - reused, 99 + 1);
}

/// aset.c's context free lists: a deleted context of the default or small sizes is reset and
/// kept for the next context of those sizes (the same header and keeper, no malloc); other
/// sizes are freed; a list holds `MAX_FREE_CONTEXTS`, and deleting one more frees them all.
#[test]
fn deleted_contexts_of_the_standard_sizes_wait_on_a_free_list_of_100() {
    // A thread of its own: the lists are per thread, and this one starts with them empty
    // whatever ran before it (`--test-threads=1` runs every test on one thread).
    std::thread::spawn(free_lists_in_a_fresh_thread).join().unwrap();
}

fn free_lists_in_a_fresh_thread() {
    let b = MallocBackend::Libc;
    let lengths = || mcxt::context_free_list_lengths(b);
    let (d0, s0) = lengths();
    assert_eq!((d0, s0), (0, 0));
    let a = AllocSet::with_default_sizes("a", b);
    let at = a.as_ptr();
    a.alloc(100_000);
    a.alloc(100);
    drop(a);
    assert_eq!(lengths(), (d0 + 1, s0));
    let again = AllocSet::with_default_sizes("again", b);
    assert_eq!((again.as_ptr(), again.name()), (at, "again"), "the deleted context, renamed");
    let st = again.stats();
    assert_eq!((st.blocks, st.dedicated_blocks, st.mallocs, st.mem_allocated), (1, 0, 0, mcxt::ALLOCSET_DEFAULT_INITSIZE), "reset to its keeper");
    again.alloc(64);
    drop(again);
    drop(AllocSet::new("other sizes", b, 0, 16 * 1024, 8 << 20));
    assert_eq!(lengths(), (d0 + 1, s0), "a context of other sizes is freed");
    drop(AllocSet::with_small_sizes("small", b));
    assert_eq!(lengths(), (d0 + 1, s0 + 1));
    // 101 at once: the waiting one is reused, 100 malloc'd; deleting them keeps 100, and the
    // 101st deletion frees those 100 before it is kept.
    let many: Vec<AllocSet> = (0..=mcxt::MAX_FREE_CONTEXTS).map(|_| AllocSet::with_default_sizes("x", b)).collect();
    assert_eq!(lengths().0, d0);
    let c0 = mcxt::context_free_list_counts();
    drop(many);
    let c1 = mcxt::context_free_list_counts();
    assert_eq!((c1.kept - c0.kept, c1.flushed - c0.flushed), (101, 100));
    assert_eq!(lengths().0, 1);
    // Each backend has its own lists: a mimalloc context never takes a glibc one.
    let m = AllocSet::with_default_sizes("mi", MallocBackend::Mimalloc);
    assert_eq!(lengths().0, 1);
    drop(m);
    assert_eq!(mcxt::context_free_list_lengths(MallocBackend::Mimalloc).0, 1);
}


/// `MemoryContextStats` of `MessageContext` and `ExecutorState` at `standard_ExecutorEnd`, the
/// third `select count(*) from pgbench_accounts where bid = 0` of a normal PostgreSQL 18.6
/// backend (PyPI wheel) whose first statements the queries are, as a pgbench backend's,
/// pgbench scale 1 over N partitions with the index on bid (the index-only plan): (N, [total,
/// blocks, used] of each). `scripts/pg-context-stats.sh --backend` reads them;
/// `analysis/kvm-amd-epyc-2core/pg/seed004-contexts.md` has single-user backends' and 15's and
/// 17's.
const SERVER_CONTEXTS_18: [(usize, [usize; 3], [usize; 3]); 9] = [
    (1, [32_768, 3, 29_760], [60_216, 4, 56_016]),
    (2, [65_536, 4, 37_768], [120_432, 7, 105_800]),
    (3, [65_536, 4, 45_840], [164_264, 9, 154_800]),
    (4, [65_536, 4, 53_800], [208_096, 11, 203_680]),
    (5, [65_536, 4, 62_200], [284_696, 14, 252_728]),
    (6, [131_072, 5, 71_824], [328_528, 16, 301_576]),
    (8, [131_072, 5, 87_936], [416_192, 20, 399_336]),
    (16, [262_144, 6, 152_744], [832_384, 37, 790_736]),
    (100, [1_048_576, 8, 840_248], [4_907_488, 207, 4_900_096]),
];

/// The same with `enable_indexonlyscan` and `enable_bitmapscan` off: a plain Index Scan per
/// partition.
const SERVER_CONTEXTS_18_PLAIN: [(usize, [usize; 3], [usize; 3]); 9] = [
    (1, [32_768, 3, 29_328], [43_784, 3, 39_184]),
    (2, [65_536, 4, 36_904], [87_568, 5, 72_136]),
    (3, [65_536, 4, 44_544], [114_968, 6, 104_304]),
    (4, [65_536, 4, 52_072], [142_368, 7, 136_352]),
    (5, [65_536, 4, 60_040], [169_768, 8, 168_400]),
    (6, [131_072, 5, 69_232], [229_936, 10, 200_456]),
    (8, [131_072, 5, 84_480], [284_736, 12, 264_680]),
    (16, [262_144, 6, 145_832], [569_472, 21, 521_424]),
    (100, [1_048_576, 8, 797_048], [3_264_288, 107, 3_214_848]),
];

/// The model's query holds what the server's does at `ExecutorEnd`, in both scan forms: in
/// each context, bytes in use within 3% of the server's at every partition count, and the
/// same blocks malloc'd (the sizes glibc sees), except where the two figures sit on either
/// side of a block boundary.
#[test]
fn the_querys_contexts_hold_what_the_servers_hold_at_executor_end() {
    shared_process();
    let forms = [(ScanForm::IndexOnly, SERVER_CONTEXTS_18), (ScanForm::Plain, SERVER_CONTEXTS_18_PLAIN)];
    for (form, n, server_message, server_executor) in forms.iter().flat_map(|(f, t)| t.iter().map(move |&(n, m, e)| (*f, n, m, e))) {
        let mut b = Backend::with_form(baseline(), Arc::new(Workload::pgbench(100_000, n).unwrap()), 0, form).unwrap();
        b.query();
        b.query();
        b.record_contexts(true);
        b.query();
        let [message, executor] = b.contexts_at_executor_end().expect("recorded").clone();
        for (name, m, [total, blocks, used]) in [("MessageContext", message, server_message), ("ExecutorState", executor, server_executor)] {
            let what = format!("{form}, {n} partitions, {form} scans, {name}: model {} total in {} blocks, {} used; server {total} in {blocks}, {used}", m.total(), m.blocks, m.used());
            // The table in analysis/kvm-amd-epyc-2core/pg/seed004-contexts.md (`-- --nocapture`).
            eprintln!("{what}");
            assert!((m.used() as f64 - used as f64).abs() <= 0.03 * used as f64, "{what}");
            if (m.total(), m.blocks) != (total, blocks) {
                // Only a boundary between the two: the smaller context's blocks are full.
                let smaller = m.total().min(total);
                assert!(m.used().min(used) <= smaller && smaller < m.used().max(used) + mcxt::ALLOC_CHUNK_LIMIT, "{what}");
            }
        }
    }
    // Recording is off unless asked for: the timed and counted queries never walk a context.
    let mut b = Backend::new(baseline(), Arc::new(Workload::pgbench(100_000, 2).unwrap()), 0).unwrap();
    b.query();
    assert!(b.contexts_at_executor_end().is_none());
}


/// The planner's lists grow as PostgreSQL's do: five cells in the list's own chunk, then a
/// 16-cell array from the sixth element, then the next power of two past 16 (the old array
/// onto the context's free list); `PgList::used` says what each length holds.
#[test]
fn a_planner_list_grows_as_pg_lists_do() {
    use hotloops::pg::nodes::{PgList, used_by};
    let cxt = AllocSet::with_default_sizes("lists", MallocBackend::Libc);
    let base = cxt.stats().used();
    let mut l = PgList::new(&cxt);
    assert_eq!(cxt.stats().used() - base, used_by(64));
    for len in 2..=40 {
        l.append(&cxt);
        assert_eq!(l.len(), len);
        assert_eq!(cxt.stats().used() - base, PgList::used(len), "{len} elements");
    }
    assert_eq!(PgList::used(5), used_by(64));
    assert_eq!(PgList::used(6), used_by(64) + used_by(128));
    assert_eq!(PgList::used(17), used_by(64) + used_by(256));
}
