//! The backend's first query's planning, as the server's runs it in `MessageContext`.
//!
//! A backend's first run of seed 004's query builds, while planning, the relcache entries of
//! the partitioned table, its partitions and their indexes, and the caches it needs on the
//! way: 135 catalog index scans and 3.7 MB of 27,352-byte scan states (each a malloc and a
//! free of its own) at 5 partitions on PostgreSQL 18.6, and 198 KB of smaller pallocs, most
//! of them pfree'd again. Its `MessageContext` grows a block more than any later query's
//! does, and once the next query's reset frees that block, its space stays free between
//! chunks that live for the session, and later executors put scan states there: one reason a
//! server's cliff can lie a partition later (`analysis/`, `seed004-heap.md`).
//!
//! Which allocation comes first decides where a block lands in glibc's heap, so the model
//! replays the server's own stream rather than a summary of it: [`EVENTS`], one file a scan
//! form, recorded by `scripts/pg-first-query.sh --events --backend --form FORM` from a normal
//! 18.6 backend whose first statement is seed 004's query, as a pgbench backend's is (a
//! single-user backend's first query plans with less in `MessageContext`: a block fewer at 4
//! index-only and 5 plain partitions, which put the model's cliffs a partition early) (every allocation in
//! `MessageContext` with its size, from the reset before the query is read to
//! `ExecutorStart`; every chunk of it freed, with the chunk's space; each relation the
//! relcache builds, each context created and each hash table named; each transaction snapshot;
//! and each block another context mallocs meanwhile, the session-long ones among them: the
//! local lock table's, the smgr table's and pgstat's, which sit above `MessageContext`'s
//! blocks and keep their space below the heap's top after the query), one line per partition
//! count from 1 to 8, the range the cliffs lie in. Past it the first query is a later one
//! plus the relcache's contexts (`Backend::with_form`): a stream cannot be grown from the
//! recorded ones by repeating one partition's events, because the server's arrays and lists
//! grow with N (a 64-byte array becomes 72 bytes, a 64-byte chunk a 128-byte one), and a
//! stream grown that way left holes below the heap's top that no server's has.
//!
//! What replaying means ([`replay`]): each allocation is a palloc of that size in the model's
//! `MessageContext`, each free frees the newest live chunk of that space (which chunk of a
//! size class does not change aset.c's blocks), each context is
//! created where the server created it and filled to the bytes the server's held at the
//! query's end (`MemoryContextStats`), and each index's `index info` holds the routine's
//! copy (the partitions' bid indexes' copies are what the scans use). Routine look-ups (the
//! 248-byte pallocs) go through the variant's handler, so the static-routine variant
//! pallocs none. What the catalog scans read and compute is not modelled, only their memory.

use super::{Backend, PARTITION_DIRECTORY_BYTES, RELCACHE_USED, ScanForm, open_index, relcache_context};
use crate::host::mapped::MappedSlice;
use crate::pg::amapi::{BTREE_AM_OID, IndexAmRoutine, get_index_am_routine_by_am_id};
use crate::pg::mcxt::{ALLOC_CHUNKHDRSZ, AllocSet, MallocBackend, chunk_space, palloc, pfree};
use crate::pg::nodes::palloc_nodes;
use anyhow::{Result, bail};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The server the stream was recorded on.
pub const SERVER: &str = "PostgreSQL 18.6";

/// The recorded streams of each scan form's plan: `N token...` a line, `#` comments.
pub static EVENTS: [(ScanForm, &str, &str); 2] = [
    (ScanForm::IndexOnly, "src/study/alloc_churn/first-query-18.6-index-only.txt", include_str!("first-query-18.6-index-only.txt")),
    (ScanForm::Plain, "src/study/alloc_churn/first-query-18.6-index.txt", include_str!("first-query-18.6-index.txt")),
];

/// The first OID of a user relation (`FirstNormalObjectId`): below it, a catalog's.
pub const FIRST_NORMAL_OBJECT_ID: u32 = 16_384;

/// `sizeof(IndexAmRoutine)` on 18.6: a palloc of this size is a routine look-up.
pub const ROUTINE_PALLOC: usize = 248;

/// The catalog indexes whose `index info` the first query builds, with the bytes used there at
/// its end (the user indexes' are [`RELCACHE_USED`], the caches' [`CACHES_USED`]): 18.6 at
/// every recorded partition count (`MemoryContextStats(TopMemoryContext)` at `ExecutorEnd`,
/// the recordings' comment lines, which a test holds these to).
pub const CATALOG_INDEX_USED: [CatalogIndex; 4] = [
    CatalogIndex { oid: 2_665, name: "pg_constraint_conrelid_contypid_conname_index", key_columns: 3, used: 2_056 },
    CatalogIndex { oid: 2_678, name: "pg_index_indrelid_index", key_columns: 1, used: 1_368 },
    CatalogIndex { oid: 3_379, name: "pg_statistic_ext_relid_index", key_columns: 1, used: 1_296 },
    CatalogIndex { oid: 2_187, name: "pg_inherits_parent_index", key_columns: 1, used: 1_368 },
];

/// A catalog index whose relcache entry the first query builds.
#[derive(Clone, Copy, Debug)]
pub struct CatalogIndex {
    /// Its OID.
    pub oid: u32,
    /// Its name.
    pub name: &'static str,
    /// Its key columns.
    pub key_columns: usize,
    /// Bytes used in its `index info` at the query's end.
    pub used: usize,
}

/// Session caches the first query creates, each a context of the default sizes under
/// `TopMemoryContext`: its name, the bytes of the first batch of hash elements dynahash
/// allocates in it (`element_alloc`: `choose_nelem_alloc`'s power-of-two batch of at least
/// 32 elements; the Operator lookup cache's 160-byte elements come 51 to an 8,160-byte chunk,
/// which takes a 16 KiB block of its own), and the bytes used at the query's end.
pub const CACHES_USED: [(&str, usize, usize); 3] = [("search_path processing cache", 0, 2_536), ("Operator lookup cache", 51 * 160, 13_760), ("TableSpace cache", 32 * 32, 6_040)];

/// One event of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `A<size>`: a palloc of `size` bytes in `MessageContext`.
    Alloc(usize),
    /// `F<space>`: a pfree of a chunk of `GetMemoryChunkSpace` `space` (header included).
    Free(usize),
    /// `B<oid>`: the relcache builds relation `oid` (`RelationBuildDesc`).
    Build(u32),
    /// `H<name>`: `hash_create` of a table; its context (`dynahash`) follows.
    Hash(&'static str),
    /// `C<name>`: a memory context is created.
    Context(&'static str),
    /// `S`: a transaction snapshot is taken (`GetTransactionSnapshot`); the session's first
    /// mallocs the snapshot's xid arrays ([`SNAPSHOT_ARRAYS`]).
    Snapshot,
    /// `M<size>:<context>[/<ident>]`, of a context the stream did not create: a block of a
    /// session-long context the model has no model of (the local lock table's, the smgr
    /// table's, pgstat's), kept for the session. A block of a context the stream created
    /// (a cache's, an `index info`'s) is the model's own context's to malloc: [`parse`] drops
    /// it, as it drops `L<size>:<context>` (a chunk over another context's chunk limit: a
    /// catalog scan's state, freed with its scan, and the stream does not say when).
    Block(usize),
}

// A stream of 8 partitions holds ~5,000 events: at 32 bytes an event, a copy of it (a
// caller's stream, or the old per-backend copy) passed glibc's 128 KiB mmap threshold, and
// freeing an mmap'd chunk doubles the process's trim threshold, which no server's does.
const _: () = assert!(std::mem::size_of::<Event>() <= 24);

/// `PROCARRAY_MAXPROCS` of the recorded server at its defaults (18.6: 100 connections, 16
/// autovacuum worker slots, 8 worker processes, 10 WAL senders, 2 special workers; no
/// prepared transactions): the length of a snapshot's `xip` array.
pub const SNAPSHOT_MAX_PROCS: usize = 136;

/// The bytes `GetSnapshotData` mallocs for `CurrentSnapshotData` the first time a backend
/// takes a transaction snapshot: `xip` (`SNAPSHOT_MAX_PROCS` xids), then `subxip`
/// (`PGPROC_MAX_CACHED_SUBXIDS + 1` = 65 a proc), 544 and 35,360 bytes on 18.6, malloc'd
/// outside any memory context and kept for the backend's life.
pub const SNAPSHOT_ARRAYS: [usize; 2] = [SNAPSHOT_MAX_PROCS * 4, 65 * SNAPSHOT_MAX_PROCS * 4];

static SESSION_TAKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process has replayed a first query's session-long mallocs (the snapshot's
/// xid arrays and the `M` blocks): the first replay in a process does, as the server's
/// backend does once (one backend, one process, as the sweep's and the report's workers are).
pub fn session_mallocs_taken() -> bool {
    SESSION_TAKEN.load(std::sync::atomic::Ordering::Relaxed)
}

/// A session-long malloc of `size` bytes by `backend`, never freed (as the server's are not
/// until the backend exits).
fn session_malloc(backend: MallocBackend, size: usize) {
    // SAFETY: a malloc whose block is kept for the process's life; its address is
    // deliberately dropped.
    let p = unsafe { backend.malloc(size) };
    std::hint::black_box(p);
}

fn parse_token(t: &'static str) -> Result<Event> {
    let (kind, rest) = t.split_at(t.chars().next().map_or(0, char::len_utf8));
    let num = || rest.parse::<usize>().map_err(|_| anyhow::anyhow!("`{t}`: not a number after {kind}"));
    Ok(match kind {
        "A" => Event::Alloc(num()?),
        "F" => Event::Free(num()?),
        "B" => Event::Build(rest.parse().map_err(|_| anyhow::anyhow!("`{t}`: not an OID"))?),
        "H" => Event::Hash(rest),
        "C" => Event::Context(rest),
        "S" if rest.is_empty() => Event::Snapshot,
        _ => bail!("`{t}`: unknown event (A, F, B, H, C, S, M, L or X)"),
    })
}

/// An `M` or `L` token: (kind, size, context, ident or "").
fn other_context(t: &'static str) -> Result<Option<(char, usize, &'static str, &'static str)>> {
    let Some(kind) = t.chars().next().filter(|k| *k == 'M' || *k == 'L') else { return Ok(None) };
    let (size, cxt) = t[1..].split_once(':').ok_or_else(|| anyhow::anyhow!("`{t}`: not {kind}<size>:<context>"))?;
    let size = size.parse().map_err(|_| anyhow::anyhow!("`{t}`: not a number after {kind}"))?;
    let (name, ident) = cxt.split_once('/').unwrap_or((cxt, ""));
    Ok(Some((kind, size, name, ident)))
}

/// One line's tokens as events: `M` blocks of contexts the line created before them (a
/// `C<name>`, or for a `dynahash` the table an `H<name>` named), `L` chunks and their frees
/// (`X<ordinal of the L>`) dropped: a first query's are its catalog scans' states in the
/// search_path cache, each freed before the next event (two at 6 plain partitions on 18.6).
fn parse_line(toks: impl Iterator<Item = &'static str>) -> Result<Vec<Event>> {
    let (mut created, mut hashes): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for t in toks {
        if let Some(k) = t.strip_prefix('X') {
            k.parse::<usize>().map_err(|_| anyhow::anyhow!("`{t}`: not a number after X"))?;
            continue;
        }
        if let Some((kind, size, name, ident)) = other_context(t)? {
            let own = if name == "dynahash" { hashes.contains(&ident) } else { created.contains(&name) };
            if kind == 'M' && !own {
                out.push(Event::Block(size));
            }
            continue;
        }
        let e = parse_token(t)?;
        match e {
            Event::Context(name) => created.push(name),
            Event::Hash(name) => hashes.push(name),
            _ => {}
        }
        out.push(e);
    }
    Ok(out)
}

/// A context as `MemoryContextStats` showed it at the recorded query's `ExecutorEnd` (the
/// streams' comment lines: `# N partitions: NAME IDENT: TOTAL in B blocks, USED used`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedContext {
    /// The partition count of the run.
    pub partitions: usize,
    /// Its name (`index info`, `MessageContext`, ...).
    pub name: String,
    /// Its identifier (an index's or table's name), or empty.
    pub ident: String,
    /// Bytes in blocks.
    pub total: usize,
    /// Blocks.
    pub blocks: usize,
    /// Bytes used.
    pub used: usize,
}

/// The contexts `scripts/pg-first-query-events.py` records.
pub const RECORDED_NAMES: [&str; 7] = ["MessageContext", "index info", "partition key", "partition descriptor", "search_path processing cache", "Operator lookup cache", "TableSpace cache"];

/// The contexts the recorded runs showed (comment lines), in the dump's order: newest first.
pub fn recorded_contexts(text: &str) -> Result<Vec<RecordedContext>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("# ") else { continue };
        let Some((n, rest)) = rest.split_once(" partitions: ") else { continue };
        let bad = || anyhow::anyhow!("line {}: not `N partitions: NAME IDENT: TOTAL in B blocks, USED used`", i + 1);
        let (head, figures) = rest.rsplit_once(": ").ok_or_else(bad)?;
        let name = RECORDED_NAMES.iter().find(|n| head.starts_with(**n)).ok_or_else(|| anyhow::anyhow!("line {}: `{head}`: not a context the script records", i + 1))?;
        let ident = head[name.len()..].trim();
        let f: Vec<&str> = figures.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let num = |k: usize| f.get(k).and_then(|w| w.parse::<usize>().ok()).ok_or_else(bad);
        if f.len() != 6 || f[1] != "in" || f[3] != "blocks" || f[5] != "used" {
            return Err(bad());
        }
        out.push(RecordedContext { partitions: n.parse().map_err(|_| bad())?, name: name.to_string(), ident: ident.to_string(), total: num(0)?, blocks: num(2)?, used: num(4)? });
    }
    Ok(out)
}

/// The recorded run's context `name` at `partitions` in `form`'s plan (the first the dump
/// lists).
pub fn recorded_context(form: ScanForm, partitions: usize, name: &str) -> Option<&'static RecordedContext> {
    parsed(form).1.iter().find(|c| c.partitions == partitions && c.name == name)
}

/// `form`'s file, parsed once: its streams and its contexts. A corrupt file is a build of
/// this crate gone wrong, so it panics, naming the file.
fn parsed(form: ScanForm) -> &'static (BTreeMap<usize, Vec<Event>>, Vec<RecordedContext>) {
    static R: OnceLock<Vec<(BTreeMap<usize, Vec<Event>>, Vec<RecordedContext>)>> = OnceLock::new();
    let all = R.get_or_init(|| {
        EVENTS
            .iter()
            .map(|(_, path, text)| match parse(text).and_then(|e| Ok((e, recorded_contexts(text)?))) {
                Ok(r) => r,
                Err(e) => panic!("{path}: {e:#}"),
            })
            .collect()
    });
    &all[EVENTS.iter().position(|(f, _, _)| *f == form).expect("a file for every scan form")]
}

/// Parse the recorded streams.
pub fn parse(text: &'static str) -> Result<BTreeMap<usize, Vec<Event>>> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut toks = line.split_ascii_whitespace();
        let n: usize = toks.next().and_then(|t| t.parse().ok()).ok_or_else(|| anyhow::anyhow!("line {}: no partition count", i + 1))?;
        let events = parse_line(toks).map_err(|e| anyhow::anyhow!("line {}: {e:#}", i + 1))?;
        if out.insert(n, events).is_some() {
            bail!("line {}: {n} partitions recorded twice", i + 1);
        }
    }
    if out.is_empty() {
        bail!("no partition count recorded");
    }
    Ok(out)
}

/// `form`'s recorded streams.
pub fn recorded(form: ScanForm) -> &'static BTreeMap<usize, Vec<Event>> {
    &parsed(form).0
}

/// The recorded stream of `form`'s plan at `n` partitions, if there is one.
pub fn events(form: ScanForm, n: usize) -> Option<&'static [Event]> {
    recorded(form).get(&n).map(Vec::as_slice)
}

/// The replay's live chunks, (space, pointer), newest last, in pages mapped for it alone
/// ([`MappedSlice`]), so the model's bookkeeping takes nothing from glibc's heap.
struct LiveStack {
    slots: MappedSlice<(usize, *mut u8)>,
    len: usize,
}

impl LiveStack {
    fn new(cap: usize) -> Result<LiveStack> {
        let slots = MappedSlice::filled(cap, (0, std::ptr::null_mut())).map_err(|e| anyhow::anyhow!("mapping {cap} slots for the first query's replay: {e}"))?;
        Ok(LiveStack { slots, len: 0 })
    }

    fn push(&mut self, space: usize, p: *mut u8) {
        // At most one push an event, and the stack holds one slot an event.
        assert!(self.len < self.slots.len(), "more live chunks than events");
        self.slots[self.len] = (space, p);
        self.len += 1;
    }

    /// Remove the newest chunk of `space` and return its pointer.
    fn remove_newest(&mut self, space: usize) -> Option<*mut u8> {
        let slots = &mut self.slots[..self.len];
        let i = slots.iter().rposition(|&(s, _)| s == space)?;
        let (_, p) = slots[i];
        slots.copy_within(i + 1.., i);
        self.len -= 1;
        Some(p)
    }
}

/// What replaying a stream built: counts a test can hold against the server's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// pallocs (routine look-ups included, for the palloc-routine variant).
    pub pallocs: usize,
    /// Of them, over the chunk limit (a malloc each).
    pub large_pallocs: usize,
    /// pfrees matched to a live chunk.
    pub pfrees: usize,
    /// pfrees with no live chunk of their space (0 for a faithful stream).
    pub unmatched_pfrees: usize,
    /// `index info` contexts of catalog indexes, and of user indexes.
    pub catalog_indexes: usize,
    /// See `catalog_indexes`.
    pub user_indexes: usize,
}

/// Replay `events` as the first query's planning (see the module doc). `MessageContext` is
/// current; sets each partition's `rd_indam` and the plan's partition directory.
///
/// # Safety
/// `b`'s `MessageContext` is current and was reset at the query's start.
pub(super) unsafe fn replay<const PALLOC: bool>(b: &mut Backend, events: &[Event]) -> Result<Replayed> {
    let mut r = Replayed::default();
    // Live chunks: (space, pointer); a routine look-up of the static variant holds none. The
    // model's bookkeeping stays out of the heap it models: a freed stack there would leave a
    // hole below the first query's blocks that no server's heap has.
    let mut live = LiveStack::new(events.len())?;
    let mut last_oid = 0u32;
    let mut hash: Option<&str> = None;
    // Whether this replay takes the session's mallocs.
    let session = !SESSION_TAKEN.swap(true, std::sync::atomic::Ordering::Relaxed);
    let mut snapshot = false;
    // After `index info`, open_index has made the routine look-up and its pfree (none for
    // the static routine): the stream's two events for them are consumed.
    let (mut skip_routine, mut skip_free) = (false, false);
    let routine_space = ROUTINE_PALLOC.next_power_of_two() + ALLOC_CHUNKHDRSZ;
    let partitions = b.rels.len();
    // SAFETY: the caller's contract; every chunk freed below was palloc'd here, in this query.
    unsafe {
        for &e in events {
            match e {
                Event::Alloc(ROUTINE_PALLOC) if skip_routine => skip_routine = false,
                Event::Alloc(ROUTINE_PALLOC) => {
                    let p = match get_index_am_routine_by_am_id(&b.pg_am, BTREE_AM_OID) {
                        Ok(p) => p.cast_mut().cast::<u8>(),
                        Err(e) => super::lookup_failed(e),
                    };
                    live.push(routine_space, if PALLOC { p } else { std::ptr::null_mut() });
                    r.pallocs += usize::from(PALLOC);
                }
                Event::Alloc(size) => {
                    let p = palloc(size);
                    live.push(chunk_space(p) + ALLOC_CHUNKHDRSZ, p);
                    r.pallocs += 1;
                    r.large_pallocs += usize::from(size > crate::pg::mcxt::ALLOC_CHUNK_LIMIT);
                }
                Event::Free(space) if skip_free && space == routine_space => skip_free = false,
                Event::Free(space) => match live.remove_newest(space) {
                    Some(p) => {
                        if !p.is_null() {
                            pfree(p);
                            r.pfrees += 1;
                        }
                    }
                    None => r.unmatched_pfrees += 1,
                },
                Event::Build(oid) => last_oid = oid,
                // The session's first snapshot mallocs its xid arrays.
                Event::Snapshot if session && !snapshot => {
                    snapshot = true;
                    for size in SNAPSHOT_ARRAYS {
                        session_malloc(b.spec.backend, size);
                    }
                }
                Event::Snapshot => {}
                Event::Block(size) => {
                    if session {
                        session_malloc(b.spec.backend, size);
                    }
                }
                Event::Hash(name) => hash = Some(name),
                Event::Context("index_info") => {
                    let user = r.user_indexes;
                    let (used, key_columns) = if last_oid < FIRST_NORMAL_OBJECT_ID {
                        match CATALOG_INDEX_USED.iter().find(|c| c.oid == last_oid) {
                            Some(c) => (c.used, c.key_columns),
                            None => bail!("index info of catalog index {last_oid}: no size recorded (CATALOG_INDEX_USED)"),
                        }
                    } else if user < 2 {
                        (RELCACHE_USED.parent_indexes[user], 1)
                    } else if user < 2 + 2 * partitions {
                        (RELCACHE_USED.partition_indexes[(user - 2) % 2], 1)
                    } else {
                        bail!("more user indexes than {partitions} partitions have");
                    };
                    let rd_indam: *const IndexAmRoutine = open_index::<PALLOC>(b, used, key_columns);
                    if last_oid < FIRST_NORMAL_OBJECT_ID {
                        r.catalog_indexes += 1;
                    } else {
                        // A partition's primary key, then its bid index (the one the plan scans).
                        if user >= 2 && (user - 2) % 2 == 1 {
                            b.rels[(user - 2) / 2].rd_indam = rd_indam;
                        }
                        r.user_indexes += 1;
                    }
                    (skip_routine, skip_free) = (true, true);
                }
                Event::Context("dynahash") => match hash.take() {
                    Some("partition_directory") => {
                        let pdir = AllocSet::with_default_sizes("partition directory", b.spec.backend);
                        palloc_nodes(&pdir, PARTITION_DIRECTORY_BYTES);
                        b.partition_dir = Some(pdir);
                    }
                    Some(name) => cache(b, name)?,
                    None => bail!("a dynahash context with no hash table named before it"),
                },
                Event::Context("search_path_processing_cache") => cache(b, "search_path_processing_cache")?,
                Event::Context("partition_key") => relcache_context(b, "partition key", RELCACHE_USED.partition_key, |_| ()),
                Event::Context("partition_descriptor") => {
                    // Its bounds grow with the partitions: the recorded run's bytes.
                    let used = recorded_context(b.form, partitions, "partition descriptor").map_or(RELCACHE_USED.partition_descriptor, |c| c.used);
                    relcache_context(b, "partition descriptor", used, |_| ())
                }
                // The portal's context is not modelled in any query.
                Event::Context("PortalContext") => {}
                Event::Context(name) => bail!("context `{name}`: not one the model knows"),
            }
        }
    }
    if r.user_indexes != 2 + 2 * partitions {
        bail!("the stream built {} user indexes' entries; {partitions} partitions need {}", r.user_indexes, 2 + 2 * partitions);
    }
    if b.partition_dir.is_none() {
        bail!("the stream created no partition directory");
    }
    // What the stream left allocated stays until the next reset, as the server's does.
    Ok(r)
}

/// A session cache of [`CACHES_USED`] (its name with `_` for spaces), kept for the backend's
/// life.
fn cache(b: &mut Backend, name: &str) -> Result<()> {
    let Some(&(name, elements, used)) = CACHES_USED.iter().find(|(n, _, _)| n.replace(' ', "_") == name) else {
        bail!("cache `{name}`: no size recorded (CACHES_USED)");
    };
    let cxt = AllocSet::with_default_sizes(name, b.spec.backend);
    if elements > 0 {
        // SAFETY: a fresh chunk of `elements` bytes.
        unsafe { cxt.alloc(elements).as_ptr().write_bytes(0, elements) };
    }
    palloc_nodes(&cxt, used.saturating_sub(cxt.stats().used()));
    b.session_cxts.push(cxt);
    Ok(())
}
